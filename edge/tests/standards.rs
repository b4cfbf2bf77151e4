//! The edge as a general-purpose shared cache by RFC 9111 (HTTP caching) and RFC 9110
//! (semantics), in front of a real origin that is not the shop's (issue 16): `Age` and
//! `Date` from upstream, `Expires`, hop-by-hop fields, and the hosts the edge serves.

mod common;

use common::*;
use edge::cache::date;
use std::time::{Duration, SystemTime};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn age_of(resp: &reqwest::Response) -> u64 {
    resp.headers()["age"].to_str().unwrap().parse().unwrap()
}

/// RFC 9111 §4.2.3: the age a response already has when it arrives (its `Age`, or how long
/// ago its `Date` was) counts toward its freshness and shows in the `Age` clients see.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn upstream_age_counts_toward_freshness_and_the_age_clients_see() {
    let origin = Origin::start(|r| {
        let reply = Reply::new(200, r.path().to_string());
        match r.path() {
            "/older-than-its-max-age" => reply
                .header("cache-control", "max-age=3600")
                .header("age", "7200"),
            "/aged" => reply
                .header("cache-control", "max-age=3600")
                .header("age", "100"),
            "/dated" => reply.header("cache-control", "max-age=3600").header(
                "date",
                &date::format(SystemTime::now() - Duration::from_secs(600)),
            ),
            _ => reply.header("cache-control", "max-age=60").header(
                "date",
                &date::format(SystemTime::now() - Duration::from_secs(120)),
            ),
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;

    // Two hours old with an hour of freshness: stale on arrival, never a hit.
    let first = send(&edge.url("/older-than-its-max-age"), &[]).await;
    assert_eq!(first.headers()["x-cache"], "MISS");
    assert!(age_of(&first) >= 7200, "{}", age_of(&first));
    let second = send(&edge.url("/older-than-its-max-age"), &[]).await;
    assert_ne!(second.headers()["x-cache"], "HIT");
    assert_eq!(origin.count_path("/older-than-its-max-age"), 2);

    // A Date two minutes ago with a minute of freshness: stale as well.
    get(&edge.url("/dated-stale")).await;
    assert_ne!(get(&edge.url("/dated-stale")).await.1, "HIT");
    assert_eq!(origin.count_path("/dated-stale"), 2);

    // Fresh ones are hits whose Age goes on from the age they arrived with.
    for (path, arrived_with) in [("/aged", 100), ("/dated", 600)] {
        let miss = send(&edge.url(path), &[]).await;
        assert_eq!(miss.headers()["x-cache"], "MISS");
        assert!(age_of(&miss) >= arrived_with, "{path}: {}", age_of(&miss));
        tokio::time::sleep(Duration::from_millis(1100)).await;
        // The fast path (plain GET) and Pingora's hit path (HEAD) agree.
        let hit = send(&edge.url(path), &[]).await;
        let head = client().head(edge.url(path)).send().await.unwrap();
        for resp in [&hit, &head] {
            assert_eq!(resp.headers()["x-cache"], "HIT", "{path}");
            let age = age_of(resp);
            assert!(
                (arrived_with + 1..arrived_with + 10).contains(&age),
                "{path}: age {age}"
            );
        }
        let status = hit.headers()["cache-status"].to_str().unwrap().to_string();
        let ttl = status
            .split("ttl=")
            .nth(1)
            .unwrap()
            .split(';')
            .next()
            .unwrap();
        let ttl: i64 = ttl.parse().unwrap();
        assert!(ttl <= 3600 - arrived_with as i64, "{path}: {status}");
        assert_eq!(origin.count_path(path), 1);
    }
}

/// After a `304`, the age starts again from the `304`'s own `Date` and `Age`, not from
/// the stored response's `Date` (which would make it stale again at once).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_revalidated_response_ages_from_the_304() {
    let origin = Origin::start(|r| {
        let now = date::format(SystemTime::now());
        let reply = if r.header("if-none-match") == Some("\"v1\"") {
            Reply::new(304, "")
        } else {
            Reply::new(200, "v1")
        };
        reply
            .header("cache-control", "max-age=2")
            .header("etag", "\"v1\"")
            .header("date", &now)
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    assert_eq!(get(&edge.url("/r")).await.1, "MISS");
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let revalidated = send(&edge.url("/r"), &[]).await;
    assert_eq!(revalidated.headers()["x-cache"], "REVALIDATED");
    assert!(age_of(&revalidated) <= 1, "{}", age_of(&revalidated));
    assert_eq!(revalidated.text().await.unwrap(), "v1");
    let hit = send(&edge.url("/r"), &[]).await;
    assert_eq!(hit.headers()["x-cache"], "HIT");
    assert!(age_of(&hit) <= 1, "{}", age_of(&hit));
    assert_eq!(origin.count(), 2);
}

/// RFC 9111 §5.3: without `max-age`/`s-maxage`, `Expires` gives the freshness; an invalid
/// one (`0`) means already stale.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn expires_gives_freshness_without_max_age() {
    let origin = Origin::start(|r| {
        let now = SystemTime::now();
        let reply = Reply::new(200, r.path().to_string());
        match r.path() {
            "/expires-in-an-hour" => reply
                .header("date", &date::format(now))
                .header("expires", &date::format(now + Duration::from_secs(3600))),
            "/public-expires" => reply
                .header("cache-control", "public")
                .header("expires", &date::format(now + Duration::from_secs(3600))),
            "/expired" => reply
                .header("date", &date::format(now))
                .header("expires", &date::format(now - Duration::from_secs(60))),
            _ => reply.header("expires", "0"),
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    for path in ["/expires-in-an-hour", "/public-expires"] {
        assert_eq!(get(&edge.url(path)).await.1, "MISS", "{path}");
        let hit = send(&edge.url(path), &[]).await;
        assert_eq!(hit.headers()["x-cache"], "HIT", "{path}");
        let status = hit.headers()["cache-status"].to_str().unwrap().to_string();
        let ttl = status
            .split("ttl=")
            .nth(1)
            .unwrap()
            .split(';')
            .next()
            .unwrap();
        let ttl: i64 = ttl.parse().unwrap();
        assert!((3590..=3600).contains(&ttl), "{path}: {status}");
        assert_eq!(origin.count_path(path), 1, "{path}");
    }
    for path in ["/expired", "/invalid-expires"] {
        get(&edge.url(path)).await;
        assert_ne!(get(&edge.url(path)).await.1, "HIT", "{path}");
        assert_eq!(origin.count_path(path), 2, "{path}");
    }
}

/// RFC 9110 §6.6.1: a stored response keeps its `Date`; a hit is not re-stamped. A miss
/// forwards the origin's `Date`; an origin answer without one is dated when it arrives, and
/// its hits keep that date; the edge's own answers are dated now.
///
/// Pingora 0.9.1 (and its main branch, May 2026) overwrites `Date` with the current time in
/// every response header it writes, with no hook or setting to keep it; the workspace
/// carries a patch of `pingora-core` that adds `Date` only when absent
/// (`vendor/pingora-core/PATCH.md`).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hit_keeps_the_stored_date() {
    let dated = date::format(SystemTime::now() - Duration::from_secs(600));
    let origin = {
        let dated = dated.clone();
        Origin::start(move |req| {
            let reply = Reply::new(200, "x").header("cache-control", "max-age=3600");
            match req.path() {
                "/undated" => reply,
                _ => reply.header("date", &dated),
            }
        })
        .await
    };
    let edge = Edge::start(&[origin.url()], &[]).await;
    let miss = send(&edge.url("/d"), &[]).await;
    assert_eq!(miss.headers()["x-cache"], "MISS");
    assert_eq!(miss.headers()["date"], dated.as_str());
    let hit = send(&edge.url("/d"), &[]).await;
    assert_eq!(hit.headers()["x-cache"], "HIT");
    assert_eq!(hit.headers()["date"], dated.as_str());
    assert!(age_of(&hit) >= 600);

    let date_of = |resp: &reqwest::Response| {
        let value = resp.headers()["date"].to_str().unwrap().to_string();
        date::parse(value.as_bytes()).unwrap_or_else(|| panic!("not an HTTP date: {value}"))
    };
    let before = SystemTime::now() - Duration::from_secs(1);
    let miss = send(&edge.url("/undated"), &[]).await;
    assert_eq!(miss.headers()["x-cache"], "MISS");
    let stamped = date_of(&miss);
    assert!(stamped >= before && stamped <= SystemTime::now() + Duration::from_secs(1));
    // A later hit keeps the date of arrival, not the time of the hit.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let hit = send(&edge.url("/undated"), &[]).await;
    assert_eq!(hit.headers()["x-cache"], "HIT");
    assert_eq!(date_of(&hit), stamped);
    assert!(age_of(&hit) >= 2);

    // The edge's own answers (here a 421 for a host it does not serve) are dated now.
    let own = send(&edge.url("/d"), &[("host", "elsewhere.example")]).await;
    assert_eq!(own.status(), 421);
    assert!(date_of(&own) >= before);
}

/// RFC 9110 §7.6.1: hop-by-hop fields, and those the origin's `Connection` names, are
/// neither stored nor forwarded to clients.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn hop_by_hop_fields_are_neither_stored_nor_forwarded() {
    let origin = Origin::start(|_| {
        Reply::page("x", "home")
            .header("connection", "keep-alive, X-Hop")
            .header("x-hop", "1")
            .header("keep-alive", "timeout=5")
            .header("proxy-connection", "keep-alive")
            .header("te", "trailers")
            .header("upgrade", "h2c")
            .header("proxy-authenticate", "Basic realm=\"x\"")
            .header("proxy-authorization", "Basic eDp5")
            .header("trailer", "x-checksum")
            .header("x-end", "kept")
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let miss = send(&edge.url("/h"), &[]).await;
    let hit = send(&edge.url("/h"), &[]).await;
    let head = client().head(edge.url("/h")).send().await.unwrap();
    for (resp, outcome) in [(&miss, "MISS"), (&hit, "HIT"), (&head, "HIT")] {
        assert_eq!(resp.headers()["x-cache"], outcome);
        for name in [
            "x-hop",
            "keep-alive",
            "proxy-connection",
            "te",
            "upgrade",
            "proxy-authenticate",
            "proxy-authorization",
            "trailer",
        ] {
            assert!(
                resp.headers().get(name).is_none(),
                "{outcome}: {name} reached the client"
            );
        }
        if let Some(connection) = resp.headers().get("connection") {
            assert_eq!(connection, "keep-alive", "{outcome}");
        }
        assert_eq!(resp.headers()["x-end"], "kept", "{outcome}");
    }
    assert_eq!(origin.count(), 1);
}

/// Issue 16, item 11: only the shop's own hosts are served; another `Host` gets 421 without
/// reaching the origin or the cache. `--hosts '*'` serves any host.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn only_the_shops_hosts_are_served() {
    let origin = Origin::start(|r| Reply::page(r.path().to_string(), "home")).await;
    let edge = Edge::start(&[origin.url()], &["--site-url", "https://Shop.Test"]).await;
    let port = edge.port;
    let shop = format!("shop.test:{port}");
    let local = format!("localhost:{port}");
    // The site's host and loopback (as the tests, scripts and load tests reach it); each
    // host has its own entries.
    assert_eq!(
        send(&edge.url("/p/1"), &[("host", &shop)]).await.status(),
        200
    );
    let hit = send(&edge.url("/p/1"), &[("host", &shop)]).await;
    assert_eq!(hit.headers()["x-cache"], "HIT");
    assert_eq!(
        send(&edge.url("/p/1"), &[("host", &local)]).await.status(),
        200
    );
    assert_eq!(get(&edge.url("/p/1")).await.0, 200);
    assert_eq!(origin.count(), 3);

    // Anything else: 421, neither a hit of a stored page nor a fill of a new one.
    for path in ["/p/1", "/p/2", "/api/home"] {
        let resp = send(&edge.url(path), &[("host", "evil.test")]).await;
        assert_eq!(resp.status(), 421, "{path}");
        assert_eq!(resp.headers()["cache-control"], "no-store");
    }
    let api = send(&edge.url("/api/home"), &[("host", "evil.test")]).await;
    assert!(api.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    assert_eq!(origin.count(), 3);
    assert_eq!(edge.stats().await["cache"]["items"], 3);

    // An explicit list replaces the default; `*` serves every host.
    let listed = Edge::start(&[origin.url()], &["--hosts", "m.shop.test,shop.test"]).await;
    let url = listed.url("/p/3");
    assert_eq!(send(&url, &[("host", "m.shop.test")]).await.status(), 200);
    assert_eq!(send(&url, &[("host", "localhost")]).await.status(), 421);
    let any = Edge::start(&[origin.url()], &["--hosts", "*"]).await;
    let resp = send(&any.url("/p/4"), &[("host", "evil.test")]).await;
    assert_eq!(resp.status(), 200);
}

/// A tester's finding: `Host: 127.0.0.1:evil` was served, and every such value was a cache
/// entry of its own, so anyone could fill the cache. What follows a colon must be a port
/// (digits, 1 to 65535; else 400, RFC 9112 §3.2), and the cache is keyed on the normal host
/// (lower-cased, no trailing dot, no default port), the one the hosts served are decided by.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn regression_a_host_with_junk_after_the_colon_is_refused_and_spellings_share_entries() {
    let origin = Origin::start(|r| {
        let body = format!("{} for {}", r.path(), r.header("host").unwrap_or(""));
        Reply::page(body, "home")
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let port = edge.port;
    for junk in [
        "127.0.0.1:evil",
        "127.0.0.1:8080x",
        "localhost:0",
        "localhost:65536",
        "localhost:80:80",
        "localhost: 80",
        "user@localhost",
        "local host",
        ":8080",
    ] {
        let resp = send(&edge.url("/p/1"), &[("host", junk)]).await;
        assert_eq!(resp.status(), 400, "{junk}");
        // (Pingora itself refuses userinfo, `private, no-store`.)
        let cache_control = resp.headers()["cache-control"].to_str().unwrap();
        assert!(cache_control.ends_with("no-store"), "{junk}");
    }
    assert_eq!(origin.count(), 0);
    assert_eq!(edge.stats().await["cache"]["items"], 0);

    // Spellings of one host are one cache entry, filled with the normal host.
    let local = format!("localhost:{port}");
    let first = send(&edge.url("/p/1"), &[("host", &local)]).await;
    assert_eq!(first.headers()["x-cache"], "MISS");
    let expected = format!("/p/1 for {local}");
    assert_eq!(first.text().await.unwrap(), expected);
    for same in [
        format!("LOCALHOST:{port}"),
        format!("localhost.:{port}"),
        format!("LocalHost:0{port}"),
    ] {
        let resp = send(&edge.url("/p/1"), &[("host", &same)]).await;
        assert_eq!(resp.headers()["x-cache"], "HIT", "{same}");
        assert_eq!(resp.text().await.unwrap(), expected, "{same}");
    }
    // A default port is no port: `localhost`, `LOCALHOST:80` and `localhost:443` are one.
    for (host, outcome) in [
        ("LOCALHOST:80", "MISS"),
        ("localhost", "HIT"),
        ("localhost:443", "HIT"),
    ] {
        let resp = send(&edge.url("/p/1"), &[("host", host)]).await;
        assert_eq!(resp.headers()["x-cache"], outcome, "{host}");
        assert_eq!(resp.text().await.unwrap(), "/p/1 for localhost", "{host}");
    }
    assert_eq!(origin.count(), 2);
    assert_eq!(edge.stats().await["cache"]["items"], 2);

    // An HTTP/1.1 request without `Host` is a bad request too (RFC 9112 §3.2); an HTTP/1.0
    // one names no host this edge serves.
    for (request, status) in [
        ("GET /p/1 HTTP/1.1\r\n\r\n", "400"),
        ("GET /p/1 HTTP/1.0\r\n\r\n", "421"),
    ] {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = vec![0u8; 1024];
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut answer))
            .await
            .expect("an answer")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer[..n]);
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "{request:?}: {answer}"
        );
    }
    assert_eq!(origin.count(), 2);
}

/// RFC 9111 §3.2, §4.3.4: every header field of a `304` replaces the stored one (Pingora's
/// merge copies only a few), and clients see the updated fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_304_updates_every_stored_header_field() {
    let origin = Origin::start(|r| {
        if r.header("if-none-match") == Some("\"v1\"") {
            Reply::new(304, "")
                .header("cache-control", "max-age=600")
                .header("etag", "\"v1\"")
                .header("x-version", "2")
                .header("x-added", "by the 304")
                .header("surrogate-key", "product:2")
        } else {
            Reply::new(200, "body")
                .header("cache-control", "max-age=1")
                .header("etag", "\"v1\"")
                .header("x-version", "1")
                .header("surrogate-key", "product:1")
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    assert_eq!(get(&edge.url("/u")).await.1, "MISS");
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let revalidated = send(&edge.url("/u"), &[]).await;
    let hit = send(&edge.url("/u"), &[]).await;
    for (resp, outcome) in [(revalidated, "REVALIDATED"), (hit, "HIT")] {
        assert_eq!(resp.headers()["x-cache"], outcome);
        assert_eq!(resp.headers()["x-version"], "2", "{outcome}");
        assert_eq!(resp.headers()["x-added"], "by the 304", "{outcome}");
        assert_eq!(resp.headers()["content-length"], "4", "{outcome}");
        assert_eq!(resp.text().await.unwrap(), "body");
    }
    assert_eq!(origin.count(), 2);
    // The tags are the 304's as well: a purge of the new one reaches the object.
    let purged = edge.purge(serde_json::json!({"tags": ["product:2"]})).await;
    assert_eq!(purged["matched"], 1, "{purged}");
}

/// RFC 9111 §4.4: a successful (2xx, 3xx) answer to an unsafe method invalidates what is
/// stored for its URL, in every coding and variant, and for a same-origin `Location` or
/// `Content-Location`; a failed one (4xx, 5xx) invalidates nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unsafe_methods_invalidate_their_url_and_locations() {
    let origin = Origin::start(|r| {
        if r.method == "GET" || r.method == "HEAD" {
            let reply =
                Reply::new(200, r.path().to_string()).header("cache-control", "max-age=3600");
            return if r.path() == "/varied" {
                reply.header("vary", "Accept-Language")
            } else {
                reply
            };
        }
        if r.header("x-fail").is_some() {
            return Reply::new(403, "no");
        }
        let reply = Reply::new(if r.path() == "/redirecting" { 303 } else { 200 }, "done");
        match r.path() {
            "/redirecting" => reply.header("location", "/target"),
            "/located" => reply
                .header("location", "elsewhere")
                .header("content-location", "/content"),
            "/foreign" => reply.header("location", "http://evil.test/kept"),
            _ => reply,
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let c = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let request = |method: &str, path: &str, headers: &[(&str, &str)]| {
        let mut req = c.request(method.parse().unwrap(), edge.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        req.send()
    };
    let store = |path| store_in_both_codings(&edge, path);
    let hits = |path| outcomes_in_both_codings(&edge, path);

    // A failed POST leaves the stored responses alone; a successful one removes them all.
    store("/item").await;
    let failed = request("POST", "/item", &[("x-fail", "1")]).await.unwrap();
    assert_eq!(failed.status(), 403);
    assert_eq!(hits("/item").await, ["HIT", "HIT"]);
    for method in ["POST", "PUT", "DELETE", "PATCH", "FROBNICATE"] {
        let done = request(method, "/item", &[]).await.unwrap();
        assert_eq!(done.status(), 200, "{method}");
        assert_eq!(hits("/item").await, ["MISS", "MISS"], "{method}");
        assert_eq!(hits("/item").await, ["HIT", "HIT"], "{method}");
    }
    // Safe methods invalidate nothing.
    request("OPTIONS", "/item", &[]).await.unwrap();
    assert_eq!(hits("/item").await, ["HIT", "HIT"]);

    // Every variant of a Vary family.
    for lang in ["en", "de"] {
        send(&edge.url("/varied"), &[("accept-language", lang)]).await;
        let hit = send(&edge.url("/varied"), &[("accept-language", lang)]).await;
        assert_eq!(hit.headers()["x-cache"], "HIT", "{lang}");
    }
    request("DELETE", "/varied", &[]).await.unwrap();
    for lang in ["en", "de"] {
        let again = send(&edge.url("/varied"), &[("accept-language", lang)]).await;
        assert_eq!(again.headers()["x-cache"], "MISS", "{lang}");
    }

    // Same-origin Location and Content-Location (a 3xx counts as success); another
    // origin's Location does not touch this one's URL of the same path.
    for path in ["/target", "/elsewhere", "/content", "/kept"] {
        store(path).await;
    }
    assert_eq!(
        request("POST", "/redirecting", &[]).await.unwrap().status(),
        303
    );
    assert_eq!(hits("/target").await, ["MISS", "MISS"]);
    request("PUT", "/located", &[]).await.unwrap();
    assert_eq!(hits("/elsewhere").await, ["MISS", "MISS"]);
    assert_eq!(hits("/content").await, ["MISS", "MISS"]);
    request("POST", "/foreign", &[]).await.unwrap();
    assert_eq!(hits("/kept").await, ["HIT", "HIT"]);
}

const CODINGS: [&[(&str, &str)]; 2] = [
    &[("accept-encoding", "gzip")],
    &[("accept-encoding", "identity")],
];

/// Store `path` in two codings (two cache keys) and check both are hits.
async fn store_in_both_codings(edge: &Edge, path: &str) {
    for headers in CODINGS {
        send(&edge.url(path), headers).await;
        let hit = send(&edge.url(path), headers).await;
        assert_eq!(hit.headers()["x-cache"], "HIT", "{path} {headers:?}");
    }
}

/// The `X-Cache` of a GET of `path` in each of two codings.
async fn outcomes_in_both_codings(edge: &Edge, path: &str) -> Vec<String> {
    let mut outcomes = Vec::new();
    for headers in CODINGS {
        let resp = send(&edge.url(path), headers).await;
        outcomes.push(resp.headers()["x-cache"].to_str().unwrap().to_string());
    }
    outcomes
}

/// RFC 9213 §2.1: `CDN-Cache-Control`, where present, governs this cache alone, even over a
/// browser `Cache-Control: private` or `no-store` (which still reaches the browser); a
/// response setting a cookie is never stored, whatever it says.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cdn_cache_control_wins_where_present() {
    let origin = Origin::start(|r| {
        let reply = Reply::new(200, r.path().to_string());
        match r.path() {
            "/browser-private" => reply
                .header("cache-control", "private")
                .header("cdn-cache-control", "max-age=600"),
            "/browser-no-store" => reply
                .header("cache-control", "private, no-store")
                .header("cdn-cache-control", "max-age=600"),
            "/edge-no-store" => reply
                .header("cache-control", "public, max-age=600")
                .header("cdn-cache-control", "no-store"),
            "/edge-shorter" => reply
                .header("cache-control", "public, max-age=600")
                .header("cdn-cache-control", "max-age=0"),
            _ => reply
                .header("cache-control", "private, no-store")
                .header("cdn-cache-control", "max-age=600")
                .header("set-cookie", "session=1"),
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    for path in ["/browser-private", "/browser-no-store"] {
        assert_eq!(get(&edge.url(path)).await.1, "MISS", "{path}");
        let hit = send(&edge.url(path), &[]).await;
        assert_eq!(hit.headers()["x-cache"], "HIT", "{path}");
        // Browsers still get their own instructions; the edge's are not forwarded.
        assert!(hit.headers()["cache-control"]
            .to_str()
            .unwrap()
            .starts_with("private"));
        assert!(hit.headers().get("cdn-cache-control").is_none());
        assert_eq!(origin.count_path(path), 1, "{path}");
    }
    for path in ["/edge-no-store", "/edge-shorter", "/sets-a-cookie"] {
        get(&edge.url(path)).await;
        assert_ne!(get(&edge.url(path)).await.1, "HIT", "{path}");
        assert_eq!(origin.count_path(path), 2, "{path}");
    }
}

/// RFC 9111 §3, §5.2.2.4, §4.2.2: any final status with explicit freshness is stored (206
/// and server errors but 501 excepted, tests/cache.rs); a `no-cache` response is stored and revalidated on every use; a response with
/// `Last-Modified` and no explicit freshness gets a heuristic lifetime (10% of its age at
/// `Date`, at most a day) when its status is heuristically cacheable, except on `/api`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn statuses_no_cache_and_heuristic_freshness() {
    let origin = Origin::start(|r| {
        let now = SystemTime::now();
        let modified = |ago: u64| date::format(now - Duration::from_secs(ago));
        let path = r.path();
        if let Some(status) = path.strip_prefix("/status/") {
            let status: u16 = status.parse().unwrap();
            let body = if status == 204 { "" } else { path };
            return Reply::new(status, body)
                .header("cache-control", "max-age=600")
                .header("location", "/");
        }
        let reply = Reply::new(200, path.to_string()).header("date", &date::format(now));
        match path {
            "/no-cache" => {
                if r.header("if-none-match") == Some("\"v1\"") {
                    Reply::new(304, "")
                        .header("cache-control", "no-cache, max-age=600")
                        .header("etag", "\"v1\"")
                } else {
                    reply
                        .header("cache-control", "no-cache, max-age=600")
                        .header("etag", "\"v1\"")
                }
            }
            "/modified-long-ago" | "/api/modified-long-ago" => {
                reply.header("last-modified", &modified(30 * 86_400))
            }
            "/modified-recently" => reply.header("last-modified", &modified(1000)),
            "/not-modified-info" => reply,
            _ => Reply::new(302, path.to_string())
                .header("location", "/")
                .header("date", &date::format(now))
                .header("last-modified", &modified(30 * 86_400)),
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let c = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let fetch = |path: String| {
        let req = c.get(edge.url(&path));
        async move { req.send().await.unwrap() }
    };
    let ttl_of = |resp: &reqwest::Response| -> i64 {
        let status = resp.headers()["cache-status"].to_str().unwrap();
        status
            .split("ttl=")
            .nth(1)
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };

    for status in [203, 204, 301, 302, 307, 403, 404, 405, 410, 451, 501] {
        let path = format!("/status/{status}");
        let miss = fetch(path.clone()).await;
        assert_eq!(miss.status().as_u16(), status);
        let hit = fetch(path.clone()).await;
        assert_eq!(hit.status().as_u16(), status);
        assert_eq!(hit.headers()["x-cache"], "HIT", "{status}");
        assert_eq!(origin.count_path(&path), 1, "{status}");
    }

    // no-cache: stored, and every use goes to the origin with the stored validator.
    assert_eq!(fetch("/no-cache".into()).await.headers()["x-cache"], "MISS");
    for _ in 0..2 {
        let again = fetch("/no-cache".into()).await;
        assert_eq!(again.headers()["x-cache"], "REVALIDATED");
        assert_eq!(again.text().await.unwrap(), "/no-cache");
    }
    let seen = origin.seen();
    let revalidations = seen
        .iter()
        .filter(|r| r.path() == "/no-cache" && r.header("if-none-match") == Some("\"v1\""))
        .count();
    assert_eq!(revalidations, 2);

    // Heuristic freshness: a tenth of the time since Last-Modified, at most a day.
    for (path, expected) in [("/modified-long-ago", 86_400), ("/modified-recently", 100)] {
        assert_eq!(fetch(path.into()).await.headers()["x-cache"], "MISS");
        let hit = fetch(path.into()).await;
        assert_eq!(hit.headers()["x-cache"], "HIT", "{path}");
        let ttl = ttl_of(&hit);
        assert!((expected - 5..=expected).contains(&ttl), "{path}: {ttl}");
    }
    // None without Last-Modified, on /api, or for a status that is not heuristically
    // cacheable.
    for path in ["/not-modified-info", "/api/modified-long-ago", "/redirect"] {
        fetch(path.into()).await;
        assert_ne!(
            fetch(path.into()).await.headers()["x-cache"],
            "HIT",
            "{path}"
        );
        assert_eq!(origin.count_path(path), 2, "{path}");
    }
}

/// RFC 9111 §4.1: a response varying on any request header is stored, and a request is
/// answered by the variant whose nominated header values match (normalised: field lines
/// combined, whitespace around list members, case for case-insensitive fields); `Vary: *`
/// never matches; at most 16 more variants of one URL are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn vary_on_any_request_header() {
    let origin = Origin::start(|r| {
        let theme = r.header("x-theme").unwrap_or("none").to_string();
        let reply =
            Reply::new(200, format!("{} {theme}", r.path())).header("cache-control", "max-age=600");
        match r.path() {
            "/star" => reply.header("vary", "*"),
            "/language" => reply.header("vary", "Accept-Language"),
            _ => reply.header("vary", "X-Theme"),
        }
    })
    .await;
    let edge = Edge::start(&[origin.url()], &[]).await;
    let themed = |path: &str, theme: Option<&str>| {
        let theme = theme.map(str::to_string);
        let url = edge.url(path);
        async move {
            let headers: Vec<(&str, &str)> = theme
                .as_deref()
                .map(|t| ("x-theme", t))
                .into_iter()
                .collect();
            let resp = send(&url, &headers).await;
            let x_cache = resp.headers()["x-cache"].to_str().unwrap().to_string();
            (x_cache, resp.text().await.unwrap())
        }
    };
    assert_eq!(
        themed("/t", Some("dark")).await,
        ("MISS".into(), "/t dark".into())
    );
    assert_eq!(
        themed("/t", Some("light")).await,
        ("MISS".into(), "/t light".into())
    );
    assert_eq!(themed("/t", None).await, ("MISS".into(), "/t none".into()));
    assert_eq!(
        themed("/t", Some("dark")).await,
        ("HIT".into(), "/t dark".into())
    );
    assert_eq!(
        themed("/t", Some("light")).await,
        ("HIT".into(), "/t light".into())
    );
    assert_eq!(themed("/t", None).await, ("HIT".into(), "/t none".into()));
    // Whitespace and field lines do not make a new variant; case does for this field.
    assert_eq!(themed("/t", Some("a,b")).await.0, "MISS");
    assert_eq!(themed("/t", Some(" a ,  b")).await.0, "HIT");
    assert_eq!(themed("/t", Some("Dark")).await.0, "MISS");
    let lang = |value: &'static str| {
        let url = edge.url("/language");
        async move { send(&url, &[("accept-language", value)]).await.headers()["x-cache"].clone() }
    };
    assert_eq!(lang("en, de").await, "MISS");
    assert_eq!(lang("EN,de").await, "HIT");
    assert_eq!(origin.count_path("/t"), 5);

    // Vary: * is never a hit.
    themed("/star", None).await;
    assert_ne!(themed("/star", None).await.0, "HIT");
    assert_eq!(origin.count_path("/star"), 2);

    // The first variant and 16 more are stored; beyond them, none.
    for round in 0..2 {
        for i in 0..20 {
            let (x_cache, body) = themed("/flood", Some(&format!("v{i}"))).await;
            assert_eq!(body, format!("/flood v{i}"));
            if round == 1 {
                assert_eq!(x_cache == "HIT", i < 17, "v{i}: {x_cache}");
            }
        }
    }
    // The stored ones stay hits.
    for i in [0, 16] {
        let (x_cache, _) = themed("/flood", Some(&format!("v{i}"))).await;
        assert_eq!(x_cache, "HIT", "v{i}");
    }
    assert_eq!(origin.count_path("/flood"), 20 + 3);
}
