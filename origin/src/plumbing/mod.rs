//! HTTP plumbing: what every surface shares and no rule of the shop lives in.
//!
//! - [`error`]: the one error type and its JSON body;
//! - [`extract`]: query, body and form extractors whose rejections use that body;
//! - [`params`]: typed parameters whose bounds are checked and documented;
//! - [`identity`]: reading who is calling from a request; [`forwarded`]: whose
//!   `X-Forwarded-For` counts;
//! - [`cache`]: cache headers, set once for every response; [`cors`]: calls
//!   from listed front ends on other hosts;
//! - [`ratelimit`]: limits and throttles kept in the database;
//! - [`security`]: the browser's security headers on every answer;
//! - [`memory`]: the allocator settings that keep the origin's memory in budget;
//! - [`validate`]: checks of what shoppers type.
//!
//! Plumbing knows nothing of [`crate::surfaces`]; the domain may use its
//! error type and checks.

pub mod cache;
pub mod cors;
pub mod error;
pub mod extract;
pub mod forwarded;
pub mod identity;
pub mod memory;
pub mod params;
pub mod ratelimit;
pub mod security;
pub mod validate;
