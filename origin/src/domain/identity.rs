//! Who a shopper is, apart from how a request says it: a signed-in
//! [`User`] (known by a sign-in token), or a guest (known by a self token);
//! [`Owner`] is whose cart or lists a call works on. Tokens are 256 random
//! bits, given to the client once and stored only as their SHA-256 hash, so
//! a copy of the database signs nobody in. Reading them from requests is
//! [`crate::plumbing::identity`]'s job.

use catalog::db::{self, Pool};
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::plumbing::error::{ApiError, ApiResult};

/// Lifetime of a sign-in token, seconds (SPEC.md §9: 72000).
pub const TOKEN_LIFETIME_SECS: i64 = 72_000;

/// A signed-in shopper: the user and the token this request used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub token_id: i64,
}

/// Whose cart, compare list or recently-viewed list a call works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    User(i64),
    Guest(String),
}

impl Owner {
    /// A condition on per-shopper tables (`cart`, `compare_item`,
    /// `wishlist_item`, `recently_viewed`) that holds for this owner's rows:
    /// `{prefix}user_id` or `{prefix}self_token` compared with placeholder
    /// `$n`, to which [`Owner::key`] is bound. The key is bound as text and
    /// cast to the column's type, so one query serves both kinds of owner on
    /// either database (PostgreSQL does not compare a BIGINT with text).
    pub fn matches(&self, prefix: &str, n: usize) -> String {
        match self {
            Owner::User(_) => format!("{prefix}user_id = CAST(${n} AS BIGINT)"),
            Owner::Guest(_) => format!("{prefix}self_token = ${n}"),
        }
    }

    /// The value to bind for [`Owner::matches`]' placeholder.
    pub fn key(&self) -> String {
        match self {
            Owner::User(id) => id.to_string(),
            Owner::Guest(token) => token.clone(),
        }
    }

    /// `(user_id, self_token)` for inserting a row of this owner.
    pub fn ids(&self) -> (Option<i64>, Option<&str>) {
        match self {
            Owner::User(id) => (Some(*id), None),
            Owner::Guest(token) => (None, Some(token.as_str())),
        }
    }
}

/// Whoever is calling: a guest token, a user, both or neither.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// The validated `SELF-TOKEN` header, if sent.
    pub self_token: Option<String>,
    /// The signed-in shopper, if a valid Bearer token was sent.
    pub user: Option<User>,
}

impl Caller {
    /// The signed-in user's lists win over the guest's; a call with neither a
    /// token nor a self token is a 400 (every visitor has a self token).
    pub fn owner(&self) -> ApiResult<Owner> {
        match (&self.user, &self.self_token) {
            (Some(user), _) => Ok(Owner::User(user.id)),
            (None, Some(token)) => Ok(Owner::Guest(token.clone())),
            (None, None) => Err(ApiError::invalid(
                "SELF-TOKEN",
                "The SELF-TOKEN header is required.",
            )),
        }
    }

    /// The user, or a 401.
    pub fn signed_in(&self) -> ApiResult<User> {
        self.user.ok_or_else(ApiError::unauthenticated)
    }
}

/// A caller who must be signed in: the extractor answers 401 otherwise.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub user: User,
    pub self_token: Option<String>,
}

/// The fewest characters a self token has: a 13-digit time (`Date.now()`)
/// and at least 22 random characters. Of the 64 characters a token may
/// use, 22 carry up to 132 bits; 21 could not carry 128, so a shorter token
/// cannot be unguessable whatever made it. The original client's tokens
/// (`Date.now()` and about 11 base-36 characters, under 60 bits) and any
/// `12345678` are refused: whoever sent the same value got the cart.
pub const SELF_TOKEN_MIN_LEN: usize = 35;

/// [`valid_self_token`]'s rule as a regular expression, for the API document.
pub const SELF_TOKEN_PATTERN: &str = "^[A-Za-z0-9._-]{35,100}$";

/// The same, where the token may be left out: a valid token or blank,
/// spaces around; or any value with a character that is not visible ASCII,
/// which a header cannot carry as text and the caller reads as none.
pub const SELF_TOKEN_OR_NONE_PATTERN: &str =
    r"^[ \t]*([A-Za-z0-9._-]{35,100})?[ \t]*$|[^\t\x20-\x7e]";

/// What a refused self token is told (the client makes a new one).
pub const SELF_TOKEN_RULE: &str =
    "The SELF-TOKEN header must be 35 to 100 letters, digits, '.', '_' or '-': \
     the time and at least 22 random characters (128 bits or more). Make a new one.";

/// Letters, digits, `.`, `_` and `-`, 35 to 100 of them
/// ([`SELF_TOKEN_MIN_LEN`]): the web client makes `Date.now()` followed by
/// 16 bytes of `crypto.getRandomValues` in base64url (22 characters).
pub fn valid_self_token(token: &str) -> bool {
    (SELF_TOKEN_MIN_LEN..=100).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// How long a guest cart made under an older, weaker token (8 to 34 of the
/// same characters: the original client's `Date.now()` and `Math.random()`
/// in base 36) keeps working, seconds from when the cart was made: 30 days.
/// Such a token is taken only while a cart made under it is that young
/// ([`live_legacy_cart`]); the origin never makes a new cart, or anything
/// else, for a token that is not [`valid_self_token`] otherwise. After that
/// the client is told to make a new token (a 400 naming `SELF-TOKEN`), and the
/// old cart is never reached again.
pub const LEGACY_CART_LIFETIME_SECS: i64 = 30 * 86_400;

/// The shape of the tokens the origin took before it asked for 128 random
/// bits: 8 to 34 letters, digits, `.`, `_` and `-`.
pub fn legacy_self_token(token: &str) -> bool {
    (8..SELF_TOKEN_MIN_LEN).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Whether `token`, a [`legacy_self_token`], owns a cart made less than
/// [`LEGACY_CART_LIFETIME_SECS`] before `now`: then it is still taken.
pub async fn live_legacy_cart(pool: &Pool, token: &str, now: i64) -> sqlx::Result<bool> {
    let found: Option<i64> =
        db::query_scalar("SELECT id FROM cart WHERE self_token = $1 AND created_at > $2")
            .bind(token)
            .bind(now - LEGACY_CART_LIFETIME_SECS)
            .fetch_optional(pool)
            .await?;
    Ok(found.is_some())
}

/// Looks a Bearer token up: live (not revoked, not expired) and its user
/// active; `None` when it is not.
pub async fn user_for_token(pool: &Pool, token: &str) -> sqlx::Result<Option<User>> {
    let now = catalog::clock::now_unix();
    let row: Option<(i64, i64)> = db::query_as(
        "SELECT t.id, t.user_id FROM auth_token t JOIN app_user u ON u.id = t.user_id \
         WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2 AND u.is_active",
    )
    .bind(hash_token(token))
    .bind(now)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(token_id, id)| User { id, token_id }))
}

/// A fresh random token (256 bits, hex) and the hash to store for it.
pub fn new_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let token = to_hex(&bytes);
    let hash = hash_token(&token);
    (token, hash)
}

/// The stored form of a token: SHA-256, hex.
pub fn hash_token(token: &str) -> String {
    to_hex(&Sha256::digest(token.as_bytes()))
}

fn to_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_tokens_must_be_able_to_carry_128_random_bits() {
        // The web client's: the time and 22 base64url characters.
        assert!(valid_self_token("1700000000000Xb7kQ2pL9mZr4TwY8vNc3H"));
        // A sign-in style token (64 hex) is fine too.
        assert!(valid_self_token(&"ab12".repeat(16)));
        // The original client's (time and ~11 base-36), and guessable ones.
        assert!(!valid_self_token("1700000000000k3j2h9abcde"));
        assert!(!valid_self_token("12345678"));
        assert!(!valid_self_token("aaaaaaaa"));
        assert!(!valid_self_token(
            &"1700000000000Xb7kQ2pL9mZr4TwY8vNc3H"[..34]
        ));
        assert!(!valid_self_token(
            "has space in it and is long enough to pass"
        ));
        assert!(!valid_self_token(&"a".repeat(101)));
        // Older tokens have a shape of their own, taken only with a young cart.
        assert!(legacy_self_token("1700000000000k3j2h9abcde"));
        assert!(legacy_self_token("12345678"));
        assert!(!legacy_self_token("1234567"));
        assert!(!legacy_self_token("1700000000000Xb7kQ2pL9mZr4TwY8vNc3H"));
        assert!(!legacy_self_token("has space in it"));
        assert!(!valid_self_token(
            "cart_'; DROP TABLE app_user; -- and more"
        ));
        let pattern = regex_lite(SELF_TOKEN_PATTERN);
        assert_eq!(pattern, (35, 100), "the document states the same rule");
    }

    /// The bounds of the `{min,max}` in a pattern.
    fn regex_lite(pattern: &str) -> (usize, usize) {
        let inner = &pattern[pattern.find('{').unwrap() + 1..pattern.find('}').unwrap()];
        let (a, b) = inner.split_once(',').unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    }

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let (a, hash_a) = new_token();
        let (b, _) = new_token();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_ne!(a, hash_a);
        assert_eq!(hash_token(&a), hash_a);
        assert_eq!(hash_a.len(), 64);
    }
}
