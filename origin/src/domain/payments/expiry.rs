//! Abandoned payments expire. An online order still `Pending` whose attempts
//! are all older than the expiry (`PAYMENT_EXPIRY_MINUTES`, default 30) is
//! asked about once more at its gateway (bKash: execute or query; SSLCommerz:
//! the transaction query; Nagad: verify), which settles it when the gateway vouches for an
//! end. Otherwise its waiting attempts become `expired` and the order is
//! cancelled with its stock and coupon use released, in one write
//! transaction whose updates are conditional (`status = 'initiated'`,
//! `payment_term_status = 'Pending'`): however many origins notice the same
//! order at once, it is released exactly once. A payment confirmed after
//! that is `late` and given back ([`super::refund::give_back_unowed`]).
//!
//! Every origin runs [`run`] from `serve`; [`expire`] is one sweep. The same
//! loop settles refunds still processing or whose answer was lost
//! ([`super::refund::settle_refunds`]).

use std::sync::Arc;
use std::time::Duration;

use catalog::db::{self, begin_write, Pool};

use super::sslcommerz::Lookup;
use super::{bkash, cancel_waiting, confirm, nagad, Gateways};
use crate::plumbing::error::ApiResult;

/// The default expiry: 30 minutes.
pub const DEFAULT_SECS: i64 = 30 * 60;

/// What one sweep did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Swept {
    /// Orders found waiting past the expiry.
    pub found: usize,
    /// Of those, settled by the gateway's answer (paid, failed or cancelled).
    pub settled: usize,
    /// Cancelled here, stock and coupon released.
    pub expired: usize,
}

impl Gateways {
    /// Seconds an online order may wait for its payment.
    pub fn expiry(&self) -> i64 {
        if self.expiry_secs > 0 {
            self.expiry_secs
        } else {
            DEFAULT_SECS
        }
    }
}

/// Sweeps every `period` for ever (an origin's background task); a failed
/// sweep is logged and tried again at the next.
pub async fn run(pool: Pool, gateways: Arc<Gateways>, period: Duration) {
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = catalog::clock::now_unix();
        match expire(&pool, &gateways, gateways.expiry(), now).await {
            Ok(swept) if swept.found > 0 => {
                tracing::info!(
                    found = swept.found,
                    settled = swept.settled,
                    expired = swept.expired,
                    "abandoned payments swept"
                );
            }
            Ok(_) => {}
            Err(err) => tracing::warn!(error = %err, "sweeping abandoned payments failed"),
        }
        // Refunds still processing, or whose answer was lost, are asked
        // about until they end.
        match super::refund::settle_refunds(&pool, &gateways, now).await {
            Ok(0) => {}
            Ok(ended) => tracing::info!(ended, "refunds settled"),
            Err(err) => tracing::warn!(error = %err, "settling refunds failed"),
        }
    }
}

/// How often [`run`] sweeps for an expiry of `expiry` seconds: a tenth of
/// it, between 5 seconds and a minute.
pub fn period(expiry: i64) -> Duration {
    Duration::from_secs((expiry / 10).clamp(5, 60) as u64)
}

/// One sweep: every `Pending` online order with no attempt younger than
/// `max_age` seconds (at `now`) is asked about once more, then cancelled.
pub async fn expire(pool: &Pool, gateways: &Gateways, max_age: i64, now: i64) -> ApiResult<Swept> {
    let cutoff = now - max_age;
    let orders: Vec<i64> = db::query_scalar(
        "SELECT o.id FROM order_master o WHERE o.payment_term_status = 'Pending' \
         AND o.amount_paid = 0 AND o.ordered_at <= $1 AND NOT EXISTS (SELECT 1 FROM payment p \
         WHERE p.order_id = o.id AND p.created_at > $1) ORDER BY o.id LIMIT 500",
    )
    .bind(cutoff)
    .fetch_all(pool)
    .await?;
    let mut swept = Swept {
        found: orders.len(),
        ..Swept::default()
    };
    for order_id in orders {
        if ask_once_more(pool, gateways, order_id, now).await? {
            swept.settled += 1;
        } else if cancel_expired(pool, order_id, cutoff, max_age, now).await? {
            swept.expired += 1;
        }
    }
    Ok(swept)
}

/// Asks the gateways about the order's waiting attempts; true when one of
/// them settled the order (it is no longer `Pending`, and no other origin
/// expired it meanwhile).
async fn ask_once_more(
    pool: &Pool,
    gateways: &Gateways,
    order_id: i64,
    now: i64,
) -> ApiResult<bool> {
    let attempts: Vec<(String, String)> = db::query_as(
        "SELECT tran_id, gateway FROM payment WHERE order_id = $1 AND status = 'initiated' \
         ORDER BY id",
    )
    .bind(order_id)
    .fetch_all(pool)
    .await?;
    let http = &gateways.http;
    for (tran_id, gateway) in attempts {
        let asked = match gateway.as_str() {
            "bkash" => match &gateways.bkash {
                Some(g) => Some(bkash::recheck(pool, http, g, &tran_id, now).await),
                None => None,
            },
            "sslcommerz" => match &gateways.sslcommerz {
                Some(g) => Some(
                    confirm(
                        pool,
                        http,
                        g,
                        &Lookup::TranId(tran_id.clone()),
                        Some(&tran_id),
                        now,
                    )
                    .await,
                ),
                None => None,
            },
            "nagad" => match &gateways.nagad {
                Some(g) => Some(nagad::recheck(pool, http, g, &tran_id, now).await),
                None => None,
            },
            _ => None,
        };
        match asked {
            Some(Err(err)) => {
                tracing::warn!(gateway, tran_id, error = %err, "expiring without the gateway's answer");
            }
            None => {
                tracing::info!(gateway, tran_id, "expiring without asking the gateway");
            }
            Some(Ok(_)) => {}
        }
    }
    // Settled by a gateway's answer, not expired by another origin meanwhile.
    let (status, expired): (String, i64) = db::query_as(
        "SELECT o.payment_term_status, (SELECT COUNT(*) FROM payment p \
         WHERE p.order_id = o.id AND p.status IN ('expired', 'late')) \
         FROM order_master o WHERE o.id = $1",
    )
    .bind(order_id)
    .fetch_one(pool)
    .await?;
    Ok(status != "Pending" && expired == 0)
}

/// Cancels the order if it is still waiting with no attempt younger than
/// `cutoff`: its waiting attempts expire, its stock and coupon use go back.
/// True when this call did it (only one caller ever does).
async fn cancel_expired(
    pool: &Pool,
    order_id: i64,
    cutoff: i64,
    max_age: i64,
    now: i64,
) -> ApiResult<bool> {
    let mut tx = begin_write(pool).await?;
    let fresh: i64 =
        db::query_scalar("SELECT COUNT(*) FROM payment WHERE order_id = $1 AND created_at > $2")
            .bind(order_id)
            .bind(cutoff)
            .fetch_one(&mut *tx)
            .await?;
    if fresh > 0 {
        tx.rollback().await?;
        return Ok(false);
    }
    let note = format!(
        "Online payment not confirmed within {} minutes; order expired, stock released",
        max_age / 60
    );
    let cancelled = cancel_waiting(&mut tx, order_id, &note, now).await?;
    tx.commit().await?;
    if cancelled {
        tracing::info!(
            order = order_id,
            "abandoned payment expired; stock released"
        );
    }
    Ok(cancelled)
}
