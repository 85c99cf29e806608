//! Persistence: SQLite (a file in the data directory) or PostgreSQL.
//!
//! Two tables hold the games. `games(id, game, status, created_at, updated_at)` is an index for startup
//! and listing; `events(game_id, seq, at_ms, kind, data)` is the log, the source of truth (`data` is the
//! JSON of [`crate::domain::model::EventData`]). Accounts add `accounts`, `sessions`, `game_seats` (the seats
//! accounts hold, bound in the transaction of the event that gives them), `ratings` and
//! `rating_history` (written in the transaction that commits a game's `end`: [`crate::domain::ratings`]). `analyses(game_id, created_at, data)` keeps the engine's analysis of
//! finished games (derived data, written on its own: [`crate::services::analysis`]). Every write goes through one writer task that commits batches of
//! requests in one transaction each (group commit), and answers each request only after its commit:
//! an action is acknowledged only once it is durable. SQLite runs in WAL mode with `synchronous=FULL`.
//!
//! * **Schema**: versioned migrations (`crates/server/migrations`, applied with `sqlx::migrate!` at
//!   start-up, the same files for both databases). Databases created before migrations were versioned
//!   have the first migration's tables already; it is written with `IF NOT EXISTS`, so they open as
//!   they are and the migration is recorded as applied.
//! * **Storage errors**: a connection whose transaction failed (a full disk, an I/O error, a lost
//!   PostgreSQL connection) is closed, never handed back to the pool: after a failed `COMMIT` SQLite
//!   may have rolled back all or only part of the transaction, and a connection whose state the driver
//!   no longer knows would later "commit" into a transaction that never ends (acknowledged, never
//!   written). The requests of a failed commit are answered with [`WriteError`] (the server's `503`),
//!   nothing is applied, and the next commit opens a fresh connection: service resumes by itself
//!   once storage recovers.
//! * **One node per PostgreSQL database**: a server holds a session-level advisory lock
//!   ([`NODE_LOCK`]) on a connection of its own for its whole life, and refuses to start while another
//!   live server holds it. Every commit checks, inside its transaction, that this server's lock
//!   connection still holds the lock (fencing: a server that lost it, for instance because its lock
//!   connection was cut, writes nothing until it takes the lock again). The lock is a pair of 32-bit
//!   keys, `(NODE_LOCK.0, NODE_LOCK.1)`, so that per-game leases of a later scale-out can use the same
//!   class with other second keys. The nodes of a cluster hold the same lock *shared* (their commits
//!   are fenced by per-game leases instead), so a plain server and cluster nodes refuse each other.
//! * **What a failed commit means** ([`WriteFailure`]): an error before the transaction's `COMMIT`
//!   (a lost lock or lease, a duplicate key, any statement) is a definite "not written"; only a
//!   failing `COMMIT` (or a lost answer) leaves the outcome unknown, for the log to settle.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{Connection, Row};
use tokio::sync::{Mutex, mpsc, oneshot};

use crate::domain::model::{Event, EventData};
use crate::storage::cluster::{ClusterConfig, DB_NOW, Node};

/// The versioned schema (`crates/server/migrations`).
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!();

/// The connection pool of a server (or node) on PostgreSQL.
async fn connect_pool(options: PgConnectOptions) -> Result<PgPool, String> {
    PgPoolOptions::new()
        .max_connections(8)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot connect to PostgreSQL: {e}"))
}

/// The advisory lock a server holds on its PostgreSQL database: `pg_advisory_lock(NODE_LOCK.0,
/// NODE_LOCK.1)` ("Tabl", 1).
pub const NODE_LOCK: (i32, i32) = (0x5461_626c, 1);

/// A database connection pool of either kind.
#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgDb),
}

/// A PostgreSQL pool and what fences this server's commits: the node lock of a single server, or
/// the node of a cluster (per-game leases, [`crate::storage::cluster`]).
#[derive(Clone, Debug)]
pub struct PgDb {
    pub pool: PgPool,
    lock: Option<Arc<NodeLock>>,
    node: Option<Arc<Node>>,
}

/// The connection that holds this server's [`NODE_LOCK`], and its backend's process id (what
/// `pg_locks` shows as the lock's holder). A plain server holds it exclusively, each node of a
/// cluster shared: a plain server and cluster nodes never serve one database together.
#[derive(Debug)]
struct NodeLock {
    options: PgConnectOptions,
    /// Held shared (a cluster node) rather than exclusively (a plain server).
    shared: bool,
    held: Mutex<Option<(PgConnection, i32)>>,
}

impl NodeLock {
    /// Takes the server lock (shared for a cluster node, exclusive for a plain server), or fails
    /// saying who holds it.
    async fn take(options: &PgConnectOptions, shared: bool) -> Result<Arc<NodeLock>, String> {
        let Some(held) = NodeLock::acquire(options, shared).await? else {
            return Err(NodeLock::refusal(options, shared).await);
        };
        Ok(Arc::new(NodeLock {
            options: options.clone(),
            shared,
            held: Mutex::new(Some(held)),
        }))
    }

    /// Takes the lock on a new connection (shared for a cluster node); `Ok(None)` when another
    /// session holds it in a conflicting mode.
    async fn acquire(
        options: &PgConnectOptions,
        shared: bool,
    ) -> Result<Option<(PgConnection, i32)>, String> {
        let mut conn = PgConnection::connect_with(options)
            .await
            .map_err(|e| format!("cannot connect to PostgreSQL: {e}"))?;
        let sql = if shared {
            "SELECT pg_try_advisory_lock_shared($1, $2), pg_backend_pid()"
        } else {
            "SELECT pg_try_advisory_lock($1, $2), pg_backend_pid()"
        };
        let row = sqlx::query(sql)
            .bind(NODE_LOCK.0)
            .bind(NODE_LOCK.1)
            .fetch_one(&mut conn)
            .await
            .map_err(|e| format!("cannot take the server lock: {e}"))?;
        let (got, pid): (bool, i32) = (
            row.try_get(0).map_err(|e| e.to_string())?,
            row.try_get(1).map_err(|e| e.to_string())?,
        );
        if got {
            return Ok(Some((conn, pid)));
        }
        let _ = conn.close().await;
        Ok(None)
    }

    /// Why the lock cannot be taken: who holds it, as `pg_locks` says (shared: cluster nodes;
    /// exclusive: a plain server).
    async fn refusal(options: &PgConnectOptions, shared: bool) -> String {
        let holders = async {
            let mut conn = PgConnection::connect_with(options).await?;
            let modes: Vec<String> = sqlx::query_scalar(
                "SELECT mode FROM pg_locks WHERE locktype = 'advisory' \
                 AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
                 AND classid = $1::bigint::oid AND objid = $2::bigint::oid \
                 AND objsubid = 2 AND granted",
            )
            .bind(i64::from(NODE_LOCK.0))
            .bind(i64::from(NODE_LOCK.1))
            .fetch_all(&mut conn)
            .await?;
            let _ = conn.close().await;
            Ok::<_, sqlx::Error>(modes)
        };
        let nodes_hold = match holders.await {
            Ok(modes) => modes.iter().any(|m| m == "ShareLock"),
            Err(_) => shared,
        };
        match (shared, nodes_hold) {
            (false, false) => ANOTHER_NODE.to_string(),
            (false, true) => CLUSTER_HOLDS.to_string(),
            (true, _) => PLAIN_HOLDS.to_string(),
        }
    }

    /// The process id of the lock connection, taking the lock again if this server has none (after
    /// [`NodeLock::lost`]). Errors when another server holds it.
    async fn pid(&self) -> Result<i32, String> {
        let mut held = self.held.lock().await;
        if let Some((_, pid)) = held.as_ref() {
            return Ok(*pid);
        }
        match NodeLock::acquire(&self.options, self.shared).await? {
            Some((conn, pid)) => {
                tracing::warn!("took the PostgreSQL server lock again (lock connection {pid})");
                *held = Some((conn, pid));
                Ok(pid)
            }
            None => Err(NodeLock::refusal(&self.options, self.shared).await),
        }
    }

    /// Forgets a lock connection that no longer holds the lock (closing it).
    async fn lost(&self, pid: i32) {
        let mut held = self.held.lock().await;
        if held.as_ref().is_some_and(|(_, p)| *p == pid) {
            tracing::error!(
                "this server no longer holds the PostgreSQL server lock (lock connection {pid} lost); \
                 commits are refused until it is taken again"
            );
            // Dropped, not closed: a lost connection may not answer a polite goodbye.
            drop(held.take());
        }
    }

    /// Releases the lock (closes its connection).
    async fn release(&self) {
        if let Some((mut conn, _)) = self.held.lock().await.take() {
            // Unlocked before the connection closes: the server ends a closed connection's session
            // (and its locks) a moment later, and a server started right after this one returns
            // must find the lock free.
            let _ = sqlx::query("SELECT pg_advisory_unlock_all()")
                .execute(&mut conn)
                .await;
            let _ = conn.close().await;
        }
    }
}

const ANOTHER_NODE: &str = "another Tabula server is serving this PostgreSQL database (it holds the \
     server lock); only one server may use a database: stop the other one first";
const CLUSTER_HOLDS: &str = "the nodes of a Tabula cluster are serving this PostgreSQL database; a \
     plain server cannot share it with them: start this server as a cluster node (--advertise and \
     --cluster-secret), or stop the nodes first";
const PLAIN_HOLDS: &str = "a plain Tabula server (started without --advertise and --cluster-secret) \
     is serving this PostgreSQL database; cluster nodes cannot share it with it: stop it first, or \
     start it again as a cluster node";

macro_rules! on_pool {
    ($db:expr, $p:ident => $body:expr) => {
        match $db {
            $crate::storage::db::Db::Sqlite($p) => $body,
            $crate::storage::db::Db::Postgres(pg) => {
                let $p = &pg.pool;
                $body
            }
        }
    };
}
pub(crate) use on_pool;

impl Db {
    /// Opens (creating if needed) the SQLite file `tabula.sqlite3` in `dir`.
    pub async fn open_sqlite_dir(dir: &Path) -> Result<Db, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create data directory {}: {e}", dir.display()))?;
        let file = dir.join("tabula.sqlite3");
        let options = SqliteConnectOptions::new()
            .filename(&file)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|e| format!("cannot open SQLite database {}: {e}", file.display()))?;
        let db = Db::Sqlite(pool);
        db.migrate().await?;
        Ok(db)
    }

    /// Connects to PostgreSQL (`postgres://…`) and takes the server lock: fails with a clear message
    /// when another live server uses the database.
    pub async fn open_postgres(url: &str) -> Result<Db, String> {
        let options =
            PgConnectOptions::from_str(url).map_err(|e| format!("bad PostgreSQL URL: {e}"))?;
        let lock = NodeLock::take(&options, false).await?;
        let pool = connect_pool(options).await?;
        let db = Db::Postgres(PgDb {
            pool,
            lock: Some(lock),
            node: None,
        });
        db.migrate().await?;
        // Nodes that lost their lock connection for a moment still renew their leases: their fresh
        // heartbeats refuse a plain server as well.
        if let Db::Postgres(pg) = &db {
            let sql = format!(
                "SELECT COUNT(*) FROM nodes WHERE heartbeat_at > {DB_NOW} - {}",
                2 * crate::storage::cluster::LEASE_MS
            );
            let live: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                .fetch_one(&pg.pool)
                .await
                .map_err(|e| format!("cannot read the cluster's nodes: {e}"))?;
            if live > 0 {
                db.release().await;
                return Err(CLUSTER_HOLDS.to_string());
            }
        }
        Ok(db)
    }

    /// Connects to PostgreSQL as a node of a cluster ([`crate::storage::cluster`]): no server lock; the node
    /// registers itself, and its commits are fenced by each game's lease.
    pub async fn open_postgres_cluster(url: &str, config: &ClusterConfig) -> Result<Db, String> {
        config.check()?;
        let options =
            PgConnectOptions::from_str(url).map_err(|e| format!("bad PostgreSQL URL: {e}"))?;
        // The server lock, shared with the other nodes: a plain server (which holds it
        // exclusively) and cluster nodes refuse each other.
        let lock = NodeLock::take(&options, true).await?;
        let pool = connect_pool(options).await?;
        let node = Arc::new(Node::new(config));
        let db = Db::Postgres(PgDb {
            pool,
            lock: Some(lock),
            node: Some(node.clone()),
        });
        db.migrate().await?;
        if let Db::Postgres(pg) = &db {
            node.register(&pg.pool).await?;
        }
        Ok(db)
    }

    /// On a cluster node: checks that the node still holds its share of the server lock, taking it
    /// again when its connection was lost (every heartbeat). Fails while a plain server holds the
    /// lock: the node's commits are refused meanwhile.
    pub async fn keep_node_lock(&self) -> Result<(), String> {
        let Db::Postgres(PgDb {
            pool,
            lock: Some(lock),
            node: Some(_),
        }) = self
        else {
            return Ok(());
        };
        let pid = lock.pid().await?;
        if !lock_held(pool, pid).await? {
            lock.lost(pid).await;
            lock.pid().await?;
        }
        Ok(())
    }

    /// This server's node when it is part of a cluster ([`crate::storage::cluster`]).
    pub fn node(&self) -> Option<&Arc<Node>> {
        match self {
            Db::Postgres(pg) => pg.node.as_ref(),
            Db::Sqlite(_) => None,
        }
    }

    /// The PostgreSQL pool (`None` on SQLite).
    pub fn pg_pool(&self) -> Option<&PgPool> {
        match self {
            Db::Postgres(pg) => Some(&pg.pool),
            Db::Sqlite(_) => None,
        }
    }

    /// Opens what `spec` names: a `postgres://`/`postgresql://` URL, or else a data directory for SQLite.
    pub async fn open(database: Option<&str>, data_dir: &Path) -> Result<Db, String> {
        match database {
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Db::open_postgres(url).await
            }
            Some(other) => Err(format!(
                "unsupported database `{other}`: give a postgres:// URL, or omit it for SQLite in the data directory"
            )),
            None => Db::open_sqlite_dir(data_dir).await,
        }
    }

    /// Applies the migrations this database does not have yet (PostgreSQL: under sqlx's own advisory
    /// lock, so servers starting at once do not collide).
    async fn migrate(&self) -> Result<(), String> {
        on_pool!(self, p => MIGRATOR.run(p).await)
            .map_err(|e| format!("cannot bring the database schema up to date: {e}"))
    }

    /// Releases what this server holds on the database (PostgreSQL: the server lock), so that another
    /// server can start on it. Commits made after this fail.
    pub async fn release(&self) {
        if let Db::Postgres(pg) = self {
            if let Some(node) = &pg.node {
                node.leave(&pg.pool).await;
            }
            if let Some(lock) = &pg.lock {
                lock.release().await;
            }
            pg.pool.close().await;
        }
    }

    /// The ids of the games that are not over (waiting or running).
    pub async fn unfinished_games(&self) -> Result<Vec<String>, String> {
        let sql = "SELECT id FROM games WHERE status IN ('waiting', 'running') ORDER BY created_at";
        let rows: Vec<String> = on_pool!(self, p => {
            sqlx::query(sql).fetch_all(p).await.map_err(|e| e.to_string())?
                .iter().map(|r| r.try_get::<String, _>(0)).collect::<Result<Vec<_>, _>>()
        })
        .map_err(|e| e.to_string())?;
        Ok(rows)
    }

    /// The last seq of a game's log (0 when the game does not exist).
    pub async fn last_seq(&self, id: &str) -> Result<u64, String> {
        let sql = "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = $1";
        let seq: i64 = on_pool!(self, p => {
            sqlx::query_scalar(sql).bind(id).fetch_one(p).await
        })
        .map_err(|e| e.to_string())?;
        Ok(seq.max(0) as u64)
    }

    /// Every event of a game, in order (empty when the game does not exist).
    pub async fn load_events(&self, id: &str) -> Result<Vec<Event>, String> {
        self.load_events_after(id, 0).await
    }

    /// The events of a game after seq `after`, in order.
    pub async fn load_events_after(&self, id: &str, after: u64) -> Result<Vec<Event>, String> {
        let sql =
            "SELECT seq, at_ms, data FROM events WHERE game_id = $1 AND seq > $2 ORDER BY seq";
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        let rows: Vec<(i64, i64, String)> = on_pool!(self, p => {
            sqlx::query(sql).bind(id).bind(after).fetch_all(p).await.map_err(|e| e.to_string())?
                .iter()
                .map(|r| Ok::<_, sqlx::Error>((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|e| e.to_string())?;
        rows.into_iter()
            .map(|(seq, at, data)| {
                let data: EventData = serde_json::from_str(&data)
                    .map_err(|e| format!("game {id}: event {seq} is unreadable: {e}"))?;
                Ok(Event {
                    seq: seq as u64,
                    at,
                    data,
                })
            })
            .collect()
    }

    /// The events of a game after seq `after`, in order, each with the node and lease epoch that
    /// wrote it (both `None` on a single server): what settles a commit of unknown outcome.
    pub async fn load_written_after(&self, id: &str, after: u64) -> Result<Vec<Written>, String> {
        let sql = "SELECT seq, at_ms, data, node_id, epoch FROM events \
                   WHERE game_id = $1 AND seq > $2 ORDER BY seq";
        let after = i64::try_from(after).unwrap_or(i64::MAX);
        type Row5 = (i64, i64, String, Option<String>, Option<i64>);
        let rows: Vec<Row5> = on_pool!(self, p => {
            sqlx::query(sql).bind(id).bind(after).fetch_all(p).await.map_err(|e| e.to_string())?
                .iter()
                .map(|r| Ok::<_, sqlx::Error>((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?, r.try_get(4)?)))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(|e| e.to_string())?;
        rows.into_iter()
            .map(|(seq, at, data, node, epoch)| {
                let data: EventData = serde_json::from_str(&data)
                    .map_err(|e| format!("game {id}: event {seq} is unreadable: {e}"))?;
                Ok(Written {
                    event: Event {
                        seq: seq as u64,
                        at,
                        data,
                    },
                    node,
                    epoch,
                })
            })
            .collect()
    }

    /// The stored analysis of a game (its JSON text), if it has one.
    pub async fn load_analysis(&self, id: &str) -> Result<Option<String>, String> {
        let sql = "SELECT data FROM analyses WHERE game_id = $1";
        on_pool!(self, p => {
            sqlx::query(sql).bind(id).fetch_optional(p).await.map_err(|e| e.to_string())?
                .map(|r| r.try_get::<String, _>(0)).transpose().map_err(|e| e.to_string())
        })
    }

    /// Stores a game's analysis (a second one for the same game changes nothing: the first stays).
    /// Not an event: the analysis is derived from the log, so it is written on its own, outside the
    /// writer's batches.
    pub async fn save_analysis(&self, id: &str, at: i64, data: &str) -> Result<(), String> {
        let sql = "INSERT INTO analyses (game_id, created_at, data) VALUES ($1, $2, $3) \
                   ON CONFLICT (game_id) DO NOTHING";
        on_pool!(self, p => {
            sqlx::query(sql).bind(id).bind(at).bind(data).execute(p).await
                .map(|_| ()).map_err(|e| e.to_string())
        })
    }

    /// Commits one batch of writes in one transaction, with a few multi-row statements rather than
    /// two statements per request (every statement is a round trip to the database's worker, and the
    /// writer is the one serial stage every action passes through): the new games' rows, one upsert
    /// of the status of every other game of the batch (its last status), and the events in chunks of
    /// [`EVENT_ROWS`] rows. On PostgreSQL the transaction first checks that this server still holds
    /// its lock. A connection whose transaction failed is closed, not returned to the pool.
    async fn commit(&self, batch: &[WriteRequest]) -> Result<(), CommitError> {
        let mut events = Vec::new();
        for w in batch {
            for e in &w.events {
                let data =
                    serde_json::to_string(&e.data).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
                let epoch = w.epoch.unwrap_or(0);
                events.push((
                    w.game_id.as_str(),
                    e.seq as i64,
                    e.at,
                    e.data.kind(),
                    data,
                    epoch,
                ));
            }
        }
        // The last status of every game the batch touches that existed before it, in the order of
        // the game ids (the order every transaction locks games' rows in).
        let mut updates: Vec<&WriteRequest> = Vec::new();
        for w in batch.iter().filter(|w| !w.new_game) {
            match updates.iter_mut().find(|u| u.game_id == w.game_id) {
                Some(u) => *u = w,
                None => updates.push(w),
            }
        }
        updates.sort_by(|a, b| a.game_id.cmp(&b.game_id));
        // The leases that fence a cluster node's commit: every game of the batch that existed before
        // it, with the epoch the node wrote at (the first one of the batch for each game), in the
        // order of the game ids.
        let mut fenced: Vec<(&str, i64)> = Vec::new();
        for w in batch.iter().filter(|w| !w.new_game) {
            if !fenced.iter().any(|(g, _)| *g == w.game_id) {
                fenced.push((w.game_id.as_str(), w.epoch.unwrap_or(0)));
            }
        }
        fenced.sort_by(|a, b| a.0.cmp(b.0));
        macro_rules! write_all {
            ($conn:expr, $fence:expr, $bind:path, $end:path) => {
                async {
                    let fence: Fence<'_> = $fence;
                    let mut tx = $conn.begin().await?;
                    match fence {
                        Fence::None => {}
                        Fence::Lock(pid) => {
                            let holds: bool = sqlx::query_scalar(LOCK_HELD)
                            .bind(i64::from(NODE_LOCK.0))
                            .bind(i64::from(NODE_LOCK.1))
                            .bind(pid)
                            .fetch_one(&mut *tx)
                            .await?;
                            if !holds {
                                return Err(CommitError::LockLost(pid));
                            }
                        }
                        Fence::Leases(node) => {
                            // Each lease must be this node's, at the epoch it wrote with, unexpired;
                            // the row locks order this commit against a takeover. They are taken in
                            // the order of the game ids (as the heartbeat takes them), so that two
                            // transactions locking the same leases never wait for each other in a
                            // circle (`deadlock detected`).
                            for chunk in fenced.chunks(GAME_ROWS) {
                                let mut q = sqlx::QueryBuilder::new(
                                    "SELECT COUNT(*) FROM (SELECT l.game_id FROM leases l JOIN (",
                                );
                                q.push_values(chunk, |mut b, (game, epoch)| {
                                    b.push_bind(*game).push_bind(*epoch);
                                });
                                q.push(") AS f (game_id, epoch) ON l.game_id = f.game_id \
                                        AND l.epoch = f.epoch WHERE l.node_id = ");
                                q.push_bind(node.id.as_str());
                                q.push(" AND l.expires_at > ");
                                q.push(DB_NOW);
                                q.push(" ORDER BY l.game_id FOR UPDATE OF l) AS locked");
                                let touched: i64 =
                                    q.build_query_scalar().fetch_one(&mut *tx).await?;
                                if touched != chunk.len() as i64 {
                                    return Err(CommitError::LeaseLost);
                                }
                            }
                            for w in batch.iter().filter(|w| w.new_game) {
                                let mut q = sqlx::QueryBuilder::new(
                                    "INSERT INTO leases (game_id, node_id, epoch, expires_at) VALUES (",
                                );
                                q.push_bind(w.game_id.as_str());
                                q.push(", ");
                                q.push_bind(node.id.as_str());
                                q.push(", 1, ");
                                q.push(DB_NOW);
                                q.push(" + ");
                                q.push(crate::storage::cluster::LEASE_MS.to_string());
                                q.push(")");
                                q.build().execute(&mut *tx).await?;
                            }
                        }
                    }
                    let (writer, epoch_of) = match fence {
                        Fence::Leases(node) => (Some(node.id.as_str()), true),
                        _ => (None, false),
                    };
                    for w in batch.iter().filter(|w| w.new_game) {
                        sqlx::query("INSERT INTO games (id, game, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)")
                            .bind(&w.game_id).bind(&w.game).bind(w.status).bind(w.at).bind(w.at)
                            .execute(&mut *tx).await?;
                    }
                    for chunk in updates.chunks(GAME_ROWS) {
                        let mut q = sqlx::QueryBuilder::new("INSERT INTO games (id, game, status, created_at, updated_at) ");
                        q.push_values(chunk, |mut b, w| {
                            b.push_bind(w.game_id.as_str()).push_bind(w.game.as_str()).push_bind(w.status).push_bind(w.at).push_bind(w.at);
                        });
                        q.push(" ON CONFLICT (id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at");
                        q.build().execute(&mut *tx).await?;
                    }
                    for chunk in events.chunks(EVENT_ROWS) {
                        let mut q = sqlx::QueryBuilder::new("INSERT INTO events (game_id, seq, at_ms, kind, data, node_id, epoch) ");
                        q.push_values(chunk, |mut b, (game, seq, at, kind, data, epoch)| {
                            b.push_bind(*game).push_bind(*seq).push_bind(*at).push_bind(*kind).push_bind(data.as_str())
                                .push_bind(writer).push_bind(if epoch_of { Some(*epoch) } else { None });
                        });
                        q.build().execute(&mut *tx).await?;
                    }
                    // Accounts' seats and a game's end (results, ratings) in the same transaction
                    // as the events that give them.
                    for w in batch {
                        if !w.bindings.is_empty() {
                            $bind(&mut *tx, &w.game_id, &w.bindings).await?;
                        }
                        if let Some(end) = &w.end {
                            $end(&mut *tx, &w.game_id, w.at, end).await?;
                        }
                    }
                    if epoch_of {
                        // Every node learns of the new events once they are durable (`NOTIFY` is
                        // delivered at `COMMIT`); the payload only names them (`id:seq`), the
                        // listeners read the log. At most 100 games per payload (under 8,000 bytes).
                        let mut last: Vec<(&str, i64)> = Vec::new();
                        for (game, seq, ..) in &events {
                            match last.iter_mut().find(|(g, _)| g == game) {
                                Some(l) => l.1 = l.1.max(*seq),
                                None => last.push((game, *seq)),
                            }
                        }
                        for chunk in last.chunks(100) {
                            let payload = chunk
                                .iter()
                                .map(|(g, s)| format!("{g}:{s}"))
                                .collect::<Vec<_>>()
                                .join(" ");
                            sqlx::query("SELECT pg_notify($1, $2)")
                                .bind(crate::storage::cluster::CHANNEL)
                                .bind(payload)
                                .execute(&mut *tx)
                                .await?;
                        }
                    }
                    // Everything before this point failed "not written" (an uncommitted
                    // transaction is never durable); a failing `COMMIT` leaves the outcome unknown.
                    tx.commit().await.map_err(CommitError::AtCommit)?;
                    Ok::<(), CommitError>(())
                }
            };
        }
        match self {
            Db::Sqlite(pool) => {
                let mut conn = pool.acquire().await?;
                let result = write_all!(
                    conn,
                    Fence::None,
                    crate::storage::ratings::bind_seats_sqlite,
                    crate::storage::ratings::record_end_sqlite
                )
                .await;
                if result.is_err() {
                    conn.close_on_drop();
                }
                result
            }
            Db::Postgres(pg) => {
                let mut conn = pg.pool.acquire().await?;
                let fence = match (&pg.lock, &pg.node) {
                    (Some(lock), Some(node)) => {
                        // A node writes only while it shares the server lock (no plain server
                        // took the database meanwhile).
                        lock.pid().await.map_err(CommitError::NoLock)?;
                        Fence::Leases(node)
                    }
                    (None, Some(node)) => Fence::Leases(node),
                    (Some(lock), None) => {
                        Fence::Lock(lock.pid().await.map_err(CommitError::NoLock)?)
                    }
                    (None, None) => Fence::None,
                };
                let result = write_all!(
                    conn,
                    fence,
                    crate::storage::ratings::bind_seats_pg,
                    crate::storage::ratings::record_end_pg
                )
                .await;
                if result.is_err() {
                    conn.close_on_drop();
                }
                if let (Err(CommitError::LockLost(pid)), Some(lock)) = (&result, &pg.lock) {
                    lock.lost(*pid).await;
                }
                result
            }
        }
    }
}

/// Whether the backend `$3` holds the advisory lock (`$1`, `$2`): [`NODE_LOCK`], in either mode.
const LOCK_HELD: &str = "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' \
     AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 2 AND pid = $3 \
     AND granted)";

/// Whether the backend `pid` holds [`NODE_LOCK`] (in either mode).
async fn lock_held(pool: &PgPool, pid: i32) -> Result<bool, String> {
    sqlx::query_scalar(LOCK_HELD)
        .bind(i64::from(NODE_LOCK.0))
        .bind(i64::from(NODE_LOCK.1))
        .bind(pid)
        .fetch_one(pool)
        .await
        .map_err(|e| format!("cannot check the server lock: {e}"))
}

/// What a commit checks before it writes (inside its transaction).
#[derive(Clone, Copy)]
enum Fence<'a> {
    /// Nothing: SQLite, served by one server.
    None,
    /// The single server's PostgreSQL lock, held by the connection with this backend pid.
    Lock(i32),
    /// The per-game leases of a cluster node.
    Leases(&'a Node),
}

/// Why a batch failed. Every kind but [`CommitError::AtCommit`] is a definite "not written": it
/// failed before the transaction's `COMMIT` was sent, and an uncommitted transaction is never durable.
#[derive(Debug, thiserror::Error)]
enum CommitError {
    #[error("{0}")]
    Sql(sqlx::Error),
    /// A key already in the log (`events (game_id, seq)`, a game's id): another writer got there first.
    #[error("a row of the batch is already stored (another writer got there first): {0}")]
    Duplicate(sqlx::Error),
    /// The `COMMIT` itself failed (a connection lost while committing): it may have landed.
    #[error("the commit's outcome is unknown: {0}")]
    AtCommit(sqlx::Error),
    #[error(
        "this server lost its PostgreSQL server lock (lock connection {0}); nothing was written"
    )]
    LockLost(i32),
    #[error("{0}")]
    NoLock(String),
    #[error("this node no longer holds the lease of a game of the batch; nothing was written")]
    LeaseLost,
}

impl From<sqlx::Error> for CommitError {
    fn from(e: sqlx::Error) -> CommitError {
        if e.as_database_error()
            .is_some_and(|d| d.is_unique_violation())
        {
            CommitError::Duplicate(e)
        } else {
            CommitError::Sql(e)
        }
    }
}

impl CommitError {
    /// What is known of the failed batch's fate.
    fn failure(&self) -> WriteFailure {
        match self {
            CommitError::AtCommit(_) => WriteFailure::Unknown,
            _ => WriteFailure::NotWritten,
        }
    }
}

/// Rows of one multi-row `INSERT INTO events` (5 parameters each; SQLite allows 32,766 and PostgreSQL
/// 65,535 parameters per statement).
const EVENT_ROWS: usize = 1000;
/// Rows of one multi-row upsert of games' statuses (5 parameters each).
const GAME_ROWS: usize = 1000;

/// One game's new events (and its new status), to be committed together.
#[derive(Debug)]
pub struct WriteRequest {
    pub game_id: String,
    pub game: String,
    pub new_game: bool,
    pub status: &'static str,
    pub at: i64,
    pub events: Vec<Event>,
    /// Seats bound to accounts by these events (a creation's host seats, a join).
    pub bindings: Vec<crate::domain::ratings::SeatBinding>,
    /// Set when these events end the game: the accounts' results and ratings are recorded with them.
    pub end: Option<crate::domain::ratings::GameEnd>,
    /// A cluster node's lease epoch of the game (checked in the commit; `None` for a single server).
    pub epoch: Option<i64>,
}

/// Why a write was refused: storage is unavailable (a full disk, a lost database). Nothing of the
/// write was stored; the details are in the server's log.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "the change could not be saved (storage is unavailable); nothing was changed, try again later"
)]
pub struct WriteError;

/// A stored event and who wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    pub event: Event,
    /// The cluster node that wrote it (`None`: a single server).
    pub node: Option<String>,
    /// The lease epoch it was written at (`None`: a single server).
    pub epoch: Option<i64>,
}

/// Why a write failed, and what is known of its fate. Both answer the client with [`WriteError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WriteFailure {
    /// Definitely not written: refused before its `COMMIT` (a lost lease or server lock, a key
    /// another writer stored first, any error inside the transaction).
    #[error("{}", WriteError)]
    NotWritten,
    /// Perhaps written: the `COMMIT` failed or its answer was lost. Only the log can tell, by
    /// holding these very events (same writer, same contents) or not.
    #[error("{}", WriteError)]
    Unknown,
}

/// Storage faults injected by tests (none in normal operation): commits that land but whose answer
/// is lost (as when a connection breaks right after `COMMIT`), reads of the log that fail, and
/// commits held before they start (a writer stalled on its link to the database).
#[derive(Debug)]
pub struct Faults {
    lost_answers: AtomicU32,
    failed_reads: AtomicU32,
    /// Whether commits wait before they start (a writer stalled on its link to the database).
    hold: tokio::sync::watch::Sender<bool>,
    /// How many batches wait for [`Faults::release_commits`].
    waiting: AtomicU32,
    /// The game whose loads from the log wait (a slow read of one game's log).
    held_load: tokio::sync::watch::Sender<Option<String>>,
    /// How many loads wait for [`Faults::release_loads`].
    loads_waiting: AtomicU32,
}

impl Default for Faults {
    fn default() -> Faults {
        Faults {
            lost_answers: AtomicU32::new(0),
            failed_reads: AtomicU32::new(0),
            hold: tokio::sync::watch::Sender::new(false),
            waiting: AtomicU32::new(0),
            held_load: tokio::sync::watch::Sender::new(None),
            loads_waiting: AtomicU32::new(0),
        }
    }
}

impl Faults {
    /// From now on, commits wait before they start (as behind a stalled link to the database)
    /// until [`Faults::release_commits`].
    pub fn hold_commits(&self) {
        self.hold.send_replace(true);
    }

    /// Lets the held commits (and later ones) go on.
    pub fn release_commits(&self) {
        self.hold.send_replace(false);
    }

    /// How many batches wait, held by [`Faults::hold_commits`].
    pub fn held_commits(&self) -> u32 {
        self.waiting.load(Ordering::SeqCst)
    }

    /// Waits while commits are held.
    async fn wait_if_held(&self) {
        let mut rx = self.hold.subscribe();
        if !*rx.borrow_and_update() {
            return;
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let _ = rx.wait_for(|held| !*held).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
    }

    /// From now on, loads of game `id` from the log wait (as a slow read) until
    /// [`Faults::release_loads`].
    pub fn hold_loads(&self, id: &str) {
        self.held_load.send_replace(Some(id.to_string()));
    }

    /// Lets the held loads (and later ones) go on.
    pub fn release_loads(&self) {
        self.held_load.send_replace(None);
    }

    /// How many loads wait, held by [`Faults::hold_loads`].
    pub fn held_loads(&self) -> u32 {
        self.loads_waiting.load(Ordering::SeqCst)
    }

    /// Waits while loads of game `id` are held.
    pub async fn wait_if_load_held(&self, id: &str) {
        let mut rx = self.held_load.subscribe();
        if rx.borrow_and_update().as_deref() != Some(id) {
            return;
        }
        self.loads_waiting.fetch_add(1, Ordering::SeqCst);
        let _ = rx.wait_for(|held| held.as_deref() != Some(id)).await;
        self.loads_waiting.fetch_sub(1, Ordering::SeqCst);
    }

    /// The next `n` commits land, but each of their requests is answered as failed.
    pub fn lose_commit_answers(&self, n: u32) {
        self.lost_answers.store(n, Ordering::SeqCst);
    }

    /// The next `n` reads of a game's log (after a failed commit) fail.
    pub fn fail_log_reads(&self, n: u32) {
        self.failed_reads.store(n, Ordering::SeqCst);
    }

    fn take(counter: &AtomicU32) -> bool {
        counter
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Fails when a failed log read is injected.
    pub fn check_load(&self) -> Result<(), String> {
        if Faults::take(&self.failed_reads) {
            return Err("injected: the log cannot be read".into());
        }
        Ok(())
    }
}

/// The handle of the writer task.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<(WriteRequest, oneshot::Sender<Result<(), WriteFailure>>)>,
}

/// The most requests committed in one transaction.
const MAX_BATCH: usize = 512;

impl Writer {
    /// Starts the writer task.
    pub fn start(db: Db, faults: Arc<Faults>) -> Writer {
        let (tx, mut rx) =
            mpsc::channel::<(WriteRequest, oneshot::Sender<Result<(), WriteFailure>>)>(4096);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(MAX_BATCH);
            let mut replies = Vec::with_capacity(MAX_BATCH);
            while let Some((req, reply)) = rx.recv().await {
                batch.push(req);
                replies.push(reply);
                while batch.len() < MAX_BATCH {
                    match rx.try_recv() {
                        Ok((req, reply)) => {
                            batch.push(req);
                            replies.push(reply);
                        }
                        Err(_) => break,
                    }
                }
                let leaving = db.node().is_some_and(|n| n.stopped());
                let refused = |req: &WriteRequest, e: CommitError| {
                    let failure = e.failure();
                    if leaving {
                        // A node shutting down gave its leases back: its last commits are refused
                        // as expected (nothing acknowledged), not a storage error.
                        tracing::info!(game_id = %req.game_id, error = %e,
                            "commit refused: this node is leaving the cluster");
                        return failure;
                    }
                    tracing::error!(
                        game_id = %req.game_id,
                        events = req.events.len(),
                        error = %e,
                        written = ?failure,
                        "storage error: commit refused, nothing acknowledged"
                    );
                    failure
                };
                faults.wait_if_held().await;
                match db.commit(&batch).await {
                    Ok(()) => {
                        for (req, r) in batch.iter().zip(replies.drain(..)) {
                            if Faults::take(&faults.lost_answers) {
                                tracing::error!(game_id = %req.game_id,
                                    "storage error: injected: the answer to a commit is lost");
                                let _ = r.send(Err(WriteFailure::Unknown));
                            } else {
                                let _ = r.send(Ok(()));
                            }
                        }
                    }
                    Err(e) if batch.len() == 1 => {
                        if let Some(r) = replies.pop() {
                            let _ = r.send(Err(refused(&batch[0], e)));
                        }
                    }
                    Err(batch_err) if batch_err.failure() == WriteFailure::Unknown => {
                        // The batch may have landed: committing its requests again would find
                        // their own rows and call them "not written". The log decides each one.
                        for (req, reply) in batch.iter().zip(replies.drain(..)) {
                            let _ = reply.send(Err(WriteFailure::Unknown));
                            tracing::error!(game_id = %req.game_id, error = %batch_err,
                                "storage error: a batch's commit has an unknown outcome");
                        }
                    }
                    Err(batch_err) => {
                        // Nothing was written: isolate the failing request, committing each one
                        // alone.
                        tracing::warn!(
                            requests = batch.len(),
                            error = %batch_err,
                            "storage error: batch commit failed; retrying one by one"
                        );
                        for (req, reply) in batch.iter().zip(replies.drain(..)) {
                            let result = db
                                .commit(std::slice::from_ref(req))
                                .await
                                .map_err(|e| refused(req, e));
                            let _ = reply.send(result);
                        }
                    }
                }
                batch.clear();
            }
        });
        Writer { tx }
    }

    /// Commits `req`; returns once it is durable.
    pub async fn write(&self, req: WriteRequest) -> Result<(), WriteFailure> {
        let (reply, wait) = oneshot::channel();
        self.tx
            .send((req, reply))
            .await
            .map_err(|_| WriteFailure::NotWritten)?;
        wait.await.map_err(|_| WriteFailure::Unknown)?
    }
}
