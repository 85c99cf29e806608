//! Fairness and integrity: a replaced token cannot act even in the moment
//! of its replacement; nobody can choose or foresee a live game's seed, which is committed to from the
//! first message and revealed only at the end; imported records carry the result their replay gives;
//! simultaneous time-outs are a draw; pages answer only GET and HEAD; WebSockets only from the
//! server's own pages (and the origins its operator allows).

use std::net::SocketAddr;
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::record::{JsonRecord, seed_commitment};
use tabula_core::{Seat, SeatResult, ToAct};
use tabula_server::wire::api::{Committed, Created, Imported, Joined, Lobby};
use tabula_server::wire::game::{EventBody, MessageKind, SocketMsg, Status};
use tabula_server::{Limits, Storage};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A public Duel whose seat 0 the host joined; seat 1 is open (its creator holds its first token).
async fn open_duel(addr: SocketAddr) -> (String, Vec<String>) {
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seats": [0]}),
    )
    .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_racing_the_claim_that_replaces_its_token_is_refused() {
    // The creator of a public game watches its open seat 1 with the seat's first token. A stranger
    // claims the seat: the claim's commit waits for the database (another connection holds SQLite's
    // write lock) while holding the game. Meanwhile the creator's socket sends seat 1's action: the
    // socket's own check passes (the claim is not committed yet) and the action waits for the game
    // behind the claim. Once the claim is committed the action's token is no longer the seat's: it
    // must be refused, because every change is authorised under the lock that commits it.
    let dir = temp_dir("claim-race");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = open_duel(addr).await;
    let mut old = ws(addr, &id, Some((1, &tokens[1]))).await;
    recv_snapshot(&mut old).await;

    let pool = sqlite_pool(&dir).await;
    let mut lock = pool.acquire().await.unwrap();
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut *lock)
        .await
        .unwrap();
    let join = format!("/api/games/{id}/join");
    let claim = tokio::spawn(async move { post(addr, &join, json!({"seat": 1})).await });
    let mut busy = false;
    for _ in 0..100 {
        if room_is_busy(addr, &id).await {
            busy = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(busy, "the claim reached its commit");
    old.send(&json!({"type": "action", "id": 1, "notation": "secret:birchword"}))
        .await
        .unwrap();
    // The game stays busy with the claim for another second, ample time for the server to read the
    // action and pass the socket's own check, which a claim not yet committed cannot fail.
    assert!(room_is_busy(addr, &id).await, "the claim still waits");
    sqlx::query("ROLLBACK").execute(&mut *lock).await.unwrap();
    drop(lock);
    let (s, claimed) = claim.await.unwrap();
    let claimed = Reply::<Joined>::read(s, claimed);
    assert_eq!(claimed.status, 200, "{}", claimed.raw);
    let fresh = claimed.ok().token.unwrap();

    // The old token's action is refused, never acknowledged; then its socket is closed. The refusal
    // is the action's own answer (id 1) when the server read the action before the claim committed,
    // or the socket's revocation notice (no id) when a loaded machine let it read the action only
    // afterwards: either way `bad_token`, and no ack.
    let answer = recv_find(&mut old, |m| match m.other() {
        Some(o @ (SocketMsg::Ack { id: Some(1), .. } | SocketMsg::Error { id: Some(1), .. })) => {
            Some(o.clone())
        }
        Some(o @ SocketMsg::Error { code, .. }) if code == "bad_token" => Some(o.clone()),
        _ => None,
    })
    .await;
    assert!(
        matches!(&answer, SocketMsg::Error { code, .. } if code == "bad_token"),
        "{answer:?}"
    );
    until_closed(&mut old).await;
    // Seat 1 still owes its secret, and its new holder chooses it.
    let sn = snap(addr, &id, 1, &fresh).await;
    assert_eq!(sn.common.status, Status::Running);
    assert_eq!(sn.legal.len(), 2, "{sn:?}");
    let r = post_action(addr, &id, 1, &fresh, "secret:beechword").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replaced_tokens_cannot_resign_offer_draws_or_act_over_http() {
    let server = start(&temp_dir("claim-http")).await;
    let addr = server.local_addr();
    let (id, tokens) = open_duel(addr).await;
    let r = post_as::<Joined>(addr, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!(r.status, 200);
    for (path, body) in [
        (
            "action",
            json!({"seat": 1, "token": tokens[1], "notation": "secret:birchword"}),
        ),
        ("resign", json!({"seat": 1, "token": tokens[1]})),
        (
            "draw",
            json!({"seat": 1, "token": tokens[1], "op": "offer"}),
        ),
        ("rematch", json!({"seat": 1, "token": tokens[1]})),
    ] {
        // Each refused: the success body is never read.
        let got = post_as::<Value>(addr, &format!("/api/games/{id}/{path}"), body).await;
        assert_eq!(
            (got.status, got.code()),
            (403, Some("bad_token")),
            "{path}: {}",
            got.raw
        );
    }
    let sn = snap(addr, &id, 0, &tokens[0]).await;
    assert_eq!(sn.common.status, Status::Running);
    assert_eq!(sn.common.draw_offer, None);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_cannot_choose_a_live_games_seed() {
    let server = start(&temp_dir("no-seed")).await;
    let addr = server.local_addr();
    for seed in [json!(4242), json!("4242")] {
        let r = post_as::<Created>(
            addr,
            "/api/games",
            json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed}),
        )
        .await;
        assert_eq!((r.status, r.code()), (400, Some("bad_request")));
        assert!(r.err().message.contains("seed"), "{}", r.raw);
    }
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    assert!(lobby.open.is_empty(), "nothing was created");
    // Two games never share a seed (64 bits from the operating system).
    let (a, _) = create_duel(addr, 12).await;
    let (b, _) = create_duel(addr, 12).await;
    let commitment = async |id: &str| {
        get_as::<Snap>(addr, &format!("/api/games/{id}"))
            .await
            .ok()
            .common
            .seed_commitment
            .clone()
    };
    assert_ne!(commitment(&a).await, commitment(&b).await);
    server.shutdown().await.unwrap();
}

fn is_commitment(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seed_is_committed_from_the_first_message_and_revealed_only_at_the_end() {
    let server = start(&temp_dir("commitment")).await;
    let addr = server.local_addr();
    let created = post_as::<Created>(
        addr,
        "/api/games",
        json!({"game": "duel", "options": {"target": 5}, "seats": [{"kind": "human"}, {"kind": "human"}],
               "host_seats": [0, 1]}),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.raw);
    let created = created.ok();
    let commitment = created.seed_commitment.clone();
    assert!(is_commitment(&commitment), "{created:?}");
    let id = created.id.clone();
    let tokens: Vec<String> = (0..2)
        .map(|i| seat_token(&created.seats[i]).unwrap())
        .collect();
    // Every observer's first message carries the commitment, none the seed. Everything seen is kept
    // as its text, to search for the seed.
    let mut socks = [
        ws(addr, &id, Some((0, &tokens[0]))).await,
        ws(addr, &id, Some((1, &tokens[1]))).await,
        ws(addr, &id, None).await,
    ];
    let mut seen: Vec<(bool, String)> = Vec::new();
    for sock in &mut socks {
        let (text, first) = recv_game_text(sock, |m| m.common.kind == MessageKind::Snapshot).await;
        assert_eq!(first.common.seed_commitment, commitment);
        assert_eq!(first.common.seed, None);
        seen.push((first.common.status == Status::Over, text));
    }
    let (_, raw_lobby) = get(addr, "/api/lobby").await;
    let lobby: Lobby = decode(&raw_lobby);
    assert_eq!(lobby.live[0].seed_commitment, commitment, "{lobby:?}");
    seen.push((false, raw_lobby.to_string()));
    let r = get_as::<JsonRecord>(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(r.status, 409, "no record (and no seed) while the game runs");
    // Play to the end over HTTP; everything the sockets get meanwhile is kept.
    for _ in 0..40 {
        if http_step(addr, &id, &tokens).await.is_none() {
            break;
        }
    }
    let over = recv_game(&mut socks[2], |m| m.common.status == Status::Over).await;
    for sock in &mut socks {
        while let Ok(Some(text)) = sock.recv_text(Duration::from_millis(300)).await {
            let is_over = Msg::read(&text)
                .game()
                .is_some_and(|g| g.common.status == Status::Over);
            seen.push((is_over, text));
        }
    }
    let seed_text = over.common.seed.clone().expect("the seed, once over");
    let seed: u64 = seed_text.parse().unwrap();
    assert_eq!(seed_commitment(seed), commitment);
    // The seed appeared in no message before the end.
    for (is_over, m) in &seen {
        if *is_over {
            continue;
        }
        assert!(
            !m.contains(&seed_text),
            "the seed leaked before the end: {m}"
        );
    }
    // The record carries both; it passes the audit (the commitment, and every chance action).
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    // The seed is a JSON string (raw JSON: the type reads a number too).
    assert_eq!(
        record.get("seed"),
        Some(&json!(seed_text)),
        "a string: exact in every reader"
    );
    assert_wire::<JsonRecord>(&record);
    let rec: JsonRecord = decode(&record);
    assert_eq!(rec.seed_commitment.as_deref(), Some(commitment.as_str()));
    assert_eq!(rec.seed, seed);
    assert_eq!(rec.check_seed_commitment(), Ok(true));
    registry().get("duel").unwrap().replay(&rec, true).unwrap();
    // A record whose seed does not match its commitment is refused on import (forged as raw JSON).
    let mut forged = record.clone();
    forged["seed"] = json!((seed ^ 1).to_string());
    let r = post_as::<Imported>(addr, "/api/records", json!({"record": forged})).await;
    assert_eq!(r.status, 400, "{}", r.raw);
    assert!(r.err().message.contains("commitment"), "{}", r.raw);
    // The genuine one imports and keeps its seed.
    let r = post_as::<Imported>(addr, "/api/records", json!({"record": record})).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let imported = r.ok().id;
    let (_, again) = get(addr, &format!("/api/games/{imported}/record")).await;
    assert_eq!(again.get("seed"), Some(&json!(seed_text)));
    let again: JsonRecord = decode(&again);
    assert_eq!(again.seed_commitment.as_deref(), Some(commitment.as_str()));
    server.shutdown().await.unwrap();
}

/// A finished record of a Duel that seat `resigner` resigned at once.
async fn resigned_record(addr: SocketAddr, resigner: usize) -> Value {
    let (id, tokens) = create_duel(addr, 12).await;
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": resigner, "token": tokens[resigner]}),
    )
    .await;
    assert_eq!(r.status, 200);
    // Raw JSON: the tests alter it on purpose.
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    decode::<JsonRecord>(&record);
    record
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_with_an_altered_result_or_reason_is_refused_on_import() {
    let server = start(&temp_dir("import-result")).await;
    let addr = server.local_addr();
    let record = resigned_record(addr, 0).await;
    assert_eq!(
        decode::<JsonRecord>(&record).result.unwrap().reason,
        "North resigned"
    );
    let import = |r: Value| async move {
        post_as::<Imported>(addr, "/api/records", json!({"record": r})).await
    };
    let r = import(record.clone()).await;
    assert_eq!(r.status, 201, "the genuine record imports: {}", r.raw);
    // The winner swapped, the reason rewritten, the reason and winner changed together into a result
    // no end of this game gives: each refused.
    let mut swapped = record.clone();
    swapped["result"]["results"] = json!(["win", "loss"]);
    let mut reworded = record.clone();
    reworded["result"]["reason"] = json!("South was disqualified");
    let mut invented = record.clone();
    invented["result"] = json!({"results": ["draw", "loss"], "reason": "North resigned"});
    for bad in [swapped, reworded, invented] {
        let r = import(bad.clone()).await;
        assert_eq!(
            (r.status, r.code()),
            (400, Some("bad_request")),
            "{bad}: {}",
            r.raw
        );
    }
    // A result the rules reached must be that one, to the letter.
    let (id, tokens) = create_duel(addr, 3).await;
    for _ in 0..20 {
        if http_step(addr, &id, &tokens).await.is_none() {
            break;
        }
    }
    let (_, played) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(
        decode::<JsonRecord>(&played).result.unwrap().reason,
        "reached the target"
    );
    let mut reworded = played.clone();
    reworded["result"]["reason"] = json!("reached the target first");
    let r = import(reworded).await;
    assert_eq!(r.status, 400, "{}", r.raw);
    // Results the server gives outside the rules import: the other seat's resignation, a draw by
    // agreement of an unfinished game.
    let mut other = resigned_record(addr, 1).await;
    assert_eq!(import(other.clone()).await.status, 201);
    other["result"] = json!({"results": ["draw", "draw"], "reason": "draw by agreement"});
    assert_eq!(import(other).await.status, 201);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_clocks_running_out_during_a_simultaneous_setup_is_a_draw() {
    // Duel opens with both seats choosing a secret at once: both clocks run from the same moment.
    let dir = temp_dir("both-flag");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1],
               "clock": {"kind": "fischer", "initial_ms": 1000, "increment_ms": 0}}),
    )
    .await;
    let mut spec = ws(addr, &id, None).await;
    let first = recv_snapshot(&mut spec).await;
    assert_eq!(first.common.to_act, ToAct::Seats(vec![Seat(0), Seat(1)]));
    let over = recv_game(&mut spec, |m| m.common.status == Status::Over).await;
    let result = over.common.result.clone().unwrap();
    assert_eq!(
        result.results,
        [SeatResult::Draw, SeatResult::Draw],
        "{over:?}"
    );
    assert_eq!(result.reason, "North and South ran out of time at once");
    let timeouts: Vec<u8> = over
        .events
        .iter()
        .filter_map(|e| match e.body {
            EventBody::Timeout { seat } => Some(seat),
            _ => None,
        })
        .collect();
    assert_eq!(timeouts, vec![0, 1]);
    // The log says the same after a restart; the record imports with that result.
    server.shutdown().await.unwrap();
    let server = start(&dir).await;
    let addr = server.local_addr();
    let token0 = tokens[0].clone().unwrap();
    let sn = snap(addr, &id, 0, &token0).await;
    assert_eq!(sn.common.result, over.common.result);
    let (_, record) = get(addr, &format!("/api/games/{id}/record")).await;
    let (s, v) = post(addr, "/api/records", json!({"record": record})).await;
    assert_eq!(s, 201, "{v}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_outside_the_api_answer_only_get_and_head() {
    let server = start(&temp_dir("methods")).await;
    let addr = server.local_addr();
    for path in ["/", "/lobby", "/game/abc", "/index.html"] {
        assert_eq!(raw_status(addr, "GET", path).await, 200, "GET {path}");
        let head = raw_status(addr, "HEAD", path).await;
        assert_eq!(head, 200, "HEAD {path}");
        for method in ["POST", "PUT", "DELETE", "PATCH"] {
            let got = raw_status(addr, method, path).await;
            assert_eq!(got, 405, "{method} {path}");
        }
    }
    server.shutdown().await.unwrap();
}

/// The status of a bodiless request (read from the status line only).
async fn raw_status(addr: SocketAddr, method: &str, path: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 12];
    tokio::time::timeout(T, s.read_exact(&mut buf))
        .await
        .unwrap()
        .unwrap();
    std::str::from_utf8(&buf[9..12]).unwrap().parse().unwrap()
}

/// The HTTP status of a WebSocket handshake to the spectator's socket of `id` with these headers
/// (101 when it is accepted).
async fn upgrade_status(addr: SocketAddr, id: &str, headers: &[(&str, &str)]) -> u16 {
    let mut req = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .unwrap();
    for (k, v) in headers {
        req.headers_mut().insert(
            axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
            axum::http::HeaderValue::from_str(v).unwrap(),
        );
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((_, response)) => response.status().as_u16(),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("handshake failed: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_are_refused_to_pages_of_other_origins() {
    let limits = Limits {
        ws_allowed_origins: vec!["https://play.example.org".into()],
        ..Limits::default()
    };
    let server = start_with(registry(), Storage::SqliteDir(temp_dir("origin")), limits).await;
    let addr = server.local_addr();
    let (id, _) = create_duel(addr, 12).await;
    let own = format!("http://{addr}");
    // Non-browser clients send no Origin; the server's own pages; an allowed origin.
    assert_eq!(upgrade_status(addr, &id, &[]).await, 101);
    assert_eq!(upgrade_status(addr, &id, &[("Origin", &own)]).await, 101);
    assert_eq!(
        upgrade_status(addr, &id, &[("Origin", "https://play.example.org")]).await,
        101
    );
    // Another site, a look-alike, an opaque origin: refused.
    for other in [
        "https://evil.example",
        "http://127.0.0.1.evil.example",
        "null",
        "https://play.example.org.evil.example",
    ] {
        assert_eq!(
            upgrade_status(addr, &id, &[("Origin", other)]).await,
            403,
            "{other}"
        );
    }
    server.shutdown().await.unwrap();
}
