//! The server's wire types: every message and HTTP body a client reads or sends, as serde types that
//! also derive their TypeScript declaration (`ts_rs::TS`, exported under `web/src/wire/server/`) and
//! their OpenAPI schema (`utoipa::ToSchema`). [`game`] holds a game's messages (snapshots, updates,
//! events, the WebSocket operations), [`api`] the other HTTP bodies (catalog, lobby, accounts, lessons,
//! analysis, chat).

use tabula_core::wire::{Config, ExportError};

pub mod api;
pub mod game;

/// Exports the server's wire types (see `tabula_core::wire`).
pub fn export_ts(cfg: &Config) -> Result<(), ExportError> {
    api::export_ts(cfg)?;
    game::export_ts(cfg)
}
