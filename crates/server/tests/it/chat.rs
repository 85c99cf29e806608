//! In-game chat (`crates/server/src/chat.rs`): the players' and the spectators' channels, their
//! separation, the limits, storage across a restart, and tokens; on SQLite and PostgreSQL.

use std::net::SocketAddr;
use std::time::Duration;

use crate::common::*;
use serde_json::json;
use tabula_server::services::limits::ChatLimits;
use tabula_server::wire::api::{ChatHistory, ChatSent, Committed, Created, SignedIn};
use tabula_server::wire::game::{ChatChannel, ChatMessage, SocketMsg};
use tabula_server::{Limits, Storage};
use tabula_tools::client::{WsClient, request_with_response_headers};

/// A signed-in browser: its session cookie and CSRF token.
struct Account {
    cookie: String,
    csrf: String,
}

async fn sign_up(addr: SocketAddr, name: &str) -> Account {
    let body = json!({"name": name, "password": "correct horse battery"}).to_string();
    let (s, rh, v) = request_with_response_headers(
        addr,
        "POST",
        "/api/account",
        &[("Content-Type", "application/json")],
        body.as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(s, 201, "{v}");
    let cookie = rh
        .iter()
        .find_map(|(k, v)| {
            (k == "set-cookie")
                .then(|| v.strip_prefix("tabula_session="))
                .flatten()
        })
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_string();
    Account {
        cookie,
        csrf: decode::<SignedIn>(&v).csrf,
    }
}

/// Posts a chat message as a seat.
async fn say(addr: SocketAddr, id: &str, seat: usize, token: &str, text: &str) -> Reply<ChatSent> {
    post_as(
        addr,
        &format!("/api/games/{id}/chat"),
        json!({"channel": "players", "seat": seat, "token": token, "text": text}),
    )
    .await
}

/// Posts a message to the spectators' chat as a signed-in account.
async fn say_as(addr: SocketAddr, id: &str, who: &Account, text: &str) -> Reply<ChatSent> {
    let cookie = format!("tabula_session={}", who.cookie);
    let body = json!({"channel": "spectators", "text": text}).to_string();
    let (s, _, v) = request_with_response_headers(
        addr,
        "POST",
        &format!("/api/games/{id}/chat"),
        &[
            ("Content-Type", "application/json"),
            ("Cookie", &cookie),
            ("X-CSRF-Token", &who.csrf),
        ],
        body.as_bytes(),
    )
    .await
    .unwrap();
    Reply::read(s, v)
}

/// The texts of a channel in `GET /api/games/{id}/chat` (as `seat` or a spectator); `None` when the
/// channel is not readable.
async fn texts(
    addr: SocketAddr,
    id: &str,
    seat: Option<(usize, &str)>,
    channel: ChatChannel,
) -> Option<Vec<String>> {
    let path = match seat {
        Some((s, t)) => format!("/api/games/{id}/chat?seat={s}&token={t}"),
        None => format!("/api/games/{id}/chat"),
    };
    let (s, v) = get(addr, &path).await;
    assert_eq!(s, 200, "{v}");
    assert_wire::<ChatHistory>(&v);
    let history: ChatHistory = decode(&v);
    history
        .channels
        .get(&channel)
        .map(|a| a.iter().map(|m| m.text.clone()).collect())
}

/// The next chat message a socket receives (snapshots, updates and the rest are skipped): its
/// channel and the message.
async fn next_chat(ws: &mut WsClient) -> (ChatChannel, ChatMessage) {
    recv_find(ws, |m| match m.other() {
        Some(SocketMsg::Chat { channel, message }) => Some((*channel, message.clone())),
        _ => None,
    })
    .await
}

/// The chat history a socket receives after its snapshot.
async fn next_chat_history(
    ws: &mut WsClient,
) -> std::collections::BTreeMap<ChatChannel, Vec<ChatMessage>> {
    recv_find(ws, |m| match m.other() {
        Some(SocketMsg::ChatHistory { channels }) => Some(channels.clone()),
        _ => None,
    })
    .await
}

/// Two seats talk live; spectators talk among themselves; neither sees the other's channel while the
/// game runs; once it is over the players read the spectators' chat, and spectators still never read
/// the players'.
async fn players_and_spectators_talk_apart(addr: SocketAddr) {
    let (id, tokens) = create_duel(addr, 12).await;
    let mut north = ws(addr, &id, Some((0, &tokens[0]))).await;
    let mut south = ws(addr, &id, Some((1, &tokens[1]))).await;
    let mut watcher = ws(addr, &id, None).await;
    for w in [&mut north, &mut south, &mut watcher] {
        recv_snapshot(w).await;
    }

    let r = say(addr, &id, 0, &tokens[0], "  good luck!  ").await;
    assert_eq!(r.status, 201, "{}", r.raw);
    assert_wire::<ChatSent>(&r.raw);
    assert_eq!(r.ok().message.text, "good luck!", "trimmed");
    let (channel, m) = next_chat(&mut south).await;
    assert_eq!(channel, ChatChannel::Players);
    assert_eq!(m.text, "good luck!");
    assert_eq!(m.author, "North");
    assert_eq!(m.seat, Some(0));
    assert_eq!(next_chat(&mut north).await.1.text, "good luck!");
    let r = say(addr, &id, 1, &tokens[1], "you too").await;
    assert_eq!(r.status, 201, "{}", r.raw);
    assert_eq!(next_chat(&mut north).await.1.author, "South");
    assert_eq!(next_chat(&mut south).await.1.text, "you too");

    // A spectator (signed in) writes; the spectator socket's first chat message is that one: the
    // players' two messages, sent before it on the same channel of the game, never reached it.
    let kibitzer = sign_up(addr, "kibitzer").await;
    let r = say_as(addr, &id, &kibitzer, "North is winning").await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let (channel, m) = next_chat(&mut watcher).await;
    assert_eq!(channel, ChatChannel::Spectators);
    assert_eq!(m.author, "kibitzer");
    assert_eq!(m.text, "North is winning");

    // The players do not get it while the game runs: their next chat message is the next players' one.
    let r = say(addr, &id, 0, &tokens[0], "thanks").await;
    assert_eq!(r.status, 201);
    for w in [&mut north, &mut south] {
        let (channel, m) = next_chat(w).await;
        assert_eq!((channel, m.text.as_str()), (ChatChannel::Players, "thanks"));
    }

    // The histories: each reads only its own channel.
    let players = Some(vec!["good luck!".into(), "you too".into(), "thanks".into()]);
    let spectators = Some(vec!["North is winning".to_string()]);
    assert_eq!(
        texts(addr, &id, Some((1, &tokens[1])), ChatChannel::Players).await,
        players
    );
    assert_eq!(
        texts(addr, &id, Some((1, &tokens[1])), ChatChannel::Spectators).await,
        None
    );
    assert_eq!(texts(addr, &id, None, ChatChannel::Players).await, None);
    assert_eq!(
        texts(addr, &id, None, ChatChannel::Spectators).await,
        spectators
    );

    // A socket that connects gets the history it may read after its snapshot.
    let mut late = ws(addr, &id, None).await;
    recv_snapshot(&mut late).await;
    let h = next_chat_history(&mut late).await;
    assert!(!h.contains_key(&ChatChannel::Players), "{h:?}");
    assert_eq!(h[&ChatChannel::Spectators][0].text, "North is winning");

    // Once the game is over, the players read the spectators' chat; spectators still not the players'.
    let r = post_as::<Committed>(
        addr,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": tokens[1]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(
        texts(addr, &id, Some((0, &tokens[0])), ChatChannel::Spectators).await,
        spectators
    );
    assert_eq!(
        texts(addr, &id, Some((0, &tokens[0])), ChatChannel::Players).await,
        players
    );
    assert_eq!(texts(addr, &id, None, ChatChannel::Players).await, None);
    // The players may still talk, and now write in the spectators' chat too.
    let r = say(addr, &id, 1, &tokens[1], "good game").await;
    assert_eq!(r.status, 201);
    let (_, m) = next_chat(&mut north).await;
    assert_eq!(m.text, "good game");
    let r = say_as(addr, &id, &kibitzer, "well played both").await;
    assert_eq!(r.status, 201);
    let (channel, m) = next_chat(&mut north).await;
    assert_eq!(
        (channel, m.text.as_str()),
        (ChatChannel::Spectators, "well played both")
    );
    // The spectator's next chat message is its own channel's: "good game" never reached it.
    let (_, m) = next_chat(&mut watcher).await;
    assert_eq!(m.text, "well played both");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_players_and_spectators_talk_apart() {
    let dir = temp_dir("chat-talk");
    let server = start(&dir).await;
    players_and_spectators_talk_apart(server.local_addr()).await;
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_players_and_spectators_talk_apart() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(registry(), Storage::Postgres(url), Limits::default()).await;
    players_and_spectators_talk_apart(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

/// Messages too long, empty, multi-line or too fast are refused with a clear error and store
/// nothing; a full channel takes no more.
async fn limits_refuse_and_store_nothing(addr: SocketAddr) {
    let (id, tokens) = create_duel(addr, 12).await;
    let refused = |r: Reply<ChatSent>, status: u16, code: &str, words: &str| {
        assert_eq!((r.status, r.code()), (status, Some(code)), "{}", r.raw);
        let message = &r.err().message;
        assert!(message.contains(words), "{message}");
    };
    let long = "x".repeat(141);
    refused(
        say(addr, &id, 0, &tokens[0], &long).await,
        400,
        "bad_request",
        "too long: 141 characters, at most 140",
    );
    // 140 characters of several bytes each are fine.
    let r = say(addr, &id, 0, &tokens[0], &"é".repeat(140)).await;
    assert_eq!(r.status, 201, "{}", r.raw);
    refused(
        say(addr, &id, 0, &tokens[0], "   ").await,
        400,
        "bad_request",
        "empty",
    );
    refused(
        say(addr, &id, 0, &tokens[0], "two\nlines").await,
        400,
        "bad_request",
        "control characters",
    );
    refused(
        post_as(
            addr,
            &format!("/api/games/{id}/chat"),
            json!({"channel": "lobby", "seat": 0, "token": tokens[0], "text": "hi"}),
        )
        .await,
        400,
        "bad_request",
        "unknown chat channel",
    );
    // A burst of 3, then one a day: the fourth is refused (the refused ones above spent nothing).
    for text in ["one", "two"] {
        let r = say(addr, &id, 0, &tokens[0], text).await;
        assert_eq!(r.status, 201, "{}", r.raw);
    }
    refused(
        say(addr, &id, 0, &tokens[0], "three").await,
        429,
        "rate_limited",
        "too fast",
    );
    // The other seat has its own budget.
    let r = say(addr, &id, 1, &tokens[1], "my turn to talk").await;
    assert_eq!(r.status, 201, "{}", r.raw);
    assert_eq!(
        texts(addr, &id, Some((0, &tokens[0])), ChatChannel::Players).await,
        Some(vec![
            "é".repeat(140),
            "one".into(),
            "two".into(),
            "my turn to talk".into()
        ])
    );
    // The channel keeps its latest 5 messages: a sixth is taken, and the oldest goes.
    let r = say(addr, &id, 1, &tokens[1], "five").await;
    assert_eq!(r.status, 201, "{}", r.raw);
    let r = say(addr, &id, 1, &tokens[1], "six").await;
    assert_eq!(r.status, 201, "{}", r.raw);
    assert_eq!(
        texts(addr, &id, Some((1, &tokens[1])), ChatChannel::Players).await,
        Some(vec![
            "one".into(),
            "two".into(),
            "my turn to talk".into(),
            "five".into(),
            "six".into()
        ])
    );
    // Text with nothing visible is refused: invisible, spacing and direction-override characters.
    for blank in [
        "\u{200B}\u{200B}",
        "\u{202E}\u{2066}\u{200F}",
        "\u{3164}",
        "\u{2800}\u{FEFF}",
    ] {
        refused(
            say(addr, &id, 1, &tokens[1], blank).await,
            400,
            "bad_request",
            "nothing visible",
        );
    }
}

/// One address floods the spectators' chat: the channel's own budget refuses the excess ("busy, try
/// again"), never a permanent "full"; once the budget refills messages are taken again, and the
/// channel keeps its latest ones.
async fn a_flood_never_closes_the_spectators_chat(addr: SocketAddr) {
    let (id, _) = create_duel(addr, 12).await;
    let flooder = sign_up(addr, "flooder").await;
    let reader = sign_up(addr, "reader").await;
    // The channel's burst of 3 from one sender (whose own budget is large).
    for i in 0..3 {
        let r = say_as(addr, &id, &flooder, &format!("spam {i}")).await;
        assert_eq!(r.status, 201, "{}", r.raw);
    }
    let r = say_as(addr, &id, &flooder, "spam 3").await;
    assert_eq!(
        (r.status, r.code()),
        (429, Some("rate_limited")),
        "{}",
        r.raw
    );
    assert!(r.err().message.contains("busy"), "{}", r.raw);
    // More than the channel keeps (5): each one is taken once the channel's budget refills.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    for (who, text) in [
        (&flooder, "spam 4"),
        (&reader, "hello"),
        (&flooder, "spam 5"),
        (&reader, "still here"),
    ] {
        loop {
            let r = say_as(addr, &id, who, text).await;
            if r.status == 201 {
                break;
            }
            assert_eq!(
                (r.status, r.code()),
                (429, Some("rate_limited")),
                "{}",
                r.raw
            );
            assert!(
                std::time::Instant::now() < deadline,
                "the chat never took `{text}`"
            );
            tokio::task::yield_now().await;
        }
    }
    assert_eq!(
        texts(addr, &id, None, ChatChannel::Spectators).await,
        Some(vec![
            "spam 2".into(),
            "spam 4".into(),
            "hello".into(),
            "spam 5".into(),
            "still here".into()
        ])
    );
}

fn flood_limits() -> Limits {
    Limits {
        chat: ChatLimits {
            burst: 1000,
            channel_burst: 3,
            channel_period: Duration::from_millis(100),
            max_per_channel: 5,
            ..ChatLimits::default()
        },
        // The test retries until the channel's budget refills: the address's request budget must
        // not be what refuses it.
        http_rate_per_sec: 1e6,
        http_burst: 1e6,
        ..Limits::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_flood_never_closes_the_spectators_chat() {
    let dir = temp_dir("chat-flood");
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), flood_limits()).await;
    a_flood_never_closes_the_spectators_chat(server.local_addr()).await;
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

fn tight_limits() -> Limits {
    Limits {
        chat: ChatLimits {
            max_chars: 140,
            burst: 3,
            period: Duration::from_secs(86_400),
            max_per_channel: 5,
            history: 100,
            ..ChatLimits::default()
        },
        ..Limits::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_limits_refuse_and_store_nothing() {
    let dir = temp_dir("chat-limits");
    let server = start_with(registry(), Storage::SqliteDir(dir.clone()), tight_limits()).await;
    limits_refuse_and_store_nothing(server.local_addr()).await;
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_limits_refuse_and_store_nothing() {
    let Some(url) = postgres_url().await else {
        return;
    };
    let server = start_with(registry(), Storage::Postgres(url), tight_limits()).await;
    limits_refuse_and_store_nothing(server.local_addr()).await;
    server.shutdown().await.unwrap();
}

/// A wrong or missing token, a spectator without an account, and a player in the spectators' chat
/// of a running game are refused; nothing is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_tokens_and_strangers_are_refused() {
    let dir = temp_dir("chat-tokens");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 12).await;
    let r = say(addr, &id, 0, &tokens[1], "I am North").await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{}", r.raw);
    let r = post_as::<ChatSent>(
        addr,
        &format!("/api/games/{id}/chat"),
        json!({"channel": "players", "text": "no token"}),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{}", r.raw);
    let r = post_as::<ChatSent>(
        addr,
        &format!("/api/games/{id}/chat"),
        json!({"channel": "spectators", "text": "anonymous"}),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("forbidden")), "{}", r.raw);
    // Reading the players' chat with a wrong token is refused too.
    let r = get_as::<ChatHistory>(
        addr,
        &format!("/api/games/{id}/chat?seat=1&token={}", tokens[0]),
    )
    .await;
    assert_eq!((r.status, r.code()), (403, Some("bad_token")), "{}", r.raw);
    // An unknown game.
    let r = say(
        addr,
        "00000000-0000-4000-8000-000000000000",
        0,
        &tokens[0],
        "hi",
    )
    .await;
    assert_eq!((r.status, r.code()), (404, Some("not_found")), "{}", r.raw);

    // A player signed in with the account that holds the seat may not advise from the stands.
    let player = sign_up(addr, "northplayer").await;
    let cookie = format!("tabula_session={}", player.cookie);
    let body = json!({"game": "duel", "options": {"target": 12},
                      "seats": [{"kind": "human"}, {"kind": "human"}], "host_seats": [0]})
    .to_string();
    let (s, _, v) = request_with_response_headers(
        addr,
        "POST",
        "/api/games",
        &[
            ("Content-Type", "application/json"),
            ("Cookie", &cookie),
            ("X-CSRF-Token", &player.csrf),
        ],
        body.as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(s, 201, "{v}");
    let own = decode::<Created>(&v).id;
    let r = say_as(addr, &own, &player, "as a spectator").await;
    assert_eq!((r.status, r.code()), (403, Some("forbidden")), "{}", r.raw);

    for (game, seat, token) in [(&id, 0, &tokens[0]), (&id, 1, &tokens[1])] {
        assert_eq!(
            texts(addr, game, Some((seat, token)), ChatChannel::Players).await,
            Some(vec![])
        );
    }
    assert_eq!(
        texts(addr, &id, None, ChatChannel::Spectators).await,
        Some(vec![])
    );
    assert_eq!(
        texts(addr, &own, None, ChatChannel::Spectators).await,
        Some(vec![])
    );
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// Messages outlive the server: after a restart they are in the history and in a socket's
/// `chat_history`, and numbering goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_kept_across_a_restart() {
    let dir = temp_dir("chat-restart");
    let server = start(&dir).await;
    let addr = server.local_addr();
    let (id, tokens) = create_duel(addr, 12).await;
    let r = say(addr, &id, 0, &tokens[0], "before the restart").await;
    assert_eq!(r.status, 201);
    server.shutdown().await.unwrap();

    let server = start(&dir).await;
    let addr = server.local_addr();
    assert_eq!(
        texts(addr, &id, Some((1, &tokens[1])), ChatChannel::Players).await,
        Some(vec!["before the restart".to_string()])
    );
    let mut south = ws(addr, &id, Some((1, &tokens[1]))).await;
    recv_snapshot(&mut south).await;
    let h = next_chat_history(&mut south).await;
    assert_eq!(h[&ChatChannel::Players][0].text, "before the restart");
    assert_eq!(h[&ChatChannel::Players][0].n, 1);
    let r = say(addr, &id, 1, &tokens[1], "after it").await;
    assert_eq!(r.status, 201);
    assert_eq!(r.ok().message.n, 2);
    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}
