//! Placing an order, and reading one back. Placement is one write
//! transaction (`BEGIN IMMEDIATE`, so concurrent placements queue instead of
//! racing): the cart is priced again at the instant of placement, the coupon
//! checked again, stock taken with a guarded `UPDATE ... WHERE stock >= qty`
//! (never negative, never oversold), the order written with its details and
//! first status, the coupon's use counted and the cart emptied. A retry with
//! the same idempotency key returns the first order.

use catalog::clock;
use catalog::db::{self, begin_write, Conn, Pool};
use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::FromRow;

use crate::domain::cart::{self, Cart, Line};
use crate::domain::coupon;
use crate::domain::identity::Owner;
use crate::plumbing::error::{ApiError, ApiResult};

/// An order placed (or found again by its idempotency key).
#[derive(Debug, Clone, Serialize)]
pub struct Placed {
    pub id: i64,
    pub order_random: String,
    pub order_key: String,
    pub grand_total: i64,
    /// Taka to pay online now: the grand total, or a pre-booking's part
    /// payment (ORIGINAL-API.md §10).
    pub pay_now: i64,
    /// True when a retry found the order placed before.
    pub replayed: bool,
}

/// How an order is to be paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paying<'a> {
    /// On delivery: the order is placed at once and the cart emptied.
    CashOnDelivery,
    /// Online, by one of these methods (the cart's choice must be one): the
    /// order waits for its payment (`Pending`) and the cart is kept until a
    /// payment is validated, so a failed payment loses nothing.
    Online(&'a [&'a str]),
}

/// The money of a cart at one instant.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Totals {
    pub total_amount: i64,
    pub discount: i64,
    pub delivery_fee: i64,
    pub grand_total: i64,
}

/// Idempotency keys are 8 to 100 printable ASCII characters.
pub fn valid_idempotency_key(key: &str) -> bool {
    (8..=100).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic())
}

/// The stored idempotency key: scoped by the owner, so one shopper's key can
/// never find another's order.
fn scoped_key(owner: &Owner, key: &str) -> String {
    match owner {
        Owner::User(id) => format!("u{id}:{key}"),
        Owner::Guest(token) => format!("g{token}:{key}"),
    }
}

/// The cart's totals at `now`: coupon (if it still holds) and delivery.
pub async fn totals(
    conn: &mut Conn,
    cart: &Cart,
    owner: &Owner,
    now: i64,
) -> ApiResult<(Totals, Option<coupon::Applied>)> {
    let applied = match &cart.details.coupon_code {
        Some(code) => Some(coupon::check(conn, code, cart, owner, now).await?),
        None => None,
    };
    let total_amount = cart.subtotal();
    let discount = applied.as_ref().map_or(0, |a| a.discount);
    let delivery_fee = match &cart.details.district {
        Some(name) => match cart::district(conn, name).await? {
            Some(d) => {
                cart::delivery_charge(conn, &d.zone, total_amount)
                    .await?
                    .fee
            }
            None => 0,
        },
        None => 0,
    };
    Ok((
        Totals {
            total_amount,
            discount,
            delivery_fee,
            grand_total: total_amount - discount + delivery_fee,
        },
        applied,
    ))
}

/// A cart's totals now, and the coupon they count.
#[derive(Debug)]
pub struct Priced {
    pub totals: Totals,
    /// The cart's coupon, when it still holds.
    pub applied: Option<coupon::Applied>,
    /// Why the cart's coupon was taken off it, when it was.
    pub coupon_removed: Option<String>,
}

/// The cart's totals at `now`, as [`totals`]; a coupon that no longer holds
/// is taken off the cart (and off `cart`) and its reason kept, so the
/// shopper sees the cart without it rather than an error.
pub async fn totals_dropping_stale_coupon(
    conn: &mut Conn,
    cart: &mut Cart,
    owner: &Owner,
    now: i64,
) -> ApiResult<Priced> {
    match totals(conn, cart, owner, now).await {
        Ok((totals, applied)) => Ok(Priced {
            totals,
            applied,
            coupon_removed: None,
        }),
        Err(ApiError::Conflict(reason)) | Err(ApiError::NotFound(reason))
            if cart.details.coupon_code.is_some() =>
        {
            cart::clear_coupon(conn, cart.details.id).await?;
            cart.details.coupon_code = None;
            let (totals, _) = totals(conn, cart, owner, now).await?;
            Ok(Priced {
                totals,
                applied: None,
                coupon_removed: Some(format!("Your coupon was removed: {reason}")),
            })
        }
        Err(e) => Err(e),
    }
}

/// Places the owner's cart as a cash-on-delivery order.
pub async fn place_cash_on_delivery(
    pool: &Pool,
    owner: &Owner,
    idempotency_key: Option<&str>,
    now: i64,
) -> ApiResult<Placed> {
    place(pool, owner, Paying::CashOnDelivery, idempotency_key, now).await
}

/// Times a placement is tried when the database aborts it to break a deadlock.
const PLACE_ATTEMPTS: u32 = 3;

/// Places the owner's cart as an order paid as `paying` says. A placement
/// the database aborted to break a deadlock (PostgreSQL, with a writer from
/// outside the shop) is run again from the start: it wrote nothing.
pub async fn place(
    pool: &Pool,
    owner: &Owner,
    paying: Paying<'_>,
    idempotency_key: Option<&str>,
    now: i64,
) -> ApiResult<Placed> {
    let mut attempt = 1;
    loop {
        match place_once(pool, owner, paying, idempotency_key, now).await {
            Err(err) if attempt < PLACE_ATTEMPTS && err.is_retryable() => {
                tracing::warn!(attempt, cause = %err, "order placement aborted by the database; trying again");
                attempt += 1;
            }
            outcome => return outcome,
        }
    }
}

async fn place_once(
    pool: &Pool,
    owner: &Owner,
    paying: Paying<'_>,
    idempotency_key: Option<&str>,
    now: i64,
) -> ApiResult<Placed> {
    let scoped = idempotency_key.map(|k| scoped_key(owner, k));
    let mut tx = begin_write(pool).await?;
    if let Some(key) = &scoped {
        if let Some(found) = by_idempotency_key(&mut tx, key).await? {
            tx.rollback().await?;
            return Ok(found);
        }
    }
    let cart = cart::load(&mut tx, owner, now).await?;
    match paying {
        Paying::CashOnDelivery => ready_for_cash_on_delivery(&cart)?,
        Paying::Online(methods) => ready_for_online(&cart, methods)?,
    }
    let (totals, applied) = match totals(&mut tx, &cart, owner, now).await {
        Ok(t) => t,
        Err(ApiError::NotFound(m)) | Err(ApiError::Conflict(m)) => {
            return Err(ApiError::Conflict(format!(
                "Your coupon no longer applies ({m}) Remove it from your cart to go on."
            )))
        }
        Err(e) => return Err(e),
    };
    for line in &cart.lines {
        take_stock(&mut tx, line).await?;
    }
    if let Some(applied) = &applied {
        let counted = db::query(
            "UPDATE coupon SET used_count = used_count + 1, updated_at = $2 \
             WHERE id = $1 AND (used_limit IS NULL OR used_count < used_limit)",
        )
        .bind(applied.coupon.id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if counted.rows_affected() == 0 {
            return Err(ApiError::Conflict(
                "Your coupon's usage limit has just been reached. Remove it to go on.".into(),
            ));
        }
    }
    let order_random = unused_order_number(&mut tx).await?;
    let order_key = crate::domain::identity::new_token().0[..32].to_string();
    let d = &cart.details;
    let (user_id, self_token) = owner.ids();
    let (method, term_status, pay_now) = match paying {
        Paying::CashOnDelivery => ("cash_on_delivery", "COD", totals.grand_total),
        Paying::Online(_) => {
            // A part payment of the whole (or of nothing) pays the whole.
            let part = cart.details.paying_amount.filter(|p| {
                cart.is_pre_booking()
                    && *p >= 1
                    && cart.part_payments(totals.grand_total).contains(p)
            });
            (
                d.payment_method.as_deref().unwrap_or_default(),
                "Pending",
                part.unwrap_or(totals.grand_total),
            )
        }
    };
    let id: i64 = db::query_scalar(
        "INSERT INTO order_master (order_random, order_key, user_id, self_token, idempotency_key, \
         customer_name, phone, emergency_phone, email, address, division, district, thana, \
         payment_method, payment_term_status, order_status, total_amount, delivery_fee, coupon_code, \
         coupon_discount, grand_total, paying_amount, ordered_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $20, $21, \
         'placed', $14, $15, $16, $17, $18, $22, $19, $19, $19) RETURNING id",
    )
    .bind(&order_random)
    .bind(&order_key)
    .bind(user_id)
    .bind(self_token)
    .bind(&scoped)
    .bind(d.name.as_deref().unwrap_or_default())
    .bind(d.mobile.as_deref().unwrap_or_default())
    .bind(d.emergency_mobile.as_deref().unwrap_or_default())
    .bind(d.email.as_deref().unwrap_or_default())
    .bind(d.address.as_deref().unwrap_or_default())
    .bind(d.division.as_deref().unwrap_or_default())
    .bind(d.district.as_deref().unwrap_or_default())
    .bind(d.thana.as_deref().unwrap_or_default())
    .bind(totals.total_amount)
    .bind(totals.delivery_fee)
    .bind(applied.as_ref().map(|a| a.coupon.coupon_code.clone()))
    .bind(totals.discount)
    .bind(totals.grand_total)
    .bind(now)
    .bind(method)
    .bind(term_status)
    .bind((pay_now != totals.grand_total).then_some(pay_now))
    .fetch_one(&mut *tx)
    .await?;
    for line in &cart.lines {
        db::query(
            "INSERT INTO order_detail (order_id, product_id, variation_id, product_set_id, fabric_id, \
             product_code, name, sub_title, qty, local_selling_price, local_purchase_price, \
             total_purchase_price, flash_item_id, item_json, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15)",
        )
        .bind(id)
        .bind(line.product_id)
        .bind(line.variation_id)
        .bind(line.product_set_id)
        .bind(line.fabric_id)
        .bind(&line.item_code)
        .bind(&line.title)
        .bind(&line.sub_title)
        .bind(line.qty)
        .bind(line.price_before)
        .bind(line.unit_price())
        .bind(line.total())
        .bind(line.flash_item_id)
        .bind(item_json(line).to_string())
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    db::query(
        "INSERT INTO order_status_history (order_id, status, note, created_at, updated_at) \
         VALUES ($1, 'placed', $3, $2, $2)",
    )
    .bind(id)
    .bind(now)
    .bind(match paying {
        Paying::CashOnDelivery => "Cash on delivery order placed",
        Paying::Online(_) => "Order placed; waiting for its online payment",
    })
    .execute(&mut *tx)
    .await?;
    if paying == Paying::CashOnDelivery {
        empty_cart(&mut tx, d.id).await?;
    }
    tx.commit().await?;
    tracing::info!(
        order = id,
        grand_total = totals.grand_total,
        method,
        "order placed"
    );
    Ok(Placed {
        id,
        order_random,
        order_key,
        grand_total: totals.grand_total,
        pay_now,
        replayed: false,
    })
}

/// Everything a cash-on-delivery order needs, checked before anything is written.
fn ready_for_cash_on_delivery(cart: &Cart) -> ApiResult<()> {
    let d = &cart.details;
    ready_to_deliver(cart)?;
    if cart.is_pre_booking() {
        return Err(ApiError::Conflict(
            "A pre-booking is paid in part online, not on delivery.".into(),
        ));
    }
    if !cart.cash_on_delivery_allowed() {
        return Err(ApiError::Conflict(
            "Something in your cart cannot be paid on delivery.".into(),
        ));
    }
    if d.payment_method.as_deref() != Some("cash_on_delivery") || !d.terms_accepted {
        return Err(ApiError::Conflict(
            "Choose cash on delivery and accept the terms first.".into(),
        ));
    }
    Ok(())
}

/// Everything an order paid online needs, checked before anything is written.
fn ready_for_online(cart: &Cart, methods: &[&str]) -> ApiResult<()> {
    ready_to_deliver(cart)?;
    let chosen = cart.details.payment_method.as_deref().unwrap_or_default();
    if !methods.contains(&chosen) || !cart.details.terms_accepted {
        return Err(ApiError::Conflict(
            "Choose this payment method and accept the terms first.".into(),
        ));
    }
    Ok(())
}

/// A cart with lines and somewhere to deliver them.
fn ready_to_deliver(cart: &Cart) -> ApiResult<()> {
    let d = &cart.details;
    if cart.is_empty() {
        return Err(ApiError::Conflict("Your cart is empty.".into()));
    }
    let has = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
    if !(has(&d.name) && has(&d.mobile) && has(&d.address) && has(&d.district)) {
        return Err(ApiError::Conflict(
            "Add your name, mobile number and delivery address first.".into(),
        ));
    }
    Ok(())
}

/// Empties the cart of the shopper who placed `order_id` (after its first
/// online payment, as cash on delivery does at placement).
pub(crate) async fn empty_cart_of_order(conn: &mut Conn, order_id: i64) -> sqlx::Result<()> {
    let cart_id: Option<i64> = db::query_scalar(
        "SELECT c.id FROM cart c JOIN order_master o ON o.id = $1 \
         WHERE (o.user_id IS NOT NULL AND c.user_id = o.user_id) \
         OR (o.user_id IS NULL AND c.self_token = o.self_token)",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?;
    match cart_id {
        Some(id) => empty_cart(conn, id).await,
        None => Ok(()),
    }
}

/// Takes a line's units from stock, or fails with what is left. Pre-bookings
/// take no stock.
async fn take_stock(conn: &mut Conn, line: &Line) -> ApiResult<()> {
    if line.pre_booking {
        return Ok(());
    }
    let (table, id) = match line.variation_id {
        Some(v) => ("product_variation", v),
        None => ("product", line.product_id),
    };
    let taken = db::query(&format!(
        "UPDATE {table} SET stock = stock - $1 WHERE id = $2 AND stock >= $1"
    ))
    .bind(line.qty)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    if taken.rows_affected() == 1 {
        return Ok(());
    }
    let left: i64 = db::query_scalar(&format!("SELECT stock FROM {table} WHERE id = $1"))
        .bind(id)
        .fetch_one(&mut *conn)
        .await?;
    Err(ApiError::Conflict(if left <= 0 {
        format!(
            "{} has just sold out. Remove it from your cart to go on.",
            line.title
        )
    } else {
        format!(
            "Only {left} of {} are left. Lower the quantity to go on.",
            line.title
        )
    }))
}

/// The cart line as it was when ordered (`item_jeson` to the original client).
fn item_json(line: &Line) -> Value {
    json!({
        "productid": line.product_id,
        "productcode": line.item_code,
        "sub_title": line.sub_title,
        "variation_id": line.variation_id,
        "variation_info": line.variation_label().map(|v| json!({ "variations": v })),
        "image_url": line.image_url,
        "flash_discount": line.flash_discount,
        "pre_price": line.price_before,
        "purchaseprice": line.unit_price(),
        "qty": line.qty,
        "pset_id": line.product_set_id,
        "fabric_id": line.fabric_id,
    })
}

/// Empties a cart after its order: lines, sets, coupon and payment choice.
async fn empty_cart(conn: &mut Conn, cart_id: i64) -> sqlx::Result<()> {
    db::query("DELETE FROM cart_item WHERE cart_id = $1")
        .bind(cart_id)
        .execute(&mut *conn)
        .await?;
    db::query("DELETE FROM cart_set WHERE cart_id = $1")
        .bind(cart_id)
        .execute(&mut *conn)
        .await?;
    db::query(
        "UPDATE cart SET coupon_code = NULL, payment_method = NULL, terms_accepted = FALSE, \
         paying_amount = NULL WHERE id = $1",
    )
    .bind(cart_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A fresh ten-digit order number.
async fn unused_order_number(conn: &mut Conn) -> sqlx::Result<String> {
    loop {
        let n: u64 = rand::thread_rng().gen_range(1_000_000_000..10_000_000_000);
        let number = n.to_string();
        let taken: Option<i64> =
            db::query_scalar("SELECT id FROM order_master WHERE order_random = $1")
                .bind(&number)
                .fetch_optional(&mut *conn)
                .await?;
        if taken.is_none() {
            return Ok(number);
        }
    }
}

async fn by_idempotency_key(conn: &mut Conn, key: &str) -> sqlx::Result<Option<Placed>> {
    // Only cash-on-delivery placements carry a key: all of it is due on delivery.
    let row: Option<(i64, String, String, i64)> = db::query_as(
        "SELECT id, order_random, order_key, grand_total FROM order_master WHERE idempotency_key = $1",
    )
    .bind(key)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(
        row.map(|(id, order_random, order_key, grand_total)| Placed {
            id,
            order_random,
            order_key,
            grand_total,
            pay_now: grand_total,
            replayed: true,
        }),
    )
}

/// An order's head, as the thank-you and track pages show it.
#[derive(Debug, Clone, FromRow)]
pub struct Master {
    pub id: i64,
    pub order_random: String,
    pub customer_name: String,
    pub phone: String,
    pub emergency_phone: String,
    pub email: String,
    pub address: String,
    pub division: String,
    pub district: String,
    pub thana: String,
    pub payment_method: String,
    pub payment_term_status: String,
    pub order_status: String,
    pub currency: String,
    pub total_amount: i64,
    pub delivery_fee: i64,
    pub coupon_code: Option<String>,
    pub coupon_discount: i64,
    pub grand_total: i64,
    pub amount_paid: i64,
    pub amount_refunded: i64,
    pub trans_id: String,
    pub ordered_at: i64,
    pub delivery_date: Option<i64>,
}

const MASTER_COLUMNS: &str =
    "id, order_random, customer_name, phone, emergency_phone, email, address, \
     division, district, thana, payment_method, payment_term_status, order_status, currency, \
     total_amount, delivery_fee, coupon_code, coupon_discount, grand_total, amount_paid, \
     amount_refunded, trans_id, ordered_at, delivery_date";

/// The order `id`.
pub async fn by_id(pool: &Pool, id: i64) -> sqlx::Result<Option<Master>> {
    db::query_as(&format!(
        "SELECT {MASTER_COLUMNS} FROM order_master WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(pool)
    .await
}

/// The order with this number and secret key (the thank-you page's link).
pub async fn by_number_and_key(
    pool: &Pool,
    order_random: &str,
    order_key: &str,
) -> sqlx::Result<Option<Master>> {
    db::query_as(&format!(
        "SELECT {MASTER_COLUMNS} FROM order_master WHERE order_random = $1 AND order_key = $2"
    ))
    .bind(order_random)
    .bind(order_key)
    .fetch_optional(pool)
    .await
}

/// The order with this number placed with this mobile number (track order).
pub async fn by_number_and_phone(
    pool: &Pool,
    order_random: &str,
    phone: &str,
) -> sqlx::Result<Option<Master>> {
    db::query_as(&format!(
        "SELECT {MASTER_COLUMNS} FROM order_master WHERE order_random = $1 AND phone = $2"
    ))
    .bind(order_random)
    .bind(phone)
    .fetch_optional(pool)
    .await
}

/// An order's head as the thank-you, track and account pages show it, from
/// a [`Master`].
#[derive(Debug, Serialize, JsonSchema)]
pub struct OrderHead {
    pub order_id: i64,
    /// The order number shoppers see.
    pub order_random: String,
    pub customer_name: String,
    pub phone: String,
    pub emergency_phone: String,
    pub email: String,
    pub address: String,
    pub division: String,
    pub district: String,
    pub thana: String,
    /// Dhaka time, `YYYY-MM-DD HH:MM`.
    pub order_date: String,
    pub payment_method: String,
    pub payment_term_status: String,
    pub order_status: String,
    pub currency: String,
    /// Taka, the lines before discount and delivery.
    pub total_amount: i64,
    pub delivery_fee: i64,
    pub coupon_code: Option<String>,
    pub coupon_discount: i64,
    pub grand_total: i64,
    pub amount_paid: i64,
    /// Taka given back through the payment gateway (`origin refund`).
    pub amount_refunded: i64,
    /// The payment gateway's transaction id; empty when none.
    pub trans_id: String,
    /// `YYYY-MM-DD`; null until known.
    pub delivery_date: Option<String>,
}

impl From<&Master> for OrderHead {
    fn from(m: &Master) -> OrderHead {
        let date = |t: i64, f: &str| clock::in_dhaka(t).format(f).to_string();
        OrderHead {
            order_id: m.id,
            order_random: m.order_random.clone(),
            customer_name: m.customer_name.clone(),
            phone: m.phone.clone(),
            emergency_phone: m.emergency_phone.clone(),
            email: m.email.clone(),
            address: m.address.clone(),
            division: m.division.clone(),
            district: m.district.clone(),
            thana: m.thana.clone(),
            order_date: date(m.ordered_at, "%Y-%m-%d %H:%M"),
            payment_method: m.payment_method.clone(),
            payment_term_status: m.payment_term_status.clone(),
            order_status: m.order_status.clone(),
            currency: m.currency.clone(),
            total_amount: m.total_amount,
            delivery_fee: m.delivery_fee,
            coupon_code: m.coupon_code.clone(),
            coupon_discount: m.coupon_discount,
            grand_total: m.grand_total,
            amount_paid: m.amount_paid,
            amount_refunded: m.amount_refunded,
            trans_id: m.trans_id.clone(),
            delivery_date: m.delivery_date.map(|t| date(t, "%Y-%m-%d")),
        }
    }
}

/// One line of an order, as [`details`] reads it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct OrderLine {
    pub product_id: i64,
    pub seo_url: String,
    /// The product's title when ordered.
    pub name: String,
    pub sub_title: String,
    pub product_code: String,
    pub qty: i64,
    /// The product's main picture, icon size; null when it has none.
    pub image_url: Option<String>,
    /// Taka each, before discount.
    pub local_selling_price: i64,
    /// Taka each, as sold.
    pub local_purchase_price: i64,
    pub total_purchase_price: i64,
    /// The cart line as it was when ordered (its shape is the cart's of that
    /// day, kept as stored); null when unreadable. The name is the original
    /// API's spelling.
    pub item_jeson: Value,
    pub od_status: String,
    /// The main picture, full size; null when the product has none.
    pub first_image: Option<OrderLineImage>,
    pub product: OrderLineProduct,
}

/// The full-size picture of an ordered product.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct OrderLineImage {
    pub full_size_directory: String,
}

/// The ordered product's page, as it is now.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct OrderLineProduct {
    pub seo_url: String,
    pub title: String,
    pub sub_title: String,
    pub product_code: String,
}

/// An order's lines with their product's page and picture.
pub async fn details(pool: &Pool, order_id: i64) -> sqlx::Result<Vec<OrderLine>> {
    let rows: Vec<DetailRow> = db::query_as(
        "SELECT od.product_id, p.seo_url, p.title, od.name, od.sub_title, od.product_code, od.qty, \
         od.local_selling_price, od.local_purchase_price, od.total_purchase_price, od.item_json, \
         od.od_status, \
         (SELECT f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
          WHERE pi.product_id = od.product_id ORDER BY pi.is_main DESC, pi.sort, pi.id LIMIT 1) AS image_url, \
         (SELECT f.full_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
          WHERE pi.product_id = od.product_id ORDER BY pi.is_main DESC, pi.sort, pi.id LIMIT 1) AS full_image \
         FROM order_detail od JOIN product p ON p.id = od.product_id WHERE od.order_id = $1 ORDER BY od.id",
    )
    .bind(order_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| OrderLine {
            product: OrderLineProduct {
                seo_url: r.seo_url.clone(),
                title: r.title,
                sub_title: r.sub_title.clone(),
                product_code: r.product_code.clone(),
            },
            product_id: r.product_id,
            seo_url: r.seo_url,
            name: r.name,
            sub_title: r.sub_title,
            product_code: r.product_code,
            qty: r.qty,
            image_url: r.image_url,
            local_selling_price: r.local_selling_price,
            local_purchase_price: r.local_purchase_price,
            total_purchase_price: r.total_purchase_price,
            item_jeson: serde_json::from_str::<Value>(&r.item_json).unwrap_or(Value::Null),
            od_status: r.od_status,
            first_image: r.full_image.map(|full_size_directory| OrderLineImage {
                full_size_directory,
            }),
        })
        .collect())
}

#[derive(Debug, FromRow)]
struct DetailRow {
    product_id: i64,
    seo_url: String,
    title: String,
    name: String,
    sub_title: String,
    product_code: String,
    qty: i64,
    local_selling_price: i64,
    local_purchase_price: i64,
    total_purchase_price: i64,
    item_json: String,
    od_status: String,
    image_url: Option<String>,
    full_image: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idempotency_keys_are_scoped_by_their_owner() {
        let key = "abcdefgh-1";
        assert!(valid_idempotency_key(key));
        assert!(!valid_idempotency_key("short"));
        assert!(!valid_idempotency_key("has a space"));
        assert_ne!(
            scoped_key(&Owner::User(1), key),
            scoped_key(&Owner::Guest("1".into()), key)
        );
    }
}
