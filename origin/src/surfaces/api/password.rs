//! Forgotten passwords: `POST /api/user/forgot-password-send-link` sends a
//! single-use link, valid for an hour, to the account's e-mail; the answer is
//! the same whether or not an account exists. Sending is limited per address
//! and per client. `POST /api/user/reset-password` sets the new password and
//! signs every session out.
//!
//! The mail goes out through [`crate::domain::mail`]: a mail server when `SMTP_URL`
//! is set, else the outbox directory that the dev stack reads.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Map;

use catalog::clock;

use crate::domain::identity::Caller;
use crate::domain::mail::Mail;
use crate::domain::password_reset;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::plumbing::ratelimit;
use crate::plumbing::validate;
use crate::plumbing::validate::check_new_password;
use crate::plumbing::validate::EMAIL_PATTERN;
use crate::state::AppState;
use crate::surfaces::api::answers::MessageResponse;
use crate::surfaces::api::auth;
use crate::surfaces::api::doc::{ApiRouter, Doc};

pub use crate::domain::password_reset::LINK_LIFETIME_SECS;
/// Links one address (or one client) may be sent per hour.
pub const LINKS_PER_HOUR: i64 = 3;

/// Routes merged into `/api/user`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/forgot-password-send-link",
            post_forgot,
            Doc::public("Sends a password reset link (the same answer for every address)")
                .answers(429, "Too many links asked for this address or client"),
        )
        .post(
            "/reset-password",
            post_reset,
            Doc::public("Sets a new password with a reset link's token"),
        )
}

/// Who forgot their password.
#[derive(Debug, Deserialize, JsonSchema)]
struct ForgotBody {
    /// The account's e-mail.
    #[schemars(required, length(max = 254), pattern(EMAIL_PATTERN))]
    email: Option<String>,
}

/// The answer to every accepted request for a link, whether or not an
/// account uses the address.
pub const LINK_SENT: &str =
    "If an account uses that e-mail, we have sent it a link to reset the password.";

/// `POST /api/user/forgot-password-send-link` with `{email}`.
async fn post_forgot(
    State(state): State<AppState>,
    headers: HeaderMap,
    Body(body): Body<ForgotBody>,
) -> ApiResult<Json<MessageResponse>> {
    let email = body.email.unwrap_or_default();
    send_link(
        &state,
        &email,
        &ratelimit::client(&headers),
        "/user/reset_password",
    )
    .await?;
    Ok(Json(MessageResponse::new(LINK_SENT)))
}

/// Sends `email`'s account a reset link to the page at `page` (the script
/// page, or the basic page `/lite/reset-password` when the basic form asked),
/// limited per address and per `client`; nothing is sent, and nothing said,
/// when no account uses the address.
pub async fn send_link(state: &AppState, email: &str, client: &str, page: &str) -> ApiResult<()> {
    let email = email.trim().to_lowercase();
    if !validate::email(&email) {
        return Err(ApiError::invalid(
            "email",
            "That e-mail address does not look right.",
        ));
    }
    let now = clock::now_unix();
    let keys = [format!("to:{email}"), format!("ip:{client}")];
    if let Err(retry_after) =
        ratelimit::check(&state.pool, &keys, LINKS_PER_HOUR, 3_600, now).await?
    {
        return Err(ApiError::TooManyRequests {
            message: format!(
                "Too many reset links asked for. Please try again in {}.",
                ratelimit::wait_words(retry_after)
            ),
            retry_after,
        });
    }
    let user = password_reset::account_by_email(&state.pool, &email).await?;
    if let Some((id, name)) = user {
        let token = password_reset::issue(&state.pool, id, now).await?;
        let link = format!(
            "{}{page}?token={token}&email={}",
            state.site_url,
            email.replace('@', "%40").replace('+', "%2B")
        );
        state
            .send_mail(Mail {
                to: email.clone(),
                subject: "Reset your password".into(),
                body: format!(
                    "Hello {name},\r\n\r\nTo choose a new password, open this link within an hour:\r\n{link}\r\n\r\n\
                     If you did not ask for it, ignore this message: your password stays as it is.\r\n"
                ),
            })
            .map_err(ApiError::Internal)?;
    }
    Ok(())
}

/// A new password, with the link's token and e-mail. An unknown, used or
/// expired link is a 400 naming `token`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ResetBody {
    /// From the link.
    #[schemars(required, length(min = 1, max = 200), pattern(r"\S"))]
    token: Option<String>,
    /// From the link.
    #[schemars(required)]
    email: Option<String>,
    /// The new password, 8-128 characters.
    #[schemars(required, length(min = 8, max = 128))]
    password: Option<String>,
    /// The same again.
    #[schemars(required, length(min = 8, max = 128))]
    password_confirmation: Option<String>,
}

/// `POST /api/user/reset-password`.
async fn post_reset(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<ResetBody>,
) -> ApiResult<Json<MessageResponse>> {
    let token = body.token.unwrap_or_default();
    let password = body.password.unwrap_or_default();
    let mut errors = Map::new();
    check_new_password(
        &password,
        Some(body.password_confirmation.as_deref().unwrap_or_default()),
        &mut errors,
    );
    let invalid = || {
        ApiError::invalid(
            "token",
            "This link is invalid, used or expired. Ask for a new one.",
        )
    };
    if token.trim().is_empty() || token.len() > 200 {
        return Err(invalid());
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let now = clock::now_unix();
    let email = body.email.unwrap_or_default().trim().to_lowercase();
    let link = password_reset::find(&state.pool, token.trim(), &email, now)
        .await?
        .ok_or_else(invalid)?;
    let hash = tokio::task::spawn_blocking(move || catalog::password::hash(&password))
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("password task: {e}")))?
        .map_err(ApiError::Internal)?;
    let user = link.user_id;
    let browser = caller.self_token.as_deref();
    let Some(done) = password_reset::reset(&state.pool, link, &hash, browser, now).await? else {
        return Err(invalid());
    };
    // The reset lifts a lock that wrong guesses put on the account.
    ratelimit::clear(&state.pool, &auth::sign_in_key(user, None)).await?;
    tell_owner_of_reset(&state, &email, &done)?;
    Ok(Json(MessageResponse::new(
        "Your password has been reset. Sign in with the new one.",
    )))
}

/// Mails the owner (at `email`, where the link went) that the password was
/// reset and every session signed out, and which sign-in providers are
/// linked or were unlinked.
fn tell_owner_of_reset(
    state: &AppState,
    email: &str,
    done: &password_reset::Reset,
) -> ApiResult<()> {
    let linked = match done.linked.as_slice() {
        [] => "No Google or Facebook sign-in is linked to your account.".to_string(),
        names => format!(
            "Signing in with {} stays linked to your account.",
            names.join(" and ")
        ),
    };
    let unlinked = match done.unlinked.as_slice() {
        [] => String::new(),
        names => format!(
            "\r\n\r\nWe unlinked {} sign-in, which made this account without confirming this \
             e-mail address is yours. To use it again, sign in with it and give your new password.",
            names.join(" and ")
        ),
    };
    state
        .send_mail(Mail {
            to: email.to_string(),
            subject: "Your password was changed".into(),
            body: format!(
                "Hello,\r\n\r\nThe password of your account was just changed with a reset link, \
                 and every device signed in to it was signed out.\r\n\r\n{linked}{unlinked}\r\n\r\n\
                 If you did not do this, ask for a new reset link at {}/user/forgot_password at once.\r\n",
                state.site_url
            ),
        })
        .map_err(ApiError::Internal)
}
