//! The cart itself (SPEC.md §7, Cart group): what is in it
//! (`/api/cart/view`, its answer in [`answer`]), putting products and sets in
//! ([`add`]) and taking them out, quantities, the coupon, and the header's
//! counts. Checkout lives in [`super::checkout`], the order read back in
//! [`super::order`]; the three read their input with
//! [`crate::plumbing::params`]' types.
//! Every answer is the caller's own (guest by SELF-TOKEN, or signed in), so
//! none is cached. Unlike the original, failures are 4xx JSON errors with a
//! message a shopper can act on, prices are never trusted from the client,
//! and a cart's lines are priced at the instant of each call.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use catalog::clock;
use catalog::db;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::domain::badges;
use crate::domain::cart::{self, Cart};
use crate::domain::coupon;
use crate::domain::identity::{Caller, Owner};
use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::domain::orders;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{Json as Body, Query};
use crate::plumbing::params::{blank_allowed, blank_is_none, Id, Int, Text, Whole};
use crate::state::AppState;
use crate::surfaces::api::answers::MessageResponse;
use crate::surfaces::api::doc::{ApiRouter, Doc};

mod add;
mod answer;

pub use add::{AddToCartAnswer, AddToCartResponse, Added, AddedLine, AddedSet};
pub(crate) use answer::cart_answer;
pub use answer::{
    CartAddress, CartContents, CartCoupon, CartLine, CartLineItem, CartLineProduct, CartResponse,
    CartSet, CartSetInfo, PaymentChoice, VariationInfo,
};

/// A coupon code as the schema states it (see [`coupon::valid_code`]).
pub(crate) const COUPON_PATTERN: &str = "^[A-Za-z0-9_-]{1,40}$";

/// A product set's items in `remove-cart-item`: `pid:code` pairs joined by
/// commas.
const PID_CODES_PATTERN: &str = r"^[0-9]{1,18}:[^,\s]+(,[0-9]{1,18}:[^,\s]+)*$";

/// Cart routes under `/api/cart`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/view",
            get_view,
            Doc::visitor("The caller's cart priced now: {cart, pm, prebooking, cash_on_delivery, ...}"),
        )
        .get_post(
            "/add-to-cart",
            add::get_add,
            Doc::visitor("Adds a product (main_pid, qty, variation_id) or a product set (pset_id, fabric_id); GET or POST (query or form fields); the answer carries the header's new cartCount (as count-notification counts); a browser navigation (Accept: text/html first) is answered 303 to /cart")
                .answers(404, "No such product or set")
                .answers(409, "Not in stock, or not to be mixed with the cart")
                .answers(503, "Buying is switched off for a while"),
        )
        .get(
            "/remove-cart-item",
            get_remove,
            Doc::visitor("Removes a line (pcode, optionally pid) or a set (pid_codes)")
                .answers(404, "The cart is empty or has no such line"),
        )
        .post(
            "/update",
            post_update,
            Doc::visitor("Sets quantities: {items: {<code>: {id, code, qty}}}")
                .answers(404, "The cart is empty or has no such line")
                .answers(409, "Not that many in stock")
                .answers(503, "Buying is switched off for a while"),
        )
        .get(
            "/count-notification",
            get_count,
            Doc::visitor("Header badges: {compareCount, wishCount, cartCount}"),
        )
        .post(
            "/coupon-apply",
            post_coupon_apply,
            Doc::visitor("Applies a coupon to the cart: {success, message, data, discount}")
                .answers(404, "No such coupon")
                .answers(409, "The cart is empty, or the coupon does not hold for it"),
        )
}

/// The caller's cart now.
pub(crate) async fn load(state: &AppState, owner: &Owner) -> ApiResult<Cart> {
    let mut conn = state.pool.acquire().await?;
    Ok(cart::load(&mut conn, owner, clock::now_unix()).await?)
}

/// The cart's totals now; a coupon that no longer holds is taken off the
/// cart (see [`orders::totals_dropping_stale_coupon`]).
pub(crate) async fn priced(
    state: &AppState,
    cart: &mut Cart,
    owner: &Owner,
) -> ApiResult<orders::Priced> {
    let mut conn = state.pool.acquire().await?;
    orders::totals_dropping_stale_coupon(&mut conn, cart, owner, clock::now_unix()).await
}

/// `GET /api/cart/view`.
async fn get_view(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<CartResponse>> {
    let owner = caller.owner()?;
    let mut cart = load(&state, &owner).await?;
    let priced = priced(&state, &mut cart, &owner).await?;
    Ok(Json(cart_answer(&cart, priced, None)))
}

/// The parameters of `GET /api/cart/remove-cart-item`: a line (`pcode`,
/// optionally `pid`) or a product set (`pid_codes`); one of `pcode` and
/// `pid_codes` is required.
#[derive(Debug, Deserialize, JsonSchema)]
struct RemoveQuery {
    /// The line's product code.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    pcode: Option<Text<1, MAX_PARAM_LEN>>,
    /// The line's product id.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    pid: Option<Id>,
    /// A set's items as pid:code joined by commas.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(extend("pattern" = PID_CODES_PATTERN), transform = blank_allowed)]
    pid_codes: Option<Text<1, MAX_PARAM_LEN>>,
}

/// `GET /api/cart/remove-cart-item?pid=&pcode=` or `?pid_codes=pid:code,...`.
async fn get_remove(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<RemoveQuery>,
) -> ApiResult<Json<MessageResponse>> {
    let owner = caller.owner()?;
    let mut tx = state.pool.begin().await?;
    let Some(id) = cart::cart_id(&mut tx, &owner, false).await? else {
        return Err(ApiError::not_found("Your cart is empty"));
    };
    if let Some(raw) = &query.pid_codes {
        let mut pairs = Vec::new();
        for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let parsed = part
                .split_once(':')
                .and_then(|(pid, code)| Some((pid.trim().parse::<i64>().ok()?, code.trim())))
                .filter(|(_, code)| !code.is_empty());
            let Some((pid, code)) = parsed else {
                return Err(ApiError::invalid(
                    "pid_codes",
                    "pid_codes must be pid:code pairs joined by commas",
                ));
            };
            pairs.push((pid, code.to_string()));
        }
        cart::remove_set(&mut tx, id, &pairs).await?;
    } else {
        let code = query
            .pcode
            .ok_or_else(|| ApiError::invalid("pcode", "pcode is required"))?;
        cart::remove_line(&mut tx, id, &code, query.pid.map(Int::get)).await?;
    }
    tx.commit().await?;
    Ok(Json(MessageResponse::new("Removed from your cart")))
}

/// New quantities.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("required" = ["items"]))]
struct UpdateBody {
    /// Lines keyed by product code.
    #[serde(default)]
    #[schemars(extend("minProperties" = 1, "maxProperties" = cart::MAX_LINES))]
    items: BTreeMap<String, UpdateLine>,
}

/// One line's new quantity.
#[derive(Debug, Deserialize, JsonSchema)]
struct UpdateLine {
    /// The line's code, when it differs from the key.
    #[serde(default)]
    code: Option<String>,
    /// 1-99.
    #[schemars(range(min = 1, max = 99))]
    qty: Whole,
}

/// `POST /api/cart/update` with `{items: {<code>: {id, code, qty}}}`.
async fn post_update(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<UpdateBody>,
) -> ApiResult<Json<MessageResponse>> {
    let owner = caller.owner()?;
    if body.items.is_empty() {
        return Err(ApiError::invalid("items", "No product to update."));
    }
    if body.items.len() > cart::MAX_LINES as usize {
        return Err(ApiError::invalid("items", "Too many lines."));
    }
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    for (key, line) in &body.items {
        if !(1..=cart::MAX_QTY).contains(&line.qty.0) {
            return Err(ApiError::invalid(
                "qty",
                format!("{key}: a quantity is 1 to {}", cart::MAX_QTY),
            ));
        }
    }
    let mut tx = db::begin_write(&state.pool).await?;
    let Some(id) = cart::cart_id(&mut tx, &owner, false).await? else {
        return Err(ApiError::not_found("Your cart is empty"));
    };
    for (key, line) in &body.items {
        let code = line.code.as_deref().unwrap_or(key);
        cart::set_qty(&mut tx, id, code, line.qty.0).await?;
    }
    tx.commit().await?;
    Ok(Json(MessageResponse::new("Cart updated")))
}

/// The answer of `GET /api/cart/count-notification`: the header's badges.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CountResponse {
    pub success: bool,
    /// Products on the compare list.
    #[serde(rename = "compareCount")]
    pub compare_count: i64,
    /// Products on the wishlist.
    #[serde(rename = "wishCount")]
    pub wish_count: i64,
    /// The cart's lines (a product set counts once).
    #[serde(rename = "cartCount")]
    pub cart_count: usize,
    /// Units in the cart.
    #[serde(rename = "cartQty")]
    pub cart_qty: i64,
}

/// `GET /api/cart/count-notification`: compare and wishlist sizes and the
/// cart's lines (a set counts once).
async fn get_count(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<CountResponse>> {
    let owner = caller.owner()?;
    let cart = load(&state, &owner).await?;
    let lists = badges::list_sizes(&state.pool, &owner).await?;
    Ok(Json(CountResponse {
        success: true,
        compare_count: lists.compare,
        wish_count: lists.wish,
        cart_count: cart.line_count(),
        cart_qty: cart.total_qty(),
    }))
}

/// Stores `code` on the caller's cart when it holds now: the cart and the
/// coupon applied.
pub(crate) async fn apply_coupon(
    state: &AppState,
    owner: &Owner,
    code: &str,
) -> ApiResult<(Cart, coupon::Applied)> {
    let mut conn = state.pool.acquire().await?;
    coupon::apply_to_cart(&mut conn, owner, code, clock::now_unix()).await
}

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("required" = ["coupon"]))]
struct CouponBody {
    /// The coupon code: letters, digits, `-` and `_`.
    #[serde(default)]
    #[schemars(extend("pattern" = COUPON_PATTERN))]
    coupon: String,
}

/// The answer of `POST /api/cart/coupon-apply`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CouponApplyResponse {
    pub success: bool,
    pub message: &'static str,
    /// The coupon applied.
    pub data: coupon::Coupon,
    /// Taka it takes off this cart.
    pub discount: i64,
    /// Taka, the lines before discount and delivery.
    pub totalprice: i64,
}

/// `POST /api/cart/coupon-apply` with `{coupon}`.
async fn post_coupon_apply(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<CouponBody>,
) -> ApiResult<Json<CouponApplyResponse>> {
    let owner = caller.owner()?;
    if body.coupon.trim().is_empty() {
        return Err(ApiError::invalid("coupon", "Enter a coupon code."));
    }
    let (cart, applied) = apply_coupon(&state, &owner, &body.coupon).await?;
    Ok(Json(CouponApplyResponse {
        success: true,
        message: "Coupon applied successfully",
        data: applied.coupon,
        discount: applied.discount,
        totalprice: cart.subtotal(),
    }))
}
