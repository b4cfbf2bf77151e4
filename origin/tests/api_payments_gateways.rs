//! Online payment end to end: the real router on a real seeded SQLite file,
//! and a simulator of each gateway's protocol started by the test on
//! loopback (SSLCommerz's session, validation and transaction query APIs),
//! with scripted outcomes: paid, failed, cancelled, paid the wrong amount,
//! and gateway down. The browser's part (the hosted page posting back) is
//! played by the test. Nagad, with its encryption and signatures, is tested
//! against `payments-sim` in api_payments_nagad.rs; here it is only a
//! wallet nobody answers at.

mod common;

use catalog::db;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{Form, Path, Query, State};
use axum::http::{Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use common::checkout::{cart_lines, last_order, plain_product, ready, stock};
use common::{assert_api_error, TestShop};
use origin::config::{PaymentArgs, Secret};
use origin::domain::payments::Gateways;

const STORE_ID: &str = "shop-store";
const STORE_PASSWORD: &str = "store-pass-1";
const SITE: &str = "https://shop.example";

/// One card transaction at the simulated SSLCommerz.
#[derive(Debug, Clone)]
struct CardTx {
    form: HashMap<String, String>,
    /// UNATTEMPTED, VALID, FAILED or CANCELLED.
    status: String,
    val_id: Option<String>,
    /// What the shopper really paid, when paid.
    paid: Option<String>,
    validations: usize,
}

#[derive(Default)]
struct Sim {
    /// Every API answers 503 while set.
    down: bool,
    cards: HashMap<String, CardTx>,
    /// Validation API calls (any answer).
    validation_calls: usize,
}

type Shared = Arc<Mutex<Sim>>;

fn random() -> String {
    origin::domain::identity::new_token().0[..20].to_string()
}

fn down() -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, "maintenance").into_response()
}

/// `POST /gwprocess/v4/api.php`: a session for a transaction.
async fn ssl_session(
    State(sim): State<Shared>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let mut sim = sim.lock().unwrap();
    if sim.down {
        return down();
    }
    if f.get("store_id").map(String::as_str) != Some(STORE_ID)
        || f.get("store_passwd").map(String::as_str) != Some(STORE_PASSWORD)
    {
        return Json(json!({ "status": "FAILED", "failedreason": "Store Credential Error" }))
            .into_response();
    }
    let tran_id = f["tran_id"].clone();
    let base = f["ipn_url"].clone();
    assert!(base.ends_with("/sslcommerz/ipn"), "{base}");
    sim.cards.insert(
        tran_id.clone(),
        CardTx {
            form: f,
            status: "UNATTEMPTED".into(),
            val_id: None,
            paid: None,
            validations: 0,
        },
    );
    Json(json!({
        "status": "SUCCESS",
        "sessionkey": random(),
        "GatewayPageURL": format!("https://sim.example/gwprocess/v4/pay/{tran_id}"),
    }))
    .into_response()
}

/// The shopper at the hosted page: `outcome` is `valid`, `short` (paid one
/// taka less), `failed` or `cancelled`. Answers where the browser posts back
/// and the form it posts.
async fn ssl_shopper(
    State(sim): State<Shared>,
    Path(tran_id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Json<Value> {
    let mut sim = sim.lock().unwrap();
    let tx = sim.cards.get_mut(&tran_id).expect("known transaction");
    let amount = tx.form["total_amount"].clone();
    let (status, url) = match q["outcome"].as_str() {
        "valid" | "short" => ("VALID", "success_url"),
        "failed" => ("FAILED", "fail_url"),
        _ => ("CANCELLED", "cancel_url"),
    };
    tx.status = status.into();
    if status == "VALID" {
        tx.val_id = Some(format!("val{}", random()));
        let whole: i64 = amount.trim_end_matches(".00").parse().unwrap();
        tx.paid = Some(if q["outcome"] == "short" {
            format!("{}.00", whole - 1)
        } else {
            amount.clone()
        });
    }
    let mut fields = json!({
        "tran_id": tran_id,
        "status": status,
        "amount": amount,
        "currency": "BDT",
        "value_a": tx.form["value_a"],
    });
    if let Some(v) = &tx.val_id {
        fields["val_id"] = json!(v);
    }
    // Signed as SSLCommerz signs what it posts (the shop checks the IPN's).
    let signed: std::collections::BTreeMap<String, String> = fields
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    let keys: Vec<String> = signed.keys().cloned().collect();
    fields["verify_key"] = json!(keys.join(","));
    fields["verify_sign"] = json!(payments_sim::sslcommerz::verify_sign(
        &signed,
        &keys,
        STORE_PASSWORD
    ));
    Json(json!({ "url": tx.form[url], "fields": fields }))
}

fn store_ok(q: &HashMap<String, String>) -> bool {
    q.get("store_id").map(String::as_str) == Some(STORE_ID)
        && q.get("store_passwd").map(String::as_str) == Some(STORE_PASSWORD)
}

/// `GET /validator/api/validationserverAPI.php?val_id=`.
async fn ssl_validate(
    State(sim): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let mut sim = sim.lock().unwrap();
    sim.validation_calls += 1;
    if sim.down {
        return down();
    }
    let val_id = q.get("val_id").cloned().unwrap_or_default();
    let found = sim
        .cards
        .values_mut()
        .find(|t| t.val_id.as_deref() == Some(val_id.as_str()));
    match found {
        Some(tx) if store_ok(&q) => {
            tx.validations += 1;
            Json(json!({
                "status": if tx.validations == 1 { "VALID" } else { "VALIDATED" },
                "tran_id": tx.form["tran_id"],
                "val_id": val_id,
                "amount": tx.paid,
                "currency": "BDT",
                "bank_tran_id": format!("bank-{val_id}"),
            }))
            .into_response()
        }
        _ => Json(json!({ "status": "INVALID_TRANSACTION" })).into_response(),
    }
}

/// `GET /validator/api/merchantTransIDvalidationAPI.php?tran_id=`.
async fn ssl_query(
    State(sim): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let sim = sim.lock().unwrap();
    if sim.down {
        return down();
    }
    let tran_id = q.get("tran_id").cloned().unwrap_or_default();
    let element: Vec<Value> = sim
        .cards
        .get(&tran_id)
        .filter(|_| store_ok(&q))
        .map(|tx| {
            json!({
                "tran_id": tran_id,
                "val_id": tx.val_id.clone().unwrap_or_default(),
                "amount": tx.paid.clone().unwrap_or_else(|| tx.form["total_amount"].clone()),
                "currency": "BDT",
                "status": tx.status,
            })
        })
        .into_iter()
        .collect();
    Json(json!({ "APIConnect": "DONE", "no_of_trans_found": element.len(), "element": element }))
        .into_response()
}

/// Starts the card gateway's simulator on a loopback server; answers its base URL.
async fn simulator() -> (String, Shared) {
    let sim: Shared = Arc::default();
    let app = Router::new()
        .route("/ssl/gwprocess/v4/api.php", post(ssl_session))
        .route("/ssl/shopper/{tran_id}", post(ssl_shopper))
        .route(
            "/ssl/validator/api/validationserverAPI.php",
            get(ssl_validate),
        )
        .route(
            "/ssl/validator/api/merchantTransIDvalidationAPI.php",
            get(ssl_query),
        )
        .with_state(Arc::clone(&sim));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, sim)
}

fn args(ssl_base: &str, nagad_base: &str) -> PaymentArgs {
    PaymentArgs {
        sslcommerz_base_url: ssl_base.into(),
        sslcommerz_store_id: Some(STORE_ID.into()),
        sslcommerz_store_password: Some(Secret(STORE_PASSWORD.into())),
        nagad_base_url: nagad_base.into(),
        nagad_merchant_id: Some(payments_sim::nagad::MERCHANT_ID.into()),
        nagad_pg_public_key: Some(payments_sim::nagad::keys().pg_public_pem()),
        nagad_merchant_private_key: Some(Secret(
            payments_sim::nagad::keys().merchant_private_pem(),
        )),
        payment_callback_base: None,
        ..Default::default()
    }
}

/// A fresh shop whose gateways are the simulator.
async fn shop_with_gateways() -> (TestShop, Shared, String) {
    let (base, sim) = simulator().await;
    let mut shop = TestShop::fresh().await;
    let gateways = Gateways::from_args(
        &args(&format!("{base}/ssl"), &format!("{base}/nagad")),
        SITE,
    )
    .unwrap();
    shop.state.payments = Arc::new(gateways);
    shop.app = origin::app(shop.state.clone());
    (shop, sim, base)
}

/// An active product outside flash sales with `stock` units or more, no
/// variations, not a pre-booking: (id, price now).
/// Starts a card payment of the guest's cart; answers the hosted page's
/// transaction id.
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
    let page = started["data"].as_str().unwrap();
    page.rsplit('/').next().unwrap().to_string()
}

/// The shopper acts at the hosted page; answers the return URL's path and
/// the form the browser posts to it.
async fn at_card_page(base: &str, tran_id: &str, outcome: &str) -> (String, Vec<(String, String)>) {
    let answer: Value = reqwest::Client::new()
        .post(format!("{base}/ssl/shopper/{tran_id}?outcome={outcome}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let url = answer["url"].as_str().unwrap();
    let path = url
        .strip_prefix(SITE)
        .expect("return to the shop")
        .to_string();
    let fields = answer["fields"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    (path, fields)
}

/// The browser posts a form to the shop; answers the status and where it is
/// sent (or the JSON body).
async fn browser_post(
    shop: &TestShop,
    path: &str,
    fields: &[(String, String)],
) -> (StatusCode, String, Value) {
    let form = reqwest::Url::parse_with_params("http://form.invalid/", fields)
        .unwrap()
        .query()
        .unwrap_or_default()
        .to_string();
    let request = Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    let (status, headers, body) = shop.send(request).await;
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
    let (shop, sim, base) = shop_with_gateways().await;
    let (_, _, gateways) = shop.get("/api/cart/get-payment-gateway").await;
    assert_eq!(gateways["debitcredit"]["active"], true);
    assert_eq!(gateways["nagad"]["active"], true);
    assert_eq!(gateways["bkash"]["active"], false);

    let t = "1700000000000cardguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 2, "debitcredit").await;
    let tran_id = start_card(&shop, t, &json!({ "device": "website" })).await;
    let (order_id, term, _, total, paid) = last_order(&shop, t).await;
    assert_eq!((term.as_str(), paid), ("Pending", 0));
    assert_eq!(stock(&shop, pid).await, before - 2, "stock reserved");
    assert_eq!(cart_lines(&shop, t).await, 1, "the cart is kept until paid");
    {
        let sim = sim.lock().unwrap();
        let form = &sim.cards[&tran_id].form;
        assert_eq!(form["total_amount"], format!("{total}.00"));
        assert_eq!(form["success_url"], format!("{SITE}/sslcommerz/success"));
        assert_eq!(form["emi_option"], "0");
    }

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
            location.starts_with(&format!("{SITE}/fail?reason=")),
            "{location}"
        );
        assert_eq!(last_order(&shop, t).await.1, "Pending");
    }
    // A transaction id never issued changes nothing either.
    let unknown = pairs(&[("tran_id", "Tnever"), ("status", "FAILED")]);
    let (_, location, _) = browser_post(&shop, "/sslcommerz/fail", &unknown).await;
    assert!(location.starts_with(&format!("{SITE}/fail")));
    assert_eq!(last_order(&shop, t).await.1, "Pending");

    let (path, fields) = at_card_page(&base, &tran_id, "valid").await;
    assert_eq!(path, "/sslcommerz/success");
    let (status, location, _) = browser_post(&shop, &path, &fields).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
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
    let (_, again, _) = browser_post(&shop, &path, &fields).await;
    assert_eq!(again, location);
    let (status, _, body) = browser_post(&shop, "/sslcommerz/ipn", &fields).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["paid"], true);
    assert_eq!(last_order(&shop, t).await.4, total);
    assert_eq!(stock(&shop, pid).await, before - 2);
    let paid_events = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM order_status_history WHERE order_id = {order_id} AND status = 'paid'"
        ))
        .await;
    assert_eq!(paid_events, 1);
    assert!(sim.lock().unwrap().validation_calls >= 3);

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
    let (shop, _sim, base) = shop_with_gateways().await;
    let t = "1700000000000cardguest2.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 3, "debitcredit").await;
    for (outcome, path) in [
        ("failed", "/sslcommerz/fail"),
        ("cancelled", "/sslcommerz/cancel"),
        ("short", "/sslcommerz/success"),
    ] {
        let tran_id = start_card(&shop, t, &json!({})).await;
        assert_eq!(stock(&shop, pid).await, before - 3);
        let (back, fields) = at_card_page(&base, &tran_id, outcome).await;
        assert_eq!(back, path);
        let (status, location, _) = browser_post(&shop, &back, &fields).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        assert!(
            location.starts_with(&format!("{SITE}/fail?reason=")),
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
        browser_post(&shop, &back, &fields).await;
        assert_eq!(stock(&shop, pid).await, before, "{outcome}: replay");
        assert_eq!(
            cart_lines(&shop, t).await,
            1,
            "{outcome}: the cart is kept to try again"
        );
    }
}

#[tokio::test]
async fn a_gateway_that_is_down_answers_a_clean_503_and_loses_nothing() {
    let (shop, sim, base) = shop_with_gateways().await;
    let t = "1700000000000downguest1.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (pid, _) = plain_product(&shop, 5).await;
    let before = stock(&shop, pid).await;
    ready(&shop, t, pid, 1, "debitcredit").await;

    sim.lock().unwrap().down = true;
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
    sim.lock().unwrap().down = false;
    let tran_id = start_card(&shop, t, &json!({})).await;
    let (path, fields) = at_card_page(&base, &tran_id, "valid").await;
    sim.lock().unwrap().down = true;
    let (status, location, _) = browser_post(&shop, &path, &fields).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert!(location.starts_with(&format!("{SITE}/fail?reason=")));
    assert_eq!(last_order(&shop, t).await.1, "Pending");
    let (status, _, body) = browser_post(&shop, "/sslcommerz/ipn", &fields).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    // The gateway's next notification settles it.
    sim.lock().unwrap().down = false;
    let (status, _, body) = browser_post(&shop, "/sslcommerz/ipn", &fields).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(last_order(&shop, t).await.1, "Successful");

    // A wallet nobody answers at (a closed port).
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let mut shop = shop;
    shop.state.payments =
        Arc::new(Gateways::from_args(&args(&format!("{base}/ssl"), &closed), SITE).unwrap());
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
    let (shop, sim, base) = shop_with_gateways().await;
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
    let tran_id = body["data"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        sim.lock().unwrap().cards[&tran_id].form["total_amount"],
        format!("{total}.00")
    );
    let (path, fields) = at_card_page(&base, &tran_id, "valid").await;
    browser_post(&shop, &path, &fields).await;
    assert_eq!(last_order(&shop, t).await.1, "Successful");
    let (status, headers, body) = shop.guest_post(t, &uri, &json!({})).await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);
}

#[tokio::test]
async fn instalments_are_offered_only_when_every_product_allows_them() {
    let (shop, sim, _) = shop_with_gateways().await;
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
    let tran_id = start_card(&shop, t, &emi).await;
    {
        let sim = sim.lock().unwrap();
        let form = &sim.cards[&tran_id].form;
        assert_eq!(
            (
                form["emi_option"].as_str(),
                form["emi_max_inst_option"].as_str()
            ),
            ("1", "6")
        );
    }
    db::query("UPDATE product SET emi_available = FALSE WHERE id = $1")
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let tran_id = start_card(&shop, t, &emi).await;
    {
        let sim = sim.lock().unwrap();
        let form = &sim.cards[&tran_id].form;
        assert_eq!(form["emi_option"], "0");
        assert!(!form.contains_key("emi_max_inst_option"));
    }
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
    let tran_id = start_card(&shop, t, &emi).await;
    let sim = sim.lock().unwrap();
    assert_eq!(sim.cards[&tran_id].form["emi_option"], "0");
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
