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
use catalog::db::{self, begin_write};

use crate::domain::identity::{hash_token, new_token};
use crate::domain::mail::Mail;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::plumbing::ratelimit;
use crate::plumbing::validate;
use crate::plumbing::validate::check_new_password;
use crate::state::AppState;
use crate::surfaces::api::answers::MessageResponse;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// How long a reset link works, seconds.
pub const LINK_LIFETIME_SECS: i64 = 3_600;
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

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct ForgotBody {
    /// The account's e-mail.
    email: String,
}

/// The client's address as the edge forwarded it, else "direct".
fn client(headers: &HeaderMap) -> String {
    headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 64)
        .unwrap_or_else(|| "direct".to_string())
}

/// `POST /api/user/forgot-password-send-link` with `{email}`.
async fn post_forgot(
    State(state): State<AppState>,
    headers: HeaderMap,
    Body(body): Body<ForgotBody>,
) -> ApiResult<Json<MessageResponse>> {
    let email = body.email.trim().to_lowercase();
    if !validate::email(&email) {
        return Err(ApiError::invalid(
            "email",
            "That e-mail address does not look right.",
        ));
    }
    let now = clock::now_unix();
    let keys = [format!("to:{email}"), format!("ip:{}", client(&headers))];
    if let Err(retry_after) =
        ratelimit::check(&state.pool, &keys, LINKS_PER_HOUR, 3_600, now).await?
    {
        return Err(ApiError::TooManyRequests {
            message: "Too many reset links asked for. Please try again later.".into(),
            retry_after,
        });
    }
    let user: Option<(i64, String)> =
        db::query_as("SELECT id, name FROM app_user WHERE email = $1 AND is_active")
            .bind(&email)
            .fetch_optional(&state.pool)
            .await?;
    if let Some((id, name)) = user {
        let (token, hash) = new_token();
        db::query(
            "INSERT INTO password_reset (user_id, token_hash, expires_at, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $4)",
        )
        .bind(id)
        .bind(hash)
        .bind(now + LINK_LIFETIME_SECS)
        .bind(now)
        .execute(&state.pool)
        .await?;
        let link = format!(
            "{}/user/reset_password?token={token}&email={}",
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
    Ok(Json(MessageResponse::new(
        "If an account uses that e-mail, we have sent it a link to reset the password.",
    )))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct ResetBody {
    /// From the link.
    token: String,
    /// From the link.
    email: String,
    /// The new password, 8-128 characters.
    password: String,
    /// The same again.
    password_confirmation: Option<String>,
}

/// `POST /api/user/reset-password`.
async fn post_reset(
    State(state): State<AppState>,
    Body(body): Body<ResetBody>,
) -> ApiResult<Json<MessageResponse>> {
    let mut errors = Map::new();
    check_new_password(
        &body.password,
        Some(body.password_confirmation.as_deref().unwrap_or_default()),
        &mut errors,
    );
    let invalid = || {
        ApiError::invalid(
            "token",
            "This link is invalid, used or expired. Ask for a new one.",
        )
    };
    if body.token.trim().is_empty() || body.token.len() > 200 {
        return Err(invalid());
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let now = clock::now_unix();
    let email = body.email.trim().to_lowercase();
    let found: Option<(i64, i64)> = db::query_as(
        "SELECT r.id, r.user_id FROM password_reset r JOIN app_user u ON u.id = r.user_id \
         WHERE r.token_hash = $1 AND u.email = $2 AND r.used_at IS NULL AND r.expires_at > $3",
    )
    .bind(hash_token(body.token.trim()))
    .bind(&email)
    .bind(now)
    .fetch_optional(&state.pool)
    .await?;
    let (reset, user) = found.ok_or_else(invalid)?;
    let password = body.password.clone();
    let hash = tokio::task::spawn_blocking(move || catalog::password::hash(&password))
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("password task: {e}")))?
        .map_err(ApiError::Internal)?;
    let mut tx = begin_write(&state.pool).await?;
    let used = db::query(
        "UPDATE password_reset SET used_at = $1, updated_at = $1 WHERE id = $2 AND used_at IS NULL",
    )
    .bind(now)
    .bind(reset)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() == 0 {
        return Err(invalid());
    }
    db::query("UPDATE app_user SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(hash)
        .bind(now)
        .bind(user)
        .execute(&mut *tx)
        .await?;
    db::query(
        "UPDATE auth_token SET revoked_at = $1, updated_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(user)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(MessageResponse::new(
        "Your password has been reset. Sign in with the new one.",
    )))
}
