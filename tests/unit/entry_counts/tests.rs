//! Unit tests of src/entry_counts.rs (`entry_counts::tests`), moved out of the library so that it compiles
//! once (issue 23); they test it through its public API.

#[test]
fn counts_accumulate_per_name() {
    sgviz::entry_counts::count("probe");
    sgviz::entry_counts::count("probe");
    assert_eq!(sgviz::entry_counts::to_json()["probe"], 2);
}
