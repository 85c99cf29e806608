//! Clocks keep running while the server is down (a seat whose time ran out meanwhile loses when the
//! server comes back); the server's log says so for every game it resumes with running clocks, so an
//! operator can see the downtime a game's players were charged. (Its own test binary: it installs a
//! process-wide tracing subscriber that keeps every line.)

use crate::common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resuming_a_game_whose_clocks_ran_through_the_downtime_is_logged() {
    log_buffer();
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
    let before = log_lines().len();

    let server = start(&dir).await;
    let resumed: Vec<String> = log_lines()[before..].to_vec();
    let about = |id: &str| -> Vec<&String> {
        resumed
            .iter()
            .filter(|l| l.contains(id) && l.contains("downtime"))
            .collect()
    };
    let lines = about(&clocked);
    assert_eq!(lines.len(), 1, "{resumed:?}");
    let line = lines[0];
    assert!(line.contains(" WARN "), "logged as a warning: {line}");
    assert!(line.contains("ms since its last event"), "{line}");
    assert!(
        line.contains("seat 0 (") && line.contains("seat 1 ("),
        "{line}"
    );
    // A game without a clock loses nothing to the downtime: nothing to say.
    assert!(about(&unclocked).is_empty(), "{resumed:?}");
    server.shutdown().await.unwrap();
}
