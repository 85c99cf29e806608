//! A real view of Syba, as the server sends it, committed in `web/tests/views/syba.json`: the web
//! client's tests read it through the generated declarations (`web/src/wire/syba/`), so a view whose
//! JSON and declaration disagree fails there. This test fails when the committed sample is stale;
//! `TABULA_UPDATE_WIRE=1 cargo test -p syba --test it view_samples` rewrites it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Map, Value};
use syba::{Syba, SybaOptions};
use tabula_core::tools::random_playout;
use tabula_core::{Game, Observer, Seat, rng_from_seed};

fn len(v: &Value) -> usize {
    v.as_array().map_or(0, Vec::len)
}

/// The sample: seat 0's view (with its own starting city's texts) of a seeded random game, at the
/// first position with a past battle, a pending decision and several units on the map, so that every
/// optional part the renderer draws is there.
fn samples() -> Map<String, Value> {
    let mut g = Syba::new(&SybaOptions::default()).unwrap();
    let mut rng = rng_from_seed(1);
    let mut out = Map::new();
    for _ in 0..20_000 {
        let v = serde_json::to_value(g.view(Observer::Seat(Seat(0)))).expect("a view serializes");
        let st = &v["state"];
        if !st["last_battle"].is_null() && len(&st["stack"]) > 0 && len(&st["units"]) >= 4 {
            out.insert("mid_game".into(), v);
            return out;
        }
        assert_eq!(
            random_playout(&mut g, &mut rng, 1).actions,
            1,
            "the game went on"
        );
    }
    panic!("no position with a past battle and a pending decision in the seeded game");
}

#[test]
fn committed_view_samples_are_fresh() {
    if let Err(e) = tabula_core::wire::check_view_samples("syba.json", samples(), "syba") {
        panic!("{e}");
    }
}
