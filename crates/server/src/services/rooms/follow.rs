//! A room on a cluster node ([`crate::storage::cluster`]): who writes it, forwarding to its owner, taking its
//! lease over, and following the other nodes' commits.
//!
//! Invariants:
//! * a node commits a game's events only while it holds the game's lease (and the commit's fence
//!   checks it in the database); it drives a game (clock sweeper, AI seats) only while it holds it;
//! * a node that takes a lease reads the log before it acts, and a change authorised on a copy that
//!   turns out to be behind the log is refused (`409 conflict`) rather than committed; a node that
//!   does not hold the lease reads the log before it authorises a change at all
//!   ([`Rooms::refresh_for_change`]), so a request is judged on the committed game;
//! * a forwarded change is committed by the owner only if the owner's game is at the seq the change
//!   was authorised at;
//! * the other nodes' commits reach a room only through its catch-up from the log (events after its
//!   last seq, in order): nothing is applied twice or skipped, whatever notifications arrive or are
//!   lost.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{Room, RoomInner, Rooms, detached};
use crate::base::error::Refusal;
use crate::domain::model::EventData;
use crate::domain::ratings::SeatBinding;
use crate::storage::cluster::{HEARTBEAT, Listener, Owner, parse_payload};

/// How a node hands a change to the node that owns the game: an HTTP client, which the transport
/// layer gives ([`crate::transport::peers`]) — rooms know no HTTP.
pub trait Peers: Send + Sync {
    /// Posts `body` to `path` on the node at `address` (its advertised base URL), with the cluster's
    /// `secret`; returns the HTTP status and the JSON answer (`null` when empty), or `Err` when the
    /// node cannot be reached, does not answer in time or answers with something that is not JSON.
    fn post<'a>(
        &'a self,
        address: &'a str,
        path: &'a str,
        secret: &'a str,
        body: &'a Value,
    ) -> futures_util::future::BoxFuture<'a, Result<(u16, Value), String>>;
}

/// How long a change waits for an unreachable owner's lease to expire before it is refused (`503`).
const OWNER_WAIT: Duration = Duration::from_secs(8);

/// Where a change is committed.
pub(super) enum Writer {
    /// Here, with this lease epoch (`None`: a single server).
    Here(Option<i64>),
    /// By the owner, which answered with the first seq of the change.
    Forwarded(u64),
}

/// A forwarded change (the body of `POST /internal/games/{id}/commit`).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Forwarded {
    /// The seq of the game the change was authorised at.
    pub base_seq: u64,
    pub first: Vec<EventData>,
    #[serde(default)]
    pub bindings: Vec<SeatBinding>,
}

/// The status of an internal answer that means "not the owner (any more): ask again".
pub const NOT_OWNER: u16 = 421;

impl Rooms {
    /// Whether this server drives game `id` (its clock, its AI seats): always for a single server; on
    /// a cluster node, while it holds the game's lease.
    pub(super) fn drives(&self, id: &str) -> bool {
        match self.db.node() {
            None => true,
            Some(node) => node.held(id).is_some(),
        }
    }

    /// Brings `room` up to the log before a change is authorised on it, on a cluster node that does
    /// not hold the game's lease: another node may have committed events whose notification has not
    /// arrived yet, and a player who saw them elsewhere (a request sent through the load balancer
    /// reaches any node) must not be refused on a stale copy ("not your turn"). A single server and
    /// the lease holder are always current: they write every event themselves. Called under the
    /// room's lock.
    pub(super) async fn refresh_for_change(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
    ) -> Result<(), Refusal> {
        if let Some(node) = self.db.node()
            && node.held(&room.id).is_none()
        {
            inner.unsure = true;
            self.catch_up(room, inner).await?;
        }
        Ok(())
    }

    /// Decides where a change of `room` authorised at its current seq is committed: here (holding
    /// the lease, or taking it when it is free), or by the owner (forwarded; the room then catches
    /// up with the log). Called under the room's lock.
    pub(super) async fn writer_for(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
        first: &[EventData],
        bindings: &[SeatBinding],
    ) -> Result<Writer, Refusal> {
        let (Some(node), Some(pool)) = (self.db.node().cloned(), self.db.pg_pool().cloned()) else {
            return Ok(Writer::Here(None));
        };
        if node.stopped() {
            // A clean shutdown: expected, not an error (another node serves the game next).
            return Err(Refusal::Unavailable(
                "this server is shutting down; nothing was changed, try again".into(),
            ));
        }
        let unavailable = |e: String| {
            tracing::error!(game_id = %room.id, error = %e, "cluster: cannot reach the database");
            Refusal::Unavailable(crate::storage::db::WriteError.to_string())
        };
        let started = Instant::now();
        loop {
            if let Some(epoch) = node.held(&room.id) {
                return Ok(Writer::Here(Some(epoch)));
            }
            match node.owner(&pool, &room.id).await.map_err(unavailable)? {
                Owner::Free => {
                    let Some(epoch) = node.acquire(&pool, &room.id).await.map_err(unavailable)?
                    else {
                        continue;
                    };
                    tracing::info!(game_id = %room.id, epoch, "cluster: took the game's lease");
                    let base = inner.core.seq;
                    inner.unsure = true;
                    self.catch_up(room, inner).await?;
                    if inner.core.seq != base {
                        return Err(Refusal::Conflict(
                            "the game changed meanwhile (on another server); nothing was changed, \
                             try again"
                                .into(),
                        ));
                    }
                    return Ok(Writer::Here(Some(epoch)));
                }
                Owner::Other {
                    node: owner,
                    address,
                } => {
                    let body = json!(Forwarded {
                        base_seq: inner.core.seq,
                        first: first.to_vec(),
                        bindings: bindings.to_vec(),
                    });
                    let path = format!("/internal/games/{}/commit", room.id);
                    match self.peers.post(&address, &path, node.secret(), &body).await {
                        Ok((200, answer)) => {
                            let seq = answer["seq"].as_u64().ok_or_else(|| {
                                Refusal::Internal(format!("node {owner} answered {answer}"))
                            })?;
                            inner.unsure = true;
                            self.catch_up(room, inner).await?;
                            return Ok(Writer::Forwarded(seq));
                        }
                        Ok((NOT_OWNER, _)) => {}
                        Ok((status, answer)) => return Err(refusal_from(status, &answer)),
                        Err(e) => {
                            tracing::warn!(game_id = %room.id, %owner, error = %e,
                                "cluster: the game's owner cannot be reached; waiting for its lease to expire");
                        }
                    }
                    if started.elapsed() > OWNER_WAIT {
                        return Err(Refusal::Unavailable(
                            "the server that runs this game cannot be reached; nothing was changed, \
                             try again in a few seconds"
                                .into(),
                        ));
                    }
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
            }
        }
    }

    /// Commits a change another node forwarded (the owner's side): only while this node holds the
    /// game's lease (else `421`, the sender asks again), and only if the game is still at the seq the
    /// change was authorised at (else `409 conflict`). Returns the first seq of the change.
    pub async fn commit_forwarded(
        self: &Arc<Self>,
        id: &str,
        change: Forwarded,
    ) -> Result<Result<u64, Refusal>, ()> {
        if !self.drives(id) {
            return Err(());
        }
        let room = match self.room(id).await {
            Ok(room) => room,
            Err(e) => return Ok(Err(e)),
        };
        let shared = self.clone();
        let answer = detached(id, async move {
            let mut inner = room.inner.lock().await;
            if !shared.drives(&room.id) {
                return Ok(None);
            }
            if inner.core.seq != change.base_seq {
                inner.unsure = true;
                shared.catch_up(&room, &mut inner).await?;
            }
            if inner.core.seq != change.base_seq {
                return Err(Refusal::Conflict(
                    "the game changed meanwhile; nothing was changed, try again".into(),
                ));
            }
            shared
                .commit_bound(&room, &mut inner, change.first, None, change.bindings)
                .await
                .map(Some)
        })
        .await;
        match answer {
            Ok(Some(seq)) => Ok(Ok(seq)),
            Ok(None) => Err(()),
            Err(e) => Ok(Err(e)),
        }
    }

    /// Renews this node's leases and claims the expired ones of running games (every
    /// [`HEARTBEAT`], for the server's life).
    pub async fn run_leases(self: Arc<Self>) {
        let (Some(node), Some(pool)) = (self.db.node().cloned(), self.db.pg_pool().cloned()) else {
            return;
        };
        let mut tick = tokio::time::interval(HEARTBEAT);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let (mut failing, mut lock_failing) = (false, false);
        while !node.stopped() {
            tick.tick().await;
            let lost = match node.heartbeat(&pool).await {
                Ok(lost) => lost,
                Err(_) if node.stopped() => return,
                Err(e) => {
                    if !failing {
                        tracing::error!(error = %e,
                            "cluster: cannot renew this node's leases (database unreachable); its \
                             games pass to other nodes when the leases expire");
                    }
                    failing = true;
                    for id in node.forget_expired() {
                        self.follow(id);
                    }
                    continue;
                }
            };
            for id in lost {
                tracing::warn!(game_id = %id, "cluster: lost the game's lease; following it");
                self.follow(id);
            }
            match self.db.keep_node_lock().await {
                Err(e) if !lock_failing => {
                    tracing::error!(error = %e, "cluster: this node's commits are refused");
                    lock_failing = true;
                }
                Err(_) => {}
                Ok(()) => lock_failing = false,
            }
            if failing {
                tracing::warn!("cluster: the database answers again");
                failing = false;
            }
            let ids = match node.claimable(&pool).await {
                Ok(ids) => ids,
                Err(e) => {
                    tracing::error!(error = %e, "cluster: cannot list games to take over");
                    continue;
                }
            };
            for id in ids {
                match node.acquire(&pool, &id).await {
                    Ok(Some(epoch)) => {
                        tracing::warn!(game_id = %id, epoch, "cluster: took over a game whose lease expired");
                        self.take_over(&id).await;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        tracing::error!(game_id = %id, error = %e, "cluster: cannot take a lease")
                    }
                }
            }
        }
    }

    /// After taking game `id`'s lease: brings its room up to the log and starts driving it (clock,
    /// AI seats).
    async fn take_over(self: &Arc<Self>, id: &str) {
        let room = match self.room(id).await {
            Ok(room) => room,
            Err(e) => {
                tracing::error!(game_id = %id, error = %e, "cluster: cannot load a game taken over");
                return;
            }
        };
        let shared = self.clone();
        let _ = detached(id, async move {
            let mut inner = room.inner.lock().await;
            inner.unsure = true;
            shared.catch_up(&room, &mut inner).await?;
            shared.after_change(&room, &mut inner);
            Ok(())
        })
        .await;
    }

    /// Follows the other nodes' commits (`LISTEN`), for the server's life: each notified game in
    /// memory catches up with its log; a game not in memory is loaded (so the lobby's index knows
    /// it). Notifications on the `others` channels (e.g. other nodes' chat messages: rooms know no
    /// chat) are handed to `on_other` with their channel and payload. After the listening connection
    /// was lost, every game in memory catches up.
    pub async fn run_listener<F>(self: Arc<Self>, others: &[&str], on_other: F)
    where
        F: Fn(&str, String) + Send + Sync,
    {
        let (Some(node), Some(pool)) = (self.db.node().cloned(), self.db.pg_pool().cloned()) else {
            return;
        };
        while !node.stopped() {
            let mut listener = match Listener::connect(&pool, others).await {
                Ok(l) => l,
                Err(e) => {
                    tracing::error!(error = %e, "cluster: cannot listen for other nodes' commits");
                    tokio::time::sleep(HEARTBEAT).await;
                    continue;
                }
            };
            // Whatever was committed before we listened (or while we did not).
            self.follow_all();
            loop {
                match listener.recv().await {
                    Ok(Some((channel, payload))) if channel != crate::storage::cluster::CHANNEL => {
                        on_other(&channel, payload);
                    }
                    Ok(Some((_, payload))) => {
                        for (id, _seq) in parse_payload(&payload) {
                            self.follow(id);
                        }
                    }
                    Ok(None) => {
                        tracing::warn!("cluster: the listening connection was lost; catching up");
                        self.follow_all();
                    }
                    Err(e) => {
                        if !node.stopped() {
                            tracing::error!(error = %e, "cluster: listening failed");
                            tokio::time::sleep(HEARTBEAT).await;
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Catches every game in memory up with its log.
    fn follow_all(self: &Arc<Self>) {
        let ids: Vec<String> = self.rooms().keys().cloned().collect();
        for id in ids {
            self.follow(id);
        }
    }

    /// Brings game `id` up to its log (on a task of its own), unless this node writes it.
    fn follow(self: &Arc<Self>, id: String) {
        if self.drives(&id) {
            return;
        }
        let shared = self.clone();
        tokio::spawn(async move {
            let loaded = shared.loaded_room(&id);
            let room = match loaded {
                Some(room) => room,
                None => {
                    // Loading reads the whole log: the room is current.
                    if let Err(e) = shared.room(&id).await {
                        tracing::warn!(game_id = %id, error = %e, "cluster: cannot load a notified game");
                    }
                    shared.evict_if_idle(&id);
                    return;
                }
            };
            let mut inner = room.inner.lock().await;
            inner.unsure = true;
            if let Err(e) = shared.catch_up(&room, &mut inner).await {
                tracing::warn!(game_id = %id, error = %e, "cluster: cannot catch up with the log");
                drop(inner);
                shared.mark_unsure_retry(&room).await;
            }
        });
    }

    /// Marks a room unsure (its background catch-up retries until storage answers).
    async fn mark_unsure_retry(self: &Arc<Self>, room: &Arc<Room>) {
        let mut inner = room.inner.lock().await;
        inner.unsure = false;
        self.mark_unsure(room, &mut inner);
    }
}

/// The refusal an owner answered a forwarded change with.
fn refusal_from(status: u16, answer: &Value) -> Refusal {
    let code = answer["error"]["code"].as_str().unwrap_or("");
    let message = answer["error"]["message"].as_str().map_or_else(
        || format!("the game's server answered {status}"),
        str::to_string,
    );
    use tabula_core::ActionError;
    match code {
        "bad_request" => Refusal::BadRequest(message),
        "bad_token" => Refusal::BadToken(message),
        "forbidden" => Refusal::Forbidden(message),
        "not_found" => Refusal::NotFound(message),
        "not_started" => Refusal::NotStarted(message),
        "conflict" => Refusal::Conflict(message),
        "game_over" => Refusal::Action(ActionError::GameOver),
        // The owner's message is the error's text: its parameter is recovered from it.
        "not_your_turn" => Refusal::Action(ActionError::NotYourTurn(
            message
                .strip_prefix("it is not ")
                .and_then(|m| m.strip_suffix("'s decision now"))
                .unwrap_or(&message)
                .to_string(),
        )),
        "illegal" => Refusal::Action(ActionError::Illegal(
            message
                .strip_prefix("illegal action: ")
                .unwrap_or(&message)
                .to_string(),
        )),
        "malformed_action" => Refusal::Action(ActionError::Malformed(
            message
                .strip_prefix("malformed action: ")
                .unwrap_or(&message)
                .to_string(),
        )),
        "too_large" => Refusal::TooLarge(message),
        "rate_limited" => Refusal::RateLimited(message),
        "unavailable" => Refusal::Unavailable(message),
        _ => Refusal::Internal(message),
    }
}
