//! Category pages, `/c/{seo_url}` (and `/c/products`, every product): the
//! first page of products with links to further pages (rendered on demand by
//! the origin), sub-categories, filters as plain links, the category's tag
//! gallery and product sets, breadcrumbs.

use std::collections::HashMap;

use askama::Template;
use catalog::read::site::{CategoryNode, ContentRow, FilterValue, Picture};
use catalog::read::ProductCard;
use serde_json::json;

use crate::cards::{CardView, Tile};
use crate::catalogue::{Catalogue, LISTING_PAGE};
use crate::format::plain_text;
use crate::islands::island;
use crate::output::Page;
use crate::render::{Meta, Site};

/// Page-number links shown after the first page.
pub const PAGE_LINKS: usize = 4;

/// The slug of the all-products listing.
pub const ALL_PRODUCTS: &str = "products";

#[derive(Template)]
#[template(path = "listing.html")]
struct ListingTemplate<'a> {
    crumbs: &'a str,
    h1: &'a str,
    description: &'a str,
    subs: Vec<(String, String)>,
    filters: &'a str,
    cards: Vec<CardView>,
    pages: usize,
    more_pages: Vec<usize>,
    path: &'a str,
    tiles: Vec<Tile>,
    sets: Vec<Tile>,
}

/// What the category pages share, loaded once.
pub struct ListingData {
    pub filters: Vec<FilterValue>,
    pub tag_gallery: Vec<Picture>,
    pub sets: Vec<ContentRow>,
}

/// The ids shown on a category's first page.
pub fn first_page(catalogue: &Catalogue, c: &CategoryNode) -> Vec<i64> {
    let listed = catalogue.listed(c.id);
    let list = if listed.is_empty() && c.parent.is_none() {
        catalogue.popular()
    } else {
        listed
    };
    list.iter().take(LISTING_PAGE).copied().collect()
}

/// Renders a category page; `cards` holds at least its first page's cards.
pub fn render(
    site: &Site,
    catalogue: &Catalogue,
    shared: &ListingData,
    c: &CategoryNode,
    cards: &HashMap<i64, ProductCard>,
) -> anyhow::Result<Page> {
    let path = format!("/c/{}", c.seo_url);
    let mut trail = vec![("Home".to_string(), "/".to_string())];
    for node in catalogue.ancestry(c.id) {
        trail.push((node.name.clone(), format!("/c/{}", node.seo_url)));
    }
    let (crumbs, crumbs_ld) = site.breadcrumbs(&trail);
    let total = {
        let listed = catalogue.listed(c.id).len();
        if listed == 0 && c.parent.is_none() {
            catalogue.popular().len()
        } else {
            listed
        }
    };
    let ids = first_page(catalogue, c);
    let pages = total.div_ceil(LISTING_PAGE).max(1);
    let mut filter_html = String::from("<details><summary>Filters</summary>");
    let mut last_label = "";
    for f in &shared.filters {
        if f.field_label != last_label {
            if !last_label.is_empty() {
                filter_html.push_str("</ul>");
            }
            filter_html.push_str(&format!(
                "<h2>{}</h2><ul class=\"chips\">",
                crate::format::escape(&f.field_label)
            ));
            last_label = &f.field_label;
        }
        filter_html.push_str(&format!(
            "<li><a href=\"{path}?filterby_{}={}\" rel=\"nofollow\">{}</a></li>",
            crate::format::escape(f.field_name.trim_start_matches("filterby_")),
            crate::format::escape(&f.slug),
            crate::format::escape(&f.value)
        ));
    }
    if !last_label.is_empty() {
        filter_html.push_str("</ul>");
    }
    filter_html.push_str("</details>");
    let filters = if shared.filters.is_empty() {
        String::new()
    } else {
        island(
            "category-filters",
            "visible",
            Some(&json!({ "seo_url": c.seo_url })),
            &filter_html,
        )
    };
    let h1 = c
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
    let card_views: Vec<CardView> = ids
        .iter()
        .filter_map(|id| cards.get(id))
        .map(CardView::from_card)
        .collect();
    let main = ListingTemplate {
        crumbs: &crumbs,
        h1: &h1,
        description: c.description.as_deref().unwrap_or(""),
        subs: catalogue
            .children(c.id)
            .iter()
            .map(|s| (s.name.clone(), format!("/c/{}", s.seo_url)))
            .collect(),
        filters: &filters,
        cards: card_views.clone(),
        pages,
        more_pages: (2..=pages.min(PAGE_LINKS + 1)).collect(),
        path: &path,
        tiles: shared
            .tag_gallery
            .iter()
            .filter(|t| t.kind == c.id)
            .map(|t| Tile::new(t.link.clone(), &t.title, "", Some(&t.path)))
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
    let description = c.meta_description.clone().unwrap_or_else(|| {
        let text = plain_text(c.description.as_deref().unwrap_or(""), 150);
        if text.is_empty() {
            format!(
                "Shop {} at {}: {} products, prices in taka, delivery across Bangladesh.",
                h1, site.chrome.company, total
            )
        } else {
            text
        }
    });
    let item_list = json!({
        "@context": "https://schema.org",
        "@type": "ItemList",
        "itemListElement": card_views.iter().enumerate().map(|(i, card)| json!({
            "@type": "ListItem", "position": i + 1, "url": site.url(&card.href),
        })).collect::<Vec<_>>(),
    });
    let meta = Meta {
        title: c
            .meta_title
            .clone()
            .unwrap_or_else(|| format!("{h1} | {}", site.chrome.company)),
        description,
        path,
        og_type: "website",
        image: card_views.first().and_then(|_| {
            ids.first()
                .and_then(|id| cards.get(id))
                .and_then(|c| c.image_url.clone())
        }),
        noindex: false,
        json_ld: vec![crumbs_ld, item_list],
    };
    let mut keys = vec![format!("category:{}", c.id), "categories".into()];
    keys.extend(card_views.iter().map(|c| format!("product:{}", c.id)));
    site.page(&meta, &main, keys)
}
