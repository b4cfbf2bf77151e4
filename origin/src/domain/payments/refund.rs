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
//! Two ends are not final. `processing`: the gateway took the refund but has
//! not finished it (SSLCommerz answers so); `unknown`: the gateway's answer
//! was lost (a timeout, a 5xx other than 503), so it may have given the
//! money back (a gateway that could not be connected to, or answered 503,
//! did nothing: `failed`, to be asked again). Both
//! keep their amount counted as given (nothing is ever asked twice) and are
//! settled by asking the gateway's refund status ([`settle_refunds`], run by
//! every origin's expiry sweep): bKash's refund status names the payment's
//! last refund; SSLCommerz's refund query needs the `refund_ref_id` it
//! answered, so a lost SSLCommerz answer stays `unknown` for the operator
//! (who checks the merchant panel), never asked again.
//!
//! [`give_back_unowed`] gives back a payment the gateway confirmed that its
//! order does not take, at once and whole: confirmed after the order had
//! expired (`payment.status` `late`) or for another amount than the attempt
//! asked (`mismatch`, the amount the gateway took). A gateway
//! without refunds (or one that fails) leaves a row for the operator
//! (`operator` or `failed`) and a warning in the log: never silently lost.

use catalog::db::{self, begin_write, Pool};

use super::gateway::{Gateway, GatewayError, Refund, RefundState};
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
    /// `refunded`, `processing`, `unknown`, `failed` or `operator`.
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
    // A refund whose answer was lost is settled first: asking for another
    // meanwhile could hide it from the gateway's refund status.
    let unknown: i64 = db::query_scalar(
        "SELECT COUNT(*) FROM payment_refund WHERE order_id = $1 AND status = 'unknown'",
    )
    .bind(order_id)
    .fetch_one(&mut *tx)
    .await?;
    if unknown > 0 {
        return Err(ApiError::Conflict(format!(
            "Order {order_random} has a refund whose answer was lost: it is being asked \
             about (payment_refund status 'unknown'); refund more once it is settled."
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

/// What a gateway needs to know about a refund, with its gateway's name
/// and its status.
async fn refund_of(pool: &Pool, refund_id: i64) -> sqlx::Result<(String, String, Refund)> {
    let (gateway, status, amount, reason, tran_id, payment_id): (
        String,
        String,
        i64,
        String,
        String,
        i64,
    ) = db::query_as(
        "SELECT p.gateway, r.status, r.amount, r.reason, p.tran_id, p.id \
         FROM payment_refund r JOIN payment p ON p.id = r.payment_id WHERE r.id = $1",
    )
    .bind(refund_id)
    .fetch_one(pool)
    .await?;
    let (gateway_ref, session, order_random, refund_ref): (String, String, String, String) =
        db::query_as(
            "SELECT p.gateway_ref, p.session, o.order_random, r.refund_ref \
             FROM payment_refund r JOIN payment p ON p.id = r.payment_id \
             JOIN order_master o ON o.id = r.order_id WHERE r.id = $1",
        )
        .bind(refund_id)
        .fetch_one(pool)
        .await?;
    let others: Vec<(i64, String)> = db::query_as(
        "SELECT id, refund_ref FROM payment_refund WHERE payment_id = $1 AND id <> $2 \
         AND refund_ref <> '' ORDER BY id",
    )
    .bind(payment_id)
    .bind(refund_id)
    .fetch_all(pool)
    .await?;
    let (earlier, later): (Vec<_>, Vec<_>) =
        others.into_iter().partition(|(id, _)| *id < refund_id);
    Ok((
        gateway,
        status,
        Refund {
            id: refund_id,
            amount,
            reason,
            tran_id,
            gateway_ref,
            session,
            order_random,
            refund_ref,
            earlier_refs: earlier.into_iter().map(|(_, r)| r).collect(),
            later_refs: later.into_iter().map(|(_, r)| r).collect(),
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
    let (name, ..) = refund_of(pool, refund_id).await?;
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
    finish(pool, refund_id, "requested", "failed", "", &message, now).await
}

/// Asks `gateway` for the requested refund `refund_id` and records the end.
pub async fn give_back<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    refund_id: i64,
    now: i64,
) -> ApiResult<RefundLine> {
    let (_, _, refund) = refund_of(pool, refund_id).await?;
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
        return finish(pool, refund_id, "requested", "operator", "", &message, now).await;
    }
    let from = "requested";
    match gateway.refund(http, &refund).await {
        Ok(state) => Ok(record(pool, G::NAME, refund_id, from, state, now).await?.0),
        Err(GatewayError::Down(m)) => {
            // The request may have reached the gateway: never ask again,
            // ask what became of it ([`settle_refunds`]).
            tracing::warn!(gateway = G::NAME, refund = refund_id, error = %m,
                "refund answer lost; its status is asked until settled");
            let message = format!(
                "the gateway's answer was lost ({m}); its refund status is asked until settled"
            );
            finish(pool, refund_id, from, "unknown", "", &message, now).await
        }
        Err(GatewayError::Refused(m)) => {
            tracing::warn!(gateway = G::NAME, refund = refund_id, error = %m, "refund refused");
            let message = format!("the gateway refused: {m}");
            finish(pool, refund_id, from, "failed", "", &message, now).await
        }
        Err(GatewayError::Unavailable(m)) => {
            tracing::warn!(gateway = G::NAME, refund = refund_id, error = %m, "refund not taken");
            let message = format!("the gateway could not be reached: {m}");
            finish(pool, refund_id, from, "failed", "", &message, now).await
        }
    }
}

/// Records what a gateway said about a refund whose status is `from`;
/// answers the line and whether this call recorded it (another origin may
/// have been first).
async fn record(
    pool: &Pool,
    gateway: &str,
    refund_id: i64,
    from: &str,
    state: RefundState,
    now: i64,
) -> ApiResult<(RefundLine, bool)> {
    match state {
        RefundState::Refunded(reference) => {
            tracing::info!(gateway, refund = refund_id, "refunded");
            finish_once(pool, refund_id, from, "refunded", &reference, "", now).await
        }
        RefundState::Processing(reference) => {
            tracing::info!(gateway, refund = refund_id, "refund processing");
            let message = "the gateway is processing the refund; asked again until it ends";
            finish_once(
                pool,
                refund_id,
                from,
                "processing",
                &reference,
                message,
                now,
            )
            .await
        }
        RefundState::NotDone(why) => {
            tracing::warn!(gateway, refund = refund_id, why, "refund not done");
            let message = format!("nothing was given back: {why}");
            finish_once(pool, refund_id, from, "failed", "", &message, now).await
        }
    }
}

/// Asks the gateways about every refund still `processing` or `unknown`
/// and records what they say; answers how many ended (refunded or
/// failed). A gateway that cannot say leaves the refund as it was, for the
/// next sweep. Every origin may run it at once: each end is recorded once.
pub async fn settle_refunds(pool: &Pool, gateways: &Gateways, now: i64) -> ApiResult<usize> {
    let open: Vec<i64> = db::query_scalar(
        "SELECT id FROM payment_refund WHERE status IN ('processing', 'unknown') \
         ORDER BY id LIMIT 200",
    )
    .fetch_all(pool)
    .await?;
    let http = &gateways.http;
    let mut ended = 0;
    for refund_id in open {
        let (name, ..) = refund_of(pool, refund_id).await?;
        let line = match name.as_str() {
            "bkash" => match &gateways.bkash {
                Some(g) => ask_status(pool, http, g, refund_id, now).await?,
                None => None,
            },
            "sslcommerz" => match &gateways.sslcommerz {
                Some(g) => ask_status(pool, http, g, refund_id, now).await?,
                None => None,
            },
            "nagad" => match &gateways.nagad {
                Some(g) => ask_status(pool, http, g, refund_id, now).await?,
                None => None,
            },
            _ => None,
        };
        if line.is_some_and(|l| l.status == "refunded" || l.status == "failed") {
            ended += 1;
        }
    }
    Ok(ended)
}

/// Asks `gateway` about one refund still `processing` or `unknown`; `None`
/// when it could not say (or another origin settled it meanwhile).
async fn ask_status<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    refund_id: i64,
    now: i64,
) -> ApiResult<Option<RefundLine>> {
    let (_, status, refund) = refund_of(pool, refund_id).await?;
    if status != "processing" && status != "unknown" {
        return Ok(None);
    }
    match gateway.refund_status(http, &refund).await {
        // Still processing: nothing to record.
        Ok(RefundState::Processing(_)) if status == "processing" => Ok(None),
        Ok(state) => {
            let (line, recorded) = record(pool, G::NAME, refund_id, &status, state, now).await?;
            Ok(recorded.then_some(line))
        }
        Err(err) => {
            tracing::warn!(gateway = G::NAME, refund = refund_id, status, error = %err,
                "refund status not known yet; the operator may check the gateway's panel");
            Ok(None)
        }
    }
}

/// Records how a refund whose status is `from` went on (`refunded`,
/// `processing`, `unknown`, `failed`, `operator`); a refund the gateway took
/// counts in the order's `amount_refunded` (for payments the order counts as
/// paid), and each change goes into its history.
async fn finish(
    pool: &Pool,
    refund_id: i64,
    from: &str,
    status: &str,
    reference: &str,
    message: &str,
    now: i64,
) -> ApiResult<RefundLine> {
    Ok(
        finish_once(pool, refund_id, from, status, reference, message, now)
            .await?
            .0,
    )
}

/// [`finish`], answering also whether this call recorded it.
async fn finish_once(
    pool: &Pool,
    refund_id: i64,
    from: &str,
    status: &str,
    reference: &str,
    message: &str,
    now: i64,
) -> ApiResult<(RefundLine, bool)> {
    let mut tx = begin_write(pool).await?;
    let (order_id, amount, payment_status, gateway, tran_id): (i64, i64, String, String, String) =
        db::query_as(
            "SELECT r.order_id, r.amount, p.status, p.gateway, p.tran_id FROM payment_refund r \
             JOIN payment p ON p.id = r.payment_id WHERE r.id = $1",
        )
        .bind(refund_id)
        .fetch_one(&mut *tx)
        .await?;
    // Only from the status it was in (each end recorded once, whichever
    // origin gets there first); a reference once known is kept.
    let changed = db::query(
        "UPDATE payment_refund SET status = $2, \
         refund_ref = CASE WHEN $3 = '' THEN refund_ref ELSE $3 END, \
         message = $4, updated_at = $5 WHERE id = $1 AND status = $6",
    )
    .bind(refund_id)
    .bind(status)
    .bind(reference)
    .bind(message)
    .bind(now)
    .bind(from)
    .execute(&mut *tx)
    .await?;
    let recorded = changed.rows_affected() == 1;
    if recorded {
        let note = match status {
            "refunded" => format!("Refunded {amount} taka ({gateway} {reference})"),
            "operator" => format!("To refund by hand: {amount} taka ({message})"),
            "processing" => format!("Refund of {amount} taka processing ({gateway} {reference})"),
            "unknown" => format!("Refund of {amount} taka: {message}"),
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
    let line = RefundLine {
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
    };
    Ok((line, recorded))
}

/// Gives back, whole, the payment `tran_id` that `gateway` confirmed after
/// its order had expired (status `late`). Errors are logged and left in
/// `payment_refund` for the operator, never returned: the shopper's return
/// must still be answered.
pub async fn give_back_unowed<G: Gateway>(
    pool: &Pool,
    http: &reqwest::Client,
    gateway: &G,
    tran_id: &str,
    now: i64,
) {
    let requested = async {
        let mut tx = begin_write(pool).await?;
        let payment: Option<(i64, i64, i64, String)> = db::query_as(
            "SELECT id, order_id, amount, status FROM payment WHERE tran_id = $1 \
             AND status IN ('late', 'mismatch') \
             AND NOT EXISTS (SELECT 1 FROM payment_refund r WHERE r.payment_id = payment.id)",
        )
        .bind(tran_id)
        .fetch_optional(&mut *tx)
        .await?;
        let id = match payment {
            Some((payment_id, order_id, amount, status)) => Some(
                request(
                    &mut tx,
                    order_id,
                    payment_id,
                    amount,
                    if status == "late" {
                        "Paid after the order had expired"
                    } else {
                        "Paid another amount than the order asked"
                    },
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
            tracing::info!(gateway = G::NAME, tran_id, "unowed payment refunded");
        }
        Ok(Some(line)) => {
            tracing::warn!(
                gateway = G::NAME,
                tran_id,
                status = line.status,
                detail = line.detail,
                "unowed payment NOT refunded: the operator must act (payment_refund)"
            );
        }
        Ok(None) => {}
        Err(err) => {
            tracing::error!(gateway = G::NAME, tran_id, error = ?err, "unowed payment NOT refunded: the operator must act");
        }
    }
}
