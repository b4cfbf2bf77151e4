//! Mail over SMTP: with a mail server configured, the reset link goes to a
//! small SMTP server on loopback started by the test (it speaks the commands
//! a client needs: EHLO, MAIL, RCPT, DATA, QUIT) and nothing lands in the
//! outbox; with the server down, the answer is the same.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use common::TestShop;
use origin::config::Secret;
use origin::domain::mail::Smtp;

/// A message the server accepted: envelope recipients and the data.
#[derive(Debug, Clone, Default)]
struct Received {
    rcpt: Vec<String>,
    data: String,
}

/// Starts the SMTP server; answers its port and what it received.
async fn smtp_server() -> (u16, Arc<Mutex<Vec<Received>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let inbox: Arc<Mutex<Vec<Received>>> = Arc::default();
    let store = Arc::clone(&inbox);
    tokio::spawn(async move {
        loop {
            let (socket, _) = listener.accept().await.unwrap();
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 test ESMTP\r\n").await.unwrap();
                let mut current = Received::default();
                while let Ok(Some(line)) = lines.next_line().await {
                    let upper = line.to_ascii_uppercase();
                    let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                        b"250-test\r\n250 8BITMIME\r\n"
                    } else if upper.starts_with("MAIL FROM:") {
                        current = Received::default();
                        b"250 OK\r\n"
                    } else if upper.starts_with("RCPT TO:") {
                        current.rcpt.push(line[8..].trim().to_string());
                        b"250 OK\r\n"
                    } else if upper == "DATA" {
                        write.write_all(b"354 go on\r\n").await.unwrap();
                        while let Ok(Some(data)) = lines.next_line().await {
                            if data == "." {
                                break;
                            }
                            current.data.push_str(&data);
                            current.data.push('\n');
                        }
                        store.lock().unwrap().push(current.clone());
                        b"250 queued\r\n"
                    } else if upper == "QUIT" {
                        write.write_all(b"221 bye\r\n").await.unwrap();
                        break;
                    } else {
                        b"250 OK\r\n"
                    };
                    write.write_all(reply).await.unwrap();
                }
            });
        }
    });
    (port, inbox)
}

fn outbox_files(shop: &TestShop) -> usize {
    std::fs::read_dir(&shop.state.dirs.outbox)
        .map(|d| d.count())
        .unwrap_or(0)
}

async fn ask_for_link(shop: &TestShop, email: &str) -> serde_json::Value {
    let (status, _, body) = shop
        .post_json(
            "/api/user/forgot-password-send-link",
            &json!({ "email": email }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

#[tokio::test]
async fn with_a_mail_server_the_reset_link_goes_over_smtp() {
    let (port, inbox) = smtp_server().await;
    let mut shop = TestShop::fresh().await;
    let url = Secret(format!("smtp://127.0.0.1:{port}"));
    shop.state.smtp = Some(Arc::new(
        Smtp::from_url(&url, "Shop <no-reply@shop.example>").unwrap(),
    ));
    shop.app = origin::app(shop.state.clone());
    ask_for_link(&shop, "demo@example.com").await;
    let mut waited = 0;
    while inbox.lock().unwrap().is_empty() && waited < 100 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += 1;
    }
    let received = inbox.lock().unwrap().clone();
    assert_eq!(received.len(), 1, "one message");
    assert_eq!(received[0].rcpt, vec!["<demo@example.com>".to_string()]);
    let data = &received[0].data;
    assert!(data.contains("Subject: Reset your password"), "{data}");
    assert!(
        data.contains("From: Shop <no-reply@shop.example>"),
        "{data}"
    );
    assert!(
        data.contains("https://shop.example/user/reset_password?token="),
        "{data}"
    );
    assert_eq!(outbox_files(&shop), 0, "nothing in the outbox");
    // An unknown address: the same answer, nothing sent.
    ask_for_link(&shop, "nobody-here@example.com").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(inbox.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn a_mail_server_that_is_down_changes_nothing_in_the_answer() {
    // A port nobody listens on: bound but never listening, so connections are
    // refused, and held to the end so that no other test's server gets it
    // (a freed port went to the SMTP test beside this one, which then
    // received this test's mail too).
    let reserved = tokio::net::TcpSocket::new_v4().unwrap();
    reserved.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let port = reserved.local_addr().unwrap().port();
    let mut shop = TestShop::fresh().await;
    let url = Secret(format!("smtp://127.0.0.1:{port}"));
    shop.state.smtp = Some(Arc::new(
        Smtp::from_url(&url, "Shop <no-reply@shop.example>").unwrap(),
    ));
    shop.app = origin::app(shop.state.clone());
    let known = ask_for_link(&shop, "demo@example.com").await;
    let unknown = ask_for_link(&shop, "nobody-here@example.com").await;
    assert_eq!(known, unknown);
    drop(reserved);
}

#[test]
fn a_bad_smtp_url_is_refused_without_quoting_it() {
    let err = Smtp::from_url(&Secret("smtq://user:hunter2@host".into()), "a@b.c").unwrap_err();
    let text = format!("{err:#}");
    assert!(!text.contains("hunter2"), "{text}");
    assert!(Smtp::from_url(&Secret("smtp://127.0.0.1:25".into()), "not an address").is_err());
}
