//! Bounded memory: idle games leave memory and come back on demand, a restart does
//! not keep every unfinished game loaded, the lobby lists games that are not in memory, and waiting
//! games nobody joined expire.

use std::time::Duration;

use crate::common::*;
use serde_json::json;
use tabula_server::wire::api::{Joined, Lobby, LobbyGame};
use tabula_server::wire::game::Status;
use tabula_server::{Limits, Storage};

/// Limits under which every game nobody holds is idle at once.
fn evict_at_once() -> Limits {
    Limits {
        room_idle: Duration::ZERO,
        ..Limits::default()
    }
}

fn lobby_ids(games: &[LobbyGame]) -> Vec<String> {
    games.iter().map(|g| g.id.clone()).collect()
}

/// The lobby, read through its wire type.
async fn lobby(addr: std::net::SocketAddr) -> Lobby {
    get_as::<Lobby>(addr, "/api/lobby").await.ok()
}

/// A game's status as a spectator's snapshot gives it.
async fn status(addr: std::net::SocketAddr, id: &str) -> Status {
    get_as::<Snap>(addr, &format!("/api/games/{id}"))
        .await
        .ok()
        .common
        .status
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
    next_msg(&mut w).await;
    assert_eq!(server.evict_idle(), 1);
    assert_eq!(server.loaded_games(), 1);
    drop(w);
    let evicted = evict_all_idle(&server).await;
    assert_eq!((evicted, server.loaded_games()), (1, 0));
    // The lobby lists both from its index.
    let l = lobby(addr).await;
    assert_eq!(lobby_ids(&l.live), vec![running.clone()], "{l:?}");
    assert_eq!(lobby_ids(&l.open), vec![open.clone()], "{l:?}");
    // Both come back on demand and go on where they were.
    let (next, _) = http_step(addr, &running, &tokens).await.unwrap();
    assert!(next > seq, "{next} after {seq}");
    let r = post_as::<Joined>(addr, &format!("/api/games/{open}/join"), json!({"seat": 1})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(server.loaded_games(), 2);
    let l = lobby(addr).await;
    assert_eq!(lobby_ids(&l.open), Vec::<String>::new(), "{l:?}");
    assert_eq!(lobby_ids(&l.live).len(), 2, "{l:?}");
    let _ = open_tokens;
    server.shutdown().await.unwrap();
    // A restart replays every unfinished game once (for the lobby, clocks and AI seats) but does not
    // keep the idle ones in memory.
    let server = start_with(registry(), Storage::SqliteDir(dir), evict_at_once()).await;
    let addr = server.local_addr();
    assert_eq!(server.loaded_games(), 0);
    let l = lobby(addr).await;
    assert_eq!(lobby_ids(&l.live).len(), 2, "{l:?}");
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
    let mut last = next_game(&mut w).await;
    // Play the human's moves until the game ends; the AI answers each one.
    while last.common.status != Status::Over {
        if let Some(a) = last.legal.first().cloned() {
            w.send(&json!({"type": "action", "action": a.action}))
                .await
                .unwrap();
        }
        last = recv_update(&mut w).await;
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
    assert_eq!(status(addr, &id).await, Status::Waiting);
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
    let sn = get_as::<Snap>(addr, &format!("/api/games/{waiting}"))
        .await
        .ok();
    assert_eq!(sn.common.status, Status::Over, "{sn:?}");
    assert!(
        sn.common
            .result
            .as_ref()
            .unwrap()
            .reason
            .starts_with("expired"),
        "{sn:?}"
    );
    let r = post_as::<Joined>(
        addr,
        &format!("/api/games/{waiting}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.raw);
    let l = lobby(addr).await;
    assert_eq!(lobby_ids(&l.open), Vec::<String>::new(), "{l:?}");
    assert_eq!(status(addr, &running).await, Status::Running);
    server.shutdown().await.unwrap();
}

/// Loading a game from the log holds up only that game. While one game's log is slow to
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
    let r = tokio::time::timeout(T, get_as::<Snap>(addr, &format!("/api/games/{other}")))
        .await
        .expect("loading another game waited for the slow game's load");
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(
        server.faults().held_loads(),
        1,
        "the second request for the slow game started a load of its own"
    );
    assert!(!first.is_finished() && !second.is_finished());

    server.faults().release_loads();
    for request in [first, second] {
        let (status, body) = request.await.unwrap();
        let r = Reply::<Snap>::read(status, body);
        assert_eq!(r.status, 200, "{}", r.raw);
        assert_eq!(r.ok().common.id, slow);
    }
    assert_eq!(server.loaded_games(), 2);
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
