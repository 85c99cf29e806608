//! Optional player accounts: sign-up, sign-in sessions, password changes, deletion,
//! and the queries behind profiles, leaderboards, "my games" and the lobby's player names.
//!
//! * **Names**: 3–20 characters of ASCII letters, digits, `-` and `_`, unique without regard to case.
//! * **Passwords**: 8–128 characters, not the name itself; stored only as an Argon2id PHC string
//!   (the `argon2` crate's defaults: 19 MiB, 2 passes), hashed and checked on blocking threads.
//!   Neither a password nor a hash is ever logged or sent.
//! * **Sessions**: a random 256-bit secret in the `tabula_session` cookie (`HttpOnly`,
//!   `SameSite=Lax`, `Path=/`, 30 days; `Secure` when the server is told it is behind TLS); only its
//!   SHA-256 is stored. Each session has a CSRF token, given when signing in and by
//!   `GET /api/session`: every state-changing request the cookie authorises must repeat it in the
//!   `X-CSRF-Token` header, or it is refused (`403 csrf`) and changes nothing.
//! * **Sign-in attempts** are rate-limited per client address and per (name, address) (`governor`);
//!   failures are also counted per name across addresses. Once a name's failures are spent, the name
//!   is locked only for the addresses that failed on it: an address that has not failed on it may
//!   still sign in with the right password (a wrong one makes it one of the failed), so nobody can
//!   lock a player out by guessing from elsewhere. On a cluster the failures are also stored in
//!   `sign_in_failures`, so that the (name, address) budget and a name's lock hold across nodes. An
//!   unknown name and a wrong password get the same answer, after the same work (a dummy hash is
//!   checked).
//! * **Seat tokens**: a password change and an account's deletion replace the token of every seat
//!   the account holds (a `token_replaced` event in each game's log; sockets with an old token are
//!   closed with `bad_token`): a token read through a stolen session plays no more. After a password
//!   change `GET /api/me/games` lists the new tokens; after a deletion nobody knows them.
//! * **Deleting** an account removes it, its sessions (they stop working at once), its ratings,
//!   rating history and seat bindings; the games keep their logs.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::base::error::Refusal;
use crate::base::secret::hash_token;
use crate::base::secret::new_token;
use crate::base::secret::same_secret;
use crate::base::time::now_ms;
pub use crate::domain::account::Account;
use crate::services::limits::LoginLimits;
pub use crate::storage::accounts::{LEADERBOARD_MAX_RD, LEADERBOARD_SIZE, SeatRow};
use crate::storage::db::Db;
use crate::wire::api::{LeaderboardRow, Opponent, Profile};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "tabula_session";
/// The header that must repeat the session's CSRF token.
pub const CSRF_HEADER: &str = "x-csrf-token";
/// How long a session lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(30 * 86_400);
/// Shortest and longest password (characters).
pub const PASSWORD_CHARS: (usize, usize) = (8, 128);
/// Shortest and longest name (characters).
pub const NAME_CHARS: (usize, usize) = (3, 20);

/// Checks a user name: 3–20 of `[A-Za-z0-9_-]`.
pub fn check_name(name: &str) -> Result<(), Refusal> {
    let n = name.chars().count();
    if !(NAME_CHARS.0..=NAME_CHARS.1).contains(&n)
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(Refusal::InvalidName(format!(
            "a name has {}–{} characters, each a letter (A–Z, a–z), a digit, “-” or “_”",
            NAME_CHARS.0, NAME_CHARS.1
        )));
    }
    Ok(())
}

/// Checks a new password: 8–128 characters, not the name.
pub fn check_password(name: &str, password: &str) -> Result<(), Refusal> {
    let n = password.chars().count();
    if n < PASSWORD_CHARS.0 {
        return Err(Refusal::BadPassword(format!(
            "the password is too weak: use at least {} characters",
            PASSWORD_CHARS.0
        )));
    }
    if n > PASSWORD_CHARS.1 {
        return Err(Refusal::BadPassword(format!(
            "the password is too long: at most {} characters",
            PASSWORD_CHARS.1
        )));
    }
    if password.eq_ignore_ascii_case(name) {
        return Err(Refusal::BadPassword(
            "the password is too weak: it must not be the name".into(),
        ));
    }
    Ok(())
}

/// The Argon2id PHC string of `password` (a fresh random salt), computed on a blocking thread.
async fn hash_password(password: String) -> Result<String, Refusal> {
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
    })
    .await
    .map_err(|e| Refusal::Internal(format!("hashing failed: {e}")))?
    .map_err(|e| Refusal::Internal(format!("hashing failed: {e}")))
}

/// Whether `password` matches the PHC string `hash` (on a blocking thread).
async fn verify_password(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false)
}

/// A hash no password matches, checked for unknown names so that they take as long as known ones.
async fn dummy_hash() -> String {
    static DUMMY: OnceLock<String> = OnceLock::new();
    if let Some(h) = DUMMY.get() {
        return h.clone();
    }
    let h = hash_password(new_token()).await.unwrap_or_default();
    DUMMY.get_or_init(|| h).clone()
}

/// A valid session.
#[derive(Debug, Clone)]
pub struct Session {
    pub account: Account,
    pub csrf: String,
    token_hash: String,
}

/// What is known of one name's failed sign-ins: until when it is locked (its failures spent), and
/// the addresses that failed on it lately.
#[derive(Debug, Default)]
struct NameFailures {
    locked_until: Option<Instant>,
    failed_from: HashMap<IpAddr, Instant>,
}

/// How long an address that failed on a name is remembered as such.
fn failure_memory(limits: &LoginLimits) -> Duration {
    let by_name = limits
        .name_failures_period
        .saturating_mul(limits.name_failures_burst.max(1));
    let by_pair = limits.name_period.saturating_mul(limits.name_burst.max(1));
    by_name.max(by_pair)
}

fn keyed_quota(burst: u32, period: Duration) -> Quota {
    let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(period.max(Duration::from_millis(1)))
        .unwrap_or_else(|| Quota::per_second(burst))
        .allow_burst(burst)
}

/// The accounts service.
pub struct Accounts {
    db: Db,
    /// Every attempt, per (name, address).
    by_name_address: DefaultKeyedRateLimiter<(String, IpAddr)>,
    /// Failed attempts, per name (all addresses).
    name_failures: DefaultKeyedRateLimiter<String>,
    /// Every attempt (and sign-up), per address.
    by_address: DefaultKeyedRateLimiter<IpAddr>,
    /// Names with failures: their lock and the addresses that failed.
    failures: Mutex<HashMap<String, NameFailures>>,
    failure_memory: Duration,
    limits: LoginLimits,
}

/// What a request shows of its session, as the transport read it: the session cookie's token and
/// the CSRF token it repeats (in the `X-CSRF-Token` header).
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    pub session: Option<String>,
    pub csrf: Option<String>,
}

impl Accounts {
    pub fn new(db: Db, limits: LoginLimits) -> Accounts {
        Accounts {
            db,
            by_name_address: RateLimiter::keyed(keyed_quota(limits.name_burst, limits.name_period)),
            name_failures: RateLimiter::keyed(keyed_quota(
                limits.name_failures_burst,
                limits.name_failures_period,
            )),
            by_address: RateLimiter::keyed(keyed_quota(
                limits.address_burst,
                limits.address_period,
            )),
            failures: Mutex::new(HashMap::new()),
            failure_memory: failure_memory(&limits),
            limits,
        }
    }

    /// Forgets the names and addresses whose sign-in budget has refilled.
    pub fn tidy(&self) {
        self.by_name_address.retain_recent();
        self.by_name_address.shrink_to_fit();
        self.name_failures.retain_recent();
        self.name_failures.shrink_to_fit();
        self.by_address.retain_recent();
        self.by_address.shrink_to_fit();
        let now = Instant::now();
        let memory = self.failure_memory;
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.retain(|_, f| {
            f.failed_from
                .retain(|_, at| now.saturating_duration_since(*at) < memory);
            f.locked_until.is_some_and(|t| t > now) || !f.failed_from.is_empty()
        });
        failures.shrink_to_fit();
    }

    /// How long `name_key` stays locked for `from`: `Some` while the name's failures are spent and
    /// `from` is one of the addresses that failed on it.
    fn locked_for(&self, name_key: &str, from: IpAddr) -> Option<Duration> {
        let now = Instant::now();
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let f = failures.get(name_key)?;
        let until = f.locked_until.filter(|t| *t > now)?;
        let failed = f
            .failed_from
            .get(&from)
            .is_some_and(|at| now.saturating_duration_since(*at) < self.failure_memory);
        failed.then(|| until.saturating_duration_since(now))
    }

    /// Counts a failed sign-in on `name_key` from `from`; locks the name (for the addresses that
    /// failed on it) once its failures are spent.
    fn record_failure(&self, name_key: &str, from: IpAddr) {
        let now = Instant::now();
        let spent = self
            .name_failures
            .check_key(&name_key.to_string())
            .err()
            .map(|not_until| {
                not_until.wait_time_from(governor::clock::Clock::now(
                    &governor::clock::DefaultClock::default(),
                ))
            });
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let f = failures.entry(name_key.to_string()).or_default();
        f.failed_from.insert(from, now);
        if let Some(wait) = spent {
            // Locked until one more failure would be allowed again.
            let until = now + wait.max(Duration::from_millis(1));
            f.locked_until = Some(f.locked_until.map_or(until, |t| t.max(until)));
        }
    }

    /// Creates an account.
    pub async fn sign_up(&self, name: &str, password: &str) -> Result<Account, Refusal> {
        check_name(name)?;
        check_password(name, password)?;
        let key = name.to_ascii_lowercase();
        let hash = hash_password(password.to_string()).await?;
        let id = uuid::Uuid::new_v4().to_string();
        if !self
            .db
            .insert_account(&id, name, &key, &hash, now_ms())
            .await?
        {
            return Err(Refusal::NameTaken(name.to_string()));
        }
        Ok(Account {
            id,
            name: name.to_string(),
        })
    }

    /// Spends one attempt of the address's sign-in budget (a sign-up, which hashes a password).
    pub fn spend_address_attempt(&self, from: IpAddr) -> Result<(), Refusal> {
        self.by_address.check_key(&from).map_err(|not_until| {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ));
            Refusal::TooManyAttempts("from this address", wait.as_secs() + 1)
        })
    }

    /// Checks a name and password, under the sign-in rate limits of the name and the address.
    pub async fn check_credentials(
        &self,
        name: &str,
        password: &str,
        from: IpAddr,
    ) -> Result<Account, Refusal> {
        self.spend_address_attempt(from)?;
        let key = name.to_ascii_lowercase();
        if let Err(not_until) = self.by_name_address.check_key(&(key.clone(), from)) {
            let wait = not_until.wait_time_from(governor::clock::Clock::now(
                &governor::clock::DefaultClock::default(),
            ));
            return Err(Refusal::TooManyAttempts(
                "for this name from this address",
                wait.as_secs() + 1,
            ));
        }
        if let Some(wait) = self.locked_for(&key, from) {
            return Err(Refusal::TooManyAttempts(
                "for this name",
                wait.as_secs() + 1,
            ));
        }
        self.check_shared_failures(&key, from).await?;
        let found = if check_name(name).is_ok() && password.chars().count() <= PASSWORD_CHARS.1 {
            self.db.find_account(name).await?
        } else {
            None
        };
        let verified = match found {
            Some((account, hash)) => verify_password(password.to_string(), hash)
                .await
                .then_some(account),
            None => {
                // The same work as for a known name.
                let _ = verify_password(password.to_string(), dummy_hash().await).await;
                None
            }
        };
        match verified {
            Some(account) => Ok(account),
            None => {
                self.record_failure(&key, from);
                self.record_shared_failure(&key, from).await;
                Err(Refusal::WrongCredentials)
            }
        }
    }

    /// On a cluster node: refuses a sign-in that the failures of every node (`sign_in_failures`)
    /// forbid — the (name, address) budget, and the name's lock for the addresses that failed on it
    /// — so that N nodes do not give N times those budgets. A single server counts in memory only.
    async fn check_shared_failures(&self, key: &str, from: IpAddr) -> Result<(), Refusal> {
        let now = now_ms();
        let memory = i64::try_from(self.failure_memory.as_millis()).unwrap_or(i64::MAX);
        let Some((pair, name, oldest)) = self
            .db
            .shared_failures(key, &from.to_string(), now.saturating_sub(memory))
            .await?
        else {
            return Ok(());
        };
        let wait = |since: i64| {
            u64::try_from((since.saturating_add(memory) - now).max(0) / 1000).unwrap_or(0) + 1
        };
        if pair >= i64::from(self.limits.name_burst) {
            return Err(Refusal::TooManyAttempts(
                "for this name from this address",
                wait(oldest.unwrap_or(now)),
            ));
        }
        if pair > 0 && name > i64::from(self.limits.name_failures_burst) {
            return Err(Refusal::TooManyAttempts("for this name", wait(now)));
        }
        Ok(())
    }

    /// On a cluster node: stores a failed sign-in for every node to count, and forgets those past
    /// the failure memory. A storage error loses the record only (the sign-in failed anyway).
    async fn record_shared_failure(&self, key: &str, from: IpAddr) {
        let now = now_ms();
        let memory = i64::try_from(self.failure_memory.as_millis()).unwrap_or(i64::MAX);
        let stored = self
            .db
            .record_sign_in_failure(key, &from.to_string(), now, now.saturating_sub(memory))
            .await;
        if let Err(e) = stored {
            tracing::warn!(error = %e, "cannot store a failed sign-in for the other nodes");
        }
    }

    /// Opens a session for `account`: its cookie secret and CSRF token.
    pub async fn open_session(&self, account: &Account) -> Result<(String, String), Refusal> {
        let token = new_token();
        let csrf = new_token();
        let now = now_ms();
        let expires = now + SESSION_TTL.as_millis() as i64;
        self.db
            .insert_session(&hash_token(&token), &account.id, &csrf, now, expires)
            .await?;
        Ok((token, csrf))
    }

    /// The session of a request's cookie, if it is valid (an unknown, expired or deleted
    /// account's session is none).
    pub async fn session(&self, creds: &Credentials) -> Result<Option<Session>, Refusal> {
        let Some(token) = creds.session.as_deref().filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        let token_hash = hash_token(token);
        let found = self.db.session_of(&token_hash, now_ms()).await?;
        Ok(found.map(|(account, csrf)| Session {
            account,
            csrf,
            token_hash,
        }))
    }

    /// The session that authorises a state-changing request: `None` without a valid session cookie;
    /// refused (`csrf`) when the request has one but does not repeat its CSRF token.
    pub async fn acting(&self, creds: &Credentials) -> Result<Option<Session>, Refusal> {
        let Some(session) = self.session(creds).await? else {
            return Ok(None);
        };
        let given = creds.csrf.as_deref().unwrap_or("");
        if !same_secret(given, &session.csrf) {
            return Err(Refusal::Csrf);
        }
        Ok(Some(session))
    }

    /// [`Accounts::acting`] that requires a session.
    pub async fn signed_in(&self, creds: &Credentials) -> Result<Session, Refusal> {
        self.acting(creds).await?.ok_or(Refusal::NotSignedIn)
    }

    /// Ends a session.
    pub async fn close_session(&self, session: &Session) -> Result<(), Refusal> {
        self.db.delete_session(&session.token_hash).await
    }

    /// Checks a password change (the current password is asked again; the new one must be strong):
    /// returns the new password's hash, for [`Accounts::store_password`]. Changes nothing.
    pub async fn check_password_change(
        &self,
        session: &Session,
        current: &str,
        new: &str,
        from: IpAddr,
    ) -> Result<String, Refusal> {
        self.check_credentials(&session.account.name, current, from)
            .await?;
        check_password(&session.account.name, new)?;
        hash_password(new.to_string()).await
    }

    /// Stores a new password hash (from [`Accounts::check_password_change`]) and ends the account's
    /// other sessions.
    pub async fn store_password(&self, session: &Session, hash: &str) -> Result<(), Refusal> {
        self.db
            .store_password_hash(&session.account.id, hash, &session.token_hash)
            .await
    }

    /// Deletes the account (its password checked first with [`Accounts::check_credentials`]): its
    /// sessions, ratings, history and seat bindings go with it.
    pub async fn delete(&self, session: &Session) -> Result<(), Refusal> {
        self.db.delete_account(&session.account.id).await
    }

    /// An account's seats, newest games first.
    pub async fn my_seats(&self, account_id: &str) -> Result<Vec<SeatRow>, Refusal> {
        self.db.my_seats(account_id).await
    }

    /// The public profile of `name` (any case); `None` for no such account (or a name no account
    /// can have).
    pub async fn profile(&self, name: &str) -> Result<Option<Profile>, Refusal> {
        if check_name(name).is_err() {
            return Ok(None);
        }
        self.db.profile(name).await
    }

    /// The leaderboard of game kind `game`: the best [`LEADERBOARD_SIZE`] ratings, those whose
    /// deviation is under [`LEADERBOARD_MAX_RD`] first, then the provisional ones (marked so).
    pub async fn leaderboard(&self, game: &str) -> Result<Vec<LeaderboardRow>, Refusal> {
        self.db.leaderboard(game).await
    }

    /// For each of an account's seats (`(game id, seat)`), the game's other seats and who plays
    /// them (an account with its rating at the time, the AI, or an anonymous player).
    pub async fn opponents(&self, seats: &[(String, u8)]) -> Result<Vec<Vec<Opponent>>, Refusal> {
        self.db.opponents(seats).await
    }

    /// Binds an anonymous seat (its token already checked) to the signed-in account.
    pub async fn claim(
        &self,
        game_id: &str,
        seat: u8,
        account_id: &str,
        token: &str,
    ) -> Result<(), Refusal> {
        self.db.claim(game_id, seat, account_id, token).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_3_to_20_letters_digits_dashes_underscores() {
        for ok in ["abc", "A_b-9", "x".repeat(20).as_str()] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "ab",
            "",
            "a b c",
            "émile",
            "x".repeat(21).as_str(),
            "a.bc",
            "ab/c",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn passwords_are_8_to_128_characters_and_not_the_name() {
        assert!(check_password("alice", "correct horse").is_ok());
        assert!(check_password("alice", "short").is_err());
        assert!(check_password("alice", &"x".repeat(129)).is_err());
        assert!(check_password("alice123", "ALICE123").is_err());
    }
}
