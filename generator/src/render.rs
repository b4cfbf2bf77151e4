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
        // The advert opens over the shop's public pages, never over a
        // visitor's own (cart, checkout, payment, its failure, account: the
        // noindex pages), where it would cover the form or "Try again".
        if !meta.noindex {
            body_main.push_str(&self.chrome.advert);
        }
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
        let html = with_csp(html);
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

/// The policy every page states, but for its own inline scripts' hashes:
/// scripts from this origin only (the islands, the loader and the service
/// worker are `/assets/...` and `/sw.js`); styles from here and inline (the
/// critical CSS is inlined); images, calls and everything else from here;
/// the product video's player from YouTube's no-cookie host; no plugins; no
/// `<base>` elsewhere. `frame-ancestors` cannot sit in a `<meta>`: the
/// origin sends it as a header with the rest (`origin/src/plumbing/security.rs`).
const PAGE_POLICY: &str = "default-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data: blob:; frame-src https://www.youtube-nocookie.com; \
     object-src 'none'; base-uri 'self'";

/// Where [`with_csp`] states a page's policy.
const POLICY_META: &str = "<meta http-equiv=\"Content-Security-Policy\" content=\"";

/// The policy a page written by [`with_csp`] states, read from the start of
/// its HTML (the element comes right after the charset, within the first
/// kilobyte or so); `None` when it states none.
pub fn stated_policy(head: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(&head[..head.len().min(4096)])
        .or_else(|e| std::str::from_utf8(&head[..e.valid_up_to()]))
        .ok()?;
    let start = text.find(POLICY_META)? + POLICY_META.len();
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

/// `html` with its Content-Security-Policy as the first element after the
/// charset: [`PAGE_POLICY`] and `script-src 'self'` plus the SHA-256 of
/// every inline script the page runs (classic or module; JSON props and
/// JSON-LD are data and need none). No `'unsafe-inline'` for scripts, so an
/// injected script does not run. A page without the charset line (none is
/// made so) is left as it is.
pub(crate) fn with_csp(html: String) -> String {
    const CHARSET: &str = "<meta charset=\"utf-8\">";
    let Some(at) = html.find(CHARSET).map(|i| i + CHARSET.len()) else {
        return html;
    };
    let mut sources = String::from("'self'");
    for code in inline_scripts(&html) {
        sources.push_str(&format!(" 'sha256-{}'", base64_sha256(code.as_bytes())));
    }
    let meta = format!("\n{POLICY_META}{PAGE_POLICY}; script-src {sources}\">");
    let mut out = String::with_capacity(html.len() + meta.len());
    out.push_str(&html[..at]);
    out.push_str(&meta);
    out.push_str(&html[at..]);
    out
}

/// The text of every `<script>` without `src` whose type runs it (none,
/// `module` or a JavaScript MIME type).
fn inline_scripts(html: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        rest = &rest[start + "<script".len()..];
        let Some(end_tag) = rest.find('>') else { break };
        let attrs = &rest[..end_tag];
        rest = &rest[end_tag + 1..];
        let Some(close) = rest.find("</script>") else {
            break;
        };
        let code = &rest[..close];
        rest = &rest[close + "</script>".len()..];
        let kind = attrs
            .split("type=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .unwrap_or("");
        let runs = matches!(
            kind,
            "" | "module" | "text/javascript" | "application/javascript"
        );
        if runs && !attrs.contains("src=") && !code.is_empty() {
            found.push(code);
        }
    }
    found
}

/// SHA-256 of `bytes`, base64 (standard alphabet, padded) as CSP hashes are.
fn base64_sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(44);
    for chunk in digest.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod csp_tests {
    use super::*;

    #[test]
    fn inline_scripts_are_allowed_by_hash_and_data_blocks_are_not_hashed() {
        let page = "<!doctype html><html><head>\n<meta charset=\"utf-8\">\n\
            <script>document.documentElement.className=\"js\"</script>\
            <script type=\"application/ld+json\">{}</script></head><body>\
            <script type=\"application/json\" data-island-props>{\"a\":1}</script>\
            <script type=\"module\" src=\"/assets/loader-1.js\"></script>\
            <script type=\"module\">import(\"/assets/drawer-2.js\");</script></body></html>";
        let out = with_csp(page.to_string());
        let meta = out
            .split("<meta http-equiv=\"Content-Security-Policy\" content=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        // echo -n 'document.documentElement.className="js"' | openssl dgst -sha256 -binary | base64
        let js = base64_sha256(b"document.documentElement.className=\"js\"");
        let module = base64_sha256(b"import(\"/assets/drawer-2.js\");");
        assert_eq!(
            meta,
            format!("{PAGE_POLICY}; script-src 'self' 'sha256-{js}' 'sha256-{module}'")
        );
        assert!(
            !meta.contains("unsafe-inline'; script")
                && !meta.contains("script-src 'self' 'unsafe-inline")
        );
        // Before any script: the first thing after the charset.
        assert!(out.find("Content-Security-Policy").unwrap() < out.find("<script").unwrap());
    }

    #[test]
    fn hashes_are_base64_of_sha256() {
        // printf '' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            base64_sha256(b""),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
        // printf 'abc' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            base64_sha256(b"abc"),
            "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
        );
    }
}
