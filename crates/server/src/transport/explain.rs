//! The explain route: why a seat's clicks lead to no legal action (see `docs/protocol.md`).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::base::error::Refusal;
use crate::services::app::App;
use crate::transport::http::ApiPath;
use crate::wire::api::{ApiError, ExplainReq, Explanation};

/// The explain route.
pub fn routes<S: Clone + Send + Sync + 'static>(app: Arc<App>) -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(explain))
        .with_state(app)
}

#[utoipa::path(post, path = "/api/games/{id}/explain", tag = "games",
    summary = "Why the cells a seat clicked lead to no legal action",
    description = "The engine's own refusal, from what the seat may see (never a hidden setup, hand or deck); read-only. See `docs/protocol.md`.",
    params(("id" = String, Path, description = "The game's id")),
    request_body = ExplainReq,
    responses((status = 200, description = "The reason, or null", body = Explanation),
        (status = 400, description = "Bad JSON, no cells, too many or too long cell names", body = ApiError),
        (status = 403, description = "A wrong token", body = ApiError), crate::transport::responses::NoSuchGame))]
async fn explain(
    State(app): State<Arc<App>>,
    ApiPath(id): ApiPath<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Explanation>, Refusal> {
    let bytes =
        body.map_err(|e| Refusal::BadRequest(format!("cannot read the request body: {e}")))?;
    let req: ExplainReq = serde_json::from_slice(&bytes).map_err(|e| {
        Refusal::BadRequest(format!(
            "bad JSON: {e} (the body is {{\"seat\", \"token\", \"cells\"}}: only a seat's token \
             may ask)"
        ))
    })?;
    Ok(Json(
        crate::services::explain::explain(&app.rooms, &id, &req).await?,
    ))
}
