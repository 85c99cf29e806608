//! The same server on PostgreSQL. Runs when `TABULA_TEST_POSTGRES_URL` is set (the test script wraps the
//! tests with `crates/server/scripts/with-postgres.sh`, which starts a throwaway cluster); otherwise it
//! says it did not run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use serde_json::json;
use tabula_server::{Limits, Storage};

fn postgres_url() -> Option<String> {
    match std::env::var("TABULA_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            println!(
                "PostgreSQL tests NOT RUN: TABULA_TEST_POSTGRES_URL is unset (run them with crates/server/scripts/with-postgres.sh)"
            );
            None
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_full_game_restart_and_record() {
    let Some(url) = postgres_url() else {
        return;
    };
    let server = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 12).await;
    let mut spec = ws(addr, &id, None).await;
    spec.recv(T).await.unwrap();
    for _ in 0..4 {
        http_step(addr, &id, &tokens).await.unwrap();
    }
    let before = snapshot(addr, &id, 1, &tokens[1]).await;
    server.shutdown().await.unwrap();

    let server = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let after = snapshot(addr, &id, 1, &tokens[1]).await;
    for k in ["seq", "view", "legal", "events", "to_act", "status"] {
        assert_eq!(before[k], after[k], "{k} differs after restart");
    }
    let mut steps = 0;
    while http_step(addr, &id, &tokens).await.is_some() {
        steps += 1;
        assert!(steps < 100);
    }
    let end = snapshot(addr, &id, 0, &tokens[0]).await;
    assert_eq!(end["status"], "over");
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    assert_eq!(record["result"], end["result"]);
    // Bad input changes nothing on PostgreSQL either.
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/action"),
        json!({"seat": 0, "token": tokens[1], "notation": "+1"}),
    )
    .await;
    assert_eq!((s, v["error"]["code"].clone()), (403, json!("bad_token")));
    assert_eq!(snapshot(addr, &id, 0, &tokens[0]).await["seq"], end["seq"]);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_ai_game_and_hidden_views() {
    let Some(url) = postgres_url() else {
        return;
    };
    let limits = Limits {
        allow_ai_only_games: true,
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::Postgres(url), limits).await;
    let addr = server.local_addr();
    let (id, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "ai", "level": 2}, {"kind": "ai", "level": 2}]}),
    )
    .await;
    let mut spec = ws(addr, &id, None).await;
    let end = recv_until(&mut spec, |m| m["status"] == "over").await;
    let text = end.to_string();
    for w in WORDS.iter().flatten() {
        assert!(!text.contains(w), "spectator saw {w}");
    }
    server.shutdown().await.unwrap();
}
