//! The Cart group of SPEC.md §7 (`/api/cart/...`) and `/api/cod-place-order`,
//! with the parameter and field names of ORIGINAL-API.md §2. Every answer is
//! the caller's own (guest by SELF-TOKEN, or signed in), so none is cached.
//! Unlike the original, failures are 4xx JSON errors with a message a shopper
//! can act on, prices are never trusted from the client, and a cart's lines
//! are priced at the instant of each call.

use catalog::db;
use std::collections::BTreeMap;

use aide::generate::GenContext;
use aide::openapi::{Operation, Response as DocResponse};
use aide::OperationOutput;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use catalog::clock;

use crate::domain::cart::{self, Cart, Line};
use crate::domain::coupon;
use crate::domain::identity::Caller;
use crate::domain::identity::Owner;
use crate::domain::orders;
use crate::domain::orders::{OrderHead, OrderLine};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::plumbing::validate;
use crate::state::AppState;
use crate::surfaces::api::answers::{ById, MessageResponse};
use crate::surfaces::api::category::Params;
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::home::Pairs;

/// Largest id accepted in a parameter.
const MAX_ID: i64 = i64::MAX / 2;

/// Routes under `/api/cart`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/view",
            get_view,
            Doc::visitor("The caller's cart priced now: {cart, pm, prebooking, cash_on_delivery, ...}"),
        )
        .get_post(
            "/add-to-cart",
            get_add,
            Doc::visitor("Adds a product (main_pid, qty, variation_id) or a product set (pset_id, fabric_id); GET or POST (query or form fields); the answer carries the header's new cartCount (as count-notification counts); a browser navigation (Accept: text/html first) is answered 303 to /cart")
                .query_opt("main_pid", "integer", "The product's id")
                .query_opt("qty", "integer", "Units, 1-99 (default 1)")
                .query_opt("variation_id", "integer", "One of the product's variations")
                .query_opt("pset_id", "integer", "A product set's id, to add the whole set")
                .query_opt("fabric_id", "integer", "A fabric of that set")
                .answers(404, "No such product or set")
                .answers(409, "Not in stock, or not to be mixed with the cart")
                .answers(503, "Buying is switched off for a while"),
        )
        .get(
            "/remove-cart-item",
            get_remove,
            Doc::visitor("Removes a line (pcode, optionally pid) or a set (pid_codes)")
                .query_opt("pcode", "string", "The line's product code")
                .query_opt("pid", "integer", "The line's product id")
                .query_opt("pid_codes", "string", "A set's items as pid:code joined by commas")
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
        .get(
            "/checkout-address",
            get_checkout_address,
            Doc::visitor("Starts checkout: re-checks the coupon and answers the totals")
                .query_opt("coupon", "string", "The coupon the shopper applied, or false")
                .answers(404, "No such coupon")
                .answers(409, "The cart is empty, or the coupon does not hold for it"),
        )
        .post(
            "/coupon-apply",
            post_coupon_apply,
            Doc::visitor("Applies a coupon to the cart: {success, message, data, discount}")
                .answers(404, "No such coupon")
                .answers(409, "The cart is empty, or the coupon does not hold for it"),
        )
        .get(
            "/get-delivery-charge",
            get_delivery_charge,
            Doc::visitor("The delivery charge to a district for this cart")
                .query("district", "string", "A district's name (or 'Dhaka' / 'Outside Dhaka')"),
        )
        .post(
            "/checkout-delivery-address",
            post_delivery_address,
            Doc::visitor("Saves the contact and delivery address")
                .answers(409, "The cart is empty"),
        )
        .post(
            "/store-payment-method",
            post_payment_method,
            Doc::visitor("Chooses how to pay")
                .answers(409, "The cart is empty, or cannot be paid that way")
                .answers(503, "That payment method is not available"),
        )
        .post(
            "/set-paying-amount",
            post_paying_amount,
            Doc::visitor("The part payment of a pre-booking cart")
                .answers(409, "The cart is not a pre-booking"),
        )
        .get(
            "/order-details",
            get_order_details,
            Doc::open("An order by its number and secret key (the thank-you link)")
                .query("order_random", "string", "The order number")
                .query("secret_key", "string", "The order's key")
                .answers(404, "No such order"),
        )
        .get(
            "/track-order",
            get_track_order,
            Doc::open("An order by its number and the mobile it was placed with")
                .query("id", "string", "The order number")
                .query("phone", "string", "The mobile number used for the order")
                .answers(404, "No order has that number and mobile"),
        )
        .get(
            "/get-payment-gateway",
            get_payment_gateways,
            Doc::open("Which payment methods are on"),
        )
}

/// `/api/cod-place-order`, mounted at the API's root.
pub fn place_order_router() -> ApiRouter {
    ApiRouter::new().post(
        "/cod-place-order",
        post_place_order,
        Doc::visitor("Places the cart as a cash-on-delivery order: {uri, order_random, order_key}")
            .header(
                "Idempotency-Key",
                false,
                "A retry with the same key returns the first order",
            )
            .field_opt("idempotency_key", "string", "The same, in the body")
            .answers(409, "The cart is empty, incomplete or no longer in stock")
            .answers(503, "Buying is switched off for a while"),
    )
}

/// The caller's cart now.
async fn load(state: &AppState, owner: &Owner) -> ApiResult<Cart> {
    let mut conn = state.pool.acquire().await?;
    Ok(cart::load(&mut conn, owner, clock::now_unix()).await?)
}

/// A cart line as the original client reads it (ORIGINAL-API.md §2, LINE).
/// Prices are taka, at the instant of the call.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartLine {
    pub qty: i64,
    /// Taka each, as sold now.
    pub purchaseprice: i64,
    pub total: i64,
    pub product_id: i64,
    /// The product set the line came with; null for a lone product.
    pub pset_id: Option<i64>,
    pub fabric_id: Option<i64>,
    pub item: CartLineItem,
    pub info: CartLineProduct,
}

/// What was put in the cart.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartLineItem {
    pub productid: i64,
    /// The line's code: the product's, or its variation's.
    pub productcode: String,
    /// `productcode` again.
    pub item_code: String,
    pub sub_title: String,
    pub purchaseprice: i64,
    pub qty: i64,
    pub variation_id: Option<i64>,
    pub variation_info: Option<VariationInfo>,
    pub image_url: Option<String>,
    /// Taka off each in a running flash sale.
    pub flash_discount: Option<i64>,
    /// Taka each before any discount.
    pub pre_price: i64,
    pub pset_id: Option<i64>,
    pub fabric_id: Option<i64>,
}

/// The chosen variation, in words (`Colour: Walnut`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct VariationInfo {
    pub variations: String,
}

/// The product of a cart line, as it is now.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartLineProduct {
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub short_description: String,
    pub seo_url: String,
    pub code: String,
    pub sku: String,
    /// Units in stock.
    pub qty: i64,
    /// Taka before any discount.
    pub price: i64,
    pub image_url: Option<String>,
    /// The product's category name (one, or none).
    pub product_category: Vec<String>,
    pub cash_on_delivery: bool,
    pub pre_booking: bool,
}

impl From<&Line> for CartLine {
    fn from(l: &Line) -> CartLine {
        CartLine {
            qty: l.qty,
            purchaseprice: l.unit_price(),
            total: l.total(),
            product_id: l.product_id,
            pset_id: l.product_set_id,
            fabric_id: l.fabric_id,
            item: CartLineItem {
                productid: l.product_id,
                productcode: l.item_code.clone(),
                item_code: l.item_code.clone(),
                sub_title: l.sub_title.clone(),
                purchaseprice: l.unit_price(),
                qty: l.qty,
                variation_id: l.variation_id,
                variation_info: variation_info(l),
                image_url: l.image_url.clone(),
                flash_discount: l.flash_discount,
                pre_price: l.price_before,
                pset_id: l.product_set_id,
                fabric_id: l.fabric_id,
            },
            info: CartLineProduct {
                id: l.product_id,
                title: l.title.clone(),
                sub_title: l.sub_title.clone(),
                short_description: l.short_description.clone(),
                seo_url: l.seo_url.clone(),
                code: l.product_code.clone(),
                sku: l.sku.clone(),
                qty: l.stock,
                price: l.price_before,
                image_url: l.image_url.clone(),
                product_category: l.category_name.iter().cloned().collect(),
                cash_on_delivery: l.cash_on_delivery,
                pre_booking: l.pre_booking,
            },
        }
    }
}

fn variation_info(l: &Line) -> Option<VariationInfo> {
    l.variation_label()
        .map(|variations| VariationInfo { variations })
}

/// The answer of `GET /api/cart/view`, and of `checkout-address` and
/// `store-payment-method`: the caller's cart priced now.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartResponse {
    pub success: bool,
    pub cart: CartContents,
    /// The payment chosen; null until one is.
    pub pm: Option<PaymentChoice>,
    pub delivery_fee: i64,
    pub grand_total: i64,
    /// The delivery district; null until the address is given.
    pub district: Option<String>,
    pub address: CartAddress,
    /// Whether the cart is a pre-booking (paid in part now).
    pub prebooking: bool,
    /// Taka a pre-booking must pay now at least.
    pub prebooking_min_amount: i64,
    /// The part payment chosen for a pre-booking.
    pub paying_amount: Option<i64>,
    /// Whether every line may be paid on delivery.
    pub cash_on_delivery: bool,
    /// Why the coupon was taken off the cart (absent when it was not), or
    /// what `store-payment-method` did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The cart's lines and money.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartContents {
    /// The lines not in a product set.
    pub items: Vec<CartLine>,
    /// The product sets, keyed by their place in the cart.
    pub psets: ById<CartSet>,
    /// Taka, the lines before discount and delivery.
    pub totalprice: i64,
    pub totalqty: i64,
    /// Taka off by the coupon.
    pub discount: i64,
    /// `Fixed` when there is a discount, else null.
    pub discount_type: Option<&'static str>,
    pub coupon: Option<CartCoupon>,
    /// Always null (the original's delivery estimate; not kept here).
    pub product_maximum_arrive_time: (),
}

/// A product set in the cart, with its lines.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartSet {
    pub info: CartSetInfo,
    pub items: Vec<CartLine>,
}

/// The product set itself.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartSetInfo {
    pub id: i64,
    pub title: String,
    pub slug: String,
    pub description: String,
    pub image_url: Option<String>,
    pub fabric_id: Option<i64>,
}

/// The coupon on the cart.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartCoupon {
    pub coupon_code: String,
    /// How `price` counts: a fixed sum or a percentage.
    pub amount_type: String,
    pub price: i64,
    /// The most a percentage takes off, taka.
    pub upto_amount: Option<i64>,
}

/// The payment chosen, with the totals it pays.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PaymentChoice {
    /// Always `BDT`.
    pub currency: &'static str,
    pub payment_method: String,
    pub terms_check: bool,
    pub total_amount: i64,
    pub discount: i64,
    /// Always `Fixed`.
    pub discount_type: &'static str,
    pub deliveryfee: i64,
    pub grand_total: i64,
}

/// The contact and delivery address kept with the cart; each null until
/// given.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartAddress {
    pub name: Option<String>,
    pub mobile: Option<String>,
    pub emergency_mobile: Option<String>,
    pub email: Option<String>,
    pub division: Option<String>,
    pub district: Option<String>,
    pub thana: Option<String>,
    pub address: Option<String>,
}

/// The whole `cart/view` answer for a cart and its totals.
fn cart_answer(
    cart: &Cart,
    totals: &orders::Totals,
    applied: Option<&coupon::Applied>,
    message: Option<String>,
) -> CartResponse {
    let items = cart
        .lines
        .iter()
        .filter(|l| l.cart_set_id.is_none())
        .map(CartLine::from)
        .collect();
    let psets = cart
        .sets
        .iter()
        .map(|set| {
            let items = cart
                .lines
                .iter()
                .filter(|l| l.cart_set_id == Some(set.cart_set_id))
                .map(CartLine::from)
                .collect();
            let info = CartSetInfo {
                id: set.id,
                title: set.title.clone(),
                slug: set.slug.clone(),
                description: set.description.clone(),
                image_url: set.image_url.clone(),
                fabric_id: set.fabric_id,
            };
            (set.cart_set_id, CartSet { info, items })
        })
        .collect();
    let d = &cart.details;
    let pm = d.payment_method.as_ref().map(|method| PaymentChoice {
        currency: "BDT",
        payment_method: method.clone(),
        terms_check: d.terms_accepted,
        total_amount: totals.total_amount,
        discount: totals.discount,
        discount_type: "Fixed",
        deliveryfee: totals.delivery_fee,
        grand_total: totals.grand_total,
    });
    CartResponse {
        success: true,
        cart: CartContents {
            items,
            psets: ById(psets),
            totalprice: totals.total_amount,
            totalqty: cart.total_qty(),
            discount: totals.discount,
            discount_type: (totals.discount > 0).then_some("Fixed"),
            coupon: applied.map(|a| CartCoupon {
                coupon_code: a.coupon.coupon_code.clone(),
                amount_type: a.coupon.amount_type.clone(),
                price: a.coupon.price,
                upto_amount: a.coupon.upto_amount,
            }),
            product_maximum_arrive_time: (),
        },
        pm,
        delivery_fee: totals.delivery_fee,
        grand_total: totals.grand_total,
        district: d.district.clone(),
        address: CartAddress {
            name: d.name.clone(),
            mobile: d.mobile.clone(),
            emergency_mobile: d.emergency_mobile.clone(),
            email: d.email.clone(),
            division: d.division.clone(),
            district: d.district.clone(),
            thana: d.thana.clone(),
            address: d.address.clone(),
        },
        prebooking: cart.is_pre_booking(),
        prebooking_min_amount: cart.pre_booking_minimum(),
        paying_amount: d.paying_amount,
        cash_on_delivery: cart.cash_on_delivery_allowed(),
        message,
    }
}

/// Totals of `cart`; a coupon that no longer holds is taken off the cart
/// and its reason returned.
async fn totals_dropping_stale_coupon(
    state: &AppState,
    cart: &mut Cart,
    owner: &Owner,
) -> ApiResult<(orders::Totals, Option<coupon::Applied>, Option<String>)> {
    let mut conn = state.pool.acquire().await?;
    let now = clock::now_unix();
    match orders::totals(&mut conn, cart, owner, now).await {
        Ok((t, applied)) => Ok((t, applied, None)),
        Err(ApiError::Conflict(reason)) | Err(ApiError::NotFound(reason))
            if cart.details.coupon_code.is_some() =>
        {
            db::query("UPDATE cart SET coupon_code = NULL WHERE id = $1")
                .bind(cart.details.id)
                .execute(&mut *conn)
                .await?;
            cart.details.coupon_code = None;
            let (t, _) = orders::totals(&mut conn, cart, owner, now).await?;
            Ok((t, None, Some(format!("Your coupon was removed: {reason}"))))
        }
        Err(e) => Err(e),
    }
}

/// `GET /api/cart/view`.
async fn get_view(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<CartResponse>> {
    let owner = caller.owner()?;
    let mut cart = load(&state, &owner).await?;
    let (totals, applied, note) = totals_dropping_stale_coupon(&state, &mut cart, &owner).await?;
    Ok(Json(cart_answer(&cart, &totals, applied.as_ref(), note)))
}

/// `GET /api/cart/add-to-cart?main_pid=&qty=&variation_id=` or
/// `?pset_id=&fabric_id=`; POST as well, with the same names in the query
/// or a form body. A form submitted as a navigation (its `Accept` names
/// `text/html` first) ends on the cart page (303 to `/cart`), not on JSON.
async fn get_add(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    crate::plumbing::extract::Fields(pairs): crate::plumbing::extract::Fields,
) -> ApiResult<AddToCartAnswer> {
    let body = add(&state, &caller, pairs).await?;
    if wants_html(&headers) {
        return Ok(AddToCartAnswer::ToCart);
    }
    Ok(AddToCartAnswer::Json(Box::new(body)))
}

/// The add-to-cart answer: JSON for a script, or 303 to `/cart` for a
/// browser's form; documented as the JSON.
#[derive(Debug)]
pub enum AddToCartAnswer {
    Json(Box<AddToCartResponse>),
    ToCart,
}

impl IntoResponse for AddToCartAnswer {
    fn into_response(self) -> Response {
        match self {
            AddToCartAnswer::Json(body) => Json(*body).into_response(),
            AddToCartAnswer::ToCart => Redirect::to("/cart").into_response(),
        }
    }
}

impl OperationOutput for AddToCartAnswer {
    type Inner = AddToCartResponse;

    fn operation_response(ctx: &mut GenContext, op: &mut Operation) -> Option<DocResponse> {
        Json::<AddToCartResponse>::operation_response(ctx, op)
    }

    fn inferred_responses(
        ctx: &mut GenContext,
        op: &mut Operation,
    ) -> Vec<(Option<u16>, DocResponse)> {
        Json::<AddToCartResponse>::inferred_responses(ctx, op)
    }
}

/// The JSON answer of `GET|POST /api/cart/add-to-cart`: the cart's new size,
/// and what was added.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddToCartResponse {
    pub success: bool,
    pub message: &'static str,
    /// Units in the cart.
    pub total_qty: i64,
    /// Taka, the cart's lines.
    pub totalprice: i64,
    /// The header badge's figure, as count-notification counts it.
    #[serde(rename = "cartCount")]
    pub cart_count: usize,
    #[serde(flatten)]
    pub added: Option<Added>,
}

/// What an add-to-cart call added: a product's line or a product set.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Added {
    Line(AddedLine),
    Set(AddedSet),
}

/// The cart line a product went into, as it is now.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddedLine {
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    /// The line's code: the product's, or its variation's.
    pub product_code: String,
    pub image_url: Option<String>,
    /// Taka each, as sold now.
    pub purchaseprice: i64,
    /// The product's category name.
    pub cat_name: Option<String>,
    pub variation_id: Option<i64>,
    pub variation_info: Option<VariationInfo>,
    /// Units of it in the cart now.
    pub qty: i64,
}

/// What [`add`] put in the cart: the code of a product's line, or a set.
enum Put {
    Line(String),
    Set(AddedSet),
}

/// The product set added.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddedSet {
    /// The products it added.
    pub main_pid: Vec<i64>,
    pub pset_id: i64,
    pub fabric_id: Option<i64>,
}

/// Whether the caller is a browser navigating (its `Accept` header names
/// `text/html` first) rather than a script asking for JSON.
fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(axum::http::header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .is_some_and(|first| first.trim().starts_with("text/html"))
}

/// Adds what `pairs` name to the caller's cart; the add-to-cart answer,
/// with `cartCount` (the header badge's figure, as count-notification counts
/// it) so the page shows the new count without a second round trip.
async fn add(
    state: &AppState,
    caller: &Caller,
    pairs: Vec<(String, String)>,
) -> ApiResult<AddToCartResponse> {
    let owner = caller.owner()?;
    let params = Params::new(pairs)?;
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    let set_id = params.int("pset_id", 1, MAX_ID)?;
    let product_id = params.int("main_pid", 1, MAX_ID)?;
    let qty = params.int("qty", 1, cart::MAX_QTY)?.unwrap_or(1);
    let variation_id = params.int("variation_id", 1, MAX_ID)?;
    let fabric_id = params.int("fabric_id", 1, MAX_ID)?;
    let now = clock::now_unix();
    let mut tx = catalog::db::begin_write(&state.pool).await?;
    let id = cart::cart_id(&mut tx, &owner, true)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("cart row not created")))?;
    let before = cart::load_by_id(&mut tx, id, now).await?;
    let added = match (set_id, product_id) {
        (Some(set), _) => {
            let pre_booking: bool = db::query_scalar(
                "SELECT EXISTS (SELECT 1 FROM product_set_item i \
                 JOIN product p ON p.id = i.product_id WHERE i.product_set_id = $1 AND p.pre_booking)",
            )
            .bind(set)
            .fetch_one(&mut *tx)
            .await?;
            cart::check_mix(&before, pre_booking)?;
            let ids = cart::add_set(&mut tx, id, set, fabric_id).await?;
            Put::Set(AddedSet {
                main_pid: ids,
                pset_id: set,
                fabric_id,
            })
        }
        (None, Some(product)) => {
            let item = cart::buyable(&mut tx, product, variation_id).await?;
            cart::check_mix(&before, item.pre_booking)?;
            cart::add_line(&mut tx, id, &item, qty).await?;
            Put::Line(item.code)
        }
        (None, None) => {
            return Err(ApiError::invalid(
                "main_pid",
                "main_pid (a product) or pset_id (a set) is required",
            ))
        }
    };
    let after = cart::load_by_id(&mut tx, id, now).await?;
    tx.commit().await?;
    let added = match added {
        Put::Line(code) => after
            .lines
            .iter()
            .find(|l| l.item_code == code && l.cart_set_id.is_none())
            .map(|line| {
                Added::Line(AddedLine {
                    title: line.title.clone(),
                    sub_title: line.sub_title.clone(),
                    seo_url: line.seo_url.clone(),
                    product_code: line.item_code.clone(),
                    image_url: line.image_url.clone(),
                    purchaseprice: line.unit_price(),
                    cat_name: line.category_name.clone(),
                    variation_id: line.variation_id,
                    variation_info: variation_info(line),
                    qty: line.qty,
                })
            }),
        Put::Set(set) => Some(Added::Set(set)),
    };
    Ok(AddToCartResponse {
        success: true,
        message: "Added to your cart",
        total_qty: after.total_qty(),
        totalprice: after.subtotal(),
        cart_count: after.line_count(),
        added,
    })
}

/// `GET /api/cart/remove-cart-item?pid=&pcode=` or `?pid_codes=pid:code,...`.
async fn get_remove(
    State(state): State<AppState>,
    caller: Caller,
    crate::plumbing::extract::Query(pairs): Pairs,
) -> ApiResult<Json<MessageResponse>> {
    let owner = caller.owner()?;
    let params = Params::new(pairs)?;
    let mut tx = state.pool.begin().await?;
    let Some(id) = cart::cart_id(&mut tx, &owner, false).await? else {
        return Err(ApiError::not_found("Your cart is empty"));
    };
    if let Some(raw) = params.get("pid_codes").filter(|v| !v.trim().is_empty()) {
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
        let code = params.required("pcode")?;
        let pid = params.int("pid", 1, MAX_ID)?;
        cart::remove_line(&mut tx, id, code, pid).await?;
    }
    tx.commit().await?;
    Ok(Json(MessageResponse::new("Removed from your cart")))
}

/// New quantities.
#[derive(Debug, Deserialize, JsonSchema)]
struct UpdateBody {
    /// Lines keyed by product code.
    #[serde(default)]
    items: BTreeMap<String, UpdateLine>,
}

/// One line's new quantity.
#[derive(Debug, Deserialize, JsonSchema)]
struct UpdateLine {
    /// The line's code, when it differs from the key.
    #[serde(default)]
    code: Option<String>,
    /// 1-99.
    qty: i64,
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
        if !(1..=cart::MAX_QTY).contains(&line.qty) {
            return Err(ApiError::invalid(
                "qty",
                format!("{key}: a quantity is 1 to {}", cart::MAX_QTY),
            ));
        }
    }
    let mut tx = catalog::db::begin_write(&state.pool).await?;
    let Some(id) = cart::cart_id(&mut tx, &owner, false).await? else {
        return Err(ApiError::not_found("Your cart is empty"));
    };
    for (key, line) in &body.items {
        let code = line.code.as_deref().unwrap_or(key);
        cart::set_qty(&mut tx, id, code, line.qty).await?;
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
    let (compare, wish): (i64, i64) = match &owner {
        Owner::User(id) => {
            db::query_as(
                "SELECT (SELECT COUNT(*) FROM compare_item WHERE user_id = $1), \
                    (SELECT COUNT(*) FROM wishlist_item WHERE user_id = $1)",
            )
            .bind(id)
            .fetch_one(&state.pool)
            .await?
        }
        Owner::Guest(token) => {
            db::query_as(
                "SELECT (SELECT COUNT(*) FROM compare_item WHERE self_token = $1), \
                    (SELECT COUNT(*) FROM wishlist_item WHERE self_token = $1)",
            )
            .bind(token)
            .fetch_one(&state.pool)
            .await?
        }
    };
    Ok(Json(CountResponse {
        success: true,
        compare_count: compare,
        wish_count: wish,
        cart_count: cart.line_count(),
        cart_qty: cart.total_qty(),
    }))
}

/// Stores `code` on the cart when it holds now; the applied coupon.
async fn apply_coupon(
    state: &AppState,
    owner: &Owner,
    code: &str,
) -> ApiResult<(Cart, coupon::Applied)> {
    let mut conn = state.pool.acquire().await?;
    let now = clock::now_unix();
    let cart = cart::load(&mut conn, owner, now).await?;
    if cart.is_empty() {
        return Err(ApiError::Conflict("Your cart is empty.".into()));
    }
    let applied = coupon::check(&mut conn, code, &cart, owner, now).await?;
    db::query("UPDATE cart SET coupon_code = $1, updated_at = $2 WHERE id = $3")
        .bind(&applied.coupon.coupon_code)
        .bind(now)
        .bind(cart.details.id)
        .execute(&mut *conn)
        .await?;
    Ok((cart, applied))
}

#[derive(Debug, Deserialize, JsonSchema)]
struct CouponBody {
    /// The coupon code.
    #[serde(default)]
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

/// `GET /api/cart/checkout-address?coupon=`: the first step of checkout.
/// A coupon named here is applied (or refused with its reason); `false` or
/// nothing keeps the cart's own.
async fn get_checkout_address(
    State(state): State<AppState>,
    caller: Caller,
    crate::plumbing::extract::Query(pairs): Pairs,
) -> ApiResult<Json<CartResponse>> {
    let owner = caller.owner()?;
    let params = Params::new(pairs)?;
    let code = params
        .get("coupon")
        .map(str::trim)
        .filter(|c| !c.is_empty() && *c != "false" && *c != "null" && *c != "undefined");
    if let Some(code) = code {
        apply_coupon(&state, &owner, code).await?;
    }
    let mut cart = load(&state, &owner).await?;
    if cart.is_empty() {
        return Err(ApiError::Conflict("Your cart is empty.".into()));
    }
    let (totals, applied, note) = totals_dropping_stale_coupon(&state, &mut cart, &owner).await?;
    Ok(Json(cart_answer(&cart, &totals, applied.as_ref(), note)))
}

/// The answer of `GET /api/cart/get-delivery-charge`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeliveryChargeResponse {
    pub success: bool,
    /// Taka to deliver this cart there.
    pub deliverycharge: i64,
    /// `deliverycharge` again.
    pub delivery_charge: i64,
    /// Taka, the cart's lines.
    pub total_amount: i64,
    /// Taka from which delivery is free.
    pub charge_for_amount: i64,
    /// `inside_dhaka` or `outside_dhaka`.
    pub zone: String,
}

/// `GET /api/cart/get-delivery-charge?district=`: `{deliverycharge,
/// total_amount, charge_for_amount}`. "Dhaka" and "Outside Dhaka" name the
/// two zones as the original client's first call does.
async fn get_delivery_charge(
    State(state): State<AppState>,
    caller: Caller,
    crate::plumbing::extract::Query(pairs): Pairs,
) -> ApiResult<Json<DeliveryChargeResponse>> {
    let owner = caller.owner()?;
    let params = Params::new(pairs)?;
    let name = params.required("district")?;
    let mut conn = state.pool.acquire().await?;
    let zone = if name.eq_ignore_ascii_case("outside dhaka") {
        "outside_dhaka".to_string()
    } else {
        cart::district(&mut conn, name)
            .await?
            .map(|d| d.zone)
            .ok_or_else(|| ApiError::invalid("district", "Choose one of the 64 districts."))?
    };
    let cart = cart::load(&mut conn, &owner, clock::now_unix()).await?;
    let subtotal = cart.subtotal();
    let charge = cart::delivery_charge(&mut conn, &zone, subtotal).await?;
    Ok(Json(DeliveryChargeResponse {
        success: true,
        deliverycharge: charge.fee,
        delivery_charge: charge.fee,
        total_amount: subtotal,
        charge_for_amount: charge.free_from,
        zone,
    }))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct AddressBody {
    /// 3-100 characters.
    name: String,
    /// 11-digit Bangladeshi mobile, 01XXXXXXXXX.
    mobile: String,
    /// Another 11-digit mobile.
    emergency_mobile: String,
    /// An e-mail address for the receipt (optional).
    email: String,
    /// One of the 64 districts (the division is taken from it).
    district: String,
    /// Thana or upazila (optional).
    thana: String,
    /// 5-500 characters.
    address: String,
}

/// The answer of `POST /api/cart/checkout-delivery-address`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DeliveryAddressResponse {
    pub success: bool,
    pub message: &'static str,
    /// Taka to deliver the cart there.
    pub deliverycharge: i64,
    pub district: String,
    pub division: String,
}

/// `POST /api/cart/checkout-delivery-address`: checks every field and keeps
/// them with the cart; the errors name each field.
async fn post_delivery_address(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<AddressBody>,
) -> ApiResult<Json<DeliveryAddressResponse>> {
    let owner = caller.owner()?;
    let mut errors = Map::new();
    let mut bad = |field: &str, message: &str| {
        errors.insert(field.to_string(), json!([message]));
    };
    let name = validate::text(&body.name, 3, 100);
    if name.is_none() {
        bad("name", "Your name is 3 to 100 characters.");
    }
    let mobile = validate::bd_mobile(&body.mobile);
    if mobile.is_none() {
        bad("mobile", "A mobile number is 11 digits: 01XXXXXXXXX.");
    }
    let emergency = validate::bd_mobile(&body.emergency_mobile);
    match (&emergency, &mobile) {
        (None, _) => bad(
            "emergency_mobile",
            "An emergency mobile number is 11 digits: 01XXXXXXXXX.",
        ),
        (Some(e), Some(m)) if e == m => bad(
            "emergency_mobile",
            "The emergency mobile must differ from your mobile.",
        ),
        _ => {}
    }
    let email = body.email.trim();
    if !email.is_empty() && !validate::email(email) {
        bad("email", "That e-mail address does not look right.");
    }
    let address = validate::text(&body.address, 5, 500);
    if address.is_none() {
        bad("address", "The address is 5 to 500 characters.");
    }
    let thana = validate::text(&body.thana, 0, 100);
    if thana.is_none() {
        bad("thana", "The thana is at most 100 characters.");
    }
    let mut conn = state.pool.acquire().await?;
    let district = cart::district(&mut conn, &body.district).await?;
    if district.is_none() {
        bad("district", "Choose one of the 64 districts.");
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let (Some(name), Some(mobile), Some(emergency), Some(address), Some(district)) =
        (name, mobile, emergency, address, district)
    else {
        return Err(ApiError::invalid("name", "Check the form."));
    };
    let now = clock::now_unix();
    let cart = cart::load(&mut conn, &owner, now).await?;
    if cart.is_empty() {
        return Err(ApiError::Conflict("Your cart is empty.".into()));
    }
    let charge = cart::delivery_charge(&mut conn, &district.zone, cart.subtotal()).await?;
    db::query(
        "UPDATE cart SET name = $1, mobile = $2, emergency_mobile = $3, email = $4, division = $5, \
         district = $6, thana = $7, address = $8, delivery_fee = $9, updated_at = $10 WHERE id = $11",
    )
    .bind(&name)
    .bind(&mobile)
    .bind(&emergency)
    .bind(email)
    .bind(&district.division)
    .bind(&district.name)
    .bind(thana.unwrap_or_default())
    .bind(&address)
    .bind(charge.fee)
    .bind(now)
    .bind(cart.details.id)
    .execute(&mut *conn)
    .await?;
    Ok(Json(DeliveryAddressResponse {
        success: true,
        message: "Your contact and address has been saved",
        deliverycharge: charge.fee,
        district: district.name,
        division: district.division,
    }))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct PaymentBody {
    /// cash_on_delivery, debitcredit, mobilebanking, bkash or nagad.
    payment_method: Option<String>,
    /// The shopper accepts the terms: true, 1, "true", "1" or "on".
    terms_check: Option<Value>,
}

/// `POST /api/cart/store-payment-method`.
async fn post_payment_method(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<PaymentBody>,
) -> ApiResult<Json<CartResponse>> {
    let owner = caller.owner()?;
    let accepted = matches!(
        &body.terms_check,
        Some(Value::Bool(true)) | Some(Value::Number(_))
    ) || matches!(&body.terms_check, Some(Value::String(s)) if s == "true" || s == "1" || s == "on");
    if !accepted {
        return Err(ApiError::invalid(
            "terms_check",
            "You must agree with the terms.",
        ));
    }
    let method = body.payment_method.as_deref().map(str::trim).unwrap_or("");
    if !cart::PAYMENT_METHODS.contains(&method) {
        return Err(ApiError::invalid(
            "payment_method",
            "You must select a payment method.",
        ));
    }
    let online = crate::surfaces::api::payment::method_available(&state, method);
    if online == Some(false) {
        return Err(crate::surfaces::api::payment::unavailable());
    }
    let mut cart = load(&state, &owner).await?;
    if cart.is_empty() {
        return Err(ApiError::Conflict("Your cart is empty.".into()));
    }
    // Paid online, any cart will do (a pre-booking's part is paid now).
    if online.is_none() && cart.is_pre_booking() {
        return Err(ApiError::Conflict(
            "A pre-booking is paid in part online, not on delivery.".into(),
        ));
    }
    if online.is_none() && !cart.cash_on_delivery_allowed() {
        let names: Vec<&str> = cart
            .lines
            .iter()
            .filter(|l| !l.cash_on_delivery)
            .map(|l| l.title.as_str())
            .collect();
        return Err(ApiError::Conflict(format!(
            "{} cannot be paid on delivery.",
            names.join(", ")
        )));
    }
    db::query(
        "UPDATE cart SET payment_method = $1, terms_accepted = TRUE, updated_at = $2 WHERE id = $3",
    )
    .bind(method)
    .bind(clock::now_unix())
    .bind(cart.details.id)
    .execute(&state.pool)
    .await?;
    cart.details.payment_method = Some(method.to_string());
    cart.details.terms_accepted = true;
    let (totals, applied, _) = totals_dropping_stale_coupon(&state, &mut cart, &owner).await?;
    let message = "Your preferred payment method has been selected successfully";
    Ok(Json(cart_answer(
        &cart,
        &totals,
        applied.as_ref(),
        Some(message.to_string()),
    )))
}

#[derive(Debug, Deserialize, JsonSchema)]
struct PayingBody {
    /// Taka, between the minimum and the total.
    #[serde(rename = "payingAmount")]
    paying_amount: i64,
}

/// The answer of `POST /api/cart/set-paying-amount`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PayingAmountResponse {
    pub success: bool,
    pub message: &'static str,
    /// Taka to pay now.
    pub paying_amount: i64,
    pub prebooking_min_amount: i64,
    pub grand_total: i64,
}

/// `POST /api/cart/set-paying-amount` with `{payingAmount}`: a pre-booking's
/// part payment, between its minimum and the whole.
async fn post_paying_amount(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<PayingBody>,
) -> ApiResult<Json<PayingAmountResponse>> {
    let owner = caller.owner()?;
    let mut cart = load(&state, &owner).await?;
    if !cart.is_pre_booking() {
        return Err(ApiError::Conflict(
            "Only a pre-booking is paid in part.".into(),
        ));
    }
    let (totals, _, _) = totals_dropping_stale_coupon(&state, &mut cart, &owner).await?;
    let allowed = cart.part_payments(totals.grand_total);
    let min = *allowed.start();
    if !allowed.contains(&body.paying_amount) {
        return Err(ApiError::invalid(
            "payingAmount",
            format!("Pay between ৳{min} and ৳{} now.", totals.grand_total),
        ));
    }
    db::query("UPDATE cart SET paying_amount = $1 WHERE id = $2")
        .bind(body.paying_amount)
        .bind(cart.details.id)
        .execute(&state.pool)
        .await?;
    Ok(Json(PayingAmountResponse {
        success: true,
        message: "Paying amount saved",
        paying_amount: body.paying_amount,
        prebooking_min_amount: min,
        grand_total: totals.grand_total,
    }))
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
    crate::plumbing::extract::Query(pairs): Pairs,
) -> ApiResult<Json<OrderDetailsResponse>> {
    let params = Params::new(pairs)?;
    let number = params.required("order_random")?;
    let key = params.required("secret_key")?;
    let order = orders::by_number_and_key(&state.pool, number, key)
        .await?
        .ok_or_else(|| ApiError::not_found("Order not found"))?;
    let details = orders::details(&state.pool, order.id).await?;
    Ok(Json(OrderDetailsResponse {
        success: true,
        order_masters: OrderHead::from(&order),
        order_details: details,
    }))
}

/// The answer of `GET /api/cart/track-order`: where an order stands.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TrackOrderResponse {
    pub success: bool,
    pub order_masters: TrackedOrder,
    pub order_details: Vec<OrderLine>,
}

/// What tracking shows of an order's head (less than the thank-you page:
/// the caller proved only the number and the mobile).
#[derive(Debug, Serialize, JsonSchema)]
pub struct TrackedOrder {
    pub order_random: String,
    /// Dhaka time, `YYYY-MM-DD HH:MM`.
    pub order_date: String,
    pub customer_name: String,
    pub order_status: String,
    pub payment_term_status: String,
    pub grand_total: i64,
}

/// `GET /api/cart/track-order?id=&phone=`.
async fn get_track_order(
    State(state): State<AppState>,
    crate::plumbing::extract::Query(pairs): Pairs,
) -> ApiResult<Json<TrackOrderResponse>> {
    let params = Params::new(pairs)?;
    let number = params.required("id")?;
    let phone = validate::bd_mobile(params.required("phone")?)
        .ok_or_else(|| ApiError::invalid("phone", "A mobile number is 11 digits: 01XXXXXXXXX."))?;
    let order = orders::by_number_and_phone(&state.pool, number.trim(), &phone)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has that number and mobile number."))?;
    let details = orders::details(&state.pool, order.id).await?;
    let head = OrderHead::from(&order);
    Ok(Json(TrackOrderResponse {
        success: true,
        order_masters: TrackedOrder {
            order_random: head.order_random,
            order_date: head.order_date,
            customer_name: head.customer_name,
            order_status: head.order_status,
            payment_term_status: head.payment_term_status,
            grand_total: head.grand_total,
        },
        order_details: details,
    }))
}

/// The answer of `GET /api/cart/get-payment-gateway`: which payment methods
/// are on.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PaymentGatewaysResponse {
    pub cash_on_delivery: Gateway,
    pub debitcredit: Gateway,
    pub mobile_banking: Gateway,
    pub bkash: Gateway,
    pub nagad: Gateway,
}

/// Whether a payment method may be chosen.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Gateway {
    pub active: bool,
}

/// `GET /api/cart/get-payment-gateway`: which methods are on (a gateway is
/// on when configured; bKash is not built).
async fn get_payment_gateways(State(state): State<AppState>) -> Json<PaymentGatewaysResponse> {
    let on = |method: &str| Gateway {
        active: crate::surfaces::api::payment::method_available(&state, method) == Some(true),
    };
    Json(PaymentGatewaysResponse {
        cash_on_delivery: Gateway { active: true },
        debitcredit: on("debitcredit"),
        mobile_banking: on("mobilebanking"),
        bkash: on("bkash"),
        nagad: on("nagad"),
    })
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct PlaceBody {
    idempotency_key: Option<String>,
}

/// The answer of `POST /api/cod-place-order`: the order placed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlaceOrderResponse {
    pub success: bool,
    /// The thank-you page of the order.
    pub uri: String,
    /// The order number.
    pub order_random: String,
    /// The order's secret key (for `order-details`).
    pub order_key: String,
    pub grand_total: i64,
    /// True when a retry with the same idempotency key found the order
    /// placed before.
    pub replayed: bool,
}

/// `POST /api/cod-place-order`: `{uri, order_random, order_key}`.
async fn post_place_order(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<Json<PlaceOrderResponse>> {
    let owner = caller.owner()?;
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    let header_key = match headers.get("idempotency-key") {
        Some(v) => Some(
            v.to_str()
                .map_err(|_| ApiError::invalid("Idempotency-Key", "must be ASCII"))?
                .trim()
                .to_string(),
        ),
        None => None,
    };
    let body: PlaceBody = if body.iter().all(u8::is_ascii_whitespace) {
        PlaceBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::invalid("body", format!("Invalid JSON body: {e}")))?
    };
    let key = header_key.or(body.idempotency_key);
    if let Some(k) = &key {
        if !orders::valid_idempotency_key(k) {
            return Err(ApiError::invalid(
                "Idempotency-Key",
                "An idempotency key is 8 to 100 visible ASCII characters.",
            ));
        }
    }
    let placed =
        orders::place_cash_on_delivery(&state.pool, &owner, key.as_deref(), clock::now_unix())
            .await?;
    Ok(Json(PlaceOrderResponse {
        success: true,
        uri: format!(
            "/thank-you?order_random={}&order_key={}",
            placed.order_random, placed.order_key
        ),
        order_random: placed.order_random,
        order_key: placed.order_key,
        grand_total: placed.grand_total,
        replayed: placed.replayed,
    }))
}
