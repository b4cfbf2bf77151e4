//! Outgoing mail. With `SMTP_URL` set (lettre's form:
//! `smtps://user:pass@host:465`, or `smtp://user:pass@host:587?tls=required`)
//! messages go to that server, in the background so that an answer takes as
//! long whether or not a message goes out; a failure is logged without the
//! message. Without it, each message is written to the outbox directory
//! (`OUTBOX_DIR`) as an `.eml` file, which the dev stack reads.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::Secret;
use crate::domain::identity::new_token;

/// One plain-text message.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub body: String,
}

/// A mail server to send through.
#[derive(Clone)]
pub struct Smtp {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Smtp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The transport holds the credentials.
        f.debug_struct("Smtp").field("from", &self.from).finish()
    }
}

impl Smtp {
    /// The server at `url` (lettre's URL form), sending as `from`.
    pub fn from_url(url: &Secret, from: &str) -> anyhow::Result<Smtp> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&url.0)
            // The URL holds a password: the error must not quote it.
            .map_err(|e| anyhow::anyhow!("SMTP_URL is not a valid SMTP URL ({})", kind(&e)))?
            .build();
        let from = from
            .parse()
            .with_context(|| format!("MAIL_FROM {from:?} is not an address"))?;
        Ok(Smtp { transport, from })
    }

    async fn send(&self, mail: Mail) -> anyhow::Result<()> {
        let message = Message::builder()
            .from(self.from.clone())
            .to(mail.to.parse().context("recipient")?)
            .subject(mail.subject)
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body)
            .context("building the message")?;
        self.transport
            .send(message)
            .await
            .map_err(|e| anyhow::anyhow!("SMTP: {}", kind(&e)))?;
        Ok(())
    }
}

/// What kind of SMTP failure, without the message's or the URL's text.
fn kind(err: &lettre::transport::smtp::Error) -> &'static str {
    if err.is_permanent() {
        "permanent error from the server"
    } else if err.is_transient() {
        "transient error from the server"
    } else if err.is_timeout() {
        "timed out"
    } else if err.is_tls() {
        "TLS failed"
    } else if err.is_client() {
        "client error"
    } else {
        "connection failed"
    }
}

/// Sends `mail` through `smtp` when a server is configured, else into the
/// `outbox` folder.
pub fn send(smtp: Option<&Arc<Smtp>>, outbox: &Path, mail: Mail) -> anyhow::Result<()> {
    match smtp {
        Some(smtp) => {
            let smtp = Arc::clone(smtp);
            tokio::spawn(async move {
                match smtp.send(mail).await {
                    Ok(()) => tracing::info!("mail sent"),
                    Err(err) => tracing::error!(cause = %format!("{err:#}"), "mail not sent"),
                }
            });
            Ok(())
        }
        None => write_outbox(outbox, &mail),
    }
}

/// Writes one message into `dir` (atomically: a reader never sees half).
fn write_outbox(dir: &Path, mail: &Mail) -> anyhow::Result<()> {
    let context = || format!("outbox {}", dir.display());
    std::fs::create_dir_all(dir).with_context(context)?;
    let now = catalog::clock::now_unix();
    let name = format!("{now}-{}.eml", &new_token().0[..12]);
    let tmp = dir.join(format!(".{name}.tmp"));
    let text = format!(
        "To: {}\r\nSubject: {}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        mail.to, mail.subject, mail.body
    );
    std::fs::write(&tmp, text).with_context(context)?;
    std::fs::rename(&tmp, dir.join(&name)).with_context(context)?;
    tracing::info!(file = %name, "mail written to the outbox");
    Ok(())
}
