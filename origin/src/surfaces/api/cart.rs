//! The cart itself (SPEC.md §7, Cart group): what is in it
//! (`/api/cart/view`), putting products and sets in and taking them out,
//! quantities, the coupon, and the header's counts. Checkout lives in
//! [`super::checkout`], the order read back in [`super::order`]. Every
//! answer is the caller's own (guest by SELF-TOKEN, or signed in), so none is
//! cached. Unlike the original, failures are 4xx JSON errors with a message a
//! shopper can act on, prices are never trusted from the client, and a
//! cart's lines are priced at the instant of each call.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use aide::generate::GenContext;
use aide::openapi::{Operation, Response as DocResponse};
use aide::{OperationInput, OperationOutput};
use axum::extract::{FromRequest, Request, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use catalog::clock;
use catalog::db;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::domain::badges;
use crate::domain::cart::{self, Cart, Line};
use crate::domain::coupon;
use crate::domain::identity::{Caller, Owner};
use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::domain::orders;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{read_query, Fields, Json as Body, Query};
use crate::plumbing::params::{blank_is_none, Int, Text};
use crate::state::AppState;
use crate::surfaces::api::answers::{ById, MessageResponse};
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Largest id accepted in a parameter.
const MAX_ID: i64 = i64::MAX / 2;

/// An id in a parameter.
type Id = Int<1, MAX_ID>;

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
            get_add,
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

/// A whole number in a JSON body, as the schema's `integer` allows it:
/// `3` or `3.0` (a number with a fraction is refused). Its bounds are
/// checked by the handler, whose message names the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Whole(pub i64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WholeVisitor;

        impl Visitor<'_> for WholeVisitor {
            type Value = Whole;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number")
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Whole, E> {
                Ok(Whole(n))
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Whole, E> {
                i64::try_from(n)
                    .map(Whole)
                    .map_err(|_| E::custom("must be a whole number"))
            }

            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Whole, E> {
                // Within ±2^53 a float holds its whole numbers exactly.
                const EXACT: f64 = 9_007_199_254_740_992.0;
                if n.fract() == 0.0 && n.abs() <= EXACT {
                    Ok(Whole(n as i64))
                } else {
                    Err(E::custom("must be a whole number"))
                }
            }
        }

        deserializer.deserialize_any(WholeVisitor)
    }
}

impl JsonSchema for Whole {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Whole".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "format": "int64" })
    }
}

/// A required query parameter read as `Option` (with [`blank_is_none`]),
/// so that a missing one, like a blank one, is a 400 naming it
/// (`district is required`); the struct lists it under `required` for the
/// document.
pub(crate) fn required<T>(value: Option<T>, name: &str) -> ApiResult<T> {
    value.ok_or_else(|| ApiError::invalid(name, format!("{name} is required")))
}

/// The caller's cart now.
pub(crate) async fn load(state: &AppState, owner: &Owner) -> ApiResult<Cart> {
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

/// The whole `cart/view` answer for a cart and its totals; `message` (when
/// given) stands in place of the note that the coupon was removed.
pub(crate) fn cart_answer(
    cart: &Cart,
    priced: orders::Priced,
    message: Option<String>,
) -> CartResponse {
    let orders::Priced {
        totals,
        applied,
        coupon_removed,
    } = priced;
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
        message: message.or(coupon_removed),
    }
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

/// The parameters of `GET|POST /api/cart/add-to-cart`: a product
/// (`main_pid`, `qty`, `variation_id`) or a product set (`pset_id`,
/// `fabric_id`); one of `main_pid` and `pset_id` is required.
#[derive(Debug, Deserialize, JsonSchema)]
struct AddQuery {
    /// The product's id.
    #[serde(default, deserialize_with = "blank_is_none")]
    main_pid: Option<Id>,
    /// Units, 1-99 (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    qty: Option<Int<1, { cart::MAX_QTY }>>,
    /// One of the product's variations.
    #[serde(default, deserialize_with = "blank_is_none")]
    variation_id: Option<Id>,
    /// A product set's id, to add the whole set.
    #[serde(default, deserialize_with = "blank_is_none")]
    pset_id: Option<Id>,
    /// A fabric of that set.
    #[serde(default, deserialize_with = "blank_is_none")]
    fabric_id: Option<Id>,
}

/// [`AddQuery`] read from the query string or, for a POST, a form body alike
/// ([`Fields`]; a name given twice counts by its last value), and documented
/// as its query parameters.
struct AddFields(AddQuery);

impl<S: Send + Sync> FromRequest<S> for AddFields {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Fields(pairs) = Fields::from_request(req, state).await?;
        let last: HashMap<String, String> = pairs.into_iter().collect();
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&last)
            .finish();
        read_query(&query).map(AddFields)
    }
}

impl OperationInput for AddFields {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        Query::<AddQuery>::operation_input(ctx, operation);
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<u16>, DocResponse)> {
        Query::<AddQuery>::inferred_early_responses(ctx, operation)
    }
}

/// `GET /api/cart/add-to-cart?main_pid=&qty=&variation_id=` or
/// `?pset_id=&fabric_id=`; POST as well, with the same names in the query
/// or a form body. A form submitted as a navigation (its `Accept` names
/// `text/html` first) ends on the cart page (303 to `/cart`), not on JSON.
async fn get_add(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    AddFields(query): AddFields,
) -> ApiResult<AddToCartAnswer> {
    let body = add(&state, &caller, query).await?;
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

/// Adds what `query` names to the caller's cart; the add-to-cart answer,
/// with `cartCount` (the header badge's figure, as count-notification counts
/// it) so the page shows the new count without a second round trip.
async fn add(state: &AppState, caller: &Caller, query: AddQuery) -> ApiResult<AddToCartResponse> {
    let owner = caller.owner()?;
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    let id_of = |id: Option<Id>| id.map(Int::get);
    let set_id = id_of(query.pset_id);
    let product_id = id_of(query.main_pid);
    let qty = query.qty.map_or(1, Int::get);
    let variation_id = id_of(query.variation_id);
    let fabric_id = id_of(query.fabric_id);
    let now = clock::now_unix();
    let mut tx = db::begin_write(&state.pool).await?;
    let id = cart::cart_id(&mut tx, &owner, true)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("cart row not created")))?;
    let before = cart::load_by_id(&mut tx, id, now).await?;
    let added = match (set_id, product_id) {
        (Some(set), _) => {
            let pre_booking = cart::set_has_pre_booking(&mut tx, set).await?;
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

/// The parameters of `GET /api/cart/remove-cart-item`: a line (`pcode`,
/// optionally `pid`) or a product set (`pid_codes`); one of `pcode` and
/// `pid_codes` is required.
#[derive(Debug, Deserialize, JsonSchema)]
struct RemoveQuery {
    /// The line's product code.
    #[serde(default, deserialize_with = "blank_is_none")]
    pcode: Option<Text<1, MAX_PARAM_LEN>>,
    /// The line's product id.
    #[serde(default, deserialize_with = "blank_is_none")]
    pid: Option<Id>,
    /// A set's items as pid:code joined by commas.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(extend("pattern" = PID_CODES_PATTERN))]
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
