//! The server with the real games: Kyo (perfect information), Territories and Strength & Trump Cyvasse
//! (hidden information). Every message sent to each seat and to a spectator is recorded; afterwards the
//! game is replayed locally from its record and every message is checked against what the game itself
//! lets that observer see: the view is exactly the game's view for that observer at that point, the
//! legal actions are that seat's own (none for spectators), and each move is shown with exactly the
//! game's `describe_action` for that observer (hidden moves as `null`). So no message carries hidden
//! content beyond the game's own views. Every message also has the shape its declared wire type
//! (`tabula_server::wire::game`, from which the web client's types are generated) says: it reads into
//! that type and writes back the same JSON, for every game.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::{DynState, Registry};
use tabula_core::record::JsonRecord;
use tabula_core::{Observer, Seat};
use tabula_server::wire::game::{ClientOp, GameMessage, SocketMsg};
use tabula_server::{Limits, Storage};
use tabula_tools::client::WsClient;

/// Reads a snapshot or update message into its declared type and writes it back: the JSON must be
/// the same (no field the type lacks, none it adds, every value of the declared form).
fn assert_typed_game_message(m: &Value) {
    let text = m.to_string();
    let typed: GameMessage =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not a GameMessage ({e}): {text}"));
    assert_eq!(
        &serde_json::to_value(&typed).unwrap(),
        m,
        "GameMessage round trip"
    );
}

/// The same for the socket's other messages.
fn assert_typed_socket_message(m: &Value) {
    let typed: SocketMsg =
        serde_json::from_value(m.clone()).unwrap_or_else(|e| panic!("not a SocketMsg ({e}): {m}"));
    assert_eq!(
        &serde_json::to_value(&typed).unwrap(),
        m,
        "SocketMsg round trip"
    );
}

/// Plays `steps` random legal actions (chosen from the seats' own snapshots) over HTTP while three
/// WebSocket clients (seat 0, seat 1, spectator) record everything; then seat 0 resigns if the game is
/// still running. Returns the record, the final spectator snapshot and the recorded messages.
async fn play_and_record(
    game: &str,
    options: Value,
    steps: usize,
    seed: u64,
) -> (Registry, JsonRecord, Value, [Vec<Value>; 3]) {
    let registry = every_game();
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
        json!({"game": game, "options": options, "seats": [{"kind": "human"}, {"kind": "human"}],
               "host_seats": [0, 1]}),
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
    let mut cells: Vec<[Option<Vec<String>>; 3]> = Vec::new();
    let mut words: Vec<[String; 3]> = Vec::new();
    let mut turns: Vec<u32> = Vec::new();
    let obs = [
        Observer::Seat(Seat(0)),
        Observer::Seat(Seat(1)),
        Observer::Spectator,
    ];
    for a in &record.actions {
        let before = states.last().unwrap().clone();
        described.push(obs.map(|o| before.describe_action(a.actor, &a.action, o)));
        cells.push(obs.map(|o| before.describe_action_cells(a.actor, &a.action, o)));
        words.push(obs.map(|o| before.action_words(a.actor, &a.action, o).unwrap()));
        turns.push(before.turn_number());
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
    assert_typed_game_message(spectator);
    for (i, msgs) in seen.iter().enumerate() {
        assert!(msgs.len() >= 2);
        for m in msgs {
            assert_typed_game_message(m);
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
                    .legal_actions_listed(Seat(i as u8))
                    .into_iter()
                    .map(|a| json!({"action": a.action, "notation": a.notation, "words": a.words, "cells": a.cells}))
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
                // Its cells (the last move's highlight) too; none for a hidden action.
                assert_eq!(
                    e["cells"],
                    json!(cells[j][i].clone().unwrap_or_default()),
                    "observer {i}: move {j} has the game's cells"
                );
                assert_eq!(cells[j][i].is_none(), described[j][i].is_none());
                // Its plain words as the game words them for this observer, and its turn.
                assert_eq!(
                    e["words"],
                    json!(words[j][i]),
                    "observer {i}: move {j} is worded as the game says"
                );
                assert_eq!(e["turn"], json!(turns[j]), "move {j}'s turn");
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
    let (registry, record, spectator, seen) = play_and_record("kyo", json!({}), 40, 11).await;
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
async fn caird_and_syba_messages_have_their_declared_shape() {
    for (game, options) in [
        ("cyvasse-caird", json!({})),
        ("syba", json!({"players": 2})),
    ] {
        let (registry, record, spectator, seen) = play_and_record(game, options, 30, 9).await;
        check_messages(&registry, &record, &spectator, &seen);
    }
}

/// The socket's answers (pong, error, ack, a sync's snapshot, a rematch's ack) and pushes (chat)
/// read into their declared types, and the operations the web client sends read into [`ClientOp`].
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_messages_have_their_declared_shape() {
    let dir = temp_dir("socket-shapes");
    let server = start_with(every_game(), Storage::SqliteDir(dir), Limits::default()).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "kyo", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]}),
    )
    .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let mut sock = ws(addr, &id, Some((0, &tokens[0]))).await;
    let first = recv_until(&mut sock, |m| m["type"] == "snapshot").await;
    assert_typed_game_message(&first);
    let is = |t: &'static str| move |m: &Value| m["type"] == t;
    let send = async |sock: &mut WsClient, op: Value| {
        let parsed: ClientOp = serde_json::from_value(op.clone()).unwrap();
        assert_eq!(
            serde_json::to_value(&parsed).unwrap(),
            op,
            "ClientOp round trip"
        );
        sock.send(&op).await.unwrap();
    };
    send(&mut sock, json!({"type": "ping", "id": 1})).await;
    assert_typed_socket_message(&recv_until(&mut sock, is("pong")).await);
    // An op that is not one of the three is not a ClientOp: refused, naming them, with its id.
    let maybe = json!({"type": "draw", "id": 2, "op": "maybe"});
    assert!(serde_json::from_value::<ClientOp>(maybe.clone()).is_err());
    sock.send(&maybe).await.unwrap();
    let error = recv_until(&mut sock, is("error")).await;
    assert_eq!(
        (&error["code"], &error["id"]),
        (&json!("bad_request"), &json!(2))
    );
    let said = error["message"].as_str().unwrap();
    assert!(
        said.contains("offer") && said.contains("accept") && said.contains("decline"),
        "{said}"
    );
    assert_typed_socket_message(&error);
    // A malformed operation is not a ClientOp, and the server says so.
    assert!(serde_json::from_value::<ClientOp>(json!({"type": "fly", "id": 3})).is_err());
    sock.send(&json!({"type": "fly", "id": 3})).await.unwrap();
    let error = recv_until(&mut sock, is("error")).await;
    assert_eq!(error["id"], 3);
    assert_typed_socket_message(&error);
    let action = first["legal"][0]["action"].clone();
    send(
        &mut sock,
        json!({"type": "action", "id": 4, "action": action}),
    )
    .await;
    let ack = recv_until(&mut sock, is("ack")).await;
    assert_typed_socket_message(&ack);
    assert_typed_game_message(&recv_until(&mut sock, is("update")).await);
    // A chat message is pushed, and a sync's snapshot is followed by the chat's history.
    let (s, _) = post(
        addr,
        &format!("/api/games/{id}/chat"),
        json!({"channel": "players", "seat": 0, "token": tokens[0], "text": "good luck"}),
    )
    .await;
    assert_eq!(s, 201);
    assert_typed_socket_message(&recv_until(&mut sock, is("chat")).await);
    send(&mut sock, json!({"type": "sync", "id": 5})).await;
    let synced = recv_until(&mut sock, is("snapshot")).await;
    assert_eq!(synced["request_id"], 5);
    assert_typed_game_message(&synced);
    assert_typed_socket_message(&recv_until(&mut sock, is("chat_history")).await);
    // The game over, a rematch is acknowledged with the new game and seat.
    send(&mut sock, json!({"type": "resign", "id": 6})).await;
    assert_typed_socket_message(&recv_until(&mut sock, is("ack")).await);
    assert_typed_game_message(&recv_until(&mut sock, |m| m["status"] == "over").await);
    send(&mut sock, json!({"type": "rematch", "id": 7})).await;
    let ack = recv_until(&mut sock, is("ack")).await;
    assert_eq!(ack["rematch"]["seat"], 1);
    assert_typed_socket_message(&ack);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn territories_hidden_hands_never_leak() {
    let (registry, record, spectator, seen) =
        play_and_record("territories", json!({}), 60, 5).await;
    check_messages(&registry, &record, &spectator, &seen);
    // Hands are hidden: the seats' views differ from the spectator's.
    let last = |i: usize| seen[i].last().unwrap()["view"].clone();
    assert_ne!(last(0), last(2));
    assert_ne!(last(1), last(2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cyvasse_hidden_setups_never_leak() {
    let (registry, record, spectator, seen) =
        play_and_record("cyvasse-trump", json!({}), 12, 3).await;
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
    // …and in words that say so and nothing more.
    let worded = spectator["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "action" && e["notation"].is_null())
        .map(|e| e["words"].as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    assert!(
        worded
            .iter()
            .any(|w| w == "South sets up (hidden)" || w == "North sets up (hidden)"),
        "{worded:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claimed_seat_is_closed_to_the_token_it_replaced() {
    // Territories hides each seat's hand. The creator of a public game receives every seat's token;
    // once a stranger claims the open seat, the creator's copy of its token must show nothing more of
    // that seat: its socket is told and closed, and every request with it is refused.
    let server = start_with(
        every_game(),
        Storage::SqliteDir(temp_dir("claim")),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "territories", "seats": [{"kind": "human"}, {"kind": "human", "open": true}],
               "host_seats": [0]}),
    )
    .await;
    let old = tokens[1].clone().unwrap();
    // The creator watches the open seat with its original token (valid until it is claimed).
    let mut creator = ws(addr, &id, Some((1, &old))).await;
    let first = recv_until(&mut creator, |m| m["type"] == "snapshot").await;
    assert_eq!(
        (first["status"].clone(), first["you"].clone()),
        (json!("waiting"), json!({"seat": 1}))
    );
    let mut spec = ws(addr, &id, None).await;
    recv_until(&mut spec, |m| m["type"] == "snapshot").await;

    let (s, claim) = post(addr, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!(s, 200, "{claim}");
    let fresh = claim["token"].as_str().unwrap().to_string();
    assert_ne!(fresh, old);
    // The old token's socket also asks for a snapshot at once (ignored if it is already closed).
    let _ = creator.send(&json!({"type": "sync", "id": 1})).await;
    let got = until_closed(&mut creator).await;
    assert_eq!(
        got.len(),
        1,
        "only the notice, nothing of the started game: {got:?}"
    );
    assert_eq!(
        (got[0]["type"].clone(), got[0]["code"].clone()),
        (json!("error"), json!("bad_token"))
    );
    assert!(
        got[0]["message"].as_str().unwrap().contains("claimed"),
        "{}",
        got[0]
    );
    // The game started for everyone else.
    recv_until(&mut spec, |m| m["status"] == "running").await;
    // The old token opens nothing any more.
    assert!(
        tabula_tools::client::WsClient::connect(
            addr,
            &format!("/api/games/{id}/ws?seat=1&token={old}")
        )
        .await
        .is_err()
    );
    for path in [
        format!("/api/games/{id}?seat=1&token={old}"),
        format!("/api/games/{id}/view/0?seat=1&token={old}"),
    ] {
        let (s, v) = get(addr, &path).await;
        assert_eq!(
            (s, v["error"]["code"].clone()),
            (403, json!("bad_token")),
            "{path}"
        );
    }
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": old}),
    )
    .await;
    assert_eq!((s, v["error"]["code"].clone()), (403, json!("bad_token")));
    // The new holder sees its own hand, which no one else does.
    let mine = snapshot(addr, &id, 1, &fresh).await;
    assert_eq!(mine["status"], "running");
    assert!(
        mine["view"]["hands"][1]["resources"].is_array()
            || mine["view"]["hands"][1]["resources"].is_object(),
        "{}",
        mine["view"]
    );
    let (_, public) = get(addr, &format!("/api/games/{id}")).await;
    assert!(public["view"]["hands"][1]["resources"].is_null());
    let mut holder = ws(addr, &id, Some((1, &fresh))).await;
    let snap = recv_until(&mut holder, |m| m["type"] == "snapshot").await;
    assert_eq!(snap["you"], json!({"seat": 1}));
    server.shutdown().await.unwrap();
}
