//! The session cookie and the CSRF header: read from a request into [`Credentials`], written into
//! `Set-Cookie` values (with the `cookie` crate: parsing every cookie header a client sends, and
//! writing the attributes, is its job).

use axum::http::{HeaderMap, header};
use cookie::{Cookie, SameSite};

use crate::services::accounts::{CSRF_HEADER, Credentials, SESSION_COOKIE, SESSION_TTL};

/// The session token of a request's cookie and the CSRF token of its header.
pub fn credentials(headers: &HeaderMap) -> Credentials {
    let session = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == SESSION_COOKIE)
        .map(|c| c.value().to_string());
    let csrf = headers
        .get(CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    Credentials { session, csrf }
}

/// The `Set-Cookie` value that holds a session (`Secure` when the server is behind TLS).
pub fn session_cookie(token: &str, secure: bool) -> String {
    let max_age = i64::try_from(SESSION_TTL.as_secs()).unwrap_or(i64::MAX);
    Cookie::build((SESSION_COOKIE, token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .max_age(cookie::time::Duration::seconds(max_age))
        .secure(secure)
        .build()
        .to_string()
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(secure: bool) -> String {
    Cookie::build((SESSION_COOKIE, ""))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .max_age(cookie::time::Duration::ZERO)
        .secure(secure)
        .build()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; tabula_session=abc; b=2"),
        );
        assert_eq!(credentials(&h).session.as_deref(), Some("abc"));
        let mut h = HeaderMap::new();
        h.append(header::COOKIE, HeaderValue::from_static("x=1"));
        h.append(
            header::COOKIE,
            HeaderValue::from_static("tabula_session=def"),
        );
        h.append(CSRF_HEADER, HeaderValue::from_static("c"));
        let creds = credentials(&h);
        assert_eq!(creds.session.as_deref(), Some("def"));
        assert_eq!(creds.csrf.as_deref(), Some("c"));
        assert_eq!(credentials(&HeaderMap::new()).session, None);
    }

    #[test]
    fn the_session_cookie_is_http_only_lax_and_secure_behind_tls() {
        let plain = session_cookie("abc", false);
        for attr in [
            "tabula_session=abc",
            "HttpOnly",
            "SameSite=Lax",
            "Path=/",
            "Max-Age=2592000",
        ] {
            assert!(plain.contains(attr), "{plain}");
        }
        assert!(!plain.contains("Secure"), "{plain}");
        assert!(session_cookie("abc", true).contains("Secure"));
        let gone = clear_cookie(false);
        assert!(
            gone.contains("Max-Age=0") && gone.contains("tabula_session="),
            "{gone}"
        );
    }
}
