//! See [`super`].

use tabula_core::wire::{Config, ExportError};

/// Exports this module's wire types under `server/`.
pub fn export_ts(_cfg: &Config) -> Result<(), ExportError> {
    Ok(())
}
