//! Players' clocks and the expiry of waiting games on a clock the test moves ([`ManualClock`]): the
//! server's time stands still until the test advances it, so these tests neither sleep nor depend on
//! the machine's speed, and what they check happens at the very millisecond it should.

use std::sync::Arc;
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::SeatResult;
use tabula_server::wire::game::{ClockSeat, ClockSpec, EventBody, Status};
use tabula_server::{Clock, Limits, ManualClock, RunningServer, Storage};

const DAY: Duration = Duration::from_secs(86_400);

/// A server on `dir` whose games' time is `clock`.
async fn start_at(
    dir: &std::path::Path,
    clock: &Arc<ManualClock>,
    limits: Limits,
) -> RunningServer {
    let mut config = config(registry(), Storage::SqliteDir(dir.to_path_buf()), limits);
    config.clock = clock.clone();
    tabula_server::start(config).await.unwrap()
}

/// A clock reading a fixed time of 2026 (the epoch's millisecond count matters to nobody).
fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(1_790_000_000_000))
}

/// A two-person duel with `clock`, both seats held by the host; returns the id and the tokens.
async fn timed_duel(addr: std::net::SocketAddr, clock: Value) -> (String, Vec<String>) {
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "options": {"target": 12},
               "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1], "clock": clock}),
    )
    .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

/// Each seat's clock in `seat`'s snapshot.
async fn clocks(addr: std::net::SocketAddr, id: &str, token: &str) -> Vec<ClockSeat> {
    let sn = snap(addr, id, 0, token).await;
    sn.common.clock.clone().expect("a clock").seats
}

fn seat_clock(running: bool, remaining_ms: i64) -> ClockSeat {
    ClockSeat {
        running,
        remaining_ms,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fischer_clock_runs_out_and_the_seat_loses_on_time() {
    let dir = temp_dir("clock");
    let clock = clock();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    let (id, tokens) = timed_duel(
        addr,
        json!({"kind": "fischer", "initial_ms": 10000, "increment_ms": 1000}),
    )
    .await;
    let sn = snap(addr, &id, 0, &tokens[0]).await;
    let spec = sn.common.clock.clone().expect("a clock").spec;
    assert!(matches!(spec, ClockSpec::Fischer { .. }), "{spec:?}");
    // The duel's first decision is both seats' secret word: both clocks run from the start.
    assert_eq!(
        clocks(addr, &id, &tokens[0]).await,
        vec![seat_clock(true, 10_000), seat_clock(true, 10_000)]
    );
    clock.advance(Duration::from_millis(3_000));
    let r = post_action(addr, &id, 0, &tokens[0], "secret:amberword").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // Seat 0 took 3 s and gained its increment; seat 1's clock ran on for the same 3 s.
    assert_eq!(
        clocks(addr, &id, &tokens[0]).await,
        vec![seat_clock(false, 8_000), seat_clock(true, 7_000)]
    );
    let mut spec = ws(addr, &id, None).await;
    recv_snapshot(&mut spec).await;
    // A millisecond before seat 1's time is up nothing happens; at zero it loses on time.
    clock.advance(Duration::from_millis(6_999));
    assert_eq!(
        snap(addr, &id, 0, &tokens[0]).await.common.status,
        Status::Running
    );
    clock.advance(Duration::from_millis(1));
    let over = recv_game(&mut spec, |m| m.common.status == Status::Over).await;
    let result = over.common.result.clone().unwrap();
    assert_eq!(result.results, [SeatResult::Win, SeatResult::Loss]);
    assert_eq!(result.reason, "South lost on time");
    assert!(
        over.events
            .iter()
            .any(|e| matches!(e.body, EventBody::Timeout { seat: 1 })),
        "{:?}",
        over.events
    );
    // Restarting keeps the result.
    server.shutdown().await.unwrap();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let sn = snap(server.local_addr(), &id, 1, &tokens[1]).await;
    assert_eq!(
        sn.common.result.clone().unwrap().reason,
        "South lost on time"
    );
    server.shutdown().await.unwrap();
}

/// A running clock does not hold its game in memory (correspondence games would pile up): the game
/// leaves memory when idle, and the clock sweeper loads it and ends it on time when its seat's time
/// runs out, with nobody asking for it — and not a moment before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_clock_runs_leaves_memory_and_still_ends_on_time() {
    let dir = temp_dir("evict-clock");
    let clock = clock();
    let limits = Limits {
        room_idle: Duration::ZERO,
        ..Limits::default()
    };
    let server = start_at(&dir, &clock, limits).await;
    let addr = server.local_addr();
    let (id, tokens) =
        timed_duel(addr, json!({"kind": "correspondence", "days_per_move": 2})).await;
    let r = post_action(addr, &id, 0, &tokens[0], "secret:amberword").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // A day and a half later seat 1 still has half a day; seat 0's two days wait for its next turn.
    clock.advance(DAY + DAY / 2);
    assert_eq!(
        clocks(addr, &id, &tokens[0]).await,
        vec![
            seat_clock(false, 2 * 86_400_000),
            seat_clock(true, 86_400_000 / 2)
        ]
    );
    evict_all_idle(&server).await;
    assert_eq!(
        server.loaded_games(),
        0,
        "a running clock must not hold the game"
    );
    // Nobody asks for the game; its stored status turns to over when the clock sweeper ends it.
    clock.advance(DAY / 2);
    let pool = sqlite_pool(&dir).await;
    let started = std::time::Instant::now();
    loop {
        let status: String = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
        if status == "over" {
            break;
        }
        assert!(
            started.elapsed() < T,
            "the game did not end on time out of memory"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    pool.close().await;
    let sn = snap(addr, &id, 0, &tokens[0]).await;
    assert_eq!(
        sn.common.result.clone().unwrap().reason,
        "South lost on time"
    );
    assert!(
        sn.events
            .iter()
            .any(|e| matches!(e.body, EventBody::Timeout { seat: 1 })),
        "{:?}",
        sn.events
    );
    server.shutdown().await.unwrap();
}

/// Clocks run while the server is down: a seat whose time ran out meanwhile loses as the server comes
/// back (the timeout dated after the restart); a seat with time left keeps exactly what is left and
/// loses when it runs out with the server up. The results are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_that_ran_out_while_the_server_was_down_lose_on_restart() {
    let dir = temp_dir("downtime");
    let clock = clock();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    // Seat 0 chooses its secret at once; seat 1 (South) owes its own when the server goes down.
    // Made at different times so that at the restart: the first (correspondence, a day) ran out a
    // minute ago, the second (Fischer, a minute) a second ago, the third (correspondence) has 4 s.
    let mut games = Vec::new();
    for (kind, wait_after) in [
        (
            json!({"kind": "correspondence", "days_per_move": 1}),
            Duration::from_secs(64),
        ),
        (
            json!({"kind": "correspondence", "days_per_move": 1}),
            DAY - Duration::from_secs(65),
        ),
        (
            json!({"kind": "fischer", "initial_ms": 60_000, "increment_ms": 0}),
            Duration::ZERO,
        ),
    ] {
        let (id, tokens) = timed_duel(addr, kind).await;
        let r = post_action(addr, &id, 0, &tokens[0], "secret:amberword").await;
        assert_eq!(r.status, 200, "{}", r.raw);
        games.push((id, tokens));
        clock.advance(wait_after);
    }
    server.shutdown().await.unwrap();
    clock.advance(Duration::from_secs(61));
    let restarted = clock.now_ms();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    for (i, (id, tokens)) in games.iter().enumerate() {
        let mut spec = ws(addr, id, None).await;
        let first = recv_snapshot(&mut spec).await;
        if i == 1 {
            // Still running after the restart, with the 4 s it has left.
            assert_eq!(first.common.status, Status::Running);
            let south = first.common.clock.as_ref().unwrap().seats[1];
            assert_eq!(south, seat_clock(true, 4_000));
            clock.advance(Duration::from_secs(4));
        }
        let over = if first.common.status == Status::Over {
            first
        } else {
            recv_game(&mut spec, |m| m.common.status == Status::Over).await
        };
        let result = over.common.result.clone().unwrap();
        assert_eq!(
            result.results,
            [SeatResult::Win, SeatResult::Loss],
            "game {i}"
        );
        assert_eq!(result.reason, "South lost on time", "game {i}");
        let sn = snap(addr, id, 1, &tokens[1]).await;
        let (seat, at) = sn
            .events
            .iter()
            .find_map(|e| match e.body {
                EventBody::Timeout { seat } => Some((seat, e.at)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("game {i}: a timeout event: {:?}", sn.events));
        assert_eq!(seat, 1, "game {i}");
        // Flagged by the restarted server, not before the downtime.
        assert!(at >= restarted, "game {i}");
        // South cannot act any more.
        assert_action_refused(
            addr,
            id,
            1,
            &tokens[1],
            "secret:birchword",
            (409, "game_over"),
        )
        .await;
    }
    // The result is stored: another restart keeps it.
    server.shutdown().await.unwrap();
    let server = start_at(&dir, &clock, Limits::default()).await;
    for (id, tokens) in &games {
        let sn = snap(server.local_addr(), id, 0, &tokens[0]).await;
        assert_eq!(
            sn.common.result.clone().unwrap().reason,
            "South lost on time"
        );
    }
    server.shutdown().await.unwrap();
}

/// A waiting game nobody joined expires after the configured time (7 days by default), counted from
/// its last event, whether it is in memory or not; a running game never does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_game_expires_seven_days_after_its_last_event() {
    let dir = temp_dir("clock-expiry");
    let clock = clock();
    let server = start_at(&dir, &clock, Limits::default()).await;
    let addr = server.local_addr();
    let (waiting, _) = create(
        addr,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seats": [0]}),
    )
    .await;
    let (running, tokens) = create_duel(addr, 12).await;
    clock.advance(7 * DAY - Duration::from_millis(1));
    assert_eq!(server.expire_waiting().await, 0, "a millisecond early");
    clock.advance(Duration::from_millis(1));
    server.evict_idle();
    assert_eq!(server.expire_waiting().await, 1);
    let sn = get_as::<Snap>(addr, &format!("/api/games/{waiting}"))
        .await
        .ok();
    assert_eq!(sn.common.status, Status::Over);
    let reason = sn.common.result.clone().unwrap().reason;
    assert!(reason.starts_with("expired"), "{reason}");
    let sn = snap(addr, &running, 0, &tokens[0]).await;
    assert_eq!(sn.common.status, Status::Running);
    server.shutdown().await.unwrap();
}
