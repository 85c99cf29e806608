//! A tournament runner without the `tabula` binary's server dependencies (same engine as
//! `tabula tournament`), for long measurements:
//!
//! ```text
//! arena [--results FILE] [--iterations N] [--threads N] [--seed N] [--max-actions N]
//!       GAME AGENT,AGENT[,...] GAMES [TIME_MS|-] [NAME=VALUE...]
//! arena summarise FILE
//! arena bench [SECONDS]
//! ```
//!
//! A tournament prints a line per finished game on stderr (the running score of every pair) and each
//! pair's results with the score's 95% interval and Elo at the end. `--results FILE` appends every
//! finished game to FILE as a JSON line and skips the games FILE already holds for the same tournament
//! (a killed run resumes where it stopped); `summarise FILE` prints the pairs' results of such a file.
//! `--iterations N` gives every searching agent without its own `:N` the budget N (iterations or
//! alpha-beta nodes). `bench` prints `tabula bench`'s figures for every game as JSON lines.
//! Defaults: seed 1, one thread per core, 3000 actions per game at most.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tabula_ai::AgentSpec;
use tabula_ai::tournament::{self, Progress, ResultsFile, TournamentConfig, TournamentReport};

const USAGE: &str = "usage: arena [--results FILE] [--iterations N] [--threads N] [--seed N] \
[--max-actions N] GAME AGENT,AGENT[,...] GAMES [TIME_MS|-] [NAME=VALUE...]\n       arena summarise FILE\n       arena bench [SECONDS]";

fn print_pairs(report: &TournamentReport) {
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
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    value
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{flag} needs a number"))
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("bench") => {
            let seconds: f64 = match args.get(1) {
                Some(s) => number("bench", Some(s))?,
                None => 1.0,
            };
            for game in tabula_ai::supported_games() {
                let r = tournament::bench(game, &serde_json::Value::Null, seconds)
                    .map_err(|e| e.to_string())?;
                println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
            }
            return Ok(());
        }
        Some("summarise" | "summarize") => {
            let path = args.get(1).ok_or(USAGE)?;
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            let parsed = tournament::parse_results(&text).map_err(|e| e.to_string())?;
            if parsed.truncated_last_line {
                eprintln!("{path}: the last line was cut short (a killed run) and is skipped");
            }
            for s in tournament::summarise(&parsed.games) {
                println!("{} {}", s.game_id, s.options);
                print_pairs(&s.report);
            }
            return Ok(());
        }
        _ => {}
    }
    let mut results: Option<PathBuf> = None;
    let mut iterations: Option<u64> = None;
    let mut threads = 0usize;
    let mut seed = 1u64;
    let mut max_actions = 3000u64;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--results" => results = Some(PathBuf::from(it.next().ok_or(USAGE)?)),
            "--iterations" => iterations = Some(number(a, it.next())?),
            "--threads" => threads = number(a, it.next())?,
            "--seed" => seed = number(a, it.next())?,
            "--max-actions" => max_actions = number(a, it.next())?,
            _ => rest.push(a.clone()),
        }
    }
    if rest.len() < 3 {
        return Err(USAGE.into());
    }
    let time = match rest.get(3).map(String::as_str) {
        None | Some("-") => None,
        Some(t) => Some(Duration::from_millis(number(
            "TIME_MS",
            Some(&t.to_string()),
        )?)),
    };
    let mut options = serde_json::Map::new();
    for pair in rest.iter().skip(4) {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("options are NAME=VALUE, not {pair}"))?;
        let value = serde_json::from_str(v).unwrap_or(serde_json::Value::String(v.to_string()));
        options.insert(k.to_string(), value);
    }
    let mut agents = Vec::new();
    for a in rest[1].split(',') {
        let mut s: AgentSpec = a.parse().map_err(|e: tabula_ai::AiError| e.to_string())?;
        if let Some(n) = iterations {
            s = s.with_budget(n);
        }
        if let Some(t) = time {
            s = s.with_time_limit(t);
        }
        agents.push(s);
    }
    let cfg = TournamentConfig {
        game: rest[0].clone(),
        options: if options.is_empty() {
            serde_json::Value::Null
        } else {
            serde_json::Value::Object(options)
        },
        agents,
        games_per_pair: number("GAMES", rest.get(2))?,
        seed,
        threads,
        max_actions,
    };
    let (file, done) = match &results {
        Some(path) => {
            let done = match std::fs::read_to_string(path) {
                Ok(text) => {
                    tournament::parse_results(&text)
                        .map_err(|e| format!("{}: {e}", path.display()))?
                        .games
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(format!("{}: {e}", path.display())),
            };
            let file = ResultsFile::append(path).map_err(|e| e.to_string())?;
            (Some(file), done)
        }
        None => (None, Vec::new()),
    };
    let kept = tournament::kept_games(&cfg, &done);
    let total = tournament::total_games(&cfg);
    let mut progress = Progress::new(total);
    if !kept.is_empty() {
        eprintln!(
            "{} of {total} games already in the results file: not replayed",
            kept.len()
        );
        for g in &kept {
            progress.record(g);
        }
        eprintln!("{}", progress.scores());
    }
    let progress = Mutex::new(progress);
    let start = Instant::now();
    let report = tournament::run_with(&cfg, &done, &|g| {
        if let Some(f) = &file {
            f.record(g)?;
        }
        if let Ok(mut p) = progress.lock() {
            p.record(g);
            eprintln!("{:.0} s {}", start.elapsed().as_secs_f64(), p.line(g));
        }
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    print_pairs(&report);
    println!("elapsed {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {e}");
            ExitCode::from(2)
        }
    }
}
