//! The documented JSON state format: hand-written states load, inconsistent ones are refused with a
//! clear message; actions in JSON.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::*;
use kyo::{Action, Kyo, KyoOptions};
use serde_json::json;
use tabula_core::dynamic::kind;
use tabula_core::{Actor, Game, Observer, Seat};

fn load(v: serde_json::Value) -> Result<(), String> {
    kind::<Kyo>()
        .load_state(&v)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn base() -> serde_json::Value {
    json!({
        "options": {"light_pawn_rows": "trench", "extra_pieces": false},
        "board": {"A0": "DK", "C4": "DdLH", "E1": "SST", "J9": "dk", "F6": "sl"},
        "to_move": 0
    })
}

/// The documented example of a hand-written state loads, validates and can be played.
#[test]
fn hand_written_state_loads_and_plays() {
    let v = base();
    load(v.clone()).unwrap();
    let g: Kyo = serde_json::from_value(v).unwrap();
    assert_eq!(at(&g, "C4"), "DdLH");
    assert!(legal_from(&g, "C4").contains(&"C4>C5".to_string()));
    // The state printed by `new` reads back identically.
    let start = Kyo::new(&KyoOptions::default()).unwrap();
    let text = serde_json::to_string_pretty(&start).unwrap();
    let back: Kyo = serde_json::from_str(&text).unwrap();
    assert_eq!(back, start);
    assert!(text.contains("\"E0\": \"SSSK\""));
}

/// validate() refuses inconsistent states, naming the problem.
#[test]
fn inconsistent_states_are_refused_with_a_clear_message() {
    let cases: Vec<(serde_json::Value, &str)> = vec![
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C4": "DDDDDDDDDDDDDD"}, "to_move": 0}),
            "Dark Mana",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "d"}, "to_move": 0}),
            "no King",
        ),
        (
            json!({"options": {}, "board": {"A0": "SK", "J9": "dk"}, "to_move": 0}),
            "no Mana",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C4": "N"}, "to_move": 0}),
            "extra_pieces",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C4": "DX"}, "to_move": 0}),
            "neither a chip",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C4": "HD"}, "to_move": 0}),
            "last (top) letter",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "K4": "D"}, "to_move": 0}),
            "not a square",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk"}, "to_move": 2}),
            "seats 0",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk"}, "to_move": 0, "quiet_turns": 100}),
            "quiet_turns",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk"}, "to_move": 0,
                   "turn": {"steps": 1, "active": "C4", "phase": "chain", "mana": "N", "carried": 0,
                            "visited": ["C3", "C4"]}}),
            "no pawn of the side to move",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C4": "DH"}, "to_move": 0,
                   "turn": {"steps": 0, "phase": "chain"}}),
            "fresh",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C4": "DP"}, "to_move": 0,
                   "turn": {"steps": 1, "active": "C4", "phase": "chain", "mana": "N", "carried": 0,
                            "visited": ["C3", "C4"]}}),
            "Mana moves",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C5": "DH", "C4": "D"}, "to_move": 0,
                   "turn": {"steps": 1, "active": "C5", "phase": "chain", "mana": "N", "carried": 0,
                            "lifted": 1, "visited": ["C4", "C5"]}}),
            "lifted needs carried and is at most carried",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk", "C5": "DH", "C4": "D"}, "to_move": 0,
                   "turn": {"steps": 1, "active": "C5", "phase": "chain", "mana": "N", "carried": 0,
                            "lifted": 0, "visited": ["C4", "C5"], "positions": [1, 2]}}),
            "earlier positions for 1 actions (at most one per action)",
        ),
        (
            json!({"options": {}, "board": {"A0": "DK", "J9": "dk"}, "to_move": 0, "colour": 1}),
            "unknown field",
        ),
        (
            json!({"options": {"light_pawn_rows": "moat"}, "board": {"A0": "DK", "J9": "dk"}, "to_move": 0}),
            "unknown variant",
        ),
        (
            json!({"options": {}, "board": {"A0": "K", "A1": "s", "B1": "s", "B0": "s", "J9": "dk", "C5": "Dd"},
                   "to_move": 0}),
            "no legal action",
        ),
    ];
    for (v, want) in cases {
        let e = load(v.clone()).expect_err(&format!("accepted {v}"));
        assert!(e.contains(want), "for {v}: `{e}` lacks `{want}`");
    }
}

/// A state in the middle of a turn (after a Mana move) round-trips and continues correctly.
#[test]
fn mid_turn_state_round_trips() {
    let mut g = pos(&[("C4", "DH"), ("C5", "D")], 0);
    play(&mut g, "C4/1>C5");
    let v = serde_json::to_value(&g).unwrap();
    assert_eq!(v["turn"]["phase"], "chain");
    assert_eq!(v["turn"]["mana"], "N");
    assert_eq!(v["turn"]["visited"], json!(["C4", "C5"]));
    assert_eq!(v["turn"]["lifted"], 0);
    let start = pos(&[("C4", "DH"), ("C5", "D")], 0).board.hash();
    assert_eq!(v["turn"]["positions"], json!([start]));
    assert!(start < 1 << 53, "a JSON number keeps it exactly");
    load(v.clone()).unwrap();
    let back: Kyo = serde_json::from_value(v).unwrap();
    assert_eq!(back, g);
    assert_eq!(legal_from(&back, "C5"), vec!["C5/1>C6".to_string()]);
}

/// Actions in JSON: the documented forms parse, and bad JSON is a malformed-action error.
#[test]
fn actions_in_json() {
    let g = Kyo::new(&KyoOptions::default()).unwrap();
    let a: Action = serde_json::from_value(
        json!({"step": {"from": "D0", "to": "C1", "pawn": true, "chips": 2}}),
    )
    .unwrap();
    assert_eq!(g.action_notation(&a), "D0/1>C1");
    let d: Action =
        serde_json::from_value(json!({"deploy": {"from": "E1", "to": "E2", "count": 1}})).unwrap();
    assert_eq!(g.action_notation(&d), "E1*E2");
    let s: Action =
        serde_json::from_value(json!({"shuffle": {"at": "F0", "order": "LDS"}})).unwrap();
    assert_eq!(g.action_notation(&s), "F0~LDS");
    let e: Action = serde_json::from_value(json!("end_turn")).unwrap();
    assert_eq!(e, Action::EndTurn);
    let mut st = kind::<Kyo>().new_state(&json!({})).unwrap();
    assert!(
        st.apply(Actor::Seat(Seat(0)), &json!({"step": {"from": "Z0"}}))
            .is_err()
    );
    st.apply(Actor::Seat(Seat(0)), &serde_json::to_value(a).unwrap())
        .unwrap();
    assert_eq!(
        st.parse_action("C1/1>B2").unwrap(),
        json!({"step": {"from": "C1", "to": "B2", "pawn": true, "chips": 1}})
    );
}

/// The terminal drawing shows every stack, the side to move and the turn state.
#[test]
fn render_text_shows_the_position() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    let t = g.render_text(Observer::Spectator);
    assert!(t.contains("DDDH") && t.contains("sssk") && t.contains("Gold to move"));
    play(&mut g, "D0/1>C1");
    let t = g.render_text(Observer::Seat(Seat(1)));
    assert!(t.contains("C1") && t.contains("Mana chain"), "{t}");
    let tall = pos(&[("C4", "DDDDDDDDH")], 0);
    assert!(
        tall.render_text(Observer::Spectator)
            .contains("C4: DDDDDDDDH")
    );
}
