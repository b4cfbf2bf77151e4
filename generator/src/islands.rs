//! Islands: the interactive parts of a page, marked as web/ISLANDS.md says
//! (`<div data-island="name" data-when="...">` holding a working fallback,
//! its props as escaped JSON in the next sibling), and the script tags a page
//! needs, read from Vite's manifest. Also the web build's files in the site:
//! its hashed scripts and styles under `/assets/`, and its service worker at
//! `/sw.js`.
//!
//! The loader (about 1.5 KB of brotli) is written into the page itself: it
//! needs no round trip of its own (on a 2G link 0.8–3 s on the way to a
//! working "Add to cart"). Islands that load at once also get `modulepreload` links for
//! every chunk they import (transitively) and `preload` links (low priority)
//! for their stylesheets. Other islands' chunks are not named in the HTML:
//! fetched with the page, React's 58 KB would share the link with the largest
//! image and push the largest paint past its budget (measured with
//! Lighthouse's 2G simulation: 4.6 s without, 6.5 s with).

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use askama::Template;
use catalog::surrogate::SurrogateKey;
use serde::Deserialize;

use crate::output::{write_page, Compression, Page, SharedParts};
use crate::props::IslandProps;

#[derive(Template)]
#[template(path = "islands/island.html")]
struct IslandTemplate<'a> {
    name: &'a str,
    when: &'a str,
    fallback: &'a str,
    /// The props as JSON safe inside a script element.
    props: Option<String>,
}

#[derive(Template)]
#[template(path = "islands/early_buy.html")]
struct EarlyBuyTemplate<'a> {
    label: &'a str,
}

/// A script element: inline `code`, or `src`.
#[derive(Template)]
#[template(path = "islands/script.html")]
struct ScriptTemplate<'a> {
    module: bool,
    src: Option<&'a str>,
    code: Option<&'a str>,
}

/// The tags [`Assets::scripts_for`] puts at the end of a page.
#[derive(Template)]
#[template(path = "islands/scripts.html")]
struct ScriptsTemplate<'a> {
    /// Chunks (`.js`) and stylesheets (`.css`) to fetch ahead.
    preload: Vec<&'a str>,
    early_buy: Option<String>,
    loader: String,
}

/// Renders a template whose fields are strings, numbers and flags. That
/// cannot fail: only a field's failing `Display` could make it.
fn fill(template: &impl Template) -> String {
    template
        .render()
        .expect("a template of strings and numbers renders")
}

/// An island element with its fallback markup and, when given, its props
/// (which must be the props of the island `name`).
pub fn island(
    name: &str,
    when: &str,
    props: Option<&dyn IslandProps>,
    fallback_html: &str,
) -> String {
    debug_assert!(
        props.is_none_or(|p| p.island() == name),
        "props of another island given to {name}"
    );
    fill(&IslandTemplate {
        name,
        when,
        fallback: fallback_html,
        props: props.map(|p| p.script_json()),
    })
}

/// A fallback's Add to cart button for visitors with JavaScript: shown once
/// the page is flagged `js` (its no-JavaScript alternative carries the class
/// `nojs`), it adds to the cart before React has arrived, through the early
/// Add to cart the page then holds inline (web/src/early-buy); its outcome
/// goes to the element marked `data-buy-status` in the same island. The
/// button carries [`EARLY_BUY_MARK`], which tells [`Assets::scripts_for`]
/// that the page needs the early Add to cart.
pub fn early_buy_button(label: &str) -> String {
    fill(&EarlyBuyTemplate { label })
}

#[derive(Debug, Deserialize)]
struct ManifestEntry {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    css: Vec<String>,
}

/// The built web assets: the loader and each island's chunk, from
/// `web/dist/.vite/manifest.json`.
#[derive(Debug, Clone, Default)]
pub struct Assets {
    /// `/assets/loader-HASH.js`, when the manifest has the loader.
    pub loader: Option<String>,
    /// The loader's code, written inline into pages when it was read from
    /// the build (and holds nothing that could end a script element).
    pub loader_code: Option<String>,
    /// The early Add to cart's code (web/src/early-buy), written inline into
    /// pages that hold an early Add to cart button (`early_buy_button`), when it was read from the
    /// build and can sit inline.
    pub early_buy_code: Option<String>,
    /// Island name → its chunk, the chunks it imports (transitively), then
    /// the stylesheets of all of them, as `/assets/...` URLs.
    pub islands: BTreeMap<String, Vec<String>>,
    /// The service worker the web build made (`dist/sw.js`), if any.
    pub service_worker: Option<Vec<u8>>,
}

/// Where Vite's manifest sits inside the web build directory.
pub const VITE_MANIFEST: &str = ".vite/manifest.json";
const LOADER_KEY: &str = "src/loader.ts";
const EARLY_BUY_KEY: &str = "src/early-buy/index.ts";
/// What marks a fallback's early Add to cart button in a page (the end of
/// the button's tag in `templates/islands/early_buy.html`).
const EARLY_BUY_MARK: &str = " data-buy>";
/// The service worker's file in the web build.
const SERVICE_WORKER_FILE: &str = "sw.js";
/// Where the service worker is served: the site root, so its scope is every page.
pub const SERVICE_WORKER_PATH: &str = "/sw.js";

impl Assets {
    /// Reads `dist/.vite/manifest.json`; an absent manifest means no scripts.
    pub fn load(dist: &Path) -> anyhow::Result<Assets> {
        let file = dist.join(VITE_MANIFEST);
        let bytes = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Assets::default()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", file.display())),
        };
        let entries: BTreeMap<String, ManifestEntry> = serde_json::from_slice(&bytes)
            .with_context(|| format!("parsing {}", file.display()))?;
        let mut assets = Assets::from_entries(&entries);
        let inline = |key: &str| -> anyhow::Result<Option<String>> {
            let Some(entry) = entries.get(key) else {
                return Ok(None);
            };
            let file = dist.join(&entry.file);
            let code = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            Ok(inline_script(&code))
        };
        assets.loader_code = inline(LOADER_KEY)?;
        assets.early_buy_code = inline(EARLY_BUY_KEY)?;
        let sw = dist.join(SERVICE_WORKER_FILE);
        assets.service_worker = match std::fs::read(&sw) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("reading {}", sw.display())),
        };
        Ok(assets)
    }

    /// The service worker as a site file at `/sw.js` (not under `/assets/`:
    /// it keeps its URL from build to build, and its scope is where it sits).
    pub fn service_worker_page(&self) -> Option<Page> {
        self.service_worker.as_ref().map(|body| Page {
            path: SERVICE_WORKER_PATH.into(),
            body: body.clone(),
            keys: vec![SurrogateKey::ServiceWorker.to_string()],
        })
    }

    fn from_entries(entries: &BTreeMap<String, ManifestEntry>) -> Assets {
        let url = |f: &str| format!("/assets/{}", f.trim_start_matches('/'));
        let loader = entries.get(LOADER_KEY).map(|e| url(&e.file));
        let mut islands = BTreeMap::new();
        for (key, entry) in entries {
            let Some(name) = key
                .strip_prefix("src/islands/")
                .and_then(|k| k.strip_suffix("/index.tsx"))
            else {
                continue;
            };
            // Depth first through `imports` (a chunk may import another
            // shared chunk), each file once; stylesheets after the scripts.
            let mut scripts = vec![url(&entry.file)];
            let mut styles: Vec<String> = Vec::new();
            let mut seen = vec![key.as_str()];
            let mut todo: Vec<&ManifestEntry> = vec![entry];
            while let Some(e) = todo.pop() {
                for css in &e.css {
                    let css = url(css);
                    if !styles.contains(&css) {
                        styles.push(css);
                    }
                }
                let mut next = Vec::new();
                for import in &e.imports {
                    if seen.contains(&import.as_str()) {
                        continue;
                    }
                    seen.push(import);
                    if let Some(entry) = entries.get(import) {
                        scripts.push(url(&entry.file));
                        next.push(entry);
                    }
                }
                todo.extend(next.into_iter().rev());
            }
            scripts.extend(styles);
            islands.insert(name.to_string(), scripts);
        }
        Assets {
            loader,
            loader_code: None,
            early_buy_code: None,
            islands,
            service_worker: None,
        }
    }

    /// The script tags for a page: the loader once (inline when its code was
    /// read, else by URL), when the page holds an island the build has code
    /// for, after `modulepreload` links for every chunk the islands that load
    /// at once import and `preload` links (low priority) for their
    /// stylesheets, and the early Add to cart (inline) before it when the
    /// page holds its button. Empty when there is nothing to load.
    pub fn scripts_for(&self, html: &str) -> String {
        let Some(loader) = &self.loader else {
            return String::new();
        };
        let mut has_code = false;
        let mut preload: Vec<&str> = Vec::new();
        for (name, when) in islands_in(html) {
            if let Some(files) = self.islands.get(name) {
                has_code = true;
                if when == "load" {
                    for f in files {
                        if !preload.contains(&f.as_str()) {
                            preload.push(f);
                        }
                    }
                }
            }
        }
        if !has_code {
            return String::new();
        }
        let early_buy = if html.contains(EARLY_BUY_MARK) {
            self.early_buy_element()
        } else {
            None
        };
        fill(&ScriptsTemplate {
            preload,
            early_buy,
            loader: self.loader_element(loader),
        })
    }

    /// The inline script elements exactly as pages hold them, for the site
    /// writer's shared parts (compressed once, not on every page).
    pub fn inline_elements(&self) -> Vec<String> {
        let loader = self
            .loader
            .as_deref()
            .filter(|_| self.loader_code.is_some());
        [
            self.early_buy_element(),
            loader.map(|l| self.loader_element(l)),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    fn early_buy_element(&self) -> Option<String> {
        let code = self.early_buy_code.as_deref()?;
        Some(fill(&ScriptTemplate {
            module: false,
            src: None,
            code: Some(code),
        }))
    }

    fn loader_element(&self, loader: &str) -> String {
        fill(&match &self.loader_code {
            Some(code) => ScriptTemplate {
                module: true,
                src: None,
                code: Some(code),
            },
            None => ScriptTemplate {
                module: true,
                src: Some(loader),
                code: None,
            },
        })
    }
}

/// `code` trimmed, when it can sit inside a `<script>` element as it is
/// (nothing in it could end the element or open a comment there).
fn inline_script(code: &str) -> Option<String> {
    let lower = code.to_ascii_lowercase();
    if lower.contains("</script") || lower.contains("<!--") {
        return None;
    }
    Some(code.trim().to_string())
}

/// Copies the web build's hashed scripts and styles (`dist/*.js`, `dist/*.css`,
/// but not the service worker) into `out/assets/` with brotli and gzip copies,
/// where the origin serves them, cacheable forever. A file already there with
/// the same bytes is left alone; files of older builds stay, for pages and
/// caches that still name them. Returns how many files were written.
pub fn copy_assets(dist: &Path, out: &Path) -> anyhow::Result<usize> {
    let entries = match std::fs::read_dir(dist) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dist.display())),
    };
    // Hashed files are written once and kept a year: worth the best compression.
    let compression = Compression {
        brotli_quality: 11,
        brotli_window: 22,
        gzip_level: Some(9),
    };
    let mut written = 0;
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dist.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.ends_with(".js") || name.ends_with(".css"))
            || name == SERVICE_WORKER_FILE
            || !entry.file_type()?.is_file()
        {
            continue;
        }
        let body = std::fs::read(entry.path())
            .with_context(|| format!("reading {}", entry.path().display()))?;
        let target = out.join("assets").join(&name);
        if std::fs::read(&target).is_ok_and(|old| old == body) {
            continue;
        }
        let page = Page {
            path: format!("/assets/{name}"),
            body,
            keys: Vec::new(),
        };
        write_page(out, &page, None, compression, &SharedParts::default())?;
        written += 1;
    }
    Ok(written)
}

/// The (name, when) of every island element in `html`.
pub fn islands_in(html: &str) -> Vec<(&str, &str)> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find("data-island=\"") {
        rest = &rest[i + 13..];
        let Some(end) = rest.find('"') else { break };
        let name = &rest[..end];
        rest = &rest[end..];
        let when = rest
            .find("data-when=\"")
            .filter(|w| *w < 40)
            .and_then(|w| {
                let r = &rest[w + 11..];
                r.find('"').map(|e| &r[..e])
            })
            .unwrap_or("visible");
        found.push((name, when));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_island_holds_its_fallback_and_escaped_props_follow_it() {
        let html = island(
            "category-filters",
            "visible",
            Some(&crate::props::CategoryFiltersProps {
                seo_url: "</script>",
                groups: Vec::new(),
                price_low: None,
                price_high: None,
            }),
            "<a href=\"/cart\">Cart</a>",
        );
        assert_eq!(
            html,
            "<div data-island=\"category-filters\" data-when=\"visible\"><a href=\"/cart\">Cart</a></div>\
             <script type=\"application/json\" data-island-props>{\"seo_url\":\"\\u003c/script\\u003e\",\"groups\":[],\"price_low\":null,\"price_high\":null}</script>"
        );
        assert_eq!(islands_in(&html), vec![("category-filters", "visible")]);
    }

    #[test]
    fn the_service_worker_goes_to_the_root_and_hashed_files_to_assets_once() {
        let dist = tempfile::tempdir().unwrap();
        let out = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dist.path().join(".vite")).unwrap();
        std::fs::write(
            dist.path().join(VITE_MANIFEST),
            r#"{"src/loader.ts":{"file":"loader-1.js"}}"#,
        )
        .unwrap();
        std::fs::write(dist.path().join("loader-1.js"), "console.log(1)").unwrap();
        std::fs::write(dist.path().join("lib-2.css"), ".a{}").unwrap();
        std::fs::write(dist.path().join("sw.js"), "self.x=1").unwrap();

        let assets = Assets::load(dist.path()).unwrap();
        let sw = assets.service_worker_page().unwrap();
        assert_eq!(sw.path, "/sw.js");
        assert_eq!(sw.body, b"self.x=1");
        assert_eq!(sw.keys, vec!["sw".to_string()]);

        assert_eq!(copy_assets(dist.path(), out.path()).unwrap(), 2);
        let assets_dir = out.path().join("assets");
        assert_eq!(
            std::fs::read(assets_dir.join("loader-1.js")).unwrap(),
            b"console.log(1)"
        );
        assert!(assets_dir.join("loader-1.js.br").exists());
        assert!(assets_dir.join("lib-2.css.gz").exists());
        assert!(
            !assets_dir.join("sw.js").exists(),
            "the worker is not an asset"
        );
        assert_eq!(
            copy_assets(dist.path(), out.path()).unwrap(),
            0,
            "unchanged"
        );

        // A new build's file is added; the old one stays for pages that name it.
        std::fs::remove_file(dist.path().join("loader-1.js")).unwrap();
        std::fs::write(dist.path().join("loader-3.js"), "console.log(3)").unwrap();
        assert_eq!(copy_assets(dist.path(), out.path()).unwrap(), 1);
        assert!(assets_dir.join("loader-1.js").exists());

        // No web build: no worker, nothing copied.
        let none = out.path().join("no-web");
        assert!(Assets::load(&none).unwrap().service_worker_page().is_none());
        assert_eq!(copy_assets(&none, out.path()).unwrap(), 0);
    }

    #[test]
    fn scripts_are_written_only_for_islands_the_build_has() {
        let entries: BTreeMap<String, ManifestEntry> = serde_json::from_str(
            r#"{"src/loader.ts":{"file":"loader-1.js"},
                "src/islands/search-box/index.tsx":{"file":"search-box-2.js","imports":["_react.js"]},
                "_react.js":{"file":"react-3.js"}}"#,
        )
        .unwrap();
        let assets = Assets::from_entries(&entries);
        assert_eq!(assets.scripts_for("<p>no islands</p>"), "");
        assert_eq!(
            assets.scripts_for(&island("drawer", "idle", None, "")),
            "",
            "no code for this island yet"
        );
        let s = assets.scripts_for(&island("search-box", "load", None, ""));
        assert!(s.contains("<link rel=\"modulepreload\" href=\"/assets/search-box-2.js\">"));
        assert!(s.contains("/assets/react-3.js"));
        assert!(s.ends_with("<script type=\"module\" src=\"/assets/loader-1.js\"></script>"));
        assert_eq!(
            Assets::default().scripts_for(&island("search-box", "load", None, "")),
            ""
        );
    }

    #[test]
    fn an_island_loading_at_once_names_every_chunk_it_imports_and_its_stylesheets() {
        // buy-buttons imports lib, which imports react (nested); account-page
        // imports Wishlist, which has its own stylesheet.
        let entries: BTreeMap<String, ManifestEntry> = serde_json::from_str(
            r#"{"src/loader.ts":{"file":"loader-1.js"},
                "src/islands/buy-buttons/index.tsx":{"file":"buy-buttons-2.js","imports":["_lib.js"],"css":["buy-buttons-2.css"]},
                "src/islands/cart-page/index.tsx":{"file":"cart-page-3.js","imports":["_lib.js","_react.js"]},
                "src/islands/drawer/index.tsx":{"file":"drawer-4.js","imports":["_lib.js","_react.js"]},
                "src/islands/account-page/index.tsx":{"file":"account-page-5.js","imports":["_wishlist.js"]},
                "_wishlist.js":{"file":"Wishlist-6.js","imports":["_lib.js"],"css":["Wishlist-6.css"]},
                "_lib.js":{"file":"lib-7.js","imports":["_react.js"],"css":["lib-7.css"]},
                "_react.js":{"file":"react-8.js"}}"#,
        )
        .unwrap();
        let assets = Assets::from_entries(&entries);
        assert_eq!(
            assets.islands["buy-buttons"],
            [
                "/assets/buy-buttons-2.js",
                "/assets/lib-7.js",
                "/assets/react-8.js",
                "/assets/buy-buttons-2.css",
                "/assets/lib-7.css"
            ]
        );
        assert_eq!(
            assets.islands["account-page"],
            [
                "/assets/account-page-5.js",
                "/assets/Wishlist-6.js",
                "/assets/lib-7.js",
                "/assets/react-8.js",
                "/assets/Wishlist-6.css",
                "/assets/lib-7.css"
            ]
        );

        // An island loading at once: every chunk it needs, each once, and
        // its stylesheets at low priority; an idle or visible island's files
        // are left to the loader.
        let page = format!(
            "{}{}{}",
            island("drawer", "idle", None, ""),
            island("cart-page", "load", None, ""),
            island("buy-buttons", "visible", None, "")
        );
        assert_eq!(
            assets.scripts_for(&page),
            "<link rel=\"modulepreload\" href=\"/assets/cart-page-3.js\">\
             <link rel=\"modulepreload\" href=\"/assets/lib-7.js\">\
             <link rel=\"modulepreload\" href=\"/assets/react-8.js\">\
             <link rel=\"preload\" as=\"style\" href=\"/assets/lib-7.css\" fetchpriority=\"low\">\
             <script type=\"module\" src=\"/assets/loader-1.js\"></script>"
        );
        assert_eq!(
            assets.scripts_for(&island("buy-buttons", "visible", None, "")),
            "<script type=\"module\" src=\"/assets/loader-1.js\"></script>"
        );
    }

    #[test]
    fn the_loader_is_written_into_the_page_when_its_code_can_sit_there() {
        let dist = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dist.path().join(".vite")).unwrap();
        std::fs::write(
            dist.path().join(VITE_MANIFEST),
            r#"{"src/loader.ts":{"file":"loader-1.js"},
                "src/islands/drawer/index.tsx":{"file":"drawer-2.js"}}"#,
        )
        .unwrap();
        std::fs::write(
            dist.path().join("loader-1.js"),
            "import(\"/assets/drawer-2.js\");\n",
        )
        .unwrap();
        let assets = Assets::load(dist.path()).unwrap();
        assert_eq!(
            assets.scripts_for(&island("drawer", "idle", None, "")),
            "<script type=\"module\">import(\"/assets/drawer-2.js\");</script>"
        );
        assert_eq!(assets.scripts_for("<p>no islands</p>"), "");

        // Code that could end the element (or open a comment) stays a file.
        for code in ["x(\"</SCRIPT>\")", "y(\"<!--\")"] {
            assert_eq!(inline_script(code), None, "{code}");
        }
        assert_eq!(inline_script(" a() \n").as_deref(), Some("a()"));
        // A manifest naming a loader the build lacks is an error, not a page without it.
        std::fs::remove_file(dist.path().join("loader-1.js")).unwrap();
        assert!(Assets::load(dist.path()).is_err());
    }

    #[test]
    fn the_early_add_to_cart_is_written_only_into_pages_with_its_button() {
        let dist = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dist.path().join(".vite")).unwrap();
        std::fs::write(
            dist.path().join(VITE_MANIFEST),
            r#"{"src/loader.ts":{"file":"loader-1.js"},
                "src/early-buy/index.ts":{"file":"early-buy-2.js"},
                "src/islands/buy-buttons/index.tsx":{"file":"buy-buttons-3.js"}}"#,
        )
        .unwrap();
        std::fs::write(dist.path().join("loader-1.js"), "boot()").unwrap();
        std::fs::write(dist.path().join("early-buy-2.js"), "(()=>{buy()})();\n").unwrap();
        let assets = Assets::load(dist.path()).unwrap();
        let with_button = island(
            "buy-buttons",
            "visible",
            None,
            &early_buy_button("Add to cart"),
        );
        assert!(with_button.contains(">Add to cart</button>"));
        // Before the loader, so its click handler is there as early as the loader.
        assert_eq!(
            assets.scripts_for(&with_button),
            "<script>(()=>{buy()})();</script><script type=\"module\">boot()</script>"
        );
        // A product that cannot be bought (or a set) has no such button: no early code.
        assert_eq!(
            assets.scripts_for(&island(
                "buy-buttons",
                "visible",
                None,
                "<span>Not available</span>"
            )),
            "<script type=\"module\">boot()</script>"
        );
    }
}
