//! The server's limits: every size, rate and time budget an operator can set, in one place (the
//! services read their own part).

use std::time::Duration;

/// Size and rate limits.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest WebSocket message accepted (bytes).
    pub ws_max_message: usize,
    /// Largest HTTP body accepted (bytes), except record imports.
    pub http_max_body: usize,
    /// Largest record import (bytes).
    pub import_max_body: usize,
    /// Messages per second a WebSocket connection may send on average.
    pub ws_rate_per_sec: f64,
    /// Burst allowance of a WebSocket connection.
    pub ws_burst: f64,
    /// Refused (rate-limited) messages after which a connection is closed.
    pub ws_max_refused: u32,
    /// HTTP API requests per second per client IP on average (`/api/…`; a seat's own WebSocket
    /// upgrade with its valid token is not counted).
    pub http_rate_per_sec: f64,
    /// Burst allowance per client IP.
    pub http_burst: f64,
    /// Threads that run AI seats at once.
    pub ai_workers: usize,
    /// The highest AI level (levels are `1..=ai_max_level`; the AI crate's scale).
    pub ai_max_level: u8,
    /// Origins (`https://example.org`) whose pages may open WebSockets, besides the server's own
    /// (the scheme and `Host` of the request). A browser's upgrade from any other origin is refused
    /// (`403`), so another site cannot play with a visitor's stored tokens; clients that send no
    /// `Origin` (not browsers) are not affected.
    pub ws_allowed_origins: Vec<String>,
    /// Whether games with no human seat (AI against AI) may be created. Off on a public server: such
    /// a game costs AI time that no player waits for.
    pub allow_ai_only_games: bool,
    /// Non-move events (draw and takeback offers, acceptances and declines) a seat may send in a burst.
    pub seat_events_burst: u32,
    /// How often a seat's budget of non-move events gains one back.
    pub seat_events_period: Duration,
    /// Time a client has to send a request's headers (also the longest wait for the next request
    /// on a kept-alive connection).
    pub header_read_timeout: Duration,
    /// A connection (HTTP or WebSocket) on which no byte moved either way for this long is closed.
    pub idle_timeout: Duration,
    /// Open connections (HTTP and WebSocket) per client address; more are closed at once.
    pub max_connections_per_ip: usize,
    /// A game nobody holds (no socket, AI move or request) that has not changed for this
    /// long leaves memory; it is loaded from the log again when asked for.
    pub room_idle: Duration,
    /// A waiting game whose seats have not all joined this long after its last event expires (ends
    /// with no winner).
    pub waiting_expiry: Duration,
    /// Sign-in attempts allowed per account name and per client address.
    pub login: LoginLimits,
    /// Session cookies are marked `Secure` (the server is reached over TLS, e.g. behind a proxy).
    pub secure_cookies: bool,
    /// Reverse proxies (their addresses) whose `X-Forwarded-For` names the client: requests through
    /// them are rate-limited per player, not per proxy, and their connections are not capped
    /// ([`crate::transport::net`]).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// In-game chat: message length, senders' rates, messages per game ([`crate::services::chat`]).
    pub chat: ChatLimits,
    /// The longest an HTTP request may take, from its headers to its answer, its body included: a
    /// client sending a body slowly (or not at all) gets `408 request_timeout` and the connection is
    /// closed. WebSocket sessions are not bounded by it (only their upgrade is).
    pub request_deadline: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            ws_max_message: 16 * 1024,
            http_max_body: 64 * 1024,
            import_max_body: 4 * 1024 * 1024,
            ws_rate_per_sec: 20.0,
            ws_burst: 40.0,
            ws_max_refused: 100,
            http_rate_per_sec: 50.0,
            http_burst: 200.0,
            ai_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            ai_max_level: 5,
            ws_allowed_origins: Vec::new(),
            allow_ai_only_games: false,
            seat_events_burst: 10,
            seat_events_period: Duration::from_secs(30),
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(120),
            max_connections_per_ip: 256,
            room_idle: Duration::from_secs(300),
            waiting_expiry: Duration::from_secs(7 * 86_400),
            login: LoginLimits::default(),
            secure_cookies: false,
            trusted_proxies: Vec::new(),
            chat: ChatLimits::default(),
            request_deadline: Duration::from_secs(30),
        }
    }
}

/// Sign-in rate limits.
#[derive(Debug, Clone, Copy)]
pub struct LoginLimits {
    /// Attempts for one name from one address in a burst, then one per `name_period`.
    pub name_burst: u32,
    pub name_period: Duration,
    /// Failed attempts for one name from all addresses in a burst, then one per
    /// `name_failures_period`; once they are spent the name is locked for the addresses that
    /// failed on it (not for the others).
    pub name_failures_burst: u32,
    pub name_failures_period: Duration,
    /// Attempts from one address in a burst, then one per `address_period`.
    pub address_burst: u32,
    pub address_period: Duration,
}

impl Default for LoginLimits {
    fn default() -> LoginLimits {
        LoginLimits {
            name_burst: 5,
            name_period: Duration::from_secs(60),
            name_failures_burst: 20,
            name_failures_period: Duration::from_secs(60),
            address_burst: 20,
            address_period: Duration::from_secs(10),
        }
    }
}

/// The chat's limits.
#[derive(Debug, Clone, Copy)]
pub struct ChatLimits {
    /// The longest message, in characters (Unicode scalar values) after trimming.
    pub max_chars: usize,
    /// Messages a sender may send in a row in one game…
    pub burst: u32,
    /// …then one more per this period.
    pub period: Duration,
    /// Messages one channel of a game takes in a row from all its senders together…
    pub channel_burst: u32,
    /// …then one more per this period.
    pub channel_period: Duration,
    /// The most messages one channel of a game keeps: storing one more deletes the oldest.
    pub max_per_channel: u32,
    /// Messages of each channel in a history (the latest ones).
    pub history: u32,
}

impl Default for ChatLimits {
    fn default() -> ChatLimits {
        ChatLimits {
            max_chars: 200,
            burst: 5,
            period: Duration::from_secs(3),
            channel_burst: 20,
            channel_period: Duration::from_secs(1),
            max_per_channel: 500,
            history: 100,
        }
    }
}
