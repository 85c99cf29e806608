//! Benchmarks of Caird's Cyvasse: perft from fixed preset setups and random playouts from random
//! setups, for Basic 8x8, Expert 8x8, Expert 10x10 and Hex.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group};
use cyvasse::caird::{BoardKind, CairdCyvasse, CairdOptions, Version};
use std::hint::black_box;
use tabula_core::{Game, rng_from_seed, tools};

fn variants() -> Vec<(&'static str, CairdOptions, u32)> {
    let expert = CairdOptions {
        version: Version::Expert,
        ..Default::default()
    };
    vec![
        ("basic8", CairdOptions::default(), 3),
        ("expert8", expert.clone(), 3),
        (
            "expert10",
            CairdOptions {
                large_board: true,
                ..expert
            },
            3,
        ),
        (
            "hex_basic",
            CairdOptions {
                board: BoardKind::Hex,
                ..Default::default()
            },
            3,
        ),
        (
            "hex_expert",
            CairdOptions {
                board: BoardKind::Hex,
                version: Version::Expert,
                ..Default::default()
            },
            3,
        ),
    ]
}

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("caird_perft");
    for (name, o, depth) in variants() {
        let g = CairdCyvasse::from_presets(&o, "phalanx", "vanguard").unwrap();
        let nodes = tools::perft(&g, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}_d{depth}"), |b| {
            b.iter(|| tools::perft(black_box(&g), depth))
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("caird_playout");
    group.throughput(Throughput::Elements(1));
    for (name, o, _) in variants() {
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let mut g = CairdCyvasse::new(&o).unwrap();
                let mut rng = rng_from_seed(seed);
                tools::random_playout(&mut g, &mut rng, 100_000)
            })
        });
    }
    group.finish();
}

/// CPU time of this thread in seconds (from /proc; the machine is shared, so wall time overstates).
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Throughput per CPU second (printed after the criterion runs): perft nodes/s and playouts/s.
fn cpu_report() {
    println!(
        "\nCPU-time throughput (one thread; wall-clock figures above include waiting for a core):"
    );
    for (name, o, depth) in variants() {
        let g = CairdCyvasse::from_presets(&o, "phalanx", "vanguard").unwrap();
        let (Some(t0), mut nodes) = (cpu_seconds(), 0u64) else {
            return;
        };
        let mut t = t0;
        while t - t0 < 2.0 {
            nodes += tools::perft(black_box(&g), depth);
            t = cpu_seconds().unwrap_or(t0 + 10.0);
        }
        let perft_rate = nodes as f64 / (t - t0);
        let mut games = 0u64;
        let mut plies = 0u64;
        let t0 = t;
        while t - t0 < 2.0 {
            games += 1;
            let mut g = CairdCyvasse::new(&o).unwrap();
            let mut rng = rng_from_seed(games);
            plies += tools::random_playout(&mut g, &mut rng, 100_000).actions;
            t = cpu_seconds().unwrap_or(t0 + 10.0);
        }
        println!(
            "{name:>10}: perft d{depth} {:.2} M nodes/s; random playouts {:.0}/s ({:.0} actions per game, {:.2} M actions/s)",
            perft_rate / 1e6,
            games as f64 / (t - t0),
            plies as f64 / games as f64,
            plies as f64 / (t - t0) / 1e6
        );
    }
}

criterion_group!(benches, perft, playouts);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    if std::env::args().any(|a| a == "--bench") {
        cpu_report();
    }
}
