//! Several `tabula serve` nodes on one PostgreSQL database behind nginx (issue 25): two players on
//! different nodes play a Kyo game, a spectator on the third node sees every move in order, the
//! game's owner is killed with SIGKILL mid-game, the game finishes through the other nodes, and the
//! event log has no gap, no duplicate and no two writers of one lease epoch.
//!
//! Needs PostgreSQL (`TABULA_TEST_POSTGRES_URL`, set by `crates/server/scripts/with-postgres.sh`,
//! and its `psql`) and Debian's `nginx`: without them the test FAILS (it never skips).

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use tabula_tools::client::{WsClient, request};

/// The longest wait for any one thing (a node starting, an update arriving, a takeover).
const WAIT: Duration = Duration::from_secs(30);
const SECRET: &str = "multinode-test-secret-0123456789";

/// A free loopback port (bound, then released for the process that listens on it).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args([url, "-X", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .output()
        .expect("psql (PostgreSQL's client) runs: install Debian's postgresql package");
    assert!(
        out.status.success(),
        "psql failed on {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A fresh database on the test cluster.
fn fresh_database() -> String {
    let base = std::env::var("TABULA_TEST_POSTGRES_URL").unwrap_or_default();
    assert!(
        !base.is_empty(),
        "the multi-node test needs PostgreSQL: run it with crates/server/scripts/with-postgres.sh \
         (TABULA_TEST_POSTGRES_URL is unset)"
    );
    let name = format!("tabula_multinode_{}", std::process::id());
    psql(&base, &format!("DROP DATABASE IF EXISTS {name}"));
    psql(&base, &format!("CREATE DATABASE {name}"));
    let (head, tail) = base
        .rsplit_once('/')
        .expect("a postgres:// URL with a database");
    let query = tail
        .split_once('?')
        .map_or(String::new(), |(_, q)| format!("?{q}"));
    format!("{head}/{name}{query}")
}

/// Kills the processes it holds when the test ends (also when it fails).
struct Procs(Vec<Child>);

impl Drop for Procs {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn start_node(url: &str, port: u16, dir: &Path, i: usize) -> Child {
    let log = std::fs::File::create(dir.join(format!("node{i}.log"))).unwrap();
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .args(["--database", url])
        .args(["--advertise", &format!("http://127.0.0.1:{port}")])
        .args(["--cluster-secret", SECRET])
        .args(["--max-connections-per-ip", "1000"])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("the tabula binary runs")
}

/// nginx in front of the nodes, with the deployed proxy settings (`deploy/nginx/tabula-proxy.conf`,
/// included as `deploy/nginx.conf` does): what this test checks is what is deployed. Only the
/// process's own settings (paths under `dir`, the upstream's loopback ports) are the test's.
fn nginx_conf(dir: &Path, port: u16, nodes: &[u16]) -> PathBuf {
    let proxy = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/nginx/tabula-proxy.conf");
    let proxy = proxy
        .canonicalize()
        .expect("deploy/nginx/tabula-proxy.conf exists");
    let servers: String = nodes
        .iter()
        .map(|p| format!("        server 127.0.0.1:{p} max_fails=1 fail_timeout=2s;\n"))
        .collect();
    let d = dir.display();
    let p = proxy.display();
    let conf = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\n\
         error_log {d}/nginx-error.log warn;\nevents {{ worker_connections 256; }}\n\
         http {{\n    access_log off;\n    client_body_temp_path {d}/body;\n    proxy_temp_path {d}/proxy;\n\
         \x20   fastcgi_temp_path {d}/fastcgi;\n    uwsgi_temp_path {d}/uwsgi;\n    scgi_temp_path {d}/scgi;\n\
         \x20   map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}\n\
         \x20   limit_conn_zone $binary_remote_addr zone=tabula_per_ip:10m;\n\
         \x20   upstream tabula {{\n        least_conn;\n{servers}        keepalive 16;\n    }}\n\
         \x20   server {{\n        listen 127.0.0.1:{port};\n        client_max_body_size 5m;\n\
         \x20       location / {{ include {p}; }}\n    }}\n}}\n"
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, conf).unwrap();
    path
}

fn start_nginx(dir: &Path, conf: &Path) -> Child {
    let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("the multi-node test needs nginx: install Debian's nginx package");
    let log = std::fs::File::create(dir.join("nginx.out")).unwrap();
    Command::new(nginx)
        .arg("-c")
        .arg(conf)
        .arg("-p")
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("nginx starts")
}

async fn until_healthy(addr: SocketAddr, what: &str, dir: &Path) {
    let start = std::time::Instant::now();
    loop {
        if let Ok((200, _)) = request(addr, "GET", "/healthz", None).await {
            return;
        }
        assert!(
            start.elapsed() < WAIT,
            "{what} did not come up; logs in {}",
            dir.display()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn addr(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}

async fn connect(at: SocketAddr, id: &str, seat: Option<(usize, &str)>) -> WsClient {
    let path = match seat {
        Some((s, t)) => format!("/api/games/{id}/ws?seat={s}&token={t}"),
        None => format!("/api/games/{id}/ws"),
    };
    let mut ws = WsClient::connect(at, &path).await.unwrap();
    let first = ws.recv(WAIT).await.unwrap().unwrap();
    assert_eq!(first["type"], "snapshot", "{first}");
    ws
}

/// Reads `ws` until it has seen the game at `seq` (or later); returns every message read.
async fn until_seq(ws: &mut WsClient, seq: u64) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let m = ws
            .recv(WAIT)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("no update to seq {seq}; got {seen:?}"));
        let at = m["seq"].as_u64();
        seen.push(m);
        if at.is_some_and(|s| s >= seq) {
            return seen;
        }
    }
}

/// The seqs and events of every `update` among `messages`.
fn updates(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .filter(|m| m["type"] == "update")
        .flat_map(|m| m["events"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// Plays one action for `seat` over `ws` (the first legal action of `snapshot`) and waits for its
/// ack; returns the new seq.
async fn play(ws: &mut WsClient, legal: &Value, n: u64) -> Result<u64, Value> {
    let action = legal[0]["action"].clone();
    ws.send(&json!({"type": "action", "id": n, "action": action}))
        .await
        .unwrap();
    loop {
        let m = ws
            .recv(WAIT)
            .await
            .unwrap()
            .expect("an answer to the action");
        if m["id"] == json!(n) && m["type"] == "ack" {
            return Ok(m["seq"].as_u64().unwrap());
        }
        if m["id"] == json!(n) && m["type"] == "error" {
            return Err(m);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_behind_nginx_survive_a_killed_owner() {
    let url = fresh_database();
    let dir = std::env::temp_dir().join(format!("tabula-multinode-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ports = [free_port(), free_port(), free_port()];
    let lb = free_port();
    let mut procs = Procs(Vec::new());
    for (i, p) in ports.iter().enumerate() {
        procs.0.push(start_node(&url, *p, &dir, i));
    }
    for p in ports {
        until_healthy(addr(p), "a node", &dir).await;
    }
    let conf = nginx_conf(&dir, lb, &ports);
    procs.0.push(start_nginx(&dir, &conf));
    until_healthy(addr(lb), "nginx", &dir).await;
    let [a, b, c] = ports.map(addr);
    let lb = addr(lb);
    // The cluster's internal route is refused through the proxy (issue 35, item 12): the nodes reach
    // each other directly, as the forwarding below shows.
    let (s, v) = request(lb, "POST", "/internal/games/x/commit", Some(&json!({})))
        .await
        .unwrap();
    assert_eq!(s, 404, "{v}");

    // Node A creates the game (and owns it); seat 1 joins on node B through its link.
    let (s, created) = request(
        a,
        "POST",
        "/api/games",
        Some(&json!({"game": "kyo", "seats": [{"kind": "human"}, {"kind": "human"}],
            "host_seats": [0], "clock": {"kind": "fischer", "initial_ms": 600000, "increment_ms": 0}})),
    )
    .await
    .unwrap();
    assert_eq!(s, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = |i: usize| {
        created["seats"][i]["token"]
            .as_str()
            .map(str::to_string)
            .or_else(|| {
                created["seats"][i]["join_url"]
                    .as_str()
                    .and_then(|u| u.rsplit(['/', '#']).next())
                    .map(str::to_string)
            })
            .unwrap()
    };
    let (t0, t1) = (token(0), token(1));
    let (s, joined) = request(
        b,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({"seat": 1, "token": t1})),
    )
    .await
    .unwrap();
    assert_eq!(s, 200, "{joined}");

    let mut p0 = connect(a, &id, Some((0, &t0))).await;
    let mut p1 = connect(b, &id, Some((1, &t1))).await;
    let mut spectator = connect(c, &id, None).await;
    let mut lb_spectator = connect(lb, &id, None).await;

    // The players' chat crosses nodes: stored by node A, pushed live to the player on node B.
    let (s, sent) = request(
        a,
        "POST",
        &format!("/api/games/{id}/chat"),
        Some(&json!({"channel": "players", "seat": 0, "token": t0, "text": "good luck"})),
    )
    .await
    .unwrap();
    assert_eq!(s, 201, "{sent}");
    loop {
        let m = p1
            .recv(WAIT)
            .await
            .unwrap()
            .expect("the chat line reaches the player on another node");
        if m["type"] == "chat" {
            assert_eq!(m["channel"], "players", "{m}");
            assert_eq!(m["message"]["text"], "good luck", "{m}");
            break;
        }
    }
    let (_, snap) = request(c, "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    let mut seq = snap["seq"].as_u64().unwrap();
    let first_seq = seq;
    let mut spectator_log = Vec::new();
    let mut lb_log = Vec::new();
    let mut played = Vec::new();

    // Plays `moves` actions, alternating seats by whose turn it is, each on that seat's socket;
    // after each, every socket has seen it.
    let mut n = 0u64;
    macro_rules! play_moves {
        ($moves:expr, $p0:expr) => {
            for _ in 0..$moves {
                let (_, snap) = request(
                    c,
                    "GET",
                    &format!("/api/games/{id}?seat=0&token={t0}"),
                    None,
                )
                .await
                .unwrap();
                if snap["status"] != "running" {
                    break;
                }
                let seat = snap["to_act"]["seat"].as_u64().unwrap();
                let legal = if seat == 0 {
                    snap["legal"].clone()
                } else {
                    let (_, s1) = request(
                        c,
                        "GET",
                        &format!("/api/games/{id}?seat=1&token={t1}"),
                        None,
                    )
                    .await
                    .unwrap();
                    s1["legal"].clone()
                };
                n += 1;
                let ws = if seat == 0 { &mut $p0 } else { &mut p1 };
                let new = play(ws, &legal, n)
                    .await
                    .unwrap_or_else(|e| panic!("move {n} refused: {e}"));
                assert!(new > seq, "seq went from {seq} to {new}");
                played.push((new, legal[0]["notation"].clone()));
                seq = new;
                until_seq(&mut $p0, seq).await;
                until_seq(&mut p1, seq).await;
                spectator_log.extend(until_seq(&mut spectator, seq).await);
                lb_log.extend(until_seq(&mut lb_spectator, seq).await);
            }
        };
    }
    play_moves!(6, p0);

    // An action through nginx (HTTP), whichever node it reaches.
    let (_, snap) = request(
        c,
        "GET",
        &format!("/api/games/{id}?seat=0&token={t0}"),
        None,
    )
    .await
    .unwrap();
    let seat = snap["to_act"]["seat"].as_u64().unwrap() as usize;
    let (tok, legal) = if seat == 0 {
        (t0.clone(), snap["legal"].clone())
    } else {
        let (_, s1) = request(
            c,
            "GET",
            &format!("/api/games/{id}?seat=1&token={t1}"),
            None,
        )
        .await
        .unwrap();
        (t1.clone(), s1["legal"].clone())
    };
    let (s, v) = request(
        lb,
        "POST",
        &format!("/api/games/{id}/action"),
        Some(&json!({"seat": seat, "token": tok, "action": legal[0]["action"]})),
    )
    .await
    .unwrap();
    assert_eq!(s, 200, "an action through nginx: {v}");
    seq = v["seq"].as_u64().unwrap();
    played.push((seq, legal[0]["notation"].clone()));
    until_seq(&mut p0, seq).await;
    until_seq(&mut p1, seq).await;
    spectator_log.extend(until_seq(&mut spectator, seq).await);
    lb_log.extend(until_seq(&mut lb_spectator, seq).await);

    // Kill the owner (node A, which created the game) with SIGKILL mid-game.
    procs.0[0].kill().unwrap();
    procs.0[0].wait().unwrap();
    drop(p0);
    // Player 0 reconnects through nginx (which skips the dead node) and the game goes on.
    let mut p0 = connect(lb, &id, Some((0, &t0))).await;
    play_moves!(6, p0);

    // Seat 0 resigns on node C: the game is over everywhere.
    let (s, v) = request(
        c,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&json!({"seat": 0, "token": t0})),
    )
    .await
    .unwrap();
    assert_eq!(s, 200, "{v}");
    let end = v["seq"].as_u64().unwrap();
    let last = until_seq(&mut p1, end + 1).await;
    assert_eq!(last.last().unwrap()["status"], "over", "{last:?}");
    spectator_log.extend(until_seq(&mut spectator, end + 1).await);
    let (_, fin) = request(b, "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(fin["status"], "over");
    assert!(
        fin["result"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("resigned")),
        "{}",
        fin["result"]
    );
    let final_seq = fin["seq"].as_u64().unwrap();

    // The spectator on node C saw every event after its snapshot once, in order, and every move
    // played, as played.
    for (log, who) in [(&spectator_log, "node C"), (&lb_log, "nginx")] {
        let events = updates(log);
        let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        let upto = *seqs.last().unwrap();
        assert_eq!(
            seqs,
            ((first_seq + 1)..=upto).collect::<Vec<_>>(),
            "the spectator on {who} saw gaps, duplicates or disorder"
        );
        for (s, notation) in &played {
            if *s <= upto {
                let e = events.iter().find(|e| e["seq"] == json!(s)).unwrap();
                assert_eq!(&e["notation"], notation, "move {s} as seen on {who}");
            }
        }
    }
    assert_eq!(updates(&spectator_log).len() as u64, final_seq - first_seq);

    // The log: no gap, no duplicate, and never two writers of one lease epoch; the game changed
    // hands (two writers in all, at increasing epochs).
    let rows = psql(
        &url,
        &format!(
            "SELECT seq, COALESCE(node_id, '-'), COALESCE(epoch, 0) FROM events \
             WHERE game_id = '{id}' ORDER BY seq"
        ),
    );
    let rows: Vec<(u64, String, i64)> = rows
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            (
                f[0].parse().unwrap(),
                f[1].to_string(),
                f[2].parse().unwrap(),
            )
        })
        .collect();
    let seqs: Vec<u64> = rows.iter().map(|r| r.0).collect();
    assert_eq!(
        seqs,
        (1..=final_seq).collect::<Vec<_>>(),
        "gaps or duplicates"
    );
    let mut writers: Vec<(i64, String)> = Vec::new();
    for (seq, node, epoch) in &rows {
        assert_ne!(node, "-", "event {seq} has no writer");
        match writers.iter().find(|(e, _)| e == epoch) {
            Some((_, w)) => assert_eq!(w, node, "two writers of epoch {epoch}"),
            None => {
                if let Some((last, _)) = writers.last() {
                    assert!(epoch > last, "epoch {epoch} after {last} at event {seq}");
                }
                writers.push((*epoch, node.clone()));
            }
        }
    }
    let nodes: std::collections::BTreeSet<&String> = writers.iter().map(|(_, n)| n).collect();
    assert!(
        nodes.len() >= 2,
        "the game never changed hands: {writers:?}"
    );
    drop(procs);
    let _ = std::fs::remove_dir_all(&dir);
}
