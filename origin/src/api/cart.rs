//! The Cart group of SPEC.md §7 (`/api/cart/...`) and `/api/cod-place-order`,
//! with the parameter and field names of ORIGINAL-API.md §2. Every answer is
//! the caller's own (guest by SELF-TOKEN, or signed in), so none is cached.
//! Unlike the original, failures are 4xx JSON errors with a message a shopper
//! can act on, prices are never trusted from the client, and a cart's lines
//! are priced at the instant of each call.

use catalog::db;
use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use catalog::clock;

use crate::api::category::Params;
use crate::api::doc::{ApiRouter, Doc};
use crate::api::home::Pairs;
use crate::cart::{self, Cart, Line};
use crate::coupon;
use crate::error::{ApiError, ApiResult};
use crate::extract::Json as Body;
use crate::identity::{Caller, Owner};
use crate::orders;
use crate::state::AppState;
use crate::validate;

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
                .query_opt("fabric_id", "integer", "A fabric of that set"),
        )
        .get(
            "/remove-cart-item",
            get_remove,
            Doc::visitor("Removes a line (pcode, optionally pid) or a set (pid_codes)")
                .query_opt("pcode", "string", "The line's product code")
                .query_opt("pid", "integer", "The line's product id")
                .query_opt("pid_codes", "string", "A set's items as pid:code joined by commas"),
        )
        .post(
            "/update",
            post_update,
            Doc::visitor("Sets quantities: {items: {<code>: {id, code, qty}}}")
                .field("items", "object", "Lines keyed by product code, each with qty 1-99"),
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
                .query_opt("coupon", "string", "The coupon the shopper applied, or false"),
        )
        .post(
            "/coupon-apply",
            post_coupon_apply,
            Doc::visitor("Applies a coupon to the cart: {success, message, data, discount}")
                .field("coupon", "string", "The coupon code"),
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
                .field("name", "string", "3-100 characters")
                .field("mobile", "string", "11-digit Bangladeshi mobile, 01XXXXXXXXX")
                .field("emergency_mobile", "string", "Another 11-digit mobile")
                .field("district", "string", "One of the 64 districts")
                .field("address", "string", "5-500 characters")
                .field_opt("email", "string", "An e-mail address for the receipt")
                .field_opt("division", "string", "Ignored: taken from the district")
                .field_opt("thana", "string", "Thana or upazila"),
        )
        .post(
            "/store-payment-method",
            post_payment_method,
            Doc::visitor("Chooses how to pay")
                .field("payment_method", "string", "cash_on_delivery, debitcredit, mobilebanking, bkash or nagad")
                .field("terms_check", "boolean", "The shopper accepts the terms"),
        )
        .post(
            "/set-paying-amount",
            post_paying_amount,
            Doc::visitor("The part payment of a pre-booking cart")
                .field("payingAmount", "integer", "Taka, between the minimum and the total"),
        )
        .get(
            "/order-details",
            get_order_details,
            Doc::public("An order by its number and secret key (the thank-you link)")
                .query("order_random", "string", "The order number")
                .query("secret_key", "string", "The order's key"),
        )
        .get(
            "/track-order",
            get_track_order,
            Doc::public("An order by its number and the mobile it was placed with")
                .query("id", "string", "The order number")
                .query("phone", "string", "The mobile number used for the order"),
        )
        .get(
            "/get-payment-gateway",
            get_payment_gateways,
            Doc::public("Which payment methods are on"),
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
            .field_opt("idempotency_key", "string", "The same, in the body"),
    )
}

/// The caller's cart now.
async fn load(state: &AppState, owner: &Owner) -> ApiResult<Cart> {
    let mut conn = state.pool.acquire().await?;
    Ok(cart::load(&mut conn, owner, clock::now_unix()).await?)
}

/// A line as the original client reads it (ORIGINAL-API.md §2, LINE).
fn line_json(l: &Line) -> Value {
    let variation = l.variation_label().map(|v| json!({ "variations": v }));
    json!({
        "qty": l.qty,
        "purchaseprice": l.unit_price(),
        "total": l.total(),
        "product_id": l.product_id,
        "pset_id": l.product_set_id,
        "fabric_id": l.fabric_id,
        "item": {
            "productid": l.product_id,
            "productcode": l.item_code,
            "item_code": l.item_code,
            "sub_title": l.sub_title,
            "purchaseprice": l.unit_price(),
            "qty": l.qty,
            "variation_id": l.variation_id,
            "variation_info": variation,
            "image_url": l.image_url,
            "flash_discount": l.flash_discount,
            "pre_price": l.price_before,
            "pset_id": l.product_set_id,
            "fabric_id": l.fabric_id,
        },
        "info": {
            "id": l.product_id,
            "title": l.title,
            "sub_title": l.sub_title,
            "short_description": l.short_description,
            "seo_url": l.seo_url,
            "code": l.product_code,
            "sku": l.sku,
            "qty": l.stock,
            "price": l.price_before,
            "image_url": l.image_url,
            "product_category": l.category_name.iter().collect::<Vec<_>>(),
            "cash_on_delivery": l.cash_on_delivery,
            "pre_booking": l.pre_booking,
        },
    })
}

/// The whole `cart/view` answer for a cart and its totals.
fn cart_json(cart: &Cart, totals: &orders::Totals, applied: Option<&coupon::Applied>) -> Value {
    let items: Vec<Value> = cart
        .lines
        .iter()
        .filter(|l| l.cart_set_id.is_none())
        .map(line_json)
        .collect();
    let mut psets = Map::new();
    for set in &cart.sets {
        let lines: Vec<Value> = cart
            .lines
            .iter()
            .filter(|l| l.cart_set_id == Some(set.cart_set_id))
            .map(line_json)
            .collect();
        psets.insert(
            set.cart_set_id.to_string(),
            json!({
                "info": {
                    "id": set.id,
                    "title": set.title,
                    "slug": set.slug,
                    "description": set.description,
                    "image_url": set.image_url,
                    "fabric_id": set.fabric_id,
                },
                "items": lines,
            }),
        );
    }
    let d = &cart.details;
    let pm = d.payment_method.as_ref().map(|method| {
        json!({
            "currency": "BDT",
            "payment_method": method,
            "terms_check": d.terms_accepted,
            "total_amount": totals.total_amount,
            "discount": totals.discount,
            "discount_type": "Fixed",
            "deliveryfee": totals.delivery_fee,
            "grand_total": totals.grand_total,
        })
    });
    json!({
        "success": true,
        "cart": {
            "items": items,
            "psets": if psets.is_empty() { json!([]) } else { Value::Object(psets) },
            "totalprice": totals.total_amount,
            "totalqty": cart.total_qty(),
            "discount": totals.discount,
            "discount_type": if totals.discount > 0 { Some("Fixed") } else { None },
            "coupon": applied.map(|a| json!({
                "coupon_code": a.coupon.coupon_code,
                "amount_type": a.coupon.amount_type,
                "price": a.coupon.price,
                "upto_amount": a.coupon.upto_amount,
            })),
            "product_maximum_arrive_time": Value::Null,
        },
        "pm": pm,
        "delivery_fee": totals.delivery_fee,
        "grand_total": totals.grand_total,
        "district": d.district,
        "address": {
            "name": d.name, "mobile": d.mobile, "emergency_mobile": d.emergency_mobile,
            "email": d.email, "division": d.division, "district": d.district,
            "thana": d.thana, "address": d.address,
        },
        "prebooking": cart.is_pre_booking(),
        "prebooking_min_amount": cart.pre_booking_minimum(),
        "paying_amount": d.paying_amount,
        "cash_on_delivery": cart.cash_on_delivery_allowed(),
    })
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
async fn get_view(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Value>> {
    let owner = caller.owner()?;
    let mut cart = load(&state, &owner).await?;
    let (totals, applied, note) = totals_dropping_stale_coupon(&state, &mut cart, &owner).await?;
    let mut body = cart_json(&cart, &totals, applied.as_ref());
    if let Some(note) = note {
        body["message"] = json!(note);
    }
    Ok(Json(body))
}

/// `GET /api/cart/add-to-cart?main_pid=&qty=&variation_id=` or
/// `?pset_id=&fabric_id=`; POST as well, with the same names in the query
/// or a form body. A form submitted as a navigation (its `Accept` names
/// `text/html` first) ends on the cart page (303 to `/cart`), not on JSON.
async fn get_add(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    crate::extract::Fields(pairs): crate::extract::Fields,
) -> ApiResult<Response> {
    let body = add(&state, &caller, pairs).await?;
    if wants_html(&headers) {
        return Ok(Redirect::to("/cart").into_response());
    }
    Ok(Json(body).into_response())
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
async fn add(state: &AppState, caller: &Caller, pairs: Vec<(String, String)>) -> ApiResult<Value> {
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
            json!({ "main_pid": ids, "pset_id": set, "fabric_id": fabric_id })
        }
        (None, Some(product)) => {
            let item = cart::buyable(&mut tx, product, variation_id).await?;
            cart::check_mix(&before, item.pre_booking)?;
            let line_qty = cart::add_line(&mut tx, id, &item, qty).await?;
            json!({ "product_code": item.code, "line_qty": line_qty })
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
    let mut body = json!({
        "success": true,
        "message": "Added to your cart",
        "total_qty": after.total_qty(),
        "totalprice": after.subtotal(),
        "cartCount": after.line_count(),
    });
    if let Some(code) = added.get("product_code").and_then(Value::as_str) {
        if let Some(line) = after
            .lines
            .iter()
            .find(|l| l.item_code == code && l.cart_set_id.is_none())
        {
            let extra = json!({
                "title": line.title,
                "sub_title": line.sub_title,
                "seo_url": line.seo_url,
                "product_code": line.item_code,
                "image_url": line.image_url,
                "purchaseprice": line.unit_price(),
                "cat_name": line.category_name,
                "variation_id": line.variation_id,
                "variation_info": line.variation_label().map(|v| json!({ "variations": v })),
                "qty": line.qty,
            });
            merge(&mut body, extra);
        }
    } else {
        merge(&mut body, added);
    }
    Ok(body)
}

fn merge(into: &mut Value, from: Value) {
    if let (Some(into), Value::Object(from)) = (into.as_object_mut(), from) {
        into.extend(from);
    }
}

/// `GET /api/cart/remove-cart-item?pid=&pcode=` or `?pid_codes=pid:code,...`.
async fn get_remove(
    State(state): State<AppState>,
    caller: Caller,
    crate::extract::Query(pairs): Pairs,
) -> ApiResult<Json<Value>> {
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
    Ok(Json(
        json!({ "success": true, "message": "Removed from your cart" }),
    ))
}

#[derive(Debug, Deserialize, JsonSchema)]
struct UpdateBody {
    #[serde(default)]
    items: BTreeMap<String, UpdateLine>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct UpdateLine {
    #[serde(default)]
    code: Option<String>,
    qty: i64,
}

/// `POST /api/cart/update` with `{items: {<code>: {id, code, qty}}}`.
async fn post_update(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<UpdateBody>,
) -> ApiResult<Json<Value>> {
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
    Ok(Json(json!({ "success": true, "message": "Cart updated" })))
}

/// `GET /api/cart/count-notification`: compare and wishlist sizes and the
/// cart's lines (a set counts once).
async fn get_count(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Value>> {
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
    Ok(Json(json!({
        "success": true,
        "compareCount": compare,
        "wishCount": wish,
        "cartCount": cart.line_count(),
        "cartQty": cart.total_qty(),
    })))
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
    #[serde(default)]
    coupon: String,
}

/// `POST /api/cart/coupon-apply` with `{coupon}`.
async fn post_coupon_apply(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<CouponBody>,
) -> ApiResult<Json<Value>> {
    let owner = caller.owner()?;
    if body.coupon.trim().is_empty() {
        return Err(ApiError::invalid("coupon", "Enter a coupon code."));
    }
    let (cart, applied) = apply_coupon(&state, &owner, &body.coupon).await?;
    Ok(Json(json!({
        "success": true,
        "message": "Coupon applied successfully",
        "data": applied.coupon,
        "discount": applied.discount,
        "totalprice": cart.subtotal(),
    })))
}

/// `GET /api/cart/checkout-address?coupon=`: the first step of checkout.
/// A coupon named here is applied (or refused with its reason); `false` or
/// nothing keeps the cart's own.
async fn get_checkout_address(
    State(state): State<AppState>,
    caller: Caller,
    crate::extract::Query(pairs): Pairs,
) -> ApiResult<Json<Value>> {
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
    let mut body = cart_json(&cart, &totals, applied.as_ref());
    if let Some(note) = note {
        body["message"] = json!(note);
    }
    Ok(Json(body))
}

/// `GET /api/cart/get-delivery-charge?district=`: `{deliverycharge,
/// total_amount, charge_for_amount}`. "Dhaka" and "Outside Dhaka" name the
/// two zones as the original client's first call does.
async fn get_delivery_charge(
    State(state): State<AppState>,
    caller: Caller,
    crate::extract::Query(pairs): Pairs,
) -> ApiResult<Json<Value>> {
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
    Ok(Json(json!({
        "success": true,
        "deliverycharge": charge.fee,
        "delivery_charge": charge.fee,
        "total_amount": subtotal,
        "charge_for_amount": charge.free_from,
        "zone": zone,
    })))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct AddressBody {
    name: String,
    mobile: String,
    emergency_mobile: String,
    email: String,
    district: String,
    thana: String,
    address: String,
}

/// `POST /api/cart/checkout-delivery-address`: checks every field and keeps
/// them with the cart; the errors name each field.
async fn post_delivery_address(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<AddressBody>,
) -> ApiResult<Json<Value>> {
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
    Ok(Json(json!({
        "success": true,
        "message": "Your contact and address has been saved",
        "deliverycharge": charge.fee,
        "district": district.name,
        "division": district.division,
    })))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct PaymentBody {
    payment_method: Option<String>,
    terms_check: Option<Value>,
}

/// `POST /api/cart/store-payment-method`.
async fn post_payment_method(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<PaymentBody>,
) -> ApiResult<Json<Value>> {
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
    let online = crate::api::payment::method_available(&state, method);
    if online == Some(false) {
        return Err(crate::api::payment::unavailable());
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
    let mut answer = cart_json(&cart, &totals, applied.as_ref());
    answer["message"] = json!("Your preferred payment method has been selected successfully");
    Ok(Json(answer))
}

#[derive(Debug, Deserialize, JsonSchema)]
struct PayingBody {
    #[serde(rename = "payingAmount")]
    paying_amount: i64,
}

/// `POST /api/cart/set-paying-amount` with `{payingAmount}`: a pre-booking's
/// part payment, between its minimum and the whole.
async fn post_paying_amount(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<PayingBody>,
) -> ApiResult<Json<Value>> {
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
    Ok(Json(json!({
        "success": true,
        "message": "Paying amount saved",
        "paying_amount": body.paying_amount,
        "prebooking_min_amount": min,
        "grand_total": totals.grand_total,
    })))
}

/// `GET /api/cart/order-details?order_random=&secret_key=`.
async fn get_order_details(
    State(state): State<AppState>,
    crate::extract::Query(pairs): Pairs,
) -> ApiResult<Json<Value>> {
    let params = Params::new(pairs)?;
    let number = params.required("order_random")?;
    let key = params.required("secret_key")?;
    let order = orders::by_number_and_key(&state.pool, number, key)
        .await?
        .ok_or_else(|| ApiError::not_found("Order not found"))?;
    let details = orders::details(&state.pool, order.id).await?;
    Ok(Json(json!({
        "success": true,
        "order_masters": order.to_json(),
        "order_details": details,
    })))
}

/// `GET /api/cart/track-order?id=&phone=`.
async fn get_track_order(
    State(state): State<AppState>,
    crate::extract::Query(pairs): Pairs,
) -> ApiResult<Json<Value>> {
    let params = Params::new(pairs)?;
    let number = params.required("id")?;
    let phone = validate::bd_mobile(params.required("phone")?)
        .ok_or_else(|| ApiError::invalid("phone", "A mobile number is 11 digits: 01XXXXXXXXX."))?;
    let order = orders::by_number_and_phone(&state.pool, number.trim(), &phone)
        .await?
        .ok_or_else(|| ApiError::not_found("No order has that number and mobile number."))?;
    let details = orders::details(&state.pool, order.id).await?;
    let master = order.to_json();
    Ok(Json(json!({
        "success": true,
        "order_masters": {
            "order_random": master["order_random"],
            "order_date": master["order_date"],
            "customer_name": master["customer_name"],
            "order_status": master["order_status"],
            "payment_term_status": master["payment_term_status"],
            "grand_total": master["grand_total"],
        },
        "order_details": details,
    })))
}

/// `GET /api/cart/get-payment-gateway`: which methods are on (a gateway is
/// on when configured; bKash is not built).
async fn get_payment_gateways(State(state): State<AppState>) -> Json<Value> {
    let on = |method: &str| json!({ "active": crate::api::payment::method_available(&state, method) == Some(true) });
    Json(json!({
        "cash_on_delivery": { "active": true },
        "debitcredit": on("debitcredit"),
        "mobile_banking": on("mobilebanking"),
        "bkash": on("bkash"),
        "nagad": on("nagad"),
    }))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct PlaceBody {
    idempotency_key: Option<String>,
}

/// `POST /api/cod-place-order`: `{uri, order_random, order_key}`.
async fn post_place_order(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> ApiResult<Json<Value>> {
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
    Ok(Json(json!({
        "success": true,
        "uri": format!(
            "/thank-you?order_random={}&order_key={}",
            placed.order_random, placed.order_key
        ),
        "order_random": placed.order_random,
        "order_key": placed.order_key,
        "grand_total": placed.grand_total,
        "replayed": placed.replayed,
    })))
}
