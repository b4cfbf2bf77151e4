//! The age of a response when it arrives (RFC 9111 §4.2.3): how old it already was at the
//! origin or at caches before this one, from its `Date` and `Age` and the request and
//! response times.
//!
//! The proxy subtracts this initial age from the time the response arrived and gives the
//! result to Pingora as the object's epoch (`CacheMeta::set_epoch_override`). Then
//! `now - epoch` is the RFC's `current_age` (the initial age plus the time resident here):
//! freshness ends at `epoch + freshness_lifetime`, and a hit's `Age` is `now - epoch`, on
//! the fast path and in Pingora's phases alike, without any work per hit.

use crate::cache::date;
use http::HeaderMap;
use std::time::{Duration, SystemTime};

/// Delta-seconds larger than this are taken as this (RFC 9111 §1.2.2).
const DELTA_SECONDS_MAX: u64 = 2_147_483_648;

/// The `Age` field's value: its first member if that is a non-negative integer, else none
/// (RFC 9111 §5.1: a cache uses the first member of a list and ignores an invalid value).
pub fn age_value(headers: &HeaderMap) -> Option<Duration> {
    let field = headers.get(http::header::AGE)?.to_str().ok()?;
    let first = field.split(',').next()?.trim();
    if first.is_empty() || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs = first
        .parse::<u64>()
        .unwrap_or(DELTA_SECONDS_MAX)
        .min(DELTA_SECONDS_MAX);
    Some(Duration::from_secs(secs))
}

/// `corrected_initial_age` of RFC 9111 §4.2.3 for a response with these header fields,
/// whose request left at `request_time` and which arrived at `response_time`:
///
/// ```text
/// apparent_age          = max(0, response_time - date_value)
/// corrected_age_value   = age_value + (response_time - request_time)
/// corrected_initial_age = max(apparent_age, corrected_age_value)
/// ```
///
/// A response without a valid `Date` is dated when it arrived (RFC 9110 §6.6.1).
pub fn initial_age(
    headers: &HeaderMap,
    request_time: SystemTime,
    response_time: SystemTime,
) -> Duration {
    let apparent_age = headers
        .get(http::header::DATE)
        .and_then(|v| date::parse(v.as_bytes()))
        .and_then(|date| response_time.duration_since(date).ok())
        .unwrap_or_default();
    let response_delay = response_time
        .duration_since(request_time)
        .unwrap_or_default();
    let corrected_age_value = age_value(headers).unwrap_or_default() + response_delay;
    apparent_age.max(corrected_age_value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn age_values() {
        let secs = |v: &str| age_value(&headers(&[("age", v)])).map(|d| d.as_secs());
        assert_eq!(secs("7200"), Some(7200));
        assert_eq!(secs("10, 20"), Some(10));
        assert_eq!(secs("-1"), None);
        assert_eq!(secs("1.5"), None);
        assert_eq!(secs("abc"), None);
        assert_eq!(secs("99999999999999999999999"), Some(DELTA_SECONDS_MAX));
        assert_eq!(age_value(&HeaderMap::new()), None);
    }

    #[test]
    fn the_larger_of_apparent_and_corrected_age() {
        let now = SystemTime::now();
        let sent = now - Duration::from_secs(2);
        // No Date, no Age: only the time the request took.
        assert_eq!(initial_age(&HeaderMap::new(), sent, now).as_secs(), 2);
        // Age from upstream plus the response delay.
        let aged = headers(&[("age", "7200")]);
        assert_eq!(initial_age(&aged, sent, now).as_secs(), 7202);
        // A Date 30 s before arrival outweighs a small Age.
        let dated = headers(&[
            ("date", &date::format(now - Duration::from_secs(30))),
            ("age", "5"),
        ]);
        assert_eq!(initial_age(&dated, sent, now).as_secs(), 30);
        // A Date in the future (clock skew) counts as no apparent age.
        let future = headers(&[("date", &date::format(now + Duration::from_secs(300)))]);
        assert_eq!(initial_age(&future, now, now), Duration::ZERO);
    }
}
