//! Generic tools written once over [`Game`]: perft, random playouts and record replay.

use rand::RngExt;
use serde::Serialize;

use crate::record::Record;
use crate::{Actor, Game, GameRng, Observer, Outcome, Seat, ToAct};

/// Counts the leaves of the game tree `depth` actions deep (every seat's and chance's actions count as
/// plies). At a simultaneous node the first seat that owes a decision moves first; at a chance node every
/// listed outcome is a branch (a chance node whose outcomes cannot be listed, such as a shuffle, has no
/// branches: perft is meant for positions without such nodes).
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    let mut buffers = Vec::new();
    perft_inner(game, depth, &mut buffers)
}

fn perft_inner<G: Game>(game: &G, depth: u32, buffers: &mut Vec<Vec<G::Action>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut actions = buffers.pop().unwrap_or_default();
    let total = match branches(game, &mut actions) {
        None => 0,
        Some(_) if depth == 1 => actions.len() as u64,
        Some(actor) => actions
            .iter()
            .map(|a| {
                let mut next = game.clone();
                next.apply_trusted(actor, a);
                perft_inner(&next, depth - 1, buffers)
            })
            .sum(),
    };
    buffers.push(actions);
    total
}

/// Fills `out` with the branches perft follows from `game`: every listed chance outcome at a chance
/// node, else the legal actions of the first seat that owes a decision. Returns who takes them (`None`
/// when the game is over or nobody may act).
fn branches<G: Game>(game: &G, out: &mut Vec<G::Action>) -> Option<Actor> {
    out.clear();
    match game.to_act() {
        ToAct::Over(_) => None,
        ToAct::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&mut outcomes);
            out.extend(outcomes.into_iter().map(|(a, _)| a));
            Some(Actor::Chance)
        }
        to_act => {
            let seat = *to_act.seats().first()?;
            game.legal_actions(seat, out);
            Some(Actor::Seat(seat))
        }
    }
}

/// Perft split by the first action: each root action's notation and its leaf count.
pub fn perft_divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    let mut actions = Vec::new();
    let Some(actor) = branches(game, &mut actions).filter(|_| depth > 0) else {
        return Vec::new();
    };
    actions
        .iter()
        .map(|a| {
            let mut next = game.clone();
            next.apply_trusted(actor, a);
            (game.action_notation(a), perft(&next, depth - 1))
        })
        .collect()
}

/// How a random playout ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlayoutResult {
    /// The outcome, or `None` when the action limit was reached first.
    pub outcome: Option<Outcome>,
    /// Actions taken (chance included).
    pub actions: u64,
}

/// Plays uniformly random legal actions (chance sampled with its probabilities) from `game` until the
/// game ends, nobody can act, or `max_actions` actions were taken. Leaves `game` in the final state.
///
/// Each step draws from the list: chance's outcome from [`Game::sample_chance`]; otherwise the seat
/// to act (when several seats may act, the seat at `rng.random_range(0..n)` of them), then the
/// action at `rng.random_range(0..len)` of that seat's [`Game::legal_actions`], applied with
/// [`Game::apply_trusted`]. So a seed always plays the same game.
pub fn random_playout<G: Game>(game: &mut G, rng: &mut GameRng, max_actions: u64) -> PlayoutResult {
    let mut legal = Vec::new();
    let mut taken = 0;
    while taken < max_actions {
        let (actor, action) = match game.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => match game.sample_chance(rng) {
                Some(a) => (Actor::Chance, a),
                None => break,
            },
            ToAct::Seat(seat) => match random_listed(game, seat, rng, &mut legal) {
                Some(a) => (Actor::Seat(seat), a),
                None => break,
            },
            ToAct::Seats(seats) if !seats.is_empty() => {
                let seat = seats[rng.random_range(0..seats.len())];
                match random_listed(game, seat, rng, &mut legal) {
                    Some(a) => (Actor::Seat(seat), a),
                    None => break,
                }
            }
            ToAct::Seats(_) => break,
        };
        game.apply_trusted(actor, &action);
        taken += 1;
    }
    PlayoutResult {
        outcome: game.to_act().outcome().cloned(),
        actions: taken,
    }
}

/// The action at `rng.random_range(0..len)` of `seat`'s legal actions, listed into `legal`.
fn random_listed<G: Game>(
    game: &G,
    seat: Seat,
    rng: &mut GameRng,
    legal: &mut Vec<G::Action>,
) -> Option<G::Action> {
    legal.clear();
    game.legal_actions(seat, legal);
    if legal.is_empty() {
        return None;
    }
    Some(legal.swap_remove(rng.random_range(0..legal.len())))
}

/// Why a record failed to replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("bad options: {0}")]
    Options(#[from] crate::OptionsError),
    #[error("action {index} ({action}) by {actor:?} was refused: {error}")]
    Refused {
        index: usize,
        action: String,
        actor: Actor,
        error: crate::ActionError,
    },
    #[error("the record's result {recorded:?} differs from the replayed outcome {replayed:?}")]
    ResultMismatch {
        recorded: Option<Outcome>,
        replayed: Option<Outcome>,
    },
    #[error("chance action {index} ({action}) is not the one the seed draws ({expected})")]
    SeedMismatch {
        index: usize,
        action: String,
        expected: String,
    },
}

/// Replays a record from its options, checking every action and the recorded result (when the replayed
/// game is over, it must be the recorded one; a recorded result of a game the rules did not end — a
/// resignation, a loss on time, a draw by agreement — is accepted as it is), and returns the final
/// state. With `audit_seed`, every chance action must also be the one the record's seed draws
/// (true of every record a [`crate::record::Match`] produced).
pub fn replay<G: Game>(record: &Record<G>, audit_seed: bool) -> Result<G, ReplayError> {
    let mut game = G::new(&record.options)?;
    let mut rng = crate::rng_from_seed(record.seed);
    for (index, ra) in record.actions.iter().enumerate() {
        if audit_seed && ra.actor == Actor::Chance {
            let expected = game.sample_chance(&mut rng);
            if expected.as_ref() != Some(&ra.action) {
                return Err(ReplayError::SeedMismatch {
                    index: index + 1,
                    action: game.action_notation(&ra.action),
                    expected: expected.map_or("nothing".into(), |e| game.action_notation(&e)),
                });
            }
        }
        game.apply(ra.actor, &ra.action)
            .map_err(|error| ReplayError::Refused {
                index: index + 1,
                action: game.action_notation(&ra.action),
                actor: ra.actor,
                error,
            })?;
    }
    // A record of a game that ended outside the rules (resignation, time, agreement) carries a result
    // while the replayed game still runs: that is accepted. A result the rules reached must match.
    let replayed = game.to_act().outcome().cloned();
    if record.result.is_some() && replayed.is_some() && record.result != replayed {
        return Err(ReplayError::ResultMismatch {
            recorded: record.result.clone(),
            replayed,
        });
    }
    Ok(game)
}

/// Plays a whole random game under a [`crate::record::Match`] and returns its record (for property tests:
/// every game's record must replay to the same final state).
pub fn random_record<G: Game>(
    options: G::Options,
    seed: u64,
    max_actions: u64,
) -> Result<(G, Record<G>), crate::ActionError> {
    let mut m = crate::record::Match::<G>::new(options, seed)
        .map_err(|e| crate::ActionError::Illegal(e.to_string()))?;
    let mut rng = crate::rng_from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    for _ in 0..max_actions {
        m.resolve_chance()?;
        let seats = m.to_act().seats();
        if seats.is_empty() {
            break;
        }
        let seat: Seat = seats[rng.random_range(0..seats.len())];
        let legal = m.legal_actions(seat);
        if legal.is_empty() {
            return Err(crate::ActionError::Illegal(format!(
                "seat {seat} owes a decision but has no legal action"
            )));
        }
        let a = legal[rng.random_range(0..legal.len())].clone();
        m.apply(Actor::Seat(seat), a)?;
    }
    Ok(m.into_parts())
}

/// Plays a random game from `game` (as [`random_playout`] does, at most `max_actions` actions) and
/// checks the plain words of every action taken, for every observer (each seat and a spectator):
/// [`Game::action_words`] is not empty, never names a seat by a 0-based number ("seat 0"), and, where
/// [`Game::describe_action`] hides the action (or part of it: a description other than the notation)
/// from the observer, is the same as the words of every other action the actor could have taken
/// there that the observer sees described alike (the words reveal nothing the description would
/// not). Returns the number of actions checked, or what went wrong.
pub fn check_words<G: Game>(game: &G, rng: &mut GameRng, max_actions: u64) -> Result<u64, String> {
    let mut game = game.clone();
    let mut legal = Vec::new();
    let mut taken = 0;
    let observers: Vec<Observer> = (0..game.seats())
        .map(|i| Observer::Seat(Seat::new(i)))
        .chain([Observer::Spectator])
        .collect();
    while taken < max_actions {
        let (actor, action, alternatives) = match game.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let Some(a) = game.sample_chance(rng) else {
                    break;
                };
                let mut outcomes = Vec::new();
                game.chance_outcomes(&mut outcomes);
                let alternatives: Vec<G::Action> = outcomes.into_iter().map(|(a, _)| a).collect();
                (Actor::Chance, a, alternatives)
            }
            ToAct::Seats(seats) if seats.is_empty() => break,
            to_act => {
                let seats = to_act.seats();
                let seat = seats[rng.random_range(0..seats.len())];
                legal.clear();
                game.legal_actions(seat, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let a = legal[rng.random_range(0..legal.len())].clone();
                (Actor::Seat(seat), a, legal.clone())
            }
        };
        for &observer in &observers {
            let words = game.action_words(actor, &action, observer);
            let notation = game.action_notation(&action);
            if words.trim().is_empty() {
                return Err(format!("no words for {notation} seen by {observer:?}"));
            }
            if words.to_lowercase().contains("seat 0") {
                return Err(format!("`{words}` names a seat by a 0-based number"));
            }
            let seen = game.describe_action(actor, &action, observer);
            if seen.as_ref().is_none_or(|n| *n != notation) {
                for other in &alternatives {
                    if game.describe_action(actor, other, observer) == seen {
                        let theirs = game.action_words(actor, other, observer);
                        if theirs != words {
                            return Err(format!(
                                "described alike to {observer:?}, yet `{notation}` is worded `{words}` \
                                 and `{}` is worded `{theirs}`",
                                game.action_notation(other)
                            ));
                        }
                    }
                }
            }
        }
        game.apply_trusted(actor, &action);
        taken += 1;
    }
    Ok(taken)
}
