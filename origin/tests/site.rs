//! The generated site through the origin's router: encodings, ETags and 304s,
//! cache headers, shells for variable paths, and the 404 page.

mod common;

use std::io::Read;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

use catalog::db;
use origin::state::{AppState, Dirs};

struct Site {
    dir: tempfile::TempDir,
    app: axum::Router,
    pool: catalog::db::Pool,
}

impl Site {
    /// Builds the site again from the database as it is at `now`, as the
    /// generator's watch does after a change or at a flash-sale boundary.
    async fn build(&self, now: i64) {
        build(self.dir.path(), now).await;
    }
}

/// The generator's build of the database in `dir` into `dir/site`, at `now`.
async fn build(dir: &std::path::Path, now: i64) {
    generator::commands::build(&generator::commands::BuildOptions {
        database: format!("sqlite:{}", dir.join("shop.db").display()),
        out: dir.join("site"),
        base_url: "https://shop.example".into(),
        web_dist: dir.join("no-web"),
        compression: Default::default(),
        progress: false,
        now,
        batch: 100,
    })
    .await
    .unwrap();
}

/// A site built by the generator from a migrated database.
async fn site() -> Site {
    site_of(0).await
}

/// A site built by the generator from a migrated database with the demo
/// shop's `products` products (none: no seeding).
async fn site_of(products: u32) -> Site {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("shop.db").display());
    let pool = catalog::db::connect(&catalog::db::PoolConfig::new(&db))
        .await
        .unwrap();
    catalog::db::migrate(&pool).await.unwrap();
    if products > 0 {
        demo::seed(
            &pool,
            &demo::SeedOptions {
                products,
                seed: 7,
                storage_dir: dir.path().join("storage"),
                now: catalog::clock::now_unix(),
                progress: false,
            },
        )
        .await
        .unwrap();
    }
    let out = dir.path().join("site");
    build(dir.path(), catalog::clock::now_unix()).await;
    let (search, _) = origin::domain::search::Search::build(&pool).await.unwrap();
    let app = origin::app(AppState {
        search: Arc::new(search),
        smtp: None,
        social: Default::default(),
        payments: Default::default(),
        site_url: "https://shop.example".into(),
        pool: pool.clone(),
        dirs: Arc::new(Dirs {
            site: out,
            storage: dir.path().join("storage"),
            image_cache: dir.path().join("image-cache"),
            outbox: dir.path().join("outbox"),
        }),
    });
    Site { dir, app, pool }
}

async fn get(
    app: &axum::Router,
    uri: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let mut req = Request::get(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let response = app
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    common::no_server_error(status, &body);
    (status, headers, body)
}

fn header<'a>(h: &'a axum::http::HeaderMap, name: &str) -> &'a str {
    h.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_paths_get_the_not_found_page_with_spec_texts_and_status_404() {
    let site = site().await;
    let (status, headers, body) = get(&site.app, "/no/such/page", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(header(&headers, "content-type").starts_with("text/html"));
    assert_eq!(header(&headers, "cache-control"), "private, no-store");
    let html = String::from_utf8(body).unwrap();
    for text in [
        "Oops! Something went wrong :(",
        "The page you are looking for can't be found.",
        "Maybe the links below can be helpful.",
        "This page could not be found",
        r#"<a class="btn" href="/">Go back to homepage</a>"#,
    ] {
        assert!(html.contains(text), "missing {text:?}");
    }
    // A compressed 404 too.
    let (status, headers, _) = get(&site.app, "/nope", &[("accept-encoding", "br")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(header(&headers, "content-encoding"), "br");
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_are_sent_as_brotli_or_gzip_by_accept_encoding_and_revalidate_with_304() {
    let site = site().await;
    let (status, headers, body) = get(
        &site.app,
        "/cart",
        &[("accept-encoding", "gzip, deflate, br")],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), "br");
    assert_eq!(header(&headers, "vary"), "Accept-Encoding");
    let mut html = String::new();
    brotli::Decompressor::new(&body[..], 4096)
        .read_to_string(&mut html)
        .unwrap();
    assert!(html.contains(r#"data-island="cart-page""#));
    assert!(header(&headers, "cache-control").starts_with("public"));
    assert!(header(&headers, "cdn-cache-control").contains("max-age="));
    assert!(header(&headers, "surrogate-key").contains("menu"));
    let etag = header(&headers, "etag").to_string();
    assert!(etag.ends_with("-br\""));

    // The build kept no gzip copy (the default): the origin compresses one.
    assert!(!site.dir.path().join("site/cart/index.html.gz").exists());
    let (status, headers, body) = get(&site.app, "/cart", &[("accept-encoding", "gzip")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), "gzip");
    let mut gz = String::new();
    flate2::read::GzDecoder::new(&body[..])
        .read_to_string(&mut gz)
        .unwrap();
    assert_eq!(gz, html);

    let (status, headers, body) = get(&site.app, "/cart/", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), "");
    assert_eq!(String::from_utf8(body).unwrap(), html);

    let (status, headers, body) = get(
        &site.app,
        "/cart",
        &[("accept-encoding", "br"), ("if-none-match", &etag)],
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    assert_eq!(header(&headers, "etag"), etag);
    assert!(header(&headers, "cache-control").starts_with("public"));
}

#[tokio::test(flavor = "multi_thread")]
async fn variable_account_paths_get_their_shell_and_robots_is_plain_text() {
    let site = site().await;
    let (status, _, body) = get(&site.app, "/user/some-view", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8(body)
        .unwrap()
        .contains(r#"data-island="account-page""#));
    let (status, _, body) = get(&site.app, "/product/review/12", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8(body)
        .unwrap()
        .contains(r#"data-island="review-page""#));
    let (status, headers, body) = get(&site.app, "/robots.txt", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(header(&headers, "content-type").starts_with("text/plain"));
    assert!(String::from_utf8(body)
        .unwrap()
        .contains("Disallow: /api/cart/"));
    let (status, headers, _) = get(&site.app, "/sitemap.xml", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(header(&headers, "content-type").starts_with("application/xml"));
}

#[tokio::test(flavor = "multi_thread")]
async fn old_addresses_move_permanently_to_the_pages_they_name() {
    let site = site().await;
    let id: i64 = catalog::db::query_scalar(
        "INSERT INTO page (title, seo_url) VALUES ('Returns', 'returns-policy') RETURNING id",
    )
    .fetch_one(&site.pool)
    .await
    .unwrap();
    for (from, to) in [
        (format!("/page/{id}"), "/page/returns-policy".to_string()),
        (
            format!("/page/{id}/?ref=mail"),
            "/page/returns-policy?ref=mail".to_string(),
        ),
        ("/c".to_string(), "/c/products".to_string()),
        ("/c/".to_string(), "/c/products".to_string()),
    ] {
        let (status, headers, _) = get(&site.app, &from, &[]).await;
        assert_eq!(status, StatusCode::MOVED_PERMANENTLY, "{from}");
        assert_eq!(headers["location"], to.as_str(), "{from}");
        assert!(
            headers["cache-control"]
                .to_str()
                .unwrap()
                .starts_with("public"),
            "{from}: a redirect the edge may keep"
        );
    }
    let (_, headers, _) = get(&site.app, &format!("/page/{id}"), &[]).await;
    assert!(headers["surrogate-key"]
        .to_str()
        .unwrap()
        .contains(&format!("page:{id}")));
    for unknown in ["/page/999999", "/page/99999999999999999999", "/page/12ab"] {
        let (status, _, _) = get(&site.app, unknown, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{unknown}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_written_before_a_price_change_is_never_cached_past_it() {
    let site = site_of(40).await;
    let t0 = catalog::clock::now_unix();
    // A product taken out of the demo's sales, the site rewritten at t0, and
    // a sale on it from t0 + 100.
    let (id, seo_url): (i64, String) =
        db::query_as("SELECT id, seo_url FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1")
            .fetch_one(&site.pool)
            .await
            .unwrap();
    db::query(&format!("DELETE FROM flash_item WHERE product_id = {id}"))
        .execute(&site.pool)
        .await
        .unwrap();
    site.build(t0).await;
    db::query(&format!(
        "INSERT INTO flash_schedule (id, fs_name, starts_at, ends_at) VALUES (99, 'Test Sale', {}, {});
         INSERT INTO flash_item (schedule_id, product_id, discount_percent) VALUES (99, {id}, 20);",
        t0 + 100,
        t0 + 3600
    ))
    .execute(&site.pool)
    .await
    .unwrap();
    let page = format!("/product/{seo_url}");
    let price_at = |t: i64| {
        let (app, uri) = (
            site.app.clone(),
            format!("/api/product/info?seo_url={seo_url}"),
        );
        catalog::clock::as_of(t, async move {
            let (_, _, body) = get(&app, &uri, &[]).await;
            let info: serde_json::Value = serde_json::from_slice(&body).unwrap();
            info["product"]["product_price_now"].as_i64().unwrap()
        })
    };
    let (regular, sale) = (price_at(t0 + 50).await, price_at(t0 + 100).await);
    assert!(sale < regular, "{sale} < {regular}");
    let offer = |n: i64| format!(r#""price":"{n}""#);
    // The page as the origin sends it at instant `t`, to a cache holding
    // the copy `etag` names, if any.
    let at = |t: i64, etag: Option<String>| {
        let (app, page) = (site.app.clone(), page.clone());
        catalog::clock::as_of(t, async move {
            let headers: Vec<(&str, &str)> =
                etag.iter().map(|e| ("if-none-match", e.as_str())).collect();
            let (status, h, body) = get(&app, &page, &headers).await;
            (status, h, String::from_utf8(body).unwrap())
        })
    };

    // Before the sale, the page written at t0 is good until it starts.
    let (status, headers, html) = at(t0 + 70, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&offer(regular)));
    assert_eq!(header(&headers, "cache-control"), "public, max-age=30");
    assert_eq!(
        header(&headers, "cdn-cache-control"),
        "max-age=30, stale-if-error=86400"
    );
    let etag = header(&headers, "etag").to_string();

    // From its start until the page is rewritten, the file still shows the
    // old price: it is sent, but no cache may keep it, and a cache's copy
    // of it is not confirmed with a 304.
    let (status, headers, html) = at(t0 + 100, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&offer(regular)));
    assert_eq!(header(&headers, "cache-control"), "private, no-store");
    assert_eq!(header(&headers, "cdn-cache-control"), "");
    assert_eq!(header(&headers, "surrogate-key"), "");
    let (status, headers, _) = at(t0 + 101, Some(etag)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "cache-control"), "private, no-store");

    // A page that does not show the product stays cacheable meanwhile.
    let manifest = generator::serve::Manifest::load(&site.dir.path().join("site")).unwrap();
    let key = format!("product:{id}");
    let other = manifest
        .pages
        .iter()
        .find(|(path, e)| path.starts_with("/product/") && !e.keys.contains(&key))
        .map(|(path, _)| path.clone())
        .expect("a product page without the product");
    let (app, t) = (site.app.clone(), t0 + 101);
    let (status, headers, _) =
        catalog::clock::as_of(t, async move { get(&app, &other, &[]).await }).await;
    assert_eq!(status, StatusCode::OK);
    assert!(header(&headers, "cache-control").starts_with("public"));

    // Rewritten at the boundary, it shows the sale price and is cached until the sale ends.
    site.build(t0 + 100).await;
    let (status, headers, html) = at(t0 + 101, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&offer(sale)), "the sale price {sale}");
    assert_eq!(header(&headers, "cache-control"), "public, max-age=60");
    assert_eq!(
        header(&headers, "cdn-cache-control"),
        "max-age=3499, stale-if-error=86400"
    );
}
