//! The server's data model: game configuration, the event log, clocks, and the state machine that turns
//! a log of events into a game in progress ([`GameCore`]). The same transition function serves live play
//! (on a scratch copy, before the events are committed) and replay after a restart, so a game rebuilt
//! from its log is exactly the game that was played.

use std::sync::Arc;

use crate::base::error::Refusal;
use crate::base::secret::{hash_token, same_secret};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_core::dynamic::{DynGame, DynState};
use tabula_core::record::{JsonRecord, RecordedAction};
use tabula_core::{ActionError, Actor, GameRng, Observer, Outcome, Seat, ToAct, rng_from_seed};

/// Who plays a seat, as the log stores it (in `created`'s configuration). The wire has its own
/// [`crate::wire::game::SeatKind`], converted at the edge: a change for the client never changes what
/// old logs hold (the golden logs' test, `tests/it/golden.rs`, reads them back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatKind {
    /// A person, with a secret token: the creator's own seat or a friend's, joined by the link the
    /// creator was given; or (`open`) a seat anyone may take from the lobby.
    Human {
        /// Open to anyone: listed in the lobby with a "Join" button, joined without a token. A seat
        /// that is not open is joined only with its link, never claimed from the lobby.
        #[serde(default, skip_serializing_if = "is_false")]
        open: bool,
    },
    /// The server's AI at a level.
    Ai { level: u8 },
}

impl SeatKind {
    /// A person's seat (not open): the creator's or a friend's by link.
    pub const HUMAN: SeatKind = SeatKind::Human { open: false };

    /// Whether a person plays the seat (open or not).
    pub fn is_human(&self) -> bool {
        matches!(self, SeatKind::Human { .. })
    }

    /// Whether anyone may take the seat from the lobby.
    pub fn is_open(&self) -> bool {
        matches!(self, SeatKind::Human { open: true })
    }
}

/// A game clock, enforced by the server, as the log stores it (the wire's is
/// [`crate::wire::game::ClockSpec`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClockSpec {
    /// Fischer: a bank per seat, running while that seat owes a decision, plus an increment when its
    /// decision streak ends.
    Fischer { initial_ms: u64, increment_ms: u64 },
    /// Correspondence: so many days for each decision.
    Correspondence { days_per_move: u32 },
}

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

impl ClockSpec {
    /// Checks the clock's numbers are sensible.
    pub fn check(&self) -> Result<(), String> {
        match *self {
            ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            } => {
                if !(1_000..=30 * DAY_MS as u64).contains(&initial_ms) {
                    return Err("clock initial_ms must be between 1000 (1 s) and 30 days".into());
                }
                if increment_ms > DAY_MS as u64 {
                    return Err("clock increment_ms must be at most one day".into());
                }
                Ok(())
            }
            ClockSpec::Correspondence { days_per_move } => {
                if !(1..=60).contains(&days_per_move) {
                    return Err("clock days_per_move must be between 1 and 60".into());
                }
                Ok(())
            }
        }
    }
}

/// Everything fixed when a game is created (stored in its `created` event).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameConfig {
    pub game: String,
    pub options: Value,
    pub seed: u64,
    pub seats: Vec<SeatKind>,
    /// SHA-256 (hex) of each human seat's token; `None` for AI seats.
    pub token_hashes: Vec<Option<String>>,
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    #[serde(default = "yes")]
    pub public: bool,
    #[serde(default)]
    pub rematch_of: Option<String>,
    /// An imported record: read-only.
    #[serde(default)]
    pub imported: bool,
    /// The creator chose a rated game (see [`crate::domain::ratings`]: rated only if every seat is an
    /// account when it ends).
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
    /// A rated seek's range of ratings: only players rated within it (in this game kind; 1500 before
    /// their first rated game of it) may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<crate::domain::ratings::RatingRange>,
}

fn yes() -> bool {
    true
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// An action as the log and the game's played list hold it: its JSON text, shared by both. (A parsed
/// `serde_json::Value` of a small action took about a kilobyte of maps, twice, for every action of
/// every live game; the text takes its length, once.) The text is the canonical form of a
/// `serde_json::Value` (keys sorted), so two equal actions have equal texts however they were written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionJson(Arc<str>);

impl ActionJson {
    pub fn new(action: &Value) -> ActionJson {
        ActionJson(Arc::from(action.to_string()))
    }
    /// The action as a JSON value. The text was written from a `Value`, so it always parses; if it
    /// ever did not, the engine would refuse the `null` it gets instead with a clear error.
    pub fn value(&self) -> Value {
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }
    pub fn text(&self) -> &str {
        &self.0
    }
}

impl From<Value> for ActionJson {
    fn from(action: Value) -> ActionJson {
        ActionJson::new(&action)
    }
}

impl Serialize for ActionJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let raw: &serde_json::value::RawValue =
            serde_json::from_str(&self.0).map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ActionJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ActionJson, D::Error> {
        Value::deserialize(d).map(ActionJson::from)
    }
}

/// Makes room in a list that grows with a game (its log, its moves) for `more` items, by an eighth of
/// its length at a time rather than by doubling: a live game keeps such lists for its whole life, and
/// doubling left up to half of each unused (a sixth of a played game's memory).
pub fn reserve_log<T>(list: &mut Vec<T>, more: usize) {
    let need = list.len() + more;
    if need > list.capacity() {
        list.reserve_exact(more + (need / 8).max(8));
    }
}

/// One entry of a game's log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventData {
    Created {
        config: Box<GameConfig>,
    },
    /// A seat joined. `token_hash` is set when the seat was claimed from the lobby: the claimant's
    /// fresh token replaces the seat's original one.
    Join {
        seat: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token_hash: Option<String>,
    },
    Start,
    /// A seat's token was replaced by a fresh one (the account holding the seat changed its password
    /// or was deleted): the old token plays, chats and watches as that seat no more.
    TokenReplaced {
        seat: u8,
        token_hash: String,
    },
    Action {
        actor: Actor,
        action: ActionJson,
    },
    DrawOffer {
        seat: u8,
    },
    DrawAccept {
        seat: u8,
    },
    DrawDecline {
        seat: u8,
    },
    /// A seat asks to take back its last turn (see [`GameCore::takeback_point`]). Against AI seats
    /// only, the AI accepts at once and the takeback follows in the same change.
    TakebackOffer {
        seat: u8,
    },
    TakebackAccept {
        seat: u8,
    },
    TakebackDecline {
        seat: u8,
    },
    /// The takeback itself: every action after the event `to_seq` (the last one kept; 0: none) is
    /// undone. The undone actions stay in the log; the game goes on from the position before them.
    Takeback {
        seat: u8,
        to_seq: u64,
    },
    Resign {
        seat: u8,
    },
    Timeout {
        seat: u8,
    },
    End {
        result: Outcome,
    },
    Rematch {
        game: String,
    },
}

impl EventData {
    /// The event kind, as stored in the `kind` column and sent to clients.
    pub fn kind(&self) -> &'static str {
        match self {
            EventData::Created { .. } => "created",
            EventData::Join { .. } => "join",
            EventData::Start => "start",
            EventData::TokenReplaced { .. } => "token_replaced",
            EventData::Action { .. } => "action",
            EventData::DrawOffer { .. } => "draw_offer",
            EventData::DrawAccept { .. } => "draw_accept",
            EventData::DrawDecline { .. } => "draw_decline",
            EventData::TakebackOffer { .. } => "takeback_offer",
            EventData::TakebackAccept { .. } => "takeback_accept",
            EventData::TakebackDecline { .. } => "takeback_decline",
            EventData::Takeback { .. } => "takeback",
            EventData::Resign { .. } => "resign",
            EventData::Timeout { .. } => "timeout",
            EventData::End { .. } => "end",
            EventData::Rematch { .. } => "rematch",
        }
    }
}

/// A committed event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: u64,
    pub at: i64,
    pub data: EventData,
}

/// A game's lifecycle (stored as [`Status::as_str`] in the `games` table; the wire's is
/// [`crate::wire::game::Status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Waiting,
    Running,
    Over,
    Imported,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Running => "running",
            Status::Over => "over",
            Status::Imported => "imported",
        }
    }
}

/// A pending draw offer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DrawOffer {
    pub by: u8,
    pub accepted: Vec<u8>,
}

/// A pending takeback offer: `by` asks to take back its last turn; the seats in `accepted` agree
/// (AI seats accept by themselves).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TakebackOffer {
    pub by: u8,
    pub accepted: Vec<u8>,
}

/// One action of the game as it stands (not taken back): the position is the initial state with
/// these applied in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    /// The seq of its `action` event.
    pub seq: u64,
    pub actor: Actor,
    pub action: ActionJson,
    /// Every observer saw it, and saw it alike (nothing of it was hidden from anyone): only such
    /// actions may be taken back.
    pub open: bool,
}

/// Clock state: banks (Fischer) or per-seat deadlines (correspondence), brought up to date at each event.
#[derive(Debug, Clone)]
pub struct Clock {
    pub spec: ClockSpec,
    /// Fischer: remaining ms at `last`.
    banks: Vec<i64>,
    /// Since when each seat owes a decision (None: not owing).
    owing_since: Vec<Option<i64>>,
    last: i64,
}

impl Clock {
    /// How many seats the clock times.
    pub fn seats(&self) -> usize {
        self.owing_since.len()
    }

    fn new(spec: ClockSpec, seats: usize) -> Clock {
        let initial = match spec {
            ClockSpec::Fischer { initial_ms, .. } => initial_ms as i64,
            ClockSpec::Correspondence { days_per_move } => days_per_move as i64 * DAY_MS,
        };
        Clock {
            spec,
            banks: vec![initial; seats],
            owing_since: vec![None; seats],
            last: 0,
        }
    }

    /// Brings the banks to time `at` (time runs only for the seats that owe a decision).
    fn advance(&mut self, at: i64) {
        let dt = (at - self.last).max(0);
        if let ClockSpec::Fischer { .. } = self.spec {
            for (bank, owing) in self.banks.iter_mut().zip(&self.owing_since) {
                if owing.is_some() {
                    *bank -= dt;
                }
            }
        }
        self.last = self.last.max(at);
    }

    /// After a transition at `at`: the seats that owe a decision now are `owing`. A seat whose
    /// decision streak ends gets its increment when `increment` (not after a takeback, which ends
    /// nobody's decision).
    fn set_owing(&mut self, at: i64, owing: &[Seat], increment: bool) {
        for i in 0..self.owing_since.len() {
            let now_owing = owing.iter().any(|s| s.index() == i);
            match (self.owing_since[i], now_owing) {
                (Some(_), false) => {
                    self.owing_since[i] = None;
                    if let ClockSpec::Fischer { increment_ms, .. } = self.spec
                        && increment
                    {
                        self.banks[i] += increment_ms as i64;
                    }
                }
                (None, true) => self.owing_since[i] = Some(at),
                _ => {}
            }
        }
    }

    /// Stops every clock (game over).
    fn stop(&mut self, at: i64) {
        self.advance(at);
        for o in &mut self.owing_since {
            *o = None;
        }
    }

    /// Remaining time of `seat` at `now` (may be negative once it ran out).
    pub fn remaining(&self, seat: usize, now: i64) -> i64 {
        match self.spec {
            ClockSpec::Fischer { .. } => {
                let bank = self.banks.get(seat).copied().unwrap_or(0);
                match self.owing_since.get(seat).copied().flatten() {
                    Some(_) => bank - (now - self.last).max(0),
                    None => bank,
                }
            }
            ClockSpec::Correspondence { days_per_move } => {
                let allowed = days_per_move as i64 * DAY_MS;
                match self.owing_since.get(seat).copied().flatten() {
                    Some(since) => since + allowed - now,
                    None => allowed,
                }
            }
        }
    }

    /// Whether `seat`'s clock runs now.
    pub fn running(&self, seat: usize) -> bool {
        self.owing_since.get(seat).copied().flatten().is_some()
    }

    /// Every seat whose clock runs and whose time has run out at `now`, in seat order (several when
    /// seats deciding at the same time run out together, or while the server was down).
    pub fn flagged(&self, now: i64) -> Vec<u8> {
        (0..self.owing_since.len())
            .filter(|&i| self.running(i) && self.remaining(i, now) <= 0)
            .map(|i| i as u8)
            .collect()
    }

    /// When the next seat's time runs out (for the server's timer).
    pub fn next_deadline(&self, now: i64) -> Option<i64> {
        (0..self.owing_since.len())
            .filter(|&i| self.running(i))
            .map(|i| now + self.remaining(i, now).max(0))
            .min()
    }
}

/// The running state of one game, rebuilt from its events.
#[derive(Debug, Clone)]
pub struct GameCore {
    pub config: Arc<GameConfig>,
    pub state: Box<dyn DynState>,
    pub rng: GameRng,
    pub joined: Vec<bool>,
    /// SHA-256 of each human seat's current token.
    pub token_hashes: Vec<Option<String>>,
    pub status: Status,
    pub result: Option<Outcome>,
    pub draw: Option<DrawOffer>,
    /// A pending takeback offer.
    pub takeback: Option<TakebackOffer>,
    pub clock: Option<Clock>,
    pub rematch: Option<String>,
    pub seq: u64,
    /// The number of actions of the game as it stands (`played.len()`).
    pub actions: u64,
    /// The actions of the game as it stands, in order: those of the log minus the ones taken back.
    pub played: Vec<Played>,
    /// The state right after creation, from which a takeback replays `played`.
    initial: Arc<dyn DynState>,
    /// [`tabula_core::record::seed_commitment`] of the seed: public from the first message on, while
    /// the seed itself stays secret until the game is over.
    pub seed_commitment: Arc<str>,
}

/// The result when `seat` resigns (`reason` "resigned") or loses on time ("lost on time"): it loses,
/// every other seat wins.
pub fn loss_for(state: &dyn DynState, seat: u8, reason: &str) -> Outcome {
    let others: Vec<Seat> = (0..state.seats())
        .filter(|&i| i != seat as usize)
        .map(Seat::new)
        .collect();
    let name = state.seat_name(Seat(seat));
    Outcome::winners(state.seats(), &others, format!("{name} {reason}"))
}

/// See [`GameCore::timeout_result`].
pub fn timeout_result(state: &dyn DynState, seats: &[u8]) -> Outcome {
    let n = state.seats();
    match seats {
        [seat] => loss_for(state, *seat, "lost on time"),
        _ => {
            let names: Vec<String> = seats.iter().map(|&s| state.seat_name(Seat(s))).collect();
            let names = names.join(" and ");
            let winners: Vec<Seat> = (0..n)
                .filter(|i| !seats.contains(&(*i as u8)))
                .map(Seat::new)
                .collect();
            if winners.is_empty() {
                Outcome::draw(n, format!("{names} ran out of time at once"))
            } else {
                Outcome::winners(n, &winners, format!("{names} lost on time"))
            }
        }
    }
}

/// The results the server itself ends a game with in `state` while its rules let it go on:
/// a resignation or a loss on time of each seat, the clocks of several seats running out at once,
/// a draw by agreement. An imported record whose game the rules did not end must carry one of
/// these (a result altered by hand is refused).
pub fn results_outside_the_rules(state: &dyn DynState) -> Vec<Outcome> {
    let n = state.seats();
    let mut out = vec![Outcome::draw(n, DRAW_BY_AGREEMENT)];
    for seat in 0..n as u8 {
        out.push(loss_for(state, seat, "resigned"));
    }
    // Every set of seats whose time can run out at the same check (a few seats at most).
    if n <= 8 {
        for mask in 1u32..(1 << n) {
            let seats: Vec<u8> = (0..n as u8).filter(|i| mask & (1 << i) != 0).collect();
            out.push(timeout_result(state, &seats));
        }
    }
    out
}

/// The reason of a draw by agreement.
pub const DRAW_BY_AGREEMENT: &str = "draw by agreement";

/// The number of observers of a game with `seats` seats (each seat plus the spectator, last).
/// How one observer sees an action: its notation and the cells it involves (for highlighting the
/// last move), none for an action hidden from the observer; its plain words (always, worded without
/// what is hidden); and the turn it belongs to (for grouping a move list by turn).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub notation: Option<Box<str>>,
    /// The cells, one a line (one allocation for all of them: a live game keeps this for every
    /// action); read them with [`Seen::cells`].
    cells: Box<str>,
    pub words: Box<str>,
    pub turn: u32,
}

impl Seen {
    /// How `observer` sees `action` by `actor` in `state` (before it is applied).
    pub fn of(state: &dyn DynState, actor: Actor, action: &Value, observer: Observer) -> Seen {
        let notation = state.describe_action(actor, action, observer);
        let words = state
            .action_words(actor, action, observer)
            .ok()
            .or_else(|| notation.clone())
            .unwrap_or_default();
        Seen {
            cells: state
                .describe_action_cells(actor, action, observer)
                .unwrap_or_default()
                .join("\n")
                .into_boxed_str(),
            notation: notation.map(String::into_boxed_str),
            words: words.into_boxed_str(),
            turn: state.turn_number(),
        }
    }
    /// The cells the action concerns (the board highlights them).
    pub fn cells(&self) -> Vec<String> {
        match &*self.cells {
            "" => Vec::new(),
            all => all.split('\n').map(str::to_string).collect(),
        }
    }
}

/// How every observer (seats in order, then the spectator) sees one action, as a live game keeps it
/// for its move list: once when all see it alike (every action of a game without hidden information),
/// else once per observer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Described {
    Alike(Seen),
    Each(Box<[Seen]>),
}

impl Described {
    fn new(mut each: Vec<Seen>) -> Described {
        if each.windows(2).all(|w| w[0] == w[1])
            && let Some(one) = each.pop()
        {
            return Described::Alike(one);
        }
        Described::Each(each.into_boxed_slice())
    }
    /// Every observer saw the action, and saw it alike (nothing of it was hidden from anyone).
    fn open(&self) -> bool {
        matches!(self, Described::Alike(one) if one.notation.is_some())
    }
    /// How the observer at index `i` (seats in order, then the spectator) sees the action.
    pub fn get(&self, i: usize) -> Option<&Seen> {
        match self {
            Described::Alike(one) => Some(one),
            Described::Each(each) => each.get(i),
        }
    }
}

pub fn observers(seats: usize) -> Vec<Observer> {
    (0..seats)
        .map(|i| Observer::Seat(Seat::new(i)))
        .chain(std::iter::once(Observer::Spectator))
        .collect()
}

impl GameCore {
    /// A game as it is right after its `created` event.
    pub fn new(kind: &dyn DynGame, config: GameConfig) -> Result<GameCore, Refusal> {
        let state = kind
            .new_state(&config.options)
            .map_err(|e| Refusal::BadRequest(e.to_string()))?;
        let seats = state.seats();
        if config.seats.len() != seats || config.token_hashes.len() != seats {
            return Err(Refusal::BadRequest(format!(
                "{} has {seats} seats with these options, but {} seats were given",
                kind.id(),
                config.seats.len()
            )));
        }
        let joined = config
            .seats
            .iter()
            .map(|k| matches!(k, SeatKind::Ai { .. }))
            .collect();
        let clock = config.clock.map(|c| Clock::new(c, seats));
        let status = if config.imported {
            Status::Imported
        } else {
            Status::Waiting
        };
        Ok(GameCore {
            rng: rng_from_seed(config.seed),
            initial: Arc::from(state.clone_box()),
            played: Vec::new(),
            takeback: None,
            seed_commitment: tabula_core::record::seed_commitment(config.seed).into(),
            token_hashes: config.token_hashes.clone(),
            config: Arc::new(config),
            state,
            joined,
            status,
            result: None,
            draw: None,
            clock,
            rematch: None,
            seq: 1,
            actions: 0,
        })
    }

    pub fn seats(&self) -> usize {
        self.config.seats.len()
    }

    /// Checks a seat number.
    pub fn check_seat(&self, seat: u8) -> Result<(), Refusal> {
        if (seat as usize) < self.seats() {
            Ok(())
        } else {
            Err(Refusal::BadRequest(format!(
                "seat {seat} does not exist (this game has seats 0..{})",
                self.seats().saturating_sub(1)
            )))
        }
    }

    /// Checks `token` for `seat`.
    pub fn check_token(&self, seat: u8, token: &str) -> Result<(), Refusal> {
        self.check_seat(seat)?;
        match &self.token_hashes[seat as usize] {
            Some(h) if same_secret(h, &hash_token(token)) => Ok(()),
            Some(_) => Err(Refusal::BadToken(format!("wrong token for seat {seat}"))),
            None => Err(Refusal::BadToken(format!(
                "seat {seat} is played by the AI; it has no token"
            ))),
        }
    }

    /// Whose decision it is, as the protocol shows it (the server's result overrides the game's).
    pub fn to_act(&self) -> ToAct {
        match &self.result {
            Some(r) => ToAct::Over(r.clone()),
            None => self.state.to_act(),
        }
    }

    /// The seats whose clocks run (owing a decision in a running game).
    fn owing(&self) -> Vec<Seat> {
        if self.status == Status::Running {
            self.state.to_act().seats()
        } else {
            Vec::new()
        }
    }

    fn running(&self) -> Result<(), Refusal> {
        match self.status {
            Status::Running => Ok(()),
            Status::Waiting => Err(Refusal::NotStarted(
                "the game has not started: a seat is still open".into(),
            )),
            Status::Over => Err(Refusal::Action(ActionError::GameOver)),
            Status::Imported => Err(Refusal::Conflict(
                "this is an imported record; it cannot be played".into(),
            )),
        }
    }

    /// A game rebuilt from its whole log, which starts with `created`: the game's kind (from
    /// `registry`), its state after the last event, and how each event was seen (`None` for
    /// `created`). The server loads a game so, and the golden-log tests replay old logs so. Fails with
    /// what in the log does not apply.
    #[allow(clippy::type_complexity)]
    pub fn from_log(
        registry: &tabula_core::dynamic::Registry,
        events: &[Event],
    ) -> Result<(Arc<dyn DynGame>, GameCore, Vec<Option<Described>>), String> {
        let config = match events.first().map(|e| &e.data) {
            Some(EventData::Created { config }) => (**config).clone(),
            _ => return Err("it does not start with `created`".into()),
        };
        let kind = registry
            .get(&config.game)
            .map_err(|e| e.to_string())?
            .clone();
        let mut core = GameCore::new(kind.as_ref(), config).map_err(|e| e.to_string())?;
        let mut described = vec![None];
        described.extend(core.apply_logged(&events[1..])?);
        Ok((kind, core, described))
    }

    /// Applies events read from a log, in order, each at its own time (each must follow the last
    /// seq); returns how each observer saw them, or what does not apply.
    pub fn apply_logged(&mut self, events: &[Event]) -> Result<Vec<Option<Described>>, String> {
        let mut described = Vec::with_capacity(events.len());
        for e in events {
            if e.seq != self.seq + 1 {
                return Err(format!("event {} follows {}", e.seq, self.seq));
            }
            let d = self
                .apply(&e.data, e.at)
                .map_err(|r| format!("event {}: {r}", e.seq))?;
            described.push(d);
        }
        Ok(described)
    }

    /// Applies one event at time `at`, checking it. Returns, for an action, how each observer sees it
    /// (computed on the state before the action). On error nothing changed.
    pub fn apply(&mut self, data: &EventData, at: i64) -> Result<Option<Described>, Refusal> {
        let mut described = None;
        if let Some(clock) = &mut self.clock {
            clock.advance(at);
        }
        match data {
            EventData::Created { .. } => {
                return Err(Refusal::Internal("a game is created only once".into()));
            }
            EventData::Join { seat, token_hash } => {
                self.check_seat(*seat)?;
                if !self.config.seats[*seat as usize].is_human() {
                    return Err(Refusal::Conflict(format!("seat {seat} is an AI seat")));
                }
                if self.status != Status::Waiting {
                    return Err(Refusal::Conflict("the game has already started".into()));
                }
                if self.joined[*seat as usize] {
                    return Err(Refusal::Conflict(format!("seat {seat} has already joined")));
                }
                self.joined[*seat as usize] = true;
                if let Some(h) = token_hash {
                    self.token_hashes[*seat as usize] = Some(h.clone());
                }
            }
            EventData::TokenReplaced { seat, token_hash } => {
                self.check_seat(*seat)?;
                if !self.config.seats[*seat as usize].is_human() {
                    return Err(Refusal::Conflict(format!("seat {seat} is an AI seat")));
                }
                if self.status == Status::Imported {
                    return Err(Refusal::Conflict(
                        "this is an imported record; its seats have no tokens".into(),
                    ));
                }
                self.token_hashes[*seat as usize] = Some(token_hash.clone());
            }
            EventData::Start => {
                if self.status != Status::Waiting || self.joined.iter().any(|j| !j) {
                    return Err(Refusal::Conflict("the game cannot start now".into()));
                }
                self.status = Status::Running;
            }
            EventData::Action {
                actor,
                action: stored,
            } => {
                if self.status != Status::Imported {
                    self.running()?;
                }
                let action = &stored.value();
                let obs = observers(self.seats());
                let desc: Vec<Seen> = obs
                    .iter()
                    .map(|o| Seen::of(self.state.as_ref(), *actor, action, *o))
                    .collect();
                if *actor == Actor::Chance && self.status != Status::Imported {
                    // Advance the authority's RNG exactly as the live draw did.
                    let _ = self.state.sample_chance(&mut self.rng);
                }
                self.state.apply(*actor, action).map_err(Refusal::Action)?;
                let desc = Described::new(desc);
                reserve_log(&mut self.played, 1);
                self.played.push(Played {
                    seq: self.seq + 1,
                    actor: *actor,
                    action: stored.clone(),
                    open: desc.open(),
                });
                self.actions += 1;
                if matches!(actor, Actor::Seat(_)) {
                    // A move withdraws a draw offer, and a takeback offer (the offerer's move) or
                    // answers it (the opponent's: the game goes on from the new position).
                    self.draw = None;
                    self.takeback = None;
                }
                described = Some(desc);
            }
            EventData::DrawOffer { seat } => {
                self.draw_offer_check(*seat)?;
                self.draw = Some(DrawOffer {
                    by: *seat,
                    accepted: vec![*seat],
                });
            }
            EventData::DrawAccept { seat } => {
                self.check_seat(*seat)?;
                self.running()?;
                match &mut self.draw {
                    None => {
                        return Err(Refusal::Conflict("there is no draw offer to accept".into()));
                    }
                    Some(d) if d.accepted.contains(seat) => {
                        return Err(Refusal::Conflict(format!(
                            "seat {seat} has already accepted the draw"
                        )));
                    }
                    Some(d) => d.accepted.push(*seat),
                }
            }
            EventData::DrawDecline { seat } => {
                self.check_seat(*seat)?;
                self.running()?;
                if self.draw.is_none() {
                    return Err(Refusal::Conflict(
                        "there is no draw offer to decline".into(),
                    ));
                }
                self.draw = None;
            }
            EventData::TakebackOffer { seat } => {
                self.takeback_offer_check(*seat)?;
                self.takeback = Some(TakebackOffer {
                    by: *seat,
                    accepted: vec![*seat],
                });
            }
            EventData::TakebackAccept { seat } => {
                self.check_seat(*seat)?;
                self.running()?;
                match &mut self.takeback {
                    None => {
                        return Err(Refusal::Conflict(
                            "there is no takeback offer to accept".into(),
                        ));
                    }
                    Some(t) if t.accepted.contains(seat) => {
                        return Err(Refusal::Conflict(format!(
                            "seat {seat} has already accepted the takeback"
                        )));
                    }
                    Some(t) => t.accepted.push(*seat),
                }
            }
            EventData::TakebackDecline { seat } => {
                self.check_seat(*seat)?;
                self.running()?;
                if self.takeback.is_none() {
                    return Err(Refusal::Conflict(
                        "there is no takeback offer to decline".into(),
                    ));
                }
                self.takeback = None;
            }
            EventData::Takeback { seat, to_seq } => {
                self.check_seat(*seat)?;
                let keep = self.takeback_point(*seat)?;
                let expected = keep.checked_sub(1).map_or(0, |i| self.played[i].seq);
                if expected != *to_seq {
                    return Err(Refusal::Conflict(format!(
                        "the takeback would go back to event {expected}, not {to_seq}"
                    )));
                }
                let mut state = self.initial.clone_box();
                for p in &self.played[..keep] {
                    state.apply(p.actor, &p.action.value()).map_err(|e| {
                        Refusal::Internal(format!("replaying event {} for a takeback: {e}", p.seq))
                    })?;
                }
                self.state = state;
                self.played.truncate(keep);
                self.actions = keep as u64;
                self.takeback = None;
                self.draw = None;
            }
            EventData::Resign { seat } | EventData::Timeout { seat } => {
                self.check_seat(*seat)?;
                self.running()?;
            }
            EventData::End { result } => {
                if matches!(self.status, Status::Over) {
                    return Err(Refusal::Action(ActionError::GameOver));
                }
                self.result = Some(result.clone());
                self.draw = None;
                self.takeback = None;
                if self.status != Status::Imported {
                    self.status = Status::Over;
                }
                if let Some(clock) = &mut self.clock {
                    clock.stop(at);
                }
            }
            EventData::Rematch { game } => {
                if self.status != Status::Over {
                    return Err(Refusal::Conflict(
                        "a rematch can be asked only once the game is over".into(),
                    ));
                }
                if self.rematch.is_some() {
                    return Err(Refusal::Conflict("this game already has a rematch".into()));
                }
                self.rematch = Some(game.clone());
            }
        }
        self.seq += 1;
        let owing = self.owing();
        let increment = !matches!(data, EventData::Takeback { .. });
        if let Some(clock) = &mut self.clock
            && self.status == Status::Running
        {
            clock.set_owing(at, &owing, increment);
        }
        Ok(described)
    }

    /// The events that follow automatically after a change, in order: the start once everyone has
    /// joined, chance actions, the end of the game, AI seats declining draw offers.
    pub fn followups(&self) -> Vec<EventData> {
        let mut out = Vec::new();
        if self.status == Status::Waiting && self.joined.iter().all(|j| *j) {
            out.push(EventData::Start);
            return out;
        }
        if self.status != Status::Running {
            return out;
        }
        match self.state.to_act() {
            ToAct::Chance => {
                let mut rng = self.rng.clone();
                if let Some(action) = self.state.sample_chance(&mut rng) {
                    out.push(EventData::Action {
                        actor: Actor::Chance,
                        action: action.into(),
                    });
                }
            }
            ToAct::Over(result) => out.push(EventData::End { result }),
            _ => {}
        }
        if out.is_empty()
            && let Some(d) = &self.draw
        {
            if let Some(ai) = (0..self.seats()).find(|&i| {
                matches!(self.config.seats[i], SeatKind::Ai { .. })
                    && !d.accepted.contains(&(i as u8))
            }) {
                out.push(EventData::DrawDecline { seat: ai as u8 });
            } else if d.accepted.len() == self.seats() {
                out.push(EventData::End {
                    result: Outcome::draw(self.seats(), DRAW_BY_AGREEMENT),
                });
            }
        }
        if out.is_empty()
            && let Some(t) = &self.takeback
        {
            // AI seats accept a takeback at once (only casual games allow one).
            if let Some(ai) = (0..self.seats()).find(|&i| {
                matches!(self.config.seats[i], SeatKind::Ai { .. })
                    && !t.accepted.contains(&(i as u8))
            }) {
                out.push(EventData::TakebackAccept { seat: ai as u8 });
            } else if t.accepted.len() == self.seats()
                && let Ok(keep) = self.takeback_point(t.by)
            {
                out.push(EventData::Takeback {
                    seat: t.by,
                    to_seq: keep.checked_sub(1).map_or(0, |i| self.played[i].seq),
                });
            }
        }
        out
    }

    /// Whether `seat` may offer a draw now (a `DrawOffer` event is checked by this; the snapshot
    /// tells each seat the answer, so the client restates no rule).
    pub fn draw_offer_check(&self, seat: u8) -> Result<(), Refusal> {
        self.check_seat(seat)?;
        self.running()?;
        if let Some(d) = &self.draw {
            return Err(Refusal::Conflict(format!(
                "seat {} already offered a draw; accept or decline it",
                d.by
            )));
        }
        Ok(())
    }

    /// Whether `seat` may ask for a takeback now (a `TakebackOffer` event is checked by this; the
    /// snapshot tells each seat the answer and the reason): [`GameCore::takeback_point`], and no
    /// request pending.
    pub fn takeback_offer_check(&self, seat: u8) -> Result<usize, Refusal> {
        self.check_seat(seat)?;
        let keep = self.takeback_point(seat)?;
        if let Some(t) = &self.takeback {
            return Err(Refusal::Conflict(format!(
                "{} already asked for a takeback; accept or decline it",
                self.state.seat_name(Seat(t.by))
            )));
        }
        Ok(keep)
    }

    /// Whether the engine gives `seat` a hint now (`POST /api/games/{id}/hint` is checked by this;
    /// the snapshot tells each seat): during a running casual game against the AI, for the decision
    /// the seat owes.
    pub fn hint_check(&self, seat: u8) -> Result<(), Refusal> {
        self.check_seat(seat)?;
        if self.config.imported || self.status != Status::Running {
            return Err(Refusal::Conflict(
                "hints are given during a game, for the decision a seat owes".into(),
            ));
        }
        if self.config.rated {
            return Err(Refusal::Forbidden(
                "hints are never given in rated games".into(),
            ));
        }
        if !self
            .config
            .seats
            .iter()
            .any(|s| matches!(s, SeatKind::Ai { .. }))
        {
            return Err(Refusal::Forbidden(
                "hints are given only in games against the AI (and in lessons), never in games \
                 between people"
                    .into(),
            ));
        }
        if !self.state.to_act().includes(Seat(seat)) {
            return Err(Refusal::Conflict(format!(
                "seat {seat} owes no decision now: a hint is for the seat's current decision"
            )));
        }
        Ok(())
    }

    /// Where a takeback by `seat` goes back to: the number of actions kept (an index into
    /// [`GameCore::played`]). It undoes the seat's last turn (its last run of consecutive actions)
    /// and everything after it (an AI's or the opponent's reply). Refused, with the reason a player
    /// reads, in a game that is not running, in a rated game, before the seat has moved, and when the
    /// actions to undo include chance (a dice roll, a card draw: undoing it would let a player try
    /// for better luck) or anything hidden from someone (a hidden setup: the requester may have seen
    /// what the undone position kept hidden).
    pub fn takeback_point(&self, seat: u8) -> Result<usize, Refusal> {
        self.running()?;
        if self.config.rated {
            return Err(Refusal::Conflict(
                "takebacks are for casual games only: this game is rated".into(),
            ));
        }
        let mine = Actor::Seat(Seat(seat));
        let Some(last) = self.played.iter().rposition(|p| p.actor == mine) else {
            return Err(Refusal::Conflict(format!(
                "{} has not moved yet: there is nothing to take back",
                self.state.seat_name(Seat(seat))
            )));
        };
        let mut keep = last;
        while keep > 0 && self.played[keep - 1].actor == mine {
            keep -= 1;
        }
        let undone = &self.played[keep..];
        if undone.iter().any(|p| p.actor == Actor::Chance) {
            return Err(Refusal::Conflict(
                "a takeback cannot undo chance: a dice roll or card draw came after that move \
                 (undoing it would let a player try for better luck)"
                    .into(),
            ));
        }
        for p in undone {
            if !p.open {
                return Err(Refusal::Conflict(
                    "a takeback cannot undo hidden information: a move since then was hidden \
                     from a player (undoing it would keep what it revealed)"
                        .into(),
                ));
            }
        }
        Ok(keep)
    }

    /// The result when `seat` resigns or loses on time: it loses, every other seat wins.
    pub fn loss_for(&self, seat: u8, reason: &str) -> Outcome {
        loss_for(self.state.as_ref(), seat, reason)
    }

    /// The result when the clocks of `seats` have run out (all at the same check): they lose, the
    /// others win; when every seat's time is out at once (during a simultaneous decision) it is a
    /// draw, not a win for whichever seat the server looked at last.
    pub fn timeout_result(&self, seats: &[u8]) -> Outcome {
        timeout_result(self.state.as_ref(), seats)
    }

    /// The seed, once it may be shown: after the end of the game (and for imported records), never
    /// while chance may still act.
    pub fn revealed_seed(&self) -> Option<u64> {
        matches!(self.status, Status::Over | Status::Imported).then_some(self.config.seed)
    }

    /// The game record (every action of the game as it stands, hidden ones included — actions taken
    /// back are left out, so the record replays to the final position and its chance still follows
    /// from the seed —, and the seed: authority only, or anyone once the game is over).
    pub fn record(&self) -> JsonRecord {
        JsonRecord {
            game: self.config.game.clone(),
            options: self.config.options.clone(),
            seed: self.config.seed,
            seed_commitment: Some(self.seed_commitment.to_string()),
            actions: self
                .played
                .iter()
                .map(|p| RecordedAction {
                    actor: p.actor,
                    action: p.action.value(),
                })
                .collect(),
            result: self.result.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    //! `GameCore` below HTTP: joins, the start, actions, draws, takebacks, resignation and replay,
    //! over a real game (Kyo), each event applied with its follow-ups as the server's commit does.
    use super::*;
    use crate::base::secret::hash_token;
    use serde_json::json;

    fn core(seats: Vec<SeatKind>) -> GameCore {
        let game = tabula_core::dynamic::kind::<kyo::Kyo>();
        let token_hashes = (0..seats.len())
            .map(|i| {
                seats[i]
                    .is_human()
                    .then(|| hash_token(&format!("token-{i}")))
            })
            .collect();
        let config = GameConfig {
            game: game.id().to_string(),
            options: json!({}),
            seed: 7,
            seats,
            token_hashes,
            clock: None,
            public: true,
            rematch_of: None,
            imported: false,
            rated: false,
            rating_range: None,
        };
        GameCore::new(game.as_ref(), config).unwrap()
    }

    fn humans() -> Vec<SeatKind> {
        vec![
            SeatKind::Human { open: false },
            SeatKind::Human { open: false },
        ]
    }

    /// Applies `event` and then every follow-up until none is left; records each in `log`.
    fn commit(
        core: &mut GameCore,
        event: EventData,
        log: &mut Vec<EventData>,
    ) -> Result<(), Refusal> {
        core.apply(&event, 0)?;
        log.push(event);
        loop {
            let next = core.followups();
            if next.is_empty() {
                return Ok(());
            }
            for e in next {
                core.apply(&e, 0)?;
                log.push(e);
            }
        }
    }

    /// Both seats joined: the game has started.
    fn started(log: &mut Vec<EventData>) -> GameCore {
        let mut c = core(humans());
        for seat in 0..2 {
            commit(
                &mut c,
                EventData::Join {
                    seat,
                    token_hash: None,
                },
                log,
            )
            .unwrap();
        }
        c
    }

    /// The first legal action of the seat to act, played.
    fn play_one(c: &mut GameCore, log: &mut Vec<EventData>) -> u8 {
        let seat = c.state.to_act().seats()[0];
        let action = c.state.legal_actions(seat)[0].clone();
        let actor = Actor::Seat(seat);
        commit(
            c,
            EventData::Action {
                actor,
                action: action.into(),
            },
            log,
        )
        .unwrap();
        seat.index() as u8
    }

    /// [`commit`] at time `at` (ms): the event and its follow-ups happen then.
    fn commit_at(core: &mut GameCore, event: EventData, at: i64) {
        core.apply(&event, at).unwrap();
        loop {
            let next = core.followups();
            if next.is_empty() {
                return;
            }
            for e in next {
                core.apply(&e, at).unwrap();
            }
        }
    }

    /// Two people with `clock`, both joined at time 0; returns the game and the seat to act first.
    fn timed(clock: ClockSpec) -> (GameCore, usize) {
        let mut c = core(humans());
        let mut config = (*c.config).clone();
        config.clock = Some(clock);
        c = GameCore::new(tabula_core::dynamic::kind::<kyo::Kyo>().as_ref(), config).unwrap();
        for seat in 0..2 {
            commit_at(
                &mut c,
                EventData::Join {
                    seat,
                    token_hash: None,
                },
                0,
            );
        }
        assert_eq!(c.status, Status::Running);
        let first = c.state.to_act().seats()[0].index();
        (c, first)
    }

    /// The seat to act plays its first legal action at time `at`; returns that seat.
    fn play_at(c: &mut GameCore, at: i64) -> usize {
        let seat = c.state.to_act().seats()[0];
        let action = c.state.legal_actions(seat)[0].clone();
        commit_at(
            c,
            EventData::Action {
                actor: Actor::Seat(seat),
                action: action.into(),
            },
            at,
        );
        seat.index()
    }

    #[test]
    fn a_fischer_clock_runs_only_for_the_seat_that_owes_a_decision_and_adds_the_increment() {
        let (mut c, first) = timed(ClockSpec::Fischer {
            initial_ms: 10_000,
            increment_ms: 1_000,
        });
        let other = 1 - first;
        let clock = c.clock.clone().unwrap();
        assert!(clock.running(first) && !clock.running(other));
        assert_eq!(clock.remaining(first, 4_000), 6_000);
        assert_eq!(
            clock.remaining(other, 4_000),
            10_000,
            "a waiting seat's time stands"
        );
        assert_eq!(clock.next_deadline(4_000), Some(10_000));
        // The first seat decides after 3 s: 10 - 3 + 1 (increment) = 8 s left; the other's runs.
        assert_eq!(play_at(&mut c, 3_000), first);
        let clock = c.clock.clone().unwrap();
        assert!(!clock.running(first) && clock.running(other));
        assert_eq!(clock.remaining(first, 9_000), 8_000);
        assert_eq!(clock.remaining(other, 9_000), 4_000);
        assert_eq!(clock.next_deadline(9_000), Some(13_000));
        assert!(clock.flagged(12_999).is_empty());
    }

    #[test]
    fn a_seat_whose_time_runs_out_is_flagged_and_loses_on_time() {
        let (mut c, first) = timed(ClockSpec::Fischer {
            initial_ms: 5_000,
            increment_ms: 0,
        });
        let clock = c.clock.clone().unwrap();
        assert!(clock.flagged(4_999).is_empty());
        assert_eq!(clock.flagged(5_000), vec![first as u8]);
        // As the clock sweeper commits it: the timeout and the end it gives.
        let result = c.timeout_result(&[first as u8]);
        assert!(result.reason.contains("lost on time"), "{}", result.reason);
        commit_at(&mut c, EventData::Timeout { seat: first as u8 }, 5_000);
        commit_at(&mut c, EventData::End { result }, 5_000);
        assert_eq!(c.status, Status::Over);
        let result = c.result.clone().unwrap();
        assert_eq!(result.score(Seat(first as u8)), 0.0);
        assert_eq!(result.score(Seat(1 - first as u8)), 1.0);
        let clock = c.clock.clone().unwrap();
        assert!(
            (0..2).all(|s| !clock.running(s)),
            "every clock stops at the end"
        );
        assert_eq!(clock.next_deadline(6_000), None);
    }

    #[test]
    fn a_correspondence_clock_gives_the_days_afresh_for_each_decision() {
        let (mut c, first) = timed(ClockSpec::Correspondence { days_per_move: 2 });
        let clock = c.clock.clone().unwrap();
        assert_eq!(clock.remaining(first, DAY_MS), DAY_MS);
        assert_eq!(clock.next_deadline(0), Some(2 * DAY_MS));
        // Deciding after a day and a half banks nothing: the next decision has two days again.
        play_at(&mut c, 3 * DAY_MS / 2);
        let clock = c.clock.clone().unwrap();
        assert_eq!(clock.remaining(first, 3 * DAY_MS), 2 * DAY_MS);
        assert_eq!(clock.remaining(1 - first, 3 * DAY_MS), DAY_MS / 2);
        assert_eq!(clock.flagged(7 * DAY_MS / 2), vec![(1 - first) as u8]);
    }

    #[test]
    fn replaying_the_log_at_its_times_rebuilds_the_clocks() {
        let spec = ClockSpec::Fischer {
            initial_ms: 60_000,
            increment_ms: 2_000,
        };
        let (mut c, _) = timed(spec);
        let mut at = 0;
        for _ in 0..6 {
            at += 1_700;
            play_at(&mut c, at);
        }
        let (mut again, _) = timed(spec);
        for p in c.played.clone() {
            let actor = p.actor;
            let action = p.action.clone();
            let when = 1_700 * (again.actions as i64 + 1);
            commit_at(&mut again, EventData::Action { actor, action }, when);
        }
        let (a, b) = (c.clock.unwrap(), again.clock.unwrap());
        for seat in 0..2 {
            assert_eq!(a.remaining(seat, 20_000), b.remaining(seat, 20_000));
            assert_eq!(a.running(seat), b.running(seat));
        }
    }

    #[test]
    fn the_game_starts_once_every_human_seat_joined_and_not_before() {
        let mut log = Vec::new();
        let mut c = core(humans());
        let seq = c.seq;
        let early = EventData::Action {
            actor: Actor::Seat(Seat(0)),
            action: json!(null).into(),
        };
        assert_eq!(c.apply(&early, 0).unwrap_err().code(), "not_started");
        assert_eq!(c.seq, seq, "a refused event changes nothing");
        commit(
            &mut c,
            EventData::Join {
                seat: 0,
                token_hash: None,
            },
            &mut log,
        )
        .unwrap();
        assert_eq!(c.status, Status::Waiting);
        let again = c.apply(
            &EventData::Join {
                seat: 0,
                token_hash: None,
            },
            0,
        );
        assert_eq!(again.unwrap_err().code(), "conflict");
        commit(
            &mut c,
            EventData::Join {
                seat: 1,
                token_hash: None,
            },
            &mut log,
        )
        .unwrap();
        assert_eq!(c.status, Status::Running);
        assert!(matches!(log.last(), Some(EventData::Start)));
    }

    #[test]
    fn only_a_seats_own_token_is_accepted() {
        let c = core(humans());
        assert!(c.check_token(0, "token-0").is_ok());
        assert_eq!(c.check_token(0, "token-1").unwrap_err().code(), "bad_token");
        assert_eq!(
            c.check_token(5, "token-0").unwrap_err().code(),
            "bad_request"
        );
    }

    #[test]
    fn a_draw_offered_and_accepted_ends_the_game_drawn() {
        let mut log = Vec::new();
        let mut c = started(&mut log);
        commit(&mut c, EventData::DrawOffer { seat: 0 }, &mut log).unwrap();
        assert!(c.draw.is_some());
        commit(&mut c, EventData::DrawAccept { seat: 1 }, &mut log).unwrap();
        assert_eq!(c.status, Status::Over);
        let result = c.result.clone().unwrap();
        assert_eq!(result.reason, DRAW_BY_AGREEMENT);
        assert_eq!(result.score(Seat(0)), 0.5);
    }

    #[test]
    fn a_resignation_loses_for_that_seat_and_wins_for_the_other() {
        let mut log = Vec::new();
        let mut c = started(&mut log);
        // As the rooms commit a resignation: the event and the end it gives, together.
        commit(&mut c, EventData::Resign { seat: 1 }, &mut log).unwrap();
        assert_eq!(c.status, Status::Running, "the end is an event of its own");
        let result = c.loss_for(1, "resigned");
        commit(&mut c, EventData::End { result }, &mut log).unwrap();
        assert_eq!(c.status, Status::Over);
        let result = c.result.clone().unwrap();
        assert_eq!((result.score(Seat(0)), result.score(Seat(1))), (1.0, 0.0));
        assert!(result.reason.contains("resigned"), "{}", result.reason);
        let late = c.apply(&EventData::DrawOffer { seat: 0 }, 0);
        assert!(late.is_err(), "nothing is offered in a game that is over");
    }

    #[test]
    fn an_accepted_takeback_restores_the_position_before_the_action() {
        let mut log = Vec::new();
        let mut c = started(&mut log);
        let before = c.state.state();
        let by = play_one(&mut c, &mut log);
        assert_eq!(c.actions, 1);
        assert_ne!(c.state.state(), before);
        commit(&mut c, EventData::TakebackOffer { seat: by }, &mut log).unwrap();
        commit(&mut c, EventData::TakebackAccept { seat: 1 - by }, &mut log).unwrap();
        assert!(
            matches!(log.last(), Some(EventData::Takeback { .. })),
            "{log:?}"
        );
        assert_eq!(c.state.state(), before);
        assert!(c.played.is_empty());
    }

    #[test]
    fn replaying_the_log_rebuilds_the_same_game() {
        let mut log = Vec::new();
        let mut c = started(&mut log);
        for _ in 0..12 {
            play_one(&mut c, &mut log);
        }
        commit(&mut c, EventData::DrawOffer { seat: 0 }, &mut log).unwrap();
        commit(&mut c, EventData::DrawDecline { seat: 1 }, &mut log).unwrap();
        let mut replayed = core(humans());
        for e in &log {
            replayed.apply(e, 0).unwrap();
        }
        assert!(replayed.followups().is_empty());
        assert_eq!(replayed.state.state(), c.state.state());
        assert_eq!(
            (replayed.seq, replayed.actions, replayed.status),
            (c.seq, c.actions, c.status)
        );
        assert_eq!(replayed.record().actions.len(), c.record().actions.len());
    }

    #[test]
    fn a_stored_action_is_its_canonical_json_text_and_reads_back_the_same() {
        let written = ActionJson::from(json!({"step": {"to": "A1", "from": "B0", "chips": 1}}));
        // Keys sorted: the same action written in another order is equal.
        let other: ActionJson =
            serde_json::from_str(r#"{ "step" : {"chips":1, "from":"B0", "to":"A1"} }"#).unwrap();
        assert_eq!(written, other);
        assert_eq!(
            written.text(),
            r#"{"step":{"chips":1,"from":"B0","to":"A1"}}"#
        );
        // In an event, it is written as the JSON it stands for (not a string), and reads back from
        // text and from a parsed value alike.
        let event = EventData::Action {
            actor: Actor::Seat(Seat(0)),
            action: written.clone(),
        };
        let text = serde_json::to_string(&event).unwrap();
        assert!(text.contains(r#""action":{"step":{"#), "{text}");
        assert_eq!(serde_json::from_str::<EventData>(&text).unwrap(), event);
        let value = serde_json::to_value(&event).unwrap();
        assert_eq!(serde_json::from_value::<EventData>(value).unwrap(), event);
        assert_eq!(
            written.value(),
            json!({"step": {"chips": 1, "from": "B0", "to": "A1"}})
        );
    }

    #[test]
    fn an_action_seen_alike_by_every_observer_is_kept_once() {
        let seen = |words: &str| Seen {
            notation: Some("a1-a2".into()),
            cells: "a1\na2".into(),
            words: words.into(),
            turn: 3,
        };
        let alike = Described::new(vec![seen("x"), seen("x"), seen("x")]);
        assert!(matches!(alike, Described::Alike(_)));
        assert_eq!(alike.get(2), Some(&seen("x")));
        assert_eq!(seen("x").cells(), vec!["a1".to_string(), "a2".to_string()]);
        let each = Described::new(vec![seen("x"), seen("hidden"), seen("x")]);
        assert!(matches!(each, Described::Each(_)));
        assert_eq!(each.get(1), Some(&seen("hidden")));
        let none = Seen {
            cells: "".into(),
            ..seen("x")
        };
        assert!(none.cells().is_empty());
    }

    #[test]
    fn a_growing_log_keeps_at_most_an_eighth_unused() {
        let mut log: Vec<u64> = Vec::new();
        for i in 0..1000 {
            reserve_log(&mut log, 1);
            log.push(i);
            assert!(
                log.capacity() <= log.len() + log.len() / 8 + 9,
                "{} of {}",
                log.len(),
                log.capacity()
            );
        }
    }
}
