//! The page chrome every page repeats: the shared header (logo, at most four
//! top menu links, the search form, the profile/compare/wishlist/cart icons),
//! the left drawer with the side menu, and the footer. It is loaded and
//! rendered once per build; each page pastes the two HTML strings.

use std::collections::BTreeMap;

use askama::Template;
use catalog::read::site::MenuLink;

/// At most this many top menu links (SPEC.md §9).
pub const MAX_TOP_LINKS: usize = 4;
/// The menu item the side menu's product tree hangs under (SPEC.md §2).
pub const SIDE_MENU_PARENT: i64 = 21;
/// The widget holding the pre-load advert.
pub const ADVERT_WIDGET: i64 = 5;

/// A link with its children (menus nest up to three levels).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub label: String,
    pub link: String,
    pub children: Vec<Node>,
}

/// The chrome's data, from the database.
#[derive(Debug, Clone, Default)]
pub struct ChromeData {
    pub company: String,
    pub top: Vec<Node>,
    pub drawer: Vec<Node>,
    pub side: Vec<Node>,
    pub columns: Vec<Node>,
    /// The footer's staff-written support block (setting `footer_support`);
    /// without it the footer shows the shop's phone and email.
    pub support: Option<String>,
    pub social: Vec<Social>,
    pub copyright: String,
    /// The pre-load advert's HTML when widget 5 is active.
    pub advert: Option<String>,
    /// When the advert stops (unix seconds): the end of the flash sale it
    /// belongs to (its `special` is `flash:<schedule id>`), `None` for one
    /// that belongs to no sale.
    pub advert_ends: Option<i64>,
    pub settings: BTreeMap<String, String>,
}

/// The chrome rendered once, pasted into every page.
#[derive(Debug, Clone, Default)]
pub struct Chrome {
    pub company: String,
    pub header: String,
    pub footer: String,
    /// The advert modal island (empty when the advert is off).
    pub advert: String,
    /// The site settings (name → value).
    pub settings: BTreeMap<String, String>,
}

#[derive(Template)]
#[template(path = "header.html")]
struct HeaderTemplate<'a> {
    company: &'a str,
    top: &'a [Node],
    drawer: &'a [Node],
    side: &'a [Node],
}

#[derive(Template)]
#[template(path = "footer.html")]
struct FooterTemplate<'a> {
    support: Option<&'a str>,
    phone: &'a str,
    /// `phone` as a `tel:` link takes it.
    phone_tel: String,
    email: &'a str,
    columns: &'a [Node],
    social: &'a [Social],
    company: &'a str,
    copyright: &'a str,
}

/// A social profile of the shop, shown in the footer with its icon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Social {
    pub label: &'static str,
    pub link: String,
    /// The icon: an SVG path drawn in a 24×24 box (inline, no image to load).
    pub icon: &'static str,
}

/// Social profiles: setting name (the admin's `social_<name>`, or the bare
/// name), label, icon path.
const SOCIAL: [(&str, &str, &str); 5] = [
    ("facebook", "Facebook", "M14 8h3V4h-3a4 4 0 0 0-4 4v2H8v4h2v7h4v-7h3l1-4h-4V8z"),
    ("instagram", "Instagram", "M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4zm5 5a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm5.5-2.5v.01"),
    ("youtube", "YouTube", "M3 8a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3zm7 1v6l5-3z"),
    ("linkedin", "LinkedIn", "M4 9h4v11H4zM6 4a2 2 0 1 1 0 4 2 2 0 0 1 0-4zm5 5h4v2c1-2 6-2.5 6 2v7h-4v-6c0-2-3-2-3 0v6h-3z"),
    ("twitter", "X", "M4 4l16 16M20 4L4 20"),
];

/// Whether `url` may be a footer link: an absolute `https://` or `http://` URL.
fn web_link(url: &str) -> bool {
    let url = url.trim();
    (url.starts_with("https://") || url.starts_with("http://"))
        && !url.contains(char::is_whitespace)
        && !url.contains('"')
}

impl ChromeData {
    /// Loads the chrome from the database, as it is now.
    pub async fn load(pool: &catalog::db::Pool) -> anyhow::Result<ChromeData> {
        ChromeData::load_at(pool, catalog::clock::now_unix()).await
    }

    /// Loads the chrome from the database as it is at `now` (unix seconds):
    /// an advert that belongs to a flash sale (widget `special` =
    /// `flash:<schedule id>`) only while that sale runs, with its end, so
    /// that a page written before the end does not open it after.
    pub async fn load_at(pool: &catalog::db::Pool, now: i64) -> anyhow::Result<ChromeData> {
        use anyhow::Context;
        use catalog::read::site;
        let links = site::menu_links(pool).await.context("reading menus")?;
        let settings = site::settings(pool).await.context("reading settings")?;
        let widget = catalog::read::home::widget(pool, ADVERT_WIDGET)
            .await
            .context("reading the advert widget")?
            .filter(|w| w.is_active && !w.description.trim().is_empty());
        let mut advert_ends = None;
        let advert = match widget {
            Some(w) => match w.special.trim().strip_prefix("flash:") {
                Some(id) => {
                    let ends: Option<i64> = catalog::db::query_scalar(
                        "SELECT ends_at FROM flash_schedule \
                         WHERE id = $1 AND is_active AND starts_at <= $2 AND ends_at > $2",
                    )
                    .bind(id.trim().parse::<i64>().unwrap_or(0))
                    .bind(now)
                    .fetch_optional(pool)
                    .await
                    .context("reading the advert's flash sale")?;
                    advert_ends = ends;
                    ends.map(|_| w.description)
                }
                None => Some(w.description),
            },
            None => None,
        };
        let mut data = ChromeData::from_rows(&links, settings, advert);
        data.advert_ends = advert_ends;
        Ok(data)
    }

    /// Builds the chrome from menu rows and settings.
    pub fn from_rows(
        links: &[MenuLink],
        settings: BTreeMap<String, String>,
        advert: Option<String>,
    ) -> ChromeData {
        let at = |location: &str| -> Vec<&MenuLink> {
            links.iter().filter(|l| l.location == location).collect()
        };
        let header = at("header");
        let top: Vec<Node> = header
            .iter()
            .filter(|l| l.parent == 0)
            .take(MAX_TOP_LINKS)
            .map(|l| leaf(l))
            .collect();
        // The drawer: every header menu with its child and sub-menus nested by parent.
        let drawer_rows: Vec<&MenuLink> = links
            .iter()
            .filter(|l| l.location.starts_with("header"))
            .collect();
        let drawer = tree(&drawer_rows, |l| {
            l.parent == 0 || !drawer_rows.iter().any(|p| p.id == l.parent)
        });
        let products = at("products");
        let side = tree(&products, |l| l.parent == SIDE_MENU_PARENT);
        let mut columns: Vec<Node> = Vec::new();
        let mut column_of: BTreeMap<i64, usize> = BTreeMap::new();
        for l in at("footer") {
            let i = *column_of.entry(l.menu_id).or_insert_with(|| {
                columns.push(Node {
                    label: l.menu_title.clone(),
                    link: String::new(),
                    children: Vec::new(),
                });
                columns.len() - 1
            });
            columns[i].children.push(leaf(l));
        }
        let company = settings
            .get("com_name")
            .filter(|s| !s.is_empty())
            .cloned()
            .unwrap_or_else(|| "Regal Furniture".to_string());
        let social = SOCIAL
            .iter()
            .filter_map(|(name, label, icon)| {
                settings
                    .get(&format!("social_{name}"))
                    .or_else(|| settings.get(*name))
                    .filter(|u| web_link(u))
                    .map(|u| Social {
                        label,
                        link: u.trim().to_string(),
                        icon,
                    })
            })
            .collect();
        let support = settings.get("footer_support").cloned();
        let copyright = settings
            .get("copyright")
            .filter(|s| !s.is_empty())
            .cloned()
            .unwrap_or_else(|| format!("© {company}. All rights reserved."));
        ChromeData {
            company,
            top,
            drawer,
            side,
            columns,
            support,
            social,
            copyright,
            advert,
            advert_ends: None,
            settings,
        }
    }

    /// A setting's value, empty when it is not set.
    fn setting(&self, name: &str) -> &str {
        self.settings.get(name).map_or("", String::as_str)
    }

    /// Renders the header (with the drawer) and the footer.
    pub fn render(&self) -> anyhow::Result<Chrome> {
        let header = HeaderTemplate {
            company: &self.company,
            top: &self.top,
            drawer: &self.drawer,
            side: &self.side,
        }
        .render()?;
        let footer = FooterTemplate {
            support: self.support.as_deref(),
            phone: self.setting("com_phone"),
            phone_tel: tel(self.setting("com_phone")),
            email: self.setting("com_email"),
            columns: &self.columns,
            social: &self.social,
            company: &self.company,
            copyright: &self.copyright,
        }
        .render()?;
        let advert = match &self.advert {
            // The advert opens as a modal on load when JavaScript runs; without it
            // nothing is shown (it is an advert, not content).
            Some(html) => crate::islands::island(
                "advert-modal",
                "idle",
                Some(&crate::props::AdvertModalProps {
                    description: html,
                    ends_at: self.advert_ends,
                }),
                "",
            ),
            None => String::new(),
        };
        Ok(Chrome {
            company: self.company.clone(),
            header,
            footer,
            advert,
            settings: self.settings.clone(),
        })
    }
}

/// A phone number as a `tel:` link holds it: digits, with a leading `+`
/// kept (spaces, dashes, dots and brackets dropped).
pub fn tel(phone: &str) -> String {
    let phone = phone.trim();
    let plus = if phone.starts_with('+') { "+" } else { "" };
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    format!("{plus}{digits}")
}

fn leaf(l: &MenuLink) -> Node {
    Node {
        label: l.label.clone(),
        link: l.link.clone(),
        children: Vec::new(),
    }
}

/// Nests `rows` by parent id, starting from the rows `is_root` picks; three
/// levels at most.
fn tree(rows: &[&MenuLink], is_root: impl Fn(&MenuLink) -> bool) -> Vec<Node> {
    fn children(rows: &[&MenuLink], parent: i64, depth: usize) -> Vec<Node> {
        if depth >= 3 {
            return Vec::new();
        }
        rows.iter()
            .filter(|l| l.parent == parent && l.id != parent)
            .map(|l| Node {
                label: l.label.clone(),
                link: l.link.clone(),
                children: children(rows, l.id, depth + 1),
            })
            .collect()
    }
    rows.iter()
        .filter(|l| is_root(l))
        .map(|l| Node {
            label: l.label.clone(),
            link: l.link.clone(),
            children: children(rows, l.id, 1),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(menu_id: i64, location: &str, id: i64, parent: i64, label: &str) -> MenuLink {
        MenuLink {
            menu_id,
            location: location.into(),
            menu_title: format!("Menu {menu_id}"),
            id,
            parent,
            label: label.into(),
            link: format!("/c/{}", label.to_lowercase()),
        }
    }

    #[test]
    fn at_most_four_top_links_and_the_side_menu_hangs_under_21() {
        let mut rows: Vec<MenuLink> = (1..=6)
            .map(|i| row(1, "header", i, 0, &format!("Top{i}")))
            .collect();
        rows.push(row(2, "products", 30, 21, "Bedroom"));
        rows.push(row(2, "products", 31, 30, "Beds"));
        rows.push(row(2, "products", 32, 0, "Stray"));
        rows.push(row(3, "footer", 40, 0, "About"));
        rows.push(row(4, "footer", 41, 0, "Blogs"));
        let c = ChromeData::from_rows(&rows, BTreeMap::new(), None);
        assert_eq!(c.top.len(), 4);
        assert_eq!(c.side.len(), 1);
        assert_eq!(c.side[0].children[0].label, "Beds");
        assert_eq!(c.columns.len(), 2);
        let html = c.render().unwrap();
        assert!(html.header.contains("Shop All Bedroom"));
        assert!(html.header.contains(r#"action="/c/products""#));
        assert!(html.header.contains(r#"name="keyword""#));
        let top = html.header.split("class=\"top\"").nth(1).unwrap();
        let top = &top[..top.find("</nav>").unwrap()];
        assert!(top.contains("Top4") && !top.contains("Top5"));
        assert!(html.header.contains("Top5"), "the drawer has every link");
        assert!(html.footer.contains("Menu 4"));
    }

    #[test]
    fn social_links_come_from_the_social_settings_with_names_and_inline_icons() {
        let settings: BTreeMap<String, String> = [
            ("com_name", "Regal Furniture"),
            ("com_phone", "+880 9612-345678"),
            (
                "social_facebook",
                "https://www.facebook.com/regalfurniturebd",
            ),
            ("youtube", "https://www.youtube.com/@regalfurniturebd"),
            ("social_instagram", "javascript:alert(1)"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let c = ChromeData::from_rows(&[], settings, None);
        let labels: Vec<&str> = c.social.iter().map(|s| s.label).collect();
        assert_eq!(labels, ["Facebook", "YouTube"], "only web links");
        let footer = c.render().unwrap().footer;
        assert!(footer.contains(r#"<a href="https://www.facebook.com/regalfurniturebd" rel="noopener" aria-label="Regal Furniture on Facebook"><svg"#));
        assert!(!footer.contains("<img"));
        assert!(footer.contains(r#"href="tel:+8809612345678""#));
        assert_eq!(tel(" 017-1234 5678 "), "01712345678");
    }
}
