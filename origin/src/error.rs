//! The API's one error type. Every failure under `/api` becomes a JSON body
//! `{"success": false, "message": ..., "errors": {...}}` with a fitting
//! status; the cause of a 500 is logged once and never sent to the client.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Map, Value};

/// An error answered to an API client.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: a parameter is missing, malformed or out of range. `errors` maps
    /// field names to messages.
    #[error("{message}")]
    BadRequest {
        message: String,
        errors: Map<String, Value>,
    },
    /// 401: no valid sign-in for a call that needs one.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: signed in, but the thing belongs to someone else or is not allowed.
    #[error("{0}")]
    Forbidden(String),
    /// 404: the id or slug names nothing.
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists but not with this method.
    #[error("This endpoint does not accept that method.")]
    MethodNotAllowed,
    /// 409: the request conflicts with the current state (out of stock, a
    /// duplicate account, a used link).
    #[error("{0}")]
    Conflict(String),
    /// 429: too many attempts; the client may retry after `retry_after` seconds.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after: u64 },
    /// 503: the shop has switched the call off for now (DISABLE_BUY) or a
    /// dependency is down.
    #[error("{0}")]
    Unavailable(String),
    /// 500: a bug or a database failure; the cause is logged, not shown.
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    /// A 400 about one field.
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        let mut errors = Map::new();
        errors.insert(field.to_string(), json!([message.clone()]));
        ApiError::BadRequest { message, errors }
    }

    /// A 400 carrying every field error of a form, headed by the first.
    pub fn fields(errors: Map<String, Value>) -> Self {
        let message = errors
            .values()
            .next()
            .and_then(|v| v[0].as_str())
            .unwrap_or("Check the form.")
            .to_string();
        ApiError::BadRequest { message, errors }
    }

    /// A 404 with a message such as "Product not found".
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::NotFound(message.into())
    }

    /// The 401 answered when a call needs a signed-in shopper.
    pub fn unauthenticated() -> Self {
        ApiError::Unauthorized("Unauthenticated.".to_string())
    }

    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl ApiError {
    /// A database error after which the whole transaction may be run again
    /// ([`catalog::db::is_retryable`]).
    pub fn is_retryable(&self) -> bool {
        match self {
            ApiError::Internal(err) => err
                .downcast_ref::<sqlx::Error>()
                .is_some_and(catalog::db::is_retryable),
            _ => false,
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        ApiError::Internal(err.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = match &self {
            ApiError::BadRequest { message, errors } => {
                json!({ "success": false, "message": message, "errors": errors })
            }
            ApiError::Unauthorized(message)
            | ApiError::Forbidden(message)
            | ApiError::NotFound(message)
            | ApiError::Conflict(message)
            | ApiError::Unavailable(message)
            | ApiError::TooManyRequests { message, .. } => {
                json!({ "success": false, "message": message })
            }
            ApiError::MethodNotAllowed => {
                json!({ "success": false, "message": self.to_string() })
            }
            ApiError::Internal(cause) => {
                tracing::error!(cause = %format!("{cause:#}"), "request failed");
                json!({ "success": false, "message": "Something went wrong on our side. Please try again." })
            }
        };
        let mut response = (status, Json(body)).into_response();
        // Errors are never stored by a cache.
        response.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-store"),
        );
        if let ApiError::TooManyRequests { retry_after, .. } = &self {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(*retry_after),
            );
        }
        response
    }
}

/// The result of every handler.
pub type ApiResult<T> = Result<T, ApiError>;
