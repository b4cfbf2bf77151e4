//! What a guest brings along on signing in (`origin::domain::merge`), on
//! SQLite and PostgreSQL: every kind of guest state (cart lines, a set in a
//! fabric, a coupon, the checkout address, the wishlist, the compare list,
//! recently viewed products; questions need an account) against an account
//! that has none, some or all of the same things, and each overlap's
//! outcome: kept once, quantities summed within stock, the newer view first,
//! one kind of cart, the cart's size.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::TestShop;
use serde_json::{json, Value};

/// The products and set a case uses, each plain and well stocked.
struct Things {
    /// In the guest's cart (2 and 1).
    a: i64,
    b: i64,
    /// On the guest's compare list.
    c: i64,
    d: i64,
    /// The account's own line, not the guest's.
    e: i64,
    /// On the guest's wishlist.
    w: i64,
    /// A set with fabrics, and its first fabric.
    set: i64,
    fabric: i64,
}

async fn things(shop: &TestShop) -> Things {
    let ids: Vec<i64> = db::query_scalar(
        "SELECT id FROM product WHERE is_active = TRUE AND disable_buy = FALSE AND pre_booking = FALSE \
         AND stock >= 20 AND id NOT IN (SELECT product_id FROM product_variation) \
         AND id NOT IN (SELECT product_id FROM flash_item) \
         AND id NOT IN (SELECT product_id FROM product_set_item) ORDER BY id LIMIT 6",
    )
    .fetch_all(&shop.state.pool)
    .await
    .unwrap();
    let (set, fabric): (i64, i64) = db::query_as(
        "SELECT s.id, (SELECT f.id FROM fabric f WHERE f.product_set_id = s.id AND f.active \
           ORDER BY f.sort, f.id LIMIT 1) FROM product_set s WHERE s.active = TRUE \
         AND EXISTS (SELECT 1 FROM fabric f WHERE f.product_set_id = s.id AND f.active) ORDER BY s.id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    sql(
        shop,
        &format!(
            "UPDATE product SET stock = 50, pre_booking = FALSE, disable_buy = FALSE WHERE id IN \
             (SELECT product_id FROM product_set_item WHERE product_set_id = {set})"
        ),
    )
    .await;
    // Any cart may take the coupon.
    sql(
        shop,
        "UPDATE coupon SET purchase_min = 0, per_user_limit = NULL WHERE coupon_code = 'WELCOME10'",
    )
    .await;
    Things {
        a: ids[0],
        b: ids[1],
        c: ids[2],
        d: ids[3],
        e: ids[4],
        w: ids[5],
        set,
        fabric,
    }
}

async fn sql(shop: &TestShop, statement: &str) {
    db::query(statement)
        .execute(&shop.state.pool)
        .await
        .unwrap_or_else(|e| panic!("{statement}: {e}"));
}

/// Who is asking: a guest's SELF-TOKEN or a signed-in shopper's Bearer token.
#[derive(Clone, Copy)]
enum Who<'a> {
    Guest(&'a str),
    User(&'a str),
}

async fn call(
    shop: &TestShop,
    who: Who<'_>,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> Value {
    let bearer;
    let header = match who {
        Who::Guest(token) => ("SELF-TOKEN", token),
        Who::User(token) => {
            bearer = format!("Bearer {token}");
            ("Authorization", bearer.as_str())
        }
    };
    let (status, _, answer) = shop.request(method, uri, &[header], body.as_ref()).await;
    assert_eq!(status, StatusCode::OK, "{method} {uri}: {answer}");
    answer
}

async fn add(shop: &TestShop, who: Who<'_>, pid: i64, qty: i64) {
    let uri = format!("/api/cart/add-to-cart?main_pid={pid}&qty={qty}");
    call(shop, who, "GET", &uri, None).await;
}

async fn add_set(shop: &TestShop, who: Who<'_>, t: &Things) {
    let uri = format!(
        "/api/cart/add-to-cart?pset_id={}&fabric_id={}",
        t.set, t.fabric
    );
    call(shop, who, "GET", &uri, None).await;
}

async fn compare(shop: &TestShop, who: Who<'_>, pid: i64) {
    let uri = format!("/api/common/add-to-compare?pid={pid}");
    call(shop, who, "GET", &uri, None).await;
}

async fn view(shop: &TestShop, who: Who<'_>, pid: i64) {
    let body = json!({ "pid": pid });
    call(shop, who, "POST", "/api/product/recent-view", Some(body)).await;
}

async fn coupon(shop: &TestShop, who: Who<'_>) {
    let body = json!({ "coupon": "WELCOME10" });
    call(shop, who, "POST", "/api/cart/coupon-apply", Some(body)).await;
}

async fn address(shop: &TestShop, who: Who<'_>, name: &str, district: &str) {
    let body = json!({
        "name": name,
        "mobile": "01712345678",
        "emergency_mobile": "01812345678",
        "district": district,
        "thana": "Sadar",
        "address": "House 12, Road 3",
    });
    call(
        shop,
        who,
        "POST",
        "/api/cart/checkout-delivery-address",
        Some(body),
    )
    .await;
}

/// Sets when the owner (`owner`: a condition on `recently_viewed`) viewed
/// each product: (product id, unix seconds).
async fn viewed_at(shop: &TestShop, owner: &str, times: &[(i64, i64)]) {
    for (pid, at) in times {
        sql(
            shop,
            &format!(
                "UPDATE recently_viewed SET viewed_at = {at} WHERE {owner} AND product_id = {pid}"
            ),
        )
        .await;
    }
}

/// A new account (`n` tells its e-mail and mobile apart): its id and token.
async fn account(shop: &TestShop, n: u32) -> (i64, String) {
    let (status, _, body) = shop
        .post_json(
            "/api/auth/register",
            &json!({
                "name": "Nusrat Jahan",
                "email": format!("merge{n}@example.com"),
                "telephone": format!("0191100{n:04}"),
                "emergency_contact_number": "01611223344",
                "district": "Sylhet",
                "password": "a-long-password",
                "password_confirmation": "a-long-password",
                "agree": true,
            }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = shop.user_id(&format!("merge{n}@example.com")).await;
    (id, body["token"].as_str().unwrap().to_string())
}

async fn sign_in(shop: &TestShop, guest: &str, n: u32) -> String {
    shop.login(
        Some(guest),
        (&format!("merge{n}@example.com"), "a-long-password"),
    )
    .await
}

/// The guest's whole state: 2 of A and 1 of B, the set, the coupon, an
/// address in Chattogram, C and D compared, W wished for (guests have no
/// wishlist call; older carts' rows are written as such), A and C viewed.
async fn guest_state(shop: &TestShop, guest: &str, t: &Things) {
    let g = Who::Guest(guest);
    add(shop, g, t.a, 2).await;
    add(shop, g, t.b, 1).await;
    add_set(shop, g, t).await;
    coupon(shop, g).await;
    address(shop, g, "Guest Name", "Chattogram").await;
    compare(shop, g, t.c).await;
    compare(shop, g, t.d).await;
    sql(
        shop,
        &format!(
            "INSERT INTO wishlist_item (self_token, product_id) VALUES ('{guest}', {})",
            t.w
        ),
    )
    .await;
    view(shop, g, t.a).await;
    view(shop, g, t.c).await;
    // The guest's views at known times: A at 2000, C at 2100.
    viewed_at(
        shop,
        &format!("self_token = '{guest}'"),
        &[(t.a, 2_000), (t.c, 2_100)],
    )
    .await;
    // Questions need an account: a guest has none to bring.
    let (status, _, _) = shop
        .guest_post(
            guest,
            "/api/product/question-store",
            &json!({ "pid": t.a, "question": "Is it solid wood?" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// The account's cart after the merge: (product id, qty) of its product
/// lines, and of each set piece, sorted.
async fn cart(shop: &TestShop, id: i64, token: &str) -> (Vec<(i64, i64)>, Vec<(i64, i64)>) {
    let view = call(shop, Who::User(token), "GET", "/api/cart/view", None).await;
    let mut lines: Vec<(i64, i64)> = view["cart"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["info"]["id"].as_i64().unwrap(),
                l["qty"].as_i64().unwrap(),
            )
        })
        .collect();
    lines.sort();
    let pieces = db::query_as(
        "SELECT ci.product_id, ci.qty FROM cart_item ci JOIN cart c ON c.id = ci.cart_id \
         WHERE c.user_id = $1 AND ci.cart_set_id IS NOT NULL ORDER BY ci.product_id",
    )
    .bind(id)
    .fetch_all(&shop.state.pool)
    .await
    .unwrap();
    (lines, pieces)
}

/// The products on user `id`'s `table` list, newest first.
async fn listed(shop: &TestShop, table: &str, at: &str, id: i64) -> Vec<i64> {
    db::query_scalar(&format!(
        "SELECT product_id FROM {table} WHERE user_id = $1 ORDER BY {at} DESC, id DESC"
    ))
    .bind(id)
    .fetch_all(&shop.state.pool)
    .await
    .unwrap()
}

/// Nothing is left under the guest's token.
async fn guest_left_nothing(shop: &TestShop, guest: &str) {
    for table in ["cart", "wishlist_item", "compare_item", "recently_viewed"] {
        let n = shop
            .scalar_i64(&format!(
                "SELECT COUNT(*) FROM {table} WHERE self_token = '{guest}'"
            ))
            .await;
        assert_eq!(n, 0, "{table} still holds the guest's rows");
    }
}

async fn cart_field(shop: &TestShop, id: i64, column: &str) -> Option<String> {
    db::query_scalar(&format!(
        "SELECT CAST({column} AS TEXT) FROM cart WHERE user_id = $1"
    ))
    .bind(id)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}

/// The guest's coupon, name and district are the account's cart's now.
async fn guest_details_kept(shop: &TestShop, id: i64) {
    for (column, want) in [
        ("coupon_code", "WELCOME10"),
        ("name", "Guest Name"),
        ("district", "Chattogram"),
    ] {
        assert_eq!(
            cart_field(shop, id, column).await.as_deref(),
            Some(want),
            "{column}"
        );
    }
}

/// C and D are on the account's compare list, once each.
async fn compared_once(shop: &TestShop, id: i64, t: &Things) {
    let mut compared = listed(shop, "compare_item", "created_at", id).await;
    compared.sort();
    assert_eq!(compared, vec![t.c, t.d]);
}

fn set_quantities(shop_pieces: &[(i64, i64)], times: i64, set: &[(i64, i64)]) -> bool {
    shop_pieces.len() == set.len()
        && shop_pieces
            .iter()
            .zip(set)
            .all(|((p, q), (sp, sq))| p == sp && *q == sq * times)
}

async fn set_items(shop: &TestShop, set: i64) -> Vec<(i64, i64)> {
    db::query_as(
        "SELECT product_id, qty FROM product_set_item WHERE product_set_id = $1 ORDER BY product_id",
    )
    .bind(set)
    .fetch_all(&shop.state.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn an_account_with_nothing_takes_the_guest_state_whole() {
    let shop = TestShop::fresh().await;
    let t = things(&shop).await;
    let (id, _) = account(&shop, 1).await;
    let guest = "guest-mrg-none-01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    guest_state(&shop, guest, &t).await;
    let token = sign_in(&shop, guest, 1).await;
    let (lines, pieces) = cart(&shop, id, &token).await;
    let mut want = vec![(t.a, 2), (t.b, 1)];
    want.sort();
    assert_eq!(lines, want);
    assert!(
        set_quantities(&pieces, 1, &set_items(&shop, t.set).await),
        "{pieces:?}"
    );
    guest_details_kept(&shop, id).await;
    assert_eq!(
        listed(&shop, "wishlist_item", "created_at", id).await,
        vec![t.w]
    );
    compared_once(&shop, id, &t).await;
    assert_eq!(
        listed(&shop, "recently_viewed", "viewed_at", id).await,
        vec![t.c, t.a]
    );
    guest_left_nothing(&shop, guest).await;
}

#[tokio::test]
async fn an_account_with_some_of_the_same_keeps_each_thing_once_and_sums_lines() {
    let shop = TestShop::fresh().await;
    let t = things(&shop).await;
    let (id, token) = account(&shop, 2).await;
    let me = Who::User(&token);
    add(&shop, me, t.a, 1).await;
    add(&shop, me, t.e, 1).await;
    address(&shop, me, "Account Name", "Sylhet").await;
    compare(&shop, me, t.c).await;
    view(&shop, me, t.a).await;
    view(&shop, me, t.e).await;
    // The account viewed A before the guest did (1000 < 2000), E at 1500.
    viewed_at(
        &shop,
        &format!("user_id = {id}"),
        &[(t.a, 1_000), (t.e, 1_500)],
    )
    .await;
    let guest = "guest-mrg-some-01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    guest_state(&shop, guest, &t).await;
    let token = sign_in(&shop, guest, 2).await;
    let (lines, pieces) = cart(&shop, id, &token).await;
    let mut want = vec![(t.a, 3), (t.b, 1), (t.e, 1)];
    want.sort();
    assert_eq!(lines, want);
    assert!(
        set_quantities(&pieces, 1, &set_items(&shop, t.set).await),
        "{pieces:?}"
    );
    // The address the guest typed now wins, its district with it.
    guest_details_kept(&shop, id).await;
    compared_once(&shop, id, &t).await;
    // The newer view first: C (2100), A (the guest's 2000), E (1500).
    assert_eq!(
        listed(&shop, "recently_viewed", "viewed_at", id).await,
        vec![t.c, t.a, t.e]
    );
    // A payment choice made before the lines changed no longer holds.
    assert_eq!(cart_field(&shop, id, "payment_method").await, None);
    guest_left_nothing(&shop, guest).await;
}

#[tokio::test]
async fn an_account_with_all_of_the_same_sums_within_stock_and_keeps_the_newer_view() {
    let shop = TestShop::fresh().await;
    let t = things(&shop).await;
    let (id, token) = account(&shop, 3).await;
    let me = Who::User(&token);
    add(&shop, me, t.a, 2).await;
    add(&shop, me, t.b, 1).await;
    add_set(&shop, me, &t).await;
    coupon(&shop, me).await;
    address(&shop, me, "Account Name", "Sylhet").await;
    compare(&shop, me, t.c).await;
    compare(&shop, me, t.d).await;
    sql(
        &shop,
        &format!(
            "INSERT INTO wishlist_item (user_id, product_id) VALUES ({id}, {})",
            t.w
        ),
    )
    .await;
    view(&shop, me, t.a).await;
    view(&shop, me, t.c).await;
    // The account viewed A after the guest did (3000 > 2000), C before (1000 < 2100).
    viewed_at(
        &shop,
        &format!("user_id = {id}"),
        &[(t.a, 3_000), (t.c, 1_000)],
    )
    .await;
    // Only 3 of A are left: 2 + 2 stop at the stock.
    sql(
        &shop,
        &format!("UPDATE product SET stock = 3 WHERE id = {}", t.a),
    )
    .await;
    let guest = "guest-mrg-all-001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    guest_state(&shop, guest, &t).await;
    let token = sign_in(&shop, guest, 3).await;
    let (lines, pieces) = cart(&shop, id, &token).await;
    let mut want = vec![(t.a, 3), (t.b, 2)];
    want.sort();
    assert_eq!(lines, want);
    // One set line, each piece twice over.
    let sets = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM cart_set WHERE cart_id = (SELECT id FROM cart WHERE user_id = {id})"
        ))
        .await;
    assert_eq!(sets, 1);
    assert!(
        set_quantities(&pieces, 2, &set_items(&shop, t.set).await),
        "{pieces:?}"
    );
    assert_eq!(
        cart_field(&shop, id, "coupon_code").await.as_deref(),
        Some("WELCOME10")
    );
    assert_eq!(
        listed(&shop, "wishlist_item", "created_at", id).await,
        vec![t.w]
    );
    compared_once(&shop, id, &t).await;
    // A at the account's 3000, C at the guest's 2100: once each, newer first.
    assert_eq!(
        listed(&shop, "recently_viewed", "viewed_at", id).await,
        vec![t.a, t.c]
    );
    let when = shop
        .scalar_i64(&format!(
            "SELECT viewed_at FROM recently_viewed WHERE user_id = {id} AND product_id = {}",
            t.c
        ))
        .await;
    assert_eq!(when, 2_100);
    guest_left_nothing(&shop, guest).await;
}

#[tokio::test]
async fn a_sum_never_goes_below_what_either_cart_held() {
    let shop = TestShop::fresh().await;
    let t = things(&shop).await;
    let (id, token) = account(&shop, 4).await;
    add(&shop, Who::User(&token), t.a, 4).await;
    let guest = "guest-mrg-low-001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, Who::Guest(guest), t.a, 2).await;
    // The stock fell below both after they were added.
    sql(
        &shop,
        &format!("UPDATE product SET stock = 1 WHERE id = {}", t.a),
    )
    .await;
    let token = sign_in(&shop, guest, 4).await;
    assert_eq!(cart(&shop, id, &token).await.0, vec![(t.a, 4)]);
}

#[tokio::test]
async fn a_guest_pre_booking_moves_the_account_ordinary_lines_to_its_wishlist() {
    let shop = TestShop::fresh().await;
    let t = things(&shop).await;
    let (id, token) = account(&shop, 5).await;
    add(&shop, Who::User(&token), t.e, 1).await;
    sql(
        &shop,
        &format!(
            "UPDATE product SET pre_booking = TRUE, pre_booking_min_percent = 30 WHERE id = {}",
            t.b
        ),
    )
    .await;
    let guest = "guest-mrg-pre-001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, Who::Guest(guest), t.b, 1).await;
    let token = sign_in(&shop, guest, 5).await;
    assert_eq!(cart(&shop, id, &token).await.0, vec![(t.b, 1)]);
    assert_eq!(
        listed(&shop, "wishlist_item", "created_at", id).await,
        vec![t.e]
    );
}

#[tokio::test]
async fn past_the_cart_size_the_account_oldest_lines_move_to_its_wishlist() {
    let shop = TestShop::fresh().await;
    let t = things(&shop).await;
    let (id, token) = account(&shop, 6).await;
    let many: Vec<i64> = db::query_scalar(
        "SELECT id FROM product WHERE is_active = TRUE AND disable_buy = FALSE AND pre_booking = FALSE \
         AND stock >= 1 AND id NOT IN (SELECT product_id FROM product_variation) \
         AND id NOT IN ($1, $2) ORDER BY id LIMIT 49",
    )
    .bind(t.a)
    .bind(t.b)
    .fetch_all(&shop.state.pool)
    .await
    .unwrap();
    assert_eq!(many.len(), 49);
    for pid in &many {
        add(&shop, Who::User(&token), *pid, 1).await;
    }
    let guest = "guest-mrg-full-01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    add(&shop, Who::Guest(guest), t.a, 1).await;
    add(&shop, Who::Guest(guest), t.b, 1).await;
    let token = sign_in(&shop, guest, 6).await;
    let (lines, _) = cart(&shop, id, &token).await;
    assert_eq!(lines.len(), 50);
    assert!(
        lines.contains(&(t.a, 1)) && lines.contains(&(t.b, 1)),
        "{lines:?}"
    );
    // The oldest line made room.
    assert!(!lines.iter().any(|(p, _)| *p == many[0]), "{lines:?}");
    assert_eq!(
        listed(&shop, "wishlist_item", "created_at", id).await,
        vec![many[0]]
    );
}

/// The tester's report: a guest who views a product the account viewed
/// before, then signs in, got a 500 (a duplicate recently viewed row).
#[tokio::test]
async fn a_guest_who_viewed_what_the_account_viewed_signs_in() {
    let shop = TestShop::fresh().await;
    let t = things(&shop).await;
    let (id, token) = account(&shop, 7).await;
    view(&shop, Who::User(&token), t.a).await;
    let guest = "guest-mrg-view-01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    view(&shop, Who::Guest(guest), t.a).await;
    for _ in 0..2 {
        sign_in(&shop, guest, 7).await;
        view(&shop, Who::Guest(guest), t.a).await;
    }
    assert_eq!(
        listed(&shop, "recently_viewed", "viewed_at", id).await,
        vec![t.a]
    );
}
