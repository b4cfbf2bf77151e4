//! The Product group of SPEC.md §7.

use axum::Router;

use crate::state::AppState;

/// Routes under `/api/product`.
pub fn router() -> Router<AppState> {
    Router::new()
}
