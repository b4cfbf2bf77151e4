//! Test helpers: a small real HTTP origin whose answers each test controls and which counts
//! what it receives, and a real edge process in front of it, both on random loopback ports.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::TcpListener as StdListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A request as the origin saw it.
#[derive(Debug, Clone)]
pub struct SeenRequest {
    pub method: String,
    /// Path and query.
    pub target: String,
    /// Lower-cased names.
    pub headers: HashMap<String, String>,
}

impl SeenRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

/// What the origin answers.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
    /// Send the full `content-length` but only this many body bytes, then hang up.
    pub truncate_at: Option<usize>,
}

impl Reply {
    pub fn new(status: u16, body: impl Into<Vec<u8>>) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
            truncate_at: None,
        }
    }
    /// A page as the shop's origin sends it: public for a minute, a day at the edge.
    pub fn page(body: impl Into<Vec<u8>>, tags: &str) -> Self {
        Self::new(200, body)
            .header("content-type", "text/html; charset=utf-8")
            .header("cache-control", "public, max-age=60")
            .header(
                "cdn-cache-control",
                "max-age=86400, stale-while-revalidate=60, stale-if-error=86400",
            )
            .header("surrogate-key", tags)
    }
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }
    pub fn delay(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
    /// Hang up after `bytes` of the body (the origin dying mid-response).
    pub fn truncate_at(mut self, bytes: usize) -> Self {
        self.truncate_at = Some(bytes);
        self
    }
}

type Handler = Arc<dyn Fn(&SeenRequest) -> Reply + Send + Sync>;

/// The test origin.
pub struct Origin {
    pub port: u16,
    seen: Arc<Mutex<Vec<SeenRequest>>>,
    count: Arc<AtomicUsize>,
    task: JoinHandle<()>,
    conns: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Origin {
    pub async fn start(handler: impl Fn(&SeenRequest) -> Reply + Send + Sync + 'static) -> Self {
        Self::start_on(0, handler).await
    }

    pub async fn start_on(
        port: u16,
        handler: impl Fn(&SeenRequest) -> Reply + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(port, None, handler).await
    }

    /// An origin that closes a keep-alive connection idle for `idle` (as Node's
    /// `keepAliveTimeout`, Apache's `KeepAliveTimeout` or nginx's `keepalive_timeout` do),
    /// always in the worst case: the close is decided when the next request arrives, which
    /// is read and never answered (the race of a request sent just as the timer fires).
    pub async fn start_closing_idle(
        idle: Duration,
        handler: impl Fn(&SeenRequest) -> Reply + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(0, Some(idle), handler).await
    }

    async fn start_with(
        port: u16,
        idle: Option<Duration>,
        handler: impl Fn(&SeenRequest) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", port)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let handler: Handler = Arc::new(handler);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let count = Arc::new(AtomicUsize::new(0));
        let conns: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::new(Mutex::new(Vec::new()));
        let task = {
            let (seen, count, conns) = (seen.clone(), count.clone(), conns.clone());
            tokio::spawn(async move {
                loop {
                    let Ok((stream, _)) = listener.accept().await else {
                        return;
                    };
                    let (handler, seen, count) = (handler.clone(), seen.clone(), count.clone());
                    let conn = tokio::spawn(async move {
                        let _ = serve_conn(stream, handler, seen, count, idle).await;
                    });
                    conns.lock().unwrap().push(conn);
                }
            })
        };
        Self {
            port,
            seen,
            count,
            task,
            conns,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Requests received, health checks excluded.
    pub fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Requests received for one path, health checks excluded.
    pub fn count_path(&self, path: &str) -> usize {
        self.seen().iter().filter(|r| r.path() == path).count()
    }

    pub fn seen(&self) -> Vec<SeenRequest> {
        self.seen.lock().unwrap().clone()
    }

    /// Stop listening and drop every open connection.
    pub fn stop(&self) {
        self.task.abort();
        for conn in self.conns.lock().unwrap().drain(..) {
            conn.abort();
        }
    }
}

impl Drop for Origin {
    fn drop(&mut self) {
        self.stop();
    }
}

async fn serve_conn(
    stream: tokio::net::TcpStream,
    handler: Handler,
    seen: Arc<Mutex<Vec<SeenRequest>>>,
    count: Arc<AtomicUsize>,
    idle: Option<Duration>,
) -> std::io::Result<()> {
    // Head and body go in two writes: without this, Nagle holds the body until the edge's
    // delayed ACK of the head, some 40 ms per answer.
    stream.set_nodelay(true)?;
    let (read, mut write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let mut last_answer: Option<Instant> = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        if let (Some(idle), Some(last)) = (idle, last_answer) {
            if last.elapsed() >= idle {
                // Idle too long: hang up without an answer.
                return Ok(());
            }
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or("").to_string();
        let target = parts.next().unwrap_or("").to_string();
        let mut headers = HashMap::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).await? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
            }
        }
        if let Some(len) = headers
            .get("content-length")
            .and_then(|v| v.parse::<usize>().ok())
        {
            let mut body = vec![0; len];
            reader.read_exact(&mut body).await?;
        }
        let req = SeenRequest {
            method,
            target,
            headers,
        };
        let health = req.header("user-agent") == Some("edge-health");
        let reply = if health {
            Reply::new(200, "ok")
        } else {
            count.fetch_add(1, Ordering::SeqCst);
            seen.lock().unwrap().push(req.clone());
            handler(&req)
        };
        if !reply.delay.is_zero() {
            tokio::time::sleep(reply.delay).await;
        }
        let mut head = format!("HTTP/1.1 {} X\r\n", reply.status);
        for (k, v) in &reply.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        let body: &[u8] = if req.method == "HEAD" || reply.status == 304 {
            &[]
        } else {
            &reply.body
        };
        if reply.status != 304 {
            head.push_str(&format!("content-length: {}\r\n", reply.body.len()));
        }
        head.push_str("\r\n");
        write.write_all(head.as_bytes()).await?;
        if let Some(cut) = reply.truncate_at {
            write.write_all(&body[..cut.min(body.len())]).await?;
            write.flush().await?;
            return Ok(());
        }
        write.write_all(body).await?;
        write.flush().await?;
        last_answer = Some(Instant::now());
    }
}

/// A free loopback port (bound and released).
pub fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub const TOKEN: &str = "test-purge-token";

/// A running edge process.
pub struct Edge {
    pub port: u16,
    pub admin_port: u16,
    child: Child,
}

impl Edge {
    pub async fn start(origins: &[String], extra: &[&str]) -> Self {
        Self::start_with_ports(free_port(), free_port(), origins, extra).await
    }

    pub async fn start_with_ports(
        port: u16,
        admin_port: u16,
        origins: &[String],
        extra: &[&str],
    ) -> Self {
        Self::start_with_env(port, admin_port, origins, extra, &[]).await
    }

    /// With settings in `EDGE_*` variables as well as flags.
    pub async fn start_with_env(
        port: u16,
        admin_port: u16,
        origins: &[String],
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> Self {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_edge"));
        cmd.envs(env.iter().copied());
        cmd.args([
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--admin",
            &format!("127.0.0.1:{admin_port}"),
            "--origin",
            &origins.join(","),
            "--purge-token",
            TOKEN,
            "--threads",
            "2",
            "--health-interval-ms",
            "200",
        ])
        .args(extra)
        .env("RUST_LOG", "warn")
        .env("EDGE_GRACE_PERIOD", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(if std::env::var_os("EDGE_TEST_LOG").is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        });
        let child = cmd.spawn().expect("start the edge binary");
        let edge = Self {
            port,
            admin_port,
            child,
        };
        edge.wait_ready().await;
        edge
    }

    async fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(15);
        let client = client();
        while Instant::now() < deadline {
            let admin = client.get(self.admin("/healthz")).send().await;
            let proxy = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await;
            if admin.is_ok_and(|r| r.status() == 200) && proxy.is_ok() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("edge did not start");
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn admin(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.admin_port)
    }

    pub async fn purge(&self, body: serde_json::Value) -> serde_json::Value {
        let resp = client()
            .post(self.admin("/purge"))
            .bearer_auth(TOKEN)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        resp.json().await.unwrap()
    }

    pub async fn stats(&self) -> serde_json::Value {
        client()
            .get(self.admin("/stats"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// The admin listener's Prometheus text.
    pub async fn metrics_text(&self) -> String {
        client()
            .get(self.admin("/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    pub async fn metric(&self, name: &str) -> f64 {
        self.metrics_text()
            .await
            .lines()
            .filter(|l| l.starts_with(name) && !l.starts_with('#'))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Wait up to `within` for the process to exit; returns whether it did.
    pub fn wait_exit(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Edge {
    fn drop(&mut self) {
        self.stop();
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// GET and return (status, x-cache, body).
pub async fn get(url: &str) -> (u16, String, String) {
    get_with(url, &[]).await
}

pub async fn get_with(url: &str, headers: &[(&str, &str)]) -> (u16, String, String) {
    let resp = send(url, headers).await;
    let status = resp.status().as_u16();
    let x_cache = resp
        .headers()
        .get("x-cache")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, x_cache, resp.text().await.unwrap())
}

pub async fn send(url: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = client().get(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.unwrap()
}

/// Poll `check` until it holds or `within` passes.
pub async fn eventually(within: Duration, mut check: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if check() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    check()
}
