//! Read queries of the Home group (SPEC.md §7) and the product strips the
//! Common group shares with it: sliders, the home categories, the id lists of
//! the product strips (top offers, pre-bookings, new arrivals), widgets and
//! the home tag gallery. Product strips return ids; the caller loads them with
//! [`crate::read::cards`]. Flash sales are in [`crate::read::flash`].

use std::collections::HashMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Pool};

/// An uploaded image as the original API serialised it (SPEC.md §3 Image file).
#[derive(Debug, Clone, Serialize, FromRow, PartialEq, Eq, schemars::JsonSchema)]
pub struct ImageFile {
    pub id: i64,
    pub original_name: String,
    pub filename: String,
    pub file_type: String,
    pub file_size: i64,
    pub file_extension: String,
    pub full_size_directory: String,
    pub icon_size_directory: String,
    pub status: i64,
    pub user_id: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The image files of `ids`, by id.
pub async fn image_files(pool: &Pool, ids: &[i64]) -> Result<HashMap<i64, ImageFile>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    // Ids are integers: writing them into the SQL cannot inject anything.
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let rows: Vec<ImageFile> = db::query_as(&format!(
        "SELECT id, original_name, filename, file_type, file_size, file_extension, full_size_directory, \
         icon_size_directory, CAST(CASE WHEN status THEN 1 ELSE 0 END AS BIGINT) AS status, user_id, created_at, updated_at FROM image_file WHERE id IN ({list})"
    ))
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|f| (f.id, f)).collect())
}

/// A home page slider (SPEC.md §3 Slider).
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct Slider {
    pub id: i64,
    pub image_id: i64,
    pub url: String,
    pub title: String,
    pub description: String,
    /// 0 main banner, 1 featured.
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    pub kind: i64,
    pub internal: bool,
    /// 0 every device, 1 desktop, 2 mobile.
    pub device: i64,
    pub color_code: String,
    pub text_color: String,
    pub border_bottom: String,
    pub position: i64,
    pub active: bool,
    #[sqlx(skip)]
    pub image: Option<ImageFile>,
}

/// Active sliders of `kind` for `device` (0 = those for every device; 1 or 2
/// adds the desktop or mobile ones), by position.
pub async fn sliders(pool: &Pool, kind: i64, device: i64) -> Result<Vec<Slider>, sqlx::Error> {
    let mut rows: Vec<Slider> = db::query_as(
        "SELECT id, image_id, url, title, description, type, internal, device, color_code, text_color, \
         border_bottom, position, active FROM slider \
         WHERE active AND type = $1 AND (device = 0 OR device = $2) ORDER BY position, id",
    )
    .bind(kind)
    .bind(device)
    .fetch_all(pool)
    .await?;
    let ids: Vec<i64> = rows.iter().map(|s| s.image_id).collect();
    let files = image_files(pool, &ids).await?;
    for s in &mut rows {
        s.image = files.get(&s.image_id).cloned();
    }
    Ok(rows)
}

/// A path wrapped as the original's image relation (`home_img.full_size_directory`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct ImagePath {
    pub full_size_directory: String,
}

/// A category tile of the home page.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TopCategory {
    pub id: i64,
    pub name: String,
    pub seo_url: String,
    pub description: Option<String>,
    /// The home tile image path, or None.
    pub image_url: Option<String>,
    pub home_img: Option<ImagePath>,
}

#[derive(FromRow)]
struct TopCategoryRow {
    id: i64,
    name: String,
    seo_url: String,
    description: Option<String>,
    image_url: Option<String>,
}

/// The published product categories of `ids`, in that order (unknown ids left out).
pub async fn categories_in_order(
    pool: &Pool,
    ids: &[i64],
) -> Result<Vec<TopCategory>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let rows: Vec<TopCategoryRow> = db::query_as(&format!(
        "SELECT c.id, c.name, c.seo_url, c.description, \
         (SELECT full_size_directory FROM image_file WHERE id = COALESCE(c.home_img, c.home_image)) AS image_url \
         FROM category c WHERE c.type = 'product' AND c.is_active AND c.is_published AND c.id IN ({list})"
    ))
    .fetch_all(pool)
    .await?;
    let mut by_id: HashMap<i64, TopCategoryRow> = rows.into_iter().map(|r| (r.id, r)).collect();
    Ok(ids
        .iter()
        .filter_map(|id| by_id.remove(id))
        .map(|r| TopCategory {
            home_img: r.image_url.clone().map(|p| ImagePath {
                full_size_directory: p,
            }),
            id: r.id,
            name: r.name,
            seo_url: r.seo_url,
            description: r.description,
            image_url: r.image_url,
        })
        .collect())
}

/// Parses a `|`-separated id list such as the `home_category` setting
/// (blanks and non-numbers are skipped).
pub fn id_list(value: &str) -> Vec<i64> {
    value
        .split('|')
        .filter_map(|p| p.trim().parse().ok())
        .collect()
}

/// Recommended products ("top offers") by `recommended_serial`, at most `limit`.
pub async fn top_offer_ids(pool: &Pool, limit: i64) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(
        "SELECT id FROM product WHERE is_active AND recommended \
         ORDER BY recommended_serial, id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Recommended products, newest id first, at most `limit` (`common/top-offers`).
pub async fn recommended_ids(pool: &Pool, limit: i64) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(
        "SELECT id FROM product WHERE is_active AND recommended ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// Products open for pre-booking, most popular first, at most `limit`.
pub async fn prebooking_ids(pool: &Pool, limit: i64) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(
        "SELECT id FROM product WHERE is_active AND pre_booking \
         ORDER BY popularity DESC, id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The newest products (flagged new arrivals first), at most `limit`.
pub async fn new_arrival_ids(pool: &Pool, limit: i64) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(
        "SELECT id FROM product WHERE is_active \
         ORDER BY new_arrival DESC, created_at DESC, id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// A widget (SPEC.md §3 Pre-load advert and the other HTML blocks).
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct Widget {
    pub id: i64,
    pub name: String,
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    pub kind: String,
    pub cssid: String,
    pub cssclass: String,
    /// HTML.
    pub description: String,
    pub special: String,
    pub is_active: bool,
}

/// The widget `id`, active or not.
pub async fn widget(pool: &Pool, id: i64) -> Result<Option<Widget>, sqlx::Error> {
    db::query_as(
        "SELECT id, name, type, cssid, cssclass, description, special, is_active FROM widget WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// A tab of the home tag gallery: a category that has tiles of its own.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct TagTerm {
    pub term_name: String,
    pub term_url: String,
}

/// Most tabs the home tag gallery shows.
pub const TAG_TERMS_LIMIT: i64 = 7;

/// The tabs of the home tag gallery (at most [`TAG_TERMS_LIMIT`]).
pub async fn tag_terms(pool: &Pool) -> Result<Vec<TagTerm>, sqlx::Error> {
    db::query_as(
        "SELECT c.name AS term_name, c.seo_url AS term_url FROM category c \
         WHERE c.type = 'product' AND c.is_active AND c.is_published \
         AND EXISTS (SELECT 1 FROM tag_gallery_item t WHERE t.category_id = c.id) \
         ORDER BY c.position, c.serial, c.id LIMIT $1",
    )
    .bind(TAG_TERMS_LIMIT)
    .fetch_all(pool)
    .await
}

/// A tile of the home tag gallery.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct TagTile {
    pub id: i64,
    pub url: String,
    /// 1 internal link, 0 external.
    pub url_type: i64,
    pub term_name: String,
    pub term_url: String,
    pub image_url: String,
}

/// The first `limit` tiles of the home gallery (`category_id` None) or of a category.
pub async fn tag_tiles(
    pool: &Pool,
    category_id: Option<i64>,
    limit: i64,
) -> Result<Vec<TagTile>, sqlx::Error> {
    db::query_as(
        "SELECT t.id, t.url, t.url_type, t.term_name, t.term_url, f.full_size_directory AS image_url \
         FROM tag_gallery_item t JOIN image_file f ON f.id = t.image_file_id \
         WHERE (($1 IS NULL AND t.category_id IS NULL) OR t.category_id = $1) ORDER BY t.sort, t.id LIMIT $2",
    )
    .bind(category_id)
    .bind(limit)
    .fetch_all(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_category_ids_keep_their_order_and_skip_junk() {
        assert_eq!(id_list("2|3| 4||x|7"), vec![2, 3, 4, 7]);
        assert!(id_list("").is_empty());
    }
}
