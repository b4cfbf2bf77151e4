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

/// A showroom or chat-to-buy point as its page lists it.
struct Point<'a> {
    row: &'a ShowroomRow,
    /// The phone as a `tel:` link holds it.
    tel: String,
    /// OpenStreetMap at the showroom (no embedded map, no script), when its
    /// coordinates are known.
    map: Option<String>,
    /// `https://wa.me/<digits>?text=…` for a mobile number (chat to buy).
    whatsapp: Option<String>,
}

#[derive(Template)]
#[template(path = "content/showrooms.html")]
struct ShowroomsTemplate<'a> {
    points: Vec<Point<'a>>,
    /// The chat-to-buy page (WhatsApp and Messenger links) rather than showrooms.
    chat: bool,
    /// `https://m.me/<page>?text=…` from the shop's Facebook page, if any.
    messenger: Option<String>,
}

#[derive(Template)]
#[template(path = "content/contact.html")]
struct ContactTemplate<'a> {
    address: &'a str,
    phone: &'a str,
    phone_tel: String,
    email: &'a str,
    /// The contact form island around its plain-form fallback.
    form: String,
}

/// The message a chat link starts with.
const CHAT_TEXT: &str = "Hello, I would like to buy furniture from your shop.";

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
                extra: showroom_table(site, d, "Showroom")?,
                ..Shown::new("Showrooms", SurrogateKey::Showrooms)
            },
            "chatbuy" => Shown {
                extra: showroom_table(site, d, "Chatbuy")?,
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

/// The showrooms of one kind (`Showroom`, `Chatbuy`) as a list: hours, a
/// `tel:` link, and a map link (showrooms) or WhatsApp and Messenger links
/// with a message to start from (chat to buy).
fn showroom_table(site: &Site, d: &ContentData, kind: &str) -> anyhow::Result<String> {
    let chat = kind == "Chatbuy";
    let text = percent_encode(CHAT_TEXT);
    let points = d
        .showrooms
        .iter()
        .filter(|s| s.shop_type == kind)
        .map(|row| Point {
            row,
            tel: crate::chrome::tel(&row.phone),
            map: match (row.latitude, row.longitude) {
                (Some(lat), Some(lon)) if !chat => Some(format!(
                    "https://www.openstreetmap.org/?mlat={lat:.5}&mlon={lon:.5}#map=17/{lat:.5}/{lon:.5}"
                )),
                _ => None,
            },
            whatsapp: whatsapp_digits(&row.phone)
                .filter(|_| chat)
                .map(|n| format!("https://wa.me/{n}?text={text}")),
        })
        .collect();
    let facebook = site.chrome.settings.get("social_facebook");
    let messenger = facebook
        .and_then(|url| facebook_page(url))
        .filter(|_| chat)
        .map(|page| format!("https://m.me/{page}?text={text}"));
    Ok(ShowroomsTemplate {
        points,
        chat,
        messenger,
    }
    .render()?)
}

/// A Bangladeshi mobile number (`01XXXXXXXXX`, optionally after `+88`) as
/// wa.me takes it: `8801XXXXXXXXX`. `None` for other numbers (a hotline).
fn whatsapp_digits(phone: &str) -> Option<String> {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    let local = digits.strip_prefix("88").unwrap_or(&digits);
    let mobile =
        local.len() == 11 && local.starts_with("01") && matches!(local.as_bytes()[2], b'3'..=b'9');
    mobile.then(|| format!("88{local}"))
}

/// The page name of a Facebook page URL (`https://www.facebook.com/<page>`).
fn facebook_page(url: &str) -> Option<&str> {
    let rest = url
        .trim()
        .strip_prefix("https://")
        .or_else(|| url.trim().strip_prefix("http://"))?;
    let path = rest
        .strip_prefix("www.facebook.com/")
        .or_else(|| rest.strip_prefix("facebook.com/"))
        .or_else(|| rest.strip_prefix("m.facebook.com/"))?;
    let page = path.split(['/', '?', '#']).next()?;
    let ok = !page.is_empty()
        && page.len() <= 100
        && page
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_');
    ok.then_some(page)
}

/// `text` percent-encoded for a query value (unreserved characters kept).
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The shop's address, phone and email from its settings, and the contact form.
fn contact(site: &Site) -> anyhow::Result<String> {
    let setting = |name: &str| site.chrome.settings.get(name).map_or("", String::as_str);
    let phone = setting("com_phone");
    let email = setting("com_email");
    let fallback = ContactFormTemplate {
        phone,
        phone_tel: crate::chrome::tel(phone),
        email,
    }
    .render()?;
    Ok(ContactTemplate {
        address: setting("com_address"),
        phone,
        phone_tel: crate::chrome::tel(phone),
        email,
        form: crate::islands::island(
            "contact-form",
            "visible",
            Some(&crate::props::ContactFormProps {}),
            &fallback,
        ),
    }
    .render()?)
}

/// The contact form without JavaScript: a plain POST the API answers with a
/// 303 back to `#sent` or `#not-sent`.
#[derive(Template)]
#[template(path = "content/contact_form.html")]
struct ContactFormTemplate<'a> {
    phone: &'a str,
    phone_tel: String,
    email: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_links_take_mobiles_and_facebook_pages() {
        assert_eq!(
            whatsapp_digits("01922000000").as_deref(),
            Some("8801922000000")
        );
        assert_eq!(
            whatsapp_digits("+880 1712-345678").as_deref(),
            Some("8801712345678")
        );
        assert_eq!(whatsapp_digits("09612345678"), None);
        assert_eq!(
            facebook_page("https://www.facebook.com/regalfurniturebd"),
            Some("regalfurniturebd")
        );
        assert_eq!(facebook_page("https://www.facebook.com/"), None);
        assert_eq!(facebook_page("https://example.com/x"), None);
        assert_eq!(percent_encode("Hi, you?"), "Hi%2C%20you%3F");
    }
}
