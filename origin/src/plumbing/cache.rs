//! Cache headers, set in one place for every response.
//!
//! A handler whose answer is the same for every visitor wraps it with
//! [`public`], naming its surrogate keys; the [`headers`] middleware then
//! writes:
//! - `Cache-Control: public, max-age=60` for browsers,
//! - `CDN-Cache-Control: max-age=86400, stale-while-revalidate=60,
//!   stale-if-error=86400` for the edge (RFC 9213; it wins there),
//! - `Surrogate-Key: product:12 category:3 ...` for purges (the edge strips it).
//!
//! A page rendered on demand for a query ([`public_brief`]: listing pages by
//! sort, filter, search or page number) gets a shorter edge max-age in place
//! of the day.
//!
//! Neither max-age crosses the next flash-sale start or end that can change
//! the answer ([`next_change_for`]: for an answer about products only, the
//! next change of their prices): a response never outlives a known price
//! change, and a capped response gets no stale-while-revalidate window. Everything else (anything per visitor, and
//! every error) is `private, no-store`.
//!
//! The surrogate keys are catalog's vocabulary,
//! [`catalog::surrogate::SurrogateKey`], which the generator's pages and
//! its watch (which purges the edge by them) use too.

use axum::extract::{Request, State};
use axum::http::header::{HeaderName, HeaderValue, CACHE_CONTROL};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::state::AppState;

pub mod staging;

/// The lifetimes, and the rule that caps them at a price change, are the
/// generator's (`generator::serve`): its watch stages pages at the edge with
/// the very values this middleware would send.
pub use generator::serve::{BROWSER_TTL, EDGE_TTL, STALE_IF_ERROR, STALE_WHILE_REVALIDATE};

/// The `CDN-Cache-Control` header (RFC 9213).
pub static CDN_CACHE_CONTROL: HeaderName = HeaderName::from_static("cdn-cache-control");
/// The `Surrogate-Key` header: space-separated purge tags.
pub static SURROGATE_KEY: HeaderName = HeaderName::from_static("surrogate-key");

/// Marks a response as public, tagged with `keys`.
#[derive(Debug, Clone)]
pub struct Public {
    pub keys: Vec<String>,
}

/// Wraps a response that is the same for every visitor.
pub fn public<I, K>(body: impl IntoResponse, keys: I) -> Response
where
    I: IntoIterator<Item = K>,
    K: Into<String>,
{
    let mut response = body.into_response();
    response.extensions_mut().insert(Public {
        keys: keys.into_iter().map(Into::into).collect(),
    });
    response
}

/// Marks a public response the edge keeps only this many seconds (instead
/// of [`EDGE_TTL`]): pages rendered on demand for a query.
#[derive(Debug, Clone, Copy)]
pub struct EdgeTtl(pub i64);

/// Wraps a public response the edge keeps only `edge_ttl` seconds.
pub fn public_brief<I, K>(body: impl IntoResponse, keys: I, edge_ttl: i64) -> Response
where
    I: IntoIterator<Item = K>,
    K: Into<String>,
{
    let mut response = public(body, keys);
    response.extensions_mut().insert(EdgeTtl(edge_ttl));
    response
}

/// A typed answer that is the same for every visitor: `T` as JSON, sent
/// through [`public`] (or [`public_brief`]) with its surrogate keys, and
/// documented in the OpenAPI document as `T`'s schema.
#[derive(Debug, Clone)]
pub struct Shared<T> {
    body: T,
    keys: Vec<String>,
    edge_ttl: Option<i64>,
}

impl<T> Shared<T> {
    /// `body`, tagged with `keys`, kept by the edge for the day.
    pub fn new<I, K>(body: T, keys: I) -> Shared<T>
    where
        I: IntoIterator<Item = K>,
        K: Into<String>,
    {
        Shared {
            body,
            keys: keys.into_iter().map(Into::into).collect(),
            edge_ttl: None,
        }
    }

    /// Kept by the edge only `edge_ttl` seconds (see [`public_brief`]).
    pub fn brief(self, edge_ttl: i64) -> Shared<T> {
        Shared {
            edge_ttl: Some(edge_ttl),
            ..self
        }
    }
}

impl<T: Serialize> IntoResponse for Shared<T> {
    fn into_response(self) -> Response {
        let body = Json(self.body);
        match self.edge_ttl {
            Some(ttl) => public_brief(body, self.keys, ttl),
            None => public(body, self.keys),
        }
    }
}

/// Documents the answer wrapper `$wrapper<T>` as its JSON body `T`, as aide
/// documents `Json<T>` (the wrapper only adds headers or a redirect).
macro_rules! documented_as_json {
    ($wrapper:ident) => {
        impl<T: schemars::JsonSchema> aide::OperationOutput for $wrapper<T> {
            type Inner = T;

            fn operation_response(
                ctx: &mut aide::generate::GenContext,
                op: &mut aide::openapi::Operation,
            ) -> Option<aide::openapi::Response> {
                <axum::Json<T> as aide::OperationOutput>::operation_response(ctx, op)
            }

            fn inferred_responses(
                ctx: &mut aide::generate::GenContext,
                op: &mut aide::openapi::Operation,
            ) -> Vec<(Option<u16>, aide::openapi::Response)> {
                <axum::Json<T> as aide::OperationOutput>::inferred_responses(ctx, op)
            }
        }
    };
}
pub(crate) use documented_as_json;

documented_as_json!(Shared);

/// The header values of a public response at `now`, given the next known
/// price change. Returns (Cache-Control, CDN-Cache-Control).
pub fn public_header_values(now: i64, next_price_change: Option<i64>) -> (String, String) {
    header_values(now, next_price_change, EDGE_TTL)
}

/// [`public_header_values`] for an edge lifetime of `edge_ttl` seconds.
pub fn header_values(now: i64, next_price_change: Option<i64>, edge_ttl: i64) -> (String, String) {
    generator::serve::cache_header_values(now, next_price_change, edge_ttl)
}

/// The next price change an answer tagged `keys` may show: the rule is
/// catalog's, which `generator watch` applies to the pages it stages too.
pub use catalog::pricing::next_change_for;

/// Middleware writing the cache headers described at the top of this module.
pub async fn headers(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let public = response.extensions_mut().remove::<Public>();
    let edge_ttl = response
        .extensions_mut()
        .remove::<EdgeTtl>()
        .map_or(EDGE_TTL, |t| t.0);
    // A 304 revalidates a public page: it carries the same headers; a
    // permanent redirect is as public as the page it leads to.
    let is_success =
        response.status().is_success() || matches!(response.status().as_u16(), 301 | 304 | 308);
    let headers = response.headers_mut();
    match public {
        Some(public) if is_success => {
            let now = catalog::clock::now_unix();
            let next_change = match next_change_for(&state.pool, now, &public.keys).await {
                Ok(t) => t,
                Err(err) => {
                    // Without the schedule we cannot promise a TTL: do not let caches keep it.
                    tracing::warn!(cause = %err, "cannot read flash schedules; sending no-store");
                    headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
                    return response;
                }
            };
            let (browser, edge) = header_values(now, next_change, edge_ttl);
            let keys = public.keys.join(" ");
            for (name, value) in [
                (&CACHE_CONTROL, browser),
                (&CDN_CACHE_CONTROL, edge),
                (&SURROGATE_KEY, keys),
            ] {
                if let Ok(value) = HeaderValue::from_str(&value) {
                    headers.insert(name.clone(), value);
                }
            }
        }
        _ => {
            if !headers.contains_key(CACHE_CONTROL) {
                headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
            }
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_coming_price_change_the_full_windows_apply() {
        let (b, e) = public_header_values(1000, None);
        assert_eq!(b, "public, max-age=60");
        assert_eq!(
            e,
            "max-age=86400, stale-while-revalidate=60, stale-if-error=86400"
        );
    }

    #[test]
    fn a_coming_price_change_caps_both_ages_and_drops_stale_while_revalidate() {
        let (b, e) = public_header_values(1000, Some(1030));
        assert_eq!(b, "public, max-age=30");
        assert_eq!(e, "max-age=30, stale-if-error=86400");
        let (b, e) = public_header_values(1000, Some(1000 + 3600));
        assert_eq!(b, "public, max-age=60");
        assert_eq!(e, "max-age=3600, stale-if-error=86400");
    }

    #[tokio::test]
    async fn an_answer_about_products_expires_at_their_price_change_only() {
        use catalog::db::{self, testing::TestDatabase};
        let db = TestDatabase::migrated().await;
        let pool = db.pool().await;
        for id in [1, 2] {
            db::query_scalar::<i64>(
                "INSERT INTO product (id, title, product_code, sku, seo_url, price_before, price_now) \
                 VALUES ($1, 'p', $2, $2, $2, 100, 100) RETURNING id",
            )
            .bind(id)
            .bind(format!("p{id}"))
            .fetch_one(&pool)
            .await
            .unwrap();
        }
        // A sale of product 1 from 2000 to 3000; nothing of product 2.
        db::query_scalar::<i64>(
            "INSERT INTO flash_schedule (id, fs_name, starts_at, ends_at) VALUES (1, 's', 2000, 3000) RETURNING id",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        db::query_scalar::<i64>(
            "INSERT INTO flash_item (schedule_id, product_id, discount_percent) VALUES (1, 1, 30) RETURNING id",
        )
        .fetch_one(&pool)
        .await
        .unwrap();
        let keys = |k: &[&str]| k.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let next = |k: Vec<String>, now: i64| {
            let pool = pool.clone();
            async move { next_change_for(&pool, now, &k).await.unwrap() }
        };
        // Product 2's page (its frame's keys too) outlives the sale's boundaries.
        assert_eq!(
            next(keys(&["product:2", "category:3", "menu", "setting"]), 1000).await,
            None
        );
        // ... also while product 2 is in another running sale (its countdown's
        // key): that sale's page, not product 1's, names it.
        assert_eq!(
            next(keys(&["product:2", "flash_schedule:7", "menu"]), 1000).await,
            None
        );
        // A page showing product 1 expires at its start, then at its end.
        assert_eq!(
            next(keys(&["product:2", "product:1", "menu"]), 1000).await,
            Some(2000)
        );
        assert_eq!(next(keys(&["product:1"]), 2000).await, Some(3000));
        // A list, the flash sales, the home page, no keys: at any boundary.
        assert_eq!(
            next(keys(&["products", "product:2"]), 1000).await,
            Some(2000)
        );
        assert_eq!(next(keys(&["flash"]), 1000).await, Some(2000));
        assert_eq!(next(keys(&["home"]), 1000).await, Some(2000));
        assert_eq!(next(keys(&[]), 1000).await, Some(2000));
        // A blog post or the cart's shell shows no price: never.
        assert_eq!(next(keys(&["post:3", "posts", "menu"]), 1000).await, None);
        assert_eq!(next(keys(&["shells"]), 1000).await, None);
    }

    #[test]
    fn a_brief_edge_lifetime_keeps_its_window_until_a_price_change_is_nearer() {
        let (b, e) = header_values(1000, None, 60);
        assert_eq!(b, "public, max-age=60");
        assert_eq!(
            e,
            "max-age=60, stale-while-revalidate=60, stale-if-error=86400"
        );
        assert_eq!(header_values(1000, Some(1000 + 3600), 60).1, e);
        let (b, e) = header_values(1000, Some(1020), 60);
        assert_eq!(b, "public, max-age=20");
        assert_eq!(e, "max-age=20, stale-if-error=86400");
    }
}
