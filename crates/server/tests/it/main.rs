//! The server's integration tests, one binary (each module was a test binary of its own: linking the
//! whole server once instead of once per file is most of a clean test run's time and disk).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

mod accounts;
mod analysis;
mod assets;
mod cancel;
mod chat;
mod clocks;
mod cluster;
mod crash;
mod downtime;
mod explain;
mod fairness;
mod games;
mod golden;
mod indistinguishable;
mod layers;
mod lessons;
mod limits;
mod loadtest;
mod memory;
mod openapi;
mod people;
mod postgres;
mod server;
mod storage;
mod takeback;
mod view;
