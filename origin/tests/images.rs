//! Images under `/storage/`: resized variants by `?w=`, WebP or JPEG by
//! `Accept`, made once into the variant cache, and refusals of bad input.
//! Runs on the seeded test shop's real storage (pictures drawn by the seeder).
//!
//! `cargo test --release -p origin --test images -- --ignored --nocapture`
//! prints the figures (bytes per width and format, first and cached times).

mod common;

use catalog::db;
use std::path::PathBuf;
use std::time::Instant;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use common::{assert_api_error, TestShop};
use serde_json::Value;

const WEBP: &str = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

/// GET `uri` expecting a picture; returns its headers, bytes, and decoded size.
async fn picture(
    shop: &TestShop,
    uri: &str,
    accept: Option<&str>,
) -> (HeaderMap, Bytes, (u32, u32)) {
    let headers: Vec<(&str, &str)> = accept.map(|a| ("accept", a)).into_iter().collect();
    let (status, headers, body) = shop.fetch("GET", uri, &headers).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{uri}: {:?}",
        String::from_utf8_lossy(&body)
    );
    let image = image::load_from_memory(&body).expect("a decodable picture");
    (headers, body, (image.width(), image.height()))
}

/// The `n`-th seeded full-size product picture (`storage/uploads/fullsize/...`,
/// 1000 × 1000).
async fn full_size(shop: &TestShop, n: i64) -> String {
    db::query_scalar(
        "SELECT DISTINCT full_size_directory FROM image_file
         WHERE full_size_directory LIKE 'storage/uploads/fullsize/%.jpg'
           AND width = 1000 AND height = 1000
         ORDER BY full_size_directory LIMIT 1 OFFSET $1",
    )
    .bind(n)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}

/// A seeded icon (300 pixels wide).
async fn icon(shop: &TestShop) -> String {
    db::query_scalar(
        "SELECT icon_size_directory FROM image_file
         WHERE icon_size_directory LIKE 'storage/uploads/icon/%.jpg'
         ORDER BY icon_size_directory LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}

/// Where a stored path (`storage/...`) is on disk, and its variants' folder.
fn on_disk(shop: &TestShop, stored: &str) -> (PathBuf, PathBuf) {
    let rel = stored.trim_start_matches("storage/");
    (
        shop.state.dirs.storage.join(rel),
        shop.state.dirs.image_cache.join(rel),
    )
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_width_rounds_up_and_the_format_follows_accept() {
    let shop = TestShop::open().await;
    let path = full_size(&shop, 0).await;
    let uri = format!("/{path}?w=190");

    let (headers, body, size) = picture(&shop, &uri, Some(WEBP)).await;
    assert_eq!(
        size,
        (200, 200),
        "rounded up to 200 and square like the original"
    );
    assert_eq!(header(&headers, "content-type"), "image/webp");
    assert_eq!(&body[..4], b"RIFF");
    assert_eq!(&body[8..12], b"WEBP");
    assert_eq!(header(&headers, "vary"), "Accept");
    assert_eq!(
        header(&headers, "cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(header(&headers, "content-length"), body.len().to_string());
    let webp_etag = header(&headers, "etag").to_string();
    assert!(
        webp_etag.starts_with('"') && webp_etag.len() > 8,
        "{webp_etag}"
    );

    for accept in [None, Some("image/*,*/*;q=0.8"), Some("image/webp;q=0")] {
        let (headers, body, size) = picture(&shop, &uri, accept).await;
        assert_eq!(size, (200, 200));
        assert_eq!(header(&headers, "content-type"), "image/jpeg", "{accept:?}");
        assert_eq!(&body[..3], &[0xFF, 0xD8, 0xFF], "a JPEG");
        assert_eq!(header(&headers, "vary"), "Accept");
        assert_ne!(
            header(&headers, "etag"),
            webp_etag,
            "each format has its tag"
        );
    }

    // HEAD answers the same headers without a body.
    let (status, headers, body) = shop.fetch("HEAD", &uri, &[("accept", WEBP)]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.is_empty());
    assert_eq!(header(&headers, "etag"), webp_etag);
    assert_eq!(header(&headers, "content-type"), "image/webp");
    assert!(header(&headers, "content-length").parse::<u64>().unwrap() > 0);
}

#[tokio::test]
async fn every_srcset_candidate_the_generator_writes_is_served_at_its_width() {
    let shop = TestShop::open().await;
    let path = full_size(&shop, 1).await;
    let srcset = generator::serve::srcset(&path, &generator::serve::SRCSET_WIDTHS, 1000);
    let candidates: Vec<&str> = srcset.split(',').collect();
    assert!(candidates.len() >= 3, "{srcset}");
    for candidate in candidates {
        let (url, descriptor) = candidate.split_once(' ').unwrap();
        let want: u32 = descriptor.trim_end_matches('w').parse().unwrap();
        let (_, _, (w, _)) = picture(&shop, url, Some(WEBP)).await;
        assert_eq!(w, want, "{url}");
    }
}

#[tokio::test]
async fn a_variant_is_made_once_then_read_from_the_cache() {
    let shop = TestShop::open().await;
    let path = full_size(&shop, 2).await;
    let (original, variants) = on_disk(&shop, &path);
    let file = variants.join("300-q55-v1.webp");
    assert!(original.is_file());
    assert!(!file.exists(), "no variant before the first request");

    let uri = format!("/{path}?w=300&q=55");
    let (first_headers, first, size) = picture(&shop, &uri, Some(WEBP)).await;
    assert_eq!(size, (300, 300));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        first,
        "the answer is the cached file"
    );
    let made = std::fs::metadata(&file).unwrap().modified().unwrap();

    let (second_headers, second, _) = picture(&shop, &uri, Some(WEBP)).await;
    assert_eq!(second, first);
    assert_eq!(second_headers["etag"], first_headers["etag"]);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        made,
        "the second request read the file instead of making it again"
    );
    // Only the finished file is in the cache folder: no temporary left.
    let names: Vec<String> = std::fs::read_dir(&variants)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("q55") || n.starts_with(".tmp"))
        .collect();
    assert_eq!(names, vec!["300-q55-v1.webp".to_string()]);

    // A variant is served from the cache: a changed file is what is sent.
    let marker = image::RgbImage::from_pixel(300, 300, image::Rgb([1, 2, 3]));
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgb8(marker)
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::WebP,
        )
        .unwrap();
    std::fs::write(&file, &bytes).unwrap();
    let (_, third, _) = picture(&shop, &uri, Some(WEBP)).await;
    assert_eq!(third, bytes);
}

#[tokio::test]
async fn a_matching_if_none_match_gets_304() {
    let shop = TestShop::open().await;
    let path = full_size(&shop, 3).await;
    let uri = format!("/{path}?w=400");
    let (headers, _, _) = picture(&shop, &uri, None).await;
    let etag = header(&headers, "etag").to_string();

    for sent in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
    ] {
        let (status, headers, body) = shop
            .fetch("GET", &uri, &[("if-none-match", sent.as_str())])
            .await;
        assert_eq!(status, StatusCode::NOT_MODIFIED, "{sent}");
        assert!(body.is_empty());
        assert_eq!(header(&headers, "etag"), etag);
        assert_eq!(header(&headers, "vary"), "Accept");
        assert!(header(&headers, "cache-control").contains("immutable"));
    }
    // Another tag, or the other format's request, gets the picture.
    let (status, _, _) = shop
        .fetch("GET", &uri, &[("if-none-match", "\"other\"")])
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = shop
        .fetch(
            "GET",
            &uri,
            &[("if-none-match", etag.as_str()), ("accept", WEBP)],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "the WebP variant has another tag");
}

#[tokio::test]
async fn pictures_are_never_made_wider_than_the_original() {
    let shop = TestShop::open().await;
    let icon = icon(&shop).await;
    let (_, _, size) = picture(&shop, &format!("/{icon}?w=1000"), Some(WEBP)).await;
    assert_eq!(size.0, 300, "an icon stays 300 wide");
    let path = full_size(&shop, 4).await;
    let (_, _, size) = picture(&shop, &format!("/{path}?w=4000"), None).await;
    assert_eq!(size, (1000, 1000));
    let (_, variants) = on_disk(&shop, &path);
    assert!(variants.join("1000-q80-v1.jpg").is_file());
    assert!(!variants.join("4000-q80-v1.jpg").exists());
}

#[tokio::test]
async fn without_a_width_the_stored_file_is_served_as_it_is() {
    let shop = TestShop::open().await;
    let path = full_size(&shop, 5).await;
    let (original, _) = on_disk(&shop, &path);
    let (status, headers, body) = shop.fetch("GET", &format!("/{path}"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, std::fs::read(original).unwrap());
    assert_eq!(header(&headers, "content-type"), "image/jpeg");
    assert!(header(&headers, "cache-control").contains("immutable"));
}

#[tokio::test]
async fn paths_out_of_the_storage_or_into_hidden_folders_are_refused() {
    let shop = TestShop::open().await;
    // A file beside the storage folder (where a SQLite shop keeps its
    // database): a way out would serve it.
    let db = shop.state.dirs.storage.parent().unwrap().join("shop.db");
    std::fs::write(&db, b"not for the public").unwrap();
    let path = full_size(&shop, 0).await;
    let name = path.rsplit('/').next().unwrap().to_string();
    // Make sure a variant exists, then try to read the cache folder directly.
    picture(&shop, &format!("/{path}?w=100"), None).await;
    let hidden = format!("/storage/.variants/uploads/fullsize/{name}/100-q80-v1.jpg");
    for uri in [
        "/storage/../shop.db",
        "/storage/%2e%2e/shop.db",
        "/storage/%2E%2E/shop.db?w=200",
        "/storage/uploads/..%2f..%2fshop.db",
        "/storage/uploads/%2e%2e/%2e%2e/shop.db?w=100",
        "/storage/uploads/..%5c..%5cshop.db",
        "/storage/%2fetc/passwd",
        hidden.as_str(),
    ] {
        let (status, headers, body) = shop.fetch("GET", uri, &[]).await;
        assert!(
            status == StatusCode::BAD_REQUEST || status == StatusCode::NOT_FOUND,
            "{uri}: {status}"
        );
        let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if json.is_object() {
            assert_api_error(status, &headers, &json, status);
        }
        assert!(
            !body.starts_with(b"SQLite format"),
            "{uri} served the database"
        );
    }
    // The encoded forms reach the image routes and get the API's JSON 400.
    let (status, headers, body) = shop.fetch("GET", "/storage/%2e%2e/shop.db", &[]).await;
    let json: Value = serde_json::from_slice(&body).unwrap();
    assert_api_error(status, &headers, &json, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn bad_widths_and_qualities_are_a_json_400() {
    let shop = TestShop::open().await;
    let path = full_size(&shop, 0).await;
    for query in [
        "w=abc",
        "w=0",
        "w=-5",
        "w=1.5",
        "w=",
        "w=4001",
        "w=99999999999",
        "q=0",
        "q=101",
        "q=high",
        "w=200&w=300",
    ] {
        let uri = format!("/{path}?{query}");
        let (status, headers, body) = shop.fetch("GET", &uri, &[]).await;
        let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        assert_api_error(status, &headers, &json, StatusCode::BAD_REQUEST);
        assert_eq!(header(&headers, "cache-control"), "no-store", "{query}");
    }
    // A width only applies to pictures; other stored files are served as they are.
    let notes = shop.state.dirs.storage.join("notes.txt");
    std::fs::write(&notes, "not a picture").unwrap();
    let (status, headers, body) = shop.fetch("GET", "/storage/notes.txt?w=100", &[]).await;
    let json: Value = serde_json::from_slice(&body).unwrap();
    assert_api_error(status, &headers, &json, StatusCode::BAD_REQUEST);
    assert!(json["errors"]["w"][0].as_str().is_some());
    let (status, _, body) = shop.fetch("GET", "/storage/notes.txt", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&body[..], b"not a picture");
}

#[tokio::test]
async fn unknown_files_are_a_json_404() {
    let shop = TestShop::open().await;
    for uri in [
        "/storage/uploads/fullsize/no-such-picture.jpg?w=200",
        "/storage/uploads/fullsize/no-such-picture.jpg",
        "/storage/uploads/no-such-folder/a.png?w=100&q=50",
    ] {
        let (status, headers, body) = shop.fetch("GET", uri, &[("accept", WEBP)]).await;
        let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        assert_api_error(status, &headers, &json, StatusCode::NOT_FOUND);
        assert_eq!(header(&headers, "cache-control"), "no-store", "{uri}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_concurrent_first_requests_get_one_identical_picture() {
    let shop = std::sync::Arc::new(TestShop::open().await);
    let path = full_size(&shop, 6).await;
    let (_, variants) = on_disk(&shop, &path);
    let uri = format!("/{path}?w=700&q=45");
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let shop = shop.clone();
            let uri = uri.clone();
            tokio::spawn(async move { shop.fetch("GET", &uri, &[("accept", WEBP)]).await })
        })
        .collect();
    let mut bodies = Vec::new();
    for task in tasks {
        let (status, _, body) = task.await.unwrap();
        assert_eq!(status, StatusCode::OK);
        bodies.push(body);
    }
    let image = image::load_from_memory(&bodies[0]).expect("a valid picture");
    assert_eq!(image.width(), 700);
    assert!(
        bodies.iter().all(|b| *b == bodies[0]),
        "every answer is the same picture"
    );
    let files: Vec<String> = std::fs::read_dir(&variants)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("q45") || n.starts_with(".tmp"))
        .collect();
    assert_eq!(
        files,
        vec!["700-q45-v1.webp".to_string()],
        "one file, no temporaries"
    );
    assert_eq!(std::fs::read(variants.join(&files[0])).unwrap(), bodies[0]);
}

/// The figures: bytes of an original against its variants (and against the
/// image crate's lossless WebP, the encoder not chosen), and the time of a
/// first (made) and a later (cached) request. Run in release (see the top).
#[tokio::test]
#[ignore = "prints figures; run with --ignored --nocapture in release"]
async fn figures() {
    let shop = TestShop::open().await;
    let path = full_size(&shop, 7).await;
    let (original, _) = on_disk(&shop, &path);
    let source = image::open(&original).unwrap();
    println!(
        "original {path}: {} bytes, {}x{}",
        std::fs::metadata(&original).unwrap().len(),
        source.width(),
        source.height()
    );
    println!("width  format         bytes  first ms  cached ms");
    for width in [200, 400, 800] {
        for (name, accept) in [("webp", WEBP), ("jpeg", "image/*")] {
            let uri = format!("/{path}?w={width}");
            let started = Instant::now();
            let (status, _, first) = shop.fetch("GET", &uri, &[("accept", accept)]).await;
            let made = started.elapsed();
            let started = Instant::now();
            let (_, _, second) = shop.fetch("GET", &uri, &[("accept", accept)]).await;
            let cached = started.elapsed();
            assert_eq!(status, StatusCode::OK);
            assert_eq!(first, second);
            println!(
                "{width:>5}  {name:<12} {:>7}  {:>8.1}  {:>9.2}",
                first.len(),
                made.as_secs_f64() * 1000.0,
                cached.as_secs_f64() * 1000.0
            );
        }
        let resized = source.resize_exact(width, width, image::imageops::FilterType::Lanczos3);
        let mut lossless = Vec::new();
        resized
            .write_to(
                &mut std::io::Cursor::new(&mut lossless),
                image::ImageFormat::WebP,
            )
            .unwrap();
        println!("{width:>5}  {:<12} {:>7}", "webp-lossless", lossless.len());
    }
}
