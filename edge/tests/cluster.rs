//! The cluster view: two edges that name each other as peers each show the sum of both
//! edges' figures, and a stopped peer shows as down and leaves the sum.

mod common;

use common::*;
use serde_json::Value;
use std::time::{Duration, Instant};

const SUMMED: [&str; 7] = [
    "rps",
    "hits_ps",
    "origin_rps",
    "cache_bytes",
    "requests_total",
    "hits_total",
    "origin_requests_total",
];

async fn json(url: String) -> Value {
    client()
        .get(url)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Whether `stats.cluster.sum` is `stats.own` plus `peer`, figure by figure.
fn sums(stats: &Value, peer: &Value) -> bool {
    SUMMED.iter().all(|k| {
        let own = stats["own"][k].as_u64().unwrap();
        stats["cluster"]["sum"][k].as_u64() == Some(own + peer[k].as_u64().unwrap())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_edges_sum_their_figures_and_a_stopped_peer_is_down() {
    let origin = Origin::start(|r| Reply::page(format!("page {}", r.path()), "home")).await;
    let (a_port, a_admin, b_port, b_admin) = (free_port(), free_port(), free_port(), free_port());
    let a_peer = format!("http://127.0.0.1:{b_admin}");
    let b_peer = format!("http://127.0.0.1:{a_admin}");
    let a = Edge::start_with_ports(a_port, a_admin, &[origin.url()], &["--peers", &a_peer]).await;
    let mut b =
        Edge::start_with_ports(b_port, b_admin, &[origin.url()], &["--peers", &b_peer]).await;

    // Different traffic on each: misses, hits, and more pages on `a`.
    for i in 0..6 {
        get(&a.url(&format!("/p/{i}"))).await;
        get(&a.url(&format!("/p/{i}"))).await;
    }
    for i in 0..2 {
        get(&b.url(&format!("/q/{i}"))).await;
        get(&b.url(&format!("/q/{i}"))).await;
        get(&b.url(&format!("/q/{i}"))).await;
    }

    // Once each has fetched the other's figures, each edge's sum is both edges' own.
    let deadline = Instant::now() + Duration::from_secs(8);
    let (mut a_stats, mut b_stats);
    loop {
        a_stats = json(a.admin("/stats")).await;
        let b_self = json(b.admin("/stats/self")).await;
        b_stats = json(b.admin("/stats")).await;
        let a_self = json(a.admin("/stats/self")).await;
        if (sums(&a_stats, &b_self) && sums(&b_stats, &a_self)) || Instant::now() > deadline {
            assert!(sums(&a_stats, &b_self), "{a_stats}\n{b_self}");
            assert!(sums(&b_stats, &a_self), "{b_stats}\n{a_self}");
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let cluster = &a_stats["cluster"];
    assert_eq!(
        (cluster["edges"].as_u64(), cluster["of"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(cluster["sum"]["requests_total"], 18);
    assert_eq!(cluster["sum"]["hits_total"], 10);
    assert!(a_stats["own"]["cache_bytes"].as_u64().unwrap() > 0);
    assert!(a_stats["own"]["cache_bytes"].as_u64() > b_stats["own"]["cache_bytes"].as_u64());
    assert_eq!(cluster["peers"][0]["url"], a_peer.as_str());
    assert_eq!(cluster["peers"][0]["up"], true);
    assert!(cluster["peers"][0]["last_seen_ms"].is_u64());

    // `b` stops: `a` shows it down, and its sum covers itself alone.
    b.stop();
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut a_stats = json(a.admin("/stats")).await;
    while a_stats["cluster"]["peers"][0]["up"] != false && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        a_stats = json(a.admin("/stats")).await;
    }
    let cluster = &a_stats["cluster"];
    assert_eq!(cluster["peers"][0]["up"], false, "{cluster}");
    assert!(cluster["peers"][0]["last_seen_ms"].is_u64());
    assert_eq!(
        (cluster["edges"].as_u64(), cluster["of"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(cluster["sum"], a_stats["own"]);

    // The page has the cluster section.
    let page = client()
        .get(a.admin("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Cluster"));
}
