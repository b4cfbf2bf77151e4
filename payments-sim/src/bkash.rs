//! A simulated bKash Tokenized Checkout (API v1.2.0-beta). No real money
//! moves: every page says so.
//!
//! The API, at the server's root (so `BKASH_BASE_URL` is `http://host:port`):
//! - `POST /tokenized/checkout/token/grant` (headers `username`, `password`;
//!   body `app_key`, `app_secret`) and `POST .../token/refresh` (plus
//!   `refresh_token`): `id_token`, `expires_in`, `refresh_token`. An expired
//!   or unknown token is refused with HTTP 401, as bKash's API gateway does;
//! - `POST /tokenized/checkout/create`, `.../execute`, `.../payment/status`,
//!   `.../payment/refund` (`paymentID`, `amount`, `trxID`, `sku`, `reason`:
//!   full or partial, at most what is left; with only `paymentID` and
//!   `trxID` it is the refund status: the payment's last refund, or 2071
//!   when it has none) with `Authorization: <id_token>`
//!   and `X-APP-Key`, bKash's field names and error codes
//!   (`statusCode`/`statusMessage`): 2001 invalid app key, 2002 invalid
//!   payment id, 2006 invalid amount, 2007 invalid currency, 2023
//!   insufficient balance, 2025 invalid request body (a refund's `trxID`
//!   not the payment's), 2026 a refund larger than what is left, 2056
//!   invalid payment state, 2062 already completed, 2117 execute already
//!   called;
//! - the hosted page `GET /sim/checkout?paymentID=` (the `bkashURL`) shows the
//!   amount and the merchant with approve, decline and cancel links; each
//!   sends the browser (303) to the `callbackURL` with `paymentID` and
//!   `status=success|failure|cancel`.
//!
//! Faults, set with `POST /sim/admin` (JSON [`Faults`]) and read back with
//! the counters from `GET /sim/admin` ([`Report`]): every API down (503),
//! insufficient balance on execute, execute's answer lost (the payment
//! completes, the caller gets a 504), the callback lost (the page says so
//! and sends nobody back), the amount completed differing from the one
//! created, tokens that live `token_ttl` seconds, and a refund's answer
//! lost (the refund is given, the caller gets a 504).

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::common::{escape, hosted_page, text, unique_id, unix_now_text, Brand};

/// The merchant credentials the simulator accepts by default.
pub const APP_KEY: &str = "sim-app-key";
pub const APP_SECRET: &str = "sim-app-secret";
pub const USERNAME: &str = "sim-merchant";
pub const PASSWORD: &str = "sim-password";
/// The merchant's name on the hosted page.
pub const MERCHANT: &str = "Furniture shop (simulated merchant)";

/// The credentials one simulator accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub app_key: String,
    pub app_secret: String,
    pub username: String,
    pub password: String,
}

impl Default for Credentials {
    fn default() -> Self {
        Credentials {
            app_key: APP_KEY.into(),
            app_secret: APP_SECRET.into(),
            username: USERNAME.into(),
            password: PASSWORD.into(),
        }
    }
}

/// The ways the simulator fails on purpose.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Faults {
    /// Every API answers 503.
    pub down: bool,
    /// Execute refuses with 2023 (insufficient balance); the payment fails.
    pub insufficient_balance: bool,
    /// Execute completes the payment but its answer is lost (HTTP 504).
    pub execute_timeout: bool,
    /// The hosted page sends nobody back after approval.
    pub lose_callback: bool,
    /// A completed payment reports one taka less than was created.
    pub tamper_amount: bool,
    /// Seconds a granted token lives (bKash: 3600); 0 for the default.
    pub token_ttl: u64,
    /// A refund is given but its answer is lost (HTTP 504).
    pub refund_answer_lost: bool,
}

/// What the simulator was asked, and its faults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub grants: u64,
    pub refreshes: u64,
    pub creates: u64,
    pub executes: u64,
    pub queries: u64,
    /// Refunds given (each partial refund counts).
    pub refunds: u64,
    /// Refund status queries.
    pub refund_queries: u64,
    /// Calls refused for an expired or unknown token.
    pub expired_tokens: u64,
    pub faults: Faults,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Created; the shopper has not approved.
    Initiated,
    /// Approved by the shopper; waiting for execute.
    Authorized,
    Completed,
    Failed,
    Cancelled,
}

impl Stage {
    fn transaction_status(self) -> &'static str {
        match self {
            Stage::Initiated | Stage::Authorized => "Initiated",
            Stage::Completed => "Completed",
            Stage::Failed => "Failed",
            Stage::Cancelled => "Cancelled",
        }
    }
}

#[derive(Debug, Clone)]
struct Payment {
    amount: String,
    invoice: String,
    payer_reference: String,
    callback_url: String,
    created: String,
    stage: Stage,
    executed: bool,
    trx_id: Option<String>,
    paid_amount: Option<String>,
    /// Taka given back so far.
    refunded: f64,
    /// Its refunds, oldest first: (refundTrxID, amount, completed time).
    refunds: Vec<(String, String, String)>,
}

#[derive(Debug, Default)]
struct Inner {
    faults: Faults,
    report: Report,
    /// id_token -> expiry.
    tokens: HashMap<String, Instant>,
    refresh_tokens: Vec<String>,
    payments: HashMap<String, Payment>,
}

struct Sim {
    credentials: Credentials,
    inner: Mutex<Inner>,
    counter: AtomicU64,
}

type Shared = Arc<Sim>;

impl Sim {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn id(&self, prefix: &str) -> String {
        unique_id(&self.counter, prefix)
    }
}

/// The simulator's routes.
pub fn router(credentials: Credentials) -> Router {
    let sim: Shared = Arc::new(Sim {
        credentials,
        inner: Mutex::default(),
        counter: AtomicU64::new(1),
    });
    Router::new()
        .route("/tokenized/checkout/token/grant", post(grant))
        .route("/tokenized/checkout/token/refresh", post(refresh))
        .route("/tokenized/checkout/create", post(create))
        .route("/tokenized/checkout/execute", post(execute))
        .route("/tokenized/checkout/payment/status", post(query))
        .route("/tokenized/checkout/payment/refund", post(refund))
        .route("/sim/checkout", get(page))
        .route("/sim/checkout/{payment_id}/{action}", get(act))
        .route("/sim/admin", get(report).post(set_faults))
        .with_state(sim)
}

fn bkash_error(code: &str, message: &str) -> Response {
    Json(json!({ "statusCode": code, "statusMessage": message })).into_response()
}

fn down() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(json!({ "message": "Service Unavailable (simulated)" })),
    )
        .into_response()
}

fn header_text(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// A new token pair answered as bKash does.
fn issue(sim: &Sim, inner: &mut Inner) -> Response {
    let ttl = match inner.faults.token_ttl {
        0 => 3600,
        s => s,
    };
    let id_token = sim.id("simtoken-");
    let refresh_token = sim.id("simrefresh-");
    inner
        .tokens
        .insert(id_token.clone(), Instant::now() + Duration::from_secs(ttl));
    inner.refresh_tokens.push(refresh_token.clone());
    Json(json!({
        "statusCode": "0000",
        "statusMessage": "Successful",
        "id_token": id_token,
        "token_type": "Bearer",
        "expires_in": ttl,
        "refresh_token": refresh_token,
    }))
    .into_response()
}

/// Checks the grant's credentials; `Some` refusal when wrong.
fn check_merchant(sim: &Sim, headers: &HeaderMap, body: &Value) -> Option<Response> {
    let c = &sim.credentials;
    if header_text(headers, "username") != c.username
        || header_text(headers, "password") != c.password
    {
        return Some(
            (
                StatusCode::UNAUTHORIZED,
                Json(json!({ "message": "Unauthorized" })),
            )
                .into_response(),
        );
    }
    if text(body, "app_key") != c.app_key || text(body, "app_secret") != c.app_secret {
        return Some(bkash_error("2001", "Invalid App Key"));
    }
    None
}

async fn grant(State(sim): State<Shared>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    if let Some(refusal) = check_merchant(&sim, &headers, &body) {
        return refusal;
    }
    inner.report.grants += 1;
    issue(&sim, &mut inner)
}

async fn refresh(
    State(sim): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    if let Some(refusal) = check_merchant(&sim, &headers, &body) {
        return refusal;
    }
    let token = text(&body, "refresh_token");
    if !inner.refresh_tokens.contains(&token) {
        return bkash_error("2079", "Invalid refresh token");
    }
    inner.report.refreshes += 1;
    issue(&sim, &mut inner)
}

/// Checks an API call's token and app key; `Some` refusal when wrong.
fn check_token(sim: &Sim, inner: &mut Inner, headers: &HeaderMap) -> Option<Response> {
    if inner.faults.down {
        return Some(down());
    }
    let token = header_text(headers, "authorization");
    let token = token.strip_prefix("Bearer ").unwrap_or(&token);
    match inner.tokens.get(token) {
        Some(expiry) if Instant::now() < *expiry => {}
        _ => {
            inner.report.expired_tokens += 1;
            return Some(
                (
                    StatusCode::UNAUTHORIZED,
                    Json(json!({ "message": "The incoming token has expired" })),
                )
                    .into_response(),
            );
        }
    }
    if header_text(headers, "x-app-key") != sim.credentials.app_key {
        return Some(bkash_error("2001", "Invalid App Key"));
    }
    None
}

/// Whole or decimal taka, more than zero.
fn valid_amount(amount: &str) -> bool {
    amount
        .parse::<f64>()
        .is_ok_and(|a| a > 0.0 && a.is_finite())
        && amount.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

async fn create(
    State(sim): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let mut inner = sim.lock();
    if let Some(refusal) = check_token(&sim, &mut inner, &headers) {
        return refusal;
    }
    inner.report.creates += 1;
    let amount = text(&body, "amount");
    let callback_url = text(&body, "callbackURL");
    let invoice = text(&body, "merchantInvoiceNumber");
    if text(&body, "mode") != "0011" {
        return bkash_error("2008", "Invalid mode");
    }
    if !valid_amount(&amount) {
        return bkash_error("2006", "Invalid amount");
    }
    if text(&body, "currency") != "BDT" {
        return bkash_error("2007", "Invalid currency");
    }
    if text(&body, "intent") != "sale" {
        return bkash_error("2009", "Invalid intent");
    }
    if invoice.is_empty() || invoice.len() > 255 {
        return bkash_error("2010", "Invalid merchant invoice number");
    }
    if !(callback_url.starts_with("http://") || callback_url.starts_with("https://")) {
        return bkash_error("2011", "Invalid callback URL");
    }
    let payment_id = sim.id("TR0011SIM");
    let host = header_text(&headers, "host");
    let payment = Payment {
        amount: amount.clone(),
        invoice: invoice.clone(),
        payer_reference: text(&body, "payerReference"),
        callback_url: callback_url.clone(),
        created: unix_now_text(),
        stage: Stage::Initiated,
        executed: false,
        trx_id: None,
        paid_amount: None,
        refunded: 0.0,
        refunds: Vec::new(),
    };
    let answer = json!({
        "statusCode": "0000",
        "statusMessage": "Successful",
        "paymentID": payment_id,
        "bkashURL": format!("http://{host}/sim/checkout?paymentID={payment_id}"),
        "callbackURL": callback_url,
        "successCallbackURL": format!("{callback_url}?paymentID={payment_id}&status=success"),
        "failureCallbackURL": format!("{callback_url}?paymentID={payment_id}&status=failure"),
        "cancelledCallbackURL": format!("{callback_url}?paymentID={payment_id}&status=cancel"),
        "amount": amount,
        "intent": "sale",
        "currency": "BDT",
        "paymentCreateTime": payment.created,
        "transactionStatus": "Initiated",
        "merchantInvoiceNumber": invoice,
        "payerReference": payment.payer_reference,
    });
    inner.payments.insert(payment_id, payment);
    Json(answer).into_response()
}

/// A payment as execute and query describe it.
fn describe(payment_id: &str, p: &Payment) -> Value {
    let mut answer = json!({
        "statusCode": "0000",
        "statusMessage": "Successful",
        "paymentID": payment_id,
        "mode": "0011",
        "paymentCreateTime": p.created,
        "amount": p.paid_amount.as_deref().unwrap_or(&p.amount),
        "currency": "BDT",
        "intent": "sale",
        "merchantInvoiceNumber": p.invoice,
        "payerReference": p.payer_reference,
        "transactionStatus": p.stage.transaction_status(),
        "verificationStatus": if p.stage == Stage::Completed { "Complete" } else { "Incomplete" },
    });
    if let Some(trx) = &p.trx_id {
        answer["trxID"] = json!(trx);
        answer["customerMsisdn"] = json!("01770618575");
    }
    answer
}

async fn execute(
    State(sim): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let mut inner = sim.lock();
    if let Some(refusal) = check_token(&sim, &mut inner, &headers) {
        return refusal;
    }
    inner.report.executes += 1;
    let faults = inner.faults.clone();
    let payment_id = text(&body, "paymentID");
    let trx_id = sim.id("SIM");
    let Some(p) = inner.payments.get_mut(&payment_id) else {
        return bkash_error("2002", "Invalid Payment ID");
    };
    if p.stage == Stage::Completed {
        return bkash_error("2062", "The payment has already been completed");
    }
    if p.executed {
        return bkash_error("2117", "Payment execution already been called before");
    }
    if p.stage != Stage::Authorized {
        return bkash_error("2056", "Invalid Payment State");
    }
    p.executed = true;
    if faults.insufficient_balance {
        p.stage = Stage::Failed;
        return bkash_error("2023", "Insufficient Balance");
    }
    p.stage = Stage::Completed;
    p.trx_id = Some(trx_id);
    if faults.tamper_amount {
        let less = p.amount.parse::<f64>().unwrap_or(0.0) - 1.0;
        p.paid_amount = Some(format!("{less:.2}"));
    }
    if faults.execute_timeout {
        return (
            StatusCode::GATEWAY_TIMEOUT,
            Json(json!({ "message": "Endpoint request timed out (simulated)" })),
        )
            .into_response();
    }
    Json(describe(&payment_id, p)).into_response()
}

async fn query(State(sim): State<Shared>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    let mut inner = sim.lock();
    if let Some(refusal) = check_token(&sim, &mut inner, &headers) {
        return refusal;
    }
    inner.report.queries += 1;
    let payment_id = text(&body, "paymentID");
    match inner.payments.get(&payment_id) {
        Some(p) => Json(describe(&payment_id, p)).into_response(),
        None => bkash_error("2002", "Invalid Payment ID"),
    }
}

/// `payment/refund`: gives back `amount` of a completed payment (full or
/// partial), answered as bKash does with the refund's own `refundTrxID`.
async fn refund(
    State(sim): State<Shared>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let mut inner = sim.lock();
    if let Some(refusal) = check_token(&sim, &mut inner, &headers) {
        return refusal;
    }
    let payment_id = text(&body, "paymentID");
    let amount = text(&body, "amount");
    let refund_trx = sim.id("SIMR");
    let Some(p) = inner.payments.get_mut(&payment_id) else {
        return bkash_error("2002", "Invalid Payment ID");
    };
    if p.stage != Stage::Completed {
        return bkash_error("2056", "Invalid Payment State");
    }
    if p.trx_id.as_deref() != Some(text(&body, "trxID").as_str()) {
        return bkash_error("2025", "Invalid request body");
    }
    if body.get("amount").is_none() {
        // The refund status: the payment's last refund.
        inner.report.refund_queries += 1;
        let Some(p) = inner.payments.get(&payment_id) else {
            return bkash_error("2002", "Invalid Payment ID");
        };
        return match p.refunds.last() {
            Some((refund_trx, amount, completed)) => Json(json!({
                "statusCode": "0000",
                "statusMessage": "Successful",
                "originalTrxID": p.trx_id.clone().unwrap_or_default(),
                "refundTrxID": refund_trx,
                "transactionStatus": "Completed",
                "amount": amount,
                "currency": "BDT",
                "charge": "0.00",
                "completedTime": completed,
            }))
            .into_response(),
            None => bkash_error("2071", "No refund found for this transaction"),
        };
    }
    if !valid_amount(&amount) {
        return bkash_error("2006", "Invalid amount");
    }
    let asked: f64 = amount.parse().unwrap_or(0.0);
    let paid: f64 = p
        .paid_amount
        .as_deref()
        .unwrap_or(&p.amount)
        .parse()
        .unwrap_or(0.0);
    if p.refunded + asked > paid + 1e-9 {
        return bkash_error(
            "2026",
            "The reversal amount cannot be greater than the original transaction amount",
        );
    }
    p.refunded += asked;
    let completed = unix_now_text();
    p.refunds
        .push((refund_trx.clone(), amount.clone(), completed.clone()));
    let original = p.trx_id.clone().unwrap_or_default();
    inner.report.refunds += 1;
    if inner.faults.refund_answer_lost {
        return (
            StatusCode::GATEWAY_TIMEOUT,
            Json(json!({ "message": "Endpoint request timed out (simulated)" })),
        )
            .into_response();
    }
    Json(json!({
        "statusCode": "0000",
        "statusMessage": "Successful",
        "completedTime": completed,
        "transactionStatus": "Completed",
        "originalTrxID": original,
        "refundTrxID": refund_trx,
        "amount": amount,
        "currency": "BDT",
        "charge": "0.00",
    }))
    .into_response()
}

/// The hosted pages' look.
const BRAND: Brand = Brand {
    label: "Simulated bKash — no real money",
    note: "",
    colour: "#e2136e",
};

fn html_page(title: &str, body: &str) -> Response {
    hosted_page(&BRAND, title, body)
}

#[derive(Deserialize)]
struct PageQuery {
    #[serde(rename = "paymentID", default)]
    payment_id: String,
}

/// The hosted approval page.
async fn page(State(sim): State<Shared>, Query(q): Query<PageQuery>) -> Response {
    let inner = sim.lock();
    let Some(p) = inner.payments.get(&q.payment_id) else {
        return (
            StatusCode::NOT_FOUND,
            html_page("Unknown payment", "<p>No such payment.</p>"),
        )
            .into_response();
    };
    if p.stage != Stage::Initiated {
        return html_page(
            "Payment already handled",
            "<p>This payment is no longer waiting for approval.</p>",
        );
    }
    let id = escape(&q.payment_id);
    let body = format!(
        "<p>Merchant: <strong>{}</strong></p><p>Invoice: {}</p>\
         <p>Amount: <strong id=\"amount\">৳ {}</strong> BDT</p>\
         <p><a class=\"button\" id=\"approve\" href=\"/sim/checkout/{id}/approve\">Approve (PIN accepted)</a>\
         <a class=\"button\" id=\"decline\" href=\"/sim/checkout/{id}/decline\">Decline</a>\
         <a class=\"button\" id=\"cancel\" href=\"/sim/checkout/{id}/cancel\">Cancel</a></p>",
        escape(MERCHANT),
        escape(&p.invoice),
        escape(&p.amount),
    );
    html_page("Pay with bKash", &body)
}

/// The shopper's choice on the hosted page: back to the merchant (303).
async fn act(
    State(sim): State<Shared>,
    Path((payment_id, action)): Path<(String, String)>,
) -> Response {
    let mut inner = sim.lock();
    let lose = inner.faults.lose_callback;
    let Some(p) = inner.payments.get_mut(&payment_id) else {
        return (
            StatusCode::NOT_FOUND,
            html_page("Unknown payment", "<p>No such payment.</p>"),
        )
            .into_response();
    };
    if p.stage != Stage::Initiated {
        return html_page(
            "Payment already handled",
            "<p>This payment is no longer waiting for approval.</p>",
        );
    }
    let status = match action.as_str() {
        "approve" => {
            p.stage = Stage::Authorized;
            "success"
        }
        "decline" => {
            p.stage = Stage::Failed;
            "failure"
        }
        "cancel" => {
            p.stage = Stage::Cancelled;
            "cancel"
        }
        _ => {
            return (
                StatusCode::NOT_FOUND,
                html_page("Unknown action", "<p>Approve, decline or cancel.</p>"),
            )
                .into_response()
        }
    };
    if lose && status == "success" {
        return html_page(
            "Approved",
            "<p>The payment was approved, but the merchant was not told \
             (simulated lost callback).</p>",
        );
    }
    let joiner = if p.callback_url.contains('?') {
        '&'
    } else {
        '?'
    };
    Redirect::to(&format!(
        "{}{joiner}paymentID={payment_id}&status={status}&apiVersion=1.2.0-beta",
        p.callback_url
    ))
    .into_response()
}

async fn report(State(sim): State<Shared>) -> Json<Report> {
    let inner = sim.lock();
    let mut report = inner.report.clone();
    report.faults = inner.faults.clone();
    Json(report)
}

async fn set_faults(State(sim): State<Shared>, Json(faults): Json<Faults>) -> Json<Report> {
    let mut inner = sim.lock();
    inner.faults = faults;
    let mut report = inner.report.clone();
    report.faults = inner.faults.clone();
    Json(report)
}
