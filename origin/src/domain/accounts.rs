//! Accounts: sign-in tokens and what a guest brings along when signing in.
//! Tokens are stored hashed ([`crate::plumbing::identity`]); each lives
//! [`TOKEN_LIFETIME_SECS`] and can be revoked.

use catalog::db::{self, Conn};
use sqlx::FromRow;

use crate::domain::cart::MAX_QTY;
use crate::domain::identity::{new_token, TOKEN_LIFETIME_SECS};

/// Most products on a compare list (DOMAIN.md).
pub const MAX_COMPARE: i64 = 5;

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

/// Moves the guest `self_token`'s cart, compare list, wishlist and recently
/// viewed products into user `user_id`'s: lines of the same code add up (at most [`MAX_QTY`]), sets
/// move whole, lists keep each product once (compare: the newest
/// [`MAX_COMPARE`]). The guest's rows are gone afterwards.
pub async fn merge_guest(conn: &mut Conn, self_token: &str, user_id: i64) -> sqlx::Result<()> {
    merge_cart(conn, self_token, user_id).await?;
    for table in ["wishlist_item", "compare_item"] {
        db::query(&format!(
            "INSERT INTO {table} (user_id, product_id, created_at, updated_at) \
             SELECT $1, g.product_id, g.created_at, g.updated_at FROM {table} g \
             WHERE g.self_token = $2 AND NOT EXISTS \
             (SELECT 1 FROM {table} u WHERE u.user_id = $1 AND u.product_id = g.product_id)"
        ))
        .bind(user_id)
        .bind(self_token)
        .execute(&mut *conn)
        .await?;
        db::query(&format!("DELETE FROM {table} WHERE self_token = $1"))
            .bind(self_token)
            .execute(&mut *conn)
            .await?;
    }
    db::query("UPDATE recently_viewed SET user_id = $1, self_token = NULL WHERE self_token = $2")
        .bind(user_id)
        .bind(self_token)
        .execute(&mut *conn)
        .await?;
    db::query(
        "DELETE FROM compare_item WHERE user_id = $1 AND id NOT IN \
         (SELECT id FROM compare_item WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)",
    )
    .bind(user_id)
    .bind(MAX_COMPARE)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn merge_cart(conn: &mut Conn, self_token: &str, user_id: i64) -> sqlx::Result<()> {
    let guest: Option<i64> = db::query_scalar("SELECT id FROM cart WHERE self_token = $1")
        .bind(self_token)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(guest) = guest else {
        return Ok(());
    };
    let mine: Option<i64> = db::query_scalar("SELECT id FROM cart WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(mine) = mine else {
        // No cart of their own yet: the guest's becomes theirs, details and all.
        db::query("UPDATE cart SET user_id = $1, self_token = NULL WHERE id = $2")
            .bind(user_id)
            .bind(guest)
            .execute(&mut *conn)
            .await?;
        return Ok(());
    };
    // Lines of the same code add up; the rest move over.
    db::query(
        "UPDATE cart_item SET qty = CASE WHEN cart_item.qty + g.qty > $3 THEN $3 \
         ELSE cart_item.qty + g.qty END \
         FROM (SELECT item_code, qty FROM cart_item WHERE cart_id = $2 AND cart_set_id IS NULL) AS g \
         WHERE cart_item.cart_id = $1 AND cart_item.cart_set_id IS NULL \
         AND cart_item.item_code = g.item_code",
    )
    .bind(mine)
    .bind(guest)
    .bind(MAX_QTY)
    .execute(&mut *conn)
    .await?;
    db::query(
        "DELETE FROM cart_item WHERE cart_id = $2 AND cart_set_id IS NULL AND item_code IN \
         (SELECT item_code FROM cart_item WHERE cart_id = $1 AND cart_set_id IS NULL)",
    )
    .bind(mine)
    .bind(guest)
    .execute(&mut *conn)
    .await?;
    db::query("UPDATE cart_set SET cart_id = $1 WHERE cart_id = $2")
        .bind(mine)
        .bind(guest)
        .execute(&mut *conn)
        .await?;
    db::query("UPDATE cart_item SET cart_id = $1 WHERE cart_id = $2")
        .bind(mine)
        .bind(guest)
        .execute(&mut *conn)
        .await?;
    db::query("DELETE FROM cart WHERE id = $1")
        .bind(guest)
        .execute(&mut *conn)
        .await?;
    // The lines changed: a payment choice made before no longer holds.
    db::query(
        "UPDATE cart SET payment_method = NULL, terms_accepted = FALSE, paying_amount = NULL WHERE id = $1",
    )
    .bind(mine)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
