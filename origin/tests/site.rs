//! The generated site through the origin's router: encodings, ETags and 304s,
//! cache headers, shells for variable paths, and the 404 page.

use std::io::Read;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

use origin::state::{AppState, Dirs};

struct Site {
    dir: tempfile::TempDir,
    app: axum::Router,
    pool: catalog::db::Pool,
}

/// A site built by the generator from a migrated database.
async fn site() -> Site {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("shop.db").display());
    let pool = catalog::db::connect(&catalog::db::PoolConfig::new(&db))
        .await
        .unwrap();
    catalog::db::migrate(&pool).await.unwrap();
    let out = dir.path().join("site");
    generator::commands::build(&generator::commands::BuildOptions {
        database: db,
        out: out.clone(),
        base_url: "https://shop.example".into(),
        web_dist: dir.path().join("no-web"),
        compression: Default::default(),
        progress: false,
        now: catalog::clock::now_unix(),
        batch: 100,
    })
    .await
    .unwrap();
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
