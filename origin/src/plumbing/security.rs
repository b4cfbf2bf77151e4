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
//! A header a handler set is kept. HSTS is the edge's: only its TLS
//! listener knows the shopper came over TLS.

use axum::extract::Request;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The CSP header of a page (HTML).
pub const PAGE_CSP: &str = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";
/// The CSP header of everything else.
pub const OTHER_CSP: &str = "default-src 'none'; frame-ancestors 'none'";
/// What no page may use.
pub const PERMISSIONS_POLICY: &str =
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()";

/// Middleware: adds the headers above to every response that lacks them.
pub async fn headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let kind = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let html = kind.starts_with("text/html");
    let script = kind.contains("javascript");
    let h = response.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name: HeaderName, value: &'static str| {
        if !h.contains_key(&name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    };
    set(h, X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, REFERRER_POLICY, "strict-origin-when-cross-origin");
    set(h, X_FRAME_OPTIONS, "DENY");
    set(
        h,
        HeaderName::from_static("permissions-policy"),
        PERMISSIONS_POLICY,
    );
    if !script {
        set(
            h,
            CONTENT_SECURITY_POLICY,
            if html { PAGE_CSP } else { OTHER_CSP },
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
