//! The syba crate's integration tests, one test binary (each module was one of its own).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod content;
mod playouts;
mod properties;
mod view_samples;
