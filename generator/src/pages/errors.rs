//! The error pages: not-found (SPEC.md §2's texts, exactly) and server error.
//! The origin serves `/404.html` with status 404 for every unknown path, and
//! `/500.html` when it fails. And `/offline`, which the service worker
//! (web/src/sw) keeps and shows for a page it cannot fetch nor has kept.

use askama::Template;
use catalog::surrogate::SurrogateKey;

use crate::output::Page;
use crate::render::{Meta, Site};

/// Path of the not-found page in the site directory.
pub const NOT_FOUND_PATH: &str = "/404.html";
/// Path of the server-error page in the site directory.
pub const SERVER_ERROR_PATH: &str = "/500.html";
/// Path of the offline page (web/src/sw/policy.ts `OFFLINE_URL`).
pub const OFFLINE_PATH: &str = "/offline";

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorTemplate<'a> {
    not_found: bool,
    offline: bool,
    links: &'a [(String, String)],
}

/// The not-found, server-error and offline pages. The helpful links of the
/// first two are the top menu's (the "links below").
pub fn pages(site: &Site, links: &[(String, String)]) -> anyhow::Result<Vec<Page>> {
    let mut out = Vec::new();
    for (path, not_found, offline, title) in [
        (NOT_FOUND_PATH, true, false, "This page could not be found"),
        (SERVER_ERROR_PATH, false, false, "Unexpected error"),
        (OFFLINE_PATH, false, true, "You are offline"),
    ] {
        let main = ErrorTemplate {
            not_found,
            offline,
            links,
        }
        .render()?;
        let meta = Meta {
            title: format!("{title} | {}", site.chrome.company),
            path: path.to_string(),
            noindex: true,
            ..Meta::default()
        };
        out.push(site.page(&meta, &main, vec![SurrogateKey::Errors.to_string()])?);
    }
    Ok(out)
}
