//! Issue 16, item 10: no request through the edge fails at the connection level. Thousands
//! of sequential requests on one reused client connection, with idle pauses just under and
//! just over the origins' keep-alive timeout (after which an origin hangs up on the next
//! request it reads on that connection, as in the race of a request sent just as its timer
//! fires), each get the origin's answer.

mod common;

use common::*;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn keep_alive_requests_across_idle_pauses_are_all_answered() {
    let origin_idle = Duration::from_millis(150);
    let reply =
        |r: &SeenRequest| Reply::new(200, r.target.clone()).header("cache-control", "no-store");
    let a = Origin::start_closing_idle(origin_idle, reply).await;
    let b = Origin::start_closing_idle(origin_idle, reply).await;
    let edge = Edge::start(&[a.url(), b.url()], &[]).await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .pool_max_idle_per_host(1)
        .build()
        .unwrap();
    let mut failures = Vec::new();
    let mut sent = 0;
    // Pauses from just under to just over the origins' idle timeout, a burst after each.
    for round in 0..40u64 {
        let pause = origin_idle - Duration::from_millis(20) + Duration::from_millis(round);
        tokio::time::sleep(pause).await;
        for i in 0..50 {
            sent += 1;
            let url = edge.url(&format!("/r{round}/{i}"));
            // GETs, and POSTs without an Idempotency-Key: neither may be lost.
            let request = if i % 5 == 4 {
                client.post(&url)
            } else {
                client.get(&url)
            };
            match request.send().await {
                Ok(resp) if resp.status() == 200 => {}
                Ok(resp) => failures.push(format!("{url}: {}", resp.status())),
                Err(e) => failures.push(format!("{url}: {e:?}")),
            }
        }
    }
    assert_eq!(sent, 2000);
    assert!(
        failures.is_empty(),
        "{} failed: {failures:#?}",
        failures.len()
    );
}
