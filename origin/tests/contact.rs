//! The contact form (`POST /api/common/contact`): a message is kept and
//! mailed to the shop; wrong fields are each named; a client that floods is
//! answered 429 with Retry-After; a browser's plain form is sent back to the
//! contact page. Runs on SQLite, and on PostgreSQL with `TEST_POSTGRES_URL`.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};

use common::{assert_api_error, outbox, TestShop};
use origin::domain::contact::MESSAGES_PER_WINDOW;

const CONTACT: &str = "/api/common/contact";

/// POSTs `body` as JSON from client `ip`.
async fn post(
    shop: &TestShop,
    ip: &str,
    body: &Value,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    shop.request("POST", CONTACT, &[("x-forwarded-for", ip)], Some(body))
        .await
}

#[tokio::test]
async fn a_message_is_kept_and_mailed_to_the_shop() {
    let shop = TestShop::fresh().await;
    let (status, _, body) = post(
        &shop,
        "203.0.113.10",
        &json!({"name": "  Rahima Khatun ", "contact": "+880 1712-345678",
                "message": "Do you deliver the Oslo bed to Sylhet?\nThanks."}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    assert!(body["message"].as_str().unwrap().contains("Thank you"));

    let (name, mobile, email, client): (String, String, String, String) = catalog::db::query_as(
        "SELECT name, mobile, email, client FROM contact_message ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    assert_eq!(
        (
            name.as_str(),
            mobile.as_str(),
            email.as_str(),
            client.as_str()
        ),
        ("Rahima Khatun", "01712345678", "", "203.0.113.10")
    );

    let mails = outbox(&shop);
    assert_eq!(mails.len(), 1, "one mail to the shop");
    let mail = &mails[0];
    assert!(
        mail.contains("care@example.com"),
        "to the shop's com_email: {mail}"
    );
    assert!(mail.contains("Contact form #"), "{mail}");
    assert!(
        mail.contains("Rahima Khatun") && mail.contains("01712345678"),
        "{mail}"
    );
    assert!(mail.contains("Oslo bed to Sylhet"), "{mail}");

    // An e-mail address does as well.
    let (status, _, body) = post(
        &shop,
        "203.0.113.10",
        &json!({"name": "Karim", "contact": "Karim@Example.com", "message": "Please call me about a dining set."}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM contact_message WHERE email = 'karim@example.com'")
            .await,
        1
    );
    assert_eq!(outbox(&shop).len(), 2);
}

#[tokio::test]
async fn every_wrong_field_is_named_and_nothing_is_kept() {
    let shop = TestShop::fresh().await;
    let (status, headers, body) = post(
        &shop,
        "203.0.113.20",
        &json!({"name": "R", "contact": "12345", "message": "short"}),
    )
    .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    for field in ["name", "contact", "message"] {
        assert!(
            body["errors"][field][0].is_string(),
            "{field} named: {body}"
        );
    }
    assert!(body["errors"]["contact"][0]
        .as_str()
        .unwrap()
        .contains("neither a mobile number"));

    // Nothing at all: each field is still named.
    let (status, headers, body) = post(&shop, "203.0.113.20", &json!({})).await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"].as_object().unwrap().len(), 3, "{body}");

    // A line break in the name would have written a Bcc header into the mail.
    let (status, headers, body) = post(
        &shop,
        "203.0.113.20",
        &json!({"name": "Rahim\r\nBcc: thief@example.com", "contact": "01712345678",
                "message": "Is the sofa in stock?"}),
    )
    .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["name"][0].is_string(), "{body}");

    // Not JSON at all.
    let (status, headers, body) = shop
        .send(
            Request::post(CONTACT)
                .header("content-type", "application/json")
                .body(Body::from("{name"))
                .unwrap(),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);

    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM contact_message")
            .await,
        0
    );
    assert!(outbox(&shop).is_empty());
}

#[tokio::test]
async fn a_flood_from_one_client_is_answered_429_with_retry_after() {
    let shop = TestShop::fresh().await;
    let good =
        json!({"name": "Flood", "contact": "01812345678", "message": "Hello, this is a message."});
    for _ in 0..MESSAGES_PER_WINDOW {
        let (status, _, body) = post(&shop, "198.51.100.7", &good).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, headers, body) = post(&shop, "198.51.100.7", &good).await;
    assert_api_error(status, &headers, &body, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=3_600).contains(&wait), "Retry-After {wait}");
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM contact_message")
            .await,
        MESSAGES_PER_WINDOW
    );
    assert_eq!(outbox(&shop).len() as i64, MESSAGES_PER_WINDOW);
    // Another client is not held up.
    let (status, _, body) = post(&shop, "198.51.100.8", &good).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_browsers_plain_form_goes_back_to_the_contact_page() {
    let shop = TestShop::fresh().await;
    let form = |body: &str| {
        Request::post(CONTACT)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "text/html,application/xhtml+xml,*/*;q=0.8")
            .header("x-forwarded-for", "192.0.2.44")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let (status, headers, _) = shop
        .send_raw(form("name=Nusrat+Jahan&contact=nusrat%40example.com&message=Is+the+Dhanmondi+showroom+open+on+Friday%3F"))
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers["location"], "/page/contact?sent=1#sent");
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM contact_message WHERE name = 'Nusrat Jahan'")
            .await,
        1
    );
    assert_eq!(outbox(&shop).len(), 1);

    let (status, headers, _) = shop.send_raw(form("name=N&contact=&message=hi")).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers["location"], "/page/contact?sent=0#not-sent");

    // A script posting the same form gets JSON.
    let (status, headers, body) = shop
        .send(
            Request::post(CONTACT)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from("name=N"))
                .unwrap(),
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["message"].is_array(), "{body}");
}
