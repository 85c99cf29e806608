//! Clocks keep running while the server is down (a seat whose time ran out meanwhile loses when the
//! server comes back); the server's log says so for every game it resumes with running clocks, so an
//! operator can see the downtime a game's players were charged. (Its own test binary: it installs a
//! process-wide tracing subscriber that keeps every line.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::{Mutex, OnceLock};

use common::*;
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// Every event logged in this process: its level and its fields as `name=value` text.
static LINES: OnceLock<Mutex<Vec<(Level, String)>>> = OnceLock::new();

struct Keep;

struct Text(String);

impl Visit for Text {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!("{}={value:?} ", field.name()));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push_str(&format!("{}={value} ", field.name()));
    }
}

impl Subscriber for Keep {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut text = Text(String::new());
        event.record(&mut text);
        if let Some(lines) = LINES.get() {
            lines
                .lock()
                .unwrap()
                .push((*event.metadata().level(), text.0));
        }
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn logged() -> Vec<(Level, String)> {
    LINES.get().unwrap().lock().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_a_game_whose_clocks_ran_through_the_downtime_is_logged() {
    LINES.set(Mutex::new(Vec::new())).unwrap();
    tracing::subscriber::set_global_default(Keep).unwrap();
    let dir = temp_dir("downtime");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (clocked, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1],
               "clock": {"kind": "fischer", "initial_ms": 600000, "increment_ms": 0}}),
    )
    .await;
    let (unclocked, _) = create_duel(addr, 12).await;
    server.shutdown().await.unwrap();
    let before = logged().len();

    let server = start(&dir).await;
    let resumed: Vec<(Level, String)> = logged()[before..].to_vec();
    let about = |id: &str| -> Vec<&(Level, String)> {
        resumed
            .iter()
            .filter(|(_, l)| l.contains(id) && l.contains("downtime"))
            .collect()
    };
    let lines = about(&clocked);
    assert_eq!(lines.len(), 1, "{resumed:?}");
    let (level, line) = lines[0];
    assert_eq!(*level, Level::WARN);
    assert!(line.contains("ms since its last event"), "{line}");
    assert!(
        line.contains("seat 0 (") && line.contains("seat 1 ("),
        "{line}"
    );
    // A game without a clock loses nothing to the downtime: nothing to say.
    assert!(about(&unclocked).is_empty(), "{resumed:?}");
    server.shutdown().await.unwrap();
}
