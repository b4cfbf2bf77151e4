//! Staging the next prices (issue 17): some minutes before a flash sale
//! starts or ends, `generator watch` renders every page whose content
//! changes at that boundary, with the boundary as "now", into memory (a dry
//! build, [`crate::build::build_dry`]: nothing is written into the site
//! directory), and stages them at every edge (`POST /stage`, see the edge's
//! `staged.rs`): each page in identity, brotli and gzip, with the header
//! fields and surrogate keys the origin would send for it at the boundary
//! ([`crate::answer::public_page_fields`], the rule the origin uses). At the
//! boundary every edge switches to them with no origin request; the watch's
//! rebuild at the boundary then writes the same pages into the site directory
//! and does not purge those whose content is what was staged (a purge would
//! drop the successor).
//!
//! The render runs on its own threads at the lowest CPU priority
//! ([`low_priority_threads`], nice 19 on Linux): it has minutes to finish, and
//! must not take the cores that serve requests. A render still going at the
//! boundary is abandoned (the boundary's rebuild does the work then).

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use catalog::surrogate::SurrogateKey;
use negotiate::Coding;
use serde::Serialize;

use crate::build::{build_dry, BuildOptions, Products};
use crate::output::{DryRun, Rendered};

/// Responses per `POST /stage` (the edge takes 10,000).
const RESPONSES_PER_REQUEST: usize = 1_500;
/// Bytes of JSON per `POST /stage`, about (the edge takes 64 MiB).
const BYTES_PER_REQUEST: usize = 16 << 20;
/// The CPU priority of the staging render's threads (Linux nice value).
pub const NICE: i32 = 19;

/// One `POST /stage` body: the boundary in Unix milliseconds and responses.
#[derive(Debug, Serialize)]
struct StageBody<'a> {
    at_ms: i64,
    responses: &'a [StagedResponse],
}

/// One staged response, as the edge's `StagedResponse` reads it.
#[derive(Debug, Serialize)]
struct StagedResponse {
    url: String,
    headers: Vec<(&'static str, String)>,
    tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body_base64: Option<String>,
}

/// A page as staged: what the boundary's rebuild compares its page with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagedPage {
    /// The content hash.
    pub hash: String,
    pub keys: Vec<String>,
}

/// One request's worth of a staging, ready to send to every edge.
#[derive(Debug)]
pub struct Chunk {
    /// The boundary, Unix milliseconds.
    pub at_ms: i64,
    /// The JSON body.
    pub body: bytes::Bytes,
    /// The pages in it, with their surrogate keys.
    pub pages: BTreeMap<String, Vec<String>>,
}

/// The pages staged for one boundary.
#[derive(Debug, Default)]
pub struct Staging {
    /// The boundary, Unix seconds.
    pub at: i64,
    /// Each staged page by URL path.
    pub pages: BTreeMap<String, StagedPage>,
    /// The requests that stage them.
    pub chunks: Vec<Arc<Chunk>>,
}

impl Staging {
    /// Whether a purge of these URLs, tags (or everything) drops any of the
    /// staged pages at the edges.
    pub fn touched_by(
        &self,
        urls: &std::collections::BTreeSet<String>,
        tags: &std::collections::BTreeSet<String>,
        all: bool,
    ) -> bool {
        !self.pages.is_empty()
            && (all
                || urls.iter().any(|u| self.pages.contains_key(u))
                || self
                    .pages
                    .values()
                    .any(|p| p.keys.iter().any(|k| tags.contains(k))))
    }
}

/// The threads the staging render runs on: as many as the cores, each at
/// [`NICE`] (on Linux a thread's nice value is its own), so the render takes
/// only CPU time that serving requests leaves idle.
pub fn low_priority_threads() -> anyhow::Result<Arc<rayon::ThreadPool>> {
    static THREADS: OnceLock<Arc<rayon::ThreadPool>> = OnceLock::new();
    if let Some(threads) = THREADS.get() {
        return Ok(threads.clone());
    }
    let threads = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("stage-render-{i}"))
        .start_handler(|_| lower_this_thread())
        .build()?;
    Ok(THREADS.get_or_init(|| Arc::new(threads)).clone())
}

/// Sets the calling thread's nice value to [`NICE`] (on Linux,
/// `setpriority(PRIO_PROCESS, tid)` sets one thread's).
fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    if let Err(err) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), NICE) {
        tracing::warn!(cause = %err, "cannot lower the staging render's priority");
    }
}

/// Unix milliseconds of Unix seconds.
fn ms(at: i64) -> i64 {
    at.saturating_mul(1000)
}

/// Renders, with `at` as now, the pages whose content differs at `at` from
/// the site directory (the product pages of the products repriced between
/// `built_at` and `at`, and every other page), and those whose freshness
/// ends at `at` though their content does not change (a list, the flash
/// sales: [`DryRun::renew`]), and prepares their staging. Nothing is
/// written; a render not done by `at` fails.
pub async fn render(
    options: &BuildOptions,
    pool: &catalog::db::Pool,
    built_at: i64,
    at: i64,
) -> anyhow::Result<Staging> {
    let repriced = catalog::pricing::products_repriced(pool, built_at, at).await?;
    let products = Products::Changed(
        repriced
            .iter()
            .map(|id| SurrogateKey::Product(*id).to_string())
            .collect(),
    );
    let report = build_dry(
        &BuildOptions {
            now: at,
            progress: false,
            ..options.clone()
        },
        &products,
        DryRun {
            deadline: Some(UNIX_EPOCH + Duration::from_millis(ms(at).max(0) as u64)),
            threads: Some(low_priority_threads()?),
            renew: Some(Arc::new(repriced.into_iter().collect())),
        },
    )
    .await?;
    let threads = low_priority_threads()?;
    let rendered = report.write.rendered;
    // Each page's freshness from `at` on, by the origin's rule.
    let mut next = Vec::with_capacity(rendered.len());
    for page in &rendered {
        next.push(catalog::pricing::next_change_for(pool, at, &page.keys).await?);
    }
    let built = tokio::task::block_in_place(|| threads.install(|| chunks(&rendered, at, &next)))?;
    Ok(Staging {
        at,
        pages: rendered
            .iter()
            .map(|p| {
                (
                    p.path.clone(),
                    StagedPage {
                        hash: p.hash.clone(),
                        keys: p.keys.clone(),
                    },
                )
            })
            .collect(),
        chunks: built.into_iter().map(Arc::new).collect(),
    })
}

/// The staged responses of a page: one per coding, each with the fields the
/// origin would send at `at` (the next price change after it being `next`).
fn responses(page: &Rendered, at: i64, next: Option<i64>) -> Vec<StagedResponse> {
    let b64 = base64::engine::general_purpose::STANDARD;
    [
        (Coding::Identity, &page.body),
        (Coding::Brotli, &page.br),
        (Coding::Gzip, &page.gz),
    ]
    .into_iter()
    .map(|(coding, bytes)| {
        let text = (coding == Coding::Identity)
            .then(|| std::str::from_utf8(bytes).ok().map(str::to_string))
            .flatten();
        StagedResponse {
            url: page.path.clone(),
            headers: crate::answer::public_page_fields(&page.path, &page.hash, coding, at, next),
            tags: page.keys.clone(),
            body_base64: text.is_none().then(|| b64.encode(bytes)),
            body: text,
        }
    })
    .collect()
}

/// The `POST /stage` bodies for `pages` (each with the next price change it
/// may show after `at`, `next[i]`), within the edge's limits.
fn chunks(pages: &[Rendered], at: i64, next: &[Option<i64>]) -> anyhow::Result<Vec<Chunk>> {
    let mut out = Vec::new();
    let mut batch: Vec<StagedResponse> = Vec::new();
    let mut names = BTreeMap::new();
    let mut bytes = 0;
    let flush = |batch: &mut Vec<StagedResponse>,
                 names: &mut BTreeMap<String, Vec<String>>,
                 out: &mut Vec<Chunk>|
     -> anyhow::Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let body = serde_json::to_vec(&StageBody {
            at_ms: ms(at),
            responses: batch,
        })?;
        out.push(Chunk {
            at_ms: ms(at),
            body: body.into(),
            pages: std::mem::take(names),
        });
        batch.clear();
        Ok(())
    };
    for (page, next) in pages.iter().zip(next) {
        let size = page.body.len() + (page.br.len() + page.gz.len()) * 4 / 3 + 2048;
        if !batch.is_empty()
            && (batch.len() + 3 > RESPONSES_PER_REQUEST || bytes + size > BYTES_PER_REQUEST)
        {
            flush(&mut batch, &mut names, &mut out)?;
            bytes = 0;
        }
        batch.extend(responses(page, at, *next));
        names.insert(page.path.clone(), page.keys.clone());
        bytes += size;
    }
    flush(&mut batch, &mut names, &mut out)?;
    Ok(out)
}

/// The instant `at_ms` (Unix milliseconds) as a system time.
pub fn instant(at_ms: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(at_ms.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, body: &str) -> Rendered {
        Rendered {
            path: path.into(),
            hash: crate::output::hash(body.as_bytes()),
            keys: vec!["product:5".into(), "flash".into()],
            body: body.as_bytes().to_vec(),
            br: vec![1, 2, 3],
            gz: vec![0x1f, 0x8b],
        }
    }

    #[test]
    fn a_page_is_staged_in_three_codings_with_the_origins_fields_at_the_boundary() {
        let chunks = chunks(&[page("/product/sofa", "<p>sale</p>")], 1000, &[Some(4600)]).unwrap();
        assert_eq!(chunks.len(), 1);
        let body: serde_json::Value = serde_json::from_slice(&chunks[0].body).unwrap();
        assert_eq!(body["at_ms"], 1_000_000);
        let responses = body["responses"].as_array().unwrap();
        assert_eq!(responses.len(), 3);
        assert_eq!(responses[0]["body"], "<p>sale</p>");
        assert!(responses[0].get("body_base64").is_none());
        assert_eq!(responses[1]["body_base64"], "AQID");
        assert_eq!(responses[2]["body_base64"], "H4s=");
        let fields = |i: usize| -> Vec<(String, String)> {
            serde_json::from_value(responses[i]["headers"].clone()).unwrap()
        };
        let expected = crate::answer::public_page_fields(
            "/product/sofa",
            &crate::output::hash(b"<p>sale</p>"),
            Coding::Brotli,
            1000,
            Some(4600),
        );
        assert_eq!(
            fields(1),
            expected
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect::<Vec<_>>()
        );
        assert!(fields(2).contains(&("content-encoding".into(), "gzip".into())));
        assert!(fields(0).iter().all(|(k, _)| k != "content-encoding"));
        assert_eq!(
            responses[0]["tags"],
            serde_json::json!(["product:5", "flash"])
        );
        assert_eq!(chunks[0].pages.len(), 1);
    }

    #[test]
    fn many_pages_go_in_several_requests() {
        let pages: Vec<Rendered> = (0..RESPONSES_PER_REQUEST)
            .map(|i| page(&format!("/p/{i}"), "x"))
            .collect();
        let chunks = chunks(&pages, 1000, &vec![None; pages.len()]).unwrap();
        assert_eq!(chunks.len(), 3);
        assert_eq!(
            chunks.iter().map(|c| c.pages.len()).sum::<usize>(),
            RESPONSES_PER_REQUEST
        );
        assert!(chunks
            .iter()
            .all(|c| c.pages.len() * 3 <= RESPONSES_PER_REQUEST));
    }

    #[test]
    fn a_purge_touches_a_staging_by_url_key_or_everything() {
        let mut staging = Staging::default();
        staging.pages.insert(
            "/p/a".into(),
            StagedPage {
                hash: "h".into(),
                keys: vec!["product:1".into()],
            },
        );
        let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
        assert!(staging.touched_by(&set(&["/p/a"]), &set(&[]), false));
        assert!(staging.touched_by(&set(&[]), &set(&["product:1"]), false));
        assert!(staging.touched_by(&set(&[]), &set(&[]), true));
        assert!(!staging.touched_by(&set(&["/p/b"]), &set(&["product:2"]), false));
    }
}
