//! The replay endpoint `GET /api/games/{id}/view/{n}` over real HTTP: stepping through a Kyo game
//! reproduces the snapshots each observer saw as the game was played; stepping through a Cyvasse game
//! (hidden setups) shows the spectator and the other seat nothing hidden at any position; bad tokens
//! and positions out of range are refused.

use std::net::SocketAddr;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::{DynState, Registry};
use tabula_core::record::JsonRecord;
use tabula_core::{Observer, Seat};
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

fn action_events(snapshot: &Value) -> Vec<Value> {
    snapshot["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "action")
        .cloned()
        .collect()
}

async fn view_at(addr: SocketAddr, id: &str, n: u64, seat: Option<(usize, &str)>) -> (u16, Value) {
    let path = match seat {
        Some((s, t)) => format!("/api/games/{id}/view/{n}?seat={s}&token={t}"),
        None => format!("/api/games/{id}/view/{n}"),
    };
    get(addr, &path).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stepping_through_a_kyo_game_reproduces_the_snapshots() {
    let server = start_games("view-kyo").await;
    let addr = server.local_addr();
    let (id, tokens) = hosted(addr, "kyo").await;
    let mut rng = tabula_core::rng_from_seed(21);
    // What seat 0 and the spectator saw after each number of actions, as the game was played.
    let mut seen: Vec<(Value, Value)> = Vec::new();
    loop {
        let spectator = get(addr, &format!("/api/games/{id}")).await.1;
        let seat0 = snapshot(addr, &id, 0, &tokens[0]).await;
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
        let (s, v) = view_at(addr, &id, n, None).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(
            (v["n"].as_u64(), v["total"].as_u64()),
            (Some(n), Some(total))
        );
        assert_eq!(v["id"], json!(id));
        assert_eq!(v["you"], "spectator");
        assert_eq!(
            v["view"], spectator["view"],
            "spectator view after {n} actions"
        );
        assert_eq!(v["to_act"], spectator["to_act"], "to_act after {n} actions");
        assert_eq!(v["result"], Value::Null);
        if n == 0 {
            assert_eq!(v["last"], Value::Null);
        } else {
            let e = &final_events[n as usize - 1];
            assert_eq!(v["last"]["seq"], e["seq"]);
            assert_eq!(v["last"]["actor"], e["actor"]);
            assert_eq!(v["last"]["notation"], e["notation"]);
            assert_eq!(
                v["last"]["words"], e["words"],
                "the replay's last action in words"
            );
            assert_eq!(v["last"]["turn"], e["turn"]);
            assert!(v["last"]["words"].is_string());
            assert!(v["last"]["notation"].is_string(), "Kyo hides no move");
        }
        let (s, mine) = view_at(addr, &id, n, Some((0, &tokens[0]))).await;
        assert_eq!(s, 200, "{mine}");
        assert_eq!(mine["you"], json!({"seat": 0}));
        assert_eq!(mine["view"], seat0["view"], "seat 0 view after {n} actions");
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
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["you"], json!({"seat": 1}));
    // Refusals: a wrong token, a token without its seat, positions out of range or not numbers.
    let (s, v) = view_at(addr, &id, 1, Some((0, &tokens[1]))).await;
    assert_eq!((s, v["error"]["code"].clone()), (403, json!("bad_token")));
    let (s, v) = get(addr, &format!("/api/games/{id}/view/1?token={}", tokens[0])).await;
    assert_eq!((s, v["error"]["code"].clone()), (400, json!("bad_request")));
    let (s, v) = view_at(addr, &id, total + 1, None).await;
    assert_eq!((s, v["error"]["code"].clone()), (404, json!("not_found")));
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&format!("0..={total}")),
        "{v}"
    );
    for bad in ["-1", "abc", "1.5", "99999999999999999999999"] {
        let (s, v) = get(addr, &format!("/api/games/{id}/view/{bad}")).await;
        assert_eq!(
            (s, v["error"]["code"].clone()),
            (400, json!("bad_request")),
            "{bad}"
        );
    }
    let (s, _) = get(
        addr,
        "/api/games/00000000-0000-4000-8000-000000000000/view/0",
    )
    .await;
    assert_eq!(s, 404);
    let (_, doc) = get(addr, "/api/openapi.json").await;
    assert!(doc["paths"]["/api/games/{id}/view/{n}"]["get"].is_object());
    assert!(doc["components"]["schemas"]["Position"]["properties"]["last"].is_object());
    // After a resignation the result shows at the last position only, and the game is the same.
    let (s, _) = post(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 0, "token": tokens[0]}),
    )
    .await;
    assert_eq!(s, 200);
    let (_, last) = view_at(addr, &id, total, None).await;
    assert_eq!(last["total"], total);
    assert!(
        last["result"]["reason"]
            .as_str()
            .unwrap()
            .contains("resigned")
    );
    assert!(last["to_act"]["over"].is_object(), "{}", last["to_act"]);
    let (_, before) = view_at(addr, &id, total - 1, None).await;
    assert_eq!(before["result"], Value::Null);
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
    let (s, live) = view_at(addr, &id, 1, None).await;
    assert_eq!(s, 200, "{live}");
    let (s, _) = post(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": tokens[1]}),
    )
    .await;
    assert_eq!(s, 200);
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    let record: JsonRecord = serde_json::from_value(record).unwrap();
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
            let (s, v) = view_at(addr, &id, n, seat).await;
            assert_eq!(s, 200, "{v}");
            assert_eq!(v["view"], state.view(o), "{o:?} after {n} actions");
            if n == 1 && o == Observer::Spectator {
                assert_eq!(
                    v["view"], live["view"],
                    "the live game showed the same position"
                );
            }
            let text = v.to_string();
            for (hidden_from, secret) in &secrets {
                if *hidden_from == o && secret.len() > 24 {
                    assert!(
                        !text.contains(secret.as_str()),
                        "{o:?} saw a hidden action at {n}"
                    );
                }
            }
            match last_action {
                None => assert_eq!(v["last"], Value::Null),
                Some(_) => {
                    // The description was checked against the state before the action (below).
                    assert!(v["last"]["seq"].is_u64());
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
                let (_, v) = view_at(addr, &id, n + 1, *seat).await;
                assert_eq!(v["last"]["notation"], json!(exp), "action {n}");
            }
            state.apply(a.actor, &a.action).unwrap();
        }
    }
    // Seat 0 with seat 1's token is refused; past the end is refused.
    let (s, v) = view_at(addr, &id, 0, Some((0, &tokens[1]))).await;
    assert_eq!((s, v["error"]["code"].clone()), (403, json!("bad_token")));
    let (s, v) = view_at(addr, &id, total + 1, Some((0, &tokens[0]))).await;
    assert_eq!((s, v["error"]["code"].clone()), (404, json!("not_found")));
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
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    let (s, imported) = post(addr, "/api/records", json!({"record": record})).await;
    assert_eq!(s, 201, "{imported}");
    let imported = imported["id"].as_str().unwrap().to_string();
    let total = record["actions"].as_array().unwrap().len() as u64;
    let chance_at = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a["actor"] == "chance")
        .unwrap() as u64
        + 1;
    for game in [&id, &imported] {
        let (s, v) = view_at(addr, game, chance_at, None).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["last"]["actor"], "chance");
        assert!(
            v["last"]["notation"]
                .as_str()
                .unwrap()
                .starts_with("first:")
        );
        // The secrets are hidden from the spectator: shown as chosen, never as words.
        assert_eq!(v["view"]["secrets"], json!([true, true]));
        let (_, first) = view_at(addr, game, 1, None).await;
        assert_eq!(
            first["last"]["notation"],
            Value::Null,
            "a secret move is hidden"
        );
        let (_, end) = view_at(addr, game, total, None).await;
        assert_eq!(end["total"], total);
        assert!(end["result"]["results"].is_array(), "{end}");
        assert!(end["to_act"]["over"].is_object());
    }
    server.shutdown().await.unwrap();
}
