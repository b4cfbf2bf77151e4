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
    pub social: Vec<Node>,
    pub copyright: String,
    /// The pre-load advert's HTML when widget 5 is active.
    pub advert: Option<String>,
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
    email: &'a str,
    columns: &'a [Node],
    social: &'a [Node],
    copyright: &'a str,
}

/// Settings holding social links: setting name → label.
const SOCIAL: [(&str, &str); 5] = [
    ("facebook", "Facebook"),
    ("instagram", "Instagram"),
    ("youtube", "YouTube"),
    ("linkedin", "LinkedIn"),
    ("twitter", "X"),
];

impl ChromeData {
    /// Loads the chrome from the database.
    pub async fn load(pool: &catalog::db::Pool) -> anyhow::Result<ChromeData> {
        use anyhow::Context;
        use catalog::read::site;
        let links = site::menu_links(pool).await.context("reading menus")?;
        let settings = site::settings(pool).await.context("reading settings")?;
        let advert = site::active_widget(pool, ADVERT_WIDGET)
            .await
            .context("reading the advert widget")?
            .filter(|html| !html.trim().is_empty());
        Ok(ChromeData::from_rows(&links, settings, advert))
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
            .filter_map(|(name, label)| {
                settings.get(*name).filter(|u| !u.is_empty()).map(|u| Node {
                    label: label.to_string(),
                    link: u.clone(),
                    children: Vec::new(),
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
            email: self.setting("com_email"),
            columns: &self.columns,
            social: &self.social,
            copyright: &self.copyright,
        }
        .render()?;
        let advert = match &self.advert {
            // The advert opens as a modal on load when JavaScript runs; without it
            // nothing is shown (it is an advert, not content).
            Some(html) => crate::islands::island(
                "advert-modal",
                "idle",
                Some(&crate::props::AdvertModalProps { description: html }),
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
}
