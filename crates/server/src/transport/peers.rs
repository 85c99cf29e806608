//! Requests to the other nodes of a cluster (a change forwarded to the game's owner), through hyper's
//! HTTP/1.1 client (`tabula-http`, shared with the tools' client): the rooms' [`Peers`], given to them at start.

use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;
use tabula_http::{Bytes, Failure};

use crate::services::rooms::Peers;
use crate::storage::cluster::SECRET_HEADER;

/// How long another node may take to answer a forwarded change.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// The other nodes, reached over HTTP (a fresh connection per request: forwarded changes are rare,
/// a node mostly commits the games it owns).
pub struct HttpPeers;

impl Peers for HttpPeers {
    fn post<'a>(
        &'a self,
        address: &'a str,
        path: &'a str,
        secret: &'a str,
        body: &'a Value,
    ) -> BoxFuture<'a, Result<(u16, Value), String>> {
        Box::pin(async move {
            let exchange = post(address, path, secret, body);
            tokio::time::timeout(ANSWER_WITHIN, exchange)
                .await
                .map_err(|_| format!("node {address} did not answer within {ANSWER_WITHIN:?}"))?
        })
    }
}

async fn post(
    address: &str,
    path: &str,
    secret: &str,
    body: &Value,
) -> Result<(u16, Value), String> {
    let base = address.trim_end_matches('/');
    let url = if base.starts_with("http://") {
        format!("{base}{path}")
    } else {
        format!("http://{base}{path}")
    };
    let headers = [(SECRET_HEADER, secret)];
    let answer = tabula_http::exchange("POST", &url, &headers, Bytes::from(body.to_string()))
        .await
        .map_err(|e| match e {
            Failure::Unreachable(e) => format!("cannot reach node {address}: {e}"),
            Failure::Request(e) => format!("the request to node {address} cannot be sent: {e}"),
            Failure::Receive(e) => format!("node {address}: {e}"),
        })?;
    if answer.body.is_empty() {
        return Ok((answer.status, Value::Null));
    }
    let value = serde_json::from_slice(&answer.body)
        .map_err(|e| format!("node {address} sent a malformed answer: {e}"))?;
    Ok((answer.status, value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Answers one request with `answer`, handing back the request's head.
    async fn answer_once(answer: &'static [u8]) -> (String, tokio::task::JoinHandle<String>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = format!("http://{}", listener.local_addr().unwrap());
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
        (address, served)
    }

    #[tokio::test]
    async fn a_forwarded_change_carries_the_secret_and_reads_a_chunked_answer() {
        let (address, served) = answer_once(
            b"HTTP/1.1 409 Conflict\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n",
        )
        .await;
        let body = serde_json::json!({"base_seq": 3});
        let answer = HttpPeers
            .post(
                &address,
                "/internal/games/g/commit",
                "sixteen-chars-secret",
                &body,
            )
            .await;
        assert_eq!(answer, Ok((409, serde_json::json!({"a": 1}))));
        let head = served.await.unwrap();
        assert!(
            head.starts_with("post /internal/games/g/commit http/1.1"),
            "{head}"
        );
        assert!(
            head.contains("x-tabula-cluster-secret: sixteen-chars-secret"),
            "{head}"
        );
    }

    #[tokio::test]
    async fn an_answer_that_is_not_json_is_an_error_and_an_absent_node_is_unreachable() {
        let (address, _) =
            answer_once(b"HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\ngarbage").await;
        let answer = HttpPeers.post(&address, "/x", "s", &Value::Null).await;
        assert!(answer.is_err_and(|e| e.contains("malformed")));
        let closed = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap()
        };
        let answer = HttpPeers
            .post(&format!("http://{closed}"), "/x", "s", &Value::Null)
            .await;
        assert!(answer.is_err_and(|e| e.contains("cannot reach")));
    }
}
