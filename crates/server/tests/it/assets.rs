//! The web UI over real HTTP: the home page and its script come in the coding the
//! request's `Accept-Encoding` prefers — the build's brotli or gzip copy, decoding to the plain file —
//! with `Vary: Accept-Encoding`, and plain to a client that asks for no coding. Needs the built UI
//! (`cargo build` builds it; `TABULA_SKIP_WEB_BUILD=1` keeps whatever `web/dist` holds).

use std::io::Read;
use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::*;

/// One `GET` with these extra header lines: the status, the header lines (names in lower case) and
/// the body's bytes as sent.
async fn fetch(
    addr: SocketAddr,
    path: &str,
    headers: &[&str],
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let extra: String = headers.iter().map(|h| format!("{h}\r\n")).collect();
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(30),
        stream.read_to_end(&mut buf),
    )
    .await
    .expect("no answer within 30 s")
    .unwrap();
    let end = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer");
    let head = String::from_utf8(buf[..end].to_vec()).unwrap();
    let body = buf[end + 4..].to_vec();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let lines: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    assert!(
        !lines.iter().any(|(k, _)| k == "transfer-encoding"),
        "{path}: the file is sent whole, with its length"
    );
    let length: usize = lines
        .iter()
        .find(|(k, _)| k == "content-length")
        .map(|(_, v)| v.parse().unwrap())
        .expect("a Content-Length");
    assert_eq!(length, body.len(), "{path}: Content-Length");
    (status, lines, body)
}

fn header<'a>(lines: &'a [(String, String)], name: &str) -> Option<&'a str> {
    lines
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn decode(coding: Option<&str>, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    match coding {
        Some("br") => {
            brotli::Decompressor::new(body, 4096)
                .read_to_end(&mut out)
                .unwrap();
        }
        Some("gzip") => {
            flate2::read::GzDecoder::new(body)
                .read_to_end(&mut out)
                .unwrap();
        }
        None => out = body.to_vec(),
        Some(other) => panic!("unexpected coding {other}"),
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_its_script_come_in_the_accepted_coding() {
    let dir = temp_dir("assets");
    let server = start(&dir).await;
    let addr = server.local_addr();

    let (status, lines, page) = fetch(addr, "/", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&lines, "content-encoding"), None);
    let page = String::from_utf8(page).unwrap();
    assert!(
        !page.contains("was not built into this binary"),
        "the web UI is not built into this test binary: build it (cargo build, or cd web && npm run build)"
    );
    // The main script, as the page names it.
    let script = page
        .split("<script type=\"module\" crossorigin src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page's module script")
        .to_string();
    let (status, lines, plain) = fetch(addr, &script, &[]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&lines, "content-encoding"), None);
    assert_eq!(header(&lines, "vary"), Some("accept-encoding"));
    assert!(plain.len() > 10_000, "{script}: {} bytes", plain.len());

    for (path, whole) in [("/", page.as_bytes()), (script.as_str(), plain.as_slice())] {
        for (accept, coding) in [
            ("Accept-Encoding: br", Some("br")),
            ("Accept-Encoding: gzip", Some("gzip")),
            ("Accept-Encoding: gzip, deflate, br, zstd", Some("br")),
            ("Accept-Encoding: br;q=0, gzip", Some("gzip")),
            ("Accept-Encoding: identity", None),
        ] {
            let (status, lines, body) = fetch(addr, path, &[accept]).await;
            assert_eq!(status, 200, "{path} {accept}");
            assert_eq!(
                header(&lines, "content-encoding"),
                coding,
                "{path} {accept}"
            );
            assert_eq!(
                header(&lines, "vary"),
                Some("accept-encoding"),
                "{path} {accept}"
            );
            assert_eq!(decode(coding, &body), whole, "{path} {accept}");
            if coding.is_some() {
                // The script is text that compresses to well under half; the small page less so.
                let most = if path == "/" {
                    whole.len() - 1
                } else {
                    whole.len() / 2
                };
                assert!(
                    body.len() <= most,
                    "{path} {accept}: {} of {} bytes",
                    body.len(),
                    whole.len()
                );
            }
            let want_type = if path == "/" {
                "text/html"
            } else {
                "javascript"
            };
            assert!(
                header(&lines, "content-type").is_some_and(|t| t.contains(want_type)),
                "{path} {accept}: {:?}",
                header(&lines, "content-type")
            );
            let want_cache = if path == "/" {
                "no-cache"
            } else {
                "public, max-age=31536000, immutable"
            };
            assert_eq!(
                header(&lines, "cache-control"),
                Some(want_cache),
                "{path} {accept}"
            );
        }
    }

    // The copies are not files of their own: their names are client routes like any unknown path.
    let (status, lines, body) = fetch(addr, &format!("{script}.br"), &[]).await;
    assert_eq!(status, 200);
    assert!(header(&lines, "content-type").is_some_and(|t| t.starts_with("text/html")));
    assert_eq!(body, page.as_bytes());

    server.shutdown().await.unwrap();
}
