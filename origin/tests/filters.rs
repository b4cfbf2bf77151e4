//! Filters belong to their category (issue 15): `category/filters` offers
//! only the attribute values the category's products (its sub-categories'
//! included) have, each with the count of products it leaves (with the other
//! chosen filters: facet counts), and the listing's price bounds; the price
//! range is checked (whole taka, min not above max: 400 naming the field)
//! and applied; a value that would leave nothing is never offered, on the
//! API or on the listing pages (the generator's first page and the origin's
//! variants, whose price form works without JavaScript). SQLite, and
//! PostgreSQL with TEST_POSTGRES_URL.

mod common;

use std::collections::HashMap;

use axum::http::StatusCode;
use serde_json::Value;

use common::{assert_api_error, ok, TestShop};

/// The test shop with its site generated (once per test binary).
async fn shop() -> TestShop {
    TestShop::with_site().await
}

/// A top category with sub-categories and the most products.
async fn top_category(shop: &TestShop) -> String {
    common::text(
        shop,
        "SELECT c.seo_url FROM category c WHERE c.parent = 1 AND c.type = 'product' \
         AND c.is_published = TRUE AND c.is_active = TRUE \
         AND EXISTS (SELECT 1 FROM category s WHERE s.parent = c.id) \
         ORDER BY (SELECT COUNT(*) FROM product_category pc JOIN category s ON s.id = pc.category_id \
           WHERE s.parent = c.id OR s.id = c.id) DESC, c.id LIMIT 1",
    )
    .await
}

/// `(filterby_<name>, slug) → count` of a filters answer.
fn offered(filters: &Value) -> HashMap<(String, String), i64> {
    let mut out = HashMap::new();
    for att in filters["filters_att"].as_array().unwrap() {
        let name = format!("filterby_{}", att["field_name"].as_str().unwrap());
        for v in att["values"].as_array().unwrap() {
            out.insert(
                (name.clone(), v["slug"].as_str().unwrap().to_string()),
                v["count"].as_i64().unwrap(),
            );
        }
    }
    out
}

async fn total(shop: &TestShop, query: &str) -> i64 {
    let (_, body) = ok(shop, &format!("/api/category/products?{query}")).await;
    body["products"]["total"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_value_offered_has_its_count_and_no_other_value_finds_anything() {
    let shop = shop().await;
    let slug = top_category(&shop).await;
    let (_, filters) = ok(&shop, &format!("/api/category/filters?seo_url={slug}")).await;
    let values = offered(&filters);
    assert!(!values.is_empty());
    // Each count is what the listing leaves with that value.
    for ((name, value), count) in &values {
        assert!(*count > 0, "{name}={value}");
        assert_eq!(
            total(&shop, &format!("seo_url={slug}&{name}={value}")).await,
            *count,
            "{name}={value}"
        );
    }
    // Every filterable value not offered leaves nothing in this category.
    let all: Vec<(String, String)> = catalog::db::query_as(
        "SELECT a.field_name, v.slug FROM attribute a JOIN attribute_value v ON v.attribute_id = a.id \
         WHERE a.is_filterable ORDER BY v.id",
    )
    .fetch_all(&shop.state.pool)
    .await
    .unwrap();
    let mut missing = 0;
    for (field, value) in all {
        let name = format!("filterby_{field}");
        if values.contains_key(&(name.clone(), value.clone())) {
            continue;
        }
        missing += 1;
        assert_eq!(
            total(&shop, &format!("seo_url={slug}&{name}={value}")).await,
            0,
            "{name}={value} is not offered but finds products"
        );
    }
    assert!(missing > 0, "every value offered: the test proves nothing");
    // The price bounds are the listing's cheapest and dearest.
    let (_, cheap) = ok(
        &shop,
        &format!("/api/category/products?seo_url={slug}&sort_by=price_asc&per_page=1"),
    )
    .await;
    let (_, dear) = ok(
        &shop,
        &format!("/api/category/products?seo_url={slug}&sort_by=price_desc&per_page=1"),
    )
    .await;
    assert_eq!(
        filters["price"]["min"],
        cheap["products"]["data"][0]["product_price_now"]
    );
    assert_eq!(
        filters["price"]["max"],
        dear["products"]["data"][0]["product_price_now"]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn counts_respect_the_other_chosen_filters_and_never_offer_an_empty_combination() {
    let shop = shop().await;
    let slug = top_category(&shop).await;
    let (_, base) = ok(&shop, &format!("/api/category/filters?seo_url={slug}")).await;
    let base_values = offered(&base);
    // The most common value, chosen.
    let ((name, value), _) = base_values
        .iter()
        .max_by_key(|(k, c)| (**c, std::cmp::Reverse((*k).clone())))
        .unwrap();
    let (lo, hi) = (
        base["price"]["min"].as_i64().unwrap(),
        base["price"]["max"].as_i64().unwrap(),
    );
    let mid = (lo + hi) / 2;
    for chosen in [
        format!("{name}={value}"),
        format!("{name}={value}&price_min={lo}&price_max={mid}"),
    ] {
        let (_, filters) = ok(
            &shop,
            &format!("/api/category/filters?seo_url={slug}&{chosen}"),
        )
        .await;
        let now = offered(&filters);
        for ((other, v), count) in &now {
            if other == name {
                // Its own attribute keeps the counts without itself (but
                // with the price range).
                if !chosen.contains("price") {
                    assert_eq!(Some(count), base_values.get(&(other.clone(), v.clone())));
                }
                continue;
            }
            // Any other value offered, with what is chosen, finds exactly
            // its count: never nothing.
            let n = total(&shop, &format!("seo_url={slug}&{chosen}&{other}={v}")).await;
            assert!(n > 0, "{chosen}&{other}={v} finds nothing but is offered");
            assert_eq!(n, *count, "{chosen}&{other}={v}");
        }
        // And the values the choice rules out are not offered.
        for (other, v) in base_values.keys() {
            if other == name || now.contains_key(&(other.clone(), v.clone())) {
                continue;
            }
            assert_eq!(
                total(&shop, &format!("seo_url={slug}&{chosen}&{other}={v}")).await,
                0
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_price_range_filters_on_the_price_paid_and_nonsense_is_a_400_naming_the_field() {
    let shop = shop().await;
    let slug = top_category(&shop).await;
    let (_, filters) = ok(&shop, &format!("/api/category/filters?seo_url={slug}")).await;
    let (lo, hi) = (
        filters["price"]["min"].as_i64().unwrap(),
        filters["price"]["max"].as_i64().unwrap(),
    );
    let (min, max) = (lo + (hi - lo) / 4, lo + (hi - lo) / 2);
    let (_, body) = ok(
        &shop,
        &format!(
            "/api/category/products?seo_url={slug}&per_page=60&price_min={min}&price_max={max}"
        ),
    )
    .await;
    let data = body["products"]["data"].as_array().unwrap();
    assert!(!data.is_empty());
    for p in data {
        let price = p["product_price_now"].as_i64().unwrap();
        assert!(
            (min..=max).contains(&price),
            "{price} outside {min}..={max}"
        );
    }
    let whole = total(&shop, &format!("seo_url={slug}")).await;
    let inside = body["products"]["total"].as_i64().unwrap();
    assert!(inside < whole);
    // The bounds themselves leave everything.
    assert_eq!(
        total(
            &shop,
            &format!("seo_url={slug}&price_min={lo}&price_max={hi}")
        )
        .await,
        whole
    );
    for call in ["products", "filters"] {
        for (query, field) in [
            (format!("price_min={max}&price_max={min}"), "price_min"),
            ("price_min=abc".to_string(), "price_min"),
            ("price_max=12.5".to_string(), "price_max"),
            ("price_min=-1".to_string(), "price_min"),
            ("price_max=1e3".to_string(), "price_max"),
        ] {
            let (status, headers, body) = shop
                .get(&format!("/api/category/{call}?seo_url={slug}&{query}"))
                .await;
            assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
            assert!(body["errors"][field].is_array(), "{call} {query}: {body}");
        }
    }
    // A filter that names nothing is a 404 on filters too.
    let (status, _, _) = shop
        .get(&format!(
            "/api/category/filters?seo_url={slug}&filterby_nope=x"
        ))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The value links of a listing page's filter panel: (href, count).
fn panel_links(html: &str) -> Vec<(String, i64)> {
    let panel = &html[html
        .find("<details><summary>Filters")
        .expect("a filter panel")..];
    let panel = &panel[..panel.find("</details>").unwrap()];
    panel
        .split("<li><a href=\"")
        .skip(1)
        .map(|s| {
            let href = s[..s.find('"').unwrap()].replace("&amp;", "&");
            let span = s.find("<span").unwrap();
            let at = span + s[span..].find(">(").unwrap() + 2;
            let count = s[at..at + s[at..].find(')').unwrap()].parse().unwrap();
            (href, count)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn listing_pages_offer_only_values_with_products_and_a_price_form_that_works_without_script()
{
    let shop = shop().await;
    let slug = top_category(&shop).await;
    // The generator's first page: the category's values, counted.
    let (status, _, body) = shop.fetch("GET", &format!("/c/{slug}"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    let html = String::from_utf8(body.to_vec()).unwrap();
    let (_, filters) = ok(&shop, &format!("/api/category/filters?seo_url={slug}")).await;
    let links = panel_links(&html);
    assert_eq!(links.len(), offered(&filters).len());
    for (href, count) in &links {
        let query = href.split_once('?').unwrap().1;
        assert_eq!(
            total(&shop, &format!("seo_url={slug}&{query}")).await,
            *count,
            "{href}"
        );
    }
    let (lo, hi) = (
        filters["price"]["min"].as_i64().unwrap(),
        filters["price"]["max"].as_i64().unwrap(),
    );
    assert!(html.contains(&format!("<form method=\"get\" action=\"/c/{slug}\"")));
    assert!(html.contains(&format!(
        "name=\"price_min\" inputmode=\"numeric\" min=\"0\" step=\"1\" placeholder=\"{lo}\""
    )));
    assert!(html.contains(&format!(
        "name=\"price_max\" inputmode=\"numeric\" min=\"0\" step=\"1\" placeholder=\"{hi}\""
    )));
    // The form as a browser without script submits it, after a value link:
    // the value rides along as a hidden field, and the origin renders the
    // page with both (the same products as the API).
    let (href, _) = &links[0];
    let (name, value) = href.split_once('?').unwrap().1.split_once('=').unwrap();
    let mid = (lo + hi) / 2;
    let chosen = format!("/c/{slug}?{name}={value}");
    let (_, _, body) = shop.fetch("GET", &chosen, &[]).await;
    let html = String::from_utf8(body.to_vec()).unwrap();
    assert!(html.contains(&format!(
        "<input type=\"hidden\" name=\"{name}\" value=\"{value}\">"
    )));
    let submitted = format!("/c/{slug}?{name}={value}&price_min={lo}&price_max={mid}");
    let (status, _, body) = shop.fetch("GET", &submitted, &[]).await;
    assert_eq!(status, StatusCode::OK);
    let html = String::from_utf8(body.to_vec()).unwrap();
    assert!(
        html.contains(&format!("value=\"{lo}\"")) && html.contains(&format!("value=\"{mid}\""))
    );
    assert!(html.contains("Filters (3)"));
    let (_, api) = ok(
        &shop,
        &format!("/api/category/products?seo_url={slug}&{name}={value}&price_min={lo}&price_max={mid}&sort_by=popularity&per_page=24"),
    )
    .await;
    let api_slugs: Vec<&str> = api["products"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["seo_url"].as_str().unwrap())
        .collect();
    for s in &api_slugs {
        assert!(html.contains(&format!("href=\"/product/{s}\"")), "{s}");
    }
    // Its panel's counts are the facet counts of that choice: each link
    // (which keeps the price range) finds what it says, never nothing.
    let (_, facets) = ok(
        &shop,
        &format!(
            "/api/category/filters?seo_url={slug}&{name}={value}&price_min={lo}&price_max={mid}"
        ),
    )
    .await;
    let links = panel_links(&html);
    assert!(!links.is_empty());
    for (href, count) in &links {
        assert!(*count > 0 || href.is_empty(), "{href}");
        let query = href.split_once('?').unwrap().1;
        assert!(
            query.contains(&format!("price_min={lo}")),
            "{href} keeps the range"
        );
        let key = query
            .split('&')
            .find(|p| p.starts_with("filterby_"))
            .and_then(|p| p.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .unwrap();
        assert_eq!(offered(&facets).get(&key), Some(count), "{href}");
    }
    // Nonsense in the form is left out by the page (never an error page).
    let (status, _, _) = shop
        .fetch(
            "GET",
            &format!("/c/{slug}?price_min=abc&price_max=1.5"),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
}
