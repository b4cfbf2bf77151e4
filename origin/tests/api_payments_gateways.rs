//! The card gateway (SSLCommerz's protocol) as the shop drives it, against
//! the workspace's simulated SSLCommerz (`payments-sim`, in-process on
//! loopback; the simulator's last session says what the shop asked for): the
//! amount and return URLs sent, forged returns, failed, cancelled and short
//! payments, the gateway down (and a wallet nobody answers at), paying what
//! is left of one's own order, card instalments (EMI), and methods that are
//! not configured. The real router on a real seeded database (SQLite, or
//! PostgreSQL with TEST_POSTGRES_URL). The browser's part (the hosted page
//! posting back) is played by the test with `common::sim`.

mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use catalog::db;
use serde_json::{json, Value};

use common::checkout::{cart_lines, last_order, plain_product, ready, stock};
use common::sim::{
    args, at_card_page, attempt, card_return, faults, history, post_form, report, shop_at,
    simulator, CARD_ADMIN, SITE,
};
use common::{assert_api_error, TestShop};
use origin::domain::payments::Gateways;

/// A fresh shop with the card gateway and Nagad at a new simulator (bKash
/// off): (shop, simulator base).
async fn shop_with_gateways() -> (TestShop, String) {
    let base = simulator().await;
    let mut args = args(&base);
    args.bkash_app_key = None;
    (shop_at(args).await, base)
}

/// Opens the guest's card checkout with `body`; answers the gateway's page.
async fn start_card(shop: &TestShop, token: &str, body: &Value) -> String {
    let (status, _, started) = shop
        .guest_post(
            token,
            &format!("/sslcommerz/pay-via-ajax?self_token={token}"),
            body,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{started}");
    assert_eq!(started["status"], "success");
    started["data"].as_str().unwrap().to_string()
}

/// What the shop asked of the gateway in its last session.
async fn last_session(base: &str) -> Value {
    report(base, CARD_ADMIN).await["last_session"].clone()
}

/// A form post to the shop's `path`: (status, where it sends the browser,
/// the JSON body).
async fn browser_post(
    shop: &TestShop,
    path: &str,
    fields: &[(String, String)],
) -> (StatusCode, String, Value) {
    let (status, headers, body) = post_form(shop, &format!("{SITE}{path}"), fields).await;
    let location = headers
        .get("location")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, location, body)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[tokio::test]
async fn a_card_payment_counts_only_once_the_gateway_validates_it() {
    let (shop, base) = shop_with_gateways().await;
    let (_, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(gateways["debitcredit"]["active"], true);
    assert_eq!(gateways["nagad"]["active"], true);
    assert_eq!(gateways["bkash"]["active"], false);

    let t = "1700000000000cardguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 2, "debitcredit").await;
    let page = start_card(&shop, t, &json!({ "device": "website" })).await;
    let (order_id, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Pending", 0));
    assert_eq!(stock(&shop, pid).await, before - 2, "stock reserved");
    assert_eq!(cart_lines(&shop, t).await, 1, "the cart is kept until paid");
    let (tran_id, _) = attempt(&shop, order_id).await;
    let form = last_session(&base).await;
    assert_eq!(form["tran_id"], tran_id.as_str());
    assert_eq!(form["total_amount"], format!("{total}.00"));
    assert_eq!(form["success_url"], format!("{SITE}/sslcommerz/success"));
    assert_eq!(form["ipn_url"], format!("{SITE}/sslcommerz/ipn"));
    assert_eq!(form["emi_option"], "0");

    // Forged returns: a made-up val_id, or none (the gateway has no payment).
    for forged in [
        pairs(&[
            ("tran_id", &tran_id),
            ("val_id", "forged-1"),
            ("status", "VALID"),
        ]),
        pairs(&[
            ("tran_id", &tran_id),
            ("status", "VALID"),
            ("amount", "1.00"),
        ]),
    ] {
        let (status, location, _) = browser_post(&shop, "/sslcommerz/success", &forged).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        assert!(
            location.starts_with(&format!("{SITE}/fail?reason=failed&")),
            "{location}"
        );
        assert_eq!(last_order(&shop, t).await.1, "Pending");
    }
    // A transaction id never issued changes nothing either.
    let unknown = pairs(&[("tran_id", "Tnever"), ("status", "FAILED")]);
    let (_, location, _) = browser_post(&shop, "/sslcommerz/fail", &unknown).await;
    assert!(location.starts_with(&format!("{SITE}/fail")));
    assert_eq!(last_order(&shop, t).await.1, "Pending");

    let post = at_card_page(&page, "approve").await.expect("posted back");
    assert_eq!(post.0, format!("{SITE}/sslcommerz/success"));
    let location = card_return(&shop, &post).await;
    let (number, key): (String, String) =
        db::query_as("SELECT order_random, order_key FROM order_master WHERE id = $1")
            .bind(order_id)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!(
        location,
        format!("{SITE}/redirect-from-ssl?order_random={number}&order_key={key}&from=ssl")
    );
    assert_eq!(
        last_order(&shop, t).await,
        (order_id, "Successful".into(), "placed".into(), total, total)
    );
    assert_eq!(cart_lines(&shop, t).await, 0, "paid: the cart is emptied");

    // Replays of the return and the gateway's notification change nothing.
    assert_eq!(card_return(&shop, &post).await, location);
    let (status, _, body) = browser_post(&shop, "/sslcommerz/ipn", &post.1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["paid"], true);
    assert_eq!(last_order(&shop, t).await.4, total);
    assert_eq!(stock(&shop, pid).await, before - 2);
    assert_eq!(history(&shop, order_id, "paid").await, 1);
    let r = report(&base, CARD_ADMIN).await;
    assert!(r["validations"].as_u64().unwrap() >= 3, "{r}");

    // The thank-you page reads it back.
    let (status, _, details) = shop
        .get(&format!(
            "/api/cart/order-details?order_random={number}&secret_key={key}"
        ))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        details["order_masters"]["payment_term_status"],
        "Successful"
    );
    assert_eq!(details["order_masters"]["payment_method"], "debitcredit");
}

#[tokio::test]
async fn failed_cancelled_or_short_card_payments_release_stock_and_keep_the_cart() {
    let (shop, base) = shop_with_gateways().await;
    let t = "1700000000000cardguest2.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 3, "debitcredit").await;
    for (outcome, action, path, reason) in [
        ("failed", "decline", "/sslcommerz/fail", "declined"),
        ("cancelled", "cancel", "/sslcommerz/cancel", "cancelled"),
        ("short", "approve", "/sslcommerz/success", "failed"),
    ] {
        let page = start_card(&shop, t, &json!({})).await;
        assert_eq!(stock(&shop, pid).await, before - 3);
        let post = at_card_page(&page, action).await.expect("posted back");
        assert_eq!(post.0, format!("{SITE}{path}"));
        if outcome == "short" {
            // The gateway reports one taka less than was asked.
            faults(&base, CARD_ADMIN, json!({ "tamper_amount": true })).await;
        }
        let location = card_return(&shop, &post).await;
        assert!(
            location.starts_with(&format!("{SITE}/fail?reason={reason}&")),
            "{outcome}: {location}"
        );
        let (_, term, order_status, _, paid) = last_order(&shop, t).await;
        assert_eq!(
            (term.as_str(), order_status.as_str(), paid),
            ("Failed", "cancelled", 0),
            "{outcome}"
        );
        assert_eq!(stock(&shop, pid).await, before, "{outcome}: stock back");
        // Released once, however often the return is replayed.
        card_return(&shop, &post).await;
        assert_eq!(stock(&shop, pid).await, before, "{outcome}: replay");
        assert_eq!(
            cart_lines(&shop, t).await,
            1,
            "{outcome}: the cart is kept to try again"
        );
        faults(&base, CARD_ADMIN, json!({})).await;
    }
}

#[tokio::test]
async fn a_gateway_that_is_down_answers_a_clean_503_and_loses_nothing() {
    let (shop, base) = shop_with_gateways().await;
    let t = "1700000000000downguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "debitcredit").await;

    faults(&base, CARD_ADMIN, json!({ "down": true })).await;
    let (status, headers, body) = shop
        .guest_post(
            t,
            &format!("/sslcommerz/pay-via-ajax?self_token={t}"),
            &json!({}),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("could not be reached"),
        "{body}"
    );
    assert_eq!(stock(&shop, pid).await, before, "no stock held");
    assert_eq!(cart_lines(&shop, t).await, 1, "the cart is intact");
    assert_eq!(last_order(&shop, t).await.2, "cancelled");

    // Down between the payment and its validation: the order waits.
    faults(&base, CARD_ADMIN, json!({})).await;
    let page = start_card(&shop, t, &json!({})).await;
    let post = at_card_page(&page, "approve").await.expect("posted back");
    faults(&base, CARD_ADMIN, json!({ "down": true })).await;
    let location = card_return(&shop, &post).await;
    assert!(location.starts_with(&format!("{SITE}/fail?reason=unavailable&")));
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    let (status, _, body) = browser_post(&shop, "/sslcommerz/ipn", &post.1).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    // The gateway's next notification settles it.
    faults(&base, CARD_ADMIN, json!({})).await;
    let (status, _, body) = browser_post(&shop, "/sslcommerz/ipn", &post.1).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(last_order(&shop, t).await.1, "Successful");

    // A wallet nobody answers at (a closed port).
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let mut shop = shop;
    let mut wallet_closed = args(&base);
    wallet_closed.nagad_base_url = closed;
    shop.state.payments = Arc::new(Gateways::from_args(&wallet_closed, SITE).unwrap());
    shop.app = origin::app(shop.state.clone());
    let w = "1700000000000downguest2.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, w, pid, 1, "nagad").await;
    let (status, headers, body) = shop
        .guest_get(w, &format!("/api/nagad/pay-via-ajax?token={w}"))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(stock(&shop, pid).await, before);
    assert_eq!(cart_lines(&shop, w).await, 1);
}

#[tokio::test]
async fn only_the_shopper_can_pay_what_is_left_of_their_order() {
    let (shop, base) = shop_with_gateways().await;
    let t = "1700000000000ownerguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    ready(&shop, t, pid, 1, "debitcredit").await;
    start_card(&shop, t, &json!({})).await; // abandoned at the gateway
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    let uri = format!("/sslcommerz/existing-order-pay?order_id={order_id}");

    let (status, headers, body) = shop
        .guest_post(
            "1700000000000someoneelse.k7Qx2mZp9LwR4tYv8NsB3hJd",
            &uri,
            &json!({}),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
    let (status, headers, body) = shop.post_json(&uri, &json!({})).await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);

    let (status, _, body) = shop
        .post_json(&format!("{uri}&self_token={t}"), &json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let page = body["data"].as_str().unwrap();
    assert_eq!(
        last_session(&base).await["total_amount"],
        format!("{total}.00")
    );
    let post = at_card_page(page, "approve").await.expect("posted back");
    card_return(&shop, &post).await;
    assert_eq!(last_order(&shop, t).await.1, "Successful");
    let (status, headers, body) = shop.guest_post(t, &uri, &json!({})).await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);
}

#[tokio::test]
async fn instalments_are_offered_only_when_every_product_allows_them() {
    let (shop, base) = shop_with_gateways().await;
    let (pid, _) = plain_product(&shop, 5).await;
    // Priced above EMI's minimum (below it, see the end).
    db::query(
        "UPDATE product SET emi_available = TRUE, price_before = 45000, price_now = 45000 \
         WHERE id = $1",
    )
    .bind(pid)
    .execute(&shop.state.pool)
    .await
    .unwrap();
    db::query("DELETE FROM product_emi WHERE product_id = $1")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    db::query("INSERT INTO product_emi (product_id, bank, months) VALUES ($1, 'City Bank', 12)")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let t = "1700000000000emiguest01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&shop, t, pid, 1, "debitcredit").await;
    let emi = json!({ "device": "website", "emi_option": 1, "emi_max_inst_option": 6 });
    start_card(&shop, t, &emi).await;
    let form = last_session(&base).await;
    assert_eq!(
        (
            form["emi_option"].as_str(),
            form["emi_max_inst_option"].as_str()
        ),
        (Some("1"), Some("6"))
    );
    db::query("UPDATE product SET emi_available = FALSE WHERE id = $1")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    start_card(&shop, t, &emi).await;
    let form = last_session(&base).await;
    assert_eq!(form["emi_option"], "0");
    assert!(form.get("emi_max_inst_option").is_none(), "{form}");
    // Allowed again, but sold for less than EMI's minimum price (a flash
    // price, say): no instalments.
    let below = catalog::pricing::EMI_MIN_PRICE - 1;
    for sql in [
        "UPDATE product SET emi_available = TRUE, price_now = $1 WHERE id = $2",
        "UPDATE order_detail SET local_purchase_price = $1 WHERE product_id = $2",
    ] {
        db::query(sql)
            .bind(below)
            .bind(pid)
            .execute(&shop.state.pool)
            .await
            .unwrap();
    }
    start_card(&shop, t, &emi).await;
    assert_eq!(last_session(&base).await["emi_option"], "0");
}

#[tokio::test]
async fn methods_not_configured_answer_503_and_their_routes_stay_json() {
    let shop = TestShop::fresh().await;
    let attempts = shop.scalar_i64("SELECT COUNT(*) FROM payment").await;
    let (_, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(gateways["cash_on_delivery"]["active"], true);
    for m in ["debitcredit", "mobile_banking", "nagad", "bkash"] {
        assert_eq!(gateways[m]["active"], false, "{m}");
    }
    let t = "1700000000000offguest01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    shop.guest_get(t, &format!("/api/cart/add-to-cart?main_pid={pid}&qty=1"))
        .await;
    let (status, headers, body) = shop
        .guest_post(
            t,
            "/api/cart/store-payment-method",
            &json!({ "payment_method": "debitcredit", "terms_check": true }),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["message"], "This payment method is not available.");
    for (method, uri) in [
        ("POST", format!("/sslcommerz/pay-via-ajax?self_token={t}")),
        ("GET", format!("/api/nagad/pay-via-ajax?token={t}")),
        ("POST", "/api/bkash/create".to_string()),
    ] {
        let (status, headers, body) = shop
            .request(
                method,
                &uri,
                &[("SELF-TOKEN", t)],
                Some(&json!({ "token": t })),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::SERVICE_UNAVAILABLE);
    }
    let (_, _, body) = shop.request("POST", "/api/bkash/create", &[], None).await;
    assert!(body["message"].as_str().unwrap().contains("bKash"));
    // A gateway return is answered by the API, never by the site's pages.
    let request = Request::post("/sslcommerz/success")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("tran_id=T1&val_id=v1"))
        .unwrap();
    let (status, headers, body) = shop.send(request).await;
    assert_api_error(status, &headers, &body, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM payment").await,
        attempts
    );
}
