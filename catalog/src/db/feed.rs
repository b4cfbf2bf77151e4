//! Following the change log, and taking turns: what the shop's followers
//! (`generator watch`, each origin's search index) need from the database.
//!
//! - [`ChangeFeed`] wakes a follower when there may be new `change_log`
//!   rows. On PostgreSQL a trigger sends `NOTIFY change_log` with each
//!   committed batch (migrations/postgres/0004), and the feed `LISTEN`s; a
//!   slower poll stays on as the fallback, for a notification lost while the
//!   listening connection was down. On SQLite (one machine, no notifications)
//!   it polls.
//! - [`Leader`] lets one process of a cluster act while others stand by: a
//!   session-level advisory lock on PostgreSQL, held by a connection of its
//!   own, so it is released the moment its holder dies; on SQLite, an
//!   exclusive lock on a file beside the database.

use std::time::Duration;

use sqlx::postgres::PgListener;

use super::Pool;

/// The channel the change-log trigger notifies.
pub const CHANNEL: &str = "change_log";

/// How often a listening follower still reads the log when no notification
/// came: the safety net, not the way changes normally arrive.
pub const LISTEN_FALLBACK: Duration = Duration::from_secs(5);

/// Wakes a follower of `change_log`; see the module documentation.
pub struct ChangeFeed {
    listener: Option<PgListener>,
    poll: Duration,
}

impl ChangeFeed {
    /// A feed for `pool`; `poll` is the polling interval where nothing notifies.
    /// On PostgreSQL, a listener that cannot connect leaves the feed polling
    /// (logged), never failing the follower.
    pub async fn new(pool: &Pool, poll: Duration) -> ChangeFeed {
        let listener = match pool {
            Pool::Sqlite(_) => None,
            Pool::Postgres(p) => {
                // A pool of its own: the listener keeps its connection for
                // good, and must not hold one of the caller's (the watch's
                // pool has a single connection).
                let own = sqlx::postgres::PgPoolOptions::new()
                    .max_connections(1)
                    .connect_lazy_with((*p.connect_options()).clone());
                match PgListener::connect_with(&own).await {
                    Ok(mut l) => match l.listen(CHANNEL).await {
                        Ok(()) => Some(l),
                        Err(err) => {
                            tracing::warn!(%err, "cannot LISTEN change_log; polling instead");
                            None
                        }
                    },
                    Err(err) => {
                        tracing::warn!(%err, "cannot open a listening connection; polling instead");
                        None
                    }
                }
            }
        };
        ChangeFeed { listener, poll }
    }

    /// Whether changes arrive by notification (PostgreSQL) rather than by polling.
    pub fn listening(&self) -> bool {
        self.listener.is_some()
    }

    /// Returns when there may be new rows in `change_log`, or after `at_most`.
    pub async fn wait(&mut self, at_most: Duration) {
        match &mut self.listener {
            None => tokio::time::sleep(at_most.min(self.poll)).await,
            Some(listener) => {
                match tokio::time::timeout(at_most.min(LISTEN_FALLBACK), listener.recv()).await {
                    Ok(Ok(_)) => {
                        // A burst of commits sends a burst of notifications:
                        // take those already here, then read the log once.
                        while listener.next_buffered().is_some() {}
                    }
                    Ok(Err(err)) => {
                        // The connection dropped: sqlx reconnects and listens
                        // again on the next call; meanwhile, behave as a poll.
                        tracing::warn!(%err, "change_log listener lost its connection");
                        tokio::time::sleep(at_most.min(self.poll)).await;
                    }
                    Err(_elapsed) => {}
                }
            }
        }
    }
}

/// The right to act, held by at most one process per key and database.
pub struct Leader {
    _hold: Hold,
}

enum Hold {
    Postgres(sqlx::PgConnection),
    /// Held, never read: the lock lasts while the file is open.
    File {
        _lock: std::fs::File,
    },
    /// An in-memory SQLite database: nobody else can reach it.
    Alone,
}

impl Leader {
    /// Tries once to become the leader for `key`; `None` when another
    /// process is. `sqlite_file` is the database file on SQLite (the lock
    /// file is `FILE.KEY.lock` beside it; `None` for an in-memory database,
    /// where there is nobody to share with).
    pub async fn try_acquire(pool: &Pool, key: &str) -> sqlx::Result<Option<Leader>> {
        match pool {
            Pool::Postgres(p) => {
                // Taken out of the pool: the lock lives with this connection
                // and must end with it (or with the process), never go back
                // to the pool with it.
                let mut conn = p.acquire().await?.detach();
                let got: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock(hashtext($1))")
                    .bind(key)
                    .fetch_one(&mut conn)
                    .await?;
                Ok(got.then(|| Leader {
                    _hold: Hold::Postgres(conn),
                }))
            }
            Pool::Sqlite(p) => {
                let file = p.connect_options().get_filename().to_path_buf();
                if file.as_os_str().is_empty() || file.to_string_lossy().contains(":memory:") {
                    return Ok(Some(Leader { _hold: Hold::Alone }));
                }
                let mut name = file.into_os_string();
                name.push(format!(".{key}.lock"));
                let lock = std::fs::OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&name)
                    .map_err(sqlx::Error::Io)?;
                match lock.try_lock() {
                    Ok(()) => Ok(Some(Leader {
                        _hold: Hold::File { _lock: lock },
                    })),
                    Err(std::fs::TryLockError::WouldBlock) => Ok(None),
                    Err(std::fs::TryLockError::Error(e)) => Err(sqlx::Error::Io(e)),
                }
            }
        }
    }

    /// Waits until this process leads for `key`, trying every `every`.
    pub async fn acquire(pool: &Pool, key: &str, every: Duration) -> Leader {
        let mut said = false;
        loop {
            match Leader::try_acquire(pool, key).await {
                Ok(Some(leader)) => return leader,
                Ok(None) if !said => {
                    tracing::info!(key, "another process leads; standing by");
                    said = true;
                }
                Ok(None) => {}
                Err(err) => tracing::warn!(%err, key, "cannot take the leader lock; retrying"),
            }
            tokio::time::sleep(every).await;
        }
    }

    /// Whether the hold is still good (PostgreSQL: the connection answers).
    /// A leader whose connection died has lost the lock and must stop acting.
    pub async fn still_holds(&mut self) -> bool {
        match &mut self._hold {
            Hold::Postgres(conn) => sqlx::query("SELECT 1").execute(conn).await.is_ok(),
            Hold::File { .. } | Hold::Alone => true,
        }
    }
}
