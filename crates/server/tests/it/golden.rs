//! Golden logs: the event log is the game, so a log written today must load and replay the
//! same for as long as the server lives, whatever later changes do to the wire types, the domain or the
//! engines. `tests/fixtures/logs/` holds one committed log per game (the rows of `games` and `events`
//! exactly as stored — the `data` column's JSON — and what its replay gave when it was written: status,
//! seq, result and every action of the game as it stands). The test
//! * reads every stored event into today's types and writes it back: the same JSON (a renamed or
//!   retyped field of a stored type fails here instead of silently changing what old logs must hold);
//! * replays each log with today's `GameCore` and engines: the same status, seq, result and actions;
//! * puts the rows into a database at today's schema and has a server load them from there: it serves
//!   the game as over, at the same seq.
//!
//! A fixture is never rewritten. A missing one (a new game) is written by
//! `TABULA_WRITE_GOLDEN_LOGS=1 cargo test -p tabula-server --test it golden`, by playing a game of
//! that kind through a server: a Fischer clock, random legal actions, a draw offered and declined, a
//! takeback where the rules allow one, a resignation and a rematch. A change that needs the stored form
//! to change adds a migration that converts old rows, and a new fixture beside the old ones (named after
//! the migration that wrote it), never an edit of an old one.

use std::path::{Path, PathBuf};

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::Registry;
use tabula_server::domain::model::{Event, EventData, GameCore};
use tabula_server::{Limits, Storage};

/// The newest migration when a fixture is written: its file is named `{MIGRATION:04}-{game}.json`.
const MIGRATION: u32 = 6;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logs")
}

/// What a log replays to: compared field by field with the fixture's `replayed`.
fn replay(registry: &Registry, events: &[Event]) -> Result<Value, String> {
    let (_, core, _) = GameCore::from_log(registry, events)?;
    Ok(json!({
        "status": core.status.as_str(),
        "seq": core.seq,
        "result": core.result,
        "played": core.played.iter().map(|p| json!({"seq": p.seq, "actor": p.actor, "action": p.action.value()})).collect::<Vec<_>>(),
    }))
}

/// The fixture's events, read as the server reads its `events` rows.
fn events_of(fixture: &Value) -> Result<Vec<Event>, String> {
    let rows = fixture["events"].as_array().ok_or("no `events`")?;
    rows.iter()
        .map(|row| {
            let seq = row["seq"].as_u64().ok_or("an event without `seq`")?;
            let data: EventData = serde_json::from_value(row["data"].clone())
                .map_err(|e| format!("event {seq} is unreadable: {e}"))?;
            // Today's types write it back as it was stored.
            let back = serde_json::to_value(&data).map_err(|e| e.to_string())?;
            if back != row["data"] {
                return Err(format!(
                    "event {seq} is read and written back differently:\n stored {}\n now    {back}",
                    row["data"]
                ));
            }
            if row["kind"] != data.kind() {
                return Err(format!(
                    "event {seq}: kind {} for a {}",
                    row["kind"],
                    data.kind()
                ));
            }
            Ok(Event {
                seq,
                at: row["at_ms"].as_i64().ok_or("an event without `at_ms`")?,
                data,
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn golden_logs_load_and_replay_as_they_were_played() {
    let registry = every_game();
    let mut kinds: Vec<String> = registry.ids().iter().map(|n| n.to_string()).collect();
    kinds.sort();
    let dir = fixtures();
    let write = std::env::var_os("TABULA_WRITE_GOLDEN_LOGS").is_some();
    let mut missing = Vec::new();
    for kind in &kinds {
        let path = dir.join(format!("{MIGRATION:04}-{kind}.json"));
        if !path.exists() {
            if write {
                write_fixture(&registry, kind, &path).await;
            } else {
                missing.push(path.display().to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no golden log for {missing:?}: write them with \
         `TABULA_WRITE_GOLDEN_LOGS=1 cargo test -p tabula-server --test it golden` and commit them"
    );

    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= kinds.len(), "{files:?}");

    // Every fixture's rows in one database at today's schema, served by a server that loads them.
    let data_dir = temp_dir("golden");
    start(&data_dir).await.shutdown().await.unwrap();
    let pool = sqlite_pool(&data_dir).await;
    let mut games = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(file).unwrap();
        let fixture: Value = serde_json::from_str(&text).unwrap();
        let events = events_of(&fixture).unwrap_or_else(|e| panic!("{name}: {e}"));
        let replayed = replay(&registry, &events).unwrap_or_else(|e| panic!("{name}: {e}"));
        for key in ["status", "seq", "result", "played"] {
            assert_eq!(
                replayed[key], fixture["replayed"][key],
                "{name}: the replay's `{key}` differs from the one it was written with"
            );
        }
        let game = &fixture["game"];
        sqlx::query(
            "INSERT INTO games (id, game, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game["id"].as_str().unwrap())
        .bind(game["game"].as_str().unwrap())
        .bind(game["status"].as_str().unwrap())
        .bind(game["created_at"].as_i64().unwrap())
        .bind(game["updated_at"].as_i64().unwrap())
        .execute(&pool)
        .await
        .unwrap();
        for row in fixture["events"].as_array().unwrap() {
            sqlx::query(
                "INSERT INTO events (game_id, seq, at_ms, kind, data) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game["id"].as_str().unwrap())
            .bind(row["seq"].as_i64().unwrap())
            .bind(row["at_ms"].as_i64().unwrap())
            .bind(row["kind"].as_str().unwrap())
            .bind(row["data"].to_string())
            .execute(&pool)
            .await
            .unwrap();
        }
        games.push((name, game["id"].as_str().unwrap().to_string(), replayed));
    }
    pool.close().await;
    let server = start_with(
        every_game(),
        Storage::SqliteDir(data_dir.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    for (name, id, replayed) in games {
        let (s, snap) = get(addr, &format!("/api/games/{id}")).await;
        assert_eq!(s, 200, "{name}: {snap}");
        assert_eq!(snap["status"], replayed["status"], "{name}");
        assert_eq!(snap["seq"], replayed["seq"], "{name}");
        let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
        assert_eq!(s, 200, "{name}: {record}");
        assert_eq!(
            record["actions"].as_array().map(Vec::len),
            replayed["played"].as_array().map(Vec::len),
            "{name}: {record}"
        );
    }
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(data_dir);
}

/// Plays games of `kind` through a server until one lasts long enough for a draw offer (random play
/// ends some at once: a Caird setup that leaves its King mated), and writes its stored rows and
/// replay to `path`.
async fn write_fixture(registry: &Registry, kind: &str, path: &Path) {
    for attempt in 0..50 {
        let fixture = play_fixture(registry, kind, 0x601d + attempt).await;
        let kinds = fixture["events"].as_array().into_iter().flatten();
        if kinds.clone().any(|e| e["kind"] == "draw_offer") {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, serde_json::to_string_pretty(&fixture).unwrap() + "\n").unwrap();
            return;
        }
    }
    panic!("no game of {kind} lasted until a draw offer in 50 tries");
}

/// Plays a game of `kind` through a server: its stored rows and their replay.
async fn play_fixture(registry: &Registry, kind: &str, seed: u64) -> Value {
    let dir = temp_dir("golden-write");
    let limits = Limits {
        http_rate_per_sec: 10_000.0,
        http_burst: 10_000.0,
        ..Limits::default()
    };
    let server = start_with(registry.clone(), Storage::SqliteDir(dir.clone()), limits).await;
    let addr = server.local_addr();
    // Every seat a person's (all hosted here), as many as the kind has with its default options.
    let (_, catalog) = get(addr, "/api/catalog").await;
    let seats = catalog["games"]
        .as_array()
        .and_then(|games| games.iter().find(|g| g["id"] == kind))
        .and_then(|g| g["default_seats"].as_array())
        .map_or(2, Vec::len);
    let (id, tokens) = create(
        addr,
        json!({"game": kind, "seats": vec![json!({"kind": "human"}); seats],
               "host_seats": (0..seats).collect::<Vec<_>>(),
               "clock": {"kind": "fischer", "initial_ms": 600_000, "increment_ms": 5_000}}),
    )
    .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let seat_op = |op: &'static str, seat: usize, what: &'static str| {
        let (id, token) = (id.clone(), tokens[seat].clone());
        async move {
            let mut body = json!({"seat": seat, "token": token});
            if !what.is_empty() {
                body["op"] = json!(what);
            }
            post(addr, &format!("/api/games/{id}/{op}"), body).await
        }
    };
    let mut rng = tabula_core::rng_from_seed(seed);
    let running = || async {
        let snap = snapshot(addr, &id, 0, &tokens[0]).await;
        snap["status"] == "running"
    };
    for _ in 0..8 {
        if !random_step(addr, &id, &tokens, &mut rng).await {
            break;
        }
    }
    if running().await {
        let (s, v) = seat_op("draw", 0, "offer").await;
        assert_eq!(s, 200, "{v}");
        let (s, v) = seat_op("draw", 1, "decline").await;
        assert_eq!(s, 200, "{v}");
        // A takeback, by whichever seat may ask one (none where the last actions were hidden).
        for seat in 0..seats {
            if seat_op("takeback", seat, "offer").await.0 == 200 {
                for other in (0..seats).filter(|&o| o != seat) {
                    let (s, v) = seat_op("takeback", other, "accept").await;
                    assert_eq!(s, 200, "{v}");
                }
                break;
            }
        }
    }
    for _ in 0..4 {
        if !random_step(addr, &id, &tokens, &mut rng).await {
            break;
        }
    }
    if running().await {
        let (s, v) = seat_op("resign", 0, "").await;
        assert_eq!(s, 200, "{v}");
    }
    let (s, v) = seat_op("rematch", 1, "").await;
    assert_eq!(s, 200, "{v}");
    server.shutdown().await.unwrap();

    let pool = sqlite_pool(&dir).await;
    let (game, status, created_at, updated_at): (String, String, i64, i64) =
        sqlx::query_as("SELECT game, status, created_at, updated_at FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
    let rows: Vec<(i64, i64, String, String)> =
        sqlx::query_as("SELECT seq, at_ms, kind, data FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap();
    pool.close().await;
    let events: Vec<Value> = rows
        .into_iter()
        .map(|(seq, at_ms, kind, data)| {
            let data: Value = serde_json::from_str(&data).unwrap();
            json!({"seq": seq, "at_ms": at_ms, "kind": kind, "data": data})
        })
        .collect();
    let mut fixture = json!({
        "written_by": format!("migration {MIGRATION}, tabula {}", env!("CARGO_PKG_VERSION")),
        "game": {"id": id, "game": game, "status": status, "created_at": created_at, "updated_at": updated_at},
        "events": events,
    });
    let parsed = events_of(&fixture).unwrap();
    fixture["replayed"] = replay(registry, &parsed).unwrap();
    let _ = std::fs::remove_dir_all(dir);
    fixture
}
