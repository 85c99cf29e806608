//! Benchmark placeholder, replaced by the game implementation.
fn main() {}
