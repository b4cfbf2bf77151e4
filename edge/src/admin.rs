//! The admin listener: the ops dashboard at `/`, its data at `/stats` (this edge's and the
//! cluster's), this edge's own figures for its peers at `/stats/self`, Prometheus text at
//! `/metrics`, `/healthz`, and the purge API (bearer token required).
//!
//! `POST /purge` takes JSON `{"urls": [...], "tags": [...], "all": false, "soft": false}`
//! or the same as query parameters (`?tag=product:12&tag=home&soft=1`, `?url=/p/x`,
//! `?all=1`). `GET /purge/log?since=N` lists the purge log.
//!
//! `POST /stage` takes staged successors (`crate::staged::StageRequest`: the boundary
//! `at_ms` and the responses) and `GET /staged` lists them, with the same token.

use crate::cluster::Figures;
use crate::dashboard::DASHBOARD_HTML;
use crate::purge::{unix_ms, PurgeRequest};
use crate::staged::{StageRequest, MAX_STAGE_BODY};
use crate::State;
use async_trait::async_trait;
use http::{Response, StatusCode};
use pingora::apps::http_app::ServeHttp;
use pingora::protocols::http::ServerSession;
use std::time::SystemTime;

/// Largest purge body accepted.
const MAX_BODY: usize = 1 << 20;

/// The admin app.
pub struct Admin {
    /// Everything shared.
    pub state: &'static State,
}

fn respond(status: StatusCode, content_type: &str, body: impl Into<Vec<u8>>) -> Response<Vec<u8>> {
    let body = body.into();
    Response::builder()
        .status(status)
        .header("content-type", content_type)
        .header("content-length", body.len())
        .header("cache-control", "no-store")
        .body(body)
        .expect("static header names and values are valid")
}

fn json(status: StatusCode, value: serde_json::Value) -> Response<Vec<u8>> {
    respond(status, "application/json", value.to_string())
}

/// Why a purge call is refused, if it is.
#[derive(Debug, PartialEq, Eq)]
pub enum AuthFailure {
    /// No token configured: purging is off.
    Disabled,
    /// No or malformed `Authorization` (401).
    Missing,
    /// Wrong token (403).
    Wrong,
}

/// Check `Authorization: Bearer <token>` against the configured token in constant time.
pub fn authorize(configured: Option<&str>, header: Option<&[u8]>) -> Result<(), AuthFailure> {
    let Some(expected) = configured.filter(|t| !t.is_empty()) else {
        return Err(AuthFailure::Disabled);
    };
    let Some(given) = header.and_then(|h| h.strip_prefix(b"Bearer ".as_slice())) else {
        return Err(AuthFailure::Missing);
    };
    let expected = expected.as_bytes();
    let mut diff = u8::from(given.len() != expected.len());
    for (i, byte) in expected.iter().enumerate() {
        diff |= byte ^ given.get(i).copied().unwrap_or(0);
    }
    if diff == 0 {
        Ok(())
    } else {
        Err(AuthFailure::Wrong)
    }
}

/// Parse `a=b&c=d` into pairs, percent-decoding values.
fn query_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

fn percent_decode(s: &str) -> String {
    fn hex(b: u8) -> Option<u8> {
        (b as char).to_digit(16).and_then(|d| u8::try_from(d).ok())
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push(hi * 16 + lo);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Build a purge request from query parameters.
pub fn purge_from_query(query: &str) -> PurgeRequest {
    let mut request = PurgeRequest::default();
    for (key, value) in query_pairs(query) {
        let on = matches!(value.as_str(), "" | "1" | "true" | "yes");
        match key.as_str() {
            "url" => request.urls.push(value),
            "tag" | "key" => request
                .tags
                .extend(value.split_whitespace().map(String::from)),
            "all" => request.all = on,
            "soft" => request.soft = on,
            _ => {}
        }
    }
    request
}

/// Read a request body of at most `limit` bytes, or the answer refusing it.
async fn read_body(
    session: &mut ServerSession,
    limit: usize,
) -> Result<Vec<u8>, Response<Vec<u8>>> {
    let mut body = Vec::new();
    loop {
        match session.read_request_body().await {
            Ok(Some(chunk)) => {
                body.extend_from_slice(&chunk);
                if body.len() > limit {
                    return Err(json(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        serde_json::json!({"success": false, "message": "body too large"}),
                    ));
                }
            }
            Ok(None) => return Ok(body),
            Err(e) => {
                return Err(json(
                    StatusCode::BAD_REQUEST,
                    serde_json::json!({"success": false, "message": format!("could not read body: {e}")}),
                ))
            }
        }
    }
}

impl Admin {
    /// The answer refusing a call without the right bearer token, if it lacks it.
    fn refuse_unauthorized(&self, session: &ServerSession) -> Option<Response<Vec<u8>>> {
        let auth = authorize(
            self.state.settings.purge_token.as_deref(),
            session
                .req_header()
                .headers
                .get("authorization")
                .map(|v| v.as_bytes()),
        );
        let (status, message) = match auth {
            Ok(()) => return None,
            Err(AuthFailure::Missing) => (StatusCode::UNAUTHORIZED, "bearer token required"),
            Err(AuthFailure::Wrong) => (StatusCode::FORBIDDEN, "wrong token"),
            Err(AuthFailure::Disabled) => (
                StatusCode::FORBIDDEN,
                "disabled: no EDGE_PURGE_TOKEN configured",
            ),
        };
        let mut resp = json(
            status,
            serde_json::json!({"success": false, "message": message}),
        );
        if status == StatusCode::UNAUTHORIZED {
            resp.headers_mut().insert(
                "www-authenticate",
                http::HeaderValue::from_static("Bearer realm=\"edge\""),
            );
        }
        Some(resp)
    }

    /// `POST /stage`: check and keep staged successors, and push them to the peers.
    async fn stage(&self, session: &mut ServerSession) -> Response<Vec<u8>> {
        if let Some(refusal) = self.refuse_unauthorized(session) {
            return refusal;
        }
        let from_peer = session.req_header().headers.contains_key("x-edge-peer");
        // When the first edge took the staging: a purge it applied after that (and pushed
        // here, perhaps before this staging) drops what it names.
        let staged_at = session
            .req_header()
            .headers
            .get(crate::peers::STAGED_AT_HEADER)
            .filter(|_| from_peer)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
            .map_or_else(SystemTime::now, crate::purge::from_unix_ms);
        let body = match read_body(session, MAX_STAGE_BODY).await {
            Ok(body) => body,
            Err(refusal) => return refusal,
        };
        let request: StageRequest = match serde_json::from_slice(&body) {
            Ok(request) => request,
            Err(e) => {
                return json(
                    StatusCode::BAD_REQUEST,
                    serde_json::json!({"success": false, "message": format!("bad staging body: {e}")}),
                )
            }
        };
        let state = self.state;
        let hosts = &state.settings.hosts;
        let superseded =
            |url: &str, tags: &[Box<str>]| state.purges.verdict(staged_at, url, tags).is_some();
        match state
            .staged
            .stage_unless(&request, |host| hosts.serves(host), superseded)
        {
            Ok(staged) => {
                let peers = if from_peer {
                    0
                } else {
                    crate::peers::forward_staging(
                        state,
                        body.into(),
                        request.at_ms,
                        unix_ms(staged_at),
                    );
                    state.settings.peers.len()
                };
                tracing::info!(
                    staged,
                    at_ms = request.at_ms,
                    from_peer,
                    "staged successors"
                );
                let figures = state.staged.figures();
                json(
                    StatusCode::OK,
                    serde_json::json!({
                        "success": true,
                        "staged": staged,
                        "at_ms": request.at_ms,
                        "now_ms": unix_ms(state.staged.clock().now()),
                        "pending": figures.pending,
                        "forwarded_to_peers": peers,
                    }),
                )
            }
            Err(refusal) => json(
                StatusCode::BAD_REQUEST,
                serde_json::json!({"success": false, "message": refusal.0}),
            ),
        }
    }

    async fn purge(&self, session: &mut ServerSession) -> Response<Vec<u8>> {
        let state = self.state;
        let auth = authorize(
            state.settings.purge_token.as_deref(),
            session
                .req_header()
                .headers
                .get("authorization")
                .map(|v| v.as_bytes()),
        );
        match auth {
            Ok(()) => {}
            Err(AuthFailure::Missing) => {
                let mut resp = json(
                    StatusCode::UNAUTHORIZED,
                    serde_json::json!({"success": false, "message": "bearer token required"}),
                );
                resp.headers_mut().insert(
                    "www-authenticate",
                    http::HeaderValue::from_static("Bearer realm=\"edge\""),
                );
                return resp;
            }
            Err(AuthFailure::Wrong) => {
                return json(
                    StatusCode::FORBIDDEN,
                    serde_json::json!({"success": false, "message": "wrong token"}),
                )
            }
            Err(AuthFailure::Disabled) => {
                return json(
                    StatusCode::FORBIDDEN,
                    serde_json::json!({"success": false, "message": "purging is disabled: no EDGE_PURGE_TOKEN configured"}),
                )
            }
        }
        let req = session.req_header();
        let from_peer = req.headers.contains_key("x-edge-peer");
        let mut request = purge_from_query(req.uri.query().unwrap_or(""));
        let mut body = Vec::new();
        loop {
            match session.read_request_body().await {
                Ok(Some(chunk)) => {
                    body.extend_from_slice(&chunk);
                    if body.len() > MAX_BODY {
                        return json(
                            StatusCode::PAYLOAD_TOO_LARGE,
                            serde_json::json!({"success": false, "message": "body too large"}),
                        );
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    return json(
                        StatusCode::BAD_REQUEST,
                        serde_json::json!({"success": false, "message": format!("could not read body: {e}")}),
                    )
                }
            }
        }
        if !body.iter().all(u8::is_ascii_whitespace) {
            match serde_json::from_slice::<PurgeRequest>(&body) {
                Ok(parsed) => {
                    request.urls.extend(parsed.urls);
                    request.tags.extend(parsed.tags);
                    request.all |= parsed.all;
                    request.soft |= parsed.soft;
                    request.id = parsed.id;
                    request.at_ms = parsed.at_ms;
                }
                Err(e) => {
                    return json(
                        StatusCode::BAD_REQUEST,
                        serde_json::json!({"success": false, "message": format!("bad purge body: {e}")}),
                    )
                }
            }
        }
        if request.is_empty() {
            return json(
                StatusCode::BAD_REQUEST,
                serde_json::json!({"success": false, "message": "name urls, tags or all"}),
            );
        }
        let source = if from_peer { "peer" } else { "operator" };
        let applied = state.apply_purge(request, source);
        json(
            StatusCode::OK,
            serde_json::json!({
                "success": true,
                "applied": applied.is_some(),
                "seq": applied.map(|a| a.0),
                "matched": applied.map(|a| a.1),
            }),
        )
    }

    fn stats(&self) -> Response<Vec<u8>> {
        let state = self.state;
        let origins: Vec<serde_json::Value> = state
            .pool
            .origins
            .iter()
            .map(|o| {
                serde_json::json!({
                    "addr": o.addr,
                    "up": o.healthy.load(std::sync::atomic::Ordering::Relaxed),
                })
            })
            .collect();
        let purges: Vec<serde_json::Value> = state
            .purges
            .recent(20)
            .into_iter()
            .map(|r| {
                serde_json::json!({
                    "seq": r.seq,
                    "at_ms": r.request.at_ms,
                    "kind": r.request.kind(),
                    "mode": r.request.mode().as_str(),
                    "urls": r.request.urls,
                    "tags": r.request.tags,
                    "all": r.request.all,
                    "source": r.source,
                    "matched": r.matched,
                })
            })
            .collect();
        let missed: Vec<serde_json::Value> = state
            .metrics
            .most_missed(20)
            .into_iter()
            .map(|(url, count)| serde_json::json!({"url": url, "misses": count}))
            .collect();
        let own = Figures::own(state);
        json(
            StatusCode::OK,
            serde_json::json!({
                "now_ms": unix_ms(SystemTime::now()),
                "own": own,
                "cluster": state.cluster.view(&own),
                "series": state.metrics.series(),
                "purges": purges,
                "staged": state.staged.figures(),
                "most_missed": missed,
                "origins": origins,
                "cache": {
                    "bytes": state.storage.bytes(),
                    "items": state.storage.items(),
                    "limit": state.settings.cache_bytes,
                    "evicted": state.storage.evicted_items(),
                },
            }),
        )
    }
}

#[async_trait]
impl ServeHttp for Admin {
    async fn response(&self, session: &mut ServerSession) -> Response<Vec<u8>> {
        let method = session.req_header().method.clone();
        let path = session.req_header().uri.path().to_string();
        match (method.as_str(), path.as_str()) {
            ("GET", "/") => respond(StatusCode::OK, "text/html; charset=utf-8", DASHBOARD_HTML),
            ("GET", "/stats") => self.stats(),
            ("GET", "/stats/self") => {
                json(StatusCode::OK, serde_json::json!(Figures::own(self.state)))
            }
            ("GET", "/metrics") => {
                self.state.refresh_gauges();
                respond(
                    StatusCode::OK,
                    "text/plain; version=0.0.4",
                    self.state.metrics.render(),
                )
            }
            ("GET", "/healthz") => respond(StatusCode::OK, "text/plain", "ok\n"),
            ("POST", "/stage") => self.stage(session).await,
            ("GET", "/staged") => {
                if let Some(refusal) = self.refuse_unauthorized(session) {
                    return refusal;
                }
                let staged = self.state.staged;
                json(
                    StatusCode::OK,
                    serde_json::json!({
                        "now_ms": unix_ms(staged.clock().now()),
                        "figures": staged.figures(),
                        "successors": staged.list(1000),
                    }),
                )
            }
            ("POST", "/purge") => self.purge(session).await,
            ("GET", "/purge/log") => {
                let auth = authorize(
                    self.state.settings.purge_token.as_deref(),
                    session
                        .req_header()
                        .headers
                        .get("authorization")
                        .map(|v| v.as_bytes()),
                );
                if auth.is_err() {
                    return json(
                        StatusCode::UNAUTHORIZED,
                        serde_json::json!({"success": false, "message": "bearer token required"}),
                    );
                }
                let since = query_pairs(session.req_header().uri.query().unwrap_or(""))
                    .into_iter()
                    .find(|(k, _)| k == "since")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                json(
                    StatusCode::OK,
                    serde_json::json!({"records": self.state.purges.since(since, 1000)}),
                )
            }
            _ => json(
                StatusCode::NOT_FOUND,
                serde_json::json!({"success": false, "message": "not found"}),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens() {
        assert_eq!(
            authorize(None, Some(b"Bearer x")),
            Err(AuthFailure::Disabled)
        );
        assert_eq!(authorize(Some("s3cret"), None), Err(AuthFailure::Missing));
        assert_eq!(
            authorize(Some("s3cret"), Some(b"Basic abc")),
            Err(AuthFailure::Missing)
        );
        assert_eq!(
            authorize(Some("s3cret"), Some(b"Bearer s3cre")),
            Err(AuthFailure::Wrong)
        );
        assert_eq!(
            authorize(Some("s3cret"), Some(b"Bearer s3cret!")),
            Err(AuthFailure::Wrong)
        );
        assert_eq!(authorize(Some("s3cret"), Some(b"Bearer s3cret")), Ok(()));
    }

    #[test]
    fn purge_query_parameters() {
        let r = purge_from_query("tag=product%3A12&tag=home&soft=1&url=%2Fp%2Fx");
        assert_eq!(r.tags, vec!["product:12", "home"]);
        assert_eq!(r.urls, vec!["/p/x"]);
        assert!(r.soft);
        assert!(!r.all);
        assert!(purge_from_query("all=1").all);
    }
}
