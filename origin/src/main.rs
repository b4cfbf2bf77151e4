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
            // A new shop often goes into a new folder (var/, /tmp/x/): make it.
            let url = catalog::db::normalise_url(&args.db.database)?;
            if catalog::db::dialect_of(&url)? == catalog::db::Dialect::Sqlite {
                let file = url
                    .trim_start_matches("sqlite:")
                    .trim_start_matches("//")
                    .split('?')
                    .next()
                    .unwrap_or_default();
                if let Some(dir) = std::path::Path::new(file).parent() {
                    if !dir.as_os_str().is_empty() && file != ":memory:" {
                        std::fs::create_dir_all(dir)
                            .with_context(|| format!("creating {}", dir.display()))?;
                    }
                }
            }
            let pool = catalog::db::connect(&catalog::db::PoolConfig::new(&args.db.database))
                .await
                .with_context(|| format!("opening {}", args.db.database))?;
            catalog::db::migrate(&pool).await.context("migrating")?;
            let options = catalog::seed::SeedOptions {
                products: args.products,
                seed: args.seed,
                storage_dir: args.storage.clone(),
                now: catalog::clock::now_unix(),
                progress: true,
            };
            let report = catalog::seed::seed(&pool, &options)
                .await
                .with_context(|| format!("seeding {}", args.db.database))?;
            let steps = report
                .steps
                .iter()
                .map(|(name, secs)| format!("{name} {secs:.2} s"))
                .collect::<Vec<_>>()
                .join(", ");
            println!(
                "seeded {}: {} products, {} categories, {} images in {}, {} rows in {:.1} s ({steps})",
                args.db.database,
                report.products,
                report.categories,
                report.images,
                args.storage.display(),
                report.rows,
                report.seconds
            );
            pool.close().await;
            Ok(())
        }
        Command::Serve(args) => origin::serve(args).await,
    }
}
