//! Per-game knowledge: an evaluation, a setup policy, move ordering and a playout policy for every
//! game of the platform (see [`crate::Knowledge`]).

pub mod cyvasse;
pub mod kyo;
pub mod syba;
pub mod territories;

/// The ids of the games the AI knows.
pub const SUPPORTED: &[&str] = &[
    "cyvasse-trump",
    "cyvasse-caird",
    "kyo",
    "territories",
    "syba",
];
