//! The embedded web UI (`web/dist`, built by `build.rs`), served for every GET that is not an API path,
//! with a fallback to `index.html` for the single-page application's routes.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::Embed)]
#[folder = "../../web/dist/"]
struct Assets;

const PLACEHOLDER: &str = "<!doctype html><meta charset=utf-8><title>Tabula</title>\
<h1>Tabula server</h1><p>The web UI was not built into this binary (no <code>web/dist</code>). \
The API is at <a href=\"/api/openapi.json\">/api/openapi.json</a>.</p>";

/// The `Content-Type` of an embedded file, from its extension (`mime_guess`'s table), with
/// `charset=utf-8` for text (the build writes UTF-8).
fn content_type(path: &str) -> String {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let text = mime.type_() == mime_guess::mime::TEXT
        || matches!(
            mime.essence_str(),
            "application/javascript" | "application/json" | "image/svg+xml"
        );
    if text && mime.get_param(mime_guess::mime::CHARSET).is_none() {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    }
}

/// Serves `uri`'s file from the embedded UI, or `index.html`.
pub async fn serve_asset(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return crate::base::error::Refusal::NotFound(
            "no such API endpoint; see /api/openapi.json".into(),
        )
        .into_response();
    }
    if !path.is_empty()
        && let Some(file) = Assets::get(path)
    {
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return (
            [
                (header::CONTENT_TYPE, content_type(path).as_str()),
                (header::CACHE_CONTROL, cache),
            ],
            file.data.into_owned(),
        )
            .into_response();
    }
    match Assets::get("index.html") {
        Some(index) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            index.data.into_owned(),
        )
            .into_response(),
        None => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            PLACEHOLDER,
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::content_type;

    #[test]
    fn files_are_served_with_their_type_and_text_in_utf_8() {
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert!(content_type("assets/app-1a2b.js").contains("javascript; charset=utf-8"));
        assert_eq!(content_type("assets/app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("icon.svg"), "image/svg+xml; charset=utf-8");
        assert_eq!(content_type("logo.png"), "image/png");
        assert_eq!(content_type("font.woff2"), "font/woff2");
        assert_eq!(content_type("no-extension"), "application/octet-stream");
    }
}
