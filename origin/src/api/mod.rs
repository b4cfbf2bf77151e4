//! The JSON API of SPEC.md §7, one module per group. Each module owns its
//! `router()`, handlers and request/response types.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

pub mod category;
pub mod common;
pub mod home;
pub mod interior;
pub mod product;

/// Every `/api` route. Unknown paths get a JSON 404, never HTML.
pub fn router() -> Router<AppState> {
    Router::new()
        .nest("/home", home::router())
        .nest("/common", common::router())
        .nest("/category", category::router())
        .nest("/product", product::router())
        .nest("/interior", interior::router())
        .route("/health", get(get_health))
        .fallback(|| async { ApiError::not_found("No such API endpoint") })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
}

/// Liveness and readiness for load balancers and the edge's health checks:
/// 200 when the database answers.
async fn get_health(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    sqlx::query_scalar::<_, i64>("SELECT 1")
        .fetch_one(&state.pool)
        .await?;
    Ok(Json(json!({ "success": true, "status": "ok" })))
}
