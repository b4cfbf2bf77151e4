//! The shop's edge cache, built on Pingora.
//!
//! [`run`] wires the parts: the cache (`cache::storage` with an LRU eviction manager, a
//! cache lock and a predictor), the proxy (`proxy::Edge`), the origin pool with health
//! checks (`upstream`), purges and their broadcast to peers (`purge`, `peers`), rate
//! limits (`ratelimit`), the client connections' caps and header deadline
//! (`connections`), staged successors switched in at a boundary (`staged`), the hosts
//! served (`hosts`), metrics and the ops dashboard on the admin listener (`metrics`,
//! `admin`, `dashboard`), with the cluster's figures fetched from the peers (`cluster`).

pub mod admin;
pub mod cache;
pub mod cluster;
pub mod config;
pub mod connections;
pub mod dashboard;
pub mod hosts;
pub mod metrics;
pub mod peers;
pub mod proxy;
pub mod purge;
pub mod ratelimit;
pub mod staged;
pub mod upstream;

use crate::cache::storage::{Eviction, MemoryStorage, Selector};
use crate::config::Config;
use crate::metrics::Metrics;
use crate::purge::{from_unix_ms, unix_ms, Mode, PurgeRequest, PurgeRules};
use crate::ratelimit::RateLimiter;
use crate::upstream::{HealthChecker, Pool};
use anyhow::Context;
use async_trait::async_trait;
use pingora::cache::lock::{CacheKeyLockImpl, CacheLock};
use pingora::cache::predictor::Predictor;
use pingora::listeners::{L4BufferSettings, ListenerConfig};
use pingora::server::configuration::ServerConf;
use pingora::server::{Server, ShutdownWatch};
use pingora::services::background::{background_service, BackgroundService};
use pingora::services::listening::Service;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// Settings the request path reads.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The cache bound in bytes.
    pub cache_bytes: usize,
    /// Largest stored object.
    pub max_object_bytes: usize,
    /// How long a request waits on another's fill.
    pub lock_timeout: Duration,
    /// Origin read/write timeout.
    pub origin_timeout: Duration,
    /// How long an idle origin connection is kept for reuse.
    pub origin_idle_timeout: Duration,
    /// The purge bearer token.
    pub purge_token: Option<String>,
    /// The hosts served.
    pub hosts: hosts::Hosts,
    /// The other edges' admin URLs (`--peers`).
    pub peers: Vec<String>,
    /// The public listeners' connection limits.
    pub connections: connections::Limits,
}

/// Everything shared by the listeners and background tasks, created once and leaked.
pub struct State {
    /// Settings.
    pub settings: Settings,
    /// The cache storage.
    pub storage: &'static MemoryStorage,
    /// Its eviction manager.
    pub eviction: &'static Eviction,
    /// Remembers keys whose responses were not cacheable, so they skip the cache lock.
    pub predictor: &'static Predictor<32>,
    /// Coalesces concurrent misses.
    pub cache_lock: &'static CacheKeyLockImpl,
    /// Purge rules and log.
    pub purges: PurgeRules,
    /// Metrics.
    pub metrics: &'static Metrics,
    /// Origins.
    pub pool: &'static Pool,
    /// Rate limits.
    pub limiter: RateLimiter,
    /// The peers' last known figures, for the dashboard.
    pub cluster: cluster::Cluster,
    /// Staged successors waiting for (or past) their boundary.
    pub staged: &'static staged::Staged,
    /// Open connections per client on the public listeners.
    pub connections: connections::ClientCounts,
    purge_ids: AtomicU64,
}

/// Origin errors (5xx) are transient: do not remember such keys as uncacheable, or a
/// failing origin would push every later request past the cache lock.
fn skip_transient(reason: &'static str) -> bool {
    reason == "status"
}

impl State {
    /// Build the shared state from the configuration.
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let eviction: &'static Eviction =
            Box::leak(Box::new(Eviction::with_capacity(config.cache_bytes, 8192)));
        let storage: &'static MemoryStorage = Box::leak(Box::new(MemoryStorage::new(
            eviction,
            config.max_object_bytes,
        )));
        let predictor: &'static Predictor<32> =
            Box::leak(Box::new(Predictor::new(256, Some(skip_transient))));
        let lock_timeout = Duration::from_secs(config.lock_timeout.max(1));
        let cache_lock: &'static CacheKeyLockImpl = Box::leak(CacheLock::new_boxed(lock_timeout));
        let pool: &'static Pool = Box::leak(Box::new(Pool::new(&config.origin)?));
        let metrics: &'static Metrics = Box::leak(Box::new(Metrics::new()));
        let staged: &'static staged::Staged = Box::leak(Box::new(staged::Staged::new(
            staged::Clock::new(config.clock_offset_ms),
            storage,
            config.max_object_bytes,
            config.staged_dir.as_ref().map(std::path::PathBuf::from),
        )));
        Ok(Self {
            settings: Settings {
                cache_bytes: config.cache_bytes,
                max_object_bytes: config.max_object_bytes,
                lock_timeout,
                origin_timeout: Duration::from_secs(config.origin_timeout.max(1)),
                origin_idle_timeout: Duration::from_millis(config.origin_idle_timeout_ms.max(1)),
                purge_token: config.purge_token.clone(),
                hosts: hosts::Hosts::new(&config.hosts, config.site_url.as_deref())?,
                peers: config
                    .peers
                    .iter()
                    .map(|p| p.trim().to_string())
                    .filter(|p| !p.is_empty())
                    .collect(),
                connections: connections::Limits {
                    header_timeout: (config.header_timeout_ms > 0)
                        .then(|| Duration::from_millis(config.header_timeout_ms)),
                    per_client: (config.max_connections_per_client > 0)
                        .then_some(config.max_connections_per_client),
                    limit_loopback: config.limit_loopback,
                },
            },
            storage,
            eviction,
            predictor,
            cache_lock,
            purges: PurgeRules::new(),
            metrics,
            pool,
            limiter: RateLimiter::new(
                config.rate_limit,
                Duration::from_secs(config.rate_window.max(1)),
            ),
            cluster: cluster::Cluster::new(&config.peers),
            staged,
            connections: connections::ClientCounts::default(),
            purge_ids: AtomicU64::new(0),
        })
    }

    /// Apply a purge: record its rules, free what a hard purge names, log it. Returns the
    /// log sequence number and the objects matched, or `None` if this purge id was already
    /// applied (a peer sent it again).
    pub fn apply_purge(&self, mut request: PurgeRequest, source: &str) -> Option<(u64, usize)> {
        let now = SystemTime::now();
        let at = request.at_ms.map_or(now, |ms| from_unix_ms(ms).min(now));
        if request.id.is_none() {
            let n = self.purge_ids.fetch_add(1, Ordering::Relaxed);
            request.id = Some(format!("{}-{}-{n}", std::process::id(), unix_ms(now)));
        }
        request.at_ms = Some(unix_ms(at));
        if !self.purges.record(&request, at) {
            return None;
        }
        let mut selectors: Vec<Selector<'_>> = Vec::new();
        if request.all {
            selectors.push(Selector::All);
        } else {
            selectors.extend(request.tags.iter().map(|t| Selector::Tag(t)));
        }
        let url_ids: Vec<String> = request
            .urls
            .iter()
            .map(|u| purge::purge_url_id(u))
            .collect();
        if !request.all {
            selectors.extend(url_ids.iter().map(|u| Selector::Url(u)));
        }
        let matched = selectors
            .iter()
            .map(|s| match request.mode() {
                Mode::Hard => self.storage.remove_matching(*s),
                Mode::Soft => self.storage.count_matching(*s),
            })
            .sum();
        // A purge drops the successors staged for what it names too, pending or applied,
        // soft or hard: they were rendered before what the purge says changed.
        let staged_dropped: usize = selectors.iter().map(|s| self.staged.purge(*s)).sum();
        self.metrics
            .purges
            .with_label_values(&[request.kind(), request.mode().as_str(), source])
            .inc();
        tracing::info!(
            kind = request.kind(),
            mode = request.mode().as_str(),
            source,
            matched,
            staged_dropped,
            tags = ?request.tags,
            urls = ?request.urls,
            "purge applied"
        );
        let seq = self.purges.append(request, source, matched);
        Some((seq, matched))
    }

    /// Copy the storage's figures into the gauges.
    pub fn refresh_gauges(&self) {
        let clamp = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
        self.metrics.cache_bytes.set(clamp(self.storage.bytes()));
        self.metrics.cache_items.set(clamp(self.storage.items()));
        self.metrics
            .evictions
            .set(clamp(self.storage.evicted_items()));
        self.metrics
            .aborted_writes
            .set(i64::try_from(self.storage.aborted_writes()).unwrap_or(i64::MAX));
        self.metrics.set_staged(&self.staged.figures());
        self.metrics
            .client_connections
            .set(clamp(self.connections.total()));
    }
}

/// Samples the metrics every second for the dashboard.
struct Sampler {
    state: &'static State,
}

#[async_trait]
impl BackgroundService for Sampler {
    async fn start(&self, mut shutdown: ShutdownWatch) {
        let mut interval = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                _ = interval.tick() => {}
                _ = shutdown.changed() => return,
            }
            self.state.refresh_gauges();
            let now = unix_ms(SystemTime::now()) / 1000;
            self.state.metrics.sample(
                now,
                self.state.storage.bytes() as u64,
                self.state.storage.items() as u64,
            );
        }
    }
}

/// Client connection buffers (plain and TLS listener). Pingora's default write buffer
/// (1,460 bytes) holds a response header but not a page, so every cached page went out in
/// two `send`s: the header alone, then the body. A buffer that holds a typical page sends
/// both in one (over TLS: its records in one `send` instead of one or more each).
fn client_buffers() -> L4BufferSettings {
    L4BufferSettings::default().write(CLIENT_WRITE_BUFFER)
}

/// See [`client_buffers`]: header and body of pages up to this size leave in one `send`.
const CLIENT_WRITE_BUFFER: usize = 64 * 1024;

/// Run the edge until it is told to stop (SIGTERM: graceful, SIGINT: fast).
pub fn run(config: Config) -> anyhow::Result<()> {
    config.validate()?;
    let state: &'static State = Box::leak(Box::new(State::new(&config)?));

    let mut conf = ServerConf::default();
    if config.threads > 0 {
        conf.threads = config.threads;
    } else {
        conf.threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    }
    conf.grace_period_seconds = Some(config.grace_period);
    conf.graceful_shutdown_timeout_seconds = Some(config.grace_period);
    conf.pid_file = std::env::temp_dir()
        .join(format!("edge-{}.pid", std::process::id()))
        .to_string_lossy()
        .into_owned();
    conf.upgrade_sock = std::env::temp_dir()
        .join(format!("edge-upgrade-{}.sock", std::process::id()))
        .to_string_lossy()
        .into_owned();
    let mut server = Server::new_with_opt_and_conf(
        Some(pingora::server::configuration::Opt {
            upgrade: config.pingora.upgrade,
            daemon: config.pingora.daemon,
            nocapture: config.pingora.nocapture,
            test: config.pingora.test,
            conf: config.pingora.conf.clone(),
        }),
        conf,
    );
    server.bootstrap();

    // Each public listener's application is Pingora's proxy inside the connection guard.
    let server_conf = server.configuration.clone();
    let guarded = |tls: bool| {
        let proxy = pingora::proxy::http_proxy(&server_conf, proxy::Edge { state, tls });
        connections::Guard::new(proxy, state, state.settings.connections)
    };
    let mut proxy = Service::new("edge".to_string(), guarded(false));
    proxy.add_listener(ListenerConfig::tcp(&config.listen).l4_buffer(client_buffers()));
    server.add_service(proxy);

    if let Some(tls_listen) = &config.tls_listen {
        let cert = config.tls_cert.as_deref().context("--tls-cert")?;
        let key = config.tls_key.as_deref().context("--tls-key")?;
        let mut tls = Service::new("edge-tls".to_string(), guarded(true));
        let mut settings = pingora::listeners::tls::TlsSettings::intermediate(cert, key)
            .map_err(|e| anyhow::anyhow!("TLS certificate {cert} / key {key}: {e}"))?;
        settings.enable_h2();
        tls.add_listener(
            ListenerConfig::tcp(tls_listen)
                .tls(settings)
                .l4_buffer(client_buffers()),
        );
        server.add_service(tls);
    }

    let mut admin = Service::new("edge-admin".to_string(), admin::Admin { state });
    admin.add_tcp(&config.admin);
    server.add_service(admin);

    server.add_service(background_service(
        "origin-health",
        HealthChecker {
            pool: state.pool,
            metrics: state.metrics,
            path: config.health_path.clone(),
            interval: Duration::from_millis(config.health_interval_ms.max(50)),
        },
    ));
    server.add_service(background_service("metrics-sampler", Sampler { state }));
    let hosts = state.settings.hosts.clone();
    let loaded = state.staged.load(|host| hosts.serves(host));
    if loaded > 0 {
        tracing::info!(loaded, "staged successors read back from --staged-dir");
    }
    server.add_service(background_service(
        "staged-successors",
        staged::Scheduler {
            staged: state.staged,
        },
    ));
    for peer in config.peers.iter().filter(|p| !p.trim().is_empty()) {
        server.add_service(background_service(
            "purge-broadcast",
            peers::PeerPusher {
                state,
                peer: peer.trim().to_string(),
            },
        ));
    }
    for index in 0..state.cluster.len() {
        server.add_service(background_service(
            "peer-figures",
            cluster::PeerWatcher { state, index },
        ));
    }
    tracing::info!(listen = %config.listen, admin = %config.admin, origins = ?config.origin, "edge starting");
    server.run_forever()
}
