//! Why a click leads to no legal action: `POST /api/games/{id}/explain`.
//!
//! A player clicked cells of the board that no legal action of theirs starts with (one cell, or a
//! selected piece then a cell); the client asks why and shows the answer near the board. The body is
//! `{"seat": 0, "token": "…", "cells": ["C3", "C5"]}` (cells named as the legal actions' `cells`, at
//! most [`MAX_CELLS`] of at most [`MAX_CELL_CHARS`] characters each); the answer is
//! `{"reason": "A Light Pawn steps one square: it cannot make Mana moves"}`, or `{"reason": null}`
//! when the cells do lead to a legal action or the game has nothing to say. The reason is the
//! engine's own refusal ([`tabula_core::Game::explain_cells`]) and is computed from what the seat may
//! see, so it never reveals a hidden setup, a hand or a deck.
//!
//! Only a seat's token may ask (a spectator, an AI seat or a wrong token is refused with
//! `400`/`401`); the request is counted in the address's request budget like every other API route,
//! and nothing changes: no event, no message to the game's sockets.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, State};
use axum::response::IntoResponse as _;
use tabula_core::Seat;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::base::error::Refusal;
use crate::domain::model::Status;
use crate::services::app::App;
use crate::wire::api::ApiError;
use crate::wire::api::{ExplainReq, Explanation};

/// The most cells one question names.
pub const MAX_CELLS: usize = 8;
/// The longest cell name, in characters.
pub const MAX_CELL_CHARS: usize = 64;

/// The explain route.
pub fn routes<S: Clone + Send + Sync + 'static>(shared: Arc<App>) -> OpenApiRouter<S> {
    OpenApiRouter::new()
        .routes(routes!(explain))
        .with_state(shared)
}

fn check_cells(cells: &[String]) -> Result<(), Refusal> {
    if cells.is_empty() {
        return Err(Refusal::BadRequest(
            "`cells` names at least one clicked cell".into(),
        ));
    }
    if cells.len() > MAX_CELLS {
        return Err(Refusal::BadRequest(format!(
            "`cells` names at most {MAX_CELLS} cells, not {}",
            cells.len()
        )));
    }
    if let Some(c) = cells
        .iter()
        .find(|c| c.is_empty() || c.chars().count() > MAX_CELL_CHARS)
    {
        return Err(Refusal::BadRequest(format!(
            "a cell name has 1 to {MAX_CELL_CHARS} characters, not {}",
            c.chars().count()
        )));
    }
    Ok(())
}

#[utoipa::path(post, path = "/api/games/{id}/explain", tag = "games",
    summary = "Why the cells a seat clicked lead to no legal action",
    description = "The engine's own refusal, from what the seat may see (never a hidden setup, hand or deck); read-only. See `docs/protocol.md`.",
    params(("id" = String, Path, description = "The game's id")),
    request_body = ExplainReq,
    responses((status = 200, description = "The reason, or null", body = Explanation),
        (status = 400, description = "Bad JSON, no cells, too many or too long cell names", body = ApiError),
        (status = 403, description = "A wrong token", body = ApiError),
        (status = 404, description = "No such game", body = ApiError)))]
async fn explain(
    State(shared): State<Arc<App>>,
    path: Result<Path<String>, PathRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<axum::response::Response, Refusal> {
    let id = path
        .map(|Path(id)| id)
        .map_err(|e| Refusal::BadRequest(format!("bad path: {}", e.body_text())))?;
    let bytes =
        body.map_err(|e| Refusal::BadRequest(format!("cannot read the request body: {e}")))?;
    let req: ExplainReq = serde_json::from_slice(&bytes).map_err(|e| {
        Refusal::BadRequest(format!(
            "bad JSON: {e} (the body is {{\"seat\", \"token\", \"cells\"}}: only a seat's token \
             may ask)"
        ))
    })?;
    check_cells(&req.cells)?;
    let room = shared.rooms.room(&id).await?;
    let inner = room.inner.lock().await;
    inner.core.check_token(req.seat, &req.token)?;
    let reason = match inner.core.status {
        Status::Waiting => Some("The game has not started yet: a seat is still open".to_string()),
        _ if inner.core.to_act().outcome().is_some() => Some("The game is over".to_string()),
        _ => inner.core.state.explain_cells(Seat(req.seat), &req.cells),
    };
    Ok(Json(Explanation { reason }).into_response())
}
