//! The origin pool: round robin over the origins that pass their HTTP health check.
//!
//! A background task asks each origin for the health path every interval; a connection
//! failure during proxying marks the origin down at once, and the next passing check
//! brings it back.

use crate::metrics::Metrics;
use anyhow::Context;
use async_trait::async_trait;
use pingora::server::ShutdownWatch;
use pingora::services::background::BackgroundService;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One origin.
#[derive(Debug)]
pub struct Origin {
    /// `host:port`.
    pub addr: String,
    /// Whether to speak TLS to it.
    pub tls: bool,
    /// The host name for SNI.
    pub host: String,
    /// Passed its last health check.
    pub healthy: AtomicBool,
}

/// The pool.
#[derive(Debug)]
pub struct Pool {
    /// The origins in configuration order.
    pub origins: Vec<Origin>,
    next: AtomicUsize,
}

/// Parse `http://host:port` (or `https://`, or a bare `host:port`).
pub fn parse_origin(url: &str) -> anyhow::Result<Origin> {
    let (tls, rest) = if let Some(rest) = url.strip_prefix("https://") {
        (true, rest)
    } else if let Some(rest) = url.strip_prefix("http://") {
        (false, rest)
    } else {
        (false, url)
    };
    let authority = rest.split('/').next().unwrap_or(rest);
    if authority.is_empty() {
        anyhow::bail!("origin URL {url:?} has no host");
    }
    let (host, addr) = match authority.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(']') || authority.starts_with('[') => {
            port.parse::<u16>()
                .with_context(|| format!("origin URL {url:?} has a bad port"))?;
            (host.to_string(), authority.to_string())
        }
        _ => {
            let port = if tls { 443 } else { 80 };
            (authority.to_string(), format!("{authority}:{port}"))
        }
    };
    Ok(Origin {
        addr,
        tls,
        host,
        healthy: AtomicBool::new(true),
    })
}

impl Pool {
    /// A pool of the given origin URLs, all presumed healthy until checked.
    pub fn new(urls: &[String]) -> anyhow::Result<Self> {
        let origins = urls
            .iter()
            .map(|u| parse_origin(u.trim()))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Self {
            origins,
            next: AtomicUsize::new(0),
        })
    }

    /// The next healthy origin after round robin, skipping those in `tried`.
    pub fn select(&self, tried: &[usize]) -> Option<usize> {
        let n = self.origins.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        (0..n)
            .map(|i| (start + i) % n)
            .find(|&i| !tried.contains(&i) && self.origins[i].healthy.load(Ordering::Relaxed))
    }

    /// Whether an origin not in `tried` passes its health check (what [`Self::select`]
    /// would find, without moving the round robin).
    pub fn any_available(&self, tried: &[usize]) -> bool {
        self.origins
            .iter()
            .enumerate()
            .any(|(i, o)| !tried.contains(&i) && o.healthy.load(Ordering::Relaxed))
    }

    /// Mark an origin down after a failed connection.
    pub fn mark_down(&self, index: usize) {
        if let Some(origin) = self.origins.get(index) {
            origin.healthy.store(false, Ordering::Relaxed);
        }
    }
}

/// Ask one origin for `path`; healthy when it answers with a status below 500.
pub async fn check(addr: &str, host: &str, path: &str, timeout: Duration) -> bool {
    let probe = async {
        let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: edge-health\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut buf = [0u8; 32];
        let mut read = 0;
        while read < 12 {
            let n = stream.read(&mut buf[read..]).await.ok()?;
            if n == 0 {
                return None;
            }
            read += n;
        }
        let line = std::str::from_utf8(&buf[..read]).ok()?;
        let status: u16 = line.get(9..12)?.parse().ok()?;
        Some(status < 500)
    };
    tokio::time::timeout(timeout, probe)
        .await
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// The background health checker.
pub struct HealthChecker {
    /// The pool it keeps current.
    pub pool: &'static Pool,
    /// Where health is published.
    pub metrics: &'static Metrics,
    /// The path to ask for.
    pub path: String,
    /// Time between rounds.
    pub interval: Duration,
}

#[async_trait]
impl BackgroundService for HealthChecker {
    async fn start(&self, mut shutdown: ShutdownWatch) {
        let timeout = self.interval.max(Duration::from_millis(500));
        loop {
            for origin in &self.pool.origins {
                let up = if origin.tls {
                    tokio::time::timeout(timeout, tokio::net::TcpStream::connect(&origin.addr))
                        .await
                        .is_ok_and(|r| r.is_ok())
                } else {
                    check(&origin.addr, &origin.host, &self.path, timeout).await
                };
                let was = origin.healthy.swap(up, Ordering::Relaxed);
                if was != up {
                    tracing::warn!(origin = %origin.addr, up, "origin health changed");
                }
                self.metrics
                    .origin_up
                    .with_label_values(&[&origin.addr])
                    .set(i64::from(up));
            }
            tokio::select! {
                _ = tokio::time::sleep(self.interval) => {}
                _ = shutdown.changed() => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_urls() {
        let o = parse_origin("http://127.0.0.1:8081").unwrap();
        assert_eq!(
            (o.addr.as_str(), o.tls, o.host.as_str()),
            ("127.0.0.1:8081", false, "127.0.0.1")
        );
        let o = parse_origin("https://origin.internal").unwrap();
        assert_eq!((o.addr.as_str(), o.tls), ("origin.internal:443", true));
        assert!(parse_origin("http://").is_err());
        assert!(parse_origin("http://h:notaport").is_err());
    }

    #[test]
    fn selection_skips_down_and_tried_origins() {
        let pool = Pool::new(&["http://a:1".into(), "http://b:2".into()]).unwrap();
        pool.mark_down(0);
        for _ in 0..4 {
            assert_eq!(pool.select(&[]), Some(1));
        }
        assert_eq!(pool.select(&[1]), None);
        assert!(pool.any_available(&[0]));
        assert!(!pool.any_available(&[1]));
        pool.mark_down(1);
        assert_eq!(pool.select(&[]), None);
    }
}
