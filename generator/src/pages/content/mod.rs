//! Content pages: `/blogs` and `/news-event` with their posts (Article
//! JSON-LD), `/gallery` with the interior galleries, CMS pages
//! `/page/{slug}`, product sets `/product-set/{slug}`, and the shop's own
//! `/page/...` pages (flash sale, top offers, bundle offers, pre-booking,
//! showrooms, contact, chat-to-buy).

use std::collections::HashMap;

use askama::Template;
use catalog::read::site::{ContentRow, FlashSale, Picture, ShowroomRow};
use catalog::read::ProductCard;
use catalog::surrogate::SurrogateKey;
use serde_json::json;

use crate::cards::{CardView, Tile};
use crate::format::{escape, image_url, plain_text, srcset, taka, SRCSET_WIDTHS};
use crate::output::Page;
use crate::props::{BuyButtonsProps, SetBuyProps};
use crate::render::{Meta, Site, Trail};

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
    pub fabrics: Vec<Picture>,
    pub set_infos: Vec<Picture>,
    pub showrooms: Vec<ShowroomRow>,
    pub flash: Option<(FlashSale, Vec<i64>)>,
    pub top_offers: Vec<i64>,
    pub pre_bookings: Vec<i64>,
}

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

#[derive(Template)]
#[template(path = "content.html")]
struct ContentTemplate<'a> {
    crumbs: &'a str,
    title: &'a str,
    sub_title: &'a str,
    byline: &'a str,
    hero: &'a str,
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
    image: Option<(&'a str, i64, i64)>,
    body: &'a str,
    extra: String,
    cards: Vec<CardView>,
    tiles: Vec<Tile>,
    description: String,
    og_type: &'static str,
    extra_ld: Vec<serde_json::Value>,
    keys: Vec<String>,
}

fn page(site: &Site, p: Part<'_>) -> anyhow::Result<Page> {
    let (crumbs, crumbs_ld) = site.breadcrumbs(&p.trail);
    let hero = match p.image {
        Some((path, w, h)) => {
            let (w, h) = if w > 0 { (w, h) } else { (1200, 800) };
            format!(
                "<img src=\"{}\" srcset=\"{}\" sizes=\"(min-width:1200px) 1200px, 100vw\" width=\"{w}\" height=\"{h}\" alt=\"{}\" fetchpriority=\"high\">",
                image_url(path, 800),
                srcset(path, &SRCSET_WIDTHS, w as u32),
                escape(p.title)
            )
        }
        None => String::new(),
    };
    let main = ContentTemplate {
        crumbs: &crumbs,
        title: p.title,
        sub_title: p.sub_title,
        byline: &p.byline,
        hero: &hero,
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

fn home() -> (String, String) {
    ("Home".into(), "/".into())
}

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

fn date(unix: i64) -> String {
    catalog::clock::in_dhaka(unix)
        .format("%-d %B %Y")
        .to_string()
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
    let mut out = Vec::new();
    let views = |ids: &[i64]| -> Vec<CardView> {
        ids.iter()
            .filter_map(|id| cards.get(id))
            .map(CardView::from_card)
            .collect()
    };
    // Blogs and news.
    for (rows, base, label) in [
        (&d.blogs, "/blogs", "Blogs"),
        (&d.news, "/news-event", "News & events"),
    ] {
        let tiles: Vec<Tile> = rows
            .iter()
            .map(|p| {
                Tile::new(
                    format!("{base}/{}", p.slug),
                    &p.title,
                    &date(p.published_at),
                    p.image.as_deref(),
                )
            })
            .collect();
        out.push(page(
            site,
            Part {
                path: base.into(),
                trail: vec![home(), (label.into(), base.into())],
                title: label,
                sub_title: "",
                byline: String::new(),
                image: None,
                body: "",
                extra: String::new(),
                cards: Vec::new(),
                tiles,
                description: format!("{label} from {}.", site.chrome.company),
                og_type: "website",
                extra_ld: Vec::new(),
                keys: vec![SurrogateKey::Posts.to_string()],
            },
        )?);
        index(
            base.into(),
            rows.iter().map(|r| r.updated_at).max().unwrap_or(0),
        );
        for p in rows.iter() {
            let path = format!("{base}/{}", p.slug);
            let article = json!({
                "@context": "https://schema.org",
                "@type": "Article",
                "headline": p.title,
                "datePublished": catalog::clock::in_dhaka(p.published_at).to_rfc3339(),
                "dateModified": catalog::clock::in_dhaka(p.updated_at.max(p.published_at)).to_rfc3339(),
                "author": {"@type": if p.author.is_empty() { "Organization" } else { "Person" }, "name": if p.author.is_empty() { site.chrome.company.as_str() } else { p.author.as_str() }},
                "publisher": {"@type": "Organization", "name": site.chrome.company},
                "image": p.image.as_ref().map(|i| site.url(&image_url(i, 1200))),
                "mainEntityOfPage": site.url(&path),
            });
            out.push(page(
                site,
                Part {
                    path: path.clone(),
                    trail: vec![
                        home(),
                        (label.into(), base.into()),
                        (p.title.clone(), path.clone()),
                    ],
                    title: &p.title,
                    sub_title: &p.sub_title,
                    byline: if p.author.is_empty() {
                        date(p.published_at)
                    } else {
                        format!("{} · {}", date(p.published_at), p.author)
                    },
                    image: p
                        .image
                        .as_deref()
                        .map(|i| (i, p.image_width, p.image_height)),
                    body: &p.body,
                    extra: String::new(),
                    cards: Vec::new(),
                    tiles: Vec::new(),
                    description: describe(p, &p.title),
                    og_type: "article",
                    extra_ld: vec![article],
                    keys: vec![
                        SurrogateKey::Post(p.id).to_string(),
                        SurrogateKey::Posts.to_string(),
                    ],
                },
            )?);
            index(path, p.updated_at);
        }
    }
    // Interior galleries.
    out.push(page(
        site,
        Part {
            path: "/gallery".into(),
            trail: vec![home(), ("Interiors".into(), "/gallery".into())],
            title: "Interiors",
            sub_title: "",
            byline: String::new(),
            image: None,
            body: "",
            extra: String::new(),
            cards: Vec::new(),
            tiles: d
                .interiors
                .iter()
                .map(|i| {
                    Tile::new(
                        format!("/gallery/{}", i.slug),
                        &i.title,
                        &i.sub_title,
                        i.image.as_deref(),
                    )
                })
                .collect(),
            description: format!("Interior ideas from {}.", site.chrome.company),
            og_type: "website",
            extra_ld: Vec::new(),
            keys: vec![SurrogateKey::Interiors.to_string()],
        },
    )?);
    index(
        "/gallery".into(),
        d.interiors.iter().map(|r| r.updated_at).max().unwrap_or(0),
    );
    for i in &d.interiors {
        let path = format!("/gallery/{}", i.slug);
        let mut extra = String::from("<ul class=\"g\">");
        for img in d.interior_images.iter().filter(|x| x.owner_id == i.id) {
            extra.push_str(&format!(
                "<li class=\"card\"><a href=\"{}\"><img src=\"{}\" srcset=\"{}\" sizes=\"(min-width:576px) 25vw, 50vw\" width=\"400\" height=\"300\" alt=\"{}\" loading=\"lazy\"></a>{}</li>",
                image_url(&img.path, 1200),
                image_url(&img.path, 400),
                srcset(&img.path, &crate::cards::TILE_WIDTHS, 0),
                escape(if img.title.is_empty() { &i.title } else { &img.title }),
                if img.link.is_empty() { String::new() } else { format!("<p>{}</p>", escape(&img.link)) }
            ));
        }
        extra.push_str("</ul>");
        let extra = crate::islands::island("product-gallery", "visible", None, &extra);
        out.push(page(
            site,
            Part {
                path: path.clone(),
                trail: vec![
                    home(),
                    ("Interiors".into(), "/gallery".into()),
                    (i.title.clone(), path.clone()),
                ],
                title: &i.title,
                sub_title: &i.sub_title,
                byline: String::new(),
                image: i
                    .image
                    .as_deref()
                    .map(|p| (p, i.image_width, i.image_height)),
                body: &i.body,
                extra,
                cards: Vec::new(),
                tiles: Vec::new(),
                description: describe(i, &i.title),
                og_type: "website",
                extra_ld: Vec::new(),
                keys: vec![
                    SurrogateKey::Interior(i.id).to_string(),
                    SurrogateKey::Interiors.to_string(),
                ],
            },
        )?);
        index(path, i.updated_at);
    }
    // Product sets.
    for s in &d.sets {
        let path = format!("/product-set/{}", s.slug);
        let items: Vec<(i64, i64)> = d
            .set_items
            .iter()
            .filter(|x| x.0 == s.id)
            .map(|x| (x.1, x.2))
            .collect();
        let total: i64 = items
            .iter()
            .filter_map(|(id, qty)| cards.get(id).map(|c| c.product_price_now * qty))
            .sum();
        let mut extra = format!("<p class=\"pr\">{}</p>", taka(total));
        if !s.summary.is_empty() {
            extra.push_str(&format!("<p class=\"muted\">{}</p>", escape(&s.summary)));
        }
        extra.push_str("<h2>In this set</h2><table>");
        for (id, qty) in &items {
            if let Some(c) = cards.get(id) {
                extra.push_str(&format!(
                    "<tr><td><a href=\"/product/{}\">{}</a></td><td>× {qty}</td><td>{}</td></tr>",
                    escape(&c.seo_url),
                    escape(&c.title),
                    taka(c.product_price_now)
                ));
            }
        }
        extra.push_str("</table>");
        let fabrics: Vec<&Picture> = d.fabrics.iter().filter(|f| f.owner_id == s.id).collect();
        if !fabrics.is_empty() {
            extra.push_str("<h2>Fabrics</h2><ul class=\"chips\">");
            for f in fabrics {
                extra.push_str(&format!(
                    "<li><a href=\"#fabric\">{}</a></li>",
                    escape(&f.title)
                ));
            }
            extra.push_str("</ul>");
        }
        let infos: Vec<&Picture> = d.set_infos.iter().filter(|f| f.owner_id == s.id).collect();
        if !infos.is_empty() {
            extra.push_str("<h2>Additional info</h2>");
            for info in infos {
                extra.push_str(&format!(
                    "<h3>{}</h3><div>{}</div>",
                    escape(&info.title),
                    info.link
                ));
            }
        }
        extra.push_str(&crate::islands::island(
            "buy-buttons",
            "visible",
            Some(&BuyButtonsProps::Set(SetBuyProps {
                set_id: s.id,
                slug: &s.slug,
            })),
            "<p><a class=\"btn\" href=\"/cart\">View cart</a></p>",
        ));
        let set_cards = views(&items.iter().map(|x| x.0).collect::<Vec<_>>());
        let mut keys = vec![
            SurrogateKey::ProductSet(s.id).to_string(),
            SurrogateKey::ProductSets.to_string(),
        ];
        keys.extend(
            items
                .iter()
                .map(|(id, _)| SurrogateKey::Product(*id).to_string()),
        );
        let offer = json!({
            "@context": "https://schema.org", "@type": "Product", "name": s.title,
            "offers": {"@type": "Offer", "priceCurrency": "BDT", "price": total.to_string(), "url": site.url(&path), "availability": "https://schema.org/InStock"},
        });
        out.push(page(
            site,
            Part {
                path: path.clone(),
                trail: vec![
                    home(),
                    ("Bundle offers".into(), "/page/bundle-offers".into()),
                    (s.title.clone(), path.clone()),
                ],
                title: &s.title,
                sub_title: &s.sub_title,
                byline: String::new(),
                image: s
                    .image
                    .as_deref()
                    .map(|p| (p, s.image_width, s.image_height)),
                body: &s.body,
                extra,
                cards: set_cards,
                tiles: Vec::new(),
                description: describe(s, &s.title),
                og_type: "product",
                extra_ld: vec![offer],
                keys,
            },
        )?);
        index(path, s.updated_at);
    }
    // CMS pages.
    for p in d
        .pages
        .iter()
        .filter(|p| !SHOP_PAGES.contains(&p.slug.as_str()) && p.slug != "track-order")
    {
        let path = format!("/page/{}", p.slug);
        out.push(page(
            site,
            Part {
                path: path.clone(),
                trail: vec![home(), (p.title.clone(), path.clone())],
                title: &p.title,
                sub_title: &p.sub_title,
                byline: String::new(),
                image: p
                    .image
                    .as_deref()
                    .map(|i| (i, p.image_width, p.image_height)),
                body: &p.body,
                extra: String::new(),
                cards: Vec::new(),
                tiles: Vec::new(),
                description: describe(p, &p.title),
                og_type: "website",
                extra_ld: Vec::new(),
                keys: vec![SurrogateKey::Page(p.id).to_string()],
            },
        )?);
        index(path, p.updated_at);
    }
    // The shop's own pages.
    let showroom_table = |kind: &str| -> String {
        let mut html =
            String::from("<table><tr><th>Showroom</th><th>Address</th><th>Phone</th></tr>");
        for s in d.showrooms.iter().filter(|s| s.shop_type == kind) {
            html.push_str(&format!(
                "<tr><td>{}<br><span class=\"muted\">{}</span></td><td>{}</td><td>{}</td></tr>",
                escape(&s.title),
                escape(&s.district),
                escape(&s.address),
                escape(&s.phone)
            ));
        }
        html.push_str("</table>");
        html
    };
    let settings = &site.chrome.settings;
    let contact = format!(
        "<p>{}</p><p>Phone: {}</p><p>Email: {}</p>",
        escape(settings.get("com_address").map_or("", String::as_str)),
        escape(settings.get("com_phone").map_or("", String::as_str)),
        escape(settings.get("com_email").map_or("", String::as_str)),
    );
    for slug in SHOP_PAGES {
        let path = format!("/page/{slug}");
        let (title, extra, ids, tiles, mut keys): (&str, String, Vec<i64>, Vec<Tile>, Vec<String>) =
            match slug {
                "flash-sale" => match &d.flash {
                    Some((sale, ids)) => {
                        let list = views(ids);
                        (
                            "Flash sale",
                            crate::pages::home::flash_strip(sale, &list, now, list.len()),
                            Vec::new(),
                            Vec::new(),
                            vec![SurrogateKey::Flash.to_string()],
                        )
                    }
                    None => (
                        "Flash sale",
                        "<p>Nothing Founds</p>".into(),
                        Vec::new(),
                        Vec::new(),
                        vec![SurrogateKey::Flash.to_string()],
                    ),
                },
                "top-offers" => (
                    "Top offers",
                    String::new(),
                    d.top_offers.clone(),
                    Vec::new(),
                    vec![SurrogateKey::Products.to_string()],
                ),
                "prebooking" => (
                    "Pre-booking",
                    "<p>Reserve now with a part payment; the rest on delivery.</p>".into(),
                    d.pre_bookings.clone(),
                    Vec::new(),
                    vec![SurrogateKey::Products.to_string()],
                ),
                "bundle-offers" => (
                    "Bundle offers",
                    String::new(),
                    Vec::new(),
                    d.sets
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
                    vec![SurrogateKey::ProductSets.to_string()],
                ),
                "showrooms" => (
                    "Showrooms",
                    showroom_table("Showroom"),
                    Vec::new(),
                    Vec::new(),
                    vec![SurrogateKey::Showrooms.to_string()],
                ),
                "chatbuy" => (
                    "Chat to buy",
                    showroom_table("Chatbuy"),
                    Vec::new(),
                    Vec::new(),
                    vec![SurrogateKey::Showrooms.to_string()],
                ),
                _ => (
                    "Contact us",
                    contact.clone(),
                    Vec::new(),
                    Vec::new(),
                    vec![SurrogateKey::Setting.to_string()],
                ),
            };
        let list = views(&ids);
        keys.extend(list.iter().map(|c| SurrogateKey::Product(c.id).to_string()));
        if slug == "flash-sale" {
            if let Some((_, ids)) = &d.flash {
                keys.extend(ids.iter().map(|id| SurrogateKey::Product(*id).to_string()));
            }
        }
        out.push(page(
            site,
            Part {
                path: path.clone(),
                trail: vec![home(), (title.into(), path.clone())],
                title,
                sub_title: "",
                byline: String::new(),
                image: None,
                body: "",
                extra,
                cards: list,
                tiles,
                description: format!("{title} at {}.", site.chrome.company),
                og_type: "website",
                extra_ld: Vec::new(),
                keys,
            },
        )?);
        index(path, 0);
    }
    Ok(out)
}
