//! The territories crate's integration tests, one test binary (each module was one of its own).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod explain;
mod properties;
mod rules;
mod view_samples;
mod words;
