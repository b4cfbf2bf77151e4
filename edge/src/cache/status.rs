//! What the edge tells clients about the cache: `X-Cache` and RFC 9211 `Cache-Status`.

/// The outcome of one request as far as the cache is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheOutcome {
    /// Served fresh from cache.
    Hit,
    /// Fetched from the origin and stored.
    Miss,
    /// Served stale: while revalidating (`error == false`) or because the origin failed.
    Stale {
        /// Served because the origin failed.
        error: bool,
    },
    /// Revalidated with the origin (304) and served from cache.
    Revalidated,
    /// Not handled by the cache (method, prediction, or the response refused storage).
    Bypass,
}

impl CacheOutcome {
    /// The `X-Cache` value and metric label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Hit => "HIT",
            Self::Miss => "MISS",
            Self::Stale { .. } => "STALE",
            Self::Revalidated => "REVALIDATED",
            Self::Bypass => "BYPASS",
        }
    }

    /// Whether the response came from cache without waiting for the origin.
    pub fn from_cache(self) -> bool {
        matches!(self, Self::Hit | Self::Stale { .. })
    }
}

/// The RFC 9211 `Cache-Status` value. `ttl` is the remaining freshness in seconds
/// (negative when stale); `detail` names why a response was not stored.
pub fn cache_status(outcome: CacheOutcome, ttl: Option<i64>, detail: Option<&str>) -> String {
    use std::fmt::Write;
    let mut value = String::with_capacity(64);
    value.push_str("edge");
    match outcome {
        CacheOutcome::Hit | CacheOutcome::Stale { .. } => value.push_str("; hit"),
        CacheOutcome::Miss => value.push_str("; fwd=uri-miss; stored"),
        CacheOutcome::Revalidated => value.push_str("; fwd=stale; fwd-status=304"),
        CacheOutcome::Bypass => value.push_str("; fwd=bypass"),
    }
    if let Some(ttl) = ttl {
        // Writing into a String cannot fail.
        let _ = write!(value, "; ttl={ttl}");
    }
    if let CacheOutcome::Stale { error: true } = outcome {
        value.push_str("; detail=stale-if-error");
    } else if let Some(detail) = detail {
        value.push_str("; detail=");
        value.push_str(detail);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_status_values() {
        assert_eq!(
            cache_status(CacheOutcome::Hit, Some(30), None),
            "edge; hit; ttl=30"
        );
        assert_eq!(
            cache_status(CacheOutcome::Miss, Some(60), None),
            "edge; fwd=uri-miss; stored; ttl=60"
        );
        assert_eq!(
            cache_status(CacheOutcome::Stale { error: true }, Some(-5), None),
            "edge; hit; ttl=-5; detail=stale-if-error"
        );
        assert_eq!(
            cache_status(CacheOutcome::Bypass, None, Some("private")),
            "edge; fwd=bypass; detail=private"
        );
        assert_eq!(CacheOutcome::Revalidated.label(), "REVALIDATED");
    }
}
