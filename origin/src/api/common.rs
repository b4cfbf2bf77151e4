//! The Common group of SPEC.md §7.

use axum::Router;

use crate::state::AppState;

/// Routes under `/api/common`.
pub fn router() -> Router<AppState> {
    Router::new()
}
