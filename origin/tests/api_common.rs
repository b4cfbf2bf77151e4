//! The Common group: status, shape and content of every call, checked against
//! the database, cache headers, and bad input for each parameter.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{arr, assert_api_error, assert_public, bad, long, ok, TestShop};
use serde_json::json;

#[tokio::test]
async fn search_finds_products_and_at_most_eight_terms() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/common/main-search-product?keyword=bed").await;
    assert_public(&headers, &["products"]);
    let search = arr(&body["search"], "search");
    assert!(!search.is_empty());
    for hit in search {
        assert_public(&headers, &[format!("product:{}", hit["id"]).as_str()]);
        let seo_url = hit["seo_url"].as_str().unwrap();
        assert_eq!(hit["url"], format!("/product/{seo_url}"));
        assert!(hit["sub_title"].is_string());
        // "bed" in its words, or in a category it is in ("Beds", "Bedroom").
        let id = hit["id"].as_i64().unwrap();
        let matches = shop
            .scalar_i64(&format!(
                "SELECT COUNT(*) FROM product p WHERE p.id = {id} AND p.is_active = TRUE AND \
                 (lower(p.title) LIKE '%bed%' OR lower(p.sub_title) LIKE '%bed%' OR EXISTS (SELECT 1 FROM product_category pc \
                 JOIN category c ON c.id = pc.category_id LEFT JOIN category parent ON parent.id = c.parent \
                 WHERE pc.product_id = p.id AND (lower(c.name) LIKE '%bed%' OR lower(parent.name) LIKE '%bed%')))"
            ))
            .await;
        assert_eq!(matches, 1, "{hit}");
    }
    let terms = arr(&body["terms"], "terms");
    assert!(terms.iter().any(|t| t["name"] == "Beds"), "{body}");
    for t in terms {
        assert!(t["name"].is_string());
        assert!(t["url"].as_str().unwrap().starts_with("/c/"));
    }
}

#[tokio::test]
async fn a_keyword_matching_many_categories_answers_eight_terms() {
    let shop = TestShop::fresh().await;
    for i in 0..10 {
        db::query(
            "INSERT INTO category (name, seo_url, parent, type) VALUES ($1, $2, 21, 'product')",
        )
        .bind(format!("Extra Shelves {i}"))
        .bind(format!("extra-shelves-{i}"))
        .execute(&shop.state.pool)
        .await
        .unwrap();
    }
    shop.state.search.catch_up(&shop.state.pool).await.unwrap();
    let (_, body) = ok(&shop, "/api/common/main-search-product?keyword=extra").await;
    assert_eq!(arr(&body["terms"], "terms").len(), 8, "{body}");
}

#[tokio::test]
async fn search_by_product_code_and_empty_keywords() {
    let shop = TestShop::open().await;
    let code: String =
        db::query_scalar("SELECT product_code FROM product WHERE is_active = TRUE LIMIT 1")
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    let (_, body) = ok(
        &shop,
        &format!("/api/common/main-search-product?keyword={code}"),
    )
    .await;
    assert!(!arr(&body["search"], "search").is_empty(), "{body}");
    for q in [
        "",
        "?keyword=",
        "?keyword=%20%20",
        "?keyword=%00",
        "?keyword=%0A%09",
    ] {
        let (_, body) = ok(&shop, &format!("/api/common/main-search-product{q}")).await;
        assert_eq!(body, json!({ "search": [], "terms": [], "relaxed": false }));
    }
    // Wildcards are literal characters.
    let (_, body) = ok(&shop, "/api/common/main-search-product?keyword=%25%25_").await;
    assert_eq!(body, json!({ "search": [], "terms": [], "relaxed": false }));
    bad(
        &shop,
        &format!("/api/common/main-search-product?keyword={}", long()),
        StatusCode::BAD_REQUEST,
    )
    .await;
    // 200 characters is still fine.
    ok(
        &shop,
        &format!(
            "/api/common/main-search-product?keyword={}",
            "y".repeat(200)
        ),
    )
    .await;
}

#[tokio::test]
async fn header_has_at_most_four_menus_and_titles() {
    let shop = TestShop::fresh().await;
    // More header links than the header shows.
    db::query(
        "INSERT INTO menu_item (menu_id, parent, label, link, sort) VALUES \
         (1, 0, 'Extra one', '/x1', 10), (1, 0, 'Extra two', '/x2', 11)",
    )
    .execute(&shop.state.pool)
    .await
    .unwrap();
    let (headers, body) = ok(&shop, "/api/common/header").await;
    assert_public(&headers, &["menu", "setting"]);
    let menus = arr(&body["menus"], "menus");
    assert_eq!(menus.len(), 4);
    for key in ["menus", "child_menus", "child_sub_menus"] {
        let list = arr(&body[key], key);
        assert!(!list.is_empty());
        for m in list {
            assert!(m["label"].is_string() && m["link"].is_string(), "{m}");
        }
    }
    for key in ["offer_title", "category_title", "flash_sale_title"] {
        assert!(!body[key].as_str().unwrap().is_empty());
    }
}

#[tokio::test]
async fn footer_has_four_titled_columns_and_support() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/common/footer").await;
    assert_public(&headers, &["menu"]);
    let menus = arr(&body["menus"], "menus");
    assert_eq!(menus.len(), 4);
    for col in menus {
        assert!(!col["title"].as_str().unwrap().is_empty());
        let data = arr(&col["data"], "data");
        assert!(!data.is_empty());
        assert!(data
            .iter()
            .all(|l| l["label"].is_string() && l["link"].is_string()));
    }
    assert!(!body["support"].as_str().unwrap().is_empty());
}

#[tokio::test]
async fn product_sets_and_top_offers() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/common/product-set?sum=0").await;
    assert_public(&headers, &["product_sets"]);
    let active = shop
        .scalar_i64("SELECT COUNT(*) FROM product_set WHERE active = TRUE")
        .await;
    assert_eq!(
        arr(&body["product_sets"], "product_sets").len() as i64,
        active
    );
    let (_, body) = ok(&shop, "/api/common/top-offers").await;
    let products = arr(&body["products"], "products");
    let recommended = shop
        .scalar_i64("SELECT COUNT(*) FROM product WHERE is_active = TRUE AND recommended = TRUE")
        .await;
    assert_eq!(products.len() as i64, recommended);
    let ids: Vec<i64> = products.iter().map(|p| p["id"].as_i64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "newest first: {ids:?}");
}

#[tokio::test]
async fn flash_sales_are_paginated_by_thirty() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/common/flash-sales").await;
    assert_public(&headers, &["flash"]);
    let id = body["flash_schedule"]["id"].as_i64().expect("running sale");
    assert!(body["flash_schedule"]["timestamp"].is_i64());
    let total = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM flash_item fi JOIN product p ON p.id = fi.product_id \
             WHERE fi.schedule_id = {id} AND p.is_active = TRUE"
        ))
        .await;
    let page = &body["flash_items"];
    assert_eq!(page["total"], total);
    assert_eq!(page["per_page"], 30);
    assert_eq!(page["current_page"], 1);
    let data = arr(&page["data"], "data");
    assert_eq!(data.len() as i64, total.min(30));
    for item in data {
        assert!(item["product"]["product_price_now"].is_i64());
        assert!(item["fi_discount"].is_i64());
    }
    let (_, body) = ok(&shop, "/api/common/flash-sales?page=2").await;
    assert_eq!(
        arr(&body["flash_items"]["data"], "data").len() as i64,
        (total - 30).max(0)
    );
    for q in ["page=0", "page=-2", "page=10001", "page=two"] {
        bad(
            &shop,
            &format!("/api/common/flash-sales?{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
}

#[tokio::test]
async fn sixty_four_districts_with_divisions_and_bangla_names() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/common/districts").await;
    assert_public(&headers, &["districts"]);
    let districts = arr(&body["districts"], "districts");
    assert_eq!(districts.len(), 64);
    for d in districts {
        for k in ["district", "district_bn", "division", "division_bn"] {
            assert!(!d[k].as_str().unwrap().is_empty(), "{k} in {d}");
        }
        assert!(d["aliases"].is_array());
    }
    let ctg = districts
        .iter()
        .find(|d| d["district"] == "Chattogram")
        .unwrap();
    assert!(arr(&ctg["aliases"], "aliases").contains(&json!("Chittagong")));
}

#[tokio::test]
async fn showrooms_by_district_alias_and_thana() {
    let shop = TestShop::open().await;
    let (headers, all) = ok(&shop, "/api/common/showrooms").await;
    assert_public(&headers, &["showrooms"]);
    let count = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM showroom WHERE is_active = TRUE AND shop_type = 'Showroom'",
        )
        .await;
    assert_eq!(arr(&all["showrooms"], "showrooms").len() as i64, count);
    let (_, by_name) = ok(&shop, "/api/common/showrooms?district=Chattogram").await;
    let (_, by_alias) = ok(&shop, "/api/common/showrooms?district=chittagong").await;
    assert_eq!(by_name, by_alias);
    let list = arr(&by_name["showrooms"], "showrooms");
    assert!(!list.is_empty());
    for s in list {
        assert_eq!(s["district"], "Chattogram");
        assert_eq!(s["shop_type"], "Showroom");
        for k in ["title", "phone", "address", "division", "thana"] {
            assert!(s[k].is_string(), "{k} in {s}");
        }
    }
    let (_, body) = ok(&shop, "/api/common/showrooms?district=Dhaka&thana=Gulshan").await;
    let list = arr(&body["showrooms"], "showrooms");
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["thana"], "Gulshan");
    bad(
        &shop,
        "/api/common/showrooms?district=Atlantis",
        StatusCode::NOT_FOUND,
    )
    .await;
    bad(
        &shop,
        &format!("/api/common/showrooms?district={}", long()),
        StatusCode::BAD_REQUEST,
    )
    .await;
    bad(
        &shop,
        &format!("/api/common/showrooms?district=Dhaka&thana={}", long()),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn chatbuy_points_are_chatbuy_only() {
    let shop = TestShop::open().await;
    let (_, body) = ok(&shop, "/api/common/showroom-chatbuy").await;
    let list = arr(&body["chatbuy"], "chatbuy");
    let count = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM showroom WHERE is_active = TRUE AND shop_type = 'Chatbuy'",
        )
        .await;
    assert_eq!(list.len() as i64, count);
    assert!(list.iter().all(|s| s["shop_type"] == "Chatbuy"));
    bad(
        &shop,
        "/api/common/showroom-chatbuy?district=Nowhere",
        StatusCode::NOT_FOUND,
    )
    .await;
    for q in [format!("district={}", long()), format!("thana={}", long())] {
        bad(
            &shop,
            &format!("/api/common/showroom-chatbuy?{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
    // A district by its Bangla name.
    let (_, dhaka) = ok(
        &shop,
        "/api/common/showroom-chatbuy?district=%E0%A6%A2%E0%A6%BE%E0%A6%95%E0%A6%BE",
    )
    .await;
    let list = arr(&dhaka["chatbuy"], "chatbuy");
    assert!(!list.is_empty());
    assert!(list.iter().all(|s| s["district"] == "Dhaka"), "{dhaka}");
}

#[tokio::test]
async fn page_by_id_and_errors() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/common/page?id=2").await;
    assert_public(&headers, &["page:2"]);
    assert_eq!(body["page"]["id"], 2);
    for k in ["title", "seo_url", "description", "lang"] {
        assert!(body["page"][k].is_string(), "{k}");
    }
    bad(&shop, "/api/common/page?id=999", StatusCode::NOT_FOUND).await;
    for q in [
        "",
        "?id=",
        "?id=abc",
        "?id=-1",
        "?id=0",
        "?id=99999999999999999999999",
        "?id=1.5",
    ] {
        bad(
            &shop,
            &format!("/api/common/page{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
}

#[tokio::test]
async fn all_terms_and_menu_items() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/common/all-terms").await;
    assert_public(&headers, &["categories"]);
    let terms = body["terms"].as_object().expect("terms object");
    let want = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM category WHERE type = 'product' AND is_active = TRUE AND is_published = TRUE",
        )
        .await;
    assert_eq!(terms.len() as i64, want);
    assert!(terms
        .values()
        .all(|t| t["name"].is_string() && t["seo_url"].is_string()));

    let (headers, body) = ok(&shop, "/api/common/menu_items").await;
    assert_public(&headers, &["menu"]);
    let items = arr(&body["menu_items"], "menu_items");
    let top = items.iter().filter(|i| i["parent"] == 21).count() as i64;
    let want = shop
        .scalar_i64("SELECT COUNT(*) FROM menu_item WHERE parent = 21")
        .await;
    assert_eq!(top, want);
    assert!(top > 0);
    assert!(items
        .iter()
        .all(|i| i["id"].is_i64() && i["label"].is_string() && i["link"].is_string()));
}

#[tokio::test]
async fn widgets_five_and_twenty_two() {
    let shop = TestShop::open().await;
    for id in [5, 22] {
        let (headers, body) = ok(&shop, &format!("/api/common/widget?id={id}")).await;
        let key = format!("widget:{id}");
        assert_public(&headers, &[key.as_str()]);
        let w = &body["widget"];
        assert_eq!(w["id"], id);
        assert_eq!(w["is_active"], true);
        assert!(!w["description"].as_str().unwrap().is_empty());
        assert!(w["name"].is_string() && w["type"].is_string());
    }
    bad(&shop, "/api/common/widget?id=9999", StatusCode::NOT_FOUND).await;
    // Without an id: the EMI details (SPEC.md §7 "default 22").
    for q in ["", "?id="] {
        let (headers, body) = ok(&shop, &format!("/api/common/widget{q}")).await;
        assert_public(&headers, &["widget:22"]);
        assert_eq!(body["widget"]["id"], 22);
    }
    for q in ["?id=x", "?id=-5", "?id=0", "?id=123456789012345678901234"] {
        bad(
            &shop,
            &format!("/api/common/widget{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
}

#[tokio::test]
async fn an_inactive_widget_is_returned_with_is_active_false() {
    let shop = TestShop::fresh().await;
    db::query("UPDATE widget SET is_active = FALSE WHERE id = 5")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, body) = ok(&shop, "/api/common/widget?id=5").await;
    assert_eq!(body["widget"]["is_active"], false);
}

#[tokio::test]
async fn seo_content_for_a_page_and_the_site_fallback() {
    let shop = TestShop::open().await;
    let url = "/api/common/get-seo-content";
    let (status, headers, body) = shop
        .post_json(
            url,
            &json!({ "params": { "post_id": 1, "post_type": "page" } }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(headers["cache-control"]
        .to_str()
        .unwrap()
        .contains("no-store"));
    assert_eq!(body["status"], "1");
    for k in ["meta_title", "meta_description", "meta_keywords"] {
        assert!(body["setting"][k].is_string(), "{k}");
    }
    let stored: String = db::query_scalar(
        "SELECT meta_title FROM seo_content WHERE post_type = 'page' AND post_id = 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    assert_eq!(body["setting"]["meta_title"], stored);
    // The id may come as a string, as the original client sends it.
    let (status, _, same) = shop
        .post_json(
            url,
            &json!({ "params": { "post_id": "1", "post_type": "page" } }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(same, body);
    // A whole number written as a float is that number (JSON Schema's integer).
    let (status, _, same) = shop
        .post_json(
            url,
            &json!({ "params": { "post_id": 1.0, "post_type": "page" } }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(same, body);
    // A product with nothing stored: status "0" and the site-wide texts.
    let bare = shop
        .scalar_i64(
            "SELECT MIN(id) FROM product WHERE id NOT IN \
             (SELECT post_id FROM seo_content WHERE post_type = 'product')",
        )
        .await;
    let (status, _, body) = shop
        .post_json(
            url,
            &json!({ "params": { "post_id": bare, "post_type": "product" } }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["status"], "0");
    let site_title: String =
        db::query_scalar("SELECT value FROM setting WHERE name = 'com_metatitle'")
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!(body["setting"]["meta_title"], site_title);
}

#[tokio::test]
async fn seo_content_of_something_that_does_not_exist_is_404() {
    let shop = TestShop::open().await;
    for (post_type, id) in [
        ("product", 987654),
        ("category", 987654),
        ("page", 999),
        ("post", 999),
    ] {
        let (status, headers, body) = shop
            .post_json(
                "/api/common/get-seo-content",
                &json!({ "params": { "post_id": id, "post_type": post_type } }),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn seo_content_rejects_bad_bodies() {
    let shop = TestShop::open().await;
    let url = "/api/common/get-seo-content";
    for body in [
        json!({}),
        json!({ "post_id": 1, "post_type": "page" }),
        json!({ "params": { "post_type": "page" } }),
        json!({ "params": { "post_id": 1 } }),
        json!({ "params": { "post_id": 1, "post_type": "user" } }),
        json!({ "params": { "post_id": -1, "post_type": "page" } }),
        json!({ "params": { "post_id": "abc", "post_type": "page" } }),
        json!({ "params": { "post_id": 1.5, "post_type": "page" } }),
        json!({ "params": { "post_id": 1, "post_type": 7 } }),
        json!({ "params": { "post_id": 1, "post_type": "p".repeat(300) } }),
    ] {
        let (status, headers, resp) = shop.post_json(url, &body).await;
        assert_api_error(status, &headers, &resp, StatusCode::BAD_REQUEST);
    }
    let request = axum::http::Request::post(url)
        .header("content-type", "application/json")
        .body(axum::body::Body::from("{not json"))
        .unwrap();
    let (status, headers, resp) = shop.send(request).await;
    assert_api_error(status, &headers, &resp, StatusCode::BAD_REQUEST);
    // GET is not the method of this call.
    let (status, _, _) = shop.get(url).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}
