//! Load measurement in one process: starts a server (SQLite in a temporary directory, real games, a
//! random bot) on loopback, measures the memory of idle games, then runs the load generator.
//!
//! ```text
//! cargo run --release -p tabula-server --example loadtest -- [GAMES] [RATE] [SECONDS] [IDLE_GAMES]
//! ```
//! Defaults: 1000 games, 2000 actions/s, 20 s, 1000 idle games.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tabula_core::dynamic::Registry;
use tabula_server::{BotFn, Limits, ServerConfig, Storage};
use tabula_tools::client::request;
use tabula_tools::loadtest::{LoadConfig, run};

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: f64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let games = arg(0, 1000.0) as usize;
    let rate = arg(1, 2000.0);
    let secs = arg(2, 20.0) as u64;
    let idle = arg(3, 1000.0) as usize;
    let mut registry = Registry::new();
    registry.register::<kyo::Kyo>();
    let bot: BotFn = Arc::new(|_, _, _, _| Err("no AI in the load test".into()));
    let dir = std::env::temp_dir().join(format!("tabula-loadtest-{}", std::process::id()));
    let limits = Limits {
        http_rate_per_sec: 1e9,
        http_burst: 1e9,
        ..Limits::default()
    };
    let server = tabula_server::start(ServerConfig {
        registry,
        bot,
        analyst: None,
        addr: "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?,
        storage: Storage::SqliteDir(dir.clone()),
        limits,
        clock: std::sync::Arc::new(tabula_server::SystemClock),
    })
    .await
    .map_err(|e| e.to_string())?;
    let addr = server.local_addr();

    if idle > 0 {
        // Warm up allocator and code paths, then measure.
        let body = json!({"game": "kyo", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]});
        for _ in 0..20 {
            request(addr, "POST", "/api/games", Some(&body)).await?;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let before = rss_kib();
        for _ in 0..idle {
            let (s, v) = request(addr, "POST", "/api/games", Some(&body)).await?;
            if s != 201 {
                return Err(format!("create failed: {v}"));
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        let after = rss_kib();
        println!(
            "idle games: {idle} created; RSS {before} KiB -> {after} KiB: {:.1} KiB per idle game (Kyo, started, in memory)",
            (after.saturating_sub(before)) as f64 / idle as f64
        );
    }

    let report = run(LoadConfig {
        addr,
        game: "kyo".into(),
        options: json!({}),
        games,
        rate,
        duration: Duration::from_secs(secs),
        seed: 1,
        server_pid: None,
        timeout: tabula_tools::loadtest::DEFAULT_TIMEOUT,
    })
    .await?;
    println!("{report} (server and load generator in this one process)");
    println!("server RSS at the end: {} KiB", rss_kib());
    server.shutdown().await.map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
