//! The origin's command line. Every flag can also be set by an environment
//! variable; the defaults run the local stack out of the box.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// The sender of the shop's mail when `MAIL_FROM` is not set, and of the
/// outbox's messages (`crate::domain::mail`).
pub const DEFAULT_MAIL_FROM: &str = "Furniture shop <no-reply@localhost>";

/// The shop's origin server: the JSON API, images and the generated site.
#[derive(Debug, Parser)]
#[command(name = "origin", version, about)]
pub struct Config {
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once at start: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply the database migrations.
    Migrate(DatabaseArgs),
    /// Fill a database with the deterministic demo catalogue.
    Seed(SeedArgs),
    /// Serve the API, the images under /storage/ and the generated site.
    Serve(ServeArgs),
    /// Move a shop from SQLite to PostgreSQL: migrate the target (which must
    /// have no products), copy every table with its ids and the change log,
    /// and move the id sequences past the copied ids.
    CopyDb(CopyDbArgs),
    /// Print the API's OpenAPI 3.1 document (as served at /api/openapi.json).
    Openapi,
    /// Give back an online payment, whole or in part, through the gateway
    /// that took it (bKash, SSLCommerz; others are left to the operator).
    /// At most what was paid minus earlier refunds.
    Refund(RefundArgs),
}

#[derive(Debug, Args)]
pub struct RefundArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// The order: its number (order_random) or its id.
    pub order: String,
    /// Whole taka to give back; all that is left when left out.
    pub amount: Option<i64>,
    /// Why (sent to the gateway, kept with the refund).
    #[arg(long, default_value = "Refund by the shop")]
    pub reason: String,
    #[command(flatten)]
    pub payments: PaymentArgs,
}

#[derive(Debug, Args)]
pub struct DatabaseArgs {
    /// Database URL, e.g. sqlite:var/shop.db (a plain path works too).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite:var/shop.db")]
    pub database: String,
}

#[derive(Debug, Args)]
pub struct SeedArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// How many products to make.
    #[arg(long, env = "SEED_PRODUCTS", default_value_t = 2000)]
    pub products: u32,
    /// The random seed: the same seed makes the same shop.
    #[arg(long, env = "SEED", default_value_t = 1)]
    pub seed: u64,
    /// Where the generated images are written (served as /storage/...).
    #[arg(long, env = "STORAGE_DIR", default_value = "var/storage")]
    pub storage: PathBuf,
}

#[derive(Debug, Args)]
pub struct CopyDbArgs {
    /// The SQLite shop to copy, e.g. sqlite:var/shop.db (read only; stop the
    /// origins and the watch first so that nothing writes during the copy).
    #[arg(long, env = "COPY_FROM", default_value = "sqlite:var/shop.db")]
    pub from: String,
    /// The PostgreSQL database to fill, e.g. postgres://shop@127.0.0.1/shop
    /// (created when missing; must have no products).
    #[arg(long, env = "COPY_TO", hide_env_values = true)]
    pub to: String,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// The generated site directory (written by `generator build`).
    #[arg(long, env = "SITE_DIR", default_value = "var/site")]
    pub site: PathBuf,
    /// The image storage directory (served as /storage/...).
    #[arg(long, env = "STORAGE_DIR", default_value = "var/storage")]
    pub storage: PathBuf,
    /// Where resized image variants are cached (made once, then read from
    /// here); unset or empty: `{storage}/.variants`. Safe to delete.
    #[arg(long, env = "IMAGE_CACHE_DIR")]
    pub image_cache: Option<PathBuf>,
    /// Address to listen on.
    #[arg(long, env = "ORIGIN_LISTEN", default_value = "127.0.0.1:8081")]
    pub listen: SocketAddr,
    /// Where e-mails are written (one .eml file each); the dev stack's mail.
    #[arg(long, env = "OUTBOX_DIR", default_value = "var/outbox")]
    pub outbox: PathBuf,
    /// A mail server, e.g. smtps://user:pass@smtp.example.com:465 (or
    /// smtp://...:587?tls=required); without it, mail goes to the outbox.
    #[arg(long, env = "SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<Secret>,
    /// The sender of the shop's e-mails.
    #[arg(long, env = "MAIL_FROM", default_value = DEFAULT_MAIL_FROM)]
    pub mail_from: String,
    /// The shop's public address, used in links sent by e-mail.
    #[arg(long, env = "SITE_URL", default_value = "http://127.0.0.1:8080")]
    pub site_url: String,
    /// Front ends on other hosts allowed to call the API from a browser
    /// (CORS), comma-separated: `https://shop.example,http://127.0.0.1:3000`.
    /// Empty: same-origin only.
    #[arg(long, env = "CORS_ORIGINS", default_value = "")]
    pub cors_origins: String,
    /// The addresses of the edges (or other proxies) whose `X-Forwarded-For`
    /// names the client, comma-separated; from any other peer the field is
    /// dropped, so that nobody who reaches the origin directly can pick the
    /// address its limits count ([`crate::plumbing::forwarded`]).
    #[arg(
        long,
        env = "TRUSTED_PROXIES",
        value_delimiter = ',',
        default_value = "127.0.0.1,::1"
    )]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// The key of the basic pages' CSRF values (`/lite/`): any long random
    /// text, the same on every origin behind the edge.
    #[arg(long, env = "LITE_SECRET", hide_env_values = true)]
    pub lite_secret: Option<Secret>,
    /// The edges' admin URLs, comma-separated (every edge of a cluster): some
    /// minutes before each flash-sale start or end the origin stages there
    /// its cacheable API answers that change at it (issue 17). Empty: none.
    #[arg(long, env = "EDGE_ADMIN_URL", default_value = "")]
    pub edge_admin: String,
    /// The bearer token of the edges' admin API (as for purges).
    #[arg(long, env = "EDGE_PURGE_TOKEN", hide_env_values = true)]
    pub edge_token: Option<Secret>,
    /// Seconds before a boundary at which the API answers are staged; 0
    /// stages nothing.
    #[arg(long, env = "STAGE_LEAD_SECONDS", default_value_t = 300)]
    pub stage_lead: u64,
    #[command(flatten)]
    pub social: SocialArgs,
    #[command(flatten)]
    pub payments: PaymentArgs,
}

/// Sign-in with Google and Facebook (OAuth 2.0). A provider is on when both
/// its client id and secret are set. The endpoints are settings so that
/// tests and staging can point them at a simulator.
#[derive(Debug, Clone, Args)]
pub struct SocialArgs {
    /// Google OAuth client id.
    #[arg(long, env = "GOOGLE_CLIENT_ID")]
    pub google_client_id: Option<String>,
    /// Google OAuth client secret.
    #[arg(long, env = "GOOGLE_CLIENT_SECRET", hide_env_values = true)]
    pub google_client_secret: Option<Secret>,
    /// Google's authorization (consent) page.
    #[arg(
        long,
        env = "GOOGLE_AUTH_URL",
        default_value = "https://accounts.google.com/o/oauth2/v2/auth"
    )]
    pub google_auth_url: String,
    /// Google's token endpoint.
    #[arg(
        long,
        env = "GOOGLE_TOKEN_URL",
        default_value = "https://oauth2.googleapis.com/token"
    )]
    pub google_token_url: String,
    /// Google's user-info endpoint.
    #[arg(
        long,
        env = "GOOGLE_USERINFO_URL",
        default_value = "https://openidconnect.googleapis.com/v1/userinfo"
    )]
    pub google_userinfo_url: String,
    /// Facebook app id.
    #[arg(long, env = "FACEBOOK_CLIENT_ID")]
    pub facebook_client_id: Option<String>,
    /// Facebook app secret.
    #[arg(long, env = "FACEBOOK_CLIENT_SECRET", hide_env_values = true)]
    pub facebook_client_secret: Option<Secret>,
    /// Facebook's authorization (consent) page.
    #[arg(
        long,
        env = "FACEBOOK_AUTH_URL",
        default_value = "https://www.facebook.com/v19.0/dialog/oauth"
    )]
    pub facebook_auth_url: String,
    /// Facebook's token endpoint.
    #[arg(
        long,
        env = "FACEBOOK_TOKEN_URL",
        default_value = "https://graph.facebook.com/v19.0/oauth/access_token"
    )]
    pub facebook_token_url: String,
    /// Facebook's user-info endpoint.
    #[arg(
        long,
        env = "FACEBOOK_USERINFO_URL",
        default_value = "https://graph.facebook.com/v19.0/me"
    )]
    pub facebook_userinfo_url: String,
    /// Public address the providers send shoppers back to
    /// (`{this}/api/auth/social/{provider}/callback`); SITE_URL when unset.
    #[arg(long, env = "SOCIAL_REDIRECT_BASE")]
    pub social_redirect_base: Option<String>,
}

/// Online payment gateways. A gateway is on only when its credentials are
/// set; its base URL is a setting so that tests and staging can point it at a
/// simulator.
#[derive(Debug, Clone, Default, Args)]
pub struct PaymentArgs {
    /// The card gateway (SSLCommerz's API): sandbox
    /// https://sandbox.sslcommerz.com, live https://securepay.sslcommerz.com.
    #[arg(
        long,
        env = "SSLCOMMERZ_BASE_URL",
        default_value = "https://sandbox.sslcommerz.com"
    )]
    pub sslcommerz_base_url: String,
    /// SSLCommerz store id.
    #[arg(long, env = "SSLCOMMERZ_STORE_ID")]
    pub sslcommerz_store_id: Option<String>,
    /// SSLCommerz store password.
    #[arg(long, env = "SSLCOMMERZ_STORE_PASSWORD", hide_env_values = true)]
    pub sslcommerz_store_password: Option<Secret>,
    /// The wallet (Nagad's checkout API).
    #[arg(
        long,
        env = "NAGAD_BASE_URL",
        default_value = "http://sandbox.mynagad.com:10080/remote-payment-gateway-1.0"
    )]
    pub nagad_base_url: String,
    /// Nagad merchant id.
    #[arg(long, env = "NAGAD_MERCHANT_ID")]
    pub nagad_merchant_id: Option<String>,
    /// The merchant's Nagad wallet number (sent as `accountNumber`).
    #[arg(long, env = "NAGAD_MERCHANT_NUMBER")]
    pub nagad_merchant_number: Option<String>,
    /// Nagad's payment-gateway public key: PEM (line breaks real or `\n`)
    /// or the bare base64 Nagad hands out.
    #[arg(long, env = "NAGAD_PG_PUBLIC_KEY", hide_env_values = true)]
    pub nagad_pg_public_key: Option<String>,
    /// The merchant's private key (PEM, PKCS#8 or PKCS#1, or bare base64):
    /// signs requests and opens Nagad's answers.
    #[arg(long, env = "NAGAD_MERCHANT_PRIVATE_KEY", hide_env_values = true)]
    pub nagad_merchant_private_key: Option<Secret>,
    /// bKash Tokenized Checkout: sandbox
    /// https://tokenized.sandbox.bka.sh/v1.2.0-beta, live
    /// https://tokenized.pay.bka.sh/v1.2.0-beta.
    #[arg(
        long,
        env = "BKASH_BASE_URL",
        default_value = "https://tokenized.sandbox.bka.sh/v1.2.0-beta"
    )]
    pub bkash_base_url: String,
    /// bKash app key (sent as `X-APP-Key`).
    #[arg(long, env = "BKASH_APP_KEY", hide_env_values = true)]
    pub bkash_app_key: Option<Secret>,
    /// bKash app secret.
    #[arg(long, env = "BKASH_APP_SECRET", hide_env_values = true)]
    pub bkash_app_secret: Option<Secret>,
    /// bKash merchant user name (the grant token's `username` header).
    #[arg(long, env = "BKASH_USERNAME")]
    pub bkash_username: Option<String>,
    /// bKash merchant password (the grant token's `password` header).
    #[arg(long, env = "BKASH_PASSWORD", hide_env_values = true)]
    pub bkash_password: Option<Secret>,
    /// Public address the gateways send shoppers and notifications back to
    /// (`{this}/sslcommerz/success`, `{this}/api/nagad/receive-nagad-data`,
    /// `{this}/api/bkash/callback`); SITE_URL when unset.
    #[arg(long, env = "PAYMENT_CALLBACK_BASE")]
    pub payment_callback_base: Option<String>,
    /// Minutes an online order waits for its payment before it is asked
    /// about once more and cancelled, its stock released (0: 30).
    #[arg(long, env = "PAYMENT_EXPIRY_MINUTES", default_value_t = 30)]
    pub payment_expiry_minutes: u64,
}

/// A setting that must stay out of logs and `--help` (client secrets).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Secret(s.to_string()))
    }
}
