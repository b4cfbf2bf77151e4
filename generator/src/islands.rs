//! Islands: the interactive parts of a page, marked as web/ISLANDS.md says
//! (`<div data-island="name" data-when="...">` holding a working fallback,
//! its props as escaped JSON in the next sibling), and the script tags a page
//! needs, read from Vite's manifest.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context;
use serde::Deserialize;

use crate::format::{escape, script_json};

/// An island element with its fallback markup and, when given, its props.
pub fn island(
    name: &str,
    when: &str,
    props: Option<&serde_json::Value>,
    fallback_html: &str,
) -> String {
    let mut out = format!(
        "<div data-island=\"{}\" data-when=\"{}\">{}</div>",
        escape(name),
        escape(when),
        fallback_html
    );
    if let Some(props) = props {
        out.push_str("<script type=\"application/json\" data-island-props>");
        out.push_str(&script_json(props));
        out.push_str("</script>");
    }
    out
}

#[derive(Debug, Deserialize)]
struct ManifestEntry {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
}

/// The built web assets: the loader and each island's chunk, from
/// `web/dist/.vite/manifest.json`.
#[derive(Debug, Clone, Default)]
pub struct Assets {
    /// `/assets/loader-HASH.js`, when the manifest has the loader.
    pub loader: Option<String>,
    /// Island name → its chunk and the chunks it imports, as `/assets/...` URLs.
    pub islands: BTreeMap<String, Vec<String>>,
}

/// Where Vite's manifest sits inside the web build directory.
pub const VITE_MANIFEST: &str = ".vite/manifest.json";
const LOADER_KEY: &str = "src/loader.ts";

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
        Ok(Assets::from_entries(&entries))
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
            let mut files = vec![url(&entry.file)];
            for import in &entry.imports {
                if let Some(e) = entries.get(import) {
                    files.push(url(&e.file));
                }
            }
            islands.insert(name.to_string(), files);
        }
        Assets { loader, islands }
    }

    /// The script tags for a page: the loader once, when the page holds an
    /// island the build has code for, and `modulepreload` links for islands
    /// that load at once. Empty when there is nothing to load.
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
        let mut out = String::new();
        for f in preload {
            out.push_str(&format!("<link rel=\"modulepreload\" href=\"{f}\">"));
        }
        out.push_str(&format!(
            "<script type=\"module\" src=\"{loader}\"></script>"
        ));
        out
    }
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
            "buy-buttons",
            "visible",
            Some(&serde_json::json!({"title": "</script>"})),
            "<a href=\"/cart\">Cart</a>",
        );
        assert!(html.starts_with(
            "<div data-island=\"buy-buttons\" data-when=\"visible\"><a href=\"/cart\">Cart</a></div><script type=\"application/json\" data-island-props>"
        ));
        assert!(html.contains("\\u003c/script\\u003e"));
        assert_eq!(islands_in(&html), vec![("buy-buttons", "visible")]);
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
}
