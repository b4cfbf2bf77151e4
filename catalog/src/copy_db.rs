//! Moving a shop from SQLite to PostgreSQL (`origin copy-db`): every table,
//! every row, ids kept, the change log included, so that the generator's
//! watch and the origins' search indexes continue where they were.
//!
//! It lives in the library because it is a database operation: the origin's
//! command only parses its flags and prints the report, and the test runs
//! it against real databases. What
//! differs between the databases (reading a schema, COPY, pausing triggers)
//! is in [`crate::db`].
//!
//! Foreign keys stay on in the target and are satisfied by copying tables in
//! dependency order (each table after those it refers to; a table's rows
//! that refer to each other arrive in one COPY, which PostgreSQL checks at
//! its end). A cycle (app_user's default addresses → address → app_user) is
//! broken by copying the first table of the cycle with those (nullable)
//! columns empty and setting them by id once every table is in. Disabling the checks instead would need a superuser
//! (`session_replication_role`, or `DISABLE TRIGGER ALL` for the internal
//! foreign-key triggers), and an order keeps the target checking every row:
//! a source that breaks a key fails the copy instead of moving the breakage.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use anyhow::{bail, Context};

use crate::db::{self, Dialect, Pool};

/// What was copied.
#[derive(Debug, Clone, Default)]
pub struct CopyReport {
    /// Rows per table, in the order they were copied.
    pub tables: Vec<(String, u64)>,
    /// Wall-clock seconds of the whole copy (migrating the target included).
    pub seconds: f64,
}

impl CopyReport {
    /// Rows of every table together.
    pub fn rows(&self) -> u64 {
        self.tables.iter().map(|(_, n)| n).sum()
    }
}

/// Copies every table of the SQLite shop `from` into the PostgreSQL
/// database `to`: migrates `to`, refuses it when it has products, copies
/// the tables in foreign-key order in one transaction with the change-log
/// triggers off (the change log itself is copied as it is, ids kept), each
/// value converted to the target column's type (read from
/// `information_schema`: INTEGER 0/1 becomes BOOLEAN for the flags), then
/// moves the identity sequences past the copied ids.
pub async fn copy_db(from: &Pool, to: &Pool) -> anyhow::Result<CopyReport> {
    let started = Instant::now();
    if from.dialect() != Dialect::Sqlite || to.dialect() != Dialect::Postgres {
        bail!("copy-db copies a SQLite shop into PostgreSQL: --from sqlite:PATH --to postgres://…");
    }
    db::migrate(to).await.context("migrating the target")?;
    let existing: i64 = db::query_scalar("SELECT COUNT(*) FROM product")
        .fetch_one(to)
        .await?;
    if existing > 0 {
        bail!("the target already has {existing} products: copy into a new, empty database");
    }
    let versions = |pool: &Pool| {
        let pool = pool.clone();
        async move {
            db::query_scalar::<i64>("SELECT version FROM _sqlx_migrations ORDER BY version")
                .fetch_all(&pool)
                .await
        }
    };
    let (source_versions, target_versions) = (
        versions(from)
            .await
            .context("reading the source's migrations")?,
        versions(to).await?,
    );
    if source_versions != target_versions {
        bail!(
            "the source has migrations {source_versions:?}, this build {target_versions:?}: \
             run `origin migrate` on the source with this build first"
        );
    }

    let tables = db::table_names(from).await?;
    let target_tables: BTreeSet<String> = db::table_names(to).await?.into_iter().collect();
    if let Some(missing) = tables.iter().find(|t| !target_tables.contains(*t)) {
        bail!("the target has no table {missing}");
    }
    let not_null: BTreeSet<(String, String)> =
        db::not_null_columns(to).await?.into_iter().collect();
    let (order, deferred) = dependency_order(&tables, &db::foreign_keys(to).await?, |t, c| {
        !not_null.contains(&(t.to_string(), c.to_string()))
    })?;

    let mut tx = to.begin().await?;
    let names: Vec<&str> = order.iter().map(String::as_str).collect();
    db::suspend_triggers(&mut tx, &names).await?;
    let mut report = CopyReport::default();
    let mut later: Vec<(String, String, db::Value, db::Value)> = Vec::new();
    for table in &order {
        let source_cols = db::table_columns(from, table).await?;
        let target_cols = db::table_columns(to, table).await?;
        let kinds: BTreeMap<&str, db::Kind> =
            target_cols.iter().map(|(c, k)| (c.as_str(), *k)).collect();
        if let Some((lost, _)) = source_cols
            .iter()
            .find(|(c, _)| !kinds.contains_key(c.as_str()))
        {
            bail!("the target's {table} has no column {lost}");
        }
        // The source's columns, each with the target's kind.
        let cols: Vec<(String, db::Kind)> = source_cols
            .iter()
            .map(|(c, _)| (c.clone(), kinds[c.as_str()]))
            .collect();
        let rows = db::read_rows(from, table, &source_cols)
            .await
            .with_context(|| format!("reading {table}"))?;
        let mut rows = convert_rows(table, &cols, rows)?;
        // Columns that close a cycle: empty now, set below.
        for (_, col) in deferred.iter().filter(|(t, _)| t == table) {
            let at = cols.iter().position(|(c, _)| c == col);
            let id_at = cols.iter().position(|(c, _)| c == "id");
            let (Some(at), Some(id_at)) = (at, id_at) else {
                bail!("{table}.{col} closes a foreign-key cycle and {table} has no id");
            };
            for row in &mut rows {
                let value = std::mem::replace(&mut row[at], db::Value::Null);
                if value != db::Value::Null {
                    later.push((table.clone(), col.clone(), row[id_at].clone(), value));
                }
            }
        }
        if table == "change_log" {
            db::lock_change_log(&mut tx).await?;
        }
        let names: Vec<&str> = cols.iter().map(|(c, _)| c.as_str()).collect();
        let n = db::bulk_insert(&mut tx, table, &names, &rows)
            .await
            .with_context(|| format!("writing {table}"))?;
        report.tables.push((table.clone(), n));
    }
    for (table, col, id, value) in later {
        let (db::Value::Int(id), db::Value::Int(value)) = (id, value) else {
            bail!("{table}.{col}: only integer keys can close a cycle");
        };
        db::query(&format!("UPDATE {table} SET {col} = $1 WHERE id = $2"))
            .bind(value)
            .bind(id)
            .execute(&mut *tx)
            .await
            .with_context(|| format!("setting {table}.{col}"))?;
    }
    db::resume_triggers(&mut tx, &names).await?;
    tx.commit().await.context("committing the copy")?;
    db::after_bulk_load(to)
        .await
        .context("moving the id sequences")?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Every value of `rows` as the target column's type; an error names the
/// first that cannot be one.
pub fn convert_rows(
    table: &str,
    cols: &[(String, db::Kind)],
    rows: Vec<Vec<db::Value>>,
) -> anyhow::Result<Vec<Vec<db::Value>>> {
    rows.into_iter()
        .map(|row| {
            row.into_iter()
                .zip(cols)
                .map(|(v, (col, kind))| {
                    let shown = format!("{v:?}");
                    v.convert(*kind).with_context(|| {
                        format!("{table}.{col}: {shown} cannot be stored as {kind:?}")
                    })
                })
                .collect()
        })
        .collect()
}

/// `tables` ordered so that each comes after every table it refers to
/// (`keys`: (table, column, referred table); self-references are allowed),
/// alphabetical among equals so that the order is stable; and the columns
/// (table, column) left out to break cycles: when no table is ready, the
/// first waiting one whose keys into waiting tables are all `nullable` is
/// taken with those keys deferred.
#[allow(clippy::type_complexity)]
fn dependency_order(
    tables: &[String],
    keys: &[(String, String, String)],
    nullable: impl Fn(&str, &str) -> bool,
) -> anyhow::Result<(Vec<String>, Vec<(String, String)>)> {
    let mut pending: BTreeMap<&str, BTreeSet<(&str, &str)>> = tables
        .iter()
        .map(|t| (t.as_str(), BTreeSet::new()))
        .collect();
    for (table, column, parent) in keys {
        if table != parent && pending.contains_key(parent.as_str()) {
            if let Some(parents) = pending.get_mut(table.as_str()) {
                parents.insert((parent.as_str(), column.as_str()));
            }
        }
    }
    let mut order = Vec::with_capacity(tables.len());
    let mut deferred = Vec::new();
    while !pending.is_empty() {
        let mut ready: Vec<&str> = pending
            .iter()
            .filter(|(_, parents)| parents.is_empty())
            .map(|(t, _)| *t)
            .collect();
        if ready.is_empty() {
            let Some((first, parents)) = pending
                .iter_mut()
                .find(|(t, parents)| parents.iter().all(|(_, c)| nullable(t, c)))
            else {
                bail!(
                    "the foreign keys between {:?} form a cycle of NOT NULL columns",
                    pending.keys().collect::<Vec<_>>()
                );
            };
            for (_, column) in std::mem::take(parents) {
                deferred.push((first.to_string(), column.to_string()));
            }
            ready.push(first);
        }
        for t in ready {
            pending.remove(t);
            for parents in pending.values_mut() {
                parents.retain(|(p, _)| *p != t);
            }
            order.push(t.to_string());
        }
    }
    Ok((order, deferred))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_come_after_the_tables_they_refer_to_and_cycles_are_broken() {
        let tables: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let keys = [
            ("a", "x", "b"),
            ("b", "x", "c"),
            ("a", "y", "a"),
            ("d", "x", "c"),
        ]
        .map(|(x, c, y)| (x.to_string(), c.to_string(), y.to_string()));
        let (order, deferred) = dependency_order(&tables, &keys, |_, _| true).unwrap();
        assert_eq!(order, ["c", "b", "d", "a"]);
        assert!(deferred.is_empty());
        let cycle = [("a", "x", "b"), ("b", "y", "a")]
            .map(|(x, c, y)| (x.to_string(), c.to_string(), y.to_string()));
        let (order, deferred) = dependency_order(&tables, &cycle, |t, _| t != "a").unwrap();
        assert_eq!(order, ["c", "d", "b", "a"]);
        assert_eq!(deferred, [("b".to_string(), "y".to_string())]);
    }
}
