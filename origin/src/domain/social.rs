//! Sign-in with Google and Facebook: OAuth 2.0's authorization-code flow
//! (RFC 6749 §4.1). A provider is on only when its client id and secret are
//! set ([`SocialArgs`]); its endpoints are settings as well, so tests point
//! them at a local simulator. The code is exchanged server to server, the
//! profile read with the access token, and the shopper found by the
//! provider's id (`google_sub`, `facebook_id`), else created, but only with
//! an e-mail the provider verified (Facebook never says so). An e-mail
//! that an existing account uses, verified or not, is linked to the provider
//! only when the shopper gives that account's password ([`pending_link`],
//! [`complete_link`]): a provider account made with someone's address, or a
//! takeover of their mailbox, does not open their shop account by itself.
//!
//! What a sign-in comes to reaches the browser as a one-time code
//! ([`sign_in`], [`redeem`]), bound to a cookie of the browser that came back
//! from the provider: neither a session token nor a link ticket is ever in an
//! address, where a link could plant someone else's in a victim's browser
//! (login CSRF) or history and logs could keep it.

use std::time::Duration;

use anyhow::Context;
use catalog::db::{self, begin_write, Conn, Pool};
use serde::Deserialize;
use serde_json::Value;

use crate::config::{Secret, SocialArgs};
use crate::domain::{accounts, identity, merge};
use crate::plumbing::validate;

/// The providers the shop knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderKind {
    Google,
    Facebook,
}

impl ProviderKind {
    /// The name in paths (`/api/auth/social/google/...`).
    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::Google => "google",
            ProviderKind::Facebook => "facebook",
        }
    }

    /// The provider [`ProviderKind::name`] names.
    pub fn from_name(name: &str) -> Option<ProviderKind> {
        match name {
            "google" => Some(ProviderKind::Google),
            "facebook" => Some(ProviderKind::Facebook),
            _ => None,
        }
    }

    /// The name shown to shoppers.
    pub fn label(self) -> &'static str {
        match self {
            ProviderKind::Google => "Google",
            ProviderKind::Facebook => "Facebook",
        }
    }

    /// The `app_user` column holding the provider's id for the person.
    fn column(self) -> &'static str {
        match self {
            ProviderKind::Google => "google_sub",
            ProviderKind::Facebook => "facebook_id",
        }
    }

    /// What the shop asks to read: an id, a name and an e-mail address.
    fn scope(self) -> &'static str {
        match self {
            ProviderKind::Google => "openid email profile",
            ProviderKind::Facebook => "email public_profile",
        }
    }
}

/// One configured provider.
#[derive(Debug, Clone)]
pub struct Provider {
    pub kind: ProviderKind,
    client_id: String,
    client_secret: Secret,
    auth_url: reqwest::Url,
    token_url: reqwest::Url,
    userinfo_url: reqwest::Url,
    /// The callback address registered with the provider.
    redirect_url: String,
}

/// What a provider tells the shop about the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The provider's stable id for the person (Google's `sub`).
    pub id: String,
    pub name: String,
    /// Lower-case, and only when it looks like an address.
    pub email: Option<String>,
    /// Whether the provider vouches that the person owns `email`.
    pub email_verified: bool,
}

/// The configured providers and the HTTP client that talks to them.
#[derive(Debug, Default)]
pub struct Social {
    google: Option<Provider>,
    facebook: Option<Provider>,
    http: reqwest::Client,
}

/// How long a call to a provider may take.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(10);

impl Social {
    /// The providers whose id and secret are set; callbacks go to
    /// `{base}/api/auth/social/{provider}/callback`, where `base` is
    /// `--social-redirect-base` or else `site_url`.
    pub fn from_args(args: &SocialArgs, site_url: &str) -> anyhow::Result<Social> {
        let base = args
            .social_redirect_base
            .as_deref()
            .unwrap_or(site_url)
            .trim_end_matches('/');
        let provider = |kind: ProviderKind,
                        id: &Option<String>,
                        secret: &Option<Secret>,
                        urls: [&str; 3]|
         -> anyhow::Result<Option<Provider>> {
            let (Some(id), Some(secret)) = (id, secret) else {
                return Ok(None);
            };
            if id.trim().is_empty() || secret.0.trim().is_empty() {
                return Ok(None);
            }
            let url = |u: &str| {
                reqwest::Url::parse(u).with_context(|| format!("{} URL {u}", kind.label()))
            };
            Ok(Some(Provider {
                kind,
                client_id: id.trim().to_string(),
                client_secret: secret.clone(),
                auth_url: url(urls[0])?,
                token_url: url(urls[1])?,
                userinfo_url: url(urls[2])?,
                redirect_url: format!("{base}/api/auth/social/{}/callback", kind.name()),
            }))
        };
        Ok(Social {
            google: provider(
                ProviderKind::Google,
                &args.google_client_id,
                &args.google_client_secret,
                [
                    &args.google_auth_url,
                    &args.google_token_url,
                    &args.google_userinfo_url,
                ],
            )?,
            facebook: provider(
                ProviderKind::Facebook,
                &args.facebook_client_id,
                &args.facebook_client_secret,
                [
                    &args.facebook_auth_url,
                    &args.facebook_token_url,
                    &args.facebook_userinfo_url,
                ],
            )?,
            http: reqwest::Client::builder()
                .timeout(PROVIDER_TIMEOUT)
                .connect_timeout(PROVIDER_TIMEOUT / 2)
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .context("building the HTTP client for social sign-in")?,
        })
    }

    /// The provider, when configured.
    pub fn provider(&self, kind: ProviderKind) -> Option<&Provider> {
        match kind {
            ProviderKind::Google => self.google.as_ref(),
            ProviderKind::Facebook => self.facebook.as_ref(),
        }
    }

    /// The names of the configured providers.
    pub fn enabled(&self) -> Vec<&'static str> {
        [ProviderKind::Google, ProviderKind::Facebook]
            .into_iter()
            .filter(|k| self.provider(*k).is_some())
            .map(ProviderKind::name)
            .collect()
    }

    /// Exchanges an authorization `code` for an access token and reads the
    /// person's profile with it. Errors never carry the code, the secret or
    /// the token (URLs are stripped from HTTP errors).
    pub async fn profile(&self, provider: &Provider, code: &str) -> anyhow::Result<Profile> {
        #[derive(Deserialize)]
        struct TokenResponse {
            access_token: String,
        }
        let token: TokenResponse = self
            .http
            .post(provider.token_url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .form(&[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("client_id", &provider.client_id),
                ("client_secret", &provider.client_secret.0),
                ("redirect_uri", &provider.redirect_url),
            ])
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(reqwest::Error::without_url)
            .context("token request")?
            .json()
            .await
            .map_err(reqwest::Error::without_url)
            .context("token response")?;
        let mut request = self
            .http
            .get(provider.userinfo_url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .bearer_auth(&token.access_token);
        if provider.kind == ProviderKind::Facebook {
            request = request.query(&[("fields", "id,name,email")]);
        }
        let info: Value = request
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(reqwest::Error::without_url)
            .context("profile request")?
            .json()
            .await
            .map_err(reqwest::Error::without_url)
            .context("profile response")?;
        parse_profile(provider.kind, &info)
    }
}

impl Provider {
    /// Where to send the browser: the provider's consent page, carrying
    /// `state` (echoed back to the callback).
    pub fn authorize_url(&self, state: &str) -> String {
        let mut url = self.auth_url.clone();
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.client_id)
            .append_pair("redirect_uri", &self.redirect_url)
            .append_pair("scope", self.kind.scope())
            .append_pair("state", state);
        url.into()
    }
}

/// The profile in a provider's user-info answer (Google's OpenID Connect
/// `userinfo`, Facebook's Graph `me?fields=id,name,email`).
pub fn parse_profile(kind: ProviderKind, info: &Value) -> anyhow::Result<Profile> {
    let id_field = match kind {
        ProviderKind::Google => "sub",
        ProviderKind::Facebook => "id",
    };
    let id = match &info[id_field] {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    if id.is_empty() || id.len() > 255 {
        anyhow::bail!("{} profile without a usable {id_field}", kind.label());
    }
    let email = info["email"]
        .as_str()
        .map(|e| e.trim().to_lowercase())
        .filter(|e| validate::email(e));
    // Google says so per address; Facebook makes no such promise.
    let email_verified = kind == ProviderKind::Google
        && email.is_some()
        && (info["email_verified"] == Value::Bool(true)
            || info["email_verified"].as_str() == Some("true"));
    let name = validate::line(info["name"].as_str().unwrap_or_default(), 1, 100)
        .or_else(|| {
            email
                .as_deref()
                .and_then(|e| e.split('@').next())
                .and_then(|local| validate::line(local, 1, 100))
        })
        .unwrap_or_else(|| format!("{} shopper", kind.label()));
    Ok(Profile {
        id,
        name,
        email,
        email_verified,
    })
}

/// What signing in with a provider came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The shopper's user id.
    SignedIn(i64),
    /// Why not, in words for the shopper.
    Refused(String),
    /// The provider vouches for the e-mail of account `user`, which it is not
    /// linked to: linking waits for the account's password.
    NeedsPassword { user: i64 },
}

/// What a callback ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// A code for `POST /api/auth/social/redeem` ([`redeem`]), good once for
    /// [`CODE_LIFETIME_SECS`] and only with the browser's binding cookie:
    /// it hands over a sign-in, or a link waiting for the account's password.
    Code(String),
    /// Why not, in words for the shopper.
    Refused(String),
}

/// How long a link waits for the password, seconds.
pub const LINK_LIFETIME_SECS: i64 = 600;

/// How long the callback's code may wait for the page to redeem it, seconds.
pub const CODE_LIFETIME_SECS: i64 = 120;

/// Signs in the shopper `profile` names, in one write transaction: finds or
/// creates their account ([`find_or_create`]) and merges the cart and lists
/// of the browser's guest (`guest`, its self token) into it. Answers a code
/// ([`hand_over`]) bound to `browser` (the value of the binding cookie the
/// callback sets), which [`redeem`] turns into a token, or into a ticket for
/// linking an existing account with its password; or why not, in words for
/// the shopper (then nothing changed).
pub async fn sign_in(
    pool: &Pool,
    kind: ProviderKind,
    profile: &Profile,
    guest: Option<&str>,
    browser: &str,
    now: i64,
) -> sqlx::Result<Ended> {
    let mut tx = begin_write(pool).await?;
    let code = match find_or_create(&mut tx, kind, profile, now).await? {
        Outcome::SignedIn(id) => {
            if let Some(guest) = guest {
                merge::guest_into(&mut tx, guest, id, now).await?;
            }
            hand_over(&mut tx, id, kind, None, browser, now).await?
        }
        Outcome::Refused(message) => return Ok(Ended::Refused(message)),
        Outcome::NeedsPassword { user } => {
            hand_over(&mut tx, user, kind, Some(&profile.id), browser, now).await?
        }
    };
    tx.commit().await?;
    Ok(Ended::Code(code))
}

/// Keeps what a sign-in came to for the browser whose binding cookie is
/// `browser`: account `user` to sign in with `kind`, or, with `provider_id`,
/// `kind`'s person waiting to be linked to `user`. Answers the code (256
/// random bits; only its hash and the cookie's are stored), good once for
/// [`CODE_LIFETIME_SECS`]. Neither a token nor a ticket exists yet: they are
/// made when the code is redeemed.
pub async fn hand_over(
    conn: &mut Conn,
    user: i64,
    kind: ProviderKind,
    provider_id: Option<&str>,
    browser: &str,
    now: i64,
) -> sqlx::Result<String> {
    db::query("DELETE FROM social_code WHERE expires_at <= $1 OR used_at IS NOT NULL")
        .bind(now)
        .execute(&mut *conn)
        .await?;
    let (code, hash) = identity::new_token();
    db::query(
        "INSERT INTO social_code (user_id, provider, provider_id, code_hash, browser_hash, \
         expires_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
    )
    .bind(user)
    .bind(kind.name())
    .bind(provider_id)
    .bind(hash)
    .bind(identity::hash_token(browser))
    .bind(now + CODE_LIFETIME_SECS)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(code)
}

/// What a redeemed code handed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redeemed {
    /// Account `user` is signed in with `token`, named after the provider.
    SignedIn { user: i64, token: String },
    /// A ticket for `POST /api/auth/social/link` ([`pending_link`]).
    Link { ticket: String, kind: ProviderKind },
    /// Why not, in words for the shopper: the account was closed meanwhile.
    Refused(String),
}

/// Redeems `code` for the browser whose binding cookie is `browser`, in one
/// write transaction: the code is used up (a second use, or two at once,
/// find it used), then a token is issued for the account, or a ticket made
/// for the link waiting for its password. `None` when the code is unknown,
/// used, expired or another browser's; such a call changes nothing.
pub async fn redeem(
    pool: &Pool,
    code: &str,
    browser: &str,
    now: i64,
) -> sqlx::Result<Option<Redeemed>> {
    let mut tx = begin_write(pool).await?;
    let row: Option<(i64, String, Option<String>)> = db::query_as(
        "UPDATE social_code SET used_at = $1, updated_at = $1 \
         WHERE code_hash = $2 AND browser_hash = $3 AND used_at IS NULL AND expires_at > $1 \
         RETURNING user_id, provider, provider_id",
    )
    .bind(now)
    .bind(identity::hash_token(code))
    .bind(identity::hash_token(browser))
    .fetch_optional(&mut *tx)
    .await?;
    let Some((user, provider, provider_id)) = row else {
        return Ok(None);
    };
    let Some(kind) = ProviderKind::from_name(&provider) else {
        return Ok(None);
    };
    let redeemed = match provider_id {
        Some(provider_id) => Redeemed::Link {
            ticket: pending_link(&mut tx, user, kind, &provider_id, now).await?,
            kind,
        },
        None => {
            let active: Option<bool> =
                db::query_scalar("SELECT is_active FROM app_user WHERE id = $1")
                    .bind(user)
                    .fetch_optional(&mut *tx)
                    .await?;
            if active == Some(true) {
                let token = accounts::issue_token(&mut tx, user, kind.name(), now).await?;
                Redeemed::SignedIn { user, token }
            } else {
                Redeemed::Refused("This account is closed.".to_string())
            }
        }
    };
    tx.commit().await?;
    Ok(Some(redeemed))
}

/// Keeps a link of `kind`'s person `provider_id` to account `user` waiting
/// for the account's password: answers the ticket (256 random bits, of which
/// only the hash is stored), good once for [`LINK_LIFETIME_SECS`].
pub async fn pending_link(
    conn: &mut Conn,
    user: i64,
    kind: ProviderKind,
    provider_id: &str,
    now: i64,
) -> sqlx::Result<String> {
    db::query("DELETE FROM social_link WHERE expires_at <= $1 OR used_at IS NOT NULL")
        .bind(now)
        .execute(&mut *conn)
        .await?;
    let (ticket, hash) = identity::new_token();
    db::query(
        "INSERT INTO social_link (user_id, provider, provider_id, token_hash, expires_at, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(user)
    .bind(kind.name())
    .bind(provider_id)
    .bind(hash)
    .bind(now + LINK_LIFETIME_SECS)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    tracing::info!(user, provider = kind.name(), "link waits for the password");
    Ok(ticket)
}

/// A link waiting for the password: its row, the account and the provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingLink {
    pub id: i64,
    pub user: i64,
    pub kind: ProviderKind,
    pub provider_id: String,
}

/// The link `ticket` names, when it is unused and has not expired.
pub async fn find_link(pool: &Pool, ticket: &str, now: i64) -> sqlx::Result<Option<PendingLink>> {
    let row: Option<(i64, i64, String, String)> = db::query_as(
        "SELECT id, user_id, provider, provider_id FROM social_link \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(identity::hash_token(ticket))
    .bind(now)
    .fetch_optional(pool)
    .await?;
    Ok(row.and_then(|(id, user, provider, provider_id)| {
        let kind = ProviderKind::from_name(&provider)?;
        Some(PendingLink {
            id,
            user,
            kind,
            provider_id,
        })
    }))
}

/// Why [`complete_link`] did not link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkRefused {
    /// The ticket was used meanwhile.
    Used,
    /// The provider's person is another account's now, or the account is
    /// closed or has another person of the provider: in words.
    Conflict(String),
}

/// Links the provider to the account once its password was given, in one
/// write transaction: the ticket is used up (a second use, or two at once,
/// finds it used), the provider's id is set unless the account has another
/// of that provider's or the id went to another account meanwhile (then
/// why not, in words), a token named after the provider is issued and the
/// guest's cart and lists are merged, as at [`sign_in`].
pub async fn complete_link(
    pool: &Pool,
    link: &PendingLink,
    guest: Option<&str>,
    now: i64,
) -> sqlx::Result<Result<String, LinkRefused>> {
    let mut tx = begin_write(pool).await?;
    let used = db::query(
        "UPDATE social_link SET used_at = $1, updated_at = $1 WHERE id = $2 AND used_at IS NULL",
    )
    .bind(now)
    .bind(link.id)
    .execute(&mut *tx)
    .await?;
    if used.rows_affected() != 1 {
        return Ok(Err(LinkRefused::Used));
    }
    let column = link.kind.column();
    let label = link.kind.label();
    let taken: Option<i64> =
        db::query_scalar(&format!("SELECT id FROM app_user WHERE {column} = $1"))
            .bind(&link.provider_id)
            .fetch_optional(&mut *tx)
            .await?;
    if taken.is_some_and(|id| id != link.user) {
        return Ok(Err(LinkRefused::Conflict(format!(
            "This {label} account is linked to another account."
        ))));
    }
    let linked = db::query(&format!(
        "UPDATE app_user SET {column} = $1, updated_at = $2 \
         WHERE id = $3 AND is_active AND ({column} IS NULL OR {column} = $1)"
    ))
    .bind(&link.provider_id)
    .bind(now)
    .bind(link.user)
    .execute(&mut *tx)
    .await?;
    if linked.rows_affected() != 1 {
        return Ok(Err(LinkRefused::Conflict(format!(
            "This account is closed or linked to another {label} account."
        ))));
    }
    let token = accounts::issue_token(&mut tx, link.user, link.kind.name(), now).await?;
    if let Some(guest) = guest {
        merge::guest_into(&mut tx, guest, link.user, now).await?;
    }
    tx.commit().await?;
    tracing::info!(
        user = link.user,
        provider = link.kind.name(),
        "account linked"
    );
    Ok(Ok(token))
}

/// Finds the shopper `profile` names, or creates an account (without a
/// password); a verified e-mail of an existing account waits for its
/// password ([`Outcome::NeedsPassword`]).
pub async fn find_or_create(
    conn: &mut Conn,
    kind: ProviderKind,
    profile: &Profile,
    now: i64,
) -> sqlx::Result<Outcome> {
    let column = kind.column();
    let closed = || Outcome::Refused("This account is closed.".to_string());
    let linked: Option<(i64, bool)> = db::query_as(&format!(
        "SELECT id, is_active FROM app_user WHERE {column} = $1"
    ))
    .bind(&profile.id)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some((id, active)) = linked {
        return Ok(if active {
            Outcome::SignedIn(id)
        } else {
            closed()
        });
    }
    let Some(email) = &profile.email else {
        return Ok(Outcome::Refused(format!(
            "{} did not share an e-mail address with us. Please register with your e-mail or mobile number.",
            kind.label()
        )));
    };
    let existing: Option<(i64, bool, Option<String>)> = db::query_as(&format!(
        "SELECT id, is_active, {column} FROM app_user WHERE email = $1"
    ))
    .bind(email)
    .fetch_optional(&mut *conn)
    .await?;
    if !profile.email_verified && existing.is_none() {
        // An account made with an address the provider does not vouch for
        // would be its maker's, not the mailbox owner's, who may later reset
        // its password and use it while the maker's provider still signs in.
        // The web client shows only reasons it knows (SocialSignIn.tsx's
        // REASONS): no address in it.
        return Ok(Outcome::Refused(format!(
            "{label} could not confirm that this e-mail address is yours, so we cannot open an \
             account with it. Please register with your e-mail or mobile number; once you have, \
             signing in with {label} links it with your password.",
            label = kind.label()
        )));
    }
    if let Some((id, active, other)) = existing {
        // Verified or not, the address opens nothing by itself: the account's
        // password links the provider (whoever holds it owns the account).
        if !active {
            return Ok(closed());
        }
        if other.is_some() {
            return Ok(Outcome::Refused(format!(
                "This account is linked to another {} account.",
                kind.label()
            )));
        }
        return Ok(Outcome::NeedsPassword { user: id });
    }
    let id: i64 = db::query_scalar(&format!(
        "INSERT INTO app_user (name, email, {column}, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4) RETURNING id"
    ))
    .bind(&profile.name)
    .bind(email)
    .bind(&profile.id)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    tracing::info!(user = id, provider = kind.name(), "account created");
    Ok(Outcome::SignedIn(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn google_vouches_for_an_email_only_when_it_says_verified() {
        let p = parse_profile(
            ProviderKind::Google,
            &json!({"sub": "1234", "name": " Rahim Uddin ", "email": "Rahim@Example.com", "email_verified": true}),
        )
        .unwrap();
        assert_eq!(p.id, "1234");
        assert_eq!(p.name, "Rahim Uddin");
        assert_eq!(p.email.as_deref(), Some("rahim@example.com"));
        assert!(p.email_verified);
        let p = parse_profile(
            ProviderKind::Google,
            &json!({"sub": "1234", "email": "rahim@example.com", "email_verified": false}),
        )
        .unwrap();
        assert!(!p.email_verified);
        assert_eq!(p.name, "rahim");
    }

    #[test]
    fn facebook_emails_are_never_taken_as_verified() {
        let p = parse_profile(
            ProviderKind::Facebook,
            &json!({"id": "99", "name": "Karim", "email": "karim@example.com", "email_verified": true}),
        )
        .unwrap();
        assert_eq!(p.id, "99");
        assert!(!p.email_verified);
    }

    #[test]
    fn a_profile_needs_an_id_and_drops_a_malformed_email() {
        assert!(parse_profile(ProviderKind::Google, &json!({"email": "a@b.com"})).is_err());
        assert!(parse_profile(ProviderKind::Facebook, &json!({"id": ""})).is_err());
        let p = parse_profile(
            ProviderKind::Facebook,
            &json!({"id": 42, "email": "not an email"}),
        )
        .unwrap();
        assert_eq!(p.id, "42");
        assert_eq!(p.email, None);
        assert_eq!(p.name, "Facebook shopper");
    }
}
