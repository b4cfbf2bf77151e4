//! The Auth group of SPEC.md §7: register, login, logout and the current
//! user. Passwords are argon2id hashes (`catalog::password`), checked off the
//! async threads; tokens are 256 random bits stored hashed. Signing in or
//! registering brings the guest's cart, compare list and wishlist along.
//! A wrong e-mail and a wrong password get the same answer.

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use catalog::clock;

use crate::domain::accounts::{self, NewUser};
use crate::domain::cart;
use crate::domain::identity::{hash_token, TOKEN_LIFETIME_SECS};
use crate::domain::identity::{Caller, SignedIn};
use crate::domain::mail::Mail;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::plumbing::ratelimit::{self, Throttle};
use crate::plumbing::validate;
use crate::plumbing::validate::check_new_password;
use crate::plumbing::validate::{
    EMAIL_OR_EMPTY_PATTERN, EMAIL_PATTERN, MOBILE_OR_EMPTY_PATTERN, MOBILE_PATTERN,
};
use crate::state::AppState;
use crate::surfaces::api::answers::{MessageResponse, UserProfile};
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Routes under `/api/auth`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/register",
            post_register,
            Doc::visitor("Creates an account and signs in: {success, token, user}")
                .self_token_optional()
                .answers(409, "An account with this e-mail or mobile number exists")
                .answers(
                    429,
                    "Too many accounts created from this client address: wait Retry-After seconds",
                ),
        )
        .post(
            "/login",
            post_login,
            Doc::visitor("Signs in: {success, token, token_type, expires_in, user}")
                .self_token_optional()
                .answers(401, "The e-mail (or mobile) or the password is not right")
                .answers(
                    429,
                    "Too many failed sign-ins for this account or client address: wait Retry-After seconds",
                ),
        )
        .post(
            "/logout",
            post_logout,
            Doc::signed_in("Revokes the token this call carries"),
        )
        .get(
            "/user",
            get_user,
            Doc::signed_in("The signed-in shopper: {user}"),
        )
}

/// A new account. The schema states each field's form; besides, an e-mail
/// or a mobile number is needed, the emergency number must differ from the
/// mobile, and a confirmation sent must be the same as the password.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("anyOf" = [
    { "required": ["email"], "properties": { "email": { "pattern": EMAIL_PATTERN } } },
    { "required": ["telephone"], "properties": { "telephone": { "pattern": MOBILE_PATTERN } } },
]))]
struct RegisterBody {
    /// 2-100 characters.
    #[schemars(required, length(min = 2, max = 100), pattern(r"\S"))]
    name: Option<String>,
    /// E-mail (this or telephone is required).
    #[serde(default)]
    #[schemars(length(max = 254), pattern(EMAIL_OR_EMPTY_PATTERN))]
    email: String,
    /// 11-digit Bangladeshi mobile (also read as `phone`).
    #[serde(default, alias = "phone")]
    #[schemars(pattern(MOBILE_OR_EMPTY_PATTERN))]
    telephone: String,
    /// Another mobile, not the same as `telephone`.
    #[serde(default)]
    #[schemars(pattern(MOBILE_OR_EMPTY_PATTERN))]
    emergency_contact_number: String,
    /// Home district.
    #[serde(default)]
    #[schemars(length(max = 100))]
    district: String,
    /// 8-128 characters.
    #[schemars(required, length(min = 8, max = 128))]
    password: Option<String>,
    /// The same password again.
    #[serde(default)]
    #[schemars(length(min = 8, max = 128))]
    password_confirmation: Option<String>,
    /// Accepts the terms: must be `true`.
    #[schemars(required, extend("const" = true))]
    agree: Option<Value>,
    /// Names the token (`web_browser` when absent).
    #[serde(default)]
    device_name: String,
}

/// The answer of `POST /api/auth/register` and `login`: the shopper, signed in.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SignedInResponse {
    pub success: bool,
    /// Always `success` (the original client reads it).
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `message` again, the name the original client reads.
    pub messages: &'static str,
    pub message: &'static str,
    /// The Bearer token for the calls that need a signed-in shopper; shown once.
    pub token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Seconds the token works.
    pub expires_in: i64,
    pub user: UserProfile,
}

/// The answer of `GET /api/auth/user`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UserResponse {
    pub success: bool,
    pub user: UserProfile,
}

/// Runs the (deliberately slow) password hashing off the async threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> ApiResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("password task: {e}")))
}

fn device(name: &str) -> String {
    let name = name.trim();
    if name.is_empty() || name.len() > 60 {
        "web_browser".to_string()
    } else {
        name.to_string()
    }
}

/// Failed sign-ins on one account, whatever address they come from: 5
/// free, then 2, 4, 8, 16 s between attempts, and the tenth locks the
/// account's sign-in for 15 minutes (and every failure after it, until a
/// success or a day without attempts), with a mail to the owner.
pub const SIGN_IN_PER_ACCOUNT: Throttle = Throttle {
    free: 5,
    first_wait: 2,
    max_wait: 600,
    lock_at: Some(10),
    lock_secs: 900,
};

/// Failed sign-ins from one client address, on any accounts: 30 free (many
/// shoppers share an address behind a mobile operator's NAT), then 1, 2, 4 s
/// ... at most 10 minutes between attempts. Successes are not counted.
pub const SIGN_IN_PER_ADDRESS: Throttle = Throttle {
    free: 30,
    first_wait: 1,
    max_wait: 600,
    lock_at: None,
    lock_secs: 0,
};

/// Accounts one client address may create in an hour.
pub const REGISTRATIONS_PER_HOUR: i64 = 10;

/// `POST /api/auth/register`.
async fn post_register(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    Body(body): Body<RegisterBody>,
) -> ApiResult<Json<SignedInResponse>> {
    let mut errors = Map::new();
    let bad = |errors: &mut Map<String, Value>, field: &str, message: &str| {
        errors.insert(field.to_string(), json!([message]));
    };
    let name = validate::line(body.name.as_deref().unwrap_or_default(), 2, 100);
    if name.is_none() {
        bad(&mut errors, "name", "Your name is 2 to 100 characters.");
    }
    let email = body.email.trim().to_lowercase();
    if !email.is_empty() && !validate::email(&email) {
        bad(
            &mut errors,
            "email",
            "That e-mail address does not look right.",
        );
    }
    let phone = if body.telephone.trim().is_empty() {
        None
    } else {
        let p = validate::bd_mobile(&body.telephone);
        if p.is_none() {
            bad(
                &mut errors,
                "telephone",
                "A mobile number is 11 digits: 01XXXXXXXXX.",
            );
        }
        p
    };
    if email.is_empty() && body.telephone.trim().is_empty() {
        bad(
            &mut errors,
            "email",
            "Give an e-mail address or a mobile number.",
        );
    }
    let emergency = if body.emergency_contact_number.trim().is_empty() {
        None
    } else {
        match validate::bd_mobile(&body.emergency_contact_number) {
            None => {
                bad(
                    &mut errors,
                    "emergency_contact_number",
                    "A mobile number is 11 digits: 01XXXXXXXXX.",
                );
                None
            }
            Some(e) if Some(&e) == phone.as_ref() => {
                bad(
                    &mut errors,
                    "emergency_contact_number",
                    "The emergency number must differ from your mobile.",
                );
                None
            }
            Some(e) => Some(e),
        }
    };
    let district_raw = body.district.trim();
    if district_raw.chars().count() > 100 {
        bad(&mut errors, "district", "Choose a district.");
    }
    let password = body.password.unwrap_or_default();
    check_new_password(
        &password,
        body.password_confirmation.as_deref(),
        &mut errors,
    );
    if !matches!(body.agree, Some(Value::Bool(true))) {
        bad(&mut errors, "agree", "Please accept the terms.");
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let name = name.unwrap_or_default();
    let keys = [format!("register-ip:{}", ratelimit::client(&headers))];
    if let Err(wait) = ratelimit::check(
        &state.pool,
        &keys,
        REGISTRATIONS_PER_HOUR,
        3_600,
        clock::now_unix(),
    )
    .await?
    {
        return Err(ApiError::TooManyRequests {
            message: format!(
                "Too many accounts were created from your connection. Please try again in {}.",
                ratelimit::wait_words(wait)
            ),
            retry_after: wait,
        });
    }
    let mut conn = state.pool.acquire().await?;
    let district = match cart::district(&mut conn, district_raw).await? {
        Some(d) => Some(d.name),
        None if district_raw.is_empty() => None,
        None => Some(district_raw.to_string()),
    };
    drop(conn);
    let hash = blocking(move || catalog::password::hash(&password))
        .await?
        .map_err(ApiError::Internal)?;
    let now = clock::now_unix();
    let email = (!email.is_empty()).then_some(email);
    let new_user = NewUser {
        name,
        email,
        phone,
        emergency_phone: emergency,
        password_hash: hash,
        district,
    };
    let (token, user) = accounts::register(
        &state.pool,
        &new_user,
        &device(&body.device_name),
        caller.self_token.as_deref(),
        now,
    )
    .await?;
    tracing::info!(user = user.id, "account created");
    Ok(Json(signed_in(
        "Your account has been created.",
        token,
        user,
    )))
}

pub(crate) fn signed_in(
    message: &'static str,
    token: String,
    user: accounts::User,
) -> SignedInResponse {
    SignedInResponse {
        success: true,
        kind: "success",
        messages: message,
        message,
        token,
        token_type: "Bearer",
        expires_in: TOKEN_LIFETIME_SECS,
        user: user.into(),
    }
}

/// A sign-in.
#[derive(Debug, Deserialize, JsonSchema)]
struct LoginBody {
    /// E-mail or mobile number (also read as `phone` or `login`).
    #[serde(alias = "phone", alias = "login")]
    #[schemars(required, length(min = 1, max = 254), pattern(r"\S"))]
    email: Option<String>,
    /// The password.
    #[schemars(required, length(min = 1, max = 1024))]
    password: Option<String>,
    /// Names the token (`web_browser` when absent).
    #[serde(default)]
    device_name: String,
}

/// The throttle key of sign-ins to account `id`: the account's shared count,
/// or, from a `browser` (its guest token) the account signed in from before,
/// that browser's own.
pub(crate) fn sign_in_key(id: i64, browser: Option<&str>) -> String {
    match browser {
        Some(token) => format!("login-user:{id}:browser:{}", &hash_token(token)[..16]),
        None => format!("login-user:{id}"),
    }
}

/// A hash to check against when no account matches, so that an unknown
/// e-mail takes as long as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        catalog::password::hash_with_salt("decoy-password", &[42; 16]).unwrap_or_default()
    })
}

/// `POST /api/auth/login` with `{email (or a mobile number), password}`.
async fn post_login(
    State(state): State<AppState>,
    headers: HeaderMap,
    caller: Caller,
    Body(body): Body<LoginBody>,
) -> ApiResult<Json<SignedInResponse>> {
    let login = body.email.unwrap_or_default().trim().to_lowercase();
    let password = body.password.unwrap_or_default();
    let mut errors = Map::new();
    if login.is_empty() || login.len() > 254 {
        errors.insert(
            "email".into(),
            json!(["Enter your e-mail address or mobile number."]),
        );
    }
    if password.is_empty() || password.len() > 1024 {
        errors.insert("password".into(), json!(["Enter your password."]));
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let phone = validate::bd_mobile(&login);
    let found = accounts::credentials(&state.pool, &login, phone.as_deref()).await?;
    // The account's key is its id, so its e-mail and its mobile share one
    // count; an unknown login is throttled by its text alike. A browser the
    // account signed in from before counts apart: guesses from elsewhere
    // never lock the owner out of it.
    let account_key = match &found {
        Some((id, _)) => {
            let known = match caller.self_token.as_deref() {
                Some(browser) => accounts::knows_browser(&state.pool, *id, browser)
                    .await?
                    .then_some(browser),
                None => None,
            };
            sign_in_key(*id, known)
        }
        None => format!("login-name:{}", phone.as_deref().unwrap_or(&login)),
    };
    let address_key = format!("login-ip:{}", ratelimit::client(&headers));
    let now = clock::now_unix();
    let keys = [
        (account_key.as_str(), &SIGN_IN_PER_ACCOUNT),
        (address_key.as_str(), &SIGN_IN_PER_ADDRESS),
    ];
    let failures = match ratelimit::attempt(&state.pool, &keys, now).await? {
        Ok(counts) => counts[0],
        Err(wait) => {
            return Err(ApiError::TooManyRequests {
                message: format!(
                    "Too many failed sign-ins. Please try again in {}.",
                    ratelimit::wait_words(wait)
                ),
                retry_after: wait,
            })
        }
    };
    let (id, phc) = match found {
        Some((id, Some(phc))) => (Some(id), phc),
        Some((id, None)) => (Some(id), decoy_hash().to_string()),
        None => (None, decoy_hash().to_string()),
    };
    let has_password = phc != decoy_hash();
    let ok = blocking(move || catalog::password::verify(&password, &phc)).await?;
    let Some(id) = id.filter(|_| ok && has_password) else {
        if let (Some(id), true) = (id, SIGN_IN_PER_ACCOUNT.locks_at(failures)) {
            tell_owner_of_lock(&state, id).await?;
        }
        return Err(ApiError::Unauthorized(
            "The e-mail (or mobile) or the password is not right.".into(),
        ));
    };
    ratelimit::clear(&state.pool, &account_key).await?;
    ratelimit::refund(&state.pool, &address_key, &SIGN_IN_PER_ADDRESS).await?;
    let (token, user) = accounts::sign_in(
        &state.pool,
        id,
        &device(&body.device_name),
        caller.self_token.as_deref(),
        clock::now_unix(),
    )
    .await?;
    Ok(Json(signed_in("You are signed in.", token, user)))
}

/// What [`check_password`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Checked {
    Right,
    Wrong,
    /// The account has no password (made by a social sign-in).
    NoPassword,
}

/// The password of account `id` given outside `login` (a signed-in
/// shopper's current password before a change, the password that links a
/// social sign-in), checked exactly like a sign-in: the attempt counts on
/// the account's throttle and on the client address's (the same keys as
/// `login`: [`SIGN_IN_PER_ACCOUNT`], [`SIGN_IN_PER_ADDRESS`]) before the
/// password is checked, 429 while either waits, and the failure that locks
/// the account mails its owner. A right one clears the account's failures
/// and takes back the address's.
pub(crate) async fn check_password(
    state: &AppState,
    headers: &HeaderMap,
    id: i64,
    password: String,
) -> ApiResult<Checked> {
    let Some(phc) = accounts::password_hash(&state.pool, id).await? else {
        return Ok(Checked::NoPassword);
    };
    let account_key = sign_in_key(id, None);
    let address_key = format!("login-ip:{}", ratelimit::client(headers));
    let keys = [
        (account_key.as_str(), &SIGN_IN_PER_ACCOUNT),
        (address_key.as_str(), &SIGN_IN_PER_ADDRESS),
    ];
    let failures = match ratelimit::attempt(&state.pool, &keys, clock::now_unix()).await? {
        Ok(counts) => counts[0],
        Err(wait) => {
            return Err(ApiError::TooManyRequests {
                message: format!(
                    "Too many wrong passwords. Please try again in {}.",
                    ratelimit::wait_words(wait)
                ),
                retry_after: wait,
            })
        }
    };
    let ok = blocking(move || catalog::password::verify(&password, &phc)).await?;
    if !ok {
        if SIGN_IN_PER_ACCOUNT.locks_at(failures) {
            tell_owner_of_lock(state, id).await?;
        }
        return Ok(Checked::Wrong);
    }
    ratelimit::clear(&state.pool, &account_key).await?;
    ratelimit::refund(&state.pool, &address_key, &SIGN_IN_PER_ADDRESS).await?;
    Ok(Checked::Right)
}

/// Mails the owner of account `id` (if it has an e-mail) that its sign-in
/// is locked after repeated wrong passwords.
async fn tell_owner_of_lock(state: &AppState, id: i64) -> ApiResult<()> {
    let Some(user) = accounts::user_any(&state.pool, id).await? else {
        return Ok(());
    };
    let Some(email) = user.email else {
        return Ok(());
    };
    let minutes = SIGN_IN_PER_ACCOUNT.lock_secs / 60;
    tracing::warn!(user = id, "sign-in locked after repeated wrong passwords");
    state
        .send_mail(Mail {
            to: email,
            subject: "Sign-in to your account is paused".into(),
            body: format!(
                "Hello {},\r\n\r\nSomeone entered a wrong password for your account {} times in a row, \
                 so signing in is paused for {minutes} minutes.\r\n\r\n\
                 If it was you, wait and try again, or choose a new password:\r\n{}/user/forgot_password\r\n\r\n\
                 If it was not you, your password has not been given away: nobody signed in. \
                 Choosing a new, longer password keeps it so.\r\n",
                user.name,
                SIGN_IN_PER_ACCOUNT.lock_at.unwrap_or_default(),
                state.site_url
            ),
        })
        .map_err(ApiError::Internal)
}

/// `POST /api/auth/logout`: the token used for this call stops working.
async fn post_logout(
    State(state): State<AppState>,
    who: SignedIn,
) -> ApiResult<Json<MessageResponse>> {
    let mut conn = state.pool.acquire().await?;
    accounts::revoke_token(&mut conn, who.user.token_id, clock::now_unix()).await?;
    Ok(Json(MessageResponse::new("You are signed out.")))
}

/// `GET /api/auth/user`: `{user}`.
async fn get_user(State(state): State<AppState>, who: SignedIn) -> ApiResult<Json<UserResponse>> {
    let user = accounts::user_any(&state.pool, who.user.id)
        .await?
        .ok_or_else(ApiError::unauthenticated)?;
    Ok(Json(UserResponse {
        success: true,
        user: user.into(),
    }))
}
