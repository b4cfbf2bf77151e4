//! The Home group of SPEC.md §7.

use axum::Router;

use crate::state::AppState;

/// Routes under `/api/home`.
pub fn router() -> Router<AppState> {
    Router::new()
}
