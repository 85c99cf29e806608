//! The account endpoints (issue 24; see `docs/protocol.md`, "Accounts"): sign-up, sessions,
//! password changes, deletion, profiles, leaderboards, "my games" and seat claims. The rules are in
//! [`crate::accounts`] and [`crate::ratings`]; the lobby's summaries name the accounts holding their
//! seats ([`crate::rooms::Shared::refresh_players`]).

use std::net::SocketAddr;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tabula_core::Seat;

use crate::accounts::{AccountError, Accounts};
use crate::http::{ApiPath, AppState, parse_body};
use crate::model::{Refusal, Status};

type AccountResult = Result<Response, AccountError>;

/// The account routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account", post(sign_up).delete(delete_account))
        .route("/api/account/password", post(change_password))
        .route(
            "/api/session",
            get(session_info).post(sign_in).delete(sign_out),
        )
        .route("/api/players/{name}", get(profile))
        .route("/api/leaderboard/{game}", get(leaderboard))
        .route("/api/me/games", get(my_games))
        .route("/api/me/seats", post(claim_seat))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// A signed-in answer: the account's name and the session's CSRF token, with the session cookie.
fn signed_in(
    accounts: &Accounts,
    status: StatusCode,
    name: &str,
    token: &str,
    csrf: &str,
) -> Response {
    (
        status,
        [(header::SET_COOKIE, accounts.session_cookie(token))],
        Json(json!({"name": name, "csrf": csrf})),
    )
        .into_response()
}

/// `POST /api/account`: creates an account and signs it in.
async fn sign_up(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> AccountResult {
    let req: Credentials = parse_body(body)?;
    let accounts = &st.shared.accounts;
    // A sign-up hashes a password: it spends the address's sign-in budget.
    accounts.spend_address_attempt(peer.ip())?;
    let account = accounts.sign_up(&req.name, &req.password).await?;
    let (token, csrf) = accounts.open_session(&account).await?;
    tracing::info!(account = %account.name, "account created");
    Ok(signed_in(
        accounts,
        StatusCode::CREATED,
        &account.name,
        &token,
        &csrf,
    ))
}

/// `POST /api/session`: signs in.
async fn sign_in(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> AccountResult {
    let req: Credentials = parse_body(body)?;
    let accounts = &st.shared.accounts;
    let account = accounts
        .check_credentials(&req.name, &req.password, peer.ip())
        .await?;
    let (token, csrf) = accounts.open_session(&account).await?;
    Ok(signed_in(
        accounts,
        StatusCode::OK,
        &account.name,
        &token,
        &csrf,
    ))
}

/// `GET /api/session`: who is signed in, and the session's CSRF token.
async fn session_info(State(st): State<AppState>, headers: HeaderMap) -> AccountResult {
    let session = st
        .shared
        .accounts
        .session(&headers)
        .await?
        .ok_or(AccountError::NotSignedIn)?;
    Ok(Json(json!({"name": session.account.name, "csrf": session.csrf})).into_response())
}

/// `DELETE /api/session`: signs out (this session only).
async fn sign_out(State(st): State<AppState>, headers: HeaderMap) -> AccountResult {
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&headers).await?;
    accounts.close_session(&session).await?;
    Ok((
        [(header::SET_COOKIE, accounts.clear_cookie())],
        Json(json!({"signed_out": true})),
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    current: String,
    new: String,
}

/// `POST /api/account/password`: changes the password; the account's other sessions end.
async fn change_password(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> AccountResult {
    let req: PasswordChange = parse_body(body)?;
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&headers).await?;
    accounts
        .change_password(&session, &req.current, &req.new, peer.ip())
        .await?;
    Ok(Json(json!({"changed": true})).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Deletion {
    password: String,
}

/// `DELETE /api/account`: deletes the account (its password asked again).
async fn delete_account(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> AccountResult {
    let req: Deletion = parse_body(body)?;
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&headers).await?;
    // The lobby stops naming the account in its games.
    let unfinished: Vec<String> = accounts
        .my_seats(&session.account.id)
        .await?
        .into_iter()
        .filter(|s| s.status == Status::Running.as_str() || s.status == Status::Waiting.as_str())
        .map(|s| s.game_id)
        .collect();
    accounts.delete(&session, &req.password, peer.ip()).await?;
    tracing::info!(account = %session.account.name, "account deleted");
    st.shared.refresh_players_of(&unfinished).await;
    Ok((
        [(header::SET_COOKIE, accounts.clear_cookie())],
        Json(json!({"deleted": true})),
    )
        .into_response())
}

/// `GET /api/players/{name}`: a player's public profile.
async fn profile(State(st): State<AppState>, ApiPath(name): ApiPath<String>) -> AccountResult {
    match st.shared.accounts.profile(&name).await? {
        Some(p) => Ok(Json(p).into_response()),
        None => Err(Refusal::NotFound(format!("no player `{name}`")).into()),
    }
}

/// `GET /api/leaderboard/{game}`: the best rated players of a game kind.
async fn leaderboard(State(st): State<AppState>, ApiPath(game): ApiPath<String>) -> AccountResult {
    st.shared
        .registry
        .get(&game)
        .map_err(|e| Refusal::NotFound(e.to_string()))?;
    let players = st.shared.accounts.leaderboard(&game).await?;
    Ok(Json(
        json!({"game": game, "max_rd": crate::accounts::LEADERBOARD_MAX_RD, "players": players}),
    )
    .into_response())
}

/// `GET /api/me/games`: the signed-in player's games on any device, those awaiting their move
/// first, with each seat's token.
async fn my_games(State(st): State<AppState>, headers: HeaderMap) -> AccountResult {
    let accounts = &st.shared.accounts;
    let session = accounts
        .session(&headers)
        .await?
        .ok_or(AccountError::NotSignedIn)?;
    let seats = accounts.my_seats(&session.account.id).await?;
    let mut current = Vec::new();
    let mut finished = Vec::new();
    for s in seats {
        let mut entry = json!({"id": s.game_id, "game": s.game, "seat": s.seat, "token": s.token,
                               "status": s.status, "result": s.result, "updated_at": s.updated_at,
                               "your_turn": false});
        if s.status == Status::Running.as_str() || s.status == Status::Waiting.as_str() {
            match st.shared.room(&s.game_id).await {
                Ok(room) => {
                    let inner = room.inner.lock().await;
                    let your_turn = inner.core.status == Status::Running
                        && inner.core.to_act().seats().contains(&Seat(s.seat));
                    entry["your_turn"] = json!(your_turn);
                    entry["status"] = json!(inner.core.status.as_str());
                    entry["seat_name"] = json!(inner.core.state.seat_name(Seat(s.seat)));
                }
                Err(e) => {
                    tracing::warn!(game = %s.game_id, error = %e, "my games: cannot load a game")
                }
            }
            current.push(entry);
        } else if finished.len() < 50 {
            finished.push(entry);
        }
    }
    // Your turn first, then the other running games, then those waiting for players.
    current.sort_by_key(|e| {
        (
            !e["your_turn"].as_bool().unwrap_or(false),
            e["status"] != "running",
        )
    });
    let awaiting = current
        .iter()
        .filter(|e| e["your_turn"].as_bool().unwrap_or(false))
        .count();
    Ok(
        Json(json!({"name": session.account.name, "awaiting": awaiting,
                   "games": current, "finished": finished}))
        .into_response(),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    game: String,
    seat: u8,
    token: String,
}

/// `POST /api/me/seats`: binds a seat this device holds anonymously (its token) to the account.
async fn claim_seat(
    State(st): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> AccountResult {
    let req: Claim = parse_body(body)?;
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&headers).await?;
    let room = st.shared.room(&req.game).await?;
    {
        let inner = room.inner.lock().await;
        inner.core.check_token(req.seat, &req.token)?;
        if inner.core.config.rated {
            return Err(Refusal::Conflict(
                "the seats of a rated game are bound to accounts when they are joined".into(),
            )
            .into());
        }
    }
    accounts
        .claim(&req.game, req.seat, &session.account.id, &req.token)
        .await?;
    st.shared.refresh_players(&room).await;
    Ok(
        Json(json!({"game": req.game, "seat": req.seat, "name": session.account.name}))
            .into_response(),
    )
}
