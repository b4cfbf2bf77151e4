//! Reading who is calling from a request: a guest by the `SELF-TOKEN` header
//! (ORIGINAL-API.md §0.1), a signed-in shopper by `Authorization: Bearer
//! <token>`; the types are [`crate::domain::identity`]'s.
//!
//! Handlers take [`Caller`] when a guest will do (cart, lists) and
//! [`SignedIn`] when the call needs an account (401 otherwise). A Bearer token
//! that is present but unknown, expired or revoked is a 401 on every call, so
//! the client forgets it instead of silently acting as someone else.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use crate::domain::identity::{
    legacy_self_token, live_legacy_cart, user_for_token, valid_self_token, Caller, SignedIn,
    SELF_TOKEN_RULE,
};
use crate::plumbing::error::{early_errors, ApiError, ApiResult, INVALID_INPUT, UNAUTHENTICATED};
use crate::state::AppState;

/// The header that carries a guest's identity.
pub const SELF_TOKEN_HEADER: &str = "self-token";

/// A shorter token of the older shape is taken only while it owns a cart
/// younger than [`crate::domain::identity::LEGACY_CART_LIFETIME_SECS`].
///
/// A malformed `SELF-TOKEN` answers 400; a Bearer token that is unknown or
/// expired answers 401 (a caller who sends none stays a guest).
impl aide::OperationInput for Caller {
    fn inferred_early_responses(
        ctx: &mut aide::generate::GenContext,
        _: &mut aide::openapi::Operation,
    ) -> Vec<(Option<u16>, aide::openapi::Response)> {
        early_errors(ctx, &[INVALID_INPUT, UNAUTHENTICATED])
    }
}

/// As [`Caller`], and 401 without a valid Bearer token.
impl aide::OperationInput for SignedIn {
    fn inferred_early_responses(
        ctx: &mut aide::generate::GenContext,
        _: &mut aide::openapi::Operation,
    ) -> Vec<(Option<u16>, aide::openapi::Response)> {
        early_errors(ctx, &[INVALID_INPUT, UNAUTHENTICATED])
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Self> {
        let self_token = match parts.headers.get(SELF_TOKEN_HEADER) {
            None => None,
            Some(value) => {
                let token = value.to_str().unwrap_or_default().trim();
                if token.is_empty() {
                    None
                } else if valid_self_token(token)
                    || (legacy_self_token(token)
                        && live_legacy_cart(&state.pool, token, catalog::clock::now_unix()).await?)
                {
                    Some(token.to_string())
                } else {
                    return Err(ApiError::invalid("SELF-TOKEN", SELF_TOKEN_RULE));
                }
            }
        };
        let user = match bearer(parts)? {
            None => None,
            Some(token) => Some(user_for_token(&state.pool, token).await?.ok_or_else(|| {
                ApiError::Unauthorized(
                    "Your session has expired. Please sign in again.".to_string(),
                )
            })?),
        };
        Ok(Caller { self_token, user })
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Self> {
        let caller = Caller::from_request_parts(parts, state).await?;
        Ok(SignedIn {
            user: caller.signed_in()?,
            self_token: caller.self_token,
        })
    }
}

/// The token after `Bearer `, if an Authorization header was sent.
fn bearer(parts: &Parts) -> ApiResult<Option<&str>> {
    let Some(value) = parts.headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value.to_str().unwrap_or_default().trim();
    match value.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
            let token = token.trim();
            if token.is_empty() {
                Ok(None)
            } else {
                Ok(Some(token))
            }
        }
        _ => Err(ApiError::Unauthorized(
            "The Authorization header must be 'Bearer <token>'.".to_string(),
        )),
    }
}
