//! `tabula serve` and `tabula loadtest`: thin wrappers over `tabula_server` (which owns the server's
//! runtime) and `tabula_tools` (the load generator, a client of the server like any other).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use tabula_core::dynamic::Registry;
use tabula_server::{BotFn, Limits, ServerConfig, Storage};

/// Options of `tabula serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Directory of the SQLite database (`tabula.sqlite3`), created if missing.
    #[arg(long, default_value = "./data")]
    pub data_dir: PathBuf,
    /// Use PostgreSQL instead of SQLite: a `postgres://user@host:port/db` URL.
    #[arg(long)]
    pub database: Option<String>,
    /// Serve the PostgreSQL database together with other nodes (a multi-node site behind a load
    /// balancer): the URL the other nodes reach this one at, e.g. `http://10.0.0.2:8080`. Each game is
    /// owned by one node at a time (a lease in the database); requests that reach another node are
    /// forwarded to it, and its games pass to the other nodes within seconds when it dies. Needs
    /// `--database` and `--cluster-secret`. Without it, a server refuses to share its database. When
    /// not given, it is read from the environment variable `TABULA_ADVERTISE` (if set).
    #[arg(long, value_name = "URL")]
    pub advertise: Option<String>,
    /// The secret the nodes of a multi-node site share (at least 16 characters), authenticating the
    /// requests they forward to each other. When not given, it is read from the environment
    /// variable `TABULA_CLUSTER_SECRET` (which keeps it out of the process list).
    #[arg(long, value_name = "SECRET")]
    pub cluster_secret: Option<String>,
    /// Threads that run AI seats at once (default: the number of cores).
    #[arg(long)]
    pub ai_workers: Option<usize>,
    /// Messages per second a WebSocket connection may send on average.
    #[arg(long, default_value_t = 20.0)]
    pub ws_rate: f64,
    /// HTTP API requests per second per client address on average (bursts of 200; a seat's own
    /// WebSocket upgrade is not counted).
    #[arg(long, default_value_t = 50.0)]
    pub http_rate: f64,
    /// An origin (`https://play.example.org`) whose pages may open WebSockets to this server besides
    /// its own pages (repeat for several; for a site behind a proxy that changes the `Host`).
    /// Browsers' connections from any other origin are refused.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,
    /// Mark the session cookies of signed-in players `Secure` (sent over HTTPS only). Give it when
    /// players reach the server over TLS (e.g. behind a TLS-terminating proxy).
    #[arg(long)]
    pub secure_cookies: bool,
    /// The address of a reverse proxy in front of this server (nginx: `127.0.0.1`; repeat for
    /// several). Requests through it are attributed to the client its `X-Forwarded-For` names, so
    /// rate limits apply per player rather than to the proxy, and its connections are not capped
    /// per address. Never name an address that untrusted clients can connect from.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// How the log on stderr is written: `text` lines for people, or `json` (one JSON object per
    /// line). Which messages: the `RUST_LOG` environment variable (e.g. `warn`,
    /// `tabula_server=debug`; default `info`).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Open connections (HTTP and WebSocket) per client address; more are closed at once. Raise it
    /// for `tabula loadtest`, whose clients all come from one address (two sockets per game).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections_per_ip: u64,
    /// Seconds a client has to send a request's headers (also the longest pause between two
    /// requests on a kept-alive connection).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout: u64,
    /// Seconds after which a connection (HTTP or WebSocket) on which nothing moved is closed (the
    /// web client pings every 10 s).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
    /// Allow games with no human seat (AI against AI). Off by default: on a public server they spend
    /// AI time no player waits for.
    #[arg(long)]
    pub allow_ai_games: bool,
}

/// The format of the server's log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// JSON lines (one object per message: timestamp, level, target, fields).
    Json,
}

/// Installs the log subscriber of `tabula serve`: stderr, level from `RUST_LOG` (default `info`).
/// A `RUST_LOG` that is not a valid filter is an error, not silently ignored.
fn init_logging(format: LogFormat) -> anyhow::Result<()> {
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => EnvFilter::try_new(&spec)
            .with_context(|| format!("RUST_LOG=`{spec}` is not a valid log filter"))?,
        _ => EnvFilter::new("info"),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
    installed.map_err(|e| anyhow::anyhow!("cannot install the logger: {e}"))
}

/// Options of `tabula loadtest`.
#[derive(Args, Debug)]
#[command(
    after_help = "Every wait is bounded: each answer of the server during setup has --timeout; \
setup (creating the games, paced when the server answers 429, and connecting every seat) takes at most \
30 s + 40 ms per game; play lasts --duration plus at most 5 s for actions in flight. Games that could \
not be created and clients that failed are reported, and the command then exits with status 2."
)]
pub struct LoadtestArgs {
    /// The server to load (loopback addresses only).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The two-seat game to play.
    #[arg(long, default_value = "kyo")]
    pub game: String,
    /// The game's options as a JSON object.
    #[arg(long, default_value = "{}")]
    pub options: String,
    /// Concurrent games (two WebSocket clients each), at most 5000.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Target total actions per second (0: as fast as possible).
    #[arg(long, default_value_t = 2000.0)]
    pub rate: f64,
    /// Seconds to play (at most 600).
    #[arg(long, default_value_t = 20)]
    pub duration: u64,
    /// Seed of the clients' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The server's process id: also report the server's CPU time per action (Linux).
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Seconds to wait for any one answer of the server during setup (a game's creation, a
    /// WebSocket handshake, a first snapshot).
    #[arg(long, default_value_t = 10)]
    pub timeout: u64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the server until Ctrl-C.
pub fn serve(args: ServeArgs, registry: Registry) -> anyhow::Result<()> {
    init_logging(args.log_format)?;
    let env = |k: &str| std::env::var(k).ok().filter(|s| !s.is_empty());
    let advertise = args.advertise.or_else(|| env("TABULA_ADVERTISE"));
    let secret = args.cluster_secret.or_else(|| {
        std::env::var("TABULA_CLUSTER_SECRET")
            .ok()
            .filter(|s| !s.is_empty())
            .filter(|_| advertise.is_some())
    });
    let storage = match (args.database, advertise, secret) {
        (Some(url), advertise, secret)
            if url.starts_with("postgres://") || url.starts_with("postgresql://") =>
        {
            match (advertise, secret) {
                (Some(advertise), Some(secret)) => {
                    let cluster =
                        tabula_server::storage::cluster::ClusterConfig { advertise, secret };
                    if let Err(e) = cluster.check() {
                        bail!("--advertise / --cluster-secret: {e}");
                    }
                    Storage::PostgresCluster { url, cluster }
                }
                (None, None) => Storage::Postgres(url),
                _ => bail!("--advertise and --cluster-secret go together"),
            }
        }
        (Some(other), ..) => bail!("--database must be a postgres:// URL, not `{other}`"),
        (None, Some(_), _) | (None, _, Some(_)) => {
            bail!(
                "--advertise and --cluster-secret need --database postgres://… (SQLite serves one node)"
            )
        }
        (None, None, None) => Storage::SqliteDir(args.data_dir),
    };
    let mut limits = Limits {
        ws_rate_per_sec: args.ws_rate,
        http_rate_per_sec: args.http_rate,
        ws_allowed_origins: args.allow_origins,
        max_connections_per_ip: usize::try_from(args.max_connections_per_ip).unwrap_or(usize::MAX),
        header_read_timeout: Duration::from_secs(args.header_timeout),
        idle_timeout: Duration::from_secs(args.idle_timeout),
        allow_ai_only_games: args.allow_ai_games,
        secure_cookies: args.secure_cookies,
        trusted_proxies: args.trusted_proxies,
        ..Limits::default()
    };
    if !(args.ws_rate.is_finite() && args.ws_rate > 0.0) {
        bail!("--ws-rate must be a positive number of messages per second");
    }
    if !(args.http_rate.is_finite() && args.http_rate > 0.0) {
        bail!("--http-rate must be a positive number of requests per second");
    }
    if let Some(w) = args.ai_workers {
        limits.ai_workers = w.max(1);
    }
    let bot: BotFn = Arc::new(|state, seat, level, seed| {
        tabula_ai::choose_action(state, seat, level, seed).map_err(|e| e.to_string())
    });
    let config = ServerConfig {
        registry,
        bot,
        analyst: Some(Arc::new(Engine)),
        addr: args.addr,
        storage,
        limits,
        clock: std::sync::Arc::new(tabula_server::SystemClock),
    };
    tabula_server::serve_blocking(config).context("the server stopped")
}

/// The AI crate's analysis and hints, for the server ([`tabula_server::services::analysis::Analyst`]), with
/// the default budget per decision and seed 0 (so a game's analysis is the one `tabula analyse`
/// prints for its record).
struct Engine;

/// Iterations of a hint's search (as many as an analysis spends choosing at each decision).
const HINT_ITERATIONS: u32 = tabula_ai::analysis::DEFAULT_ITERATIONS;

impl tabula_server::services::analysis::Analyst for Engine {
    fn analyse(
        &self,
        record: &tabula_core::record::JsonRecord,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<serde_json::Value, String> {
        let cfg = tabula_ai::analysis::AnalysisConfig::default();
        let analysis =
            tabula_ai::analysis::analyse_json(record, &cfg, progress).map_err(|e| e.to_string())?;
        serde_json::to_value(analysis).map_err(|e| e.to_string())
    }
    fn hint(
        &self,
        state: &dyn tabula_core::dynamic::DynState,
        seat: tabula_core::Seat,
        seed: u64,
    ) -> Result<serde_json::Value, String> {
        let hint = tabula_ai::analysis::hint_dyn(state, seat, HINT_ITERATIONS, seed)
            .map_err(|e| e.to_string())?;
        serde_json::to_value(hint).map_err(|e| e.to_string())
    }
}

/// Runs a bounded load test against a server on loopback.
pub fn loadtest(args: LoadtestArgs) -> anyhow::Result<()> {
    let options: serde_json::Value =
        serde_json::from_str(&args.options).context("--options must be a JSON object")?;
    let config = tabula_tools::loadtest::LoadConfig {
        addr: args.addr,
        game: args.game,
        options,
        games: args.games,
        rate: args.rate,
        duration: Duration::from_secs(args.duration),
        seed: args.seed,
        server_pid: args.server_pid,
        timeout: Duration::from_secs(args.timeout),
    };
    let report = tabula_tools::loadtest::run_blocking(config).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!("{report}");
    }
    if report.failed_games + report.failed_clients > 0 {
        bail!(
            "{} of {} games could not be created and {} clients failed; first failure: {}",
            report.failed_games,
            report.games,
            report.failed_clients,
            report.first_failure.as_deref().unwrap_or("unknown")
        );
    }
    Ok(())
}
