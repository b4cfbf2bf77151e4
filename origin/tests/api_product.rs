//! The Product group: status, shape and content of every call, checked
//! against the database, and bad input for each parameter.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use catalog::db;
use common::{assert_api_error, text, TestShop};

/// SQL: a product sold from EMI's minimum price and in no flash sale (whose
/// price could fall below it).
fn emi_priced() -> String {
    format!(
        "p.price_now >= {} AND p.id NOT IN (SELECT product_id FROM flash_item)",
        catalog::pricing::EMI_MIN_PRICE
    )
}

const PRODUCT_CALLS: [&str; 11] = [
    "simple-info",
    "info",
    "images",
    "360degreeImages",
    "similar-products",
    "same-category-products",
    "goes-well-with",
    "other-also-see",
    "question-index",
    "comment-index",
    "product-variation",
];
const SET_CALLS: [&str; 4] = [
    "product-set-products",
    "product-set-info",
    "product-set-fabrics",
    "product-set-additional-info",
];

#[tokio::test]
async fn info_carries_prices_attributes_categories_and_emi() {
    let shop = TestShop::open().await;
    let id = shop
        .scalar_i64(&format!("SELECT p.id FROM product p WHERE p.is_active = TRUE AND p.emi_available = TRUE AND EXISTS (SELECT 1 FROM product_emi e WHERE e.product_id = p.id) AND EXISTS (SELECT 1 FROM product_attribute a WHERE a.product_id = p.id) AND {} ORDER BY p.id LIMIT 1", emi_priced()))
        .await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {id}"),
    )
    .await;
    for call in ["info", "simple-info"] {
        let (status, headers, body) = shop
            .get(&format!("/api/product/{call}?seo_url={slug}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(headers["surrogate-key"]
            .to_str()
            .unwrap()
            .contains(&format!("product:{id}")));
        let p = &body["product"];
        assert_eq!(p["id"], id);
        for key in [
            "title",
            "product_code",
            "sku",
            "local_selling_price",
            "price_now",
            "stock_status",
            "attrs",
            "categories",
            "variations",
            "emi",
        ] {
            assert!(p.get(key).is_some(), "{call} lacks {key}");
        }
        assert!(p["attrs"][0]["field_label"].is_string() && p["attrs"][0]["value"].is_string());
        assert!(!p["categories"].as_array().unwrap().is_empty());
        assert_eq!(p["emi"]["available"], true);
        assert!(p["emi"]["from_per_month"].as_i64().unwrap() > 0);
    }
    // simple-info has no side effect.
    let views = shop
        .scalar_i64("SELECT COUNT(*) FROM recently_viewed")
        .await;
    shop.get(&format!("/api/product/simple-info?seo_url={slug}"))
        .await;
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM recently_viewed")
            .await,
        views
    );
}

#[tokio::test]
async fn a_flash_item_shows_its_sale_price_only_inside_the_schedule() {
    let shop = TestShop::fresh().await;
    let (id, price_now, discount): (i64, i64, i64) = db::query_as(
        "SELECT p.id, p.price_now, fi.discount_percent FROM flash_item fi JOIN product p ON p.id = fi.product_id \
         WHERE fi.schedule_id = 1 AND p.is_active = TRUE ORDER BY p.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {id}"),
    )
    .await;
    let (_, _, body) = shop.get(&format!("/api/product/info?seo_url={slug}")).await;
    assert_eq!(
        body["product"]["price_now"],
        catalog::pricing::discounted(price_now, discount)
    );
    assert_eq!(body["product"]["flash_item_information"]["schedule_id"], 1);
    db::query("UPDATE flash_schedule SET starts_at = unixepoch() - 7200, ends_at = unixepoch() - 3600 WHERE id = 1")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, _, body) = shop.get(&format!("/api/product/info?seo_url={slug}")).await;
    assert_eq!(body["product"]["price_now"], price_now);
    assert!(body["product"]["flash_item_information"].is_null());
}

#[tokio::test]
async fn images_frames_related_lists_questions_and_variations() {
    let shop = TestShop::open().await;
    let id = shop
        .scalar_i64("SELECT product_id FROM product_360_frame f JOIN product p ON p.id = f.product_id WHERE p.is_active = TRUE GROUP BY product_id ORDER BY product_id LIMIT 1")
        .await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {id}"),
    )
    .await;
    let (status, _, body) = shop
        .get(&format!("/api/product/360degreeImages?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["images"].as_array().unwrap().len(), 36);
    let first = text(&shop, &format!("SELECT f.full_size_directory FROM product_360_frame r JOIN image_file f ON f.id = r.image_file_id WHERE r.product_id = {id} ORDER BY r.frame_no LIMIT 1")).await;
    assert_eq!(body["images"][0], first.as_str());
    let (_, _, body) = shop
        .get(&format!("/api/product/images?seo_url={slug}"))
        .await;
    let n = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM product_image WHERE product_id = {id}"
        ))
        .await;
    assert_eq!(body["images"].as_array().unwrap().len() as i64, n);
    assert_eq!(body["degree_images"].as_array().unwrap().len(), 36);
    assert!(body.get("youtubeLink").is_some());

    for (call, key) in [
        ("similar-products", "similar_products"),
        ("same-category-products", "products"),
        ("goes-well-with", "products"),
        ("other-also-see", "products"),
    ] {
        let (status, _, body) = shop
            .get(&format!("/api/product/{call}?seo_url={slug}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{call}");
        let list = body[key]
            .as_array()
            .unwrap_or_else(|| panic!("{call}: {body}"));
        assert!(!list.is_empty(), "{call} empty");
        assert!(
            list.iter().all(|c| c["id"].is_i64() && c["id"] != id),
            "{call}"
        );
    }

    let qid = shop
        .scalar_i64("SELECT q.product_id FROM product_question q JOIN product p ON p.id = q.product_id WHERE q.is_active = TRUE AND p.is_active = TRUE GROUP BY q.product_id ORDER BY COUNT(*) DESC, q.product_id LIMIT 1")
        .await;
    let qslug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {qid}"),
    )
    .await;
    let (status, _, body) = shop
        .get(&format!(
            "/api/product/question-index?seo_url={qslug}&limit=1"
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
    let qs = body["questions"].as_array().unwrap();
    assert_eq!(qs.len(), 1);
    for key in ["username", "description", "time", "answers"] {
        assert!(qs[0].get(key).is_some(), "question lacks {key}");
    }
    let (status, _, body) = shop
        .get(&format!("/api/product/comment-index?seo_url={qslug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["comments"].is_array());

    let vid = shop
        .scalar_i64("SELECT v.product_id FROM product_variation v JOIN product p ON p.id = v.product_id WHERE p.is_active = TRUE ORDER BY v.product_id LIMIT 1")
        .await;
    let vslug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {vid}"),
    )
    .await;
    let (status, _, body) = shop
        .get(&format!("/api/product/product-variation?seo_url={vslug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let n = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM product_variation WHERE product_id = {vid}"
        ))
        .await;
    let got: usize = body["productVariationsList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["variations"].as_array().unwrap().len())
        .sum();
    assert_eq!(got as i64, n);
}

#[tokio::test]
async fn product_set_calls_answer_by_slug_with_price_all() {
    let shop = TestShop::open().await;
    let id = shop
        .scalar_i64("SELECT id FROM product_set WHERE active = TRUE ORDER BY id LIMIT 1")
        .await;
    let slug = text(
        &shop,
        &format!("SELECT slug FROM product_set WHERE id = {id}"),
    )
    .await;
    let (status, headers, body) = shop
        .get(&format!("/api/product/product-set-info?slug={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["surrogate-key"]
        .to_str()
        .unwrap()
        .contains(&format!("product_set:{id}")));
    let now = catalog::clock::now_unix();
    let want = shop
        .scalar_i64(&format!(
            "SELECT CAST(SUM(i.qty * {}) AS BIGINT) FROM product_set_item i JOIN product p ON p.id = i.product_id WHERE i.product_set_id = {id}",
            catalog::pricing::effective_price_sql(now)
        ))
        .await;
    assert_eq!(body["product_set"]["price_all"], want);
    let (_, _, body) = shop
        .get(&format!("/api/product/product-set-products?slug={slug}"))
        .await;
    let n = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM product_set_item WHERE product_set_id = {id}"
        ))
        .await;
    assert_eq!(body["products"].as_array().unwrap().len() as i64, n);
    assert!(body["products"][0]["product_set_qty"].is_i64());
    let (_, _, body) = shop
        .get(&format!("/api/product/product-set-fabrics?slug={slug}"))
        .await;
    assert!(body["fabrics"].is_array());
    let (_, _, body) = shop
        .get(&format!(
            "/api/product/product-set-additional-info?slug={slug}"
        ))
        .await;
    assert!(body["infos"].is_array());
}

#[tokio::test]
async fn recent_views_read_the_self_token_and_are_private() {
    let shop = TestShop::fresh().await;
    let id = shop
        .scalar_i64("SELECT id FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1")
        .await;
    db::query("INSERT INTO recently_viewed (self_token, product_id) VALUES ('tok-1-abcdef.k7Qx2mZp9LwR4tYv8NsB3hJd', $1)")
        .bind(id)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let req = Request::get("/api/product/recent-views-product")
        .header("SELF-TOKEN", "tok-1-abcdef.k7Qx2mZp9LwR4tYv8NsB3hJd")
        .body(Body::empty())
        .unwrap();
    let (status, headers, body) = shop.send(req).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["cache-control"], "private, no-store");
    assert!(headers.get("surrogate-key").is_none());
    assert_eq!(body["products"][0]["id"], id);
    let (status, _, body) = shop.get("/api/product/recent-views-product").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["products"].as_array().unwrap().is_empty());
    let req = Request::get("/api/product/recent-views-product")
        .header("SELF-TOKEN", "t".repeat(300))
        .body(Body::empty())
        .unwrap();
    let (s, h, b) = shop.send(req).await;
    assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn bad_input_gets_a_json_400_and_unknown_or_inactive_a_404() {
    let shop = TestShop::fresh().await;
    let long = "x".repeat(201);
    let inactive = text(
        &shop,
        "SELECT seo_url FROM product WHERE is_active = TRUE ORDER BY id DESC LIMIT 1",
    )
    .await;
    db::query("UPDATE product SET is_active = FALSE WHERE seo_url = $1")
        .bind(&inactive)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    for call in PRODUCT_CALLS {
        for (query, want) in [
            ("".to_string(), StatusCode::BAD_REQUEST),
            ("?seo_url=".to_string(), StatusCode::BAD_REQUEST),
            (format!("?seo_url={long}"), StatusCode::BAD_REQUEST),
            (
                "?seo_url=no-such-product".to_string(),
                StatusCode::NOT_FOUND,
            ),
            (format!("?seo_url={inactive}"), StatusCode::NOT_FOUND),
        ] {
            let (s, h, b) = shop.get(&format!("/api/product/{call}{query}")).await;
            assert_api_error(s, &h, &b, want);
        }
    }
    for call in SET_CALLS {
        for (query, want) in [
            ("".to_string(), StatusCode::BAD_REQUEST),
            (format!("?slug={long}"), StatusCode::BAD_REQUEST),
            ("?slug=no-such-set".to_string(), StatusCode::NOT_FOUND),
        ] {
            let (s, h, b) = shop.get(&format!("/api/product/{call}{query}")).await;
            assert_api_error(s, &h, &b, want);
        }
    }
    let slug = text(
        &shop,
        "SELECT seo_url FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1",
    )
    .await;
    for call in ["question-index", "comment-index"] {
        for bad in ["0", "-1", "abc", "1001", "2.5", "99999999999999999999999"] {
            let (s, h, b) = shop
                .get(&format!("/api/product/{call}?seo_url={slug}&limit={bad}"))
                .await;
            assert_api_error(s, &h, &b, StatusCode::BAD_REQUEST);
        }
    }
}

/// The product's primary category (as the API picks it).
async fn primary(shop: &TestShop, id: i64) -> i64 {
    shop.scalar_i64(&format!(
        "SELECT category_id FROM product_category WHERE product_id = {id} ORDER BY is_primary DESC, category_id LIMIT 1"
    ))
    .await
}

async fn listed(shop: &TestShop, call: &str, key: &str, slug: &str) -> Vec<i64> {
    let (status, _, body) = shop
        .get(&format!("/api/product/{call}?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{call}: {body}");
    body[key]
        .as_array()
        .unwrap_or_else(|| panic!("{call}: {body}"))
        .iter()
        .map(|c| c["id"].as_i64().expect("card id"))
        .collect()
}

#[tokio::test]
async fn related_lists_come_from_the_right_categories_in_the_right_order() {
    let shop = TestShop::open().await;
    // A product in the fullest sub-category.
    let id = shop
        .scalar_i64(
            "SELECT pc.product_id FROM product_category pc JOIN product p ON p.id = pc.product_id \
             WHERE pc.is_primary = TRUE AND p.is_active = TRUE AND pc.category_id IN ( \
               SELECT category_id FROM product_category WHERE is_primary = TRUE GROUP BY category_id ORDER BY COUNT(*) DESC, category_id LIMIT 1) \
             ORDER BY pc.product_id LIMIT 1",
        )
        .await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {id}"),
    )
    .await;
    let cat = primary(&shop, id).await;
    let top = shop
        .scalar_i64(&format!("SELECT parent FROM category WHERE id = {cat}"))
        .await;
    let now = catalog::clock::now_unix();
    let price = |pid: i64| {
        format!(
            "SELECT {} FROM product p WHERE p.id = {pid}",
            catalog::pricing::effective_price_sql(now)
        )
    };
    let in_category = |pid: i64, cats: String| {
        format!("SELECT COUNT(*) FROM product_category WHERE product_id = {pid} AND category_id IN ({cats})")
    };

    // similar: same sub-category, nearest price first, at most 10.
    let similar = listed(&shop, "similar-products", "similar_products", &slug).await;
    assert!(!similar.is_empty() && similar.len() <= 10, "{similar:?}");
    let own = shop.scalar_i64(&price(id)).await;
    let mut gaps = Vec::new();
    for pid in &similar {
        assert!(*pid != id);
        assert_eq!(
            shop.scalar_i64(&in_category(*pid, cat.to_string())).await,
            1,
            "similar {pid}"
        );
        gaps.push((shop.scalar_i64(&price(*pid)).await - own).abs());
    }
    assert!(
        gaps.windows(2).all(|w| w[0] <= w[1]),
        "nearest price first: {gaps:?}"
    );

    // same-category: same sub-category, most popular first.
    let same = listed(&shop, "same-category-products", "products", &slug).await;
    assert!(!same.is_empty());
    let mut pop = Vec::new();
    for pid in &same {
        assert!(*pid != id);
        assert_eq!(
            shop.scalar_i64(&in_category(*pid, cat.to_string())).await,
            1,
            "same {pid}"
        );
        pop.push(
            shop.scalar_i64(&format!("SELECT popularity FROM product WHERE id = {pid}"))
                .await,
        );
    }
    assert!(pop.windows(2).all(|w| w[0] >= w[1]), "{pop:?}");

    // goes-well-with: the sibling sub-categories (same parent, not this one).
    let siblings = format!("SELECT id FROM category WHERE parent = {top} AND id <> {cat}");
    let goes = listed(&shop, "goes-well-with", "products", &slug).await;
    assert!(!goes.is_empty());
    for pid in &goes {
        assert!(*pid != id);
        assert!(
            shop.scalar_i64(&in_category(*pid, siblings.clone())).await >= 1,
            "goes-well-with {pid}"
        );
    }

    // other-also-see: anywhere in the top category, most popular first.
    let subtree = format!("SELECT id FROM category WHERE id = {top} OR parent = {top}");
    let others = listed(&shop, "other-also-see", "products", &slug).await;
    assert!(!others.is_empty());
    let mut pop = Vec::new();
    for pid in &others {
        assert!(*pid != id);
        assert!(
            shop.scalar_i64(&in_category(*pid, subtree.clone())).await >= 1,
            "other {pid}"
        );
        pop.push(
            shop.scalar_i64(&format!("SELECT popularity FROM product WHERE id = {pid}"))
                .await,
        );
    }
    assert!(pop.windows(2).all(|w| w[0] >= w[1]), "{pop:?}");
}

#[tokio::test]
async fn questions_are_active_only_newest_first_and_comments_are_returned() {
    let shop = TestShop::fresh().await;
    let id = shop
        .scalar_i64("SELECT id FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1")
        .await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {id}"),
    )
    .await;
    db::query(
        "INSERT INTO product_question (product_id, username, description, is_active, created_at) VALUES \
           ($1, 'Rahim', 'Is it solid wood?', TRUE, unixepoch() - 86400), \
           ($1, 'Karim', 'Hidden until moderated', FALSE, unixepoch()), \
           ($1, 'Nasrin', 'Delivery to Sylhet?', TRUE, unixepoch() - 60), \
           ($1, 'Tanvir', 'Published, waiting for its answer', TRUE, unixepoch())",
    )
    .bind(id)
    .execute(&shop.state.pool)
    .await
    .unwrap();
    // Shown once answered, as the shopper who asked is told.
    db::query(
        "INSERT INTO product_question_answer (question_id, description) \
         SELECT id, 'Yes.' FROM product_question WHERE product_id = $1 AND username IN ('Rahim', 'Nasrin', 'Karim')",
    )
    .bind(id)
    .execute(&shop.state.pool)
    .await
    .unwrap();
    let (status, _, body) = shop
        .get(&format!(
            "/api/product/question-index?seo_url={slug}&limit=500"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let qs = body["questions"].as_array().unwrap();
    let texts: Vec<&str> = qs
        .iter()
        .map(|q| q["description"].as_str().unwrap())
        .collect();
    assert!(!texts.contains(&"Hidden until moderated"), "{texts:?}");
    assert!(
        !texts.contains(&"Published, waiting for its answer"),
        "{texts:?}"
    );
    assert_eq!(texts.first(), Some(&"Delivery to Sylhet?"), "{texts:?}");
    assert!(qs
        .iter()
        .all(|q| q["answers"].is_array() && q["time"].is_string()));
    let active = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM product_question q WHERE q.product_id = {id} AND {}",
            catalog::read::QUESTION_SHOWN
        ))
        .await;
    assert_eq!(qs.len() as i64, active.min(50));

    db::query(
        "INSERT INTO product_comment (product_id, username, comment, is_active, created_at) VALUES \
           ($1, 'Sadia', 'Lovely finish', TRUE, unixepoch() - 10), ($1, 'Spam', 'buy now', FALSE, unixepoch())",
    )
    .bind(id)
    .execute(&shop.state.pool)
    .await
    .unwrap();
    let (status, _, body) = shop
        .get(&format!("/api/product/comment-index?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let cs = body["comments"].as_array().unwrap();
    assert_eq!(cs[0]["comment"], "Lovely finish", "{body}");
    assert!(cs.iter().all(|c| c["comment"] != "buy now"));
    assert!(cs.len() <= 3);
}

#[tokio::test]
async fn emi_starts_from_the_lowest_monthly_amount() {
    let shop = TestShop::open().await;
    let id = shop
        .scalar_i64(&format!("SELECT p.id FROM product p WHERE p.is_active = TRUE AND p.emi_available = TRUE AND EXISTS (SELECT 1 FROM product_emi e WHERE e.product_id = p.id) AND {} ORDER BY p.id LIMIT 1", emi_priced()))
        .await;
    let slug = text(
        &shop,
        &format!("SELECT seo_url FROM product WHERE id = {id}"),
    )
    .await;
    let (_, _, body) = shop.get(&format!("/api/product/info?seo_url={slug}")).await;
    let p = &body["product"];
    let price = p["price_now"].as_i64().unwrap();
    let plans = p["emi"]["plans"].as_array().unwrap();
    let n = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM product_emi WHERE product_id = {id}"
        ))
        .await;
    assert_eq!(plans.len() as i64, n);
    let mut lowest = i64::MAX;
    for plan in plans {
        let months = plan["months"].as_i64().unwrap();
        let bp = plan["interest_bp"].as_i64().unwrap();
        let per_month = plan["per_month"].as_i64().unwrap();
        assert_eq!(
            per_month,
            catalog::pricing::emi_per_month(price, months, bp)
        );
        // Whole taka, rounded up: the months together cover the price.
        assert!(per_month * months >= price);
        lowest = lowest.min(per_month);
    }
    assert_eq!(p["emi"]["from_per_month"], lowest);

    // Below EMI's minimum price (a flash price, say) the product offers none.
    db::query("UPDATE product SET price_now = $1 WHERE id = $2")
        .bind(catalog::pricing::EMI_MIN_PRICE - 1)
        .bind(id)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, _, body) = shop.get(&format!("/api/product/info?seo_url={slug}")).await;
    let emi = &body["product"]["emi"];
    assert_eq!(emi["available"], false, "{emi}");
    assert_eq!(emi["plans"], serde_json::json!([]));
    assert_eq!(emi["from_per_month"], serde_json::Value::Null);

    let none = text(
        &shop,
        "SELECT p.seo_url FROM product p WHERE p.is_active = TRUE AND NOT EXISTS (SELECT 1 FROM product_emi e WHERE e.product_id = p.id) ORDER BY p.id LIMIT 1",
    )
    .await;
    let (_, _, body) = shop.get(&format!("/api/product/info?seo_url={none}")).await;
    assert_eq!(body["product"]["emi"]["available"], false);
    assert!(body["product"]["emi"]["from_per_month"].is_null());
    assert!(body["product"]["emi"]["plans"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_product_without_frames_or_variations_answers_empty_lists() {
    let shop = TestShop::open().await;
    let slug = text(
        &shop,
        "SELECT p.seo_url FROM product p WHERE p.is_active = TRUE \
         AND NOT EXISTS (SELECT 1 FROM product_360_frame f WHERE f.product_id = p.id) \
         AND NOT EXISTS (SELECT 1 FROM product_variation v WHERE v.product_id = p.id) ORDER BY p.id LIMIT 1",
    )
    .await;
    let (status, headers, body) = shop
        .get(&format!("/api/product/360degreeImages?seo_url={slug}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["cache-control"]
        .to_str()
        .unwrap()
        .starts_with("public"));
    assert_eq!(body["images"], serde_json::json!([]));
    let (_, _, body) = shop
        .get(&format!("/api/product/product-variation?seo_url={slug}"))
        .await;
    assert_eq!(body["productVariationsList"], serde_json::json!([]));
    let (_, _, body) = shop
        .get(&format!("/api/product/images?seo_url={slug}"))
        .await;
    assert_eq!(body["degree_images"], serde_json::json!([]));
    let first = &body["images"][0];
    for key in ["id", "full_size_directory", "icon_size_directory"] {
        assert!(first.get(key).is_some(), "image lacks {key}");
    }
}
