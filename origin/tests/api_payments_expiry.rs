//! Abandoned payments expire (issue 18): an online order neither paid nor
//! failed within the expiry is asked about once more at its gateway, then
//! cancelled with its stock and coupon use released exactly once, even when
//! two origins (two pools on one database) sweep at the same instant; a
//! payment confirmed after that is refunded automatically. Against the
//! workspace's simulators in-process on loopback, on SQLite or PostgreSQL
//! (TEST_POSTGRES_URL).

mod common;

use std::time::Duration;

use axum::http::StatusCode;
use catalog::db;
use origin::domain::payments::expiry::{self, expire};
use serde_json::json;

use common::checkout::{address_and_method, cart_lines, last_order, plain_product, stock};
use common::sim::{
    at_bkash_page, at_card_page, at_nagad_page, attempt, bkash_callback, bkash_start, card_return,
    card_start, faults, history, nagad_start, report, shop_with_gateways, BKASH_ADMIN, CARD_ADMIN,
    SITE,
};
use common::TestShop;

/// The expiry the tests sweep with, and an instant well past it.
const MAX_AGE: i64 = 30 * 60;

fn later() -> i64 {
    catalog::clock::now_unix() + 2 * MAX_AGE
}

async fn coupon_uses(shop: &TestShop, code: &str) -> i64 {
    db::query_scalar("SELECT used_count FROM coupon WHERE coupon_code = $1")
        .bind(code)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap()
}

/// The guest has `pid` in the cart with the coupon `FLAT500`, an address and
/// `method` chosen.
async fn ready_with_coupon(shop: &TestShop, token: &str, pid: i64, method: &str) {
    let (status, _, body) = shop
        .guest_get(
            token,
            &format!("/api/cart/add-to-cart?main_pid={pid}&qty=1"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = shop
        .guest_post(
            token,
            "/api/cart/coupon-apply",
            &json!({ "coupon": "FLAT500" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true, "{body}");
    address_and_method(shop, token, method).await;
}

#[tokio::test]
async fn an_abandoned_order_releases_its_stock_and_coupon_once_with_two_origins_racing() {
    let (shop, base) = shop_with_gateways().await;
    // A second origin: its own pool on the same database.
    let other = catalog::db::connect(&catalog::db::PoolConfig::new(&shop.url))
        .await
        .unwrap();
    let (pid, price) = plain_product(&shop, 5).await;
    assert!(price >= 5000, "FLAT500 needs 5000 taka");
    let stock_before = stock(&shop, pid).await;
    let uses_before = coupon_uses(&shop, "FLAT500").await;

    // One shopper leaves bKash's page, another the card gateway's.
    let (t1, t2) = (
        "1700000000000expirebkash.k7Qx2mZp9LwR4tYv8NsB3hJd",
        "1700000000000expirecard1.k7Qx2mZp9LwR4tYv8NsB3hJd",
    );
    ready_with_coupon(&shop, t1, pid, "bkash").await;
    bkash_start(&shop, t1).await;
    ready_with_coupon(&shop, t2, pid, "debitcredit").await;
    card_start(&shop, t2).await;
    let (o1, ..) = last_order(&shop, t1).await;
    let (o2, ..) = last_order(&shop, t2).await;
    assert_eq!(stock(&shop, pid).await, stock_before - 2);
    assert_eq!(coupon_uses(&shop, "FLAT500").await, uses_before + 2);

    // Not yet expired: nothing happens.
    let now = catalog::clock::now_unix();
    let swept = expire(&shop.state.pool, &shop.state.payments, MAX_AGE, now)
        .await
        .unwrap();
    assert_eq!(swept.found, 0);
    assert_eq!(last_order(&shop, t1).await.1, "Pending");

    // Past it, two origins sweep at the same instant.
    let when = later();
    let gateways = &shop.state.payments;
    let (a, b) = tokio::join!(
        expire(&shop.state.pool, gateways, MAX_AGE, when),
        expire(&other, gateways, MAX_AGE, when)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.expired + b.expired, 2, "{a:?} {b:?}");
    assert_eq!(a.settled + b.settled, 0, "{a:?} {b:?}");
    for (token, order_id) in [(t1, o1), (t2, o2)] {
        let (_, term, status, _, paid) = last_order(&shop, token).await;
        assert_eq!(
            (term.as_str(), status.as_str(), paid),
            ("Failed", "cancelled", 0)
        );
        assert_eq!(attempt(&shop, order_id).await.1, "expired");
        assert_eq!(history(&shop, order_id, "cancelled").await, 1, "once");
        assert_eq!(cart_lines(&shop, token).await, 1, "the cart is kept");
    }
    assert_eq!(stock(&shop, pid).await, stock_before, "released once");
    assert_eq!(coupon_uses(&shop, "FLAT500").await, uses_before);
    // Each gateway was asked once more before the order was cancelled.
    assert!(
        report(&base, BKASH_ADMIN).await["queries"]
            .as_u64()
            .unwrap()
            >= 1
    );
    assert!(report(&base, CARD_ADMIN).await["queries"].as_u64().unwrap() >= 1);

    // Sweeping again changes nothing.
    let again = expire(&other, gateways, MAX_AGE, when + 60).await.unwrap();
    assert_eq!(again.found, 0);
    assert_eq!(stock(&shop, pid).await, stock_before);
    other.close().await;
}

#[tokio::test]
async fn the_background_task_expires_old_orders() {
    let (shop, _base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    let t = "1700000000000expiretask1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    common::checkout::ready(&shop, t, pid, 1, "bkash").await;
    bkash_start(&shop, t).await;
    let (order_id, ..) = last_order(&shop, t).await;
    // Placed two expiries ago.
    let past = catalog::clock::now_unix() - 2 * MAX_AGE;
    for sql in [
        "UPDATE order_master SET ordered_at = $2 WHERE id = $1",
        "UPDATE payment SET created_at = $2 WHERE order_id = $1",
    ] {
        db::query(sql)
            .bind(order_id)
            .bind(past)
            .execute(&shop.state.pool)
            .await
            .unwrap();
    }
    let task = tokio::spawn(expiry::run(
        shop.state.pool.clone(),
        shop.state.payments.clone(),
        Duration::from_millis(100),
    ));
    let mut waited = 0;
    while last_order(&shop, t).await.1 == "Pending" && waited < 100 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    task.abort();
    assert_eq!(last_order(&shop, t).await.1, "Failed");
    assert_eq!(stock(&shop, pid).await, before);
    assert_eq!(expiry::period(MAX_AGE), Duration::from_secs(60));
    assert_eq!(expiry::period(20), Duration::from_secs(5));
}

#[tokio::test]
async fn an_approved_payment_whose_callback_was_lost_is_paid_not_expired() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000expirelost1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    common::checkout::ready(&shop, t, pid, 1, "bkash").await;
    let page = bkash_start(&shop, t).await;
    faults(&base, BKASH_ADMIN, json!({ "lose_callback": true })).await;
    assert_eq!(at_bkash_page(&page, "approve").await, None);
    faults(&base, BKASH_ADMIN, json!({})).await;
    let swept = expire(&shop.state.pool, &shop.state.payments, MAX_AGE, later())
        .await
        .unwrap();
    assert_eq!((swept.found, swept.settled, swept.expired), (1, 1, 0));
    let (_, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
}

#[tokio::test]
async fn a_payment_confirmed_after_expiry_is_refunded() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;

    // bKash: the shopper approves after the order expired.
    let t1 = "1700000000000expirelate1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    common::checkout::ready(&shop, t1, pid, 1, "bkash").await;
    let page = bkash_start(&shop, t1).await;
    // The card gateway: the shopper pays after the order expired.
    let t2 = "1700000000000expirelate2.k7Qx2mZp9LwR4tYv8NsB3hJd";
    common::checkout::ready(&shop, t2, pid, 1, "debitcredit").await;
    let card_page = card_start(&shop, t2).await;
    let swept = expire(&shop.state.pool, &shop.state.payments, MAX_AGE, later())
        .await
        .unwrap();
    assert_eq!(swept.expired, 2, "{swept:?}");
    assert_eq!(stock(&shop, pid).await, before);

    // Sent to /fail saying the order expired.
    let back = at_bkash_page(&page, "approve").await.expect("sent back");
    let sent = bkash_callback(&shop, &back).await;
    assert!(
        sent.starts_with(&format!("{SITE}/fail?reason=expired&")),
        "{sent}"
    );
    let post = at_card_page(&card_page, "approve").await.expect("posted");
    let sent = card_return(&shop, &post).await;
    assert!(
        sent.starts_with(&format!("{SITE}/fail?reason=expired&")),
        "{sent}"
    );

    for (token, gateway) in [(t1, "bkash"), (t2, "sslcommerz")] {
        let (order_id, term, status, _, paid) = last_order(&shop, token).await;
        assert_eq!(
            (term.as_str(), status.as_str(), paid),
            ("Failed", "cancelled", 0),
            "{gateway}: the order stays cancelled"
        );
        let (_, payment_status) = attempt(&shop, order_id).await;
        assert_eq!(payment_status, "late", "{gateway}");
        let (amount, refund_status): (i64, String) = db::query_as(
            "SELECT r.amount, r.status FROM payment_refund r JOIN payment p ON p.id = r.payment_id \
             WHERE r.order_id = $1",
        )
        .bind(order_id)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
        let taken: i64 = db::query_scalar("SELECT amount FROM payment WHERE order_id = $1")
            .bind(order_id)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
        assert_eq!(
            (amount, refund_status.as_str()),
            (taken, "refunded"),
            "{gateway}: given back whole"
        );
        assert_eq!(history(&shop, order_id, "late_payment").await, 1);
        assert_eq!(history(&shop, order_id, "paid").await, 0);
    }
    assert_eq!(stock(&shop, pid).await, before, "nothing taken twice");
    assert_eq!(report(&base, BKASH_ADMIN).await["refunds"], 1);
    assert_eq!(report(&base, CARD_ADMIN).await["refunds"], 1);

    // The return replayed gives nothing back twice.
    let sent = card_return(&shop, &post).await;
    assert!(sent.contains("/fail?reason=expired&"), "{sent}");
    assert_eq!(report(&base, CARD_ADMIN).await["refunds"], 1);
}

#[tokio::test]
async fn a_nagad_payment_confirmed_after_expiry_is_left_to_the_operator() {
    let (shop, _base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    let t = "1700000000000expirenagad.k7Qx2mZp9LwR4tYv8NsB3hJd";
    common::checkout::ready(&shop, t, pid, 1, "nagad").await;
    let page = nagad_start(&shop, t).await;
    let swept = expire(&shop.state.pool, &shop.state.payments, MAX_AGE, later())
        .await
        .unwrap();
    assert_eq!(swept.expired, 1, "{swept:?}");
    assert_eq!(stock(&shop, pid).await, before);

    // The shopper pays at Nagad after that: Nagad takes no refunds through
    // its API, so the payment is flagged for the operator, never lost.
    let back = at_nagad_page(&page, "approve").await.expect("sent back");
    let path = back.strip_prefix(SITE).unwrap();
    let (status, headers, _) = shop.get(path).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let sent = headers["location"].to_str().unwrap();
    assert!(
        sent.starts_with(&format!("{SITE}/fail?reason=expired&")),
        "{sent}"
    );
    let (order_id, term, ..) = last_order(&shop, t).await;
    assert_eq!(term, "Failed");
    assert_eq!(attempt(&shop, order_id).await.1, "late");
    let (refund_status, message): (String, String) =
        db::query_as("SELECT status, message FROM payment_refund WHERE order_id = $1")
            .bind(order_id)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!(refund_status, "operator");
    assert!(message.contains("by hand"), "{message}");
    assert_eq!(history(&shop, order_id, "refund_pending").await, 1);
    // The refund command says there is nothing more it can give back.
    let err = origin::domain::payments::refund::refund_order(
        &shop.state.pool,
        &shop.state.payments,
        &order_id.to_string(),
        None,
        "again",
        later(),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("left to the operator"), "{err}");
}
