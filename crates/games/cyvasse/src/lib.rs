//! # Cyvasse — two rule families
//!
//! The rules files describe Cyvasse in two incompatible ways, so this crate ships two games:
//! * [`trump`] — game id `cyvasse-trump`: the "Strength & Trump" game on the 91-hex board.
//! * [`caird`] — game id `cyvasse-caird`: Caird's rules (Basic, Expert, optional rules, Hex).

pub mod caird;
pub mod trump;

use tabula_core::wire::{Config, ExportError, TS};

/// Exports the TypeScript declarations of both games' views and actions under `cyvasse/` (see
/// [`tabula_core::wire`]): [`trump::TrumpPosition`] (the view of `cyvasse-trump`) and
/// [`trump::TrumpAction`], [`caird::CairdView`] and [`caird::CairdAction`] (the setup editor builds
/// the `setup` actions), with what they refer to.
pub fn export_ts(cfg: &Config) -> Result<(), ExportError> {
    trump::TrumpPosition::export_all(cfg)?;
    trump::TrumpAction::export_all(cfg)?;
    caird::CairdView::export_all(cfg)?;
    caird::CairdAction::export_all(cfg)?;
    Ok(())
}
