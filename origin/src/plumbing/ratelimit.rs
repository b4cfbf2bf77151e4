//! Rate limits kept in the database: at most `limit` events per key in a
//! sliding window. Used where a call sends something (e-mail) so that nobody
//! can flood a person or the shop (DOMAIN.md, "Operations"); the edge limits
//! sensitive calls per client address as well. The events live in the
//! `rate_event` table, so every origin of a cluster counts the same ones.

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
}
