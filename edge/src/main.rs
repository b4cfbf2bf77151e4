//! `edge --listen ADDR --admin ADDR --origin URL[,URL...]`: see `edge --help`.

use clap::Parser;
use edge::config::Config;
use tracing_subscriber::EnvFilter;

/// mimalloc: a cache hit allocates and frees a few dozen small objects (headers, the
/// request's state); glibc's allocator spent about a tenth of the edge's time on them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let config = Config::parse();
    edge::run(config)
}
