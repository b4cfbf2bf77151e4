//! Accounts on a real SQLite file: register, login (by e-mail or mobile),
//! logout, expired and revoked tokens, the guest's cart and compare list
//! merged on sign-in, the wishlist and the compare list, and one shopper
//! never seeing another's.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{assert_api_error, outbox, TestShop};
use serde_json::{json, Value};

const DEMO: (&str, &str) = ("demo@example.com", "demo-password-1");
const RAHIM: (&str, &str) = ("rahim@example.com", "rahim-password-1");

async fn login(shop: &TestShop, guest: &str, who: (&str, &str)) -> String {
    let (status, _, body) = shop
        .guest_post(
            guest,
            "/api/auth/login",
            &json!({ "email": who.0, "password": who.1, "device_name": "web_browser" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 72_000);
    body["token"].as_str().unwrap().to_string()
}

async fn as_user(shop: &TestShop, token: &str, uri: &str) -> (StatusCode, Value) {
    let bearer = format!("Bearer {token}");
    let (status, _, body) = shop
        .request("GET", uri, &[("Authorization", bearer.as_str())], None)
        .await;
    (status, body)
}

async fn product(shop: &TestShop, n: i64) -> i64 {
    shop.scalar_i64(&format!(
        "SELECT id FROM product WHERE is_active = TRUE AND disable_buy = FALSE AND pre_booking = FALSE AND stock >= 5 \
         AND id NOT IN (SELECT product_id FROM product_variation) ORDER BY id LIMIT 1 OFFSET {n}"
    ))
    .await
}

fn registration() -> Value {
    json!({
        "name": "Nusrat Jahan",
        "email": "Nusrat@Example.com",
        "telephone": "+8801911223344",
        "emergency_contact_number": "01611223344",
        "district": "Sylhet",
        "password": "a-long-password",
        "password_confirmation": "a-long-password",
        "agree": true,
        "device_name": "web_browser",
    })
}

#[tokio::test]
async fn register_signs_in_and_refuses_duplicates_and_bad_fields() {
    let shop = TestShop::fresh().await;
    let (status, _, body) = shop
        .guest_post(
            "guest-reg-00001.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/auth/register",
            &registration(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let token = body["token"].as_str().unwrap();
    assert_eq!(token.len(), 64);
    assert_eq!(body["user"]["email"], "nusrat@example.com");
    assert_eq!(body["user"]["phone"], "01911223344");
    let (status, me) = as_user(&shop, token, "/api/auth/user").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(me["user"]["name"], "Nusrat Jahan");
    assert_eq!(me["user"]["district"], "Sylhet");
    // Only the hash is stored.
    let stored = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM auth_token WHERE token_hash = '{token}'"
        ))
        .await;
    assert_eq!(stored, 0);
    let hash: String =
        db::query_scalar("SELECT password_hash FROM app_user WHERE phone = '01911223344'")
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert!(hash.starts_with("$argon2id$"));

    let (status, headers, body) = shop
        .guest_post(
            "guest-reg-00002.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/auth/register",
            &registration(),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);

    let mut bad = registration();
    bad["email"] = json!("not-an-email");
    bad["telephone"] = json!("12345");
    bad["password_confirmation"] = json!("something-else");
    bad["agree"] = json!(false);
    let (status, headers, body) = shop
        .guest_post(
            "guest-reg-00003.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/auth/register",
            &bad,
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    for field in ["email", "telephone", "password_confirmation", "agree"] {
        assert!(body["errors"].get(field).is_some(), "{field}: {body}");
    }
    let mut short = registration();
    short["email"] = json!("other@example.com");
    short["telephone"] = json!("");
    short["password"] = json!("short");
    let (status, _, body) = shop
        .guest_post(
            "guest-reg-00004.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/auth/register",
            &short,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"].get("password").is_some(), "{body}");
    // A NUL in text (which PostgreSQL cannot store) is read as U+FFFD.
    let mut nul = registration();
    nul["name"] = json!("Nul\u{0}Jahan");
    nul["email"] = json!("nul@example.com");
    nul["telephone"] = json!("01911223355");
    let (status, _, body) = shop
        .guest_post(
            "guest-reg-00005.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/auth/register",
            &nul,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["name"], "Nul\u{FFFD}Jahan");
}

#[tokio::test]
async fn login_by_email_or_mobile_and_one_answer_for_every_failure() {
    let shop = TestShop::fresh().await;
    login(&shop, "guest-login-001.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    login(
        &shop,
        "guest-login-002.k7Qx2mZp9LwR4tYv8NsB3hJd",
        ("01712345678", DEMO.1),
    )
    .await;
    login(
        &shop,
        "guest-login-003.k7Qx2mZp9LwR4tYv8NsB3hJd",
        ("DEMO@example.com", DEMO.1),
    )
    .await;
    let mut messages = Vec::new();
    for (email, password) in [(DEMO.0, "wrong-password"), ("nobody@example.com", DEMO.1)] {
        let (status, headers, body) = shop
            .post_json(
                "/api/auth/login",
                &json!({ "email": email, "password": password }),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::UNAUTHORIZED);
        messages.push(body["message"].clone());
    }
    assert_eq!(messages[0], messages[1], "no hint which part was wrong");
    let (status, headers, body) = shop.post_json("/api/auth/login", &json!({})).await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn logged_out_expired_and_unknown_tokens_get_401() {
    let shop = TestShop::fresh().await;
    let token = login(&shop, "guest-out-0001.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    let (status, _) = as_user(&shop, &token, "/api/auth/user").await;
    assert_eq!(status, StatusCode::OK);
    let bearer = format!("Bearer {token}");
    let (status, _, body) = shop
        .request(
            "POST",
            "/api/auth/logout",
            &[("Authorization", bearer.as_str())],
            Some(&json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = as_user(&shop, &token, "/api/auth/user").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    // Even a guest call with a dead token is refused, so the client drops it.
    let (status, _) = as_user(&shop, &token, "/api/cart/view").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let token = login(&shop, "guest-out-0002.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    db::query("UPDATE auth_token SET expires_at = 1000")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (status, _) = as_user(&shop, &token, "/api/auth/user").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = as_user(&shop, &"0".repeat(64), "/api/auth/user").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, body) = shop
        .request(
            "GET",
            "/api/auth/user",
            &[("Authorization", "Basic abc")],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let (status, _, _) = shop.get("/api/auth/user").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn signing_in_brings_the_guest_cart_and_compare_list_along() {
    let shop = TestShop::fresh().await;
    let (a, b) = (product(&shop, 0).await, product(&shop, 1).await);
    let guest = "guest-merge-001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    // The user already has one of A in their cart.
    let token = login(&shop, "guest-merge-000.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    let bearer = format!("Bearer {token}");
    let auth = [("Authorization", bearer.as_str())];
    let (status, _, body) = shop
        .request(
            "GET",
            &format!("/api/cart/add-to-cart?main_pid={a}&qty=1"),
            &auth,
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // The guest adds 2 of A, 1 of B, and compares B.
    for (pid, qty) in [(a, 2), (b, 1)] {
        let (status, _, body) = shop
            .guest_get(
                guest,
                &format!("/api/cart/add-to-cart?main_pid={pid}&qty={qty}"),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    shop.guest_get(guest, &format!("/api/common/add-to-compare?pid={b}"))
        .await;
    let token = login(&shop, guest, DEMO).await;
    let (_, view) = as_user(&shop, &token, "/api/cart/view").await;
    let lines: Vec<(i64, i64)> = view["cart"]["items"]
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
    assert!(lines.contains(&(a, 3)), "{lines:?}");
    assert!(lines.contains(&(b, 1)), "{lines:?}");
    let (_, compare) = as_user(&shop, &token, "/api/common/compare").await;
    assert_eq!(compare["products"][0]["id"], b);
    // Nothing is left under the guest's token.
    let (_, _, guest_view) = shop.guest_get(guest, "/api/cart/view").await;
    assert_eq!(guest_view["cart"]["items"], json!([]));
    // Another account sees none of it.
    let other = login(&shop, "guest-merge-002.k7Qx2mZp9LwR4tYv8NsB3hJd", RAHIM).await;
    let (_, theirs) = as_user(&shop, &other, "/api/cart/view").await;
    assert!(theirs["cart"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["info"]["id"] != a && l["info"]["id"] != b));
}

#[tokio::test]
async fn the_wishlist_needs_an_account_and_holds_each_product_once() {
    let shop = TestShop::fresh().await;
    let pid = product(&shop, 2).await;
    let (status, headers, body) = shop
        .guest_get(
            "guest-wish-0001.k7Qx2mZp9LwR4tYv8NsB3hJd",
            &format!("/api/user/add-to-wishlist?pid={pid}"),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::UNAUTHORIZED);
    let token = login(&shop, "guest-wish-0001.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    let (status, body) = as_user(
        &shop,
        &token,
        &format!("/api/user/add-to-wishlist?pid={pid}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["added"], true);
    let (_, body) = as_user(
        &shop,
        &token,
        &format!("/api/user/add-to-wishlist?pid={pid}"),
    )
    .await;
    assert_eq!(body["added"], false);
    let (_, list) = as_user(&shop, &token, "/api/user/wishlist").await;
    let ids: Vec<&Value> = list["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["id"])
        .collect();
    assert_eq!(ids.iter().filter(|id| **id == &json!(pid)).count(), 1);
    let (_, count) = as_user(&shop, &token, "/api/cart/count-notification").await;
    assert!(count["wishCount"].as_i64().unwrap() >= 1);
    // Someone else's wishlist does not have it, and cannot remove it.
    let other = login(&shop, "guest-wish-0002.k7Qx2mZp9LwR4tYv8NsB3hJd", RAHIM).await;
    let (status, _) = as_user(
        &shop,
        &other,
        &format!("/api/user/remove-wishlist?pid={pid}"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = as_user(
        &shop,
        &token,
        &format!("/api/user/remove-wishlist?pid={pid}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for (uri, want) in [
        ("/api/user/add-to-wishlist", StatusCode::BAD_REQUEST),
        ("/api/user/add-to-wishlist?pid=abc", StatusCode::BAD_REQUEST),
        (
            "/api/user/add-to-wishlist?pid=99999999",
            StatusCode::NOT_FOUND,
        ),
    ] {
        let (status, _) = as_user(&shop, &token, uri).await;
        assert_eq!(status, want, "{uri}");
    }
}

#[tokio::test]
async fn a_compare_list_holds_at_most_five() {
    let shop = TestShop::fresh().await;
    let g = "guest-compare-01.k7Qx2mZp9LwR4tYv8NsB3hJd";
    for n in 0..5 {
        let pid = product(&shop, n).await;
        let (status, _, body) = shop
            .guest_get(g, &format!("/api/common/add-to-compare?pid={pid}"))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let sixth = product(&shop, 5).await;
    let (status, headers, body) = shop
        .guest_get(g, &format!("/api/common/add-to-compare?pid={sixth}"))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);
    let (_, _, list) = shop.guest_get(g, "/api/common/compare").await;
    assert_eq!(list["products"].as_array().unwrap().len(), 5);
    assert!(list["products"][0]["attr"].is_array());
    let (_, _, count) = shop.guest_get(g, "/api/cart/count-notification").await;
    assert_eq!(count["compareCount"], 5);
    let first = product(&shop, 0).await;
    let (status, _, _) = shop
        .guest_get(g, &format!("/api/common/remove-compare?pid={first}"))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = shop
        .guest_get(g, &format!("/api/common/remove-compare?pid={first}"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Another guest's list is their own.
    let (_, _, theirs) = shop
        .guest_get(
            "guest-compare-02.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/common/compare",
        )
        .await;
    assert_eq!(theirs["products"], json!([]));
}

#[tokio::test]
async fn a_reset_link_works_once_within_the_hour_and_signs_everyone_out() {
    let shop = TestShop::fresh().await;
    let old_session = login(&shop, "guest-reset-001.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    let (status, _, unknown) = shop
        .post_json(
            "/api/user/forgot-password-send-link",
            &json!({ "email": "nobody@example.com" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        outbox(&shop).is_empty(),
        "nothing is sent to an unknown address"
    );
    let (status, _, known) = shop
        .post_json(
            "/api/user/forgot-password-send-link",
            &json!({ "email": "Demo@Example.com" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        known["message"], unknown["message"],
        "no hint who has an account"
    );
    let mails = outbox(&shop);
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].lines().any(|l| l == "To: demo@example.com"),
        "{}",
        mails[0]
    );
    let link = mails[0]
        .lines()
        .find(|l| l.contains("/user/reset_password?token="))
        .expect("a link");
    assert!(link.starts_with("https://shop.example/user/reset_password?token="));
    let token = common::token_of(link).to_string();
    let reset = |token: &str, password: &str| {
        json!({
            "token": token, "email": DEMO.0,
            "password": password, "password_confirmation": password,
        })
    };
    let (status, headers, body) = shop
        .post_json(
            "/api/user/reset-password",
            &reset("not-the-token", "brand-new-pass-1"),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    let (status, _, body) = shop
        .post_json(
            "/api/user/reset-password",
            &reset(&token, "brand-new-pass-1"),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = as_user(&shop, &old_session, "/api/auth/user").await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "every session is signed out"
    );
    login(
        &shop,
        "guest-reset-002.k7Qx2mZp9LwR4tYv8NsB3hJd",
        (DEMO.0, "brand-new-pass-1"),
    )
    .await;
    let (status, _, _) = shop
        .post_json(
            "/api/user/reset-password",
            &reset(&token, "another-pass-22"),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a link works once");
}

#[tokio::test]
async fn reset_links_are_limited_per_address_and_expire() {
    let shop = TestShop::fresh().await;
    for _ in 0..3 {
        let (status, _, _) = shop
            .post_json(
                "/api/user/forgot-password-send-link",
                &json!({ "email": RAHIM.0 }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, headers, body) = shop
        .post_json(
            "/api/user/forgot-password-send-link",
            &json!({ "email": RAHIM.0 }),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::TOO_MANY_REQUESTS);
    assert!(headers.contains_key("retry-after"));
    assert_eq!(outbox(&shop).len(), 3);
    let (status, headers, body) = shop
        .post_json(
            "/api/user/forgot-password-send-link",
            &json!({ "email": "nope" }),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    // An expired link does nothing.
    db::query("UPDATE password_reset SET expires_at = 1000")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let mail = &outbox(&shop)[0];
    let token = mail
        .split("token=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    let (status, _, _) = shop
        .post_json(
            "/api/user/reset-password",
            &json!({ "token": token, "email": RAHIM.0, "password": "fresh-password-1", "password_confirmation": "fresh-password-1" }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn logging_out_ends_only_the_session_used() {
    let shop = TestShop::fresh().await;
    let phone = login(&shop, "guest-many-001.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    let laptop = login(&shop, "guest-many-002.k7Qx2mZp9LwR4tYv8NsB3hJd", DEMO).await;
    let other = login(&shop, "guest-many-003.k7Qx2mZp9LwR4tYv8NsB3hJd", RAHIM).await;
    let bearer = format!("Bearer {phone}");
    let (status, _, body) = shop
        .request(
            "POST",
            "/api/auth/logout",
            &[("Authorization", bearer.as_str())],
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        as_user(&shop, &phone, "/api/auth/user").await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, me) = as_user(&shop, &laptop, "/api/auth/user").await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the same shopper's other session lives"
    );
    assert_eq!(me["user"]["email"], DEMO.0);
    let (status, them) = as_user(&shop, &other, "/api/auth/user").await;
    assert_eq!(status, StatusCode::OK, "another shopper's session lives");
    assert_eq!(them["user"]["email"], RAHIM.0);
}

/// Register and login take a guest's SELF-TOKEN when there is one but need
/// none: the document says so (an optional header), not the visitor's
/// required one.
#[tokio::test]
async fn register_and_login_document_an_optional_self_token() {
    let shop = TestShop::open().await;
    let (_, _, doc) = shop.get("/api/openapi.json").await;
    for path in ["/api/auth/register", "/api/auth/login"] {
        let params = doc["paths"][path]["post"]["parameters"]
            .as_array()
            .expect("parameters");
        let tokens: Vec<&serde_json::Value> = params
            .iter()
            .filter(|p| p["name"] == "SELF-TOKEN")
            .collect();
        assert_eq!(tokens.len(), 1, "{path}: {params:?}");
        assert_ne!(tokens[0]["required"], true, "{path}");
    }
}

/// A cart made under an older, guessable token (before the origin asked for
/// 128 random bits), as it lies in the database: made `age_days` ago with one
/// line of `pid`.
async fn legacy_cart(shop: &TestShop, token: &str, pid: i64, age_days: i64) {
    let made = catalog::clock::now_unix() - age_days * 86_400;
    let id: i64 = db::query_scalar(
        "INSERT INTO cart (self_token, created_at, updated_at) VALUES ($1, $2, $2) RETURNING id",
    )
    .bind(token)
    .bind(made)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let code: String = db::query_scalar("SELECT product_code FROM product WHERE id = $1")
        .bind(pid)
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    db::query("INSERT INTO cart_item (cart_id, product_id, item_code, qty) VALUES ($1, $2, $3, 2)")
        .bind(id)
        .bind(pid)
        .bind(code)
        .execute(&shop.state.pool)
        .await
        .unwrap();
}

fn cart_lines(view: &Value) -> Vec<(i64, i64)> {
    view["cart"]["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no cart in {view}"))
        .iter()
        .map(|l| {
            (
                l["info"]["id"].as_i64().unwrap(),
                l["qty"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_cart_under_an_older_short_token_works_until_it_is_30_days_old_and_makes_no_new_cart() {
    let shop = TestShop::fresh().await;
    let (a, b) = (product(&shop, 0).await, product(&shop, 1).await);
    let refused = |status: StatusCode, headers: &axum::http::HeaderMap, body: &Value| {
        assert_api_error(status, headers, body, StatusCode::BAD_REQUEST);
        assert!(
            body["errors"]["SELF-TOKEN"][0]
                .as_str()
                .unwrap()
                .contains("Make a new one"),
            "{body}"
        );
    };
    // The original client's shape: the time and base-36 Math.random().
    let young = "1700000000000k3j2h9abcde";
    legacy_cart(&shop, young, a, 29).await;
    let (status, _, view) = shop.guest_get(young, "/api/cart/view").await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(cart_lines(&view), vec![(a, 2)]);
    // It keeps working: a line added to the same cart, the count read.
    let (status, _, body) = shop
        .guest_get(young, &format!("/api/cart/add-to-cart?main_pid={b}&qty=1"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, _, view) = shop.guest_get(young, "/api/cart/view").await;
    assert_eq!(cart_lines(&view).len(), 2, "{view}");
    let carts = "SELECT COUNT(*) FROM cart";
    assert_eq!(shop.scalar_i64(carts).await, 1);

    // A cart over 30 days old under such a token is not reached any more.
    let old = "1690000000000zz9y8x7w6v5";
    legacy_cart(&shop, old, a, 31).await;
    let (status, headers, body) = shop.guest_get(old, "/api/cart/view").await;
    refused(status, &headers, &body);

    // A short token without a cart makes none, whatever the call.
    for token in ["1700000000000m1n2b3v4c5x", "12345678"] {
        for uri in [
            format!("/api/cart/add-to-cart?main_pid={a}&qty=1"),
            "/api/cart/view".to_string(),
            format!("/api/common/add-to-compare?pid={a}"),
        ] {
            let (status, headers, body) = shop.guest_get(token, &uri).await;
            refused(status, &headers, &body);
        }
    }
    assert_eq!(
        shop.scalar_i64(carts).await,
        2,
        "no cart made for a short token"
    );
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM compare_item").await,
        0
    );

    // Signing in brings the young cart into the account, under a strong token from then on.
    let token = login(&shop, young, DEMO).await;
    let (_, view) = as_user(&shop, &token, "/api/cart/view").await;
    let lines = cart_lines(&view);
    assert!(
        lines.contains(&(a, 2)) && lines.contains(&(b, 1)),
        "{lines:?}"
    );
    let (status, headers, body) = shop.guest_get(young, "/api/cart/view").await;
    refused(status, &headers, &body);
}
