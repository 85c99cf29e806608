//! Takebacks: against the AI (at once), between people (an offer the opponent accepts or declines),
//! refused across chance and hidden information, kept in the log as events (nothing rewritten), and a
//! game with takebacks replayed: its position after a restart, its past positions, its record.

use std::net::SocketAddr;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::Registry;
use tabula_core::record::JsonRecord;
use tabula_server::{Limits, Storage};

async fn takeback(addr: SocketAddr, id: &str, seat: usize, token: &str, op: &str) -> (u16, Value) {
    post(
        addr,
        &format!("/api/games/{id}/takeback"),
        json!({"seat": seat, "token": token, "op": op}),
    )
    .await
}

/// The events of a snapshot, by kind (`kind` and its fields).
fn kinds(snap: &Value) -> Vec<String> {
    snap["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

/// Both Duel seats choose their secret; chance picks who starts. Returns the starting seat.
async fn duel_started(addr: SocketAddr, id: &str, tokens: &[String]) -> usize {
    assert_eq!(
        post_action(addr, id, 0, &tokens[0], "secret:amberword")
            .await
            .0,
        200
    );
    assert_eq!(
        post_action(addr, id, 1, &tokens[1], "secret:birchword")
            .await
            .0,
        200
    );
    let snap = snapshot(addr, id, 0, &tokens[0]).await;
    snap["to_act"]["seat"].as_u64().expect("one seat to act") as usize
}

/// Between two people: an offer is refused before the seat has moved past chance, declined (and
/// remembered in the log), answered by the opponent's move, and accepted: then both moves since are
/// undone, the offerer plays again, and a spectator's view follows. Every event stays in the log.
#[tokio::test]
async fn takeback_offer_decline_and_accept_between_two_seats() {
    let dir = temp_dir("takeback-offer");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 12).await;
    let f = duel_started(addr, &id, &tokens).await;
    let o = 1 - f;
    let mut spec = ws(addr, &id, None).await;
    recv_until(&mut spec, |m| m["type"] == "snapshot").await;

    // Before a move of its own after chance, a takeback would undo the draw of who starts.
    let (s, v) = takeback(addr, &id, o, &tokens[o], "offer").await;
    assert_eq!(s, 409, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot undo chance"),
        "{v}"
    );
    // Nothing to answer yet; an unknown op is a bad request.
    assert_eq!(takeback(addr, &id, o, &tokens[o], "accept").await.0, 409);
    let (s, v) = takeback(addr, &id, o, &tokens[o], "maybe").await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (400, Some("bad_request")),
        "{v}"
    );

    assert_eq!(post_action(addr, &id, f, &tokens[f], "+1").await.0, 200);
    let before = snapshot(addr, &id, f, &tokens[f]).await;
    assert_eq!(before["view"]["counter"], 1, "{}", before["view"]);

    // Offer, a second offer refused, declined.
    assert_eq!(takeback(addr, &id, f, &tokens[f], "offer").await.0, 200);
    let snap = snapshot(addr, &id, o, &tokens[o]).await;
    assert_eq!(snap["takeback_offer"], json!({"by": f, "accepted": [f]}));
    let (s, v) = takeback(addr, &id, f, &tokens[f], "offer").await;
    assert_eq!(s, 409, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already asked"),
        "{v}"
    );
    assert_eq!(takeback(addr, &id, o, &tokens[o], "decline").await.0, 200);
    let snap = snapshot(addr, &id, o, &tokens[o]).await;
    assert_eq!(snap["takeback_offer"], Value::Null);
    assert_eq!(snap["view"]["counter"], 1);
    assert_eq!(kinds(&snap).last().unwrap(), "takeback_decline");

    // A move answers an offer: the game goes on from the new position.
    assert_eq!(takeback(addr, &id, f, &tokens[f], "offer").await.0, 200);
    assert_eq!(post_action(addr, &id, o, &tokens[o], "+2").await.0, 200);
    let snap = snapshot(addr, &id, o, &tokens[o]).await;
    assert_eq!(snap["takeback_offer"], Value::Null);
    assert_eq!(snap["view"]["counter"], 3);

    // Offer again and accept: the offerer's move and the reply after it are undone.
    let seq_before = snap["seq"].as_u64().unwrap();
    assert_eq!(takeback(addr, &id, f, &tokens[f], "offer").await.0, 200);
    let (s, v) = takeback(addr, &id, f, &tokens[f], "accept").await;
    assert_eq!(s, 409, "the offerer has accepted already: {v}");
    assert_eq!(takeback(addr, &id, o, &tokens[o], "accept").await.0, 200);
    let snap = snapshot(addr, &id, f, &tokens[f]).await;
    assert_eq!(snap["view"]["counter"], 0, "{}", snap["view"]);
    assert_eq!(snap["to_act"], json!({"seat": f}));
    assert_eq!(snap["takeback_offer"], Value::Null);
    assert_eq!(snap["seq"].as_u64().unwrap(), seq_before + 3);
    // The log keeps every event: both undone moves are still there, then the takeback.
    let events = snap["events"].as_array().unwrap();
    let adds: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "action" && e["actor"] != "chance")
        .filter(|e| e["notation"].as_str().is_some_and(|n| n.starts_with('+')))
        .collect();
    assert_eq!(adds.len(), 2, "{events:?}");
    let tb = events.last().unwrap();
    assert_eq!(tb["kind"], "takeback");
    assert_eq!(tb["seat"], f);
    let chance_seq = events.iter().rfind(|e| e["actor"] == "chance").unwrap()["seq"].clone();
    assert_eq!(
        tb["to_seq"], chance_seq,
        "back to the position after chance"
    );
    assert_eq!(
        &kinds(&snap)[kinds(&snap).len() - 3..],
        ["takeback_offer", "takeback_accept", "takeback"]
    );
    // The spectator saw the takeback and the restored position.
    let upd = recv_until(&mut spec, |m| {
        m["events"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["kind"] == "takeback"))
    })
    .await;
    assert_eq!(upd["view"]["counter"], 0);
    // The offerer plays on from there.
    assert_eq!(post_action(addr, &id, f, &tokens[f], "+2").await.0, 200);
    assert_eq!(
        snapshot(addr, &id, o, &tokens[o]).await["view"]["counter"],
        2
    );
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

fn real_games() -> Registry {
    let mut r = Registry::new();
    r.register::<kyo::Kyo>();
    r.register::<territories::Territories>();
    r
}

/// Against the AI in Kyo: a takeback undoes the player's move and the AI's reply at once (the log
/// records the offer, the AI's acceptance and the takeback); the position is the one before the
/// move, and after the player moves again the AI moves again.
#[tokio::test]
async fn takeback_against_the_ai_restores_the_position_and_the_ai_moves_again() {
    let dir = temp_dir("takeback-ai");
    let server = start_with(
        real_games(),
        Storage::SqliteDir(dir.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "kyo", "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}], "host_seat": 0}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let mut me = ws(addr, &id, Some((0, &token))).await;
    let my_turn = |m: &Value| m["legal"].as_array().is_some_and(|l| !l.is_empty());
    let before = recv_until(&mut me, my_turn).await;
    let (s, v) = takeback(addr, &id, 0, &token, "offer").await;
    assert_eq!(s, 409, "nothing to take back before the first move: {v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("has not moved yet"),
        "{v}"
    );

    let action = before["legal"][0]["action"].clone();
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/action"),
        json!({"seat": 0, "token": token, "action": action}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // The AI replies.
    let replied = recv_until(&mut me, my_turn).await;
    assert_ne!(replied["view"], before["view"]);
    assert_eq!(before["may"]["hint"], true, "a hint against the AI");
    assert_eq!(before["may"]["takeback"], false, "{}", before["may"]);
    assert_eq!(replied["may"]["takeback"], true, "{}", replied["may"]);
    assert_eq!(replied["may"]["takeback_refusal"], Value::Null);
    let moves = |m: &Value| {
        m["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == "action" && e["actor"] != "chance")
            .count()
    };

    let (s, v) = takeback(addr, &id, 0, &token, "offer").await;
    assert_eq!(s, 200, "{v}");
    let snap = snapshot(addr, &id, 0, &token).await;
    assert_eq!(snap["view"], before["view"], "the position before the move");
    assert_eq!(snap["legal"], before["legal"]);
    assert_eq!(snap["takeback_offer"], Value::Null);
    let k = kinds(&snap);
    assert_eq!(
        &k[k.len() - 3..],
        ["takeback_offer", "takeback_accept", "takeback"]
    );
    assert_eq!(
        snap["events"][snap["events"].as_array().unwrap().len() - 2]["seat"],
        1
    );
    let seen_moves = moves(&snap);

    // Play again (another move this time): the AI answers it.
    let other = before["legal"].as_array().unwrap().last().unwrap()["action"].clone();
    assert_eq!(
        post(
            addr,
            &format!("/api/games/{id}/action"),
            json!({"seat": 0, "token": token, "action": other}),
        )
        .await
        .0,
        200
    );
    let again = recv_until(&mut me, |m| {
        my_turn(m) && m["seq"].as_u64() > snap["seq"].as_u64()
    })
    .await;
    let snap2 = snapshot(addr, &id, 0, &token).await;
    assert!(moves(&snap2) >= seen_moves + 2, "the AI moved again");
    assert_ne!(again["view"], before["view"]);
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Territories: a takeback across a dice roll is refused with the reason, and changes nothing.
#[tokio::test]
async fn takeback_across_a_territories_dice_roll_is_refused() {
    let dir = temp_dir("takeback-dice");
    let limits = Limits {
        http_rate_per_sec: 10_000.0,
        http_burst: 10_000.0,
        ..Limits::default()
    };
    let server = start_with(real_games(), Storage::SqliteDir(dir.clone()), limits).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "territories", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]}),
    )
    .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    for _ in 0..400 {
        let snap = snapshot(addr, &id, 0, &tokens[0]).await;
        let events = snap["events"].as_array().unwrap();
        let last_mine = events
            .iter()
            .rposition(|e| e["kind"] == "action" && e["actor"] == json!({"seat": 0}));
        let chance_after = last_mine.is_some_and(|i| {
            events[i..]
                .iter()
                .any(|e| e["kind"] == "action" && e["actor"] == "chance")
        });
        if chance_after {
            let (s, v) = takeback(addr, &id, 0, &tokens[0], "offer").await;
            assert_eq!(
                (s, v["error"]["code"].as_str()),
                (409, Some("conflict")),
                "{v}"
            );
            let message = v["error"]["message"].as_str().unwrap();
            assert!(message.contains("cannot undo chance"), "{message}");
            assert!(message.contains("dice roll"), "{message}");
            let after = snapshot(addr, &id, 0, &tokens[0]).await;
            assert_eq!(
                after["seq"], snap["seq"],
                "a refused takeback changes nothing"
            );
            assert_eq!(after["takeback_offer"], Value::Null);
            server.shutdown().await.unwrap();
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
        assert!(
            http_step(addr, &id, &tokens).await.is_some(),
            "the game ended before a dice roll followed seat 0's move"
        );
    }
    panic!("no dice roll followed a move of seat 0 in 400 steps");
}

/// A game with takebacks replays: after a restart it is the same game (the takeback applied from
/// the log), its positions are those of the game as it stands, and its record (the actions not taken
/// back) verifies against the seed.
#[tokio::test]
async fn a_game_with_takebacks_replays_after_restart_and_its_record_verifies() {
    let dir = temp_dir("takeback-replay");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 5).await;
    let f = duel_started(addr, &id, &tokens).await;
    let o = 1 - f;
    assert_eq!(post_action(addr, &id, f, &tokens[f], "+2").await.0, 200);
    assert_eq!(takeback(addr, &id, f, &tokens[f], "offer").await.0, 200);
    assert_eq!(takeback(addr, &id, o, &tokens[o], "accept").await.0, 200);
    assert_eq!(post_action(addr, &id, f, &tokens[f], "+1").await.0, 200);
    let live = snapshot(addr, &id, o, &tokens[o]).await;
    server.shutdown().await.unwrap();

    let server = start(&dir).await;
    let addr = server.local_addr();
    let again = snapshot(addr, &id, o, &tokens[o]).await;
    for k in ["seq", "view", "legal", "to_act", "events", "takeback_offer"] {
        assert_eq!(again[k], live[k], "{k} after a restart");
    }
    assert_eq!(again["view"]["counter"], 1);
    // Positions: 2 secrets, the chance draw, the +1 (the +2 taken back is not one of them).
    let (s, v) = get(addr, &format!("/api/games/{id}/view/4")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["total"], 4);
    assert_eq!(v["last"]["notation"], "+1");
    assert_eq!(v["view"]["counter"], 1);
    assert_eq!(get(addr, &format!("/api/games/{id}/view/5")).await.0, 404);
    // Play to the end: the record holds the actions as they stand and verifies with the seed.
    let mut turn = o;
    loop {
        let (s, v) = post_action(addr, &id, turn, &tokens[turn], "+2").await;
        assert_eq!(s, 200, "{v}");
        if snapshot(addr, &id, 0, &tokens[0]).await["status"] == "over" {
            break;
        }
        turn = 1 - turn;
    }
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200, "{record}");
    let record: JsonRecord = serde_json::from_value(record).unwrap();
    let adds: Vec<String> = record
        .actions
        .iter()
        .filter_map(|a| a.action.get("add").map(|k| k.to_string()))
        .collect();
    assert_eq!(
        adds.first().map(String::as_str),
        Some("1"),
        "the +2 taken back is not in the record"
    );
    let registry = registry();
    let kind = registry.get("duel").unwrap();
    let end = kind
        .replay(&record, true)
        .expect("the record verifies with its seed");
    assert_eq!(end.view(tabula_core::Observer::Spectator)["counter"], 5);
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every message to a seat says what it may do now (`may`), decided by the checks that accept or
/// refuse the request, so the client offers exactly what the server accepts. The case the web client
/// once got wrong: the seat's own last turn was hidden from the other seat (a Duel secret); the seat
/// itself sees its notation, yet the server refuses the takeback (it would keep what was hidden).
#[tokio::test]
async fn the_snapshot_says_what_the_seat_may_do_as_the_server_decides() {
    let dir = temp_dir("takeback-may");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 12).await;
    let snap = snapshot(addr, &id, 0, &tokens[0]).await;
    assert_eq!(snap["may"]["takeback"], false, "{}", snap["may"]);
    assert!(
        snap["may"]["takeback_refusal"]
            .as_str()
            .unwrap()
            .contains("has not moved yet"),
        "{}",
        snap["may"]
    );
    assert_eq!(snap["may"]["draw_offer"], true);
    assert_eq!(snap["may"]["hint"], false, "no hint between people");
    let (s, spec) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(s, 200, "{spec}");
    assert_eq!(spec["may"], Value::Null, "a spectator may do nothing");

    // Seat 0's secret: its own notation for seat 0, hidden from seat 1.
    assert_eq!(
        post_action(addr, &id, 0, &tokens[0], "secret:amberword")
            .await
            .0,
        200
    );
    let snap = snapshot(addr, &id, 0, &tokens[0]).await;
    let mine = snap["events"]
        .as_array()
        .unwrap()
        .iter()
        .rfind(|e| e["kind"] == "action" && e["actor"] == json!({"seat": 0}))
        .unwrap();
    assert!(mine["notation"].is_string(), "seat 0 sees its move: {mine}");
    assert_eq!(snap["may"]["takeback"], false, "{}", snap["may"]);
    let why = snap["may"]["takeback_refusal"].as_str().unwrap();
    assert!(why.contains("hidden information"), "{why}");
    let (s, v) = takeback(addr, &id, 0, &tokens[0], "offer").await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(v["error"]["message"].as_str(), Some(why), "the same words");

    // A pending draw offer: no second one from either seat.
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/draw"),
        json!({"seat": 1, "token": tokens[1], "op": "offer"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    for (seat, token) in tokens.iter().enumerate() {
        let snap = snapshot(addr, &id, seat, token).await;
        assert_eq!(snap["may"]["draw_offer"], false, "{}", snap["may"]);
    }
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
