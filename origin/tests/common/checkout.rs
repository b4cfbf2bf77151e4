//! A guest's way to an online payment, shared by the gateway suites: a plain
//! product with stock, the cart with an address and a method chosen, and what
//! the database then holds.

use axum::http::StatusCode;
use catalog::db;
use serde_json::json;

use super::TestShop;

/// A product with at least `stock` units and nothing that changes its price
/// or the way it is bought (no flash sale, variation or pre-booking):
/// (id, price now).
pub async fn plain_product(shop: &TestShop, stock: i64) -> (i64, i64) {
    db::query_as(
        "SELECT id, price_now FROM product WHERE is_active = TRUE AND disable_buy = FALSE \
         AND pre_booking = FALSE AND stock >= $1 AND id NOT IN (SELECT product_id FROM flash_item) \
         AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
    )
    .bind(stock)
    .fetch_one(&shop.state.pool)
    .await
    .expect("a plain product")
}

/// The product's stock.
pub async fn stock(shop: &TestShop, pid: i64) -> i64 {
    shop.scalar_i64(&format!("SELECT stock FROM product WHERE id = {pid}"))
        .await
}

/// How many lines the guest `token`'s cart holds.
pub async fn cart_lines(shop: &TestShop, token: &str) -> i64 {
    shop.scalar_i64(&format!(
        "SELECT COUNT(*) FROM cart_item i JOIN cart c ON c.id = i.cart_id WHERE c.self_token = '{token}'"
    ))
    .await
}

/// The guest `token` has `qty` of `pid` in the cart, an address and `method`
/// chosen.
pub async fn ready(shop: &TestShop, token: &str, pid: i64, qty: i64, method: &str) {
    let (status, _, body) = shop
        .guest_get(
            token,
            &format!("/api/cart/add-to-cart?main_pid={pid}&qty={qty}"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    address_and_method(shop, token, method).await;
}

/// The guest `token` gives the demo delivery address and chooses `method`.
pub async fn address_and_method(shop: &TestShop, token: &str, method: &str) {
    let address = json!({
        "name": "Rahima Khatun",
        "mobile": "01712345678",
        "emergency_mobile": "01812345678",
        "email": "rahima@example.com",
        "district": "Dhaka",
        "thana": "Mirpur",
        "address": "House 12, Road 3, Mirpur 10",
    });
    let (status, _, body) = shop
        .guest_post(token, "/api/cart/checkout-delivery-address", &address)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = shop
        .guest_post(
            token,
            "/api/cart/store-payment-method",
            &json!({ "payment_method": method, "terms_check": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// The guest's newest order: (id, payment_term_status, order_status,
/// grand_total, amount_paid).
pub async fn last_order(shop: &TestShop, token: &str) -> (i64, String, String, i64, i64) {
    db::query_as(
        "SELECT id, payment_term_status, order_status, grand_total, amount_paid FROM order_master \
         WHERE self_token = $1 ORDER BY id DESC LIMIT 1",
    )
    .bind(token)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}
