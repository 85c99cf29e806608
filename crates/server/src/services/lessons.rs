//! Interactive lessons: short positions with a one-sentence goal, judged by the game engine.
//!
//! Lessons are data: one JSON file per game in the workspace's `lessons/` folder (embedded in the
//! binary), each lesson a position, a goal text, a goal check, a hint and a listed solution. Adding a
//! lesson is adding an entry. The server knows no rules here either: it builds the position through
//! the engine core's type-erased interface, replays the player's actions with [`DynState::apply`]
//! (so a refusal is the engine's own explanation), plays the opponent's fixed replies and the chance
//! draws, and evaluates the goal check, a small language over the game's result, the actions played
//! and the player's view JSON ([`Goal`]). The web client never decides whether a lesson is solved.
//!
//! The lesson endpoints are stateless: the client sends the player's actions so far and gets the
//! position they lead to (`docs/protocol.md`, "Lessons").
//!
//! ## A lesson file
//! ```json
//! { "game": "kyo",
//!   "lessons": [ {
//!     "title": "Capture the King",
//!     "goal": "Capture the red King with your Heavy.",
//!     "intro": "A pawn captures by stepping onto an enemy pawn.",
//!     "state": { "board": {"E4": "DH", "E5": "dk", "E0": "SSSK", "A9": "d"}, "to_move": 0 },
//!     "goal_check": {"wins": 0},
//!     "hint": "Step straight up.",
//!     "solution": ["E4xE5"] } ] }
//! ```
//! * The position is either `state` (a full state in the game's JSON format, validated by the game)
//!   or `options` (the game's options, default `{}`) with `setup`, the actions (notation or JSON)
//!   played from the initial position by whoever is to act (chance included).
//! * `seat` (default 0) is the player's seat. `replies` are the other seats' actions, taken in order
//!   whenever another seat is to act; a reply the position does not allow (the player took another
//!   path) is replaced by that seat's first legal action. `chance` lists chance outcomes taken in
//!   order; after them chance draws from a generator seeded with `seed` (default 1).
//! * `max_moves` (optional): the number of the player's actions after which an unsolved lesson is
//!   out of moves (the page then offers to start again).
//! * A lesson that ends unsolved (out of moves, or the game over) says why the last try failed:
//!   for a goal on one cell of the board, where the try ended or what it left behind on the cell it
//!   came from; otherwise `wrong`, the lesson's own sentences (`{"played": "E7-E6", "why": "…"}` for
//!   one try, without `played` for any other).
//! * `solution`: the player's actions (notation) that meet the goal; the tests check that they do,
//!   that every one is legal, and that the goal is not met before the last one.

use std::sync::{Arc, LazyLock};

use crate::base::error::Refusal;
use crate::wire::api::{PlayReq, PlayerAction};
use serde::{Deserialize, Serialize};

use crate::wire::api::{
    GameLessons, LessonHint, LessonMove, LessonProgress, LessonState, LessonSummary, LessonsIndex,
};
use serde_json::{Value, json};
use tabula_core::dynamic::{DynGame, DynState, Registry};
use tabula_core::{ActionError, Actor, GameRng, Observer, Seat, SeatResult, ToAct};

/// The lesson files, by name (embedded at build time).
pub const FILES: [(&str, &str); 5] = [
    (
        "cyvasse-trump.json",
        include_str!("../../../../lessons/cyvasse-trump.json"),
    ),
    (
        "cyvasse-caird.json",
        include_str!("../../../../lessons/cyvasse-caird.json"),
    ),
    ("kyo.json", include_str!("../../../../lessons/kyo.json")),
    (
        "territories.json",
        include_str!("../../../../lessons/territories.json"),
    ),
    ("syba.json", include_str!("../../../../lessons/syba.json")),
];

/// The most actions a lesson request may carry (a lesson is short; this bounds the work).
pub const MAX_ACTIONS: usize = 200;

/// One game's lessons (one file).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LessonFile {
    /// The game id.
    pub game: String,
    pub lessons: Vec<Lesson>,
}

/// One lesson.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub title: String,
    /// The one-sentence goal shown to the player.
    pub goal: String,
    /// A few sentences before the goal (what the lesson teaches).
    #[serde(default)]
    pub intro: String,
    /// A full state in the game's JSON format (instead of `options` + `setup`).
    #[serde(default)]
    pub state: Option<Value>,
    /// The game's options (when there is no `state`).
    #[serde(default)]
    pub options: Option<Value>,
    /// Actions played from the initial position to reach the lesson's position.
    #[serde(default)]
    pub setup: Vec<Value>,
    /// The player's seat.
    #[serde(default)]
    pub seat: usize,
    /// The other seats' actions, in order.
    #[serde(default)]
    pub replies: Vec<Value>,
    /// Chance outcomes, in order (then seeded draws).
    #[serde(default)]
    pub chance: Vec<Value>,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// The player's actions after which an unsolved lesson is out of moves.
    #[serde(default)]
    pub max_moves: Option<usize>,
    /// When the goal is met.
    pub goal_check: Goal,
    /// A sentence of help (the hint button also shows the next move of the solution).
    #[serde(default)]
    pub hint: String,
    /// Said when the lesson is solved.
    #[serde(default)]
    pub success: String,
    /// The player's actions (notation or JSON) that meet the goal.
    pub solution: Vec<Value>,
    /// Why a legal try that ended the lesson unsolved failed, for the tries a derived reason
    /// cannot explain well (a goal that is not about one cell).
    #[serde(default)]
    pub wrong: Vec<WrongTry>,
}

/// An authored reason for a legal but wrong try.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WrongTry {
    /// The player's try (notation, as the game writes it); absent: any try no other entry names.
    #[serde(default)]
    pub played: Option<String>,
    /// The sentence the player reads.
    pub why: String,
}

fn default_seed() -> u64 {
    1
}

/// A goal check, evaluated by the server on the game's own data after every action.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// The game is over and this seat won.
    Wins(usize),
    /// The player has played an action whose notation (as the game writes it) is this.
    Played(String),
    /// The player has played at least this many actions.
    ActionsAtLeast(usize),
    /// A value of the player's view (a JSON pointer, RFC 6901) passes a test.
    View(ViewTest),
    /// Every check holds.
    All(Vec<Goal>),
    /// At least one check holds.
    Any(Vec<Goal>),
    /// The check does not hold.
    Not(Box<Goal>),
}

/// A test on one value of the player's view.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ViewTest {
    /// A JSON pointer into the view (`/board/E5`).
    pub pointer: String,
    /// The value equals this.
    #[serde(default)]
    pub equals: Option<Value>,
    /// A number at least this.
    #[serde(default)]
    pub at_least: Option<f64>,
    /// A number at most this.
    #[serde(default)]
    pub at_most: Option<f64>,
    /// A string containing this, or an array with an element equal to it.
    #[serde(default)]
    pub contains: Option<Value>,
    /// An array (or object, or string) of at least this length.
    #[serde(default)]
    pub length_at_least: Option<usize>,
    /// The value is absent or null (`true`), or present (`false`).
    #[serde(default)]
    pub absent: Option<bool>,
}

impl ViewTest {
    fn holds(&self, view: &Value) -> bool {
        let v = view.pointer(&self.pointer).filter(|v| !v.is_null());
        if let Some(absent) = self.absent
            && absent != v.is_none()
        {
            return false;
        }
        let needs_value = self.equals.is_some()
            || self.at_least.is_some()
            || self.at_most.is_some()
            || self.contains.is_some()
            || self.length_at_least.is_some();
        let Some(v) = v else {
            return !needs_value;
        };
        if let Some(e) = &self.equals
            && e != v
        {
            return false;
        }
        if let Some(min) = self.at_least
            && v.as_f64().is_none_or(|x| x < min)
        {
            return false;
        }
        if let Some(max) = self.at_most
            && v.as_f64().is_none_or(|x| x > max)
        {
            return false;
        }
        if let Some(c) = &self.contains {
            let ok = match (v, c) {
                (Value::String(s), Value::String(part)) => s.contains(part.as_str()),
                (Value::Array(items), _) => items.contains(c),
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        if let Some(n) = self.length_at_least {
            let len = match v {
                Value::Array(a) => a.len(),
                Value::Object(o) => o.len(),
                Value::String(s) => s.chars().count(),
                _ => 0,
            };
            if len < n {
                return false;
            }
        }
        true
    }
}

/// Why a lesson request was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LessonError {
    /// The lesson itself is broken (a bad file: the tests catch it).
    #[error("lesson {0}: {1}")]
    Broken(usize, String),
    /// The player's action number `index` (from 0) was refused by the game (its explanation).
    #[error("{error}")]
    Refused { index: usize, error: ActionError },
    /// The request itself is malformed (too many actions, an action after the end).
    #[error("{0}")]
    BadRequest(String),
}

/// A lesson's position and the player's seat in it.
pub type PlayerPosition = (Box<dyn DynState>, Seat);

/// A state during a lesson, with the lesson's chance and reply queues.
struct Run<'a> {
    lesson: &'a Lesson,
    state: Box<dyn DynState>,
    seat: Seat,
    rng: GameRng,
    chance_used: usize,
    replies_used: usize,
    moves: Vec<LessonMove>,
    played: Vec<String>,
}

fn to_value(v: &Value, state: &dyn DynState) -> Result<Value, String> {
    match v {
        Value::String(text) => state.parse_action(text).map_err(|e| e.to_string()),
        other => Ok(other.clone()),
    }
}

impl Lesson {
    /// The lesson's starting position (after `setup`), valid by the game's own checks.
    pub fn position(&self, kind: &dyn DynGame) -> Result<Box<dyn DynState>, String> {
        let mut state = match (&self.state, &self.options) {
            (Some(_), Some(_)) => return Err("give either `state` or `options`, not both".into()),
            (Some(s), None) => kind.load_state(s).map_err(|e| e.to_string())?,
            (None, o) => {
                let options = kind
                    .check_options(o.as_ref().unwrap_or(&json!({})))
                    .map_err(|e| e.to_string())?;
                kind.new_state(&options).map_err(|e| e.to_string())?
            }
        };
        for (i, step) in self.setup.iter().enumerate() {
            let actor = match state.to_act() {
                ToAct::Seat(s) => Actor::Seat(s),
                ToAct::Seats(seats) => match seats.first() {
                    Some(s) => Actor::Seat(*s),
                    None => return Err(format!("setup step {i}: nobody is to act")),
                },
                ToAct::Chance => Actor::Chance,
                ToAct::Over(_) => return Err(format!("setup step {i}: the game is over")),
            };
            let action =
                to_value(step, state.as_ref()).map_err(|e| format!("setup step {i}: {e}"))?;
            state
                .apply(actor, &action)
                .map_err(|e| format!("setup step {i} ({step}): {e}"))?;
        }
        state.validate()?;
        if self.seat >= state.seats() {
            return Err(format!(
                "seat {} but the game has {} seats",
                self.seat,
                state.seats()
            ));
        }
        Ok(state)
    }

    /// Plays the player's `actions` from the lesson's position (with the replies and chance in
    /// between) and says where they lead.
    pub fn play(
        &self,
        n: usize,
        kind: &dyn DynGame,
        actions: &[PlayerAction],
    ) -> Result<LessonProgress, LessonError> {
        let (run, solved) = self.replay(n, kind, actions)?;
        let failure = if solved { None } else { run.failure() };
        let open = !solved && failure.is_none();
        let legal = if open && run.state.to_act().includes(run.seat) {
            run.state.legal_actions_listed(run.seat)
        } else {
            Vec::new()
        };
        let hint = if open {
            self.hint(kind, &run.played)
        } else {
            None
        };
        Ok(LessonProgress {
            options: run.state.options(),
            seats: (0..run.state.seats())
                .map(|i| run.state.seat_name(Seat::new(i)))
                .collect(),
            view: run.state.view(Observer::Seat(run.seat)),
            legal,
            moves: run.moves,
            solved,
            failed: failure.is_some(),
            failure,
            hint,
        })
    }

    /// The position the player's `actions` lead to and the player's seat, while the lesson is open
    /// (for the engine's hint); `None` once it is solved or failed.
    pub fn position_after(
        &self,
        n: usize,
        kind: &dyn DynGame,
        actions: &[PlayerAction],
    ) -> Result<Option<PlayerPosition>, LessonError> {
        let (run, solved) = self.replay(n, kind, actions)?;
        if solved || run.failure().is_some() {
            return Ok(None);
        }
        Ok(Some((run.state, run.seat)))
    }

    /// Replays the player's actions (with the replies and chance between them); whether the goal
    /// was met.
    fn replay(
        &self,
        n: usize,
        kind: &dyn DynGame,
        actions: &[PlayerAction],
    ) -> Result<(Run<'_>, bool), LessonError> {
        if actions.len() > MAX_ACTIONS {
            return Err(LessonError::BadRequest(format!(
                "at most {MAX_ACTIONS} actions in a lesson"
            )));
        }
        let broken = |e: String| LessonError::Broken(n, e);
        let mut run = self.start(kind).map_err(broken)?;
        run.others().map_err(broken)?;
        let mut solved = false;
        for (index, a) in actions.iter().enumerate() {
            if solved || run.failure().is_some() {
                return Err(LessonError::BadRequest(format!(
                    "action {index} comes after the end of the lesson"
                )));
            }
            let action = match (&a.action, &a.notation) {
                (Some(v), _) => v.clone(),
                (None, Some(text)) => run
                    .state
                    .parse_action(text)
                    .map_err(|error| LessonError::Refused { index, error })?,
                (None, None) => {
                    return Err(LessonError::BadRequest(format!(
                        "action {index} has neither an action nor a notation"
                    )));
                }
            };
            solved = run
                .player(&action)
                .map_err(|error| LessonError::Refused { index, error })?;
            if !solved {
                solved = run.others().map_err(broken)?;
            }
        }
        Ok((run, solved))
    }

    fn start(&self, kind: &dyn DynGame) -> Result<Run<'_>, String> {
        Ok(Run {
            lesson: self,
            seat: Seat::new(self.seat),
            state: self.position(kind)?,
            rng: tabula_core::rng_from_seed(self.seed),
            chance_used: 0,
            replies_used: 0,
            moves: Vec::new(),
            played: Vec::new(),
        })
    }

    /// The next action of the listed solution (JSON, notation and words), when the player's actions so far
    /// (`played`, as the game writes them) are its start.
    fn hint(&self, kind: &dyn DynGame, played: &[String]) -> Option<LessonHint> {
        let mut probe = self.start(kind).ok()?;
        probe.others().ok()?;
        for (i, step) in self.solution.iter().enumerate() {
            let action = to_value(step, probe.state.as_ref()).ok()?;
            let notation = probe.state.notation(&action).ok()?;
            match played.get(i) {
                None => {
                    let words = probe.words(Actor::Seat(probe.seat), &action).ok()?;
                    return Some(LessonHint {
                        action,
                        notation,
                        words,
                    });
                }
                Some(p) if *p == notation => {}
                Some(_) => return None,
            }
            probe.player(&action).ok()?;
            probe.others().ok()?;
        }
        None
    }

    /// Checks the lesson: a valid position, the goal not met there nor before the solution's last
    /// action, every action of the solution legal, and the goal met after it.
    pub fn check(&self, kind: &dyn DynGame) -> Result<(), String> {
        if self.title.trim().is_empty() || self.goal.trim().is_empty() {
            return Err("a lesson needs a title and a goal".into());
        }
        if self.solution.is_empty() {
            return Err("the solution is empty".into());
        }
        let mut run = self.start(kind)?;
        if self.goal_check.holds(&run) {
            return Err("the goal is already met in the lesson's position".into());
        }
        run.others()?;
        if self.goal_check.holds(&run) {
            return Err("the goal is met before the player acts".into());
        }
        let last = self.solution.len() - 1;
        for (i, step) in self.solution.iter().enumerate() {
            if let Some(f) = run.failure() {
                return Err(format!(
                    "solution step {i}: the lesson has failed already: {f}"
                ));
            }
            if !run.state.to_act().includes(run.seat) {
                return Err(format!("solution step {i}: the player is not to act"));
            }
            let action = to_value(step, run.state.as_ref())
                .map_err(|e| format!("solution step {i}: {e}"))?;
            let legal = run.state.legal_actions(run.seat);
            if !run.state.actions_sampled(run.seat) && !legal.contains(&action) {
                return Err(format!(
                    "solution step {i} ({step}) is not among the legal actions"
                ));
            }
            let mut solved = run
                .player(&action)
                .map_err(|e| format!("solution step {i} ({step}): {e}"))?;
            if !solved {
                solved = run.others()?;
            }
            if solved && i < last {
                return Err(format!("the goal is met already after solution step {i}"));
            }
            if !solved && i == last {
                return Err("the solution does not meet the goal".into());
            }
        }
        Ok(())
    }
}

impl Run<'_> {
    /// The player's action; true when the goal is met after it.
    fn player(&mut self, action: &Value) -> Result<bool, ActionError> {
        if !self.state.to_act().includes(self.seat) {
            return Err(ActionError::NotYourTurn(self.state.seat_name(self.seat)));
        }
        let notation = self.state.notation(action)?;
        let cells = self.cells(Actor::Seat(self.seat), action);
        let words = self.words(Actor::Seat(self.seat), action)?;
        self.state.apply(Actor::Seat(self.seat), action)?;
        self.moves.push(LessonMove {
            by: "you".into(),
            notation: notation.clone(),
            words,
            cells,
        });
        self.played.push(notation);
        Ok(self.lesson.goal_check.holds(self))
    }

    /// Chance and the other seats until the player is to act or the game ends; true when the goal
    /// is met after one of their actions (once the player has acted).
    fn others(&mut self) -> Result<bool, String> {
        for _ in 0..10_000 {
            match self.state.to_act() {
                ToAct::Over(_) => return Ok(false),
                t if t.includes(self.seat) => return Ok(false),
                ToAct::Chance => {
                    let action = match self.lesson.chance.get(self.chance_used) {
                        Some(v) => {
                            self.chance_used += 1;
                            to_value(v, self.state.as_ref())
                                .map_err(|e| format!("chance {}: {e}", self.chance_used - 1))?
                        }
                        None => self
                            .state
                            .sample_chance(&mut self.rng)
                            .ok_or("a chance decision without any outcome")?,
                    };
                    let notation = self.state.notation(&action).map_err(|e| e.to_string())?;
                    let cells = self.cells(Actor::Chance, &action);
                    let words = self
                        .words(Actor::Chance, &action)
                        .map_err(|e| e.to_string())?;
                    self.state
                        .apply(Actor::Chance, &action)
                        .map_err(|e| format!("chance {notation}: {e}"))?;
                    self.moves.push(LessonMove {
                        by: "chance".into(),
                        notation,
                        words,
                        cells,
                    });
                }
                ToAct::Seat(s) => self.reply(s)?,
                ToAct::Seats(seats) => match seats.first() {
                    Some(s) => self.reply(*s)?,
                    None => return Err("nobody is to act".into()),
                },
            }
            if !self.played.is_empty() && self.lesson.goal_check.holds(self) {
                return Ok(true);
            }
        }
        Err("the other seats kept acting for 10,000 actions".into())
    }

    /// The next fixed reply of `seat` (or its first legal action when the reply does not fit).
    fn reply(&mut self, seat: Seat) -> Result<(), String> {
        let listed = self
            .lesson
            .replies
            .get(self.replies_used)
            .and_then(|v| to_value(v, self.state.as_ref()).ok());
        self.replies_used += 1;
        let fits = |a: &Value| {
            let mut trial = self.state.clone_box();
            trial.apply(Actor::Seat(seat), a).is_ok()
        };
        let action = match listed {
            Some(a) if fits(&a) => a,
            _ => self
                .state
                .legal_actions(seat)
                .into_iter()
                .next()
                .ok_or_else(|| format!("{} has no legal action", self.state.seat_name(seat)))?,
        };
        let notation = self.state.notation(&action).map_err(|e| e.to_string())?;
        let cells = self.cells(Actor::Seat(seat), &action);
        let words = self
            .words(Actor::Seat(seat), &action)
            .map_err(|e| e.to_string())?;
        self.state
            .apply(Actor::Seat(seat), &action)
            .map_err(|e| format!("reply {notation}: {e}"))?;
        self.moves.push(LessonMove {
            by: self.state.seat_name(seat),
            notation,
            words,
            cells,
        });
        Ok(())
    }

    /// The cells of `action` (before it is applied) as the player may see them; none when hidden.
    fn cells(&self, actor: Actor, action: &Value) -> Vec<String> {
        self.state
            .describe_action_cells(actor, action, Observer::Seat(self.seat))
            .unwrap_or_default()
    }

    /// `action` by `actor` in a player's words, as the player may see them (before it is applied).
    fn words(&self, actor: Actor, action: &Value) -> Result<String, ActionError> {
        self.state
            .action_words(actor, action, Observer::Seat(self.seat))
    }

    /// Why the lesson cannot be solved any more, if it cannot: what the player's last try left
    /// undone, then how the lesson ended.
    fn failure(&self) -> Option<String> {
        let ended = if let ToAct::Over(outcome) = self.state.to_act() {
            format!("The game ended: {}.", outcome.reason)
        } else {
            let max = self.lesson.max_moves?;
            if self.played.len() < max {
                return None;
            }
            format!(
                "That did not reach the goal in {max} move{}.",
                if max == 1 { "" } else { "s" }
            )
        };
        Some(match self.why_wrong() {
            Some(why) => format!("{why} {ended}"),
            None => ended,
        })
    }

    /// Why the player's last try did not meet the goal: the lesson's own sentence for that try,
    /// or one derived from the goal and the position after it.
    fn why_wrong(&self) -> Option<String> {
        let last = self.played.last()?;
        let authored = |named: bool| {
            self.lesson
                .wrong
                .iter()
                .find(|w| match &w.played {
                    Some(p) => named && p == last,
                    None => !named,
                })
                .map(|w| w.why.clone())
        };
        authored(true)
            .or_else(|| self.derived_why(&self.lesson.goal_check))
            .or_else(|| authored(false))
    }

    /// A reason derived from a goal on one cell of the board: where the try ended, or what it
    /// left behind on the cell it came from.
    fn derived_why(&self, goal: &Goal) -> Option<String> {
        let test = match goal {
            Goal::View(t) => t,
            Goal::All(gs) => return gs.iter().find_map(|g| self.derived_why(g)),
            _ => return None,
        };
        let cell = test.pointer.strip_prefix("/board/")?;
        let view = self.state.view(Observer::Seat(self.seat));
        if test.holds(&view) {
            return None;
        }
        let mine = self.moves.iter().rev().find(|m| m.by == "you")?;
        let (from, to) = (mine.cells.first()?, mine.cells.last()?);
        let holds = |c: &str| {
            view.pointer(&format!("/board/{c}"))
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty())
        };
        if !mine.cells.iter().any(|c| c == cell) {
            Some(format!("Your move ended on {to}, not on {cell}."))
        } else if from != cell && holds(from) {
            Some(format!(
                "Part of your stack stayed behind on {from}: it did not come along to {cell}."
            ))
        } else {
            None
        }
    }
}

impl Goal {
    fn holds(&self, run: &Run<'_>) -> bool {
        match self {
            Goal::Wins(seat) => match run.state.to_act() {
                ToAct::Over(o) => o.results.get(*seat) == Some(&SeatResult::Win),
                _ => false,
            },
            Goal::Played(n) => run.played.iter().any(|p| p == n),
            Goal::ActionsAtLeast(k) => run.played.len() >= *k,
            Goal::View(t) => t.holds(&run.state.view(Observer::Seat(run.seat))),
            Goal::All(gs) => gs.iter().all(|g| g.holds(run)),
            Goal::Any(gs) => gs.iter().any(|g| g.holds(run)),
            Goal::Not(g) => !g.holds(run),
        }
    }
}

/// Every lesson file, parsed once (a file that does not parse is reported by name).
pub static BOOK: LazyLock<Vec<Result<LessonFile, String>>> = LazyLock::new(|| {
    FILES
        .iter()
        .map(|(name, text)| {
            serde_json::from_str::<LessonFile>(text).map_err(|e| format!("lessons/{name}: {e}"))
        })
        .collect()
});

/// The lessons of `game`, if it has a file.
pub fn lessons_of(game: &str) -> Option<&'static LessonFile> {
    BOOK.iter()
        .filter_map(|f| f.as_ref().ok())
        .find(|f| f.game == game)
}

fn summary(file: &LessonFile) -> Vec<LessonSummary> {
    file.lessons
        .iter()
        .enumerate()
        .map(|(i, l)| LessonSummary {
            n: i + 1,
            title: l.title.clone(),
            goal: l.goal.clone(),
        })
        .collect()
}

/// Every game's lessons: count, titles and goals.
pub fn index(reg: &Registry) -> LessonsIndex {
    let games = reg
        .games()
        .iter()
        .filter_map(|g| {
            let file = lessons_of(g.id())?;
            Some(GameLessons {
                game: g.id().to_string(),
                name: g.name().to_string(),
                count: file.lessons.len(),
                lessons: summary(file),
            })
        })
        .collect();
    LessonsIndex { games }
}

fn find(reg: &Registry, game: &str) -> Result<(Arc<dyn DynGame>, &'static LessonFile), Refusal> {
    let kind = reg
        .get(game)
        .map_err(|_| Refusal::NotFound(format!("no game “{game}”")))?;
    let file =
        lessons_of(game).ok_or_else(|| Refusal::NotFound(format!("no lessons for “{game}”")))?;
    Ok((kind.clone(), file))
}

/// One game's lessons.
pub fn of_game(reg: &Registry, game: &str) -> Result<GameLessons, Refusal> {
    let (kind, file) = find(reg, game)?;
    Ok(GameLessons {
        game: kind.id().to_string(),
        name: kind.name().to_string(),
        count: file.lessons.len(),
        lessons: summary(file),
    })
}

/// A lesson found: its game, its number (from 1), how many the game has, and the lesson.
type Found = (Arc<dyn DynGame>, usize, usize, &'static Lesson);

/// Lesson `n` of `game`, or `404` naming the lessons there are.
fn lesson(reg: &Registry, game: &str, n: &str) -> Result<Found, Refusal> {
    let (kind, file) = find(reg, game)?;
    let count = file.lessons.len();
    let (number, lesson) = n
        .parse::<usize>()
        .ok()
        .and_then(|i| Some((i, file.lessons.get(i.checked_sub(1)?)?)))
        .ok_or_else(|| {
            Refusal::NotFound(format!("“{game}” has lessons 1 to {count}, not “{n}”"))
        })?;
    Ok((kind, number, count, lesson))
}

fn refusal(e: LessonError) -> Refusal {
    match e {
        LessonError::Refused { error, .. } => Refusal::Action(error),
        LessonError::BadRequest(m) => Refusal::BadRequest(m),
        LessonError::Broken(..) => Refusal::Internal(e.to_string()),
    }
}

/// The position of lesson `n` of `game` after the player's actions in `req`, with the player's seat;
/// `None` once the lesson is solved or failed. Replayed on a blocking thread.
pub async fn lesson_position(
    reg: &Registry,
    game: &str,
    n: &str,
    req: PlayReq,
) -> Result<Option<PlayerPosition>, Refusal> {
    let (kind, number, _, lesson) = lesson(reg, game, n)?;
    tokio::task::spawn_blocking(move || lesson.position_after(number, kind.as_ref(), &req.actions))
        .await
        .map_err(|e| Refusal::Internal(e.to_string()))?
        .map_err(refusal)
}

/// Lesson `n` of `game` after the player's actions in `req`: the position, legal actions, solved or
/// failed, hint. Replaying a lesson is CPU work (a few hundred actions at most): off the network
/// threads.
pub async fn play(
    reg: &Registry,
    game: &str,
    n: &str,
    req: PlayReq,
) -> Result<LessonState, Refusal> {
    let (kind, number, count, lesson) = lesson(reg, game, n)?;
    let progress =
        tokio::task::spawn_blocking(move || lesson.play(number, kind.as_ref(), &req.actions))
            .await
            .map_err(|e| Refusal::Internal(e.to_string()))?
            .map_err(refusal)?;
    Ok(LessonState {
        game: game.to_string(),
        n: number,
        count,
        title: lesson.title.clone(),
        goal: lesson.goal.clone(),
        intro: lesson.intro.clone(),
        hint_text: lesson.hint.clone(),
        success: lesson.success.clone(),
        seat: lesson.seat,
        progress,
        next: (number < count).then_some(number + 1),
    })
}
