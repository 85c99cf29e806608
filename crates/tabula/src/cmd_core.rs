//! The subcommands that inspect and exercise games through the engine core: `games`, `new`, `moves`,
//! `apply`, `perft`, `playout`, `replay`.

use std::io::Read;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};
use tabula_core::dynamic::{DynGame, DynState, Registry};
use tabula_core::record::JsonRecord;
use tabula_core::{Actor, Observer, Seat, SeatResult, ToAct, rng_from_seed};

/// Options shared by the commands that create a game.
#[derive(Args, Debug, Clone)]
pub struct GameOptionArgs {
    /// A game option as name=value (repeatable), named as in the rules; `tabula games` lists them.
    #[arg(short = 'o', long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Print the games and their option schemas as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct NewArgs {
    /// The game id (see `tabula games`).
    pub game: String,
    #[command(flatten)]
    pub options: GameOptionArgs,
    /// Seed for the chance actions at the start (a shuffle, who moves first); they are taken so that the
    /// printed state waits for a player. Without it the state stops at the first chance decision.
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The game id.
    pub game: String,
    /// A state JSON file (as printed by `tabula new` / `tabula apply`, or written by hand); `-` for stdin.
    #[arg(long, value_name = "FILE|-")]
    pub state: String,
    /// List the actions of this seat (default: the first seat that owes a decision; at a chance node,
    /// the chance outcomes).
    #[arg(long)]
    pub seat: Option<u8>,
    /// Print objects `{"action": …, "notation": "…", "words": "…", "cells": […]}` instead of bare
    /// actions (`words`: the action in plain words; `cells`: what a player clicks to choose the
    /// action; a chance outcome has `probability` instead of both).
    #[arg(long)]
    pub notation: bool,
}

#[derive(Args, Debug)]
pub struct ApplyArgs {
    /// The game id.
    pub game: String,
    /// The state JSON file; `-` for stdin.
    #[arg(long, value_name = "FILE|-")]
    pub state: String,
    /// The action, as JSON (an element of `tabula moves`) or in the game's notation.
    #[arg(long)]
    pub action: String,
    /// The seat taking the action (default: the seat that owes a decision; chance at a chance node).
    #[arg(long)]
    pub seat: Option<u8>,
    /// After the action, take any chance actions with this seed until a player must decide.
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game id.
    pub game: String,
    /// Depth in actions (every seat's and chance's actions count).
    #[arg(long)]
    pub depth: u32,
    /// Start from this state JSON file (`-` for stdin) instead of the initial state.
    #[arg(long, value_name = "FILE|-")]
    pub state: Option<String>,
    #[command(flatten)]
    pub options: GameOptionArgs,
    /// Seed for the initial chance actions when starting from the initial state.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the count below each root action at the final depth.
    #[arg(long)]
    pub divide: bool,
}

#[derive(Args, Debug)]
pub struct PlayoutArgs {
    /// The game id.
    pub game: String,
    /// Number of random games.
    #[arg(long, default_value_t = 100)]
    pub count: u64,
    #[command(flatten)]
    pub options: GameOptionArgs,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop a game after this many actions and count it as unfinished.
    #[arg(long, default_value_t = 100_000)]
    pub max_actions: u64,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record JSON file (`-` for stdin): {"game", "options", "seed", "actions", "result"}.
    pub record: String,
    /// Also check the seed: it must match the record's `seed_commitment` (the SHA-256 of its 8
    /// little-endian bytes, which the server publishes before the first move), and every chance action
    /// must be the one the seed draws.
    #[arg(long)]
    pub audit_seed: bool,
    /// Print the final state as JSON instead of drawing it.
    #[arg(long)]
    pub json: bool,
    /// Also list the moves, one line per turn, in the game's plain words (as a spectator sees them).
    #[arg(long)]
    pub moves: bool,
}

/// The moves of a record in plain words as a spectator sees them, one numbered line per turn and
/// actor (a turn's steps joined by "; "). Fails if an action is refused.
pub fn move_lines(
    game: &dyn tabula_core::dynamic::DynGame,
    record: &JsonRecord,
) -> Result<Vec<String>> {
    let mut state = game.new_state(&record.options)?;
    let mut lines: Vec<(u32, tabula_core::Actor, Vec<String>)> = Vec::new();
    for a in &record.actions {
        let turn = state.turn_number();
        let words = state.action_words(a.actor, &a.action, Observer::Spectator)?;
        match lines.last_mut() {
            Some((t, actor, steps)) if *t == turn && *actor == a.actor => steps.push(words),
            _ => lines.push((turn, a.actor, vec![words])),
        }
        state.apply(a.actor, &a.action)?;
    }
    Ok(lines
        .into_iter()
        .enumerate()
        .map(|(i, (_, _, steps))| format!("{}. {}", i + 1, steps.join("; ")))
        .collect())
}

fn read_input(path: &str) -> Result<String> {
    if path == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(PathBuf::from(path))
            .with_context(|| format!("cannot read `{path}`"))
    }
}

pub(crate) fn read_json(path: &str) -> Result<Value> {
    let text = read_input(path)?;
    serde_json::from_str(&text).with_context(|| format!("`{path}` is not valid JSON"))
}

fn load_state(game: &dyn DynGame, path: &str) -> Result<Box<dyn DynState>> {
    let json = read_json(path)?;
    game.load_state(&json)
        .with_context(|| format!("`{path}` is not a valid {} state", game.id()))
}

fn new_state(game: &dyn DynGame, options: &GameOptionArgs) -> Result<Box<dyn DynState>> {
    let opts = game.parse_options(&options.options)?;
    Ok(game.new_state(&opts)?)
}

fn resolve_chance(state: &mut dyn DynState, seed: u64) -> Result<()> {
    tabula_core::dynamic::resolve_chance(state, &mut rng_from_seed(seed), |_| {})?;
    Ok(())
}

pub(crate) fn print_json(v: &Value) -> Result<()> {
    outln!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}

pub fn games(args: &GamesArgs, registry: &Registry) -> Result<()> {
    if args.json {
        let list: Vec<Value> = registry
            .games()
            .iter()
            .map(|g| {
                json!({"id": g.id(), "name": g.name(), "description": g.description(),
                       "options": g.options_schema()})
            })
            .collect();
        return print_json(&Value::Array(list));
    }
    for g in registry.games() {
        outln!("{}", g.id());
        outln!("    {} — {}", g.name(), g.description());
        for o in g.options_schema() {
            outln!(
                "    --option {}={}  (default {}): {}",
                o.name,
                o.valid_values(),
                o.default,
                o.description
            );
        }
    }
    Ok(())
}

pub fn new(args: &NewArgs, registry: &Registry) -> Result<()> {
    let game = registry.get(&args.game)?;
    let mut state = new_state(game.as_ref(), &args.options)?;
    if let Some(seed) = args.seed {
        resolve_chance(state.as_mut(), seed)?;
    }
    print_json(&state.state())
}

/// The seat whose actions a command lists or applies: the one given, or the first that owes a decision.
fn default_actor(state: &dyn DynState, seat: Option<u8>) -> Result<Actor> {
    if let Some(s) = seat {
        if usize::from(s) >= state.seats() {
            bail!(
                "seat {s} does not exist: this game has seats 0..{}",
                state.seats()
            );
        }
        return Ok(Actor::Seat(Seat(s)));
    }
    match state.to_act() {
        ToAct::Seat(s) => Ok(Actor::Seat(s)),
        ToAct::Seats(list) => list
            .first()
            .map(|s| Actor::Seat(*s))
            .ok_or_else(|| anyhow!("no seat owes a decision")),
        ToAct::Chance => Ok(Actor::Chance),
        ToAct::Over(outcome) => Err(anyhow!("the game is over ({})", outcome.reason)),
    }
}

pub fn moves(args: &MovesArgs, registry: &Registry) -> Result<()> {
    let game = registry.get(&args.game)?;
    let state = load_state(game.as_ref(), &args.state)?;
    let list: Vec<Value> = match state.to_act() {
        ToAct::Over(_) if args.seat.is_none() => Vec::new(),
        _ => match default_actor(state.as_ref(), args.seat)? {
            Actor::Seat(seat) => {
                if args.notation {
                    state
                        .legal_actions_listed(seat)
                        .into_iter()
                        .map(|a| json!(a))
                        .collect()
                } else {
                    state.legal_actions(seat)
                }
            }
            Actor::Chance => state
                .chance_outcomes()
                .into_iter()
                .map(|(a, p)| {
                    if args.notation {
                        let n = state.notation(&a).unwrap_or_default();
                        json!({"action": a, "notation": n, "probability": p})
                    } else {
                        a
                    }
                })
                .collect(),
        },
    };
    print_json(&Value::Array(list))
}

pub fn apply(args: &ApplyArgs, registry: &Registry) -> Result<()> {
    let game = registry.get(&args.game)?;
    let mut state = load_state(game.as_ref(), &args.state)?;
    let actor = default_actor(state.as_ref(), args.seat)?;
    let action = state.parse_action(&args.action)?;
    state.apply(actor, &action)?;
    if let Some(seed) = args.seed {
        resolve_chance(state.as_mut(), seed)?;
    }
    print_json(&state.state())
}

pub fn perft(args: &PerftArgs, registry: &Registry) -> Result<()> {
    let game = registry.get(&args.game)?;
    let state = match &args.state {
        Some(path) => load_state(game.as_ref(), path)?,
        None => {
            let mut s = new_state(game.as_ref(), &args.options)?;
            resolve_chance(s.as_mut(), args.seed)?;
            s
        }
    };
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec!["depth", "nodes", "seconds", "nodes/s"]);
    let spinner = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} perft depth {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    for depth in 1..=args.depth {
        spinner.set_message(depth.to_string());
        let start = Instant::now();
        let nodes = state.perft(depth);
        let secs = start.elapsed().as_secs_f64();
        table.add_row(vec![
            depth.to_string(),
            nodes.to_string(),
            format!("{secs:.3}"),
            format!("{:.0}", nodes as f64 / secs.max(1e-9)),
        ]);
    }
    spinner.finish_and_clear();
    if args.divide {
        for (notation, count) in state.perft_divide(args.depth) {
            outln!("{notation}: {count}");
        }
    }
    outln!("{table}");
    Ok(())
}

pub fn playout(args: &PlayoutArgs, registry: &Registry) -> Result<()> {
    let game = registry.get(&args.game)?;
    let options = game.parse_options(&args.options.options)?;
    let initial = game.new_state(&options)?;
    let seats = initial.seats();
    let mut wins = vec![0u64; seats];
    let mut draws = vec![0u64; seats];
    let mut losses = vec![0u64; seats];
    let (mut unfinished, mut actions) = (0u64, 0u64);
    let bar = ProgressBar::new(args.count).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    for i in 0..args.count {
        let mut state = initial.clone();
        let mut rng = rng_from_seed(args.seed.wrapping_add(i));
        let result = state.random_playout(&mut rng, args.max_actions);
        actions += result.actions;
        match result.outcome {
            Some(outcome) => {
                for (s, r) in outcome.results.iter().enumerate().take(seats) {
                    match r {
                        SeatResult::Win => wins[s] += 1,
                        SeatResult::Draw => draws[s] += 1,
                        SeatResult::Loss => losses[s] += 1,
                    }
                }
            }
            None => unfinished += 1,
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec!["seat", "wins", "draws", "losses"]);
    for s in 0..seats {
        table.add_row(vec![
            format!("{} ({})", s, initial.seat_name(Seat::new(s))),
            wins[s].to_string(),
            draws[s].to_string(),
            losses[s].to_string(),
        ]);
    }
    outln!("{table}");
    if unfinished > 0 {
        outln!(
            "{unfinished} games unfinished after {} actions",
            args.max_actions
        );
    }
    outln!(
        "{} actions, {:.0} games/s, {:.0} actions/s",
        actions,
        args.count as f64 / secs.max(1e-9),
        actions as f64 / secs.max(1e-9)
    );
    outln!("{} games in {:.3} s", args.count, secs);
    Ok(())
}

pub fn replay(args: &ReplayArgs, registry: &Registry) -> Result<()> {
    let json = read_json(&args.record)?;
    let record: JsonRecord = serde_json::from_value(json)
        .with_context(|| format!("`{}` is not a game record", args.record))?;
    let game = registry.get(&record.game)?;
    let committed = if args.audit_seed {
        record.check_seed_commitment().map_err(|e| anyhow!(e))?
    } else {
        false
    };
    let state = game.replay(&record, args.audit_seed)?;
    if args.json {
        return print_json(&state.state());
    }
    if args.moves {
        for line in move_lines(game.as_ref(), &record)? {
            outln!("{line}");
        }
    }
    outln!("{}", state.render_text(Observer::Spectator));
    // A game ended by resignation, time or agreement is over by its record, not by the rules.
    let ended = match state.to_act() {
        ToAct::Over(outcome) => Some(outcome),
        _ => record.result.clone(),
    };
    match ended {
        Some(outcome) => {
            let results: Vec<String> = outcome
                .results
                .iter()
                .enumerate()
                .map(|(i, r)| format!("{}: {r:?}", state.seat_name(Seat::new(i))))
                .collect();
            outln!("Game over ({}): {}", outcome.reason, results.join(", "));
        }
        None => outln!("Game in progress; to act: {:?}", state.to_act()),
    }
    outln!("Record verified: {} actions.", record.actions.len());
    if args.audit_seed {
        let chance = record
            .actions
            .iter()
            .filter(|a| a.actor == tabula_core::Actor::Chance)
            .count();
        if committed {
            outln!(
                "Seed {} matches its commitment {}; all {chance} chance actions are the ones it draws.",
                record.seed,
                record.seed_commitment.as_deref().unwrap_or_default()
            );
        } else {
            outln!(
                "Seed {}: all {chance} chance actions are the ones it draws (the record carries no seed \
                 commitment to check it against).",
                record.seed
            );
        }
    }
    Ok(())
}
