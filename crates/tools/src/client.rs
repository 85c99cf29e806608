//! A small client for the server's protocol (HTTP/1.1 JSON requests and WebSocket sessions), used by
//! the load generator and the integration tests. Every wait is bounded: a request or a WebSocket
//! handshake that takes longer than its timeout ([`TIMEOUT`] unless given) fails.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tabula_http::Bytes;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// How long a request or a WebSocket handshake may take unless told otherwise.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// One HTTP request with a JSON (or no) body; returns the status and the body (JSON, or a JSON string
/// holding the text when the body is not JSON).
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    request_within(addr, method, path, body, TIMEOUT).await
}

/// [`request`] that fails after `timeout` (connecting, sending and receiving the whole answer).
pub async fn request_within(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<(u16, Value), String> {
    let payload = match body {
        Some(b) => b.to_string(),
        None => String::new(),
    };
    let (status, _, json) = tokio::time::timeout(
        timeout,
        exchange(addr, method, path, &[], payload.as_bytes()),
    )
    .await
    .map_err(|_| format!("{method} {path}: no answer within {timeout:?}"))??;
    Ok((status, json))
}

/// One HTTP request with raw body bytes (for tests of malformed input).
pub async fn request_raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> Result<(u16, Value), String> {
    request_with_headers(addr, method, path, &[], body).await
}

/// One HTTP request with extra header lines (`("Authorization", "Bearer …")`) and raw body bytes.
pub async fn request_with_headers(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, Value), String> {
    let (status, _, json) =
        request_with_response_headers(addr, method, path, headers, body).await?;
    Ok((status, json))
}

/// [`request_with_headers`] that also returns the response's header lines (names in lower case).
pub async fn request_with_response_headers(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, Vec<(String, String)>, Value), String> {
    tokio::time::timeout(TIMEOUT, exchange(addr, method, path, headers, body))
        .await
        .map_err(|_| format!("{method} {path}: no answer within {TIMEOUT:?}"))?
}

/// Sends one request (a fresh connection, closed after the answer) and reads the whole answer: its
/// status, header lines (names in lower case) and body (JSON, or a JSON string holding the text).
async fn exchange(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, Vec<(String, String)>, Value), String> {
    let url = format!("http://{addr}{path}");
    let answer = tabula_http::exchange(method, &url, headers, Bytes::copy_from_slice(body))
        .await
        .map_err(|e| format!("{method} {url}: {e}"))?;
    let json = serde_json::from_slice(&answer.body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&answer.body).into_owned()));
    Ok((answer.status, answer.headers, json))
}

type WsStream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// A WebSocket session.
pub struct WsClient {
    ws: WsStream,
}

impl WsClient {
    /// Connects to `path` (e.g. `/api/games/ID/ws?seat=0&token=T`).
    pub async fn connect(addr: SocketAddr, path: &str) -> Result<WsClient, String> {
        WsClient::connect_within(addr, path, TIMEOUT).await
    }

    /// [`WsClient::connect`] that fails when the handshake is not done within `timeout`.
    pub async fn connect_within(
        addr: SocketAddr,
        path: &str,
        timeout: Duration,
    ) -> Result<WsClient, String> {
        WsClient::handshake(addr, path, None, timeout).await
    }

    /// Connects to `path` (e.g. `/api/games/ID/ws?seat=0`) as a seat whose `token` goes in the
    /// `tabula.token.{token}` subprotocol, as the web client sends it: never in the URL.
    pub async fn connect_seat(
        addr: SocketAddr,
        path: &str,
        token: &str,
        timeout: Duration,
    ) -> Result<WsClient, String> {
        WsClient::handshake(addr, path, Some(token), timeout).await
    }

    async fn handshake(
        addr: SocketAddr,
        path: &str,
        token: Option<&str>,
        timeout: Duration,
    ) -> Result<WsClient, String> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
        let mut request = format!("ws://{addr}{path}")
            .into_client_request()
            .map_err(|e| format!("WebSocket request: {e}"))?;
        if let Some(token) = token {
            let protocols = format!("tabula, tabula.token.{token}");
            let value = protocols
                .parse()
                .map_err(|e| format!("WebSocket subprotocol: {e}"))?;
            request
                .headers_mut()
                .insert("sec-websocket-protocol", value);
        }
        let url = request;
        // A smaller read buffer than the default 128 KiB, which is zero-filled before every read.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(16 * 1024);
        let connect = tokio_tungstenite::connect_async_with_config(url, Some(config), false);
        let (ws, _) = tokio::time::timeout(timeout, connect)
            .await
            .map_err(|_| format!("WebSocket connect: no handshake within {timeout:?}"))?
            .map_err(|e| format!("WebSocket connect: {e}"))?;
        Ok(WsClient { ws })
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, msg: &Value) -> Result<(), String> {
        self.send_text(&msg.to_string()).await
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: &str) -> Result<(), String> {
        self.ws
            .send(Message::text(text))
            .await
            .map_err(|e| format!("WebSocket send: {e}"))
    }

    /// The next JSON message, or `None` when the connection closed. Fails after `timeout`.
    pub async fn recv(&mut self, timeout: Duration) -> Result<Option<Value>, String> {
        loop {
            let next = tokio::time::timeout(timeout, self.ws.next())
                .await
                .map_err(|_| "timed out waiting for a message".to_string())?;
            match next {
                None => return Ok(None),
                Some(Err(e)) => return Err(format!("WebSocket receive: {e}")),
                Some(Ok(Message::Text(t))) => {
                    return serde_json::from_str(t.as_str())
                        .map(Some)
                        .map_err(|e| format!("server sent bad JSON: {e}"));
                }
                Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The raw text of the next message (for tests that inspect exactly what was sent).
    pub async fn recv_text(&mut self, timeout: Duration) -> Result<Option<String>, String> {
        loop {
            let next = tokio::time::timeout(timeout, self.ws.next())
                .await
                .map_err(|_| "timed out waiting for a message".to_string())?;
            match next {
                None | Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Err(e)) => return Err(format!("WebSocket receive: {e}")),
                Some(Ok(Message::Text(t))) => return Ok(Some(t.to_string())),
                Some(Ok(_)) => continue,
            }
        }
    }

    /// Closes the session.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// Answers one request on a fresh port with `answer` (raw bytes), returning the port's address.
    async fn answer_once(answer: &'static [u8]) -> std::net::SocketAddr {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 1024];
            while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = socket.read(&mut buf).await.unwrap();
                if n == 0 {
                    return;
                }
                seen.extend_from_slice(&buf[..n]);
            }
            socket.write_all(answer).await.unwrap();
        });
        addr
    }

    /// A chunked answer whose chunks split a character in two decodes to the whole text (the old
    /// hand-written chunk decoder sliced a `str` inside the character and panicked).
    #[tokio::test]
    async fn a_character_split_across_chunks_is_read_whole() {
        let addr = answer_once(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n\
              7\r\n{\"a\":\"\xc3\r\n3\r\n\xa9\"}\r\n0\r\n\r\n",
        )
        .await;
        let (status, body) = super::request(addr, "GET", "/", None).await.unwrap();
        assert_eq!((status, body), (200, serde_json::json!({"a": "é"})));
    }

    /// Several headers of one name (cookies) are all returned, names in lower case.
    #[tokio::test]
    async fn every_response_header_is_returned() {
        let addr = answer_once(
            b"HTTP/1.1 201 Created\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\ncontent-length: 4\r\n\r\nnope",
        )
        .await;
        let (status, headers, body) =
            super::request_with_response_headers(addr, "POST", "/x", &[], b"{}")
                .await
                .unwrap();
        assert_eq!((status, body), (201, serde_json::json!("nope")));
        let cookies: Vec<&str> = headers
            .iter()
            .filter(|(k, _)| k == "set-cookie")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(cookies, ["a=1", "b=2"]);
    }
}
