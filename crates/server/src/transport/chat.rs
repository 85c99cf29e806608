//! The chat's HTTP routes: sending a message and reading the history (see `docs/protocol.md`, Chat).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tabula_core::{Observer, Seat};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::base::error::Refusal;
use crate::services::app::App;
use crate::services::chat::{Sender, finished};
use crate::transport::http::{ApiJson, ApiPath, bearer};
use crate::transport::session::credentials;
use crate::wire::api::{ApiError, ChatHistory, ChatSend, ChatSent};
use crate::wire::game::ChatChannel;

/// The chat routes.
pub fn routes<S: Clone + Send + Sync + 'static>(shared: Arc<App>) -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(send, read))
        .with_state(shared)
}

/// `POST /api/games/{id}/chat`: sends a message (`201 {"channel", "message"}`).
#[utoipa::path(post, path = "/api/games/{id}/chat", tag = "chat",
    summary = "Send a chat message",
    description = "The players' channel with a seat and its token; the spectators' channel as a signed-in account (with `X-CSRF-Token`) holding no seat of the running game. See `docs/protocol.md`, `Chat`.",
    params(("id" = String, Path, description = "The game's id")),
    request_body = ChatSend,
    responses((status = 201, description = "The stored message", body = ChatSent),
        (status = 400, description = "Bad JSON, an unknown channel, an empty or too long text", body = ApiError),
        (status = 403, description = "A wrong token, not signed in, or a player writing to the spectators", body = ApiError),
        (status = 409, description = "The chat is closed", body = ApiError), crate::transport::responses::NoSuchGame, crate::transport::responses::StorageUnavailable))]
async fn send(
    State(shared): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ChatSend>,
) -> Result<Response, Refusal> {
    let channel = ChatChannel::parse(&req.channel)?;
    let text = shared.chat.check_text(&req.text)?;
    let room = shared.rooms.room(&id).await?;
    let (sender, author) = match channel {
        ChatChannel::Players => {
            let (Some(seat), Some(token)) = (req.seat, req.token.as_deref()) else {
                return Err(Refusal::BadToken(
                    "the players' chat is written with a seat and its token".into(),
                ));
            };
            let inner = room.inner.lock().await;
            inner.core.check_token(seat, token)?;
            let author = inner.core.state.seat_name(Seat::new(seat as usize));
            (Sender::Seat(seat), author)
        }
        ChatChannel::Spectators => {
            if req.seat.is_some() || req.token.is_some() {
                return Err(Refusal::BadRequest(
                    "the spectators' chat is written as a signed-in account, without a seat or token"
                        .into(),
                ));
            }
            let session = shared
                .accounts
                .acting(&credentials(&headers))
                .await?
                .ok_or_else(|| {
                    Refusal::Forbidden("sign in to write in the spectators' chat".into())
                })?;
            let status = room.inner.lock().await.core.status;
            if !finished(status)
                && !shared
                    .db
                    .seats_held(&room.id, &session.account.id)
                    .await?
                    .is_empty()
            {
                return Err(Refusal::Forbidden(
                    "you play in this game: the spectators' chat is open to you once it is over"
                        .into(),
                ));
            }
            (Sender::Account(session.account.id), session.account.name)
        }
    };
    let message = shared
        .chat
        .store(&room.id, channel, sender, &author, &text)
        .await?;
    Ok((StatusCode::CREATED, Json(ChatSent { channel, message })).into_response())
}

/// Who reads: a seat with its token (or `Authorization: Bearer <token>`), or nobody.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ReadQuery {
    seat: Option<u8>,
    token: Option<String>,
}

/// `GET /api/games/{id}/chat`: the recent history of the channels the caller may read.
#[utoipa::path(get, path = "/api/games/{id}/chat", tag = "chat",
    summary = "The latest messages of the chat channels the caller may read",
    description = "A seat with its token: players, and spectators once the game is over; anyone else: spectators.",
    params(("id" = String, Path, description = "The game's id"), ReadQuery),
    responses((status = 200, description = "The readable channels' latest messages", body = ChatHistory),
        (status = 400, description = "A bad query", body = ApiError),
        (status = 403, description = "A wrong token", body = ApiError), crate::transport::responses::NoSuchGame, crate::transport::responses::StorageUnavailable))]
async fn read(
    State(shared): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    query: Result<Query<ReadQuery>, axum::extract::rejection::QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let Query(q) =
        query.map_err(|e| Refusal::BadRequest(format!("bad query: {}", e.body_text())))?;
    let room = shared.rooms.room(&id).await?;
    let token = q.token.or_else(|| bearer(&headers));
    let (obs, status) = {
        let inner = room.inner.lock().await;
        let obs = match (q.seat, token) {
            (None, None) => Observer::Spectator,
            (Some(_), None) => return Err(Refusal::BadToken("a seat needs its token".into())),
            (None, Some(_)) => {
                return Err(Refusal::BadRequest("a token needs its seat number".into()));
            }
            (Some(s), Some(t)) => {
                inner.core.check_token(s, &t)?;
                Observer::Seat(Seat(s))
            }
        };
        (obs, inner.core.status)
    };
    let channels = shared.chat.histories(&room.id, obs, status).await?;
    Ok(Json(ChatHistory {
        channels,
        max_chars: shared.chat.limits.max_chars,
    })
    .into_response())
}
