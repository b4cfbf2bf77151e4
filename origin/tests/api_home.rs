//! The Home group: status, shape and content of every call, checked against
//! the database, cache headers, and bad input for each parameter.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{arr, assert_public, bad, long, ok, TestShop};
use serde_json::Value;

#[tokio::test]
async fn sliders_are_active_of_the_asked_type_with_images() {
    let shop = TestShop::open().await;
    for kind in [0, 1] {
        let (headers, body) = ok(&shop, &format!("/api/home/sliders?device=0&type={kind}")).await;
        assert_public(&headers, &["home", "sliders"]);
        let sliders = arr(&body["sliders"], "sliders");
        let want = shop
            .scalar_i64(&format!(
                "SELECT COUNT(*) FROM slider WHERE active = TRUE AND type = {kind} AND device = 0"
            ))
            .await;
        assert_eq!(sliders.len() as i64, want);
        assert!(!sliders.is_empty());
        for s in sliders {
            assert_eq!(s["type"], kind);
            assert_eq!(s["active"], true);
            assert!(s["id"].is_i64() && s["image_id"].is_i64() && s["position"].is_i64());
            assert!(s["internal"].is_boolean());
            for k in [
                "url",
                "title",
                "description",
                "color_code",
                "text_color",
                "border_bottom",
            ] {
                assert!(s[k].is_string(), "{k} in {s}");
            }
            assert!(s["image"]["full_size_directory"]
                .as_str()
                .unwrap()
                .starts_with("storage/"));
        }
        let positions: Vec<i64> = sliders
            .iter()
            .map(|s| s["position"].as_i64().unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] <= w[1]));
    }
}

#[tokio::test]
async fn sliders_reject_bad_type_and_device() {
    let shop = TestShop::open().await;
    for q in [
        "type=2",
        "type=-1",
        "type=abc",
        "device=3",
        "device=-1",
        "device=99999999999999999999999",
        "type=1.5",
    ] {
        bad(
            &shop,
            &format!("/api/home/sliders?{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
    bad(
        &shop,
        &format!("/api/home/sliders?device={}", long()),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn top_categories_follow_the_home_category_setting() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/home/top-category").await;
    assert_public(&headers, &["home"]);
    let ids: Vec<i64> = arr(&body["category"], "category")
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![2, 3, 4, 5, 6, 7]);
    for c in arr(&body["category"], "category") {
        assert!(c["name"].is_string() && c["seo_url"].is_string());
        assert!(c["home_img"]["full_size_directory"].is_string(), "{c}");
    }
}

fn assert_card(p: &Value) {
    for k in ["title", "sub_title", "sku", "product_code", "seo_url"] {
        assert!(p[k].is_string(), "{k} in {p}");
    }
    for k in [
        "id",
        "product_price_now",
        "local_selling_price",
        "local_discount",
    ] {
        assert!(p[k].is_i64(), "{k} in {p}");
    }
}

#[tokio::test]
async fn top_offers_are_four_recommended_products_by_serial() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/home/top-offers").await;
    assert_public(&headers, &["home", "products"]);
    let products = arr(&body["products"], "products");
    let recommended = shop
        .scalar_i64("SELECT COUNT(*) FROM product WHERE is_active = TRUE AND recommended = TRUE")
        .await;
    assert_eq!(products.len() as i64, recommended.min(4));
    let mut last = i64::MIN;
    for p in products {
        assert_card(p);
        let id = p["id"].as_i64().unwrap();
        // Purging one product's key drops every strip that shows it.
        assert_public(&headers, &[format!("product:{id}").as_str()]);
        let serial = shop
            .scalar_i64(&format!(
                "SELECT recommended_serial FROM product WHERE id = {id} AND recommended = TRUE"
            ))
            .await;
        assert!(serial >= last);
        last = serial;
    }
}

#[tokio::test]
async fn prebookings_carry_widget_15_and_only_pre_booking_products() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/home/prebookings").await;
    assert_public(&headers, &["home", "widget:15"]);
    assert_eq!(body["info"]["id"], 15);
    assert_eq!(body["info"]["is_active"], true);
    assert!(body["info"]["description"].is_string());
    let products = arr(&body["products"], "products");
    assert!(!products.is_empty() && products.len() <= 4);
    for p in products {
        assert_card(p);
        assert_eq!(p["pre_booking"], true);
    }
}

#[tokio::test]
async fn prebookings_have_no_products_while_the_widget_is_inactive() {
    let shop = TestShop::fresh().await;
    db::query("UPDATE widget SET is_active = FALSE WHERE id = 15")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, body) = ok(&shop, "/api/home/prebookings").await;
    assert_eq!(body["info"]["is_active"], false);
    assert_eq!(body["products"], Value::Array(vec![]));
}

#[tokio::test]
async fn new_arrivals_are_at_most_fifteen_newest() {
    let shop = TestShop::open().await;
    let (_, body) = ok(&shop, "/api/home/new-arrivals").await;
    let products = arr(&body["products"], "products");
    assert_eq!(products.len(), 15);
    products.iter().for_each(assert_card);
}

#[tokio::test]
async fn running_flash_sale_shows_sale_prices_and_its_end() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/home/flash-sales").await;
    assert_public(&headers, &["flash"]);
    let now = catalog::clock::now_unix();
    let schedule = &body["flash_schedule"];
    let id = schedule["id"].as_i64().expect("a running schedule");
    let ends = shop
        .scalar_i64(&format!(
            "SELECT ends_at FROM flash_schedule WHERE id = {id}"
        ))
        .await;
    let starts = shop
        .scalar_i64(&format!(
            "SELECT starts_at FROM flash_schedule WHERE id = {id}"
        ))
        .await;
    assert!(starts <= now && now < ends);
    assert_eq!(schedule["timestamp"], ends);
    assert!(schedule["show_price"].is_boolean());
    assert!(schedule["fs_name"].is_string() && schedule["fs_end_date"].is_string());
    let items = arr(&body["flash_items"], "flash_items");
    for item in items {
        let key = format!("product:{}", item["fi_product_id"]);
        assert_public(&headers, &[key.as_str()]);
    }
    let want = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM flash_item fi JOIN product p ON p.id = fi.product_id \
             WHERE fi.schedule_id = {id} AND p.is_active = TRUE"
        ))
        .await;
    assert_eq!(items.len() as i64, want);
    for item in items {
        let pid = item["fi_product_id"].as_i64().unwrap();
        assert_eq!(item["product"]["id"], pid);
        let d = item["fi_discount"].as_i64().unwrap();
        // The largest running discount wins; with one running sale it is this one.
        let price_now = shop
            .scalar_i64(&format!("SELECT price_now FROM product WHERE id = {pid}"))
            .await;
        assert_eq!(
            item["product"]["product_price_now"],
            catalog::pricing::discounted(price_now, d),
            "{item}"
        );
        assert!(
            item["product"]["product_price_now"].as_i64().unwrap()
                < item["product"]["local_selling_price"].as_i64().unwrap()
        );
    }
}

#[tokio::test]
async fn no_flash_sale_outside_the_schedule_and_normal_prices_on_cards() {
    let shop = TestShop::fresh().await;
    let (_, before) = ok(&shop, "/api/home/flash-sales").await;
    let ids: Vec<i64> = arr(&before["flash_items"], "flash_items")
        .iter()
        .map(|i| i["fi_product_id"].as_i64().unwrap())
        .collect();
    assert!(!ids.is_empty());
    // Move every schedule that runs now into the past.
    let now = catalog::clock::now_unix();
    db::query(
        "UPDATE flash_schedule SET starts_at = $1 - 200000, ends_at = $1 - 100000 \
         WHERE starts_at <= $1 AND ends_at > $1",
    )
    .bind(now)
    .execute(&shop.state.pool)
    .await
    .unwrap();
    let (_, body) = ok(&shop, "/api/home/flash-sales").await;
    assert_eq!(body["flash_schedule"], Value::Null);
    assert_eq!(body["flash_items"], Value::Array(vec![]));
    let (_, body) = ok(&shop, "/api/common/flash-sales").await;
    assert_eq!(body["flash_schedule"], Value::Null);
    assert_eq!(body["flash_items"]["total"], 0);
    // The cards of the former sale items show the regular price again.
    let mut seen = 0;
    for page in 1..=3 {
        let (_, body) = ok(
            &shop,
            &format!("/api/category/products?seo_url=products&per_page=60&page={page}"),
        )
        .await;
        for p in arr(&body["products"]["data"], "products.data") {
            let pid = p["id"].as_i64().unwrap();
            if ids.contains(&pid) {
                let price_now = shop
                    .scalar_i64(&format!("SELECT price_now FROM product WHERE id = {pid}"))
                    .await;
                assert_eq!(p["product_price_now"], price_now, "{p}");
                assert_eq!(p["flash_discount"], Value::Null);
                seen += 1;
            }
        }
    }
    assert_eq!(seen, ids.len());
}

#[tokio::test]
async fn tag_gallary_grows_by_ten_a_page_and_filters_by_category() {
    let shop = TestShop::open().await;
    let home_tiles = shop
        .scalar_i64("SELECT COUNT(*) FROM tag_gallery_item WHERE category_id IS NULL")
        .await;
    let (headers, body) = ok(&shop, "/api/home/tag-gallary?page=1").await;
    assert_public(&headers, &["home"]);
    let tiles = arr(&body["tag_gallary"], "tag_gallary");
    assert_eq!(tiles.len() as i64, home_tiles.min(10));
    for t in tiles {
        for k in ["url", "term_name", "term_url", "image_url"] {
            assert!(t[k].is_string(), "{k} in {t}");
        }
        assert!(t["url_type"].is_i64());
    }
    let terms = arr(&body["terms"], "terms");
    assert!(!terms.is_empty() && terms.len() <= 7);
    assert!(terms
        .iter()
        .all(|t| t["term_name"].is_string() && t["term_url"].is_string()));
    let (_, body) = ok(&shop, "/api/home/tag-gallary?page=2&seo_url=").await;
    assert_eq!(
        arr(&body["tag_gallary"], "tag_gallary").len() as i64,
        home_tiles.min(20)
    );
    let bedroom = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM tag_gallery_item t JOIN category c ON c.id = t.category_id \
             WHERE c.seo_url = 'bedroom'",
        )
        .await;
    assert!(bedroom > 0);
    let (headers, body) = ok(&shop, "/api/home/tag-gallary?seo_url=bedroom&page=3").await;
    assert_public(&headers, &["category:2"]);
    assert_eq!(
        arr(&body["tag_gallary"], "tag_gallary").len() as i64,
        bedroom.min(10)
    );
}

#[tokio::test]
async fn tag_gallary_rejects_bad_input() {
    let shop = TestShop::open().await;
    for q in [
        "page=0",
        "page=-1",
        "page=10001",
        "page=abc",
        "page=99999999999999999999",
    ] {
        bad(
            &shop,
            &format!("/api/home/tag-gallary?{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
    bad(
        &shop,
        "/api/home/tag-gallary?seo_url=no-such-category",
        StatusCode::NOT_FOUND,
    )
    .await;
    bad(
        &shop,
        &format!("/api/home/tag-gallary?seo_url={}", long()),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn news_and_blog_lists_report_the_real_total() {
    let shop = TestShop::open().await;
    for (path, kind) in [("news-events", "news"), ("blog-posts", "blog")] {
        let total = shop
            .scalar_i64(&format!(
                "SELECT COUNT(*) FROM post WHERE kind = '{kind}' AND is_active = TRUE"
            ))
            .await;
        assert!(total > 10);
        let (headers, body) = ok(&shop, &format!("/api/home/{path}")).await;
        assert_public(&headers, &["posts"]);
        assert_eq!(body["dataInfo"]["total_count"], total);
        let posts = arr(&body["posts"], "posts");
        assert_eq!(posts.len(), 10);
        for p in posts {
            assert!(p["id"].is_i64());
            for k in [
                "title",
                "seo_url",
                "image_url",
                "short_description",
                "created_at",
            ] {
                assert!(p[k].is_string(), "{k} in {p}");
            }
            let id = p["id"].as_i64().unwrap();
            let k: String = db::query_scalar("SELECT kind FROM post WHERE id = $1")
                .bind(id)
                .fetch_one(&shop.state.pool)
                .await
                .unwrap();
            assert_eq!(k, kind);
        }
        let (_, body) = ok(&shop, &format!("/api/home/{path}?limit=3")).await;
        assert_eq!(arr(&body["posts"], "posts").len(), 3);
        assert_eq!(body["dataInfo"]["total_count"], total);
        let (_, body) = ok(&shop, &format!("/api/home/{path}?limit=100")).await;
        assert_eq!(arr(&body["posts"], "posts").len() as i64, total);
    }
}

#[tokio::test]
async fn news_and_blog_lists_reject_bad_limits() {
    let shop = TestShop::open().await;
    for path in ["news-events", "blog-posts"] {
        for q in [
            "limit=0",
            "limit=-5",
            "limit=101",
            "limit=ten",
            "limit=1e3",
            "limit=99999999999999999999",
        ] {
            bad(
                &shop,
                &format!("/api/home/{path}?{q}"),
                StatusCode::BAD_REQUEST,
            )
            .await;
        }
    }
}

#[tokio::test]
async fn blog_details_by_slug_and_errors() {
    let shop = TestShop::open().await;
    let (id, slug): (i64, String) = db::query_as(
        "SELECT id, seo_url FROM post WHERE kind = 'blog' AND is_active = TRUE LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let (headers, body) = ok(&shop, &format!("/api/home/blog-details?seo_url={slug}")).await;
    let key = format!("post:{id}");
    assert_public(&headers, &[key.as_str(), "posts"]);
    let post = &body["post"];
    assert_eq!(post["id"], id);
    assert!(post["description"].is_string() && post["time"].is_string());
    assert!(!arr(&post["images"], "images").is_empty());
    bad(
        &shop,
        "/api/home/blog-details?seo_url=no-such-post",
        StatusCode::NOT_FOUND,
    )
    .await;
    bad(&shop, "/api/home/blog-details", StatusCode::BAD_REQUEST).await;
    bad(
        &shop,
        "/api/home/blog-details?seo_url=",
        StatusCode::BAD_REQUEST,
    )
    .await;
    bad(
        &shop,
        &format!("/api/home/blog-details?seo_url={}", long()),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn terms_are_the_top_categories_keyed_by_id() {
    let shop = TestShop::open().await;
    let (_, body) = ok(&shop, "/api/home/terms").await;
    let terms = body["terms"].as_object().expect("terms object");
    let want = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM category WHERE type = 'product' AND parent = 1 \
             AND is_active = TRUE AND is_published = TRUE",
        )
        .await;
    assert_eq!(terms.len() as i64, want);
    for (k, t) in terms {
        assert_eq!(k, &t["id"].as_i64().unwrap().to_string());
        assert_eq!(t["parent"], 1);
        assert!(t["name"].is_string() && t["seo_url"].is_string());
        // Unlike the original, the images are the real paths when set.
        let has_image = shop
            .scalar_i64(&format!(
                "SELECT COUNT(*) FROM category WHERE id = {k} \
                 AND COALESCE(home_image, home_img) IS NOT NULL"
            ))
            .await;
        assert_eq!(t["home_image"].is_string(), has_image == 1, "{t}");
    }
}

#[tokio::test]
async fn product_sets_and_settings() {
    let shop = TestShop::open().await;
    let (headers, body) = ok(&shop, "/api/home/product-set").await;
    assert_public(&headers, &["product_sets"]);
    let sets = arr(&body["product_sets"], "product_sets");
    let active = shop
        .scalar_i64("SELECT COUNT(*) FROM product_set WHERE active = TRUE")
        .await;
    assert_eq!(sets.len() as i64, active.min(10));
    for s in sets {
        assert!(s["title"].is_string() && s["slug"].is_string());
        assert!(s["price"].as_i64().unwrap() > 0);
    }
    let (headers, body) = ok(&shop, "/api/home/settings?sum=0").await;
    assert_public(&headers, &["setting"]);
    assert_eq!(body["setting"]["com_name"], "Regal Furniture");
    assert_eq!(body["setting"]["home_category"], "2|3|4|5|6|7");
}

#[tokio::test]
async fn settings_leave_out_secrets() {
    let shop = TestShop::fresh().await;
    db::query(
        "INSERT INTO setting (name, value) VALUES ('sslcommerz_store_password', 'hunter2'), \
         ('sms_api_key', 'k-123')",
    )
    .execute(&shop.state.pool)
    .await
    .unwrap();
    let (_, body) = ok(&shop, "/api/home/settings").await;
    let setting = body["setting"].as_object().expect("setting object");
    assert!(!setting.contains_key("sslcommerz_store_password"));
    assert!(!setting.contains_key("sms_api_key"));
    assert!(!body.to_string().contains("hunter2"));
    assert_eq!(setting["com_name"], "Regal Furniture");
}
