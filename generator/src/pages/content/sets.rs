//! Product sets, `/product-set/{slug}`: the set's price, its products with
//! their quantities, fabrics and further information, and the set's buy
//! button (the buy-buttons island).

use std::collections::HashMap;

use askama::Template;
use catalog::read::site::{ContentRow, Picture};
use catalog::read::ProductCard;
use catalog::surrogate::SurrogateKey;
use serde_json::json;

use super::{home, page, views, ContentData, Part};
use crate::format::taka;
use crate::islands::island;
use crate::output::Page;
use crate::props::{BuyButtonsProps, SetBuyProps};
use crate::render::Site;

/// A product of the set, as its table row shows it.
struct Item<'a> {
    href: String,
    title: &'a str,
    qty: i64,
    price: String,
}

#[derive(Template)]
#[template(path = "content/set.html")]
struct SetTemplate<'a> {
    total: String,
    summary: &'a str,
    items: Vec<Item<'a>>,
    fabrics: Vec<&'a Picture>,
    infos: Vec<&'a Picture>,
    /// The buy-buttons island, with its fallback.
    buy: String,
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
    let extra = SetTemplate {
        total: taka(total),
        summary: &s.summary,
        items: items
            .iter()
            .filter_map(|(id, qty)| {
                cards.get(id).map(|c| Item {
                    href: format!("/product/{}", c.seo_url),
                    title: &c.title,
                    qty: *qty,
                    price: taka(c.product_price_now),
                })
            })
            .collect(),
        fabrics: d.fabrics.iter().filter(|f| f.owner_id == s.id).collect(),
        infos: d.set_infos.iter().filter(|f| f.owner_id == s.id).collect(),
        buy: island(
            "buy-buttons",
            "visible",
            Some(&BuyButtonsProps::Set(SetBuyProps {
                set_id: s.id,
                slug: &s.slug,
            })),
            "<p><a class=\"btn\" href=\"/cart\">View cart</a></p>",
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
        "offers": {"@type": "Offer", "priceCurrency": "BDT", "price": total.to_string(), "url": site.url(&path), "availability": "https://schema.org/InStock"},
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
