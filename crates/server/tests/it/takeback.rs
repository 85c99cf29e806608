//! Takebacks: against the AI (at once), between people (an offer the opponent accepts or declines),
//! refused across chance and hidden information, kept in the log as events (nothing rewritten), and a
//! game with takebacks replayed: its position after a restart, its past positions, its record.

use std::net::SocketAddr;

use crate::common::*;
use serde_json::json;
use tabula_core::dynamic::Registry;
use tabula_core::record::JsonRecord;
use tabula_core::{Actor, Seat, ToAct};
use tabula_server::wire::api::{Committed, Position};
use tabula_server::wire::game::{EventBody, Offer, Status};
use tabula_server::{Limits, Storage};

async fn takeback(
    addr: SocketAddr,
    id: &str,
    seat: usize,
    token: &str,
    op: &str,
) -> Reply<Committed> {
    post_as(
        addr,
        &format!("/api/games/{id}/takeback"),
        json!({"seat": seat, "token": token, "op": op}),
    )
    .await
}

/// Both Duel seats choose their secret; chance picks who starts. Returns the starting seat.
async fn duel_started(addr: SocketAddr, id: &str, tokens: &[String]) -> usize {
    assert_eq!(
        post_action(addr, id, 0, &tokens[0], "secret:amberword")
            .await
            .status,
        200
    );
    assert_eq!(
        post_action(addr, id, 1, &tokens[1], "secret:birchword")
            .await
            .status,
        200
    );
    let sn = snap(addr, id, 0, &tokens[0]).await;
    match sn.common.to_act.clone() {
        ToAct::Seat(s) => s.index(),
        other => panic!("one seat to act: {other:?}"),
    }
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
    recv_snapshot(&mut spec).await;

    // Before a move of its own after chance, a takeback would undo the draw of who starts.
    let r = takeback(addr, &id, o, &tokens[o], "offer").await;
    assert_eq!(r.status, 409, "{}", r.raw);
    assert!(r.err().message.contains("cannot undo chance"), "{}", r.raw);
    // Nothing to answer yet; an unknown op is a bad request.
    assert_eq!(
        takeback(addr, &id, o, &tokens[o], "accept").await.status,
        409
    );
    let r = takeback(addr, &id, o, &tokens[o], "maybe").await;
    assert_eq!(
        (r.status, r.code()),
        (400, Some("bad_request")),
        "{}",
        r.raw
    );

    assert_eq!(
        post_action(addr, &id, f, &tokens[f], "+1").await.status,
        200
    );
    let before = snap(addr, &id, f, &tokens[f]).await;
    assert_eq!(duel_view(&before).counter, 1, "{}", before.view);

    // Offer, a second offer refused, declined.
    assert_eq!(
        takeback(addr, &id, f, &tokens[f], "offer").await.status,
        200
    );
    let sn = snap(addr, &id, o, &tokens[o]).await;
    assert_eq!(
        sn.common.takeback_offer,
        Some(Offer {
            by: f as u8,
            accepted: vec![f as u8]
        })
    );
    let r = takeback(addr, &id, f, &tokens[f], "offer").await;
    assert_eq!(r.status, 409, "{}", r.raw);
    assert!(r.err().message.contains("already asked"), "{}", r.raw);
    assert_eq!(
        takeback(addr, &id, o, &tokens[o], "decline").await.status,
        200
    );
    let sn = snap(addr, &id, o, &tokens[o]).await;
    assert_eq!(sn.common.takeback_offer, None);
    assert_eq!(duel_view(&sn).counter, 1);
    assert_eq!(*event_kinds(&sn).last().unwrap(), "takeback_decline");

    // A move answers an offer: the game goes on from the new position.
    assert_eq!(
        takeback(addr, &id, f, &tokens[f], "offer").await.status,
        200
    );
    assert_eq!(
        post_action(addr, &id, o, &tokens[o], "+2").await.status,
        200
    );
    let sn = snap(addr, &id, o, &tokens[o]).await;
    assert_eq!(sn.common.takeback_offer, None);
    assert_eq!(duel_view(&sn).counter, 3);

    // Offer again and accept: the offerer's move and the reply after it are undone.
    let seq_before = sn.common.seq;
    assert_eq!(
        takeback(addr, &id, f, &tokens[f], "offer").await.status,
        200
    );
    let r = takeback(addr, &id, f, &tokens[f], "accept").await;
    assert_eq!(r.status, 409, "the offerer has accepted already: {}", r.raw);
    assert_eq!(
        takeback(addr, &id, o, &tokens[o], "accept").await.status,
        200
    );
    let sn = snap(addr, &id, f, &tokens[f]).await;
    assert_eq!(duel_view(&sn).counter, 0, "{}", sn.view);
    assert_eq!(sn.common.to_act, ToAct::Seat(Seat(f as u8)));
    assert_eq!(sn.common.takeback_offer, None);
    assert_eq!(sn.common.seq, seq_before + 3);
    // The log keeps every event: both undone moves are still there, then the takeback.
    let events = &sn.events;
    let adds = events
        .iter()
        .filter(|e| match &e.body {
            EventBody::Action {
                actor: Actor::Seat(_),
                notation,
                ..
            } => notation.as_deref().is_some_and(|n| n.starts_with('+')),
            _ => false,
        })
        .count();
    assert_eq!(adds, 2, "{events:?}");
    let chance_seq = events
        .iter()
        .rfind(|e| is_action_by(e, Actor::Chance))
        .unwrap()
        .seq;
    match events.last().unwrap().body {
        EventBody::Takeback { seat, to_seq } => {
            assert_eq!(seat as usize, f);
            assert_eq!(to_seq, chance_seq, "back to the position after chance");
        }
        ref other => panic!("not a takeback: {other:?}"),
    }
    let k = event_kinds(&sn);
    assert_eq!(
        &k[k.len() - 3..],
        ["takeback_offer", "takeback_accept", "takeback"]
    );
    // The spectator saw the takeback and the restored position.
    let upd = recv_game(&mut spec, |m| {
        m.events
            .iter()
            .any(|e| matches!(e.body, EventBody::Takeback { .. }))
    })
    .await;
    assert_eq!(duel_view(&upd).counter, 0);
    // The offerer plays on from there.
    assert_eq!(
        post_action(addr, &id, f, &tokens[f], "+2").await.status,
        200
    );
    assert_eq!(duel_view(&snap(addr, &id, o, &tokens[o]).await).counter, 2);
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
    let my_turn = |m: &Snap| !m.legal.is_empty();
    let before = recv_game(&mut me, my_turn).await;
    let r = takeback(addr, &id, 0, &token, "offer").await;
    assert_eq!(
        r.status, 409,
        "nothing to take back before the first move: {}",
        r.raw
    );
    assert!(r.err().message.contains("has not moved yet"), "{}", r.raw);

    let action = before.legal[0].action.clone();
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/action"),
        json!({"seat": 0, "token": token, "action": action}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // The AI replies.
    let replied = recv_game(&mut me, my_turn).await;
    assert_ne!(view_of(&replied), view_of(&before));
    let may_before = before.may.clone().unwrap();
    let may_replied = replied.may.clone().unwrap();
    assert!(may_before.hint, "a hint against the AI");
    assert!(!may_before.takeback, "{may_before:?}");
    assert!(may_replied.takeback, "{may_replied:?}");
    assert_eq!(may_replied.takeback_refusal, None);
    let moves = |m: &Snap| {
        m.events
            .iter()
            .filter(|e| {
                matches!(
                    e.body,
                    EventBody::Action {
                        actor: Actor::Seat(_),
                        ..
                    }
                )
            })
            .count()
    };

    let r = takeback(addr, &id, 0, &token, "offer").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let sn = snap(addr, &id, 0, &token).await;
    assert_eq!(
        view_of(&sn),
        view_of(&before),
        "the position before the move"
    );
    assert_eq!(sn.legal, before.legal);
    assert_eq!(sn.common.takeback_offer, None);
    let k = event_kinds(&sn);
    assert_eq!(
        &k[k.len() - 3..],
        ["takeback_offer", "takeback_accept", "takeback"]
    );
    assert_eq!(
        sn.events[sn.events.len() - 2].body,
        EventBody::TakebackAccept { seat: 1 }
    );
    let seen_moves = moves(&sn);

    // Play again (another move this time): the AI answers it.
    let other = before.legal.last().unwrap().action.clone();
    assert_eq!(
        post_as::<Committed>(
            addr,
            &format!("/api/games/{id}/action"),
            json!({"seat": 0, "token": token, "action": other}),
        )
        .await
        .status,
        200
    );
    let again = recv_game(&mut me, |m| my_turn(m) && m.common.seq > sn.common.seq).await;
    let snap2 = snap(addr, &id, 0, &token).await;
    assert!(moves(&snap2) >= seen_moves + 2, "the AI moved again");
    assert_ne!(view_of(&again), view_of(&before));
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
        let sn = snap(addr, &id, 0, &tokens[0]).await;
        let events = &sn.events;
        let last_mine = events
            .iter()
            .rposition(|e| is_action_by(e, Actor::Seat(Seat(0))));
        let chance_after =
            last_mine.is_some_and(|i| events[i..].iter().any(|e| is_action_by(e, Actor::Chance)));
        if chance_after {
            let r = takeback(addr, &id, 0, &tokens[0], "offer").await;
            assert_eq!((r.status, r.code()), (409, Some("conflict")), "{}", r.raw);
            let message = &r.err().message;
            assert!(message.contains("cannot undo chance"), "{message}");
            assert!(message.contains("dice roll"), "{message}");
            let after = snap(addr, &id, 0, &tokens[0]).await;
            assert_eq!(
                after.common.seq, sn.common.seq,
                "a refused takeback changes nothing"
            );
            assert_eq!(after.common.takeback_offer, None);
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
    assert_eq!(
        post_action(addr, &id, f, &tokens[f], "+2").await.status,
        200
    );
    assert_eq!(
        takeback(addr, &id, f, &tokens[f], "offer").await.status,
        200
    );
    assert_eq!(
        takeback(addr, &id, o, &tokens[o], "accept").await.status,
        200
    );
    assert_eq!(
        post_action(addr, &id, f, &tokens[f], "+1").await.status,
        200
    );
    let live = snap(addr, &id, o, &tokens[o]).await;
    server.shutdown().await.unwrap();

    let server = start(&dir).await;
    let addr = server.local_addr();
    let again = snap(addr, &id, o, &tokens[o]).await;
    assert_eq!(again.common.seq, live.common.seq, "seq after a restart");
    assert_eq!(view_of(&again), view_of(&live), "view after a restart");
    assert_eq!(again.legal, live.legal, "legal after a restart");
    assert_eq!(
        again.common.to_act, live.common.to_act,
        "to_act after a restart"
    );
    assert_eq!(again.events, live.events, "events after a restart");
    assert_eq!(
        again.common.takeback_offer, live.common.takeback_offer,
        "takeback_offer after a restart"
    );
    assert_eq!(duel_view(&again).counter, 1);
    // Positions: 2 secrets, the chance draw, the +1 (the +2 taken back is not one of them).
    let r = get_as::<Position>(addr, &format!("/api/games/{id}/view/4")).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let pos = r.ok();
    assert_eq!(pos.total, 4);
    assert_eq!(pos.last.unwrap().notation.as_deref(), Some("+1"));
    assert_eq!(duel(&pos.view).counter, 1);
    assert_eq!(
        get_as::<Position>(addr, &format!("/api/games/{id}/view/5"))
            .await
            .status,
        404
    );
    // Play to the end: the record holds the actions as they stand and verifies with the seed.
    let mut turn = o;
    loop {
        let r = post_action(addr, &id, turn, &tokens[turn], "+2").await;
        assert_eq!(r.status, 200, "{}", r.raw);
        if snap(addr, &id, 0, &tokens[0]).await.common.status == Status::Over {
            break;
        }
        turn = 1 - turn;
    }
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200, "{record}");
    let record: JsonRecord = decode(&record);
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
    assert_eq!(duel(&end.view(tabula_core::Observer::Spectator)).counter, 5);
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
    let sn = snap(addr, &id, 0, &tokens[0]).await;
    let may = sn.may.clone().unwrap();
    assert!(!may.takeback, "{may:?}");
    assert!(
        may.takeback_refusal
            .as_deref()
            .unwrap()
            .contains("has not moved yet"),
        "{may:?}"
    );
    assert!(may.draw_offer);
    assert!(!may.hint, "no hint between people");
    let r = get_as::<Snap>(addr, &format!("/api/games/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(r.ok().may, None, "a spectator may do nothing");

    // Seat 0's secret: its own notation for seat 0, hidden from seat 1.
    assert_eq!(
        post_action(addr, &id, 0, &tokens[0], "secret:amberword")
            .await
            .status,
        200
    );
    let sn = snap(addr, &id, 0, &tokens[0]).await;
    let mine = sn
        .events
        .iter()
        .rfind(|e| is_action_by(e, Actor::Seat(Seat(0))))
        .unwrap();
    assert!(
        matches!(
            &mine.body,
            EventBody::Action {
                notation: Some(_),
                ..
            }
        ),
        "seat 0 sees its move: {mine:?}"
    );
    let may = sn.may.clone().unwrap();
    assert!(!may.takeback, "{may:?}");
    let why = may.takeback_refusal.unwrap();
    assert!(why.contains("hidden information"), "{why}");
    let r = takeback(addr, &id, 0, &tokens[0], "offer").await;
    assert_eq!(r.status, 409, "{}", r.raw);
    assert_eq!(r.err().message, why, "the same words");

    // A pending draw offer: no second one from either seat.
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/draw"),
        json!({"seat": 1, "token": tokens[1], "op": "offer"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    for (seat, token) in tokens.iter().enumerate() {
        let may = snap(addr, &id, seat, token).await.may.unwrap();
        assert!(!may.draw_offer, "{may:?}");
    }
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
