//! The database: connecting, migrations, and everything that differs between
//! the two databases the shop runs on.
//!
//! `DATABASE_URL` chooses: `sqlite:PATH` (or a bare path) is the embedded
//! default, one file beside one origin; `postgres://…` is PostgreSQL 15, shared
//! by several origins. This module is the one place that knows which: the pool
//! and connection types, connection options, migrations (`migrations/sqlite/`
//! and `migrations/postgres/`), how a writing transaction starts, and what is
//! done after a bulk load. Queries everywhere else are written once, in SQL
//! both accept, and run through [`query`], [`query_as`], [`query_scalar`] and
//! [`QueryBuilder`] (see `query.rs`); the test suites run on both databases.

mod bulk;
mod feed;
mod query;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

use std::str::FromStr;
use std::time::Duration;

use sqlx::migrate::MigrateDatabase;
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Postgres, Sqlite, Transaction};

pub use bulk::{
    bulk_insert, copy_text, foreign_keys, lock_change_log, not_null_columns, read_rows,
    resume_triggers, suspend_triggers, table_columns, table_names, Kind, Value,
};
pub use feed::{ChangeFeed, Leader, CHANNEL, LISTEN_FALLBACK};
pub use query::{
    query, query_as, query_scalar, raw_sql, Column, Done, Executor, Param, Query, QueryAs,
    QueryBuilder, QueryScalar, RawSql, Record, Row, Separated, Target,
};

/// Which database a pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// The pool every query runs on: cheap to clone (the pools are shared handles).
#[derive(Debug, Clone)]
pub enum Pool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

/// One connection: taken from the pool ([`Pool::acquire`]) or holding a
/// transaction ([`Pool::begin`], [`begin_write`]). Functions that must run
/// inside the caller's transaction take `&mut Conn`.
pub struct Conn(ConnInner);

enum ConnInner {
    Sqlite(PoolConnection<Sqlite>),
    SqliteTx(Transaction<'static, Sqlite>),
    Postgres(PoolConnection<Postgres>),
    PostgresTx(Transaction<'static, Postgres>),
}

/// A connection taken from the pool; `&mut *conn` is a `&mut Conn`.
pub struct PoolConn(Conn);

/// An open transaction; `&mut *tx` is a `&mut Conn`. Dropped without
/// [`Tx::commit`], it rolls back.
pub struct Tx(Conn);

impl std::ops::Deref for PoolConn {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        &self.0
    }
}
impl std::ops::DerefMut for PoolConn {
    fn deref_mut(&mut self) -> &mut Conn {
        &mut self.0
    }
}
impl std::ops::Deref for Tx {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        &self.0
    }
}
impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut Conn {
        &mut self.0
    }
}

impl Tx {
    /// Makes the transaction's writes visible to everyone.
    pub async fn commit(self) -> sqlx::Result<()> {
        match self.0 .0 {
            ConnInner::SqliteTx(t) => t.commit().await,
            ConnInner::PostgresTx(t) => t.commit().await,
            ConnInner::Sqlite(_) | ConnInner::Postgres(_) => Ok(()),
        }
    }

    /// Undoes the transaction's writes.
    pub async fn rollback(self) -> sqlx::Result<()> {
        match self.0 .0 {
            ConnInner::SqliteTx(t) => t.rollback().await,
            ConnInner::PostgresTx(t) => t.rollback().await,
            ConnInner::Sqlite(_) | ConnInner::Postgres(_) => Ok(()),
        }
    }
}

impl Conn {
    /// The database this connection talks to.
    pub fn dialect(&self) -> Dialect {
        match self.0 {
            ConnInner::Sqlite(_) | ConnInner::SqliteTx(_) => Dialect::Sqlite,
            ConnInner::Postgres(_) | ConnInner::PostgresTx(_) => Dialect::Postgres,
        }
    }
}

impl Pool {
    /// The database this pool talks to.
    pub fn dialect(&self) -> Dialect {
        match self {
            Pool::Sqlite(_) => Dialect::Sqlite,
            Pool::Postgres(_) => Dialect::Postgres,
        }
    }

    /// A connection of its own, for several statements in a row.
    pub async fn acquire(&self) -> sqlx::Result<PoolConn> {
        Ok(PoolConn(Conn(match self {
            Pool::Sqlite(p) => ConnInner::Sqlite(p.acquire().await?),
            Pool::Postgres(p) => ConnInner::Postgres(p.acquire().await?),
        })))
    }

    /// A transaction for reads that must agree with each other, or writes
    /// that take no stock (see [`begin_write`] for those).
    pub async fn begin(&self) -> sqlx::Result<Tx> {
        Ok(Tx(Conn(match self {
            Pool::Sqlite(p) => ConnInner::SqliteTx(p.begin().await?),
            Pool::Postgres(p) => ConnInner::PostgresTx(p.begin().await?),
        })))
    }

    /// Closes every connection (waits for those in use).
    pub async fn close(&self) {
        match self {
            Pool::Sqlite(p) => p.close().await,
            Pool::Postgres(p) => p.close().await,
        }
    }
}

/// Prepared statements each connection keeps (sqlx's default is 100). The
/// listing and search queries are built per request (their `IN` lists and
/// filters vary), so a busy origin filled every connection's cache with
/// statements used once: most of the origin's heap after a fuzz (issue 19).
pub const STATEMENT_CACHE: usize = 24;

/// Errors opening or migrating the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(
        "unsupported database URL {0:?}: expected sqlite:PATH or postgres://USER@HOST:PORT/NAME"
    )]
    UnsupportedUrl(String),
    #[error("cannot open database {url}: {source}")]
    Open { url: String, source: sqlx::Error },
    #[error("migrating database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
}

/// How a pool is opened.
#[derive(Debug, Clone)]
pub struct PoolConfig {
    /// `sqlite:var/shop.db` (a plain path is accepted too) or `postgres://…`.
    pub url: String,
    /// Largest number of open connections.
    pub max_connections: u32,
    /// Create the file (SQLite) or the database (PostgreSQL) when it does not exist.
    pub create_if_missing: bool,
    /// SQLite: bytes of the database file each connection reads through a
    /// memory map (`PRAGMA mmap_size`; 0: none, pages are read with `pread`
    /// into the connection's page cache). Ignored by PostgreSQL.
    ///
    /// The rule: every connection maps the file on its own, and the process's
    /// RSS counts the same page-cache pages once per mapping, so a pool may
    /// map at most what its connections × this size can bear. A server, with
    /// many connections and a life of weeks, maps nothing
    /// ([`SERVER_MMAP_SIZE`], the default of [`PoolConfig::new`]); a bulk
    /// reader with few connections and a life of a minute (the generator)
    /// maps the database ([`BULK_MMAP_SIZE`]).
    pub mmap_size: u64,
}

/// [`PoolConfig::mmap_size`] for a server (the origin, 16 connections): none.
/// At 100,000 products the origin's 16 connections mapped 2.5 GB of RSS at
/// 256 MB each (issue 19); pages read with `pread` live in the kernel's page
/// cache, which RSS does not count, and SQLite's own page cache per
/// connection is bounded by its `cache_size` (2 MB by default).
pub const SERVER_MMAP_SIZE: u64 = 0;

/// [`PoolConfig::mmap_size`] for a bulk reader (the generator's site build,
/// 4 connections): 256 MB. A 100,000-product build spent 3 % of its time in
/// `pread` without it.
pub const BULK_MMAP_SIZE: u64 = 256 * 1024 * 1024;

impl PoolConfig {
    /// Options for `url` with defaults that suit the origin.
    pub fn new(url: impl Into<String>) -> Self {
        PoolConfig {
            url: url.into(),
            max_connections: 16,
            create_if_missing: true,
            mmap_size: SERVER_MMAP_SIZE,
        }
    }
}

/// The dialect a URL names.
pub fn dialect_of(url: &str) -> Result<Dialect, DbError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Dialect::Postgres)
    } else if url.starts_with("sqlite:") || !url.contains("://") {
        Ok(Dialect::Sqlite)
    } else {
        Err(DbError::UnsupportedUrl(url.to_string()))
    }
}

/// Normalises a database URL: a bare path becomes `sqlite:PATH`.
pub fn normalise_url(url: &str) -> Result<String, DbError> {
    match dialect_of(url)? {
        Dialect::Sqlite if !url.starts_with("sqlite:") => Ok(format!("sqlite:{url}")),
        _ => Ok(url.to_string()),
    }
}

/// Opens a pool. SQLite: WAL journaling, foreign keys on, and a busy timeout
/// so that writers queue instead of failing with "database is locked".
/// PostgreSQL: the database is created when missing (if asked).
pub async fn connect(config: &PoolConfig) -> Result<Pool, DbError> {
    let url = normalise_url(&config.url)?;
    let open_err = |source| DbError::Open {
        url: redact(&url),
        source,
    };
    match dialect_of(&url)? {
        Dialect::Sqlite => {
            let options = SqliteConnectOptions::from_str(&url)
                .map_err(open_err)?
                .create_if_missing(config.create_if_missing)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10))
                .pragma("mmap_size", config.mmap_size.to_string())
                .statement_cache_capacity(STATEMENT_CACHE);
            SqlitePoolOptions::new()
                .max_connections(config.max_connections)
                .acquire_timeout(Duration::from_secs(15))
                .connect_with(options)
                .await
                .map(Pool::Sqlite)
                .map_err(open_err)
        }
        Dialect::Postgres => {
            if config.create_if_missing
                && !Postgres::database_exists(&url).await.map_err(open_err)?
            {
                Postgres::create_database(&url).await.map_err(open_err)?;
            }
            let options = PgConnectOptions::from_str(&url)
                .map_err(open_err)?
                .application_name("furniture-shop")
                .statement_cache_capacity(STATEMENT_CACHE);
            PgPoolOptions::new()
                .max_connections(config.max_connections)
                .acquire_timeout(Duration::from_secs(15))
                .connect_with(options)
                .await
                .map(Pool::Postgres)
                .map_err(open_err)
        }
    }
}

/// The URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.find(':') {
                Some(colon) => format!("{}:***{}", &url[..scheme + 3 + colon], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// Applies every migration of `migrations/<dialect>/` that the database lacks.
pub async fn migrate(pool: &Pool) -> Result<(), DbError> {
    match pool {
        Pool::Sqlite(p) => sqlx::migrate!("../migrations/sqlite").run(p).await?,
        Pool::Postgres(p) => sqlx::migrate!("../migrations/postgres").run(p).await?,
    }
    Ok(())
}

/// A transaction for writes that must not interleave with other writers:
/// orders, stock, coupons, accounts.
///
/// SQLite: `BEGIN IMMEDIATE` takes the database's write lock at once, so
/// concurrent writers queue on the busy timeout instead of failing when a
/// read turns into a write. PostgreSQL: the same guarantee from a
/// transaction-scoped advisory lock that every such transaction takes first
/// ([`WRITE_LOCK`]); readers are never blocked, and the lock is released at
/// commit or rollback, also when the connection dies.
pub async fn begin_write(pool: &Pool) -> sqlx::Result<Tx> {
    match pool {
        Pool::Sqlite(p) => Ok(Tx(Conn(ConnInner::SqliteTx(
            p.begin_with("BEGIN IMMEDIATE").await?,
        )))),
        Pool::Postgres(p) => {
            let mut tx = p.begin().await?;
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(WRITE_LOCK)
                .execute(&mut *tx)
                .await?;
            Ok(Tx(Conn(ConnInner::PostgresTx(tx))))
        }
    }
}

/// Whether a failed transaction may simply be run again from the start:
/// PostgreSQL aborted it to break a deadlock (40P01) or a serialization
/// conflict (40001). A deadlock can happen when a writer outside the shop's
/// code (an admin tool's `UPDATE product`) holds a row the shop's write
/// transaction needs while waiting for the change log's lock that the shop's
/// transaction holds. SQLite queues writers instead: never.
pub fn is_retryable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Database(e) => matches!(e.code().as_deref(), Some("40P01" | "40001")),
        _ => false,
    }
}

/// The PostgreSQL advisory lock key that [`begin_write`] takes (an arbitrary
/// constant: "shop" in ASCII).
pub const WRITE_LOCK: i64 = 0x73686f70;

/// Makes a freshly bulk-loaded database ready to serve. SQLite: gathers
/// statistics and folds the WAL into the file, so the file alone is the whole
/// shop (copyable) and the first reader does not replay hundreds of MB.
/// PostgreSQL: moves every identity sequence past the ids the load wrote
/// explicitly, and gathers statistics.
pub async fn after_bulk_load(pool: &Pool) -> sqlx::Result<()> {
    match pool {
        Pool::Sqlite(p) => {
            sqlx::query("PRAGMA optimize").execute(p).await?;
            checkpoint(pool).await?;
        }
        Pool::Postgres(p) => {
            let tables: Vec<String> = sqlx::query_scalar(
                "SELECT table_name::TEXT FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND column_name = 'id' \
                 AND is_identity = 'YES' ORDER BY table_name",
            )
            .fetch_all(p)
            .await?;
            for table in tables {
                // Table names come from the catalog, not from input.
                sqlx::query(&format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                     COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                ))
                .execute(p)
                .await?;
            }
            sqlx::query("ANALYZE").execute(p).await?;
        }
    }
    Ok(())
}

/// SQLite: folds the WAL into the database file (so the file can be copied
/// alone). PostgreSQL: nothing to do.
pub async fn checkpoint(pool: &Pool) -> sqlx::Result<()> {
    if let Pool::Sqlite(p) = pool {
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(p)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::testing::TestDatabase;
    use super::*;

    #[tokio::test]
    async fn migrations_apply_twice_and_the_schema_enforces_keys_and_logs_changes() {
        let db = TestDatabase::migrated().await;
        let pool = db.pool().await;
        // Applying again is a no-op.
        migrate(&pool).await.unwrap();
        if let Pool::Sqlite(p) = &pool {
            let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
                .fetch_one(p)
                .await
                .unwrap();
            assert_eq!(mode, "wal");
        }
        // A foreign key violation is refused.
        let err = query("INSERT INTO product_image (product_id, image_file_id) VALUES (999, 999)")
            .execute(&pool)
            .await;
        assert!(err.is_err());
        // Writes to the catalogue leave a change log entry.
        query(
            "INSERT INTO product (id, title, product_code, sku, seo_url, price_before, price_now)
             VALUES (7, 'Bed', 'BED-1', 'SKU-1', 'bed-1', 1000, 900)",
        )
        .execute(&pool)
        .await
        .unwrap();
        let done = query("UPDATE product SET price_now = $1 WHERE id = $2")
            .bind(800_i64)
            .bind(7_i64)
            .execute(&pool)
            .await
            .unwrap();
        assert_eq!(done.rows_affected(), 1);
        let log: Vec<(String, i64, String)> =
            query_as("SELECT entity, entity_id, op FROM change_log ORDER BY id")
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

    #[tokio::test]
    async fn a_servers_connections_map_none_of_a_sqlite_file_and_a_bulk_readers_map_it() {
        let db = TestDatabase::migrated().await;
        let mapped = |mmap_size| {
            let url = db.url().to_string();
            async move {
                let pool = connect(&PoolConfig {
                    max_connections: 2,
                    mmap_size,
                    ..PoolConfig::new(url)
                })
                .await
                .unwrap();
                let Pool::Sqlite(p) = &pool else {
                    return None;
                };
                // Every connection of the pool, not only the first.
                let (mut a, mut b) = (p.acquire().await.unwrap(), p.acquire().await.unwrap());
                let mut sizes = Vec::new();
                for conn in [&mut a, &mut b] {
                    let size: i64 = sqlx::query_scalar("PRAGMA mmap_size")
                        .fetch_one(&mut **conn)
                        .await
                        .unwrap();
                    sizes.push(size);
                }
                Some(sizes)
            }
        };
        assert_eq!(PoolConfig::new("x").mmap_size, SERVER_MMAP_SIZE);
        if let Some(sizes) = mapped(PoolConfig::new(db.url()).mmap_size).await {
            assert_eq!(sizes, vec![0, 0]);
            let bulk = BULK_MMAP_SIZE as i64;
            assert_eq!(mapped(BULK_MMAP_SIZE).await, Some(vec![bulk, bulk]));
        }
    }

    #[tokio::test]
    async fn values_of_every_kind_round_trip_and_the_builder_numbers_its_placeholders() {
        let db = TestDatabase::empty().await;
        let pool = db.pool().await;
        query("CREATE TABLE t (id BIGINT PRIMARY KEY, name TEXT, flag BOOLEAN NOT NULL, ratio DOUBLE PRECISION)")
            .execute(&pool)
            .await
            .unwrap();
        let mut q = QueryBuilder::new("INSERT INTO t (id, name, flag, ratio) ");
        q.push_values(
            [(1_i64, Some("a"), true, 0.5_f64), (2, None, false, 1.5)],
            |mut row, (id, name, flag, ratio)| {
                row.push_bind(id)
                    .push_bind(name)
                    .push_bind(flag)
                    .push_bind(ratio);
            },
        );
        assert_eq!(
            q.sql(),
            "INSERT INTO t (id, name, flag, ratio) VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)"
        );
        assert_eq!(q.build().execute(&pool).await.unwrap().rows_affected(), 2);
        let rows: Vec<(i64, Option<String>, bool, f64)> =
            query_as("SELECT id, name, flag, ratio FROM t WHERE flag = $1 OR id = $2 ORDER BY id")
                .bind(true)
                .bind(2_i64)
                .fetch_all(&pool)
                .await
                .unwrap();
        assert_eq!(
            rows,
            vec![(1, Some("a".into()), true, 0.5), (2, None, false, 1.5)]
        );
        let mut q = QueryBuilder::new("SELECT COUNT(*) FROM t WHERE id IN (");
        let mut list = q.separated(", ");
        for id in [1_i64, 2, 3] {
            list.push_bind(id);
        }
        q.push(")");
        assert_eq!(
            q.build_query_scalar::<i64>()
                .fetch_one(&pool)
                .await
                .unwrap(),
            2
        );
        let row = query("SELECT name FROM t WHERE id = $1")
            .bind(1_i64)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(row.get::<String, _>("name"), "a");
        assert!(row.try_get::<i64, _>("name").is_err());
        let none: Option<i64> = query_scalar("SELECT id FROM t WHERE id = $1")
            .bind(9_i64)
            .fetch_optional(&pool)
            .await
            .unwrap();
        assert_eq!(none, None);
    }

    #[tokio::test]
    async fn a_dropped_transaction_rolls_back_and_writers_take_turns() {
        let db = TestDatabase::empty().await;
        let pool = db.pool().await;
        query("CREATE TABLE c (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)")
            .execute(&pool)
            .await
            .unwrap();
        query("INSERT INTO c VALUES (1, 0)")
            .execute(&pool)
            .await
            .unwrap();
        {
            let mut tx = pool.begin().await.unwrap();
            query("UPDATE c SET n = 5").execute(&mut *tx).await.unwrap();
        }
        let n: i64 = query_scalar("SELECT n FROM c")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(n, 0);
        // Read-then-write increments in write transactions never lose an update.
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let pool = pool.clone();
                tokio::spawn(async move {
                    for _ in 0..5 {
                        let mut tx = begin_write(&pool).await.unwrap();
                        let n: i64 = query_scalar("SELECT n FROM c WHERE id = 1")
                            .fetch_one(&mut *tx)
                            .await
                            .unwrap();
                        tokio::task::yield_now().await;
                        query("UPDATE c SET n = $1 WHERE id = 1")
                            .bind(n + 1)
                            .execute(&mut *tx)
                            .await
                            .unwrap();
                        tx.commit().await.unwrap();
                    }
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
        let n: i64 = query_scalar("SELECT n FROM c")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(n, 40);
    }

    #[tokio::test]
    async fn a_follower_is_woken_by_a_committed_change_and_one_leader_acts_at_a_time() {
        let db = TestDatabase::migrated().await;
        let poll = Duration::from_millis(200);
        // A pool of one connection, as the watch has: the feed must not keep it.
        let pool = connect(&PoolConfig {
            max_connections: 1,
            ..PoolConfig::new(db.url())
        })
        .await
        .unwrap();
        let mut feed = ChangeFeed::new(&pool, poll).await;
        assert_eq!(feed.listening(), pool.dialect() == Dialect::Postgres);
        tokio::time::timeout(Duration::from_secs(3), query("SELECT 1").execute(&pool))
            .await
            .expect("the pool's connection is free")
            .unwrap();
        let writer = pool.clone();
        let write = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            query("INSERT INTO setting (name, value) VALUES ('x', 'y')")
                .execute(&writer)
                .await
                .unwrap();
        });
        let started = std::time::Instant::now();
        if feed.listening() {
            // Woken by the commit, long before the fallback poll.
            feed.wait(Duration::from_secs(30)).await;
            let waited = started.elapsed();
            assert!(waited >= Duration::from_millis(250), "{waited:?}");
            assert!(waited < LISTEN_FALLBACK, "{waited:?}");
        } else {
            feed.wait(Duration::from_secs(30)).await;
            let waited = started.elapsed();
            assert!(
                waited >= poll && waited < Duration::from_secs(2),
                "{waited:?}"
            );
        }
        write.await.unwrap();

        let mut first = Leader::try_acquire(&pool, "watch")
            .await
            .unwrap()
            .expect("free");
        assert!(Leader::try_acquire(&pool, "watch").await.unwrap().is_none());
        // Another key is another lock.
        assert!(Leader::try_acquire(&pool, "other").await.unwrap().is_some());
        assert!(first.still_holds().await);
        drop(first);
        let standby = Leader::acquire(&pool, "watch", Duration::from_millis(50));
        tokio::time::timeout(Duration::from_secs(5), standby)
            .await
            .expect("the standby takes over once the leader is gone");
    }

    #[tokio::test]
    async fn a_deadlock_is_retryable_and_other_errors_are_not() {
        let db = TestDatabase::empty().await;
        let pool = db.pool().await;
        let missing = query("SELECT nothing FROM nowhere")
            .execute(&pool)
            .await
            .unwrap_err();
        assert!(!is_retryable(&missing));
        if pool.dialect() != Dialect::Postgres {
            return; // SQLite's writers queue: there is no deadlock to make
        }
        query("CREATE TABLE r (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)")
            .execute(&pool)
            .await
            .unwrap();
        query("INSERT INTO r VALUES (1, 0), (2, 0)")
            .execute(&pool)
            .await
            .unwrap();
        let mut one = pool.begin().await.unwrap();
        let mut two = pool.begin().await.unwrap();
        query("UPDATE r SET n = 1 WHERE id = 1")
            .execute(&mut *one)
            .await
            .unwrap();
        query("UPDATE r SET n = 2 WHERE id = 2")
            .execute(&mut *two)
            .await
            .unwrap();
        let (a, b) = tokio::join!(
            query("UPDATE r SET n = 1 WHERE id = 2").execute(&mut *one),
            query("UPDATE r SET n = 2 WHERE id = 1").execute(&mut *two),
        );
        let err = a
            .err()
            .or(b.err())
            .expect("one of the two is chosen as the victim");
        assert!(is_retryable(&err), "{err}");
    }

    #[test]
    fn urls_name_their_dialect_and_passwords_are_hidden() {
        assert_eq!(normalise_url("var/shop.db").unwrap(), "sqlite:var/shop.db");
        assert_eq!(normalise_url("sqlite:x.db").unwrap(), "sqlite:x.db");
        assert_eq!(
            dialect_of("postgres://localhost/shop").unwrap(),
            Dialect::Postgres
        );
        assert_eq!(
            dialect_of("postgresql://localhost/shop").unwrap(),
            Dialect::Postgres
        );
        assert!(dialect_of("mysql://localhost/shop").is_err());
        assert_eq!(
            redact("postgres://shop:secret@db:5432/shop"),
            "postgres://shop:***@db:5432/shop"
        );
        assert_eq!(redact("postgres://shop@db/shop"), "postgres://shop@db/shop");
    }
}
