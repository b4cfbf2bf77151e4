//! Checkout (SPEC.md §7, Cart group): from the cart to a placed order. The
//! first step re-checks the coupon (`checkout-address`), then the delivery
//! address and its charge, how to pay (and a pre-booking's part payment),
//! and placing a cash-on-delivery order ([`place`]: `/api/cod-place-order`,
//! at the API's root). Every answer is the caller's own, so none is cached.

use axum::extract::State;
use axum::Json;
use catalog::clock;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::domain::cart;
use crate::domain::identity::Caller;
use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{Json as Body, Query};
use crate::plumbing::params::Whole;
use crate::plumbing::params::{blank_allowed, blank_is_none, required, Text};
use crate::plumbing::validate;
use crate::plumbing::validate::MOBILE_PATTERN;
use crate::state::AppState;
use crate::surfaces::api::cart::{
    apply_coupon, cart_answer, load, priced, CartResponse, COUPON_PATTERN,
};
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::payment;

mod place;

pub use place::PlaceOrderResponse;

/// Checkout routes under `/api/cart`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/checkout-address",
            get_checkout_address,
            Doc::visitor("Starts checkout: re-checks the coupon and answers the totals")
                .answers(404, "No such coupon")
                .answers(409, "The cart is empty, or the coupon does not hold for it"),
        )
        .get(
            "/get-delivery-charge",
            get_delivery_charge,
            Doc::visitor("The delivery charge to a district for this cart"),
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
            "/get-payment-gateway",
            get_payment_gateways,
            Doc::open("Which payment methods are on"),
        )
}

/// `/api/cod-place-order`, mounted at the API's root ([`place`]).
pub fn place_order_router() -> ApiRouter {
    place::router()
}

/// The parameters of `GET /api/cart/checkout-address`.
#[derive(Debug, Deserialize, JsonSchema)]
struct CheckoutQuery {
    /// The coupon the shopper applied, or false.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(extend("pattern" = COUPON_PATTERN), transform = blank_allowed)]
    coupon: Option<Text<1, MAX_PARAM_LEN>>,
}

/// `GET /api/cart/checkout-address?coupon=`: the first step of checkout.
/// A coupon named here is applied (or refused with its reason); `false` or
/// nothing keeps the cart's own.
async fn get_checkout_address(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<CheckoutQuery>,
) -> ApiResult<Json<CartResponse>> {
    let owner = caller.owner()?;
    let code = query
        .coupon
        .as_deref()
        .filter(|c| !c.is_empty() && *c != "false" && *c != "null" && *c != "undefined");
    if let Some(code) = code {
        apply_coupon(&state, &owner, code).await?;
    }
    let mut cart = load(&state, &owner).await?;
    if cart.is_empty() {
        return Err(ApiError::Conflict("Your cart is empty.".into()));
    }
    let priced = priced(&state, &mut cart, &owner).await?;
    Ok(Json(cart_answer(&cart, priced, None)))
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

/// The parameters of `GET /api/cart/get-delivery-charge`.
#[derive(Debug, Deserialize, JsonSchema)]
struct DeliveryChargeQuery {
    /// A district's name (or 'Dhaka' / 'Outside Dhaka').
    #[schemars(required)]
    district: Option<Text<1, MAX_PARAM_LEN>>,
}

/// `GET /api/cart/get-delivery-charge?district=`: `{deliverycharge,
/// total_amount, charge_for_amount}`. "Dhaka" and "Outside Dhaka" name the
/// two zones as the original client's first call does.
async fn get_delivery_charge(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<DeliveryChargeQuery>,
) -> ApiResult<Json<DeliveryChargeResponse>> {
    let owner = caller.owner()?;
    let district = required(query.district, "district")?;
    let name = district.as_str();
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
#[schemars(extend("required" = ["name", "mobile", "emergency_mobile", "district", "address"]))]
struct AddressBody {
    /// 3-100 characters.
    #[schemars(length(max = 100), extend("pattern" = r"^\S.+\S$"))]
    name: String,
    /// 11-digit Bangladeshi mobile, 01XXXXXXXXX.
    #[schemars(extend("pattern" = MOBILE_PATTERN))]
    mobile: String,
    /// Another 11-digit mobile, not `mobile`.
    #[schemars(extend("pattern" = MOBILE_PATTERN))]
    emergency_mobile: String,
    /// An e-mail address for the receipt (optional).
    #[schemars(length(max = 254), extend("pattern" = r"^([^@\s]+@[^@\s.]+(\.[^@\s.]+)+)?$"))]
    email: String,
    /// One of the 64 districts (the division is taken from it).
    #[schemars(length(max = 100), extend("pattern" = r"\S"))]
    district: String,
    /// Thana or upazila (optional).
    #[schemars(length(max = 100))]
    thana: String,
    /// 5-500 characters.
    #[schemars(length(max = 500), extend("pattern" = r"^\S.{3,}\S$"))]
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
    let name = validate::line(&body.name, 3, 100);
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
    let thana = validate::line(&body.thana, 0, 100);
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
    let saved = cart::Address {
        name,
        mobile,
        emergency_mobile: emergency,
        email: email.to_string(),
        division: district.division,
        district: district.name,
        thana: thana.unwrap_or_default(),
        address,
    };
    cart::save_address(&mut conn, cart.details.id, &saved, charge.fee, now).await?;
    Ok(Json(DeliveryAddressResponse {
        success: true,
        message: "Your contact and address has been saved",
        deliverycharge: charge.fee,
        district: saved.district,
        division: saved.division,
    }))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
#[schemars(extend("required" = ["payment_method", "terms_check"]))]
struct PaymentBody {
    /// cash_on_delivery, debitcredit, mobilebanking, bkash or nagad.
    #[schemars(extend("enum" = cart::PAYMENT_METHODS))]
    payment_method: Option<String>,
    /// The shopper accepts the terms: true, 1, "true", "1" or "on".
    #[schemars(schema_with = "terms_schema")]
    terms_check: Option<Value>,
}

/// What `terms_check` takes: the shopper's yes, as a form or a script sends it.
fn terms_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            { "const": true },
            { "type": "number" },
            { "enum": ["true", "1", "on"] }
        ]
    })
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
    let online = payment::method_available(&state, method);
    if online == Some(false) {
        return Err(payment::unavailable());
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
    let mut conn = state.pool.acquire().await?;
    cart::set_payment_method(&mut conn, cart.details.id, method, clock::now_unix()).await?;
    drop(conn);
    cart.details.payment_method = Some(method.to_string());
    cart.details.terms_accepted = true;
    let priced = priced(&state, &mut cart, &owner).await?;
    let message = "Your preferred payment method has been selected successfully";
    Ok(Json(cart_answer(&cart, priced, Some(message.to_string()))))
}

#[derive(Debug, Deserialize, JsonSchema)]
struct PayingBody {
    /// Taka, between the minimum and the total.
    #[schemars(range(min = 0))]
    #[serde(rename = "payingAmount")]
    paying_amount: Whole,
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
    let totals = priced(&state, &mut cart, &owner).await?.totals;
    let allowed = cart.part_payments(totals.grand_total);
    let min = *allowed.start();
    let paying_amount = body.paying_amount.0;
    if !allowed.contains(&paying_amount) {
        return Err(ApiError::invalid(
            "payingAmount",
            format!(
                "Pay between {} and {} now.",
                catalog::pricing::taka(min),
                catalog::pricing::taka(totals.grand_total)
            ),
        ));
    }
    let mut conn = state.pool.acquire().await?;
    cart::set_paying_amount(&mut conn, cart.details.id, paying_amount).await?;
    Ok(Json(PayingAmountResponse {
        success: true,
        message: "Paying amount saved",
        paying_amount,
        prebooking_min_amount: min,
        grand_total: totals.grand_total,
    }))
}

/// The answer of `GET /api/cart/get-payment-gateway`: which payment methods
/// are on.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PaymentGatewaysResponse {
    /// True while the shop has switched buying off (`disable_buy`): no
    /// method may be used then, whatever `active` says.
    pub buying_disabled: bool,
    pub cash_on_delivery: Gateway,
    pub debitcredit: Gateway,
    pub mobile_banking: Gateway,
    pub bkash: Gateway,
    pub nagad: Gateway,
}

/// Whether a payment method may be chosen: its gateway is configured on
/// this origin (cash on delivery always is).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Gateway {
    pub active: bool,
}

/// `GET /api/cart/get-payment-gateway`: which methods are on (a gateway is
/// on when configured) and whether buying is switched off.
async fn get_payment_gateways(
    State(state): State<AppState>,
) -> ApiResult<Json<PaymentGatewaysResponse>> {
    let on = |method: &str| Gateway {
        active: payment::method_available(&state, method) == Some(true),
    };
    Ok(Json(PaymentGatewaysResponse {
        buying_disabled: cart::buying_disabled(&state.pool).await?,
        cash_on_delivery: Gateway { active: true },
        debitcredit: on("debitcredit"),
        mobile_banking: on("mobilebanking"),
        bkash: on("bkash"),
        nagad: on("nagad"),
    }))
}
