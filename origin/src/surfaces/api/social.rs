//! Social sign-in routes, merged into `/api/auth` ([`crate::domain::social`] does the
//! protocol):
//! - `GET social`: which providers are on;
//! - `GET social/{google,facebook}/redirect`: sends the browser to the
//!   provider, with a random `state` that is also kept in a short-lived
//!   HttpOnly cookie (so a callback started elsewhere is refused);
//! - `GET social/{google,facebook}/callback`: the provider's return. It
//!   signs the shopper in, merges the guest's cart and lists (the guest is
//!   known by the `self_token` cookie, as a browser navigation carries no
//!   SELF-TOKEN header), and sends the browser to `/user/login` with
//!   `#social_token=<token>` or `#social_error=<message>` in the fragment,
//!   which browsers never send to a server. When the provider vouches for
//!   the e-mail of an account it is not linked to, the fragment is
//!   `#social_link=<ticket>&provider=<name>` instead: nothing is linked yet;
//! - `POST social/link` with `{ticket, password}`: the account's password
//!   (checked and throttled as at `login`) links the provider and signs in.
//!
//! A provider that is not configured answers 404. The document shows the
//! redirects as what they are: a 303 with a `Location`, no body.

use axum::extract::State;
use axum::http::header::{REFERRER_POLICY, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::clock;
use catalog::surrogate::SurrogateKey;

use crate::domain::accounts;
use crate::domain::identity::{new_token, valid_self_token, Caller};
use crate::domain::social::{self, Ended, LinkRefused, Provider, ProviderKind};
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{cookie, Json as Body, Query};
use crate::plumbing::params::{blank_is_none, Text};
use crate::state::AppState;
use crate::surfaces::api::auth::{self, Checked, SignedInResponse};
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// The cookie holding the `state` of a sign-in under way.
pub const STATE_COOKIE: &str = "social_state";
/// How long a sign-in may take at the provider, seconds.
const STATE_MAX_AGE: i64 = 600;
/// The guest's identity in the browser (web/src/lib/api.ts).
const SELF_TOKEN_COOKIE: &str = "self_token";

/// Routes merged into `/api/auth`.
pub fn router() -> ApiRouter {
    let not_configured = "This shop does not offer that provider";
    let redirect = |summary| {
        Doc::visitor(summary)
            .self_token_optional()
            .redirects(
                303,
                "To the provider's consent page, with a fresh `social_state` cookie (Set-Cookie)",
            )
            .answers(404, not_configured)
    };
    let callback = |summary| {
        Doc::visitor(summary)
            .self_token_optional()
            .redirects(
                303,
                "To /user/login#social_token=<token>, or #social_link=<ticket>&provider=<name> \
                 when the provider's verified e-mail belongs to an account it is not linked to \
                 (POST social/link with the account's password links it), or \
                 #social_error=<reason> when the sign-in was declined, expired, started \
                 elsewhere or refused; the `social_state` cookie is cleared (Set-Cookie)",
            )
            .answers(404, not_configured)
    };
    ApiRouter::new()
        .get(
            "/social",
            get_providers,
            Doc::public("The social sign-in providers this shop offers: {success, providers}"),
        )
        .get(
            "/social/google/redirect",
            google_redirect,
            redirect("Sends the browser to Google's consent page (404 when not configured)"),
        )
        .get(
            "/social/google/callback",
            google_callback,
            callback("Google's return: signs in, then to /user/login#social_token=..."),
        )
        .get(
            "/social/facebook/redirect",
            facebook_redirect,
            redirect("Sends the browser to Facebook's consent page (404 when not configured)"),
        )
        .get(
            "/social/facebook/callback",
            facebook_callback,
            callback("Facebook's return: signs in, then to /user/login#social_token=..."),
        )
        .post(
            "/social/link",
            post_link,
            Doc::visitor(
                "Links a social sign-in to the account its e-mail belongs to, with that \
                 account's password (the ticket of a #social_link callback), and signs in: \
                 {success, token, token_type, expires_in, user}",
            )
            .self_token_optional()
            .answers(
                409,
                "The provider's person was linked to another account meanwhile, or the account is closed",
            )
            .answers(
                429,
                "Too many wrong passwords for this account or client address: wait Retry-After seconds",
            ),
        )
}

/// The answer of `GET /api/auth/social`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProvidersResponse {
    pub success: bool,
    /// The providers configured: `google`, `facebook`, both or none.
    pub providers: Vec<&'static str>,
}

/// `GET /api/auth/social`: `{success, providers: ["google", ...]}`. The same for
/// everyone; the edge keeps it only a minute, since it follows the origin's
/// settings, which no purge announces.
async fn get_providers(State(state): State<AppState>) -> Shared<ProvidersResponse> {
    let body = ProvidersResponse {
        success: true,
        providers: state.social.enabled(),
    };
    Shared::new(body, [SurrogateKey::Setting.to_string()]).brief(PROVIDERS_EDGE_TTL)
}

/// How long the edge keeps the list of providers, seconds.
const PROVIDERS_EDGE_TTL: i64 = 60;

async fn google_redirect(State(state): State<AppState>) -> ApiResult<Response> {
    start(&state, ProviderKind::Google)
}

async fn facebook_redirect(State(state): State<AppState>) -> ApiResult<Response> {
    start(&state, ProviderKind::Facebook)
}

async fn google_callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> ApiResult<Response> {
    finish(&state, ProviderKind::Google, &headers, query).await
}

async fn facebook_callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> ApiResult<Response> {
    finish(&state, ProviderKind::Facebook, &headers, query).await
}

fn configured(state: &AppState, kind: ProviderKind) -> ApiResult<&Provider> {
    state.social.provider(kind).ok_or_else(|| {
        ApiError::not_found(format!(
            "Signing in with {} is not offered by this shop.",
            kind.label()
        ))
    })
}

/// The attributes of the state cookie; `Secure` when the shop is on HTTPS.
fn cookie_attributes(state: &AppState, max_age: i64) -> String {
    let secure = if state.site_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    format!("Path=/api/auth/social; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}")
}

fn start(state: &AppState, kind: ProviderKind) -> ApiResult<Response> {
    let provider = configured(state, kind)?;
    let (nonce, _) = new_token();
    let value = format!("{}.{nonce}", kind.name());
    let cookie = format!(
        "{STATE_COOKIE}={value}; {}",
        cookie_attributes(state, STATE_MAX_AGE)
    );
    let mut response = Redirect::to(&provider.authorize_url(&value)).into_response();
    response.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(|e| ApiError::Internal(e.into()))?,
    );
    Ok(response)
}

/// The query a provider sends the browser back with.
#[derive(Debug, Deserialize, JsonSchema)]
struct CallbackQuery {
    /// The authorization code (required unless `error` is set).
    #[serde(default, deserialize_with = "blank_is_none")]
    code: Option<Text<1, 2048>>,
    /// The state sent to the provider (required unless `error` is set).
    #[serde(default, deserialize_with = "blank_is_none")]
    state: Option<Text<1, 200>>,
    /// Set when the shopper declined at the provider.
    #[serde(default)]
    error: String,
}

async fn finish(
    state: &AppState,
    kind: ProviderKind,
    headers: &HeaderMap,
    query: CallbackQuery,
) -> ApiResult<Response> {
    let provider = configured(state, kind)?;
    let label = kind.label();
    if !query.error.is_empty() {
        return back(
            state,
            Err(format!("Signing in with {label} was cancelled.")),
        );
    }
    let Some(code) = query.code else {
        return Err(ApiError::invalid(
            "code",
            format!("The code from {label} is missing."),
        ));
    };
    let Some(sent_state) = query.state else {
        return Err(ApiError::invalid(
            "state",
            format!("The state from {label} is missing."),
        ));
    };
    // The state names its provider, and must be this browser's.
    if !sent_state.starts_with(&format!("{}.", kind.name()))
        || cookie(headers, STATE_COOKIE) != Some(sent_state.as_str())
    {
        return back(
            state,
            Err(format!(
                "That sign-in with {label} expired or was started elsewhere. Please try again."
            )),
        );
    }
    let profile = match state.social.profile(provider, code.as_str()).await {
        Ok(profile) => profile,
        Err(err) => {
            tracing::warn!(provider = kind.name(), cause = %format!("{err:#}"), "social sign-in failed");
            return back(
                state,
                Err(format!(
                    "{label} did not confirm your sign-in. Please try again."
                )),
            );
        }
    };
    let guest = cookie(headers, SELF_TOKEN_COOKIE).filter(|t| valid_self_token(t));
    let ended = social::sign_in(&state.pool, kind, &profile, guest, clock::now_unix()).await?;
    back(
        state,
        match ended {
            Ended::Token(token) => Ok(format!("social_token={token}")),
            Ended::Link(ticket) => Ok(format!("social_link={ticket}&provider={}", kind.name())),
            Ended::Refused(message) => Err(message),
        },
    )
}

/// The redirect to `/user/login` carrying the fragment (`social_token=...`
/// or `social_link=...`), or the reason as `social_error=...`; the state
/// cookie is cleared either way.
fn back(state: &AppState, result: Result<String, String>) -> ApiResult<Response> {
    let fragment = match result {
        Ok(fragment) => fragment,
        Err(message) => format!("social_error={}", percent_encode(&message)),
    };
    let mut response =
        Redirect::to(&format!("{}/user/login#{fragment}", state.site_url)).into_response();
    let clear = format!("{STATE_COOKIE}=; {}", cookie_attributes(state, 0));
    let headers = response.headers_mut();
    headers.insert(
        SET_COOKIE,
        HeaderValue::from_str(&clear).map_err(|e| ApiError::Internal(e.into()))?,
    );
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    Ok(response)
}

/// A social sign-in to link to an existing account.
#[derive(Debug, Deserialize, JsonSchema)]
struct LinkBody {
    /// The ticket of the callback's `#social_link=` fragment.
    #[schemars(required, length(min = 1, max = 200), pattern(r"\S"))]
    ticket: Option<String>,
    /// The password of the account the provider's e-mail belongs to.
    #[schemars(required, length(min = 1, max = 1024))]
    password: Option<String>,
}

/// `POST /api/auth/social/link` with `{ticket, password}`: the password of
/// the account the provider's verified e-mail belongs to links the provider
/// to it (once, within ten minutes of the callback) and signs in, merging
/// the guest's cart and lists as a sign-in does. A wrong password is a 400
/// naming `password` and counts on the account's and the address's sign-in
/// throttles; an unknown, used or expired ticket a 400 naming `ticket`.
async fn post_link(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    Body(body): Body<LinkBody>,
) -> ApiResult<Json<SignedInResponse>> {
    let ticket = body.ticket.unwrap_or_default();
    let password = body.password.unwrap_or_default();
    let invalid = || {
        ApiError::invalid(
            "ticket",
            "This link to your account is invalid, used or expired. Please sign in with the provider again.",
        )
    };
    if ticket.trim().is_empty() || ticket.len() > 200 {
        return Err(invalid());
    }
    if password.is_empty() || password.len() > 1024 {
        return Err(ApiError::invalid("password", "Enter your password."));
    }
    let now = clock::now_unix();
    let link = social::find_link(&state.pool, ticket.trim(), now)
        .await?
        .ok_or_else(invalid)?;
    let label = link.kind.label();
    match auth::check_password(&state, &headers, link.user, password).await? {
        Checked::Right => {}
        Checked::Wrong => return Err(ApiError::invalid("password", "The password is not right.")),
        Checked::NoPassword => {
            return Err(ApiError::invalid(
                "password",
                format!(
                    "This account has no password yet: choose one with 'Forgot password', \
                     then sign in with {label} again."
                ),
            ))
        }
    }
    let token =
        match social::complete_link(&state.pool, &link, caller.self_token.as_deref(), now).await? {
            Ok(token) => token,
            Err(LinkRefused::Used) => return Err(invalid()),
            Err(LinkRefused::Conflict(message)) => return Err(ApiError::Conflict(message)),
        };
    let user = accounts::user_any(&state.pool, link.user)
        .await?
        .ok_or_else(ApiError::unauthenticated)?;
    let message = match link.kind {
        ProviderKind::Google => "Google is linked to your account. You are signed in.",
        ProviderKind::Facebook => "Facebook is linked to your account. You are signed in.",
    };
    Ok(Json(auth::signed_in(message, token, user)))
}

/// Percent-encodes everything but ASCII letters, digits and `-._~`.
fn percent_encode(text: &str) -> String {
    use std::fmt::Write;
    text.bytes().fold(String::new(), |mut out, b| {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_percent_encoded_for_the_fragment() {
        assert_eq!(percent_encode("Try again; ok?"), "Try%20again%3B%20ok%3F");
        assert_eq!(percent_encode("a-b_c.d~"), "a-b_c.d~");
    }
}
