//! `generator watch` on the fixture shop (`tests/fixtures/shop.sql`) in a test
//! database (SQLite, or PostgreSQL when `TEST_POSTGRES_URL` is set): changes
//! written with plain SQL reach the pages on disk and are purged at a
//! stand-in edge admin (a local HTTP server recording each `POST /purge`); a
//! flash sale's start switches the page at the boundary with no change in the
//! log; a purge endpoint that is down stops nothing. Staging (issue 17): the
//! pages a sale's start changes are staged (recorded `POST /stage`) before it
//! with the sale price, written only at it, and not purged; with the real
//! edge binary (built by `cargo build -p edge`; skipped when absent), a page
//! switches to the sale price at the boundary with no origin request.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use catalog::db::testing::TestDatabase;
use generator::commands::{watch, BuildOptions, EdgeAdmin, WatchOptions};

const TOKEN: &str = "test-purge-token";

/// How long a test waits for something the watcher should do in well under
/// 2 s: generous, so that a loaded machine does not fail it. The elapsed
/// times are printed.
const PATIENCE: Duration = Duration::from_secs(20);

/// One recorded `POST /purge` or `POST /stage`: its bearer token, JSON body
/// and when it arrived.
#[derive(Debug, Clone)]
struct Seen {
    auth: String,
    body: serde_json::Value,
    at: SystemTime,
}

/// A stand-in for the edge's admin listener that records purges and
/// stagings.
#[derive(Clone, Default)]
struct Recorder {
    seen: Arc<Mutex<Vec<Seen>>>,
    staged: Arc<Mutex<Vec<Seen>>>,
    /// `GET /staged` lists nothing, as an edge restarted without
    /// `--staged-dir` would.
    forgets: Arc<std::sync::atomic::AtomicBool>,
}

impl Recorder {
    async fn start_on(addr: SocketAddr) -> Recorder {
        let recorder = Recorder::default();
        let app = Router::new()
            .route("/purge", post(record))
            .route("/stage", post(record_stage))
            .route("/staged", axum::routing::get(list_staged))
            .with_state(recorder.clone());
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        recorder
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    fn clear(&self) {
        self.seen.lock().unwrap().clear();
    }

    /// Every URL purged so far.
    fn urls(&self) -> Vec<String> {
        self.field("urls")
    }

    /// Every tag purged so far.
    fn tags(&self) -> Vec<String> {
        self.field("tags")
    }

    fn field(&self, name: &str) -> Vec<String> {
        self.seen()
            .iter()
            .flat_map(|s| s.body[name].as_array().cloned().unwrap_or_default())
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    }

    /// Whether some purge so far named `url` and some `tag`.
    fn purged(&self, url: &str, tag: &str) -> bool {
        self.urls().iter().any(|u| u == url) && self.tags().iter().any(|t| t == tag)
    }
}

async fn record(
    State(r): State<Recorder>,
    headers: HeaderMap,
    Json(body): Json<serde_json::Value>,
) -> (StatusCode, Json<serde_json::Value>) {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    r.seen.lock().unwrap().push(Seen {
        auth,
        body,
        at: SystemTime::now(),
    });
    (StatusCode::OK, Json(serde_json::json!({"success": true})))
}

/// `GET /staged` as the edge answers it: each staged response's URL and
/// boundary.
async fn list_staged(State(r): State<Recorder>) -> Json<serde_json::Value> {
    let mut successors = Vec::new();
    if !r.forgets.load(std::sync::atomic::Ordering::SeqCst) {
        for staging in r.staged.lock().unwrap().iter() {
            for response in staging.body["responses"].as_array().unwrap() {
                successors.push(serde_json::json!({
                    "url": response["url"],
                    "at_ms": staging.body["at_ms"],
                }));
            }
        }
    }
    Json(serde_json::json!({ "successors": successors }))
}

async fn record_stage(
    State(r): State<Recorder>,
    headers: HeaderMap,
    Json(body): Json<serde_json::Value>,
) -> (StatusCode, Json<serde_json::Value>) {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    r.staged.lock().unwrap().push(Seen {
        auth,
        body,
        at: SystemTime::now(),
    });
    (StatusCode::OK, Json(serde_json::json!({"success": true})))
}

/// A loopback address nothing listens on (yet).
fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

/// The fixture shop in a test database, its site in a temp dir, and a
/// running watcher.
struct Watched {
    dir: tempfile::TempDir,
    _db: TestDatabase,
    pool: catalog::db::Pool,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl Watched {
    /// Seeds the shop and starts `watch` purging at `edge`; returns once the
    /// first build is on disk.
    async fn start(edge: SocketAddr) -> Watched {
        Watched::start_staging(edge, None).await
    }

    /// [`Watched::start`], staging `stage_lead` before each boundary.
    async fn start_staging(edge: SocketAddr, stage_lead: Option<Duration>) -> Watched {
        let dir = tempfile::tempdir().unwrap();
        let db = TestDatabase::migrated().await;
        let url = db.url().to_string();
        let pool = db.pool().await;
        catalog::db::raw_sql(include_str!("fixtures/shop.sql"))
            .execute(&pool)
            .await
            .unwrap();
        catalog::db::after_bulk_load(&pool).await.unwrap();
        let options = WatchOptions {
            build: BuildOptions {
                database: url,
                out: dir.path().join("site"),
                base_url: "https://shop.example".into(),
                web_dist: dir.path().join("no-web"),
                compression: Default::default(),
                progress: false,
                now: 0,
                batch: 100,
            },
            edges: vec![EdgeAdmin {
                url: format!("http://{edge}"),
                token: Some(TOKEN.into()),
            }],
            poll: Duration::from_millis(100),
            stage_lead,
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(watch(options, async {
            let _ = stopped.await;
        }));
        let w = Watched {
            dir,
            _db: db,
            pool,
            stop: Some(stop),
            task: Some(task),
        };
        // The manifest is saved last: the first build is done.
        w.wait_for("the first build", || {
            w.out().join(generator::serve::MANIFEST_FILE).exists()
        })
        .await;
        w
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    fn page(&self, path: &str) -> String {
        read(&self.out(), path)
    }

    /// Waits until `done` holds; returns how long it took.
    async fn wait_for(&self, what: &str, mut done: impl FnMut() -> bool) -> Duration {
        let started = Instant::now();
        while !done() {
            if let Some(task) = &self.task {
                assert!(
                    !task.is_finished(),
                    "the watcher stopped while waiting for {what}"
                );
            }
            assert!(started.elapsed() < PATIENCE, "no {what} after {PATIENCE:?}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        started.elapsed()
    }

    async fn sql(&self, sql: &str) {
        catalog::db::raw_sql(sql).execute(&self.pool).await.unwrap();
    }

    /// Stops the watcher (as SIGTERM would) and checks it ended cleanly.
    async fn stop(mut self) {
        self.stop.take().unwrap().send(()).unwrap();
        let task = self.task.take().unwrap();
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("the watcher stops when asked")
            .unwrap()
            .unwrap();
    }
}

fn read(out: &Path, path: &str) -> String {
    let file = out.join(generator::serve::file_for(path).unwrap());
    std::fs::read_to_string(&file).unwrap_or_default()
}

fn unix_secs_f64() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_price_changed_with_sql_reaches_the_pages_and_is_purged_at_the_edge() {
    let addr = free_addr();
    let edge = Recorder::start_on(addr).await;
    let w = Watched::start(addr).await;
    // The first build wrote every page, and purged them.
    w.wait_for("the first purge", || edge.urls().len() > 40)
        .await;
    assert!(w.page("/product/oak-bed").contains("৳60,000"));
    edge.clear();

    w.sql("UPDATE product SET price_now = 59000 WHERE id = 2")
        .await;
    let took = w
        .wait_for("the new price on the page", || {
            w.page("/product/oak-bed").contains("৳59,000")
        })
        .await;
    println!("price on the page after {} ms", took.as_millis());
    // The category lists it (its page is written after the product pages).
    w.wait_for("the new price on the category page", || {
        w.page("/c/beds").contains("৳59,000")
    })
    .await;
    let purged = w
        .wait_for("the purge", || edge.purged("/product/oak-bed", "product:2"))
        .await;
    println!("purged after {} ms", (took + purged).as_millis());
    let seen = edge.seen();
    assert!(seen.iter().all(|s| s.auth == format!("Bearer {TOKEN}")));
    assert!(seen
        .iter()
        .all(|s| s.body["soft"] == false && s.body["all"] == false));
    let urls = edge.urls();
    assert!(urls.iter().any(|u| u == "/c/beds"), "{urls:?}");
    // Only pages that show the product were rewritten and purged.
    let manifest = generator::serve::Manifest::load(&w.out()).unwrap();
    for url in urls.iter().filter(|u| !u.starts_with("/sitemap")) {
        assert!(
            manifest.pages[url].keys.iter().any(|k| k == "product:2"),
            "{url} purged but does not show the product"
        );
    }
    assert!(
        !urls.iter().any(|u| u == "/blogs/choosing-a-bed"),
        "{urls:?}"
    );

    // A change that shows on no page is purged by its key alone: no page is
    // rewritten.
    edge.clear();
    w.sql("UPDATE product SET popularity = popularity WHERE id = 3")
        .await;
    w.wait_for("a purge of product:3", || {
        edge.tags().iter().any(|t| t == "product:3")
    })
    .await;
    assert!(edge.urls().is_empty(), "{:?}", edge.urls());
    w.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flash_sale_switches_the_page_at_its_start_with_nothing_in_the_log() {
    let addr = free_addr();
    let edge = Recorder::start_on(addr).await;
    let w = Watched::start(addr).await;
    let regular = "৳1,40,000";
    let sale = "৳1,12,000"; // 20 % off
    assert!(w.page("/product/leather-sofa").contains(regular));

    // A sale that starts 3 s from now on the leather sofa.
    let starts_at = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        + 3;
    w.sql(&format!(
        "INSERT INTO flash_schedule (id, fs_name, starts_at, ends_at) VALUES (2, 'Weekend Sale', {starts_at}, {});
         INSERT INTO flash_item (schedule_id, product_id, discount_percent) VALUES (2, 5, 20);",
        starts_at + 3600
    ))
    .await;
    // Before the boundary the page keeps the regular price (the insert was
    // rebuilt at once); after it the sale price, with no further change.
    let mut read_before = 0;
    let mut switched_at = None;
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        let t = unix_secs_f64();
        let page = w.page("/product/leather-sofa");
        if page.contains(sale) {
            assert!(
                t >= starts_at as f64,
                "the sale price showed {:.3} s before the sale",
                starts_at as f64 - t
            );
            switched_at = Some(t);
            break;
        }
        if !page.is_empty() {
            assert!(page.contains(regular));
            read_before += 1;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let switched_at = switched_at.expect("the sale price appears after the boundary");
    assert!(read_before > 0);
    println!(
        "sale price on the page {} ms after the boundary",
        ((switched_at - starts_at as f64) * 1000.0) as i64
    );
    w.wait_for("the purge of the sale page", || {
        edge.urls().iter().any(|u| u == "/product/leather-sofa")
    })
    .await;
    w.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edge_that_is_down_stops_nothing_and_gets_the_purge_when_it_is_back() {
    // Nothing listens at the edge's address yet.
    let addr = free_addr();
    let w = Watched::start(addr).await;
    w.sql("UPDATE product SET price_now = 58000 WHERE id = 2")
        .await;
    w.wait_for("the new price on the page", || {
        w.page("/product/oak-bed").contains("৳58,000")
    })
    .await;
    // The watcher goes on rebuilding while purges fail.
    w.sql("UPDATE product SET price_now = 57000 WHERE id = 2")
        .await;
    w.wait_for("the next price on the page", || {
        w.page("/product/oak-bed").contains("৳57,000")
    })
    .await;
    // The edge comes up: the retried purge (merged) reaches it.
    let edge = Recorder::start_on(addr).await;
    let took = w
        .wait_for("the retried purge", || {
            edge.purged("/product/oak-bed", "product:2")
        })
        .await;
    println!(
        "retried purge delivered {} ms after the edge came up",
        took.as_millis()
    );
    w.stop().await;
}

/// Unix seconds `secs` from now.
fn secs_from_now(secs: i64) -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        + secs
}

/// The leather sofa's price before and during the sale below.
const REGULAR: &str = "৳1,40,000";
const SALE: &str = "৳1,12,000"; // 20 % off

/// A sale of 20 % on the leather sofa from `starts_at`, for an hour.
async fn sale_on_the_sofa(w: &Watched, starts_at: i64) {
    w.sql(&format!(
        "INSERT INTO flash_schedule (id, fs_name, starts_at, ends_at) VALUES (2, 'Weekend Sale', {starts_at}, {});
         INSERT INTO flash_item (schedule_id, product_id, discount_percent) VALUES (2, 5, 20);",
        starts_at + 3600
    ))
    .await;
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut brotli::Decompressor::new(bytes, 4096), &mut out).unwrap();
    out
}

fn ungzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut out).unwrap();
    out
}

/// A staged response's body, decoded from base64 and its coding.
fn staged_body(response: &serde_json::Value) -> String {
    use base64::Engine;
    if let Some(text) = response["body"].as_str() {
        return text.to_string();
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(response["body_base64"].as_str().unwrap())
        .unwrap();
    let coding = field(response, "content-encoding");
    String::from_utf8(match coding.as_deref() {
        Some("br") => unbrotli(&bytes),
        Some("gzip") => ungzip(&bytes),
        _ => bytes,
    })
    .unwrap()
}

/// A header field of a staged response.
fn field(response: &serde_json::Value, name: &str) -> Option<String> {
    response["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|pair| pair[0] == name)
        .map(|pair| pair[1].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_a_sale_changes_are_staged_before_it_and_written_at_it_without_a_purge() {
    let addr = free_addr();
    let edge = Recorder::start_on(addr).await;
    let w = Watched::start_staging(addr, Some(Duration::from_secs(4))).await;
    assert!(w.page("/product/leather-sofa").contains(REGULAR));
    let starts_at = secs_from_now(8);
    let boundary = UNIX_EPOCH + Duration::from_secs(starts_at as u64);
    sale_on_the_sofa(&w, starts_at).await;

    // Four seconds before the start, the pages it changes are staged.
    w.wait_for("a staging", || !edge.staged.lock().unwrap().is_empty())
        .await;
    let stagings = edge.staged.lock().unwrap().clone();
    let first = &stagings[0];
    let early = boundary
        .duration_since(first.at)
        .expect("staged before the boundary");
    println!("staged {} ms before the boundary", early.as_millis());
    assert!(early <= Duration::from_secs(5), "staged {early:?} early");
    assert_eq!(first.auth, format!("Bearer {TOKEN}"));
    assert_eq!(first.body["at_ms"], starts_at * 1000);
    let responses: Vec<serde_json::Value> = stagings
        .iter()
        .flat_map(|s| s.body["responses"].as_array().unwrap().clone())
        .collect();
    let sofa: Vec<&serde_json::Value> = responses
        .iter()
        .filter(|r| r["url"] == "/product/leather-sofa")
        .collect();
    let codings: Vec<Option<String>> = sofa.iter().map(|r| field(r, "content-encoding")).collect();
    assert_eq!(codings, [None, Some("br".into()), Some("gzip".into())]);
    let body = staged_body(sofa[0]);
    assert!(body.contains(SALE) && !body.contains(REGULAR));
    for r in &sofa {
        assert_eq!(staged_body(r), body, "every coding is the same page");
        // What the origin sends at the boundary: the edge keeps it until the
        // sale's end, an hour later.
        assert_eq!(field(r, "cache-control").unwrap(), "public, max-age=60");
        assert_eq!(
            field(r, "cdn-cache-control").unwrap(),
            "max-age=3600, stale-if-error=86400"
        );
        assert_eq!(
            field(r, "content-type").unwrap(),
            "text/html; charset=utf-8"
        );
        assert_eq!(field(r, "vary").unwrap(), "Accept-Encoding");
        assert!(r["tags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "product:5"));
    }
    let hash = generator::serve::hash(body.as_bytes());
    assert_eq!(
        field(sofa[0], "etag").unwrap(),
        format!("\"{}\"", &hash[..20])
    );
    assert_eq!(
        field(sofa[1], "etag").unwrap(),
        format!("\"{}-br\"", &hash[..20])
    );
    // The category page that lists the sofa changes too.
    let urls: BTreeSet<String> = responses
        .iter()
        .map(|r| r["url"].as_str().unwrap().to_string())
        .collect();
    assert!(urls.len() > 1, "{urls:?}");

    // Nothing of it is in the site directory before the boundary.
    let manifest = generator::serve::Manifest::load(&w.out()).unwrap();
    let mut reads = 0;
    while SystemTime::now() + Duration::from_millis(300) < boundary {
        assert!(w.page("/product/leather-sofa").contains(REGULAR));
        assert_eq!(
            generator::serve::Manifest::load(&w.out()).unwrap(),
            manifest
        );
        reads += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(reads > 0);
    // It waits beside the site, as the boundary will have it.
    let kept = w.out().join(format!(
        ".staged/{starts_at}/product/leather-sofa/index.html"
    ));
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), body);

    // At the boundary the staged pages move into the site (then the rebuild
    // renders them again), and no page is purged.
    w.wait_for("the sale price on the page", || {
        w.page("/product/leather-sofa").contains(SALE)
    })
    .await;
    assert!(SystemTime::now() >= boundary);
    assert_eq!(w.page("/product/leather-sofa"), body, "written as staged");
    // The manifest is saved once every page moved in, and then nothing is
    // left waiting.
    w.wait_for("the boundary's manifest", || {
        generator::serve::Manifest::load(&w.out()).unwrap() != manifest
    })
    .await;
    w.wait_for("nothing left waiting", || !w.out().join(".staged").exists())
        .await;
    let written = generator::serve::Manifest::load(&w.out()).unwrap();
    // Every page is current after it: none shows a price that has changed
    // since the data it was written from (the origin would send such a page
    // uncacheable), the pages this rebuild did not render included.
    let now = catalog::clock::now_unix();
    for (url, entry) in &written.pages {
        let as_of = entry.as_of.expect("every page says when its data are from");
        let change = catalog::pricing::next_change_for(&w.pool, as_of, &entry.keys)
            .await
            .unwrap();
        assert!(
            change.is_none_or(|t| t > now),
            "{url}, written as of {as_of}, is outdated by the change at {change:?}"
        );
    }
    // Each staged page changed at the boundary, or its freshness ended there
    // (a list, the flash sales: its successor renews it with no origin
    // request); a page that neither changes nor expires there is not staged.
    let mut renewed = 0;
    for url in &urls {
        let keys = &manifest.pages[url].keys;
        if written.pages.get(url).map(|e| &e.hash) == manifest.pages.get(url).map(|e| &e.hash) {
            renewed += 1;
            assert!(
                catalog::surrogate::priced_products(keys).is_none_or(|ids| ids.contains(&5)),
                "{url} was staged but neither changed nor expired at the boundary: {keys:?}"
            );
        }
    }
    println!("{} pages staged, {renewed} of them unchanged", urls.len());
    for (url, entry) in &manifest.pages {
        if catalog::surrogate::priced_products(&entry.keys).is_some_and(|ids| !ids.contains(&5))
            && written.pages.get(url).map(|e| &e.hash) == Some(&entry.hash)
        {
            assert!(
                !urls.contains(url),
                "{url} staged though it outlives the boundary"
            );
        }
    }
    // Time for a purge to arrive, were one sent.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after: Vec<Seen> = edge
        .seen()
        .into_iter()
        .filter(|s| s.at >= first.at)
        .collect();
    for purge in &after {
        assert!(purge.body["all"] == false, "{}", purge.body);
        for url in purge.body["urls"].as_array().unwrap() {
            assert!(
                !urls.contains(url.as_str().unwrap()),
                "{url} purged though staged: {}",
                purge.body
            );
        }
        assert!(
            purge.body["tags"].as_array().unwrap().is_empty(),
            "{}",
            purge.body
        );
    }
    assert_eq!(
        edge.staged.lock().unwrap().len(),
        stagings.len(),
        "staged once"
    );
    w.stop().await;
}

/// A stand-in for the origin serving the site directory as the origin does:
/// the manifest's pages, the stored brotli copy or gzip made on request,
/// with the fields of `generator::serve` (the origin's own rule) at the time
/// of the request and the page's surrogate keys (uncacheable while a price
/// change has outdated the file, `Entry::outdated`). Counts requests by path.
#[derive(Clone)]
struct SiteOrigin {
    out: PathBuf,
    pool: catalog::db::Pool,
    requests: Arc<Mutex<Vec<String>>>,
}

impl SiteOrigin {
    async fn start(out: PathBuf, pool: catalog::db::Pool) -> (SiteOrigin, SocketAddr) {
        let origin = SiteOrigin {
            out,
            pool,
            requests: Arc::default(),
        };
        let app = Router::new()
            .fallback(serve_site)
            .with_state(origin.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (origin, addr)
    }

    fn count(&self, path: &str) -> usize {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|p| *p == path)
            .count()
    }
}

async fn serve_site(
    State(o): State<SiteOrigin>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    use generator::serve as site;
    let path = uri.path().to_string();
    o.requests.lock().unwrap().push(path.clone());
    let manifest = site::Manifest::load(&o.out).unwrap();
    let Some(entry) = manifest.pages.get(&path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let file = o.out.join(site::file_for(&path).unwrap());
    let raw = std::fs::read(&file).unwrap();
    let coding = negotiate::acceptable_codings(&headers)[0];
    let bytes = match coding {
        negotiate::Coding::Brotli => {
            let mut br = file.into_os_string();
            br.push(".br");
            std::fs::read(br).unwrap()
        }
        negotiate::Coding::Gzip => site::gzip_bytes(&raw, site::GZIP_ON_REQUEST).unwrap(),
        negotiate::Coding::Identity => raw,
    };
    let now = catalog::clock::now_unix();
    let next = catalog::pricing::next_price_change(&o.pool, now)
        .await
        .unwrap();
    let mut response = bytes.into_response();
    let h = response.headers_mut();
    if entry.outdated(&o.pool, now).await.unwrap() {
        h.insert("cache-control", "private, no-store".parse().unwrap());
        return response;
    }
    for (name, value) in site::public_page_fields(&path, &entry.hash, coding, now, next) {
        h.insert(name, value.parse().unwrap());
    }
    h.insert("surrogate-key", entry.keys.join(" ").parse().unwrap());
    response
}

/// The edge binary beside this test's (`cargo build -p edge`), if built.
fn edge_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let edge = exe.parent()?.parent()?.join("edge");
    edge.exists().then_some(edge)
}

/// A real edge process, stopped when dropped.
struct EdgeProcess {
    child: std::process::Child,
    port: u16,
    admin: SocketAddr,
}

impl EdgeProcess {
    async fn start(binary: &Path, admin: SocketAddr, origin: SocketAddr) -> EdgeProcess {
        let port = free_addr().port();
        let child = std::process::Command::new(binary)
            .args([
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--admin",
                &admin.to_string(),
                "--origin",
                &format!("http://{origin}"),
                "--purge-token",
                TOKEN,
                "--threads",
                "2",
                "--health-interval-ms",
                "200",
            ])
            .env("RUST_LOG", "warn")
            .env("EDGE_GRACE_PERIOD", "0")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("start the edge binary");
        let edge = EdgeProcess { child, port, admin };
        let started = Instant::now();
        while reqwest::get(format!("http://{admin}/healthz"))
            .await
            .is_err()
            || tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_err()
        {
            assert!(started.elapsed() < PATIENCE, "the edge did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        edge
    }

    /// GET `path` in brotli: (X-Cache, the page).
    async fn get(&self, path: &str) -> (String, String) {
        let response = reqwest::Client::new()
            .get(format!("http://127.0.0.1:{}{path}", self.port))
            .header("accept-encoding", "br")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-encoding"], "br");
        let x_cache = response.headers()["x-cache"].to_str().unwrap().to_string();
        let body = unbrotli(&response.bytes().await.unwrap());
        (x_cache, String::from_utf8(body).unwrap())
    }

    /// Successors pending at this edge.
    async fn pending(&self) -> u64 {
        let staged: serde_json::Value = reqwest::Client::new()
            .get(format!("http://{}/staged", self.admin))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        staged["pending"]
            .as_u64()
            .or_else(|| staged["figures"]["pending"].as_u64())
            .unwrap_or(0)
    }
}

impl Drop for EdgeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_real_edge_the_page_switches_to_the_sale_price_at_the_start_without_the_origin() {
    let Some(binary) = edge_binary() else {
        println!("skipped: no edge binary beside the tests (cargo build -p edge)");
        return;
    };
    let admin = free_addr();
    let w = Watched::start_staging(admin, Some(Duration::from_secs(4))).await;
    let (origin, origin_addr) = SiteOrigin::start(w.out(), w.pool.clone()).await;
    let edge = EdgeProcess::start(&binary, admin, origin_addr).await;
    let starts_at = secs_from_now(8);
    let boundary = UNIX_EPOCH + Duration::from_secs(starts_at as u64);
    sale_on_the_sofa(&w, starts_at).await;
    // Staged (after the insert's own purge, which the watch sends first).
    let started = Instant::now();
    while edge.pending().await == 0 {
        assert!(started.elapsed() < PATIENCE, "nothing staged at the edge");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let path = "/product/leather-sofa";
    let (_, page) = edge.get(path).await;
    assert!(page.contains(REGULAR));
    let (x_cache, _) = edge.get(path).await;
    assert_eq!(x_cache, "HIT");
    let asked = origin.count(path);

    // Through the boundary: the regular price before it, the sale price from
    // it on, from the cache.
    let mut switched = None;
    while SystemTime::now() < boundary + Duration::from_millis(2500) {
        let sent = SystemTime::now();
        let (x_cache, page) = edge.get(path).await;
        let received = SystemTime::now();
        if page.contains(SALE) {
            assert!(received >= boundary, "sale price before the boundary");
            assert_eq!(x_cache, "HIT");
            switched.get_or_insert(received);
        } else {
            assert!(page.contains(REGULAR));
            assert!(
                switched.is_none(),
                "the regular price again after the sale's"
            );
            assert!(
                sent < boundary + Duration::from_secs(1),
                "the regular price {:?} after the boundary",
                sent.duration_since(boundary).unwrap()
            );
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let switched = switched.expect("the sale price was served");
    println!(
        "sale price at the edge {} ms after the boundary",
        switched.duration_since(boundary).unwrap().as_millis()
    );
    // The watch wrote the page at the boundary and did not purge it: still
    // the staged answer, and the origin was never asked.
    w.wait_for("the sale price on disk", || w.page(path).contains(SALE))
        .await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (x_cache, page) = edge.get(path).await;
    assert_eq!((x_cache.as_str(), page.contains(SALE)), ("HIT", true));
    assert_eq!(
        origin.count(path),
        asked,
        "the origin was asked for the page"
    );
    w.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edge_that_no_longer_holds_the_staged_pages_gets_their_purge_at_the_boundary() {
    let addr = free_addr();
    let edge = Recorder::start_on(addr).await;
    let w = Watched::start_staging(addr, Some(Duration::from_secs(3))).await;
    let starts_at = secs_from_now(5);
    sale_on_the_sofa(&w, starts_at).await;
    w.wait_for("a staging", || !edge.staged.lock().unwrap().is_empty())
        .await;
    let staged_at = edge.staged.lock().unwrap()[0].at;
    // The edge restarts and loses what it was sent.
    edge.forgets
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let purged_since = || {
        edge.seen()
            .iter()
            .filter(|s| s.at >= staged_at)
            .flat_map(|s| s.body["urls"].as_array().cloned().unwrap_or_default())
            .any(|u| u == "/product/leather-sofa")
    };
    w.wait_for("the purge of the sale page", purged_since).await;
    let boundary = UNIX_EPOCH + Duration::from_secs(starts_at as u64);
    assert!(SystemTime::now() >= boundary, "purged before the boundary");
    assert!(w.page("/product/leather-sofa").contains(SALE));
    w.stop().await;
}
