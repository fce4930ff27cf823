//! The structure test's two parsers (tests/structure.rs): the file-level module graph of src/
//! (Rust `crate::`, `super::`, `self::` and child paths, in `use` lines and inline; `#[cfg(test)]`
//! modules excluded) and of www/ (ES static, dynamic and re-export imports). Small on purpose, and
//! tested in tests/structure.rs on hand-written snippets.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// Rust: file-level module graph.

/// `text` with comments, string and char literals blanked out (same length, newlines kept), so
/// paths are only found in code.
pub(crate) fn rust_code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(if b[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || (next == Some('#') && !prev_is_ident(&b, i))) && !prev_is_ident(&b, i) {
            // Raw string r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for k in i..j.min(b.len()) {
                out.push(if b[k] == '\n' { '\n' } else { ' ' });
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(if b[i] == '\n' { '\n' } else { ' ' });
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && is_char_literal(&b, i) {
            let end = b[i + 1..].iter().position(|&x| x == '\'').map(|p| i + 1 + p + 1).unwrap_or(b.len());
            let end = if b.get(i + 1) == Some(&'\\') { b[i + 3..].iter().position(|&x| x == '\'').map(|p| i + 3 + p + 1).unwrap_or(b.len()) } else { end };
            for _ in i..end {
                out.push(' ');
            }
            i = end;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev_is_ident(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// A `'` that opens a char literal ('a', '\n', '\u{..}') rather than a lifetime ('a).
fn is_char_literal(b: &[char], i: usize) -> bool {
    match (b.get(i + 1), b.get(i + 2)) {
        (Some('\\'), _) => true,
        (Some(_), Some('\'')) => true,
        _ => false,
    }
}

/// The module path (segments below the crate root) of a source file: src/lib.rs → [],
/// src/sampler/mod.rs → [sampler], src/sampler/sbps.rs → [sampler, sbps].
pub(crate) fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix("src").unwrap();
    let mut segs: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let last = segs.pop().unwrap();
    let stem = last.trim_end_matches(".rs").to_string();
    if stem != "mod" && stem != "lib" {
        segs.push(stem);
    }
    segs
}

/// The file of the deepest module named by a prefix of `segs` (an item path below the crate
/// root): crate::sampler::sbps::Sbps → src/sampler/sbps.rs; crate::sampler::Sampler →
/// src/sampler/mod.rs.
fn file_of(modules: &BTreeMap<Vec<String>, PathBuf>, segs: &[String]) -> Option<PathBuf> {
    (0..=segs.len()).rev().find_map(|k| modules.get(&segs[..k]).cloned())
}

/// The paths a `use` tree names, with braces expanded: `a::{b, c::{d, e}}` → a::b, a::c::d, a::c::e.
pub(crate) fn expand_use_tree(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split(" as ").next().unwrap().to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand_use_tree(p).into_iter().map(move |q| if q == "self" { prefix.trim_end_matches("::").to_string() } else { format!("{prefix}{q}") }))
        .collect()
}

/// Depth of inline `mod name { … }` blocks at each byte offset of `code` (comments blanked).
pub(crate) fn inline_mod_depths(code: &str) -> Vec<usize> {
    let bytes = code.as_bytes();
    let mut depth_at = vec![0; bytes.len() + 1];
    let mut braces = 0usize;
    let mut mod_braces: Vec<usize> = Vec::new();
    let mut pending_mod = false;
    let mut i = 0;
    while i < bytes.len() {
        if code[i..].starts_with("mod ") && (i == 0 || !(bytes[i - 1] as char).is_alphanumeric() && bytes[i - 1] != b'_') {
            let rest = &code[i + 4..];
            let name_len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
            if rest[name_len..].trim_start().starts_with('{') {
                pending_mod = true;
            }
        }
        match bytes[i] {
            b'{' => {
                braces += 1;
                if pending_mod {
                    mod_braces.push(braces);
                    pending_mod = false;
                }
            }
            b'}' => {
                if mod_braces.last() == Some(&braces) {
                    mod_braces.pop();
                }
                braces = braces.saturating_sub(1);
            }
            _ => {}
        }
        depth_at[i] = mod_braces.len();
        i += 1;
    }
    depth_at
}

/// The crate-relative segments a path written in module `here` (at inline-module depth `inline`)
/// refers to, or None when it is not a `crate::`/`super::`/`self::` path.
fn absolute(here: &[String], children: &BTreeSet<String>, inline: usize, path: &str) -> Option<Vec<String>> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let first = *segs.first()?;
    let mut base: Vec<String>;
    let mut rest = &segs[..];
    match first {
        "crate" => {
            base = Vec::new();
            rest = &rest[1..];
        }
        "super" | "self" => {
            base = here.to_vec();
            let mut inline_left = inline;
            while let Some(&s) = rest.first() {
                match s {
                    "self" => {}
                    "super" if inline_left > 0 => inline_left -= 1,
                    "super" => {
                        base.pop()?;
                    }
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        child if inline == 0 && children.contains(child) => base = here.to_vec(),
        _ => return None,
    }
    base.extend(rest.iter().map(|s| s.to_string()));
    Some(base)
}

/// `code` with its `#[cfg(test)] mod name { … }` blocks blanked: unit tests sit on top of the
/// crate like the files in tests/ (they may use any module), so they are no part of the layering.
pub(crate) fn without_test_modules(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(pos) = code[from..].find("#[cfg(test)]") {
        let at = from + pos;
        from = at + 1;
        let after = code[at + 12..].trim_start();
        if !(after.starts_with("mod ") || after.starts_with("pub mod ")) {
            continue;
        }
        let Some(open) = code[at..].find('{').map(|o| at + o) else { break };
        if code[at + 12..open].contains(';') {
            continue;
        }
        let mut depth = 0;
        let mut end = code.len();
        for (k, b) in code.as_bytes()[open..].iter().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        for b in &mut out[at..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(out).unwrap()
}

/// Names of the child modules a file declares (`mod name;`, not inline `mod name { … }`).
pub(crate) fn declared_children(code: &str) -> BTreeSet<String> {
    code.split(';')
        .filter_map(|stmt| {
            let words: Vec<&str> = stmt.split_whitespace().collect();
            match words.as_slice() {
                [.., "mod", name] if name.chars().all(|c| c.is_alphanumeric() || c == '_') => Some(name.to_string()),
                _ => None,
            }
        })
        .collect()
}

/// Every (crate-relative) path a Rust source file refers to through `crate::`, `super::`,
/// `self::` or one of its own child modules (`child::Item`), from `use` declarations (brace
/// groups expanded) and from paths written inline.
pub(crate) fn rust_references(here: &[String], text: &str) -> Vec<Vec<String>> {
    let code = without_test_modules(&rust_code_only(text));
    let children = declared_children(&code);
    let depths = inline_mod_depths(&code);
    let mut refs = Vec::new();
    let mut masked = code.clone().into_bytes();
    // `use` declarations first (they may hold brace groups), then blank them out.
    let mut search = 0;
    while let Some(pos) = code[search..].find("use ") {
        let at = search + pos;
        search = at + 4;
        if at > 0 && ((code.as_bytes()[at - 1] as char).is_alphanumeric() || code.as_bytes()[at - 1] == b'_') {
            continue;
        }
        let Some(end) = code[at..].find(';') else { break };
        let tree = &code[at + 4..at + end];
        for path in expand_use_tree(tree) {
            if let Some(abs) = absolute(here, &children, depths[at], &path) {
                refs.push(abs);
            }
        }
        for b in &mut masked[at..at + end] {
            *b = b' ';
        }
        search = at + end;
    }
    let masked = String::from_utf8(masked).unwrap();
    let child_prefixes: Vec<String> = children.iter().map(|c| format!("{c}::")).collect();
    for kw in ["crate::", "super::", "self::"].into_iter().chain(child_prefixes.iter().map(|s| s.as_str())) {
        let mut from = 0;
        while let Some(pos) = masked[from..].find(kw) {
            let at = from + pos;
            from = at + kw.len();
            if at > 0 && ((masked.as_bytes()[at - 1] as char).is_alphanumeric() || masked.as_bytes()[at - 1] == b'_' || masked.as_bytes()[at - 1] == b':') {
                continue;
            }
            let len = masked[at..].find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(masked.len() - at);
            if let Some(abs) = absolute(here, &children, depths[at], masked[at..at + len].trim_end_matches(':')) {
                refs.push(abs);
            }
        }
    }
    refs
}

/// File → files it refers to, for the given Rust sources (path, text).
pub(crate) fn rust_graph(sources: &[(PathBuf, String)]) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let modules: BTreeMap<Vec<String>, PathBuf> = sources.iter().map(|(p, _)| (module_of(p), p.clone())).collect();
    let mut graph = BTreeMap::new();
    for (path, text) in sources {
        let here = module_of(path);
        let edges: BTreeSet<PathBuf> = rust_references(&here, text)
            .iter()
            .filter_map(|segs| file_of(&modules, segs))
            .filter(|target| target != path)
            .collect();
        graph.insert(path.clone(), edges);
    }
    graph
}

// ---------------------------------------------------------------------------------------------
// JavaScript: file-level import graph.

/// The relative module specifiers a JS file imports: static `import … from`, `export … from`,
/// side-effect `import './x.js'` and dynamic `import('./x.js')`, outside comments.
pub(crate) fn js_specifiers(text: &str) -> Vec<String> {
    let mut code = String::new();
    let mut in_block = false;
    for line in text.lines() {
        let mut l = line.to_string();
        if in_block {
            match l.find("*/") {
                Some(p) => {
                    l = l[p + 2..].to_string();
                    in_block = false;
                }
                None => continue,
            }
        }
        while let Some(p) = l.find("/*") {
            match l[p..].find("*/") {
                Some(q) => l = format!("{}{}", &l[..p], &l[p + q + 2..]),
                None => {
                    l.truncate(p);
                    in_block = true;
                }
            }
        }
        if l.trim_start().starts_with("//") {
            continue;
        }
        code.push_str(&l);
        code.push('\n');
    }
    let mut out = Vec::new();
    for (kw, quote_after) in [("from", true), ("import", true), ("import(", false)] {
        let mut from = 0;
        while let Some(pos) = code[from..].find(kw) {
            let at = from + pos;
            from = at + kw.len();
            if at > 0 && ((code.as_bytes()[at - 1] as char).is_alphanumeric() || code.as_bytes()[at - 1] == b'_' || code.as_bytes()[at - 1] == b'.') {
                continue;
            }
            let rest = code[at + kw.len()..].trim_start();
            let rest = if quote_after { rest } else { rest };
            let Some(q) = rest.chars().next() else { continue };
            if q != '\'' && q != '"' && q != '`' {
                continue;
            }
            if let Some(end) = rest[1..].find(q) {
                let spec = &rest[1..1 + end];
                if spec.starts_with("./") || spec.starts_with("../") {
                    out.push(spec.to_string());
                }
            }
        }
    }
    out
}

fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

pub(crate) fn js_graph(sources: &[(PathBuf, String)]) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let known: BTreeSet<PathBuf> = sources.iter().map(|(p, _)| p.clone()).collect();
    sources
        .iter()
        .map(|(path, text)| {
            let dir = path.parent().unwrap();
            let edges = js_specifiers(text).iter().map(|s| normalise(&dir.join(s))).filter(|t| known.contains(t) && t != path).collect();
            (path.clone(), edges)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Cycles.
