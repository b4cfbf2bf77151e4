//! Product pages, `/product/{seo_url}`: title, sub-title, code, price now and
//! before, the first image as the largest paint, thumbnails, video and 360
//! entry points, attributes, variations, the EMI summary, related lists, the
//! first questions and comments, the reviews summary with the newest
//! published reviews, breadcrumbs, and JSON-LD (Product with an Offer in
//! BDT, its AggregateRating and Reviews; BreadcrumbList).

use catalog::db;
use std::collections::HashMap;

use askama::Template;
use catalog::read::site::{
    reviewer_name, AttributeRow, EmiRow, GalleryImage, MediaRow, ProductRow, ReviewRow,
    ReviewSummary, TalkRow, VariationRow,
};
use catalog::read::ProductCard;
use catalog::surrogate::SurrogateKey;
use serde_json::json;

use crate::cards::CardView;
use crate::catalogue::Catalogue;
use crate::format::{image_url, plain_text, srcset, taka, SRCSET_WIDTHS};
use crate::islands::{early_buy_button, island};
use crate::output::Page;
use crate::props::{
    BuyButtonsProps, FlashCountdownProps, ProductBuyProps, ProductGalleryProps,
    ProductQuestionsProps,
};
use crate::render::{Meta, Site, Trail};

/// Questions and comments shown on the page (the rest through the API).
pub const FIRST_TALK: i64 = 5;
/// Thumbnails in the fallback gallery.
pub const THUMBS: usize = 6;
/// Published reviews shown on the page (the rest through the API).
pub const FIRST_REVIEWS: i64 = 5;
/// A review on the page is cut to this many characters (the page's size
/// budget; the whole text is in `single-product-review`).
pub const REVIEW_SHOWN_CHARS: usize = 300;

/// Everything one product page shows.
#[derive(Debug, Clone)]
pub struct ProductData {
    pub row: ProductRow,
    pub images: Vec<GalleryImage>,
    pub media: MediaRow,
    pub attributes: Vec<AttributeRow>,
    pub variations: Vec<VariationRow>,
    pub emi: Vec<EmiRow>,
    pub questions: Vec<TalkRow>,
    pub comments: Vec<TalkRow>,
    pub reviews: ReviewSummary,
    /// The newest published reviews, at most [`FIRST_REVIEWS`].
    pub latest_reviews: Vec<ReviewRow>,
    pub related: Vec<(&'static str, Vec<CardView>)>,
    pub trail: Trail,
    /// Category ids on the trail, for surrogate keys.
    pub categories: Vec<i64>,
    /// The running flash sales, when one lowers the price.
    pub flash: Option<RunningSales>,
}

/// The running flash sales a product is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningSales {
    /// The earliest end among them (unix seconds): the page's countdown.
    pub ends: i64,
    /// Their ids (their `flash_schedule:{id}` keys: editing one purges the page).
    pub sales: Vec<i64>,
}

/// The lowest monthly instalment over the EMI offers, by the rule the
/// product API's plans are priced by ([`catalog::pricing::emi_per_month`]).
pub fn emi_monthly(price: i64, offers: &[EmiRow]) -> Option<i64> {
    offers
        .iter()
        .map(|o| catalog::pricing::emi_per_month(price, o.months, o.interest_bp))
        .min()
}

/// The product page's EMI offer: the lowest monthly amount and each bank's
/// plan, shown only where the product offers EMI at its price now
/// ([`catalog::pricing::emi_offered`]: a flash price below the minimum hides it).
struct EmiView {
    from: String,
    /// (bank, months, per month)
    plans: Vec<(String, i64, String)>,
}

fn emi_view(emi_available: bool, price: i64, offers: &[EmiRow]) -> Option<EmiView> {
    if !catalog::pricing::emi_offered(emi_available, price) {
        return None;
    }
    let from = emi_monthly(price, offers)?;
    let plans = offers
        .iter()
        .map(|o| {
            let per = catalog::pricing::emi_per_month(price, o.months, o.interest_bp);
            (o.bank.clone(), o.months, taka(per))
        })
        .collect();
    Some(EmiView {
        from: taka(from),
        plans,
    })
}

/// Titled lists of related product ids.
type Related = Vec<(&'static str, Vec<i64>)>;

/// Loads the pages of `ids` in a few batch queries.
pub async fn load(
    pool: &catalog::db::Pool,
    catalogue: &Catalogue,
    ids: &[i64],
    now: i64,
) -> anyhow::Result<Vec<ProductData>> {
    use catalog::read::site as q;
    // Independent queries, run at once on the pool's connections.
    let (rows, mut images, mut media, mut attributes, mut variations) = tokio::try_join!(
        q::products(pool, ids, now),
        q::gallery_images(pool, ids),
        q::media(pool, ids),
        q::attributes(pool, ids),
        q::variations(pool, ids),
    )?;
    let (mut emi, mut questions, mut comments, mut reviews, mut latest_reviews, mut flash) = tokio::try_join!(
        q::emi_offers(pool, ids),
        q::questions(pool, ids, FIRST_TALK),
        q::comments(pool, ids, FIRST_TALK),
        q::review_summaries(pool, ids),
        q::latest_reviews(pool, ids, FIRST_REVIEWS),
        running_sales(pool, ids, now),
    )?;
    // The cards of every related product of the batch, 500 ids a query
    // (crate::build::card_map): the card query binds each id as a parameter
    // of its own ($1, $2, ...), and SQLite finds a named parameter by a
    // linear search of the statement's names, both when it parses the
    // statement and when sqlx binds each argument, so one query's cost grows
    // with the square of its ids. A 2,000-page batch of the 100,000-product
    // demo shop has about 10,000 related products (each product's nearest
    // prices in its category are mostly its own): in one statement the card
    // query and its images query took up to 1.4 s each, and the build waited
    // 19-41 s on the database; in chunks of 500, 0.5-2.4 s (docs/MEASURED.md).
    let related: Vec<(i64, Related)> = ids.iter().map(|id| (*id, catalogue.related(*id))).collect();
    let mut all: Vec<i64> = related
        .iter()
        .flat_map(|(_, lists)| lists.iter().flat_map(|(_, l)| l.iter().copied()))
        .collect();
    all.sort_unstable();
    all.dedup();
    let cards: HashMap<i64, ProductCard> = crate::build::card_map(pool, &all, now).await?;
    let mut related: HashMap<i64, Related> = related.into_iter().collect();
    Ok(rows
        .into_iter()
        .map(|row| {
            let id = row.id;
            let (trail, categories) = trail(catalogue, row.category_id, &row.title, &row.seo_url);
            ProductData {
                images: images.remove(&id).unwrap_or_default(),
                media: media
                    .remove(&id)
                    .and_then(|m| m.into_iter().next())
                    .unwrap_or_default(),
                attributes: attributes.remove(&id).unwrap_or_default(),
                variations: variations.remove(&id).unwrap_or_default(),
                emi: emi.remove(&id).unwrap_or_default(),
                questions: questions.remove(&id).unwrap_or_default(),
                comments: comments.remove(&id).unwrap_or_default(),
                reviews: reviews
                    .remove(&id)
                    .and_then(|r| r.into_iter().next())
                    .unwrap_or_default(),
                latest_reviews: latest_reviews.remove(&id).unwrap_or_default(),
                related: related
                    .remove(&id)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(title, ids)| {
                        (
                            title,
                            ids.iter()
                                .filter_map(|i| cards.get(i))
                                .map(CardView::from_card)
                                .collect(),
                        )
                    })
                    .collect(),
                flash: flash
                    .remove(&id)
                    .filter(|_| row.effective_price < row.price_now),
                trail,
                categories,
                row,
            }
        })
        .collect())
}

/// The running flash sales of each product in one.
async fn running_sales(
    pool: &catalog::db::Pool,
    ids: &[i64],
    now: i64,
) -> Result<HashMap<i64, RunningSales>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    let rows: Vec<(i64, i64, i64)> = db::query_as(&format!(
        "SELECT fi.product_id, fs.id, fs.ends_at FROM flash_item fi JOIN flash_schedule fs ON fs.id = fi.schedule_id \
         WHERE fs.is_active AND fs.starts_at <= {now} AND fs.ends_at > {now} AND fi.product_id IN ({list}) \
         ORDER BY fi.product_id, fs.id"
    ))
    .fetch_all(pool)
    .await?;
    let mut out: HashMap<i64, RunningSales> = HashMap::new();
    for (product, sale, ends) in rows {
        let entry = out.entry(product).or_insert(RunningSales {
            ends,
            sales: Vec::new(),
        });
        entry.ends = entry.ends.min(ends);
        entry.sales.push(sale);
    }
    Ok(out)
}

/// The breadcrumb trail of a product: home, its category chain, itself.
fn trail(
    catalogue: &Catalogue,
    category: Option<i64>,
    title: &str,
    slug: &str,
) -> (Trail, Vec<i64>) {
    let mut trail = vec![("Home".to_string(), "/".to_string())];
    let mut ids = Vec::new();
    if let Some(c) = category {
        for node in catalogue.ancestry(c) {
            trail.push((node.name.clone(), format!("/c/{}", node.seo_url)));
            ids.push(node.id);
        }
    }
    trail.push((title.to_string(), format!("/product/{slug}")));
    (trail, ids)
}

#[derive(Template)]
#[template(path = "product.html")]
struct ProductTemplate<'a> {
    p: &'a ProductRow,
    crumbs: &'a str,
    gallery: &'a str,
    price: String,
    before: Option<String>,
    emi: Option<EmiView>,
    flash: &'a str,
    buy: &'a str,
    /// (label, code, price)
    variations: Vec<(String, String, String)>,
    attributes: Vec<(&'a str, String)>,
    reviews: &'a str,
    talk: &'a str,
    related: &'a [(&'static str, Vec<CardView>)],
}

/// The fallback of the buy-buttons island.
#[derive(Template)]
#[template(path = "product/buy.html")]
struct BuyTemplate<'a> {
    disable_buy: bool,
    /// The early Add to cart button (see [`early_buy_button`]).
    early: String,
    /// The no-script way to order.
    chat: &'a str,
    /// The product, for the no-script Add to cart form (the basic cart).
    product_id: i64,
    /// That form's button.
    label: &'a str,
}

/// The fallback of the flash-countdown island.
#[derive(Template)]
#[template(path = "product/flash.html")]
struct FlashTemplate {
    until: String,
}

/// The gallery's first image.
struct Lead {
    src: String,
    srcset: String,
    width: i64,
    height: i64,
}

/// A thumbnail linking to its full image.
struct Thumb {
    full: String,
    src: String,
}

/// The fallback of the product-gallery island.
#[derive(Template)]
#[template(path = "product/gallery.html")]
struct GalleryTemplate<'a> {
    title: &'a str,
    lead: Option<Lead>,
    thumbs: Vec<Thumb>,
    video: Option<&'a str>,
    /// The video's poster as a thumbnail URL, when it has one.
    poster: Option<String>,
    /// The product id, when it has a 360-degree view.
    view_360: Option<i64>,
}

/// A published review as the page shows it.
struct ShownReview {
    stars: u8,
    /// The reviewer's first name ([`reviewer_name`]).
    name: String,
    /// `2026-10-01`.
    date: String,
    /// `1 Oct 2026`.
    when: String,
    text: String,
}

/// The reviews section: count, average and the newest reviews.
#[derive(Template)]
#[template(path = "product/reviews.html")]
struct ReviewsTemplate<'a> {
    id: i64,
    count: i64,
    average: &'a str,
    latest: &'a [ShownReview],
}

/// The fallback of the product-questions island.
#[derive(Template)]
#[template(path = "product/talk.html")]
struct TalkTemplate<'a> {
    questions: &'a [TalkRow],
    comments: &'a [TalkRow],
    enable_comment: bool,
}

/// Renders one product page.
pub fn render(site: &Site, d: &ProductData) -> anyhow::Result<Page> {
    let p = &d.row;
    let path = format!("/product/{}", p.seo_url);
    let (crumbs, crumbs_ld) = site.breadcrumbs(&d.trail)?;
    let gallery = gallery(d)?;
    let in_stock = p.stock > 0;
    let buy = island(
        "buy-buttons",
        "visible",
        Some(&BuyButtonsProps::Product(ProductBuyProps {
            id: p.id,
            code: &p.product_code,
            title: &p.title,
            price: p.effective_price,
            in_stock,
            pre_booking: p.pre_booking,
            disable_buy: p.disable_buy,
            variation_id: None,
            category: None,
        })),
        // Without script the form adds to the basic cart (`/lite/cart`,
        // its token in a cookie) and ordering by chat or phone stays; with
        // script the Add to cart button works before React has arrived.
        &{
            let (button, chat) = if p.pre_booking {
                ("Pre-book now", "Pre-book by chat or phone")
            } else {
                ("Add to cart", "Order by chat or phone")
            };
            BuyTemplate {
                disable_buy: p.disable_buy,
                early: early_buy_button(button),
                chat,
                product_id: p.id,
                label: button,
            }
            .render()?
        },
    );
    let flash = match d.flash.as_ref().map(|f| f.ends) {
        Some(ends) => island(
            "flash-countdown",
            "visible",
            Some(&FlashCountdownProps {
                starts_at: None,
                ends_at: ends,
                offset_ms: None,
            }),
            &FlashTemplate {
                until: catalog::clock::in_dhaka(ends)
                    .format("%-d %b %Y, %H:%M")
                    .to_string(),
            }
            .render()?,
        ),
        None => String::new(),
    };
    let talk = talk(p, &d.questions, &d.comments)?;
    let attributes: Vec<(&str, String)> = {
        let mut out: Vec<(&str, String)> = Vec::new();
        for a in &d.attributes {
            match out.iter_mut().find(|(k, _)| *k == a.field_label) {
                Some((_, v)) => {
                    v.push_str(", ");
                    v.push_str(&a.value);
                }
                None => out.push((&a.field_label, a.value.clone())),
            }
        }
        out
    };
    let average = one_decimal(d.reviews.average_x100);
    let latest = shown_reviews(&d.latest_reviews);
    let reviews = ReviewsTemplate {
        id: p.id,
        count: d.reviews.count,
        average: &average,
        latest: &latest,
    }
    .render()?;
    let main = ProductTemplate {
        p,
        crumbs: &crumbs,
        gallery: &gallery,
        price: taka(p.effective_price),
        before: (p.price_before > p.effective_price).then(|| taka(p.price_before)),
        emi: emi_view(p.emi_available, p.effective_price, &d.emi),
        flash: &flash,
        buy: &buy,
        variations: d
            .variations
            .iter()
            .map(|v| {
                (
                    format!("{}: {}", v.attribute, v.value),
                    v.product_code.clone(),
                    taka(v.price_now),
                )
            })
            .collect(),
        attributes,
        reviews: &reviews,
        talk: &talk,
        related: &d.related,
    }
    .render()?;

    let description = p
        .seo_description
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| {
            let source = if p.short_description.is_empty() {
                &p.description
            } else {
                &p.short_description
            };
            let text = plain_text(source, 150);
            if text.is_empty() {
                format!(
                    "{} {} – {} at {}",
                    p.title,
                    p.sub_title,
                    taka(p.effective_price),
                    site.chrome.company
                )
            } else {
                text
            }
        });
    let availability = if p.pre_booking {
        "https://schema.org/PreOrder"
    } else if in_stock {
        "https://schema.org/InStock"
    } else {
        "https://schema.org/OutOfStock"
    };
    let mut product_ld = json!({
        "@context": "https://schema.org",
        "@type": "Product",
        "name": p.title,
        "sku": p.sku,
        "mpn": p.product_code,
        "description": description,
        "brand": {"@type": "Brand", "name": site.chrome.company},
        "image": d.images.iter().take(3).map(|i| site.url(&image_url(&i.full_size_directory, 1200))).collect::<Vec<_>>(),
        "offers": {
            "@type": "Offer",
            "url": site.url(&path),
            "priceCurrency": "BDT",
            "price": p.effective_price.to_string(),
            "availability": availability,
            "itemCondition": "https://schema.org/NewCondition",
        },
    });
    if d.reviews.count > 0 {
        product_ld["aggregateRating"] = json!({
            "@type": "AggregateRating",
            "ratingValue": average,
            "reviewCount": d.reviews.count,
        });
        product_ld["review"] = latest
            .iter()
            .map(|r| {
                json!({
                    "@type": "Review",
                    "author": {"@type": "Person", "name": r.name},
                    "reviewRating": {
                        "@type": "Rating",
                        "ratingValue": r.stars,
                        "bestRating": 5,
                        "worstRating": 1,
                    },
                    "reviewBody": r.text,
                    "datePublished": r.date,
                })
            })
            .collect();
    }
    let title = p
        .seo_title
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("{} | {}", p.title, site.chrome.company));
    let meta = Meta {
        title,
        description,
        path,
        og_type: "product",
        image: d.images.first().map(|i| i.full_size_directory.clone()),
        noindex: false,
        json_ld: vec![product_ld, crumbs_ld],
    };
    let mut keys = vec![SurrogateKey::Product(p.id).to_string()];
    keys.extend(
        d.categories
            .iter()
            .map(|c| SurrogateKey::Category(*c).to_string()),
    );
    for (_, cards) in &d.related {
        keys.extend(
            cards
                .iter()
                .map(|c| SurrogateKey::Product(c.id).to_string()),
        );
    }
    // The sale it is in, not `flash` (every sale): the page changes at its
    // own products' price changes, which their keys already say
    // (catalog::pricing::next_change_for), not at another sale's.
    keys.extend(
        d.flash
            .iter()
            .flat_map(|f| &f.sales)
            .map(|id| SurrogateKey::FlashSchedule(*id).to_string()),
    );
    keys.sort();
    keys.dedup();
    site.page(&meta, &main, keys)
}

/// The gallery island: the first image (the largest paint: eager, high
/// priority, a srcset by the width rule), thumbnails linking to the full
/// images, and links to the video and the 360-degree view.
fn gallery(d: &ProductData) -> anyhow::Result<String> {
    let p = &d.row;
    let lead = d.images.first().map(|first| {
        let (w, h) = if first.width > 0 && first.height > 0 {
            (first.width, first.height)
        } else {
            (800, 800)
        };
        Lead {
            src: image_url(&first.full_size_directory, 800),
            srcset: srcset(
                &first.full_size_directory,
                &SRCSET_WIDTHS,
                first.width.max(0) as u32,
            ),
            width: w,
            height: h,
        }
    });
    let thumbs = if d.images.len() > 1 {
        d.images
            .iter()
            .take(THUMBS)
            .map(|img| Thumb {
                full: image_url(&img.full_size_directory, 1200),
                src: image_url(&img.full_size_directory, 100),
            })
            .collect()
    } else {
        Vec::new()
    };
    let html = GalleryTemplate {
        title: &p.title,
        lead,
        thumbs,
        video: d.media.video_url.as_deref(),
        poster: d
            .media
            .video_url
            .as_ref()
            .and(d.media.video_poster.as_deref())
            .map(|poster| image_url(poster, 100)),
        view_360: (d.media.frames_360 > 0).then_some(p.id),
    }
    .render()?;
    let props = ProductGalleryProps {
        id: p.id,
        images: d
            .images
            .iter()
            .map(|i| i.full_size_directory.as_str())
            .collect(),
        video: d.media.video_url.as_deref(),
        poster: d
            .media
            .video_url
            .as_ref()
            .and(d.media.video_poster.as_deref()),
        frames_360: d.media.frames_360,
        seo_url: None,
        title: None,
        zoom: None,
    };
    Ok(island("product-gallery", "visible", Some(&props), &html))
}

/// The newest reviews as shown: first names, Dhaka dates, texts cut to
/// [`REVIEW_SHOWN_CHARS`].
fn shown_reviews(rows: &[ReviewRow]) -> Vec<ShownReview> {
    rows.iter()
        .map(|r| {
            let day = catalog::clock::in_dhaka(r.created_at);
            ShownReview {
                stars: r.rating.clamp(1, 5) as u8,
                name: reviewer_name(&r.user_name),
                date: day.format("%Y-%m-%d").to_string(),
                when: day.format("%-d %b %Y").to_string(),
                text: shorten(r.comment.trim(), REVIEW_SHOWN_CHARS),
            }
        })
        .collect()
}

/// An average ×100 with one decimal, half up (425 is `4.3`), as the
/// API's `average_rating` rounds it.
fn one_decimal(x100: i64) -> String {
    let tenths = (x100.max(0) + 5) / 10;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// `text` cut at a word to at most `max` characters, with "…" when cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    let cut = match cut.rfind(char::is_whitespace) {
        Some(at) if cut[..at].chars().count() >= max / 2 => cut[..at].trim_end().to_string(),
        _ => cut,
    };
    format!("{cut}…")
}

/// The first questions and comments, with the forms' island.
fn talk(p: &ProductRow, questions: &[TalkRow], comments: &[TalkRow]) -> anyhow::Result<String> {
    let html = TalkTemplate {
        questions,
        comments,
        enable_comment: p.enable_comment,
    }
    .render()?;
    Ok(island(
        "product-questions",
        "visible",
        Some(&ProductQuestionsProps {
            product_id: p.id,
            enable_comment: p.enable_comment,
            seo_url: None,
        }),
        &html,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_round_half_up_and_reviews_are_cut_at_a_word() {
        assert_eq!(one_decimal(425), "4.3");
        assert_eq!(one_decimal(424), "4.2");
        assert_eq!(one_decimal(500), "5.0");
        assert_eq!(one_decimal(0), "0.0");
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten("one two three four", 12), "one two…");
        assert_eq!(shorten("abcdefghijklmnop", 6), "abcde…");
        assert_eq!(shorten("ঘরটি খুব সুন্দর হয়েছে", 8), "ঘরটি…");
    }

    #[test]
    fn emi_is_the_lowest_monthly_instalment_rounded_up() {
        let offer = |months, interest_bp| EmiRow {
            product_id: 1,
            bank: "B".into(),
            months,
            interest_bp,
        };
        assert_eq!(
            emi_monthly(12_000, &[offer(3, 0), offer(12, 0)]),
            Some(1000)
        );
        // 9% a year over 12 months: 12,000 + 1,080 = 13,080 / 12 = 1,090.
        assert_eq!(emi_monthly(12_000, &[offer(12, 900)]), Some(1090));
        assert_eq!(emi_monthly(1000, &[offer(3, 0)]), Some(334));
        assert_eq!(emi_monthly(1000, &[]), None);
        // Regression: the page rounded 20,070 × 1.09 = 21,876.3 down to whole
        // taka before dividing, and showed 1,823 where the API said 1,824.
        assert_eq!(emi_monthly(20_070, &[offer(12, 900)]), Some(1824));
    }

    #[test]
    fn emi_is_shown_with_every_plan_only_from_the_minimum_price() {
        let offer = |months, interest_bp| EmiRow {
            product_id: 1,
            bank: "City Bank".into(),
            months,
            interest_bp,
        };
        let offers = [offer(3, 0), offer(12, 900)];
        let v = emi_view(true, 24_000, &offers).unwrap();
        assert_eq!(v.from, taka(2_180));
        assert_eq!(v.plans.len(), 2);
        assert_eq!(v.plans[0].1, 3);
        assert_eq!(v.plans[0].2, taka(8_000));
        // A flash price below the minimum, a product not marked, no plans.
        assert!(emi_view(true, 19_999, &offers).is_none());
        assert!(emi_view(false, 24_000, &offers).is_none());
        assert!(emi_view(true, 24_000, &[]).is_none());
    }
}
