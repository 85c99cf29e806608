//! Two live games that a seat cannot tell apart send that seat the same messages: the
//! legal actions follow from what the seat sees, end to end. The engine-level property (every
//! game, thousands of random positions, `determinize` samples as the look-alikes) is
//! `crates/ai/tests/legal_follows_view.rs`; here the server's own messages are compared.
//!
//! The games are the hidden setups of both Cyvasse families: in two games the second seat commits
//! a different setup, which the first seat may not see. Everything the first seat then receives —
//! snapshot and update: view, `legal` (with its words and cells), `legal_sampled`, events, the
//! terminal drawing — must be the same in both games, apart from what names the game itself (its
//! id, its seed's commitment) and the server's clock (`now`, each event's `at`).

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::Registry;
use tabula_server::wire::api::Committed;
use tabula_server::wire::game::MessageKind;
use tabula_server::{Limits, Storage};
use tabula_tools::client::WsClient;

fn games_registry() -> Registry {
    let mut r = Registry::new();
    r.register::<cyvasse::trump::TrumpCyvasse>();
    r.register::<cyvasse::caird::CairdCyvasse>();
    r
}

/// A message without what names the game or the moment: the rest is what the seat learns. Compared
/// as raw JSON on purpose: every field the server sends, whether or not a type names it.
fn seen_by_the_seat(m: &Value) -> Value {
    let mut m = m.clone();
    let o = m.as_object_mut().unwrap();
    for key in ["id", "now", "seed_commitment"] {
        assert!(o.remove(key).is_some(), "messages carry `{key}`");
    }
    for e in o
        .get_mut("events")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        e.as_object_mut().unwrap().remove("at");
    }
    m
}

/// The next snapshot or update on `sock`, as raw JSON (see [`seen_by_the_seat`]); it reads as a
/// [`Snap`].
async fn next_game_message(sock: &mut WsClient) -> Value {
    let (text, _) = recv_game_text(sock, |_| true).await;
    serde_json::from_str(&text).unwrap()
}

/// One game of `game`: both seats hosted here; seat 0 watches it on a socket. Returns the id, the
/// tokens and seat 0's socket after its first snapshot (and that snapshot).
async fn open_game(
    addr: std::net::SocketAddr,
    game: &str,
) -> (String, Vec<String>, WsClient, Value) {
    let (id, tokens) = create(
        addr,
        json!({"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0, 1]}),
    )
    .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    let mut sock = ws(addr, &id, Some((0, &tokens[0]))).await;
    let first = next_game_message(&mut sock).await;
    (id, tokens, sock, first)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_a_seat_cannot_tell_apart_send_it_the_same_messages() {
    let limits = Limits {
        http_rate_per_sec: 10_000.0,
        http_burst: 10_000.0,
        ..Limits::default()
    };
    let server = start_with(
        games_registry(),
        Storage::SqliteDir(temp_dir("indistinguishable")),
        limits,
    )
    .await;
    let addr = server.local_addr();
    for game in ["cyvasse-trump", "cyvasse-caird"] {
        let (id_a, tokens_a, mut sock_a, first_a) = open_game(addr, game).await;
        let (id_b, tokens_b, mut sock_b, first_b) = open_game(addr, game).await;
        assert_eq!(
            seen_by_the_seat(&first_a),
            seen_by_the_seat(&first_b),
            "{game}: two new games look the same"
        );
        assert!(
            !decode::<Snap>(&first_a).legal.is_empty(),
            "{game}: seat 0 owes its setup"
        );
        // The second seat commits a different setup in each game (two of its listed setups).
        let setups = snap(addr, &id_a, 1, &tokens_a[1]).await.legal;
        assert!(setups.len() >= 2, "{game}: several setups are listed");
        for (id, tokens, setup) in [
            (&id_a, &tokens_a, &setups[0]),
            (&id_b, &tokens_b, &setups[1]),
        ] {
            let r = post_as::<Committed>(
                addr,
                &format!("/api/games/{id}/action"),
                json!({"seat": 1, "token": tokens[1], "action": setup.action}),
            )
            .await;
            assert_eq!(r.status, 200, "{game}: {}", r.raw);
        }
        assert_ne!(setups[0].action, setups[1].action);
        // The two games differ now (a spectator of each would see it after the start), but not for
        // seat 0: its update and a fresh snapshot are the same in both games, `legal` included.
        let update_a = next_game_message(&mut sock_a).await;
        let update_b = next_game_message(&mut sock_b).await;
        assert_eq!(decode::<Snap>(&update_a).common.kind, MessageKind::Update);
        assert_eq!(
            seen_by_the_seat(&update_a),
            seen_by_the_seat(&update_b),
            "{game}: seat 0's update depends on the hidden setup"
        );
        let snap_a = snapshot(addr, &id_a, 0, &tokens_a[0]).await;
        let snap_b = snapshot(addr, &id_b, 0, &tokens_b[0]).await;
        assert!(
            !decode::<Snap>(&snap_a).legal.is_empty(),
            "{game}: seat 0 still owes its setup"
        );
        assert_eq!(
            seen_by_the_seat(&snap_a),
            seen_by_the_seat(&snap_b),
            "{game}: seat 0's snapshot depends on the hidden setup"
        );
        // The hidden part does differ: seat 1 sees its own setup in its view.
        let seat1_a = snap(addr, &id_a, 1, &tokens_a[1]).await;
        let seat1_b = snap(addr, &id_b, 1, &tokens_b[1]).await;
        assert_ne!(
            view_of(&seat1_a),
            view_of(&seat1_b),
            "{game}: the two games differ in what seat 0 cannot see"
        );
    }
    server.shutdown().await.unwrap();
}
