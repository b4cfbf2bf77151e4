//! Read queries of the content around the catalogue, for the Common and Home
//! groups of SPEC.md §7: posts (blog and news), CMS pages, SEO texts, the
//! header and footer menus, category terms, districts, showrooms and the
//! plain search. Menus and settings come from [`crate::read::site`]'s loaders.

use std::collections::BTreeMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::clock;
use crate::db::{self, Pool};
use crate::read::product::ago;
use crate::read::site::{self, MenuLink};

/// Most top links the header shows (SPEC.md §9).
pub const HEADER_MENU_LIMIT: usize = 4;
/// Most category terms a search answers (SPEC.md §9).
pub const SEARCH_TERMS_LIMIT: i64 = 8;
/// Most products a search answers.
pub const SEARCH_PRODUCTS_LIMIT: i64 = 10;

/// A post in a list (`home/news-events`, `home/blog-posts`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PostCard {
    pub id: i64,
    pub title: String,
    pub seo_url: String,
    pub image_url: Option<String>,
    pub short_description: String,
    /// The publication date in Dhaka, e.g. `05 March 2026`.
    pub created_at: String,
}

#[derive(FromRow)]
struct PostRow {
    id: i64,
    title: String,
    sub_title: String,
    seo_url: String,
    image_url: Option<String>,
    short_description: String,
    description: String,
    published_at: i64,
}

const POST_COLUMNS: &str =
    "p.id, p.title, p.sub_title, p.seo_url, f.full_size_directory AS image_url, \
     p.short_description, p.description, p.published_at";

fn day(unix: i64) -> String {
    clock::in_dhaka(unix).format("%d %B %Y").to_string()
}

/// The newest `limit` active posts of `kind` (`blog` or `news`) and how many there are.
pub async fn posts(
    pool: &Pool,
    kind: &str,
    limit: i64,
) -> Result<(Vec<PostCard>, i64), sqlx::Error> {
    let rows: Vec<PostRow> = db::query_as(&format!(
        "SELECT {POST_COLUMNS} FROM post p LEFT JOIN image_file f ON f.id = p.image_file_id \
         WHERE p.kind = $1 AND p.is_active ORDER BY p.published_at DESC, p.id DESC LIMIT $2"
    ))
    .bind(kind)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let total: i64 = db::query_scalar("SELECT COUNT(*) FROM post WHERE kind = $1 AND is_active")
        .bind(kind)
        .fetch_one(pool)
        .await?;
    let cards = rows
        .into_iter()
        .map(|r| PostCard {
            id: r.id,
            title: r.title,
            seo_url: r.seo_url,
            image_url: r.image_url,
            short_description: r.short_description,
            created_at: day(r.published_at),
        })
        .collect();
    Ok((cards, total))
}

/// A post as `home/blog-details` returns it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PostDetail {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    /// The gallery image paths (the main image first).
    pub images: Vec<String>,
    pub image: Option<String>,
    /// HTML.
    pub description: String,
    pub short_description: String,
    /// "3 days ago".
    pub time: String,
    pub created_at: String,
}

/// The active post with slug `seo_url`, at `now`.
pub async fn post(pool: &Pool, seo_url: &str, now: i64) -> Result<Option<PostDetail>, sqlx::Error> {
    let row: Option<PostRow> = db::query_as(&format!(
        "SELECT {POST_COLUMNS} FROM post p LEFT JOIN image_file f ON f.id = p.image_file_id \
         WHERE p.seo_url = $1 AND p.is_active"
    ))
    .bind(seo_url)
    .fetch_optional(pool)
    .await?;
    let Some(r) = row else { return Ok(None) };
    let gallery: Vec<String> = db::query_scalar(
        "SELECT f.full_size_directory FROM post_image pi JOIN image_file f ON f.id = pi.image_file_id \
         WHERE pi.post_id = $1 ORDER BY pi.sort, pi.id",
    )
    .bind(r.id)
    .fetch_all(pool)
    .await?;
    let mut images: Vec<String> = r.image_url.iter().cloned().collect();
    images.extend(
        gallery
            .into_iter()
            .filter(|g| Some(g) != r.image_url.as_ref()),
    );
    Ok(Some(PostDetail {
        id: r.id,
        title: r.title,
        sub_title: r.sub_title,
        seo_url: r.seo_url,
        images,
        image: r.image_url,
        description: r.description,
        short_description: r.short_description,
        time: ago(r.published_at, now),
        created_at: day(r.published_at),
    }))
}

/// A CMS page (`common/page`).
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct Page {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    /// HTML.
    pub description: String,
    /// The page's image path, or None.
    pub images: Option<String>,
    pub is_sticky: bool,
    pub lang: String,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The active CMS page `id`.
pub async fn page(pool: &Pool, id: i64) -> Result<Option<Page>, sqlx::Error> {
    db::query_as(
        "SELECT p.id, p.title, p.sub_title, p.seo_url, p.description, f.full_size_directory AS images, \
         p.is_sticky, p.lang, p.created_at, p.updated_at \
         FROM page p LEFT JOIN image_file f ON f.id = p.image_file_id WHERE p.id = $1 AND p.is_active",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// SEO texts of a product, category, page or post.
#[derive(Debug, Clone, Serialize, FromRow, PartialEq, Eq, schemars::JsonSchema)]
pub struct SeoMeta {
    pub meta_title: String,
    pub meta_description: String,
    pub meta_keywords: String,
}

/// The kinds `get-seo-content` knows.
pub const SEO_POST_TYPES: [&str; 4] = ["product", "category", "page", "post"];

/// The SEO texts stored for (`post_type`, `post_id`).
pub async fn seo_meta(
    pool: &Pool,
    post_type: &str,
    post_id: i64,
) -> Result<Option<SeoMeta>, sqlx::Error> {
    db::query_as(
        "SELECT meta_title, meta_description, meta_keywords FROM seo_content \
         WHERE post_type = $1 AND post_id = $2",
    )
    .bind(post_type)
    .bind(post_id)
    .fetch_optional(pool)
    .await
}

/// Whether the product, category, page or post that (`post_type`,
/// `post_id`) names exists (active or not); false for any other type.
pub async fn seo_target_exists(
    pool: &Pool,
    post_type: &str,
    post_id: i64,
) -> Result<bool, sqlx::Error> {
    // The table name comes from this fixed list, never from the caller.
    let table = match post_type {
        "product" => "product",
        "category" => "category",
        "page" => "page",
        "post" => "post",
        _ => return Ok(false),
    };
    db::query_scalar(&format!(
        "SELECT EXISTS (SELECT 1 FROM {table} WHERE id = $1)"
    ))
    .bind(post_id)
    .fetch_one(pool)
    .await
}

/// The site-wide SEO texts (settings `com_metatitle`...), the fallback of [`seo_meta`].
pub fn default_seo(settings: &BTreeMap<String, String>) -> SeoMeta {
    let get = |k: &str| settings.get(k).cloned().unwrap_or_default();
    SeoMeta {
        meta_title: get("com_metatitle"),
        meta_description: get("com_metadescription"),
        meta_keywords: get("com_metakeywords"),
    }
}

/// A menu link.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Link {
    pub label: String,
    pub link: String,
}

impl From<&MenuLink> for Link {
    fn from(m: &MenuLink) -> Self {
        Link {
            label: m.label.clone(),
            link: m.link.clone(),
        }
    }
}

/// The header's menus and titles (SPEC.md §3 Header data).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Header {
    /// At most [`HEADER_MENU_LIMIT`].
    pub menus: Vec<Link>,
    pub child_menus: Vec<Link>,
    pub child_sub_menus: Vec<Link>,
    pub offer_title: String,
    pub category_title: String,
    pub flash_sale_title: String,
}

/// The header data.
pub async fn header(pool: &Pool) -> Result<Header, sqlx::Error> {
    let links = site::menu_links(pool).await?;
    let settings = site::settings(pool).await?;
    let at = |loc: &str| -> Vec<Link> {
        links
            .iter()
            .filter(|m| m.location == loc && m.parent == 0)
            .map(Link::from)
            .collect()
    };
    let mut menus = at("header");
    menus.truncate(HEADER_MENU_LIMIT);
    let title = |k: &str, d: &str| settings.get(k).cloned().unwrap_or_else(|| d.to_string());
    Ok(Header {
        menus,
        child_menus: at("header_child"),
        child_sub_menus: at("header_child_sub"),
        offer_title: title("offer_title", "Top Offers"),
        category_title: title("category_title", "Shop by Category"),
        flash_sale_title: title("flash_sale_title", "Flash Sale"),
    })
}

/// A footer column.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct FooterColumn {
    pub title: String,
    pub data: Vec<Link>,
}

/// The footer columns (by menu order) and the support HTML (setting `footer_support`).
pub async fn footer(pool: &Pool) -> Result<(Vec<FooterColumn>, String), sqlx::Error> {
    let links = site::menu_links(pool).await?;
    let mut columns: Vec<(i64, FooterColumn)> = Vec::new();
    for m in links.iter().filter(|m| m.location == "footer") {
        match columns.iter_mut().find(|(id, _)| *id == m.menu_id) {
            Some((_, col)) => col.data.push(Link::from(m)),
            None => columns.push((
                m.menu_id,
                FooterColumn {
                    title: m.menu_title.clone(),
                    data: vec![Link::from(m)],
                },
            )),
        }
    }
    let support = site::settings(pool)
        .await?
        .remove("footer_support")
        .unwrap_or_default();
    Ok((columns.into_iter().map(|(_, c)| c).collect(), support))
}

/// The side menu's product tree: the items of the `products` menu.
pub async fn product_menu(pool: &Pool) -> Result<Vec<MenuLink>, sqlx::Error> {
    Ok(site::menu_links(pool)
        .await?
        .into_iter()
        .filter(|m| m.location == "products")
        .collect())
}

/// A category term (`common/all-terms`, `home/terms`).
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct Term {
    pub id: i64,
    pub parent: Option<i64>,
    pub name: String,
    pub seo_url: String,
    /// The home tile's image path (`home_image`, else `home_img`); the
    /// original always sent null here, a bug not kept.
    pub home_image: Option<String>,
    pub page_image: Option<String>,
}

/// Published product categories by serial; only the children of `parent` when given.
pub async fn terms(pool: &Pool, parent: Option<i64>) -> Result<Vec<Term>, sqlx::Error> {
    db::query_as(
        "SELECT c.id, c.parent, c.name, c.seo_url, \
         (SELECT full_size_directory FROM image_file WHERE id = COALESCE(c.home_image, c.home_img)) AS home_image, \
         (SELECT full_size_directory FROM image_file WHERE id = c.page_image) AS page_image \
         FROM category c WHERE c.type = 'product' AND c.is_active AND c.is_published \
         AND ($1 IS NULL OR c.parent = $1) ORDER BY c.serial, c.id",
    )
    .bind(parent)
    .fetch_all(pool)
    .await
}

/// A district with its division (`common/districts`).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct District {
    pub id: i64,
    pub district: String,
    pub district_bn: String,
    pub division: String,
    pub division_bn: String,
    /// Other accepted spellings.
    pub aliases: Vec<String>,
    pub delivery_zone: String,
}

#[derive(FromRow)]
struct DistrictRow {
    id: i64,
    district: String,
    district_bn: String,
    division: String,
    division_bn: String,
    aliases: String,
    delivery_zone: String,
}

/// Every district, by name.
pub async fn districts(pool: &Pool) -> Result<Vec<District>, sqlx::Error> {
    let rows: Vec<DistrictRow> = db::query_as(
        "SELECT d.id, d.name AS district, d.name_bn AS district_bn, v.name AS division, \
         v.name_bn AS division_bn, d.aliases, d.delivery_zone \
         FROM district d JOIN division v ON v.id = d.division_id ORDER BY d.name",
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| District {
            id: r.id,
            district: r.district,
            district_bn: r.district_bn,
            division: r.division,
            division_bn: r.division_bn,
            aliases: r
                .aliases
                .split('|')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(str::to_string)
                .collect(),
            delivery_zone: r.delivery_zone,
        })
        .collect())
}

/// The id of the district called `name` (its name, Bangla name or an alias;
/// case and surrounding spaces ignored).
pub async fn district_id(pool: &Pool, name: &str) -> Result<Option<i64>, sqlx::Error> {
    let wanted = name.trim().to_lowercase();
    let rows: Vec<(i64, String, String, String)> =
        db::query_as("SELECT id, name, name_bn, aliases FROM district")
            .fetch_all(pool)
            .await?;
    Ok(rows.into_iter().find_map(|(id, n, bn, aliases)| {
        let hit = n.to_lowercase() == wanted
            || bn.trim() == name.trim()
            || aliases
                .split('|')
                .any(|a| a.trim().to_lowercase() == wanted);
        hit.then_some(id)
    }))
}

/// A showroom or chat-to-buy point.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct Showroom {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    /// HTML.
    pub description: String,
    /// `Showroom` or `Chatbuy`.
    pub shop_type: String,
    pub division: String,
    pub district: String,
    pub thana: String,
    pub phone: String,
    pub address: String,
    pub opening_hours: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
}

/// Active points of `shop_type`, optionally in one district and thana
/// (thana compared without case), by district and title.
pub async fn showrooms(
    pool: &Pool,
    shop_type: &str,
    district_id: Option<i64>,
    thana: Option<&str>,
) -> Result<Vec<Showroom>, sqlx::Error> {
    db::query_as(
        "SELECT s.id, s.title, s.sub_title, s.seo_url, s.description, s.shop_type, v.name AS division, \
         d.name AS district, s.thana, s.phone, s.address, s.opening_hours, s.latitude, s.longitude \
         FROM showroom s JOIN district d ON d.id = s.district_id JOIN division v ON v.id = d.division_id \
         WHERE s.is_active AND s.shop_type = $1 AND ($2 IS NULL OR s.district_id = $2) \
         AND ($3 IS NULL OR LOWER(s.thana) = LOWER($3)) ORDER BY d.name, s.title, s.id",
    )
    .bind(shop_type)
    .bind(district_id)
    .bind(thana)
    .fetch_all(pool)
    .await
}

/// A product found by the search box.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct SearchHit {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    /// `/product/<seo_url>`.
    pub url: String,
    pub seo_url: String,
}

/// A category found by the search box.
#[derive(Debug, Clone, Serialize, FromRow, schemars::JsonSchema)]
pub struct SearchTerm {
    pub id: i64,
    pub name: String,
    /// `/c/<seo_url>`.
    pub url: String,
    #[serde(rename = "type")]
    pub kind: String,
}

/// Escapes `%`, `_` and `\` for a `LIKE ... ESCAPE '\'` pattern.
fn like_pattern(keyword: &str) -> String {
    let mut p = String::from("%");
    for c in keyword.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

/// The original shop's search, kept only to compare against (the search
/// benchmark): products (title, sub-title, code, SKU, variation codes; most popular first,
/// at most [`SEARCH_PRODUCTS_LIMIT`]) and published categories (name, Bangla
/// name, slug, description; at most [`SEARCH_TERMS_LIMIT`]) containing
/// `keyword`, by SQL `LIKE '%kw%'`.
pub async fn search_like(
    pool: &Pool,
    keyword: &str,
) -> Result<(Vec<SearchHit>, Vec<SearchTerm>), sqlx::Error> {
    // Control characters (a NUL ends SQLite's LIKE pattern early, so that
    // "%\0" would match everything) are dropped, not searched for.
    let keyword: String = keyword.chars().filter(|c| !c.is_control()).collect();
    let keyword = keyword.trim();
    if keyword.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let pattern = like_pattern(keyword);
    let hits = db::query_as(
        "SELECT p.id, p.title, p.sub_title, '/product/' || p.seo_url AS url, p.seo_url FROM product p \
         WHERE p.is_active AND (lower(p.title) LIKE lower($1) ESCAPE '\\' OR lower(p.sub_title) LIKE lower($1) ESCAPE '\\' \
         OR lower(p.product_code) LIKE lower($1) ESCAPE '\\' OR lower(p.sku) LIKE lower($1) ESCAPE '\\' \
         OR EXISTS (SELECT 1 FROM product_variation v WHERE v.product_id = p.id \
           AND (lower(v.product_code) LIKE lower($1) ESCAPE '\\' OR lower(v.sub_title) LIKE lower($1) ESCAPE '\\'))) \
         ORDER BY p.popularity DESC, p.id LIMIT $2",
    )
    .bind(&pattern)
    .bind(SEARCH_PRODUCTS_LIMIT)
    .fetch_all(pool)
    .await?;
    let terms = db::query_as(
        "SELECT c.id, c.name, '/c/' || c.seo_url AS url, 'category' AS kind FROM category c \
         WHERE c.type = 'product' AND c.is_active AND c.is_published AND c.parent IS NOT NULL \
         AND (lower(c.name) LIKE lower($1) ESCAPE '\\' OR lower(c.name_bn) LIKE lower($1) ESCAPE '\\' OR lower(c.seo_url) LIKE lower($1) ESCAPE '\\' \
         OR lower(c.description) LIKE lower($1) ESCAPE '\\') ORDER BY c.position, c.serial, c.id LIMIT $2",
    )
    .bind(&pattern)
    .bind(SEARCH_TERMS_LIMIT)
    .fetch_all(pool)
    .await?;
    Ok((hits, terms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_wildcards_are_escaped() {
        assert_eq!(like_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }
}
