//! The card gateway, in SSLCommerz's protocol (API v4):
//! - session: `POST {base}/gwprocess/v4/api.php` (form) with the store's id
//!   and password, `tran_id`, `total_amount`, the success/fail/cancel/IPN
//!   URLs and the customer; answers `{status: SUCCESS, GatewayPageURL}`;
//! - the gateway then posts the shopper's browser back to one of those URLs
//!   and notifies the IPN URL, with `tran_id` and (when paid) `val_id`. None
//!   of that is believed: the server asks the validation API
//!   (`GET {base}/validator/api/validationserverAPI.php?val_id=...`), or, for
//!   a return without a `val_id`, the transaction query API
//!   (`merchantTransIDvalidationAPI.php?tran_id=...`).
//!
//! Refunds (full or partial): the same transaction API with
//! `refund_amount`, `bank_tran_id`, `refund_remarks` and `refe_id` (our
//! refund's id) answers `{APIConnect: DONE, status: success|processing,
//! refund_ref_id}`, or `status: failed` with `errorReason`.
//!
//! EMI: `emi_option=1` and `emi_max_inst_option` when the shopper asked for
//! instalments and the order allows them.

use serde::Deserialize;

use super::gateway::{endpoint, parse_taka, Checkout, Gateway, GatewayError, Refund};
use super::Outcome;
use crate::config::Secret;

/// One configured SSLCommerz store.
#[derive(Debug, Clone)]
pub struct SslCommerz {
    session_url: reqwest::Url,
    validation_url: reqwest::Url,
    query_url: reqwest::Url,
    store_id: String,
    store_password: Secret,
    /// `{callback base}/sslcommerz`: where the gateway sends shoppers back.
    return_base: String,
}

/// What identifies an attempt to SSLCommerz's APIs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// The validation id the gateway gave a paid attempt.
    ValId(String),
    /// The shop's transaction id.
    TranId(String),
}

impl SslCommerz {
    /// A store at `base` (`https://sandbox.sslcommerz.com`).
    pub fn new(
        base: &str,
        store_id: &str,
        store_password: String,
        callback_base: &str,
    ) -> anyhow::Result<SslCommerz> {
        Ok(SslCommerz {
            session_url: endpoint(base, "/gwprocess/v4/api.php")?,
            validation_url: endpoint(base, "/validator/api/validationserverAPI.php")?,
            query_url: endpoint(base, "/validator/api/merchantTransIDvalidationAPI.php")?,
            store_id: store_id.to_string(),
            store_password: Secret(store_password),
            return_base: format!("{callback_base}/sslcommerz"),
        })
    }

    fn credentials(&self) -> [(&'static str, &str); 3] {
        [
            ("store_id", self.store_id.as_str()),
            ("store_passwd", self.store_password.0.as_str()),
            ("format", "json"),
        ]
    }
}

#[derive(Debug, Deserialize)]
struct SessionAnswer {
    #[serde(default)]
    status: String,
    #[serde(default, rename = "GatewayPageURL")]
    gateway_page_url: String,
    #[serde(default)]
    failedreason: String,
}

/// A validated transaction, as the validation and query APIs describe it.
#[derive(Debug, Deserialize)]
struct Transaction {
    #[serde(default)]
    status: String,
    #[serde(default)]
    tran_id: String,
    #[serde(default)]
    val_id: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    currency: String,
    #[serde(default)]
    bank_tran_id: String,
}

/// What the refund API answers.
#[derive(Debug, Deserialize)]
struct RefundAnswer {
    #[serde(default, rename = "APIConnect")]
    api_connect: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    refund_ref_id: String,
    #[serde(default, rename = "errorReason")]
    error_reason: String,
}

#[derive(Debug, Deserialize)]
struct QueryAnswer {
    #[serde(default)]
    element: Vec<Transaction>,
}

impl Transaction {
    /// What this record proves, if anything final.
    fn outcome(&self) -> Option<Outcome> {
        let tran_id = self.tran_id.clone();
        match self.status.to_ascii_uppercase().as_str() {
            "VALID" | "VALIDATED" => {
                // Another currency, or a fraction of a taka, never matches.
                let amount = match self.currency.as_str() {
                    "" | "BDT" => parse_taka(&self.amount).unwrap_or(-1),
                    _ => -1,
                };
                let gateway_ref = if self.bank_tran_id.is_empty() {
                    self.val_id.clone()
                } else {
                    self.bank_tran_id.clone()
                };
                Some(Outcome::Validated {
                    tran_id,
                    amount,
                    gateway_ref,
                })
            }
            "FAILED" => Some(Outcome::Failed { tran_id }),
            "CANCELLED" => Some(Outcome::Cancelled { tran_id }),
            _ => None,
        }
    }
}

impl Gateway for SslCommerz {
    const NAME: &'static str = "sslcommerz";
    const LABEL: &'static str = "The card payment service";
    type Reference = Lookup;

    async fn start(
        &self,
        http: &reqwest::Client,
        checkout: &Checkout,
    ) -> Result<String, GatewayError> {
        let amount = format!("{}.00", checkout.amount);
        let items = checkout.items.to_string();
        let order_id = checkout.order_id.to_string();
        let urls =
            ["success", "fail", "cancel", "ipn"].map(|r| format!("{}/{r}", self.return_base));
        let mut form: Vec<(&str, &str)> = self.credentials().to_vec();
        form.extend([
            ("total_amount", amount.as_str()),
            ("currency", "BDT"),
            ("tran_id", checkout.tran_id.as_str()),
            ("success_url", urls[0].as_str()),
            ("fail_url", urls[1].as_str()),
            ("cancel_url", urls[2].as_str()),
            ("ipn_url", urls[3].as_str()),
            ("cus_name", checkout.customer_name.as_str()),
            ("cus_email", checkout.email.as_str()),
            ("cus_add1", checkout.address.as_str()),
            ("cus_city", checkout.district.as_str()),
            ("cus_country", "Bangladesh"),
            ("cus_phone", checkout.phone.as_str()),
            ("shipping_method", "NO"),
            ("product_name", checkout.product_names.as_str()),
            ("product_category", "Furniture"),
            ("product_profile", "physical-goods"),
            ("num_of_item", items.as_str()),
            ("value_a", checkout.order_random.as_str()),
            ("value_b", order_id.as_str()),
        ]);
        let max_instalments = checkout.emi.map(|e| e.max_instalments.to_string());
        match &max_instalments {
            Some(max) => form.extend([("emi_option", "1"), ("emi_max_inst_option", max.as_str())]),
            None => form.push(("emi_option", "0")),
        }
        let answer = http
            .post(self.session_url.clone())
            .form(&form)
            .send()
            .await?;
        if answer.status().is_server_error() {
            return Err(GatewayError::Down(format!("HTTP {}", answer.status())));
        }
        let answer: SessionAnswer = answer.json().await?;
        if answer.status.eq_ignore_ascii_case("SUCCESS") && !answer.gateway_page_url.is_empty() {
            Ok(answer.gateway_page_url)
        } else {
            Err(GatewayError::Refused(answer.failedreason))
        }
    }

    async fn verify(
        &self,
        http: &reqwest::Client,
        reference: &Lookup,
    ) -> Result<Option<Outcome>, GatewayError> {
        let mut query: Vec<(&str, &str)> = self.credentials().to_vec();
        match reference {
            Lookup::ValId(val_id) => {
                query.extend([("val_id", val_id.as_str()), ("v", "1")]);
                let answer = http
                    .get(self.validation_url.clone())
                    .query(&query)
                    .send()
                    .await?;
                if answer.status().is_server_error() {
                    return Err(GatewayError::Down(format!("HTTP {}", answer.status())));
                }
                let tx: Transaction = answer.json().await?;
                Ok(tx.outcome().filter(|o| !o.tran_id().is_empty()))
            }
            Lookup::TranId(tran_id) => {
                query.push(("tran_id", tran_id.as_str()));
                let answer = http
                    .get(self.query_url.clone())
                    .query(&query)
                    .send()
                    .await?;
                if answer.status().is_server_error() {
                    return Err(GatewayError::Down(format!("HTTP {}", answer.status())));
                }
                let found: QueryAnswer = answer.json().await?;
                let outcomes: Vec<Outcome> = found
                    .element
                    .iter()
                    .filter(|t| &t.tran_id == tran_id)
                    .filter_map(Transaction::outcome)
                    .collect();
                // A paid record wins over failed tries of the same id.
                Ok(outcomes
                    .iter()
                    .find(|o| matches!(o, Outcome::Validated { .. }))
                    .or_else(|| outcomes.first())
                    .cloned())
            }
        }
    }

    const REFUNDS: bool = true;

    async fn refund(
        &self,
        http: &reqwest::Client,
        refund: &Refund,
    ) -> Result<String, GatewayError> {
        if refund.gateway_ref.is_empty() {
            return Err(GatewayError::Refused(
                "the payment's bank_tran_id is not known".into(),
            ));
        }
        let amount = format!("{}.00", refund.amount);
        let reference = refund.id.to_string();
        let remarks: String = refund.reason.chars().take(255).collect();
        let mut query: Vec<(&str, &str)> = self.credentials().to_vec();
        query.extend([
            ("refund_amount", amount.as_str()),
            ("refund_remarks", remarks.as_str()),
            ("bank_tran_id", refund.gateway_ref.as_str()),
            ("refe_id", reference.as_str()),
        ]);
        let answer = http
            .get(self.query_url.clone())
            .query(&query)
            .send()
            .await?;
        if answer.status().is_server_error() {
            return Err(GatewayError::Down(format!("HTTP {}", answer.status())));
        }
        let answer: RefundAnswer = answer.json().await?;
        match answer.status.to_ascii_lowercase().as_str() {
            "success" | "processing" if answer.api_connect == "DONE" => Ok(answer.refund_ref_id),
            _ => Err(GatewayError::Refused(format!(
                "{} {}",
                answer.status, answer.error_reason
            ))),
        }
    }
}
