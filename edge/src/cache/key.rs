//! The cache key: what makes two requests "the same" for the cache.
//!
//! A key is the method class, the host, the path, the normalised query (tracking parameters
//! dropped, the rest sorted by name) and the content coding the client prefers
//! ([`negotiate::preferred_coding`], the rule the origin answers by). Each part is
//! length-prefixed so no two different tuples can frame into the same bytes. Nothing else from
//! the request (cookies, `SELF-TOKEN`, `X-Forwarded-*`...) is part of it: the proxy strips
//! those from cacheable fills instead, so they can never change what another visitor gets.

use crate::hosts::NormalHost;
use negotiate::Coding;
use pingora::cache::key::hash_key;
use pingora::cache::CacheKey;

/// Query parameters that only tell analytics where a visitor came from.
const TRACKING_PARAMS: &[&str] = &[
    "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "mc_cid", "mc_eid", "_ga",
    "_gl", "igshid",
];

/// Which kind of resource a path is, for metrics and error pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RouteClass {
    /// HTML pages (everything not below).
    Page,
    /// `/api/...` JSON.
    Api,
    /// Hashed static assets: scripts, styles, fonts.
    Asset,
    /// `/storage/...` images.
    Image,
}

impl RouteClass {
    /// Classify a request path.
    pub fn of(path: &str) -> Self {
        if path == "/api" || path.starts_with("/api/") {
            Self::Api
        } else if path.starts_with("/storage/") {
            Self::Image
        } else if path.starts_with("/assets/")
            || [
                ".js", ".css", ".woff2", ".woff", ".svg", ".ico", ".png", ".jpg", ".webp", ".map",
            ]
            .iter()
            .any(|ext| path.ends_with(ext))
        {
            Self::Asset
        } else {
            Self::Page
        }
    }

    /// The metric label.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Page => "page",
            Self::Api => "api",
            Self::Asset => "asset",
            Self::Image => "image",
        }
    }
}

/// Drop tracking parameters and sort the rest by name (stable, so repeated names keep their
/// order). Empty pairs are dropped. Returns the query without the leading `?`.
pub fn normalise_query(query: Option<&str>) -> String {
    let Some(query) = query else {
        return String::new();
    };
    let mut pairs: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| {
            let name = pair.split('=').next().unwrap_or("").to_ascii_lowercase();
            !(name.starts_with("utm_") || TRACKING_PARAMS.contains(&name.as_str()))
        })
        .collect();
    pairs.sort_by_key(|pair| pair.split('=').next().unwrap_or(""));
    pairs.join("&")
}

/// The path and normalised query: what a purge by URL names.
pub fn url_id(path: &str, query: Option<&str>) -> String {
    let query = normalise_query(query);
    if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{query}")
    }
}

/// Append one length-prefixed part (`<decimal length>:<bytes>`).
fn push_part(out: &mut Vec<u8>, part: &[u8]) {
    let mut digits = [0u8; 20];
    let mut n = part.len();
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
    out.push(b':');
    out.extend_from_slice(part);
}

/// Build the primary key. `HEAD` shares the `GET` entry (a cache answers HEAD from a stored
/// GET response), so the method class of every cacheable request is `GET`. The host is in
/// its normal form ([`NormalHost`]: lower-cased, no trailing dot, no default port), the one
/// the hosts served are decided by, so spellings of one host share their entries.
///
/// The key's hash is computed here once and set as its override, so the lookup, the
/// eviction manager, the predictor and the lock each reuse it instead of hashing again
/// (the value is the same hash Pingora would compute from the primary key).
pub fn cache_key(host: &NormalHost, url_id: &str, encoding: Coding) -> CacheKey {
    let host = host.as_str();
    let mut primary = Vec::with_capacity(host.len() + url_id.len() + 32);
    push_part(&mut primary, b"GET");
    push_part(&mut primary, host.as_bytes());
    push_part(&mut primary, url_id.as_bytes());
    push_part(&mut primary, encoding.token().as_bytes());
    let hash = hash_key(&primary);
    let mut key = CacheKey::new(primary, "");
    key.set_primary_bin_override(hash);
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use pingora::cache::key::CacheHashKey;

    fn host(raw: &str) -> NormalHost {
        NormalHost::parse(raw).unwrap()
    }

    #[test]
    fn tracking_parameters_are_dropped_and_the_rest_sorted() {
        assert_eq!(
            normalise_query(Some(
                "utm_source=x&page=2&fbclid=1&sort=price&gclid=9&UTM_MEDIUM=m"
            )),
            "page=2&sort=price"
        );
        assert_eq!(normalise_query(Some("b=1&a=2&a=1")), "a=2&a=1&b=1");
        assert_eq!(normalise_query(Some("&&")), "");
        assert_eq!(normalise_query(None), "");
    }

    #[test]
    fn url_id_keeps_path_and_clean_query() {
        assert_eq!(url_id("/p/chair", Some("utm_campaign=sale")), "/p/chair");
        assert_eq!(
            url_id("/c/products", Some("page=2&keyword=bed")),
            "/c/products?keyword=bed&page=2"
        );
    }

    #[test]
    fn keys_differ_by_host_path_query_and_encoding_only() {
        let a = cache_key(&host("shop.test"), "/p/1", Coding::Brotli).primary_bin();
        assert_eq!(
            a,
            cache_key(&host("SHOP.test:80"), "/p/1", Coding::Brotli).primary_bin()
        );
        assert_ne!(
            a,
            cache_key(&host("shop.test"), "/p/1", Coding::Gzip).primary_bin()
        );
        assert_ne!(
            a,
            cache_key(&host("shop.test"), "/p/1?x=1", Coding::Brotli).primary_bin()
        );
        assert_ne!(
            a,
            cache_key(&host("other.test"), "/p/1", Coding::Brotli).primary_bin()
        );
    }

    #[test]
    fn spellings_of_one_host_share_a_key() {
        let key = |h: &str| cache_key(&host(h), "/p/1", Coding::Brotli).primary_bin();
        let a = key("localhost:8080");
        for same in ["LOCALHOST:8080", "localhost.:8080", "localhost:08080"] {
            assert_eq!(key(same), a, "{same}");
        }
        assert_ne!(key("localhost:8081"), a);
        assert_eq!(key("localhost:443"), key("localhost"));
    }

    #[test]
    fn the_precomputed_hash_is_pingoras_own() {
        let key = cache_key(&host("shop.test"), "/p/1?a=1", Coding::Gzip);
        let plain = CacheKey::new(key.primary_key().to_vec(), "");
        assert_eq!(key.primary_bin(), plain.primary_bin());
        assert_eq!(key.primary_key(), b"3:GET9:shop.test8:/p/1?a=14:gzip");
        let long = format!("/{}", "a".repeat(1234));
        let key = cache_key(&host(" Shop.Test:443 "), &long, Coding::Identity);
        let expected = format!("3:GET9:shop.test1235:{long}8:identity");
        assert_eq!(key.primary_key(), expected.as_bytes());
    }

    #[test]
    fn key_framing_is_unambiguous() {
        // Without length prefixes these two would concatenate to the same bytes.
        let a = cache_key(&host("ab"), "/c", Coding::Identity).primary_bin();
        let b = cache_key(&host("a"), "b/c", Coding::Identity).primary_bin();
        assert_ne!(a, b);
    }

    #[test]
    fn route_classes() {
        assert_eq!(RouteClass::of("/api/product/1"), RouteClass::Api);
        assert_eq!(RouteClass::of("/storage/p/1.webp"), RouteClass::Image);
        assert_eq!(RouteClass::of("/assets/app-1a2b.js"), RouteClass::Asset);
        assert_eq!(RouteClass::of("/p/sofa"), RouteClass::Page);
        assert_eq!(RouteClass::of("/apiary"), RouteClass::Page);
    }
}
