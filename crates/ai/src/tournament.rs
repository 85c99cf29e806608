//! Round-robin tournaments between agents, and search benchmarks (the engines behind `tabula
//! tournament` and `tabula bench`).
//!
//! ## Tournament format
//! Every pair of agents `(a, b)` (`a` listed before `b`) plays `games_per_pair` games. In game `g` of a
//! pair, `a` takes seat `g mod seats` and `b` every other seat, so in two-player games the agents
//! alternate colours and in a game with more seats (Syba) one `a` plays against `seats - 1` copies of
//! `b`. Results are counted from `a`'s seat: `wins_a` when that seat wins (a shared victory counts as
//! a win), `wins_b` when it loses, `draws` otherwise; a game that reaches the action limit is a draw.
//! Each game has its own seed (from the tournament seed, the pair and the game number) that drives the
//! chance actions and every agent decision, so a tournament with iteration budgets is reproducible.
//!
//! ## Statistics
//! An agent's **score** is its mean result (win 1, draw ½, loss 0) over all its games, with a 95%
//! confidence interval `mean ± 1.96·s/√n` (`s` the standard deviation of the per-game results). The
//! **Elo difference** of a score `p` is `400·log10(p / (1 − p))` (against the average opponent it
//! met; per pair, `a` against `b`), its interval the same transform of the score's interval (scores
//! are clamped to `[0.5/n, 1 − 0.5/n]` so that 0% and 100% give finite values).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_core::record::Match;
use tabula_core::{Actor, Seat, SeatResult, ToAct};

use crate::agents::{AgentKind, AgentSpec, decide};
use crate::games::{GameFn, with_game};
use crate::knowledge::{Knowledge, stable_hash};
use crate::{AiError, InfoSet};

/// A tournament to run.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentConfig {
    /// The game id.
    pub game: String,
    /// The game's options as JSON (`null` for the defaults).
    pub options: Value,
    /// The agents (at least two).
    pub agents: Vec<AgentSpec>,
    /// Games each pair plays.
    pub games_per_pair: u32,
    /// The tournament seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Actions after which a game is stopped and counted as a draw.
    pub max_actions: u64,
}

/// One finished game: what the progress callback receives and what a results file holds, one JSON
/// line per game (see [`ResultsFile`]), so that a killed run keeps every game it finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game id.
    pub game_id: String,
    /// The game's options as given (`null` for the defaults).
    #[serde(default)]
    pub options: Value,
    /// The tournament seed.
    pub tournament_seed: u64,
    /// The index of the pair in the round robin.
    pub pair: usize,
    /// Agent `a` of the pair (as printed: name, budget, time limit).
    pub a: String,
    /// Agent `b` of the pair.
    pub b: String,
    /// The game's number within its pair (0-based).
    pub game: u32,
    /// The seat agent `a` played.
    pub seat_a: u8,
    /// The agent of every seat.
    pub seats: Vec<String>,
    /// The result of `a`'s seat.
    pub result_a: SeatResult,
    /// Actions played (chance included).
    pub actions: u64,
    /// How the game ended ("action limit" when the limit stopped it).
    pub reason: String,
    /// The game's own seed (chance and every decision derive from it).
    pub seed: u64,
}

/// The results of one pair, from `a`'s side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairResult {
    pub a: String,
    pub b: String,
    pub wins_a: u32,
    pub draws: u32,
    pub wins_b: u32,
}

impl PairResult {
    pub fn games(&self) -> u32 {
        self.wins_a + self.draws + self.wins_b
    }
    /// `a`'s score with its 95% interval.
    pub fn score_a(&self) -> Score {
        Score::from_counts(self.wins_a, self.draws, self.wins_b)
    }
}

/// One agent's totals.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentResult {
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Mean result (win 1, draw ½, loss 0).
    pub score: f64,
}

impl AgentResult {
    pub fn score_ci(&self) -> Score {
        Score::from_counts(self.wins, self.draws, self.losses)
    }
}

/// A score with its 95% confidence interval and the matching Elo difference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    pub n: u32,
    pub mean: f64,
    /// Half-width of the 95% interval.
    pub ci95: f64,
}

impl Score {
    pub fn from_counts(wins: u32, draws: u32, losses: u32) -> Score {
        let n = wins + draws + losses;
        if n == 0 {
            return Score {
                n,
                mean: 0.5,
                ci95: 0.5,
            };
        }
        let nf = f64::from(n);
        let mean = (f64::from(wins) + 0.5 * f64::from(draws)) / nf;
        let var = (f64::from(wins) * (1.0 - mean).powi(2)
            + f64::from(draws) * (0.5 - mean).powi(2)
            + f64::from(losses) * mean.powi(2))
            / nf;
        Score {
            n,
            mean,
            ci95: 1.96 * (var / nf).sqrt(),
        }
    }
    fn clamp(&self, p: f64) -> f64 {
        let eps = 0.5 / f64::from(self.n.max(1));
        p.clamp(eps, 1.0 - eps)
    }
    /// The Elo difference matching the mean score.
    pub fn elo(&self) -> f64 {
        elo_of(self.clamp(self.mean))
    }
    /// The Elo differences matching the ends of the 95% interval.
    pub fn elo_interval(&self) -> (f64, f64) {
        (
            elo_of(self.clamp(self.mean - self.ci95)),
            elo_of(self.clamp(self.mean + self.ci95)),
        )
    }
}

/// The Elo difference for an expected score `p` in `(0, 1)`.
pub fn elo_of(p: f64) -> f64 {
    400.0 * (p / (1.0 - p)).log10()
}

/// A finished tournament. Its JSON form is the `--json` output of `tabula tournament`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TournamentReport {
    pub agents: Vec<AgentResult>,
    pub pairs: Vec<PairResult>,
}

impl TournamentReport {
    fn build(names: &[String], games: &[GameSummary], pairs: &[(usize, usize)]) -> Self {
        let mut pr: Vec<PairResult> = pairs
            .iter()
            .map(|&(a, b)| PairResult {
                a: names[a].clone(),
                b: names[b].clone(),
                wins_a: 0,
                draws: 0,
                wins_b: 0,
            })
            .collect();
        let mut ag: Vec<AgentResult> = names
            .iter()
            .map(|n| AgentResult {
                name: n.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                score: 0.0,
            })
            .collect();
        for g in games {
            let (a, b) = pairs[g.pair];
            let p = &mut pr[g.pair];
            match g.result_a {
                SeatResult::Win => {
                    p.wins_a += 1;
                    ag[a].wins += 1;
                    ag[b].losses += 1;
                }
                SeatResult::Draw => {
                    p.draws += 1;
                    ag[a].draws += 1;
                    ag[b].draws += 1;
                }
                SeatResult::Loss => {
                    p.wins_b += 1;
                    ag[a].losses += 1;
                    ag[b].wins += 1;
                }
            }
            ag[a].games += 1;
            ag[b].games += 1;
        }
        for a in &mut ag {
            a.score = a.score_ci().mean;
        }
        TournamentReport {
            agents: ag,
            pairs: pr,
        }
    }
}

fn mix(a: u64, b: u64) -> u64 {
    stable_hash(&(a, b))
}

/// The step both game loops of the AI share (a tournament's games, [`play_game`], and the
/// training data's, [`crate::nnue::data::play_game`]): resolves the chance actions due in `m` and
/// gives the seat that decides next (the first of several that act at once), or `None` once the
/// game is over, with the number of chance actions taken.
pub fn next_decision<G: tabula_core::Game>(
    m: &mut Match<G>,
) -> Result<(Option<Seat>, u64), AiError> {
    let chance = m
        .resolve_chance()
        .map_err(|e| AiError::Game(e.to_string()))?
        .len() as u64;
    let seat = match m.to_act() {
        ToAct::Over(_) => None,
        ToAct::Seat(s) => Some(s),
        ToAct::Seats(list) => list.first().copied(),
        // `resolve_chance` returns only once no chance action is due.
        ToAct::Chance => {
            return Err(AiError::Game(
                "a chance action is still due after resolving chance".into(),
            ));
        }
    };
    Ok((seat, chance))
}

/// Plays one game between `seat_agents` (one spec per seat) and returns the outcome (`None` when the
/// action limit stopped it) and the number of actions.
pub fn play_game<G: Knowledge>(
    options: &G::Options,
    seat_agents: &[&AgentSpec],
    seed: u64,
    max_actions: u64,
) -> Result<(Option<tabula_core::Outcome>, u64), AiError> {
    let mut m =
        Match::<G>::new(options.clone(), seed).map_err(|e| AiError::Options(e.to_string()))?;
    let mut n = 0u64;
    while n < max_actions {
        let (seat, chance) = next_decision(&mut m)?;
        n += chance;
        let Some(seat) = seat else {
            break;
        };
        let spec = seat_agents
            .get(seat.index())
            .ok_or_else(|| AiError::Tournament(format!("no agent for seat {seat}")))?;
        let info = InfoSet::new(m.state(), seat)?;
        let (action, _) = decide(spec, &info, mix(seed, n))?;
        let notation = m.state().action_notation(&action);
        m.apply(Actor::Seat(seat), action).map_err(|e| {
            AiError::Game(format!(
                "agent {spec} chose a refused action {notation} for seat {seat}: {e}"
            ))
        })?;
        n += 1;
    }
    Ok((m.state().to_act().outcome().cloned(), n))
}

fn run_typed<G: Knowledge>(
    cfg: &TournamentConfig,
    done: &[GameSummary],
    on_game: &(dyn Fn(&GameSummary) -> Result<(), AiError> + Sync),
) -> Result<TournamentReport, AiError> {
    let options: G::Options = tabula_core::options::parse_json(&cfg.options)
        .map_err(|e| AiError::Options(e.to_string()))?;
    let seats = G::new(&options)
        .map_err(|e| AiError::Options(e.to_string()))?
        .seats();
    if cfg.agents.len() < 2 {
        return Err(AiError::Tournament(
            "a tournament needs at least two agents".into(),
        ));
    }
    if cfg.games_per_pair == 0 {
        return Err(AiError::Tournament(
            "each pair must play at least one game".into(),
        ));
    }
    let names: Vec<String> = cfg.agents.iter().map(|a| a.to_string()).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(AiError::Tournament(format!("agent `{n}` is listed twice")));
        }
    }
    let pairs = round_robin(cfg.agents.len());
    // Games already played (from a results file): kept, not replayed.
    let mut kept: Vec<GameSummary> = Vec::new();
    let mut jobs: Vec<(usize, u32)> = Vec::new();
    for (p, &(a, b)) in pairs.iter().enumerate() {
        for g in 0..cfg.games_per_pair {
            let seed = game_seed(cfg.seed, p, g);
            let previous = done
                .iter()
                .find(|d| is_job(d, cfg, (&names[a], &names[b]), g, seed));
            match previous {
                Some(d) => kept.push(GameSummary {
                    pair: p,
                    ..d.clone()
                }),
                None => jobs.push((p, g)),
            }
        }
    }
    let threads = if cfg.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        cfg.threads
    }
    .min(jobs.len())
    .max(1);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<GameSummary>> = Mutex::new(kept);
    let error: Mutex<Option<AiError>> = Mutex::new(None);
    let fail = |e: AiError| {
        failed.store(true, Ordering::Relaxed);
        if let Ok(mut slot) = error.lock() {
            slot.get_or_insert(e);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    if failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(p, g)) = jobs.get(j) else { break };
                    let (a, b) = pairs[p];
                    let seat_a = (g as usize) % seats;
                    let seat_agents: Vec<&AgentSpec> = (0..seats)
                        .map(|s| {
                            if s == seat_a {
                                &cfg.agents[a]
                            } else {
                                &cfg.agents[b]
                            }
                        })
                        .collect();
                    let seed = game_seed(cfg.seed, p, g);
                    match play_game::<G>(&options, &seat_agents, seed, cfg.max_actions) {
                        Ok((outcome, actions)) => {
                            let (result_a, reason) = match outcome {
                                Some(o) => (
                                    o.results.get(seat_a).copied().unwrap_or(SeatResult::Draw),
                                    o.reason,
                                ),
                                None => (SeatResult::Draw, "action limit".to_string()),
                            };
                            let summary = GameSummary {
                                game_id: cfg.game.clone(),
                                options: cfg.options.clone(),
                                tournament_seed: cfg.seed,
                                pair: p,
                                a: names[a].clone(),
                                b: names[b].clone(),
                                game: g,
                                seat_a: seat_a as u8,
                                seats: seat_agents.iter().map(|s| s.to_string()).collect(),
                                result_a,
                                actions,
                                reason,
                                seed,
                            };
                            if let Err(e) = on_game(&summary) {
                                fail(e);
                            }
                            if let Ok(mut r) = results.lock() {
                                r.push(summary);
                            }
                        }
                        Err(e) => fail(e),
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().ok().flatten() {
        return Err(e);
    }
    let mut games = results.into_inner().unwrap_or_default();
    games.sort_by_key(|g| (g.pair, g.game));
    Ok(TournamentReport::build(&names, &games, &pairs))
}

/// Every pair `(a, b)`, `a < b`, in round-robin order.
fn round_robin(agents: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for a in 0..agents {
        for b in a + 1..agents {
            pairs.push((a, b));
        }
    }
    pairs
}

/// Whether the recorded game `d` is game `g` (seed `seed`) of the pair `names` in `cfg`.
fn is_job(d: &GameSummary, cfg: &TournamentConfig, names: (&str, &str), g: u32, seed: u64) -> bool {
    d.game_id == cfg.game
        && d.options == cfg.options
        && d.tournament_seed == cfg.seed
        && d.a == names.0
        && d.b == names.1
        && d.game == g
        && d.seed == seed
}

/// The seed of game `g` of pair `p`.
fn game_seed(tournament_seed: u64, p: usize, g: u32) -> u64 {
    mix(mix(tournament_seed, p as u64), u64::from(g))
}

/// The number of games a tournament plays.
pub fn total_games(cfg: &TournamentConfig) -> u64 {
    let n = cfg.agents.len() as u64;
    n * n.saturating_sub(1) / 2 * u64::from(cfg.games_per_pair)
}

/// Runs a round robin; `on_game` is called (from worker threads) after every finished game.
pub fn run(
    cfg: &TournamentConfig,
    on_game: &(dyn Fn(&GameSummary) + Sync),
) -> Result<TournamentReport, AiError> {
    run_with(cfg, &[], &|g| {
        on_game(g);
        Ok(())
    })
}

/// Runs a round robin, keeping the games of `done` that this tournament would play (same game,
/// options, tournament seed, agents, game number and game seed: e.g. read back from the results file
/// of a killed run) instead of playing them again. `on_game` is called (from worker threads) after
/// every newly finished game; when it fails (say, the results file cannot be written) no further game
/// starts and the run returns that error once the games under way have finished (and been passed
/// to `on_game`).
pub fn run_with(
    cfg: &TournamentConfig,
    done: &[GameSummary],
    on_game: &(dyn Fn(&GameSummary) -> Result<(), AiError> + Sync),
) -> Result<TournamentReport, AiError> {
    struct Run<'a> {
        cfg: &'a TournamentConfig,
        done: &'a [GameSummary],
        on_game: &'a (dyn Fn(&GameSummary) -> Result<(), AiError> + Sync),
    }
    impl GameFn for Run<'_> {
        type Output = Result<TournamentReport, AiError>;
        fn call<G: Knowledge>(self) -> Self::Output {
            run_typed::<G>(self.cfg, self.done, self.on_game)
        }
    }
    with_game(&cfg.game, Run { cfg, done, on_game })
        .unwrap_or_else(|| Err(AiError::UnknownGame(cfg.game.clone())))
}

/// The games of `done` that [`run_with`] keeps for `cfg` instead of playing them again.
pub fn kept_games(cfg: &TournamentConfig, done: &[GameSummary]) -> Vec<GameSummary> {
    let names: Vec<String> = cfg.agents.iter().map(|a| a.to_string()).collect();
    let pairs = round_robin(cfg.agents.len());
    let mut kept = Vec::new();
    for (p, &(a, b)) in pairs.iter().enumerate() {
        for g in 0..cfg.games_per_pair {
            let seed = game_seed(cfg.seed, p, g);
            if let Some(d) = done
                .iter()
                .find(|d| is_job(d, cfg, (&names[a], &names[b]), g, seed))
            {
                kept.push(GameSummary {
                    pair: p,
                    ..d.clone()
                });
            }
        }
    }
    kept
}

/// Results files: one [`GameSummary`] per line, as JSON, appended as each game finishes, so a run that
/// is killed keeps every game it finished; [`parse_results`] reads them back (to resume a run with
/// [`run_with`], or to [`summarise`] them).
pub struct ResultsFile {
    file: Mutex<std::fs::File>,
    path: std::path::PathBuf,
}

impl ResultsFile {
    /// Opens (creating it when missing) `path` for appending.
    pub fn append(path: &std::path::Path) -> Result<ResultsFile, AiError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| AiError::Results(format!("cannot open {}: {e}", path.display())))?;
        Ok(ResultsFile {
            file: Mutex::new(file),
            path: path.to_path_buf(),
        })
    }

    /// Appends one game as a JSON line (one write of the whole line) and flushes it to the file.
    pub fn record(&self, game: &GameSummary) -> Result<(), AiError> {
        use std::io::Write;
        let mut line = serde_json::to_string(game).map_err(|e| AiError::Results(e.to_string()))?;
        line.push('\n');
        let mut file = self
            .file
            .lock()
            .map_err(|_| AiError::Results("results file lock poisoned".into()))?;
        file.write_all(line.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| AiError::Results(format!("cannot write {}: {e}", self.path.display())))
    }
}

/// The games read back from a results file.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedResults {
    pub games: Vec<GameSummary>,
    /// Whether the last line was cut short (a run killed while writing it) and was skipped.
    pub truncated_last_line: bool,
}

/// Reads a results file's text (see [`ResultsFile`]). Blank lines are skipped; an unreadable last
/// line without its newline is a write cut short by a kill and is skipped (reported in
/// [`ParsedResults::truncated_last_line`]); any other unreadable line is an error naming its number.
pub fn parse_results(text: &str) -> Result<ParsedResults, AiError> {
    let mut games = Vec::new();
    let mut truncated_last_line = false;
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameSummary>(line) {
            Ok(g) => games.push(g),
            // The text after the last '\n' is an unfinished line.
            Err(_) if i + 1 == lines.len() => truncated_last_line = true,
            Err(e) => {
                return Err(AiError::Results(format!(
                    "line {}: not a game record: {e}",
                    i + 1
                )));
            }
        }
    }
    Ok(ParsedResults {
        games,
        truncated_last_line,
    })
}

/// The report of one game (and options) in a results file.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub game_id: String,
    pub options: Value,
    /// Games per pair: the most any pair played (pairs of a killed run may have fewer).
    pub max_games_per_pair: u32,
    pub report: TournamentReport,
}

/// Summarises recorded games into the tournament table, one [`Summary`] per game id and options (in
/// order of first appearance). Agents and pairs appear in order of first appearance; a game recorded
/// twice (the same pair, game number and game seed, e.g. a run repeated into the same file) counts
/// once.
pub fn summarise(games: &[GameSummary]) -> Vec<Summary> {
    let mut groups: Vec<(String, Value, Vec<&GameSummary>)> = Vec::new();
    for g in games {
        match groups
            .iter_mut()
            .find(|(id, opts, _)| *id == g.game_id && *opts == g.options)
        {
            Some((_, _, list)) => {
                let duplicate = list
                    .iter()
                    .any(|d| d.a == g.a && d.b == g.b && d.game == g.game && d.seed == g.seed);
                if !duplicate {
                    list.push(g);
                }
            }
            None => groups.push((g.game_id.clone(), g.options.clone(), vec![g])),
        }
    }
    groups
        .into_iter()
        .map(|(game_id, options, list)| {
            let mut names: Vec<String> = Vec::new();
            let mut pairs: Vec<(usize, usize)> = Vec::new();
            let index = |n: &str, names: &mut Vec<String>| match names.iter().position(|x| x == n) {
                Some(i) => i,
                None => {
                    names.push(n.to_string());
                    names.len() - 1
                }
            };
            let mut renumbered = Vec::with_capacity(list.len());
            for g in list {
                let pair = (index(&g.a, &mut names), index(&g.b, &mut names));
                let p = match pairs.iter().position(|&x| x == pair) {
                    Some(p) => p,
                    None => {
                        pairs.push(pair);
                        pairs.len() - 1
                    }
                };
                renumbered.push(GameSummary {
                    pair: p,
                    ..g.clone()
                });
            }
            let report = TournamentReport::build(&names, &renumbered, &pairs);
            let max_games_per_pair = report
                .pairs
                .iter()
                .map(PairResult::games)
                .max()
                .unwrap_or(0);
            Summary {
                game_id,
                options,
                max_games_per_pair,
                report,
            }
        })
        .collect()
}

/// Running totals of a tournament for progress reports: games done out of the total, and each pair's
/// wins, draws and losses so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub done: u64,
    pub total: u64,
    /// `(a, b, wins_a, draws, wins_b)` per pair, in order of first finished game.
    pub pairs: Vec<(String, String, u32, u32, u32)>,
}

impl Progress {
    /// No game finished yet, `total` to play.
    pub fn new(total: u64) -> Progress {
        Progress {
            done: 0,
            total,
            pairs: Vec::new(),
        }
    }

    /// Counts one finished game.
    pub fn record(&mut self, g: &GameSummary) {
        self.done += 1;
        let i = match self.pairs.iter().position(|p| p.0 == g.a && p.1 == g.b) {
            Some(i) => i,
            None => {
                self.pairs.push((g.a.clone(), g.b.clone(), 0, 0, 0));
                self.pairs.len() - 1
            }
        };
        let p = &mut self.pairs[i];
        match g.result_a {
            SeatResult::Win => p.2 += 1,
            SeatResult::Draw => p.3 += 1,
            SeatResult::Loss => p.4 += 1,
        }
    }

    /// Every pair's running score, e.g. `level5–random +5 =1 -0 (91.7%)`, joined by `; `.
    pub fn scores(&self) -> String {
        self.pairs
            .iter()
            .map(|(a, b, w, d, l)| {
                let s = Score::from_counts(*w, *d, *l);
                format!("{a}–{b} +{w} ={d} -{l} ({:.1}%)", 100.0 * s.mean)
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// A plain line for a finished game `g` (already recorded): the count, the game and the scores.
    pub fn line(&self, g: &GameSummary) -> String {
        let result = match g.result_a {
            SeatResult::Win => "win",
            SeatResult::Draw => "draw",
            SeatResult::Loss => "loss",
        };
        format!(
            "[{}/{}] {} vs {} game {} ({} in seat {}): {} for {} ({}, {} actions) | {}",
            self.done,
            self.total,
            g.a,
            g.b,
            g.game + 1,
            g.a,
            g.seat_a,
            result,
            g.a,
            g.reason,
            g.actions,
            self.scores()
        )
    }
}

/// One game's benchmark figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchReport {
    pub game: String,
    /// Random playouts from the start position per second.
    pub playouts_per_sec: f64,
    /// Mean actions per random playout (chance included).
    pub actions_per_playout: f64,
    /// Actions per second in random playouts.
    pub playout_actions_per_sec: f64,
    /// Plain UCT iterations per second (random playouts to the end).
    pub uct_iterations_per_sec: f64,
    /// ISMCTS iterations per second with the evaluation cut-off (the levels' search).
    pub mcts_iterations_per_sec: f64,
    /// Alpha-beta searched states per second, on a perfect-information position (`None` when the game
    /// has none at the benchmark position).
    pub alphabeta_nodes_per_sec: Option<f64>,
    /// Alpha-beta depth reached in the measured search.
    pub alphabeta_depth: Option<u32>,
}

/// A mid-game position for benchmarks: the start, then `plies` actions of the `greedy` agent (the setup
/// policy included; chance drawn from `seed`), then more until the seat to act has two or more actions.
fn bench_position<G: Knowledge>(options: &G::Options, seed: u64, plies: u64) -> Result<G, AiError> {
    let mut m =
        Match::<G>::new(options.clone(), seed).map_err(|e| AiError::Options(e.to_string()))?;
    let greedy = AgentSpec::new(AgentKind::Greedy);
    // `plies` actions, then on until the seat to act has a real choice (at most 200 more).
    for n in 0..plies + 200 {
        m.resolve_chance()
            .map_err(|e| AiError::Game(e.to_string()))?;
        let Some(&seat) = m.to_act().seats().first() else {
            break;
        };
        if n >= plies && m.legal_actions(seat).len() >= 2 {
            break;
        }
        let info = InfoSet::new(m.state(), seat)?;
        let (a, _) = decide(&greedy, &info, mix(seed, n))?;
        m.apply(Actor::Seat(seat), a)
            .map_err(|e| AiError::Game(e.to_string()))?;
    }
    m.resolve_chance()
        .map_err(|e| AiError::Game(e.to_string()))?;
    Ok(m.into_parts().0)
}

fn bench_typed<G: Knowledge>(options: &Value, seconds: f64) -> Result<BenchReport, AiError> {
    let options: G::Options =
        tabula_core::options::parse_json(options).map_err(|e| AiError::Options(e.to_string()))?;
    let start = G::new(&options).map_err(|e| AiError::Options(e.to_string()))?;
    let budget = Duration::from_secs_f64(seconds.max(0.05));
    let mut rng = tabula_core::rng_from_seed(7);
    // Random playouts from the start.
    let t = Instant::now();
    let (mut playouts, mut actions) = (0u64, 0u64);
    while t.elapsed() < budget {
        let mut s = start.clone();
        actions += crate::mcts::bench_playout(&mut s, &mut rng);
        playouts += 1;
    }
    let el = t.elapsed().as_secs_f64();
    let mid = bench_position::<G>(&options, 11, 12)?;
    let seat = mid.to_act().seats().first().copied().unwrap_or(Seat(0));
    let rate = |spec: &AgentSpec| -> Result<f64, AiError> {
        let mut spec = spec.clone();
        spec.budget = Some(u64::from(u32::MAX));
        spec.time = Some(budget);
        let info = InfoSet::new(&mid, seat)?;
        let t = Instant::now();
        let (_, st) = decide(&spec, &info, 3)?;
        Ok(st.iterations as f64 / t.elapsed().as_secs_f64().max(1e-9))
    };
    let uct = rate(&AgentSpec::new(AgentKind::Uct))?;
    let mcts = rate(&AgentSpec::new(AgentKind::Ismcts))?;
    let (ab, depth) = if mid.seats() == 2 && mid.perfect_information() {
        let mut spec = AgentSpec::new(AgentKind::AlphaBeta);
        spec.budget = Some(u64::MAX / 4);
        spec.time = Some(budget);
        let info = InfoSet::new(&mid, seat)?;
        let t = Instant::now();
        let (_, st) = decide(&spec, &info, 3)?;
        (
            Some(st.nodes as f64 / t.elapsed().as_secs_f64().max(1e-9)),
            Some(st.depth),
        )
    } else {
        (None, None)
    };
    Ok(BenchReport {
        game: G::ID.to_string(),
        playouts_per_sec: playouts as f64 / el.max(1e-9),
        actions_per_playout: actions as f64 / (playouts.max(1)) as f64,
        playout_actions_per_sec: actions as f64 / el.max(1e-9),
        uct_iterations_per_sec: uct,
        mcts_iterations_per_sec: mcts,
        alphabeta_nodes_per_sec: ab,
        alphabeta_depth: depth,
    })
}

/// Measures one game for about `4 × seconds` (playouts, UCT, ISMCTS, alpha-beta).
pub fn bench(game: &str, options: &Value, seconds: f64) -> Result<BenchReport, AiError> {
    struct Bench<'a> {
        options: &'a Value,
        seconds: f64,
    }
    impl GameFn for Bench<'_> {
        type Output = Result<BenchReport, AiError>;
        fn call<G: Knowledge>(self) -> Self::Output {
            bench_typed::<G>(self.options, self.seconds)
        }
    }
    with_game(game, Bench { options, seconds })
        .unwrap_or_else(|| Err(AiError::UnknownGame(game.to_string())))
}
