//! The load generator behind `tabula loadtest`: many concurrent games on a server over loopback, two
//! WebSocket clients per game (one per seat) playing random legal actions from the lists the server
//! sends, at a target total rate. Each seat pauses before answering for a random time (uniform, half
//! to one and a half times `games / rate`), so games are not synchronised.
//!
//! Latency is measured per action at the acting client: from sending the action to receiving the
//! broadcast `update` that carries it (which the server sends only after the commit, to every socket of
//! the game at once). Bounded: loopback addresses only, at most [`MAX_GAMES`] games and
//! [`MAX_DURATION`].
//!
//! Every wait is bounded, so a run always ends, whatever the server does:
//! * each answer of the server during setup (the health check, a game's creation, a WebSocket
//!   handshake, a seat's first snapshot) has [`LoadConfig::timeout`];
//! * the whole setup (creating the games, connecting every seat) has [`setup_budget`]: 30 s plus
//!   40 ms per game. Creation requests refused with `429` (the server's per-address budget, 200 at once
//!   then 50/s by default) are paced and retried within it; the WebSocket upgrades of the seats are not
//!   counted by the server, since they carry a valid seat token;
//! * play lasts [`LoadConfig::duration`] from the moment every seat that connected is ready, plus at
//!   most [`GRACE`] for actions in flight; a client still running then is stopped.
//!
//! So a run ends within `timeout + setup_budget + duration + GRACE` (plus a second). A game that could
//! not be created, and a seat that could not connect, lost its connection or had to be stopped, are
//! counted in the report (`failed_games`, `failed_clients`, the first failure's message) and the run
//! goes on with the others.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::time::Instant;

use serde_json::{Value, json};
use tabula_core::rand::RngExt;
use tokio::sync::{Mutex, oneshot, watch};

use crate::client::{WsClient, request_within};

/// The most concurrent games a load test may open.
pub const MAX_GAMES: usize = 5_000;
/// The longest a load test may run.
pub const MAX_DURATION: Duration = Duration::from_secs(600);

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// The server (must be a loopback address).
    pub addr: SocketAddr,
    /// The game kind to play (two-seat games).
    pub game: String,
    pub options: Value,
    /// Concurrent games (each with two WebSocket clients).
    pub games: usize,
    /// Target total actions per second (0: as fast as possible).
    pub rate: f64,
    /// How long to play.
    pub duration: Duration,
    /// Seed of the clients' random choices.
    pub seed: u64,
    /// The server's process id, to report its CPU time per action (Linux `/proc`); `None`: not
    /// reported.
    pub server_pid: Option<u32>,
    /// The longest wait for one answer of the server during setup (see the module documentation);
    /// [`DEFAULT_TIMEOUT`] is a good choice.
    pub timeout: Duration,
}

/// The default of [`LoadConfig::timeout`].
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long play may go on after the duration, for actions still in flight.
pub const GRACE: Duration = Duration::from_secs(5);

/// The most time setup (creating `games` games and connecting their seats) may take: 30 s plus 40 ms
/// per game (enough to create 5,000 games at the server's default 50 requests/s).
pub fn setup_budget(games: usize) -> Duration {
    Duration::from_secs(30) + Duration::from_millis(40).saturating_mul(games as u32)
}

/// CPU time (user + system) a process has used so far, in milliseconds, from `/proc/PID/stat`
/// (`None` for this process; `None` returned where `/proc` is not available). Assumes the usual
/// 100 clock ticks per second.
pub fn cpu_ms(pid: Option<u32>) -> Option<f64> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/stat"),
        None => "/proc/self/stat".to_string(),
    };
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name (which is in parentheses and may contain spaces): state is
    // field 3 of the line; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) * 10.0)
}

/// What was measured.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LoadReport {
    /// Games asked for.
    pub games: usize,
    /// WebSocket clients that connected and played (two per created game, less the failed ones).
    pub sockets: usize,
    pub games_finished: u64,
    pub actions: u64,
    /// Everything that went wrong: refused actions, failed clients and games not created.
    pub errors: u64,
    /// Actions the server refused (an `error` message; the seat then resynchronises).
    pub refused: u64,
    /// Games that could not be created (the server refused or did not answer in time).
    pub failed_games: u64,
    /// Seats that could not connect, lost their connection, or were still running after the grace
    /// period.
    pub failed_clients: u64,
    /// The first failure of a game or client, if any.
    pub first_failure: Option<String>,
    pub setup_secs: f64,
    pub elapsed_secs: f64,
    pub actions_per_sec: f64,
    pub latency_ms_p50: f64,
    pub latency_ms_p90: f64,
    pub latency_ms_p99: f64,
    pub latency_ms_max: f64,
    /// CPU time of the load generator's process per committed action (ms), during the run.
    pub client_cpu_ms_per_action: Option<f64>,
    /// CPU time of the server's process per committed action (ms), when its pid was given.
    pub server_cpu_ms_per_action: Option<f64>,
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "games: {} concurrent ({} WebSocket clients), {} finished during the run",
            self.games, self.sockets, self.games_finished
        )?;
        writeln!(
            f,
            "setup: {:.1} s; measured: {:.1} s",
            self.setup_secs, self.elapsed_secs
        )?;
        writeln!(
            f,
            "actions: {} committed ({:.0}/s), {} errors ({} refused actions, {} failed clients, {} games not created)",
            self.actions,
            self.actions_per_sec,
            self.errors,
            self.refused,
            self.failed_clients,
            self.failed_games
        )?;
        if let Some(e) = &self.first_failure {
            writeln!(f, "first failure: {e}")?;
        }
        write!(
            f,
            "action -> broadcast latency: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            self.latency_ms_p50, self.latency_ms_p90, self.latency_ms_p99, self.latency_ms_max
        )?;
        if let Some(c) = self.client_cpu_ms_per_action {
            write!(f, "\nCPU per action: load generator {c:.3} ms")?;
            if let Some(s) = self.server_cpu_ms_per_action {
                write!(f, ", server {s:.3} ms")?;
            }
        }
        Ok(())
    }
}

struct Stats {
    actions: AtomicU64,
    refused: AtomicU64,
    finished: AtomicU64,
    latencies: Mutex<Vec<f64>>,
}

/// Creates one game, retrying while the server answers `429` (with a growing pause, at most 1 s)
/// until `deadline`.
async fn create_game(cfg: &LoadConfig, deadline: Instant) -> Result<(String, Vec<String>), String> {
    let body = json!({"game": cfg.game, "options": cfg.options, "public": false,
                      "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]});
    let mut pause = Duration::from_millis(50);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(
                "the server kept refusing game creation (rate limited) until the setup deadline"
                    .into(),
            );
        }
        let (status, v) = request_within(
            cfg.addr,
            "POST",
            "/api/games",
            Some(&body),
            cfg.timeout.min(left),
        )
        .await?;
        if status == 429 {
            tokio::time::sleep(pause.min(left)).await;
            pause = (pause * 2).min(Duration::from_secs(1));
            continue;
        }
        if status != 201 {
            return Err(format!("creating a game failed ({status}): {v}"));
        }
        let id = v["id"].as_str().ok_or("no game id")?.to_string();
        let tokens = v["seats"]
            .as_array()
            .ok_or("no seats")?
            .iter()
            .map(|s| s["token"].as_str().map(str::to_string).ok_or("no token"))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok((id, tokens));
    }
}

/// The parts of a server message the load generator reads; everything else (the view, the seats, …)
/// is skipped by the parser without being built, so the generator spends little CPU per message.
#[derive(Debug, serde::Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", default)]
    ty: String,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    events: Vec<IncomingEvent>,
    #[serde(default, borrow)]
    legal: Vec<IncomingLegal<'a>>,
}

#[derive(Debug, serde::Deserialize)]
struct IncomingEvent {
    kind: String,
    #[serde(default)]
    actor: Option<Value>,
}

/// A legal action, kept as the raw JSON text the server sent (sent back as is).
#[derive(Debug, serde::Deserialize)]
struct IncomingLegal<'a> {
    #[serde(borrow)]
    action: &'a serde_json::value::RawValue,
}

fn parse(text: &str) -> Result<Incoming<'_>, String> {
    serde_json::from_str(text).map_err(|e| format!("server sent an unexpected message: {e}"))
}

/// One seat of one game.
struct SeatPlayer {
    addr: SocketAddr,
    id: String,
    seat: usize,
    token: String,
    think: Duration,
    seed: u64,
    timeout: Duration,
    /// Told once the seat has connected and has its first snapshot.
    ready: oneshot::Sender<()>,
    /// When play ends (set once every seat is ready, or setup ran out of time).
    end: watch::Receiver<Option<Instant>>,
    stats: Arc<Stats>,
}

/// Plays one seat until the game ends or the end of the run. Returns whether the game ended.
async fn play_seat(p: SeatPlayer) -> Result<bool, String> {
    let SeatPlayer {
        addr,
        id,
        seat,
        token,
        think,
        seed,
        timeout,
        ready,
        mut end,
        stats,
    } = p;
    // The token as a subprotocol, as the web client sends it (not in the URL).
    let mut ws = WsClient::connect_seat(
        addr,
        &format!("/api/games/{id}/ws?seat={seat}"),
        &token,
        timeout,
    )
    .await?;
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut text = ws
        .recv_text(timeout)
        .await?
        .ok_or("the server closed the connection before the first snapshot")?;
    if ready.send(()).is_err() {
        return Err("connected only after the end of setup".into());
    }
    let end = match end.wait_for(Option::is_some).await {
        Ok(e) => e.unwrap_or_else(Instant::now),
        Err(_) => return Err("the run was stopped".into()),
    };
    let mut sent: Option<Instant> = None;
    let mut next_id = 0i64;
    let me = json!({ "seat": seat });
    loop {
        let current = parse(&text)?;
        if current.status.as_deref() == Some("over") {
            return Ok(true);
        }
        if Instant::now() >= end {
            return Ok(false);
        }
        let ty = current.ty.as_str();
        if ty == "update" || ty == "snapshot" {
            if let Some(t0) = sent {
                let mine = current
                    .events
                    .iter()
                    .any(|e| e.kind == "action" && e.actor.as_ref() == Some(&me));
                if mine {
                    sent = None;
                    stats
                        .latencies
                        .lock()
                        .await
                        .push(t0.elapsed().as_secs_f64() * 1000.0);
                    stats.actions.fetch_add(1, Ordering::Relaxed);
                }
            }
            let legal = current.legal.len();
            if sent.is_none() && legal > 0 {
                if !think.is_zero() {
                    // Players are not synchronised: each pause is drawn uniformly from half to one and
                    // a half times the mean (the mean rate is kept, but the games that all started at
                    // the same instant do not keep acting in one burst).
                    let pause = think.mul_f64(rng.random_range(0.5..1.5));
                    tokio::time::sleep(pause).await;
                }
                let pick = rng.random_range(0..legal);
                let action = current.legal[pick].action.get();
                next_id += 1;
                let msg = format!(r#"{{"type":"action","id":{next_id},"action":{action}}}"#);
                sent = Some(Instant::now());
                ws.send_text(&msg).await?;
            }
        } else if ty == "error" {
            stats.refused.fetch_add(1, Ordering::Relaxed);
            sent = None;
            ws.send(&json!({"type": "sync"})).await?;
        }
        // Past the end only an action still in flight is waited for (so the measured time is the
        // run's, not the idle seats' wait).
        let grace = if sent.is_some() {
            GRACE
        } else {
            Duration::from_millis(1)
        };
        let wait = end.saturating_duration_since(Instant::now()) + grace;
        text = match ws.recv_text(wait).await {
            Ok(Some(m)) => m,
            Ok(None) => return Err("the server closed the connection".into()),
            Err(e) => {
                if Instant::now() >= end {
                    return Ok(false);
                }
                return Err(e);
            }
        };
    }
}

/// Runs a load test.
pub async fn run(cfg: LoadConfig) -> Result<LoadReport, String> {
    if !cfg.addr.ip().is_loopback() {
        return Err(format!(
            "the load generator only targets loopback addresses, not {}",
            cfg.addr
        ));
    }
    if cfg.games == 0 || cfg.games > MAX_GAMES {
        return Err(format!("games must be between 1 and {MAX_GAMES}"));
    }
    if cfg.duration.is_zero() || cfg.duration > MAX_DURATION {
        return Err(format!(
            "duration must be between 1 s and {} s",
            MAX_DURATION.as_secs()
        ));
    }
    if cfg.timeout.is_zero() || cfg.timeout > MAX_DURATION {
        return Err(format!(
            "timeout must be between 1 s and {} s",
            MAX_DURATION.as_secs()
        ));
    }
    let (status, _) = request_within(cfg.addr, "GET", "/healthz", None, cfg.timeout).await?;
    if status != 200 {
        return Err(format!("server at {} is not healthy ({status})", cfg.addr));
    }
    let setup_start = Instant::now();
    let setup_deadline = setup_start + setup_budget(cfg.games);
    // Each game's two seats alternate, so a game plays `rate / games` actions per second when each
    // seat waits this long before answering.
    let think = if cfg.rate > 0.0 {
        Duration::from_secs_f64(cfg.games as f64 / cfg.rate)
    } else {
        Duration::ZERO
    };
    let stats = Arc::new(Stats {
        actions: AtomicU64::new(0),
        refused: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        latencies: Mutex::new(Vec::new()),
    });
    let mut failures: Vec<String> = Vec::new();
    // Games are created 32 at a time; each retries on 429 until the setup deadline.
    let sem = Arc::new(tokio::sync::Semaphore::new(32));
    let mut tasks = Vec::new();
    for _ in 0..cfg.games {
        let cfg = cfg.clone();
        let sem = sem.clone();
        tasks.push(tokio::spawn(async move {
            let _p = sem.acquire().await;
            create_game(&cfg, setup_deadline).await
        }));
    }
    let mut created = Vec::with_capacity(cfg.games);
    let mut failed_games = 0u64;
    for t in tasks {
        match t.await {
            Ok(Ok(game)) => created.push(game),
            Ok(Err(e)) => {
                failed_games += 1;
                failures.push(e);
            }
            Err(e) => {
                failed_games += 1;
                failures.push(e.to_string());
            }
        }
    }
    if created.is_empty() {
        return Err(format!(
            "no game could be created; first failure: {}",
            failures.first().map_or("none", String::as_str)
        ));
    }
    let (end_tx, end_rx) = watch::channel(None);
    let mut players = Vec::new();
    let mut readies = Vec::new();
    for (g, (id, tokens)) in created.iter().enumerate() {
        for (seat, token) in tokens.iter().enumerate() {
            let (ready, is_ready) = oneshot::channel();
            readies.push(is_ready);
            players.push(tokio::spawn(play_seat(SeatPlayer {
                addr: cfg.addr,
                id: id.clone(),
                seat,
                token: token.clone(),
                think,
                seed: cfg.seed ^ ((g * 2 + seat) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                timeout: cfg.timeout,
                ready,
                end: end_rx.clone(),
                stats: stats.clone(),
            })));
        }
    }
    drop(end_rx);
    // Play starts once every seat is ready, or has failed (its sender dropped), or at the deadline.
    for is_ready in readies {
        let _ = tokio::time::timeout_at(setup_deadline.max(Instant::now()), is_ready).await;
    }
    let setup_secs = setup_start.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let end = t0 + cfg.duration;
    let _ = end_tx.send(Some(end));
    let cpu0 = (cpu_ms(None), cfg.server_pid.and_then(|p| cpu_ms(Some(p))));
    // Every client ends by `end + GRACE`; one that has not by then (a send the server does not read)
    // is stopped and counted as failed.
    let hard_stop = end + GRACE + Duration::from_secs(1);
    let mut failed_clients = 0u64;
    for mut p in players {
        match tokio::time::timeout_at(hard_stop, &mut p).await {
            Ok(Ok(Ok(true))) => {
                stats.finished.fetch_add(1, Ordering::Relaxed);
            }
            Ok(Ok(Ok(false))) => {}
            Ok(Ok(Err(e))) => {
                failed_clients += 1;
                failures.push(e);
            }
            Ok(Err(e)) => {
                failed_clients += 1;
                failures.push(e.to_string());
            }
            Err(_) => {
                p.abort();
                failed_clients += 1;
                failures.push("still running after the grace period; stopped".into());
            }
        }
    }
    let elapsed = t0.elapsed().as_secs_f64().max(1e-9);
    let cpu1 = (cpu_ms(None), cfg.server_pid.and_then(|p| cpu_ms(Some(p))));
    let mut lat = stats.latencies.lock().await.clone();
    lat.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| -> f64 {
        if lat.is_empty() {
            return 0.0;
        }
        let i = ((lat.len() as f64 - 1.0) * p).round() as usize;
        lat[i.min(lat.len() - 1)]
    };
    let actions = stats.actions.load(Ordering::Relaxed);
    let refused = stats.refused.load(Ordering::Relaxed);
    let per_action = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if actions > 0 => Some((b - a) / actions as f64),
        _ => None,
    };
    let sockets = (created.len() * 2).saturating_sub(failed_clients as usize);
    Ok(LoadReport {
        games: cfg.games,
        sockets,
        games_finished: stats.finished.load(Ordering::Relaxed) / 2,
        actions,
        errors: refused + failed_clients + failed_games,
        refused,
        failed_games,
        failed_clients,
        first_failure: failures.into_iter().next(),
        setup_secs,
        elapsed_secs: elapsed,
        actions_per_sec: actions as f64 / elapsed,
        latency_ms_p50: pct(0.5),
        latency_ms_p90: pct(0.9),
        latency_ms_p99: pct(0.99),
        latency_ms_max: lat.last().copied().unwrap_or(0.0),
        client_cpu_ms_per_action: per_action(cpu0.0, cpu1.0),
        server_cpu_ms_per_action: per_action(cpu0.1, cpu1.1),
    })
}

/// Runs a load test on a new Tokio runtime (for callers without one).
pub fn run_blocking(cfg: LoadConfig) -> Result<LoadReport, String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(run(cfg))
}
