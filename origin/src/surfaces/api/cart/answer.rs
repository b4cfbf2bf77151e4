//! The cart as `/api/cart/view` answers it (and `checkout-address` and
//! `store-payment-method` after it): its lines and product sets priced now,
//! the coupon, the payment chosen and the address kept with it.

use schemars::JsonSchema;
use serde::Serialize;

use crate::domain::cart::{Cart, Line};
use crate::domain::orders;
use crate::surfaces::api::answers::ById;

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

pub(super) fn variation_info(l: &Line) -> Option<VariationInfo> {
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
    /// The chosen fabric's name; null when the set has no fabric.
    pub fabric_title: Option<String>,
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
                fabric_title: set.fabric_title.clone(),
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
