//! The edge in front of a real origin: hits, misses, Age, Vary, what must never be stored,
//! coalescing, stale serving, and no cache poisoning.

mod common;

use common::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hit_after_miss_with_age_and_headers() {
    let origin =
        Origin::start(|_| Reply::page("<h1>sofa</h1>", "product:12 category:3 home")).await;
    let edge = Edge::start(&[origin.url()], &[]).await;

    let first = send(&edge.url("/p/sofa"), &[]).await;
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()["x-cache"], "MISS");
    assert!(first.headers()["cache-status"]
        .to_str()
        .unwrap()
        .contains("fwd=uri-miss"));
    assert!(first.headers().get("age").is_some());
    assert!(first.headers().get("surrogate-key").is_none());
    assert!(first.headers().get("cdn-cache-control").is_none());
    assert!(!first.headers()["x-request-id"].is_empty());

    tokio::time::sleep(Duration::from_millis(1100)).await;
    let second = send(&edge.url("/p/sofa"), &[]).await;
    assert_eq!(second.headers()["x-cache"], "HIT");
    let age: u64 = second.headers()["age"].to_str().unwrap().parse().unwrap();
    assert!(age >= 1, "age {age}");
    let status = second.headers()["cache-status"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(status.starts_with("edge; hit; ttl="), "{status}");
    assert!(second.headers().get("surrogate-key").is_none());
    assert_eq!(second.text().await.unwrap(), "<h1>sofa</h1>");
    assert_eq!(origin.count(), 1);
}

/// A response's headers without those that differ per request or per second.
fn stable_headers(resp: &reqwest::Response) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = resp
        .headers()
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "date" | "age" | "x-request-id"))
        .map(|(name, value)| {
            let value = value.to_str().unwrap();
            // The remaining freshness may tick over between two requests.
            let value = match name.as_str() {
                "cache-status" => value.split("; ttl=").next().unwrap(),
                _ => value,
            };
            (name.to_string(), value.to_string())
        })
        .collect();
    headers.sort();
    headers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn plain_hits_and_conditional_range_and_head_hits_answer_alike() {
    // A plain GET of a fresh object is answered before Pingora's cache phases; a request
    // with a precondition, a range or HEAD goes through them. Both must answer alike.
    let origin = Origin::start(|_| {
        Reply::page("0123456789", "product:1")
            .header("etag", "\"v1\"")
            .header("x-origin", "kept")
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    assert_eq!(get(&edge.url("/p/1")).await.1, "MISS");

    let plain = send(&edge.url("/p/1"), &[]).await;
    let full = send(&edge.url("/p/1"), &[("if-none-match", "\"other\"")]).await;
    for resp in [&plain, &full] {
        assert_eq!(resp.status(), 200);
        assert_eq!(resp.headers()["x-cache"], "HIT");
        assert!(resp.headers()["cache-status"]
            .to_str()
            .unwrap()
            .starts_with("edge; hit; ttl="));
        assert!(resp.headers().get("age").is_some());
        assert!(resp.headers().get("date").is_some());
        assert!(resp.headers().get("surrogate-key").is_none());
        assert!(resp.headers().get("cdn-cache-control").is_none());
        assert!(resp.headers().get("x-edge-url").is_none());
        assert_eq!(resp.headers()["x-origin"], "kept");
    }
    assert_eq!(stable_headers(&plain), stable_headers(&full));
    assert_ne!(
        plain.headers()["x-request-id"],
        full.headers()["x-request-id"]
    );
    assert_eq!(plain.text().await.unwrap(), "0123456789");
    assert_eq!(full.text().await.unwrap(), "0123456789");

    let not_modified = send(&edge.url("/p/1"), &[("if-none-match", "\"v1\"")]).await;
    assert_eq!(not_modified.status(), 304);
    assert_eq!(not_modified.headers()["x-cache"], "HIT");
    let range = send(&edge.url("/p/1"), &[("range", "bytes=2-4")]).await;
    assert_eq!(range.status(), 206);
    assert_eq!(range.text().await.unwrap(), "234");
    let head = client().head(edge.url("/p/1")).send().await.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["x-cache"], "HIT");
    assert_eq!(head.headers()["content-length"], "10");
    assert_eq!(head.text().await.unwrap(), "");
    // The client's own request id is echoed by both paths.
    let plain = send(&edge.url("/p/1"), &[("x-request-id", "fast-1")]).await;
    assert_eq!(plain.headers()["x-request-id"], "fast-1");
    assert_eq!(origin.count(), 1);
    // Six hits, counted by cache status and route class whichever path served them (the
    // count lands in the logging phase, after the response).
    let hits = "edge_requests_total{cache=\"HIT\",route=\"page\"}";
    let deadline = Instant::now() + Duration::from_secs(3);
    while edge.metric(hits).await < 6.0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(edge.metric(hits).await, 6.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn request_id_is_kept_and_forwarded() {
    let origin = Origin::start(|_| Reply::new(200, "x").header("cache-control", "no-store")).await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let resp = send(&edge.url("/api/x"), &[("x-request-id", "abc-123")]).await;
    assert_eq!(resp.headers()["x-request-id"], "abc-123");
    assert_eq!(origin.seen()[0].header("x-request-id"), Some("abc-123"));
    let resp = send(&edge.url("/api/x"), &[]).await;
    let generated = resp.headers()["x-request-id"].to_str().unwrap().to_string();
    assert_eq!(
        origin.seen()[1].header("x-request-id"),
        Some(generated.as_str())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn query_is_normalised_and_tracking_parameters_share_the_entry() {
    let origin = Origin::start(|r| Reply::page(r.target.clone(), "list")).await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let (_, c1, b1) = get(&edge.url("/c/products?sort=price&page=2&utm_source=fb")).await;
    let (_, c2, b2) = get(&edge.url("/c/products?page=2&sort=price&fbclid=zz")).await;
    assert_eq!((c1.as_str(), c2.as_str()), ("MISS", "HIT"));
    assert_eq!(b1, b2);
    assert_eq!(b1, "/c/products?page=2&sort=price");
    let (_, c3, _) = get(&edge.url("/c/products?page=3&sort=price")).await;
    assert_eq!(c3, "MISS");
    assert_eq!(origin.count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn encoding_class_is_part_of_the_key() {
    let origin = Origin::start(|r| {
        Reply::page(
            format!("enc={}", r.header("accept-encoding").unwrap_or("-")),
            "home",
        )
        .header("vary", "Accept-Encoding")
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let (_, _, br) = get_with(&edge.url("/"), &[("accept-encoding", "gzip, deflate, br")]).await;
    let (_, _, gz) = get_with(&edge.url("/"), &[("accept-encoding", "gzip")]).await;
    let (_, _, id) = get_with(&edge.url("/"), &[("accept-encoding", "identity")]).await;
    assert_eq!(
        (br.as_str(), gz.as_str(), id.as_str()),
        ("enc=br", "enc=gzip", "enc=identity")
    );
    let (_, hit, br2) = get_with(&edge.url("/"), &[("accept-encoding", "br")]).await;
    assert_eq!((hit.as_str(), br2.as_str()), ("HIT", "enc=br"));
    assert_eq!(origin.count(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn vary_keeps_variants_apart() {
    let origin = Origin::start(|r| match r.path() {
        "/lang" => Reply::page(
            format!("lang={}", r.header("accept-language").unwrap_or("-")),
            "x",
        )
        .header("vary", "Accept-Language"),
        "/cookie" => Reply::page("c", "x").header("vary", "Cookie"),
        _ => Reply::page("star", "x").header("vary", "*"),
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let en = [("accept-language", "en")];
    let bn = [("accept-language", "bn")];
    assert_eq!(get_with(&edge.url("/lang"), &en).await.2, "lang=en");
    assert_eq!(get_with(&edge.url("/lang"), &bn).await.2, "lang=bn");
    let (_, c_en, b_en) = get_with(&edge.url("/lang"), &en).await;
    let (_, c_bn, b_bn) = get_with(&edge.url("/lang"), &bn).await;
    assert_eq!((c_en.as_str(), b_en.as_str()), ("HIT", "lang=en"));
    assert_eq!((c_bn.as_str(), b_bn.as_str()), ("HIT", "lang=bn"));
    assert_eq!(origin.count_path("/lang"), 2);

    // Any other header too, one variant per value (issue 16, item 3); `*` never.
    get(&edge.url("/cookie")).await;
    assert_eq!(get(&edge.url("/cookie")).await.1, "HIT");
    let cookie = [("cookie", "a=1")];
    assert_eq!(get_with(&edge.url("/cookie"), &cookie).await.1, "MISS");
    assert_eq!(get_with(&edge.url("/cookie"), &cookie).await.1, "HIT");
    get(&edge.url("/star")).await;
    let (_, cache, _) = get(&edge.url("/star")).await;
    assert_eq!(cache, "BYPASS");
    assert_eq!(origin.count_path("/star"), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn images_vary_on_accept_only_as_webp_or_not() {
    // The origin's rule: WebP when Accept names image/webp with a non-zero q.
    let origin = Origin::start(|r| {
        let webp = r.header("accept").unwrap_or("").contains("image/webp")
            && !r.header("accept").unwrap_or("").contains("image/webp;q=0");
        Reply::page(if webp { "webp" } else { "jpeg" }, "x").header("vary", "Accept")
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let chrome = [(
        "accept",
        "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8",
    )];
    let firefox = [("accept", "image/webp,*/*")];
    let old = [("accept", "image/*,*/*;q=0.8")];
    let refused = [("accept", "image/webp;q=0")];
    let image = edge.url("/storage/p/1.jpg");
    assert_eq!(get_with(&image, &chrome).await.2, "webp");
    assert_eq!(get_with(&image, &old).await.2, "jpeg");
    let (_, cache, body) = get_with(&image, &firefox).await;
    assert_eq!((cache.as_str(), body.as_str()), ("HIT", "webp"));
    let (_, cache, body) = get_with(&image, &refused).await;
    assert_eq!((cache.as_str(), body.as_str()), ("HIT", "jpeg"));
    assert_eq!(origin.count_path("/storage/p/1.jpg"), 2);

    // Elsewhere Vary: Accept keeps one variant per Accept value.
    let page = edge.url("/about");
    get_with(&page, &chrome).await;
    let (_, cache, _) = get_with(&page, &firefox).await;
    assert_eq!(cache, "MISS");
    assert_eq!(origin.count_path("/about"), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn what_must_never_be_stored() {
    let origin = Origin::start(|r| {
        let cacheable = || Reply::new(200, "x").header("cache-control", "max-age=600");
        match r.path() {
            "/private" => Reply::new(200, "cart").header("cache-control", "private, no-store"),
            "/no-store" => Reply::new(200, "x").header("cache-control", "no-store"),
            "/cookie" => cacheable().header("set-cookie", "session=1"),
            "/no-freshness" => Reply::new(200, "x"),
            "/error" => Reply::new(500, "x").header("cache-control", "max-age=600"),
            "/auth" => cacheable(),
            "/auth-public" => Reply::new(200, "x").header("cache-control", "public, max-age=600"),
            _ => cacheable(),
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    for path in [
        "/private",
        "/no-store",
        "/cookie",
        "/no-freshness",
        "/error",
    ] {
        for _ in 0..2 {
            let (_, cache, _) = get(&edge.url(path)).await;
            assert_ne!(cache, "HIT", "{path}");
        }
        assert_eq!(origin.count_path(path), 2, "{path} was stored");
    }
    let auth = [("authorization", "Bearer user-token")];
    for _ in 0..2 {
        get_with(&edge.url("/auth"), &auth).await;
    }
    assert_eq!(
        origin.count_path("/auth"),
        2,
        "a response to Authorization was stored"
    );
    for _ in 0..2 {
        get_with(&edge.url("/auth-public"), &auth).await;
    }
    assert_eq!(
        origin.count_path("/auth-public"),
        1,
        "explicitly public is stored"
    );

    // POST is never answered from cache.
    for _ in 0..2 {
        client()
            .post(edge.url("/post"))
            .body("x")
            .send()
            .await
            .unwrap();
    }
    assert_eq!(origin.count_path("/post"), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hundred_concurrent_misses_make_one_origin_request() {
    let origin =
        Origin::start(|_| Reply::page("flash sale", "home").delay(Duration::from_millis(300)))
            .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let url = edge.url("/flash-sale");
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { get(&url).await })
        })
        .collect();
    for task in tasks {
        let (status, _, body) = task.await.unwrap();
        assert_eq!((status, body.as_str()), (200, "flash sale"));
    }
    assert_eq!(origin.count(), 1);
    assert!(edge.metric("edge_coalesced_waits_total").await >= 50.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn uncacheable_urls_do_not_queue_on_the_lock() {
    let origin = Origin::start(|_| {
        Reply::new(200, "cart")
            .header("cache-control", "private, no-store")
            .delay(Duration::from_millis(300))
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let url = edge.url("/api/cart");
    get(&url).await; // teaches the predictor
    let started = Instant::now();
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { get(&url).await })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.unwrap().1, "BYPASS");
    }
    // Ten requests in parallel, not one after another behind a lock.
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(origin.count(), 11);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stale_while_revalidate_serves_stale_and_refreshes_in_the_background() {
    let version = Arc::new(AtomicUsize::new(1));
    let v = version.clone();
    let origin = Origin::start(move |_| {
        let version = v.load(Ordering::SeqCst);
        let ttl = if version == 1 { 1 } else { 600 };
        Reply::new(200, format!("v{version}"))
            .header("cache-control", "public, max-age=60")
            .header(
                "cdn-cache-control",
                &format!("max-age={ttl}, stale-while-revalidate=60"),
            )
            .delay(Duration::from_millis(200))
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    assert_eq!(get(&edge.url("/p/1")).await.2, "v1");
    version.store(2, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let started = Instant::now();
    let (_, cache, body) = get(&edge.url("/p/1")).await;
    assert_eq!((cache.as_str(), body.as_str()), ("STALE", "v1"));
    assert!(
        started.elapsed() < Duration::from_millis(150),
        "stale was not immediate"
    );
    assert!(eventually(Duration::from_secs(3), || origin.count() == 2).await);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_, cache, body) = get(&edge.url("/p/1")).await;
    assert_eq!((cache.as_str(), body.as_str()), ("HIT", "v2"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn origin_down_pages_still_served_and_api_gets_json_quickly() {
    let origin = Origin::start(|r| {
        if r.path().starts_with("/api/") {
            Reply::new(200, "{}").header("cache-control", "no-store")
        } else {
            Reply::new(200, "page")
                .header("cache-control", "public, max-age=60")
                .header("cdn-cache-control", "max-age=1, stale-if-error=86400")
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    assert_eq!(get(&edge.url("/p/1")).await.2, "page");
    origin.stop();
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let (status, cache, body) = get(&edge.url("/p/1")).await;
    assert_eq!(
        (status, cache.as_str(), body.as_str()),
        (200, "STALE", "page")
    );

    let started = Instant::now();
    let resp = send(&edge.url("/api/product/1"), &[]).await;
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(
        matches!(resp.status().as_u16(), 502 | 503),
        "{}",
        resp.status()
    );
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let json: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(json["success"], false);
    assert!(edge.metric("edge_origin_up").await < 0.5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unkeyed_headers_never_change_what_another_visitor_gets() {
    // A careless origin: reflects everything into a public, cacheable page.
    let origin = Origin::start(|r| {
        let reflected = format!(
            "host={} xfh={} cookie={} token={} auth={}",
            r.header("host").unwrap_or("-"),
            r.header("x-forwarded-host").unwrap_or("-"),
            r.header("cookie").unwrap_or("-"),
            r.header("self-token").unwrap_or("-"),
            r.header("x-original-url").unwrap_or("-"),
        );
        Reply::page(reflected, "home")
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let attacker = [
        ("x-forwarded-host", "evil.test"),
        ("cookie", "session=attacker"),
        ("self-token", "attacker-token"),
        ("x-original-url", "/admin"),
    ];
    let (_, _, poisoned) = get_with(&edge.url("/p/1"), &attacker).await;
    assert!(
        !poisoned.contains("evil")
            && !poisoned.contains("attacker")
            && !poisoned.contains("/admin"),
        "{poisoned}"
    );
    let (_, cache, victim) = get(&edge.url("/p/1")).await;
    assert_eq!(cache, "HIT");
    assert_eq!(victim, poisoned);
    for seen in origin.seen() {
        assert!(seen.header("x-forwarded-host").is_none());
        assert!(seen.header("cookie").is_none());
        assert!(seen.header("self-token").is_none());
    }

    // A per-visitor API answer is never handed to the next visitor.
    let origin_api = Origin::start(|r| {
        Reply::new(
            200,
            format!("cart of {}", r.header("self-token").unwrap_or("nobody")),
        )
        .header("cache-control", "private, no-store")
    })
    .await;
    let edge_api = Edge::start(&[origin_api.url()], &[]).await;
    let (_, _, a) = get_with(&edge_api.url("/api/cart"), &[("self-token", "alice")]).await;
    let (_, _, b) = get_with(&edge_api.url("/api/cart"), &[("self-token", "bob")]).await;
    assert_eq!((a.as_str(), b.as_str()), ("cart of alice", "cart of bob"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_byte_bound_holds_under_ten_times_overfill() {
    let origin = Origin::start(|r| Reply::page(vec![b'x'; 20_000], r.path())).await;
    let limit: usize = 1 << 20;
    let edge = Edge::start(
        &[origin.url()],
        &[
            "--cache-bytes",
            &limit.to_string(),
            "--max-object-bytes",
            "100000",
        ],
    )
    .await;
    // 10 MiB of distinct 20 KB pages through a 1 MiB cache.
    for i in 0..525 {
        let (status, _, _) = get(&edge.url(&format!("/p/{i}"))).await;
        assert_eq!(status, 200);
        if i % 50 == 0 {
            assert!(edge.metric("edge_cache_bytes").await <= limit as f64);
        }
    }
    let stats = edge.stats().await;
    let bytes = stats["cache"]["bytes"].as_u64().unwrap();
    assert!(bytes <= limit as u64, "{bytes} > {limit}");
    assert!(
        bytes > (limit as u64) / 2,
        "cache should be mostly full: {bytes}"
    );
    assert!(edge.metric("edge_cache_evictions_total").await > 400.0);
    // The most recent page is still there.
    assert_eq!(get(&edge.url("/p/524")).await.1, "HIT");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn objects_above_the_maximum_size_pass_through() {
    let origin = Origin::start(|_| Reply::page(vec![b'x'; 300_000], "big")).await;
    let edge = Edge::start(&[origin.url()], &["--max-object-bytes", "100000"]).await;
    for _ in 0..3 {
        let (status, _, body) = get(&edge.url("/big")).await;
        assert_eq!((status, body.len()), (200, 300_000));
    }
    assert_eq!(origin.count(), 3);
}

#[tokio::test]
async fn an_origin_that_hangs_up_mid_body_leaves_nothing_in_the_cache() {
    // The first answer dies after 1,000 of its 50,000 bytes; later ones are whole.
    let served = Arc::new(AtomicUsize::new(0));
    let origin = {
        let served = served.clone();
        Origin::start(move |_| {
            let reply = Reply::page(vec![b'y'; 50_000], "cut");
            if served.fetch_add(1, Ordering::SeqCst) == 0 {
                reply.truncate_at(1_000)
            } else {
                reply
            }
        })
        .await
    };
    let edge = Edge::start(&[origin.url()], &[]).await;

    // The client of the broken fill must not get a body passed off as complete.
    let first = client().get(edge.url("/cut")).send().await;
    if let Ok(resp) = first {
        let body = resp.bytes().await;
        assert!(
            body.as_ref().map_or(true, |b| b.len() != 50_000),
            "a truncated origin answer reached the client as a whole body"
        );
    }

    // Nothing was stored: the next visitor goes to the origin and gets it whole.
    let (status, x_cache, body) = get(&edge.url("/cut")).await;
    assert_eq!(
        (status, x_cache.as_str(), body.len()),
        (200, "MISS", 50_000)
    );
    assert_eq!(origin.count(), 2);
    // And that whole answer is what gets served from the cache afterwards.
    let (status, x_cache, body) = get(&edge.url("/cut")).await;
    assert_eq!((status, x_cache.as_str(), body.len()), (200, "HIT", 50_000));
    assert_eq!(origin.count(), 2);
    assert!(edge.metric("edge_cache_aborted_writes_total").await >= 1.0);
}
