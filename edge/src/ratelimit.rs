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

/// The limited calls whose success the limit gives back: a right password
/// is not what the limit is for, and many shoppers share one address here
/// (mobile networks' carrier NAT), so only failed sign-ins use it up, as the
/// origin's own throttle counts only wrong passwords.
pub const GIVEN_BACK_ON_SUCCESS: &[&str] = &["/api/auth/login"];

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

    /// Takes back a call [`RateLimiter::check`] counted for `client` on `path`
    /// in this window: a sign-in that succeeded ([`GIVEN_BACK_ON_SUCCESS`]).
    pub fn give_back(&self, client: IpAddr, path: &str) {
        self.rate.observe(&(client, path), -1);
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

    #[test]
    fn a_call_given_back_frees_its_place() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..5 {
            assert!(limiter.check(a, "/api/auth/login").is_ok());
            limiter.give_back(a, "/api/auth/login");
        }
        assert!(limiter.check(a, "/api/auth/login").is_ok());
        assert!(limiter.check(a, "/api/auth/login").is_ok());
        assert_eq!(limiter.check(a, "/api/auth/login"), Err(60));
    }
}
