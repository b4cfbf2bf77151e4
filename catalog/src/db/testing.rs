//! Databases for tests, on either backend.
//!
//! Every test suite of the workspace runs on SQLite (a temporary file) and,
//! when `TEST_POSTGRES_URL` names a PostgreSQL server
//! (`postgres://postgres@127.0.0.1:55432`; `scripts/test` starts a throw-away
//! one), on PostgreSQL too: each [`TestDatabase`] is then a database of its
//! own on that server, dropped with it. Copies ([`TestDatabase::copy`]) are
//! file copies on SQLite and `CREATE DATABASE … TEMPLATE` on PostgreSQL, so a
//! suite seeds once and gives each test that writes its own copy.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::{checkpoint, connect, migrate, Pool, PoolConfig};

/// The variable that selects PostgreSQL for the tests.
pub const POSTGRES_ENV: &str = "TEST_POSTGRES_URL";

/// The PostgreSQL server the tests run on (`TEST_POSTGRES_URL`, without a
/// trailing `/`), or `None` for SQLite.
pub fn postgres_server() -> Option<String> {
    std::env::var(POSTGRES_ENV)
        .ok()
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('/').to_string())
}

/// A new temporary folder for a test, removed when dropped, inside this
/// process's folder `$TMPDIR/furniture-tests/<pid>` ([`scratch`]).
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir_in(scratch()).expect("temp dir")
}

/// This test process's folder. A suite's shared, seeded shop lives in a
/// static, and statics are never dropped: its folder (20 MB with the images)
/// outlived every run, and hundreds of them filled the disk. So each process
/// keeps its folders under its own id and, the first time, removes the
/// folders of processes that no longer run.
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = std::env::temp_dir().join("furniture-tests");
        if let Ok(entries) = std::fs::read_dir(&root) {
            for entry in entries.flatten() {
                let gone = entry
                    .file_name()
                    .to_str()
                    .and_then(|name| name.parse::<u32>().ok())
                    .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
                if gone {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let dir = root.join(std::process::id().to_string());
        std::fs::create_dir_all(&dir).expect("the tests' temp folder");
        dir
    })
}

/// A database that lives as long as the value.
pub struct TestDatabase {
    url: String,
    place: Place,
}

enum Place {
    Sqlite {
        _dir: tempfile::TempDir,
        file: PathBuf,
    },
    Postgres {
        server: String,
        name: String,
    },
}

static NEXT: AtomicU64 = AtomicU64::new(0);

fn unique_name() -> String {
    format!(
        "test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

impl TestDatabase {
    /// An empty database (not migrated).
    pub async fn empty() -> TestDatabase {
        match postgres_server() {
            None => {
                let dir = temp_dir();
                let file = dir.path().join("shop.db");
                TestDatabase {
                    url: format!("sqlite:{}", file.display()),
                    place: Place::Sqlite { _dir: dir, file },
                }
            }
            Some(server) => {
                let name = unique_name();
                admin(&server, &format!("CREATE DATABASE {name}")).await;
                TestDatabase {
                    url: format!("{server}/{name}"),
                    place: Place::Postgres { server, name },
                }
            }
        }
    }

    /// An empty database with the shop's schema.
    pub async fn migrated() -> TestDatabase {
        let db = TestDatabase::empty().await;
        let pool = db.pool().await;
        migrate(&pool).await.expect("migrating the test database");
        pool.close().await;
        db
    }

    /// Its URL (`sqlite:/tmp/…/shop.db` or `postgres://…/test_…`).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// SQLite: the database file.
    pub fn sqlite_file(&self) -> Option<&std::path::Path> {
        match &self.place {
            Place::Sqlite { file, .. } => Some(file),
            Place::Postgres { .. } => None,
        }
    }

    /// A pool on it.
    pub async fn pool(&self) -> Pool {
        connect(&PoolConfig::new(&self.url))
            .await
            .expect("opening the test database")
    }

    /// A copy of it as it is now. Nobody may be connected to it on
    /// PostgreSQL (a template must be idle); on SQLite, close or checkpoint
    /// pools that wrote to it first.
    pub async fn copy(&self) -> TestDatabase {
        match &self.place {
            Place::Sqlite { file, .. } => {
                let dir = temp_dir();
                let copy = dir.path().join("shop.db");
                std::fs::copy(file, &copy).expect("copying the test database");
                TestDatabase {
                    url: format!("sqlite:{}", copy.display()),
                    place: Place::Sqlite {
                        _dir: dir,
                        file: copy,
                    },
                }
            }
            Place::Postgres { server, name } => {
                let copy = unique_name();
                admin(server, &format!("CREATE DATABASE {copy} TEMPLATE {name}")).await;
                TestDatabase {
                    url: format!("{server}/{copy}"),
                    place: Place::Postgres {
                        server: server.clone(),
                        name: copy,
                    },
                }
            }
        }
    }

    /// Makes what `pool` wrote part of the database file (SQLite) and
    /// closes the pool, so the database can be copied.
    pub async fn settle(pool: Pool) {
        checkpoint(&pool).await.expect("checkpoint");
        pool.close().await;
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Place::Postgres { server, name } = &self.place {
            // Drop runs outside any runtime (or inside one that may be
            // shutting down): the DROP gets a thread and a runtime of its own.
            let (server, sql) = (
                server.clone(),
                format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            );
            let _ = std::thread::spawn(move || {
                if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    rt.block_on(try_admin(&server, &sql)).ok();
                }
            })
            .join();
        }
    }
}

/// Runs a statement on the server's `postgres` database.
async fn admin(server: &str, sql: &str) {
    try_admin(server, sql)
        .await
        .unwrap_or_else(|e| panic!("{sql} on {server}: {e}"));
}

async fn try_admin(server: &str, sql: &str) -> sqlx::Result<()> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(&format!("{server}/postgres")).await?;
    sqlx::query(sql).execute(&mut conn).await?;
    conn.close().await
}
