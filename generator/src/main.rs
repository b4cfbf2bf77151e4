//! The `generator` command: `build` renders the whole site; `watch` keeps it
//! current; `islands-schema` prints the islands' props types for the web side.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use generator::commands::{build, BuildOptions, Compression};

/// Renders every public page of the shop to static, precompressed HTML.
#[derive(Debug, Parser)]
#[command(name = "generator", version, about)]
struct Config {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// Database URL, e.g. sqlite:var/shop.db.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite:var/shop.db")]
    database: String,
    /// Output directory of the site.
    #[arg(long, env = "SITE_DIR", default_value = "var/site")]
    out: PathBuf,
    /// The shop's public origin, for canonical links and the sitemap.
    #[arg(long, env = "SITE_URL", default_value = "http://127.0.0.1:8080")]
    base_url: String,
    /// Vite's output directory (its .vite/manifest.json names the island scripts).
    #[arg(long, env = "WEB_DIST", default_value = "web/dist")]
    web_dist: PathBuf,
    /// Brotli quality (0-11).
    #[arg(long, env = "BROTLI_QUALITY", default_value_t = Compression::default().brotli_quality)]
    brotli: u32,
    /// Gzip level (1-9); 0 writes no .gz copies.
    #[arg(long, env = "GZIP_LEVEL", default_value_t = Compression::default().gzip_level.unwrap_or(0))]
    gzip: u32,
    /// Pages rendered and written per batch.
    #[arg(long, env = "BUILD_BATCH", default_value_t = 2000)]
    batch: usize,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Render and precompress every page, write the manifest, report what changed.
    Build(BuildArgs),
    /// Build, then print page sizes per page type and the compression trade-off.
    Measure {
        #[command(flatten)]
        build: BuildArgs,
        /// Product pages compressed at each level for the trade-off table.
        #[arg(long, default_value_t = 300)]
        sample: usize,
        /// Pages the trade-off table extrapolates to.
        #[arg(long, default_value_t = 100_000)]
        scale: u64,
    },
    /// Keep the site current from the change log and purge the edge.
    Watch {
        #[command(flatten)]
        build: BuildArgs,
        /// The edges' admin URLs, comma-separated (every edge of a cluster),
        /// e.g. http://127.0.0.1:9080; without it nothing is purged.
        #[arg(long, env = "EDGE_ADMIN_URL")]
        edge_admin: Option<String>,
        /// The bearer token of the edge's purge API.
        #[arg(long, env = "EDGE_PURGE_TOKEN", hide_env_values = true)]
        purge_token: Option<String>,
        /// Milliseconds between reads of the change log.
        #[arg(long, env = "WATCH_POLL_MS", default_value_t = 250)]
        poll_ms: u64,
        /// Seconds before a flash sale's start or end at which the pages it
        /// changes are rendered (at low priority, into memory) and staged at
        /// the edges; 0 stages nothing.
        #[arg(long, env = "STAGE_LEAD_SECONDS", default_value_t = 300)]
        stage_lead: u64,
    },
    /// Print the islands' props types as an OpenAPI 3.1 document (no paths,
    /// the types under components.schemas), for scripts/generate-types.
    IslandsSchema,
}

impl BuildArgs {
    fn options(&self) -> BuildOptions {
        BuildOptions {
            database: self.database.clone(),
            out: self.out.clone(),
            base_url: self.base_url.clone(),
            web_dist: self.web_dist.clone(),
            compression: Compression {
                brotli_quality: self.brotli.min(11),
                gzip_level: (self.gzip > 0).then_some(self.gzip.min(9)),
                ..Compression::default()
            },
            progress: !self.quiet,
            now: catalog::clock::now_unix(),
            batch: self.batch,
        }
    }
}

/// mimalloc: glibc's allocator spent about a tenth of a 100,000-page build
/// in malloc and free (measured with `perf`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    match Config::parse().command {
        Command::Build(args) => {
            let report = build(&args.options()).await?;
            eprint!("{}", report.summary());
            // The changed paths and keys, one per line, on stdout: what to purge.
            for path in report.write.written.iter().chain(&report.write.removed) {
                println!("path {path}");
            }
            for key in &report.write.keys {
                println!("key {key}");
            }
            Ok(())
        }
        Command::Measure {
            build: args,
            sample,
            scale,
        } => {
            let report = build(&args.options()).await?;
            println!("## build\n```\n{}```", report.summary());
            println!(
                "\n## sizes (bytes)\n{}",
                generator::commands::size_table(&args.out)?
            );
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
            println!(
                "\n## compression\n{}",
                generator::commands::compression_table(
                    &args.out,
                    &report.shared,
                    sample,
                    scale,
                    cores
                )?
            );
            Ok(())
        }
        Command::Watch {
            build: args,
            edge_admin,
            purge_token,
            poll_ms,
            stage_lead,
        } => {
            let options = generator::commands::WatchOptions {
                build: args.options(),
                edges: edge_admin
                    .iter()
                    .flat_map(|list| list.split(','))
                    .map(str::trim)
                    .filter(|url| !url.is_empty())
                    .map(|url| generator::commands::EdgeAdmin {
                        url: if url.contains("://") {
                            url.to_string()
                        } else {
                            format!("http://{url}")
                        },
                        token: purge_token.clone().filter(|t| !t.is_empty()),
                    })
                    .collect(),
                poll: std::time::Duration::from_millis(poll_ms.max(10)),
                stage_lead: (stage_lead > 0).then(|| std::time::Duration::from_secs(stage_lead)),
            };
            generator::commands::watch(options, shutdown_signal()).await
        }
        Command::IslandsSchema => {
            let doc = generator::commands::schema_document();
            println!("{}", serde_json::to_string_pretty(&doc)?);
            Ok(())
        }
    }
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            tracing::warn!(cause = %err, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::warn!(cause = %err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
