//! The Interior group of SPEC.md §7.

use axum::Router;

use crate::state::AppState;

/// Routes under `/api/interior`.
pub fn router() -> Router<AppState> {
    Router::new()
}
