//! The cyvasse crate's integration tests, one test binary (each module was one of its own).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod caird_perft;
mod caird_props;
mod caird_rules;
mod caird_setup;
mod explain;
mod trump_props;
mod trump_rules;
mod view_samples;
mod words;
