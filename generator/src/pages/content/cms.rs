//! CMS pages, `/page/{slug}`: staff-written pages (about us, policies, FAQ),
//! except those whose slug the shop's own pages or the track-order shell use.

use catalog::read::site::ContentRow;
use catalog::surrogate::SurrogateKey;

use super::{home, page, Part, SHOP_PAGES};
use crate::output::Page;
use crate::render::Site;

/// A page per CMS row.
pub(super) fn pages(
    site: &Site,
    rows: &[ContentRow],
    index: &mut dyn FnMut(String, i64),
) -> anyhow::Result<Vec<Page>> {
    let mut out = Vec::new();
    for p in rows
        .iter()
        .filter(|p| !SHOP_PAGES.contains(&p.slug.as_str()) && p.slug != "track-order")
    {
        let path = format!("/page/{}", p.slug);
        let trail = vec![home(), (p.title.clone(), path.clone())];
        let mut part = Part::new(path.clone(), trail, &p.title).with_row(p);
        part.keys = vec![SurrogateKey::Page(p.id).to_string()];
        out.push(page(site, part)?);
        index(path, p.updated_at);
    }
    Ok(out)
}
