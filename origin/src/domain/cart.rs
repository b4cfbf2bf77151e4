//! The cart: one row per owner (a guest's self token or a user), lines of
//! products (a variation's code or the product's code is the line key) and
//! product sets whose items are lines tied to a `cart_set`. Prices are never
//! stored in the cart: every read prices the lines at the current instant
//! (flash sales switch at their exact boundary), and placing an order prices
//! them again inside its transaction ([`crate::domain::orders`]).

use catalog::db::{self, Conn, Pool};
use catalog::pricing;
use serde::Serialize;
use sqlx::FromRow;

use crate::domain::identity::Owner;
use crate::plumbing::error::{ApiError, ApiResult};

/// Most units of one line.
pub const MAX_QTY: i64 = 99;
/// Most lines in one cart.
pub const MAX_LINES: i64 = 50;

/// Payment methods a shopper may pick (ORIGINAL-API.md §2).
pub const PAYMENT_METHODS: [&str; 5] = [
    "cash_on_delivery",
    "debitcredit",
    "mobilebanking",
    "bkash",
    "nagad",
];

/// One line priced now.
#[derive(Debug, Clone, FromRow)]
pub struct Line {
    pub id: i64,
    pub product_id: i64,
    pub variation_id: Option<i64>,
    pub item_code: String,
    pub qty: i64,
    pub cart_set_id: Option<i64>,
    pub product_set_id: Option<i64>,
    pub fabric_id: Option<i64>,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    pub product_code: String,
    pub sku: String,
    pub short_description: String,
    /// Units in stock (the variation's when there is one).
    pub stock: i64,
    pub price_before: i64,
    /// The regular selling price before any flash discount.
    pub price_now: i64,
    pub cash_on_delivery: bool,
    pub pre_booking: bool,
    pub pre_booking_min_percent: i64,
    pub is_active: bool,
    pub disable_buy: bool,
    pub variation_attribute: Option<String>,
    pub variation_value: Option<String>,
    pub image_url: Option<String>,
    /// The running flash sale's discount, percent.
    pub flash_discount: Option<i64>,
    pub flash_item_id: Option<i64>,
    pub category_name: Option<String>,
}

impl Line {
    /// What one unit costs now.
    pub fn unit_price(&self) -> i64 {
        match self.flash_discount {
            Some(d) => pricing::discounted(self.price_now, d),
            None => self.price_now,
        }
    }

    pub fn total(&self) -> i64 {
        self.unit_price() * self.qty
    }

    /// "Colour: Walnut" for a variation.
    pub fn variation_label(&self) -> Option<String> {
        match (&self.variation_attribute, &self.variation_value) {
            (Some(a), Some(v)) => Some(format!("{a}: {v}")),
            _ => None,
        }
    }
}

/// A product set in the cart.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct SetInfo {
    pub cart_set_id: i64,
    pub id: i64,
    pub title: String,
    pub slug: String,
    pub description: String,
    pub image_url: Option<String>,
    pub fabric_id: Option<i64>,
    /// The chosen fabric's name.
    pub fabric_title: Option<String>,
}

/// The cart row: the checkout details kept with it.
#[derive(Debug, Clone, Default, FromRow)]
pub struct Details {
    pub id: i64,
    pub coupon_code: Option<String>,
    pub name: Option<String>,
    pub mobile: Option<String>,
    pub emergency_mobile: Option<String>,
    pub email: Option<String>,
    pub division: Option<String>,
    pub district: Option<String>,
    pub thana: Option<String>,
    pub address: Option<String>,
    pub delivery_fee: Option<i64>,
    pub payment_method: Option<String>,
    pub terms_accepted: bool,
    pub paying_amount: Option<i64>,
}

/// A cart read at one instant.
#[derive(Debug, Clone, Default)]
pub struct Cart {
    pub details: Details,
    pub lines: Vec<Line>,
    pub sets: Vec<SetInfo>,
}

impl Cart {
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Σ qty × unit price, taka.
    pub fn subtotal(&self) -> i64 {
        self.lines.iter().map(Line::total).sum()
    }

    pub fn total_qty(&self) -> i64 {
        self.lines.iter().map(|l| l.qty).sum()
    }

    /// Lines shown on their own (sets count as one line each).
    pub fn line_count(&self) -> usize {
        self.lines
            .iter()
            .filter(|l| l.cart_set_id.is_none())
            .count()
            + self.sets.len()
    }

    /// A cart holds pre-booking products only, or none (DOMAIN.md).
    pub fn is_pre_booking(&self) -> bool {
        self.lines.iter().any(|l| l.pre_booking)
    }

    /// Cash on delivery is offered when every product allows it.
    pub fn cash_on_delivery_allowed(&self) -> bool {
        !self.lines.is_empty() && self.lines.iter().all(|l| l.cash_on_delivery)
    }

    /// The least a pre-booking cart may pay now: each line's minimum percent.
    pub fn pre_booking_minimum(&self) -> i64 {
        self.lines
            .iter()
            .filter(|l| l.pre_booking)
            .map(|l| (l.total() * l.pre_booking_min_percent + 99) / 100)
            .sum()
    }

    /// What a pre-booking cart may pay now of `grand_total`: from its minimum
    /// up to the whole.
    pub fn part_payments(&self, grand_total: i64) -> std::ops::RangeInclusive<i64> {
        self.pre_booking_minimum()..=grand_total
    }
}

/// The cart's id, creating the row when `create` is set.
pub async fn cart_id(conn: &mut Conn, owner: &Owner, create: bool) -> sqlx::Result<Option<i64>> {
    match owner {
        Owner::User(user) => {
            if create {
                db::query("INSERT INTO cart (user_id) VALUES ($1) ON CONFLICT DO NOTHING")
                    .bind(user)
                    .execute(&mut *conn)
                    .await?;
            }
            db::query_scalar("SELECT id FROM cart WHERE user_id = $1")
                .bind(user)
                .fetch_optional(&mut *conn)
                .await
        }
        Owner::Guest(token) => {
            // An older, shorter token reaches the cart it has; it never makes one.
            if create && crate::domain::identity::valid_self_token(token) {
                db::query("INSERT INTO cart (self_token) VALUES ($1) ON CONFLICT DO NOTHING")
                    .bind(token)
                    .execute(&mut *conn)
                    .await?;
            }
            db::query_scalar("SELECT id FROM cart WHERE self_token = $1")
                .bind(token)
                .fetch_optional(&mut *conn)
                .await
        }
    }
}

/// The owner's cart priced at `now`; an empty cart when there is none. Lines
/// of products taken off sale are dropped from the cart.
pub async fn load(conn: &mut Conn, owner: &Owner, now: i64) -> sqlx::Result<Cart> {
    let Some(id) = cart_id(conn, owner, false).await? else {
        return Ok(Cart::default());
    };
    load_by_id(conn, id, now).await
}

/// The cart `id` priced at `now`.
pub async fn load_by_id(conn: &mut Conn, id: i64, now: i64) -> sqlx::Result<Cart> {
    db::query(
        "DELETE FROM cart_item WHERE cart_id = $1 \
         AND product_id IN (SELECT id FROM product WHERE NOT is_active)",
    )
    .bind(id)
    .execute(&mut *conn)
    .await?;
    db::query(
        "DELETE FROM cart_set WHERE cart_id = $1 \
         AND NOT EXISTS (SELECT 1 FROM cart_item ci WHERE ci.cart_set_id = cart_set.id)",
    )
    .bind(id)
    .execute(&mut *conn)
    .await?;
    let details: Details = db::query_as(
        "SELECT id, coupon_code, name, mobile, emergency_mobile, email, division, district, thana, \
         address, delivery_fee, payment_method, terms_accepted, paying_amount FROM cart WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    let lines: Vec<Line> = db::query_as(&lines_sql(now))
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    let sets: Vec<SetInfo> = db::query_as(
        "SELECT cs.id AS cart_set_id, ps.id, ps.title, ps.slug, ps.description, \
         f.icon_size_directory AS image_url, cs.fabric_id, fb.title AS fabric_title \
         FROM cart_set cs JOIN product_set ps ON ps.id = cs.product_set_id \
         LEFT JOIN image_file f ON f.id = ps.image_file_id \
         LEFT JOIN fabric fb ON fb.id = cs.fabric_id \
         WHERE cs.cart_id = $1 ORDER BY cs.id",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(Cart {
        details,
        lines,
        sets,
    })
}

/// The lines of cart `$1` with everything needed to price and show them.
fn lines_sql(now: i64) -> String {
    format!(
        "SELECT ci.id, ci.product_id, ci.variation_id, ci.item_code, ci.qty, ci.cart_set_id, \
           cs.product_set_id, cs.fabric_id, p.title, \
           COALESCE(NULLIF(v.sub_title, ''), p.sub_title) AS sub_title, p.seo_url, \
           p.product_code, p.sku, p.short_description, \
           COALESCE(v.stock, p.stock) AS stock, \
           COALESCE(v.price_before, p.price_before) AS price_before, \
           COALESCE(v.price_now, p.price_now) AS price_now, \
           p.cash_on_delivery, p.pre_booking, p.pre_booking_min_percent, p.is_active, p.disable_buy, \
           v.attribute AS variation_attribute, v.value AS variation_value, \
           (SELECT f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
            WHERE pi.product_id = p.id ORDER BY pi.is_main DESC, pi.sort, pi.id LIMIT 1) AS image_url, \
           {discount} AS flash_discount, \
           (SELECT fi.id FROM flash_item fi JOIN flash_schedule fs ON fs.id = fi.schedule_id \
            WHERE fi.product_id = p.id AND fs.is_active AND fs.starts_at <= {now} AND fs.ends_at > {now} \
            ORDER BY fi.discount_percent DESC, fi.id LIMIT 1) AS flash_item_id, \
           (SELECT c.name FROM product_category pc JOIN category c ON c.id = pc.category_id \
            WHERE pc.product_id = p.id ORDER BY pc.is_primary DESC, c.id LIMIT 1) AS category_name \
         FROM cart_item ci JOIN product p ON p.id = ci.product_id \
         LEFT JOIN product_variation v ON v.id = ci.variation_id \
         LEFT JOIN cart_set cs ON cs.id = ci.cart_set_id \
         WHERE ci.cart_id = $1 ORDER BY ci.id",
        discount = pricing::flash_discount_sql(now),
    )
}

/// Whether the shop has switched buying off (the `disable_buy` setting).
pub async fn buying_disabled(pool: &Pool) -> sqlx::Result<bool> {
    let value: Option<String> =
        db::query_scalar("SELECT value FROM setting WHERE name = 'disable_buy'")
            .fetch_optional(pool)
            .await?;
    Ok(value.is_some_and(|v| v.trim().eq_ignore_ascii_case("on")))
}

/// The answer to every buying call while buying is switched off.
pub fn buying_disabled_error() -> ApiError {
    ApiError::Unavailable(
        "Buying is switched off for a short while. Please try again later.".to_string(),
    )
}

/// A product (or one of its variations) that may go into a cart.
#[derive(Debug, Clone, FromRow)]
pub struct Buyable {
    pub product_id: i64,
    pub variation_id: Option<i64>,
    pub code: String,
    pub title: String,
    pub stock: i64,
    pub pre_booking: bool,
    pub disable_buy: bool,
}

/// Looks a product up for adding; 404 when it is unknown or inactive, 400
/// when the variation is not one of its own.
pub async fn buyable(
    conn: &mut Conn,
    product_id: i64,
    variation_id: Option<i64>,
) -> ApiResult<Buyable> {
    let found: Option<Buyable> = db::query_as(
        "SELECT p.id AS product_id, v.id AS variation_id, \
         COALESCE(v.product_code, p.product_code) AS code, p.title, \
         COALESCE(v.stock, p.stock) AS stock, p.pre_booking, p.disable_buy \
         FROM product p LEFT JOIN product_variation v ON v.id = $2 AND v.product_id = p.id \
         WHERE p.id = $1 AND p.is_active",
    )
    .bind(product_id)
    .bind(variation_id)
    .fetch_optional(&mut *conn)
    .await?;
    let found = found.ok_or_else(|| ApiError::not_found("Product not found"))?;
    if variation_id.is_some() && found.variation_id.is_none() {
        return Err(ApiError::invalid(
            "variation_id",
            "That variation is not one of this product's.",
        ));
    }
    if found.disable_buy {
        return Err(ApiError::Conflict(format!(
            "{} cannot be bought online right now. Please call us.",
            found.title
        )));
    }
    Ok(found)
}

/// Checks that `wanted` units of `item` can be ordered: pre-bookings need no
/// stock, everything else does.
pub fn check_stock(item: &Buyable, wanted: i64) -> ApiResult<()> {
    if item.pre_booking || wanted <= item.stock {
        return Ok(());
    }
    Err(ApiError::Conflict(if item.stock <= 0 {
        format!("{} is out of stock.", item.title)
    } else {
        format!("Only {} of {} left in stock.", item.stock, item.title)
    }))
}

/// A cart holds pre-booking products or ordinary ones, never both.
pub fn check_mix(cart: &Cart, adding_pre_booking: bool) -> ApiResult<()> {
    if cart.is_empty() || cart.is_pre_booking() == adding_pre_booking {
        return Ok(());
    }
    Err(ApiError::Conflict(if adding_pre_booking {
        "A pre-booking is ordered on its own: place or empty your cart first.".to_string()
    } else {
        "Your cart holds a pre-booking, which is ordered on its own: place or empty it first."
            .to_string()
    }))
}

/// Adds `qty` units of a product line (or more of an existing line) and
/// returns the line's new quantity.
pub async fn add_line(conn: &mut Conn, cart_id: i64, item: &Buyable, qty: i64) -> ApiResult<i64> {
    let existing: Option<(i64, i64)> = db::query_as(
        "SELECT id, qty FROM cart_item WHERE cart_id = $1 AND item_code = $2 AND cart_set_id IS NULL",
    )
    .bind(cart_id)
    .bind(&item.code)
    .fetch_optional(&mut *conn)
    .await?;
    let new_qty = existing.map_or(0, |(_, q)| q) + qty;
    if new_qty > MAX_QTY {
        return Err(ApiError::invalid(
            "qty",
            format!("At most {MAX_QTY} of one item fit in a cart."),
        ));
    }
    check_stock(item, new_qty)?;
    match existing {
        Some((line, _)) => {
            db::query("UPDATE cart_item SET qty = $1, updated_at = unixepoch() WHERE id = $2")
                .bind(new_qty)
                .bind(line)
                .execute(&mut *conn)
                .await?;
        }
        None => {
            check_room(conn, cart_id).await?;
            db::query(
                "INSERT INTO cart_item (cart_id, product_id, variation_id, item_code, qty) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(cart_id)
            .bind(item.product_id)
            .bind(item.variation_id)
            .bind(&item.code)
            .bind(new_qty)
            .execute(&mut *conn)
            .await?;
        }
    }
    touch(conn, cart_id).await?;
    Ok(new_qty)
}

/// A cart has room for another line.
async fn check_room(conn: &mut Conn, cart_id: i64) -> ApiResult<()> {
    let lines: i64 = db::query_scalar("SELECT COUNT(*) FROM cart_item WHERE cart_id = $1")
        .bind(cart_id)
        .fetch_one(&mut *conn)
        .await?;
    if lines >= MAX_LINES {
        return Err(ApiError::Conflict(format!(
            "A cart holds at most {MAX_LINES} items: place this order first."
        )));
    }
    Ok(())
}

/// Adds a product set as one line: its items in the set's quantities, with
/// one of the set's active fabrics (required when the set has any: 400
/// naming `fabric_id` otherwise). Every item is checked before anything is
/// added: when any cannot be supplied in the set's quantity, the answer is a
/// 409 naming each such item. Adding the same set and fabric again adds one
/// more of each item.
pub async fn add_set(
    conn: &mut Conn,
    cart_id: i64,
    set_id: i64,
    fabric_id: Option<i64>,
) -> ApiResult<Vec<i64>> {
    let active: Option<bool> = db::query_scalar("SELECT active FROM product_set WHERE id = $1")
        .bind(set_id)
        .fetch_optional(&mut *conn)
        .await?;
    if active != Some(true) {
        return Err(ApiError::not_found("Product set not found"));
    }
    check_fabric(conn, set_id, fabric_id).await?;
    let items: Vec<(i64, i64)> = db::query_as(
        "SELECT product_id, qty FROM product_set_item WHERE product_set_id = $1 ORDER BY sort, product_id",
    )
    .bind(set_id)
    .fetch_all(&mut *conn)
    .await?;
    if items.is_empty() {
        return Err(ApiError::Conflict("This set has no products.".to_string()));
    }
    check_set_stock(conn, cart_id, set_id, fabric_id).await?;
    let existing: Option<i64> = db::query_scalar(
        "SELECT id FROM cart_set WHERE cart_id = $1 AND product_set_id = $2 AND fabric_id IS NOT DISTINCT FROM $3",
    )
    .bind(cart_id)
    .bind(set_id)
    .bind(fabric_id)
    .fetch_optional(&mut *conn)
    .await?;
    let cart_set = match existing {
        Some(id) => id,
        None => {
            check_room(conn, cart_id).await?;
            db::query_scalar(
                "INSERT INTO cart_set (cart_id, product_set_id, fabric_id) VALUES ($1, $2, $3) RETURNING id",
            )
            .bind(cart_id)
            .bind(set_id)
            .bind(fabric_id)
            .fetch_one(&mut *conn)
            .await?
        }
    };
    let mut ids = Vec::with_capacity(items.len());
    for (product_id, set_qty) in items {
        let item = buyable(conn, product_id, None).await?;
        let have: Option<(i64, i64)> = db::query_as(
            "SELECT id, qty FROM cart_item WHERE cart_set_id = $1 AND product_id = $2",
        )
        .bind(cart_set)
        .bind(product_id)
        .fetch_optional(&mut *conn)
        .await?;
        let qty = have.map_or(0, |(_, q)| q) + set_qty;
        if qty > MAX_QTY {
            return Err(ApiError::invalid(
                "qty",
                format!("At most {MAX_QTY} of one item fit in a cart."),
            ));
        }
        check_stock(&item, qty)?;
        match have {
            Some((line, _)) => {
                db::query("UPDATE cart_item SET qty = $1, updated_at = unixepoch() WHERE id = $2")
                    .bind(qty)
                    .bind(line)
                    .execute(&mut *conn)
                    .await?;
            }
            None => {
                db::query(
                    "INSERT INTO cart_item (cart_id, cart_set_id, product_id, item_code, qty) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(cart_id)
                .bind(cart_set)
                .bind(product_id)
                .bind(&item.code)
                .bind(qty)
                .execute(&mut *conn)
                .await?;
            }
        }
        ids.push(product_id);
    }
    touch(conn, cart_id).await?;
    Ok(ids)
}

/// The set's fabric: `fabric_id` must be one of the set's active fabrics,
/// and is required when the set has any.
async fn check_fabric(conn: &mut Conn, set_id: i64, fabric_id: Option<i64>) -> ApiResult<()> {
    let fabrics: Vec<(i64, String)> = db::query_as(
        "SELECT id, title FROM fabric WHERE product_set_id = $1 AND active ORDER BY sort, id",
    )
    .bind(set_id)
    .fetch_all(&mut *conn)
    .await?;
    match fabric_id {
        Some(f) if fabrics.iter().any(|(id, _)| *id == f) => Ok(()),
        Some(_) => Err(ApiError::invalid(
            "fabric_id",
            "That fabric is not offered for this set.",
        )),
        None if fabrics.is_empty() => Ok(()),
        None => Err(ApiError::invalid(
            "fabric_id",
            format!(
                "Choose a fabric for this set: {}.",
                fabrics
                    .iter()
                    .map(|(_, t)| t.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// Why the set cannot be supplied now, item by item (with what this cart
/// already holds of the same set and fabric): a 409 naming every item that
/// is out of stock, short of the set's quantity, not sold online or gone.
async fn check_set_stock(
    conn: &mut Conn,
    cart_id: i64,
    set_id: i64,
    fabric_id: Option<i64>,
) -> ApiResult<()> {
    type Row = (String, i64, i64, bool, bool, bool, i64);
    let rows: Vec<Row> = db::query_as(
        "SELECT p.title, i.qty, p.stock, p.pre_booking, p.disable_buy, p.is_active, \
         COALESCE((SELECT ci.qty FROM cart_item ci JOIN cart_set cs ON cs.id = ci.cart_set_id \
           WHERE cs.cart_id = $2 AND cs.product_set_id = $1 AND cs.fabric_id IS NOT DISTINCT FROM $3 \
           AND ci.product_id = i.product_id), 0) AS in_cart \
         FROM product_set_item i JOIN product p ON p.id = i.product_id \
         WHERE i.product_set_id = $1 ORDER BY i.sort, i.product_id",
    )
    .bind(set_id)
    .bind(cart_id)
    .bind(fabric_id)
    .fetch_all(&mut *conn)
    .await?;
    let problems: Vec<String> = rows
        .iter()
        .filter_map(
            |(title, set_qty, stock, pre_booking, disable_buy, is_active, in_cart)| {
                let wanted = set_qty + in_cart;
                if !is_active {
                    Some(format!("{title} is no longer sold"))
                } else if *disable_buy {
                    Some(format!("{title} cannot be bought online right now"))
                } else if *pre_booking || wanted <= *stock {
                    None
                } else if *stock <= 0 {
                    Some(format!("{title} is out of stock"))
                } else {
                    Some(format!("{title}: only {stock} left, {wanted} needed"))
                }
            },
        )
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    Err(ApiError::Conflict(format!(
        "This set cannot be added now: {}.",
        problems.join("; ")
    )))
}

/// Sets the quantity of the line keyed `code` (not a set's item).
pub async fn set_qty(conn: &mut Conn, cart_id: i64, code: &str, qty: i64) -> ApiResult<()> {
    let line: Option<(i64, i64, Option<i64>)> = db::query_as(
        "SELECT id, product_id, variation_id FROM cart_item \
         WHERE cart_id = $1 AND item_code = $2 AND cart_set_id IS NULL",
    )
    .bind(cart_id)
    .bind(code)
    .fetch_optional(&mut *conn)
    .await?;
    let (line, product, variation) =
        line.ok_or_else(|| ApiError::not_found(format!("{code} is not in your cart")))?;
    let item = buyable(conn, product, variation).await?;
    check_stock(&item, qty)?;
    db::query("UPDATE cart_item SET qty = $1, updated_at = unixepoch() WHERE id = $2")
        .bind(qty)
        .bind(line)
        .execute(&mut *conn)
        .await?;
    touch(conn, cart_id).await?;
    Ok(())
}

/// Removes the line keyed `code` (optionally of product `pid`); 404 when the
/// cart has no such line.
pub async fn remove_line(
    conn: &mut Conn,
    cart_id: i64,
    code: &str,
    product_id: Option<i64>,
) -> ApiResult<()> {
    let done = db::query(
        "DELETE FROM cart_item WHERE cart_id = $1 AND item_code = $2 AND cart_set_id IS NULL \
         AND ($3 IS NULL OR product_id = $3)",
    )
    .bind(cart_id)
    .bind(code)
    .bind(product_id)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Err(ApiError::not_found(format!("{code} is not in your cart")));
    }
    touch(conn, cart_id).await?;
    Ok(())
}

/// Removes the set whose items are exactly `pairs` of (product id, code).
pub async fn remove_set(conn: &mut Conn, cart_id: i64, pairs: &[(i64, String)]) -> ApiResult<()> {
    let sets: Vec<i64> = db::query_scalar("SELECT id FROM cart_set WHERE cart_id = $1 ORDER BY id")
        .bind(cart_id)
        .fetch_all(&mut *conn)
        .await?;
    let mut wanted: Vec<(i64, String)> = pairs.to_vec();
    wanted.sort();
    for set in sets {
        let mut items: Vec<(i64, String)> = db::query_as(
            "SELECT product_id, item_code FROM cart_item WHERE cart_set_id = $1 ORDER BY product_id",
        )
        .bind(set)
        .fetch_all(&mut *conn)
        .await?;
        items.sort();
        if items == wanted {
            db::query("DELETE FROM cart_set WHERE id = $1")
                .bind(set)
                .execute(&mut *conn)
                .await?;
            touch(conn, cart_id).await?;
            return Ok(());
        }
    }
    Err(ApiError::not_found("That set is not in your cart"))
}

/// Whether any product of the product set `set_id` is a pre-booking (a cart
/// holds pre-bookings or ordinary products, never both).
pub async fn set_has_pre_booking(conn: &mut Conn, set_id: i64) -> sqlx::Result<bool> {
    db::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM product_set_item i \
         JOIN product p ON p.id = i.product_id WHERE i.product_set_id = $1 AND p.pre_booking)",
    )
    .bind(set_id)
    .fetch_one(&mut *conn)
    .await
}

/// Keeps `code` as the cart's coupon.
pub async fn set_coupon(conn: &mut Conn, cart_id: i64, code: &str, now: i64) -> sqlx::Result<()> {
    db::query("UPDATE cart SET coupon_code = $1, updated_at = $2 WHERE id = $3")
        .bind(code)
        .bind(now)
        .bind(cart_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Takes the coupon off the cart (it no longer holds).
pub async fn clear_coupon(conn: &mut Conn, cart_id: i64) -> sqlx::Result<()> {
    db::query("UPDATE cart SET coupon_code = NULL WHERE id = $1")
        .bind(cart_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The contact and delivery address given at checkout, already checked.
#[derive(Debug, Clone)]
pub struct Address {
    pub name: String,
    /// `01XXXXXXXXX`.
    pub mobile: String,
    /// `01XXXXXXXXX`, not `mobile`.
    pub emergency_mobile: String,
    /// Empty when not given.
    pub email: String,
    pub division: String,
    pub district: String,
    /// Empty when not given.
    pub thana: String,
    pub address: String,
}

/// Keeps the checkout address with the cart, and the delivery fee to it.
pub async fn save_address(
    conn: &mut Conn,
    cart_id: i64,
    address: &Address,
    delivery_fee: i64,
    now: i64,
) -> sqlx::Result<()> {
    db::query(
        "UPDATE cart SET name = $1, mobile = $2, emergency_mobile = $3, email = $4, division = $5, \
         district = $6, thana = $7, address = $8, delivery_fee = $9, updated_at = $10 WHERE id = $11",
    )
    .bind(&address.name)
    .bind(&address.mobile)
    .bind(&address.emergency_mobile)
    .bind(&address.email)
    .bind(&address.division)
    .bind(&address.district)
    .bind(&address.thana)
    .bind(&address.address)
    .bind(delivery_fee)
    .bind(now)
    .bind(cart_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Keeps the payment method chosen (one of [`PAYMENT_METHODS`]) and that the
/// shopper accepted the terms.
pub async fn set_payment_method(
    conn: &mut Conn,
    cart_id: i64,
    method: &str,
    now: i64,
) -> sqlx::Result<()> {
    db::query(
        "UPDATE cart SET payment_method = $1, terms_accepted = TRUE, updated_at = $2 WHERE id = $3",
    )
    .bind(method)
    .bind(now)
    .bind(cart_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Keeps a pre-booking's part payment, taka.
pub async fn set_paying_amount(conn: &mut Conn, cart_id: i64, amount: i64) -> sqlx::Result<()> {
    db::query("UPDATE cart SET paying_amount = $1 WHERE id = $2")
        .bind(amount)
        .bind(cart_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Marks the cart changed: a chosen payment method and part payment no
/// longer hold once the lines change.
async fn touch(conn: &mut Conn, cart_id: i64) -> sqlx::Result<()> {
    db::query(
        "UPDATE cart SET payment_method = NULL, terms_accepted = FALSE, paying_amount = NULL, \
         updated_at = unixepoch() WHERE id = $1",
    )
    .bind(cart_id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A district as the shop delivers to it.
#[derive(Debug, Clone, FromRow)]
pub struct District {
    pub name: String,
    pub division: String,
    pub zone: String,
}

/// Finds a district by its name, an accepted spelling or its Bangla name,
/// ignoring case and spaces around it.
pub async fn district(conn: &mut Conn, name: &str) -> sqlx::Result<Option<District>> {
    let name = name.trim().to_lowercase();
    if name.is_empty() {
        return Ok(None);
    }
    let rows: Vec<(String, String, String, String, String)> = db::query_as(
        "SELECT d.name, dv.name, d.delivery_zone, d.aliases, d.name_bn \
         FROM district d JOIN division dv ON dv.id = d.division_id ORDER BY d.id",
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .find(|(n, _, _, aliases, bn)| {
            n.to_lowercase() == name
                || *bn == name
                || aliases.split('|').any(|a| a.trim().to_lowercase() == name)
        })
        .map(|(name, division, zone, _, _)| District {
            name,
            division,
            zone,
        }))
}

/// The delivery charge for `subtotal` taka to `zone`: free from the zone's
/// threshold (settings in `delivery_charge_setting`).
pub async fn delivery_charge(conn: &mut Conn, zone: &str, subtotal: i64) -> sqlx::Result<Charge> {
    let (charge, free_from): (i64, i64) =
        db::query_as("SELECT charge, free_from FROM delivery_charge_setting WHERE zone = $1")
            .bind(zone)
            .fetch_optional(&mut *conn)
            .await?
            .unwrap_or((0, 0));
    Ok(Charge {
        fee: if subtotal >= free_from { 0 } else { charge },
        charge,
        free_from,
    })
}

/// A delivery charge and the setting it came from.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Charge {
    pub fee: i64,
    pub charge: i64,
    pub free_from: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(qty: i64, price: i64, flash: Option<i64>) -> Line {
        Line {
            id: 1,
            product_id: 1,
            variation_id: None,
            item_code: "SDC-1".into(),
            qty,
            cart_set_id: None,
            product_set_id: None,
            fabric_id: None,
            title: "Bed".into(),
            sub_title: String::new(),
            seo_url: "bed".into(),
            product_code: "SDC-1".into(),
            sku: "S1".into(),
            short_description: String::new(),
            stock: 10,
            price_before: price,
            price_now: price,
            cash_on_delivery: true,
            pre_booking: false,
            pre_booking_min_percent: 0,
            is_active: true,
            disable_buy: false,
            variation_attribute: None,
            variation_value: None,
            image_url: None,
            flash_discount: flash,
            flash_item_id: None,
            category_name: None,
        }
    }

    #[test]
    fn lines_are_priced_with_the_running_flash_discount() {
        let cart = Cart {
            lines: vec![line(2, 10_000, Some(20)), line(1, 999, None)],
            ..Cart::default()
        };
        assert_eq!(cart.lines[0].unit_price(), 8_000);
        assert_eq!(cart.subtotal(), 16_999);
        assert_eq!(cart.total_qty(), 3);
        assert!(cart.cash_on_delivery_allowed());
    }

    #[test]
    fn a_pre_booking_minimum_rounds_up_per_line() {
        let mut l = line(1, 10_001, None);
        l.pre_booking = true;
        l.pre_booking_min_percent = 20;
        let cart = Cart {
            lines: vec![l],
            ..Cart::default()
        };
        assert_eq!(cart.pre_booking_minimum(), 2_001);
        assert!(cart.is_pre_booking());
    }
}
