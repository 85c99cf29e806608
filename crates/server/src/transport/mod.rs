//! The transport layer: the HTTP router and its handlers, the WebSocket sessions, the internal cluster
//! endpoints, the web client's assets, the OpenAPI document and the connection limits.

pub(crate) mod accounts;
pub mod assets;
pub mod http;
pub mod net;
