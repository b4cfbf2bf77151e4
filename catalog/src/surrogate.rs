//! Surrogate keys: the tags a cached answer or page carries, so that one
//! change purges every copy that shows what changed.
//!
//! The origin sends an answer's keys in `Surrogate-Key` (space-separated);
//! the generator writes each page's keys into the site manifest, which the
//! origin sends with the page; the generator's watch turns the rows of the
//! change log into the keys it purges at the edge and the pages it renders
//! again. The edge matches keys as opaque strings. A key made on one side and
//! purged on the other must be spelt alike: hence one typed vocabulary, whose
//! [`Display`](std::fmt::Display) is the text on the wire and whose
//! [`FromStr`] reads it back.

use std::fmt;
use std::str::FromStr;

/// One surrogate key. A key naming a row (`product:12`) is carried by every
/// answer or page that shows the row, a collection key (`categories`) by
/// every one that lists or depends on any of its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SurrogateKey {
    /// `product:{id}`: a product, on its own pages and on every list or card
    /// that shows it (so its price or stock purges them).
    Product(i64),
    /// `category:{id}`.
    Category(i64),
    /// `product_set:{id}`.
    ProductSet(i64),
    /// `post:{id}`: a blog post or news item.
    Post(i64),
    /// `page:{id}`: a content page (terms, about...).
    Page(i64),
    /// `interior:{id}`.
    Interior(i64),
    /// `widget:{id}`.
    Widget(i64),
    /// `flash_schedule:{id}`: one flash sale, on the pages of its products
    /// while it runs (their countdown to its end). Not a list of sales: a
    /// product page changes at its own products' price changes only, which
    /// their `product:{id}` keys tell, not at every sale's start or end.
    FlashSchedule(i64),
    /// `products`: any product list.
    Products,
    /// `categories`: the category tree.
    Categories,
    /// `product_sets`: any list of product sets.
    ProductSets,
    /// `posts`: any list of posts.
    Posts,
    /// `interiors`: any list of interiors.
    Interiors,
    /// `home`: the home page's own content.
    Home,
    /// `menu`: the menus.
    Menu,
    /// `setting`: the shop's settings (and SEO content).
    Setting,
    /// `flash`: the flash sales (any list of them, or of their products).
    Flash,
    /// `showrooms`.
    Showrooms,
    /// `districts`.
    Districts,
    /// `sliders`: the home page's sliders.
    Sliders,
    /// `robots`: the generator's `robots.txt`.
    Robots,
    /// `favicon`: the generator's icons.
    Favicon,
    /// `sitemap`: the generator's sitemaps.
    Sitemap,
    /// `sw`: the generator's service worker.
    ServiceWorker,
    /// `shells`: the generator's pages that the browser fills in (cart,
    /// checkout, account...).
    Shells,
    /// `errors`: the generator's error and offline pages.
    Errors,
}

impl fmt::Display for SurrogateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SurrogateKey::*;
        let text = match *self {
            Product(id) => return write!(f, "product:{id}"),
            Category(id) => return write!(f, "category:{id}"),
            ProductSet(id) => return write!(f, "product_set:{id}"),
            Post(id) => return write!(f, "post:{id}"),
            Page(id) => return write!(f, "page:{id}"),
            Interior(id) => return write!(f, "interior:{id}"),
            Widget(id) => return write!(f, "widget:{id}"),
            FlashSchedule(id) => return write!(f, "flash_schedule:{id}"),
            Products => "products",
            Categories => "categories",
            ProductSets => "product_sets",
            Posts => "posts",
            Interiors => "interiors",
            Home => "home",
            Menu => "menu",
            Setting => "setting",
            Flash => "flash",
            Showrooms => "showrooms",
            Districts => "districts",
            Sliders => "sliders",
            Robots => "robots",
            Favicon => "favicon",
            Sitemap => "sitemap",
            ServiceWorker => "sw",
            Shells => "shells",
            Errors => "errors",
        };
        f.write_str(text)
    }
}

/// The text is not a surrogate key of the vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a surrogate key: {0:?}")]
pub struct UnknownKey(pub String);

impl FromStr for SurrogateKey {
    type Err = UnknownKey;

    /// Reads a key back from its text, exactly as [`Display`](fmt::Display)
    /// writes it (case and all).
    fn from_str(text: &str) -> Result<SurrogateKey, UnknownKey> {
        use SurrogateKey::*;
        let unknown = || UnknownKey(text.to_string());
        if let Some((prefix, id)) = text.split_once(':') {
            let id = id.parse().map_err(|_| unknown())?;
            return Ok(match prefix {
                "product" => Product(id),
                "category" => Category(id),
                "product_set" => ProductSet(id),
                "post" => Post(id),
                "page" => Page(id),
                "interior" => Interior(id),
                "widget" => Widget(id),
                "flash_schedule" => FlashSchedule(id),
                _ => return Err(unknown()),
            });
        }
        Ok(match text {
            "products" => Products,
            "categories" => Categories,
            "product_sets" => ProductSets,
            "posts" => Posts,
            "interiors" => Interiors,
            "home" => Home,
            "menu" => Menu,
            "setting" => Setting,
            "flash" => Flash,
            "showrooms" => Showrooms,
            "districts" => Districts,
            "sliders" => Sliders,
            "robots" => Robots,
            "favicon" => Favicon,
            "sitemap" => Sitemap,
            "sw" => ServiceWorker,
            "shells" => Shells,
            "errors" => Errors,
            _ => return Err(unknown()),
        })
    }
}

/// When an answer carrying a key changes with prices (issue 17: what expires
/// at a flash-sale boundary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceDependence {
    /// The key names what shows no price of its own: a category, a menu, a
    /// text page, a post, one sale's countdown (its start and end are its
    /// products' price changes)... Any product shown carries its own key.
    None,
    /// `product:{id}`: changes when that product's price does.
    Product(i64),
    /// A list a new price can bring a product into or reorder (`products`,
    /// `home`, `flash`, a product set's price), or a key outside the
    /// vocabulary: changes at any sale's start or end.
    Any,
}

impl SurrogateKey {
    /// When an answer carrying this key changes with prices.
    pub fn price_dependence(self) -> PriceDependence {
        use SurrogateKey::*;
        match self {
            Product(id) => PriceDependence::Product(id),
            Category(_) | Categories | Menu | Setting | Page(_) | Post(_) | Posts | Interior(_)
            | Interiors | FlashSchedule(_) | Showrooms | Districts | Robots | Favicon | Sitemap
            | ServiceWorker | Shells | Errors => PriceDependence::None,
            ProductSet(_) | ProductSets | Widget(_) | Products | Home | Flash | Sliders => {
                PriceDependence::Any
            }
        }
    }
}

/// The products whose price changes change an answer tagged `keys` (as
/// texts), or `None` when any sale's start or end may (a key that says so, a
/// key outside the vocabulary, or no key at all). The one rule for the
/// origin's freshness (`catalog::pricing::next_change_for`) and the pages
/// `generator watch` stages at a boundary.
pub fn priced_products(keys: &[String]) -> Option<Vec<i64>> {
    if keys.is_empty() {
        return None;
    }
    let mut products = Vec::new();
    for key in keys {
        match key.parse::<SurrogateKey>().ok()?.price_dependence() {
            PriceDependence::Product(id) => products.push(id),
            PriceDependence::None => {}
            PriceDependence::Any => return None,
        }
    }
    products.sort_unstable();
    products.dedup();
    Some(products)
}

/// The texts of `keys` and then `product:{id}` of each of `products`: the
/// keys of an answer or page that lists products, so that purging one
/// product (its price or stock changed) also drops every list showing it.
pub fn with_products(
    keys: &[SurrogateKey],
    products: impl IntoIterator<Item = i64>,
) -> Vec<String> {
    keys.iter()
        .copied()
        .chain(products.into_iter().map(SurrogateKey::Product))
        .map(String::from)
        .collect()
}

/// The text of a key: what the origin's `Surrogate-Key` header and the site
/// manifest hold.
impl From<SurrogateKey> for String {
    fn from(key: SurrogateKey) -> String {
        key.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SurrogateKey::*;

    /// Every key with its text on the wire (a new key goes here too): the
    /// edge's purges, the site manifests already written and the tests of the
    /// origin and the edge name these, so none may change.
    const WIRE: [(SurrogateKey, &str); 26] = [
        (Product(12), "product:12"),
        (Category(3), "category:3"),
        (ProductSet(7), "product_set:7"),
        (Post(4), "post:4"),
        (Page(2), "page:2"),
        (Interior(9), "interior:9"),
        (Widget(22), "widget:22"),
        (FlashSchedule(5), "flash_schedule:5"),
        (Products, "products"),
        (Categories, "categories"),
        (ProductSets, "product_sets"),
        (Posts, "posts"),
        (Interiors, "interiors"),
        (Home, "home"),
        (Menu, "menu"),
        (Setting, "setting"),
        (Flash, "flash"),
        (Showrooms, "showrooms"),
        (Districts, "districts"),
        (Sliders, "sliders"),
        (Robots, "robots"),
        (Favicon, "favicon"),
        (Sitemap, "sitemap"),
        (ServiceWorker, "sw"),
        (Shells, "shells"),
        (Errors, "errors"),
    ];

    #[test]
    fn keys_are_written_as_on_the_wire_and_read_back() {
        for (key, text) in WIRE {
            assert_eq!(key.to_string(), text);
            assert_eq!(String::from(key), text);
            assert_eq!(text.parse::<SurrogateKey>(), Ok(key), "{text}");
        }
    }

    #[test]
    fn what_changes_with_prices() {
        let texts = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // A product page: its product, its related cards, its frame, its sale.
        assert_eq!(
            priced_products(&texts(&[
                "product:9",
                "category:2",
                "product:3",
                "flash_schedule:1",
                "menu",
                "setting",
                "product:3"
            ])),
            Some(vec![3, 9])
        );
        // A blog post, the cart's shell: no price at all.
        assert_eq!(
            priced_products(&texts(&["post:4", "posts", "menu"])),
            Some(vec![])
        );
        assert_eq!(priced_products(&texts(&["shells"])), Some(vec![]));
        // Lists, the sales, the home page, unknown or no keys: any boundary.
        for keys in [
            &["products", "product:3"][..],
            &["flash", "product:3"],
            &["home"],
            &["product_set:2"],
            &["product:3", "something-new"],
            &[],
        ] {
            assert_eq!(priced_products(&texts(keys)), None, "{keys:?}");
        }
    }

    #[test]
    fn a_list_carries_its_own_keys_then_its_products() {
        assert_eq!(
            with_products(&[Category(3), Products], [12, 7]),
            ["category:3", "products", "product:12", "product:7"]
        );
        assert_eq!(with_products(&[Flash], []), ["flash"]);
    }

    #[test]
    fn texts_outside_the_vocabulary_are_refused() {
        for text in [
            "",
            "product",
            "product:",
            "product:x",
            "product:1:2",
            "Product:1",
            "PRODUCTS",
            "products ",
            "shop:1",
            ":1",
            "category:1.5",
            "widgets",
        ] {
            assert_eq!(
                text.parse::<SurrogateKey>(),
                Err(UnknownKey(text.to_string())),
                "{text:?}"
            );
        }
    }
}
