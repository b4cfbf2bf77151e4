//! Cacheability and freshness: whether a response may be stored, and for how long.
//!
//! `CDN-Cache-Control` (RFC 9213) targets this cache and, when present, governs it alone:
//! `Cache-Control` (even `private`, `no-store`) and `Expires` are then for browsers only.
//! A response is never stored when it sets a cookie, is `private` or `no-store`
//! in the governing header, answers a request with `Authorization` without being
//! explicitly public, has `Vary: *`, is larger
//! than the maximum object size, is a `1xx`, `206`, `304` or a server error other than
//! `501`, or has no freshness: neither
//! explicit nor, for a heuristically cacheable status with `Last-Modified` outside `/api`,
//! heuristic (a tenth of its age at `Date`, at most a day). Any other final status with
//! freshness is stored; `no-cache` is stored already stale, so each use revalidates.
//!
//! Explicit freshness is `max-age`/`s-maxage` of the governing header, or else, when
//! `CDN-Cache-Control` is absent, `Expires` (RFC 9111 §5.3): its lifetime is `Expires`
//! less `Date` (or the time the response arrived), and an invalid `Expires` (`0`, several
//! of them) means already stale. The lifetime counts from the response's epoch, which
//! takes its age on arrival into account (`cache::age`).

use crate::cache::date;
use http::HeaderMap;
use pingora::cache::cache_control::{CacheControl, InterpretCacheControl};
use std::time::{Duration, SystemTime};

/// Status codes the edge stored before any final status could be (issue 16). A refused
/// response of another status is refused as `status`, which the predictor treats as
/// transient (`skip_transient` in lib.rs), as before: an error page once does not make its
/// URL skip the cache.
const USUALLY_STORED: &[u16] = &[200, 203, 204, 300, 301, 308, 404, 410];

/// Status codes that may get a heuristic freshness lifetime (RFC 9110 §15.1, RFC 9111
/// §4.2.2). 206 is among them, but the edge does not store partial content.
const HEURISTIC_STATUS: &[u16] = &[200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501];

/// The longest heuristic freshness lifetime.
pub const HEURISTIC_CAP: Duration = Duration::from_secs(86_400);

/// How long a stored response is fresh, and its stale windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// The freshness lifetime (RFC 9111 §4.2.1), from the response's epoch.
    pub ttl: Duration,
    /// `stale-while-revalidate` window after expiry, in seconds.
    pub stale_while_revalidate: u32,
    /// `stale-if-error` window after expiry, in seconds.
    pub stale_if_error: u32,
}

/// The verdict on one response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Store it.
    Store(Freshness),
    /// Do not store it, and why (a metric label and a log field).
    Refuse(&'static str),
}

/// What the verdict needs to know about the request.
#[derive(Debug, Clone, Copy)]
pub struct RequestFacts {
    /// The request carried `Authorization`.
    pub authorization: bool,
    /// A heuristic freshness may be given (not for `/api`, whose answers say theirs).
    pub heuristic: bool,
}

/// Decide whether a response that arrived at `received` may be stored (see the module doc
/// for the rules).
pub fn decide(
    status: u16,
    headers: &HeaderMap,
    request: RequestFacts,
    max_object_bytes: usize,
    received: SystemTime,
) -> Verdict {
    match decide_any_status(status, headers, request, max_object_bytes, received) {
        Verdict::Refuse(_) if !USUALLY_STORED.contains(&status) => Verdict::Refuse("status"),
        verdict => verdict,
    }
}

/// [`decide`] with the reason of every refusal. Any final status may be stored (RFC 9111
/// §3) but `206` (Pingora stores whole bodies and answers ranges from them), `304` (it
/// answers the edge's own revalidation, or a condition the client sent on a miss) and
/// server errors other than `501`.
fn decide_any_status(
    status: u16,
    headers: &HeaderMap,
    request: RequestFacts,
    max_object_bytes: usize,
    received: SystemTime,
) -> Verdict {
    if status < 200 || status == 206 || status == 304 || status > 999 {
        return Verdict::Refuse("status");
    }
    // A server error (but 501, which is heuristically cacheable) is transient: stored, it
    // would be every visitor's answer, and would replace what stale-if-error keeps. §3
    // allows a cache not to store what it may store.
    if status >= 500 && status != 501 {
        return Verdict::Refuse("status");
    }
    if headers.contains_key(http::header::SET_COOKIE) {
        return Verdict::Refuse("set-cookie");
    }
    if let Some(reason) = vary_refusal(headers) {
        return Verdict::Refuse(reason);
    }
    let too_large = headers
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<usize>().ok())
        .is_some_and(|len| len > max_object_bytes);
    if too_large {
        return Verdict::Refuse("too-large");
    }
    let browser_cc = CacheControl::from_headers_named("cache-control", headers);
    let cdn_cc = CacheControl::from_headers_named("cdn-cache-control", headers);
    // Where CDN-Cache-Control is present it alone governs this cache (RFC 9213 §2.1), even
    // over a `private` or `no-store` meant for browsers. The shop's origin sends it only on
    // answers that are the same for everyone (origin/src/plumbing/cache.rs: personal ones
    // are `private, no-store` without it), and a `Set-Cookie` is refused above whatever it
    // says.
    let governing = cdn_cc.as_ref().or(browser_cc.as_ref());
    if let Some(cc) = governing {
        if cc.private() || cc.no_store() {
            return Verdict::Refuse("private");
        }
    }
    // no-cache (RFC 9111 §5.2.2.4): stored, but every use is revalidated first, so it is
    // stored already stale and with no window to serve it stale (§4.2.4). A `no-cache`
    // naming fields is taken as a plain one (allowed by §5.2.2.4).
    let no_cache = governing.is_some_and(|cc| cc.no_cache());
    if request.authorization {
        let public = |cc: &Option<CacheControl>| {
            cc.as_ref()
                .is_some_and(|cc| cc.public() || cc.has_key("s-maxage"))
        };
        if !public(&browser_cc) && !public(&cdn_cc) {
            return Verdict::Refuse("authorization");
        }
    }
    let ttl = match (&cdn_cc, governing) {
        (Some(cdn), _) => cdn
            .max_age()
            .ok()
            .flatten()
            .map(|secs| Duration::from_secs(secs.into())),
        (None, cc) => cc
            .and_then(|cc| cc.fresh_duration())
            .or_else(|| expires_lifetime(headers, received)),
    };
    let ttl = match ttl {
        _ if no_cache => Duration::ZERO,
        Some(ttl) => ttl,
        None if request.heuristic && HEURISTIC_STATUS.contains(&status) => {
            match heuristic_lifetime(headers, received) {
                Some(ttl) => ttl,
                None => return Verdict::Refuse("no-freshness"),
            }
        }
        None => return Verdict::Refuse("no-freshness"),
    };
    let window = |d: Option<Duration>| {
        if no_cache {
            return 0;
        }
        d.map_or(0, |d| u32::try_from(d.as_secs()).unwrap_or(u32::MAX))
    };
    Verdict::Store(Freshness {
        ttl: Duration::from_secs(ttl.as_secs()),
        stale_while_revalidate: window(
            governing.and_then(|cc| cc.serve_stale_while_revalidate_duration()),
        ),
        stale_if_error: window(governing.and_then(|cc| cc.serve_stale_if_error_duration())),
    })
}

/// A heuristic freshness lifetime (RFC 9111 §4.2.2): a tenth of the time between
/// `Last-Modified` and `Date` (or the arrival time without a valid `Date`), at most
/// [`HEURISTIC_CAP`]. `None` without a valid `Last-Modified`.
fn heuristic_lifetime(headers: &HeaderMap, received: SystemTime) -> Option<Duration> {
    let modified = date::parse(headers.get(http::header::LAST_MODIFIED)?.as_bytes())?;
    let date = headers
        .get(http::header::DATE)
        .and_then(|v| date::parse(v.as_bytes()))
        .unwrap_or(received);
    let unchanged_for = date.duration_since(modified).unwrap_or_default();
    Some((unchanged_for / 10).min(HEURISTIC_CAP))
}

/// The freshness lifetime `Expires` gives (RFC 9111 §4.2.1, §5.3): `Expires` less `Date`,
/// or less `received` without a valid `Date`; zero (already stale) for an `Expires` in the
/// past, an invalid one or more than one. `None` without `Expires`.
fn expires_lifetime(headers: &HeaderMap, received: SystemTime) -> Option<Duration> {
    let mut fields = headers.get_all(http::header::EXPIRES).iter();
    let first = fields.next()?;
    if fields.next().is_some() {
        return Some(Duration::ZERO);
    }
    let Some(expires) = date::parse(first.as_bytes()) else {
        return Some(Duration::ZERO);
    };
    let date = headers
        .get(http::header::DATE)
        .and_then(|v| date::parse(v.as_bytes()))
        .unwrap_or(received);
    Some(expires.duration_since(date).unwrap_or_default())
}

/// `Vary: *` makes a response unstorable: no later request can match it (RFC 9111 §4.1).
/// Any other nominated header is stored and selected by (`Edge::cache_vary_filter`).
fn vary_refusal(headers: &HeaderMap) -> Option<&'static str> {
    vary_names(headers)
        .iter()
        .any(|name| name == "*")
        .then_some("vary-star")
}

/// Request fields whose values are case-insensitive tokens: their variants are selected
/// by the lower-cased value.
const CASE_INSENSITIVE: &[&str] = &[
    "accept",
    "accept-charset",
    "accept-encoding",
    "accept-language",
    "origin",
];

/// The value of the request field `name` as a variant is selected by (RFC 9111 §4.1): its
/// field lines combined, list members separated by `, ` without other whitespace around
/// them, lower-cased where the field is case-insensitive; empty when absent.
pub fn vary_value(request: &HeaderMap, name: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in request.get_all(name) {
        for member in line.as_bytes().split(|&b| b == b',') {
            let member = member.trim_ascii();
            if member.is_empty() {
                continue;
            }
            if !out.is_empty() {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(member);
        }
    }
    if CASE_INSENSITIVE.contains(&name) {
        out.make_ascii_lowercase();
    }
    out
}

/// The lower-cased header names listed in every `Vary` header.
pub fn vary_names(headers: &HeaderMap) -> Vec<String> {
    let mut names: Vec<String> = headers
        .get_all(http::header::VARY)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|s| s.trim().to_ascii_lowercase())
        .filter(|s| !s.is_empty())
        .collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    const ANON: RequestFacts = RequestFacts {
        authorization: false,
        heuristic: true,
    };
    const AUTH: RequestFacts = RequestFacts {
        authorization: true,
        heuristic: true,
    };

    fn store(h: &HeaderMap) -> Freshness {
        match decide(200, h, ANON, 1 << 20, SystemTime::now()) {
            Verdict::Store(f) => f,
            Verdict::Refuse(why) => panic!("refused: {why}"),
        }
    }

    #[test]
    fn cdn_cache_control_wins() {
        let h = headers(&[
            ("cache-control", "public, max-age=60"),
            (
                "cdn-cache-control",
                "max-age=86400, stale-while-revalidate=60, stale-if-error=86400",
            ),
        ]);
        assert_eq!(
            store(&h),
            Freshness {
                ttl: Duration::from_secs(86400),
                stale_while_revalidate: 60,
                stale_if_error: 86400
            }
        );
    }

    #[test]
    fn cdn_cache_control_wins_over_a_browser_private_or_no_store() {
        for browser in ["private", "no-store", "private, no-store, max-age=0"] {
            let h = headers(&[
                ("cache-control", browser),
                ("cdn-cache-control", "max-age=600"),
            ]);
            assert_eq!(store(&h).ttl, Duration::from_secs(600), "{browser}");
        }
    }

    #[test]
    fn plain_cache_control_with_s_maxage_has_no_stale_windows() {
        let h = headers(&[(
            "cache-control",
            "public, max-age=60, s-maxage=120, stale-if-error=10",
        )]);
        let f = store(&h);
        assert_eq!(f.ttl, Duration::from_secs(120));
        assert_eq!(f.stale_if_error, 0);
    }

    #[test]
    fn refusals() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("cache-control", "private, no-store")], "private"),
            (&[("cache-control", "no-store")], "private"),
            (
                &[
                    ("cache-control", "public, max-age=60"),
                    ("set-cookie", "a=b"),
                ],
                "set-cookie",
            ),
            (
                &[("cache-control", "public, max-age=60"), ("vary", "*")],
                "vary-star",
            ),
            (&[("content-type", "text/html")], "no-freshness"),
            (
                &[
                    ("cache-control", "max-age=60"),
                    ("content-length", "5000000"),
                ],
                "too-large",
            ),
            (
                &[
                    ("cache-control", "public, max-age=600"),
                    ("cdn-cache-control", "no-store"),
                ],
                "private",
            ),
            (
                &[
                    ("cache-control", "private"),
                    ("cdn-cache-control", "max-age=600"),
                    ("set-cookie", "a=b"),
                ],
                "set-cookie",
            ),
        ];
        for (pairs, why) in cases {
            let mut h = HeaderMap::new();
            for (n, v) in pairs.iter() {
                h.append(
                    http::HeaderName::from_bytes(n.as_bytes()).unwrap(),
                    v.parse().unwrap(),
                );
            }
            assert_eq!(
                decide(200, &h, ANON, 1 << 20, SystemTime::now()),
                Verdict::Refuse(why),
                "{pairs:?}"
            );
        }
        let ok = headers(&[("cache-control", "max-age=60")]);
        for status in [100, 206, 304, 500, 502, 503, 504] {
            assert_eq!(
                decide(status, &ok, ANON, 1 << 20, SystemTime::now()),
                Verdict::Refuse("status")
            );
        }
        // A refused error page stays a transient `status` refusal for the predictor.
        let private = headers(&[("cache-control", "private, no-store")]);
        assert_eq!(
            decide(500, &private, ANON, 1 << 20, SystemTime::now()),
            Verdict::Refuse("status")
        );
    }

    #[test]
    fn any_final_status_with_explicit_freshness_is_stored() {
        let ok = headers(&[("cache-control", "max-age=60")]);
        for status in [201, 302, 307, 403, 405, 451, 501] {
            assert!(
                matches!(
                    decide(status, &ok, ANON, 1 << 20, SystemTime::now()),
                    Verdict::Store(f) if f.ttl == Duration::from_secs(60)
                ),
                "{status}"
            );
        }
    }

    #[test]
    fn no_cache_is_stored_stale_without_stale_windows() {
        let h = headers(&[(
            "cache-control",
            "no-cache, max-age=60, stale-while-revalidate=60, stale-if-error=600",
        )]);
        assert_eq!(
            store(&h),
            Freshness {
                ttl: Duration::ZERO,
                stale_while_revalidate: 0,
                stale_if_error: 0
            }
        );
    }

    #[test]
    fn heuristic_freshness() {
        let now = SystemTime::now();
        let ago = |secs: u64| date::format(now - Duration::from_secs(secs));
        let verdict = |status: u16, modified: &str, facts: RequestFacts| {
            let mut h = HeaderMap::new();
            h.append("date", date::format(now).parse().unwrap());
            h.append("last-modified", modified.parse().unwrap());
            decide(status, &h, facts, 1 << 20, now)
        };
        let ttl = |v: Verdict| match v {
            Verdict::Store(f) => Some(f.ttl.as_secs()),
            Verdict::Refuse(_) => None,
        };
        assert_eq!(ttl(verdict(200, &ago(1000), ANON)), Some(100));
        assert_eq!(ttl(verdict(404, &ago(90 * 86_400), ANON)), Some(86_400));
        assert_eq!(ttl(verdict(302, &ago(1000), ANON)), None);
        assert_eq!(ttl(verdict(200, "yesterday", ANON)), None);
        let api = RequestFacts {
            authorization: false,
            heuristic: false,
        };
        assert_eq!(ttl(verdict(200, &ago(1000), api)), None);
        // Explicit freshness wins.
        let mut h = headers(&[("cache-control", "max-age=7")]);
        h.append("last-modified", ago(1000).parse().unwrap());
        assert_eq!(store(&h).ttl, Duration::from_secs(7));
    }

    #[test]
    fn expires_without_max_age() {
        let now = SystemTime::now();
        let at = |secs: u64| date::format(now + Duration::from_secs(secs));
        let (date_now, in_an_hour) = (at(0), at(3600));
        let ttl = |pairs: &[(&'static str, &str)]| {
            let mut h = HeaderMap::new();
            for (n, v) in pairs {
                h.append(*n, v.parse().unwrap());
            }
            match decide(200, &h, ANON, 1 << 20, now) {
                Verdict::Store(f) => Some(f.ttl.as_secs()),
                Verdict::Refuse(_) => None,
            }
        };
        // Expires less Date; less the arrival time without a Date.
        assert_eq!(
            ttl(&[("expires", &in_an_hour), ("date", &date_now)]),
            Some(3600)
        );
        assert!(ttl(&[("expires", &in_an_hour)]).is_some_and(|t| (3599..=3600).contains(&t)));
        assert_eq!(
            ttl(&[("expires", &in_an_hour), ("cache-control", "public")]),
            ttl(&[("expires", &in_an_hour)])
        );
        // max-age and s-maxage win over Expires.
        let with_max_age = [("expires", &*in_an_hour), ("cache-control", "max-age=60")];
        assert_eq!(ttl(&with_max_age), Some(60));
        // Invalid, past or repeated: stored, already stale.
        assert_eq!(ttl(&[("expires", "0")]), Some(0));
        assert_eq!(ttl(&[("expires", &at(0)), ("date", &in_an_hour)]), Some(0));
        assert_eq!(
            ttl(&[("expires", &in_an_hour), ("expires", &in_an_hour)]),
            Some(0)
        );
        // CDN-Cache-Control governs alone; no-store still refuses.
        assert_eq!(
            ttl(&[("expires", &in_an_hour), ("cdn-cache-control", "public")]),
            None
        );
        assert_eq!(
            ttl(&[("expires", &in_an_hour), ("cache-control", "no-store")]),
            None
        );
    }

    #[test]
    fn authorization_needs_explicit_public() {
        let plain = headers(&[("cache-control", "max-age=60")]);
        assert_eq!(
            decide(200, &plain, AUTH, 1 << 20, SystemTime::now()),
            Verdict::Refuse("authorization")
        );
        let public = headers(&[("cache-control", "public, max-age=60")]);
        assert!(matches!(
            decide(200, &public, AUTH, 1 << 20, SystemTime::now()),
            Verdict::Store(_)
        ));
    }

    #[test]
    fn allowed_vary_is_stored() {
        let h = headers(&[
            ("cache-control", "max-age=60"),
            ("vary", "Accept-Encoding, Accept"),
        ]);
        store(&h);
        assert_eq!(vary_names(&h), vec!["accept", "accept-encoding"]);
    }

    #[test]
    fn any_vary_but_star_is_stored_and_values_are_normalised() {
        store(&headers(&[
            ("cache-control", "max-age=60"),
            ("vary", "X-Theme, Cookie"),
        ]));
        let request = |pairs: &[(&'static str, &'static str)]| {
            let h = headers(pairs);
            (vary_value(&h, "x-theme"), vary_value(&h, "accept-language"))
        };
        assert_eq!(
            request(&[("x-theme", "Dark ,  wide"), ("accept-language", "EN, de")]),
            request(&[
                ("x-theme", "Dark"),
                ("x-theme", "wide"),
                ("accept-language", "en,de")
            ])
        );
        assert_ne!(
            request(&[("x-theme", "dark")]),
            request(&[("x-theme", "Dark")])
        );
        assert_eq!(request(&[]), (Vec::new(), Vec::new()));
    }

    #[test]
    fn cors_answers_varying_on_origin_are_stored() {
        let h = headers(&[("cache-control", "public, max-age=60"), ("vary", "origin")]);
        store(&h);
    }
}
