//! The server with the real games: Kyo (perfect information), Territories and Strength & Trump Cyvasse
//! (hidden information). Every message sent to each seat and to a spectator is recorded; afterwards the
//! game is replayed locally from its record and every message is checked against what the game itself
//! lets that observer see: the view is exactly the game's view for that observer at that point, the
//! legal actions are that seat's own (none for spectators), and each move is shown with exactly the
//! game's `describe_action` for that observer (hidden moves as `null`). So no message carries hidden
//! content beyond the game's own views.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::{DynState, Registry};
use tabula_core::record::JsonRecord;
use tabula_core::{Observer, Seat};
use tabula_server::client::WsClient;
use tabula_server::{Limits, Storage};

fn games_registry() -> Registry {
    let mut r = Registry::new();
    r.register::<kyo::Kyo>();
    r.register::<territories::Territories>();
    r.register::<cyvasse::trump::TrumpCyvasse>();
    r
}

/// Plays `steps` random legal actions (chosen from the seats' own snapshots) over HTTP while three
/// WebSocket clients (seat 0, seat 1, spectator) record everything; then seat 0 resigns if the game is
/// still running. Returns the record, the final spectator snapshot and the recorded messages.
async fn play_and_record(
    game: &str,
    steps: usize,
    seed: u64,
) -> (Registry, JsonRecord, Value, [Vec<Value>; 3]) {
    let registry = games_registry();
    let dir = temp_dir(game);
    let limits = Limits {
        http_rate_per_sec: 10_000.0,
        http_burst: 10_000.0,
        ..Limits::default()
    };
    let server = start_with(registry.clone(), Storage::SqliteDir(dir), limits).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1], "seed": seed}),
    )
    .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let mut socks: [WsClient; 3] = [
        ws(addr, &id, Some((0, &tokens[0]))).await,
        ws(addr, &id, Some((1, &tokens[1]))).await,
        ws(addr, &id, None).await,
    ];
    let mut seen: [Vec<Value>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut rng = tabula_core::rng_from_seed(seed);
    for _ in 0..steps {
        if !random_step(addr, &id, &tokens, &mut rng).await {
            break;
        }
    }
    if snapshot(addr, &id, 0, &tokens[0]).await["status"] == "running" {
        let (s, _) = post(
            addr,
            &format!("/api/games/{id}/resign"),
            json!({"seat": 0, "token": tokens[0]}),
        )
        .await;
        assert_eq!(s, 200);
    }
    for (i, s) in socks.iter_mut().enumerate() {
        loop {
            let m = s.recv(Duration::from_secs(10)).await.unwrap().unwrap();
            let done = m["status"] == "over";
            seen[i].push(m);
            if done {
                break;
            }
        }
    }
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    let record: JsonRecord = serde_json::from_value(record).unwrap();
    let (_, spectator) = get(addr, &format!("/api/games/{id}")).await;
    server.shutdown().await.unwrap();
    (registry, record, spectator, seen)
}

/// Checks every recorded message against the game replayed from the record.
fn check_messages(
    registry: &Registry,
    record: &JsonRecord,
    spectator: &Value,
    seen: &[Vec<Value>; 3],
) -> usize {
    let kind = registry.get(&record.game).unwrap();
    // States after k actions, and how each observer sees action k.
    let mut states: Vec<Box<dyn DynState>> = vec![kind.new_state(&record.options).unwrap()];
    let mut described: Vec<[Option<String>; 3]> = Vec::new();
    let obs = [
        Observer::Seat(Seat(0)),
        Observer::Seat(Seat(1)),
        Observer::Spectator,
    ];
    for a in &record.actions {
        let before = states.last().unwrap().clone();
        described.push(obs.map(|o| before.describe_action(a.actor, &a.action, o)));
        let mut next = before.clone();
        next.apply(a.actor, &a.action).unwrap();
        states.push(next);
    }
    // seq -> number of actions committed up to and including it.
    let mut actions_at: BTreeMap<u64, usize> = BTreeMap::new();
    let mut action_index: BTreeMap<u64, usize> = BTreeMap::new();
    let mut k = 0;
    for e in spectator["events"].as_array().unwrap() {
        let seq = e["seq"].as_u64().unwrap();
        if e["kind"] == "action" {
            action_index.insert(seq, k);
            k += 1;
        }
        actions_at.insert(seq, k);
    }
    assert_eq!(k, record.actions.len());
    let mut hidden_moves = 0;
    for (i, msgs) in seen.iter().enumerate() {
        assert!(msgs.len() >= 2);
        for m in msgs {
            let seq = m["seq"].as_u64().unwrap();
            let k = actions_at[&seq];
            let state = &states[k];
            assert_eq!(
                m["view"],
                state.view(obs[i]),
                "observer {i} at seq {seq}: the view is the game's view"
            );
            if i == 2 || m["status"] != "running" {
                assert_eq!(m["legal"], json!([]), "observer {i} got legal actions");
            } else {
                let expected: Vec<Value> = state
                    .legal_actions_with_notation(Seat(i as u8))
                    .into_iter()
                    .map(|(a, n)| json!({"action": a, "notation": n}))
                    .collect();
                assert_eq!(
                    m["legal"],
                    json!(expected),
                    "observer {i} at seq {seq}: own legal actions only"
                );
            }
            for e in m["events"].as_array().unwrap() {
                if e["kind"] != "action" {
                    continue;
                }
                let j = action_index[&e["seq"].as_u64().unwrap()];
                assert_eq!(
                    e["notation"],
                    json!(described[j][i]),
                    "observer {i}: move {j} is described as the game says"
                );
                if described[j][i].is_none() {
                    hidden_moves += 1;
                    // The hidden action's JSON appears nowhere in what this observer received.
                    let secret = serde_json::to_string(&record.actions[j].action).unwrap();
                    if secret.len() > 24 {
                        assert!(
                            !m.to_string().contains(&secret),
                            "observer {i} received hidden action {j}"
                        );
                    }
                }
            }
        }
    }
    hidden_moves
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kyo_perfect_information_game_over_the_server() {
    let (registry, record, spectator, seen) = play_and_record("kyo", 40, 11).await;
    assert_eq!(check_messages(&registry, &record, &spectator, &seen), 0);
    // Perfect information: every move is shown to everyone.
    for e in spectator["events"].as_array().unwrap() {
        if e["kind"] == "action" && e["actor"] != "chance" {
            assert!(e["notation"].is_string(), "{e}");
        }
    }
    // The game ended by resignation, which the game itself does not know: replay without the result.
    let mut moves_only = record.clone();
    moves_only.result = None;
    let replayed = registry
        .get("kyo")
        .unwrap()
        .replay(&moves_only, false)
        .unwrap();
    assert_eq!(replayed.view(Observer::Spectator), spectator["view"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn territories_hidden_hands_never_leak() {
    let (registry, record, spectator, seen) = play_and_record("territories", 60, 5).await;
    check_messages(&registry, &record, &spectator, &seen);
    // Hands are hidden: the seats' views differ from the spectator's.
    let last = |i: usize| seen[i].last().unwrap()["view"].clone();
    assert_ne!(last(0), last(2));
    assert_ne!(last(1), last(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cyvasse_hidden_setups_never_leak() {
    let (registry, record, spectator, seen) = play_and_record("cyvasse-trump", 12, 3).await;
    let hidden = check_messages(&registry, &record, &spectator, &seen);
    assert!(hidden > 0, "the setups are hidden moves");
    // The opponent's setup is hidden from the other seat and the spectator while it is made.
    let setup_hidden = seen[2].iter().any(|m| {
        m["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["kind"] == "action" && e["notation"].is_null())
    });
    assert!(setup_hidden, "the spectator saw setups as hidden moves");
}
