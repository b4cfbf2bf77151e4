//! Per-client rate limits on the calls a bot would hammer: login, register, the
//! forgotten-password mail, question and comment posts, coupon attempts.

use pingora_limits::rate::Rate;
use std::net::IpAddr;
use std::time::Duration;

/// The limited calls (any method but GET/HEAD).
pub const LIMITED_PATHS: &[&str] = &[
    "/api/auth/login",
    "/api/auth/register",
    "/api/user/forgot-password-send-link",
    "/api/product/question-store",
    "/api/product/comment-store",
    "/api/cart/coupon-apply",
];

/// Whether a request is subject to the limit.
pub fn is_limited(method: &http::Method, path: &str) -> bool {
    method != http::Method::GET
        && method != http::Method::HEAD
        && LIMITED_PATHS.contains(&path.trim_end_matches('/'))
}

/// Fixed-window counters keyed by (client address, path).
pub struct RateLimiter {
    rate: Rate,
    limit: isize,
    window: Duration,
}

impl RateLimiter {
    /// `limit` calls per `window` per client and path.
    pub fn new(limit: isize, window: Duration) -> Self {
        Self {
            rate: Rate::new(window),
            limit,
            window,
        }
    }

    /// `Ok` to let the call through, `Err(seconds)` to answer 429 with that `Retry-After`.
    pub fn check(&self, client: IpAddr, path: &str) -> Result<(), u64> {
        let count = self.rate.observe(&(client, path), 1);
        if count > self.limit {
            Err(self.window.as_secs().max(1))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_sensitive_calls_are_limited() {
        assert!(is_limited(&http::Method::POST, "/api/auth/login"));
        assert!(is_limited(&http::Method::POST, "/api/cart/coupon-apply/"));
        assert!(!is_limited(&http::Method::GET, "/api/auth/login"));
        assert!(!is_limited(&http::Method::POST, "/api/cart/add"));
    }

    #[test]
    fn the_limit_is_per_client() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        assert!(limiter.check(a, "/api/auth/login").is_ok());
        assert!(limiter.check(a, "/api/auth/login").is_ok());
        assert_eq!(limiter.check(a, "/api/auth/login"), Err(60));
        assert!(limiter.check(b, "/api/auth/login").is_ok());
        assert!(limiter.check(a, "/api/auth/register").is_ok());
    }
}
