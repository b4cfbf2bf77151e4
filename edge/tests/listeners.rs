//! TLS with HTTP/2 beside the plain listener, and graceful shutdown.

mod common;

use common::*;
use std::process::Command;
use std::time::{Duration, Instant};

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
        || Command::new(tool).arg("version").output().is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tls_listener_speaks_http2_and_shares_the_cache() {
    if !have("openssl") || !have("curl") {
        eprintln!("skipped: needs openssl and curl");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("cert.pem");
    let key = dir.path().join("key.pem");
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
        ])
        .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );

    let origin = Origin::start(|_| Reply::page("secure page", "home")).await;
    let tls_port = free_port();
    let edge = Edge::start(
        &[origin.url()],
        &[
            "--tls-listen",
            &format!("127.0.0.1:{tls_port}"),
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
            // The host both requests name (issue 16: other hosts get 421).
            "--site-url",
            "https://shop.test",
        ],
    )
    .await;
    // Filled over plain HTTP, hit over TLS + HTTP/2.
    // (the key has the host, so both ask for the same one)
    let miss = send(&edge.url("/p/1"), &[("host", "shop.test")]).await;
    assert_eq!(miss.headers()["x-cache"], "MISS");
    // The origin sent no Date: the edge dated the answer when it arrived, and stored it so.
    let dated = miss.headers()["date"].to_str().unwrap().to_lowercase();
    // A second later, the HTTP/2 hit still carries that Date (RFC 9110 §6.6.1; Pingora's
    // HTTP/2 writer is patched to add one only when absent, vendor/pingora-core/PATCH.md).
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let out = Command::new("curl")
        .args([
            "-sk",
            "--http2",
            "-o",
            "/dev/null",
            "-D",
            "-",
            "-H",
            "host: shop.test",
        ])
        .args(["-w", "%{http_version}"])
        .arg(format!("https://127.0.0.1:{tls_port}/p/1"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_lowercase();
    assert!(text.starts_with("http/2 200"), "{text}");
    assert!(text.contains("x-cache: hit"), "{text}");
    assert!(
        text.contains(&format!("date: {dated}\r\n")),
        "{dated} / {text}"
    );
    assert!(text.ends_with('2'), "{text}");
    // HSTS on the TLS listener only (RFC 6797 §7.2).
    assert!(
        text.contains("strict-transport-security: max-age=31536000"),
        "{text}"
    );
    let plain = Command::new("curl")
        .args(["-s", "-o", "/dev/null", "-D", "-", "-H", "host: shop.test"])
        .arg(edge.url("/p/1"))
        .output()
        .unwrap();
    let plain = String::from_utf8_lossy(&plain.stdout).to_lowercase();
    assert!(plain.starts_with("http/1.1 200"), "{plain}");
    assert!(!plain.contains("strict-transport-security"), "{plain}");
    assert_eq!(origin.count(), 1);
    let proto = origin.seen()[0]
        .header("x-forwarded-proto")
        .map(str::to_string);
    assert_eq!(proto.as_deref(), Some("http"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigterm_lets_requests_in_flight_finish() {
    let origin = Origin::start(|_| {
        Reply::new(200, "slow")
            .header("cache-control", "no-store")
            .delay(Duration::from_millis(800))
    })
    .await;
    let mut edge = Edge::start(&[origin.url()], &["--grace-period", "3"]).await;
    let url = edge.url("/slow");
    let in_flight = tokio::spawn(async move { get(&url).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &edge.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, _, body) = in_flight.await.unwrap();
    assert_eq!((status, body.as_str()), (200, "slow"));
    assert!(edge.wait_exit(Duration::from_secs(10)), "edge did not exit");
    assert!(started.elapsed() < Duration::from_secs(10));
}
