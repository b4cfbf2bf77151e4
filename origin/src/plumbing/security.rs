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
//!   `generator/src/render.rs`); for anything else (JSON, images)
//!   `default-src 'none'; frame-ancestors 'none'`, as nothing in it may run.
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
    let html = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
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
    set(
        h,
        CONTENT_SECURITY_POLICY,
        if html { PAGE_CSP } else { OTHER_CSP },
    );
    response
}
