use clap::Parser;

/// The shop's edge cache (Pingora) in front of the origin.
#[derive(Debug, Parser)]
#[command(name = "edge", version, about)]
struct Config {
    /// Public listener.
    #[arg(long, env = "EDGE_LISTEN", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Admin listener: /metrics, the dashboard, purge.
    #[arg(long, env = "EDGE_ADMIN", default_value = "127.0.0.1:9080")]
    admin: String,
    /// Origins, comma-separated.
    #[arg(
        long,
        env = "EDGE_ORIGIN",
        default_value = "http://127.0.0.1:8081",
        value_delimiter = ','
    )]
    origin: Vec<String>,
}

fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    anyhow::bail!("the edge is not built yet (see issue 'Edge'); asked for {config:?}")
}
