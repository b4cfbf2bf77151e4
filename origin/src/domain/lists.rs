//! The compare list (guests or shoppers, at most [`MAX_COMPARE`] products)
//! and the wishlist (signed-in shoppers): each product is on a list once,
//! listed newest first at its price now.

use catalog::db::{self, begin_write, Pool};
use catalog::pricing;
use schemars::JsonSchema;
use serde::Serialize;
use sqlx::FromRow;

use crate::domain::identity::Owner;
use crate::plumbing::error::{ApiError, ApiResult};

/// Most products on a compare list (DOMAIN.md).
pub const MAX_COMPARE: i64 = 5;

/// One of the two lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    Compare,
    Wishlist,
}

impl List {
    fn table(self) -> &'static str {
        match self {
            List::Compare => "compare_item",
            List::Wishlist => "wishlist_item",
        }
    }
}

/// A product on a list, priced at the moment asked for.
#[derive(Debug, FromRow)]
pub struct Listed {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    pub sku: String,
    pub short_description: String,
    /// Taka before any discount.
    pub price_before: i64,
    /// Taka with any discount or flash sale running.
    pub price_now: i64,
    /// The main picture, icon size.
    pub image_url: Option<String>,
}

/// One attribute of a listed product: its label and value.
#[derive(Debug, Serialize, JsonSchema, FromRow)]
pub struct ListedAttribute {
    pub field_label: String,
    pub value: String,
}

/// An active product's title and seo_url.
#[derive(Debug, FromRow)]
pub struct ProductName {
    pub title: String,
    pub seo_url: String,
}

/// The active products on `owner`'s `list`, newest first, priced at `now`.
pub async fn products(
    pool: &Pool,
    list: List,
    owner: &Owner,
    now: i64,
) -> sqlx::Result<Vec<Listed>> {
    db::query_as(&format!(
        "SELECT p.id, p.title, p.sub_title, p.seo_url, p.sku, p.short_description, p.price_before, \
         {price} AS price_now, \
         (SELECT f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
          WHERE pi.product_id = p.id ORDER BY pi.is_main DESC, pi.sort, pi.id LIMIT 1) AS image_url \
         FROM {table} l JOIN product p ON p.id = l.product_id \
         WHERE {owned} AND p.is_active ORDER BY l.created_at DESC, l.id DESC",
        price = pricing::effective_price_sql(now),
        table = list.table(),
        owned = owner.matches("l.", 1),
    ))
    .bind(owner.key())
    .fetch_all(pool)
    .await
}

/// A product's attributes, for comparing side by side.
pub async fn attributes(pool: &Pool, product: i64) -> sqlx::Result<Vec<ListedAttribute>> {
    db::query_as(
        "SELECT a.field_label, v.value FROM product_attribute pa \
         JOIN attribute_value v ON v.id = pa.attribute_value_id \
         JOIN attribute a ON a.id = v.attribute_id WHERE pa.product_id = $1 ORDER BY a.id, v.id",
    )
    .bind(product)
    .fetch_all(pool)
    .await
}

/// Active product `id`'s title and seo_url; a 404 when there is none.
pub async fn active_product(pool: &Pool, id: i64) -> ApiResult<ProductName> {
    let found: Option<ProductName> =
        db::query_as("SELECT title, seo_url FROM product WHERE id = $1 AND is_active")
            .bind(id)
            .fetch_optional(pool)
            .await?;
    found.ok_or_else(|| ApiError::not_found("Product not found"))
}

/// Puts `product` on `owner`'s `list` in one write transaction; false when
/// it was there already. A full compare list is a 409.
pub async fn add(
    pool: &Pool,
    list: List,
    owner: &Owner,
    product: i64,
    now: i64,
) -> ApiResult<bool> {
    let (owned, value) = (owner.matches("", 1), owner.key());
    let table = list.table();
    let mut tx = begin_write(pool).await?;
    let conn = &mut *tx;
    let have: Option<i64> = db::query_scalar(&format!(
        "SELECT id FROM {table} WHERE {owned} AND product_id = $2"
    ))
    .bind(&value)
    .bind(product)
    .fetch_optional(&mut *conn)
    .await?;
    if have.is_some() {
        return Ok(false);
    }
    if list == List::Compare {
        let count: i64 = db::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE {owned}"))
            .bind(&value)
            .fetch_one(&mut *conn)
            .await?;
        if count >= MAX_COMPARE {
            return Err(ApiError::Conflict(format!(
                "You can compare at most {MAX_COMPARE} products. Remove one first."
            )));
        }
    }
    let (user, token) = owner.ids();
    db::query(&format!(
        "INSERT INTO {table} (user_id, self_token, product_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)"
    ))
    .bind(user)
    .bind(token)
    .bind(product)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Takes `product` off `owner`'s `list`; a 404 when it was not on it.
pub async fn remove(pool: &Pool, list: List, owner: &Owner, product: i64) -> ApiResult<()> {
    let done = db::query(&format!(
        "DELETE FROM {} WHERE {} AND product_id = $2",
        list.table(),
        owner.matches("", 1)
    ))
    .bind(owner.key())
    .bind(product)
    .execute(pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(ApiError::not_found("That product is not on your list"));
    }
    Ok(())
}
