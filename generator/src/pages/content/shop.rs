//! The shop's own pages under `/page/`: flash sale, top offers, bundle
//! offers, pre-booking, showrooms, contact and chat-to-buy. A CMS page with
//! one of these slugs yields to them.

use std::collections::HashMap;

use askama::Template;
use catalog::read::site::ShowroomRow;
use catalog::read::ProductCard;
use catalog::surrogate::SurrogateKey;

use super::{home, page, views, ContentData, Part};
use crate::cards::Tile;
use crate::output::Page;
use crate::render::Site;

/// The shop's own pages under `/page/` (a CMS page with the same slug yields).
pub const SHOP_PAGES: [&str; 7] = [
    "flash-sale",
    "top-offers",
    "bundle-offers",
    "prebooking",
    "showrooms",
    "contact",
    "chatbuy",
];

/// What one of the shop's pages shows besides its frame.
struct Shown {
    title: &'static str,
    extra: String,
    /// Products shown as cards.
    ids: Vec<i64>,
    tiles: Vec<Tile>,
    keys: Vec<String>,
}

impl Shown {
    fn new(title: &'static str, key: SurrogateKey) -> Shown {
        Shown {
            title,
            extra: String::new(),
            ids: Vec::new(),
            tiles: Vec::new(),
            keys: vec![key.to_string()],
        }
    }
}

#[derive(Template)]
#[template(path = "content/showrooms.html")]
struct ShowroomsTemplate<'a> {
    showrooms: Vec<&'a ShowroomRow>,
}

#[derive(Template)]
#[template(path = "content/contact.html")]
struct ContactTemplate<'a> {
    address: &'a str,
    phone: &'a str,
    email: &'a str,
}

/// Each of [`SHOP_PAGES`].
pub(super) fn pages(
    site: &Site,
    d: &ContentData,
    cards: &HashMap<i64, ProductCard>,
    now: i64,
    index: &mut dyn FnMut(String, i64),
) -> anyhow::Result<Vec<Page>> {
    let mut out = Vec::new();
    for slug in SHOP_PAGES {
        let shown = match slug {
            "flash-sale" => flash_sale(d, cards, now)?,
            "top-offers" => Shown {
                ids: d.top_offers.clone(),
                ..Shown::new("Top offers", SurrogateKey::Products)
            },
            "prebooking" => Shown {
                extra: "<p>Reserve now with a part payment; the rest on delivery.</p>".into(),
                ids: d.pre_bookings.clone(),
                ..Shown::new("Pre-booking", SurrogateKey::Products)
            },
            "bundle-offers" => bundle_offers(d),
            "showrooms" => Shown {
                extra: showroom_table(d, "Showroom")?,
                ..Shown::new("Showrooms", SurrogateKey::Showrooms)
            },
            "chatbuy" => Shown {
                extra: showroom_table(d, "Chatbuy")?,
                ..Shown::new("Chat to buy", SurrogateKey::Showrooms)
            },
            _ => Shown {
                extra: contact(site)?,
                ..Shown::new("Contact us", SurrogateKey::Setting)
            },
        };
        let path = format!("/page/{slug}");
        out.push(shop_page(site, d, cards, slug, shown, path.clone())?);
        index(path, 0);
    }
    Ok(out)
}

/// Renders one of the shop's pages.
fn shop_page(
    site: &Site,
    d: &ContentData,
    cards: &HashMap<i64, ProductCard>,
    slug: &str,
    shown: Shown,
    path: String,
) -> anyhow::Result<Page> {
    let title = shown.title;
    let list = views(cards, &shown.ids);
    let mut keys = shown.keys;
    keys.extend(list.iter().map(|c| SurrogateKey::Product(c.id).to_string()));
    if slug == "flash-sale" {
        if let Some((_, ids)) = &d.flash {
            keys.extend(ids.iter().map(|id| SurrogateKey::Product(*id).to_string()));
        }
    }
    let mut part = Part::new(path.clone(), vec![home(), (title.into(), path)], title);
    part.extra = shown.extra;
    part.cards = list;
    part.tiles = shown.tiles;
    part.description = format!("{title} at {}.", site.chrome.company);
    part.keys = keys;
    page(site, part)
}

/// `/page/flash-sale`: the running or next sale's strip, or a note that
/// there is none.
fn flash_sale(
    d: &ContentData,
    cards: &HashMap<i64, ProductCard>,
    now: i64,
) -> anyhow::Result<Shown> {
    let extra = match &d.flash {
        Some((sale, ids)) => {
            let list = views(cards, ids);
            crate::pages::home::flash_strip(sale, &list, now, list.len())?
        }
        None => "<p>Nothing Founds</p>".into(),
    };
    Ok(Shown {
        extra,
        ..Shown::new("Flash sale", SurrogateKey::Flash)
    })
}

/// `/page/bundle-offers`: a tile per product set.
fn bundle_offers(d: &ContentData) -> Shown {
    Shown {
        tiles: d
            .sets
            .iter()
            .map(|s| {
                Tile::new(
                    format!("/product-set/{}", s.slug),
                    &s.title,
                    &s.sub_title,
                    s.image.as_deref(),
                )
            })
            .collect(),
        ..Shown::new("Bundle offers", SurrogateKey::ProductSets)
    }
}

/// The showrooms of one kind (`Showroom`, `Chatbuy`) as a table.
fn showroom_table(d: &ContentData, kind: &str) -> anyhow::Result<String> {
    let showrooms = d.showrooms.iter().filter(|s| s.shop_type == kind).collect();
    Ok(ShowroomsTemplate { showrooms }.render()?)
}

/// The shop's address, phone and email from its settings.
fn contact(site: &Site) -> anyhow::Result<String> {
    let setting = |name: &str| site.chrome.settings.get(name).map_or("", String::as_str);
    Ok(ContactTemplate {
        address: setting("com_address"),
        phone: setting("com_phone"),
        email: setting("com_email"),
    }
    .render()?)
}
