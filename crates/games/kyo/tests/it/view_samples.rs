//! Real views of Kyo, as the server sends them, committed in `web/tests/views/kyo.json`: the web
//! client's tests read them through the generated declarations (`web/src/wire/kyo/`), so a view whose
//! JSON and declaration disagree fails there. This test fails when the committed samples are stale;
//! `TABULA_UPDATE_WIRE=1 cargo test -p kyo --test it view_samples` rewrites them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::*;
use kyo::{Kyo, KyoOptions, LightPawnRows};
use serde_json::{Map, Value, json};
use tabula_core::{Game, Observer, Outcome, Seat};

fn view(g: &Kyo) -> Value {
    serde_json::to_value(g.view(Observer::Spectator)).expect("a view serializes")
}

/// The samples: the start, a turn in progress (an active pawn after Mana moves, squares visited,
/// earlier positions of the turn) and the same position with an outcome (set by hand: the form of a
/// finished game's view).
fn samples() -> Map<String, Value> {
    let mut out = Map::new();
    out.insert(
        "start".into(),
        view(&Kyo::new(&KyoOptions::default()).unwrap()),
    );
    let options = KyoOptions {
        light_pawn_rows: LightPawnRows::OpenField,
        extra_pieces: true,
    };
    out.insert(
        "start_extra_pieces".into(),
        view(&Kyo::new(&options).unwrap()),
    );
    let mut g: Kyo = serde_json::from_value(json!({
        "options": {"light_pawn_rows": "trench", "extra_pieces": false},
        "board": {"A0": "DK", "C4": "DdLH", "E1": "SST", "J9": "dk", "F6": "sl"},
        "to_move": 0
    }))
    .unwrap();
    play(&mut g, "C4>C5");
    out.insert("mid_turn".into(), view(&g));
    let mut over = g.clone();
    over.outcome = Some(Outcome::winners(2, &[Seat(0)], "no Mana left"));
    out.insert("over".into(), view(&over));
    out
}

#[test]
fn committed_view_samples_are_fresh() {
    if let Err(e) = tabula_core::wire::check_view_samples("kyo.json", samples(), "kyo") {
        panic!("{e}");
    }
}
