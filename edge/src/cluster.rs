//! The cluster view: this edge's figures summed with every `--peers` edge's.
//!
//! Each edge publishes its own figures at `GET /stats/self` on its admin listener. One
//! background task per peer fetches them every second (the dashboard's refresh rate) with
//! a short timeout and keeps the last answer; the admin listener's `/stats` only reads
//! what is kept, so a slow or dead peer never delays it, and the request path never sees
//! any of it. A peer whose last fetch failed is down and left out of the sum, which says
//! how many edges it covers.

use crate::purge::unix_ms;
use crate::State;
use async_trait::async_trait;
use pingora::server::ShutdownWatch;
use pingora::services::background::BackgroundService;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// How often a peer is asked, and the dashboard's refresh rate.
pub const POLL_INTERVAL: Duration = Duration::from_secs(1);
/// How long a peer has to answer.
pub const POLL_TIMEOUT: Duration = Duration::from_millis(500);

/// One edge's figures: the last sampled second's rates, the cache size, and totals since
/// start.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    /// Client requests per second.
    pub rps: u64,
    /// Cache hits per second.
    pub hits_ps: u64,
    /// Origin requests per second.
    pub origin_rps: u64,
    /// Bytes stored in the cache.
    pub cache_bytes: u64,
    /// Client requests since start.
    pub requests_total: u64,
    /// Cache hits since start.
    pub hits_total: u64,
    /// Origin requests since start.
    pub origin_requests_total: u64,
}

impl Figures {
    /// This edge's figures now.
    pub fn own(state: &State) -> Self {
        let last = state.metrics.last_point();
        let (requests_total, hits_total, origin_requests_total) = state.metrics.totals();
        Self {
            rps: last.as_ref().map_or(0, |p| p.rps),
            hits_ps: last.as_ref().map_or(0, |p| p.hits),
            origin_rps: last.as_ref().map_or(0, |p| p.origin_rps),
            cache_bytes: state.storage.bytes() as u64,
            requests_total,
            hits_total,
            origin_requests_total,
        }
    }

    fn add(&mut self, other: &Self) {
        self.rps += other.rps;
        self.hits_ps += other.hits_ps;
        self.origin_rps += other.origin_rps;
        self.cache_bytes += other.cache_bytes;
        self.requests_total += other.requests_total;
        self.hits_total += other.hits_total;
        self.origin_requests_total += other.origin_requests_total;
    }
}

/// What this edge knows of one peer.
#[derive(Debug, Clone, Serialize)]
pub struct PeerState {
    /// The peer's admin base URL.
    pub url: String,
    /// Its last fetch succeeded.
    pub up: bool,
    /// When it last answered (Unix ms).
    pub last_seen_ms: Option<u64>,
    /// Why the last fetch failed.
    pub error: Option<String>,
    /// Its figures at its last answer.
    pub figures: Option<Figures>,
}

/// The peers' last known states.
pub struct Cluster {
    peers: Vec<Mutex<PeerState>>,
}

/// The peers' admin URLs: `--peers` without blanks, trimmed.
pub fn peer_urls(peers: &[String]) -> Vec<String> {
    peers
        .iter()
        .map(|p| p.trim().trim_end_matches('/').to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

impl Cluster {
    /// No peer seen yet.
    pub fn new(peers: &[String]) -> Self {
        Self {
            peers: peer_urls(peers)
                .into_iter()
                .map(|url| {
                    Mutex::new(PeerState {
                        url,
                        up: false,
                        last_seen_ms: None,
                        error: None,
                        figures: None,
                    })
                })
                .collect(),
        }
    }

    /// How many peers.
    pub fn len(&self) -> usize {
        self.peers.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.peers.is_empty()
    }

    /// Every peer's state.
    pub fn peers(&self) -> Vec<PeerState> {
        self.peers
            .iter()
            .map(|p| p.lock().expect("peer lock poisoned").clone())
            .collect()
    }

    fn record(&self, index: usize, result: Result<Figures, String>) {
        let mut peer = self.peers[index].lock().expect("peer lock poisoned");
        match result {
            Ok(figures) => {
                peer.up = true;
                peer.last_seen_ms = Some(unix_ms(SystemTime::now()));
                peer.error = None;
                peer.figures = Some(figures);
            }
            Err(error) => {
                peer.up = false;
                peer.error = Some(error);
            }
        }
    }

    /// The cluster: `own` plus every peer that is up, the hit ratio of the sum, how many
    /// edges the sum covers, and every peer's state.
    pub fn view(&self, own: &Figures) -> serde_json::Value {
        let peers = self.peers();
        let mut sum = own.clone();
        let mut covered = 1;
        for peer in peers.iter().filter(|p| p.up) {
            if let Some(figures) = &peer.figures {
                sum.add(figures);
                covered += 1;
            }
        }
        let hit_ratio = (sum.rps > 0).then(|| sum.hits_ps as f64 / sum.rps as f64);
        let total_hit_ratio =
            (sum.requests_total > 0).then(|| sum.hits_total as f64 / sum.requests_total as f64);
        serde_json::json!({
            "edges": covered,
            "of": peers.len() + 1,
            "sum": sum,
            "hit_ratio": hit_ratio,
            "total_hit_ratio": total_hit_ratio,
            "peers": peers,
        })
    }
}

/// Fetches one peer's figures every [`POLL_INTERVAL`].
pub struct PeerWatcher {
    /// Everything shared.
    pub state: &'static State,
    /// The peer's index in [`State::cluster`].
    pub index: usize,
}

async fn fetch(client: &reqwest::Client, url: &str) -> Result<Figures, String> {
    let resp = client.get(url).send().await.map_err(|e| e.to_string())?;
    if !resp.status().is_success() {
        return Err(format!("status {}", resp.status()));
    }
    resp.json::<Figures>().await.map_err(|e| e.to_string())
}

#[async_trait]
impl BackgroundService for PeerWatcher {
    async fn start(&self, mut shutdown: ShutdownWatch) {
        let client = match reqwest::Client::builder().timeout(POLL_TIMEOUT).build() {
            Ok(client) => client,
            Err(e) => {
                tracing::error!(cause = %e, "cannot build the peer HTTP client");
                return;
            }
        };
        let cluster = &self.state.cluster;
        let url = format!(
            "{}/stats/self",
            cluster.peers[self.index]
                .lock()
                .expect("peer lock poisoned")
                .url
        );
        let mut interval = tokio::time::interval(POLL_INTERVAL);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = interval.tick() => {}
                _ = shutdown.changed() => return,
            }
            let result = fetch(&client, &url).await;
            if let Err(e) = &result {
                tracing::debug!(peer = %url, cause = %e, "peer figures unavailable");
            }
            cluster.record(self.index, result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(rps: u64, hits_ps: u64, cache_bytes: u64) -> Figures {
        Figures {
            rps,
            hits_ps,
            origin_rps: rps - hits_ps,
            cache_bytes,
            requests_total: rps * 10,
            hits_total: hits_ps * 10,
            origin_requests_total: (rps - hits_ps) * 10,
        }
    }

    #[test]
    fn the_sum_covers_the_peers_that_are_up() {
        let cluster = Cluster::new(&[" http://a:1/ ".into(), "".into(), "http://b:2".into()]);
        assert_eq!(cluster.len(), 2);
        assert_eq!(cluster.peers()[0].url, "http://a:1");
        cluster.record(0, Ok(figures(10, 9, 100)));
        cluster.record(1, Err("refused".into()));
        let view = cluster.view(&figures(30, 21, 50));
        assert_eq!(
            (view["edges"].as_u64(), view["of"].as_u64()),
            (Some(2), Some(3))
        );
        assert_eq!(view["sum"]["rps"], 40);
        assert_eq!(view["sum"]["hits_ps"], 30);
        assert_eq!(view["sum"]["cache_bytes"], 150);
        assert_eq!(view["hit_ratio"], 0.75);
        assert_eq!(view["peers"][0]["up"], true);
        assert_eq!(view["peers"][1]["up"], false);
        assert!(view["peers"][1]["last_seen_ms"].is_null());
        // A peer that stops answering keeps its last-seen time but leaves the sum.
        cluster.record(0, Err("timeout".into()));
        let view = cluster.view(&figures(30, 21, 50));
        assert_eq!(view["edges"], 1);
        assert_eq!(view["sum"]["rps"], 30);
        assert!(view["peers"][0]["last_seen_ms"].is_u64());
    }
}
