//! The origin's command line. Every flag can also be set by an environment
//! variable; the defaults run the local stack out of the box.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The shop's origin server: the JSON API, images and the generated site.
#[derive(Debug, Parser)]
#[command(name = "origin", version, about)]
pub struct Config {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply the database migrations.
    Migrate(DatabaseArgs),
    /// Fill a database with the deterministic demo catalogue.
    Seed(SeedArgs),
    /// Serve the API, the images under /storage/ and the generated site.
    Serve(ServeArgs),
}

#[derive(Debug, Args)]
pub struct DatabaseArgs {
    /// Database URL, e.g. sqlite:var/shop.db (a plain path works too).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite:var/shop.db")]
    pub database: String,
}

#[derive(Debug, Args)]
pub struct SeedArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// How many products to make.
    #[arg(long, env = "SEED_PRODUCTS", default_value_t = 2000)]
    pub products: u32,
    /// The random seed: the same seed makes the same shop.
    #[arg(long, env = "SEED", default_value_t = 1)]
    pub seed: u64,
    /// Where the generated images are written (served as /storage/...).
    #[arg(long, env = "STORAGE_DIR", default_value = "var/storage")]
    pub storage: PathBuf,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// The generated site directory (written by `generator build`).
    #[arg(long, env = "SITE_DIR", default_value = "var/site")]
    pub site: PathBuf,
    /// The image storage directory (served as /storage/...).
    #[arg(long, env = "STORAGE_DIR", default_value = "var/storage")]
    pub storage: PathBuf,
    /// Address to listen on.
    #[arg(long, env = "ORIGIN_LISTEN", default_value = "127.0.0.1:8081")]
    pub listen: SocketAddr,
    /// Where e-mails are written (one .eml file each); the dev stack's mail.
    #[arg(long, env = "OUTBOX_DIR", default_value = "var/outbox")]
    pub outbox: PathBuf,
    /// The shop's public address, used in links sent by e-mail.
    #[arg(long, env = "SITE_URL", default_value = "http://127.0.0.1:8080")]
    pub site_url: String,
}
