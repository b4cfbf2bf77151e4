//! Interior galleries: `/gallery`, a tile per interior, and
//! `/gallery/{slug}`, an interior's pictures in the product-gallery island.

use askama::Template;
use catalog::read::site::{ContentRow, Picture};
use catalog::surrogate::SurrogateKey;

use super::{home, newest, page, Part};
use crate::cards::{Tile, TILE_WIDTHS};
use crate::format::{image_url, srcset};
use crate::islands::island;
use crate::output::Page;
use crate::render::Site;

/// One picture of an interior.
struct Shot<'a> {
    /// The large picture the thumbnail links to.
    full: String,
    src: String,
    srcset: String,
    alt: &'a str,
    caption: &'a str,
}

#[derive(Template)]
#[template(path = "content/gallery.html")]
struct GalleryTemplate<'a> {
    pictures: Vec<Shot<'a>>,
}

/// The list page and a page per interior.
pub(super) fn pages(
    site: &Site,
    interiors: &[ContentRow],
    images: &[Picture],
    index: &mut dyn FnMut(String, i64),
) -> anyhow::Result<Vec<Page>> {
    let mut out = vec![list(site, interiors)?];
    index("/gallery".into(), newest(interiors));
    for i in interiors {
        let path = format!("/gallery/{}", i.slug);
        out.push(interior(site, i, images, path.clone())?);
        index(path, i.updated_at);
    }
    Ok(out)
}

/// `/gallery`: a tile per interior.
fn list(site: &Site, interiors: &[ContentRow]) -> anyhow::Result<Page> {
    let mut part = Part::new(
        "/gallery".into(),
        vec![home(), ("Interiors".into(), "/gallery".into())],
        "Interiors",
    );
    part.tiles = interiors
        .iter()
        .map(|i| {
            Tile::new(
                format!("/gallery/{}", i.slug),
                &i.title,
                &i.sub_title,
                i.image.as_deref(),
            )
        })
        .collect();
    part.description = format!("Interior ideas from {}.", site.chrome.company);
    part.keys = vec![SurrogateKey::Interiors.to_string()];
    page(site, part)
}

/// One interior with its pictures.
fn interior(site: &Site, i: &ContentRow, images: &[Picture], path: String) -> anyhow::Result<Page> {
    let pictures = images
        .iter()
        .filter(|x| x.owner_id == i.id)
        .map(|img| Shot {
            full: image_url(&img.path, 1200),
            src: image_url(&img.path, 400),
            srcset: srcset(&img.path, &TILE_WIDTHS, 0),
            alt: if img.title.is_empty() {
                &i.title
            } else {
                &img.title
            },
            caption: &img.link,
        })
        .collect();
    let fallback = GalleryTemplate { pictures }.render()?;
    let trail = vec![
        home(),
        ("Interiors".into(), "/gallery".into()),
        (i.title.clone(), path.clone()),
    ];
    let mut part = Part::new(path, trail, &i.title).with_row(i);
    part.extra = island("product-gallery", "visible", None, &fallback);
    part.keys = vec![
        SurrogateKey::Interior(i.id).to_string(),
        SurrogateKey::Interiors.to_string(),
    ];
    page(site, part)
}
