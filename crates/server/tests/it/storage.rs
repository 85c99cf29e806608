//! Storage failures on SQLite: a commit that fails is answered `503 unavailable` and changes nothing;
//! no action is ever acknowledged that is not on disk (the connection of a failed transaction is
//! discarded); service resumes by itself when storage recovers; every refused commit is logged with
//! its game id. Also: versioned migrations open a database created before they existed.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use serde_json::{Value, json};
use tabula_server::wire::api::Committed;

/// A two-human Duel to 40, both seats joined by the host (the server draws the seed).
async fn long_duel(addr: std::net::SocketAddr) -> (String, Vec<String>) {
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "options": {"target": 40},
               "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]}),
    )
    .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

/// Plays the action `want` (by notation) of whichever seat owes one, or its first legal action when it
/// has no such action; returns the HTTP status and the body as sent (each caller reads it through the
/// wire types: [`assert_unavailable`], or the status alone).
async fn play(
    addr: std::net::SocketAddr,
    id: &str,
    tokens: &[String],
    want: Option<&str>,
) -> (u16, Value) {
    for (seat, token) in tokens.iter().enumerate() {
        let sn = snap(addr, id, seat, token).await;
        let legal = &sn.legal;
        let Some(first) = legal.first() else {
            continue;
        };
        let pick = legal
            .iter()
            .find(|l| want.is_some_and(|w| l.notation == w))
            .unwrap_or(first);
        let r = post_as::<Committed>(
            addr,
            &format!("/api/games/{id}/action"),
            json!({"seat": seat, "token": token, "action": pick.action}),
        )
        .await;
        return (r.status, r.raw);
    }
    panic!("nobody owes an action in game {id}");
}

/// The game's seq as the server holds it in memory (what it has acknowledged).
async fn served_seq(addr: std::net::SocketAddr, id: &str, tokens: &[String]) -> u64 {
    snap(addr, id, 0, &tokens[0]).await.common.seq
}

/// The last seq of the game's log as a new connection reads it from the file: what is on disk.
async fn stored_seq(dir: &Path, id: &str) -> u64 {
    let url = format!("sqlite://{}", dir.join("tabula.sqlite3").display());
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let seq: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
    pool.close().await;
    seq as u64
}

fn assert_unavailable(status: u16, body: &Value, what: &str) {
    let r = Reply::<Committed>::read(status, body.clone());
    assert_eq!(
        (r.status, r.code()),
        (503, Some("unavailable")),
        "{what}: a failed commit must be answered 503 unavailable: {body}"
    );
}

/// Whether the disk-full test must run: when asked (`TABULA_TEST_REQUIRE_TMPFS=1`), not being able to
/// mount a tmpfs fails it instead of skipping it. (Without root it is skipped, saying so on the
/// terminal; the fault-injection test below covers the same failure without root.)
fn required() -> bool {
    std::env::var("TABULA_TEST_REQUIRE_TMPFS").is_ok_and(|v| v == "1")
}

/// A small tmpfs, unmounted on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` (needs root); `None` (after saying so on the terminal, past the test
    /// harness's capture) when that is not possible and not [`required`].
    fn mount(name: &str, size: &str) -> Option<Tmpfs> {
        let dir = temp_dir(name);
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Tmpfs(dir)),
            other => {
                let why = match other {
                    Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
                    Err(e) => e.to_string(),
                };
                assert!(
                    !required(),
                    "TABULA_TEST_REQUIRE_TMPFS=1 but a tmpfs cannot be mounted (run the tests as root): {why}"
                );
                let _ = writeln!(
                    std::io::stderr(),
                    "storage test NOT RUN: cannot mount a tmpfs ({why}); run as root to include it"
                );
                None
            }
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes zeros into `file` until the file system is full.
fn fill_disk(file: &Path) {
    let mut f = std::fs::File::create(file).unwrap();
    for chunk in [1 << 20, 4096, 512] {
        let zeros = vec![0u8; chunk];
        while f.write_all(&zeros).and_then(|()| f.sync_all()).is_ok() {}
    }
}

/// The reproduction, on a real full disk: play until the disk is full, play on while it is
/// (every refusal is `503`), free the space and play on (every action is accepted again, without a
/// restart), then restart: everything acknowledged is there, and nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disk_full_acknowledges_only_what_is_written_and_resumes_when_space_returns() {
    log_buffer();
    let Some(fs) = Tmpfs::mount("diskfull", "8m") else {
        return;
    };
    let data = fs.0.join("data");
    let server = start(&data).await;
    let addr = server.local_addr();
    let mut games = Vec::new();
    for _ in 0..3 {
        let (id, tokens) = long_duel(addr).await;
        for _ in 0..3 {
            let (s, v) = play(addr, &id, &tokens, None).await;
            assert_eq!(s, 200, "{v}");
        }
        games.push((id, tokens));
    }

    fill_disk(&fs.0.join("filler"));
    // Answers are judged only after the durability check below, so that a server that loses
    // acknowledged actions fails on the loss itself, whatever it answered.
    let mut answers = Vec::new();
    for (id, tokens) in &games {
        for _ in 0..4 {
            let before = served_seq(addr, id, tokens).await;
            let (s, v) = play(addr, id, tokens, None).await;
            if s != 200 {
                assert_eq!(
                    served_seq(addr, id, tokens).await,
                    before,
                    "a refused action changed the game"
                );
            }
            answers.push(("disk full", s, v));
        }
    }

    std::fs::remove_file(fs.0.join("filler")).unwrap();
    for (id, tokens) in &games {
        for _ in 0..3 {
            let (s, v) = play(addr, id, tokens, None).await;
            answers.push(("space freed", s, v));
        }
    }
    let mut served = Vec::new();
    for (id, tokens) in &games {
        let seq = served_seq(addr, id, tokens).await;
        assert_eq!(
            stored_seq(&data, id).await,
            seq,
            "game {id}: acknowledged actions are not on disk"
        );
        served.push(seq);
    }
    server.shutdown().await.unwrap();
    let server = start(&data).await;
    let addr = server.local_addr();
    for ((id, tokens), seq) in games.iter().zip(&served) {
        assert_eq!(
            served_seq(addr, id, tokens).await,
            *seq,
            "game {id}: acknowledged actions are lost after a restart"
        );
    }

    let refused = answers.iter().filter(|(_, s, _)| *s != 200).count();
    assert!(refused > 0, "the disk never filled: the test did not test");
    for (when, s, v) in &answers {
        match *when {
            "space freed" => {
                assert_eq!(*s, 200, "service did not resume once space was free: {v}")
            }
            _ if *s != 200 => assert_unavailable(*s, v, "disk full"),
            _ => {}
        }
    }
    let lines = log_lines();
    for (id, _) in &games {
        assert!(
            lines
                .iter()
                .any(|l| l.contains("storage error") && l.contains(id.as_str())),
            "no storage error logged for game {id}"
        );
    }
    server.shutdown().await.unwrap();
}

/// The same failure without root: SQLite answers a failed write either by rolling back the whole
/// transaction or only the failed statement (both happen on a full disk); triggers inject exactly those
/// two failures. A connection whose transaction failed must not be used again: before the fix, the
/// first failure left the driver believing a transaction was open, the second then left a real one
/// open that never ended, and every later "commit" on that connection was acknowledged and lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_whose_transaction_failed_is_never_used_again() {
    log_buffer();
    let dir = temp_dir("failed-tx");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (a, ta) = long_duel(addr).await;
    let (b, tb) = long_duel(addr).await;
    for (id, tokens) in [(&a, &ta), (&b, &tb)] {
        for _ in 0..2 {
            let (s, v) = play(addr, id, tokens, None).await;
            assert_eq!(s, 200, "{v}");
        }
    }
    {
        let pool = sqlite_pool(&dir).await;
        for sql in [
            "CREATE TABLE fault (game_id TEXT NOT NULL, mode TEXT NOT NULL)",
            "CREATE TRIGGER fault_rollback BEFORE INSERT ON events WHEN NEW.data LIKE '%\"add\":2%' \
             AND EXISTS (SELECT 1 FROM fault WHERE game_id = NEW.game_id AND mode = 'rollback') \
             BEGIN SELECT RAISE(ROLLBACK, 'injected: database or disk is full'); END",
            "CREATE TRIGGER fault_abort BEFORE INSERT ON events WHEN NEW.data LIKE '%\"add\":2%' \
             AND EXISTS (SELECT 1 FROM fault WHERE game_id = NEW.game_id AND mode = 'abort') \
             BEGIN SELECT RAISE(ABORT, 'injected: database or disk is full'); END",
        ] {
            sqlx::query(sql).execute(&pool).await.unwrap();
        }
        sqlx::query("INSERT INTO fault VALUES ($1, 'rollback'), ($2, 'abort')")
            .bind(&a)
            .bind(&b)
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }

    // Answers are judged after the durability check, so that a server that loses acknowledged
    // actions fails on the loss itself. Game a: the whole transaction is rolled back under the
    // driver's feet.
    let mut refusals = Vec::new();
    let mut accepted = Vec::new();
    let before = served_seq(addr, &a, &ta).await;
    let (s, v) = play(addr, &a, &ta, Some("+2")).await;
    refusals.push(("rolled-back transaction", s, v));
    assert_eq!(served_seq(addr, &a, &ta).await, before);
    accepted.push(play(addr, &a, &ta, Some("+1")).await);
    // Game b: only the failed statement is undone; the transaction stays open.
    let (s, v) = play(addr, &b, &tb, Some("+2")).await;
    refusals.push(("failed statement", s, v));
    for _ in 0..3 {
        for (id, tokens) in [(&a, &ta), (&b, &tb)] {
            accepted.push(play(addr, id, tokens, Some("+1")).await);
        }
    }
    for (id, tokens) in [(&a, &ta), (&b, &tb)] {
        assert_eq!(
            stored_seq(&dir, id).await,
            served_seq(addr, id, tokens).await,
            "game {id}: acknowledged actions are not on disk"
        );
    }
    for (what, s, v) in &refusals {
        assert_unavailable(*s, v, what);
    }
    for (s, v) in &accepted {
        assert_eq!(*s, 200, "{v}");
    }
    let lines = log_lines();
    for id in [&a, &b] {
        assert!(
            lines.iter().any(|l| l.contains("storage error")
                && l.contains(id.as_str())
                && l.contains("injected")),
            "the refused commit of game {id} is not in the log"
        );
    }
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits (up to a minute, polling) until the server's copy of the game is its stored log's.
async fn until_caught_up(addr: std::net::SocketAddr, dir: &Path, id: &str, tokens: &[String]) {
    for _ in 0..600 {
        if served_seq(addr, id, tokens).await == stored_seq(dir, id).await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("game {id}: the room never caught up with its log");
}

/// A commit can land although its answer is lost (a connection that breaks right after `COMMIT`).
/// The server then asks the log: a landed change is durable and acknowledged; when the log cannot be
/// read either, the action is refused (`503`) and the room catches up with the log by itself, and in
/// any case before its next change. Before the fix the room stayed behind: every later action of
/// the game tried to write an event number the log already held and was refused until a restart,
/// and sockets never saw the landed event.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_whose_answer_was_lost_is_taken_from_the_log() {
    log_buffer();
    let dir = temp_dir("lost-answer");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = long_duel(addr).await;
    for _ in 0..2 {
        let (s, v) = play(addr, &id, &tokens, None).await;
        assert_eq!(s, 200, "{v}");
    }
    let mut watcher = ws(addr, &id, None).await;
    recv_snapshot(&mut watcher).await;

    // The log can be read: the landed action is acknowledged.
    let before = served_seq(addr, &id, &tokens).await;
    server.faults().lose_commit_answers(1);
    let (s, v) = play(addr, &id, &tokens, None).await;
    assert_eq!(s, 200, "a landed commit must be acknowledged: {v}");
    let after = served_seq(addr, &id, &tokens).await;
    assert!(after > before);
    assert_eq!(stored_seq(&dir, &id).await, after);

    // Neither the answer nor the log: refused, yet on disk; the room catches up by itself.
    server.faults().lose_commit_answers(1);
    server.faults().fail_log_reads(1);
    let (s, v) = play(addr, &id, &tokens, None).await;
    assert_unavailable(s, &v, "a commit of unknown fate");
    let landed = stored_seq(&dir, &id).await;
    assert!(
        landed > after,
        "the injected fault must let the commit land"
    );
    until_caught_up(addr, &dir, &id, &tokens).await;

    // The log is unreadable for a while: the room, unsure again, refuses changes until it can read
    // it, then applies what landed (by itself, or before the next change, whichever comes first).
    server.faults().lose_commit_answers(1);
    server.faults().fail_log_reads(1_000_000);
    let (s, v) = play(addr, &id, &tokens, None).await;
    assert_unavailable(s, &v, "a commit of unknown fate");
    let (s, v) = play(addr, &id, &tokens, None).await;
    assert_unavailable(s, &v, "a change while the room may be behind its log");
    server.faults().fail_log_reads(0);
    until_caught_up(addr, &dir, &id, &tokens).await;
    for _ in 0..3 {
        let (s, v) = play(addr, &id, &tokens, None).await;
        assert_eq!(s, 200, "service must resume once the log can be read: {v}");
    }
    let seq = served_seq(addr, &id, &tokens).await;
    assert_eq!(stored_seq(&dir, &id).await, seq, "served and stored differ");

    // Every event reached the watcher exactly once, in order.
    let mut seen = Vec::new();
    while seen.last().copied() != Some(seq) {
        let m = recv_update(&mut watcher).await;
        for e in &m.events {
            seen.push(e.seq);
        }
    }
    let first = seen[0];
    assert_eq!(seen, (first..=seq).collect::<Vec<_>>(), "gaps or repeats");

    server.shutdown().await.unwrap();
    let server = start(&dir).await;
    assert_eq!(served_seq(server.local_addr(), &id, &tokens).await, seq);
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database created before migrations were versioned (the same tables, no `_sqlx_migrations`)
/// opens as it is, keeps its games, and is then at the current version.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_versioned_migrations_still_opens() {
    let dir = temp_dir("old-schema");
    std::fs::create_dir_all(&dir).unwrap();
    {
        // The old code's schema, statement for statement.
        let url = format!("sqlite://{}?mode=rwc", dir.join("tabula.sqlite3").display());
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        for sql in [
            "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL, \
             created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL, seq BIGINT NOT NULL, at_ms BIGINT NOT NULL, \
             kind TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game_id, seq))",
            "CREATE INDEX IF NOT EXISTS games_status ON games (status)",
        ] {
            sqlx::query(sql).execute(&pool).await.unwrap();
        }
        pool.close().await;
    }
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = long_duel(addr).await;
    for _ in 0..4 {
        let (s, v) = play(addr, &id, &tokens, None).await;
        assert_eq!(s, 200, "{v}");
    }
    let seq = served_seq(addr, &id, &tokens).await;
    server.shutdown().await.unwrap();

    let server = start(&dir).await;
    assert_eq!(served_seq(server.local_addr(), &id, &tokens).await, seq);
    server.shutdown().await.unwrap();
    let pool = sqlite_pool(&dir).await;
    let versions: Vec<i64> =
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(
        versions,
        vec![1, 2, 3, 4, 5, 6, 7],
        "the first migration is recorded as applied, and the later ones (accounts, analyses, chat, \
         cluster leases, sign-in failures, ratings before a game) are applied"
    );
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
