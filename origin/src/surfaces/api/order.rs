//! The order journey's end (SPEC.md §7, Cart group): an order read back by
//! the link of its thank-you page (`order-details`) or by its number and the
//! mobile it was placed with (`track-order`). Neither needs an identity (the
//! link or the mobile is the proof), and neither answer is cached.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::domain::orders::{self, OrderHead, OrderLine};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Query;
use crate::plumbing::params::{required, Text};
use crate::plumbing::ratelimit::{self, Throttle};
use crate::plumbing::validate::{self, MOBILE_PATTERN};
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Order routes under `/api/cart`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/order-details",
            get_order_details,
            Doc::open("An order by its number and secret key (the thank-you link)")
                .answers(404, "No such order"),
        )
        .get(
            "/track-order",
            get_track_order,
            Doc::open("An order by its number and the mobile it was placed with")
                .answers(404, "No order has that number and mobile")
                .answers(
                    429,
                    "Too many failed lookups of this order number or from this client address: wait Retry-After seconds",
                ),
        )
}

/// The parameters of `GET /api/cart/order-details`.
#[derive(Debug, Deserialize, JsonSchema)]
struct OrderDetailsQuery {
    /// The order number.
    #[schemars(required)]
    order_random: Option<Text<1, MAX_PARAM_LEN>>,
    /// The order's key.
    #[schemars(required)]
    secret_key: Option<Text<1, MAX_PARAM_LEN>>,
}

/// The answer of `GET /api/cart/order-details`: the whole order.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OrderDetailsResponse {
    pub success: bool,
    pub order_masters: OrderHead,
    pub order_details: Vec<OrderLine>,
}

/// `GET /api/cart/order-details?order_random=&secret_key=`.
async fn get_order_details(
    State(state): State<AppState>,
    Query(query): Query<OrderDetailsQuery>,
) -> ApiResult<Json<OrderDetailsResponse>> {
    let number = required(query.order_random, "order_random")?;
    let key = required(query.secret_key, "secret_key")?;
    let order = orders::by_number_and_key(&state.pool, &number, &key)
        .await?
        .ok_or_else(|| ApiError::not_found("Order not found"))?;
    let details = orders::details(&state.pool, order.id).await?;
    Ok(Json(OrderDetailsResponse {
        success: true,
        order_masters: OrderHead::from(&order),
        order_details: details,
    }))
}

/// The parameters of `GET /api/cart/track-order`.
#[derive(Debug, Deserialize, JsonSchema)]
struct TrackOrderQuery {
    /// The order number.
    #[schemars(required)]
    id: Option<Text<1, MAX_PARAM_LEN>>,
    /// The mobile number used for the order.
    #[schemars(required, extend("pattern" = MOBILE_PATTERN))]
    phone: Option<Text<1, MAX_PARAM_LEN>>,
}

/// The answer of `GET /api/cart/track-order`: where an order stands.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TrackOrderResponse {
    pub success: bool,
    pub order_masters: TrackedOrder,
    pub order_details: Vec<OrderLine>,
}

/// What tracking shows of an order's head (less than the thank-you page:
/// the caller proved only the number and the mobile, so no address): its
/// state and its money, what is paid and what is due.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TrackedOrder {
    pub order_random: String,
    /// Dhaka time, `YYYY-MM-DD HH:MM`.
    pub order_date: String,
    pub customer_name: String,
    pub order_status: String,
    /// How the shopper pays: `cash_on_delivery`, `debitcredit`, `mobilebanking`,
    /// `bkash` or `nagad`.
    pub payment_method: String,
    pub payment_term_status: String,
    /// Taka: the lines before discount and delivery.
    pub total_amount: i64,
    pub coupon_code: Option<String>,
    pub coupon_discount: i64,
    pub delivery_fee: i64,
    pub grand_total: i64,
    /// Taka paid so far (a pre-booking's advance, or all of it online);
    /// the rest is due on delivery.
    pub amount_paid: i64,
    /// Taka given back through the payment gateway.
    pub amount_refunded: i64,
}

/// Failed lookups of one order number (a wrong mobile), from anywhere: 5
/// free, then 2, 4, 8 s... between attempts, and the tenth locks the number
/// for an hour. A mobile has about 10^8 values: nobody guesses it at that pace.
pub const TRACK_PER_ORDER: Throttle = Throttle {
    free: 5,
    first_wait: 2,
    max_wait: 600,
    lock_at: Some(10),
    lock_secs: 3_600,
};

/// Failed lookups from one client address, of any numbers: 20 free, then
/// 1, 2, 4 s... at most 10 minutes between attempts. Successes are not counted.
pub const TRACK_PER_ADDRESS: Throttle = Throttle {
    free: 20,
    first_wait: 1,
    max_wait: 600,
    lock_at: None,
    lock_secs: 0,
};

/// `GET /api/cart/track-order?id=&phone=`.
async fn get_track_order(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<TrackOrderQuery>,
) -> ApiResult<Json<TrackOrderResponse>> {
    let number = required(query.id, "id")?;
    let phone = required(query.phone, "phone")?;
    let phone = validate::bd_mobile(&phone)
        .ok_or_else(|| ApiError::invalid("phone", "A mobile number is 11 digits: 01XXXXXXXXX."))?;
    let order_key = format!("track-order:{}", number.trim().to_lowercase());
    let address_key = format!("track-ip:{}", ratelimit::client(&headers));
    let keys = [
        (order_key.as_str(), &TRACK_PER_ORDER),
        (address_key.as_str(), &TRACK_PER_ADDRESS),
    ];
    if let Err(wait) = ratelimit::attempt(&state.pool, &keys, catalog::clock::now_unix()).await? {
        return Err(ApiError::TooManyRequests {
            message: format!(
                "Too many tries for this order. Please try again in {}.",
                ratelimit::wait_words(wait)
            ),
            retry_after: wait,
        });
    }
    let order = orders::by_number_and_phone(&state.pool, &number, &phone)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has that number and mobile number."))?;
    ratelimit::clear(&state.pool, &order_key).await?;
    ratelimit::refund(&state.pool, &address_key, &TRACK_PER_ADDRESS).await?;
    let details = orders::details(&state.pool, order.id).await?;
    let head = OrderHead::from(&order);
    Ok(Json(TrackOrderResponse {
        success: true,
        order_masters: TrackedOrder {
            order_random: head.order_random,
            order_date: head.order_date,
            customer_name: head.customer_name,
            order_status: head.order_status,
            payment_method: head.payment_method,
            payment_term_status: head.payment_term_status,
            total_amount: head.total_amount,
            coupon_code: head.coupon_code,
            coupon_discount: head.coupon_discount,
            delivery_fee: head.delivery_fee,
            grand_total: head.grand_total,
            amount_paid: head.amount_paid,
            amount_refunded: head.amount_refunded,
        },
        order_details: details,
    }))
}
