//! The product card: a product as every list shows it (home strips, category
//! listings, related products, search results, flash sales).

use std::collections::HashMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{Pool, QueryBuilder};
use crate::pricing;

/// An image as the API returns it: paths relative to the site root, e.g.
/// `storage/uploads/fullsize/bed-12.webp`.
#[derive(Debug, Clone, Serialize, FromRow, PartialEq, Eq, schemars::JsonSchema)]
pub struct ImageRef {
    pub id: i64,
    pub full_size_directory: String,
    pub icon_size_directory: String,
}

/// A product in a list (SPEC.md §3 "Product in lists", plus the fields the
/// original client's card read).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct ProductCard {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub sku: String,
    pub product_code: String,
    pub seo_url: String,
    /// List price, taka (the original's name).
    pub local_selling_price: i64,
    /// Percent off the list price, as shown now.
    pub local_discount: i64,
    /// Taka off the list price, as shown now.
    pub actual_discount: i64,
    /// The price a shopper pays now, taka: a running flash sale applied.
    pub product_price_now: i64,
    /// The first image's full-size path, or None for a product without images.
    pub image_url: Option<String>,
    pub first_image: Option<ImageRef>,
    pub second_image: Option<ImageRef>,
    pub enable_variation: bool,
    pub pre_booking: bool,
    pub cash_on_delivery: bool,
    pub in_stock: bool,
    /// The running flash sale's discount in percent, when one applies.
    pub flash_discount: Option<i64>,
}

#[derive(FromRow)]
struct CardRow {
    id: i64,
    title: String,
    sub_title: String,
    sku: String,
    product_code: String,
    seo_url: String,
    price_before: i64,
    price_now: i64,
    effective_price: i64,
    flash_discount: Option<i64>,
    enable_variation: bool,
    pre_booking: bool,
    cash_on_delivery: bool,
    stock: i64,
}

#[derive(FromRow)]
struct CardImage {
    product_id: i64,
    id: i64,
    full_size_directory: String,
    icon_size_directory: String,
}

/// Loads the cards of `ids` at `now`, in the order given. Unknown or inactive
/// products are left out.
pub async fn cards(pool: &Pool, ids: &[i64], now: i64) -> Result<Vec<ProductCard>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut q: QueryBuilder = QueryBuilder::new(format!(
        "SELECT p.id, p.title, p.sub_title, p.sku, p.product_code, p.seo_url, p.price_before, p.price_now, \
         {effective} AS effective_price, \
         (SELECT MAX(fi.discount_percent) FROM flash_item fi JOIN flash_schedule fs ON fs.id = fi.schedule_id \
          WHERE fi.product_id = p.id AND fs.is_active AND fs.starts_at <= {now} AND fs.ends_at > {now}) AS flash_discount, \
         p.enable_variation, p.pre_booking, p.cash_on_delivery, p.stock \
         FROM product p WHERE p.is_active AND p.id IN (",
        effective = pricing::effective_price_sql(now),
    ));
    let mut list = q.separated(", ");
    for id in ids {
        list.push_bind(*id);
    }
    q.push(")");
    let rows: Vec<CardRow> = q.build_query_as().fetch_all(pool).await?;

    let mut q: QueryBuilder = QueryBuilder::new(
        "SELECT pi.product_id, f.id, f.full_size_directory, f.icon_size_directory \
         FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id WHERE pi.product_id IN (",
    );
    let mut list = q.separated(", ");
    for id in ids {
        list.push_bind(*id);
    }
    q.push(") ORDER BY pi.product_id, pi.sort, pi.id");
    let mut images: HashMap<i64, Vec<ImageRef>> = HashMap::new();
    for img in q.build_query_as::<CardImage>().fetch_all(pool).await? {
        let list = images.entry(img.product_id).or_default();
        if list.len() < 2 {
            list.push(ImageRef {
                id: img.id,
                full_size_directory: img.full_size_directory,
                icon_size_directory: img.icon_size_directory,
            });
        }
    }

    let mut by_id: HashMap<i64, ProductCard> = rows
        .into_iter()
        .map(|r| {
            let mut imgs = images.remove(&r.id).unwrap_or_default().into_iter();
            let first_image = imgs.next();
            let second_image = imgs.next();
            let card = ProductCard {
                id: r.id,
                title: r.title,
                sub_title: r.sub_title,
                sku: r.sku,
                product_code: r.product_code,
                seo_url: r.seo_url,
                local_selling_price: r.price_before,
                local_discount: pricing::discount_percent(r.price_before, r.effective_price),
                actual_discount: r.price_before - r.effective_price,
                product_price_now: r.effective_price,
                image_url: first_image.as_ref().map(|i| i.full_size_directory.clone()),
                first_image,
                second_image,
                enable_variation: r.enable_variation,
                pre_booking: r.pre_booking,
                cash_on_delivery: r.cash_on_delivery,
                in_stock: r.stock > 0,
                flash_discount: r.flash_discount.filter(|_| r.effective_price < r.price_now),
            };
            (card.id, card)
        })
        .collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}
