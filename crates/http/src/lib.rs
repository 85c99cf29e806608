//! One HTTP/1.1 request and its whole answer, through hyper's client (the server's own HTTP
//! library): a fresh connection per request, closed after the answer. The server forwards a change
//! to the node that owns its game with it, and the tools' protocol client (the load generator, the
//! tests) sends every request with it, so both read answers — chunked or not — the same way.
//!
//! Errors name what was asked and every cause hyper gives ("client error (Connect): tcp connect
//! error: Connection refused"), never just its outermost "client error (Connect)".

use http_body_util::{BodyExt, Full};
pub use hyper::body::Bytes;
use hyper::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// An answer: its status, its header lines (names in lower case, values trimmed) and its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
}

/// Why a request got no whole answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The request could not be written (a malformed URL, method or header).
    Request(String),
    /// No answer came: the connection failed or closed before the answer's head.
    Unreachable(String),
    /// The answer's head came but its body broke off.
    Receive(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Request(e) | Failure::Unreachable(e) => f.write_str(e),
            Failure::Receive(e) => write!(f, "receive: {e}"),
        }
    }
}

/// Sends `method url` with `body` as JSON (`Content-Type: application/json`, overridden by a
/// header of `headers`) and reads the whole answer. No timeout of its own: callers bound it.
pub async fn exchange(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Bytes,
) -> Result<Answer, Failure> {
    let mut request = hyper::Request::builder()
        .method(method)
        .uri(url)
        .body(Full::new(body))
        .map_err(|e| Failure::Request(e.to_string()))?;
    let fields = request.headers_mut();
    fields.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    for (name, value) in headers {
        let name = HeaderName::try_from(*name)
            .map_err(|e| Failure::Request(format!("header {name}: {e}")))?;
        let value = HeaderValue::try_from(*value)
            .map_err(|e| Failure::Request(format!("header {name}: {e}")))?;
        fields.insert(name, value);
    }
    let client = Client::builder(TokioExecutor::new())
        .pool_max_idle_per_host(0)
        .build_http::<Full<Bytes>>();
    let response = client
        .request(request)
        .await
        .map_err(|e| Failure::Unreachable(causes(&e)))?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| {
            let v = String::from_utf8_lossy(v.as_bytes());
            (k.as_str().to_string(), v.trim().to_string())
        })
        .collect();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| Failure::Receive(causes(&e)))?
        .to_bytes();
    Ok(Answer {
        status,
        headers,
        body,
    })
}

/// An error and its causes, outermost first.
pub fn causes(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Answers one request with `answer`, handing back the request's head (in lower case).
    async fn answer_once(answer: &'static [u8]) -> (String, tokio::task::JoinHandle<String>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let served = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 1024];
            while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = socket.read(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                seen.extend_from_slice(&buf[..n]);
            }
            socket.write_all(answer).await.unwrap();
            String::from_utf8_lossy(&seen).to_ascii_lowercase()
        });
        (url, served)
    }

    #[tokio::test]
    async fn a_chunked_answer_is_read_whole_with_its_headers_and_the_request_carries_ours() {
        let (url, served) = answer_once(
            b"HTTP/1.1 409 Conflict\r\nx-why:  late \r\ntransfer-encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n",
        )
        .await;
        let answer = exchange(
            "POST",
            &format!("{url}/x"),
            &[("X-Secret", "s3")],
            Bytes::from_static(b"{}"),
        )
        .await
        .unwrap();
        assert_eq!(answer.status, 409);
        assert_eq!(&answer.body[..], b"{\"a\":1}");
        assert!(answer.headers.contains(&("x-why".into(), "late".into())));
        let head = served.await.unwrap();
        assert!(head.starts_with("post /x http/1.1"), "{head}");
        assert!(head.contains("x-secret: s3"), "{head}");
        assert!(head.contains("content-type: application/json"), "{head}");
    }

    #[tokio::test]
    async fn a_closed_port_is_unreachable_and_says_why() {
        let closed = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap()
        };
        let failure = exchange("GET", &format!("http://{closed}/"), &[], Bytes::new())
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, Failure::Unreachable(e) if e.contains("onnection refused")),
            "{failure:?}"
        );
    }

    #[tokio::test]
    async fn a_bad_header_is_refused_before_anything_is_sent() {
        let failure = exchange(
            "GET",
            "http://127.0.0.1:9/",
            &[("bad name", "v")],
            Bytes::new(),
        )
        .await
        .unwrap_err();
        assert!(matches!(failure, Failure::Request(e) if e.contains("bad name")));
    }
}
