//! Refunds (`origin refund ORDER [AMOUNT]`) through the gateway that took
//! the payment, against the workspace's simulators in-process on loopback:
//! bKash's `payment/refund` and SSLCommerz's refund API, full and partial,
//! never more than was paid minus earlier refunds; recorded with the order
//! (`payment_refund`, `order_master.amount_refunded`, its history). A
//! refund answered `processing` is polled until it ends; one whose answer
//! was lost is recorded `unknown` (never `failed`, never asked twice) and
//! settled by bKash's refund status. The command itself is run once as a
//! process.

mod common;

use catalog::db;
use origin::domain::payments::refund::{refund_order, settle_refunds};
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
    let run = |args: Vec<String>| refund_command(&shop, &base, args);
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

/// Runs `origin refund ARGS` against the shop and the simulators.
async fn refund_command(shop: &TestShop, base: &str, args: Vec<String>) -> std::process::Output {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_origin"));
    command
        .arg("refund")
        .args(args)
        .env("DATABASE_URL", &shop.url);
    for (name, value) in payments_sim::shop_env(base) {
        command.env(name, value);
    }
    command.output().await.unwrap()
}

#[tokio::test]
async fn the_refund_command_accepts_a_refund_the_gateway_is_still_processing() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundcli02.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let order_id = paid_by_card(&shop, t, pid, 1).await;
    let number = order_number(&shop, order_id).await;
    faults(&base, CARD_ADMIN, json!({ "refund_processing": true })).await;
    let out = refund_command(&shop, &base, vec![number, "250".into()]).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("processing"), "{stdout}");
    assert!(
        stdout.contains("250 taka still to be confirmed by the gateway"),
        "{stdout}"
    );
    assert_eq!(refunded(&shop, order_id).await, 0, "not given back yet");
}

/// The refund rows of an order, oldest first: (status, amount, refund_ref).
async fn refund_rows(shop: &TestShop, order_id: i64) -> Vec<(String, i64, String)> {
    db::query_as(
        "SELECT status, amount, refund_ref FROM payment_refund WHERE order_id = $1 ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(&shop.state.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_bkash_refund_whose_answer_is_lost_is_settled_by_its_status_and_never_given_twice() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundlost1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let order_id = paid_by_bkash(&shop, t, pid, 1).await;
    let (_, _, _, total, _) = last_order(&shop, t).await;
    let number = order_number(&shop, order_id).await;
    let (pool, gateways) = (&shop.state.pool, &shop.state.payments);

    // bKash gives the money back but its answer is lost (504): not
    // "failed" (it was done), but unknown until asked.
    faults(&base, BKASH_ADMIN, json!({ "refund_answer_lost": true })).await;
    let lost = refund_order(pool, gateways, &number, Some(100), "Scratched", NOW)
        .await
        .unwrap();
    assert_eq!(lost.lines[0].status, "unknown", "{:?}", lost.lines);
    assert_eq!(lost.refunded, 0);
    assert_eq!(refunded(&shop, order_id).await, 0);
    assert_eq!(report(&base, BKASH_ADMIN).await["refunds"], 1);
    faults(&base, BKASH_ADMIN, json!({})).await;

    // While it is unknown nothing more is asked of bKash: not the same
    // money again, nor another refund that could hide it.
    let err = refund_order(pool, gateways, &number, None, "again", NOW)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Conflict(_)), "{err}");
    assert!(err.to_string().contains("answer was lost"), "{err}");
    assert_eq!(report(&base, BKASH_ADMIN).await["refunds"], 1);

    // The sweep asks bKash's refund status: done, recorded once.
    assert_eq!(settle_refunds(pool, gateways, NOW + 60).await.unwrap(), 1);
    let rows = refund_rows(&shop, order_id).await;
    assert_eq!(
        (rows[0].0.as_str(), rows[0].1),
        ("refunded", 100),
        "{rows:?}"
    );
    assert!(
        rows[0].2.starts_with("SIMR"),
        "bKash's refundTrxID: {rows:?}"
    );
    assert_eq!(refunded(&shop, order_id).await, 100);
    assert_eq!(history(&shop, order_id, "refunded").await, 1);
    assert_eq!(settle_refunds(pool, gateways, NOW + 120).await.unwrap(), 0);
    assert_eq!(refunded(&shop, order_id).await, 100, "counted once");
    let r = report(&base, BKASH_ADMIN).await;
    assert_eq!(
        (r["refunds"].as_u64(), r["refund_queries"].as_u64()),
        (Some(1), Some(1)),
        "{r}"
    );

    // Settled, the rest can be given back; at most what is left.
    let rest = refund_order(pool, gateways, &number, None, "Returned", NOW)
        .await
        .unwrap();
    assert_eq!(rest.refunded, total - 100);
    assert_eq!(refunded(&shop, order_id).await, total);
    assert_eq!(report(&base, BKASH_ADMIN).await["refunds"], 2);
}

#[tokio::test]
async fn a_card_refund_processing_is_polled_until_it_is_refunded() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundproc1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let order_id = paid_by_card(&shop, t, pid, 1).await;
    let number = order_number(&shop, order_id).await;
    let (pool, gateways) = (&shop.state.pool, &shop.state.payments);

    faults(&base, CARD_ADMIN, json!({ "refund_processing": true })).await;
    let asked = refund_order(pool, gateways, &number, Some(250), "Late delivery", NOW)
        .await
        .unwrap();
    assert_eq!(asked.lines[0].status, "processing", "{:?}", asked.lines);
    assert_eq!(asked.refunded, 0);
    assert_eq!(refunded(&shop, order_id).await, 0, "not given back yet");
    assert_eq!(history(&shop, order_id, "refund_pending").await, 1);

    // Still processing at the gateway: asked, nothing recorded.
    assert_eq!(settle_refunds(pool, gateways, NOW + 60).await.unwrap(), 0);
    assert_eq!(refund_rows(&shop, order_id).await[0].0, "processing");
    assert_eq!(report(&base, CARD_ADMIN).await["refund_queries"], 1);

    // Done at the gateway: the next sweep records it, once, by the
    // refund_ref_id SSLCommerz answered; every origin may sweep.
    faults(&base, CARD_ADMIN, json!({})).await;
    let other_origin =
        origin::domain::payments::Gateways::from_args(&common::sim::args(&base), common::sim::SITE)
            .unwrap();
    let (a, b) = tokio::join!(
        settle_refunds(pool, gateways, NOW + 120),
        settle_refunds(pool, &other_origin, NOW + 120)
    );
    assert_eq!(a.unwrap() + b.unwrap(), 1, "settled by one origin");
    let rows = refund_rows(&shop, order_id).await;
    assert_eq!(rows[0].0, "refunded", "{rows:?}");
    assert!(rows[0].2.starts_with("SIMREFUND"), "{rows:?}");
    assert_eq!(refunded(&shop, order_id).await, 250);
    assert_eq!(history(&shop, order_id, "refunded").await, 1);
    assert_eq!(settle_refunds(pool, gateways, NOW + 180).await.unwrap(), 0);
    assert_eq!(refunded(&shop, order_id).await, 250);
    assert_eq!(report(&base, CARD_ADMIN).await["refunds"], 1);
}

#[tokio::test]
async fn a_card_refund_whose_answer_is_lost_is_never_asked_again() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000refundlost2.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let order_id = paid_by_card(&shop, t, pid, 1).await;
    let number = order_number(&shop, order_id).await;
    let (pool, gateways) = (&shop.state.pool, &shop.state.payments);

    faults(&base, CARD_ADMIN, json!({ "refund_answer_lost": true })).await;
    let lost = refund_order(pool, gateways, &number, None, "Returned", NOW)
        .await
        .unwrap();
    assert_eq!(lost.lines[0].status, "unknown", "{:?}", lost.lines);
    faults(&base, CARD_ADMIN, json!({})).await;
    // SSLCommerz's refund query needs the refund_ref_id the lost answer
    // carried: it stays unknown for the operator, counted as given, and
    // nothing is asked again.
    assert_eq!(settle_refunds(pool, gateways, NOW + 60).await.unwrap(), 0);
    let rows = refund_rows(&shop, order_id).await;
    assert_eq!(rows[0].0, "unknown", "{rows:?}");
    let err = refund_order(pool, gateways, &number, None, "again", NOW)
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Conflict(_)), "{err}");
    let r = report(&base, CARD_ADMIN).await;
    assert_eq!(
        (r["refunds"].as_u64(), r["refund_queries"].as_u64()),
        (Some(1), Some(0)),
        "{r}"
    );
    assert_eq!(refunded(&shop, order_id).await, 0);
}
