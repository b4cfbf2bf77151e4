//! Passwords and tokens never reach the logs: every account call runs with
//! every log level on (`trace`, the request traces included), the output is
//! captured, and no password, sign-in token or reset token given or issued
//! appears in it. A test binary of its own, as the log subscriber is global.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use serde_json::json;

use common::TestShop;

/// The captured log output.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

async fn call(
    shop: &TestShop,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> (StatusCode, serde_json::Value) {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![(
        "SELF-TOKEN",
        "1700000000000logcheck.k7Qx2mZp9LwR4tYv8NsB3hJd",
    )];
    if let Some(auth) = &auth {
        headers.push(("authorization", auth));
    }
    let (status, _, body) = shop.request(method, uri, &headers, body).await;
    (status, body)
}

#[tokio::test]
async fn no_password_or_token_is_ever_logged() {
    let capture = Capture::default();
    let writer = capture.clone();
    tracing_subscriber::fmt()
        .with_env_filter("trace")
        .with_writer(move || writer.clone())
        .init();
    let shop = TestShop::fresh().await;
    let email = "log.check@example.test";
    let first = "Pw-LogCheck-First-4471";
    let second = "Pw-LogCheck-Second-5582";
    let third = "Pw-LogCheck-Third-6693";
    let wrong = "Pw-LogCheck-Wrong-7704";
    let mut secrets: Vec<String> = vec![first.into(), second.into(), third.into(), wrong.into()];

    let (status, body) = call(
        &shop,
        "POST",
        "/api/auth/register",
        None,
        Some(
            &json!({"name": "Log Check", "email": email, "password": first,
                     "password_confirmation": first, "agree": true}),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    secrets.push(body["token"].as_str().unwrap().into());
    let (status, _) = call(
        &shop,
        "POST",
        "/api/auth/login",
        None,
        Some(&json!({"email": email, "password": wrong})),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = call(
        &shop,
        "POST",
        "/api/auth/login",
        None,
        Some(&json!({"email": email, "password": first})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let token = body["token"].as_str().unwrap().to_string();
    secrets.push(token.clone());
    let (status, _) = call(&shop, "GET", "/api/auth/user", Some(&token), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = call(
        &shop,
        "POST",
        "/api/user/change-password",
        Some(&token),
        Some(&json!({"old_password": first, "password": second, "password_confirmation": second})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    // A reset link: its token is in the mail only.
    let (status, _) = call(
        &shop,
        "POST",
        "/api/user/forgot-password-send-link",
        None,
        Some(&json!({ "email": email })),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let outbox = shop.state.dirs.outbox.clone();
    let mail = std::fs::read_dir(&outbox)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .find(|m| m.contains(email))
        .expect("the reset mail");
    let reset = mail
        .split("token=")
        .nth(1)
        .and_then(|t| t.split('&').next())
        .unwrap()
        .to_string();
    secrets.push(reset.clone());
    let (status, body) = call(
        &shop,
        "POST",
        "/api/user/reset-password",
        None,
        Some(&json!({"token": reset, "email": email, "password": third,
                     "password_confirmation": third})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // A revoked token used again, then a fresh session signed out.
    let (status, _) = call(&shop, "GET", "/api/auth/user", Some(&token), None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (_, body) = call(
        &shop,
        "POST",
        "/api/auth/login",
        None,
        Some(&json!({"email": email, "password": third})),
    )
    .await;
    let last = body["token"].as_str().unwrap().to_string();
    secrets.push(last.clone());
    let (status, _) = call(&shop, "POST", "/api/auth/logout", Some(&last), None).await;
    assert_eq!(status, StatusCode::OK);

    let logs = String::from_utf8(capture.0.lock().unwrap().clone()).unwrap();
    assert!(
        logs.contains("/api/auth/login") && logs.contains("account created"),
        "the capture works: {} bytes",
        logs.len()
    );
    for secret in &secrets {
        assert!(
            !logs.contains(secret.as_str()),
            "{secret} appears in the logs"
        );
    }
}
