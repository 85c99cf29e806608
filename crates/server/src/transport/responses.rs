//! The refusals many endpoints share, as lists of OpenAPI responses: a handler's annotation names a
//! list (`responses((status = 200, …), SeatRefusals, TooMany)`) instead of restating each status and
//! its words. Each answers with the API's one error body, [`ApiError`]. These types exist for the
//! document only; no handler builds them.
#![allow(dead_code)]

use utoipa::IntoResponses;

use crate::wire::api::ApiError;

/// `404` for a game id nobody knows.
#[derive(IntoResponses)]
#[response(status = 404, description = "No such game")]
pub struct NoSuchGame(ApiError);

/// What a seat's request about its game is refused for before anything else: its token, the game.
#[derive(IntoResponses)]
pub enum SeatRefusals {
    #[response(status = 403, description = "A wrong token for the seat (`bad_token`)")]
    BadToken(ApiError),
    #[response(status = 404, description = "No such game")]
    NotFound(ApiError),
}

/// `400` for a body that is not the request's JSON.
#[derive(IntoResponses)]
#[response(
    status = 400,
    description = "Bad request: bad JSON, a bad field or option"
)]
pub struct BadBody(ApiError);

/// `429` when an address spent its budget.
#[derive(IntoResponses)]
#[response(
    status = 429,
    description = "Too many attempts or requests from this address (see `Retry-After`)"
)]
pub struct TooMany(ApiError);

/// `503` when storage cannot be read or written: nothing changed.
#[derive(IntoResponses)]
#[response(status = 503, description = "Storage is unavailable")]
pub struct StorageUnavailable(ApiError);

/// A request that needs a signed-in session and its CSRF token.
#[derive(IntoResponses)]
pub enum SignedInOnly {
    #[response(status = 401, description = "Not signed in")]
    NotSignedIn(ApiError),
    #[response(status = 403, description = "A missing or wrong `X-CSRF-Token`")]
    Csrf(ApiError),
}
