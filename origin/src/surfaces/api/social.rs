//! Social sign-in routes, merged into `/api/auth` ([`crate::domain::social`] does the
//! protocol):
//! - `GET social`: which providers are on;
//! - `GET social/{google,facebook}/redirect`: sends the browser to the
//!   provider, with a random `state` that is also kept in a short-lived
//!   HttpOnly cookie (so a callback started elsewhere is refused);
//! - `GET social/{google,facebook}/callback`: the provider's return. It
//!   finds or makes the shopper's account, merges the guest's cart and lists
//!   (the guest is known by the `self_token` cookie, as a browser navigation
//!   carries no SELF-TOKEN header), and sends the browser to `/user/login`
//!   with `#social_code=<code>` or `#social_error=<message>` in the fragment,
//!   setting a fresh HttpOnly `social_bind` cookie beside the code;
//! - `POST social/redeem` with `{code}`: the page redeems the code, once,
//!   within two minutes and only with that browser's `social_bind` cookie,
//!   for a sign-in (`{token, user, ...}`, as `login` answers) or, when the
//!   provider vouches for the e-mail of an account it is not linked to, for
//!   `{link: {ticket, provider}}`: nothing is linked yet;
//! - `POST social/link` with `{ticket, password}`: the account's password
//!   (checked and throttled as at `login`) links the provider and signs in.
//!
//! Neither a session token nor a link ticket is ever in an address: a link
//! to `/user/login#social_code=<someone else's code>` signs nobody in (login
//! CSRF), since the victim's browser lacks the cookie the code is bound to.
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
use crate::domain::social::{self, Ended, LinkRefused, Provider, ProviderKind, Redeemed};
use crate::plumbing::cache::documented_as_json;
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
/// The cookie set beside the callback's code: only the browser holding it
/// can redeem the code.
pub const BIND_COOKIE: &str = "social_bind";
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
                "To /user/login#social_code=<code> (for POST social/redeem, with the \
                 `social_bind` cookie set beside it), or #social_error=<reason> when the \
                 sign-in was declined, expired, started elsewhere or refused; the \
                 `social_state` cookie is cleared (Set-Cookie)",
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
            callback("Google's return: signs in, then to /user/login#social_code=..."),
        )
        .get(
            "/social/facebook/redirect",
            facebook_redirect,
            redirect("Sends the browser to Facebook's consent page (404 when not configured)"),
        )
        .get(
            "/social/facebook/callback",
            facebook_callback,
            callback("Facebook's return: signs in, then to /user/login#social_code=..."),
        )
        .post(
            "/social/redeem",
            post_redeem,
            Doc::visitor(
                "Redeems the code of a #social_code callback, once and only with the \
                 `social_bind` cookie the callback set in the same browser (cleared by a \
                 redemption): {success, token, token_type, expires_in, user} as login \
                 answers, or {success, link: {ticket, provider}} when the provider's verified \
                 e-mail belongs to an account it is not linked to (POST social/link with the \
                 account's password links it). An unknown, used, expired or another \
                 browser's code is a 403 and signs nobody in; a missing, blank or overlong \
                 one a 400 naming `code`",
            )
            .self_token_optional()
            .answers(403, "The code is unknown, used, expired or another browser's")
            .answers(409, "The account was closed meanwhile"),
        )
        .post(
            "/social/link",
            post_link,
            Doc::visitor(
                "Links a social sign-in to the account its e-mail belongs to, with that \
                 account's password (the ticket a redeemed #social_code gave), and signs in: \
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

/// The attributes of the state and binding cookies; `Secure` when the shop is on HTTPS.
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
    response
        .headers_mut()
        .insert(SET_COOKIE, header_value(cookie)?);
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
    // The code goes in the address; this cookie, which a link cannot carry,
    // is what lets this browser, and only it, redeem the code.
    let (browser, _) = new_token();
    let ended = social::sign_in(
        &state.pool,
        kind,
        &profile,
        guest,
        &browser,
        clock::now_unix(),
    )
    .await?;
    match ended {
        Ended::Code(code) => back(state, Ok((code, browser))),
        Ended::Refused(message) => back(state, Err(message)),
    }
}

/// The redirect to `/user/login` carrying `social_code=...` in the fragment
/// (with the binding cookie set beside it), or the reason as
/// `social_error=...`; the state cookie is cleared either way.
fn back(state: &AppState, result: Result<(String, String), String>) -> ApiResult<Response> {
    let (fragment, bind) = match result {
        Ok((code, browser)) => (format!("social_code={code}"), Some(browser)),
        Err(message) => (format!("social_error={}", percent_encode(&message)), None),
    };
    let mut response =
        Redirect::to(&format!("{}/user/login#{fragment}", state.site_url)).into_response();
    let headers = response.headers_mut();
    headers.append(
        SET_COOKIE,
        header_value(format!("{STATE_COOKIE}=; {}", cookie_attributes(state, 0)))?,
    );
    if let Some(browser) = bind {
        headers.append(
            SET_COOKIE,
            header_value(format!(
                "{BIND_COOKIE}={browser}; {}",
                cookie_attributes(state, social::CODE_LIFETIME_SECS)
            ))?,
        );
    }
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    Ok(response)
}

fn header_value(text: String) -> ApiResult<HeaderValue> {
    HeaderValue::from_str(&text).map_err(|e| ApiError::Internal(e.into()))
}

/// The code of a `#social_code=` callback.
#[derive(Debug, Deserialize, JsonSchema)]
struct RedeemBody {
    /// The code from the fragment.
    #[schemars(required, length(min = 1, max = 200), pattern(r"\S"))]
    code: Option<String>,
}

/// The answer of `POST /api/auth/social/redeem`: signed in, as `login`
/// answers, or a link waiting for the account's password.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RedeemResponse {
    SignedIn(Box<SignedInResponse>),
    Link(LinkWaiting),
}

/// A social sign-in waiting to be linked to the account its e-mail belongs to.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LinkWaiting {
    pub success: bool,
    pub link: LinkTicket,
}

/// What `POST /api/auth/social/link` needs besides the password.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LinkTicket {
    /// The ticket for `POST /api/auth/social/link` (ten minutes, once).
    pub ticket: String,
    /// The provider to link.
    pub provider: SocialProvider,
}

/// A provider's name.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SocialProvider {
    Google,
    Facebook,
}

impl From<ProviderKind> for SocialProvider {
    fn from(kind: ProviderKind) -> SocialProvider {
        match kind {
            ProviderKind::Google => SocialProvider::Google,
            ProviderKind::Facebook => SocialProvider::Facebook,
        }
    }
}

/// A JSON answer that also clears the binding cookie (documented as its JSON).
struct ClearsBinding<T>(HeaderValue, Json<T>);

impl<T: Serialize> IntoResponse for ClearsBinding<T> {
    fn into_response(self) -> Response {
        let mut response = self.1.into_response();
        response.headers_mut().append(SET_COOKIE, self.0);
        response
    }
}

documented_as_json!(ClearsBinding);

/// `POST /api/auth/social/redeem` with `{code}`: what the callback's sign-in
/// came to, for the browser holding the `social_bind` cookie set beside the
/// code, once, within [`social::CODE_LIFETIME_SECS`]: a token and the
/// shopper, or a ticket for linking the account with its password. Any other
/// code (unknown, used, expired, or without that browser's cookie) is a 403
/// and signs nobody in; a missing, blank or overlong one a 400 naming `code`;
/// a closed account a 409.
async fn post_redeem(
    State(state): State<AppState>,
    headers: HeaderMap,
    Body(body): Body<RedeemBody>,
) -> ApiResult<ClearsBinding<RedeemResponse>> {
    const REFUSED: &str = "This sign-in expired, was already used or was started in another \
                           browser. Please sign in again.";
    let invalid = || ApiError::Forbidden(REFUSED.to_string());
    let code = body.code.unwrap_or_default();
    let code = code.trim();
    if code.is_empty() || code.len() > 200 {
        return Err(ApiError::invalid("code", REFUSED));
    }
    let browser = cookie(&headers, BIND_COOKIE)
        .filter(|b| !b.is_empty() && b.len() <= 200)
        .ok_or_else(invalid)?;
    let redeemed = social::redeem(&state.pool, code, browser, clock::now_unix())
        .await?
        .ok_or_else(invalid)?;
    let answer = match redeemed {
        Redeemed::SignedIn { user, token } => {
            let user = accounts::user_any(&state.pool, user)
                .await?
                .ok_or_else(ApiError::unauthenticated)?;
            RedeemResponse::SignedIn(Box::new(auth::signed_in("You are signed in.", token, user)))
        }
        Redeemed::Link { ticket, kind } => RedeemResponse::Link(LinkWaiting {
            success: true,
            link: LinkTicket {
                ticket,
                provider: kind.into(),
            },
        }),
        Redeemed::Refused(message) => return Err(ApiError::Conflict(message)),
    };
    let clear = header_value(format!("{BIND_COOKIE}=; {}", cookie_attributes(&state, 0)))?;
    Ok(ClearsBinding(clear, Json(answer)))
}

/// A social sign-in to link to an existing account.
#[derive(Debug, Deserialize, JsonSchema)]
struct LinkBody {
    /// The ticket a redeemed `#social_code=` gave (`link.ticket`).
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
