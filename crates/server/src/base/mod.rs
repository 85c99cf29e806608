//! The base layer: what every other layer may use and which knows nothing of them — the error every
//! refusal is answered with, time, and secret tokens.

pub mod error;
pub mod secret;
pub mod time;
