//! The original shop's Nuxt storefront as a client (issue 15), on a real
//! SQLite file (and PostgreSQL with TEST_POSTGRES_URL): the calls it makes the
//! way it makes them (ORIGINAL-API.md) — a cart line spread into
//! `remove-cart-item`'s query, the misspelt `districts-by-diviison`,
//! questions and comments by `seo_url`, and the location popup's
//! `user-location`.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{arr, assert_api_error, TestShop, DEMO};
use serde_json::{json, Value};

/// An active product outside every flash sale and without variations, in
/// stock and payable on delivery: (id, code).
async fn plain_product(shop: &TestShop) -> (i64, String) {
    db::query_as(
        "SELECT id, product_code FROM product WHERE is_active = TRUE AND disable_buy = FALSE \
         AND cash_on_delivery = TRUE AND pre_booking = FALSE AND stock >= 5 \
         AND id NOT IN (SELECT product_id FROM flash_item) \
         AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .expect("a plain product")
}

/// `value` under `key` as axios 1.x puts it into a query string: an object's
/// fields as `key[field]`, an array's items as `key[]`, null left out.
fn brackets(key: &str, value: &Value, pairs: &mut Vec<(String, String)>) {
    match value {
        Value::Null => {}
        Value::Object(fields) => {
            for (k, v) in fields {
                brackets(&format!("{key}[{k}]"), v, pairs);
            }
        }
        Value::Array(items) => {
            for item in items {
                brackets(&format!("{key}[]"), item, pairs);
            }
        }
        Value::String(s) => pairs.push((key.to_string(), s.clone())),
        other => pairs.push((key.to_string(), other.to_string())),
    }
}

/// `line` as the original client's axios (0.x) puts an object into a query
/// string: each key once, an object as its JSON text, an array as `key[]`
/// pairs, null left out.
fn spread(line: &Value) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for (key, value) in line.as_object().expect("a line object") {
        match value {
            Value::Null => {}
            Value::Object(_) => pairs.push((key.clone(), value.to_string())),
            Value::Array(items) => {
                for item in items {
                    let text = match item {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    pairs.push((format!("{key}[]"), text));
                }
            }
            Value::String(s) => pairs.push((key.clone(), s.clone())),
            other => pairs.push((key.clone(), other.to_string())),
        }
    }
    pairs
}

fn query(pairs: &[(String, String)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

#[tokio::test]
async fn a_cart_line_spread_into_the_query_is_removed_by_pid_and_pcode() {
    let shop = TestShop::fresh().await;
    let t = "guest-orig-0001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, code) = plain_product(&shop).await;
    let (status, _, body) = shop
        .guest_get(t, &format!("/api/cart/add-to-cart?main_pid={pid}&qty=2"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    let line = arr(&view["cart"]["items"], "cart.items")[0].clone();
    assert_eq!(line["item"]["productcode"], code.as_str());

    // The line as the client sends it: every key of the line, the long JSON
    // of `info` and `item` included, then pid and pcode.
    let mut pairs = spread(&line);
    assert!(
        pairs
            .iter()
            .any(|(k, v)| k == "info" && v.chars().count() > 200),
        "the spread line carries a long info: {pairs:?}"
    );
    // A bad pid or pcode is still a 400, the extra keys notwithstanding.
    for (pid_value, pcode_value, field) in [
        ("abc".to_string(), code.clone(), "pid"),
        ("-3".to_string(), code.clone(), "pid"),
        (pid.to_string(), "x".repeat(201), "pcode"),
    ] {
        let mut bad = pairs.clone();
        bad.push(("pid".into(), pid_value));
        bad.push(("pcode".into(), pcode_value));
        let (status, headers, body) = shop
            .guest_get(t, &format!("/api/cart/remove-cart-item?{}", query(&bad)))
            .await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
        assert!(body["errors"][field].is_array(), "{field}: {body}");
    }
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["totalqty"], 2, "nothing removed by a bad call");

    pairs.push(("pid".into(), pid.to_string()));
    pairs.push(("pcode".into(), code.clone()));
    let (status, _, body) = shop
        .guest_get(t, &format!("/api/cart/remove-cart-item?{}", query(&pairs)))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["totalqty"], 0, "{view}");
    let (_, _, count) = shop.guest_get(t, "/api/cart/count-notification").await;
    assert_eq!(count["cartCount"], 0);

    // The same line as axios 1.x spreads it (`info[title]=...`).
    let (status, _, body) = shop
        .guest_get(t, &format!("/api/cart/add-to-cart?main_pid={pid}&qty=1"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    let line = arr(&view["cart"]["items"], "cart.items")[0].clone();
    let mut pairs = Vec::new();
    for (key, value) in line.as_object().unwrap() {
        brackets(key, value, &mut pairs);
    }
    pairs.push(("pid".into(), pid.to_string()));
    pairs.push(("pcode".into(), code.clone()));
    let (status, _, body) = shop
        .guest_get(t, &format!("/api/cart/remove-cart-item?{}", query(&pairs)))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["totalqty"], 0, "{view}");
}

/// `GET /api/common/districts-by-diviison/{division}`'s district names,
/// asserting a bare array whose every row is in `division`.
async fn districts_of(shop: &TestShop, division: &str, path: &str) -> Vec<String> {
    let (status, headers, body) = shop
        .get(&format!("/api/common/districts-by-diviison/{path}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    arr(&body, "the answer")
        .iter()
        .map(|row| {
            assert_eq!(row["division"], division, "{row}");
            row["district"].as_str().expect("district").to_string()
        })
        .collect()
}

#[tokio::test]
async fn districts_by_division_by_name_or_id_and_json_errors_for_the_rest() {
    let shop = TestShop::open().await;
    let dhaka = districts_of(&shop, "Dhaka", "Dhaka").await;
    assert_eq!(dhaka.len(), 13, "{dhaka:?}");
    assert!(dhaka.contains(&"Gazipur".to_string()));
    assert!(!dhaka.contains(&"Sylhet".to_string()));
    // Case, spaces, the Bangla name, the old spelling and the id name it too.
    assert_eq!(districts_of(&shop, "Dhaka", "dhaka%20").await, dhaka);
    assert_eq!(
        districts_of(&shop, "Dhaka", "%E0%A6%A2%E0%A6%BE%E0%A6%95%E0%A6%BE").await,
        dhaka
    );
    let ctg = districts_of(&shop, "Chattogram", "Chittagong").await;
    assert_eq!(ctg.len(), 11, "{ctg:?}");
    let id: i64 = db::query_scalar("SELECT id FROM division WHERE name = 'Sylhet'")
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    let sylhet = districts_of(&shop, "Sylhet", &id.to_string()).await;
    assert_eq!(sylhet.len(), 4, "{sylhet:?}");
    // Every district in exactly one division.
    let mut all = Vec::new();
    for name in [
        "Barishal",
        "Chattogram",
        "Dhaka",
        "Khulna",
        "Mymensingh",
        "Rajshahi",
        "Rangpur",
        "Sylhet",
    ] {
        all.extend(districts_of(&shop, name, name).await);
    }
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 64);

    for (path, want) in [
        ("Atlantis", StatusCode::NOT_FOUND),
        ("999999", StatusCode::NOT_FOUND),
        (
            "%7B%22division%22%3A%22Dhaka%22%7D",
            StatusCode::BAD_REQUEST,
        ),
        ("%5B1%2C2%5D", StatusCode::BAD_REQUEST),
        ("Dhaka%3Cscript%3E", StatusCode::BAD_REQUEST),
        ("0", StatusCode::BAD_REQUEST),
        ("%00", StatusCode::BAD_REQUEST),
        (&"x".repeat(300), StatusCode::BAD_REQUEST),
    ] {
        let (status, headers, body) = shop
            .get(&format!("/api/common/districts-by-diviison/{path}"))
            .await;
        assert_api_error(status, &headers, &body, want);
    }
    // No division at all is the API's JSON 404 too, never HTML.
    let (status, headers, body) = shop.get("/api/common/districts-by-diviison/").await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn questions_and_comments_by_seo_url_or_product_id() {
    let shop = TestShop::fresh().await;
    // A product with published questions.
    let (pid, seo): (i64, String) = db::query_as(
        "SELECT p.id, p.seo_url FROM product p WHERE p.is_active = TRUE AND EXISTS \
         (SELECT 1 FROM product_question q WHERE q.product_id = p.id AND q.is_active = TRUE) \
         ORDER BY p.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .expect("a product with published questions");
    let (other, other_seo): (i64, String) = db::query_as(
        "SELECT id, seo_url FROM product WHERE is_active = TRUE AND id <> $1 ORDER BY id LIMIT 1",
    )
    .bind(pid)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();

    for call in ["question-index", "comment-index"] {
        let (status, _, by_seo) = shop
            .get(&format!("/api/product/{call}?seo_url={seo}&limit=8"))
            .await;
        assert_eq!(status, StatusCode::OK, "{by_seo}");
        let (status, _, by_id) = shop
            .get(&format!("/api/product/{call}?product_id={pid}&limit=8"))
            .await;
        assert_eq!(status, StatusCode::OK, "{by_id}");
        assert_eq!(by_seo, by_id, "{call}: the same answer by either name");
        let (status, _, both) = shop
            .get(&format!(
                "/api/product/{call}?product_id={pid}&seo_url={seo}"
            ))
            .await;
        assert_eq!(status, StatusCode::OK, "{both}");
        for (uri, want) in [
            (format!("product_id={other}&seo_url={seo}"), 400),
            (format!("product_id={pid}&seo_url={other_seo}"), 400),
            (String::new(), 400),
            ("product_id=&seo_url=".to_string(), 400),
            ("product_id=abc".to_string(), 400),
            ("seo_url=no-such-product-here".to_string(), 404),
            ("product_id=99999999".to_string(), 404),
        ] {
            let (status, headers, body) = shop.get(&format!("/api/product/{call}?{uri}")).await;
            assert_api_error(status, &headers, &body, StatusCode::from_u16(want).unwrap());
        }
    }
    let questions = arr(
        &shop
            .get(&format!("/api/product/question-index?seo_url={seo}"))
            .await
            .2["questions"],
        "questions",
    )
    .len();
    assert!(questions > 0);

    // Writing by seo_url, as the original product page does.
    let token = shop
        .login(Some("guest-orig-0003.k7Qx2mZp9LwR4tYv8NsB3hJd"), DEMO)
        .await;
    let bearer = format!("Bearer {token}");
    let auth = [("Authorization", bearer.as_str())];
    let (status, _, answer) = shop
        .request(
            "POST",
            "/api/product/question-store",
            &auth,
            Some(&json!({ "seo_url": seo, "description": "Does it come assembled?" })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let stored: i64 = db::query_scalar(&format!(
        "SELECT product_id FROM product_question WHERE id = {}",
        answer["id"]
    ))
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    assert_eq!(stored, pid);
    let (status, _, answer) = shop
        .request(
            "POST",
            "/api/product/comment-store",
            &auth,
            Some(&json!({ "seo_url": seo, "product_id": pid, "comment": "Sturdy and handsome." })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    for (body, want) in [
        (
            json!({ "seo_url": seo, "product_id": other, "comment": "Which one is it?" }),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({ "comment": "No product named at all." }),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({ "seo_url": "", "comment": "An empty name." }),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({ "seo_url": "no-such-product-here", "comment": "Unknown product." }),
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (status, headers, answer) = shop
            .request("POST", "/api/product/comment-store", &auth, Some(&body))
            .await;
        assert_api_error(status, &headers, &answer, want);
    }
}

#[tokio::test]
async fn the_location_popup_is_checked_against_the_districts() {
    let shop = TestShop::open().await;
    let g = "guest-orig-0004.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (status, headers, body) = shop
        .guest_post(
            g,
            "/api/user-location",
            &json!({ "division": "Dhaka", "district": "gazipur ", "thana": "Tongi" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(headers["cache-control"], "private, no-store");
    assert_eq!(body["success"], true);
    assert_eq!(body["division"], "Dhaka");
    assert_eq!(body["district"], "Gazipur");
    assert_eq!(body["thana"], "Tongi");
    // What the answer names is what the showrooms call takes.
    let (status, _, showrooms) = shop
        .get("/api/common/showrooms?district=Gazipur&thana=Tongi")
        .await;
    assert_eq!(status, StatusCode::OK, "{showrooms}");
    // The district alone is enough (no SELF-TOKEN needed); the division is
    // filled in.
    let (status, _, body) = shop
        .post_json("/api/user-location", &json!({ "district": "Chittagong" }))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["division"], "Chattogram");
    assert_eq!(body["district"], "Chattogram");
    assert_eq!(body["thana"], Value::Null);
    for (bad, field) in [
        (
            json!({ "division": "Dhaka", "district": "Sylhet" }),
            "district",
        ),
        (json!({ "district": "Atlantis" }), "district"),
        (json!({ "division": "Dhaka" }), "district"),
        (json!({ "district": "" }), "district"),
        (
            json!({ "district": "Dhaka", "division": "Atlantis" }),
            "division",
        ),
        (
            json!({ "district": "Dhaka", "thana": "x".repeat(101) }),
            "thana",
        ),
        (json!({ "district": 42 }), ""),
    ] {
        let (status, headers, body) = shop.post_json("/api/user-location", &bad).await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
        if !field.is_empty() {
            assert!(body["errors"][field].is_array(), "{field}: {body}");
        }
    }
    let (status, headers, body) = shop.get("/api/user-location").await;
    assert_api_error(status, &headers, &body, StatusCode::METHOD_NOT_ALLOWED);
}
