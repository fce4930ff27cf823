//! docs/ stays true to the code it describes (issue 25): every citation of a docs page from the
//! code or from another page resolves (the page, its "§N" section, its "(NAME.N)" equation), every
//! repository path a page names exists, and every identifier named after "Implemented in:" or
//! "Tested" is still defined in the code. Plain text scanning, no build of the crate's logic.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Text files under `dir` (recursively) with one of the extensions.
fn files(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if !path.ends_with("pkg") && !path.ends_with("node_modules") {
                files(&path, extensions, out);
            }
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)) {
            out.push(path);
        }
    }
}

/// One docs page: its "§N" section numbers and the equation labels it defines.
struct Page {
    sections: BTreeSet<u32>,
    equations: BTreeSet<String>,
    text: String,
}

/// A section heading is a Markdown heading starting "§N"; an equation is defined by a line that
/// starts (after indentation) with its label "(NAME.N)" and two spaces.
fn parse_page(text: String) -> Page {
    let mut sections = BTreeSet::new();
    let mut equations = BTreeSet::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.trim_start_matches('#').strip_prefix(" §") {
            if trimmed.starts_with('#') {
                if let Some(n) = leading_number(rest) {
                    sections.insert(n);
                }
            }
        }
        if let Some(label) = equation_label(trimmed).filter(|l| trimmed[l.len() + 2..].starts_with("  ")) {
            equations.insert(label);
        }
    }
    Page { sections, equations, text }
}

fn leading_number(s: &str) -> Option<u32> {
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// "(SGLD.3)…" → "SGLD.3".
fn equation_label(s: &str) -> Option<String> {
    let inner = s.strip_prefix('(')?;
    let end = inner.find(')')?;
    let label = &inner[..end];
    let (name, number) = label.split_once('.')?;
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase()) && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
    ok.then(|| label.to_string())
}

fn pages() -> BTreeMap<String, Page> {
    let mut paths = Vec::new();
    files(&root().join("docs"), &["md"], &mut paths);
    paths.into_iter().map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), parse_page(fs::read_to_string(&p).unwrap()))).collect()
}

/// Every "docs/<page>.md" in `text` with what follows it: " §N", " §N–§M", " (NAME.N)".
fn code_citations(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("docs/") {
        let after = &rest[at + 5..];
        let name: String = after.chars().take_while(|c| c.is_ascii_lowercase() || *c == '-' || *c == '.' || c.is_ascii_uppercase()).collect();
        let name = name.trim_end_matches('.').to_string();
        if name.ends_with(".md") {
            let tail: String = after[name.len()..].chars().take(40).collect();
            found.push((name, tail));
        }
        rest = after;
    }
    found
}

/// Check one citation's tail against the page: a leading " §N" (and "–§M") must be sections, a
/// leading " (NAME.N)" an equation of that page.
fn check_tail(page_name: &str, page: &Page, tail: &str, at: &str, problems: &mut Vec<String>) {
    let tail = tail.trim_start_matches('`').trim_start_matches(')');
    if let Some(rest) = tail.strip_prefix(" §") {
        let mut numbers = vec![leading_number(rest)];
        if let Some((_, more)) = rest.split_once("–§") {
            numbers.push(leading_number(more));
        }
        for n in numbers.into_iter().flatten() {
            if !page.sections.contains(&n) {
                problems.push(format!("{at}: docs/{page_name} has no §{n}"));
            }
        }
    } else if let Some(label) = tail.strip_prefix(' ').and_then(equation_label) {
        if !page.equations.contains(&label) {
            problems.push(format!("{at}: docs/{page_name} defines no ({label})"));
        }
    }
}

#[test]
fn every_citation_of_docs_in_the_code_resolves() {
    let pages = pages();
    assert!(pages.len() >= 8, "docs/ should hold the index and the seven topic pages");
    let mut sources = Vec::new();
    for dir in ["src", "tests", "www", "bench", "scripts"] {
        files(&root().join(dir), &["rs", "js", "mjs", "sh", "py", "patch", "html"], &mut sources);
    }
    sources.push(root().join("index.html"));
    sources.push(root().join("README.md"));
    let mut problems = Vec::new();
    let mut cited = 0;
    for path in &sources {
        let Ok(text) = fs::read_to_string(path) else { continue };
        for (name, tail) in code_citations(&text) {
            let at = path.strip_prefix(root()).unwrap().display().to_string();
            match pages.get(&name) {
                None => problems.push(format!("{at}: cites docs/{name}, which does not exist")),
                Some(page) => check_tail(&name, page, &tail, &at, &mut problems),
            }
            cited += 1;
        }
    }
    assert!(cited > 0, "README.md cites docs/ at least");
    assert!(problems.is_empty(), "broken citations of docs/:\n{}", problems.join("\n"));
}

/// "[page.md](page.md) §N" and "(NAME.N)" references between the pages resolve too.
#[test]
fn references_between_docs_pages_resolve() {
    let pages = pages();
    let all_equations: BTreeSet<&String> = pages.values().flat_map(|p| &p.equations).collect();
    let mut problems = Vec::new();
    for (name, page) in &pages {
        let mut rest = page.text.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let target: String = after.chars().take_while(|c| *c != ')' && *c != '#').collect();
            if let Some(other) = pages.get(&target) {
                let tail: String = after[target.len()..].chars().skip_while(|c| *c != ')').skip(1).take(12).collect();
                check_tail(&target, other, &tail, name, &mut problems);
            } else if target.ends_with(".md") {
                problems.push(format!("{name}: links to {target}, which is not a docs page"));
            }
            rest = after;
        }
        for (i, _) in page.text.match_indices('(') {
            if let Some(label) = equation_label(&page.text[i..]) {
                if !all_equations.contains(&label) {
                    problems.push(format!("{name}: ({label}) is cited but defined on no page"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "broken references between docs pages:\n{}", problems.join("\n"));
}

/// Backticked spans of the "Implemented in:" and "Tested" paragraphs of a page.
fn implementation_spans(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    for paragraph in text.split("\n\n") {
        let Some(start) = paragraph.find("Implemented in:").or_else(|| paragraph.find("Tested")) else { continue };
        let mut parts = paragraph[start..].split('`');
        parts.next();
        while let (Some(span), _) = (parts.next(), parts.next()) {
            spans.push(span.to_string());
        }
    }
    spans
}

#[test]
fn files_and_functions_named_by_the_docs_exist() {
    let pages = pages();
    let mut code = String::new();
    let mut sources = Vec::new();
    for dir in ["src", "tests", "www"] {
        files(&root().join(dir), &["rs", "js", "mjs"], &mut sources);
    }
    for path in &sources {
        code.push_str(&fs::read_to_string(path).unwrap());
        code.push('\n');
    }
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let defined = |word: &str| code.match_indices(word).any(|(i, _)| {
        let before = code[..i].chars().next_back().is_none_or(|c| !is_word(c));
        let after = code[i + word.len()..].chars().next().is_none_or(|c| !is_word(c));
        before && after
    });
    let mut problems = Vec::new();
    let mut checked = 0;
    for (name, page) in &pages {
        // Every repository path the page names, in backticks or not, except on a line that
        // starts "*Planned:" (a specification of code still being written).
        let current: String = page.text.lines().filter(|l| !l.starts_with("*Planned:")).collect::<Vec<_>>().join("\n");
        for token in current.split(|c: char| c.is_whitespace() || "`(),;[]".contains(c)) {
            let token = token.trim_end_matches(['.', ':']);
            let is_path = ["src/", "tests/", "www/", "scripts/", "bench/"].iter().any(|p| token.starts_with(p)) && token.contains('.');
            if is_path && !root().join(token).exists() && !token.contains('*') {
                problems.push(format!("{name}: names {token}, which does not exist"));
            }
        }
        for span in implementation_spans(&page.text) {
            if span.contains('/') || span.contains(' ') || span.contains('(') || span.contains('=') {
                continue;
            }
            for segment in span.split("::") {
                checked += 1;
                if !defined(segment) {
                    problems.push(format!("{name}: `{span}` — `{segment}` is defined nowhere in src/, tests/ or www/"));
                }
            }
        }
    }
    assert!(checked > 50, "the pages name their implementations ({checked} identifiers checked)");
    assert!(problems.is_empty(), "docs name code that is not there:\n{}", problems.join("\n"));
}

/// The specs the code implements live in the repository: nothing cites the out-of-tree
/// spec any more (issue 25's definition of done).
#[test]
fn no_code_cites_the_out_of_tree_spec() {
    let mut sources = Vec::new();
    for dir in ["src", "tests", "www", "bench", "scripts"] {
        files(&root().join(dir), &["rs", "js", "mjs", "sh", "py", "patch", "html"], &mut sources);
    }
    sources.push(root().join("index.html"));
    let old = ["ALGORITHMS", ".md"].concat();
    let citing: Vec<String> = sources
        .iter()
        .filter(|p| fs::read_to_string(p).is_ok_and(|t| t.contains(&old)))
        .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    assert!(citing.is_empty(), "{} files still cite {old} (run the citation rewrite): {citing:?}", citing.len());
}
