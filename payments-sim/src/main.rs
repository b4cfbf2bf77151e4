//! `payments-sim [ADDR]`: serves the simulated bKash on ADDR (default
//! 127.0.0.1:7070, loopback only) and prints how to point the shop at it.

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:7070".to_string());
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let local = listener.local_addr()?;
    println!("Simulated bKash (no real money) on http://{local}");
    println!(
        "BKASH_BASE_URL=http://{local} BKASH_APP_KEY={} BKASH_APP_SECRET={} BKASH_USERNAME={} BKASH_PASSWORD={}",
        payments_sim::APP_KEY,
        payments_sim::APP_SECRET,
        payments_sim::USERNAME,
        payments_sim::PASSWORD
    );
    payments_sim::serve(listener).await
}
