//! Paying an order online. An attempt is recorded (`payment`, status
//! `initiated`) before the shopper leaves for the gateway; the order counts as
//! paid only when [`settle`] is given the gateway's own server-to-server
//! validation of that attempt, with the same transaction id and amount. A
//! browser callback alone proves nothing. Online orders reserve stock when
//! placed, like cash on delivery; a failed or cancelled attempt releases it
//! (once) and cancels the order, so stock is never held by an unpaid order.
//!
//! Not yet here: the gateway clients (card in SSLCommerz's style, wallet in
//! Nagad's style) and their routes; they are to call [`begin`] and [`settle`].

use catalog::db::{begin_write, Conn, Pool};
use rand::distributions::{Alphanumeric, DistString};

use crate::error::{ApiError, ApiResult};

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

/// An attempt's end, as the return pages need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub order_id: i64,
    /// True only when the attempt was validated.
    pub paid: bool,
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
    let order: Option<(String, i64, i64)> = sqlx::query_as(
        "SELECT payment_term_status, grand_total, amount_paid FROM order_master WHERE id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((status, grand_total, paid)) = order else {
        return Err(ApiError::NotFound("No such order.".into()));
    };
    if status != "Pending" {
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
    sqlx::query(
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

/// Applies the gateway's validation of an attempt, in one write transaction.
/// Settling an attempt twice changes nothing the second time. A validation
/// whose amount differs from the attempt's counts as a failure.
pub async fn settle(pool: &Pool, outcome: &Outcome, now: i64) -> ApiResult<Settled> {
    let mut tx = begin_write(pool).await?;
    let row: Option<(i64, i64, String)> =
        sqlx::query_as("SELECT order_id, amount, status FROM payment WHERE tran_id = $1")
            .bind(outcome.tran_id())
            .fetch_optional(&mut *tx)
            .await?;
    let Some((order_id, expected, status)) = row else {
        return Err(ApiError::NotFound("No such payment.".into()));
    };
    if status != "initiated" {
        tx.rollback().await?;
        return Ok(Settled {
            order_id,
            paid: status == "validated",
        });
    }
    let (new_status, gateway_ref) = match outcome {
        Outcome::Validated {
            amount,
            gateway_ref,
            ..
        } if *amount == expected => ("validated", gateway_ref.as_str()),
        Outcome::Cancelled { .. } => ("cancelled", ""),
        _ => ("failed", ""),
    };
    sqlx::query(
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
        sqlx::query(
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
        cancel_unpaid(&mut tx, order_id, now).await?;
    }
    tx.commit().await?;
    Ok(Settled { order_id, paid })
}

/// Cancels an order still waiting for its payment and puts its reserved
/// units back (pre-booked lines took none). Does nothing to an order already
/// paid or cancelled.
async fn cancel_unpaid(conn: &mut Conn, order_id: i64, now: i64) -> sqlx::Result<()> {
    let cancelled = sqlx::query(
        "UPDATE order_master SET payment_term_status = 'Failed', order_status = 'cancelled', \
         updated_at = $2 WHERE id = $1 AND payment_term_status = 'Pending' AND amount_paid = 0",
    )
    .bind(order_id)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if cancelled.rows_affected() == 0 {
        return Ok(());
    }
    let lines: Vec<(i64, Option<i64>, i64)> = sqlx::query_as(
        "SELECT d.product_id, d.variation_id, d.qty FROM order_detail d \
         JOIN product p ON p.id = d.product_id WHERE d.order_id = $1 AND p.pre_booking = 0",
    )
    .bind(order_id)
    .fetch_all(&mut *conn)
    .await?;
    for (product_id, variation_id, qty) in lines {
        let (table, id) = match variation_id {
            Some(v) => ("product_variation", v),
            None => ("product", product_id),
        };
        sqlx::query(&format!(
            "UPDATE {table} SET stock = stock + $1 WHERE id = $2"
        ))
        .bind(qty)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    }
    history(
        conn,
        order_id,
        "cancelled",
        "Online payment failed; stock released",
        now,
    )
    .await
}

async fn history(
    conn: &mut Conn,
    order_id: i64,
    status: &str,
    note: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
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
