//! A cluster node that loses its database: two nodes of one site
//! on PostgreSQL, the first reaching the database through a TCP relay the test can cut. While cut,
//! the node refuses changes with `503` (nothing acknowledged), stops renewing its leases, and the
//! other node takes its games over and plays on (its AI seat too, and its clock: a player's time that
//! ran out meanwhile ends the game on the new owner); once the database is back the node recovers by itself
//! and serves the game again (forwarding to the new owner). The log is then checked: no gap, one
//! writer per lease epoch, epochs rising along the log (nothing written on a lost lease).
//!
//! Needs PostgreSQL like `postgres.rs` (fails under CI without it).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::*;
use serde_json::json;
use sqlx::Row;
use tabula_core::{Actor, Seat};
use tabula_server::storage::cluster::ClusterConfig;
use tabula_server::wire::api::Committed;
use tabula_server::wire::game::Status;
use tabula_server::{Limits, RunningServer, Storage};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

/// The longest the test waits for a node to hand a game over or to recover (a bound, not a
/// measurement: leases expire after 5 s).
const WAIT: Duration = Duration::from_secs(40);

/// A TCP relay to PostgreSQL that can be cut (every open connection dropped, new ones refused) and
/// restored.
struct Relay {
    addr: SocketAddr,
    cut: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Relay {
    async fn start(target: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let conns: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let (c, k) = (cut.clone(), conns.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if c.load(Ordering::SeqCst) {
                    drop(inbound);
                    continue;
                }
                let task = tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                k.lock().await.push(task);
            }
        });
        Relay { addr, cut, conns }
    }

    /// Drops every relayed connection and refuses new ones.
    async fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for task in self.conns.lock().await.drain(..) {
            task.abort();
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// `url` with its host and port replaced by `addr`.
fn via(url: &str, addr: SocketAddr) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (authority, path) = rest.split_once('/').unwrap();
    let user = authority.rsplit_once('@').map(|(u, _)| format!("{u}@"));
    format!("{scheme}://{}{addr}/{path}", user.unwrap_or_default())
}

/// The host and port of a `postgres://user@host:port/db` URL.
fn server_of(url: &str) -> SocketAddr {
    let rest = url.split_once("://").unwrap().1;
    let authority = rest.split_once('/').unwrap().0;
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    hostport
        .parse()
        .expect("a numeric host:port in the test database's URL")
}

/// A free loopback port (for a node that must know its own address before it starts).
fn free_addr() -> SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap()
}

async fn start_node(url: String, addr: SocketAddr) -> RunningServer {
    let storage = Storage::PostgresCluster {
        url,
        cluster: ClusterConfig {
            advertise: format!("http://{addr}"),
            secret: "a test cluster secret of enough length".into(),
        },
    };
    let mut cfg = config(registry(), storage, Limits::default());
    cfg.addr = addr;
    tabula_server::start(cfg).await.expect("the node starts")
}

/// Sends the first legal action of whichever seat may act, through `addr`; the answer.
async fn act(addr: SocketAddr, id: &str, tokens: &[String]) -> Reply<Committed> {
    for (seat, token) in tokens.iter().enumerate() {
        let sn = snap(addr, id, seat, token).await;
        if let Some(first) = sn.legal.first() {
            return post_as(
                addr,
                &format!("/api/games/{id}/action"),
                json!({"seat": seat, "token": token, "action": first.action}),
            )
            .await;
        }
    }
    panic!("nobody may act in {id}");
}

/// Acts through `addr` until an action is committed (within [`WAIT`]); returns the committed answer
/// and the statuses of the refusals seen meanwhile.
async fn act_until_committed(
    addr: SocketAddr,
    id: &str,
    tokens: &[String],
) -> (Committed, Vec<u16>) {
    let start = Instant::now();
    let mut refused = Vec::new();
    loop {
        let r = act(addr, id, tokens).await;
        if r.status == 200 {
            return (r.ok(), refused);
        }
        refused.push(r.status);
        assert!(
            start.elapsed() < WAIT,
            "no action was committed through {addr} within {WAIT:?}: statuses {refused:?}, last {}",
            r.raw
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until seat 0 may act in `id` (seen through `addr`), then sends its first legal action, until
/// one is committed (within [`WAIT`]); returns the committed answer.
async fn seat0_plays(addr: SocketAddr, id: &str, token: &str) -> Committed {
    let start = Instant::now();
    loop {
        let sn = snap(addr, id, 0, token).await;
        if let Some(first) = sn.legal.first() {
            let r = post_as::<Committed>(
                addr,
                &format!("/api/games/{id}/action"),
                json!({"seat": 0, "token": token, "action": first.action}),
            )
            .await;
            if r.status == 200 {
                return r.ok();
            }
        }
        assert!(
            start.elapsed() < WAIT,
            "seat 0 could not play through {addr} within {WAIT:?}: {sn:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_loses_its_database_refuses_hands_its_game_over_and_recovers() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let relay = Relay::start(server_of(&url)).await;
    let (a_addr, b_addr) = (free_addr(), free_addr());
    let a = start_node(via(&url, relay.addr), a_addr).await;
    let b = start_node(url.clone(), b_addr).await;

    // A game created on node A is owned by A; both nodes serve it.
    let (id, tokens) = create_duel(a_addr, 40).await;
    let (first, _) = act_until_committed(a_addr, &id, &tokens).await;
    let (second, _) = act_until_committed(b_addr, &id, &tokens).await;
    assert!(second.seq > first.seq);

    // A game against the AI, also created on A (so A runs its AI seat).
    let (ai_id, ai_tokens) = create(
        a_addr,
        json!({"game": "duel", "options": {"target": 40},
               "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}], "host_seats": [0]}),
    )
    .await;
    let ai_token = ai_tokens[0].clone().unwrap();
    seat0_plays(a_addr, &ai_id, &ai_token).await;
    // A game with an 8-second clock, created on A just before A is cut off: nobody moves, so its
    // first seat's time runs out while A cannot write; the node that takes it over ends it on time.
    let (clocked, _) = create(
        a_addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1],
               "clock": {"kind": "fischer", "initial_ms": 8000, "increment_ms": 0}}),
    )
    .await;

    // A loses its database: a change sent to A is refused with 503 and changes nothing.
    relay.cut().await;
    let refused = act(a_addr, &id, &tokens).await;
    assert_eq!(refused.status, 503, "{}", refused.raw);
    assert_eq!(refused.err().code, "unavailable", "{}", refused.raw);

    // B takes the game over once A's lease expired, and the game goes on through B.
    let (on_b, _) = act_until_committed(b_addr, &id, &tokens).await;
    let (on_b2, _) = act_until_committed(b_addr, &id, &tokens).await;
    assert!(on_b2.seq > on_b.seq);

    // The AI seat keeps playing on B: three moves of the human there need the AI's moves between
    // them (the seats alternate once the secrets are chosen).
    let cut_at = seat0_plays(b_addr, &ai_id, &ai_token).await.seq;
    seat0_plays(b_addr, &ai_id, &ai_token).await;
    seat0_plays(b_addr, &ai_id, &ai_token).await;
    let ai_snap = snap(b_addr, &ai_id, 0, &ai_token).await;
    let ai_moves_after = ai_snap
        .events
        .iter()
        .filter(|e| e.seq > cut_at && is_action_by(e, Actor::Seat(Seat(1))))
        .count();
    assert!(
        ai_moves_after >= 1,
        "the AI seat played on the other node: {ai_snap:?}"
    );

    // The clocked game ended on time on B (the flag is the new owner's, from the events' times).
    let start = Instant::now();
    let over = loop {
        let r = get_as::<Snap>(b_addr, &format!("/api/games/{clocked}")).await;
        let raw = r.raw.clone();
        let v = r.ok();
        if v.common.status == Status::Over {
            break v;
        }
        assert!(
            start.elapsed() < WAIT,
            "the clocked game never ended: {raw}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let result = over.common.result.clone().unwrap();
    assert!(result.reason.contains("time"), "ended on time: {result:?}");

    // The database comes back: A recovers by itself and serves the game again (B writes it).
    relay.restore();
    let (on_a, _) = act_until_committed(a_addr, &id, &tokens).await;
    assert!(on_a.seq > on_b2.seq);
    let snap_a = snap(a_addr, &id, 0, &tokens[0]).await;
    let snap_b = snap(b_addr, &id, 0, &tokens[0]).await;
    assert_eq!(
        snap_a.common.seq, snap_b.common.seq,
        "both nodes show the same game"
    );

    // The log: no gap, one writer per epoch, epochs rising with the seq, the game written by two
    // nodes, and nothing by A once B held the game.
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    let rows =
        sqlx::query("SELECT seq, node_id, epoch FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap();
    let log: Vec<(i64, Option<String>, Option<i64>)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    for (i, (seq, _, _)) in log.iter().enumerate() {
        assert_eq!(
            *seq,
            i as i64 + 1,
            "a gap or a duplicate in the log: {log:?}"
        );
    }
    let mut writers: std::collections::HashMap<i64, String> = Default::default();
    let mut last_epoch = 0;
    for (seq, node, epoch) in &log {
        let (Some(node), Some(epoch)) = (node, epoch) else {
            panic!("event {seq} has no writer: {log:?}");
        };
        assert!(*epoch >= last_epoch, "epochs go back at seq {seq}: {log:?}");
        last_epoch = *epoch;
        let w = writers.entry(*epoch).or_insert_with(|| node.clone());
        assert_eq!(w, node, "two writers of epoch {epoch}: {log:?}");
    }
    // Epoch 1 is A's (it created the game); a later epoch is B's, which took the game over: the
    // fence let A write nothing once its lease had passed (epochs never go back along the log).
    let nodes: std::collections::HashSet<&String> = writers.values().collect();
    assert!(
        writers.len() >= 2 && nodes.len() >= 2,
        "the game was taken over by the other node: {log:?}"
    );
    // The clocked game's end was written by another node than its creator, A.
    let ends = sqlx::query(
        "SELECT e.node_id, c.node_id FROM events e, events c WHERE e.game_id = $1 \
         AND c.game_id = $1 AND c.seq = 1 AND e.kind = 'end'",
    )
    .bind(&clocked)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(ends.len(), 1, "one end of the clocked game");
    let (ender, creator): (Option<String>, Option<String>) = (ends[0].get(0), ends[0].get(1));
    assert_ne!(
        ender, creator,
        "the node that took the game over flagged it"
    );
    pool.close().await;
    a.shutdown().await.unwrap();
    b.shutdown().await.unwrap();
}

/// Waits (within [`WAIT`]) until `what` holds, polling.
async fn until<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !check().await {
        assert!(
            start.elapsed() < WAIT,
            "{what} never happened within {WAIT:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Node A's writer stalls on its link to the database with a move in flight, its
/// lease expires, node B takes the game and writes the next seq; A's commit then is fenced (its lease
/// is gone). It must not be acknowledged because the log's last seq happens to be the one the move
/// would have had: the move is nowhere in the log. A's copy then follows the log (B's event) and
/// serves the game again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fenced_commit_is_never_acknowledged() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let relay = Relay::start(server_of(&url)).await;
    let (a_addr, b_addr) = (free_addr(), free_addr());
    let a = start_node(via(&url, relay.addr), a_addr).await;
    let b = start_node(url.clone(), b_addr).await;
    let pool = sqlx::PgPool::connect(&url).await.unwrap();

    let (id, tokens) = create_duel(a_addr, 40).await;
    let (played, _) = act_until_committed(a_addr, &id, &tokens).await;
    let base = played.seq;

    // A's writer stalls with a move in flight.
    a.faults().hold_commits();
    let in_flight = tokio::spawn({
        let (id, tokens) = (id.clone(), tokens.clone());
        async move { act(a_addr, &id, &tokens).await }
    });
    until("A's commit waiting", || async {
        a.faults().held_commits() >= 1
    })
    .await;

    // A's link to the database goes: its lease is not renewed and expires.
    relay.cut().await;
    // Expired, or already claimed by B's takeover loop (a new epoch).
    let expired = "SELECT expires_at <= (extract(epoch from clock_timestamp()) * 1000)::bigint \
                   OR epoch > 1 FROM leases WHERE game_id = $1"
        .to_string();
    until("the expiry of A's lease", || {
        let (pool, id, sql) = (pool.clone(), id.clone(), expired.clone());
        async move {
            sqlx::query_scalar::<_, bool>(sqlx::AssertSqlSafe(sql))
                .bind(id)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    })
    .await;

    // B takes the game over and writes the seq A's move would have had.
    let (on_b, _) = act_until_committed(b_addr, &id, &tokens).await;
    let b_seq = on_b.seq;
    assert_eq!(b_seq, base + 1, "B wrote the next seq: {on_b:?}");

    // A's link returns and its commit goes on: fenced, it wrote nothing, and must say so.
    relay.restore();
    a.faults().release_commits();
    let answer = in_flight.await.unwrap();
    let status = answer.status;
    let log: Vec<(i64, Option<String>, Option<i64>)> =
        sqlx::query("SELECT seq, node_id, epoch FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect();
    let creator = log[0].1.clone();
    assert!(
        log.iter()
            .filter(|(seq, ..)| *seq as u64 > base)
            .all(|(_, node, _)| *node != creator),
        "A wrote nothing once its lease had passed: {log:?}"
    );
    assert_ne!(
        status, 200,
        "a fenced commit was acknowledged ({}) although the log holds another node's events \
         there: {log:?}",
        answer.raw
    );
    assert_eq!(answer.err().code, "unavailable", "{}", answer.raw);

    // A's copy follows the log (B's move, not its own) and serves the game again.
    let (on_a, _) = act_until_committed(a_addr, &id, &tokens).await;
    assert!(on_a.seq > b_seq, "{on_a:?}");
    let snap_a = snap(a_addr, &id, 0, &tokens[0]).await;
    let snap_b = snap(b_addr, &id, 0, &tokens[0]).await;
    assert_eq!(snap_a.common.seq, snap_b.common.seq);
    assert_eq!(
        snap_a.events, snap_b.events,
        "both nodes show the log's game"
    );

    pool.close().await;
    a.shutdown().await.unwrap();
    b.shutdown().await.unwrap();
}

/// A plain server (`--database` alone) and cluster nodes never serve one
/// PostgreSQL database together, whichever starts first; each refuses at start with a message that
/// says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_server_and_cluster_nodes_refuse_to_share_a_database() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let plain_config = || {
        config(
            registry(),
            Storage::Postgres(url.clone()),
            Limits::default(),
        )
    };
    // A node first: a plain server refuses to start beside it.
    let node = start_node(url.clone(), free_addr()).await;
    let Err(e) = tabula_server::start(plain_config()).await else {
        panic!("a plain server started beside a cluster node");
    };
    let message = e.to_string();
    assert!(
        message.contains("cluster") && message.contains("cannot share"),
        "{message}"
    );
    // The node goes on serving.
    let (id, tokens) = create_duel(node.local_addr(), 40).await;
    act_until_committed(node.local_addr(), &id, &tokens).await;
    node.shutdown().await.unwrap();

    // A plain server first: a cluster node refuses to start beside it.
    let plain = tabula_server::start(plain_config())
        .await
        .expect("a plain server starts once the nodes are gone");
    let addr = free_addr();
    let storage = Storage::PostgresCluster {
        url: url.clone(),
        cluster: ClusterConfig {
            advertise: format!("http://{addr}"),
            secret: "a test cluster secret of enough length".into(),
        },
    };
    let mut cfg = config(registry(), storage, Limits::default());
    cfg.addr = addr;
    let Err(e) = tabula_server::start(cfg).await else {
        panic!("a cluster node started beside a plain server");
    };
    let message = e.to_string();
    assert!(
        message.contains("plain Tabula server") && message.contains("cannot share"),
        "{message}"
    );
    // The plain server goes on serving the game the node created.
    act_until_committed(plain.local_addr(), &id, &tokens).await;
    plain.shutdown().await.unwrap();
}
