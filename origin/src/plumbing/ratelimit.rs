//! Rate limits and throttles kept in the database, so that every origin of a
//! cluster counts the same events (the edge limits sensitive calls per client
//! address as well, but cannot see accounts, and not every deployment has it).
//!
//! - [`check`]: at most `limit` events per key in a sliding window, for calls
//!   that send something (e-mail) or create something (an account), so that
//!   nobody can flood a person or the shop (DOMAIN.md, "Operations"); the
//!   events live in the `rate_event` table.
//! - [`attempt`]: a throttle on guessing (sign-in per account and per client
//!   address, order tracking per order number and per address): some
//!   failures are free, then each one doubles the wait before the next
//!   attempt, then a lock ([`Throttle`]); one row per key in `throttle`.
//!
//! A refusal is `ApiError::TooManyRequests`: 429 with `Retry-After` and the
//! wait in words ([`wait_words`]) in the message the shopper sees.

use axum::http::HeaderMap;
use catalog::db::{self, Pool};

/// The client's address as the edge forwarded it (the first of
/// `X-Forwarded-For`), else "direct": the per-address key of a limit.
pub fn client(headers: &HeaderMap) -> String {
    headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 64)
        .unwrap_or_else(|| "direct".to_string())
}

/// Counts an event for every key at `now` if each of them is under `limit`
/// events in the last `window` seconds, and answers `Ok(Ok(()))`; otherwise
/// counts nothing and answers `Ok(Err(seconds))`, the wait until the fullest
/// key frees up. One writing transaction: two origins cannot both take the
/// last slot.
pub async fn check(
    pool: &Pool,
    keys: &[String],
    limit: i64,
    window: i64,
    now: i64,
) -> sqlx::Result<Result<(), u64>> {
    let mut tx = db::begin_write(pool).await?;
    // Forget what no window can count any more.
    db::query("DELETE FROM rate_event WHERE at <= $1")
        .bind(now - window)
        .execute(&mut *tx)
        .await?;
    let mut wait = 0;
    for key in keys {
        let (count, oldest): (i64, Option<i64>) =
            db::query_as("SELECT COUNT(*), MIN(at) FROM rate_event WHERE key = $1 AND at > $2")
                .bind(key)
                .bind(now - window)
                .fetch_one(&mut *tx)
                .await?;
        if count >= limit {
            wait = wait.max(oldest.unwrap_or(now) + window - now);
        }
    }
    if wait > 0 {
        tx.rollback().await?;
        return Ok(Err(wait.max(1) as u64));
    }
    for key in keys {
        db::query(
            "INSERT INTO rate_event (key, at, created_at, updated_at) VALUES ($1, $2, $2, $2)",
        )
        .bind(key)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(Ok(()))
}

/// How a [`attempt`] throttle slows guessing down on one key: some failures
/// cost nothing, each further one doubles the wait before the next attempt,
/// and with `lock_at` that many failures lock the key for `lock_secs`.
#[derive(Debug, Clone, Copy)]
pub struct Throttle {
    /// Failures that cost no wait.
    pub free: i64,
    /// The wait after the first failure beyond the free ones, seconds;
    /// doubled at each failure after it.
    pub first_wait: i64,
    /// The longest wait short of a lock, seconds.
    pub max_wait: i64,
    /// The failure count from which every failure locks the key.
    pub lock_at: Option<i64>,
    /// A lock's length, seconds.
    pub lock_secs: i64,
}

/// A key's failures are forgotten after this long without an attempt.
pub const FORGET_AFTER_SECS: i64 = 86_400;

impl Throttle {
    /// The wait, in seconds, before the attempt after the `failures`-th.
    pub fn wait_after(&self, failures: i64) -> i64 {
        if self.lock_at.is_some_and(|at| failures >= at) {
            return self.lock_secs;
        }
        let beyond = failures - self.free;
        if beyond <= 0 {
            return 0;
        }
        let doubled = self
            .first_wait
            .saturating_mul(1_i64 << (beyond - 1).min(40));
        doubled.min(self.max_wait)
    }

    /// Whether the `failures`-th failure is the one that locks the key.
    pub fn locks_at(&self, failures: i64) -> bool {
        self.lock_at == Some(failures)
    }
}

/// Takes an attempt on every key (a sign-in, a tracking lookup): refused
/// with `Ok(Err(seconds))`, the longest wait, while any key waits after
/// earlier failures, without counting anything; otherwise counted at once as
/// a failure on every key (so that attempts sent in parallel, to one origin
/// or several, cannot pass before their failures are written) and answered
/// with each key's failures so far, this one included. A success then calls
/// [`clear`] or [`refund`]. One writing transaction on the `throttle` table.
pub async fn attempt(
    pool: &Pool,
    keys: &[(&str, &Throttle)],
    now: i64,
) -> sqlx::Result<Result<Vec<i64>, u64>> {
    let mut tx = db::begin_write(pool).await?;
    db::query("DELETE FROM throttle WHERE last_at <= $1 AND blocked_until <= $2")
        .bind(now - FORGET_AFTER_SECS)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    let mut wait = 0;
    let mut counts = Vec::with_capacity(keys.len());
    for (key, _) in keys {
        let row: Option<(i64, i64)> =
            db::query_as("SELECT failures, blocked_until FROM throttle WHERE key = $1")
                .bind(*key)
                .fetch_optional(&mut *tx)
                .await?;
        let (failures, blocked_until) = row.unwrap_or((0, 0));
        wait = wait.max(blocked_until - now);
        counts.push(failures + 1);
    }
    if wait > 0 {
        tx.rollback().await?;
        return Ok(Err(wait as u64));
    }
    for ((key, throttle), failures) in keys.iter().zip(&counts) {
        let wait = throttle.wait_after(*failures);
        let blocked_until = if wait > 0 { now + wait } else { 0 };
        db::query(
            "INSERT INTO throttle (key, failures, last_at, blocked_until, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $3, $3) ON CONFLICT (key) DO UPDATE SET \
             failures = excluded.failures, last_at = excluded.last_at, \
             blocked_until = excluded.blocked_until, updated_at = excluded.updated_at",
        )
        .bind(*key)
        .bind(*failures)
        .bind(now)
        .bind(blocked_until)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(Ok(counts))
}

/// Forgets a key's failures (the account signed in, the order was found).
pub async fn clear(pool: &Pool, key: &str) -> sqlx::Result<()> {
    db::query("DELETE FROM throttle WHERE key = $1")
        .bind(key)
        .execute(pool)
        .await?;
    Ok(())
}

/// Takes back the failure [`attempt`] counted on `key` for an attempt that
/// succeeded, and the wait it set: a client address is slowed by its
/// failures only (many shoppers may share one address).
pub async fn refund(pool: &Pool, key: &str, throttle: &Throttle) -> sqlx::Result<()> {
    let mut tx = db::begin_write(pool).await?;
    let row: Option<(i64, i64)> =
        db::query_as("SELECT failures, last_at FROM throttle WHERE key = $1")
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some((failures, last_at)) = row {
        let failures = (failures - 1).max(0);
        let wait = throttle.wait_after(failures);
        let blocked_until = if wait > 0 { last_at + wait } else { 0 };
        db::query("UPDATE throttle SET failures = $1, blocked_until = $2 WHERE key = $3")
            .bind(failures)
            .bind(blocked_until)
            .bind(key)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A wait in words for a shopper: "30 seconds", "4 minutes", "2 hours".
pub fn wait_words(secs: u64) -> String {
    let (n, unit) = if secs < 60 {
        (secs.max(1), "second")
    } else if secs < 3_600 {
        (secs.div_ceil(60), "minute")
    } else {
        (secs.div_ceil(3_600), "hour")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use catalog::db::testing::TestDatabase;

    #[tokio::test]
    async fn a_key_gets_its_limit_per_window_then_waits_on_every_origin() {
        let db = TestDatabase::migrated().await;
        // Two pools: two origins of a cluster.
        let (one, two) = (db.pool().await, db.pool().await);
        let keys = vec!["to:a@example.com".to_string(), "ip:1".to_string()];
        for t in 0..3 {
            let pool = if t % 2 == 0 { &one } else { &two };
            assert_eq!(check(pool, &keys, 3, 3600, 100 + t).await.unwrap(), Ok(()));
        }
        assert_eq!(check(&two, &keys, 3, 3600, 200).await.unwrap(), Err(3500));
        // Another target from the same client is limited by the client key.
        let other = vec!["to:b@example.com".to_string(), "ip:1".to_string()];
        assert!(check(&one, &other, 3, 3600, 200).await.unwrap().is_err());
        // A refused event was not counted: the window frees up on time.
        assert_eq!(check(&one, &keys, 3, 3600, 3700).await.unwrap(), Ok(()));
        // Much later, every earlier event is forgotten; the new one is counted per key.
        assert_eq!(check(&two, &keys, 3, 3600, 9000).await.unwrap(), Ok(()));
        let left: i64 = db::query_scalar("SELECT COUNT(*) FROM rate_event")
            .fetch_one(&one)
            .await
            .unwrap();
        assert_eq!(
            left, 2,
            "old events are deleted, the new one is counted per key"
        );
    }

    const ACCOUNT: Throttle = Throttle {
        free: 5,
        first_wait: 2,
        max_wait: 600,
        lock_at: Some(10),
        lock_secs: 900,
    };

    #[test]
    fn waits_double_after_the_free_failures_then_lock() {
        let waits: Vec<i64> = (1..=11).map(|n| ACCOUNT.wait_after(n)).collect();
        assert_eq!(waits, [0, 0, 0, 0, 0, 2, 4, 8, 16, 900, 900]);
        assert!(ACCOUNT.locks_at(10) && !ACCOUNT.locks_at(11));
        assert_eq!(wait_words(1), "1 second");
        assert_eq!(wait_words(61), "2 minutes");
        assert_eq!(wait_words(900), "15 minutes");
        assert_eq!(wait_words(3_601), "2 hours");
    }

    #[tokio::test]
    async fn a_throttled_key_waits_on_every_origin_and_success_clears_it() {
        let db = TestDatabase::migrated().await;
        let (one, two) = (db.pool().await, db.pool().await);
        let keys = [("user:1", &ACCOUNT)];
        for n in 1..=5 {
            let pool = if n % 2 == 0 { &one } else { &two };
            assert_eq!(attempt(pool, &keys, 100).await.unwrap(), Ok(vec![n]));
        }
        // The sixth is counted, and the seventh must wait 2 s, on either origin.
        assert_eq!(attempt(&one, &keys, 100).await.unwrap(), Ok(vec![6]));
        assert_eq!(attempt(&two, &keys, 101).await.unwrap(), Err(1));
        assert_eq!(attempt(&two, &keys, 102).await.unwrap(), Ok(vec![7]));
        assert_eq!(attempt(&one, &keys, 103).await.unwrap(), Err(3));
        // A refund takes the failure and its wait back; a clear forgets all.
        refund(&one, "user:1", &ACCOUNT).await.unwrap();
        assert_eq!(attempt(&one, &keys, 105).await.unwrap(), Ok(vec![7]));
        clear(&two, "user:1").await.unwrap();
        assert_eq!(attempt(&one, &keys, 106).await.unwrap(), Ok(vec![1]));
        // A day later the failures are forgotten.
        assert_eq!(
            attempt(&one, &keys, 106 + FORGET_AFTER_SECS).await.unwrap(),
            Ok(vec![1])
        );
    }
}
