//! # tabula-server — the game server
//!
//! The single authority of every game played online: it validates every action with the game crates
//! (through the engine core's type-erased [`Registry`]; the server knows no rules), commits it to the
//! database, and only then acknowledges it and sends every seat and spectator its own view.
//!
//! * Protocol: HTTP + WebSocket, JSON, documented in `docs/protocol.md`; the HTTP endpoints are
//!   described by the OpenAPI document at `/api/openapi.json`, derived from the handlers
//!   (`#[utoipa::path]` on each, registered with `utoipa_axum`'s router: see [`transport::http`]); the bodies'
//!   types are in [`wire`], with their TypeScript declarations in `web/src/wire/`.
//! * Durability: the event log ([`domain::model::EventData`]) in SQLite or PostgreSQL ([`storage::db`]) is the source of
//!   truth; games are rebuilt by replaying it, at startup (every unfinished game, once, to resume its
//!   clock and AI seats and file it in the lobby's index) or on demand.
//! * Seats: human seats have secret tokens (only their SHA-256 is stored); AI seats are played by the
//!   [`BotFn`] on a pool of blocking worker threads, never on the network threads.
//! * Clocks (Fischer, correspondence) are enforced by one clock sweeper that follows every running
//!   game's next deadline (loaded or not; it loads a game whose time ran out) and checked at every
//!   request.
//! * Limits ([`Limits`]): message and body sizes; per-connection, per-address (`governor`) and per-seat
//!   rate limits; open connections per address, header and idle timeouts ([`transport::net`]); state-changing
//!   requests only as `application/json`; no AI-against-AI games unless allowed.
//! * Cancellation: a change, once started, runs to its end on a task of its own (committed, applied to
//!   the game in memory, broadcast), even if the HTTP client or WebSocket that asked goes away.
//! * Load: the load generator of the `tabula-tools` crate (`tabula loadtest`) drives a server over
//!   loopback with many WebSocket clients.
//! * Chat ([`services::chat`]): the players' and the spectators' channels of each game, stored with it.
//! * Accounts (optional): [`services::accounts`] (sign-up, sessions with CSRF tokens, sign-in rate limits) and
//!   [`domain::ratings`] (Glicko-2 per game kind, updated in the transaction that records a game's end).
//!
//! Start it with [`serve`] (runs until Ctrl-C) or [`start`] (returns a handle; tests use port 0).
//!
//! ## Decisions
//! * A game **starts** when every human seat has joined; before that actions are refused and clocks
//!   do not run. `host_seats` join at creation (both seats: hot-seat play).
//! * Lobby **claims** of an open seat hand out a fresh token that replaces the seat's original one
//!   (stored in the `join` event, so replay knows it). The old token is revoked everywhere: requests
//!   with it are refused, and a socket that authenticated with it is told (`bad_token`) and closed
//!   before it can receive anything rendered for the seat's new holder (a per-seat token count,
//!   [`services::rooms::Room::token_rev`]).
//! * WebSocket messages over the size limit get a `too_large` error before the connection is closed
//!   (also those so large that the reader stops at their frame header: the connection then stays
//!   open a moment, so a client still writing reads the refusal instead of a reset).
//! * **Resignation and timeout** end the game at once: that seat loses, every other seat wins (also
//!   with more than two seats: the server cannot remove a seat from a game whose rules it does not
//!   know). **Draws by agreement** are open to every game (the rules files forbid none): every seat must
//!   accept the pending offer; AI seats always decline; any seat action cancels the offer.
//! * **Fischer** clocks run for every seat that owes a decision (several during simultaneous hidden
//!   setups); the increment is added when a seat's decision streak ends (not per atomic action of a
//!   multi-action turn). **Correspondence** clocks give `days_per_move` days from the moment a seat starts
//!   owing a decision. Time keeps running while the server is down; a seat whose time ran out during
//!   the downtime loses when the server comes back.
//! * **Rematch** rotates the seats by one; every player keeps their token.
//! * **Records** are given only once a game is over (they contain hidden actions and the seed); a result
//!   the game did not reach itself (resignation, time, agreement) is kept in the record. On import the
//!   moves are replayed and checked by the game, and the result must be what the replay gives: the
//!   game's own outcome, or one the server ends a game with in that position.
//! * **Chance** is drawn from a `GameRng` seeded with the game's seed, which the server draws from the
//!   operating system's randomness (clients cannot choose it). Observers see only its commitment
//!   (SHA-256 of its little-endian bytes) until the game is over, then the seed (`tabula replay
//!   --audit-seed` checks both). After a restart the RNG is advanced by re-drawing every recorded
//!   chance action, so the continuation is the one the seed gives.
//! * Every change on a seat's behalf is **authorised under the game's lock**, in the critical section
//!   that commits it: a token a claim replaced a moment earlier cannot slip a change in.
//! * WebSockets are accepted from the server's own pages, the origins in
//!   [`Limits::ws_allowed_origins`] and clients that send no `Origin`.
//! * AI failures (an error or a refused action) fall back to a seeded random legal action, so a game
//!   never hangs on a broken AI.
//! * **Replay** (`GET /api/games/{id}/view/{n}`) rebuilds the position after `n` actions from the log,
//!   as that observer saw it; each game keeps checkpoints every [`services::rooms::REPLAY_STRIDE`] actions once
//!   replay is used, so a request applies at most that many actions (at most
//!   [`services::rooms::MAX_CHECKPOINTS`] per game: a longer game doubles its stride).
//! * **Memory**: a game leaves memory when nothing holds it (no socket, AI move or request
//!   in flight) and it is over or unchanged for [`Limits::room_idle`] (5 minutes); it is loaded from
//!   the log again when asked for. The lobby reads an index of public unfinished games' summaries,
//!   kept at every change, not the games in memory. A waiting game not every seat joined within
//!   [`Limits::waiting_expiry`] (7 days) of its last event ends with no winner (an `end` event whose
//!   result is a draw with the reason `expired: …`).
//! * **Broadcast cost**: each change is rendered once, once to JSON text for each observer some
//!   socket watches as (the shared part once, each distinct view once), and the texts are shared by
//!   all sockets of that observer. Figures: `docs/benchmarks/server.md`.

pub mod base;
pub mod domain;
pub mod services;
pub mod storage;
pub mod transport;
pub mod wire;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tabula_core::dynamic::Registry;

pub use base::time::{Clock, ManualClock, SystemClock};
pub use services::limits::Limits;
pub use services::rooms::ai::BotFn;

/// Where the games are stored.
#[derive(Debug, Clone)]
pub enum Storage {
    /// A SQLite file (`tabula.sqlite3`) in this directory.
    SqliteDir(PathBuf),
    /// A PostgreSQL URL (`postgres://…`), served by this server alone (it holds the database's
    /// server lock).
    Postgres(String),
    /// A PostgreSQL URL served by several nodes, this one among them ([`storage::cluster`]).
    PostgresCluster {
        url: String,
        cluster: storage::cluster::ClusterConfig,
    },
}

/// Everything the server needs.
#[derive(Clone)]
pub struct ServerConfig {
    pub registry: Registry,
    pub bot: BotFn,
    /// The engine of analyses and hints ([`services::analysis`]); `None`: those endpoints answer `503`.
    pub analyst: Option<Arc<dyn services::analysis::Analyst>>,
    pub addr: SocketAddr,
    pub storage: Storage,
    pub limits: Limits,
    /// The games' time ([`base::time`]): the wall clock ([`SystemClock`]) but in tests of clocks.
    pub clock: Arc<dyn Clock>,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("database: {0}")]
    Database(String),
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// A running server.
pub struct RunningServer {
    addr: SocketAddr,
    shared: Arc<services::app::App>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), std::io::Error>>,
    /// The server's own loops (the clock sweeper, the minute's sweep, a cluster node's leases and
    /// listener): stopped with the server, so a server stopped in a process that goes on (tests, an
    /// embedding program) never ends a game on time or writes to the database behind another's back.
    background: Vec<tokio::task::JoinHandle<()>>,
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        for task in &self.background {
            task.abort();
        }
    }
}

impl RunningServer {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }
    /// The number of games in memory.
    pub fn loaded_games(&self) -> usize {
        self.shared.loaded_games()
    }
    /// Drops idle games from memory now (the server does it every minute); returns how many.
    pub fn evict_idle(&self) -> usize {
        self.shared.evict_idle()
    }
    /// Forgets now what nobody uses any more — refilled budgets, the chat and analysis channels of
    /// games nobody watches (the server does it every minute, after evicting idle games).
    pub fn tidy(&self) {
        self.shared.tidy()
    }
    /// Expires the waiting games past [`Limits::waiting_expiry`] now (the server does it every
    /// minute); returns how many.
    pub async fn expire_waiting(&self) -> usize {
        self.shared.rooms.expire_waiting().await
    }
    /// Storage faults to inject (for tests of failure handling).
    pub fn faults(&self) -> &storage::db::Faults {
        &self.shared.faults
    }
    /// Stops accepting connections and waits for the server task.
    pub async fn shutdown(mut self) -> Result<(), ServerError> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        for task in &self.background {
            task.abort();
        }
        let stopped = match tokio::time::timeout(Duration::from_secs(5), &mut self.task).await {
            Ok(Ok(r)) => r.map_err(ServerError::Io),
            Ok(Err(e)) => Err(ServerError::Io(std::io::Error::other(e))),
            Err(_) => {
                self.task.abort();
                Ok(())
            }
        };
        // Another server may use the database from now on (PostgreSQL's server lock is released).
        self.shared.db.release().await;
        stopped
    }
    /// Waits until the server stops (it does not stop by itself).
    pub async fn wait(mut self) -> Result<(), ServerError> {
        match (&mut self.task).await {
            Ok(r) => r.map_err(ServerError::Io),
            Err(e) => Err(ServerError::Io(std::io::Error::other(e))),
        }
    }
}

/// Opens the database, resumes every unfinished game, and starts listening.
pub async fn start(config: ServerConfig) -> Result<RunningServer, ServerError> {
    let db = match &config.storage {
        Storage::SqliteDir(dir) => storage::db::Db::open_sqlite_dir(dir).await,
        Storage::Postgres(url) => storage::db::Db::open_postgres(url).await,
        Storage::PostgresCluster { url, cluster } => {
            storage::db::Db::open_postgres_cluster(url, cluster).await
        }
    }
    .map_err(ServerError::Database)?;
    let shared = Arc::new(services::app::App::new(
        config.registry,
        config.bot,
        db,
        config.limits,
        config.analyst,
        Arc::new(transport::peers::HttpPeers),
        config.clock,
    ));
    let resumed = shared
        .rooms
        .resume_all()
        .await
        .map_err(ServerError::Database)?;
    tracing::info!("resumed {resumed} unfinished games");
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| ServerError::Bind(config.addr, e))?;
    let addr = listener.local_addr()?;
    let app = transport::http::router(shared.clone());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let mut background = vec![tokio::spawn(shared.rooms.clone().run_clocks())];
    if shared.db.node().is_some() {
        // A cluster node: renew and claim leases, and follow the other nodes' commits.
        background.push(tokio::spawn(shared.rooms.clone().run_leases()));
        let app = shared.clone();
        background.push(tokio::spawn(async move { app.run_listener().await }));
    }
    let evictor = shared.clone();
    background.push(tokio::spawn(async move {
        // The first sweep a minute after start-up (not at once: a sweep racing the first requests
        // would expire or evict what they just made when the limits are tiny, as in tests).
        let period = Duration::from_secs(60);
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        loop {
            tick.tick().await;
            evictor.rooms.expire_waiting().await;
            evictor.evict_idle();
            evictor.tidy();
        }
    }));
    let conn_limits = transport::net::ConnLimits {
        header_read_timeout: shared.limits.header_read_timeout,
        idle_timeout: shared.limits.idle_timeout,
        max_per_ip: shared.limits.max_connections_per_ip.max(1),
        trusted_proxies: shared.limits.trusted_proxies.clone().into(),
    };
    let task = tokio::spawn(transport::net::serve(
        listener,
        app,
        conn_limits,
        async move {
            let _ = rx.await;
        },
    ));
    Ok(RunningServer {
        addr,
        shared,
        shutdown: Some(tx),
        task,
        background,
    })
}

/// Runs the server until Ctrl-C or `SIGTERM` on a new multi-threaded Tokio runtime (for callers
/// without one, like the `tabula` binary).
pub fn serve_blocking(config: ServerConfig) -> Result<(), ServerError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(serve(config))
}

/// Runs the server until Ctrl-C (`SIGINT`) or `SIGTERM` (what systemd and `docker stop` send), then
/// shuts it down gracefully (open requests finish, pending writes are committed).
pub async fn serve(config: ServerConfig) -> Result<(), ServerError> {
    raise_open_files_limit();
    let server = start(config).await?;
    tracing::info!("listening on http://{}", server.local_addr());
    println!("Tabula server listening on http://{}", server.local_addr());
    stop_signal().await?;
    tracing::info!("stopping");
    server.shutdown().await
}

/// Raises the open-files soft limit to the hard limit (each connection, WebSocket and database file
/// is one; at a soft limit of 1,024 silent sockets could starve SQLite of file handles), and says so
/// in the log.
pub fn raise_open_files_limit() {
    match rlimit::getrlimit(rlimit::Resource::NOFILE) {
        Ok((soft, hard)) => match rlimit::increase_nofile_limit(hard) {
            Ok(now) => tracing::info!(
                before = soft,
                now,
                hard,
                "open-files limit: soft limit raised to the hard limit"
            ),
            Err(e) => {
                tracing::warn!(soft, hard, error = %e, "open-files limit: cannot raise the soft limit")
            }
        },
        Err(e) => tracing::warn!(error = %e, "open-files limit: cannot read it"),
    }
}

/// Resolves on the first Ctrl-C or (on Unix) `SIGTERM`.
async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            r = tokio::signal::ctrl_c() => r,
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await
    }
}
