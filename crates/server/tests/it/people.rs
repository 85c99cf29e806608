//! People by name, on SQLite and (with a test cluster, see `postgres.rs`) PostgreSQL: a game's
//! messages name the accounts holding its seats with their ratings (a spectator sees the same, and
//! never a seat's token); a rated game's end carries each player's rating change, equal to the
//! stored ratings' difference, also after a restart; "my games" and profiles name each game's
//! opponents (an account with its rating at the time, the AI by its level); a leaderboard lists the
//! provisional ratings after the established ones, marked so.

use std::net::SocketAddr;

use crate::accounts::{
    Device, call, create_as, join_as, play_out, profile, score, sign_up, sqlite_server,
};
use crate::common::*;
use serde_json::json;
use tabula_server::wire::api::{Leaderboard, MyGames, Opponent, Profile};
use tabula_server::wire::game::{SeatPlayer, Status};
use tabula_server::{Limits, Storage};

/// The account holding `seat` in a message.
fn player(m: &Snap, seat: usize) -> SeatPlayer {
    m.common.seats[seat]
        .player
        .clone()
        .unwrap_or_else(|| panic!("seat {seat} names no player: {:?}", m.common.seats))
}

/// A player's stored rating in Duel (from the profile: the `ratings` table).
fn stored(p: &Profile) -> f64 {
    p.ratings["duel"].rating
}

/// The signed-in player's "my games".
async fn my_games(addr: SocketAddr, dev: &mut Device) -> MyGames {
    let (s, _, v) = call(addr, dev, false, "GET", "/api/me/games", None).await;
    assert_eq!(s, 200, "{v}");
    decode(&v)
}

/// Checks each seat's change in a finished rated game's message: played at `before`, ended at
/// `after` (the stored ratings), the change their difference, its sign the result's.
fn assert_changes(m: &Snap, names: [&str; 2], before: [f64; 2], after: [f64; 2], scores: [f64; 2]) {
    for seat in 0..2 {
        let p = player(m, seat);
        assert_eq!(p.name, names[seat], "{p:?}");
        assert_eq!(p.rating, Some(before[seat]), "seat {seat}: {p:?}");
        assert_eq!(p.rating_after, Some(after[seat]), "seat {seat}: {p:?}");
        let change = p
            .rating_change
            .expect("a rated game's end gives the change");
        assert!(
            (change - (after[seat] - before[seat])).abs() < 1e-9,
            "seat {seat}: {change} is not {} - {}",
            after[seat],
            before[seat]
        );
        let expected_sign = scores[seat] - scores[1 - seat];
        assert!(
            change.signum() == expected_sign.signum() && change != 0.0,
            "seat {seat} scored {} and changed by {change}",
            scores[seat]
        );
    }
}

/// Two accounts play two rated games and one plays the AI: names, ratings and changes everywhere a
/// person is shown. Returns the two rated games' ids.
async fn people_are_named(addr: SocketAddr) -> (String, String) {
    let mut alice = sign_up(addr, "alice", "alice's long secret").await;
    let mut bob = sign_up(addr, "bob", "bob's long secret").await;
    let (id, t0) = create_as(
        addr,
        &mut alice,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0, "rated": true}),
    )
    .await;
    // Before anyone joined, the creator's seat is named, the open one is not.
    let sn = snap(addr, &id, 0, &t0).await;
    assert_eq!(player(&sn, 0).name, "alice");
    assert!(sn.common.seats[1].player.is_none(), "{:?}", sn.common.seats);
    // The spectator's socket, open from the start: it sees the join name Bob, and the end.
    let mut spectator = ws(addr, &id, None).await;
    recv_snapshot(&mut spectator).await;
    let t1 = join_as(addr, &mut bob, &id, 1).await;
    let (text, joined) =
        recv_game_text(&mut spectator, |m| m.common.seats[1].player.is_some()).await;
    for (seat, name) in [(0, "alice"), (1, "bob")] {
        let p = player(&joined, seat);
        assert_eq!(p.name, name);
        // No rated game yet: no rating, provisional (shown "1500?"), no change.
        assert_eq!(
            (p.rating, p.provisional, p.rating_change),
            (None, true, None),
            "{p:?}"
        );
    }
    assert!(
        !text.contains(&t0) && !text.contains(&t1),
        "a spectator's message holds a seat's token: {text}"
    );
    // A seat sees the same names as the spectator.
    let seen = snap(addr, &id, 1, &t1).await;
    assert_eq!(seen.common.seats, joined.common.seats);

    let result = play_out(addr, &id, &[t0.clone(), t1.clone()]).await;
    let scores = [score(&result, 0), score(&result, 1)];
    // The update that ends the game carries the change (the dialog opens on it).
    let (text, over) = recv_game_text(&mut spectator, |m| m.common.status == Status::Over).await;
    assert!(!text.contains(&t0) && !text.contains(&t1), "{text}");
    let after1 = [
        stored(&profile(addr, "alice").await),
        stored(&profile(addr, "bob").await),
    ];
    assert_changes(&over, ["alice", "bob"], [1500.0, 1500.0], after1, scores);
    // So does the snapshot of the finished game.
    let again = snap(addr, &id, 0, &t0).await;
    assert_eq!(again.common.seats, over.common.seats);

    // The second game: Bob creates it, Alice joins, and Bob resigns; it is played at the ratings
    // the first game left.
    let (id2, u0) = create_as(
        addr,
        &mut bob,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0, "rated": true}),
    )
    .await;
    let u1 = join_as(addr, &mut alice, &id2, 1).await;
    let running = snap(addr, &id2, 1, &u1).await;
    assert_eq!(player(&running, 0).rating, Some(after1[1]));
    assert_eq!(player(&running, 1).rating, Some(after1[0]));
    let (s, v) = post(
        addr,
        &format!("/api/games/{id2}/resign"),
        json!({"seat": 0, "token": u0}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let ended = snap(addr, &id2, 0, &u0).await;
    assert_eq!(ended.common.status, Status::Over);
    let after2 = [
        stored(&profile(addr, "bob").await),
        stored(&profile(addr, "alice").await),
    ];
    assert_changes(
        &ended,
        ["bob", "alice"],
        [after1[1], after1[0]],
        after2,
        [0.0, 1.0],
    );

    // Alice's games name Bob, with his rating at the time and the game's change of it.
    let bob_in_2 = player(&ended, 0);
    let bob_in_1 = player(&over, 1);
    let mine = my_games(addr, &mut alice).await;
    let finished: Vec<(&str, &[Opponent])> = mine
        .finished
        .iter()
        .map(|g| (g.id.as_str(), g.opponents.as_slice()))
        .collect();
    assert_eq!(
        finished,
        [
            (
                id2.as_str(),
                &[Opponent {
                    seat: 0,
                    player: Some(bob_in_2.clone()),
                    ai_level: None
                }][..]
            ),
            (
                id.as_str(),
                &[Opponent {
                    seat: 1,
                    player: Some(bob_in_1.clone()),
                    ai_level: None
                }][..]
            ),
        ]
    );
    // Her profile lists the same opponents.
    let pa = profile(addr, "alice").await;
    let recent: Vec<(&str, &[Opponent])> = pa
        .recent_games
        .iter()
        .map(|g| (g.id.as_str(), g.opponents.as_slice()))
        .collect();
    assert_eq!(recent, finished);

    // A game against the AI names its level; one waiting for a friend names nobody yet.
    create_as(
        addr,
        &mut alice,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "ai", "level": 2}], "host_seat": 0}),
    )
    .await;
    let (waiting, _) = create_as(
        addr,
        &mut alice,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}], "host_seat": 0}),
    )
    .await;
    let mine = my_games(addr, &mut alice).await;
    let against: Vec<(Option<u8>, bool)> = mine
        .games
        .iter()
        .map(|g| {
            assert_eq!(g.opponents.len(), 1, "{g:?}");
            (g.opponents[0].ai_level, g.opponents[0].player.is_some())
        })
        .collect();
    assert!(against.contains(&(Some(2), false)), "{mine:?}");
    let w = mine.games.iter().find(|g| g.id == waiting).unwrap();
    assert_eq!(
        w.opponents,
        [Opponent {
            seat: 1,
            player: None,
            ai_level: None
        }]
    );
    let pa = profile(addr, "alice").await;
    assert!(
        pa.playing
            .iter()
            .any(|g| g.opponents.iter().any(|o| o.ai_level == Some(2))),
        "{pa:?}"
    );

    // A new site's leaderboard: nobody is established after two games, and both are listed,
    // provisional, best first, with their games.
    let board = get_as::<Leaderboard>(addr, "/api/leaderboard/duel")
        .await
        .ok();
    let mut expected = vec![("alice", after2[1]), ("bob", after2[0])];
    expected.sort_by(|a, b| b.1.total_cmp(&a.1));
    let listed: Vec<(&str, f64)> = board
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.rating))
        .collect();
    assert_eq!(listed, expected, "{board:?}");
    assert!(
        board.players.iter().all(|p| p.provisional && p.games == 2),
        "{board:?}"
    );
    (id, id2)
}

/// The change a finished game's message shows for each seat's player, read from the spectator's
/// snapshot over HTTP.
async fn shown_changes(addr: SocketAddr, id: &str) -> Vec<(String, f64)> {
    let r = get_as::<Snap>(addr, &format!("/api/games/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    r.ok()
        .common
        .seats
        .iter()
        .map(|s| {
            let p = s
                .player
                .clone()
                .expect("a rated game's seat names its player");
            (p.name, p.rating_change.expect("a change"))
        })
        .collect()
}

/// Each account's stored change in game `id` (`rating - rating_before` of its history), by seat.
const STORED_CHANGES: &str = "SELECT a.name, h.rating - h.rating_before FROM rating_history h \
     JOIN accounts a ON a.id = h.account_id JOIN game_seats gs \
     ON gs.game_id = h.game_id AND gs.account_id = h.account_id \
     WHERE h.game_id = $1 ORDER BY gs.seat";

fn assert_same_changes(shown: &[(String, f64)], stored: &[(String, f64)]) {
    assert_eq!(shown.len(), stored.len(), "{shown:?} {stored:?}");
    for (a, b) in shown.iter().zip(stored) {
        assert_eq!(a.0, b.0);
        assert!(
            (a.1 - b.1).abs() < 1e-9,
            "shown {shown:?}, stored {stored:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_people_are_named_with_their_ratings_and_changes() {
    let (server, dir) = sqlite_server("people", Limits::default()).await;
    let (id, id2) = people_are_named(server.local_addr()).await;
    server.shutdown().await.unwrap();
    // After a restart the finished games are loaded from storage, and show the same changes, equal
    // to the stored ratings' difference.
    let server = start_with(
        registry(),
        Storage::SqliteDir(dir.clone()),
        Limits::default(),
    )
    .await;
    let pool = sqlite_pool(&dir).await;
    for game in [&id, &id2] {
        let stored: Vec<(String, f64)> = sqlx::query_as(STORED_CHANGES)
            .bind(game)
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_same_changes(&shown_changes(server.local_addr(), game).await, &stored);
    }
    // Once established, a rating is listed before every provisional one, whatever their values.
    sqlx::query(
        "UPDATE ratings SET rating = 1400, rd = 80 WHERE account_id = \
         (SELECT id FROM accounts WHERE name = 'bob')",
    )
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE ratings SET rating = 1700 WHERE account_id = \
         (SELECT id FROM accounts WHERE name = 'alice')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let board = get_as::<Leaderboard>(server.local_addr(), "/api/leaderboard/duel")
        .await
        .ok();
    let listed: Vec<(usize, &str, bool)> = board
        .players
        .iter()
        .map(|p| (p.rank, p.name.as_str(), p.provisional))
        .collect();
    assert_eq!(listed, [(1, "bob", false), (2, "alice", true)], "{board:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_people_are_named_with_their_ratings_and_changes() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(
        registry(),
        Storage::Postgres(url.clone()),
        Limits::default(),
    )
    .await;
    let (id, id2) = people_are_named(server.local_addr()).await;
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    for game in [&id, &id2] {
        let stored: Vec<(String, f64)> = sqlx::query_as(STORED_CHANGES)
            .bind(game)
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_same_changes(&shown_changes(server.local_addr(), game).await, &stored);
    }
    pool.close().await;
    server.shutdown().await.unwrap();
}
