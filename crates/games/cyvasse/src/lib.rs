//! # Cyvasse — two rule families
//!
//! The rules files describe Cyvasse in two incompatible ways, so this crate ships two games:
//! * [`trump`] — game id `cyvasse-trump`: the "Strength & Trump" game on the 91-hex board.
//! * [`caird`] — game id `cyvasse-caird`: Caird's rules (Basic, Expert, optional rules, Hex).

pub mod caird;
pub mod trump;
