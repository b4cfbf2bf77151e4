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
//! The staged pages also wait on disk beside the site ([`STAGED_DIR`], never
//! served), and at the boundary the watch moves them into the site first
//! ([`install`]), before its rebuild renders them again with the data of
//! that moment: an edge that lost a successor (a stock change purged it)
//! then gets the new prices from the origin at once, not after the rebuild.
//!
//! The render runs on its own threads at the lowest CPU priority
//! ([`low_priority_threads`], nice 19 on Linux): it has minutes to finish, and
//! must not take the cores that serve requests. A render still going at the
//! boundary is abandoned (the boundary's rebuild does the work then).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use base64::Engine;
use catalog::surrogate::SurrogateKey;
use negotiate::Coding;
use serde::Serialize;

use crate::build::{build_dry, BuildOptions, Products};
use crate::output::{
    file_for, remove_if_present, with_suffix, Compression, DryRun, Entry, Manifest, Rendered,
};

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
/// written into the site: the pages are kept beside it ([`keep`]) for the
/// boundary. A render not done by `at` fails.
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
    let built = tokio::task::block_in_place(|| {
        keep(&options.out, at, &rendered, options.compression)?;
        threads.install(|| chunks(&rendered, at, &next))
    })?;
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
        let mut headers =
            crate::answer::public_page_fields(&page.path, &page.hash, coding, at, next);
        if let Some(csp) = headers
            .iter_mut()
            .find(|(k, _)| *k == "content-security-policy")
        {
            if csp.1 == crate::answer::PAGE_CSP {
                csp.1 = crate::answer::page_policy(&page.body);
            }
        }
        StagedResponse {
            url: page.path.clone(),
            headers,
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

/// The directory, inside the site directory, where the staged pages wait
/// for their boundary (`.staged/{at}/`, laid out as the site). The manifest
/// does not list them, so the origin never serves them.
pub const STAGED_DIR: &str = ".staged";

/// Where the pages staged for boundary `at` wait.
fn staged_root(out: &Path, at: i64) -> PathBuf {
    out.join(STAGED_DIR).join(at.to_string())
}

/// Keeps the staged pages on disk for [`install`], in place of any earlier
/// staging's: each as the site writes it (the page, its `.br` and, when the
/// site keeps one, its `.gz`; the page itself last, which marks it whole).
pub fn keep(
    out: &Path,
    at: i64,
    pages: &[Rendered],
    compression: Compression,
) -> anyhow::Result<()> {
    discard(out)?;
    let root = staged_root(out, at);
    for page in pages {
        let file = root.join(file_for(&page.path)?);
        let parent = file.parent().context("a page file has a directory")?;
        fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        let mut copies = vec![(with_suffix(&file, ".br"), &page.br)];
        if compression.gzip_level.is_some() {
            copies.push((with_suffix(&file, ".gz"), &page.gz));
        }
        copies.push((file, &page.body));
        for (file, bytes) in copies {
            fs::write(&file, bytes).with_context(|| format!("writing {}", file.display()))?;
        }
    }
    Ok(())
}

/// Removes every staging kept on disk.
pub fn discard(out: &Path) -> anyhow::Result<()> {
    let dir = out.join(STAGED_DIR);
    match fs::remove_dir_all(&dir) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            Err(err).with_context(|| format!("removing {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// At the boundary: moves the pages [`keep`] kept for `staging` into the
/// site (a rename per file, the page itself last) and then records them in
/// the manifest as showing the data of the boundary. A page the site no
/// longer has, or whose kept files are not whole, is left to the rebuild.
/// Removes what is kept and returns the paths of the pages moved.
pub fn install(
    out: &Path,
    staging: &Staging,
    compression: Compression,
) -> anyhow::Result<Vec<String>> {
    let root = staged_root(out, staging.at);
    let mut moved = Vec::new();
    for (path, page) in &staging.pages {
        let file = file_for(path)?;
        let (from, to) = (root.join(&file), out.join(&file));
        if !from.exists() || !to.exists() {
            continue;
        }
        let mut renames = vec![(with_suffix(&from, ".br"), with_suffix(&to, ".br"))];
        if compression.gzip_level.is_some() {
            renames.push((with_suffix(&from, ".gz"), with_suffix(&to, ".gz")));
        } else {
            remove_if_present(&with_suffix(&to, ".gz"))?;
        }
        renames.push((from, to));
        for (from, to) in renames {
            fs::rename(&from, &to).with_context(|| format!("moving {}", from.display()))?;
        }
        moved.push((path, page));
    }
    if !moved.is_empty() {
        let mut manifest = Manifest::load(out)?;
        for (path, page) in &moved {
            manifest.pages.insert(
                (*path).clone(),
                Entry {
                    hash: page.hash.clone(),
                    keys: page.keys.clone(),
                    as_of: Some(staging.at),
                },
            );
        }
        manifest.save(out)?;
    }
    discard(out)?;
    Ok(moved.into_iter().map(|(path, _)| path.clone()).collect())
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
    fn kept_pages_move_into_the_site_at_the_boundary_and_the_manifest_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let old = |path: &str| crate::output::Page {
            path: path.into(),
            body: b"<p>regular</p>".to_vec(),
            keys: vec!["product:5".into()],
        };
        let compression = Compression {
            gzip_level: None,
            ..Compression::default()
        };
        crate::output::write_pages(
            out,
            &[old("/product/sofa"), old("/c/sofas")],
            compression,
            crate::output::Scope::Full,
        )
        .unwrap();
        let sofa = page("/product/sofa", "<p>sale</p>");
        let gone = page("/product/gone", "<p>sale</p>");
        let mut staging = Staging {
            at: 1000,
            ..Staging::default()
        };
        for p in [&sofa, &gone] {
            staging.pages.insert(
                p.path.clone(),
                StagedPage {
                    hash: p.hash.clone(),
                    keys: p.keys.clone(),
                },
            );
        }
        // A staging kept earlier is replaced.
        keep(
            out,
            900,
            &[page("/product/sofa", "<p>older</p>")],
            compression,
        )
        .unwrap();
        keep(out, 1000, &[sofa.clone(), gone.clone()], compression).unwrap();
        assert!(!out.join(".staged/900").exists());
        let kept = out.join(".staged/1000/product/sofa/index.html");
        assert_eq!(fs::read(&kept).unwrap(), b"<p>sale</p>");
        assert!(
            !with_suffix(&kept, ".gz").exists(),
            "the site keeps no gzip copy"
        );
        let site = |p: &str| fs::read(out.join(p)).unwrap();
        assert_eq!(site("product/sofa/index.html"), b"<p>regular</p>");

        assert_eq!(
            install(out, &staging, compression).unwrap(),
            ["/product/sofa"]
        );
        assert_eq!(site("product/sofa/index.html"), b"<p>sale</p>");
        assert_eq!(site("product/sofa/index.html.br"), sofa.br);
        assert_eq!(site("c/sofas/index.html"), b"<p>regular</p>");
        assert!(!out.join("product/gone").exists(), "not a page of the site");
        assert!(!out.join(STAGED_DIR).exists());
        let manifest = Manifest::load(out).unwrap();
        let entry = &manifest.pages["/product/sofa"];
        assert_eq!(
            (entry.hash.as_str(), entry.as_of),
            (sofa.hash.as_str(), Some(1000))
        );
        assert!(!manifest.pages.contains_key("/product/gone"));
        // Nothing kept: nothing moves.
        assert!(install(out, &staging, compression).unwrap().is_empty());
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
