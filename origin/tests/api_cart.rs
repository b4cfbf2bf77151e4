//! The Cart group and cash-on-delivery orders on a real SQLite file: lines
//! priced by the server, quantities and stock, sets, coupons, delivery
//! charges, address checks, placement (atomic stock, idempotency, no
//! overselling under 200 concurrent placements), the buy switch, and one
//! guest never touching another's cart.

mod common;

use catalog::db;
use std::sync::Arc;

use axum::http::StatusCode;
use common::checkout::stock;
use common::{assert_api_error, TestShop};
use serde_json::{json, Value};

/// An active product outside every flash sale, with at least `stock` units,
/// payable on delivery and not a pre-booking: (id, code, price_now).
async fn plain_product(shop: &TestShop, stock: i64) -> (i64, String, i64) {
    db::query_as(
        "SELECT id, product_code, price_now FROM product WHERE is_active = TRUE AND disable_buy = FALSE \
         AND cash_on_delivery = TRUE AND pre_booking = FALSE AND stock >= $1 \
         AND id NOT IN (SELECT product_id FROM flash_item) \
         AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
    )
    .bind(stock)
    .fetch_one(&shop.state.pool)
    .await
    .expect("a plain product")
}

async fn add(shop: &TestShop, token: &str, pid: i64, qty: i64) -> (StatusCode, Value) {
    let (status, _, body) = shop
        .guest_get(
            token,
            &format!("/api/cart/add-to-cart?main_pid={pid}&qty={qty}"),
        )
        .await;
    (status, body)
}

fn address(district: &str) -> Value {
    json!({
        "name": "Rahima Khatun",
        "mobile": "+880 1712-345678",
        "emergency_mobile": "01812345678",
        "email": "rahima@example.com",
        "district": district,
        "thana": "Mirpur",
        "address": "House 12, Road 3, Mirpur 10",
    })
}

/// Address and cash on delivery chosen: ready to place.
async fn ready(shop: &TestShop, token: &str) {
    let (status, _, body) = shop
        .guest_post(
            token,
            "/api/cart/checkout-delivery-address",
            &address("Dhaka"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = shop
        .guest_post(
            token,
            "/api/cart/store-payment-method",
            &json!({ "payment_method": "cash_on_delivery", "terms_check": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

async fn place(shop: &TestShop, token: &str, key: Option<&str>) -> (StatusCode, Value) {
    let mut headers = vec![("SELF-TOKEN", token)];
    if let Some(k) = key {
        headers.push(("Idempotency-Key", k));
    }
    let (status, _, body) = shop
        .request("POST", "/api/cod-place-order", &headers, Some(&json!({})))
        .await;
    (status, body)
}

#[tokio::test]
async fn lines_are_priced_by_the_server_and_counted() {
    let shop = TestShop::fresh().await;
    let (pid, code, price) = plain_product(&shop, 5).await;
    let (status, body) = add(&shop, "guest-aaaa-0001.k7Qx2mZp9LwR4tYv8NsB3hJd", pid, 2).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    assert_eq!(body["product_code"], code);
    assert_eq!(body["purchaseprice"], price);
    assert_eq!(body["total_qty"], 2);
    let (status, _, view) = shop
        .guest_get("guest-aaaa-0001.k7Qx2mZp9LwR4tYv8NsB3hJd", "/api/cart/view")
        .await;
    assert_eq!(status, StatusCode::OK);
    let items = view["cart"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["qty"], 2);
    assert_eq!(items[0]["purchaseprice"], price);
    assert_eq!(items[0]["info"]["id"], pid);
    assert_eq!(view["cart"]["totalprice"], 2 * price);
    assert_eq!(view["cart"]["totalqty"], 2);
    // The same product again adds to its line.
    add(&shop, "guest-aaaa-0001.k7Qx2mZp9LwR4tYv8NsB3hJd", pid, 1).await;
    let (_, _, count) = shop
        .guest_get(
            "guest-aaaa-0001.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/cart/count-notification",
        )
        .await;
    assert_eq!(count["cartCount"], 1);
    assert_eq!(count["cartQty"], 3);
    // Another guest sees an empty cart.
    let (_, _, other) = shop
        .guest_get("guest-bbbb-0002.k7Qx2mZp9LwR4tYv8NsB3hJd", "/api/cart/view")
        .await;
    assert_eq!(other["cart"]["items"], json!([]));
    assert_eq!(other["cart"]["totalprice"], 0);
}

#[tokio::test]
async fn the_add_answer_carries_the_header_cart_count() {
    let shop = TestShop::fresh().await;
    let t = "guest-count-0001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (first, _, _) = plain_product(&shop, 5).await;
    let second = shop
        .scalar_i64(&format!(
            "SELECT id FROM product WHERE is_active = TRUE AND disable_buy = FALSE AND pre_booking = FALSE \
             AND stock >= 5 AND id <> {first} \
             AND id NOT IN (SELECT product_id FROM flash_item) \
             AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1"
        ))
        .await;
    let set = shop
        .scalar_i64("SELECT id FROM product_set WHERE active = TRUE ORDER BY id LIMIT 1")
        .await;
    stock_set_products(&shop, set).await;
    let fabric = set_fabric(&shop, set).await;
    // One product, the same again (its line grows), another, then a set (one line).
    for (query, lines) in [
        (format!("main_pid={first}&qty=1"), 1),
        (format!("main_pid={first}&qty=2"), 1),
        (format!("main_pid={second}"), 2),
        (format!("pset_id={set}&fabric_id={fabric}"), 3),
    ] {
        let (status, _, body) = shop
            .guest_get(t, &format!("/api/cart/add-to-cart?{query}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{query}: {body}");
        assert_eq!(body["cartCount"], lines, "{query}: {body}");
        let (_, _, count) = shop.guest_get(t, "/api/cart/count-notification").await;
        assert_eq!(
            body["cartCount"], count["cartCount"],
            "{query}: the answer's count is the header's"
        );
    }
}

/// A form POST to add-to-cart from `token`, with `accept`.
async fn form_add(
    shop: &TestShop,
    token: &str,
    form: &str,
    accept: &str,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/api/cart/add-to-cart")
        .header("SELF-TOKEN", token)
        .header("accept", accept)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(axum::body::Body::from(form.to_string()))
        .unwrap();
    shop.send(request).await
}

#[tokio::test]
async fn add_to_cart_accepts_post_with_query_or_form_fields() {
    let shop = TestShop::fresh().await;
    let (pid, code, price) = plain_product(&shop, 5).await;
    let t = "guest-post-0001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    // POST with the parameters in the query string answers as GET does.
    let (status, _, body) = shop
        .request(
            "POST",
            &format!("/api/cart/add-to-cart?main_pid={pid}&qty=1"),
            &[("SELF-TOKEN", t)],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["product_code"], code.as_str());
    assert_eq!(body["total_qty"], 1);
    // Form fields, asked for JSON: the same answer, one more unit.
    let (status, _, body) = form_add(
        &shop,
        t,
        &format!("main_pid={pid}&qty=2"),
        "application/json",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total_qty"], 3);
    assert_eq!(body["totalprice"], 3 * price);
    // A browser navigation (a form submitted without script) ends on the cart page.
    let (status, headers, _) = form_add(
        &shop,
        t,
        &format!("main_pid={pid}&qty=1"),
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers["location"], "/cart");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["items"][0]["qty"], 4, "{view}");
    // Bad form fields are the same JSON errors as bad query parameters.
    for (form, want) in [
        (format!("main_pid={pid}&qty=0"), StatusCode::BAD_REQUEST),
        ("main_pid=99999999".to_string(), StatusCode::NOT_FOUND),
        (String::new(), StatusCode::BAD_REQUEST),
    ] {
        let (status, headers, body) = form_add(&shop, t, &form, "application/json").await;
        assert_api_error(status, &headers, &body, want);
    }
    // Without a SELF-TOKEN (a shopper with no script) it is refused, not added.
    let (status, _, body) = shop
        .request(
            "POST",
            &format!("/api/cart/add-to-cart?main_pid={pid}"),
            &[],
            None,
        )
        .await;
    assert!(status.is_client_error(), "{status} {body}");
}

#[tokio::test]
async fn bad_adds_are_refused_with_json_errors() {
    let shop = TestShop::fresh().await;
    let (pid, _, _) = plain_product(&shop, 5).await;
    let t = "guest-cccc-0003.k7Qx2mZp9LwR4tYv8NsB3hJd";
    for (uri, want) in [
        (
            format!("/api/cart/add-to-cart?main_pid={pid}&qty=0"),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/cart/add-to-cart?main_pid={pid}&qty=100"),
            StatusCode::BAD_REQUEST,
        ),
        (
            format!("/api/cart/add-to-cart?main_pid={pid}&qty=x"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/cart/add-to-cart?main_pid=99999999".to_string(),
            StatusCode::NOT_FOUND,
        ),
        ("/api/cart/add-to-cart".to_string(), StatusCode::BAD_REQUEST),
    ] {
        let (status, headers, body) = shop.guest_get(t, &uri).await;
        assert_api_error(status, &headers, &body, want);
    }
    // A variation of another product.
    let other_variation: i64 = shop
        .scalar_i64(&format!(
            "SELECT id FROM product_variation WHERE product_id <> {pid} LIMIT 1"
        ))
        .await;
    let (status, headers, body) = shop
        .guest_get(
            t,
            &format!("/api/cart/add-to-cart?main_pid={pid}&variation_id={other_variation}"),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    // No self token and no sign-in.
    let (status, headers, body) = shop
        .get(&format!("/api/cart/add-to-cart?main_pid={pid}"))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    let (status, headers, body) = shop.guest_get("bad token!", "/api/cart/view").await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    // More than the stock.
    db::query("UPDATE product SET stock = 3 WHERE id = $1")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (status, body) = add(&shop, t, pid, 4).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body["message"].as_str().unwrap().contains("Only 3"));
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["items"], json!([]), "nothing half-added");
}

#[tokio::test]
async fn quantities_update_lines_remove_and_sets_go_in_as_one_line() {
    let shop = TestShop::fresh().await;
    let (pid, code, price) = plain_product(&shop, 10).await;
    let t = "guest-dddd-0004.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, t, pid, 1).await;
    let (status, _, body) = shop
        .guest_post(
            t,
            "/api/cart/update",
            &json!({ "items": { &code: { "id": pid, "code": &code, "qty": 4 } } }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["totalprice"], 4 * price);
    for bad in [
        json!({ "items": {} }),
        json!({ "items": { &code: { "qty": 0 } } }),
        json!({ "items": { &code: { "qty": 100 } } }),
        json!({ "items": "nope" }),
    ] {
        let (status, headers, body) = shop.guest_post(t, "/api/cart/update", &bad).await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    }
    let (status, headers, body) = shop
        .guest_post(
            t,
            "/api/cart/update",
            &json!({ "items": { "NOPE-1": { "qty": 2 } } }),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);

    // A set: every item of it, as one line.
    let set: i64 = shop
        .scalar_i64("SELECT id FROM product_set WHERE active = TRUE ORDER BY id LIMIT 1")
        .await;
    let items = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM product_set_item WHERE product_set_id = {set}"
        ))
        .await;
    stock_set_products(&shop, set).await;
    let fabric = set_fabric(&shop, set).await;
    let (status, _, body) = shop
        .guest_get(
            t,
            &format!("/api/cart/add-to-cart?pset_id={set}&fabric_id={fabric}"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    let psets = view["cart"]["psets"].as_object().expect("psets object");
    assert_eq!(psets.len(), 1);
    let set_lines = psets.values().next().unwrap()["items"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(set_lines.len() as i64, items);
    let (_, _, count) = shop.guest_get(t, "/api/cart/count-notification").await;
    assert_eq!(count["cartCount"], 2, "a set counts as one line");

    // Remove the set by its pid:code pairs, then the product line.
    let pairs: Vec<String> = set_lines
        .iter()
        .map(|l| {
            format!(
                "{}:{}",
                l["info"]["id"],
                l["item"]["productcode"].as_str().unwrap()
            )
        })
        .collect();
    let (status, _, body) = shop
        .guest_get(
            t,
            &format!("/api/cart/remove-cart-item?pid_codes={}", pairs.join(",")),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, _) = shop
        .guest_get(
            t,
            &format!("/api/cart/remove-cart-item?pid={pid}&pcode={code}"),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, headers, body) = shop
        .guest_get(
            t,
            &format!("/api/cart/remove-cart-item?pid={pid}&pcode={code}"),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["totalqty"], 0);
    assert_eq!(view["cart"]["psets"], json!([]));
}

#[tokio::test]
async fn coupons_apply_only_inside_their_rules() {
    let shop = TestShop::fresh().await;
    let (pid, _, price) = plain_product(&shop, 30).await;
    let t = "guest-eeee-0005.k7Qx2mZp9LwR4tYv8NsB3hJd";
    // Empty cart: nothing to apply to.
    let (status, _, _) = shop
        .guest_post(
            t,
            "/api/cart/coupon-apply",
            &json!({ "coupon": "WELCOME10" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Enough for WELCOME10's ৳3,000 minimum.
    let qty = (3_000 + price - 1) / price;
    add(&shop, t, pid, qty.max(1)).await;
    let subtotal = price * qty.max(1);
    let (status, _, body) = shop
        .guest_post(
            t,
            "/api/cart/coupon-apply",
            &json!({ "coupon": "welcome10" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let want = (subtotal * 10 / 100).min(5_000);
    assert_eq!(body["discount"], want);
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["discount"], want);
    assert_eq!(view["grand_total"], subtotal - want);
    for (code, status_want, words) in [
        ("EID2025", StatusCode::CONFLICT, "expired"),
        ("USEDUP", StatusCode::CONFLICT, "limit"),
        ("NEWYEAR", StatusCode::CONFLICT, "not valid yet"),
        ("NOSUCH", StatusCode::NOT_FOUND, "does not exist"),
        ("bad code;", StatusCode::BAD_REQUEST, "letters"),
    ] {
        let (status, headers, body) = shop
            .guest_post(t, "/api/cart/coupon-apply", &json!({ "coupon": code }))
            .await;
        assert_api_error(status, &headers, &body, status_want);
        assert!(
            body["message"].as_str().unwrap().contains(words),
            "{code}: {body}"
        );
    }
    // Below FLAT500's ৳5,000 minimum (when the cart is).
    if subtotal < 5_000 {
        let (status, _, body) = shop
            .guest_post(t, "/api/cart/coupon-apply", &json!({ "coupon": "FLAT500" }))
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        assert!(body["message"].as_str().unwrap().contains("5000"));
    }
    // A per-person limit counts this guest's orders.
    db::query("UPDATE coupon SET per_user_limit = 1 WHERE coupon_code = 'WELCOME10'")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    shop.guest_post(
        t,
        "/api/cart/coupon-apply",
        &json!({ "coupon": "WELCOME10" }),
    )
    .await;
    ready(&shop, t).await;
    let (status, body) = place(&shop, t, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let used = shop
        .scalar_i64("SELECT used_count FROM coupon WHERE coupon_code = 'WELCOME10'")
        .await;
    assert_eq!(used, 13, "the seeded 12 uses plus this order");
    add(&shop, t, pid, qty.max(1)).await;
    let (status, _, body) = shop
        .guest_post(
            t,
            "/api/cart/coupon-apply",
            &json!({ "coupon": "WELCOME10" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
}

#[tokio::test]
async fn delivery_is_charged_by_zone_and_free_from_its_threshold() {
    let shop = TestShop::fresh().await;
    let (pid, _, price) = plain_product(&shop, 1).await;
    db::query("UPDATE product SET stock = 500 WHERE id = $1")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let t = "guest-ffff-0006.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, t, pid, 1).await;
    let charge = |district: &'static str| {
        let shop = &shop;
        async move {
            let (status, _, body) = shop
                .guest_get(
                    t,
                    &format!("/api/cart/get-delivery-charge?district={district}"),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{district}: {body}");
            body["deliverycharge"].as_i64().unwrap()
        }
    };
    let inside = if price >= 3_000 { 0 } else { 200 };
    let outside = if price >= 5_000 { 0 } else { 300 };
    assert_eq!(charge("Dhaka").await, inside);
    assert_eq!(charge("dhaka").await, inside);
    assert_eq!(charge("Chattogram").await, outside);
    assert_eq!(charge("Chittagong").await, outside, "an accepted spelling");
    assert_eq!(charge("Outside%20Dhaka").await, outside);
    // Enough to cross both thresholds.
    let more = (5_000 + price - 1) / price;
    add(&shop, t, pid, more).await;
    assert_eq!(charge("Dhaka").await, 0);
    assert_eq!(charge("Sylhet").await, 0);
    let (status, headers, body) = shop
        .guest_get(t, "/api/cart/get-delivery-charge?district=Atlantis")
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    let (status, headers, body) = shop.guest_get(t, "/api/cart/get-delivery-charge").await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_delivery_address_is_checked_field_by_field() {
    let shop = TestShop::fresh().await;
    let (pid, _, _) = plain_product(&shop, 5).await;
    let t = "guest-gggg-0007.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, t, pid, 1).await;
    let mut same = address("Dhaka");
    same["emergency_mobile"] = json!("01712345678");
    let mut short = address("Dhaka");
    short["mobile"] = json!("0171234567");
    let mut nowhere = address("Atlantis");
    nowhere["name"] = json!("Al");
    for (body, fields) in [
        (same, vec!["emergency_mobile"]),
        (short, vec!["mobile"]),
        (nowhere, vec!["district", "name"]),
        (
            json!({}),
            vec!["name", "mobile", "emergency_mobile", "address", "district"],
        ),
    ] {
        let (status, headers, answer) = shop
            .guest_post(t, "/api/cart/checkout-delivery-address", &body)
            .await;
        assert_api_error(status, &headers, &answer, StatusCode::BAD_REQUEST);
        for f in fields {
            assert!(answer["errors"].get(f).is_some(), "{f} in {answer}");
        }
    }
    let (status, _, body) = shop
        .guest_post(
            t,
            "/api/cart/checkout-delivery-address",
            &address("cumilla"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["district"], "Cumilla");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(
        view["address"]["mobile"], "01712345678",
        "stored normalised"
    );
    // A wallet whose gateway is not configured is refused; terms must be accepted.
    let (status, _, _) = shop
        .guest_post(
            t,
            "/api/cart/store-payment-method",
            &json!({ "payment_method": "nagad", "terms_check": true }),
        )
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let (status, _, _) = shop
        .guest_post(
            t,
            "/api/cart/store-payment-method",
            &json!({ "payment_method": "cash_on_delivery" }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_cash_on_delivery_order_takes_stock_empties_the_cart_and_can_be_read_back() {
    let shop = TestShop::fresh().await;
    let (pid, code, price) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    let t = "guest-hhhh-0008.k7Qx2mZp9LwR4tYv8NsB3hJd";
    // Not ready: empty cart, then no address.
    let (status, _) = place(&shop, t, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    add(&shop, t, pid, 2).await;
    let (status, body) = place(&shop, t, None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    ready(&shop, t).await;
    let (status, body) = place(&shop, t, None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let number = body["order_random"].as_str().unwrap().to_string();
    let key = body["order_key"].as_str().unwrap().to_string();
    assert!(body["uri"]
        .as_str()
        .unwrap()
        .starts_with("/thank-you?order_random="));
    assert_eq!(stock(&shop, pid).await, before - 2);
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["items"], json!([]));

    let (status, _, order) = shop
        .get(&format!(
            "/api/cart/order-details?order_random={number}&secret_key={key}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{order}");
    let delivery = if 2 * price >= 3_000 { 0 } else { 200 };
    assert_eq!(order["order_masters"]["total_amount"], 2 * price);
    assert_eq!(order["order_masters"]["delivery_fee"], delivery);
    assert_eq!(order["order_masters"]["grand_total"], 2 * price + delivery);
    assert_eq!(order["order_masters"]["payment_term_status"], "COD");
    assert_eq!(order["order_details"][0]["product_code"], code);
    assert_eq!(order["order_details"][0]["qty"], 2);
    let (status, headers, body) = shop
        .get(&format!(
            "/api/cart/order-details?order_random={number}&secret_key=wrong"
        ))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);

    let (status, _, tracked) = shop
        .get(&format!(
            "/api/cart/track-order?id={number}&phone=%2B8801712345678"
        ))
        .await;
    assert_eq!(status, StatusCode::OK, "{tracked}");
    assert_eq!(tracked["order_masters"]["order_status"], "placed");
    assert_eq!(tracked["order_details"][0]["product"]["product_code"], code);
    // Tracking shows the money: each line's price, the delivery charge, the
    // total, what is paid and (by difference) what is due; no address.
    assert_eq!(tracked["order_details"][0]["local_purchase_price"], price);
    assert_eq!(tracked["order_masters"]["total_amount"], 2 * price);
    assert_eq!(tracked["order_masters"]["delivery_fee"], delivery);
    assert_eq!(
        tracked["order_masters"]["grand_total"],
        2 * price + delivery
    );
    assert_eq!(tracked["order_masters"]["amount_paid"], 0);
    assert_eq!(
        tracked["order_masters"]["payment_method"],
        "cash_on_delivery"
    );
    assert!(tracked["order_masters"].get("address").is_none());
    let (status, headers, body) = shop
        .get(&format!(
            "/api/cart/track-order?id={number}&phone=01999999999"
        ))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
    let history = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM order_status_history h JOIN order_master o ON o.id = h.order_id \
             WHERE o.order_random = '{number}'"
        ))
        .await;
    assert_eq!(history, 1);
}

#[tokio::test]
async fn retried_placements_with_one_key_make_one_order() {
    let shop = Arc::new(TestShop::fresh().await);
    let (pid, _, _) = plain_product(&shop, 5).await;
    let t = "guest-iiii-0009.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, t, pid, 1).await;
    ready(&shop, t).await;
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let shop = Arc::clone(&shop);
        tasks.push(tokio::spawn(async move {
            place(&shop, t, Some("retry-key-123")).await
        }));
    }
    let mut numbers = Vec::new();
    for task in tasks {
        let (status, body) = task.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{body}");
        numbers.push(body["order_random"].as_str().unwrap().to_string());
    }
    numbers.dedup();
    assert_eq!(numbers.len(), 1, "every retry names the first order");
    let orders = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM order_master WHERE self_token = '{t}'"
        ))
        .await;
    assert_eq!(orders, 1);
    // Another guest's same key is another order's key.
    let u = "guest-jjjj-0010.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, u, pid, 1).await;
    ready(&shop, u).await;
    let (status, body) = place(&shop, u, Some("retry-key-123")).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(body["order_random"].as_str().unwrap(), numbers[0]);
    let (status, _) = place(&shop, u, Some("short")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn two_hundred_concurrent_placements_for_fifty_units_make_fifty_orders() {
    let shop = Arc::new(TestShop::fresh().await);
    let (pid, _, _) = plain_product(&shop, 1).await;
    db::query("UPDATE product SET stock = 200 WHERE id = $1")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let tokens: Vec<String> = (0..200)
        .map(|i| format!("rush-guest-{i:04}.k7Qx2mZp9LwR4tYv8NsB3hJd"))
        .collect();
    for t in &tokens {
        let (status, body) = add(&shop, t, pid, 1).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        ready(&shop, t).await;
    }
    // Only 50 are left when the rush starts.
    db::query("UPDATE product SET stock = 50 WHERE id = $1")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for t in tokens {
        let shop = Arc::clone(&shop);
        tasks.push(tokio::spawn(async move { place(&shop, &t, None).await }));
    }
    let (mut placed, mut refused) = (0, 0);
    for task in tasks {
        let (status, body) = task.await.unwrap();
        match status {
            StatusCode::OK => placed += 1,
            StatusCode::CONFLICT => {
                assert!(body["message"].as_str().unwrap().contains("sold out"));
                refused += 1
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!((placed, refused), (50, 150));
    assert_eq!(stock(&shop, pid).await, 0);
    let ordered = shop
        .scalar_i64(&format!(
            "SELECT COALESCE(CAST(SUM(d.qty) AS BIGINT), 0) FROM order_detail d \
             JOIN order_master o ON o.id = d.order_id \
             WHERE d.product_id = {pid} AND o.self_token LIKE 'rush-guest-%'"
        ))
        .await;
    assert_eq!(ordered, 50);
}

#[tokio::test]
async fn the_buy_switch_refuses_buying_with_a_clear_503() {
    let shop = TestShop::fresh().await;
    let (pid, _, _) = plain_product(&shop, 5).await;
    let t = "guest-kkkk-0011.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, t, pid, 1).await;
    ready(&shop, t).await;
    db::query("UPDATE setting SET value = 'on' WHERE name = 'disable_buy'")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (status, body) = add(&shop, t, pid, 1).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let (status, body) = place(&shop, t, None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body["message"].as_str().unwrap().contains("switched off"));
    // The cart is kept for when buying is back.
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["totalqty"], 1);
}

#[tokio::test]
async fn a_flash_sale_price_holds_from_its_first_instant_and_not_at_its_end() {
    let shop = TestShop::fresh().await;
    let (pid, _, price) = plain_product(&shop, 5).await;
    let now = catalog::clock::now_unix();
    // A sale that starts this very second (inclusive) gives 20 % off.
    let schedule: i64 = db::query_scalar(
        "INSERT INTO flash_schedule (fs_name, starts_at, ends_at) VALUES ('Test', $1, $2) RETURNING id",
    )
    .bind(now)
    .bind(now + 3_600)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    db::query(
        "INSERT INTO flash_item (schedule_id, product_id, discount_percent) VALUES ($1, $2, 20)",
    )
    .bind(schedule)
    .bind(pid)
    .execute(&shop.state.pool)
    .await
    .unwrap();
    let t = "guest-llll-0012.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (_, body) = add(&shop, t, pid, 1).await;
    assert_eq!(
        body["purchaseprice"],
        catalog::pricing::discounted(price, 20)
    );
    // One that ended at this instant (exclusive) does not.
    db::query("UPDATE flash_schedule SET starts_at = $1, ends_at = $2 WHERE id = $3")
        .bind(now - 3_600)
        .bind(now)
        .bind(schedule)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["items"][0]["purchaseprice"], price);
}

#[tokio::test]
async fn pre_bookings_are_ordered_alone_and_not_paid_on_delivery() {
    let shop = TestShop::fresh().await;
    let (plain, _, _) = plain_product(&shop, 5).await;
    let pre: i64 = shop
        .scalar_i64(
            "SELECT id FROM product WHERE pre_booking = TRUE AND is_active = TRUE AND disable_buy = FALSE \
             AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
        )
        .await;
    let t = "guest-mmmm-0013.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, t, plain, 1).await;
    let (status, body) = add(&shop, t, pre, 1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let u = "guest-nnnn-0014.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (status, body) = add(&shop, u, pre, 1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = add(&shop, u, plain, 1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (_, _, view) = shop.guest_get(u, "/api/cart/view").await;
    assert_eq!(view["prebooking"], true);
    let min = view["prebooking_min_amount"].as_i64().unwrap();
    let (status, _, _) = shop
        .guest_post(
            u,
            "/api/cart/store-payment-method",
            &json!({ "payment_method": "cash_on_delivery", "terms_check": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _, body) = shop
        .guest_post(
            u,
            "/api/cart/set-paying-amount",
            &json!({ "payingAmount": min }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = shop
        .guest_post(
            u,
            "/api/cart/set-paying-amount",
            &json!({ "payingAmount": min - 1 }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The range written as prices are (tester: "Pay between ৳10950 and ৳36500 now.").
    let message = body["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("Pay between {} and ", catalog::pricing::taka(min))),
        "{message}"
    );
    assert!(min < 1_000 || message.contains(','), "{message}");
}

/// Puts every product of set `set` in stock, and not on pre-booking, so the set can be bought.
/// The first active fabric of `set` (a set with fabrics needs one of them).
async fn set_fabric(shop: &TestShop, set: i64) -> i64 {
    shop.scalar_i64(&format!(
        "SELECT id FROM fabric WHERE product_set_id = {set} AND active ORDER BY sort, id LIMIT 1"
    ))
    .await
}

async fn stock_set_products(shop: &TestShop, set: i64) {
    db::query(
        "UPDATE product SET stock = 50, pre_booking = FALSE WHERE id IN \
         (SELECT product_id FROM product_set_item WHERE product_set_id = $1)",
    )
    .bind(set)
    .execute(&shop.state.pool)
    .await
    .unwrap();
}

/// The typed readers keep the old answers: a name given twice in a form
/// counts by its last value, a whole number may be written `2.0` in a body
/// (as JSON Schema's `integer` allows), an empty or `null` placement body is
/// no body, and a missing required parameter is a 400 naming it.
#[tokio::test]
async fn requests_are_read_as_their_schemas_say() {
    let shop = TestShop::fresh().await;
    let (pid, code, _) = plain_product(&shop, 5).await;
    let t = "guest-typed-0001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let request = axum::http::Request::builder()
        .method("POST")
        .uri(format!("/api/cart/add-to-cart?main_pid={pid}&qty=4"))
        .header("SELF-TOKEN", t)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(axum::body::Body::from("qty=2"))
        .unwrap();
    let (status, _, body) = shop.send(request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["total_qty"], 2, "the form's qty wins: {body}");

    let items = |qty: Value| json!({ "items": { code.clone(): { "qty": qty } } });
    let (status, _, body) = shop
        .guest_post(t, "/api/cart/update", &items(json!(3.0)))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, view) = shop.guest_get(t, "/api/cart/view").await;
    assert_eq!(view["cart"]["items"][0]["qty"], 3, "{view}");
    let (status, headers, body) = shop
        .guest_post(t, "/api/cart/update", &items(json!(2.5)))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);

    // Not a pre-booking: refused for what the cart is, not for how 5.0 is written.
    let (status, headers, body) = shop
        .guest_post(
            t,
            "/api/cart/set-paying-amount",
            &json!({ "payingAmount": 5.0 }),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);

    // No address yet: the cart is incomplete (409), the null body is no body.
    let (status, headers, body) = shop
        .request(
            "POST",
            "/api/cod-place-order",
            &[("SELF-TOKEN", t)],
            Some(&Value::Null),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);

    for (uri, field) in [
        ("/api/cart/get-delivery-charge", "district"),
        ("/api/cart/get-delivery-charge?district=%20", "district"),
        ("/api/cart/track-order?id=1234567890", "phone"),
        (
            "/api/cart/order-details?order_random=1234567890",
            "secret_key",
        ),
    ] {
        let (status, headers, body) = shop.guest_get(t, uri).await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
        assert_eq!(
            body["errors"][field][0],
            format!("{field} is required"),
            "{uri}: {body}"
        );
    }
}

#[tokio::test]
async fn guessable_self_tokens_are_refused_with_a_400_naming_the_header() {
    let shop = TestShop::fresh().await;
    let (pid, _, _) = plain_product(&shop, 5).await;
    let add = format!("/api/cart/add-to-cart?main_pid={pid}&qty=1");
    // The original client's shape (the time and ~11 base-36 characters),
    // and the values anybody would try first.
    for weak in [
        "1700000000000k3j2h9abcde",
        "12345678",
        "aaaaaaaa",
        "1700000000000Xb7kQ2pL9mZr4TwY8vNc3",
    ] {
        for uri in [
            add.as_str(),
            "/api/cart/view",
            "/api/cart/count-notification",
        ] {
            let (status, headers, body) = shop.guest_get(weak, uri).await;
            assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
            assert!(body["errors"]["SELF-TOKEN"][0]
                .as_str()
                .unwrap()
                .contains("at least 22 random characters"));
        }
    }
    // The web client's shape: the time and 22 base64url characters (128+ bits).
    let strong = "1700000000000Xb7kQ2pL9mZr4TwY8vNc3H";
    let (status, _, body) = shop.guest_get(strong, &add).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = shop.guest_get(strong, "/api/cart/view").await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
