//! Queries that run on either database.
//!
//! The shop's SQL is written once, in the subset SQLite and PostgreSQL both
//! accept (`$1` placeholders, `ON CONFLICT`, `RETURNING`, booleans as
//! `TRUE`/`FALSE`, casts to `BIGINT`). [`query`], [`query_as`],
//! [`query_scalar`] and [`QueryBuilder`] mirror sqlx's functions of the same
//! names, but are not tied to one backend: the values bound to a query are
//! kept until it runs, and then encoded for the pool or connection it runs on.
//!
//! Nothing is decided at run time that the compiler could check: every bound
//! value must encode for both backends and every row type must decode from
//! both (the bounds below), so a type one database cannot carry fails to
//! build, not in production. What the compiler cannot see (a function one
//! dialect lacks, an `INT4` where `BIGINT` is decoded) is caught by the test
//! suites, which run on both databases.

use std::borrow::Cow;
use std::fmt::Display;

use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArguments, PgConnection, PgPool, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteConnection, SqlitePool, SqliteRow};
use sqlx::{Arguments, ColumnIndex, Decode, Encode, FromRow, Postgres, Sqlite, Type};

use super::{Conn, ConnInner, Pool};

/// The longest statement (bytes of SQL) kept in a connection's statement
/// cache (`STATEMENT_CACHE` statements each). Longer ones are prepared, run
/// and finalized: they are the statements made for one request, whose `IN`
/// lists and `CASE` orderings carry the ids a keyword search found, and
/// whose compiled programs grow with them. Kept, they were the origin's
/// largest live-heap consumer in a 100,000-product fuzz (heaptrack: SQLite's
/// `sqlite3VdbeAddOp` under the compiled `IN` lists); at 2,000 products not
/// caching them took the origin's anonymous memory after the fuzz from 93 to
/// 39 MB (issue 19).
pub const MAX_CACHED_SQL: usize = 4_096;

/// Whether a statement of this text is worth keeping prepared.
fn cacheable(sql: &str) -> bool {
    sql.len() <= MAX_CACHED_SQL
}

/// A value that can be bound to a query on both databases.
pub trait Param<'q>: Send + 'q {
    #[doc(hidden)]
    fn add_sqlite(self: Box<Self>, args: &mut SqliteArguments<'q>) -> Result<(), BoxDynError>;
    #[doc(hidden)]
    fn add_pg(self: Box<Self>, args: &mut PgArguments) -> Result<(), BoxDynError>;
}

impl<'q, T> Param<'q> for T
where
    T: Send + 'q + Encode<'q, Sqlite> + Type<Sqlite> + Encode<'q, Postgres> + Type<Postgres>,
{
    fn add_sqlite(self: Box<Self>, args: &mut SqliteArguments<'q>) -> Result<(), BoxDynError> {
        args.add(*self)
    }
    fn add_pg(self: Box<Self>, args: &mut PgArguments) -> Result<(), BoxDynError> {
        args.add(*self)
    }
}

/// A type that decodes from a column of either database.
pub trait Column: Send + Unpin + 'static
where
    Self: for<'r> Decode<'r, Sqlite> + Type<Sqlite> + for<'r> Decode<'r, Postgres> + Type<Postgres>,
{
}

impl<T> Column for T where
    T: Send
        + Unpin
        + 'static
        + for<'r> Decode<'r, Sqlite>
        + Type<Sqlite>
        + for<'r> Decode<'r, Postgres>
        + Type<Postgres>
{
}

/// A type that is made from a row of either database (`#[derive(sqlx::FromRow)]`, tuples).
pub trait Record: Send + Unpin
where
    Self: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow>,
{
}

impl<T> Record for T where
    T: Send + Unpin + for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow>
{
}

/// The values bound to a query, in order, not yet encoded.
#[derive(Default)]
pub struct Params<'q> {
    values: Vec<Box<dyn Param<'q>>>,
}

impl<'q> Params<'q> {
    fn push<T: Param<'q>>(&mut self, value: T) {
        self.values.push(Box::new(value));
    }

    fn len(&self) -> usize {
        self.values.len()
    }

    fn sqlite(self) -> sqlx::Result<SqliteArguments<'q>> {
        let mut args = SqliteArguments::default();
        for v in self.values {
            v.add_sqlite(&mut args).map_err(sqlx::Error::Encode)?;
        }
        Ok(args)
    }

    fn pg(self) -> sqlx::Result<PgArguments> {
        let mut args = PgArguments::default();
        for v in self.values {
            v.add_pg(&mut args).map_err(sqlx::Error::Encode)?;
        }
        Ok(args)
    }
}

/// Where a query runs: a pool, or one connection (pooled or in a transaction).
pub enum Target<'c> {
    SqlitePool(&'c SqlitePool),
    Sqlite(&'c mut SqliteConnection),
    PgPool(&'c PgPool),
    Pg(&'c mut PgConnection),
}

/// Something a query can run on: `&Pool`, or `&mut Conn` (`&mut *tx` of a
/// transaction, `&mut *conn` of a pooled connection).
pub trait Executor<'c>: Send {
    fn target(self) -> Target<'c>;
}

impl<'c> Executor<'c> for &'c Pool {
    fn target(self) -> Target<'c> {
        match self {
            Pool::Sqlite(p) => Target::SqlitePool(p),
            Pool::Postgres(p) => Target::PgPool(p),
        }
    }
}

impl<'c> Executor<'c> for &'c mut Conn {
    fn target(self) -> Target<'c> {
        match &mut self.0 {
            ConnInner::Sqlite(c) => Target::Sqlite(c),
            ConnInner::SqliteTx(t) => Target::Sqlite(t),
            ConnInner::Postgres(c) => Target::Pg(c),
            ConnInner::PostgresTx(t) => Target::Pg(t),
        }
    }
}

/// Runs one sqlx call on whichever backend `$target` is, with the parameters
/// encoded for it; `$wrap_*` turns each backend's answer into ours.
macro_rules! on_target {
    ($target:expr, $params:expr, |$args:ident, $ex:ident| $call:expr, $wrap_sqlite:expr, $wrap_pg:expr) => {
        match $target {
            Target::SqlitePool($ex) => {
                let $args = $params.sqlite()?;
                $call.await.map($wrap_sqlite)
            }
            Target::Sqlite($ex) => {
                let $args = $params.sqlite()?;
                $call.await.map($wrap_sqlite)
            }
            Target::PgPool($ex) => {
                let $args = $params.pg()?;
                $call.await.map($wrap_pg)
            }
            Target::Pg($ex) => {
                let $args = $params.pg()?;
                $call.await.map($wrap_pg)
            }
        }
    };
}

/// What a statement did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Done {
    rows_affected: u64,
}

impl Done {
    /// Rows inserted, updated or deleted.
    pub fn rows_affected(&self) -> u64 {
        self.rows_affected
    }
}

/// A row of either database, for queries read column by column.
pub enum Row {
    Sqlite(SqliteRow),
    Postgres(PgRow),
}

impl Row {
    /// The value of a column by name or position; panics when it is missing
    /// or of another type (as `sqlx::Row::get`): prefer [`Row::try_get`].
    pub fn get<T: Column, I>(&self, index: I) -> T
    where
        I: ColumnIndex<SqliteRow> + ColumnIndex<PgRow> + std::fmt::Debug,
    {
        match self.try_get(index) {
            Ok(v) => v,
            Err(e) => panic!("reading a column: {e}"),
        }
    }

    /// The value of a column by name or position.
    pub fn try_get<T: Column, I>(&self, index: I) -> sqlx::Result<T>
    where
        I: ColumnIndex<SqliteRow> + ColumnIndex<PgRow>,
    {
        use sqlx::Row as _;
        match self {
            Row::Sqlite(r) => r.try_get(index),
            Row::Postgres(r) => r.try_get(index),
        }
    }
}

/// A statement with its bound values: see [`query`].
#[must_use = "a query does nothing until it is executed or fetched"]
pub struct Query<'q> {
    sql: Cow<'q, str>,
    params: Params<'q>,
}

/// `sqlx::query` for either database.
pub fn query(sql: &str) -> Query<'_> {
    Query {
        sql: Cow::Borrowed(sql),
        params: Params::default(),
    }
}

impl<'q> Query<'q> {
    /// Binds the next `$n`.
    pub fn bind<T: Param<'q>>(mut self, value: T) -> Self {
        self.params.push(value);
        self
    }

    /// Runs the statement.
    pub async fn execute<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Done> {
        let (sql, params) = (self.sql, self.params);
        let sql: &str = &sql;
        on_target!(
            executor.target(),
            params,
            |args, ex| sqlx::query_with(sql, args)
                .persistent(cacheable(sql))
                .execute(ex),
            |r| Done {
                rows_affected: r.rows_affected()
            },
            |r| Done {
                rows_affected: r.rows_affected()
            }
        )
    }

    /// Every row.
    pub async fn fetch_all<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Vec<Row>> {
        let (sql, params) = (self.sql, self.params);
        let sql: &str = &sql;
        on_target!(
            executor.target(),
            params,
            |args, ex| sqlx::query_with(sql, args)
                .persistent(cacheable(sql))
                .fetch_all(ex),
            |rows| rows.into_iter().map(Row::Sqlite).collect(),
            |rows| rows.into_iter().map(Row::Postgres).collect()
        )
    }

    /// The first row, or `RowNotFound`.
    pub async fn fetch_one<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Row> {
        let (sql, params) = (self.sql, self.params);
        let sql: &str = &sql;
        on_target!(
            executor.target(),
            params,
            |args, ex| sqlx::query_with(sql, args)
                .persistent(cacheable(sql))
                .fetch_one(ex),
            Row::Sqlite,
            Row::Postgres
        )
    }

    /// The first row, if any.
    pub async fn fetch_optional<'c, E: Executor<'c>>(
        self,
        executor: E,
    ) -> sqlx::Result<Option<Row>> {
        let (sql, params) = (self.sql, self.params);
        let sql: &str = &sql;
        on_target!(
            executor.target(),
            params,
            |args, ex| sqlx::query_with(sql, args)
                .persistent(cacheable(sql))
                .fetch_optional(ex),
            |r| r.map(Row::Sqlite),
            |r| r.map(Row::Postgres)
        )
    }
}

/// Several statements separated by `;`, with no bound values: see [`raw_sql`].
#[must_use = "a script does nothing until it is executed"]
pub struct RawSql<'q> {
    sql: &'q str,
}

/// `sqlx::raw_sql` for either database: a script of statements (fixtures, set-up).
pub fn raw_sql(sql: &str) -> RawSql<'_> {
    RawSql { sql }
}

impl RawSql<'_> {
    /// Runs every statement; the rows they touched, together.
    pub async fn execute<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Done> {
        let sql = self.sql;
        let wrap = |rows_affected| Done { rows_affected };
        match executor.target() {
            Target::SqlitePool(p) => sqlx::raw_sql(sql)
                .execute(p)
                .await
                .map(|r| wrap(r.rows_affected())),
            Target::Sqlite(c) => sqlx::raw_sql(sql)
                .execute(c)
                .await
                .map(|r| wrap(r.rows_affected())),
            Target::PgPool(p) => sqlx::raw_sql(sql)
                .execute(p)
                .await
                .map(|r| wrap(r.rows_affected())),
            Target::Pg(c) => sqlx::raw_sql(sql)
                .execute(c)
                .await
                .map(|r| wrap(r.rows_affected())),
        }
    }
}

/// A statement whose rows become `O`: see [`query_as`].
#[must_use = "a query does nothing until it is fetched"]
pub struct QueryAs<'q, O> {
    sql: Cow<'q, str>,
    params: Params<'q>,
    _row: std::marker::PhantomData<fn() -> O>,
}

/// `sqlx::query_as` for either database.
pub fn query_as<O: Record>(sql: &str) -> QueryAs<'_, O> {
    QueryAs {
        sql: Cow::Borrowed(sql),
        params: Params::default(),
        _row: std::marker::PhantomData,
    }
}

impl<'q, O: Record> QueryAs<'q, O> {
    /// Binds the next `$n`.
    pub fn bind<T: Param<'q>>(mut self, value: T) -> Self {
        self.params.push(value);
        self
    }

    /// Every row.
    pub async fn fetch_all<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Vec<O>> {
        let (sql, params) = (self.sql, self.params);
        let sql: &str = &sql;
        on_target!(
            executor.target(),
            params,
            |args, ex| sqlx::query_as_with(sql, args)
                .persistent(cacheable(sql))
                .fetch_all(ex),
            |rows| rows,
            |rows| rows
        )
    }

    /// The first row, or `RowNotFound`.
    pub async fn fetch_one<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<O> {
        let (sql, params) = (self.sql, self.params);
        let sql: &str = &sql;
        on_target!(
            executor.target(),
            params,
            |args, ex| sqlx::query_as_with(sql, args)
                .persistent(cacheable(sql))
                .fetch_one(ex),
            |r| r,
            |r| r
        )
    }

    /// The first row, if any.
    pub async fn fetch_optional<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Option<O>> {
        let (sql, params) = (self.sql, self.params);
        let sql: &str = &sql;
        on_target!(
            executor.target(),
            params,
            |args, ex| sqlx::query_as_with(sql, args)
                .persistent(cacheable(sql))
                .fetch_optional(ex),
            |r| r,
            |r| r
        )
    }
}

/// A statement whose rows are one column of `O`: see [`query_scalar`].
#[must_use = "a query does nothing until it is fetched"]
pub struct QueryScalar<'q, O> {
    inner: QueryAs<'q, (O,)>,
}

/// `sqlx::query_scalar` for either database.
pub fn query_scalar<O: Column>(sql: &str) -> QueryScalar<'_, O> {
    QueryScalar {
        inner: query_as(sql),
    }
}

impl<'q, O: Column> QueryScalar<'q, O> {
    /// Binds the next `$n`.
    pub fn bind<T: Param<'q>>(mut self, value: T) -> Self {
        self.inner = self.inner.bind(value);
        self
    }

    /// Every row's value.
    pub async fn fetch_all<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Vec<O>> {
        Ok(self
            .inner
            .fetch_all(executor)
            .await?
            .into_iter()
            .map(|(v,)| v)
            .collect())
    }

    /// The first row's value, or `RowNotFound`.
    pub async fn fetch_one<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<O> {
        Ok(self.inner.fetch_one(executor).await?.0)
    }

    /// The first row's value, if any.
    pub async fn fetch_optional<'c, E: Executor<'c>>(self, executor: E) -> sqlx::Result<Option<O>> {
        Ok(self.inner.fetch_optional(executor).await?.map(|(v,)| v))
    }
}

/// Builds a statement piece by piece, with `$n` placeholders numbered as
/// values are bound (as `sqlx::QueryBuilder`).
pub struct QueryBuilder<'q> {
    sql: String,
    params: Params<'q>,
}

impl<'q> QueryBuilder<'q> {
    /// Starts with `init`.
    pub fn new(init: impl Into<String>) -> Self {
        QueryBuilder {
            sql: init.into(),
            params: Params::default(),
        }
    }

    /// Appends SQL text (never a value: bind those).
    pub fn push(&mut self, sql: impl Display) -> &mut Self {
        use std::fmt::Write;
        write!(self.sql, "{sql}").expect("writing to a String");
        self
    }

    /// Appends a placeholder and binds `value` to it.
    pub fn push_bind<T: Param<'q>>(&mut self, value: T) -> &mut Self {
        self.params.push(value);
        let n = self.params.len();
        self.push(format_args!("${n}"))
    }

    /// A list whose items are separated by `separator`.
    pub fn separated<'b>(&'b mut self, separator: &'static str) -> Separated<'b, 'q> {
        Separated {
            builder: self,
            separator,
            first: true,
        }
    }

    /// `VALUES (…), (…)` for each item of `rows`, each made by `row`.
    pub fn push_values<I, F>(&mut self, rows: I, mut row: F) -> &mut Self
    where
        I: IntoIterator,
        F: FnMut(Separated<'_, 'q>, I::Item),
    {
        self.push("VALUES ");
        for (i, item) in rows.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.push("(");
            row(self.separated(", "), item);
            self.push(")");
        }
        self
    }

    /// The SQL so far.
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The statement, with its values (the builder is left empty of values).
    pub fn build(&mut self) -> Query<'q> {
        Query {
            sql: Cow::Owned(self.sql.clone()),
            params: std::mem::take(&mut self.params),
        }
    }

    /// The statement, its rows read as `O`.
    pub fn build_query_as<O: Record>(&mut self) -> QueryAs<'q, O> {
        QueryAs {
            sql: Cow::Owned(self.sql.clone()),
            params: std::mem::take(&mut self.params),
            _row: std::marker::PhantomData,
        }
    }

    /// The statement, its rows read as one column of `O`.
    pub fn build_query_scalar<O: Column>(&mut self) -> QueryScalar<'q, O> {
        QueryScalar {
            inner: self.build_query_as(),
        }
    }
}

/// Items of a list in a [`QueryBuilder`], with separators between them.
pub struct Separated<'b, 'q> {
    builder: &'b mut QueryBuilder<'q>,
    separator: &'static str,
    first: bool,
}

impl<'q> Separated<'_, 'q> {
    fn separate(&mut self) {
        if !self.first {
            self.builder.push(self.separator);
        }
        self.first = false;
    }

    /// Appends an item of SQL text.
    pub fn push(&mut self, sql: impl Display) -> &mut Self {
        self.separate();
        self.builder.push(sql);
        self
    }

    /// Appends an item that is a bound value.
    pub fn push_bind<T: Param<'q>>(&mut self, value: T) -> &mut Self {
        self.separate();
        self.builder.push_bind(value);
        self
    }
}
