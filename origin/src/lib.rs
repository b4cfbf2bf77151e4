//! The origin: the JSON API of SPEC.md §7, the images under `/storage/`, and
//! the site the generator wrote. It declares cacheability with standard
//! headers; the edge in front of it obeys them.
//!
//! Three layers, each using only those below it:
//! - [`surfaces`]: what is served (the API, the site, the images);
//! - [`domain`]: the shop's rules and writes (cart, orders, payments, accounts…);
//! - [`plumbing`]: errors, extractors, who is calling, cache headers.
//!
//! [`config`] reads the command line; [`state`] holds what every request shares.

pub mod config;
pub mod domain;
pub mod plumbing;
pub mod state;
pub mod surfaces;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::Router;

use crate::domain::{mail, payments, search, social};
use crate::plumbing::cache;
use crate::state::{AppState, Dirs};
use crate::surfaces::{api, images, lite, site};

/// Largest request body accepted, bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The whole application: tests call it directly.
pub fn app(state: AppState) -> Router {
    let site = site::service(state.clone());
    Router::new()
        .nest("/api", api::router())
        .merge(api::outside_router())
        .nest("/storage", images::router())
        .nest_service("/lite", lite::service(state.clone()))
        .fallback_service(site)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            cache::headers,
        ))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            REQUEST_DEADLINE,
            deadline,
        ))
        // Outside the body limit and the deadline, so their answers get them too.
        .layer(axum::middleware::from_fn(plumbing::security::headers))
        .layer(axum::middleware::from_fn(
            plumbing::error::log_server_errors,
        ))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(state)
}

/// Longest a request may take before the client gets a 503.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(30);

/// Answers a request that outlives its deadline ([`REQUEST_DEADLINE`]) with
/// the API's JSON 503; the handler is dropped, which rolls its transaction back.
async fn deadline(
    axum::extract::State(limit): axum::extract::State<Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let path = request.uri().path().to_string();
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!(%path, "request took longer than its deadline");
            axum::response::IntoResponse::into_response(plumbing::error::ApiError::Unavailable(
                "The shop is busy. Please try again in a moment.".into(),
            ))
        }
    }
}

/// Opens the database and serves until Ctrl-C or SIGTERM.
pub async fn serve(args: config::ServeArgs) -> anyhow::Result<()> {
    lite::csrf::configure(args.lite_secret.as_ref().map(|s| s.0.as_str()));
    let staging = cache::staging::Staging::from_args(&args);
    let pool = catalog::db::connect(&catalog::db::PoolConfig::new(&args.db.database))
        .await
        .with_context(|| format!("opening {}", args.db.database))?;
    catalog::db::migrate(&pool).await.context("migrating")?;
    let (search, stats) = search::Search::build(&pool)
        .await
        .context("building the search index")?;
    tracing::info!(
        products = stats.products,
        seconds = stats.seconds,
        "search index built"
    );
    let search = Arc::new(search);
    tokio::spawn(search::follow(
        Arc::clone(&search),
        pool.clone(),
        Duration::from_secs(1),
    ));
    let state = AppState {
        pool,
        search,
        smtp: match &args.smtp_url {
            Some(url) if !url.0.trim().is_empty() => {
                Some(Arc::new(mail::Smtp::from_url(url, &args.mail_from)?))
            }
            _ => None,
        },
        social: Arc::new(
            social::Social::from_args(&args.social, &args.site_url)
                .context("configuring social sign-in")?,
        ),
        payments: Arc::new(
            payments::Gateways::from_args(&args.payments, &args.site_url)
                .context("configuring payment gateways")?,
        ),
        site_url: args.site_url.trim_end_matches('/').into(),
        dirs: Arc::new(Dirs {
            site: args.site,
            image_cache: args
                .image_cache
                .filter(|dir| !dir.as_os_str().is_empty())
                .unwrap_or_else(|| args.storage.join(images::DEFAULT_CACHE_DIR)),
            storage: args.storage,
            outbox: args.outbox,
        }),
    };
    tokio::spawn(payments::expiry::run(
        state.pool.clone(),
        Arc::clone(&state.payments),
        payments::expiry::period(state.payments.expiry()),
    ));
    if let Some(staging) = staging {
        tokio::spawn(staging.run(app(state.clone()), state.pool.clone()));
    }
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("binding {}", args.listen))?;
    let addr: SocketAddr = listener.local_addr()?;
    tracing::info!(%addr, "origin listening");
    let app = match plumbing::cors::layer(&args.cors_origins).context("CORS_ORIGINS")? {
        Some(cors) => app(state).layer(cors),
        None => app(state),
    }
    .layer(axum::middleware::from_fn_with_state(
        plumbing::forwarded::Trusted(Arc::new(args.trusted_proxies.clone())),
        plumbing::forwarded::only_from_trusted,
    ));
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut sig) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            sig.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_request_past_its_deadline_gets_the_json_503() {
        let app = Router::new()
            .route(
                "/slow",
                axum::routing::get(|| async {
                    tokio::time::sleep(Duration::from_secs(5)).await;
                    "late"
                }),
            )
            .route("/quick", axum::routing::get(|| async { "ok" }))
            .layer(axum::middleware::from_fn_with_state(
                Duration::from_millis(50),
                deadline,
            ));
        let quick = app
            .clone()
            .oneshot(Request::get("/quick").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(quick.status(), StatusCode::OK);
        let slow = app
            .oneshot(Request::get("/slow").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(slow.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = axum::body::to_bytes(slow.into_body(), 4096).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["success"], false);
        assert!(body["message"].as_str().unwrap().contains("busy"));
    }
}
