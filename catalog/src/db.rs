//! The database: connecting, pragmas, migrations.
//!
//! Everything that depends on the SQL dialect lives here (and in
//! `migrations/<dialect>/`): the pool type, connection options and the
//! migrator. Queries elsewhere use portable SQL with `$1`-style placeholders,
//! which both SQLite and PostgreSQL accept, so adding PostgreSQL means adding a
//! dialect here and a migrations folder, not rewriting the queries.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

/// The pool every query runs on.
pub type Pool = sqlx::SqlitePool;
/// The database backend, for generic helpers (`sqlx::QueryBuilder<Db>`...).
pub type Db = sqlx::Sqlite;
/// One connection (or an open transaction, through `&mut *tx`).
pub type Conn = sqlx::SqliteConnection;

/// Errors opening or migrating the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(
        "unsupported database URL {0:?}: expected sqlite:PATH (PostgreSQL is not supported yet)"
    )]
    UnsupportedUrl(String),
    #[error("cannot open database {url}: {source}")]
    Open { url: String, source: sqlx::Error },
    #[error("migrating database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

/// How a pool is opened.
#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// `sqlite:var/shop.db` (a plain path is accepted too).
    pub url: String,
    /// Largest number of open connections.
    pub max_connections: u32,
    /// Create the file when it does not exist.
    pub create_if_missing: bool,
}

impl PoolConfig {
    /// Options for `url` with defaults that suit the origin.
    pub fn new(url: impl Into<String>) -> Self {
        PoolConfig {
            url: url.into(),
            max_connections: 16,
            create_if_missing: true,
        }
    }
}

/// Normalises a database URL: a bare path becomes `sqlite:PATH`.
pub fn normalise_url(url: &str) -> Result<String, DbError> {
    if url.starts_with("sqlite:") {
        Ok(url.to_string())
    } else if url.contains("://") {
        Err(DbError::UnsupportedUrl(url.to_string()))
    } else {
        Ok(format!("sqlite:{url}"))
    }
}

/// Opens a pool with WAL journaling, foreign keys on, and a busy timeout so
/// that writers queue instead of failing with "database is locked".
pub async fn connect(config: &PoolConfig) -> Result<Pool, DbError> {
    let url = normalise_url(&config.url)?;
    let open_err = |source| DbError::Open {
        url: url.clone(),
        source,
    };
    let options = SqliteConnectOptions::from_str(&url)
        .map_err(open_err)?
        .create_if_missing(config.create_if_missing)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(10))
        // Reads through a memory map instead of a `pread` per page: a
        // 100,000-product site build spent 3 % of its time in that syscall.
        .pragma("mmap_size", "268435456");
    SqlitePoolOptions::new()
        .max_connections(config.max_connections)
        .acquire_timeout(Duration::from_secs(15))
        .connect_with(options)
        .await
        .map_err(open_err)
}

/// Applies every migration of `migrations/sqlite/` that the database lacks.
pub async fn migrate(pool: &Pool) -> Result<(), DbError> {
    sqlx::migrate!("../migrations/sqlite").run(pool).await?;
    Ok(())
}

/// A transaction that takes the write lock at once (SQLite's `BEGIN
/// IMMEDIATE`), so that concurrent writers queue on the busy timeout instead
/// of failing when a read turns into a write. Orders and stock use it.
pub async fn begin_write(pool: &Pool) -> Result<sqlx::Transaction<'static, Db>, sqlx::Error> {
    pool.begin_with("BEGIN IMMEDIATE").await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn migrations_apply_to_a_fresh_file_with_wal_and_foreign_keys() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("t.db").display());
        let pool = connect(&PoolConfig::new(url)).await.unwrap();
        migrate(&pool).await.unwrap();
        // Applying twice is a no-op.
        migrate(&pool).await.unwrap();
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(fk, 1);
        // A foreign key violation is refused.
        let err =
            sqlx::query("INSERT INTO product_image (product_id, image_file_id) VALUES (999, 999)")
                .execute(&pool)
                .await;
        assert!(err.is_err());
        // Writes to the catalogue leave a change log entry.
        sqlx::query(
            "INSERT INTO product (id, title, product_code, sku, seo_url, price_before, price_now)
             VALUES (7, 'Bed', 'BED-1', 'SKU-1', 'bed-1', 1000, 900)",
        )
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query("UPDATE product SET price_now = 800 WHERE id = 7")
            .execute(&pool)
            .await
            .unwrap();
        let log: Vec<(String, i64, String)> =
            sqlx::query_as("SELECT entity, entity_id, op FROM change_log ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(
            log,
            vec![
                ("product".to_string(), 7, "insert".to_string()),
                ("product".to_string(), 7, "update".to_string())
            ]
        );
    }

    #[test]
    fn bare_paths_become_sqlite_urls_and_other_schemes_are_refused() {
        assert_eq!(normalise_url("var/shop.db").unwrap(), "sqlite:var/shop.db");
        assert_eq!(normalise_url("sqlite:x.db").unwrap(), "sqlite:x.db");
        assert!(normalise_url("postgres://localhost/shop").is_err());
    }
}
