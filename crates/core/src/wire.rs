//! The TypeScript side of the wire. Every type a client reads from the server derives [`TS`], and each
//! crate that owns such types lists its roots in an `export_ts` function like this module's; the
//! declarations live in `web/src/wire/`, where the web client imports them, and
//! `crates/tabula/tests/it/wire_types.rs` fails when they are stale (regenerate with
//! `TABULA_UPDATE_WIRE=1 cargo test -p tabula --test it wire_types`).

use std::path::Path;

pub use ts_rs::{Config, ExportError, TS};

use crate::dynamic::ListedAction;
use crate::record::JsonRecord;
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
    JsonRecord::export_all(cfg)?;
    Ok(())
}

/// Checks a game crate's committed view samples, `web/tests/views/<file>` (real views the web
/// client's tests read through the generated declarations): `Err` names the stale file and how to
/// regenerate it (`krate`'s `view_samples` test). With `TABULA_UPDATE_WIRE` set, rewrites the file
/// instead.
pub fn check_view_samples(
    file: &str,
    samples: serde_json::Map<String, serde_json::Value>,
    krate: &str,
) -> Result<(), String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/tests/views")
        .join(file);
    let fresh = serde_json::to_string_pretty(&serde_json::Value::Object(samples))
        .map_err(|e| format!("writing the samples of {file}: {e}"))?
        + "\n";
    if std::env::var_os("TABULA_UPDATE_WIRE").is_some() {
        let write = |p: &Path| std::fs::write(p, &fresh);
        return path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| write(&path))
            .map_err(|e| format!("writing {}: {e}", path.display()));
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == fresh {
        Ok(())
    } else {
        Err(format!(
            "{} is stale; regenerate with `TABULA_UPDATE_WIRE=1 cargo test -p {krate} --test it view_samples`",
            path.display()
        ))
    }
}
