//! `/api/openapi.json`: generated from the routers, so every documented
//! operation exists and its required parameters really are required.

mod common;

use axum::http::StatusCode;
use common::{assert_api_error, TestShop};
use serde_json::{json, Value};

#[tokio::test]
async fn the_document_lists_every_group_and_is_openapi_3_1() {
    let shop = TestShop::open().await;
    let (status, headers, doc) = shop.get("/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().expect("paths");
    for path in [
        "/api/health",
        "/api/home/sliders",
        "/api/common/main-search-product",
        "/api/common/get-seo-content",
        "/api/category/products",
        "/api/product/info",
        "/api/interior/show",
    ] {
        assert!(paths.contains_key(path), "{path} is not documented");
    }
    assert!(doc["paths"]["/api/common/get-seo-content"]
        .get("post")
        .is_some());
    let products = &doc["paths"]["/api/category/products"]["get"];
    assert_eq!(products["tags"][0], "category");
    let seo_url = products["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "seo_url")
        .expect("seo_url documented");
    assert_eq!(seo_url["required"], true);
}

/// Calls every documented operation: without its required query parameters it
/// must answer a JSON 400 naming one; with none required, a 200 (GET) or at
/// least not a 404/405 (POST with an empty body). Either way the route exists.
#[tokio::test]
async fn every_documented_operation_is_mounted_and_checks_its_required_parameters() {
    let shop = TestShop::open().await;
    let (_, _, doc) = shop.get("/api/openapi.json").await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let required: Vec<&str> = op["parameters"]
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                // A path parameter is sent as its literal `{id}`: a 400 too.
                .filter(|p| p["required"] == true && (p["in"] == "query" || p["in"] == "path"))
                .map(|p| p["name"].as_str().unwrap())
                .collect();
            // One of two parameters required (the summary says "one of them"):
            // no schema can state it, so none is marked required; without
            // either, a 400 naming one.
            let one_of: Vec<&str> = if op["summary"]
                .as_str()
                .is_some_and(|s| s.contains("one of them"))
            {
                op["parameters"]
                    .as_array()
                    .map_or(&[][..], Vec::as_slice)
                    .iter()
                    .filter(|p| p["in"] == "query")
                    .map(|p| p["name"].as_str().unwrap())
                    .collect()
            } else {
                Vec::new()
            };
            let required = if required.is_empty() {
                one_of
            } else {
                required
            };
            let signed_in = op["security"] == json!([{ "bearer": [] }]);
            // No security requirement (the key left out, as aide writes an empty one).
            let anyone = op.get("security").is_none_or(|s| s == &json!([]));
            // As the shop's own client calls: always with a self token.
            let (status, headers, body) = match method.as_str() {
                "get" => {
                    shop.guest_get("openapi-test-guest.k7Qx2mZp9LwR4tYv8NsB3hJd", path)
                        .await
                }
                "post" => {
                    shop.guest_post(
                        "openapi-test-guest.k7Qx2mZp9LwR4tYv8NsB3hJd",
                        path,
                        &json!({}),
                    )
                    .await
                }
                other => panic!("unexpected method {other} on {path}"),
            };
            if signed_in {
                assert_api_error(status, &headers, &body, StatusCode::UNAUTHORIZED);
            } else if !required.is_empty() {
                assert_api_error(status, &headers, &body, StatusCode::BAD_REQUEST);
                let named = body["errors"]
                    .as_object()
                    .map(|errors| required.iter().any(|r| errors.contains_key(*r)))
                    .unwrap_or(false);
                assert!(
                    named,
                    "{method} {path}: 400 should name one of {required:?}: {body}"
                );
            } else if method == "get" && anyone {
                assert_eq!(status, StatusCode::OK, "{method} {path}: {body}");
                // The document says which answers caches may keep; the headers agree.
                let cache_control = headers
                    .get("cache-control")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default();
                assert_eq!(
                    cache_control.starts_with("public"),
                    op["x-cacheable"] == true,
                    "{method} {path}: documented x-cacheable {}, sent Cache-Control {cache_control:?}",
                    op["x-cacheable"]
                );
            } else {
                assert_ne!(
                    body["message"], "No such API endpoint",
                    "{method} {path} is not mounted"
                );
                assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            }
            assert_ne!(body, Value::Null, "{method} {path} answered no JSON");
            checked += 1;
        }
    }
    assert!(checked >= 69, "only {checked} operations documented");
}

/// Every operation's success answer has a schema, except those still listed in
/// `untyped_answers.txt`, a list that may only shrink: typing an answer without
/// deleting its line fails too.
#[tokio::test]
async fn every_success_answer_has_a_schema_but_the_listed_ones() {
    let shop = TestShop::open().await;
    let (_, _, doc) = shop.get("/api/openapi.json").await;
    let listed: std::collections::BTreeSet<&str> = include_str!("untyped_answers.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut untyped = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            let typed = match responses.get("200") {
                Some(ok) => {
                    let schema = &ok["content"]["application/json"]["schema"];
                    schema.is_object() && schema.as_object().is_some_and(|s| !s.is_empty())
                }
                // No 200: its success is a redirect, whose answer is the
                // `Location` header, or it has none (bKash, not built: a 503).
                None => responses
                    .iter()
                    .filter(|(status, _)| status.starts_with('2') || status.starts_with('3'))
                    .all(|(status, r)| {
                        status.starts_with('3') && r["headers"]["Location"]["required"] == true
                    }),
            };
            if !typed {
                untyped.insert(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    let missing: Vec<&String> = untyped
        .iter()
        .filter(|op| !listed.contains(op.as_str()))
        .collect();
    assert!(missing.is_empty(), "answers without a schema: {missing:?}");
    let typed: Vec<&&str> = listed.iter().filter(|op| !untyped.contains(**op)).collect();
    assert!(
        typed.is_empty(),
        "typed now, delete from untyped_answers.txt: {typed:?}"
    );
}
