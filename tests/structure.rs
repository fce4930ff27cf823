//! The layout rules of issue 25, checked on the source tree itself: no import cycle between files
//! in src/ (Rust `crate::`, `super::`, `self::` and `child_module::` paths, in `use` lines and
//! inline, one node per file; `#[cfg(test)]` modules excluded) or in www/ (ES `import … from './x.js'`, `export … from`, dynamic `import('./x.js')`), no
//! code file over 600 lines (src/, www/, tests/, bench/, examples/, scripts/), every file opening with a comment that says
//! what it owns, and no unit test left in the library (they are in tests/unit/). A failure names the cycle as a path of files, or the file and its length.
//!
//! The parsers are deliberately small and are themselves tested below on hand-written snippets
//! (a cycle that must be found, a tree that has none), so the check cannot pass by seeing nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Longest source file allowed, unit tests included (issue 25).
const MAX_LINES: usize = 600;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Every file under `dir` whose name ends with one of `exts`, as paths relative to the repository.
fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if exts.iter().any(|e| path.to_string_lossy().ends_with(e)) {
                out.push(path.strip_prefix(root()).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

#[path = "structure/graphs.rs"]
mod graphs;
use graphs::{js_graph, rust_graph};

/// Every elementary cycle found by a depth-first search, one per back edge, as the file path
/// that closes it (first file repeated at the end).
fn cycles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(node: &PathBuf, graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>, marks: &mut BTreeMap<PathBuf, Mark>, stack: &mut Vec<PathBuf>, found: &mut Vec<Vec<PathBuf>>) {
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::New) {
                Mark::New => visit(next, graph, marks, stack, found),
                Mark::Open => {
                    let start = stack.iter().position(|n| n == next).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    found.push(cycle);
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
    }
    let mut marks = BTreeMap::new();
    let mut found = Vec::new();
    for node in graph.keys() {
        if marks.get(node).copied().unwrap_or(Mark::New) == Mark::New {
            visit(node, graph, &mut marks, &mut Vec::new(), &mut found);
        }
    }
    found
}

fn describe(cycles: &[Vec<PathBuf>]) -> String {
    cycles.iter().map(|c| c.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" → ")).collect::<Vec<_>>().join("\n  ")
}

fn read_all(files: Vec<PathBuf>) -> Vec<(PathBuf, String)> {
    files.into_iter().map(|p| (p.clone(), fs::read_to_string(root().join(&p)).unwrap())).collect()
}

// ---------------------------------------------------------------------------------------------
// The checks on the tree.

#[test]
fn no_import_cycle_between_rust_files() {
    let sources = read_all(files_under(&root().join("src"), &[".rs"]));
    let graph = rust_graph(&sources);
    let edges: usize = graph.values().map(|e| e.len()).sum();
    assert!(edges > 100, "the parser found only {edges} references between files in src/: it has stopped seeing them");
    let found = cycles(&graph);
    assert!(found.is_empty(), "import cycles between files in src/ (move what both sides need below them):\n  {}", describe(&found));
}

#[test]
fn no_import_cycle_between_page_modules() {
    let sources = read_all(files_under(&root().join("www"), &[".js", ".mjs"]));
    let graph = js_graph(&sources);
    let edges: usize = graph.values().map(|e| e.len()).sum();
    assert!(edges > 30, "the parser found only {edges} imports between files in www/: it has stopped seeing them");
    let found = cycles(&graph);
    assert!(found.is_empty(), "import cycles between modules in www/ (pass a callback or an event instead):\n  {}", describe(&found));
}

#[test]
fn no_source_file_is_over_600_lines() {
    let mut files = files_under(&root().join("src"), &[".rs"]);
    files.extend(files_under(&root().join("www"), &[".js", ".mjs"]));
    assert!(files.len() > 50, "only {} source files found", files.len());
    // The rule is the repository's, not only the product's: tests, benches, examples and scripts
    // too (tests/e2e's browser files included; generated www/pkg is not in the tree).
    for dir in ["tests", "bench", "examples", "scripts"] {
        files.extend(files_under(&root().join(dir), &[".rs", ".js", ".mjs", ".sh", ".py"]));
    }
    let long: Vec<String> = read_all(files)
        .into_iter()
        .filter(|(_, text)| text.lines().count() > MAX_LINES)
        .map(|(p, text)| format!("{} ({} lines)", p.display(), text.lines().count()))
        .collect();
    assert!(long.is_empty(), "files over {MAX_LINES} lines (split them along their seams; move long test modules to tests/):\n  {}", long.join("\n  "));
}

#[test]
fn every_source_file_opens_with_a_comment_saying_what_it_owns() {
    let mut files = files_under(&root().join("src"), &[".rs"]);
    files.extend(files_under(&root().join("www"), &[".js", ".mjs"]));
    let bare: Vec<String> = read_all(files)
        .into_iter()
        .filter(|(_, text)| {
            let first = text.lines().next().unwrap_or("").trim_start();
            !(first.starts_with("//") || first.starts_with("/*")) || first.trim_start_matches(['/', '!', '*']).trim().len() < 10
        })
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert!(bare.is_empty(), "files without an opening comment saying what they own:\n  {}", bare.join("\n  "));
}

/// The library holds no unit tests (issue 23): Cargo.toml's `[lib] test = false` spares the build
/// a second compilation of the library with `cfg(test)`, so a `#[cfg(test)]` module or a `#[test]`
/// under src/ would never be compiled or run. The unit tests are in tests/unit/, mirroring src/.
#[test]
fn the_library_holds_no_unit_tests() {
    let manifest = fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let lib = manifest.split("\n[lib]\n").nth(1).and_then(|rest| rest.split("\n[").next()).unwrap_or("");
    assert!(lib.lines().any(|l| l.trim() == "test = false"), "Cargo.toml's [lib] should say `test = false`:\n{lib}");
    let with_tests: Vec<String> = read_all(files_under(&root().join("src"), &[".rs"]))
        .into_iter()
        .filter(|(_, text)| text.lines().map(str::trim_start).any(|l| l.starts_with("#[cfg(test)]") || l.starts_with("#[test]")))
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert!(
        with_tests.is_empty(),
        "unit tests under src/ never run ([lib] test = false): move them to tests/unit/ (tests of module a::b in tests/unit/a/b/tests.rs):\n  {}",
        with_tests.join("\n  ")
    );
}

// ---------------------------------------------------------------------------------------------
// The parsers, on hand-written cases.

fn src(path: &str, text: &str) -> (PathBuf, String) {
    (PathBuf::from(path), text.to_string())
}

#[test]
fn the_rust_parser_finds_a_cycle_through_grouped_uses_super_and_inline_paths() {
    let sources = vec![
        src("src/lib.rs", "pub mod a;\npub mod s;"),
        src("src/a.rs", "//! a\nuse crate::{b::{self, X}, c::Y as Z};\n"),
        src("src/b.rs", "fn f() { let _ = crate::s::t::g(); }\n// crate::a::nothing in a comment\nconst S: &str = \"crate::a::x\";"),
        src("src/c.rs", "fn c() {}"),
        src("src/s/mod.rs", "pub mod t;\nmod u;\nfn h() { u::k() }"),
        src("src/s/u.rs", "pub fn k() {}"),
        src("src/s/t.rs", "use super::super::a::A;\nmod inner { use super::g; }\n#[cfg(test)]\nmod tests { use crate::b::B; fn f() { crate::c::c() } }"),
    ];
    let graph = rust_graph(&sources);
    let p = PathBuf::from;
    assert_eq!(graph[&p("src/a.rs")], [p("src/b.rs"), p("src/c.rs")].into_iter().collect());
    assert_eq!(graph[&p("src/b.rs")], [p("src/s/t.rs")].into_iter().collect(), "comments and strings are not references");
    assert_eq!(graph[&p("src/s/t.rs")], [p("src/a.rs")].into_iter().collect(), "super:: inside an inline module is the file itself; unit-test modules are no edges");
    assert_eq!(graph[&p("src/s/mod.rs")], [p("src/s/u.rs")].into_iter().collect(), "a path through a declared child module is an edge to it");
    let found = cycles(&graph);
    assert_eq!(describe(&found), "src/a.rs → src/b.rs → src/s/t.rs → src/a.rs");
}

#[test]
fn the_rust_parser_sees_no_cycle_in_a_layered_tree() {
    let sources = vec![
        src("src/lib.rs", "pub mod low; pub mod high;"),
        src("src/low.rs", "pub struct L;"),
        src("src/high/mod.rs", "use crate::low::L; pub mod leaf;"),
        src("src/high/leaf.rs", "use crate::low::L; fn f(_: &'static str) -> char { '{' }"),
    ];
    assert!(cycles(&rust_graph(&sources)).is_empty());
}

#[test]
fn the_js_parser_finds_static_dynamic_and_reexport_cycles() {
    let sources = vec![
        src("www/a.js", "// import { x } from './c.js';\nimport { b } from './b.js';\n"),
        src("www/b.js", "export { c } from \"./sub/c.js\";"),
        src("www/sub/c.js", "/* import './b.js' */\nconst m = await import('../a.js');"),
        src("www/d.js", "import './a.js';"),
    ];
    let graph = js_graph(&sources);
    let p = PathBuf::from;
    assert_eq!(graph[&p("www/a.js")], [p("www/b.js")].into_iter().collect(), "a commented-out import is no edge");
    assert_eq!(graph[&p("www/sub/c.js")], [p("www/a.js")].into_iter().collect());
    assert_eq!(graph[&p("www/d.js")], [p("www/a.js")].into_iter().collect());
    assert_eq!(describe(&cycles(&graph)), "www/a.js → www/b.js → www/sub/c.js → www/a.js");
}
