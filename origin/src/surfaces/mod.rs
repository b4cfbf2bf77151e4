//! What the origin serves, one module per surface:
//!
//! - [`api`]: the JSON API under `/api` (SPEC.md §7) and its OpenAPI document;
//! - [`site`]: the pages the generator wrote, and listing pages rendered on demand;
//! - [`images`]: the files under `/storage/`, and resized variants made once;
//! - [`lite`]: cart, checkout, sign-in and track-order as plain forms under `/lite/`.

pub mod api;
pub mod images;
pub mod lite;
pub mod site;
