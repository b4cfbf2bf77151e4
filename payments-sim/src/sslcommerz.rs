//! A simulated SSLCommerz (API v4), the card gateway. No real money moves:
//! every page says so.
//!
//! The API, at the server's root (so `SSLCOMMERZ_BASE_URL` is `http://host:port`):
//! - `POST /gwprocess/v4/api.php` (a form: `store_id`, `store_passwd`,
//!   `total_amount`, `currency`, `tran_id`, `success_url`, `fail_url`,
//!   `cancel_url`, `ipn_url`, the customer, `value_a`..`value_d`) answers
//!   `{status: SUCCESS, sessionkey, GatewayPageURL}` or `{status: FAILED,
//!   failedreason}`;
//! - the hosted page `GET /sim/sslcommerz/pay?sessionkey=` (the
//!   `GatewayPageURL`) shows the amount with approve, decline and cancel
//!   links. Each answers a page whose form posts the browser back to the
//!   shop's `success_url`, `fail_url` or `cancel_url` with `tran_id`,
//!   `val_id` (when paid), `amount`, `bank_tran_id`, `status`, the `value_*`
//!   fields, `verify_key` and `verify_sign`; the same fields are posted
//!   server to server to the `ipn_url` (the IPN);
//! - `GET /validator/api/validationserverAPI.php?val_id=&store_id=&store_passwd=`:
//!   the payment a `val_id` names (`status` VALID the first time, VALIDATED
//!   after; `INVALID_TRANSACTION` for an unknown one);
//! - `GET /validator/api/merchantTransIDvalidationAPI.php` with `tran_id`:
//!   the transaction query (`{APIConnect: DONE, no_of_trans_found, element}`);
//!   with `refund_amount`, `bank_tran_id` (and `refund_remarks`, `refe_id`):
//!   a refund, full or partial (`{APIConnect: DONE, status: success,
//!   refund_ref_id}` or `status: failed` with `errorReason`); with
//!   `refund_ref_id`: that refund's status (`refunded`, or `processing`
//!   while the `refund_processing` fault holds it).
//!
//! `verify_sign` is SSLCommerz's: the MD5 (hex) of `key=value` pairs joined
//! by `&`, sorted by key, of every field `verify_key` names plus
//! `store_passwd` = MD5 of the store password ([`verify_sign`]).
//!
//! Faults, set with `POST /sim/sslcommerz/admin` (JSON [`Faults`]) and read
//! back with the counters from `GET /sim/sslcommerz/admin` ([`Report`]):
//! every API down (503), the browser's return lost (the page says so and
//! sends nobody back; the IPN is still sent), the validation and query
//! APIs reporting one taka less than was paid, refunds answered
//! `processing` (and queried so until the fault is switched off), and a
//! refund's answer lost (the refund is taken, the caller gets a 504).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::common::{escape, hosted_page, unique_id, unix_now_text, Brand};

/// The store the simulator accepts by default.
pub const STORE_ID: &str = "simstore";
pub const STORE_PASSWORD: &str = "simstore@ssl";
/// The store's name on the hosted page.
pub const MERCHANT: &str = "Furniture shop (simulated store)";

/// The ways the simulator fails on purpose.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Faults {
    /// Every API answers 503.
    pub down: bool,
    /// The hosted page sends the browser nowhere (the IPN is still sent).
    pub lose_callback: bool,
    /// Validation and query report one taka less than was paid.
    pub tamper_amount: bool,
    /// Refunds are answered `processing`, and their query says so until
    /// this is switched off (then `refunded`).
    pub refund_processing: bool,
    /// A refund is taken but its answer is lost (HTTP 504).
    pub refund_answer_lost: bool,
}

/// What the simulator was asked, and its faults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub sessions: u64,
    pub validations: u64,
    pub queries: u64,
    pub refunds: u64,
    /// Refund queries (by `refund_ref_id`).
    pub refund_queries: u64,
    /// IPNs delivered (an answer came back) and not delivered.
    pub ipns_sent: u64,
    pub ipns_failed: u64,
    /// The fields of the last IPN (posted or not), to replay in tests.
    pub last_ipn: BTreeMap<String, String>,
    /// The fields of the last session opened (the store password left
    /// out): what the merchant asked for.
    pub last_session: BTreeMap<String, String>,
    pub faults: Faults,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Pending,
    Paid,
    Failed,
    Cancelled,
}

#[derive(Debug, Clone)]
struct Session {
    tran_id: String,
    amount: String,
    currency: String,
    success_url: String,
    fail_url: String,
    cancel_url: String,
    ipn_url: String,
    values: [String; 4],
    stage: Stage,
    val_id: String,
    bank_tran_id: String,
    tran_date: String,
    /// How often the validation API answered for it.
    validated: u64,
    refunded: f64,
}

#[derive(Debug, Default)]
struct Inner {
    faults: Faults,
    report: Report,
    /// sessionkey -> session.
    sessions: HashMap<String, Session>,
    /// refund_ref_id -> (bank_tran_id, amount, still processing).
    refunds: HashMap<String, (String, String, bool)>,
}

struct Sim {
    store_id: String,
    store_password: String,
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

    fn store_ok(&self, fields: &HashMap<String, String>) -> bool {
        field(fields, "store_id") == self.store_id
            && field(fields, "store_passwd") == self.store_password
    }
}

/// The simulator's routes, accepting the store `store_id` / `store_password`.
pub fn router(store_id: &str, store_password: &str) -> Router {
    let sim: Shared = Arc::new(Sim {
        store_id: store_id.into(),
        store_password: store_password.into(),
        inner: Mutex::default(),
        counter: AtomicU64::new(1),
    });
    Router::new()
        .route("/gwprocess/v4/api.php", post(session))
        .route("/validator/api/validationserverAPI.php", get(validation))
        .route(
            "/validator/api/merchantTransIDvalidationAPI.php",
            get(transactions),
        )
        .route("/sim/sslcommerz/pay", get(page))
        .route("/sim/sslcommerz/pay/{sessionkey}/{action}", get(act))
        .route("/sim/sslcommerz/admin", get(report).post(set_faults))
        .with_state(sim)
}

fn field<'a>(fields: &'a HashMap<String, String>, name: &str) -> &'a str {
    fields.get(name).map(String::as_str).unwrap_or_default()
}

fn down() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "Service Unavailable (simulated)",
    )
        .into_response()
}

/// An amount in taka, more than zero, with at most two decimals.
fn taka(text: &str) -> Option<f64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    text.parse::<f64>().ok().filter(|a| *a > 0.0)
}

/// `POST /gwprocess/v4/api.php`: opens a session.
async fn session(
    State(sim): State<Shared>,
    headers: HeaderMap,
    Form(fields): Form<HashMap<String, String>>,
) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    let failed = |reason: &str| Json(json!({ "status": "FAILED", "failedreason": reason }));
    if !sim.store_ok(&fields) {
        return failed("Store Credential Error Or Store is De-active").into_response();
    }
    let amount = field(&fields, "total_amount");
    if taka(amount).is_none_or(|a| !(10.0..=500_000.0).contains(&a)) {
        return failed("Invalid total_amount (10.00 to 500000.00 BDT)").into_response();
    }
    let tran_id = field(&fields, "tran_id");
    if tran_id.is_empty() || tran_id.len() > 30 {
        return failed("Invalid tran_id").into_response();
    }
    if inner.sessions.values().any(|s| s.tran_id == tran_id) {
        return failed("Duplicate tran_id").into_response();
    }
    let url = |name: &str| {
        let u = field(&fields, name);
        (u.starts_with("http://") || u.starts_with("https://")).then(|| u.to_string())
    };
    let (Some(success_url), Some(fail_url), Some(cancel_url)) =
        (url("success_url"), url("fail_url"), url("cancel_url"))
    else {
        return failed("Invalid success_url, fail_url or cancel_url").into_response();
    };
    let currency = match field(&fields, "currency") {
        "" => "BDT",
        c => c,
    };
    if currency != "BDT" {
        return failed("Invalid currency").into_response();
    }
    inner.report.sessions += 1;
    inner.report.last_session = fields
        .iter()
        .filter(|(k, _)| k.as_str() != "store_passwd")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let key = sim.id("SIMSESSION");
    let values =
        ["value_a", "value_b", "value_c", "value_d"].map(|v| field(&fields, v).to_string());
    inner.sessions.insert(
        key.clone(),
        Session {
            tran_id: tran_id.into(),
            amount: amount.into(),
            currency: currency.into(),
            success_url,
            fail_url,
            cancel_url,
            ipn_url: url("ipn_url").unwrap_or_default(),
            values,
            stage: Stage::Pending,
            val_id: String::new(),
            bank_tran_id: String::new(),
            tran_date: String::new(),
            validated: 0,
            refunded: 0.0,
        },
    );
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("127.0.0.1");
    let page = format!("http://{host}/sim/sslcommerz/pay?sessionkey={key}");
    Json(json!({
        "status": "SUCCESS",
        "failedreason": "",
        "sessionkey": key,
        "gw": { "visa": "dbbl_visa,ebl_visa", "master": "dbbl_master", "mobilebanking": "bkash,nagad" },
        "redirectGatewayURL": page,
        "GatewayPageURL": page,
        "storeBanner": "",
        "storeLogo": "",
        "desc": [],
        "is_direct_pay_enable": "0",
    }))
    .into_response()
}

/// A session's amount as the APIs report it (one taka less when tampered).
fn reported_amount(s: &Session, tamper: bool) -> String {
    let amount = taka(&s.amount).unwrap_or(0.0);
    format!("{:.2}", if tamper { amount - 1.0 } else { amount })
}

/// A transaction record as the validation and query APIs describe it.
fn describe(s: &Session, status: &str, tamper: bool) -> Value {
    let amount = reported_amount(s, tamper);
    json!({
        "status": status,
        "tran_date": s.tran_date,
        "tran_id": s.tran_id,
        "val_id": s.val_id,
        "amount": amount,
        "store_amount": amount,
        "currency": s.currency,
        "bank_tran_id": s.bank_tran_id,
        "card_type": "VISA-Dutch Bangla",
        "card_no": "418117XXXXXX6675",
        "card_issuer": "Simulated Bank",
        "card_brand": "VISA",
        "card_issuer_country": "Bangladesh",
        "card_issuer_country_code": "BD",
        "currency_type": s.currency,
        "currency_amount": amount,
        "currency_rate": "1.0000",
        "base_fair": "0.00",
        "value_a": s.values[0],
        "value_b": s.values[1],
        "value_c": s.values[2],
        "value_d": s.values[3],
        "risk_level": "0",
        "risk_title": "Safe",
        "APIConnect": "DONE",
    })
}

/// `GET /validator/api/validationserverAPI.php?val_id=&store_id=&store_passwd=`.
async fn validation(
    State(sim): State<Shared>,
    Query(fields): Query<HashMap<String, String>>,
) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    if !sim.store_ok(&fields) {
        return Json(json!({ "status": "INVALID_TRANSACTION", "APIConnect": "INVALID_REQUEST" }))
            .into_response();
    }
    inner.report.validations += 1;
    let tamper = inner.faults.tamper_amount;
    let val_id = field(&fields, "val_id");
    let found = inner
        .sessions
        .values_mut()
        .find(|s| !val_id.is_empty() && s.val_id == val_id && s.stage == Stage::Paid);
    match found {
        Some(s) => {
            s.validated += 1;
            let status = if s.validated == 1 {
                "VALID"
            } else {
                "VALIDATED"
            };
            Json(describe(s, status, tamper)).into_response()
        }
        None => {
            Json(json!({ "status": "INVALID_TRANSACTION", "APIConnect": "DONE" })).into_response()
        }
    }
}

/// `GET /validator/api/merchantTransIDvalidationAPI.php`: the transaction
/// query, a refund, or a refund's status.
async fn transactions(
    State(sim): State<Shared>,
    Query(fields): Query<HashMap<String, String>>,
) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    if !sim.store_ok(&fields) {
        return Json(json!({ "APIConnect": "INVALID_REQUEST", "status": "failed",
            "errorReason": "Store Credential Error" }))
        .into_response();
    }
    if fields.contains_key("refund_amount") {
        return refund(&sim, &mut inner, &fields);
    }
    if let Some(reference) = fields.get("refund_ref_id") {
        inner.report.refund_queries += 1;
        let hold = inner.faults.refund_processing;
        if let Some(refund) = inner.refunds.get_mut(reference) {
            refund.2 = refund.2 && hold;
        }
        return match inner.refunds.get(reference) {
            Some((bank_tran_id, _, processing)) => {
                let status = if *processing {
                    "processing"
                } else {
                    "refunded"
                };
                let tran_id = inner
                    .sessions
                    .values()
                    .find(|s| &s.bank_tran_id == bank_tran_id)
                    .map(|s| s.tran_id.clone())
                    .unwrap_or_default();
                Json(json!({
                    "APIConnect": "DONE",
                    "bank_tran_id": bank_tran_id,
                    "tran_id": tran_id,
                    "refund_ref_id": reference,
                    "initiated_on": unix_now_text(),
                    "refunded_on": if *processing { String::new() } else { unix_now_text() },
                    "status": status,
                    "errorReason": "",
                }))
                .into_response()
            }
            None => Json(json!({ "APIConnect": "DONE", "status": "failed",
                "errorReason": "Invalid refund_ref_id" }))
            .into_response(),
        };
    }
    inner.report.queries += 1;
    let tamper = inner.faults.tamper_amount;
    let tran_id = field(&fields, "tran_id");
    let element: Vec<Value> = inner
        .sessions
        .values()
        .filter(|s| !tran_id.is_empty() && s.tran_id == tran_id)
        .map(|s| {
            let status = match s.stage {
                Stage::Pending => "PENDING",
                Stage::Paid if s.validated > 0 => "VALIDATED",
                Stage::Paid => "VALID",
                Stage::Failed => "FAILED",
                Stage::Cancelled => "CANCELLED",
            };
            describe(s, status, tamper)
        })
        .collect();
    Json(json!({
        "APIConnect": "DONE",
        "no_of_trans_found": element.len(),
        "element": element,
    }))
    .into_response()
}

/// A refund of a paid transaction named by its `bank_tran_id`.
fn refund(sim: &Sim, inner: &mut Inner, fields: &HashMap<String, String>) -> Response {
    let bank_tran_id = field(fields, "bank_tran_id");
    let failed = |reason: &str| {
        Json(
            json!({ "APIConnect": "DONE", "bank_tran_id": bank_tran_id, "status": "failed",
            "errorReason": reason }),
        )
        .into_response()
    };
    let Some(asked) = taka(field(fields, "refund_amount")) else {
        return failed("Invalid refund_amount");
    };
    let reference = sim.id("SIMREFUND");
    let Some(s) = inner
        .sessions
        .values_mut()
        .find(|s| !bank_tran_id.is_empty() && s.bank_tran_id == bank_tran_id)
    else {
        return failed("Invalid bank_tran_id");
    };
    if s.stage != Stage::Paid {
        return failed("The transaction is not paid");
    }
    if s.refunded + asked > taka(&s.amount).unwrap_or(0.0) + 1e-9 {
        return failed("Refund amount exceeds the amount left to refund");
    }
    s.refunded += asked;
    let trans_id = s.tran_id.clone();
    inner.report.refunds += 1;
    let processing = inner.faults.refund_processing;
    inner.refunds.insert(
        reference.clone(),
        (bank_tran_id.to_string(), format!("{asked:.2}"), processing),
    );
    if inner.faults.refund_answer_lost {
        return (
            StatusCode::GATEWAY_TIMEOUT,
            "Gateway Timeout (simulated: the refund was taken)",
        )
            .into_response();
    }
    Json(json!({
        "APIConnect": "DONE",
        "bank_tran_id": bank_tran_id,
        "trans_id": trans_id,
        "refund_ref_id": reference,
        "status": if processing { "processing" } else { "success" },
        "errorReason": "",
    }))
    .into_response()
}

/// The hosted pages' look.
const BRAND: Brand = Brand {
    label: "Simulated card payment — no real money",
    note: " (SSLCommerz)",
    colour: "#1d4e89",
};

fn html_page(title: &str, body: &str) -> Response {
    hosted_page(&BRAND, title, body)
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        html_page("Unknown payment", "<p>No such payment.</p>"),
    )
        .into_response()
}

#[derive(Deserialize)]
struct PageQuery {
    #[serde(default)]
    sessionkey: String,
}

/// The hosted payment page.
async fn page(State(sim): State<Shared>, Query(q): Query<PageQuery>) -> Response {
    let inner = sim.lock();
    let Some(s) = inner.sessions.get(&q.sessionkey) else {
        return not_found();
    };
    if s.stage != Stage::Pending {
        return html_page(
            "Payment already handled",
            "<p>This payment is no longer waiting.</p>",
        );
    }
    let key = escape(&q.sessionkey);
    let body = format!(
        "<p>Store: <strong>{}</strong></p><p>Transaction: {}</p>\
         <p>Amount: <strong id=\"amount\">৳ {}</strong> {}</p>\
         <p><a class=\"button\" id=\"approve\" href=\"/sim/sslcommerz/pay/{key}/approve\">Pay (card accepted)</a>\
         <a class=\"button\" id=\"decline\" href=\"/sim/sslcommerz/pay/{key}/decline\">Decline</a>\
         <a class=\"button\" id=\"cancel\" href=\"/sim/sslcommerz/pay/{key}/cancel\">Cancel</a></p>",
        escape(MERCHANT),
        escape(&s.tran_id),
        escape(&s.amount),
        escape(&s.currency),
    );
    html_page("Pay by card", &body)
}

/// What the gateway posts back for a session (browser return and IPN),
/// signed with `verify_key` and `verify_sign`.
fn posted_fields(s: &Session, status: &str, store_password: &str) -> BTreeMap<String, String> {
    let mut fields = BTreeMap::new();
    let mut put = |k: &str, v: &str| {
        fields.insert(k.to_string(), v.to_string());
    };
    put("status", status);
    put("tran_id", &s.tran_id);
    put("tran_date", &s.tran_date);
    put("amount", &s.amount);
    put("currency", &s.currency);
    put("value_a", &s.values[0]);
    put("value_b", &s.values[1]);
    put("value_c", &s.values[2]);
    put("value_d", &s.values[3]);
    if status == "VALID" {
        put("val_id", &s.val_id);
        put("bank_tran_id", &s.bank_tran_id);
        put("store_amount", &s.amount);
        put("card_type", "VISA-Dutch Bangla");
        put("card_no", "418117XXXXXX6675");
        put("card_issuer", "Simulated Bank");
        put("card_brand", "VISA");
        put("currency_type", &s.currency);
        put("currency_amount", &s.amount);
        put("risk_level", "0");
        put("risk_title", "Safe");
    } else {
        put("error", "Simulated: the shopper did not pay");
    }
    let keys: Vec<String> = fields.keys().cloned().collect();
    let verify_key = keys.join(",");
    let sign = verify_sign(&fields, &keys, store_password);
    fields.insert("verify_key".into(), verify_key);
    fields.insert("verify_sign".into(), sign);
    fields
}

/// SSLCommerz's `verify_sign`: the MD5 (hex) of `key=value&...`, sorted by
/// key, over `keys` of `fields` plus `store_passwd` = MD5(store password).
pub fn verify_sign(
    fields: &BTreeMap<String, String>,
    keys: &[String],
    store_password: &str,
) -> String {
    let mut signed: BTreeMap<&str, String> = keys
        .iter()
        .map(|k| (k.as_str(), fields.get(k).cloned().unwrap_or_default()))
        .collect();
    signed.insert("store_passwd", md5_hex(store_password.as_bytes()));
    let text = signed
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    md5_hex(text.as_bytes())
}

/// The shopper's choice on the hosted page: a page whose form posts the
/// browser back to the shop; the IPN goes to the shop server to server.
async fn act(State(sim): State<Shared>, Path((key, action)): Path<(String, String)>) -> Response {
    let (lose, fields, back, ipn_url) = {
        let mut inner = sim.lock();
        let lose = inner.faults.lose_callback;
        let val_id = sim.id("SIMVAL");
        let bank_tran_id = sim.id("SIMBANK");
        let Some(s) = inner.sessions.get_mut(&key) else {
            return not_found();
        };
        if s.stage != Stage::Pending {
            return html_page(
                "Payment already handled",
                "<p>This payment is no longer waiting.</p>",
            );
        }
        s.tran_date = unix_now_text();
        let (status, back) = match action.as_str() {
            "approve" => {
                s.stage = Stage::Paid;
                s.val_id = val_id;
                s.bank_tran_id = bank_tran_id;
                ("VALID", s.success_url.clone())
            }
            "decline" => {
                s.stage = Stage::Failed;
                ("FAILED", s.fail_url.clone())
            }
            "cancel" => {
                s.stage = Stage::Cancelled;
                ("CANCELLED", s.cancel_url.clone())
            }
            _ => return not_found(),
        };
        let fields = posted_fields(s, status, &sim.store_password);
        let ipn_url = s.ipn_url.clone();
        inner.report.last_ipn = fields.clone();
        (lose, fields, back, ipn_url)
    };
    if !ipn_url.is_empty() {
        let sim = Arc::clone(&sim);
        let ipn = fields.clone();
        tokio::spawn(async move {
            let sent = post_form(&ipn_url, &ipn).await;
            let mut inner = sim.lock();
            if sent {
                inner.report.ipns_sent += 1;
            } else {
                inner.report.ipns_failed += 1;
            }
        });
    }
    if lose {
        return html_page(
            "Payment handled",
            "<p>The payment was handled, but the browser was not sent back to the \
             store (simulated lost return). The store is told by IPN.</p>",
        );
    }
    let inputs: String = fields
        .iter()
        .map(|(k, v)| {
            format!(
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                escape(k),
                escape(v)
            )
        })
        .collect();
    let body = format!(
        "<form id=\"back\" method=\"post\" action=\"{}\">{inputs}\
         <button type=\"submit\" id=\"continue\">Back to the store</button></form>\
         <script>document.getElementById('back').submit()</script>",
        escape(&back)
    );
    html_page("Returning to the store", &body)
}

/// Posts `fields` as a form to an `http://` URL (the IPN); true when an
/// HTTP answer came back. `https://` is not spoken by the simulator.
async fn post_form(url: &str, fields: &BTreeMap<String, String>) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let body = fields
        .iter()
        .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
        .collect::<Vec<_>>()
        .join("&");
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let exchange = async {
        let mut stream = tokio::net::TcpStream::connect(authority).await.ok()?;
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).await.ok()?;
        Some(head.starts_with(b"HTTP/1."))
    };
    tokio::time::timeout(Duration::from_secs(10), exchange)
        .await
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// `application/x-www-form-urlencoded` encoding of one name or value.
fn form_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
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

/// MD5 (RFC 1321) as lower-case hex: SSLCommerz signs with it.
pub fn md5_hex(data: &[u8]) -> String {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32)
        .collect();
    let mut message = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&bits.to_le_bytes());
    let mut state: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    for chunk in message.chunks(64) {
        let m: Vec<u32> = chunk
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let [mut a, mut b, mut c, mut d] = state;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let rotated = a
                .wrapping_add(f)
                .wrapping_add(k[i])
                .wrapping_add(m[g])
                .rotate_left(S[i]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(rotated);
        }
        state = [
            state[0].wrapping_add(a),
            state[1].wrapping_add(b),
            state[2].wrapping_add(c),
            state[3].wrapping_add(d),
        ];
    }
    state
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md5_matches_rfc_1321() {
        assert_eq!(md5_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(md5_hex(b"abc"), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            md5_hex(
                b"12345678901234567890123456789012345678901234567890123456789012345678901234567890"
            ),
            "57edf4a22be3c955ac49da2e2107b67a"
        );
    }

    #[test]
    fn verify_sign_follows_the_documented_recipe() {
        let mut fields = BTreeMap::new();
        fields.insert("tran_id".to_string(), "T1".to_string());
        fields.insert("amount".to_string(), "100.00".to_string());
        let keys = vec!["tran_id".to_string(), "amount".to_string()];
        let expected =
            md5_hex(format!("amount=100.00&store_passwd={}&tran_id=T1", md5_hex(b"pw")).as_bytes());
        assert_eq!(verify_sign(&fields, &keys, "pw"), expected);
    }
}
