//! The wallet, in the shape of Nagad's online checkout API:
//! - `POST {base}/api/dfs/check-out/initialize/{merchantId}/{orderId}` opens
//!   a checkout and answers a `paymentReferenceId` and the challenge it was
//!   sent;
//! - `POST {base}/api/dfs/check-out/complete/{paymentReferenceId}` fixes the
//!   amount and the merchant's callback URL, and answers `callBackUrl`, the
//!   wallet page to send the shopper to;
//! - the wallet sends the shopper back to
//!   `{callback base}/api/nagad/receive-nagad-data?payment_ref_id=...`, which
//!   proves nothing: the server asks
//!   `GET {base}/api/dfs/verify/payment/{paymentRefId}` and believes only that.
//!
//! Our `orderId` is the attempt's `tran_id`. The merchant authenticates with
//! its key in the `X-KM-Api-Key` header; the live Nagad API wraps these
//! fields in RSA-encrypted, signed `sensitiveData` instead, which this client
//! does not do.

use serde::Deserialize;
use serde_json::json;

use super::gateway::{endpoint, parse_taka, Checkout, Gateway, GatewayError};
use super::Outcome;
use crate::config::Secret;

/// One configured Nagad merchant.
#[derive(Debug, Clone)]
pub struct Nagad {
    base: String,
    merchant_id: String,
    merchant_key: Secret,
    /// `{callback base}/api/nagad/receive-nagad-data`.
    callback_url: String,
}

impl Nagad {
    /// A merchant at `base` (Nagad's `.../remote-payment-gateway-1.0`).
    pub fn new(
        base: &str,
        merchant_id: &str,
        merchant_key: String,
        callback_base: &str,
    ) -> anyhow::Result<Nagad> {
        endpoint(base, "/api/dfs/verify/payment/x")?;
        Ok(Nagad {
            base: base.trim_end_matches('/').to_string(),
            merchant_id: merchant_id.to_string(),
            merchant_key: Secret(merchant_key),
            callback_url: format!("{callback_base}/api/nagad/receive-nagad-data"),
        })
    }

    fn url(&self, path: &str) -> Result<reqwest::Url, GatewayError> {
        endpoint(&self.base, path).map_err(|e| GatewayError::Down(e.to_string()))
    }

    fn request(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        builder
            .header("X-KM-Api-Version", "v-0.2.0")
            .header("X-KM-Client-Type", "PC_WEB")
            .header("X-KM-Api-Key", &self.merchant_key.0)
    }
}

/// Reads a JSON answer; a 5xx means the wallet is down.
async fn answer<T: serde::de::DeserializeOwned>(
    response: reqwest::Response,
) -> Result<T, GatewayError> {
    if response.status().is_server_error() {
        return Err(GatewayError::Down(format!("HTTP {}", response.status())));
    }
    Ok(response.json().await?)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Initialized {
    #[serde(default)]
    payment_reference_id: String,
    #[serde(default)]
    challenge: String,
    #[serde(default)]
    message: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Completed {
    #[serde(default)]
    status: String,
    #[serde(default)]
    call_back_url: String,
    #[serde(default)]
    message: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Verified {
    #[serde(default)]
    merchant_id: String,
    #[serde(default)]
    order_id: String,
    #[serde(default)]
    payment_ref_id: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    issuer_payment_ref_no: String,
}

impl Gateway for Nagad {
    const NAME: &'static str = "nagad";
    const LABEL: &'static str = "Nagad";
    type Reference = str;

    async fn start(
        &self,
        http: &reqwest::Client,
        checkout: &Checkout,
    ) -> Result<String, GatewayError> {
        let challenge = crate::domain::identity::new_token().0[..40].to_string();
        let now = catalog::clock::in_dhaka(catalog::clock::now_unix())
            .format("%Y%m%d%H%M%S")
            .to_string();
        let url = self.url(&format!(
            "/api/dfs/check-out/initialize/{}/{}",
            self.merchant_id, checkout.tran_id
        ))?;
        let body = json!({
            "merchantId": self.merchant_id,
            "orderId": checkout.tran_id,
            "datetime": now,
            "challenge": challenge,
        });
        let opened: Initialized =
            answer(self.request(http.post(url)).json(&body).send().await?).await?;
        if opened.payment_reference_id.is_empty() {
            return Err(GatewayError::Refused(opened.message));
        }
        if opened.challenge != challenge {
            return Err(GatewayError::Down("the challenge came back changed".into()));
        }
        let url = self.url(&format!(
            "/api/dfs/check-out/complete/{}",
            opened.payment_reference_id
        ))?;
        let body = json!({
            "merchantId": self.merchant_id,
            "orderId": checkout.tran_id,
            "currencyCode": "050",
            "amount": format!("{}.00", checkout.amount),
            "challenge": challenge,
            "merchantCallbackURL": self.callback_url,
            "additionalMerchantInfo": { "order_random": checkout.order_random },
        });
        let completed: Completed =
            answer(self.request(http.post(url)).json(&body).send().await?).await?;
        if completed.status.eq_ignore_ascii_case("Success") && !completed.call_back_url.is_empty() {
            Ok(completed.call_back_url)
        } else {
            Err(GatewayError::Refused(completed.message))
        }
    }

    async fn verify(
        &self,
        http: &reqwest::Client,
        payment_ref_id: &str,
    ) -> Result<Option<Outcome>, GatewayError> {
        let mut url = self.url("/api/dfs/verify/payment/")?;
        url.path_segments_mut()
            .map_err(|_| GatewayError::Down("bad base URL".into()))?
            .pop_if_empty()
            .push(payment_ref_id);
        let response = self.request(http.get(url)).send().await?;
        if response.status() == reqwest::StatusCode::NOT_FOUND {
            return Ok(None);
        }
        let v: Verified = answer(response).await?;
        if v.merchant_id != self.merchant_id
            || v.payment_ref_id != payment_ref_id
            || v.order_id.is_empty()
        {
            return Ok(None);
        }
        let tran_id = v.order_id;
        Ok(match v.status.as_str() {
            "Success" => Some(Outcome::Validated {
                tran_id,
                amount: parse_taka(&v.amount).unwrap_or(-1),
                gateway_ref: if v.issuer_payment_ref_no.is_empty() {
                    v.payment_ref_id
                } else {
                    v.issuer_payment_ref_no
                },
            }),
            "Aborted" | "Cancelled" => Some(Outcome::Cancelled { tran_id }),
            "Failed" | "Fraud" | "Rejected" => Some(Outcome::Failed { tran_id }),
            _ => None,
        })
    }
}
