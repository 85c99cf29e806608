//! Live games ("rooms"): loading from the log, committing new events, broadcasting per-observer
//! messages, AI seats and the clock sweeper.
//!
//! Every change follows one path (`Shared::commit_inner`): the new events are applied to a scratch copy of
//! the game (which checks them: a refused request changes nothing), the automatic follow-ups are added
//! (start, chance, end of game, AI draw declines), the batch is committed to the database, and only then
//! is it applied to the room and broadcast. A room's lock is held across the commit, so each game's
//! events are strictly ordered.
//!
//! Every change runs on a task of its own that nobody cancels (the public entry points hand it to
//! `detached`; AI moves and the clock sweeper's flags are spawned tasks already). The commit and the update of the
//! room must not be separated: axum drops an HTTP handler's future when its client disconnects, and a
//! change abandoned between the database and the room would leave the log one event ahead of the game
//! in memory (the next change would reuse the seq and fail forever).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use serde_json::{Value, json};
use tabula_core::dynamic::{DynGame, DynState};
use tabula_core::{Actor, Observer, Seat, ToAct};
use tokio::sync::{Mutex, Semaphore, broadcast};

use crate::accounts::{Account, Accounts};
use crate::db::{Db, Faults, WriteRequest, Writer};
use crate::model::{
    ClockSpec, Event, EventData, GameConfig, GameCore, Refusal, SeatKind, Seen, Status, hash_token,
    new_token, observers, results_outside_the_rules,
};
use crate::ratings::{GameEnd, SeatBinding};
use crate::{BotFn, Limits};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// One committed change, rendered once for every observer (seats in order, then the spectator).
#[derive(Debug)]
pub struct Update {
    /// The first new event's seq.
    pub first: u64,
    /// The last seq after this change.
    pub seq: u64,
    /// The `update` message (JSON text) for each observer, shared by all of its sockets; `None` for
    /// an observer nobody was watching as (a socket that starts watching later renders its own).
    pub messages: Vec<Option<Utf8Bytes>>,
}

/// How each observer (seats in order, then the spectator) sees one event (`None` for events that are
/// not actions): its notation and cells, `None` for an observer the action is hidden from.
pub type Described = Option<Vec<Option<Seen>>>;

/// The in-memory part of a game behind its lock.
pub struct RoomInner {
    pub core: GameCore,
    pub events: Vec<Event>,
    /// For each event: how each observer sees it (actions only).
    pub described: Vec<Described>,
    ai_busy: Vec<bool>,
    /// Whether the log may hold events the room has not applied (a commit failed and storage could
    /// not tell whether it landed): the room catches up before its next change.
    unsure: bool,
}

/// A loaded game.
pub struct Room {
    pub id: String,
    pub kind: Arc<dyn DynGame>,
    pub inner: Mutex<RoomInner>,
    pub tx: broadcast::Sender<Arc<Update>>,
    summary: StdMutex<Value>,
    /// Per seat, the account holding it as the lobby shows it (`{"name", "rating", "rd"}`), kept in
    /// the summary; set by [`Shared::refresh_players`].
    players: StdMutex<Vec<Option<Value>>>,
    status: StdMutex<Status>,
    /// Replay checkpoints (built on demand by [`Room::view_at`]; the log only grows, so they stay
    /// valid), at most [`MAX_CHECKPOINTS`].
    checkpoints: StdMutex<Checkpoints<Box<dyn DynState>>>,
    /// Open sockets per observer (seats in order, then the spectator): updates are rendered only for
    /// observers someone watches as.
    watchers: Vec<AtomicUsize>,
    /// Per seat, how many times its token was replaced (a lobby claim) since the room was loaded. A
    /// socket remembers the count it authenticated at and is revoked when it changes, before it can
    /// receive anything rendered for the seat's new holder. Changed only under the room's lock, before
    /// the change is broadcast.
    token_revs: Vec<AtomicU64>,
    /// When the game last changed (ms since the epoch; its last event's time when loaded): a room
    /// unchanged for [`Limits::room_idle`] that nobody holds is evicted.
    last_change: AtomicI64,
}

/// Counts one socket watching a room as an observer, while it lives.
pub struct Watching {
    room: Arc<Room>,
    index: usize,
}

impl Drop for Watching {
    fn drop(&mut self) {
        if let Some(w) = self.room.watchers.get(self.index) {
            w.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Updates a room's broadcast channel holds for slow sockets.
const UPDATE_BACKLOG: usize = 8;

/// Actions between two replay checkpoints at first: a position is rebuilt with at most this many
/// actions, until a game is longer than [`MAX_CHECKPOINTS`] times it.
pub const REPLAY_STRIDE: u64 = 32;

/// The most replay checkpoints a game keeps: a longer game doubles its stride (drops every other
/// checkpoint) instead of keeping more.
pub const MAX_CHECKPOINTS: usize = 64;

/// States at regular positions of a game: entry `k` is the state after the first `k * stride`
/// actions. Bounded: past `max` entries, every other one is dropped and the stride doubles.
#[derive(Debug)]
pub struct Checkpoints<T> {
    stride: u64,
    max: usize,
    states: Vec<T>,
}

impl<T> Checkpoints<T> {
    /// No checkpoints yet, `stride` actions apart, at most `max` (at least 2) kept.
    pub fn new(stride: u64, max: usize) -> Checkpoints<T> {
        Checkpoints {
            stride: stride.max(1),
            max: max.max(2),
            states: Vec::new(),
        }
    }
    /// The checkpoint to rebuild the position before the `n`-th action from: its position and state
    /// (position 0 and `None` when there is none: start from the game's initial state).
    pub fn base_for(&self, n: u64) -> (u64, Option<&T>) {
        if self.states.is_empty() {
            return (0, None);
        }
        let k = (n.saturating_sub(1) / self.stride).min(self.states.len() as u64 - 1);
        (k * self.stride, self.states.get(k as usize))
    }
    /// Whether the state after `done` actions is the next checkpoint to keep.
    pub fn wants(&self, done: u64) -> bool {
        done.is_multiple_of(self.stride) && self.states.len() as u64 == done / self.stride
    }
    /// Keeps `state`, the state after `done` actions, if it is the next checkpoint.
    pub fn offer(&mut self, done: u64, state: impl FnOnce() -> T) {
        if !self.wants(done) {
            return;
        }
        self.states.push(state());
        if self.states.len() > self.max {
            let mut k = 0;
            self.states.retain(|_| {
                k += 1;
                k % 2 == 1
            });
            self.stride *= 2;
        }
    }
    /// The checkpoints kept.
    pub fn len(&self) -> usize {
        self.states.len()
    }
    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
    /// Actions between two checkpoints now.
    pub fn stride(&self) -> u64 {
        self.stride
    }
}

/// The server's shared state.
pub struct Shared {
    pub registry: tabula_core::dynamic::Registry,
    pub bot: BotFn,
    pub writer: Writer,
    pub db: Db,
    pub limits: Limits,
    /// Player accounts (sessions, seat bindings, ratings).
    pub accounts: Arc<Accounts>,
    rooms: StdMutex<HashMap<String, Arc<Room>>>,
    loading: Mutex<()>,
    pub(crate) ai_pool: Arc<Semaphore>,
    /// Analyses of finished games and hints (`crate::analysis`).
    pub analyses: crate::analysis::Analyses,
    /// Each seat's budget of non-move events (draw offers, acceptances, declines), by game and seat.
    seat_events: governor::DefaultKeyedRateLimiter<(String, u8)>,
    /// The lobby's index: the summary of every public waiting or running game, loaded or not.
    lobby: StdMutex<LobbyIndex>,
    /// Every waiting game (loaded or not) and the time of its last event, for expiry.
    waiting: StdMutex<HashMap<String, i64>>,
    /// Storage faults injected by tests.
    pub faults: Arc<Faults>,
    /// When each running game's clock next runs out, loaded or not: the clock sweeper
    /// ([`Shared::run_clocks`]) loads a game that left memory when its time is up.
    deadlines: StdMutex<Deadlines>,
    /// Wakes the clock sweeper when a deadline is filed.
    deadline_filed: tokio::sync::Notify,
}

/// Running games' next clock deadlines (ms since the epoch), in time order.
#[derive(Default)]
struct Deadlines {
    by_time: BTreeSet<(i64, String)>,
    of: HashMap<String, i64>,
}

impl Deadlines {
    /// Files game `id`'s next deadline (`None`: no clock runs). Returns whether it changed.
    fn file(&mut self, id: &str, at: Option<i64>) -> bool {
        let old = self.of.get(id).copied();
        if old == at {
            return false;
        }
        if let Some(old) = old {
            self.by_time.remove(&(old, id.to_string()));
        }
        match at {
            Some(at) => {
                self.by_time.insert((at, id.to_string()));
                self.of.insert(id.to_string(), at);
            }
            None => {
                self.of.remove(id);
            }
        }
        true
    }

    /// Removes and returns the games whose deadline is at or before `now`.
    fn take_due(&mut self, now: i64) -> Vec<String> {
        let mut due = Vec::new();
        while let Some((at, id)) = self.by_time.first().cloned() {
            if at > now {
                break;
            }
            self.by_time.pop_first();
            self.of.remove(&id);
            due.push(id);
        }
        due
    }
}

/// Public unfinished games' summaries as JSON text (rendered once per change, so answering the lobby
/// only joins texts), newest first (keyed by creation time, then id).
#[derive(Default)]
struct LobbyIndex {
    open: BTreeMap<(Reverse<i64>, String), String>,
    live: BTreeMap<(Reverse<i64>, String), String>,
}

/// Games of each kind the lobby lists.
const LOBBY_LIMIT: usize = 200;

/// A request to create a game.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    pub game: String,
    #[serde(default)]
    pub options: Option<Value>,
    pub seats: Vec<SeatKind>,
    #[serde(default)]
    pub host_seats: Vec<u8>,
    /// One host seat (the same as `host_seats: [seat]`).
    #[serde(default)]
    pub host_seat: Option<u8>,
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    #[serde(default)]
    pub public: Option<bool>,
    /// Refused when given: a live game's seed is drawn by the server (see [`draw_seed`]). The field
    /// exists so that a client that sends one is told why.
    #[serde(default)]
    pub seed: Option<Value>,
    /// A rated game (see [`crate::ratings`]): only for a signed-in creator holding one seat, with no
    /// AI seat; every other seat is joined by a signed-in player.
    #[serde(default)]
    pub rated: Option<bool>,
    /// A rated seek's range of ratings for the players who join.
    #[serde(default)]
    pub rating_range: Option<crate::ratings::RatingRange>,
}

/// A fresh game seed from the operating system's randomness. Nobody can know it before the game is
/// over (the players see only its commitment), so nobody can predict a deal or a die.
pub fn draw_seed() -> Result<u64, Refusal> {
    use tabula_core::rand::TryRng;
    tabula_core::rand::rngs::SysRng.try_next_u64().map_err(|e| {
        Refusal::Internal(format!("cannot draw a seed from the operating system: {e}"))
    })
}

/// What a seat may do (besides playing actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatOp {
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
}

fn observer_index(obs: Observer, seats: usize) -> usize {
    match obs {
        Observer::Seat(s) => s.index(),
        Observer::Spectator => seats,
    }
}

impl Shared {
    pub fn new(
        registry: tabula_core::dynamic::Registry,
        bot: BotFn,
        db: Db,
        limits: Limits,
        analyst: Option<Arc<dyn crate::analysis::Analyst>>,
    ) -> Shared {
        let workers = limits.ai_workers.max(1);
        let faults = Arc::new(Faults::default());
        Shared {
            registry,
            bot,
            writer: Writer::start(db.clone(), faults.clone()),
            faults,
            deadlines: StdMutex::new(Deadlines::default()),
            deadline_filed: tokio::sync::Notify::new(),
            accounts: Arc::new(Accounts::new(
                db.clone(),
                limits.login,
                limits.secure_cookies,
            )),
            db,
            rooms: StdMutex::new(HashMap::new()),
            loading: Mutex::new(()),
            ai_pool: Arc::new(Semaphore::new(workers)),
            analyses: crate::analysis::Analyses::new(analyst),
            seat_events: governor::RateLimiter::keyed(seat_events_quota(&limits)),
            lobby: StdMutex::new(LobbyIndex::default()),
            waiting: StdMutex::new(HashMap::new()),
            limits,
        }
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Room>>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The number of games in memory.
    pub fn loaded_games(&self) -> usize {
        self.rooms().len()
    }

    /// The room of game `id` if it is in memory (games played or watched lately are).
    pub fn loaded_room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms().get(id).cloned()
    }

    /// The room of game `id`, loading it from the log if needed.
    pub async fn room(self: &Arc<Self>, id: &str) -> Result<Arc<Room>, Refusal> {
        if let Some(r) = self.rooms().get(id) {
            return Ok(r.clone());
        }
        if uuid::Uuid::parse_str(id).is_err() {
            return Err(Refusal::NotFound(format!("no game `{id}`")));
        }
        let _guard = self.loading.lock().await;
        if let Some(r) = self.rooms().get(id) {
            return Ok(r.clone());
        }
        let events = self.db.load_events(id).await.map_err(|e| {
            tracing::error!(game_id = %id, error = %e, "storage error: cannot load the game");
            Refusal::Internal(e)
        })?;
        if events.is_empty() {
            return Err(Refusal::NotFound(format!("no game `{id}`")));
        }
        let room = Arc::new(self.rebuild(id, events)?);
        {
            // Nobody else can see the room yet: its lock is free, and its deadline and AI seats are
            // scheduled before it is shared (a caller that goes away cannot leave it unscheduled).
            let mut inner = room.inner.lock().await;
            // The lobby names the accounts holding the seats of the games it lists.
            let listed = matches!(inner.core.status, Status::Waiting | Status::Running);
            if listed && inner.core.config.public {
                match self.accounts.lobby_players(id, inner.core.seats()).await {
                    Ok(players) => {
                        *room.players.lock().unwrap_or_else(|e| e.into_inner()) = players
                    }
                    Err(e) => {
                        tracing::warn!(game_id = %id, error = %e, "the lobby cannot name the game's players")
                    }
                }
            }
            self.after_change(&room, &mut inner);
        }
        self.rooms().insert(id.to_string(), room.clone());
        Ok(room)
    }

    /// Rebuilds a game by replaying its log.
    fn rebuild(&self, id: &str, events: Vec<Event>) -> Result<Room, Refusal> {
        let corrupt =
            |m: String| Refusal::Internal(format!("game {id}: stored log is inconsistent: {m}"));
        let config = match events.first().map(|e| &e.data) {
            Some(EventData::Created { config }) => (**config).clone(),
            _ => return Err(corrupt("it does not start with `created`".into())),
        };
        let kind = self
            .registry
            .get(&config.game)
            .map_err(|e| corrupt(e.to_string()))?
            .clone();
        let mut core = GameCore::new(kind.as_ref(), config).map_err(|e| corrupt(e.to_string()))?;
        let mut described = vec![None];
        described.extend(apply_logged(id, &mut core, &events[1..])?);
        Ok(Room::new(id.to_string(), kind, core, events, described))
    }

    /// Resumes every unfinished game (at startup), one at a time: each is replayed so that its clock
    /// and AI seats resume and the lobby's index lists it, then dropped from memory again unless
    /// something holds it (a socket, an AI move) or it changed within [`Limits::room_idle`].
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, String> {
        let ids = self.db.unfinished_games().await?;
        let mut n = 0;
        for id in ids {
            match self.room(&id).await {
                Ok(room) => {
                    n += 1;
                    let inner = room.inner.lock().await;
                    if let Some(line) = downtime_note(&inner, now_ms()) {
                        tracing::warn!(game = %id, "{line}");
                    }
                    drop(inner);
                    drop(room);
                    self.evict_if_idle(&id);
                }
                Err(e) => tracing::error!("cannot resume game {id}: {e}"),
            }
        }
        Ok(n)
    }

    /// Creates a game; returns its room and the tokens of its human seats.
    pub async fn create(
        self: &Arc<Self>,
        req: CreateGame,
    ) -> Result<(Arc<Room>, Vec<Option<String>>), Refusal> {
        self.create_as(req, None).await
    }

    /// [`Shared::create`] by a signed-in player (`by`): the host seats are bound to the account.
    pub async fn create_as(
        self: &Arc<Self>,
        req: CreateGame,
        by: Option<Account>,
    ) -> Result<(Arc<Room>, Vec<Option<String>>), Refusal> {
        let shared = self.clone();
        detached(async move { shared.create_now(req, None, by).await }).await
    }

    /// [`Shared::create`] on the caller's task (which must not be cancelled); `rematch_of` is the old
    /// game and its seats' token hashes, already rotated.
    async fn create_now(
        self: &Arc<Self>,
        req: CreateGame,
        rematch_of: Option<(String, Vec<Option<String>>)>,
        by: Option<Account>,
    ) -> Result<(Arc<Room>, Vec<Option<String>>), Refusal> {
        if req.seed.is_some() {
            return Err(Refusal::BadRequest(
                "`seed` cannot be chosen: the server draws every live game's seed from the operating \
                 system's randomness and shows its commitment (`seed_commitment`) until the game is \
                 over; a finished record keeps its seed when imported (POST /api/records)"
                    .into(),
            ));
        }
        let kind = self
            .registry
            .get(&req.game)
            .map_err(|e| Refusal::NotFound(e.to_string()))?
            .clone();
        let options = kind
            .check_options(req.options.as_ref().unwrap_or(&json!({})))
            .map_err(|e| Refusal::BadRequest(e.to_string()))?;
        if let Some(c) = &req.clock {
            c.check().map_err(Refusal::BadRequest)?;
        }
        if !self.limits.allow_ai_only_games
            && rematch_of.is_none()
            && !req.seats.iter().any(SeatKind::is_human)
        {
            return Err(Refusal::BadRequest(
                "games with no human seat (AI against AI) are not played on this server: \
                 make at least one seat human"
                    .into(),
            ));
        }
        for s in &req.seats {
            let max = self.limits.ai_max_level;
            if let SeatKind::Ai { level } = s
                && !(1..=max).contains(level)
            {
                return Err(Refusal::BadRequest(format!(
                    "AI level {level} is out of range 1..={max}"
                )));
            }
        }
        let (tokens, token_hashes, rematch_of) = match rematch_of {
            Some((old, hashes)) => (vec![None; req.seats.len()], hashes, Some(old)),
            None => {
                let tokens: Vec<Option<String>> = req
                    .seats
                    .iter()
                    .map(|s| s.is_human().then(new_token))
                    .collect();
                let hashes = tokens
                    .iter()
                    .map(|t| t.as_deref().map(hash_token))
                    .collect();
                (tokens, hashes, None)
            }
        };
        let config = GameConfig {
            game: kind.id().to_string(),
            options,
            seed: draw_seed()?,
            seats: req.seats.clone(),
            token_hashes,
            clock: req.clock,
            public: req.public.unwrap_or(true),
            rematch_of,
            imported: false,
            rated: req.rated.unwrap_or(false),
            rating_range: req.rating_range,
        };
        let core = GameCore::new(kind.as_ref(), config)?;
        let mut hosts = req.host_seats.clone();
        hosts.extend(req.host_seat);
        hosts.sort_unstable();
        hosts.dedup();
        for &h in &hosts {
            core.check_seat(h)?;
            match core.config.seats[h as usize] {
                SeatKind::Ai { .. } => {
                    return Err(Refusal::BadRequest(format!("host seat {h} is an AI seat")));
                }
                SeatKind::Human { open: true } => {
                    return Err(Refusal::BadRequest(format!(
                        "host seat {h} is an open seat: a seat is either the creator's or open to anyone"
                    )));
                }
                SeatKind::Human { open: false } => {}
            }
        }
        crate::ratings::check_rated_creation(&core.config, &hosts, by.is_some())?;
        let bindings: Vec<SeatBinding> = match &by {
            Some(account) => hosts
                .iter()
                .filter_map(|&h| {
                    let token = tokens.get(h as usize).cloned().flatten()?;
                    Some(SeatBinding {
                        seat: h,
                        account_id: account.id.clone(),
                        token,
                    })
                })
                .collect(),
            None => Vec::new(),
        };
        let (room, created) = Room::fresh(kind, core);
        {
            let mut inner = room.inner.lock().await;
            let joins = hosts
                .iter()
                .map(|&seat| EventData::Join {
                    seat,
                    token_hash: None,
                })
                .collect();
            self.commit_bound(&room, &mut inner, joins, Some(created), bindings)
                .await?;
        }
        self.rooms().insert(room.id.clone(), room.clone());
        Ok((room, tokens))
    }

    /// Imports a finished (or unfinished) record as a read-only game.
    pub async fn import(
        self: &Arc<Self>,
        record: tabula_core::record::JsonRecord,
        public: bool,
    ) -> Result<Arc<Room>, Refusal> {
        let shared = self.clone();
        detached(async move { shared.import_now(&record, public).await }).await
    }

    async fn import_now(
        self: &Arc<Self>,
        record: &tabula_core::record::JsonRecord,
        public: bool,
    ) -> Result<Arc<Room>, Refusal> {
        let kind = self
            .registry
            .get(&record.game)
            .map_err(|e| Refusal::BadRequest(e.to_string()))?
            .clone();
        let options = kind
            .check_options(&record.options)
            .map_err(|e| Refusal::BadRequest(format!("invalid record: {e}")))?;
        record
            .check_seed_commitment()
            .map_err(|e| Refusal::BadRequest(format!("invalid record: {e}")))?;
        // The game checks the moves; the result must be what the replay gives: the game's own outcome
        // when its rules ended it, else one the server ends a game with in that position (a
        // resignation, a loss on time, a draw by agreement), results and reason alike.
        let mut moves_only = record.clone();
        moves_only.result = None;
        let final_state = kind
            .replay(&moves_only, false)
            .map_err(|e| Refusal::BadRequest(e.to_string()))?;
        match (final_state.to_act(), &record.result) {
            (ToAct::Over(reached), Some(given)) if &reached != given => {
                return Err(Refusal::BadRequest(format!(
                    "invalid record: its result {given:?} differs from the game's outcome {reached:?}"
                )));
            }
            (ToAct::Over(_), _) | (_, None) => {}
            (_, Some(given)) => {
                if !results_outside_the_rules(final_state.as_ref()).contains(given) {
                    return Err(Refusal::BadRequest(format!(
                        "invalid record: its result {given:?} is not one this game can end with \
                         here: its rules have not ended it, so it must be a resignation, a loss on \
                         time or a draw by agreement, as the server records them"
                    )));
                }
            }
        }
        let seats = final_state.seats();
        let config = GameConfig {
            game: kind.id().to_string(),
            options,
            seed: record.seed,
            seats: vec![SeatKind::HUMAN; seats],
            token_hashes: vec![None; seats],
            clock: None,
            public,
            rematch_of: None,
            imported: true,
            rated: false,
            rating_range: None,
        };
        let core = GameCore::new(kind.as_ref(), config)?;
        let (room, created) = Room::fresh(kind, core);
        {
            let mut inner = room.inner.lock().await;
            let mut evs: Vec<EventData> = record
                .actions
                .iter()
                .map(|a| EventData::Action {
                    actor: a.actor,
                    action: a.action.clone(),
                })
                .collect();
            let result = match final_state.to_act() {
                ToAct::Over(o) => Some(o),
                _ => record.result.clone(),
            };
            if let Some(result) = result {
                evs.push(EventData::End { result });
            }
            self.commit_inner(&room, &mut inner, evs, Some(created))
                .await?;
        }
        self.rooms().insert(room.id.clone(), room.clone());
        Ok(room)
    }

    /// Applies `first` (then the automatic follow-ups) to a scratch copy, commits, then installs and
    /// broadcasts. Returns the seq of the first new event. Runs only on tasks nobody cancels (see the
    /// module documentation): between the commit and the room's update there must be no way out.
    async fn commit_inner(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
        first: Vec<EventData>,
        created: Option<Event>,
    ) -> Result<u64, Refusal> {
        self.commit_bound(room, inner, first, created, Vec::new())
            .await
    }

    /// [`Shared::commit_inner`] that also binds seats to accounts, in the same transaction.
    async fn commit_bound(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
        first: Vec<EventData>,
        created: Option<Event>,
        bindings: Vec<SeatBinding>,
    ) -> Result<u64, Refusal> {
        self.catch_up(room, inner).await?;
        let last_at = inner.events.last().map_or(0, |e| e.at);
        let now = now_ms().max(last_at);
        let mut scratch = inner.core.clone();
        let mut new_events = Vec::new();
        let mut new_desc = Vec::new();
        for data in first {
            let seq = scratch.seq + 1;
            new_desc.push(scratch.apply(&data, now)?);
            new_events.push(Event { seq, at: now, data });
        }
        let mut guard = 0u32;
        loop {
            let more = scratch.followups();
            if more.is_empty() {
                break;
            }
            guard += 1;
            if guard > 100_000 {
                return Err(Refusal::Internal(
                    "the game does not settle (endless chance)".into(),
                ));
            }
            for data in more {
                let seq = scratch.seq + 1;
                new_desc.push(scratch.apply(&data, now)?);
                new_events.push(Event { seq, at: now, data });
            }
        }
        let first_seq = match (&created, new_events.first()) {
            (Some(c), _) => c.seq,
            (None, Some(e)) => e.seq,
            (None, None) => return Ok(inner.core.seq),
        };
        let mut to_write = new_events.clone();
        let new_game = created.is_some();
        // The game ends with these events: the accounts' results and ratings are recorded with them.
        let end = match (&scratch.result, &inner.core.result) {
            (Some(result), None) if scratch.status == Status::Over => Some(GameEnd {
                game: scratch.config.game.clone(),
                rated: scratch.config.rated,
                scores: (0..scratch.seats())
                    .map(|i| result.score(Seat::new(i)))
                    .collect(),
            }),
            _ => None,
        };
        let rated_end = end.as_ref().is_some_and(|e| e.rated);
        if let Some(c) = created {
            to_write.insert(0, c);
        }
        let written = self
            .writer
            .write(WriteRequest {
                game_id: room.id.clone(),
                game: scratch.config.game.clone(),
                new_game,
                status: scratch.status.as_str(),
                at: now,
                events: to_write,
                bindings,
                end,
            })
            .await;
        if let Err(e) = written {
            // The commit may have landed although its answer was lost (a connection that broke
            // after `COMMIT`): the log decides. Landed: it is durable, so it is acknowledged like
            // any other. Not landed: nothing changed. Unknown (storage is down): the room may be
            // behind its log, and catches up before its next change (and by itself meanwhile).
            match self.stored_seq(&room.id).await {
                Ok(stored) if stored == scratch.seq => {
                    tracing::warn!(game_id = %room.id, seq = stored,
                        "the answer to a commit was lost, but the log holds it: acknowledged");
                }
                Ok(stored) if stored <= inner.core.seq => {
                    return Err(Refusal::Unavailable(e.to_string()));
                }
                Ok(stored) => {
                    tracing::error!(game_id = %room.id, stored, memory = inner.core.seq,
                        "the log and the room disagree after a failed commit; catching up");
                    self.mark_unsure(room, inner);
                    return Err(Refusal::Unavailable(e.to_string()));
                }
                Err(_) => {
                    self.mark_unsure(room, inner);
                    return Err(Refusal::Unavailable(e.to_string()));
                }
            }
        }
        self.install(room, inner, scratch, (first_seq, new_events, new_desc), now);
        if rated_end {
            self.ratings_changed(&room.id);
        }
        Ok(first_seq)
    }

    /// Names the accounts holding the room's seats, with their ratings, in its lobby summary (after a
    /// seat was bound to an account or unbound, or a player's rating changed).
    pub async fn refresh_players(self: &Arc<Self>, room: &Arc<Room>) {
        let inner = room.inner.lock().await;
        match self
            .accounts
            .lobby_players(&room.id, inner.core.seats())
            .await
        {
            Ok(players) => {
                *room.players.lock().unwrap_or_else(|e| e.into_inner()) = players;
                room.refresh_summary(&inner);
                self.index(room, &inner);
            }
            Err(e) => {
                tracing::warn!(game_id = %room.id, error = %e, "the lobby cannot name the game's players")
            }
        }
    }

    /// Refreshes, in the background, the lobby summaries of the unfinished games of the players of
    /// game `id`, whose rated end changed their ratings.
    fn ratings_changed(self: &Arc<Self>, id: &str) {
        let (shared, id) = (self.clone(), id.to_string());
        tokio::spawn(async move {
            match shared.accounts.games_of_players(&id).await {
                Ok(ids) => shared.refresh_players_of(&ids).await,
                Err(e) => {
                    tracing::warn!(game_id = %id, error = %e, "the lobby cannot refresh ratings")
                }
            }
        });
    }

    /// [`Shared::refresh_players`] of the given games (loading them if needed).
    pub async fn refresh_players_of(self: &Arc<Self>, ids: &[String]) {
        for id in ids {
            if let Ok(room) = self.room(id).await {
                self.refresh_players(&room).await;
            }
        }
    }

    /// Makes committed events the room's own: its state, log and descriptions (the new events, the
    /// first seq of the change — a new game's `created` event is already in the log — and how each
    /// observer sees them); revokes replaced tokens; broadcasts them; schedules what follows.
    fn install(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
        core: GameCore,
        (first_seq, new_events, new_desc): (u64, Vec<Event>, Vec<Described>),
        now: i64,
    ) {
        // A replaced token (a claimed seat) revokes the sockets that authenticated with the old one:
        // they see the new count before the update for the seat's new holder reaches them.
        for (i, rev) in room.token_revs.iter().enumerate() {
            if inner.core.token_hashes.get(i) != core.token_hashes.get(i) {
                rev.fetch_add(1, Ordering::SeqCst);
            }
        }
        inner.core = core;
        room.last_change.store(now, Ordering::SeqCst);
        inner.events.extend(new_events);
        inner.described.extend(new_desc);
        if room.tx.receiver_count() > 0 {
            // Rendered once per watched observer, whatever the number of sockets.
            let update = room.render_update(inner, first_seq);
            let _ = room.tx.send(Arc::new(update));
        }
        self.after_change(room, inner);
    }

    /// The last seq of game `id`'s log as storage holds it (0 for a game not stored).
    async fn stored_seq(&self, id: &str) -> Result<u64, String> {
        self.faults.check_load()?;
        self.db.last_seq(id).await
    }

    /// Marks the room as possibly behind its log, and starts catching up in the background (with a
    /// growing pause between tries) until storage answers.
    fn mark_unsure(self: &Arc<Self>, room: &Arc<Room>, inner: &mut RoomInner) {
        if inner.unsure {
            return;
        }
        inner.unsure = true;
        let shared = self.clone();
        let room = room.clone();
        tokio::spawn(async move {
            let mut pause = Duration::from_millis(250);
            loop {
                tokio::time::sleep(pause).await;
                let mut inner = room.inner.lock().await;
                if !inner.unsure || shared.catch_up(&room, &mut inner).await.is_ok() {
                    return;
                }
                drop(inner);
                pause = (pause * 2).min(Duration::from_secs(30));
            }
        });
    }

    /// Brings a room marked unsure up to its log: the events storage holds beyond the room's are
    /// applied and broadcast like any commit. Fails (`503`) while storage cannot be read.
    async fn catch_up(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
    ) -> Result<(), Refusal> {
        if !inner.unsure {
            return Ok(());
        }
        self.faults.check_load().map_err(Refusal::Unavailable)?;
        let events = self.db.load_events(&room.id).await.map_err(|e| {
            tracing::error!(game_id = %room.id, error = %e, "storage error: cannot read the log to catch up");
            Refusal::Unavailable(crate::db::WriteError.to_string())
        })?;
        let known = inner.core.seq;
        let behind: Vec<Event> = events.into_iter().filter(|e| e.seq > known).collect();
        let mut core = inner.core.clone();
        let desc = apply_logged(&room.id, &mut core, &behind)?;
        inner.unsure = false;
        if let (Some(first), Some(last)) = (behind.first(), behind.last()) {
            tracing::warn!(game_id = %room.id, events = behind.len(),
                "caught up with the log: a commit whose answer was lost had landed");
            let (first, now) = (first.seq, last.at);
            self.install(room, inner, core, (first, behind, desc), now);
        }
        Ok(())
    }

    /// Refreshes the lobby summary, files the clock's next deadline, and schedules the AI seats.
    fn after_change(self: &Arc<Self>, room: &Arc<Room>, inner: &mut RoomInner) {
        room.refresh_summary(inner);
        self.index(room, inner);
        let deadline = match &inner.core.clock {
            Some(clock) if inner.core.status == Status::Running => clock.next_deadline(now_ms()),
            _ => None,
        };
        // The clock sweeper ends the game on time, in memory or not: a running clock does not hold
        // the room.
        self.file_deadline(&room.id, deadline);
        if inner.core.status != Status::Running {
            return;
        }
        self.schedule_ai(room, inner);
    }

    /// Files game `id`'s next clock deadline in the index the clock sweeper follows.
    fn file_deadline(&self, id: &str, at: Option<i64>) {
        let changed = self
            .deadlines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .file(id, at);
        if changed && at.is_some() {
            self.deadline_filed.notify_one();
        }
    }

    /// The clock sweeper (runs for the server's life): sleeps until the earliest deadline of the
    /// running games (or until an earlier one is filed), then ends on time every game whose seat's
    /// clock ran out, loading it from the log if it left memory. Games stay in the index, loaded or
    /// not, so a correspondence game costs memory only while someone plays or watches it.
    pub async fn run_clocks(self: Arc<Self>) {
        loop {
            let (due, next) = {
                let mut deadlines = self.deadlines.lock().unwrap_or_else(|e| e.into_inner());
                let due = deadlines.take_due(now_ms());
                (due, deadlines.by_time.first().map(|(at, _)| *at))
            };
            for id in due {
                let shared = self.clone();
                tokio::spawn(async move { shared.flag_game(&id).await });
            }
            let notified = self.deadline_filed.notified();
            match next {
                Some(at) => {
                    let wait = (at - now_ms()).clamp(0, 60_000) as u64;
                    let _ = tokio::time::timeout(Duration::from_millis(wait), notified).await;
                }
                None => notified.await,
            }
        }
    }

    /// Ends game `id` on time if a seat's clock ran out (loading it if needed); otherwise files its
    /// next deadline again. On a storage error, tries again in a few seconds.
    async fn flag_game(self: &Arc<Self>, id: &str) {
        let retry = |e: &Refusal| {
            tracing::error!(game_id = %id, error = %e, "cannot end a game whose clock ran out; retrying");
            self.file_deadline(id, Some(now_ms() + 5_000));
        };
        let room = match self.room(id).await {
            Ok(room) => room,
            Err(e) => return retry(&e),
        };
        let shared = self.clone();
        let flagged = detached(async move {
            let mut inner = room.inner.lock().await;
            if !shared.flag_if_due(&room, &mut inner).await? {
                // Not due after all (a move came first): follow the clock as it is now.
                shared.after_change(&room, &mut inner);
            }
            Ok(())
        })
        .await;
        if let Err(e) = flagged {
            retry(&e);
        }
    }

    /// Ends the game on time if a seat's clock has run out. Returns whether it did.
    async fn flag_if_due(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
    ) -> Result<bool, Refusal> {
        if inner.core.status != Status::Running {
            return Ok(false);
        }
        let out = match &inner.core.clock {
            Some(c) => c.flagged(now_ms()),
            None => return Ok(false),
        };
        if out.is_empty() {
            return Ok(false);
        }
        // Every seat whose time is out loses; all of them at once is a draw.
        let result = inner.core.timeout_result(&out);
        let mut events: Vec<EventData> = out
            .iter()
            .map(|&seat| EventData::Timeout { seat })
            .collect();
        events.push(EventData::End { result });
        self.commit_inner(room, inner, events, None).await?;
        Ok(true)
    }

    fn schedule_ai(self: &Arc<Self>, room: &Arc<Room>, inner: &mut RoomInner) {
        if inner.core.status != Status::Running || inner.core.result.is_some() {
            return;
        }
        for seat in inner.core.state.to_act().seats() {
            let i = seat.index();
            let SeatKind::Ai { level } = inner.core.config.seats[i] else {
                continue;
            };
            if inner.ai_busy[i] {
                continue;
            }
            inner.ai_busy[i] = true;
            let state = inner.core.state.clone_box();
            let seq = inner.core.seq;
            let seed = inner.core.config.seed ^ seq.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let shared = self.clone();
            let room = room.clone();
            // Analyses of finished games wait while this move is queued or thinking.
            let live = shared.analyses.live_move();
            tokio::spawn(async move {
                let bot = shared.bot.clone();
                let permit = shared.ai_pool.clone().acquire_owned().await;
                let choice = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    let _live = live;
                    let choice = bot(state.as_ref(), seat, level, seed);
                    (choice, state)
                })
                .await;
                let mut inner = room.inner.lock().await;
                inner.ai_busy[i] = false;
                let (choice, state) = match choice {
                    Ok(c) => c,
                    Err(e) => {
                        tracing::error!("AI task for game {} failed: {e}", room.id);
                        return;
                    }
                };
                if inner.core.seq != seq {
                    // The game moved on while the AI thought: think again about the new position.
                    shared.schedule_ai(&room, &mut inner);
                    return;
                }
                let action = match choice {
                    Ok(a) => a,
                    Err(e) => {
                        tracing::warn!(
                            "AI of game {} seat {seat} failed ({e}); playing a random legal action",
                            room.id
                        );
                        fallback_action(state.as_ref(), seat, seed).unwrap_or(Value::Null)
                    }
                };
                let actor = Actor::Seat(seat);
                let first = vec![EventData::Action {
                    actor,
                    action: action.clone(),
                }];
                if let Err(e) = shared.commit_inner(&room, &mut inner, first, None).await {
                    tracing::warn!(
                        "AI action of game {} seat {seat} refused ({e}); playing a random legal action",
                        room.id
                    );
                    if let Some(action) = fallback_action(state.as_ref(), seat, seed) {
                        let first = vec![EventData::Action { actor, action }];
                        if let Err(e) = shared.commit_inner(&room, &mut inner, first, None).await {
                            tracing::error!("game {}: AI fallback refused: {e}", room.id);
                        }
                    }
                }
            });
        }
    }

    /// A seat plays an action. The seat's token is checked under the room's lock, in the critical
    /// section that commits the action: a token replaced by a claim a moment earlier can act no more.
    pub async fn act(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        action: ActionInput,
    ) -> Result<u64, Refusal> {
        let (shared, room, token) = (self.clone(), room.clone(), token.to_string());
        detached(async move { shared.act_now(&room, seat, &token, action).await }).await
    }

    async fn act_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        action: ActionInput,
    ) -> Result<u64, Refusal> {
        let mut inner = room.inner.lock().await;
        inner.core.check_seat(seat)?;
        if matches!(inner.core.config.seats[seat as usize], SeatKind::Ai { .. }) {
            return Err(Refusal::BadToken(format!(
                "seat {seat} is played by the AI"
            )));
        }
        inner.core.check_token(seat, token)?;
        if self.flag_if_due(room, &mut inner).await? {
            return Err(Refusal::Action(tabula_core::ActionError::GameOver));
        }
        let action = match action {
            ActionInput::Json(v) => v,
            ActionInput::Notation(text) => inner
                .core
                .state
                .parse_action(&text)
                .map_err(Refusal::Action)?,
        };
        let first = vec![EventData::Action {
            actor: Actor::Seat(Seat(seat)),
            action,
        }];
        self.commit_inner(room, &mut inner, first, None).await
    }

    /// Resignation and draw offers (the token checked under the room's lock, as in [`Shared::act`]).
    pub async fn seat_op(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        op: SeatOp,
    ) -> Result<u64, Refusal> {
        let (shared, room, token) = (self.clone(), room.clone(), token.to_string());
        detached(async move { shared.seat_op_now(&room, seat, &token, op).await }).await
    }

    async fn seat_op_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        op: SeatOp,
    ) -> Result<u64, Refusal> {
        let mut inner = room.inner.lock().await;
        inner.core.check_token(seat, token)?;
        // The budget is the seat holder's: counted only once the token is known to be theirs.
        if op != SeatOp::Resign
            && self
                .seat_events
                .check_key(&(room.id.clone(), seat))
                .is_err()
        {
            return Err(Refusal::RateLimited(format!(
                "seat {seat} sends draw offers and answers too often: at most {} at once, then one \
                 every {} s",
                self.limits.seat_events_burst,
                self.limits.seat_events_period.as_secs_f64()
            )));
        }
        if self.flag_if_due(room, &mut inner).await? {
            return Err(Refusal::Action(tabula_core::ActionError::GameOver));
        }
        let first = match op {
            SeatOp::Resign => {
                let result = inner.core.loss_for(seat, "resigned");
                vec![EventData::Resign { seat }, EventData::End { result }]
            }
            SeatOp::DrawOffer => vec![EventData::DrawOffer { seat }],
            SeatOp::DrawAccept => vec![EventData::DrawAccept { seat }],
            SeatOp::DrawDecline => vec![EventData::DrawDecline { seat }],
        };
        self.commit_inner(room, &mut inner, first, None).await
    }

    /// Joins a seat: with its token, or (public games) claiming an open seat. Returns the token.
    pub async fn join(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: Option<String>,
    ) -> Result<Option<String>, Refusal> {
        self.join_as(room, seat, token, None).await
    }

    /// [`Shared::join`] by a signed-in player (`by`): the seat is bound to the account.
    pub async fn join_as(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: Option<String>,
        by: Option<Account>,
    ) -> Result<Option<String>, Refusal> {
        let (shared, room) = (self.clone(), room.clone());
        detached(async move { shared.join_now(&room, seat, token.as_deref(), by).await }).await
    }

    async fn join_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: Option<&str>,
        by: Option<Account>,
    ) -> Result<Option<String>, Refusal> {
        let mut inner = room.inner.lock().await;
        inner.core.check_seat(seat)?;
        if inner.core.config.rated && !inner.core.joined[seat as usize] {
            crate::ratings::check_rated_join(
                &self.accounts,
                &room.id,
                &inner.core.config,
                by.as_ref(),
            )
            .await?;
        }
        let bind = |token: &str| -> Vec<SeatBinding> {
            by.iter()
                .map(|a| SeatBinding {
                    seat,
                    account_id: a.id.clone(),
                    token: token.to_string(),
                })
                .collect()
        };
        match token {
            Some(t) => {
                inner.core.check_token(seat, t)?;
                if inner.core.joined[seat as usize] {
                    if let Some(a) = &by {
                        self.accounts
                            .claim(&room.id, seat, &a.id, t)
                            .await
                            .map_err(crate::ratings::as_refusal)?;
                    }
                    return Ok(Some(t.to_string()));
                }
                self.commit_bound(
                    room,
                    &mut inner,
                    vec![EventData::Join {
                        seat,
                        token_hash: None,
                    }],
                    None,
                    bind(t),
                )
                .await?;
                Ok(Some(t.to_string()))
            }
            None => {
                if !inner.core.config.public {
                    return Err(Refusal::BadToken(
                        "this game is private: join it with the link you were sent".into(),
                    ));
                }
                if inner.core.config.rematch_of.is_some() {
                    return Err(Refusal::BadToken(
                        "a rematch is joined with the token of the original game".into(),
                    ));
                }
                if inner.core.joined[seat as usize] {
                    return Err(Refusal::Conflict(format!("seat {seat} is not open")));
                }
                if !inner.core.config.seats[seat as usize].is_open() {
                    return Err(Refusal::BadToken(format!(
                        "seat {seat} is kept for a player invited by link: only that link joins it"
                    )));
                }
                let token = new_token();
                let join = EventData::Join {
                    seat,
                    token_hash: Some(hash_token(&token)),
                };
                self.commit_bound(room, &mut inner, vec![join], None, bind(&token))
                    .await?;
                Ok(Some(token))
            }
        }
    }

    /// Asks for a rematch (the token checked under the room's lock, as in [`Shared::act`]). Returns
    /// the new game's id and the requester's new seat.
    pub async fn rematch(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
    ) -> Result<(String, u8), Refusal> {
        let (shared, room, token) = (self.clone(), room.clone(), token.to_string());
        detached(async move { shared.rematch_now(&room, seat, &token).await }).await
    }

    async fn rematch_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
    ) -> Result<(String, u8), Refusal> {
        let mut inner = room.inner.lock().await;
        inner.core.check_token(seat, token)?;
        let n = inner.core.seats();
        let new_seat = ((seat as usize + 1) % n) as u8;
        if let Some(id) = inner.core.rematch.clone() {
            drop(inner);
            // Asking again (the other players) joins the asker's seat of the rematch.
            let new_room = self.room(&id).await?;
            let mut new_inner = new_room.inner.lock().await;
            if new_inner.core.status == Status::Waiting && !new_inner.core.joined[new_seat as usize]
            {
                let join = EventData::Join {
                    seat: new_seat,
                    token_hash: None,
                };
                self.commit_inner(&new_room, &mut new_inner, vec![join], None)
                    .await?;
            }
            return Ok((id, new_seat));
        }
        if inner.core.status != Status::Over {
            return Err(Refusal::Conflict(
                "a rematch can be asked only once the game is over".into(),
            ));
        }
        let cfg = inner.core.config.clone();
        let rotate = |i: usize| (i + 1) % n;
        let mut seats = vec![SeatKind::HUMAN; n];
        let mut hashes = vec![None; n];
        for i in 0..n {
            seats[rotate(i)] = cfg.seats[i].clone();
            hashes[rotate(i)] = inner.core.token_hashes[i].clone();
        }
        let req = CreateGame {
            game: cfg.game.clone(),
            options: Some(cfg.options.clone()),
            seats,
            host_seats: vec![new_seat],
            host_seat: None,
            clock: cfg.clock,
            public: Some(cfg.public),
            seed: None,
            rated: None,
            rating_range: None,
        };
        let (new_room, _) = self
            .create_now(req, Some((room.id.clone(), hashes)), None)
            .await?;
        self.commit_inner(
            room,
            &mut inner,
            vec![EventData::Rematch {
                game: new_room.id.clone(),
            }],
            None,
        )
        .await?;
        Ok((new_room.id.clone(), new_seat))
    }

    /// Files the room's summary in the lobby's index, and its last change in the waiting games'.
    fn index(&self, room: &Room, inner: &RoomInner) {
        let summary = room
            .summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .to_string();
        let created_at = inner.events.first().map_or(0, |e| e.at);
        let key = (Reverse(created_at), room.id.clone());
        let status = inner.core.status;
        {
            let mut lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
            lobby.open.remove(&key);
            lobby.live.remove(&key);
            if inner.core.config.public {
                match status {
                    Status::Waiting => {
                        lobby.open.insert(key, summary);
                    }
                    Status::Running => {
                        lobby.live.insert(key, summary);
                    }
                    Status::Over | Status::Imported => {}
                }
            }
        }
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if status == Status::Waiting {
            let last = inner.events.last().map_or(0, |e| e.at);
            waiting.insert(room.id.clone(), last);
        } else {
            waiting.remove(&room.id);
        }
    }

    /// The lobby: public games with an open seat, and public running games, newest first (at most
    /// 200 of each), read from an index kept up to date at every change (loaded games or not).
    /// The answer is JSON text: `{"open": [...], "live": [...]}`.
    pub fn lobby(&self) -> String {
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        let list = |games: &BTreeMap<(Reverse<i64>, String), String>| {
            let items: Vec<&str> = games
                .values()
                .take(LOBBY_LIMIT)
                .map(String::as_str)
                .collect();
            items.join(",")
        };
        format!(
            r#"{{"open":[{}],"live":[{}]}}"#,
            list(&lobby.open),
            list(&lobby.live)
        )
    }

    /// Forgets the seats whose budget of non-move events has refilled.
    pub fn tidy_budgets(&self) {
        self.seat_events.retain_recent();
        self.seat_events.shrink_to_fit();
    }

    /// Drops from memory the games nobody holds (no socket, AI move or request in flight)
    /// that are over, or have not changed for [`Limits::room_idle`]: they are loaded again from the
    /// log on demand. Returns how many were dropped.
    pub fn evict_idle(&self) -> usize {
        let idle_before = now_ms().saturating_sub(self.limits.room_idle.as_millis() as i64);
        let mut rooms = self.rooms();
        let before = rooms.len();
        rooms.retain(|_, r| !evictable(r, idle_before));
        before - rooms.len()
    }

    /// Drops game `id` from memory if it is evictable (see [`Shared::evict_idle`]).
    fn evict_if_idle(&self, id: &str) {
        let idle_before = now_ms().saturating_sub(self.limits.room_idle.as_millis() as i64);
        let mut rooms = self.rooms();
        if rooms.get(id).is_some_and(|r| evictable(r, idle_before)) {
            rooms.remove(id);
        }
    }

    /// Ends the waiting games whose last event is older than [`Limits::waiting_expiry`] (not every
    /// seat joined in time): each gets an `end` event with no winner. Returns how many expired.
    pub async fn expire_waiting(self: &Arc<Self>) -> usize {
        let Some(before) = now_ms().checked_sub(self.limits.waiting_expiry.as_millis() as i64)
        else {
            return 0;
        };
        let due: Vec<String> = self
            .waiting
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(_, at)| **at <= before)
            .map(|(id, _)| id.clone())
            .collect();
        let mut n = 0;
        for id in due {
            let room = match self.room(&id).await {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!("cannot expire game {id}: {e}");
                    continue;
                }
            };
            let shared = self.clone();
            let days = self.limits.waiting_expiry.as_secs_f64() / 86_400.0;
            let expired = detached(async move {
                let mut inner = room.inner.lock().await;
                let last = inner.events.last().map_or(0, |e| e.at);
                if inner.core.status != Status::Waiting || last > before {
                    return Ok(false);
                }
                let result = tabula_core::Outcome::draw(
                    inner.core.seats(),
                    format!("expired: not every seat joined within {days} days"),
                );
                shared
                    .commit_inner(&room, &mut inner, vec![EventData::End { result }], None)
                    .await?;
                Ok(true)
            })
            .await;
            match expired {
                Ok(true) => n += 1,
                Ok(false) => {}
                Err(e) => tracing::error!("cannot expire game {id}: {e}"),
            }
        }
        n
    }
}

/// Applies events read from game `id`'s log to `core`, in order (each must follow the last seq);
/// returns how each observer sees them. A log that does not apply is an internal error.
fn apply_logged(
    id: &str,
    core: &mut GameCore,
    events: &[Event],
) -> Result<Vec<Described>, Refusal> {
    let corrupt =
        |m: String| Refusal::Internal(format!("game {id}: stored log is inconsistent: {m}"));
    let mut described = Vec::with_capacity(events.len());
    for e in events {
        if e.seq != core.seq + 1 {
            return Err(corrupt(format!("event {} follows {}", e.seq, core.seq)));
        }
        let d = core
            .apply(&e.data, e.at)
            .map_err(|r| corrupt(format!("event {}: {r}", e.seq)))?;
        described.push(d);
    }
    Ok(described)
}

/// Whether a room may leave memory: nobody but the map holds it (no socket, AI task or request; a
/// clock timer does not hold it, the clock sweeper brings it back), and it is over or unchanged since
/// `idle_before`.
fn evictable(room: &Arc<Room>, idle_before: i64) -> bool {
    if Arc::strong_count(room) > 1 {
        return false;
    }
    let status = *room.status.lock().unwrap_or_else(|e| e.into_inner());
    matches!(status, Status::Over | Status::Imported)
        || room.last_change.load(Ordering::SeqCst) <= idle_before
}

/// Each seat's budget of non-move events: `seat_events_burst` at once, then one per
/// `seat_events_period`.
fn seat_events_quota(limits: &Limits) -> governor::Quota {
    let burst = std::num::NonZeroU32::new(limits.seat_events_burst.max(1))
        .unwrap_or(std::num::NonZeroU32::MIN);
    governor::Quota::with_period(limits.seat_events_period.max(Duration::from_millis(1)))
        .unwrap_or_else(|| governor::Quota::per_second(burst))
        .allow_burst(burst)
}

/// What the log says about a game's clocks when the server resumes it: time keeps running while the
/// server is down (a seat whose time ran out meanwhile loses at once), so the operator sees how long
/// the clocks ran without the server, and for whom. `None` for a game without running clocks.
pub fn downtime_note(inner: &RoomInner, now: i64) -> Option<String> {
    let clock = inner.core.clock.as_ref()?;
    if inner.core.status != Status::Running {
        return None;
    }
    let running: Vec<usize> = (0..inner.core.seats())
        .filter(|&i| clock.running(i))
        .collect();
    if running.is_empty() {
        return None;
    }
    let last = inner.events.last().map_or(now, |e| e.at);
    let seats: Vec<String> = running
        .iter()
        .map(|&i| format!("seat {i} ({} ms left)", clock.remaining(i, now).max(0)))
        .collect();
    Some(format!(
        "resumed with its clocks running through the server's downtime: {} ms since its last event \
         (seq {}); running: {}",
        (now - last).max(0),
        inner.core.seq,
        seats.join(", ")
    ))
}

/// Runs a change on a task of its own and waits for its answer: once started, the change is carried
/// to its end (validated, committed, applied to the room, broadcast) even if the caller's future is
/// dropped (see the module documentation).
async fn detached<T, F>(change: F) -> Result<T, Refusal>
where
    F: std::future::Future<Output = Result<T, Refusal>> + Send + 'static,
    T: Send + 'static,
{
    tokio::spawn(change)
        .await
        .map_err(|e| Refusal::Internal(format!("the change failed: {e}")))?
}

/// An action as JSON or as notation.
#[derive(Debug, Clone)]
pub enum ActionInput {
    Json(Value),
    Notation(String),
}

/// A random legal action (when the AI fails), seeded.
fn fallback_action(state: &dyn DynState, seat: Seat, seed: u64) -> Option<Value> {
    use tabula_core::rand::RngExt;
    let legal = state.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let mut rng = tabula_core::rng_from_seed(seed);
    let i = rng.random_range(0..legal.len());
    legal.into_iter().nth(i)
}

impl Room {
    /// A room for a new game (not stored yet): a fresh id, and the `created` event (seq 1) to commit
    /// with the game's first events.
    fn fresh(kind: Arc<dyn DynGame>, core: GameCore) -> (Arc<Room>, Event) {
        let created = Event {
            seq: 1,
            at: now_ms(),
            data: EventData::Created {
                config: Box::new((*core.config).clone()),
            },
        };
        let id = uuid::Uuid::new_v4().to_string();
        let room = Room::new(id, kind, core, vec![created.clone()], vec![None]);
        (Arc::new(room), created)
    }

    fn new(
        id: String,
        kind: Arc<dyn DynGame>,
        core: GameCore,
        events: Vec<Event>,
        described: Vec<Described>,
    ) -> Room {
        // The channel keeps its last `capacity` updates alive (each a few KB per observer); a
        // socket that falls further behind renders what it missed itself (`Lagged`).
        let (tx, _) = broadcast::channel(UPDATE_BACKLOG);
        let seats = core.seats();
        let last_at = events.last().map_or(0, |e| e.at);
        let status = core.status;
        let room = Room {
            id,
            kind,
            inner: Mutex::new(RoomInner {
                core,
                events,
                described,
                ai_busy: vec![false; seats],
                unsure: false,
            }),
            tx,
            summary: StdMutex::new(Value::Null),
            players: StdMutex::new(Vec::new()),
            status: StdMutex::new(status),
            checkpoints: StdMutex::new(Checkpoints::new(REPLAY_STRIDE, MAX_CHECKPOINTS)),
            watchers: (0..=seats).map(|_| AtomicUsize::new(0)).collect(),
            token_revs: (0..seats).map(|_| AtomicU64::new(0)).collect(),
            last_change: AtomicI64::new(last_at),
        };
        if let Ok(inner) = room.inner.try_lock() {
            room.refresh_summary(&inner);
        }
        room
    }

    fn refresh_summary(&self, inner: &RoomInner) {
        let core = &inner.core;
        let created_at = inner.events.first().map_or(0, |e| e.at);
        let mut seats = seats_json(core);
        let players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        for (seat, player) in seats.iter_mut().zip(players.iter()) {
            if let (Some(o), Some(p)) = (seat.as_object_mut(), player) {
                o.insert("player".into(), p.clone());
            }
        }
        drop(players);
        let summary = json!({
            "id": self.id,
            "game": core.config.game,
            "name": self.kind.name(),
            "status": core.status.as_str(),
            "public": core.config.public,
            "created_at": created_at,
            "seats": seats,
            "clock": core.config.clock,
            "moves": core.actions,
            "seed_commitment": &*core.seed_commitment,
            "rated": core.config.rated,
            "rating_range": core.config.rating_range,
        });
        *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = summary;
        *self.status.lock().unwrap_or_else(|e| e.into_inner()) = core.status;
    }

    /// The parts of a snapshot or update shared by every observer (`"type"` to `"result"`), as JSON
    /// object members without the braces, rendered once per change.
    fn common_json(&self, inner: &RoomInner, kind: &str, now: i64) -> Vec<u8> {
        let core = &inner.core;
        let mut out = Vec::with_capacity(1024);
        out.push(b'{');
        put(&mut out, "type", &kind);
        put(&mut out, "id", &self.id);
        put(&mut out, "game", &core.config.game);
        put(&mut out, "name", &self.kind.name());
        put(&mut out, "status", &core.status.as_str());
        put(&mut out, "seq", &core.seq);
        put(&mut out, "now", &now);
        put(&mut out, "seats", &seats_json(core));
        put(&mut out, "options", &core.config.options);
        put(&mut out, "rated", &core.config.rated);
        put(&mut out, "to_act", &core.to_act());
        put(&mut out, "draw_offer", &core.draw);
        put(
            &mut out,
            "clock",
            &core.clock.as_ref().map(|c| c.to_json(now)),
        );
        put(&mut out, "result", &core.result);
        // Provably fair chance: the commitment from the first message on; the seed (a string, exact
        // in every JSON reader) only once the game is over.
        put(&mut out, "seed_commitment", &*core.seed_commitment);
        put(
            &mut out,
            "seed",
            &core.revealed_seed().map(|s| s.to_string()),
        );
        out
    }

    /// One observer's message: the common part, then what is this observer's own (`you`, `view`,
    /// `legal`, the events after `since` as it may see them, …). `view` is the observer's view,
    /// already serialised. Written straight to JSON text (no intermediate `Value` tree).
    #[allow(clippy::too_many_arguments)]
    fn observer_json(
        &self,
        inner: &RoomInner,
        obs: Observer,
        since: u64,
        common: &[u8],
        view: &[u8],
        snapshot: bool,
        request_id: Option<Option<i64>>,
    ) -> String {
        let core = &inner.core;
        let seats = core.seats();
        let oi = observer_index(obs, seats);
        let mut out = Vec::with_capacity(common.len() + view.len() + 512);
        out.extend_from_slice(common);
        match obs {
            Observer::Seat(s) => put(&mut out, "you", &json!({"seat": s.0})),
            Observer::Spectator => put(&mut out, "you", &"spectator"),
        }
        let rematch = match (&core.rematch, obs) {
            (Some(id), Observer::Seat(s)) => json!({"id": id, "seat": (s.index() + 1) % seats}),
            (Some(id), Observer::Spectator) => json!({"id": id}),
            (None, _) => Value::Null,
        };
        put(&mut out, "rematch", &rematch);
        out.extend_from_slice(b"\"view\":");
        out.extend_from_slice(view);
        out.push(b',');
        // Only a seat that owes a decision has legal actions.
        let legal = match obs {
            Observer::Seat(s) if core.status == Status::Running && core.result.is_none() => {
                core.state.legal_actions_listed(s)
            }
            _ => Vec::new(),
        };
        let sampled = match obs {
            Observer::Seat(s) if !legal.is_empty() => core.state.actions_sampled(s),
            _ => false,
        };
        out.extend_from_slice(b"\"legal\":[");
        for (i, listed) in legal.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            // `{"action":…,"notation":…,"cells":[…]}`: what a client clicks to choose it.
            write_json(&mut out, listed);
        }
        out.extend_from_slice(b"],");
        put(&mut out, "legal_sampled", &sampled);
        // Events are numbered from 1 in order: those after `since` are a tail of the log.
        let from = inner.events.partition_point(|e| e.seq <= since);
        out.extend_from_slice(b"\"events\":[");
        for (i, (e, d)) in inner.events[from..]
            .iter()
            .zip(&inner.described[from..])
            .enumerate()
        {
            if i > 0 {
                out.push(b',');
            }
            let seen = d.as_ref().and_then(|d| d.get(oi)).and_then(Option::as_ref);
            write_json(&mut out, &event_json(e, seen));
        }
        out.push(b']');
        if snapshot {
            out.push(b',');
            let text = core.state.render_text(obs);
            out.extend_from_slice(b"\"text\":");
            write_json(&mut out, &text);
        }
        if let Some(id) = request_id {
            out.extend_from_slice(b",\"request_id\":");
            write_json(&mut out, &id);
        }
        out.push(b'}');
        // serde_json writes UTF-8, and every literal above is ASCII.
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The snapshot (`kind` "snapshot", with the terminal drawing `text`) or update message for `obs`
    /// as JSON text, with the events after `since`; `request_id` answers a `sync`.
    pub fn message_text(
        &self,
        inner: &RoomInner,
        obs: Observer,
        since: u64,
        kind: &str,
        now: i64,
        request_id: Option<Option<i64>>,
    ) -> String {
        let common = self.common_json(inner, kind, now);
        let mut view = Vec::with_capacity(1024);
        write_json(&mut view, &inner.core.state.view(obs));
        self.observer_json(
            inner,
            obs,
            since,
            &common,
            &view,
            kind != "update",
            request_id,
        )
    }

    /// Counts a socket watching as `obs` until the returned guard is dropped. Call it before
    /// subscribing to [`Room::tx`] and taking the first snapshot, so that every later update is
    /// rendered for this observer.
    pub fn watch(self: &Arc<Self>, obs: Observer) -> Watching {
        let index = observer_index(obs, self.watchers.len().saturating_sub(1));
        if let Some(w) = self.watchers.get(index) {
            w.fetch_add(1, Ordering::SeqCst);
        }
        Watching {
            room: self.clone(),
            index,
        }
    }

    /// The `update` of one change, for every observer someone watches as: the shared part is
    /// rendered once, and each distinct view is serialised once (seats that see the same as another
    /// observer share its text, as every observer does in a perfect-information game).
    fn render_update(&self, inner: &RoomInner, first: u64) -> Update {
        let now = now_ms();
        let common = self.common_json(inner, "update", now);
        let mut views: Vec<(Value, std::rc::Rc<Vec<u8>>)> = Vec::new();
        let messages = observers(inner.core.seats())
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                let watched = self
                    .watchers
                    .get(i)
                    .is_some_and(|w| w.load(Ordering::SeqCst) > 0);
                if !watched {
                    return None;
                }
                let v = inner.core.state.view(o);
                let text = match views.iter().find(|(seen, _)| *seen == v) {
                    Some((_, t)) => t.clone(),
                    None => {
                        let mut t = Vec::with_capacity(2048);
                        write_json(&mut t, &v);
                        let t = std::rc::Rc::new(t);
                        views.push((v, t.clone()));
                        t
                    }
                };
                let m = self.observer_json(inner, o, first - 1, &common, &text, false, None);
                Some(Utf8Bytes::from(m))
            })
            .collect();
        Update {
            first,
            seq: inner.core.seq,
            messages,
        }
    }

    /// What `obs` saw right after the first `n` actions of the game (chance included): the replay
    /// object of `GET /api/games/{id}/view/{n}`. The position is rebuilt from the log, starting from the
    /// nearest checkpoint (so at most [`REPLAY_STRIDE`] actions are applied, after the first request
    /// has built the checkpoints, or a multiple of it in a game longer than [`MAX_CHECKPOINTS`] times
    /// it), without holding the game's lock while replaying.
    pub async fn view_at(&self, obs: Observer, n: u64) -> Result<Value, Refusal> {
        // Start before the n-th action (its description needs the state before it).
        let (base, base_state) = {
            let cps = self.lock_checkpoints();
            let (base, state) = cps.base_for(n);
            (base, state.map(|s| s.clone_box()))
        };
        let (config, total, actions, end) = {
            let inner = self.inner.lock().await;
            let total = inner.core.actions;
            if n > total {
                return Err(Refusal::NotFound(format!(
                    "position {n} does not exist: game {} has {total} actions so far (n is 0..={total})",
                    self.id
                )));
            }
            let actions: Vec<(u64, Actor, Value)> = inner
                .events
                .iter()
                .filter_map(|e| match &e.data {
                    EventData::Action { actor, action } => Some((e.seq, *actor, action.clone())),
                    _ => None,
                })
                .skip(base as usize)
                .take((n - base) as usize)
                .collect();
            // At the last position the server's own knowledge (a result by resignation, time or
            // agreement) overrides the game's.
            let end = (n == total).then(|| (inner.core.to_act(), inner.core.result.clone()));
            (inner.core.config.clone(), total, actions, end)
        };
        let corrupt = |m: String| {
            Refusal::Internal(format!(
                "game {}: stored log cannot be replayed: {m}",
                self.id
            ))
        };
        let mut state = match base_state {
            None => self
                .kind
                .new_state(&config.options)
                .map_err(|e| corrupt(e.to_string()))?,
            Some(s) => s,
        };
        let mut last = Value::Null;
        for (done, (seq, actor, action)) in (base..).zip(&actions) {
            {
                let mut cps = self.lock_checkpoints();
                if cps.wants(done) {
                    cps.offer(done, || state.clone_box());
                }
            }
            if done + 1 == n {
                let seen = Seen::of(state.as_ref(), *actor, action, obs);
                last = json!({
                    "seq": seq,
                    "actor": actor,
                    "notation": seen.as_ref().map(|s| &s.notation),
                    "cells": seen.as_ref().map_or(&[][..], |s| &s.cells),
                });
            }
            state
                .apply(*actor, action)
                .map_err(|e| corrupt(format!("event {seq}: {e}")))?;
        }
        let (to_act, result) = match end {
            Some((to_act, result)) => (to_act, result),
            None => (state.to_act(), None),
        };
        let you = match obs {
            Observer::Seat(s) => json!({"seat": s.0}),
            Observer::Spectator => json!("spectator"),
        };
        Ok(json!({
            "id": self.id,
            "game": config.game,
            "n": n,
            "total": total,
            "you": you,
            "view": state.view(obs),
            "to_act": to_act,
            "last": last,
            "result": result,
        }))
    }

    /// The replay checkpoints this game keeps in memory.
    pub fn checkpoint_count(&self) -> usize {
        self.lock_checkpoints().len()
    }

    fn lock_checkpoints(&self) -> std::sync::MutexGuard<'_, Checkpoints<Box<dyn DynState>>> {
        self.checkpoints.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many times `seat`'s token has been replaced since the room was loaded: read it under the
    /// room's lock together with the token check, and compare later (see [`Room::token_revoked`]).
    pub fn token_rev(&self, seat: Seat) -> u64 {
        self.token_revs
            .get(seat.index())
            .map_or(0, |r| r.load(Ordering::SeqCst))
    }

    /// Whether a socket that authenticated as `obs` when the seat's token count was `rev` holds a
    /// token that has been replaced since (spectators are never revoked).
    pub fn token_revoked(&self, obs: Observer, rev: u64) -> bool {
        match obs {
            Observer::Seat(s) => self.token_rev(s) != rev,
            Observer::Spectator => false,
        }
    }

    /// The observer index of `obs` in [`Update::messages`].
    pub fn observer_index(&self, obs: Observer, seats: usize) -> usize {
        observer_index(obs, seats)
    }
}

/// Appends `v` as JSON (`null` if it cannot be serialised, which the types used here never cause).
fn write_json<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    let mark = out.len();
    if serde_json::to_writer(&mut *out, v).is_err() {
        out.truncate(mark);
        out.extend_from_slice(b"null");
    }
}

/// Appends `"key":value,` (the key is a plain ASCII name).
fn put<T: Serialize + ?Sized>(out: &mut Vec<u8>, key: &str, v: &T) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
    write_json(out, v);
    out.push(b',');
}

fn seats_json(core: &GameCore) -> Vec<Value> {
    core.config
        .seats
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let mut v = json!({
                "seat": i,
                "name": core.state.seat_name(Seat::new(i)),
                "joined": core.joined[i],
            });
            if let (Some(o), Ok(Value::Object(k))) = (v.as_object_mut(), serde_json::to_value(k)) {
                o.extend(k);
            }
            v
        })
        .collect()
}

fn event_json(e: &Event, seen: Option<&Seen>) -> Value {
    let mut v = json!({"seq": e.seq, "at": e.at, "kind": e.data.kind()});
    let Some(o) = v.as_object_mut() else {
        return v;
    };
    match &e.data {
        EventData::Created { .. } | EventData::Start => {}
        EventData::Join { seat, .. }
        | EventData::DrawOffer { seat }
        | EventData::DrawAccept { seat }
        | EventData::DrawDecline { seat }
        | EventData::Resign { seat }
        | EventData::Timeout { seat } => {
            o.insert("seat".into(), json!(seat));
        }
        EventData::Action { actor, .. } => {
            o.insert("actor".into(), json!(actor));
            o.insert("notation".into(), json!(seen.map(|s| &s.notation)));
            o.insert("cells".into(), json!(seen.map_or(&[][..], |s| &s.cells)));
        }
        EventData::End { result } => {
            o.insert("result".into(), json!(result));
        }
        EventData::Rematch { game } => {
            o.insert("game".into(), json!(game));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::Checkpoints;

    /// A game of any length keeps at most `max` checkpoints, and each stays the state after
    /// `index * stride` actions (here the state is the number of actions itself).
    #[test]
    fn replay_checkpoints_are_bounded_whatever_the_game_length() {
        let mut cps = Checkpoints::new(4, 8);
        for done in 0..10_000u64 {
            cps.offer(done, || done);
            assert!(
                cps.len() <= 8,
                "{} checkpoints after {done} actions",
                cps.len()
            );
        }
        assert!(cps.stride() > 4);
        for n in [0, 1, 5, 4_000, 9_999, 20_000] {
            let (base, state) = cps.base_for(n);
            assert!(base < n.max(1), "position {n}: base {base}");
            assert_eq!(state.copied().unwrap_or(0), base, "position {n}");
        }
        // The last checkpoint is close to the end: at most two strides behind the log.
        let (base, _) = cps.base_for(10_000);
        assert!(10_000 - base <= 2 * cps.stride(), "{base}");
    }
}
