//! Questions, comments and recently viewed products on a real SQLite file.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{assert_api_error, TestShop, DEMO};
use serde_json::json;

async fn active_product(shop: &TestShop, n: i64) -> (i64, String) {
    db::query_as(
        "SELECT id, seo_url FROM product WHERE is_active = TRUE ORDER BY id LIMIT 1 OFFSET $1",
    )
    .bind(n)
    .fetch_one(&shop.state.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn questions_need_an_account_wait_for_an_answer_and_are_rate_limited() {
    let shop = TestShop::fresh().await;
    let (pid, seo_url) = active_product(&shop, 3).await;
    let body = json!({ "product_id": pid, "description": "Is the wood seasoned teak?" });
    let (status, headers, answer) = shop
        .guest_post(
            "guest-talk-0001.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/product/question-store",
            &body,
        )
        .await;
    assert_api_error(status, &headers, &answer, StatusCode::UNAUTHORIZED);
    let token = shop
        .login(Some("guest-talk-0001.k7Qx2mZp9LwR4tYv8NsB3hJd"), DEMO)
        .await;
    let bearer = format!("Bearer {token}");
    let auth = [("Authorization", bearer.as_str())];
    let (status, _, answer) = shop
        .request("POST", "/api/product/question-store", &auth, Some(&body))
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let stored: bool = db::query_scalar(&format!(
        "SELECT is_active FROM product_question WHERE id = {}",
        answer["id"]
    ))
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    assert!(!stored, "unpublished until answered");
    let index = || async {
        let uri = format!("/api/product/question-index?seo_url={seo_url}");
        shop.get(&uri).await.2.to_string()
    };
    assert!(!index().await.contains("seasoned teak"));
    // Published but not yet answered: still not shown (the tester saw it).
    let id = &answer["id"];
    let publish = format!("UPDATE product_question SET is_active = TRUE WHERE id = {id}");
    db::query(&publish).execute(&shop.state.pool).await.unwrap();
    assert!(!index().await.contains("seasoned teak"));
    // Answered: shown with its answer.
    let reply = format!(
        "INSERT INTO product_question_answer (question_id, description) VALUES ({id}, 'Yes, seasoned for a year.')"
    );
    db::query(&reply).execute(&shop.state.pool).await.unwrap();
    let shown = index().await;
    assert!(
        shown.contains("seasoned teak") && shown.contains("seasoned for a year"),
        "{shown}"
    );
    for bad in [
        json!({ "product_id": pid, "description": "hi" }),
        json!({ "product_id": pid, "description": "x".repeat(1001) }),
        json!({ "product_id": pid }),
    ] {
        let (status, headers, answer) = shop
            .request("POST", "/api/product/question-store", &auth, Some(&bad))
            .await;
        assert_api_error(status, &headers, &answer, StatusCode::BAD_REQUEST);
    }
    let (status, _, _) = shop
        .request(
            "POST",
            "/api/product/comment-store",
            &auth,
            Some(&json!({ "product_id": 99999999, "comment": "Lovely colour." })),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Five writings in ten minutes, then a 429 with Retry-After.
    for _ in 0..4 {
        let (status, _, answer) = shop
            .request(
                "POST",
                "/api/product/comment-store",
                &auth,
                Some(&json!({ "product_id": pid, "comment": "<b>Lovely</b> colour." })),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let (status, headers, answer) = shop
        .request("POST", "/api/product/question-store", &auth, Some(&body))
        .await;
    assert_api_error(status, &headers, &answer, StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=600).contains(&retry));
    let raw: String =
        db::query_scalar("SELECT comment FROM product_comment ORDER BY id DESC LIMIT 1")
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    assert_eq!(
        raw, "<b>Lovely</b> colour.",
        "kept as typed; pages escape it"
    );
}

#[tokio::test]
async fn recently_viewed_is_per_visitor_newest_first_and_follows_sign_in() {
    let shop = TestShop::fresh().await;
    let g = "guest-recent-001.k7Qx2mZp9LwR4tYv8NsB3hJd";
    let (a, _) = active_product(&shop, 0).await;
    let (b, _) = active_product(&shop, 1).await;
    for pid in [a, b, a] {
        let (status, _, body) = shop
            .guest_post(g, "/api/product/recent-view", &json!({ "pid": pid }))
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (_, headers, list) = shop.guest_get(g, "/api/product/recent-views-product").await;
    assert_eq!(headers["cache-control"], "private, no-store");
    let ids: Vec<i64> = list["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![a, b]);
    let (_, _, other) = shop
        .guest_get(
            "guest-recent-002.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/product/recent-views-product",
        )
        .await;
    assert_eq!(other["products"], json!([]));
    let (status, headers, body) = shop
        .guest_post(g, "/api/product/recent-view", &json!({ "pid": 99999999 }))
        .await;
    assert_api_error(status, &headers, &body, StatusCode::NOT_FOUND);
    // Signing in keeps them.
    let token = shop.login(Some(g), DEMO).await;
    let bearer = format!("Bearer {token}");
    let (_, _, mine) = shop
        .request(
            "GET",
            "/api/product/recent-views-product",
            &[("Authorization", bearer.as_str())],
            None,
        )
        .await;
    assert_eq!(mine["products"][0]["id"], a);
}

/// JSON Schema's `integer` takes `5.0`; the recent-view body reads it as 5
/// (the contract run's finding: a whole float was a 400).
#[tokio::test]
async fn a_whole_number_written_as_a_float_is_read_as_the_number() {
    let shop = TestShop::fresh().await;
    let (pid, _) = active_product(&shop, 2).await;
    let (status, _, answer) = shop
        .guest_post(
            "guest-talk-float.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/product/recent-view",
            &json!({ "pid": pid as f64 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (status, headers, answer) = shop
        .guest_post(
            "guest-talk-float.k7Qx2mZp9LwR4tYv8NsB3hJd",
            "/api/product/recent-view",
            &json!({ "pid": 2.5 }),
        )
        .await;
    assert_api_error(status, &headers, &answer, StatusCode::BAD_REQUEST);
}
