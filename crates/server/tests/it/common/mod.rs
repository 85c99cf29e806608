//! Shared test support: a small game with every feature the server must handle (a simultaneous hidden
//! decision, chance, alternating turns, a result), a random bot, and helpers to start servers and talk
//! to them.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabula_core::dynamic::Registry;
use tabula_core::rand::RngExt as _;
use tabula_core::{
    ActionError, Actor, Game, GameOptions, Observer, OptionSpec, OptionsError, Outcome, Seat,
    ToAct, check_listed,
};
use tabula_server::wire::api::{ApiError, ApiErrorDetail, Committed, Created, CreatedSeat};
use tabula_server::wire::game::{EventBody, GameEvent, GameMessage, RematchAck, SocketMsg};
use tabula_server::{BotFn, Limits, RunningServer, ServerConfig, Storage};
use tabula_tools::client::{WsClient, request};

/// The secret words each seat chooses from (never shown to the other seat or spectators).
pub const WORDS: [[&str; 2]; 2] = [["amberword", "azureword"], ["birchword", "beechword"]];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuelOptions {
    pub target: u32,
}

impl Default for DuelOptions {
    fn default() -> Self {
        DuelOptions { target: 12 }
    }
}

impl GameOptions for DuelOptions {
    fn schema() -> Vec<OptionSpec> {
        vec![OptionSpec::int("target", 3, 40, 12, "the count that wins")]
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuelAction {
    Secret(String),
    First(u8),
    Add(u8),
}

/// Duel: both seats pick a secret word at once; chance picks who starts; then the seats alternately
/// add 1 or 2 to a counter; whoever reaches the target wins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Duel {
    pub options: DuelOptions,
    pub secrets: [Option<String>; 2],
    pub first: Option<u8>,
    pub counter: u32,
    pub turn: u8,
    pub winner: Option<u8>,
}

impl Game for Duel {
    type Options = DuelOptions;
    type Action = DuelAction;
    type View = Value;
    const ID: &'static str = "duel";
    const NAME: &'static str = "Duel";
    const DESCRIPTION: &'static str = "A test game.";

    fn new(options: &DuelOptions) -> Result<Self, OptionsError> {
        Ok(Duel {
            options: options.clone(),
            secrets: [None, None],
            first: None,
            counter: 0,
            turn: 0,
            winner: None,
        })
    }
    fn options(&self) -> &DuelOptions {
        &self.options
    }
    fn seats(&self) -> usize {
        2
    }
    fn seat_name(&self, seat: Seat) -> String {
        ["North", "South"][seat.index() % 2].to_string()
    }
    fn to_act(&self) -> ToAct {
        let owing: Vec<Seat> = (0..2)
            .filter(|&i| self.secrets[i].is_none())
            .map(Seat::new)
            .collect();
        if !owing.is_empty() {
            return ToAct::Seats(owing);
        }
        if self.first.is_none() {
            return ToAct::Chance;
        }
        if let Some(w) = self.winner {
            return ToAct::Over(Outcome::winners(2, &[Seat(w)], "reached the target"));
        }
        ToAct::Seat(Seat(self.turn))
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<DuelAction>) {
        match self.to_act() {
            ToAct::Seats(s) if s.contains(&seat) => out.extend(
                WORDS[seat.index()]
                    .iter()
                    .map(|w| DuelAction::Secret(w.to_string())),
            ),
            ToAct::Seat(s) if s == seat => out.extend([DuelAction::Add(1), DuelAction::Add(2)]),
            _ => {}
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(DuelAction, f64)>) {
        if self.to_act() == ToAct::Chance {
            out.extend([(DuelAction::First(0), 0.5), (DuelAction::First(1), 0.5)]);
        }
    }
    fn apply(&mut self, actor: Actor, action: &DuelAction) -> Result<(), ActionError> {
        check_listed(self, actor, action)?;
        match (actor, action) {
            (Actor::Seat(s), DuelAction::Secret(w)) => self.secrets[s.index()] = Some(w.clone()),
            (Actor::Chance, DuelAction::First(f)) => {
                self.first = Some(*f);
                self.turn = *f;
            }
            (Actor::Seat(s), DuelAction::Add(k)) => {
                self.counter += *k as u32;
                if self.counter >= self.options.target {
                    self.winner = Some(s.0);
                } else {
                    self.turn = 1 - self.turn;
                }
            }
            _ => return Err(ActionError::Illegal("not possible".into())),
        }
        Ok(())
    }
    fn view(&self, observer: Observer) -> Value {
        let secret = |i: usize| match observer {
            Observer::Seat(s) if s.index() == i => json!(self.secrets[i]),
            _ => json!(self.secrets[i].is_some()),
        };
        json!({"secrets": [secret(0), secret(1)], "counter": self.counter, "turn": self.turn,
               "first": self.first, "target": self.options.target})
    }
    fn describe_action(
        &self,
        actor: Actor,
        action: &DuelAction,
        observer: Observer,
    ) -> Option<String> {
        match (actor, action, observer) {
            (Actor::Seat(s), DuelAction::Secret(_), Observer::Seat(o)) if s == o => {
                Some(self.action_notation(action))
            }
            (_, DuelAction::Secret(_), _) => None,
            _ => Some(self.action_notation(action)),
        }
    }
    fn action_notation(&self, action: &DuelAction) -> String {
        match action {
            DuelAction::Secret(w) => format!("secret:{w}"),
            DuelAction::First(f) => format!("first:{f}"),
            DuelAction::Add(k) => format!("+{k}"),
        }
    }
    fn parse_action(&self, text: &str) -> Result<DuelAction, ActionError> {
        let bad = || ActionError::Malformed(format!("`{text}` is not Duel notation"));
        if let Some(w) = text.strip_prefix("secret:") {
            return Ok(DuelAction::Secret(w.to_string()));
        }
        if let Some(f) = text.strip_prefix("first:") {
            return f.parse().map(DuelAction::First).map_err(|_| bad());
        }
        if let Some(k) = text.strip_prefix('+') {
            return k.parse().map(DuelAction::Add).map_err(|_| bad());
        }
        Err(bad())
    }
}

/// A registry with Duel.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<Duel>();
    r
}

/// A registry with every real game: Kyo, Territories, both Cyvasse families and Syba.
pub fn every_game() -> Registry {
    let mut r = Registry::new();
    r.register::<kyo::Kyo>();
    r.register::<territories::Territories>();
    r.register::<cyvasse::trump::TrumpCyvasse>();
    r.register::<cyvasse::caird::CairdCyvasse>();
    r.register::<syba::Syba>();
    r
}

/// A bot that plays a random legal action (seeded).
pub fn random_bot() -> BotFn {
    Arc::new(|state, seat, _level, seed| {
        use tabula_core::rand::RngExt;
        let legal = state.legal_actions(seat);
        if legal.is_empty() {
            return Err("no legal action".into());
        }
        let mut rng = tabula_core::rng_from_seed(seed);
        let i = rng.random_range(0..legal.len());
        Ok(legal[i].clone())
    })
}

pub fn config(registry: Registry, storage: Storage, limits: Limits) -> ServerConfig {
    ServerConfig {
        registry,
        bot: random_bot(),
        analyst: None,
        addr: "127.0.0.1:0".parse().unwrap(),
        storage,
        limits,
        clock: std::sync::Arc::new(tabula_server::SystemClock),
    }
}

/// Starts a server with Duel on a SQLite file in `dir`.
pub async fn start(dir: &Path) -> RunningServer {
    start_with(
        registry(),
        Storage::SqliteDir(dir.to_path_buf()),
        Limits::default(),
    )
    .await
}

pub async fn start_with(registry: Registry, storage: Storage, limits: Limits) -> RunningServer {
    tabula_server::start(config(registry, storage, limits))
        .await
        .expect("server starts")
}

/// Evicts idle games until none is loaded (a closed socket's session task may not have let go of its
/// game yet: up to 5 s); returns how many left memory.
pub async fn evict_all_idle(server: &RunningServer) -> usize {
    let mut evicted = 0;
    for _ in 0..500 {
        evicted += server.evict_idle();
        if server.loaded_games() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    evicted
}

/// A fresh temporary directory under the target dir (removed by the caller if wanted).
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let base = std::env::temp_dir().join(format!(
        "tabula-server-test-{name}-{}-{}",
        std::process::id(),
        uuid::Uuid::new_v4()
    ));
    std::fs::create_dir_all(&base).unwrap();
    base
}

/// A raw request: the status and the JSON body as sent. For the tests that inspect raw JSON (a field
/// that must be absent, a deliberately malformed body); the others read answers through the wire types
/// ([`get_as`], [`post_as`]).
pub async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    request(addr, "GET", path, None).await.unwrap()
}

/// A raw `POST` (see [`get`]).
pub async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    request(addr, "POST", path, Some(&body)).await.unwrap()
}

/// An answer read through the wire types: its status and, for a success (2xx), the body as `T`, for a
/// refusal the error body ([`ApiError`]). Decoding is strict: a body that is not a `T` (a field `T`
/// requires is missing or renamed, a value of another form) fails the test at once, naming the body.
pub struct Reply<T> {
    pub status: u16,
    /// The body as sent (for failure messages).
    pub raw: Value,
    pub body: Result<T, ApiErrorDetail>,
}

impl<T> Reply<T> {
    /// Reads `raw` (answered with `status`) through the wire types.
    pub fn read(status: u16, raw: Value) -> Reply<T>
    where
        T: serde::de::DeserializeOwned,
    {
        let body = if (200..300).contains(&status) {
            Ok(decode::<T>(&raw))
        } else {
            Err(decode::<ApiError>(&raw).error)
        };
        Reply { status, raw, body }
    }

    /// The successful answer; panics (with the status and body) on a refusal.
    pub fn ok(self) -> T {
        match self.body {
            Ok(t) => t,
            Err(e) => panic!("expected a success, got {} {:?}", self.status, e),
        }
    }

    /// The refusal; panics on a success.
    pub fn err(&self) -> &ApiErrorDetail {
        match &self.body {
            Err(e) => e,
            Ok(_) => panic!("expected a refusal, got {} {}", self.status, self.raw),
        }
    }

    /// The refusal's code (`None` for a success).
    pub fn code(&self) -> Option<&str> {
        self.body.as_ref().err().map(|e| e.code.as_str())
    }
}

/// `body` read strictly as the wire type `T`; panics naming the type and the body when it is not one.
pub fn decode<T: serde::de::DeserializeOwned>(body: &Value) -> T {
    // Through the text, as a client reads it (a game message's view is raw JSON text).
    let text = body.to_string();
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("not a {} ({e}): {text}", std::any::type_name::<T>()))
}

/// `GET path`, read through the wire types.
pub async fn get_as<T: serde::de::DeserializeOwned>(addr: SocketAddr, path: &str) -> Reply<T> {
    let (status, v) = get(addr, path).await;
    Reply::read(status, v)
}

/// `POST path` with `body`, read through the wire types.
pub async fn post_as<T: serde::de::DeserializeOwned>(
    addr: SocketAddr,
    path: &str,
    body: Value,
) -> Reply<T> {
    let (status, v) = post(addr, path, body).await;
    Reply::read(status, v)
}

/// Posts `notation` as `seat`'s action in game `id`: the committed seq, or the refusal.
pub async fn post_action(
    addr: SocketAddr,
    id: &str,
    seat: usize,
    token: &str,
    notation: &str,
) -> Reply<Committed> {
    post_as(
        addr,
        &format!("/api/games/{id}/action"),
        json!({"seat": seat, "token": token, "notation": notation}),
    )
    .await
}

/// Posts `seat`'s action and checks it is refused with this status and error code.
pub async fn assert_action_refused(
    addr: SocketAddr,
    id: &str,
    seat: usize,
    token: &str,
    notation: &str,
    (status, code): (u16, &str),
) {
    let r = post_action(addr, id, seat, token, notation).await;
    assert_eq!(
        (r.status, r.code()),
        (status, Some(code)),
        "{notation} by seat {seat} in game {id}: {}",
        r.raw
    );
}

/// Creates a game; returns the server's answer, read as its wire type.
pub async fn create_game(addr: SocketAddr, body: Value) -> Created {
    let r = post_as::<Created>(addr, "/api/games", body).await;
    assert_eq!(r.status, 201, "create failed: {}", r.raw);
    r.ok()
}

/// A created seat's token (None for an AI seat and a seat the server made no token for).
pub fn seat_token(seat: &CreatedSeat) -> Option<String> {
    match seat {
        CreatedSeat::Human { token, .. } => token.clone(),
        CreatedSeat::Ai { .. } => None,
    }
}

/// Creates a game; returns its id and each seat's token (None for AI seats).
pub async fn create(addr: SocketAddr, body: Value) -> (String, Vec<Option<String>>) {
    let created = create_game(addr, body).await;
    let tokens = created.seats.iter().map(seat_token).collect();
    (created.id, tokens)
}

/// A two-human Duel with both seats joined by the host.
pub async fn create_duel(addr: SocketAddr, target: u32) -> (String, Vec<String>) {
    let (id, tokens) = create(
        addr,
        json!({"game": "duel", "options": {"target": target}, "seats": [{"kind": "human"}, {"kind": "human"}],
               "host_seats": [0, 1]}),
    )
    .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

pub async fn ws(addr: SocketAddr, id: &str, seat: Option<(usize, &str)>) -> WsClient {
    let path = match seat {
        Some((s, t)) => format!("/api/games/{id}/ws?seat={s}&token={t}"),
        None => format!("/api/games/{id}/ws"),
    };
    WsClient::connect(addr, &path).await.unwrap()
}

pub const T: Duration = Duration::from_secs(10);

/// A snapshot or update message, owned (its view is the game's JSON text).
pub type Snap = GameMessage<'static>;

/// A message of a game's socket, read through the wire types: a snapshot or update, or one of the
/// others ([`SocketMsg`]).
#[derive(Debug, Clone)]
pub enum Msg {
    Game(Box<Snap>),
    Other(SocketMsg),
}

/// A refusal on a socket: the `id` it answers, its code and message.
#[derive(Debug, Clone, PartialEq)]
pub struct WsError {
    pub id: Option<i64>,
    pub code: String,
    pub message: String,
}

/// An acknowledgement: the `id` it answers, the committed seq, the rematch.
#[derive(Debug, Clone, PartialEq)]
pub struct Ack {
    pub id: Option<i64>,
    pub seq: Option<u64>,
    pub rematch: Option<RematchAck>,
}

impl Msg {
    /// Reads one message's text strictly: by its `type`, a [`GameMessage`] or a [`SocketMsg`].
    pub fn read(text: &str) -> Msg {
        #[derive(Deserialize)]
        struct Kind {
            #[serde(rename = "type")]
            kind: String,
        }
        let kind: Kind = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("a socket message without a type ({e}): {text}"));
        match kind.kind.as_str() {
            "snapshot" | "update" => Msg::Game(Box::new(
                serde_json::from_str(text)
                    .unwrap_or_else(|e| panic!("not a GameMessage ({e}): {text}")),
            )),
            _ => Msg::Other(
                serde_json::from_str(text)
                    .unwrap_or_else(|e| panic!("not a SocketMsg ({e}): {text}")),
            ),
        }
    }

    /// The snapshot or update, if it is one.
    pub fn game(&self) -> Option<&Snap> {
        match self {
            Msg::Game(m) => Some(m),
            Msg::Other(_) => None,
        }
    }

    /// A snapshot (not an update), if it is one.
    pub fn snapshot(&self) -> Option<&Snap> {
        self.game()
            .filter(|m| m.common.kind == tabula_server::wire::game::MessageKind::Snapshot)
    }

    /// An update, if it is one.
    pub fn update(&self) -> Option<&Snap> {
        self.game()
            .filter(|m| m.common.kind == tabula_server::wire::game::MessageKind::Update)
    }

    /// The refusal, if it is one.
    pub fn error(&self) -> Option<WsError> {
        match self {
            Msg::Other(SocketMsg::Error { id, code, message }) => Some(WsError {
                id: *id,
                code: code.clone(),
                message: message.clone(),
            }),
            _ => None,
        }
    }

    /// The acknowledgement, if it is one.
    pub fn ack(&self) -> Option<Ack> {
        match self {
            Msg::Other(SocketMsg::Ack { id, seq, rematch }) => Some(Ack {
                id: *id,
                seq: *seq,
                rematch: rematch.clone(),
            }),
            _ => None,
        }
    }

    /// The other message, if it is not a snapshot or update.
    pub fn other(&self) -> Option<&SocketMsg> {
        match self {
            Msg::Other(m) => Some(m),
            Msg::Game(_) => None,
        }
    }

    /// The message's `type`, for failure messages.
    pub fn kind(&self) -> String {
        match self {
            Msg::Game(m) => format!("{:?}", m.common.kind).to_lowercase(),
            Msg::Other(m) => serde_json::to_value(m)
                .ok()
                .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_string))
                .unwrap_or_default(),
        }
    }
}

/// A game message's view as JSON (its form is the game's own).
pub fn view_of(m: &Snap) -> Value {
    serde_json::from_str(m.view.get()).unwrap()
}

/// Asserts two snapshots of one game for one observer show the same position: seq, view, legal
/// actions, events, who is to act and the status (`when` names the moment, e.g. "after restart").
pub fn assert_same_position(b: &Snap, a: &Snap, when: &str) {
    assert_eq!(b.common.seq, a.common.seq, "seq differs {when}");
    assert_eq!(view_of(b), view_of(a), "view differs {when}");
    assert_eq!(b.legal, a.legal, "legal differs {when}");
    assert_eq!(b.events, a.events, "events differs {when}");
    assert_eq!(b.common.to_act, a.common.to_act, "to_act differs {when}");
    assert_eq!(b.common.status, a.common.status, "status differs {when}");
}

/// The Duel's view (see [`Duel::view`]): a seat's own secret word (`null` before it chose), another
/// seat's only as whether it chose.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct DuelView {
    pub secrets: [Secret; 2],
    pub counter: u32,
    pub turn: u8,
    pub first: Option<u8>,
    pub target: u32,
}

/// One seat's secret in a [`DuelView`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Secret {
    /// Another seat's: whether it chose.
    Chosen(bool),
    /// The observer's own word.
    Own(Option<String>),
}

/// A Duel message's view, read strictly.
pub fn duel_view(m: &Snap) -> DuelView {
    serde_json::from_str(m.view.get())
        .unwrap_or_else(|e| panic!("not a Duel view ({e}): {}", m.view.get()))
}

/// A Duel view given as JSON (a past position's, the game's own), read strictly.
pub fn duel(view: &Value) -> DuelView {
    serde_json::from_value(view.clone()).unwrap_or_else(|e| panic!("not a Duel view ({e}): {view}"))
}

/// An event's `kind` as the wire names it.
pub fn event_kind(body: &EventBody) -> &'static str {
    match body {
        EventBody::Created => "created",
        EventBody::Join { .. } => "join",
        EventBody::Start => "start",
        EventBody::TokenReplaced { .. } => "token_replaced",
        EventBody::Action { .. } => "action",
        EventBody::DrawOffer { .. } => "draw_offer",
        EventBody::DrawAccept { .. } => "draw_accept",
        EventBody::DrawDecline { .. } => "draw_decline",
        EventBody::TakebackOffer { .. } => "takeback_offer",
        EventBody::TakebackAccept { .. } => "takeback_accept",
        EventBody::TakebackDecline { .. } => "takeback_decline",
        EventBody::Takeback { .. } => "takeback",
        EventBody::Resign { .. } => "resign",
        EventBody::Timeout { .. } => "timeout",
        EventBody::End { .. } => "end",
        EventBody::Rematch { .. } => "rematch",
    }
}

/// The kinds of a message's events, in order.
pub fn event_kinds(m: &Snap) -> Vec<&'static str> {
    m.events.iter().map(|e| event_kind(&e.body)).collect()
}

/// Whether an event is an action by this actor.
pub fn is_action_by(e: &GameEvent, by: Actor) -> bool {
    matches!(e.body, EventBody::Action { actor, .. } if actor == by)
}

/// The next message on the socket (it must stay open), read through the wire types.
pub async fn next_msg(ws: &mut WsClient) -> Msg {
    let text = ws.recv_text(T).await.unwrap().expect("connection open");
    Msg::read(&text)
}

/// The next message, which must be a snapshot or an update.
pub async fn next_game(ws: &mut WsClient) -> Snap {
    match next_msg(ws).await {
        Msg::Game(m) => *m,
        Msg::Other(m) => panic!("expected a snapshot or update, got {m:?}"),
    }
}

/// Receives messages (read through the wire types) until `pick` takes one; returns what it took.
pub async fn recv_find<R>(ws: &mut WsClient, mut pick: impl FnMut(&Msg) -> Option<R>) -> R {
    loop {
        let m = next_msg(ws).await;
        if let Some(r) = pick(&m) {
            return r;
        }
    }
}

/// Receives messages until a snapshot or update satisfies `pred`; returns it.
pub async fn recv_game(ws: &mut WsClient, pred: impl Fn(&Snap) -> bool) -> Snap {
    recv_find(ws, |m| m.game().filter(|g| pred(g)).cloned()).await
}

/// [`recv_game`] that also returns the message's text as sent (for a test that searches it).
pub async fn recv_game_text(ws: &mut WsClient, pred: impl Fn(&Snap) -> bool) -> (String, Snap) {
    loop {
        let text = ws.recv_text(T).await.unwrap().expect("connection open");
        if let Msg::Game(m) = Msg::read(&text)
            && pred(&m)
        {
            return (text, *m);
        }
    }
}

/// Receives messages until a snapshot (not an update); returns it.
pub async fn recv_snapshot(ws: &mut WsClient) -> Snap {
    recv_find(ws, |m| m.snapshot().cloned()).await
}

/// Receives messages until an update; returns it.
pub async fn recv_update(ws: &mut WsClient) -> Snap {
    recv_find(ws, |m| m.update().cloned()).await
}

/// Receives messages until a refusal; returns it.
pub async fn recv_error(ws: &mut WsClient) -> WsError {
    recv_find(ws, Msg::error).await
}

/// Receives messages until an acknowledgement; returns it.
pub async fn recv_ack(ws: &mut WsClient) -> Ack {
    recv_find(ws, Msg::ack).await
}

/// Receives raw messages until one satisfies `pred`; returns it. For the tests that inspect a
/// message's raw JSON; the others read messages through the wire types ([`recv_find`]).
pub async fn recv_until(ws: &mut WsClient, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let m = ws.recv(T).await.unwrap().expect("connection open");
        if pred(&m) {
            return m;
        }
    }
}

/// The seat's snapshot over HTTP, read through the wire types.
pub async fn snap(addr: SocketAddr, id: &str, seat: usize, token: &str) -> Snap {
    let r = get_as::<Snap>(addr, &format!("/api/games/{id}?seat={seat}&token={token}")).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    r.ok()
}

/// The seat's snapshot over HTTP as raw JSON (see [`snap`] for the typed one).
pub async fn snapshot(addr: SocketAddr, id: &str, seat: usize, token: &str) -> Value {
    let (status, v) = get(addr, &format!("/api/games/{id}?seat={seat}&token={token}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

/// Plays the first legal action of whichever seat owes one, over HTTP. Returns the ack seq and the
/// action's notation, or None when nobody owes anything.
pub async fn http_step(addr: SocketAddr, id: &str, tokens: &[String]) -> Option<(u64, String)> {
    for (seat, token) in tokens.iter().enumerate() {
        let snap = snap(addr, id, seat, token).await;
        if let Some(first) = snap.legal.first() {
            let r = post_as::<Committed>(
                addr,
                &format!("/api/games/{id}/action"),
                json!({"seat": seat, "token": token, "action": first.action}),
            )
            .await;
            assert_eq!(r.status, 200, "action refused: {}", r.raw);
            return Some((r.ok().seq, first.notation.clone()));
        }
    }
    None
}

/// Plays one random legal action of whichever seat owes one; false when nobody does.
pub async fn random_step(
    addr: SocketAddr,
    id: &str,
    tokens: &[String],
    rng: &mut tabula_core::GameRng,
) -> bool {
    for (seat, token) in tokens.iter().enumerate() {
        let snap = snap(addr, id, seat, token).await;
        if snap.legal.is_empty() {
            continue;
        }
        let pick = &snap.legal[rng.random_range(0..snap.legal.len())];
        let r = post_as::<Committed>(
            addr,
            &format!("/api/games/{id}/action"),
            json!({"seat": seat, "token": token, "action": pick.action}),
        )
        .await;
        assert_eq!(
            r.status, 200,
            "a listed legal action was refused: {}",
            r.raw
        );
        return true;
    }
    false
}

/// The SQLite pool of a server's data directory, opened a second time (as another process would), to
/// hold the database's write lock or to edit the stored log while the server is down.
pub async fn sqlite_pool(dir: &Path) -> sqlx::SqlitePool {
    match tabula_server::storage::db::Db::open_sqlite_dir(dir)
        .await
        .unwrap()
    {
        tabula_server::storage::db::Db::Sqlite(pool) => pool,
        tabula_server::storage::db::Db::Postgres(_) => unreachable!("a SQLite directory"),
    }
}

/// Whether game `id`'s room is busy (its lock held, e.g. by a commit waiting for the database): its
/// snapshot, which takes milliseconds, does not answer within a second.
pub async fn room_is_busy(addr: SocketAddr, id: &str) -> bool {
    let path = format!("/api/games/{id}");
    tokio::time::timeout(Duration::from_secs(1), request(addr, "GET", &path, None))
        .await
        .is_err()
}

/// Reads what a socket still gets until the server closes it; panics if it stays open (silent) for
/// `T`. Returns the messages received before the close, read through the wire types.
pub async fn until_closed(ws: &mut WsClient) -> Vec<Msg> {
    let mut got = Vec::new();
    loop {
        match ws.recv_text(T).await {
            Ok(Some(text)) => got.push(Msg::read(&text)),
            Ok(None) => return got,
            Err(e) if e.contains("timed out") => {
                let kinds: Vec<String> = got
                    .iter()
                    .map(|m| match m {
                        Msg::Game(g) => format!("{} {:?} {:?}", m.kind(), g.common.status, g.you),
                        Msg::Other(o) => format!("{o:?}"),
                    })
                    .collect();
                panic!("the connection stayed open; it got {kinds:?}")
            }
            // A reset after the close frame is a close too.
            Err(_) => return got,
        }
    }
}

/// Whether a missing PostgreSQL fails the tests instead of skipping them (CI, or
/// `TABULA_TEST_REQUIRE_POSTGRES=1`, which `scripts/with-postgres.sh` sets).
pub fn postgres_required() -> bool {
    let set = |k: &str| std::env::var(k).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    set("CI") || set("TABULA_TEST_REQUIRE_POSTGRES")
}

/// The URL of a fresh, empty database on the test cluster (`TABULA_TEST_POSTGRES_URL`), or `None`
/// (after saying so on the terminal) when there is none and none is required.
pub async fn postgres_url() -> Option<String> {
    use std::io::Write as _;
    let base = match std::env::var("TABULA_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            assert!(
                !postgres_required(),
                "PostgreSQL tests must run here (CI or TABULA_TEST_REQUIRE_POSTGRES) but \
                 TABULA_TEST_POSTGRES_URL is unset: run them with crates/server/scripts/with-postgres.sh"
            );
            let _ = writeln!(
                std::io::stderr(),
                "PostgreSQL test NOT RUN: TABULA_TEST_POSTGRES_URL is unset (run the tests with \
                 crates/server/scripts/with-postgres.sh)"
            );
            return None;
        }
    };
    let name = format!("tabula_test_{}", uuid::Uuid::new_v4().simple());
    let pool = sqlx::PgPool::connect(&base)
        .await
        .expect("TABULA_TEST_POSTGRES_URL names a reachable PostgreSQL");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let (head, tail) = base
        .rsplit_once('/')
        .expect("a postgres:// URL with a database");
    let query = tail
        .split_once('?')
        .map_or(String::new(), |(_, q)| format!("?{q}"));
    Some(format!("{head}/{name}{query}"))
}

/// `body` reads as the wire type `T` and writes back as the identical JSON: what the server sent is
/// exactly what the generated TypeScript declaration of `T` describes.
#[allow(dead_code)]
pub fn assert_wire<T: serde::de::DeserializeOwned + Serialize>(body: &Value) {
    let typed: T = serde_json::from_value(body.clone())
        .unwrap_or_else(|e| panic!("not a {} ({e}): {body}", std::any::type_name::<T>()));
    assert_eq!(
        &serde_json::to_value(&typed).unwrap(),
        body,
        "{} round trip",
        std::any::type_name::<T>()
    );
}

/// Everything the server logged in this test binary, at every level, without colours: one global
/// subscriber for every test. The tests run in one process, so a test finds its lines by what they
/// name (a game's id, a player's name), never by their position alone.
pub fn log_buffer() -> &'static std::sync::Arc<std::sync::Mutex<Vec<u8>>> {
    static LOG: std::sync::OnceLock<std::sync::Arc<std::sync::Mutex<Vec<u8>>>> =
        std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = buf.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || LogSink(sink.clone()))
            .finish();
        let _ = tracing::subscriber::set_global_default(subscriber);
        buf
    })
}

/// The lines logged so far (see [`log_buffer`]).
pub fn log_lines() -> Vec<String> {
    let bytes = log_buffer().lock().unwrap().clone();
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

struct LogSink(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogSink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
