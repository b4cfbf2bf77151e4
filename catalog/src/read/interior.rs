//! Read queries of the Interior group (SPEC.md §7): the interior galleries
//! ("/gallery") with their photos, and their categories (category rows of type
//! `interior` under the root `interiors`).

use std::collections::HashMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Pool};
use crate::read::card::ImageRef;
use crate::read::page::PageRequest;

/// The slug of the interior categories' root.
pub const ROOT_SEO_URL: &str = "interiors";

/// An interior category.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct InteriorCategory {
    pub id: i64,
    pub name: String,
    pub seo_url: String,
    pub description: Option<String>,
    pub parent: Option<i64>,
    /// The category's page image, or None.
    pub image_url: Option<String>,
}

const CATEGORY_COLUMNS: &str = "c.id, c.name, c.seo_url, c.description, c.parent, \
     (SELECT full_size_directory FROM image_file WHERE id = COALESCE(c.page_image, c.home_img)) AS image_url";

/// The published interior category with slug `seo_url`.
pub async fn category(pool: &Pool, seo_url: &str) -> Result<Option<InteriorCategory>, sqlx::Error> {
    db::query_as(&format!(
        "SELECT {CATEGORY_COLUMNS} FROM category c \
         WHERE c.seo_url = $1 AND c.type = 'interior' AND c.is_active AND c.is_published"
    ))
    .bind(seo_url)
    .fetch_optional(pool)
    .await
}

/// The published children of interior category `id`, by serial.
pub async fn children(pool: &Pool, id: i64) -> Result<Vec<InteriorCategory>, sqlx::Error> {
    db::query_as(&format!(
        "SELECT {CATEGORY_COLUMNS} FROM category c \
         WHERE c.parent = $1 AND c.type = 'interior' AND c.is_active AND c.is_published \
         ORDER BY c.serial, c.position, c.id"
    ))
    .bind(id)
    .fetch_all(pool)
    .await
}

/// A photo of a gallery.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct InteriorImage {
    pub id: i64,
    pub image_id: i64,
    pub interior_id: i64,
    pub title: String,
    pub caption: String,
    pub info: String,
    pub image: ImageRef,
}

/// An interior gallery with its photos.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Interior {
    pub id: i64,
    pub user_id: Option<i64>,
    pub title: String,
    pub slug: String,
    pub sub_title: String,
    pub description: String,
    pub image_id: i64,
    pub category_id: Option<i64>,
    pub active: bool,
    pub image: ImageRef,
    pub images: Vec<InteriorImage>,
}

#[derive(FromRow)]
struct InteriorRow {
    id: i64,
    user_id: Option<i64>,
    title: String,
    slug: String,
    sub_title: String,
    description: String,
    image_id: i64,
    category_id: Option<i64>,
    active: bool,
    full_size_directory: String,
    icon_size_directory: String,
}

#[derive(FromRow)]
struct ImageRow {
    id: i64,
    image_id: i64,
    interior_id: i64,
    title: String,
    caption: String,
    info: String,
    full_size_directory: String,
    icon_size_directory: String,
}

const INTERIOR_COLUMNS: &str = "i.id, i.user_id, i.title, i.slug, i.sub_title, i.description, \
     i.image_id, i.category_id, i.active, f.full_size_directory, f.icon_size_directory";

/// The filter of a gallery list: active galleries, of the categories in `$1`
/// (a comma-free id list is written in) or all.
fn in_categories(ids: Option<&[i64]>) -> String {
    match ids {
        None => String::new(),
        Some(ids) => {
            // Ids are integers: writing them into the SQL cannot inject anything.
            let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
            format!(
                " AND i.category_id IN ({})",
                if list.is_empty() { "NULL".into() } else { list }
            )
        }
    }
}

/// One page of active galleries (newest first) in `categories` (None: all),
/// and how many there are.
pub async fn interiors(
    pool: &Pool,
    categories: Option<&[i64]>,
    page: PageRequest,
) -> Result<(Vec<Interior>, i64), sqlx::Error> {
    let filter = in_categories(categories);
    let rows: Vec<InteriorRow> = db::query_as(&format!(
        "SELECT {INTERIOR_COLUMNS} FROM interior i JOIN image_file f ON f.id = i.image_id \
         WHERE i.active{filter} ORDER BY i.id DESC LIMIT $1 OFFSET $2"
    ))
    .bind(page.limit())
    .bind(page.offset())
    .fetch_all(pool)
    .await?;
    let total: i64 = db::query_scalar(&format!(
        "SELECT COUNT(*) FROM interior i WHERE i.active{filter}"
    ))
    .fetch_one(pool)
    .await?;
    Ok((with_images(pool, rows).await?, total))
}

/// The active gallery with slug `slug`.
pub async fn by_slug(pool: &Pool, slug: &str) -> Result<Option<Interior>, sqlx::Error> {
    let rows: Vec<InteriorRow> = db::query_as(&format!(
        "SELECT {INTERIOR_COLUMNS} FROM interior i JOIN image_file f ON f.id = i.image_id \
         WHERE i.slug = $1 AND i.active"
    ))
    .bind(slug)
    .fetch_all(pool)
    .await?;
    Ok(with_images(pool, rows).await?.into_iter().next())
}

/// The ids of interior category `id` and of its published descendants.
pub async fn subtree_ids(pool: &Pool, id: i64) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(
        "WITH RECURSIVE sub(id) AS (SELECT $1 UNION ALL \
         SELECT c.id FROM category c JOIN sub ON c.parent = sub.id \
         WHERE c.type = 'interior' AND c.is_active AND c.is_published) SELECT id FROM sub",
    )
    .bind(id)
    .fetch_all(pool)
    .await
}

async fn with_images(pool: &Pool, rows: Vec<InteriorRow>) -> Result<Vec<Interior>, sqlx::Error> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let list = rows
        .iter()
        .map(|r| r.id.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let images: Vec<ImageRow> = db::query_as(&format!(
        "SELECT ii.id, ii.image_id, ii.interior_id, ii.title, ii.caption, ii.info, \
         f.full_size_directory, f.icon_size_directory \
         FROM interior_image ii JOIN image_file f ON f.id = ii.image_id \
         WHERE ii.interior_id IN ({list}) ORDER BY ii.interior_id, ii.sort, ii.id"
    ))
    .fetch_all(pool)
    .await?;
    let mut by_interior: HashMap<i64, Vec<InteriorImage>> = HashMap::new();
    for r in images {
        by_interior
            .entry(r.interior_id)
            .or_default()
            .push(InteriorImage {
                id: r.id,
                image_id: r.image_id,
                interior_id: r.interior_id,
                title: r.title,
                caption: r.caption,
                info: r.info,
                image: ImageRef {
                    id: r.image_id,
                    full_size_directory: r.full_size_directory,
                    icon_size_directory: r.icon_size_directory,
                },
            });
    }
    Ok(rows
        .into_iter()
        .map(|r| Interior {
            images: by_interior.remove(&r.id).unwrap_or_default(),
            image: ImageRef {
                id: r.image_id,
                full_size_directory: r.full_size_directory,
                icon_size_directory: r.icon_size_directory,
            },
            id: r.id,
            user_id: r.user_id,
            title: r.title,
            slug: r.slug,
            sub_title: r.sub_title,
            description: r.description,
            image_id: r.image_id,
            category_id: r.category_id,
            active: r.active,
        })
        .collect())
}
