//! Accounts: the shopper's row (profile, password) and sign-in tokens (what
//! a guest brings along when signing in is [`crate::domain::merge`]). Tokens are stored hashed
//! ([`crate::plumbing::identity`]); each lives [`TOKEN_LIFETIME_SECS`] and
//! can be revoked. An e-mail address or a mobile number belongs to one
//! account.

use catalog::db::{self, begin_write, Conn, Pool};
use sqlx::FromRow;

use crate::domain::identity::{hash_token, new_token, TOKEN_LIFETIME_SECS};
use crate::domain::merge;
use crate::plumbing::error::{ApiError, ApiResult};

/// A user as the account pages show them.
#[derive(Debug, Clone, FromRow)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub emergency_phone: Option<String>,
    pub birthday: Option<String>,
    pub gender: Option<String>,
    pub district: Option<String>,
    pub postcode: Option<String>,
    pub default_billing_address_id: Option<i64>,
    pub default_shipping_address_id: Option<i64>,
}

pub const USER_COLUMNS: &str =
    "id, name, email, phone, emergency_phone, birthday, gender, district, \
     postcode, default_billing_address_id, default_shipping_address_id";

/// The active user `id`.
pub async fn user(conn: &mut Conn, id: i64) -> sqlx::Result<Option<User>> {
    db::query_as(&format!(
        "SELECT {USER_COLUMNS} FROM app_user WHERE id = $1 AND is_active"
    ))
    .bind(id)
    .fetch_optional(&mut *conn)
    .await
}

/// User `id` whether active or not (a live token was checked already).
pub async fn user_any(pool: &Pool, id: i64) -> sqlx::Result<Option<User>> {
    db::query_as(&format!(
        "SELECT {USER_COLUMNS} FROM app_user WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// Whether an account uses this e-mail or mobile number (`None` matches
/// nothing); with `except`, an account other than that one.
async fn contact_taken(
    conn: &mut Conn,
    email: Option<&str>,
    phone: Option<&str>,
    except: Option<i64>,
) -> sqlx::Result<bool> {
    let taken: Option<i64> = match except {
        None => {
            db::query_scalar(
                "SELECT id FROM app_user WHERE (email IS NOT NULL AND email = $1) OR (phone IS NOT NULL AND phone = $2)",
            )
            .bind(email)
            .bind(phone)
            .fetch_optional(&mut *conn)
            .await?
        }
        Some(user) => {
            db::query_scalar(
                "SELECT id FROM app_user WHERE id <> $1 AND ((email IS NOT NULL AND email = $2) OR (phone IS NOT NULL AND phone = $3))",
            )
            .bind(user)
            .bind(email)
            .bind(phone)
            .fetch_optional(&mut *conn)
            .await?
        }
    };
    Ok(taken.is_some())
}

/// A new account as checked.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub name: String,
    pub email: Option<String>,
    /// `01XXXXXXXXX`.
    pub phone: Option<String>,
    pub emergency_phone: Option<String>,
    /// The argon2id hash of the password.
    pub password_hash: String,
    pub district: Option<String>,
}

/// Creates an account; its id.
async fn create(conn: &mut Conn, user: &NewUser, now: i64) -> sqlx::Result<i64> {
    db::query_scalar(
        "INSERT INTO app_user (name, email, phone, emergency_phone, password_hash, district, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
    )
    .bind(&user.name)
    .bind(&user.email)
    .bind(&user.phone)
    .bind(&user.emergency_phone)
    .bind(&user.password_hash)
    .bind(&user.district)
    .bind(now)
    .fetch_one(&mut *conn)
    .await
}

/// A profile as checked; `None` clears a field.
#[derive(Debug, Clone)]
pub struct Profile {
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub emergency_phone: Option<String>,
    /// YYYY-MM-DD.
    pub birthday: Option<String>,
    pub gender: Option<String>,
    pub district: Option<String>,
    pub postcode: Option<String>,
}

/// Sets every profile field of user `id`.
async fn update_profile(conn: &mut Conn, id: i64, p: &Profile, now: i64) -> sqlx::Result<()> {
    db::query(
        "UPDATE app_user SET name = $1, email = $2, phone = $3, emergency_phone = $4, birthday = $5, \
         gender = $6, district = $7, postcode = $8, updated_at = $9 WHERE id = $10",
    )
    .bind(&p.name)
    .bind(&p.email)
    .bind(&p.phone)
    .bind(&p.emergency_phone)
    .bind(&p.birthday)
    .bind(&p.gender)
    .bind(&p.district)
    .bind(&p.postcode)
    .bind(now)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The active account signing in with this e-mail, or mobile number, and
/// its password hash (none for an account made by social sign-in).
pub async fn credentials(
    pool: &Pool,
    email: &str,
    phone: Option<&str>,
) -> sqlx::Result<Option<(i64, Option<String>)>> {
    db::query_as(
        "SELECT id, password_hash FROM app_user WHERE is_active AND (email = $1 OR phone = $2)",
    )
    .bind(email)
    .bind(phone)
    .fetch_optional(pool)
    .await
}

/// User `id`'s password hash, if they have a password.
pub async fn password_hash(pool: &Pool, id: i64) -> sqlx::Result<Option<String>> {
    db::query_scalar("SELECT password_hash FROM app_user WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
}

/// Stores user `id`'s new password hash.
async fn set_password(conn: &mut Conn, id: i64, hash: &str, now: i64) -> sqlx::Result<()> {
    db::query("UPDATE app_user SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(hash)
        .bind(now)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Revokes every live token of user `id` but `keep` (every one when
/// `None`); how many were revoked.
async fn revoke_tokens_of(
    conn: &mut Conn,
    id: i64,
    keep: Option<i64>,
    now: i64,
) -> sqlx::Result<u64> {
    let done = match keep {
        Some(keep) => {
            db::query(
                "UPDATE auth_token SET revoked_at = $1, updated_at = $1 \
                 WHERE user_id = $2 AND id <> $3 AND revoked_at IS NULL",
            )
            .bind(now)
            .bind(id)
            .bind(keep)
            .execute(&mut *conn)
            .await?
        }
        None => {
            db::query(
                "UPDATE auth_token SET revoked_at = $1, updated_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
            )
            .bind(now)
            .bind(id)
            .execute(&mut *conn)
            .await?
        }
    };
    Ok(done.rows_affected())
}

/// Creates an account and signs it in, in one write transaction: the new
/// token (shown once) and the user. An e-mail or mobile number another
/// account uses is a 409; `guest`'s cart and lists come along.
pub async fn register(
    pool: &Pool,
    new_user: &NewUser,
    device: &str,
    guest: Option<&str>,
    now: i64,
) -> ApiResult<(String, User)> {
    let mut tx = begin_write(pool).await?;
    let taken = contact_taken(
        &mut tx,
        new_user.email.as_deref(),
        new_user.phone.as_deref(),
        None,
    )
    .await?;
    if taken {
        return Err(ApiError::Conflict(
            "An account with this e-mail or mobile number exists. Sign in instead.".into(),
        ));
    }
    let id = create(&mut tx, new_user, now).await?;
    let token = issue_token(&mut tx, id, device, now).await?;
    if let Some(guest) = guest {
        merge::guest_into(&mut tx, guest, id, now).await?;
    }
    let user = user(&mut tx, id)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("new user {id} not found")))?;
    tx.commit().await?;
    Ok((token, user))
}

/// Signs user `id` in (their password checked already), in one write
/// transaction: the new token (shown once) and the user; `guest`'s cart and
/// lists come along, and the browser holding that token is known to the
/// account from then on ([`knows_browser`]).
pub async fn sign_in(
    pool: &Pool,
    id: i64,
    device: &str,
    guest: Option<&str>,
    now: i64,
) -> ApiResult<(String, User)> {
    let mut tx = begin_write(pool).await?;
    let token = issue_token(&mut tx, id, device, now).await?;
    if let Some(guest) = guest {
        merge::guest_into(&mut tx, guest, id, now).await?;
        remember_browser(&mut tx, id, guest, now).await?;
    }
    let user = user(&mut tx, id)
        .await?
        .ok_or_else(ApiError::unauthenticated)?;
    tx.commit().await?;
    Ok((token, user))
}

/// Sets user `id`'s profile in one write transaction; the user as saved. An
/// e-mail or mobile number another account uses is a 409.
pub async fn save_profile(pool: &Pool, id: i64, profile: &Profile, now: i64) -> ApiResult<User> {
    let mut tx = begin_write(pool).await?;
    let taken = contact_taken(
        &mut tx,
        profile.email.as_deref(),
        profile.phone.as_deref(),
        Some(id),
    )
    .await?;
    if taken {
        return Err(ApiError::Conflict(
            "Another account uses that e-mail or mobile number.".into(),
        ));
    }
    update_profile(&mut tx, id, profile, now).await?;
    let user = user(&mut tx, id)
        .await?
        .ok_or_else(ApiError::unauthenticated)?;
    tx.commit().await?;
    Ok(user)
}

/// Stores user `id`'s new password hash and revokes every other token
/// (`keep` stays), in one write transaction; how many were revoked.
pub async fn change_password(
    pool: &Pool,
    id: i64,
    hash: &str,
    keep: Option<i64>,
    now: i64,
) -> sqlx::Result<u64> {
    let mut tx = begin_write(pool).await?;
    let revoked = replace_password(&mut tx, id, hash, keep, now).await?;
    tx.commit().await?;
    Ok(revoked)
}

/// Stores user `id`'s new password hash and revokes every token but `keep`
/// (every one when `None`); how many were revoked.
pub async fn replace_password(
    conn: &mut Conn,
    id: i64,
    hash: &str,
    keep: Option<i64>,
    now: i64,
) -> sqlx::Result<u64> {
    set_password(conn, id, hash, now).await?;
    revoke_tokens_of(conn, id, keep, now).await
}

/// How many orders user `id` has, and the ids and keys of one page of them
/// (`limit` from `offset`), newest first.
pub async fn orders_page(
    pool: &Pool,
    id: i64,
    limit: i64,
    offset: i64,
) -> sqlx::Result<(i64, Vec<(i64, String)>)> {
    let total: i64 = db::query_scalar("SELECT COUNT(*) FROM order_master WHERE user_id = $1")
        .bind(id)
        .fetch_one(pool)
        .await?;
    let page: Vec<(i64, String)> = db::query_as(
        "SELECT id, order_key FROM order_master WHERE user_id = $1 \
         ORDER BY ordered_at DESC, id DESC LIMIT $2 OFFSET $3",
    )
    .bind(id)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    Ok((total, page))
}

/// Remembers that user `id` proved its password in the browser holding the
/// guest token `self_token` (a sign-in, a password reset).
pub async fn remember_browser(
    conn: &mut Conn,
    id: i64,
    self_token: &str,
    now: i64,
) -> sqlx::Result<()> {
    db::query(
        "INSERT INTO known_browser (user_id, browser_hash, last_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $3, $3) ON CONFLICT (user_id, browser_hash) DO UPDATE SET \
         last_at = excluded.last_at, updated_at = excluded.updated_at",
    )
    .bind(id)
    .bind(hash_token(self_token))
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Whether user `id` proved its password before in the browser holding
/// `self_token`.
pub async fn knows_browser(pool: &Pool, id: i64, self_token: &str) -> sqlx::Result<bool> {
    let known: Option<i64> = db::query_scalar(
        "SELECT user_id FROM known_browser WHERE user_id = $1 AND browser_hash = $2",
    )
    .bind(id)
    .bind(hash_token(self_token))
    .fetch_optional(pool)
    .await?;
    Ok(known.is_some())
}

/// A new sign-in token for `user_id`; the plain token, shown once.
pub async fn issue_token(
    conn: &mut Conn,
    user_id: i64,
    device: &str,
    now: i64,
) -> sqlx::Result<String> {
    let (token, hash) = new_token();
    db::query(
        "INSERT INTO auth_token (user_id, token_hash, name, expires_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(user_id)
    .bind(hash)
    .bind(device)
    .bind(now + TOKEN_LIFETIME_SECS)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(token)
}

/// Revokes one token.
pub async fn revoke_token(conn: &mut Conn, token_id: i64, now: i64) -> sqlx::Result<()> {
    db::query(
        "UPDATE auth_token SET revoked_at = $1, updated_at = $1 WHERE id = $2 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(token_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
