//! bKash Tokenized Checkout (API v1.2.0-beta), server to server:
//! - `POST {base}/tokenized/checkout/token/grant` (headers `username`,
//!   `password`; body `app_key`, `app_secret`) answers an `id_token` good
//!   for `expires_in` seconds and a `refresh_token`; the token is kept in
//!   memory (each origin holds its own, as bKash allows) and renewed through
//!   `token/refresh` before it expires, or granted anew;
//! - `POST {base}/tokenized/checkout/create` (mode `0011`, our `tran_id` as
//!   `merchantInvoiceNumber`, the amount in taka) answers a `paymentID` and
//!   `bkashURL`, the page where the shopper approves;
//! - bKash sends the shopper to `{callback base}/api/bkash/callback?paymentID=
//!   &status=success|failure|cancel`, which proves nothing by itself: the
//!   server executes the payment (`POST {base}/tokenized/checkout/execute`)
//!   and, when execute fails, times out or was already called, asks
//!   `POST {base}/tokenized/checkout/payment/status`.
//!
//! Refunds (full or partial, from `origin refund` or for a payment completed
//! after its order expired): `POST {base}/tokenized/checkout/payment/refund`
//! with the `paymentID`, the `trxID`, the amount, our invoice as `sku` and
//! the reason; bKash answers the refund's own `refundTrxID`. When that
//! answer is lost, the same endpoint with only `paymentID` and `trxID` is
//! bKash's refund status: the payment's last refund (`refundTrxID`,
//! `amount`, `transactionStatus`). One whose id is not recorded with
//! another of our refunds, of our amount, is ours; one recorded with a
//! refund asked for before ours (or none at all, 2071) means ours was not
//! done; one asked for after ours hides it (then the operator decides).
//!
//! Only `transactionStatus: Completed` with our invoice number counts as
//! paid, and [`super::settle`] checks the amount. Every call after the grant
//! carries `Authorization: <id_token>` and `X-APP-Key`. An answer's
//! `statusCode` other than `0000` is bKash saying no.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use catalog::db::{self, Pool};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::json;

use super::gateway::{
    ask, endpoint, parse_taka, server_error, Checkout, Gateway, GatewayError, Refund, RefundState,
};
use super::{confirm, Confirmed, Outcome};
use crate::config::Secret;
use crate::plumbing::error::ApiResult;

/// One configured bKash merchant.
#[derive(Debug)]
pub struct Bkash {
    base: String,
    /// Sent as `X-APP-Key`; kept out of logs like the secrets.
    app_key: Secret,
    app_secret: Secret,
    username: String,
    password: Secret,
    /// `{callback base}/api/bkash/callback`.
    callback_url: String,
    /// The id token in use, with when to renew it.
    token: tokio::sync::Mutex<Option<Token>>,
    /// Payments created and not yet recorded: `tran_id` -> `paymentID`.
    created: Mutex<HashMap<String, String>>,
}

#[derive(Clone)]
struct Token {
    id_token: String,
    refresh_token: String,
    /// Renew from then on (a tenth of its life before it expires).
    renew_at: Instant,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(..)")
    }
}

/// What every bKash answer may carry; a `statusCode` other than `0000` is
/// an error (`2001` invalid app key, `2023` insufficient balance, `2056`
/// invalid payment state, `2062` already completed, `2117` execute already
/// called, ...).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    #[serde(default)]
    status_code: Option<String>,
    #[serde(default)]
    status_message: String,
    /// The API gateway's own message (an expired or unknown token).
    #[serde(default)]
    message: String,
}

impl Status {
    /// The error code, when the answer is one.
    fn error(&self) -> Option<String> {
        match self.status_code.as_deref() {
            Some("0000") | None => None,
            Some(code) => Some(format!("{code} {}", self.status_message)),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Granted {
    #[serde(flatten)]
    status: Status,
    #[serde(default)]
    id_token: String,
    #[serde(default)]
    refresh_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Created {
    #[serde(flatten)]
    status: Status,
    #[serde(default, rename = "paymentID")]
    payment_id: String,
    #[serde(default, rename = "bkashURL")]
    bkash_url: String,
}

/// What execute and query answer about a payment.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payment {
    #[serde(flatten)]
    status: Status,
    #[serde(default, rename = "paymentID")]
    payment_id: String,
    #[serde(default, rename = "trxID")]
    trx_id: String,
    #[serde(default)]
    transaction_status: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    currency: String,
    #[serde(default, alias = "merchantInvoice")]
    merchant_invoice_number: String,
}

/// What `payment/refund` answers.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Refunded {
    #[serde(flatten)]
    status: Status,
    #[serde(default, rename = "refundTrxID")]
    refund_trx_id: String,
    #[serde(default)]
    transaction_status: String,
    #[serde(default)]
    amount: String,
}

/// Why a call did not answer a payment.
enum CallError {
    /// bKash answered an error code.
    Code(String),
    Gateway(GatewayError),
}

impl From<GatewayError> for CallError {
    fn from(err: GatewayError) -> Self {
        CallError::Gateway(err)
    }
}

impl From<reqwest::Error> for CallError {
    fn from(err: reqwest::Error) -> Self {
        CallError::Gateway(err.into())
    }
}

impl Bkash {
    /// A merchant at `base` (`.../v1.2.0-beta`).
    pub fn new(
        base: &str,
        app_key: &str,
        app_secret: String,
        username: &str,
        password: String,
        callback_base: &str,
    ) -> anyhow::Result<Bkash> {
        endpoint(base, "/tokenized/checkout/create")?;
        Ok(Bkash {
            base: base.trim_end_matches('/').to_string(),
            app_key: Secret(app_key.to_string()),
            app_secret: Secret(app_secret),
            username: username.to_string(),
            password: Secret(password),
            callback_url: format!("{callback_base}/api/bkash/callback"),
            token: tokio::sync::Mutex::new(None),
            created: Mutex::new(HashMap::new()),
        })
    }

    fn url(&self, path: &str) -> Result<reqwest::Url, GatewayError> {
        endpoint(&self.base, path).map_err(|e| GatewayError::Down(e.to_string()))
    }

    /// The `paymentID` bKash gave the attempt `tran_id`, once: the route
    /// records it with the attempt so that it can be asked about later.
    pub fn take_payment_id(&self, tran_id: &str) -> Option<String> {
        self.created
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(tran_id)
    }

    /// An id token to call with: the one held while it is fresh, else a
    /// refreshed one, else a new grant.
    async fn id_token(&self, http: &reqwest::Client) -> Result<String, GatewayError> {
        let mut held = self.token.lock().await;
        if let Some(token) = held.as_ref() {
            if Instant::now() < token.renew_at {
                return Ok(token.id_token.clone());
            }
        }
        let refreshed = match held.as_ref() {
            Some(old) if !old.refresh_token.is_empty() => {
                self.grant(http, Some(&old.refresh_token)).await.ok()
            }
            _ => None,
        };
        let token = match refreshed {
            Some(token) => token,
            None => self.grant(http, None).await?,
        };
        let id_token = token.id_token.clone();
        *held = Some(token);
        Ok(id_token)
    }

    /// Forgets the token held (bKash refused it).
    async fn forget_token(&self) {
        *self.token.lock().await = None;
    }

    /// `token/grant`, or `token/refresh` with `refresh`.
    async fn grant(
        &self,
        http: &reqwest::Client,
        refresh: Option<&str>,
    ) -> Result<Token, GatewayError> {
        let (path, mut body) = match refresh {
            Some(_) => ("/tokenized/checkout/token/refresh", json!({})),
            None => ("/tokenized/checkout/token/grant", json!({})),
        };
        body["app_key"] = json!(self.app_key.0);
        body["app_secret"] = json!(self.app_secret.0);
        if let Some(refresh_token) = refresh {
            body["refresh_token"] = json!(refresh_token);
        }
        let granted: Granted = ask(http
            .post(self.url(path)?)
            .header("username", &self.username)
            .header("password", &self.password.0)
            .header("Accept", "application/json")
            .json(&body))
        .await?;
        if let Some(error) = granted.status.error() {
            return Err(GatewayError::Refused(error));
        }
        if granted.id_token.is_empty() {
            return Err(GatewayError::Refused(format!(
                "no token granted {}",
                granted.status.message
            )));
        }
        let life = Duration::from_secs(granted.expires_in.unwrap_or(3600).max(1));
        Ok(Token {
            id_token: granted.id_token,
            refresh_token: granted.refresh_token,
            renew_at: Instant::now() + life.mul_f64(0.9),
        })
    }

    /// Posts `body` to `path` with the id token; a refused token is
    /// forgotten and the call made once more with a new one.
    async fn call<T: DeserializeOwned>(
        &self,
        http: &reqwest::Client,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<T, GatewayError> {
        let url = self.url(path)?;
        for attempt in 0..2 {
            let token = self.id_token(http).await?;
            let response = http
                .post(url.clone())
                .header("Authorization", token)
                .header("X-APP-Key", &self.app_key.0)
                .header("Accept", "application/json")
                .json(body)
                .send()
                .await?;
            let status = response.status();
            if status == reqwest::StatusCode::UNAUTHORIZED
                || status == reqwest::StatusCode::FORBIDDEN
            {
                self.forget_token().await;
                if attempt == 0 {
                    continue;
                }
                return Err(GatewayError::Refused(format!(
                    "token refused: HTTP {status}"
                )));
            }
            if status.is_server_error() {
                return Err(server_error(status));
            }
            return Ok(response.json().await?);
        }
        Err(GatewayError::Refused("token refused".into()))
    }

    /// `execute`, or `payment/status` (query): the payment as bKash sees it.
    async fn payment(
        &self,
        http: &reqwest::Client,
        path: &str,
        payment_id: &str,
    ) -> Result<Payment, CallError> {
        let payment: Payment = self
            .call(http, path, &json!({ "paymentID": payment_id }))
            .await?;
        match payment.status.error() {
            Some(code) => Err(CallError::Code(code)),
            None => Ok(payment),
        }
    }

    /// What a payment bKash describes means for its attempt; `None` when it
    /// is not final or not ours.
    fn outcome(payment: Payment, payment_id: &str) -> Option<Outcome> {
        if payment.payment_id != payment_id || payment.merchant_invoice_number.is_empty() {
            return None;
        }
        let tran_id = payment.merchant_invoice_number;
        match payment.transaction_status.as_str() {
            "Completed" => Some(Outcome::Validated {
                tran_id,
                amount: if payment.currency.is_empty() || payment.currency == "BDT" {
                    parse_taka(&payment.amount).unwrap_or(-1)
                } else {
                    -1
                },
                gateway_ref: payment.trx_id,
            }),
            "Cancelled" => Some(Outcome::Cancelled { tran_id }),
            "Failed" | "Declined" | "Expired" => Some(Outcome::Failed { tran_id }),
            _ => None,
        }
    }
}

impl Gateway for Bkash {
    const NAME: &'static str = "bkash";
    const LABEL: &'static str = "bKash";
    /// bKash's `paymentID`.
    type Reference = str;

    async fn start(
        &self,
        http: &reqwest::Client,
        checkout: &Checkout,
    ) -> Result<String, GatewayError> {
        let body = json!({
            "mode": "0011",
            "payerReference": checkout.order_random,
            "callbackURL": self.callback_url,
            "amount": checkout.amount.to_string(),
            "currency": "BDT",
            "intent": "sale",
            "merchantInvoiceNumber": checkout.tran_id,
        });
        let created: Created = self.call(http, "/tokenized/checkout/create", &body).await?;
        if let Some(error) = created.status.error() {
            return Err(GatewayError::Refused(error));
        }
        if created.payment_id.is_empty() || !created.bkash_url.starts_with("http") {
            return Err(GatewayError::Down("create answered no payment".into()));
        }
        self.created
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(checkout.tran_id.clone(), created.payment_id);
        Ok(created.bkash_url)
    }

    /// Executes the payment; when execute fails (already called, already
    /// completed, refused, timed out), queries it.
    async fn verify(
        &self,
        http: &reqwest::Client,
        payment_id: &str,
    ) -> Result<Option<Outcome>, GatewayError> {
        match self
            .payment(http, "/tokenized/checkout/execute", payment_id)
            .await
        {
            Ok(payment) if payment.transaction_status == "Completed" => {
                return Ok(Self::outcome(payment, payment_id));
            }
            Ok(_) => {}
            Err(CallError::Code(code)) => {
                tracing::info!(gateway = "bkash", code, "execute refused; querying");
            }
            Err(CallError::Gateway(err)) => {
                tracing::warn!(gateway = "bkash", error = %err, "execute failed; querying");
            }
        }
        match self
            .payment(http, "/tokenized/checkout/payment/status", payment_id)
            .await
        {
            Ok(payment) => Ok(Self::outcome(payment, payment_id)),
            Err(CallError::Code(code)) => {
                tracing::warn!(gateway = "bkash", code, "query refused");
                Ok(None)
            }
            Err(CallError::Gateway(err)) => Err(err),
        }
    }

    const REFUNDS: bool = true;

    async fn refund(
        &self,
        http: &reqwest::Client,
        refund: &Refund,
    ) -> Result<RefundState, GatewayError> {
        if refund.session.is_empty() || refund.gateway_ref.is_empty() {
            return Err(GatewayError::Refused(
                "the payment's paymentID or trxID is not known".into(),
            ));
        }
        let reason: String = refund.reason.chars().take(255).collect();
        let body = json!({
            "paymentID": refund.session,
            "amount": refund.amount.to_string(),
            "trxID": refund.gateway_ref,
            "sku": refund.tran_id,
            "reason": if reason.is_empty() { "Refund".to_string() } else { reason },
        });
        let refunded: Refunded = self
            .call(http, "/tokenized/checkout/payment/refund", &body)
            .await?;
        if let Some(error) = refunded.status.error() {
            return Err(GatewayError::Refused(error));
        }
        if refunded.transaction_status != "Completed" || refunded.refund_trx_id.is_empty() {
            return Err(GatewayError::Refused(format!(
                "refund not completed: {}",
                refunded.transaction_status
            )));
        }
        Ok(RefundState::Refunded(refunded.refund_trx_id))
    }

    /// bKash's refund status: the payment's last refund.
    async fn refund_status(
        &self,
        http: &reqwest::Client,
        refund: &Refund,
    ) -> Result<RefundState, GatewayError> {
        if refund.session.is_empty() || refund.gateway_ref.is_empty() {
            return Err(GatewayError::Refused(
                "the payment's paymentID or trxID is not known".into(),
            ));
        }
        let body = json!({ "paymentID": refund.session, "trxID": refund.gateway_ref });
        let found: Refunded = self
            .call(http, "/tokenized/checkout/payment/refund", &body)
            .await?;
        if let Some(error) = found.status.error() {
            if error.starts_with("2071") {
                // No refund of this payment at all.
                return Ok(RefundState::NotDone(format!(
                    "bKash refund status: {error}"
                )));
            }
            return Err(GatewayError::Refused(format!("refund status: {error}")));
        }
        let last = found.refund_trx_id;
        if last.is_empty() {
            return Err(GatewayError::Down("refund status named no refund".into()));
        }
        if refund.earlier_refs.contains(&last) {
            return Ok(RefundState::NotDone(
                "bKash's last refund of the payment is one asked for before this one".into(),
            ));
        }
        let ours = !refund.later_refs.contains(&last)
            && (refund.refund_ref.is_empty() || refund.refund_ref == last)
            && parse_taka(&found.amount) == Some(refund.amount);
        if !ours {
            return Err(GatewayError::Refused(format!(
                "bKash's last refund of the payment ({last}) is not this one and may hide it: \
                 check the merchant panel"
            )));
        }
        Ok(if found.transaction_status == "Completed" {
            RefundState::Refunded(last)
        } else {
            RefundState::Processing(last)
        })
    }
}

/// Records the `paymentID` bKash gave a new attempt, so that it can be
/// settled without its callback ([`recheck`]).
pub async fn record_payment_id(pool: &Pool, gateway: &Bkash, tran_id: &str) -> ApiResult<()> {
    if let Some(payment_id) = gateway.take_payment_id(tran_id) {
        db::query(
            "UPDATE payment SET gateway_ref = $2, session = $2 WHERE tran_id = $1 \
             AND gateway = 'bkash' AND status = 'initiated'",
        )
        .bind(tran_id)
        .bind(payment_id)
        .execute(pool)
        .await?;
    }
    Ok(())
}

/// Settles the bKash attempt `tran_id` without its callback (lost or late):
/// executes or queries its payment and applies what bKash vouches for.
/// `Unconfirmed` for an attempt that is not waiting or not bKash's.
pub async fn recheck(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &Bkash,
    tran_id: &str,
    now: i64,
) -> ApiResult<Confirmed> {
    let payment_id: Option<String> = db::query_scalar(
        "SELECT gateway_ref FROM payment WHERE tran_id = $1 AND gateway = 'bkash' \
         AND status = 'initiated'",
    )
    .bind(tran_id)
    .fetch_optional(pool)
    .await?;
    match payment_id.filter(|p| !p.is_empty()) {
        Some(payment_id) => confirm(pool, http, gateway, &payment_id, Some(tran_id), now).await,
        None => Ok(Confirmed::Unconfirmed),
    }
}
