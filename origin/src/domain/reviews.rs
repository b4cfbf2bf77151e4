//! Product reviews by shoppers: one per product, only for a product of one
//! of their delivered orders, unpublished until the shop has checked it.

use catalog::db::{self, begin_write, Pool};
use sqlx::FromRow;

use crate::plumbing::error::{ApiError, ApiResult};

/// One of a shopper's reviews with the product it is about.
#[derive(Debug, FromRow)]
pub struct OwnReview {
    pub id: i64,
    pub product_id: i64,
    /// The product's title.
    pub title: String,
    /// 1-5 stars.
    pub rating: i64,
    pub comment: String,
    /// False until the shop has checked it.
    pub is_active: bool,
    /// Unix seconds.
    pub created_at: i64,
    pub seo_url: String,
    pub sub_title: String,
    pub sku: String,
}

/// The shopper's reviews, newest first.
pub async fn of_user(pool: &Pool, user: i64) -> sqlx::Result<Vec<OwnReview>> {
    db::query_as(
        "SELECT r.id, p.id AS product_id, p.title, r.rating, r.comment, r.is_active, r.created_at, p.seo_url, \
             p.sub_title, p.sku FROM review r JOIN product p ON p.id = r.product_id \
             WHERE r.user_id = $1 ORDER BY r.created_at DESC, r.id DESC",
    )
    .bind(user)
    .fetch_all(pool)
    .await
}

/// A checked review.
#[derive(Debug, Clone)]
pub struct NewReview {
    pub product_id: i64,
    /// 1-5 stars.
    pub rating: i64,
    pub comment: String,
}

/// Stores the shopper's review of a product delivered to them: a 403 when
/// none of their delivered orders holds it, a 409 when they have reviewed it
/// already.
pub async fn store(pool: &Pool, user: i64, review: &NewReview, now: i64) -> ApiResult<()> {
    let mut tx = begin_write(pool).await?;
    let conn = &mut *tx;
    let detail: Option<i64> = db::query_scalar(
        "SELECT d.id FROM order_detail d JOIN order_master o ON o.id = d.order_id \
         WHERE o.user_id = $1 AND d.product_id = $2 AND o.order_status = 'delivered' \
         ORDER BY d.id DESC LIMIT 1",
    )
    .bind(user)
    .bind(review.product_id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(detail) = detail else {
        return Err(ApiError::Forbidden(
            "You can review a product once it has been delivered to you.".into(),
        ));
    };
    let inserted = db::query(
        "INSERT INTO review (product_id, user_id, order_detail_id, rating, comment, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (user_id, product_id) DO NOTHING",
    )
    .bind(review.product_id)
    .bind(user)
    .bind(detail)
    .bind(review.rating)
    .bind(&review.comment)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(ApiError::Conflict(
            "You have already reviewed this product.".into(),
        ));
    }
    tx.commit().await?;
    Ok(())
}
