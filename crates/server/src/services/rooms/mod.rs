//! Live games ("rooms"): a game in memory is its event log replayed, kept behind one lock, changed
//! only by committing new events to the log first.
//!
//! Every change follows one path (`commit`): the new events are applied to a scratch copy of the
//! game (which checks them: a refused request changes nothing), the automatic follow-ups are added
//! (start, chance, end of game, AI draw declines and takeback acceptances, takebacks), the batch is committed to the database, and only then
//! is it applied to the room and broadcast. A room's lock is held across the commit, so each game's
//! events are strictly ordered.
//!
//! Every change runs on a task of its own that nobody cancels (the public entry points hand it to
//! `detached`; AI moves and the clock sweeper's flags are spawned tasks already). The commit and the update of the
//! room must not be separated: axum drops an HTTP handler's future when its client disconnects, and a
//! change abandoned between the database and the room would leave the log one event ahead of the game
//! in memory (the next change would reuse the seq and fail forever).
//!
//! The modules, one concern each:
//! * this one: the [`Room`] (its lock, broadcast channel, watchers and token counts) and [`Rooms`]
//!   (the server's state: the rooms in memory, storage, limits, indexes), and `detached`;
//! * `load`: bringing a game into memory from its log (and resuming every unfinished game at
//!   startup), and letting idle rooms leave memory again;
//! * `commit`: the one path of every change, the catch-up of a room unsure of its log, and what
//!   follows each change (lobby index, clock deadline, AI seats);
//! * `create` and `seats`: the requests that change a game (create, import; act, resign, draws,
//!   takebacks, join, rematch), each authorised under the game's lock;
//! * `ai`: AI seats, thought on the blocking pool and committed like a seat's action;
//! * `clock`: the clock sweeper, which ends games on time whether they are in memory or not;
//! * `lobby`: the index of public unfinished games and the expiry of waiting games;
//! * `render`: snapshot and update messages, written straight to JSON text;
//! * `replay`: past positions rebuilt from the log, from bounded checkpoints.

pub mod ai;
mod clock;
mod commit;
mod create;
mod follow;
pub use follow::Peers;
mod load;
mod lobby;
pub mod rated;
mod render;
mod replay;
mod seats;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use tabula_core::dynamic::{DynGame, DynState};
use tabula_core::{Observer, Seat};
use tokio::sync::{Mutex, Semaphore, broadcast};

use crate::base::error::Refusal;
use crate::base::time::Clock;
use crate::domain::model::{self, Event, EventData, GameCore, Status};
use crate::services::limits::Limits;
use crate::storage::db::{Db, Faults, Writer};

use ai::{BotFn, LiveMoves};

pub use clock::downtime_note;
pub use create::draw_seed;
pub use follow::{Forwarded, NOT_OWNER};
pub use render::Update;
pub use replay::{Checkpoints, MAX_CHECKPOINTS, REPLAY_STRIDE};
pub use seats::{ActionInput, SeatOp};

use clock::Deadlines;
use lobby::LobbyIndex;

/// How each observer (seats in order, then the spectator) sees one event (`None` for events that are
/// not actions): its notation and cells, `None` for an observer the action is hidden from.
pub type Described = Option<model::Described>;

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
    summary: StdMutex<String>,
    /// Per seat, the account holding it with its rating (and this game's change of it), shown in the
    /// lobby's summary and each seat's `player` in the game's messages; set when the room is loaded,
    /// when a commit binds seats or ends the game, and by [`Rooms::refresh_players`].
    players: StdMutex<Vec<Option<crate::storage::accounts::SeatPlayer>>>,
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

/// The server's shared state.
pub struct Rooms {
    pub registry: tabula_core::dynamic::Registry,
    pub bot: BotFn,
    pub writer: Writer,
    pub db: Db,
    pub limits: Limits,
    /// How changes reach the node that owns a game (on a cluster).
    peers: Arc<dyn Peers>,
    rooms: StdMutex<HashMap<String, Arc<Room>>>,
    /// One lock per game being loaded from the log (see [`Rooms::room`]).
    loading: StdMutex<HashMap<String, Arc<Mutex<()>>>>,
    pub(crate) ai_pool: Arc<Semaphore>,
    /// Live AI moves in progress: analyses (a service above) wait while they occupy every worker.
    pub live_moves: Arc<LiveMoves>,
    /// Each seat's budget of non-move events (draw offers, acceptances, declines), by game and seat.
    seat_events: governor::DefaultKeyedRateLimiter<(String, u8)>,
    /// The lobby's index: the summary of every public waiting or running game, loaded or not.
    lobby: StdMutex<LobbyIndex>,
    /// Every waiting game (loaded or not) and the time of its last event, for expiry.
    waiting: StdMutex<HashMap<String, i64>>,
    /// Storage faults injected by tests.
    pub faults: Arc<Faults>,
    /// When each running game's clock next runs out, loaded or not: the clock sweeper
    /// ([`Rooms::run_clocks`]) loads a game that left memory when its time is up.
    deadlines: StdMutex<Deadlines>,
    /// Wakes the clock sweeper when a deadline is filed.
    deadline_filed: tokio::sync::Notify,
    /// The games' time: events, players' clocks, deadlines, expiry, idleness.
    pub clock: Arc<dyn Clock>,
}

fn observer_index(obs: Observer, seats: usize) -> usize {
    match obs {
        Observer::Seat(s) => s.index(),
        Observer::Spectator => seats,
    }
}

impl Rooms {
    pub fn new(
        registry: tabula_core::dynamic::Registry,
        bot: BotFn,
        db: Db,
        limits: Limits,
        peers: Arc<dyn Peers>,
        clock: Arc<dyn Clock>,
    ) -> Rooms {
        let workers = limits.ai_workers.max(1);
        let faults = Arc::new(Faults::default());
        Rooms {
            registry,
            bot,
            writer: Writer::start(db.clone(), faults.clone()),
            faults,
            deadlines: StdMutex::new(Deadlines::default()),
            deadline_filed: tokio::sync::Notify::new(),
            db,
            peers,
            rooms: StdMutex::new(HashMap::new()),
            loading: StdMutex::new(HashMap::new()),
            ai_pool: Arc::new(Semaphore::new(workers)),
            live_moves: Arc::new(LiveMoves::new(workers)),
            seat_events: governor::RateLimiter::keyed(seat_events_quota(&limits)),
            lobby: StdMutex::new(LobbyIndex::default()),
            waiting: StdMutex::new(HashMap::new()),
            limits,
            clock,
        }
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Room>>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The locks of the games being loaded from the log, by id.
    fn loading(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<()>>>> {
        self.loading.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The number of games in memory.
    pub fn loaded_games(&self) -> usize {
        self.rooms().len()
    }

    /// The room of game `id` if it is in memory (games played or watched lately are).
    pub fn loaded_room(&self, id: &str) -> Option<Arc<Room>> {
        self.rooms().get(id).cloned()
    }

    /// Forgets the seats whose budget of non-move events has refilled.
    pub fn tidy_budgets(&self) {
        self.seat_events.retain_recent();
        self.seat_events.shrink_to_fit();
    }
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

/// Runs a change to its end even when whoever asked for it goes away (axum drops a handler's future
/// when its client disconnects): the change is a task of its own, and the caller only waits for its
/// answer. `subject` (a game's id, or what is being made) names the change in the debug line logged
/// when the caller went away before the answer.
async fn detached<T, F>(subject: &str, change: F) -> Result<T, Refusal>
where
    F: std::future::Future<Output = Result<T, Refusal>> + Send + 'static,
    T: Send + 'static,
{
    /// Logs, when dropped before the answer, that the requester went away.
    struct Waiting<'a> {
        subject: &'a str,
        answered: bool,
    }
    impl Drop for Waiting<'_> {
        fn drop(&mut self) {
            if !self.answered {
                tracing::debug!(
                    subject = self.subject,
                    "the requester went away before its change was decided; the change goes on"
                );
            }
        }
    }
    let mut waiting = Waiting {
        subject,
        answered: false,
    };
    let answer = tokio::spawn(change).await;
    waiting.answered = true;
    answer.map_err(|e| Refusal::Internal(format!("the change failed: {e}")))?
}

impl Room {
    /// A room for a new game (not stored yet): a fresh id, and the `created` event (seq 1) to commit
    /// with the game's first events.
    fn fresh(kind: Arc<dyn DynGame>, core: GameCore, now: i64) -> (Arc<Room>, Event) {
        let created = Event {
            seq: 1,
            at: now,
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
            summary: StdMutex::new(String::from("null")),
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

    /// Counts a socket watching as `obs` until the returned guard is dropped. Call it before
    /// subscribing to [`Room::tx`] and taking the first snapshot, so that every later update is
    /// rendered for this observer.
    pub fn watch(self: &Arc<Self>, obs: Observer) -> Watching {
        let index = self.observer_index(obs);
        if let Some(w) = self.watchers.get(index) {
            w.fetch_add(1, Ordering::SeqCst);
        }
        Watching {
            room: self.clone(),
            index,
        }
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

    /// The observer index of `obs` in [`Update::messages`] (seats in order, then the spectator).
    pub fn observer_index(&self, obs: Observer) -> usize {
        // One watcher count per observer: the seats, then the spectator.
        observer_index(obs, self.watchers.len().saturating_sub(1))
    }
}
