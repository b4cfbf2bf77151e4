//! The API's one error type. Every failure under `/api` becomes a JSON body
//! `{"success": false, "message": ..., "errors": {...}}` with a fitting
//! status; the cause of a 500 is logged once and never sent to the client.

use aide::generate::GenContext;
use aide::openapi::{MediaType, Operation, Response as DocResponse, SchemaObject};
use aide::OperationOutput;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

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

/// The body of every error answer, as sent and as documented.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ErrorBody {
    /// Always `false`.
    pub success: bool,
    /// What went wrong, in words for the shopper.
    pub message: String,
    /// With a 400: each field in error and its messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<BTreeMap<String, Vec<String>>>")]
    pub errors: Option<Map<String, Value>>,
}

impl ErrorBody {
    fn new(message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            success: false,
            message: message.into(),
            errors: None,
        }
    }
}

/// What the origin logs, at ERROR, for every answer of a 5xx status but 503
/// (the shop's "try again shortly"), whatever answered it: the test runs
/// (the browser tests, the load smoke, the cluster test; `scripts/lib.sh`'s
/// `no_server_errors`) fail when an origin's log holds it.
pub const SERVER_ERROR_LOGGED: &str = "answered a server error";

/// Logs [`SERVER_ERROR_LOGGED`] with the status, method and path of every
/// answer with a 5xx status other than 503.
pub async fn log_server_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    // Cheap to keep (a Uri shares its bytes); written out only for an error.
    let (method, uri) = (request.method().clone(), request.uri().clone());
    let response = next.run(request).await;
    let status = response.status();
    if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
        let path = uri.path();
        tracing::error!(status = status.as_u16(), %method, %path, "{SERVER_ERROR_LOGGED}");
    }
    response
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = match &self {
            ApiError::BadRequest { message, errors } => ErrorBody {
                errors: Some(errors.clone()),
                ..ErrorBody::new(message)
            },
            ApiError::Unauthorized(message)
            | ApiError::Forbidden(message)
            | ApiError::NotFound(message)
            | ApiError::Conflict(message)
            | ApiError::Unavailable(message)
            | ApiError::TooManyRequests { message, .. } => ErrorBody::new(message),
            ApiError::MethodNotAllowed => ErrorBody::new(self.to_string()),
            ApiError::Internal(cause) => {
                tracing::error!(cause = %format!("{cause:#}"), "request failed");
                ErrorBody::new("Something went wrong on our side. Please try again.")
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

/// Documents [`ErrorBody`] as the error answer's content. Which statuses an operation
/// answers is said by its extractors and its [`crate::surfaces::api::doc::Doc`], not here: one
/// error type serves every handler.
impl OperationOutput for ApiError {
    type Inner = ErrorBody;

    fn operation_response(ctx: &mut GenContext, _: &mut Operation) -> Option<DocResponse> {
        Some(error_response(ctx, "Error"))
    }
}

/// A documented error answer: `description`, with [`ErrorBody`] as JSON.
pub fn error_response(ctx: &mut GenContext, description: &str) -> DocResponse {
    let schema = ctx.schema.subschema_for::<ErrorBody>();
    DocResponse {
        description: description.to_string(),
        content: [(
            "application/json".to_string(),
            MediaType {
                schema: Some(SchemaObject {
                    json_schema: schema,
                    example: None,
                    external_docs: None,
                }),
                ..Default::default()
            },
        )]
        .into_iter()
        .collect(),
        ..Default::default()
    }
}

/// The 400 of a malformed parameter, field or header, as documented.
pub const INVALID_INPUT: (u16, &str) = (
    400,
    "Invalid input: a parameter, field or header is missing, malformed or out of range",
);
/// The 401 of a call without a valid sign-in, as documented.
pub const UNAUTHENTICATED: (u16, &str) = (
    401,
    "Not signed in, or the Bearer token is unknown or expired",
);

/// Error answers an extractor may give before the handler runs, for
/// [`aide::OperationInput::inferred_early_responses`].
pub fn early_errors(
    ctx: &mut GenContext,
    statuses: &[(u16, &str)],
) -> Vec<(Option<u16>, DocResponse)> {
    statuses
        .iter()
        .map(|(status, description)| (Some(*status), error_response(ctx, description)))
        .collect()
}

/// The result of every handler.
pub type ApiResult<T> = Result<T, ApiError>;
