//! Analyses of finished games and hints, over HTTP and WebSocket, with an engine that records what
//! it is asked (the AI crate's real analysis is tested in `crates/ai/tests/analysis.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::DynState;
use tabula_core::record::JsonRecord;
use tabula_core::{Actor, Seat};
use tabula_server::analysis::Analyst;
use tabula_server::wire::api::AnalysisAnswer;
use tabula_server::{BotFn, Limits, Storage};

/// An engine that counts its analyses, reports progress after every decision and logs the order of
/// events; its "analysis" is a summary of the record it was given.
#[derive(Default)]
struct Recorder {
    analyses: AtomicUsize,
    log: Mutex<Vec<String>>,
    /// This many analyses fail (the first ones).
    failures: AtomicUsize,
}

impl Analyst for Recorder {
    fn analyse(
        &self,
        record: &JsonRecord,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Value, String> {
        self.analyses.fetch_add(1, Ordering::SeqCst);
        self.log.lock().unwrap().push("analysis started".into());
        if self
            .failures
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
        {
            return Err("the engine could not read this record".into());
        }
        let seats: Vec<&tabula_core::record::RecordedAction<Value>> = record
            .actions
            .iter()
            .filter(|a| matches!(a.actor, Actor::Seat(_)))
            .collect();
        for i in 1..=seats.len() {
            progress(i, seats.len());
        }
        Ok(json!({"game": record.game, "decisions": seats.len(), "result": record.result}))
    }
    fn hint(&self, state: &dyn DynState, seat: Seat, _seed: u64) -> Result<Value, String> {
        let first = state.legal_actions(seat).into_iter().next();
        Ok(json!({"seat": seat, "action": first}))
    }
}

async fn start_with_engine(
    dir: &std::path::Path,
    engine: Arc<Recorder>,
    bot: Option<BotFn>,
) -> tabula_server::RunningServer {
    let mut cfg = config(
        registry(),
        Storage::SqliteDir(dir.to_path_buf()),
        Limits::default(),
    );
    cfg.analyst = Some(engine);
    if let Some(bot) = bot {
        cfg.bot = bot;
    }
    tabula_server::start(cfg).await.unwrap()
}

/// Waits for the socket's `done` message of the game's analysis, then reads it (`GET`, at `path`):
/// a typed `done` answer.
async fn analysed(
    addr: std::net::SocketAddr,
    path: &str,
    socket: &mut tabula_tools::client::WsClient,
) -> Value {
    recv_until(socket, |m| m["type"] == "analysis" && m["status"] == "done").await;
    let (s, v) = get(addr, path).await;
    assert_eq!((s, v["status"].as_str()), (200, Some("done")), "{v}");
    assert_wire::<AnalysisAnswer>(&v);
    v
}

/// A finished two-human Duel.
async fn finished_duel(addr: std::net::SocketAddr) -> String {
    let (id, tokens) = create_duel(addr, 5).await;
    while http_step(addr, &id, &tokens).await.is_some() {}
    let (s, v) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!((s, &v["status"]), (200, &json!("over")), "{v}");
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_computed_once_with_progress_on_the_socket_and_kept_across_restarts() {
    let dir = temp_dir("analysis-once");
    let engine = Arc::new(Recorder::default());
    let server = start_with_engine(&dir, engine.clone(), None).await;
    let addr = server.local_addr();
    let id = finished_duel(addr).await;
    let path = format!("/api/games/{id}/analysis");
    let (s, v) = get(addr, &path).await;
    assert_eq!((s, v), (200, json!({"status": "none"})));
    let (_, doc) = get(addr, "/api/openapi.json").await;
    assert!(doc["paths"]["/api/games/{id}/analysis"]["post"].is_object());
    assert!(doc["paths"]["/api/games/{id}/hint"]["post"].is_object());

    let mut spectator = ws(addr, &id, None).await;
    let (s, v) = post(addr, &path, json!({})).await;
    assert_eq!(s, 202, "{v}");
    assert_wire::<AnalysisAnswer>(&v);
    assert_eq!(v["status"], "running");
    let total = v["total"].as_u64().unwrap();
    assert!(total >= 4, "{v}");
    let running = recv_until(&mut spectator, |m| m["type"] == "analysis").await;
    assert_eq!(
        (running["status"].as_str(), running["total"].as_u64()),
        (Some("running"), Some(total))
    );
    let v = analysed(addr, &path, &mut spectator).await;
    assert_eq!(v["analysis"]["decisions"].as_u64(), Some(total));
    assert_eq!(v["analysis"]["game"], "duel");
    // Asked again: the stored analysis, not a second run.
    let (s, again) = post(addr, &path, json!({})).await;
    assert_eq!((s, &again["analysis"]), (200, &v["analysis"]));
    assert_eq!(engine.analyses.load(Ordering::SeqCst), 1);
    server.shutdown().await.unwrap();

    // A new server on the same database reads it; its engine computes nothing.
    let fresh = Arc::new(Recorder::default());
    let server = start_with_engine(&dir, fresh.clone(), None).await;
    let addr = server.local_addr();
    let (s, stored) = post(addr, &path, json!({})).await;
    assert_eq!((s, &stored["analysis"]), (200, &v["analysis"]));
    assert_eq!(fresh.analyses.load(Ordering::SeqCst), 0);
    server.shutdown().await.unwrap();
}

/// A failed analysis says why — on the socket, and to `GET` until someone asks again — and asking
/// again starts a new attempt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_analysis_says_why_until_it_is_asked_for_again() {
    let dir = temp_dir("analysis-failed");
    let engine = Arc::new(Recorder::default());
    engine.failures.store(1, Ordering::SeqCst);
    let server = start_with_engine(&dir, engine.clone(), None).await;
    let addr = server.local_addr();
    let id = finished_duel(addr).await;
    let path = format!("/api/games/{id}/analysis");
    let mut spectator = ws(addr, &id, None).await;
    let (s, v) = post(addr, &path, json!({})).await;
    assert_eq!(s, 202, "{v}");
    let failed = recv_until(&mut spectator, |m| {
        m["type"] == "analysis" && m["status"] != "running"
    })
    .await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["error"], "the engine could not read this record");
    let (s, v) = get(addr, &path).await;
    assert_eq!(
        (s, v),
        (
            200,
            json!({"status": "failed", "error": "the engine could not read this record"})
        )
    );
    // Asked again: a new attempt, which succeeds and is kept.
    let (s, v) = post(addr, &path, json!({})).await;
    assert_eq!((s, v["status"].as_str()), (202, Some("running")), "{v}");
    analysed(addr, &path, &mut spectator).await;
    assert_eq!(engine.analyses.load(Ordering::SeqCst), 2);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_finished_games_are_analysed_and_a_server_without_engine_says_so() {
    let dir = temp_dir("analysis-refused");
    let engine = Arc::new(Recorder::default());
    let server = start_with_engine(&dir, engine.clone(), None).await;
    let addr = server.local_addr();
    let (id, _) = create_duel(addr, 5).await;
    let (s, v) = post(addr, &format!("/api/games/{id}/analysis"), json!({})).await;
    assert_eq!((s, &v["error"]["code"]), (409, &json!("conflict")), "{v}");
    let (s, _) = post(addr, "/api/games/no-such-game/analysis", json!({})).await;
    assert_eq!(s, 404);
    assert_eq!(engine.analyses.load(Ordering::SeqCst), 0);
    let over = finished_duel(addr).await;
    server.shutdown().await.unwrap();

    let server = start(&dir).await;
    let addr = server.local_addr();
    let (s, v) = post(addr, &format!("/api/games/{over}/analysis"), json!({})).await;
    assert_eq!(
        (s, &v["error"]["code"]),
        (503, &json!("unavailable")),
        "{v}"
    );
    server.shutdown().await.unwrap();
}

/// A bot that blocks until released, and logs when it answers.
fn gated_bot(gate: Arc<(Mutex<bool>, Condvar)>, log: Arc<Recorder>) -> BotFn {
    let random = random_bot();
    Arc::new(move |state, seat, level, seed| {
        let (open, cv) = &*gate;
        let mut g = open.lock().unwrap();
        while !*g {
            g = cv.wait(g).unwrap();
        }
        drop(g);
        log.log.lock().unwrap().push("live move".into());
        random(state, seat, level, seed)
    })
}

/// An analysis waits while a live game's AI is thinking: it starts only after the AI's move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_yields_to_live_ai_moves() {
    let dir = temp_dir("analysis-yield");
    let engine = Arc::new(Recorder::default());
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let bot = gated_bot(gate.clone(), engine.clone());
    let server = start_with_engine(&dir, engine.clone(), Some(bot)).await;
    let addr = server.local_addr();
    let over = finished_duel(addr).await;
    // A live game against the AI: its secret is owed at once, and the AI is now thinking (held).
    create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}], "host_seats": [0]}),
    )
    .await;
    let path = format!("/api/games/{over}/analysis");
    let (s, v) = post(addr, &path, json!({})).await;
    assert_eq!(s, 202, "{v}");
    tokio::time::timeout(T, async {
        loop {
            let (_, v) = get(addr, &path).await;
            assert_eq!(v["status"], "running", "the analysis did not wait: {v}");
            if v["waiting"] == true && v["done"] == 0 {
                break;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the analysis shows that it waits for the live game");
    assert!(engine.log.lock().unwrap().is_empty(), "nothing ran yet");
    {
        let (open, cv) = &*gate;
        *open.lock().unwrap() = true;
        cv.notify_all();
    }
    let mut spectator = ws(addr, &over, None).await;
    loop {
        let (_, v) = get(addr, &path).await;
        if v["status"] == "done" {
            break;
        }
        recv_until(&mut spectator, |m| m["type"] == "analysis").await;
    }
    let log = engine.log.lock().unwrap().clone();
    assert_eq!(
        log.first().map(String::as_str),
        Some("live move"),
        "{log:?}"
    );
    assert!(log.contains(&"analysis started".to_string()), "{log:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_only_for_a_players_own_decision_in_a_game_against_the_ai() {
    let dir = temp_dir("analysis-hint");
    let engine = Arc::new(Recorder::default());
    let server = start_with_engine(&dir, engine.clone(), None).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}], "host_seats": [0]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let path = format!("/api/games/{id}/hint");
    let (s, v) = post(addr, &path, json!({"seat": 0, "token": token})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["seat"], 0);
    let legal: Vec<Value> = snapshot(addr, &id, 0, &token).await["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["action"].clone())
        .collect();
    assert!(legal.contains(&v["action"]), "{v}");
    // Never for the opponent, nor with a wrong token.
    let (s, v) = post(addr, &path, json!({"seat": 1, "token": token})).await;
    assert_eq!((s, &v["error"]["code"]), (403, &json!("bad_token")), "{v}");
    let (s, v) = post(addr, &path, json!({"seat": 0, "token": "wrong"})).await;
    assert_eq!((s, &v["error"]["code"]), (403, &json!("bad_token")), "{v}");
    let (s, _) = post(addr, &path, json!({"seat": 0})).await;
    assert_eq!(s, 400);

    // Between people: refused.
    let (duel, tokens) = create_duel(addr, 5).await;
    let (s, v) = post(
        addr,
        &format!("/api/games/{duel}/hint"),
        json!({"seat": 0, "token": tokens[0]}),
    )
    .await;
    assert_eq!((s, &v["error"]["code"]), (403, &json!("forbidden")), "{v}");
    server.shutdown().await.unwrap();
}

/// A lesson's engine hint is for the lesson's player in the position its actions lead to, and none
/// is given once the lesson is solved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_gives_the_engines_hint_until_it_is_solved() {
    let dir = temp_dir("analysis-lesson");
    let mut registry = tabula_core::dynamic::Registry::new();
    registry.register::<kyo::Kyo>();
    let mut cfg = config(registry, Storage::SqliteDir(dir), Limits::default());
    cfg.analyst = Some(Arc::new(Recorder::default()));
    let server = tabula_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    let (s, lesson) = post(addr, "/api/lessons/kyo/1", json!({})).await;
    assert_eq!(s, 200, "{lesson}");
    let (s, hint) = post(addr, "/api/lessons/kyo/1/hint", json!({})).await;
    assert_eq!(s, 200, "{hint}");
    assert_eq!(hint["seat"], lesson["seat"]);
    let legal: Vec<&Value> = lesson["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["action"])
        .collect();
    assert!(legal.contains(&&hint["action"]), "{hint}");
    // Follow the lesson's own solution to the end: then there is nothing to hint.
    let mut actions = Vec::new();
    let mut state = lesson;
    while state["solved"] != true {
        let next = state["hint"].clone();
        assert!(next.is_object(), "the solution goes on: {state}");
        actions.push(json!({"action": next["action"]}));
        let (s, v) = post(addr, "/api/lessons/kyo/1", json!({"actions": actions})).await;
        assert_eq!(s, 200, "{v}");
        state = v;
    }
    let (s, v) = post(addr, "/api/lessons/kyo/1/hint", json!({"actions": actions})).await;
    assert_eq!((s, &v["error"]["code"]), (409, &json!("conflict")), "{v}");
    let (s, _) = post(addr, "/api/lessons/kyo/99/hint", json!({})).await;
    assert_eq!(s, 404);
    server.shutdown().await.unwrap();
}
