//! `payments-sim [ADDR] [--env-file PATH]`: serves the simulated payment
//! gateways on ADDR (default 127.0.0.1:7070, loopback only), prints how to
//! point the shop at them, and with `--env-file` also writes that as
//! `export NAME='value'` lines a shell script can source (written once the
//! address is bound, so its presence means the simulator is listening).

use std::io::Write;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut addr = "127.0.0.1:7070".to_string();
    let mut env_file = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--env-file" => env_file = args.next(),
            "-h" | "--help" => {
                println!("usage: payments-sim [ADDR] [--env-file PATH]");
                return Ok(());
            }
            _ => addr = arg,
        }
    }
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let base = format!("http://{}", listener.local_addr()?);
    let env = payments_sim::shop_env(&base);
    println!("Simulated payment gateways (no real money) on {base}");
    for (name, value) in &env {
        // Keys (PEM, many lines) stay out of logs: they are in the env file.
        if value.contains('\n') {
            println!(
                "{name}=<{} lines of PEM, in the env file>",
                value.lines().count()
            );
        } else {
            println!("{name}={value}");
        }
    }
    if let Some(path) = env_file {
        let partial = format!("{path}.partial");
        let mut file = std::fs::File::create(&partial)?;
        for (name, value) in &env {
            writeln!(file, "export {name}='{}'", value.replace('\'', r"'\''"))?;
        }
        file.sync_all()?;
        std::fs::rename(&partial, &path)?;
    }
    std::io::stdout().flush()?;
    payments_sim::serve(listener).await
}
