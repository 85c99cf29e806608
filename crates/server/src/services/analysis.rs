//! The engine's analysis of finished games, and hints in games against the AI.
//!
//! The server knows no AI: the binary gives it an [`Analyst`] (the AI crate's analysis and hint,
//! `tabula_ai::analysis`), as it gives it the AI seats' `BotFn`. Without one, these endpoints answer
//! `503 unavailable`.
//!
//! * `POST /api/games/{id}/analysis` (a finished or imported game) starts the analysis, or answers
//!   with the stored one: an analysis is computed once and kept in the `analyses` table (migration
//!   `0003_analyses.sql`), so every later request, and every server after a restart, reads it.
//! * `GET /api/games/{id}/analysis`: the stored analysis (`status: "done"`), the progress of a running
//!   one (`status: "running"`, `done`, `total`), or `status: "none"` when none was asked for.
//! * Progress goes to every socket watching the game as `{"type": "analysis", "status": "running",
//!   "done": k, "total": n}` messages and a last one with `"status": "done"` (or `"failed"` and an
//!   `error`).
//! * `POST /api/games/{id}/hint` `{seat, token}`: the engine's preferred action for that seat's
//!   current decision, searched from that seat's view only. Only for a human seat of a running casual
//!   game with an AI seat; refused otherwise (a game between people, a spectator, a wrong token, a
//!   seat that owes no decision).
//! * `POST /api/lessons/{game}/{n}/hint` with the lesson's body (`{"actions": […]}`): the same for the
//!   lesson's player in the position those actions lead to.
//!
//! **Priority.** Analyses run one at a time, in the order they were asked for (a ticket each; the
//! answer says how many run before it), each on a thread of its own at the lowest scheduling
//! priority (Linux's `SCHED_IDLE`: it gets a core only when nothing else wants one), and yield to live
//! games: before each decision the analysis waits while live AI moves occupy every AI worker, so an
//! analysis never holds one of the AI seats' workers, and is not starved by a live game either. The
//! queue is bounded ([`MAX_QUEUED_ANALYSES`] waiting, [`MAX_ANALYSES_PER_CLIENT`] per client):
//! beyond, "busy" (`429`). Hints take a worker of the AI pool, but never wait for one: live AI seats
//! come first. A hint needs a worker free now, one of the hints' share of the workers
//! (`hint_share`), and its client may have [`MAX_HINTS_PER_CLIENT`] at once; otherwise it is
//! refused at once, "busy, try again" (`429`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use crate::base::text::SharedText;

use crate::wire::api::AnalysisAnswer;
use serde_json::Value;
use tabula_core::Seat;
use tabula_core::dynamic::DynState;
use tabula_core::record::JsonRecord;
use tokio::sync::{Semaphore, broadcast};

use crate::base::error::Refusal;
use crate::base::time::now_ms;
use crate::domain::model::Status;
use crate::services::rooms::Rooms;
use crate::wire::api::PlayReq;
use crate::wire::game::{AnalysisStatus, SocketMsg};

/// The engine behind analyses and hints (the binary passes the AI crate's).
pub trait Analyst: Send + Sync {
    /// Analyses a finished game's record; `progress(done, total)` is called after each decision (and
    /// may block: the server waits there for live games). The result is stored and served as it is.
    fn analyse(
        &self,
        record: &JsonRecord,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Value, String>;
    /// The preferred action of `seat` in `state`, from the seat's information only, as
    /// `{"seat", "action", "notation", "estimate"}`.
    fn hint(&self, state: &dyn DynState, seat: Seat, seed: u64) -> Result<Value, String>;
}

/// Analyses queued (not yet running) in all, beyond which a new one is refused ("busy").
pub const MAX_QUEUED_ANALYSES: usize = 32;
/// Analyses one client may have queued or running at once.
pub const MAX_ANALYSES_PER_CLIENT: usize = 2;
/// Hints one client may have searched at once.
pub const MAX_HINTS_PER_CLIENT: usize = 1;

/// A running analysis's progress.
#[derive(Debug, Clone, Copy)]
struct Progress {
    done: usize,
    total: usize,
    /// Waiting for live games' AI moves (or for another analysis) before its next decision.
    waiting: bool,
    /// Its place in the queue: analyses run in the order of their tickets.
    ticket: u64,
    /// Who asked for it (per-client bound of the queue).
    client: IpAddr,
    /// When its turn came (its thread started): its pace is measured from there.
    started: Option<Instant>,
}

/// About how long until the analysis with `ticket` is done: the decisions left of every analysis
/// queued up to it (itself included), at `per_decision`. `None` without a pace to go by.
fn estimate<'a>(
    queue: impl IntoIterator<Item = &'a Progress>,
    ticket: u64,
    per_decision: Option<Duration>,
) -> Option<Duration> {
    let per = per_decision?;
    let left: usize = queue
        .into_iter()
        .filter(|p| p.ticket <= ticket)
        .map(|p| p.total.saturating_sub(p.done))
        .sum();
    Some(per.saturating_mul(u32::try_from(left).unwrap_or(u32::MAX)))
}

impl Progress {
    /// The answer to a request for it; `turn` is the ticket that runs now, `eta` the estimate of
    /// when it is done.
    fn answer(self, turn: u64, eta: Option<Duration>) -> AnalysisAnswer {
        AnalysisAnswer::Running {
            done: self.done,
            total: self.total,
            waiting: self.waiting,
            ahead: Some(usize::try_from(self.ticket.saturating_sub(turn)).unwrap_or(usize::MAX)),
            // Whole seconds, rounded up: "about 0 s" is never said of work still to do.
            estimate_s: eta.map(|d| d.as_millis().div_ceil(1000) as u64),
        }
    }

    /// Its pace so far: the time per decision since its turn came, once it has analysed one.
    fn pace(&self) -> Option<Duration> {
        let started = self.started?;
        let done = u32::try_from(self.done).ok().filter(|&d| d > 0)?;
        Some(started.elapsed() / done)
    }
    fn message(self) -> SocketMsg {
        SocketMsg::Analysis {
            status: AnalysisStatus::Running,
            done: Some(self.done),
            total: Some(self.total),
            waiting: Some(self.waiting),
            error: None,
        }
    }
}

/// The server's analyses: the engine, the running jobs and their progress channels.
pub struct Analyses {
    /// The live games: analyses and hints read their records and positions, and yield to their AI
    /// moves.
    rooms: Arc<Rooms>,
    analyst: Option<Arc<dyn Analyst>>,
    /// One analysis at a time, in the order of their tickets: the ticket that runs now (or next).
    turn: tokio::sync::watch::Sender<u64>,
    /// The next analysis's ticket.
    next_ticket: std::sync::atomic::AtomicU64,
    /// Hints searched at once (a bounded share of the AI workers: live AI seats come first).
    hints: Arc<Semaphore>,
    /// Hints being searched per client.
    hint_clients: Arc<StdMutex<HashMap<IpAddr, usize>>>,
    /// Running (or queued) analyses.
    running: StdMutex<HashMap<String, Progress>>,
    /// The time per decision of the last analysis that finished (the queue's estimates go by it
    /// until the running one has a pace of its own).
    last_pace: StdMutex<Option<Duration>>,
    /// Why the last analysis of a game failed, until it is asked for again (this node's runs only:
    /// like the progress, it is not stored).
    failed: StdMutex<HashMap<String, String>>,
    /// Per game, the progress messages for its sockets (created when a socket subscribes).
    channels: StdMutex<HashMap<String, broadcast::Sender<SharedText>>>,
}

impl Analyses {
    /// The analyses and hints of the games in `rooms` (as many hints at once as a share of its AI
    /// workers).
    pub fn new(rooms: Arc<Rooms>, analyst: Option<Arc<dyn Analyst>>) -> Analyses {
        let workers = rooms.limits.ai_workers.max(1);
        Analyses {
            rooms,
            analyst,
            turn: tokio::sync::watch::Sender::new(0),
            next_ticket: std::sync::atomic::AtomicU64::new(0),
            hints: Arc::new(Semaphore::new(hint_share(workers))),
            hint_clients: Arc::default(),
            running: StdMutex::new(HashMap::new()),
            last_pace: StdMutex::new(None),
            failed: StdMutex::new(HashMap::new()),
            channels: StdMutex::new(HashMap::new()),
        }
    }

    /// Why the last analysis of game `id` failed, if it did (and was not asked for since).
    fn failure(&self, id: &str) -> Option<String> {
        let failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        failed.get(id).cloned()
    }

    /// Records (`Some`) or forgets (`None`) the failure of game `id`'s last analysis.
    fn set_failure(&self, id: &str, error: Option<String>) {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        match error {
            Some(e) => {
                // A bound on what failures can hold: they are only a courtesy to the asker.
                if failed.len() >= 1024 {
                    failed.clear();
                }
                failed.insert(id.to_string(), e);
            }
            None => {
                failed.remove(id);
            }
        }
    }

    /// Forgets the channels of games nobody watches (the server's minute sweep).
    pub fn tidy(&self) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels.shrink_to_fit();
    }

    /// The analysis messages of game `id`, for a socket watching it.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<SharedText> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if channels.len() > 1024 {
            channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        channels
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }

    fn publish(&self, id: &str, message: &SocketMsg) {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = channels.get(id) {
            let _ = tx.send(SharedText::from(message.to_text()));
        }
    }

    /// The answer for a running or queued analysis: its progress, its place and the estimate of
    /// when it is done (the pace of the one running now, else of the last one that finished).
    fn running_answer(&self, progress: Progress, turn: u64) -> AnalysisAnswer {
        let last = *self.last_pace.lock().unwrap_or_else(|e| e.into_inner());
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let now = running.values().find_map(|p| p.pace()).or(last);
        progress.answer(turn, estimate(running.values(), progress.ticket, now))
    }

    fn progress(&self, id: &str) -> Option<Progress> {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.get(id).copied()
    }

    fn set_progress(&self, id: &str, progress: Progress) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.insert(id.to_string(), progress);
    }

    /// Blocks this (blocking) thread while live AI moves occupy every AI worker; the analysis
    /// shows `waiting` meanwhile. (It runs at the lowest priority anyway: it never takes a core
    /// from them; waiting only when they are all busy keeps it from starving beside a live game.)
    fn yield_to_live_games(&self, handle: &tokio::runtime::Handle, id: &str, mut at: Progress) {
        if !self.rooms.live_moves.saturated() {
            return;
        }
        at.waiting = true;
        self.set_progress(id, at);
        handle.block_on(self.rooms.live_moves.quiet());
        at.waiting = false;
        self.set_progress(id, at);
    }

    /// Counts a hint of `client` in progress until the guard is dropped; refused when the client
    /// has [`MAX_HINTS_PER_CLIENT`] already.
    fn hint_of(&self, client: IpAddr) -> Result<HintGuard, Refusal> {
        let mut clients = self.hint_clients.lock().unwrap_or_else(|e| e.into_inner());
        let n = clients.entry(client).or_insert(0);
        if *n >= MAX_HINTS_PER_CLIENT {
            return Err(Refusal::RateLimited(
                "busy: your previous hint is still being searched; ask again once it is answered"
                    .into(),
            ));
        }
        *n += 1;
        Ok(HintGuard {
            clients: self.hint_clients.clone(),
            client,
        })
    }

    fn analyst(&self) -> Result<Arc<dyn Analyst>, Refusal> {
        self.analyst.clone().ok_or_else(|| {
            Refusal::Unavailable("this server has no engine for analyses and hints".into())
        })
    }
}

/// Hints searched at once with `workers` AI workers: a quarter of them (at least one, and never all
/// of several), so that live AI seats always find a worker.
fn hint_share(workers: usize) -> usize {
    (workers / 4).clamp(1, workers.saturating_sub(1).max(1))
}

/// A hint in progress for a client.
struct HintGuard {
    clients: Arc<StdMutex<HashMap<IpAddr, usize>>>,
    client: IpAddr,
}

impl Drop for HintGuard {
    fn drop(&mut self) {
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = clients.get_mut(&self.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                clients.remove(&self.client);
            }
        }
    }
}

/// The refusal of a hint while the engine is busy with live games and other hints.
fn busy() -> Refusal {
    Refusal::RateLimited(
        "busy: the engine is busy with live games and other hints; try the hint again in a few \
         seconds"
            .into(),
    )
}

impl Analyses {
    /// The analysis of game `id`: stored (`done`), running (its progress), `failed` (why) or `none`.
    pub async fn answer(&self, id: &str) -> Result<AnalysisAnswer, Refusal> {
        let _room = self.rooms.room(id).await?;
        if let Some(progress) = self.progress(id) {
            let turn = *self.turn.borrow();
            return Ok(self.running_answer(progress, turn));
        }
        match self
            .rooms
            .db
            .load_analysis(id)
            .await
            .map_err(Refusal::Unavailable)?
        {
            Some(stored) => done(&stored),
            None => Ok(match self.failure(id) {
                Some(error) => AnalysisAnswer::Failed { error },
                // Not an error: a client showing a finished game asks whether it was analysed.
                None => AnalysisAnswer::None,
            }),
        }
    }

    /// Starts the analysis of the finished game `id` for `client`, unless it is stored (`done`) or
    /// running already; the answer is `done` or `running` (its progress).
    pub async fn start(
        self: &Arc<Self>,
        id: &str,
        client: IpAddr,
    ) -> Result<AnalysisAnswer, Refusal> {
        let room = self.rooms.room(id).await?;
        let record = {
            let inner = room.inner.lock().await;
            if !matches!(inner.core.status, Status::Over | Status::Imported) {
                return Err(Refusal::Conflict(
                    "a game is analysed once it is over (the analysis reads its whole record)"
                        .into(),
                ));
            }
            inner.core.record()
        };
        let analyst = self.analyst()?;
        if let Some(stored) = self
            .rooms
            .db
            .load_analysis(id)
            .await
            .map_err(Refusal::Unavailable)?
        {
            return done(&stored);
        }
        let total = record
            .actions
            .iter()
            .filter(|a| matches!(a.actor, tabula_core::Actor::Seat(_)))
            .count();
        let turn = *self.turn.borrow();
        let job = {
            let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(&progress) = running.get(id) {
                drop(running);
                return Ok(self.running_answer(progress, turn));
            }
            // The queue is bounded, in all and per client: beyond, "busy, try again".
            let queued = running.values().filter(|p| p.ticket > turn).count();
            if queued >= MAX_QUEUED_ANALYSES {
                return Err(Refusal::RateLimited(format!(
                    "busy: {queued} analyses are waiting already; ask again in a minute"
                )));
            }
            if running.values().filter(|p| p.client == client).count() >= MAX_ANALYSES_PER_CLIENT {
                return Err(Refusal::RateLimited(format!(
                    "busy: you have {MAX_ANALYSES_PER_CLIENT} analyses waiting or running already; ask \
                     again once one is done"
                )));
            }
            let job = Progress {
                done: 0,
                total,
                waiting: true,
                ticket: self.next_ticket.fetch_add(1, Ordering::SeqCst),
                client,
                started: None,
            };
            running.insert(id.to_string(), job);
            job
        };
        // Asked again after a failure: a new attempt.
        self.set_failure(id, None);
        tokio::spawn(run(self.clone(), analyst, id.to_string(), record, job));
        Ok(self.running_answer(job, turn))
    }

    /// The engine's hint for the player of lesson `n` of `game` after the actions of `req`
    /// (`409` once the lesson is over).
    pub async fn lesson_hint(
        &self,
        client: IpAddr,
        game: &str,
        n: &str,
        req: PlayReq,
    ) -> Result<Value, Refusal> {
        let analyst = self.analyst()?;
        let position =
            crate::services::lessons::lesson_position(&self.rooms.registry, game, n, req).await?;
        let Some((state, seat)) = position else {
            return Err(Refusal::Conflict("the lesson is over: no hint".into()));
        };
        if !state.to_act().includes(seat) {
            return Err(Refusal::Conflict(
                "the lesson's player owes no decision now".into(),
            ));
        }
        self.ask(client, analyst, state, seat, 1).await
    }

    /// The engine's hint for `seat` (with its `token`) of the running game `id`, from that seat's
    /// view only. The search's seed is the game's position.
    pub async fn game_hint(
        &self,
        client: IpAddr,
        id: &str,
        seat: u8,
        token: &str,
    ) -> Result<Value, Refusal> {
        let room = self.rooms.room(id).await?;
        let (state, seed) = {
            let inner = room.inner.lock().await;
            inner.core.check_token(seat, token)?;
            inner.core.hint_check(seat)?;
            let config = &inner.core.config;
            let seed =
                config.seed ^ inner.core.seq.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x4849_4e54;
            (inner.core.state.clone_box(), seed)
        };
        let analyst = self.analyst()?;
        self.ask(client, analyst, state, Seat(seat), seed).await
    }

    /// Runs a hint's search on the AI pool.
    /// Live AI seats come first: a hint never waits for a worker. It needs one of the hints' share
    /// ([`hint_share`]) and a worker free now (no AI seat waiting for one), and a client has at most
    /// [`MAX_HINTS_PER_CLIENT`] at once; otherwise it is refused at once (`429`, "busy, try again").
    async fn ask(
        &self,
        client: IpAddr,
        analyst: Arc<dyn Analyst>,
        state: Box<dyn DynState>,
        seat: Seat,
        seed: u64,
    ) -> Result<Value, Refusal> {
        let guard = self.hint_of(client)?;
        let share = self.hints.clone().try_acquire_owned().map_err(|_| busy())?;
        let worker = self
            .rooms
            .ai_pool
            .clone()
            .try_acquire_owned()
            .map_err(|_| busy())?;
        tokio::task::spawn_blocking(move || {
            let _held = (guard, share, worker);
            analyst.hint(state.as_ref(), seat, seed)
        })
        .await
        .map_err(|e| Refusal::Internal(e.to_string()))?
        .map_err(Refusal::Internal)
    }
}

/// The stored analysis as an answer `{"status": "done", "analysis": …}`.
fn done(stored: &str) -> Result<AnalysisAnswer, Refusal> {
    let analysis: Value = serde_json::from_str(stored)
        .map_err(|e| Refusal::Internal(format!("the stored analysis is unreadable: {e}")))?;
    Ok(AnalysisAnswer::Done { analysis })
}

/// Passes the analyses' turn to the next ticket when dropped (its analysis ended, however).
struct TurnPass(Arc<Analyses>);

impl Drop for TurnPass {
    fn drop(&mut self) {
        self.0.turn.send_modify(|turn| *turn += 1);
    }
}

/// Progress messages are sent at most this often (plus the last one).
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Lowers the calling thread to the scheduling class that runs only when no other thread wants the CPU
/// (Linux's `SCHED_IDLE`; elsewhere the lowest priority), so an analysis never takes a core from a live
/// game's requests, its AI moves or its database work. Unprivileged; a refusal is only logged.
fn run_at_lowest_priority() {
    #[cfg(target_os = "linux")]
    let lowered = {
        use thread_priority::unix::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        set_thread_priority_and_policy(
            thread_native_id(),
            thread_priority::ThreadPriority::Min,
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle),
        )
    };
    #[cfg(not(target_os = "linux"))]
    let lowered =
        thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min);
    if let Err(e) = lowered {
        tracing::warn!("the analysis thread runs at normal priority: {e:?}");
    }
}

/// Runs one analysis to its end: waits for its turn, analyses on a thread of its own (yielding to live
/// AI moves before each decision), stores the result and tells the game's sockets.
async fn run(
    analyses: Arc<Analyses>,
    analyst: Arc<dyn Analyst>,
    id: String,
    record: JsonRecord,
    job: Progress,
) {
    // Its turn comes when every earlier ticket is done (each run passes the turn on when it ends,
    // whatever its outcome).
    let _ = analyses
        .turn
        .subscribe()
        .wait_for(|turn| *turn >= job.ticket)
        .await;
    let permit = TurnPass(analyses.clone());
    let handle = tokio::runtime::Handle::current();
    let job = {
        let analyses = analyses.clone();
        let id = id.clone();
        let (done, result) = tokio::sync::oneshot::channel();
        let spawned = std::thread::Builder::new()
            .name(format!("analysis-{id}"))
            .spawn(move || {
                run_at_lowest_priority();
                let _permit = permit;
                let start = Progress {
                    waiting: false,
                    started: Some(Instant::now()),
                    ..job
                };
                analyses.set_progress(&id, start);
                analyses.publish(&id, &start.message());
                analyses.yield_to_live_games(&handle, &id, start);
                let mut last = Instant::now();
                let analysis = analyst.analyse(&record, &mut |done, total| {
                    let at = Progress {
                        done,
                        total,
                        waiting: false,
                        ..start
                    };
                    analyses.set_progress(&id, at);
                    if last.elapsed() >= PROGRESS_EVERY || done == total {
                        last = Instant::now();
                        analyses.publish(&id, &at.message());
                    }
                    // Live games first: the next decision waits until no AI seat is thinking.
                    analyses.yield_to_live_games(&handle, &id, at);
                });
                let _ = done.send(analysis);
            });
        match spawned {
            // A panic drops the sender: the analysis stopped.
            Ok(_) => result
                .await
                .map_err(|_| "its thread ended without a result".to_string()),
            Err(e) => Err(format!("no thread could be started for it: {e}")),
        }
    };
    let outcome = match job {
        Ok(Ok(analysis)) => {
            let text = analysis.to_string();
            match analyses.rooms.db.save_analysis(&id, now_ms(), &text).await {
                Ok(()) => Ok(()),
                Err(e) => Err(format!("the analysis could not be stored: {e}")),
            }
        }
        Ok(Err(e)) => Err(e),
        Err(e) => Err(format!("the analysis stopped: {e}")),
    };
    {
        let mut running = analyses.running.lock().unwrap_or_else(|e| e.into_inner());
        // A finished analysis's pace is the queue's measure until the next one has its own.
        if let Some(pace) = running.remove(&id).and_then(|p| p.pace())
            && outcome.is_ok()
        {
            *analyses.last_pace.lock().unwrap_or_else(|e| e.into_inner()) = Some(pace);
        }
    }
    analyses.set_failure(&id, outcome.as_ref().err().cloned());
    let message = match outcome {
        Ok(()) => SocketMsg::Analysis {
            status: AnalysisStatus::Done,
            done: None,
            total: None,
            waiting: None,
            error: None,
        },
        Err(e) => {
            tracing::error!("analysis of game {id} failed: {e}");
            SocketMsg::Analysis {
                status: AnalysisStatus::Failed,
                done: None,
                total: None,
                waiting: None,
                error: Some(e),
            }
        }
    };
    analyses.publish(&id, &message);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(ticket: u64, done: usize, total: usize) -> Progress {
        Progress {
            done,
            total,
            waiting: false,
            ticket,
            client: IpAddr::from([127, 0, 0, 1]),
            started: None,
        }
    }

    #[test]
    fn the_estimate_counts_the_decisions_left_of_every_analysis_up_to_its_place() {
        // Running: 30 decisions left; then 20 and 50 waiting.
        let queue = [job(0, 10, 40), job(1, 0, 20), job(2, 0, 50)];
        let half = Some(Duration::from_millis(500));
        assert_eq!(estimate(&queue, 0, half), Some(Duration::from_secs(15)));
        assert_eq!(estimate(&queue, 1, half), Some(Duration::from_secs(25)));
        assert_eq!(estimate(&queue, 2, half), Some(Duration::from_secs(50)));
        // Nothing timed yet: no estimate rather than a guess.
        assert_eq!(estimate(&queue, 2, None), None);
    }

    #[test]
    fn a_queued_analysis_answers_its_place_and_whole_seconds_rounded_up() {
        let answer = job(3, 0, 7).answer(1, Some(Duration::from_millis(40_200)));
        assert_eq!(
            answer,
            AnalysisAnswer::Running {
                done: 0,
                total: 7,
                waiting: false,
                ahead: Some(2),
                estimate_s: Some(41),
            }
        );
        let unknown = job(1, 0, 7).answer(1, None);
        assert!(
            matches!(
                unknown,
                AnalysisAnswer::Running {
                    ahead: Some(0),
                    estimate_s: None,
                    ..
                }
            ),
            "{unknown:?}"
        );
    }

    #[test]
    fn a_pace_needs_a_decision_analysed() {
        let mut p = job(0, 0, 10);
        p.started = Some(Instant::now());
        assert_eq!(p.pace(), None);
        p.done = 2;
        assert!(p.pace().is_some());
        assert_eq!(job(0, 2, 10).pace(), None, "not started: no pace");
    }
}
