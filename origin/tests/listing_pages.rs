//! Listing pages rendered on demand (`/c/{slug}?page=&sort_by=&keyword=&filterby_*=`)
//! on the seeded test shop with its site built by the generator: the right
//! products in the right order (checked against `category/products`), search
//! with Banglish, filters, lenient parameters, 404s, cache headers, encodings.

mod common;

use std::io::Read;

use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;

use common::{ok, TestShop};

/// The test shop with its site generated (once per test binary).
async fn shop() -> TestShop {
    TestShop::with_site().await
}

/// GET `uri` as HTML, asserting a 200.
async fn page(shop: &TestShop, uri: &str) -> String {
    let (status, headers, body) = shop.fetch("GET", uri, &[]).await;
    assert_eq!(status, StatusCode::OK, "{uri}");
    assert!(
        header(&headers, "content-type").starts_with("text/html"),
        "{uri}"
    );
    String::from_utf8(body.to_vec()).unwrap()
}

fn header<'a>(h: &'a HeaderMap, name: &str) -> &'a str {
    h.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// The product slugs of the cards on a page, in order.
fn card_slugs(html: &str) -> Vec<String> {
    html.split("<li class=\"card\"><a href=\"/product/")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .collect()
}

/// The taka prices (paid now) of the cards on a page, in order.
fn card_prices(html: &str) -> Vec<i64> {
    html.split("<p class=\"pr\">")
        .skip(1)
        .map(|s| {
            let s = s.strip_prefix('৳').expect("a price in taka");
            s.chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .filter(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap()
        })
        .collect()
}

/// The product slugs `category/products` answers for `query`.
async fn api_slugs(shop: &TestShop, query: &str) -> (Vec<String>, i64) {
    let (_, body) = ok(shop, &format!("/api/category/products?{query}")).await;
    let slugs = body["products"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["seo_url"].as_str().unwrap().to_string())
        .collect();
    (slugs, body["products"]["total"].as_i64().unwrap())
}

fn canonical(html: &str) -> &str {
    let at = html.find("<link rel=\"canonical\" href=\"").unwrap() + 28;
    &html[at..at + html[at..].find('"').unwrap()]
}

#[tokio::test(flavor = "multi_thread")]
async fn page_two_continues_the_prebuilt_first_page_as_the_api_lists_it() {
    let shop = shop().await;
    let first = page(&shop, "/c/products").await;
    let second = page(&shop, "/c/products?page=2").await;
    let (one, two) = (card_slugs(&first), card_slugs(&second));
    assert_eq!(one.len(), 24);
    assert_eq!(two.len(), 24);
    assert!(
        one.iter().all(|s| !two.contains(s)),
        "page 2 repeats page 1"
    );
    // The same products, in the same order, as the API's popularity listing.
    let (api_two, total) = api_slugs(
        &shop,
        "seo_url=products&sort_by=popularity&per_page=24&page=2",
    )
    .await;
    assert_eq!(two, api_two);
    let (api_one, _) = api_slugs(&shop, "seo_url=products&sort_by=popularity&per_page=24").await;
    assert_eq!(
        one, api_one,
        "the prebuilt first page is the API's first page"
    );
    assert_eq!(total, common::TEST_PRODUCTS as i64);
    // Prices in taka; a page of its own for crawlers, with links on both sides.
    assert_eq!(card_prices(&second).len(), 24);
    assert_eq!(canonical(&second), "https://shop.example/c/products?page=2");
    assert!(!second.contains("name=\"robots\""));
    assert!(second.contains(r#"<a href="/c/products" rel="prev">‹ Previous</a>"#));
    assert!(second.contains(r#"<span>2</span>"#));
    assert!(second.contains(r#"<a href="/c/products?page=3" rel="next">Next ›</a>"#));
    assert!(second.contains("(page 2)</title>"));
    assert!(
        second.contains(r#""position":25"#),
        "ItemList positions continue"
    );
    // The last page holds the rest.
    let last = page(&shop, "/c/products?page=5").await;
    assert_eq!(
        card_slugs(&last).len(),
        common::TEST_PRODUCTS as usize - 4 * 24
    );
    assert!(!last.contains("rel=\"next\""));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sub_category_pages_through_its_own_products() {
    let shop = shop().await;
    // The category listing the most products (with its descendants' products).
    let seo_url = common::text(
        &shop,
        "SELECT c.seo_url FROM category c JOIN product_category pc ON pc.category_id = c.id \
         JOIN product p ON p.id = pc.product_id AND p.is_active = TRUE \
         WHERE c.id <> 1 AND c.parent IS NOT NULL AND c.is_published = TRUE AND c.is_active = TRUE AND c.type = 'product' \
         GROUP BY c.id ORDER BY COUNT(*) DESC LIMIT 1",
    )
    .await;
    let html = page(&shop, &format!("/c/{seo_url}?page=1&sort_by=price_desc")).await;
    let (api, _) = api_slugs(
        &shop,
        &format!("seo_url={seo_url}&sort_by=price_desc&per_page=24"),
    )
    .await;
    assert!(!api.is_empty());
    assert_eq!(card_slugs(&html), api);
}

#[tokio::test(flavor = "multi_thread")]
async fn sorting_orders_by_the_price_paid_now() {
    let shop = shop().await;
    for (sort, asc) in [("price_asc", true), ("price_desc", false)] {
        let html = page(&shop, &format!("/c/products?sort_by={sort}")).await;
        let prices = card_prices(&html);
        assert_eq!(prices.len(), 24);
        let mut sorted = prices.clone();
        sorted.sort_unstable();
        if !asc {
            sorted.reverse();
        }
        assert_eq!(prices, sorted, "{sort}");
        let (api, _) = api_slugs(
            &shop,
            &format!("seo_url=products&sort_by={sort}&per_page=24"),
        )
        .await;
        assert_eq!(card_slugs(&html), api, "{sort}");
        // Sorted pages are not for search engines; their links keep the sort.
        assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
        assert_eq!(canonical(&html), "https://shop.example/c/products");
        assert!(html.contains(&format!(
            r#"<a href="/c/products?sort_by={sort}&#38;page=2" rel="next">"#
        )));
    }
    // `sort` is read as `sort_by`.
    let html = page(&shop, "/c/products?sort=price_asc").await;
    let (api, _) = api_slugs(&shop, "seo_url=products&sort_by=price_asc&per_page=24").await;
    assert_eq!(card_slugs(&html), api);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_keyword_searches_with_the_index_in_english_and_banglish() {
    let shop = shop().await;
    let html = page(&shop, "/c/products?keyword=sofa&time=1700000000000").await;
    let slugs = card_slugs(&html);
    assert!(!slugs.is_empty(), "no sofa found");
    let (api, total) = api_slugs(&shop, "seo_url=products&keyword=sofa&per_page=24").await;
    assert_eq!(slugs, api, "the index's ranking, as the API has it");
    assert!(html.contains("Search results for “sofa”"));
    // How many it found, and not the description of the whole shop it ran in.
    let found = if total == 1 {
        "1 product".to_string()
    } else {
        format!("{} products", catalog::pricing::grouped(total as u64))
    };
    assert!(
        html.contains(&format!(r#"<p class="muted">{found}</p>"#)),
        "{found}"
    );
    let description = common::text(
        &shop,
        "SELECT COALESCE(description, '') FROM category WHERE seo_url = 'products'",
    )
    .await;
    let words: String = description.chars().skip(3).take(30).collect();
    assert!(
        !words.trim().is_empty(),
        "the shop's listing has a description"
    );
    assert!(page(&shop, "/c/products?page=2").await.contains(&words));
    assert!(!html.contains(&words), "{words}");
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    assert_eq!(canonical(&html), "https://shop.example/c/products");
    // The best match is a sofa.
    let title = common::text(
        &shop,
        &format!("SELECT title FROM product WHERE seo_url = '{}'", slugs[0]),
    )
    .await;
    assert!(title.to_lowercase().contains("sofa"), "{title}");
    // Banglish: "khat" is a bed.
    let html = page(&shop, "/c/products?keyword=khat").await;
    let (api, _) = api_slugs(&shop, "seo_url=products&keyword=khat&per_page=24").await;
    assert!(!api.is_empty());
    assert_eq!(card_slugs(&html), api);
    assert!(html.contains("Search results for “khat”"));
    let (beds, _) = api_slugs(&shop, "seo_url=products&keyword=bed&per_page=24").await;
    // The beds themselves; the page's tail may differ where "bed" alone also
    // matches by prefix ("bedside") and scores tie, and the order where
    // "khat" is also a word of the Beds category's keywords (its beds first,
    // then the kids' beds, which "bed" ranks by popularity alone).
    let named_bed = |slugs: &[String]| -> Vec<String> {
        let mut named: Vec<String> = slugs
            .iter()
            .filter(|s| s.split('-').any(|w| w == "bed"))
            .cloned()
            .collect();
        named.sort();
        named
    };
    let khat_page = card_slugs(&html);
    assert!(khat_page[0].contains("-bed-"), "{khat_page:?}");
    let khat_beds = named_bed(&khat_page);
    assert!(khat_beds.len() >= 10, "{khat_beds:?}");
    assert_eq!(khat_beds, named_bed(&beds));
    // Nothing found: the empty state, still a page.
    let html = page(&shop, "/c/products?keyword=zqxwvj").await;
    assert!(card_slugs(&html).is_empty());
    assert!(html.contains("<p>Nothing Founds</p>"));
    assert!(total > 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_filter_link_of_the_generated_page_narrows_the_listing() {
    let shop = shop().await;
    let first = page(&shop, "/c/products").await;
    // The first filter link the generator wrote.
    let at = first
        .find("<a href=\"/c/products?filterby_")
        .expect("a filter link")
        + 9;
    let link = first[at..at + first[at..].find('"').unwrap()].to_string();
    let query = link.split_once('?').unwrap().1.to_string();
    let html = page(&shop, &link).await;
    let (api, total) = api_slugs(
        &shop,
        &format!("seo_url=products&sort_by=popularity&per_page=24&{query}"),
    )
    .await;
    assert!(
        total > 0 && total < common::TEST_PRODUCTS as i64,
        "{query}: {total}"
    );
    assert_eq!(card_slugs(&html), api);
    assert!(html.contains(&format!(
        "href=\"{link}\" rel=\"nofollow\" aria-current=\"true\""
    )));
    // A keyword and a filter together; the filter links keep the keyword.
    let html = page(&shop, &format!("/c/products?keyword=sofa&{query}")).await;
    let (api, _) = api_slugs(
        &shop,
        &format!("seo_url=products&keyword=sofa&per_page=24&{query}"),
    )
    .await;
    assert_eq!(card_slugs(&html), api);
    assert!(html.contains("href=\"/c/products?keyword=sofa&amp;filterby_"));
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_parameters_never_fail_and_plain_queries_get_the_prebuilt_page() {
    let shop = shop().await;
    let (_, prebuilt, _) = shop.fetch("GET", "/c/products", &[]).await;
    // Nothing that changes the page: the prebuilt file, byte for byte (same ETag).
    for q in [
        "utm_source=x",
        "page=1",
        "page=abc",
        "page=-1",
        "page=0",
        "sort_by=bogus",
        "keyword=",
        "price_min=cheap",
        "filterby_nope=1",
        "%FF=%FE",
    ] {
        let (status, h, _) = shop.fetch("GET", &format!("/c/products?{q}"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{q}");
        assert_eq!(header(&h, "etag"), header(&prebuilt, "etag"), "{q}");
    }
    // Past the end, huge or odd: a page, never an error.
    for q in [
        "page=6",
        "page=100000",
        "page=99999999999999999999999",
        "page=2&sort_by=nope&price_min=9&price_max=1",
        "filterby_color=no-such-colour&page=2",
        "filterby_category=999999|abc",
        "keyword=%22(((%20AND%20OR%20*%20-+~",
        "keyword=সোফা",
    ] {
        let (status, _, body) = shop.fetch("GET", &format!("/c/products?{q}"), &[]).await;
        assert_eq!(status, StatusCode::OK, "{q}");
        assert!(
            String::from_utf8(body.to_vec()).unwrap().contains("<h1>"),
            "{q}"
        );
    }
    let html = page(&shop, &format!("/c/products?keyword={}", "x".repeat(5000))).await;
    assert!(html.contains("Nothing Founds"));
    let html = page(&shop, "/c/products?page=100000").await;
    assert!(html.contains("Nothing Founds"));
    assert!(html.contains(r#"<a href="/c/products?page=5" rel="prev">‹ Previous</a>"#));
    // An unknown category: the not-found page.
    let (status, h, body) = shop.fetch("GET", "/c/no-such-category?page=2", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(header(&h, "content-type").starts_with("text/html"));
    assert_eq!(header(&h, "cache-control"), "private, no-store");
    assert!(String::from_utf8(body.to_vec())
        .unwrap()
        .contains("can't be found"));
    // Other methods are not pages.
    let (status, _, _) = shop.fetch("POST", "/c/products?page=2", &[]).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_are_cached_briefly_tagged_compressed_and_revalidated() {
    let shop = shop().await;
    let (status, h, identity) = shop.fetch("GET", "/c/products?page=2", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let html = String::from_utf8(identity.to_vec()).unwrap();
    assert_eq!(header(&h, "cache-control"), "public, max-age=60");
    // The seeded flash sale ends 22 hours on: the brief window is not capped.
    assert_eq!(
        header(&h, "cdn-cache-control"),
        "max-age=60, stale-while-revalidate=60, stale-if-error=86400"
    );
    let keys: Vec<&str> = header(&h, "surrogate-key").split(' ').collect();
    assert!(keys.contains(&"category:1"), "{keys:?}");
    assert!(keys.contains(&"products"), "{keys:?}");
    for slug in card_slugs(&html) {
        let id = shop
            .scalar_i64(&format!("SELECT id FROM product WHERE seo_url = '{slug}'"))
            .await;
        assert!(keys.contains(&format!("product:{id}").as_str()), "{slug}");
    }
    assert_eq!(header(&h, "vary"), "Accept-Encoding");
    assert_eq!(header(&h, "content-encoding"), "");

    let (_, h, br) = shop
        .fetch(
            "GET",
            "/c/products?page=2",
            &[("accept-encoding", "gzip, br")],
        )
        .await;
    assert_eq!(header(&h, "content-encoding"), "br");
    let mut text = String::new();
    brotli::Decompressor::new(&br[..], 4096)
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, html);
    let etag = header(&h, "etag").to_string();
    assert!(etag.ends_with("-br\""), "{etag}");

    let (_, h, gz) = shop
        .fetch("GET", "/c/products?page=2", &[("accept-encoding", "gzip")])
        .await;
    assert_eq!(header(&h, "content-encoding"), "gzip");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, html);

    let (status, h, body) = shop
        .fetch(
            "GET",
            "/c/products?page=2",
            &[("accept-encoding", "br"), ("if-none-match", &etag)],
        )
        .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(header(&h, "cache-control"), "public, max-age=60");

    let (status, h, body) = shop.fetch("HEAD", "/c/products?page=2", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.is_empty());
    assert_eq!(header(&h, "content-length"), html.len().to_string());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_and_the_page_agree_on_an_unknown_value() {
    // The API refuses what the page leaves out.
    let shop = shop().await;
    let (status, _, body): (StatusCode, HeaderMap, Value) = shop
        .get("/api/category/products?seo_url=products&sort_by=bogus")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let html = page(&shop, "/c/products?sort_by=bogus&page=2").await;
    assert_eq!(
        card_slugs(&html),
        card_slugs(&page(&shop, "/c/products?page=2").await)
    );
}
