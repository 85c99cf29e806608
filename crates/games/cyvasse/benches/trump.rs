//! Benchmarks of Strength & Trump Cyvasse: legal action generation, perft and random playouts.
//!
//! Run: `cargo bench -p cyvasse --bench trump -- --warm-up-time 1 --measurement-time 3`
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use cyvasse::trump::{TrumpAction, TrumpCyvasse, TrumpOptions, fortress, random_setup, vanguard};
use tabula_core::{Actor, Game, Seat, ToAct, rng_from_seed, tools};

/// CPU time consumed so far by this thread, from `/proc/thread-self/schedstat` (nanoseconds on the
/// CPU). The machine the benchmarks run on is shared, so wall-clock time overstates the cost;
/// [`cpu_report`] also measures thread CPU time over long batches (falling back to wall-clock time
/// where `/proc` is unavailable).
fn cpu_now() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Runs `f` `iters` times and returns the thread CPU time it took (wall-clock time as a fallback).
fn cpu_time(iters: u64, mut f: impl FnMut()) -> Duration {
    let (c0, w0) = (cpu_now(), Instant::now());
    for _ in 0..iters {
        f();
    }
    match (c0, cpu_now()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => w0.elapsed(),
    }
}

/// Both armies set up (fortress vs vanguard): the position after the hidden setup.
fn opening() -> TrumpCyvasse {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    g.apply(Actor::Seat(Seat(0)), &TrumpAction::Setup(fortress(Seat(0))))
        .unwrap();
    g.apply(Actor::Seat(Seat(1)), &TrumpAction::Setup(vanguard(Seat(1))))
        .unwrap();
    g
}

/// A middle-game position: 30 random plies from the opening (the first seed whose game lasts).
fn middle_game() -> TrumpCyvasse {
    (0..1000u64)
        .map(|seed| {
            let mut g = opening();
            tools::random_playout(&mut g, &mut rng_from_seed(seed), 30);
            g
        })
        .find(|g| !matches!(g.to_act(), ToAct::Over(_)))
        .unwrap()
}

fn random_game(seed: u64) -> u64 {
    let mut rng = rng_from_seed(seed);
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    g.apply_trusted(
        Actor::Seat(Seat(0)),
        &TrumpAction::Setup(random_setup(Seat(0), &mut rng)),
    );
    g.apply_trusted(
        Actor::Seat(Seat(1)),
        &TrumpAction::Setup(random_setup(Seat(1), &mut rng)),
    );
    tools::random_playout(&mut g, &mut rng, 100_000).actions
}

/// Prints perft leaves and playouts per second of thread CPU time, over batches long enough for
/// `/proc/thread-self/schedstat` to be exact.
fn cpu_report() {
    let g = opening();
    let mut leaves = 0;
    let perft = cpu_time(20, || leaves += black_box(tools::perft(&g, 3)));
    let mut actions = 0;
    let mut seed = 1_000_000;
    let games = 2000;
    let playouts = cpu_time(games, || {
        seed += 1;
        actions += black_box(random_game(seed));
    });
    println!(
        "cpu time: perft(3) from the opening {:.1} M leaves/s; random games (random setups) \
         {:.0} playouts/s, {:.0} actions per game, {:.2} M actions/s",
        leaves as f64 / perft.as_secs_f64() / 1e6,
        games as f64 / playouts.as_secs_f64(),
        actions as f64 / games as f64,
        actions as f64 / playouts.as_secs_f64() / 1e6,
    );
}

fn bench(c: &mut Criterion) {
    cpu_report();
    let positions = [("opening", opening()), ("middle_game", middle_game())];
    let mut group = c.benchmark_group("trump_legal_actions");
    for (name, g) in &positions {
        let seat = g.side_to_move();
        let mut out = Vec::with_capacity(256);
        g.legal_actions(seat, &mut out);
        group.throughput(Throughput::Elements(out.len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| {
                out.clear();
                black_box(g).legal_actions(seat, &mut out);
                black_box(out.len())
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("trump_perft");
    let g = opening();
    let nodes = tools::perft(&g, 3);
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function("opening_depth_3", |b| {
        b.iter(|| black_box(tools::perft(black_box(&g), 3)))
    });
    group.finish();

    let mut group = c.benchmark_group("trump_playouts");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("random_setup_to_end", |b| {
        b.iter(|| {
            seed += 1;
            black_box(random_game(seed))
        })
    });
    let start = opening();
    group.bench_function("from_opening", |b| {
        b.iter(|| {
            seed += 1;
            let mut rng = rng_from_seed(seed);
            let mut g = start.clone();
            black_box(tools::random_playout(&mut g, &mut rng, 100_000))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
