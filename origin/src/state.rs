//! State shared by every request.

use std::path::PathBuf;
use std::sync::Arc;

use catalog::db::Pool;

use crate::domain::mail::{self, Mail, Smtp};
use crate::domain::payments::Gateways;
use crate::domain::search::Search;
use crate::domain::social::Social;

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

impl AppState {
    /// Sends `mail` through the mail server, or into the outbox without one.
    pub fn send_mail(&self, mail: Mail) -> anyhow::Result<()> {
        mail::send(self.smtp.as_ref(), &self.dirs.outbox, mail)
    }
}

/// Directories the origin serves files from.
#[derive(Debug)]
pub struct Dirs {
    /// The generated site (`generator build --out`).
    pub site: PathBuf,
    /// Image storage, served as `/storage/...`.
    pub storage: PathBuf,
    /// Resized image variants ([`crate::surfaces::images`]), made once and kept here.
    pub image_cache: PathBuf,
    /// Where messages go when no mail server is configured (one `.eml` file each).
    pub outbox: PathBuf,
}
