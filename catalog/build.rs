//! `sqlx::migrate!` embeds the migration files at compile time, but cannot
//! tell cargo to rebuild when they change (on stable Rust): this does.
fn main() {
    println!("cargo:rerun-if-changed=../migrations/sqlite");
    println!("cargo:rerun-if-changed=../migrations/postgres");
}
