//! The cost per evaluated node of Kyo's hand-written evaluation and of the learned one, computed
//! afresh (the position's features and the net's forward pass) and incrementally as level 6's
//! search does (the accumulators updated from the parent's by the features the action changed,
//! then the small layers), on the states of random games. Run with
//! `cargo bench -p tabula-ai --bench eval -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use kyo::{Kyo, KyoOptions};
use tabula_ai::Knowledge;
use tabula_ai::alphabeta::LeafEval;
use tabula_ai::nnue;
use tabula_ai::nnue::train::{TrainSettings, init_net};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, rng_from_seed};

/// The states of a few random games, each game's in order (every state is its predecessor after
/// one action: a path as a search walks it).
fn sample_games() -> Vec<Vec<Kyo>> {
    let mut games = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..8u64 {
        let mut g = Kyo::new(&KyoOptions::default()).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut states = vec![g.clone()];
        while g.outcome.is_none() && states.len() < 600 {
            buf.clear();
            g.legal_actions(g.to_move, &mut buf);
            let a = buf[rng.random_range(0..buf.len())];
            g.apply_trusted(Actor::Seat(g.to_move), &a);
            if g.outcome.is_none() {
                states.push(g.clone());
            }
        }
        games.push(states);
    }
    games
}

fn bench(c: &mut Criterion) {
    let games = sample_games();
    let positions: Vec<&Kyo> = games.iter().flatten().collect();
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
    group.bench_function("learned_32x16_afresh", |b| {
        b.iter(|| {
            for p in &positions {
                black_box(nnue::evaluate(&net, *p, &mut buf));
            }
        })
    });
    // Each game's first state computed afresh (about one in 600), every other one from its
    // predecessor: the update and the evaluation, per state.
    let mut eval = nnue::LearnedEval::new(&net);
    group.bench_function("learned_32x16_incremental", |b| {
        b.iter(|| {
            for states in &games {
                eval.root(&states[0]);
                black_box(eval.evaluate(0, &states[0]));
                for (i, w) in states.windows(2).enumerate() {
                    let ply = i as u32;
                    eval.enter(ply, &w[0], &w[1]);
                    black_box(eval.evaluate(ply + 1, &w[1]));
                }
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
