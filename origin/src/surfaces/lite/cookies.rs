//! The basic pages' visitor, read from cookies: the guest token
//! (`shop_token`, made here on a first visit) and the sign-in token
//! (`shop_auth`, checked on every request and dropped when it no longer
//! works); and the `Set-Cookie` headers that keep them.

use axum::http::header::{CACHE_CONTROL, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use catalog::db::Pool;

use crate::domain::accounts;
use crate::domain::identity::{self, TOKEN_LIFETIME_SECS};
use crate::plumbing::extract::cookie;

/// The guest token's cookie.
pub const TOKEN_COOKIE: &str = "shop_token";
/// The sign-in token's cookie.
pub const AUTH_COOKIE: &str = "shop_auth";
/// Where the cookies are sent: only the basic pages read them.
pub const COOKIE_PATH: &str = "/lite";
/// How long a guest token is kept: a year.
pub const TOKEN_MAX_AGE: i64 = 365 * 24 * 3600;

/// Who is asking, and what their cookies should become.
#[derive(Debug, Clone, Default)]
pub struct Visitor {
    /// The guest token (a `SELF-TOKEN`).
    pub token: String,
    /// The token was made for this request (the browser sent none).
    pub fresh: bool,
    /// A working sign-in token.
    pub bearer: Option<String>,
    /// Its user.
    pub user: Option<i64>,
    /// Its user's name.
    pub name: Option<String>,
    /// The request came over TLS (the edge says so).
    pub secure: bool,
    /// A sign-in token to keep in its cookie now.
    pub(super) set_auth: Option<String>,
    /// The sign-in cookie is to go.
    pub(super) clear_auth: bool,
}

/// Whether the edge says the request came over TLS.
pub fn over_tls(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
}

impl Visitor {
    /// Reads the visitor: a guest token of the `SELF-TOKEN` shape, or a new
    /// one; a sign-in token only while it works (else its cookie is dropped).
    pub async fn read(pool: &Pool, headers: &HeaderMap) -> Visitor {
        let secure = over_tls(headers);
        let (token, fresh) = match cookie(headers, TOKEN_COOKIE) {
            Some(t) if identity::valid_self_token(t) => (t.to_string(), false),
            _ => (identity::new_token().0, true),
        };
        let mut visitor = Visitor {
            token,
            fresh,
            secure,
            ..Visitor::default()
        };
        if let Some(bearer) = cookie(headers, AUTH_COOKIE).filter(|t| !t.is_empty()) {
            let found = if bearer.len() <= 200 {
                identity::user_for_token(pool, bearer)
                    .await
                    .unwrap_or_else(|err| {
                        tracing::warn!(cause = %err, "cannot check a sign-in cookie");
                        None
                    })
            } else {
                None
            };
            match found {
                Some(user) => {
                    visitor.bearer = Some(bearer.to_string());
                    visitor.user = Some(user.id);
                    visitor.name = accounts::user_any(pool, user.id)
                        .await
                        .ok()
                        .flatten()
                        .map(|u| u.name);
                }
                None => visitor.clear_auth = true,
            }
        }
        visitor
    }

    /// The same visitor as a guest (for signing in: the API merges the
    /// guest's cart into the account's).
    pub fn as_guest(&self) -> Visitor {
        Visitor {
            bearer: None,
            user: None,
            name: None,
            ..self.clone()
        }
    }

    /// The visitor after signing in with `token`.
    pub fn signed_in(&self, token: &str) -> Visitor {
        Visitor {
            set_auth: Some(token.to_string()),
            clear_auth: false,
            ..self.clone()
        }
    }

    /// The visitor after signing out.
    pub fn signed_out(&self) -> Visitor {
        Visitor {
            bearer: None,
            user: None,
            name: None,
            set_auth: None,
            clear_auth: true,
            ..self.clone()
        }
    }

    /// `response` with the cookies to set and `Cache-Control: private,
    /// no-store` (these pages are each visitor's own).
    pub fn finish(&self, mut response: Response) -> Response {
        let mut cookies = Vec::new();
        if self.fresh {
            cookies.push(self.cookie(TOKEN_COOKIE, &self.token, TOKEN_MAX_AGE));
        }
        if let Some(token) = &self.set_auth {
            cookies.push(self.cookie(AUTH_COOKIE, token, TOKEN_LIFETIME_SECS));
        } else if self.clear_auth {
            cookies.push(self.cookie(AUTH_COOKIE, "", 0));
        }
        let headers = response.headers_mut();
        for c in cookies {
            if let Ok(v) = HeaderValue::from_str(&c) {
                headers.append(SET_COOKIE, v);
            }
        }
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
        response
    }

    fn cookie(&self, name: &str, value: &str, max_age: i64) -> String {
        let secure = if self.secure { "; Secure" } else { "" };
        format!(
            "{name}={value}; Path={COOKIE_PATH}; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header::COOKIE;

    #[test]
    fn cookies_are_read_by_name() {
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            HeaderValue::from_static("a=1; shop_token=abc123def; b=2"),
        );
        assert_eq!(cookie(&h, TOKEN_COOKIE), Some("abc123def"));
        assert_eq!(cookie(&h, AUTH_COOKIE), None);
        assert!(!over_tls(&h));
        h.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert!(over_tls(&h));
    }
}
