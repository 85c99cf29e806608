//! Memory per played game, counted by the allocator: a test binary of its own, so
//! that nothing but this one test allocates in the process while it counts.
//!
//! Kyo games of 150 actions each are played over HTTP on a server in this process; the bytes the
//! process holds once they are played, over the bytes it held before they were created, divided by
//! the number of games, is what one live played game costs the server (its room: the state, the log,
//! how each observer sees each action, the lobby's line, the replay checkpoints and the update
//! channel). The figure must stay within [`BUDGET`]; once the games leave memory (evicted as idle),
//! the bytes must come back. The sockets of the players are measured apart, by RSS under
//! `tabula loadtest` (BENCHMARKS.md), since a client in this process would count its own buffers.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "it/common/mod.rs"]
mod common;

use std::alloc::System;
use std::time::Duration;

use cap::Cap;
use common::*;
use serde_json::json;
use tabula_core::dynamic::Registry;
use tabula_server::{Limits, Storage};

/// The system allocator, counting the bytes of the process's live allocations (the `cap` crate: a
/// counter needs `unsafe`, which the workspace forbids in its own code).
#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// What one live Kyo game of [`ACTIONS`] actions may hold (the goal).
const BUDGET: isize = 64 * 1024;
/// What may stay of a game once it left memory (its lobby line).
const GONE_BUDGET: isize = 2 * 1024;
const ACTIONS: usize = 150;
const GAMES: usize = 12;

/// The tests of this binary count the same process's bytes: one at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn live() -> isize {
    ALLOCATOR.allocated() as isize
}

/// The bytes held once the server's background work has settled (the lowest of a few readings).
async fn settled() -> isize {
    let mut low = isize::MAX;
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        low = low.min(live());
    }
    low
}

/// A server with Kyo on a fresh SQLite directory, whose idle games leave memory at once and whose
/// rate limits this test's requests never reach.
async fn kyo_server(name: &str) -> (tabula_server::RunningServer, std::path::PathBuf) {
    let mut registry = Registry::new();
    registry.register::<kyo::Kyo>();
    let dir = temp_dir(name);
    let limits = Limits {
        room_idle: Duration::ZERO,
        http_rate_per_sec: 100_000.0,
        http_burst: 100_000.0,
        seat_events_burst: 100_000,
        ..Limits::default()
    };
    let server = start_with(registry, Storage::SqliteDir(dir.clone()), limits).await;
    (server, dir)
}

/// A Kyo game between two people, both seats the creator's.
fn two_humans() -> serde_json::Value {
    json!({"game": "kyo", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_played_game_holds_at_most_64_kib_and_gives_it_back_when_it_leaves_memory() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let (server, dir) = kyo_server("memory-per-game").await;
    let addr = server.local_addr();
    let body = two_humans();
    // One game played and dropped first: the server's lazily built parts (statements, pools, caches)
    // are not a game's.
    let (warm, tokens) = create(addr, body.clone()).await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let mut rng = tabula_core::rng_from_seed(7);
    for _ in 0..ACTIONS {
        if !random_step(addr, &warm, &tokens, &mut rng).await {
            break;
        }
    }
    server.evict_idle();
    let before = settled().await;

    let mut games = Vec::new();
    for _ in 0..GAMES {
        let (id, tokens) = create(addr, body.clone()).await;
        games.push((
            id,
            tokens.into_iter().map(Option::unwrap).collect::<Vec<_>>(),
        ));
    }
    let mut played = vec![0usize; GAMES];
    for _ in 0..ACTIONS {
        for (i, (id, tokens)) in games.iter().enumerate() {
            if random_step(addr, id, tokens, &mut rng).await {
                played[i] += 1;
            }
        }
    }
    assert_eq!(server.loaded_games(), GAMES);
    let held = settled().await;
    let actions: usize = played.iter().sum();
    // Random Kyo games sometimes end before 150 actions: the bytes per action of all of them, times
    // 150 (this counts a game's fixed part more than once: an upper bound).
    let per_game = (held - before) * ACTIONS as isize / actions as isize;
    println!(
        "memory per live Kyo game of {ACTIONS} actions: {per_game} bytes ({} bytes an action; {} \
         actions a game on average)",
        (held - before) / actions as isize,
        actions / GAMES,
    );
    assert!(
        actions >= GAMES * ACTIONS * 2 / 3,
        "the games ended early: {played:?} actions"
    );
    assert!(
        per_game <= BUDGET,
        "a live game of {ACTIONS} actions holds {per_game} bytes (budget {BUDGET})"
    );

    // Idle, nobody holding them: they leave memory, and so do their bytes (the lobby keeps a line
    // for each).
    let evicted = evict_all_idle(&server).await;
    assert_eq!((evicted, server.loaded_games()), (GAMES, 0));
    let after = settled().await;
    let left = (after - before) / GAMES as isize;
    println!("memory per game after it left memory: {left} bytes");
    assert!(
        left <= GONE_BUDGET,
        "a game that left memory still holds {left} bytes"
    );
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// The same with both seats watching on WebSockets while the games are played (every change is
/// rendered for them): once the sockets are closed and the games left memory, the bytes come back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_watched_on_sockets_give_their_memory_back_when_they_leave() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let (server, dir) = kyo_server("memory-sockets").await;
    let addr = server.local_addr();
    let body = two_humans();
    let mut rng = tabula_core::rng_from_seed(9);
    let mut round = async |games: usize| {
        let mut live = Vec::new();
        for _ in 0..games {
            let (id, tokens) = create(addr, body.clone()).await;
            let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
            let mut sockets = Vec::new();
            for (seat, token) in tokens.iter().enumerate() {
                let mut w = ws(addr, &id, Some((seat, token))).await;
                recv_until(&mut w, |m| m["type"] == "snapshot").await;
                sockets.push(w);
            }
            live.push((id, tokens, sockets));
        }
        for _ in 0..60 {
            for (id, tokens, sockets) in live.iter_mut() {
                if random_step(addr, id, tokens, &mut rng).await {
                    for w in sockets.iter_mut() {
                        recv_until(w, |m| m["type"] == "update").await;
                    }
                }
            }
        }
        for (_, _, sockets) in live {
            for w in sockets {
                w.close().await;
            }
        }
        let evicted = evict_all_idle(&server).await;
        server.tidy();
        evicted
    };
    // A first round builds what the server keeps whatever the games (pools, caches, buffers).
    round(4).await;
    let before = settled().await;
    assert_eq!(round(GAMES).await, GAMES);
    let after = settled().await;
    let left = (after - before) / GAMES as isize;
    println!("memory per socket-watched game after it left memory: {left} bytes");
    assert!(
        left <= GONE_BUDGET,
        "a game watched on sockets still holds {left} bytes once it left memory"
    );
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
