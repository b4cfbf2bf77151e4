//! Reviews on a real database (SQLite, or PostgreSQL with
//! `TEST_POSTGRES_URL`): the products a shopper may review, writing and
//! editing a review (unpublished until the shop checks it, the author's
//! only), and the published reviews of a product as anyone sees them, named
//! by first name only. Also the profile update's `null` birthday and gender
//! that the original storefront sends.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{assert_api_error, TestShop, DEMO, RAHIM};
use serde_json::{json, Value};

/// The shopper's delivered products, in the answer's order.
async fn reviewable(shop: &TestShop, token: &str) -> Vec<Value> {
    let (status, body) = shop
        .as_user(token, "GET", "/api/user/reviewable", None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    body["products"].as_array().unwrap().clone()
}

fn find(products: &[Value], id: i64) -> &Value {
    products
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("product {id} is not reviewable: {products:?}"))
}

async fn published(shop: &TestShop, product: i64) -> Value {
    let (status, _, body) = shop
        .post_json(
            &format!("/api/product/single-product-review/{product}"),
            &json!({ "product_id": product, "paginate": 50 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

async fn publish(shop: &TestShop, review: i64) {
    db::query("UPDATE review SET is_active = TRUE WHERE id = $1")
        .bind(review)
        .execute(&shop.state.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn review_calls_need_a_signed_in_shopper() {
    let shop = TestShop::open().await;
    for (method, uri) in [
        ("GET", "/api/user/reviewable"),
        ("GET", "/api/user/reviews"),
        ("POST", "/api/user/review-store"),
        ("POST", "/api/user/review-update"),
    ] {
        let (status, headers, body) = shop
            .request(
                method,
                uri,
                &[("SELF-TOKEN", "guest-review-0001.k7Qx2mZp9LwR4tYv8NsB3hJd")],
                Some(&json!({})),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn a_delivered_product_is_reviewed_checked_published_edited_and_checked_again() {
    let shop = TestShop::fresh().await;
    let token = shop.login(None, DEMO).await;
    let demo = shop.user_id(DEMO.0).await;
    let delivered = shop
        .scalar_i64(&format!(
            "SELECT COUNT(DISTINCT d.product_id) FROM order_detail d JOIN order_master o ON o.id = d.order_id \
             WHERE o.user_id = {demo} AND o.order_status = 'delivered'"
        ))
        .await;
    assert!(delivered > 0, "the demo shopper has delivered orders");
    // A delivered product, its seeded review taken away.
    let pid = shop
        .scalar_i64(&format!(
            "SELECT d.product_id FROM order_detail d JOIN order_master o ON o.id = d.order_id \
             JOIN product p ON p.id = d.product_id \
             WHERE o.user_id = {demo} AND o.order_status = 'delivered' AND p.is_active \
             ORDER BY d.id LIMIT 1"
        ))
        .await;
    db::query("DELETE FROM review WHERE user_id = $1 AND product_id = $2")
        .bind(demo)
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();

    // Every delivered product once, this one not reviewed yet.
    let products = reviewable(&shop, &token).await;
    assert_eq!(products.len() as i64, delivered);
    let entry = find(&products, pid);
    assert!(entry["review"].is_null(), "{entry}");
    assert_eq!(entry["on_sale"], true);
    assert!(entry["title"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(entry["seo_url"].as_str().is_some_and(|t| !t.is_empty()));
    let before = published(&shop, pid).await;

    // Written: waiting for the shop, not on the product.
    let text = "Solid teak, delivered on time. <b>Sturdy</b>";
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-store",
            Some(json!({ "product_id": pid, "rating": 4, "comment": text })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let products = reviewable(&shop, &token).await;
    let review = &find(&products, pid)["review"];
    assert_eq!(review["state"], "awaiting_check", "{review}");
    assert_eq!(review["rating"], 4);
    assert_eq!(review["comment"], text);
    let review_id = review["id"].as_i64().unwrap();
    let active = shop
        .scalar_i64(&format!(
            "SELECT CAST(CASE WHEN is_active THEN 1 ELSE 0 END AS BIGINT) FROM review WHERE id = {review_id}"
        ))
        .await;
    assert_eq!(active, 0, "a new review is unpublished");
    assert_eq!(published(&shop, pid).await["count"], before["count"]);
    let (_, mine) = shop.as_user(&token, "GET", "/api/user/reviews", None).await;
    assert_eq!(mine["reviews"][review_id.to_string()]["is_active"], false);

    // Checked by the shop: on the product, by first name only.
    publish(&shop, review_id).await;
    let products = reviewable(&shop, &token).await;
    assert_eq!(find(&products, pid)["review"]["state"], "published");
    let after = published(&shop, pid).await;
    assert_eq!(after["status"], 1);
    assert_eq!(
        after["count"].as_i64().unwrap(),
        before["count"].as_i64().unwrap() + 1
    );
    assert!(after["average_rating"].as_f64().unwrap() > 0.0);
    let shown = after["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == review_id)
        .expect("the published review is listed")
        .clone();
    assert_eq!(shown["comment"], text);
    assert_eq!(shown["rating"], 4);
    assert_eq!(shown["product_id"], pid);
    assert_eq!(shown["user"]["name"], "Demo");
    assert!(shown["date"].as_str().unwrap().len() == 10, "{shown}");
    let raw = after.to_string();
    assert!(!raw.contains("demo@example.com") && !raw.contains("01712345678"));
    assert!(!raw.contains("Shopper"), "only the first name: {raw}");

    // Edited: back to waiting, off the product page.
    let edited = "Still solid after a month; one drawer sticks a little.";
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-update",
            Some(json!({ "id": review_id, "rating": 3, "comment": edited })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let products = reviewable(&shop, &token).await;
    let review = &find(&products, pid)["review"];
    assert_eq!(review["state"], "awaiting_check");
    assert_eq!(review["rating"], 3);
    assert_eq!(review["comment"], edited);
    assert_eq!(published(&shop, pid).await["count"], before["count"]);

    // Only the author edits it: for anyone else it does not exist.
    let rahim = shop.login(None, RAHIM).await;
    let (status, body) = shop
        .as_user(
            &rahim,
            "POST",
            "/api/user/review-update",
            Some(json!({ "id": review_id, "rating": 1, "comment": "Not mine to change at all." })),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let products = reviewable(&shop, &token).await;
    assert_eq!(find(&products, pid)["review"]["comment"], edited);

    // Checked: each field's error at once.
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-update",
            Some(json!({ "id": review_id, "rating": 0, "comment": "  short  " })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"].get("rating").is_some() && body["errors"].get("comment").is_some());
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-update",
            Some(json!({ "rating": 5, "comment": "x".repeat(2001) })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"].get("id").is_some() && body["errors"].get("comment").is_some());
    let (status, _) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-update",
            Some(
                json!({ "id": 999_999_999, "rating": 5, "comment": "A review of nothing at all." }),
            ),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_shopper_without_deliveries_has_nothing_to_review() {
    let shop = TestShop::fresh().await;
    let (status, _, body) = shop
        .post_json(
            "/api/auth/register",
            &json!({
                "name": "Nadia Karim",
                "email": "nadia@example.com",
                "password": "nadia-password-1",
                "password_confirmation": "nadia-password-1",
                "agree": true,
            }),
        )
        .await;
    if status != StatusCode::OK {
        panic!("registration: {status} {body}");
    }
    let token = shop
        .login(None, ("nadia@example.com", "nadia-password-1"))
        .await;
    assert!(reviewable(&shop, &token).await.is_empty());
}

#[tokio::test]
async fn published_reviews_are_public_paged_and_checked() {
    let shop = TestShop::open().await;
    let pid = shop
        .scalar_i64(
            "SELECT r.product_id FROM review r JOIN product p ON p.id = r.product_id \
             WHERE r.is_active AND p.is_active GROUP BY r.product_id ORDER BY COUNT(*) DESC, r.product_id LIMIT 1",
        )
        .await;
    let count = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM review WHERE is_active AND product_id = {pid}"
        ))
        .await;
    let body = published(&shop, pid).await;
    assert_eq!(body["count"], count);
    assert_eq!(body["data"].as_array().unwrap().len() as i64, count.min(50));
    for r in body["data"].as_array().unwrap() {
        let name = r["user"]["name"].as_str().unwrap();
        assert!(!name.contains('@') && !name.contains(' '), "{name}");
        assert!(r["user"].get("email").is_none() && r["user"].get("phone").is_none());
    }
    // The original client's body; GET with the same in the query; one review.
    let (status, _, one) = shop
        .post_json(
            &format!("/api/product/single-product-review/{pid}"),
            &json!({ "product_id": pid, "paginate": 1 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{one}");
    assert_eq!(one["data"].as_array().unwrap().len(), 1);
    assert_eq!(one["data"][0], body["data"][0]);
    let (status, headers, got) = shop
        .get(&format!(
            "/api/product/single-product-review/{pid}?paginate=1"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(got, one);
    common::assert_public(&headers, &[&format!("product:{pid}")]);
    // An empty body reads as the defaults (5 at most).
    let (status, _, empty) = shop
        .post_json(
            &format!("/api/product/single-product-review/{pid}"),
            &json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(empty["data"].as_array().unwrap().len() as i64, count.min(5));

    // Unknown, inactive, malformed.
    let (status, headers, body) = shop
        .post_json(
            "/api/product/single-product-review/999999999",
            &json!({ "paginate": 5 }),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
    for bad in ["abc", "0", "-4", "1.5"] {
        let (status, headers, body) = shop
            .post_json(
                &format!("/api/product/single-product-review/{bad}"),
                &json!({}),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    }
    for bad in [json!({ "paginate": 0 }), json!({ "paginate": "many" })] {
        let (status, headers, body) = shop
            .post_json(&format!("/api/product/single-product-review/{pid}"), &bad)
            .await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    }
    let (status, headers, body) = shop
        .get(&format!(
            "/api/product/single-product-review/{pid}?paginate=0"
        ))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_null_birthday_or_gender_keeps_what_is_stored() {
    let shop = TestShop::fresh().await;
    let token = shop.login(None, DEMO).await;
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/user-update",
            Some(json!({
                "name": "Demo Shopper",
                "email": DEMO.0,
                "phone": "01712345678",
                "birthday": "1990-05-17",
                "gender": "female",
            })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The original storefront's form: null for the two it does not edit.
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/user-update",
            Some(json!({
                "name": "Demo Shopper Two",
                "email": DEMO.0,
                "phone": "01712345678",
                "emergency_mobile": "",
                "birthday": null,
                "gender": null,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["name"], "Demo Shopper Two");
    assert_eq!(body["user"]["birthday"], "1990-05-17");
    assert_eq!(body["user"]["gender"], "female");
    // Left out is the same; empty still clears; a bad value is still refused.
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/user-update",
            Some(json!({ "name": "Demo Shopper", "email": DEMO.0, "phone": "01712345678", "gender": "" })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["birthday"], "1990-05-17");
    assert!(body["user"]["gender"].is_null(), "{body}");
    let (status, body) = shop.as_user(&token,
        "POST",
        "/api/user/user-update",
        Some(
            json!({ "name": "Demo Shopper", "email": DEMO.0, "birthday": null, "gender": "robot" }),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"].get("gender").is_some() && body["errors"].get("birthday").is_none());
}
