//! A change whose requester goes away mid-commit: axum drops an HTTP handler's future when its client
//! disconnects, and a WebSocket client may close right after sending. The change must still be
//! committed, applied to the game in memory and broadcast, exactly once, so the game goes on with
//! consecutive seqs (before the fix the log and the room disagreed and the next action hit a primary
//! key conflict forever).

use std::time::Duration;

use crate::common::*;
use serde_json::json;
use tabula_core::{Actor, Seat};
use tabula_server::wire::game::EventBody;
use tokio::io::AsyncWriteExt;

/// The seqs of the `action` events in a message, with their actors.
fn actions(m: &Snap) -> Vec<(u64, Actor)> {
    m.events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::Action { actor, .. } => Some((e.seq, *actor)),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_whose_client_disconnects_mid_commit_is_applied_and_broadcast() {
    log_buffer();
    let dir = temp_dir("cancel");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 30).await;
    // A spectator watches every broadcast.
    let mut spec = ws(addr, &id, None).await;
    let seq0 = recv_snapshot(&mut spec).await.common.seq;
    let mut s1 = ws(addr, &id, Some((1, &tokens[1]))).await;
    recv_snapshot(&mut s1).await;

    // Another connection holds SQLite's write lock, so the server's commit waits (busy timeout 10 s).
    let pool = sqlite_pool(&dir).await;
    let mut lock = pool.acquire().await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut *lock)
        .await
        .unwrap();

    // Seat 0 acts over HTTP; its client hangs up while the commit waits for the database.
    let body = json!({"seat": 0, "token": tokens[0], "notation": "secret:amberword"}).to_string();
    let mut http = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/games/{id}/action HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    http.write_all(head.as_bytes()).await.unwrap();
    // Wait (for up to about 10 s) until the action holds the room: it is then waiting in the commit.
    let mut busy = false;
    for _ in 0..200 {
        if room_is_busy(addr, &id).await {
            busy = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(busy, "the action reached the commit");
    drop(http);
    // Seat 1 acts over WebSocket and closes at once.
    s1.send(&json!({"type": "action", "id": 1, "notation": "secret:beechword"}))
        .await
        .unwrap();
    s1.close().await;
    // Free the database only once the server has dropped the HTTP request's future (its handler
    // says so in the log, naming the game): the change must then be carried on without it.
    let gone = |l: &String| l.contains("requester went away") && l.contains(&id);
    let started = std::time::Instant::now();
    while !log_lines().iter().any(gone) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the server never noticed the HTTP client's hang-up"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    sqlx::query("ROLLBACK").execute(&mut *lock).await.unwrap();
    drop(lock);

    // Both actions were committed, applied and broadcast, with consecutive seqs (the chance draw that
    // follows the second one comes next).
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let u = recv_update(&mut spec).await;
        seen.extend(actions(&u));
    }
    let seqs: Vec<u64> = seen.iter().map(|(s, _)| *s).collect();
    assert_eq!(seqs, vec![seq0 + 1, seq0 + 2, seq0 + 3], "{seen:?}");
    assert_eq!(seen[2].1, Actor::Chance);
    let mut seats: Vec<Actor> = seen[..2].iter().map(|(_, a)| *a).collect();
    seats.sort_by_key(|a| match a {
        Actor::Seat(s) => s.0,
        Actor::Chance => u8::MAX,
    });
    assert_eq!(seats, vec![Actor::Seat(Seat(0)), Actor::Seat(Seat(1))]);
    // The game goes on: the next action gets the next seq.
    let (seq, _) = http_step(addr, &id, &tokens).await.unwrap();
    assert_eq!(seq, seq0 + 4);
    let before = snap(addr, &id, 0, &tokens[0]).await;
    assert_eq!(before.common.seq, seq0 + 4);
    // The stored log is the game in memory: a restart rebuilds the same position.
    server.shutdown().await.unwrap();
    let server = start(&dir).await;
    let again = snap(server.local_addr(), &id, 0, &tokens[0]).await;
    assert_same_position(&before, &again, "after a restart");
    server.shutdown().await.unwrap();
}
