//! `tabula play`: a game in the terminal, hot-seat, drawn as text, optionally with AI seats.

use std::io::BufRead;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use serde_json::Value;
use tabula_core::dynamic::{DynState, ListedAction, Registry};
use tabula_core::record::{JsonRecord, RecordedAction};
use tabula_core::{Actor, Observer, Seat, ToAct, rng_from_seed};

use crate::cmd_core::GameOptionArgs;

#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game id (see `tabula games`).
    pub game: String,
    #[command(flatten)]
    pub options: GameOptionArgs,
    /// Seed for dice, shuffles and the AI (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Let the AI play a seat: SEAT=LEVEL, e.g. `--ai 1=3` (levels 1..5; repeatable).
    #[arg(long, value_name = "SEAT=LEVEL")]
    pub ai: Vec<String>,
    /// Write the game record (JSON) to this file when the game ends or you quit.
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
    /// How many legal actions to list before asking (type `moves` to see them all).
    #[arg(long, default_value_t = 40)]
    pub list: usize,
}

fn parse_ai(specs: &[String], seats: usize) -> Result<Vec<Option<u8>>> {
    let mut levels = vec![None; seats];
    for spec in specs {
        let (seat, level) = spec
            .split_once('=')
            .ok_or_else(|| anyhow!("--ai takes SEAT=LEVEL, got `{spec}`"))?;
        let seat: usize = seat
            .trim()
            .parse()
            .map_err(|_| anyhow!("bad seat in --ai `{spec}`"))?;
        let level: u8 = level
            .trim()
            .parse()
            .map_err(|_| anyhow!("bad level in --ai `{spec}`"))?;
        if seat >= seats {
            bail!("--ai seat {seat} does not exist: this game has seats 0..{seats}");
        }
        if !(1..=5).contains(&level) {
            bail!("--ai level {level} is not in 1..=5");
        }
        levels[seat] = Some(level);
    }
    Ok(levels)
}

struct Session {
    state: Box<dyn DynState>,
    record: JsonRecord,
}

impl Session {
    fn act(&mut self, actor: Actor, action: Value) -> Result<()> {
        let seen = self
            .state
            .describe_action(actor, &action, Observer::Spectator);
        let words = self
            .state
            .action_words(actor, &action, Observer::Spectator)?;
        self.state.apply(actor, &action)?;
        self.record.actions.push(RecordedAction { actor, action });
        // The game's plain words, then the notation (when a spectator may see it).
        match seen {
            Some(notation) => outln!("{words}  [{notation}]"),
            None => outln!("{words}"),
        }
        Ok(())
    }
}

pub fn play(args: &PlayArgs, registry: &Registry) -> Result<()> {
    let game = registry.get(&args.game)?;
    let options = game.parse_options(&args.options.options)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let state = game.new_state(&options)?;
    let ai = parse_ai(&args.ai, state.seats())?;
    let mut rng = rng_from_seed(seed);
    let mut session = Session {
        state,
        record: JsonRecord {
            game: game.id().to_string(),
            options,
            seed,
            seed_commitment: Some(tabula_core::record::seed_commitment(seed)),
            actions: Vec::new(),
            result: None,
        },
    };
    outln!(
        "{} — seed {seed}. Type a number or an action's notation; `moves`, `board`, `quit`.",
        game.name()
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut ai_calls = 0u64;
    let mut last_shown: Option<Seat> = None;
    loop {
        match session.state.to_act() {
            ToAct::Over(outcome) => {
                outln!("{}", session.state.render_text(Observer::Spectator));
                let winners: Vec<String> = outcome
                    .winning_seats()
                    .iter()
                    .map(|s| session.state.seat_name(*s))
                    .collect();
                if winners.is_empty() {
                    outln!("Game over: draw ({}).", outcome.reason);
                } else {
                    outln!(
                        "Game over: {} won ({}).",
                        winners.join(" and "),
                        outcome.reason
                    );
                }
                session.record.result = Some(outcome);
                break;
            }
            ToAct::Chance => {
                let action = session
                    .state
                    .sample_chance(&mut rng)
                    .ok_or_else(|| anyhow!("chance decision without outcomes"))?;
                session.act(Actor::Chance, action)?;
            }
            to_act => {
                let seats = to_act.seats();
                let seat = *seats.first().ok_or_else(|| anyhow!("nobody to act"))?;
                if let Some(level) = ai.get(seat.index()).copied().flatten() {
                    ai_calls += 1;
                    let action = tabula_ai::choose_action(
                        session.state.as_ref(),
                        seat,
                        level,
                        seed.wrapping_add(ai_calls),
                    )
                    .map_err(|e| anyhow!("AI failed: {e}"))?;
                    session.act(Actor::Seat(seat), action)?;
                    continue;
                }
                if last_shown != Some(seat) {
                    if seats.len() > 1 || ai.iter().all(Option::is_none) {
                        outln!(
                            "\n=== {} to decide (others, look away) ===",
                            session.state.seat_name(seat)
                        );
                    }
                    outln!("{}", session.state.render_text(Observer::Seat(seat)));
                    last_shown = Some(seat);
                }
                let legal = session.state.legal_actions_listed(seat);
                list_actions(&legal, args.list)?;
                out!("{}> ", session.state.seat_name(seat));
                let Some(line) = lines.next() else {
                    outln!("\ninput closed; leaving the game.");
                    break;
                };
                let line = line.context("cannot read from the terminal")?;
                let line = line.trim();
                match line {
                    "" => continue,
                    "quit" | "exit" => break,
                    "moves" => {
                        list_actions(&legal, usize::MAX)?;
                        continue;
                    }
                    "board" => {
                        outln!("{}", session.state.render_text(Observer::Seat(seat)));
                        continue;
                    }
                    _ => {}
                }
                let action = match line.parse::<usize>() {
                    Ok(n) if n >= 1 && n <= legal.len() => legal[n - 1].action.clone(),
                    _ => match session.state.parse_action(line) {
                        Ok(a) => a,
                        Err(e) => {
                            outln!("{e}");
                            continue;
                        }
                    },
                };
                if let Err(e) = session.act(Actor::Seat(seat), action) {
                    outln!("{e}");
                } else {
                    last_shown = None;
                }
            }
        }
    }
    if let Some(path) = &args.record {
        std::fs::write(path, serde_json::to_string_pretty(&session.record)?)
            .with_context(|| format!("cannot write the record to `{path}`"))?;
        outln!("Record written to {path}.");
    }
    Ok(())
}

fn list_actions(legal: &[ListedAction], limit: usize) -> Result<()> {
    for (i, a) in legal.iter().enumerate().take(limit) {
        outln!("  {:>3}. {}", i + 1, a.notation);
    }
    if legal.len() > limit {
        outln!(
            "  … {} more (type `moves` to list all)",
            legal.len() - limit
        );
    }
    Ok(())
}
