//! The contact form: a shopper's message to the shop, checked, kept in
//! `contact_message` and mailed to the shop's address (setting `com_email`).

use serde_json::{json, Map, Value};

use catalog::db::{self, Pool};

use crate::domain::mail::Mail;
use crate::plumbing::validate;

/// Shortest and longest name, in characters after trimming.
pub const NAME_LEN: (usize, usize) = (2, 80);
/// Shortest and longest message, in characters after trimming.
pub const MESSAGE_LEN: (usize, usize) = (10, 2000);
/// Messages one client may send per window.
pub const MESSAGES_PER_WINDOW: i64 = 5;
/// The rate limit's window, in seconds.
pub const WINDOW_SECS: i64 = 3_600;
/// Where the message goes when the shop has no `com_email` setting.
pub const FALLBACK_TO: &str = "care@example.com";

/// A message as typed: every field optional, so that each missing one can
/// be named.
#[derive(Debug, Default, Clone)]
pub struct Draft {
    pub name: Option<String>,
    /// A Bangladeshi mobile number or an e-mail address.
    pub contact: Option<String>,
    pub message: Option<String>,
}

/// A checked message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub name: String,
    /// `01XXXXXXXXX`, or empty when an e-mail was given.
    pub mobile: String,
    /// Lower case, or empty when a mobile number was given.
    pub email: String,
    pub message: String,
}

impl Draft {
    /// The checked message, or every field's error (`{field: [message]}`).
    pub fn check(self) -> Result<Message, Map<String, Value>> {
        let mut errors = Map::new();
        let name = validate::line(self.name.as_deref().unwrap_or(""), NAME_LEN.0, NAME_LEN.1);
        if name.is_none() {
            errors.insert(
                "name".into(),
                json!([format!(
                    "Please write your name ({}-{} characters).",
                    NAME_LEN.0, NAME_LEN.1
                )]),
            );
        }
        let contact = self.contact.as_deref().unwrap_or("").trim().to_string();
        let (mut mobile, mut email) = (String::new(), String::new());
        if contact.contains('@') {
            if validate::email(&contact) {
                email = contact.to_lowercase();
            }
        } else if let Some(m) = validate::bd_mobile(&contact) {
            mobile = m;
        }
        if mobile.is_empty() && email.is_empty() {
            let text = if contact.is_empty() {
                "Please give a mobile number or an e-mail address so that we can answer."
            } else {
                "That is neither a mobile number (01XXXXXXXXX) nor an e-mail address."
            };
            errors.insert("contact".into(), json!([text]));
        }
        let message = validate::text(
            self.message.as_deref().unwrap_or(""),
            MESSAGE_LEN.0,
            MESSAGE_LEN.1,
        );
        if message.is_none() {
            errors.insert(
                "message".into(),
                json!([format!(
                    "Please write a message of {}-{} characters.",
                    MESSAGE_LEN.0, MESSAGE_LEN.1
                )]),
            );
        }
        match (name, message) {
            (Some(name), Some(message)) if errors.is_empty() => Ok(Message {
                name,
                mobile,
                email,
                message,
            }),
            _ => Err(errors),
        }
    }
}

/// Keeps `m` (sent from `client`); answers its id.
pub async fn store(pool: &Pool, m: &Message, client: &str, now: i64) -> sqlx::Result<i64> {
    db::query_scalar(
        "INSERT INTO contact_message (name, mobile, email, message, client, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
    )
    .bind(&m.name)
    .bind(&m.mobile)
    .bind(&m.email)
    .bind(&m.message)
    .bind(client)
    .bind(now)
    .fetch_one(pool)
    .await
}

/// The shop's address for messages: setting `com_email`, else [`FALLBACK_TO`].
pub async fn shop_address(pool: &Pool) -> sqlx::Result<String> {
    let to: Option<String> = db::query_scalar("SELECT value FROM setting WHERE name = 'com_email'")
        .fetch_optional(pool)
        .await?;
    Ok(to
        .map(|t| t.trim().to_string())
        .filter(|t| validate::email(t))
        .unwrap_or_else(|| FALLBACK_TO.to_string()))
}

/// The mail telling the shop about message `id`.
pub fn mail(to: String, id: i64, m: &Message) -> Mail {
    let reach = if m.email.is_empty() {
        format!("Mobile: {}", m.mobile)
    } else {
        format!("E-mail: {}", m.email)
    };
    Mail {
        to,
        subject: format!("Contact form #{id}: {}", m.name),
        body: format!(
            "A message from the contact form (#{id}).\r\n\r\nName: {}\r\n{reach}\r\n\r\n{}\r\n",
            m.name,
            m.message.replace('\n', "\r\n").replace("\r\r\n", "\r\n"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(name: &str, contact: &str, message: &str) -> Draft {
        Draft {
            name: Some(name.into()),
            contact: Some(contact.into()),
            message: Some(message.into()),
        }
    }

    #[test]
    fn a_mobile_or_an_email_is_taken_and_normalised() {
        let m = draft(" Rahim ", "+880 1712-345678", "Is the Oslo bed in stock?")
            .check()
            .unwrap();
        assert_eq!(
            (m.name.as_str(), m.mobile.as_str()),
            ("Rahim", "01712345678")
        );
        assert!(m.email.is_empty());
        let m = draft("Rahim", "Rahim@Example.COM", "Is the Oslo bed in stock?")
            .check()
            .unwrap();
        assert_eq!(m.email, "rahim@example.com");
        assert!(m.mobile.is_empty());
    }

    #[test]
    fn every_wrong_field_is_named() {
        let errors = draft("R", "12345", "short").check().unwrap_err();
        let mut names: Vec<&str> = errors.keys().map(String::as_str).collect();
        names.sort_unstable();
        assert_eq!(names, ["contact", "message", "name"]);
        let errors = Draft::default().check().unwrap_err();
        assert_eq!(errors.len(), 3);
        assert!(errors["contact"][0]
            .as_str()
            .unwrap()
            .contains("mobile number or an e-mail"));
    }

    #[test]
    fn the_mail_says_who_and_how_to_answer() {
        let m = draft("Rahim", "01712345678", "Line one\nline two")
            .check()
            .unwrap();
        let mail = mail("shop@example.com".into(), 7, &m);
        assert_eq!(mail.subject, "Contact form #7: Rahim");
        assert!(mail.body.contains("Mobile: 01712345678"));
        assert!(mail.body.contains("Line one\r\nline two"));
    }
}
