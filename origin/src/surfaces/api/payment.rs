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
//!   else to `/fail?data=<reason>`;
//! - `POST /sslcommerz/ipn`: the gateway's own notification, answered in JSON.
//!
//! Wallet (Nagad), under `/api/nagad`: `GET pay-via-ajax?token=` answers
//! `{url}`; `GET receive-nagad-data?payment_ref_id=` is the return, sent on to
//! `/nagad-thank-you?order_random&order_key` or `/fail`.
//!
//! bKash (`POST /api/bkash/create`) is not built: a 503.
//!
//! A gateway that is not configured answers 503 "This payment method is not
//! available"; one that cannot be reached, 503 with what to do.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{CONTENT_TYPE, REFERRER_POLICY};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use catalog::clock;

use crate::domain::cart;
use crate::domain::identity::Caller;
use crate::domain::identity::{valid_self_token, Owner};
use crate::domain::payments::sslcommerz::{Lookup, SslCommerz};
use crate::domain::payments::{self, Confirmed, Started};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::surfaces::api::category::Params;
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::home::Pairs;

/// The cart's payment methods the card gateway takes.
pub const CARD_METHODS: [&str; 2] = ["debitcredit", "mobilebanking"];
/// The cart's payment method the wallet takes.
pub const WALLET_METHODS: [&str; 1] = ["nagad"];

/// Whether the gateway for a cart's payment method is on; `None` for a
/// method no gateway takes (cash on delivery).
pub fn method_available(state: &AppState, method: &str) -> Option<bool> {
    if CARD_METHODS.contains(&method) {
        Some(state.payments.sslcommerz.is_some())
    } else if WALLET_METHODS.contains(&method) {
        Some(state.payments.nagad.is_some())
    } else if method == "bkash" {
        Some(false)
    } else {
        None
    }
}

/// The 503 of a payment method that is off.
pub fn unavailable() -> ApiError {
    ApiError::Unavailable("This payment method is not available.".into())
}

/// `/sslcommerz/...`, mounted outside `/api`.
pub fn sslcommerz_router() -> ApiRouter {
    let back = |summary| {
        Doc::visitor(summary)
            .field_opt("tran_id", "string", "The attempt (form field)")
            .field_opt(
                "val_id",
                "string",
                "The gateway's validation id (form field)",
            )
            .field_opt(
                "status",
                "string",
                "VALID, FAILED or CANCELLED (form field)",
            )
    };
    ApiRouter::new()
        .post(
            "/pay-via-ajax",
            post_ssl_pay,
            Doc::visitor(
                "Places the cart for a card payment: {status: success, data: <gateway page>}",
            )
            .query_opt(
                "self_token",
                "string",
                "The guest's token (or the SELF-TOKEN header)",
            )
            .field_opt("device", "string", "website (default)")
            .field_opt("emi_option", "integer", "1 to ask for card instalments")
            .field_opt(
                "emi_max_inst_option",
                "integer",
                "The most instalments wanted",
            ),
        )
        .post(
            "/existing-order-pay",
            post_ssl_existing,
            Doc::visitor("Pays what is left of the caller's own order: {status, data}")
                .query("order_id", "integer", "The order's id")
                .query_opt(
                    "self_token",
                    "string",
                    "The guest's token (or the SELF-TOKEN header)",
                ),
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
            back("The gateway's notification (server to server): {success, paid}"),
        )
}

/// `/api/nagad/...`.
pub fn nagad_router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/pay-via-ajax",
            get_nagad_pay,
            Doc::visitor("Places the cart for a Nagad payment: {url}").query(
                "token",
                "string",
                "The guest's token (SELF-TOKEN)",
            ),
        )
        .get(
            "/receive-nagad-data",
            get_nagad_return,
            Doc::visitor("Nagad's return: 303 to /nagad-thank-you or /fail").query(
                "payment_ref_id",
                "string",
                "Nagad's payment reference",
            ),
        )
}

/// `/api/bkash/...`: not built.
pub fn bkash_router() -> ApiRouter {
    ApiRouter::new().post(
        "/create",
        post_bkash_create,
        Doc::visitor("bKash checkout: not available (503)").field_opt(
            "token",
            "string",
            "The guest's token",
        ),
    )
}

async fn post_bkash_create() -> ApiError {
    ApiError::Unavailable("bKash is not available. Please choose another way to pay.".into())
}

/// The caller, with a guest token from the query (the original's
/// `self_token`/`token`) when no header named one.
fn caller_with(mut caller: Caller, token: Option<&str>) -> ApiResult<Caller> {
    if caller.self_token.is_none() {
        if let Some(token) = token.map(str::trim).filter(|t| !t.is_empty()) {
            if !valid_self_token(token) {
                return Err(ApiError::invalid(
                    "self_token",
                    "The token must be 8 to 100 letters, digits, '.', '_' or '-'.",
                ));
            }
            caller.self_token = Some(token.to_string());
        }
    }
    Ok(caller)
}

fn card(state: &AppState) -> ApiResult<&SslCommerz> {
    state.payments.sslcommerz.as_ref().ok_or_else(unavailable)
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct SslPayBody {
    emi_option: Option<Value>,
    emi_max_inst_option: Option<Value>,
}

/// A number sent as a JSON number or a string.
fn number(v: &Option<Value>) -> Option<i64> {
    match v {
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    }
}

fn ssl_started(started: Started) -> Json<Value> {
    Json(json!({
        "success": true,
        "status": "success",
        "data": started.url,
        "logo": "",
        "order_random": started.order_random,
        "emi": started.emi.map(|e| e.max_instalments),
        "message": "Redirecting to the payment page",
    }))
}

/// `POST /sslcommerz/pay-via-ajax?self_token=`.
async fn post_ssl_pay(
    State(state): State<AppState>,
    caller: Caller,
    crate::plumbing::extract::Query(query): Pairs,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let params = Params::new(query)?;
    let caller = caller_with(caller, params.get("self_token"))?;
    let owner = caller.owner()?;
    let body: SslPayBody = if body.iter().all(u8::is_ascii_whitespace) {
        SslPayBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::invalid("body", format!("Invalid JSON body: {e}")))?
    };
    let gateway = card(&state)?;
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    let emi = match number(&body.emi_option) {
        Some(1) => Some(number(&body.emi_max_inst_option).unwrap_or(i64::MAX)),
        _ => None,
    };
    let started = payments::pay_cart(
        &state.pool,
        &state.payments.http,
        gateway,
        &owner,
        &CARD_METHODS,
        emi,
        clock::now_unix(),
    )
    .await?;
    Ok(ssl_started(started))
}

/// `POST /sslcommerz/existing-order-pay?order_id=`.
async fn post_ssl_existing(
    State(state): State<AppState>,
    caller: Caller,
    crate::plumbing::extract::Query(query): Pairs,
) -> ApiResult<Json<Value>> {
    let params = Params::new(query)?;
    params.required("order_id")?;
    let order_id = params
        .int("order_id", 1, i64::MAX / 2)?
        .ok_or_else(|| ApiError::invalid("order_id", "order_id is required"))?;
    let caller = caller_with(caller, params.get("self_token"))?;
    caller.owner()?;
    let gateway = card(&state)?;
    let started = payments::pay_existing(
        &state.pool,
        &state.payments.http,
        gateway,
        &caller,
        order_id,
        clock::now_unix(),
    )
    .await?;
    Ok(ssl_started(started))
}

/// The fields of a gateway post (a form, as SSLCommerz sends; JSON is read
/// too).
fn posted_fields(headers: &HeaderMap, body: &Bytes) -> HashMap<String, String> {
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if json {
        let value: Value = serde_json::from_slice(body).unwrap_or_default();
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
fn ssl_lookup(fields: &HashMap<String, String>) -> ApiResult<(String, Lookup)> {
    let field = |name: &str| {
        fields
            .get(name)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty() && v.len() <= 100)
    };
    let tran_id = field("tran_id")
        .ok_or_else(|| ApiError::invalid("tran_id", "The transaction id is missing."))?;
    let lookup = match field("val_id") {
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
        }) => {
            let mut pairs = vec![("order_random", order_random), ("order_key", order_key)];
            if !from.is_empty() {
                pairs.push(("from", from.to_string()));
            }
            with_query(&format!("{site}{paid_page}"), &pairs)
        }
        Ok(Confirmed::Settled { paid: false, .. }) => {
            fail_page(site, "The payment did not go through.")
        }
        Ok(Confirmed::Unconfirmed) => fail_page(site, "The payment could not be confirmed."),
        Err(ApiError::Unavailable(message)) => fail_page(site, &message),
        Err(err) => {
            if let ApiError::Internal(_) = err {
                // Logged (once) by turning it into a response.
                let _ = err.into_response();
            }
            fail_page(site, "The payment could not be confirmed.")
        }
    };
    let mut response = Redirect::to(&target).into_response();
    // The order key must not leak to the next site through a Referer.
    response
        .headers_mut()
        .insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    response
}

fn fail_page(site: &str, reason: &str) -> String {
    with_query(&format!("{site}/fail"), &[("data", reason.to_string())])
}

fn with_query(base: &str, pairs: &[(&str, String)]) -> String {
    match reqwest::Url::parse_with_params(base, pairs) {
        Ok(url) => url.to_string(),
        Err(_) => base.to_string(),
    }
}

/// The three browser returns share one handler: what the post says about
/// the outcome is ignored; only the gateway's answer counts.
async fn post_ssl_return(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let fields = posted_fields(&headers, &body);
    let (tran_id, lookup) = ssl_lookup(&fields)?;
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

/// `POST /sslcommerz/ipn`: `{success, paid}`; 503 when the gateway cannot
/// confirm (it notifies again), 404 when it vouches for nothing.
async fn post_ssl_ipn(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let fields = posted_fields(&headers, &body);
    let (tran_id, lookup) = ssl_lookup(&fields)?;
    let gateway = card(&state)?;
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
        Confirmed::Settled { paid, .. } => Ok(Json(json!({ "success": true, "paid": paid }))),
        Confirmed::Unconfirmed => Err(ApiError::not_found(
            "The gateway does not confirm this transaction.",
        )),
    }
}

/// `GET /api/nagad/pay-via-ajax?token=`: `{url}`.
async fn get_nagad_pay(
    State(state): State<AppState>,
    caller: Caller,
    crate::plumbing::extract::Query(query): Pairs,
) -> ApiResult<Json<Value>> {
    let params = Params::new(query)?;
    let token = params.required("token")?;
    let caller = caller_with(caller, Some(token))?;
    let owner: Owner = caller.owner()?;
    let gateway = state.payments.nagad.as_ref().ok_or_else(unavailable)?;
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    let started = payments::pay_cart(
        &state.pool,
        &state.payments.http,
        gateway,
        &owner,
        &WALLET_METHODS,
        None,
        clock::now_unix(),
    )
    .await?;
    Ok(Json(json!({
        "success": true,
        "url": started.url,
        "order_random": started.order_random,
    })))
}

/// `GET /api/nagad/receive-nagad-data?payment_ref_id=`: 303 on.
async fn get_nagad_return(
    State(state): State<AppState>,
    crate::plumbing::extract::Query(query): Pairs,
) -> ApiResult<Response> {
    let params = Params::new(query)?;
    let reference = params.required("payment_ref_id")?.trim().to_string();
    if reference.len() > 100 {
        return Err(ApiError::invalid(
            "payment_ref_id",
            "The reference is too long.",
        ));
    }
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
