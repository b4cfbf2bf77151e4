//! What a guest brings along on signing in or signing up ([`guest_into`]):
//! the cart with its checkout details, the wishlist, the compare list and
//! the recently viewed products move into the account's, inside the
//! sign-in's own transaction. Every overlap has one outcome:
//!
//! - a line (a product's or a variation's code) in both carts: one line, the
//!   two quantities summed, never past the stock (unless the product is a
//!   pre-booking) or [`MAX_QTY`], and never below what either cart held;
//! - the same set in the same fabric in both carts: one set, each piece
//!   summed by the same rule; any other set moves whole;
//! - a pre-booking in one cart and ordinary products in the other (a cart
//!   holds one kind, [`crate::domain::cart::check_mix`]): the guest's cart is
//!   what the shopper is buying now, so the account's lines of the other kind
//!   move to the account's wishlist;
//! - more than [`MAX_LINES`] lines together: the account's oldest product
//!   lines move to the wishlist until the cart fits;
//! - the coupon and each checkout detail (name, mobile numbers, e-mail,
//!   address; the district with its division, thana and delivery charge):
//!   the guest's where given, else the account's; a payment choice made
//!   before no longer holds, since the lines changed;
//! - a product on both wishlists or both compare lists, or viewed by both:
//!   kept once, at the newer of the two times (so the newer view comes
//!   first); the compare list then keeps its newest [`MAX_COMPARE`], the
//!   recent views their newest [`RECENT_KEEP`].
//!
//! Guests have no address book and cannot ask questions or write comments
//! (each needs an account), so nothing else is theirs to bring. The guest's
//! rows are gone afterwards.

use std::collections::HashSet;

use catalog::db::{self, Conn};
use sqlx::FromRow;

use crate::domain::cart::{MAX_LINES, MAX_QTY};
use crate::domain::lists::MAX_COMPARE;
use crate::domain::talk::RECENT_KEEP;

/// Moves the guest `self_token`'s cart and lists into user `user_id`'s, as
/// the module says.
pub async fn guest_into(
    conn: &mut Conn,
    self_token: &str,
    user_id: i64,
    now: i64,
) -> sqlx::Result<()> {
    cart(conn, self_token, user_id, now).await?;
    let guest = (self_token, user_id, now);
    list(conn, "wishlist_item", "created_at", guest, None).await?;
    list(conn, "compare_item", "created_at", guest, Some(MAX_COMPARE)).await?;
    list(
        conn,
        "recently_viewed",
        "viewed_at",
        guest,
        Some(RECENT_KEEP),
    )
    .await?;
    Ok(())
}

/// One list of products (`table`, its time column `at`) of the guest
/// `self_token` into user `user_id`'s at `now`: a product on both is kept
/// once at the newer time; then the newest `keep` stay.
async fn list(
    conn: &mut Conn,
    table: &str,
    at: &str,
    (self_token, user_id, now): (&str, i64, i64),
    keep: Option<i64>,
) -> sqlx::Result<()> {
    db::query(&format!(
        "UPDATE {table} SET {at} = (SELECT g.{at} FROM {table} g \
           WHERE g.self_token = $2 AND g.product_id = {table}.product_id), updated_at = $3 \
         WHERE user_id = $1 AND EXISTS (SELECT 1 FROM {table} g \
           WHERE g.self_token = $2 AND g.product_id = {table}.product_id AND g.{at} > {table}.{at})"
    ))
    .bind(user_id)
    .bind(self_token)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    db::query(&format!(
        "DELETE FROM {table} WHERE self_token = $2 AND product_id IN \
         (SELECT product_id FROM {table} WHERE user_id = $1)"
    ))
    .bind(user_id)
    .bind(self_token)
    .execute(&mut *conn)
    .await?;
    db::query(&format!(
        "UPDATE {table} SET user_id = $1, self_token = NULL WHERE self_token = $2"
    ))
    .bind(user_id)
    .bind(self_token)
    .execute(&mut *conn)
    .await?;
    if let Some(keep) = keep {
        db::query(&format!(
            "DELETE FROM {table} WHERE user_id = $1 AND id NOT IN \
             (SELECT id FROM {table} WHERE user_id = $1 ORDER BY {at} DESC, id DESC LIMIT $2)"
        ))
        .bind(user_id)
        .bind(keep)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A cart line with what the merge decides by.
#[derive(Debug, FromRow)]
struct Line {
    id: i64,
    cart_set_id: Option<i64>,
    product_id: i64,
    item_code: String,
    qty: i64,
    pre_booking: bool,
    stock: i64,
}

impl Line {
    /// The quantity of this line with `more` of the same added: summed up to
    /// the stock (a pre-booking has none to run out of) and [`MAX_QTY`], and
    /// never below either quantity.
    fn summed(&self, more: i64) -> i64 {
        let cap = if self.pre_booking {
            MAX_QTY
        } else {
            self.stock.min(MAX_QTY)
        };
        (self.qty + more).min(cap).max(self.qty).max(more)
    }
}

async fn lines(conn: &mut Conn, cart: i64) -> sqlx::Result<Vec<Line>> {
    db::query_as(
        "SELECT ci.id, ci.cart_set_id, ci.product_id, ci.item_code, ci.qty, p.pre_booking, \
           COALESCE(v.stock, p.stock) AS stock \
         FROM cart_item ci JOIN product p ON p.id = ci.product_id \
         LEFT JOIN product_variation v ON v.id = ci.variation_id \
         WHERE ci.cart_id = $1 ORDER BY ci.id",
    )
    .bind(cart)
    .fetch_all(&mut *conn)
    .await
}

/// A set line of a cart.
#[derive(Debug, FromRow)]
struct SetLine {
    id: i64,
    product_set_id: i64,
    fabric_id: Option<i64>,
}

async fn sets(conn: &mut Conn, cart: i64) -> sqlx::Result<Vec<SetLine>> {
    db::query_as(
        "SELECT id, product_set_id, fabric_id FROM cart_set WHERE cart_id = $1 ORDER BY id",
    )
    .bind(cart)
    .fetch_all(&mut *conn)
    .await
}

/// The checkout details a cart keeps besides its lines.
#[derive(Debug, FromRow)]
struct Details {
    coupon_code: Option<String>,
    name: Option<String>,
    mobile: Option<String>,
    emergency_mobile: Option<String>,
    email: Option<String>,
    division: Option<String>,
    district: Option<String>,
    thana: Option<String>,
    address: Option<String>,
    delivery_fee: Option<i64>,
}

async fn cart_of(conn: &mut Conn, owner: &str, key: &str) -> sqlx::Result<Option<i64>> {
    db::query_scalar(&format!("SELECT id FROM cart WHERE {owner}"))
        .bind(key)
        .fetch_optional(&mut *conn)
        .await
}

async fn cart(conn: &mut Conn, self_token: &str, user_id: i64, now: i64) -> sqlx::Result<()> {
    let Some(guest) = cart_of(conn, "self_token = $1", self_token).await? else {
        return Ok(());
    };
    let Some(mine) = db::query_scalar::<i64>("SELECT id FROM cart WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(&mut *conn)
        .await?
    else {
        // No cart of their own yet: the guest's becomes theirs, details and all.
        db::query("UPDATE cart SET user_id = $1, self_token = NULL, updated_at = $2 WHERE id = $3")
            .bind(user_id)
            .bind(now)
            .bind(guest)
            .execute(&mut *conn)
            .await?;
        return Ok(());
    };
    let theirs = lines(conn, guest).await?;
    let ours = lines(conn, mine).await?;

    // One kind per cart: the guest's decides when it has any lines.
    let mut displaced: HashSet<i64> = HashSet::new();
    if !theirs.is_empty() {
        let pre_booking = theirs.iter().any(|l| l.pre_booking);
        let other_sets: HashSet<i64> = ours
            .iter()
            .filter(|l| l.pre_booking != pre_booking)
            .filter_map(|l| l.cart_set_id)
            .collect();
        displaced.extend(
            ours.iter()
                .filter(|l| match l.cart_set_id {
                    Some(set) => other_sets.contains(&set),
                    None => l.pre_booking != pre_booking,
                })
                .map(|l| l.id),
        );
    }
    to_wishlist(conn, user_id, &ours, &displaced, now).await?;

    // Product lines of the same code add up.
    let mut grown: HashSet<i64> = HashSet::new();
    for line in theirs.iter().filter(|l| l.cart_set_id.is_none()) {
        let same = ours.iter().find(|o| {
            o.cart_set_id.is_none() && o.item_code == line.item_code && !displaced.contains(&o.id)
        });
        if let Some(same) = same {
            set_qty(conn, same.id, same.summed(line.qty), now).await?;
            delete_line(conn, line.id).await?;
            grown.insert(same.id);
        }
    }

    // The same set in the same fabric adds up piece by piece.
    let our_sets = sets(conn, mine).await?;
    for set in sets(conn, guest).await? {
        let same = our_sets.iter().find(|o| {
            o.product_set_id == set.product_set_id
                && o.fabric_id == set.fabric_id
                && !ours
                    .iter()
                    .any(|l| l.cart_set_id == Some(o.id) && displaced.contains(&l.id))
        });
        let Some(same) = same else { continue };
        for piece in theirs.iter().filter(|l| l.cart_set_id == Some(set.id)) {
            let have = ours
                .iter()
                .find(|o| o.cart_set_id == Some(same.id) && o.product_id == piece.product_id);
            match have {
                Some(have) => set_qty(conn, have.id, have.summed(piece.qty), now).await?,
                None => {
                    db::query("UPDATE cart_item SET cart_id = $1, cart_set_id = $2 WHERE id = $3")
                        .bind(mine)
                        .bind(same.id)
                        .bind(piece.id)
                        .execute(&mut *conn)
                        .await?;
                }
            }
        }
        delete_set(conn, set.id).await?;
    }

    // The rest moves over.
    db::query("UPDATE cart_set SET cart_id = $1 WHERE cart_id = $2")
        .bind(mine)
        .bind(guest)
        .execute(&mut *conn)
        .await?;
    db::query("UPDATE cart_item SET cart_id = $1 WHERE cart_id = $2")
        .bind(mine)
        .bind(guest)
        .execute(&mut *conn)
        .await?;

    // Past the cart's size, the account's oldest product lines make room.
    let count: i64 = db::query_scalar("SELECT COUNT(*) FROM cart_item WHERE cart_id = $1")
        .bind(mine)
        .fetch_one(&mut *conn)
        .await?;
    let excess = usize::try_from(count - MAX_LINES).unwrap_or(0);
    if excess > 0 {
        let oldest: HashSet<i64> = ours
            .iter()
            .filter(|l| {
                l.cart_set_id.is_none() && !displaced.contains(&l.id) && !grown.contains(&l.id)
            })
            .take(excess)
            .map(|l| l.id)
            .collect();
        to_wishlist(conn, user_id, &ours, &oldest, now).await?;
    }

    details(conn, guest, mine, now).await?;
    db::query("DELETE FROM cart WHERE id = $1")
        .bind(guest)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Moves the lines `ids` of `lines` out of the cart onto user `user_id`'s
/// wishlist (each product once); a set goes with its pieces.
async fn to_wishlist(
    conn: &mut Conn,
    user_id: i64,
    lines: &[Line],
    ids: &HashSet<i64>,
    now: i64,
) -> sqlx::Result<()> {
    let mut sets_gone = HashSet::new();
    for line in lines.iter().filter(|l| ids.contains(&l.id)) {
        db::query(
            "INSERT INTO wishlist_item (user_id, product_id, created_at, updated_at) \
             SELECT $1, $2, $3, $3 WHERE NOT EXISTS \
             (SELECT 1 FROM wishlist_item WHERE user_id = $1 AND product_id = $2)",
        )
        .bind(user_id)
        .bind(line.product_id)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        match line.cart_set_id {
            Some(set) if sets_gone.insert(set) => delete_set(conn, set).await?,
            Some(_) => {}
            None => delete_line(conn, line.id).await?,
        }
    }
    Ok(())
}

async fn set_qty(conn: &mut Conn, line: i64, qty: i64, now: i64) -> sqlx::Result<()> {
    db::query("UPDATE cart_item SET qty = $1, updated_at = $2 WHERE id = $3")
        .bind(qty)
        .bind(now)
        .bind(line)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Deletes a set line with the pieces still in it.
async fn delete_set(conn: &mut Conn, set: i64) -> sqlx::Result<()> {
    db::query("DELETE FROM cart_item WHERE cart_set_id = $1")
        .bind(set)
        .execute(&mut *conn)
        .await?;
    db::query("DELETE FROM cart_set WHERE id = $1")
        .bind(set)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn delete_line(conn: &mut Conn, line: i64) -> sqlx::Result<()> {
    db::query("DELETE FROM cart_item WHERE id = $1")
        .bind(line)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The guest's coupon and checkout details where given, else the
/// account's; the district brings its division, thana and delivery charge.
/// The lines changed, so a payment choice made before no longer holds.
async fn details(conn: &mut Conn, guest: i64, mine: i64, now: i64) -> sqlx::Result<()> {
    let given: Details = db::query_as(
        "SELECT coupon_code, name, mobile, emergency_mobile, email, division, district, thana, \
           address, delivery_fee FROM cart WHERE id = $1",
    )
    .bind(guest)
    .fetch_one(&mut *conn)
    .await?;
    db::query(
        "UPDATE cart SET coupon_code = COALESCE($1, coupon_code), name = COALESCE($2, name), \
           mobile = COALESCE($3, mobile), emergency_mobile = COALESCE($4, emergency_mobile), \
           email = COALESCE($5, email), address = COALESCE($6, address), \
           payment_method = NULL, terms_accepted = FALSE, paying_amount = NULL, updated_at = $7 \
         WHERE id = $8",
    )
    .bind(&given.coupon_code)
    .bind(&given.name)
    .bind(&given.mobile)
    .bind(&given.emergency_mobile)
    .bind(&given.email)
    .bind(&given.address)
    .bind(now)
    .bind(mine)
    .execute(&mut *conn)
    .await?;
    if given.district.is_some() {
        db::query(
            "UPDATE cart SET division = $1, district = $2, thana = $3, delivery_fee = $4 WHERE id = $5",
        )
        .bind(&given.division)
        .bind(&given.district)
        .bind(&given.thana)
        .bind(given.delivery_fee)
        .bind(mine)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
