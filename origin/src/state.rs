//! State shared by every request.

use std::path::PathBuf;
use std::sync::Arc;

use catalog::db::Pool;

use crate::mail::Smtp;
use crate::payments::gateway::Gateways;
use crate::search::Search;
use crate::social::Social;

/// What handlers need: the database and the directories served.
#[derive(Clone)]
pub struct AppState {
    pub pool: Pool,
    pub dirs: Arc<Dirs>,
    /// The product search index, kept current from the change log.
    pub search: Arc<Search>,
    /// The shop's public address, for links in messages.
    pub site_url: Arc<str>,
    /// The mail server; `None` writes mail to `dirs.outbox`.
    pub smtp: Option<Arc<Smtp>>,
    /// Sign-in with Google and Facebook (off unless configured).
    pub social: Arc<Social>,
    /// Online payment gateways (each off unless configured).
    pub payments: Arc<Gateways>,
}

/// Directories the origin serves files from.
#[derive(Debug)]
pub struct Dirs {
    /// The generated site (`generator build --out`).
    pub site: PathBuf,
    /// Image storage, served as `/storage/...`.
    pub storage: PathBuf,
    /// Resized image variants ([`crate::images`]), made once and kept here.
    pub image_cache: PathBuf,
    /// Where messages go when no mail server is configured (one `.eml` file each).
    pub outbox: PathBuf,
}
