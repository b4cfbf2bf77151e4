//! The account calls on a real SQLite file: profile, password, address book,
//! own orders and reviews, newsletter; and every attempt on another
//! shopper's rows.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{assert_api_error, TestShop, DEMO, RAHIM};
use serde_json::json;

#[tokio::test]
async fn every_account_call_needs_a_signed_in_shopper() {
    let shop = TestShop::open().await;
    for (method, uri) in [
        ("POST", "/api/user/user-update"),
        ("POST", "/api/user/change-password"),
        ("GET", "/api/user/address-list"),
        ("GET", "/api/user/orders"),
        ("GET", "/api/user/reviews"),
        ("GET", "/api/user/wishlist"),
    ] {
        let (status, headers, body) = shop
            .request(
                method,
                uri,
                &[("SELF-TOKEN", "guest-acct-0001.k7Qx2mZp9LwR4tYv8NsB3hJd")],
                Some(&json!({})),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn only_profile_fields_change_and_they_are_checked() {
    let shop = TestShop::fresh().await;
    let token = shop.login(None, DEMO).await;
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/user-update",
            Some(json!({
                "name": "Demo Shopper Two",
                "email": "demo@example.com",
                "phone": "01712345678",
                "birthday": "1990-05-17",
                "gender": "Female",
                "postcode": "1216",
                "district": "Dhaka",
                "password_hash": "x",
                "id": 99,
                "is_active": 0,
            })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["name"], "Demo Shopper Two");
    assert_eq!(body["user"]["gender"], "female");
    // The password still works: the stray field changed nothing.
    shop.login(None, DEMO).await;
    let (status, body) = shop.as_user(&token,
        "POST",
        "/api/user/user-update",
        Some(json!({ "name": "X", "phone": "123", "birthday": "2999-01-01", "gender": "robot", "postcode": "12" })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    for f in ["name", "phone", "birthday", "gender", "postcode"] {
        assert!(body["errors"].get(f).is_some(), "{f}: {body}");
    }
    let (status, _) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/user-update",
            Some(json!({ "name": "Demo", "email": RAHIM.0, "phone": "01712345678", "old_password": DEMO.1 })),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "another account's e-mail");
}

#[tokio::test]
async fn changing_the_password_signs_out_every_other_session() {
    let shop = TestShop::fresh().await;
    let phone_session = shop.login(None, DEMO).await;
    let token = shop.login(None, DEMO).await;
    let (status, body) = shop.as_user(&token,
        "POST",
        "/api/user/change-password",
        Some(json!({ "old_password": "wrong-one", "password": "new-password-9", "password_confirmation": "new-password-9" })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"].get("old_password").is_some());
    let (status, body) = shop.as_user(&token,
        "POST",
        "/api/user/change-password",
        Some(json!({ "old_password": DEMO.1, "password": "new-password-9", "password_confirmation": "new-password-9" })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["signed_out_sessions"].as_u64().unwrap() >= 1);
    let (status, _) = shop
        .as_user(&phone_session, "GET", "/api/auth/user", None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = shop.as_user(&token, "GET", "/api/auth/user", None).await;
    assert_eq!(status, StatusCode::OK, "this session stays");
    shop.login(None, (DEMO.0, "new-password-9")).await;
    let (status, _, _) = shop
        .post_json(
            "/api/auth/login",
            &json!({ "email": DEMO.0, "password": DEMO.1 }),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_address_book_is_private_and_keeps_defaults() {
    let shop = TestShop::fresh().await;
    let token = shop.login(None, DEMO).await;
    let other = shop.login(None, RAHIM).await;
    let (status, body) = shop.as_user(&token,
        "GET",
        "/api/user/address-store?name=Office&phone=01712000000&address=Level%205%2C%20Gulshan%20Avenue&district=dhaka",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["id"].as_i64().unwrap();
    let (_, list) = shop
        .as_user(&token, "GET", "/api/user/address-list", None)
        .await;
    assert_eq!(list["addresses"][id.to_string()]["district"], "Dhaka");
    assert_eq!(list["addresses"][id.to_string()]["region"], "Dhaka");
    // Rahim cannot see, change or pick Demo's address.
    let (_, theirs) = shop
        .as_user(&other, "GET", "/api/user/address-list", None)
        .await;
    assert!(theirs["addresses"].get(id.to_string()).is_none());
    for uri in [
        format!("/api/user/address-update?id={id}&name=Mine&phone=01811000000&address=Somewhere%20else&district=Sylhet"),
        format!("/api/user/set-default-address?type=shipping&id={id}"),
    ] {
        let (status, body) = shop.as_user(&other, "GET", &uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {body}");
    }
    let (status, _) = shop
        .as_user(
            &token,
            "GET",
            &format!("/api/user/set-default-address?type=shipping&id={id}"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (_, default) = shop
        .as_user(
            &token,
            "GET",
            "/api/user/get-default-address?type=shipping",
            None,
        )
        .await;
    assert_eq!(default["address"]["id"], id);
    let (status, _) = shop
        .as_user(
            &token,
            "GET",
            "/api/user/get-default-address?type=home",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, body) = shop
        .as_user(
            &token,
            "GET",
            "/api/user/address-store?name=A&phone=123&address=x&district=Atlantis",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    for f in ["name", "phone", "address", "district"] {
        assert!(body["errors"].get(f).is_some(), "{f}: {body}");
    }
}

#[tokio::test]
async fn shoppers_see_only_their_own_orders_and_review_what_was_delivered() {
    let shop = TestShop::fresh().await;
    let token = shop.login(None, DEMO).await;
    let demo = shop.user_id(DEMO.0).await;
    let (status, body) = shop.as_user(&token, "GET", "/api/user/orders", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mine = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM order_master WHERE user_id = {demo}"
        ))
        .await;
    assert_eq!(body["total"], mine);
    for order in body["orders"].as_array().unwrap() {
        let owner = shop
            .scalar_i64(&format!(
                "SELECT user_id FROM order_master WHERE id = {}",
                order["id"]
            ))
            .await;
        assert_eq!(owner, demo);
        assert!(order["products"].as_array().is_some());
    }
    // A delivered product, its seeded review taken away.
    let pid = shop
        .scalar_i64(&format!(
            "SELECT d.product_id FROM order_detail d JOIN order_master o ON o.id = d.order_id \
             WHERE o.user_id = {demo} AND o.order_status = 'delivered' LIMIT 1"
        ))
        .await;
    db::query("DELETE FROM review WHERE user_id = $1 AND product_id = $2")
        .bind(demo)
        .bind(pid)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let review =
        json!({ "product_id": pid, "rating": 4, "comment": "Solid teak, delivered on time." });
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-store",
            Some(review.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-store",
            Some(review.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, reviews) = shop.as_user(&token, "GET", "/api/user/reviews", None).await;
    assert!(reviews["reviews"]
        .as_object()
        .unwrap()
        .values()
        .any(|r| r["product"]["id"] == pid && r["rating"] == 4));
    // Rahim never had it delivered.
    let other = shop.login(None, RAHIM).await;
    let (status, _) = shop
        .as_user(&other, "POST", "/api/user/review-store", Some(review))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = shop
        .as_user(
            &token,
            "POST",
            "/api/user/review-store",
            Some(json!({ "product_id": pid, "rating": 9, "comment": "short" })),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["errors"].get("rating").is_some() && body["errors"].get("comment").is_some());
}

#[tokio::test]
async fn subscribing_twice_is_one_subscription() {
    let shop = TestShop::fresh().await;
    for _ in 0..2 {
        let (status, _, body) = shop
            .post_json(
                "/api/user/subscribe",
                &json!({ "email": "Reader@Example.com " }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let n = shop
        .scalar_i64("SELECT COUNT(*) FROM newsletter_subscriber WHERE email = 'reader@example.com'")
        .await;
    assert_eq!(n, 1);
    let (status, headers, body) = shop
        .post_json("/api/user/subscribe", &json!({ "email": "nope" }))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
}

/// The address calls' typed parameters: a missing or malformed one is a
/// 400 naming it, in the words the hand-read parameters had.
#[tokio::test]
async fn address_parameters_are_typed_and_named_when_wrong() {
    let shop = TestShop::fresh().await;
    let token = shop.login(None, DEMO).await;
    for (uri, field, message) in [
        (
            "/api/user/get-default-address?type=home",
            "type",
            "type is billing or shipping",
        ),
        ("/api/user/get-default-address", "type", "type is required"),
        (
            "/api/user/set-default-address?type=billing",
            "id",
            "id is required",
        ),
        (
            "/api/user/set-default-address?type=billing&id=0",
            "id",
            "id must be between 1 and 4611686018427387903",
        ),
        (
            "/api/user/address-update?name=Rahim",
            "id",
            "id is required",
        ),
        (
            "/api/user/orders?page=0",
            "page",
            "page must be between 1 and 10000",
        ),
    ] {
        let (status, body) = shop.as_user(&token, "GET", uri, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert_eq!(body["errors"][field][0], message, "{uri}: {body}");
    }
    let (status, body) = shop
        .as_user(&token, "GET", "/api/user/orders?page=", None)
        .await;
    assert_eq!(status, StatusCode::OK, "a blank page is the first: {body}");
}

#[tokio::test]
async fn a_new_email_or_mobile_needs_the_current_password_and_the_old_address_is_told() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let token = shop.login(None, DEMO).await;
        let update = |body: serde_json::Value| {
            shop.as_user(&token, "POST", "/api/user/user-update", Some(body))
        };
        let mine = json!({ "name": "Demo Shopper", "email": DEMO.0, "phone": "01712345678" });
        // The name alone needs no password.
        let (status, body) = update(mine.clone()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        // A new e-mail, a new mobile or a cleared one: without the password, or
        // with a wrong one, a 400 naming old_password, and nothing changes.
        for (field, value) in [
            ("email", "taken.over@example.com"),
            ("phone", "01812345678"),
            ("phone", ""),
        ] {
            let mut change = mine.clone();
            change[field] = json!(value);
            let (status, body) = update(change.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{field}={value}: {body}");
            assert!(
                body["errors"]["old_password"][0]
                    .as_str()
                    .unwrap()
                    .contains("current password"),
                "{body}"
            );
            change["old_password"] = json!("not-my-password");
            let (status, body) = update(change).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(
                body["errors"]["old_password"][0],
                "Your current password is not right."
            );
        }
        let (_, body) = shop.as_user(&token, "GET", "/api/auth/user", None).await;
        assert_eq!(body["user"]["email"], DEMO.0);
        assert_eq!(body["user"]["phone"], "01712345678");
        // With it, the e-mail changes and the old address gets a mail.
        let mut change = mine.clone();
        change["email"] = json!("demo.new@example.com");
        change["old_password"] = json!(DEMO.1);
        let (status, body) = update(change).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["user"]["email"], "demo.new@example.com");
        let mails: Vec<String> = std::fs::read_dir(&shop.state.dirs.outbox)
            .unwrap()
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .collect();
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert!(mails[0].contains("To: demo@example.com"), "{}", mails[0]);
        assert!(
            mails[0].contains("is now demo.new@example.com"),
            "{}",
            mails[0]
        );
        shop.login(None, ("demo.new@example.com", DEMO.1)).await;
        // Wrong passwords here count on the account's sign-in throttle.
        for _ in 0..6 {
            let mut change = mine.clone();
            change["old_password"] = json!("guess-guess");
            update(change).await;
        }
        let mut change = mine.clone();
        change["old_password"] = json!(DEMO.1);
        let (status, body) = update(change).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    })
    .await
}
