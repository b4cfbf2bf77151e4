//! The JSON API of SPEC.md §7, one module per group. Each module owns its
//! `router()`, handlers and request/response types.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use doc::{ApiRouter, Doc};

pub mod auth;
pub mod cart;
pub mod category;
pub mod common;
pub mod doc;
pub mod home;
pub mod interior;
pub mod lists;
pub mod password;
pub mod product;
pub mod social;
pub mod talk;
pub mod user;

/// Every `/api` route. Unknown paths get a JSON 404, never HTML;
/// `/api/openapi.json` documents every route mounted through [`ApiRouter`].
pub fn router() -> Router<AppState> {
    let (documented, operations) = ApiRouter::new()
        .nest("/home", home::router())
        .nest("/common", common::router().merge(lists::compare_router()))
        .nest("/category", category::router())
        .nest("/product", product::router().merge(talk::router()))
        .nest("/interior", interior::router())
        .nest("/cart", cart::router())
        .nest("/auth", auth::router().merge(social::router()))
        .nest(
            "/user",
            user::router()
                .merge(lists::wishlist_router())
                .merge(password::router()),
        )
        .merge(cart::place_order_router())
        .get(
            "/health",
            get_health,
            Doc::public("Liveness and readiness: 200 when the database answers"),
        )
        .into_parts();
    let spec = Arc::new(doc::openapi("/api", &operations));
    documented
        .route(
            "/openapi.json",
            get(move || {
                let spec = Arc::clone(&spec);
                async move { Json((*spec).clone()) }
            }),
        )
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
