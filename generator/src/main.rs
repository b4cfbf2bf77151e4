use clap::{Parser, Subcommand};

/// Renders every public page of the shop to static, precompressed HTML.
#[derive(Debug, Parser)]
#[command(name = "generator", version, about)]
struct Config {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Render and precompress every page, write the manifest, report what changed.
    Build {
        /// Database URL, e.g. sqlite:var/shop.db.
        #[arg(long, env = "DATABASE_URL", default_value = "sqlite:var/shop.db")]
        database: String,
        /// Output directory of the site.
        #[arg(long, env = "SITE_DIR", default_value = "var/site")]
        out: std::path::PathBuf,
    },
    /// Keep the site current from the change log and purge the edge.
    Watch {
        #[arg(long, env = "DATABASE_URL", default_value = "sqlite:var/shop.db")]
        database: String,
        #[arg(long, env = "SITE_DIR", default_value = "var/site")]
        out: std::path::PathBuf,
        /// The edge's admin URL, e.g. http://127.0.0.1:9080.
        #[arg(long, env = "EDGE_ADMIN")]
        edge_admin: Option<String>,
    },
}

fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    anyhow::bail!("the generator is not built yet (see issue 'Generator'); asked for {config:?}")
}
