//! A simulated Nagad online checkout (merchant API v-0.2.0). No real money
//! moves: the hosted page says so.
//!
//! The API, at the server's root (so `NAGAD_BASE_URL` is `http://host:port`,
//! where the real one is `.../remote-payment-gateway-1.0`):
//! - `POST /api/dfs/check-out/initialize/{merchantId}/{orderId}` with
//!   `accountNumber`, `dateTime`, `sensitiveData` and `signature`.
//!   `sensitiveData` is the JSON `{merchantId, datetime, orderId, challenge}`
//!   encrypted to Nagad's public key (RSA PKCS#1 v1.5, base64); `signature`
//!   is SHA256withRSA over that same JSON by the merchant's private key
//!   (base64). The answer is `{sensitiveData, signature}`: the JSON
//!   `{paymentReferenceId, challenge, acceptDateTime}` encrypted to the
//!   merchant's public key and signed by Nagad's key. The challenge answered
//!   is Nagad's own; complete must carry it back;
//! - `POST /api/dfs/check-out/complete/{paymentReferenceId}` with
//!   `sensitiveData` (`{merchantId, orderId, currencyCode: "050", amount,
//!   challenge}`, sealed and signed the same way), `merchantCallbackURL` and
//!   `additionalMerchantInfo`; answers `{status: "Success", callBackUrl}`, the
//!   hosted page. A reference completes once;
//! - `GET /api/dfs/verify/payment/{paymentReferenceId}`: the payment in
//!   plain JSON (`status` `Success`, `Failed`, `Aborted`, or `Ready` while
//!   the shopper has not decided; `amount`, `orderId`, `issuerPaymentRefNo`).
//!
//! Requests without the `X-KM-Api-Version`, `X-KM-IP-V4` and
//! `X-KM-Client-Type` headers, for another merchant, or whose sensitive data
//! does not decrypt or whose signature does not verify with the merchant's
//! key are refused as Nagad refuses: HTTP 400 with `{reason, message}`.
//!
//! The hosted page `GET /sim/nagad/checkout/{paymentReferenceId}` offers
//! approve, decline and cancel; each sends the browser (303) to the
//! `merchantCallbackURL` with `merchant`, `order_id`, `payment_ref_id`,
//! `status` (`Success`, `Failed`, `Aborted`), `status_code`, `message`,
//! `payment_dt` and `issuer_payment_ref`.
//!
//! Keys: [`Keys::generate`] makes Nagad's pair and the merchant's pair (RSA
//! 2048); [`keys`] are the ones of this process, made at first use. Nothing
//! real is ever in them.
//!
//! Faults, set with `POST /sim/nagad/admin` (JSON [`Faults`]) and read back
//! with the counters from `GET /sim/nagad/admin` ([`Report`]): every API down
//! (503), the callback lost, the initialize answer signed by another key
//! (forged) or not signed at all, and verify reporting one taka less than
//! was completed.

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use rsa::pkcs1v15::{Signature, SigningKey, VerifyingKey};
use rsa::pkcs8::{EncodePrivateKey, EncodePublicKey, LineEnding};
use rsa::signature::{SignatureEncoding, Signer, Verifier};
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey, RsaPublicKey};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::common::{escape, hosted_page, text, unique_id, Brand};
use sha2::Sha256;

/// The merchant id the simulator knows.
pub const MERCHANT_ID: &str = "683000000000001";
/// The merchant's wallet number (`accountNumber`).
pub const MERCHANT_NUMBER: &str = "01700000001";
/// The merchant's name on the hosted page.
pub const MERCHANT: &str = "Furniture shop (simulated merchant)";

/// Nagad's key pair and the merchant's, made for one run.
pub struct Keys {
    /// Nagad's payment-gateway key: it decrypts what merchants seal and
    /// signs Nagad's answers.
    pub pg: RsaPrivateKey,
    /// The merchant's key: it signs requests; answers are sealed to it.
    pub merchant: RsaPrivateKey,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys(..)")
    }
}

impl Keys {
    /// Two new RSA 2048 key pairs.
    pub fn generate() -> Keys {
        let mut rng = rand::thread_rng();
        let pg = RsaPrivateKey::new(&mut rng, 2048).expect("an RSA key");
        let merchant = RsaPrivateKey::new(&mut rng, 2048).expect("an RSA key");
        Keys { pg, merchant }
    }

    /// Nagad's public key as the shop is given it (`NAGAD_PG_PUBLIC_KEY`):
    /// PEM, SubjectPublicKeyInfo.
    pub fn pg_public_pem(&self) -> String {
        RsaPublicKey::from(&self.pg)
            .to_public_key_pem(LineEnding::LF)
            .expect("PEM")
    }

    /// The merchant's private key as the shop is given it
    /// (`NAGAD_MERCHANT_PRIVATE_KEY`): PEM, PKCS#8.
    pub fn merchant_private_pem(&self) -> String {
        self.merchant
            .to_pkcs8_pem(LineEnding::LF)
            .expect("PEM")
            .to_string()
    }
}

/// This process's keys, made at first use.
pub fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(Keys::generate)
}

/// Encrypts `plain` to `to` (PKCS#1 v1.5), base64.
pub fn seal(to: &RsaPublicKey, plain: &[u8]) -> String {
    let sealed = to
        .encrypt(&mut rand::thread_rng(), Pkcs1v15Encrypt, plain)
        .expect("short enough to encrypt");
    BASE64.encode(sealed)
}

/// SHA256withRSA over `plain` by `by`, base64.
pub fn sign(by: &RsaPrivateKey, plain: &[u8]) -> String {
    let signature = SigningKey::<Sha256>::new(by.clone()).sign(plain);
    BASE64.encode(signature.to_bytes())
}

/// Decrypts base64 `sealed` with `key`.
fn unseal(key: &RsaPrivateKey, sealed: &str) -> Option<Vec<u8>> {
    let bytes = BASE64.decode(sealed.trim()).ok()?;
    key.decrypt(Pkcs1v15Encrypt, &bytes).ok()
}

/// Whether base64 `signature` is `by`'s over `plain`.
fn signed(by: &RsaPublicKey, plain: &[u8], signature: &str) -> bool {
    let Ok(bytes) = BASE64.decode(signature.trim()) else {
        return false;
    };
    let Ok(signature) = Signature::try_from(bytes.as_slice()) else {
        return false;
    };
    VerifyingKey::<Sha256>::new(by.clone())
        .verify(plain, &signature)
        .is_ok()
}

/// The ways the simulator fails on purpose.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Faults {
    /// Every API answers 503.
    pub down: bool,
    /// The hosted page sends nobody back after approval.
    pub lose_callback: bool,
    /// Initialize's answer is signed by a key that is not Nagad's.
    pub forge_signature: bool,
    /// Initialize's answer carries no signature.
    pub unsigned_answer: bool,
    /// Verify reports one taka less than was completed.
    pub tamper_amount: bool,
}

/// What the simulator was asked, and its faults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub initializes: u64,
    pub completes: u64,
    pub verifies: u64,
    /// Requests refused (bad headers, merchant, encryption or signature,
    /// a second complete, ...).
    pub refused: u64,
    /// The `X-KM-IP-V4` of every initialize and complete, in order: the
    /// shopper's address as the merchant named it.
    pub client_ips: Vec<String>,
    pub faults: Faults,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Initialized; complete not called yet.
    Initialized,
    /// Completed; waiting for the shopper.
    Ready,
    Success,
    Failed,
    Aborted,
}

impl Stage {
    fn status(self) -> &'static str {
        match self {
            Stage::Initialized => "Initiated",
            Stage::Ready => "Ready",
            Stage::Success => "Success",
            Stage::Failed => "Failed",
            Stage::Aborted => "Aborted",
        }
    }
}

#[derive(Debug, Clone)]
struct Payment {
    order_id: String,
    /// Nagad's challenge, which complete must carry back.
    challenge: String,
    amount: String,
    callback_url: String,
    additional: Value,
    created: String,
    stage: Stage,
    issuer_ref: Option<String>,
    paid_at: Option<String>,
}

#[derive(Debug, Default)]
struct Inner {
    faults: Faults,
    report: Report,
    payments: HashMap<String, Payment>,
}

struct Sim {
    keys: &'static Keys,
    inner: Mutex<Inner>,
    counter: AtomicU64,
}

type Shared = Arc<Sim>;

impl Sim {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn id(&self) -> String {
        unique_id(&self.counter, "")
    }
}

/// The simulator's routes, with `keys`.
pub fn router(keys: &'static Keys) -> Router {
    let sim: Shared = Arc::new(Sim {
        keys,
        inner: Mutex::default(),
        counter: AtomicU64::new(1),
    });
    Router::new()
        .route(
            "/api/dfs/check-out/initialize/{merchant_id}/{order_id}",
            post(initialize),
        )
        .route("/api/dfs/check-out/complete/{reference}", post(complete))
        .route("/api/dfs/verify/payment/{reference}", get(verify))
        .route("/sim/nagad/checkout/{reference}", get(page))
        .route("/sim/nagad/checkout/{reference}/{action}", get(act))
        .route("/sim/nagad/admin", get(report).post(set_faults))
        .with_state(sim)
}

/// A refusal as Nagad words one.
fn refuse(inner: &mut Inner, reason: &str, message: &str) -> Response {
    inner.report.refused += 1;
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "reason": reason, "message": message })),
    )
        .into_response()
}

fn down() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(
            json!({ "reason": "ServiceUnavailable", "message": "Service Unavailable (simulated)" }),
        ),
    )
        .into_response()
}

/// Nagad's clock format, Dhaka time (UTC+6).
fn now_text() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
        + 6 * 3600;
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Why a request is refused: Nagad's `reason` and `message`.
type Refusal = (&'static str, String);

/// Checks the headers every merchant call carries.
fn check_headers(headers: &HeaderMap) -> Result<(), Refusal> {
    for name in ["x-km-api-version", "x-km-ip-v4", "x-km-client-type"] {
        let present = headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| !v.trim().is_empty());
        if !present {
            return Err((
                "InvalidRequestHeader",
                format!("Missing request header {name}"),
            ));
        }
    }
    Ok(())
}

/// Opens a merchant's `sensitiveData` and checks its `signature`: the
/// plaintext JSON.
fn open_request(sim: &Sim, body: &Value) -> Result<Value, Refusal> {
    let Some(plain) = unseal(&sim.keys.pg, &text(body, "sensitiveData")) else {
        return Err((
            "InvalidSensitiveData",
            "Sensitive data could not be decrypted".into(),
        ));
    };
    let signature = text(body, "signature");
    if signature.is_empty() {
        return Err(("InvalidSignature", "Signature is missing".into()));
    }
    let merchant = RsaPublicKey::from(&sim.keys.merchant);
    if !signed(&merchant, &plain, &signature) {
        return Err(("InvalidSignature", "Signature verification failed".into()));
    }
    match serde_json::from_slice::<Value>(&plain) {
        Ok(value) if value.is_object() => Ok(value),
        _ => Err(("InvalidSensitiveData", "Sensitive data is not JSON".into())),
    }
}

/// The `X-KM-IP-V4` a call carries (empty when none).
fn client_ip(headers: &HeaderMap) -> String {
    headers
        .get("x-km-ip-v4")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// A merchant call's headers and sealed, signed data: the plaintext JSON.
fn merchant_call(sim: &Sim, headers: &HeaderMap, body: &Value) -> Result<Value, Refusal> {
    check_headers(headers).and_then(|()| open_request(sim, body))
}

async fn initialize(
    State(sim): State<Shared>,
    Path((merchant_id, order_id)): Path<(String, String)>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    inner.report.initializes += 1;
    inner.report.client_ips.push(client_ip(&headers));
    if merchant_id != MERCHANT_ID {
        return refuse(&mut inner, "InvalidMerchant", "Invalid merchant id");
    }
    let plain = match merchant_call(&sim, &headers, &body) {
        Ok(plain) => plain,
        Err((reason, message)) => return refuse(&mut inner, reason, &message),
    };
    let datetime = text(&plain, "datetime");
    let challenge = text(&plain, "challenge");
    if text(&plain, "merchantId") != merchant_id || text(&plain, "orderId") != order_id {
        return refuse(
            &mut inner,
            "InvalidSensitiveData",
            "Sensitive data does not match the request",
        );
    }
    if datetime.len() != 14 || !datetime.bytes().all(|b| b.is_ascii_digit()) {
        return refuse(&mut inner, "InvalidDateTime", "Invalid date time");
    }
    if challenge.is_empty() || challenge.len() > 64 {
        return refuse(&mut inner, "InvalidChallenge", "Invalid challenge");
    }
    if order_id.is_empty()
        || order_id.len() > 40
        || !order_id.bytes().all(|b| b.is_ascii_alphanumeric())
    {
        return refuse(&mut inner, "InvalidOrderId", "Invalid order id");
    }
    if inner.payments.values().any(|p| p.order_id == order_id) {
        return refuse(&mut inner, "DuplicateOrderId", "Order id already used");
    }
    let id = sim.id();
    let reference = format!("MDSIM{id}");
    let nagad_challenge = format!("SIMCH{id}{}", rand::random::<u32>());
    let answer = json!({
        "paymentReferenceId": reference,
        "challenge": nagad_challenge,
        "acceptDateTime": now_text(),
    })
    .to_string();
    let merchant = RsaPublicKey::from(&sim.keys.merchant);
    let signature = if inner.faults.unsigned_answer {
        String::new()
    } else if inner.faults.forge_signature {
        // An impostor: signed, but not by Nagad's key.
        sign(&sim.keys.merchant, answer.as_bytes())
    } else {
        sign(&sim.keys.pg, answer.as_bytes())
    };
    inner.payments.insert(
        reference,
        Payment {
            order_id,
            challenge: nagad_challenge,
            amount: String::new(),
            callback_url: String::new(),
            additional: Value::Null,
            created: now_text(),
            stage: Stage::Initialized,
            issuer_ref: None,
            paid_at: None,
        },
    );
    Json(json!({
        "sensitiveData": seal(&merchant, answer.as_bytes()),
        "signature": signature,
    }))
    .into_response()
}

/// A positive amount with at most two decimals.
fn valid_amount(amount: &str) -> bool {
    let (whole, fraction) = amount.split_once('.').unwrap_or((amount, ""));
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.len() <= 2
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && amount.parse::<f64>().is_ok_and(|a| a > 0.0)
}

async fn complete(
    State(sim): State<Shared>,
    Path(reference): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    inner.report.completes += 1;
    inner.report.client_ips.push(client_ip(&headers));
    let plain = match merchant_call(&sim, &headers, &body) {
        Ok(plain) => plain,
        Err((reason, message)) => return refuse(&mut inner, reason, &message),
    };
    let Some(payment) = inner.payments.get(&reference).cloned() else {
        return refuse(
            &mut inner,
            "InvalidPaymentRefId",
            "Invalid payment reference id",
        );
    };
    if payment.stage != Stage::Initialized {
        return refuse(
            &mut inner,
            "PaymentAlreadyCompleted",
            "This payment request is already completed",
        );
    }
    let amount = text(&plain, "amount");
    let callback_url = text(&body, "merchantCallbackURL");
    if text(&plain, "merchantId") != MERCHANT_ID || text(&plain, "orderId") != payment.order_id {
        return refuse(
            &mut inner,
            "InvalidSensitiveData",
            "Sensitive data does not match the payment",
        );
    }
    if text(&plain, "challenge") != payment.challenge {
        return refuse(&mut inner, "InvalidChallenge", "Challenge mismatch");
    }
    if text(&plain, "currencyCode") != "050" {
        return refuse(&mut inner, "InvalidCurrency", "Invalid currency code");
    }
    if !valid_amount(&amount) {
        return refuse(&mut inner, "InvalidAmount", "Invalid amount");
    }
    if !(callback_url.starts_with("http://") || callback_url.starts_with("https://")) {
        return refuse(
            &mut inner,
            "InvalidCallbackUrl",
            "Invalid merchant callback URL",
        );
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if let Some(p) = inner.payments.get_mut(&reference) {
        p.amount = amount;
        p.callback_url = callback_url;
        p.additional = body
            .get("additionalMerchantInfo")
            .cloned()
            .unwrap_or(Value::Null);
        p.stage = Stage::Ready;
    }
    Json(json!({
        "status": "Success",
        "callBackUrl": format!("http://{host}/sim/nagad/checkout/{reference}"),
    }))
    .into_response()
}

async fn verify(State(sim): State<Shared>, Path(reference): Path<String>) -> Response {
    let mut inner = sim.lock();
    if inner.faults.down {
        return down();
    }
    inner.report.verifies += 1;
    let tamper = inner.faults.tamper_amount;
    let Some(p) = inner.payments.get(&reference).cloned() else {
        return refuse(
            &mut inner,
            "InvalidPaymentRefId",
            "Invalid payment reference id",
        );
    };
    let amount = if tamper && p.stage == Stage::Success {
        let less = p.amount.parse::<f64>().unwrap_or(0.0) - 1.0;
        format!("{less:.2}")
    } else {
        p.amount.clone()
    };
    let (status_code, issuer_date) = match p.stage {
        Stage::Success => ("000", p.paid_at.clone().unwrap_or_default()),
        Stage::Failed => ("001", String::new()),
        Stage::Aborted => ("002", String::new()),
        Stage::Initialized | Stage::Ready => ("", String::new()),
    };
    Json(json!({
        "merchantId": MERCHANT_ID,
        "orderId": p.order_id,
        "paymentRefId": reference,
        "amount": amount,
        "clientMobileNo": if p.stage == Stage::Success { "017****0999" } else { "" },
        "merchantMobileNo": MERCHANT_NUMBER,
        "orderDateTime": p.created,
        "issuerPaymentDateTime": issuer_date,
        "issuerPaymentRefNo": p.issuer_ref.clone().unwrap_or_default(),
        "additionalMerchantInfo": p.additional,
        "status": p.stage.status(),
        "statusCode": status_code,
        "cancelIssuerDateTime": null,
        "cancelIssuerRefNo": null,
    }))
    .into_response()
}

/// The hosted pages' look.
const BRAND: Brand = Brand {
    label: "Simulated Nagad — no real money",
    note: "",
    colour: "#ec1c24",
};

fn html_page(title: &str, body: &str) -> Response {
    hosted_page(&BRAND, title, body)
}

fn not_found(title: &str, text: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        html_page(title, &format!("<p>{text}</p>")),
    )
        .into_response()
}

fn handled() -> Response {
    html_page(
        "Payment already handled",
        "<p>This payment is no longer waiting for approval.</p>",
    )
}

/// The hosted approval page.
async fn page(State(sim): State<Shared>, Path(reference): Path<String>) -> Response {
    let inner = sim.lock();
    let Some(p) = inner.payments.get(&reference) else {
        return not_found("Unknown payment", "No such payment.");
    };
    if p.stage != Stage::Ready {
        return handled();
    }
    let id = escape(&reference);
    let body = format!(
        "<p>Merchant: <strong>{}</strong></p><p>Order: {}</p>\
         <p>Amount: <strong id=\"amount\">৳ {}</strong> BDT</p>\
         <p><a class=\"button\" id=\"approve\" href=\"/sim/nagad/checkout/{id}/approve\">Approve (OTP and PIN accepted)</a>\
         <a class=\"button\" id=\"decline\" href=\"/sim/nagad/checkout/{id}/decline\">Decline</a>\
         <a class=\"button\" id=\"cancel\" href=\"/sim/nagad/checkout/{id}/cancel\">Cancel</a></p>",
        escape(MERCHANT),
        escape(&p.order_id),
        escape(&p.amount),
    );
    html_page("Pay with Nagad", &body)
}

/// The shopper's choice on the hosted page: back to the merchant (303).
async fn act(
    State(sim): State<Shared>,
    Path((reference, action)): Path<(String, String)>,
) -> Response {
    let mut inner = sim.lock();
    let lose = inner.faults.lose_callback;
    let issuer_ref = format!("SIMISS{}", sim.id());
    let Some(p) = inner.payments.get_mut(&reference) else {
        return not_found("Unknown payment", "No such payment.");
    };
    if p.stage != Stage::Ready {
        return handled();
    }
    let (stage, code, message) = match action.as_str() {
        "approve" => (Stage::Success, "00_0000_000", "Successful Transaction"),
        "decline" => (Stage::Failed, "00_1000_001", "Transaction Failed"),
        "cancel" => (
            Stage::Aborted,
            "00_1000_002",
            "Transaction Aborted by Customer",
        ),
        _ => return not_found("Unknown action", "Approve, decline or cancel."),
    };
    p.stage = stage;
    if stage == Stage::Success {
        p.issuer_ref = Some(issuer_ref);
        p.paid_at = Some(now_text());
    }
    if lose && stage == Stage::Success {
        return html_page(
            "Approved",
            "<p>The payment was approved, but the merchant was not told \
             (simulated lost callback).</p>",
        );
    }
    let pairs = [
        ("merchant", MERCHANT_ID.to_string()),
        ("order_id", p.order_id.clone()),
        ("payment_ref_id", reference.clone()),
        ("status", stage.status().to_string()),
        ("status_code", code.to_string()),
        ("message", message.to_string()),
        ("payment_dt", p.paid_at.clone().unwrap_or_else(now_text)),
        (
            "issuer_payment_ref",
            p.issuer_ref.clone().unwrap_or_default(),
        ),
    ];
    let query: String = pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", percent(v)))
        .collect::<Vec<_>>()
        .join("&");
    let joiner = if p.callback_url.contains('?') {
        '&'
    } else {
        '?'
    };
    Redirect::to(&format!("{}{joiner}{query}", p.callback_url)).into_response()
}

/// Percent-encodes a query value.
fn percent(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_and_signed_data_opens_only_with_the_right_keys() {
        let keys = keys();
        let plain = br#"{"merchantId":"1","challenge":"c"}"#;
        let sealed = seal(&RsaPublicKey::from(&keys.pg), plain);
        assert_eq!(unseal(&keys.pg, &sealed).as_deref(), Some(&plain[..]));
        assert_eq!(unseal(&keys.merchant, &sealed), None);
        let signature = sign(&keys.merchant, plain);
        let merchant = RsaPublicKey::from(&keys.merchant);
        assert!(signed(&merchant, plain, &signature));
        assert!(!signed(&merchant, b"{}", &signature));
        assert!(!signed(&RsaPublicKey::from(&keys.pg), plain, &signature));
        assert!(!signed(&merchant, plain, "not base64"));
    }

    #[test]
    fn the_clock_is_nagads_format() {
        let now = now_text();
        assert_eq!(now.len(), 14, "{now}");
        assert!(now.starts_with("20"), "{now}");
    }
}
