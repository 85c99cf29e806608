//! Kyo benchmarks: legal action generation (actions generated per second) and random whole games per
//! second. Run with
//! `CARGO_TARGET_DIR=/work/target-kyo cargo bench -p kyo --bench kyo -- --warm-up-time 1 --measurement-time 3`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group};
use kyo::{Kyo, KyoOptions};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, rng_from_seed, tools};

/// Positions met in random games (every 7th turn-start or mid-turn state of a few games).
fn sample_positions(options: &KyoOptions) -> Vec<Kyo> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for seed in 0..8u64 {
        let mut g = Kyo::new(options).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut i = 0;
        while g.outcome.is_none() && i < 2_000 {
            buf.clear();
            g.legal_actions(g.to_move, &mut buf);
            if i % 7 == 0 {
                out.push(g.clone());
            }
            let a = buf[rng.random_range(0..buf.len())];
            g.apply_trusted(Actor::Seat(g.to_move), &a);
            i += 1;
        }
    }
    out
}

fn count_actions(positions: &[Kyo], buf: &mut Vec<kyo::Action>) -> u64 {
    let mut n = 0;
    for g in positions {
        buf.clear();
        g.legal_actions(g.to_move, buf);
        n += buf.len() as u64;
    }
    n
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("kyo/legal_actions");
    let mut buf = Vec::new();
    for (name, options) in [
        ("start", KyoOptions::default()),
        (
            "start_extra_pieces",
            KyoOptions {
                extra_pieces: true,
                ..KyoOptions::default()
            },
        ),
    ] {
        let start = vec![Kyo::new(&options).unwrap()];
        let n = count_actions(&start, &mut buf);
        group.throughput(Throughput::Elements(n));
        group.bench_function(name, |b| {
            b.iter(|| black_box(count_actions(black_box(&start), &mut buf)))
        });
    }
    let positions = sample_positions(&KyoOptions::default());
    let n = count_actions(&positions, &mut buf);
    group.throughput(Throughput::Elements(n));
    group.bench_function("random_game_positions", |b| {
        b.iter(|| black_box(count_actions(black_box(&positions), &mut buf)))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("kyo/random_game");
    group.throughput(Throughput::Elements(1));
    for (name, options) in [
        ("default", KyoOptions::default()),
        (
            "extra_pieces",
            KyoOptions {
                extra_pieces: true,
                ..KyoOptions::default()
            },
        ),
    ] {
        let start = Kyo::new(&options).unwrap();
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut g = start.clone();
                let mut rng = rng_from_seed(seed);
                let r = tools::random_playout(&mut g, &mut rng, 100_000);
                black_box(r.actions)
            })
        });
    }
    group.finish();
}

/// Nanoseconds this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`), so that figures
/// can be given per CPU-second even on a loaded machine.
fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Prints actions generated and random games played per CPU-second of this thread.
fn cpu_time_report() {
    let options = KyoOptions::default();
    let positions = sample_positions(&options);
    let mut buf = Vec::new();
    let (Some(t0), w0) = (thread_cpu_ns(), std::time::Instant::now()) else {
        return;
    };
    let mut actions = 0u64;
    for _ in 0..200 {
        actions += count_actions(black_box(&positions), &mut buf);
    }
    let (Some(t1), w1) = (thread_cpu_ns(), std::time::Instant::now()) else {
        return;
    };
    let start = Kyo::new(&options).unwrap();
    let mut games = 0u64;
    let mut game_actions = 0u64;
    for seed in 0..400u64 {
        let mut g = start.clone();
        let mut rng = rng_from_seed(seed);
        game_actions += tools::random_playout(&mut g, &mut rng, 100_000).actions;
        games += 1;
    }
    let (Some(t2), w2) = (thread_cpu_ns(), std::time::Instant::now()) else {
        return;
    };
    let per_s = |n: u64, ns: u64| n as f64 / (ns.max(1) as f64 / 1e9);
    println!(
        "cpu-time report: {:.2} M actions generated per CPU-second ({:.2} M per wall second); \
         {:.0} random games per CPU-second ({:.0} per wall second; {:.0} actions per game)",
        per_s(actions, t1 - t0) / 1e6,
        per_s(actions, (w1 - w0).as_nanos() as u64) / 1e6,
        per_s(games, t2 - t1),
        per_s(games, (w2 - w1).as_nanos() as u64),
        game_actions as f64 / games as f64,
    );
}

criterion_group!(benches, generation, games);

fn main() {
    cpu_time_report();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
