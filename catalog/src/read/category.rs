//! Read queries of the Category group (SPEC.md §7): a category by slug, its
//! sub-categories, filters, tag gallery and product sets. The product listing
//! itself (filters, sorts, pages) is [`crate::read::listing`]. A category's
//! products are those in it or in any descendant (a recursive CTE); category
//! id 1 (`products`) is the root and lists every product.

use std::collections::HashMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Pool};
use crate::pricing;

/// The root category's id: "all products".
pub const ROOT_ID: i64 = 1;

/// A product category as `category/info` returns it (SPEC.md §3 Category;
/// image ids resolved to paths).
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct CategoryInfo {
    pub id: i64,
    pub name: String,
    pub seo_url: String,
    pub seo_h1: Option<String>,
    pub seo_h2: Option<String>,
    pub seo_h3: Option<String>,
    pub seo_h4: Option<String>,
    pub seo_h5: Option<String>,
    #[serde(rename = "type")]
    #[sqlx(rename = "type")]
    pub kind: String,
    pub position: i64,
    pub serial: i64,
    pub cssid: Option<String>,
    pub cssclass: Option<String>,
    pub description: Option<String>,
    pub keywords: Option<String>,
    pub parent: Option<i64>,
    pub connected_with: Option<i64>,
    pub term_menu_icon: Option<String>,
    pub term_menu_arrow: Option<String>,
    pub with_sub_menu: bool,
    pub sub_menu_width: Option<String>,
    pub column_count: i64,
    pub timespan_id: Option<i64>,
    pub is_published: bool,
    pub in_product_home: bool,
    pub is_active: bool,
    /// Image paths (relative to the site root), or None.
    pub page_image: Option<String>,
    pub home_image: Option<String>,
    pub banner1: Option<String>,
    pub banner2: Option<String>,
    pub home_img: Option<String>,
}

const INFO_COLUMNS: &str =
    "c.id, c.name, c.seo_url, c.seo_h1, c.seo_h2, c.seo_h3, c.seo_h4, c.seo_h5, \
     c.type, c.position, c.serial, c.cssid, c.cssclass, c.description, c.keywords, c.parent, \
     c.connected_with, c.term_menu_icon, c.term_menu_arrow, c.with_sub_menu, c.sub_menu_width, \
     c.column_count, c.timespan_id, c.is_published, c.in_product_home, c.is_active, \
     (SELECT full_size_directory FROM image_file WHERE id = c.page_image) AS page_image, \
     (SELECT full_size_directory FROM image_file WHERE id = c.home_image) AS home_image, \
     (SELECT full_size_directory FROM image_file WHERE id = c.banner1) AS banner1, \
     (SELECT full_size_directory FROM image_file WHERE id = c.banner2) AS banner2, \
     (SELECT full_size_directory FROM image_file WHERE id = c.home_img) AS home_img";

/// SQL condition on `category c`: a product category shoppers may see.
pub(crate) const VISIBLE: &str = "c.type = 'product' AND c.is_active AND c.is_published";

/// The published, active product category with slug `seo_url`.
pub async fn by_seo_url(pool: &Pool, seo_url: &str) -> Result<Option<CategoryInfo>, sqlx::Error> {
    db::query_as(&format!(
        "SELECT {INFO_COLUMNS} FROM category c WHERE c.seo_url = $1 AND {VISIBLE}"
    ))
    .bind(seo_url)
    .fetch_optional(pool)
    .await
}

/// A child category with what a sub-category tile shows.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct SubCategory {
    pub id: i64,
    pub name: String,
    pub seo_url: String,
    pub parent: Option<i64>,
    pub position: i64,
    pub description: Option<String>,
    pub home_img: Option<String>,
    pub page_img: Option<String>,
    pub banner_img: Option<String>,
    /// How many published children it has.
    pub sub_cats: i64,
    /// Active products in it and its descendants.
    pub products_count: i64,
}

/// The published children of `category_id`; for the root, the top
/// categories marked `in_product_home` (the original's "all products" page).
pub async fn sub_categories(
    pool: &Pool,
    category_id: i64,
) -> Result<Vec<SubCategory>, sqlx::Error> {
    let home_only = if category_id == ROOT_ID {
        " AND c.in_product_home"
    } else {
        ""
    };
    db::query_as(&format!(
        "WITH RECURSIVE sub(top, id) AS ( \
           SELECT c.id, c.id FROM category c WHERE c.parent = $1 AND {VISIBLE} \
           UNION ALL SELECT sub.top, c.id FROM category c JOIN sub ON c.parent = sub.id WHERE {VISIBLE}), \
         counts(top, n) AS ( \
           SELECT sub.top, COUNT(DISTINCT pc.product_id) FROM sub \
           JOIN product_category pc ON pc.category_id = sub.id \
           JOIN product p ON p.id = pc.product_id AND p.is_active GROUP BY sub.top) \
         SELECT c.id, c.name, c.seo_url, c.parent, c.position, c.description, \
           (SELECT full_size_directory FROM image_file WHERE id = COALESCE(c.home_img, c.home_image)) AS home_img, \
           (SELECT full_size_directory FROM image_file WHERE id = c.page_image) AS page_img, \
           (SELECT full_size_directory FROM image_file WHERE id = c.banner1) AS banner_img, \
           (SELECT COUNT(*) FROM category k WHERE k.parent = c.id AND k.type = 'product' AND k.is_active AND k.is_published) AS sub_cats, \
           COALESCE(counts.n, 0) AS products_count \
         FROM category c LEFT JOIN counts ON counts.top = c.id \
         WHERE c.parent = $1 AND {VISIBLE}{home_only} ORDER BY c.position, c.serial, c.id"
    ))
    .bind(category_id)
    .fetch_all(pool)
    .await
}

/// `category_id` and every published descendant.
pub async fn subtree_ids(pool: &Pool, category_id: i64) -> Result<Vec<i64>, sqlx::Error> {
    db::query_scalar(&format!(
        "WITH RECURSIVE sub(id) AS (SELECT $1 UNION ALL \
         SELECT c.id FROM category c JOIN sub ON c.parent = sub.id WHERE {VISIBLE}) \
         SELECT id FROM sub ORDER BY id"
    ))
    .bind(category_id)
    .fetch_all(pool)
    .await
}

/// A category as a filter or menu entry.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct CategoryRef {
    pub id: i64,
    pub name: String,
    pub seo_url: String,
    pub parent: Option<i64>,
}

/// The category side of `category/filters`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct CategoryFilters {
    /// The top category this one belongs to (itself for a top category or the root).
    pub parent_cat: CategoryRef,
    /// The children of `parent_cat`.
    pub sub_menu: Vec<CategoryRef>,
    /// The children of the category asked for, when it is not `parent_cat`.
    pub child_menu: Vec<CategoryRef>,
}

/// A value of an attribute filter.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct FilterOption {
    pub id: i64,
    pub value: String,
    pub slug: String,
}

/// An attribute filter: the query parameter is `filterby_{field_name}`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AttributeFilter {
    pub id: i64,
    pub field_label: String,
    pub field_name: String,
    /// Only the values that some product of the category has.
    pub values: Vec<FilterOption>,
}

async fn children(pool: &Pool, id: i64) -> Result<Vec<CategoryRef>, sqlx::Error> {
    db::query_as(&format!(
        "SELECT c.id, c.name, c.seo_url, c.parent FROM category c WHERE c.parent = $1 AND {VISIBLE} \
         ORDER BY c.position, c.serial, c.id"
    ))
    .bind(id)
    .fetch_all(pool)
    .await
}

/// The category filters of `category`.
pub async fn category_filters(
    pool: &Pool,
    category: &CategoryInfo,
) -> Result<CategoryFilters, sqlx::Error> {
    // Walk up to the child of the root (or stop at the root).
    let mut top = CategoryRef {
        id: category.id,
        name: category.name.clone(),
        seo_url: category.seo_url.clone(),
        parent: category.parent,
    };
    for _ in 0..16 {
        match top.parent {
            Some(p) if p != ROOT_ID && top.id != ROOT_ID => {
                let up: Option<CategoryRef> =
                    db::query_as("SELECT id, name, seo_url, parent FROM category WHERE id = $1")
                        .bind(p)
                        .fetch_optional(pool)
                        .await?;
                match up {
                    Some(up) => top = up,
                    None => break,
                }
            }
            _ => break,
        }
    }
    let sub_menu = children(pool, top.id).await?;
    let child_menu = if top.id == category.id {
        Vec::new()
    } else {
        children(pool, category.id).await?
    };
    Ok(CategoryFilters {
        parent_cat: top,
        sub_menu,
        child_menu,
    })
}

#[derive(FromRow)]
struct FilterRow {
    attribute_id: i64,
    field_label: String,
    field_name: String,
    id: i64,
    value: String,
    slug: String,
}

fn member_cte(category_id: i64) -> String {
    // An integer written into SQL cannot inject anything.
    format!(
        "WITH RECURSIVE sub(id) AS (SELECT CAST({category_id} AS BIGINT) UNION ALL \
         SELECT c.id FROM category c JOIN sub ON c.parent = sub.id WHERE {VISIBLE}), \
         member(product_id) AS (SELECT DISTINCT pc.product_id FROM product_category pc \
         WHERE {category_id} = {ROOT_ID} OR pc.category_id IN (SELECT id FROM sub)) "
    )
}

/// The filterable attributes with the values present in `category_id`'s products.
pub async fn attribute_filters(
    pool: &Pool,
    category_id: i64,
) -> Result<Vec<AttributeFilter>, sqlx::Error> {
    let rows: Vec<FilterRow> = db::query_as(&format!(
        "{cte} SELECT a.id AS attribute_id, a.field_label, a.field_name, v.id, v.value, v.slug \
         FROM attribute a JOIN attribute_value v ON v.attribute_id = a.id \
         WHERE a.is_filterable AND EXISTS (SELECT 1 FROM product_attribute pa \
           JOIN member m ON m.product_id = pa.product_id JOIN product p ON p.id = pa.product_id AND p.is_active \
           WHERE pa.attribute_value_id = v.id) \
         ORDER BY a.sort, a.id, v.sort, v.id",
        cte = member_cte(category_id)
    ))
    .fetch_all(pool)
    .await?;
    let mut out: Vec<AttributeFilter> = Vec::new();
    for r in rows {
        if out.last().map(|a| a.id) != Some(r.attribute_id) {
            out.push(AttributeFilter {
                id: r.attribute_id,
                field_label: r.field_label,
                field_name: r.field_name,
                values: Vec::new(),
            });
        }
        if let Some(last) = out.last_mut() {
            last.values.push(FilterOption {
                id: r.id,
                value: r.value,
                slug: r.slug,
            });
        }
    }
    Ok(out)
}

/// Attribute value ids by (field_name, slug), for validating `filterby_*`.
pub async fn attribute_slugs(
    pool: &Pool,
) -> Result<HashMap<String, HashMap<String, i64>>, sqlx::Error> {
    let rows: Vec<(String, String, i64)> = db::query_as(
        "SELECT a.field_name, v.slug, v.id FROM attribute a JOIN attribute_value v ON v.attribute_id = a.id \
         WHERE a.is_filterable",
    )
    .fetch_all(pool)
    .await?;
    let mut map: HashMap<String, HashMap<String, i64>> = HashMap::new();
    for (name, slug, id) in rows {
        map.entry(name).or_default().insert(slug, id);
    }
    Ok(map)
}

/// A tile of a category's tag gallery.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct TagGalleryItem {
    pub id: i64,
    pub url: String,
    pub url_type: i64,
    /// The category's seo_url (the original's naming).
    pub category_id: String,
    pub term_name: String,
    pub term_url: String,
    pub image_url: String,
}

/// Most tiles a category's tag gallery shows.
pub const TAG_GALLERY_LIMIT: i64 = 7;

/// The tag gallery of `category` (at most [`TAG_GALLERY_LIMIT`] tiles).
pub async fn tag_gallery(
    pool: &Pool,
    category: &CategoryInfo,
) -> Result<Vec<TagGalleryItem>, sqlx::Error> {
    db::query_as(
        "SELECT t.id, t.url, t.url_type, $2 AS category_id, t.term_name, t.term_url, f.full_size_directory AS image_url \
         FROM tag_gallery_item t JOIN image_file f ON f.id = t.image_file_id \
         WHERE t.category_id = $1 ORDER BY t.sort, t.id LIMIT $3",
    )
    .bind(category.id)
    .bind(&category.seo_url)
    .bind(TAG_GALLERY_LIMIT)
    .fetch_all(pool)
    .await
}

/// A product set tile of a category.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct ProductSetTile {
    pub id: i64,
    pub title: String,
    pub slug: String,
    /// The set's icon image.
    pub image_url: Option<String>,
    /// Σ qty × the price a shopper pays now, taka.
    pub price_all: i64,
    #[serde(rename = "type")]
    pub kind: String,
}

/// Active product sets of `category_id`'s subtree whose total lies in
/// `[price_min, price_max]`.
pub async fn product_sets(
    pool: &Pool,
    category_id: i64,
    price_min: i64,
    price_max: i64,
    now: i64,
) -> Result<Vec<ProductSetTile>, sqlx::Error> {
    db::query_as(&format!(
        "WITH RECURSIVE sub(id) AS (SELECT $1 UNION ALL \
         SELECT c.id FROM category c JOIN sub ON c.parent = sub.id WHERE {VISIBLE}), \
         totals(set_id, price_all) AS (SELECT i.product_set_id, CAST(SUM(i.qty * {effective}) AS BIGINT) \
           FROM product_set_item i JOIN product p ON p.id = i.product_id GROUP BY i.product_set_id) \
         SELECT s.id, s.title, s.slug, f.icon_size_directory AS image_url, COALESCE(t.price_all, 0) AS price_all, \
           'product_set' AS kind \
         FROM product_set s LEFT JOIN totals t ON t.set_id = s.id LEFT JOIN image_file f ON f.id = s.image_file_id \
         WHERE s.active AND ($1 = {ROOT_ID} OR s.category_id IN (SELECT id FROM sub)) \
           AND COALESCE(t.price_all, 0) BETWEEN $2 AND $3 ORDER BY s.id",
        effective = pricing::effective_price_sql(now)
    ))
    .bind(category_id)
    .bind(price_min)
    .bind(price_max)
    .fetch_all(pool)
    .await
}
