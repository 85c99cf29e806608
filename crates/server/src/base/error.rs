//! The error every refusal is answered with: a stable code (see `docs/protocol.md`) and an HTTP status,
//! whichever transport carries it.

use tabula_core::ActionError;

/// Why the server refused a request. Each has a stable code (see `docs/protocol.md`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    BadToken(String),
    /// Refused whoever asks (a WebSocket from another site's page).
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    NotStarted(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Action(ActionError),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    RateLimited(String),
    #[error("{0}")]
    Internal(String),
    /// Storage is unavailable (a full disk, a lost database): nothing was changed; try again later.
    #[error("{0}")]
    Unavailable(String),
    /// An account name that is not allowed (length, characters).
    #[error("{0}")]
    InvalidName(String),
    /// A password too short, equal to the name, or over-long.
    #[error("{0}")]
    BadPassword(String),
    /// The account name is someone else's.
    #[error("the name “{0}” is taken (names are unique without regard to case)")]
    NameTaken(String),
    /// The same for an unknown name and a wrong password.
    #[error("wrong name or password")]
    WrongCredentials,
    /// Sign-in attempts spent (by whom, and the seconds to wait; answered with `Retry-After`).
    #[error("too many sign-in attempts {0}; wait {1} s and try again")]
    TooManyAttempts(&'static str, u64),
    /// The request needs a session and has none.
    #[error("sign in first (no valid session cookie)")]
    NotSignedIn,
    /// A session cookie without its CSRF token.
    #[error(
        "this request is made with a session cookie but without its CSRF token: repeat the token \
         of GET /api/session in the X-CSRF-Token header"
    )]
    Csrf,
}

impl Refusal {
    /// The protocol's error code.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::BadRequest(_) => "bad_request",
            Refusal::BadToken(_) => "bad_token",
            Refusal::Forbidden(_) => "forbidden",
            Refusal::NotFound(_) => "not_found",
            Refusal::NotStarted(_) => "not_started",
            Refusal::Conflict(_) => "conflict",
            Refusal::Action(ActionError::GameOver) => "game_over",
            Refusal::Action(ActionError::NotYourTurn(_)) => "not_your_turn",
            Refusal::Action(ActionError::Illegal(_)) => "illegal",
            Refusal::Action(ActionError::Malformed(_)) => "malformed_action",
            Refusal::MethodNotAllowed(_) => "method_not_allowed",
            Refusal::TooLarge(_) => "too_large",
            Refusal::RateLimited(_) => "rate_limited",
            Refusal::Internal(_) => "internal",
            Refusal::Unavailable(_) => "unavailable",
            Refusal::InvalidName(_) => "invalid_name",
            Refusal::BadPassword(_) => "weak_password",
            Refusal::NameTaken(_) => "name_taken",
            Refusal::WrongCredentials => "wrong_credentials",
            Refusal::TooManyAttempts(..) => "too_many_attempts",
            Refusal::NotSignedIn => "not_signed_in",
            Refusal::Csrf => "csrf",
        }
    }
    /// The HTTP status of this refusal.
    pub fn http_status(&self) -> u16 {
        match self {
            Refusal::BadRequest(_) | Refusal::InvalidName(_) | Refusal::BadPassword(_) => 400,
            Refusal::WrongCredentials | Refusal::NotSignedIn => 401,
            Refusal::BadToken(_) | Refusal::Forbidden(_) | Refusal::Csrf => 403,
            Refusal::NotFound(_) => 404,
            Refusal::NotStarted(_) | Refusal::Conflict(_) | Refusal::NameTaken(_) => 409,
            Refusal::Action(ActionError::GameOver | ActionError::NotYourTurn(_)) => 409,
            Refusal::Action(_) => 422,
            Refusal::MethodNotAllowed(_) => 405,
            Refusal::TooLarge(_) => 413,
            Refusal::RateLimited(_) | Refusal::TooManyAttempts(..) => 429,
            Refusal::Internal(_) => 500,
            Refusal::Unavailable(_) => 503,
        }
    }
}
