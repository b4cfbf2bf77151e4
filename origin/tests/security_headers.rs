//! Every answer tells the browser the rules (issue 19): nosniff, the
//! referrer policy, no framing, the permissions policy, and a CSP: strict
//! for JSON and images, and for pages frame-ancestors in the header with the
//! scripts allowed by hash in the page's own `<meta>` (no `'unsafe-inline'`
//! for scripts).

mod common;

use axum::http::HeaderMap;
use base64::Engine;
use sha2::{Digest, Sha256};

use common::TestShop;

fn assert_common(headers: &HeaderMap, what: &str) {
    assert_eq!(headers["x-content-type-options"], "nosniff", "{what}");
    assert_eq!(
        headers["referrer-policy"], "strict-origin-when-cross-origin",
        "{what}"
    );
    assert_eq!(headers["x-frame-options"], "DENY", "{what}");
    let permissions = headers["permissions-policy"].to_str().unwrap();
    assert!(permissions.contains("camera=()"), "{what}: {permissions}");
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
}

#[tokio::test]
async fn api_answers_images_and_errors_carry_a_strict_policy() {
    let shop = TestShop::open().await;
    for uri in [
        "/api/home/sliders",
        "/api/cart/view",
        "/api/no-such-call",
        "/storage/no-such-file.jpg",
    ] {
        let (_, headers, _) = shop.fetch("GET", uri, &[]).await;
        assert_common(&headers, uri);
        assert_eq!(
            headers["content-security-policy"], "default-src 'none'; frame-ancestors 'none'",
            "{uri}"
        );
    }
    // A refused body (over the body limit) too.
    let big = "x".repeat(origin::BODY_LIMIT + 10);
    let request = axum::http::Request::post("/api/common/contact")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(big))
        .unwrap();
    let (status, headers, _) = shop.send_raw(request).await;
    assert!(status.is_client_error(), "{status}");
    assert_common(&headers, "too large");
}

#[tokio::test]
async fn pages_allow_only_their_own_inline_scripts_by_hash() {
    let shop = TestShop::with_site().await;
    for uri in [
        "/",
        "/c/products",
        "/user/login",
        "/lite/login",
        "/no-such-page",
    ] {
        let (_, headers, body) = shop.fetch("GET", uri, &[]).await;
        assert_common(&headers, uri);
        let html = String::from_utf8_lossy(&body);
        let meta = html
            .split("<meta http-equiv=\"Content-Security-Policy\" content=\"")
            .nth(1)
            .unwrap_or_else(|| panic!("{uri} has no CSP meta"))
            .split('"')
            .next()
            .unwrap()
            .to_string();
        // A generated page sends its script policy as a header too (a
        // tester found it in the `<meta>` only); the basic pages and the
        // error page state theirs in the `<meta>`, under the header's rules.
        let header = headers["content-security-policy"].to_str().unwrap();
        if ["/", "/c/products", "/user/login"].contains(&uri) {
            assert_eq!(header, format!("{meta}; frame-ancestors 'none'"), "{uri}");
        } else {
            assert_eq!(
                header, "frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
                "{uri}"
            );
        }
        let scripts = meta
            .split("; ")
            .find(|d| d.starts_with("script-src "))
            .unwrap_or_else(|| panic!("{uri}: {meta}"));
        assert!(!scripts.contains("unsafe"), "{uri}: {scripts}");
        // Every inline script that runs is allowed by its hash.
        let mut rest = html.as_ref();
        let mut inline = 0;
        while let Some(i) = rest.find("<script") {
            rest = &rest[i..];
            let open_end = rest.find('>').unwrap();
            let tag = &rest[..open_end];
            let close = rest.find("</script>").unwrap();
            let code = &rest[open_end + 1..close];
            rest = &rest[close..];
            let data = tag.contains("application/json") || tag.contains("application/ld+json");
            if data || tag.contains("src=") || code.is_empty() {
                continue;
            }
            inline += 1;
            let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(code));
            assert!(
                scripts.contains(&format!("'sha256-{hash}'")),
                "{uri}: {code} not in {scripts}"
            );
        }
        assert!(inline >= 1, "{uri}: the class=js script at least");
    }
}

#[tokio::test]
async fn a_page_revalidated_by_a_cache_keeps_its_policy() {
    let shop = TestShop::with_site().await;
    for uri in ["/", "/c/products?keyword=sofa", "/c/products?page=2"] {
        let (status, first, _) = shop.fetch("GET", uri, &[]).await;
        assert_eq!(status, 200, "{uri}");
        let etag = first["etag"].to_str().unwrap().to_string();
        let (status, again, _) = shop
            .fetch("GET", uri, &[("if-none-match", etag.as_str())])
            .await;
        assert_eq!(status, 304, "{uri}");
        // A cache updates the stored answer's fields with the 304's (RFC
        // 9111, 4.3.4): the page's policy must survive it.
        let mut stored = first.clone();
        for (name, value) in &again {
            stored.insert(name.clone(), value.clone());
        }
        assert_common(&stored, uri);
        assert_eq!(
            stored["content-security-policy"], first["content-security-policy"],
            "{uri}"
        );
    }
}
