//! A game's messages: the snapshot and update every observer gets (over its WebSocket, and the
//! snapshot over HTTP), the other messages the socket sends ([`SocketMsg`]: acknowledgements, errors,
//! chat and analysis pushes), and the operations a client sends on it ([`ClientOp`]). See
//! `docs/protocol.md` for what each field means; these types are the authoritative shapes (their
//! TypeScript declarations are generated under `web/src/wire/server/`).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use tabula_core::dynamic::ListedAction;
use tabula_core::wire::{Config, ExportError, TS};
use tabula_core::{Actor, Observer, Outcome, ToAct};
use utoipa::ToSchema;

use crate::domain::model::{self, Clock};

/// Exports this module's wire types under `server/`.
pub fn export_ts(cfg: &Config) -> Result<(), ExportError> {
    GameMessage::export_all(cfg)?;
    SocketMsg::export_all(cfg)?;
    ClientOp::export_all(cfg)?;
    OfferOp::export_all(cfg)?;
    Ok(())
}

/// Whether a [`GameMessage`] is a snapshot (the whole game as this observer sees it, answering a
/// connection, a `sync` or `GET /api/games/{id}`) or an update (one committed change).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum MessageKind {
    Snapshot,
    Update,
}

/// The part of a snapshot or update that every observer shares: rendered once per change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct GameCommon {
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub kind: MessageKind,
    /// The game's id.
    pub id: String,
    /// The game kind (`kyo`, `syba`, …).
    pub game: String,
    /// The game kind's display name.
    pub name: String,
    pub status: Status,
    /// The last event's seq.
    pub seq: u64,
    /// The server's time of this message (ms since the epoch): clocks count down from it.
    pub now: i64,
    pub seats: Vec<SeatInfo>,
    /// The game's options, every one filled in (their names and values are the game's own).
    #[ts(type = "Record<string, unknown>")]
    #[schema(value_type = Object)]
    pub options: Value,
    pub rated: bool,
    #[schema(value_type = Object)]
    pub to_act: ToAct,
    pub draw_offer: Option<Offer>,
    pub takeback_offer: Option<Offer>,
    pub clock: Option<ClockState>,
    #[schema(value_type = Option<Object>)]
    pub result: Option<Outcome>,
    /// SHA-256 (hex) of the seed's 8 little-endian bytes, from the first message on.
    pub seed_commitment: String,
    /// The seed (a decimal string, exact in every JSON reader), once the game is over.
    pub seed: Option<String>,
}

/// A snapshot or update message: the shared part, then what is this observer's own.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct GameMessage<'a> {
    #[serde(flatten)]
    #[ts(flatten)]
    #[schema(inline)]
    pub common: Cow<'a, GameCommon>,
    /// Who this message is for: `{"seat": n}` or `"spectator"`.
    #[schema(value_type = Object)]
    pub you: Observer,
    /// The rematch of a finished game, once one was asked for.
    pub rematch: Option<RematchLink>,
    /// This observer's view of the game, as the game crate writes it (typed per game in
    /// `web/src/wire/<game>/`).
    #[ts(type = "unknown")]
    #[schema(value_type = Object)]
    pub view: Cow<'a, RawValue>,
    /// The legal actions of this observer's seat when it owes a decision (else empty).
    #[schema(value_type = Vec<Object>)]
    pub legal: Vec<ListedAction>,
    /// `legal` is a sample of the seat's actions, not all of them (a hidden setup's choices).
    pub legal_sampled: bool,
    /// The events after the socket's last seq (a snapshot: after `since`), as this observer may
    /// see them.
    pub events: Vec<GameEvent>,
    /// What this observer's seat may do now, as the server decides it (the same checks that accept
    /// or refuse the request); `null` for a spectator. The client offers exactly these.
    pub may: Option<SeatMay>,
    /// A snapshot's terminal drawing of the game as this observer sees it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// The `id` of the `sync` this snapshot answers (`null` for a `sync` without one); absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "request_id")]
    #[ts(optional, as = "Option<Option<i64>>")]
    #[schema(value_type = Option<i64>)]
    pub request_id: Option<Option<i64>>,
}

/// What a seat may do now (in every [`GameMessage`] to a seat), decided by the server with the
/// checks that accept or refuse each request, so that a client offers exactly what it accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct SeatMay {
    /// Whether the seat may ask to take back its last turn (`takeback` op `offer`).
    pub takeback: bool,
    /// Why not, in the server's words (the refusal such a request gets); `null` when it may.
    pub takeback_refusal: Option<String>,
    /// Whether the engine gives this seat a hint now (`POST /api/games/{id}/hint`).
    pub hint: bool,
    /// Whether the seat may offer a draw now (`draw` op `offer`).
    pub draw_offer: bool,
}

/// `request_id`: absent (`None`), `null` (`Some(None)`) or a number.
mod request_id {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<Option<i64>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(id) => id.serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<i64>>, D::Error> {
        Option::<i64>::deserialize(d).map(Some)
    }
}

/// One seat of a game: its number, its side's name, whether it has joined, and who plays it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct SeatInfo {
    pub seat: usize,
    pub name: String,
    pub joined: bool,
    #[serde(flatten)]
    #[ts(flatten)]
    pub kind: SeatKind,
    /// The account holding the seat, with its rating in this game (absent for a seat no account
    /// holds: an anonymous player's, an open or AI seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub player: Option<SeatPlayer>,
}

/// The account holding a seat, as a game's page, "my games" and a profile name it: its name and its
/// rating in the game's kind for this game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct SeatPlayer {
    pub name: String,
    /// The rating this game was played at: for a finished game that changed ratings, the rating
    /// before it; otherwise the account's rating in the game's kind now (`null` before its first
    /// rated game of that kind: it plays at the starting 1500, provisionally).
    pub rating: Option<f64>,
    /// The rating is provisional (its deviation is 110 or more, or there is none yet): shown as
    /// "1500?".
    pub provisional: bool,
    /// A finished game that changed ratings: the rating after it (`rating_change` is the
    /// difference, `rating_after - rating`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating_after: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating_change: Option<f64>,
}

// The wire's own type (the domain's is `model::Status`).
/// A game's lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum Status {
    Waiting,
    Running,
    Over,
    Imported,
}

impl From<model::Status> for Status {
    fn from(status: model::Status) -> Status {
        match status {
            model::Status::Waiting => Status::Waiting,
            model::Status::Running => Status::Running,
            model::Status::Over => Status::Over,
            model::Status::Imported => Status::Imported,
        }
    }
}

// The wire's own type; the log stores `model::SeatKind`, converted at the edge (so a change for the
// client never changes what old logs hold).
/// Who plays a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum SeatKind {
    /// A person, with a secret token: the creator's own seat or a friend's, joined by the link the
    /// creator was given; or (`open`) a seat anyone may take from the lobby.
    Human {
        /// Open to anyone: listed in the lobby with a "Join" button, joined without a token. A seat
        /// that is not open is joined only with its link, never claimed from the lobby.
        #[serde(default, skip_serializing_if = "is_false")]
        open: bool,
    },
    /// The server's AI at a level.
    Ai { level: u8 },
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl From<model::SeatKind> for SeatKind {
    fn from(kind: model::SeatKind) -> SeatKind {
        match kind {
            model::SeatKind::Human { open } => SeatKind::Human { open },
            model::SeatKind::Ai { level } => SeatKind::Ai { level },
        }
    }
}

impl From<SeatKind> for model::SeatKind {
    fn from(kind: SeatKind) -> model::SeatKind {
        match kind {
            SeatKind::Human { open } => model::SeatKind::Human { open },
            SeatKind::Ai { level } => model::SeatKind::Ai { level },
        }
    }
}

// The wire's own type; the log stores `model::ClockSpec`.
/// A game clock, enforced by the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum ClockSpec {
    /// Fischer: a bank per seat, running while that seat owes a decision, plus an increment when its
    /// decision streak ends.
    Fischer { initial_ms: u64, increment_ms: u64 },
    /// Correspondence: so many days for each decision.
    Correspondence { days_per_move: u32 },
}

impl From<model::ClockSpec> for ClockSpec {
    fn from(spec: model::ClockSpec) -> ClockSpec {
        match spec {
            model::ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            } => ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            },
            model::ClockSpec::Correspondence { days_per_move } => {
                ClockSpec::Correspondence { days_per_move }
            }
        }
    }
}

impl From<ClockSpec> for model::ClockSpec {
    fn from(spec: ClockSpec) -> model::ClockSpec {
        match spec {
            ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            } => model::ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            },
            ClockSpec::Correspondence { days_per_move } => {
                model::ClockSpec::Correspondence { days_per_move }
            }
        }
    }
}

/// A pending draw offer or takeback request: `by` asked; the seats in `accepted` agree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Offer {
    pub by: u8,
    pub accepted: Vec<u8>,
}

/// A game's clock at a message's `now`: its kind and numbers, and each seat's time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ClockState {
    #[serde(flatten)]
    #[ts(flatten)]
    pub spec: ClockSpec,
    pub seats: Vec<ClockSeat>,
}

/// One seat's clock: its time left at the message's `now`, and whether it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ClockSeat {
    pub remaining_ms: i64,
    pub running: bool,
}

/// A finished game's rematch: the new game, and (for a seat) the seat it plays there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct RematchLink {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seat: Option<usize>,
}

/// One event of the game's log as an observer sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct GameEvent {
    pub seq: u64,
    /// When it was committed (ms since the epoch).
    pub at: i64,
    #[serde(flatten)]
    #[ts(flatten)]
    pub body: EventBody,
}

/// What an event says, by its `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum EventBody {
    /// The game was created (seq 1).
    Created,
    /// A human seat joined.
    Join {
        seat: u8,
    },
    /// Every seat has joined; clocks start.
    Start,
    /// `seat`'s token was replaced (its account changed its password or was deleted): a client
    /// holding the old one is told `bad_token` and plays the seat no more.
    TokenReplaced {
        seat: u8,
    },
    /// An action by a seat or by chance, as this observer sees it.
    Action {
        #[schema(value_type = Object)]
        actor: Actor,
        /// Its notation; `null` when the action is hidden from this observer.
        notation: Option<String>,
        /// The cells it involves (empty when hidden or chosen by a button).
        cells: Vec<String>,
        /// The action in a player's plain words.
        words: Option<String>,
        /// The game's turn count before the action.
        turn: Option<u32>,
    },
    DrawOffer {
        seat: u8,
    },
    DrawAccept {
        seat: u8,
    },
    DrawDecline {
        seat: u8,
    },
    TakebackOffer {
        seat: u8,
    },
    TakebackAccept {
        seat: u8,
    },
    TakebackDecline {
        seat: u8,
    },
    /// `seat`'s last turn was taken back: the actions after event `to_seq` are undone.
    Takeback {
        seat: u8,
        to_seq: u64,
    },
    Resign {
        seat: u8,
    },
    Timeout {
        seat: u8,
    },
    /// The game ended.
    End {
        #[schema(value_type = Object)]
        result: Outcome,
    },
    /// A rematch was created: the new game's id.
    Rematch {
        game: String,
    },
}

/// Every message a game's socket sends besides snapshots and updates ([`GameMessage`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum SocketMsg {
    /// A change the client asked for was committed: the seq of its event, or (a rematch) the new
    /// game and the seat this client plays there.
    Ack {
        id: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        seq: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        rematch: Option<RematchAck>,
    },
    /// A refusal, with the code and message of the HTTP error it stands for (`id`: the message it
    /// answers, `null` when there is none).
    Error {
        id: Option<i64>,
        code: String,
        message: String,
    },
    /// The answer to a `ping`.
    Pong { id: Option<i64> },
    /// A chat message, to the sockets that may read its channel.
    Chat {
        channel: ChatChannel,
        message: ChatMessage,
    },
    /// The chat's latest messages, after a snapshot, in the channels this observer may read.
    ChatHistory {
        channels: BTreeMap<ChatChannel, Vec<ChatMessage>>,
    },
    /// The progress of the game's analysis (`POST /api/games/{id}/analysis`).
    Analysis {
        status: AnalysisStatus,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        done: Option<usize>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        total: Option<usize>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        waiting: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        error: Option<String>,
    },
}

impl SocketMsg {
    /// The message as JSON text.
    pub fn to_text(&self) -> String {
        // Serialising these types cannot fail (no map with non-string keys, no failing impl).
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A rematch's acknowledgement: the new game and the seat this client plays there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct RematchAck {
    pub id: String,
    pub seat: u8,
}

/// A game's chat channel.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS, ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum ChatChannel {
    /// Between the seats.
    Players,
    /// Between the watchers.
    Spectators,
}

/// One chat message: its number in the channel (from 1), when it was sent, the seat that wrote it
/// (`null` in the spectators' chat), its author's name, and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ChatMessage {
    pub n: i64,
    pub at: i64,
    pub seat: Option<i64>,
    pub author: String,
    pub text: String,
}

/// Where an analysis stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum AnalysisStatus {
    Running,
    Done,
    Failed,
}

/// What a seat does about a draw or a takeback: offer (ask for) it, or accept or decline the pending
/// offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum OfferOp {
    Offer,
    Accept,
    Decline,
}

/// An operation a client sends on a game's socket. Every one may carry an `id`, which the answer
/// (`ack`, `error`, `pong`, or a `sync`'s snapshot as `request_id`) repeats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[ts(export_to = "server/")]
pub enum ClientOp {
    /// Take an action: its JSON (as listed in `legal`) or its notation.
    Action {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<i64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "unknown")]
        #[schema(value_type = Option<Object>)]
        action: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        notation: Option<String>,
    },
    /// Offer, accept or decline a draw.
    Draw {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<i64>,
        op: OfferOp,
    },
    /// Ask for, accept or decline a takeback.
    Takeback {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<i64>,
        op: OfferOp,
    },
    Resign {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<i64>,
    },
    Rematch {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<i64>,
    },
    /// Ask for a snapshot (after a gap).
    Sync {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<i64>,
    },
    Ping {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<i64>,
    },
}

impl ClockState {
    /// `clock` as clients see it at `now`: its kind and numbers, and each seat's time.
    pub fn of(clock: &Clock, now: i64) -> ClockState {
        ClockState {
            spec: clock.spec.into(),
            seats: (0..clock.seats())
                .map(|i| ClockSeat {
                    remaining_ms: clock.remaining(i, now).max(0),
                    running: clock.running(i),
                })
                .collect(),
        }
    }
}
