//! The cost per evaluated node of Kyo's hand-written evaluation and of the learned one (the
//! features of the position and the net's forward pass, the accumulator computed afresh), on
//! positions of random games. Run with
//! `cargo bench -p tabula-ai --bench eval -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use kyo::{Kyo, KyoOptions};
use tabula_ai::Knowledge;
use tabula_ai::nnue;
use tabula_ai::nnue::train::{TrainSettings, init_net};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, rng_from_seed};

/// Turn starts of a few random games (the positions alpha-beta scores).
fn sample_positions() -> Vec<Kyo> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..8u64 {
        let mut g = Kyo::new(&KyoOptions::default()).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut i = 0;
        while g.outcome.is_none() && i < 600 {
            buf.clear();
            g.legal_actions(g.to_move, &mut buf);
            if g.turn.steps == 0 && i % 5 == 0 {
                out.push(g.clone());
            }
            let a = buf[rng.random_range(0..buf.len())];
            g.apply_trusted(Actor::Seat(g.to_move), &a);
            i += 1;
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let positions = sample_positions();
    let mut group = c.benchmark_group("kyo_eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("hand_written", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(p.evaluate());
            }
        })
    });
    // The default architecture of `tabula train net` (h1 32, h2 16); the weights' values do not
    // change the cost.
    let net = init_net(
        "kyo",
        Kyo::NNUE_FEATURES.unwrap(),
        &TrainSettings::default(),
    );
    let mut buf = Vec::new();
    group.bench_function("learned_32x16", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(nnue::evaluate(&net, p, &mut buf));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
