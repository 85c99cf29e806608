//! The load generator behind `tabula loadtest`: many concurrent games on a server over loopback, two
//! WebSocket clients per game (one per seat) playing random legal actions from the lists the server
//! sends, at a target total rate. Each seat pauses before answering for a random time (uniform, half
//! to one and a half times `games / rate`), so games are not synchronised.
//!
//! Latency is measured per action at the acting client: from sending the action to receiving the
//! broadcast `update` that carries it (which the server sends only after the commit, to every socket of
//! the game at once). Bounded: loopback addresses only, at most [`MAX_GAMES`] games and
//! [`MAX_DURATION`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tabula_core::rand::RngExt;
use tokio::sync::Mutex;

use crate::client::{WsClient, request};

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
    pub games: usize,
    pub sockets: usize,
    pub games_finished: u64,
    pub actions: u64,
    pub errors: u64,
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
            "actions: {} committed ({:.0}/s), {} errors",
            self.actions, self.actions_per_sec, self.errors
        )?;
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
    errors: AtomicU64,
    finished: AtomicU64,
    latencies: Mutex<Vec<f64>>,
}

async fn create_game(cfg: &LoadConfig) -> Result<(String, Vec<String>), String> {
    let body = json!({"game": cfg.game, "options": cfg.options, "public": false,
                      "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]});
    for attempt in 0..50 {
        let (status, v) = request(cfg.addr, "POST", "/api/games", Some(&body)).await?;
        if status == 429 {
            tokio::time::sleep(Duration::from_millis(50 + 20 * attempt)).await;
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
    Err("the server kept refusing game creation (rate limited)".into())
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

/// Plays one seat until the game ends or `deadline`. Returns whether the game ended.
struct SeatPlayer {
    addr: SocketAddr,
    id: String,
    seat: usize,
    token: String,
    think: Duration,
    seed: u64,
    start: Arc<tokio::sync::Barrier>,
    duration: Duration,
    stats: Arc<Stats>,
}

async fn play_seat(p: SeatPlayer) -> Result<bool, String> {
    let SeatPlayer {
        addr,
        id,
        seat,
        token,
        think,
        seed,
        start,
        duration,
        stats,
    } = p;
    let mut ws = WsClient::connect(
        addr,
        &format!("/api/games/{id}/ws?seat={seat}&token={token}"),
    )
    .await?;
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut text = ws
        .recv_text(Duration::from_secs(30))
        .await?
        .ok_or("closed")?;
    start.wait().await;
    let end = Instant::now() + duration;
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
            stats.errors.fetch_add(1, Ordering::Relaxed);
            sent = None;
            ws.send(&json!({"type": "sync"})).await?;
        }
        // Past the end only an action still in flight is waited for (so the measured time is the
        // run's, not the idle seats' wait).
        let grace = if sent.is_some() {
            Duration::from_secs(5)
        } else {
            Duration::from_millis(1)
        };
        let wait = end.saturating_duration_since(Instant::now()) + grace;
        text = match ws.recv_text(wait).await {
            Ok(Some(m)) => m,
            Ok(None) => return Err("server closed the connection".into()),
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
    let (status, _) = request(cfg.addr, "GET", "/healthz", None).await?;
    if status != 200 {
        return Err(format!("server at {} is not healthy ({status})", cfg.addr));
    }
    let setup_start = Instant::now();
    // Each game's two seats alternate, so a game plays `rate / games` actions per second when each
    // seat waits this long before answering.
    let think = if cfg.rate > 0.0 {
        Duration::from_secs_f64(cfg.games as f64 / cfg.rate)
    } else {
        Duration::ZERO
    };
    let stats = Arc::new(Stats {
        actions: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        latencies: Mutex::new(Vec::new()),
    });
    let mut created = Vec::with_capacity(cfg.games);
    let sem = Arc::new(tokio::sync::Semaphore::new(32));
    let mut tasks = Vec::new();
    for _ in 0..cfg.games {
        let cfg = cfg.clone();
        let sem = sem.clone();
        tasks.push(tokio::spawn(async move {
            let _p = sem.acquire().await;
            create_game(&cfg).await
        }));
    }
    for t in tasks {
        created.push(t.await.map_err(|e| e.to_string())??);
    }
    let start = Arc::new(tokio::sync::Barrier::new(cfg.games * 2 + 1));
    let mut players = Vec::new();
    for (g, (id, tokens)) in created.iter().enumerate() {
        for (seat, token) in tokens.iter().enumerate() {
            players.push(tokio::spawn(play_seat(SeatPlayer {
                addr: cfg.addr,
                id: id.clone(),
                seat,
                token: token.clone(),
                think,
                seed: cfg.seed ^ ((g * 2 + seat) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                start: start.clone(),
                duration: cfg.duration,
                stats: stats.clone(),
            })));
        }
    }
    start.wait().await;
    let setup_secs = setup_start.elapsed().as_secs_f64();
    let t0 = Instant::now();
    let cpu0 = (cpu_ms(None), cfg.server_pid.and_then(|p| cpu_ms(Some(p))));
    let mut failures = Vec::new();
    for p in players {
        match p.await {
            Ok(Ok(true)) => {
                stats.finished.fetch_add(1, Ordering::Relaxed);
            }
            Ok(Ok(false)) => {}
            Ok(Err(e)) => failures.push(e),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let elapsed = t0.elapsed().as_secs_f64().max(1e-9);
    let cpu1 = (cpu_ms(None), cfg.server_pid.and_then(|p| cpu_ms(Some(p))));
    if let Some(f) = failures.first() {
        return Err(format!("{} clients failed; first: {f}", failures.len()));
    }
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
    let per_action = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if actions > 0 => Some((b - a) / actions as f64),
        _ => None,
    };
    Ok(LoadReport {
        games: cfg.games,
        sockets: cfg.games * 2,
        games_finished: stats.finished.load(Ordering::Relaxed) / 2,
        actions,
        errors: stats.errors.load(Ordering::Relaxed),
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
