//! The demo shop's data, for `origin seed` and for tests only: the shop's
//! own code never links it. A deterministic demo catalogue (the same seed
//! and the same `now` make the same shop) of a believable Bangladeshi
//! furniture shop: the category tree, products with taka prices,
//! attributes, variations, images and 360 frames, product sets with
//! fabrics, sliders, menus, widgets, settings, the 64 districts, showrooms,
//! posts, interior galleries, flash sales, coupons and a few demo shoppers
//! with orders.
//!
//! Rows are built in memory from one seeded RNG ([`rand_chacha::ChaCha8Rng`])
//! and written in one transaction by [`db::bulk_insert`] (multi-row INSERTs
//! on SQLite, COPY on PostgreSQL), so 100,000 products
//! take seconds. Images come from a fixed pool drawn by code ([`images`]).

mod catalogue;
mod content;
pub mod images;
mod people;
mod texts;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use catalog::db::{self, Conn, Pool};

/// What to make.
#[derive(Debug, Clone)]
pub struct SeedOptions {
    /// How many products.
    pub products: u32,
    /// The random seed.
    pub seed: u64,
    /// Where image files are written (served as `/storage/...`).
    pub storage_dir: PathBuf,
    /// The instant the shop is seeded at (unix seconds): flash sales and post
    /// dates are placed relative to it. Tests pin it; the command uses now.
    pub now: i64,
    /// Show a progress bar (only on a terminal).
    pub progress: bool,
}

/// What was made, for the command's summary.
#[derive(Debug, Clone, Default)]
pub struct SeedReport {
    /// Products made.
    pub products: u64,
    /// Category rows (product and interior categories, the root included).
    pub categories: u64,
    /// Image files in the pool (`image_file` rows), each a full size and an icon.
    pub images: u64,
    /// Rows inserted, every table together.
    pub rows: u64,
    /// Wall-clock seconds of the whole seed.
    pub seconds: f64,
    /// Seconds per step, in order ("images", "build", "insert", "checkpoint").
    pub steps: Vec<(&'static str, f64)>,
}

/// Demo shopper credentials (documented in the README).
pub const DEMO_EMAIL: &str = "demo@example.com";
/// The demo shopper's password.
pub const DEMO_PASSWORD: &str = "demo-password-1";

/// A column value of a seeded row (flags are `Value::Bool`: INTEGER 0/1 on
/// SQLite, BOOLEAN on PostgreSQL).
pub(crate) use catalog::db::Value as V;

/// `row![a, b, c]`: a row of column values.
macro_rules! row {
    ($($v:expr),* $(,)?) => { vec![$($crate::V::from($v)),*] };
}
pub(crate) use row;

/// Rows for one table, written with [`db::bulk_insert`].
pub(crate) struct Table {
    name: &'static str,
    cols: &'static [&'static str],
    rows: Vec<Vec<V>>,
}

/// Rows per [`db::bulk_insert`] call: the progress bar moves at each.
const ROWS_PER_CALL: usize = 20_000;

impl Table {
    pub(crate) fn new(name: &'static str, cols: &'static [&'static str]) -> Table {
        Table {
            name,
            cols,
            rows: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, row: Vec<V>) {
        debug_assert_eq!(
            row.len(),
            self.cols.len(),
            "a row of {} has the wrong width",
            self.name
        );
        self.rows.push(row);
    }

    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Inserts every row, advancing `bar` as it goes; returns how many.
    ///
    /// A table whose rows do not set `created_at` gets `created_at` and
    /// `updated_at` = `now` (the seed's instant), not the columns' default of
    /// the wall clock: the same seed and `now` must make identical rows.
    pub(crate) async fn insert(
        mut self,
        conn: &mut Conn,
        bar: &ProgressBar,
        now: i64,
    ) -> anyhow::Result<u64> {
        let mut cols = self.cols.to_vec();
        if !self.cols.contains(&"created_at") {
            cols.extend(["created_at", "updated_at"]);
            for row in &mut self.rows {
                row.extend([V::Int(now), V::Int(now)]);
            }
        }
        let mut count = 0;
        for chunk in self.rows.chunks(ROWS_PER_CALL) {
            count += db::bulk_insert(conn, self.name, &cols, chunk)
                .await
                .with_context(|| format!("inserting into {}", self.name))?;
            bar.inc(chunk.len() as u64);
        }
        Ok(count)
    }
}

/// Fills an empty, migrated database with the demo shop: draws (or finds)
/// the image pool, builds every row in memory from the seeded RNG, inserts
/// them in one transaction and checkpoints the WAL. Refuses a database that
/// already has products.
pub async fn seed(pool: &Pool, options: &SeedOptions) -> anyhow::Result<SeedReport> {
    let started = Instant::now();
    let existing: i64 = db::query_scalar("SELECT COUNT(*) FROM product")
        .fetch_one(pool)
        .await
        .context("counting existing products (is the database migrated?)")?;
    if existing > 0 {
        bail!("the database already has {existing} products: seed a new, empty database");
    }
    let mut report = SeedReport::default();
    let mut step = Instant::now();
    let mut lap = |report: &mut SeedReport, name: &'static str| {
        report.steps.push((name, step.elapsed().as_secs_f64()));
        step = Instant::now();
    };

    let bar = if options.progress && std::io::stderr().is_terminal() {
        ProgressBar::new_spinner()
    } else {
        ProgressBar::hidden()
    };
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar.set_message("drawing images");
    let storage = options.storage_dir.clone();
    let pool_images = tokio::task::spawn_blocking(move || images::make_pool(&storage))
        .await
        .context("image drawing thread")??;
    lap(&mut report, "images");

    bar.set_message("building rows");
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let cat = catalogue::build(&mut rng, options, &pool_images);
    let con = content::build(&mut rng, options, &pool_images, &cat);
    let ppl = people::build(&mut rng, options, &cat)?;
    report.products = cat.products.len() as u64;
    report.categories = cat.category_count;
    report.images = pool_images.files.len() as u64;
    let tables: Vec<Table> = cat
        .tables
        .into_iter()
        .chain(con.tables)
        .chain(ppl.tables)
        .collect();
    lap(&mut report, "build");

    let total: usize = tables.iter().map(Table::len).sum();
    bar.set_length(total as u64);
    bar.set_position(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{bar:24}] {percent:>3}% {elapsed_precise} (~{eta} left) {wide_msg}",
        )
        .expect("a valid progress template")
        .progress_chars("=> "),
    );
    let mut tx = pool.begin().await?;
    // PostgreSQL: the change-log triggers stay off for the load (a trigger
    // call per row doubled its time); the log is emptied below anyway.
    let names: Vec<&str> = tables.iter().map(|t| t.name).collect();
    db::suspend_triggers(&mut tx, &names).await?;
    for table in tables {
        bar.set_message(table.name);
        report.rows += table.insert(&mut tx, &bar, options.now).await?;
    }
    for sql in ppl.after_insert {
        db::query(&sql)
            .execute(&mut *tx)
            .await
            .with_context(|| format!("running {sql}"))?;
    }
    db::resume_triggers(&mut tx, &names).await?;
    // On SQLite the triggers of 0004 logged every insert; the generator does
    // a full build after a seed, so the change log starts empty.
    db::query("DELETE FROM change_log")
        .execute(&mut *tx)
        .await?;
    tx.commit().await.context("committing the seed")?;
    lap(&mut report, "insert");

    bar.set_message("checkpointing");
    // Statistics, and on SQLite the WAL folded into the file; on PostgreSQL
    // the id sequences moved past the ids written here.
    db::after_bulk_load(pool)
        .await
        .context("finishing the load")?;
    lap(&mut report, "checkpoint");
    bar.finish_and_clear();
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}
