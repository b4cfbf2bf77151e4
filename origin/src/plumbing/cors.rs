//! Cross-origin calls (CORS) for front ends served from another host, such
//! as the original storefront: off unless `CORS_ORIGINS` lists them
//! (`https://shop.example,https://m.shop.example`), as the original shop
//! allowed only its own storefront (ORIGINAL-API.md, "CORS and rate limit").
//!
//! A listed origin may send the shop's credentials and headers (`Authorization`,
//! `SELF-TOKEN`, `Idempotency-Key`); preflights are answered here and may be
//! remembered for ten minutes. Every answer then varies on `Origin` only, which
//! the edge keys its cache on, so one front end never gets another's header.

use std::time::Duration;

use anyhow::{bail, Context};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, ORIGIN};
use axum::http::{HeaderName, HeaderValue, Method};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::plumbing::identity::SELF_TOKEN_HEADER;

/// How long a browser may keep a preflight's answer.
pub const PREFLIGHT_MAX_AGE: Duration = Duration::from_secs(600);

/// The layer for `origins` (comma-separated), or `None` when none are listed.
pub fn layer(origins: &str) -> anyhow::Result<Option<CorsLayer>> {
    let origins = parse(origins)?;
    if origins.is_empty() {
        return Ok(None);
    }
    Ok(Some(
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_credentials(true)
            .allow_methods([
                Method::GET,
                Method::HEAD,
                Method::POST,
                Method::PUT,
                Method::PATCH,
                Method::DELETE,
            ])
            .allow_headers([
                CONTENT_TYPE,
                AUTHORIZATION,
                HeaderName::from_static(SELF_TOKEN_HEADER),
                HeaderName::from_static("idempotency-key"),
            ])
            .max_age(PREFLIGHT_MAX_AGE)
            .vary([ORIGIN]),
    ))
}

/// Each origin as a browser sends it: `scheme://host[:port]`, no path, no
/// trailing slash (one is forgiven), `http` or `https`.
fn parse(list: &str) -> anyhow::Result<Vec<HeaderValue>> {
    let mut out = Vec::new();
    for raw in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let origin = raw.trim_end_matches('/');
        let rest = origin
            .strip_prefix("https://")
            .or_else(|| origin.strip_prefix("http://"))
            .with_context(|| format!("CORS origin {raw:?} must start with http:// or https://"))?;
        if rest.is_empty() || rest.contains(['/', '?', '#', '@', ' ']) || rest == "*" {
            bail!("CORS origin {raw:?} must be scheme://host[:port] and nothing else");
        }
        out.push(
            HeaderValue::from_str(&origin.to_ascii_lowercase())
                .with_context(|| format!("CORS origin {raw:?}"))?,
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    fn app() -> Router {
        Router::new().route("/api/x", get(|| async { "ok" })).layer(
            layer("https://front.example, http://127.0.0.1:3000/")
                .unwrap()
                .unwrap(),
        )
    }

    #[test]
    fn origins_are_checked() {
        assert!(layer("").unwrap().is_none());
        assert!(layer(" , ").unwrap().is_none());
        assert_eq!(parse("https://A.example/").unwrap(), ["https://a.example"]);
        for bad in [
            "a.example",
            "https://a.example/shop",
            "ftp://a.example",
            "https://*",
            "https://",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn a_listed_origin_gets_its_headers_and_others_none() {
        let listed = app()
            .oneshot(
                Request::get("/api/x")
                    .header("origin", "https://front.example")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(
            listed.headers()["access-control-allow-origin"],
            "https://front.example"
        );
        assert_eq!(listed.headers()["access-control-allow-credentials"], "true");
        assert_eq!(listed.headers()["vary"], "origin");
        let other = app()
            .oneshot(
                Request::get("/api/x")
                    .header("origin", "https://evil.example")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(other.status(), StatusCode::OK);
        assert!(other.headers().get("access-control-allow-origin").is_none());
    }

    #[tokio::test]
    async fn a_preflight_is_answered() {
        let preflight = app()
            .oneshot(
                Request::options("/api/x")
                    .header("origin", "http://127.0.0.1:3000")
                    .header("access-control-request-method", "POST")
                    .header("access-control-request-headers", "self-token, content-type")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert!(preflight.status().is_success());
        let h = preflight.headers();
        assert_eq!(h["access-control-allow-origin"], "http://127.0.0.1:3000");
        assert!(h["access-control-allow-methods"]
            .to_str()
            .unwrap()
            .contains("POST"));
        assert!(h["access-control-allow-headers"]
            .to_str()
            .unwrap()
            .contains("self-token"));
        assert_eq!(h["access-control-max-age"], "600");
    }
}
