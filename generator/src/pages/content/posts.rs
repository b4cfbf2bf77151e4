//! Posts: `/blogs` and `/news-event`, each a list of tiles and one page per
//! post with its Article JSON-LD.

use catalog::read::site::ContentRow;
use catalog::surrogate::SurrogateKey;
use serde_json::json;

use super::{date, home, newest, page, Part};
use crate::cards::Tile;
use crate::format::image_url;
use crate::output::Page;
use crate::render::Site;

/// A kind of post: where its list lives and what it is called.
pub(super) struct Kind {
    base: &'static str,
    label: &'static str,
}

/// The blog, `/blogs`.
pub(super) const BLOGS: Kind = Kind {
    base: "/blogs",
    label: "Blogs",
};

/// News and events, `/news-event`.
pub(super) const NEWS: Kind = Kind {
    base: "/news-event",
    label: "News & events",
};

/// The list page of `kind` and a page per post of `rows`.
pub(super) fn pages(
    site: &Site,
    kind: &Kind,
    rows: &[ContentRow],
    index: &mut dyn FnMut(String, i64),
) -> anyhow::Result<Vec<Page>> {
    let mut out = vec![list(site, kind, rows)?];
    index(kind.base.into(), newest(rows));
    for row in rows {
        let path = format!("{}/{}", kind.base, row.slug);
        out.push(post(site, kind, row, path.clone())?);
        index(path, row.updated_at);
    }
    Ok(out)
}

/// The list: a tile per post.
fn list(site: &Site, kind: &Kind, rows: &[ContentRow]) -> anyhow::Result<Page> {
    let (base, label) = (kind.base, kind.label);
    let mut part = Part::new(
        base.into(),
        vec![home(), (label.into(), base.into())],
        label,
    );
    part.tiles = rows
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
    part.description = format!("{label} from {}.", site.chrome.company);
    part.keys = vec![SurrogateKey::Posts.to_string()];
    page(site, part)
}

/// One post, `{base}/{slug}`.
fn post(site: &Site, kind: &Kind, p: &ContentRow, path: String) -> anyhow::Result<Page> {
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
    let trail = vec![
        home(),
        (kind.label.into(), kind.base.into()),
        (p.title.clone(), path.clone()),
    ];
    let mut part = Part::new(path, trail, &p.title).with_row(p);
    part.byline = if p.author.is_empty() {
        date(p.published_at)
    } else {
        format!("{} · {}", date(p.published_at), p.author)
    };
    part.og_type = "article";
    part.extra_ld = vec![article];
    part.keys = vec![
        SurrogateKey::Post(p.id).to_string(),
        SurrogateKey::Posts.to_string(),
    ];
    page(site, part)
}
