//! Criterion benchmarks: random whole games (the target: ≥ 20,000 games per second on one
//! core), and the cost of move generation and determinization in a mid-game position.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use tabula_core::{Game, Seat, rng_from_seed, tools};
use territories::{Territories, TerritoriesOptions};

fn whole_games(c: &mut Criterion) {
    let start = Territories::new(&TerritoriesOptions::default()).unwrap();
    let mut group = c.benchmark_group("territories");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("random_game", |b| {
        b.iter(|| {
            seed += 1;
            let mut g = start.clone();
            let mut rng = rng_from_seed(seed);
            let r = tools::random_playout(&mut g, &mut rng, 1_000_000);
            black_box(r.actions)
        })
    });
    // A mid-game position: 400 random actions into a game.
    let mut mid = start.clone();
    tools::random_playout(&mut mid, &mut rng_from_seed(42), 400);
    let seat = mid.to_act().seats().first().copied().unwrap_or(Seat(0));
    group.bench_function("legal_actions_midgame", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            out.clear();
            mid.legal_actions(seat, &mut out);
            black_box(out.len())
        })
    });
    group.bench_function("determinize_midgame", |b| {
        let mut rng = rng_from_seed(7);
        b.iter(|| black_box(mid.determinize(Seat(0), &mut rng)))
    });
    group.finish();
}

criterion_group!(benches, whole_games);
criterion_main!(benches);
