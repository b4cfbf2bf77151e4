//! Content pages: `/blogs` and `/news-event` with their posts (Article
//! JSON-LD, [`posts`]), `/gallery` with the interior galleries
//! ([`gallery`]), product sets `/product-set/{slug}` ([`sets`]), CMS pages
//! `/page/{slug}` ([`cms`]), and the shop's own `/page/...` pages (flash
//! sale, top offers, bundle offers, pre-booking, showrooms, contact,
//! chat-to-buy: [`shop`]).
//!
//! Every kind fills a [`Part`] per page; [`page`] renders it with
//! `content.html`.

mod cms;
mod gallery;
mod posts;
mod sets;
mod shop;

use std::collections::HashMap;

use askama::Template;
use catalog::read::site::{ContentRow, FlashSale, Picture, ShowroomRow};
use catalog::read::ProductCard;

use crate::cards::{CardView, Tile};
use crate::format::{image_url, plain_text, srcset, SRCSET_WIDTHS};
use crate::output::Page;
use crate::render::{Meta, Site, Trail};

pub use shop::SHOP_PAGES;

/// Everything the content pages show, loaded once.
pub struct ContentData {
    pub blogs: Vec<ContentRow>,
    pub news: Vec<ContentRow>,
    pub interiors: Vec<ContentRow>,
    pub interior_images: Vec<Picture>,
    pub pages: Vec<ContentRow>,
    pub sets: Vec<ContentRow>,
    /// (set id, product id, qty)
    pub set_items: Vec<(i64, i64, i64)>,
    /// The stock of every product in a set.
    pub set_stock: Vec<catalog::read::product::SetItemStock>,
    /// Every active fabric of every set.
    pub fabrics: Vec<catalog::read::product::SetFabric>,
    pub set_infos: Vec<Picture>,
    pub showrooms: Vec<ShowroomRow>,
    pub flash: Option<(FlashSale, Vec<i64>)>,
    pub top_offers: Vec<i64>,
    pub pre_bookings: Vec<i64>,
}

/// Every content page: the lists, each item, the shop's pages. Returns the
/// pages; `index` is called for each URL that belongs in the sitemap.
pub fn render_all(
    site: &Site,
    d: &ContentData,
    cards: &HashMap<i64, ProductCard>,
    now: i64,
    index: &mut dyn FnMut(String, i64),
) -> anyhow::Result<Vec<Page>> {
    let mut out = posts::pages(site, &posts::BLOGS, &d.blogs, index)?;
    out.extend(posts::pages(site, &posts::NEWS, &d.news, index)?);
    out.extend(gallery::pages(
        site,
        &d.interiors,
        &d.interior_images,
        index,
    )?);
    out.extend(sets::pages(site, d, cards, index)?);
    out.extend(cms::pages(site, &d.pages, index)?);
    out.extend(shop::pages(site, d, cards, now, index)?);
    Ok(out)
}

/// The page's lead picture.
struct Hero {
    src: String,
    srcset: String,
    width: i64,
    height: i64,
}

#[derive(Template)]
#[template(path = "content.html")]
struct ContentTemplate<'a> {
    crumbs: &'a str,
    title: &'a str,
    sub_title: &'a str,
    byline: &'a str,
    hero: Option<Hero>,
    body: &'a str,
    extra: &'a str,
    cards: Vec<CardView>,
    tiles: Vec<Tile>,
}

/// Parts of one content page.
struct Part<'a> {
    path: String,
    trail: Trail,
    title: &'a str,
    sub_title: &'a str,
    byline: String,
    /// A stored picture with its width and height (0 when unknown).
    image: Option<(&'a str, i64, i64)>,
    /// Staff-written HTML.
    body: &'a str,
    /// HTML after the body, rendered by the page kind's own template.
    extra: String,
    cards: Vec<CardView>,
    tiles: Vec<Tile>,
    description: String,
    og_type: &'static str,
    extra_ld: Vec<serde_json::Value>,
    keys: Vec<String>,
}

impl<'a> Part<'a> {
    /// A page with only a path, a trail and a title; the rest is filled in
    /// by the caller.
    fn new(path: String, trail: Trail, title: &'a str) -> Part<'a> {
        Part {
            path,
            trail,
            title,
            sub_title: "",
            byline: String::new(),
            image: None,
            body: "",
            extra: String::new(),
            cards: Vec::new(),
            tiles: Vec::new(),
            description: String::new(),
            og_type: "website",
            extra_ld: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The parts every staff-written row gives: sub-title, picture, body and
    /// a description from its summary or body.
    fn with_row(mut self, row: &'a ContentRow) -> Part<'a> {
        self.sub_title = &row.sub_title;
        self.image = row
            .image
            .as_deref()
            .map(|i| (i, row.image_width, row.image_height));
        self.body = &row.body;
        self.description = describe(row, &row.title);
        self
    }
}

/// Renders one content page.
fn page(site: &Site, p: Part<'_>) -> anyhow::Result<Page> {
    let (crumbs, crumbs_ld) = site.breadcrumbs(&p.trail)?;
    let hero = p.image.map(|(path, w, h)| {
        let (w, h) = if w > 0 { (w, h) } else { (1200, 800) };
        Hero {
            src: image_url(path, 800),
            srcset: srcset(path, &SRCSET_WIDTHS, w as u32),
            width: w,
            height: h,
        }
    });
    let main = ContentTemplate {
        crumbs: &crumbs,
        title: p.title,
        sub_title: p.sub_title,
        byline: &p.byline,
        hero,
        body: p.body,
        extra: &p.extra,
        cards: p.cards,
        tiles: p.tiles,
    }
    .render()?;
    let mut json_ld = vec![crumbs_ld];
    json_ld.extend(p.extra_ld);
    let meta = Meta {
        title: format!("{} | {}", p.title, site.chrome.company),
        description: p.description,
        path: p.path,
        og_type: p.og_type,
        image: p.image.map(|(path, _, _)| path.to_string()),
        noindex: false,
        json_ld,
    };
    site.page(&meta, &main, p.keys)
}

/// The first crumb of every trail.
fn home() -> (String, String) {
    ("Home".into(), "/".into())
}

/// The cards of `ids` that `cards` holds, in order.
fn views(cards: &HashMap<i64, ProductCard>, ids: &[i64]) -> Vec<CardView> {
    ids.iter()
        .filter_map(|id| cards.get(id))
        .map(CardView::from_card)
        .collect()
}

/// The newest `updated_at` of `rows` (0 for none), for a list's sitemap entry.
fn newest(rows: &[ContentRow]) -> i64 {
    rows.iter().map(|r| r.updated_at).max().unwrap_or(0)
}

/// A meta description: the row's summary or body as plain text, or `fallback`.
fn describe(row: &ContentRow, fallback: &str) -> String {
    let text = plain_text(
        if row.summary.is_empty() {
            &row.body
        } else {
            &row.summary
        },
        150,
    );
    if text.is_empty() {
        fallback.to_string()
    } else {
        text
    }
}

/// A date as the shop writes it, in Dhaka: `5 March 2026`.
fn date(unix: i64) -> String {
    catalog::clock::in_dhaka(unix)
        .format("%-d %B %Y")
        .to_string()
}
