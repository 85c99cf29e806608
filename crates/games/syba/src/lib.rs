//! # Syba Chess 2.0
//!
//! (full documentation below)

pub mod content;
mod game;
pub mod notation;
mod render;
mod rules;
pub mod state;
#[cfg(test)]
mod tests;

pub use content::{Content, Effect};
pub use game::SybaView;
pub use rules::{CITIES_TO_WIN, RESOURCE_CAP};
pub use state::{Action, Syba, SybaOptions};
