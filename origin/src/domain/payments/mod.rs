//! Paying an order online. An attempt is recorded (`payment`, status
//! `initiated`) before the shopper leaves for the gateway; the order counts as
//! paid only when [`settle`] is given the gateway's own server-to-server
//! validation of that attempt, with the same transaction id and amount. A
//! browser callback alone proves nothing. Online orders reserve stock when
//! placed, like cash on delivery; a failed or cancelled attempt releases it
//! (once) and cancels the order, so stock is never held by an unpaid order.
//! The cart is kept until the first payment is validated, so a shopper whose
//! payment failed can try again.
//!
//! The gateways speak one interface, [`gateway::Gateway`]: the card gateway
//! in SSLCommerz's protocol ([`sslcommerz`]) and the wallet in Nagad's
//! ([`nagad`]), and bKash's Tokenized Checkout ([`bkash`]); each is on only
//! when configured ([`Gateways`]).
//! [`pay_cart`] places the cart and opens a checkout, [`pay_existing`] opens
//! one for what is left of the caller's own order, and [`confirm`] asks the
//! gateway about an attempt and settles what it vouches for. The routes are in
//! `crate::surfaces::api::payment`.
//!
//! An order whose payment is neither confirmed nor failed within
//! `PAYMENT_EXPIRY_MINUTES` is asked about once more and then cancelled with
//! its stock and coupon use released ([`expiry`]); a payment the gateway
//! confirms after that is `late` and given back at once through the gateway
//! that took it, or left to the operator where the gateway has no refunds
//! ([`refund`], which also serves `origin refund ORDER [AMOUNT]`). So is a
//! payment the gateway confirms for another amount than the attempt asked
//! (`mismatch`): its order is not paid, and what the gateway took goes back.

pub mod bkash;
pub mod expiry;
pub mod gateway;
pub mod nagad;
pub mod refund;
pub mod sslcommerz;

use anyhow::Context;
use catalog::db::{self, begin_write, Conn, Pool};
use catalog::pricing;
use rand::distributions::{Alphanumeric, DistString};

use crate::config::PaymentArgs;
use crate::domain::cart;
use crate::domain::identity::Caller;
use crate::domain::identity::Owner;
use crate::domain::orders::{self, Paying};
use crate::plumbing::error::{ApiError, ApiResult};
use bkash::Bkash;
use gateway::{Checkout, Emi, Gateway, GatewayError, GATEWAY_TIMEOUT};
use nagad::Nagad;
use sslcommerz::SslCommerz;

/// The configured gateways (each `None` when off) and the HTTP client that
/// talks to them.
#[derive(Debug, Default)]
pub struct Gateways {
    pub sslcommerz: Option<SslCommerz>,
    pub nagad: Option<Nagad>,
    pub bkash: Option<Bkash>,
    pub http: reqwest::Client,
    /// Seconds an online order may wait for its payment before it expires;
    /// 0 for [`expiry::DEFAULT_SECS`].
    pub expiry_secs: i64,
}

impl Gateways {
    /// The gateways whose credentials are set. Gateways send shoppers back
    /// to `{base}/...`, where `base` is `--payment-callback-base` or else
    /// `site_url`.
    pub fn from_args(args: &PaymentArgs, site_url: &str) -> anyhow::Result<Gateways> {
        let base = args
            .payment_callback_base
            .as_deref()
            .filter(|b| !b.trim().is_empty())
            .unwrap_or(site_url)
            .trim_end_matches('/');
        fn set(v: &Option<String>) -> Option<&str> {
            v.as_deref().map(str::trim).filter(|v| !v.is_empty())
        }
        let secret = |v: &Option<crate::config::Secret>| {
            v.as_ref()
                .map(|s| s.0.trim())
                .filter(|v| !v.is_empty())
                .map(str::to_string)
        };
        let sslcommerz = match (
            set(&args.sslcommerz_store_id),
            secret(&args.sslcommerz_store_password),
        ) {
            (Some(id), Some(password)) => Some(SslCommerz::new(
                &args.sslcommerz_base_url,
                id,
                password,
                base,
            )?),
            _ => None,
        };
        let nagad = match (
            set(&args.nagad_merchant_id),
            set(&args.nagad_pg_public_key),
            secret(&args.nagad_merchant_private_key),
        ) {
            (Some(id), Some(public), Some(private)) => Some(Nagad::new(
                &args.nagad_base_url,
                id,
                set(&args.nagad_merchant_number),
                public,
                &private,
                base,
            )?),
            _ => None,
        };
        let bkash = match (
            secret(&args.bkash_app_key),
            secret(&args.bkash_app_secret),
            set(&args.bkash_username),
            secret(&args.bkash_password),
        ) {
            (Some(key), Some(app_secret), Some(user), Some(password)) => Some(Bkash::new(
                &args.bkash_base_url,
                &key,
                app_secret,
                user,
                password,
                base,
            )?),
            _ => None,
        };
        Ok(Gateways {
            sslcommerz,
            nagad,
            bkash,
            expiry_secs: i64::try_from(args.payment_expiry_minutes.saturating_mul(60))
                .unwrap_or(i64::MAX),
            http: reqwest::Client::builder()
                .timeout(GATEWAY_TIMEOUT)
                .connect_timeout(GATEWAY_TIMEOUT / 3)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .context("building the HTTP client for payment gateways")?,
        })
    }
}

/// What the gateway's validation said about one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The gateway confirms it received `amount` taka for `tran_id`.
    Validated {
        tran_id: String,
        amount: i64,
        gateway_ref: String,
    },
    /// The payment failed or was refused.
    Failed { tran_id: String },
    /// The shopper cancelled at the gateway.
    Cancelled { tran_id: String },
}

impl Outcome {
    fn tran_id(&self) -> &str {
        match self {
            Outcome::Validated { tran_id, .. }
            | Outcome::Failed { tran_id }
            | Outcome::Cancelled { tran_id } => tran_id,
        }
    }
}

/// Why a payment did not go through, as the shop's `/fail` page is told
/// (`/fail?reason=`): the one list of these codes; the web's FailPage maps
/// each to its words (the generated `FailReason` type).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum FailReason {
    /// The shopper cancelled at the gateway.
    Cancelled,
    /// The gateway (or the shopper's bank or wallet) refused the payment.
    Declined,
    /// The order waited too long for its payment and was cancelled.
    Expired,
    /// The gateway could not be reached, or could not confirm the payment
    /// yet (or the method is off).
    Unavailable,
    /// Anything else: the payment could not be confirmed, or the gateway
    /// reported another amount.
    Failed,
}

impl FailReason {
    /// The code as sent in `/fail?reason=`.
    pub fn code(self) -> &'static str {
        match self {
            FailReason::Cancelled => "cancelled",
            FailReason::Declined => "declined",
            FailReason::Expired => "expired",
            FailReason::Unavailable => "unavailable",
            FailReason::Failed => "failed",
        }
    }

    /// Why an attempt whose status is `status` did not pay.
    fn of_status(status: &str) -> FailReason {
        match status {
            "cancelled" => FailReason::Cancelled,
            "failed" => FailReason::Declined,
            "expired" | "late" => FailReason::Expired,
            "mismatch" => FailReason::Failed,
            _ => FailReason::Failed,
        }
    }
}

/// An attempt's end, as the return pages need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub order_id: i64,
    /// True only when the attempt was validated.
    pub paid: bool,
    /// Why not, when not paid.
    pub reason: Option<FailReason>,
    /// True when the gateway confirmed a payment the order does not take
    /// (its order had expired, or another amount than asked): the money is
    /// to be given back ([`refund::give_back_unowed`]).
    pub late: bool,
}

/// Records an attempt to pay `amount` taka of an unpaid online order through
/// `gateway`; returns the transaction id to send to the gateway.
pub async fn begin(
    pool: &Pool,
    order_id: i64,
    gateway: &str,
    amount: i64,
    now: i64,
) -> ApiResult<String> {
    let mut tx = begin_write(pool).await?;
    let order: Option<(String, i64, i64)> = db::query_as(
        "SELECT payment_term_status, grand_total, amount_paid FROM order_master WHERE id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((status, grand_total, paid)) = order else {
        return Err(ApiError::NotFound("No such order.".into()));
    };
    if status != "Pending" && status != "Partial" {
        return Err(ApiError::Conflict(
            "This order is not waiting for a payment.".into(),
        ));
    }
    if amount <= 0 || amount > grand_total - paid {
        return Err(ApiError::invalid(
            "amount",
            "The amount to pay is out of range.",
        ));
    }
    let tran_id = format!(
        "T{}",
        Alphanumeric.sample_string(&mut rand::thread_rng(), 23)
    );
    db::query(
        "INSERT INTO payment (order_id, gateway, tran_id, amount, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(order_id)
    .bind(gateway)
    .bind(&tran_id)
    .bind(amount)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(tran_id)
}

/// Applies `gateway`'s validation of one of its attempts, in one write
/// transaction. Settling an attempt twice changes nothing the second time. A
/// validation whose amount differs from the attempt's does not pay the order:
/// the attempt becomes `mismatch` with the gateway's reference and the amount
/// it took, to be given back, and the order's history says so.
/// The first validated payment of an order empties its shopper's cart.
pub async fn settle(pool: &Pool, gateway: &str, outcome: &Outcome, now: i64) -> ApiResult<Settled> {
    let mut tx = begin_write(pool).await?;
    let row: Option<(i64, i64, String)> = db::query_as(
        "SELECT order_id, amount, status FROM payment WHERE tran_id = $1 AND gateway = $2",
    )
    .bind(outcome.tran_id())
    .bind(gateway)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((order_id, expected, status)) = row else {
        return Err(ApiError::NotFound("No such payment.".into()));
    };
    if status == "expired" {
        // Paid after its order was cancelled: never lost, given back.
        if let Outcome::Validated {
            amount,
            gateway_ref,
            ..
        } = outcome
        {
            if *amount == expected {
                let marked = db::query(
                    "UPDATE payment SET status = 'late', gateway_ref = $2, updated_at = $3 \
                     WHERE tran_id = $1 AND status = 'expired'",
                )
                .bind(outcome.tran_id())
                .bind(gateway_ref)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                history(
                    &mut tx,
                    order_id,
                    "late_payment",
                    "Online payment confirmed after the order expired; to be refunded",
                    now,
                )
                .await?;
                tx.commit().await?;
                return Ok(Settled {
                    order_id,
                    paid: false,
                    reason: Some(FailReason::Expired),
                    late: marked.rows_affected() == 1,
                });
            }
        }
    }
    if status != "initiated" {
        tx.rollback().await?;
        return Ok(Settled {
            order_id,
            paid: status == "validated",
            reason: (status != "validated").then(|| FailReason::of_status(&status)),
            late: false,
        });
    }
    let (new_status, gateway_ref, reason) = match outcome {
        Outcome::Validated {
            amount,
            gateway_ref,
            ..
        } if *amount == expected => ("validated", gateway_ref.as_str(), None),
        // Paid another amount than asked: not a refusal, money to give back.
        Outcome::Validated {
            amount,
            gateway_ref,
            ..
        } if *amount > 0 => {
            tracing::warn!(
                gateway,
                tran_id = outcome.tran_id(),
                asked = expected,
                confirmed = amount,
                "payment confirmed for another amount; to be refunded"
            );
            db::query("UPDATE payment SET amount = $2 WHERE tran_id = $1")
                .bind(outcome.tran_id())
                .bind(amount)
                .execute(&mut *tx)
                .await?;
            let note = format!(
                "The gateway confirmed {} where {} was asked; to be refunded",
                pricing::taka(*amount),
                pricing::taka(expected)
            );
            history(&mut tx, order_id, "payment_mismatch", &note, now).await?;
            ("mismatch", gateway_ref.as_str(), Some(FailReason::Failed))
        }
        Outcome::Validated { .. } => ("failed", "", Some(FailReason::Failed)),
        Outcome::Cancelled { .. } => ("cancelled", "", Some(FailReason::Cancelled)),
        Outcome::Failed { .. } => ("failed", "", Some(FailReason::Declined)),
    };
    db::query(
        "UPDATE payment SET status = $2, gateway_ref = $3, updated_at = $4 WHERE tran_id = $1",
    )
    .bind(outcome.tran_id())
    .bind(new_status)
    .bind(gateway_ref)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let paid = new_status == "validated";
    if paid {
        let first: bool =
            db::query_scalar("SELECT amount_paid = 0 FROM order_master WHERE id = $1")
                .bind(order_id)
                .fetch_one(&mut *tx)
                .await?;
        if first {
            orders::empty_cart_of_order(&mut tx, order_id).await?;
        }
        db::query(
            "UPDATE order_master SET amount_paid = amount_paid + $2, trans_id = $3, \
             payment_term_status = CASE WHEN amount_paid + $2 >= grand_total \
             THEN 'Successful' ELSE 'Partial' END, updated_at = $4 WHERE id = $1",
        )
        .bind(order_id)
        .bind(expected)
        .bind(outcome.tran_id())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        history(&mut tx, order_id, "paid", "Online payment validated", now).await?;
    } else {
        cancel_unpaid(
            &mut tx,
            order_id,
            "Online payment failed; stock released",
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(Settled {
        order_id,
        paid,
        reason,
        late: new_status == "mismatch",
    })
}

/// Cancels an order still waiting for its payment as [`cancel_unpaid`] does,
/// and expires its open attempts: a payment a gateway confirms for one of
/// them later is `late`, given back ([`refund::give_back_unowed`]), never
/// credited to a cancelled order whose stock went back.
pub(crate) async fn cancel_waiting(
    conn: &mut Conn,
    order_id: i64,
    note: &str,
    now: i64,
) -> sqlx::Result<bool> {
    let cancelled = cancel_unpaid(conn, order_id, note, now).await?;
    if cancelled {
        db::query(
            "UPDATE payment SET status = 'expired', updated_at = $2 WHERE order_id = $1 \
             AND status = 'initiated'",
        )
        .bind(order_id)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(cancelled)
}

/// Cancels `owner`'s orders that wait, unpaid, for an online payment (a
/// gateway page the shopper backed out of), in one write transaction, as
/// [`cancel_waiting`] does: their stock and coupon use go back at once
/// instead of after the expiry, and paying the cart again makes one order,
/// not a second beside the first. How many it cancelled.
async fn cancel_abandoned(pool: &Pool, owner: &Owner, now: i64) -> sqlx::Result<usize> {
    let mut tx = begin_write(pool).await?;
    let waiting: Vec<i64> = db::query_scalar(&format!(
        "SELECT id FROM order_master WHERE {} AND payment_term_status = 'Pending' \
         AND amount_paid = 0 AND order_status <> 'cancelled'",
        owner.matches("", 1)
    ))
    .bind(owner.key())
    .fetch_all(&mut *tx)
    .await?;
    let mut cancelled = 0;
    for order_id in waiting {
        let note = "Paid again from the cart; this order's payment was abandoned, stock released";
        if cancel_waiting(&mut tx, order_id, note, now).await? {
            cancelled += 1;
        }
    }
    tx.commit().await?;
    if cancelled > 0 {
        tracing::info!(
            cancelled,
            "abandoned online orders cancelled before paying the cart again"
        );
    }
    Ok(cancelled)
}

/// Cancels an order still waiting for its payment and puts its reserved
/// units back (pre-booked lines took none) and its coupon use; `note` goes
/// into its history. Does nothing to an order already paid or cancelled;
/// answers whether it cancelled.
async fn cancel_unpaid(conn: &mut Conn, order_id: i64, note: &str, now: i64) -> sqlx::Result<bool> {
    let cancelled = db::query(
        "UPDATE order_master SET payment_term_status = 'Failed', order_status = 'cancelled', \
         updated_at = $2 WHERE id = $1 AND payment_term_status = 'Pending' AND amount_paid = 0",
    )
    .bind(order_id)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if cancelled.rows_affected() == 0 {
        return Ok(false);
    }
    db::query(
        "UPDATE coupon SET used_count = used_count - 1 WHERE used_count > 0 \
         AND coupon_code = (SELECT coupon_code FROM order_master WHERE id = $1)",
    )
    .bind(order_id)
    .execute(&mut *conn)
    .await?;
    let lines: Vec<(i64, Option<i64>, i64)> = db::query_as(
        "SELECT d.product_id, d.variation_id, d.qty FROM order_detail d \
         JOIN product p ON p.id = d.product_id WHERE d.order_id = $1 AND NOT p.pre_booking",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?;
    for (product_id, variation_id, qty) in lines {
        let (table, id) = match variation_id {
            Some(v) => ("product_variation", v),
            None => ("product", product_id),
        };
        db::query(&format!(
            "UPDATE {table} SET stock = stock + $1 WHERE id = $2"
        ))
        .bind(qty)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    }
    history(conn, order_id, "cancelled", note, now).await?;
    Ok(true)
}

async fn history(
    conn: &mut Conn,
    order_id: i64,
    status: &str,
    note: &str,
    now: i64,
) -> sqlx::Result<()> {
    db::query(
        "INSERT INTO order_status_history (order_id, status, note, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4)",
    )
    .bind(order_id)
    .bind(status)
    .bind(note)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A checkout opened at a gateway.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Started {
    pub order_id: i64,
    pub order_random: String,
    pub tran_id: String,
    /// The gateway's page to send the shopper to.
    pub url: String,
    /// The instalments offered, when the shopper asked and the order allows.
    pub emi: Option<Emi>,
}

/// Places the owner's cart as an order waiting for payment by one of
/// `methods` (the cart's choice), records an attempt for what is due now and
/// opens a checkout at `gateway`. `emi`: the most instalments the shopper
/// asked for. When the gateway cannot open it, the order is cancelled and its
/// stock released at once; the cart was never emptied, so nothing is lost.
/// While buying is switched off, a 503.
#[allow(clippy::too_many_arguments)]
pub async fn pay_cart<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    owner: &Owner,
    methods: &[&str],
    emi: Option<i64>,
    client_ip: &str,
    now: i64,
) -> ApiResult<Started> {
    if cart::buying_disabled(pool).await? {
        return Err(cart::buying_disabled_error());
    }
    cancel_abandoned(pool, owner, now).await?;
    let placed = orders::place(pool, owner, Paying::Online(methods), None, now).await?;
    open(
        pool,
        http,
        gateway,
        placed.id,
        placed.pay_now,
        emi,
        true,
        client_ip,
        now,
    )
    .await
}

/// Opens a checkout at `gateway` for what is left to pay of the caller's own
/// order `order_id` (a pending order whose first attempt was abandoned, or
/// a pre-booking paid in part). Another shopper's order is "not found".
pub async fn pay_existing<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    caller: &Caller,
    order_id: i64,
    client_ip: &str,
    now: i64,
) -> ApiResult<Started> {
    let user_id = caller.user.map(|u| u.id);
    let left: Option<i64> = db::query_scalar(
        "SELECT grand_total - amount_paid FROM order_master WHERE id = $1 \
         AND ((user_id IS NOT NULL AND user_id = $2) OR (self_token IS NOT NULL AND self_token = $3))",
    )
    .bind(order_id)
    .bind(user_id)
    .bind(caller.self_token.as_deref())
    .fetch_optional(pool)
    .await?;
    let left = left.ok_or_else(|| ApiError::not_found("You have no order with that id."))?;
    if left <= 0 {
        return Err(ApiError::Conflict("This order is paid in full.".into()));
    }
    open(
        pool, http, gateway, order_id, left, None, false, client_ip, now,
    )
    .await
}

/// Records an attempt and opens its checkout. When the gateway fails, the
/// attempt fails with it; a `fresh` order (just placed from the cart) is
/// cancelled, an older one stays as it was.
#[allow(clippy::too_many_arguments)]
async fn open<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    order_id: i64,
    amount: i64,
    emi: Option<i64>,
    fresh: bool,
    client_ip: &str,
    now: i64,
) -> ApiResult<Started> {
    let tran_id = begin(pool, order_id, G::NAME, amount, now).await?;
    let mut checkout = checkout(pool, order_id, &tran_id, amount, emi).await?;
    checkout.client_ip = gateway::client_ipv4(client_ip);
    match gateway.start(http, &checkout).await {
        Ok(url) => {
            tracing::info!(
                gateway = G::NAME,
                order = order_id,
                amount,
                "checkout opened"
            );
            Ok(Started {
                order_id,
                order_random: checkout.order_random,
                tran_id,
                url,
                emi: checkout.emi,
            })
        }
        Err(err) => {
            tracing::warn!(gateway = G::NAME, order = order_id, error = %err, "checkout not opened");
            if fresh {
                settle(pool, G::NAME, &Outcome::Failed { tran_id }, now).await?;
            } else {
                db::query(
                    "UPDATE payment SET status = 'failed', updated_at = $2 \
                     WHERE tran_id = $1 AND status = 'initiated'",
                )
                .bind(&tran_id)
                .bind(now)
                .execute(pool)
                .await?;
            }
            Err(ApiError::Unavailable(match err {
                GatewayError::Down(_) | GatewayError::Unavailable(_) => format!(
                    "{} could not be reached. Please try again in a while or choose another way to pay.",
                    G::LABEL
                ),
                GatewayError::Refused(_) => format!(
                    "{} did not accept this payment. Please choose another way to pay.",
                    G::LABEL
                ),
            }))
        }
    }
}

/// What a gateway needs about an order, from the database.
async fn checkout(
    pool: &Pool,
    order_id: i64,
    tran_id: &str,
    amount: i64,
    emi: Option<i64>,
) -> ApiResult<Checkout> {
    let (order_random, customer_name, phone, email, address, district): (
        String,
        String,
        String,
        String,
        String,
        String,
    ) = db::query_as(
        "SELECT order_random, customer_name, phone, email, address, district \
         FROM order_master WHERE id = $1",
    )
    .bind(order_id)
    .fetch_one(pool)
    .await?;
    let (product_names, items): (String, i64) = db::query_as(
        "SELECT COALESCE(string_agg(name, ', ' ORDER BY id), ''), \
         COALESCE(CAST(SUM(qty) AS BIGINT), 0) \
         FROM order_detail WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_one(pool)
    .await?;
    let emi = match emi.filter(|m| *m > 0) {
        Some(asked) => emi_allowed(pool, order_id).await?.map(|allowed| Emi {
            max_instalments: asked.min(allowed),
        }),
        None => None,
    };
    Ok(Checkout {
        tran_id: tran_id.to_string(),
        amount,
        order_id,
        order_random,
        customer_name,
        phone,
        email,
        address,
        district,
        product_names: product_names.chars().take(250).collect(),
        items,
        emi,
        client_ip: String::new(),
    })
}

/// The most instalments every product of the order offers (DOMAIN.md: EMI
/// is per product per bank); `None` when one of them offers none, or was
/// bought for less than EMI's minimum price (in SQL, the rule of
/// [`catalog::pricing::emi_offered`], on the price paid).
async fn emi_allowed(pool: &Pool, order_id: i64) -> sqlx::Result<Option<i64>> {
    let (lines, offering, months): (i64, i64, Option<i64>) = db::query_as(
        "SELECT COUNT(*), COUNT(CASE WHEN p.emi_available AND m.months IS NOT NULL \
         AND d.local_purchase_price >= $2 THEN 1 END), \
         MIN(m.months) FROM order_detail d JOIN product p ON p.id = d.product_id \
         LEFT JOIN (SELECT product_id, MAX(months) AS months FROM product_emi GROUP BY product_id) m \
         ON m.product_id = d.product_id WHERE d.order_id = $1",
    )
    .bind(order_id)
    .bind(catalog::pricing::EMI_MIN_PRICE)
    .fetch_one(pool)
    .await?;
    Ok(months.filter(|_| lines > 0 && offering == lines))
}

/// What a gateway's answer did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmed {
    /// The gateway vouched for an outcome; it was applied to this order.
    Settled {
        paid: bool,
        /// Why not, when not paid.
        reason: Option<FailReason>,
        order_random: String,
        order_key: String,
    },
    /// The gateway vouched for nothing final about the attempt claimed (a
    /// forged or unfinished return): nothing changed.
    Unconfirmed,
}

/// Asks `gateway`, server to server, about the attempt `reference` names
/// and settles what it vouches for. `claimed`: the transaction id a browser
/// return carried; an answer about any other attempt settles nothing. A
/// gateway that cannot be reached is a 503 and changes nothing.
pub async fn confirm<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    reference: &G::Reference,
    claimed: Option<&str>,
    now: i64,
) -> ApiResult<Confirmed> {
    let outcome = gateway.verify(http, reference).await.map_err(|err| {
        tracing::warn!(gateway = G::NAME, error = %err, "verification failed");
        ApiError::Unavailable(format!(
            "{} could not confirm the payment yet. It is checked again when the gateway notifies us.",
            G::LABEL
        ))
    })?;
    let Some(outcome) = outcome.filter(|o| claimed.is_none_or(|c| c == o.tran_id())) else {
        tracing::warn!(
            gateway = G::NAME,
            claimed,
            "return not confirmed by the gateway"
        );
        return Ok(Confirmed::Unconfirmed);
    };
    let settled = match settle(pool, G::NAME, &outcome, now).await {
        Ok(s) => s,
        Err(ApiError::NotFound(_)) => {
            tracing::warn!(
                gateway = G::NAME,
                tran_id = outcome.tran_id(),
                "unknown transaction"
            );
            return Ok(Confirmed::Unconfirmed);
        }
        Err(e) => return Err(e),
    };
    if settled.late {
        refund::give_back_unowed(pool, http, gateway, outcome.tran_id(), now).await;
    }
    let (order_random, order_key): (String, String) =
        db::query_as("SELECT order_random, order_key FROM order_master WHERE id = $1")
            .bind(settled.order_id)
            .fetch_one(pool)
            .await?;
    Ok(Confirmed::Settled {
        paid: settled.paid,
        reason: settled.reason,
        order_random,
        order_key,
    })
}
