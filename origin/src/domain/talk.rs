//! What shoppers write and do on a product page: questions and comments
//! (kept unpublished until the shop answers or checks them, at most
//! [`TALK_LIMIT`] of both in [`TALK_WINDOW_SECS`] per shopper) and the
//! recently-viewed list (each product once, the newest [`RECENT_KEEP`]).

use catalog::db::{self, begin_write, Pool};

use crate::domain::identity::Owner;
use crate::plumbing::error::{ApiError, ApiResult};

/// Questions plus comments one shopper may send in [`TALK_WINDOW_SECS`].
pub const TALK_LIMIT: i64 = 5;
/// The window of [`TALK_LIMIT`], seconds.
pub const TALK_WINDOW_SECS: i64 = 600;
/// Products kept in a recently-viewed list.
pub const RECENT_KEEP: i64 = 20;

/// Which of the two a shopper writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Talk {
    Question,
    Comment,
}

impl Talk {
    /// The table and its text column.
    fn table(self) -> (&'static str, &'static str) {
        match self {
            Talk::Question => ("product_question", "description"),
            Talk::Comment => ("product_comment", "comment"),
        }
    }
}

/// Whether product `id` exists and is on sale.
pub async fn product_is_active(pool: &Pool, id: i64) -> sqlx::Result<bool> {
    let active: Option<bool> = db::query_scalar("SELECT is_active FROM product WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?;
    Ok(active == Some(true))
}

/// The active product a question or comment call names: by `id`
/// (`product_id`) or by `seo_url` (the original client's name), exactly one
/// of them, or both naming the same product. Neither, or two that name
/// different products, is a 400; a product that is not on sale a 404.
pub async fn product_named(pool: &Pool, id: Option<i64>, seo_url: Option<&str>) -> ApiResult<i64> {
    let not_found = || ApiError::not_found("Product not found");
    let by_seo = match seo_url {
        Some(seo) => Some(
            catalog::read::product::id_by_seo_url(pool, seo)
                .await?
                .ok_or_else(not_found)?,
        ),
        None => None,
    };
    match (id, by_seo) {
        (None, None) => Err(ApiError::invalid(
            "product_id",
            "Give the product's product_id or its seo_url.",
        )),
        (Some(id), Some(found)) if id != found => Err(ApiError::invalid(
            "product_id",
            "product_id and seo_url name different products; give one of them.",
        )),
        (_, Some(found)) => Ok(found),
        (Some(id), None) => {
            if product_is_active(pool, id).await? {
                Ok(id)
            } else {
                Err(not_found())
            }
        }
    }
}

/// Stores a question or comment of `user` about `product`, unpublished,
/// under the shopper's name, in one write transaction; a 429 past
/// [`TALK_LIMIT`]. The new row's id.
pub async fn store(
    pool: &Pool,
    kind: Talk,
    user: i64,
    product: i64,
    text: &str,
    now: i64,
) -> ApiResult<i64> {
    let mut tx = begin_write(pool).await?;
    let conn = &mut *tx;
    let (recent, oldest): (i64, Option<i64>) = db::query_as(
        "SELECT COUNT(*), MIN(created_at) FROM (\
           SELECT created_at FROM product_question WHERE user_id = $1 AND created_at > $2 \
           UNION ALL SELECT created_at FROM product_comment WHERE user_id = $1 AND created_at > $2) AS recent",
    )
    .bind(user)
    .bind(now - TALK_WINDOW_SECS)
    .fetch_one(&mut *conn)
    .await?;
    if recent >= TALK_LIMIT {
        let retry_after = oldest.map_or(TALK_WINDOW_SECS, |t| t + TALK_WINDOW_SECS - now);
        return Err(ApiError::TooManyRequests {
            message: "You have written a lot just now. Please wait a few minutes.".into(),
            retry_after: retry_after.max(1) as u64,
        });
    }
    let name: String = db::query_scalar("SELECT name FROM app_user WHERE id = $1")
        .bind(user)
        .fetch_one(&mut *conn)
        .await?;
    let (table, column) = kind.table();
    let id: i64 = db::query_scalar(&format!(
        "INSERT INTO {table} (product_id, user_id, username, {column}, is_active, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, FALSE, $5, $5) RETURNING id"
    ))
    .bind(product)
    .bind(user)
    .bind(name)
    .bind(text)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Records that `owner` viewed `product` now: it moves to the front of their
/// list, which keeps the newest [`RECENT_KEEP`] (one write transaction).
pub async fn record_view(pool: &Pool, owner: &Owner, product: i64, now: i64) -> sqlx::Result<()> {
    let (owned, key) = (owner.matches("", 1), owner.key());
    let (user, token) = owner.ids();
    let mut tx = begin_write(pool).await?;
    let conn = &mut *tx;
    db::query(&format!(
        "DELETE FROM recently_viewed WHERE {owned} AND product_id = $2"
    ))
    .bind(&key)
    .bind(product)
    .execute(&mut *conn)
    .await?;
    db::query(
        "INSERT INTO recently_viewed (self_token, user_id, product_id, viewed_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4, $4)",
    )
    .bind(token)
    .bind(user)
    .bind(product)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    db::query(&format!(
        "DELETE FROM recently_viewed WHERE {owned} AND id NOT IN \
         (SELECT id FROM recently_viewed WHERE {owned} ORDER BY viewed_at DESC, id DESC LIMIT $2)"
    ))
    .bind(&key)
    .bind(RECENT_KEEP)
    .execute(&mut *conn)
    .await?;
    tx.commit().await?;
    Ok(())
}
