//! Accepting connections with bounds: a cap of open connections per client address, a deadline for
//! a request's headers, and an idle timeout, so one client holding many sockets (or holding them
//! silent) cannot stop the server from serving others.
//!
//! The accept loop is hyper's HTTP/1 connection driver (what `axum::serve` runs) with its header
//! timer switched on. A connection over its address's cap is closed as soon as it is accepted, before
//! anything is read from it; the loop goes straight back to accepting.
//!
//! Behind a reverse proxy (nginx, `deploy/`), every connection comes from the proxy's address. A
//! proxy named with `--trusted-proxy` is therefore not capped per address (it carries every player's
//! connections; the proxy caps them per client, see `deploy/nginx.conf`), and each request it sends is
//! attributed to the client its `X-Forwarded-For` header names: the rightmost address in that list that
//! is not itself a trusted proxy (entries further left were written by the client and prove nothing).
//! The per-address HTTP rate limit and the sign-in limits then apply to players, not to the proxy. A
//! request from any other peer keeps its TCP address whatever headers it sends.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex as StdMutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};

/// The connection bounds (from [`crate::Limits`]).
#[derive(Debug, Clone)]
pub struct ConnLimits {
    pub header_read_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_per_ip: usize,
    /// Reverse proxies whose `X-Forwarded-For` is believed (and whose connections are not capped).
    pub trusted_proxies: Arc<[IpAddr]>,
}

/// The client a request comes from: the TCP peer, or, when the peer is a trusted proxy, the rightmost
/// address of `X-Forwarded-For` that is not a trusted proxy (the peer itself when the header is
/// missing, unreadable or names only proxies).
pub fn client_addr(
    peer: SocketAddr,
    forwarded_for: Option<&hyper::header::HeaderValue>,
    trusted: &[IpAddr],
) -> SocketAddr {
    if !trusted.contains(&peer.ip()) {
        return peer;
    }
    let Some(list) = forwarded_for.and_then(|v| v.to_str().ok()) else {
        return peer;
    };
    for entry in list.rsplit(',') {
        match entry.trim().parse::<IpAddr>() {
            Ok(ip) if trusted.contains(&ip) => continue,
            Ok(ip) => return SocketAddr::new(ip, peer.port()),
            // A malformed entry: nothing left of it can be trusted either.
            Err(_) => return peer,
        }
    }
    peer
}

/// Open connections per client address.
#[derive(Default)]
struct Counts(StdMutex<HashMap<IpAddr, usize>>);

impl Counts {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One counted connection; uncounted when dropped (when the connection, upgraded or not, ends).
struct Slot {
    counts: Arc<Counts>,
    ip: IpAddr,
}

impl Slot {
    /// Counts a connection from `ip`, unless the address already has `max` open.
    fn take(counts: &Arc<Counts>, ip: IpAddr, max: usize) -> Option<Slot> {
        let mut map = counts.lock();
        let n = map.entry(ip).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(Slot {
            counts: counts.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut map = self.counts.lock();
        if let Some(n) = map.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then lets open requests finish.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    shutdown: impl Future<Output = ()> + Send,
) -> io::Result<()> {
    let counts = Arc::new(Counts::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors or a connection reset before it was accepted: wait a
                    // moment (as axum does) rather than spin, then accept again.
                    tracing::warn!("cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let proxied = limits.trusted_proxies.contains(&peer.ip());
        let cap = if proxied {
            usize::MAX
        } else {
            limits.max_per_ip
        };
        let Some(slot) = Slot::take(&counts, peer.ip(), cap) else {
            tracing::debug!(
                "closing a connection from {}: it already has {} open",
                peer.ip(),
                limits.max_per_ip
            );
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let trusted = limits.trusted_proxies.clone();
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let io = TokioIo::new(IdleIo::new(stream, limits.idle_timeout));
            let tower = TowerToHyperService::new(app);
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                let client = if proxied {
                    client_addr(peer, req.headers().get("x-forwarded-for"), &trusted)
                } else {
                    peer
                };
                req.extensions_mut().insert(ConnectInfo(client));
                hyper::service::Service::call(&tower, req)
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_read_timeout);
            let conn = builder.serve_connection(io, service).with_upgrades();
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::trace!("connection from {peer} ended: {e}");
                    }
                    return;
                }
                _ = stop.wait_for(|s| *s) => conn.as_mut().graceful_shutdown(),
            }
            let _ = conn.await;
        });
    }
    let _ = stop_tx.send(true);
    Ok(())
}

/// A TCP stream that fails with `TimedOut` once no byte has moved either way for its timeout (a
/// read or write that is waiting counts as idle), which closes the connection it carries.
struct IdleIo {
    io: TcpStream,
    timeout: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl IdleIo {
    fn new(io: TcpStream, timeout: Duration) -> IdleIo {
        IdleIo {
            io,
            timeout,
            deadline: Box::pin(tokio::time::sleep(timeout)),
        }
    }

    fn moved(&mut self) {
        let at = Instant::now() + self.timeout;
        self.deadline.as_mut().reset(at);
    }

    /// A write's result: bytes written move the deadline; `Pending` is [`IdleIo::idle`]'s.
    fn written(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match polled {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => self.idle(cx),
        }
    }

    /// `Pending` becomes a `TimedOut` error once the deadline has passed.
    fn idle<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the connection was idle too long",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for IdleIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    this.moved();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this.idle(cx),
        }
    }
}

impl AsyncWrite for IdleIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write(cx, buf);
        this.written(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.written(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}
