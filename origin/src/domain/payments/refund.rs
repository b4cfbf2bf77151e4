//! Giving money back, through the gateway that took it.
//!
//! [`refund_order`] serves the operator's `origin refund ORDER [AMOUNT]`: the
//! whole of what is left, or part of it, never more than what the order's
//! validated payments took minus what was already given back (or is being
//! asked for). The amount is spread over the order's payments, newest first;
//! each part is a `payment_refund` row, written `requested` in one write
//! transaction before any gateway is asked (so two operators at once cannot
//! give back more than was paid), then `refunded` with the gateway's id, or
//! `failed` with its answer. A refund the gateway took is added to the
//! order's `amount_refunded` and its history.
//!
//! [`give_back_late`] gives back a payment the gateway confirmed after its
//! order had expired (`payment.status` `late`), at once and whole. A gateway
//! without refunds (or one that fails) leaves a row for the operator
//! (`operator` or `failed`) and a warning in the log: never silently lost.

use catalog::db::{self, begin_write, Pool};

use super::gateway::{Gateway, GatewayError, Refund};
use super::{history, Gateways};
use crate::plumbing::error::{ApiError, ApiResult};

/// One part of a refund, as it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundLine {
    pub refund_id: i64,
    pub gateway: String,
    /// The attempt given back.
    pub tran_id: String,
    pub amount: i64,
    /// `refunded`, `failed` or `operator`.
    pub status: String,
    /// The gateway's id of the refund, or why it failed.
    pub detail: String,
}

/// What `origin refund` did to one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefundReport {
    pub order_id: i64,
    pub order_random: String,
    pub lines: Vec<RefundLine>,
    /// What the order's payments took, and what is given back now in all.
    pub paid: i64,
    pub refunded: i64,
}

/// Gives back `amount` taka (all that is left when `None`) of the order
/// `order` (its number, `order_random`, or its id) through the gateways that
/// took it. Errors: no such order (404), nothing paid or all given back
/// already (409), an amount that is not positive or more than is left (400).
pub async fn refund_order(
    pool: &Pool,
    gateways: &Gateways,
    order: &str,
    amount: Option<i64>,
    reason: &str,
    now: i64,
) -> ApiResult<RefundReport> {
    let order = order.trim();
    let mut tx = begin_write(pool).await?;
    let found: Option<(i64, String)> = db::query_as(
        "SELECT id, order_random FROM order_master WHERE order_random = $1 \
         OR (CAST(id AS TEXT) = $1) ORDER BY id LIMIT 1",
    )
    .bind(order)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((order_id, order_random)) = found else {
        return Err(ApiError::not_found(format!("There is no order {order}.")));
    };
    // Each payment that took money, with what is given back or asked for.
    let payments: Vec<(i64, i64, i64)> = db::query_as(
        "SELECT p.id, p.amount, COALESCE((SELECT CAST(SUM(r.amount) AS BIGINT) \
         FROM payment_refund r WHERE r.payment_id = p.id AND r.status <> 'failed'), 0) \
         FROM payment p WHERE p.order_id = $1 AND p.status IN ('validated', 'late') \
         ORDER BY p.id DESC",
    )
    .bind(order_id)
    .fetch_all(&mut *tx)
    .await?;
    let paid: i64 = payments.iter().map(|p| p.1).sum();
    let left: i64 = payments.iter().map(|p| p.1 - p.2).sum();
    if paid == 0 {
        return Err(ApiError::Conflict(format!(
            "Order {order_random} has no online payment to refund."
        )));
    }
    if left <= 0 {
        return Err(ApiError::Conflict(format!(
            "Order {order_random} has nothing left to refund: its {paid} taka are refunded, \
             being refunded, or left to the operator to give back by hand (payment_refund)."
        )));
    }
    let amount = amount.unwrap_or(left);
    if amount <= 0 {
        return Err(ApiError::invalid(
            "amount",
            "The amount to refund must be a whole number of taka above 0.",
        ));
    }
    if amount > left {
        return Err(ApiError::invalid(
            "amount",
            format!(
                "At most {left} taka of order {order_random} can be refunded \
                 (paid {paid}, refunded or being refunded {}).",
                paid - left
            ),
        ));
    }
    let mut to_give = amount;
    let mut ids = Vec::new();
    for (payment_id, taken, given) in payments {
        if to_give == 0 {
            break;
        }
        let part = to_give.min(taken - given);
        if part <= 0 {
            continue;
        }
        to_give -= part;
        ids.push(request(&mut tx, order_id, payment_id, part, reason, now).await?);
    }
    tx.commit().await?;
    let mut lines = Vec::new();
    for id in ids {
        lines.push(give_back_by_name(pool, gateways, id, now).await?);
    }
    let refunded = lines
        .iter()
        .filter(|l| l.status == "refunded")
        .map(|l| l.amount)
        .sum();
    Ok(RefundReport {
        order_id,
        order_random,
        lines,
        paid,
        refunded,
    })
}

/// Writes a `requested` refund row; answers its id.
async fn request(
    conn: &mut db::Conn,
    order_id: i64,
    payment_id: i64,
    amount: i64,
    reason: &str,
    now: i64,
) -> sqlx::Result<i64> {
    db::query_scalar(
        "INSERT INTO payment_refund (order_id, payment_id, amount, status, reason, created_at, \
         updated_at) VALUES ($1, $2, $3, 'requested', $4, $5, $5) RETURNING id",
    )
    .bind(order_id)
    .bind(payment_id)
    .bind(amount)
    .bind(reason)
    .bind(now)
    .fetch_one(&mut *conn)
    .await
}

/// What a gateway needs to know about a requested refund.
async fn refund_of(pool: &Pool, refund_id: i64) -> sqlx::Result<(String, Refund)> {
    let (gateway, amount, reason, tran_id, gateway_ref, session, order_random): (
        String,
        i64,
        String,
        String,
        String,
        String,
        String,
    ) = db::query_as(
        "SELECT p.gateway, r.amount, r.reason, p.tran_id, p.gateway_ref, p.session, \
         o.order_random FROM payment_refund r JOIN payment p ON p.id = r.payment_id \
         JOIN order_master o ON o.id = r.order_id WHERE r.id = $1",
    )
    .bind(refund_id)
    .fetch_one(pool)
    .await?;
    Ok((
        gateway,
        Refund {
            id: refund_id,
            amount,
            reason,
            tran_id,
            gateway_ref,
            session,
            order_random,
        },
    ))
}

/// Asks the gateway named with the payment (when configured) for a
/// requested refund.
async fn give_back_by_name(
    pool: &Pool,
    gateways: &Gateways,
    refund_id: i64,
    now: i64,
) -> ApiResult<RefundLine> {
    let http = &gateways.http;
    let (name, _) = refund_of(pool, refund_id).await?;
    match name.as_str() {
        "bkash" => match &gateways.bkash {
            Some(g) => give_back(pool, http, g, refund_id, now).await,
            None => not_configured(pool, refund_id, &name, now).await,
        },
        "sslcommerz" => match &gateways.sslcommerz {
            Some(g) => give_back(pool, http, g, refund_id, now).await,
            None => not_configured(pool, refund_id, &name, now).await,
        },
        "nagad" => match &gateways.nagad {
            Some(g) => give_back(pool, http, g, refund_id, now).await,
            None => not_configured(pool, refund_id, &name, now).await,
        },
        _ => not_configured(pool, refund_id, &name, now).await,
    }
}

async fn not_configured(
    pool: &Pool,
    refund_id: i64,
    gateway: &str,
    now: i64,
) -> ApiResult<RefundLine> {
    let message = format!("{gateway} is not configured on this origin; nothing was given back");
    finish(pool, refund_id, "failed", "", &message, now).await
}

/// Asks `gateway` for the requested refund `refund_id` and records the end.
pub async fn give_back<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    refund_id: i64,
    now: i64,
) -> ApiResult<RefundLine> {
    let (_, refund) = refund_of(pool, refund_id).await?;
    if !G::REFUNDS {
        tracing::warn!(
            gateway = G::NAME,
            refund = refund_id,
            amount = refund.amount,
            tran_id = refund.tran_id,
            "no refunds through this gateway: the operator must give the money back"
        );
        let message = format!(
            "{} takes no refunds through its API: give {} taka back by hand (payment {})",
            G::LABEL,
            refund.amount,
            refund.tran_id
        );
        return finish(pool, refund_id, "operator", "", &message, now).await;
    }
    match gateway.refund(http, &refund).await {
        Ok(reference) => {
            tracing::info!(
                gateway = G::NAME,
                refund = refund_id,
                amount = refund.amount,
                "refunded"
            );
            finish(pool, refund_id, "refunded", &reference, "", now).await
        }
        Err(err) => {
            tracing::warn!(gateway = G::NAME, refund = refund_id, error = %err, "refund failed");
            let message = match err {
                GatewayError::Down(m) => format!("the gateway could not be reached: {m}"),
                GatewayError::Refused(m) => format!("the gateway refused: {m}"),
            };
            finish(pool, refund_id, "failed", "", &message, now).await
        }
    }
}

/// Records how a requested refund ended; a refund the gateway took counts in
/// the order's `amount_refunded` (for payments the order counts as paid) and
/// its history.
async fn finish(
    pool: &Pool,
    refund_id: i64,
    status: &str,
    reference: &str,
    message: &str,
    now: i64,
) -> ApiResult<RefundLine> {
    let mut tx = begin_write(pool).await?;
    let (order_id, amount, payment_status, gateway, tran_id): (i64, i64, String, String, String) =
        db::query_as(
            "SELECT r.order_id, r.amount, p.status, p.gateway, p.tran_id FROM payment_refund r \
             JOIN payment p ON p.id = r.payment_id WHERE r.id = $1",
        )
        .bind(refund_id)
        .fetch_one(&mut *tx)
        .await?;
    let changed = db::query(
        "UPDATE payment_refund SET status = $2, refund_ref = $3, message = $4, updated_at = $5 \
         WHERE id = $1 AND status = 'requested'",
    )
    .bind(refund_id)
    .bind(status)
    .bind(reference)
    .bind(message)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if changed.rows_affected() == 1 {
        let note = match status {
            "refunded" => format!("Refunded {amount} taka ({gateway} {reference})"),
            "operator" => format!("To refund by hand: {amount} taka ({message})"),
            _ => format!("Refund of {amount} taka failed: {message}"),
        };
        if status == "refunded" && payment_status == "validated" {
            db::query(
                "UPDATE order_master SET amount_refunded = amount_refunded + $2, updated_at = $3 \
                 WHERE id = $1",
            )
            .bind(order_id)
            .bind(amount)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let kind = if status == "refunded" {
            "refunded"
        } else {
            "refund_pending"
        };
        history(&mut tx, order_id, kind, &note, now).await?;
    }
    tx.commit().await?;
    Ok(RefundLine {
        refund_id,
        gateway,
        tran_id,
        amount,
        status: status.to_string(),
        detail: if reference.is_empty() {
            message.to_string()
        } else {
            reference.to_string()
        },
    })
}

/// Gives back, whole, the payment `tran_id` that `gateway` confirmed after
/// its order had expired (status `late`). Errors are logged and left in
/// `payment_refund` for the operator, never returned: the shopper's return
/// must still be answered.
pub async fn give_back_late<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    tran_id: &str,
    now: i64,
) {
    let requested = async {
        let mut tx = begin_write(pool).await?;
        let payment: Option<(i64, i64, i64)> = db::query_as(
            "SELECT id, order_id, amount FROM payment WHERE tran_id = $1 AND status = 'late' \
             AND NOT EXISTS (SELECT 1 FROM payment_refund r WHERE r.payment_id = payment.id)",
        )
        .bind(tran_id)
        .fetch_optional(&mut *tx)
        .await?;
        let id = match payment {
            Some((payment_id, order_id, amount)) => Some(
                request(
                    &mut tx,
                    order_id,
                    payment_id,
                    amount,
                    "Paid after the order had expired",
                    now,
                )
                .await?,
            ),
            None => None,
        };
        tx.commit().await?;
        Ok::<_, sqlx::Error>(id)
    };
    let result = match requested.await {
        Ok(Some(id)) => give_back(pool, http, gateway, id, now).await.map(Some),
        Ok(None) => Ok(None),
        Err(e) => Err(e.into()),
    };
    match result {
        Ok(Some(line)) if line.status == "refunded" => {
            tracing::info!(gateway = G::NAME, tran_id, "late payment refunded");
        }
        Ok(Some(line)) => {
            tracing::warn!(
                gateway = G::NAME,
                tran_id,
                status = line.status,
                detail = line.detail,
                "late payment NOT refunded: the operator must act (payment_refund)"
            );
        }
        Ok(None) => {}
        Err(err) => {
            tracing::error!(gateway = G::NAME, tran_id, error = ?err, "late payment NOT refunded: the operator must act");
        }
    }
}
