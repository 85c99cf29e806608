//! Plays random whole games and prints the count, actions and wall time; run under `/usr/bin/time`
//! to get CPU time on a loaded machine:
//! `cargo run --release -p territories --example throughput -- 2000`.
use tabula_core::{Game, rng_from_seed, tools};
use territories::{Territories, TerritoriesOptions};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let Ok(start) = Territories::new(&TerritoriesOptions::default()) else {
        return;
    };
    let t = std::time::Instant::now();
    let mut actions = 0;
    let mut finished = 0;
    for seed in 0..games {
        let mut g = start.clone();
        let r = tools::random_playout(&mut g, &mut rng_from_seed(seed), 1_000_000);
        actions += r.actions;
        finished += u64::from(r.outcome.is_some());
    }
    let secs = t.elapsed().as_secs_f64();
    if std::env::args().any(|a| a == "--kinds") {
        // Which kinds of actions random games are made of.
        let mut kinds = std::collections::BTreeMap::<String, u64>::new();
        for seed in 0..games.min(200) {
            let mut g = start.clone();
            let mut rng = rng_from_seed(seed);
            while g.to_act().outcome().is_none() {
                let before = g.clone();
                tools::random_playout(&mut g, &mut rng, 1);
                if let Some(last) = diff_kind(&before, &g) {
                    *kinds.entry(last).or_default() += 1;
                }
            }
        }
        for (k, n) in kinds {
            println!("{k:>12} {n}");
        }
    }
    println!(
        "{games} games ({finished} finished), {actions} actions ({:.0} per game), {secs:.3} s wall, {:.0} games/s wall",
        actions as f64 / games as f64,
        games as f64 / secs
    );
}

/// The phase an action was taken in (a cheap stand-in for the action's kind).
fn diff_kind(before: &Territories, _after: &Territories) -> Option<String> {
    let json = serde_json::to_value(&before.phase).ok()?;
    let mut kind = json.get("phase")?.as_str()?.to_string();
    if kind == "main" && before.offer.is_some() {
        kind = "main_offer".into();
    }
    Some(kind)
}
