//! The embedded web UI (`web/dist`, built by `build.rs`), served for every GET that is not an API path,
//! with a fallback to `index.html` for the single-page application's routes.
//!
//! The web build writes a brotli (`FILE.br`) and a gzip (`FILE.gz`) copy beside each compressible file
//! (`web/scripts/precompress.ts`), and they are embedded with it: a request gets the copy its
//! `Accept-Encoding` prefers (brotli over gzip on equal weight, never a coding it gives `q=0`), with
//! `Content-Encoding` and `Vary: Accept-Encoding`, and the plain file when it accepts neither. No
//! request compresses anything. The copies are no pages of their own: `/assets/app.js.br` is an
//! unknown path, answered with `index.html` like any client route.

use std::borrow::Cow;

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
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

/// A content coding the build precompresses with, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Brotli,
    Gzip,
}

impl Coding {
    const ALL: [Coding; 2] = [Coding::Brotli, Coding::Gzip];

    /// The suffix of its copy beside the file.
    fn suffix(self) -> &'static str {
        match self {
            Coding::Brotli => ".br",
            Coding::Gzip => ".gz",
        }
    }

    /// Its name in `Accept-Encoding` and `Content-Encoding`.
    fn name(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
        }
    }
}

/// The weights an `Accept-Encoding` value gives, in thousandths: `(coding name, weight)` for each
/// well-formed element, names in lower case (`x-gzip` read as `gzip`), a missing `q` meaning 1. An
/// element whose weight is not a number from 0 to 1 is left out.
fn weights(accept: &str) -> Vec<(String, u16)> {
    accept
        .split(',')
        .filter_map(|element| {
            let mut parts = element.split(';');
            let name = parts.next()?.trim().to_ascii_lowercase();
            if name.is_empty() {
                return None;
            }
            let mut weight = 1000;
            for param in parts.filter(|p| !p.trim().is_empty()) {
                let (key, value) = param.split_once('=')?;
                if key.trim().eq_ignore_ascii_case("q") {
                    let q: f32 = value.trim().parse().ok()?;
                    if !(0.0..=1.0).contains(&q) {
                        return None;
                    }
                    weight = (q * 1000.0).round() as u16;
                }
            }
            let name = if name == "x-gzip" {
                "gzip".into()
            } else {
                name
            };
            Some((name, weight))
        })
        .collect()
}

/// The coding to answer with, among `available` (the copies the file has), for a request with this
/// `Accept-Encoding` (`None`: no such header, which asks for no coding): the one with the highest weight
/// above zero (its own entry, else `*`'s), brotli before gzip on equal weight; `None` (the plain file)
/// when none is acceptable or `identity` is explicitly weighted higher than the best of them. The plain
/// file is also the answer to a client that refuses it (`identity;q=0`) and accepts no copy: better than
/// no page.
fn negotiate(accept: Option<&str>, available: &[Coding]) -> Option<Coding> {
    let weights = weights(accept?);
    let weight = |name: &str| {
        weights
            .iter()
            .find(|(n, _)| n == name)
            .or_else(|| weights.iter().find(|(n, _)| n == "*"))
            .map(|&(_, w)| w)
    };
    // `max_by_key` keeps the last of equal maxima: go from the least preferred to the best.
    let (best, w) = available
        .iter()
        .rev()
        .filter_map(|&c| weight(c.name()).map(|w| (c, w)))
        .filter(|&(_, w)| w > 0)
        .max_by_key(|&(_, w)| w)?;
    let identity = weights
        .iter()
        .find(|(n, _)| n == "identity")
        .map(|&(_, w)| w);
    match identity {
        Some(i) if i > w => None,
        _ => Some(best),
    }
}

/// Whether `path` is a precompressed copy of another file (`FILE.br` or `FILE.gz` beside `FILE`).
fn is_copy<F>(get: &F, path: &str) -> bool
where
    F: Fn(&str) -> Option<Cow<'static, [u8]>>,
{
    Coding::ALL.iter().any(|c| {
        path.strip_suffix(c.suffix())
            .is_some_and(|original| get(original).is_some())
    })
}

/// The answer for the web path `path` (without its leading `/`) from the files `get` finds: the file,
/// or `index.html` for any other path, in the coding `accept` prefers among the copies it has.
fn respond<F>(get: F, path: &str, accept: Option<&str>) -> Response
where
    F: Fn(&str) -> Option<Cow<'static, [u8]>>,
{
    let found = (!path.is_empty() && !is_copy(&get, path))
        .then(|| get(path).map(|data| (path, data)))
        .flatten();
    let Some((file, plain)) = found.or_else(|| get("index.html").map(|d| ("index.html", d))) else {
        return (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            PLACEHOLDER,
        )
            .into_response();
    };
    let copies: Vec<(Coding, Cow<'static, [u8]>)> = Coding::ALL
        .iter()
        .filter_map(|&c| get(&format!("{file}{}", c.suffix())).map(|d| (c, d)))
        .collect();
    let available: Vec<Coding> = copies.iter().map(|(c, _)| *c).collect();
    let chosen = negotiate(accept, &available);
    let cache = if file.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut headers = HeaderMap::new();
    if let Ok(v) = HeaderValue::from_str(&content_type(file)) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if !copies.is_empty() {
        // A cache keeps one answer per coding the request asked for, the plain one included.
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    let body = match chosen.and_then(|c| copies.into_iter().find(|(k, _)| *k == c)) {
        Some((coding, data)) => {
            headers.insert(
                header::CONTENT_ENCODING,
                HeaderValue::from_static(coding.name()),
            );
            data
        }
        None => plain,
    };
    (headers, body).into_response()
}

/// Serves `uri`'s file from the embedded UI, or `index.html`, in the coding the request's
/// `Accept-Encoding` prefers.
pub async fn serve_asset(uri: Uri, request_headers: &HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return crate::base::error::Refusal::NotFound(
            "no such API endpoint; see /api/openapi.json".into(),
        )
        .into_response();
    }
    respond(
        |p| Assets::get(p).map(|f| f.data),
        path,
        accept_encoding(request_headers).as_deref(),
    )
}

/// The request's `Accept-Encoding` (several lines are one list; a line that is not text is left out),
/// or `None` without one.
fn accept_encoding(headers: &HeaderMap) -> Option<String> {
    let lines: Vec<&str> = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    (!lines.is_empty()).then(|| lines.join(","))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::io::{Read, Write};

    use super::*;

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

    #[test]
    fn the_coding_is_the_most_wanted_copy_brotli_first_never_one_at_q_0() {
        use Coding::{Brotli, Gzip};
        let both = [Brotli, Gzip];
        for (accept, want) in [
            (None, None),
            (Some(""), None),
            (Some("identity"), None),
            (Some("br"), Some(Brotli)),
            (Some("gzip"), Some(Gzip)),
            (Some("x-gzip"), Some(Gzip)),
            (Some("gzip, deflate, br, zstd"), Some(Brotli)),
            (Some("GZIP, BR"), Some(Brotli)),
            (Some("br;q=0, gzip"), Some(Gzip)),
            (Some("br; q=0.0, gzip;q=0.5"), Some(Gzip)),
            (Some("br;q=0, gzip;q=0"), None),
            (Some("gzip;q=1, br;q=0.5"), Some(Gzip)),
            (Some("gzip;q=0.5, br;q=0.5"), Some(Brotli)),
            (Some("*"), Some(Brotli)),
            (Some("br;q=0, *"), Some(Gzip)),
            (Some("*;q=0"), None),
            (Some("deflate, zstd"), None),
            (Some("br;q=0.5, identity"), None),
            (Some("br, identity;q=0"), Some(Brotli)),
            // Malformed weights leave their element out.
            (Some("br;q=2, gzip"), Some(Gzip)),
            (Some("br;q=high, gzip;q=0.1"), Some(Gzip)),
            (Some("br;q, gzip"), Some(Gzip)),
            (Some(",,; ,br"), Some(Brotli)),
            (Some("br;, gzip"), Some(Brotli)),
        ] {
            assert_eq!(
                negotiate(accept, &both),
                want,
                "Accept-Encoding: {accept:?}"
            );
        }
        // Only the copies the file has.
        assert_eq!(negotiate(Some("br, gzip"), &[Gzip]), Some(Gzip));
        assert_eq!(negotiate(Some("br"), &[Gzip]), None);
        assert_eq!(negotiate(Some("br, gzip"), &[]), None);
    }

    fn brotli(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        w.write_all(data).unwrap();
        drop(w);
        out
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        w.write_all(data).unwrap();
        w.finish().unwrap()
    }

    fn unbrotli(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        brotli::Decompressor::new(data, 4096)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    fn gunzip(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(data)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    /// A built UI as the web build writes it: a page and a script with their brotli and gzip copies,
    /// an image without, and a file of its own whose name ends in `.gz`.
    fn dist() -> HashMap<String, Vec<u8>> {
        let page = b"<!doctype html><html><head><title>Tabula</title></head><body><div id=app></div></body></html>".repeat(4);
        let script = (0..300)
            .map(|i| format!("export function f{i}(x) {{ return x * {i}; }}\n"))
            .collect::<String>()
            .into_bytes();
        let mut files = HashMap::new();
        for (name, data) in [("index.html", page), ("assets/app-1a2b.js", script)] {
            files.insert(format!("{name}.br"), brotli(&data));
            files.insert(format!("{name}.gz"), gzip(&data));
            files.insert(name.to_string(), data);
        }
        files.insert("logo.png".into(), vec![0x89, b'P', b'N', b'G', 1, 2, 3]);
        files.insert("saves/game.gz".into(), gzip(b"a saved game"));
        files
    }

    /// The answer to `GET /path` with these `Accept-Encoding` lines: status, headers, body.
    async fn get(
        files: &HashMap<String, Vec<u8>>,
        path: &str,
        accept: &[&str],
    ) -> (StatusCode, HeaderMap, Vec<u8>) {
        let mut request = HeaderMap::new();
        for a in accept {
            request.append(header::ACCEPT_ENCODING, HeaderValue::from_str(a).unwrap());
        }
        let response = respond(
            |p| files.get(p).map(|d| Cow::Owned(d.clone())),
            path.trim_start_matches('/'),
            accept_encoding(&request).as_deref(),
        );
        let status = response.status();
        let headers = response.headers().clone();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, headers, body.to_vec())
    }

    fn header(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
        headers.get(name).map(|v| v.to_str().unwrap())
    }

    #[tokio::test]
    async fn a_file_comes_in_the_accepted_coding_and_decodes_to_itself() {
        let files = dist();
        let plain = &files["assets/app-1a2b.js"];
        let cases: [(&[&str], Option<&str>); 6] = [
            (&["br"], Some("br")),
            (&["gzip"], Some("gzip")),
            (&["gzip, deflate, br, zstd"], Some("br")),
            (&["br;q=0, gzip"], Some("gzip")),
            // Two header lines are one list.
            (&["br;q=0", "gzip"], Some("gzip")),
            (&[], None),
        ];
        for (accept, coding) in cases {
            let (status, headers, body) = get(&files, "/assets/app-1a2b.js", accept).await;
            assert_eq!(status, StatusCode::OK, "{accept:?}");
            assert_eq!(
                header(&headers, header::CONTENT_ENCODING),
                coding,
                "{accept:?}"
            );
            let decoded = match coding {
                Some("br") => unbrotli(&body),
                Some("gzip") => gunzip(&body),
                _ => body.clone(),
            };
            assert_eq!(&decoded, plain, "{accept:?}");
            if coding.is_some() {
                assert!(body.len() < plain.len(), "{accept:?}: not smaller");
            }
            assert_eq!(
                header(&headers, header::VARY),
                Some("accept-encoding"),
                "{accept:?}"
            );
            assert_eq!(
                header(&headers, header::CONTENT_TYPE),
                Some(content_type("a.js").as_str()),
                "{accept:?}"
            );
            assert_eq!(
                header(&headers, header::CACHE_CONTROL),
                Some("public, max-age=31536000, immutable"),
                "{accept:?}"
            );
        }
    }

    #[tokio::test]
    async fn the_index_page_is_compressed_too_for_itself_and_client_routes() {
        let files = dist();
        for path in ["/", "/index.html", "/join/some/route", "/assets/missing.js"] {
            let (status, headers, body) = get(&files, path, &["gzip, br"]).await;
            assert_eq!(status, StatusCode::OK, "{path}");
            assert_eq!(
                header(&headers, header::CONTENT_ENCODING),
                Some("br"),
                "{path}"
            );
            assert_eq!(unbrotli(&body), files["index.html"], "{path}");
            assert_eq!(
                header(&headers, header::CONTENT_TYPE),
                Some("text/html; charset=utf-8"),
                "{path}"
            );
            assert_eq!(header(&headers, header::CACHE_CONTROL), Some("no-cache"));
            assert_eq!(header(&headers, header::VARY), Some("accept-encoding"));
            let (_, headers, body) = get(&files, path, &["identity"]).await;
            assert_eq!(header(&headers, header::CONTENT_ENCODING), None, "{path}");
            assert_eq!(body, files["index.html"], "{path}");
        }
    }

    #[tokio::test]
    async fn the_copies_are_not_pages_of_their_own() {
        let files = dist();
        for path in [
            "/assets/app-1a2b.js.br",
            "/assets/app-1a2b.js.gz",
            "/index.html.gz",
        ] {
            for accept in [&[][..], &["br"][..]] {
                let (status, headers, body) = get(&files, path, accept).await;
                assert_eq!(status, StatusCode::OK, "{path}");
                assert_eq!(
                    header(&headers, header::CONTENT_TYPE),
                    Some("text/html; charset=utf-8"),
                    "{path} is served as a file"
                );
                let page = match header(&headers, header::CONTENT_ENCODING) {
                    Some("br") => unbrotli(&body),
                    _ => body,
                };
                assert_eq!(page, files["index.html"], "{path}");
            }
        }
        // A file whose name ends in .gz without a file beside it is a file like any other.
        let (_, headers, body) = get(&files, "/saves/game.gz", &["gzip"]).await;
        assert_eq!(body, files["saves/game.gz"]);
        assert_eq!(header(&headers, header::CONTENT_ENCODING), None);
        assert_eq!(
            header(&headers, header::CONTENT_TYPE),
            Some("application/gzip")
        );
    }

    #[tokio::test]
    async fn a_file_without_copies_is_sent_as_it_is_without_vary() {
        let files = dist();
        let (status, headers, body) = get(&files, "/logo.png", &["br, gzip"]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(body, files["logo.png"]);
        assert_eq!(header(&headers, header::CONTENT_ENCODING), None);
        assert_eq!(header(&headers, header::VARY), None);
        assert_eq!(header(&headers, header::CONTENT_TYPE), Some("image/png"));
    }

    #[tokio::test]
    async fn without_a_built_ui_the_placeholder_page_is_served() {
        let empty = HashMap::new();
        let (status, headers, body) = get(&empty, "/", &["br"]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(header(&headers, header::CONTENT_ENCODING), None);
        assert_eq!(body, PLACEHOLDER.as_bytes());
    }

    /// The build's own copies (`web/scripts/precompress.ts`), as embedded in this binary: each one
    /// decodes to its file, and the page and its scripts and styles have both.
    #[test]
    fn the_embedded_copies_decode_to_their_files() {
        let names: Vec<String> = Assets::iter().map(|n| n.into_owned()).collect();
        let data = |n: &str| Assets::get(n).map(|f| f.data.into_owned());
        for name in &names {
            let Some(plain) = data(name) else { continue };
            // A text file of some size always compresses.
            let text =
                [".html", ".js", ".css"].iter().any(|e| name.ends_with(e)) && plain.len() >= 200;
            for coding in Coding::ALL {
                let copy = data(&format!("{name}{}", coding.suffix()));
                if text {
                    assert!(
                        copy.is_some(),
                        "web/dist/{name} has no {} copy: rebuild the web UI (npm run build)",
                        coding.name()
                    );
                }
                if let Some(copy) = copy {
                    let decoded = match coding {
                        Coding::Brotli => unbrotli(&copy),
                        Coding::Gzip => gunzip(&copy),
                    };
                    assert!(
                        decoded == plain,
                        "web/dist/{name}: its {coding:?} copy differs"
                    );
                }
            }
        }
    }
}
