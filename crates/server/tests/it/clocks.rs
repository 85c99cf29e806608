//! Players' clocks and the expiry of waiting games on a clock the test moves ([`ManualClock`]): the
//! server's time stands still until the test advances it, so these tests neither sleep nor depend on
//! the machine's speed, and what they check happens at the very millisecond it should.

use std::sync::Arc;
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_server::{Limits, ManualClock, RunningServer, Storage};

const DAY: Duration = Duration::from_secs(86_400);

/// A server on `dir` whose games' time is `clock`.
async fn start_at(
    dir: &std::path::Path,
    clock: &Arc<ManualClock>,
    limits: Limits,
) -> RunningServer {
    let mut config = config(registry(), Storage::SqliteDir(dir.to_path_buf()), limits);
    config.clock = clock.clone();
    tabula_server::start(config).await.unwrap()
}

/// A clock reading a fixed time of 2026 (the epoch's millisecond count matters to nobody).
fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(1_790_000_000_000))
}

/// A two-person duel with `clock`, both seats held by the host; returns the id and the tokens.
async fn timed_duel(addr: std::net::SocketAddr, clock: Value) -> (String, Vec<String>) {
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "options": {"target": 12},
               "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1], "clock": clock}),
    )
    .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

/// The `(running, remaining_ms)` of each seat's clock in a snapshot.
fn clocks(snap: &Value) -> Vec<(bool, i64)> {
    (0..2)
        .map(|s| {
            let c = &snap["clock"]["seats"][s];
            (
                c["running"].as_bool().unwrap(),
                c["remaining_ms"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fischer_clock_counts_the_time_taken_adds_the_increment_and_flags_at_zero() {
    let dir = temp_dir("clock-fischer");
    let clock = clock();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    let (id, tokens) = timed_duel(
        addr,
        json!({"kind": "fischer", "initial_ms": 10000, "increment_ms": 1000}),
    )
    .await;
    // The duel's first decision is both seats' secret word: both clocks run from the start.
    assert_eq!(
        clocks(&snapshot(addr, &id, 0, &tokens[0]).await),
        vec![(true, 10_000), (true, 10_000)]
    );
    clock.advance(Duration::from_millis(3_000));
    let (s, v) = post_action(addr, &id, 0, &tokens[0], "secret:amberword").await;
    assert_eq!(s, 200, "{v}");
    // Seat 0 took 3 s and gained 1 s; seat 1's clock ran on for the same 3 s.
    assert_eq!(
        clocks(&snapshot(addr, &id, 0, &tokens[0]).await),
        vec![(false, 8_000), (true, 7_000)]
    );
    let mut spec = ws(addr, &id, None).await;
    recv_until(&mut spec, |m| m["type"] == "snapshot").await;
    // A millisecond before seat 1's time is up nothing happens; at zero it loses on time.
    clock.advance(Duration::from_millis(6_999));
    let (s, v) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!((s, v["status"].as_str()), (200, Some("running")), "{v}");
    clock.advance(Duration::from_millis(1));
    let over = recv_until(&mut spec, |m| m["status"] == "over").await;
    assert_eq!(over["result"]["results"], json!(["win", "loss"]));
    assert_eq!(over["result"]["reason"], "South lost on time");
    let kinds: Vec<&str> = over["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"timeout"), "{kinds:?}");
    // The result is in the log: a restart keeps it.
    server.shutdown().await.unwrap();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let snap = snapshot(server.local_addr(), &id, 1, &tokens[1]).await;
    assert_eq!(snap["result"]["reason"], "South lost on time");
    server.shutdown().await.unwrap();
}

/// A correspondence game left memory long ago; when its days run out the clock sweeper loads it and
/// ends it on time, with nobody asking for it — and not a moment before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_correspondence_game_out_of_memory_ends_when_its_days_run_out() {
    let dir = temp_dir("clock-correspondence");
    let clock = clock();
    let limits = Limits {
        room_idle: Duration::ZERO,
        ..Limits::default()
    };
    let server = start_at(&dir, &clock, limits).await;
    let addr = server.local_addr();
    let (id, tokens) =
        timed_duel(addr, json!({"kind": "correspondence", "days_per_move": 2})).await;
    let (s, _) = post_action(addr, &id, 0, &tokens[0], "secret:amberword").await;
    assert_eq!(s, 200);
    // A day and a half later seat 1 still has half a day; seat 0's two days wait for its next turn.
    clock.advance(DAY + DAY / 2);
    assert_eq!(
        clocks(&snapshot(addr, &id, 0, &tokens[0]).await),
        vec![(false, 2 * 86_400_000), (true, 86_400_000 / 2)]
    );
    evict_all_idle(&server).await;
    assert_eq!(
        server.loaded_games(),
        0,
        "a running clock holds no game in memory"
    );
    clock.advance(DAY / 2);
    let pool = sqlite_pool(&dir).await;
    let started = std::time::Instant::now();
    loop {
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
        if status == "over" {
            break;
        }
        assert!(
            started.elapsed() < T,
            "the game did not end on time out of memory"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    pool.close().await;
    let snap = snapshot(addr, &id, 0, &tokens[0]).await;
    assert_eq!(snap["result"]["reason"], "South lost on time", "{snap}");
    server.shutdown().await.unwrap();
}

/// Clocks run while the server is down: a seat whose time ran out meanwhile loses as the server comes
/// back; a seat with time left keeps what is left and loses when it runs out with the server up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_run_through_a_downtime() {
    let dir = temp_dir("clock-downtime");
    let clock = clock();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    let mut games = Vec::new();
    for ms in [60_000, 600_000] {
        let (id, tokens) = timed_duel(
            addr,
            json!({"kind": "fischer", "initial_ms": ms, "increment_ms": 0}),
        )
        .await;
        let (s, _) = post_action(addr, &id, 0, &tokens[0], "secret:amberword").await;
        assert_eq!(s, 200);
        games.push((id, tokens));
    }
    server.shutdown().await.unwrap();
    // Down for two minutes: the first game's minute ran out; the second has eight minutes left.
    clock.advance(Duration::from_secs(120));
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    let (ran_out, _) = &games[0];
    let mut spec = ws(addr, ran_out, None).await;
    let over = recv_until(&mut spec, |m| m["status"] == "over").await;
    assert_eq!(over["result"]["reason"], "South lost on time");
    let (left, tokens) = &games[1];
    let snap = snapshot(addr, left, 0, &tokens[0]).await;
    assert_eq!(snap["status"], "running");
    assert_eq!(clocks(&snap)[1], (true, 480_000));
    let mut spec = ws(addr, left, None).await;
    recv_until(&mut spec, |m| m["type"] == "snapshot").await;
    clock.advance(Duration::from_secs(480));
    let over = recv_until(&mut spec, |m| m["status"] == "over").await;
    assert_eq!(over["result"]["reason"], "South lost on time");
    server.shutdown().await.unwrap();
}

/// A waiting game nobody joined expires after the configured time (7 days by default), counted from
/// its last event, whether it is in memory or not; a running game never does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_game_expires_seven_days_after_its_last_event() {
    let dir = temp_dir("clock-expiry");
    let clock = clock();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    let (waiting, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seats": [0]}),
    )
    .await;
    let (running, _) = create_duel(addr, 12).await;
    clock.advance(7 * DAY - Duration::from_millis(1));
    assert_eq!(server.expire_waiting().await, 0, "a millisecond early");
    clock.advance(Duration::from_millis(1));
    server.evict_idle();
    assert_eq!(server.expire_waiting().await, 1);
    let (_, snap) = get(addr, &format!("/api/games/{waiting}")).await;
    assert_eq!(snap["status"], "over", "{snap}");
    assert!(
        snap["result"]["reason"]
            .as_str()
            .unwrap()
            .starts_with("expired"),
        "{snap}"
    );
    assert_eq!(
        get(addr, &format!("/api/games/{running}")).await.1["status"],
        "running"
    );
    server.shutdown().await.unwrap();
}
