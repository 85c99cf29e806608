//! `tabula tournament` and `tabula bench`: a thin command-line layer over [`tabula_ai::tournament`].

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL};
use indicatif::{ProgressBar, ProgressStyle};
use tabula_ai::AgentSpec;
use tabula_ai::tournament::{
    self, GameSummary, Progress, ResultsFile, Score, TournamentConfig, TournamentReport,
};
use tabula_core::dynamic::Registry;

/// Plays a round robin between AI agents and prints wins/draws/losses, scores with 95% confidence
/// intervals and Elo differences.
///
/// Every pair of agents plays `--games` games, alternating seats; in games with more than two seats
/// (Syba) the first agent of the pair takes one seat and the second agent every other seat, and the
/// result is counted from the first agent's seat (a shared victory counts as a win). Games run in
/// parallel (`--threads`, default one per core).
///
/// Progress: on a terminal, a progress bar on stderr shows the games done out of the total and every
/// pair's running score; otherwise stderr gets one plain line per finished game (with the same
/// scores). `--results FILE` appends every finished game to FILE as one JSON line (game, options,
/// seeds, pair, seats, result, actions, how it ended), so a killed run keeps its games; run the same
/// command again and the games FILE already holds are kept, not replayed. `--summarise FILE` prints
/// the usual table (or `--json`) from such a file, for a run that is finished, still going or killed.
///
/// Budgets: `--time-per-move MS` lets every searching agent search for MS ms (results then depend on
/// the machine and its load); `--iterations N` gives every searching agent the same budget of N
/// iterations (MCTS agents, levels 3–4) or N nodes (alpha-beta, level 5 in two-player
/// perfect-information positions), so a tournament is reproducible from its `--seed` on any machine.
/// An agent's own `:N` budget overrides both.
///
/// Agents: `random`, `greedy`, `uct` (plain UCT, random playouts), `mcts` (UCT with an evaluation
/// cut-off), `ismcts` (information-set MCTS), `alphabeta` (iterative deepening, transposition table,
/// move ordering; perfect-information two-player positions, elsewhere ISMCTS), `level1`..`level5`,
/// `level6` (level 5's alpha-beta over the learned evaluation; needs `--net FILE`). Add
/// `:N` for a budget of N iterations (MCTS) or N nodes (alpha-beta), e.g. `uct:2000`.
#[derive(Args, Debug, Clone)]
#[command(after_long_help = TOURNAMENT_HELP)]
pub struct TournamentArgs {
    /// The game id (see `tabula games`).
    #[arg(long, required_unless_present = "summarise")]
    pub game: Option<String>,
    /// A game option as NAME=VALUE (repeat for several).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The agents, comma-separated (at least two), e.g. `level5,greedy,uct:2000`.
    #[arg(long, value_delimiter = ',', num_args = 1.., required_unless_present = "summarise")]
    pub agents: Vec<String>,
    /// Games per pair of agents.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Wall-clock limit per move in milliseconds for every searching agent (agents without an explicit
    /// `:N` budget then search until the limit). Results then depend on the machine's speed.
    #[arg(long, value_name = "MS", conflicts_with = "iterations")]
    pub time_per_move: Option<u64>,
    /// The same budget for every searching agent without its own `:N`: N iterations (MCTS) or N nodes
    /// (alpha-beta). Deterministic for a seed, whatever the machine's load.
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Append every finished game to FILE as a JSON line; games FILE already holds for this same
    /// tournament (game, options, seed, agents) are kept and not played again.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Print the table of the games recorded in FILE (written by `--results`) instead of playing.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "agents", "results"])]
    pub summarise: Option<PathBuf>,
    /// Print the results as JSON: {"agents":[{"name","games","score"}],"pairs":[{"a","b","wins_a","draws","wins_b"}]}.
    #[arg(long)]
    pub json: bool,
    /// The tournament seed (chance and every agent decision derive from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Actions after which a game is stopped and scored as a draw.
    #[arg(long, default_value_t = 5000)]
    pub max_actions: u64,
    /// A learned-evaluation net file (`tabula train net`) for `level6` in its game (repeat for
    /// several games); a missing or corrupt file is an error.
    #[arg(long, value_name = "FILE")]
    pub net: Vec<PathBuf>,
}

const TOURNAMENT_HELP: &str = "\
Progress: on a terminal, a progress bar on stderr shows the games done and every pair's running
score; otherwise stderr gets one line per finished game.

Long runs: --results FILE appends every finished game to FILE as a JSON line, so a killed run keeps
its games; the same command run again keeps the games FILE holds and plays only the others.
--summarise FILE prints the tables (or --json) of such a file, finished, running or killed.

Budgets: --time-per-move MS (results depend on the machine and its load) or --iterations N (the same
N iterations or alpha-beta nodes for every searching agent; reproducible from --seed). An agent's own
:N budget (e.g. uct:2000) overrides both.

Agents: random, greedy, uct, mcts, ismcts, alphabeta, level1..level5, and level6: level 5's
alpha-beta over the learned evaluation, which needs a net (--net FILE, made by `tabula train net`;
not yet offered to players: see README.md, \"Learned evaluation\").";

/// Measures, per game, random playouts per second from the start position and the AI's search speed
/// (plain UCT and ISMCTS iterations per second, alpha-beta nodes per second) on a mid-game position.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// The game id; every game the AI knows when omitted.
    #[arg(long)]
    pub game: Option<String>,
    /// A game option as NAME=VALUE (repeat for several; needs --game).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Seconds spent on each measurement (four per game).
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

fn pct(s: &Score) -> String {
    format!("{:.1}% ± {:.1}", 100.0 * s.mean, 100.0 * s.ci95)
}

fn elo(s: &Score) -> String {
    let (lo, hi) = s.elo_interval();
    format!("{:+.0} [{:+.0}, {:+.0}]", s.elo(), lo, hi)
}

/// The agents of `args`, with `--time-per-move` or `--iterations` applied.
fn agents(args: &TournamentArgs) -> Result<Vec<AgentSpec>> {
    let mut agents = Vec::new();
    for name in &args.agents {
        let mut spec: AgentSpec = name.parse()?;
        if let Some(n) = args.iterations {
            if n == 0 {
                bail!("--iterations must be at least 1");
            }
            spec = spec.with_budget(n);
        }
        spec = match args.time_per_move {
            Some(0) => bail!("--time-per-move must be at least 1 ms"),
            Some(ms) => spec.with_time_limit(Duration::from_millis(ms)),
            None => spec,
        };
        agents.push(spec);
    }
    Ok(agents)
}

/// The games recorded in the results file at `path` (none when it does not exist yet).
fn read_results(path: &Path, missing_ok: bool) -> Result<Vec<GameSummary>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let parsed =
        tournament::parse_results(&text).with_context(|| format!("in {}", path.display()))?;
    if parsed.truncated_last_line {
        eprintln!(
            "{}: the last line was cut short (a run killed while writing it); it is ignored",
            path.display()
        );
    }
    Ok(parsed.games)
}

/// Shows a tournament's progress on stderr: a bar with every pair's running score on a terminal, a
/// plain line per finished game otherwise.
struct Observer {
    bar: Option<ProgressBar>,
    progress: Mutex<Progress>,
    start: Instant,
}

impl Observer {
    /// An observer of a tournament of `total` games, `kept` of them already played.
    fn new(total: u64, kept: &[GameSummary]) -> Observer {
        let mut progress = Progress::new(total);
        for g in kept {
            progress.record(g);
        }
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            bar.set_position(progress.done);
            bar.set_message(progress.scores());
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games  {elapsed_precise} (eta {eta})\n{wide_msg}",
            ) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_secs(1));
            bar
        });
        Observer {
            bar,
            progress: Mutex::new(progress),
            start: Instant::now(),
        }
    }

    fn game(&self, g: &GameSummary) {
        let Ok(mut p) = self.progress.lock() else {
            return;
        };
        p.record(g);
        match &self.bar {
            Some(bar) => {
                bar.set_message(p.scores());
                bar.inc(1);
            }
            None => eprintln!("{:.0} s {}", self.start.elapsed().as_secs_f64(), p.line(g)),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Runs `tabula tournament`.
pub fn tournament(args: &TournamentArgs, registry: &Registry) -> Result<()> {
    if let Some(path) = &args.summarise {
        let games = read_results(path, false)?;
        let summaries = tournament::summarise(&games);
        if summaries.is_empty() {
            bail!("{} holds no finished game", path.display());
        }
        for s in &summaries {
            let name = registry
                .get(&s.game_id)
                .map_or_else(|_| s.game_id.clone(), |k| k.name().to_string());
            let title = if s.options.is_null() {
                name
            } else {
                format!("{name} {}", s.options)
            };
            print_report(&title, &s.report, args.json)?;
        }
        return Ok(());
    }
    let Some(game) = &args.game else {
        bail!("--game is required");
    };
    for path in &args.net {
        let net = tabula_ai::nnue::Net::load(path)?;
        tabula_ai::nnue::install(net);
    }
    let kind = registry.get(game)?;
    let options = kind.parse_options(&args.options)?;
    let cfg = TournamentConfig {
        game: game.clone(),
        options,
        agents: agents(args)?,
        games_per_pair: args.games,
        seed: args.seed,
        threads: args.threads,
        max_actions: args.max_actions,
    };
    let (file, done) = match &args.results {
        Some(path) => {
            let done = read_results(path, true)?;
            (Some(ResultsFile::append(path)?), done)
        }
        None => (None, Vec::new()),
    };
    let kept = tournament::kept_games(&cfg, &done);
    let total = tournament::total_games(&cfg);
    if !kept.is_empty() {
        eprintln!(
            "{} of {total} games are already in the results file and are not played again",
            kept.len()
        );
    }
    let observer = Observer::new(total, &kept);
    let result = tournament::run_with(&cfg, &done, &|g| {
        if let Some(f) = &file {
            f.record(g)?;
        }
        observer.game(g);
        Ok(())
    });
    observer.finish();
    let report = result.context("tournament failed")?;
    let title = format!("{} — {} games per pair", kind.name(), args.games);
    print_report(&title, &report, args.json)
}

/// Prints a tournament's report: two tables (agents, pairs) under `title`, or `--json`'s shape.
fn print_report(title: &str, report: &TournamentReport, json: bool) -> Result<()> {
    if json {
        let json = serde_json::json!({
            "agents": report.agents.iter().map(|a| serde_json::json!({
                "name": a.name, "games": a.games, "score": a.score,
            })).collect::<Vec<_>>(),
            "pairs": report.pairs.iter().map(|p| serde_json::json!({
                "a": p.a, "b": p.b, "wins_a": p.wins_a, "draws": p.draws, "wins_b": p.wins_b,
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&json)?);
        return Ok(());
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "agent",
        "games",
        "wins",
        "draws",
        "losses",
        "score (95% CI)",
        "Elo vs field [95% CI]",
    ]);
    for a in &report.agents {
        let s = a.score_ci();
        table.add_row(vec![
            a.name.clone(),
            a.games.to_string(),
            a.wins.to_string(),
            a.draws.to_string(),
            a.losses.to_string(),
            pct(&s),
            elo(&s),
        ]);
    }
    outln!("{title}");
    outln!("{table}");
    let mut pairs = Table::new();
    pairs.load_preset(UTF8_FULL).set_header(vec![
        "a",
        "b",
        "games",
        "wins a",
        "draws",
        "wins b",
        "score a (95% CI)",
        "Elo a − b [95% CI]",
    ]);
    for p in &report.pairs {
        let s = p.score_a();
        pairs.add_row(vec![
            p.a.clone(),
            p.b.clone(),
            p.games().to_string(),
            p.wins_a.to_string(),
            p.draws.to_string(),
            p.wins_b.to_string(),
            pct(&s),
            elo(&s),
        ]);
    }
    outln!("{pairs}");
    Ok(())
}

/// Runs `tabula bench`.
pub fn bench(args: &BenchArgs, registry: &Registry) -> Result<()> {
    if !(args.seconds > 0.0 && args.seconds <= 600.0) {
        bail!("--seconds must be in (0, 600]");
    }
    let games: Vec<(String, serde_json::Value)> = match &args.game {
        Some(g) => {
            let kind = registry.get(g)?;
            vec![(g.clone(), kind.parse_options(&args.options)?)]
        }
        None => {
            if !args.options.is_empty() {
                bail!("--option needs --game");
            }
            let known = tabula_ai::supported_games();
            registry
                .ids()
                .into_iter()
                .filter(|id| known.contains(id))
                .map(|id| (id.to_string(), serde_json::Value::Null))
                .collect()
        }
    };
    let mut reports = Vec::new();
    for (game, options) in &games {
        if !args.json {
            eprintln!("benchmarking {game}…");
        }
        reports.push(tabula_ai::tournament::bench(game, options, args.seconds)?);
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&reports)?);
        return Ok(());
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL).set_header(vec![
        "game",
        "playouts/s",
        "actions/playout",
        "playout actions/s",
        "UCT iter/s",
        "ISMCTS iter/s",
        "alpha-beta nodes/s (depth)",
    ]);
    for r in &reports {
        table.add_row(vec![
            r.game.clone(),
            format!("{:.1}", r.playouts_per_sec),
            format!("{:.1}", r.actions_per_playout),
            format!("{:.0}", r.playout_actions_per_sec),
            format!("{:.0}", r.uct_iterations_per_sec),
            format!("{:.0}", r.mcts_iterations_per_sec),
            match (r.alphabeta_nodes_per_sec, r.alphabeta_depth) {
                (Some(n), Some(d)) => format!("{n:.0} ({d})"),
                _ => "n/a (no perfect-information position)".to_string(),
            },
        ]);
    }
    outln!("{table}");
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn args(agents: &[&str]) -> TournamentArgs {
        TournamentArgs {
            game: Some("kyo".into()),
            options: Vec::new(),
            agents: agents.iter().map(|a| a.to_string()).collect(),
            games: 2,
            time_per_move: None,
            iterations: None,
            results: None,
            summarise: None,
            json: false,
            seed: 3,
            threads: 1,
            max_actions: 40,
            net: Vec::new(),
        }
    }

    #[test]
    fn iterations_and_time_limits_reach_the_searching_agents() {
        let mut a = args(&["level5", "uct:7", "greedy"]);
        a.iterations = Some(500);
        let names: Vec<String> = agents(&a).unwrap().iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["level5:500", "uct:7", "greedy"]);
        a.iterations = Some(0);
        assert!(agents(&a).is_err());
        a.iterations = None;
        a.time_per_move = Some(20);
        let names: Vec<String> = agents(&a).unwrap().iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["level5@20ms", "uct:7@20ms", "greedy"]);
        a.time_per_move = Some(0);
        assert!(agents(&a).is_err());
    }

    #[test]
    fn a_results_file_is_written_resumed_and_summarised() {
        let registry = tabula_ai::games::registry();
        let path = std::env::temp_dir().join(format!("tabula-cmd-ai-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut a = args(&["random", "uct:2"]);
        a.results = Some(path.clone());
        tournament(&a, &registry).unwrap();
        let first = read_results(&path, false).unwrap();
        assert_eq!(first.len(), 2);
        // A second run with more games keeps the two recorded ones and adds one.
        a.games = 3;
        tournament(&a, &registry).unwrap();
        let second = read_results(&path, false).unwrap();
        assert_eq!(second.len(), 3);
        assert_eq!(second[..2], first[..]);
        let summaries = tournament::summarise(&second);
        assert_eq!(summaries.len(), 1);
        assert_eq!(summaries[0].report.pairs[0].games(), 3);
        let mut s = args(&[]);
        s.game = None;
        s.summarise = Some(path.clone());
        tournament(&s, &registry).unwrap();
        // A missing file is an error for --summarise, an empty start for --results.
        let _ = std::fs::remove_file(&path);
        assert!(tournament(&s, &registry).is_err());
        assert!(read_results(&path, true).unwrap().is_empty());
    }
}
