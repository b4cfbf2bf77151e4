//! What the simulated gateways share: their hosted pages' frame, HTML
//! escaping, reading a JSON field, unique ids and the simulated clock text.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde_json::Value;

/// How a simulated gateway's hosted pages look: the label every page
/// carries (saying that no real money moves) and its colour.
pub(crate) struct Brand {
    /// E.g. `Simulated bKash — no real money`.
    pub label: &'static str,
    /// A note after the label, e.g. the provider's name.
    pub note: &'static str,
    /// CSS colour of the banner and the buttons' borders.
    pub colour: &'static str,
}

/// A hosted page: `title` as heading, `body` (HTML) below the brand's
/// banner, never stored by a browser or a cache.
pub(crate) fn hosted_page(brand: &Brand, title: &str, body: &str) -> Response {
    let Brand {
        label,
        note,
        colour,
    } = brand;
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · {label}</title>\
         <style>body{{font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}}\
         .banner{{background:{colour};color:#fff;padding:.5rem 1rem;border-radius:.3rem}}\
         a.button,button{{display:inline-block;margin:.3rem;padding:.6rem 1rem;border:1px solid {colour};\
         border-radius:.3rem;text-decoration:none;background:#fff;font:inherit}}</style></head><body>\
         <p class=\"banner\"><strong>{label}</strong>{note}</p>\
         <h1>{title}</h1>{body}</body></html>"
    );
    ([(header::CACHE_CONTROL, "no-store")], Html(page)).into_response()
}

/// Escapes text for HTML.
pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The string field `field` of a JSON body, or empty.
pub(crate) fn text(body: &Value, field: &str) -> String {
    body.get(field)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// A new id: `prefix`, the next number of `counter` and the clock's
/// nanoseconds (unique within a run, unlikely to repeat across runs).
pub(crate) fn unique_id(counter: &AtomicU64, prefix: &str) -> String {
    let n = counter.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{prefix}{n:04}{nanos:09}")
}

/// The time now as the simulators write it where the provider sends a
/// date they do not imitate.
pub(crate) fn unix_now_text() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!("{secs} (unix, simulated)")
}
