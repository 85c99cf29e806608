//! The kyo crate's integration tests, one test binary (each module was one of its own).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod explain;
mod props;
mod rules;
mod state_json;
mod view_samples;
mod words;
