//! Coupons: a percentage (capped by `upto_amount`) or a fixed amount off the
//! lines a coupon applies to, inside its validity window, within its usage
//! limits and purchase range. The same check runs when a shopper applies a
//! code and again inside the order's transaction.

use catalog::db::{self, Conn};
use serde::Serialize;
use sqlx::FromRow;

use crate::domain::cart::{self, Cart};
use crate::domain::identity::Owner;
use crate::plumbing::error::{ApiError, ApiResult};

/// Puts `code` on the owner's cart when it holds for it at `now`: the cart
/// (as it was read) and the coupon applied. An empty cart is a 409, a coupon
/// that does not hold is [`check`]'s error.
pub async fn apply_to_cart(
    conn: &mut Conn,
    owner: &Owner,
    code: &str,
    now: i64,
) -> ApiResult<(Cart, Applied)> {
    let cart = cart::load(conn, owner, now).await?;
    if cart.is_empty() {
        return Err(ApiError::Conflict("Your cart is empty.".into()));
    }
    let applied = check(conn, code, &cart, owner, now).await?;
    cart::set_coupon(conn, cart.details.id, &applied.coupon.coupon_code, now).await?;
    Ok((cart, applied))
}

/// A coupon row.
#[derive(Debug, Clone, FromRow, Serialize, schemars::JsonSchema)]
pub struct Coupon {
    pub id: i64,
    pub coupon_code: String,
    pub amount_type: String,
    pub price: i64,
    pub upto_amount: Option<i64>,
    pub purchase_min: i64,
    pub purchase_max: Option<i64>,
    pub used_limit: Option<i64>,
    pub used_count: i64,
    pub per_user_limit: Option<i64>,
    pub starts_at: i64,
    pub ends_at: i64,
    pub apply_for: String,
    pub apply_id: Option<i64>,
    pub comment: String,
    #[serde(skip)]
    pub is_active: bool,
}

/// A coupon that holds for a cart, and what it takes off.
#[derive(Debug, Clone, Serialize)]
pub struct Applied {
    pub coupon: Coupon,
    /// Taka off the cart.
    pub discount: i64,
}

/// Codes are letters, digits, `-` and `_`, at most 40.
pub fn valid_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= 40
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Checks `code` against `cart` at `now` for `owner`; the discount in taka,
/// or an error saying why it does not hold.
pub async fn check(
    conn: &mut Conn,
    code: &str,
    cart: &Cart,
    owner: &Owner,
    now: i64,
) -> ApiResult<Applied> {
    let code = code.trim();
    if !valid_code(code) {
        return Err(ApiError::invalid(
            "coupon",
            "A coupon code is letters and digits.",
        ));
    }
    let coupon: Option<Coupon> = db::query_as(
        "SELECT id, coupon_code, amount_type, price, upto_amount, purchase_min, purchase_max, \
         used_limit, used_count, per_user_limit, starts_at, ends_at, apply_for, apply_id, comment, \
         is_active FROM coupon WHERE UPPER(coupon_code) = UPPER($1)",
    )
    .bind(code)
    .fetch_optional(&mut *conn)
    .await?;
    let coupon = match coupon {
        Some(c) if c.is_active => c,
        _ => return Err(ApiError::not_found("That coupon code does not exist.")),
    };
    let refuse = |message: String| Err(ApiError::Conflict(message));
    if now < coupon.starts_at {
        return refuse("This coupon is not valid yet.".into());
    }
    if now >= coupon.ends_at {
        return refuse("This coupon has expired.".into());
    }
    if coupon
        .used_limit
        .is_some_and(|limit| coupon.used_count >= limit)
    {
        return refuse("This coupon's usage limit has been reached.".into());
    }
    if let Some(limit) = coupon.per_user_limit {
        let used = uses_by(conn, &coupon.coupon_code, owner).await?;
        if used >= limit {
            return refuse("You have already used this coupon as often as it allows.".into());
        }
    }
    let eligible = eligible_total(conn, &coupon, cart).await?;
    if eligible == 0 {
        return refuse("This coupon does not apply to anything in your cart.".into());
    }
    let subtotal = cart.subtotal();
    if subtotal < coupon.purchase_min {
        return refuse(format!(
            "This coupon needs a purchase of at least ৳{}.",
            coupon.purchase_min
        ));
    }
    if coupon.purchase_max.is_some_and(|max| subtotal > max) {
        return refuse(format!(
            "This coupon is for purchases up to ৳{}.",
            coupon.purchase_max.unwrap_or_default()
        ));
    }
    let discount = discount(&coupon, eligible);
    Ok(Applied { coupon, discount })
}

/// Taka off `eligible` taka of lines.
pub fn discount(coupon: &Coupon, eligible: i64) -> i64 {
    let off = if coupon.amount_type == "Percentage" {
        let off = eligible * coupon.price / 100;
        coupon.upto_amount.map_or(off, |cap| off.min(cap))
    } else {
        coupon.price
    };
    off.clamp(0, eligible)
}

/// The total of the lines the coupon applies to.
async fn eligible_total(conn: &mut Conn, coupon: &Coupon, cart: &Cart) -> sqlx::Result<i64> {
    let Some(target) = coupon.apply_id else {
        return Ok(cart.subtotal());
    };
    match coupon.apply_for.as_str() {
        "product" => Ok(cart
            .lines
            .iter()
            .filter(|l| l.product_id == target)
            .map(|l| l.total())
            .sum()),
        "category" => {
            let mut total = 0;
            for line in &cart.lines {
                let inside: bool = db::query_scalar(
                    "WITH RECURSIVE tree(id) AS (SELECT $1 UNION ALL \
                     SELECT c.id FROM category c JOIN tree t ON c.parent = t.id) \
                     SELECT EXISTS (SELECT 1 FROM product_category WHERE product_id = $2 \
                     AND category_id IN (SELECT id FROM tree))",
                )
                .bind(target)
                .bind(line.product_id)
                .fetch_one(&mut *conn)
                .await?;
                if inside {
                    total += line.total();
                }
            }
            Ok(total)
        }
        _ => Ok(cart.subtotal()),
    }
}

/// Orders by this owner that used the coupon.
async fn uses_by(conn: &mut Conn, code: &str, owner: &Owner) -> sqlx::Result<i64> {
    match owner {
        Owner::User(id) => {
            db::query_scalar(
                "SELECT COUNT(*) FROM order_master WHERE coupon_code = $1 AND user_id = $2",
            )
            .bind(code)
            .bind(id)
            .fetch_one(&mut *conn)
            .await
        }
        Owner::Guest(token) => {
            db::query_scalar(
                "SELECT COUNT(*) FROM order_master WHERE coupon_code = $1 AND self_token = $2",
            )
            .bind(code)
            .bind(token)
            .fetch_one(&mut *conn)
            .await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coupon(kind: &str, price: i64, cap: Option<i64>) -> Coupon {
        Coupon {
            id: 1,
            coupon_code: "X".into(),
            amount_type: kind.into(),
            price,
            upto_amount: cap,
            purchase_min: 0,
            purchase_max: None,
            used_limit: None,
            used_count: 0,
            per_user_limit: None,
            starts_at: 0,
            ends_at: 1,
            apply_for: "all".into(),
            apply_id: None,
            comment: String::new(),
            is_active: true,
        }
    }

    #[test]
    fn percentages_are_capped_and_fixed_amounts_never_exceed_the_lines() {
        assert_eq!(discount(&coupon("Percentage", 10, None), 12_345), 1_234);
        assert_eq!(discount(&coupon("Percentage", 10, Some(500)), 12_345), 500);
        assert_eq!(discount(&coupon("Fixed", 500, None), 12_345), 500);
        assert_eq!(discount(&coupon("Fixed", 500, None), 300), 300);
    }

    #[test]
    fn codes_are_short_plain_words() {
        assert!(valid_code("WELCOME10"));
        assert!(valid_code("eid-2025_x"));
        assert!(!valid_code(""));
        assert!(!valid_code("x' OR 1=1"));
        assert!(!valid_code(&"A".repeat(41)));
    }
}
