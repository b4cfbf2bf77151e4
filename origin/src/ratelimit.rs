//! A small in-memory limiter: at most `limit` events per key in a sliding
//! window. Used where a call sends something (e-mail) so that nobody can
//! flood a person or the shop (DOMAIN.md, "Operations"); the edge limits
//! sensitive calls per client address as well.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// Keys and the instants of their recent events.
#[derive(Debug, Default)]
pub struct RateLimiter {
    events: Mutex<HashMap<String, VecDeque<i64>>>,
}

impl RateLimiter {
    /// Counts an event for every key at `now` if each of them is under
    /// `limit` events in the last `window` seconds; otherwise counts nothing
    /// and returns the seconds until the fullest key frees up.
    pub fn check(&self, keys: &[String], limit: usize, window: i64, now: i64) -> Result<(), u64> {
        let Ok(mut events) = self.events.lock() else {
            return Err(window as u64);
        };
        let mut wait = 0;
        for key in keys {
            let list = events.entry(key.clone()).or_default();
            while list.front().is_some_and(|t| *t <= now - window) {
                list.pop_front();
            }
            if list.len() >= limit {
                let oldest = list.front().copied().unwrap_or(now);
                wait = wait.max(oldest + window - now);
            }
        }
        if wait > 0 {
            return Err(wait.max(1) as u64);
        }
        for key in keys {
            events.entry(key.clone()).or_default().push_back(now);
        }
        // Forget keys that have gone quiet, now and then.
        if events.len() > 10_000 {
            events.retain(|_, list| list.back().is_some_and(|t| *t > now - window));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_gets_its_limit_per_window_then_waits() {
        let limiter = RateLimiter::default();
        let keys = vec!["to:a@example.com".to_string(), "ip:1".to_string()];
        for t in 0..3 {
            assert_eq!(limiter.check(&keys, 3, 3600, 100 + t), Ok(()));
        }
        assert_eq!(limiter.check(&keys, 3, 3600, 200), Err(3500));
        // Another target from the same client is limited by the client key.
        let other = vec!["to:b@example.com".to_string(), "ip:1".to_string()];
        assert!(limiter.check(&other, 3, 3600, 200).is_err());
        assert_eq!(limiter.check(&keys, 3, 3600, 3700), Ok(()));
    }
}
