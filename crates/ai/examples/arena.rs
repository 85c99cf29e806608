//! A tournament runner without the `tabula` binary's server dependencies (same engine as
//! `tabula tournament`): `cargo run --release -p tabula-ai --example arena -- GAME AGENTS GAMES
//! [TIME_MS] [OPTION=VALUE...]` prints each pair's results with the score's 95% interval and Elo;
//! `arena bench [SECONDS]` prints `tabula bench`'s figures for every game as JSON lines.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use tabula_ai::AgentSpec;
use tabula_ai::tournament::{self, TournamentConfig};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
        for game in tabula_ai::supported_games() {
            let r = tournament::bench(game, &serde_json::Value::Null, seconds).expect("bench");
            println!("{}", serde_json::to_string(&r).expect("json"));
        }
        return;
    }
    if args.len() < 3 {
        eprintln!("usage: arena GAME AGENT,AGENT[,...] GAMES [TIME_MS|-] [NAME=VALUE...]");
        std::process::exit(2);
    }
    let time = args
        .get(3)
        .and_then(|t| t.parse::<u64>().ok())
        .map(Duration::from_millis);
    let mut options = serde_json::Map::new();
    for pair in args.iter().skip(4) {
        let (k, v) = pair.split_once('=').expect("options are NAME=VALUE");
        let value = serde_json::from_str(v).unwrap_or(serde_json::Value::String(v.to_string()));
        options.insert(k.to_string(), value);
    }
    let agents: Vec<AgentSpec> = args[1]
        .split(',')
        .map(|a| {
            let s: AgentSpec = a.parse().expect("agent");
            match time {
                Some(t) => s.with_time_limit(t),
                None => s,
            }
        })
        .collect();
    let cfg = TournamentConfig {
        game: args[0].clone(),
        options: serde_json::Value::Object(options),
        agents,
        games_per_pair: args[2].parse().expect("games"),
        seed: 1,
        threads: 0,
        max_actions: 3000,
    };
    let start = Instant::now();
    let report = tournament::run(&cfg, &|g| eprintln!("{g:?}")).expect("tournament");
    for p in &report.pairs {
        let s = p.score_a();
        let (lo, hi) = s.elo_interval();
        println!(
            "{} vs {}: +{} ={} -{}  score {:.1}% ± {:.1}  Elo {:+.0} [{:+.0}, {:+.0}]",
            p.a,
            p.b,
            p.wins_a,
            p.draws,
            p.wins_b,
            100.0 * s.mean,
            100.0 * s.ci95,
            s.elo(),
            lo,
            hi
        );
    }
    println!("elapsed {:.0} s", start.elapsed().as_secs_f64());
}
