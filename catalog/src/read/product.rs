//! Read queries of the Product group (SPEC.md §7): a product page's details,
//! images and 360 frames, related products, questions and comments,
//! variations, recently viewed, and product sets by slug. Lists return ids;
//! callers load them with [`crate::read::cards`].

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Pool};
use crate::pricing;
use crate::read::category::{CategoryRef, ROOT_ID, VISIBLE};
use crate::read::site;

/// The id of the active product with slug `seo_url`.
pub async fn id_by_seo_url(pool: &Pool, seo_url: &str) -> Result<Option<i64>, sqlx::Error> {
    db::query_scalar("SELECT id FROM product WHERE seo_url = $1 AND is_active")
        .bind(seo_url)
        .fetch_optional(pool)
        .await
}

/// An attribute line of a product page.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AttrLine {
    pub field_label: String,
    pub field_name: String,
    pub value: String,
    pub slug: String,
}

/// A category the product is in.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct ProductCategory {
    pub term_id: i64,
    pub term_name: String,
    pub seo_url: String,
    pub is_primary: bool,
}

/// A value of a variation group.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct VariationValue {
    pub value: String,
    pub product_code: String,
    pub price_before: i64,
    pub price_now: i64,
    pub stock: i64,
}

/// A variation group (e.g. "Colour") with its values.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct VariationGroup {
    pub attribute: String,
    pub values: Vec<VariationValue>,
}

/// The product's variations (the original's `{status, data, count}`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Variations {
    pub status: bool,
    pub count: usize,
    pub data: Vec<VariationGroup>,
}

/// The running flash sale that prices the product now.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct FlashInfo {
    pub schedule_id: i64,
    pub fs_name: String,
    pub discount_percent: i64,
    /// Unix seconds; shown in Asia/Dhaka time by clients.
    pub starts_at: i64,
    pub ends_at: i64,
}

/// A bank's instalment plan for the product at its price now.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct EmiPlan {
    pub bank: String,
    pub months: i64,
    /// Yearly interest in basis points.
    pub interest_bp: i64,
    /// Whole taka per month (rounded up).
    pub per_month: i64,
}

/// EMI summary of a product page: no plans, and not available, where the
/// product does not offer EMI at its price now ([`pricing::emi_offered`]).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Emi {
    pub available: bool,
    pub from_per_month: Option<i64>,
    pub plans: Vec<EmiPlan>,
}

/// A product page's details (`product/info` and `product/simple-info`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ProductDetail {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    pub product_code: String,
    pub sku: String,
    pub qty: i64,
    pub short_description: String,
    pub description: String,
    /// The first image's full-size path.
    pub image: Option<String>,
    /// List price, taka.
    pub local_selling_price: i64,
    /// Percent off the list price now.
    pub local_discount: i64,
    pub actual_discount: i64,
    /// Regular selling price (before any flash sale), taka.
    pub regular_price: i64,
    /// The price a shopper pays now, taka.
    pub price_now: i64,
    pub product_price_now: i64,
    /// `in_stock`, `out_of_stock` or `pre_booking`.
    pub stock_status: &'static str,
    pub pre_booking: bool,
    pub pre_booking_min_percent: i64,
    pub cash_on_delivery: bool,
    pub disable_buy: bool,
    pub enable_comment: bool,
    pub enable_review: bool,
    pub enable_variation: bool,
    pub variation_show_as: String,
    pub new_arrival: bool,
    pub recommended: bool,
    pub best_selling: bool,
    pub emi_available: bool,
    pub delivery_time: String,
    pub pro_warranty: String,
    pub care_info: String,
    pub seo_title: Option<String>,
    pub seo_description: Option<String>,
    pub seo_keywords: Option<String>,
    pub attrs: Vec<AttrLine>,
    pub categories: Vec<ProductCategory>,
    pub variations: Variations,
    pub flash_sale: bool,
    pub flash_item_information: Option<FlashInfo>,
    pub emi: Emi,
    pub updated_at: i64,
}

#[derive(FromRow)]
struct Extra {
    enable_variation: bool,
    variation_show_as: String,
    new_arrival: bool,
    recommended: bool,
    best_selling: bool,
    pre_booking_min_percent: i64,
    seo_keywords: Option<String>,
}

/// The details of active product `id` at `now`.
pub async fn detail(pool: &Pool, id: i64, now: i64) -> Result<Option<ProductDetail>, sqlx::Error> {
    let Some(row) = site::products(pool, &[id], now).await?.into_iter().next() else {
        return Ok(None);
    };
    let extra: Extra = db::query_as(
        "SELECT enable_variation, variation_show_as, new_arrival, recommended, best_selling, \
         pre_booking_min_percent, seo_keywords FROM product WHERE id = $1",
    )
    .bind(id)
    .fetch_one(pool)
    .await?;
    let image: Option<String> = db::query_scalar(
        "SELECT f.full_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
         WHERE pi.product_id = $1 ORDER BY pi.sort, pi.id LIMIT 1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await?;
    let attrs = site::attributes(pool, &[id])
        .await?
        .remove(&id)
        .unwrap_or_default()
        .into_iter()
        .map(|a| AttrLine {
            field_label: a.field_label,
            field_name: a.field_name,
            value: a.value,
            slug: a.slug,
        })
        .collect();
    let categories: Vec<ProductCategory> = db::query_as(
        "SELECT c.id AS term_id, c.name AS term_name, c.seo_url, pc.is_primary FROM product_category pc \
         JOIN category c ON c.id = pc.category_id WHERE pc.product_id = $1 ORDER BY pc.is_primary DESC, c.id",
    )
    .bind(id)
    .fetch_all(pool)
    .await?;
    let mut groups: Vec<VariationGroup> = Vec::new();
    let mut count = 0;
    for v in site::variations(pool, &[id])
        .await?
        .remove(&id)
        .unwrap_or_default()
    {
        count += 1;
        let value = VariationValue {
            value: v.value,
            product_code: v.product_code,
            price_before: v.price_before,
            price_now: v.price_now,
            stock: v.stock,
        };
        match groups.iter_mut().find(|g| g.attribute == v.attribute) {
            Some(g) => g.values.push(value),
            None => groups.push(VariationGroup {
                attribute: v.attribute,
                values: vec![value],
            }),
        }
    }
    let flash: Option<FlashInfo> = db::query_as(
        "SELECT fs.id AS schedule_id, fs.fs_name, fi.discount_percent, fs.starts_at, fs.ends_at \
         FROM flash_item fi JOIN flash_schedule fs ON fs.id = fi.schedule_id \
         WHERE fi.product_id = $1 AND fs.is_active AND fs.starts_at <= $2 AND fs.ends_at > $2 \
         ORDER BY fi.discount_percent DESC, fs.id LIMIT 1",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    let offered = pricing::emi_offered(row.emi_available, row.effective_price);
    let plans: Vec<EmiPlan> = site::emi_offers(pool, &[id])
        .await?
        .remove(&id)
        .unwrap_or_default()
        .into_iter()
        .filter(|_| offered)
        .map(|e| EmiPlan {
            per_month: pricing::emi_per_month(row.effective_price, e.months, e.interest_bp),
            bank: e.bank,
            months: e.months,
            interest_bp: e.interest_bp,
        })
        .collect();
    let emi = Emi {
        available: !plans.is_empty(),
        from_per_month: plans.iter().map(|p| p.per_month).min(),
        plans,
    };
    let stock_status = if row.pre_booking {
        "pre_booking"
    } else if row.stock > 0 {
        "in_stock"
    } else {
        "out_of_stock"
    };
    Ok(Some(ProductDetail {
        id: row.id,
        title: row.title,
        sub_title: row.sub_title,
        seo_url: row.seo_url,
        product_code: row.product_code,
        sku: row.sku,
        qty: row.stock,
        short_description: row.short_description,
        description: row.description,
        image,
        local_selling_price: row.price_before,
        local_discount: pricing::discount_percent(row.price_before, row.effective_price),
        actual_discount: row.price_before - row.effective_price,
        regular_price: row.price_now,
        price_now: row.effective_price,
        product_price_now: row.effective_price,
        stock_status,
        pre_booking: row.pre_booking,
        pre_booking_min_percent: extra.pre_booking_min_percent,
        cash_on_delivery: row.cash_on_delivery,
        disable_buy: row.disable_buy,
        enable_comment: row.enable_comment,
        enable_review: row.enable_review,
        enable_variation: extra.enable_variation,
        variation_show_as: extra.variation_show_as,
        new_arrival: extra.new_arrival,
        recommended: extra.recommended,
        best_selling: extra.best_selling,
        emi_available: row.emi_available,
        delivery_time: row.delivery_time,
        pro_warranty: row.pro_warranty,
        care_info: row.care_info,
        seo_title: row.seo_title,
        seo_description: row.seo_description,
        seo_keywords: extra.seo_keywords,
        attrs,
        categories,
        variations: Variations {
            status: count > 0,
            count,
            data: groups,
        },
        flash_sale: flash.is_some(),
        flash_item_information: flash,
        emi,
        updated_at: row.updated_at,
    }))
}

/// A gallery image.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Image {
    pub id: i64,
    pub full_size_directory: String,
    pub icon_size_directory: String,
    pub width: i64,
    pub height: i64,
}

/// What `product/images` answers.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Images {
    pub images: Vec<Image>,
    #[serde(rename = "youtubeLink")]
    pub youtube_link: Option<String>,
    /// The 360-degree frames' paths, in turning order (empty for most products).
    pub degree_images: Vec<String>,
}

/// The 360-degree frames of `id`, in order.
pub async fn frames_360(pool: &Pool, id: i64) -> Result<Vec<String>, sqlx::Error> {
    db::query_scalar(
        "SELECT f.full_size_directory FROM product_360_frame r JOIN image_file f ON f.id = r.image_file_id \
         WHERE r.product_id = $1 ORDER BY r.frame_no",
    )
    .bind(id)
    .fetch_all(pool)
    .await
}

/// Gallery, video and 360 frames of `id`.
pub async fn images(pool: &Pool, id: i64) -> Result<Images, sqlx::Error> {
    let images = site::gallery_images(pool, &[id])
        .await?
        .remove(&id)
        .unwrap_or_default()
        .into_iter()
        .map(|g| Image {
            id: g.id,
            full_size_directory: g.full_size_directory,
            icon_size_directory: g.icon_size_directory,
            width: g.width,
            height: g.height,
        })
        .collect();
    let youtube_link = site::media(pool, &[id])
        .await?
        .remove(&id)
        .and_then(|m| m.into_iter().next())
        .and_then(|m| m.video_url);
    Ok(Images {
        images,
        youtube_link,
        degree_images: frames_360(pool, id).await?,
    })
}

/// Which related list to select.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Related {
    /// Same sub-category (the primary category), nearest price now first.
    Similar,
    /// Same sub-category, most popular first.
    SameCategory,
    /// Sibling categories (e.g. bedside tables for a bed), recommended first.
    GoesWellWith,
    /// Anywhere in the same top category, most popular first.
    OtherAlsoSee,
}

/// SQL for the product's primary category (`$1` is the product id).
const PRIMARY: &str = "(SELECT pc.category_id FROM product_category pc WHERE pc.product_id = $1 \
                       ORDER BY pc.is_primary DESC, pc.category_id LIMIT 1)";

/// Ids of up to `limit` active products related to `id` (never `id` itself).
pub async fn related_ids(
    pool: &Pool,
    id: i64,
    kind: Related,
    limit: i64,
    now: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    let effective = pricing::effective_price_sql(now);
    let sql = match kind {
        Related::Similar => format!(
            "SELECT p.id FROM product p JOIN product_category pc ON pc.product_id = p.id \
             WHERE pc.category_id = {PRIMARY} AND p.id <> $1 AND p.is_active \
             ORDER BY ABS({effective} - (SELECT {effective} FROM product p WHERE p.id = $1)), p.id LIMIT $2"
        ),
        Related::SameCategory => format!(
            "SELECT p.id FROM product p JOIN product_category pc ON pc.product_id = p.id \
             WHERE pc.category_id = {PRIMARY} AND p.id <> $1 AND p.is_active \
             ORDER BY p.popularity DESC, p.id LIMIT $2"
        ),
        Related::GoesWellWith => format!(
            "SELECT p.id FROM product p WHERE p.is_active AND p.id <> $1 AND p.id IN ( \
               SELECT pc.product_id FROM product_category pc JOIN category c ON c.id = pc.category_id \
               WHERE c.parent = (SELECT parent FROM category WHERE id = {PRIMARY}) AND c.id <> {PRIMARY} \
               AND {VISIBLE}) \
             ORDER BY p.recommended DESC, p.popularity DESC, p.id LIMIT $2"
        ),
        // Walk up from the primary category to the root's child, then take
        // that top category's whole subtree.
        Related::OtherAlsoSee => format!(
            "WITH RECURSIVE up(id, parent) AS ( \
               SELECT c.id, c.parent FROM category c WHERE c.id = {PRIMARY} \
               UNION ALL SELECT c.id, c.parent FROM category c JOIN up ON c.id = up.parent \
               WHERE up.parent <> {ROOT_ID}), \
             top(id) AS (SELECT id FROM up WHERE parent IS NULL OR parent = {ROOT_ID} LIMIT 1), \
             sub(id) AS (SELECT id FROM top UNION ALL \
               SELECT c.id FROM category c JOIN sub ON c.parent = sub.id WHERE {VISIBLE}) \
             SELECT p.id FROM product p WHERE p.is_active AND p.id <> $1 AND p.id IN ( \
               SELECT pc.product_id FROM product_category pc WHERE pc.category_id IN (SELECT id FROM sub)) \
             ORDER BY p.popularity DESC, p.id LIMIT $2"
        ),
    };
    db::query_scalar(&sql)
        .bind(id)
        .bind(limit)
        .fetch_all(pool)
        .await
}

/// An answer to a question.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct Answer {
    pub description: String,
}

/// A shopper's question with its answers.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Question {
    pub id: i64,
    pub username: String,
    pub description: String,
    /// "3 days ago".
    pub time: String,
    pub created_at: i64,
    pub answers: Vec<Answer>,
}

/// How long ago `then` was, at `now`, in words ("5 minutes ago").
pub fn ago(then: i64, now: i64) -> String {
    let d = (now - then).max(0);
    let (n, unit) = match d {
        0..=59 => return "just now".into(),
        60..=3_599 => (d / 60, "minute"),
        3_600..=86_399 => (d / 3_600, "hour"),
        86_400..=2_591_999 => (d / 86_400, "day"),
        2_592_000..=31_535_999 => (d / 2_592_000, "month"),
        _ => (d / 31_536_000, "year"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

/// The newest `limit` questions of `id` shoppers see ([`super::QUESTION_SHOWN`]),
/// each with its answers.
pub async fn questions(
    pool: &Pool,
    id: i64,
    limit: i64,
    now: i64,
) -> Result<Vec<Question>, sqlx::Error> {
    let rows: Vec<(i64, String, String, i64)> = db::query_as(&format!(
        "SELECT q.id, q.username, q.description, q.created_at FROM product_question q \
         WHERE q.product_id = $1 AND {} ORDER BY q.created_at DESC, q.id DESC LIMIT $2",
        super::QUESTION_SHOWN
    ))
    .bind(id)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for (qid, username, description, created_at) in rows {
        let answers = db::query_as(
            "SELECT description FROM product_question_answer WHERE question_id = $1 ORDER BY id",
        )
        .bind(qid)
        .fetch_all(pool)
        .await?;
        out.push(Question {
            id: qid,
            username,
            description,
            time: ago(created_at, now),
            created_at,
            answers,
        });
    }
    Ok(out)
}

/// A shopper's comment.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Comment {
    pub username: String,
    pub comment: String,
    pub time: String,
    pub created_at: i64,
}

/// The newest `limit` active comments of `id`.
pub async fn comments(
    pool: &Pool,
    id: i64,
    limit: i64,
    now: i64,
) -> Result<Vec<Comment>, sqlx::Error> {
    Ok(site::comments(pool, &[id], limit)
        .await?
        .remove(&id)
        .unwrap_or_default()
        .into_iter()
        .map(|c| Comment {
            time: ago(c.created_at, now),
            username: c.username,
            comment: c.text,
            created_at: c.created_at,
        })
        .collect())
}

/// A variation as `product/product-variation` lists it.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct VariationItem {
    pub id: i64,
    pub product_id: i64,
    pub title: String,
    pub product_code: String,
    pub sub_title: String,
    pub price_before: i64,
    pub price_now: i64,
    pub stock: i64,
    pub image: Option<String>,
}

/// A variation group of `product/product-variation`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct VariationList {
    pub group: VariationGroupTitle,
    pub variations: Vec<VariationItem>,
}

/// A variation group's title.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct VariationGroupTitle {
    pub title: String,
}

/// The variations of `id`, grouped by attribute.
pub async fn variation_list(pool: &Pool, id: i64) -> Result<Vec<VariationList>, sqlx::Error> {
    let rows: Vec<(String, VariationItem)> = db::query_as::<VariationRowFull>(
        "SELECT v.attribute, v.id, v.product_id, v.value AS title, v.product_code, v.sub_title, v.price_before, \
         v.price_now, v.stock, f.full_size_directory AS image FROM product_variation v \
         LEFT JOIN image_file f ON f.id = v.image_file_id WHERE v.product_id = $1 ORDER BY v.sort, v.id",
    )
    .bind(id)
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| (r.attribute, r.item))
    .collect();
    let mut out: Vec<VariationList> = Vec::new();
    for (attribute, item) in rows {
        match out.iter_mut().find(|g| g.group.title == attribute) {
            Some(g) => g.variations.push(item),
            None => out.push(VariationList {
                group: VariationGroupTitle { title: attribute },
                variations: vec![item],
            }),
        }
    }
    Ok(out)
}

#[derive(FromRow)]
struct VariationRowFull {
    attribute: String,
    #[sqlx(flatten)]
    item: VariationItem,
}

/// Ids of the products a user or a guest viewed most recently (newest first).
pub async fn recently_viewed_ids(
    pool: &Pool,
    user_id: Option<i64>,
    self_token: Option<&str>,
    limit: i64,
) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(
        "SELECT product_id FROM recently_viewed WHERE user_id = $1 OR self_token = $2 \
         ORDER BY viewed_at DESC, id DESC LIMIT $3",
    )
    .bind(user_id)
    .bind(self_token)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A product set by slug (`product/product-set-info`).
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct ProductSetInfo {
    pub id: i64,
    pub title: String,
    pub subtitle: String,
    pub slug: String,
    #[sqlx(skip)]
    pub product_ids: Vec<i64>,
    pub category_id: Option<i64>,
    pub image_id: Option<i64>,
    pub description: String,
    pub active: bool,
    /// Σ qty × the price a shopper pays now, taka.
    pub price_all: i64,
    pub price_info: String,
    pub image_url: Option<String>,
}

/// The active product set with slug `slug`, at `now`.
pub async fn product_set(
    pool: &Pool,
    slug: &str,
    now: i64,
) -> Result<Option<ProductSetInfo>, sqlx::Error> {
    let set: Option<ProductSetInfo> = db::query_as(&format!(
        "SELECT s.id, s.title, s.subtitle, s.slug, s.category_id, s.image_file_id AS image_id, s.description, \
         s.active, CAST(COALESCE((SELECT SUM(i.qty * {effective}) FROM product_set_item i JOIN product p ON p.id = i.product_id \
           WHERE i.product_set_id = s.id), 0) AS BIGINT) AS price_all, s.price_info, f.full_size_directory AS image_url \
         FROM product_set s LEFT JOIN image_file f ON f.id = s.image_file_id WHERE s.slug = $1 AND s.active",
        effective = pricing::effective_price_sql(now)
    ))
    .bind(slug)
    .fetch_optional(pool)
    .await?;
    let Some(mut set) = set else { return Ok(None) };
    set.product_ids = db::query_scalar(
        "SELECT product_id FROM product_set_item WHERE product_set_id = $1 ORDER BY sort, product_id",
    )
    .bind(set.id)
    .fetch_all(pool)
    .await?;
    Ok(Some(set))
}

/// The category set `set` belongs to (the original's `term`), if published.
pub async fn set_category(
    pool: &Pool,
    set: &ProductSetInfo,
) -> Result<Option<CategoryRef>, sqlx::Error> {
    let Some(id) = set.category_id else {
        return Ok(None);
    };
    db::query_as(&format!(
        "SELECT c.id, c.name, c.seo_url, c.parent FROM category c WHERE c.id = $1 AND {VISIBLE}"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// A product of a set (`product/product-set-products`).
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct SetProduct {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    pub product_code: String,
    pub sku: String,
    /// Units in stock.
    pub qty: i64,
    /// The price a shopper pays now, taka.
    pub price_now: i64,
    pub stock_status: String,
    /// Units of this product in the set.
    pub product_set_qty: i64,
    pub image_url: Option<String>,
    /// Buying switched off for the product (the set cannot be added).
    pub disable_buy: bool,
}

/// The products of set `set_id` at `now`.
pub async fn set_products(
    pool: &Pool,
    set_id: i64,
    now: i64,
) -> Result<Vec<SetProduct>, sqlx::Error> {
    db::query_as(&format!(
        "SELECT p.id, p.title, p.sub_title, p.seo_url, p.product_code, p.sku, p.stock AS qty, {effective} AS price_now, \
         CASE WHEN p.pre_booking THEN 'pre_booking' WHEN p.stock > 0 THEN 'in_stock' ELSE 'out_of_stock' END AS stock_status, \
         i.qty AS product_set_qty, \
         (SELECT f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
          WHERE pi.product_id = p.id ORDER BY pi.sort, pi.id LIMIT 1) AS image_url, p.disable_buy \
         FROM product_set_item i JOIN product p ON p.id = i.product_id \
         WHERE i.product_set_id = $1 AND p.is_active ORDER BY i.sort, p.id",
        effective = pricing::effective_price_sql(now)
    ))
    .bind(set_id)
    .fetch_all(pool)
    .await
}

/// The stock of a product that is in a product set, for the set pages.
#[derive(Debug, Clone, FromRow)]
pub struct SetItemStock {
    pub product_id: i64,
    /// Units in stock.
    pub stock: i64,
    pub pre_booking: bool,
    /// Buying switched off for the product.
    pub disable_buy: bool,
}

/// The stock of every active product that is in a product set.
pub async fn set_item_stock(pool: &Pool) -> Result<Vec<SetItemStock>, sqlx::Error> {
    db::query_as(
        "SELECT p.id AS product_id, p.stock, p.pre_booking, p.disable_buy FROM product p \
         WHERE p.is_active AND p.id IN (SELECT product_id FROM product_set_item) ORDER BY p.id",
    )
    .fetch_all(pool)
    .await
}

/// An active fabric of a set with its first image, for the set pages.
#[derive(Debug, Clone, FromRow)]
pub struct SetFabric {
    pub product_set_id: i64,
    pub id: i64,
    pub title: String,
    /// The fabric's image path; empty when it has none.
    pub path: String,
    /// Pixels; 0 when unknown.
    pub width: i64,
    pub height: i64,
}

/// Every active fabric of every set, in each set's order.
pub async fn set_fabrics(pool: &Pool) -> Result<Vec<SetFabric>, sqlx::Error> {
    db::query_as(
        "SELECT fb.product_set_id, fb.id, fb.title, COALESCE(f.full_size_directory, '') AS path, \
         COALESCE(f.width, 0) AS width, COALESCE(f.height, 0) AS height \
         FROM fabric fb LEFT JOIN image_file f ON f.id = fb.image_file_id \
         WHERE fb.active ORDER BY fb.product_set_id, fb.sort, fb.id",
    )
    .fetch_all(pool)
    .await
}

/// An image of a fabric.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct FabricImage {
    pub icon: String,
    pub image_url: String,
}

/// A fabric a set comes in.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Fabric {
    pub id: i64,
    pub title: String,
    pub image_url: Option<String>,
    pub images: Vec<FabricImage>,
}

/// The active fabrics of set `set_id`.
pub async fn fabrics(pool: &Pool, set_id: i64) -> Result<Vec<Fabric>, sqlx::Error> {
    let rows: Vec<(i64, String, Option<String>)> = db::query_as(
        "SELECT fb.id, fb.title, f.full_size_directory FROM fabric fb LEFT JOIN image_file f ON f.id = fb.image_file_id \
         WHERE fb.product_set_id = $1 AND fb.active ORDER BY fb.sort, fb.id",
    )
    .bind(set_id)
    .fetch_all(pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for (id, title, image_url) in rows {
        let images = db::query_as(
            "SELECT f.icon_size_directory AS icon, f.full_size_directory AS image_url FROM fabric_image fi \
             JOIN image_file f ON f.id = fi.image_file_id WHERE fi.fabric_id = $1 ORDER BY fi.sort, fi.id",
        )
        .bind(id)
        .fetch_all(pool)
        .await?;
        out.push(Fabric {
            id,
            title,
            image_url,
            images,
        });
    }
    Ok(out)
}

/// An additional-info block of a set.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct SetInfo {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub description: String,
}

/// The additional-info blocks of set `set_id`.
pub async fn set_infos(pool: &Pool, set_id: i64) -> Result<Vec<SetInfo>, sqlx::Error> {
    db::query_as(
        "SELECT id, title, sub_title, description FROM product_set_info WHERE product_set_id = $1 ORDER BY sort, id",
    )
    .bind(set_id)
    .fetch_all(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ago_reads_naturally() {
        assert_eq!(ago(0, 30), "just now");
        assert_eq!(ago(0, 120), "2 minutes ago");
        assert_eq!(ago(0, 86_400), "1 day ago");
    }
}
