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
use tabula_core::{Actor, Observer, Seat};
use tabula_server::wire::api::{ChatSent, Committed, Joined, Position};
use tabula_server::wire::game::{ClientOp, EventBody, GameMessage, SocketMsg, Status};
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
    if snap(addr, &id, 0, &tokens[0]).await.common.status == Status::Running {
        let r = post_as::<Committed>(
            addr,
            &format!("/api/games/{id}/resign"),
            json!({"seat": 0, "token": tokens[0]}),
        )
        .await;
        assert_eq!(r.status, 200);
    }
    // Recorded as raw JSON: each is checked below to read as its type and write back the same.
    for (i, s) in socks.iter_mut().enumerate() {
        loop {
            let text = s.recv_text(Duration::from_secs(10)).await.unwrap().unwrap();
            let done = Msg::read(&text)
                .game()
                .is_some_and(|g| g.common.status == Status::Over);
            seen[i].push(serde_json::from_str(&text).unwrap());
            if done {
                break;
            }
        }
    }
    let r = get_as::<JsonRecord>(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(r.status, 200);
    let record = r.ok();
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
    for e in &decode::<Snap>(spectator).events {
        let seq = e.seq;
        if matches!(e.body, EventBody::Action { .. }) {
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
            let t: Snap = decode(m);
            let seq = t.common.seq;
            let k = actions_at[&seq];
            let state = &states[k];
            assert_eq!(
                view_of(&t),
                state.view(obs[i]),
                "observer {i} at seq {seq}: the view is the game's view"
            );
            if i == 2 || t.common.status != Status::Running {
                assert!(t.legal.is_empty(), "observer {i} got legal actions");
            } else {
                assert_eq!(
                    t.legal,
                    state.legal_actions_listed(Seat(i as u8)),
                    "observer {i} at seq {seq}: own legal actions only"
                );
            }
            for e in &t.events {
                let EventBody::Action {
                    notation,
                    cells: event_cells,
                    words: event_words,
                    turn,
                    ..
                } = &e.body
                else {
                    continue;
                };
                let j = action_index[&e.seq];
                assert_eq!(
                    *notation, described[j][i],
                    "observer {i}: move {j} is described as the game says"
                );
                // Its cells (the last move's highlight) too; none for a hidden action.
                assert_eq!(
                    *event_cells,
                    cells[j][i].clone().unwrap_or_default(),
                    "observer {i}: move {j} has the game's cells"
                );
                assert_eq!(cells[j][i].is_none(), described[j][i].is_none());
                // Its plain words as the game words them for this observer, and its turn.
                assert_eq!(
                    event_words.as_deref(),
                    Some(words[j][i].as_str()),
                    "observer {i}: move {j} is worded as the game says"
                );
                assert_eq!(*turn, Some(turns[j]), "move {j}'s turn");
                if described[j][i].is_none() {
                    hidden_moves += 1;
                    // The hidden action's JSON appears nowhere in what this observer received
                    // (the message's raw JSON, searched as text).
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
    let spectator: Snap = decode(&spectator);
    for e in &spectator.events {
        if let EventBody::Action {
            actor: Actor::Seat(_),
            notation,
            ..
        } = &e.body
        {
            assert!(notation.is_some(), "{e:?}");
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
    assert_eq!(replayed.view(Observer::Spectator), view_of(&spectator));
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
    // Received as raw JSON: each is checked to read as its type and write back the same; the
    // messages are told apart by their type as read (`Msg::kind`).
    let is = |t: &'static str| move |m: &Value| Msg::read(&m.to_string()).kind() == t;
    let first = recv_until(&mut sock, is("snapshot")).await;
    assert_typed_game_message(&first);
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
    let e = Msg::read(&error.to_string()).error().unwrap();
    assert_eq!((e.code.as_str(), e.id), ("bad_request", Some(2)));
    let said = &e.message;
    assert!(
        said.contains("offer") && said.contains("accept") && said.contains("decline"),
        "{said}"
    );
    assert_typed_socket_message(&error);
    // A malformed operation is not a ClientOp, and the server says so.
    assert!(serde_json::from_value::<ClientOp>(json!({"type": "fly", "id": 3})).is_err());
    sock.send(&json!({"type": "fly", "id": 3})).await.unwrap();
    let error = recv_until(&mut sock, is("error")).await;
    assert_eq!(Msg::read(&error.to_string()).error().unwrap().id, Some(3));
    assert_typed_socket_message(&error);
    let action = decode::<Snap>(&first).legal[0].action.clone();
    send(
        &mut sock,
        json!({"type": "action", "id": 4, "action": action}),
    )
    .await;
    let ack = recv_until(&mut sock, is("ack")).await;
    assert_typed_socket_message(&ack);
    assert_typed_game_message(&recv_until(&mut sock, is("update")).await);
    // A chat message is pushed, and a sync's snapshot is followed by the chat's history.
    let r = post_as::<ChatSent>(
        addr,
        &format!("/api/games/{id}/chat"),
        json!({"channel": "players", "seat": 0, "token": tokens[0], "text": "good luck"}),
    )
    .await;
    assert_eq!(r.status, 201);
    assert_typed_socket_message(&recv_until(&mut sock, is("chat")).await);
    send(&mut sock, json!({"type": "sync", "id": 5})).await;
    let synced = recv_until(&mut sock, is("snapshot")).await;
    assert_eq!(decode::<Snap>(&synced).request_id, Some(Some(5)));
    assert_typed_game_message(&synced);
    assert_typed_socket_message(&recv_until(&mut sock, is("chat_history")).await);
    // The game over, a rematch is acknowledged with the new game and seat.
    send(&mut sock, json!({"type": "resign", "id": 6})).await;
    assert_typed_socket_message(&recv_until(&mut sock, is("ack")).await);
    assert_typed_game_message(
        &recv_until(&mut sock, |m| {
            Msg::read(&m.to_string())
                .game()
                .is_some_and(|g| g.common.status == Status::Over)
        })
        .await,
    );
    send(&mut sock, json!({"type": "rematch", "id": 7})).await;
    let ack = recv_until(&mut sock, is("ack")).await;
    assert_eq!(
        Msg::read(&ack.to_string())
            .ack()
            .and_then(|a| a.rematch)
            .map(|r| r.seat),
        Some(1)
    );
    assert_typed_socket_message(&ack);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn territories_hidden_hands_never_leak() {
    let (registry, record, spectator, seen) =
        play_and_record("territories", json!({}), 60, 5).await;
    check_messages(&registry, &record, &spectator, &seen);
    // Hands are hidden: the seats' views differ from the spectator's.
    let last = |i: usize| view_of(&decode::<Snap>(seen[i].last().unwrap()));
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
    let hidden_action = |e: &tabula_server::wire::game::GameEvent| {
        matches!(e.body, EventBody::Action { notation: None, .. })
    };
    let setup_hidden = seen[2]
        .iter()
        .any(|m| decode::<Snap>(m).events.iter().any(hidden_action));
    assert!(setup_hidden, "the spectator saw setups as hidden moves");
    // …and in words that say so and nothing more.
    let worded = decode::<Snap>(&spectator)
        .events
        .iter()
        .filter(|e| hidden_action(e))
        .map(|e| match &e.body {
            EventBody::Action { words, .. } => words.clone().unwrap(),
            _ => unreachable!("an action"),
        })
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
    let first = recv_snapshot(&mut creator).await;
    assert_eq!(
        (first.common.status, first.you),
        (Status::Waiting, Observer::Seat(Seat(1)))
    );
    let mut spec = ws(addr, &id, None).await;
    recv_snapshot(&mut spec).await;

    let claim = post_as::<Joined>(addr, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!(claim.status, 200, "{}", claim.raw);
    let fresh = claim.ok().token.unwrap();
    assert_ne!(fresh, old);
    // The old token's socket also asks for a snapshot at once (ignored if it is already closed).
    let _ = creator.send(&json!({"type": "sync", "id": 1})).await;
    let got = until_closed(&mut creator).await;
    assert_eq!(
        got.len(),
        1,
        "only the notice, nothing of the started game: {got:?}"
    );
    let notice = got[0]
        .error()
        .unwrap_or_else(|| panic!("not an error: {:?}", got[0]));
    assert_eq!(notice.code, "bad_token");
    assert!(notice.message.contains("claimed"), "{notice:?}");
    // The game started for everyone else.
    recv_game(&mut spec, |m| m.common.status == Status::Running).await;
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
        // A snapshot or a position: the refusal is what is read.
        let r = get_as::<Position>(addr, &path).await;
        assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{path}");
    }
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": old}),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")));
    // The new holder sees its own hand, which no one else does (Territories' view: the game's own
    // JSON, read as such).
    let mine = snap(addr, &id, 1, &fresh).await;
    assert_eq!(mine.common.status, Status::Running);
    let view = view_of(&mine);
    let resources = &view["hands"][1]["resources"];
    assert!(resources.is_array() || resources.is_object(), "{view}");
    let public = get_as::<Snap>(addr, &format!("/api/games/{id}")).await.ok();
    assert!(view_of(&public)["hands"][1]["resources"].is_null());
    let mut holder = ws(addr, &id, Some((1, &fresh))).await;
    let sn = recv_snapshot(&mut holder).await;
    assert_eq!(sn.you, Observer::Seat(Seat(1)));
    server.shutdown().await.unwrap();
}
