//! The API's shared behaviour: JSON errors for unknown paths, cache headers.

mod common;

use axum::http::StatusCode;
use common::{assert_api_error, TestShop};

#[tokio::test]
async fn unknown_api_paths_answer_a_json_404_never_html() {
    let shop = TestShop::open().await;
    for path in [
        "/api/nope",
        "/api/home/nope",
        "/api/product/",
        "/api/%ff%fe",
    ] {
        let (status, headers, body) = shop.get(path).await;
        assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
        assert_eq!(headers["cache-control"], "no-store");
    }
}

#[tokio::test]
async fn a_known_path_with_the_wrong_method_answers_a_json_405() {
    let shop = TestShop::open().await;
    let (status, headers, body) = shop
        .post_json("/api/home/sliders", &serde_json::json!({}))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::METHOD_NOT_ALLOWED);
    let (status, headers, body) = shop.get("/api/common/get-seo-content").await;
    assert_api_error(status, &headers, &body, StatusCode::METHOD_NOT_ALLOWED);
}
