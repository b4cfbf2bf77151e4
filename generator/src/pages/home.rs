//! The home page `/`: the main banner (the largest paint) and featured
//! sliders, top categories, the flash-sale strip with its countdown data, top
//! offers, pre-bookings, new arrivals, the tag gallery, news-events and blog
//! posts.

use std::collections::HashMap;

use askama::Template;
use catalog::read::site::{ContentRow, FlashSale, Picture};
use catalog::read::ProductCard;
use catalog::surrogate::SurrogateKey;
use serde_json::json;

use crate::cards::{CardView, Tile};
use crate::catalogue::Catalogue;
use crate::format::{image_url, srcset};
use crate::islands::island;
use crate::output::Page;
use crate::props::FlashCountdownProps;
use crate::render::{Meta, Site};

/// Cards per home strip.
pub const STRIP: usize = 8;
/// Posts per home list.
pub const POSTS: usize = 4;

/// What the home page shows.
pub struct HomeData {
    pub sliders: Vec<Picture>,
    pub tag_gallery: Vec<Picture>,
    pub flash: Option<(FlashSale, Vec<i64>)>,
    pub top_offers: Vec<i64>,
    pub pre_bookings: Vec<i64>,
    pub new_arrivals: Vec<i64>,
    pub blogs: Vec<ContentRow>,
    pub news: Vec<ContentRow>,
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomeTemplate<'a> {
    company: &'a str,
    banner: Option<Banner<'a>>,
    /// The other main banners as links: (href, label).
    more_banners: Vec<(&'a str, &'a str)>,
    featured: Vec<Tile>,
    top_categories: Vec<(String, String)>,
    flash: &'a str,
    strips: Vec<(&'static str, &'static str, Vec<CardView>)>,
    tiles: Vec<Tile>,
    news: Vec<Tile>,
    blogs: Vec<Tile>,
}

/// The first main banner, the largest paint.
struct Banner<'a> {
    href: &'a str,
    src: String,
    srcset: String,
    width: i64,
    height: i64,
    /// The headline, set over the picture in HTML (the picture is decorative).
    alt: &'a str,
    /// The call to action: "Shop" and the linked category's name.
    cta: String,
}

/// The fallback of the flash-countdown island on the strip.
#[derive(Template)]
#[template(path = "home/countdown.html")]
struct CountdownTemplate<'a> {
    name: &'a str,
    /// `Ends` or `Starts`.
    verb: &'a str,
    when: String,
}

/// The flash-sale strip: the countdown island, then the cards.
#[derive(Template)]
#[template(path = "home/flash.html")]
struct FlashTemplate<'a> {
    countdown: &'a str,
    cards: &'a [CardView],
}

/// The flash-sale strip: the countdown island (its fallback names the start
/// or end in Dhaka time) and the sale's cards.
pub fn flash_strip(
    sale: &FlashSale,
    cards: &[CardView],
    now: i64,
    limit: usize,
) -> anyhow::Result<String> {
    let running = sale.starts_at <= now;
    let when = catalog::clock::in_dhaka(if running {
        sale.ends_at
    } else {
        sale.starts_at
    })
    .format("%-d %b %Y, %H:%M");
    let text = CountdownTemplate {
        name: &sale.fs_name,
        verb: if running { "Ends" } else { "Starts" },
        when: when.to_string(),
    }
    .render()?;
    let countdown = island(
        "flash-countdown",
        "visible",
        Some(&FlashCountdownProps {
            starts_at: Some(sale.starts_at),
            ends_at: sale.ends_at,
            offset_ms: None,
        }),
        &text,
    );
    Ok(FlashTemplate {
        countdown: &countdown,
        cards: &cards[..cards.len().min(limit)],
    }
    .render()?)
}

/// `text`, or `fallback` when it is empty.
fn non_empty_or<'a>(text: &'a str, fallback: &'a str) -> &'a str {
    if text.is_empty() {
        fallback
    } else {
        text
    }
}

/// Renders the home page.
pub fn render(
    site: &Site,
    catalogue: &Catalogue,
    d: &HomeData,
    cards: &HashMap<i64, ProductCard>,
    now: i64,
) -> anyhow::Result<Page> {
    let views = |ids: &[i64]| -> Vec<CardView> {
        ids.iter()
            .filter_map(|id| cards.get(id))
            .take(STRIP)
            .map(CardView::from_card)
            .collect()
    };
    let main_banners: Vec<&Picture> = d.sliders.iter().filter(|s| s.kind == 0).collect();
    let banner = main_banners.first().map(|first| {
        let (w, h) = if first.width > 0 {
            (first.width, first.height)
        } else {
            (1200, 400)
        };
        let href = non_empty_or(&first.link, "/c/products");
        let cta = catalogue
            .categories
            .iter()
            .find(|c| href.strip_prefix("/c/") == Some(c.seo_url.as_str()))
            .map_or_else(|| "Shop now".to_string(), |c| format!("Shop {}", c.name));
        Banner {
            href,
            cta,
            src: image_url(&first.path, 800),
            srcset: srcset(
                &first.path,
                &[400, 800, 1200, 1600],
                first.width.max(0) as u32,
            ),
            width: w,
            height: h,
            alt: non_empty_or(&first.title, "Offers"),
        }
    });
    let more_banners = main_banners
        .iter()
        .skip(1)
        .map(|b| {
            (
                non_empty_or(&b.link, "/c/products"),
                non_empty_or(&b.title, "Offer"),
            )
        })
        .collect();
    let flash_cards: Vec<CardView> = d
        .flash
        .as_ref()
        .map(|(_, ids)| views(ids))
        .unwrap_or_default();
    let flash = d
        .flash
        .as_ref()
        .map(|(sale, _)| flash_strip(sale, &flash_cards, now, STRIP))
        .transpose()?
        .unwrap_or_default();
    let top_categories: Vec<(String, String)> = catalogue
        .categories
        .iter()
        .filter(|c| {
            c.parent.is_some()
                && catalogue
                    .category(c.parent.unwrap_or(0))
                    .is_some_and(|p| p.parent.is_none())
        })
        .map(|c| (c.name.clone(), format!("/c/{}", c.seo_url)))
        .collect();
    let post_tiles = |rows: &[ContentRow], base: &str| -> Vec<Tile> {
        rows.iter()
            .take(POSTS)
            .map(|p| {
                Tile::new(
                    format!("{base}/{}", p.slug),
                    &p.title,
                    &p.sub_title,
                    p.image.as_deref(),
                )
            })
            .collect()
    };
    let strips = vec![
        ("Top offers", "/page/top-offers", views(&d.top_offers)),
        ("Pre-booking", "/page/prebooking", views(&d.pre_bookings)),
        ("New arrivals", "/c/products", views(&d.new_arrivals)),
    ];
    let mut keys = vec![
        SurrogateKey::Home.to_string(),
        SurrogateKey::Sliders.to_string(),
        SurrogateKey::Posts.to_string(),
        SurrogateKey::Categories.to_string(),
    ];
    for (_, _, list) in &strips {
        keys.extend(list.iter().map(|c| SurrogateKey::Product(c.id).to_string()));
    }
    keys.extend(
        flash_cards
            .iter()
            .map(|c| SurrogateKey::Product(c.id).to_string()),
    );
    if d.flash.is_some() {
        keys.push(SurrogateKey::Flash.to_string());
    }
    keys.sort();
    keys.dedup();
    let main = HomeTemplate {
        company: &site.chrome.company,
        banner,
        more_banners,
        featured: d
            .sliders
            .iter()
            .filter(|s| s.kind == 1)
            .map(|s| {
                Tile::new(s.link.clone(), &s.title, "", Some(&s.path)).sized(s.width, s.height)
            })
            .collect(),
        top_categories,
        flash: &flash,
        strips,
        tiles: d
            .tag_gallery
            .iter()
            .filter(|t| t.kind == 0)
            .map(|t| {
                Tile::new(t.link.clone(), &t.title, "", Some(&t.path)).sized(t.width, t.height)
            })
            .collect(),
        news: post_tiles(&d.news, "/news-event"),
        blogs: post_tiles(&d.blogs, "/blogs"),
    }
    .render()?;
    let company = &site.chrome.company;
    let meta = Meta {
        title: site
            .chrome
            .settings
            .get("meta_title")
            .cloned()
            .unwrap_or_else(|| format!("{company} | Furniture online in Bangladesh")),
        description: site.chrome.settings.get("meta_description").cloned().unwrap_or_else(|| {
            format!("Shop beds, sofas, dining and office furniture from {company}. Prices in taka, cash on delivery, EMI and delivery across Bangladesh.")
        }),
        path: "/".into(),
        og_type: "website",
        image: main_banners.first().map(|b| b.path.clone()),
        noindex: false,
        json_ld: vec![json!({
            "@context": "https://schema.org",
            "@type": "WebSite",
            "name": company,
            "url": site.url("/"),
            "potentialAction": {
                "@type": "SearchAction",
                "target": format!("{}?keyword={{keyword}}", site.url("/c/products")),
                "query-input": "required name=keyword",
            },
        })],
    };
    site.page(&meta, &main, keys)
}
