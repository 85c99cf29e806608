#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Random 4-player games per second, with a round cap (`max_rounds`).

use criterion::{Criterion, criterion_group, criterion_main};
use syba::{Syba, SybaOptions};
use tabula_core::{Game, rng_from_seed, tools};

fn play(rounds: u16, seed: u64) -> u64 {
    let mut g = Syba::new(&SybaOptions {
        players: 4,
        max_rounds: rounds,
        ..SybaOptions::default()
    })
    .unwrap();
    let mut rng = rng_from_seed(seed);
    let r = tools::random_playout(&mut g, &mut rng, 10_000_000);
    assert!(r.outcome.is_some());
    r.actions
}

fn bench(c: &mut Criterion) {
    for rounds in [10u16, 60] {
        let mut seed = 0u64;
        c.bench_function(&format!("random 4-player game, max_rounds={rounds}"), |b| {
            b.iter(|| {
                seed += 1;
                play(rounds, seed)
            })
        });
    }
    // Actions per game, for the notes.
    for rounds in [10u16, 60] {
        let total: u64 = (0..20).map(|s| play(rounds, 1000 + s)).sum();
        println!(
            "max_rounds={rounds}: {} actions per game on average",
            total / 20
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
