//! The Category group of SPEC.md §7.

use axum::Router;

use crate::state::AppState;

/// Routes under `/api/category`.
pub fn router() -> Router<AppState> {
    Router::new()
}
