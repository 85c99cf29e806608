//! Real analyses and hints, as the server passes them to clients, committed as
//! `web/tests/views/analysis.json`: the web client's `wire-views` test reads each through the generated
//! declarations (`web/src/wire/ai/`). Regenerate with
//! `TABULA_UPDATE_WIRE=1 cargo test -p tabula-ai --test it view_samples`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{blunder, king_en_prise};
use cyvasse::trump::{TrumpCyvasse, TrumpOptions};
use serde_json::{Map, Value};
use tabula_ai::analysis::{AnalysisConfig, analyse_from, hint};
use tabula_core::{Game, Seat};

const CFG: AnalysisConfig = AnalysisConfig {
    iterations: 300,
    estimate_iterations: 200,
    seed: 11,
};

fn samples() -> Map<String, Value> {
    // Gold's Heavy stands next to Red's King; Gold walks away instead of taking it (a blunder, with
    // the engine's preferred move), and Red answers.
    let k = king_en_prise();
    let actions = blunder(&k).actions;
    let analysis = analyse_from(k.clone(), &actions, &CFG, &mut |_, _| {}).unwrap();
    let mut out = Map::new();
    out.insert("analysis".into(), serde_json::to_value(&analysis).unwrap());
    out.insert(
        "hint".into(),
        serde_json::to_value(hint(&k, Seat(0), 200, 1).unwrap()).unwrap(),
    );
    // A hidden setup's hint comes from the setup policy: no estimate.
    let setup = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    out.insert(
        "hint_setup".into(),
        serde_json::to_value(hint(&setup, Seat(0), 200, 1).unwrap()).unwrap(),
    );
    out
}

#[test]
fn committed_analysis_samples_are_fresh() {
    if let Err(e) = tabula_core::wire::check_view_samples("analysis.json", samples(), "tabula-ai") {
        panic!("{e}");
    }
}
