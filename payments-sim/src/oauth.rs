//! Simulated Google and Facebook sign-in: OAuth 2.0's authorization-code
//! flow in the shape of each provider's published endpoints (the shop's
//! GOOGLE_* and FACEBOOK_* AUTH_URL, TOKEN_URL and USERINFO_URL), for
//! browser tests and `scripts/run`. No real account is involved: the consent
//! page says so and lets the tester type the person who signs in.
//! `{p}` is `google` or `facebook`:
//!
//! - `GET /sim/{p}/auth?response_type=code&client_id&redirect_uri&scope&state`:
//!   the consent page (e-mail, name, and for Google whether it has verified
//!   the e-mail; Facebook makes no such promise);
//! - `POST /sim/{p}/consent`: Allow sends the browser to
//!   `redirect_uri?code=...&state=...` with a single-use code (ten minutes);
//!   Cancel to `redirect_uri?error=access_denied&state=...`;
//! - `POST /sim/{p}/token` (form: grant_type=authorization_code, code,
//!   client_id, client_secret, redirect_uri, the redirect_uri the code was
//!   issued for): `{access_token, token_type, expires_in}`, or 400
//!   `{"error": "invalid_grant"}` / 401 `{"error": "invalid_client"}`;
//! - `GET /sim/{p}/userinfo` with `Authorization: Bearer`: Google's OpenID
//!   Connect `{sub, email, email_verified, name}`, or Facebook's Graph
//!   `me?fields=id,name,email` `{id, name, email}` (400 without those
//!   fields); the id is the same for the same e-mail, as an account's is.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::common::{escape, hosted_page, Brand};

/// The Google client id the simulator accepts.
pub const CLIENT_ID: &str = "sim-google-client.apps.example";
/// The Google client secret the simulator accepts.
pub const CLIENT_SECRET: &str = "sim-google-secret-7Hq2";
/// The Facebook app id the simulator accepts.
pub const FACEBOOK_CLIENT_ID: &str = "1700000000000042";
/// The Facebook app secret the simulator accepts.
pub const FACEBOOK_CLIENT_SECRET: &str = "sim-facebook-secret-9Kd4";

/// How long a code may wait for the token request.
const CODE_LIFETIME: Duration = Duration::from_secs(600);

/// A simulated provider.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Google,
    Facebook,
}

impl Kind {
    fn from_path(name: &str) -> Option<Kind> {
        match name {
            "google" => Some(Kind::Google),
            "facebook" => Some(Kind::Facebook),
            _ => None,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Kind::Google => "google",
            Kind::Facebook => "facebook",
        }
    }
    fn client(self) -> (&'static str, &'static str) {
        match self {
            Kind::Google => (CLIENT_ID, CLIENT_SECRET),
            Kind::Facebook => (FACEBOOK_CLIENT_ID, FACEBOOK_CLIENT_SECRET),
        }
    }
    fn brand(self) -> &'static Brand {
        const GOOGLE: Brand = Brand {
            label: "Simulated Google sign-in",
            note: " — no real Google account",
            colour: "#1a73e8",
        };
        const FACEBOOK: Brand = Brand {
            label: "Simulated Facebook login",
            note: " — no real Facebook account",
            colour: "#1877f2",
        };
        match self {
            Kind::Google => &GOOGLE,
            Kind::Facebook => &FACEBOOK,
        }
    }
    fn title(self) -> &'static str {
        match self {
            Kind::Google => "Sign in with Google",
            Kind::Facebook => "Log in with Facebook",
        }
    }
}

/// Who consented, as the user-info endpoint describes them.
#[derive(Clone)]
struct Person {
    kind: Kind,
    email: String,
    name: String,
    verified: bool,
}

#[derive(Default)]
struct Sim {
    /// code → (person, redirect_uri, issued at)
    codes: HashMap<String, (Person, String, Instant)>,
    /// access token → person
    tokens: HashMap<String, Person>,
}

type Shared = Arc<Mutex<Sim>>;

/// The simulated providers' routes, under `/sim/google/` and `/sim/facebook/`.
pub fn router() -> Router {
    Router::new()
        .route("/sim/{provider}/auth", get(authorize))
        .route("/sim/{provider}/consent", post(consent))
        .route("/sim/{provider}/token", post(token))
        .route("/sim/{provider}/userinfo", get(userinfo))
        .with_state(Shared::default())
}

/// The shop's settings pointing its Google and Facebook sign-in at a simulator on `base`.
pub fn shop_env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("GOOGLE_CLIENT_ID", CLIENT_ID.to_string()),
        ("GOOGLE_CLIENT_SECRET", CLIENT_SECRET.to_string()),
        ("GOOGLE_AUTH_URL", format!("{base}/sim/google/auth")),
        ("GOOGLE_TOKEN_URL", format!("{base}/sim/google/token")),
        ("GOOGLE_USERINFO_URL", format!("{base}/sim/google/userinfo")),
        ("FACEBOOK_CLIENT_ID", FACEBOOK_CLIENT_ID.to_string()),
        ("FACEBOOK_CLIENT_SECRET", FACEBOOK_CLIENT_SECRET.to_string()),
        ("FACEBOOK_AUTH_URL", format!("{base}/sim/facebook/auth")),
        ("FACEBOOK_TOKEN_URL", format!("{base}/sim/facebook/token")),
        (
            "FACEBOOK_USERINFO_URL",
            format!("{base}/sim/facebook/userinfo"),
        ),
    ]
}

fn random_word() -> String {
    use rand::Rng;
    let bytes: [u8; 24] = rand::thread_rng().gen();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Percent-encodes all but ASCII letters, digits and `-._~`.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `redirect_uri` with the query pairs added.
fn back_to(redirect_uri: &str, pairs: &[(&str, &str)]) -> Response {
    let mut url = redirect_uri.to_string();
    for (i, (k, v)) in pairs.iter().enumerate() {
        let sep = if i == 0 && !redirect_uri.contains('?') {
            '?'
        } else {
            '&'
        };
        url.push_str(&format!("{sep}{k}={}", encode(v)));
    }
    Redirect::to(&url).into_response()
}

fn field<'a>(q: &'a HashMap<String, String>, name: &str) -> &'a str {
    q.get(name).map(String::as_str).unwrap_or_default()
}

fn bad_request(kind: Kind, what: &str) -> Response {
    let page = hosted_page(
        kind.brand(),
        "Error 400: invalid_request",
        &format!("<p>{}</p>", escape(what)),
    );
    (StatusCode::BAD_REQUEST, page).into_response()
}

/// A redirect address the simulator sends codes to: http(s), no fragment.
fn valid_redirect(uri: &str) -> bool {
    (uri.starts_with("http://") || uri.starts_with("https://")) && !uri.contains('#')
}

fn unknown_provider() -> Response {
    (StatusCode::NOT_FOUND, "no such simulated provider").into_response()
}

/// `GET /sim/{p}/auth`: the consent page.
async fn authorize(
    Path(provider): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let Some(kind) = Kind::from_path(&provider) else {
        return unknown_provider();
    };
    if field(&q, "client_id") != kind.client().0 {
        return bad_request(kind, "The OAuth client was not found (client_id).");
    }
    if field(&q, "response_type") != "code" {
        return bad_request(kind, "Only response_type=code is supported.");
    }
    let redirect = field(&q, "redirect_uri");
    if !valid_redirect(redirect) {
        return bad_request(kind, "redirect_uri is missing or not an http(s) address.");
    }
    if !field(&q, "scope").split([' ', ',']).any(|s| s == "email") {
        return bad_request(kind, "The scope must include email.");
    }
    let hidden = |name: &str| {
        format!(
            "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
            escape(field(&q, name))
        )
    };
    let verified = if kind == Kind::Google {
        "<p><label><input name=\"verified\" type=\"checkbox\" value=\"true\" checked> \
         Google has verified this e-mail</label></p>"
    } else {
        ""
    };
    let body = format!(
        "<p>The shop asks to know your name and e-mail address.</p>\
         <form method=\"post\" action=\"/sim/{}/consent\">{}{}\
         <p><label>E-mail <input name=\"email\" type=\"email\" value=\"shopper@example.com\" required></label></p>\
         <p><label>Name <input name=\"name\" value=\"Sim Shopper\"></label></p>{verified}\
         <button name=\"choice\" value=\"allow\">Allow</button>\
         <button name=\"choice\" value=\"deny\" formnovalidate>Cancel</button></form>",
        kind.name(),
        hidden("redirect_uri"),
        hidden("state"),
    );
    hosted_page(kind.brand(), kind.title(), &body)
}

/// `POST /sim/{p}/consent`: back to the shop with a code, or with `error=access_denied`.
async fn consent(
    State(sim): State<Shared>,
    Path(provider): Path<String>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let Some(kind) = Kind::from_path(&provider) else {
        return unknown_provider();
    };
    let redirect = field(&f, "redirect_uri").to_string();
    if !valid_redirect(&redirect) {
        return bad_request(kind, "redirect_uri is missing or not an http(s) address.");
    }
    let state = field(&f, "state");
    if field(&f, "choice") != "allow" {
        return back_to(&redirect, &[("error", "access_denied"), ("state", state)]);
    }
    let email = field(&f, "email").trim().to_lowercase();
    if email.is_empty() || !email.contains('@') {
        return bad_request(kind, "Enter an e-mail address.");
    }
    let person = Person {
        kind,
        name: field(&f, "name").trim().to_string(),
        verified: kind == Kind::Google && field(&f, "verified") == "true",
        email,
    };
    let code = format!("4/{}", random_word());
    {
        let mut sim = sim.lock().unwrap_or_else(|e| e.into_inner());
        sim.codes
            .retain(|_, (_, _, at)| at.elapsed() < CODE_LIFETIME);
        sim.codes
            .insert(code.clone(), (person, redirect.clone(), Instant::now()));
    }
    back_to(&redirect, &[("code", &code), ("state", state)])
}

/// `POST /sim/{p}/token`: a code (once, for the provider and address it was issued to) for an access token.
async fn token(
    State(sim): State<Shared>,
    Path(provider): Path<String>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let Some(kind) = Kind::from_path(&provider) else {
        return unknown_provider();
    };
    let refuse =
        |status: StatusCode, error: &str| (status, Json(json!({ "error": error }))).into_response();
    let (id, secret) = kind.client();
    if field(&f, "client_id") != id || field(&f, "client_secret") != secret {
        return refuse(StatusCode::UNAUTHORIZED, "invalid_client");
    }
    if field(&f, "grant_type") != "authorization_code" {
        return refuse(StatusCode::BAD_REQUEST, "unsupported_grant_type");
    }
    let mut sim = sim.lock().unwrap_or_else(|e| e.into_inner());
    match sim.codes.remove(field(&f, "code")) {
        Some((person, redirect, at))
            if person.kind == kind
                && at.elapsed() < CODE_LIFETIME
                && redirect == field(&f, "redirect_uri") =>
        {
            let access = format!("ya29.{}", random_word());
            sim.tokens.insert(access.clone(), person);
            (
                [(header::CACHE_CONTROL, "no-store")],
                Json(json!({
                    "access_token": access,
                    "token_type": "Bearer",
                    "expires_in": 3599,
                })),
            )
                .into_response()
        }
        _ => refuse(StatusCode::BAD_REQUEST, "invalid_grant"),
    }
}

/// `GET /sim/{p}/userinfo`: the person the Bearer token was issued for.
async fn userinfo(
    State(sim): State<Shared>,
    Path(provider): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let Some(kind) = Kind::from_path(&provider) else {
        return unknown_provider();
    };
    if kind == Kind::Facebook && field(&q, "fields") != "id,name,email" {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": { "message": "Ask for fields=id,name,email" } })),
        )
            .into_response();
    }
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    let sim = sim.lock().unwrap_or_else(|e| e.into_inner());
    let Some(person) = sim.tokens.get(bearer).filter(|p| p.kind == kind) else {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({ "error": "invalid_token" })),
        )
            .into_response();
    };
    // A stable numeric id per provider and e-mail, as an account's is.
    let digest = Sha256::digest(format!("{}:{}", kind.name(), person.email).as_bytes());
    let sub: String = std::iter::once("1".to_string())
        .chain(digest.iter().take(10).map(|b| format!("{:02}", b % 100)))
        .collect();
    Json(match kind {
        Kind::Google => json!({
            "sub": sub,
            "email": person.email,
            "email_verified": person.verified,
            "name": person.name,
        }),
        Kind::Facebook => json!({ "id": sub, "name": person.name, "email": person.email }),
    })
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_go_back_percent_encoded() {
        assert_eq!(encode("google.a b/c"), "google.a%20b%2Fc");
        let r = back_to("http://shop/cb", &[("code", "4/x"), ("state", "s")]);
        assert_eq!(
            r.headers()[header::LOCATION],
            "http://shop/cb?code=4%2Fx&state=s"
        );
    }
}
