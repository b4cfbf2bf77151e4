use anyhow::Context;
use clap::Parser;
use origin::config::{Command, Config};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn")),
        )
        .init();
    match Config::parse().command {
        Command::Migrate(args) => {
            let pool = catalog::db::connect(&catalog::db::PoolConfig::new(&args.database))
                .await
                .with_context(|| format!("opening {}", args.database))?;
            catalog::db::migrate(&pool).await.context("migrating")?;
            println!("migrated {}", args.database);
            Ok(())
        }
        Command::Seed(args) => {
            anyhow::bail!("seeding is not built yet (args: {args:?})")
        }
        Command::Serve(args) => origin::serve(args).await,
    }
}
