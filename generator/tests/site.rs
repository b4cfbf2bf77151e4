//! Whole-site tests: the fixture shop (`tests/fixtures/shop.sql`), in a test
//! database (SQLite, or PostgreSQL when `TEST_POSTGRES_URL` is set), built into a
//! temp dir, every page type checked for its key content, a link check over
//! the whole output, and an incremental rebuild after a price change.

use catalog::db;
use catalog::db::testing::TestDatabase;
use std::collections::BTreeSet;
use std::path::PathBuf;

use generator::commands::{build_for, BuildOptions, BuildReport, Products};
use generator::serve::Manifest;

struct Shop {
    dir: tempfile::TempDir,
    db: TestDatabase,
    pool: catalog::db::Pool,
}

impl Shop {
    /// The fixture shop in a database of its own (SQLite, or PostgreSQL when
    /// `TEST_POSTGRES_URL` is set).
    async fn open() -> Shop {
        let dir = tempfile::tempdir().unwrap();
        let db = TestDatabase::migrated().await;
        let pool = db.pool().await;
        db::raw_sql(include_str!("fixtures/shop.sql"))
            .execute(&pool)
            .await
            .unwrap();
        db::after_bulk_load(&pool).await.unwrap();
        Shop { dir, db, pool }
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    async fn build(&self) -> BuildReport {
        self.build_for(&Products::All).await
    }

    async fn build_for(&self, products: &Products) -> BuildReport {
        build_for(
            &BuildOptions {
                database: self.db.url().to_string(),
                out: self.out(),
                base_url: "https://shop.example".into(),
                web_dist: self.dir.path().join("no-web"),
                compression: Default::default(),
                progress: false,
                now: 1_750_000_000,
                batch: 2,
            },
            products,
        )
        .await
        .unwrap()
    }

    fn page(&self, path: &str) -> String {
        let file = self.out().join(generator::serve::file_for(path).unwrap());
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
    }
}

/// The JSON-LD objects of a page.
fn json_ld(html: &str) -> Vec<serde_json::Value> {
    html.split("<script type=\"application/ld+json\">")
        .skip(1)
        .map(|s| serde_json::from_str(&s[..s.find("</script>").unwrap()]).unwrap())
        .collect()
}

fn ld_types(html: &str) -> Vec<String> {
    json_ld(html)
        .iter()
        .map(|v| v["@type"].as_str().unwrap().to_string())
        .collect()
}

fn assert_has(html: &str, needles: &[&str]) {
    for n in needles {
        assert!(html.contains(n), "missing {n:?}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn every_page_type_has_its_key_content() {
    let shop = Shop::open().await;
    let report = shop.build().await;
    assert!(report.pages > 40, "{}", report.summary());

    let p = shop.page("/product/teak-bed");
    assert_has(
        &p,
        &[
            "<title>Teak Bed | Regal Furniture</title>",
            r#"<link rel="canonical" href="https://shop.example/product/teak-bed">"#,
            r#"<meta property="og:type" content="product">"#,
            "<h1>Teak Bed</h1>",
            "King size, solid teak",
            "Code: BED-101",
            "৳85,000<s>৳95,000</s>",
            "<summary>EMI available: from ৳7,084/month</summary>",
            "<tr><td>BRAC Bank</td><td>6</td><td>৳14,167</td></tr>",
            r#"fetchpriority="high""#,
            "/storage/uploads/fullsize/bed.webp?w=400 400w",
            r#"data-island="product-gallery""#,
            r#"data-island="buy-buttons""#,
            // Without script (no cart token) the fallback orders by chat or
            // phone; with script its button adds to the cart before React.
            r#"<button type="button" class="btn jsonly" data-buy>Add to cart</button><a class="btn nojs" href="/page/chatbuy">Order by chat or phone</a>"#,
            "<div data-buy-status aria-live=\"polite\"></div>",
            "Watch the video",
            "360° view",
            // Without script the 360° link leads to the photos on the page,
            // not to the API's JSON.
            r##"<img id="photos" "##,
            r##"<a href="#photos" "##,
            "<th>Material</th><td>Teak</td>",
            "Colour: Walnut",
            "Is assembly included?",
            "Yes, free in Dhaka.",
            // Escaped as the templates escape text (askama: `<` is `&#60;`).
            "Great finish &#60;3",
            "Rated 5.0 out of 5 from 1 review",
            r#"<a href="/c/beds">Beds</a>"#,
            "Similar products",
            r#"href="/product/oak-bed""#,
        ],
    );
    assert!(
        !p.contains("href=\"/api/"),
        "no link leads to the API's JSON"
    );
    assert!(
        !p.contains("action=\"/api/"),
        "no form posts to the API: it needs the cart token only script has"
    );
    assert_eq!(ld_types(&p), ["Product", "BreadcrumbList"]);
    let product = &json_ld(&p)[0];
    assert_eq!(product["offers"]["priceCurrency"], "BDT");
    assert_eq!(product["offers"]["price"], "85000");
    assert_eq!(
        product["offers"]["availability"],
        "https://schema.org/InStock"
    );
    assert_eq!(
        json_ld(&shop.page("/product/oak-bed"))[0]["offers"]["availability"],
        "https://schema.org/OutOfStock"
    );
    // The flash sale's price and countdown data.
    let sofa = shop.page("/product/linen-sofa");
    assert_has(
        &sofa,
        &["৳63,000<s>৳75,000</s>", r#"data-island="flash-countdown""#],
    );
    // Its keys name its own sale, not every sale (`flash`): the page
    // changes at its products' price changes only (issue 17), yet an edit of
    // the sale purges it.
    let manifest = Manifest::load(&shop.out()).unwrap();
    let keys = &manifest.pages["/product/linen-sofa"].keys;
    assert!(keys.iter().any(|k| k == "flash_schedule:1"), "{keys:?}");
    assert!(!keys.iter().any(|k| k == "flash"), "{keys:?}");
    assert!(manifest.pages["/page/flash-sale"]
        .keys
        .iter()
        .any(|k| k == "flash"));

    let c = shop.page("/c/beds");
    assert_has(
        &c,
        &[
            "<h1>Beds</h1>",
            r#"<link rel="canonical" href="https://shop.example/c/beds">"#,
            "৳85,000",
            r#"href="/c/beds?filterby_material=teak""#,
            r#"data-island="category-filters""#,
        ],
    );
    assert_eq!(ld_types(&c), ["BreadcrumbList", "ItemList"]);
    let all = shop.page("/c/products");
    assert_has(
        &all,
        &[
            "All Products",
            "Teak Bed",
            "Leather Sofa",
            r#"href="/c/bedroom""#,
        ],
    );
    // The product grid: a heading before the cards' h3s; card images are
    // decorative (the card's h3 names the link); the first row loads at
    // once, the first two with high priority, the rest lazily.
    let grid = &all[all.find("<ul class=\"g\">").unwrap()..];
    assert!(all.contains("<h2 class=\"vh\">Products</h2><ul class=\"g\">"));
    let imgs: Vec<&str> = grid
        .split("<li class=\"card\"><a href=\"/product/")
        .skip(1)
        .filter_map(|card| {
            let img = &card[card.find("<img ")?..];
            Some(&img[..img.find('>')?])
        })
        .collect();
    assert!(imgs.len() >= 5, "{} card images", imgs.len());
    for (i, img) in imgs.iter().enumerate() {
        assert!(img.contains(r#"alt="""#), "{img}");
        assert!(img.contains(r#"decoding="async""#), "{img}");
        assert_eq!(img.contains(r#"fetchpriority="high""#), i < 2, "{i}: {img}");
        assert_eq!(img.contains(r#"loading="lazy""#), i >= 4, "{i}: {img}");
        assert!(
            img.contains(r#"sizes="(min-width:576px) 25vw, 50vw""#),
            "{img}"
        );
        assert!(img.contains(" 200w"), "{img}");
    }
    assert_has(
        &shop.page("/c/bedroom"),
        &[
            "Teak Bedroom Set",
            "Calm bedrooms",
            r#"href="/c/wardrobes""#,
        ],
    );

    let home = shop.page("/");
    assert_has(
        &home,
        &[
            r#"<link rel="canonical" href="https://shop.example/">"#,
            "/storage/uploads/fullsize/banner.webp?w=800",
            "Eid Flash Sale",
            "Top offers",
            "New arrivals",
            "Choosing a bed",
            "New showroom in Sylhet",
            "Cosy corners",
        ],
    );
    assert_eq!(ld_types(&home), ["WebSite"]);

    let post = shop.page("/blogs/choosing-a-bed");
    assert_has(
        &post,
        &["<h1>Choosing a bed</h1>", "Measure first.", "Ayesha"],
    );
    assert_eq!(ld_types(&post), ["BreadcrumbList", "Article"]);
    assert_has(&shop.page("/news-event/sylhet-showroom"), &["Come visit."]);
    assert_has(&shop.page("/blogs"), &[r#"href="/blogs/choosing-a-bed""#]);
    assert_has(
        &shop.page("/news-event"),
        &[r#"href="/news-event/sylhet-showroom""#],
    );
    assert_has(&shop.page("/gallery"), &[r#"href="/gallery/gulshan-flat""#]);
    assert_has(
        &shop.page("/gallery/gulshan-flat"),
        &["A bright flat.", "Morning light"],
    );
    assert_has(&shop.page("/page/about-us"), &["Since 1984."]);
    let set = shop.page("/product-set/teak-bedroom-set");
    assert_has(
        &set,
        &["Teak Bedroom Set", "Velvet Blue", "Dimensions", "৳1,95,000"],
    );
    assert_has(
        &shop.page("/page/flash-sale"),
        &["Eid Flash Sale", "Linen Sofa"],
    );
    assert_has(&shop.page("/page/top-offers"), &["৳"]);
    assert_has(&shop.page("/page/prebooking"), &["Walnut Wardrobe"]);
    // The advert opens over public pages, not over a visitor's own ones.
    assert!(shop.page("/").contains(r#"data-island="advert-modal""#));
    for own in ["/checkout", "/payment", "/fail"] {
        assert!(
            !shop.page(own).contains(r#"data-island="advert-modal""#),
            "{own}"
        );
    }
    // A pre-booking is paid in part online: its page never says cash on delivery.
    let wardrobe = shop.page("/product/walnut-wardrobe");
    assert_has(&wardrobe, &["In stock"]);
    assert!(
        !wardrobe.contains("Cash on delivery"),
        "a pre-booking offers no cash on delivery"
    );
    assert!(shop
        .page("/product/linen-sofa")
        .contains(" · Cash on delivery"));
    assert_has(&shop.page("/page/bundle-offers"), &["Teak Bedroom Set"]);
    assert_has(&shop.page("/page/showrooms"), &["Road 11, Gulshan"]);
    assert_has(&shop.page("/page/chatbuy"), &["Chat Dhaka"]);
    assert_has(&shop.page("/page/contact"), &["09612-000000"]);
    let cart = shop.page("/cart");
    assert_has(
        &cart,
        &[
            r#"data-island="cart-page""#,
            r#"<meta name="robots" content="noindex">"#,
        ],
    );
    assert_has(
        &shop.page("/404.html"),
        &[
            "Oops! Something went wrong :(",
            "The page you are looking for can't be found.",
        ],
    );
    // The service worker's offline page: plain words and a Retry link (to
    // the address it is shown at), not for search engines.
    assert_has(
        &shop.page("/offline"),
        &[
            "<h1>You are offline</h1>",
            r#"<a class="btn" href="">Retry</a>"#,
            r#"<meta name="robots" content="noindex">"#,
        ],
    );

    // Shared chrome on every page.
    for page in [&p, &c, &home, &cart] {
        assert_has(
            page,
            &[
                r#"<form action="/c/products" method="get" role="search">"#,
                r#"<a href="/c/products">All Products</a>"#,
                "Shop All Bedroom",
                r#"href="/cart" aria-label="Cart""#,
                "Facebook",
                "© Regal Furniture",
                r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#,
            ],
        );
    }
    // No script tags until the web build has island code.
    assert!(!p.contains("<script type=\"module\""));

    assert!(shop.page("/favicon.svg").starts_with("<svg xmlns="));
    let robots = shop.page("/robots.txt");
    assert_has(
        &robots,
        &[
            "Disallow: /api/cart/",
            "Sitemap: https://shop.example/sitemap.xml",
        ],
    );
    let index = shop.page("/sitemap.xml");
    assert_has(&index, &["<loc>https://shop.example/sitemap-1.xml</loc>"]);
    let part = shop.page("/sitemap-1.xml");
    assert_has(
        &part,
        &[
            "<loc>https://shop.example/product/teak-bed</loc>",
            "<loc>https://shop.example/c/beds</loc>",
            "<loc>https://shop.example/blogs/choosing-a-bed</loc>",
        ],
    );
    assert!(!part.contains("/cart<"));
}

/// Every root-relative link and image of every page leads to a page of the
/// site (or to the API, to images under /storage/, or to the basic pages).
#[tokio::test(flavor = "multi_thread")]
async fn no_internal_link_is_broken() {
    let shop = Shop::open().await;
    shop.build().await;
    let manifest = Manifest::load(&shop.out()).unwrap();
    let mut broken = BTreeSet::new();
    let mut checked = 0;
    for path in manifest
        .pages
        .keys()
        .filter(|p| !p.contains('.') || p.ends_with(".html"))
    {
        let html = shop.page(path);
        for attr in ["href=\"", "src=\""] {
            for piece in html.split(attr).skip(1) {
                let link = &piece[..piece.find('"').unwrap()];
                if !link.starts_with('/') || link.starts_with("//") {
                    continue;
                }
                let target = link.split(['?', '#']).next().unwrap();
                checked += 1;
                // The origin serves the API, the images and the basic pages
                // without script (`/lite/`, rendered per visitor).
                if target.starts_with("/storage/")
                    || target.starts_with("/api/")
                    || target.starts_with("/lite/")
                {
                    continue;
                }
                let ok = manifest.pages.contains_key(target)
                    || generator::serve::shell_for_prefix(target)
                        .is_some_and(|s| manifest.pages.contains_key(s));
                if !ok {
                    broken.insert(format!("{path} -> {link}"));
                }
            }
        }
    }
    assert!(checked > 500, "only {checked} links");
    assert!(broken.is_empty(), "broken links: {broken:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_price_change_rewrites_exactly_the_pages_that_show_it_and_reports_their_keys() {
    let shop = Shop::open().await;
    let first = shop.build().await;
    assert!(first.write.written.len() > 40);
    let again = shop.build().await;
    assert!(again.write.written.is_empty(), "{:?}", again.write.written);
    assert!(again.write.keys.is_empty());

    let before = Manifest::load(&shop.out()).unwrap();
    db::query("UPDATE product SET price_now = 59000 WHERE id = 2")
        .execute(&shop.pool)
        .await
        .unwrap();
    let report = shop.build().await;
    let written: BTreeSet<&str> = report.write.written.iter().map(String::as_str).collect();
    assert!(written.contains("/product/oak-bed"));
    assert!(written.contains("/c/beds"), "the category lists it");
    assert!(report.write.removed.is_empty());
    assert!(report.write.keys.contains("product:2"));
    // Every rewritten page is tagged with the product (so a purge by tag
    // reaches it), and every page that shows the new price was rewritten.
    for path in &written {
        if path.starts_with("/sitemap") {
            continue;
        }
        assert!(
            before.pages[*path].keys.iter().any(|k| k == "product:2"),
            "{path} rewritten without showing product 2"
        );
    }
    let after = Manifest::load(&shop.out()).unwrap();
    for (path, entry) in &after.pages {
        if path.ends_with(".xml") || path.ends_with(".txt") {
            continue;
        }
        let html = shop.page(path);
        if html.contains("৳59,000") {
            assert!(
                written.contains(path.as_str()),
                "{path} shows the price but was not rewritten"
            );
            assert!(entry.keys.iter().any(|k| k == "product:2"), "{path}");
        }
    }
}

fn changed(tags: &[&str]) -> Products {
    Products::Changed(tags.iter().map(|t| t.to_string()).collect())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_targeted_rebuild_renders_only_the_product_pages_that_show_the_product_and_matches_a_full_one(
) {
    let shop = Shop::open().await;
    let first = shop.build().await;
    let products = first
        .write
        .written
        .iter()
        .filter(|p| p.starts_with("/product/"))
        .count();
    let before = Manifest::load(&shop.out()).unwrap();
    db::query("UPDATE product SET price_now = 59000 WHERE id = 2")
        .execute(&shop.pool)
        .await
        .unwrap();
    let targeted = shop.build_for(&changed(&["product:2"])).await;
    assert!(!targeted.full);
    let rendered = targeted
        .steps
        .iter()
        .find(|s| s.name == "products")
        .unwrap()
        .pages;
    let showing = before
        .pages
        .iter()
        .filter(|(path, e)| {
            path.starts_with("/product/") && e.keys.iter().any(|k| k == "product:2")
        })
        .count();
    assert_eq!(
        rendered, showing,
        "only the product pages that show product 2"
    );
    assert!(rendered < products);
    assert!(targeted
        .write
        .written
        .iter()
        .any(|p| p == "/product/oak-bed"));
    assert!(targeted.write.written.iter().any(|p| p == "/c/beds"));
    assert!(
        targeted.write.removed.is_empty(),
        "a targeted build removes nothing"
    );
    assert_eq!(
        Manifest::load(&shop.out()).unwrap().pages.len(),
        before.pages.len()
    );
    // Nothing is left for a full build to do: the targeted one wrote it all.
    let full = shop.build().await;
    assert!(full.full);
    assert!(full.write.written.is_empty(), "{:?}", full.write.written);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_change_other_than_to_known_products_renders_every_page() {
    let shop = Shop::open().await;
    shop.build().await;
    for tags in [
        vec!["menu"],
        vec!["product:2", "category:1"],
        vec!["product:999999"],
        vec!["product:x"],
    ] {
        let report = shop.build_for(&changed(&tags)).await;
        assert!(report.full, "{tags:?}");
    }
    // A targeted build with nothing changed renders no product page.
    let report = shop.build_for(&changed(&[])).await;
    assert!(!report.full);
    assert_eq!(
        report
            .steps
            .iter()
            .find(|s| s.name == "products")
            .unwrap()
            .pages,
        0
    );
    assert!(report.write.written.is_empty());
}

/// An advert that belongs to a flash sale (widget `special` = `flash:<id>`)
/// shows only while the sale runs, and carries the sale's end so that a page
/// written before it does not open it after; once the sale has ended, pages
/// are written without it (issue 21).
#[tokio::test(flavor = "multi_thread")]
async fn an_advert_of_a_flash_sale_goes_with_the_sale() {
    let shop = Shop::open().await;
    db::raw_sql(
        "INSERT INTO flash_schedule (id, fs_name, starts_at, ends_at) VALUES (2, 'Short Sale', 1749990000, 1750003600); \
         UPDATE widget SET special = 'flash:2' WHERE id = 5",
    )
    .execute(&shop.pool)
    .await
    .unwrap();
    shop.build().await;
    let home = shop.page("/");
    assert!(home.contains(r#"data-island="advert-modal""#));
    assert!(
        home.contains(r#""ends_at":1750003600"#),
        "the advert's props carry the sale's end"
    );
    db::raw_sql("UPDATE flash_schedule SET ends_at = 1749999000 WHERE id = 2")
        .execute(&shop.pool)
        .await
        .unwrap();
    shop.build().await;
    assert!(
        !shop.page("/").contains(r#"data-island="advert-modal""#),
        "the sale has ended: no advert"
    );
    assert!(!shop.page("/c/beds").contains("advert-modal"));
}
