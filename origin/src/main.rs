use anyhow::Context;
use clap::Parser;
use origin::config::{Command, Config};

fn main() -> anyhow::Result<()> {
    // Before any thread: glibc's settings that keep the memory in budget.
    origin::plumbing::memory::tune_allocator();
    run()
}

#[tokio::main]
async fn run() -> anyhow::Result<()> {
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
            let options = demo::SeedOptions {
                products: args.products,
                seed: args.seed,
                storage_dir: args.storage.clone(),
                now: catalog::clock::now_unix(),
                progress: true,
            };
            let report = demo::seed(&pool, &options)
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
        Command::CopyDb(args) => {
            let from_url = catalog::db::normalise_url(&args.from)?;
            if catalog::db::dialect_of(&from_url)? != catalog::db::Dialect::Sqlite {
                anyhow::bail!("--from must be a SQLite shop (sqlite:PATH)");
            }
            let from = catalog::db::connect(&catalog::db::PoolConfig {
                create_if_missing: false,
                ..catalog::db::PoolConfig::new(&from_url)
            })
            .await
            .with_context(|| format!("opening {}", args.from))?;
            let to_shown = catalog::db::redact(&args.to);
            if catalog::db::dialect_of(&args.to)? != catalog::db::Dialect::Postgres {
                anyhow::bail!("--to must be a PostgreSQL database (postgres://…)");
            }
            let to = catalog::db::connect(&catalog::db::PoolConfig::new(&args.to))
                .await
                .with_context(|| format!("opening {to_shown}"))?;
            let report = catalog::copy_db::copy_db(&from, &to)
                .await
                .with_context(|| format!("copying {} into {to_shown}", args.from))?;
            let width = report
                .tables
                .iter()
                .map(|(t, _)| t.len())
                .max()
                .unwrap_or(0);
            for (table, rows) in &report.tables {
                println!("  {table:<width$} {rows:>9}");
            }
            println!(
                "copied {} into {to_shown}: {} tables, {} rows in {:.1} s",
                args.from,
                report.tables.len(),
                report.rows(),
                report.seconds
            );
            from.close().await;
            to.close().await;
            Ok(())
        }
        Command::Serve(args) => origin::serve(args).await,
        Command::Refund(args) => refund(args).await,
        Command::Openapi => {
            println!("{:#}", origin::surfaces::api::openapi());
            Ok(())
        }
    }
}

/// `origin refund ORDER [AMOUNT]`: gives money back through the gateway that
/// took it, prints each part and how it ended; fails (exit 1) when nothing
/// was given back nor is on its way.
async fn refund(args: origin::config::RefundArgs) -> anyhow::Result<()> {
    let pool = catalog::db::connect(&catalog::db::PoolConfig {
        create_if_missing: false,
        ..catalog::db::PoolConfig::new(&args.db.database)
    })
    .await
    .with_context(|| format!("opening {}", args.db.database))?;
    catalog::db::migrate(&pool).await.context("migrating")?;
    // Refunds send nobody back: any callback base will do.
    let gateways =
        origin::domain::payments::Gateways::from_args(&args.payments, "http://127.0.0.1")
            .context("configuring payment gateways")?;
    let report = origin::domain::payments::refund::refund_order(
        &pool,
        &gateways,
        &args.order,
        args.amount,
        &args.reason,
        catalog::clock::now_unix(),
    )
    .await
    .map_err(|err| anyhow::anyhow!("{err}"))?;
    for line in &report.lines {
        println!(
            "{} {} taka through {} (payment {}): {} {}",
            report.order_random, line.amount, line.gateway, line.tran_id, line.status, line.detail
        );
    }
    println!(
        "order {}: paid {} taka online, refunded now {} taka",
        report.order_random, report.paid, report.refunded
    );
    // Refunds the gateway is still processing, or whose answer was lost, are
    // settled by every origin's expiry sweep: accepted, not failed.
    let pending: i64 = report
        .lines
        .iter()
        .filter(|l| matches!(l.status.as_str(), "processing" | "unknown"))
        .map(|l| l.amount)
        .sum();
    if pending > 0 {
        println!(
            "order {}: {pending} taka still to be confirmed by the gateway (the origins' sweep settles it; docs/OPERATIONS.md)",
            report.order_random
        );
    }
    pool.close().await;
    if report.refunded == 0 && pending == 0 {
        anyhow::bail!("nothing was refunded");
    }
    Ok(())
}
