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

/// Stores the shopper's review of a product delivered to them, unpublished
/// until the shop has checked it: a 403 when none of their delivered orders
/// holds it, a 409 when they have reviewed it already.
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
        "INSERT INTO review (product_id, user_id, order_detail_id, rating, comment, is_active, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, FALSE, $6, $6) ON CONFLICT (user_id, product_id) DO NOTHING",
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

/// A product of one of the shopper's delivered orders, with their review of
/// it when they wrote one.
#[derive(Debug, FromRow)]
pub struct Reviewable {
    pub product_id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    /// Whether the product is still sold (its page exists).
    pub product_active: bool,
    /// The main picture, icon size.
    pub image_url: Option<String>,
    pub review_id: Option<i64>,
    pub rating: Option<i64>,
    pub comment: Option<String>,
    pub review_active: Option<bool>,
    pub reviewed_at: Option<i64>,
}

/// Every product of the shopper's delivered orders (each once, the most
/// recently ordered first), with their review of it if any.
pub async fn reviewable(pool: &Pool, user: i64) -> sqlx::Result<Vec<Reviewable>> {
    db::query_as(
        "SELECT p.id AS product_id, p.title, p.sub_title, p.seo_url, p.is_active AS product_active, \
         (SELECT f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
          WHERE pi.product_id = p.id ORDER BY pi.is_main DESC, pi.sort, pi.id LIMIT 1) AS image_url, \
         r.id AS review_id, r.rating, r.comment, r.is_active AS review_active, r.updated_at AS reviewed_at \
         FROM (SELECT d.product_id, MAX(d.id) AS last_line FROM order_detail d \
               JOIN order_master o ON o.id = d.order_id \
               WHERE o.user_id = $1 AND o.order_status = 'delivered' GROUP BY d.product_id) delivered \
         JOIN product p ON p.id = delivered.product_id \
         LEFT JOIN review r ON r.product_id = p.id AND r.user_id = $2 \
         ORDER BY delivered.last_line DESC, p.id",
    )
    .bind(user)
    .bind(user)
    .fetch_all(pool)
    .await
}

/// A changed review: its id, and what it says now.
#[derive(Debug, Clone)]
pub struct ReviewEdit {
    pub id: i64,
    /// 1-5 stars.
    pub rating: i64,
    pub comment: String,
}

/// Changes one of the shopper's reviews and takes it off the product page
/// until the shop has checked it again: a 404 when `edit.id` is not one of
/// theirs. Answers the product's id.
pub async fn update(pool: &Pool, user: i64, edit: &ReviewEdit, now: i64) -> ApiResult<i64> {
    let mut tx = begin_write(pool).await?;
    let conn = &mut *tx;
    let product: Option<i64> =
        db::query_scalar("SELECT product_id FROM review WHERE id = $1 AND user_id = $2")
            .bind(edit.id)
            .bind(user)
            .fetch_optional(&mut *conn)
            .await?;
    let Some(product) = product else {
        return Err(ApiError::not_found("No such review of yours"));
    };
    db::query(
        "UPDATE review SET rating = $1, comment = $2, is_active = FALSE, updated_at = $3 \
         WHERE id = $4 AND user_id = $5",
    )
    .bind(edit.rating)
    .bind(&edit.comment)
    .bind(now)
    .bind(edit.id)
    .bind(user)
    .execute(&mut *conn)
    .await?;
    tx.commit().await?;
    Ok(product)
}

/// A published review as the product's page shows it: the reviewer's first
/// name only ([`catalog::read::site::reviewer_name`]).
#[derive(Debug, FromRow)]
pub struct Published {
    pub id: i64,
    pub product_id: i64,
    pub rating: i64,
    pub comment: String,
    pub created_at: i64,
    /// The reviewer's full name as stored: never answered as it is.
    pub user_name: String,
}

/// Whether `product` is an active product.
pub async fn product_is_active(pool: &Pool, product: i64) -> sqlx::Result<bool> {
    let found: Option<i64> = db::query_scalar("SELECT id FROM product WHERE id = $1 AND is_active")
        .bind(product)
        .fetch_optional(pool)
        .await?;
    Ok(found.is_some())
}

/// The newest `limit` published reviews of `product`, and how many it has
/// with their average rating ×100 (half up).
pub async fn published(
    pool: &Pool,
    product: i64,
    limit: i64,
) -> sqlx::Result<(Vec<Published>, i64, i64)> {
    let rows = db::query_as(
        "SELECT r.id, r.product_id, r.rating, r.comment, r.created_at, u.name AS user_name \
         FROM review r JOIN app_user u ON u.id = r.user_id \
         WHERE r.product_id = $1 AND r.is_active ORDER BY r.created_at DESC, r.id DESC LIMIT $2",
    )
    .bind(product)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let summary = catalog::read::site::review_summaries(pool, &[product]).await?;
    let (count, average_x100) = summary
        .get(&product)
        .and_then(|rows| rows.first())
        .map_or((0, 0), |s| (s.count, s.average_x100));
    Ok((rows, count, average_x100))
}
