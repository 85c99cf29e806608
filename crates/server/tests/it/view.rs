//! The replay endpoint `GET /api/games/{id}/view/{n}` over real HTTP: stepping through a Kyo game
//! reproduces the snapshots each observer saw as the game was played; stepping through a Cyvasse game
//! (hidden setups) shows the spectator and the other seat nothing hidden at any position; bad tokens
//! and positions out of range are refused.

use std::net::SocketAddr;

use crate::common::*;
use serde_json::json;
use tabula_core::dynamic::{DynState, Registry};
use tabula_core::record::JsonRecord;
use tabula_core::{Actor, Observer, Seat, ToAct};
use tabula_server::wire::api::{Committed, Imported, Position};
use tabula_server::wire::game::{EventBody, GameEvent};
use tabula_server::{Limits, RunningServer, Storage};
use tabula_tools::client::request_with_headers;

fn games_registry() -> Registry {
    let mut r = Registry::new();
    r.register::<kyo::Kyo>();
    r.register::<cyvasse::trump::TrumpCyvasse>();
    r
}

async fn start_games(name: &str) -> RunningServer {
    let limits = Limits {
        http_rate_per_sec: 100_000.0,
        http_burst: 100_000.0,
        ..Limits::default()
    };
    start_with(games_registry(), Storage::SqliteDir(temp_dir(name)), limits).await
}

/// A two-human game with both seats joined by the host: its id and tokens.
async fn hosted(addr: SocketAddr, game: &str) -> (String, Vec<String>) {
    let (id, tokens) = create(
        addr,
        json!({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]}),
    )
    .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

fn action_events(snapshot: &Snap) -> Vec<GameEvent> {
    snapshot
        .events
        .iter()
        .filter(|e| matches!(e.body, EventBody::Action { .. }))
        .cloned()
        .collect()
}

async fn view_at(
    addr: SocketAddr,
    id: &str,
    n: u64,
    seat: Option<(usize, &str)>,
) -> Reply<Position> {
    let path = match seat {
        Some((s, t)) => format!("/api/games/{id}/view/{n}?seat={s}&token={t}"),
        None => format!("/api/games/{id}/view/{n}"),
    };
    get_as(addr, &path).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stepping_through_a_kyo_game_reproduces_the_snapshots() {
    let server = start_games("view-kyo").await;
    let addr = server.local_addr();
    let (id, tokens) = hosted(addr, "kyo").await;
    let mut rng = tabula_core::rng_from_seed(21);
    // What seat 0 and the spectator saw after each number of actions, as the game was played.
    let mut seen: Vec<(Snap, Snap)> = Vec::new();
    loop {
        let spectator = get_as::<Snap>(addr, &format!("/api/games/{id}")).await.ok();
        let seat0 = snap(addr, &id, 0, &tokens[0]).await;
        assert_eq!(action_events(&spectator).len(), seen.len());
        seen.push((spectator, seat0));
        if seen.len() > 70 || !random_step(addr, &id, &tokens, &mut rng).await {
            break;
        }
    }
    let total = seen.len() as u64 - 1;
    assert!(
        total > 40,
        "the game is long enough to cross replay checkpoints"
    );
    let final_events = action_events(&seen[total as usize].0);
    // Forwards, then backwards (checkpoints built by the first pass are used by the second).
    let order: Vec<u64> = (0..=total).chain((0..=total).rev()).collect();
    for n in order {
        let (spectator, seat0) = &seen[n as usize];
        let r = view_at(addr, &id, n, None).await;
        assert_eq!(r.status, 200, "{}", r.raw);
        let v = r.ok();
        assert_eq!((v.n, v.total), (n, total));
        assert_eq!(v.id, id);
        assert_eq!(v.you, Observer::Spectator);
        assert_eq!(
            v.view,
            view_of(spectator),
            "spectator view after {n} actions"
        );
        assert_eq!(
            v.to_act, spectator.common.to_act,
            "to_act after {n} actions"
        );
        assert_eq!(v.result, None);
        match (&v.last, n) {
            (None, 0) => {}
            (Some(last), n) if n > 0 => {
                let e = &final_events[n as usize - 1];
                let EventBody::Action {
                    actor,
                    notation,
                    words,
                    turn,
                    ..
                } = &e.body
                else {
                    panic!("not an action: {e:?}")
                };
                assert_eq!(last.seq, e.seq);
                assert_eq!(last.actor, *actor);
                assert_eq!(last.notation, *notation);
                assert_eq!(
                    Some(&last.words),
                    words.as_ref(),
                    "the replay's last action in words"
                );
                assert_eq!(Some(last.turn), *turn);
                assert!(last.notation.is_some(), "Kyo hides no move");
            }
            (last, n) => panic!("position {n}: last is {last:?}"),
        }
        let r = view_at(addr, &id, n, Some((0, &tokens[0]))).await;
        assert_eq!(r.status, 200, "{}", r.raw);
        let mine = r.ok();
        assert_eq!(mine.you, Observer::Seat(Seat(0)));
        assert_eq!(mine.view, view_of(seat0), "seat 0 view after {n} actions");
    }
    // The bearer header authenticates like the snapshot endpoint.
    let (s, v) = request_with_headers(
        addr,
        "GET",
        &format!("/api/games/{id}/view/1?seat=1"),
        &[("Authorization", &format!("Bearer {}", tokens[1]))],
        b"",
    )
    .await
    .unwrap();
    let r = Reply::<Position>::read(s, v);
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(r.ok().you, Observer::Seat(Seat(1)));
    // Refusals: a wrong token, a token without its seat, positions out of range or not numbers.
    let r = view_at(addr, &id, 1, Some((0, &tokens[1]))).await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")));
    let r = get_as::<Position>(addr, &format!("/api/games/{id}/view/1?token={}", tokens[0])).await;
    assert_eq!((r.status, r.code()), (400, Some("bad_request")));
    let r = view_at(addr, &id, total + 1, None).await;
    assert_eq!((r.status, r.code()), (404, Some("not_found")));
    assert!(
        r.err().message.contains(&format!("0..={total}")),
        "{}",
        r.raw
    );
    for bad in ["-1", "abc", "1.5", "99999999999999999999999"] {
        let r = get_as::<Position>(addr, &format!("/api/games/{id}/view/{bad}")).await;
        assert_eq!((r.status, r.code()), (400, Some("bad_request")), "{bad}");
    }
    let r = get_as::<Position>(
        addr,
        "/api/games/00000000-0000-4000-8000-000000000000/view/0",
    )
    .await;
    assert_eq!(r.status, 404);
    // The OpenAPI document is not a wire type: raw JSON.
    let (_, doc) = get(addr, "/api/openapi.json").await;
    assert!(doc["paths"]["/api/games/{id}/view/{n}"]["get"].is_object());
    assert!(doc["components"]["schemas"]["Position"]["properties"]["last"].is_object());
    // After a resignation the result shows at the last position only, and the game is the same.
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 0, "token": tokens[0]}),
    )
    .await;
    assert_eq!(r.status, 200);
    let last = view_at(addr, &id, total, None).await.ok();
    assert_eq!(last.total, total);
    assert!(last.result.as_ref().unwrap().reason.contains("resigned"));
    assert!(matches!(last.to_act, ToAct::Over(_)), "{:?}", last.to_act);
    let before = view_at(addr, &id, total - 1, None).await.ok();
    assert_eq!(before.result, None);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cyvasse_replay_never_shows_hidden_setups() {
    let server = start_games("view-cyvasse").await;
    let addr = server.local_addr();
    let (id, tokens) = hosted(addr, "cyvasse-trump").await;
    let mut rng = tabula_core::rng_from_seed(3);
    for _ in 0..14 {
        if !random_step(addr, &id, &tokens, &mut rng).await {
            break;
        }
    }
    // Live game: the spectator's positions are checked again below, after the game is over.
    let live = view_at(addr, &id, 1, None).await;
    assert_eq!(live.status, 200, "{}", live.raw);
    let live = live.ok();
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": tokens[1]}),
    )
    .await;
    assert_eq!(r.status, 200);
    let r = get_as::<JsonRecord>(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(r.status, 200);
    let record = r.ok();
    let registry = games_registry();
    let kind = registry.get(&record.game).unwrap();
    let mut state: Box<dyn DynState> = kind.new_state(&record.options).unwrap();
    let observers = [
        (Observer::Seat(Seat(0)), Some((0, tokens[0].as_str()))),
        (Observer::Spectator, None),
    ];
    // Every hidden action (to the spectator or seat 0), as JSON: none may appear in their replies.
    let secrets: Vec<(Observer, String)> = {
        let mut s = state.clone();
        let mut out = Vec::new();
        for a in &record.actions {
            for (o, _) in observers {
                if s.describe_action(a.actor, &a.action, o).is_none() {
                    out.push((o, serde_json::to_string(&a.action).unwrap()));
                }
            }
            s.apply(a.actor, &a.action).unwrap();
        }
        out
    };
    assert!(
        secrets.iter().any(|(o, _)| *o == Observer::Spectator),
        "the setups are hidden from the spectator"
    );
    let total = record.actions.len() as u64;
    for n in 0..=total {
        let last_action = n.checked_sub(1).map(|k| &record.actions[k as usize]);
        for (o, seat) in observers {
            let r = view_at(addr, &id, n, seat).await;
            assert_eq!(r.status, 200, "{}", r.raw);
            // The answer as sent, searched as text below.
            let text = r.raw.to_string();
            let v = r.ok();
            assert_eq!(v.view, state.view(o), "{o:?} after {n} actions");
            if n == 1 && o == Observer::Spectator {
                assert_eq!(v.view, live.view, "the live game showed the same position");
            }
            for (hidden_from, secret) in &secrets {
                if *hidden_from == o && secret.len() > 24 {
                    assert!(
                        !text.contains(secret.as_str()),
                        "{o:?} saw a hidden action at {n}"
                    );
                }
            }
            match last_action {
                None => assert!(v.last.is_none()),
                Some(_) => {
                    // The description was checked against the state before the action (below);
                    // the type says its seq is a number.
                    assert!(v.last.is_some());
                }
            }
        }
        if let Some(a) = record.actions.get(n as usize) {
            // The next position's `last.notation` is this action as each observer may see it.
            let expected: Vec<Option<String>> = observers
                .iter()
                .map(|(o, _)| state.describe_action(a.actor, &a.action, *o))
                .collect();
            for ((_, seat), exp) in observers.iter().zip(expected) {
                let v = view_at(addr, &id, n + 1, *seat).await.ok();
                assert_eq!(v.last.unwrap().notation, exp, "action {n}");
            }
            state.apply(a.actor, &a.action).unwrap();
        }
    }
    // Seat 0 with seat 1's token is refused; past the end is refused.
    let r = view_at(addr, &id, 0, Some((0, &tokens[1]))).await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")));
    let r = view_at(addr, &id, total + 1, Some((0, &tokens[0]))).await;
    assert_eq!((r.status, r.code()), (404, Some("not_found")));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imported_records_and_chance_actions_can_be_stepped_through() {
    // Duel has a chance action (who starts) and hidden secrets.
    let dir = temp_dir("view-duel");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 5).await;
    while http_step(addr, &id, &tokens).await.is_some() {}
    let (s, raw_record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    let record: JsonRecord = decode(&raw_record);
    let imported = post_as::<Imported>(addr, "/api/records", json!({"record": raw_record})).await;
    assert_eq!(imported.status, 201, "{}", imported.raw);
    let imported = imported.ok().id;
    let total = record.actions.len() as u64;
    let chance_at = record
        .actions
        .iter()
        .position(|a| a.actor == Actor::Chance)
        .unwrap() as u64
        + 1;
    for game in [&id, &imported] {
        let r = view_at(addr, game, chance_at, None).await;
        assert_eq!(r.status, 200, "{}", r.raw);
        let v = r.ok();
        let last = v.last.as_ref().unwrap();
        assert_eq!(last.actor, Actor::Chance);
        assert!(last.notation.as_deref().unwrap().starts_with("first:"));
        // The secrets are hidden from the spectator: shown as chosen, never as words.
        assert_eq!(
            duel(&v.view).secrets,
            [Secret::Chosen(true), Secret::Chosen(true)]
        );
        let first = view_at(addr, game, 1, None).await.ok();
        assert_eq!(
            first.last.unwrap().notation,
            None,
            "a secret move is hidden"
        );
        let end = view_at(addr, game, total, None).await.ok();
        assert_eq!(end.total, total);
        assert!(end.result.is_some(), "{end:?}");
        assert!(matches!(end.to_act, ToAct::Over(_)));
    }
    server.shutdown().await.unwrap();
}
