//! Bulk loads: many rows written at once (the seed, `origin copy-db`), and
//! reading a table whose columns are only known at run time.
//!
//! [`bulk_insert`] is the one entry point for writing rows in bulk: on SQLite
//! multi-row `INSERT`s (under SQLite's limit of bound values per statement),
//! on PostgreSQL `COPY … FROM STDIN` in the text format, which is an order of
//! magnitude faster than INSERTs there. [`suspend_triggers`] keeps the
//! change-log triggers from firing on every row of a load on PostgreSQL.

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteRow;
use sqlx::{Decode, Row as _, TypeInfo, ValueRef};

use super::query::{Executor, Target};
use super::{query, query_as, Conn, Dialect, Pool};

/// A column value whose type is only known at run time.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    /// A flag: INTEGER 0/1 on SQLite, BOOLEAN on PostgreSQL.
    Bool(bool),
    Text(String),
    Real(f64),
    Null,
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// What a column holds, as far as a copy must know: read from the schema
/// ([`table_columns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Int,
    Bool,
    Text,
    Real,
}

impl Value {
    /// This value as one of a column of `kind` (a SQLite 0/1 becomes a
    /// BOOLEAN, an integer in a REAL column a float); `None` when it cannot
    /// be one without losing something (a 2 as a flag, text as a number).
    pub fn convert(self, kind: Kind) -> Option<Value> {
        match (self, kind) {
            (Value::Null, _) => Some(Value::Null),
            (Value::Int(i), Kind::Int) => Some(Value::Int(i)),
            (Value::Int(0), Kind::Bool) => Some(Value::Bool(false)),
            (Value::Int(1), Kind::Bool) => Some(Value::Bool(true)),
            (Value::Int(i), Kind::Real) => Some(Value::Real(i as f64)),
            (Value::Bool(b), Kind::Bool) => Some(Value::Bool(b)),
            (Value::Bool(b), Kind::Int) => Some(Value::Int(i64::from(b))),
            (Value::Text(t), Kind::Text) => Some(Value::Text(t)),
            (Value::Real(r), Kind::Real) => Some(Value::Real(r)),
            _ => None,
        }
    }
}

/// Bound parameters per INSERT on SQLite: under its default limit (32,766).
const SQLITE_MAX_PARAMS: usize = 32_000;

/// Bytes of COPY data sent to PostgreSQL at a time.
const COPY_BUFFER: usize = 1 << 20;

/// Writes `rows` (each as wide as `columns`) into `table`, on the caller's
/// connection or transaction; returns how many. SQLite: multi-row INSERTs
/// with `?` placeholders.
/// PostgreSQL: one `COPY table (columns) FROM STDIN`, the values encoded in
/// COPY's text format (see [`copy_text`]). The triggers of `table` fire on
/// both, once per row, unless suspended ([`suspend_triggers`]); foreign keys
/// are checked on both (on PostgreSQL at the end of the statement, so rows
/// of one call may refer to each other).
///
/// `table` and `columns` are written into the SQL as they are: they must
/// come from the code or the schema, never from input.
pub async fn bulk_insert(
    conn: &mut Conn,
    table: &str,
    columns: &[&str],
    rows: &[Vec<Value>],
) -> sqlx::Result<u64> {
    if rows.is_empty() {
        return Ok(0);
    }
    let cols = columns.join(", ");
    if let Target::Pg(pg) = Executor::target(&mut *conn) {
        return copy_in(pg, table, &cols, columns.len(), rows).await;
    }
    // Anonymous `?` placeholders, not `$n`: sqlx binds a named parameter by
    // asking SQLite for its name, a linear search of the statement's names,
    // so 32,000 `$n` cost 32,000² steps a statement (minutes for a seed).
    let width = columns.len().max(1);
    let per_statement = (SQLITE_MAX_PARAMS / width).max(1);
    let tuple = format!("({})", vec!["?"; width].join(", "));
    let mut count = 0;
    for chunk in rows.chunks(per_statement) {
        let sql = format!(
            "INSERT INTO {table} ({cols}) VALUES {}",
            vec![tuple.as_str(); chunk.len()].join(", ")
        );
        let mut q = query(&sql);
        for row in chunk {
            debug_assert_eq!(row.len(), columns.len(), "a row of {table}");
            for v in row {
                q = match v {
                    Value::Int(i) => q.bind(*i),
                    Value::Bool(f) => q.bind(*f),
                    Value::Text(t) => q.bind(t.clone()),
                    Value::Real(r) => q.bind(*r),
                    Value::Null => q.bind(None::<i64>),
                };
            }
        }
        count += q.execute(&mut *conn).await?.rows_affected();
    }
    Ok(count)
}

async fn copy_in(
    pg: &mut PgConnection,
    table: &str,
    cols: &str,
    width: usize,
    rows: &[Vec<Value>],
) -> sqlx::Result<u64> {
    let mut copy = pg
        .copy_in_raw(&format!("COPY {table} ({cols}) FROM STDIN"))
        .await?;
    let mut buf = Vec::with_capacity(COPY_BUFFER + 4096);
    for row in rows {
        if row.len() != width {
            let message = format!("a row of {table} has {} values, not {width}", row.len());
            // Ends the COPY: nothing of it is written.
            copy.abort(message.clone()).await.ok();
            return Err(sqlx::Error::Protocol(message));
        }
        copy_text(row, &mut buf);
        if buf.len() >= COPY_BUFFER {
            copy.send(std::mem::take(&mut buf)).await?;
            buf.reserve(COPY_BUFFER + 4096);
        }
    }
    if !buf.is_empty() {
        copy.send(buf).await?;
    }
    copy.finish().await
}

/// Appends one row in PostgreSQL's COPY text format: values separated by a
/// tab, the row ended by a newline, NULL as `\N`; in text, a backslash, tab,
/// newline or carriage return is written as `\\`, `\t`, `\n`, `\r` (every
/// other character is itself, UTF-8 as the connection's encoding). Booleans
/// are `t`/`f`; floats the shortest text that reads back as the same number
/// (`NaN`, `Infinity`, `-Infinity` spelled as PostgreSQL reads them).
pub fn copy_text(row: &[Value], out: &mut Vec<u8>) {
    use std::io::Write;
    for (i, v) in row.iter().enumerate() {
        if i > 0 {
            out.push(b'\t');
        }
        match v {
            Value::Null => out.extend_from_slice(b"\\N"),
            Value::Int(n) => write!(out, "{n}").expect("writing to a Vec"),
            Value::Bool(b) => out.push(if *b { b't' } else { b'f' }),
            Value::Real(r) if r.is_nan() => out.extend_from_slice(b"NaN"),
            Value::Real(r) if r.is_infinite() => {
                out.extend_from_slice(if *r > 0.0 { b"Infinity" } else { b"-Infinity" })
            }
            Value::Real(r) => write!(out, "{r:?}").expect("writing to a Vec"),
            Value::Text(t) => {
                for &byte in t.as_bytes() {
                    match byte {
                        b'\\' => out.extend_from_slice(b"\\\\"),
                        b'\t' => out.extend_from_slice(b"\\t"),
                        b'\n' => out.extend_from_slice(b"\\n"),
                        b'\r' => out.extend_from_slice(b"\\r"),
                        _ => out.push(byte),
                    }
                }
            }
        }
    }
    out.push(b'\n');
}

/// Stops the user triggers of `tables` (the change log's) from firing for
/// the rest of the transaction `conn` holds, until [`resume_triggers`].
/// PostgreSQL: `ALTER TABLE … DISABLE TRIGGER USER`, which the tables'
/// owner may run (the user that migrated them; no superuser needed, unlike
/// `session_replication_role`) and which leaves the foreign-key checks on.
/// It is part of the transaction: other sessions never see the triggers
/// off (the ACCESS EXCLUSIVE lock it takes makes them wait for the commit
/// to touch these tables), and a rollback restores them. Meant for loads
/// into a new database. SQLite: nothing (its triggers are cheap; the caller
/// empties or keeps the log as it needs).
pub async fn suspend_triggers(conn: &mut Conn, tables: &[&str]) -> sqlx::Result<()> {
    set_triggers(conn, tables, "DISABLE").await
}

/// Undoes [`suspend_triggers`] (in the same transaction, before its commit).
pub async fn resume_triggers(conn: &mut Conn, tables: &[&str]) -> sqlx::Result<()> {
    set_triggers(conn, tables, "ENABLE").await
}

async fn set_triggers(conn: &mut Conn, tables: &[&str], what: &str) -> sqlx::Result<()> {
    if conn.dialect() == Dialect::Postgres {
        for table in tables {
            query(&format!("ALTER TABLE {table} {what} TRIGGER USER"))
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

/// Takes the lock that every writer of `change_log` takes first on
/// PostgreSQL (see `migrations/postgres/0004_change_log.sql`: ids must
/// become visible in commit order), for a transaction that inserts into the
/// log itself. SQLite: nothing (one writer at a time).
pub async fn lock_change_log(conn: &mut Conn) -> sqlx::Result<()> {
    if conn.dialect() == Dialect::Postgres {
        query("SELECT pg_advisory_xact_lock(CAST(CAST(CAST('change_log' AS regclass) AS oid) AS BIGINT))")
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// The shop's tables (sqlx's bookkeeping and SQLite's own left out), by name.
pub async fn table_names(pool: &Pool) -> sqlx::Result<Vec<String>> {
    let sql = match pool.dialect() {
        Dialect::Sqlite => {
            "SELECT name FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name"
        }
        Dialect::Postgres => {
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
             AND table_name <> '_sqlx_migrations' ORDER BY 1"
        }
    };
    let names: Vec<(String,)> = query_as(sql).fetch_all(pool).await?;
    Ok(names.into_iter().map(|(n,)| n).collect())
}

/// A table's columns in order, with what each holds. PostgreSQL: from
/// `information_schema.columns` (BIGINT, INTEGER, SMALLINT → Int; BOOLEAN;
/// DOUBLE PRECISION, REAL, NUMERIC → Real; anything else is read and written
/// as text). SQLite: from the declared type's affinity (INTEGER, REAL, else
/// text; SQLite has no BOOLEAN: its flags are INTEGER 0/1).
pub async fn table_columns(pool: &Pool, table: &str) -> sqlx::Result<Vec<(String, Kind)>> {
    let cols: Vec<(String, String)> = match pool.dialect() {
        Dialect::Sqlite => {
            query_as("SELECT name, type FROM pragma_table_info($1) ORDER BY cid")
                .bind(table.to_string())
                .fetch_all(pool)
                .await?
        }
        Dialect::Postgres => {
            query_as(
                "SELECT CAST(column_name AS TEXT), CAST(data_type AS TEXT) \
                 FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = $1 \
                 ORDER BY ordinal_position",
            )
            .bind(table.to_string())
            .fetch_all(pool)
            .await?
        }
    };
    Ok(cols
        .into_iter()
        .map(|(name, ty)| {
            let ty = ty.to_ascii_lowercase();
            let kind = if ty == "boolean" {
                Kind::Bool
            } else if ty.contains("int") {
                Kind::Int
            } else if ty.contains("real")
                || ty.contains("double")
                || ty.contains("float")
                || ty.contains("numeric")
            {
                Kind::Real
            } else {
                Kind::Text
            };
            (name, kind)
        })
        .collect())
}

/// The foreign keys between the shop's tables: (table, column, the table it
/// refers to), self-references included.
pub async fn foreign_keys(pool: &Pool) -> sqlx::Result<Vec<(String, String, String)>> {
    let sql = match pool.dialect() {
        Dialect::Sqlite => {
            "SELECT DISTINCT m.name, f.\"from\", f.\"table\" FROM sqlite_master m, \
             pragma_foreign_key_list(m.name) f WHERE m.type = 'table' ORDER BY 1, 2, 3"
        }
        Dialect::Postgres => {
            "SELECT DISTINCT CAST(c.conrelid::regclass AS TEXT), CAST(a.attname AS TEXT), \
             CAST(c.confrelid::regclass AS TEXT) FROM pg_constraint c \
             JOIN pg_namespace n ON n.oid = c.connamespace \
             JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey) \
             WHERE c.contype = 'f' AND n.nspname = current_schema() ORDER BY 1, 2, 3"
        }
    };
    query_as(sql).fetch_all(pool).await
}

/// The columns that may not be NULL: (table, column).
pub async fn not_null_columns(pool: &Pool) -> sqlx::Result<Vec<(String, String)>> {
    let sql = match pool.dialect() {
        Dialect::Sqlite => {
            "SELECT m.name, c.name FROM sqlite_master m, pragma_table_info(m.name) c \
             WHERE m.type = 'table' AND c.\"notnull\" = 1 ORDER BY 1, 2"
        }
        Dialect::Postgres => {
            "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) \
             FROM information_schema.columns WHERE table_schema = current_schema() \
             AND is_nullable = 'NO' ORDER BY 1, 2"
        }
    };
    query_as(sql).fetch_all(pool).await
}

/// Every row of `table`, the `columns` given, each value as the database
/// holds it (on SQLite by its storage class: INTEGER, REAL, TEXT; a BLOB is
/// refused), in no particular order.
pub async fn read_rows(
    pool: &Pool,
    table: &str,
    columns: &[(String, Kind)],
) -> sqlx::Result<Vec<Vec<Value>>> {
    let list = columns
        .iter()
        .map(|(c, _)| c.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!("SELECT {list} FROM {table}");
    match pool {
        Pool::Sqlite(p) => {
            let rows = sqlx::query(&sql).fetch_all(p).await?;
            rows.iter().map(|r| sqlite_row(r, columns.len())).collect()
        }
        Pool::Postgres(p) => {
            let rows = sqlx::query(&sql).fetch_all(p).await?;
            rows.iter()
                .map(|r| {
                    columns
                        .iter()
                        .enumerate()
                        .map(|(i, (_, kind))| {
                            Ok(match kind {
                                Kind::Int => r.try_get::<Option<i64>, _>(i)?.map(Value::Int),
                                Kind::Bool => r.try_get::<Option<bool>, _>(i)?.map(Value::Bool),
                                Kind::Real => r.try_get::<Option<f64>, _>(i)?.map(Value::Real),
                                Kind::Text => r.try_get::<Option<String>, _>(i)?.map(Value::Text),
                            }
                            .unwrap_or(Value::Null))
                        })
                        .collect()
                })
                .collect()
        }
    }
}

fn sqlite_row(row: &SqliteRow, width: usize) -> sqlx::Result<Vec<Value>> {
    (0..width)
        .map(|i| {
            let raw = row.try_get_raw(i)?;
            if raw.is_null() {
                return Ok(Value::Null);
            }
            let class = raw.type_info().name().to_string();
            let decode_err = |e| sqlx::Error::ColumnDecode {
                index: i.to_string(),
                source: e,
            };
            Ok(match class.as_str() {
                "INTEGER" | "BOOLEAN" => {
                    Value::Int(<i64 as Decode<sqlx::Sqlite>>::decode(raw).map_err(decode_err)?)
                }
                "REAL" => {
                    Value::Real(<f64 as Decode<sqlx::Sqlite>>::decode(raw).map_err(decode_err)?)
                }
                "TEXT" => {
                    Value::Text(<String as Decode<sqlx::Sqlite>>::decode(raw).map_err(decode_err)?)
                }
                other => {
                    return Err(sqlx::Error::ColumnDecode {
                        index: i.to_string(),
                        source: format!("a {other} value cannot be copied").into(),
                    })
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testing::TestDatabase;
    use super::*;

    #[test]
    fn copy_text_escapes_what_copy_reads_specially() {
        let mut out = Vec::new();
        copy_text(
            &[
                Value::Int(-7),
                Value::Bool(true),
                Value::Text("a\tb\nc\rd\\e \\N".into()),
                Value::Null,
                Value::Real(0.1),
                Value::Real(f64::NEG_INFINITY),
            ],
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "-7\tt\ta\\tb\\nc\\rd\\\\e \\\\N\t\\N\t0.1\t-Infinity\n"
        );
    }

    #[tokio::test]
    async fn bulk_insert_writes_every_kind_of_value_and_suspended_triggers_stay_quiet() {
        let db = TestDatabase::empty().await;
        let pool = db.pool().await;
        query(
            "CREATE TABLE t (id BIGINT PRIMARY KEY, name TEXT, flag BOOLEAN NOT NULL, \
             ratio DOUBLE PRECISION)",
        )
        .execute(&pool)
        .await
        .unwrap();
        query("CREATE TABLE log (n BIGINT)")
            .execute(&pool)
            .await
            .unwrap();
        let postgres = pool.dialect() == Dialect::Postgres;
        if postgres {
            super::super::raw_sql(
                "CREATE FUNCTION t_log() RETURNS trigger LANGUAGE plpgsql AS $$ \
                 BEGIN INSERT INTO log VALUES (NEW.id); RETURN NULL; END $$; \
                 CREATE TRIGGER t_log AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION t_log();",
            )
            .execute(&pool)
            .await
            .unwrap();
        } else {
            query(
                "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (NEW.id); END",
            )
            .execute(&pool)
            .await
            .unwrap();
        }
        let tricky = "tab\there\nnew line\r\\ back\\N slash, 'quote' \"dq\" বাংলা";
        let rows: Vec<Vec<Value>> = (1..=40_000_i64)
            .map(|i| {
                vec![
                    Value::Int(i),
                    if i % 3 == 0 {
                        Value::Null
                    } else {
                        Value::Text(format!("{tricky} {i}"))
                    },
                    Value::Bool(i % 2 == 0),
                    if i == 5 {
                        Value::Null
                    } else {
                        Value::Real(i as f64 / 3.0)
                    },
                ]
            })
            .collect();
        let mut tx = pool.begin().await.unwrap();
        suspend_triggers(&mut tx, &["t"]).await.unwrap();
        let n = bulk_insert(&mut tx, "t", &["id", "name", "flag", "ratio"], &rows)
            .await
            .unwrap();
        resume_triggers(&mut tx, &["t"]).await.unwrap();
        tx.commit().await.unwrap();
        assert_eq!(n, 40_000);

        let cols = table_columns(&pool, "t").await.unwrap();
        let kinds: Vec<Kind> = cols.iter().map(|c| c.1).collect();
        assert_eq!(kinds[..2], [Kind::Int, Kind::Text]);
        assert_eq!(kinds[3], Kind::Real);
        if postgres {
            // SQLite's BOOLEAN is a name only: its values are read by storage class.
            assert_eq!(kinds[2], Kind::Bool);
        }
        let mut back = read_rows(&pool, "t", &cols).await.unwrap();
        back.sort_by_key(|r| match r[0] {
            Value::Int(i) => i,
            _ => unreachable!(),
        });
        let want: Vec<Vec<Value>> = rows
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .zip(&kinds)
                    .map(|(v, k)| match (v, postgres, k) {
                        (Value::Bool(b), false, _) => Value::Int(i64::from(b)),
                        (v, _, _) => v,
                    })
                    .collect()
            })
            .collect();
        assert!(back == want, "rows read back differ");

        // The trigger fired for every row on SQLite, for none on PostgreSQL,
        // and is on again after the load.
        let logged: i64 = super::super::query_scalar("SELECT COUNT(*) FROM log")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(logged, if postgres { 0 } else { 40_000 });
        query("INSERT INTO t (id, flag) VALUES (0, TRUE)")
            .execute(&pool)
            .await
            .unwrap();
        let logged_after: i64 = super::super::query_scalar("SELECT COUNT(*) FROM log")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(logged_after, logged + 1);
    }
}
