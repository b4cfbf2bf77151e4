//! The one interface every payment gateway speaks ([`Gateway`]). A gateway does two
//! things only: open a checkout for an attempt recorded by
//! [`super::begin`], and say, server to server, what became of an attempt.
//! What a verified answer does to the order is [`super::settle`]'s business.

use std::future::Future;
use std::time::Duration;

use anyhow::Context;

use super::Outcome;

/// How long one call to a gateway may take.
pub const GATEWAY_TIMEOUT: Duration = Duration::from_secs(15);

/// What a gateway needs to open a checkout: the attempt and the order's
/// customer, read from the database (never from the client).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkout {
    pub tran_id: String,
    /// Taka to pay now.
    pub amount: i64,
    pub order_id: i64,
    pub order_random: String,
    pub customer_name: String,
    pub phone: String,
    pub email: String,
    pub address: String,
    pub district: String,
    /// The ordered products' names, comma-joined.
    pub product_names: String,
    /// Units ordered.
    pub items: i64,
    /// Card instalments the shopper asked for and the order allows.
    pub emi: Option<Emi>,
    /// The shopper's IPv4 address as the origin sees it (the first
    /// `X-Forwarded-For` the edge sets; [`client_ipv4`]): Nagad's
    /// `X-KM-IP-V4`.
    pub client_ip: String,
}

/// The shopper's address for a gateway that asks for an IPv4 one (Nagad's
/// `X-KM-IP-V4`): `client` as the origin derives it for its throttles
/// (`crate::plumbing::ratelimit::client`: the first `X-Forwarded-For`, or
/// "direct"), an IPv4-mapped IPv6 address as IPv4; anything else (no edge in
/// front, a plain IPv6 address) is the loopback address the origin was
/// called from.
pub fn client_ipv4(client: &str) -> String {
    match client.trim().parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(v4)) => v4.to_string(),
        Ok(std::net::IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => "127.0.0.1".to_string(),
        },
        Err(_) => "127.0.0.1".to_string(),
    }
}

/// Card instalments (EMI) offered at the card gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Emi {
    /// The most instalments the shopper may choose.
    pub max_instalments: i64,
}

/// A gateway that could not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    /// Unreachable, timed out, or answered something that is not its protocol.
    #[error("the gateway is unreachable or answered nonsense: {0}")]
    Down(String),
    /// The gateway answered and said no (bad credentials, refused amount).
    #[error("the gateway refused: {0}")]
    Refused(String),
    /// The gateway could not be connected to, or said it is unavailable
    /// (HTTP 503): nothing was done there. Unlike [`GatewayError::Down`]
    /// (a timeout, a lost or garbled answer), where it may have been.
    #[error("the gateway is unavailable: {0}")]
    Unavailable(String),
}

impl From<reqwest::Error> for GatewayError {
    fn from(err: reqwest::Error) -> Self {
        // Never log a URL: it may carry the store password.
        let connect = err.is_connect();
        let text = err.without_url().to_string();
        if connect {
            GatewayError::Unavailable(text)
        } else {
            GatewayError::Down(text)
        }
    }
}

/// A gateway's 5xx answer: 503 says nothing was done
/// ([`GatewayError::Unavailable`]); any other (a 504 timeout, a 500) leaves
/// it unknown ([`GatewayError::Down`]).
pub fn server_error(status: reqwest::StatusCode) -> GatewayError {
    if status == reqwest::StatusCode::SERVICE_UNAVAILABLE {
        GatewayError::Unavailable(format!("HTTP {status}"))
    } else {
        GatewayError::Down(format!("HTTP {status}"))
    }
}

/// Reads a gateway's JSON answer; a 5xx is the gateway down ([`server_error`]).
/// A 4xx is read into `T` like a 2xx: gateways put their refusals in the body.
pub async fn json_answer<T: serde::de::DeserializeOwned>(
    response: reqwest::Response,
) -> Result<T, GatewayError> {
    if response.status().is_server_error() {
        return Err(server_error(response.status()));
    }
    Ok(response.json().await?)
}

/// Sends `request` and reads its JSON answer ([`json_answer`]).
pub async fn ask<T: serde::de::DeserializeOwned>(
    request: reqwest::RequestBuilder,
) -> Result<T, GatewayError> {
    json_answer(request.send().await?).await
}

/// A payment gateway: card (SSLCommerz's style) or wallet (Nagad's style).
pub trait Gateway: Sync {
    /// The name stored with each attempt (`payment.gateway`).
    const NAME: &'static str;
    /// The name shown to shoppers.
    const LABEL: &'static str;
    /// What names an attempt when asking the gateway about it.
    type Reference: Sync + ?Sized;

    /// Opens a checkout at the gateway; answers the page to send the shopper to.
    fn start(
        &self,
        http: &reqwest::Client,
        checkout: &Checkout,
    ) -> impl Future<Output = Result<String, GatewayError>> + Send;

    /// Asks the gateway, server to server, what became of an attempt.
    /// `None` when the gateway vouches for nothing final (an unknown
    /// reference, or a payment still under way).
    fn verify(
        &self,
        http: &reqwest::Client,
        reference: &Self::Reference,
    ) -> impl Future<Output = Result<Option<Outcome>, GatewayError>> + Send;

    /// Whether money can be given back through this gateway's API; when
    /// not, a refund is left to the operator (`payment_refund.status`
    /// `operator`).
    const REFUNDS: bool = false;

    /// Gives back `refund.amount` taka of a validated payment; answers what
    /// the gateway said (done, or still processing, with its id of the
    /// refund). `Down` is an answer lost: the gateway may have done it, so
    /// the refund is asked about ([`Gateway::refund_status`]), never asked
    /// for again. Only called when [`Gateway::REFUNDS`].
    fn refund(
        &self,
        http: &reqwest::Client,
        refund: &Refund,
    ) -> impl Future<Output = Result<RefundState, GatewayError>> + Send {
        let _ = (http, refund);
        async { Err(GatewayError::Refused("refunds are not offered".into())) }
    }

    /// What became of a refund asked for earlier: one still processing
    /// (`refund.refund_ref` is the gateway's id), or one whose answer was
    /// lost (`refund.refund_ref` empty). `Err(Refused)` when the gateway
    /// cannot say.
    fn refund_status(
        &self,
        http: &reqwest::Client,
        refund: &Refund,
    ) -> impl Future<Output = Result<RefundState, GatewayError>> + Send {
        let _ = (http, refund);
        async { Err(GatewayError::Refused("refund status is not offered".into())) }
    }
}

/// What a gateway says about a refund.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundState {
    /// Given back; the gateway's id of the refund.
    Refunded(String),
    /// Taken, not finished yet (SSLCommerz's `processing`); its id.
    Processing(String),
    /// Not given back (refused, failed, or never received): why.
    NotDone(String),
}

/// One refund to ask of a gateway, read from the database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    /// Our id of the refund (`payment_refund.id`), sent where the gateway
    /// takes a reference.
    pub id: i64,
    /// Taka to give back.
    pub amount: i64,
    /// Why, in the operator's words (or the shop's, when automatic).
    pub reason: String,
    /// The attempt's transaction id (our invoice number at the gateway).
    pub tran_id: String,
    /// The gateway's transaction id of the payment (bKash's `trxID`,
    /// SSLCommerz's `bank_tran_id`).
    pub gateway_ref: String,
    /// The gateway's id of the checkout (bKash's `paymentID`).
    pub session: String,
    /// The order's number.
    pub order_random: String,
    /// The gateway's id of this refund, once it answered one (empty when
    /// not asked yet or its answer was lost).
    pub refund_ref: String,
    /// The gateway's ids of the payment's refunds asked for before this
    /// one, and after it: a refund the gateway reports with one of these is
    /// not this one.
    pub earlier_refs: Vec<String>,
    pub later_refs: Vec<String>,
}

/// Whole taka from a gateway's decimal amount ("1250", "1250.00"); `None`
/// for anything else, fractions of a taka included.
pub fn parse_taka(text: &str) -> Option<i64> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b == b'0')
    {
        return None;
    }
    whole.parse().ok()
}

/// A URL under `base` that must parse (settings are checked at start).
pub(crate) fn endpoint(base: &str, path: &str) -> anyhow::Result<reqwest::Url> {
    let url = format!("{}{path}", base.trim_end_matches('/'));
    reqwest::Url::parse(&url).with_context(|| format!("gateway URL {url}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_taka_amounts_parse() {
        assert_eq!(parse_taka("1250"), Some(1250));
        assert_eq!(parse_taka(" 1250.00 "), Some(1250));
        assert_eq!(parse_taka("1250.50"), None);
        assert_eq!(parse_taka("-5"), None);
        assert_eq!(parse_taka("1e3"), None);
        assert_eq!(parse_taka(""), None);
        assert_eq!(parse_taka(".00"), None);
    }
}
