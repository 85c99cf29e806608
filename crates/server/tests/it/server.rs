//! Integration tests over real HTTP and WebSocket connections on loopback, with SQLite.

use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::record::JsonRecord;
use tabula_core::{Actor, Observer, Outcome, Seat, SeatResult, ToAct};
use tabula_server::wire::api::{
    Catalog, Committed, Created, CreatedSeat, Imported, Joined, Lobby, Preview, Rematched,
};
use tabula_server::wire::game::{
    ClockSeat, ClockSpec, EventBody, MessageKind, Offer, RematchLink, SeatKind, SocketMsg, Status,
};
use tabula_server::{Limits, Storage};
use tabula_tools::client::{WsClient, request, request_raw, request_with_headers, request_within};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_openapi_catalog_and_web_fallback() {
    let dir = temp_dir("basics");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (s, body) = get(addr, "/healthz").await;
    assert_eq!((s, body), (200, json!("ok")));
    // The OpenAPI document is not a wire type of the server's: read as raw JSON.
    let (s, doc) = get(addr, "/api/openapi.json").await;
    assert_eq!(s, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/api/games"]["post"].is_object());
    let cat = get_as::<Catalog>(addr, "/api/catalog").await;
    assert_eq!(cat.status, 200);
    let cat = cat.ok();
    assert_eq!(cat.games[0].id, "duel");
    assert_eq!(cat.games[0].default_seats, ["North", "South"]);
    assert_eq!(cat.games[0].options[0].name, "target");
    let prev = post_as::<Preview>(
        addr,
        "/api/catalog/duel/preview",
        json!({"options": {"target": 20}}),
    )
    .await;
    assert_eq!(prev.status, 200);
    // The options are the game's own JSON.
    assert_eq!(prev.ok().options["target"], 20);
    // Unknown API paths are JSON 404s; other paths fall back to the web UI's index page.
    let err = get_as::<Value>(addr, "/api/nope").await;
    assert_eq!(err.status, 404);
    assert_eq!(err.err().code, "not_found");
    let (s, page) = get(addr, "/join/some/route").await;
    assert_eq!(s, 200);
    assert!(
        page.as_str()
            .unwrap()
            .to_lowercase()
            .contains("<!doctype html")
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_with_clear_errors_and_change_nothing() {
    let dir = temp_dir("bad");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let cases = [
        (
            json!({"game": "chess", "seats": [{"kind": "human"}]}),
            404,
            "not_found",
        ),
        (
            json!({"game": "duel", "seats": [{"kind": "human"}]}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "duel", "options": {"target": 99}, "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "duel", "options": {"colour": 1}, "seats": [{"kind": "human"}, {"kind": "human"}]}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 42}]}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [5]}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "clock": {"kind": "fischer", "initial_ms": 5, "increment_ms": 0}}),
            400,
            "bad_request",
        ),
        (
            json!({"game": "duel", "seats": [{"kind": "robot"}, {"kind": "human"}]}),
            400,
            "bad_request",
        ),
    ];
    for (body, status, code) in cases {
        let r = post_as::<Created>(addr, "/api/games", body.clone()).await;
        assert_eq!(r.status, status, "{body} -> {}", r.raw);
        assert_eq!(r.err().code, code, "{body} -> {}", r.raw);
        assert!(!r.err().message.is_empty());
    }
    // Deliberately malformed bodies, sent raw; the answers read through the wire types.
    let (s, v) = request_raw(addr, "POST", "/api/games", b"{not json")
        .await
        .unwrap();
    let r = Reply::<Created>::read(s, v);
    assert_eq!(r.status, 400);
    assert!(r.err().message.contains("bad JSON"));
    let big = vec![b' '; 200 * 1024];
    let (s, v) = request_raw(addr, "POST", "/api/games", &big).await.unwrap();
    let r = Reply::<Created>::read(s, v);
    assert_eq!(r.status, 413, "{}", r.raw);
    assert_eq!(r.err().code, "too_large");
    // Nothing was created.
    assert_eq!(server.loaded_games(), 0);
    let r = get_as::<Snap>(addr, "/api/games/00000000-0000-4000-8000-000000000000").await;
    assert_eq!((r.status, r.code()), (404, Some("not_found")));
    let (s, _) = get(addr, "/api/games/not-a-uuid").await;
    assert_eq!(s, 404);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_game_over_websockets_with_spectator_errors_record_and_import() {
    let dir = temp_dir("full");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 8).await;
    let mut s0 = ws(addr, &id, Some((0, &tokens[0]))).await;
    let mut s1 = ws(addr, &id, Some((1, &tokens[1]))).await;
    let mut spec = ws(addr, &id, None).await;
    let snap0 = next_game(&mut s0).await;
    assert_eq!(snap0.common.kind, MessageKind::Snapshot);
    assert_eq!(snap0.common.status, Status::Running);
    assert_eq!(snap0.common.to_act, ToAct::Seats(vec![Seat(0), Seat(1)]));
    assert_eq!(snap0.legal.len(), 2);
    assert_eq!(snap0.legal[0].notation, "secret:amberword");
    let snap1 = next_game(&mut s1).await;
    let snapspec = next_game(&mut spec).await;
    assert_eq!(snapspec.you, Observer::Spectator);
    assert!(snapspec.legal.is_empty());
    assert!(snapspec.text.is_some());
    assert_eq!(snap1.you, Observer::Seat(Seat(1)));

    // A spectator cannot act; a wrong token cannot even connect; a seat cannot play another's action.
    spec.send(&json!({"type": "action", "id": 1, "notation": "+1"}))
        .await
        .unwrap();
    let e = recv_error(&mut spec).await;
    assert_eq!(e.code, "bad_token");
    assert!(
        tabula_tools::client::WsClient::connect(
            addr,
            &format!("/api/games/{id}/ws?seat=0&token={}", tokens[1])
        )
        .await
        .is_err()
    );
    s0.send(&json!({"type": "action", "id": 2, "notation": "secret:birchword"}))
        .await
        .unwrap();
    let e = recv_error(&mut s0).await;
    assert_eq!((e.id, e.code.as_str()), (Some(2), "illegal"));
    // Malformed messages (sent raw on purpose).
    s0.send_text("{oops").await.unwrap();
    let e = recv_error(&mut s0).await;
    assert_eq!(e.code, "bad_request");
    s0.send(&json!({"type": "dance", "id": 3})).await.unwrap();
    let e = recv_error(&mut s0).await;
    assert_eq!(e.code, "bad_request");
    s0.send(&json!({"type": "action", "id": 4, "action": {"add": "many"}}))
        .await
        .unwrap();
    let e = recv_error(&mut s0).await;
    assert_eq!(e.code, "malformed_action");

    // Secrets, by notation and by JSON.
    s0.send(&json!({"type": "action", "id": 5, "notation": "secret:azureword"}))
        .await
        .unwrap();
    let ack = recv_ack(&mut s0).await;
    assert_eq!(ack.id, Some(5));
    s1.send(&json!({"type": "action", "id": 6, "action": {"secret": "beechword"}}))
        .await
        .unwrap();
    let ack = recv_ack(&mut s1).await;
    assert_eq!(ack.id, Some(6));
    // Play to the end: whoever has legal actions plays the first.
    let mut last = None;
    for _ in 0..40 {
        let sn0 = snap(addr, &id, 0, &tokens[0]).await;
        if sn0.common.status == Status::Over {
            last = Some(sn0);
            break;
        }
        let (seat, sock) = if sn0.legal.is_empty() {
            (1, &mut s1)
        } else {
            (0, &mut s0)
        };
        let sn = snap(addr, &id, seat, &tokens[seat]).await;
        let action = sn.legal[0].action.clone();
        sock.send(&json!({"type": "action", "id": 100, "action": action}))
            .await
            .unwrap();
        let answer = recv_find(sock, |m| {
            m.other()
                .filter(|o| matches!(o, SocketMsg::Ack { .. } | SocketMsg::Error { .. }))
                .cloned()
        })
        .await;
        assert!(matches!(answer, SocketMsg::Ack { .. }), "{answer:?}");
    }
    let last = last.expect("the game ended");
    assert_eq!(last.common.status, Status::Over);
    assert_eq!(
        last.common.result.as_ref().unwrap().reason,
        "reached the target"
    );
    match &last.common.to_act {
        ToAct::Over(o) => assert_eq!(o.reason, "reached the target"),
        other => panic!("to_act is not over: {other:?}"),
    }
    // An action after the end is refused.
    assert_action_refused(addr, &id, 0, &tokens[0], "+1", (409, "game_over")).await;
    // The spectator got every update: the last one says the game is over.
    let end = recv_game(&mut spec, |m| m.common.status == Status::Over).await;
    assert_eq!(end.common.kind, MessageKind::Update);
    // The record replays to the same result, and imports as a read-only game.
    let (s, raw_record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    let record: JsonRecord = decode(&raw_record);
    assert_eq!(record.game, "duel");
    // The seed the server drew, revealed now, as its commitment promised from the start.
    assert_eq!(
        record.seed_commitment,
        Some(tabula_core::record::seed_commitment(record.seed))
    );
    assert_eq!(
        record.seed_commitment.as_deref(),
        Some(snap0.common.seed_commitment.as_str())
    );
    assert_eq!(record.result.as_ref().unwrap().reason, "reached the target");
    let imp = post_as::<Imported>(addr, "/api/records", json!({"record": raw_record})).await;
    assert_eq!(imp.status, 201, "{}", imp.raw);
    let imported = imp.ok().id;
    let isnap = get_as::<Snap>(addr, &format!("/api/games/{imported}"))
        .await
        .ok();
    assert_eq!(isnap.common.status, Status::Imported);
    assert_eq!(view_of(&isnap), last_spectator_view(addr, &id).await);
    assert_eq!(
        isnap.common.result.as_ref().unwrap().reason,
        "reached the target"
    );
    // A tampered record is refused (edited as raw JSON on purpose).
    let mut bad = raw_record.clone();
    bad["actions"][3]["action"] = json!({"add": 9});
    let r = post_as::<Imported>(addr, "/api/records", json!({"record": bad})).await;
    assert_eq!(r.status, 400, "{}", r.raw);
    server.shutdown().await.unwrap();
}

async fn last_spectator_view(addr: std::net::SocketAddr, id: &str) -> Value {
    view_of(&get_as::<Snap>(addr, &format!("/api/games/{id}")).await.ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hidden_information_never_reaches_other_seats_or_spectators() {
    let dir = temp_dir("hidden");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 10).await;
    let mut socks = [
        ws(addr, &id, Some((0, &tokens[0]))).await,
        ws(addr, &id, Some((1, &tokens[1]))).await,
        ws(addr, &id, None).await,
    ];
    let mut seen: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    // Seat 0 picks its first word, seat 1 its second.
    let chosen = [WORDS[0][0], WORDS[1][1]];
    socks[0]
        .send(&json!({"type": "action", "notation": format!("secret:{}", chosen[0])}))
        .await
        .unwrap();
    socks[1]
        .send(&json!({"type": "action", "notation": format!("secret:{}", chosen[1])}))
        .await
        .unwrap();
    // Drive the race with HTTP and collect every WebSocket message until the game is over (as raw text:
    // a secret word must appear nowhere in what an observer gets, whatever field it would be in).
    let mut over = false;
    for _ in 0..60 {
        for (i, s) in socks.iter_mut().enumerate() {
            while let Ok(Some(text)) = s.recv_text(Duration::from_millis(150)).await {
                if text.contains("\"status\":\"over\"") {
                    over = true;
                }
                seen[i].push(text);
            }
        }
        if over {
            break;
        }
        if http_step(addr, &id, &tokens).await.is_none() {
            break;
        }
    }
    assert!(over, "the game ended");
    for (i, msgs) in seen.iter().enumerate() {
        assert!(msgs.len() > 5, "observer {i} got {} messages", msgs.len());
        for m in msgs {
            for (owner, words) in WORDS.iter().enumerate() {
                if owner == i {
                    continue;
                }
                for w in words {
                    assert!(
                        !m.contains(w),
                        "observer {i} saw seat {owner}'s secret word {w}: {m}"
                    );
                }
            }
        }
    }
    // Each seat did see its own choice.
    assert!(seen[0].iter().any(|m| m.contains(chosen[0])));
    assert!(seen[1].iter().any(|m| m.contains(chosen[1])));
    // HTTP snapshots are the same views (raw JSON, searched as text).
    let (_, spec) = get(addr, &format!("/api/games/{id}")).await;
    let text = spec.to_string();
    for w in WORDS.iter().flatten() {
        assert!(!text.contains(w));
    }
    // The record (which shows everything) is available only now that the game is over.
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    decode::<JsonRecord>(&record);
    assert!(record.to_string().contains(chosen[0]));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_is_refused_while_the_game_runs() {
    let dir = temp_dir("record-running");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, _tokens) = create_duel(addr, 10).await;
    let r = get_as::<JsonRecord>(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!((r.status, r.code()), (409, Some("conflict")));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_seats_play_on_their_own() {
    let dir = temp_dir("ai");
    let limits = Limits {
        allow_ai_only_games: true,
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(dir), limits).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "ai", "level": 1}, {"kind": "ai", "level": 5}]}),
    )
    .await;
    assert_eq!(tokens, vec![None, None]);
    let mut spec = ws(addr, &id, None).await;
    let end = recv_game(&mut spec, |m| m.common.status == Status::Over).await;
    assert_eq!(
        end.common.result.clone().unwrap().reason,
        "reached the target"
    );
    // Human vs AI: the AI answers every human action.
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 3}], "host_seats": [0]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let mut s0 = ws(addr, &id, Some((0, &token))).await;
    let mut state = next_game(&mut s0).await;
    for _ in 0..100 {
        if state.common.status == Status::Over {
            break;
        }
        if let Some(first) = state.legal.first() {
            s0.send(&json!({"type": "action", "action": first.action}))
                .await
                .unwrap();
        }
        state = recv_update(&mut s0).await;
    }
    assert_eq!(state.common.status, Status::Over);
    // The AI seat has no token and cannot be played by a human.
    assert_action_refused(addr, &id, 1, &token, "+1", (403, "bad_token")).await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_resignation_and_rematch() {
    let dir = temp_dir("draw");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 30).await;
    let draw = |seat: usize, op: &str| {
        let body = json!({"seat": seat, "token": tokens[seat], "op": op});
        let path = format!("/api/games/{id}/draw");
        async move { post_as::<Committed>(addr, &path, body).await }
    };
    let r = draw(1, "accept").await;
    assert_eq!((r.status, r.code()), (409, Some("conflict")));
    assert_eq!(draw(0, "offer").await.status, 200);
    let r = draw(0, "offer").await;
    assert_eq!(r.status, 409);
    let sn = snap(addr, &id, 1, &tokens[1]).await;
    assert_eq!(
        sn.common.draw_offer,
        Some(Offer {
            by: 0,
            accepted: vec![0]
        })
    );
    assert_eq!(draw(1, "decline").await.status, 200);
    assert_eq!(snap(addr, &id, 1, &tokens[1]).await.common.draw_offer, None);
    let r = draw(1, "maybe").await;
    assert_eq!((r.status, r.code()), (400, Some("bad_request")));
    // Wrong token.
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/draw"),
        json!({"seat": 1, "token": tokens[0], "op": "offer"}),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")));
    assert_eq!(draw(1, "offer").await.status, 200);
    assert_eq!(draw(0, "accept").await.status, 200);
    let sn = snap(addr, &id, 0, &tokens[0]).await;
    assert_eq!(sn.common.status, Status::Over);
    assert_eq!(
        sn.common.result,
        Some(Outcome {
            results: vec![SeatResult::Draw, SeatResult::Draw],
            reason: "draw by agreement".into()
        })
    );

    // Rematch: seats rotate, the same tokens play the new game.
    let r = post_as::<Rematched>(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"seat": 0, "token": tokens[0]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let r = r.ok();
    assert_eq!(r.seat, 1);
    let new_id = r.id;
    assert_eq!(
        snap(addr, &id, 1, &tokens[1]).await.rematch,
        Some(RematchLink {
            id: new_id.clone(),
            seat: Some(0)
        })
    );
    let waiting = snap(addr, &new_id, 1, &tokens[0]).await;
    assert_eq!(waiting.common.status, Status::Waiting);
    assert_action_refused(
        addr,
        &new_id,
        1,
        &tokens[0],
        "secret:birchword",
        (409, "not_started"),
    )
    .await;
    // The other player asks too: the same game, and their new seat joins, so it starts.
    let again = post_as::<Rematched>(
        addr,
        &format!("/api/games/{id}/rematch"),
        json!({"seat": 1, "token": tokens[1]}),
    )
    .await
    .ok();
    assert_eq!((again.id.as_str(), again.seat), (new_id.as_str(), 0));
    let running = snap(addr, &new_id, 0, &tokens[1]).await;
    assert_eq!(running.common.status, Status::Running);
    // Resignation ends it at once: the resigning seat loses.
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{new_id}/resign"),
        json!({"seat": 0, "token": tokens[1]}),
    )
    .await;
    assert_eq!(r.status, 200);
    let over = snap(addr, &new_id, 1, &tokens[0]).await;
    let result = over.common.result.clone().unwrap();
    assert_eq!(result.results, [SeatResult::Loss, SeatResult::Win]);
    assert_eq!(result.reason, "North resigned");
    // Its record keeps the server's result, and imports with it (sent back as it came).
    let (_, raw_record) = get(addr, &format!("/api/games/{new_id}/record")).await;
    let record: JsonRecord = decode(&raw_record);
    assert_eq!(record.result.unwrap().reason, "North resigned");
    let imp = post_as::<Imported>(addr, "/api/records", json!({"record": raw_record})).await;
    assert_eq!(imp.status, 201, "{}", imp.raw);
    let isnap = get_as::<Snap>(addr, &format!("/api/games/{}", imp.ok().id))
        .await
        .ok();
    assert_eq!(
        isnap.common.result.clone().unwrap().reason,
        "North resigned"
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_resumes_games_and_reconnect_gets_missed_events() {
    let dir = temp_dir("restart");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 30).await;
    for _ in 0..5 {
        http_step(addr, &id, &tokens).await.unwrap();
    }
    let before0 = snap(addr, &id, 0, &tokens[0]).await;
    let before_spec = get_as::<Snap>(addr, &format!("/api/games/{id}")).await.ok();
    server.shutdown().await.unwrap();

    let server = start(&dir).await;
    let addr = server.local_addr();
    assert_eq!(
        server.loaded_games(),
        1,
        "unfinished games are resumed at startup"
    );
    let after0 = snap(addr, &id, 0, &tokens[0]).await;
    let (b, a) = (&before0, &after0);
    assert_same_position(b, a, "after restart");
    assert_eq!(
        b.common.seats, a.common.seats,
        "seats differs after restart"
    );
    let after_spec = get_as::<Snap>(addr, &format!("/api/games/{id}")).await.ok();
    assert_eq!(view_of(&before_spec), view_of(&after_spec));
    // A client that had seen up to `seq` reconnects and gets only what it missed.
    let seen = before0.common.seq;
    http_step(addr, &id, &tokens).await.unwrap();
    http_step(addr, &id, &tokens).await.unwrap();
    let mut s0 = tabula_tools::client::WsClient::connect(
        addr,
        &format!("/api/games/{id}/ws?seat=0&token={}&since={seen}", tokens[0]),
    )
    .await
    .unwrap();
    let sn = next_game(&mut s0).await;
    let seqs: Vec<u64> = sn.events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, vec![seen + 1, seen + 2]);
    assert_eq!(sn.common.seq, seen + 2);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_lists_open_and_live_games_and_seats_can_be_claimed() {
    let dir = temp_dir("lobby");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seats": [0]}),
    )
    .await;
    let (private, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "public": false}),
    )
    .await;
    let (_, raw_lobby) = get(addr, "/api/lobby").await;
    let lobby: Lobby = decode(&raw_lobby);
    let open: Vec<&str> = lobby.open.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(open, vec![id.as_str()]);
    assert!(!lobby.open[0].seats[1].joined);
    assert_eq!(
        lobby.open[0].seats[1].kind,
        SeatKind::Human { open: true },
        "{raw_lobby}"
    );
    // A seat not open has no `open` field at all (raw JSON: the type reads a missing one as false).
    assert_eq!(
        raw_lobby["open"][0]["seats"][0].get("open"),
        None,
        "{raw_lobby}"
    );
    // Claiming a joined seat is refused; an open one gives a fresh token (the creator's stops working).
    let r = post_as::<Joined>(addr, &format!("/api/games/{id}/join"), json!({"seat": 0})).await;
    assert_eq!(r.status, 409);
    let r = post_as::<Joined>(
        addr,
        &format!("/api/games/{private}/join"),
        json!({"seat": 0}),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")));
    let claim = post_as::<Joined>(addr, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!(claim.status, 200, "{}", claim.raw);
    let fresh = claim.ok().token.unwrap();
    assert_ne!(Some(fresh.clone()), tokens[1]);
    let r = get_as::<Snap>(
        addr,
        &format!(
            "/api/games/{id}?seat=1&token={}",
            tokens[1].clone().unwrap()
        ),
    )
    .await;
    assert_eq!(r.status, 403);
    let sn = snap(addr, &id, 1, &fresh).await;
    assert_eq!(sn.common.status, Status::Running);
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    assert!(lobby.open.is_empty());
    assert_eq!(lobby.live[0].id, id);
    // A public game whose second seat is kept for a friend invited by link: listed, but its seat can
    // be taken only with the link, never from the lobby.
    let (friends, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0]}),
    )
    .await;
    let r = post_as::<Joined>(
        addr,
        &format!("/api/games/{friends}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{}", r.raw);
    assert!(r.err().message.contains("invited by link"), "{}", r.raw);
    // Whether the seat has an `open` field: raw JSON (see above).
    let (_, lobby) = get(addr, "/api/lobby").await;
    decode::<Lobby>(&lobby);
    let listed = lobby["open"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == json!(friends))
        .cloned()
        .unwrap_or_else(|| panic!("the friends' game is not listed: {lobby}"));
    assert_eq!(listed["seats"][1].get("open"), None, "{listed}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn floods_and_oversized_messages_are_refused() {
    let dir = temp_dir("flood");
    let limits = Limits {
        ws_rate_per_sec: 5.0,
        ws_burst: 5.0,
        ws_max_refused: 20,
        http_rate_per_sec: 2.0,
        http_burst: 30.0,
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), limits).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 10).await;
    let mut s0 = ws(addr, &id, Some((0, &tokens[0]))).await;
    next_msg(&mut s0).await;
    for i in 0..10 {
        s0.send(&json!({"type": "ping", "id": i})).await.unwrap();
    }
    let mut pongs = 0;
    let mut limited = 0;
    for _ in 0..10 {
        match next_msg(&mut s0).await {
            Msg::Other(SocketMsg::Pong { .. }) => pongs += 1,
            Msg::Other(SocketMsg::Error { code, .. }) if code == "rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert!(
        pongs >= 5 && limited >= 1,
        "pongs {pongs}, limited {limited}"
    );
    // Keep flooding: the connection is closed.
    for i in 0..40 {
        if s0.send(&json!({"type": "ping", "id": i})).await.is_err() {
            break;
        }
    }
    let mut closed = false;
    for _ in 0..100 {
        match s0.recv(T).await {
            Ok(None) | Err(_) => {
                closed = true;
                break;
            }
            Ok(Some(_)) => {}
        }
    }
    assert!(closed, "a flooding connection is closed");
    // An oversized message is refused and the connection closed.
    let mut s1 = ws(addr, &id, Some((1, &tokens[1]))).await;
    next_msg(&mut s1).await;
    let big = format!("{{\"type\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(20_000));
    s1.send_text(&big).await.unwrap();
    let e = next_msg(&mut s1).await;
    assert_eq!(
        e.error().map(|e| e.code),
        Some("too_large".to_string()),
        "{e:?}"
    );
    let rest = until_closed(&mut s1).await;
    assert!(rest.is_empty(), "{rest:?}");
    // Past the reader's own hard limit (4 × the message limit, where it stops reading before the
    // payload) the client is told too, before the close: the server keeps the connection open a
    // moment after refusing (closing with the client's bytes unread would reset the connection,
    // and the client still writing a 1 MB message would never read why).
    for size in [70_000, 1_000_000] {
        let mut s = ws(addr, &id, Some((1, &tokens[1]))).await;
        next_msg(&mut s).await;
        let huge = format!("{{\"type\":\"ping\",\"pad\":\"{}\"}}", "x".repeat(size));
        s.send_text(&huge).await.unwrap();
        let got = until_closed(&mut s).await;
        assert_eq!(got.len(), 1, "{size}: {got:?}");
        let e = got[0]
            .error()
            .unwrap_or_else(|| panic!("{size}: not an error: {:?}", got[0]));
        assert_eq!(e.code, "too_large", "{size}");
        assert!(e.message.contains("exceeds the limit"), "{}", e.message);
    }
    // The game is unchanged by all this.
    let sn = snap(addr, &id, 0, &tokens[0]).await;
    assert_eq!(sn.common.seq, 4, "created, 2 joins, start");
    // HTTP floods from one address are limited too.
    let mut statuses = Vec::new();
    for _ in 0..40 {
        statuses.push(get(addr, "/api/lobby").await.0);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_clock_gives_days_per_decision() {
    let dir = temp_dir("corr");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let r = post_as::<Created>(
        addr,
        "/api/games",
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}],
        "clock": {"kind": "correspondence", "days_per_move": 0}}),
    )
    .await;
    assert_eq!((r.status, r.code()), (400, Some("bad_request")));
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}],
        "host_seats": [0, 1], "clock": {"kind": "correspondence", "days_per_move": 2}}),
    )
    .await;
    let t0 = tokens[0].clone().unwrap();
    let sn = snap(addr, &id, 0, &t0).await;
    let clock = sn.common.clock.clone().unwrap();
    assert_eq!(clock.spec, ClockSpec::Correspondence { days_per_move: 2 });
    let day = 86_400_000i64;
    for seat in 0..2 {
        let c = clock.seats[seat];
        assert!(c.running);
        let left = c.remaining_ms;
        assert!(left <= 2 * day && left > 2 * day - 60_000, "{left}");
    }
    let r = post_action(addr, &id, 0, &t0, "secret:azureword").await;
    assert_eq!(r.status, 200);
    let sn = snap(addr, &id, 0, &t0).await;
    let clock = sn.common.clock.clone().unwrap();
    assert_eq!(
        clock.seats[0],
        ClockSeat {
            remaining_ms: 2 * day,
            running: false
        }
    );
    assert!(clock.seats[1].running);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_generator_plays_games_and_reports_latencies() {
    let dir = temp_dir("load");
    let limits = Limits {
        http_rate_per_sec: 100_000.0,
        http_burst: 100_000.0,
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(dir), limits).await;
    let report = tabula_tools::loadtest::run(tabula_tools::loadtest::LoadConfig {
        addr: server.local_addr(),
        game: "duel".into(),
        options: json!({"target": 40}),
        games: 4,
        rate: 0.0,
        duration: Duration::from_secs(2),
        seed: 5,
        server_pid: Some(std::process::id()),
        timeout: tabula_tools::loadtest::DEFAULT_TIMEOUT,
    })
    .await
    .unwrap();
    assert_eq!((report.games, report.sockets, report.errors), (4, 8, 0));
    assert!(report.actions > 0, "{report}");
    assert!(report.latency_ms_p50 <= report.latency_ms_p99);
    assert!(report.latency_ms_p99 <= report.latency_ms_max);
    // CPU time is read from /proc (here the "server" is this same process).
    assert!(report.client_cpu_ms_per_action.is_some_and(|c| c >= 0.0));
    assert!(report.server_cpu_ms_per_action.is_some_and(|c| c >= 0.0));
    server.shutdown().await.unwrap();
    // Not a loopback address: refused before anything is sent.
    let err = tabula_tools::loadtest::run(tabula_tools::loadtest::LoadConfig {
        addr: "192.0.2.1:80".parse().unwrap(),
        game: "duel".into(),
        options: json!({}),
        games: 1,
        rate: 0.0,
        duration: Duration::from_secs(1),
        seed: 1,
        server_pid: None,
        timeout: tabula_tools::loadtest::DEFAULT_TIMEOUT,
    })
    .await
    .unwrap_err();
    assert!(err.contains("loopback"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observers_who_connect_later_get_their_own_updates() {
    // Updates are rendered only for observers someone watches as: a spectator and a seat that connect
    // mid-game must still get their own (correct, hidden-respecting) updates from then on.
    let dir = temp_dir("late");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 30).await;
    let mut s0 = ws(addr, &id, Some((0, &tokens[0]))).await;
    recv_snapshot(&mut s0).await;
    // Both secrets (hidden) and the chance draw, watched by seat 0 only.
    for _ in 0..2 {
        http_step(addr, &id, &tokens).await.unwrap();
    }
    let mut spec = ws(addr, &id, None).await;
    let mut s1 = ws(addr, &id, Some((1, &tokens[1]))).await;
    let first_spec = recv_snapshot(&mut spec).await;
    recv_snapshot(&mut s1).await;
    let (seq, notation) = http_step(addr, &id, &tokens).await.unwrap();
    for (i, sock) in [&mut s0, &mut s1, &mut spec].into_iter().enumerate() {
        // The text as sent too: a hidden word must be nowhere in it.
        let (text, u) = recv_game_text(sock, |m| {
            m.common.kind == MessageKind::Update && m.common.seq >= seq
        })
        .await;
        let e = u
            .events
            .iter()
            .find(|e| e.seq == seq)
            .unwrap_or_else(|| panic!("observer {i}: the action is in its update: {text}"));
        match &e.body {
            EventBody::Action { notation: n, .. } => {
                assert_eq!(n.as_deref(), Some(notation.as_str()), "observer {i}")
            }
            other => panic!("observer {i}: not an action: {other:?}"),
        }
        // Nothing happened since: the update's view is this observer's current snapshot view.
        let now = match i {
            2 => get_as::<Snap>(addr, &format!("/api/games/{id}")).await.ok(),
            seat => snap(addr, &id, seat, &tokens[seat]).await,
        };
        assert_eq!(view_of(&u), view_of(&now), "observer {i}");
        // The seat's own word only to that seat; the spectator sees neither.
        let hidden: Vec<&str> = match i {
            0 => WORDS[1].to_vec(),
            1 => WORDS[0].to_vec(),
            _ => WORDS.concat(),
        };
        for w in hidden {
            assert!(!text.contains(w), "observer {i} saw {w}: {text}");
        }
        if i == 2 {
            assert_eq!(u.you, Observer::Spectator);
            assert!(u.legal.is_empty());
            assert_eq!(
                duel_view(&u).secrets,
                [Secret::Chosen(true), Secret::Chosen(true)]
            );
            assert_ne!(u.common.seq, first_spec.common.seq);
        }
    }
    server.shutdown().await.unwrap();
}

/// Asserts the API's JSON error format ([`tabula_server::wire::api::ApiError`]) with this status and
/// code; returns the message.
fn api_error(got: &(u16, Value), status: u16, code: &str) -> String {
    let r = Reply::<Value>::read(got.0, got.1.clone());
    assert_eq!(r.status, status, "{got:?}");
    let e = r.err();
    assert_eq!(e.code, code, "{got:?}");
    assert!(!e.message.is_empty(), "{got:?}");
    e.message.clone()
}

/// The headers of a WebSocket upgrade request.
const UPGRADE: [(&str, &str); 4] = [
    ("Connection", "Upgrade"),
    ("Upgrade", "websocket"),
    ("Sec-WebSocket-Version", "13"),
    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_queries_paths_and_methods_get_the_json_error_format() {
    let dir = temp_dir("extract");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 10).await;
    for path in [
        format!("/api/games/{id}?seat=abc"),
        format!("/api/games/{id}?seat=0&since=-1"),
        format!("/api/games/{id}/view/0?seat=999"),
        format!("/api/games/{id}/ws?seat=x&token={}", tokens[0]),
    ] {
        let m = api_error(&get(addr, &path).await, 400, "bad_request");
        assert!(m.contains("query"), "{path}: {m}");
    }
    // A path segment that is not UTF-8.
    api_error(&get(addr, "/api/games/%FF%FE").await, 400, "bad_request");
    // The WebSocket endpoint asked without an upgrade.
    let m = api_error(
        &get(addr, &format!("/api/games/{id}/ws")).await,
        400,
        "bad_request",
    );
    assert!(m.contains("WebSocket"), "{m}");
    // A method an endpoint does not have.
    for (method, path) in [
        ("GET", "/api/games".to_string()),
        ("DELETE", format!("/api/games/{id}")),
        ("PUT", "/api/nope".to_string()),
    ] {
        let got = request(addr, method, &path, None).await.unwrap();
        api_error(&got, 405, "method_not_allowed");
    }
    // Nothing changed.
    assert_eq!(snap(addr, &id, 0, &tokens[0]).await.common.seq, 4);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_games_are_clear_errors_over_http_and_websocket() {
    let dir = temp_dir("unknown");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (_, tokens) = create_duel(addr, 10).await;
    let token = &tokens[0];
    for id in ["00000000-0000-4000-8000-000000000000", "no-such-game"] {
        for path in [
            format!("/api/games/{id}"),
            format!("/api/games/{id}?seat=0&token={token}"),
            format!("/api/games/{id}/view/0"),
            format!("/api/games/{id}/record"),
        ] {
            let m = api_error(&get(addr, &path).await, 404, "not_found");
            assert!(m.contains(id), "{path}: {m}");
        }
        for (path, body) in [
            (
                "action",
                json!({"seat": 0, "token": token, "notation": "+1"}),
            ),
            ("join", json!({"seat": 0})),
            ("resign", json!({"seat": 0, "token": token})),
            ("draw", json!({"seat": 0, "token": token, "op": "offer"})),
            ("rematch", json!({"seat": 0, "token": token})),
        ] {
            let got = post(addr, &format!("/api/games/{id}/{path}"), body).await;
            api_error(&got, 404, "not_found");
        }
        // A WebSocket to an unknown game is refused at the upgrade, with the same JSON error.
        for query in ["", "?seat=0&token=abc"] {
            let path = format!("/api/games/{id}/ws{query}");
            let got = request_with_headers(addr, "GET", &path, &UPGRADE, b"")
                .await
                .unwrap();
            let m = api_error(&got, 404, "not_found");
            assert!(m.contains(id), "{m}");
            let err = WsClient::connect(addr, &path).await.err().unwrap();
            assert!(err.contains("404"), "{err}");
        }
    }
    // An unknown game kind.
    let got = post(
        addr,
        "/api/games",
        json!({"game": "chess", "seats": [{"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    let m = api_error(&got, 404, "not_found");
    assert!(m.contains("chess"), "{m}");
    let got = post(addr, "/api/catalog/chess/preview", json!({})).await;
    api_error(&got, 404, "not_found");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_out_of_turn_action_is_refused_and_changes_nothing() {
    let dir = temp_dir("turn");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 30).await;
    // Seat 0 chooses its secret; seat 1 has not yet: seat 0 owes nothing now.
    let r = post_action(addr, &id, 0, &tokens[0], "secret:amberword").await;
    assert_eq!(r.status, 200);
    let observe = || async {
        [
            snap(addr, &id, 0, &tokens[0]).await,
            snap(addr, &id, 1, &tokens[1]).await,
            get_as::<Snap>(addr, &format!("/api/games/{id}")).await.ok(),
        ]
    };
    let mut s0 = ws(addr, &id, Some((0, &tokens[0]))).await;
    recv_snapshot(&mut s0).await;
    let check_refused = |before: [Snap; 3], after: [Snap; 3]| {
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            assert_eq!(b.common.seq, a.common.seq, "observer {i}: seq changed");
            assert_eq!(b.events, a.events, "observer {i}: events changed");
            assert_eq!(view_of(b), view_of(a), "observer {i}: view changed");
            assert_eq!(b.legal, a.legal, "observer {i}: legal changed");
            assert_eq!(
                b.common.to_act, a.common.to_act,
                "observer {i}: to_act changed"
            );
            assert_eq!(
                b.common.status, a.common.status,
                "observer {i}: status changed"
            );
        }
    };
    let before = observe().await;
    assert_eq!(before[0].common.to_act, ToAct::Seats(vec![Seat(1)]));
    assert_action_refused(
        addr,
        &id,
        0,
        &tokens[0],
        "secret:azureword",
        (409, "not_your_turn"),
    )
    .await;
    s0.send(&json!({"type": "action", "id": 7, "notation": "+1"}))
        .await
        .unwrap();
    let e = recv_error(&mut s0).await;
    assert_eq!((e.id, e.code.as_str()), (Some(7), "not_your_turn"));
    check_refused(before, observe().await);

    // In the race, the seat whose turn it is not is refused the same way.
    http_step(addr, &id, &tokens).await.unwrap();
    let before = observe().await;
    let turn = match &before[0].common.to_act {
        ToAct::Seat(s) => s.index(),
        other => panic!("not one seat's turn: {other:?}"),
    };
    let other = 1 - turn;
    for notation in ["+1", "+2"] {
        assert_action_refused(
            addr,
            &id,
            other,
            &tokens[other],
            notation,
            (409, "not_your_turn"),
        )
        .await;
    }
    let mut sother = ws(addr, &id, Some((other, &tokens[other]))).await;
    recv_snapshot(&mut sother).await;
    sother
        .send(&json!({"type": "action", "id": 8, "action": {"add": 1}}))
        .await
        .unwrap();
    let e = recv_error(&mut sother).await;
    assert_eq!((e.id, e.code.as_str()), (Some(8), "not_your_turn"));
    let seq = before[0].common.seq;
    check_refused(before, observe().await);
    // The seat whose turn it is plays on, with the next seq: nothing was logged in between.
    let r = post_action(addr, &id, turn, &tokens[turn], "+1").await;
    assert_eq!(
        (r.status, r.body.as_ref().ok().map(|c| c.seq)),
        (200, Some(seq + 1)),
        "{}",
        r.raw
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thinking_ai_does_not_hold_up_the_network() {
    // The level-5 "AI" blocks until the test lets it go, on every AI worker at once; meanwhile the
    // server answers health checks, plays other games and the thinking game's own human seat.
    use std::sync::{Arc, Condvar, Mutex};
    let workers = 2;
    let gate = Arc::new((Mutex::new(false), Condvar::new()));
    let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel::<()>();
    let random = random_bot();
    let bot_gate = gate.clone();
    let bot: tabula_server::BotFn = Arc::new(move |state, seat, level, seed| {
        if level == 5 {
            let _ = started_tx.send(());
            let (open, cv) = &*bot_gate;
            let mut open = open.lock().unwrap();
            let until = std::time::Instant::now() + Duration::from_secs(120);
            while !*open && std::time::Instant::now() < until {
                open = cv.wait_timeout(open, Duration::from_millis(200)).unwrap().0;
            }
        }
        random(state, seat, level, seed)
    });
    let limits = Limits {
        ai_workers: workers,
        ..Limits::default()
    };
    let mut cfg = config(registry(), Storage::SqliteDir(temp_dir("ai-busy")), limits);
    cfg.bot = bot;
    let server = tabula_server::start(cfg).await.unwrap();
    let addr = server.local_addr();
    // Human vs a slow AI: both owe their secret at once, so the AI starts thinking at creation.
    let mut thinking = Vec::new();
    for _ in 0..workers {
        let (id, tokens) = create(
            addr,
            json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 5}], "host_seats": [0]}),
        )
        .await;
        thinking.push((id, tokens[0].clone().unwrap()));
    }
    for _ in 0..workers {
        tokio::time::timeout(T, started.recv())
            .await
            .expect("the AI started thinking")
            .unwrap();
    }
    // Every AI worker is busy now.
    let quick = Duration::from_secs(10);
    let (s, body) = request_within(addr, "GET", "/healthz", None, quick)
        .await
        .unwrap();
    assert_eq!((s, body), (200, json!("ok")));
    let (other, tokens) = create_duel(addr, 10).await;
    for _ in 0..4 {
        http_step(addr, &other, &tokens).await.unwrap();
    }
    let mut sock = ws(addr, &other, None).await;
    recv_snapshot(&mut sock).await;
    sock.send(&json!({"type": "ping", "id": 1})).await.unwrap();
    recv_find(&mut sock, |m| {
        matches!(m, Msg::Other(SocketMsg::Pong { .. })).then_some(())
    })
    .await;
    // The thinking games themselves answer, and their human seat plays.
    let mut watchers = Vec::new();
    for (id, token) in &thinking {
        let sn = snap(addr, id, 0, token).await;
        assert_eq!(sn.common.to_act, ToAct::Seats(vec![Seat(0), Seat(1)]));
        let r = post_action(addr, id, 0, token, "secret:amberword").await;
        assert_eq!(r.status, 200, "{}", r.raw);
        let mut w = ws(addr, id, None).await;
        recv_snapshot(&mut w).await;
        watchers.push(w);
    }
    // Let the AI go: its secrets arrive.
    {
        let (open, cv) = &*gate;
        *open.lock().unwrap() = true;
        cv.notify_all();
    }
    for w in &mut watchers {
        recv_game(w, |m| {
            m.events.iter().any(|e| {
                matches!(e.body, EventBody::Action { actor, .. } if actor == Actor::Seat(Seat(1)))
            })
        })
        .await;
    }
    server.shutdown().await.unwrap();
}

/// A creation that names a host seat twice (once or 10,000 times) is refused, and
/// an imported record with a field the format does not have (at its top or in an action) is refused
/// rather than silently read without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_seat_given_twice_and_unknown_record_fields_are_refused() {
    let dir = temp_dir("strict-input");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let seats = json!([{"kind": "human"}, {"kind": "human"}]);
    for hosts in [json!([0, 0]), json!(vec![1; 10_000])] {
        let r = post_as::<Created>(
            addr,
            "/api/games",
            json!({"game": "duel", "seats": seats, "host_seats": hosts}),
        )
        .await;
        assert_eq!(
            (r.status, r.code()),
            (400, Some("bad_request")),
            "{}",
            r.raw
        );
        assert!(r.err().message.contains("twice"), "{}", r.raw);
    }
    let r = post_as::<Created>(
        addr,
        "/api/games",
        json!({"game": "duel", "seats": seats, "host_seats": [0], "host_seat": 0}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.raw);

    // A finished game's record imports as it is, never with a field of its own.
    let (id, tokens) = create_duel(addr, 12).await;
    http_step(addr, &id, &tokens).await.unwrap();
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 0, "token": tokens[0]}),
    )
    .await;
    assert_eq!(r.status, 200);
    // The record is edited as raw JSON: fields the format does not have, on purpose.
    let (_, record) = get(addr, &format!("/api/games/{id}/record")).await;
    decode::<JsonRecord>(&record);
    let mut extra = record.clone();
    extra["comment"] = json!("not a field of a record");
    let mut extra_in_action = record.clone();
    extra_in_action["actions"][0]["note"] = json!("nor of an action");
    for bad in [extra, extra_in_action] {
        let r = post_as::<Imported>(addr, "/api/records", json!({"record": bad})).await;
        assert_eq!(r.status, 400, "{}", r.raw);
        assert!(r.err().message.contains("unknown field"), "{}", r.raw);
    }
    let r = post_as::<Imported>(addr, "/api/records", json!({"record": record})).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    server.shutdown().await.unwrap();
}

/// Every answer — the web pages, the API, a refusal — carries the security headers: a
/// Content-Security-Policy that allows scripts and styles from the server only and no framing,
/// `X-Frame-Options: DENY`, `nosniff` and `Referrer-Policy`; HSTS only behind TLS
/// (`--secure-cookies`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    use tabula_tools::client::request_with_response_headers;
    for https in [false, true] {
        let dir = temp_dir(if https { "headers-tls" } else { "headers" });
        let limits = Limits {
            secure_cookies: https,
            ..Limits::default()
        };
        let server = start_with(registry(), Storage::SqliteDir(dir.clone()), limits).await;
        let addr = server.local_addr();
        for path in [
            "/",
            "/game/00000000-0000-0000-0000-000000000000",
            "/api/lobby",
            "/api/nothing",
        ] {
            let (status, headers, _) = request_with_response_headers(addr, "GET", path, &[], b"")
                .await
                .unwrap();
            let header = |name: &str| {
                headers
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.as_str())
            };
            let csp = header("content-security-policy")
                .unwrap_or_else(|| panic!("{path} {status}: no CSP"));
            for directive in [
                "script-src 'self'",
                "style-src 'self'",
                "frame-ancestors 'none'",
                "object-src 'none'",
            ] {
                assert!(csp.contains(directive), "{path}: {csp}");
            }
            assert!(
                !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
                "{csp}"
            );
            assert_eq!(header("x-frame-options"), Some("DENY"), "{path}");
            assert_eq!(header("x-content-type-options"), Some("nosniff"), "{path}");
            assert_eq!(header("referrer-policy"), Some("no-referrer"), "{path}");
            assert_eq!(
                header("strict-transport-security").is_some(),
                https,
                "{path}: HSTS only behind TLS"
            );
        }
        server.shutdown().await.unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A request whose body trickles in (or never comes) is answered `408 request_timeout` once the
/// request deadline passes, and its connection closed, instead of holding the connection for as
/// long as the client keeps sending a byte now and then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_body_meets_the_request_deadline() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = temp_dir("slow-body");
    let limits = Limits {
        request_deadline: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), limits).await;
    let mut stream = tokio::net::TcpStream::connect(server.local_addr())
        .await
        .unwrap();
    let head = "POST /api/games HTTP/1.1\r\nHost: tabula\r\nContent-Type: application/json\r\n\
                Content-Length: 200\r\n\r\n{\"game\":";
    stream.write_all(head.as_bytes()).await.unwrap();
    // The rest of the body never comes: the answer does, and then the server closes.
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer))
        .await
        .expect("the server kept the connection open past the request deadline")
        .unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("request_timeout"), "{text}");
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// A seat's token stays out of URLs: the WebSocket takes it as the
/// `tabula.token.…` subprotocol (and answers the `tabula` one), a wrong one is refused; a join link
/// carries it in the fragment (never sent to a server), while an older link with the token in the
/// path still opens the page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_tokens_stay_out_of_urls() {
    let dir = temp_dir("token-urls");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let created = post_as::<Created>(
        addr,
        "/api/games",
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0]}),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.raw);
    let created = created.ok();
    let id = created.id.as_str();
    let host = seat_token(&created.seats[0]).unwrap();
    let link = match &created.seats[1] {
        CreatedSeat::Human { join_url, .. } => join_url.clone().unwrap(),
        other => panic!("not a person's seat: {other:?}"),
    };
    let friend = link.rsplit_once('#').map(|(_, t)| t).unwrap();
    assert_eq!(link, format!("/join/{id}/1#{friend}"));
    assert_eq!(friend.len(), 64, "{link}");
    // The friend's token from the fragment joins the seat.
    let r = post_as::<Joined>(
        addr,
        &format!("/api/games/{id}/join"),
        json!({"seat": 1, "token": friend}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);

    let path = format!("/api/games/{id}/ws?seat=0");
    let timeout = Duration::from_secs(10);
    let mut ws = WsClient::connect_seat(addr, &path, &host, timeout)
        .await
        .unwrap();
    let sn = recv_snapshot(&mut ws).await;
    assert_eq!(sn.you, Observer::Seat(Seat(0)), "{sn:?}");
    ws.send(&json!({"type": "action", "id": 1, "notation": "secret:amberword"}))
        .await
        .unwrap();
    // The answer to id 1, whichever it is.
    let answer = recv_find(&mut ws, |m| match m.other() {
        Some(o @ (SocketMsg::Ack { id: Some(1), .. } | SocketMsg::Error { id: Some(1), .. })) => {
            Some(o.clone())
        }
        _ => None,
    })
    .await;
    assert!(matches!(answer, SocketMsg::Ack { .. }), "{answer:?}");
    assert!(
        WsClient::connect_seat(addr, &path, &"0".repeat(64), timeout)
            .await
            .is_err(),
        "a wrong token in the subprotocol is refused"
    );
    // An older link, with the token in the path, still opens the web page (its text, as a JSON string).
    let (s, page) = get(addr, &format!("/join/{id}/1/{friend}")).await;
    assert_eq!(s, 200);
    assert!(
        page.as_str()
            .unwrap()
            .to_lowercase()
            .contains("<!doctype html")
    );
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
