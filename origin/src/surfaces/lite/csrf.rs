//! The basic pages' CSRF protection: every form carries [`value`], an
//! HMAC-SHA256 of the visitor's guest token (which is in an `HttpOnly`
//! cookie, so another site can neither read it nor compute this), and a POST
//! is accepted only with the right value ([`accepts`], compared in constant
//! time) and not from another site ([`cross_site`]: `Sec-Fetch-Site`, and
//! `Origin` against `Host`, when the browser sends them).
//!
//! The key is `LITE_SECRET` ([`configure`], from `origin serve`'s settings);
//! every origin behind the edge must have the same one, since a form shown
//! by one origin may be sent to another. Without it a fixed key is used: the
//! guest token alone is what an attacker cannot know, so the value still
//! protects; the secret adds that a leaked value works nowhere else.

use std::sync::OnceLock;

use axum::http::header::{HOST, ORIGIN};
use axum::http::HeaderMap;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::cookies::Visitor;

type HmacSha256 = Hmac<Sha256>;

/// The key when `LITE_SECRET` is not set (the same on every origin).
const DEFAULT_KEY: &[u8] = b"furniture-shop basic pages: set LITE_SECRET";

static KEY: OnceLock<Vec<u8>> = OnceLock::new();

/// Sets the key from the configured secret (once, at start; blank is none).
pub fn configure(secret: Option<&str>) {
    match secret.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => {
            let _ = KEY.set(s.as_bytes().to_vec());
        }
        None => tracing::warn!(
            "LITE_SECRET is not set: the basic pages' forms are signed with a built-in key; set the same secret on every origin"
        ),
    }
}

fn mac(token: &str) -> HmacSha256 {
    let key = KEY.get().map_or(DEFAULT_KEY, Vec::as_slice);
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(b"lite-csrf\0");
    mac.update(token.as_bytes());
    mac
}

/// The CSRF value of forms shown to the holder of `token` (hex).
pub fn value(token: &str) -> String {
    use std::fmt::Write;
    mac(token)
        .finalize()
        .into_bytes()
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if text.len() != 64 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Whether a POST may go on: sent from this shop with the CSRF value of the
/// visitor's own cookie (a visitor without the cookie has no form of ours).
pub fn accepts(visitor: &Visitor, headers: &HeaderMap, given: &str) -> bool {
    if visitor.fresh || cross_site(headers) {
        return false;
    }
    from_hex(given.trim()).is_some_and(|bytes| mac(&visitor.token).verify_slice(&bytes).is_ok())
}

/// Whether the browser says the request comes from this shop:
/// `Sec-Fetch-Site: same-origin`, or else an `Origin` naming this host. A
/// browser that sends neither says nothing either way.
pub fn vouched_same_origin(headers: &HeaderMap) -> bool {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &axum::http::HeaderValue| v.to_str().ok())
    };
    if let Some(site) = text("sec-fetch-site") {
        return site.trim() == "same-origin";
    }
    match (text(ORIGIN.as_str()), text(HOST.as_str())) {
        (Some(origin), Some(host)) => origin
            .split_once("://")
            .is_some_and(|(_, from)| from.eq_ignore_ascii_case(host)),
        _ => false,
    }
}

/// Whether the browser says the request comes from another site.
pub fn cross_site(headers: &HeaderMap) -> bool {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &axum::http::HeaderValue| v.to_str().ok())
    };
    if let Some(site) = text("sec-fetch-site") {
        if !matches!(site.trim(), "same-origin" | "none") {
            return true;
        }
    }
    if let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) {
        let from = origin.split_once("://").map(|(_, host)| host);
        match (from, headers.get(HOST).and_then(|v| v.to_str().ok())) {
            (None, _) => return true,
            (Some(from), Some(host)) if !from.eq_ignore_ascii_case(host) => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn visitor(token: &str) -> Visitor {
        Visitor {
            token: token.into(),
            ..Visitor::default()
        }
    }

    #[test]
    fn only_the_cookies_own_value_passes() {
        let h = HeaderMap::new();
        let v = visitor("1700000000000abcdef");
        let good = value(&v.token);
        assert_eq!(good.len(), 64);
        assert!(accepts(&v, &h, &good));
        assert!(!accepts(&v, &h, ""));
        assert!(!accepts(&v, &h, &value("1700000000000zzzzzz")));
        assert!(!accepts(&v, &h, &good[..63]));
        let fresh = Visitor {
            fresh: true,
            ..v.clone()
        };
        assert!(!accepts(&fresh, &h, &good));
    }

    #[test]
    fn other_sites_are_refused() {
        let mut h = HeaderMap::new();
        h.insert(HOST, HeaderValue::from_static("shop.example"));
        assert!(!cross_site(&h));
        h.insert(ORIGIN, HeaderValue::from_static("https://shop.example"));
        assert!(!cross_site(&h));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert!(!cross_site(&h));
        h.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        assert!(cross_site(&h));
        h.remove("sec-fetch-site");
        h.insert(ORIGIN, HeaderValue::from_static("https://evil.example"));
        assert!(cross_site(&h));
        h.insert(ORIGIN, HeaderValue::from_static("null"));
        assert!(cross_site(&h));
    }
}
