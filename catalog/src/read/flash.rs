//! Read queries of flash sales (SPEC.md §3 flash_schedule and flash_items):
//! the schedule running at an instant and its items with their product cards.
//! `home/flash-sales` lists every item, `common/flash-sales` pages them; the
//! sale price itself is [`crate::pricing`]'s rule, applied by
//! [`crate::read::cards`] only inside the schedule.

use std::collections::HashMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::clock;
use crate::db::{self, Pool};
use crate::read::card::ProductCard;

/// A flash sale schedule as the original API sent it.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct FlashSchedule {
    pub id: i64,
    pub fs_name: String,
    pub fs_description: String,
    /// Start and end in Asia/Dhaka time, `YYYY-MM-DD HH:MM:SS`.
    #[sqlx(skip)]
    pub fs_start_date: String,
    #[sqlx(skip)]
    pub fs_end_date: String,
    pub fs_is_active: bool,
    pub show_price: bool,
    /// Start, unix seconds.
    pub starts_at: i64,
    /// The end, unix seconds (what the countdown reads).
    pub timestamp: i64,
}

/// The flash sale running at `now`, if any (the one ending first when several run).
pub async fn running_flash(pool: &Pool, now: i64) -> Result<Option<FlashSchedule>, sqlx::Error> {
    let row: Option<FlashSchedule> = db::query_as(
        "SELECT id, fs_name, fs_description, is_active AS fs_is_active, show_price, starts_at, \
         ends_at AS timestamp FROM flash_schedule \
         WHERE is_active AND starts_at <= $1 AND ends_at > $1 ORDER BY ends_at, id LIMIT 1",
    )
    .bind(now)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|mut s| {
        let fmt = "%Y-%m-%d %H:%M:%S";
        s.fs_start_date = clock::in_dhaka(s.starts_at).format(fmt).to_string();
        s.fs_end_date = clock::in_dhaka(s.timestamp).format(fmt).to_string();
        s
    }))
}

/// An item of a flash sale with its product card (the original's FlashItem;
/// `fi_shedule_id` keeps the original's spelling).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct FlashItem {
    pub fi_shedule_id: i64,
    pub fi_product_id: i64,
    pub fi_discount: i64,
    pub fi_show_tag: bool,
    pub fi_qty: i64,
    pub product: ProductCard,
}

#[derive(FromRow)]
struct FlashItemRow {
    schedule_id: i64,
    product_id: i64,
    discount_percent: i64,
    show_tag: bool,
    qty: i64,
}

/// How many items of schedule `id` have an active product.
pub async fn flash_item_count(pool: &Pool, id: i64) -> Result<i64, sqlx::Error> {
    db::query_scalar(
        "SELECT COUNT(*) FROM flash_item fi JOIN product p ON p.id = fi.product_id \
         WHERE fi.schedule_id = $1 AND p.is_active",
    )
    .bind(id)
    .fetch_one(pool)
    .await
}

/// Items `offset..offset+limit` of schedule `id`, with their cards at `now`.
pub async fn flash_items(
    pool: &Pool,
    id: i64,
    limit: i64,
    offset: i64,
    now: i64,
) -> Result<Vec<FlashItem>, sqlx::Error> {
    let rows: Vec<FlashItemRow> = db::query_as(
        "SELECT fi.schedule_id, fi.product_id, fi.discount_percent, fi.show_tag, fi.qty \
         FROM flash_item fi JOIN product p ON p.id = fi.product_id \
         WHERE fi.schedule_id = $1 AND p.is_active ORDER BY fi.sort, fi.id LIMIT $2 OFFSET $3",
    )
    .bind(id)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.product_id).collect();
    let mut cards: HashMap<i64, ProductCard> = crate::read::cards(pool, &ids, now)
        .await?
        .into_iter()
        .map(|c| (c.id, c))
        .collect();
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            cards.remove(&r.product_id).map(|product| FlashItem {
                fi_shedule_id: r.schedule_id,
                fi_product_id: r.product_id,
                fi_discount: r.discount_percent,
                fi_show_tag: r.show_tag,
                fi_qty: r.qty,
                product,
            })
        })
        .collect())
}
