//! Queries only the static-site generator needs: every public slug (for the
//! page list and `sitemap.xml`) and the raw rows of the shared page chrome
//! (menus, settings, widgets) that every page repeats.

use std::collections::BTreeMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Pool};

/// A public URL's slug and when its row last changed (unix seconds), for the
/// sitemap's `lastmod`.
#[derive(Debug, Clone, Serialize, FromRow, PartialEq, Eq)]
pub struct Slug {
    pub id: i64,
    pub slug: String,
    pub updated_at: i64,
}

/// Active products, by id.
pub async fn product_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    db::query_as("SELECT id, seo_url AS slug, updated_at FROM product WHERE is_active ORDER BY id")
        .fetch_all(pool)
        .await
}

/// Published, active product categories (the root `products` included), by id.
pub async fn category_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    db::query_as(
        "SELECT id, seo_url AS slug, updated_at FROM category \
         WHERE type = 'product' AND is_active AND is_published ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// Active product sets, by id.
pub async fn product_set_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    db::query_as("SELECT id, slug, updated_at FROM product_set WHERE active ORDER BY id")
        .fetch_all(pool)
        .await
}

/// Active posts of a kind (`blog` or `news`), newest first.
pub async fn post_slugs(pool: &Pool, kind: &str) -> Result<Vec<Slug>, sqlx::Error> {
    db::query_as(
        "SELECT id, seo_url AS slug, updated_at FROM post \
         WHERE kind = $1 AND is_active ORDER BY published_at DESC, id DESC",
    )
    .bind(kind)
    .fetch_all(pool)
    .await
}

/// Active interior galleries, by id.
pub async fn interior_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    db::query_as("SELECT id, slug, updated_at FROM interior WHERE active ORDER BY id")
        .fetch_all(pool)
        .await
}

/// Active CMS pages (`/page/{seo_url}`), by id.
pub async fn page_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    db::query_as("SELECT id, seo_url AS slug, updated_at FROM page WHERE is_active ORDER BY id")
        .fetch_all(pool)
        .await
}

/// A menu item with its menu's location and title.
#[derive(Debug, Clone, Serialize, FromRow, PartialEq, Eq, schemars::JsonSchema)]
pub struct MenuLink {
    pub menu_id: i64,
    /// `header`, `header_child`, `header_child_sub`, `products` or `footer`.
    pub location: String,
    /// The menu's title (a footer column's heading).
    pub menu_title: String,
    pub id: i64,
    /// 0 at the top level; the side menu's products hang under 21.
    pub parent: i64,
    pub label: String,
    pub link: String,
}

/// Every menu item, by menu order then item order.
pub async fn menu_links(pool: &Pool) -> Result<Vec<MenuLink>, sqlx::Error> {
    db::query_as(
        "SELECT m.id AS menu_id, m.location, m.title AS menu_title, i.id, i.parent, i.label, i.link \
         FROM menu_item i JOIN menu m ON m.id = i.menu_id ORDER BY m.sort, m.id, i.sort, i.id",
    )
    .fetch_all(pool)
    .await
}

/// The site settings as name → value.
pub async fn settings(pool: &Pool) -> Result<BTreeMap<String, String>, sqlx::Error> {
    let rows: Vec<(String, String)> = db::query_as("SELECT name, value FROM setting")
        .fetch_all(pool)
        .await?;
    Ok(rows.into_iter().collect())
}

/// A widget's HTML when it exists and is active.
pub async fn active_widget(pool: &Pool, id: i64) -> Result<Option<String>, sqlx::Error> {
    db::query_scalar("SELECT description FROM widget WHERE id = $1 AND is_active")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// A product page's own fields (the API's `product/info` as one row).
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct ProductRow {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub product_code: String,
    pub sku: String,
    pub seo_url: String,
    pub short_description: String,
    pub description: String,
    pub price_before: i64,
    pub price_now: i64,
    /// The price a shopper pays now (a running flash sale applied).
    pub effective_price: i64,
    pub stock: i64,
    pub cash_on_delivery: bool,
    pub pre_booking: bool,
    pub emi_available: bool,
    pub disable_buy: bool,
    pub enable_comment: bool,
    pub enable_review: bool,
    pub delivery_time: String,
    pub pro_warranty: String,
    pub care_info: String,
    pub seo_title: Option<String>,
    pub seo_description: Option<String>,
    pub updated_at: i64,
    /// The primary category (or the first one).
    pub category_id: Option<i64>,
}

/// Rows keyed by product id, for batch loads.
pub type ByProduct<T> = std::collections::HashMap<i64, Vec<T>>;

fn id_list(ids: &[i64]) -> String {
    // Ids are integers: writing them into the SQL cannot inject anything and
    // keeps one statement per batch however long the list.
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// The product rows of `ids` at `now` (inactive products left out).
pub async fn products(pool: &Pool, ids: &[i64], now: i64) -> Result<Vec<ProductRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT p.id, p.title, p.sub_title, p.product_code, p.sku, p.seo_url, p.short_description, \
         p.description, p.price_before, p.price_now, {effective} AS effective_price, p.stock, \
         p.cash_on_delivery, p.pre_booking, p.emi_available, p.disable_buy, p.enable_comment, \
         p.enable_review, p.delivery_time, p.pro_warranty, p.care_info, \
         COALESCE(NULLIF(sc.meta_title, ''), p.seo_title) AS seo_title, \
         COALESCE(NULLIF(sc.meta_description, ''), p.seo_description) AS seo_description, \
         p.updated_at, \
         (SELECT pc.category_id FROM product_category pc WHERE pc.product_id = p.id \
          ORDER BY pc.is_primary DESC, pc.category_id LIMIT 1) AS category_id \
         FROM product p LEFT JOIN seo_content sc ON sc.post_type = 'product' AND sc.post_id = p.id \
         WHERE p.is_active AND p.id IN ({ids}) ORDER BY p.id",
        effective = crate::pricing::effective_price_sql(now),
        ids = id_list(ids)
    );
    db::query_as(&sql).fetch_all(pool).await
}

/// An image of a product's gallery, with its size.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct GalleryImage {
    pub product_id: i64,
    pub id: i64,
    pub full_size_directory: String,
    pub icon_size_directory: String,
    pub width: i64,
    pub height: i64,
}

/// The gallery images of `ids`, in order.
pub async fn gallery_images(
    pool: &Pool,
    ids: &[i64],
) -> Result<ByProduct<GalleryImage>, sqlx::Error> {
    let sql = format!(
        "SELECT pi.product_id, f.id, f.full_size_directory, f.icon_size_directory, f.width, f.height \
         FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
         WHERE pi.product_id IN ({}) ORDER BY pi.product_id, pi.sort, pi.id",
        id_list(ids)
    );
    group(
        db::query_as::<GalleryImage>(&sql).fetch_all(pool).await?,
        |r| r.product_id,
    )
}

/// A product's media besides the gallery: its first video (and its poster) and how many
/// 360-degree frames it has.
#[derive(Debug, Clone, Default, Serialize, FromRow)]
pub struct MediaRow {
    pub product_id: i64,
    pub video_url: Option<String>,
    pub video_title: Option<String>,
    /// The video's poster picture (`storage/uploads/fullsize/...`), if it has one.
    pub video_poster: Option<String>,
    pub frames_360: i64,
}

/// Video and 360 entry points of `ids`.
pub async fn media(pool: &Pool, ids: &[i64]) -> Result<ByProduct<MediaRow>, sqlx::Error> {
    let sql = format!(
        "SELECT p.id AS product_id, \
         (SELECT v.url FROM product_video v WHERE v.product_id = p.id ORDER BY v.id LIMIT 1) AS video_url, \
         (SELECT v.title FROM product_video v WHERE v.product_id = p.id ORDER BY v.id LIMIT 1) AS video_title, \
         (SELECT f.full_size_directory FROM image_file f WHERE f.id = \
          (SELECT v.poster_image_id FROM product_video v WHERE v.product_id = p.id ORDER BY v.id LIMIT 1)) AS video_poster, \
         (SELECT COUNT(*) FROM product_360_frame f WHERE f.product_id = p.id) AS frames_360 \
         FROM product p WHERE p.id IN ({})",
        id_list(ids)
    );
    group(db::query_as::<MediaRow>(&sql).fetch_all(pool).await?, |r| {
        r.product_id
    })
}

/// An attribute value of a product (material, colour, size...).
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct AttributeRow {
    pub product_id: i64,
    pub field_label: String,
    pub field_name: String,
    pub value: String,
    pub slug: String,
}

/// The attributes of `ids`.
pub async fn attributes(pool: &Pool, ids: &[i64]) -> Result<ByProduct<AttributeRow>, sqlx::Error> {
    let sql = format!(
        "SELECT pa.product_id, a.field_label, a.field_name, v.value, v.slug \
         FROM product_attribute pa JOIN attribute_value v ON v.id = pa.attribute_value_id \
         JOIN attribute a ON a.id = v.attribute_id \
         WHERE pa.product_id IN ({}) ORDER BY pa.product_id, a.sort, a.id, v.sort, v.id",
        id_list(ids)
    );
    group(
        db::query_as::<AttributeRow>(&sql).fetch_all(pool).await?,
        |r| r.product_id,
    )
}

/// A variation (colour, size...) with its own code and prices.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct VariationRow {
    pub product_id: i64,
    pub attribute: String,
    pub value: String,
    pub product_code: String,
    pub price_before: i64,
    pub price_now: i64,
    pub stock: i64,
}

/// The variations of `ids`.
pub async fn variations(pool: &Pool, ids: &[i64]) -> Result<ByProduct<VariationRow>, sqlx::Error> {
    let sql = format!(
        "SELECT product_id, attribute, value, product_code, price_before, price_now, stock \
         FROM product_variation WHERE product_id IN ({}) ORDER BY product_id, sort, id",
        id_list(ids)
    );
    group(
        db::query_as::<VariationRow>(&sql).fetch_all(pool).await?,
        |r| r.product_id,
    )
}

/// A bank's instalment offer for a product.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct EmiRow {
    pub product_id: i64,
    pub bank: String,
    pub months: i64,
    pub interest_bp: i64,
}

/// The EMI offers of `ids`.
pub async fn emi_offers(pool: &Pool, ids: &[i64]) -> Result<ByProduct<EmiRow>, sqlx::Error> {
    let sql = format!(
        "SELECT product_id, bank, months, interest_bp FROM product_emi \
         WHERE product_id IN ({}) ORDER BY product_id, months, id",
        id_list(ids)
    );
    group(db::query_as::<EmiRow>(&sql).fetch_all(pool).await?, |r| {
        r.product_id
    })
}

/// A question or comment with its answer, for the first page on a product page.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct TalkRow {
    pub product_id: i64,
    pub username: String,
    pub text: String,
    pub answer: Option<String>,
    pub created_at: i64,
}

/// The newest `limit` questions (with their first answer) of each of `ids`.
pub async fn questions(
    pool: &Pool,
    ids: &[i64],
    limit: i64,
) -> Result<ByProduct<TalkRow>, sqlx::Error> {
    let sql = format!(
        "SELECT product_id, username, text, answer, created_at FROM ( \
         SELECT q.product_id, q.username, q.description AS text, \
         (SELECT a.description FROM product_question_answer a WHERE a.question_id = q.id ORDER BY a.id LIMIT 1) AS answer, \
         q.created_at, ROW_NUMBER() OVER (PARTITION BY q.product_id ORDER BY q.created_at DESC, q.id DESC) AS n \
         FROM product_question q WHERE {} AND q.product_id IN ({})) ranked WHERE n <= {limit} \
         ORDER BY product_id, n",
        super::QUESTION_SHOWN,
        id_list(ids)
    );
    group(db::query_as::<TalkRow>(&sql).fetch_all(pool).await?, |r| {
        r.product_id
    })
}

/// The newest `limit` comments of each of `ids`.
pub async fn comments(
    pool: &Pool,
    ids: &[i64],
    limit: i64,
) -> Result<ByProduct<TalkRow>, sqlx::Error> {
    let sql = format!(
        "SELECT product_id, username, text, CAST(NULL AS TEXT) AS answer, created_at FROM ( \
         SELECT c.product_id, c.username, c.comment AS text, c.created_at, \
         ROW_NUMBER() OVER (PARTITION BY c.product_id ORDER BY c.created_at DESC, c.id DESC) AS n \
         FROM product_comment c WHERE c.is_active AND c.product_id IN ({})) ranked WHERE n <= {limit} \
         ORDER BY product_id, n",
        id_list(ids)
    );
    group(db::query_as::<TalkRow>(&sql).fetch_all(pool).await?, |r| {
        r.product_id
    })
}

/// How many active reviews a product has and their average rating ×100.
#[derive(Debug, Clone, Default, Serialize, FromRow)]
pub struct ReviewSummary {
    pub product_id: i64,
    pub count: i64,
    pub average_x100: i64,
}

/// Review summaries of `ids`.
pub async fn review_summaries(
    pool: &Pool,
    ids: &[i64],
) -> Result<ByProduct<ReviewSummary>, sqlx::Error> {
    let sql = format!(
        "SELECT product_id, COUNT(*) AS count, \
         (CAST(SUM(rating) AS BIGINT) * 200 + COUNT(*)) / (2 * COUNT(*)) AS average_x100 \
         FROM review WHERE is_active AND product_id IN ({}) GROUP BY product_id",
        id_list(ids)
    );
    group(
        db::query_as::<ReviewSummary>(&sql).fetch_all(pool).await?,
        |r| r.product_id,
    )
}

/// A published review as a product page shows it.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct ReviewRow {
    pub product_id: i64,
    /// 1-5 stars.
    pub rating: i64,
    pub comment: String,
    /// Unix seconds.
    pub created_at: i64,
    /// The reviewer's full name as stored: show [`reviewer_name`] of it only.
    pub user_name: String,
}

/// The newest `limit` published reviews of each of `ids`.
pub async fn latest_reviews(
    pool: &Pool,
    ids: &[i64],
    limit: i64,
) -> Result<ByProduct<ReviewRow>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(ByProduct::new());
    }
    let sql = format!(
        "SELECT product_id, rating, comment, created_at, user_name FROM ( \
         SELECT r.product_id, r.rating, r.comment, r.created_at, u.name AS user_name, \
         ROW_NUMBER() OVER (PARTITION BY r.product_id ORDER BY r.created_at DESC, r.id DESC) AS n \
         FROM review r JOIN app_user u ON u.id = r.user_id \
         WHERE r.is_active AND r.product_id IN ({})) ranked WHERE n <= {limit} \
         ORDER BY product_id, n",
        id_list(ids)
    );
    group(
        db::query_as::<ReviewRow>(&sql).fetch_all(pool).await?,
        |r| r.product_id,
    )
}

/// How a reviewer is named in public: the first word of their name, never
/// their e-mail or mobile (a name that looks like either, or is empty, is
/// "A shopper"), at most 30 characters.
pub fn reviewer_name(full: &str) -> String {
    let first = full.split_whitespace().next().unwrap_or_default();
    let digits = first.chars().filter(char::is_ascii_digit).count();
    if first.is_empty() || first.contains('@') || digits >= 3 {
        return "A shopper".to_string();
    }
    first.chars().take(30).collect()
}

/// What the generator needs to pick related products and list categories
/// without a query per page, and to list every product page: every active
/// product's page address, primary category, effective price and popularity.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct Placement {
    pub id: i64,
    pub seo_url: String,
    pub updated_at: i64,
    pub category_id: Option<i64>,
    pub price: i64,
    pub popularity: i64,
    pub created_at: i64,
}

/// Every active product's placement at `now`.
pub async fn placements(pool: &Pool, now: i64) -> Result<Vec<Placement>, sqlx::Error> {
    let sql = format!(
        "SELECT p.id, p.seo_url, p.updated_at, (SELECT pc.category_id FROM product_category pc WHERE pc.product_id = p.id \
         ORDER BY pc.is_primary DESC, pc.category_id LIMIT 1) AS category_id, \
         {effective} AS price, p.popularity, p.created_at FROM product p WHERE p.is_active ORDER BY p.id",
        effective = crate::pricing::effective_price_sql(now)
    );
    db::query_as(&sql).fetch_all(pool).await
}

/// A category node of the product tree.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct CategoryNode {
    pub id: i64,
    pub name: String,
    pub seo_url: String,
    pub parent: Option<i64>,
    pub description: Option<String>,
    pub seo_h1: Option<String>,
    pub meta_title: Option<String>,
    pub meta_description: Option<String>,
    pub updated_at: i64,
}

/// Every published, active product category with its SEO texts, by position.
pub async fn category_tree(pool: &Pool) -> Result<Vec<CategoryNode>, sqlx::Error> {
    db::query_as(
        "SELECT c.id, c.name, c.seo_url, c.parent, c.description, c.seo_h1, \
         NULLIF(sc.meta_title, '') AS meta_title, NULLIF(sc.meta_description, '') AS meta_description, c.updated_at \
         FROM category c LEFT JOIN seo_content sc ON sc.post_type = 'category' AND sc.post_id = c.id \
         WHERE c.type = 'product' AND c.is_active AND c.is_published ORDER BY c.position, c.serial, c.id",
    )
    .fetch_all(pool)
    .await
}

/// Every (product, category) pair of active products, for listings.
pub async fn category_members(pool: &Pool) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    db::query_as(
        "SELECT pc.category_id, pc.product_id FROM product_category pc \
         JOIN product p ON p.id = pc.product_id WHERE p.is_active",
    )
    .fetch_all(pool)
    .await
}

fn group<T>(rows: Vec<T>, key: impl Fn(&T) -> i64) -> Result<ByProduct<T>, sqlx::Error> {
    let mut map: ByProduct<T> = std::collections::HashMap::new();
    for row in rows {
        map.entry(key(&row)).or_default().push(row);
    }
    Ok(map)
}

/// A stored image with its size, for banners and content.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct Picture {
    /// The row that owns the picture (slider, post, interior...).
    pub owner_id: i64,
    pub path: String,
    pub width: i64,
    pub height: i64,
    pub title: String,
    /// Where the picture links to (sliders, tag gallery), or a caption.
    pub link: String,
    /// A grouping value: slider type, tag gallery category (0 = home)...
    pub kind: i64,
}

/// Active sliders (kind 0 main banner, 1 featured), by position.
pub async fn sliders(pool: &Pool) -> Result<Vec<Picture>, sqlx::Error> {
    db::query_as(
        "SELECT s.id AS owner_id, f.full_size_directory AS path, f.width, f.height, s.title, s.url AS link, s.type AS kind \
         FROM slider s JOIN image_file f ON f.id = s.image_id WHERE s.active ORDER BY s.type, s.position, s.id",
    )
    .fetch_all(pool)
    .await
}

/// Every tag gallery tile (kind = category id, 0 for the home page's).
pub async fn tag_gallery(pool: &Pool) -> Result<Vec<Picture>, sqlx::Error> {
    db::query_as(
        "SELECT t.id AS owner_id, f.full_size_directory AS path, f.width, f.height, t.term_name AS title, \
         t.url AS link, COALESCE(t.category_id, 0) AS kind \
         FROM tag_gallery_item t JOIN image_file f ON f.id = t.image_file_id ORDER BY kind, t.sort, t.id",
    )
    .fetch_all(pool)
    .await
}

/// A filter value: the query parameter and value of a listing link.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct FilterValue {
    pub field_label: String,
    pub field_name: String,
    pub value: String,
    pub slug: String,
}

/// Every filterable attribute value, by attribute.
pub async fn filter_values(pool: &Pool) -> Result<Vec<FilterValue>, sqlx::Error> {
    db::query_as(
        "SELECT a.field_label, a.field_name, v.value, v.slug FROM attribute a \
         JOIN attribute_value v ON v.attribute_id = a.id WHERE a.is_filterable \
         ORDER BY a.sort, a.id, v.sort, v.id",
    )
    .fetch_all(pool)
    .await
}

/// Ids of home page strips: top offers (largest discount now), pre-bookings
/// and new arrivals, `limit` each.
pub async fn home_strips(
    pool: &Pool,
    now: i64,
    limit: i64,
) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>), sqlx::Error> {
    let effective = crate::pricing::effective_price_sql(now);
    let top: Vec<i64> = db::query_scalar(&format!(
        "SELECT p.id FROM product p WHERE p.is_active AND p.price_before > 0 \
         ORDER BY (p.price_before - {effective}) * 1000 / p.price_before DESC, p.popularity DESC, p.id LIMIT {limit}"
    ))
    .fetch_all(pool)
    .await?;
    let pre: Vec<i64> = db::query_scalar(&format!(
        "SELECT id FROM product WHERE is_active AND pre_booking ORDER BY popularity DESC, id LIMIT {limit}"
    ))
    .fetch_all(pool)
    .await?;
    let new: Vec<i64> = db::query_scalar(&format!(
        "SELECT id FROM product WHERE is_active ORDER BY new_arrival DESC, created_at DESC, id DESC LIMIT {limit}"
    ))
    .fetch_all(pool)
    .await?;
    Ok((top, pre, new))
}

/// A flash sale: the running one, or else the next.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct FlashSale {
    pub id: i64,
    pub fs_name: String,
    pub fs_description: String,
    pub starts_at: i64,
    pub ends_at: i64,
}

/// The running flash sale at `now`, or the next one, with its product ids.
pub async fn flash_sale(
    pool: &Pool,
    now: i64,
) -> Result<Option<(FlashSale, Vec<i64>)>, sqlx::Error> {
    let sale: Option<FlashSale> = db::query_as(
        "SELECT id, fs_name, fs_description, starts_at, ends_at FROM flash_schedule \
         WHERE is_active AND ends_at > $1 ORDER BY (starts_at > $1), starts_at, id LIMIT 1",
    )
    .bind(now)
    .fetch_optional(pool)
    .await?;
    let Some(sale) = sale else { return Ok(None) };
    let ids = db::query_scalar(
        "SELECT fi.product_id FROM flash_item fi JOIN product p ON p.id = fi.product_id \
         WHERE fi.schedule_id = $1 AND p.is_active ORDER BY fi.sort, fi.id",
    )
    .bind(sale.id)
    .fetch_all(pool)
    .await?;
    Ok(Some((sale, ids)))
}

/// A post, CMS page, interior gallery or product set as a content page shows it.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct ContentRow {
    pub id: i64,
    pub slug: String,
    pub title: String,
    pub sub_title: String,
    pub summary: String,
    /// HTML written by staff.
    pub body: String,
    pub image: Option<String>,
    pub image_width: i64,
    pub image_height: i64,
    pub author: String,
    pub published_at: i64,
    pub updated_at: i64,
    /// The category (interiors, product sets), if any.
    pub category_id: Option<i64>,
}

/// Active posts of a kind (`blog`, `news`), newest first.
pub async fn posts(pool: &Pool, kind: &str) -> Result<Vec<ContentRow>, sqlx::Error> {
    db::query_as(
        "SELECT p.id, p.seo_url AS slug, p.title, p.sub_title, p.short_description AS summary, p.description AS body, \
         f.full_size_directory AS image, COALESCE(f.width, 0) AS image_width, COALESCE(f.height, 0) AS image_height, \
         p.author, p.published_at, p.updated_at, CAST(NULL AS BIGINT) AS category_id \
         FROM post p LEFT JOIN image_file f ON f.id = p.image_file_id \
         WHERE p.kind = $1 AND p.is_active ORDER BY p.published_at DESC, p.id DESC",
    )
    .bind(kind)
    .fetch_all(pool)
    .await
}

/// Active CMS pages.
pub async fn cms_pages(pool: &Pool) -> Result<Vec<ContentRow>, sqlx::Error> {
    db::query_as(
        "SELECT p.id, p.seo_url AS slug, p.title, p.sub_title, '' AS summary, p.description AS body, \
         f.full_size_directory AS image, COALESCE(f.width, 0) AS image_width, COALESCE(f.height, 0) AS image_height, \
         '' AS author, p.created_at AS published_at, p.updated_at, CAST(NULL AS BIGINT) AS category_id \
         FROM page p LEFT JOIN image_file f ON f.id = p.image_file_id WHERE p.is_active ORDER BY p.id",
    )
    .fetch_all(pool)
    .await
}

/// Active interior galleries.
pub async fn interiors(pool: &Pool) -> Result<Vec<ContentRow>, sqlx::Error> {
    db::query_as(
        "SELECT i.id, i.slug, i.title, i.sub_title, '' AS summary, i.description AS body, \
         f.full_size_directory AS image, f.width AS image_width, f.height AS image_height, \
         '' AS author, i.created_at AS published_at, i.updated_at, i.category_id \
         FROM interior i JOIN image_file f ON f.id = i.image_id WHERE i.active ORDER BY i.id",
    )
    .fetch_all(pool)
    .await
}

/// The photos of every active interior gallery (owner = interior id, link = caption).
pub async fn interior_images(pool: &Pool) -> Result<Vec<Picture>, sqlx::Error> {
    db::query_as(
        "SELECT ii.interior_id AS owner_id, f.full_size_directory AS path, f.width, f.height, ii.title, \
         ii.caption AS link, CAST(0 AS BIGINT) AS kind FROM interior_image ii JOIN image_file f ON f.id = ii.image_id \
         ORDER BY ii.interior_id, ii.sort, ii.id",
    )
    .fetch_all(pool)
    .await
}

/// Active product sets (summary = price info).
pub async fn product_sets(pool: &Pool) -> Result<Vec<ContentRow>, sqlx::Error> {
    db::query_as(
        "SELECT s.id, s.slug, s.title, s.subtitle AS sub_title, s.price_info AS summary, s.description AS body, \
         f.full_size_directory AS image, COALESCE(f.width, 0) AS image_width, COALESCE(f.height, 0) AS image_height, \
         '' AS author, s.created_at AS published_at, s.updated_at, s.category_id \
         FROM product_set s LEFT JOIN image_file f ON f.id = s.image_file_id WHERE s.active ORDER BY s.id",
    )
    .fetch_all(pool)
    .await
}

/// A product set's items: (set id, product id, qty).
pub async fn product_set_items(pool: &Pool) -> Result<Vec<(i64, i64, i64)>, sqlx::Error> {
    db::query_as("SELECT product_set_id, product_id, qty FROM product_set_item ORDER BY product_set_id, sort, product_id")
        .fetch_all(pool)
        .await
}

/// Fabrics (owner = set id, title; path = first image or '') and additional
/// info blocks (owner = set id, title, link = description) of product sets.
pub async fn product_set_extras(pool: &Pool) -> Result<(Vec<Picture>, Vec<Picture>), sqlx::Error> {
    let fabrics = db::query_as(
        "SELECT fb.product_set_id AS owner_id, COALESCE(f.full_size_directory, '') AS path, COALESCE(f.width, 0) AS width, \
         COALESCE(f.height, 0) AS height, fb.title, '' AS link, CAST(0 AS BIGINT) AS kind \
         FROM fabric fb LEFT JOIN image_file f ON f.id = fb.image_file_id WHERE fb.active ORDER BY fb.product_set_id, fb.sort, fb.id",
    )
    .fetch_all(pool)
    .await?;
    let infos = db::query_as(
        "SELECT product_set_id AS owner_id, '' AS path, CAST(0 AS BIGINT) AS width, CAST(0 AS BIGINT) AS height, \
         title, description AS link, CAST(0 AS BIGINT) AS kind \
         FROM product_set_info ORDER BY product_set_id, sort, id",
    )
    .fetch_all(pool)
    .await?;
    Ok((fabrics, infos))
}

/// A showroom or chat-to-buy point.
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct ShowroomRow {
    pub title: String,
    pub shop_type: String,
    pub district: String,
    pub address: String,
    pub phone: String,
    pub opening_hours: String,
    /// Where it is (for a map link); none for a chat-to-buy point.
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
}

/// Active showrooms and chat-to-buy points, by district.
pub async fn showrooms(pool: &Pool) -> Result<Vec<ShowroomRow>, sqlx::Error> {
    db::query_as(
        "SELECT s.title, s.shop_type, d.name AS district, s.address, s.phone, s.opening_hours, \
         s.latitude, s.longitude FROM showroom s JOIN district d ON d.id = s.district_id WHERE s.is_active ORDER BY d.name, s.title, s.id",
    )
    .fetch_all(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::reviewer_name;

    #[test]
    fn reviewers_are_named_by_first_name_only() {
        assert_eq!(reviewer_name("Rahim Uddin Ahmed"), "Rahim");
        assert_eq!(reviewer_name("  Nusrat  "), "Nusrat");
        assert_eq!(reviewer_name(""), "A shopper");
        assert_eq!(reviewer_name("rahim@example.com"), "A shopper");
        assert_eq!(reviewer_name("01712345678"), "A shopper");
        assert_eq!(reviewer_name(&"x".repeat(50)).len(), 30);
    }
}
