//! Fairness and integrity (issue 20, items 2, 3 and 7): a replaced token cannot act even in the moment
//! of its replacement; nobody can choose or foresee a live game's seed, which is committed to from the
//! first message and revealed only at the end; imported records carry the result their replay gives;
//! simultaneous time-outs are a draw; pages answer only GET and HEAD; WebSockets only from the
//! server's own pages (and the origins its operator allows).

use std::net::SocketAddr;
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::record::{JsonRecord, seed_commitment};
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
    recv_until(&mut old, |m| m["type"] == "snapshot").await;

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
    assert_eq!(s, 200, "{claimed}");
    let fresh = claimed["token"].as_str().unwrap().to_string();

    // The old token's action is refused, never acknowledged; then its socket is closed. The refusal
    // is the action's own answer (id 1) when the server read the action before the claim committed,
    // or the socket's revocation notice (no id) when a loaded machine let it read the action only
    // afterwards: either way `bad_token`, and no ack.
    let answer = recv_until(&mut old, |m| {
        (m["id"] == 1 && (m["type"] == "ack" || m["type"] == "error"))
            || (m["type"] == "error" && m["code"] == "bad_token")
    })
    .await;
    assert_eq!(
        (answer["type"].clone(), answer["code"].clone()),
        (json!("error"), json!("bad_token")),
        "{answer}"
    );
    until_closed(&mut old).await;
    // Seat 1 still owes its secret, and its new holder chooses it.
    let snap = snapshot(addr, &id, 1, &fresh).await;
    assert_eq!(snap["status"], "running");
    assert_eq!(snap["legal"].as_array().unwrap().len(), 2, "{snap}");
    let (s, v) = post_action(addr, &id, 1, &fresh, "secret:beechword").await;
    assert_eq!(s, 200, "{v}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replaced_tokens_cannot_resign_offer_draws_or_act_over_http() {
    let server = start(&temp_dir("claim-http")).await;
    let addr = server.local_addr();
    let (id, tokens) = open_duel(addr).await;
    let (s, _) = post(addr, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!(s, 200);
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
        let got = post(addr, &format!("/api/games/{id}/{path}"), body).await;
        assert_eq!(
            (got.0, got.1["error"]["code"].clone()),
            (403, json!("bad_token")),
            "{path}: {}",
            got.1
        );
    }
    let snap = snapshot(addr, &id, 0, &tokens[0]).await;
    assert_eq!(snap["status"], "running");
    assert_eq!(snap["draw_offer"], Value::Null);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_cannot_choose_a_live_games_seed() {
    let server = start(&temp_dir("no-seed")).await;
    let addr = server.local_addr();
    for seed in [json!(4242), json!("4242")] {
        let (s, v) = post(
            addr,
            "/api/games",
            json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed}),
        )
        .await;
        assert_eq!((s, v["error"]["code"].clone()), (400, json!("bad_request")));
        assert!(
            v["error"]["message"].as_str().unwrap().contains("seed"),
            "{v}"
        );
    }
    let (_, lobby) = get(addr, "/api/lobby").await;
    assert_eq!(lobby["open"], json!([]), "nothing was created");
    // Two games never share a seed (64 bits from the operating system).
    let (a, _) = create_duel(addr, 12).await;
    let (b, _) = create_duel(addr, 12).await;
    let ca = get(addr, &format!("/api/games/{a}")).await.1["seed_commitment"].clone();
    let cb = get(addr, &format!("/api/games/{b}")).await.1["seed_commitment"].clone();
    assert_ne!(ca, cb);
    server.shutdown().await.unwrap();
}

fn is_commitment(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seed_is_committed_from_the_first_message_and_revealed_only_at_the_end() {
    let server = start(&temp_dir("commitment")).await;
    let addr = server.local_addr();
    let (status, created) = post(
        addr,
        "/api/games",
        json!({"game": "duel", "options": {"target": 5}, "seats": [{"kind": "human"}, {"kind": "human"}],
               "host_seats": [0, 1]}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let commitment = created["seed_commitment"].clone();
    assert!(is_commitment(&commitment), "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = (0..2)
        .map(|i| created["seats"][i]["token"].as_str().unwrap().to_string())
        .collect();
    // Every observer's first message carries the commitment, none the seed.
    let mut socks = [
        ws(addr, &id, Some((0, &tokens[0]))).await,
        ws(addr, &id, Some((1, &tokens[1]))).await,
        ws(addr, &id, None).await,
    ];
    let mut seen: Vec<Value> = Vec::new();
    for sock in &mut socks {
        let first = recv_until(sock, |m| m["type"] == "snapshot").await;
        assert_eq!(first["seed_commitment"], commitment);
        assert_eq!(first["seed"], Value::Null);
        seen.push(first);
    }
    let (_, lobby) = get(addr, "/api/lobby").await;
    assert_eq!(lobby["live"][0]["seed_commitment"], commitment, "{lobby}");
    seen.push(lobby);
    let (s, _) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 409, "no record (and no seed) while the game runs");
    // Play to the end over HTTP; everything the sockets get meanwhile is kept.
    for _ in 0..40 {
        if http_step(addr, &id, &tokens).await.is_none() {
            break;
        }
    }
    let over = recv_until(&mut socks[2], |m| m["status"] == "over").await;
    for sock in &mut socks {
        while let Ok(Some(m)) = sock.recv(Duration::from_millis(300)).await {
            seen.push(m);
        }
    }
    let seed_text = over["seed"]
        .as_str()
        .expect("the seed, once over")
        .to_string();
    let seed: u64 = seed_text.parse().unwrap();
    assert_eq!(json!(seed_commitment(seed)), commitment);
    // The seed appeared in no message before the end.
    for m in &seen {
        if m["status"] == "over" {
            continue;
        }
        assert!(
            !m.to_string().contains(&seed_text),
            "the seed leaked before the end: {m}"
        );
    }
    // The record carries both; it passes the audit (the commitment, and every chance action).
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    assert_eq!(
        record["seed"],
        json!(seed_text),
        "a string: exact in every reader"
    );
    assert_eq!(record["seed_commitment"], commitment);
    assert_wire::<JsonRecord>(&record);
    let rec: JsonRecord = serde_json::from_value(record.clone()).unwrap();
    assert_eq!(rec.seed, seed);
    assert_eq!(rec.check_seed_commitment(), Ok(true));
    registry().get("duel").unwrap().replay(&rec, true).unwrap();
    // A record whose seed does not match its commitment is refused on import.
    let mut forged = record.clone();
    forged["seed"] = json!((seed ^ 1).to_string());
    let (s, v) = post(addr, "/api/records", json!({"record": forged})).await;
    assert_eq!(s, 400, "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("commitment"),
        "{v}"
    );
    // The genuine one imports and keeps its seed.
    let (s, v) = post(addr, "/api/records", json!({"record": record})).await;
    assert_eq!(s, 201, "{v}");
    let imported = v["id"].as_str().unwrap();
    let (_, again) = get(addr, &format!("/api/games/{imported}/record")).await;
    assert_eq!(again["seed"], json!(seed_text));
    assert_eq!(again["seed_commitment"], commitment);
    server.shutdown().await.unwrap();
}

/// A finished record of a Duel that seat `resigner` resigned at once.
async fn resigned_record(addr: SocketAddr, resigner: usize) -> Value {
    let (id, tokens) = create_duel(addr, 12).await;
    let (s, _) = post(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": resigner, "token": tokens[resigner]}),
    )
    .await;
    assert_eq!(s, 200);
    let (s, record) = get(addr, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, 200);
    record
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_with_an_altered_result_or_reason_is_refused_on_import() {
    let server = start(&temp_dir("import-result")).await;
    let addr = server.local_addr();
    let record = resigned_record(addr, 0).await;
    assert_eq!(record["result"]["reason"], "North resigned");
    let import = |r: Value| async move { post(addr, "/api/records", json!({"record": r})).await };
    let (s, v) = import(record.clone()).await;
    assert_eq!(s, 201, "the genuine record imports: {v}");
    // The winner swapped, the reason rewritten, the reason and winner changed together into a result
    // no end of this game gives: each refused.
    let mut swapped = record.clone();
    swapped["result"]["results"] = json!(["win", "loss"]);
    let mut reworded = record.clone();
    reworded["result"]["reason"] = json!("South was disqualified");
    let mut invented = record.clone();
    invented["result"] = json!({"results": ["draw", "loss"], "reason": "North resigned"});
    for bad in [swapped, reworded, invented] {
        let (s, v) = import(bad.clone()).await;
        assert_eq!(
            (s, v["error"]["code"].clone()),
            (400, json!("bad_request")),
            "{bad}: {v}"
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
    assert_eq!(played["result"]["reason"], "reached the target");
    let mut reworded = played.clone();
    reworded["result"]["reason"] = json!("reached the target first");
    let (s, v) = import(reworded).await;
    assert_eq!(s, 400, "{v}");
    // Results the server gives outside the rules import: the other seat's resignation, a draw by
    // agreement of an unfinished game.
    let mut other = resigned_record(addr, 1).await;
    assert_eq!(import(other.clone()).await.0, 201);
    other["result"] = json!({"results": ["draw", "draw"], "reason": "draw by agreement"});
    assert_eq!(import(other).await.0, 201);
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
    let first = recv_until(&mut spec, |m| m["type"] == "snapshot").await;
    assert_eq!(first["to_act"], json!({"seats": [0, 1]}));
    let over = recv_until(&mut spec, |m| m["status"] == "over").await;
    assert_eq!(over["result"]["results"], json!(["draw", "draw"]), "{over}");
    assert_eq!(
        over["result"]["reason"],
        "North and South ran out of time at once"
    );
    let timeouts: Vec<Value> = over["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "timeout")
        .map(|e| e["seat"].clone())
        .collect();
    assert_eq!(timeouts, vec![json!(0), json!(1)]);
    // The log says the same after a restart; the record imports with that result.
    server.shutdown().await.unwrap();
    let server = start(&dir).await;
    let addr = server.local_addr();
    let token0 = tokens[0].clone().unwrap();
    let snap = snapshot(addr, &id, 0, &token0).await;
    assert_eq!(snap["result"], over["result"]);
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
