//! # tabula-core — the engine core
//!
//! Every game on Tabula implements [`Game`]. The trait is shaped after the needs of all the games the
//! platform ships (see `docs/rules/`):
//!
//! * **Seats** are numbered `0..seats()` ([`Seat`]); 2 for Cyvasse, Kyo and Territories, 2–6 for Syba.
//! * **Whose decision it is** ([`ToAct`]): one seat (possibly not the seat whose "turn" it is: Syba
//!   interceptions, trade answers, Territories discards); several seats at once (the hidden Cyvasse
//!   setup); **chance** (dice, shuffles); or nobody because the game is over.
//! * **Chance is an actor** ([`Actor::Chance`]). Dice rolls and shuffles are actions like any other: the
//!   authority draws them from the game's seeded RNG ([`GameRng`]) with [`Game::sample_chance`] and records
//!   them. Replay therefore needs no RNG, and an AI can enumerate ([`Game::chance_outcomes`]) or sample
//!   the outcomes.
//! * **Multi-action turns** (Kyo Mana chains, cavalry legs, Syba and Territories turns) are sequences of
//!   atomic actions; a game that lets a player stop mid-turn has an explicit end-of-turn action.
//! * **Views** ([`Game::view`]): what one [`Observer`] may see. The full state never leaves the authority
//!   while the game runs; servers send views.
//! * **Determinism**: a game is reproduced exactly from its options and its action list (chance actions
//!   included). The seed only drives the authority's choice of chance actions, so a record can also be
//!   audited against its seed ([`tools::replay`]).
//!
//! Generic tools written once over the trait live in [`tools`] (perft, random playouts, replay); a
//! type-erased, JSON-speaking form of every game for the CLI and the server lives in [`dynamic`];
//! game options given as `name=value` text are parsed against each game's schema in [`options`];
//! records are in [`record`].
//!
//! ## Contracts every implementation keeps
//! 1. `legal_actions(seat)` is exact: every listed action is accepted by `apply(Actor::Seat(seat), _)`,
//!    every other action is rejected, and the list is empty for a seat that owes no decision.
//!    The one exception is a **composite decision** whose choices cannot be listed (a hidden setup,
//!    submitted as one whole army): there [`Game::actions_sampled`] is true, `legal_actions` lists a
//!    representative sample of valid choices (named presets, random legal setups), and `apply` accepts
//!    every valid choice and refuses an invalid one with the rule it breaks.
//! 2. `apply` never panics and leaves the state unchanged when it returns an error.
//! 3. `view(observer)` contains nothing that observer may not know; `determinize(seat, rng)` depends
//!    only on `view(Observer::Seat(seat))` and `rng`.
//! 4. `to_act()` is `Over` exactly when the game has ended; no action is legal then.

pub mod dynamic;
pub mod options;
pub mod record;
pub mod tools;
pub mod wire;

#[cfg(test)]
mod testgame;

use std::fmt::Debug;
use std::hash::Hash;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use options::{GameOptions, OptionKind, OptionSpec, OptionsError};
pub use rand;
pub use rand_chacha;

/// The random number generator of every game authority: ChaCha8, seeded from the game's `u64` seed.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// A [`GameRng`] seeded from a game seed (the same seed always gives the same stream).
pub fn rng_from_seed(seed: u64) -> GameRng {
    use rand::SeedableRng;
    GameRng::seed_from_u64(seed)
}

/// A seat at the table, numbered from 0 in turn order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(export_to = "core/")]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index, for indexing per-seat arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The seat with index `i` (panics in debug builds if `i > 255`; no game has more than 6 seats).
    pub fn new(i: usize) -> Seat {
        debug_assert!(i < 256);
        Seat(i as u8)
    }
}

impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Who takes an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "core/")]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A player's seat.
    Seat(Seat),
    /// Chance: dice rolls, shuffles and draws, chosen by the authority's seeded RNG.
    Chance,
}

/// Who looks at the game: a seat (sees its own secrets) or a spectator (sees only public information).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "core/")]
#[serde(rename_all = "snake_case")]
pub enum Observer {
    Seat(Seat),
    Spectator,
}

/// One seat's result in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "core/")]
#[serde(rename_all = "snake_case")]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
}

impl SeatResult {
    /// The usual tournament score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score(self) -> f64 {
        match self {
            SeatResult::Win => 1.0,
            SeatResult::Draw => 0.5,
            SeatResult::Loss => 0.0,
        }
    }
}

/// How a game ended: a result per seat (several seats may win together: Syba's shared victories)
/// and a short human-readable reason ("checkmate", "King captured", "threefold repetition"…).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "core/")]
pub struct Outcome {
    pub results: Vec<SeatResult>,
    pub reason: String,
}

impl Outcome {
    /// `winners` win, every other seat of `seats` loses.
    pub fn winners(seats: usize, winners: &[Seat], reason: impl Into<String>) -> Outcome {
        let results = (0..seats)
            .map(|i| {
                if winners.iter().any(|w| w.index() == i) {
                    SeatResult::Win
                } else {
                    SeatResult::Loss
                }
            })
            .collect();
        Outcome {
            results,
            reason: reason.into(),
        }
    }
    /// Everyone draws.
    pub fn draw(seats: usize, reason: impl Into<String>) -> Outcome {
        Outcome {
            results: vec![SeatResult::Draw; seats],
            reason: reason.into(),
        }
    }
    /// The seat's score (1 win, ½ draw, 0 loss); 0 for a seat that does not exist.
    pub fn score(&self, seat: Seat) -> f64 {
        self.results.get(seat.index()).map_or(0.0, |r| r.score())
    }
    /// The seats that won.
    pub fn winning_seats(&self) -> Vec<Seat> {
        self.results
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == SeatResult::Win)
            .map(|(i, _)| Seat::new(i))
            .collect()
    }
}

/// Whose decision it is now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "core/")]
#[serde(rename_all = "snake_case")]
pub enum ToAct {
    /// One seat must decide (not necessarily the seat whose turn it is).
    Seat(Seat),
    /// Several seats decide independently and simultaneously (hidden setup). Lists the seats that still
    /// owe their decision; each may act in any order and no one sees another's choice before all are in.
    Seats(Vec<Seat>),
    /// Chance decides (dice, shuffle, draw).
    Chance,
    /// The game is over.
    Over(Outcome),
}

impl ToAct {
    /// Whether `seat` owes a decision now.
    pub fn includes(&self, seat: Seat) -> bool {
        match self {
            ToAct::Seat(s) => *s == seat,
            ToAct::Seats(list) => list.contains(&seat),
            _ => false,
        }
    }
    /// Whether `actor` may act now.
    pub fn allows(&self, actor: Actor) -> bool {
        match actor {
            Actor::Seat(s) => self.includes(s),
            Actor::Chance => matches!(self, ToAct::Chance),
        }
    }
    /// The seats that owe a decision now (empty for chance and game over).
    pub fn seats(&self) -> Vec<Seat> {
        match self {
            ToAct::Seat(s) => vec![*s],
            ToAct::Seats(list) => list.clone(),
            _ => Vec::new(),
        }
    }
    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        match self {
            ToAct::Over(o) => Some(o),
            _ => None,
        }
    }
}

/// Why an action was refused. A refused action changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", content = "message", rename_all = "snake_case")]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// This actor owes no decision now.
    #[error("it is not {0}'s decision now")]
    NotYourTurn(String),
    /// The action is not legal here; the message says which rule forbids it.
    #[error("illegal action: {0}")]
    Illegal(String),
    /// The action could not be understood (bad notation or JSON).
    #[error("malformed action: {0}")]
    Malformed(String),
}

impl ActionError {
    /// The standard refusal for an actor that owes no decision.
    pub fn not_your_turn(actor: Actor) -> ActionError {
        ActionError::NotYourTurn(match actor {
            Actor::Seat(s) => format!("seat {s}"),
            Actor::Chance => "chance".to_string(),
        })
    }
}

/// Checks the parts of `apply` that every game shares: the game is not over and `actor` may act.
pub fn check_actor(to_act: &ToAct, actor: Actor) -> Result<(), ActionError> {
    if matches!(to_act, ToAct::Over(_)) {
        return Err(ActionError::GameOver);
    }
    if !to_act.allows(actor) {
        return Err(ActionError::not_your_turn(actor));
    }
    Ok(())
}

/// The abstraction every game implements. `Self` is the full, authoritative game state.
///
/// The state's serde form is the documented JSON of a position: `tabula new` prints it and
/// `tabula moves --state` reads it, so positions can be written by hand. A deserialized state must be
/// checked with [`Game::validate`] before use.
pub trait Game: Clone + Debug + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// The game's options (variants). `Default` is the standard game.
    type Options: GameOptions;
    /// One atomic decision.
    type Action: Clone + Eq + Hash + Debug + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// What one observer may see.
    type View: Clone + Debug + Send + Sync + Serialize + 'static;

    /// The stable game id (`kyo`, `cyvasse-trump`, …).
    const ID: &'static str;
    /// The display name.
    const NAME: &'static str;
    /// A one-paragraph description for `tabula games` and the lobby.
    const DESCRIPTION: &'static str;

    /// The initial state. Anything random at the start (a shuffle, who goes first) is a chance action
    /// taken afterwards, so `new` is deterministic.
    fn new(options: &Self::Options) -> Result<Self, OptionsError>;

    /// The pieces' legend: each piece, by the name the view and the web client give it ("Light
    /// Horse"), with what it does in the rule book's words ("moves 3 + 2, strength 2"), built from the
    /// engine's own tables so that no client restates them. Empty when the game has none.
    fn piece_legend() -> Vec<(String, String)> {
        Vec::new()
    }

    /// The options this state was created with.
    fn options(&self) -> &Self::Options;

    /// The number of seats.
    fn seats(&self) -> usize;

    /// A short display name for a seat ("White", "Gold", "Aberrant Army"…).
    fn seat_name(&self, seat: Seat) -> String {
        format!("Player {}", seat.index() + 1)
    }

    /// Whose decision it is.
    fn to_act(&self) -> ToAct;

    /// Appends the exact list of legal actions of `seat` to `out` (which the caller has cleared).
    /// Nothing is appended for a seat that owes no decision.
    ///
    /// The list depends only on what `seat` may see (its [`Game::view`]): states that look the same
    /// to the seat give it the same list in the same order (clients receive it with every view).
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// Whether `legal_actions(seat)` is only a representative sample of the legal actions: true for a
    /// composite decision that cannot be enumerated (a whole hidden setup). Clients then let the player
    /// compose their own choice and the game validates it in `apply`; perft and exactness checks treat
    /// the sample as the list. False (the default) everywhere else.
    fn actions_sampled(&self, seat: Seat) -> bool {
        let _ = seat;
        false
    }

    /// When `to_act()` is `Chance`: appends every outcome with its probability, when the outcomes are
    /// few enough to list (dice). Leaves `out` empty when they are not (a shuffle); then only
    /// [`Game::sample_chance`] is available.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Action, f64)>) {
        let _ = out;
    }

    /// When `to_act()` is `Chance`: draws one outcome with the right probability. The default samples
    /// [`Game::chance_outcomes`]; games whose outcomes cannot be listed override it.
    fn sample_chance(&self, rng: &mut GameRng) -> Option<Self::Action> {
        use rand::RngExt;
        let mut outcomes = Vec::new();
        self.chance_outcomes(&mut outcomes);
        let total: f64 = outcomes.iter().map(|(_, p)| *p).sum();
        if outcomes.is_empty() || total <= 0.0 {
            return None;
        }
        let mut x = rng.random::<f64>() * total;
        let last = outcomes.len() - 1;
        for (i, (a, p)) in outcomes.into_iter().enumerate() {
            if x < p || i == last {
                return Some(a);
            }
            x -= p;
        }
        None
    }

    /// Applies an action after checking it fully. On error the state is unchanged.
    fn apply(&mut self, actor: Actor, action: &Self::Action) -> Result<(), ActionError>;

    /// Applies an action known to be legal (taken from `legal_actions` or `chance_outcomes`/
    /// `sample_chance` of this very state). Search and perft use it; games may skip validation here.
    fn apply_trusted(&mut self, actor: Actor, action: &Self::Action) {
        let result = self.apply(actor, action);
        debug_assert!(
            result.is_ok(),
            "apply_trusted got an illegal action: {result:?}"
        );
    }

    /// What `observer` may see of the state.
    fn view(&self, observer: Observer) -> Self::View;

    /// A full state consistent with what `seat` may see, with every hidden part resampled from `rng`
    /// (the opponent's hidden setup, the cards in other hands, the order of a draw pile). It must depend
    /// only on `self.view(Observer::Seat(seat))` and `rng`. Perfect-information games keep the default.
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let _ = (seat, rng);
        self.clone()
    }

    /// How `observer` sees `action` taken by `actor` in this state (before it is applied): its notation,
    /// or `None` when the action itself is hidden from that observer (a hidden setup, a shuffle's order,
    /// a card drawn into someone else's hand).
    fn describe_action(
        &self,
        actor: Actor,
        action: &Self::Action,
        observer: Observer,
    ) -> Option<String> {
        let _ = (actor, observer);
        Some(self.action_notation(action))
    }

    /// How `observer` sees `action` taken by `actor` in this state (before it is applied), in the plain
    /// words a player uses: the actor by [`Game::seat_name`] (never a 0-based number), pieces by their
    /// rule-book names, e.g. "Gold: Heavy A0 → A1, leaves 2 chips", "North sets up (hidden)",
    /// "South goes first (coin toss)". Move lists show these words; records keep the notation.
    ///
    /// Never reveals more than [`Game::describe_action`]: when that hides the action from `observer`
    /// (`None`, or a description other than the notation), the words must be the same for every
    /// action `actor` could have taken there that `observer` sees described alike
    /// ([`tools::check_words`] checks it over random games). The default names the actor and gives
    /// the notation, or "… acts (hidden)".
    fn action_words(&self, actor: Actor, action: &Self::Action, observer: Observer) -> String {
        let who = actor_name(self, actor);
        match self.describe_action(actor, action, observer) {
            Some(notation) => format!("{who}: {notation}"),
            None => format!("{who} acts (hidden)"),
        }
    }

    /// The board cells and items (areas, units, hand cards…) a player clicks, in order, to choose
    /// `action` in this state, named exactly as this game's view names them; empty for an action
    /// chosen with a button (end the turn, answer a trade, a whole hidden setup). Clients map clicks to
    /// legal actions with this list, never by reading notation, so a change of notation cannot change
    /// how an action is chosen. Several legal actions may share one list (a Kyo slice, a piece bought
    /// in a city): the client then offers them as a choice, by their notation.
    fn action_cells(&self, action: &Self::Action) -> Vec<String> {
        let _ = action;
        Vec::new()
    }

    /// Why the cells a player clicked lead to no legal action of `seat`, in the engine's own words (a
    /// short sentence a player reads: "A Light Pawn cannot make Mana moves", "That is Red's piece").
    /// `cells` are named as in [`Game::action_cells`]: one cell no legal action starts from, or a path
    /// (a selected piece, then a cell) that no legal action follows. Called only when `seat` owes a
    /// decision and no legal action's cells start with `cells` ([`dynamic::DynState::explain_cells`]
    /// checks both). `None` (the default) when the game has nothing to say.
    ///
    /// Reason only from what `seat` may see ([`Game::view`] of that seat) or from public facts: the
    /// answer must never reveal a hidden setup, a hand or a deck.
    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String> {
        let _ = (seat, cells);
        None
    }

    /// The game's text notation of `action` in this state.
    fn action_notation(&self, action: &Self::Action) -> String {
        serde_json::to_string(action).unwrap_or_else(|_| format!("{action:?}"))
    }

    /// Parses the game's text notation of an action in this state (the inverse of `action_notation`).
    fn parse_action(&self, text: &str) -> Result<Self::Action, ActionError> {
        serde_json::from_str(text).map_err(|e| ActionError::Malformed(e.to_string()))
    }

    /// Checks a state's internal consistency (piece counts, bounds, …): used after loading a state from
    /// JSON and by property tests. The message names what is wrong.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }

    /// A text drawing of the position for the terminal, as `observer` sees it.
    fn render_text(&self, observer: Observer) -> String {
        serde_json::to_string_pretty(&self.view(observer)).unwrap_or_default()
    }

    /// How many turns have passed (for displays); 0 for a game that does not count them.
    fn turn_number(&self) -> u32 {
        0
    }
}

/// How an actor is named in words: its seat's [`Game::seat_name`], or "Chance".
pub fn actor_name<G: Game>(game: &G, actor: Actor) -> String {
    match actor {
        Actor::Seat(seat) => game.seat_name(seat),
        Actor::Chance => "Chance".to_string(),
    }
}

/// Convenience: the legal actions of `seat` in a fresh vector.
pub fn legal_actions_vec<G: Game>(game: &G, seat: Seat) -> Vec<G::Action> {
    let mut out = Vec::new();
    game.legal_actions(seat, &mut out);
    out
}

/// Convenience for `apply`: succeeds when `action` is among `seat`'s legal actions. Games whose move
/// generation is the definition of legality can validate with it.
pub fn check_listed<G: Game>(
    game: &G,
    actor: Actor,
    action: &G::Action,
) -> Result<(), ActionError> {
    check_actor(&game.to_act(), actor)?;
    match actor {
        Actor::Seat(seat) => {
            let mut legal = Vec::new();
            game.legal_actions(seat, &mut legal);
            if legal.contains(action) {
                Ok(())
            } else {
                Err(ActionError::Illegal(format!(
                    "{} is not a legal action here",
                    game.action_notation(action)
                )))
            }
        }
        Actor::Chance => {
            let mut outcomes = Vec::new();
            game.chance_outcomes(&mut outcomes);
            if outcomes.is_empty() || outcomes.iter().any(|(a, _)| a == action) {
                Ok(())
            } else {
                Err(ActionError::Illegal(format!(
                    "{} is not a possible chance outcome here",
                    game.action_notation(action)
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_scores_shared_victories_and_draws() {
        let o = Outcome::winners(4, &[Seat(1), Seat(3)], "shared victory");
        assert_eq!(o.winning_seats(), vec![Seat(1), Seat(3)]);
        assert_eq!(o.score(Seat(1)), 1.0);
        assert_eq!(o.score(Seat(0)), 0.0);
        assert_eq!(o.score(Seat(9)), 0.0);
        let d = Outcome::draw(2, "repetition");
        assert_eq!(d.score(Seat(0)), 0.5);
        assert!(d.winning_seats().is_empty());
    }

    #[test]
    fn to_act_says_who_may_act() {
        let simultaneous = ToAct::Seats(vec![Seat(0), Seat(1)]);
        assert!(simultaneous.allows(Actor::Seat(Seat(1))));
        assert!(!simultaneous.allows(Actor::Chance));
        assert!(ToAct::Chance.allows(Actor::Chance));
        assert!(!ToAct::Seat(Seat(0)).allows(Actor::Seat(Seat(1))));
        let over = ToAct::Over(Outcome::draw(2, "x"));
        assert_eq!(
            check_actor(&over, Actor::Seat(Seat(0))),
            Err(ActionError::GameOver)
        );
        assert_eq!(
            check_actor(&ToAct::Seat(Seat(0)), Actor::Seat(Seat(1))),
            Err(ActionError::NotYourTurn("seat 1".into()))
        );
        assert_eq!(
            check_actor(&ToAct::Seat(Seat(0)), Actor::Seat(Seat(0))),
            Ok(())
        );
    }

    #[test]
    fn json_forms_are_stable() {
        assert_eq!(
            serde_json::to_string(&Actor::Seat(Seat(1))).unwrap(),
            r#"{"seat":1}"#
        );
        assert_eq!(
            serde_json::to_string(&Actor::Chance).unwrap(),
            r#""chance""#
        );
        assert_eq!(
            serde_json::to_string(&ToAct::Seats(vec![Seat(0), Seat(1)])).unwrap(),
            r#"{"seats":[0,1]}"#
        );
        assert_eq!(
            serde_json::to_string(&ActionError::Illegal("no".into())).unwrap(),
            r#"{"kind":"illegal","message":"no"}"#
        );
    }

    #[test]
    fn same_seed_same_stream() {
        use rand::RngExt;
        let mut a = rng_from_seed(7);
        let mut b = rng_from_seed(7);
        let xs: Vec<u32> = (0..8).map(|_| a.random()).collect();
        let ys: Vec<u32> = (0..8).map(|_| b.random()).collect();
        assert_eq!(xs, ys);
    }
}
