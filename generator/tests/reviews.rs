//! The reviews on a product page: the newest published reviews (stars,
//! first name, date, text, escaped) in the HTML and as schema.org Reviews
//! beside the AggregateRating in the JSON-LD; unpublished ones nowhere. The
//! fixture shop (`tests/fixtures/shop.sql`) in SQLite, or PostgreSQL when
//! `TEST_POSTGRES_URL` is set.

use catalog::db;
use catalog::db::testing::TestDatabase;

use generator::commands::{build_for, BuildOptions, Products};

/// 1 June 2025, 06:00 in Dhaka.
const JUNE_1: i64 = 1_748_736_000;

async fn build(db: &TestDatabase, out: &std::path::Path) {
    build_for(
        &BuildOptions {
            database: db.url().to_string(),
            out: out.to_path_buf(),
            base_url: "https://shop.example".into(),
            web_dist: out.join("no-web"),
            compression: Default::default(),
            progress: false,
            now: 1_750_000_000,
            batch: 2,
        },
        &Products::All,
    )
    .await
    .unwrap();
}

fn json_ld(html: &str) -> Vec<serde_json::Value> {
    html.split("<script type=\"application/ld+json\">")
        .skip(1)
        .map(|s| serde_json::from_str(&s[..s.find("</script>").unwrap()]).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_product_page_shows_its_newest_published_reviews_and_marks_them_up() {
    let dir = tempfile::tempdir().unwrap();
    let db = TestDatabase::migrated().await;
    let pool = db.pool().await;
    db::raw_sql(include_str!("fixtures/shop.sql"))
        .execute(&pool)
        .await
        .unwrap();
    let long = format!("Sturdy. {}", "Really well made, ".repeat(40));
    db::raw_sql(&format!(
        "INSERT INTO app_user (id, name, email, phone) VALUES \
           (2, 'Nusrat Jahan Chowdhury', 'nusrat@example.com', '01711111111'), \
           (3, 'karim@example.com', 'karim@example.com', NULL), \
           (4, 'Hidden Person', 'hidden@example.com', NULL), \
           (5, 'Tanvir Ahmed', 'tanvir@example.com', NULL); \
         UPDATE review SET created_at = {JUNE_1} - 86400 WHERE user_id = 1; \
         INSERT INTO review (product_id, user_id, rating, comment, is_active, created_at) VALUES \
           (1, 2, 4, 'Good <script>alert(1)</script> & solid', TRUE, {JUNE_1}), \
           (1, 3, 3, 'Fine for the price', TRUE, {JUNE_1} + 60), \
           (1, 4, 1, 'Not checked yet, must not show', FALSE, {JUNE_1} + 120), \
           (1, 5, 5, '{long}', TRUE, {JUNE_1} + 180);"
    ))
    .execute(&pool)
    .await
    .unwrap();
    db::after_bulk_load(&pool).await.unwrap();
    let out = dir.path().join("site");
    build(&db, &out).await;
    let file = out.join(generator::serve::file_for("/product/teak-bed").unwrap());
    let page = std::fs::read_to_string(file).unwrap();

    // The summary counts the published four: (5 + 4 + 3 + 5) / 4 = 4.25.
    assert!(page.contains("Rated 4.3 out of 5 from 4 reviews"), "{page}");
    for needle in [
        r#"<span class="stars" role="img" aria-label="4 out of 5 stars">★★★★☆</span> <strong>Nusrat</strong> · <time datetime="2025-06-01">1 Jun 2025</time>"#,
        "Good &#60;script&#62;alert(1)&#60;/script&#62; &#38; solid",
        "<strong>A shopper</strong>",
        "<strong>Rahim</strong>",
        "Lovely bed",
        r#"<a href="/product/review/1">Write a review</a>"#,
    ] {
        assert!(page.contains(needle), "missing {needle:?}");
    }
    for absent in [
        "Not checked yet",
        "Hidden",
        "karim@example.com",
        "nusrat@example.com",
        "01711111111",
        "Chowdhury",
        "<script>alert",
    ] {
        assert!(!page.contains(absent), "{absent:?} is on the page");
    }
    // Newest first; a long text is cut on the page.
    let order: Vec<usize> = ["Tanvir", "A shopper", "Nusrat", "Rahim"]
        .iter()
        .map(|n| page.find(&format!("<strong>{n}</strong>")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(page.contains("Really well made, Really"));
    assert!(!page.contains(&long));

    let ld = json_ld(&page);
    let product = ld.iter().find(|v| v["@type"] == "Product").unwrap();
    assert_eq!(product["aggregateRating"]["reviewCount"], 4);
    assert_eq!(product["aggregateRating"]["ratingValue"], "4.3");
    let reviews = product["review"].as_array().unwrap();
    assert_eq!(reviews.len(), 4);
    let nusrat = &reviews[2];
    assert_eq!(nusrat["@type"], "Review");
    assert_eq!(nusrat["author"]["@type"], "Person");
    assert_eq!(nusrat["author"]["name"], "Nusrat");
    assert_eq!(nusrat["reviewRating"]["@type"], "Rating");
    assert_eq!(nusrat["reviewRating"]["ratingValue"], 4);
    assert_eq!(nusrat["reviewRating"]["bestRating"], 5);
    assert_eq!(
        nusrat["reviewBody"],
        "Good <script>alert(1)</script> & solid"
    );
    assert_eq!(nusrat["datePublished"], "2025-06-01");
    assert!(reviews[0]["reviewBody"].as_str().unwrap().ends_with('…'));

    // A product without published reviews has neither.
    let file = out.join(generator::serve::file_for("/product/oak-bed").unwrap());
    let page = std::fs::read_to_string(file).unwrap();
    assert!(page.contains("No reviews yet"));
    let ld = json_ld(&page);
    let product = ld.iter().find(|v| v["@type"] == "Product").unwrap();
    assert!(product.get("review").is_none() && product.get("aggregateRating").is_none());
}
