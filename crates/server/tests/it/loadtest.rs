//! The load generator (`tabula loadtest`) against a default server, and against a server that drops
//! or stalls connections: every run ends, with what went wrong reported; and the per-address request
//! budget, which counts a spectator's WebSocket upgrade but not a seat's own.

use std::net::SocketAddr;
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_server::{Limits, Storage};
use tabula_tools::client::{WsClient, request_with_headers};
use tabula_tools::loadtest::{LoadConfig, LoadReport, run};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A hang detector, far above what the runs below take.
const HANG: Duration = Duration::from_secs(180);

fn config(addr: SocketAddr, games: usize, secs: u64) -> LoadConfig {
    LoadConfig {
        addr,
        game: "duel".into(),
        options: json!({"target": 40}),
        games,
        rate: 2000.0,
        duration: Duration::from_secs(secs),
        seed: 3,
        server_pid: None,
        timeout: tabula_tools::loadtest::DEFAULT_TIMEOUT,
    }
}

async fn run_bounded(cfg: LoadConfig) -> Result<LoadReport, String> {
    tokio::time::timeout(HANG, run(cfg))
        .await
        .expect("the load test ended")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_loadtest_runs_against_a_default_server() {
    // `tabula loadtest` plays 100 games (200 WebSocket clients) by default; `tabula serve` gives each
    // address 200 requests at once, then 50/s. The games' creations fit; the seats' upgrades are not
    // counted.
    let server = start_with(
        registry(),
        Storage::SqliteDir(temp_dir("load-default")),
        Limits::default(),
    )
    .await;
    let report = run_bounded(config(server.local_addr(), 100, 1))
        .await
        .unwrap();
    assert_eq!(report.games, 100);
    assert_eq!(report.sockets, 200, "{report}");
    assert_eq!(
        (report.failed_games, report.failed_clients, report.errors),
        (0, 0, 0),
        "{report}"
    );
    assert!(report.actions > 0, "{report}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_creation_is_paced_when_the_server_limits_requests() {
    // A server that allows 5 requests at once, then 20/s: 30 games are created within the setup
    // budget by retrying the refused creations.
    let limits = Limits {
        http_rate_per_sec: 20.0,
        http_burst: 5.0,
        ..Limits::default()
    };
    let server = start_with(
        registry(),
        Storage::SqliteDir(temp_dir("load-paced")),
        limits,
    )
    .await;
    let report = run_bounded(config(server.local_addr(), 30, 1))
        .await
        .unwrap();
    assert_eq!(
        (report.failed_games, report.failed_clients, report.sockets),
        (0, 0, 60),
        "{report}"
    );
    server.shutdown().await.unwrap();
}

/// What the faulty proxy does with a WebSocket upgrade.
#[derive(Clone, Copy)]
enum Fault {
    /// Forwards it.
    None,
    /// Accepts the connection and never answers.
    Silent,
    /// Closes the connection at once.
    Cut,
    /// Forwards it for a while, then cuts it (mid-game).
    CutLater,
}

/// A TCP proxy in front of `upstream` that forwards HTTP requests and mistreats WebSocket upgrades
/// in turn: forwarded, never answered, cut at once, cut after `later`.
async fn faulty_proxy(upstream: SocketAddr, later: Duration) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let faults = [Fault::None, Fault::Silent, Fault::Cut, Fault::CutLater];
        let mut upgrades = 0usize;
        loop {
            let Ok((client, _)) = listener.accept().await else {
                return;
            };
            let mut head = [0u8; 256];
            let n = match tokio::time::timeout(T, client.peek(&mut head)).await {
                Ok(Ok(n)) => n,
                _ => continue,
            };
            let fault = if String::from_utf8_lossy(&head[..n]).contains("/ws") {
                upgrades += 1;
                faults[upgrades % faults.len()]
            } else {
                Fault::None
            };
            tokio::spawn(async move {
                let mut client = client;
                match fault {
                    Fault::Silent => {
                        tokio::time::sleep(Duration::from_secs(3600)).await;
                        drop(client);
                    }
                    Fault::Cut => drop(client),
                    Fault::None | Fault::CutLater => {
                        let Ok(mut up) = TcpStream::connect(upstream).await else {
                            return;
                        };
                        let forward = tokio::io::copy_bidirectional(&mut client, &mut up);
                        match fault {
                            Fault::CutLater => {
                                let _ = tokio::time::timeout(later, forward).await;
                            }
                            _ => {
                                let _ = forward.await;
                            }
                        }
                    }
                }
            });
        }
    });
    addr
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_drops_and_stalls_connections_ends_the_run_with_failures_reported() {
    let server = start_with(
        registry(),
        Storage::SqliteDir(temp_dir("load-faulty")),
        Limits::default(),
    )
    .await;
    let proxy = faulty_proxy(server.local_addr(), Duration::from_secs(4)).await;
    let mut cfg = config(proxy, 8, 3);
    // The silent upgrades are given up after this long.
    cfg.timeout = Duration::from_secs(2);
    let report = run_bounded(cfg).await.unwrap();
    // 16 seats: a quarter forwarded, a quarter never answered, a quarter cut at once, a quarter cut
    // after 4 s (mid-game, or while a silent seat held up the start).
    assert_eq!(report.games, 8);
    assert!(report.failed_clients >= 8, "{report}");
    assert!(report.sockets <= 8, "{report}");
    assert!(report.errors >= report.failed_clients, "{report}");
    let failure = report.first_failure.clone().unwrap();
    assert!(!failure.is_empty(), "{report}");
    // The report says so.
    let text = report.to_string();
    assert!(text.contains("failed clients"), "{text}");
    assert!(text.contains("first failure"), "{text}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_budget_counts_a_spectators_upgrade_but_not_a_seats_own() {
    let limits = Limits {
        http_rate_per_sec: 0.01,
        http_burst: 4.0,
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(temp_dir("budget")), limits).await;
    let addr = server.local_addr();
    // One request of the budget.
    let (id, tokens) = create_duel(addr, 10).await;
    // A seat's own upgrades are not counted, however many.
    for i in 0..12 {
        let seat = i % 2;
        let mut s = ws(addr, &id, Some((seat, &tokens[seat]))).await;
        assert!(next_msg(&mut s).await.snapshot().is_some());
        s.close().await;
    }
    // Spectators are: three more fit, then 429.
    for _ in 0..3 {
        let mut s = ws(addr, &id, None).await;
        assert!(next_msg(&mut s).await.snapshot().is_some());
    }
    let err = WsClient::connect(addr, &format!("/api/games/{id}/ws"))
        .await
        .err()
        .unwrap();
    assert!(err.contains("429"), "{err}");
    // A wrong token is counted too (so refused for the budget before its token is looked at).
    let path = format!("/api/games/{id}/ws?seat=0&token={}", tokens[1]);
    let upgrade = [
        ("Connection", "Upgrade"),
        ("Upgrade", "websocket"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    let (s, v) = request_with_headers(addr, "GET", &path, &upgrade, b"")
        .await
        .unwrap();
    let r = Reply::<Value>::read(s, v);
    assert_eq!((r.status, r.code()), (429, Some("rate_limited")));
    // Any other request is refused the same way, in the API's JSON format, with a Retry-After.
    let mut raw = TcpStream::connect(addr).await.unwrap();
    raw.write_all(
        format!("GET /api/lobby HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let mut answer = String::new();
    tokio::time::timeout(T, raw.read_to_string(&mut answer))
        .await
        .unwrap()
        .unwrap();
    let lower = answer.to_ascii_lowercase();
    assert!(lower.starts_with("http/1.1 429"), "{answer}");
    assert!(lower.contains("retry-after: 1\r\n"), "{answer}");
    assert!(answer.contains("\"rate_limited\""), "{answer}");
    // The seats still connect.
    let mut s0 = ws(addr, &id, Some((0, &tokens[0]))).await;
    assert!(next_msg(&mut s0).await.snapshot().is_some());
    server.shutdown().await.unwrap();
}
