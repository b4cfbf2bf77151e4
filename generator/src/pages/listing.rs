//! Category pages, `/c/{seo_url}` (and `/c/products`, every product): the
//! first page of products with links to further pages, sub-categories,
//! filters, the category's tag gallery and product sets, breadcrumbs.
//!
//! The filter panel belongs to the listing ([`FilterPanel`]): only the
//! attribute values some of its products have, each with the count of
//! products it would leave, as plain links, and a price range as a GET form
//! (`price_min`, `price_max`) with the listing's lowest and highest price as
//! placeholders and bounds. A value that would leave nothing is never
//! offered. The build counts each category's values in memory
//! ([`FilterPanel::of`]); the origin counts them for its variants with the
//! chosen filters (facet counts).
//!
//! The build writes each category's first page ([`render`]); the origin
//! renders every other page of a listing on demand ([`render_variant`]:
//! further pages, a sort, filters, a search), through the same code and
//! template.

use std::collections::HashMap;

use askama::Template;
use catalog::read::listing::FilterValueRow;
use catalog::read::site::{CategoryNode, ContentRow, Picture};
use catalog::read::ProductCard;
use catalog::surrogate::SurrogateKey;
use serde_json::json;

use crate::cards::{CardView, Tile};
use crate::catalogue::{Catalogue, LISTING_PAGE};
use crate::format::{escape, plain_text};
use crate::islands::island;
use crate::output::Page;
use crate::props::{CategoryFiltersProps, FilterGroupProps, FilterValueProps};
use crate::render::{Meta, Site};

/// Page-number links shown after the first page.
pub const PAGE_LINKS: usize = 4;

/// The slug of the all-products listing.
pub const ALL_PRODUCTS: &str = "products";

/// A link of the page navigation; the current page has no `href`.
struct NavLink {
    label: String,
    href: Option<String>,
    rel: &'static str,
}

#[derive(Template)]
#[template(path = "listing.html")]
struct ListingTemplate<'a> {
    crumbs: &'a str,
    h1: &'a str,
    /// "Showing results for …" of a relaxed search.
    relaxed: Option<&'a str>,
    /// How many products the listing has: "24 products".
    found: String,
    description: &'a str,
    subs: Vec<(String, String)>,
    filters: &'a str,
    cards: Vec<CardView>,
    nav: Vec<NavLink>,
    tiles: Vec<Tile>,
    sets: Vec<Tile>,
}

/// What the category pages share, loaded once.
pub struct ListingData {
    /// Every filterable attribute value, in panel order.
    pub filters: Vec<FilterValueRow>,
    /// Product id → its filterable attribute value ids (the build's; the
    /// origin counts with SQL and leaves this empty).
    pub memberships: HashMap<i64, Vec<i64>>,
    pub tag_gallery: Vec<Picture>,
    pub sets: Vec<ContentRow>,
}

impl ListingData {
    /// Groups `(product id, value id)` rows by product.
    pub fn memberships_of(rows: &[(i64, i64)]) -> HashMap<i64, Vec<i64>> {
        let mut out: HashMap<i64, Vec<i64>> = HashMap::new();
        for (product, value) in rows {
            out.entry(*product).or_default().push(*value);
        }
        out
    }
}

/// What a listing's filter panel offers.
#[derive(Debug, Clone, Default)]
pub struct FilterPanel {
    /// Attribute value id → products of the listing it would leave (with
    /// the other chosen filters); values absent or 0 are not offered.
    pub counts: HashMap<i64, i64>,
    /// The lowest and highest price (a shopper pays now) in the listing,
    /// taka; None when it is empty.
    pub price: Option<(i64, i64)>,
}

impl FilterPanel {
    /// The panel of a plain listing of `ids`: each value's count among them
    /// and their price range, from the build's memory.
    pub fn of(catalogue: &Catalogue, shared: &ListingData, ids: &[i64]) -> FilterPanel {
        let mut counts: HashMap<i64, i64> = HashMap::new();
        let mut price: Option<(i64, i64)> = None;
        for id in ids {
            for v in shared.memberships.get(id).map_or(&[][..], Vec::as_slice) {
                *counts.entry(*v).or_default() += 1;
            }
            if let Some(p) = catalogue.placements.get(id) {
                price = Some(price.map_or((p.price, p.price), |(lo, hi)| {
                    (lo.min(p.price), hi.max(p.price))
                }));
            }
        }
        FilterPanel { counts, price }
    }
}

/// One page of a listing: its cards and where it stands among the pages.
#[derive(Debug, Clone)]
pub struct Variant<'a> {
    /// The page's cards, in order.
    pub cards: Vec<&'a ProductCard>,
    /// Products on all pages.
    pub total: usize,
    /// The page shown, from 1.
    pub page: usize,
    /// Cards a page.
    pub per_page: usize,
    /// Query parameters every link of the page keeps (sort, filters,
    /// keyword), without `page`; empty for the plain listing.
    pub query: Vec<(String, String)>,
    /// The searched words, shown in the heading of a search result page.
    pub keyword: Option<String>,
    /// When no product has every searched word: the words the cards match
    /// ("Showing results for …").
    pub relaxed: Option<String>,
    /// The filter panel: value counts and price bounds.
    pub panel: FilterPanel,
}

/// The ids shown on a category's first page.
pub fn first_page(catalogue: &Catalogue, c: &CategoryNode) -> Vec<i64> {
    listed(catalogue, c)
        .iter()
        .take(LISTING_PAGE)
        .copied()
        .collect()
}

/// Every product a category page lists, most popular first: the category's
/// own and its descendants', or every product for a top category that lists
/// none (the root, `/c/products`).
fn listed<'c>(catalogue: &'c Catalogue, c: &CategoryNode) -> &'c [i64] {
    let listed = catalogue.listed(c.id);
    if listed.is_empty() && c.parent.is_none() {
        catalogue.popular()
    } else {
        listed
    }
}

/// Renders a category's first page; `cards` holds at least its cards.
pub fn render(
    site: &Site,
    catalogue: &Catalogue,
    shared: &ListingData,
    c: &CategoryNode,
    cards: &HashMap<i64, ProductCard>,
) -> anyhow::Result<Page> {
    let all = listed(catalogue, c);
    let variant = Variant {
        cards: first_page(catalogue, c)
            .iter()
            .filter_map(|id| cards.get(id))
            .collect(),
        total: all.len(),
        page: 1,
        per_page: LISTING_PAGE,
        query: Vec::new(),
        keyword: None,
        relaxed: None,
        panel: FilterPanel::of(catalogue, shared, all),
    };
    render_variant(site, catalogue, shared, c, &variant)
}

/// `path` with `query` (and `page` when above 1) as a URL.
pub fn href(path: &str, query: &[(String, String)], page: usize) -> String {
    let mut parts: Vec<String> = query
        .iter()
        .map(|(k, v)| format!("{}={}", url_encode(k), url_encode(v)))
        .collect();
    if page > 1 {
        parts.push(format!("page={page}"));
    }
    if parts.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", parts.join("&"))
    }
}

/// Percent-encodes a query component as forms do (space as `+`).
fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Previous, up to [`PAGE_LINKS`] + 1 page numbers from near the current
/// page, Next; nothing when everything fits on the first page.
fn nav(path: &str, query: &[(String, String)], page: usize, pages: usize) -> Vec<NavLink> {
    if pages <= 1 && page <= 1 {
        return Vec::new();
    }
    let link = |label: String, n: usize, rel: &'static str| NavLink {
        label,
        href: Some(href(path, query, n)),
        rel,
    };
    let mut out = Vec::new();
    if page > 1 {
        out.push(link("‹ Previous".into(), (page - 1).min(pages), "prev"));
    }
    let start = page.min(pages).saturating_sub(2).max(1);
    for n in start..=(start + PAGE_LINKS).min(pages) {
        if n == page {
            out.push(NavLink {
                label: n.to_string(),
                href: None,
                rel: "",
            });
        } else {
            out.push(link(n.to_string(), n, ""));
        }
    }
    if page < pages {
        out.push(link("Next ›".into(), page + 1, "next"));
    }
    out
}

/// A group of filter links under one attribute's label.
struct FilterGroup<'a> {
    label: &'a str,
    links: Vec<FilterLink<'a>>,
}

/// A link that picks one value of a filter.
struct FilterLink<'a> {
    /// Escaped already (see [`escape`]).
    href: String,
    /// The page is filtered by this value.
    current: bool,
    value: &'a str,
    /// Products it leaves.
    count: i64,
}

#[derive(Template)]
#[template(path = "listing/filters.html")]
struct FiltersTemplate<'a> {
    /// The listing's path, the price form's action.
    action: &'a str,
    /// What the price form sends along (sort, keyword, chosen filters).
    hidden: Vec<(String, String)>,
    groups: Vec<FilterGroup<'a>>,
    /// The listing's price bounds, taka.
    low: Option<i64>,
    high: Option<i64>,
    /// The chosen price range.
    price_min: Option<String>,
    price_max: Option<String>,
    /// Filters chosen (values and prices), for the summary.
    active: usize,
    /// The listing without filters or prices (keeps sort and keyword).
    clear: Option<String>,
}

/// The filter panel (see the module docs) inside the `category-filters`
/// island: value links each keep the page's sort, keyword and price range
/// and pick one value; the price form keeps everything but the prices.
fn filters_html(
    shared: &ListingData,
    c: &CategoryNode,
    path: &str,
    v: &Variant,
) -> anyhow::Result<String> {
    let is_price = |k: &str| k == "price_min" || k == "price_max";
    let kept: Vec<(String, String)> = v
        .query
        .iter()
        .filter(|(k, _)| !k.starts_with("filterby_"))
        .cloned()
        .collect();
    let base = href(path, &kept, 1);
    let sep = if kept.is_empty() { "?" } else { "&" };
    let chosen = |name: &str, slug: &str| {
        v.query
            .iter()
            .any(|(k, val)| k == name && val.split('|').any(|s| s == slug))
    };
    let mut groups: Vec<FilterGroup> = Vec::new();
    let mut props: Vec<FilterGroupProps> = Vec::new();
    for f in &shared.filters {
        let name = format!("filterby_{}", f.field_name.trim_start_matches("filterby_"));
        let count = v.panel.counts.get(&f.id).copied().unwrap_or(0);
        let current = chosen(&name, &f.slug);
        // A value that leaves nothing is not offered (unless chosen: it can
        // be taken back).
        if count <= 0 && !current {
            continue;
        }
        if groups.last().is_none_or(|g| g.label != f.field_label) {
            groups.push(FilterGroup {
                label: &f.field_label,
                links: Vec::new(),
            });
            props.push(FilterGroupProps {
                label: &f.field_label,
                param: name.clone(),
                values: Vec::new(),
            });
        }
        let link = FilterLink {
            href: escape(&format!("{base}{sep}{name}={}", f.slug)),
            current,
            value: &f.value,
            count,
        };
        if let Some(group) = groups.last_mut() {
            group.links.push(link);
        }
        if let Some(group) = props.last_mut() {
            group.values.push(FilterValueProps {
                slug: &f.slug,
                label: &f.value,
                count,
            });
        }
    }
    if groups.is_empty() && v.panel.price.is_none() {
        return Ok(String::new());
    }
    let value_of = |name: &str| {
        v.query
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, val)| val.clone())
    };
    let active = v
        .query
        .iter()
        .filter(|(k, _)| k.starts_with("filterby_") || is_price(k))
        .map(|(k, val)| {
            if is_price(k) {
                1
            } else {
                val.split('|').filter(|s| !s.is_empty()).count()
            }
        })
        .sum();
    let clear_query: Vec<(String, String)> = v
        .query
        .iter()
        .filter(|(k, _)| !k.starts_with("filterby_") && !is_price(k))
        .cloned()
        .collect();
    let html = FiltersTemplate {
        action: path,
        hidden: v
            .query
            .iter()
            .filter(|(k, _)| !is_price(k))
            .cloned()
            .collect(),
        groups,
        low: v.panel.price.map(|p| p.0),
        high: v.panel.price.map(|p| p.1),
        price_min: value_of("price_min"),
        price_max: value_of("price_max"),
        active,
        clear: (active > 0).then(|| href(path, &clear_query, 1)),
    }
    .render()?;
    Ok(island(
        "category-filters",
        "visible",
        Some(&CategoryFiltersProps {
            seo_url: &c.seo_url,
            groups: props,
            price_low: v.panel.price.map(|p| p.0),
            price_high: v.panel.price.map(|p| p.1),
        }),
        &html,
    ))
}

/// Renders one page of a category's listing: the build's first page, or a
/// page the origin renders on demand. `catalogue` needs only the category
/// tree (for the breadcrumbs and sub-categories).
///
/// Only a plain listing's pages are for search engines: page N's canonical
/// URL is itself (page 1's the bare path); a sorted, filtered or searched
/// page points at the bare path and is `noindex`.
pub fn render_variant(
    site: &Site,
    catalogue: &Catalogue,
    shared: &ListingData,
    c: &CategoryNode,
    v: &Variant,
) -> anyhow::Result<Page> {
    let path = format!("/c/{}", c.seo_url);
    let mut trail = vec![("Home".to_string(), "/".to_string())];
    for node in catalogue.ancestry(c.id) {
        trail.push((node.name.clone(), format!("/c/{}", node.seo_url)));
    }
    let (crumbs, crumbs_ld) = site.breadcrumbs(&trail)?;
    let per_page = v.per_page.max(1);
    let pages = v.total.div_ceil(per_page).max(1);
    let filters = filters_html(shared, c, &path, v)?;
    let name = c
        .seo_h1
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| {
            if c.seo_url == ALL_PRODUCTS {
                "All Products".to_string()
            } else {
                c.name.clone()
            }
        });
    let h1 = match &v.keyword {
        Some(k) => format!("Search results for “{k}”"),
        None => name.clone(),
    };
    let card_views: Vec<CardView> = v.cards.iter().map(|c| CardView::from_card(c)).collect();
    let found = match v.total {
        1 => "1 product".to_string(),
        n => format!("{} products", catalog::pricing::grouped(n as u64)),
    };
    let main = ListingTemplate {
        crumbs: &crumbs,
        h1: &h1,
        relaxed: v.relaxed.as_deref(),
        found: found.clone(),
        // Search results are not the category the search ran in.
        description: match v.keyword {
            Some(_) => "",
            None => c.description.as_deref().unwrap_or(""),
        },
        subs: catalogue
            .children(c.id)
            .iter()
            .map(|s| (s.name.clone(), format!("/c/{}", s.seo_url)))
            .collect(),
        filters: &filters,
        cards: card_views.clone(),
        nav: nav(&path, &v.query, v.page, pages),
        tiles: shared
            .tag_gallery
            .iter()
            .filter(|t| t.kind == c.id)
            .map(|t| {
                Tile::new(t.link.clone(), &t.title, "", Some(&t.path)).sized(t.width, t.height)
            })
            .collect(),
        sets: shared
            .sets
            .iter()
            .filter(|s| s.category_id == Some(c.id))
            .map(|s| {
                Tile::new(
                    format!("/product-set/{}", s.slug),
                    &s.title,
                    &s.sub_title,
                    s.image.as_deref(),
                )
            })
            .collect(),
    }
    .render()?;
    let description = match &v.keyword {
        Some(_) => Some(format!(
            "{h1} at {}: {found}, prices in taka, delivery across Bangladesh.",
            site.chrome.company
        )),
        None => c.meta_description.clone(),
    };
    let description = description.unwrap_or_else(|| {
        let text = plain_text(c.description.as_deref().unwrap_or(""), 150);
        if text.is_empty() {
            format!(
                "Shop {} at {}: {} products, prices in taka, delivery across Bangladesh.",
                name, site.chrome.company, v.total
            )
        } else {
            text
        }
    });
    let first = v.page.saturating_sub(1).saturating_mul(per_page);
    let item_list = json!({
        "@context": "https://schema.org",
        "@type": "ItemList",
        "itemListElement": card_views.iter().enumerate().map(|(i, card)| json!({
            "@type": "ListItem", "position": first + i + 1, "url": site.url(&card.href),
        })).collect::<Vec<_>>(),
    });
    let mut title = match (&v.keyword, &c.meta_title) {
        (None, Some(t)) => t.clone(),
        _ => format!("{h1} | {}", site.chrome.company),
    };
    if v.page > 1 {
        title = format!("{title} (page {})", v.page);
    }
    let plain = v.query.is_empty();
    let meta = Meta {
        title,
        description,
        path: if plain {
            href(&path, &[], v.page)
        } else {
            path
        },
        og_type: "website",
        image: v.cards.first().and_then(|c| c.image_url.clone()),
        noindex: !plain,
        json_ld: vec![crumbs_ld, item_list],
    };
    let mut keys = vec![
        SurrogateKey::Category(c.id).to_string(),
        SurrogateKey::Categories.to_string(),
    ];
    keys.extend(
        card_views
            .iter()
            .map(|c| SurrogateKey::Product(c.id).to_string()),
    );
    site.page(&meta, &main, keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(nav: &[NavLink]) -> Vec<String> {
        nav.iter()
            .map(|l| match &l.href {
                Some(h) => format!("{}={h}", l.label),
                None => format!("[{}]", l.label),
            })
            .collect()
    }

    #[test]
    fn page_links_keep_the_query_and_centre_on_the_current_page() {
        let q = vec![
            ("sort_by".to_string(), "price_asc".to_string()),
            ("keyword".to_string(), "teak bed|x".to_string()),
        ];
        assert_eq!(
            href("/c/beds", &q, 3),
            "/c/beds?sort_by=price_asc&keyword=teak+bed%7Cx&page=3"
        );
        assert_eq!(href("/c/beds", &[], 1), "/c/beds");
        assert_eq!(
            labels(&nav("/c/b", &[], 1, 9)),
            [
                "[1]",
                "2=/c/b?page=2",
                "3=/c/b?page=3",
                "4=/c/b?page=4",
                "5=/c/b?page=5",
                "Next ›=/c/b?page=2"
            ]
        );
        assert_eq!(
            labels(&nav("/c/b", &[], 7, 8)),
            [
                "‹ Previous=/c/b?page=6",
                "5=/c/b?page=5",
                "6=/c/b?page=6",
                "[7]",
                "8=/c/b?page=8",
                "Next ›=/c/b?page=8"
            ]
        );
        // Past the end: back to the last page.
        assert_eq!(
            labels(&nav("/c/b", &[], 50, 2)),
            ["‹ Previous=/c/b?page=2", "1=/c/b", "2=/c/b?page=2"]
        );
        assert!(nav("/c/b", &[], 1, 1).is_empty());
    }

    fn value(id: i64, attribute: i64, label: &str, name: &str, value: &str) -> FilterValueRow {
        FilterValueRow {
            id,
            attribute_id: attribute,
            field_label: label.into(),
            field_name: name.into(),
            value: value.into(),
            slug: value.to_lowercase(),
        }
    }

    fn placement(id: i64, price: i64) -> catalog::read::site::Placement {
        catalog::read::site::Placement {
            id,
            seo_url: format!("p{id}"),
            updated_at: 0,
            category_id: Some(2),
            price,
            popularity: 0,
            created_at: 0,
        }
    }

    #[test]
    fn the_filter_panel_offers_only_values_with_products_with_counts_and_a_price_form() {
        let shared = ListingData {
            filters: vec![
                value(10, 1, "Colour", "color", "Red"),
                value(11, 1, "Colour", "color", "Teak"),
                value(12, 1, "Colour", "color", "Blue"),
                value(20, 2, "Material", "material", "Oak"),
            ],
            memberships: ListingData::memberships_of(&[(1, 10), (1, 20), (2, 10), (3, 11)]),
            tag_gallery: Vec::new(),
            sets: Vec::new(),
        };
        let catalogue = Catalogue::from_rows(
            Vec::new(),
            vec![
                placement(1, 9_000),
                placement(2, 45_500),
                placement(3, 12_000),
            ],
            &[],
        );
        // The build counts in memory: blue (no product) is not there.
        let panel = FilterPanel::of(&catalogue, &shared, &[1, 2, 3]);
        assert_eq!(panel.counts, HashMap::from([(10, 2), (11, 1), (20, 1)]));
        assert_eq!(panel.price, Some((9_000, 45_500)));
        let node = CategoryNode {
            id: 2,
            name: "Beds".into(),
            seo_url: "beds".into(),
            parent: Some(1),
            description: None,
            seo_h1: None,
            meta_title: None,
            meta_description: None,
            updated_at: 0,
        };
        let mut v = Variant {
            cards: Vec::new(),
            total: 3,
            page: 1,
            per_page: LISTING_PAGE,
            query: Vec::new(),
            keyword: None,
            relaxed: None,
            panel,
        };
        let html = filters_html(&shared, &node, "/c/beds", &v).unwrap();
        assert!(html.contains(
            r#"<a href="/c/beds?filterby_color=red" rel="nofollow">Red <span class="muted">(2)</span></a>"#
        ));
        assert!(html.contains(r#">Teak <span class="muted">(1)</span>"#));
        assert!(html.contains(r#">Oak <span class="muted">(1)</span>"#));
        assert!(
            !html.contains("Blue"),
            "a value with no product is not offered"
        );
        assert!(html.contains(r#"<form method="get" action="/c/beds" class="row">"#));
        assert!(html.contains(
            r#"name="price_min" inputmode="numeric" min="0" step="1" placeholder="9000">"#
        ));
        assert!(html.contains(
            r#"name="price_max" inputmode="numeric" min="0" step="1" placeholder="45500">"#
        ));
        assert!(html.contains("<summary>Filters</summary>"));
        assert!(!html.contains("Clear filters"));
        // The island's props carry the same groups and bounds.
        assert!(html.contains(r#""groups":[{"label":"Colour","param":"filterby_color","values":[{"slug":"red","label":"Red","count":2},{"slug":"teak","label":"Teak","count":1}]}"#));
        assert!(html.contains(r#""price_low":9000,"price_high":45500"#));

        // A chosen value and price range: the form keeps the value (and the
        // sort) as hidden fields and shows the range; links keep the range; a
        // chosen value with no product left stays, so it can be taken back.
        v.query = vec![
            ("sort_by".into(), "price_asc".into()),
            ("price_min".into(), "10000".into()),
            ("filterby_color".into(), "blue".into()),
        ];
        v.panel.counts = HashMap::from([(20, 4)]);
        let html = filters_html(&shared, &node, "/c/beds", &v).unwrap();
        assert!(html.contains(r#"<input type="hidden" name="sort_by" value="price_asc"><input type="hidden" name="filterby_color" value="blue">"#));
        assert!(!html.contains(r#"name="price_min" value"#));
        assert!(html.contains(r#"placeholder="9000" value="10000">"#));
        assert!(html.contains(r#"<a href="/c/beds?sort_by=price_asc&amp;price_min=10000&amp;filterby_color=blue" rel="nofollow" aria-current="true">Blue <span>(0)</span></a>"#));
        assert!(html.contains(r#">Oak <span class="muted">(4)</span>"#));
        assert!(!html.contains("Red") && !html.contains("Teak"));
        assert!(html.contains("<summary>Filters (2)</summary>"));
        assert!(html
            .contains(r#"<a href="/c/beds?sort_by=price_asc" rel="nofollow">Clear filters</a>"#));
    }
}
