//! Nagad's checkout end to end: the real router on a real seeded database
//! (SQLite, or PostgreSQL with TEST_POSTGRES_URL), and the workspace's
//! simulated Nagad (`payments-sim`) started in-process on loopback, with its
//! own RSA keys for the run: the shop seals its fields to the simulator's
//! key and signs them with the merchant key; the simulator refuses what does
//! not decrypt or verify and signs its answers. The shopper's part is played
//! over HTTP: the test opens the simulator's hosted page, follows its
//! approve, decline or cancel link, and brings the redirect back to the
//! shop's callback. Faults are switched on at the simulator: callback lost,
//! amount tampered, answer forged or unsigned, gateway down.

mod common;

use axum::http::StatusCode;
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use catalog::db;
use rsa::pkcs1v15::{Signature, VerifyingKey};
use rsa::signature::Verifier;
use rsa::{Pkcs1v15Encrypt, RsaPublicKey};
use serde_json::{json, Value};
use sha2::Sha256;

use common::checkout::{cart_lines, last_order, plain_product, ready, stock};
use common::sim::{
    at_nagad_page, client, faults, history, nagad_callback as callback, nagad_pay as pay,
    nagad_start as start, paid_page, report, shop_at, simulator, NAGAD_ADMIN, SITE,
};
use common::TestShop;
use origin::config::{PaymentArgs, Secret};
use origin::domain::payments::{expiry, nagad, Confirmed, Gateways};
use payments_sim::nagad::{keys, seal, sign, Keys, MERCHANT_ID, MERCHANT_NUMBER};

fn args(base: &str, merchant_private_pem: String) -> PaymentArgs {
    PaymentArgs {
        nagad_base_url: base.into(),
        nagad_merchant_id: Some(MERCHANT_ID.into()),
        nagad_merchant_number: Some(MERCHANT_NUMBER.into()),
        nagad_pg_public_key: Some(keys().pg_public_pem()),
        nagad_merchant_private_key: Some(Secret(merchant_private_pem)),
        ..Default::default()
    }
}

/// A fresh shop paying by Nagad alone through a new simulator: (shop,
/// simulator base).
async fn shop_with_nagad() -> (TestShop, String) {
    let base = simulator().await;
    let shop = shop_at(args(&base, keys().merchant_private_pem())).await;
    (shop, base)
}

async fn thank_you(shop: &TestShop, order_id: i64) -> String {
    paid_page(shop, order_id, "/nagad-thank-you").await
}

/// The newest attempt of the order: (tran_id, gateway_ref, status).
async fn attempt(shop: &TestShop, order_id: i64) -> (String, String, String) {
    db::query_as(
        "SELECT tran_id, gateway_ref, status FROM payment WHERE order_id = $1 \
         ORDER BY id DESC LIMIT 1",
    )
    .bind(order_id)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn a_nagad_payment_is_sealed_signed_approved_verified_and_paid_once() {
    let (shop, base) = shop_with_nagad().await;
    let (_, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(gateways["nagad"]["active"], true);

    let t = "1700000000000nagadguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 2, "nagad").await;
    let page = start(&shop, t).await;
    let (order_id, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Pending", 0));
    assert_eq!(stock(&shop, pid).await, before - 2, "stock reserved");
    let reference = page.rsplit('/').next().unwrap().to_string();
    let (tran_id, recorded, _) = attempt(&shop, order_id).await;
    assert_eq!(
        recorded, reference,
        "the reference is kept with the attempt"
    );
    let html = client()
        .get(&page)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains(&format!("৳ {total}.00")), "{html}");
    assert!(html.contains(&tran_id), "our tran_id is Nagad's orderId");
    let r = report(&base, NAGAD_ADMIN).await;
    assert_eq!(
        (r["initializes"].as_u64(), r["completes"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(r["refused"], 0, "the shop's requests verify: {r}");

    // A return before approval (a forged "Success") proves nothing.
    let forged = format!(
        "{SITE}/api/nagad/receive-nagad-data?merchant={MERCHANT_ID}&order_id={tran_id}\
         &payment_ref_id={reference}&status=Success&status_code=00_0000_000"
    );
    let sent = callback(&shop, &forged).await;
    assert!(sent.starts_with(&format!("{SITE}/fail?reason=")), "{sent}");
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    // Nor does a reference Nagad never issued.
    let unknown =
        format!("{SITE}/api/nagad/receive-nagad-data?payment_ref_id=MDnope&status=Success");
    assert!(callback(&shop, &unknown).await.contains("/fail?reason="));
    assert_eq!(last_order(&shop, t).await.1, "Pending");

    let back = at_nagad_page(&page, "approve").await.expect("sent back");
    assert!(back.contains("status=Success"), "{back}");
    assert!(
        back.contains(&format!("payment_ref_id={reference}")),
        "{back}"
    );
    // The return arrives twice at once (a double click, a replay), and once
    // more later: paid once.
    let (first, second) = tokio::join!(callback(&shop, &back), callback(&shop, &back));
    let thanks = thank_you(&shop, order_id).await;
    assert_eq!(first, thanks);
    assert_eq!(second, thanks);
    assert_eq!(callback(&shop, &back).await, thanks);
    let (_, term, status, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    assert_eq!(status, "placed");
    assert_eq!(history(&shop, order_id, "paid").await, 1, "paid once");
    assert_eq!(stock(&shop, pid).await, before - 2, "stock kept");
    assert_eq!(cart_lines(&shop, t).await, 0, "the cart is emptied");
    let (_, issuer, status) = attempt(&shop, order_id).await;
    assert_eq!(status, "validated");
    assert!(
        issuer.starts_with("SIMISS"),
        "Nagad's issuer reference: {issuer}"
    );
    // Settled attempts are not asked about again.
    let gateway = shop.state.payments.nagad.as_ref().unwrap();
    let again = nagad::recheck(
        &shop.state.pool,
        &shop.state.payments.http,
        gateway,
        &tran_id,
        1,
    )
    .await
    .unwrap();
    assert_eq!(again, Confirmed::Unconfirmed);
}

#[tokio::test]
async fn declined_or_cancelled_payments_release_the_stock_once() {
    let (shop, _base) = shop_with_nagad().await;
    let (pid, _) = plain_product(&shop, 5).await;
    for (i, action) in ["decline", "cancel"].into_iter().enumerate() {
        let t = format!("1700000000000nagadfail{i}.k7Qx2mZp9LwR4tYv8NsB3hJd");
        let before = stock(&shop, pid).await;
        ready(&shop, &t, pid, 1, "nagad").await;
        let page = start(&shop, &t).await;
        let (order_id, ..) = last_order(&shop, &t).await;
        assert_eq!(stock(&shop, pid).await, before - 1);
        let back = at_nagad_page(&page, action).await.expect("sent back");
        let sent = callback(&shop, &back).await;
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
        assert_eq!(attempt(&shop, order_id).await.2, expected, "{action}");
        // Replaying the return changes nothing.
        let again = callback(&shop, &back).await;
        assert!(
            again.contains(&format!("/fail?reason={reason}&")),
            "{again}"
        );
        assert_eq!(stock(&shop, pid).await, before, "{action}: released once");
    }
}

#[tokio::test]
async fn a_lost_callback_is_settled_by_verify() {
    let (shop, base) = shop_with_nagad().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000nagadlost1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&shop, t, pid, 1, "nagad").await;
    let page = start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    let (tran_id, ..) = attempt(&shop, order_id).await;
    let gateway = shop.state.payments.nagad.as_ref().unwrap();
    let http = &shop.state.payments.http;

    // Asked before the shopper decides: Nagad vouches for nothing yet.
    let early = nagad::recheck(&shop.state.pool, http, gateway, &tran_id, 1_800_000_000)
        .await
        .unwrap();
    assert_eq!(early, Confirmed::Unconfirmed);
    assert_eq!(last_order(&shop, t).await.1, "Pending");

    faults(&base, NAGAD_ADMIN, json!({ "lose_callback": true })).await;
    assert_eq!(at_nagad_page(&page, "approve").await, None);
    faults(&base, NAGAD_ADMIN, json!({})).await;
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    let settled = nagad::recheck(&shop.state.pool, http, gateway, &tran_id, 1_800_000_000)
        .await
        .unwrap();
    assert!(
        matches!(settled, Confirmed::Settled { paid: true, .. }),
        "{settled:?}"
    );
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    let again = nagad::recheck(&shop.state.pool, http, gateway, &tran_id, 1_800_000_001)
        .await
        .unwrap();
    assert_eq!(again, Confirmed::Unconfirmed);
    assert_eq!(history(&shop, order_id, "paid").await, 1);
}

#[tokio::test]
async fn a_tampered_amount_is_not_paid() {
    let (shop, base) = shop_with_nagad().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000nagadshort.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "nagad").await;
    let page = start(&shop, t).await;
    let back = at_nagad_page(&page, "approve").await.unwrap();
    faults(&base, NAGAD_ADMIN, json!({ "tamper_amount": true })).await;
    let sent = callback(&shop, &back).await;
    faults(&base, NAGAD_ADMIN, json!({})).await;
    assert!(sent.contains("/fail?reason="), "{sent}");
    let (order_id, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Failed", 0));
    assert_eq!(history(&shop, order_id, "paid").await, 0);
    assert_eq!(stock(&shop, pid).await, before);
    // Replayed once Nagad tells the truth again: the attempt stays failed.
    assert!(callback(&shop, &back).await.contains("/fail?reason="));
    assert_eq!(last_order(&shop, t).await.4, 0);
}

#[tokio::test]
async fn nagad_is_told_the_shoppers_address() {
    let (shop, base) = shop_with_nagad().await;
    let (pid, _) = plain_product(&shop, 9).await;
    // Behind the edge: the first X-Forwarded-For is the shopper, as the
    // origin's throttles read it; an IPv4-mapped IPv6 address is IPv4;
    // without an edge (no header) the call came from loopback.
    let cases = [
        (Some("203.0.113.7, 10.0.0.2"), "203.0.113.7"),
        (Some("::ffff:198.51.100.9"), "198.51.100.9"),
        (None, "127.0.0.1"),
    ];
    for (i, (forwarded, expected)) in cases.into_iter().enumerate() {
        let t = format!("1700000000000nagadaddr{i}.k7Qx2mZp9LwR4tYv8NsB3hJd");
        ready(&shop, &t, pid, 1, "nagad").await;
        let mut headers = vec![("SELF-TOKEN", t.as_str())];
        if let Some(f) = forwarded {
            headers.push(("X-Forwarded-For", f));
        }
        let (status, _, body) = shop
            .request(
                "GET",
                &format!("/api/nagad/pay-via-ajax?token={t}"),
                &headers,
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let r = report(&base, NAGAD_ADMIN).await;
        let ips: Vec<&str> = r["client_ips"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        // Initialize and complete both name the shopper.
        assert_eq!(
            ips[ips.len() - 2..],
            [expected, expected],
            "{forwarded:?}: {r}"
        );
    }
}

#[tokio::test]
async fn a_forged_or_unsigned_answer_opens_nothing() {
    let (shop, base) = shop_with_nagad().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000nagadforged.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "nagad").await;
    for fault in ["forge_signature", "unsigned_answer"] {
        faults(&base, NAGAD_ADMIN, json!({ fault: true })).await;
        let completes = report(&base, NAGAD_ADMIN).await["completes"]
            .as_u64()
            .unwrap();
        let (status, body) = pay(&shop, t).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{fault}: {body}");
        assert!(
            body["message"].as_str().unwrap().contains("Nagad"),
            "{body}"
        );
        let r = report(&base, NAGAD_ADMIN).await;
        assert_eq!(
            r["completes"].as_u64().unwrap(),
            completes,
            "{fault}: nothing completed on an answer that does not verify"
        );
        let (order_id, term, status, _, paid) = last_order(&shop, t).await;
        assert_eq!(
            (term.as_str(), status.as_str(), paid),
            ("Failed", "cancelled", 0),
            "{fault}"
        );
        assert_eq!(attempt(&shop, order_id).await.2, "failed", "{fault}");
        assert_eq!(stock(&shop, pid).await, before, "{fault}: stock back");
        assert_eq!(cart_lines(&shop, t).await, 1, "{fault}: the cart is kept");
    }
    // Signed by Nagad again: the same cart pays.
    faults(&base, NAGAD_ADMIN, json!({})).await;
    let page = start(&shop, t).await;
    let back = at_nagad_page(&page, "approve").await.unwrap();
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    assert_eq!(
        callback(&shop, &back).await,
        thank_you(&shop, order_id).await
    );
    assert_eq!(last_order(&shop, t).await.4, total);

    // A shop signing with a key that is not the merchant's is refused by
    // Nagad: a clean 503, the order cancelled.
    let impostor = Keys::generate().merchant_private_pem();
    let wrong = shop_at(args(&base, impostor)).await;
    let t = "1700000000000nagadwrongkey.k7Qx2mZp9LwR4tYv8NsB3hJd";
    ready(&wrong, t, pid, 1, "nagad").await;
    let refused = report(&base, NAGAD_ADMIN).await["refused"]
        .as_u64()
        .unwrap();
    let (status, body) = pay(&wrong, t).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(last_order(&wrong, t).await.1, "Failed");
    assert_eq!(
        report(&base, NAGAD_ADMIN).await["refused"]
            .as_u64()
            .unwrap(),
        refused + 1
    );
}

#[tokio::test]
async fn a_nagad_that_is_down_answers_a_clean_503_and_loses_nothing() {
    let (shop, base) = shop_with_nagad().await;
    let (pid, _) = plain_product(&shop, 5).await;

    // Down when the shopper starts: 503, the order cancelled, stock back,
    // the cart kept to try again.
    let t = "1700000000000nagaddown1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "nagad").await;
    faults(&base, NAGAD_ADMIN, json!({ "down": true })).await;
    let (status, body) = pay(&shop, t).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("could not be reached"),
        "{body}"
    );
    let (_, term, status, _, _) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), status.as_str()), ("Failed", "cancelled"));
    assert_eq!(stock(&shop, pid).await, before);
    assert_eq!(cart_lines(&shop, t).await, 1);

    // Down when the shopper comes back: sent to /fail, the order waits; the
    // return once Nagad is back pays it.
    faults(&base, NAGAD_ADMIN, json!({})).await;
    let page = start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    let back = at_nagad_page(&page, "approve").await.unwrap();
    faults(&base, NAGAD_ADMIN, json!({ "down": true })).await;
    let sent = callback(&shop, &back).await;
    assert!(sent.contains("/fail?reason="), "{sent}");
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    faults(&base, NAGAD_ADMIN, json!({})).await;
    assert_eq!(
        callback(&shop, &back).await,
        thank_you(&shop, order_id).await
    );
    let (_, term, _, _, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Successful", total));
    assert_eq!(history(&shop, order_id, "paid").await, 1);
}

#[tokio::test]
async fn an_abandoned_nagad_payment_expires_once_and_a_late_approval_goes_to_the_operator() {
    let (shop, _base) = shop_with_nagad().await;
    let (pid, _) = plain_product(&shop, 5).await;
    let t = "1700000000000nagadexpire.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "nagad").await;
    let page = start(&shop, t).await;
    let (order_id, _, _, total, _) = last_order(&shop, t).await;
    assert_eq!(stock(&shop, pid).await, before - 1);

    // An hour later the shopper has not decided: verify vouches for
    // nothing, so the order is cancelled and its stock released, once.
    let later = catalog::clock::now_unix() + 3600;
    let payments = &shop.state.payments;
    let swept = expiry::expire(&shop.state.pool, payments, 1800, later)
        .await
        .unwrap();
    assert_eq!((swept.found, swept.settled, swept.expired), (1, 0, 1));
    let (_, term, status, _, paid) = last_order(&shop, t).await;
    assert_eq!(
        (term.as_str(), status.as_str(), paid),
        ("Failed", "cancelled", 0)
    );
    assert_eq!(stock(&shop, pid).await, before, "stock released");
    assert_eq!(attempt(&shop, order_id).await.2, "expired");
    let again = expiry::expire(&shop.state.pool, payments, 1800, later + 60)
        .await
        .unwrap();
    assert_eq!(again.found, 0);

    // Then the shopper approves after all: Nagad has no refund API, so the
    // money is left to the operator, recorded once however often the
    // return is replayed; the order stays cancelled and the stock released.
    let back = at_nagad_page(&page, "approve").await.unwrap();
    assert!(callback(&shop, &back).await.contains("/fail?reason="));
    assert!(callback(&shop, &back).await.contains("/fail?reason="));
    assert_eq!(attempt(&shop, order_id).await.2, "late");
    let refunds: Vec<(String, i64)> =
        db::query_as("SELECT status, amount FROM payment_refund WHERE order_id = $1")
            .bind(order_id)
            .fetch_all(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!(refunds, vec![("operator".to_string(), total)]);
    let (_, _, status, _, paid) = last_order(&shop, t).await;
    assert_eq!((status.as_str(), paid), ("cancelled", 0));
    assert_eq!(stock(&shop, pid).await, before, "released once");
}

/// A merchant's request to the simulator: `plain` sealed to Nagad's key and
/// signed by `signer` (none when `None`).
fn sealed_body(plain: &Value, signer: Option<&rsa::RsaPrivateKey>) -> Value {
    let text = plain.to_string();
    json!({
        "dateTime": "20261126120000",
        "sensitiveData": seal(&RsaPublicKey::from(&keys().pg), text.as_bytes()),
        "signature": signer.map(|k| sign(k, text.as_bytes())).unwrap_or_default(),
    })
}

async fn post(url: &str, body: &Value, headers: bool) -> (u16, Value) {
    let mut request = client().post(url).json(body);
    if headers {
        request = request
            .header("X-KM-Api-Version", "v-0.2.0")
            .header("X-KM-IP-V4", "127.0.0.1")
            .header("X-KM-Client-Type", "PC_WEB");
    }
    let response = request.send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

#[tokio::test]
async fn the_simulator_refuses_unsigned_forged_and_repeated_requests() {
    let base = simulator().await;
    let keys = keys();
    let order = "Tsimmerchant01";
    let init = format!("{base}/api/dfs/check-out/initialize/{MERCHANT_ID}/{order}");
    let plain = json!({
        "merchantId": MERCHANT_ID,
        "datetime": "20261126120000",
        "orderId": order,
        "challenge": "merchant-challenge-1",
    });
    for (body, headers, reason) in [
        (sealed_body(&plain, None), true, "InvalidSignature"),
        (
            sealed_body(&plain, Some(&keys.pg)),
            true,
            "InvalidSignature",
        ),
        (
            sealed_body(&plain, Some(&keys.merchant)),
            false,
            "InvalidRequestHeader",
        ),
        (
            json!({ "sensitiveData": "bm90IHNlYWxlZA==", "signature": "" }),
            true,
            "InvalidSensitiveData",
        ),
    ] {
        let (status, answer) = post(&init, &body, headers).await;
        assert_eq!(
            (status, answer["reason"].as_str()),
            (400, Some(reason)),
            "{answer}"
        );
    }
    let other = json!({ "merchantId": MERCHANT_ID, "datetime": "20261126120000",
        "orderId": "Tanother", "challenge": "c" });
    let (status, answer) = post(&init, &sealed_body(&other, Some(&keys.merchant)), true).await;
    assert_eq!(
        (status, answer["reason"].as_str()),
        (400, Some("InvalidSensitiveData"))
    );

    // A signed request opens a checkout; the answer is sealed to the
    // merchant and signed by Nagad.
    let (status, answer) = post(&init, &sealed_body(&plain, Some(&keys.merchant)), true).await;
    assert_eq!(status, 200, "{answer}");
    let sealed = BASE64
        .decode(answer["sensitiveData"].as_str().unwrap())
        .unwrap();
    let opened = keys.merchant.decrypt(Pkcs1v15Encrypt, &sealed).unwrap();
    let signature = BASE64
        .decode(answer["signature"].as_str().unwrap())
        .unwrap();
    VerifyingKey::<Sha256>::new(RsaPublicKey::from(&keys.pg))
        .verify(&opened, &Signature::try_from(signature.as_slice()).unwrap())
        .expect("signed by Nagad");
    let opened: Value = serde_json::from_slice(&opened).unwrap();
    let reference = opened["paymentReferenceId"].as_str().unwrap();
    let challenge = opened["challenge"].as_str().unwrap();
    // The same order id again is refused.
    let (status, answer) = post(&init, &sealed_body(&plain, Some(&keys.merchant)), true).await;
    assert_eq!(
        (status, answer["reason"].as_str()),
        (400, Some("DuplicateOrderId"))
    );

    let complete = format!("{base}/api/dfs/check-out/complete/{reference}");
    let order_data = |challenge: &str| {
        json!({ "merchantId": MERCHANT_ID, "orderId": order, "currencyCode": "050",
            "amount": "1250.00", "challenge": challenge })
    };
    let with_callback = |mut body: Value| {
        body["merchantCallbackURL"] = json!(format!("{SITE}/api/nagad/receive-nagad-data"));
        body
    };
    let wrong_challenge = with_callback(sealed_body(&order_data("guessed"), Some(&keys.merchant)));
    let (status, answer) = post(&complete, &wrong_challenge, true).await;
    assert_eq!(
        (status, answer["reason"].as_str()),
        (400, Some("InvalidChallenge"))
    );
    let unsigned = with_callback(sealed_body(&order_data(challenge), None));
    let (status, answer) = post(&complete, &unsigned, true).await;
    assert_eq!(
        (status, answer["reason"].as_str()),
        (400, Some("InvalidSignature"))
    );
    let good = with_callback(sealed_body(&order_data(challenge), Some(&keys.merchant)));
    let (status, answer) = post(&complete, &good, true).await;
    assert_eq!(
        (status, answer["status"].as_str()),
        (200, Some("Success")),
        "{answer}"
    );
    assert!(answer["callBackUrl"].as_str().unwrap().ends_with(reference));
    // Completing twice (a replay of the same signed request) is refused.
    let (status, answer) = post(&complete, &good, true).await;
    assert_eq!(
        (status, answer["reason"].as_str()),
        (400, Some("PaymentAlreadyCompleted"))
    );
    let verified: Value = client()
        .get(format!("{base}/api/dfs/verify/payment/{reference}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(verified["status"], "Ready");
    assert_eq!(verified["amount"], "1250.00");
    assert_eq!(verified["orderId"], order);
    let r = report(&base, NAGAD_ADMIN).await;
    assert_eq!(r["refused"], 9, "{r}");
}

#[tokio::test]
async fn escaped_pem_keys_configure_the_shop_and_bad_keys_are_refused_at_start() {
    let base = simulator().await;
    let escaped = keys().merchant_private_pem().replace('\n', "\\n");
    let shop = shop_at(args(&base, escaped)).await;
    let t = "1700000000000nagadescaped.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    ready(&shop, t, pid, 1, "nagad").await;
    start(&shop, t).await;

    let mut bad = args(&base, "-----BEGIN PRIVATE KEY-----\nnot a key\n".into());
    let error = Gateways::from_args(&bad, SITE).unwrap_err();
    let text = format!("{error:#}");
    assert!(text.contains("NAGAD_MERCHANT_PRIVATE_KEY"), "{text}");
    assert!(
        !text.contains("not a key"),
        "the key is never quoted: {text}"
    );
    bad.nagad_merchant_private_key = None;
    assert!(Gateways::from_args(&bad, SITE).unwrap().nagad.is_none());
    let debug = format!("{:?}", args(&base, keys().merchant_private_pem()));
    assert!(!debug.contains("PRIVATE KEY"), "never in logs: {debug}");
}
