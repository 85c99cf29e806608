//! The same server on PostgreSQL. Runs when `TABULA_TEST_POSTGRES_URL` is set (the test script wraps the
//! tests with `crates/server/scripts/with-postgres.sh`, which starts a throwaway cluster). Without it,
//! under CI (`CI` set) or when asked (`TABULA_TEST_REQUIRE_POSTGRES=1`, which the script sets) every
//! test here FAILS; otherwise each says on the terminal that it did not run. Each test works in a
//! database of its own (a server owns its database: a second one on the same database refuses to start).

use crate::common::*;
use serde_json::json;
use tabula_core::dynamic::ListedAction;
use tabula_core::record::JsonRecord;
use tabula_server::wire::api::Committed;
use tabula_server::wire::game::Status;
use tabula_server::{Limits, Storage};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_full_game_restart_and_record() {
    let Some(url) = postgres_url().await else {
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
    next_msg(&mut spec).await;
    for _ in 0..4 {
        http_step(addr, &id, &tokens).await.unwrap();
    }
    let before = snap(addr, &id, 1, &tokens[1]).await;
    server.shutdown().await.unwrap();

    let server = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let after = snap(addr, &id, 1, &tokens[1]).await;
    let (b, a) = (&before, &after);
    assert_same_position(b, a, "after restart");
    let mut steps = 0;
    while http_step(addr, &id, &tokens).await.is_some() {
        steps += 1;
        assert!(steps < 100);
    }
    let end = snap(addr, &id, 0, &tokens[0]).await;
    assert_eq!(end.common.status, Status::Over);
    let r = get_as::<JsonRecord>(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.ok().result, end.common.result);
    // Bad input changes nothing on PostgreSQL either.
    let r = post_action(addr, &id, 0, &tokens[1], "+1").await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")));
    assert_eq!(
        snap(addr, &id, 0, &tokens[0]).await.common.seq,
        end.common.seq
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_ai_game_and_hidden_views() {
    let Some(url) = postgres_url().await else {
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
    // The text as sent: no secret word anywhere in it.
    let (text, _) = recv_game_text(&mut spec, |m| m.common.status == Status::Over).await;
    for w in WORDS.iter().flatten() {
        assert!(!text.contains(w), "spectator saw {w}");
    }
    server.shutdown().await.unwrap();
}

/// The game's seq as a server holds it (what it has acknowledged).
async fn served_seq(addr: std::net::SocketAddr, id: &str, token: &str) -> u64 {
    snap(addr, id, 0, token).await.common.seq
}

/// The last seq of the game's log, read on a new connection: what is committed.
async fn stored_seq(url: &str, id: &str) -> u64 {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let seq: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
    pool.close().await;
    seq as u64
}

/// The first seat that owes an action, and its first legal action.
async fn first_legal(
    addr: std::net::SocketAddr,
    id: &str,
    tokens: &[String],
) -> (usize, ListedAction) {
    for (seat, token) in tokens.iter().enumerate() {
        let sn = snap(addr, id, seat, token).await;
        if let Some(first) = sn.legal.first() {
            return (seat, first.clone());
        }
    }
    panic!("nobody owes an action in game {id}");
}

/// Runs `sql` on a connection of its own.
async fn execute(url: &str, sql: &str) -> u64 {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let n = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(&pool)
        .await
        .unwrap()
        .rows_affected();
    pool.close().await;
    n
}

/// The backend that holds the server lock (the advisory lock `tabula_server::storage::db::NODE_LOCK`).
/// Advisory locks belong to one database: the tests run side by side, each on a database of its own,
/// so only the lock in this connection's database counts (terminating another test's holder would
/// break that test).
const LOCK_HOLDER: &str = "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2 \
     AND classid = 1415668332 AND objid = 1 AND granted \
     AND database = (SELECT oid FROM pg_database WHERE datname = current_database())";

#[test]
fn the_lock_holder_query_names_the_server_lock() {
    let (class, object) = tabula_server::storage::db::NODE_LOCK;
    assert!(LOCK_HOLDER.contains(&format!("classid = {class} ")));
    assert!(LOCK_HOLDER.contains(&format!("objid = {object} ")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_second_server_on_the_same_database_refuses_to_start() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let first = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    let (id, tokens) = create_duel(first.local_addr(), 12).await;
    http_step(first.local_addr(), &id, &tokens).await.unwrap();
    let seq = served_seq(first.local_addr(), &id, &tokens[0]).await;

    let refused = tabula_server::start(config(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    ))
    .await;
    let Err(e) = refused else {
        panic!("a second server started on a database another live server uses");
    };
    let message = e.to_string();
    assert!(
        message.contains("another Tabula server is serving this PostgreSQL database"),
        "{message}"
    );
    // The first server is untouched and goes on.
    http_step(first.local_addr(), &id, &tokens).await.unwrap();
    let seq = seq.max(served_seq(first.local_addr(), &id, &tokens[0]).await);
    first.shutdown().await.unwrap();

    // Once it has stopped, another server may take over its games.
    let second = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    assert_eq!(served_seq(second.local_addr(), &id, &tokens[0]).await, seq);
    http_step(second.local_addr(), &id, &tokens).await.unwrap();
    second.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_server_that_lost_its_lock_to_another_writes_nothing() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let first = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    let a1 = first.local_addr();
    let (id, tokens) = create_duel(a1, 12).await;
    for _ in 0..3 {
        http_step(a1, &id, &tokens).await.unwrap();
    }
    let seq = served_seq(a1, &id, &tokens[0]).await;
    // The first server's lock connection is cut; a second server then takes the lock.
    let cut = execute(
        &url,
        &format!("SELECT pg_terminate_backend(pid) FROM ({LOCK_HOLDER}) AS holder"),
    )
    .await;
    assert_eq!(cut, 1, "exactly one backend holds the server lock");
    let second = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;

    // The first server may no longer write: its actions are refused and change nothing.
    let (seat, legal) = first_legal(a1, &id, &tokens).await;
    let r = post_as::<Committed>(
        a1,
        &format!("/api/games/{id}/action"),
        json!({"seat": seat, "token": tokens[seat], "action": legal.action}),
    )
    .await;
    assert_eq!(
        (r.status, r.code()),
        (503, Some("unavailable")),
        "{}",
        r.raw
    );
    assert_eq!(served_seq(a1, &id, &tokens[0]).await, seq);
    assert_eq!(stored_seq(&url, &id).await, seq);

    // The second server owns the game now.
    let a2 = second.local_addr();
    assert_eq!(served_seq(a2, &id, &tokens[0]).await, seq);
    http_step(a2, &id, &tokens).await.unwrap();
    assert_eq!(
        stored_seq(&url, &id).await,
        served_seq(a2, &id, &tokens[0]).await
    );
    second.shutdown().await.unwrap();
    first.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_lost_connections_acknowledge_only_what_is_committed_and_service_resumes() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 40).await;
    for _ in 0..3 {
        http_step(addr, &id, &tokens).await.unwrap();
    }
    // Every connection of the server is cut (its pool's and its lock's).
    let cut = execute(
        &url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .await;
    assert!(cut >= 2, "the server's connections were cut ({cut})");
    // Each action is either acknowledged and committed, or refused (503) and changes nothing; the
    // server recovers by itself, without a restart.
    let (mut accepted, mut refused) = (0, 0);
    while accepted < 4 {
        assert!(
            refused < 5,
            "the server did not recover from lost connections"
        );
        let before = served_seq(addr, &id, &tokens[0]).await;
        let (seat, legal) = first_legal(addr, &id, &tokens).await;
        let r = post_as::<Committed>(
            addr,
            &format!("/api/games/{id}/action"),
            json!({"seat": seat, "token": tokens[seat], "action": legal.action}),
        )
        .await;
        if r.status == 200 {
            accepted += 1;
        } else {
            assert_eq!(
                (r.status, r.code()),
                (503, Some("unavailable")),
                "{}",
                r.raw
            );
            assert_eq!(served_seq(addr, &id, &tokens[0]).await, before);
            refused += 1;
        }
        assert_eq!(
            stored_seq(&url, &id).await,
            served_seq(addr, &id, &tokens[0]).await,
            "acknowledged is committed"
        );
    }
    // It holds its lock again: a second server still may not start.
    let second = tabula_server::start(config(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    ))
    .await;
    assert!(second.is_err(), "the server did not take its lock again");
    server.shutdown().await.unwrap();
}
