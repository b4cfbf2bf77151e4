//! Staged successors (issue 17): a response that becomes a URL's current response at a given
//! instant, the boundary (a flash sale's start or end), so that the edge switches to the next
//! prices at that instant without asking the origin.
//!
//! `POST /stage` on the admin listener (bearer token, as purge) takes the boundary and the
//! responses (URL, status, header fields, body, tags; one response per content coding). They
//! wait here, beside whatever the cache holds for the URL now. From the boundary on:
//!
//! - a lookup of the URL in a coding that has a successor installs the successor in the cache
//!   under the request's key (replacing an entry stored before the boundary) and is answered
//!   from it as a hit: the switch happens on the first lookup at or after the boundary, never
//!   before, with no origin request ([`Staged::install_due`], called by the proxy before it
//!   looks at the cache);
//! - a background task wakes at each boundary, counts the successors applied, and removes
//!   what the cache stored for those URLs before the boundary in codings and hosts that have
//!   no successor, so no old answer outlives the boundary ([`Scheduler`]).
//!
//! A successor is the URL's answer until its own freshness ends (counted from the boundary,
//! its `Date`); then it is dropped and the cache's normal rules apply. A purge naming the URL,
//! one of its tags or everything drops its successors (pending or applied) as well as the
//! stored responses. A successor staged with a boundary already past is applied at once: that
//! is also what an edge that was down across a boundary does with the successors it is sent
//! again, and with those it kept in `--staged-dir` (read back on start).
//!
//! Clocks: the boundary is an absolute time (Unix milliseconds), so edges switch together as
//! far as their clocks agree (NTP keeps hosts within milliseconds). The hidden flag
//! `--clock-offset-ms` shifts this edge's clock for everything here, so tests can run an edge
//! whose clock is wrong.

use crate::cache::date;
use crate::cache::key::{cache_key, url_id, RouteClass};
use crate::cache::policy::{self, Freshness, RequestFacts, Verdict};
use crate::cache::storage::{MemoryStorage, Selector, URL_HEADER};
use crate::hosts::NormalHost;
use async_trait::async_trait;
use base64::Engine;
use bytes::Bytes;
use http::{HeaderName, HeaderValue};
use negotiate::Coding;
use pingora::cache::CacheMeta;
use pingora::http::ResponseHeader;
use pingora::server::ShutdownWatch;
use pingora::services::background::BackgroundService;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Responses in one `POST /stage`.
pub const MAX_RESPONSES: usize = 10_000;
/// How far ahead a boundary may be.
pub const MAX_AHEAD: Duration = Duration::from_secs(7 * 86_400);
/// Largest `POST /stage` body.
pub const MAX_STAGE_BODY: usize = 64 << 20;

/// Fields a staged response never keeps: hop-by-hop ones (RFC 9110 §7.6.1), framing (the
/// edge sets `Content-Length` from the body) and `Age` (a successor's age counts from its
/// boundary).
const DROPPED_FIELDS: [&str; 11] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "upgrade",
    "proxy-authenticate",
    "proxy-authorization",
    "trailer",
    "transfer-encoding",
    "content-length",
    "age",
];

/// This edge's clock for boundaries: the system clock plus `--clock-offset-ms`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clock {
    offset_ms: i64,
}

impl Clock {
    /// A clock `offset_ms` ahead of the system's (behind when negative).
    pub fn new(offset_ms: i64) -> Self {
        Self { offset_ms }
    }

    /// Now, by this clock.
    pub fn now(&self) -> SystemTime {
        self.from_system(SystemTime::now())
    }

    /// A system time read on this clock.
    pub fn from_system(&self, t: SystemTime) -> SystemTime {
        shift(t, self.offset_ms)
    }

    /// The system time at which this clock shows `t`.
    pub fn to_system(&self, t: SystemTime) -> SystemTime {
        shift(t, -self.offset_ms)
    }
}

fn shift(t: SystemTime, ms: i64) -> SystemTime {
    let by = Duration::from_millis(ms.unsigned_abs());
    if ms >= 0 {
        t + by
    } else {
        t.checked_sub(by).unwrap_or(UNIX_EPOCH)
    }
}

fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The body of `POST /stage`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StageRequest {
    /// The boundary: Unix milliseconds at which the responses become current.
    pub at_ms: u64,
    /// The responses, one per URL and content coding.
    pub responses: Vec<StagedResponse>,
}

/// One staged response.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StagedResponse {
    /// Path and query (`/p/sofa`, `/api/home/flash-sales?x=1`); the query is normalised as the
    /// cache key's.
    pub url: String,
    /// Only for this host (as clients send it, port included unless the default); absent:
    /// every host the edge serves.
    #[serde(default)]
    pub host: Option<String>,
    /// The status (default 200).
    #[serde(default = "default_status")]
    pub status: u16,
    /// Header fields as `[name, value]` pairs, in order; `Content-Encoding` names the body's
    /// coding (none: identity). Must give the edge freshness (`Cache-Control`,
    /// `CDN-Cache-Control`...), counted from the boundary.
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    /// Surrogate keys (added to any `Surrogate-Key` field in `headers`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// The body as text.
    #[serde(default)]
    pub body: Option<String>,
    /// The body in standard base64 (for compressed variants); instead of `body`.
    #[serde(default)]
    pub body_base64: Option<String>,
}

fn default_status() -> u16 {
    200
}

/// A successor, checked and ready to install.
#[derive(Debug)]
struct Successor {
    /// The boundary, compared with this edge's clock.
    at: SystemTime,
    /// The URL id (path and normalised query), as the cache key and purges name it.
    url: String,
    /// The host's normal form ([`NormalHost`]), when only one host gets it.
    host: Option<String>,
    coding: Coding,
    header: ResponseHeader,
    body: Bytes,
    tags: Vec<String>,
    freshness: Freshness,
    /// The boundary plus the freshness lifetime (this edge's clock).
    fresh_until: SystemTime,
    /// Counted as applied (its boundary passed).
    applied: std::sync::atomic::AtomicBool,
    /// The file it is kept in under `--staged-dir`.
    file: Option<PathBuf>,
}

impl Successor {
    fn for_host(&self, host: &NormalHost) -> bool {
        self.host.as_deref().is_none_or(|h| h == host.as_str())
    }

    fn matches(&self, selector: Selector<'_>) -> bool {
        match selector {
            Selector::All => true,
            Selector::Url(url) => self.url == url,
            Selector::Tag(tag) => self.tags.iter().any(|t| t == tag),
        }
    }

    /// The cache meta the installed object gets: fresh from the boundary for its lifetime,
    /// aged from the boundary.
    fn meta(&self, clock: Clock) -> CacheMeta {
        let mut header = self.header.clone();
        header
            .insert_header(URL_HEADER, &self.url)
            .expect("a checked URL is a valid header value");
        let epoch = clock.to_system(self.at);
        let mut meta = CacheMeta::new(
            clock.to_system(self.fresh_until),
            SystemTime::now(),
            self.freshness.stale_while_revalidate,
            self.freshness.stale_if_error,
            header,
        );
        meta.set_epoch_override(epoch);
        meta
    }
}

/// Why a staging is refused (400).
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

/// The figures `/metrics` and the dashboard show.
#[derive(Debug, Clone, Copy, Serialize, Default, PartialEq, Eq)]
pub struct StagedFigures {
    /// Successors whose boundary is still ahead.
    pub pending: usize,
    /// Successors whose boundary passed, since start.
    pub applied_total: u64,
    /// Objects installed in the cache from successors (one per key that asked), since start.
    pub installed_total: u64,
    /// The next boundary (Unix ms, this edge's clock), if any is pending.
    pub next_boundary_ms: Option<u64>,
}

/// Every staged successor of this edge.
pub struct Staged {
    clock: Clock,
    storage: &'static MemoryStorage,
    max_object_bytes: usize,
    dir: Option<PathBuf>,
    /// By URL id; each list holds the successors of that URL (codings, hosts, boundaries).
    by_url: RwLock<HashMap<String, Vec<Arc<Successor>>>>,
    /// Successors held: the proxy's lookup does nothing while it is 0.
    held: AtomicUsize,
    applied: AtomicU64,
    installed: AtomicU64,
    files: AtomicU64,
    /// Woken when a successor is staged (the scheduler may have a nearer boundary).
    pub wake: tokio::sync::Notify,
}

impl Staged {
    /// An empty set of successors for `storage`, kept in `dir` if given.
    pub fn new(
        clock: Clock,
        storage: &'static MemoryStorage,
        max_object_bytes: usize,
        dir: Option<PathBuf>,
    ) -> Self {
        Self {
            clock,
            storage,
            max_object_bytes,
            dir,
            by_url: RwLock::new(HashMap::new()),
            held: AtomicUsize::new(0),
            applied: AtomicU64::new(0),
            installed: AtomicU64::new(0),
            files: AtomicU64::new(0),
            wake: tokio::sync::Notify::new(),
        }
    }

    /// This edge's clock for boundaries.
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// Check and keep every response of a staging (all or none). `serves` says whether a
    /// named host is one this edge serves. Returns how many were staged.
    pub fn stage(
        &self,
        request: &StageRequest,
        serves: impl Fn(&NormalHost) -> bool,
    ) -> Result<usize, Refusal> {
        self.stage_unless(request, serves, |_, _| false)
    }

    /// [`Self::stage`], leaving out the responses `superseded` says a later purge covers (by
    /// URL id and tags): a staging pushed by a peer may arrive after a purge that the first
    /// edge applied after it, and must not bring back what that purge dropped.
    pub fn stage_unless(
        &self,
        request: &StageRequest,
        serves: impl Fn(&NormalHost) -> bool,
        superseded: impl Fn(&str, &[Box<str>]) -> bool,
    ) -> Result<usize, Refusal> {
        let now = self.clock.now();
        let at = UNIX_EPOCH + Duration::from_millis(request.at_ms);
        if request.at_ms == 0 || at > now + MAX_AHEAD {
            return Err(Refusal(
                "at_ms must be a Unix time in milliseconds at most 7 days ahead".into(),
            ));
        }
        if request.responses.is_empty() || request.responses.len() > MAX_RESPONSES {
            return Err(Refusal(format!(
                "responses must hold 1 to {MAX_RESPONSES} responses"
            )));
        }
        let mut checked = Vec::with_capacity(request.responses.len());
        for (i, response) in request.responses.iter().enumerate() {
            let successor = self
                .check(at, response, &serves)
                .and_then(|s| {
                    if s.fresh_until > now {
                        Ok(s)
                    } else {
                        Err(Refusal("its freshness from the boundary has ended".into()))
                    }
                })
                .map_err(|e| Refusal(format!("responses[{i}] ({}): {}", response.url, e.0)))?;
            checked.push(successor);
        }
        checked.retain(|s| {
            let tags: Vec<Box<str>> = s.tags.iter().map(|t| Box::from(t.as_str())).collect();
            !superseded(&s.url, &tags)
        });
        let staged = checked.len();
        for mut successor in checked {
            if let Some(dir) = &self.dir {
                successor.file = self.save(dir, request.at_ms, &successor);
            }
            self.keep(Arc::new(successor));
        }
        self.wake.notify_one();
        Ok(staged)
    }

    /// Check one response and build its successor.
    fn check(
        &self,
        at: SystemTime,
        response: &StagedResponse,
        serves: &impl Fn(&NormalHost) -> bool,
    ) -> Result<Successor, Refusal> {
        let refuse = |m: &str| Err(Refusal(m.to_string()));
        let url = response.url.trim();
        if !url.starts_with('/')
            || url.len() > 8192
            || url
                .bytes()
                .any(|b| b.is_ascii_whitespace() || b.is_ascii_control())
            || url.contains('#')
        {
            return refuse("url must be a path (and query) starting with /");
        }
        let (path, query) = match url.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (url, None),
        };
        let url = url_id(path, query);
        let host = match response.host.as_deref().map(NormalHost::parse) {
            Some(Err(e)) => return refuse(&format!("host: {e}")),
            Some(Ok(host)) if !serves(&host) => return refuse("host is not one this edge serves"),
            Some(Ok(host)) => Some(host.as_str().to_string()),
            None => None,
        };
        if !(200..=599).contains(&response.status) {
            return refuse("status must be a final status (200-599)");
        }
        let body = match (&response.body, &response.body_base64) {
            (Some(text), None) => Bytes::from(text.clone().into_bytes()),
            (None, Some(encoded)) => {
                match base64::engine::general_purpose::STANDARD.decode(encoded) {
                    Ok(bytes) => Bytes::from(bytes),
                    Err(_) => return refuse("body_base64 is not standard base64"),
                }
            }
            (None, None) => Bytes::new(),
            (Some(_), Some(_)) => return refuse("give body or body_base64, not both"),
        };
        if body.len() > self.max_object_bytes {
            return refuse("body is larger than --max-object-bytes");
        }
        let mut header = ResponseHeader::build(response.status, Some(response.headers.len() + 4))
            .map_err(|_| Refusal("status".into()))?;
        for (name, value) in &response.headers {
            let Ok(name) = HeaderName::from_bytes(name.trim().as_bytes()) else {
                return refuse("a header name is not a valid field name");
            };
            let Ok(value) = HeaderValue::from_str(value.trim()) else {
                return refuse("a header value is not a valid field value");
            };
            if DROPPED_FIELDS.contains(&name.as_str()) {
                continue;
            }
            header
                .append_header(name, value)
                .map_err(|_| Refusal("header".into()))?;
        }
        let mut tags: Vec<String> = header
            .headers
            .get_all("surrogate-key")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split_ascii_whitespace())
            .map(str::to_string)
            .collect();
        for tag in &response.tags {
            if tag.is_empty() || tag.bytes().any(|b| !b.is_ascii_graphic()) {
                return refuse("a tag must be printable ASCII without spaces");
            }
            if !tags.contains(tag) {
                tags.push(tag.clone());
            }
        }
        if !tags.is_empty() {
            header
                .insert_header("surrogate-key", tags.join(" "))
                .map_err(|_| Refusal("tags".into()))?;
        }
        let coding = match header
            .headers
            .get(http::header::CONTENT_ENCODING)
            .map(|v| v.to_str().unwrap_or("?").trim().to_ascii_lowercase())
            .as_deref()
        {
            None | Some("identity") => Coding::Identity,
            Some("br") => Coding::Brotli,
            Some("gzip") | Some("x-gzip") => Coding::Gzip,
            Some(_) => return refuse("Content-Encoding must be br, gzip or none"),
        };
        if policy::vary_names(&header.headers)
            .iter()
            .any(|name| name != "accept-encoding")
        {
            return refuse(
                "a staged response varies on Accept-Encoding only (stage one per coding)",
            );
        }
        // Dated at the boundary unless it says otherwise (RFC 9110 §6.6.1): the generator
        // renders it with the boundary as now.
        if !header.headers.contains_key(http::header::DATE) {
            header
                .insert_header(http::header::DATE, date::format(at))
                .map_err(|_| Refusal("date".into()))?;
        }
        header
            .insert_header(http::header::CONTENT_LENGTH, body.len())
            .map_err(|_| Refusal("length".into()))?;
        let facts = RequestFacts {
            authorization: false,
            heuristic: RouteClass::of(path) != RouteClass::Api,
        };
        let freshness = match policy::decide(
            response.status,
            &header.headers,
            facts,
            self.max_object_bytes,
            at,
        ) {
            Verdict::Store(freshness) if !freshness.ttl.is_zero() => freshness,
            Verdict::Store(_) => return refuse("the response is not fresh at its boundary"),
            Verdict::Refuse(reason) => {
                return Err(Refusal(format!("the edge would not store it ({reason})")))
            }
        };
        Ok(Successor {
            at,
            url,
            host,
            coding,
            header,
            body,
            tags,
            fresh_until: at + freshness.ttl,
            freshness,
            applied: std::sync::atomic::AtomicBool::new(false),
            file: None,
        })
    }

    /// Keep a successor, replacing one staged before for the same URL, coding, host and
    /// boundary (a repeat of the same staging).
    fn keep(&self, successor: Arc<Successor>) {
        let mut by_url = self.by_url.write().expect("staged lock poisoned");
        let list = by_url.entry(successor.url.clone()).or_default();
        if let Some(old) = list.iter().position(|s| {
            s.at == successor.at && s.coding == successor.coding && s.host == successor.host
        }) {
            let old = list.swap_remove(old);
            remove_file(&old);
        } else {
            self.held.fetch_add(1, Ordering::Relaxed);
        }
        list.push(successor);
    }

    /// Called by the proxy before it looks at the cache for a `GET`/`HEAD` of `url` in
    /// `coding` from `host`: if a successor's boundary has passed and the cache holds nothing
    /// stored since, install the successor (the latest due one) under the request's key.
    /// One atomic load when nothing is staged.
    pub fn install_due(&self, host: &NormalHost, url: &str, coding: Coding) {
        if self.held.load(Ordering::Relaxed) == 0 {
            return;
        }
        let now = self.clock.now();
        let successor = {
            let by_url = self.by_url.read().expect("staged lock poisoned");
            let Some(list) = by_url.get(url) else {
                return;
            };
            let Some(successor) = list
                .iter()
                .filter(|s| s.coding == coding && s.at <= now && s.fresh_until > now)
                .filter(|s| s.for_host(host))
                .max_by_key(|s| s.at)
            else {
                return;
            };
            successor.clone()
        };
        let key = cache_key(host, url, coding);
        let current = self
            .storage
            .stored_at(&key)
            .map(|t| self.clock.from_system(t));
        if current.is_some_and(|stored| stored >= successor.at) {
            return;
        }
        self.count_applied(&successor);
        match self
            .storage
            .put(&key, &successor.meta(self.clock), successor.body.clone())
        {
            Ok(()) => {
                self.installed.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => tracing::warn!(url, cause = %e, "staged successor not installed"),
        }
    }

    fn count_applied(&self, successor: &Successor) {
        if !successor.applied.swap(true, Ordering::Relaxed) {
            self.applied.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// At a boundary: count the due successors applied, remove what the cache stored for
    /// their URLs before their boundaries (the lookups install the successors), and drop
    /// successors whose freshness ended or that a later due one replaced. Returns the next
    /// pending boundary.
    pub fn tick(&self) -> Option<SystemTime> {
        let now = self.clock.now();
        let mut newly_due: Vec<(String, SystemTime)> = Vec::new();
        let mut dropped = Vec::new();
        let mut next: Option<SystemTime> = None;
        {
            let mut by_url = self.by_url.write().expect("staged lock poisoned");
            by_url.retain(|url, list| {
                for s in list.iter() {
                    if s.at <= now && !s.applied.load(Ordering::Relaxed) {
                        self.count_applied(s);
                        newly_due.push((url.clone(), s.at));
                    }
                }
                let latest_due = |s: &Successor| {
                    list.iter()
                        .filter(|o| {
                            o.at <= now && o.coding == s.coding && o.host == s.host && o.at > s.at
                        })
                        .count()
                        == 0
                };
                let keep: Vec<bool> = list
                    .iter()
                    .map(|s| s.at > now || (s.fresh_until > now && latest_due(s)))
                    .collect();
                let mut i = 0;
                list.retain(|s| {
                    let k = keep[i];
                    i += 1;
                    if !k {
                        dropped.push(s.clone());
                    }
                    k
                });
                for s in list.iter().filter(|s| s.at > now) {
                    next = Some(next.map_or(s.at, |n| n.min(s.at)));
                }
                !list.is_empty()
            });
        }
        self.held.fetch_sub(dropped.len(), Ordering::Relaxed);
        for s in &dropped {
            remove_file(s);
        }
        let mut before: HashMap<String, SystemTime> = HashMap::new();
        for (url, at) in newly_due {
            let at = self.clock.to_system(at);
            let entry = before.entry(url).or_insert(at);
            *entry = (*entry).max(at);
        }
        self.storage.remove_stored_before(&before);
        next
    }

    /// Drop the successors a purge selects; returns how many.
    pub fn purge(&self, selector: Selector<'_>) -> usize {
        let mut dropped = Vec::new();
        {
            let mut by_url = self.by_url.write().expect("staged lock poisoned");
            match selector {
                Selector::Url(url) => {
                    if let Some(list) = by_url.remove(url) {
                        dropped.extend(list);
                    }
                }
                _ => by_url.retain(|_, list| {
                    list.retain(|s| {
                        if s.matches(selector) {
                            dropped.push(s.clone());
                            false
                        } else {
                            true
                        }
                    });
                    !list.is_empty()
                }),
            }
        }
        self.held.fetch_sub(dropped.len(), Ordering::Relaxed);
        for s in &dropped {
            remove_file(s);
        }
        dropped.len()
    }

    /// The figures for `/metrics` and the dashboard.
    pub fn figures(&self) -> StagedFigures {
        let now = self.clock.now();
        let by_url = self.by_url.read().expect("staged lock poisoned");
        let pending = by_url.values().flatten().filter(|s| s.at > now);
        let (count, next) = pending.fold((0, None::<SystemTime>), |(n, next), s| {
            (n + 1, Some(next.map_or(s.at, |t| t.min(s.at))))
        });
        StagedFigures {
            pending: count,
            applied_total: self.applied.load(Ordering::Relaxed),
            installed_total: self.installed.load(Ordering::Relaxed),
            next_boundary_ms: next.map(unix_ms),
        }
    }

    /// What is held, for `GET /staged`: URL, coding, host, boundary, whether applied.
    pub fn list(&self, limit: usize) -> Vec<serde_json::Value> {
        let by_url = self.by_url.read().expect("staged lock poisoned");
        let mut all: Vec<&Arc<Successor>> = by_url.values().flatten().collect();
        all.sort_by_key(|s| (s.at, s.url.clone()));
        all.into_iter()
            .take(limit)
            .map(|s| {
                serde_json::json!({
                    "url": s.url,
                    "coding": s.coding.token(),
                    "host": s.host,
                    "at_ms": unix_ms(s.at),
                    "fresh_until_ms": unix_ms(s.fresh_until),
                    "applied": s.applied.load(Ordering::Relaxed),
                    "tags": s.tags,
                    "bytes": s.body.len(),
                })
            })
            .collect()
    }

    /// Keep a successor in `dir` (one file each: the staging that made it, with this one
    /// response), so an edge restarted before or across its boundary still has it.
    fn save(&self, dir: &Path, at_ms: u64, successor: &Successor) -> Option<PathBuf> {
        let n = self.files.fetch_add(1, Ordering::Relaxed);
        let name = format!(
            "{at_ms}-{}-{}-{n}.json",
            std::process::id(),
            unix_ms(SystemTime::now())
        );
        let mut headers: Vec<(String, String)> = successor
            .header
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        headers.retain(|(k, _)| k != "content-length");
        let request = StageRequest {
            at_ms,
            responses: vec![StagedResponse {
                url: successor.url.clone(),
                host: successor.host.clone(),
                status: successor.header.status.as_u16(),
                headers,
                tags: Vec::new(),
                body: None,
                body_base64: Some(
                    base64::engine::general_purpose::STANDARD.encode(&successor.body),
                ),
            }],
        };
        let write = || -> std::io::Result<PathBuf> {
            std::fs::create_dir_all(dir)?;
            let path = dir.join(&name);
            let tmp = dir.join(format!(".{name}.tmp"));
            std::fs::write(&tmp, serde_json::to_vec(&request)?)?;
            std::fs::rename(&tmp, &path)?;
            Ok(path)
        };
        match write() {
            Ok(path) => Some(path),
            Err(e) => {
                tracing::warn!(dir = %dir.display(), cause = %e, "could not keep a staged successor on disk");
                None
            }
        }
    }

    /// Read back the successors kept in `--staged-dir` (on start). Those whose freshness
    /// ended are deleted; those whose boundary passed are applied at once. Returns how many.
    pub fn load(&self, serves: impl Fn(&NormalHost) -> bool) -> usize {
        let Some(dir) = self.dir.clone() else {
            return 0;
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return 0;
        };
        let now = self.clock.now();
        let mut loaded = 0;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let read = std::fs::read(&path)
                .ok()
                .and_then(|bytes| serde_json::from_slice::<StageRequest>(&bytes).ok());
            let Some(request) = read else {
                tracing::warn!(file = %path.display(), "unreadable staged successor, deleted");
                let _ = std::fs::remove_file(&path);
                continue;
            };
            let at = UNIX_EPOCH + Duration::from_millis(request.at_ms);
            let mut kept = false;
            for response in &request.responses {
                match self.check(at, response, &serves) {
                    Ok(mut successor) if successor.fresh_until > now => {
                        successor.file = Some(path.clone());
                        self.keep(Arc::new(successor));
                        kept = true;
                        loaded += 1;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::warn!(file = %path.display(), cause = %e.0, "staged successor refused on start")
                    }
                }
            }
            if !kept {
                let _ = std::fs::remove_file(&path);
            }
        }
        loaded
    }
}

fn remove_file(successor: &Successor) {
    if let Some(path) = &successor.file {
        let _ = std::fs::remove_file(path);
    }
}

/// Wakes at each boundary (and at least every second) to apply due successors.
pub struct Scheduler {
    /// The successors.
    pub staged: &'static Staged,
}

#[async_trait]
impl BackgroundService for Scheduler {
    async fn start(&self, mut shutdown: ShutdownWatch) {
        loop {
            let next = self.staged.tick();
            let clock = self.staged.clock();
            let wait = next
                .and_then(|at| at.duration_since(clock.now()).ok())
                .map_or(Duration::from_secs(1), |d| d.min(Duration::from_secs(1)));
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = self.staged.wake.notified() => {}
                _ = shutdown.changed() => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::storage::Eviction;

    fn staged(offset_ms: i64) -> &'static Staged {
        let eviction: &'static Eviction = Box::leak(Box::new(Eviction::with_capacity(1 << 20, 64)));
        let storage: &'static MemoryStorage =
            Box::leak(Box::new(MemoryStorage::new(eviction, 1 << 16)));
        Box::leak(Box::new(Staged::new(
            Clock::new(offset_ms),
            storage,
            1 << 16,
            None,
        )))
    }

    fn response(url: &str, tags: &[&str], headers: &[(&str, &str)]) -> StagedResponse {
        StagedResponse {
            url: url.into(),
            host: None,
            status: 200,
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            body: Some("new".into()),
            body_base64: None,
        }
    }

    fn request(at: SystemTime, responses: Vec<StagedResponse>) -> StageRequest {
        StageRequest {
            at_ms: unix_ms(at),
            responses,
        }
    }

    const FRESH: (&str, &str) = ("cache-control", "max-age=60");

    #[test]
    fn the_clock_shifts_both_ways() {
        let t = UNIX_EPOCH + Duration::from_secs(1000);
        let ahead = Clock::new(2000);
        assert_eq!(ahead.from_system(t), t + Duration::from_secs(2));
        assert_eq!(ahead.to_system(ahead.from_system(t)), t);
        let behind = Clock::new(-1500);
        assert_eq!(behind.from_system(t), t - Duration::from_millis(1500));
    }

    #[test]
    fn a_staging_is_checked_whole_and_a_repeat_replaces() {
        let staged = staged(0);
        let at = SystemTime::now() + Duration::from_secs(60);
        let good = response("/p/x?utm_source=a&b=1", &["product:1"], &[FRESH]);
        let bad = response("/p/y", &[], &[("cache-control", "no-store")]);
        let refused = staged.stage(&request(at, vec![good.clone(), bad]), |_| true);
        assert!(refused.unwrap_err().0.starts_with("responses[1] (/p/y)"));
        assert_eq!(staged.figures().pending, 0);
        assert_eq!(
            staged.stage(&request(at, vec![good.clone()]), |_| true),
            Ok(1)
        );
        assert_eq!(staged.stage(&request(at, vec![good]), |_| true), Ok(1));
        let figures = staged.figures();
        assert_eq!(figures.pending, 1);
        assert_eq!(figures.next_boundary_ms, Some(unix_ms(at)));
        let listed = staged.list(10);
        assert_eq!(listed[0]["url"], "/p/x?b=1");
        assert_eq!(listed[0]["tags"], serde_json::json!(["product:1"]));
        assert_eq!(staged.purge(Selector::Tag("product:1")), 1);
        assert_eq!(staged.figures().pending, 0);
    }

    #[test]
    fn a_due_successor_is_installed_once_per_key_and_a_stale_one_refused() {
        let staged = staged(0);
        let now = SystemTime::now();
        let past = now - Duration::from_secs(30);
        let mut gone = response("/gone", &[], &[("cache-control", "max-age=10")]);
        gone.headers.push(("date".into(), date::format(past)));
        let due = response("/due", &[], &[FRESH]);
        // Already past its freshness (30 s after a boundary with 10 s of it): refused.
        assert!(staged
            .stage(&request(past, vec![due.clone(), gone]), |_| true)
            .is_err());
        staged.stage(&request(past, vec![due]), |_| true).unwrap();
        let host = NormalHost::parse("shop.test").unwrap();
        staged.install_due(&host, "/due", Coding::Identity);
        staged.install_due(&host, "/due", Coding::Identity);
        staged.install_due(&host, "/due", Coding::Gzip);
        let figures = staged.figures();
        assert_eq!((figures.applied_total, figures.installed_total), (1, 1));
        assert!(staged
            .storage
            .stored_at(&cache_key(&host, "/due", Coding::Identity))
            .is_some());
        assert_eq!(staged.tick(), None);
        assert_eq!(staged.list(10).len(), 1);
        // One whose freshness ends soon is dropped at the first tick after.
        let brief = response("/brief", &[], &[("cache-control", "max-age=1")]);
        let half_ago = SystemTime::now() - Duration::from_millis(500);
        staged
            .stage(&request(half_ago, vec![brief]), |_| true)
            .unwrap();
        assert_eq!(staged.list(10).len(), 2);
        std::thread::sleep(Duration::from_millis(700));
        staged.tick();
        assert_eq!(staged.list(10).len(), 1);
        assert_eq!(staged.figures().applied_total, 2);
    }
}
