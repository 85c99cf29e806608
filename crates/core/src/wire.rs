//! The TypeScript side of the wire. Every type a client reads from the server derives [`TS`], and each
//! crate that owns such types lists its roots in an `export_ts` function like this module's; the
//! declarations live in `web/src/wire/`, where the web client imports them, and
//! `crates/tabula/tests/wire_types.rs` fails when they are stale (regenerate with
//! `TABULA_UPDATE_WIRE=1 cargo test -p tabula --test wire_types`).

use std::path::Path;

pub use ts_rs::{Config, ExportError, TS};

use crate::dynamic::ListedAction;
use crate::{Actor, Observer, Outcome, Seat, SeatResult, ToAct};

/// The configuration every crate exports with: integers are TypeScript `number`s, as a JSON parser
/// reads them (an integer that may pass 2^53, such as a game's seed, travels as a string instead).
pub fn ts_config(dir: &Path) -> Config {
    Config::new().with_out_dir(dir).with_large_int("number")
}

/// Exports the core's wire types (and what they refer to) under `core/`.
pub fn export_ts(cfg: &Config) -> Result<(), ExportError> {
    Seat::export_all(cfg)?;
    Actor::export_all(cfg)?;
    Observer::export_all(cfg)?;
    SeatResult::export_all(cfg)?;
    Outcome::export_all(cfg)?;
    ToAct::export_all(cfg)?;
    ListedAction::export_all(cfg)?;
    Ok(())
}
