//! The wallet: Nagad's online checkout (merchant API v-0.2.0), server to
//! server:
//! - `POST {base}/api/dfs/check-out/initialize/{merchantId}/{orderId}` with
//!   `accountNumber`, `dateTime`, `sensitiveData` and `signature`: the JSON
//!   `{merchantId, datetime, orderId, challenge}` encrypted to Nagad's
//!   public key (RSA PKCS#1 v1.5, base64), and SHA256withRSA over that same
//!   JSON by the merchant's private key (base64). Nagad answers
//!   `{sensitiveData, signature}`: `{paymentReferenceId, challenge, ...}`
//!   encrypted to the merchant's key, signed by Nagad's. The answer is
//!   decrypted and its signature verified; an answer that does not verify
//!   (forged, or unsigned) opens nothing;
//! - `POST {base}/api/dfs/check-out/complete/{paymentReferenceId}` with
//!   `{merchantId, orderId, currencyCode: "050", amount, challenge}` sealed
//!   and signed the same way (`challenge`: the one Nagad answered), the
//!   merchant's callback URL and `additionalMerchantInfo`; answers
//!   `callBackUrl`, the wallet page to send the shopper to;
//! - the wallet sends the shopper back to `{callback base}/api/nagad/
//!   receive-nagad-data?payment_ref_id=...&status=...`, which proves
//!   nothing: the server asks `GET {base}/api/dfs/verify/payment/
//!   {paymentRefId}` and believes only that (status `Success`, our merchant
//!   id, the attempt's `orderId`; [`super::settle`] checks the amount).
//!
//! Our `orderId` is the attempt's `tran_id`. Every call carries the headers
//! `X-KM-Api-Version`, `X-KM-IP-V4` and `X-KM-Client-Type`. The keys come
//! from `NAGAD_PG_PUBLIC_KEY` and `NAGAD_MERCHANT_PRIVATE_KEY`: PEM (real
//! line breaks or `\n`), or the bare base64 Nagad hands out; the private
//! key is never logged or shown.

use std::collections::HashMap;
use std::sync::Mutex;

use anyhow::{bail, Context};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use catalog::db::{self, Pool};
use rsa::pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey};
use rsa::pkcs1v15::{Signature, SigningKey, VerifyingKey};
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey};
use rsa::signature::{SignatureEncoding, Signer, Verifier};
use rsa::{Pkcs1v15Encrypt, RsaPrivateKey, RsaPublicKey};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::Sha256;

use super::gateway::{ask, endpoint, json_answer, parse_taka, Checkout, Gateway, GatewayError};
use super::{confirm, Confirmed, Outcome};
use crate::plumbing::error::ApiResult;

/// `X-KM-IP-V4` of the calls no shopper makes (verify, from a return or the
/// expiry sweep): the merchant server's own side of the call. Opening a
/// checkout names the shopper's address ([`Checkout::client_ip`]).
const SERVER_IP: &str = "127.0.0.1";

/// One configured Nagad merchant.
pub struct Nagad {
    base: String,
    merchant_id: String,
    /// The merchant's wallet number (`accountNumber`), when set.
    account_number: Option<String>,
    /// Nagad's payment-gateway key: requests are sealed to it, answers
    /// must be signed by it.
    pg_public: RsaPublicKey,
    /// Signs requests; answers are sealed to it.
    merchant: SigningKey<Sha256>,
    merchant_private: RsaPrivateKey,
    /// `{callback base}/api/nagad/receive-nagad-data`.
    callback_url: String,
    /// Checkouts opened and not yet recorded: `tran_id` -> reference.
    opened: Mutex<HashMap<String, String>>,
}

impl std::fmt::Debug for Nagad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nagad")
            .field("base", &self.base)
            .field("merchant_id", &self.merchant_id)
            .field("callback_url", &self.callback_url)
            .finish_non_exhaustive()
    }
}

/// A key's text as PEM with real line breaks (`\n` escapes undone), or
/// `None` for bare base64 (then its DER).
fn key_text(text: &str) -> Result<Result<String, Vec<u8>>, anyhow::Error> {
    let text = text.trim().replace("\\n", "\n").replace('\r', "");
    if text.contains("-----BEGIN") {
        return Ok(Ok(text));
    }
    let bare: String = text.split_whitespace().collect();
    BASE64
        .decode(bare)
        .map(Err)
        .context("neither PEM nor base64")
}

/// Nagad's public key: SubjectPublicKeyInfo or PKCS#1, PEM or bare base64.
pub fn parse_public_key(text: &str) -> anyhow::Result<RsaPublicKey> {
    let key = match key_text(text).context("NAGAD_PG_PUBLIC_KEY")? {
        Ok(pem) => RsaPublicKey::from_public_key_pem(&pem)
            .or_else(|_| RsaPublicKey::from_pkcs1_pem(&pem))
            .ok(),
        Err(der) => RsaPublicKey::from_public_key_der(&der)
            .or_else(|_| RsaPublicKey::from_pkcs1_der(&der))
            .ok(),
    };
    match key {
        Some(key) => Ok(key),
        None => bail!("NAGAD_PG_PUBLIC_KEY is not an RSA public key"),
    }
}

/// The merchant's private key: PKCS#8 or PKCS#1, PEM or bare base64. The
/// error never quotes the key.
pub fn parse_private_key(text: &str) -> anyhow::Result<RsaPrivateKey> {
    let key = match key_text(text) {
        Ok(Ok(pem)) => RsaPrivateKey::from_pkcs8_pem(&pem)
            .or_else(|_| RsaPrivateKey::from_pkcs1_pem(&pem))
            .ok(),
        Ok(Err(der)) => RsaPrivateKey::from_pkcs8_der(&der)
            .or_else(|_| RsaPrivateKey::from_pkcs1_der(&der))
            .ok(),
        Err(_) => None,
    };
    match key {
        Some(key) => Ok(key),
        None => bail!("NAGAD_MERCHANT_PRIVATE_KEY is not an RSA private key"),
    }
}

/// Nagad's error answer (`{reason, message}`).
#[derive(Debug, Default, Deserialize)]
struct Refusal {
    #[serde(default)]
    reason: String,
    #[serde(default)]
    message: String,
}

/// A sealed, signed answer.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Sealed {
    #[serde(default)]
    sensitive_data: String,
    #[serde(default)]
    signature: String,
    #[serde(flatten)]
    refusal: Refusal,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Initialized {
    #[serde(default)]
    payment_reference_id: String,
    #[serde(default)]
    challenge: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Completed {
    #[serde(default)]
    status: String,
    #[serde(default)]
    call_back_url: String,
    #[serde(flatten)]
    refusal: Refusal,
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

impl Nagad {
    /// A merchant at `base` (Nagad's `.../remote-payment-gateway-1.0`) with
    /// Nagad's public key and the merchant's private key (PEM or base64).
    pub fn new(
        base: &str,
        merchant_id: &str,
        account_number: Option<&str>,
        pg_public_key: &str,
        merchant_private_key: &str,
        callback_base: &str,
    ) -> anyhow::Result<Nagad> {
        endpoint(base, "/api/dfs/verify/payment/x")?;
        let pg_public = parse_public_key(pg_public_key)?;
        let merchant_private = parse_private_key(merchant_private_key)?;
        Ok(Nagad {
            base: base.trim_end_matches('/').to_string(),
            merchant_id: merchant_id.to_string(),
            account_number: account_number.map(str::to_string),
            pg_public,
            merchant: SigningKey::<Sha256>::new(merchant_private.clone()),
            merchant_private,
            callback_url: format!("{callback_base}/api/nagad/receive-nagad-data"),
            opened: Mutex::new(HashMap::new()),
        })
    }

    fn url(&self, path: &str) -> Result<reqwest::Url, GatewayError> {
        endpoint(&self.base, path).map_err(|e| GatewayError::Down(e.to_string()))
    }

    /// `builder` with the headers Nagad asks of every call; `client_ip`:
    /// the shopper's IPv4 address.
    fn request(
        &self,
        builder: reqwest::RequestBuilder,
        client_ip: &str,
    ) -> reqwest::RequestBuilder {
        builder
            .header("X-KM-Api-Version", "v-0.2.0")
            .header("X-KM-IP-V4", client_ip)
            .header("X-KM-Client-Type", "PC_WEB")
            .header("Accept", "application/json")
    }

    /// `(sensitiveData, signature)` for `plain`: sealed to Nagad, signed by
    /// the merchant.
    fn seal(&self, plain: &Value) -> Result<(String, String), GatewayError> {
        let plain = plain.to_string();
        let sealed = self
            .pg_public
            .encrypt(&mut rand::thread_rng(), Pkcs1v15Encrypt, plain.as_bytes())
            .map_err(|e| GatewayError::Refused(format!("sealing the request: {e}")))?;
        let signature = self.merchant.sign(plain.as_bytes());
        Ok((BASE64.encode(sealed), BASE64.encode(signature.to_bytes())))
    }

    /// The plaintext of an answer sealed to the merchant, when Nagad's key
    /// signed it; anything else is not Nagad's answer.
    fn open<T: DeserializeOwned>(&self, sealed: &Sealed) -> Result<T, GatewayError> {
        let not_nagad = |why: &str| GatewayError::Down(format!("answer not from Nagad: {why}"));
        let bytes = BASE64
            .decode(sealed.sensitive_data.trim())
            .map_err(|_| not_nagad("sensitive data is not base64"))?;
        let plain = self
            .merchant_private
            .decrypt(Pkcs1v15Encrypt, &bytes)
            .map_err(|_| not_nagad("sensitive data does not decrypt"))?;
        let signature = BASE64
            .decode(sealed.signature.trim())
            .ok()
            .and_then(|s| Signature::try_from(s.as_slice()).ok())
            .ok_or_else(|| not_nagad("no signature"))?;
        VerifyingKey::<Sha256>::new(self.pg_public.clone())
            .verify(&plain, &signature)
            .map_err(|_| not_nagad("the signature is not Nagad's"))?;
        serde_json::from_slice(&plain).map_err(|_| not_nagad("sensitive data is not its JSON"))
    }

    /// The reference Nagad gave the attempt `tran_id`, once: the route
    /// records it with the attempt so that it can be asked about later.
    pub fn take_reference(&self, tran_id: &str) -> Option<String> {
        self.opened
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(tran_id)
    }
}

fn refused(refusal: &Refusal) -> GatewayError {
    GatewayError::Refused(format!("{} {}", refusal.reason, refusal.message))
}

impl Gateway for Nagad {
    const NAME: &'static str = "nagad";
    const LABEL: &'static str = "Nagad";
    /// Nagad's `paymentReferenceId`.
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
        let (sensitive, signature) = self.seal(&json!({
            "merchantId": self.merchant_id,
            "datetime": now,
            "orderId": checkout.tran_id,
            "challenge": challenge,
        }))?;
        let mut body = json!({
            "dateTime": now,
            "sensitiveData": sensitive,
            "signature": signature,
        });
        if let Some(number) = &self.account_number {
            body["accountNumber"] = json!(number);
        }
        let sealed: Sealed = ask(self
            .request(http.post(url), &checkout.client_ip)
            .json(&body))
        .await?;
        if sealed.sensitive_data.is_empty() && !sealed.refusal.reason.is_empty() {
            return Err(refused(&sealed.refusal));
        }
        let opened: Initialized = self.open(&sealed)?;
        if opened.payment_reference_id.is_empty() || opened.challenge.is_empty() {
            return Err(GatewayError::Down(
                "initialize answered no reference".into(),
            ));
        }
        let mut url = self.url("/api/dfs/check-out/complete/")?;
        url.path_segments_mut()
            .map_err(|_| GatewayError::Down("bad base URL".into()))?
            .pop_if_empty()
            .push(&opened.payment_reference_id);
        let (sensitive, signature) = self.seal(&json!({
            "merchantId": self.merchant_id,
            "orderId": checkout.tran_id,
            "currencyCode": "050",
            "amount": format!("{}.00", checkout.amount),
            "challenge": opened.challenge,
        }))?;
        let body = json!({
            "sensitiveData": sensitive,
            "signature": signature,
            "merchantCallbackURL": self.callback_url,
            "additionalMerchantInfo": { "order_random": checkout.order_random },
        });
        let completed: Completed = ask(self
            .request(http.post(url), &checkout.client_ip)
            .json(&body))
        .await?;
        if !completed.status.eq_ignore_ascii_case("Success") {
            return Err(refused(&completed.refusal));
        }
        if !completed.call_back_url.starts_with("http") {
            return Err(GatewayError::Down("complete answered no page".into()));
        }
        self.opened
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(checkout.tran_id.clone(), opened.payment_reference_id);
        Ok(completed.call_back_url)
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
        let response = self.request(http.get(url), SERVER_IP).send().await?;
        if response.status().is_client_error() {
            // An unknown reference: Nagad vouches for nothing.
            return Ok(None);
        }
        let v: Verified = json_answer(response).await?;
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

/// Records the reference Nagad gave a new attempt, so that it can be
/// settled without its callback ([`recheck`]).
pub async fn record_reference(pool: &Pool, gateway: &Nagad, tran_id: &str) -> ApiResult<()> {
    if let Some(reference) = gateway.take_reference(tran_id) {
        db::query(
            "UPDATE payment SET gateway_ref = $2 WHERE tran_id = $1 AND gateway = 'nagad' \
             AND status = 'initiated'",
        )
        .bind(tran_id)
        .bind(reference)
        .execute(pool)
        .await?;
    }
    Ok(())
}

/// Settles the Nagad attempt `tran_id` without its callback (lost or
/// late): verifies its payment and applies what Nagad vouches for.
/// `Unconfirmed` for an attempt that is not waiting or not Nagad's.
pub async fn recheck(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &Nagad,
    tran_id: &str,
    now: i64,
) -> ApiResult<Confirmed> {
    let reference: Option<String> = db::query_scalar(
        "SELECT gateway_ref FROM payment WHERE tran_id = $1 AND gateway = 'nagad' \
         AND status = 'initiated'",
    )
    .bind(tran_id)
    .fetch_optional(pool)
    .await?;
    match reference.filter(|r| !r.is_empty()) {
        Some(reference) => confirm(pool, http, gateway, &reference, Some(tran_id), now).await,
        None => Ok(Confirmed::Unconfirmed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::pkcs8::{EncodePrivateKey, EncodePublicKey, LineEnding};

    #[test]
    fn keys_are_read_as_pem_escaped_pem_or_bare_base64_and_never_quoted() {
        let private = RsaPrivateKey::new(&mut rand::thread_rng(), 1024).unwrap();
        let public = RsaPublicKey::from(&private);
        let pem = public.to_public_key_pem(LineEnding::LF).unwrap();
        assert_eq!(parse_public_key(&pem).unwrap(), public);
        assert_eq!(parse_public_key(&pem.replace('\n', "\\n")).unwrap(), public);
        let bare: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        assert_eq!(parse_public_key(&bare).unwrap(), public);
        let secret = private.to_pkcs8_pem(LineEnding::CRLF).unwrap().to_string();
        assert_eq!(parse_private_key(&secret).unwrap(), private);
        assert_eq!(
            parse_private_key(&secret.replace("\r\n", "\\n")).unwrap(),
            private
        );
        let broken = secret.replace("MII", "XYZ");
        let error = format!("{:#}", parse_private_key(&broken).unwrap_err());
        assert!(!error.contains("XYZ"), "{error}");
        assert!(parse_public_key("not a key").is_err());
    }
}
