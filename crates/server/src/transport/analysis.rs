//! The analyses' and hints' HTTP routes (see `docs/protocol.md`, Analysis).

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::base::error::Refusal;
use crate::services::app::App;
use crate::transport::http::{ApiJson, ApiPath};
use crate::transport::lessons::play_body;
use crate::wire::api::{AnalysisAnswer, ApiError};

/// The analysis and hint routes.
pub fn routes<S: Clone + Send + Sync + 'static>(app: Arc<App>) -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(start, get_analysis))
        .routes(routes!(hint))
        .routes(routes!(lesson_hint))
        .with_state(app)
}

#[utoipa::path(get, path = "/api/games/{id}/analysis", tag = "analysis",
    summary = "The stored analysis, the progress of a running one, or status none when none was asked for",
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, description = "Done (with the analysis), running (its progress), failed (why) or none", body = AnalysisAnswer),
        (status = 400, description = "A bad path", body = ApiError), crate::transport::responses::NoSuchGame, crate::transport::responses::StorageUnavailable))]
async fn get_analysis(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<AnalysisAnswer>, Refusal> {
    Ok(Json(app.analyses.answer(&id).await?))
}

#[utoipa::path(post, path = "/api/games/{id}/analysis", tag = "analysis",
    summary = "Start the engine's analysis of a finished or imported game, or get the stored one",
    description = "Computed once; its progress is pushed on the game's WebSocket.",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The stored analysis (`status: done`)", body = AnalysisAnswer),
        (status = 202, description = "Started or running: its progress (`status: running`)", body = AnalysisAnswer),
        (status = 400, description = "A bad path", body = ApiError),
        (status = 409, description = "The game is not over", body = ApiError),
        (status = 503, description = "No analyst, or storage is unavailable", body = ApiError), crate::transport::responses::NoSuchGame))]
async fn start(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
) -> Result<Response, Refusal> {
    let answer = app.analyses.start(&id, peer.ip()).await?;
    let status = match answer {
        AnalysisAnswer::Done { .. } => StatusCode::OK,
        _ => StatusCode::ACCEPTED,
    };
    Ok((status, Json(answer)).into_response())
}

/// `POST /api/games/{id}/hint`: the seat asking, with its token.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HintReq {
    seat: u8,
    token: String,
}

/// The engine's hint in a lesson: the body is the lesson's (`{"actions": […]}`), the seat the
/// lesson's player; `409` once the lesson is over.
#[utoipa::path(post, path = "/api/lessons/{game}/{n}/hint", tag = "lessons",
    summary = "The engine's preferred action for the lesson's player after the given actions",
    params(("game" = String, Path, description = "A game kind's id"), ("n" = usize, Path, description = "The lesson's number, from 1")),
    request_body(content = crate::wire::api::PlayReq, description = "The player's actions so far, as for the lesson"),
    responses((status = 200, description = "`{seat, action, notation, cells, estimate}`", body = Object),
        (status = 400, description = "Bad JSON or a malformed action", body = ApiError),
        (status = 404, description = "No such game kind or lesson", body = ApiError),
        (status = 409, description = "The lesson is over", body = ApiError),
        (status = 422, description = "An illegal action", body = ApiError),
        (status = 503, description = "No analyst", body = ApiError)))]
async fn lesson_hint(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ApiPath((game, n)): ApiPath<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, Refusal> {
    let req = play_body(body)?;
    Ok(Json(
        app.analyses.lesson_hint(peer.ip(), &game, &n, req).await?,
    ))
}

#[utoipa::path(post, path = "/api/games/{id}/hint", tag = "analysis",
    summary = "The engine's preferred action for a human seat's current decision in a running game against the AI, from that seat's view only",
    params(("id" = String, Path, description = "The game's id")),
    request_body = HintReq,
    responses((status = 200, description = "`{seat, action, notation, cells, estimate}`", body = Object),
        (status = 400, description = "Bad JSON", body = ApiError),
        (status = 403, description = "A wrong token", body = ApiError),
        (status = 409, description = "No hint now (not running, not the seat's decision, not against the AI)", body = ApiError),
        (status = 503, description = "No analyst", body = ApiError), crate::transport::responses::NoSuchGame))]
async fn hint(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<HintReq>,
) -> Result<Json<serde_json::Value>, Refusal> {
    Ok(Json(
        app.analyses
            .game_hint(peer.ip(), &id, req.seat, &req.token)
            .await?,
    ))
}
