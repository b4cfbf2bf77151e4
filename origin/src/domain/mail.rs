//! Outgoing mail. With `SMTP_URL` set (lettre's form:
//! `smtps://user:pass@host:465`, or `smtp://user:pass@host:587?tls=required`)
//! messages go to that server, in the background so that an answer takes as
//! long whether or not a message goes out; a failure is logged without the
//! message. Without it, each message is written to the outbox directory
//! (`OUTBOX_DIR`) as an `.eml` file, which the dev stack reads. Both get
//! the same bytes from one writer ([`message`]): lettre encodes every
//! header, so a line break in a subject or a name can never start a header
//! of its own (`Bcc:`, a second `Subject:`).

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Body, Mailbox};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::config::{Secret, DEFAULT_MAIL_FROM};
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
        let message = message(&self.from, &mail, Written::ForSmtp)?;
        self.transport
            .send(message)
            .await
            .map_err(|e| anyhow::anyhow!("SMTP: {}", kind(&e)))?;
        Ok(())
    }
}

/// How a message's body is written.
#[derive(Debug, Clone, Copy)]
enum Written {
    /// For a mail server: 7-bit safe (quoted-printable or base64 where needed).
    ForSmtp,
    /// For the outbox: the text as it is (`binary`), so that a reader of the
    /// file (the dev stack, the tests) finds links unbroken.
    ForOutbox,
}

/// `mail` from `from` as it goes out: the same headers, encoded by lettre,
/// either way; the body plain UTF-8 text, encoded as `written` says.
fn message(from: &Mailbox, mail: &Mail, written: Written) -> anyhow::Result<Message> {
    let body = match written {
        Written::ForSmtp => Body::new(mail.body.clone()),
        Written::ForOutbox => {
            Body::new_with_encoding(mail.body.clone(), ContentTransferEncoding::Binary)
                .map_err(|_| anyhow::anyhow!("the body cannot be written as it is"))?
        }
    };
    Message::builder()
        .from(from.clone())
        .to(mail.to.parse().context("recipient")?)
        .subject(&mail.subject)
        .header(ContentType::TEXT_PLAIN)
        .body(body)
        .context("building the message")
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
    let from: Mailbox = DEFAULT_MAIL_FROM.parse().context("the outbox's sender")?;
    let text = message(&from, mail, Written::ForOutbox)?.formatted();
    std::fs::write(&tmp, text).with_context(context)?;
    std::fs::rename(&tmp, dir.join(&name)).with_context(context)?;
    tracing::info!(file = %name, "mail written to the outbox");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outbox file's header lines (up to the blank line).
    fn header_lines(text: &str) -> Vec<&str> {
        text.split("\r\n").take_while(|l| !l.is_empty()).collect()
    }

    #[test]
    fn a_line_break_in_a_subject_never_starts_a_header_of_its_own() {
        let dir = catalog::db::testing::temp_dir();
        let mail = Mail {
            to: "shop@example.com".into(),
            subject: "Contact form #7: Rahim\r\nBcc: thief@example.com\r\nSubject: Win".into(),
            body: "Name: রহিম\r\nhttps://shop.example/reset?token=abc&email=a%40b\r\n".into(),
        };
        write_outbox(dir.path(), &mail).unwrap();
        let file = std::fs::read_dir(dir.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let text = std::fs::read_to_string(file.path()).unwrap();
        let headers = header_lines(&text);
        let named = |name: &str| {
            headers
                .iter()
                .filter(|l| l.to_ascii_lowercase().starts_with(name))
                .count()
        };
        assert_eq!(named("subject:"), 1, "{text}");
        assert_eq!(named("bcc:"), 0, "{text}");
        assert_eq!(named("from:"), 1, "{text}");
        // The body stays readable: links are not re-encoded.
        assert!(
            text.contains("https://shop.example/reset?token=abc&email=a%40b"),
            "{text}"
        );
        assert!(text.contains("Name: রহিম"), "{text}");
        // What a mail server gets has the same headers.
        let from: Mailbox = DEFAULT_MAIL_FROM.parse().unwrap();
        let smtp = message(&from, &mail, Written::ForSmtp).unwrap().formatted();
        let smtp = String::from_utf8(smtp).unwrap();
        let encoding =
            |l: &&str| !l.starts_with("Content-Transfer-Encoding") && !l.starts_with("Date");
        let smtp_headers: Vec<&str> = header_lines(&smtp).into_iter().filter(encoding).collect();
        let outbox_headers: Vec<&str> = headers.into_iter().filter(encoding).collect();
        assert_eq!(smtp_headers, outbox_headers);
    }
}
