//! Per-game knowledge: an evaluation, a setup policy, move ordering and a playout policy for every
//! game of the platform (see [`crate::Knowledge`]).

pub mod kyo;

/// The ids of the games the AI knows.
pub const SUPPORTED: &[&str] = &["kyo"];
