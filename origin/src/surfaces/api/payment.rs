//! Online payment routes, with the original's paths (ORIGINAL-API.md §10);
//! [`crate::domain::payments`] does the work.
//!
//! Card (SSLCommerz), outside `/api` as in the original:
//! - `POST /sslcommerz/pay-via-ajax?self_token=` places the cart (chosen
//!   method `debitcredit` or `mobilebanking`) and answers
//!   `{status: "success", data: <hosted page>}`; optional body fields
//!   `emi_option` and `emi_max_inst_option` ask for card instalments;
//! - `POST /sslcommerz/existing-order-pay?order_id=` pays what is left of the
//!   caller's own order;
//! - `POST /sslcommerz/{success,fail,cancel}`: the shopper's browser coming
//!   back (a form post). The server asks the gateway and sends the browser on
//!   (303) to `/redirect-from-ssl?order_random&order_key&from=ssl` when paid,
//!   else to `/fail?reason=<code>&data=<words>` (`reason`: a
//!   [`FailReason`] code, which the web's fail page words; `data`: the
//!   original's message);
//! - `POST /sslcommerz/ipn`: the gateway's own notification, answered in JSON;
//!   one without SSLCommerz's signature (`verify_sign`) is refused (403)
//!   before the gateway is asked anything.
//!
//! Wallet (Nagad), under `/api/nagad`: `GET pay-via-ajax?token=` answers
//! `{url}`; `GET receive-nagad-data?payment_ref_id=` is the return, sent on to
//! `/nagad-thank-you?order_random&order_key` or `/fail`.
//!
//! bKash (Tokenized Checkout), under `/api/bkash`: `POST create` with
//! `{token}` answers `{bkashURL}`; `GET callback?paymentID=&status=` is the
//! return: the server executes the payment (or queries it) and sends the
//! browser on to `/thank-you?order_random&order_key` or `/fail`.
//!
//! A gateway that is not configured answers 503 "This payment method is not
//! available"; one that cannot be reached, 503 with what to do.
//!
//! Every answer is typed for the OpenAPI document: the JSON ones by their
//! `…Response` structs, the browser returns as 303 redirects (a `Location`,
//! no body), every 503 with its reason. The input is read into types too
//! (`GuestToken` for the query's token, `GatewayPost` for the card
//! gateway's form or JSON post), so bad input is a 400 naming it before any
//! gateway is asked.

use std::borrow::Cow;
use std::collections::HashMap;

use aide::generate::GenContext;
use aide::openapi::{MediaType, Operation, RequestBody, Response as DocResponse, SchemaObject};
use aide::operation::set_body;
use aide::OperationInput;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::header::{CONTENT_TYPE, REFERRER_POLICY};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{de, Deserialize, Deserializer, Serialize};

use catalog::clock;

use crate::domain::identity::Caller;
use crate::domain::identity::{valid_self_token, Owner, SELF_TOKEN_PATTERN, SELF_TOKEN_RULE};
use crate::domain::payments::bkash;
use crate::domain::payments::nagad;
use crate::domain::payments::sslcommerz::{Lookup, SslCommerz};
use crate::domain::payments::{self, Confirmed, FailReason, Started};
use crate::plumbing::error::{early_errors, ApiError, ApiResult, INVALID_INPUT};
use crate::plumbing::extract::Query;
use crate::plumbing::params::{blank_is_none, required, Int, Text};
use crate::plumbing::ratelimit;
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// The cart's payment methods the card gateway takes.
pub const CARD_METHODS: [&str; 2] = ["debitcredit", "mobilebanking"];
/// The cart's payment method the wallet takes.
pub const WALLET_METHODS: [&str; 1] = ["nagad"];
/// The cart's payment method bKash takes.
pub const BKASH_METHODS: [&str; 1] = ["bkash"];

/// Whether the gateway for a cart's payment method is on; `None` for a
/// method no gateway takes (cash on delivery).
pub fn method_available(state: &AppState, method: &str) -> Option<bool> {
    if CARD_METHODS.contains(&method) {
        Some(state.payments.sslcommerz.is_some())
    } else if WALLET_METHODS.contains(&method) {
        Some(state.payments.nagad.is_some())
    } else if BKASH_METHODS.contains(&method) {
        Some(state.payments.bkash.is_some())
    } else {
        None
    }
}

/// The 503 of a payment method that is off.
pub fn unavailable() -> ApiError {
    ApiError::Unavailable("This payment method is not available.".into())
}

/// Why a gateway may answer 503.
const GATEWAY_OFF: &str = "This payment method is not configured, or its gateway cannot be \
    reached or refused the payment (or buying is switched off for a while)";
/// The card gateway's browser returns: where they send the browser.
const BACK_TO_SHOP: &str = "To /redirect-from-ssl?order_random&order_key&from=ssl when the \
    gateway confirms the payment, else to /fail?reason=<FailReason>&data=<message>";

/// `/sslcommerz/...`, mounted outside `/api`.
pub fn sslcommerz_router() -> ApiRouter {
    let back = |summary| {
        Doc::open(summary)
            .redirects(303, BACK_TO_SHOP)
            .answers(503, "The card gateway is not configured")
    };
    ApiRouter::new()
        .post(
            "/pay-via-ajax",
            post_ssl_pay,
            Doc::visitor(
                "Places the cart for a card payment: {status: success, data: <gateway page>}",
            )
            .self_token_optional()
            .answers(
                409,
                "The cart is empty, incomplete, no longer in stock or not to be paid by card",
            )
            .answers(503, GATEWAY_OFF),
        )
        .post(
            "/existing-order-pay",
            post_ssl_existing,
            Doc::visitor("Pays what is left of the caller's own order: {status, data}")
                .self_token_optional()
                .answers(404, "The caller has no order with that id")
                .answers(
                    409,
                    "The order is paid in full or not waiting for a payment",
                )
                .answers(503, GATEWAY_OFF),
        )
        .post(
            "/success",
            post_ssl_return,
            back("The gateway's return after paying: 303 to /redirect-from-ssl or /fail"),
        )
        .post(
            "/fail",
            post_ssl_return,
            back("The gateway's return after a failure: 303 to /fail"),
        )
        .post(
            "/cancel",
            post_ssl_return,
            back("The gateway's return after a cancellation: 303 to /fail"),
        )
        .post(
            "/ipn",
            post_ssl_ipn,
            Doc::open("The gateway's notification (server to server): {success, paid, reason}")
                .answers(
                    403,
                    "The notification does not carry SSLCommerz's signature (verify_sign)",
                )
                .answers(404, "The gateway does not confirm this transaction")
                .answers(
                    503,
                    "The card gateway is not configured, or could not confirm the payment yet",
                ),
        )
}

/// `/api/nagad/...`.
pub fn nagad_router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/pay-via-ajax",
            get_nagad_pay,
            Doc::visitor("Places the cart for a Nagad payment: {url}")
                .self_token_optional()
                .answers(
                    409,
                    "The cart is empty, incomplete, no longer in stock or not to be paid by Nagad",
                )
                .answers(503, GATEWAY_OFF),
        )
        .get(
            "/receive-nagad-data",
            get_nagad_return,
            Doc::open("Nagad's return: 303 to /nagad-thank-you or /fail")
                .redirects(
                    303,
                    "To /nagad-thank-you?order_random&order_key when Nagad confirms the payment, \
                     else to /fail?reason=<FailReason>&data=<message>",
                )
                .answers(503, "Nagad is not configured"),
        )
}

/// `/api/bkash/...`.
pub fn bkash_router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/create",
            post_bkash_create,
            Doc::visitor("Places the cart for a bKash payment: {bkashURL}")
                .self_token_optional()
                .answers(
                    409,
                    "The cart is empty, incomplete, no longer in stock or not to be paid by bKash",
                )
                .answers(503, GATEWAY_OFF),
        )
        .get(
            "/callback",
            get_bkash_callback,
            Doc::open("bKash's return: 303 to /thank-you or /fail")
                .redirects(
                    303,
                    "To /thank-you?order_random&order_key when bKash completes the payment, \
                     else to /fail?reason=<FailReason>&data=<message>",
                )
                .answers(503, "bKash is not configured"),
        )
}

/// The body of `POST /api/bkash/create`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
struct BkashCreateBody {
    /// The guest's token (or the SELF-TOKEN header).
    #[serde(default, deserialize_with = "blank_is_none")]
    token: Option<GuestToken>,
}

/// `POST /api/bkash/create`: where to send the shopper.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BkashCreateResponse {
    pub success: bool,
    /// bKash's page where the shopper approves the payment.
    #[serde(rename = "bkashURL")]
    pub bkash_url: String,
    /// The order being paid.
    pub order_random: String,
}

/// `POST /api/bkash/create` `{token}`: places the cart and opens a bKash
/// checkout.
async fn post_bkash_create(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    OptionalJson(body): OptionalJson<BkashCreateBody>,
) -> ApiResult<Json<BkashCreateResponse>> {
    let gateway = state.payments.bkash.as_ref().ok_or_else(|| {
        ApiError::Unavailable("bKash is not available. Please choose another way to pay.".into())
    })?;
    let owner: Owner = caller_with(caller, body.token).owner()?;
    let started = payments::pay_cart(
        &state.pool,
        &state.payments.http,
        gateway,
        &owner,
        &BKASH_METHODS,
        None,
        &ratelimit::client(&headers),
        clock::now_unix(),
    )
    .await?;
    bkash::record_payment_id(&state.pool, gateway, &started.tran_id).await?;
    Ok(Json(BkashCreateResponse {
        success: true,
        bkash_url: started.url,
        order_random: started.order_random,
    }))
}

/// The query of `GET /api/bkash/callback` (bKash adds more, not read).
#[derive(Debug, Deserialize, JsonSchema)]
struct BkashCallbackQuery {
    /// bKash's payment id.
    #[serde(rename = "paymentID")]
    #[schemars(required)]
    payment_id: Option<Text<1, 100>>,
    /// success, failure or cancel: not read, bKash is asked.
    #[allow(dead_code)]
    status: Option<String>,
}

/// `GET /api/bkash/callback?paymentID=&status=`: executes (or queries) the
/// payment and sends the browser on (303).
async fn get_bkash_callback(
    State(state): State<AppState>,
    Query(query): Query<BkashCallbackQuery>,
) -> ApiResult<Response> {
    let payment_id = required(query.payment_id, "paymentID")?;
    let gateway = state.payments.bkash.as_ref().ok_or_else(unavailable)?;
    let result = payments::confirm(
        &state.pool,
        &state.payments.http,
        gateway,
        payment_id.as_str(),
        None,
        clock::now_unix(),
    )
    .await;
    Ok(send_on(&state, result, "/thank-you", ""))
}

/// A guest's token in the query, as the `SELF-TOKEN` header carries it: 35
/// to 100 letters, digits, `.`, `_` or `-` ([`valid_self_token`]).
#[derive(Debug, Clone)]
struct GuestToken(String);

impl<'de> Deserialize<'de> for GuestToken {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let token = String::deserialize(deserializer)?;
        if valid_self_token(&token) {
            Ok(GuestToken(token))
        } else {
            Err(de::Error::custom(SELF_TOKEN_RULE))
        }
    }
}

impl JsonSchema for GuestToken {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "GuestToken".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": SELF_TOKEN_PATTERN })
    }
}

/// The caller, with the guest token of the query (the original's
/// `self_token`/`token`) when no header named one.
fn caller_with(mut caller: Caller, token: Option<GuestToken>) -> Caller {
    if caller.self_token.is_none() {
        caller.self_token = token.map(|t| t.0);
    }
    caller
}

fn card(state: &AppState) -> ApiResult<&SslCommerz> {
    state.payments.sslcommerz.as_ref().ok_or_else(unavailable)
}

/// The query of `POST /sslcommerz/pay-via-ajax`.
#[derive(Debug, Deserialize, JsonSchema)]
struct SslPayQuery {
    /// The guest's token (or the SELF-TOKEN header).
    #[serde(default, deserialize_with = "blank_is_none")]
    self_token: Option<GuestToken>,
}

/// The body of `POST /sslcommerz/pay-via-ajax`, which may also be empty.
#[derive(Debug, Default, Deserialize, JsonSchema)]
struct SslPayBody {
    /// Where the shopper pays from: `website` (the default); not read.
    #[allow(dead_code)]
    device: Option<String>,
    /// 1 to ask for card instalments (a number, or a number in text).
    emi_option: Option<NumberOrText>,
    /// The most instalments wanted (a number, or a number in text).
    emi_max_inst_option: Option<NumberOrText>,
}

/// A number the original client sends either as a JSON number or as text.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
enum NumberOrText {
    Number(i64),
    Text(String),
}

impl NumberOrText {
    /// The number; `None` for text that is not a whole number.
    fn get(&self) -> Option<i64> {
        match self {
            NumberOrText::Number(n) => Some(*n),
            NumberOrText::Text(s) => s.trim().parse().ok(),
        }
    }
}

/// A JSON body that may be left out (or blank): then `T::default()`.
struct OptionalJson<T>(T);

impl<T: serde::de::DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            ApiError::invalid("body", format!("Invalid JSON body: {}", e.body_text()))
        })?;
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        serde_json::from_slice(&body)
            .map(OptionalJson)
            .map_err(|e| ApiError::invalid("body", format!("Invalid JSON body: {e}")))
    }
}

impl<T: JsonSchema> OperationInput for OptionalJson<T> {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let schema = ctx.schema.subschema_for::<T>();
        set_body(
            ctx,
            operation,
            body_of(&[("application/json", schema)], false),
        );
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, DocResponse)> {
        early_errors(ctx, &[INVALID_INPUT])
    }
}

/// A request body in each of `media` (type, schema).
fn body_of(media: &[(&str, Schema)], required: bool) -> RequestBody {
    RequestBody {
        content: media
            .iter()
            .map(|(kind, schema)| {
                let media = MediaType {
                    schema: Some(SchemaObject {
                        json_schema: schema.clone(),
                        example: None,
                        external_docs: None,
                    }),
                    ..Default::default()
                };
                (kind.to_string(), media)
            })
            .collect(),
        required,
        ..Default::default()
    }
}

/// `POST /sslcommerz/pay-via-ajax` and `existing-order-pay`: where to send
/// the shopper.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SslcommerzPayResponse {
    pub success: bool,
    /// Always `success` (the original's flag).
    pub status: String,
    /// The gateway's page to send the shopper to.
    pub data: String,
    /// The gateway's logo: empty.
    pub logo: String,
    /// The order being paid.
    pub order_random: String,
    /// The most card instalments offered, when asked for and every product
    /// of the order allows them.
    pub emi: Option<i64>,
    pub message: String,
}

fn ssl_started(started: Started) -> Json<SslcommerzPayResponse> {
    Json(SslcommerzPayResponse {
        success: true,
        status: "success".into(),
        data: started.url,
        logo: String::new(),
        order_random: started.order_random,
        emi: started.emi.map(|e| e.max_instalments),
        message: "Redirecting to the payment page".into(),
    })
}

/// `POST /sslcommerz/pay-via-ajax?self_token=`.
async fn post_ssl_pay(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    Query(query): Query<SslPayQuery>,
    OptionalJson(body): OptionalJson<SslPayBody>,
) -> ApiResult<Json<SslcommerzPayResponse>> {
    let owner = caller_with(caller, query.self_token).owner()?;
    let gateway = card(&state)?;
    let emi = match body.emi_option.as_ref().and_then(NumberOrText::get) {
        Some(1) => Some(
            body.emi_max_inst_option
                .as_ref()
                .and_then(NumberOrText::get)
                .unwrap_or(i64::MAX),
        ),
        _ => None,
    };
    let started = payments::pay_cart(
        &state.pool,
        &state.payments.http,
        gateway,
        &owner,
        &CARD_METHODS,
        emi,
        &ratelimit::client(&headers),
        clock::now_unix(),
    )
    .await?;
    Ok(ssl_started(started))
}

/// The query of `POST /sslcommerz/existing-order-pay`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ExistingOrderQuery {
    /// The order's id (at most 2^53 - 1, the largest whole number a JSON
    /// reader keeps exactly).
    #[schemars(required)]
    order_id: Option<Int<1, 9_007_199_254_740_991>>,
    /// The guest's token (or the SELF-TOKEN header).
    #[serde(default, deserialize_with = "blank_is_none")]
    self_token: Option<GuestToken>,
}

/// `POST /sslcommerz/existing-order-pay?order_id=`.
async fn post_ssl_existing(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    Query(query): Query<ExistingOrderQuery>,
) -> ApiResult<Json<SslcommerzPayResponse>> {
    let order_id = required(query.order_id, "order_id")?.get();
    let caller = caller_with(caller, query.self_token);
    caller.owner()?;
    let gateway = card(&state)?;
    let started = payments::pay_existing(
        &state.pool,
        &state.payments.http,
        gateway,
        &caller,
        order_id,
        &ratelimit::client(&headers),
        clock::now_unix(),
    )
    .await?;
    Ok(ssl_started(started))
}

/// What the card gateway posts back (a form, as SSLCommerz sends; JSON is
/// read too). Only `tran_id` and `val_id` are read: the outcome is asked of
/// the gateway, never taken from the post.
#[derive(Debug, Default, JsonSchema)]
struct GatewayPost {
    /// The attempt's transaction id.
    #[schemars(length(min = 1, max = 100), pattern(r"\S"))]
    tran_id: String,
    /// The gateway's validation id; one longer than 100 characters is ignored.
    #[serde(default)]
    val_id: String,
    /// VALID, FAILED or CANCELLED: not read.
    #[serde(default)]
    #[allow(dead_code)]
    status: String,
    /// The fields `verify_sign` signs (the IPN's are checked), by name.
    #[serde(skip)]
    #[schemars(skip)]
    fields: HashMap<String, String>,
}

impl<S: Send + Sync> FromRequest<S> for GatewayPost {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let headers = req.headers().clone();
        let body = Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::invalid("body", format!("Invalid body: {}", e.body_text())))?;
        let fields = posted_fields(&headers, &body);
        let take = |name: &str| fields.get(name).cloned().unwrap_or_default();
        Ok(GatewayPost {
            tran_id: take("tran_id"),
            val_id: take("val_id"),
            status: take("status"),
            fields,
        })
    }
}

impl OperationInput for GatewayPost {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let schema = ctx.schema.subschema_for::<GatewayPost>();
        let media = [
            ("application/x-www-form-urlencoded", schema.clone()),
            ("application/json", schema),
        ];
        set_body(ctx, operation, body_of(&media, true));
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, DocResponse)> {
        early_errors(ctx, &[INVALID_INPUT])
    }
}

/// The fields of a gateway post (a form, as SSLCommerz sends; JSON is read
/// too).
fn posted_fields(headers: &HeaderMap, body: &Bytes) -> HashMap<String, String> {
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if json {
        let value: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
        return value
            .as_object()
            .map(|o| {
                o.iter()
                    .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
                    .collect()
            })
            .unwrap_or_default();
    }
    // A form body is a query string; let the URL parser decode it.
    reqwest::Url::parse("http://form.invalid/")
        .ok()
        .map(|mut url| {
            url.set_query(std::str::from_utf8(body).ok());
            url.query_pairs().into_owned().collect()
        })
        .unwrap_or_default()
}

/// What the gateway post names: the claimed `tran_id` and how to ask about it.
fn ssl_lookup(post: &GatewayPost) -> ApiResult<(String, Lookup)> {
    let field = |value: &str| {
        Some(value.trim().to_string()).filter(|v| !v.is_empty() && v.chars().count() <= 100)
    };
    let tran_id = field(&post.tran_id)
        .ok_or_else(|| ApiError::invalid("tran_id", "The transaction id is missing."))?;
    let lookup = match field(&post.val_id) {
        Some(val_id) => Lookup::ValId(val_id),
        None => Lookup::TranId(tran_id.clone()),
    };
    Ok((tran_id, lookup))
}

/// Sends the browser on: to `paid_page` when paid, else to `/fail`.
fn send_on(
    state: &AppState,
    result: ApiResult<Confirmed>,
    paid_page: &str,
    from: &str,
) -> Response {
    let site = &state.site_url;
    let target = match result {
        Ok(Confirmed::Settled {
            paid: true,
            order_random,
            order_key,
            ..
        }) => {
            let mut pairs = vec![("order_random", order_random), ("order_key", order_key)];
            if !from.is_empty() {
                pairs.push(("from", from.to_string()));
            }
            with_query(&format!("{site}{paid_page}"), &pairs)
        }
        Ok(Confirmed::Settled {
            paid: false,
            reason,
            ..
        }) => fail_page(
            site,
            reason.unwrap_or(FailReason::Failed),
            "The payment did not go through.",
        ),
        Ok(Confirmed::Unconfirmed) => fail_page(
            site,
            FailReason::Failed,
            "The payment could not be confirmed.",
        ),
        Err(ApiError::Unavailable(message)) => fail_page(site, FailReason::Unavailable, &message),
        Err(err) => {
            if let ApiError::Internal(_) = err {
                // Logged (once) by turning it into a response.
                let _ = err.into_response();
            }
            fail_page(
                site,
                FailReason::Failed,
                "The payment could not be confirmed.",
            )
        }
    };
    let mut response = Redirect::to(&target).into_response();
    // The order key must not leak to the next site through a Referer.
    response
        .headers_mut()
        .insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

/// `/fail?reason=<code>&data=<message>`: the code for the shop's page to
/// word, the message for the original's clients.
fn fail_page(site: &str, reason: FailReason, message: &str) -> String {
    with_query(
        &format!("{site}/fail"),
        &[
            ("reason", reason.code().to_string()),
            ("data", message.to_string()),
        ],
    )
}

fn with_query(base: &str, pairs: &[(&str, String)]) -> String {
    match reqwest::Url::parse_with_params(base, pairs) {
        Ok(url) => url.to_string(),
        Err(_) => base.to_string(),
    }
}

/// The three browser returns share one handler: what the post says about
/// the outcome is ignored; only the gateway's answer counts.
async fn post_ssl_return(State(state): State<AppState>, post: GatewayPost) -> ApiResult<Response> {
    let (tran_id, lookup) = ssl_lookup(&post)?;
    let gateway = card(&state)?;
    let result = payments::confirm(
        &state.pool,
        &state.payments.http,
        gateway,
        &lookup,
        Some(&tran_id),
        clock::now_unix(),
    )
    .await;
    Ok(send_on(&state, result, "/redirect-from-ssl", "ssl"))
}

/// `POST /sslcommerz/ipn`: what the gateway's notification did.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SslcommerzIpnResponse {
    pub success: bool,
    /// Whether the attempt is paid (validated by the gateway).
    pub paid: bool,
    /// Why not, when not paid: the code the browser's return sends to
    /// `/fail?reason=`.
    pub reason: Option<FailReason>,
}

/// `POST /sslcommerz/ipn`: `{success, paid, reason}`; 403 when it does not
/// carry SSLCommerz's signature (nothing is asked, nothing changes), 503
/// when the gateway cannot confirm (it notifies again), 404 when it vouches
/// for nothing. A signed IPN is still confirmed with the validation API
/// (or the transaction query) before anything is marked.
async fn post_ssl_ipn(
    State(state): State<AppState>,
    post: GatewayPost,
) -> ApiResult<Json<SslcommerzIpnResponse>> {
    let (tran_id, lookup) = ssl_lookup(&post)?;
    let gateway = card(&state)?;
    if !gateway.signed(&post.fields) {
        tracing::warn!(
            gateway = "sslcommerz",
            tran_id,
            "IPN refused: its verify_sign is missing or wrong"
        );
        return Err(ApiError::Forbidden(
            "This notification does not carry the card gateway's signature.".into(),
        ));
    }
    match payments::confirm(
        &state.pool,
        &state.payments.http,
        gateway,
        &lookup,
        Some(&tran_id),
        clock::now_unix(),
    )
    .await?
    {
        Confirmed::Settled { paid, reason, .. } => Ok(Json(SslcommerzIpnResponse {
            success: true,
            paid,
            reason,
        })),
        Confirmed::Unconfirmed => Err(ApiError::not_found(
            "The gateway does not confirm this transaction.",
        )),
    }
}

/// The query of `GET /api/nagad/pay-via-ajax`.
#[derive(Debug, Deserialize, JsonSchema)]
struct NagadPayQuery {
    /// The guest's token (SELF-TOKEN).
    #[schemars(required)]
    token: Option<GuestToken>,
}

/// `GET /api/nagad/pay-via-ajax`: where to send the shopper.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NagadPayResponse {
    pub success: bool,
    /// Nagad's page to send the shopper to.
    pub url: String,
    /// The order being paid.
    pub order_random: String,
}

/// `GET /api/nagad/pay-via-ajax?token=`: `{url}`.
async fn get_nagad_pay(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    Query(query): Query<NagadPayQuery>,
) -> ApiResult<Json<NagadPayResponse>> {
    let token = required(query.token, "token")?;
    let owner: Owner = caller_with(caller, Some(token)).owner()?;
    let gateway = state.payments.nagad.as_ref().ok_or_else(unavailable)?;
    let started = payments::pay_cart(
        &state.pool,
        &state.payments.http,
        gateway,
        &owner,
        &WALLET_METHODS,
        None,
        &ratelimit::client(&headers),
        clock::now_unix(),
    )
    .await?;
    nagad::record_reference(&state.pool, gateway, &started.tran_id).await?;
    Ok(Json(NagadPayResponse {
        success: true,
        url: started.url,
        order_random: started.order_random,
    }))
}

/// The query of `GET /api/nagad/receive-nagad-data`.
#[derive(Debug, Deserialize, JsonSchema)]
struct NagadReturnQuery {
    /// Nagad's payment reference.
    #[schemars(required)]
    payment_ref_id: Option<Text<1, 100>>,
}

/// `GET /api/nagad/receive-nagad-data?payment_ref_id=`: 303 on.
async fn get_nagad_return(
    State(state): State<AppState>,
    Query(query): Query<NagadReturnQuery>,
) -> ApiResult<Response> {
    let reference = required(query.payment_ref_id, "payment_ref_id")?;
    let gateway = state.payments.nagad.as_ref().ok_or_else(unavailable)?;
    let result = payments::confirm(
        &state.pool,
        &state.payments.http,
        gateway,
        reference.as_str(),
        None,
        clock::now_unix(),
    )
    .await;
    Ok(send_on(&state, result, "/nagad-thank-you", ""))
}
