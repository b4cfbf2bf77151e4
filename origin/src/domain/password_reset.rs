//! Password reset links: a single-use token, stored hashed, that works for
//! [`LINK_LIFETIME_SECS`] and only with the account's e-mail beside it.

use catalog::db::{self, begin_write, Pool};

use crate::domain::accounts;
use crate::domain::identity::{hash_token, new_token};

/// How long a reset link works, seconds.
pub const LINK_LIFETIME_SECS: i64 = 3_600;

/// The active account using this e-mail: its id and name.
pub async fn account_by_email(pool: &Pool, email: &str) -> sqlx::Result<Option<(i64, String)>> {
    db::query_as("SELECT id, name FROM app_user WHERE email = $1 AND is_active")
        .bind(email)
        .fetch_optional(pool)
        .await
}

/// A new reset link's token for user `user`, shown once (in the mail).
pub async fn issue(pool: &Pool, user: i64, now: i64) -> sqlx::Result<String> {
    let (token, hash) = new_token();
    db::query(
        "INSERT INTO password_reset (user_id, token_hash, expires_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4)",
    )
    .bind(user)
    .bind(hash)
    .bind(now + LINK_LIFETIME_SECS)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(token)
}

/// A live link: the reset's id and its user's.
#[derive(Debug, Clone, Copy)]
pub struct Link {
    pub id: i64,
    pub user_id: i64,
}

/// The unused, unexpired link of this token for the account of this e-mail.
pub async fn find(pool: &Pool, token: &str, email: &str, now: i64) -> sqlx::Result<Option<Link>> {
    let found: Option<(i64, i64)> = db::query_as(
        "SELECT r.id, r.user_id FROM password_reset r JOIN app_user u ON u.id = r.user_id \
         WHERE r.token_hash = $1 AND u.email = $2 AND r.used_at IS NULL AND r.expires_at > $3",
    )
    .bind(hash_token(token))
    .bind(email)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    Ok(found.map(|(id, user_id)| Link { id, user_id }))
}

/// What a reset did besides the password.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reset {
    /// The sign-in providers still linked to the account (labels).
    pub linked: Vec<&'static str>,
    /// The providers the reset unlinked: the account had no password, so it
    /// was made by a provider sign-in, and Facebook never vouches for an
    /// e-mail address (whoever made it need not own the mailbox the reset
    /// link went to; Google does vouch, so its link stays).
    pub unlinked: Vec<&'static str>,
}

/// Uses the link: the user's password becomes `hash`, every session of
/// theirs is signed out and a provider nobody confirmed is unlinked
/// ([`Reset`]), in one write transaction; the browser holding `browser`
/// (its guest token) is known to the account from then on. `None` (and
/// nothing changed) when another call used the link first.
pub async fn reset(
    pool: &Pool,
    link: Link,
    hash: &str,
    browser: Option<&str>,
    now: i64,
) -> sqlx::Result<Option<Reset>> {
    let mut tx = begin_write(pool).await?;
    let used = db::query(
        "UPDATE password_reset SET used_at = $1, updated_at = $1 WHERE id = $2 AND used_at IS NULL",
    )
    .bind(now)
    .bind(link.id)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() == 0 {
        return Ok(None);
    }
    let (had_password, google, facebook): (bool, bool, bool) = db::query_as(
        "SELECT password_hash IS NOT NULL, google_sub IS NOT NULL, facebook_id IS NOT NULL \
         FROM app_user WHERE id = $1",
    )
    .bind(link.user_id)
    .fetch_one(&mut *tx)
    .await?;
    let mut done = Reset {
        linked: Vec::new(),
        unlinked: Vec::new(),
    };
    if google {
        done.linked.push("Google");
    }
    if facebook && had_password {
        done.linked.push("Facebook");
    } else if facebook {
        db::query("UPDATE app_user SET facebook_id = NULL, updated_at = $1 WHERE id = $2")
            .bind(now)
            .bind(link.user_id)
            .execute(&mut *tx)
            .await?;
        done.unlinked.push("Facebook");
    }
    accounts::replace_password(&mut tx, link.user_id, hash, None, now).await?;
    if let Some(browser) = browser {
        accounts::remember_browser(&mut tx, link.user_id, browser, now).await?;
    }
    tx.commit().await?;
    Ok(Some(done))
}
