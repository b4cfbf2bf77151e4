//! The header fields of the shop's public answers, written once for the two
//! that send them: the origin (every public answer, and the site's pages) and
//! `generator watch`, which stages at the edge, before a flash-sale boundary,
//! the pages that change at it with the fields the origin would send for them
//! at that instant ([`public_page_fields`]).
//!
//! - Freshness ([`cache_header_values`]): `Cache-Control: public,
//!   max-age=60` for browsers, `CDN-Cache-Control: max-age=86400,
//!   stale-while-revalidate=60, stale-if-error=86400` for the edge (RFC
//!   9213); neither max-age crosses the next flash-sale start or end, and a
//!   capped answer gets no stale-while-revalidate window.
//! - A page's representation ([`page_fields`]): its `Content-Type` by the
//!   path's extension, `Vary: Accept-Encoding`, `Content-Encoding` for a
//!   compressed copy, and a strong `ETag` per coding from the content hash.
//! - A page compressed on request (no stored copy in that coding) is gzipped
//!   at [`GZIP_ON_REQUEST`].
//! - The browser's security fields ([`security_fields`]), which the origin
//!   adds to every answer (`origin::plumbing::security`) and a staged page
//!   carries as well.

use negotiate::Coding;

/// Browser freshness of a public response, seconds.
pub const BROWSER_TTL: i64 = 60;
/// Edge freshness of a public response, seconds.
pub const EDGE_TTL: i64 = 86_400;
/// Window in which the edge may serve a stale copy while it revalidates.
pub const STALE_WHILE_REVALIDATE: i64 = 60;
/// Window in which the edge may serve a stale copy when the origin fails.
pub const STALE_IF_ERROR: i64 = 86_400;
/// What a page's answer varies on.
pub const VARY: &str = "Accept-Encoding";
/// Gzip level for pages compressed at request time: the edge keeps each
/// answer, so the bytes matter more than the half millisecond.
pub const GZIP_ON_REQUEST: u32 = 6;

/// The CSP header of a page (HTML): the page's own `<meta>` adds the
/// scripts it allows by hash (`crate::render`).
pub const PAGE_CSP: &str = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";
/// The CSP header of everything else but scripts (JSON, images, text).
pub const OTHER_CSP: &str = "default-src 'none'; frame-ancestors 'none'";
/// What no page may use.
pub const PERMISSIONS_POLICY: &str =
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()";

/// The browser's security fields of an answer of type `content_type`:
/// `nosniff`, the referrer policy, no framing, the permissions policy and a
/// CSP that fits the type (none for JavaScript: a page's scripts follow the
/// page's policy, and the service worker's own would stop its fetches).
/// `not_modified`: a 304, which gets no CSP, since it has no type to choose
/// by and a cache updates the stored answer's fields with the 304's (RFC
/// 9111, 4.3.4). Names lower-case.
pub fn security_fields(
    content_type: &str,
    not_modified: bool,
) -> Vec<(&'static str, &'static str)> {
    let kind = content_type.to_ascii_lowercase();
    let mut fields = vec![
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "strict-origin-when-cross-origin"),
        ("x-frame-options", "DENY"),
        ("permissions-policy", PERMISSIONS_POLICY),
    ];
    if !kind.contains("javascript") && !not_modified {
        let csp = if kind.starts_with("text/html") {
            PAGE_CSP
        } else {
            OTHER_CSP
        };
        fields.push(("content-security-policy", csp));
    }
    fields
}

/// The `Content-Security-Policy` header of a generated page whose HTML
/// starts with `head`: the policy its `<meta>` states (its inline scripts'
/// hashes; `crate::render::stated_policy`) and what only a header can say
/// ([`PAGE_CSP`]), so that the scripts' rule holds for a browser or a cache
/// that reads headers only; [`PAGE_CSP`] alone for a page stating none.
pub fn page_policy(head: &[u8]) -> String {
    match crate::render::stated_policy(head) {
        Some(stated) => format!("{stated}; frame-ancestors 'none'"),
        None => PAGE_CSP.to_string(),
    }
}

/// The `Cache-Control` and `CDN-Cache-Control` values of a public answer at
/// `now` (unix seconds), given the next known price change, for an edge
/// lifetime of `edge_ttl` seconds (at most [`EDGE_TTL`]).
pub fn cache_header_values(
    now: i64,
    next_price_change: Option<i64>,
    edge_ttl: i64,
) -> (String, String) {
    let edge_ttl = edge_ttl.clamp(0, EDGE_TTL);
    let remaining = next_price_change.map(|t| (t - now).max(0));
    let capped = remaining.is_some_and(|r| r < edge_ttl);
    let edge = remaining.map_or(edge_ttl, |r| r.min(edge_ttl));
    let browser = remaining.map_or(BROWSER_TTL, |r| r.min(BROWSER_TTL));
    let browser_value = format!("public, max-age={browser}");
    let edge_value = if capped {
        format!("max-age={edge}, stale-if-error={STALE_IF_ERROR}")
    } else {
        format!("max-age={edge}, stale-while-revalidate={STALE_WHILE_REVALIDATE}, stale-if-error={STALE_IF_ERROR}")
    };
    (browser_value, edge_value)
}

/// The `Content-Type` of a generated file, by its path's extension (pages
/// have none: HTML).
pub fn content_type(path: &str) -> &'static str {
    let last = path.rsplit('/').next().unwrap_or("");
    match last.rsplit_once('.').map(|(_, ext)| ext) {
        Some("xml") => "application/xml; charset=utf-8",
        Some("txt") => "text/plain; charset=utf-8",
        Some("json") => "application/json",
        // The service worker (`/sw.js`): browsers refuse to register a
        // worker served as HTML.
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        _ => "text/html; charset=utf-8",
    }
}

/// The ETag of a page in a coding: its content hash, shortened, with the
/// coding named so each representation has its own strong tag.
pub fn etag(hash: &str, coding: Coding) -> String {
    let short = &hash[..hash.len().min(20)];
    match coding.content_encoding() {
        Some(name) => format!("\"{short}-{name}\""),
        None => format!("\"{short}\""),
    }
}

/// The fields of a generated page's answer in `coding`, besides its
/// freshness: `Content-Type`, `Vary`, `Content-Encoding` (not for identity)
/// and `ETag`. Names lower-case.
pub fn page_fields(path: &str, hash: &str, coding: Coding) -> Vec<(&'static str, String)> {
    let mut fields = vec![
        ("content-type", content_type(path).to_string()),
        ("vary", VARY.to_string()),
    ];
    if let Some(name) = coding.content_encoding() {
        fields.push(("content-encoding", name.to_string()));
    }
    fields.push(("etag", etag(hash, coding)));
    fields
}

/// Every field the origin sends with a generated page in `coding` at `now`
/// ([`page_fields`], the freshness of [`cache_header_values`] for the
/// day-long edge lifetime, and the [`security_fields`]); the surrogate keys
/// go beside them.
pub fn public_page_fields(
    path: &str,
    hash: &str,
    coding: Coding,
    now: i64,
    next_price_change: Option<i64>,
) -> Vec<(&'static str, String)> {
    let mut fields = page_fields(path, hash, coding);
    let (browser, edge) = cache_header_values(now, next_price_change, EDGE_TTL);
    fields.push(("cache-control", browser));
    fields.push(("cdn-cache-control", edge));
    let security = security_fields(content_type(path), false);
    fields.extend(security.into_iter().map(|(k, v)| (k, v.to_string())));
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_coming_price_change_caps_both_ages_and_drops_stale_while_revalidate() {
        let (b, e) = cache_header_values(1000, None, EDGE_TTL);
        assert_eq!(b, "public, max-age=60");
        assert_eq!(
            e,
            "max-age=86400, stale-while-revalidate=60, stale-if-error=86400"
        );
        let (b, e) = cache_header_values(1000, Some(1030), EDGE_TTL);
        assert_eq!(b, "public, max-age=30");
        assert_eq!(e, "max-age=30, stale-if-error=86400");
    }

    #[test]
    fn generated_files_other_than_pages_get_their_own_type() {
        assert_eq!(content_type("/sw.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("/favicon.svg"), "image/svg+xml");
        assert_eq!(content_type("/robots.txt"), "text/plain; charset=utf-8");
        assert_eq!(content_type("/product/sofa.v2"), "text/html; charset=utf-8");
        assert_eq!(content_type("/c/beds"), "text/html; charset=utf-8");
    }

    #[test]
    fn a_page_names_its_coding_in_its_fields_and_tag() {
        let hash = "0123456789abcdef0123456789abcdef";
        let br = public_page_fields("/p/sofa", hash, Coding::Brotli, 1000, Some(4600));
        let names: Vec<&str> = br.iter().map(|f| f.0).collect();
        assert_eq!(
            names,
            [
                "content-type",
                "vary",
                "content-encoding",
                "etag",
                "cache-control",
                "cdn-cache-control",
                "x-content-type-options",
                "referrer-policy",
                "x-frame-options",
                "permissions-policy",
                "content-security-policy"
            ]
        );
        assert_eq!(br[3].1, "\"0123456789abcdef0123-br\"");
        // A staged page carries the page's policy, as the origin sends it.
        assert_eq!(br[10].1, PAGE_CSP);
        let worker = public_page_fields("/sw.js", hash, Coding::Brotli, 1000, None);
        assert!(worker.iter().all(|f| f.0 != "content-security-policy"));
        assert_eq!(br[5].1, "max-age=3600, stale-if-error=86400");
        let plain = page_fields("/p/sofa", hash, Coding::Identity);
        assert!(!plain.iter().any(|f| f.0 == "content-encoding"));
        assert_eq!(plain.last().unwrap().1, "\"0123456789abcdef0123\"");
    }
}
