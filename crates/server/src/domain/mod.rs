//! The domain layer: a game on the server as data and pure functions — its configuration, the event log's
//! events, clocks, the state machine that turns a log into a game in progress ([`model::GameCore`]), and
//! rating math. It knows no storage, no network and no service.

pub mod account;
pub mod model;
pub mod ratings;
