//! The storage layer: the event log and everything else kept in SQLite or PostgreSQL, and the cluster's
//! leases. It knows the domain and nothing of services or transport.

pub mod accounts;
pub mod chat;
pub mod cluster;
pub mod db;
pub mod ratings;
