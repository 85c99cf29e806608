//! Analyses of finished games and hints, over HTTP and WebSocket, with an engine that records what
//! it is asked (the AI crate's real analysis is tested in `crates/ai/tests/analysis.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::DynState;
use tabula_core::record::JsonRecord;
use tabula_core::{Actor, Seat};
use tabula_server::services::analysis::Analyst;
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
    start_with_workers(dir, engine, bot, Limits::default().ai_workers).await
}

/// [`start_with_engine`] with `workers` AI workers, and loopback as a trusted proxy (a test's
/// requests name their client in `X-Forwarded-For`).
async fn start_with_workers(
    dir: &std::path::Path,
    engine: Arc<dyn Analyst>,
    bot: Option<BotFn>,
    workers: usize,
) -> tabula_server::RunningServer {
    let limits = Limits {
        ai_workers: workers,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Limits::default()
    };
    let mut cfg = config(registry(), Storage::SqliteDir(dir.to_path_buf()), limits);
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

/// An analysis waits while live games' AI moves occupy every AI worker (here the one worker): it
/// starts only after the AI's move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_yields_to_live_ai_moves() {
    let dir = temp_dir("analysis-yield");
    let engine = Arc::new(Recorder::default());
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let bot = gated_bot(gate.clone(), engine.clone());
    let server = start_with_workers(&dir, engine.clone(), Some(bot), 1).await;
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

/// Opens a gate (a [`gated_bot`]'s, a [`GatedHints`]').
fn open(gate: &(Mutex<bool>, Condvar)) {
    let (open, cv) = gate;
    *open.lock().unwrap() = true;
    cv.notify_all();
}

/// Issue 35, item 4: an analysis beside a live game is never starved. With two AI workers and a
/// live AI move thinking (held), the analysis runs to its end meanwhile (before, it waited for every
/// live move to end, and a busy site starved it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_not_starved_by_a_live_ai_game() {
    let dir = temp_dir("analysis-not-starved");
    let engine = Arc::new(Recorder::default());
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let bot = gated_bot(gate.clone(), engine.clone());
    let server = start_with_workers(&dir, engine.clone(), Some(bot), 2).await;
    let addr = server.local_addr();
    let over = finished_duel(addr).await;
    // A live game against the AI: its AI is thinking now, held until the gate opens.
    create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}], "host_seats": [0]}),
    )
    .await;
    let path = format!("/api/games/{over}/analysis");
    let mut spectator = ws(addr, &over, None).await;
    let (s, v) = post(addr, &path, json!({})).await;
    assert_eq!(s, 202, "{v}");
    assert_wire::<AnalysisAnswer>(&v);
    assert_eq!(v["ahead"], 0, "the only analysis runs first: {v}");
    let done = tokio::time::timeout(T, analysed(addr, &path, &mut spectator)).await;
    let log = engine.log.lock().unwrap().clone();
    open(&gate);
    assert!(
        done.is_ok(),
        "the analysis did not finish while a live AI move was thinking: {log:?}"
    );
    assert!(
        !log.contains(&"live move".to_string()),
        "the live move was still held: {log:?}"
    );
    server.shutdown().await.unwrap();
}

/// An engine whose analyses and hints block until released (each says when it starts).
#[derive(Default)]
struct GatedHints {
    gate: Arc<(Mutex<bool>, Condvar)>,
    hints: AtomicUsize,
    analyses: AtomicUsize,
}

impl GatedHints {
    fn wait(&self) {
        let (open, cv) = &*self.gate;
        let mut g = open.lock().unwrap();
        while !*g {
            g = cv.wait(g).unwrap();
        }
    }
}

impl Analyst for GatedHints {
    fn analyse(
        &self,
        record: &JsonRecord,
        _progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Value, String> {
        self.analyses.fetch_add(1, Ordering::SeqCst);
        self.wait();
        Ok(json!({"game": record.game}))
    }
    fn hint(&self, state: &dyn DynState, seat: Seat, _seed: u64) -> Result<Value, String> {
        self.hints.fetch_add(1, Ordering::SeqCst);
        self.wait();
        let first = state.legal_actions(seat).into_iter().next();
        Ok(json!({"seat": seat, "action": first}))
    }
}

/// A request from client `from` (an `X-Forwarded-For` the server trusts from loopback), answered
/// within [`T`].
async fn post_from(
    addr: std::net::SocketAddr,
    from: &str,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let body = body.to_string();
    let headers = [
        ("x-forwarded-for", from),
        ("content-type", "application/json"),
    ];
    tokio::time::timeout(
        T,
        tabula_tools::client::request_with_headers(addr, "POST", path, &headers, body.as_bytes()),
    )
    .await
    .unwrap_or_else(|_| panic!("{path} from {from} was not answered: it queued"))
    .unwrap()
}

/// Issue 35, item 4: hints cannot starve the AI seats. With two AI workers, one hint being searched
/// (held) takes the hints' whole share: another client's hint is refused at once ("busy", `429`), so
/// is the same client's second one, and the live AI seat of a game still gets its worker and plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_never_starve_ai_seats_and_say_busy() {
    let dir = temp_dir("hints-bounded");
    let engine = Arc::new(GatedHints::default());
    let server = start_with_workers(&dir, engine.clone(), None, 2).await;
    let addr = server.local_addr();
    let ai_game = json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}], "host_seats": [0]});
    let (hinted, tokens) = create(addr, ai_game.clone()).await;
    let token = tokens[0].clone().unwrap();
    let path = format!("/api/games/{hinted}/hint");
    let first = tokio::spawn({
        let (path, token) = (path.clone(), token.clone());
        async move { post_from(addr, "10.0.0.1", &path, json!({"seat": 0, "token": token})).await }
    });
    tokio::time::timeout(T, async {
        while engine.hints.load(Ordering::SeqCst) == 0 {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the first hint is being searched");
    for from in ["10.0.0.1", "10.0.0.2"] {
        let (s, v) = post_from(addr, from, &path, json!({"seat": 0, "token": token})).await;
        assert_eq!(
            (s, &v["error"]["code"]),
            (429, &json!("rate_limited")),
            "{from}: {v}"
        );
        assert!(
            v["error"]["message"].as_str().unwrap().starts_with("busy"),
            "{v}"
        );
    }
    assert_eq!(
        engine.hints.load(Ordering::SeqCst),
        1,
        "nothing else was searched"
    );

    // A live game against the AI: its seat plays while the hint is still being searched.
    let (live, tokens) = create(addr, ai_game).await;
    let token = tokens[0].clone().unwrap();
    let start = snapshot(addr, &live, 0, &token).await["seq"]
        .as_u64()
        .unwrap();
    tokio::time::timeout(T, async {
        loop {
            let snap = snapshot(addr, &live, 0, &token).await;
            let ai_moved = snap["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["actor"] == json!({"seat": 1}));
            if ai_moved {
                break;
            }
            if let Some(first) = snap["legal"].as_array().and_then(|l| l.first()) {
                let (s, v) = post(
                    addr,
                    &format!("/api/games/{live}/action"),
                    json!({"seat": 0, "token": token, "action": first["action"]}),
                )
                .await;
                assert_eq!(s, 200, "{v}");
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap_or_else(|_| {
        panic!("the AI seat never played while a hint was searched (from seq {start})")
    });

    open(&engine.gate);
    let (s, v) = first.await.unwrap();
    assert_eq!(s, 200, "{v}");
    server.shutdown().await.unwrap();
}

/// Issue 35, item 4: the analysis queue tells a player their place and is bounded per client.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_queue_tells_its_place_and_is_bounded_per_client() {
    let dir = temp_dir("analysis-queue");
    let engine = Arc::new(GatedHints::default());
    let server = start_with_workers(&dir, engine.clone(), None, 2).await;
    let addr = server.local_addr();
    let games = [
        finished_duel(addr).await,
        finished_duel(addr).await,
        finished_duel(addr).await,
    ];
    let path = |id: &str| format!("/api/games/{id}/analysis");
    let (s, v) = post_from(addr, "10.0.0.1", &path(&games[0]), json!({})).await;
    assert_eq!((s, &v["ahead"]), (202, &json!(0)), "{v}");
    let (s, v) = post_from(addr, "10.0.0.2", &path(&games[1]), json!({})).await;
    assert_eq!((s, &v["ahead"]), (202, &json!(1)), "{v}");
    assert_wire::<AnalysisAnswer>(&v);
    let (s, v) = post_from(addr, "10.0.0.2", &path(&games[1]), json!({})).await;
    assert_eq!(
        (s, &v["ahead"]),
        (202, &json!(1)),
        "asked again: the same place: {v}"
    );
    // A client's third analysis while two of its own wait or run: busy.
    let (s, v) = post_from(addr, "10.0.0.1", &path(&games[2]), json!({})).await;
    assert_eq!((s, &v["ahead"]), (202, &json!(2)), "{v}");
    let (s, v) = post_from(
        addr,
        "10.0.0.1",
        &path(&finished_duel(addr).await),
        json!({}),
    )
    .await;
    assert_eq!(
        (s, &v["error"]["code"]),
        (429, &json!("rate_limited")),
        "{v}"
    );
    open(&engine.gate);
    let mut spectator = ws(addr, &games[2], None).await;
    loop {
        let (_, v) = get(addr, &path(&games[2])).await;
        if v["status"] == "done" {
            break;
        }
        recv_until(&mut spectator, |m| m["type"] == "analysis").await;
    }
    server.shutdown().await.unwrap();
}
