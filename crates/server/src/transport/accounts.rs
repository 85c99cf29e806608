//! The account endpoints (see `docs/protocol.md`, "Accounts"): sign-up, sessions,
//! password changes, deletion, profiles, leaderboards, "my games" and seat claims. The rules are in
//! [`crate::services::accounts`] and [`crate::domain::ratings`]; the lobby's summaries name the accounts holding their
//! seats ([`crate::services::rooms::App::refresh_players`]).

use std::net::SocketAddr;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tabula_core::Seat;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::base::error::Refusal;
use crate::domain::model::Status;
use crate::transport::http::{ApiJson, ApiPath, AppState};
use crate::transport::session::{clear_cookie, credentials, session_cookie};
use crate::wire::api::{
    ApiError, Claim, Claimed, Credentials, Deleted, Deletion, Leaderboard, MyGame, MyGames,
    PasswordChange, PasswordChanged, Profile, SignedIn, SignedOut,
};

type AccountResult = Result<Response, Refusal>;

/// The account routes (one `routes!` per path).
pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sign_up, delete_account))
        .routes(routes!(change_password))
        .routes(routes!(session_info, sign_in, sign_out))
        .routes(routes!(profile))
        .routes(routes!(leaderboard))
        .routes(routes!(my_games))
        .routes(routes!(claim_seat))
}

/// A signed-in answer: the account's name and the session's CSRF token, with the session cookie.
fn signed_in(secure: bool, status: StatusCode, name: &str, token: &str, csrf: &str) -> Response {
    (
        status,
        [(header::SET_COOKIE, session_cookie(token, secure))],
        Json(SignedIn {
            name: name.to_string(),
            csrf: csrf.to_string(),
        }),
    )
        .into_response()
}

/// `POST /api/account`: creates an account and signs it in.
#[utoipa::path(post, path = "/api/account", tag = "accounts",
    summary = "Create an account and sign it in (sets the session cookie)",
    request_body = Credentials,
    responses(
        (status = 201, description = "Created and signed in", body = SignedIn, headers(("Set-Cookie" = String, description = "`tabula_session=…; Path=/; HttpOnly; SameSite=Lax` (`Secure` behind TLS)"))),
        (status = 400, description = "A bad name or a weak password", body = ApiError),
        (status = 409, description = "The name is taken", body = ApiError), crate::transport::responses::TooMany))]
async fn sign_up(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ApiJson(req): ApiJson<Credentials>,
) -> AccountResult {
    let accounts = &st.shared.accounts;
    // A sign-up hashes a password: it spends the address's sign-in budget.
    accounts.spend_address_attempt(peer.ip())?;
    let account = accounts.sign_up(&req.name, &req.password).await?;
    let (token, csrf) = accounts.open_session(&account).await?;
    tracing::info!(account = %account.name, "account created");
    Ok(signed_in(
        st.shared.limits.secure_cookies,
        StatusCode::CREATED,
        &account.name,
        &token,
        &csrf,
    ))
}

/// `POST /api/session`: signs in.
#[utoipa::path(post, path = "/api/session", tag = "accounts",
    summary = "Sign in (sets the session cookie); an unknown name and a wrong password get the same answer",
    request_body = Credentials,
    responses(
        (status = 200, description = "Signed in", body = SignedIn, headers(("Set-Cookie" = String, description = "`tabula_session=…; Path=/; HttpOnly; SameSite=Lax` (`Secure` behind TLS)"))),
        (status = 400, description = "Bad request: bad JSON or a bad field", body = ApiError),
        (status = 401, description = "Wrong credentials", body = ApiError), crate::transport::responses::TooMany))]
async fn sign_in(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ApiJson(req): ApiJson<Credentials>,
) -> AccountResult {
    let accounts = &st.shared.accounts;
    let account = accounts
        .check_credentials(&req.name, &req.password, peer.ip())
        .await?;
    let (token, csrf) = accounts.open_session(&account).await?;
    Ok(signed_in(
        st.shared.limits.secure_cookies,
        StatusCode::OK,
        &account.name,
        &token,
        &csrf,
    ))
}

/// `GET /api/session`: who is signed in, and the session's CSRF token.
#[utoipa::path(get, path = "/api/session", tag = "accounts",
    summary = "Who is signed in, and the session's CSRF token",
    responses(
        (status = 200, description = "Signed in", body = SignedIn),
        (status = 401, description = "Not signed in", body = ApiError), crate::transport::responses::TooMany))]
async fn session_info(
    State(st): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<SignedIn>, Refusal> {
    let session = st
        .shared
        .accounts
        .session(&credentials(&headers))
        .await?
        .ok_or(Refusal::NotSignedIn)?;
    Ok(Json(SignedIn {
        name: session.account.name,
        csrf: session.csrf,
    }))
}

/// `DELETE /api/session`: signs out (this session only).
#[utoipa::path(delete, path = "/api/session", tag = "accounts",
    summary = "Sign out (this session)",
    params(("X-CSRF-Token" = String, Header, description = "The session's CSRF token (from signing in or `GET /api/session`)")),
    responses(
        (status = 200, description = "Signed out (the cookie is cleared)", body = SignedOut), crate::transport::responses::SignedInOnly, crate::transport::responses::TooMany))]
async fn sign_out(State(st): State<AppState>, headers: HeaderMap) -> AccountResult {
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&credentials(&headers)).await?;
    accounts.close_session(&session).await?;
    Ok((
        [(
            header::SET_COOKIE,
            clear_cookie(st.shared.limits.secure_cookies),
        )],
        Json(SignedOut { signed_out: true }),
    )
        .into_response())
}

/// `POST /api/account/password`: changes the password; the account's other sessions end.
#[utoipa::path(post, path = "/api/account/password", tag = "accounts",
    summary = "Change the password (the current one asked again); the account's other sessions end and its seats get new tokens",
    params(("X-CSRF-Token" = String, Header, description = "The session's CSRF token (from signing in or `GET /api/session`)")),
    request_body = PasswordChange,
    responses(
        (status = 200, description = "Changed", body = PasswordChanged),
        (status = 400, description = "A weak new password", body = ApiError),
        (status = 401, description = "Not signed in, or a wrong current password", body = ApiError),
        (status = 403, description = "A missing or wrong `X-CSRF-Token`", body = ApiError), crate::transport::responses::TooMany))]
async fn change_password(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<PasswordChange>,
) -> Result<Json<PasswordChanged>, Refusal> {
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&credentials(&headers)).await?;
    let hash = accounts
        .check_password_change(&session, &req.current, &req.new, peer.ip())
        .await?;
    // The seats' tokens first: should that fail, the password is unchanged and the player tries
    // again (the tokens already replaced are the account's, listed by `GET /api/me/games`).
    st.shared
        .rooms
        .replace_account_tokens(&session.account.id, true)
        .await?;
    accounts.store_password(&session, &hash).await?;
    Ok(Json(PasswordChanged { changed: true }))
}

/// `DELETE /api/account`: deletes the account (its password asked again).
#[utoipa::path(delete, path = "/api/account", tag = "accounts",
    summary = "Delete the signed-in account (its password asked again); its sessions end and its seats' tokens are replaced",
    params(("X-CSRF-Token" = String, Header, description = "The session's CSRF token (from signing in or `GET /api/session`)")),
    request_body = Deletion,
    responses(
        (status = 200, description = "Deleted (the cookie is cleared)", body = Deleted),
        (status = 400, description = "Bad request: bad JSON or a bad field", body = ApiError),
        (status = 401, description = "Not signed in, or a wrong password", body = ApiError),
        (status = 403, description = "A missing or wrong `X-CSRF-Token`", body = ApiError), crate::transport::responses::TooMany))]
async fn delete_account(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Deletion>,
) -> AccountResult {
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&credentials(&headers)).await?;
    // The lobby stops naming the account in its games.
    let unfinished: Vec<String> = accounts
        .my_seats(&session.account.id)
        .await?
        .into_iter()
        .filter(|s| s.status == Status::Running.as_str() || s.status == Status::Waiting.as_str())
        .map(|s| s.game_id)
        .collect();
    accounts
        .check_credentials(&session.account.name, &req.password, peer.ip())
        .await?;
    // The seats' tokens are replaced by ones nobody knows, then the account goes.
    st.shared
        .rooms
        .replace_account_tokens(&session.account.id, false)
        .await?;
    accounts.delete(&session).await?;
    tracing::info!(account = %session.account.name, "account deleted");
    st.shared.rooms.refresh_players_of(&unfinished).await;
    Ok((
        [(
            header::SET_COOKIE,
            clear_cookie(st.shared.limits.secure_cookies),
        )],
        Json(Deleted { deleted: true }),
    )
        .into_response())
}

/// `GET /api/players/{name}`: a player's public profile.
#[utoipa::path(get, path = "/api/players/{name}", tag = "accounts",
    summary = "A player's profile: ratings per game (with their history), results, recent games, games in progress",
    params(("name" = String, Path, description = "The account's name (any case)")),
    responses(
        (status = 200, description = "The profile", body = Profile),
        (status = 404, description = "No such player", body = ApiError), crate::transport::responses::TooMany))]
async fn profile(
    State(st): State<AppState>,
    ApiPath(name): ApiPath<String>,
) -> Result<Json<Profile>, Refusal> {
    match st.shared.accounts.profile(&name).await? {
        Some(p) => Ok(Json(p)),
        None => Err(Refusal::NotFound(format!("no player “{name}”"))),
    }
}

/// `GET /api/leaderboard/{game}`: the best rated players of a game kind.
#[utoipa::path(get, path = "/api/leaderboard/{game}", tag = "accounts",
    summary = "The 50 best ratings of a game kind: the established ones first, then the provisional ones",
    params(("game" = String, Path, description = "A game kind's id")),
    responses(
        (status = 200, description = "The leaderboard", body = Leaderboard),
        (status = 404, description = "No such game kind", body = ApiError), crate::transport::responses::TooMany))]
async fn leaderboard(
    State(st): State<AppState>,
    ApiPath(game): ApiPath<String>,
) -> Result<Json<Leaderboard>, Refusal> {
    st.shared
        .registry
        .get(&game)
        .map_err(|e| Refusal::NotFound(e.to_string()))?;
    let players = st.shared.accounts.leaderboard(&game).await?;
    Ok(Json(Leaderboard {
        game,
        max_rd: crate::services::accounts::LEADERBOARD_MAX_RD,
        players,
    }))
}

/// `GET /api/me/games`: the signed-in player's games on any device, those awaiting their move
/// first, with each seat's token.
#[utoipa::path(get, path = "/api/me/games", tag = "accounts",
    summary = "The signed-in player's games on any device (with each seat's token), those awaiting a move first",
    responses(
        (status = 200, description = "The games", body = MyGames),
        (status = 401, description = "Not signed in", body = ApiError), crate::transport::responses::TooMany))]
async fn my_games(
    State(st): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<MyGames>, Refusal> {
    let accounts = &st.shared.accounts;
    let session = accounts
        .session(&credentials(&headers))
        .await?
        .ok_or(Refusal::NotSignedIn)?;
    let seats = accounts.my_seats(&session.account.id).await?;
    let mut current = Vec::new();
    let mut finished = Vec::new();
    for s in seats {
        let not_over = s.status == Status::Running.as_str() || s.status == Status::Waiting.as_str();
        let mut entry = MyGame {
            id: s.game_id,
            game: s.game,
            seat: s.seat,
            token: s.token,
            status: s.status,
            result: s.result,
            updated_at: s.updated_at,
            your_turn: false,
            seat_name: None,
            opponents: Vec::new(),
        };
        if not_over {
            match st.shared.rooms.room(&entry.id).await {
                Ok(room) => {
                    let inner = room.inner.lock().await;
                    entry.your_turn = inner.core.status == Status::Running
                        && inner.core.to_act().seats().contains(&Seat(entry.seat));
                    entry.status = inner.core.status.as_str().to_string();
                    entry.seat_name = Some(inner.core.state.seat_name(Seat(entry.seat)));
                }
                Err(e) => {
                    tracing::warn!(game = %entry.id, error = %e, "my games: cannot load a game")
                }
            }
            current.push(entry);
        } else if finished.len() < 50 {
            finished.push(entry);
        }
    }
    // Who plays the other seats of each game listed (an account with its rating, the AI, or an
    // anonymous player).
    let listed: Vec<(String, u8)> = current
        .iter()
        .chain(&finished)
        .map(|e| (e.id.clone(), e.seat))
        .collect();
    let mut opponents = accounts.opponents(&listed).await?.into_iter();
    for e in current.iter_mut().chain(finished.iter_mut()) {
        e.opponents = opponents.next().unwrap_or_default();
    }
    // Your turn first, then the other running games, then those waiting for players.
    current.sort_by_key(|e| (!e.your_turn, e.status != Status::Running.as_str()));
    let awaiting = current.iter().filter(|e| e.your_turn).count();
    Ok(Json(MyGames {
        name: session.account.name,
        awaiting,
        games: current,
        finished,
    }))
}

/// `POST /api/me/seats`: binds a seat this device holds anonymously (its token) to the account.
#[utoipa::path(post, path = "/api/me/seats", tag = "accounts",
    summary = "Bind a seat held on this device (its token) to the signed-in account",
    params(("X-CSRF-Token" = String, Header, description = "The session's CSRF token (from signing in or `GET /api/session`)")),
    request_body = Claim,
    responses(
        (status = 200, description = "Bound", body = Claimed),
        (status = 400, description = "Bad request: bad JSON or a bad field", body = ApiError),
        (status = 401, description = "Not signed in", body = ApiError),
        (status = 403, description = "A missing or wrong CSRF token, or a wrong seat token", body = ApiError),
        (status = 409, description = "The seat is another account's, or the game is rated", body = ApiError), crate::transport::responses::NoSuchGame, crate::transport::responses::TooMany))]
async fn claim_seat(
    State(st): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Claim>,
) -> Result<Json<Claimed>, Refusal> {
    let accounts = &st.shared.accounts;
    let session = accounts.signed_in(&credentials(&headers)).await?;
    let room = st.shared.rooms.room(&req.game).await?;
    {
        let inner = room.inner.lock().await;
        inner.core.check_token(req.seat, &req.token)?;
        if inner.core.config.rated {
            return Err(Refusal::Conflict(
                "the seats of a rated game are bound to accounts when they are joined".into(),
            ));
        }
    }
    accounts
        .claim(&req.game, req.seat, &session.account.id, &req.token)
        .await?;
    st.shared.rooms.refresh_players(&room).await;
    Ok(Json(Claimed {
        game: req.game,
        seat: req.seat,
        name: session.account.name,
    }))
}
