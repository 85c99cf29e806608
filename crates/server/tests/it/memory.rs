//! Bounded memory (issue 20, item 4): idle games leave memory and come back on demand, a restart does
//! not keep every unfinished game loaded, the lobby lists games that are not in memory, and waiting
//! games nobody joined expire.

use std::time::Duration;

use crate::common::*;
use serde_json::json;
use tabula_server::{Limits, Storage};

/// Limits under which every game nobody holds is idle at once.
fn evict_at_once() -> Limits {
    Limits {
        room_idle: Duration::ZERO,
        ..Limits::default()
    }
}

fn lobby_ids(lobby: &serde_json::Value, key: &str) -> Vec<String> {
    lobby[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_unfinished_games_leave_memory_and_come_back_on_demand() {
    let dir = temp_dir("evict");
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), evict_at_once()).await;
    let addr = server.local_addr();
    // A running game with one action played, and a public game waiting for its second seat.
    let (running, tokens) = create_duel(addr, 12).await;
    let (seq, _) = http_step(addr, &running, &tokens).await.unwrap();
    let (open, open_tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seats": [0]}),
    )
    .await;
    assert_eq!(server.loaded_games(), 2);
    // A socket holds its game in memory; without it both leave.
    let mut w = ws(addr, &running, None).await;
    w.recv(T).await.unwrap();
    assert_eq!(server.evict_idle(), 1);
    assert_eq!(server.loaded_games(), 1);
    drop(w);
    let evicted = evict_all_idle(&server).await;
    assert_eq!((evicted, server.loaded_games()), (1, 0));
    // The lobby lists both from its index.
    let (_, lobby) = get(addr, "/api/lobby").await;
    assert_eq!(lobby_ids(&lobby, "live"), vec![running.clone()], "{lobby}");
    assert_eq!(lobby_ids(&lobby, "open"), vec![open.clone()], "{lobby}");
    // Both come back on demand and go on where they were.
    let (next, _) = http_step(addr, &running, &tokens).await.unwrap();
    assert!(next > seq, "{next} after {seq}");
    let (s, v) = post(addr, &format!("/api/games/{open}/join"), json!({"seat": 1})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(server.loaded_games(), 2);
    let (_, lobby) = get(addr, "/api/lobby").await;
    assert_eq!(lobby_ids(&lobby, "open"), Vec::<String>::new(), "{lobby}");
    assert_eq!(lobby_ids(&lobby, "live").len(), 2, "{lobby}");
    let _ = open_tokens;
    server.shutdown().await.unwrap();
    // A restart replays every unfinished game once (for the lobby, clocks and AI seats) but does not
    // keep the idle ones in memory.
    let server = start_with(registry(), Storage::SqliteDir(dir), evict_at_once()).await;
    let addr = server.local_addr();
    assert_eq!(server.loaded_games(), 0);
    let (_, lobby) = get(addr, "/api/lobby").await;
    assert_eq!(lobby_ids(&lobby, "live").len(), 2, "{lobby}");
    assert!(http_step(addr, &running, &tokens).await.is_some());
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_ai_owes_a_move_stays_in_memory_until_it_has_played() {
    let server = start_with(
        registry(),
        Storage::SqliteDir(temp_dir("evict-ai")),
        evict_at_once(),
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}], "host_seats": [0]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let mut w = ws(addr, &id, Some((0, &token))).await;
    let mut last = w.recv(T).await.unwrap().unwrap();
    // Play the human's moves until the game ends; the AI answers each one.
    while last["status"] != "over" {
        if let Some(a) = last["legal"].as_array().and_then(|l| l.first()).cloned() {
            w.send(&json!({"type": "action", "action": a["action"]}))
                .await
                .unwrap();
        }
        last = recv_until(&mut w, |m| m["type"] == "update").await;
    }
    drop(w);
    for _ in 0..500 {
        server.evict_idle();
        if server.loaded_games() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.loaded_games(), 0);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_games_nobody_joined_expire() {
    // By default (7 days) a fresh waiting game does not expire.
    let server = start(&temp_dir("expiry-default")).await;
    let addr = server.local_addr();
    let (id, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0]}),
    )
    .await;
    assert_eq!(server.expire_waiting().await, 0);
    assert_eq!(
        get(addr, &format!("/api/games/{id}")).await.1["status"],
        "waiting"
    );
    server.shutdown().await.unwrap();
    // With an expiry of zero, it does (evicted first: expiry reaches games not in memory too), and a
    // running game does not.
    let limits = Limits {
        waiting_expiry: Duration::ZERO,
        room_idle: Duration::ZERO,
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(temp_dir("expiry")), limits).await;
    let addr = server.local_addr();
    let (waiting, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seats": [0]}),
    )
    .await;
    let (running, _) = create_duel(addr, 12).await;
    server.evict_idle();
    assert_eq!(server.loaded_games(), 0);
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
    let (s, v) = post(
        addr,
        &format!("/api/games/{waiting}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!(s, 409, "{v}");
    let (_, lobby) = get(addr, "/api/lobby").await;
    assert_eq!(lobby_ids(&lobby, "open"), Vec::<String>::new(), "{lobby}");
    assert_eq!(
        get(addr, &format!("/api/games/{running}")).await.1["status"],
        "running"
    );
    server.shutdown().await.unwrap();
}

/// A running clock does not hold its game in memory (correspondence games would pile up): the game
/// leaves memory when idle, and the clock sweeper loads it and ends it on time when its seat's time
/// runs out, with nobody asking for it. Before the fix the clock's timer held the room forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_clock_runs_leaves_memory_and_still_ends_on_time() {
    let dir = temp_dir("evict-clock");
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), evict_at_once()).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "options": {"target": 12},
               "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1],
               "clock": {"kind": "fischer", "initial_ms": 1500, "increment_ms": 0}}),
    )
    .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    assert_eq!(
        get(addr, &format!("/api/games/{id}")).await.1["status"],
        "running"
    );
    assert_eq!(
        server.evict_idle(),
        1,
        "a running clock must not hold the game"
    );
    assert_eq!(server.loaded_games(), 0);
    // Nobody asks for the game; its stored status turns to over when the clock sweeper ends it.
    let pool = sqlite_pool(&dir).await;
    let mut status = String::new();
    for _ in 0..600 {
        status = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
        if status == "over" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    pool.close().await;
    assert_eq!(status, "over", "the game did not end on time out of memory");
    let snap = snapshot(addr, &id, 0, &tokens[0]).await;
    let reason = snap["result"]["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("time"), "{snap}");
    assert!(
        snap["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "timeout"),
        "{snap}"
    );
    server.shutdown().await.unwrap();
}

/// Issue 37: loading a game from the log holds up only that game. While one game's log is slow to
/// read (a held load), another game that left memory loads at once; a second request for the slow
/// game waits for the load under way instead of starting another (a game is never in memory twice).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_load_holds_up_only_its_own_game() {
    let dir = temp_dir("slow-load");
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), evict_at_once()).await;
    let addr = server.local_addr();
    let (slow, _) = create_duel(addr, 12).await;
    let (other, _) = create_duel(addr, 12).await;
    evict_all_idle(&server).await;
    assert_eq!(server.loaded_games(), 0);

    server.faults().hold_loads(&slow);
    let path = format!("/api/games/{slow}");
    let first = tokio::spawn({
        let path = path.clone();
        async move { get(addr, &path).await }
    });
    let second = tokio::spawn(async move { get(addr, &path).await });
    let start = std::time::Instant::now();
    while server.faults().held_loads() == 0 {
        assert!(start.elapsed() < T, "the slow game's load never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Before: one lock for every load, so this waited for the slow game's log.
    let (status, body) = tokio::time::timeout(T, get(addr, &format!("/api/games/{other}")))
        .await
        .expect("loading another game waited for the slow game's load");
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        server.faults().held_loads(),
        1,
        "the second request for the slow game started a load of its own"
    );
    assert!(!first.is_finished() && !second.is_finished());

    server.faults().release_loads();
    for request in [first, second] {
        let (status, body) = request.await.unwrap();
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["id"], slow.as_str(), "{body}");
    }
    assert_eq!(server.loaded_games(), 2);
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
