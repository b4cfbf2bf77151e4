//! Command line and environment: every flag has an `EDGE_*` variable, and Pingora's own
//! flags (`--daemon`, `--upgrade`, `--test`, `--conf`) are flattened in.

use clap::Parser;
use pingora::server::configuration::Opt;

/// The shop's edge cache (Pingora) in front of the origin.
#[derive(Debug, Parser)]
#[command(name = "edge", version, about)]
pub struct Config {
    /// Public plain-HTTP listener.
    #[arg(long, env = "EDGE_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Admin listener: the dashboard, /metrics, purge.
    #[arg(long, env = "EDGE_ADMIN", default_value = "127.0.0.1:9080")]
    pub admin: String,
    /// Origins, comma-separated (`http://host:port`).
    #[arg(
        long,
        env = "EDGE_ORIGIN",
        default_value = "http://127.0.0.1:8081",
        value_delimiter = ','
    )]
    pub origin: Vec<String>,
    /// Public TLS listener (HTTP/2 and HTTP/1.1); needs --tls-cert and --tls-key.
    #[arg(long, env = "EDGE_TLS_LISTEN")]
    pub tls_listen: Option<String>,
    /// PEM certificate chain for the TLS listener.
    #[arg(long, env = "EDGE_TLS_CERT")]
    pub tls_cert: Option<String>,
    /// PEM private key for the TLS listener.
    #[arg(long, env = "EDGE_TLS_KEY")]
    pub tls_key: Option<String>,
    /// Cache size bound in bytes (bodies, headers and bookkeeping).
    #[arg(long, env = "EDGE_CACHE_BYTES", default_value_t = 512 * 1024 * 1024)]
    pub cache_bytes: usize,
    /// Largest object stored, in bytes; larger responses pass through.
    #[arg(long, env = "EDGE_MAX_OBJECT_BYTES", default_value_t = 8 * 1024 * 1024)]
    pub max_object_bytes: usize,
    /// Bearer token required by purge calls; purging is refused when unset.
    #[arg(long, env = "EDGE_PURGE_TOKEN", hide_env_values = true)]
    pub purge_token: Option<String>,
    /// Admin URLs of the other edges of the deployment; every purge is pushed to them.
    #[arg(long, env = "EDGE_PEERS", value_delimiter = ',')]
    pub peers: Vec<String>,
    /// Seconds given to open connections to finish after SIGTERM.
    #[arg(long, env = "EDGE_GRACE_PERIOD", default_value_t = 5)]
    pub grace_period: u64,
    /// Path the origin health check asks for (any status below 500 is healthy).
    #[arg(long, env = "EDGE_HEALTH_PATH", default_value = "/")]
    pub health_path: String,
    /// Milliseconds between health checks of each origin.
    #[arg(long, env = "EDGE_HEALTH_INTERVAL_MS", default_value_t = 1000)]
    pub health_interval_ms: u64,
    /// Seconds to wait for an origin's response before giving up (504).
    #[arg(long, env = "EDGE_ORIGIN_TIMEOUT", default_value_t = 10)]
    pub origin_timeout: u64,
    /// Milliseconds an idle keep-alive connection to an origin is kept for reuse. Below the
    /// origin's own keep-alive timeout (Node and Apache close idle connections after 5 s),
    /// so the edge drops a connection before the origin would, instead of racing it.
    #[arg(long, env = "EDGE_ORIGIN_IDLE_TIMEOUT_MS", default_value_t = 4000)]
    pub origin_idle_timeout_ms: u64,
    /// Milliseconds a client has to send a whole request head (request line and header
    /// fields): from the connection's start (after TLS) for its first request, from the
    /// first byte of a later one on a kept-alive connection. A connection whose head is not
    /// whole by then is closed (with a 408 if part of it came), so slow-header (slowloris)
    /// clients cannot hold connections. HTTP/1 only (HTTP/2 is Pingora's). 0: no deadline,
    /// Pingora's 60 s per read only.
    #[arg(long, env = "EDGE_HEADER_TIMEOUT_MS", default_value_t = 10_000)]
    pub header_timeout_ms: u64,
    /// Connections one client may hold open on the public listeners together (an IPv4
    /// address; an IPv6 /64); one more is closed as it arrives. Above what one browser
    /// opens many times over, as shoppers on a mobile network share their carrier's
    /// addresses (CGNAT). 0: no cap.
    #[arg(long, env = "EDGE_MAX_CONNECTIONS_PER_CLIENT", default_value_t = 256)]
    pub max_connections_per_client: usize,
    /// Cap loopback clients too. Off by default: a loopback client is a program on this
    /// machine (the load tests, with up to 1,000 connections; a TLS terminator or proxy in
    /// front, behind which every shopper has its address).
    #[arg(long, env = "EDGE_LIMIT_LOOPBACK")]
    pub limit_loopback: bool,
    /// Seconds a request waits for another request's fill of the same object.
    #[arg(long, env = "EDGE_LOCK_TIMEOUT", default_value_t = 5)]
    pub lock_timeout: u64,
    /// Sensitive calls allowed per client address per window.
    #[arg(long, env = "EDGE_RATE_LIMIT", default_value_t = 10)]
    pub rate_limit: isize,
    /// Rate-limit window in seconds.
    #[arg(long, env = "EDGE_RATE_WINDOW", default_value_t = 60)]
    pub rate_window: u64,
    /// Host names served, comma-separated; other `Host` values get 421 without reaching
    /// the origin or the cache. `*`: every host. Default: the host of --site-url,
    /// `localhost` and `127.0.0.1`.
    #[arg(long, env = "EDGE_HOSTS", value_delimiter = ',')]
    pub hosts: Vec<String>,
    /// The shop's public address (the origin's SITE_URL): its host is served by default.
    #[arg(long, env = "SITE_URL")]
    pub site_url: Option<String>,
    /// Directory where staged successors (`POST /stage`) are kept, so an edge restarted
    /// before or across a boundary still has them. Unset: kept in memory only.
    #[arg(long, env = "EDGE_STAGED_DIR")]
    pub staged_dir: Option<String>,
    /// Shift this edge's clock for staged boundaries by this many milliseconds (ahead when
    /// positive). For tests of edges whose clocks disagree; hidden from --help.
    #[arg(
        long,
        env = "EDGE_CLOCK_OFFSET_MS",
        default_value_t = 0,
        allow_negative_numbers = true,
        hide = true
    )]
    pub clock_offset_ms: i64,
    /// Worker threads per listener (0: one per CPU).
    #[arg(long, env = "EDGE_THREADS", default_value_t = 0)]
    pub threads: usize,
    /// Pingora's own flags.
    #[command(flatten)]
    pub pingora: Opt,
}

impl Config {
    /// Check the combinations clap cannot.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.tls_listen.is_some() && (self.tls_cert.is_none() || self.tls_key.is_none()) {
            anyhow::bail!("--tls-listen needs --tls-cert and --tls-key");
        }
        if self.origin.is_empty() {
            anyhow::bail!("--origin needs at least one URL");
        }
        if self.max_object_bytes > self.cache_bytes / 4 {
            anyhow::bail!("--max-object-bytes must be at most a quarter of --cache-bytes");
        }
        Ok(())
    }
}
