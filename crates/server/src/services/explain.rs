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

use tabula_core::Seat;

use crate::base::error::Refusal;
use crate::domain::model::Status;
use crate::services::rooms::Rooms;
use crate::wire::api::{ExplainReq, Explanation};

/// The most cells one question names.
pub const MAX_CELLS: usize = 8;
/// The longest cell name, in characters.
pub const MAX_CELL_CHARS: usize = 64;

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

/// Why the cells seat `req.seat` (with its token) clicked in game `id` lead to no legal action, from
/// what that seat may see; `None` when they do lead to one or the game has nothing to say.
pub async fn explain(
    rooms: &Arc<Rooms>,
    id: &str,
    req: &ExplainReq,
) -> Result<Explanation, Refusal> {
    check_cells(&req.cells)?;
    let room = rooms.room(id).await?;
    let inner = room.inner.lock().await;
    inner.core.check_token(req.seat, &req.token)?;
    let reason = match inner.core.status {
        Status::Waiting => Some("The game has not started yet: a seat is still open".to_string()),
        _ if inner.core.to_act().outcome().is_some() => Some("The game is over".to_string()),
        _ => inner.core.state.explain_cells(Seat(req.seat), &req.cells),
    };
    Ok(Explanation { reason })
}
