//! The demo catalogue, seeded into real databases (SQLite files, or
//! PostgreSQL databases when `TEST_POSTGRES_URL` is set): deterministic,
//! complete, and consistent with the shop's rules.

use std::path::Path;

use catalog::db::testing::TestDatabase;
use catalog::db::{self, Pool};
use demo::{seed, SeedOptions};

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

/// A boolean expression's value (BOOLEAN on PostgreSQL, 0/1 on SQLite: both decode as bool).
async fn truth(pool: &Pool, sql: &str) -> bool {
    db::query_scalar(sql).fetch_one(pool).await.unwrap()
}

/// A digest of a table's rows, in id order (everything but nothing else).
async fn dump(pool: &Pool, sql: &str) -> String {
    let rows: Vec<(String,)> = db::query_as(sql).fetch_all(pool).await.unwrap();
    rows.into_iter().map(|r| r.0).collect::<Vec<_>>().join("\n")
}

/// Digests that read the same on both databases (numbers cast to text: `||`
/// between two numbers is an error on PostgreSQL).
const DIGEST_QUERIES: [&str; 10] = [
    "SELECT CAST(id AS TEXT) || title || sub_title || product_code || sku || seo_url || CAST(price_before AS TEXT) || ',' || CAST(price_now AS TEXT) || ',' || CAST(stock AS TEXT) || ',' || CAST(created_at AS TEXT) FROM product ORDER BY id",
    "SELECT CAST(id AS TEXT) || name || seo_url || COALESCE(CAST(parent AS TEXT), '-') || COALESCE(CAST(banner1 AS TEXT), '-') FROM category ORDER BY id",
    "SELECT CAST(id AS TEXT) || filename || CAST(file_size AS TEXT) || ',' || CAST(width AS TEXT) || ',' || CAST(height AS TEXT) FROM image_file ORDER BY id",
    "SELECT CAST(product_id AS TEXT) || attribute || value || product_code || CAST(price_now AS TEXT) FROM product_variation ORDER BY id",
    "SELECT CAST(product_id AS TEXT) || bank || CAST(months AS TEXT) || ',' || CAST(interest_bp AS TEXT) FROM product_emi ORDER BY id",
    "SELECT CAST(id AS TEXT) || ',' || CAST(menu_id AS TEXT) || ',' || CAST(parent AS TEXT) || label || link FROM menu_item ORDER BY id",
    "SELECT CAST(product_id AS TEXT) || ',' || CAST(image_file_id AS TEXT) || ',' || CAST(sort AS TEXT) FROM product_image ORDER BY id",
    "SELECT CAST(product_id AS TEXT) || ',' || CAST(attribute_value_id AS TEXT) FROM product_attribute ORDER BY product_id, attribute_value_id",
    "SELECT CAST(schedule_id AS TEXT) || ',' || CAST(product_id AS TEXT) || ',' || CAST(discount_percent AS TEXT) FROM flash_item ORDER BY id",
    "SELECT order_random || customer_name || CAST(grand_total AS TEXT) || password_hash FROM order_master JOIN app_user u ON u.id = user_id ORDER BY order_master.id",
];

/// Every row of every table the seed fills, column by column, in insertion
/// order (the migrations' bookkeeping table is left out: it records when
/// the migration ran).
async fn whole_database(pool: &Pool) -> String {
    let postgres = pool.dialect() == db::Dialect::Postgres;
    let tables = db::table_names(pool).await.unwrap();
    let mut out = String::new();
    for table in tables {
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
    let (db, pool) = seeded(dir.path(), 300, 1).await;

    // Every product has 3 to 6 images, and the files exist and decode.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM (SELECT product_id FROM product_image GROUP BY product_id HAVING COUNT(*) BETWEEN 3 AND 6) per_product").await, 300);
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
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM (SELECT product_id FROM product_360_frame GROUP BY product_id HAVING COUNT(*) <> 36) per_product").await, 0);
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
        scalar(&pool, "SELECT COUNT(*) FROM product_category pc JOIN category c ON c.id = pc.category_id JOIN category t ON t.id = c.parent WHERE pc.is_primary AND t.parent = 1").await,
        300
    );
    assert!(
        truth(
            &pool,
            "SELECT seo_url = 'products' AND parent IS NULL FROM category WHERE id = 1"
        )
        .await
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
    assert_eq!(scalar(&pool, &format!("SELECT COUNT(*) FROM flash_schedule WHERE is_active AND starts_at <= {NOW} AND ends_at > {NOW}")).await, 1);
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
            "SELECT COUNT(*) FROM widget WHERE id IN (5, 22) AND is_active"
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
            "SELECT COUNT(*) FROM product WHERE (price_now >= 20000) <> emi_available"
        )
        .await,
        0
    );
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product p WHERE emi_available AND NOT EXISTS (SELECT 1 FROM product_emi e WHERE e.product_id = p.id)").await, 0);
    assert_eq!(
        dump(
            &pool,
            "SELECT CAST(e.months AS TEXT) FROM (SELECT DISTINCT months FROM product_emi) e ORDER BY e.months"
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
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product p WHERE enable_variation AND NOT EXISTS (SELECT 1 FROM product_variation v WHERE v.product_id = p.id)").await, 0);
    // Pre-bookings ask for 20-50 % up front; some products are out of stock, some discounted.
    assert_eq!(scalar(&pool, "SELECT COUNT(*) FROM product WHERE pre_booking AND pre_booking_min_percent NOT BETWEEN 20 AND 50").await, 0);
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
    assert!(truth(&pool, "SELECT is_active FROM widget WHERE id = 15").await);
    assert_eq!(
        scalar(&pool, "SELECT COUNT(*) FROM post WHERE kind = 'news'").await,
        20
    );
    // The seed folds its WAL into the database file (SQLite).
    if let Some(file) = db.sqlite_file() {
        let wal = file.with_file_name("shop.db-wal");
        assert_eq!(std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0), 0);
    }
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

/// Rows by product, in product order (for comparing answers).
fn sorted<T>(rows: catalog::read::site::ByProduct<T>) -> std::collections::BTreeMap<i64, Vec<T>> {
    rows.into_iter().collect()
}

/// Every read query of `catalog::read` (and the pricing queries) answers on
/// a seeded shop, with rows where the seed made some: each one's SQL runs on
/// the database under test. Returns what they answered, as JSON.
async fn read_everything(pool: &Pool) -> serde_json::Value {
    use catalog::read::{
        self, card, category, content, flash, home, interior, listing, product, site,
    };
    use serde_json::{json, to_value};
    let now = NOW;
    let page = read::PageRequest::new(1, 12);
    let mut out = serde_json::Map::new();
    let mut put = |name: &str, value: serde_json::Value| {
        let empty = value.is_null()
            || value.as_array().is_some_and(|a| a.is_empty())
            || value.as_object().is_some_and(|o| o.is_empty());
        assert!(!empty, "{name} answered nothing");
        out.insert(name.to_string(), value);
    };

    let products = site::product_slugs(pool).await.unwrap();
    let ids: Vec<i64> = products.iter().map(|s| s.id).collect();
    put("product_slugs", to_value(&products).unwrap());
    put(
        "cards",
        to_value(card::cards(pool, &ids[..20], now).await.unwrap()).unwrap(),
    );

    let root = category::by_seo_url(pool, "products")
        .await
        .unwrap()
        .unwrap();
    let subs = category::sub_categories(pool, root.id).await.unwrap();
    let top = category::by_seo_url(pool, &subs[0].seo_url)
        .await
        .unwrap()
        .unwrap();
    let leaf_id = category::sub_categories(pool, top.id).await.unwrap()[0].id;
    put("sub_categories", to_value(&subs).unwrap());
    put(
        "subtree_ids",
        to_value(category::subtree_ids(pool, top.id).await.unwrap()).unwrap(),
    );
    put(
        "category_filters",
        to_value(category::category_filters(pool, &top).await.unwrap()).unwrap(),
    );
    put(
        "attribute_filters",
        to_value(category::attribute_filters(pool, top.id).await.unwrap()).unwrap(),
    );
    put(
        "attribute_slugs",
        to_value(category::attribute_slugs(pool).await.unwrap()).unwrap(),
    );
    let galleries = site::tag_gallery(pool).await.unwrap();
    put("site_tag_gallery", to_value(&galleries).unwrap());
    for c in site::category_tree(pool).await.unwrap() {
        if galleries.iter().any(|g| g.kind == c.id) {
            let info = category::by_seo_url(pool, &c.seo_url)
                .await
                .unwrap()
                .unwrap();
            put(
                "tag_gallery",
                to_value(category::tag_gallery(pool, &info).await.unwrap()).unwrap(),
            );
            break;
        }
    }
    put(
        "product_sets_of_root",
        to_value(
            category::product_sets(pool, root.id, 0, i64::MAX, now)
                .await
                .unwrap(),
        )
        .unwrap(),
    );

    let (posts, total) = content::posts(pool, "blog", 5).await.unwrap();
    assert!(total >= 5);
    put(
        "post",
        to_value(content::post(pool, &posts[0].seo_url, now).await.unwrap()).unwrap(),
    );
    put("posts", to_value(&posts).unwrap());
    let pages = site::page_slugs(pool).await.unwrap();
    put(
        "page",
        to_value(content::page(pool, pages[0].id).await.unwrap()).unwrap(),
    );
    let _ = content::seo_meta(pool, "product", ids[0]).await.unwrap();
    assert!(content::seo_target_exists(pool, "product", ids[0])
        .await
        .unwrap());
    assert!(!content::seo_target_exists(pool, "post", 999_999)
        .await
        .unwrap());
    put(
        "header",
        to_value(content::header(pool).await.unwrap()).unwrap(),
    );
    put(
        "footer",
        to_value(content::footer(pool).await.unwrap()).unwrap(),
    );
    put(
        "product_menu",
        to_value(content::product_menu(pool).await.unwrap()).unwrap(),
    );
    put(
        "terms",
        to_value(content::terms(pool, None).await.unwrap()).unwrap(),
    );
    put(
        "terms_of_root",
        to_value(content::terms(pool, Some(root.id)).await.unwrap()).unwrap(),
    );
    put(
        "districts",
        to_value(content::districts(pool).await.unwrap()).unwrap(),
    );
    let chittagong = content::district_id(pool, " chittagong ").await.unwrap();
    put("district_id", to_value(chittagong).unwrap());
    put(
        "showrooms",
        to_value(
            content::showrooms(pool, "Showroom", None, None)
                .await
                .unwrap(),
        )
        .unwrap(),
    );
    // The plain search ignores case on both databases.
    let first = &site::products(pool, &ids[..1], now).await.unwrap()[0];
    let (hits, _) = content::search_like(pool, &first.title.to_uppercase())
        .await
        .unwrap();
    assert!(
        hits.iter().any(|h| h.id == first.id),
        "{} not found",
        first.title
    );
    let (_, terms) = content::search_like(pool, &subs[0].name.to_lowercase())
        .await
        .unwrap();
    assert!(!terms.is_empty(), "no category for {}", subs[0].name);
    put("search_like", to_value(&hits).unwrap());

    let running = flash::running_flash(pool, now).await.unwrap().unwrap();
    assert!(flash::flash_item_count(pool, running.id).await.unwrap() > 0);
    put(
        "flash_items",
        to_value(
            flash::flash_items(pool, running.id, 5, 0, now)
                .await
                .unwrap(),
        )
        .unwrap(),
    );
    put("running_flash", to_value(&running).unwrap());

    put(
        "image_files",
        to_value(
            home::image_files(pool, &[1, 2, 3])
                .await
                .unwrap()
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        )
        .unwrap(),
    );
    put(
        "sliders",
        to_value(home::sliders(pool, 0, 1).await.unwrap()).unwrap(),
    );
    let home_ids: Vec<i64> = subs.iter().map(|c| c.id).collect();
    put(
        "categories_in_order",
        to_value(home::categories_in_order(pool, &home_ids).await.unwrap()).unwrap(),
    );
    put(
        "top_offer_ids",
        to_value(home::top_offer_ids(pool, 10).await.unwrap()).unwrap(),
    );
    put(
        "recommended_ids",
        to_value(home::recommended_ids(pool, 10).await.unwrap()).unwrap(),
    );
    put(
        "prebooking_ids",
        to_value(home::prebooking_ids(pool, 10).await.unwrap()).unwrap(),
    );
    put(
        "new_arrival_ids",
        to_value(home::new_arrival_ids(pool, 10).await.unwrap()).unwrap(),
    );
    put(
        "widget",
        to_value(home::widget(pool, 5).await.unwrap()).unwrap(),
    );
    put(
        "tag_terms",
        to_value(home::tag_terms(pool).await.unwrap()).unwrap(),
    );
    put(
        "tag_tiles",
        to_value(home::tag_tiles(pool, None, 6).await.unwrap()).unwrap(),
    );

    let interiors = site::interiors(pool).await.unwrap();
    put(
        "interior_by_slug",
        to_value(interior::by_slug(pool, &interiors[0].slug).await.unwrap()).unwrap(),
    );
    let (list, total) = interior::interiors(pool, None, page).await.unwrap();
    assert!(total > 0);
    put("interiors", to_value(&list).unwrap());
    let root_interior = interior::category(pool, interior::ROOT_SEO_URL)
        .await
        .unwrap()
        .unwrap();
    put(
        "interior_children",
        to_value(interior::children(pool, root_interior.id).await.unwrap()).unwrap(),
    );
    let within = interior::subtree_ids(pool, root_interior.id).await.unwrap();
    put("interior_subtree", to_value(&within).unwrap());
    let (_, total) = interior::interiors(pool, Some(&within), page)
        .await
        .unwrap();
    assert!(total > 0);

    let query = listing::ProductQuery {
        categories: Some(vec![top.id]),
        sort: listing::Sort::PriceAsc,
        ..Default::default()
    };
    put(
        "listing",
        to_value(
            listing::page(pool, &query, page, now, "/c/x", &[])
                .await
                .unwrap(),
        )
        .unwrap(),
    );
    let facets = listing::facets(pool, &query, now).await.unwrap();
    assert_eq!(
        facets.price_bands.iter().map(|b| b.count).sum::<i64>(),
        listing::product_ids(pool, &query, page, now)
            .await
            .unwrap()
            .1
    );
    put("facets", to_value(&facets).unwrap());
    let searched = listing::ProductQuery {
        only: Some(ids[..5].iter().rev().copied().collect()),
        price_min: Some(0),
        price_max: Some(10_000_000),
        ..Default::default()
    };
    let (found, _) = listing::product_ids(pool, &searched, page, now)
        .await
        .unwrap();
    assert_eq!(found, ids[..5].iter().rev().copied().collect::<Vec<_>>());

    let emi_product = {
        let mut found = None;
        for id in &ids {
            if !site::emi_offers(pool, &[*id]).await.unwrap().is_empty() {
                found = Some(*id);
                break;
            }
        }
        found.unwrap()
    };
    let p = emi_product;
    assert_eq!(
        product::id_by_seo_url(pool, &products.iter().find(|s| s.id == p).unwrap().slug)
            .await
            .unwrap(),
        Some(p)
    );
    put(
        "detail",
        to_value(product::detail(pool, p, now).await.unwrap()).unwrap(),
    );
    put(
        "images",
        to_value(product::images(pool, p).await.unwrap()).unwrap(),
    );
    for (name, kind) in [
        ("related_similar", product::Related::Similar),
        ("related_same", product::Related::SameCategory),
        ("related_goes_well", product::Related::GoesWellWith),
        ("related_other", product::Related::OtherAlsoSee),
    ] {
        put(
            name,
            to_value(product::related_ids(pool, p, kind, 6, now).await.unwrap()).unwrap(),
        );
    }
    let _ = product::frames_360(pool, p).await.unwrap();
    let _ = product::questions(pool, p, 5, now).await.unwrap();
    let _ = product::comments(pool, p, 5, now).await.unwrap();
    let _ = product::variation_list(pool, p).await.unwrap();
    let _ = product::recently_viewed_ids(pool, Some(1), Some("token"), 5)
        .await
        .unwrap();
    let sets = site::product_sets(pool).await.unwrap();
    let set = product::product_set(pool, &sets[0].slug, now)
        .await
        .unwrap()
        .unwrap();
    assert!(set.price_all > 0);
    let _ = product::set_category(pool, &set).await.unwrap();
    put(
        "set_products",
        to_value(product::set_products(pool, set.id, now).await.unwrap()).unwrap(),
    );
    put(
        "fabrics",
        to_value(product::fabrics(pool, set.id).await.unwrap()).unwrap(),
    );
    let _ = product::set_infos(pool, set.id).await.unwrap();
    put("product_set", to_value(&set).unwrap());

    put(
        "category_slugs",
        to_value(site::category_slugs(pool).await.unwrap()).unwrap(),
    );
    put(
        "product_set_slugs",
        to_value(site::product_set_slugs(pool).await.unwrap()).unwrap(),
    );
    put(
        "post_slugs",
        to_value(site::post_slugs(pool, "news").await.unwrap()).unwrap(),
    );
    put(
        "interior_slugs",
        to_value(site::interior_slugs(pool).await.unwrap()).unwrap(),
    );
    put(
        "settings",
        to_value(site::settings(pool).await.unwrap()).unwrap(),
    );
    put(
        "active_widget",
        to_value(site::active_widget(pool, 5).await.unwrap()).unwrap(),
    );
    put(
        "gallery_images",
        to_value(sorted(
            site::gallery_images(pool, &ids[..10]).await.unwrap(),
        ))
        .unwrap(),
    );
    put(
        "media",
        to_value(sorted(site::media(pool, &ids[..10]).await.unwrap())).unwrap(),
    );
    put(
        "attributes",
        to_value(sorted(site::attributes(pool, &ids[..10]).await.unwrap())).unwrap(),
    );
    let _ = site::variations(pool, &ids).await.unwrap();
    let _ = site::questions(pool, &ids, 3).await.unwrap();
    let _ = site::comments(pool, &ids, 3).await.unwrap();
    let reviews = site::review_summaries(pool, &ids).await.unwrap();
    put(
        "review_summaries",
        to_value(
            reviews
                .into_iter()
                .collect::<std::collections::BTreeMap<_, _>>(),
        )
        .unwrap(),
    );
    put(
        "placements",
        to_value(site::placements(pool, now).await.unwrap()).unwrap(),
    );
    let mut members = site::category_members(pool).await.unwrap();
    members.sort();
    put("category_members", to_value(members).unwrap());
    put(
        "site_sliders",
        to_value(site::sliders(pool).await.unwrap()).unwrap(),
    );
    put(
        "filter_values",
        to_value(site::filter_values(pool).await.unwrap()).unwrap(),
    );
    put(
        "home_strips",
        to_value(site::home_strips(pool, now, 8).await.unwrap()).unwrap(),
    );
    put(
        "flash_sale",
        to_value(site::flash_sale(pool, now).await.unwrap()).unwrap(),
    );
    put(
        "site_posts",
        to_value(site::posts(pool, "blog").await.unwrap()).unwrap(),
    );
    put(
        "cms_pages",
        to_value(site::cms_pages(pool).await.unwrap()).unwrap(),
    );
    put(
        "interior_images",
        to_value(site::interior_images(pool).await.unwrap()).unwrap(),
    );
    put("site_product_sets", to_value(&sets).unwrap());
    put(
        "product_set_items",
        to_value(site::product_set_items(pool).await.unwrap()).unwrap(),
    );
    put(
        "product_set_extras",
        to_value(site::product_set_extras(pool).await.unwrap()).unwrap(),
    );
    put(
        "site_showrooms",
        to_value(site::showrooms(pool).await.unwrap()).unwrap(),
    );

    let next = catalog::pricing::next_price_change(pool, now)
        .await
        .unwrap()
        .unwrap();
    assert!(next > now);
    put(
        "products_repriced",
        to_value(
            catalog::pricing::products_repriced(pool, now, next)
                .await
                .unwrap(),
        )
        .unwrap(),
    );
    put("leaf", json!(leaf_id));
    serde_json::Value::Object(out)
}

#[tokio::test]
async fn every_read_query_answers_on_a_seeded_shop() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, pool) = seeded(dir.path(), 150, 3).await;
    let answers = read_everything(&pool).await;
    if let Ok(file) = std::env::var("READ_ANSWERS_OUT") {
        std::fs::write(file, serde_json::to_string_pretty(&answers).unwrap()).unwrap();
    }
}

/// Every product of a seeded catalogue says one thing about itself: its
/// name, its sub-title, its attributes, its pictures (photos, thumbnails,
/// 360 frames, variations) and its category agree (issue 21).
#[tokio::test]
async fn every_seeded_product_is_coherent() {
    use std::collections::{BTreeSet, HashMap};
    let dir = tempfile::tempdir().unwrap();
    let (_db, pool) = seeded(dir.path(), 1500, 5).await;

    // Each product's attributes by field name.
    let rows: Vec<(i64, String, String)> = db::query_as(
        "SELECT pa.product_id, a.field_name, v.value FROM product_attribute pa \
         JOIN attribute_value v ON v.id = pa.attribute_value_id JOIN attribute a ON a.id = v.attribute_id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut attrs: HashMap<i64, HashMap<String, String>> = HashMap::new();
    for (id, field, value) in rows {
        let old = attrs.entry(id).or_default().insert(field.clone(), value);
        assert!(old.is_none(), "product {id} has two values of {field}");
    }
    let products: Vec<(i64, String, String, String)> = db::query_as(
        "SELECT p.id, p.title, p.sub_title, c.seo_url FROM product p \
         JOIN product_category pc ON pc.product_id = p.id AND pc.is_primary \
         JOIN category c ON c.id = pc.category_id ORDER BY p.id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(products.len(), 1500);
    fn size_words(size: &str) -> &str {
        match size {
            "Queen" => "Queen Size",
            "King" => "King Size",
            "3+2+1 Set" => "3+2+1",
            s => s,
        }
    }
    let all_sizes = [
        "Toddler",
        "Single",
        "Semi-Double",
        "Queen",
        "King",
        "2 Seater",
        "3 Seater",
        "3+2+1 Set",
        "L-Shape",
        "4 Seater",
        "6 Seater",
        "8 Seater",
        "2 Door",
        "3 Door",
        "4 Door",
        "4 x 6 ft",
        "5 x 7 ft",
        "6 x 9 ft",
    ];
    let materials = [
        "Segun Wood",
        "Mahogany",
        "Oak",
        "Engineered Wood",
        "Metal",
        "Fabric",
        "Leather",
    ];
    let mut attribute_sets: HashMap<String, BTreeSet<String>> = HashMap::new();
    for (id, title, sub_title, category) in &products {
        let a = &attrs[id];
        let (material, colour, finish) = (&a["material"], &a["colour"], &a["finish"]);
        let size = a.get("size");
        // The sub-title is exactly its colour, size and finish.
        let expected = match size {
            Some(s) => format!("{colour} | {s} | {finish}"),
            None => format!("{colour} | {finish}"),
        };
        assert_eq!(sub_title, &expected, "{id} {title}");
        // No other size in the name ("King Size Bed — Single").
        for other in all_sizes {
            if Some(&other.to_string()) != size {
                let words = size_words(other);
                let clash = title
                    .split(' ')
                    .collect::<Vec<_>>()
                    .windows(words.split(' ').count())
                    .any(|w| w.join(" ") == words);
                assert!(!clash, "{id} {title} is {size:?} but named {words}");
            }
        }
        // A material in the name is its material.
        for m in materials {
            if title.contains(m) {
                assert_eq!(m, material, "{id} {title}");
            }
        }
        // Colours and finishes a material comes in.
        let (colours, finishes): (&[&str], &[&str]) = match material.as_str() {
            "Segun Wood" | "Mahogany" | "Oak" => (
                &["Walnut", "Natural Teak", "Dark Brown", "White"],
                &["Matte", "Glossy", "Lacquer"],
            ),
            "Engineered Wood" => (
                &["Walnut", "Dark Brown", "White", "Grey"],
                &["Matte", "Glossy", "Veneer"],
            ),
            "Metal" => (&["Black", "Grey", "White"], &["Powder Coated", "Matte"]),
            "Fabric" => (&["Grey", "Royal Blue", "Beige"], &["Woven", "Velvet"]),
            _ => (&["Dark Brown", "Black", "Beige"], &["Matte", "Glossy"]),
        };
        assert!(
            colours.contains(&colour.as_str()),
            "{id} {title}: {material} in {colour}"
        );
        assert!(
            finishes.contains(&finish.as_str()),
            "{id} {title}: {material} with a {finish} finish"
        );
        // Kids' beds in kids' sizes; leather never on a kids' chair.
        if category == "kids-beds" {
            assert!(
                matches!(size.map(String::as_str), Some("Toddler" | "Single")),
                "{id} {title}: {size:?}"
            );
        }
        // Every product of a category has the same attributes.
        let names: BTreeSet<String> = a.keys().cloned().collect();
        let first = attribute_sets
            .entry(category.clone())
            .or_insert_with(|| names.clone());
        assert_eq!(first, &names, "{id} {title} in {category}");
    }
    // A product also listed in kids' beds is a kids' size too.
    let kids: Vec<(i64,)> = db::query_as(
        "SELECT pc.product_id FROM product_category pc JOIN category c ON c.id = pc.category_id WHERE c.seo_url = 'kids-beds'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(!kids.is_empty());
    for (id,) in kids {
        let size = attrs[&id].get("size").map(String::as_str);
        assert!(
            matches!(size, Some("Toddler" | "Single")),
            "{id} in kids-beds is {size:?}"
        );
    }

    // Photos, thumbnails and 360 frames: one drawing, in the product's colour
    // (file names are `{kind}-{colour}-{view}` and `360-{kind}-{colour}-{frame}`).
    let pictures: Vec<(i64, String, String)> = db::query_as(
        "SELECT pi.product_id, f.filename, f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
         UNION ALL SELECT fr.product_id, f.filename, f.icon_size_directory FROM product_360_frame fr JOIN image_file f ON f.id = fr.image_file_id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut seen: HashMap<i64, BTreeSet<(String, String)>> = HashMap::new();
    for (id, name, icon) in pictures {
        assert!(icon.ends_with(&name), "{icon} is the thumbnail of {name}");
        let name = name.trim_start_matches("360-");
        let (kind, rest) = name.split_once('-').unwrap();
        let colour = demo::images::COLOURS
            .iter()
            .map(|c| demo::images::slug(c.0))
            .find(|c| rest.starts_with(&format!("{c}-")))
            .unwrap_or_else(|| panic!("{name} names no colour"));
        seen.entry(id)
            .or_default()
            .insert((kind.to_string(), colour));
    }
    for (id, title, ..) in &products {
        let drawn = &seen[id];
        assert_eq!(drawn.len(), 1, "{id} {title} shows {drawn:?}");
        let colour = demo::images::slug(&attrs[id]["colour"]);
        assert_eq!(drawn.iter().next().unwrap().1, colour, "{id} {title}");
    }
    assert!(
        scalar(
            &pool,
            "SELECT COUNT(DISTINCT product_id) FROM product_360_frame"
        )
        .await
            >= 50
    );
    // A colour variation's picture is of its colour.
    let variations: Vec<(String, String)> = db::query_as(
        "SELECT v.value, f.filename FROM product_variation v JOIN image_file f ON f.id = v.image_file_id WHERE v.attribute = 'Colour'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(!variations.is_empty());
    for (colour, file) in variations {
        assert!(
            file.contains(&format!("-{}-", demo::images::slug(&colour))),
            "{colour} variation shows {file}"
        );
    }
    // No placeholder video.
    assert_eq!(
        scalar(
            &pool,
            "SELECT COUNT(*) FROM product_video WHERE url LIKE '%youtube%'"
        )
        .await,
        0
    );

    // No two products alike: the same name with the same colour, size and
    // finish (the duplicate wardrobes WDH-201 and WDH-215).
    let mut names: HashMap<(&str, &str), i64> = HashMap::new();
    for (id, title, sub_title, _) in &products {
        if let Some(other) = names.insert((title, sub_title), *id) {
            panic!("{other} and {id} are both {title} ({sub_title})");
        }
    }

    // Review texts fit the product's material: no solid wood on a metal chair.
    let reviews: Vec<(i64, String)> = db::query_as("SELECT product_id, comment FROM review")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(!reviews.is_empty());
    for (id, text) in &reviews {
        let material = attrs[id]["material"].as_str();
        let text = text.to_lowercase();
        for (word, fits) in [
            (
                "wood",
                &["Segun Wood", "Mahogany", "Oak", "Engineered Wood"][..],
            ),
            ("leather", &["Leather"][..]),
            ("fabric", &["Fabric"][..]),
            ("metal", &["Metal"][..]),
            ("stitch", &["Fabric", "Leather"][..]),
        ] {
            assert!(
                !text.contains(word) || fits.contains(&material),
                "a review of {id} ({material}) says {text:?}"
            );
        }
    }

    // A product set is one collection (every piece bears the set's
    // collection name), of the sizes its name promises: no single bed in a
    // master bedroom, no adult bed in a kids' room.
    let set_rows: Vec<(i64, String, i64)> = db::query_as(
        "SELECT s.id, s.title, i.product_id FROM product_set s \
         JOIN product_set_item i ON i.product_set_id = s.id ORDER BY s.id, i.sort",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let titles: HashMap<i64, &str> = products
        .iter()
        .map(|(id, title, ..)| (*id, title.as_str()))
        .collect();
    let mut collections = BTreeSet::new();
    let mut sets_seen = BTreeSet::new();
    for (set, set_title, product) in &set_rows {
        let collection = set_title.split(' ').next().unwrap();
        let title = titles[product];
        assert_eq!(
            title.split(' ').next().unwrap(),
            collection,
            "{set_title} holds {title}"
        );
        if sets_seen.insert(*set) {
            assert!(
                collections.insert(collection.to_string()),
                "two sets of the {collection} collection"
            );
        }
        let size = attrs[product].get("size").map(String::as_str);
        let bed = title.ends_with(" Bed") || title.ends_with(" Beds");
        if set_title.contains("Master Bedroom") && bed {
            assert!(
                matches!(size, Some("Queen" | "King")),
                "{set_title} holds {title} ({size:?})"
            );
        }
        if set_title.contains("Kids") && bed {
            assert!(
                matches!(size, Some("Toddler" | "Single")),
                "{set_title} holds {title} ({size:?})"
            );
        }
    }
    assert!(sets_seen.len() >= 5, "{sets_seen:?}");
    assert!(
        set_rows.len() >= 2 * sets_seen.len(),
        "{} pieces in {} sets",
        set_rows.len(),
        sets_seen.len()
    );

    // Posts link products that fit what they say: a post about small rooms
    // links no king or queen bed, one about a table for six a six-seater.
    let by_slug: HashMap<String, i64> =
        db::query_as::<(String, i64)>("SELECT seo_url, id FROM product")
            .fetch_all(&pool)
            .await
            .unwrap()
            .into_iter()
            .collect();
    let posts: Vec<(String, String)> = db::query_as("SELECT title, description FROM post")
        .fetch_all(&pool)
        .await
        .unwrap();
    let mut checked = 0;
    for (post, html) in &posts {
        let small = post.to_lowercase().contains("small room");
        let six = post.to_lowercase().contains("for six");
        for link in html.split("href=\"/product/").skip(1) {
            let slug = link.split('"').next().unwrap();
            let size = attrs[&by_slug[slug]].get("size").map(String::as_str);
            if small {
                checked += 1;
                assert!(
                    !matches!(
                        size,
                        Some("Queen" | "King" | "8 Seater" | "L-Shape" | "3+2+1 Set" | "4 Door")
                    ),
                    "{post} links {slug} ({size:?})"
                );
            }
            if six {
                checked += 1;
                assert_eq!(size, Some("6 Seater"), "{post} links {slug}");
            }
        }
    }
    assert!(checked >= 2, "{checked} links of sized posts checked");

    check_videos(&pool, &dir.path().join("storage")).await;
}

/// The products that claim a video have a real one in the storage: a WebM
/// file (its EBML header, document type `webm`, a duration of a few
/// seconds; with ffprobe, a VP9 stream too) made from their own 360 frames,
/// the first frame its poster. Without ffmpeg (and no cached videos) the
/// seed makes none, and no product claims one.
async fn check_videos(pool: &Pool, storage: &Path) {
    let videos: Vec<(i64, String, Option<i64>, Option<i64>)> = db::query_as(
        "SELECT v.product_id, v.url, v.poster_image_id, \
         (SELECT f.image_file_id FROM product_360_frame f WHERE f.product_id = v.product_id AND f.frame_no = 0) \
         FROM product_video v ORDER BY v.id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    if videos.is_empty() {
        // Videos come from a cache or from ffmpeg: with ffmpeg there must be some.
        assert!(
            !demo::images::have_ffmpeg(),
            "ffmpeg is installed but no product has a video"
        );
        eprintln!("ffmpeg is not installed and no video was cached: no product claims a video");
        return;
    }
    assert!(videos.len() >= 10, "{} videos", videos.len());
    let mut files = std::collections::BTreeSet::new();
    for (id, url, poster, first_frame) in &videos {
        assert!(first_frame.is_some(), "{id} has a video but no 360 frames");
        assert_eq!(poster, first_frame, "{id}: the poster is the first frame");
        let rel = url
            .strip_prefix("/storage/")
            .unwrap_or_else(|| panic!("{url} is not in the storage"));
        assert!(rel.ends_with(".webm"), "{url}");
        files.insert(storage.join(rel));
    }
    assert_eq!(files.len(), demo::images::TURNS.len());
    for file in files {
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let (doc_type, seconds) =
            webm_facts(&bytes).unwrap_or_else(|| panic!("{} is not a WebM file", file.display()));
        assert_eq!(doc_type, "webm", "{}", file.display());
        let expected = f64::from(demo::images::VIDEO_SECONDS);
        assert!(
            (seconds - expected).abs() < 0.5,
            "{} lasts {seconds} s",
            file.display()
        );
        assert!(
            bytes.len() > 10_000,
            "{}: {} bytes",
            file.display(),
            bytes.len()
        );
        let probe = std::process::Command::new("ffprobe")
            .args(["-v", "error", "-select_streams", "v:0", "-count_frames"])
            .args([
                "-show_entries",
                "stream=codec_name,width,height,nb_read_frames",
            ])
            .args(["-of", "csv=p=0"])
            .arg(&file)
            .output();
        if let Ok(out) = probe {
            let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let frames = demo::images::VIDEO_SECONDS * demo::images::VIDEO_FPS;
            assert_eq!(line, format!("vp9,600,600,{frames}"), "{}", file.display());
        }
    }
}

/// An EBML variable-length integer at `at`: its value (the length marker
/// kept when `id`) and its length in bytes; `u64::MAX` for an unknown size.
fn vint(bytes: &[u8], at: usize, id: bool) -> Option<(u64, usize)> {
    let first = *bytes.get(at)?;
    let len = first.leading_zeros() as usize + 1;
    if len > 8 {
        return None;
    }
    let mut value = if id {
        u64::from(first)
    } else {
        u64::from(first) & ((1u64 << (8 - len)) - 1)
    };
    for k in 1..len {
        value = (value << 8) | u64::from(*bytes.get(at + k)?);
    }
    if !id && value == (1u64 << (7 * len)) - 1 {
        value = u64::MAX;
    }
    Some((value, len))
}

/// The elements of `bytes[from..to]`: (id, data start, data end).
fn elements(bytes: &[u8], from: usize, to: usize) -> Vec<(u64, usize, usize)> {
    let mut out = Vec::new();
    let mut at = from;
    while at < to {
        let Some((id, a)) = vint(bytes, at, true) else {
            break;
        };
        let Some((size, b)) = vint(bytes, at + a, false) else {
            break;
        };
        let start = at + a + b;
        let end = if size == u64::MAX {
            to
        } else {
            (start + size as usize).min(to)
        };
        out.push((id, start, end));
        at = end;
    }
    out
}

/// A WebM file's document type and duration in seconds, read from its EBML
/// header and its segment's Info (`None` when it is not one).
fn webm_facts(bytes: &[u8]) -> Option<(String, f64)> {
    let top = elements(bytes, 0, bytes.len());
    let (id, start, end) = *top.first()?;
    if id != 0x1A45_DFA3 {
        return None;
    }
    let doc_type = elements(bytes, start, end)
        .into_iter()
        .find(|e| e.0 == 0x4282)
        .map(|(_, s, e)| String::from_utf8_lossy(&bytes[s..e]).into_owned())?;
    let (_, seg_start, seg_end) = top.into_iter().find(|e| e.0 == 0x1853_8067)?;
    let (_, info_start, info_end) = elements(bytes, seg_start, seg_end)
        .into_iter()
        .find(|e| e.0 == 0x1549_A966)?;
    let mut scale = 1_000_000_f64;
    let mut duration = None;
    for (id, s, e) in elements(bytes, info_start, info_end) {
        let data = &bytes[s..e];
        match id {
            0x2A_D7B1 => scale = data.iter().fold(0u64, |v, b| (v << 8) | u64::from(*b)) as f64,
            0x4489 => {
                duration = match data.len() {
                    4 => Some(f64::from(f32::from_be_bytes(data.try_into().ok()?))),
                    8 => Some(f64::from_be_bytes(data.try_into().ok()?)),
                    _ => None,
                }
            }
            _ => {}
        }
    }
    Some((doc_type, duration? * scale / 1e9))
}

/// The shop's words are real: policy pages and posts of several
/// paragraphs under headings that do not repeat, links to products that
/// exist, and an advert that names the running sale and its real length (issue 21).
#[tokio::test]
async fn seeded_pages_and_posts_say_something() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, pool) = seeded(dir.path(), 300, 1).await;
    let headings = |html: &str| -> Vec<String> {
        html.split("<h2>")
            .skip(1)
            .filter_map(|s| s.split("</h2>").next())
            .map(str::to_string)
            .collect()
    };
    let pages: Vec<(String, String, String)> =
        db::query_as("SELECT title, sub_title, description FROM page ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(pages.len(), 8);
    for (title, summary, html) in &pages {
        assert!(!summary.is_empty(), "{title}");
        assert!(!html.contains("This page explains"), "{title}");
        let h = headings(html);
        assert!(h.len() >= 3, "{title}: {h:?}");
        assert!(!h.contains(title), "{title} repeats its own heading");
        let mut unique = h.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), h.len(), "{title}: {h:?}");
        assert!(html.len() > 800, "{title}: {} bytes", html.len());
    }
    let delivery = &pages.iter().find(|p| p.0 == "Delivery Policy").unwrap().2;
    for fact in [
        "৳200",
        "৳3,000",
        "৳300",
        "৳5,000",
        "72 hours",
        "Cox's Bazar",
        "Rangpur",
    ] {
        assert!(delivery.contains(fact), "the delivery policy lacks {fact}");
    }
    let emi = &pages.iter().find(|p| p.0 == "EMI Policy").unwrap().2;
    let per = catalog::pricing::emi_per_month(60_000, 12, 900);
    assert!(emi.contains(&catalog::pricing::taka(per)), "{emi}");
    let posts: Vec<(String, String)> =
        db::query_as("SELECT title, description FROM post ORDER BY id")
            .fetch_all(&pool)
            .await
            .unwrap();
    let slugs: Vec<(String,)> = db::query_as("SELECT seo_url FROM product")
        .fetch_all(&pool)
        .await
        .unwrap();
    let mut linked = 0;
    for (title, html) in &posts {
        assert!(html.matches("<p>").count() >= 3, "{title}");
        let h = headings(html);
        assert!(h.len() >= 2, "{title}");
        let mut unique = h.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), h.len(), "{title}: {h:?}");
        for link in html.split("href=\"/product/").skip(1) {
            let slug = link.split('"').next().unwrap();
            assert!(
                slugs.iter().any(|(s,)| s == slug),
                "{title} links to {slug}"
            );
            linked += 1;
        }
    }
    assert!(linked >= 20, "{linked} product links in posts");
    // The advert names the running sale and its real length.
    let (name, starts, ends): (String, i64, i64) = db::query_as(&format!(
        "SELECT fs_name, starts_at, ends_at FROM flash_schedule WHERE starts_at <= {NOW} AND ends_at > {NOW}"
    ))
    .fetch_one(&pool)
    .await
    .unwrap();
    let advert: String = db::query_scalar("SELECT description FROM widget WHERE id = 5")
        .fetch_one(&pool)
        .await
        .unwrap();
    let length = format!("{} hours", (ends - starts) / 3600);
    assert!(
        advert.contains(&name) && advert.contains(&length),
        "{advert} vs {name} of {length}"
    );
    assert!(
        name.contains(&length.replace(" hours", "-Hour")),
        "{name} lasts {length}"
    );
    assert!(
        !advert.to_lowercase().contains("midnight") && !advert.to_lowercase().contains("weekend")
    );
}
