//! Metrics: Prometheus counters for `/metrics`, and a one-second sampler that keeps the
//! last minutes of hit ratio, request rates, origin latency and cache size for the
//! dashboard.

use crate::cache::key::RouteClass;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The `cache` labels of [`Metrics::requests`] that [`Metrics::count_request`] keeps
/// resolved counters for.
const REQUEST_LABELS: [&str; 7] = [
    "HIT",
    "MISS",
    "STALE",
    "REVALIDATED",
    "BYPASS",
    "LIMITED",
    "ERROR",
];
/// Route classes, in the order of [`route_index`].
const ROUTES: [RouteClass; 4] = [
    RouteClass::Page,
    RouteClass::Api,
    RouteClass::Asset,
    RouteClass::Image,
];

fn route_index(route: RouteClass) -> usize {
    match route {
        RouteClass::Page => 0,
        RouteClass::Api => 1,
        RouteClass::Asset => 2,
        RouteClass::Image => 3,
    }
}

/// Seconds of history the dashboard keeps.
const HISTORY: usize = 600;
/// Distinct URLs counted for "most missed".
const MISSED_CAPACITY: usize = 5_000;

/// Every metric the edge exports.
pub struct Metrics {
    registry: Registry,
    /// Client requests by `cache` status and `route` class (count with [`Self::count_request`]).
    pub requests: IntCounterVec,
    /// `requests` children by label and route, each resolved on its first request (so
    /// `/metrics` lists only the pairs seen, as with `with_label_values`).
    request_counters: [[OnceLock<IntCounter>; ROUTES.len()]; REQUEST_LABELS.len()],
    /// Requests sent to an origin, by origin and status class.
    pub origin_requests: IntCounterVec,
    /// Time to the origin's response header.
    pub origin_latency: HistogramVec,
    /// Requests that waited on another request's fill (cache lock).
    pub coalesced_waits: IntCounter,
    /// Stale responses served, by reason (`updating`, `error`).
    pub stale_served: IntCounterVec,
    /// Purges applied, by kind (url/tag/all), mode and source.
    pub purges: IntCounterVec,
    /// Requests refused by a rate limit, by path.
    pub rate_limited: IntCounterVec,
    /// Objects evicted for space.
    pub evictions: IntGauge,
    /// Fills abandoned mid-body or refused for size (never published).
    pub aborted_writes: IntGauge,
    /// Bytes stored.
    pub cache_bytes: IntGauge,
    /// Objects stored.
    pub cache_items: IntGauge,
    /// 1 when an origin passes its health check.
    pub origin_up: IntGaugeVec,
    /// Staged successors whose boundary is ahead.
    pub staged_pending: IntGauge,
    /// Staged successors whose boundary passed, since start.
    pub staged_applied: IntGauge,
    /// Objects installed in the cache from staged successors, since start.
    pub staged_installed: IntGauge,
    /// The next pending boundary, Unix seconds (0: none).
    pub staged_next_boundary: prometheus::Gauge,
    /// Client connections the edge closed before a request: `client_limit` (the client
    /// held its cap), `header_timeout` (a head not whole by the deadline).
    pub connections_closed: IntCounterVec,
    /// Client connections open on the public listeners, as counted for the per-client cap.
    pub client_connections: IntGauge,
    live: Live,
}

/// Counters the sampler turns into per-second points.
#[derive(Default)]
struct Live {
    requests: AtomicU64,
    hits: AtomicU64,
    origin_requests: AtomicU64,
    origin_latency_us: Mutex<Vec<u32>>,
    missed: Mutex<HashMap<String, u64>>,
    series: Mutex<VecDeque<Point>>,
    last: Mutex<(u64, u64, u64)>,
}

/// One second of the dashboard's plots.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    /// Unix seconds.
    pub t: u64,
    /// Hits over requests that second (0..1), `None` without requests.
    pub hit_ratio: Option<f64>,
    /// Client requests per second.
    pub rps: u64,
    /// Of those, answered from the cache.
    pub hits: u64,
    /// Origin requests per second.
    pub origin_rps: u64,
    /// Origin latency percentiles in milliseconds, `None` without origin requests.
    pub origin_p50_ms: Option<f64>,
    /// 99th percentile.
    pub origin_p99_ms: Option<f64>,
    /// Bytes stored.
    pub cache_bytes: u64,
    /// Objects stored.
    pub cache_items: u64,
}

fn counter_vec(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let metric = IntCounterVec::new(Opts::new(name, help), labels).expect("valid metric");
    registry
        .register(Box::new(metric.clone()))
        .expect("metric registered once");
    metric
}

fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    let metric = IntGauge::new(name, help).expect("valid metric");
    registry
        .register(Box::new(metric.clone()))
        .expect("metric registered once");
    metric
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// Register every metric in a fresh registry.
    pub fn new() -> Self {
        let registry = Registry::new();
        let requests = counter_vec(
            &registry,
            "edge_requests_total",
            "Client requests by cache status and route class",
            &["cache", "route"],
        );
        let origin_requests = counter_vec(
            &registry,
            "edge_origin_requests_total",
            "Requests sent to origins, by origin and status class",
            &["origin", "status"],
        );
        let origin_latency = HistogramVec::new(
            HistogramOpts::new(
                "edge_origin_response_seconds",
                "Time from sending a request to an origin to its response header",
            )
            .buckets(vec![
                0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ]),
            &["origin"],
        )
        .expect("valid metric");
        registry
            .register(Box::new(origin_latency.clone()))
            .expect("metric registered once");
        let coalesced_waits = IntCounter::new(
            "edge_coalesced_waits_total",
            "Requests that waited for another request's fill instead of asking the origin",
        )
        .expect("valid metric");
        registry
            .register(Box::new(coalesced_waits.clone()))
            .expect("metric registered once");
        let stale_served = counter_vec(
            &registry,
            "edge_stale_served_total",
            "Stale responses served, by reason",
            &["reason"],
        );
        let purges = counter_vec(
            &registry,
            "edge_purges_total",
            "Purges applied, by kind, mode and source",
            &["kind", "mode", "source"],
        );
        let rate_limited = counter_vec(
            &registry,
            "edge_rate_limited_total",
            "Requests refused with 429, by path",
            &["path"],
        );
        let evictions = gauge(
            &registry,
            "edge_cache_evictions_total",
            "Objects evicted for space",
        );
        let aborted_writes = gauge(
            &registry,
            "edge_cache_aborted_writes_total",
            "Cache fills abandoned mid-body or refused for size (nothing stored)",
        );
        let cache_bytes = gauge(&registry, "edge_cache_bytes", "Bytes stored in the cache");
        let cache_items = gauge(&registry, "edge_cache_items", "Objects stored in the cache");
        let origin_up = IntGaugeVec::new(
            Opts::new(
                "edge_origin_up",
                "1 when the origin passes its health check",
            ),
            &["origin"],
        )
        .expect("valid metric");
        registry
            .register(Box::new(origin_up.clone()))
            .expect("metric registered once");
        let staged_pending = gauge(
            &registry,
            "edge_staged_pending",
            "Staged successors whose boundary is still ahead",
        );
        let staged_applied = gauge(
            &registry,
            "edge_staged_applied_total",
            "Staged successors whose boundary passed (applied), since start",
        );
        let staged_installed = gauge(
            &registry,
            "edge_staged_installed_total",
            "Cache objects installed from staged successors at lookups, since start",
        );
        let staged_next_boundary = prometheus::Gauge::new(
            "edge_staged_next_boundary_seconds",
            "The next pending staged boundary, Unix seconds (0 when none is pending)",
        )
        .expect("valid metric");
        registry
            .register(Box::new(staged_next_boundary.clone()))
            .expect("metric registered once");
        let connections_closed = counter_vec(
            &registry,
            "edge_client_connections_closed_total",
            "Client connections closed before a request, by reason (client_limit, header_timeout)",
            &["reason"],
        );
        let client_connections = gauge(
            &registry,
            "edge_client_connections",
            "Client connections open on the public listeners (counted ones: loopback only with --limit-loopback)",
        );
        Self {
            registry,
            requests,
            request_counters: Default::default(),
            origin_requests,
            origin_latency,
            coalesced_waits,
            stale_served,
            purges,
            rate_limited,
            evictions,
            aborted_writes,
            cache_bytes,
            cache_items,
            origin_up,
            staged_pending,
            staged_applied,
            staged_installed,
            staged_next_boundary,
            connections_closed,
            client_connections,
            live: Live::default(),
        }
    }

    /// Copy the staged successors' figures into their gauges.
    pub fn set_staged(&self, figures: &crate::staged::StagedFigures) {
        let clamp = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        self.staged_pending.set(clamp(figures.pending as u64));
        self.staged_applied.set(clamp(figures.applied_total));
        self.staged_installed.set(clamp(figures.installed_total));
        self.staged_next_boundary.set(
            figures
                .next_boundary_ms
                .map_or(0.0, |ms| ms as f64 / 1000.0),
        );
    }

    /// Count one client request in `edge_requests_total` without hashing its labels.
    pub fn count_request(&self, cache: &str, route: RouteClass) {
        let Some(label) = REQUEST_LABELS.iter().position(|l| *l == cache) else {
            self.requests
                .with_label_values(&[cache, route.as_str()])
                .inc();
            return;
        };
        let route_at = route_index(route);
        self.request_counters[label][route_at]
            .get_or_init(|| {
                self.requests
                    .with_label_values(&[REQUEST_LABELS[label], ROUTES[route_at].as_str()])
            })
            .inc();
    }

    /// Count one client request for the live plots.
    pub fn observe_request(&self, hit: bool) {
        self.live.requests.fetch_add(1, Ordering::Relaxed);
        if hit {
            self.live.hits.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Count one origin response for the live plots and the histogram.
    pub fn observe_origin(&self, origin: &str, status: u16, latency: Duration) {
        self.live.origin_requests.fetch_add(1, Ordering::Relaxed);
        let class = match status {
            100..=199 => "1xx",
            200..=299 => "2xx",
            300..=399 => "3xx",
            400..=499 => "4xx",
            _ => "5xx",
        };
        self.origin_requests
            .with_label_values(&[origin, class])
            .inc();
        self.origin_latency
            .with_label_values(&[origin])
            .observe(latency.as_secs_f64());
        let mut samples = self
            .live
            .origin_latency_us
            .lock()
            .expect("latency lock poisoned");
        if samples.len() < 100_000 {
            samples.push(u32::try_from(latency.as_micros()).unwrap_or(u32::MAX));
        }
    }

    /// Count a miss for "most missed URLs".
    pub fn observe_miss(&self, url: &str) {
        let mut missed = self.live.missed.lock().expect("missed lock poisoned");
        if let Some(count) = missed.get_mut(url) {
            *count += 1;
            return;
        }
        if missed.len() >= MISSED_CAPACITY {
            // Forget the URLs missed only once so far to make room.
            missed.retain(|_, count| *count > 1);
            if missed.len() >= MISSED_CAPACITY {
                missed.clear();
            }
        }
        missed.insert(url.to_string(), 1);
    }

    /// The `n` most missed URLs with their counts.
    pub fn most_missed(&self, n: usize) -> Vec<(String, u64)> {
        let missed = self.live.missed.lock().expect("missed lock poisoned");
        let mut list: Vec<(String, u64)> = missed.iter().map(|(u, c)| (u.clone(), *c)).collect();
        list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        list.truncate(n);
        list
    }

    /// Take one second's sample (called every second by the sampler task).
    pub fn sample(&self, unix_secs: u64, cache_bytes: u64, cache_items: u64) {
        let requests = self.live.requests.load(Ordering::Relaxed);
        let hits = self.live.hits.load(Ordering::Relaxed);
        let origin = self.live.origin_requests.load(Ordering::Relaxed);
        let (d_req, d_hit, d_origin) = {
            let mut last = self.live.last.lock().expect("sample lock poisoned");
            let delta = (
                requests.saturating_sub(last.0),
                hits.saturating_sub(last.1),
                origin.saturating_sub(last.2),
            );
            *last = (requests, hits, origin);
            delta
        };
        let mut samples = std::mem::take(
            &mut *self
                .live
                .origin_latency_us
                .lock()
                .expect("latency lock poisoned"),
        );
        samples.sort_unstable();
        let point = Point {
            t: unix_secs,
            hit_ratio: (d_req > 0).then(|| d_hit as f64 / d_req as f64),
            rps: d_req,
            hits: d_hit,
            origin_rps: d_origin,
            origin_p50_ms: percentile(&samples, 0.50),
            origin_p99_ms: percentile(&samples, 0.99),
            cache_bytes,
            cache_items,
        };
        let mut series = self.live.series.lock().expect("series lock poisoned");
        series.push_back(point);
        while series.len() > HISTORY {
            series.pop_front();
        }
    }

    /// The sampled history, oldest first.
    pub fn series(&self) -> Vec<Point> {
        self.live
            .series
            .lock()
            .expect("series lock poisoned")
            .iter()
            .cloned()
            .collect()
    }

    /// The latest sampled second, if any.
    pub fn last_point(&self) -> Option<Point> {
        self.live
            .series
            .lock()
            .expect("series lock poisoned")
            .back()
            .cloned()
    }

    /// Client requests, cache hits and origin requests since start.
    pub fn totals(&self) -> (u64, u64, u64) {
        (
            self.live.requests.load(Ordering::Relaxed),
            self.live.hits.load(Ordering::Relaxed),
            self.live.origin_requests.load(Ordering::Relaxed),
        )
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        TextEncoder::new()
            .encode(&self.registry.gather(), &mut out)
            .expect("text encoding into a Vec cannot fail");
        String::from_utf8(out).expect("the text encoder writes UTF-8")
    }
}

/// Nearest-rank percentile of sorted microsecond samples, in milliseconds.
fn percentile(sorted_us: &[u32], q: f64) -> Option<f64> {
    if sorted_us.is_empty() {
        return None;
    }
    let rank = ((q * sorted_us.len() as f64).ceil() as usize).clamp(1, sorted_us.len());
    Some(f64::from(sorted_us[rank - 1]) / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let samples: Vec<u32> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(percentile(&samples, 0.5), Some(50.0));
        assert_eq!(percentile(&samples, 0.99), Some(99.0));
        assert_eq!(percentile(&[], 0.5), None);
    }

    #[test]
    fn samples_are_per_second_deltas() {
        let m = Metrics::new();
        m.observe_request(true);
        m.observe_request(false);
        m.observe_origin("o", 200, Duration::from_millis(3));
        m.sample(1, 10, 1);
        m.observe_request(true);
        m.sample(2, 10, 1);
        let s = m.series();
        assert_eq!(s[0].rps, 2);
        assert_eq!(s[0].hit_ratio, Some(0.5));
        assert_eq!(s[0].origin_p50_ms, Some(3.0));
        assert_eq!(s[1].rps, 1);
        assert_eq!(s[1].origin_rps, 0);
        assert!(m.render().contains("edge_origin_requests_total"));
    }

    #[test]
    fn request_counts_by_label_and_route() {
        let m = Metrics::new();
        m.count_request("HIT", RouteClass::Page);
        m.count_request("HIT", RouteClass::Page);
        m.count_request("MISS", RouteClass::Image);
        m.count_request("OTHER", RouteClass::Api);
        let text = m.render();
        assert!(text.contains("edge_requests_total{cache=\"HIT\",route=\"page\"} 2"));
        assert!(text.contains("edge_requests_total{cache=\"MISS\",route=\"image\"} 1"));
        assert!(text.contains("edge_requests_total{cache=\"OTHER\",route=\"api\"} 1"));
        // Only the pairs seen are listed.
        assert!(!text.contains("cache=\"STALE\""));
        for (i, route) in ROUTES.iter().enumerate() {
            assert_eq!(route_index(*route), i);
        }
    }

    #[test]
    fn most_missed_orders_by_count() {
        let m = Metrics::new();
        for url in ["/a", "/b", "/b", "/c", "/c", "/c"] {
            m.observe_miss(url);
        }
        assert_eq!(m.most_missed(2), vec![("/c".into(), 3), ("/b".into(), 2)]);
    }
}
