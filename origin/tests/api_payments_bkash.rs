//! bKash Tokenized Checkout end to end: the real router on a real seeded
//! database (SQLite, or PostgreSQL with TEST_POSTGRES_URL), and the workspace's
//! simulated bKash (`payments-sim`) started in-process on loopback. The
//! shopper's part is played over HTTP: the test opens the simulator's hosted
//! page, follows its approve, decline or cancel link, and brings the
//! redirect back to the shop's callback. Faults are switched on at the
//! simulator: insufficient balance, execute's answer lost, callback lost,
//! amount tampered, gateway down, short-lived tokens.

mod common;

use axum::http::StatusCode;
use catalog::db;
use serde_json::json;

use common::checkout::{cart_lines, last_order, plain_product, ready, stock};
use common::sim::{
    at_bkash_page, attempt, bkash_callback as callback, bkash_create as create,
    bkash_start as start, faults, history, paid_page, refund_of, report, shop_at, simulator,
    BKASH_ADMIN, SITE,
};
use common::TestShop;
use origin::config::{PaymentArgs, Secret};
use origin::domain::payments::{bkash, Confirmed};

/// bKash alone, at the simulator `base`, with the app key `app_key`.
fn args(base: &str, app_key: &str) -> PaymentArgs {
    PaymentArgs {
        bkash_base_url: base.into(),
        bkash_app_key: Some(Secret(app_key.into())),
        bkash_app_secret: Some(Secret(payments_sim::APP_SECRET.into())),
        bkash_username: Some(payments_sim::USERNAME.into()),
        bkash_password: Some(Secret(payments_sim::PASSWORD.into())),
        ..Default::default()
    }
}

/// A fresh shop paying by bKash alone through a new simulator: (shop,
/// simulator base).
async fn shop_with_bkash() -> (TestShop, String) {
    let base = simulator().await;
    let shop = shop_at(args(&base, payments_sim::APP_KEY)).await;
    (shop, base)
}

async fn thank_you(shop: &TestShop, order_id: i64) -> String {
    paid_page(shop, order_id, "/thank-you").await
}

#[tokio::test]
async fn a_bkash_payment_is_created_approved_executed_and_paid_once() {
    let (shop, base) = shop_with_bkash().await;
    let (_, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(gateways["bkash"]["active"], true);
    assert_eq!(gateways["nagad"]["active"], false);

    let t = "1700000000000bkashguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 2, "bkash").await;
    let page = start(&shop, t).await;
    let (order_id, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Pending", 0));
    assert_eq!(stock(&shop, pid).await, before - 2, "stock reserved");
    let payment_id = page.rsplit('=').next().unwrap().to_string();
    let recorded: String = db::query_scalar("SELECT gateway_ref FROM payment WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    assert_eq!(
        recorded, payment_id,
        "the paymentID is kept with the attempt"
    );

    // A callback before approval (forged "success") proves nothing.
    let forged = format!("{SITE}/api/bkash/callback?paymentID={payment_id}&status=success");
    let sent = callback(&shop, &forged).await;
    assert!(sent.starts_with(&format!("{SITE}/fail?reason=")), "{sent}");
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    // So does a paymentID bKash never issued.
    let unknown = format!("{SITE}/api/bkash/callback?paymentID=TR0011nope&status=success");
    assert!(callback(&shop, &unknown).await.contains("/fail?reason="));

    let back = at_bkash_page(&page, "approve").await.expect("sent back");
    assert!(back.contains("status=success"), "{back}");
    // The browser's callback arrives twice at once (a double click, a
    // replay): one execute completes, the other is refused and queried.
    let (first, second) = tokio::join!(callback(&shop, &back), callback(&shop, &back));
    let thanks = thank_you(&shop, order_id).await;
    assert_eq!(first, thanks);
    assert_eq!(second, thanks);
    // And once more, later.
    assert_eq!(callback(&shop, &back).await, thanks);
    let (_, term, status, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    assert_ne!(status, "cancelled");
    assert_eq!(history(&shop, order_id, "paid").await, 1, "paid once");
    assert_eq!(stock(&shop, pid).await, before - 2, "stock kept");
    assert_eq!(cart_lines(&shop, t).await, 0, "the cart is emptied");
    let trx: String = db::query_scalar("SELECT gateway_ref FROM payment WHERE order_id = $1")
        .bind(order_id)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    assert!(trx.starts_with("SIM"), "bKash's trxID recorded: {trx}");
    let r = report(&base, BKASH_ADMIN).await;
    assert_eq!(r["grants"], 1, "one token for every call: {r}");
    assert!(r["executes"].as_u64().unwrap() >= 2, "{r}");
}

#[tokio::test]
async fn declined_cancelled_or_unfunded_payments_release_the_stock() {
    let (shop, base) = shop_with_bkash().await;
    let (pid, _) = plain_product(&shop, 5).await;
    for (i, action) in ["decline", "cancel", "broke"].into_iter().enumerate() {
        let t = format!("1700000000000bkashfail{i}.k7Qx2mZp9LwR4tYv8NsB3hJd");
        let before = stock(&shop, pid).await;
        ready(&shop, &t, pid, 1, "bkash").await;
        let page = start(&shop, &t).await;
        let (order_id, ..) = last_order(&shop, &t).await;
        assert_eq!(stock(&shop, pid).await, before - 1);
        let clicked = if action == "broke" {
            faults(&base, BKASH_ADMIN, json!({ "insufficient_balance": true })).await;
            "approve"
        } else {
            action
        };
        let back = at_bkash_page(&page, clicked).await.expect("sent back");
        let sent = callback(&shop, &back).await;
        faults(&base, BKASH_ADMIN, json!({})).await;
        // Why, as a code the shop's fail page words.
        let reason = if action == "cancel" {
            "cancelled"
        } else {
            "declined"
        };
        assert!(
            sent.starts_with(&format!("{SITE}/fail?reason={reason}&data=")),
            "{action}: {sent}"
        );
        let (_, term, status, _, paid) = last_order(&shop, &t).await;
        assert_eq!(
            (term.as_str(), status.as_str(), paid),
            ("Failed", "cancelled", 0),
            "{action}"
        );
        assert_eq!(stock(&shop, pid).await, before, "{action}: stock released");
        assert_eq!(cart_lines(&shop, &t).await, 1, "{action}: the cart is kept");
        assert_eq!(history(&shop, order_id, "paid").await, 0);
        let expected = if action == "cancel" {
            "cancelled"
        } else {
            "failed"
        };
        let status: String = db::query_scalar("SELECT status FROM payment WHERE order_id = $1")
            .bind(order_id)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
        assert_eq!(status, expected, "{action}");
        // Replaying the callback changes nothing.
        let again = callback(&shop, &back).await;
        assert!(
            again.contains(&format!("/fail?reason={reason}&")),
            "{again}"
        );
        assert_eq!(stock(&shop, pid).await, before, "{action}: released once");
    }
}

#[tokio::test]
async fn a_lost_callback_or_a_lost_execute_answer_is_settled_by_query() {
    let (shop, base) = shop_with_bkash().await;
    let (pid, _) = plain_product(&shop, 5).await;

    // The callback never arrives: the shop settles the attempt itself.
    let t = "1700000000000bkashlost1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&shop, t, pid, 1, "bkash").await;
    let page = start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    faults(&base, BKASH_ADMIN, json!({ "lose_callback": true })).await;
    assert_eq!(at_bkash_page(&page, "approve").await, None);
    faults(&base, BKASH_ADMIN, json!({})).await;
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    let tran = attempt(&shop, order_id).await.0;
    let gateway = shop.state.payments.bkash.as_ref().unwrap();
    let http = &shop.state.payments.http;
    let settled = bkash::recheck(&shop.state.pool, http, gateway, &tran, 1_800_000_000)
        .await
        .unwrap();
    assert!(
        matches!(settled, Confirmed::Settled { paid: true, .. }),
        "{settled:?}"
    );
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    // Settled attempts are not checked again.
    let again = bkash::recheck(&shop.state.pool, http, gateway, &tran, 1_800_000_001)
        .await
        .unwrap();
    assert_eq!(again, Confirmed::Unconfirmed);
    assert_eq!(history(&shop, order_id, "paid").await, 1);

    // Execute completes at bKash but its answer is lost: query says so.
    let t = "1700000000000bkashlost2.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&shop, t, pid, 1, "bkash").await;
    let page = start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    let back = at_bkash_page(&page, "approve").await.unwrap();
    faults(&base, BKASH_ADMIN, json!({ "execute_timeout": true })).await;
    let before = report(&base, BKASH_ADMIN).await["queries"]
        .as_u64()
        .unwrap();
    assert_eq!(
        callback(&shop, &back).await,
        thank_you(&shop, order_id).await
    );
    assert!(
        report(&base, BKASH_ADMIN).await["queries"]
            .as_u64()
            .unwrap()
            > before
    );
    faults(&base, BKASH_ADMIN, json!({})).await;
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
}

#[tokio::test]
async fn a_tampered_amount_is_not_paid() {
    let (shop, base) = shop_with_bkash().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000bkashshort.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "bkash").await;
    let page = start(&shop, t).await;
    let back = at_bkash_page(&page, "approve").await.unwrap();
    faults(&base, BKASH_ADMIN, json!({ "tamper_amount": true })).await;
    let sent = callback(&shop, &back).await;
    assert!(sent.contains("/fail?reason=failed&"), "{sent}");
    let (order_id, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Failed", 0));
    assert_eq!(history(&shop, order_id, "paid").await, 0);
    assert_eq!(stock(&shop, pid).await, before);
    // What bKash took is not dropped: the attempt keeps its reference and
    // the amount confirmed, the order's history says so, and it goes back.
    let (status, reference, amount): (String, String, i64) =
        db::query_as("SELECT status, gateway_ref, amount FROM payment WHERE order_id = $1")
            .bind(order_id)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!(status, "mismatch");
    assert!(!reference.is_empty());
    assert_eq!(amount, total - 1);
    assert_eq!(history(&shop, order_id, "payment_mismatch").await, 1);
    assert_eq!(
        refund_of(&shop, order_id).await,
        ("refunded".into(), total - 1)
    );
    assert_eq!(report(&base, BKASH_ADMIN).await["refunds"], 1);
}

#[tokio::test]
async fn a_bkash_that_is_down_answers_a_clean_503_and_loses_nothing() {
    let (shop, base) = shop_with_bkash().await;
    let (pid, _) = plain_product(&shop, 5).await;

    // Down when the shopper starts: 503, the order cancelled, stock back,
    // the cart kept to try again.
    let t = "1700000000000bkashdown1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "bkash").await;
    faults(&base, BKASH_ADMIN, json!({ "down": true })).await;
    let (status, body) = create(&shop, t).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("bKash"),
        "{body}"
    );
    let (_, term, status, _, _) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), status.as_str()), ("Failed", "cancelled"));
    assert_eq!(stock(&shop, pid).await, before);
    assert_eq!(cart_lines(&shop, t).await, 1);

    // Down when the shopper comes back: sent to /fail, the order waits;
    // the callback once bKash is back pays it.
    faults(&base, BKASH_ADMIN, json!({})).await;
    let page = start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    let back = at_bkash_page(&page, "approve").await.unwrap();
    faults(&base, BKASH_ADMIN, json!({ "down": true })).await;
    let sent = callback(&shop, &back).await;
    assert!(sent.contains("/fail?reason=unavailable&"), "{sent}");
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    faults(&base, BKASH_ADMIN, json!({})).await;
    assert_eq!(
        callback(&shop, &back).await,
        thank_you(&shop, order_id).await
    );
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));

    // Wrong credentials: bKash refuses the token (2001), a clean 503.
    let wrong = shop_at(args(&base, "not-the-app-key")).await;
    let t = "1700000000000bkashwrong.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&wrong, t, pid, 1, "bkash").await;
    let (status, body) = create(&wrong, t).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(last_order(&wrong, t).await.1, "Failed");
}

#[tokio::test]
async fn the_token_is_renewed_before_it_expires() {
    let (shop, base) = shop_with_bkash().await;
    faults(&base, BKASH_ADMIN, json!({ "token_ttl": 1 })).await;
    let (pid, _) = plain_product(&shop, 5).await;
    for i in 0..2 {
        let t = format!("1700000000000bkashtoken{i}.k7Qx2mZp9LwR4tYv8NsB3hJd");
        ready(&shop, &t, pid, 1, "bkash").await;
        start(&shop, &t).await;
        tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    }
    let r = report(&base, BKASH_ADMIN).await;
    assert_eq!(r["grants"], 1, "{r}");
    assert_eq!(r["refreshes"], 1, "{r}");
    assert_eq!(r["expired_tokens"], 0, "{r}");
    assert_eq!(r["creates"], 2, "{r}");
}

/// The tester's finding: backing out of the gateway's page left the order
/// waiting with its stock taken, and paying again made a second order.
#[tokio::test]
async fn paying_the_cart_again_cancels_the_abandoned_order_and_gives_back_a_late_payment() {
    let (shop, base) = shop_with_bkash().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000bkashagain.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 2, "bkash").await;
    let abandoned = start(&shop, t).await;
    let (first, ..) = last_order(&shop, t).await;
    // Back from bKash's page without paying; the cart is still there.
    assert_eq!(cart_lines(&shop, t).await, 1);
    let page = start(&shop, t).await;
    let (second, term, _, total, _) = last_order(&shop, t).await;
    assert_ne!(first, second);
    assert_eq!(term, "Pending");
    let (term, status): (String, String) =
        db::query_as("SELECT payment_term_status, order_status FROM order_master WHERE id = $1")
            .bind(first)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!((term.as_str(), status.as_str()), ("Failed", "cancelled"));
    assert_eq!(stock(&shop, pid).await, before - 2, "taken once, not twice");
    // The second is paid.
    let back = at_bkash_page(&page, "approve").await.unwrap();
    assert_eq!(callback(&shop, &back).await, thank_you(&shop, second).await);
    // Had the shopper paid the first page after all, it is given back.
    let back = at_bkash_page(&abandoned, "approve").await.unwrap();
    let sent = callback(&shop, &back).await;
    assert!(sent.contains("/fail?reason="), "{sent}");
    assert_eq!(refund_of(&shop, first).await, ("refunded".into(), total));
    assert_eq!(report(&base, BKASH_ADMIN).await["refunds"], 1);
    assert_eq!(stock(&shop, pid).await, before - 2);
}
