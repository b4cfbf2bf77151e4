//! Simulated payment gateways for tests and `scripts/run`, one module per
//! provider, each following that provider's published protocol. No real
//! money moves: every hosted page says so.
//!
//! [`oauth`] simulates Google and Facebook sign-in the same way (no real account).
//!
//! All gateways share one server (one address); [`shop_env`] names the
//! environment that points the shop at it.

pub mod bkash;
mod common;
pub mod nagad;
pub mod oauth;
pub mod sslcommerz;

pub use bkash::{Credentials, Faults, Report, APP_KEY, APP_SECRET, MERCHANT, PASSWORD, USERNAME};

use axum::Router;

/// Every simulated gateway's routes, with the default credentials.
pub fn router() -> Router {
    bkash::router(Credentials::default())
        .merge(nagad::router(nagad::keys()))
        .merge(sslcommerz::router(
            sslcommerz::STORE_ID,
            sslcommerz::STORE_PASSWORD,
        ))
        .merge(oauth::router())
        .route(
            "/favicon.ico",
            axum::routing::get(|| async { axum::http::StatusCode::NO_CONTENT }),
        )
}

/// Serves every simulated gateway with the default credentials until the
/// listener fails.
pub async fn serve(listener: tokio::net::TcpListener) -> std::io::Result<()> {
    axum::serve(listener, router()).await
}

/// Serves the simulated bKash alone, accepting `credentials`.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    credentials: Credentials,
) -> std::io::Result<()> {
    axum::serve(listener, bkash::router(credentials)).await
}

/// The shop's configuration (environment variable, value) that points it
/// at a simulator serving at `base` (for example `http://127.0.0.1:7070`).
pub fn shop_env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("BKASH_BASE_URL", base.to_string()),
        ("BKASH_APP_KEY", APP_KEY.to_string()),
        ("BKASH_APP_SECRET", APP_SECRET.to_string()),
        ("BKASH_USERNAME", USERNAME.to_string()),
        ("BKASH_PASSWORD", PASSWORD.to_string()),
        ("SSLCOMMERZ_BASE_URL", base.to_string()),
        ("SSLCOMMERZ_STORE_ID", sslcommerz::STORE_ID.to_string()),
        (
            "SSLCOMMERZ_STORE_PASSWORD",
            sslcommerz::STORE_PASSWORD.to_string(),
        ),
        ("NAGAD_BASE_URL", base.to_string()),
        ("NAGAD_MERCHANT_ID", nagad::MERCHANT_ID.to_string()),
        ("NAGAD_MERCHANT_NUMBER", nagad::MERCHANT_NUMBER.to_string()),
        ("NAGAD_PG_PUBLIC_KEY", nagad::keys().pg_public_pem()),
        (
            "NAGAD_MERCHANT_PRIVATE_KEY",
            nagad::keys().merchant_private_pem(),
        ),
    ]
    .into_iter()
    .chain(oauth::shop_env(base))
    .collect()
}
