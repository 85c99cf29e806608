//! `tabula tournament` and `tabula bench`: a thin command-line layer over [`tabula_ai::tournament`].

use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL};
use indicatif::{ProgressBar, ProgressStyle};
use tabula_ai::AgentSpec;
use tabula_ai::tournament::{self, Score, TournamentConfig};
use tabula_core::dynamic::Registry;

/// Plays a round robin between AI agents and prints wins/draws/losses, scores with 95% confidence
/// intervals and Elo differences.
///
/// Every pair of agents plays `--games` games, alternating seats; in games with more than two seats
/// (Syba) the first agent of the pair takes one seat and the second agent every other seat, and the
/// result is counted from the first agent's seat (a shared victory counts as a win). Games run in
/// parallel on every core. With iteration budgets (`uct:2000`) and no `--time-per-move`, a tournament
/// is reproducible from its `--seed`.
///
/// Agents: `random`, `greedy`, `uct` (plain UCT, random playouts), `mcts` (UCT with an evaluation
/// cut-off), `ismcts` (information-set MCTS), `alphabeta` (iterative deepening, transposition table,
/// move ordering; perfect-information two-player positions, elsewhere ISMCTS), `level1`..`level5`. Add
/// `:N` for a budget of N iterations (MCTS) or N nodes (alpha-beta), e.g. `uct:2000`.
#[derive(Args, Debug, Clone)]
pub struct TournamentArgs {
    /// The game id (see `tabula games`).
    #[arg(long)]
    pub game: String,
    /// A game option as NAME=VALUE (repeat for several).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The agents, comma-separated (at least two), e.g. `level5,greedy,uct:2000`.
    #[arg(long, value_delimiter = ',', required = true, num_args = 1..)]
    pub agents: Vec<String>,
    /// Games per pair of agents.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Wall-clock limit per move in milliseconds for every searching agent (agents without an explicit
    /// `:N` budget then search until the limit). Results then depend on the machine's speed.
    #[arg(long, value_name = "MS")]
    pub time_per_move: Option<u64>,
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
}

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

/// Runs `tabula tournament`.
pub fn tournament(args: &TournamentArgs, registry: &Registry) -> Result<()> {
    let kind = registry.get(&args.game)?;
    let options = kind.parse_options(&args.options)?;
    let mut agents = Vec::new();
    for name in &args.agents {
        let spec: AgentSpec = name.parse()?;
        agents.push(match args.time_per_move {
            Some(0) => bail!("--time-per-move must be at least 1 ms"),
            Some(ms) => spec.with_time_limit(Duration::from_millis(ms)),
            None => spec,
        });
    }
    let cfg = TournamentConfig {
        game: args.game.clone(),
        options,
        agents,
        games_per_pair: args.games,
        seed: args.seed,
        threads: args.threads,
        max_actions: args.max_actions,
    };
    let bar = ProgressBar::new(tournament::total_games(&cfg));
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})")
    {
        bar.set_style(style);
    }
    let report = tournament::run(&cfg, &|_| bar.inc(1)).context("tournament failed")?;
    bar.finish_and_clear();
    if args.json {
        let json = serde_json::json!({
            "agents": report.agents.iter().map(|a| serde_json::json!({
                "name": a.name, "games": a.games, "score": a.score,
            })).collect::<Vec<_>>(),
            "pairs": report.pairs.iter().map(|p| serde_json::json!({
                "a": p.a, "b": p.b, "wins_a": p.wins_a, "draws": p.draws, "wins_b": p.wins_b,
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
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
    println!("{} — {} games per pair", kind.name(), args.games);
    println!("{table}");
    let mut pairs = Table::new();
    pairs.load_preset(UTF8_FULL).set_header(vec![
        "a",
        "b",
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
            p.wins_a.to_string(),
            p.draws.to_string(),
            p.wins_b.to_string(),
            pct(&s),
            elo(&s),
        ]);
    }
    println!("{pairs}");
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
        println!("{}", serde_json::to_string_pretty(&reports)?);
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
    println!("{table}");
    Ok(())
}
