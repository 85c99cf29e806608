//! Real views of both Cyvasse games, as the server sends them, committed in
//! `web/tests/views/cyvasse-trump.json` and `web/tests/views/cyvasse-caird.json`: the web client's
//! tests read them through the generated declarations (`web/src/wire/cyvasse/`), so a view whose JSON
//! and declaration disagree fails there. This test fails when the committed samples are stale;
//! `TABULA_UPDATE_WIRE=1 cargo test -p cyvasse --test it view_samples` rewrites them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::caird::{self, BoardKind, CairdCyvasse, CairdOptions, Version};
use cyvasse::trump::{TrumpAction, TrumpCyvasse, TrumpOptions, citadel, fortress, phalanx};
use serde::Serialize;
use serde_json::{Map, Value};
use tabula_core::{Actor, Game, Observer, Seat};

const SOUTH: Seat = Seat(0);
const NORTH: Seat = Seat(1);

fn json(v: &impl Serialize) -> Value {
    serde_json::to_value(v).expect("a view serializes")
}

/// Plays `notation` for the seat to move.
fn play<G: Game>(g: &mut G, seat: Seat, notation: &str) {
    let a = g.parse_action(notation).unwrap();
    g.apply(Actor::Seat(seat), &a)
        .unwrap_or_else(|e| panic!("{notation}: {e}"));
}

/// Strength & Trump: the hidden setup (one army committed, seen by its seat and by the other), the
/// coin flip's phase, play, and a horse between its two legs.
fn trump_samples() -> Map<String, Value> {
    let mut out = Map::new();
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    out.insert("setup_start".into(), json(&g.view(Observer::Seat(SOUTH))));
    g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(phalanx(NORTH)))
        .unwrap();
    out.insert(
        "setup_own_army".into(),
        json(&g.view(Observer::Seat(NORTH))),
    );
    out.insert(
        "setup_other_army".into(),
        json(&g.view(Observer::Seat(SOUTH))),
    );
    let mut flip = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    flip.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(citadel(SOUTH)))
        .unwrap();
    flip.apply(Actor::Seat(NORTH), &TrumpAction::Setup(fortress(NORTH)))
        .unwrap();
    out.insert("first_player".into(), json(&flip.view(Observer::Spectator)));
    let options = TrumpOptions {
        second_leg_mandatory: true,
    };
    let mut horse = TrumpCyvasse::play_position(
        &options,
        &[("f1", "L"), ("k6", "K"), ("a1", "k"), ("c3", "M")],
        SOUTH,
    )
    .unwrap();
    out.insert("play".into(), json(&horse.view(Observer::Spectator)));
    play(&mut horse, SOUTH, "f1-f4");
    out.insert("cavalry".into(), json(&horse.view(Observer::Spectator)));
    out
}

/// Caird's rules: Basic on squares (setup, own plan committed, play), Expert with terrain, the
/// hexagon with the Dragon in reserve.
fn caird_samples() -> Map<String, Value> {
    let mut out = Map::new();
    let basic = CairdOptions::default();
    let mut g = CairdCyvasse::new(&basic).unwrap();
    out.insert(
        "basic_setup_start".into(),
        json(&g.view(Observer::Seat(SOUTH))),
    );
    let plan = caird::preset(&basic, 0, "phalanx").unwrap();
    g.apply(Actor::Seat(SOUTH), &caird::CairdAction::Setup(plan))
        .unwrap();
    out.insert(
        "basic_setup_own_plan".into(),
        json(&g.view(Observer::Seat(SOUTH))),
    );
    out.insert(
        "basic_setup_other_plan".into(),
        json(&g.view(Observer::Seat(NORTH))),
    );
    let plan = caird::preset(&basic, 1, "vanguard").unwrap();
    g.apply(Actor::Seat(NORTH), &caird::CairdAction::Setup(plan))
        .unwrap();
    out.insert("basic_play".into(), json(&g.view(Observer::Spectator)));
    let expert = CairdOptions {
        version: Version::Expert,
        castle_storming: true,
        ..Default::default()
    };
    let mut e = CairdCyvasse::new(&expert).unwrap();
    for (seat, name) in [(0, "flanks"), (1, "phalanx")] {
        let plan = caird::preset(&expert, seat, name).unwrap();
        e.apply(
            Actor::Seat(Seat::new(seat)),
            &caird::CairdAction::Setup(plan),
        )
        .unwrap();
    }
    out.insert("expert_play".into(), json(&e.view(Observer::Seat(NORTH))));
    let hex = CairdOptions {
        board: BoardKind::Hex,
        dragon_reserve: true,
        ..Default::default()
    };
    let mut h = CairdCyvasse::new(&hex).unwrap();
    for (seat, name) in [(0, "phalanx"), (1, "flanks")] {
        let plan = caird::preset(&hex, seat, name).unwrap();
        h.apply(
            Actor::Seat(Seat::new(seat)),
            &caird::CairdAction::Setup(plan),
        )
        .unwrap();
    }
    out.insert(
        "hex_dragon_reserve".into(),
        json(&h.view(Observer::Seat(SOUTH))),
    );
    out
}

fn check(file: &str, samples: Map<String, Value>) {
    if let Err(e) = tabula_core::wire::check_view_samples(file, samples, "cyvasse") {
        panic!("{e}");
    }
}

#[test]
fn committed_trump_view_samples_are_fresh() {
    check("cyvasse-trump.json", trump_samples());
}

#[test]
fn committed_caird_view_samples_are_fresh() {
    check("cyvasse-caird.json", caird_samples());
}
