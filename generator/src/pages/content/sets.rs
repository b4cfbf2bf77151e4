//! Product sets, `/product-set/{slug}`: the set's price, its products with
//! their quantities and stock, fabrics and further information, and the
//! set's buy button (the buy-buttons island, which checks the stock again
//! and lets the shopper choose a fabric). A set one of whose items cannot be
//! supplied in the set's quantity says which, and offers no add.

use std::collections::HashMap;

use askama::Template;
use catalog::read::product::{SetFabric, SetItemStock};
use catalog::read::site::{ContentRow, Picture};
use catalog::read::ProductCard;
use catalog::surrogate::SurrogateKey;
use serde_json::json;

use super::{home, page, views, ContentData, Part};
use crate::format::{image_url, taka};
use crate::islands::island;
use crate::output::Page;
use crate::props::{BuyButtonsProps, SetBuyProps, SetFabricProps, SetItemProps};
use crate::render::Site;

/// A product of the set, as its table row shows it.
struct Item<'a> {
    href: String,
    title: &'a str,
    qty: i64,
    price: String,
    /// "In stock", "Out of stock", "Only 2 left", "Pre-booking"...
    stock: &'static str,
    /// Whether the set's quantity of it can be supplied.
    ok: bool,
}

/// A fabric with its swatch.
struct Swatch<'a> {
    id: i64,
    title: &'a str,
    image: Option<String>,
}

#[derive(Template)]
#[template(path = "content/set.html")]
struct SetTemplate<'a> {
    total: String,
    summary: &'a str,
    infos: Vec<&'a Picture>,
    /// The buy-buttons island, with its fallback.
    buy: String,
}

/// The buy-buttons island's fallback: the items with their stock, the
/// fabrics, and the set's state.
#[derive(Template)]
#[template(path = "content/set_buy.html")]
struct SetBuyTemplate<'a> {
    /// The set's id, sent by the no-script form to `/lite/cart/add`.
    set_id: i64,
    items: Vec<Item<'a>>,
    fabrics: Vec<Swatch<'a>>,
    /// The items that cannot be supplied, joined; empty when none.
    blocked: String,
}

/// How an item with `stock` units stands for a set that needs `per_set`:
/// its label and whether the set can have it.
fn stock_state(stock: Option<&SetItemStock>, per_set: i64) -> (&'static str, bool) {
    match stock {
        None => ("Not sold now", false),
        Some(s) if s.disable_buy => ("Not sold online", false),
        Some(s) if s.pre_booking => ("Pre-booking", true),
        Some(s) if s.stock <= 0 => ("Out of stock", false),
        Some(s) if s.stock < per_set => ("Too few in stock", false),
        Some(_) => ("In stock", true),
    }
}

/// A page per product set.
pub(super) fn pages(
    site: &Site,
    d: &ContentData,
    cards: &HashMap<i64, ProductCard>,
    index: &mut dyn FnMut(String, i64),
) -> anyhow::Result<Vec<Page>> {
    let mut out = Vec::new();
    for s in &d.sets {
        let path = format!("/product-set/{}", s.slug);
        out.push(set(site, d, cards, s, path.clone())?);
        index(path, s.updated_at);
    }
    Ok(out)
}

/// One set.
fn set(
    site: &Site,
    d: &ContentData,
    cards: &HashMap<i64, ProductCard>,
    s: &ContentRow,
    path: String,
) -> anyhow::Result<Page> {
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
    let stock_of = |id: i64| d.set_stock.iter().find(|x| x.product_id == id);
    let rows: Vec<(&ProductCard, i64, &'static str, bool)> = items
        .iter()
        .filter_map(|(id, qty)| {
            cards.get(id).map(|c| {
                let (label, ok) = stock_state(stock_of(*id), *qty);
                (c, *qty, label, ok)
            })
        })
        .collect();
    let fabrics: Vec<&SetFabric> = d
        .fabrics
        .iter()
        .filter(|f| f.product_set_id == s.id)
        .collect();
    let blocked = rows
        .iter()
        .filter(|r| !r.3)
        .map(|r| r.0.title.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let in_stock = blocked.is_empty() && !rows.is_empty();
    let fallback = SetBuyTemplate {
        set_id: s.id,
        items: rows
            .iter()
            .map(|(c, qty, stock, ok)| Item {
                href: format!("/product/{}", c.seo_url),
                title: &c.title,
                qty: *qty,
                price: taka(c.product_price_now),
                stock,
                ok: *ok,
            })
            .collect(),
        fabrics: fabrics
            .iter()
            .map(|f| Swatch {
                id: f.id,
                title: &f.title,
                image: (!f.path.is_empty()).then(|| image_url(&f.path, 80)),
            })
            .collect(),
        blocked,
    }
    .render()?;
    let props = SetBuyProps {
        set_id: s.id,
        slug: &s.slug,
        items: rows
            .iter()
            .map(|(c, qty, _, _)| {
                let st = stock_of(c.id);
                SetItemProps {
                    id: c.id,
                    title: &c.title,
                    seo_url: &c.seo_url,
                    qty: st.map_or(0, |x| x.stock),
                    price_now: c.product_price_now,
                    stock_status: match st {
                        Some(x) if x.pre_booking => "pre_booking",
                        Some(x) if x.stock > 0 => "in_stock",
                        _ => "out_of_stock",
                    },
                    product_set_qty: *qty,
                    disable_buy: st.is_none_or(|x| x.disable_buy),
                }
            })
            .collect(),
        fabrics: fabrics
            .iter()
            .map(|f| SetFabricProps {
                id: f.id,
                title: &f.title,
                image_url: (!f.path.is_empty()).then_some(f.path.as_str()),
            })
            .collect(),
    };
    let extra = SetTemplate {
        total: taka(total),
        summary: &s.summary,
        infos: d.set_infos.iter().filter(|f| f.owner_id == s.id).collect(),
        buy: island(
            "buy-buttons",
            "visible",
            Some(&BuyButtonsProps::Set(props)),
            &fallback,
        ),
    }
    .render()?;
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
        "offers": {"@type": "Offer", "priceCurrency": "BDT", "price": total.to_string(), "url": site.url(&path), "availability": if in_stock { "https://schema.org/InStock" } else { "https://schema.org/OutOfStock" }},
    });
    let trail = vec![
        home(),
        ("Bundle offers".into(), "/page/bundle-offers".into()),
        (s.title.clone(), path.clone()),
    ];
    let mut part = Part::new(path, trail, &s.title).with_row(s);
    part.extra = extra;
    part.cards = views(cards, &items.iter().map(|x| x.0).collect::<Vec<_>>());
    part.og_type = "product";
    part.extra_ld = vec![offer];
    part.keys = keys;
    page(site, part)
}
