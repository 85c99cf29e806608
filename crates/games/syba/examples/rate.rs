#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Random 4-player games per second of CPU time, for measuring on a busy machine:
//! `/usr/bin/time -f '%U s user' cargo run --release -p syba --example rate -- 2000 10`
//! plays 2000 random games with `max_rounds=10` and prints the games and actions played; divide
//! the games by the user CPU seconds that `time` reports (start-up is a few milliseconds).

use syba::{Syba, SybaOptions};
use tabula_core::{Game, rng_from_seed, tools};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let rounds: u16 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let start = std::time::Instant::now();
    let mut actions = 0u64;
    for seed in 0..games {
        let mut g = Syba::new(&SybaOptions {
            players: 4,
            max_rounds: rounds,
            ..SybaOptions::default()
        })
        .unwrap();
        let mut rng = rng_from_seed(seed);
        let r = tools::random_playout(&mut g, &mut rng, 10_000_000);
        assert!(r.outcome.is_some(), "every game ends by the round cap");
        actions += r.actions;
    }
    let wall = start.elapsed().as_secs_f64();
    println!(
        "{games} games, max_rounds={rounds}: {} actions per game; wall {wall:.2} s ({:.0} games/s wall)",
        actions / games.max(1),
        games as f64 / wall
    );
}
