//! Bounded resources: one anonymous client must not be able to starve others.
//! Connections per address, header and idle timeouts, per-address budgets that are never forgotten,
//! per-seat budgets of non-move events, no AI-against-AI games on a public server, JSON-only
//! state-changing requests.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_server::transport::http::AddressBudgets;
use tabula_server::wire::api::{Committed, Created, Lobby};
use tabula_server::{Limits, Storage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The longest any test here waits for the server to do something (a bound, not a measurement).
const WAIT: Duration = Duration::from_secs(20);

/// One HTTP/1.1 request with this content type and body, on a fresh connection; the status and JSON.
async fn post_as(addr: SocketAddr, path: &str, content_type: &str, body: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A connection to `addr` from the loopback address `from` (127.0.0.x: another client).
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(IpAddr::from(from), 0)).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Sends `GET /healthz` on a kept-alive connection and reads the answer's head and its body
/// (`ok`); returns the status line.
async fn health_on(s: &mut TcpStream, addr: SocketAddr) -> String {
    let req = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    while !String::from_utf8_lossy(&got).contains("\r\n\r\nok") {
        let n = tokio::time::timeout(WAIT, s.read(&mut buf))
            .await
            .expect("an answer")
            .expect("the connection is open");
        assert!(
            n > 0,
            "closed before answering: {:?}",
            String::from_utf8_lossy(&got)
        );
        got.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&got)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

/// Whether the server closes this connection (end of stream or reset) within [`WAIT`], reading and
/// dropping whatever it sends first.
async fn closed_by_server(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn state_changing_requests_accept_only_json() {
    let server = start(&temp_dir("json-only")).await;
    let addr = server.local_addr();
    let body = r#"{"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}]}"#;
    // What a cross-site HTML form can send without a preflight, and no content type at all.
    for ct in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let (status, v) = post_as(addr, "/api/games", ct, body).await;
        let r = Reply::<Created>::read(status, v);
        assert_eq!(r.status, 415, "{ct}: {}", r.raw);
        assert_eq!(r.err().code, "unsupported_media_type", "{ct}");
        assert!(r.err().message.contains("application/json"), "{}", r.raw);
    }
    let (status, _) = post_as(addr, "/api/records", "text/plain", "{}").await;
    assert_eq!(status, 415);
    // Nothing was created.
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    assert!(lobby.open.is_empty(), "{lobby:?}");
    // JSON (with a charset parameter) is served; reads need no content type.
    let (status, v) = post_as(addr, "/api/games", "application/json; charset=utf-8", body).await;
    let r = Reply::<Created>::read(status, v);
    assert_eq!(r.status, 201, "{}", r.raw);
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    assert_eq!(lobby.open.len(), 1, "{lobby:?}");
    server.shutdown().await.unwrap();
}

/// The hand-written limiter cleared every budget past 100,000 addresses, so a client could reset its
/// own by sending from many addresses (or wait for others to); `governor`'s keyed limiter forgets only
/// the addresses whose budget has refilled.
#[test]
fn an_address_budget_is_not_forgotten_after_many_other_addresses() {
    let budgets = AddressBudgets::new(1.0 / 3600.0, 2.0);
    let greedy: IpAddr = "10.0.0.1".parse().unwrap();
    assert!(budgets.check(greedy));
    assert!(budgets.check(greedy));
    assert!(!budgets.check(greedy), "the burst is spent");
    for i in 0..100_001u32 {
        let other = IpAddr::from((0x0b00_0000u32 + i).to_be_bytes());
        assert!(budgets.check(other), "{other} has its own budget");
    }
    budgets.tidy();
    assert!(!budgets.check(greedy), "still spent after 100,001 others");
    assert!(budgets.len() > 100_000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_offers_and_answers_are_rate_limited_per_seat() {
    let limits = Limits {
        seat_events_burst: 3,
        seat_events_period: Duration::from_secs(3600),
        ..Limits::default()
    };
    let server = start_with(
        registry(),
        Storage::SqliteDir(temp_dir("seat-events")),
        limits,
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 12).await;
    let draw = |seat: usize, op: &str| {
        let body = json!({"seat": seat, "token": tokens[seat], "op": op});
        let path = format!("/api/games/{id}/draw");
        async move { crate::common::post_as::<Committed>(addr, &path, body).await }
    };
    // Offer, decline, offer, decline, offer: seat 0's three offers pass, its fourth is refused.
    assert_eq!(draw(0, "offer").await.status, 200);
    assert_eq!(draw(1, "decline").await.status, 200);
    assert_eq!(draw(0, "offer").await.status, 200);
    assert_eq!(draw(1, "decline").await.status, 200);
    assert_eq!(draw(0, "offer").await.status, 200);
    let before = snap(addr, &id, 0, &tokens[0]).await.common.seq;
    let r = draw(0, "offer").await;
    assert_eq!(
        (r.status, r.code()),
        (429, Some("rate_limited")),
        "{}",
        r.raw
    );
    // Over a WebSocket too (the same seat's budget).
    let mut s0 = ws(addr, &id, Some((0, &tokens[0]))).await;
    next_msg(&mut s0).await;
    s0.send(&json!({"type": "draw", "id": 1, "op": "decline"}))
        .await
        .unwrap();
    let e = recv_error(&mut s0).await;
    assert_eq!(e.code, "rate_limited", "{e:?}");
    // Nothing was logged; the other seat keeps its own budget; a resignation is never refused.
    assert_eq!(snap(addr, &id, 0, &tokens[0]).await.common.seq, before);
    assert_eq!(draw(1, "decline").await.status, 200);
    let r = crate::common::post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 0, "token": tokens[0]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_against_ai_games_are_refused_unless_the_server_allows_them() {
    let ai_only =
        json!({"game": "duel", "seats": [{"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}]});
    let server = start(&temp_dir("ai-only")).await;
    let addr = server.local_addr();
    let r = crate::common::post_as::<Created>(addr, "/api/games", ai_only.clone()).await;
    assert_eq!(
        (r.status, r.code()),
        (400, Some("bad_request")),
        "{}",
        r.raw
    );
    assert!(r.err().message.contains("no human seat"), "{}", r.raw);
    assert_eq!(server.loaded_games(), 0);
    server.shutdown().await.unwrap();
    let limits = Limits {
        allow_ai_only_games: true,
        ..Limits::default()
    };
    let server = start_with(
        registry(),
        Storage::SqliteDir(temp_dir("ai-only-ok")),
        limits,
    )
    .await;
    let (status, v) = post(server.local_addr(), "/api/games", ai_only).await;
    assert_eq!(status, 201, "{v}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_per_address_are_capped_and_other_clients_are_still_served() {
    let limits = Limits {
        max_connections_per_ip: 4,
        header_read_timeout: Duration::from_secs(120),
        idle_timeout: Duration::from_secs(120),
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(temp_dir("conn-cap")), limits).await;
    let addr = server.local_addr();
    // One client holds four kept-alive connections (each answered, so each is counted).
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = connect_from([127, 0, 0, 1], addr).await;
        assert!(health_on(&mut s, addr).await.contains("200"));
        held.push(s);
    }
    // Its fifth is closed at once, before a byte is read.
    let mut fifth = connect_from([127, 0, 0, 1], addr).await;
    let _ = fifth
        .write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await;
    assert!(
        closed_by_server(&mut fifth).await,
        "a connection over the cap is closed"
    );
    // Another client is served meanwhile, and so are the held connections.
    let mut other = connect_from([127, 0, 0, 2], addr).await;
    assert!(health_on(&mut other, addr).await.contains("200"));
    assert!(health_on(&mut held[0], addr).await.contains("200"));
    // Once the client closes one, it may open another.
    drop(held.pop());
    let mut served = false;
    for _ in 0..200 {
        let mut s = connect_from([127, 0, 0, 1], addr).await;
        let req = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        if s.write_all(req.as_bytes()).await.is_ok() {
            let mut buf = Vec::new();
            let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut buf)).await;
            if String::from_utf8_lossy(&buf).starts_with("HTTP/1.1 200") {
                served = true;
                break;
            }
        }
        // The server has not seen the close yet: let it run.
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(served, "a freed slot is given again");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_slow_to_send_its_headers_is_disconnected() {
    let limits = Limits {
        header_read_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_secs(120),
        ..Limits::default()
    };
    let server = start_with(
        registry(),
        Storage::SqliteDir(temp_dir("slow-head")),
        limits,
    )
    .await;
    let addr = server.local_addr();
    let mut s = TcpStream::connect(addr).await.unwrap();
    // Half a request head, then silence (a "slowloris" client).
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    assert!(closed_by_server(&mut s).await, "the server closes it");
    // A prompt client is served.
    assert_eq!(get(addr, "/healthz").await.0, 200);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_closed() {
    let limits = Limits {
        header_read_timeout: Duration::from_secs(120),
        idle_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(temp_dir("idle")), limits).await;
    let addr = server.local_addr();
    // A kept-alive HTTP connection that asks nothing more.
    let mut s = TcpStream::connect(addr).await.unwrap();
    assert!(health_on(&mut s, addr).await.contains("200"));
    assert!(
        closed_by_server(&mut s).await,
        "an idle HTTP connection is closed"
    );
    // A WebSocket that neither sends nor receives anything after its snapshot.
    let (id, tokens) = create_duel(addr, 12).await;
    let mut w = ws(addr, &id, Some((0, &tokens[0]))).await;
    let first = next_msg(&mut w).await;
    assert!(first.snapshot().is_some(), "{first:?}");
    let rest = until_closed(&mut w).await;
    assert!(rest.is_empty(), "{rest:?}");
    server.shutdown().await.unwrap();
}

/// `GET path` from the loopback address `from`, with `X-Forwarded-For: xff` when given; the status.
async fn get_via(from: [u8; 4], addr: SocketAddr, path: &str, xff: Option<&str>) -> u16 {
    let mut s = connect_from(from, addr).await;
    let forwarded = xff.map_or(String::new(), |x| format!("X-Forwarded-For: {x}\r\n"));
    let req =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{forwarded}Connection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let text = String::from_utf8_lossy(&buf);
    text.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_through_a_trusted_proxy_are_limited_per_forwarded_client() {
    let limits = Limits {
        http_rate_per_sec: 0.001,
        http_burst: 2.0,
        max_connections_per_ip: 2,
        trusted_proxies: vec![IpAddr::from([127, 0, 0, 1])],
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(temp_dir("proxy")), limits).await;
    let addr = server.local_addr();
    // Through the proxy (127.0.0.1), each forwarded client has its own budget.
    for _ in 0..2 {
        assert_eq!(
            get_via([127, 0, 0, 1], addr, "/api/lobby", Some("203.0.113.1")).await,
            200
        );
    }
    assert_eq!(
        get_via([127, 0, 0, 1], addr, "/api/lobby", Some("203.0.113.1")).await,
        429,
        "the forwarded client's budget is spent"
    );
    // A client cannot escape its budget by writing its own X-Forwarded-For entry in front: the
    // rightmost untrusted entry is the one the proxy saw.
    assert_eq!(
        get_via(
            [127, 0, 0, 1],
            addr,
            "/api/lobby",
            Some("198.51.100.9, 203.0.113.1")
        )
        .await,
        429
    );
    assert_eq!(
        get_via([127, 0, 0, 1], addr, "/api/lobby", Some("203.0.113.2")).await,
        200,
        "another player behind the same proxy is still served"
    );
    // An untrusted peer's header is ignored: its requests count against its own address.
    for _ in 0..2 {
        assert_eq!(
            get_via([127, 0, 0, 2], addr, "/api/lobby", Some("203.0.113.50")).await,
            200
        );
    }
    assert_eq!(
        get_via([127, 0, 0, 2], addr, "/api/lobby", Some("203.0.113.51")).await,
        429,
        "an untrusted peer cannot choose its address"
    );
    // The proxy carries many players' connections: it is not capped per address.
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut s = connect_from([127, 0, 0, 1], addr).await;
        assert!(health_on(&mut s, addr).await.contains("200"));
        held.push(s);
    }
    server.shutdown().await.unwrap();
}
