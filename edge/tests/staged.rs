//! Staged successors (issue 17): a response staged at the admin listener becomes the URL's
//! answer at its boundary, without an origin request; purges drop it; an edge restarted
//! across the boundary applies it; edges switch together, and an edge whose clock is 2 s
//! ahead switches at most 2 s early. Real edge processes in front of a real loopback origin.

mod common;

use common::*;
use edge::cache::date;
use serde_json::json;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

fn unix_ms(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).unwrap().as_millis() as u64
}

/// The shop's page at the old price: fresh at the edge for an hour, so only the staged
/// successor (not expiry) can change what the edge answers.
fn old_page(tags: &str) -> Reply {
    Reply::new(200, "old price")
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "public, max-age=60")
        .header("cdn-cache-control", "max-age=3600")
        .header("surrogate-key", tags)
}

/// A staged response for `url` with `body`, as the generator would send it.
fn staged(url: &str, body: &str, tags: &[&str]) -> serde_json::Value {
    json!({
        "url": url,
        "headers": [
            ["content-type", "text/html; charset=utf-8"],
            ["cache-control", "public, max-age=60"],
            ["cdn-cache-control", "max-age=3600"],
        ],
        "tags": tags,
        "body": body,
    })
}

async fn stage(edge: &Edge, body: serde_json::Value) -> (u16, serde_json::Value) {
    let resp = client()
        .post(edge.admin("/stage"))
        .bearer_auth(TOKEN)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap())
}

/// One GET: (sent, received, body, x-cache).
async fn timed_get(
    url: &str,
    headers: &[(&str, &str)],
) -> (SystemTime, SystemTime, String, String) {
    let sent = SystemTime::now();
    let (_, x_cache, body) = get_with(url, headers).await;
    (sent, SystemTime::now(), body, x_cache)
}

/// Poll `url` every 25 ms until `until`; returns every answer.
async fn poll(url: &str, until: SystemTime) -> Vec<(SystemTime, SystemTime, String, String)> {
    let mut answers = Vec::new();
    while SystemTime::now() < until {
        answers.push(timed_get(url, &[]).await);
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    answers
}

/// Check a poll against a switch expected at `switch` (the boundary by this edge's clock, in
/// system time): no new body received before it, every request sent 1 s after it new, and
/// never old again once new. The staging names its boundary in whole milliseconds
/// (`at_ms`), so the switch is compared at that precision.
fn assert_switched(answers: &[(SystemTime, SystemTime, String, String)], switch: SystemTime) {
    let switch = UNIX_EPOCH + Duration::from_millis(unix_ms(switch));
    let mut seen_new = false;
    for (sent, received, body, x_cache) in answers {
        if body == "new price" {
            seen_new = true;
            assert!(
                *received >= switch,
                "new price {} ms before the switch",
                unix_ms(switch) as i64 - unix_ms(*received) as i64
            );
            assert_eq!(x_cache, "HIT", "a switched answer comes from the cache");
        } else {
            assert_eq!(body, "old price");
            assert!(!seen_new, "old price again after the new one");
            assert!(
                *sent < switch + Duration::from_secs(1),
                "old price {} ms after the switch",
                unix_ms(*sent) - unix_ms(switch)
            );
        }
    }
    assert!(seen_new, "the new price was never served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_staged_successor_becomes_current_at_its_boundary_without_the_origin() {
    let origin = Origin::start(|_| old_page("product:1 home")).await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let url = edge.url("/p/sofa");
    assert_eq!(get(&url).await.2, "old price");
    assert_eq!(
        get_with(&url, &[("accept-encoding", "gzip")]).await.2,
        "old price"
    );
    // A coding with no staged successor: its stored answer goes at the boundary.
    let br = [("accept-encoding", "br")];
    assert_eq!(get_with(&url, &br).await.2, "old price");
    assert_eq!(get_with(&url, &br).await.1, "HIT");
    assert_eq!(get(&url).await.1, "HIT");

    let at = SystemTime::now() + Duration::from_millis(2500);
    // Compressed variants are separate staged responses (the edge keys by coding): the
    // gzip one's body is given in base64 and sent as it is.
    let gzip_body = [0x1f_u8, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, b'n', b'e', b'w'];
    let mut gzip = staged("/p/sofa?utm_source=mail", "", &["product:1"]);
    gzip["body"] = serde_json::Value::Null;
    gzip["body_base64"] = json!("H4sIAAAAAAAAA25ldw==");
    gzip["headers"]
        .as_array_mut()
        .unwrap()
        .push(json!(["content-encoding", "gzip"]));
    let (status, answer) = stage(
        &edge,
        json!({"at_ms": unix_ms(at), "responses": [staged("/p/sofa", "new price", &["product:1", "home"]), gzip]}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["staged"], 2);
    assert_eq!(edge.metric("edge_staged_pending").await, 2.0);
    let next = edge.metric("edge_staged_next_boundary_seconds").await;
    assert!((next - unix_ms(at) as f64 / 1000.0).abs() < 0.01, "{next}");
    let stats = edge.stats().await;
    assert_eq!(stats["staged"]["pending"], 2, "{}", stats["staged"]);

    let answers = poll(&url, at + Duration::from_millis(1500)).await;
    assert_switched(&answers, at);

    let hit = send(&url, &[]).await;
    assert_eq!(hit.headers()["x-cache"], "HIT");
    // Dated at its boundary, aged from it; its tags and freshness are the staged ones.
    assert_eq!(hit.headers()["date"], date::format(at).as_str());
    assert!(hit.headers().get("surrogate-key").is_none());
    let gz = send(&url, &[("accept-encoding", "gzip")]).await;
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    assert_eq!(gz.bytes().await.unwrap().as_ref(), gzip_body);

    assert_eq!(
        origin.count_path("/p/sofa"),
        3,
        "no origin request at the switch"
    );
    // The brotli answer stored before the boundary is gone (the origin answers it again).
    assert_eq!(get_with(&url, &br).await.1, "MISS");
    assert_eq!(origin.count_path("/p/sofa"), 4);
    assert_eq!(edge.metric("edge_staged_pending").await, 0.0);
    assert_eq!(edge.metric("edge_staged_applied_total").await, 2.0);
    assert_eq!(edge.metric("edge_staged_next_boundary_seconds").await, 0.0);
    assert!(edge.metric("edge_staged_installed_total").await >= 2.0);

    // The successor's tags are the stored object's: a purge by tag reaches it.
    edge.purge(json!({"tags": ["product:1"]})).await;
    assert_eq!(get(&url).await.2, "old price");
    assert_eq!(origin.count_path("/p/sofa"), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_purge_drops_staged_successors() {
    let origin = Origin::start(|req| {
        old_page(if req.path() == "/p/a" {
            "product:1"
        } else {
            "product:2"
        })
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    for path in ["/p/a", "/p/b", "/p/c"] {
        get(&edge.url(path)).await;
    }
    let at = SystemTime::now() + Duration::from_millis(1500);
    let (status, answer) = stage(
        &edge,
        json!({"at_ms": unix_ms(at), "responses": [
            staged("/p/a", "new price", &["product:1"]),
            staged("/p/b", "new price", &["product:2"]),
            staged("/p/c", "new price", &[]),
        ]}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    // Before the boundary: a purge of one URL, and one of a tag, drop those successors with
    // the stored answers; the third is untouched.
    edge.purge(json!({"urls": ["/p/a"]})).await;
    edge.purge(json!({"tags": ["product:2"], "soft": true}))
        .await;
    assert_eq!(edge.metric("edge_staged_pending").await, 1.0);
    let listed: serde_json::Value = client()
        .get(edge.admin("/staged"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        listed["successors"].as_array().unwrap().len(),
        1,
        "{listed}"
    );
    assert_eq!(listed["successors"][0]["url"], "/p/c");

    tokio::time::sleep(at.duration_since(SystemTime::now()).unwrap_or_default()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(get(&edge.url("/p/a")).await.2, "old price");
    assert_eq!(get(&edge.url("/p/b")).await.2, "old price");
    assert_eq!(get(&edge.url("/p/c")).await.2, "new price");
    assert_eq!(edge.metric("edge_staged_applied_total").await, 1.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_edge_restarted_across_a_boundary_applies_the_successor_on_start() {
    let dir = tempfile::tempdir().unwrap();
    let staged_dir = dir.path().to_str().unwrap().to_string();
    let origin = Origin::start(|_| old_page("home")).await;
    let port = free_port();
    let admin = free_port();
    let extra = ["--staged-dir", staged_dir.as_str()];
    let mut edge = Edge::start_with_ports(port, admin, &[origin.url()], &extra).await;
    assert_eq!(get(&edge.url("/")).await.2, "old price");
    let at = SystemTime::now() + Duration::from_millis(1000);
    let (status, answer) = stage(
        &edge,
        json!({"at_ms": unix_ms(at), "responses": [staged("/", "new price", &["home"])]}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    edge.stop();
    tokio::time::sleep(at.duration_since(SystemTime::now()).unwrap_or_default()).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    let edge = Edge::start_with_ports(port, admin, &[origin.url()], &extra).await;
    let (_, x_cache, body) = get(&edge.url("/")).await;
    assert_eq!((body.as_str(), x_cache.as_str()), ("new price", "HIT"));
    assert_eq!(
        origin.count_path("/"),
        1,
        "the restarted edge asked the origin"
    );
    assert_eq!(edge.metric("edge_staged_applied_total").await, 1.0);

    // Once purged it is gone from the directory too: the next start does not bring it back.
    edge.purge(json!({"urls": ["/"]})).await;
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// Two edges, peers of each other: a staging sent to one reaches the other, and both
/// switch at the boundary. The second's clock is 2 s ahead (the hidden
/// `--clock-offset-ms`): it switches up to 2 s early, never earlier.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn edges_switch_together_and_a_clock_2_s_ahead_switches_at_most_2_s_early() {
    let origin = Origin::start(|_| old_page("home")).await;
    let (a_port, a_admin, b_port, b_admin) = (free_port(), free_port(), free_port(), free_port());
    let a_peers = format!("http://127.0.0.1:{b_admin}");
    let b_peers = format!("http://127.0.0.1:{a_admin}");
    let a = Edge::start_with_ports(a_port, a_admin, &[origin.url()], &["--peers", &a_peers]).await;
    let b = Edge::start_with_ports(
        b_port,
        b_admin,
        &[origin.url()],
        &["--peers", &b_peers, "--clock-offset-ms", "2000"],
    )
    .await;
    for edge in [&a, &b] {
        assert_eq!(get(&edge.url("/p/x")).await.2, "old price");
    }
    let at = SystemTime::now() + Duration::from_millis(4000);
    let (status, answer) = stage(
        &a,
        json!({"at_ms": unix_ms(at), "responses": [staged("/p/x", "new price", &["home"])]}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["forwarded_to_peers"], 1);
    // The peer has it well before the boundary.
    let mut delivered = false;
    for _ in 0..40 {
        if b.metric("edge_staged_pending").await == 1.0 {
            delivered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(delivered, "the staging did not reach the peer");
    let (a_url, b_url) = (a.url("/p/x"), b.url("/p/x"));
    let until = at + Duration::from_millis(1500);
    let (a_answers, b_answers) = tokio::join!(poll(&a_url, until), poll(&b_url, until));
    assert_switched(&a_answers, at);
    assert_switched(&b_answers, at - Duration::from_secs(2));
    assert_eq!(
        origin.count_path("/p/x"),
        2,
        "no origin request at the switch"
    );
}

/// A peer's push of a staging can arrive after a purge the first edge applied after taking
/// it (both are retried, each on its own): the purge wins, whichever arrives first.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pushed_staging_older_than_a_purge_does_not_bring_back_what_it_dropped() {
    let origin = Origin::start(|_| old_page("home")).await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let now = unix_ms(SystemTime::now());
    // The first edge took the staging at `now - 2 s` and a purge of /p/a at `now - 1 s`;
    // this edge gets the purge first.
    let purged = client()
        .post(edge.admin("/purge"))
        .bearer_auth(TOKEN)
        .header("x-edge-peer", "1")
        .json(&json!({"urls": ["/p/a"], "id": "first-edge-1", "at_ms": now - 1000}))
        .send()
        .await
        .unwrap();
    assert_eq!(purged.status(), 200);
    let at = now + 60_000;
    let push = |staged_at: u64| {
        client()
            .post(edge.admin("/stage"))
            .bearer_auth(TOKEN)
            .header("x-edge-peer", "1")
            .header("x-edge-staged-at", staged_at.to_string())
            .json(&json!({"at_ms": at, "responses": [
                staged("/p/a", "new price", &[]),
                staged("/p/b", "new price", &[]),
            ]}))
            .send()
    };
    let answer: serde_json::Value = push(now - 2000).await.unwrap().json().await.unwrap();
    assert_eq!(answer["staged"], 1, "{answer}");
    assert_eq!(
        answer["forwarded_to_peers"], 0,
        "a peer's push goes no further"
    );
    // Staged after the purge: kept.
    let answer: serde_json::Value = push(now).await.unwrap().json().await.unwrap();
    assert_eq!(answer["staged"], 2, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn staging_is_authenticated_and_checked() {
    let origin = Origin::start(|_| old_page("home")).await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let at = unix_ms(SystemTime::now() + Duration::from_secs(60));
    let body = json!({"at_ms": at, "responses": [staged("/p/x", "new", &[])]});
    let no_token = client()
        .post(edge.admin("/stage"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(no_token.status(), 401);
    let wrong = client()
        .post(edge.admin("/stage"))
        .bearer_auth("nope")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 403);
    let refused = |resp: serde_json::Value| json!({"at_ms": at, "responses": [resp]});
    let mut private = staged("/p/x", "new", &[]);
    private["headers"] = json!([["cache-control", "private, no-store"]]);
    let mut elsewhere = staged("/p/x", "new", &[]);
    elsewhere["host"] = json!("evil.test");
    let mut varies = staged("/p/x", "new", &[]);
    varies["headers"]
        .as_array_mut()
        .unwrap()
        .push(json!(["vary", "cookie"]));
    let mut deflate = staged("/p/x", "new", &[]);
    deflate["headers"]
        .as_array_mut()
        .unwrap()
        .push(json!(["content-encoding", "deflate"]));
    for (case, body) in [
        ("not JSON", json!("x")),
        (
            "no boundary",
            json!({"responses": [staged("/p/x", "new", &[])]}),
        ),
        (
            "a year ahead",
            json!({"at_ms": at + 365 * 86_400_000, "responses": [staged("/p/x", "new", &[])]}),
        ),
        ("no responses", json!({"at_ms": at, "responses": []})),
        ("not a path", refused(staged("p/x", "new", &[]))),
        ("not storable", refused(private)),
        ("another host", refused(elsewhere)),
        ("varies on a cookie", refused(varies)),
        ("unknown coding", refused(deflate)),
    ] {
        let (status, answer) = stage(&edge, body).await;
        assert_eq!(status, 400, "{case}: {answer}");
        assert_eq!(answer["success"], false, "{case}");
    }
    assert_eq!(edge.metric("edge_staged_pending").await, 0.0);
}
