//! The JSON API of SPEC.md §7, one module per group. Each module owns its
//! `router()`, handlers and request/response types.

use catalog::db;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::Value;

use crate::plumbing::error::{ApiError, ApiResult};
use crate::state::AppState;
use doc::{ApiRouter, Doc};

pub mod answers;
pub mod auth;
pub mod cart;
pub mod category;
pub mod checkout;
pub mod common;
pub mod doc;
pub mod home;
pub mod interior;
pub mod lists;
pub mod location;
pub mod order;
pub mod password;
pub mod payment;
pub mod product;
pub mod reviews;
pub mod social;
pub mod talk;
pub mod user;

/// Every `/api` route. Unknown paths get a JSON 404, never HTML;
/// `/api/openapi.json` documents every route mounted through [`ApiRouter`].
pub fn router() -> Router<AppState> {
    let (documented, spec) = documented();
    let spec = Arc::new(spec);
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

/// The OpenAPI document served at `/api/openapi.json` (`origin openapi` prints it).
pub fn openapi() -> Value {
    documented().1
}

/// The documented `/api` routes and the OpenAPI document of them and of [`outside_api`].
fn documented() -> (Router<AppState>, Value) {
    let (documented, inside) = ApiRouter::new()
        .nest("/home", home::router())
        .nest("/common", common::router().merge(lists::compare_router()))
        .nest("/category", category::router())
        .nest(
            "/product",
            product::router()
                .merge(talk::router())
                .merge(reviews::product_router()),
        )
        .nest("/interior", interior::router())
        .nest(
            "/cart",
            cart::router()
                .merge(checkout::router())
                .merge(order::router()),
        )
        .nest("/auth", auth::router().merge(social::router()))
        .nest(
            "/user",
            user::router()
                .merge(reviews::user_router())
                .merge(lists::wishlist_router())
                .merge(password::router()),
        )
        .merge(checkout::place_order_router())
        .merge(location::router())
        .nest("/nagad", payment::nagad_router())
        .nest("/bkash", payment::bkash_router())
        .get(
            "/health",
            get_health,
            Doc::open("Liveness and readiness: 200 when the database answers"),
        )
        .finish("/api");
    // The card gateway's routes live outside /api (as in the original).
    let (_, outside) = outside_api().finish("");
    (documented, doc::openapi(inside, outside))
}

/// The documented routes outside `/api`: the card gateway's.
fn outside_api() -> ApiRouter {
    ApiRouter::new().nest("/sslcommerz", payment::sslcommerz_router())
}

/// The routes outside `/api` (`/sslcommerz/...`), merged at the root so
/// the site's fallback never swallows them; listed in `/api/openapi.json`.
pub fn outside_router() -> Router<AppState> {
    let (router, _) = outside_api().finish("");
    router
}

/// Liveness and readiness for load balancers and the edge's health checks:
/// 200 when the database answers.
async fn get_health(State(state): State<AppState>) -> ApiResult<Json<HealthResponse>> {
    db::query_scalar::<i64>("SELECT CAST(1 AS BIGINT)")
        .fetch_one(&state.pool)
        .await?;
    Ok(Json(HealthResponse {
        success: true,
        status: "ok",
    }))
}

/// The answer of `GET /api/health`.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct HealthResponse {
    pub success: bool,
    /// Always `ok`: a database that does not answer makes it a 500.
    pub status: &'static str,
}
