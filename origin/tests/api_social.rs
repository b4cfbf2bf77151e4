//! Social sign-in against a provider simulator started by each test: a real
//! HTTP server on loopback speaking OAuth 2.0's authorization-code flow
//! (consent page that redirects with a single-use code, token endpoint that
//! checks the client and the redirect address, user-info endpoint that needs
//! the access token), in Google's and Facebook's shapes.

mod common;

use catalog::db;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use common::{assert_api_error, TestShop};
use origin::config::{Secret, SocialArgs};
use origin::domain::social::Social;

const CLIENT_ID: &str = "shop-client";
const CLIENT_SECRET: &str = "shop-secret-123";
const GUEST: &str = "1700000000000socialguest.k7Qx2mZp9LwR4tYv8NsB3hJd";

/// The simulator's memory: people (by key), codes issued, tokens issued.
#[derive(Default)]
struct Sim {
    people: HashMap<String, Value>,
    codes: HashMap<String, (String, String)>,
    tokens: HashMap<String, String>,
    /// Token requests seen, to prove a refused callback never reached it.
    token_calls: usize,
}

type Shared = Arc<Mutex<Sim>>;

fn random() -> String {
    origin::domain::identity::new_token().0
}

/// `GET /{provider}/authorize?...&person=key`: the person consents.
async fn authorize(
    State(sim): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if q.get("client_id").map(String::as_str) != Some(CLIENT_ID)
        || q.get("response_type").map(String::as_str) != Some("code")
    {
        return (StatusCode::BAD_REQUEST, "bad client").into_response();
    }
    let redirect = q["redirect_uri"].clone();
    let code = random();
    sim.lock()
        .unwrap()
        .codes
        .insert(code.clone(), (q["person"].clone(), redirect.clone()));
    Redirect::to(&format!("{redirect}?code={code}&state={}", q["state"])).into_response()
}

/// `POST /{provider}/token`: a code (once) for an access token.
async fn token(State(sim): State<Shared>, Form(f): Form<HashMap<String, String>>) -> Response {
    let mut sim = sim.lock().unwrap();
    sim.token_calls += 1;
    let client_ok = f.get("client_id").map(String::as_str) == Some(CLIENT_ID)
        && f.get("client_secret").map(String::as_str) == Some(CLIENT_SECRET)
        && f.get("grant_type").map(String::as_str) == Some("authorization_code");
    let code = f.get("code").cloned().unwrap_or_default();
    match sim.codes.remove(&code) {
        Some((person, redirect)) if client_ok && f.get("redirect_uri") == Some(&redirect) => {
            let access = random();
            sim.tokens.insert(access.clone(), person);
            Json(json!({ "access_token": access, "token_type": "Bearer", "expires_in": 3599 }))
                .into_response()
        }
        _ => (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": "invalid_grant" })),
        )
            .into_response(),
    }
}

/// `GET /{provider}/userinfo` with `Authorization: Bearer`.
async fn userinfo(
    State(sim): State<Shared>,
    Path(provider): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let sim = sim.lock().unwrap();
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if provider == "facebook" && q.get("fields").map(String::as_str) != Some("id,name,email") {
        return (StatusCode::BAD_REQUEST, "fields").into_response();
    }
    match sim.tokens.get(bearer).and_then(|p| sim.people.get(p)) {
        Some(person) => Json(person.clone()).into_response(),
        None => (StatusCode::UNAUTHORIZED, "no token").into_response(),
    }
}

/// Starts the simulator; answers its base URL and its memory.
async fn simulator() -> (String, Shared) {
    let sim: Shared = Arc::default();
    let app = Router::new()
        .route("/{provider}/authorize", get(authorize))
        .route("/{provider}/token", post(token))
        .route("/{provider}/userinfo", get(userinfo))
        .with_state(Arc::clone(&sim));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, sim)
}

/// A fresh shop whose Google and Facebook point at the simulator.
async fn shop_with_providers() -> (TestShop, Shared) {
    let (base, sim) = simulator().await;
    let mut shop = TestShop::fresh().await;
    let args = SocialArgs {
        google_client_id: Some(CLIENT_ID.into()),
        google_client_secret: Some(Secret(CLIENT_SECRET.into())),
        google_auth_url: format!("{base}/google/authorize"),
        google_token_url: format!("{base}/google/token"),
        google_userinfo_url: format!("{base}/google/userinfo"),
        facebook_client_id: Some(CLIENT_ID.into()),
        facebook_client_secret: Some(Secret(CLIENT_SECRET.into())),
        facebook_auth_url: format!("{base}/facebook/authorize"),
        facebook_token_url: format!("{base}/facebook/token"),
        facebook_userinfo_url: format!("{base}/facebook/userinfo"),
        social_redirect_base: None,
    };
    shop.state.social = Arc::new(Social::from_args(&args, &shop.state.site_url).unwrap());
    shop.app = origin::app(shop.state.clone());
    (shop, sim)
}

/// Where the callback sent the browser: the fragment of the `/user/login` redirect.
#[derive(Debug)]
enum Back {
    /// `#social_code=<code>`, and the binding cookie set beside it (`social_bind=...`).
    Code(String, String),
    Error(String),
}

/// Where a sign-in ended, once the page redeemed the callback's code.
#[derive(Debug)]
enum Ended {
    Token(String),
    Error(String),
    /// A ticket for linking an existing account with its password, and the provider.
    Link(String, String),
}

/// The browser's part up to the callback: start at the shop, consent at the
/// provider as `person`, return to the callback with the cookies the shop set
/// (and the guest's `self_token`).
async fn come_back(shop: &TestShop, provider: &str, person: &str) -> Back {
    let (status, headers, _) = shop
        .get(&format!("/api/auth/social/{provider}/redirect"))
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let set_cookie = headers["set-cookie"].to_str().unwrap().to_string();
    let state_cookie = set_cookie.split(';').next().unwrap().to_string();
    let consent = headers["location"].to_str().unwrap().to_string();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let back = client
        .get(format!("{consent}&person={person}"))
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), StatusCode::SEE_OTHER, "consent refused");
    let callback = back.headers()["location"].to_str().unwrap().to_string();
    let path = callback
        .strip_prefix("https://shop.example")
        .expect("callback on the shop");
    callback_with(shop, path, &format!("{state_cookie}; self_token={GUEST}")).await
}

/// The whole sign-in: [`come_back`], then the page redeems the code with the
/// browser's cookies.
async fn sign_in(shop: &TestShop, provider: &str, person: &str) -> Ended {
    match come_back(shop, provider, person).await {
        Back::Error(message) => Ended::Error(message),
        Back::Code(code, bind) => {
            let (status, headers, body) = redeem(shop, &code, &bind).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            // The binding cookie is done with.
            let cleared: Vec<_> = headers
                .get_all("set-cookie")
                .iter()
                .map(|v| v.to_str().unwrap().to_string())
                .collect();
            assert!(
                cleared.iter().any(|c| c.starts_with("social_bind=; ")
                    && c.contains("Max-Age=0")
                    && c.contains("Path=/api/auth/social")),
                "{cleared:?}"
            );
            if let Some(token) = body["token"].as_str() {
                assert_eq!(body["token_type"], "Bearer", "{body}");
                assert!(body["user"]["id"].is_i64(), "{body}");
                Ended::Token(token.to_string())
            } else {
                let link = &body["link"];
                assert_eq!(body["success"], true, "{body}");
                Ended::Link(
                    link["ticket"].as_str().expect("a ticket").to_string(),
                    link["provider"].as_str().expect("a provider").to_string(),
                )
            }
        }
    }
}

/// `POST /api/auth/social/redeem {code}` with the `cookie` header given (`""` for none).
async fn redeem(shop: &TestShop, code: &str, cookie: &str) -> (StatusCode, HeaderMap, Value) {
    let body = json!({ "code": code });
    let mut headers = vec![("SELF-TOKEN", GUEST)];
    if !cookie.is_empty() {
        headers.push(("cookie", cookie));
    }
    shop.request("POST", "/api/auth/social/redeem", &headers, Some(&body))
        .await
}

async fn callback_with(shop: &TestShop, path: &str, cookies: &str) -> Back {
    let (status, headers, body) = shop
        .request("GET", path, &[("cookie", cookies)], None)
        .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    assert_eq!(headers["referrer-policy"], "no-referrer");
    let set_cookies: Vec<String> = headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert!(
        set_cookies[0].starts_with("social_state=; "),
        "{set_cookies:?}"
    );
    let location = headers["location"].to_str().unwrap();
    let fragment = location
        .strip_prefix("https://shop.example/user/login#")
        .unwrap_or_else(|| panic!("unexpected location {location}"));
    // Neither a session token nor a link ticket travels in the address.
    assert!(
        !fragment.contains("social_token") && !fragment.contains("social_link"),
        "{location}"
    );
    if let Some(code) = fragment.strip_prefix("social_code=") {
        assert!(
            code.len() == 64 && code.bytes().all(|b| b.is_ascii_hexdigit()),
            "{code}"
        );
        let bind = set_cookies
            .iter()
            .find(|c| c.starts_with("social_bind="))
            .unwrap_or_else(|| panic!("no binding cookie: {set_cookies:?}"));
        for attribute in [
            "HttpOnly",
            "SameSite=Lax",
            "Secure",
            "Path=/api/auth/social",
            "Max-Age=120",
        ] {
            assert!(bind.contains(attribute), "{bind} lacks {attribute}");
        }
        let pair = bind.split(';').next().unwrap().to_string();
        assert!(pair.len() > "social_bind=".len() + 32, "{pair}");
        Back::Code(code.to_string(), pair)
    } else if let Some(error) = fragment.strip_prefix("social_error=") {
        assert_eq!(set_cookies.len(), 1, "no binding cookie with an error");
        Back::Error(error.replace("%20", " "))
    } else {
        panic!("unexpected fragment {fragment}")
    }
}

fn person(sim: &Shared, key: &str, profile: Value) {
    sim.lock().unwrap().people.insert(key.into(), profile);
}

async fn me(shop: &TestShop, token: &str) -> Value {
    let auth = format!("Bearer {token}");
    let (status, _, body) = shop
        .request("GET", "/api/auth/user", &[("authorization", &auth)], None)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["user"].clone()
}

#[tokio::test]
async fn social_sign_in_is_off_until_configured() {
    let shop = TestShop::open().await;
    let (status, _, body) = shop.get("/api/auth/social").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["providers"], json!([]));
    for path in [
        "/api/auth/social/google/redirect",
        "/api/auth/social/facebook/redirect",
        "/api/auth/social/google/callback?code=x&state=y",
        "/api/auth/social/facebook/callback?code=x&state=y",
    ] {
        let (status, headers, body) = shop.get(path).await;
        assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
        assert!(
            body["message"].as_str().unwrap().contains("not offered"),
            "{path}: {body}"
        );
    }
    // The document says so, and that the routes otherwise send the browser on.
    let (_, _, doc) = shop.get("/api/openapi.json").await;
    for provider in ["google", "facebook"] {
        for step in ["redirect", "callback"] {
            let path = format!("/api/auth/social/{provider}/{step}");
            let responses = &doc["paths"][&path]["get"]["responses"];
            assert!(responses["404"].is_object(), "{path}");
            assert_eq!(responses["303"]["headers"]["Location"]["required"], true);
            assert!(responses.get("200").is_none(), "{path}");
        }
    }
    // The redemption is documented with its body and its answers.
    let redeem = &doc["paths"]["/api/auth/social/redeem"]["post"];
    let body = &redeem["requestBody"]["content"]["application/json"]["schema"]["$ref"];
    assert_eq!(body, "#/components/schemas/RedeemBody", "{redeem}");
    let ok = &redeem["responses"]["200"]["content"]["application/json"]["schema"]["$ref"];
    assert_eq!(ok, "#/components/schemas/RedeemResponse", "{redeem}");
    for status in ["400", "409"] {
        assert!(
            redeem["responses"][status].is_object(),
            "{status}: {redeem}"
        );
    }
    let answer = &doc["components"]["schemas"]["RedeemResponse"]["anyOf"];
    assert_eq!(answer.as_array().map(Vec::len), Some(2), "{answer}");
}

#[tokio::test]
async fn the_redirect_carries_the_client_and_a_state_bound_to_an_http_only_cookie() {
    let (shop, _sim) = shop_with_providers().await;
    let (_, _, body) = shop.get("/api/auth/social").await;
    assert_eq!(body["providers"], json!(["google", "facebook"]));
    let (status, headers, _) = shop.get("/api/auth/social/google/redirect").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers["cache-control"], "private, no-store");
    let cookie = headers["set-cookie"].to_str().unwrap();
    for attribute in [
        "HttpOnly",
        "SameSite=Lax",
        "Secure",
        "Path=/api/auth/social",
    ] {
        assert!(cookie.contains(attribute), "{cookie} lacks {attribute}");
    }
    let state = cookie
        .split(';')
        .next()
        .unwrap()
        .strip_prefix("social_state=")
        .unwrap();
    assert!(state.starts_with("google.") && state.len() > 64, "{state}");
    let location = reqwest::Url::parse(headers["location"].to_str().unwrap()).unwrap();
    let q: HashMap<_, _> = location.query_pairs().into_owned().collect();
    assert_eq!(q["client_id"], CLIENT_ID);
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["scope"], "openid email profile");
    assert_eq!(q["state"], state);
    assert_eq!(
        q["redirect_uri"],
        "https://shop.example/api/auth/social/google/callback"
    );
    assert!(!location.as_str().contains(CLIENT_SECRET));
    // Each start gets its own state.
    let (_, again, _) = shop.get("/api/auth/social/google/redirect").await;
    assert_ne!(again["set-cookie"], headers["set-cookie"]);
}

#[tokio::test]
async fn google_creates_an_account_once_then_finds_it_and_brings_the_guest_lists() {
    let (shop, sim) = shop_with_providers().await;
    person(
        &sim,
        "rahim",
        json!({"sub": "g-1001", "name": "Rahim Uddin", "email": "Rahim.Social@Example.test", "email_verified": true}),
    );
    let pid = shop
        .scalar_i64("SELECT id FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1")
        .await;
    let (status, _, body) = shop
        .guest_get(GUEST, &format!("/api/common/add-to-compare?pid={pid}"))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let Ended::Token(token) = sign_in(&shop, "google", "rahim").await else {
        panic!("not signed in");
    };
    let user = me(&shop, &token).await;
    assert_eq!(user["email"], "rahim.social@example.test");
    assert_eq!(user["name"], "Rahim Uddin");
    let id = user["id"].as_i64().unwrap();
    let (sub, hash): (String, Option<String>) =
        db::query_as("SELECT google_sub, password_hash FROM app_user WHERE id = $1")
            .bind(id)
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!(sub, "g-1001");
    assert_eq!(hash, None, "a social account has no password");
    // The token is stored hashed, never as given.
    let stored = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM auth_token WHERE user_id = {id} AND token_hash = '{}'",
            origin::domain::identity::hash_token(&token)
        ))
        .await;
    assert_eq!(stored, 1);
    assert_eq!(
        shop.scalar_i64(&format!(
            "SELECT COUNT(*) FROM auth_token WHERE token_hash = '{token}'"
        ))
        .await,
        0
    );
    // The guest's compare list came along.
    let auth = format!("Bearer {token}");
    let (_, _, compare) = shop
        .request(
            "GET",
            "/api/common/compare",
            &[("authorization", &auth)],
            None,
        )
        .await;
    let ids: Vec<i64> = compare["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![pid], "{compare}");
    assert_eq!(
        shop.scalar_i64(&format!(
            "SELECT COUNT(*) FROM compare_item WHERE self_token = '{GUEST}'"
        ))
        .await,
        0
    );

    // Again: the same account, a new token.
    let Ended::Token(second) = sign_in(&shop, "google", "rahim").await else {
        panic!("not signed in the second time");
    };
    assert_ne!(second, token);
    assert_eq!(me(&shop, &second).await["id"].as_i64(), Some(id));
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM app_user WHERE email = 'rahim.social@example.test'")
            .await,
        1
    );

    // No password opens a social-only account.
    let (status, _, body) = shop
        .post_json(
            "/api/auth/login",
            &json!({"email": "rahim.social@example.test", "password": "anything-at-all"}),
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
}

#[tokio::test]
async fn only_a_verified_email_links_an_existing_account() {
    let (shop, sim) = shop_with_providers().await;
    let (status, _, body) = shop
        .post_json(
            "/api/auth/register",
            &json!({"name": "Karim", "email": "karim.social@example.test", "password": "a-good-password",
                    "password_confirmation": "a-good-password", "agree": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let id = body["user"]["id"].as_i64().unwrap();

    // Facebook does not vouch for the address: the account stays closed to
    // it, and only its password would link it.
    person(
        &sim,
        "karim-fb",
        json!({"id": "fb-77", "name": "Karim", "email": "karim.social@example.test"}),
    );
    let Ended::Link(_, provider) = sign_in(&shop, "facebook", "karim-fb").await else {
        panic!("an unverified e-mail opened an account");
    };
    assert_eq!(provider, "facebook");
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM app_user WHERE facebook_id IS NOT NULL")
            .await,
        0
    );

    // Google does, per address; even so the account is linked only with its
    // password (a Google account made with Karim's address, or a takeover
    // of his mailbox, does not open his shop account by itself).
    person(
        &sim,
        "karim-g",
        json!({"sub": "g-77", "name": "Karim", "email": "karim.social@example.test", "email_verified": true}),
    );
    let Ended::Link(ticket, provider) = sign_in(&shop, "google", "karim-g").await else {
        panic!("a verified e-mail was linked without the password");
    };
    assert_eq!(provider, "google");
    let linked = "SELECT COUNT(*) FROM app_user WHERE google_sub IS NOT NULL";
    assert_eq!(shop.scalar_i64(linked).await, 0, "nothing linked yet");
    let at = &shop;
    let link = |ticket: &str, password: &str| {
        let body = json!({ "ticket": ticket, "password": password });
        async move {
            at.request(
                "POST",
                "/api/auth/social/link",
                &[("SELF-TOKEN", GUEST), ("x-forwarded-for", "198.51.100.40")],
                Some(&body),
            )
            .await
        }
    };
    // A wrong password is named, links nothing, and counts as a failed sign-in.
    let (status, headers, body) = link(&ticket, "not-his-password").await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["password"].is_array(), "{body}");
    assert_eq!(shop.scalar_i64(linked).await, 0);
    assert_eq!(
        shop.scalar_i64(&format!(
            "SELECT failures FROM throttle WHERE key = 'login-user:{id}'"
        ))
        .await,
        1
    );
    // An unknown ticket is named.
    let (status, headers, body) = link(&random(), "a-good-password").await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["ticket"].is_array(), "{body}");
    // The right password links Google and signs in, once.
    let (status, _, body) = link(&ticket, "a-good-password").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["id"].as_i64(), Some(id));
    let token = body["token"].as_str().unwrap().to_string();
    assert_eq!(me(&shop, &token).await["id"].as_i64(), Some(id));
    assert_eq!(shop.scalar_i64(linked).await, 1);
    let (status, headers, body) = link(&ticket, "a-good-password").await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(
        body["errors"]["ticket"].is_array(),
        "a ticket works once: {body}"
    );
    // From then on Google signs Karim in directly, and the password still works.
    let Ended::Token(token) = sign_in(&shop, "google", "karim-g").await else {
        panic!("a linked Google account did not sign in");
    };
    assert_eq!(me(&shop, &token).await["id"].as_i64(), Some(id));
    let (status, _, _) = shop
        .post_json(
            "/api/auth/login",
            &json!({"email": "karim.social@example.test", "password": "a-good-password"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);

    // A Google person with an unverified address gets no account of someone else's.
    person(
        &sim,
        "mallory",
        json!({"sub": "g-666", "email": "karim.social@example.test", "email_verified": false}),
    );
    assert!(matches!(
        sign_in(&shop, "google", "mallory").await,
        Ended::Error(_)
    ));

    // Facebook without any e-mail address cannot make an account.
    person(&sim, "nomail", json!({"id": "fb-88", "name": "No Mail"}));
    let Ended::Error(message) = sign_in(&shop, "facebook", "nomail").await else {
        panic!("an account without e-mail or mobile");
    };
    assert!(message.contains("e-mail"), "{message}");

    // Facebook with a new address it does not vouch for makes no account
    // (whoever made it need not own the mailbox, whose owner could later
    // reset the password while the maker's Facebook still signed in).
    person(
        &sim,
        "nadia",
        json!({"id": "fb-99", "name": "Nadia", "email": "nadia.social@example.test"}),
    );
    let Ended::Error(message) = sign_in(&shop, "facebook", "nadia").await else {
        panic!("an account made with an address nobody vouched for");
    };
    assert!(message.contains("register with your e-mail"), "{message}");
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM app_user WHERE email = 'nadia.social@example.test'")
            .await,
        0
    );
}

#[tokio::test]
async fn a_callback_without_its_state_cookie_or_with_a_bad_code_signs_nobody_in() {
    let (shop, sim) = shop_with_providers().await;
    person(
        &sim,
        "rina",
        json!({"sub": "g-5", "email": "rina.social@example.test", "email_verified": true}),
    );
    let tokens = || shop.scalar_i64("SELECT COUNT(*) FROM auth_token");
    let before = tokens().await;

    // A state that is not this browser's (login CSRF): refused before the provider is asked.
    let (_, headers, _) = shop.get("/api/auth/social/google/redirect").await;
    let consent = headers["location"].to_str().unwrap();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let back = client
        .get(format!("{consent}&person=rina"))
        .send()
        .await
        .unwrap();
    let callback = back.headers()["location"].to_str().unwrap().to_string();
    let path = callback.strip_prefix("https://shop.example").unwrap();
    for cookies in ["", "social_state=google.someone-elses-state"] {
        let Back::Error(message) = callback_with(&shop, path, cookies).await else {
            panic!("signed in without the state cookie ({cookies})");
        };
        assert!(message.contains("expired"), "{message}");
    }
    assert_eq!(sim.lock().unwrap().token_calls, 0);

    // A Google state does not finish a Facebook sign-in.
    let state = headers["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap();
    let fb_path = path.replace("/google/", "/facebook/");
    assert!(matches!(
        callback_with(&shop, &fb_path, state).await,
        Back::Error(_)
    ));

    // A made-up code: the provider refuses it, so do we.
    let query: HashMap<_, _> = reqwest::Url::parse(&callback)
        .unwrap()
        .query_pairs()
        .into_owned()
        .collect();
    let forged = format!(
        "/api/auth/social/google/callback?code=forged&state={}",
        query["state"]
    );
    let Back::Error(message) = callback_with(&shop, &forged, state).await else {
        panic!("a forged code signed someone in");
    };
    assert!(message.contains("did not confirm"), "{message}");

    // The shopper said no at the provider.
    let declined = format!(
        "/api/auth/social/google/callback?error=access_denied&state={}",
        query["state"]
    );
    let Back::Error(message) = callback_with(&shop, &declined, state).await else {
        panic!("declined yet signed in");
    };
    assert!(message.contains("cancelled"), "{message}");

    // The real code still works once, with the right cookie; a replay does not.
    let Back::Code(code, bind) = callback_with(&shop, path, state).await else {
        panic!("the real code did not sign in");
    };
    assert!(matches!(
        callback_with(&shop, path, state).await,
        Back::Error(_)
    ));
    assert_eq!(tokens().await, before, "no token before the page redeems");
    let (status, _, body) = redeem(&shop, &code, &bind).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(tokens().await, before + 1);

    // Missing parameters are a clear 400.
    let (status, headers, body) = shop
        .request(
            "GET",
            "/api/auth/social/google/callback?state=x",
            &[("cookie", state)],
            None,
        )
        .await;
    assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
    assert!(body["errors"]["code"].is_array(), "{body}");
}

#[tokio::test]
async fn a_code_signs_in_once_and_only_in_the_browser_that_came_back() {
    let (shop, sim) = shop_with_providers().await;
    person(
        &sim,
        "sara",
        json!({"sub": "g-31", "name": "Sara", "email": "sara.social@example.test", "email_verified": true}),
    );
    person(
        &sim,
        "mallory",
        json!({"sub": "g-32", "name": "Mallory", "email": "mallory.social@example.test", "email_verified": true}),
    );
    let tokens = || shop.scalar_i64("SELECT COUNT(*) FROM auth_token");
    let before = tokens().await;

    // Sara's browser comes back with a code and its cookie; no token exists yet.
    let Back::Code(code, bind) = come_back(&shop, "google", "sara").await else {
        panic!("no code");
    };
    assert_eq!(tokens().await, before);
    // Only hashes of the code and the cookie are kept.
    let hash = origin::domain::identity::hash_token;
    let cookie_value = bind.strip_prefix("social_bind=").unwrap();
    assert_eq!(
        shop.scalar_i64(&format!(
            "SELECT COUNT(*) FROM social_code WHERE code_hash = '{}' AND browser_hash = '{}'",
            hash(&code),
            hash(cookie_value)
        ))
        .await,
        1
    );
    assert_eq!(
        shop.scalar_i64(&format!(
            "SELECT COUNT(*) FROM social_code WHERE code_hash = '{code}' OR browser_hash = '{cookie_value}'"
        ))
        .await,
        0
    );

    // Mallory signs in with his own Google account in his own browser.
    let Back::Code(mallory_code, mallory_bind) = come_back(&shop, "google", "mallory").await else {
        panic!("no code for mallory");
    };

    // Sara's code without her cookie, or with another browser's: refused.
    for cookie in [
        "",
        mallory_bind.as_str(),
        "social_bind=",
        "social_bind=made-up",
        "social_state=x",
    ] {
        let (status, headers, body) = redeem(&shop, &code, cookie).await;
        assert_api_error(status, &headers, &body, StatusCode::FORBIDDEN);
        assert!(body.get("token").is_none(), "{body}");
    }
    // Mallory's code in Sara's browser (a link to /user/login#social_code=...,
    // the login CSRF): refused, so Sara is not signed into Mallory's account.
    let (status, headers, body) = redeem(&shop, &mallory_code, &bind).await;
    assert_api_error(status, &headers, &body, StatusCode::FORBIDDEN);
    // A code not made here, and bodies without one.
    let (status, headers, body) = redeem(&shop, &random(), &bind).await;
    assert_api_error(status, &headers, &body, StatusCode::FORBIDDEN);
    for bad in [
        json!({}),
        json!({"code": "  "}),
        json!({"code": "x".repeat(201)}),
    ] {
        let (status, headers, body) = shop
            .request(
                "POST",
                "/api/auth/social/redeem",
                &[("cookie", &bind)],
                Some(&bad),
            )
            .await;
        assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
        assert!(body["errors"]["code"].is_array(), "{bad}: {body}");
    }
    assert_eq!(tokens().await, before, "nobody signed in");

    // With her own cookie Sara's code signs Sara in, once.
    let (status, headers, body) = redeem(&shop, &code, &bind).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(headers["cache-control"], "private, no-store");
    assert_eq!(body["user"]["email"], "sara.social@example.test");
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["message"], "You are signed in.");
    let token = body["token"].as_str().unwrap();
    assert_eq!(me(&shop, token).await["email"], "sara.social@example.test");
    let (status, headers, body) = redeem(&shop, &code, &bind).await;
    assert_api_error(status, &headers, &body, StatusCode::FORBIDDEN);
    assert!(body.get("token").is_none(), "a code works once: {body}");

    // The refused tries did not use Mallory's code up: it works in his browser.
    let (status, _, body) = redeem(&shop, &mallory_code, &mallory_bind).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["email"], "mallory.social@example.test");
    assert_eq!(tokens().await, before + 2);
}

#[tokio::test]
async fn an_expired_code_or_a_closed_account_signs_nobody_in() {
    let (shop, sim) = shop_with_providers().await;
    person(
        &sim,
        "tariq",
        json!({"sub": "g-41", "name": "Tariq", "email": "tariq.social@example.test", "email_verified": true}),
    );
    let tokens = || shop.scalar_i64("SELECT COUNT(*) FROM auth_token");
    let before = tokens().await;

    // Two minutes pass before the page redeems the code.
    let Back::Code(code, bind) = come_back(&shop, "google", "tariq").await else {
        panic!("no code");
    };
    db::query("UPDATE social_code SET expires_at = expires_at - 121")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (status, headers, body) = redeem(&shop, &code, &bind).await;
    assert_api_error(status, &headers, &body, StatusCode::FORBIDDEN);
    assert!(
        body["message"].as_str().unwrap().contains("expired"),
        "{body}"
    );
    assert_eq!(tokens().await, before);

    // The account is closed between the callback and the redemption.
    let Back::Code(code, bind) = come_back(&shop, "google", "tariq").await else {
        panic!("no code");
    };
    db::query("UPDATE app_user SET is_active = FALSE WHERE email = 'tariq.social@example.test'")
        .execute(&shop.state.pool)
        .await
        .unwrap();
    let (status, headers, body) = redeem(&shop, &code, &bind).await;
    assert_api_error(status, &headers, &body, StatusCode::CONFLICT);
    assert_eq!(body["message"], "This account is closed.");
    assert_eq!(tokens().await, before);
}

#[tokio::test]
async fn a_link_code_gives_its_ticket_only_to_its_browser() {
    let (shop, sim) = shop_with_providers().await;
    let (status, _, body) = shop
        .post_json(
            "/api/auth/register",
            &json!({"name": "Lina", "email": "lina.social@example.test", "password": "a-good-password",
                    "password_confirmation": "a-good-password", "agree": true}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    person(
        &sim,
        "lina",
        json!({"sub": "g-51", "name": "Lina", "email": "lina.social@example.test", "email_verified": true}),
    );
    let Back::Code(code, bind) = come_back(&shop, "google", "lina").await else {
        panic!("no code");
    };
    // No ticket exists until the page redeems the code in its own browser.
    let tickets = || shop.scalar_i64("SELECT COUNT(*) FROM social_link");
    assert_eq!(tickets().await, 0);
    let (status, headers, body) = redeem(&shop, &code, "social_bind=someone-else").await;
    assert_api_error(status, &headers, &body, StatusCode::FORBIDDEN);
    assert_eq!(tickets().await, 0);
    let (status, _, body) = redeem(&shop, &code, &bind).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["success"], true);
    assert_eq!(body["link"]["provider"], "google");
    assert!(body.get("token").is_none(), "{body}");
    assert_eq!(tickets().await, 1);
    let ticket = body["link"]["ticket"].as_str().unwrap();
    // The ticket links with the password, as before.
    let (status, _, body) = shop
        .post_json(
            "/api/auth/social/link",
            &json!({"ticket": ticket, "password": "a-good-password"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["email"], "lina.social@example.test");
    // The code is used up.
    let (status, headers, body) = redeem(&shop, &code, &bind).await;
    assert_api_error(status, &headers, &body, StatusCode::FORBIDDEN);
}

/// The tester's pre-account takeover: an account made by a Facebook sign-in
/// with someone else's address (as this shop did before it stopped making
/// them) keeps no Facebook link once the address's owner resets its
/// password, and the owner is told.
#[tokio::test]
async fn a_reset_unlinks_a_facebook_that_made_the_account_and_tells_the_owner() {
    let (shop, sim) = shop_with_providers().await;
    db::query(
        "INSERT INTO app_user (name, email, facebook_id) VALUES ('Mallory', 'owner.social@example.test', 'fb-666')",
    )
    .execute(&shop.state.pool)
    .await
    .unwrap();
    person(
        &sim,
        "mallory-fb",
        json!({"id": "fb-666", "name": "Mallory", "email": "owner.social@example.test"}),
    );
    assert!(matches!(
        sign_in(&shop, "facebook", "mallory-fb").await,
        Ended::Token(_)
    ));
    // The address's owner resets the password.
    let (status, _, _) = shop
        .post_json(
            "/api/user/forgot-password-send-link",
            &json!({ "email": "owner.social@example.test" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let token = common::reset_token(&shop);
    let (status, _, body) = shop
        .post_json(
            "/api/user/reset-password",
            &json!({"token": token, "email": "owner.social@example.test",
                    "password": "the-owners-own-1", "password_confirmation": "the-owners-own-1"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        shop.scalar_i64("SELECT COUNT(*) FROM app_user WHERE facebook_id IS NOT NULL")
            .await,
        0
    );
    let told = common::outbox(&shop);
    let changed = told
        .iter()
        .find(|m| m.contains("Subject: Your password was changed"))
        .expect("the owner is told");
    assert!(changed.contains("We unlinked Facebook"), "{changed}");
    // Mallory's Facebook now needs the owner's password.
    assert!(matches!(
        sign_in(&shop, "facebook", "mallory-fb").await,
        Ended::Link(_, _)
    ));
}
