//! The `tabula` binary's integration tests, one test binary (each module was one of its own: linking
//! the whole platform once instead of once per file).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod multinode;
mod serve_log;
mod served;
mod wire_types;
