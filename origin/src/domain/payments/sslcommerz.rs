//! The card gateway, in SSLCommerz's protocol (API v4):
//! - session: `POST {base}/gwprocess/v4/api.php` (form) with the store's id
//!   and password, `tran_id`, `total_amount`, the success/fail/cancel/IPN
//!   URLs and the customer; answers `{status: SUCCESS, GatewayPageURL}`;
//! - the gateway then posts the shopper's browser back to one of those URLs
//!   and notifies the IPN URL, with `tran_id` and (when paid) `val_id`. An
//!   IPN must carry SSLCommerz's signature ([`SslCommerz::signed`]: the MD5
//!   of the fields `verify_key` lists, sorted, with the MD5 of the store
//!   password), else it is refused unread. Even a signed post is not
//!   believed: the server asks the validation API
//!   (`GET {base}/validator/api/validationserverAPI.php?val_id=...`), or, for
//!   a return without a `val_id`, the transaction query API
//!   (`merchantTransIDvalidationAPI.php?tran_id=...`).
//!
//! Refunds (full or partial): the same transaction API with
//! `refund_amount`, `bank_tran_id`, `refund_remarks` and `refe_id` (our
//! refund's id) answers `{APIConnect: DONE, status: success|processing,
//! refund_ref_id}`, or `status: failed` with `errorReason`. A refund
//! `processing` is asked about with `refund_ref_id` (the refund query:
//! `status: refunded|processing|cancelled`) until it ends.
//!
//! EMI: `emi_option=1` and `emi_max_inst_option` when the shopper asked for
//! instalments and the order allows them.

use std::collections::{BTreeMap, HashMap};

use md5::{Digest, Md5};
use serde::Deserialize;

use super::gateway::{
    ask, endpoint, parse_taka, Checkout, Gateway, GatewayError, Refund, RefundState,
};
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

    /// Whether `fields` (an IPN's) carry SSLCommerz's `verify_sign`, as
    /// SSLCommerz documents it: the MD5 (hex) of `key=value` joined by `&`,
    /// sorted by key, over the fields `verify_key` lists (comma-separated)
    /// plus `store_passwd` = MD5 of the store password. The fields the shop
    /// reads (`tran_id`, `status`, `amount`, and `val_id` when there is one)
    /// must be among those signed.
    pub fn signed(&self, fields: &HashMap<String, String>) -> bool {
        let (Some(sign), Some(keys)) = (fields.get("verify_sign"), fields.get("verify_key")) else {
            return false;
        };
        let keys: Vec<&str> = keys
            .split(',')
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .collect();
        let mut needed = vec!["tran_id", "status", "amount"];
        if fields.get("val_id").is_some_and(|v| !v.is_empty()) {
            needed.push("val_id");
        }
        if !needed.iter().all(|n| keys.contains(n)) {
            return false;
        }
        let mut signed: BTreeMap<&str, &str> = keys
            .iter()
            .filter_map(|k| fields.get(*k).map(|v| (*k, v.as_str())))
            .collect();
        let password = md5_hex(self.store_password.0.as_bytes());
        signed.insert("store_passwd", &password);
        let text = signed
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&");
        let expected = md5_hex(text.as_bytes());
        // Compared whole, in constant time.
        expected.len() == sign.len()
            && expected
                .bytes()
                .zip(sign.to_ascii_lowercase().bytes())
                .fold(0u8, |d, (a, b)| d | (a ^ b))
                == 0
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

/// MD5 (hex, lower case): SSLCommerz signs with it.
fn md5_hex(data: &[u8]) -> String {
    Md5::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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
        let answer: SessionAnswer = ask(http.post(self.session_url.clone()).form(&form)).await?;
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
                let tx: Transaction =
                    ask(http.get(self.validation_url.clone()).query(&query)).await?;
                Ok(tx.outcome().filter(|o| !o.tran_id().is_empty()))
            }
            Lookup::TranId(tran_id) => {
                query.push(("tran_id", tran_id.as_str()));
                let found: QueryAnswer =
                    ask(http.get(self.query_url.clone()).query(&query)).await?;
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
    ) -> Result<RefundState, GatewayError> {
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
        let answer: RefundAnswer = ask(http.get(self.query_url.clone()).query(&query)).await?;
        match answer.status.to_ascii_lowercase().as_str() {
            "success" if answer.api_connect == "DONE" => {
                Ok(RefundState::Refunded(answer.refund_ref_id))
            }
            "processing" if answer.api_connect == "DONE" => {
                Ok(RefundState::Processing(answer.refund_ref_id))
            }
            _ => Err(GatewayError::Refused(format!(
                "{} {}",
                answer.status, answer.error_reason
            ))),
        }
    }

    /// The refund query, by the `refund_ref_id` SSLCommerz answered; a
    /// refund whose answer was lost has none, and cannot be asked about.
    async fn refund_status(
        &self,
        http: &reqwest::Client,
        refund: &Refund,
    ) -> Result<RefundState, GatewayError> {
        if refund.refund_ref.is_empty() {
            return Err(GatewayError::Refused(
                "SSLCommerz's refund query needs the refund_ref_id its lost answer carried: \
                 check the refund in the merchant panel"
                    .into(),
            ));
        }
        let mut query: Vec<(&str, &str)> = self.credentials().to_vec();
        query.push(("refund_ref_id", refund.refund_ref.as_str()));
        let answer: RefundAnswer = ask(http.get(self.query_url.clone()).query(&query)).await?;
        if answer.api_connect != "DONE" {
            return Err(GatewayError::Refused(format!(
                "{} {}",
                answer.api_connect, answer.error_reason
            )));
        }
        let reference = refund.refund_ref.clone();
        Ok(match answer.status.to_ascii_lowercase().as_str() {
            "refunded" | "success" => RefundState::Refunded(reference),
            "processing" | "initiated" => RefundState::Processing(reference),
            _ => RefundState::NotDone(format!(
                "SSLCommerz: {} {}",
                answer.status, answer.error_reason
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> SslCommerz {
        SslCommerz::new(
            "http://127.0.0.1:9",
            "store",
            "pw".into(),
            "https://shop.example",
        )
        .unwrap()
    }

    fn ipn() -> HashMap<String, String> {
        let mut fields: HashMap<String, String> = [
            ("tran_id", "T1"),
            ("status", "VALID"),
            ("amount", "100.00"),
            ("val_id", "V1"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        // The documented recipe, written out: sorted keys, md5 of the password.
        let text = format!(
            "amount=100.00&status=VALID&store_passwd={}&tran_id=T1&val_id=V1",
            md5_hex(b"pw")
        );
        fields.insert("verify_key".into(), "tran_id,status,amount,val_id".into());
        fields.insert("verify_sign".into(), md5_hex(text.as_bytes()));
        fields
    }

    #[test]
    fn md5_is_rfc_1321s() {
        assert_eq!(md5_hex(b"abc"), "900150983cd24fb0d6963f7d28e17f72");
    }

    #[test]
    fn only_a_signature_over_the_fields_read_with_the_store_password_passes() {
        let gateway = store();
        assert!(gateway.signed(&ipn()));
        let mut changed = ipn();
        changed.insert("amount".into(), "10.00".into());
        assert!(!gateway.signed(&changed), "a field changed after signing");
        let mut unsigned = ipn();
        unsigned.remove("verify_sign");
        assert!(!gateway.signed(&unsigned));
        let mut narrow = ipn();
        narrow.insert("verify_key".into(), "status".into());
        assert!(
            !gateway.signed(&narrow),
            "tran_id and val_id must be signed"
        );
        let other =
            SslCommerz::new("http://127.0.0.1:9", "store", "other".into(), "https://x").unwrap();
        assert!(!other.signed(&ipn()), "another store's password");
    }
}
