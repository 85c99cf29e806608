//! Scale-out: several nodes (`tabula serve` processes) on one PostgreSQL database.
//!
//! Each node registers in `nodes(id, address, started_at, heartbeat_at)` with the URL other nodes reach
//! it at (`--advertise`). Each live game is owned by one node through a row of
//! `leases(game_id, node_id, epoch, expires_at)` (times in ms since the epoch, always the database's
//! clock, never a node's):
//!
//! * **Taking a lease**: a node creating a game inserts its lease (epoch 1) in the transaction that
//!   creates it. Any other lease is taken only when it is free or expired, atomically, with the epoch
//!   incremented ([`Node::acquire`]); the new owner then reads the log before acting (the room's
//!   catch-up), so it acts on every event the previous owner wrote.
//! * **Renewal**: the owner's heartbeat ([`HEARTBEAT`]) extends its unexpired leases of unfinished
//!   games by [`LEASE_MS`] in one statement (a finished game's lease lapses); a lease that expired is never renewed (it is taken again, with a new epoch). A
//!   node believes it holds a lease only until the local instant of the heartbeat that renewed it plus
//!   [`LEASE_MS`] minus a margin — earlier than the database's expiry, never later.
//! * **Fencing** ([`crate::storage::db`]): the transaction that writes a game's events first updates its lease
//!   row `WHERE game_id = … AND node_id = me AND epoch = e AND expires_at > now`, which must touch a
//!   row; the row lock it takes orders the commit against a takeover. Together with the primary key
//!   `(game_id, seq)` of `events`, **a game never has two writers**, even when a node believes for a
//!   moment that it still owns a game whose lease it lost (a paused process, a lost database
//!   connection): its commit is refused (`503`) and nothing is written. Each event records the
//!   `node_id` and `epoch` that wrote it.
//! * **Any node serves any game**: a change that reaches a node that does not own the game is
//!   authorised on that node's copy of the game, then forwarded to the owner
//!   (`POST /internal/games/{id}/commit`, authenticated by the cluster secret) with the seq it was
//!   authorised at; the owner commits it only if its game is still at that seq (else `409 conflict`,
//!   nothing changed). When the owner's lease expired (the owner died), the node takes the lease over
//!   and commits itself.
//! * **Fan-out**: every commit sends `NOTIFY tabula_events` (in its transaction, so only once it is
//!   durable) with the game ids and seqs; every node `LISTEN`s on a connection of its own, reads the
//!   new events of the games it has in memory from the log (never from the payload) and applies and
//!   broadcasts them in seq order (a room applies only the events after its own last seq, so nothing
//!   is applied twice or skipped). After its listening connection was lost, a node catches up every
//!   game it holds from the log.
//! * **Drivers**: clocks and AI seats run on the owner only. Every node claims, every second, the
//!   expired leases of running games ([`Node::claimable`]), so a node killed with `kill -9` is
//!   replaced within [`LEASE_MS`] plus a second or two.
//! * **Database loss**: a node that cannot reach the database answers changes with `503`, stops
//!   renewing (its leases expire, others take over) and recovers by itself when the database returns;
//!   fencing keeps it from ever writing with a stale lease.

use std::collections::HashMap;
use std::sync::Mutex as StdMutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sqlx::Row;
use sqlx::postgres::PgPool;

/// How long a lease lasts after its last renewal (ms).
pub const LEASE_MS: i64 = 5_000;
/// How often a node renews its leases and claims expired ones.
pub const HEARTBEAT: Duration = Duration::from_secs(1);
/// The `NOTIFY` channel of committed events.
pub const CHANNEL: &str = "tabula_events";
/// How much earlier than the database a node stops believing it holds a lease (ms).
const LEASE_MARGIN_MS: i64 = 1_000;
/// The database's clock in ms since the epoch (SQL).
pub(crate) const DB_NOW: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
/// The header that carries the cluster secret on internal requests.
pub const SECRET_HEADER: &str = "x-tabula-cluster-secret";

/// How a node takes part in a cluster.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// The URL other nodes reach this node at (`http://10.0.0.2:8080`).
    pub advertise: String,
    /// The secret shared by the nodes, authenticating forwarded requests.
    pub secret: String,
}

impl ClusterConfig {
    /// Checks the address and the secret.
    pub fn check(&self) -> Result<(), String> {
        let rest = self.advertise.strip_prefix("http://").ok_or_else(|| {
            format!(
                "the advertised address must be an http:// URL, not `{}`",
                self.advertise
            )
        })?;
        if rest.trim_end_matches('/').is_empty() || rest.trim_end_matches('/').contains('/') {
            return Err(format!(
                "the advertised address must be `http://host:port`, not `{}`",
                self.advertise
            ));
        }
        if self.secret.len() < 16 {
            return Err("the cluster secret must be at least 16 characters long".into());
        }
        Ok(())
    }
}

/// A lease this node believes it holds.
#[derive(Debug, Clone, Copy)]
struct Held {
    epoch: i64,
    valid_until: Instant,
}

/// Who owns a game, as the database says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// Another live node: forward to its address.
    Other { node: String, address: String },
    /// Nobody (no lease, or an expired one): take it.
    Free,
}

/// This node in the cluster.
#[derive(Debug)]
pub struct Node {
    pub id: String,
    pub address: String,
    secret: String,
    leases: StdMutex<HashMap<String, Held>>,
    stopped: AtomicBool,
}

fn sql_err(e: sqlx::Error) -> String {
    e.to_string()
}

impl Node {
    /// A new node (a fresh id for every process) with `config`.
    pub fn new(config: &ClusterConfig) -> Node {
        Node {
            id: uuid::Uuid::new_v4().to_string(),
            address: config.advertise.trim_end_matches('/').to_string(),
            secret: config.secret.clone(),
            leases: StdMutex::new(HashMap::new()),
            stopped: AtomicBool::new(false),
        }
    }

    fn leases(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.leases.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `given` is the cluster secret (compared in constant time).
    pub fn secret_matches(&self, given: &str) -> bool {
        let (a, b) = (self.secret.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// Whether the node stopped (its background tasks end).
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// The epoch of game `id`'s lease if this node holds it (and believes it unexpired).
    pub fn held(&self, id: &str) -> Option<i64> {
        if self.stopped() {
            // Leaving the cluster: it writes and drives nothing more (its leases are given back).
            return None;
        }
        let now = Instant::now();
        self.leases()
            .get(id)
            .filter(|h| h.valid_until > now)
            .map(|h| h.epoch)
    }

    /// Records a lease taken at `start` (the local instant before the statement that took it).
    fn note(&self, id: &str, epoch: i64, start: Instant) {
        let valid_until = start + Duration::from_millis((LEASE_MS - LEASE_MARGIN_MS) as u64);
        self.leases()
            .insert(id.to_string(), Held { epoch, valid_until });
    }

    /// Records the lease of a game this node creates (epoch 1, inserted by the creating commit).
    pub fn note_new_game(&self, id: &str) {
        self.note(id, 1, Instant::now());
    }

    /// Forgets a lease the database says this node does not hold.
    pub fn forget(&self, id: &str) {
        self.leases().remove(id);
    }

    /// Registers the node (at start-up).
    pub async fn register(&self, pool: &PgPool) -> Result<(), String> {
        let sql = format!(
            "INSERT INTO nodes (id, address, started_at, heartbeat_at) VALUES ($1, $2, {DB_NOW}, {DB_NOW})"
        );
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&self.id)
            .bind(&self.address)
            .execute(pool)
            .await
            .map_err(|e| format!("cannot register this node: {e}"))?;
        Ok(())
    }

    /// One heartbeat: the node's row, and every unexpired lease it holds extended by [`LEASE_MS`].
    /// Leases it lost meanwhile are forgotten when their local validity ends: returns those games
    /// (this node no longer writes them, and follows them from the log instead).
    pub async fn heartbeat(&self, pool: &PgPool) -> Result<Vec<String>, String> {
        let start = Instant::now();
        let sql = format!("UPDATE nodes SET heartbeat_at = {DB_NOW} WHERE id = $1");
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&self.id)
            .execute(pool)
            .await
            .map_err(sql_err)?;
        // Only unfinished games' leases: a finished game's lease lapses (a later change, such as a
        // rematch, takes it again).
        // The lease rows are locked in the order of the game ids, as commits lock them: a heartbeat
        // and a batch commit never wait for each other in a circle (`deadlock detected`).
        let sql = format!(
            "WITH mine AS (SELECT l.game_id FROM leases l JOIN games g ON g.id = l.game_id \
             WHERE g.status IN ('waiting', 'running') AND l.node_id = $1 AND l.expires_at > {DB_NOW} \
             ORDER BY l.game_id FOR UPDATE OF l) \
             UPDATE leases SET expires_at = {DB_NOW} + {LEASE_MS} FROM mine \
             WHERE leases.game_id = mine.game_id \
             RETURNING leases.game_id, leases.epoch"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&self.id)
            .fetch_all(pool)
            .await
            .map_err(sql_err)?;
        for r in rows {
            let id: String = r.try_get(0).map_err(sql_err)?;
            let epoch: i64 = r.try_get(1).map_err(sql_err)?;
            self.note(&id, epoch, start);
        }
        Ok(self.forget_expired())
    }

    /// Forgets the leases whose local validity ended; returns their games.
    pub fn forget_expired(&self) -> Vec<String> {
        let now = Instant::now();
        let mut lost = Vec::new();
        self.leases().retain(|id, h| {
            let keep = h.valid_until > now;
            if !keep {
                lost.push(id.clone());
            }
            keep
        });
        lost
    }

    /// Who owns game `id`, as the database says now.
    pub async fn owner(&self, pool: &PgPool, id: &str) -> Result<Owner, String> {
        let sql = format!(
            "SELECT l.node_id, n.address FROM leases l LEFT JOIN nodes n ON n.id = l.node_id \
             WHERE l.game_id = $1 AND l.expires_at > {DB_NOW}"
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(sql_err)?;
        let Some(row) = row else {
            return Ok(Owner::Free);
        };
        let node: String = row.try_get(0).map_err(sql_err)?;
        let address: Option<String> = row.try_get(1).map_err(sql_err)?;
        match address {
            // Our own unexpired lease that we no longer believe in: take it again (a new epoch).
            _ if node == self.id => Ok(Owner::Free),
            Some(address) => Ok(Owner::Other { node, address }),
            None => Err(format!("game {id} is leased to an unknown node {node}")),
        }
    }

    /// Takes game `id`'s lease if it is free or expired (or already this node's), with a new epoch.
    /// Returns the epoch, or `None` when another node holds it.
    pub async fn acquire(&self, pool: &PgPool, id: &str) -> Result<Option<i64>, String> {
        let start = Instant::now();
        let sql = format!(
            "INSERT INTO leases (game_id, node_id, epoch, expires_at) VALUES ($1, $2, 1, {DB_NOW} + {LEASE_MS}) \
             ON CONFLICT (game_id) DO UPDATE SET node_id = excluded.node_id, epoch = leases.epoch + 1, \
             expires_at = excluded.expires_at \
             WHERE leases.expires_at <= {DB_NOW} OR leases.node_id = excluded.node_id \
             RETURNING epoch"
        );
        let epoch: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(id)
            .bind(&self.id)
            .fetch_optional(pool)
            .await
            .map_err(sql_err)?;
        if let Some(epoch) = epoch {
            self.note(id, epoch, start);
        }
        Ok(epoch)
    }

    /// Running games whose lease expired (or that have none): they need a driver (clocks, AI seats).
    pub async fn claimable(&self, pool: &PgPool) -> Result<Vec<String>, String> {
        let sql = format!(
            "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id \
             WHERE g.status = 'running' AND (l.game_id IS NULL OR l.expires_at <= {DB_NOW}) \
             ORDER BY g.updated_at LIMIT 200"
        );
        sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_all(pool)
            .await
            .map_err(sql_err)
    }

    /// Gives every lease back and leaves the cluster (a clean shutdown): others take the games over
    /// at once instead of after the leases expire.
    pub async fn leave(&self, pool: &PgPool) {
        self.stopped.store(true, Ordering::SeqCst);
        self.leases().clear();
        let _ = sqlx::query("DELETE FROM leases WHERE node_id = $1")
            .bind(&self.id)
            .execute(pool)
            .await;
        let _ = sqlx::query("DELETE FROM nodes WHERE id = $1")
            .bind(&self.id)
            .execute(pool)
            .await;
    }

    /// The secret shared by the nodes, sent on internal requests in [`SECRET_HEADER`].
    pub fn secret(&self) -> &str {
        &self.secret
    }
}

/// The games (and seqs) of a `NOTIFY` payload: `id:seq` separated by spaces.
pub fn parse_payload(payload: &str) -> Vec<(String, u64)> {
    payload
        .split_whitespace()
        .filter_map(|item| {
            let (id, seq) = item.split_once(':')?;
            Some((id.to_string(), seq.parse().ok()?))
        })
        .collect()
}

/// A connection that listens to notifications (`LISTEN`) of other nodes: commits on [`CHANNEL`] and
/// whatever other channels the services announce on.
pub struct Listener(sqlx::postgres::PgListener);

impl Listener {
    /// Listens on [`CHANNEL`] and `others`, on a connection of its own from `pool`.
    pub async fn connect(pool: &sqlx::PgPool, others: &[&str]) -> Result<Listener, String> {
        let mut listener = sqlx::postgres::PgListener::connect_with(pool)
            .await
            .map_err(|e| e.to_string())?;
        listener
            .listen_all(std::iter::once(CHANNEL).chain(others.iter().copied()))
            .await
            .map_err(|e| e.to_string())?;
        Ok(Listener(listener))
    }

    /// The next notification as `(channel, payload)`; `Ok(None)` when the connection was lost (it is
    /// made again at the next call: what was notified meanwhile is lost).
    pub async fn recv(&mut self) -> Result<Option<(String, String)>, String> {
        match self.0.try_recv().await {
            Ok(Some(n)) => Ok(Some((n.channel().to_string(), n.payload().to_string()))),
            Ok(None) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_parse() {
        assert_eq!(
            parse_payload("a:1 b:22 bad c:x"),
            vec![("a".to_string(), 1), ("b".to_string(), 22)]
        );
    }

    #[test]
    fn config_is_checked() {
        let ok = ClusterConfig {
            advertise: "http://127.0.0.1:8080".into(),
            secret: "0123456789abcdef".into(),
        };
        assert!(ok.check().is_ok());
        for bad in ["127.0.0.1:8080", "http://", "http://h:1/x", "https://h:1"] {
            let c = ClusterConfig {
                advertise: bad.into(),
                ..ok.clone()
            };
            assert!(c.check().is_err(), "{bad}");
        }
        let short = ClusterConfig {
            secret: "short".into(),
            ..ok
        };
        assert!(short.check().is_err());
    }
}
