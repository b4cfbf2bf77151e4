//! The shop paying through the workspace's simulated gateways
//! (`payments-sim`, in-process on loopback): bKash, Nagad and the card
//! gateway (SSLCommerz) all on, and the shopper's part at their hosted pages.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use catalog::db;
use serde_json::{json, Value};

use super::checkout::{last_order, ready};
use super::TestShop;
use origin::config::{PaymentArgs, Secret};
use origin::domain::payments::Gateways;

pub const SITE: &str = "https://shop.example";
/// The simulated bKash's and card gateway's fault switches.
pub const BKASH_ADMIN: &str = "/sim/admin";
pub const CARD_ADMIN: &str = "/sim/sslcommerz/admin";
/// The simulated Nagad's.
pub const NAGAD_ADMIN: &str = "/sim/nagad/admin";

/// The simulator on loopback: its base URL.
pub async fn simulator() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { payments_sim::serve(listener).await.unwrap() });
    base
}

/// bKash, Nagad and the card gateway at the simulator `base`.
pub fn args(base: &str) -> PaymentArgs {
    PaymentArgs {
        bkash_base_url: base.into(),
        bkash_app_key: Some(Secret(payments_sim::APP_KEY.into())),
        bkash_app_secret: Some(Secret(payments_sim::APP_SECRET.into())),
        bkash_username: Some(payments_sim::USERNAME.into()),
        bkash_password: Some(Secret(payments_sim::PASSWORD.into())),
        sslcommerz_base_url: base.into(),
        sslcommerz_store_id: Some(payments_sim::sslcommerz::STORE_ID.into()),
        sslcommerz_store_password: Some(Secret(payments_sim::sslcommerz::STORE_PASSWORD.into())),
        nagad_base_url: base.into(),
        nagad_merchant_id: Some(payments_sim::nagad::MERCHANT_ID.into()),
        nagad_merchant_number: Some(payments_sim::nagad::MERCHANT_NUMBER.into()),
        nagad_pg_public_key: Some(payments_sim::nagad::keys().pg_public_pem()),
        nagad_merchant_private_key: Some(Secret(
            payments_sim::nagad::keys().merchant_private_pem(),
        )),
        ..Default::default()
    }
}

/// A fresh shop paying through a new simulator: (shop, simulator base).
pub async fn shop_with_gateways() -> (TestShop, String) {
    let base = simulator().await;
    let shop = shop_at(args(&base)).await;
    (shop, base)
}

/// A fresh shop whose gateways are configured by `args`.
pub async fn shop_at(args: PaymentArgs) -> TestShop {
    let mut shop = TestShop::fresh().await;
    shop.state.payments = Arc::new(Gateways::from_args(&args, SITE).unwrap());
    shop.app = origin::app(shop.state.clone());
    shop
}

/// Where a paid order's return sends the browser: `page`
/// (`/thank-you`, `/nagad-thank-you`) with the order's number and key.
pub async fn paid_page(shop: &TestShop, order_id: i64, page: &str) -> String {
    let (number, key): (String, String) =
        db::query_as("SELECT order_random, order_key FROM order_master WHERE id = $1")
            .bind(order_id)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    format!("{SITE}{page}?order_random={number}&order_key={key}")
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// Switches a simulated gateway's faults (`admin`: [`BKASH_ADMIN`] or
/// [`CARD_ADMIN`]); answers its report.
pub async fn faults(base: &str, admin: &str, faults: Value) -> Value {
    client()
        .post(format!("{base}{admin}"))
        .json(&faults)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

pub async fn report(base: &str, admin: &str) -> Value {
    client()
        .get(format!("{base}{admin}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The link with id `action` on a simulator's page, absolute.
async fn follow(page: &str, action: &str, banner: &str) -> reqwest::Response {
    let http = client();
    let html = http.get(page).send().await.unwrap().text().await.unwrap();
    assert!(html.contains(banner), "{html}");
    let marker = format!("id=\"{action}\" href=\"");
    let start = html.find(&marker).expect("the action's link") + marker.len();
    let href = &html[start..start + html[start..].find('"').unwrap()];
    let origin = &page[..page.find("/sim/").unwrap()];
    http.get(format!("{origin}{href}")).send().await.unwrap()
}

/// `POST /api/bkash/create` as the guest: (status, answer); an error is
/// the API's error body.
pub async fn bkash_create(shop: &TestShop, token: &str) -> (StatusCode, Value) {
    let (status, headers, body) = shop
        .request(
            "POST",
            "/api/bkash/create",
            &[],
            Some(&json!({ "token": token })),
        )
        .await;
    if status != StatusCode::OK {
        super::assert_api_error(status, &headers, &body, status);
    }
    (status, body)
}

/// `POST /api/bkash/create` as the guest: answers bKash's page.
pub async fn bkash_start(shop: &TestShop, token: &str) -> String {
    let (status, body) = bkash_create(shop, token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    let url = body["bkashURL"].as_str().unwrap().to_string();
    assert!(url.contains("/sim/checkout?paymentID="), "{url}");
    url
}

/// The shopper at bKash's page follows `action`; answers where the browser
/// is sent (`None`: the callback is lost).
pub async fn at_bkash_page(page: &str, action: &str) -> Option<String> {
    let answer = follow(page, action, "Simulated bKash — no real money").await;
    if answer.status() == reqwest::StatusCode::SEE_OTHER {
        Some(answer.headers()["location"].to_str().unwrap().to_string())
    } else {
        None
    }
}

/// The browser at the shop's bKash callback: where it is sent on.
pub async fn bkash_callback(shop: &TestShop, location: &str) -> String {
    sent_on(shop, location, "/api/bkash/callback?paymentID=").await
}

/// The browser at the shop's Nagad return: where it is sent on.
pub async fn nagad_callback(shop: &TestShop, location: &str) -> String {
    sent_on(shop, location, "/api/nagad/receive-nagad-data?").await
}

/// The browser at `location`, a shop URL under `prefix`: where its 303
/// sends it on.
async fn sent_on(shop: &TestShop, location: &str, prefix: &str) -> String {
    let path = location.strip_prefix(SITE).expect("back to the shop");
    assert!(path.starts_with(prefix), "{path}");
    let (status, headers, body) = shop.get(path).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    headers["location"].to_str().unwrap().to_string()
}

/// `GET /api/nagad/pay-via-ajax` as the guest: (status, answer); an error
/// is the API's error body.
pub async fn nagad_pay(shop: &TestShop, token: &str) -> (StatusCode, Value) {
    let (status, headers, body) = shop
        .guest_get(token, &format!("/api/nagad/pay-via-ajax?token={token}"))
        .await;
    if status != StatusCode::OK {
        super::assert_api_error(status, &headers, &body, status);
    }
    (status, body)
}

/// `GET /api/nagad/pay-via-ajax` as the guest: answers Nagad's page.
pub async fn nagad_start(shop: &TestShop, token: &str) -> String {
    let (status, body) = nagad_pay(shop, token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    let url = body["url"].as_str().unwrap().to_string();
    assert!(url.contains("/sim/nagad/checkout/"), "{url}");
    url
}

/// The shopper at Nagad's page follows `action`; answers where the browser
/// is sent (`None`: the callback is lost).
pub async fn at_nagad_page(page: &str, action: &str) -> Option<String> {
    let answer = follow(page, action, "Simulated Nagad — no real money").await;
    if answer.status() == reqwest::StatusCode::SEE_OTHER {
        Some(answer.headers()["location"].to_str().unwrap().to_string())
    } else {
        None
    }
}

/// A guest's order of `qty` of `pid` paid by bKash end to end: its id.
pub async fn paid_by_bkash(shop: &TestShop, token: &str, pid: i64, qty: i64) -> i64 {
    ready(shop, token, pid, qty, "bkash").await;
    let page = bkash_start(shop, token).await;
    let back = at_bkash_page(&page, "approve").await.expect("sent back");
    let sent = bkash_callback(shop, &back).await;
    assert!(sent.contains("/thank-you?"), "{sent}");
    let (order_id, term, ..) = last_order(shop, token).await;
    assert_eq!(term, "Successful");
    order_id
}

/// `POST /sslcommerz/pay-via-ajax` as the guest: (status, answer).
pub async fn card_pay(shop: &TestShop, token: &str) -> (StatusCode, Value) {
    let (status, _, body) = shop
        .request(
            "POST",
            &format!("/sslcommerz/pay-via-ajax?self_token={token}"),
            &[],
            Some(&json!({ "device": "website" })),
        )
        .await;
    (status, body)
}

/// Opens the card checkout: the gateway's page.
pub async fn card_start(shop: &TestShop, token: &str) -> String {
    let (status, body) = card_pay(shop, token).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let page = body["data"].as_str().unwrap().to_string();
    assert!(page.contains("/sim/sslcommerz/pay?sessionkey="), "{page}");
    page
}

/// The gateway's post back to the shop: its URL and fields.
pub type Post = (String, Vec<(String, String)>);

/// The shopper at the card gateway's page follows `action` (approve,
/// decline, cancel); answers the form the page posts back (`None`: the
/// browser is not sent back).
pub async fn at_card_page(page: &str, action: &str) -> Option<Post> {
    let answer = follow(page, action, "Simulated card payment — no real money").await;
    assert_eq!(answer.status(), reqwest::StatusCode::OK);
    let html = answer.text().await.unwrap();
    let action_at = html.find("<form id=\"back\" method=\"post\" action=\"")?;
    let rest = &html[action_at..];
    let url = attribute(rest, "action").unwrap();
    let mut fields = Vec::new();
    for input in rest.split("<input ").skip(1) {
        fields.push((
            attribute(input, "name").unwrap(),
            attribute(input, "value").unwrap(),
        ));
    }
    Some((url, fields))
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let marker = format!("{name}=\"");
    let start = tag.find(&marker)? + marker.len();
    let value = &tag[start..start + tag[start..].find('"')?];
    Some(
        value
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

/// A form post (as the gateway's page makes the browser send) to a shop URL;
/// answers the status, headers and body.
pub async fn post_form(
    shop: &TestShop,
    url: &str,
    fields: &[(String, String)],
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let path = url.strip_prefix(SITE).expect("a shop URL");
    let mut encoded = reqwest::Url::parse("http://form.invalid/").unwrap();
    encoded.query_pairs_mut().extend_pairs(fields);
    let body = encoded.query().unwrap_or_default().to_string();
    let request = Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    shop.send(request).await
}

/// The browser's return to the shop: where it is sent on.
pub async fn card_return(shop: &TestShop, post: &Post) -> String {
    let (status, headers, body) = post_form(shop, &post.0, &post.1).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    headers["location"].to_str().unwrap().to_string()
}

/// A guest's order of `qty` of `pid` paid by card end to end: its id.
pub async fn paid_by_card(shop: &TestShop, token: &str, pid: i64, qty: i64) -> i64 {
    ready(shop, token, pid, qty, "debitcredit").await;
    let page = card_start(shop, token).await;
    let post = at_card_page(&page, "approve").await.expect("sent back");
    let sent = card_return(shop, &post).await;
    assert!(sent.contains("/redirect-from-ssl?"), "{sent}");
    let (order_id, term, ..) = last_order(shop, token).await;
    assert_eq!(term, "Successful");
    order_id
}

/// The newest attempt of an order: (tran_id, status).
pub async fn attempt(shop: &TestShop, order_id: i64) -> (String, String) {
    db::query_as("SELECT tran_id, status FROM payment WHERE order_id = $1 ORDER BY id DESC LIMIT 1")
        .bind(order_id)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap()
}

/// How many history rows of `status` the order has.
pub async fn history(shop: &TestShop, order_id: i64, status: &str) -> i64 {
    db::query_scalar(
        "SELECT COUNT(*) FROM order_status_history WHERE order_id = $1 AND status = $2",
    )
    .bind(order_id)
    .bind(status)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}

/// The refund of order `order_id`'s one refunded payment: (status, amount).
pub async fn refund_of(shop: &TestShop, order_id: i64) -> (String, i64) {
    catalog::db::query_as(
        "SELECT r.status, r.amount FROM payment_refund r JOIN payment p ON p.id = r.payment_id \
         WHERE p.order_id = $1",
    )
    .bind(order_id)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}
