//! Slow-header clients (slowloris) and the per-client connection cap, against a real edge:
//! a security tester's 3,000 connections trickling their request heads from one address
//! took the edge from 213 to 529 MB and 3,000 descriptors, all held until the client let
//! go. A head must now be whole within `--header-timeout-ms`, and one client holds at most
//! `--max-connections-per-client` connections; a normal client keeps getting answers.
//!
//! The settings are given as `EDGE_*` variables, so that an edge without them (the one
//! before the fix ignores the variables) fails on what it does, not on a flag it lacks.
//! Loopback is capped only with `EDGE_LIMIT_LOOPBACK`; each 127.x.y.z is its own client, so
//! the "normal" client connects from 127.0.0.2.

mod common;

use common::*;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

const OTHER_CLIENT: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

async fn edge_with(origin: &Origin, env: &[(&str, &str)]) -> Edge {
    let mut env = env.to_vec();
    env.push(("EDGE_LIMIT_LOOPBACK", "true"));
    Edge::start_with_env(free_port(), free_port(), &[origin.url()], &[], &env).await
}

/// A connection from `from` (127.0.0.1 when `None`).
async fn connect(edge: &Edge, from: Option<IpAddr>) -> TcpStream {
    let to = SocketAddr::from(([127, 0, 0, 1], edge.port));
    match from {
        None => TcpStream::connect(to).await.unwrap(),
        Some(ip) => {
            let socket = TcpSocket::new_v4().unwrap();
            socket.bind(SocketAddr::new(ip, 0)).unwrap();
            socket.connect(to).await.unwrap()
        }
    }
}

/// A client's request from 127.0.0.2, as a shopper's would be.
async fn normal_get(edge: &Edge, path: &str) -> u16 {
    let client = reqwest::Client::builder()
        .local_address(OTHER_CLIENT)
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    client
        .get(edge.url(path))
        .send()
        .await
        .map_or(0, |r| r.status().as_u16())
}

/// Read until the edge closes the connection (or `within` passes); what it sent, and when
/// it closed (`None`: still open).
async fn read_until_closed(stream: &mut TcpStream, within: Duration) -> (String, Option<Instant>) {
    let mut got = Vec::new();
    let deadline = Instant::now() + within;
    let mut buf = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return (String::from_utf8_lossy(&got).into_owned(), None),
            Ok(Ok(0)) | Ok(Err(_)) => {
                return (
                    String::from_utf8_lossy(&got).into_owned(),
                    Some(Instant::now()),
                )
            }
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Send a head a byte every `every`, from a task; returns the read half's stream.
fn trickle(stream: TcpStream, head: &'static [u8], every: Duration) -> TcpStream {
    let std = stream.into_std().unwrap();
    let writer = TcpStream::from_std(std.try_clone().unwrap()).unwrap();
    tokio::spawn(async move {
        let mut writer = writer;
        for byte in head {
            if writer.write_all(&[*byte]).await.is_err() {
                return;
            }
            tokio::time::sleep(every).await;
        }
    });
    TcpStream::from_std(std).unwrap()
}

const SLOW_HEAD: &[u8] = b"GET /p/slow HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slowloris\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn regression_slow_headers_are_closed_at_the_deadline() {
    let origin = Origin::start(|r| Reply::page(r.path().to_string(), "home")).await;
    let edge = edge_with(&origin, &[("EDGE_HEADER_TIMEOUT_MS", "1000")]).await;

    // A head trickled a byte every 100 ms (each read well inside Pingora's 60 s, the whole
    // head would take 11 s), and a connection that never sends a byte.
    let opened = Instant::now();
    let mut slow = trickle(
        connect(&edge, None).await,
        SLOW_HEAD,
        Duration::from_millis(100),
    );
    let mut silent = connect(&edge, None).await;
    // Meanwhile a normal client is answered.
    assert_eq!(normal_get(&edge, "/p/1").await, 200);

    let (answer, closed) = read_until_closed(&mut slow, Duration::from_secs(5)).await;
    let closed = closed.expect("a trickled head is closed at the deadline");
    let after = closed - opened;
    assert!(
        after >= Duration::from_millis(900) && after < Duration::from_millis(2500),
        "closed after {after:?}"
    );
    assert!(
        answer.starts_with("HTTP/1.1 408 ") && answer.contains("Connection: close"),
        "{answer:?}"
    );
    let (nothing, closed) = read_until_closed(&mut silent, Duration::from_secs(3)).await;
    assert!(
        closed.is_some(),
        "a connection sending nothing is closed too"
    );
    assert_eq!(nothing, "", "no answer to a client that asked nothing");
    assert_eq!(origin.count_path("/p/slow"), 0);

    // On a kept-alive connection the idle time before a request does not count: a request
    // sent 1.5 s after the previous answer is answered; its head trickled is closed.
    let mut kept = connect(&edge, None).await;
    for pause in [Duration::ZERO, Duration::from_millis(1500)] {
        tokio::time::sleep(pause).await;
        kept.write_all(b"GET /p/2 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await
            .unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&got).ends_with("/p/2") {
            let n = tokio::time::timeout(Duration::from_secs(5), kept.read(&mut buf))
                .await
                .expect("an answer")
                .unwrap();
            assert!(
                n > 0,
                "closed after {pause:?}: {:?}",
                String::from_utf8_lossy(&got)
            );
            got.extend_from_slice(&buf[..n]);
        }
        assert!(got.starts_with(b"HTTP/1.1 200 "), "{pause:?}");
    }
    let first_byte = Instant::now();
    let mut kept = trickle(kept, SLOW_HEAD, Duration::from_millis(100));
    let (_, closed) = read_until_closed(&mut kept, Duration::from_secs(5)).await;
    let after = closed.expect("a trickled second head is closed") - first_byte;
    assert!(
        after < Duration::from_millis(2500),
        "closed after {after:?}"
    );
    assert!(
        edge.metric("edge_client_connections_closed_total{reason=\"header_timeout\"}")
            .await
            >= 3.0
    );

    // A head sent whole is untouched by the deadline, a body after it too.
    let mut post = connect(&edge, None).await;
    post.write_all(b"POST /api/x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\n")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    post.write_all(b"body").await.unwrap();
    let (answer, _) = read_until_closed(&mut post, Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn regression_one_client_holds_at_most_its_cap_of_connections() {
    let origin = Origin::start(|r| Reply::page(r.path().to_string(), "home")).await;
    let edge = edge_with(
        &origin,
        &[
            ("EDGE_HEADER_TIMEOUT_MS", "30000"),
            ("EDGE_MAX_CONNECTIONS_PER_CLIENT", "8"),
        ],
    )
    .await;
    // Eight slow connections from 127.0.0.1 are held (their deadline is far off).
    let mut held = Vec::new();
    for _ in 0..8 {
        let mut stream = connect(&edge, None).await;
        stream.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        held.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for stream in &mut held {
        let (_, closed) = read_until_closed(stream, Duration::from_millis(50)).await;
        assert!(closed.is_none(), "a connection within the cap was closed");
    }
    // A ninth is closed at once, unanswered, its request never reaching the origin.
    for _ in 0..3 {
        let mut over = connect(&edge, None).await;
        let _ = over
            .write_all(b"GET /p/over HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await;
        let (answer, closed) = read_until_closed(&mut over, Duration::from_secs(2)).await;
        assert!(
            closed.is_some(),
            "a connection past the cap is closed at once"
        );
        assert_eq!(answer, "");
    }
    assert_eq!(origin.count_path("/p/over"), 0);
    // Another client is served meanwhile.
    assert_eq!(normal_get(&edge, "/p/1").await, 200);
    assert_eq!(
        edge.metric("edge_client_connections_closed_total{reason=\"client_limit\"}")
            .await,
        3.0
    );

    // A connection closed makes room for one more.
    held.truncate(6);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect(&edge, None).await;
    again
        .write_all(b"GET /p/again HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(5), again.read(&mut buf))
        .await
        .expect("an answer")
        .unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200 "));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn loopback_is_not_capped_unless_asked() {
    let origin = Origin::start(|r| Reply::page(r.path().to_string(), "home")).await;
    let edge = Edge::start_with_env(
        free_port(),
        free_port(),
        &[origin.url()],
        &[],
        &[("EDGE_MAX_CONNECTIONS_PER_CLIENT", "2")],
    )
    .await;
    let mut held = Vec::new();
    for _ in 0..6 {
        held.push(connect(&edge, None).await);
    }
    let mut last = connect(&edge, None).await;
    last.write_all(b"GET /p/1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(5), last.read(&mut buf))
        .await
        .expect("an answer")
        .unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200 "));
}
