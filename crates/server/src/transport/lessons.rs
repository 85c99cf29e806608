//! The lessons' HTTP routes (see `docs/protocol.md`, Lessons).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use tabula_core::dynamic::Registry;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::base::error::Refusal;
use crate::services::lessons;
use crate::transport::http::{ApiPath, parse_body};
use crate::wire::api::{ApiError, GameLessons, LessonState, LessonsIndex, PlayReq};

/// The lesson routes.
pub fn routes<S: Clone + Send + Sync + 'static>(registry: Registry) -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(list_all))
        .routes(routes!(list_game))
        .routes(routes!(play_lesson))
        .with_state(Arc::new(registry))
}

type Reg = State<Arc<Registry>>;

/// The body of a lesson request: the player's actions (an empty body: none).
pub(crate) fn play_body(body: Result<Bytes, BytesRejection>) -> Result<PlayReq, Refusal> {
    match &body {
        Ok(bytes) if bytes.is_empty() => Ok(PlayReq::default()),
        _ => parse_body(body),
    }
}

#[utoipa::path(get, path = "/api/lessons", tag = "lessons",
    summary = "Every game's lessons: count, titles and goals",
    responses((status = 200, description = "Every game's lessons", body = LessonsIndex)))]
async fn list_all(State(reg): Reg) -> Json<LessonsIndex> {
    Json(lessons::index(&reg))
}

#[utoipa::path(get, path = "/api/lessons/{game}", tag = "lessons",
    summary = "One game's lessons",
    params(("game" = String, Path, description = "A game kind's id")),
    responses((status = 200, description = "The game's lessons", body = GameLessons),
        (status = 400, description = "A bad path", body = ApiError),
        (status = 404, description = "No such game kind, or no lessons for it", body = ApiError)))]
async fn list_game(
    State(reg): Reg,
    ApiPath(game): ApiPath<String>,
) -> Result<Json<GameLessons>, Refusal> {
    Ok(Json(lessons::of_game(&reg, &game)?))
}

#[utoipa::path(post, path = "/api/lessons/{game}/{n}", tag = "lessons",
    summary = "Lesson n after the player's actions: the position, legal actions, solved or failed, hint",
    description = "A refused action is answered with the game's explanation (`422`). See `docs/protocol.md`, `Lessons`.",
    params(("game" = String, Path, description = "A game kind's id"), ("n" = usize, Path, description = "The lesson's number, from 1")),
    request_body(content = PlayReq, description = "The player's actions so far (an empty body: none)"),
    responses((status = 200, description = "The lesson's progress", body = LessonState),
        (status = 400, description = "Bad JSON or a malformed action", body = ApiError),
        (status = 404, description = "No such game kind or lesson", body = ApiError),
        (status = 422, description = "An illegal action (the game's explanation)", body = ApiError)))]
async fn play_lesson(
    State(reg): Reg,
    ApiPath((game, n)): ApiPath<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<LessonState>, Refusal> {
    let req = play_body(body)?;
    Ok(Json(lessons::play(&reg, &game, &n, req).await?))
}
