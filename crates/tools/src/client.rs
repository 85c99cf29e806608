//! A small client for the server's protocol (HTTP/1.1 JSON requests and WebSocket sessions), used by
//! the load generator and the integration tests. Every wait is bounded: a request or a WebSocket
//! handshake that takes longer than its timeout ([`TIMEOUT`] unless given) fails.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
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

async fn exchange(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, Vec<(String, String)>, Value), String> {
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .await
        .map_err(|e| format!("send: {e}"))?;
    stream
        .write_all(body)
        .await
        .map_err(|e| format!("send: {e}"))?;
    let mut buf = Vec::new();
    stream
        .read_to_end(&mut buf)
        .await
        .map_err(|e| format!("receive: {e}"))?;
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("malformed HTTP response: {text}"))?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("malformed status line: {head}"))?;
    let chunked = head.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
    });
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    let json = serde_json::from_str(&body).unwrap_or(Value::String(body));
    let response_headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Ok((status, response_headers, json))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
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
