//! The base layer: what every other layer may use and which knows nothing of them — the error every
//! refusal is answered with, time, secret tokens and shared text.

pub mod error;
pub mod secret;
pub mod text;
pub mod time;
