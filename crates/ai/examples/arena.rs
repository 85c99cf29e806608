//! A tournament runner without the `tabula` binary's server dependencies (same engine as
//! `tabula tournament`), for long measurements:
//!
//! ```text
//! arena [--results FILE] [--iterations N] [--threads N] [--seed N] [--max-actions N]
//!       GAME AGENT,AGENT[,...] GAMES [TIME_MS|-] [NAME=VALUE...]
//! arena summarise FILE
//! arena bench [SECONDS]
//! arena turns [--seed N] [--max-turns N] [--show STEPS] [--save FILE] GAME AGENT[,AGENT...] GAMES [NAME=VALUE...]
//! ```
//!
//! A tournament prints a line per finished game on stderr (the running score of every pair) and each
//! pair's results with the score's 95% interval and Elo at the end. `--results FILE` appends every
//! finished game to FILE as a JSON line and skips the games FILE already holds for the same tournament
//! (a killed run resumes where it stopped); `summarise FILE` prints the pairs' results of such a file.
//! `--iterations N` gives every searching agent without its own `:N` the budget N (iterations or
//! alpha-beta nodes). `bench` prints `tabula bench`'s figures for every game as JSON lines.
//! `turns` measures how long each agent's turns are in self-play (steps per turn, thinking seconds per
//! turn and per round; see [`turns`]).
//! Defaults: seed 1, one thread per core, 3000 actions per game at most.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tabula_ai::games::GameFn;
use tabula_ai::knowledge::stable_hash;
use tabula_ai::tournament::{self, Progress, ResultsFile, TournamentConfig, TournamentReport};
use tabula_ai::{AgentSpec, InfoSet, Knowledge, decide};
use tabula_core::record::Match;
use tabula_core::{Actor, Seat, ToAct};

const USAGE: &str = "usage: arena [--results FILE] [--iterations N] [--threads N] [--seed N] \
[--max-actions N] GAME AGENT,AGENT[,...] GAMES [TIME_MS|-] [NAME=VALUE...]\n       arena summarise FILE\n       arena bench [SECONDS]\n       arena turns [--seed N] [--max-turns N] [--show STEPS] [--save FILE] GAME AGENT[,AGENT...] GAMES [NAME=VALUE...]";

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

/// Game options from `NAME=VALUE` arguments (`null` when there are none).
fn parse_options(pairs: &[String]) -> Result<serde_json::Value, String> {
    let mut options = serde_json::Map::new();
    for pair in pairs {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("options are NAME=VALUE, not {pair}"))?;
        let value = serde_json::from_str(v).unwrap_or(serde_json::Value::String(v.to_string()));
        options.insert(k.to_string(), value);
    }
    Ok(if options.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::Value::Object(options)
    })
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
        Some("turns") => return turns(&args[1..]),
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
    let options = parse_options(&rest[4.min(rest.len())..])?;
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
        options,
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

/// `arena turns`: how long AI turns are. Each agent plays `GAMES` games against itself (every seat),
/// each stopped after `--max-turns` turns; a **turn** is a seat's run of consecutive actions (chance
/// skipped), a **round** runs from one start of the first seat's turn to the next. Prints, per
/// agent, the steps per turn (median, 90th percentile, max) and the thinking seconds per turn and per
/// round (median, max; the CPU time of `decide` on its one thread). `--show STEPS` prints every
/// turn longer than STEPS steps (its actions' notation) on stderr; `--save FILE` also appends each
/// such turn to FILE as a JSON line (the agent, the seat, the notation and the state at the turn's
/// start), so that a test can start from it.
fn turns(args: &[String]) -> Result<(), String> {
    let mut seed = 1u64;
    let mut max_turns = 60u64;
    let mut show = u64::MAX;
    let mut save: Option<PathBuf> = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seed" => seed = number(a, it.next())?,
            "--max-turns" => max_turns = number(a, it.next())?,
            "--show" => show = number(a, it.next())?,
            "--save" => save = Some(PathBuf::from(it.next().ok_or(TURNS_USAGE)?)),
            _ => rest.push(a.clone()),
        }
    }
    if rest.len() < 3 {
        return Err(TURNS_USAGE.into());
    }
    let options = parse_options(&rest[3..])?;
    let games: u32 = number("GAMES", rest.get(2))?;
    println!(
        "| game | agent | games | turns | steps/turn median | p90 | max | s/turn median | max | s/round median | max |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for a in rest[1].split(',') {
        let spec: AgentSpec = a.parse().map_err(|e: tabula_ai::AiError| e.to_string())?;
        let mut all = TurnLog::default();
        for g in 0..games {
            let log = tabula_ai::games::with_game(
                &rest[0],
                PlayTurns {
                    options: &options,
                    spec: &spec,
                    seed: seed.wrapping_mul(1_000_003).wrapping_add(u64::from(g)),
                    max_turns,
                    show,
                    save: save.as_deref(),
                },
            )
            .ok_or_else(|| format!("unknown game {}", rest[0]))??;
            all.steps.extend(log.steps);
            all.turn_secs.extend(log.turn_secs);
            all.round_secs.extend(log.round_secs);
        }
        let steps: Vec<f64> = all.steps.iter().map(|&s| s as f64).collect();
        println!(
            "| {} | {spec} | {games} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
            rest[0],
            steps.len(),
            quantile(&steps, 0.5),
            quantile(&steps, 0.9),
            quantile(&steps, 1.0),
            quantile(&all.turn_secs, 0.5),
            quantile(&all.turn_secs, 1.0),
            quantile(&all.round_secs, 0.5),
            quantile(&all.round_secs, 1.0),
        );
    }
    Ok(())
}

/// The CPU time this thread has run, in seconds (`/proc/thread-self/schedstat`; a shared machine's
/// load does not inflate it as it does wall-clock time), or 0 where it cannot be read.
fn thread_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0.0, |ns| ns as f64 / 1e9)
}

const TURNS_USAGE: &str = "usage: arena turns [--seed N] [--max-turns N] [--show STEPS] [--save FILE] GAME AGENT[,AGENT...] GAMES [NAME=VALUE...]";

/// The `q`-quantile (nearest rank) of `v`; 0 for an empty list.
fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let i = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1;
    s[i]
}

#[derive(Default)]
struct TurnLog {
    steps: Vec<u64>,
    turn_secs: Vec<f64>,
    round_secs: Vec<f64>,
}

struct PlayTurns<'a> {
    options: &'a serde_json::Value,
    spec: &'a AgentSpec,
    seed: u64,
    max_turns: u64,
    /// Turns longer than this many steps are printed (their actions' notation) on stderr.
    show: u64,
    /// Where such turns are appended as JSON lines, with the state at their start.
    save: Option<&'a std::path::Path>,
}

impl GameFn for PlayTurns<'_> {
    type Output = Result<TurnLog, String>;
    fn call<G: Knowledge>(self) -> Self::Output {
        let options: G::Options =
            tabula_core::options::parse_json(self.options).map_err(|e| e.to_string())?;
        let mut m = Match::<G>::new(options, self.seed).map_err(|e| e.to_string())?;
        let mut log = TurnLog::default();
        // The turn in progress: its seat, actions and seconds; the round's seconds so far.
        let mut current: Option<(Seat, u64, f64)> = None;
        let mut notation: Vec<String> = Vec::new();
        let mut first_seat: Option<Seat> = None;
        // The state at the start of the turn in progress (kept only when turns are saved).
        let mut turn_start: Option<G> = None;
        let mut round = 0.0f64;
        let mut n = 0u64;
        loop {
            m.resolve_chance().map_err(|e| e.to_string())?;
            let seat = match m.to_act() {
                ToAct::Seat(s) => s,
                ToAct::Seats(list) => match list.first() {
                    Some(&s) => s,
                    None => break,
                },
                ToAct::Chance => continue,
                ToAct::Over(_) => break,
            };
            if current.is_none_or(|(s, _, _)| s != seat) {
                if let Some((s, steps, secs)) = current.take() {
                    if steps > self.show {
                        let turn = log.steps.len();
                        eprintln!(
                            "turn {turn} seat {s}: {steps} steps: {}",
                            notation.join(" ")
                        );
                        if let (Some(path), Some(start)) = (self.save, &turn_start) {
                            save_turn(path, self.spec, s, &notation, start)?;
                        }
                    }
                    notation.clear();
                    log.steps.push(steps);
                    log.turn_secs.push(secs);
                }
                if log.steps.len() as u64 >= self.max_turns {
                    break;
                }
                if *first_seat.get_or_insert(seat) == seat && !log.steps.is_empty() {
                    log.round_secs.push(round);
                    round = 0.0;
                }
                current = Some((seat, 0, 0.0));
                if self.save.is_some() {
                    turn_start = Some(m.state().clone());
                }
            }
            let info = InfoSet::new(m.state(), seat).map_err(|e| e.to_string())?;
            let start = thread_cpu_seconds();
            let (action, _) = decide(self.spec, &info, stable_hash(&(self.seed, n)))
                .map_err(|e| e.to_string())?;
            let secs = thread_cpu_seconds() - start;
            notation.push(m.state().action_notation(&action));
            round += secs;
            if let Some(c) = current.as_mut() {
                c.1 += 1;
                c.2 += secs;
            }
            m.apply(Actor::Seat(seat), action)
                .map_err(|e| e.to_string())?;
            n += 1;
        }
        if let Some((_, steps, secs)) = current {
            log.steps.push(steps);
            log.turn_secs.push(secs);
        }
        Ok(log)
    }
}

/// Appends a long turn to `path` as a JSON line: the agent, the seat, the turn's notation and the
/// state at its start.
fn save_turn<G: Knowledge>(
    path: &std::path::Path,
    spec: &AgentSpec,
    seat: Seat,
    notation: &[String],
    start: &G,
) -> Result<(), String> {
    use std::io::Write;
    let line = serde_json::json!({
        "game": G::ID,
        "agent": spec.to_string(),
        "seat": seat.0,
        "steps": notation.len(),
        "turn": notation.join(" "),
        "state": start,
    });
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(f, "{line}").map_err(|e| format!("{}: {e}", path.display()))
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
