//! Origin failover mid-flight: an origin killed while the edge holds keep-alive connections
//! to it and while requests are in flight on it; every request still succeeds, served by
//! the survivor, and the first origin gets traffic again once its health check passes.

mod common;

use common::*;
use std::time::{Duration, Instant};

/// An origin that names itself in `x-origin`, answers after `delay`, and lets nothing be
/// cached.
fn named(name: &'static str, delay: Duration) -> impl Fn(&SeenRequest) -> Reply + Send + Sync {
    move |r| {
        Reply::new(200, format!("{name} {} {}", r.method, r.target))
            .header("x-origin", name)
            .header("cache-control", "no-store")
            .delay(delay)
    }
}

/// Send request `i` of the series: GETs of distinct URLs, and every third one the
/// checkout's idempotency-keyed POST. Returns (status, x-origin).
async fn request(client: &reqwest::Client, base: &str, i: usize) -> (u16, String) {
    let resp = if i % 3 == 2 {
        client
            .post(format!("{base}/api/cod-place-order"))
            .header("idempotency-key", format!("order-{i}"))
            .header("content-type", "application/json")
            .body(format!("{{\"cart\":{i}}}"))
            .send()
            .await
    } else {
        client.get(format!("{base}/api/items?n={i}")).send().await
    };
    let resp = resp.unwrap_or_else(|e| panic!("request {i}: {e}"));
    let origin = resp
        .headers()
        .get("x-origin")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (resp.status().as_u16(), origin)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_killed_origin_fails_no_request_and_comes_back() {
    let delay = Duration::from_millis(300);
    let a = Origin::start(named("a", delay)).await;
    let b = Origin::start(named("b", delay)).await;
    let a_port = a.port;
    let edge = Edge::start(&[a.url(), b.url()], &["--rate-limit", "100000"]).await;
    let client = client();
    let base = edge.url("");

    // Warm: both origins serve, and the edge keeps connections to each.
    let mut served = Vec::new();
    for i in 0..6 {
        served.push(request(&client, &base, i).await);
    }
    assert!(
        served.iter().all(|(status, _)| *status == 200),
        "{served:?}"
    );
    assert!(served.iter().any(|(_, o)| o == "a") && served.iter().any(|(_, o)| o == "b"));

    // A burst in flight; kill `a` as soon as it holds one of them.
    let a_before = a.count();
    let burst: Vec<_> = (6..18)
        .map(|i| {
            let (client, base) = (client.clone(), base.clone());
            tokio::spawn(async move { request(&client, &base, i).await })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(5);
    while a.count() == a_before && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    a.stop();
    let died_on_a = a.seen()[a_before..].to_vec();
    assert!(
        !died_on_a.is_empty(),
        "no request reached `a` before it was killed"
    );
    for task in burst {
        let (status, origin) = task.await.unwrap();
        assert_eq!((status, origin.as_str()), (200, "b"));
    }
    // What `a` took to its grave was replayed on `b`: the POSTs with their key.
    let b_seen = b.seen();
    for lost in &died_on_a {
        assert!(
            b_seen.iter().any(|r| r.method == lost.method
                && r.target == lost.target
                && r.header("idempotency-key") == lost.header("idempotency-key")),
            "{} {} was not replayed on b",
            lost.method,
            lost.target
        );
    }

    // Later requests: all succeed, all on `b`.
    for i in 18..30 {
        assert_eq!(request(&client, &base, i).await, (200, "b".to_string()));
    }

    // `a` comes back on its port: after a health check it gets traffic again.
    let a = Origin::start_on(a_port, named("a", Duration::ZERO)).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut i = 30;
    while a.count() == 0 && Instant::now() < deadline {
        assert_eq!(request(&client, &base, i).await.0, 200);
        i += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(a.count() > 0, "`a` got no traffic after coming back");
}
