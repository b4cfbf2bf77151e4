//! The proxy: one [`Edge`] implementing Pingora's `ProxyHttp`, its filters in phase order,
//! per-request state in [`Ctx`]. Decisions live in small pure functions elsewhere
//! (`cache::key`, `cache::policy`, `cache::status`, `purge`, `ratelimit`); this file wires
//! them to the request's life.

use crate::cache::age;
use crate::cache::date;
use crate::cache::key::{cache_key, url_id, RouteClass};
use crate::cache::policy::{self, Freshness, RequestFacts, Verdict};
use crate::cache::status::{cache_status, CacheOutcome};
use crate::cache::storage::{MemoryHit, URL_HEADER};
use crate::hosts::{BadHost, NormalHost};
use crate::purge::Mode;
use crate::ratelimit;
use crate::State;
use async_trait::async_trait;
use bytes::Bytes;
use http::{HeaderName, HeaderValue};
use negotiate::Coding;
use pingora::cache::key::HashBinary;
use pingora::cache::{
    CacheKey, CacheMeta, CacheOptionOverrides, CachePhase, ForcedFreshness, HitHandler,
    NoCacheReason, RespCacheable, VarianceBuilder,
};
use pingora::http::{RequestHeader, ResponseHeader};
use pingora::proxy::{FailToProxy, ProxyHttp, RangeType, Session};
use pingora::upstreams::peer::HttpPeer;
use pingora::{Error, ErrorSource, ErrorType, Result, RetryType};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Request headers that must never reach the origin: they would let one visitor change
/// what the origin believes about the request (host, scheme, URL, method) without being
/// part of the cache key.
const UNKEYED_REQUEST_HEADERS: &[&str] = &[
    "x-forwarded-host",
    "x-forwarded-server",
    "x-forwarded-port",
    "x-forwarded-scheme",
    "x-forwarded-prefix",
    "x-host",
    "x-original-url",
    "x-original-host",
    "x-rewrite-url",
    "x-http-method-override",
    "x-http-method",
    "x-method-override",
    "forwarded",
];

/// Identity headers dropped from cacheable fills of non-API routes, so a public page can
/// never be rendered for one visitor and then served to all.
const IDENTITY_HEADERS: &[&str] = &["cookie", "self-token"];

/// Response headers for this edge only (parsed names: they are removed from every response).
const INTERNAL_RESPONSE_HEADERS: [HeaderName; 4] = [
    HeaderName::from_static("surrogate-key"),
    HeaderName::from_static("surrogate-control"),
    HeaderName::from_static("cdn-cache-control"),
    HeaderName::from_static(URL_HEADER),
];

/// Hop-by-hop response fields (RFC 9110 §7.6.1): for one connection only, so neither
/// stored nor forwarded. `Transfer-Encoding` is not stored either ([`stored_meta`]); on a
/// response on its way through, Pingora re-frames the client's connection by it.
const HOP_BY_HOP: [HeaderName; 8] = [
    http::header::CONNECTION,
    HeaderName::from_static("keep-alive"),
    HeaderName::from_static("proxy-connection"),
    http::header::TE,
    http::header::UPGRADE,
    http::header::PROXY_AUTHENTICATE,
    http::header::PROXY_AUTHORIZATION,
    http::header::TRAILER,
];

/// `Strict-Transport-Security` on every answer of the TLS listener: a year,
/// this host only (the shop's other hosts may not all have TLS).
pub const HSTS: &str = "max-age=31536000";

/// The edge's proxy logic.
pub struct Edge {
    /// Everything shared.
    pub state: &'static State,
    /// Whether this listener is the TLS one (for `X-Forwarded-Proto`).
    pub tls: bool,
}

/// Per-request state.
#[derive(Debug)]
pub struct Ctx {
    request_id: String,
    /// The request's host in its normal form: what the cache key and the hosts served use.
    host: NormalHost,
    route: RouteClass,
    url: String,
    /// The content coding the client prefers: part of the key, and what the fill asks for.
    encoding: Coding,
    /// A background revalidation, not a client request.
    subrequest: bool,
    tried: Vec<usize>,
    origin: Option<usize>,
    /// Retries after an error on an established origin connection ([`Edge::error_while_proxy`]).
    replays: usize,
    /// Retries after a reused keep-alive connection turned out closed by the origin.
    stale_reuses: usize,
    upstream_sent: Option<Instant>,
    refusal: Option<&'static str>,
    outcome: Option<CacheOutcome>,
    limited: bool,
    /// A sign-in the rate limit counted (client and path), given back when it
    /// succeeds ([`ratelimit::GIVEN_BACK_ON_SUCCESS`]).
    counted: Option<(std::net::IpAddr, String)>,
    /// The cache key, built once: by the fresh-hit path, or by Pingora's cache phase.
    key: Option<CacheKey>,
    /// The header fields of a `304` answering this request's revalidation, for
    /// [`updated_by_304`] (Pingora hands the cache filter the stored header merged with a
    /// few of them only).
    not_modified: Option<Box<http::HeaderMap>>,
}

static REQUEST_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The first half of every request id: the process start time in nanoseconds, hex.
static REQUEST_ID_PREFIX: LazyLock<String> = LazyLock::new(|| {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    format!("{nanos:016x}")
});

/// A new request id: the process start time and a process-wide counter, hex (unique
/// across restarts without a clock read or a formatter per request).
fn new_request_id() -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let n = REQUEST_COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut id = String::with_capacity(32);
    id.push_str(&REQUEST_ID_PREFIX);
    for shift in (0..16).rev().map(|i| i * 4) {
        id.push(char::from(HEX[((n >> shift) & 0xf) as usize]));
    }
    id
}

/// Accept a client's request id only when it is short and printable.
fn valid_request_id(id: &[u8]) -> bool {
    !id.is_empty() && id.len() <= 128 && id.iter().all(|b| b.is_ascii_graphic())
}

/// The request's host in its normal form: its `Host` field, or the HTTP/2 `:authority`
/// (Pingora has refused a request with two `Host` fields, userinfo, or a `Host` that differs
/// from the target's authority). An HTTP/1.1 request without either is refused too, as
/// RFC 9112 §3.2 asks; an HTTP/1.0 one has the empty host, which no name matches.
fn request_host(req: &RequestHeader) -> std::result::Result<NormalHost, BadHost> {
    match req.headers.get(http::header::HOST) {
        Some(value) => NormalHost::parse(value.to_str().map_err(|_| BadHost::Name)?),
        None => match req.uri.authority() {
            Some(authority) => NormalHost::parse(authority.as_str()),
            None if req.version == http::Version::HTTP_11 => Err(BadHost::Name),
            None => Ok(NormalHost::default()),
        },
    }
}

/// Remaining freshness of a stored object in whole seconds (negative when stale).
fn ttl_of(fresh_until: SystemTime, now: SystemTime) -> i64 {
    match fresh_until.duration_since(now) {
        Ok(left) => left.as_secs() as i64,
        Err(past) => -(past.duration().as_secs() as i64),
    }
}

/// What every response tells the client about the cache (`X-Cache`, `Cache-Status`, `Age`)
/// and its request id: one place for hits served by [`Edge::serve_fresh`] and for
/// everything Pingora's phases answer (which [`strip_internal`] as well).
fn client_headers(
    resp: &mut ResponseHeader,
    outcome: CacheOutcome,
    ttl: Option<i64>,
    ctx: &Ctx,
) -> Result<()> {
    resp.insert_header("x-cache", HeaderValue::from_static(outcome.label()))?;
    resp.insert_header("cache-status", cache_status(outcome, ttl, ctx.refusal))?;
    if !resp.headers.contains_key(http::header::AGE) {
        resp.insert_header(http::header::AGE, HeaderValue::from_static("0"))?;
    }
    resp.insert_header("x-request-id", &ctx.request_id)?;
    Ok(())
}

/// Placeholder names [`make_room`] inserts and removes again.
const ROOM: [&str; 4] = [
    "x-edge-room-1",
    "x-edge-room-2",
    "x-edge-room-3",
    "x-edge-room-4",
];

/// Give a fresh hit's prepared header spare room in its maps for the fields each hit
/// inserts (`Age`, `X-Cache`, `Cache-Status`, `X-Request-Id` replaced; `Connection` and,
/// over TLS, `Strict-Transport-Security` added). `HeaderMap` reserves room for one more
/// field before every insert, a replacement too, and a clone keeps the original's table
/// size: a prepared header that sat exactly at its load limit made every hit's clone grow
/// and rehash its maps (and allocate) on its first insert. Inserting these names and
/// removing them again leaves the tables grown with the fields unchanged.
fn make_room(resp: &mut ResponseHeader) -> Result<()> {
    for name in ROOM {
        resp.insert_header(name, "")?;
    }
    for name in ROOM {
        resp.remove_header(name);
    }
    Ok(())
}

/// Fields a `304` does not update in the stored header (RFC 9111 §3.2): the stored body's
/// length and framing, and `Vary`, because the object stays filed under its old variance
/// (Pingora keeps it over a `304`). Hop-by-hop fields are gone already.
const KEPT_OVER_304: [HeaderName; 3] = [
    http::header::CONTENT_LENGTH,
    http::header::TRANSFER_ENCODING,
    http::header::VARY,
];

/// The stored header updated by a `304` (RFC 9111 §3.2, §4.3.4): every field the `304`
/// carries replaces the stored one, except [`KEPT_OVER_304`]. Without a `Date` of its own
/// the `304` is dated `now`, when it arrived (RFC 9110 §6.6.1), so the stored `Date` and
/// the age counted from it are the revalidation's.
fn updated_by_304(
    stored: &ResponseHeader,
    fields: &http::HeaderMap,
    now: SystemTime,
) -> Result<ResponseHeader> {
    let mut header = stored.clone();
    let mut previous: Option<&HeaderName> = None;
    for (name, value) in fields {
        if KEPT_OVER_304.contains(name) {
            continue;
        }
        // A name's values come one after another: the first replaces, the rest append.
        if previous == Some(name) {
            header.append_header(name.clone(), value)?;
        } else {
            header.insert_header(name.clone(), value)?;
        }
        previous = Some(name);
    }
    if !fields.contains_key(http::header::DATE) {
        header.insert_header(http::header::DATE, date::format(now))?;
    }
    Ok(header)
}

/// The cache meta of a storable response: its freshness counted from its epoch, the time it
/// arrived less the age it already had then ([`age::initial_age`]), so that it is stale
/// once its current age reaches its freshness lifetime (RFC 9111 §4.2) and every hit's
/// `Age` is `now - epoch`. After a revalidation the header is [`updated_by_304`], so the age
/// is the `304`'s. The stored header keeps no `Age` (each answer computes its own) and no
/// `Transfer-Encoding`. `now` is when the response arrived.
fn stored_meta(
    resp: &ResponseHeader,
    freshness: Freshness,
    now: SystemTime,
    ctx: &Ctx,
) -> Result<CacheMeta> {
    let request_time = ctx
        .upstream_sent
        .and_then(|sent| now.checked_sub(sent.elapsed()))
        .unwrap_or(now);
    let initial_age = age::initial_age(&resp.headers, request_time, now);
    let mut header = resp.clone();
    header.remove_header(&http::header::AGE);
    header.remove_header(&http::header::TRANSFER_ENCODING);
    let epoch = now.checked_sub(initial_age).unwrap_or(UNIX_EPOCH);
    let fresh_until = if freshness.ttl.is_zero() {
        epoch
            .checked_sub(Duration::from_secs(1))
            .unwrap_or(UNIX_EPOCH)
    } else {
        epoch + freshness.ttl
    };
    header.insert_header(URL_HEADER, &ctx.url)?;
    let mut meta = CacheMeta::new(
        fresh_until,
        now,
        freshness.stale_while_revalidate,
        freshness.stale_if_error,
        header,
    );
    meta.set_epoch_override(epoch);
    Ok(meta)
}

/// Take the hop-by-hop fields out of an origin's response: those [`HOP_BY_HOP`] names and
/// those its `Connection` names (except the framing fields, which Pingora still needs to
/// delimit the body). A `101` keeps them: they are its switch of protocols.
fn strip_hop_by_hop(resp: &mut ResponseHeader) {
    if resp.status == http::StatusCode::SWITCHING_PROTOCOLS {
        return;
    }
    if resp.headers.contains_key(http::header::CONNECTION) {
        let named: Vec<HeaderName> = resp
            .headers
            .get_all(http::header::CONNECTION)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
            .filter(|name| {
                *name != http::header::CONTENT_LENGTH && *name != http::header::TRANSFER_ENCODING
            })
            .collect();
        for name in &named {
            resp.remove_header(name);
        }
    }
    for name in &HOP_BY_HOP {
        resp.remove_header(name);
    }
}

/// Take the edge's internal headers out of a response.
fn strip_internal(resp: &mut ResponseHeader) {
    for name in &INTERNAL_RESPONSE_HEADERS {
        resp.remove_header(name);
    }
}

/// Whether a request is a plain `GET` that a stored response answers as it is: no range,
/// no precondition, no upgrade, no body. Anything else takes Pingora's cache phases,
/// which handle those.
fn plain_get(req: &RequestHeader) -> bool {
    req.method == http::Method::GET
        && !req.headers.keys().any(|name| {
            let name = name.as_str();
            name.starts_with("if-")
                || matches!(
                    name,
                    "range" | "upgrade" | "content-length" | "transfer-encoding"
                )
        })
}

/// The URL id ([`url_id`]) a `Location` or `Content-Location` value names, when it is on
/// the request's origin (RFC 9111 §4.4): a reference relative to the request's path, or
/// an absolute URL with the listener's scheme and the request's host. `None` for another
/// origin or a value that is not a URL.
fn same_origin_url(
    value: &str,
    host: &NormalHost,
    request_path: &str,
    tls: bool,
) -> Option<String> {
    let value = value.trim();
    let value = value.split('#').next().unwrap_or("");
    let scheme = if tls { "https" } else { "http" };
    let reference = if let Some((their_scheme, rest)) = value.split_once("://") {
        if !their_scheme.eq_ignore_ascii_case(scheme) {
            return None;
        }
        Some(rest)
    } else {
        value.strip_prefix("//")
    };
    let target = match reference {
        Some(rest) => {
            let (authority, path) = rest
                .find(['/', '?'])
                .map_or((rest, "/"), |i| rest.split_at(i));
            if NormalHost::parse(authority).ok().as_ref() != Some(host) {
                return None;
            }
            if path.starts_with('?') {
                format!("/{path}")
            } else {
                path.to_string()
            }
        }
        None if value.starts_with('/') => value.to_string(),
        None if value.is_empty() => return None,
        None if value.starts_with('?') => format!("{request_path}{value}"),
        None => {
            let dir = &request_path[..request_path.rfind('/').map_or(0, |i| i + 1)];
            format!("{dir}{value}")
        }
    };
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target.as_str(), None),
    };
    // Dot segments (RFC 3986 §5.2.4), as a client resolving the reference would.
    let mut segments: Vec<&str> = Vec::new();
    let mut parts = path.split('/').skip(1).peekable();
    while let Some(part) = parts.next() {
        match part {
            "." | ".." => {
                if part == ".." {
                    segments.pop();
                }
                if parts.peek().is_none() {
                    segments.push("");
                }
            }
            _ => segments.push(part),
        }
    }
    let path = format!("/{}", segments.join("/"));
    Some(url_id(&path, query))
}

/// The cache outcome from Pingora's cache phase.
fn outcome_of(session: &Session) -> CacheOutcome {
    if !session.cache.enabled() {
        return CacheOutcome::Bypass;
    }
    match session.cache.phase() {
        CachePhase::Hit => CacheOutcome::Hit,
        CachePhase::Stale => CacheOutcome::Stale { error: true },
        CachePhase::StaleUpdating => CacheOutcome::Stale { error: false },
        CachePhase::Revalidated | CachePhase::RevalidatedNoCache(_) => CacheOutcome::Revalidated,
        CachePhase::Miss | CachePhase::Expired => CacheOutcome::Miss,
        _ => CacheOutcome::Bypass,
    }
}

/// Whether an error on an established origin connection says the connection broke (the
/// origin died, restarted or dropped it), rather than that it answered badly or slowly.
fn broken_connection(e: &Error) -> bool {
    e.esource() == &ErrorSource::Upstream
        && matches!(
            e.etype(),
            ErrorType::ConnectionClosed | ErrorType::ReadError | ErrorType::WriteError
        )
}

/// Whether a request may be sent again after the origin may have seen it: the idempotent
/// methods, and a `POST` carrying an `Idempotency-Key`: the client's word that a repeat is
/// harmless, because the origin answers it with the first result (the order placement) or
/// because the call only overwrites state (the cart's address and payment method; the web
/// client and the load tests mark those, web/src/lib/api.ts).
fn replay_safe(req: &RequestHeader) -> bool {
    match req.method {
        http::Method::GET | http::Method::HEAD | http::Method::OPTIONS => true,
        http::Method::POST => req.headers.contains_key("idempotency-key"),
        _ => false,
    }
}

/// How many times one request is sent again after finding a pooled origin connection
/// closed (each such failure is immediate; the pool may hold several dead ones).
const MAX_STALE_REUSES: usize = 8;

/// The body of an error the edge generates: JSON for the API, a small page otherwise.
fn error_body(route: RouteClass, status: u16) -> (&'static str, String) {
    let message = match status {
        400 => "The request was not understood.",
        421 => "This shop does not answer for that host name.",
        429 => "Too many attempts. Please wait a moment and try again.",
        503 => "The shop is busy or down for maintenance. Please try again shortly.",
        504 => "The shop took too long to answer. Please try again.",
        _ => "The shop could not be reached. Please try again shortly.",
    };
    if route == RouteClass::Api {
        let body = serde_json::json!({"success": false, "message": message, "errors": {}});
        ("application/json", body.to_string())
    } else {
        let page = format!(
            "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
             <title>{status}</title><body style=\"font-family:sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem\">\
             <h1>Sorry</h1><p>{message}</p><p><a href=\"/\">Home</a></p></body></html>"
        );
        ("text/html; charset=utf-8", page)
    }
}

impl Edge {
    /// Answer a plain `GET` for a fresh, unpurged, non-variant object straight from the
    /// storage, before Pingora's cache phases (lookup, meta, hit filters, range and
    /// precondition filters): the same response they would send, for less work per hit.
    /// Returns `false`, having sent nothing, for anything else; the key is kept in `ctx`
    /// for the cache phase.
    async fn serve_fresh(&self, session: &mut Session, ctx: &mut Ctx) -> Result<bool> {
        let req = session.req_header();
        if !plain_get(req) {
            return Ok(false);
        }
        let key = cache_key(&ctx.host, &ctx.url, ctx.encoding);
        let now = SystemTime::now();
        let storage = self.state.storage;
        let hit = storage.fresh(&key, now);
        ctx.key = Some(key);
        let Some(hit) = hit else {
            return Ok(false);
        };
        // Without a length Pingora adds chunked framing; leave those to it.
        if !hit
            .header()
            .headers
            .contains_key(http::header::CONTENT_LENGTH)
            || self
                .state
                .purges
                .verdict(hit.stored_at(), &ctx.url, hit.tags())
                .is_some()
        {
            return Ok(false);
        }
        // As Pingora's hit header: the stored header, HTTP/1.1, what its range filter says
        // of a request without a range (`Accept-Ranges`), the `Age`, and ours. All but the
        // values of the last two is the same for every plain GET of this object: prepared
        // once, kept with it.
        let mut header = match hit.hit_header() {
            Some(prepared) => prepared.clone(),
            None => {
                let mut prepared = hit.header().clone();
                strip_internal(&mut prepared);
                prepared.set_version(http::Version::HTTP_11);
                if self.range_header_filter(session, &mut prepared, ctx) != RangeType::None {
                    return Ok(false);
                }
                // The per-request headers go in now, in their order, so that filling them
                // in on each hit replaces values instead of growing the header's maps (a
                // clone has no spare room).
                client_headers(&mut prepared, CacheOutcome::Hit, Some(0), ctx)?;
                make_room(&mut prepared)?;
                hit.set_hit_header(prepared.clone());
                prepared
            }
        };
        header.insert_header(http::header::AGE, hit.age(now))?;
        storage.count_access(&hit);
        let outcome = CacheOutcome::Hit;
        ctx.outcome = Some(outcome);
        client_headers(
            &mut header,
            outcome,
            Some(ttl_of(hit.fresh_until(), now)),
            ctx,
        )?;
        if self.tls {
            // Not in the prepared header: the plain listener shares it.
            header.insert_header("strict-transport-security", HSTS)?;
        }
        session
            .write_response_header(Box::new(header), false)
            .await?;
        session.write_response_body(Some(hit.body()), true).await?;
        Ok(true)
    }

    /// RFC 9111 §4.4: a successful (2xx, 3xx) answer to an unsafe method (anything but
    /// GET, HEAD, OPTIONS and TRACE, unknown methods included) invalidates what this edge
    /// stores for the request's URL, in every coding and variant, and for a same-origin
    /// `Location` or `Content-Location` of the answer. A failed one invalidates nothing.
    ///
    /// Local to this edge, as the RFC asks of a cache: no purge rule, no broadcast to the
    /// peers (they see their own unsafe requests, and the shop purges them by tag). Cheap,
    /// so it can run on every such answer, the shop's `POST /api/...` calls included (which
    /// are never stored): a key hashed and a shard map probed per coding, no scan.
    fn invalidate_after_unsafe(&self, req: &RequestHeader, resp: &ResponseHeader, ctx: &Ctx) {
        let host = &ctx.host;
        let storage = self.state.storage;
        let invalidate = |url: &str| {
            for coding in Coding::ALL {
                storage.invalidate(&cache_key(host, url, coding));
            }
        };
        invalidate(&ctx.url);
        for name in [http::header::LOCATION, http::header::CONTENT_LOCATION] {
            let Some(value) = resp.headers.get(&name).and_then(|v| v.to_str().ok()) else {
                continue;
            };
            if let Some(url) = same_origin_url(value, host, req.uri.path(), self.tls) {
                if url != ctx.url {
                    invalidate(&url);
                }
            }
        }
    }

    async fn respond(
        &self,
        session: &mut Session,
        ctx: &Ctx,
        status: u16,
        extra: &[(&'static str, String)],
    ) -> Result<()> {
        let (content_type, body) = error_body(ctx.route, status);
        let mut resp = ResponseHeader::build(status, Some(6))?;
        resp.insert_header("content-type", content_type)?;
        resp.insert_header("content-length", body.len())?;
        resp.insert_header("cache-control", "no-store")?;
        resp.insert_header("x-request-id", &ctx.request_id)?;
        resp.insert_header("x-cache", CacheOutcome::Bypass.label())?;
        for (name, value) in extra {
            resp.insert_header(*name, value)?;
        }
        let head_only = session.req_header().method == http::Method::HEAD;
        session
            .write_response_header(Box::new(resp), head_only)
            .await?;
        if !head_only {
            session
                .write_response_body(Some(Bytes::from(body)), true)
                .await?;
        }
        Ok(())
    }
}

#[async_trait]
impl ProxyHttp for Edge {
    type CTX = Ctx;

    fn new_ctx(&self) -> Ctx {
        Ctx {
            request_id: String::new(),
            host: NormalHost::default(),
            route: RouteClass::Page,
            url: String::new(),
            encoding: Coding::Identity,
            subrequest: false,
            tried: Vec::new(),
            origin: None,
            replays: 0,
            stale_reuses: 0,
            upstream_sent: None,
            refusal: None,
            outcome: None,
            limited: false,
            counted: None,
            key: None,
            not_modified: None,
        }
    }

    async fn request_filter(&self, session: &mut Session, ctx: &mut Ctx) -> Result<bool> {
        ctx.subrequest = session.subrequest_ctx.is_some();
        let req = session.req_header();
        ctx.request_id = match req.headers.get("x-request-id") {
            Some(id) if valid_request_id(id.as_bytes()) => {
                String::from_utf8_lossy(id.as_bytes()).into_owned()
            }
            _ => new_request_id(),
        };
        let path = req.uri.path();
        ctx.route = RouteClass::of(path);
        ctx.url = url_id(path, req.uri.query());
        ctx.encoding = negotiate::preferred_coding(&req.headers);
        match request_host(req) {
            Ok(host) => ctx.host = host,
            Err(e) => {
                // Not a host at all (`127.0.0.1:evil`): a bad request (RFC 9112 §3.2), before
                // it can be a cache entry of its own.
                tracing::debug!(request_id = %ctx.request_id, cause = %e, "bad Host");
                self.respond(session, ctx, 400, &[]).await?;
                return Ok(true);
            }
        }
        // The id reaches the origin through `upstream_request_filter`, and a background
        // revalidation through `cache_hit_filter`; a fresh hit needs neither.
        if ctx.subrequest {
            return Ok(false);
        }
        if !self.state.settings.hosts.serves(&ctx.host) {
            self.respond(session, ctx, 421, &[]).await?;
            return Ok(true);
        }
        if matches!(req.method, http::Method::GET | http::Method::HEAD)
            && !path.starts_with("/lite/")
        {
            // A staged successor whose boundary has passed becomes the stored answer first.
            self.state
                .staged
                .install_due(&ctx.host, &ctx.url, ctx.encoding);
        }
        if !ratelimit::is_limited(&req.method, path) {
            return self.serve_fresh(session, ctx).await;
        }
        let path = path.to_string();
        let client = session
            .client_addr()
            .and_then(|a| a.as_inet())
            .map(|a| a.ip());
        if let Some(client) = client {
            if let Err(retry_after) = self.state.limiter.check(client, &path) {
                ctx.limited = true;
                self.state
                    .metrics
                    .rate_limited
                    .with_label_values(&[path.trim_end_matches('/')])
                    .inc();
                self.respond(
                    session,
                    ctx,
                    429,
                    &[("retry-after", retry_after.to_string())],
                )
                .await?;
                return Ok(true);
            }
            if ratelimit::GIVEN_BACK_ON_SUCCESS.contains(&path.trim_end_matches('/')) {
                ctx.counted = Some((client, path));
            }
        }
        Ok(false)
    }

    fn request_cache_filter(&self, session: &mut Session, _ctx: &mut Ctx) -> Result<()> {
        let req = session.req_header();
        let cacheable_method = matches!(req.method, http::Method::GET | http::Method::HEAD);
        if !cacheable_method || req.headers.contains_key("upgrade") {
            return Ok(());
        }
        // The basic pages without script (`/lite/...`) are each visitor's own
        // and need the visitor's cookie, which a cacheable fill drops: never
        // cached, passed through whole.
        if req.uri.path().starts_with("/lite/") {
            return Ok(());
        }
        let state = self.state;
        session.cache.enable(
            state.storage,
            Some(state.eviction),
            Some(state.predictor),
            Some(state.cache_lock),
            Some({
                let mut overrides = CacheOptionOverrides::default();
                overrides.wait_timeout = Some(state.settings.lock_timeout);
                overrides
            }),
        );
        session
            .cache
            .set_max_file_size_bytes(state.settings.max_object_bytes);
        Ok(())
    }

    fn cache_key_callback(&self, _session: &Session, ctx: &mut Ctx) -> Result<CacheKey> {
        Ok(match ctx.key.take() {
            Some(key) => key,
            None => cache_key(&ctx.host, &ctx.url, ctx.encoding),
        })
    }

    async fn cache_hit_filter(
        &self,
        session: &mut Session,
        _meta: &CacheMeta,
        hit_handler: &mut HitHandler,
        is_fresh: bool,
        ctx: &mut Ctx,
    ) -> Result<Option<ForcedFreshness>> {
        let Some(hit) = hit_handler.as_any().downcast_ref::<MemoryHit>() else {
            return Ok(None);
        };
        let forced = match self
            .state
            .purges
            .verdict(hit.stored_at(), &ctx.url, hit.tags())
        {
            None => None,
            Some((Mode::Hard, _)) => Some(ForcedFreshness::ForceMiss),
            Some((Mode::Soft, at)) => Some(ForcedFreshness::ForceExpiredServeStale {
                expired_at: Some(at),
            }),
        };
        if !is_fresh || forced.is_some() {
            // A background revalidation may start from this request: it copies the request
            // header, so put the id there for the revalidation to forward.
            session
                .req_header_mut()
                .insert_header("x-request-id", &ctx.request_id)?;
        }
        Ok(forced)
    }

    fn response_cache_filter(
        &self,
        session: &Session,
        resp: &ResponseHeader,
        ctx: &mut Ctx,
    ) -> Result<RespCacheable> {
        let now = SystemTime::now();
        // A revalidation: Pingora's merge of the 304 copies a few fields; all of them count.
        let updated;
        let resp = match ctx.not_modified.take() {
            Some(fields) => {
                updated = updated_by_304(resp, &fields, now)?;
                &updated
            }
            None => resp,
        };
        let facts = RequestFacts {
            authorization: session.req_header().headers.contains_key("authorization"),
            heuristic: ctx.route != RouteClass::Api,
        };
        match policy::decide(
            resp.status.as_u16(),
            &resp.headers,
            facts,
            self.state.settings.max_object_bytes,
            now,
        ) {
            Verdict::Store(freshness) => Ok(RespCacheable::Cacheable(stored_meta(
                resp, freshness, now, ctx,
            )?)),
            Verdict::Refuse(reason) => {
                ctx.refusal = Some(reason);
                Ok(RespCacheable::Uncacheable(NoCacheReason::Custom(reason)))
            }
        }
    }

    fn cache_vary_filter(
        &self,
        meta: &CacheMeta,
        ctx: &mut Ctx,
        req: &RequestHeader,
    ) -> Option<HashBinary> {
        let names = policy::vary_names(meta.headers());
        let mut variance = VarianceBuilder::new();
        for name in &names {
            // Accept-Encoding is in the key already, as the preferred coding (the shop's
            // own Vary, so its pages keep the fast path). `*` is never stored.
            if name == "accept-encoding" {
                continue;
            }
            if name == "accept" && ctx.route == RouteClass::Image {
                // An image varies on Accept only as far as WebP goes (the origin's rule,
                // one function for both):
                // one variant for WebP, one for the rest.
                let class: &[u8] = if negotiate::accepts_webp(&req.headers) {
                    b"image/webp"
                } else {
                    b""
                };
                variance.add_value(name, class);
                continue;
            }
            variance.add_owned_value(name, policy::vary_value(&req.headers, name));
        }
        variance.finalize()
    }

    async fn upstream_peer(&self, _session: &mut Session, ctx: &mut Ctx) -> Result<Box<HttpPeer>> {
        let pool = self.state.pool;
        let Some(index) = pool.select(&ctx.tried) else {
            let mut e = Error::explain(ErrorType::HTTPStatus(503), "no healthy origin");
            e.esource = ErrorSource::Upstream;
            return Err(e);
        };
        ctx.tried.push(index);
        ctx.origin = Some(index);
        let origin = &pool.origins[index];
        let mut peer = HttpPeer::new(origin.addr.as_str(), origin.tls, origin.host.clone());
        let timeout = self.state.settings.origin_timeout;
        peer.options.connection_timeout = Some(Duration::from_secs(1));
        peer.options.total_connection_timeout = Some(Duration::from_secs(2));
        peer.options.read_timeout = Some(timeout);
        peer.options.write_timeout = Some(timeout);
        peer.options.idle_timeout = Some(self.state.settings.origin_idle_timeout);
        Ok(Box::new(peer))
    }

    fn fail_to_connect(
        &self,
        _session: &mut Session,
        _peer: &HttpPeer,
        ctx: &mut Ctx,
        mut e: Box<Error>,
    ) -> Box<Error> {
        if let Some(index) = ctx.origin {
            self.state.pool.mark_down(index);
            tracing::warn!(origin = %self.state.pool.origins[index].addr, cause = %e, "origin connect failed");
        }
        if ctx.tried.len() < self.state.pool.origins.len() {
            e.set_retry(true);
        }
        e
    }

    /// An error on an established origin connection. Retried on another healthy origin
    /// when nothing has reached the client yet, the request body is still whole in
    /// Pingora's retry buffer (64 KiB), and either the request never reached the origin (a
    /// reused keep-alive connection that turned out dead) or it is [`replay_safe`]. A dead
    /// reused connection is the origin's keep-alive timer, not a failure: the request goes
    /// again (up to [`MAX_STALE_REUSES`] times) and no origin is marked down. Otherwise the
    /// origin is marked down for the health checker to bring back, unless it is the last
    /// healthy one: then it gets one more try (a connect failure marks it down in
    /// [`Self::fail_to_connect`]), as Pingora's default policy would give it.
    fn error_while_proxy(
        &self,
        peer: &HttpPeer,
        session: &mut Session,
        e: Box<Error>,
        ctx: &mut Ctx,
        client_reused: bool,
    ) -> Box<Error> {
        let mut e = e.more_context(format!("Peer: {peer}"));
        let unsent = client_reused && matches!(e.retry, RetryType::ReusedOnly);
        let replayable = broken_connection(&e)
            && session.response_written().is_none()
            && !session.as_ref().retry_buffer_truncated()
            && (unsent || replay_safe(session.req_header()));
        if unsent && replayable && ctx.stale_reuses < MAX_STALE_REUSES {
            // A pooled connection the origin had closed (its keep-alive timer fired as the
            // request went out): the origin never took the request and is not down. Send it
            // again, to any healthy origin, without counting it as a failure.
            ctx.stale_reuses += 1;
            if let Some(index) = ctx.origin {
                ctx.tried.retain(|&i| i != index);
            }
            e.set_retry(true);
            return e;
        }
        let pool = self.state.pool;
        let mut retry = false;
        if let (true, Some(index)) = (broken_connection(&e), ctx.origin) {
            if pool.any_available(&[index]) {
                pool.mark_down(index);
                tracing::warn!(origin = %pool.origins[index].addr, reused = client_reused, cause = %e, "origin connection broke");
                retry = pool.any_available(&ctx.tried);
            } else if ctx.replays == 0 {
                // The last healthy origin: one more try rather than no origin at all.
                ctx.tried.retain(|&i| i != index);
                retry = true;
            }
        }
        retry &= replayable && ctx.replays < pool.origins.len();
        if retry {
            ctx.replays += 1;
        }
        e.set_retry(retry);
        e
    }

    async fn upstream_request_filter(
        &self,
        session: &mut Session,
        upstream: &mut RequestHeader,
        ctx: &mut Ctx,
    ) -> Result<()> {
        tracing::debug!(url = %ctx.url, coding = ?ctx.encoding, "origin request");
        for name in UNKEYED_REQUEST_HEADERS {
            upstream.remove_header(*name);
        }
        if session.cache.enabled() {
            // The fill must be exactly what the key says: one content coding, the
            // normalised host and query, and no visitor identity on public routes.
            upstream.insert_header("accept-encoding", ctx.encoding.token())?;
            if !ctx.host.as_str().is_empty() {
                upstream.insert_header(http::header::HOST, ctx.host.as_str())?;
            }
            let uri: http::Uri = ctx
                .url
                .parse()
                .map_err(|e| Error::because(ErrorType::InternalError, "normalised URL", e))?;
            upstream.set_uri(uri);
            if ctx.route != RouteClass::Api {
                for name in IDENTITY_HEADERS {
                    upstream.remove_header(*name);
                }
            }
        }
        if let Some(client) = session.client_addr().and_then(|a| a.as_inet()) {
            upstream.insert_header("x-forwarded-for", client.ip().to_string())?;
        }
        upstream.insert_header("x-forwarded-proto", if self.tls { "https" } else { "http" })?;
        upstream.insert_header("x-request-id", &ctx.request_id)?;
        ctx.upstream_sent = Some(Instant::now());
        Ok(())
    }

    async fn upstream_response_filter(
        &self,
        session: &mut Session,
        upstream: &mut ResponseHeader,
        ctx: &mut Ctx,
    ) -> Result<()> {
        strip_hop_by_hop(upstream);
        // RFC 9110 §6.6.1: a response cached or forwarded without a `Date` gets one, the
        // time it arrived. Stored with it, so hits keep it (Pingora adds `Date` only when
        // absent, vendor/pingora-core/PATCH.md) and the age counts from it.
        if !upstream.status.is_informational() && !upstream.headers.contains_key(http::header::DATE)
        {
            upstream.insert_header(http::header::DATE, date::format(SystemTime::now()))?;
        }
        let status = upstream.status.as_u16();
        if (200..400).contains(&status) && !session.req_header().method.is_safe() {
            self.invalidate_after_unsafe(session.req_header(), upstream, ctx);
        }
        if upstream.status == http::StatusCode::NOT_MODIFIED && session.cache.enabled() {
            ctx.not_modified = Some(Box::new(upstream.headers.clone()));
        }
        if let (Some(sent), Some(index)) = (ctx.upstream_sent, ctx.origin) {
            self.state.metrics.observe_origin(
                &self.state.pool.origins[index].addr,
                upstream.status.as_u16(),
                sent.elapsed(),
            );
        }
        Ok(())
    }

    async fn response_filter(
        &self,
        session: &mut Session,
        resp: &mut ResponseHeader,
        ctx: &mut Ctx,
    ) -> Result<()> {
        if let Some((client, path)) = ctx.counted.take() {
            if resp.status.is_success() {
                self.state.limiter.give_back(client, &path);
            }
        }
        let outcome = outcome_of(session);
        ctx.outcome = Some(outcome);
        let now = SystemTime::now();
        let meta = match outcome {
            CacheOutcome::Bypass => None,
            _ => session.cache.maybe_cache_meta(),
        };
        let ttl = meta.map(|meta| ttl_of(meta.fresh_until(), now));
        if let Some(meta) = meta {
            // The current age (RFC 9111 §4.2.3), also on a miss, a revalidation or a stale
            // answer after an error, where Pingora sets none.
            let age = now.duration_since(meta.epoch()).unwrap_or_default();
            resp.insert_header(http::header::AGE, age.as_secs())?;
        }
        client_headers(resp, outcome, ttl, ctx)?;
        strip_internal(resp);
        if self.tls {
            // HSTS only where the shopper came over TLS (RFC 6797 §7.2: not over plain HTTP).
            resp.insert_header("strict-transport-security", HSTS)?;
        }
        Ok(())
    }

    fn should_serve_stale(
        &self,
        _session: &mut Session,
        _ctx: &mut Ctx,
        error: Option<&Error>,
    ) -> bool {
        match error {
            // stale-while-revalidate
            None => true,
            Some(e) => {
                e.esource() == &ErrorSource::Upstream
                    || matches!(e.etype(), ErrorType::HTTPStatus(code) if *code >= 500)
            }
        }
    }

    async fn fail_to_proxy(&self, session: &mut Session, e: &Error, ctx: &mut Ctx) -> FailToProxy {
        let code = match e.etype() {
            ErrorType::HTTPStatus(code) => *code,
            ErrorType::ConnectTimedout | ErrorType::ReadTimedout | ErrorType::WriteTimedout => 504,
            _ => match e.esource() {
                ErrorSource::Upstream => 502,
                ErrorSource::Downstream => match e.etype() {
                    ErrorType::WriteError | ErrorType::ReadError | ErrorType::ConnectionClosed => 0,
                    _ => 400,
                },
                ErrorSource::Internal | ErrorSource::Unset => 500,
            },
        };
        // The client connection is not reused after a failure: say so in the answer
        // (`Connection: close`), or a client would send its next request on a connection
        // this edge is closing, and that request would fail with no answer at all.
        session.set_keepalive(None);
        if code > 0 && session.response_written().is_none() {
            if let Err(write_error) = self.respond(session, ctx, code, &[]).await {
                tracing::debug!(cause = %write_error, "could not send the error response");
            }
        }
        FailToProxy {
            error_code: code,
            can_reuse_downstream: false,
        }
    }

    async fn logging(&self, session: &mut Session, e: Option<&Error>, ctx: &mut Ctx) {
        if ctx.subrequest {
            return;
        }
        let metrics = &self.state.metrics;
        let label = if ctx.limited {
            "LIMITED"
        } else if let Some(outcome) = ctx.outcome {
            outcome.label()
        } else if e.is_some() {
            "ERROR"
        } else {
            CacheOutcome::Bypass.label()
        };
        metrics.count_request(label, ctx.route);
        let from_cache = ctx.outcome.is_some_and(CacheOutcome::from_cache);
        metrics.observe_request(from_cache);
        match ctx.outcome {
            Some(CacheOutcome::Miss) => metrics.observe_miss(&ctx.url),
            Some(CacheOutcome::Stale { error }) => metrics
                .stale_served
                .with_label_values(&[if error { "error" } else { "updating" }])
                .inc(),
            _ => {}
        }
        if session.cache.lock_duration().is_some() && from_cache {
            metrics.coalesced_waits.inc();
        }
        if let Some(e) = e {
            tracing::debug!(request_id = %ctx.request_id, cause = %e, "request failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids() {
        assert!(valid_request_id(b"abc-123"));
        assert!(!valid_request_id(b""));
        assert!(!valid_request_id(b"has space"));
        assert!(!valid_request_id(&[b'a'; 200]));
        assert_ne!(new_request_id(), new_request_id());
    }

    #[test]
    fn replays_only_what_is_safe_to_send_twice() {
        let req = |method: &str, key: bool| {
            let mut r = RequestHeader::build(method, b"/api/cod-place-order", None).unwrap();
            if key {
                r.insert_header("idempotency-key", "k1").unwrap();
            }
            replay_safe(&r)
        };
        assert!(req("GET", false) && req("HEAD", false) && req("OPTIONS", false));
        assert!(req("POST", true));
        assert!(!req("POST", false) && !req("PUT", false) && !req("DELETE", true));
    }

    #[test]
    fn a_prepared_hit_header_has_room_and_keeps_its_fields_in_order() {
        // 12 fields fill a 16-slot table to its load limit: without room, every clone's
        // first insert (even a replacement) grew and rehashed it.
        let mut header = ResponseHeader::build(200, None).unwrap();
        for i in 0..12 {
            header.insert_header(format!("x-field-{i}"), i).unwrap();
        }
        let before: Vec<String> = header.headers.keys().map(|k| k.to_string()).collect();
        make_room(&mut header).unwrap();
        let after: Vec<String> = header.headers.keys().map(|k| k.to_string()).collect();
        assert_eq!(before, after);
        let copy = header.clone();
        assert!(copy.headers.capacity() >= copy.headers.len() + ROOM.len());
        let mut wire = Vec::new();
        copy.header_to_h1_wire(&mut wire);
        assert!(!String::from_utf8_lossy(&wire).contains("x-edge-room"));
    }

    #[test]
    fn hop_by_hop_fields_go() {
        let mut resp = ResponseHeader::build(200, None).unwrap();
        for (name, value) in [
            ("connection", "keep-alive, X-Hop, content-length"),
            ("connection", "x-other"),
            ("x-hop", "1"),
            ("x-other", "2"),
            ("keep-alive", "timeout=5"),
            ("proxy-connection", "keep-alive"),
            ("te", "trailers"),
            ("upgrade", "h2c"),
            ("proxy-authenticate", "Basic"),
            ("trailer", "x-sum"),
            ("content-length", "3"),
            ("x-end", "kept"),
        ] {
            resp.append_header(name, value).unwrap();
        }
        strip_hop_by_hop(&mut resp);
        let mut left: Vec<&str> = resp.headers.keys().map(|n| n.as_str()).collect();
        left.sort();
        assert_eq!(left, ["content-length", "x-end"]);
    }

    #[test]
    fn same_origin_locations() {
        let host = NormalHost::parse("Shop.Test:8080").unwrap();
        let at = |value: &str| same_origin_url(value, &host, "/a/b/c", false);
        assert_eq!(at("/x?b=1&a=2").as_deref(), Some("/x?a=2&b=1"));
        assert_eq!(at("d").as_deref(), Some("/a/b/d"));
        assert_eq!(at("../d#frag").as_deref(), Some("/a/d"));
        assert_eq!(at("./").as_deref(), Some("/a/b/"));
        assert_eq!(at("?q=1").as_deref(), Some("/a/b/c?q=1"));
        assert_eq!(at("http://shop.test:8080/p").as_deref(), Some("/p"));
        assert_eq!(at("//shop.test:8080").as_deref(), Some("/"));
        assert_eq!(at("http://other.test:8080/p"), None);
        assert_eq!(at("https://shop.test:8080/p"), None);
        assert_eq!(at("http://user@shop.test:8080/p"), None);
        assert_eq!(
            same_origin_url(
                "https://shop.test/p",
                &NormalHost::parse("shop.test:443").unwrap(),
                "/",
                true
            )
            .as_deref(),
            Some("/p")
        );
    }

    #[test]
    fn api_errors_are_json() {
        let (content_type, body) = error_body(RouteClass::Api, 502);
        assert_eq!(content_type, "application/json");
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json["success"], false);
        let (content_type, _) = error_body(RouteClass::Page, 503);
        assert!(content_type.starts_with("text/html"));
    }
}
