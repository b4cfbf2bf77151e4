//! Client connections on the public listeners, before the proxy sees a request: a client
//! address holds at most `--max-connections-per-client` connections at once (one more is
//! closed as it arrives), and each request head (request line and header fields) must arrive
//! whole within `--header-timeout-ms` (a connection that trickles it, slowloris-style, is
//! closed).
//!
//! Pingora 0.9.1 has neither. Its HTTP/1 reader times out each read of a head (60 s, the
//! keep-alive timeout it sets) rather than the whole head, so a client sending a byte every
//! few seconds keeps its connection, buffers and descriptor forever; its `HttpServerOptions`
//! have no header timeout, its accept-time `ConnectionFilter` (a cargo feature) sees no
//! connection end to count down on, and its first proxy hook runs after the head is read.
//! So [`Guard`] is the listeners' application in place of Pingora's `HttpProxy` service:
//! it counts the connection for its client while it is open, reads each HTTP/1 request head
//! itself against the deadline, and hands what it read to the proxy as the start of the
//! request (Pingora's reader parses those bytes before it reads the socket again), one
//! request after another, as Pingora's own HTTP/1 loop does. HTTP/2 connections (TLS with
//! ALPN `h2`) are counted and then go to Pingora as they are.

use crate::cache::date;
use crate::proxy::Edge;
use crate::State;
use async_trait::async_trait;
use bytes::BytesMut;
use pingora::apps::{HttpPersistentSettings, HttpServerApp, ServerApp};
use pingora::protocols::http::ServerSession;
use pingora::protocols::{Stream, ALPN};
use pingora::proxy::HttpProxy;
use pingora::server::ShutdownWatch;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;
use tokio::time::Instant;

/// How long a kept-alive connection may sit idle before its next request's first byte: the
/// keep-alive timeout Pingora's own HTTP/1 loop sets (in seconds) and this one keeps.
const KEEPALIVE_SECS: u64 = 60;

/// A head longer than this is handed to Pingora as it is, which refuses it (400): its own
/// limit (1 MiB less a byte) is the one that applies.
const MAX_HEAD: usize = 1 << 20;

/// How the connections of one listener are watched.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The deadline for a request head; `None`: Pingora's per-read timeout only.
    pub header_timeout: Option<Duration>,
    /// Open connections per client; `None`: no cap.
    pub per_client: Option<usize>,
    /// Whether loopback clients are capped too.
    pub limit_loopback: bool,
}

/// Who a client is for the cap: its IPv4 address, or its IPv6 address's /64 (one
/// subscriber's network, which holds as many addresses as it likes).
fn client_of(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// Open connections per client, for both public listeners.
#[derive(Debug, Default)]
pub struct ClientCounts {
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl ClientCounts {
    /// Count a new connection from `ip`, or `None` if its client holds `cap` already.
    pub fn admit(&self, ip: IpAddr, cap: usize) -> Option<Permit<'_>> {
        let client = client_of(ip);
        let mut open = self.open.lock().expect("client counts lock poisoned");
        let count = open.entry(client).or_insert(0);
        if *count >= cap {
            if *count == 0 {
                open.remove(&client);
            }
            return None;
        }
        *count += 1;
        Some(Permit {
            counts: self,
            client,
        })
    }

    /// Connections open from this address's client.
    pub fn open(&self, ip: IpAddr) -> usize {
        let open = self.open.lock().expect("client counts lock poisoned");
        open.get(&client_of(ip)).copied().unwrap_or(0)
    }

    /// Connections open, all clients.
    pub fn total(&self) -> usize {
        let open = self.open.lock().expect("client counts lock poisoned");
        open.values().sum()
    }
}

/// One counted connection; dropping it counts it out.
#[derive(Debug)]
pub struct Permit<'a> {
    counts: &'a ClientCounts,
    client: IpAddr,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut open = self
            .counts
            .open
            .lock()
            .expect("client counts lock poisoned");
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// Whether `buf` holds a whole request head: after any empty lines before the request line
/// (which the parser skips, RFC 9112 §2.2), an empty line, `\n\n` or `\n\r\n` (the parser
/// takes a bare `\n` as a line end too). `scanned` is how far an earlier call looked, so a
/// head read in many pieces is scanned once.
fn head_complete(buf: &[u8], scanned: &mut usize) -> bool {
    let Some(start) = buf.iter().position(|&b| b != b'\r' && b != b'\n') else {
        *scanned = buf.len();
        return false;
    };
    // A terminator may straddle the previous end: look back two bytes.
    let from = scanned.saturating_sub(2).max(start);
    *scanned = buf.len();
    let rest = &buf[from..];
    rest.iter().enumerate().any(|(i, &b)| {
        b == b'\n'
            && match rest.get(i + 1) {
                Some(b'\n') => true,
                Some(b'\r') => rest.get(i + 2) == Some(&b'\n'),
                _ => false,
            }
    })
}

/// What reading a head came to.
#[derive(Debug)]
enum Head {
    /// A whole head (and whatever followed it), or more than [`MAX_HEAD`].
    Read(BytesMut),
    /// The client closed, or went idle too long between requests, or the edge is stopping.
    Closed,
    /// The deadline passed; whether part of a head had arrived.
    TimedOut { partial: bool },
}

/// The listeners' application: [`Limits`] around Pingora's proxy.
pub struct Guard {
    proxy: Arc<HttpProxy<Edge>>,
    state: &'static State,
    limits: Limits,
    /// Set when the service stops listening: heads being waited for are given up, as
    /// Pingora gives up its own waits for the next request then.
    closing: watch::Sender<bool>,
}

impl Guard {
    /// Watch the connections `proxy` would be given.
    pub fn new(proxy: HttpProxy<Edge>, state: &'static State, limits: Limits) -> Self {
        Self {
            proxy: Arc::new(proxy),
            state,
            limits,
            closing: watch::channel(false).0,
        }
    }

    /// Count the connection for its client; `None` (the connection is to be closed) past
    /// the cap.
    fn admit(&self, stream: &Stream) -> Result<Option<Permit<'static>>, ()> {
        let Some(cap) = self.limits.per_client else {
            return Ok(None);
        };
        let Some(ip) = stream
            .get_socket_digest()
            .and_then(|d| d.peer_addr().and_then(|a| a.as_inet()).map(|a| a.ip()))
        else {
            return Ok(None);
        };
        if ip.to_canonical().is_loopback() && !self.limits.limit_loopback {
            return Ok(None);
        }
        match self.state.connections.admit(ip, cap) {
            Some(permit) => Ok(Some(permit)),
            None => {
                tracing::debug!(client = %ip, cap, "connection refused: the client's cap");
                Err(())
            }
        }
    }

    /// Read a request head from `stream`, within the deadline: counted from now for the
    /// connection's first request, from the first byte for a later one (which may take the
    /// keep-alive timeout to come).
    async fn read_head(&self, stream: &mut Stream, timeout: Duration, first: bool) -> Head {
        let mut closing = self.closing.subscribe();
        if *closing.borrow_and_update() {
            return Head::Closed;
        }
        let mut buf = BytesMut::with_capacity(4096);
        let mut scanned = 0;
        let mut deadline = first.then(|| Instant::now() + timeout);
        loop {
            if buf.len() > MAX_HEAD {
                return Head::Read(buf);
            }
            if buf.capacity() - buf.len() < 1024 {
                buf.reserve(4096);
            }
            let until =
                deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(KEEPALIVE_SECS));
            let read = tokio::select! {
                read = tokio::time::timeout_at(until, stream.read_buf(&mut buf)) => read,
                _ = closing.changed() => return Head::Closed,
            };
            match read {
                Ok(Ok(0)) | Ok(Err(_)) => return Head::Closed,
                Ok(Ok(_)) => {}
                Err(_) if deadline.is_none() => return Head::Closed,
                Err(_) => {
                    return Head::TimedOut {
                        partial: !buf.is_empty(),
                    }
                }
            }
            if deadline.is_none() {
                deadline = Some(Instant::now() + timeout);
            }
            if head_complete(&buf, &mut scanned) {
                return Head::Read(buf);
            }
        }
    }

    /// HTTP/1: each request's head read against the deadline, then the request given to
    /// the proxy, until the connection is not reused.
    async fn serve_http1(&self, mut stream: Stream, timeout: Duration, shutdown: &ShutdownWatch) {
        let mut first = true;
        let mut settings: Option<HttpPersistentSettings> = None;
        loop {
            let head = match self.read_head(&mut stream, timeout, first).await {
                Head::Read(head) => head,
                Head::Closed => return,
                Head::TimedOut { partial } => {
                    self.state
                        .metrics
                        .connections_closed
                        .with_label_values(&["header_timeout"])
                        .inc();
                    if partial {
                        request_timeout(&mut stream).await;
                    }
                    return;
                }
            };
            let mut session = ServerSession::new_http1(stream);
            if first {
                // As Pingora's own loop starts a connection.
                session.set_keepalive((!*shutdown.borrow()).then_some(KEEPALIVE_SECS));
            } else if let Some(settings) = settings.take() {
                settings.apply_to_session(&mut session);
            }
            // The edge does not enable pipelining, so the settings carried no bytes read
            // past the previous request: these are the next request's first.
            session.set_pipelined_prefix(head);
            let Some(reused) = self.proxy.process_new_http(session, shutdown).await else {
                return;
            };
            (stream, settings) = reused.consume();
            first = false;
        }
    }
}

/// Answer 408 (RFC 9110 §15.5.9) on a connection whose head did not arrive in time, and
/// say it closes; a second at most, the client may not be reading either.
async fn request_timeout(stream: &mut Stream) {
    let answer = format!(
        "HTTP/1.1 408 Request Timeout\r\nDate: {}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
        date::format(SystemTime::now())
    );
    let write = async {
        stream.write_all(answer.as_bytes()).await?;
        stream.flush().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

#[async_trait]
impl ServerApp for Guard {
    async fn process_new(
        self: &Arc<Self>,
        stream: Stream,
        shutdown: &ShutdownWatch,
    ) -> Option<Stream> {
        let Ok(_permit) = self.admit(&stream) else {
            self.state
                .metrics
                .connections_closed
                .with_label_values(&["client_limit"])
                .inc();
            return None;
        };
        let h2 = matches!(stream.selected_alpn_proto(), Some(ALPN::H2));
        match self.limits.header_timeout {
            Some(timeout) if !h2 => {
                self.serve_http1(stream, timeout, shutdown).await;
                None
            }
            // HTTP/2 (whose frames Pingora's h2 server reads), or no deadline: Pingora's own.
            _ => self.proxy.process_new(stream, shutdown).await,
        }
    }

    async fn cleanup(&self) {
        self.closing.send_replace(true);
        ServerApp::cleanup(&*self.proxy).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete(pieces: &[&[u8]]) -> bool {
        let mut buf = Vec::new();
        let mut scanned = 0;
        let mut done = false;
        for piece in pieces {
            buf.extend_from_slice(piece);
            done = head_complete(&buf, &mut scanned);
        }
        done
    }

    #[test]
    fn a_head_ends_at_its_first_empty_line() {
        assert!(complete(&[b"GET / HTTP/1.1\r\nHost: a\r\n\r\n"]));
        assert!(complete(&[b"GET / HTTP/1.1\nHost: a\n\n"]));
        assert!(complete(&[b"GET / HTTP/1.1\r\nHost: a\n\r\n"]));
        assert!(complete(&[b"GET / HTTP/1.1\r\n\r\nbody"]));
        assert!(!complete(&[b"GET / HTTP/1.1\r\nHost: a\r\n"]));
        assert!(!complete(&[b"GET / HTTP/1.1\r\nHost: a\r\n\r"]));
        // Byte by byte, the terminator split every way.
        let head = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        let bytes: Vec<&[u8]> = head.chunks(1).collect();
        assert!(complete(&bytes));
        assert!(!complete(&bytes[..bytes.len() - 1]));
    }

    #[test]
    fn empty_lines_before_the_request_line_are_no_head() {
        // The parser skips them, so they must not end the deadline.
        assert!(!complete(&[b"\r\n\r\n\r\n"]));
        assert!(!complete(&[b"\r\n\r\n", b"GET / HTTP/1.1\r\n"]));
        assert!(complete(&[b"\r\n\n", b"GET / HTTP/1.1\r\n", b"\r\n"]));
    }

    #[test]
    fn clients_are_counted_to_their_cap() {
        let counts = ClientCounts::default();
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = counts.admit(a, 2).unwrap();
        let second = counts.admit(a, 2).unwrap();
        assert!(counts.admit(a, 2).is_none());
        assert!(counts.admit(b, 2).is_some());
        drop(first);
        let third = counts.admit(a, 2).unwrap();
        assert_eq!(counts.open(a), 2);
        drop((second, third));
        assert_eq!(counts.total(), 0);
        assert!(counts.open.lock().unwrap().is_empty());
        assert!(counts.admit(a, 0).is_none());
        assert!(counts.open.lock().unwrap().is_empty());
    }

    #[test]
    fn an_ipv6_client_is_its_64() {
        let counts = ClientCounts::default();
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let other_in_same_64: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let next_64: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let _a = counts.admit(one, 1).unwrap();
        assert!(counts.admit(other_in_same_64, 1).is_none());
        assert!(counts.admit(next_64, 1).is_some());
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        let _b = counts.admit(mapped, 1).unwrap();
        assert!(counts.admit("192.0.2.7".parse().unwrap(), 1).is_none());
    }
}
