//! Test harness: a demo shop seeded once per test binary into a temp dir, and
//! helpers that send requests through the real router.

#![allow(dead_code)]

pub mod checkout;
pub mod sim;

use catalog::db;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use catalog::db::testing::TestDatabase;
use origin::state::{AppState, Dirs};

/// The seeded demo shopper (e-mail, password).
pub const DEMO: (&str, &str) = ("demo@example.com", "demo-password-1");
/// A second seeded shopper.
pub const RAHIM: (&str, &str) = ("rahim@example.com", "rahim-password-1");

/// Products in the test shop: enough for several pages of listings.
pub const TEST_PRODUCTS: u32 = 120;
/// The test shop's seed.
pub const TEST_SEED: u64 = 7;

struct Seeded {
    _dir: tempfile::TempDir,
    /// The seeded database: never opened after seeding (on PostgreSQL it is
    /// the template every test's copy is made from).
    db: TestDatabase,
    storage: PathBuf,
    site: PathBuf,
}

static SEEDED: OnceLock<Seeded> = OnceLock::new();
static SHARED: tokio::sync::OnceCell<TestDatabase> = tokio::sync::OnceCell::const_new();

/// Seeds the shared test shop once (on its own runtime, since each test has its own).
fn seeded() -> &'static Seeded {
    SEEDED.get_or_init(|| {
        std::thread::spawn(|| {
            let dir = catalog::db::testing::temp_dir();
            let storage = dir.path().join("storage");
            let site = dir.path().join("site");
            std::fs::create_dir_all(&site).expect("site dir");
            let rt = tokio::runtime::Runtime::new().expect("runtime");
            let db = rt.block_on(async {
                let db = TestDatabase::migrated().await;
                let pool = db.pool().await;
                demo::seed(
                    &pool,
                    &demo::SeedOptions {
                        products: TEST_PRODUCTS,
                        seed: TEST_SEED,
                        storage_dir: storage.clone(),
                        now: catalog::clock::now_unix(),
                        progress: false,
                    },
                )
                .await
                .expect("seed test db");
                TestDatabase::settle(pool).await;
                db
            });
            Seeded {
                _dir: dir,
                db,
                storage,
                site,
            }
        })
        .join()
        .expect("seeding thread")
    })
}

/// A shop for one test: its own pool and router.
pub struct TestShop {
    pub state: AppState,
    /// The database's URL (`sqlite:…` or `postgres://…`).
    pub url: String,
    pub app: Router,
    /// Keeps a private copy of the database alive (for tests that write).
    _copy: Option<TestDatabase>,
    _outbox: tempfile::TempDir,
}

impl TestShop {
    /// The shared seeded shop, read-only by convention: tests that write use [`TestShop::fresh`].
    pub async fn open() -> TestShop {
        let shared = SHARED
            .get_or_init(|| async { seeded().db.copy().await })
            .await;
        Self::at(shared.url(), None).await
    }

    /// A private copy of the seeded shop that the test may change.
    pub async fn fresh() -> TestShop {
        let copy = seeded().db.copy().await;
        let url = copy.url().to_string();
        Self::at(&url, Some(copy)).await
    }

    async fn at(url: &str, copy: Option<TestDatabase>) -> TestShop {
        let s = seeded();
        let pool = catalog::db::connect(&catalog::db::PoolConfig::new(url))
            .await
            .expect("open test db");
        let outbox = catalog::db::testing::temp_dir();
        let (search, _) = origin::domain::search::Search::build(&pool)
            .await
            .expect("search index");
        let state = AppState {
            search: Arc::new(search),
            smtp: None,
            social: Default::default(),
            payments: Default::default(),
            site_url: "https://shop.example".into(),
            pool,
            dirs: Arc::new(Dirs {
                site: s.site.clone(),
                storage: s.storage.clone(),
                image_cache: s.storage.join(origin::surfaces::images::DEFAULT_CACHE_DIR),
                outbox: outbox.path().join("outbox"),
            }),
        };
        let app = origin::app(state.clone());
        TestShop {
            state,
            url: url.to_string(),
            app,
            _copy: copy,
            _outbox: outbox,
        }
    }

    /// GET `uri`; returns the status, headers and body parsed as JSON
    /// (`Value::Null` when the body is not JSON).
    pub async fn get(&self, uri: &str) -> (StatusCode, HeaderMap, Value) {
        self.send(Request::get(uri).body(Body::empty()).expect("request"))
            .await
    }

    /// POST `body` as JSON to `uri`.
    pub async fn post_json(&self, uri: &str, body: &Value) -> (StatusCode, HeaderMap, Value) {
        let request = Request::post(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .expect("request");
        self.send(request).await
    }

    /// Sends any request; the body as JSON (`Null` when it is not JSON).
    pub async fn send(&self, request: Request<Body>) -> (StatusCode, HeaderMap, Value) {
        let (status, headers, bytes) = self.send_raw(request).await;
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, headers, json)
    }

    /// Sends any request; the body as sent (pages, pictures, compressed copies).
    pub async fn send_raw(&self, request: Request<Body>) -> (StatusCode, HeaderMap, Bytes) {
        let response = self
            .app
            .clone()
            .oneshot(request)
            .await
            .expect("router is infallible");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        no_server_error(status, &bytes);
        (status, headers, bytes)
    }

    /// `method uri` with `headers` and no body; the body as sent.
    pub async fn fetch(
        &self,
        method: &str,
        uri: &str,
        headers: &[(&str, &str)],
    ) -> (StatusCode, HeaderMap, Bytes) {
        let mut builder = Request::builder().method(method).uri(uri);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        self.send_raw(builder.body(Body::empty()).expect("request"))
            .await
    }

    /// Any request: `headers` as given, `body` as JSON when set.
    pub async fn request(
        &self,
        method: &str,
        uri: &str,
        headers: &[(&str, &str)],
        body: Option<&Value>,
    ) -> (StatusCode, HeaderMap, Value) {
        let mut builder = Request::builder().method(method).uri(uri);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let request = match body {
            Some(json) => builder
                .header("content-type", "application/json")
                .body(Body::from(json.to_string())),
            None => builder.body(Body::empty()),
        }
        .expect("request");
        self.send(request).await
    }

    /// GET as the guest with self token `token`.
    pub async fn guest_get(&self, token: &str, uri: &str) -> (StatusCode, HeaderMap, Value) {
        self.request("GET", uri, &[("SELF-TOKEN", token)], None)
            .await
    }

    /// POST JSON as the guest with self token `token`.
    pub async fn guest_post(
        &self,
        token: &str,
        uri: &str,
        body: &Value,
    ) -> (StatusCode, HeaderMap, Value) {
        self.request("POST", uri, &[("SELF-TOKEN", token)], Some(body))
            .await
    }

    /// The shared shop ([`TestShop::open`]) with its site generated into
    /// its site directory, once per test binary.
    pub async fn with_site() -> TestShop {
        static BUILT: OnceLock<()> = OnceLock::new();
        let shop = TestShop::open().await;
        let database = shop.url.clone();
        let out = shop.state.dirs.site.clone();
        BUILT.get_or_init(|| {
            // Its own runtime on its own thread: the build is async and this
            // is called from inside a test's runtime.
            std::thread::spawn(move || {
                let rt = tokio::runtime::Runtime::new().unwrap();
                rt.block_on(generator::commands::build(
                    &generator::commands::BuildOptions {
                        database,
                        out,
                        base_url: "https://shop.example".into(),
                        web_dist: "no-web-dist".into(),
                        compression: Default::default(),
                        progress: false,
                        now: catalog::clock::now_unix(),
                        batch: 100,
                    },
                ))
                .unwrap();
            })
            .join()
            .unwrap();
        });
        shop
    }

    /// Signs `who` (e-mail, password) in, as the guest with self token
    /// `guest` when given; answers the Bearer token.
    pub async fn login(&self, guest: Option<&str>, who: (&str, &str)) -> String {
        let headers: Vec<(&str, &str)> = guest.map(|g| ("SELF-TOKEN", g)).into_iter().collect();
        let body = serde_json::json!({ "email": who.0, "password": who.1 });
        let (status, _, body) = self
            .request("POST", "/api/auth/login", &headers, Some(&body))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        body["token"].as_str().unwrap().to_string()
    }

    /// Any request as the shopper signed in with `token`.
    pub async fn as_user(
        &self,
        token: &str,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let bearer = format!("Bearer {token}");
        let (status, _, answer) = self
            .request(
                method,
                uri,
                &[("Authorization", bearer.as_str())],
                body.as_ref(),
            )
            .await;
        (status, answer)
    }

    /// The id of the account with `email`.
    pub async fn user_id(&self, email: &str) -> i64 {
        self.scalar_i64(&format!("SELECT id FROM app_user WHERE email = '{email}'"))
            .await
    }

    /// Runs a scalar SQL query (for checking answers against the database).
    pub async fn scalar_i64(&self, sql: &str) -> i64 {
        db::query_scalar(sql)
            .fetch_one(&self.state.pool)
            .await
            .expect("scalar query")
    }
}

/// A server error fails the test that caused it, whether or not the test
/// looks at the answer (503, "try again shortly", is an answer, as in
/// `origin::plumbing::error::SERVER_ERROR_LOGGED`).
pub fn no_server_error(status: StatusCode, body: &[u8]) {
    assert!(
        !status.is_server_error() || status == StatusCode::SERVICE_UNAVAILABLE,
        "the origin answered {status}: {}",
        String::from_utf8_lossy(body)
    );
}

/// The mails the shop sent: its outbox's `.eml` files, oldest first (the
/// file names begin with the time they were written).
pub fn outbox(shop: &TestShop) -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(&shop.state.dirs.outbox)
        .map(|dir| dir.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "eml"));
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// The token of the newest reset link in the shop's outbox.
pub fn reset_token(shop: &TestShop) -> String {
    let mails = outbox(shop);
    let link = mails
        .iter()
        .rev()
        .flat_map(|m| m.lines())
        .find(|l| l.contains("reset_password?token="))
        .expect("a reset link in the outbox");
    token_of(link).to_string()
}

/// The `token` of a reset link (up to its next parameter).
pub fn token_of(link: &str) -> &str {
    let after = link.split("token=").nth(1).expect("a token in the link");
    after.split('&').next().unwrap_or(after)
}

/// Runs a test with the shop's clock stopped at the moment it starts
/// (`clock::as_of`): the router answers in the test's own task, so every
/// request sees that instant, and a throttle's wait of a second or two lapses
/// only when the test clears it, never because a loaded machine was slow.
pub async fn at_one_instant<F: std::future::Future>(test: F) -> F::Output {
    catalog::clock::as_of(catalog::clock::now_unix(), test).await
}

/// Asserts an API error: the status, and a JSON body `{"success": false, "message": "..."}`.
pub fn assert_api_error(status: StatusCode, headers: &HeaderMap, body: &Value, want: StatusCode) {
    assert_eq!(status, want, "body: {body}");
    assert_eq!(body["success"], Value::Bool(false), "body: {body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "body: {body}"
    );
    let ct = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    assert!(ct.starts_with("application/json"), "content-type {ct}");
}

/// GET `uri`, asserting a 200; returns the headers and the JSON body.
pub async fn ok(shop: &TestShop, uri: &str) -> (HeaderMap, Value) {
    let (status, headers, body) = shop.get(uri).await;
    assert_eq!(status, StatusCode::OK, "{uri}: {body}");
    (headers, body)
}

/// GET `uri`, asserting an API error with status `want` that no cache stores.
pub async fn bad(shop: &TestShop, uri: &str, want: StatusCode) {
    let (status, headers, body) = shop.get(uri).await;
    assert_api_error(status, &headers, &body, want);
    assert_eq!(headers["cache-control"], "no-store", "{uri}");
}

/// Asserts public cache headers carrying every surrogate key of `keys`.
pub fn assert_public(headers: &HeaderMap, keys: &[&str]) {
    let cc = headers["cache-control"].to_str().unwrap();
    assert!(cc.starts_with("public"), "cache-control {cc}");
    assert!(headers.contains_key("cdn-cache-control"));
    let sk = headers["surrogate-key"].to_str().unwrap();
    let have: Vec<&str> = sk.split(' ').collect();
    for k in keys {
        assert!(have.contains(k), "surrogate-key {sk} lacks {k}");
    }
}

/// `v` as an array, or a failure naming `what`.
pub fn arr<'a>(v: &'a Value, what: &str) -> &'a Vec<Value> {
    v.as_array()
        .unwrap_or_else(|| panic!("{what} is not an array: {v}"))
}

/// A parameter value longer than any the API accepts.
pub fn long() -> String {
    "x".repeat(201)
}

/// Runs a SQL query answering one text value.
pub async fn text(shop: &TestShop, sql: &str) -> String {
    db::query_scalar(sql)
        .fetch_one(&shop.state.pool)
        .await
        .expect("text query")
}
