//! The HTTP bodies other than a game's messages (those are [`super::game`]'s): the catalog, creating,
//! joining and playing a game over HTTP, imports, the errors, and the account endpoints. Each derives
//! serde (the JSON is exactly what the server sends and reads), its TypeScript declaration (`ts_rs::TS`,
//! under `web/src/wire/server/`) and its OpenAPI schema (`utoipa::ToSchema`).
//!
//! A request type refuses unknown fields (`deny_unknown_fields`): a misspelt field is a `400`, never
//! silently ignored.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_core::dynamic::ListedAction;
use tabula_core::options::{OptionKind, OptionSpec};
use tabula_core::record::JsonRecord;
use tabula_core::wire::{Config, ExportError, TS};
use utoipa::ToSchema;

use crate::domain::ratings;
use crate::wire::game::{ChatChannel, ChatMessage, ClockSpec, OfferOp, SeatKind, SeatPlayer};

/// Exports this module's wire types under `server/`.
pub fn export_ts(cfg: &Config) -> Result<(), ExportError> {
    ApiError::export_all(cfg)?;
    Catalog::export_all(cfg)?;
    PreviewRequest::export_all(cfg)?;
    Preview::export_all(cfg)?;
    crate::wire::api::CreateGame::export_all(cfg)?;
    Created::export_all(cfg)?;
    JoinRequest::export_all(cfg)?;
    Joined::export_all(cfg)?;
    ActionRequest::export_all(cfg)?;
    SeatAuth::export_all(cfg)?;
    SeatOpRequest::export_all(cfg)?;
    Committed::export_all(cfg)?;
    Rematched::export_all(cfg)?;
    ImportRequest::export_all(cfg)?;
    Imported::export_all(cfg)?;
    Credentials::export_all(cfg)?;
    SignedIn::export_all(cfg)?;
    SignedOut::export_all(cfg)?;
    PasswordChange::export_all(cfg)?;
    PasswordChanged::export_all(cfg)?;
    Deletion::export_all(cfg)?;
    Deleted::export_all(cfg)?;
    Profile::export_all(cfg)?;
    Leaderboard::export_all(cfg)?;
    MyGames::export_all(cfg)?;
    Claim::export_all(cfg)?;
    Claimed::export_all(cfg)?;
    Lobby::export_all(cfg)?;
    Position::export_all(cfg)?;
    crate::wire::api::ExplainReq::export_all(cfg)?;
    crate::wire::api::Explanation::export_all(cfg)?;
    LessonsIndex::export_all(cfg)?;
    LessonState::export_all(cfg)?;
    crate::wire::api::PlayReq::export_all(cfg)?;
    ChatSend::export_all(cfg)?;
    ChatSent::export_all(cfg)?;
    ChatHistory::export_all(cfg)?;
    AnalysisAnswer::export_all(cfg)?;
    Ok(())
}

/// Every refusal: `{"error": {"code", "message"}}`, with the HTTP status of the code (the codes are
/// listed in `docs/protocol.md`, "Errors").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ApiError {
    pub error: ApiErrorDetail,
}

/// A refusal's stable code (`not_found`, `bad_token`, `illegal_action`, …) and its sentence for people.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ApiErrorDetail {
    pub code: String,
    pub message: String,
}

impl ApiError {
    /// The body of a refusal with this code and message.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError {
            error: ApiErrorDetail {
                code: code.into(),
                message: message.into(),
            },
        }
    }
}

/// `GET /api/catalog`: the games this server plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Catalog {
    pub games: Vec<CatalogGame>,
}

// The wire's own type; the log stores `domain::ratings::RatingRange`, converted at the edge.
/// A rated seek's range of ratings (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct RatingRange {
    pub min: f64,
    pub max: f64,
}

impl From<ratings::RatingRange> for RatingRange {
    fn from(r: ratings::RatingRange) -> RatingRange {
        RatingRange {
            min: r.min,
            max: r.max,
        }
    }
}

impl From<RatingRange> for ratings::RatingRange {
    fn from(r: RatingRange) -> ratings::RatingRange {
        ratings::RatingRange {
            min: r.min,
            max: r.max,
        }
    }
}

/// One game kind of the catalog.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct CatalogGame {
    /// The kind's id (`kyo`, `syba`, …), as in `POST /api/games`.
    pub id: String,
    pub name: String,
    pub description: String,
    /// The options a game of this kind takes, with their defaults.
    pub options: Vec<GameOption>,
    /// The seats' names with the default options.
    pub default_seats: Vec<String>,
}

/// One option of a game kind: its name (as in the rules file), type, default and a one-line
/// description (the core's `OptionSpec`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct GameOption {
    pub name: String,
    #[serde(flatten)]
    pub kind: GameOptionKind,
    /// A value of the option's type.
    pub default: Value,
    pub description: String,
}

/// An option's type (`"type"`) and its valid values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum GameOptionKind {
    /// `true` or `false`.
    Bool,
    /// A whole number in `min..=max`.
    Int { min: i64, max: i64 },
    /// One of the listed words.
    Choice { values: Vec<String> },
}

impl From<OptionSpec> for GameOption {
    fn from(o: OptionSpec) -> GameOption {
        GameOption {
            name: o.name,
            kind: match o.kind {
                OptionKind::Bool => GameOptionKind::Bool,
                OptionKind::Int { min, max } => GameOptionKind::Int { min, max },
                OptionKind::Choice { values } => GameOptionKind::Choice { values },
            },
            default: o.default,
            description: o.description,
        }
    }
}

/// `POST /api/catalog/{game}/preview`: options to check.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct PreviewRequest {
    /// The options (an object; absent: the defaults).
    #[serde(default)]
    #[ts(optional)]
    pub options: Option<Value>,
}

/// The options as the game reads them (defaults filled in) and its seats' names with them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Preview {
    pub options: Value,
    pub seats: Vec<String>,
}

/// One seat of a game just created (`POST /api/games`). Irregular, kept as it has always been: an AI
/// seat has its `level` and no `open`; a person's seat always has `open`, and its `token` and
/// `join_url` only when the server made a token for it (the host's seats and seats joined by link).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum CreatedSeat {
    Ai {
        seat: usize,
        name: String,
        level: u8,
    },
    Human {
        seat: usize,
        name: String,
        open: bool,
        /// The seat's secret token (send it to act as the seat).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// The page that joins the seat with its token, in the fragment so that it never reaches a
        /// server's or proxy's log (`/join/{id}/{seat}#{token}`; the older `/join/{id}/{seat}/{token}`
        /// still works).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        join_url: Option<String>,
    },
}

/// `201` to `POST /api/games`: the new game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Created {
    pub id: String,
    /// The game kind.
    pub game: String,
    /// `waiting` or `running`.
    pub status: String,
    pub seats: Vec<CreatedSeat>,
    /// The page spectators watch it on.
    pub watch_url: String,
    /// SHA-256 (hex) of the game's seed, revealed when the game is over.
    pub seed_commitment: String,
}

/// `POST /api/games/{id}/join`: the seat to take; its `token` when it was created with one (a link's
/// seat), none for an open seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct JoinRequest {
    pub seat: u8,
    #[serde(default)]
    #[ts(optional)]
    pub token: Option<String>,
}

/// The seat joined, its name and the token to act as it (`null` is in the type because the join's
/// answer always had it so; every join made today gives a token).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Joined {
    pub seat: u8,
    pub name: String,
    pub token: Option<String>,
}

/// `POST /api/games/{id}/action`: the seat, its token, and exactly one of `action` (the action's JSON,
/// as in the game's legal list) and `notation` (its text).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct ActionRequest {
    pub seat: u8,
    pub token: String,
    #[serde(default)]
    #[ts(optional)]
    pub action: Option<Value>,
    #[serde(default)]
    #[ts(optional)]
    pub notation: Option<String>,
}

/// A seat and its token: `POST /api/games/{id}/resign` and `/rematch`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct SeatAuth {
    pub seat: u8,
    pub token: String,
}

/// `POST /api/games/{id}/draw` and `/takeback`: the seat, its token and `op` (another word is
/// refused with `400`, naming the three).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct SeatOpRequest {
    pub seat: u8,
    pub token: String,
    pub op: OfferOp,
}

/// A change committed: the game's sequence number after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Committed {
    pub seq: u64,
}

/// The rematch (created, or joined when the opponent asked first): its id, the seat and the token,
/// the same as in the finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Rematched {
    pub id: String,
    pub seat: u8,
    pub token: String,
}

/// `POST /api/records`: a record (`docs/protocol.md`, `Records`) and whether the lobby lists the
/// imported game (not unless asked).
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct ImportRequest {
    pub record: JsonRecord,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub public: Option<bool>,
}

/// `201` to `POST /api/records`: the imported game's id (read-only, watched at `/watch/{id}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Imported {
    pub id: String,
}

/// `POST /api/account` and `POST /api/session`: a name (3 to 20 letters, digits, `-` and `_`) and a
/// password (8 to 128 characters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

/// Signed in (with the session cookie), or `GET /api/session`: the account's name and the session's
/// CSRF token (send it as `X-CSRF-Token` with every change made as the account).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct SignedIn {
    pub name: String,
    pub csrf: String,
}

/// `DELETE /api/session`: signed out (always `true`; the cookie is cleared).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct SignedOut {
    pub signed_out: bool,
}

/// `POST /api/account/password`: the current password and the new one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct PasswordChange {
    pub current: String,
    pub new: String,
}

/// The password changed (always `true`); the account's other sessions ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct PasswordChanged {
    pub changed: bool,
}

/// `DELETE /api/account`: the password, asked again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct Deletion {
    pub password: String,
}

/// The account deleted (always `true`; the cookie is cleared).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Deleted {
    pub deleted: bool,
}

/// `GET /api/players/{name}`: a player's public profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Profile {
    pub name: String,
    /// When the account was made (milliseconds since the Unix epoch).
    pub created_at: i64,
    /// The player's rating in each game kind they played rated (by kind id).
    pub ratings: BTreeMap<String, ProfileRating>,
    pub results: Results,
    /// The last 50 finished games, newest first.
    pub recent_games: Vec<RecentGame>,
    /// The games being played or waiting for players.
    pub playing: Vec<PlayingGame>,
}

/// A player's rating in one game kind (Glicko-2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ProfileRating {
    pub rating: f64,
    /// The rating's deviation.
    pub rd: f64,
    /// Rated games played.
    pub games: i64,
    /// The rating after each of the last 100 rated games, oldest first.
    pub history: Vec<RatingPoint>,
}

/// The rating after one rated game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct RatingPoint {
    pub game_id: String,
    /// When (milliseconds since the Unix epoch).
    pub at: i64,
    pub rating: f64,
    pub rd: f64,
}

/// Finished games won, drawn and lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Results {
    pub win: usize,
    pub draw: usize,
    pub loss: usize,
}

/// A finished game of a profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct RecentGame {
    pub id: String,
    /// The game kind.
    pub game: String,
    pub seat: u8,
    /// `win`, `draw` or `loss` (`null` when the game ended without a result for the seat).
    pub result: Option<String>,
    /// When it ended (milliseconds since the Unix epoch).
    pub at: i64,
    /// The other seats and who played them.
    pub opponents: Vec<Opponent>,
}

/// Another seat of a game listed in "my games" or on a profile, and who plays it: an account (its
/// name and its rating at the time), the AI (its level), or an anonymous player (neither).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Opponent {
    pub seat: u8,
    /// The account holding the seat.
    pub player: Option<SeatPlayer>,
    /// The AI's level, when the AI plays the seat.
    pub ai_level: Option<u8>,
}

/// A game of a profile that is not over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct PlayingGame {
    pub id: String,
    pub game: String,
    pub seat: u8,
    /// `running` or `waiting`.
    pub status: String,
    /// The other seats and who plays them.
    pub opponents: Vec<Opponent>,
}

/// `GET /api/leaderboard/{game}`: the best rated players of a game kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Leaderboard {
    pub game: String,
    /// Ratings whose deviation is under this are established and listed first, best first; the
    /// provisional ones (a deviation of this or more) follow them, best first, marked so.
    pub max_rd: f64,
    pub players: Vec<LeaderboardRow>,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LeaderboardRow {
    /// 1 for the best.
    pub rank: usize,
    pub name: String,
    pub rating: f64,
    pub rd: f64,
    pub games: i64,
    /// The rating is provisional (its deviation is `max_rd` or more): shown as "1500?".
    pub provisional: bool,
}

/// `GET /api/me/games`: the signed-in player's games on any device.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct MyGames {
    /// The account's name.
    pub name: String,
    /// How many games await the player's move.
    pub awaiting: usize,
    /// The games not over: those awaiting the player's move first, then the other running games,
    /// then those waiting for players.
    pub games: Vec<MyGame>,
    /// The last 50 finished games, newest first.
    pub finished: Vec<MyGame>,
}

/// One of the signed-in player's seats.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct MyGame {
    /// The game's id.
    pub id: String,
    /// The game kind.
    pub game: String,
    pub seat: u8,
    /// The seat's token (to play it on this device).
    pub token: String,
    /// `waiting`, `running`, `over`, …
    pub status: String,
    /// The seat's result once the game is over (`win`, `draw` or `loss`).
    pub result: Option<String>,
    /// The game's last change (milliseconds since the Unix epoch).
    pub updated_at: i64,
    pub your_turn: bool,
    /// The seat's name, given for the games not over (when the game could be loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_name: Option<String>,
    /// The other seats and who plays them.
    pub opponents: Vec<Opponent>,
}

/// `POST /api/me/seats`: a seat this device holds anonymously (its token), to bind to the account.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct Claim {
    pub game: String,
    pub seat: u8,
    pub token: String,
}

/// The seat bound to the account (`name`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Claimed {
    pub game: String,
    pub seat: u8,
    pub name: String,
}

/// `GET /api/lobby`: the public games with an open seat (`open`) and the public running games
/// (`live`), newest first, at most 200 of each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Lobby {
    pub open: Vec<LobbyGame>,
    pub live: Vec<LobbyGame>,
}

/// A game's line in the lobby.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LobbyGame {
    pub id: String,
    /// The game kind's id.
    pub game: String,
    /// The game kind's name.
    pub name: String,
    /// `waiting` or `running`.
    pub status: String,
    pub public: bool,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_at: i64,
    pub seats: Vec<LobbySeat>,
    pub clock: Option<ClockSpec>,
    /// Actions played.
    pub moves: u64,
    /// SHA-256 (hex) of the game's seed.
    pub seed_commitment: String,
    pub rated: bool,
    /// A rated seek's range of ratings for the players who join.
    pub rating_range: Option<RatingRange>,
}

/// A seat of a lobby's game: its number, name, whether it is joined, who plays it (`kind`, with the
/// AI's `level` or a person's seat's `open`), and the account holding it, if any.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LobbySeat {
    pub seat: usize,
    pub name: String,
    pub joined: bool,
    #[serde(flatten)]
    pub kind: SeatKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<LobbyPlayer>,
}

/// The account holding a seat, with its rating and RD in the game's kind (`null` before its first
/// rated game of that kind).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LobbyPlayer {
    pub name: String,
    pub rating: Option<f64>,
    pub rd: Option<f64>,
}

/// `GET /api/lessons`: every game's lessons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LessonsIndex {
    pub games: Vec<GameLessons>,
}

/// `GET /api/lessons/{game}`: one game's lessons, titles and goals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct GameLessons {
    /// The game kind's id.
    pub game: String,
    pub name: String,
    /// How many lessons it has.
    pub count: usize,
    pub lessons: Vec<LessonSummary>,
}

/// One lesson in a list: its number (from 1), title and goal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LessonSummary {
    pub n: usize,
    pub title: String,
    pub goal: String,
}

/// The next action of a lesson's listed solution: its JSON, notation and words (no cells).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LessonHint {
    /// The action's JSON: its form is the game's own.
    #[ts(type = "unknown")]
    pub action: Value,
    pub notation: String,
    /// The action in a player's words, as the player sees them.
    pub words: String,
}

/// `POST /api/lessons/{game}/{n}`: lesson `n` after the player's actions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LessonState {
    /// The game kind's id.
    pub game: String,
    /// The lesson's number, from 1.
    pub n: usize,
    /// How many lessons the game has.
    pub count: usize,
    pub title: String,
    pub goal: String,
    /// The lesson's introduction (may be empty).
    pub intro: String,
    /// The lesson's hint in words (may be empty).
    pub hint_text: String,
    /// What the page says once the lesson is solved (may be empty).
    pub success: String,
    /// The player's seat.
    pub seat: usize,
    /// Where the player's actions have led.
    #[serde(flatten)]
    #[ts(flatten)]
    pub progress: LessonProgress,
    /// The next lesson's number (`null` after the last).
    pub next: Option<usize>,
}

/// Where the player's actions have led in a lesson ([`crate::services::lessons::Lesson::play`]): the fields of
/// [`LessonState`] that change with them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LessonProgress {
    /// Every seat's name.
    pub seats: Vec<String>,
    /// The game's options (the renderer needs them).
    #[ts(type = "Record<string, unknown>")]
    pub options: Value,
    /// The player's view of the position: its form is the game's own.
    #[ts(type = "unknown")]
    pub view: Value,
    /// The player's legal actions now (empty when the lesson is solved, out of moves or over).
    pub legal: Vec<ListedAction>,
    /// Every action since the lesson's position, in order.
    pub moves: Vec<LessonMove>,
    pub solved: bool,
    /// The player has used the lesson's moves without meeting the goal, or the game ended.
    pub failed: bool,
    /// Why the lesson failed, in words.
    pub failure: Option<String>,
    /// The next action of the listed solution when the player has followed it so far.
    pub hint: Option<LessonHint>,
}

/// One line of a lesson's move list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct LessonMove {
    /// `you`, a seat's name, or `chance`.
    pub by: String,
    pub notation: String,
    /// The action in a player's words as the player may see them ("Gold: Heavy D3 → D4, carries 1
    /// chip").
    pub words: String,
    /// The cells the action involves as the player may see them (the last move is highlighted).
    pub cells: Vec<String>,
}

/// `GET /api/games/{id}/view/{n}`: what an observer saw right after the game's first `n` actions.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct Position {
    pub id: String,
    pub game: String,
    /// The number of actions played (0: the initial position).
    pub n: u64,
    /// The game's actions so far.
    pub total: u64,
    /// Who saw it: `{"seat": n}` or `"spectator"`.
    #[schema(value_type = Object)]
    pub you: tabula_core::Observer,
    /// The observer's view, as the game crate writes it (typed per game in `web/src/wire/<game>/`).
    #[ts(type = "unknown")]
    #[schema(value_type = Object)]
    pub view: Value,
    #[schema(value_type = Object)]
    pub to_act: tabula_core::ToAct,
    /// The `n`-th action as this observer sees it; `null` at the initial position.
    pub last: Option<PositionLast>,
    /// The result, at the last position of a finished game only.
    #[schema(value_type = Option<Object>)]
    pub result: Option<tabula_core::Outcome>,
}

/// The action that led to a [`Position`], as its observer sees it (as in an `action` event).
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct PositionLast {
    pub seq: u64,
    #[schema(value_type = Object)]
    pub actor: tabula_core::Actor,
    /// `null` when the action is hidden from the observer.
    pub notation: Option<String>,
    pub cells: Vec<String>,
    pub words: String,
    pub turn: u32,
}

/// `POST /api/games/{id}/chat`: the channel, the text (one line, at most the chat's `max_chars`
/// characters after trimming), and for the players' channel the seat and its token.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct ChatSend {
    /// `players` or `spectators` (read as text, so that an unknown channel is refused by name).
    #[ts(as = "ChatChannel")]
    #[schema(value_type = ChatChannel)]
    pub channel: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seat: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub token: Option<String>,
}

/// The answer to `POST /api/games/{id}/chat` (`201`): the stored message and its channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ChatSent {
    pub channel: ChatChannel,
    pub message: ChatMessage,
}

/// `GET /api/games/{id}/chat`: the latest messages of each channel the caller may read (only those
/// channels are present), oldest first, and the longest message the server takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export_to = "server/")]
pub struct ChatHistory {
    pub channels: BTreeMap<ChatChannel, Vec<ChatMessage>>,
    pub max_chars: usize,
}

/// Where a game's analysis stands, as `GET` and `POST /api/games/{id}/analysis` answer: none was
/// asked for, running (its progress), done (the engine's analysis, `tabula_ai::analysis::Analysis`,
/// declared in `web/src/wire/ai/Analysis.ts`), or failed (why; `GET` only, until a `POST` starts it
/// anew; known to the server that ran it until it restarts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, ToSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
#[ts(export_to = "server/")]
pub enum AnalysisAnswer {
    None,
    Running {
        /// Decisions analysed so far…
        done: usize,
        /// …of this many.
        total: usize,
        /// Waiting for live games' AI moves (or for another analysis) before its next decision.
        waiting: bool,
        /// Analyses that run before this one: its place in the queue (`0`: it runs now, or
        /// next).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ahead: Option<usize>,
        /// About how many seconds until this analysis is done (those before it included), from
        /// the pace of the analysis running now or of the last one; absent until one was timed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        estimate_s: Option<u64>,
    },
    Done {
        /// Stored as the engine wrote it (the server does not read it).
        #[ts(type = "import(\"../ai/Analysis\").Analysis")]
        #[schema(value_type = Object)]
        analysis: Value,
    },
    Failed {
        /// Why, in words.
        error: String,
    },
}

/// `POST /api/games`: a request to create a game. `seats` says who plays each seat; the creator holds
/// `host_seats` (or `host_seat`), whose tokens the answer gives.
#[derive(Debug, Clone, serde::Deserialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct CreateGame {
    /// The game kind (an id of `GET /api/catalog`).
    pub game: String,
    /// The options (absent: the defaults).
    #[serde(default)]
    #[ts(optional)]
    pub options: Option<Value>,
    pub seats: Vec<SeatKind>,
    /// The seats the creator holds (absent: none, e.g. an AI match).
    #[serde(default)]
    #[ts(as = "Option<Vec<u8>>", optional)]
    pub host_seats: Vec<u8>,
    /// One host seat (the same as `host_seats: [seat]`).
    #[serde(default)]
    #[ts(optional)]
    pub host_seat: Option<u8>,
    /// A clock (absent: none).
    #[serde(default)]
    #[ts(optional)]
    pub clock: Option<ClockSpec>,
    /// Listed in the lobby (absent: yes).
    #[serde(default)]
    #[ts(optional)]
    pub public: Option<bool>,
    /// Refused when given: a live game's seed is drawn by the server (from the operating system's randomness). The field
    /// exists so that a client that sends one is told why.
    #[serde(default)]
    #[ts(optional)]
    pub seed: Option<Value>,
    /// A rated game (see [`crate::domain::ratings`]): only for a signed-in creator holding one seat, with no
    /// AI seat; every other seat is joined by a signed-in player.
    #[serde(default)]
    #[ts(optional)]
    pub rated: Option<bool>,
    /// A rated seek's range of ratings for the players who join.
    #[serde(default)]
    #[ts(optional)]
    pub rating_range: Option<RatingRange>,
}

/// `POST /api/games/{id}/explain`: the asking seat, its token and the cells it clicked, in order.
#[derive(Deserialize, utoipa::ToSchema, ts_rs::TS)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct ExplainReq {
    pub seat: u8,
    pub token: String,
    pub cells: Vec<String>,
}

/// The answer: the engine's reason, or `null` when the cells do lead to a legal action or the game
/// has nothing to say.
#[derive(Serialize, Deserialize, utoipa::ToSchema, ts_rs::TS)]
#[ts(export_to = "server/")]
pub struct Explanation {
    pub reason: Option<String>,
}

/// What one of the player's actions is: a JSON action (as listed) or one written in notation.
#[derive(Debug, Clone, Deserialize, Serialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct PlayerAction {
    /// The action's JSON, as listed: its form is the game's own.
    #[serde(default)]
    #[ts(optional, type = "unknown")]
    pub action: Option<Value>,
    /// The action in the game's notation.
    #[serde(default)]
    #[ts(optional)]
    pub notation: Option<String>,
}

/// The body of `POST /api/lessons/{game}/{n}`.
#[derive(Debug, Default, Deserialize, ts_rs::TS, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[ts(export_to = "server/")]
pub struct PlayReq {
    /// The player's actions since the lesson's position, in order (absent: none).
    #[serde(default)]
    #[ts(as = "Option<Vec<PlayerAction>>", optional)]
    pub actions: Vec<PlayerAction>,
}
