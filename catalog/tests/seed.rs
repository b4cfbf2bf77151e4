//! The demo catalogue, seeded into real databases (SQLite files, or
//! PostgreSQL databases when `TEST_POSTGRES_URL` is set): deterministic,
//! complete, and consistent with the shop's rules.

use std::path::Path;

use catalog::db::testing::TestDatabase;
use catalog::db::{self, Pool};
use catalog::seed::{seed, SeedOptions};

const NOW: i64 = 1_795_000_000; // a fixed instant: the same seed and now make the same shop

/// A new database seeded with `products`; the database lives as long as the first value.
async fn seeded(dir: &Path, products: u32, seed_value: u64) -> (TestDatabase, Pool) {
    let db = TestDatabase::migrated().await;
    let pool = db.pool().await;
    let options = SeedOptions {
        products,
        seed: seed_value,
        storage_dir: dir.join("storage"),
        now: NOW,
        progress: false,
    };
    let report = seed(&pool, &options).await.unwrap();
    assert_eq!(report.products, u64::from(products));
    (db, pool)
}

async fn scalar(pool: &Pool, sql: &str) -> i64 {
    db::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// A digest of a table's rows, in id order (everything but nothing else).
async fn dump(pool: &Pool, sql: &str) -> String {
    let rows: Vec<(String,)> = db::query_as(sql).fetch_all(pool).await.unwrap();
    rows.into_iter().map(|r| r.0).collect::<Vec<_>>().join("\n")
}

const DIGEST_QUERIES: [&str; 10] = [
    "SELECT id || title || sub_title || product_code || sku || seo_url || price_before || price_now || stock || created_at FROM product ORDER BY id",
    "SELECT id || name || seo_url || COALESCE(CAST(parent AS TEXT), '-') || COALESCE(CAST(banner1 AS TEXT), '-') FROM category ORDER BY id",
    "SELECT id || filename || file_size || width || height FROM image_file ORDER BY id",
    "SELECT product_id || attribute || value || product_code || price_now FROM product_variation ORDER BY id",
    "SELECT product_id || bank || months || interest_bp FROM product_emi ORDER BY id",
    "SELECT id || menu_id || parent || label || link FROM menu_item ORDER BY id",
    "SELECT product_id || ',' || image_file_id || ',' || sort FROM product_image ORDER BY id",
    "SELECT product_id || ',' || attribute_value_id FROM product_attribute ORDER BY product_id, attribute_value_id",
    "SELECT schedule_id || ',' || product_id || ',' || discount_percent FROM flash_item ORDER BY id",
    "SELECT order_random || customer_name || grand_total || password_hash FROM order_master JOIN app_user u ON u.id = user_id ORDER BY order_master.id",
];

/// Every row of every table the seed fills, column by column, in insertion
/// order (the migrations' bookkeeping table is left out: it records when
/// the migration ran).
async fn whole_database(pool: &Pool) -> String {
    let postgres = pool.dialect() == db::Dialect::Postgres;
    let tables: Vec<(String,)> = db::query_as(if postgres {
        "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations' ORDER BY 1"
    } else {
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name"
    })
    .fetch_all(pool)
    .await
    .unwrap();
    let mut out = String::new();
    for (table,) in tables {
        out.push_str(&format!("# {table}\n"));
        let sql = if postgres {
            // Every column as JSON, rows in the order of their key (there is no rowid).
            format!("SELECT CAST(row_to_json(t) AS TEXT) FROM {table} t ORDER BY 1")
        } else {
            let cols: Vec<(String,)> = db::query_as("SELECT name FROM pragma_table_info($1)")
                .bind(&table)
                .fetch_all(pool)
                .await
                .unwrap();
            let row = cols
                .iter()
                .map(|(c,)| format!("quote({c})"))
                .collect::<Vec<_>>()
                .join(" || ',' || ");
            format!("SELECT {row} FROM {table} ORDER BY rowid")
        };
        out.push_str(&dump(pool, &sql).await);
        out.push('\n');
    }
    out
}

#[tokio::test]
async fn the_same_seed_makes_the_same_shop_and_another_seed_another() {
    let dir = tempfile::tempdir().unwrap();
    let (_a_db, a) = seeded(dir.path(), 150, 3).await;
    // A second later on the wall clock: nothing may depend on it, only on `now`.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let (_b_db, b) = seeded(dir.path(), 150, 3).await;
    let (_c_db, c) = seeded(dir.path(), 150, 4).await;
    for q in DIGEST_QUERIES {
        assert_eq!(dump(&a, q).await, dump(&b, q).await, "{q}");
    }
    let whole = whole_database(&a).await;
    assert!(whole.len() > 100_000, "{} bytes", whole.len());
    if whole != whole_database(&b).await {
        let other = whole_database(&b).await;
        let first = whole
            .lines()
            .zip(other.lines())
            .find(|(x, y)| x != y)
            .map(|(x, y)| format!("{x}\n{y}"));
        panic!("the same seed and now made different rows: {first:?}");
    }
    assert_ne!(
        dump(&a, DIGEST_QUERIES[0]).await,
        dump(&c, DIGEST_QUERIES[0]).await
    );
}

#[tokio::test]
async fn a_seeded_shop_is_complete_and_keeps_the_shops_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (_pool_db, pool) = seeded(dir.path(), 300, 1).await;

    // Every product has 3 to 6 images, and the files exist and decode.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM (SELECT product_id, COUNT(*) n FROM product_image GROUP BY product_id HAVING n BETWEEN 3 AND 6)").await, 300);
    let paths: Vec<(String,)> = db::query_as(
        "SELECT DISTINCT f.full_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for (p,) in &paths {
        // Paths are relative to the site root; the storage dir is served as /storage/.
        let file = dir.path().join(p);
        let img = image::open(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(img.width() >= 400);
    }
    // Some products turn in 360 degrees, with exactly 36 frames.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM (SELECT product_id, COUNT(*) n FROM product_360_frame GROUP BY product_id HAVING n <> 36)").await, 0);
    // Prices: taka, discounted never above the list price; codes and slugs unique (the schema insists too).
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM product WHERE price_now > price_before OR price_now < 500"
        )
        .await,
        0
    );
    assert_eq!(
        scalar(&pool, "SELECT COUNT(DISTINCT product_code) FROM product").await,
        300
    );
    // Every product's primary category is a sub-category of a top-level category under the root.
    assert_eq!(
        scalar(&pool, "SELECT COUNT(*) FROM product_category pc JOIN category c ON c.id = pc.category_id JOIN category t ON t.id = c.parent WHERE pc.is_primary = 1 AND t.parent = 1").await,
        300
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT seo_url = 'products' AND parent IS NULL FROM category WHERE id = 1"
        )
        .await,
        1
    );
    // The 64 districts in 8 divisions, Dhaka the only one inside Dhaka.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM district").await, 64);
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM division").await, 8);
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM district WHERE delivery_zone = 'inside_dhaka' AND name = 'Dhaka'"
        )
        .await,
        1
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM district WHERE aliases LIKE '%Chittagong%'"
        )
        .await,
        1
    );
    // Exactly one flash sale runs at `now`, and one starts later.
    assert_eq!(scalar(&pool, &format!("SELECT COUNT(*) FROM flash_schedule WHERE is_active = 1 AND starts_at <= {NOW} AND ends_at > {NOW}")).await, 1);
    assert_eq!(
        scalar(
            &pool,
            &format!("SELECT COUNT(*) FROM flash_schedule WHERE starts_at > {NOW}")
        )
        .await,
        1
    );
    assert!(scalar(&pool, &format!("SELECT COUNT(*) FROM flash_item fi JOIN flash_schedule s ON s.id = fi.schedule_id WHERE s.starts_at <= {NOW} AND s.ends_at > {NOW}")).await >= 10);
    // Widgets 5 (advert) and 22 (EMI details); at most 4 header links; the side menu's tree under item 21.
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM widget WHERE id IN (5, 22) AND is_active = 1"
        )
        .await,
        2
    );
    let header = scalar(&pool, "SELECT COUNT(*) FROM menu_item mi JOIN menu m ON m.id = mi.menu_id WHERE m.location = 'header'").await;
    assert!((1..=4).contains(&header), "{header} header links");
    // The side menu: item 21 is "Products", its children are exactly the
    // top-level product categories (label and link), their children the sub-categories.
    assert_eq!(
        dump(&pool, "SELECT m.location || ' ' || mi.label || ' ' || mi.link FROM menu_item mi JOIN menu m ON m.id = mi.menu_id WHERE mi.id = 21").await,
        "products Products /c/products"
    );
    let under_21 = dump(
        &pool,
        "SELECT label || ' ' || link FROM menu_item WHERE parent = 21 ORDER BY label",
    )
    .await;
    let tops = dump(&pool, "SELECT name || ' /c/' || seo_url FROM category WHERE parent = 1 AND type = 'product' ORDER BY name").await;
    assert_eq!(under_21, tops);
    assert!(under_21.lines().count() >= 6, "{under_21}");
    assert_eq!(
        dump(&pool, "SELECT c.label || ' ' || c.link FROM menu_item c JOIN menu_item t ON t.id = c.parent WHERE t.parent = 21 ORDER BY c.label").await,
        dump(&pool, "SELECT s.name || ' /c/' || s.seo_url FROM category s JOIN category t ON t.id = s.parent WHERE t.parent = 1 ORDER BY s.name").await
    );
    assert_eq!(
        scalar(&pool, "SELECT COUNT(*) FROM menu WHERE location = 'footer'").await,
        4
    );
    // Every menu link under /page/ names a CMS page by its seo_url (the
    // generator writes CMS pages at /page/{seo_url} only) or one of the
    // shop's own pages (SPEC.md §2).
    const SHOP_PAGES: [&str; 8] = [
        "bundle-offers",
        "chatbuy",
        "contact",
        "flash-sale",
        "prebooking",
        "showrooms",
        "top-offers",
        "track-order",
    ];
    let page_links = dump(
        &pool,
        "SELECT link FROM menu_item WHERE link LIKE '/page/%' ORDER BY id",
    )
    .await;
    let slugs = dump(&pool, "SELECT seo_url FROM page ORDER BY id").await;
    let slugs: Vec<&str> = slugs.lines().collect();
    assert!(page_links.lines().count() >= 8, "{page_links}");
    for link in page_links.lines() {
        let slug = &link["/page/".len()..];
        assert!(
            slugs.contains(&slug) || SHOP_PAGES.contains(&slug),
            "menu link {link} names no page (pages: {slugs:?})"
        );
    }
    // Product sets with items and fabrics; posts of both kinds; interiors with images; showrooms; coupons.
    assert!(scalar(&pool, "SELECT COUNT(*) FROM product_set").await >= 3);
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product_set s WHERE NOT EXISTS (SELECT 1 FROM fabric f WHERE f.product_set_id = s.id)").await, 0);
    assert!(scalar(&pool, "SELECT COUNT(*) FROM post WHERE kind = 'blog'").await >= 10);
    assert!(scalar(&pool, "SELECT COUNT(*) FROM post WHERE kind = 'news'").await >= 10);
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM interior i WHERE (SELECT COUNT(*) FROM interior_image ii WHERE ii.interior_id = i.id) < 4").await, 0);
    assert!(
        scalar(
            &pool,
            "SELECT COUNT(DISTINCT district_id) FROM showroom WHERE shop_type = 'Showroom'"
        )
        .await
            >= 8
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM coupon WHERE used_limit IS NOT NULL AND used_count >= used_limit"
        )
        .await,
        1
    );
    // Demo shoppers with argon2id hashes, default addresses, orders, and reviews only of what they received.
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM app_user WHERE password_hash LIKE '$argon2id$%'"
        )
        .await,
        4
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM app_user WHERE default_shipping_address_id IS NULL"
        )
        .await,
        0
    );
    assert!(scalar(&pool, "SELECT COUNT(*) FROM order_master").await >= 4);
    assert_eq!(
        scalar(&pool, "SELECT COUNT(*) FROM review r WHERE NOT EXISTS (SELECT 1 FROM order_detail d JOIN order_master o ON o.id = d.order_id WHERE o.user_id = r.user_id AND d.product_id = r.product_id AND o.order_status = 'delivered')").await,
        0
    );
    // Icons of product images exist and are small squares.
    let icons: Vec<(String,)> = db::query_as(
        "SELECT DISTINCT f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for (p,) in &icons {
        assert_eq!(
            image::image_dimensions(dir.path().join(p)).unwrap(),
            (300, 300),
            "{p}"
        );
    }
    // Spelling variants: the CSV's name (unquoted) with the other spellings as aliases.
    assert_eq!(
        dump(&pool, "SELECT name || ':' || aliases FROM district WHERE name IN ('Cox''s Bazar', 'Cumilla', 'Chattogram', 'Bogura') ORDER BY name").await,
        "Bogura:Bogra\nChattogram:Chittagong\nCox's Bazar:Coxsbazar|Coxs Bazar|Cox Bazar\nCumilla:Comilla"
    );
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM district WHERE name LIKE '%\"%'"
        )
        .await,
        0
    );
    assert_eq!(
        dump(&pool, "SELECT zone || ' ' || charge || ' ' || free_from FROM delivery_charge_setting ORDER BY zone").await,
        "inside_dhaka 200 3000\noutside_dhaka 300 5000"
    );
    // The running flash sale has about 20 items at 10-40 % off.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM flash_item WHERE schedule_id = 1 AND discount_percent BETWEEN 10 AND 40").await, 20);
    // EMI: every product from ৳20,000 offers it, in 3, 6, 9 or 12 months; no cheap product does.
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM product WHERE (price_now >= 20000) <> (emi_available = 1)"
        )
        .await,
        0
    );
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product p WHERE emi_available = 1 AND NOT EXISTS (SELECT 1 FROM product_emi e WHERE e.product_id = p.id)").await, 0);
    assert_eq!(
        dump(
            &pool,
            "SELECT DISTINCT CAST(months AS TEXT) FROM product_emi ORDER BY months"
        )
        .await,
        "3\n6\n9\n12"
    );
    // Variations (by colour and by size) have codes of their own and sane prices.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product_variation v JOIN product p ON p.product_code = v.product_code").await, 0);
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(DISTINCT attribute) FROM product_variation"
        )
        .await,
        2
    );
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product p WHERE enable_variation = 1 AND NOT EXISTS (SELECT 1 FROM product_variation v WHERE v.product_id = p.id)").await, 0);
    // Pre-bookings ask for 20-50 % up front; some products are out of stock, some discounted.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product WHERE pre_booking = 1 AND pre_booking_min_percent NOT BETWEEN 20 AND 50").await, 0);
    assert!(scalar(&pool, "SELECT COUNT(*) FROM product WHERE stock = 0").await > 0);
    assert!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM product WHERE price_now < price_before"
        )
        .await
            > 0
    );
    // About a tenth of the products turn in 360 degrees.
    let turning = scalar(
        &pool,
        "SELECT COUNT(DISTINCT product_id) FROM product_360_frame",
    )
    .await;
    assert!(
        (10..=60).contains(&turning),
        "{turning} products with 360 frames"
    );
    // Widget 15 (pre-booking) is active; 20 blog and 20 news posts.
    assert_eq!(
        scalar(&pool, "SELECT is_active FROM widget WHERE id = 15").await,
        1
    );
    assert_eq!(
        scalar(&pool, "SELECT COUNT(*) FROM post WHERE kind = 'news'").await,
        20
    );
    // The seed folds its WAL into the database file.
    let wal = dir.path().join("shop.db-wal");
    assert_eq!(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0), 0);
    // Settings the pages read; the change log starts empty.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM setting WHERE name IN ('com_name', 'home_category', 'disable_buy', 'footer_support')").await, 4);
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM change_log").await, 0);
}

#[tokio::test]
async fn seeding_a_database_that_has_products_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_pool_db, pool) = seeded(dir.path(), 20, 1).await;
    let options = SeedOptions {
        products: 20,
        seed: 1,
        storage_dir: dir.path().join("storage"),
        now: NOW,
        progress: false,
    };
    let err = seed(&pool, &options).await.unwrap_err();
    assert!(err.to_string().contains("already has 20 products"), "{err}");
}
