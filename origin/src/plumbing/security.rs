//! The browser's security headers, set once on every answer of the origin
//! (API, pages, images, the basic pages, errors), so that every answer the
//! edge passes on or stores carries them (issue 19):
//!
//! - `X-Content-Type-Options: nosniff`: a JSON answer or an image is never
//!   run as a script or read as a page;
//! - `Referrer-Policy: strict-origin-when-cross-origin`: no path or query
//!   (an order's key, a reset link's token) leaves the site in `Referer`;
//! - `X-Frame-Options: DENY` and `frame-ancestors 'none'`: no page is shown
//!   in another site's frame (clickjacking);
//! - `Permissions-Policy`: no camera, microphone, geolocation, payment
//!   request, USB or interest cohort for any page or embedded player;
//! - `Content-Security-Policy`: for a page, `frame-ancestors 'none';
//!   object-src 'none'; base-uri 'self'` (the page's own `<meta>` adds the
//!   scripts allowed by hash, which only the generator knows:
//!   `generator/src/render.rs`); for JavaScript none (a page's scripts
//!   follow the page's policy, and the service worker's own would stop its
//!   fetches); for anything else (JSON, images) `default-src 'none';
//!   frame-ancestors 'none'`, as nothing in it may run.
//!
//! The rule is `generator::serve::security_fields`, so that the pages
//! `generator watch` stages at the edges carry the same fields. A header a
//! handler set is kept. HSTS is the edge's: only its TLS
//! listener knows the shopper came over TLS.
//!
//! A `304 Not Modified` gets no CSP: it has no body and no type to choose a
//! policy by, and a cache updates the stored answer's fields with the 304's
//! (RFC 9111, 4.3.4), so the strict policy of "anything else" would replace a
//! page's and block its styles, pictures and scripts for everyone.

use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// The rule, shared with the pages `generator watch` stages at the edge.
pub use generator::serve::{security_fields, OTHER_CSP, PAGE_CSP};

/// Middleware: adds the headers above to every response that lacks them.
pub async fn headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let kind = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let not_modified = response.status() == StatusCode::NOT_MODIFIED;
    let h = response.headers_mut();
    for (name, value) in security_fields(&kind, not_modified) {
        let name = HeaderName::from_static(name);
        if !h.contains_key(&name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::{CONTENT_SECURITY_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS};
    use axum::routing::get;
    use tower::ServiceExt;

    async fn answer(kind: &'static str) -> axum::http::HeaderMap {
        let app = axum::Router::new()
            .route(
                "/",
                get(move || async move { ([(CONTENT_TYPE, kind)], "x") }),
            )
            .layer(axum::middleware::from_fn(headers));
        let request = axum::http::Request::get("/")
            .body(axum::body::Body::empty())
            .unwrap();
        app.oneshot(request).await.unwrap().headers().clone()
    }

    #[tokio::test]
    async fn the_policy_fits_what_is_answered() {
        let page = answer("text/html; charset=utf-8").await;
        assert_eq!(page[CONTENT_SECURITY_POLICY], PAGE_CSP);
        let json = answer("application/json").await;
        assert_eq!(json[CONTENT_SECURITY_POLICY], OTHER_CSP);
        // The service worker and the islands: no policy of their own.
        let script = answer("text/javascript; charset=utf-8").await;
        assert!(script.get(CONTENT_SECURITY_POLICY).is_none());
        for h in [page, json, script] {
            assert_eq!(h[X_CONTENT_TYPE_OPTIONS], "nosniff");
            assert_eq!(h[X_FRAME_OPTIONS], "DENY");
        }
    }

    #[tokio::test]
    async fn a_revalidation_leaves_the_stored_policy_alone() {
        let app = axum::Router::new()
            .route("/", get(|| async { axum::http::StatusCode::NOT_MODIFIED }))
            .layer(axum::middleware::from_fn(headers));
        let request = axum::http::Request::get("/")
            .body(axum::body::Body::empty())
            .unwrap();
        let h = app.oneshot(request).await.unwrap().headers().clone();
        assert!(h.get(CONTENT_SECURITY_POLICY).is_none());
        assert_eq!(h[X_CONTENT_TYPE_OPTIONS], "nosniff");
    }
}
