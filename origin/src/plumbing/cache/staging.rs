//! Staging the origin's cacheable API answers that change at a flash-sale
//! boundary (issue 17): some minutes before each start or end
//! (`--stage-lead`), the origin renders those answers as they will be at the
//! boundary ([`catalog::clock::as_of`]: its own router, with the boundary as
//! "now", so the handlers and the [`super::headers`] middleware give exactly
//! what a request at that instant would get, freshness included) and stages
//! them at every edge (`POST /stage`, the edge's `staged.rs`), as `generator
//! watch` stages the pages. At the boundary every edge switches to them with
//! no origin request.
//!
//! The answers: the running flash sale (`home/flash-sales`,
//! `common/flash-sales`), the top offers (`home/top-offers`,
//! `common/top-offers`), and for each product repriced at the boundary its
//! `product/info` and `product/simple-info` and the first page of its
//! categories' `category/products` (and the whole shop's). Each of them
//! expires at the boundary ([`catalog::pricing::next_change_for`]), so each
//! is staged whether its body changes there or not: an unchanged one's
//! successor renews its freshness with no origin request. Each in identity,
//! brotli and gzip (the edge keys an answer by the coding the request
//! prefers).
//!
//! Kept staged: every second until the boundary the origin asks each edge
//! what it holds (`GET /staged`); an edge that lacks the answers (a purge
//! dropped them: a change made after they were rendered, which the watch
//! purges by its keys; or a restart) is sent a fresh rendering.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use base64::Engine;
use negotiate::Coding;
use serde::Serialize;
use tower::ServiceExt;

use crate::config::ServeArgs;

/// How often the coming boundary and the edges are looked at.
const TICK: Duration = Duration::from_secs(1);
/// No staging is sent later than this before its boundary (ms).
const MARGIN_MS: i64 = 500;
/// Largest answer rendered for staging.
const MAX_BODY: usize = 16 << 20;

/// The staging of the API answers: the edges and when.
#[derive(Debug, Clone)]
pub struct Staging {
    edges: Vec<String>,
    token: String,
    lead: i64,
    client: reqwest::Client,
}

/// One staged response, as the edge's `StagedResponse` reads it.
#[derive(Debug, Serialize)]
struct Staged {
    url: String,
    headers: Vec<(String, String)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body_base64: Option<String>,
}

#[derive(Debug, Serialize)]
struct StageBody<'a> {
    at_ms: i64,
    responses: &'a [Staged],
}

impl Staging {
    /// The staging the arguments ask for: none without an edge, a token or a lead.
    pub fn from_args(args: &ServeArgs) -> Option<Staging> {
        let edges: Vec<String> = args
            .edge_admin
            .split(',')
            .map(|e| e.trim().trim_end_matches('/').to_string())
            .filter(|e| !e.is_empty())
            .collect();
        let token = args.edge_token.as_ref().map(|t| t.0.clone())?;
        if edges.is_empty() || args.stage_lead == 0 || token.is_empty() {
            return None;
        }
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .ok()?;
        Some(Staging {
            edges,
            token,
            lead: i64::try_from(args.stage_lead).unwrap_or(i64::MAX),
            client,
        })
    }

    /// Runs until the process ends.
    pub async fn run(self, app: Router, pool: catalog::db::Pool) {
        tracing::info!(edges = ?self.edges, lead_s = self.lead, "staging API answers before flash-sale boundaries");
        // The boundary rendered for, the answers, and the edges that hold them.
        let mut rendered: Option<(i64, u64, Vec<Staged>)> = None;
        loop {
            tokio::time::sleep(TICK).await;
            let now_ms = unix_ms();
            let now = now_ms.div_euclid(1000);
            let t = match catalog::pricing::next_price_change(&pool, now).await {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(err) => {
                    tracing::warn!(cause = %err, "cannot read flash schedules");
                    continue;
                }
            };
            if t - now > self.lead || t * 1000 - now_ms < MARGIN_MS {
                continue;
            }
            let mark = match last_change(&pool).await {
                Ok(m) => m,
                Err(err) => {
                    tracing::warn!(cause = %err, "cannot read the change log");
                    continue;
                }
            };
            if rendered.as_ref().is_none_or(|r| r.0 != t || r.1 != mark) {
                match render(&app, &pool, now, t).await {
                    Ok(answers) => {
                        tracing::info!(
                            at = t,
                            answers = answers.len(),
                            "API answers rendered for the boundary"
                        );
                        rendered = Some((t, mark, answers));
                    }
                    Err(err) => {
                        tracing::warn!(cause = %format!("{err:#}"), "cannot render the API answers for a boundary");
                        continue;
                    }
                }
            }
            let Some((_, _, answers)) = &rendered else {
                continue;
            };
            if answers.is_empty() {
                continue;
            }
            for edge in &self.edges {
                match self.held(edge, t).await {
                    Ok(held) if held >= answers.len() => continue,
                    Ok(_) => {}
                    Err(err) => {
                        tracing::warn!(edge, cause = %format!("{err:#}"), "cannot list what the edge holds staged");
                        continue;
                    }
                }
                if let Err(err) = self.send(edge, t, answers).await {
                    tracing::warn!(edge, cause = %format!("{err:#}"), "cannot stage the API answers");
                }
            }
        }
    }

    /// How many API answers `edge` holds staged for boundary `t`.
    async fn held(&self, edge: &str, t: i64) -> anyhow::Result<usize> {
        let list: serde_json::Value = self
            .client
            .get(format!("{edge}/staged"))
            .bearer_auth(&self.token)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        Ok(list["successors"].as_array().map_or(0, |all| {
            all.iter()
                .filter(|s| s["at_ms"].as_i64() == Some(t * 1000))
                .filter(|s| s["url"].as_str().is_some_and(|u| u.starts_with("/api/")))
                .count()
        }))
    }

    async fn send(&self, edge: &str, t: i64, answers: &[Staged]) -> anyhow::Result<()> {
        let body = serde_json::to_vec(&StageBody {
            at_ms: t * 1000,
            responses: answers,
        })?;
        let res = self
            .client
            .post(format!("{edge}/stage"))
            .bearer_auth(&self.token)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body)
            .send()
            .await?;
        let status = res.status();
        if !status.is_success() {
            anyhow::bail!("{status}: {}", res.text().await.unwrap_or_default());
        }
        tracing::info!(edge, at = t, answers = answers.len(), "API answers staged");
        Ok(())
    }
}

fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The change log's last id: a change since a rendering renders again.
async fn last_change(pool: &catalog::db::Pool) -> Result<u64, sqlx::Error> {
    let id: Option<i64> = catalog::db::query_scalar("SELECT MAX(id) FROM change_log")
        .fetch_one(pool)
        .await?;
    Ok(id.unwrap_or(0).max(0) as u64)
}

/// The URLs whose answers expire at boundary `t` (after `now`): those that may change there.
async fn candidates(pool: &catalog::db::Pool, now: i64, t: i64) -> anyhow::Result<Vec<String>> {
    let mut urls: Vec<String> = [
        "/api/home/flash-sales",
        "/api/common/flash-sales",
        "/api/home/top-offers",
        "/api/common/top-offers",
        "/api/category/products?seo_url=products",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    // The repriced products and their categories: two queries, whatever
    // the sale's size.
    let repriced = catalog::pricing::REPRICED_IDS;
    let products: Vec<String> = catalog::db::query_scalar(&format!(
        "SELECT seo_url FROM product WHERE id IN ({repriced}) ORDER BY id"
    ))
    .bind(now)
    .bind(t)
    .fetch_all(pool)
    .await?;
    for slug in products {
        let q = encode(&slug);
        urls.push(format!("/api/product/info?seo_url={q}"));
        urls.push(format!("/api/product/simple-info?seo_url={q}"));
    }
    let categories: std::collections::BTreeSet<String> = catalog::db::query_scalar(&format!(
        "SELECT DISTINCT c.seo_url FROM product_category pc JOIN category c ON c.id = pc.category_id \
         WHERE pc.product_id IN ({repriced})"
    ))
    .bind(now)
    .bind(t)
    .fetch_all(pool)
    .await?
    .into_iter()
    .collect();
    urls.extend(
        categories
            .into_iter()
            .map(|c| format!("/api/category/products?seo_url={}", encode(&c))),
    );
    urls.dedup();
    Ok(urls)
}

/// A query value, percent-encoded.
fn encode(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// One answer of the origin's router: status, fields and body.
async fn answer(
    app: &Router,
    url: &str,
) -> anyhow::Result<(StatusCode, axum::http::HeaderMap, axum::body::Bytes)> {
    let request = Request::get(url).body(Body::empty())?;
    let response = app.clone().oneshot(request).await?;
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, MAX_BODY).await?;
    Ok((parts.status, parts.headers, body))
}

/// The staged responses of the answers that expire at `t`: each rendered
/// with `t` as now, in the three codings.
async fn render(
    app: &Router,
    pool: &catalog::db::Pool,
    now: i64,
    t: i64,
) -> anyhow::Result<Vec<Staged>> {
    let mut out = Vec::new();
    for url in candidates(pool, now, t).await? {
        let (status, headers, body) = catalog::clock::as_of(t, answer(app, &url)).await?;
        if status != StatusCode::OK || !headers.contains_key(&super::SURROGATE_KEY) {
            continue; // not a public answer
        }
        out.extend(codings(&url, &headers, &body)?);
    }
    Ok(out)
}

/// An answer in identity, brotli and gzip, with its origin fields.
fn codings(url: &str, headers: &axum::http::HeaderMap, body: &[u8]) -> anyhow::Result<Vec<Staged>> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let fields: Vec<(String, String)> = headers
        .iter()
        .filter(|(name, _)| {
            !matches!(
                name.as_str(),
                "content-length" | "content-encoding" | "date" | "vary" | "transfer-encoding"
            )
        })
        .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_string())))
        .chain([("vary".to_string(), "Accept-Encoding".to_string())])
        .collect();
    let mut out = Vec::new();
    for coding in [Coding::Identity, Coding::Brotli, Coding::Gzip] {
        let mut headers = fields.clone();
        let bytes = match coding {
            Coding::Brotli => generator::serve::brotli_bytes(body, Default::default())?,
            Coding::Gzip => generator::serve::gzip_bytes(body, generator::serve::GZIP_ON_REQUEST)?,
            _ => body.to_vec(),
        };
        if let Some(name) = coding.content_encoding() {
            headers.push(("content-encoding".to_string(), name.to_string()));
        }
        let text = (coding == Coding::Identity)
            .then(|| String::from_utf8(bytes.clone()).ok())
            .flatten();
        out.push(Staged {
            url: url.to_string(),
            headers,
            body_base64: text.is_none().then(|| b64.encode(&bytes)),
            body: text,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_staged_in_three_codings_with_its_fields() {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("content-type", "application/json".parse().unwrap());
        headers.insert(
            "cdn-cache-control",
            "max-age=3600, stale-if-error=86400".parse().unwrap(),
        );
        headers.insert("surrogate-key", "flash product:5".parse().unwrap());
        headers.insert("content-length", "11".parse().unwrap());
        let staged = codings("/api/home/flash-sales", &headers, b"{\"a\":12345}").unwrap();
        assert_eq!(staged.len(), 3);
        assert_eq!(staged[0].body.as_deref(), Some("{\"a\":12345}"));
        assert!(staged[1].body_base64.is_some() && staged[1].body.is_none());
        let field = |i: usize, n: &str| {
            staged[i]
                .headers
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(field(0, "content-encoding"), None);
        assert_eq!(field(1, "content-encoding").as_deref(), Some("br"));
        assert_eq!(field(2, "content-encoding").as_deref(), Some("gzip"));
        assert_eq!(
            field(2, "surrogate-key").as_deref(),
            Some("flash product:5")
        );
        assert_eq!(field(0, "content-length"), None);
        assert_eq!(field(0, "vary").as_deref(), Some("Accept-Encoding"));
        let gz = base64::engine::general_purpose::STANDARD
            .decode(staged[2].body_base64.as_ref().unwrap())
            .unwrap();
        let mut plain = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut plain)
            .unwrap();
        assert_eq!(plain, "{\"a\":12345}");
    }

    #[tokio::test]
    async fn the_answers_staged_are_those_of_the_products_a_boundary_reprices_and_their_lists() {
        let db = catalog::db::testing::TestDatabase::migrated().await;
        let pool = db.pool().await;
        let dir = catalog::db::testing::temp_dir();
        let now = 1_800_000_000;
        demo::seed(
            &pool,
            &demo::SeedOptions {
                products: 60,
                seed: 7,
                storage_dir: dir.path().to_path_buf(),
                now,
                progress: false,
            },
        )
        .await
        .unwrap();
        let t = catalog::pricing::next_price_change(&pool, now)
            .await
            .unwrap()
            .expect("the demo has a coming boundary");
        let repriced = catalog::pricing::products_repriced(&pool, now, t)
            .await
            .unwrap();
        assert!(!repriced.is_empty());
        // Each repriced product's two answers and each of its categories'
        // lists, beside the lists every boundary may change; nothing else.
        let every_boundary: Vec<String> = [
            "/api/home/flash-sales",
            "/api/common/flash-sales",
            "/api/home/top-offers",
            "/api/common/top-offers",
            "/api/category/products?seo_url=products",
        ]
        .map(String::from)
        .to_vec();
        let mut want = every_boundary.clone();
        let mut lists = std::collections::BTreeSet::new();
        for id in &repriced {
            let slug: String =
                catalog::db::query_scalar("SELECT seo_url FROM product WHERE id = $1")
                    .bind(id)
                    .fetch_one(&pool)
                    .await
                    .unwrap();
            want.push(format!("/api/product/info?seo_url={}", encode(&slug)));
            want.push(format!(
                "/api/product/simple-info?seo_url={}",
                encode(&slug)
            ));
            let categories: Vec<String> = catalog::db::query_scalar(
                "SELECT c.seo_url FROM product_category pc JOIN category c ON c.id = pc.category_id \
                 WHERE pc.product_id = $1",
            )
            .bind(id)
            .fetch_all(&pool)
            .await
            .unwrap();
            lists.extend(categories);
        }
        want.extend(
            lists
                .iter()
                .map(|c| format!("/api/category/products?seo_url={}", encode(c))),
        );
        assert_eq!(candidates(&pool, now, t).await.unwrap(), want);
        // A span that reprices nothing stages only those lists.
        assert!(t > now + 1);
        assert_eq!(
            candidates(&pool, now, now + 1).await.unwrap(),
            every_boundary
        );
    }
}
