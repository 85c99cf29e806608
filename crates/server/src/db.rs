//! Persistence: SQLite (a file in the data directory) or PostgreSQL.
//!
//! Two tables. `games(id, game, status, created_at, updated_at)` is an index for startup and listing;
//! `events(game_id, seq, at_ms, kind, data)` is the log, the source of truth (`data` is the JSON of
//! [`crate::model::EventData`]). Every write goes through one writer task that commits batches of
//! requests in one transaction each (group commit), and answers each request only after its commit:
//! an action is acknowledged only once it is durable. SQLite runs in WAL mode with `synchronous=FULL`.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::Row;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use tokio::sync::{mpsc, oneshot};

use crate::model::{Event, EventData};

/// A database connection pool of either kind.
#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

macro_rules! on_pool {
    ($db:expr, $p:ident => $body:expr) => {
        match $db {
            Db::Sqlite($p) => $body,
            Db::Postgres($p) => $body,
        }
    };
}

const SCHEMA: [&str; 3] = [
    "CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, game TEXT NOT NULL, status TEXT NOT NULL, \
     created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS events (game_id TEXT NOT NULL, seq BIGINT NOT NULL, at_ms BIGINT NOT NULL, \
     kind TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (game_id, seq))",
    "CREATE INDEX IF NOT EXISTS games_status ON games (status)",
];

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

    /// Connects to PostgreSQL (`postgres://…`).
    pub async fn open_postgres(url: &str) -> Result<Db, String> {
        let options =
            PgConnectOptions::from_str(url).map_err(|e| format!("bad PostgreSQL URL: {e}"))?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await
            .map_err(|e| format!("cannot connect to PostgreSQL: {e}"))?;
        let db = Db::Postgres(pool);
        db.migrate().await?;
        Ok(db)
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

    async fn migrate(&self) -> Result<(), String> {
        if let Db::Postgres(p) = self {
            // Concurrent `CREATE TABLE IF NOT EXISTS` can collide in PostgreSQL: serialise servers
            // starting at once with an advisory lock held for the transaction.
            let run = async {
                let mut tx = p.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock(72436)")
                    .execute(&mut *tx)
                    .await?;
                for stmt in SCHEMA {
                    sqlx::query(stmt).execute(&mut *tx).await?;
                }
                tx.commit().await
            };
            return run
                .await
                .map_err(|e: sqlx::Error| format!("cannot create the schema: {e}"));
        }
        for stmt in SCHEMA {
            on_pool!(self, p => sqlx::query(stmt).execute(p).await.map(|_| ()))
                .map_err(|e| format!("cannot create the schema: {e}"))?;
        }
        Ok(())
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

    /// Every event of a game, in order (empty when the game does not exist).
    pub async fn load_events(&self, id: &str) -> Result<Vec<Event>, String> {
        let sql = "SELECT seq, at_ms, data FROM events WHERE game_id = $1 ORDER BY seq";
        let rows: Vec<(i64, i64, String)> = on_pool!(self, p => {
            sqlx::query(sql).bind(id).fetch_all(p).await.map_err(|e| e.to_string())?
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

    /// Commits one batch of writes in one transaction, with a few multi-row statements rather than
    /// two statements per request (every statement is a round trip to the database's worker, and the
    /// writer is the one serial stage every action passes through): the new games' rows, one upsert
    /// of the status of every other game of the batch (its last status), and the events in chunks of
    /// [`EVENT_ROWS`] rows.
    async fn commit(&self, batch: &[WriteRequest]) -> Result<(), sqlx::Error> {
        let mut events = Vec::new();
        for w in batch {
            for e in &w.events {
                let data =
                    serde_json::to_string(&e.data).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
                events.push((w.game_id.as_str(), e.seq as i64, e.at, e.data.kind(), data));
            }
        }
        // The last status of every game the batch touches that existed before it.
        let mut updates: Vec<&WriteRequest> = Vec::new();
        for w in batch.iter().filter(|w| !w.new_game) {
            match updates.iter_mut().find(|u| u.game_id == w.game_id) {
                Some(u) => *u = w,
                None => updates.push(w),
            }
        }
        on_pool!(self, p => {
            let mut tx = p.begin().await?;
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
                let mut q = sqlx::QueryBuilder::new("INSERT INTO events (game_id, seq, at_ms, kind, data) ");
                q.push_values(chunk, |mut b, (game, seq, at, kind, data)| {
                    b.push_bind(*game).push_bind(*seq).push_bind(*at).push_bind(*kind).push_bind(data.as_str());
                });
                q.build().execute(&mut *tx).await?;
            }
            tx.commit().await
        })
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
}

/// The handle of the writer task.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<(WriteRequest, oneshot::Sender<Result<(), String>>)>,
}

/// The most requests committed in one transaction.
const MAX_BATCH: usize = 512;

impl Writer {
    /// Starts the writer task.
    pub fn start(db: Db) -> Writer {
        let (tx, mut rx) =
            mpsc::channel::<(WriteRequest, oneshot::Sender<Result<(), String>>)>(4096);
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
                match db.commit(&batch).await {
                    Ok(()) => {
                        for r in replies.drain(..) {
                            let _ = r.send(Ok(()));
                        }
                    }
                    Err(batch_err) => {
                        // Isolate the failing request: commit each one alone.
                        tracing::warn!("batch commit failed ({batch_err}); retrying one by one");
                        for (req, reply) in batch.iter().zip(replies.drain(..)) {
                            let result = db
                                .commit(std::slice::from_ref(req))
                                .await
                                .map_err(|e| format!("database error: {e}"));
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
    pub async fn write(&self, req: WriteRequest) -> Result<(), String> {
        let (reply, wait) = oneshot::channel();
        self.tx
            .send((req, reply))
            .await
            .map_err(|_| "the database writer has stopped".to_string())?;
        wait.await
            .map_err(|_| "the database writer has stopped".to_string())?
    }
}
