//! The Interior group: galleries (paginated, by category), one gallery by
//! slug, the interior categories, cache headers and bad input.

mod common;

use axum::http::StatusCode;
use catalog::db;
use common::{arr, bad, ok, TestShop};
use serde_json::Value;

fn assert_interior(i: &Value) {
    for k in ["title", "slug", "sub_title"] {
        assert!(i[k].is_string(), "{k} in {i}");
    }
    assert!(i["id"].is_i64() && i["image_id"].is_i64());
    assert!(i["image"]["full_size_directory"]
        .as_str()
        .unwrap()
        .starts_with("storage/"));
    let images = arr(&i["images"], "images");
    assert!(!images.is_empty());
    for img in images {
        assert_eq!(img["interior_id"], i["id"]);
        assert!(img["image"]["full_size_directory"].is_string());
    }
}

#[tokio::test]
async fn all_galleries_paginate_by_ten() {
    let shop = TestShop::open().await;
    let total = shop
        .scalar_i64("SELECT COUNT(*) FROM interior WHERE active = TRUE")
        .await;
    assert!(total > 10);
    let (headers, body) = ok(&shop, "/api/interior/all").await;
    assert!(headers["cache-control"]
        .to_str()
        .unwrap()
        .starts_with("public"));
    assert!(headers.contains_key("cdn-cache-control"));
    let sk = headers["surrogate-key"].to_str().unwrap();
    assert!(sk.split(' ').any(|k| k == "interiors"), "{sk}");
    assert_eq!(body["category"], Value::Null);
    let page = &body["interiors"];
    assert_eq!(page["total"], total);
    assert_eq!(page["per_page"], 10);
    let data = arr(&page["data"], "data");
    assert_eq!(data.len(), 10);
    data.iter().for_each(assert_interior);
    let first = data[0]["id"].as_i64().unwrap();
    assert!(
        sk.split(' ').any(|k| k == format!("interior:{first}")),
        "{sk}"
    );
    let (_, body) = ok(&shop, "/api/interior/all?page=2").await;
    assert_eq!(
        arr(&body["interiors"]["data"], "data").len() as i64,
        total - 10
    );
    assert_eq!(body["interiors"]["to"], total);
    let (_, body) = ok(&shop, "/api/interior/all?page=50").await;
    assert!(arr(&body["interiors"]["data"], "data").is_empty());
}

#[tokio::test]
async fn galleries_of_a_category_and_of_the_root() {
    let shop = TestShop::open().await;
    let (id, slug): (i64, String) = db::query_as(
        "SELECT id, seo_url FROM category WHERE type = 'interior' AND parent IS NOT NULL ORDER BY id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let want = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM interior WHERE active = TRUE AND category_id = {id}"
        ))
        .await;
    assert!(want > 0);
    let (_, body) = ok(&shop, &format!("/api/interior/all?seo_url={slug}")).await;
    assert_eq!(body["category"]["id"], id);
    assert_eq!(body["category"]["seo_url"], slug.as_str());
    assert_eq!(body["interiors"]["total"], want);
    for i in arr(&body["interiors"]["data"], "data") {
        assert_eq!(i["category_id"], id);
    }
    // The root lists every gallery.
    let all = shop
        .scalar_i64("SELECT COUNT(*) FROM interior WHERE active = TRUE")
        .await;
    let (_, body) = ok(&shop, "/api/interior/all?seo_url=interiors").await;
    assert_eq!(body["interiors"]["total"], all);
}

#[tokio::test]
async fn all_rejects_bad_input() {
    let shop = TestShop::open().await;
    bad(
        &shop,
        "/api/interior/all?seo_url=no-such",
        StatusCode::NOT_FOUND,
    )
    .await;
    // A product category is not an interior category.
    bad(
        &shop,
        "/api/interior/all?seo_url=bedroom",
        StatusCode::NOT_FOUND,
    )
    .await;
    for q in [
        "page=0",
        "page=-1",
        "page=10001",
        "page=x",
        "page=99999999999999999999",
    ] {
        bad(
            &shop,
            &format!("/api/interior/all?{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
    bad(
        &shop,
        &format!("/api/interior/all?seo_url={}", "x".repeat(201)),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn show_by_slug() {
    let shop = TestShop::open().await;
    let (id, slug): (i64, String) =
        db::query_as("SELECT id, slug FROM interior WHERE active = TRUE ORDER BY id LIMIT 1")
            .fetch_one(&shop.state.pool)
            .await
            .unwrap();
    let (headers, body) = ok(&shop, &format!("/api/interior/show?slug={slug}")).await;
    let sk = headers["surrogate-key"].to_str().unwrap();
    assert!(sk.split(' ').any(|k| k == format!("interior:{id}")), "{sk}");
    assert_eq!(body["interior"]["id"], id);
    assert_interior(&body["interior"]);
    let photos = shop
        .scalar_i64(&format!(
            "SELECT COUNT(*) FROM interior_image WHERE interior_id = {id}"
        ))
        .await;
    assert_eq!(
        arr(&body["interior"]["images"], "images").len() as i64,
        photos
    );
    bad(
        &shop,
        "/api/interior/show?slug=no-such",
        StatusCode::NOT_FOUND,
    )
    .await;
    bad(&shop, "/api/interior/show", StatusCode::BAD_REQUEST).await;
    bad(&shop, "/api/interior/show?slug=", StatusCode::BAD_REQUEST).await;
    bad(
        &shop,
        &format!("/api/interior/show?slug={}", "s".repeat(201)),
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn an_inactive_gallery_is_not_found() {
    let shop = TestShop::fresh().await;
    let slug: String = db::query_scalar("SELECT slug FROM interior ORDER BY id LIMIT 1")
        .fetch_one(&shop.state.pool)
        .await
        .unwrap();
    db::query("UPDATE interior SET active = FALSE WHERE slug = $1")
        .bind(&slug)
        .execute(&shop.state.pool)
        .await
        .unwrap();
    bad(
        &shop,
        &format!("/api/interior/show?slug={slug}"),
        StatusCode::NOT_FOUND,
    )
    .await;
    let active = shop
        .scalar_i64("SELECT COUNT(*) FROM interior WHERE active = TRUE")
        .await;
    let (_, body) = ok(&shop, "/api/interior/all").await;
    assert_eq!(body["interiors"]["total"], active);
}

#[tokio::test]
async fn categories_of_the_root_and_of_a_leaf() {
    let shop = TestShop::open().await;
    let children = shop
        .scalar_i64(
            "SELECT COUNT(*) FROM category c JOIN category r ON r.id = c.parent \
             WHERE r.seo_url = 'interiors' AND c.type = 'interior' AND c.is_published = TRUE AND c.is_active = TRUE",
        )
        .await;
    assert!(children > 0);
    for uri in [
        "/api/interior/category?seo_url=interiors",
        "/api/interior/category",
    ] {
        let (headers, body) = ok(&shop, uri).await;
        assert!(headers["surrogate-key"]
            .to_str()
            .unwrap()
            .contains("interiors"));
        assert_eq!(body["parent"]["seo_url"], "interiors");
        assert!(body["parent"]["name"].is_string());
        let list = arr(&body["category"], "category");
        assert_eq!(list.len() as i64, children);
        for c in list {
            for k in ["name", "seo_url", "description"] {
                assert!(c[k].is_string(), "{k} in {c}");
            }
        }
    }
    let leaf: String = db::query_scalar(
        "SELECT seo_url FROM category WHERE type = 'interior' AND parent IS NOT NULL ORDER BY id LIMIT 1",
    )
    .fetch_one(&shop.state.pool)
    .await
    .unwrap();
    let (_, body) = ok(&shop, &format!("/api/interior/category?seo_url={leaf}")).await;
    assert_eq!(body["parent"]["seo_url"], leaf.as_str());
    assert!(arr(&body["category"], "category").is_empty());
    bad(
        &shop,
        "/api/interior/category?seo_url=no-such",
        StatusCode::NOT_FOUND,
    )
    .await;
    bad(
        &shop,
        "/api/interior/category?seo_url=bedroom",
        StatusCode::NOT_FOUND,
    )
    .await;
    bad(
        &shop,
        &format!("/api/interior/category?seo_url={}", "c".repeat(201)),
        StatusCode::BAD_REQUEST,
    )
    .await;
}
