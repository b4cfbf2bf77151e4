//! Queries only the static-site generator needs: every public slug (for the
//! page list and `sitemap.xml`) and the raw rows of the shared page chrome
//! (menus, settings, widgets) that every page repeats.

use std::collections::BTreeMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::db::Pool;

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
    sqlx::query_as(
        "SELECT id, seo_url AS slug, updated_at FROM product WHERE is_active = 1 ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// Published, active product categories (the root `products` included), by id.
pub async fn category_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, seo_url AS slug, updated_at FROM category \
         WHERE type = 'product' AND is_active = 1 AND is_published = 1 ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// Active product sets, by id.
pub async fn product_set_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    sqlx::query_as("SELECT id, slug, updated_at FROM product_set WHERE active = 1 ORDER BY id")
        .fetch_all(pool)
        .await
}

/// Active posts of a kind (`blog` or `news`), newest first.
pub async fn post_slugs(pool: &Pool, kind: &str) -> Result<Vec<Slug>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, seo_url AS slug, updated_at FROM post \
         WHERE kind = $1 AND is_active = 1 ORDER BY published_at DESC, id DESC",
    )
    .bind(kind)
    .fetch_all(pool)
    .await
}

/// Active interior galleries, by id.
pub async fn interior_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    sqlx::query_as("SELECT id, slug, updated_at FROM interior WHERE active = 1 ORDER BY id")
        .fetch_all(pool)
        .await
}

/// Active CMS pages (`/page/{seo_url}`), by id.
pub async fn page_slugs(pool: &Pool) -> Result<Vec<Slug>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, seo_url AS slug, updated_at FROM page WHERE is_active = 1 ORDER BY id",
    )
    .fetch_all(pool)
    .await
}

/// A menu item with its menu's location and title.
#[derive(Debug, Clone, Serialize, FromRow, PartialEq, Eq)]
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
    sqlx::query_as(
        "SELECT m.id AS menu_id, m.location, m.title AS menu_title, i.id, i.parent, i.label, i.link \
         FROM menu_item i JOIN menu m ON m.id = i.menu_id ORDER BY m.sort, m.id, i.sort, i.id",
    )
    .fetch_all(pool)
    .await
}

/// The site settings as name → value.
pub async fn settings(pool: &Pool) -> Result<BTreeMap<String, String>, sqlx::Error> {
    let rows: Vec<(String, String)> = sqlx::query_as("SELECT name, value FROM setting")
        .fetch_all(pool)
        .await?;
    Ok(rows.into_iter().collect())
}

/// A widget's HTML when it exists and is active.
pub async fn active_widget(pool: &Pool, id: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT description FROM widget WHERE id = $1 AND is_active = 1")
        .bind(id)
        .fetch_optional(pool)
        .await
}
