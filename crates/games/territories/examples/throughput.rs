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
    println!(
        "{games} games ({finished} finished), {actions} actions ({:.0} per game), {secs:.3} s wall, {:.0} games/s wall",
        actions as f64 / games as f64,
        games as f64 / secs
    );
}
