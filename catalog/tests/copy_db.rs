//! `copy_db`: a seeded SQLite shop copied into PostgreSQL has the same rows
//! in every table (after the type conversion), and PostgreSQL goes on from
//! the copied ids. Needs a PostgreSQL server: runs only when
//! `TEST_POSTGRES_URL` is set (`scripts/test` sets it for its PostgreSQL
//! pass), and otherwise says it was skipped.

use catalog::copy_db::{convert_rows, copy_db};
use catalog::db::testing::{postgres_server, TestDatabase, POSTGRES_ENV};
use catalog::db::{self, Pool, PoolConfig, Value};
use demo::{seed, SeedOptions};

const NOW: i64 = 1_795_000_000;

/// Every row of `table`, the columns of the PostgreSQL table, the values
/// converted to its types; sorted, since neither database promises an order.
async fn rows(pool: &Pool, table: &str, target_cols: &[(String, db::Kind)]) -> Vec<Vec<Value>> {
    let cols = db::table_columns(pool, table).await.unwrap();
    let cols: Vec<_> = target_cols
        .iter()
        .map(|(name, _)| {
            cols.iter()
                .find(|(c, _)| c == name)
                .unwrap_or_else(|| panic!("{table}.{name} missing"))
                .clone()
        })
        .collect();
    let read = db::read_rows(pool, table, &cols).await.unwrap();
    let mut rows = convert_rows(table, target_cols, read).unwrap();
    rows.sort_by_cached_key(|r| format!("{r:?}"));
    rows
}

#[tokio::test]
async fn a_sqlite_shop_copied_into_postgres_has_every_row_and_goes_on_from_its_ids() {
    if postgres_server().is_none() {
        eprintln!("SKIPPED: copy-db needs PostgreSQL; set {POSTGRES_ENV} to run it");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sqlite = db::connect(&PoolConfig::new(format!(
        "sqlite:{}",
        dir.path().join("shop.db").display()
    )))
    .await
    .unwrap();
    db::migrate(&sqlite).await.unwrap();
    seed(
        &sqlite,
        &SeedOptions {
            products: 120,
            seed: 7,
            storage_dir: dir.path().join("storage"),
            now: NOW,
            progress: false,
        },
    )
    .await
    .unwrap();
    // A shop that has lived a little: the change log has entries (with ids
    // past the seed's, which SQLite's AUTOINCREMENT remembers), a flag is off.
    db::query("UPDATE product SET price_now = price_now - 1, is_active = FALSE WHERE id <= 3")
        .execute(&sqlite)
        .await
        .unwrap();

    // An empty database of its own on the server, dropped with `target`.
    let target = TestDatabase::empty().await;
    let pg = target.pool().await;
    let report = copy_db(&sqlite, &pg).await.unwrap();
    assert!(report.rows() > 1000, "{report:?}");

    let tables = db::table_names(&sqlite).await.unwrap();
    assert_eq!(tables, db::table_names(&pg).await.unwrap());
    assert_eq!(report.tables.len(), tables.len());
    for table in &tables {
        let pg_cols = db::table_columns(&pg, table).await.unwrap();
        let want = rows(&sqlite, table, &pg_cols).await;
        let got = rows(&pg, table, &pg_cols).await;
        assert_eq!(want.len(), got.len(), "{table}: row counts");
        if let Some((w, g)) = want.iter().zip(&got).find(|(w, g)| w != g) {
            panic!("{table}: {w:?} was copied as {g:?}");
        }
        let copied = report.tables.iter().find(|(t, _)| t == table).unwrap().1;
        assert_eq!(copied, want.len() as u64, "{table}");
    }
    let log: Vec<(i64, String, i64)> =
        db::query_as("SELECT id, entity, entity_id FROM change_log ORDER BY id")
            .fetch_all(&pg)
            .await
            .unwrap();
    assert_eq!(log.len(), 3, "{log:?}");
    assert!(log[0].0 > 1000, "ids kept: {log:?}");
    let inactive: i64 = db::query_scalar("SELECT COUNT(*) FROM product WHERE NOT is_active")
        .fetch_one(&pg)
        .await
        .unwrap();
    assert_eq!(inactive, 3);

    // New rows get ids past the copied ones, and the triggers are on again.
    let max: i64 = db::query_scalar("SELECT MAX(id) FROM product")
        .fetch_one(&pg)
        .await
        .unwrap();
    let id: i64 = db::query_scalar(
        "INSERT INTO product (title, product_code, sku, seo_url, price_before, price_now) \
         VALUES ('New bed', 'NEW-1', 'NEW-SKU-1', 'new-bed-1', 1000, 900) RETURNING id",
    )
    .fetch_one(&pg)
    .await
    .unwrap();
    assert!(id > max, "{id} after {max}");
    let (log_id, entity_id): (i64, i64) =
        db::query_as("SELECT id, entity_id FROM change_log ORDER BY id DESC LIMIT 1")
            .fetch_one(&pg)
            .await
            .unwrap();
    assert_eq!(entity_id, id);
    assert!(log_id > log[2].0, "{log_id} after {log:?}");

    // A second copy into the same database is refused.
    let again = copy_db(&sqlite, &pg).await.unwrap_err().to_string();
    assert!(again.contains("already has"), "{again}");

    pg.close().await;
    sqlite.close().await;
}
