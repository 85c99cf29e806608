//! # tabula-tools — talking to a Tabula server from outside
//!
//! Tools that use a server only through its public protocol (`docs/protocol.md`), as any client does;
//! they know nothing of the server's internals, so the server library does not carry them.
//!
//! * [`client`]: a small HTTP/1.1 JSON and WebSocket client of the protocol, every wait bounded (the
//!   load generator uses it, and so do the server's integration tests);
//! * [`loadtest`]: the load generator behind `tabula loadtest`: many concurrent games on a server over
//!   loopback, two WebSocket clients per game, latency measured per action.

pub mod client;
pub mod loadtest;
