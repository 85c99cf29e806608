//! The AI crate's integration tests, one test binary (each module was one of its own).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod action_cells;
mod agents;
mod analysis;
mod common;
mod games;
mod legal_follows_view;
mod nnue;
mod tournament;
mod turns;
mod view_samples;
