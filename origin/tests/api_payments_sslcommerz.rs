//! The card gateway (SSLCommerz's protocol) end to end: the real router on a
//! real seeded database (SQLite, or PostgreSQL with TEST_POSTGRES_URL) and the
//! workspace's simulated SSLCommerz (`payments-sim`) in-process on loopback.
//! The shopper's part is played over HTTP: the test opens the simulator's
//! hosted page, follows approve, decline or cancel, and posts the form the
//! page would make the browser post back to the shop. The IPN the simulator
//! signs (verify_sign, MD5 as SSLCommerz documents) is replayed to the shop;
//! one forged (unsigned, signed with another password, or changed after
//! signing) is refused before the gateway is asked anything. Faults: the
//! return lost (settled by the IPN, or by the transaction query when the IPN
//! is lost too), the amount tampered, the gateway down. Every way to /fail
//! says why in a `reason` code.

mod common;

use std::collections::BTreeMap;

use axum::http::StatusCode;
use serde_json::{json, Value};

use common::checkout::{cart_lines, last_order, plain_product, ready, stock};
use common::sim::{
    at_card_page, attempt, card_pay, card_return, card_start, faults, history, post_form, report,
    shop_with_gateways, CARD_ADMIN, SITE,
};

/// The last IPN the simulator sent, as form fields.
async fn last_ipn(base: &str) -> Vec<(String, String)> {
    let r = report(base, CARD_ADMIN).await;
    r["last_ipn"]
        .as_object()
        .expect("an IPN")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect()
}

async fn ipn(shop: &common::TestShop, fields: &[(String, String)]) -> (StatusCode, Value) {
    let (status, _, body) = post_form(shop, &format!("{SITE}/sslcommerz/ipn"), fields).await;
    (status, body)
}

#[tokio::test]
async fn a_card_payment_is_paid_once_through_the_hosted_page() {
    let (shop, base) = shop_with_gateways().await;
    let (_, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(gateways["debitcredit"]["active"], true);

    let t = "1700000000000cardguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 2, "debitcredit").await;
    let page = card_start(&shop, t).await;
    let (order_id, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Pending", 0));
    assert_eq!(stock(&shop, pid).await, before - 2);
    let html = reqwest::get(&page).await.unwrap().text().await.unwrap();
    assert!(html.contains(&format!("৳ {total}.00")), "{html}");

    // A forged return before paying proves nothing.
    let (tran_id, _) = attempt(&shop, order_id).await;
    let forged = vec![
        ("tran_id".to_string(), tran_id.clone()),
        ("val_id".to_string(), "SIMVALforged".to_string()),
        ("status".to_string(), "VALID".to_string()),
        ("amount".to_string(), format!("{total}.00")),
    ];
    let sent = card_return(&shop, &(format!("{SITE}/sslcommerz/success"), forged)).await;
    assert!(
        sent.starts_with(&format!("{SITE}/fail?reason=failed&data=")),
        "{sent}"
    );
    assert_eq!(last_order(&shop, t).await.1, "Pending");

    let post = at_card_page(&page, "approve").await.expect("posted back");
    assert_eq!(post.0, format!("{SITE}/sslcommerz/success"));
    let sent = card_return(&shop, &post).await;
    assert!(
        sent.starts_with(&format!("{SITE}/redirect-from-ssl?order_random=")),
        "{sent}"
    );
    assert!(sent.ends_with("&from=ssl"), "{sent}");
    // The return replayed, and the IPN, change nothing more.
    assert_eq!(card_return(&shop, &post).await, sent);
    let fields = last_ipn(&base).await;
    let (status, body) = ipn(&shop, &fields).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body,
        json!({ "success": true, "paid": true, "reason": null })
    );

    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    assert_eq!(history(&shop, order_id, "paid").await, 1, "paid once");
    assert_eq!(stock(&shop, pid).await, before - 2, "stock kept");
    assert_eq!(cart_lines(&shop, t).await, 0, "the cart is emptied");
    let (_, status) = attempt(&shop, order_id).await;
    assert_eq!(status, "validated");

    // The IPN is signed as SSLCommerz documents it.
    let map: BTreeMap<String, String> = fields.iter().cloned().collect();
    let keys: Vec<String> = map["verify_key"].split(',').map(str::to_string).collect();
    assert!(keys.contains(&"val_id".to_string()) && keys.contains(&"amount".to_string()));
    assert_eq!(
        payments_sim::sslcommerz::verify_sign(
            &map,
            &keys,
            payments_sim::sslcommerz::STORE_PASSWORD
        ),
        map["verify_sign"]
    );
    assert_ne!(
        payments_sim::sslcommerz::verify_sign(&map, &keys, "another-password"),
        map["verify_sign"]
    );
    let r = report(&base, CARD_ADMIN).await;
    assert_eq!(r["sessions"], 1, "{r}");
    assert!(r["validations"].as_u64().unwrap() >= 2, "{r}");
}

#[tokio::test]
async fn declined_or_cancelled_card_payments_release_the_stock() {
    let (shop, _base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    for (i, action) in ["decline", "cancel"].into_iter().enumerate() {
        let t = format!("1700000000000cardfail{i}.k7Qx2mZp9LwR4tYv8NsB3hJd");
        let before = stock(&shop, pid).await;
        ready(&shop, &t, pid, 1, "debitcredit").await;
        let page = card_start(&shop, &t).await;
        let (order_id, ..) = last_order(&shop, &t).await;
        assert_eq!(stock(&shop, pid).await, before - 1);
        let post = at_card_page(&page, action).await.expect("posted back");
        let expected_url = if action == "decline" {
            "/sslcommerz/fail"
        } else {
            "/sslcommerz/cancel"
        };
        assert_eq!(post.0, format!("{SITE}{expected_url}"));
        let sent = card_return(&shop, &post).await;
        let reason = if action == "decline" {
            "declined"
        } else {
            "cancelled"
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
        let (_, status) = attempt(&shop, order_id).await;
        let expected = if action == "cancel" {
            "cancelled"
        } else {
            "failed"
        };
        assert_eq!(status, expected);
        // Replayed: released once.
        card_return(&shop, &post).await;
        assert_eq!(stock(&shop, pid).await, before, "{action}: released once");
    }
}

#[tokio::test]
async fn a_lost_return_is_settled_by_the_ipn() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000cardlost1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&shop, t, pid, 1, "debitcredit").await;
    let page = card_start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    faults(&base, CARD_ADMIN, json!({ "lose_callback": true })).await;
    assert!(at_card_page(&page, "approve").await.is_none());
    faults(&base, CARD_ADMIN, json!({})).await;
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    let (status, body) = ipn(&shop, &last_ipn(&base).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["paid"], true);
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    assert_eq!(history(&shop, order_id, "paid").await, 1);
}

/// `fields` with `name` set to `value`.
fn with(fields: &[(String, String)], name: &str, value: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        fields.iter().filter(|(k, _)| k != name).cloned().collect();
    out.push((name.to_string(), value.to_string()));
    out
}

#[tokio::test]
async fn a_forged_ipn_is_refused_and_changes_nothing() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000cardforge.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "debitcredit").await;
    let page = card_start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    // Paid at the gateway, the browser's return lost: only the IPN is left,
    // and its val_id is real, so only the signature tells a forgery apart.
    faults(&base, CARD_ADMIN, json!({ "lose_callback": true })).await;
    assert!(at_card_page(&page, "approve").await.is_none());
    faults(&base, CARD_ADMIN, json!({})).await;
    let genuine = last_ipn(&base).await;
    let asked = report(&base, CARD_ADMIN).await;

    let map: BTreeMap<String, String> = genuine.iter().cloned().collect();
    let keys: Vec<String> = map["verify_key"].split(',').map(str::to_string).collect();
    let other_store = payments_sim::sslcommerz::verify_sign(&map, &keys, "not-the-password");
    let narrow_keys = "status,currency";
    let narrow: BTreeMap<String, String> = map.clone();
    let narrow_sign = payments_sim::sslcommerz::verify_sign(
        &narrow,
        &["currency".to_string(), "status".to_string()],
        payments_sim::sslcommerz::STORE_PASSWORD,
    );
    let forgeries = [
        ("unsigned", {
            let f: Vec<_> = genuine
                .iter()
                .filter(|(k, _)| k != "verify_sign")
                .cloned()
                .collect();
            f
        }),
        (
            "a wrong sign",
            with(&genuine, "verify_sign", "0123456789abcdef0123456789abcdef"),
        ),
        (
            "another store's password",
            with(&genuine, "verify_sign", &other_store),
        ),
        (
            "amount changed after signing",
            with(&genuine, "amount", "1.00"),
        ),
        ("tran_id and val_id left unsigned", {
            let f = with(&genuine, "verify_key", narrow_keys);
            with(&f, "verify_sign", &narrow_sign)
        }),
    ];
    for (what, fields) in &forgeries {
        let (status, body) = ipn(&shop, fields).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{what}: {body}");
        assert_eq!(body["success"], false, "{what}");
        let (_, term, _, _, paid) = last_order(&shop, t).await;
        assert_eq!(
            (term.as_str(), paid),
            ("Pending", 0),
            "{what}: nothing paid"
        );
    }
    // The gateway was asked nothing by the forgeries.
    let after = report(&base, CARD_ADMIN).await;
    assert_eq!(after["validations"], asked["validations"], "{after}");
    assert_eq!(after["queries"], asked["queries"], "{after}");
    assert_eq!(history(&shop, order_id, "paid").await, 0);
    assert_eq!(stock(&shop, pid).await, before - 1, "still reserved");

    // The genuine IPN is still confirmed with the validation API, then pays.
    let (status, body) = ipn(&shop, &genuine).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["paid"], true);
    let r = report(&base, CARD_ADMIN).await;
    assert_eq!(
        r["validations"].as_u64(),
        asked["validations"].as_u64().map(|v| v + 1),
        "{r}"
    );
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    // A signed IPN replayed pays nothing more.
    let (status, _) = ipn(&shop, &genuine).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(history(&shop, order_id, "paid").await, 1);
}

#[tokio::test]
async fn a_payment_whose_return_and_ipn_are_lost_is_settled_by_the_transaction_query() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000cardquery.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&shop, t, pid, 1, "debitcredit").await;
    let page = card_start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    faults(&base, CARD_ADMIN, json!({ "lose_callback": true })).await;
    assert!(at_card_page(&page, "approve").await.is_none());
    faults(&base, CARD_ADMIN, json!({})).await;
    // The IPN went to https://shop.example, which nobody answers: lost too.
    // The expiry sweep asks the transaction query once more before
    // expiring, and that pays it.
    let now = catalog::clock::now_unix() + 3600;
    let swept =
        origin::domain::payments::expiry::expire(&shop.state.pool, &shop.state.payments, 60, now)
            .await
            .unwrap();
    assert_eq!((swept.found, swept.settled, swept.expired), (1, 1, 0));
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    assert_eq!(history(&shop, order_id, "paid").await, 1);
    assert!(report(&base, CARD_ADMIN).await["queries"].as_u64().unwrap() >= 1);
}

#[tokio::test]
async fn a_tampered_amount_is_not_paid() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000cardshort.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "debitcredit").await;
    let page = card_start(&shop, t).await;
    let post = at_card_page(&page, "approve").await.unwrap();
    faults(&base, CARD_ADMIN, json!({ "tamper_amount": true })).await;
    let sent = card_return(&shop, &post).await;
    assert!(sent.contains("/fail?reason=failed&data="), "{sent}");
    let (order_id, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Failed", 0));
    assert_eq!(history(&shop, order_id, "paid").await, 0);
    assert_eq!(stock(&shop, pid).await, before);
}

#[tokio::test]
async fn a_card_gateway_that_is_down_answers_a_clean_503_and_loses_nothing() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000carddown1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "debitcredit").await;
    faults(&base, CARD_ADMIN, json!({ "down": true })).await;
    let (status, body) = card_pay(&shop, t).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["success"], false);
    let (_, term, status, _, _) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), status.as_str()), ("Failed", "cancelled"));
    assert_eq!(stock(&shop, pid).await, before);
    assert_eq!(cart_lines(&shop, t).await, 1);

    // Down when the shopper comes back: sent to /fail, the order waits; the
    // return once the gateway is back pays it.
    faults(&base, CARD_ADMIN, json!({})).await;
    let page = card_start(&shop, t).await;
    let post = at_card_page(&page, "approve").await.unwrap();
    faults(&base, CARD_ADMIN, json!({ "down": true })).await;
    let sent = card_return(&shop, &post).await;
    assert!(sent.contains("/fail?reason=unavailable&data="), "{sent}");
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    let (status, _) = ipn(&shop, &last_ipn(&base).await).await;
    assert_eq!(
        status,
        StatusCode::SERVICE_UNAVAILABLE,
        "the IPN is retried"
    );
    faults(&base, CARD_ADMIN, json!({})).await;
    let sent = card_return(&shop, &post).await;
    assert!(sent.contains("/redirect-from-ssl?"), "{sent}");
    let (_, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
}

#[tokio::test]
async fn the_payment_page_learns_what_is_on_and_that_buying_is_off() {
    let (shop, _base) = shop_with_gateways().await;
    let (status, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        gateways,
        json!({
            "buying_disabled": false,
            "cash_on_delivery": { "active": true },
            "debitcredit": { "active": true },
            "mobile_banking": { "active": true },
            "bkash": { "active": true },
            "nagad": { "active": true },
        })
    );
    catalog::db::query("UPDATE setting SET value = 'on' WHERE name = 'disable_buy'")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (_, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(gateways["buying_disabled"], true);
    // And a card payment is refused while it is off.
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000cardoff001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (status, _, _) = shop
        .guest_get(t, &format!("/api/cart/add-to-cart?main_pid={pid}&qty=1"))
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    let (status, body) = card_pay(&shop, t).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
}
