//! Online payment settlement on a real SQLite file: an order is paid only by
//! a validation with the attempt's own transaction id and amount; a wrong
//! amount, a failure or a cancellation leaves it unpaid, cancels it and puts
//! its reserved stock back exactly once. The routes, while no gateway is
//! configured, answer what the OpenAPI document says they do.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::checkout::stock;
use common::{assert_api_error, TestShop};
use origin::domain::payments::{self, Outcome};
use origin::plumbing::error::ApiError;
use serde_json::{json, Value};

/// The gateway every attempt here goes through.
const GW: &str = "sslcommerz";

/// An online order for 3 units of a plain product, stock taken as placement
/// does: (order id, product id, stock before the order).
async fn pending_order(shop: &TestShop, number: &str) -> (i64, i64, i64) {
    let pool = &shop.state.pool;
    let (pid, price, stock): (i64, i64, i64) = db::query_as(
        "SELECT id, price_now, stock FROM product WHERE is_active = TRUE AND pre_booking = FALSE \
         AND stock >= 3 AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    let id: i64 = db::query_scalar(
        "INSERT INTO order_master (order_random, order_key, customer_name, phone, emergency_phone, \
         address, district, payment_method, payment_term_status, total_amount, grand_total) \
         VALUES ($1, 'k', 'A', '01711111111', '01811111111', 'Road 1', 'Dhaka', 'debitcredit', \
         'Pending', $2, $2) RETURNING id",
    )
    .bind(number)
    .bind(price * 3)
    .fetch_one(pool)
    .await
    .unwrap();
    db::query(
        "INSERT INTO order_detail (order_id, product_id, product_code, name, qty, \
         local_selling_price, local_purchase_price, total_purchase_price) \
         VALUES ($1, $2, 'c', 'n', 3, $3, $3, $4)",
    )
    .bind(id)
    .bind(pid)
    .bind(price)
    .bind(price * 3)
    .execute(pool)
    .await
    .unwrap();
    db::query("UPDATE product SET stock = stock - 3 WHERE id = $1")
        .bind(pid)
        .execute(pool)
        .await
        .unwrap();
    (id, pid, stock)
}

async fn order_state(shop: &TestShop, id: i64) -> (String, String, i64) {
    db::query_as(
        "SELECT payment_term_status, order_status, amount_paid FROM order_master WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn only_a_matching_validation_pays_an_order() {
    let shop = TestShop::fresh().await;
    let pool = &shop.state.pool;
    let (id, pid, before) = pending_order(&shop, "9000000001").await;
    let total = shop
        .scalar_i64(&format!(
            "SELECT grand_total FROM order_master WHERE id = {id}"
        ))
        .await;
    assert!(matches!(
        payments::begin(pool, id, "sslcommerz", total + 1, 1).await,
        Err(ApiError::BadRequest { .. })
    ));
    let tran = payments::begin(pool, id, "sslcommerz", total, 1)
        .await
        .unwrap();

    // A transaction id never issued is refused and pays nothing.
    let forged = Outcome::Validated {
        tran_id: "Tforged".into(),
        amount: total,
        gateway_ref: "x".into(),
    };
    assert!(matches!(
        payments::settle(pool, GW, &forged, 2).await,
        Err(ApiError::NotFound(_))
    ));
    assert_eq!(order_state(&shop, id).await.2, 0);

    let good = Outcome::Validated {
        tran_id: tran.clone(),
        amount: total,
        gateway_ref: "bank-1".into(),
    };
    // Another gateway cannot settle this gateway's attempt.
    assert!(matches!(
        payments::settle(pool, "nagad", &good, 2).await,
        Err(ApiError::NotFound(_))
    ));
    let settled = payments::settle(pool, GW, &good, 3).await.unwrap();
    assert!(settled.paid);
    assert_eq!(settled.order_id, id);
    assert_eq!(
        order_state(&shop, id).await,
        ("Successful".into(), "placed".into(), total)
    );
    // A repeated validation (or a late failure for it) changes nothing.
    assert!(payments::settle(pool, GW, &good, 4).await.unwrap().paid);
    let late = Outcome::Failed { tran_id: tran };
    assert!(payments::settle(pool, GW, &late, 5).await.unwrap().paid);
    assert_eq!(order_state(&shop, id).await.2, total);
    assert_eq!(stock(&shop, pid).await, before - 3);
}

#[tokio::test]
async fn a_wrong_amount_or_a_failure_cancels_and_releases_stock_once() {
    let shop = TestShop::fresh().await;
    let pool = &shop.state.pool;
    let (id, pid, before) = pending_order(&shop, "9000000002").await;
    let total = shop
        .scalar_i64(&format!(
            "SELECT grand_total FROM order_master WHERE id = {id}"
        ))
        .await;
    let tran = payments::begin(pool, id, GW, total, 1).await.unwrap();
    let short = Outcome::Validated {
        tran_id: tran.clone(),
        amount: total - 1,
        gateway_ref: "w".into(),
    };
    assert!(!payments::settle(pool, GW, &short, 2).await.unwrap().paid);
    assert_eq!(
        order_state(&shop, id).await,
        ("Failed".into(), "cancelled".into(), 0)
    );
    assert_eq!(stock(&shop, pid).await, before);
    // Settling again, or failing it, releases nothing more.
    assert!(!payments::settle(pool, GW, &short, 3).await.unwrap().paid);
    let failed = Outcome::Failed { tran_id: tran };
    assert!(!payments::settle(pool, GW, &failed, 4).await.unwrap().paid);
    assert_eq!(stock(&shop, pid).await, before);
    // A cancelled order takes no new attempt.
    assert!(matches!(
        payments::begin(pool, id, GW, total, 5).await,
        Err(ApiError::Conflict(_))
    ));

    let (id2, pid2, before2) = pending_order(&shop, "9000000003").await;
    let total2 = shop
        .scalar_i64(&format!(
            "SELECT grand_total FROM order_master WHERE id = {id2}"
        ))
        .await;
    let tran2 = payments::begin(pool, id2, "sslcommerz", total2, 6)
        .await
        .unwrap();
    let cancelled = Outcome::Cancelled { tran_id: tran2 };
    assert!(
        !payments::settle(pool, GW, &cancelled, 7)
            .await
            .unwrap()
            .paid
    );
    assert_eq!(order_state(&shop, id2).await.1, "cancelled");
    assert_eq!(stock(&shop, pid2).await, before2);
}

/// The statuses `doc` lists for `method path`.
fn documented(doc: &Value, method: &str, path: &str) -> Vec<String> {
    doc["paths"][path][method]["responses"]
        .as_object()
        .unwrap_or_else(|| panic!("{method} {path} is not documented"))
        .keys()
        .cloned()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[tokio::test]
async fn unconfigured_gateways_answer_the_documented_503_after_checking_the_input() {
    let shop = TestShop::open().await;
    let (_, _, doc) = shop.get("/api/openapi.json").await;
    let guest = "payments-doc-guest.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let calls = [
        (
            "post",
            "/sslcommerz/pay-via-ajax",
            format!("/sslcommerz/pay-via-ajax?self_token={guest}"),
        ),
        (
            "post",
            "/sslcommerz/existing-order-pay",
            "/sslcommerz/existing-order-pay?order_id=1".to_string(),
        ),
        (
            "post",
            "/sslcommerz/success",
            "/sslcommerz/success".to_string(),
        ),
        ("post", "/sslcommerz/ipn", "/sslcommerz/ipn".to_string()),
        (
            "get",
            "/api/nagad/pay-via-ajax",
            format!("/api/nagad/pay-via-ajax?token={guest}"),
        ),
        (
            "get",
            "/api/nagad/receive-nagad-data",
            "/api/nagad/receive-nagad-data?payment_ref_id=R1".to_string(),
        ),
        ("post", "/api/bkash/create", "/api/bkash/create".to_string()),
    ];
    for (method, path, uri) in calls {
        assert!(
            documented(&doc, method, path).contains(&"503".to_string()),
            "{method} {path} does not document its 503"
        );
        let body = json!({ "tran_id": "T1", "token": guest });
        let (status, headers, answer) = shop
            .request(
                &method.to_uppercase(),
                &uri,
                &[("SELF-TOKEN", guest)],
                Some(&body),
            )
            .await;
        assert_api_error(status, &headers, &answer, StatusCode::SERVICE_UNAVAILABLE);
    }
    // bKash documents its success as well as its 503.
    assert!(documented(&doc, "post", "/api/bkash/create").contains(&"200".to_string()));
    // The browser returns are redirects: a Location, no body.
    for (method, path) in [
        ("post", "/sslcommerz/success"),
        ("post", "/sslcommerz/fail"),
        ("post", "/sslcommerz/cancel"),
        ("get", "/api/nagad/receive-nagad-data"),
        ("get", "/api/bkash/callback"),
    ] {
        let see_other = &doc["paths"][path][method]["responses"]["303"];
        assert_eq!(see_other["headers"]["Location"]["required"], true, "{path}");
        assert!(see_other.get("content").is_none(), "{path}");
    }
    // Bad input is a 400 naming it, before the gateway is asked for.
    for (method, uri, field) in [
        (
            "POST",
            "/sslcommerz/existing-order-pay?order_id=0",
            "order_id",
        ),
        ("POST", "/sslcommerz/existing-order-pay", "order_id"),
        (
            "POST",
            "/sslcommerz/pay-via-ajax?self_token=no!",
            "self_token",
        ),
        ("GET", "/api/nagad/pay-via-ajax?token=short", "token"),
        ("GET", "/api/nagad/pay-via-ajax", "token"),
        (
            "GET",
            "/api/nagad/receive-nagad-data?payment_ref_id=%20",
            "payment_ref_id",
        ),
        ("POST", "/sslcommerz/ipn", "tran_id"),
    ] {
        let (status, headers, answer) = shop
            .request(method, uri, &[("SELF-TOKEN", guest)], Some(&json!({})))
            .await;
        assert_api_error(status, &headers, &answer, StatusCode::BAD_REQUEST);
        assert!(answer["errors"][field].is_array(), "{uri}: {answer}");
    }
}
