//! The services layer: live games (`rooms`), accounts, chat, analyses and hints, lessons. Rooms know
//! only rooms; the other services may use rooms, never the reverse. No service knows HTTP.

pub mod accounts;
pub mod analysis;
pub mod app;
pub mod chat;
pub mod explain;
pub mod lessons;
pub mod limits;
pub mod rooms;
