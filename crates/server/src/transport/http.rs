//! The HTTP routes and the WebSocket sessions (see `docs/protocol.md`).

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use serde_json::{Value, json};
use tabula_core::record::JsonRecord;
use tabula_core::{Observer, Seat};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::base::error::Refusal;
use crate::base::time::Clock;
use crate::domain::model::{SeatKind, Status};
use crate::services::app::App;
use crate::services::rooms::{ActionInput, Room, SeatOp};
use crate::transport::session::credentials;
use crate::wire::api::CreateGame;
use crate::wire::api::{
    ActionRequest, ApiError, Catalog, CatalogGame, Committed, Created, CreatedSeat, GameOption,
    ImportRequest, Imported, JoinRequest, Joined, Lobby, Preview, PreviewRequest, Rematched,
    SeatAuth, SeatOpRequest,
};
use crate::wire::game::{ClientOp, MessageKind, OfferOp, RematchAck, SocketMsg};

#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) shared: Arc<App>,
    budgets: Arc<AddressBudgets>,
    /// The OpenAPI document, built with the router (see [`router`]).
    openapi: Arc<OnceLock<Arc<utoipa::openapi::OpenApi>>>,
}

/// A rate quota of `rate_per_sec` on average with bursts of `burst` (a rate that is not a positive
/// number allows one request a day after the burst; a burst under 1 is 1).
pub fn quota(rate_per_sec: f64, burst: f64) -> Quota {
    let burst =
        NonZeroU32::new(burst.clamp(1.0, f64::from(u32::MAX)) as u32).unwrap_or(NonZeroU32::MIN);
    let period = if rate_per_sec.is_finite() && rate_per_sec > 0.0 {
        Duration::from_secs_f64((1.0 / rate_per_sec).clamp(1e-9, 86_400.0))
    } else {
        Duration::from_secs(86_400)
    };
    Quota::with_period(period)
        .unwrap_or_else(|| Quota::per_second(NonZeroU32::MAX))
        .allow_burst(burst)
}

/// The request budget of every client address (`governor`'s keyed limiter, the generic cell rate
/// algorithm). A client's spent budget is never forgotten while it refills: [`AddressBudgets::tidy`]
/// drops only the addresses whose budget is full again, whatever the number of addresses.
pub struct AddressBudgets {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
}

impl AddressBudgets {
    /// Budgets of `rate_per_sec` requests per second on average, with bursts of `burst`.
    pub fn new(rate_per_sec: f64, burst: f64) -> AddressBudgets {
        AddressBudgets {
            limiter: RateLimiter::keyed(quota(rate_per_sec, burst)),
        }
    }
    /// Takes one request from `ip`'s budget; false when it is spent.
    pub fn check(&self, ip: IpAddr) -> bool {
        self.limiter.check_key(&ip).is_ok()
    }
    /// Forgets the addresses whose budget has refilled (they are as new), and frees their memory.
    pub fn tidy(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
    /// The addresses remembered.
    pub fn len(&self) -> usize {
        self.limiter.len()
    }
    /// Whether no address is remembered.
    pub fn is_empty(&self) -> bool {
        self.limiter.is_empty()
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.http_status()).unwrap_or(StatusCode::BAD_REQUEST);
        let body = Json(ApiError::new(self.code(), self.to_string()));
        match self {
            // The budget refills continuously: a second is always enough for one more request.
            Refusal::RateLimited(_) => (
                status,
                [(header::RETRY_AFTER, HeaderValue::from(1u64))],
                body,
            )
                .into_response(),
            Refusal::TooManyAttempts(_, wait) => (
                status,
                [(header::RETRY_AFTER, HeaderValue::from(wait.max(1)))],
                body,
            )
                .into_response(),
            _ => (status, body).into_response(),
        }
    }
}

type ApiResult = Result<Response, Refusal>;

/// axum's `Path`, refused in the API's JSON error format (`400 bad_request`) instead of plain text.
pub(crate) struct ApiPath<T>(pub(crate) T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refusal> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(ApiPath(v)),
            Err(e) if e.status().is_server_error() => Err(Refusal::Internal(e.body_text())),
            Err(e) => Err(Refusal::BadRequest(format!("bad path: {}", e.body_text()))),
        }
    }
}

/// A JSON body read as `T`, refused in the API's error format: `400 bad_request` for bad JSON,
/// `413 too_large` over the route's body limit. The one way a handler takes a body.
pub(crate) struct ApiJson<T>(pub(crate) T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = Refusal;

    async fn from_request(req: Request, state: &S) -> Result<Self, Refusal> {
        parse_body(Bytes::from_request(req, state).await).map(ApiJson)
    }
}

/// axum's `Query`, refused in the API's JSON error format (`400 bad_request`, e.g. for `?seat=abc`)
/// instead of plain text.
struct ApiQuery<T>(T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refusal> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(v)| ApiQuery(v))
            .map_err(|e| Refusal::BadRequest(format!("bad query: {}", e.body_text())))
    }
}

/// The application's router.
pub fn router(shared: Arc<App>) -> Router {
    let limits = shared.limits.clone();
    let budgets = Arc::new(AddressBudgets::new(
        limits.http_rate_per_sec,
        limits.http_burst,
    ));
    // Addresses whose budget has refilled are forgotten every minute (until the router is dropped).
    let tidy = Arc::downgrade(&budgets);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        tick.tick().await;
        loop {
            tick.tick().await;
            match tidy.upgrade() {
                Some(b) => b.tidy(),
                None => break,
            }
        }
    });
    let state = AppState {
        shared,
        budgets,
        openapi: Arc::new(OnceLock::new()),
    };
    let (api, mut doc) = api_routes(&state).split_for_parts();
    document_middleware_refusals(&mut doc);
    // The liveness check and the document itself are documented too, outside the API's limits.
    let (meta, meta_doc) = OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(openapi_json))
        .split_for_parts();
    doc.merge(meta_doc);
    // Set once, here, before the router answers anything.
    let _ = state.openapi.set(Arc::new(openapi_document(doc)));
    Router::new()
        .merge(meta)
        .merge(api)
        // Rate-limited in the handler: a seat's own upgrade is not counted (see `ws`). Not in the
        // OpenAPI document (an upgrade, not a request and answer): see `docs/protocol.md`.
        .route("/api/games/{id}/ws", get(ws))
        // Cluster nodes forward changes to a game's owner here (`crate::storage::cluster`); not part of the
        // public protocol (nor of the OpenAPI document), refused without the cluster secret.
        .route("/internal/games/{id}/commit", post(internal_commit))
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .fallback(web_page)
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(
            limits.request_deadline,
            request_deadline,
        ))
        .layer(axum::middleware::map_response_with_state(
            limits.secure_cookies,
            security_headers,
        ))
}

/// Bounds a request, from its headers to its answer, its body included, by
/// [`crate::Limits::request_deadline`]: past it the client gets `408 request_timeout` (the API's JSON
/// error, which a generic timeout layer would not write) and the connection is closed. A change the
/// request started still runs to its end (changes run `detached`).
async fn request_deadline(State(deadline): State<Duration>, req: Request, next: Next) -> Response {
    match tokio::time::timeout(deadline, next.run(req)).await {
        Ok(res) => res,
        Err(_) => {
            let body = Json(crate::wire::api::ApiError::new(
                "request_timeout",
                format!(
                    "the request was not complete (headers, body and answer) within {} s",
                    deadline.as_secs_f64()
                ),
            ));
            (
                StatusCode::REQUEST_TIMEOUT,
                [(header::CONNECTION, "close")],
                body,
            )
                .into_response()
        }
    }
}

/// The Content-Security-Policy of every answer: scripts, styles, fonts and connections (the game's
/// WebSocket) from the server's own origin only, images also as `data:` URLs (the page's empty
/// icon), no plugins, no `<base>`, forms posting only here, and no page may frame this one.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every answer (pages, assets, the API): the
/// [`CONTENT_SECURITY_POLICY`], `X-Frame-Options: DENY` (with `frame-ancestors 'none'`: the game
/// page's buttons act with a stored token, so no other site may frame it), `X-Content-Type-Options:
/// nosniff`, `Referrer-Policy: no-referrer` (a join link's token never leaves in a `Referer`), and,
/// behind TLS (`--secure-cookies`), `Strict-Transport-Security`. A header a handler set is kept.
async fn security_headers(State(https): State<bool>, mut res: Response) -> Response {
    let h = res.headers_mut();
    let mut set = |name: header::HeaderName, value: &'static str| {
        h.entry(name)
            .or_insert_with(|| HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_FRAME_OPTIONS, "DENY");
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    if https {
        set(header::STRICT_TRANSPORT_SECURITY, "max-age=31536000");
    }
    res
}

/// The API's routes, each registered with its documentation (`#[utoipa::path]` on its handler), so
/// the OpenAPI document lists exactly the routes the server answers. One `routes!` per path (the
/// handlers of its methods).
fn api_routes(state: &AppState) -> OpenApiRouter<AppState> {
    let limits = &state.shared.limits;
    OpenApiRouter::new()
        .routes(routes!(catalog))
        .routes(routes!(preview))
        .routes(routes!(create_game))
        .routes(routes!(lobby))
        .routes(routes!(snapshot))
        .routes(routes!(view_at))
        .routes(routes!(join))
        .routes(routes!(action))
        .routes(routes!(resign))
        .routes(routes!(draw))
        .routes(routes!(takeback))
        .routes(routes!(rematch))
        .routes(routes!(record))
        .merge(crate::transport::accounts::routes())
        .merge(crate::transport::lessons::routes(
            state.shared.registry.clone(),
        ))
        .merge(crate::transport::analysis::routes(state.shared.clone()))
        .merge(crate::transport::chat::routes(state.shared.clone()))
        .merge(crate::transport::explain::routes(state.shared.clone()))
        .layer(DefaultBodyLimit::max(limits.http_max_body))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(import))
                .layer(DefaultBodyLimit::max(limits.import_max_body)),
        )
        .route_layer(axum::middleware::from_fn(json_only))
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            rate_limit,
        ))
}

/// The OpenAPI document served at `/api/openapi.json`: the paths and schemas the handlers declare,
/// with the API's title, version and description.
pub fn openapi_document(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    doc.info = utoipa::openapi::InfoBuilder::new()
        .title("Tabula game server")
        .version(env!("CARGO_PKG_VERSION"))
        .description(Some(
            "HTTP API of the Tabula game server, derived from its handlers. Every refusal is an \
             `ApiError` (`{\"error\": {\"code\", \"message\"}}`; the codes are listed in \
             docs/protocol.md). Not listed here: the WebSocket upgrade (`GET /api/games/{id}/ws`, \
             whose messages docs/protocol.md documents) and the cluster's internal route.",
        ))
        .build();
    doc
}

/// Documents on every operation of the API's routes the refusals their middleware answers before any
/// handler runs: `429` (the address's request budget, [`rate_limit`]) and, for every method but GET,
/// `415` ([`json_only`]). Handlers document only their own refusals; one that documents its own
/// `429` (the accounts' sign-in budget) keeps its description.
fn document_middleware_refusals(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
    let refusal = |description: &str| {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ApiError")))
                        .build(),
                )
                .build(),
        )
    };
    for item in doc.paths.paths.values_mut() {
        let operations = [
            (false, &mut item.get),
            (true, &mut item.post),
            (true, &mut item.put),
            (true, &mut item.patch),
            (true, &mut item.delete),
        ];
        for (has_body, operation) in operations {
            let Some(operation) = operation else {
                continue;
            };
            let responses = &mut operation.responses.responses;
            responses
                .entry("429".into())
                .or_insert_with(|| refusal("Too many requests from this address"));
            if has_body {
                responses
                    .entry("415".into())
                    .or_insert_with(|| refusal("Not sent as `Content-Type: application/json`"));
            }
        }
    }
}

/// `GET /healthz`.
#[utoipa::path(get, path = "/healthz", tag = "server",
    summary = "Liveness check",
    responses((status = 200, description = "The server is up", body = String, content_type = "text/plain")))]
async fn healthz() -> &'static str {
    "ok"
}

/// `GET /api/openapi.json`: this document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "server",
    summary = "This document: the HTTP API, derived from the server's handlers",
    responses((status = 200, description = "The OpenAPI document", body = Object)))]
async fn openapi_json(State(st): State<AppState>) -> Response {
    match st.openapi.get() {
        Some(doc) => Json(doc.clone()).into_response(),
        None => Refusal::Internal("the OpenAPI document is not built yet".into()).into_response(),
    }
}

/// Every path outside the API is the web client's: read-only, so it answers GET and HEAD only.
async fn web_page(method: Method, uri: axum::http::Uri, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        let r = Refusal::MethodNotAllowed(format!(
            "{method} is not a method of {}: pages answer only GET and HEAD (the API is under /api/)",
            uri.path()
        ));
        return ([(header::ALLOW, "GET, HEAD")], r).into_response();
    }
    crate::transport::assets::serve_asset(uri, &headers).await
}

/// A change another cluster node forwarded to this one, the game's owner (`crate::storage::cluster`):
/// `200 {"seq"}`, a refusal, or `421` when this node does not own the game (the sender asks again).
async fn internal_commit(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult {
    let Some(node) = st.shared.db.node() else {
        return Err(Refusal::NotFound(
            "this server is not a cluster node".into(),
        ));
    };
    let given = headers
        .get(crate::storage::cluster::SECRET_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !node.secret_matches(given) {
        return Err(Refusal::Forbidden(
            "internal requests need the cluster secret".into(),
        ));
    }
    let change: crate::services::rooms::Forwarded = serde_json::from_slice(&body)
        .map_err(|e| Refusal::BadRequest(format!("bad forwarded change: {e}")))?;
    match st.shared.rooms.commit_forwarded(&id, change).await {
        Ok(Ok(seq)) => Ok(Json(Committed { seq }).into_response()),
        Ok(Err(refusal)) => Err(refusal),
        Err(()) => {
            let status = StatusCode::from_u16(crate::services::rooms::NOT_OWNER)
                .unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
            let body = ApiError::new("not_owner", "this node does not own the game (any more)");
            Ok((status, Json(body)).into_response())
        }
    }
}

async fn api_not_found() -> Refusal {
    Refusal::NotFound("no such API endpoint; see /api/openapi.json".into())
}

async fn method_not_allowed(req: Request) -> Refusal {
    Refusal::MethodNotAllowed(format!(
        "{} is not a method of {}; see /api/openapi.json",
        req.method(),
        req.uri().path()
    ))
}

async fn rate_limit(
    State(st): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    if !st.allow(addr.ip()) {
        return too_many_requests().into_response();
    }
    next.run(req).await
}

/// State-changing requests (every method but GET and HEAD) must say `Content-Type: application/json`:
/// a cross-site HTML form can post only `text/plain`, `application/x-www-form-urlencoded` or
/// `multipart/form-data` without a CORS preflight, so a page elsewhere cannot make a browser act here.
async fn json_only(req: Request, next: Next) -> Response {
    let reads_only = req.method() == Method::GET || req.method() == Method::HEAD;
    if !reads_only && !is_json(req.headers()) {
        let given = req
            .headers()
            .get(header::CONTENT_TYPE)
            .map_or("none".to_string(), |v| {
                format!("`{}`", String::from_utf8_lossy(v.as_bytes()))
            });
        let message = format!(
            "{} {} takes a JSON body: send `Content-Type: application/json` (content type given: {given})",
            req.method(),
            req.uri().path()
        );
        let body = Json(ApiError::new("unsupported_media_type", message));
        return (StatusCode::UNSUPPORTED_MEDIA_TYPE, body).into_response();
    }
    next.run(req).await
}

/// Whether the request's content type is `application/json` (parameters such as `charset` allowed).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
}

fn too_many_requests() -> Refusal {
    Refusal::RateLimited("too many requests; slow down".into())
}

impl AppState {
    /// Takes one request from `ip`'s budget (`http_rate_per_sec`, bursts of `http_burst`); false
    /// when it is spent.
    fn allow(&self, ip: IpAddr) -> bool {
        self.budgets.check(ip)
    }
}

pub(crate) fn parse_body<T: for<'de> Deserialize<'de>>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Refusal> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Refusal::TooLarge("request body too large".into())
        } else {
            Refusal::BadRequest(format!("cannot read the request body: {e}"))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| Refusal::BadRequest(format!("bad JSON: {e}")))
}

#[utoipa::path(get, path = "/api/catalog", tag = "games",
    summary = "The games this server hosts, with their options",
    responses((status = 200, description = "The catalog", body = Catalog)))]
async fn catalog(State(st): State<AppState>) -> Json<Catalog> {
    let games = st
        .shared
        .registry
        .games()
        .iter()
        .map(|g| {
            let default_seats: Vec<String> = g
                .check_options(&json!({}))
                .ok()
                .and_then(|o| g.new_state(&o).ok())
                .map(|s| (0..s.seats()).map(|i| s.seat_name(Seat::new(i))).collect())
                .unwrap_or_default();
            CatalogGame {
                id: g.id().to_string(),
                name: g.name().to_string(),
                description: g.description().to_string(),
                options: g
                    .options_schema()
                    .into_iter()
                    .map(GameOption::from)
                    .collect(),
                default_seats,
            }
        })
        .collect();
    Json(Catalog { games })
}

#[utoipa::path(post, path = "/api/catalog/{game}/preview", tag = "games",
    summary = "Check options; tell the seats they give",
    params(("game" = String, Path, description = "A game kind's id (see `GET /api/catalog`)")),
    request_body = PreviewRequest,
    responses(
        (status = 200, description = "The options with their defaults, and the seats' names", body = Preview),
        (status = 400, description = "Bad options", body = ApiError),
        (status = 404, description = "No such game kind", body = ApiError)))]
async fn preview(
    State(st): State<AppState>,
    ApiPath(game): ApiPath<String>,
    ApiJson(req): ApiJson<PreviewRequest>,
) -> Result<Json<Preview>, Refusal> {
    let kind = st
        .shared
        .registry
        .get(&game)
        .map_err(|e| Refusal::NotFound(e.to_string()))?;
    let options = kind
        .check_options(req.options.as_ref().unwrap_or(&json!({})))
        .map_err(|e| Refusal::BadRequest(e.to_string()))?;
    let state = kind
        .new_state(&options)
        .map_err(|e| Refusal::BadRequest(e.to_string()))?;
    let seats: Vec<String> = (0..state.seats())
        .map(|i| state.seat_name(Seat::new(i)))
        .collect();
    Ok(Json(Preview { options, seats }))
}

#[utoipa::path(post, path = "/api/games", tag = "games",
    summary = "Create a game",
    description = "Signed in (the session cookie with `X-CSRF-Token`), the host seats are the account's; a rated game needs it.",
    request_body = CreateGame,
    responses(
        (status = 201, description = "Created: the game's id and the host seats' tokens", body = Created),
        (status = 401, description = "A rated game needs an account signed in", body = ApiError),
        (status = 403, description = "A missing or wrong CSRF token", body = ApiError),
        (status = 404, description = "No such game kind", body = ApiError), crate::transport::responses::BadBody))]
async fn create_game(
    State(st): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<CreateGame>,
) -> Result<(StatusCode, Json<Created>), Refusal> {
    // Signed in (with the CSRF token): the host seats are the account's.
    let by = st
        .shared
        .accounts
        .acting(&credentials(&headers))
        .await?
        .map(|s| s.account);
    let signed_in = by.is_some();
    let (room, tokens) = st.shared.rooms.create_as(req, by).await?;
    if signed_in {
        st.shared.rooms.refresh_players(&room).await;
    }
    let inner = room.inner.lock().await;
    let seats = inner
        .core
        .config
        .seats
        .iter()
        .enumerate()
        .map(|(seat, k)| {
            let name = inner.core.state.seat_name(Seat::new(seat));
            match (k, tokens.get(seat).cloned().flatten()) {
                (SeatKind::Ai { level }, _) => CreatedSeat::Ai {
                    seat,
                    name,
                    level: *level,
                },
                (SeatKind::Human { open }, token) => CreatedSeat::Human {
                    seat,
                    name,
                    open: *open,
                    join_url: token
                        .as_ref()
                        // The token in the fragment: a browser never sends it to a server (nor
                        // to a proxy's access log); the page reads it from there.
                        .map(|t| format!("/join/{}/{seat}#{t}", room.id)),
                    token,
                },
            }
        })
        .collect();
    let body = Created {
        id: room.id.clone(),
        game: inner.core.config.game.clone(),
        status: inner.core.status.as_str().to_string(),
        seats,
        watch_url: format!("/watch/{}", room.id),
        seed_commitment: inner.core.seed_commitment.to_string(),
    };
    Ok((StatusCode::CREATED, Json(body)))
}

/// `GET /api/lobby`: the index's text as it is (the summaries name their seats' accounts already).
#[utoipa::path(get, path = "/api/lobby", tag = "games",
    summary = "Open games to join and live games to watch",
    responses((status = 200, description = "The lobby", body = Lobby)))]
async fn lobby(State(st): State<AppState>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        st.shared.lobby(),
    )
        .into_response()
}

/// Who asks: a seat with its token (or `Authorization: Bearer <token>`), or nobody for a spectator;
/// and the last event the client has (`since`).
#[derive(Deserialize, Default, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ObsQuery {
    seat: Option<u8>,
    token: Option<String>,
    since: Option<u64>,
}

/// The observer a request speaks for: a seat with its checked token, or the spectator; with the seat's
/// token count at the check ([`Room::token_rev`], 0 for the spectator), for sockets.
async fn observer_of(
    room: &Room,
    seat: Option<u8>,
    token: Option<String>,
    headers: &HeaderMap,
) -> Result<(Observer, u64), Refusal> {
    let token = token.or_else(|| bearer(headers));
    match (seat, token) {
        (None, None) => Ok((Observer::Spectator, 0)),
        (Some(_), None) => Err(Refusal::BadToken("a seat needs its token".into())),
        (None, Some(_)) => Err(Refusal::BadRequest("a token needs its seat number".into())),
        (Some(s), Some(t)) => {
            let inner = room.inner.lock().await;
            inner.core.check_token(s, &t)?;
            Ok((Observer::Seat(Seat(s)), room.token_rev(Seat(s))))
        }
    }
}

/// The WebSocket subprotocol a client offers, with `tabula.token.{token}` beside it to give its
/// seat's token outside the URL (`new WebSocket(url, ["tabula", "tabula.token." + token])`).
pub const WS_PROTOCOL: &str = "tabula";

/// The seat token a WebSocket client offered as the subprotocol `tabula.token.{token}`.
pub(crate) fn protocol_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .find_map(|p| p.trim().strip_prefix("tabula.token."))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

/// The token of an `Authorization: Bearer` header.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|s| s.trim().to_string())
}

#[utoipa::path(get, path = "/api/games/{id}", tag = "games",
    summary = "The game as a seat (with its token) or a spectator sees it",
    description = "The snapshot message of `docs/protocol.md` (`The snapshot object`), the same as the WebSocket's first message. The WebSocket itself (`GET /api/games/{id}/ws`) is not in this document: see `docs/protocol.md`.",
    params(("id" = String, Path, description = "The game's id"), ObsQuery),
    responses(
        (status = 200, description = "The snapshot", body = crate::wire::game::GameMessage<'static>),
        (status = 400, description = "A seat without its token, or a token without its seat", body = ApiError), crate::transport::responses::SeatRefusals))]
async fn snapshot(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ObsQuery>,
    headers: HeaderMap,
) -> ApiResult {
    let room = st.shared.rooms.room(&id).await?;
    let (obs, _) = observer_of(&room, q.seat, q.token, &headers).await?;
    let inner = room.inner.lock().await;
    let m = room.message_text(
        &inner,
        obs,
        q.since.unwrap_or(0),
        MessageKind::Snapshot,
        st.shared.rooms.clock.now_ms(),
        None,
    );
    drop(inner);
    Ok(([(header::CONTENT_TYPE, "application/json")], m).into_response())
}

/// Who asks: a seat with its token (or `Authorization: Bearer <token>`), or nobody for a spectator.
#[derive(Deserialize, Default, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SeatQuery {
    seat: Option<u8>,
    token: Option<String>,
}

/// The replay: what the observer saw after the first `n` actions.
#[utoipa::path(get, path = "/api/games/{id}/view/{n}", tag = "games",
    summary = "Replay: what the seat (with its token) or a spectator saw right after the game's first n actions (chance included)",
    description = "See `docs/protocol.md`, `GET /api/games/{id}/view/{n}`.",
    params(("id" = String, Path, description = "The game's id"), ("n" = u64, Path, description = "The number of actions played (0: the initial position)"), SeatQuery),
    responses(
        (status = 200, description = "The position", body = crate::wire::api::Position),
        (status = 400, description = "`n` is not a number of actions, or past the game's end", body = ApiError), crate::transport::responses::SeatRefusals))]
async fn view_at(
    State(st): State<AppState>,
    ApiPath((id, n)): ApiPath<(String, String)>,
    ApiQuery(q): ApiQuery<SeatQuery>,
    headers: HeaderMap,
) -> ApiResult {
    let n: u64 = n.parse().map_err(|_| {
        Refusal::BadRequest(format!(
            "`{n}` is not a position: give the number of actions, 0 or more"
        ))
    })?;
    let room = st.shared.rooms.room(&id).await?;
    let (obs, _) = observer_of(&room, q.seat, q.token, &headers).await?;
    Ok(Json(room.view_at(obs, n).await?).into_response())
}

#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games",
    summary = "Join a seat with its token, or claim an open seat of a public game",
    params(("id" = String, Path, description = "The game's id")),
    request_body = JoinRequest,
    responses(
        (status = 200, description = "Joined: the seat's token", body = Joined),
        (status = 403, description = "A wrong token, or a missing CSRF token when signed in", body = ApiError),
        (status = 409, description = "The seat is taken, or the game has started", body = ApiError), crate::transport::responses::NoSuchGame, crate::transport::responses::BadBody))]
async fn join(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<JoinRequest>,
) -> Result<Json<Joined>, Refusal> {
    let by = st
        .shared
        .accounts
        .acting(&credentials(&headers))
        .await?
        .map(|s| s.account);
    let room = st.shared.rooms.room(&id).await?;
    let signed_in = by.is_some();
    let token = st
        .shared
        .rooms
        .join_as(&room, req.seat, req.token, by)
        .await?;
    if signed_in {
        st.shared.rooms.refresh_players(&room).await;
    }
    let inner = room.inner.lock().await;
    let name = inner.core.state.seat_name(Seat(req.seat));
    Ok(Json(Joined {
        seat: req.seat,
        name,
        token,
    }))
}

fn action_input(action: Option<Value>, notation: Option<String>) -> Result<ActionInput, Refusal> {
    match (action, notation) {
        (Some(a), None) => Ok(ActionInput::Json(a)),
        (None, Some(n)) => Ok(ActionInput::Notation(n)),
        _ => Err(Refusal::BadRequest(
            "give exactly one of `action` and `notation`".into(),
        )),
    }
}

#[utoipa::path(post, path = "/api/games/{id}/action", tag = "games",
    summary = "Play an action (acknowledged once committed)",
    params(("id" = String, Path, description = "The game's id")),
    request_body = ActionRequest,
    responses(
        (status = 200, description = "Committed", body = Committed),
        (status = 409, description = "Not this seat's turn, or the game is over", body = ApiError),
        (status = 422, description = "An illegal action (the game's explanation)", body = ApiError), crate::transport::responses::SeatRefusals, crate::transport::responses::BadBody))]
async fn action(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<ActionRequest>,
) -> Result<Json<Committed>, Refusal> {
    let input = action_input(req.action, req.notation)?;
    // The token is checked under the game's lock, with the commit (see `App::act`).
    let room = st.shared.rooms.room(&id).await?;
    let seq = st
        .shared
        .rooms
        .act(&room, req.seat, &req.token, input)
        .await?;
    Ok(Json(Committed { seq }))
}

#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games",
    summary = "Resign",
    params(("id" = String, Path, description = "The game's id")),
    request_body = SeatAuth,
    responses(
        (status = 200, description = "Committed", body = Committed),
        (status = 409, description = "Not possible now (the game is over, not started, …)", body = ApiError), crate::transport::responses::SeatRefusals, crate::transport::responses::BadBody))]
async fn resign(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<SeatAuth>,
) -> Result<Json<Committed>, Refusal> {
    let room = st.shared.rooms.room(&id).await?;
    let seq = st
        .shared
        .rooms
        .seat_op(&room, req.seat, &req.token, SeatOp::Resign)
        .await?;
    Ok(Json(Committed { seq }))
}

fn draw_op(op: OfferOp) -> SeatOp {
    match op {
        OfferOp::Offer => SeatOp::DrawOffer,
        OfferOp::Accept => SeatOp::DrawAccept,
        OfferOp::Decline => SeatOp::DrawDecline,
    }
}

fn takeback_op(op: OfferOp) -> SeatOp {
    match op {
        OfferOp::Offer => SeatOp::TakebackOffer,
        OfferOp::Accept => SeatOp::TakebackAccept,
        OfferOp::Decline => SeatOp::TakebackDecline,
    }
}

/// A seat's draw or takeback operation over HTTP (the two handlers differ in their op and docs).
async fn offer_op(
    st: &AppState,
    id: &str,
    seat: u8,
    token: &str,
    op: SeatOp,
) -> Result<Json<Committed>, Refusal> {
    let room = st.shared.rooms.room(id).await?;
    let seq = st.shared.rooms.seat_op(&room, seat, token, op).await?;
    Ok(Json(Committed { seq }))
}

/// `POST /api/games/{id}/takeback`: asks to take back the seat's last turn (against the AI: done at
/// once), or accepts or declines the opponent's request.
#[utoipa::path(post, path = "/api/games/{id}/takeback", tag = "games",
    summary = "Ask to take back the seat's last turn, or accept or decline the opponent's request",
    description = "Against the AI: done at once. Casual games only, never across chance or hidden information.",
    params(("id" = String, Path, description = "The game's id")),
    request_body = SeatOpRequest,
    responses(
        (status = 200, description = "Committed", body = Committed),
        (status = 409, description = "Not possible now (the game is over, not started, …)", body = ApiError), crate::transport::responses::SeatRefusals, crate::transport::responses::BadBody))]
async fn takeback(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<SeatOpRequest>,
) -> Result<Json<Committed>, Refusal> {
    offer_op(&st, &id, req.seat, &req.token, takeback_op(req.op)).await
}

#[utoipa::path(post, path = "/api/games/{id}/draw", tag = "games",
    summary = "Offer, accept or decline a draw",
    params(("id" = String, Path, description = "The game's id")),
    request_body = SeatOpRequest,
    responses(
        (status = 200, description = "Committed", body = Committed),
        (status = 409, description = "Not possible now (the game is over, not started, …)", body = ApiError), crate::transport::responses::SeatRefusals, crate::transport::responses::BadBody))]
async fn draw(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<SeatOpRequest>,
) -> Result<Json<Committed>, Refusal> {
    offer_op(&st, &id, req.seat, &req.token, draw_op(req.op)).await
}

#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "games",
    summary = "Ask for a rematch of a finished game (seats rotate; tokens stay the same)",
    params(("id" = String, Path, description = "The game's id")),
    request_body = SeatAuth,
    responses(
        (status = 200, description = "The rematch", body = Rematched),
        (status = 409, description = "Not possible now (the game is over, not started, …)", body = ApiError), crate::transport::responses::SeatRefusals, crate::transport::responses::BadBody))]
async fn rematch(
    State(st): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<SeatAuth>,
) -> Result<Json<Rematched>, Refusal> {
    let room = st.shared.rooms.room(&id).await?;
    let (new_id, seat) = st.shared.rooms.rematch(&room, req.seat, &req.token).await?;
    Ok(Json(Rematched {
        id: new_id,
        seat,
        token: req.token,
    }))
}

#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games",
    summary = "The record of a finished or imported game",
    description = "See `docs/protocol.md`, `Records`.",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The record", body = JsonRecord),
        (status = 409, description = "The game is not over", body = ApiError), crate::transport::responses::NoSuchGame))]
async fn record(State(st): State<AppState>, ApiPath(id): ApiPath<String>) -> ApiResult {
    let room = st.shared.rooms.room(&id).await?;
    let inner = room.inner.lock().await;
    if !matches!(inner.core.status, Status::Over | Status::Imported) {
        return Err(Refusal::Conflict(
            "the record (which shows hidden actions) is available once the game is over".into(),
        ));
    }
    Ok(Json(inner.core.record()).into_response())
}

#[utoipa::path(post, path = "/api/records", tag = "games",
    summary = "Import a record as a read-only game",
    request_body = ImportRequest,
    responses(
        (status = 201, description = "Imported", body = Imported),
        (status = 400, description = "A bad record (the replay refuses it)", body = ApiError),
        (status = 413, description = "The record is too large", body = ApiError)))]
async fn import(
    State(st): State<AppState>,
    ApiJson(req): ApiJson<ImportRequest>,
) -> Result<(StatusCode, Json<Imported>), Refusal> {
    let room = st
        .shared
        .rooms
        .import(req.record, req.public.unwrap_or(false))
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(Imported {
            id: room.id.clone(),
        }),
    ))
}

/// The WebSocket upgrade. It is under the per-address request budget like the rest of the API, except
/// the upgrade of a seat with its valid token to a game in memory (one played or watched lately): a
/// player's reconnects, and a load generator's many seats, are not refused because the address
/// created games or browsed the lobby; the connection then has its own message budget.
async fn ws(
    State(st): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<ObsQuery>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    let upgrade = upgrade.map_err(|e| {
        Refusal::BadRequest(format!(
            "this endpoint is a WebSocket: connect with a WebSocket client ({})",
            e.body_text()
        ))
    })?;
    check_origin(&headers, &st.shared.limits.ws_allowed_origins)?;
    // The seat's token: best in the `tabula.token.…` subprotocol (what browsers can send besides the
    // URL) or an `Authorization: Bearer` header; `?token=` still works for older clients, but puts
    // the token where proxies log it.
    let given = q.token.clone().or_else(|| protocol_token(&headers));
    // A seat's token is checked against a game already in memory without touching the budget;
    // anything else (a spectator, a wrong token, a game to load from the database) is counted first.
    let checked = match st.shared.loaded_room(&id) {
        Some(room) if q.seat.is_some() => {
            let c = observer_of(&room, q.seat, given.clone(), &headers).await;
            Some((room, c))
        }
        _ => None,
    };
    let own_seat = matches!(&checked, Some((_, Ok((Observer::Seat(_), _)))));
    if !own_seat && !st.allow(peer.ip()) {
        return Err(too_many_requests());
    }
    let (room, (obs, rev)) = match checked {
        Some((room, c)) => (room, c?),
        None => {
            let room = st.shared.rooms.room(&id).await?;
            let c = observer_of(&room, q.seat, given.clone(), &headers).await?;
            (room, c)
        }
    };
    // Each change the socket asks for is authorised again with this token, under the game's lock.
    let token = given.or_else(|| bearer(&headers)).unwrap_or_default();
    let since = q.since.unwrap_or(0);
    let limits = st.shared.limits.clone();
    let shared = st.shared.clone();
    Ok(upgrade
        // A browser that offered subprotocols fails the connection unless one is chosen.
        .protocols([WS_PROTOCOL])
        // The reader zero-fills its free buffer space before every read: the default 128 KiB made
        // that memset a tenth of the server's CPU under load. Client messages are small (16 KiB at
        // most; a larger one is read in several chunks).
        .read_buffer_size(WS_READ_BUFFER)
        .max_message_size(limits.ws_max_message * 4)
        .max_frame_size(limits.ws_max_message * 4)
        .on_upgrade(move |socket| session(socket, shared, room, obs, token, rev, since))
        .into_response())
}

/// Refuses a browser's WebSocket upgrade from a page of another site: the `Origin` header, when there
/// is one, must be the server's own origin (the request's `Host`, over http or https) or one of
/// `allowed` (compared without case and a trailing `/`).
fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), Refusal> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("").trim().trim_end_matches('/');
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .trim();
    let own = !host.is_empty()
        && ["http://", "https://"].iter().any(|scheme| {
            origin
                .get(..scheme.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(scheme))
                && origin[scheme.len()..].eq_ignore_ascii_case(host)
        });
    let listed = allowed
        .iter()
        .any(|a| a.trim().trim_end_matches('/').eq_ignore_ascii_case(origin));
    if own || listed {
        return Ok(());
    }
    Err(Refusal::Forbidden(format!(
        "WebSocket connections from pages of `{origin}` are not allowed: only this server's own \
         pages (and the origins its operator lists with --allow-origin) may connect"
    )))
}

/// Read buffer of a WebSocket connection (bytes).
const WS_READ_BUFFER: usize = 8 * 1024;

fn error_msg(id: Option<i64>, r: &Refusal) -> String {
    SocketMsg::Error {
        id,
        code: r.code().to_string(),
        message: r.to_string(),
    }
    .to_text()
}

/// The message and close frame a socket gets when its seat's token was replaced (the seat was
/// claimed from the lobby, or its account changed its password or was deleted): nothing more for
/// that seat reaches it.
async fn revoke(sink: &mut futures_util::stream::SplitSink<WebSocket, Message>, obs: Observer) {
    let seat = match obs {
        Observer::Seat(s) => s.0,
        Observer::Spectator => return,
    };
    let r = Refusal::BadToken(format!(
        "seat {seat} has a new token (it was claimed, or its account changed its password): this \
         connection's token no longer plays it (reconnect as a spectator, or with the new token)"
    ));
    refuse_and_close(sink, &r, close_code::POLICY, "token replaced").await;
}

/// Tells a client its message was too large, then closes the connection (code 1009).
async fn refuse_too_large(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    what: String,
) {
    let r = Refusal::TooLarge(what);
    refuse_and_close(sink, &r, close_code::SIZE, "message too large").await;
}

/// Sends the refusal as an error message, then a close frame with this code and reason.
async fn refuse_and_close(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    refusal: &Refusal,
    code: u16,
    reason: &'static str,
) {
    let _ = sink
        .send(Message::Text(error_msg(None, refusal).into()))
        .await;
    let close = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = sink.send(Message::Close(Some(close))).await;
}

/// Sends a text rendered once for many sockets (the same buffer, no copy); false when the socket is
/// gone. The text is valid UTF-8 by construction (the check is one pass over its bytes).
async fn send_shared<S>(sink: &mut S, text: crate::base::text::SharedText) -> bool
where
    S: futures_util::Sink<Message> + Unpin,
{
    match axum::extract::ws::Utf8Bytes::try_from(text.into_bytes()) {
        Ok(t) => sink.send(Message::Text(t)).await.is_ok(),
        Err(e) => {
            tracing::error!(error = %e, "a rendered message is not UTF-8: not sent");
            true
        }
    }
}

/// Who a WebSocket session renders for: the game's room, the observer and the seat token's revision
/// it authenticated with, and the clock the messages' `now` is read from.
#[derive(Clone, Copy)]
struct Watcher<'a> {
    clock: &'a dyn Clock,
    room: &'a Room,
    obs: Observer,
    rev: u64,
}

/// Renders `kind` (a snapshot or an update) for `obs` under the room's lock, with the events after
/// `since` (and `request_id` when it answers a `sync`), then sends it. Returns the seq the socket is at
/// after it, or `None` when the session ends: the socket is gone, or the seat's token was replaced
/// since the socket authenticated with it (`rev`), in which case the socket is told and closed instead
/// (see [`revoke`]) and gets nothing rendered for the seat's new holder.
async fn send_rendered(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    watcher: &Watcher<'_>,
    since: u64,
    kind: MessageKind,
    request_id: Option<Option<i64>>,
) -> Option<u64> {
    let Watcher {
        clock,
        room,
        obs,
        rev,
    } = *watcher;
    let rendered = {
        let inner = room.inner.lock().await;
        // Checked under the lock: a claim that replaces the token commits under it too.
        (!room.token_revoked(obs, rev)).then(|| {
            let text = room.message_text(&inner, obs, since, kind, clock.now_ms(), request_id);
            (text, inner.core.seq)
        })
    };
    let Some((text, seq)) = rendered else {
        revoke(sink, obs).await;
        return None;
    };
    sink.send(Message::Text(text.into())).await.ok()?;
    Some(seq)
}

async fn session(
    socket: WebSocket,
    shared: Arc<App>,
    room: Arc<Room>,
    obs: Observer,
    token: String,
    rev: u64,
    since: u64,
) {
    let (mut sink, mut stream) = socket.split();
    let _watching = room.watch(obs);
    let mut rx = room.tx.subscribe();
    let mut analysis_rx = shared.analyses.subscribe(&room.id);
    let mut chat_rx = shared.chat.subscribe(&room.id);
    let watcher = Watcher {
        clock: &*shared.rooms.clock,
        room: &room,
        obs,
        rev,
    };
    let Some(mut last_seq) =
        send_rendered(&mut sink, &watcher, since, MessageKind::Snapshot, None).await
    else {
        return;
    };
    if !send_chat_history(&mut sink, &shared, &room, obs).await {
        return;
    }
    let oi = room.observer_index(obs);
    let limits = shared.limits.clone();
    let budget = RateLimiter::direct(quota(limits.ws_rate_per_sec, limits.ws_burst));
    let mut refused = 0u32;
    loop {
        tokio::select! {
            incoming = stream.next() => {
                let msg = match incoming {
                    Some(Ok(msg)) => msg,
                    Some(Err(e)) => {
                        // Over the hard size limit the reader stops before the message's payload: say why.
                        if let Some(what) = too_large(e) {
                            refuse_too_large(&mut sink, what).await;
                            linger(&mut stream).await;
                        }
                        break;
                    }
                    None => break,
                };
                let text = match msg {
                    Message::Text(t) => t.to_string(),
                    Message::Binary(b) => match String::from_utf8(b.to_vec()) {
                        Ok(t) => t,
                        Err(_) => {
                            let r = Refusal::BadRequest("messages must be UTF-8 JSON text".into());
                            if sink.send(Message::Text(error_msg(None, &r).into())).await.is_err() { break }
                            continue;
                        }
                    },
                    Message::Close(_) => break,
                    _ => continue,
                };
                if text.len() > limits.ws_max_message {
                    refuse_too_large(&mut sink, format!("message of {} bytes exceeds the limit of {} bytes", text.len(), limits.ws_max_message)).await;
                    break;
                }
                if room.token_revoked(obs, rev) {
                    revoke(&mut sink, obs).await;
                    break;
                }
                if budget.check().is_err() {
                    refused += 1;
                    let r = Refusal::RateLimited("too many messages; slow down".into());
                    if sink.send(Message::Text(error_msg(None, &r).into())).await.is_err() { break }
                    if refused >= limits.ws_max_refused {
                        let _ = sink.send(Message::Close(None)).await;
                        break;
                    }
                    continue;
                }
                let reply = handle_client(&shared, &room, obs, &token, &text).await;
                match reply {
                    Reply::Text(t) => {
                        if sink.send(Message::Text(t.into())).await.is_err() { break }
                    }
                    Reply::Snapshot(id) => {
                        match send_rendered(&mut sink, &watcher, 0, MessageKind::Snapshot, Some(id)).await {
                            Some(seq) => last_seq = seq,
                            None => break,
                        }
                        if !send_chat_history(&mut sink, &shared, &room, obs).await { break }
                    }
                }
            }
            update = rx.recv() => {
                // A replaced token is seen before the update that the seat's new holder gets.
                if room.token_revoked(obs, rev) {
                    revoke(&mut sink, obs).await;
                    break;
                }
                match update {
                    Ok(u) => {
                        if u.seq <= last_seq { continue }
                        match u.messages.get(oi) {
                            // The common case: one shared, already rendered text for every socket.
                            Some(Some(m)) if u.first == last_seq + 1 => {
                                last_seq = u.seq;
                                if !send_shared(&mut sink, m.clone()).await { break }
                            }
                            // Nobody watched as this observer when it was rendered, or this socket
                            // missed an earlier update: it renders what it lacks itself.
                            _ => match send_rendered(&mut sink, &watcher, last_seq, MessageKind::Update, None).await {
                                Some(seq) => last_seq = seq,
                                None => break,
                            },
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        match send_rendered(&mut sink, &watcher, last_seq, MessageKind::Update, None).await {
                            Some(seq) => last_seq = seq,
                            None => break,
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                }
            }
            // An analysis's progress (`crate::services::analysis`): the same text for every observer.
            Ok(text) = analysis_rx.recv() => {
                if !send_shared(&mut sink, text).await { break }
            }
            // A chat message (`crate::services::chat`), to the sockets that may read its channel.
            Ok(pushed) = chat_rx.recv() => {
                if room.token_revoked(obs, rev) {
                    revoke(&mut sink, obs).await;
                    break;
                }
                if crate::services::chat::delivers(&room, obs, &pushed).await
                    && !send_shared(&mut sink, pushed.text).await { break }
            }
        }
    }
}

/// Sends the chat's history after a snapshot, when the observer may read any message (see
/// [`crate::services::chat`]); false when the socket is gone.
async fn send_chat_history(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    shared: &App,
    room: &Room,
    obs: Observer,
) -> bool {
    match crate::services::chat::history_message(&shared.chat, room, obs).await {
        Some(text) => sink.send(Message::Text(text.into())).await.is_ok(),
        None => true,
    }
}

/// How long a connection refused for a message past the reader's hard limit stays open.
const LINGER: std::time::Duration = std::time::Duration::from_secs(1);

/// After refusing a message past the reader's hard limit: keeps the connection open for
/// [`LINGER`] before it is dropped. The client may still be writing that message; closing at once,
/// with its bytes unread in our receive buffer, makes the kernel reset the connection, and the
/// reset can reach the client before it has read the refusal and the close frame (or fail the
/// write it is still in). Meanwhile what still arrives is read and dropped as far as the reader
/// goes on (it stops at the oversized frame, whose payload it never reads), so a client whose
/// message fits the socket buffers finishes writing and reads why it was refused.
async fn linger(stream: &mut futures_util::stream::SplitStream<WebSocket>) {
    let deadline = tokio::time::Instant::now() + LINGER;
    while let Ok(Some(Ok(_))) = tokio::time::timeout_at(deadline, stream.next()).await {}
    tokio::time::sleep_until(deadline).await;
}

/// The description of a WebSocket read error that is a message over the hard size limit.
fn too_large(e: axum::Error) -> Option<String> {
    use tungstenite::error::{CapacityError, Error as WsError};
    match e.into_inner().downcast::<WsError>() {
        Ok(e) => match *e {
            WsError::Capacity(CapacityError::MessageTooLong { size, max_size }) => Some(format!(
                "message of {size} bytes or more exceeds the limit of {max_size} bytes"
            )),
            _ => None,
        },
        Err(_) => None,
    }
}

enum Reply {
    Text(String),
    Snapshot(Option<i64>),
}

async fn handle_client(
    shared: &Arc<App>,
    room: &Arc<Room>,
    obs: Observer,
    token: &str,
    text: &str,
) -> Reply {
    let msg: ClientOp = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            let id = serde_json::from_str::<Value>(text)
                .ok()
                .and_then(|v| v["id"].as_i64());
            return Reply::Text(error_msg(
                id,
                &Refusal::BadRequest(format!("bad message: {e}")),
            ));
        }
    };
    let seat = match obs {
        Observer::Seat(s) => Some(s.0),
        Observer::Spectator => None,
    };
    // A seat whose token was replaced is revoked by the session before its messages get here; a claim
    // that lands meanwhile is caught by the token check each change makes under the game's lock.
    let need_seat = |id: Option<i64>| {
        Reply::Text(error_msg(
            id,
            &Refusal::BadToken("spectators may only send sync and ping".into()),
        ))
    };
    let ack = |id: Option<i64>, r: Result<u64, Refusal>| match r {
        Ok(seq) => Reply::Text(
            SocketMsg::Ack {
                id,
                seq: Some(seq),
                rematch: None,
            }
            .to_text(),
        ),
        Err(e) => Reply::Text(error_msg(id, &e)),
    };
    match msg {
        ClientOp::Ping { id } => Reply::Text(SocketMsg::Pong { id }.to_text()),
        ClientOp::Sync { id } => Reply::Snapshot(id),
        ClientOp::Action {
            id,
            action,
            notation,
        } => {
            let Some(seat) = seat else {
                return need_seat(id);
            };
            let r = match action_input(action, notation) {
                Ok(input) => shared.rooms.act(room, seat, token, input).await,
                Err(e) => Err(e),
            };
            ack(id, r)
        }
        ClientOp::Draw { id, op } => {
            let Some(seat) = seat else {
                return need_seat(id);
            };
            ack(
                id,
                shared.rooms.seat_op(room, seat, token, draw_op(op)).await,
            )
        }
        ClientOp::Takeback { id, op } => {
            let Some(seat) = seat else {
                return need_seat(id);
            };
            ack(
                id,
                shared
                    .rooms
                    .seat_op(room, seat, token, takeback_op(op))
                    .await,
            )
        }
        ClientOp::Resign { id } => {
            let Some(seat) = seat else {
                return need_seat(id);
            };
            ack(
                id,
                shared
                    .rooms
                    .seat_op(room, seat, token, SeatOp::Resign)
                    .await,
            )
        }
        ClientOp::Rematch { id } => {
            let Some(seat) = seat else {
                return need_seat(id);
            };
            match shared.rooms.rematch(room, seat, token).await {
                Ok((game, new_seat)) => Reply::Text(
                    SocketMsg::Ack {
                        id,
                        seq: None,
                        rematch: Some(RematchAck {
                            id: game,
                            seat: new_seat,
                        }),
                    }
                    .to_text(),
                ),
                Err(e) => Reply::Text(error_msg(id, &e)),
            }
        }
    }
}
