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
use tabula_server::wire::api::{AnalysisAnswer, LessonState};
use tabula_server::wire::game::{AnalysisStatus, SocketMsg, Status};
use tabula_server::{BotFn, Limits, Storage};

/// What [`Recorder`] writes as its analysis (the server stores and sends it as it is).
#[derive(Debug, PartialEq, serde::Deserialize)]
struct Summary {
    game: String,
    decisions: usize,
    result: Option<tabula_core::Outcome>,
}

/// What the test engines give as a hint (the server sends it as it is): the seat and its action.
#[derive(Debug, serde::Deserialize)]
struct EngineHint {
    seat: u8,
    action: Value,
}

/// A `done` answer's analysis, read as the [`Recorder`]'s summary.
fn summary(answer: &AnalysisAnswer) -> Summary {
    match answer {
        AnalysisAnswer::Done { analysis } => decode(analysis),
        other => panic!("not done: {other:?}"),
    }
}

/// Receives messages until an `analysis` one that `pred` takes: its status, progress and error.
async fn recv_analysis(
    ws: &mut tabula_tools::client::WsClient,
    pred: impl Fn(AnalysisStatus) -> bool,
) -> (AnalysisStatus, Option<usize>, Option<String>) {
    recv_find(ws, |m| match m.other() {
        Some(SocketMsg::Analysis {
            status,
            total,
            error,
            ..
        }) if pred(*status) => Some((*status, *total, error.clone())),
        _ => None,
    })
    .await
}

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
) -> AnalysisAnswer {
    recv_analysis(socket, |s| s == AnalysisStatus::Done).await;
    let r = get_as::<AnalysisAnswer>(addr, path).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_wire::<AnalysisAnswer>(&r.raw);
    let answer = r.ok();
    assert!(matches!(answer, AnalysisAnswer::Done { .. }), "{answer:?}");
    answer
}

/// A finished two-human Duel.
async fn finished_duel(addr: std::net::SocketAddr) -> String {
    let (id, tokens) = create_duel(addr, 5).await;
    while http_step(addr, &id, &tokens).await.is_some() {}
    let r = get_as::<Snap>(addr, &format!("/api/games/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(r.ok().common.status, Status::Over);
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
    let r = get_as::<AnalysisAnswer>(addr, &path).await;
    assert_eq!((r.status, r.ok()), (200, AnalysisAnswer::None));
    // The OpenAPI document is not a wire type: raw JSON.
    let (_, doc) = get(addr, "/api/openapi.json").await;
    assert!(doc["paths"]["/api/games/{id}/analysis"]["post"].is_object());
    assert!(doc["paths"]["/api/games/{id}/hint"]["post"].is_object());

    let mut spectator = ws(addr, &id, None).await;
    let r = post_as::<AnalysisAnswer>(addr, &path, json!({})).await;
    assert_eq!(r.status, 202, "{}", r.raw);
    assert_wire::<AnalysisAnswer>(&r.raw);
    let total = match r.ok() {
        AnalysisAnswer::Running { total, .. } => total,
        other => panic!("not running: {other:?}"),
    };
    assert!(total >= 4, "{total}");
    let running = recv_analysis(&mut spectator, |_| true).await;
    assert_eq!(
        (running.0, running.1),
        (AnalysisStatus::Running, Some(total))
    );
    let v = analysed(addr, &path, &mut spectator).await;
    assert_eq!(summary(&v).decisions, total);
    assert_eq!(summary(&v).game, "duel");
    // Asked again: the stored analysis, not a second run.
    let again = post_as::<AnalysisAnswer>(addr, &path, json!({})).await;
    assert_eq!((again.status, again.ok()), (200, v.clone()));
    assert_eq!(engine.analyses.load(Ordering::SeqCst), 1);
    server.shutdown().await.unwrap();

    // A new server on the same database reads it; its engine computes nothing.
    let fresh = Arc::new(Recorder::default());
    let server = start_with_engine(&dir, fresh.clone(), None).await;
    let addr = server.local_addr();
    let stored = post_as::<AnalysisAnswer>(addr, &path, json!({})).await;
    assert_eq!((stored.status, stored.ok()), (200, v));
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
    let r = post_as::<AnalysisAnswer>(addr, &path, json!({})).await;
    assert_eq!(r.status, 202, "{}", r.raw);
    let failed = recv_analysis(&mut spectator, |s| s != AnalysisStatus::Running).await;
    assert_eq!(failed.0, AnalysisStatus::Failed, "{failed:?}");
    assert_eq!(
        failed.2.as_deref(),
        Some("the engine could not read this record")
    );
    let r = get_as::<AnalysisAnswer>(addr, &path).await;
    assert_eq!(
        (r.status, r.ok()),
        (
            200,
            AnalysisAnswer::Failed {
                error: "the engine could not read this record".into()
            }
        )
    );
    // Asked again: a new attempt, which succeeds and is kept.
    let r = post_as::<AnalysisAnswer>(addr, &path, json!({})).await;
    assert_eq!(r.status, 202, "{}", r.raw);
    assert!(
        matches!(r.body, Ok(AnalysisAnswer::Running { .. })),
        "{}",
        r.raw
    );
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
    let r = post_as::<AnalysisAnswer>(addr, &format!("/api/games/{id}/analysis"), json!({})).await;
    assert_eq!((r.status, r.code()), (409, Some("conflict")), "{}", r.raw);
    let r = post_as::<AnalysisAnswer>(addr, "/api/games/no-such-game/analysis", json!({})).await;
    assert_eq!(r.status, 404);
    assert_eq!(engine.analyses.load(Ordering::SeqCst), 0);
    let over = finished_duel(addr).await;
    server.shutdown().await.unwrap();

    let server = start(&dir).await;
    let addr = server.local_addr();
    let r =
        post_as::<AnalysisAnswer>(addr, &format!("/api/games/{over}/analysis"), json!({})).await;
    assert_eq!(
        (r.status, r.code()),
        (503, Some("unavailable")),
        "{}",
        r.raw
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
    let r = post_as::<AnalysisAnswer>(addr, &path, json!({})).await;
    assert_eq!(r.status, 202, "{}", r.raw);
    tokio::time::timeout(T, async {
        loop {
            let r = get_as::<AnalysisAnswer>(addr, &path).await;
            let AnalysisAnswer::Running { waiting, done, .. } = r.ok() else {
                panic!("the analysis did not wait")
            };
            if waiting && done == 0 {
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
        let r = get_as::<AnalysisAnswer>(addr, &path).await;
        if matches!(r.body, Ok(AnalysisAnswer::Done { .. })) {
            break;
        }
        recv_analysis(&mut spectator, |_| true).await;
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
    let r = post_as::<EngineHint>(addr, &path, json!({"seat": 0, "token": token})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let v = r.ok();
    assert_eq!(v.seat, 0);
    let legal: Vec<Value> = snap(addr, &id, 0, &token)
        .await
        .legal
        .into_iter()
        .map(|l| l.action)
        .collect();
    assert!(legal.contains(&v.action), "{v:?}");
    // Never for the opponent, nor with a wrong token.
    let r = post_as::<EngineHint>(addr, &path, json!({"seat": 1, "token": token})).await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{}", r.raw);
    let r = post_as::<EngineHint>(addr, &path, json!({"seat": 0, "token": "wrong"})).await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{}", r.raw);
    let r = post_as::<EngineHint>(addr, &path, json!({"seat": 0})).await;
    assert_eq!(r.status, 400);

    // Between people: refused.
    let (duel, tokens) = create_duel(addr, 5).await;
    let r = post_as::<EngineHint>(
        addr,
        &format!("/api/games/{duel}/hint"),
        json!({"seat": 0, "token": tokens[0]}),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("forbidden")), "{}", r.raw);
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
    let r = post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let lesson = r.ok();
    let r = post_as::<EngineHint>(addr, "/api/lessons/kyo/1/hint", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let hint = r.ok();
    assert_eq!(hint.seat as usize, lesson.seat);
    let legal: Vec<&Value> = lesson.progress.legal.iter().map(|l| &l.action).collect();
    assert!(legal.contains(&&hint.action), "{hint:?}");
    // Follow the lesson's own solution to the end: then there is nothing to hint.
    let mut actions = Vec::new();
    let mut state = lesson;
    while !state.progress.solved {
        let next = state.progress.hint.clone();
        let next = next.unwrap_or_else(|| panic!("the solution goes on: {state:?}"));
        actions.push(json!({"action": next.action}));
        let r =
            post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({"actions": actions})).await;
        assert_eq!(r.status, 200, "{}", r.raw);
        state = r.ok();
    }
    let r =
        post_as::<EngineHint>(addr, "/api/lessons/kyo/1/hint", json!({"actions": actions})).await;
    assert_eq!((r.status, r.code()), (409, Some("conflict")), "{}", r.raw);
    let r = post_as::<EngineHint>(addr, "/api/lessons/kyo/99/hint", json!({})).await;
    assert_eq!(r.status, 404);
    server.shutdown().await.unwrap();
}

/// Opens a gate (a [`gated_bot`]'s, a [`GatedHints`]').
fn open(gate: &(Mutex<bool>, Condvar)) {
    let (open, cv) = gate;
    *open.lock().unwrap() = true;
    cv.notify_all();
}

/// An analysis beside a live game is never starved. With two AI workers and a
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
    let r = post_as::<AnalysisAnswer>(addr, &path, json!({})).await;
    assert_eq!(r.status, 202, "{}", r.raw);
    assert_wire::<AnalysisAnswer>(&r.raw);
    assert_eq!(
        ahead(&r),
        Some(0),
        "the only analysis runs first: {}",
        r.raw
    );
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

/// A running analysis' place in the queue.
fn ahead(r: &Reply<AnalysisAnswer>) -> Option<usize> {
    match &r.body {
        Ok(AnalysisAnswer::Running { ahead, .. }) => *ahead,
        _ => None,
    }
}

/// Hints cannot starve the AI seats. With two AI workers, one hint being searched
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
        let r = Reply::<EngineHint>::read(s, v);
        assert_eq!(
            (r.status, r.code()),
            (429, Some("rate_limited")),
            "{from}: {}",
            r.raw
        );
        assert!(r.err().message.starts_with("busy"), "{}", r.raw);
    }
    assert_eq!(
        engine.hints.load(Ordering::SeqCst),
        1,
        "nothing else was searched"
    );

    // A live game against the AI: its seat plays while the hint is still being searched.
    let (live, tokens) = create(addr, ai_game).await;
    let token = tokens[0].clone().unwrap();
    let start = snap(addr, &live, 0, &token).await.common.seq;
    tokio::time::timeout(T, async {
        loop {
            let sn = snap(addr, &live, 0, &token).await;
            let ai_moved = sn
                .events
                .iter()
                .any(|e| is_action_by(e, Actor::Seat(Seat(1))));
            if ai_moved {
                break;
            }
            if let Some(first) = sn.legal.first() {
                let r = post_as::<tabula_server::wire::api::Committed>(
                    addr,
                    &format!("/api/games/{live}/action"),
                    json!({"seat": 0, "token": token, "action": first.action}),
                )
                .await;
                assert_eq!(r.status, 200, "{}", r.raw);
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
    let r = Reply::<EngineHint>::read(s, v);
    assert_eq!(r.status, 200, "{}", r.raw);
    server.shutdown().await.unwrap();
}

/// The analysis queue tells a player their place and is bounded per client.
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
    let ask = async |from: &str, id: &str| {
        let (s, v) = post_from(addr, from, &path(id), json!({})).await;
        Reply::<AnalysisAnswer>::read(s, v)
    };
    let r = ask("10.0.0.1", &games[0]).await;
    assert_eq!((r.status, ahead(&r)), (202, Some(0)), "{}", r.raw);
    let r = ask("10.0.0.2", &games[1]).await;
    assert_eq!((r.status, ahead(&r)), (202, Some(1)), "{}", r.raw);
    assert_wire::<AnalysisAnswer>(&r.raw);
    let r = ask("10.0.0.2", &games[1]).await;
    assert_eq!(
        (r.status, ahead(&r)),
        (202, Some(1)),
        "asked again: the same place: {}",
        r.raw
    );
    // A client's third analysis while two of its own wait or run: busy.
    let r = ask("10.0.0.1", &games[2]).await;
    assert_eq!((r.status, ahead(&r)), (202, Some(2)), "{}", r.raw);
    let r = ask("10.0.0.1", &finished_duel(addr).await).await;
    assert_eq!(
        (r.status, r.code()),
        (429, Some("rate_limited")),
        "{}",
        r.raw
    );
    open(&engine.gate);
    let mut spectator = ws(addr, &games[2], None).await;
    loop {
        let r = get_as::<AnalysisAnswer>(addr, &path(&games[2])).await;
        if matches!(r.body, Ok(AnalysisAnswer::Done { .. })) {
            break;
        }
        recv_analysis(&mut spectator, |_| true).await;
    }
    server.shutdown().await.unwrap();
}
