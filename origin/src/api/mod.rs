//! The JSON API of SPEC.md §7, one module per group. Each module owns its
//! `router()`, handlers and request/response types.

use axum::Router;

use crate::error::ApiError;
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
        .fallback(|| async { ApiError::not_found("No such API endpoint") })
}
