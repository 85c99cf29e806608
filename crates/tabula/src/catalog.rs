//! The games of the platform. Adding a game to Tabula is one line here.

use tabula_core::dynamic::Registry;

/// Every game, in the order `tabula games` lists them.
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .register::<cyvasse::trump::TrumpCyvasse>()
        .register::<cyvasse::caird::CairdCyvasse>()
        .register::<kyo::Kyo>()
        .register::<territories::Territories>()
        .register::<syba::Syba>();
    registry
}
