//! The CLI tests as one test binary of the root package (issue 23, CI time, fourteenth round):
//! they run the `sgviz` binary (CARGO_BIN_EXE_sgviz), which only this package's tests can name.
//! Every other native test is a module of tests/all.rs in the workspace member tests/Cargo.toml.
//! Test names are unchanged (`cli::…`, `cli_evidence::…`, `unread_params::…`).

#[path = "cli.rs"]
mod cli;
#[path = "cli_evidence.rs"]
mod cli_evidence;
#[path = "unread_params.rs"]
mod unread_params;
