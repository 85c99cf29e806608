//! The transport layer: the HTTP router and its handlers, the WebSocket sessions, the internal cluster
//! endpoints, the web client's assets, the OpenAPI document and the connection limits.

pub(crate) mod accounts;
pub(crate) mod analysis;
pub mod assets;
pub(crate) mod chat;
pub(crate) mod explain;
pub mod http;
pub(crate) mod lessons;
pub mod net;
pub mod peers;
pub(crate) mod responses;
pub mod session;
