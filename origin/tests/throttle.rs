//! Guessing is throttled where every origin sees it (the `throttle` and
//! `rate_event` tables), per account or order number whatever address the
//! guesses come from, and per client address whatever they guess (issue 19).
//! The client address is the edge's `X-Forwarded-For`; the guesses here come
//! from many of them, as a botnet's would. Each test runs at one instant
//! (`common::at_one_instant`), so a wait lapses only when the test says so, by
//! clearing `blocked_until` in the database as if the time had passed, never
//! because a loaded machine took a second between two calls.

mod common;

use axum::http::{HeaderMap, StatusCode};
use serde_json::{json, Value};

use common::{outbox, TestShop, DEMO, RAHIM};

async fn login(shop: &TestShop, ip: &str, who: (&str, &str)) -> (StatusCode, HeaderMap, Value) {
    let body = json!({ "email": who.0, "password": who.1 });
    shop.request(
        "POST",
        "/api/auth/login",
        &[("x-forwarded-for", ip)],
        Some(&body),
    )
    .await
}

/// A 429 with `Retry-After: wait` (seconds) and a JSON error that says the
/// wait in words.
fn assert_wait((status, headers, body): &(StatusCode, HeaderMap, Value), wait: u64) {
    assert_eq!(*status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["success"], false, "{body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.contains("try again in"), "{message}");
    assert_eq!(headers["retry-after"], wait.to_string().as_str());
}

async fn skip_waits(shop: &TestShop) {
    catalog::db::query("UPDATE throttle SET blocked_until = 0")
        .execute(&shop.state.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn guesses_at_one_account_from_many_addresses_slow_down_then_lock_it_and_mail_the_owner() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let wrong = (DEMO.0, "not-the-password");
        // Five free failures, each from another address.
        for n in 1..=5 {
            let (status, _, body) = login(&shop, &format!("198.51.100.{n}"), wrong).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        }
        // The sixth is answered, and sets a wait of 2 s before the next,
        // whatever its address and whatever password it tries.
        let (status, _, _) = login(&shop, "198.51.100.6", wrong).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_wait(&login(&shop, "203.0.113.77", wrong).await, 2);
        assert_wait(&login(&shop, "203.0.113.78", DEMO).await, 2);
        // The mobile number reaches the same account, and the same count.
        let mobile = common::text(
            &shop,
            "SELECT phone FROM app_user WHERE email = 'demo@example.com'",
        )
        .await;
        assert_wait(
            &login(&shop, "203.0.113.79", (&mobile, "nope-nope")).await,
            2,
        );
        // Each further failure doubles the wait: 4, 8, 16 s.
        for (n, wait) in [(7, 4), (8, 8), (9, 16)] {
            skip_waits(&shop).await;
            let (status, _, _) = login(&shop, &format!("198.51.100.{n}"), wrong).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
            assert_wait(&login(&shop, "192.0.2.200", wrong).await, wait);
        }
        assert!(outbox(&shop).is_empty(), "no mail before the lock");
        // The tenth locks the account for 15 minutes and tells its owner.
        skip_waits(&shop).await;
        let (status, _, _) = login(&shop, "198.51.100.10", wrong).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_wait(&login(&shop, "192.0.2.201", DEMO).await, 900);
        let mails = outbox(&shop);
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert!(mails[0].contains("To: demo@example.com"), "{}", mails[0]);
        assert!(mails[0].contains("paused for 15 minutes"), "{}", mails[0]);
        // Another account is not touched.
        let (status, _, _) = login(&shop, "192.0.2.202", RAHIM).await;
        assert_eq!(status, StatusCode::OK);
        // When the lock is over, the right password signs in and clears the count.
        skip_waits(&shop).await;
        let (status, _, body) = login(&shop, "192.0.2.203", DEMO).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        for n in 1..=5 {
            let (status, _, _) = login(&shop, &format!("198.51.100.{}", 20 + n), wrong).await;
            assert_eq!(
                status,
                StatusCode::UNAUTHORIZED,
                "free failures again after a success"
            );
        }
        assert_eq!(outbox(&shop).len(), 1);
    })
    .await
}

#[tokio::test]
async fn one_address_guessing_many_accounts_slows_down_but_its_sign_ins_are_free() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let ip = "203.0.113.9";
        // Right passwords from the address cost nothing (shoppers share addresses).
        for _ in 0..3 {
            let (status, _, _) = login(&shop, ip, DEMO).await;
            assert_eq!(status, StatusCode::OK);
        }
        // Thirty failures on thirty accounts are free; the next waits 1 s, then 2 s.
        for n in 1..=31 {
            let who = format!("nobody{n}@example.com");
            let (status, _, body) = login(&shop, ip, (&who, "guess-1234")).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "failure {n}: {body}");
        }
        assert_wait(
            &login(&shop, ip, ("nobody99@example.com", "guess")).await,
            1,
        );
        assert_wait(&login(&shop, ip, DEMO).await, 1);
        // Other addresses are not slowed.
        let (status, _, _) = login(&shop, "203.0.113.10", DEMO).await;
        assert_eq!(status, StatusCode::OK);
        skip_waits(&shop).await;
        let (status, _, _) = login(&shop, ip, ("nobody32@example.com", "guess")).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_wait(&login(&shop, ip, DEMO).await, 2);
        // Throttled calls were not counted: the count is 32, the wait after it 2 s.
        let failures = shop
            .scalar_i64("SELECT failures FROM throttle WHERE key = 'login-ip:203.0.113.9'")
            .await;
        assert_eq!(failures, 32);
    })
    .await
}

async fn track(
    shop: &TestShop,
    ip: &str,
    number: &str,
    phone: &str,
) -> (StatusCode, HeaderMap, Value) {
    shop.request(
        "GET",
        &format!("/api/cart/track-order?id={number}&phone={phone}"),
        &[("x-forwarded-for", ip)],
        None,
    )
    .await
}

#[tokio::test]
async fn guessing_an_orders_mobile_from_many_addresses_is_throttled_per_order_number() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let number = common::text(
            &shop,
            "SELECT order_random FROM order_master ORDER BY id LIMIT 1",
        )
        .await;
        let phone = common::text(
            &shop,
            &format!("SELECT phone FROM order_master WHERE order_random = '{number}'"),
        )
        .await;
        let (status, _, body) = track(&shop, "198.51.100.1", &number, &phone).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        for n in 1..=6 {
            let guess = format!("0171000000{n}");
            let (status, _, body) = track(&shop, &format!("198.51.100.{n}"), &number, &guess).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "guess {n}: {body}");
        }
        // After the sixth wrong mobile, even the right one waits.
        assert_wait(&track(&shop, "192.0.2.50", &number, &phone).await, 2);
        for n in 7..=10 {
            skip_waits(&shop).await;
            let guess = format!("017100000{n:02}");
            let (status, _, _) = track(&shop, &format!("198.51.100.{n}"), &number, &guess).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
        }
        // The tenth locks the number for an hour.
        assert_wait(&track(&shop, "192.0.2.51", &number, &phone).await, 3_600);
        // Another order is not touched; the right mobile clears the count.
        skip_waits(&shop).await;
        let (status, _, _) = track(&shop, "192.0.2.52", &number, &phone).await;
        assert_eq!(status, StatusCode::OK);
        let left = shop
            .scalar_i64("SELECT COUNT(*) FROM throttle WHERE key LIKE 'track-order:%'")
            .await;
        assert_eq!(left, 0);
    })
    .await
}

#[tokio::test]
async fn one_address_trying_many_order_numbers_is_throttled() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let ip = "203.0.113.20";
        for n in 1..=21 {
            let (status, _, _) = track(&shop, ip, &format!("999000{n}"), "01712345678").await;
            assert_eq!(status, StatusCode::NOT_FOUND, "lookup {n}");
        }
        assert_wait(&track(&shop, ip, "9990099", "01712345678").await, 1);
        let (status, _, _) = track(&shop, "203.0.113.21", "9990099", "01712345678").await;
        assert_eq!(
            status,
            StatusCode::NOT_FOUND,
            "another address is not slowed"
        );
    })
    .await
}

#[tokio::test]
async fn one_address_creates_at_most_ten_accounts_an_hour() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let register = |n: u32, ip: &'static str| {
            let body = json!({
                "name": "Guess Bot",
                "email": format!("bot{n}@example.com"),
                "password": "bot-password-1",
                "password_confirmation": "bot-password-1",
                "agree": true,
            });
            let shop = &shop;
            async move {
                shop.request(
                    "POST",
                    "/api/auth/register",
                    &[("x-forwarded-for", ip)],
                    Some(&body),
                )
                .await
            }
        };
        for n in 1..=10 {
            let (status, _, body) = register(n, "203.0.113.30").await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        assert_wait(&register(11, "203.0.113.30").await, 3_600);
        let (status, _, _) = register(12, "203.0.113.31").await;
        assert_eq!(status, StatusCode::OK);
    })
    .await
}

/// `POST /api/user/change-password` by the session `token` from `ip`.
async fn change_password(
    shop: &TestShop,
    token: &str,
    ip: &str,
    old: &str,
) -> (StatusCode, HeaderMap, Value) {
    let bearer = format!("Bearer {token}");
    let body = json!({ "old_password": old, "password": "a-new-password-7",
                       "password_confirmation": "a-new-password-7" });
    shop.request(
        "POST",
        "/api/user/change-password",
        &[("authorization", bearer.as_str()), ("x-forwarded-for", ip)],
        Some(&body),
    )
    .await
}

#[tokio::test]
async fn change_password_guesses_count_like_sign_ins_per_account_and_per_address() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        // A stolen session guesses the current password from many addresses:
        // five free failures, then the account waits, here and at sign-in.
        let (_, _, body) = login(&shop, "192.0.2.1", DEMO).await;
        let stolen = body["token"].as_str().unwrap().to_string();
        for n in 1..=6 {
            let (status, _, body) =
                change_password(&shop, &stolen, &format!("198.51.100.{n}"), "guess-guess").await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "failure {n}: {body}");
            assert_eq!(
                body["errors"]["old_password"][0],
                "Your current password is not right."
            );
        }
        assert_wait(
            &change_password(&shop, &stolen, "203.0.113.50", DEMO.1).await,
            2,
        );
        assert_wait(&login(&shop, "203.0.113.51", DEMO).await, 2);
        // Up to the lock, which mails the owner as a sign-in's would.
        for n in 7..=10 {
            skip_waits(&shop).await;
            let (status, _, _) =
                change_password(&shop, &stolen, &format!("198.51.100.{n}"), "guess-guess").await;
            assert_eq!(status, StatusCode::BAD_REQUEST);
        }
        assert_wait(
            &change_password(&shop, &stolen, "203.0.113.52", DEMO.1).await,
            900,
        );
        let mails = outbox(&shop);
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert!(mails[0].contains("To: demo@example.com"), "{}", mails[0]);
        // The password did not change.
        skip_waits(&shop).await;
        let (status, _, body) = login(&shop, "192.0.2.2", DEMO).await;
        assert_eq!(status, StatusCode::OK, "{body}");

        // One address: its failed sign-ins and its wrong current passwords add
        // up on one count (30 free), whichever accounts they are on.
        let ip = "203.0.113.60";
        let (_, _, body) = login(&shop, "192.0.2.3", RAHIM).await;
        let session = body["token"].as_str().unwrap().to_string();
        for n in 1..=30 {
            let who = format!("nobody{n}@example.com");
            let (status, _, _) = login(&shop, ip, (&who, "guess-1234")).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
        }
        let (status, _, body) = change_password(&shop, &session, ip, "guess-guess").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_wait(&change_password(&shop, &session, ip, RAHIM.1).await, 1);
        // From another address the right one goes through, and is not counted.
        let (status, _, body) = change_password(&shop, &session, "203.0.113.61", RAHIM.1).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let failures = shop
            .scalar_i64("SELECT failures FROM throttle WHERE key = 'login-ip:203.0.113.61'")
            .await;
        assert_eq!(failures, 0);
    })
    .await
}

async fn login_from(
    shop: &TestShop,
    browser: &str,
    ip: &str,
    who: (&str, &str),
) -> (StatusCode, HeaderMap, Value) {
    let body = json!({ "email": who.0, "password": who.1 });
    shop.request(
        "POST",
        "/api/auth/login",
        &[("x-forwarded-for", ip), ("SELF-TOKEN", browser)],
        Some(&body),
    )
    .await
}

/// The tester's finding: ten wrong passwords from anywhere locked the owner
/// out for 15 minutes, and a reset did not lift it.
#[tokio::test]
async fn guesses_from_elsewhere_never_lock_the_owner_out_of_a_browser_they_signed_in_from() {
    common::at_one_instant(async {
        let shop = TestShop::fresh().await;
        let mine = "guest-known-0001.k7Qx2mZp9LwR4tYv8NsB3hJd";
        let theirs = "guest-thief-0001.k7Qx2mZp9LwR4tYv8NsB3hJd";
        let (status, _, body) = login_from(&shop, mine, "192.0.2.10", DEMO).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        // Ten wrong passwords from other browsers and addresses lock the account.
        let wrong = (DEMO.0, "not-the-password");
        for n in 1..=10 {
            skip_waits(&shop).await;
            let (status, _, _) = login_from(&shop, theirs, &format!("198.51.100.{n}"), wrong).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
        }
        assert_wait(&login_from(&shop, theirs, "198.51.100.11", DEMO).await, 900);
        assert_wait(&login(&shop, "198.51.100.12", DEMO).await, 900);
        // The owner's own browser still gets in.
        let (status, _, body) = login_from(&shop, mine, "192.0.2.10", DEMO).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        // Guessing from it is throttled on its own count: five free, then waits.
        for _ in 1..=6 {
            let (status, _, _) = login_from(&shop, mine, "192.0.2.10", wrong).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED);
        }
        assert_wait(&login_from(&shop, mine, "192.0.2.10", DEMO).await, 2);
        // The shared lock is untouched by the owner's sign-in.
        assert_wait(&login(&shop, "198.51.100.13", DEMO).await, 900);

        // A reset link lifts the lock, and its browser is known from then on.
        let (status, _, _) = shop
            .post_json(
                "/api/user/forgot-password-send-link",
                &json!({ "email": DEMO.0 }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let token = common::reset_token(&shop);
        let fresh = "guest-reset-0009.k7Qx2mZp9LwR4tYv8NsB3hJd";
        let body = json!({
            "token": token, "email": DEMO.0,
            "password": "brand-new-pass-9", "password_confirmation": "brand-new-pass-9",
        });
        let (status, _, answer) = shop
            .request(
                "POST",
                "/api/user/reset-password",
                &[("SELF-TOKEN", fresh)],
                Some(&body),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let new = (DEMO.0, "brand-new-pass-9");
        let (status, _, body) = login(&shop, "198.51.100.14", new).await;
        assert_eq!(status, StatusCode::OK, "the reset lifted the lock: {body}");
        let told = outbox(&shop);
        let changed = told
            .iter()
            .find(|m| m.contains("Subject: Your password was changed"))
            .expect("the owner is told of the reset");
        assert!(
            changed.contains("every device signed in to it was signed out"),
            "{changed}"
        );
    })
    .await
}
