//! The type-erased, JSON-speaking form of every game, for code that must handle any game without knowing
//! its rules: the `tabula` CLI and the server.
//!
//! [`DynGame`] is a game *kind* (create, load, replay); [`DynState`] is one running state. Both are
//! implemented once, generically, for every [`Game`] ([`kind`]); a [`Registry`] maps game ids to kinds,
//! so adding a game to the platform is one `register` call. Typed code stays typed inside each crate;
//! code that needs the typed state back (the AI) downcasts with [`DynState::as_any`] to [`Erased<G>`].

use std::any::Any;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::options::{self, OptionSpec, OptionsError};
use crate::record::{JsonRecord, Record};
use crate::tools::{self, PlayoutResult};
use crate::{ActionError, Actor, Game, GameRng, Observer, Seat, ToAct};

/// Errors of the type-erased interface, each with a message that says what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DynError {
    #[error("unknown game “{0}”; games: {1}")]
    UnknownGame(String, String),
    #[error(transparent)]
    Options(#[from] OptionsError),
    #[error("invalid state: {0}")]
    State(String),
    #[error("invalid record: {0}")]
    Record(String),
    #[error(transparent)]
    Action(#[from] ActionError),
}

/// A game kind, type-erased.
pub trait DynGame: Send + Sync {
    fn id(&self) -> &'static str;
    fn name(&self) -> &'static str;
    fn description(&self) -> &'static str;
    fn options_schema(&self) -> Vec<OptionSpec>;
    /// The pieces' legend ([`Game::piece_legend`]).
    fn piece_legend(&self) -> Vec<(String, String)>;
    /// Parses `name=value` options into their full JSON form (defaults filled in).
    fn parse_options(&self, pairs: &[String]) -> Result<Value, OptionsError>;
    /// Checks a JSON object of options and returns their full JSON form (defaults filled in).
    fn check_options(&self, options: &Value) -> Result<Value, OptionsError>;
    /// The initial state for these (JSON) options.
    fn new_state(&self, options: &Value) -> Result<Box<dyn DynState>, DynError>;
    /// Loads a full state from its JSON form, validating it.
    fn load_state(&self, state: &Value) -> Result<Box<dyn DynState>, DynError>;
    /// Replays a record (checking every action and the result) and returns the final state.
    fn replay(&self, record: &JsonRecord, audit_seed: bool) -> Result<Box<dyn DynState>, DynError>;
}

/// One game state, type-erased. Actions and views are JSON values.
pub trait DynState: Send + Sync + Debug {
    fn game_id(&self) -> &'static str;
    fn seats(&self) -> usize;
    fn seat_name(&self, seat: Seat) -> String;
    fn to_act(&self) -> ToAct;
    /// The legal actions of `seat` as JSON.
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;
    /// Whether the listed actions of `seat` are only a sample (a composite decision such as a whole
    /// hidden setup, see [`Game::actions_sampled`]).
    fn actions_sampled(&self, seat: Seat) -> bool;
    /// The legal actions of `seat`, each with its notation and the cells a player clicks to choose it.
    fn legal_actions_listed(&self, seat: Seat) -> Vec<ListedAction>;
    /// The listed chance outcomes with their probabilities (empty when they cannot be listed).
    fn chance_outcomes(&self) -> Vec<(Value, f64)>;
    /// Draws a chance action.
    fn sample_chance(&self, rng: &mut GameRng) -> Option<Value>;
    /// Applies a JSON action; malformed JSON is [`ActionError::Malformed`]. On error nothing changes.
    fn apply(&mut self, actor: Actor, action: &Value) -> Result<(), ActionError>;
    /// Parses an action written in the game's notation (or as JSON) into its JSON form.
    fn parse_action(&self, text: &str) -> Result<Value, ActionError>;
    /// The notation of a JSON action in this state.
    fn notation(&self, action: &Value) -> Result<String, ActionError>;
    /// How `observer` sees `action` by `actor` (None when hidden from them).
    fn describe_action(&self, actor: Actor, action: &Value, observer: Observer) -> Option<String>;
    /// `action` by `actor` in plain words as `observer` may see them ([`Game::action_words`]); a
    /// malformed action is [`ActionError::Malformed`].
    fn action_words(
        &self,
        actor: Actor,
        action: &Value,
        observer: Observer,
    ) -> Result<String, ActionError>;
    /// The cells of `action` by `actor` ([`Game::action_cells`]) as `observer` may see them: None
    /// exactly when the action is hidden from them ([`DynState::describe_action`] is None).
    fn describe_action_cells(
        &self,
        actor: Actor,
        action: &Value,
        observer: Observer,
    ) -> Option<Vec<String>>;
    /// Why the cells `seat` clicked lead to no legal action ([`Game::explain_cells`]), as a sentence
    /// for the player: "The game is over", "It is Red's turn" when `seat` owes no decision, `None` when
    /// some legal action's cells start with `cells` (nothing is wrong) or the game has nothing to say.
    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String>;
    /// What `observer` may see, as JSON.
    fn view(&self, observer: Observer) -> Value;
    /// The full state as JSON (authority only).
    fn state(&self) -> Value;
    /// The game's options as JSON.
    fn options(&self) -> Value;
    fn render_text(&self, observer: Observer) -> String;
    /// How many turns have passed ([`Game::turn_number`]): actions taken with the same number
    /// belong to one turn (a move list groups them on one line).
    fn turn_number(&self) -> u32;
    fn validate(&self) -> Result<(), String>;
    fn perft(&self, depth: u32) -> u64;
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Plays random legal actions from this state (it is changed) until the end or `max_actions`.
    fn random_playout(&mut self, rng: &mut GameRng, max_actions: u64) -> PlayoutResult;
    fn clone_box(&self) -> Box<dyn DynState>;
    /// For downcasting to [`Erased<G>`].
    fn as_any(&self) -> &dyn Any;
}

/// One legal action as a client receives it: the action (sent back unchanged to take it), its
/// notation, its plain words ([`Game::action_words`] as the acting seat sees it: what buttons and
/// choices show) and its cells ([`Game::action_cells`]: what the player clicks to choose it; empty for
/// a button).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[ts(export_to = "core/")]
pub struct ListedAction {
    /// The action's JSON: its form is the game's own.
    #[ts(type = "unknown")]
    pub action: Value,
    pub notation: String,
    /// The action in plain words, as the seat taking it sees them ("Gold: Heavy Pawn A0 → A1, leaves
    /// 2 chips").
    pub words: String,
    pub cells: Vec<String>,
}

impl Clone for Box<dyn DynState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The longest run of chance actions [`resolve_chance`] takes before it reports a broken game.
pub const MAX_CHANCE_RUN: usize = 10_000;

/// Draws chance actions with `rng` and applies them until a seat must decide or the game ends, calling
/// `on_action` with each one after it is applied (to record it, store it as an event, print it…).
/// Returns how many were applied. The CLI's state commands (`tabula new`, `apply`, `perft`) resolve
/// chance with it; typed code has [`crate::record::Match::resolve_chance`]. The server draws chance
/// one event at a time instead (each chance action is an event of its log, committed with the change
/// that led to it), and so do interactive loops that show each draw (`tabula play`, lessons).
///
/// Errors — leaving the state after the chance actions already applied — when a chance node lists no
/// outcome or chance keeps deciding for more than [`MAX_CHANCE_RUN`] actions in a row.
pub fn resolve_chance(
    state: &mut dyn DynState,
    rng: &mut GameRng,
    mut on_action: impl FnMut(&Value),
) -> Result<usize, ActionError> {
    let mut taken = 0;
    while state.to_act() == ToAct::Chance {
        if taken == MAX_CHANCE_RUN {
            return Err(ActionError::Illegal(format!(
                "chance kept deciding for {MAX_CHANCE_RUN} actions in a row"
            )));
        }
        let action = state.sample_chance(rng).ok_or_else(|| {
            ActionError::Illegal("a chance decision without any outcome".to_string())
        })?;
        state.apply(Actor::Chance, &action)?;
        on_action(&action);
        taken += 1;
    }
    Ok(taken)
}

/// [`Game::explain_cells`] with the checks every game shares: the game is over, `seat` owes no
/// decision now, or the cells lead to a legal action (then there is nothing to explain: `None`). The
/// answer starts with a capital letter and ends without a full stop, like the games' other words.
pub fn explain_cells<G: Game>(game: &G, seat: Seat, cells: &[String]) -> Option<String> {
    if seat.index() >= game.seats() || cells.is_empty() {
        return None;
    }
    let to_act = game.to_act();
    if let ToAct::Over(_) = to_act {
        return Some("The game is over".to_string());
    }
    if !to_act.includes(seat) {
        let others: Vec<String> = to_act.seats().iter().map(|s| game.seat_name(*s)).collect();
        return Some(match others.as_slice() {
            [] => "It is not your turn".to_string(),
            [one] => format!("It is not your turn: {one} is to act"),
            _ => format!("It is not your turn: {} are to act", others.join(" and ")),
        });
    }
    let leads = crate::legal_actions_vec(game, seat).iter().any(|a| {
        let c = game.action_cells(a);
        c.len() >= cells.len() && c.iter().zip(cells).all(|(x, y)| x == y)
    });
    if leads {
        return None;
    }
    game.explain_cells(seat, cells).map(|s| sentence(&s))
}

/// A refusal's text as a player reads it: the first letter capitalised (unless the first word is a
/// cell's name such as `f6`, which keeps its case), no trailing full stop.
pub fn sentence(text: &str) -> String {
    let t = text.trim().trim_end_matches('.');
    let first_word = t.split_whitespace().next().unwrap_or("");
    if first_word.chars().any(|c| c.is_ascii_digit()) {
        return t.to_string();
    }
    let mut chars = t.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A typed game state behind the type-erased interface.
#[derive(Debug, Clone)]
pub struct Erased<G: Game>(pub G);

/// The type-erased kind of game `G`.
pub struct Kind<G>(PhantomData<fn() -> G>);

/// The type-erased kind of game `G`, ready to register.
pub fn kind<G: Game>() -> Arc<dyn DynGame> {
    Arc::new(Kind::<G>(PhantomData))
}

fn parse_action_json<G: Game>(action: &Value) -> Result<G::Action, ActionError> {
    G::Action::deserialize(action).map_err(|e| ActionError::Malformed(e.to_string()))
}

fn to_json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

impl<G: Game> DynGame for Kind<G> {
    fn id(&self) -> &'static str {
        G::ID
    }
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn description(&self) -> &'static str {
        G::DESCRIPTION
    }
    fn options_schema(&self) -> Vec<OptionSpec> {
        <G::Options as options::GameOptions>::schema()
    }
    fn piece_legend(&self) -> Vec<(String, String)> {
        G::piece_legend()
    }
    fn parse_options(&self, pairs: &[String]) -> Result<Value, OptionsError> {
        let o: G::Options = options::parse_pairs(pairs)?;
        Ok(to_json(&o))
    }
    fn check_options(&self, options: &Value) -> Result<Value, OptionsError> {
        let o: G::Options = options::parse_json(options)?;
        Ok(to_json(&o))
    }
    fn new_state(&self, options: &Value) -> Result<Box<dyn DynState>, DynError> {
        let o: G::Options = options::parse_json(options)?;
        Ok(Box::new(Erased(G::new(&o)?)))
    }
    fn load_state(&self, state: &Value) -> Result<Box<dyn DynState>, DynError> {
        let g = G::deserialize(state).map_err(|e| DynError::State(e.to_string()))?;
        g.validate().map_err(DynError::State)?;
        Ok(Box::new(Erased(g)))
    }
    fn replay(&self, record: &JsonRecord, audit_seed: bool) -> Result<Box<dyn DynState>, DynError> {
        let typed = Record::<G>::from_json(record).map_err(DynError::Record)?;
        let g = tools::replay(&typed, audit_seed).map_err(|e| DynError::Record(e.to_string()))?;
        Ok(Box::new(Erased(g)))
    }
}

impl<G: Game> DynState for Erased<G> {
    fn game_id(&self) -> &'static str {
        G::ID
    }
    fn seats(&self) -> usize {
        self.0.seats()
    }
    fn seat_name(&self, seat: Seat) -> String {
        self.0.seat_name(seat)
    }
    fn to_act(&self) -> ToAct {
        self.0.to_act()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        crate::legal_actions_vec(&self.0, seat)
            .iter()
            .map(to_json)
            .collect()
    }
    fn actions_sampled(&self, seat: Seat) -> bool {
        self.0.actions_sampled(seat)
    }
    fn legal_actions_listed(&self, seat: Seat) -> Vec<ListedAction> {
        crate::legal_actions_vec(&self.0, seat)
            .iter()
            .map(|a| ListedAction {
                action: to_json(a),
                notation: self.0.action_notation(a),
                words: self
                    .0
                    .action_words(Actor::Seat(seat), a, Observer::Seat(seat)),
                cells: self.0.action_cells(a),
            })
            .collect()
    }
    fn chance_outcomes(&self) -> Vec<(Value, f64)> {
        let mut out = Vec::new();
        self.0.chance_outcomes(&mut out);
        out.iter().map(|(a, p)| (to_json(a), *p)).collect()
    }
    fn sample_chance(&self, rng: &mut GameRng) -> Option<Value> {
        self.0.sample_chance(rng).map(|a| to_json(&a))
    }
    fn apply(&mut self, actor: Actor, action: &Value) -> Result<(), ActionError> {
        let a = parse_action_json::<G>(action)?;
        self.0.apply(actor, &a)
    }
    fn parse_action(&self, text: &str) -> Result<Value, ActionError> {
        let trimmed = text.trim();
        if let Ok(v) = serde_json::from_str::<Value>(trimmed)
            && let Ok(a) = parse_action_json::<G>(&v)
        {
            return Ok(to_json(&a));
        }
        self.0.parse_action(trimmed).map(|a| to_json(&a))
    }
    fn notation(&self, action: &Value) -> Result<String, ActionError> {
        let a = parse_action_json::<G>(action)?;
        Ok(self.0.action_notation(&a))
    }
    fn describe_action(&self, actor: Actor, action: &Value, observer: Observer) -> Option<String> {
        let a = parse_action_json::<G>(action).ok()?;
        self.0.describe_action(actor, &a, observer)
    }
    fn action_words(
        &self,
        actor: Actor,
        action: &Value,
        observer: Observer,
    ) -> Result<String, ActionError> {
        let a = parse_action_json::<G>(action)?;
        Ok(self.0.action_words(actor, &a, observer))
    }
    fn describe_action_cells(
        &self,
        actor: Actor,
        action: &Value,
        observer: Observer,
    ) -> Option<Vec<String>> {
        let a = parse_action_json::<G>(action).ok()?;
        self.0.describe_action(actor, &a, observer)?;
        Some(self.0.action_cells(&a))
    }
    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String> {
        explain_cells(&self.0, seat, cells)
    }
    fn view(&self, observer: Observer) -> Value {
        to_json(&self.0.view(observer))
    }
    fn state(&self) -> Value {
        to_json(&self.0)
    }
    fn options(&self) -> Value {
        to_json(self.0.options())
    }
    fn render_text(&self, observer: Observer) -> String {
        self.0.render_text(observer)
    }
    fn turn_number(&self) -> u32 {
        self.0.turn_number()
    }
    fn validate(&self) -> Result<(), String> {
        self.0.validate()
    }
    fn perft(&self, depth: u32) -> u64 {
        tools::perft(&self.0, depth)
    }
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        tools::perft_divide(&self.0, depth)
    }
    fn random_playout(&mut self, rng: &mut GameRng, max_actions: u64) -> PlayoutResult {
        tools::random_playout(&mut self.0, rng, max_actions)
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The games of the platform, by id.
#[derive(Clone, Default)]
pub struct Registry {
    games: Vec<Arc<dyn DynGame>>,
}

impl Registry {
    pub fn new() -> Registry {
        Registry::default()
    }
    /// Adds game `G` (a later registration of the same id replaces the earlier one).
    pub fn register<G: Game>(&mut self) -> &mut Registry {
        self.games.retain(|g| g.id() != G::ID);
        self.games.push(kind::<G>());
        self
    }
    /// The registered games, in registration order.
    pub fn games(&self) -> &[Arc<dyn DynGame>] {
        &self.games
    }
    /// The ids of the registered games.
    pub fn ids(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.id()).collect()
    }
    /// The game with this id, or an error listing the known ids.
    pub fn get(&self, id: &str) -> Result<&Arc<dyn DynGame>, DynError> {
        self.games
            .iter()
            .find(|g| g.id() == id)
            .ok_or_else(|| DynError::UnknownGame(id.to_string(), self.ids().join(", ")))
    }
}
