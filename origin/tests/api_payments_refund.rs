//! Refunds (`origin refund ORDER [AMOUNT]`) through the gateway that took
//! the payment, against the workspace's simulators in-process on loopback:
//! bKash's `payment/refund` and SSLCommerz's refund API, full and partial,
//! never more than was paid minus earlier refunds; recorded with the order
//! (`payment_refund`, `order_master.amount_refunded`, its history). The
//! command itself is run once as a process.

mod common;

use catalog::db;
use origin::domain::payments::refund::refund_order;
use origin::plumbing::error::ApiError;
use serde_json::json;

use common::checkout::{last_order, plain_product, ready};
use common::sim::{
    faults, history, paid_by_bkash, paid_by_card, report, shop_with_gateways, BKASH_ADMIN,
    CARD_ADMIN,
};
use common::TestShop;

const NOW: i64 = 1_900_000_000;

async fn order_number(shop: &TestShop, order_id: i64) -> String {
    db::query_scalar("SELECT order_random FROM order_master WHERE id = $1")
        .bind(order_id)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap()
}

async fn refunded(shop: &TestShop, order_id: i64) -> i64 {
    shop.scalar_i64(&format!(
        "SELECT amount_refunded FROM order_master WHERE id = {order_id}"
    ))
    .await
}

#[tokio::test]
async fn a_bkash_payment_is_refunded_in_part_then_in_full_and_never_more() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundbkash.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let order_id = paid_by_bkash(&shop, t, pid, 1).await;
    let (_, _, _, total, _) = last_order(&shop, t).await;
    let number = order_number(&shop, order_id).await;
    let gateways = &shop.state.payments;
    let pool = &shop.state.pool;

    // More than was paid: refused, nothing asked of bKash.
    let err = refund_order(pool, gateways, &number, Some(total + 1), "too much", NOW)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ApiError::BadRequest { .. }) && err.to_string().contains(&total.to_string()),
        "{err}"
    );
    let err = refund_order(pool, gateways, &number, Some(0), "nothing", NOW)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::BadRequest { .. }), "{err}");

    // Part of it, by the order's number.
    let report1 = refund_order(pool, gateways, &number, Some(100), "Scratched leg", NOW)
        .await
        .unwrap();
    assert_eq!((report1.paid, report1.refunded), (total, 100));
    assert_eq!(report1.lines.len(), 1);
    assert_eq!(report1.lines[0].status, "refunded", "{:?}", report1.lines);
    assert!(
        report1.lines[0].detail.starts_with("SIMR"),
        "bKash's refundTrxID"
    );
    assert_eq!(refunded(&shop, order_id).await, 100);

    // The rest, by the order's id.
    let rest = refund_order(pool, gateways, &order_id.to_string(), None, "Returned", NOW)
        .await
        .unwrap();
    assert_eq!(rest.refunded, total - 100);
    assert_eq!(refunded(&shop, order_id).await, total);
    assert_eq!(history(&shop, order_id, "refunded").await, 2);
    let err = refund_order(pool, gateways, &number, Some(1), "again", NOW)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Conflict(_)), "{err}");
    let r = report(&base, BKASH_ADMIN).await;
    assert_eq!(r["refunds"], 2, "{r}");
    // The order stays paid; its totals say what went back.
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    let key: String = db::query_scalar("SELECT order_key FROM order_master WHERE id = $1")
        .bind(order_id)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    let (status, _, details) = shop
        .get(&format!(
            "/api/cart/order-details?order_random={number}&secret_key={key}"
        ))
        .await;
    assert_eq!(status, axum::http::StatusCode::OK, "{details}");
    assert_eq!(details["order_masters"]["amount_paid"], total);
    assert_eq!(details["order_masters"]["amount_refunded"], total);
}

#[tokio::test]
async fn a_card_payment_is_refunded_through_sslcommerz() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundcard1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let order_id = paid_by_card(&shop, t, pid, 1).await;
    let number = order_number(&shop, order_id).await;
    let report1 = refund_order(
        &shop.state.pool,
        &shop.state.payments,
        &number,
        Some(250),
        "Late delivery",
        NOW,
    )
    .await
    .unwrap();
    assert_eq!(report1.refunded, 250);
    assert_eq!(report1.lines[0].gateway, "sslcommerz");
    assert!(report1.lines[0].detail.starts_with("SIMREFUND"));
    assert_eq!(refunded(&shop, order_id).await, 250);
    assert_eq!(report(&base, CARD_ADMIN).await["refunds"], 1);

    // The gateway down: the refund is recorded as failed, nothing counted,
    // and it can be asked again.
    faults(&base, CARD_ADMIN, json!({ "down": true })).await;
    let failed = refund_order(
        &shop.state.pool,
        &shop.state.payments,
        &number,
        Some(50),
        "Retry",
        NOW,
    )
    .await
    .unwrap();
    assert_eq!(failed.refunded, 0);
    assert_eq!(failed.lines[0].status, "failed");
    assert_eq!(refunded(&shop, order_id).await, 250);
    faults(&base, CARD_ADMIN, json!({})).await;
    let again = refund_order(
        &shop.state.pool,
        &shop.state.payments,
        &number,
        Some(50),
        "Retry",
        NOW,
    )
    .await
    .unwrap();
    assert_eq!(again.refunded, 50);
    assert_eq!(refunded(&shop, order_id).await, 300);
}

#[tokio::test]
async fn unknown_unpaid_or_cash_orders_are_not_refunded() {
    let (shop, _base) = shop_with_gateways().await;
    let pool = &shop.state.pool;
    let gateways = &shop.state.payments;
    let err = refund_order(pool, gateways, "NO-SUCH-ORDER", None, "x", NOW)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::NotFound(_)), "{err}");

    // Waiting for its payment: nothing was paid.
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundwait1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&shop, t, pid, 1, "bkash").await;
    common::sim::bkash_start(&shop, t).await;
    let (order_id, ..) = last_order(&shop, t).await;
    let err = refund_order(pool, gateways, &order_id.to_string(), None, "x", NOW)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Conflict(_)), "{err}");
    assert!(err.to_string().contains("no online payment"), "{err}");

    // Cash on delivery: nothing online to give back.
    let cod: i64 = shop
        .scalar_i64("SELECT MIN(id) FROM order_master WHERE payment_term_status = 'COD'")
        .await;
    let err = refund_order(pool, gateways, &cod.to_string(), None, "x", NOW)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Conflict(_)), "{err}");
}

#[tokio::test]
async fn the_refund_command_gives_money_back_and_says_so() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundcli01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let order_id = paid_by_bkash(&shop, t, pid, 1).await;
    let number = order_number(&shop, order_id).await;
    let run = |args: Vec<String>| {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_origin"));
        command
            .arg("refund")
            .args(args)
            .env("DATABASE_URL", &shop.url);
        for (name, value) in payments_sim::shop_env(&base) {
            command.env(name, value);
        }
        async move { command.output().await.unwrap() }
    };
    let out = run(vec![number.clone(), "120".into()]).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("120 taka through bkash"), "{stdout}");
    assert!(stdout.contains("refunded"), "{stdout}");
    assert_eq!(refunded(&shop, order_id).await, 120);
    // Too much: a clear error, exit 1.
    let out = run(vec![number.clone(), "99999999".into()]).await;
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("At most"), "{stderr}");
    let out = run(vec!["NO-SUCH".into()]).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no order"));
}
