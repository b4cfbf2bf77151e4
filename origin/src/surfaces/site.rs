//! Serving the site the generator wrote (`generator build --out DIR`).
//!
//! A path is looked up in the site's manifest (`manifest.json`, reread when
//! it changes): `/product/sofa` is `product/sofa/index.html`, with
//! `index.html.br` (and `index.html.gz` when the build kept one; else a gzip
//! answer is compressed on request) beside it. The copy sent is the first
//! coding `Accept-Encoding` allows by [`negotiate::acceptable_codings`] (the
//! rule the edge keys its cache by) that is at hand, with `Vary:
//! Accept-Encoding`; the ETag is the manifest's content hash (per encoding),
//! and a matching `If-None-Match` gets a 304. Pages are public and tagged with
//! the manifest's surrogate keys through [`crate::plumbing::cache::public`], so the
//! cache headers are written in one place; a page whose prices a flash sale's
//! start or end has changed since it was written (`Entry::outdated`) is sent
//! whole and uncacheable until the watch rewrites it. Per-visitor pages with a variable
//! last segment (`/user/{view}`, `/product/review/{id}`) get their shell;
//! hashed assets under `/assets/` are served as files, cacheable forever;
//! `/c` and a CMS page's number (`/page/7`) move permanently to the pages
//! they name (`/c/products`, `/page/{seo_url}`); every other path gets the
//! not-found page with status 404.
//!
//! A listing path with a query of listing parameters (`/c/beds?page=2`,
//! `/c/products?keyword=sofa`) is rendered on demand by
//! [`listing`].

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{
    HeaderValue, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use generator::serve::{file_for, Entry, Manifest, MANIFEST_FILE};
use negotiate::Coding;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::state::AppState;
use listing::{Answer, ListingPages};

pub mod listing;

/// Where hashed web assets live, in URLs and inside the site directory.
pub const ASSETS_PREFIX: &str = "/assets/";
/// Browser and edge lifetime of a hashed asset: a year, never revalidated.
pub const ASSET_CACHE_CONTROL: &str = "public, max-age=31536000, immutable";

/// The site directory and its manifest, reloaded when the file changes.
#[derive(Debug)]
pub struct SiteFiles {
    dir: PathBuf,
    manifest: RwLock<Loaded>,
    /// Held while the manifest is read: one read at a time (issue 19). At
    /// 100,000 products `manifest.json` is 59 MB and its parsed form about
    /// 200 MB (3 million surrogate keys); the first four requests of a fuzz
    /// each read it at once, and glibc kept the 800 MB they peaked at.
    reading: tokio::sync::Mutex<()>,
}

#[derive(Debug, Default)]
struct Loaded {
    stamp: Option<(SystemTime, u64)>,
    manifest: Arc<Manifest>,
}

impl SiteFiles {
    /// The site at `dir` (the manifest is read on first use).
    pub fn new(dir: impl Into<PathBuf>) -> SiteFiles {
        SiteFiles {
            dir: dir.into(),
            manifest: RwLock::new(Loaded::default()),
            reading: tokio::sync::Mutex::new(()),
        }
    }

    /// The current manifest: reread when `manifest.json` changed on disk (the
    /// generator replaces it atomically after writing the pages). One request
    /// reads it; those that come meanwhile wait for its copy.
    pub async fn manifest(&self) -> Arc<Manifest> {
        let file = self.dir.join(MANIFEST_FILE);
        let stamp = tokio::fs::metadata(&file)
            .await
            .ok()
            .map(|m| (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len()));
        if let Some(manifest) = self.loaded(stamp) {
            return manifest;
        }
        let _reading = self.reading.lock().await;
        if let Some(manifest) = self.loaded(stamp) {
            return manifest;
        }
        let dir = self.dir.clone();
        let manifest = tokio::task::spawn_blocking(move || Manifest::load(&dir))
            .await
            .map_err(anyhow::Error::from)
            .and_then(|r| r);
        let manifest = match manifest {
            Ok(m) => Arc::new(m),
            Err(err) => {
                tracing::warn!(cause = %err, dir = %self.dir.display(), "cannot read the site manifest");
                Arc::new(Manifest::default())
            }
        };
        let mut loaded = self.manifest.write().unwrap_or_else(|e| e.into_inner());
        *loaded = Loaded {
            stamp,
            manifest: manifest.clone(),
        };
        manifest
    }

    /// The manifest read last, if it was read at `stamp`.
    fn loaded(&self, stamp: Option<(SystemTime, u64)>) -> Option<Arc<Manifest>> {
        let loaded = self.manifest.read().unwrap_or_else(|e| e.into_inner());
        (loaded.stamp == stamp).then(|| loaded.manifest.clone())
    }
}

/// What the site service holds: the files and the on-demand listing pages.
#[derive(Clone)]
struct SiteState {
    files: Arc<SiteFiles>,
    listings: Arc<ListingPages>,
    pool: catalog::db::Pool,
}

/// The service answering every path the other routes do not: the site in
/// `state.dirs.site`, and listing pages rendered for a query.
pub fn service(state: AppState) -> Router {
    Router::new().fallback(serve_site).with_state(SiteState {
        files: Arc::new(SiteFiles::new(state.dirs.site.clone())),
        pool: state.pool.clone(),
        listings: Arc::new(ListingPages::new(state)),
    })
}

/// The file of a page's copy in `coding`: the page's own name plus this.
fn suffix(coding: Coding) -> &'static str {
    match coding {
        Coding::Brotli => ".br",
        Coding::Gzip => ".gz",
        Coding::Identity => "",
    }
}

/// The ETag of a page in a coding: the manifest hash, shortened, with the
/// coding named so each representation has its own strong tag
/// ([`generator::serve::etag`]).
pub fn etag(entry: &Entry, coding: Coding) -> String {
    generator::serve::etag(&entry.hash, coding)
}

/// Whether `If-None-Match` names the page's current content (in any coding:
/// the content is the same).
pub fn not_modified(headers: &HeaderMap, entry: &Entry) -> bool {
    let short = &entry.hash[..entry.hash.len().min(20)];
    if_none_match(headers, |tag| {
        let tag = tag.trim_matches('"');
        tag == "*" || tag.split('-').next() == Some(short)
    })
}

/// Whether any entity tag that `If-None-Match` lists (its `W/` weak prefix
/// dropped, quotes kept) satisfies `matches`.
pub fn if_none_match(headers: &HeaderMap, matches: impl Fn(&str) -> bool) -> bool {
    headers.get_all(IF_NONE_MATCH).iter().any(|v| {
        v.to_str().is_ok_and(|v| {
            v.split(',').any(|tag| {
                let tag = tag.trim();
                matches(tag.strip_prefix("W/").unwrap_or(tag))
            })
        })
    })
}

/// The manifest path a request path is served from, if any.
pub fn page_for<'a>(manifest: &'a Manifest, path: &str) -> Option<(&'a str, &'a Entry)> {
    let trimmed = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    let trimmed = if trimmed.is_empty() { "/" } else { trimmed };
    if let Some((k, e)) = manifest.pages.get_key_value(trimmed) {
        return Some((k.as_str(), e));
    }
    let shell = generator::serve::shell_for_prefix(trimmed)?;
    manifest
        .pages
        .get_key_value(shell)
        .map(|(k, e)| (k.as_str(), e))
}

async fn serve_site(State(state): State<SiteState>, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "Method not allowed").into_response();
    }
    let site = &state.files;
    let head = request.method() == Method::HEAD;
    let manifest = site.manifest().await;
    let path = request.uri().path().to_string();
    if let Some(slug) = listing::listing_slug(&path).filter(|_| request.uri().query().is_some()) {
        let answer = state
            .listings
            .answer(slug, request.uri(), &manifest, request.headers(), head)
            .await;
        let status = match answer {
            Ok(Answer::Prebuilt) => None,
            Ok(Answer::Page(response)) => return response,
            Ok(Answer::NotFound) => Some(StatusCode::NOT_FOUND),
            Err(err) => {
                tracing::error!(cause = %format!("{err:#}"), %path, "cannot render a listing page");
                Some(StatusCode::INTERNAL_SERVER_ERROR)
            }
        };
        if let Some(status) = status {
            return error_page(&site.dir, &manifest, request.headers(), status, head).await;
        }
    }
    if let Some((page, entry)) = page_for(&manifest, &path) {
        // A copy whose prices a flash sale's start or end has outdated
        // ([`Entry::outdated`]) is sent `private, no-store`, so that no cache
        // keeps it past its time and the edge asks again until the watch
        // has rewritten it; and whole: a 304 would tell a cache that its
        // copy of the same old prices is still good. When the schedules
        // cannot be read, the cache middleware makes every answer
        // uncacheable anyway.
        let outdated = entry
            .outdated(&state.pool, catalog::clock::now_unix())
            .await
            .unwrap_or(false);
        let unconditional;
        let headers = if outdated {
            let mut all = request.headers().clone();
            all.remove(IF_NONE_MATCH);
            unconditional = all;
            &unconditional
        } else {
            request.headers()
        };
        return match send_page(&site.dir, page, entry, headers, head).await {
            Ok(response) if outdated => {
                tracing::debug!(path = %page, "a price on this page changed since it was written: sent uncacheable until the watch rewrites it");
                response
            }
            Ok(response) => crate::plumbing::cache::public(response, entry.keys.iter().cloned()),
            Err(err) => {
                tracing::error!(cause = %err, path = %page, "cannot read a site page");
                error_page(
                    &site.dir,
                    &manifest,
                    request.headers(),
                    StatusCode::INTERNAL_SERVER_ERROR,
                    head,
                )
                .await
            }
        };
    }
    match moved(&state.pool, &path).await {
        Ok(Some((to, keys))) => return redirect(&to, request.uri().query(), keys),
        Ok(None) => {}
        Err(err) => tracing::error!(cause = %err, %path, "cannot look a moved page up"),
    }
    let headers = request.headers().clone();
    if path.starts_with(ASSETS_PREFIX) && !path.contains("..") {
        let mut response = ServeDir::new(&site.dir)
            .precompressed_br()
            .precompressed_gzip()
            .oneshot(request)
            .await
            .map(IntoResponse::into_response)
            .unwrap_or_else(|e| match e {});
        if response.status().is_success() {
            response
                .headers_mut()
                .insert(CACHE_CONTROL, HeaderValue::from_static(ASSET_CACHE_CONTROL));
            return response;
        }
    }
    error_page(&site.dir, &manifest, &headers, StatusCode::NOT_FOUND, head).await
}

/// The address a path that has no page of its own has moved to, with the
/// surrogate keys of what decides it: `/c` (and `/c/`) is the shop's whole
/// listing, `/c/products`; `/page/{id}` (a CMS page's number, as old links
/// have it) is the page's own address, `/page/{seo_url}`.
async fn moved(
    pool: &catalog::db::Pool,
    path: &str,
) -> sqlx::Result<Option<(String, Vec<String>)>> {
    let path = path.trim_end_matches('/');
    if path == "/c" {
        return Ok(Some((
            format!("/c/{}", generator::serve::ALL_PRODUCTS),
            vec![],
        )));
    }
    let Some(id) = path
        .strip_prefix("/page/")
        .filter(|id| !id.is_empty() && id.len() <= 18 && id.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|id| id.parse::<i64>().ok())
    else {
        return Ok(None);
    };
    let page = catalog::read::content::page(pool, id).await?;
    Ok(page.map(|p| {
        (
            format!("/page/{}", p.seo_url),
            vec![catalog::surrogate::SurrogateKey::Page(p.id).to_string()],
        )
    }))
}

/// A permanent, cacheable redirect to `to`, keeping the query.
fn redirect(to: &str, query: Option<&str>, keys: Vec<String>) -> Response {
    let location = match query {
        Some(q) if !q.is_empty() => format!("{to}?{q}"),
        _ => to.to_string(),
    };
    let response = (
        StatusCode::MOVED_PERMANENTLY,
        [(axum::http::header::LOCATION, location)],
    )
        .into_response();
    crate::plumbing::cache::public(response, keys)
}

/// The not-found (404) or server-error page with `status`; plain text when
/// the site has none.
async fn error_page(
    dir: &Path,
    manifest: &Manifest,
    headers: &HeaderMap,
    status: StatusCode,
    head: bool,
) -> Response {
    let page = if status == StatusCode::NOT_FOUND {
        generator::serve::NOT_FOUND_PATH
    } else {
        generator::serve::SERVER_ERROR_PATH
    };
    if manifest.pages.contains_key(page) {
        if let Ok(mut response) = send_body(dir, page, headers, head).await {
            *response.status_mut() = status;
            return response;
        }
    }
    let text = if status == StatusCode::NOT_FOUND {
        "This page could not be found"
    } else {
        "Unexpected error"
    };
    (status, text).into_response()
}

/// The 304 for a client that has `entry`'s content.
pub fn not_modified_response(entry: &Entry, coding: Coding) -> Response {
    let mut response = StatusCode::NOT_MODIFIED.into_response();
    let h = response.headers_mut();
    h.insert(VARY, HeaderValue::from_static(generator::serve::VARY));
    if let Ok(v) = HeaderValue::from_str(&etag(entry, coding)) {
        h.insert(ETAG, v);
    }
    response
}

/// A response of `bytes` already in `coding` (no body for HEAD, the length
/// still sent), with its type and `Vary: Accept-Encoding`.
pub fn body_response(
    bytes: Vec<u8>,
    content_type: &'static str,
    coding: Coding,
    head: bool,
) -> Response {
    let len = bytes.len();
    let body = if head {
        Body::empty()
    } else {
        Body::from(bytes)
    };
    let mut response = Response::new(body);
    let h = response.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(VARY, HeaderValue::from_static(generator::serve::VARY));
    h.insert(axum::http::header::CONTENT_LENGTH, HeaderValue::from(len));
    if let Some(name) = coding.content_encoding() {
        h.insert(CONTENT_ENCODING, HeaderValue::from_static(name));
    }
    response
}

/// `body` in `coding`, compressed now (pages without a stored copy in it,
/// listing pages rendered on demand).
pub fn encode(body: Vec<u8>, coding: Coding) -> anyhow::Result<Vec<u8>> {
    match coding {
        Coding::Brotli => {
            generator::serve::brotli_bytes(&body, generator::serve::Compression::default())
        }
        Coding::Gzip => generator::serve::gzip_bytes(&body, generator::serve::GZIP_ON_REQUEST),
        Coding::Identity => Ok(body),
    }
}

/// Sends a page, or a 304 when the client has it.
async fn send_page(
    dir: &Path,
    page: &str,
    entry: &Entry,
    headers: &HeaderMap,
    head: bool,
) -> anyhow::Result<Response> {
    let codings = negotiate::acceptable_codings(headers);
    if not_modified(headers, entry) {
        return Ok(not_modified_response(entry, codings[0]));
    }
    let (mut response, coding) = read_best(dir, page, &codings, head).await?;
    // The page's fields by the rule `generator watch` stages pages with
    // (the freshness and surrogate keys come from `plumbing::cache`).
    for (name, value) in generator::serve::page_fields(page, &entry.hash, coding) {
        if let Ok(v) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, v);
        }
    }
    // A page's script policy as a header too, read from its own `<meta>`.
    if generator::serve::content_type(page).starts_with("text/html") {
        let policy = generator::serve::page_policy(&page_head(dir, page).await?);
        if let Ok(v) = HeaderValue::from_str(&policy) {
            response
                .headers_mut()
                .insert(axum::http::header::CONTENT_SECURITY_POLICY, v);
        }
    }
    Ok(response)
}

/// The first kilobytes of `page`'s uncompressed file, where its policy is.
async fn page_head(dir: &Path, page: &str) -> anyhow::Result<Vec<u8>> {
    use tokio::io::AsyncReadExt;
    let mut head = Vec::with_capacity(4096);
    tokio::fs::File::open(dir.join(file_for(page)?))
        .await?
        .take(4096)
        .read_to_end(&mut head)
        .await?;
    Ok(head)
}

async fn send_body(
    dir: &Path,
    page: &str,
    headers: &HeaderMap,
    head: bool,
) -> anyhow::Result<Response> {
    let codings = negotiate::acceptable_codings(headers);
    Ok(read_best(dir, page, &codings, head).await?.0)
}

/// Reads the best copy of `page` the client accepts (a missing compressed copy
/// falls back to the next coding).
async fn read_best(
    dir: &Path,
    page: &str,
    codings: &[Coding],
    head: bool,
) -> anyhow::Result<(Response, Coding)> {
    let base = dir.join(file_for(page)?);
    let mut last_err = None;
    for coding in codings {
        let mut file = base.clone().into_os_string();
        file.push(suffix(*coding));
        let bytes = match tokio::fs::read(&file).await {
            Ok(bytes) => bytes,
            // The generator keeps no gzip copy of pages by default: compress
            // the page for this rare client (the edge keeps the answer).
            Err(err) if *coding == Coding::Gzip => match tokio::fs::read(&base).await {
                Ok(raw) => encode(raw, Coding::Gzip)?,
                Err(_) => {
                    last_err = Some(err);
                    continue;
                }
            },
            Err(err) => {
                last_err = Some(err);
                continue;
            }
        };
        let response = body_response(bytes, generator::serve::content_type(page), *coding, head);
        return Ok((response, *coding));
    }
    Err(anyhow::anyhow!(
        "no copy of {} readable: {:?}",
        base.display(),
        last_err
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn if_none_match_matches_the_hash_in_any_coding() {
        let entry = Entry {
            hash: "0123456789abcdef0123456789abcdef".into(),
            keys: vec![],
            as_of: None,
        };
        let tag = etag(&entry, Coding::Brotli);
        assert_eq!(tag, "\"0123456789abcdef0123-br\"");
        assert!(not_modified(&headers(&[("if-none-match", &tag)]), &entry));
        assert!(not_modified(
            &headers(&[("if-none-match", "W/\"0123456789abcdef0123\", \"x\"")]),
            &entry
        ));
        assert!(!not_modified(
            &headers(&[("if-none-match", "\"abc-br\"")]),
            &entry
        ));
        assert!(!not_modified(&headers(&[]), &entry));
    }

    #[test]
    fn trailing_slashes_and_variable_segments_find_their_page() {
        let mut m = Manifest::default();
        for p in ["/", "/c/beds", "/user"] {
            m.pages.insert(
                p.into(),
                Entry {
                    hash: "h".into(),
                    keys: vec![],
                    as_of: None,
                },
            );
        }
        assert_eq!(page_for(&m, "/").unwrap().0, "/");
        assert_eq!(page_for(&m, "/c/beds/").unwrap().0, "/c/beds");
        assert_eq!(page_for(&m, "/user/orders").unwrap().0, "/user");
        assert!(page_for(&m, "/nope").is_none());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn requests_that_come_while_the_manifest_is_read_share_one_reading() {
        let dir = tempfile::tempdir().unwrap();
        // Big enough that a reading takes a while (3 MB of JSON).
        let mut m = Manifest::default();
        for i in 0..20_000 {
            m.pages.insert(
                format!("/product/p-{i}"),
                Entry {
                    hash: format!("{i:064x}"),
                    keys: (0..6).map(|k| format!("product:{}", i + k)).collect(),
                    as_of: None,
                },
            );
        }
        m.save(dir.path()).unwrap();
        let files = Arc::new(SiteFiles::new(dir.path()));
        let start = Arc::new(tokio::sync::Barrier::new(8));
        let readers: Vec<_> = (0..8)
            .map(|_| {
                let (files, start) = (files.clone(), start.clone());
                tokio::spawn(async move {
                    start.wait().await;
                    files.manifest().await
                })
            })
            .collect();
        let mut got = Vec::new();
        for r in readers {
            got.push(r.await.unwrap());
        }
        assert_eq!(got[0].pages.len(), 20_000);
        // One reading: every request has the same copy, none its own.
        assert!(got.iter().all(|g| Arc::ptr_eq(g, &got[0])));
        assert!(Arc::ptr_eq(&files.manifest().await, &got[0]));
    }
}
