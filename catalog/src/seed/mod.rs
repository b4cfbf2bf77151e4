//! The deterministic demo catalogue: the same seed makes the same shop.
//!
//! NOTE: only the contract is here so far; the seeder is being written.

use std::path::PathBuf;

use crate::db::Pool;

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
    pub products: u64,
    pub categories: u64,
    pub images: u64,
    pub seconds: f64,
}

/// Fills an empty, migrated database.
pub async fn seed(_pool: &Pool, _options: &SeedOptions) -> anyhow::Result<SeedReport> {
    anyhow::bail!("the seeder is not written yet")
}
