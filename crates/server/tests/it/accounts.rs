//! Accounts, sessions, seats held by accounts and Glicko-2 ratings over HTTP, on SQLite
//! and (when a test cluster is given, see `postgres.rs`) PostgreSQL: sign-up and sign-in, rated games
//! changing both ratings exactly as an independent Glicko-2 computation says, casual and AI games
//! changing none, a second device seeing the same games; and the security rules (CSRF, brute force,
//! deleted accounts, no secret in any answer or log line).

use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::{Outcome, SeatResult, ToAct};
use tabula_server::services::limits::LoginLimits;
use tabula_server::wire::api::{
    ApiError, Created, Joined, Leaderboard, Lobby, LobbyGame, LobbyPlayer, MyGames, Profile,
    RatingRange, SignedIn,
};
use tabula_server::wire::game::{EventBody, Status};
use tabula_server::{Limits, RunningServer, Storage};
use tabula_tools::client::request_with_response_headers;

// ---------------------------------------------------------------------------------------------
// An independent Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), step by step.

#[derive(Debug, Clone, Copy)]
struct G2 {
    rating: f64,
    rd: f64,
    vol: f64,
}

const START: G2 = G2 {
    rating: 1500.0,
    rd: 350.0,
    vol: 0.06,
};

/// One rating period of `p` against `games` (opponent, score), τ = 0.5.
fn glicko2(p: G2, games: &[(G2, f64)]) -> G2 {
    let tau = 0.5;
    let scale = 173.7178;
    let mu = (p.rating - 1500.0) / scale;
    let phi = p.rd / scale;
    let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
    let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for (o, s) in games {
        let (mu_j, phi_j) = ((o.rating - 1500.0) / scale, o.rd / scale);
        let (gj, ej) = (g(phi_j), e(mu_j, phi_j));
        v_inv += gj * gj * ej * (1.0 - ej);
        delta_sum += gj * (s - ej);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    // Step 5: the new volatility (Illinois algorithm).
    let a = (p.vol * p.vol).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-6 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let vol = (big_a / 2.0).exp();
    let phi_star = (phi * phi + vol * vol).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    G2 {
        rating: mu_new * scale + 1500.0,
        rd: phi_new * scale,
        vol,
    }
}

/// The reference reproduces the paper's worked example, so the checks below rest on it.
#[test]
fn reference_glicko2_reproduces_glickmans_worked_example() {
    let p = G2 {
        rating: 1500.0,
        rd: 200.0,
        vol: 0.06,
    };
    let o = |rating, rd| G2 {
        rating,
        rd,
        vol: 0.06,
    };
    let after = glicko2(
        p,
        &[
            (o(1400.0, 30.0), 1.0),
            (o(1550.0, 100.0), 0.0),
            (o(1700.0, 300.0), 0.0),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.vol - 0.05999).abs() < 0.00001, "{after:?}");
}

// ---------------------------------------------------------------------------------------------
// A browser-like client: a cookie jar of one session and its CSRF token.

#[derive(Debug, Clone)]
pub(crate) struct Device {
    pub(crate) cookie: Option<String>,
    pub(crate) csrf: Option<String>,
}

impl Device {
    pub(crate) fn new() -> Device {
        Device {
            cookie: None,
            csrf: None,
        }
    }
}

/// Every answer the tests received (status line aside): headers and bodies, to look for secrets.
fn answers() -> &'static Mutex<Vec<String>> {
    static A: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    A.get_or_init(|| Mutex::new(Vec::new()))
}

/// One request from `dev`: with its cookie, and with its CSRF token when `csrf`. Keeps a session
/// cookie the server sets (or clears).
pub(crate) async fn call(
    addr: SocketAddr,
    dev: &mut Device,
    csrf: bool,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Vec<(String, String)>, Value) {
    let mut headers: Vec<(&str, String)> = Vec::new();
    if let Some(c) = &dev.cookie {
        headers.push(("Cookie", format!("tabula_session={c}")));
    }
    if csrf && let Some(t) = &dev.csrf {
        headers.push(("X-CSRF-Token", t.clone()));
    }
    let hs: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let payload = body.map(|b| b.to_string()).unwrap_or_default();
    let (status, rh, v) =
        request_with_response_headers(addr, method, path, &hs, payload.as_bytes())
            .await
            .unwrap();
    answers().lock().unwrap().push(format!("{rh:?} {v}"));
    for (k, val) in &rh {
        if k == "set-cookie"
            && let Some(rest) = val.strip_prefix("tabula_session=")
        {
            let token = rest.split(';').next().unwrap_or("");
            dev.cookie = (!token.is_empty()).then(|| token.to_string());
        }
    }
    // Any answer that gives a session's CSRF token (signed up, signed in, the session) is a
    // `SignedIn`; the others are not read here.
    if let Ok(signed_in) = serde_json::from_value::<SignedIn>(v.clone()) {
        dev.csrf = Some(signed_in.csrf);
    }
    (status, rh, v)
}

pub(crate) async fn sign_up(addr: SocketAddr, name: &str, password: &str) -> Device {
    let mut dev = Device::new();
    let (s, _, v) = call(
        addr,
        &mut dev,
        false,
        "POST",
        "/api/account",
        Some(json!({"name": name, "password": password})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    assert!(dev.cookie.is_some() && dev.csrf.is_some());
    dev
}

async fn sign_in(addr: SocketAddr, name: &str, password: &str) -> (u16, Device, Value) {
    let mut dev = Device::new();
    let (s, _, v) = call(
        addr,
        &mut dev,
        false,
        "POST",
        "/api/session",
        Some(json!({"name": name, "password": password})),
    )
    .await;
    (s, dev, v)
}

/// A refusal's code, read strictly as the wire's error body ("" for an answer that is not a refusal
/// and has no `error`).
fn code(v: &Value) -> String {
    match v.get("error") {
        None => String::new(),
        Some(_) => decode::<ApiError>(v).error.code,
    }
}

/// Creates a Duel as `dev` (signed in, with its CSRF token) holding seat 0; returns id and token.
pub(crate) async fn create_as(addr: SocketAddr, dev: &mut Device, body: Value) -> (String, String) {
    let (s, _, v) = call(addr, dev, true, "POST", "/api/games", Some(body)).await;
    assert_eq!(s, 201, "{v}");
    let created: Created = decode(&v);
    let token = seat_token(&created.seats[0]).unwrap();
    (created.id, token)
}

pub(crate) async fn join_as(addr: SocketAddr, dev: &mut Device, id: &str, seat: u8) -> String {
    let (s, _, v) = call(
        addr,
        dev,
        true,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"seat": seat})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    decode::<Joined>(&v).token.unwrap()
}

/// Plays the game to its end over HTTP; returns its result.
pub(crate) async fn play_out(addr: SocketAddr, id: &str, tokens: &[String]) -> Option<Outcome> {
    while http_step(addr, id, tokens).await.is_some() {}
    let sn = snap(addr, id, 0, &tokens[0]).await;
    assert_eq!(sn.common.status, Status::Over, "{sn:?}");
    sn.common.result.clone()
}

pub(crate) async fn profile(addr: SocketAddr, name: &str) -> Profile {
    let r = get_as::<Profile>(addr, &format!("/api/players/{name}")).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    r.ok()
}

fn assert_rating(profile: &Profile, game: &str, expected: G2, games: i64) {
    let r = &profile.ratings[game];
    let (rating, rd) = (r.rating, r.rd);
    assert!(
        (rating - expected.rating).abs() < 1e-6 && (rd - expected.rd).abs() < 1e-6,
        "{}: server {rating} / {rd}, Glicko-2 {expected:?}",
        profile.name
    );
    assert_eq!(r.games, games, "{profile:?}");
}

pub(crate) fn score(result: &Option<Outcome>, seat: usize) -> f64 {
    match result.as_ref().unwrap().results[seat] {
        SeatResult::Win => 1.0,
        SeatResult::Loss => 0.0,
        SeatResult::Draw => 0.5,
    }
}

// ---------------------------------------------------------------------------------------------
// The scenarios, run on each database.

/// Two accounts play a rated game to its end, then a second one ended by resignation: after each,
/// both ratings (and deviations) are exactly what Glicko-2 gives from the ratings before it; the
/// profiles count the results and keep the history; the leaderboard lists low deviations first.
async fn rated_games_change_both_ratings_as_glicko2_says(addr: SocketAddr) {
    let mut alice = sign_up(addr, "alice", "alice's long secret").await;
    let mut bob = sign_up(addr, "Bob_2", "bob's long secret").await;
    let (id, t0) = create_as(
        addr,
        &mut alice,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0, "rated": true}),
    )
    .await;
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    let open = &lobby.open[0];
    assert!(open.rated, "{lobby:?}");
    let player = open.seats[0].player.as_ref().unwrap();
    assert_eq!(player.name, "alice", "{lobby:?}");
    assert_eq!(player.rating, None, "{lobby:?}");
    // An anonymous player cannot take the seat of a rated game; the creator cannot take both.
    let (s, v) = post(addr, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!((s, code(&v).as_str()), (403, "forbidden"), "{v}");
    let (s, _, v) = call(
        addr,
        &mut alice,
        true,
        "POST",
        &format!("/api/games/{id}/join"),
        json!({"seat": 1}).into(),
    )
    .await;
    assert_eq!((s, code(&v).as_str()), (409, "conflict"), "{v}");
    let t1 = join_as(addr, &mut bob, &id, 1).await;
    let tokens = vec![t0, t1];
    let result = play_out(addr, &id, &tokens).await;
    let (sa, sb) = (score(&result, 0), score(&result, 1));
    let a1 = glicko2(START, &[(START, sa)]);
    let b1 = glicko2(START, &[(START, sb)]);
    let pa = profile(addr, "ALICE").await;
    let pb = profile(addr, "bob_2").await;
    assert_eq!(pa.name, "alice");
    assert_rating(&pa, "duel", a1, 1);
    assert_rating(&pb, "duel", b1, 1);
    assert_eq!(pa.ratings["duel"].history.len(), 1);
    assert_eq!(pa.recent_games[0].id, id);

    // The second game: Bob creates it, Alice joins, and Bob resigns at once.
    let (id2, u1) = create_as(
        addr,
        &mut bob,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0, "rated": true}),
    )
    .await;
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    let rating_shown = lobby.open[0].seats[0]
        .player
        .as_ref()
        .unwrap()
        .rating
        .unwrap();
    assert!((rating_shown - b1.rating).abs() < 1e-6, "{lobby:?}");
    let u0 = join_as(addr, &mut alice, &id2, 1).await;
    // Takebacks are for casual games only: refused in a rated game, even after a move.
    for (seat, token, word) in [(0, &u1, "secret:amberword"), (1, &u0, "secret:birchword")] {
        assert_eq!(post_action(addr, &id2, seat, token, word).await.status, 200);
    }
    let first = match snap(addr, &id2, 1, &u0).await.common.to_act.clone() {
        ToAct::Seat(s) => s.index(),
        other => panic!("one seat to act: {other:?}"),
    };
    let mover = [&u1, &u0][first];
    assert_eq!(
        post_action(addr, &id2, first, mover, "+1").await.status,
        200
    );
    let (s, v) = post(
        addr,
        &format!("/api/games/{id2}/takeback"),
        json!({"seat": first, "token": mover, "op": "offer"}),
    )
    .await;
    assert_eq!((s, code(&v).as_str()), (409, "conflict"), "{v}");
    let message = decode::<ApiError>(&v).error.message;
    assert!(message.contains("casual games only"), "{message}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{id2}/resign"),
        json!({"seat": 0, "token": u1}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let sn = snap(addr, &id2, 1, &u0).await;
    assert_eq!(sn.common.status, Status::Over);
    let a2 = glicko2(a1, &[(b1, 1.0)]);
    let b2 = glicko2(b1, &[(a1, 0.0)]);
    let pa = profile(addr, "alice").await;
    let pb = profile(addr, "Bob_2").await;
    assert_rating(&pa, "duel", a2, 2);
    assert_rating(&pb, "duel", b2, 2);
    let wins = |p: &Profile| p.results.win;
    let losses = |p: &Profile| p.results.loss;
    assert_eq!(wins(&pa) + losses(&pa), 2, "{pa:?}");
    assert_eq!(wins(&pa) + wins(&pb), 2, "{pa:?} {pb:?}");
    assert_eq!(pb.ratings["duel"].history.len(), 2);

    // RD is still far above 110 after two games: both are listed, provisional.
    let board = get_as::<Leaderboard>(addr, "/api/leaderboard/duel").await;
    assert_eq!(board.status, 200, "{}", board.raw);
    let board = board.ok();
    assert_eq!(board.players.len(), 2, "{board:?}");
    assert!(board.players.iter().all(|p| p.provisional), "{board:?}");
    let (s, v) = get(addr, "/api/leaderboard/chess").await;
    assert_eq!((s, code(&v).as_str()), (404, "not_found"), "{v}");
}

/// A casual game between two accounts, and a game against the AI (which cannot be rated), change
/// no rating; the casual results still count in the profiles.
async fn casual_and_ai_games_change_no_rating(addr: SocketAddr) {
    let mut carol = sign_up(addr, "carol", "carol's long secret").await;
    let mut dave = sign_up(addr, "dave", "dave's long secret").await;
    let (id, t0) = create_as(
        addr,
        &mut carol,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0}),
    )
    .await;
    let t1 = join_as(addr, &mut dave, &id, 1).await;
    play_out(addr, &id, &[t0, t1]).await;
    let pc = profile(addr, "carol").await;
    let pd = profile(addr, "dave").await;
    assert!(pc.ratings.is_empty(), "{pc:?}");
    assert!(pd.ratings.is_empty(), "{pd:?}");
    let played = |p: &Profile| p.results.win + p.results.draw + p.results.loss;
    assert_eq!((played(&pc), played(&pd)), (1, 1));

    // Rated with an AI seat is refused, and changes nothing.
    let ai_seats = json!([{"kind": "human"}, {"kind": "ai", "level": 1}]);
    let (s, _, v) = call(
        addr,
        &mut carol,
        true,
        "POST",
        "/api/games",
        Some(json!({"game": "duel", "seats": ai_seats, "host_seat": 0, "rated": true})),
    )
    .await;
    assert_eq!((s, code(&v).as_str()), (400, "bad_request"), "{v}");
    let (id, t0) = create_as(
        addr,
        &mut carol,
        json!({"game": "duel", "seats": ai_seats, "host_seat": 0}),
    )
    .await;
    // Carol plays whenever her seat's messages list legal actions; the AI answers by itself.
    let mut sock = ws(addr, &id, Some((0, &t0))).await;
    loop {
        let Msg::Game(m) = next_msg(&mut sock).await else {
            continue;
        };
        if m.common.status == Status::Over {
            break;
        }
        if let Some(first) = m.legal.first() {
            let (s, v) = post(
                addr,
                &format!("/api/games/{id}/action"),
                json!({"seat": 0, "token": t0, "action": first.action}),
            )
            .await;
            // A message that was overtaken by the AI's move may list a stale action.
            assert!(s == 200 || s == 409 || s == 422, "{v}");
        }
    }
    let pc = profile(addr, "carol").await;
    assert!(pc.ratings.is_empty(), "{pc:?}");
    assert_eq!(played(&pc), 2, "{pc:?}");
}

/// A game created on one device is listed, with its seat's token, on another device signed in to
/// the same account, which can play it; an anonymous seat is claimed into an account.
async fn a_second_device_sees_the_same_games(addr: SocketAddr) {
    let mut phone = sign_up(addr, "erin", "erin's long secret").await;
    let (id, t0) = create_as(
        addr,
        &mut phone,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0}),
    )
    .await;
    // An anonymous player joins seat 1 from the lobby.
    let r = post_as::<Joined>(addr, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let t1 = r.ok().token.unwrap();

    let (s, mut laptop, v) = sign_in(addr, "Erin", "erin's long secret").await;
    assert_eq!(s, 200, "{v}");
    let (s, _, mine) = call(addr, &mut laptop, false, "GET", "/api/me/games", None).await;
    assert_eq!(s, 200, "{mine}");
    let mine: MyGames = decode(&mine);
    let g = &mine.games[0];
    assert_eq!((g.id.as_str(), g.seat), (id.as_str(), 0), "{mine:?}");
    assert_eq!(g.token, t0);
    // Both seats choose a secret at once: it is Erin's turn.
    assert!(g.your_turn, "{mine:?}");
    assert_eq!(mine.awaiting, 1);
    // The laptop plays with the listed token; then it is no longer Erin's turn.
    let token = g.token.clone();
    let r = post_action(addr, &id, 0, &token, "secret:amberword").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let (_, _, mine) = call(addr, &mut laptop, false, "GET", "/api/me/games", None).await;
    let mine: MyGames = decode(&mine);
    assert!(!mine.games[0].your_turn, "{mine:?}");
    assert_eq!(mine.awaiting, 0);
    let (_, _, on_phone) = call(addr, &mut phone, false, "GET", "/api/me/games", None).await;
    assert_eq!(decode::<MyGames>(&on_phone).games, mine.games);

    // The anonymous player signs up on their device and claims the seat into the new account.
    let mut frank = sign_up(addr, "frank", "frank's long secret").await;
    let claim = json!({"game": id, "seat": 1, "token": "0".repeat(64)});
    let (s, _, v) = call(addr, &mut frank, true, "POST", "/api/me/seats", Some(claim)).await;
    assert_eq!((s, code(&v).as_str()), (403, "bad_token"), "{v}");
    let claim = json!({"game": id, "seat": 1, "token": t1});
    let (s, _, v) = call(
        addr,
        &mut frank,
        true,
        "POST",
        "/api/me/seats",
        Some(claim.clone()),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (_, _, mine) = call(addr, &mut frank, false, "GET", "/api/me/games", None).await;
    let mine: MyGames = decode(&mine);
    assert_eq!(mine.games[0].id, id, "{mine:?}");
    assert!(mine.games[0].your_turn, "{mine:?}");
    // Erin cannot take Frank's seat with the same token.
    let (s, _, v) = call(addr, &mut phone, true, "POST", "/api/me/seats", Some(claim)).await;
    assert_eq!((s, code(&v).as_str()), (409, "conflict"), "{v}");
    // Without a session there is no "my games".
    let (s, v) = get(addr, "/api/me/games").await;
    assert_eq!((s, code(&v).as_str()), (401, "not_signed_in"), "{v}");
}

pub(crate) async fn sqlite_server(
    name: &str,
    limits: Limits,
) -> (RunningServer, std::path::PathBuf) {
    let dir = temp_dir(name);
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), limits).await;
    (server, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_rated_games_change_both_ratings_as_glicko2_says() {
    let (server, dir) = sqlite_server("rated", Limits::default()).await;
    rated_games_change_both_ratings_as_glicko2_says(server.local_addr()).await;
    // Low-deviation ratings are listed, best first.
    let pool = sqlite_pool(&dir).await;
    for (name, rating, rd) in [("alice", 1700.0, 60.0), ("Bob_2", 1800.0, 109.0)] {
        sqlx::query(
            "UPDATE ratings SET rating = $1, rd = $2 WHERE account_id = \
             (SELECT id FROM accounts WHERE name = $3)",
        )
        .bind(rating)
        .bind(rd)
        .bind(name)
        .execute(&pool)
        .await
        .unwrap();
    }
    let board = get_as::<Leaderboard>(server.local_addr(), "/api/leaderboard/duel")
        .await
        .ok();
    let names: Vec<&str> = board.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Bob_2", "alice"], "{board:?}");
    // Deviations of 110 and more are provisional: listed after the established ones, marked so.
    sqlx::query("UPDATE ratings SET rd = 110")
        .execute(&pool)
        .await
        .unwrap();
    let board = get_as::<Leaderboard>(server.local_addr(), "/api/leaderboard/duel")
        .await
        .ok();
    let listed: Vec<(&str, bool)> = board
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.provisional))
        .collect();
    assert_eq!(listed, [("Bob_2", true), ("alice", true)], "{board:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_casual_and_ai_games_change_no_rating() {
    let (server, _) = sqlite_server("casual", Limits::default()).await;
    casual_and_ai_games_change_no_rating(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_second_device_sees_the_same_games() {
    let (server, _) = sqlite_server("devices", Limits::default()).await;
    a_second_device_sees_the_same_games(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_rated_games_change_both_ratings_as_glicko2_says() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(registry(), Storage::Postgres(url), Limits::default()).await;
    rated_games_change_both_ratings_as_glicko2_says(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_casual_and_ai_games_change_no_rating() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(registry(), Storage::Postgres(url), Limits::default()).await;
    casual_and_ai_games_change_no_rating(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_second_device_sees_the_same_games() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(registry(), Storage::Postgres(url), Limits::default()).await;
    a_second_device_sees_the_same_games(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_accounts_security() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(registry(), Storage::Postgres(url), Limits::default()).await;
    let addr = server.local_addr();
    cookie_without_csrf_cannot_act(addr).await;
    deleted_accounts_sessions_stop_working(addr).await;
    server.shutdown().await.unwrap();
}

/// A cluster node of a site on PostgreSQL at a free loopback port, behind a trusted proxy.
async fn cluster_node(url: &str, limits: Limits) -> RunningServer {
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let storage = Storage::PostgresCluster {
        url: url.to_string(),
        cluster: tabula_server::storage::cluster::ClusterConfig {
            advertise: format!("http://{addr}"),
            secret: "a test cluster secret of enough length".into(),
        },
    };
    let mut cfg = config(registry(), storage, limits);
    cfg.addr = addr;
    tabula_server::start(cfg).await.expect("the node starts")
}

/// On a cluster the failed sign-ins are the site's, not each node's: guesses from
/// one address spread over two nodes spend one (name, address) budget, and a name's lock holds on
/// the other node for the addresses that failed on it — while the owner, from an address that has
/// not failed, still signs in there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_cluster_nodes_share_the_sign_in_failures() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let limits = Limits {
        login: LoginLimits {
            name_burst: 3,
            name_period: Duration::from_secs(3600),
            name_failures_burst: 4,
            name_failures_period: Duration::from_secs(3600),
            address_burst: 100,
            address_period: Duration::from_secs(3600),
        },
        trusted_proxies: vec![IpAddr::from([127, 0, 0, 1])],
        ..Limits::default()
    };
    let a = cluster_node(&url, limits.clone()).await;
    let b = cluster_node(&url, limits).await;
    let (na, nb) = (a.local_addr(), b.local_addr());
    sign_up(na, "sybil", "sybil's long secret").await;
    // Three wrong guesses from one address, on node A, B, A: its (name, address) budget of 3 is
    // spent on the site, so node B refuses it even the right password.
    for node in [na, nb, na] {
        let (s, v) = sign_in_from(node, "203.0.113.1", "sybil", "a wrong guess").await;
        assert_eq!((s, code(&v).as_str()), (401, "wrong_credentials"), "{v}");
    }
    let (s, v) = sign_in_from(nb, "203.0.113.1", "sybil", "sybil's long secret").await;
    assert_eq!((s, code(&v).as_str()), (429, "too_many_attempts"), "{v}");
    // Two more failures, from other addresses on node A, spend the name's 4 failures and one more:
    // those addresses are refused on node B too.
    for from in ["203.0.113.3", "203.0.113.2"] {
        let (s, v) = sign_in_from(na, from, "sybil", "another guess").await;
        assert_eq!((s, code(&v).as_str()), (401, "wrong_credentials"), "{v}");
    }
    let (s, v) = sign_in_from(nb, "203.0.113.2", "sybil", "sybil's long secret").await;
    assert_eq!((s, code(&v).as_str()), (429, "too_many_attempts"), "{v}");
    // The owner, from an address that has not failed, signs in on either node.
    for node in [na, nb] {
        let (s, v) = sign_in_from(node, "198.51.100.7", "sybil", "sybil's long secret").await;
        assert_eq!(s, 200, "{v}");
    }
    a.shutdown().await.unwrap();
    b.shutdown().await.unwrap();
}

// ---------------------------------------------------------------------------------------------
// Sign-up rules and security.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_up_checks_names_and_passwords() {
    let (server, _) = sqlite_server("signup", Limits::default()).await;
    let addr = server.local_addr();
    let (s, rh, v) = call(
        addr,
        &mut Device::new(),
        false,
        "POST",
        "/api/account",
        Some(json!({"name": "Grace", "password": "grace's long secret"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let cookie = rh
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .unwrap()
        .1
        .clone();
    for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attr), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "no TLS, no Secure: {cookie}");
    for (name, password, status, error) in [
        ("grace", "another long secret", 409, "name_taken"),
        ("GRACE", "another long secret", 409, "name_taken"),
        ("gr", "another long secret", 400, "invalid_name"),
        (
            "twenty-one-characters",
            "another long secret",
            400,
            "invalid_name",
        ),
        ("bad name", "another long secret", 400, "invalid_name"),
        ("héloïse", "another long secret", 400, "invalid_name"),
        ("heidi", "short", 400, "weak_password"),
        ("heidi", "heidi", 400, "weak_password"),
        ("heidi", &"x".repeat(129), 400, "weak_password"),
    ] {
        let (s, v) = post(
            addr,
            "/api/account",
            json!({"name": name, "password": password}),
        )
        .await;
        assert_eq!(
            (s, code(&v).as_str()),
            (status, error),
            "{name} / {password}: {v}"
        );
    }
    // Nothing of the refused sign-ups exists.
    let (s, _) = get(addr, "/api/players/heidi").await;
    assert_eq!(s, 404);
    server.shutdown().await.unwrap();

    // Behind TLS the cookie is Secure.
    let limits = Limits {
        secure_cookies: true,
        ..Limits::default()
    };
    let (server, _) = sqlite_server("signup-tls", limits).await;
    let (_, rh, _) = call(
        server.local_addr(),
        &mut Device::new(),
        false,
        "POST",
        "/api/account",
        Some(json!({"name": "ivan", "password": "ivan's long secret"})),
    )
    .await;
    let cookie = &rh.iter().find(|(k, _)| k == "set-cookie").unwrap().1;
    assert!(cookie.contains("; Secure"), "{cookie}");
    server.shutdown().await.unwrap();
}

/// Every state change a session cookie authorises needs the session's CSRF token; without it the
/// request is refused and changes nothing.
async fn cookie_without_csrf_cannot_act(addr: SocketAddr) {
    let mut judy = sign_up(addr, "judy", "judy's long secret").await;
    let forged = |dev: &Device| Device {
        cookie: dev.cookie.clone(),
        csrf: Some("f".repeat(64)),
    };
    for csrf in [false, true] {
        let mut dev = if csrf { forged(&judy) } else { judy.clone() };
        let rated = json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0, "rated": true});
        for (method, path, body) in [
            ("POST", "/api/games", Some(rated)),
            ("DELETE", "/api/session", None),
            (
                "POST",
                "/api/account/password",
                Some(json!({"current": "judy's long secret", "new": "a new long secret"})),
            ),
            (
                "DELETE",
                "/api/account",
                Some(json!({"password": "judy's long secret"})),
            ),
        ] {
            let (s, _, v) = call(addr, &mut dev, csrf, method, path, body).await;
            assert_eq!(
                (s, code(&v).as_str()),
                (403, "csrf"),
                "{method} {path}: {v}"
            );
        }
    }
    // Nothing changed: the session works, the password is the same, no game was created.
    let (s, _, v) = call(addr, &mut judy, false, "GET", "/api/session", None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(decode::<SignedIn>(&v).name, "judy", "{v}");
    let (s, _, _) = sign_in(addr, "judy", "judy's long secret").await;
    assert_eq!(s, 200);
    let (_, _, mine) = call(addr, &mut judy, false, "GET", "/api/me/games", None).await;
    assert!(decode::<MyGames>(&mine).games.is_empty(), "{mine}");
    // With the token, it acts.
    let (s, _, v) = call(addr, &mut judy, true, "DELETE", "/api/session", None).await;
    assert_eq!(s, 200, "{v}");
    assert!(judy.cookie.is_none(), "the cookie is cleared");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_session_cookie_without_the_csrf_token_cannot_act() {
    let (server, _) = sqlite_server("csrf", Limits::default()).await;
    cookie_without_csrf_cannot_act(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

/// Deleting an account ends every session of it at once (on every device).
async fn deleted_accounts_sessions_stop_working(addr: SocketAddr) {
    let mut one = sign_up(addr, "mallory", "mallory's long secret").await;
    let (_, mut two, _) = sign_in(addr, "mallory", "mallory's long secret").await;
    let (s, _, v) = call(
        addr,
        &mut one,
        true,
        "DELETE",
        "/api/account",
        Some(json!({"password": "wrong password"})),
    )
    .await;
    assert_eq!((s, code(&v).as_str()), (401, "wrong_credentials"), "{v}");
    let (s, _, v) = call(
        addr,
        &mut one,
        true,
        "DELETE",
        "/api/account",
        Some(json!({"password": "mallory's long secret"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let stale = two.clone();
    for (method, path) in [("GET", "/api/session"), ("GET", "/api/me/games")] {
        let (s, _, v) = call(addr, &mut two, false, method, path, None).await;
        assert_eq!(
            (s, code(&v).as_str()),
            (401, "not_signed_in"),
            "{method} {path}: {v}"
        );
    }
    let mut two = stale;
    let (s, _, v) = call(addr, &mut two, true, "DELETE", "/api/session", None).await;
    assert_eq!((s, code(&v).as_str()), (401, "not_signed_in"), "{v}");
    let (s, _, v) = sign_in(addr, "mallory", "mallory's long secret").await;
    assert_eq!((s, code(&v).as_str()), (401, "wrong_credentials"), "{v}");
    let (s, _) = get(addr, "/api/players/mallory").await;
    assert_eq!(s, 404);
    // The name is free again.
    sign_up(addr, "Mallory", "a brand new secret").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_deleted_accounts_sessions_stop_working() {
    let (server, _) = sqlite_server("delete", Limits::default()).await;
    deleted_accounts_sessions_stop_working(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_change_ends_the_other_sessions() {
    let (server, _) = sqlite_server("password", Limits::default()).await;
    let addr = server.local_addr();
    let mut one = sign_up(addr, "niaj", "niaj's long secret").await;
    let (_, mut two, _) = sign_in(addr, "niaj", "niaj's long secret").await;
    let change = json!({"current": "niaj's long secret", "new": "niaj's newer secret"});
    let (s, _, v) = call(
        addr,
        &mut one,
        true,
        "POST",
        "/api/account/password",
        Some(change),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, _, _) = call(addr, &mut one, false, "GET", "/api/session", None).await;
    assert_eq!(s, 200, "the session that changed it stays");
    let (s, _, _) = call(addr, &mut two, false, "GET", "/api/session", None).await;
    assert_eq!(s, 401, "the other sessions end");
    assert_eq!(sign_in(addr, "niaj", "niaj's long secret").await.0, 401);
    assert_eq!(sign_in(addr, "niaj", "niaj's newer secret").await.0, 200);
    server.shutdown().await.unwrap();
}

/// An unknown name and a wrong password get the same answer; attempts beyond the name's budget are
/// refused even with the right password, and beyond the address's budget for any name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn brute_force_is_slowed_per_name_and_per_address() {
    let limits = Limits {
        login: LoginLimits {
            name_burst: 3,
            name_period: Duration::from_secs(3600),
            address_burst: 8,
            address_period: Duration::from_secs(3600),
            ..LoginLimits::default()
        },
        ..Limits::default()
    };
    let (server, _) = sqlite_server("brute", limits).await;
    let addr = server.local_addr();
    sign_up(addr, "oscar", "oscar's long secret").await; // 1 of the address's 8
    let (s1, _, unknown) = sign_in(addr, "nobody", "whatever password").await; // 2
    let (s2, _, wrong) = sign_in(addr, "oscar", "whatever password").await; // 3; oscar 1
    assert_eq!((s1, s2), (401, 401));
    assert_eq!(
        unknown, wrong,
        "the same answer for an unknown name and a wrong password"
    );
    assert_eq!(code(&wrong), "wrong_credentials");
    assert_eq!(sign_in(addr, "oscar", "guess two").await.0, 401); // 4; oscar 2
    assert_eq!(sign_in(addr, "OSCAR", "guess three").await.0, 401); // 5; oscar 3
    let (s, dev, v) = sign_in(addr, "oscar", "oscar's long secret").await; // 6; oscar spent
    assert_eq!((s, code(&v).as_str()), (429, "too_many_attempts"), "{v}");
    assert!(dev.cookie.is_none());
    // Another name from this address still may, until the address's budget is spent too.
    sign_up(addr, "peggy", "peggy's long secret").await; // 7
    assert_eq!(sign_in(addr, "peggy", "peggy's long secret").await.0, 200); // 8
    let (s, _, v) = sign_in(addr, "peggy", "peggy's long secret").await;
    assert_eq!((s, code(&v).as_str()), (429, "too_many_attempts"), "{v}");
    server.shutdown().await.unwrap();
}

/// A seat token read through a stolen session (`GET /api/me/games`) stops working when the owner
/// changes the password: requests with it are refused, its socket is closed with `bad_token`, and the
/// owner's devices get the new token from "my games". Deleting the account replaces the tokens too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_tokens_are_replaced_by_a_password_change_and_a_deletion() {
    let (server, _) = sqlite_server("rekey", Limits::default()).await;
    let addr = server.local_addr();
    let mut victor = sign_up(addr, "victor", "victor's long secret").await;
    let mut wendy = sign_up(addr, "wendy", "wendy's long secret").await;
    let duel = json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0});
    let (id, _) = create_as(addr, &mut victor, duel).await;
    let wendys = join_as(addr, &mut wendy, &id, 1).await;
    // A thief with a copy of Victor's session reads his seat's token.
    let mut thief = victor.clone();
    let (_, _, mine) = call(addr, &mut thief, false, "GET", "/api/me/games", None).await;
    let stolen = decode::<MyGames>(&mine).games[0].token.clone();
    let mut socket = ws(addr, &id, Some((0, &stolen))).await;
    recv_snapshot(&mut socket).await;

    let change = json!({"current": "victor's long secret", "new": "victor's newer secret"});
    let (s, _, v) = call(
        addr,
        &mut victor,
        true,
        "POST",
        "/api/account/password",
        Some(change),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // The stolen token's socket is told and closed; the token acts and chats no more.
    let closing = recv_error(&mut socket).await;
    assert_eq!(closing.code, "bad_token", "{closing:?}");
    let r = post_action(addr, &id, 0, &stolen, "secret:amberword").await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{}", r.raw);
    let say = json!({"channel": "players", "seat": 0, "token": stolen, "text": "hi"});
    let (s, v) = post(addr, &format!("/api/games/{id}/chat"), say).await;
    assert_eq!((s, code(&v).as_str()), (403, "bad_token"), "{v}");
    // The owner's session lists the new token, which plays; the other seat's is unchanged.
    let (_, _, mine) = call(addr, &mut victor, false, "GET", "/api/me/games", None).await;
    let fresh = decode::<MyGames>(&mine).games[0].token.clone();
    assert_ne!(fresh, stolen);
    let r = post_action(addr, &id, 0, &fresh, "secret:amberword").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    // The other seat's token is unchanged.
    snap(addr, &id, 1, &wendys).await;
    // The log says the token was replaced, and nothing of the token itself (the raw JSON, searched
    // as text: no field of any name may carry it).
    let sn = snap(addr, &id, 0, &fresh).await;
    assert!(
        sn.events
            .iter()
            .any(|e| e.body == EventBody::TokenReplaced { seat: 0 }),
        "{sn:?}"
    );
    let raw = snapshot(addr, &id, 0, &fresh).await;
    assert!(!raw.to_string().contains("token_hash"), "{raw}");

    // Wendy deletes her account: the token she played with (and her stolen copies) play no more.
    let (s, _, v) = call(
        addr,
        &mut wendy,
        true,
        "DELETE",
        "/api/account",
        Some(json!({"password": "wendy's long secret"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": wendys}),
    )
    .await;
    assert_eq!((s, code(&v).as_str()), (403, "bad_token"), "{v}");
    server.shutdown().await.unwrap();
}

/// One account resigning rated game after rated game to another moves their ratings only for the
/// first few games of the day between them; later ones are recorded as results but change no rating,
/// while a game against someone else still does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_few_rated_games_a_day_between_two_accounts_count() {
    let (server, _) = sqlite_server("farming", Limits::default()).await;
    let addr = server.local_addr();
    let mut xavier = sign_up(addr, "xavier", "xavier's long secret").await;
    let mut yara = sign_up(addr, "yara", "yara's long secret").await;
    let mut zed = sign_up(addr, "zed", "zed's long secret").await;
    let rated = json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}],
                       "host_seat": 0, "rated": true});
    // Yara (seat 1) resigns at once, game after game.
    let mut farm = async |joiner: &mut Device| {
        let (id, _) = create_as(addr, &mut xavier, rated.clone()).await;
        let token = join_as(addr, joiner, &id, 1).await;
        let (s, v) = post(
            addr,
            &format!("/api/games/{id}/resign"),
            json!({"seat": 1, "token": token}),
        )
        .await;
        assert_eq!(s, 200, "{v}");
        let p = profile(addr, "xavier").await;
        let duel = &p.ratings["duel"];
        (duel.rating, duel.games as u64)
    };
    let limit = tabula_server::domain::ratings::RATED_GAMES_PER_PAIR_PER_DAY as u64;
    let mut ratings = Vec::new();
    for _ in 0..limit + 2 {
        ratings.push(farm(&mut yara).await);
    }
    for w in ratings[..limit as usize].windows(2) {
        assert!(
            w[1].0 > w[0].0,
            "the first {limit} games count: {ratings:?}"
        );
    }
    let capped = ratings[limit as usize - 1];
    assert_eq!(
        ratings[limit as usize..],
        [capped, capped],
        "later ones change nothing: {ratings:?}"
    );
    assert_eq!(capped.1, limit);
    // Their results still count; and a game against another account is rated.
    let p = profile(addr, "xavier").await;
    assert_eq!(p.results.win as u64, limit + 2, "{p:?}");
    let (rating, games) = farm(&mut zed).await;
    assert!(rating > capped.0 && games == limit + 1, "{rating} {games}");
    server.shutdown().await.unwrap();
}

/// A game created private (`public: false`) is not listed on its players' public profiles, while
/// playing or once over; public games are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_games_are_not_listed_on_public_profiles() {
    let (server, _) = sqlite_server("private-profile", Limits::default()).await;
    let addr = server.local_addr();
    let mut uma = sign_up(addr, "uma", "uma's long secret").await;
    let duel = |public: bool| {
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human"}],
               "host_seats": [0, 1], "public": public})
    };
    let (private_id, _) = create_as(addr, &mut uma, duel(false)).await;
    let (public_id, _) = create_as(addr, &mut uma, duel(true)).await;
    let listed = |ids: Vec<&String>| -> Vec<String> {
        ids.into_iter()
            .cloned()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>()
    };
    let playing = |p: &Profile| listed(p.playing.iter().map(|g| &g.id).collect());
    let recent = |p: &Profile| listed(p.recent_games.iter().map(|g| &g.id).collect());
    let p = profile(addr, "uma").await;
    assert_eq!(playing(&p), vec![public_id.clone()], "{p:?}");
    // Both end by resignation: only the public one is listed among the finished games.
    let (_, _, mine) = call(addr, &mut uma, false, "GET", "/api/me/games", None).await;
    for g in decode::<MyGames>(&mine).games {
        let (id, token) = (g.id.as_str(), g.token.as_str());
        if g.seat == 0 {
            let (s, v) = post(
                addr,
                &format!("/api/games/{id}/resign"),
                json!({"seat": 0, "token": token}),
            )
            .await;
            assert_eq!(s, 200, "{v}");
        }
    }
    let p = profile(addr, "uma").await;
    assert!(playing(&p).is_empty(), "{p:?}");
    assert_eq!(recent(&p), vec![public_id.clone()], "{p:?}");
    // Nowhere in the profile's raw JSON (searched as text, whatever the field).
    let (_, raw) = get(addr, "/api/players/uma").await;
    assert!(!raw.to_string().contains(&private_id), "{raw}");
    // The player's own list still has both.
    let (_, _, mine) = call(addr, &mut uma, false, "GET", "/api/me/games", None).await;
    assert!(mine.to_string().contains(&private_id), "{mine}");
    server.shutdown().await.unwrap();
}

/// A sign-in attempt for `name` made through the trusted proxy on behalf of client `from`.
async fn sign_in_from(addr: SocketAddr, from: &str, name: &str, password: &str) -> (u16, Value) {
    let body = json!({"name": name, "password": password}).to_string();
    let (s, _, v) = request_with_response_headers(
        addr,
        "POST",
        "/api/session",
        &[("X-Forwarded-For", from)],
        body.as_bytes(),
    )
    .await
    .unwrap();
    (s, v)
}

/// Wrong passwords for a name from many addresses spend the name's failures: the addresses that
/// failed are then refused even with the right password, but the owner, from an address that has not
/// failed, still signs in with it (nobody can lock a player out).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_from_elsewhere_never_locks_the_owner_out() {
    let limits = Limits {
        login: LoginLimits {
            name_burst: 3,
            name_period: Duration::from_secs(3600),
            name_failures_burst: 4,
            name_failures_period: Duration::from_secs(3600),
            address_burst: 100,
            address_period: Duration::from_secs(3600),
        },
        trusted_proxies: vec![IpAddr::from([127, 0, 0, 1])],
        ..Limits::default()
    };
    let (server, _) = sqlite_server("lockout", limits).await;
    let addr = server.local_addr();
    sign_up(addr, "trent", "trent's long secret").await;
    // Five attackers' addresses, one wrong guess each: the name's 4 failures are spent, and the fifth
    // is one too many.
    for i in 1..=5 {
        let (s, v) = sign_in_from(addr, &format!("203.0.113.{i}"), "trent", "a wrong guess").await;
        assert_eq!((s, code(&v).as_str()), (401, "wrong_credentials"), "{v}");
    }
    // An address that failed is refused now, even with the right password.
    let (s, v) = sign_in_from(addr, "203.0.113.1", "trent", "trent's long secret").await;
    assert_eq!((s, code(&v).as_str()), (429, "too_many_attempts"), "{v}");
    // A new address gets one guess (its wrong answer makes it one of the failed ones).
    let (s, v) = sign_in_from(addr, "203.0.113.9", "TRENT", "another guess").await;
    assert_eq!((s, code(&v).as_str()), (401, "wrong_credentials"), "{v}");
    let (s, v) = sign_in_from(addr, "203.0.113.9", "trent", "a third guess").await;
    assert_eq!((s, code(&v).as_str()), (429, "too_many_attempts"), "{v}");
    // The owner, from an address that has not failed, signs in with the right password, twice.
    for _ in 0..2 {
        let (s, v) = sign_in_from(addr, "198.51.100.7", "trent", "trent's long secret").await;
        assert_eq!(s, 200, "the owner is not locked out: {v}");
    }
    // Another name is not locked for the addresses that failed on this one.
    sign_up(addr, "trudy", "trudy's long secret").await;
    let (s, v) = sign_in_from(addr, "203.0.113.1", "trudy", "trudy's long secret").await;
    assert_eq!(s, 200, "{v}");
    server.shutdown().await.unwrap();
}

/// Signing up, in (right and wrong), changing the password and deleting the account: no answer
/// and no log line holds a password or a password hash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_password_or_hash_in_any_response_or_log_line() {
    let log = crate::common::log_buffer().clone();
    let (server, dir) = sqlite_server("secrets", Limits::default()).await;
    let addr = server.local_addr();
    let (first, second, wrong) = ("Quentin-first-pw", "Quentin-second-pw", "Quentin-wrong-pw");
    let mut dev = sign_up(addr, "quentin", first).await;
    let _ = sign_in(addr, "quentin", wrong).await;
    let _ = sign_in(addr, "quentin", first).await;
    let change = json!({"current": first, "new": second});
    let (s, _, _) = call(
        addr,
        &mut dev,
        true,
        "POST",
        "/api/account/password",
        Some(change),
    )
    .await;
    assert_eq!(s, 200);
    let _ = call(addr, &mut dev, false, "GET", "/api/session", None).await;
    let _ = call(addr, &mut dev, false, "GET", "/api/players/quentin", None).await;
    let pool = sqlite_pool(&dir).await;
    let hash: String =
        sqlx::query_scalar("SELECT password_hash FROM accounts WHERE name = 'quentin'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(hash.starts_with("$argon2id$"), "{hash}");
    let (s, _, _) = call(
        addr,
        &mut dev,
        true,
        "DELETE",
        "/api/account",
        Some(json!({"password": second})),
    )
    .await;
    assert_eq!(s, 200);
    server.shutdown().await.unwrap();
    let logged = String::from_utf8_lossy(&log.lock().unwrap()).to_string();
    assert!(
        logged.contains("account created"),
        "the log was captured: {logged}"
    );
    let answers = answers().lock().unwrap().join("\n");
    for secret in [first, second, wrong, "$argon2", hash.as_str()] {
        assert!(!logged.contains(secret), "`{secret}` in the log");
        assert!(!answers.contains(secret), "`{secret}` in an answer");
    }
    let _ = writeln!(std::io::stderr(), "checked {} log bytes", logged.len());
}

/// A rated seek with a rating range admits only players rated within it (1500 before their first
/// rated game); a range on a casual game is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_seek_admits_only_players_within_its_rating_range() {
    let (server, _) = sqlite_server("range", Limits::default()).await;
    let addr = server.local_addr();
    let mut rita = sign_up(addr, "rita", "rita's long secret").await;
    let mut sam = sign_up(addr, "sam", "sam's long secret").await;
    let seats = json!([{"kind": "human"}, {"kind": "human", "open": true}]);
    let (s, _, v) = call(
        addr,
        &mut rita,
        true,
        "POST",
        "/api/games",
        Some(json!({"game": "duel", "seats": seats, "host_seat": 0, "rating_range": {"min": 1000, "max": 2000}})),
    )
    .await;
    assert_eq!((s, code(&v).as_str()), (400, "bad_request"), "{v}");
    let (high, _) = create_as(
        addr,
        &mut rita,
        json!({"game": "duel", "seats": seats, "host_seat": 0, "rated": true, "rating_range": {"min": 1600, "max": 2200}}),
    )
    .await;
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    assert_eq!(
        lobby.open[0].rating_range,
        Some(RatingRange {
            min: 1600.0,
            max: 2200.0
        }),
        "{lobby:?}"
    );
    let (s, _, v) = call(
        addr,
        &mut sam,
        true,
        "POST",
        &format!("/api/games/{high}/join"),
        Some(json!({"seat": 1})),
    )
    .await;
    assert_eq!((s, code(&v).as_str()), (403, "forbidden"), "{v}");
    let lobby = get_as::<Lobby>(addr, "/api/lobby").await.ok();
    assert!(
        !lobby.open[0].seats[1].joined,
        "the seat stays open: {lobby:?}"
    );
    let (around, _) = create_as(
        addr,
        &mut rita,
        json!({"game": "duel", "seats": seats, "host_seat": 0, "rated": true, "rating_range": {"min": 1400, "max": 1600}}),
    )
    .await;
    join_as(addr, &mut sam, &around, 1).await;
    server.shutdown().await.unwrap();
}

/// The lobby's line of game `id` (open or live), or `None`.
async fn lobby_line(addr: SocketAddr, id: &str) -> Option<LobbyGame> {
    let r = get_as::<Lobby>(addr, "/api/lobby").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let lobby = r.ok();
    lobby
        .open
        .into_iter()
        .chain(lobby.live)
        .find(|g| g.id == id)
}

/// The player named on seat `seat` of a lobby line.
fn player(line: &Option<LobbyGame>, seat: usize) -> Option<LobbyPlayer> {
    line.as_ref()
        .unwrap_or_else(|| panic!("the game is not in the lobby"))
        .seats[seat]
        .player
        .clone()
}

/// The lobby names the account holding a seat from its stored summary: a seat claimed into an
/// account is named at once; another game's rated end refreshes the rating shown (in the
/// background: waited for); a restart names it again (from the database); a deleted account is no
/// longer named.
async fn the_lobby_names_the_accounts_holding_seats(storage: Storage) {
    let server = start_with(registry(), storage.clone(), Limits::default()).await;
    let addr = server.local_addr();
    let duel = || json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0});
    // An anonymous seek, claimed into an account afterwards.
    let (seek, tokens) = create(addr, duel()).await;
    let line = lobby_line(addr, &seek).await;
    assert!(player(&line, 0).is_none(), "{line:?}");
    let mut carol = sign_up(addr, "Carol", "carol's long secret").await;
    let claim = json!({"game": seek, "seat": 0, "token": tokens[0].clone().unwrap()});
    let (s, _, v) = call(addr, &mut carol, true, "POST", "/api/me/seats", Some(claim)).await;
    assert_eq!(s, 200, "{v}");
    let line = lobby_line(addr, &seek).await;
    assert_eq!(
        player(&line, 0),
        Some(LobbyPlayer {
            name: "Carol".into(),
            rating: None,
            rd: None
        }),
        "{line:?}"
    );
    assert!(player(&line, 1).is_none(), "{line:?}");

    // Carol wins a rated game (by resignation): the seek shows her new rating.
    let mut dave = sign_up(addr, "dave", "dave's long secret").await;
    let (rated, c0) = create_as(
        addr,
        &mut carol,
        json!({"game": "duel", "seats": [{"kind": "human"}, {"kind": "human", "open": true}], "host_seat": 0, "rated": true}),
    )
    .await;
    let d1 = join_as(addr, &mut dave, &rated, 1).await;
    let line = lobby_line(addr, &rated).await;
    assert_eq!(player(&line, 1).unwrap().name, "dave", "{line:?}");
    let (s, v) = post(
        addr,
        &format!("/api/games/{rated}/resign"),
        json!({"seat": 1, "token": d1}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(snap(addr, &rated, 0, &c0).await.common.status, Status::Over);
    let after = profile(addr, "carol").await.ratings["duel"].rating;
    assert!(after > 1500.0, "the winner's rating is {after}");
    let mut shown = None;
    for _ in 0..500 {
        shown = player(&lobby_line(addr, &seek).await, 0).and_then(|p| p.rating);
        if shown == Some(after) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        shown,
        Some(after),
        "the seek shows the rating before the game"
    );

    // After a restart the summary names her again, from the database.
    server.shutdown().await.unwrap();
    let server = start_with(registry(), storage, Limits::default()).await;
    let addr = server.local_addr();
    let line = lobby_line(addr, &seek).await;
    let named = player(&line, 0).unwrap();
    assert_eq!(named.name, "Carol", "{line:?}");
    assert_eq!(named.rating, Some(after), "{line:?}");

    // A deleted account is named no more (its seat is still joined).
    let (_, mut carol, _) = sign_in(addr, "carol", "carol's long secret").await;
    let (s, _, v) = call(
        addr,
        &mut carol,
        true,
        "DELETE",
        "/api/account",
        Some(json!({"password": "carol's long secret"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let line = lobby_line(addr, &seek).await;
    assert!(line.as_ref().unwrap().seats[0].joined, "{line:?}");
    assert!(player(&line, 0).is_none(), "{line:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_the_lobby_names_the_accounts_holding_seats() {
    the_lobby_names_the_accounts_holding_seats(Storage::SqliteDir(temp_dir("lobby-names"))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_the_lobby_names_the_accounts_holding_seats() {
    let Some(url) = postgres_url().await else {
        return;
    };
    the_lobby_names_the_accounts_holding_seats(Storage::Postgres(url)).await;
}

/// A storage failure in an account request is answered "unavailable" and logged with what was asked
/// and of what (the account's errors carried no context), never a secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_storage_errors_are_logged_with_the_request_and_its_subject() {
    log_buffer();
    let dir = temp_dir("account-storage-context");
    let server = start(&dir).await;
    let addr = server.local_addr();
    sign_up(addr, "ivorstore", "long enough secret").await;
    // The ratings and the seats go away under the server's feet.
    let pool = sqlite_pool(&dir).await;
    for table in ["ratings", "game_seats"] {
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP TABLE {table}")))
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;
    let (s, v) = get(addr, "/api/leaderboard/duel").await;
    assert_eq!(s, 503, "{v}");
    let (s, v) = get(addr, "/api/players/ivorstore").await;
    assert_eq!(s, 503, "{v}");
    let lines = log_lines();
    let logged = |op: &str, subject: &str| {
        lines.iter().any(|l| {
            l.contains("storage error in an account request")
                && l.contains(&format!("op=\"{op}\""))
                && l.contains(subject)
        })
    };
    assert!(logged("leaderboard", "subject=\"duel\""), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("storage error in an account request")
                && l.contains("subject=\"ivorstore\"")),
        "{lines:#?}"
    );
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
