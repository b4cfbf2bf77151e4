//! The Category group: status, shape and content of every call, checked
//! against the database, and bad input for each parameter.

mod common;

use catalog::db;
use std::collections::HashSet;

use axum::http::StatusCode;
use common::{arr, assert_api_error, assert_public, text, TestShop};
use serde_json::Value;

async fn ids(shop: &TestShop, sql: &str) -> HashSet<i64> {
    db::query_scalar::<i64>(sql)
        .fetch_all(&shop.state.pool)
        .await
        .expect("ids query")
        .into_iter()
        .collect()
}

fn data_ids(body: &Value) -> Vec<i64> {
    body["products"]["data"]
        .as_array()
        .expect("products.data")
        .iter()
        .map(|p| p["id"].as_i64().expect("id"))
        .collect()
}

/// A top category with products in its sub-categories.
const TOP: i64 = 2;

#[tokio::test]
async fn info_and_sub_categories_name_the_category_and_its_children() {
    let shop = TestShop::open().await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM category WHERE id = {TOP}"),
    )
    .await;
    let (status, headers, body) = shop
        .get(&format!("/api/category/info?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["info"]["id"], TOP);
    assert_eq!(body["info"]["seo_url"], slug.as_str());
    assert!(headers["cache-control"]
        .to_str()
        .unwrap()
        .starts_with("public"));
    assert!(headers["surrogate-key"]
        .to_str()
        .unwrap()
        .contains(&format!("category:{TOP}")));

    let (status, _, body) = shop
        .get(&format!("/api/category/sub-category?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let got: HashSet<i64> = body["category"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    let want = ids(
        &shop,
        &format!(
            "SELECT id FROM category WHERE parent = {TOP} AND is_published = TRUE AND is_active = TRUE"
        ),
    )
    .await;
    assert_eq!(got, want);
    assert!(body["category"][0]["products_count"].is_i64());

    // The root lists the top categories.
    let (status, _, body) = shop
        .get("/api/category/sub-category?seo_url=products")
        .await;
    assert_eq!(status, StatusCode::OK);
    let got: HashSet<i64> = body["category"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    assert!((2..=7).all(|id| got.contains(&id)), "{got:?}");
}

#[tokio::test]
async fn products_belong_to_the_category_or_its_descendants_and_pages_add_up() {
    let shop = TestShop::open().await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM category WHERE id = {TOP}"),
    )
    .await;
    let want = ids(
        &shop,
        &format!(
            "WITH RECURSIVE sub(id) AS (SELECT CAST({TOP} AS BIGINT) UNION ALL SELECT c.id FROM category c JOIN sub ON c.parent = sub.id) \
             SELECT DISTINCT p.id FROM product p JOIN product_category pc ON pc.product_id = p.id \
             WHERE p.is_active = TRUE AND pc.category_id IN (SELECT id FROM sub)"
        ),
    )
    .await;
    assert!(want.len() > 5, "test shop too small: {}", want.len());
    let per_page = 5;
    let (status, _, first) = shop
        .get(&format!(
            "/api/category/products?seo_url={slug}&per_page={per_page}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let p = &first["products"];
    for key in [
        "current_page",
        "data",
        "first_page_url",
        "from",
        "last_page",
        "last_page_url",
        "links",
        "next_page_url",
        "path",
        "per_page",
        "prev_page_url",
        "to",
        "total",
    ] {
        assert!(p.get(key).is_some(), "missing {key}");
    }
    assert_eq!(p["total"].as_u64().unwrap() as usize, want.len());
    let last_page = p["last_page"].as_i64().unwrap();
    assert_eq!(last_page, (want.len() as i64 + per_page - 1) / per_page);
    let mut seen = Vec::new();
    for page in 1..=last_page {
        let (status, _, body) = shop
            .get(&format!(
                "/api/category/products?seo_url={slug}&per_page={per_page}&page={page}"
            ))
            .await;
        assert_eq!(status, StatusCode::OK);
        let card = &body["products"]["data"][0];
        for key in [
            "id",
            "title",
            "seo_url",
            "product_price_now",
            "local_selling_price",
            "image_url",
        ] {
            assert!(card.get(key).is_some(), "card lacks {key}");
        }
        seen.extend(data_ids(&body));
    }
    let unique: HashSet<i64> = seen.iter().copied().collect();
    assert_eq!(unique.len(), seen.len(), "duplicates across pages");
    assert_eq!(unique, want);

    // A page past the end is empty, not an error.
    let (status, _, body) = shop
        .get(&format!(
            "/api/category/products?seo_url={slug}&page={}",
            last_page + 50
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["products"]["data"].as_array().unwrap().is_empty());
    assert!(body["products"]["from"].is_null());

    // The root lists every active product; per_page is capped.
    let all = shop
        .scalar_i64("SELECT COUNT(*) FROM product WHERE is_active = TRUE")
        .await;
    let (_, _, body) = shop
        .get("/api/category/products?seo_url=products&per_page=500")
        .await;
    assert_eq!(body["products"]["total"], all);
    assert_eq!(body["products"]["per_page"], 60);
    assert_eq!(body["products"]["data"].as_array().unwrap().len(), 60);
}

#[tokio::test]
async fn sorts_are_sorted() {
    let shop = TestShop::open().await;
    let url = "/api/category/products?seo_url=products&per_page=60";
    let field = |body: &Value, f: &str| -> Vec<Value> {
        body["products"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p[f].clone())
            .collect()
    };
    let (_, _, body) = shop.get(&format!("{url}&sort_by=price_asc")).await;
    let prices: Vec<i64> = field(&body, "product_price_now")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{prices:?}");
    let (_, _, body) = shop.get(&format!("{url}&sort_by=price_desc")).await;
    let prices: Vec<i64> = field(&body, "product_price_now")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert!(prices.windows(2).all(|w| w[0] >= w[1]), "{prices:?}");
    let (_, _, body) = shop.get(&format!("{url}&sort_by=title_asc")).await;
    let titles: Vec<String> = field(&body, "title")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(titles.windows(2).all(|w| w[0] <= w[1]), "{titles:?}");
    let (_, _, body) = shop.get(&format!("{url}&sort_by=title_desc")).await;
    let titles: Vec<String> = field(&body, "title")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(titles.windows(2).all(|w| w[0] >= w[1]), "{titles:?}");
    for sort in ["date_desc", "popularity"] {
        let col = if sort == "date_desc" {
            "created_at"
        } else {
            "popularity"
        };
        let (status, _, body) = shop.get(&format!("{url}&sort_by={sort}")).await;
        assert_eq!(status, StatusCode::OK);
        let mut values = Vec::new();
        for id in data_ids(&body) {
            values.push(
                shop.scalar_i64(&format!("SELECT {col} FROM product WHERE id = {id}"))
                    .await,
            );
        }
        assert!(
            values.windows(2).all(|w| w[0] >= w[1]),
            "{sort}: {values:?}"
        );
    }
}

#[tokio::test]
async fn price_attribute_category_and_keyword_filters_really_filter() {
    let shop = TestShop::open().await;
    // Price range on the price a shopper pays now.
    let (_, _, body) = shop
        .get("/api/category/products?seo_url=products&per_page=60&price_min=20000&price_max=60000")
        .await;
    let data = body["products"]["data"].as_array().unwrap();
    assert!(!data.is_empty());
    for p in data {
        let price = p["product_price_now"].as_i64().unwrap();
        assert!((20_000..=60_000).contains(&price), "{price}");
    }
    let (_, _, all) = shop.get("/api/category/products?seo_url=products").await;
    assert!(body["products"]["total"].as_i64() < all["products"]["total"].as_i64());
    // A minimum above the maximum is a 400 naming price_min (issue 15).
    let (status, _, reversed) = shop
        .get("/api/category/products?seo_url=products&per_page=60&price_min=60000&price_max=20000")
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{reversed}");
    assert!(reversed["errors"]["price_min"].is_array(), "{reversed}");

    // One attribute value: every product has it, and the count matches SQL.
    let (field, slug, value_id): (String, String, i64) = db::query_as(
        "SELECT a.field_name, v.slug, v.id FROM attribute_value v JOIN attribute a ON a.id = v.attribute_id \
         JOIN product_attribute pa ON pa.attribute_value_id = v.id GROUP BY v.id, a.field_name ORDER BY COUNT(*) DESC, v.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let (status, _, body) = shop
        .get(&format!(
            "/api/category/products?seo_url=products&per_page=60&filterby_{field}={slug}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let want = ids(&shop, &format!("SELECT pa.product_id FROM product_attribute pa JOIN product p ON p.id = pa.product_id WHERE p.is_active = TRUE AND pa.attribute_value_id = {value_id}")).await;
    assert_eq!(
        body["products"]["total"].as_u64().unwrap() as usize,
        want.len()
    );
    assert!(data_ids(&body).iter().all(|id| want.contains(id)));

    // filterby_category narrows to one sub-category.
    let sub = shop
        .scalar_i64(&format!("SELECT c.id FROM category c JOIN product_category pc ON pc.category_id = c.id WHERE c.parent = {TOP} GROUP BY c.id ORDER BY COUNT(*) DESC, c.id LIMIT 1"))
        .await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM category WHERE id = {TOP}"),
    )
    .await;
    let (status, _, body) = shop
        .get(&format!(
            "/api/category/products?seo_url={slug}&per_page=60&filterby_category={sub}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let want = ids(&shop, &format!("SELECT pc.product_id FROM product_category pc JOIN product p ON p.id = pc.product_id WHERE p.is_active = TRUE AND pc.category_id = {sub}")).await;
    assert_eq!(data_ids(&body).into_iter().collect::<HashSet<_>>(), want);

    // Keyword on product code.
    let code = text(
        &shop,
        "SELECT product_code FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1",
    )
    .await;
    let (_, _, body) = shop
        .get(&format!(
            "/api/category/products?seo_url=products&keyword={code}"
        ))
        .await;
    assert!(body["products"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["product_code"] == code.as_str()));
}

#[tokio::test]
async fn a_flash_sale_price_applies_only_inside_its_schedule() {
    let shop = TestShop::fresh().await;
    let (id, price_now, discount): (i64, i64, i64) = db::query_as(
        "SELECT p.id, p.price_now, fi.discount_percent FROM flash_item fi JOIN product p ON p.id = fi.product_id \
         WHERE fi.schedule_id = 1 AND p.is_active = TRUE ORDER BY p.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let code = text(
        &shop,
        &format!("SELECT product_code FROM product WHERE id = {id}"),
    )
    .await;
    let find = |body: &Value| {
        body["products"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .cloned()
    };
    let url = format!("/api/category/products?seo_url=products&keyword={code}");
    let (_, _, body) = shop.get(&url).await;
    let card = find(&body).expect("flash item listed");
    assert_eq!(
        card["product_price_now"],
        catalog::pricing::discounted(price_now, discount)
    );
    // Move the schedule into the past.
    db::query("UPDATE flash_schedule SET starts_at = unixepoch() - 7200, ends_at = unixepoch() - 3600 WHERE id = 1")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, _, body) = shop.get(&url).await;
    let card = find(&body).expect("still listed");
    assert_eq!(card["product_price_now"], price_now);
}

#[tokio::test]
async fn filters_tag_gallery_recommended_and_product_sets_have_their_shapes() {
    let shop = TestShop::open().await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM category WHERE id = {TOP}"),
    )
    .await;
    let (status, _, body) = shop
        .get(&format!("/api/category/filters?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["filters_cat"]["parent_cat"]["id"], TOP);
    assert!(!body["filters_cat"]["sub_menu"]
        .as_array()
        .unwrap()
        .is_empty());
    let att = &body["filters_att"][0];
    for key in ["id", "field_label", "field_name", "values"] {
        assert!(att.get(key).is_some(), "filters_att lacks {key}");
    }
    assert!(att["values"][0]["slug"].is_string());

    let (status, _, body) = shop
        .get(&format!("/api/category/tag-gallery?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let tiles = body["tag_gallery"].as_array().unwrap();
    assert!(!tiles.is_empty() && tiles.len() <= 7);
    assert_eq!(tiles[0]["category_id"], slug.as_str());

    let (status, _, body) = shop
        .get(&format!("/api/category/recommended?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["products"]["per_page"], 16);

    let (status, _, body) = shop.get("/api/category/product-set?seo_url=products").await;
    assert_eq!(status, StatusCode::OK);
    let sets = body["product_sets"].as_array().unwrap();
    assert!(!sets.is_empty());
    let set = &sets[0];
    assert_eq!(set["type"], "product_set");
    let id = set["id"].as_i64().unwrap();
    let now = catalog::clock::now_unix();
    let want = shop
        .scalar_i64(&format!(
            "SELECT CAST(SUM(i.qty * {}) AS BIGINT) FROM product_set_item i JOIN product p ON p.id = i.product_id WHERE i.product_set_id = {id}",
            catalog::pricing::effective_price_sql(now)
        ))
        .await;
    assert_eq!(set["price_all"], want);
    let price = set["price_all"].as_i64().unwrap();
    let (_, _, body) = shop
        .get(&format!(
            "/api/category/product-set?seo_url=products&price_min={}&price_max={}",
            price + 1,
            price + 2
        ))
        .await;
    assert!(body["product_sets"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["id"] != id));
    // A minimum above the maximum is read as the range between them.
    let (status, _, body) = shop
        .get(&format!(
            "/api/category/product-set?seo_url=products&price_min={}&price_max={}",
            price + 1,
            price - 1
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["product_sets"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["id"] == id));
}

#[tokio::test]
async fn bad_input_gets_a_json_400_and_unknown_slugs_a_404() {
    let shop = TestShop::open().await;
    let long = "x".repeat(201);
    for ep in [
        "info",
        "sub-category",
        "recommended",
        "filters",
        "tag-gallery",
        "product-set",
        "products",
    ] {
        let (s, h, b) = shop.get(&format!("/api/category/{ep}")).await;
        assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
        let (s, h, b) = shop.get(&format!("/api/category/{ep}?seo_url=")).await;
        assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
        let (s, h, b) = shop
            .get(&format!("/api/category/{ep}?seo_url={long}"))
            .await;
        assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
        let (s, h, b) = shop
            .get(&format!("/api/category/{ep}?seo_url=no-such-category"))
            .await;
        assert_api_error(s, &h, &b, StatusCode::NOT_FOUND);
        assert_eq!(h["cache-control"], "no-store");
    }
    let base = "/api/category/products?seo_url=products";
    for bad in [
        "&page=0",
        "&page=-1",
        "&page=abc",
        "&page=99999999999999999999999",
        "&page=1000000000",
        "&per_page=0",
        "&per_page=-5",
        "&per_page=100000",
        "&sort_show=x",
        "&sort_by=cheapest",
        "&price_min=-1",
        "&price_max=1e9",
        "&price_max=99999999999999",
        "&filterby_category=abc",
        "&filterby_category=3%7Cx",
    ] {
        let (s, h, b) = shop.get(&format!("{base}{bad}")).await;
        assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
    }
    let (s, h, b) = shop.get(&format!("{base}&keyword={long}")).await;
    assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
    let (s, h, b) = shop.get(&format!("{base}&filterby_material={long}")).await;
    assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
    // Well formed, but naming what the shop does not have: a 404, as an
    // unknown seo_url (the document cannot list the data).
    for unknown in [
        "&filterby_category=99999",
        "&filterby_nonsense=x",
        "&filterby_material=no-such-value",
    ] {
        let (s, h, b) = shop.get(&format!("{base}{unknown}")).await;
        assert_api_error(s, &h, &b, StatusCode::NOT_FOUND);
    }
    // A sub-category outside the asked category's subtree.
    let outside = shop
        .scalar_i64("SELECT id FROM category WHERE parent = 3 LIMIT 1")
        .await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM category WHERE id = {TOP}"),
    )
    .await;
    let (s, h, b) = shop
        .get(&format!(
            "/api/category/products?seo_url={slug}&filterby_category={outside}"
        ))
        .await;
    assert_api_error(s, &h, &b, StatusCode::NOT_FOUND);
    for bad in ["&price_min=x", "&price_max=-3"] {
        let (s, h, b) = shop
            .get(&format!("/api/category/product-set?seo_url=products{bad}"))
            .await;
        assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
    }
    let (s, h, b) = shop
        .get("/api/category/recommended?seo_url=products&page=0")
        .await;
    assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_root_lists_the_top_categories_shown_on_the_products_page() {
    let shop = TestShop::open().await;
    let (status, _, body) = shop
        .get("/api/category/sub-category?seo_url=products")
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let got: HashSet<i64> = body["category"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    let want = ids(
        &shop,
        "SELECT id FROM category WHERE parent = 1 AND type = 'product' AND in_product_home = TRUE \
         AND is_published = TRUE AND is_active = TRUE",
    )
    .await;
    assert!(!want.is_empty());
    assert_eq!(got, want);
    // Each tile counts the active products of its subtree.
    for c in body["category"].as_array().unwrap() {
        let id = c["id"].as_i64().unwrap();
        let n = shop
            .scalar_i64(&format!(
                "WITH RECURSIVE sub(id) AS (SELECT CAST({id} AS BIGINT) UNION ALL SELECT c.id FROM category c JOIN sub ON c.parent = sub.id) \
                 SELECT COUNT(DISTINCT pc.product_id) FROM product_category pc JOIN product p ON p.id = pc.product_id \
                 WHERE p.is_active = TRUE AND pc.category_id IN (SELECT id FROM sub)"
            ))
            .await;
        assert_eq!(c["products_count"], n, "category {id}");
    }
}

#[tokio::test]
async fn values_of_one_attribute_are_ored_and_attributes_anded() {
    let shop = TestShop::open().await;
    // The two most used values of the most used attribute, and the most used
    // value of another attribute.
    let (field_a, attr_a): (String, i64) = db::query_as(
        "SELECT a.field_name, a.id FROM attribute a JOIN attribute_value v ON v.attribute_id = a.id \
         JOIN product_attribute pa ON pa.attribute_value_id = v.id WHERE a.is_filterable = TRUE \
         GROUP BY a.id HAVING COUNT(DISTINCT v.id) >= 2 ORDER BY COUNT(*) DESC, a.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let values_a: Vec<(i64, String)> = db::query_as(&format!(
        "SELECT v.id, v.slug FROM attribute_value v JOIN product_attribute pa ON pa.attribute_value_id = v.id \
         WHERE v.attribute_id = {attr_a} GROUP BY v.id ORDER BY COUNT(*) DESC, v.id LIMIT 2"
    ))
    .fetch_all(&shop.state.pool)
    .await
    .unwrap();
    let (field_b, value_b, slug_b): (String, i64, String) = db::query_as(&format!(
        "SELECT a.field_name, v.id, v.slug FROM attribute a JOIN attribute_value v ON v.attribute_id = a.id \
         JOIN product_attribute pa ON pa.attribute_value_id = v.id WHERE a.is_filterable = TRUE AND a.id <> {attr_a} \
         GROUP BY v.id, a.field_name ORDER BY COUNT(*) DESC, v.id LIMIT 1"
    ))
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let having = |value: i64| {
        format!("SELECT pa.product_id FROM product_attribute pa JOIN product p ON p.id = pa.product_id WHERE p.is_active = TRUE AND pa.attribute_value_id = {value}")
    };
    let either: HashSet<i64> = ids(&shop, &having(values_a[0].0))
        .await
        .union(&ids(&shop, &having(values_a[1].0)).await)
        .copied()
        .collect();
    let both: HashSet<i64> = either
        .intersection(&ids(&shop, &having(value_b)).await)
        .copied()
        .collect();
    let ored = format!("filterby_{field_a}={}%7C{}", values_a[0].1, values_a[1].1);

    let all_ids = |body: Value| -> HashSet<i64> { data_ids(&body).into_iter().collect() };
    let (status, _, body) = shop
        .get(&format!(
            "/api/category/products?seo_url=products&per_page=60&{ored}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["products"]["total"].as_u64().unwrap() as usize,
        either.len()
    );
    if either.len() <= 60 {
        assert_eq!(all_ids(body), either);
    }
    let (status, _, body) = shop
        .get(&format!(
            "/api/category/products?seo_url=products&per_page=60&{ored}&filterby_{field_b}={slug_b}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["products"]["total"].as_u64().unwrap() as usize,
        both.len()
    );
    assert!(both.len() <= 60, "test shop grew: use pages");
    assert_eq!(all_ids(body), both);
    assert!(
        both.len() < either.len(),
        "the second attribute narrowed nothing"
    );
}

#[tokio::test]
async fn every_offered_filter_value_finds_products_of_the_category() {
    let shop = TestShop::open().await;
    let slug = text(
        &shop,
        "SELECT c.seo_url FROM category c JOIN product_category pc ON pc.category_id = c.id \
         WHERE c.parent <> 1 GROUP BY c.id ORDER BY COUNT(*) DESC, c.id LIMIT 1",
    )
    .await;
    let (_, _, filters) = shop
        .get(&format!("/api/category/filters?seo_url={slug}"))
        .await;
    let (_, _, all) = shop
        .get(&format!("/api/category/products?seo_url={slug}"))
        .await;
    let total = all["products"]["total"].as_i64().unwrap();
    let mut checked = 0;
    for att in filters["filters_att"].as_array().unwrap() {
        let field = att["field_name"].as_str().unwrap();
        for v in att["values"].as_array().unwrap() {
            let value = v["slug"].as_str().unwrap();
            let (status, _, body) = shop
                .get(&format!(
                    "/api/category/products?seo_url={slug}&filterby_{field}={value}"
                ))
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            let n = body["products"]["total"].as_i64().unwrap();
            assert!(n > 0 && n <= total, "{field}={value}: {n} of {total}");
            checked += 1;
        }
    }
    assert!(checked > 0, "no filter values offered for {slug}");
}

#[tokio::test]
async fn keyword_wildcards_match_literally_and_sort_show_sets_the_page_size() {
    let shop = TestShop::open().await;
    for kw in ["%25", "_", "%5C"] {
        let (status, _, body) = shop
            .get(&format!(
                "/api/category/products?seo_url=products&keyword={kw}"
            ))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["products"]["total"], 0, "keyword {kw}");
    }
    // A word of a title finds it; case does not matter.
    let title = text(
        &shop,
        "SELECT title FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1",
    )
    .await;
    let word = title.split_whitespace().next().unwrap().to_uppercase();
    let (_, _, body) = shop
        .get(&format!(
            "/api/category/products?seo_url=products&keyword={word}&sort_show=60"
        ))
        .await;
    let titles: Vec<String> = body["products"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {}",
                p["title"], p["sub_title"], p["product_code"], p["sku"]
            )
            .to_uppercase()
        })
        .collect();
    assert!(!titles.is_empty());
    assert!(
        titles.iter().all(|t| t.contains(&word)),
        "{word}: {titles:?}"
    );
    assert_eq!(body["products"]["per_page"], 60);
    // The `time` cache-buster and `cat_name` are accepted and left out of links.
    let (status, _, body) = shop
        .get(
            "/api/category/products?seo_url=products&cat_name=Products&time=1700000000&sort_show=3",
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["products"]["data"].as_array().unwrap().len(), 3);
    let next = body["products"]["next_page_url"].as_str().unwrap();
    assert!(next.contains("page=2") && !next.contains("time="), "{next}");
}

#[tokio::test]
async fn recommended_pages_through_the_category_recommended_first() {
    let shop = TestShop::open().await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM category WHERE id = {TOP}"),
    )
    .await;
    let (_, _, first) = shop
        .get(&format!("/api/category/recommended?seo_url={slug}"))
        .await;
    let (_, _, all) = shop
        .get(&format!("/api/category/products?seo_url={slug}"))
        .await;
    assert_eq!(first["products"]["total"], all["products"]["total"]);
    let last = first["products"]["last_page"].as_i64().unwrap();
    let mut seen = Vec::new();
    for page in 1..=last {
        let (status, _, body) = shop
            .get(&format!(
                "/api/category/recommended?seo_url={slug}&page={page}"
            ))
            .await;
        assert_eq!(status, StatusCode::OK);
        seen.extend(data_ids(&body));
    }
    assert_eq!(
        seen.len() as i64,
        first["products"]["total"].as_i64().unwrap()
    );
    let mut flags = Vec::new();
    for id in &seen {
        flags.push(
            shop.scalar_i64(&format!("SELECT CAST(CASE WHEN recommended THEN 1 ELSE 0 END AS BIGINT) FROM product WHERE id = {id}"))
                .await,
        );
    }
    assert!(
        flags.windows(2).all(|w| w[0] >= w[1]),
        "recommended first: {flags:?}"
    );
}

#[tokio::test]
async fn listings_are_public_and_expire_by_the_next_flash_sale_boundary() {
    let shop = TestShop::open().await;
    let (status, headers, _) = shop.get("/api/category/products?seo_url=products").await;
    assert_eq!(status, StatusCode::OK);
    let now = catalog::clock::now_unix();
    let next = shop
        .scalar_i64(&format!(
            "SELECT COALESCE(MIN(t), 0) FROM (SELECT starts_at AS t FROM flash_schedule WHERE is_active = TRUE AND starts_at > {now} \
             UNION ALL SELECT ends_at FROM flash_schedule WHERE is_active = TRUE AND ends_at > {now}) AS boundary"
        ))
        .await;
    let cdn = headers["cdn-cache-control"].to_str().unwrap();
    let max_age: i64 = cdn
        .split(',')
        .find_map(|d| d.trim().strip_prefix("max-age="))
        .unwrap()
        .parse()
        .unwrap();
    if next > 0 {
        assert!(
            max_age <= next - now + 1,
            "{cdn}, next boundary in {}",
            next - now
        );
    }
    let keys = headers["surrogate-key"].to_str().unwrap();
    assert!(
        keys.contains("products") && keys.contains("category:1"),
        "{keys}"
    );
}

#[tokio::test]
async fn malformed_query_strings_get_json_errors_not_panics() {
    let shop = TestShop::open().await;
    for uri in [
        "/api/category/products?seo_url=%FF%FE",
        "/api/category/products?seo_url=products&page=%FF",
        "/api/category/products?seo_url=products&page=1.5",
        "/api/category/products?seo_url=products&page=%00",
        "/api/category/products?seo_url=products&price_min=1e3",
        "/api/category/products?seo_url=products&filterby_category=1%7C%7Cx",
        "/api/category/products?seo_url=products&filterby_=x",
        "/api/category/info?seo_url=%00",
        "/api/category/info?seo_url=../../etc/passwd",
        "/api/category/info?seo_url=products'--",
    ] {
        let (s, h, b) = shop.get(uri).await;
        assert!(
            s == StatusCode::BAD_REQUEST || s == StatusCode::NOT_FOUND,
            "{uri}: {s} {b}"
        );
        assert_api_error(s, &h, &b, s);
    }
}

#[tokio::test]
async fn the_price_filter_uses_the_flash_price_only_while_the_sale_runs() {
    let shop = TestShop::fresh().await;
    let (id, price_now, discount): (i64, i64, i64) = db::query_as(
        "SELECT p.id, p.price_now, fi.discount_percent FROM flash_item fi JOIN product p ON p.id = fi.product_id \
         WHERE fi.schedule_id = 1 AND p.is_active = TRUE AND fi.discount_percent >= 10 ORDER BY p.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    // Only schedule 1 may price this product.
    db::query("DELETE FROM flash_item WHERE product_id = $1 AND schedule_id <> 1")
        .bind(id)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let sale = catalog::pricing::discounted(price_now, discount);
    assert!(sale < price_now);
    // A window that holds the sale price but not the regular one.
    let url = format!(
        "/api/category/products?seo_url=products&per_page=60&price_min={sale}&price_max={sale}"
    );
    let listed = |body: &Value| data_ids(body).contains(&id);
    let (status, _, body) = shop.get(&url).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(listed(&body), "on sale at {sale}: {body}");

    let set = |starts: i64, ends: i64| {
        format!(
            "UPDATE flash_schedule SET starts_at = unixepoch() + ({starts}), ends_at = unixepoch() + ({ends}) WHERE id = 1"
        )
    };
    for (label, sql) in [
        ("not started", set(3_600, 7_200)),
        ("over", set(-7_200, -1)),
    ] {
        db::query(&sql).execute(&shop.state.pool).await.unwrap();
        let (_, _, body) = shop.get(&url).await;
        assert!(!listed(&body), "{label}: listed at the sale price");
        let (_, _, body) = shop
            .get(&format!(
                "/api/category/products?seo_url=products&per_page=60&price_min={price_now}&price_max={price_now}"
            ))
            .await;
        assert!(listed(&body), "{label}: not listed at its regular price");
    }
    // Running again (just started): the sale price is back.
    db::query(&set(-1, 3_600))
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, headers, body) = shop.get(&url).await;
    assert!(listed(&body), "restarted sale");
    // The listing expires when the sale ends, within the hour.
    let cdn = headers["cdn-cache-control"].to_str().unwrap();
    let max_age: i64 = cdn
        .split(',')
        .find_map(|d| d.trim().strip_prefix("max-age="))
        .unwrap()
        .parse()
        .unwrap();
    assert!(max_age <= 3_600, "{cdn}");
}

/// A price change purged by product key (`generator watch`) must reach the
/// category lists that show that product, not only its own page.
#[tokio::test]
async fn category_lists_are_tagged_with_each_listed_product() {
    let shop = TestShop::open().await;
    for path in ["products", "recommended"] {
        let (status, headers, body) = shop
            .get(&format!("/api/category/{path}?seo_url=products"))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let listed: Vec<String> = arr(&body["products"]["data"], "data")
            .iter()
            .map(|p| format!("product:{}", p["id"]))
            .collect();
        assert!(!listed.is_empty(), "{path} lists products");
        let mut want: Vec<&str> = listed.iter().map(String::as_str).collect();
        want.extend(["products", "category:1"]);
        assert_public(&headers, &want);
    }
}
