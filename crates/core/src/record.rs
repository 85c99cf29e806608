//! Records: everything needed to reproduce a game.
//!
//! ```json
//! { "game": "kyo", "options": {"light_pawn_rows": "trench", "extra_pieces": false}, "seed": "42",
//!   "seed_commitment": "…64 hex digits…",
//!   "actions": [ {"actor": {"seat": 0}, "action": ...}, {"actor": "chance", "action": ...} ],
//!   "result": {"results": ["win", "loss"], "reason": "King captured"} }
//! ```
//! Replaying `actions` on `Game::new(options)` reproduces every state; `result` (when present) must equal
//! the final outcome. `seed` is the authority's RNG seed: [`Match`] draws every chance action from it, so
//! a record made by a `Match` can also be audited (re-drawing the chance actions gives the same ones).
//!
//! The seed is written as a decimal string, so that it stays exact in JSON readers whose numbers are
//! doubles (a browser's): a seed is any `u64`. A number is accepted too. `seed_commitment` is
//! [`seed_commitment`] of the seed: the server shows it from a game's first message and reveals the
//! seed only once the game is over, so anyone can check ([`JsonRecord::check_seed_commitment`]) that
//! the chance actions were fixed before the first move.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::{ActionError, Actor, Game, GameRng, Outcome, Seat, ToAct, rng_from_seed};

/// One recorded action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "core/")]
pub struct RecordedAction<A> {
    pub actor: Actor,
    pub action: A,
}

/// A record with typed options and actions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound(serialize = "", deserialize = ""))]
pub struct Record<G: Game> {
    pub game: String,
    pub options: G::Options,
    #[serde(with = "seed_text")]
    pub seed: u64,
    pub actions: Vec<RecordedAction<G::Action>>,
    #[serde(default)]
    pub result: Option<Outcome>,
}

/// A record in its JSON form, for any game (the type-erased CLI and server use it; its TypeScript
/// declaration is the form the server writes: `options` and `result` present, the seed a string).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[ts(export_to = "core/")]
pub struct JsonRecord {
    pub game: String,
    /// The game's options, as the game crate writes them (`null` when absent: the defaults).
    #[serde(default)]
    #[ts(type = "unknown")]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub options: serde_json::Value,
    /// The seed, as a decimal string (a number is read too).
    #[serde(default, with = "seed_text")]
    #[ts(type = "string")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub seed: u64,
    /// [`seed_commitment`] of `seed`, as the server published it when the game began (records made
    /// elsewhere may have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seed_commitment: Option<String>,
    /// Every action in order, chance's included: `{"actor": {"seat": n} | "chance", "action": …}`.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
    pub actions: Vec<RecordedAction<serde_json::Value>>,
    /// The result, once the game is over.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub result: Option<Outcome>,
}

/// The commitment to a game's seed: the SHA-256 of its 8 little-endian bytes, as 64 lower-case hex
/// digits. Published before the first move, it binds the authority to the seed (and so to every chance
/// action) without revealing it.
pub fn seed_commitment(seed: u64) -> String {
    use std::fmt::Write;
    let digest = Sha256::digest(seed.to_le_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        let _ = write!(out, "{b:02x}");
    }
    out
}

impl JsonRecord {
    /// Checks the record's `seed` against its `seed_commitment`. `Ok(false)` when the record carries
    /// no commitment (nothing to check), `Ok(true)` when it matches.
    pub fn check_seed_commitment(&self) -> Result<bool, String> {
        let Some(given) = &self.seed_commitment else {
            return Ok(false);
        };
        let actual = seed_commitment(self.seed);
        if given.trim().eq_ignore_ascii_case(&actual) {
            Ok(true)
        } else {
            Err(format!(
                "the seed {} does not match the record's seed commitment {given} (its SHA-256 is {actual})",
                self.seed
            ))
        }
    }
}

/// A seed as a decimal string (exact in every JSON reader); read from a string or a number.
mod seed_text {
    use super::*;

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(seed)
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seed {
        Number(u64),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        match Seed::deserialize(d) {
            Ok(Seed::Number(n)) => Ok(n),
            Ok(Seed::Text(t)) => t.trim().parse().map_err(|_| {
                serde::de::Error::custom(format!(
                    "seed “{t}” is not a whole number from 0 to 18446744073709551615"
                ))
            }),
            Err(_) => Err(serde::de::Error::custom(
                "seed must be a whole number from 0 to 18446744073709551615, or such a number as a string",
            )),
        }
    }
}

/// A game being played under an authority: the state, the seeded RNG that picks chance actions, and the
/// record of every action so far.
#[derive(Debug, Clone)]
pub struct Match<G: Game> {
    state: G,
    rng: GameRng,
    record: Record<G>,
}

impl<G: Game> Match<G> {
    /// A new game with these options; chance actions will be drawn from `seed`.
    pub fn new(options: G::Options, seed: u64) -> Result<Match<G>, crate::OptionsError> {
        let state = G::new(&options)?;
        Ok(Match {
            state,
            rng: rng_from_seed(seed),
            record: Record {
                game: G::ID.to_string(),
                options,
                seed,
                actions: Vec::new(),
                result: None,
            },
        })
    }

    /// The current state (authority only: send views to players).
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The record so far (with `result` set once the game is over).
    pub fn record(&self) -> &Record<G> {
        &self.record
    }

    /// Applies a player's (or a recorded chance) action; on error nothing changes.
    pub fn apply(&mut self, actor: Actor, action: G::Action) -> Result<(), ActionError> {
        self.state.apply(actor, &action)?;
        self.record.actions.push(RecordedAction { actor, action });
        if let ToAct::Over(outcome) = self.state.to_act() {
            self.record.result = Some(outcome);
        }
        Ok(())
    }

    /// Draws and applies chance actions until a seat must decide or the game ends. Returns the chance
    /// actions taken.
    pub fn resolve_chance(&mut self) -> Result<Vec<G::Action>, ActionError> {
        let mut taken = Vec::new();
        while self.state.to_act() == ToAct::Chance {
            let action = self
                .state
                .sample_chance(&mut self.rng)
                .ok_or_else(|| ActionError::Illegal("chance node without outcomes".to_string()))?;
            self.apply(Actor::Chance, action.clone())?;
            taken.push(action);
        }
        Ok(taken)
    }

    /// Whose decision it is.
    pub fn to_act(&self) -> ToAct {
        self.state.to_act()
    }

    /// The legal actions of `seat` now.
    pub fn legal_actions(&self, seat: Seat) -> Vec<G::Action> {
        crate::legal_actions_vec(&self.state, seat)
    }

    /// Consumes the match, giving its final state and record.
    pub fn into_parts(self) -> (G, Record<G>) {
        (self.state, self.record)
    }
}

impl<G: Game> Record<G> {
    /// The JSON form of this record.
    pub fn to_json(&self) -> Result<JsonRecord, serde_json::Error> {
        Ok(JsonRecord {
            game: self.game.clone(),
            options: serde_json::to_value(&self.options)?,
            seed: self.seed,
            seed_commitment: Some(seed_commitment(self.seed)),
            actions: self
                .actions
                .iter()
                .map(|a| {
                    Ok(RecordedAction {
                        actor: a.actor,
                        action: serde_json::to_value(&a.action)?,
                    })
                })
                .collect::<Result<_, serde_json::Error>>()?,
            result: self.result.clone(),
        })
    }

    /// The typed form of a JSON record of this game.
    pub fn from_json(json: &JsonRecord) -> Result<Record<G>, String> {
        if json.game != G::ID {
            return Err(format!(
                "record is for game “{}”, not “{}”",
                json.game,
                G::ID
            ));
        }
        let options =
            crate::options::parse_json::<G::Options>(&json.options).map_err(|e| e.to_string())?;
        let actions = json
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                serde_json::from_value(a.action.clone())
                    .map(|action| RecordedAction {
                        actor: a.actor,
                        action,
                    })
                    .map_err(|e| format!("action {}: {e}", i + 1))
            })
            .collect::<Result<_, String>>()?;
        Ok(Record {
            game: json.game.clone(),
            options,
            seed: json.seed,
            actions,
            result: json.result.clone(),
        })
    }
}
