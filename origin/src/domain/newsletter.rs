//! The newsletter's subscribers: an e-mail address is on the list once.

use catalog::db::{self, Pool};

/// Puts `email` on the list (already there is fine).
pub async fn subscribe(pool: &Pool, email: &str, now: i64) -> sqlx::Result<()> {
    db::query(
        "INSERT INTO newsletter_subscriber (email, created_at, updated_at) VALUES ($1, $2, $2) \
         ON CONFLICT (email) DO NOTHING",
    )
    .bind(email)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(())
}
