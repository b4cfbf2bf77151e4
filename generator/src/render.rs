//! The page frame: head (title, description, canonical, Open Graph, JSON-LD,
//! the inlined critical CSS), the shared chrome, the page's main content and
//! the script tags its islands need. Every page type renders its `<main>`
//! content with its own template and hands it to [`Site::page`].

use askama::Template;
use catalog::surrogate::SurrogateKey;
use serde_json::{json, Value};

use crate::chrome::Chrome;
use crate::format::script_json;
use crate::islands::Assets;
use crate::output::Page;

/// The critical CSS, inlined in every page (small enough that a separate,
/// cached file would cost a round trip more than it saves on a first visit).
pub const CSS: &str = include_str!("../templates/site.css");

/// What a page says about itself to browsers and crawlers.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    pub title: String,
    pub description: String,
    /// The page's own path (`/product/sofa`); made absolute for canonical and og:url.
    pub path: String,
    /// Open Graph type: `website`, `product` or `article`.
    pub og_type: &'static str,
    /// A stored image path (`storage/...`) for og:image.
    pub image: Option<String>,
    /// Per-visitor shells and error pages are not for search engines.
    pub noindex: bool,
    /// schema.org objects, each written as one JSON-LD element.
    pub json_ld: Vec<Value>,
}

/// Everything a page needs that is the same for the whole build.
#[derive(Debug, Clone)]
pub struct Site {
    /// The public origin, e.g. `https://shop.example`, without a trailing slash.
    pub base_url: String,
    pub chrome: Chrome,
    pub assets: Assets,
}

struct MetaView<'a> {
    title: &'a str,
    description: &'a str,
    canonical: String,
    og_type: &'a str,
    image: Option<String>,
    noindex: bool,
}

#[derive(Template)]
#[template(path = "layout.html")]
struct LayoutTemplate<'a> {
    meta: MetaView<'a>,
    chrome: &'a Chrome,
    css: &'a str,
    /// Each schema.org object as JSON safe inside a script element.
    json_ld: Vec<String>,
    main: &'a str,
    scripts: &'a str,
}

/// The breadcrumb trail; the last crumb is the page itself.
#[derive(Template)]
#[template(path = "crumbs.html")]
struct CrumbsTemplate<'a> {
    trail: &'a Trail,
}

/// A breadcrumb trail: (label, path) from the home page down.
pub type Trail = Vec<(String, String)>;

impl Site {
    /// What pages repeat byte for byte: the stylesheet, the header, the
    /// footer and the inline scripts (see `output::SharedParts`).
    pub fn shared_parts(&self) -> Vec<String> {
        let mut parts = vec![
            CSS.to_string(),
            self.chrome.header.clone(),
            self.chrome.footer.clone(),
        ];
        parts.extend(self.assets.inline_elements());
        parts
    }

    /// An absolute URL of a site path.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    /// Wraps `main` in the frame and returns the page with its surrogate keys
    /// (every page also carries `menu` and `setting`: the chrome is on it).
    pub fn page(&self, meta: &Meta, main: &str, mut keys: Vec<String>) -> anyhow::Result<Page> {
        let mut body_main = String::with_capacity(main.len() + self.chrome.advert.len());
        body_main.push_str(main);
        body_main.push_str(&self.chrome.advert);
        // Islands in the chrome count too, so scan the header as well.
        let mut scan = String::with_capacity(self.chrome.header.len() + body_main.len());
        scan.push_str(&self.chrome.header);
        scan.push_str(&body_main);
        let scripts = self.assets.scripts_for(&scan);
        let html = LayoutTemplate {
            meta: MetaView {
                title: &meta.title,
                description: &meta.description,
                canonical: self.url(&meta.path),
                og_type: if meta.og_type.is_empty() {
                    "website"
                } else {
                    meta.og_type
                },
                image: meta
                    .image
                    .as_ref()
                    .map(|p| self.url(&crate::format::image_url(p, 1200))),
                noindex: meta.noindex,
            },
            chrome: &self.chrome,
            css: CSS,
            json_ld: meta.json_ld.iter().map(script_json).collect(),
            main: &body_main,
            scripts: &scripts,
        }
        .render()?;
        for k in [SurrogateKey::Menu, SurrogateKey::Setting] {
            let k = k.to_string();
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        Ok(Page {
            path: meta.path.clone(),
            body: html.into_bytes(),
            keys,
        })
    }

    /// The breadcrumb markup and its BreadcrumbList JSON-LD.
    pub fn breadcrumbs(&self, trail: &Trail) -> anyhow::Result<(String, Value)> {
        let html = CrumbsTemplate { trail }.render()?;
        let items: Vec<Value> = trail
            .iter()
            .enumerate()
            .map(|(i, (label, path))| {
                json!({"@type": "ListItem", "position": i + 1, "name": label, "item": self.url(path)})
            })
            .collect();
        let ld = json!({
            "@context": "https://schema.org",
            "@type": "BreadcrumbList",
            "itemListElement": items,
        });
        Ok((html, ld))
    }
}
