//! `generator watch` on the fixture shop (`tests/fixtures/shop.sql`) in a test
//! database (SQLite, or PostgreSQL when `TEST_POSTGRES_URL` is set): changes
//! written with plain SQL reach the pages on disk and are purged at a
//! stand-in edge admin (a local HTTP server recording each `POST /purge`); a
//! flash sale's start switches the page at the boundary with no change in the
//! log; a purge endpoint that is down stops nothing.

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

/// One recorded `POST /purge`: its bearer token and JSON body.
#[derive(Debug, Clone)]
struct Seen {
    auth: String,
    body: serde_json::Value,
}

/// A stand-in for the edge's admin listener that records purges.
#[derive(Clone, Default)]
struct Recorder {
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Recorder {
    async fn start_on(addr: SocketAddr) -> Recorder {
        let recorder = Recorder::default();
        let app = Router::new()
            .route("/purge", post(record))
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
    r.seen.lock().unwrap().push(Seen { auth, body });
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
