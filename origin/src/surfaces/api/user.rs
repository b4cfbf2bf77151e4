//! The account calls of SPEC.md §7 "User" (besides the wishlist, in
//! `lists`): profile, password, address book with default billing and
//! shipping addresses, own orders, and the newsletter (reviews are in
//! `reviews`, merged into the same prefix). Every call
//! but `subscribe` needs a signed-in shopper and touches only their rows: an
//! id of someone else's address is answered like an unknown one (404).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use catalog::clock;

use crate::domain::accounts;
use crate::domain::addresses::{self, DefaultKind, NewAddress};
use crate::domain::cart;
use crate::domain::identity::SignedIn;
use crate::domain::mail::Mail;
use crate::domain::newsletter;
use crate::domain::orders;
use crate::domain::orders::{OrderHead, OrderLine};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{Json as Body, Query};
use crate::plumbing::params::{blank_is_none, required, Int, MAX_ID};
use crate::plumbing::validate::check_new_password;
use crate::plumbing::validate::{
    self, EMAIL_OR_EMPTY_PATTERN, EMAIL_PATTERN, MOBILE_OR_EMPTY_PATTERN, MOBILE_PATTERN,
};
use crate::state::AppState;
use crate::surfaces::api::answers::{ById, MessageResponse, OrEmpty, SuccessResponse, UserProfile};
use crate::surfaces::api::auth::{self, Checked};
use crate::surfaces::api::doc::{ApiRouter, Doc};

pub use crate::domain::addresses::{Address, MAX_ADDRESSES};

/// Orders per page of `user/orders`.
pub const ORDERS_PER_PAGE: i64 = 20;

/// Routes under `/api/user` (merged with the wishlist's).
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/user-update",
            post_user_update,
            Doc::signed_in(
                "Updates the profile; only these fields change. A new e-mail or mobile needs the current password (old_password); the old e-mail is told",
            )
            .answers(409, "Another account uses that e-mail or mobile number")
            .answers(
                429,
                "Too many wrong passwords for this account or from this client: wait Retry-After seconds",
            ),
        )
        .post(
            "/change-password",
            post_change_password,
            Doc::signed_in("Changes the password; every other session is signed out")
                .answers(
                    429,
                    "Too many wrong passwords for this account or from this client: wait Retry-After seconds",
                ),
        )
        .get(
            "/address-list",
            get_addresses,
            Doc::signed_in("Saved addresses by id: {addresses, default_billing, default_shipping}"),
        )
        .get(
            "/address-store",
            get_address_store,
            Doc::signed_in("Saves a new address (at most 20)")
                .answers(409, "The address book is full"),
        )
        .get(
            "/address-update",
            get_address_update,
            Doc::signed_in("Changes one of the shopper's addresses")
                .answers(404, "No such address of the shopper's"),
        )
        .get(
            "/get-default-address",
            get_default_address,
            Doc::signed_in("The default address of a type: {address}"),
        )
        .get(
            "/set-default-address",
            get_set_default_address,
            Doc::signed_in("Makes one of the shopper's addresses the default of a type")
                .answers(404, "No such address of the shopper's"),
        )
        .get(
            "/orders",
            get_orders,
            Doc::signed_in("The shopper's orders, newest first, 20 a page: {orders, total}"),
        )
        .post(
            "/subscribe",
            post_subscribe,
            Doc::public("Subscribes an e-mail to the newsletter (again is fine)"),
        )
}

/// A profile: every field is set to what is sent (empty clears it). The
/// schema states each field's form; keeping neither an e-mail nor a mobile
/// is refused too.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("anyOf" = [
    { "required": ["email"], "properties": { "email": { "pattern": EMAIL_PATTERN } } },
    { "required": ["phone"], "properties": { "phone": { "pattern": MOBILE_PATTERN } } },
]))]
struct ProfileBody {
    /// 2-100 characters.
    #[schemars(required, length(min = 2, max = 100), pattern(r"\S"))]
    name: Option<String>,
    /// E-mail (keep this or phone); empty clears it.
    #[serde(default)]
    #[schemars(pattern(EMAIL_OR_EMPTY_PATTERN))]
    email: String,
    /// 11-digit mobile; empty clears it.
    #[serde(default)]
    #[schemars(pattern(MOBILE_OR_EMPTY_PATTERN))]
    phone: String,
    /// Another mobile (also read as `emergency_mobile`); empty clears it.
    #[serde(default, alias = "emergency_mobile")]
    #[schemars(pattern(MOBILE_OR_EMPTY_PATTERN))]
    emergency_phone: String,
    /// YYYY-MM-DD, a past date after 1900; empty clears it; null or left
    /// out keeps it (the original storefront sends null).
    #[serde(default)]
    #[schemars(pattern(r"^(\s*|\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*)$"))]
    birthday: Option<String>,
    /// male, female or other; empty clears it; null or left out keeps it.
    #[serde(default)]
    #[schemars(pattern(r"^\s*(|male|female|other)\s*$"))]
    gender: Option<String>,
    /// Home district; empty clears it.
    #[serde(default)]
    #[schemars(length(max = 100))]
    district: String,
    /// 4 digits; empty clears it.
    #[serde(default)]
    #[schemars(pattern(r"^\s*([0-9]{4})?\s*$"))]
    postcode: String,
    /// The current password (the name change-password uses): needed when
    /// `email` or `phone` changes, as either can take the account over
    /// (a reset link, a sign-in by mobile). Also read as `current_password`.
    #[serde(default, alias = "current_password")]
    #[schemars(length(max = 1024))]
    old_password: Option<String>,
}

/// The answer of `POST /api/user/user-update`: the profile as saved.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UserUpdateResponse {
    pub success: bool,
    pub message: &'static str,
    pub user: UserProfile,
}

fn bad(errors: &mut Map<String, Value>, field: &str, message: &str) {
    errors.insert(field.to_string(), json!([message]));
}

/// `POST /api/user/user-update`.
async fn post_user_update(
    State(state): State<AppState>,
    headers: HeaderMap,
    who: SignedIn,
    Body(body): Body<ProfileBody>,
) -> ApiResult<Json<UserUpdateResponse>> {
    let mut errors = Map::new();
    let name = validate::line(body.name.as_deref().unwrap_or_default(), 2, 100);
    if name.is_none() {
        bad(&mut errors, "name", "Your name is 2 to 100 characters.");
    }
    let optional_mobile = |raw: &str| -> Result<Option<String>, ()> {
        if raw.trim().is_empty() {
            Ok(None)
        } else {
            validate::bd_mobile(raw).map(Some).ok_or(())
        }
    };
    let phone = optional_mobile(&body.phone).unwrap_or_else(|_| {
        bad(
            &mut errors,
            "phone",
            "A mobile number is 11 digits: 01XXXXXXXXX.",
        );
        None
    });
    let emergency = optional_mobile(&body.emergency_phone).unwrap_or_else(|_| {
        bad(
            &mut errors,
            "emergency_phone",
            "A mobile number is 11 digits: 01XXXXXXXXX.",
        );
        None
    });
    let email = body.email.trim().to_lowercase();
    if !email.is_empty() && !validate::email(&email) {
        bad(
            &mut errors,
            "email",
            "That e-mail address does not look right.",
        );
    }
    // Null (or left out) keeps what is stored, unchecked.
    let stored = {
        let mut conn = state.pool.acquire().await?;
        accounts::user(&mut conn, who.user.id)
            .await?
            .ok_or_else(ApiError::unauthenticated)?
    };
    let birthday = body.birthday.as_deref().map(str::trim);
    if let Some(birthday) = birthday.filter(|b| !b.is_empty()) {
        let ok = chrono::NaiveDate::parse_from_str(birthday, "%Y-%m-%d")
            .ok()
            .is_some_and(|d| {
                let today = clock::in_dhaka(clock::now_unix()).date_naive();
                d < today && d > chrono::NaiveDate::from_ymd_opt(1900, 1, 1).unwrap_or(d)
            });
        if !ok {
            bad(
                &mut errors,
                "birthday",
                "A birthday is a past date, YYYY-MM-DD.",
            );
        }
    }
    let gender = body.gender.as_deref().map(|g| g.trim().to_lowercase());
    if gender
        .as_deref()
        .is_some_and(|g| !["", "male", "female", "other"].contains(&g))
    {
        bad(&mut errors, "gender", "Choose male, female or other.");
    }
    let postcode = body.postcode.trim();
    let postcode_ok = postcode.is_empty()
        || (postcode.len() == 4 && postcode.bytes().all(|b| b.is_ascii_digit()));
    if !postcode_ok {
        bad(&mut errors, "postcode", "A postcode is 4 digits.");
    }
    let district = validate::line(&body.district, 0, 100);
    if district.is_none() {
        bad(&mut errors, "district", "Choose a district.");
    }
    if email.is_empty() && phone.is_none() {
        bad(
            &mut errors,
            "email",
            "Keep an e-mail address or a mobile number.",
        );
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let none_if_empty = |s: &str| (!s.is_empty()).then(|| s.to_string());
    let profile = accounts::Profile {
        name: name.unwrap_or_default(),
        email: none_if_empty(&email),
        phone,
        emergency_phone: emergency,
        birthday: match birthday {
            Some(b) => none_if_empty(b),
            None => stored.birthday.clone(),
        },
        gender: match gender.as_deref() {
            Some(g) => none_if_empty(g),
            None => stored.gender.clone(),
        },
        district: district.and_then(|d| none_if_empty(&d)),
        postcode: none_if_empty(postcode),
    };
    let new_email = profile.email != stored.email;
    if new_email || profile.phone != stored.phone {
        let password = body.old_password.unwrap_or_default();
        if password.is_empty() {
            return Err(ApiError::invalid(
                "old_password",
                "Enter your current password to change your e-mail or mobile number.",
            ));
        }
        check_current_password(&state, &headers, who.user.id, password).await?;
    }
    let user =
        accounts::save_profile(&state.pool, who.user.id, &profile, clock::now_unix()).await?;
    if let (true, Some(old)) = (new_email, &stored.email) {
        tell_old_address(&state, old, &user.name, user.email.as_deref())?;
    }
    Ok(Json(UserUpdateResponse {
        success: true,
        message: "Your profile has been updated.",
        user: user.into(),
    }))
}

/// A signed-in shopper's current password (`old_password`: before a new
/// password, e-mail or mobile), checked like a sign-in
/// ([`auth::check_password`]: throttled per account and per client address,
/// 429 while either waits), so that a stolen session cannot guess it here
/// faster than at `login`. 400 naming `old_password` when it is wrong, or the
/// account has none.
async fn check_current_password(
    state: &AppState,
    headers: &HeaderMap,
    id: i64,
    password: String,
) -> ApiResult<()> {
    match auth::check_password(state, headers, id, password).await? {
        Checked::Right => Ok(()),
        Checked::Wrong => Err(ApiError::invalid(
            "old_password",
            "Your current password is not right.",
        )),
        Checked::NoPassword => Err(ApiError::invalid(
            "old_password",
            "Your account has no password yet (you sign in with Google or Facebook): \
             set one with 'Forgot password' first.",
        )),
    }
}

/// Tells the account's previous e-mail address that it was replaced, so a
/// takeover does not go unnoticed.
fn tell_old_address(state: &AppState, old: &str, name: &str, new: Option<&str>) -> ApiResult<()> {
    let now = match new {
        Some(new) => format!("is now {new}"),
        None => "was removed".to_string(),
    };
    state
        .send_mail(Mail {
            to: old.to_string(),
            subject: "The e-mail address of your account was changed".into(),
            body: format!(
                "Hello {name},\r\n\r\nThe e-mail address of your account at {site} {now}; \
                 this address will get no more messages about it.\r\n\r\n\
                 If you did not change it, write to us at once by answering this message or through \
                 {site}/page/contact.\r\n",
                site = state.site_url
            ),
        })
        .map_err(ApiError::Internal)
}

/// A new password for a signed-in shopper.
#[derive(Debug, Deserialize, JsonSchema)]
struct PasswordBody {
    /// The current password.
    #[schemars(required, length(min = 1))]
    old_password: Option<String>,
    /// The new password, 8-128 characters.
    #[schemars(required, length(min = 8, max = 128))]
    password: Option<String>,
    /// The new password again: the two must be the same.
    #[schemars(required, length(min = 8, max = 128))]
    password_confirmation: Option<String>,
}

/// The answer of `POST /api/user/change-password`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChangePasswordResponse {
    pub success: bool,
    pub message: &'static str,
    /// How many other sessions were signed out.
    pub signed_out_sessions: u64,
}

/// `POST /api/user/change-password`.
async fn post_change_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    who: SignedIn,
    Body(body): Body<PasswordBody>,
) -> ApiResult<Json<ChangePasswordResponse>> {
    let old = body.old_password.unwrap_or_default();
    let new = body.password.unwrap_or_default();
    let mut errors = Map::new();
    if old.is_empty() {
        bad(&mut errors, "old_password", "Enter your current password.");
    }
    check_new_password(
        &new,
        Some(body.password_confirmation.as_deref().unwrap_or_default()),
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    // The new hash is made only when the old password is right.
    check_current_password(&state, &headers, who.user.id, old).await?;
    let hash = tokio::task::spawn_blocking(move || catalog::password::hash(&new))
        .await
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("password task: {e}")))?
        .map_err(ApiError::Internal)?;
    let others = accounts::change_password(
        &state.pool,
        who.user.id,
        &hash,
        Some(who.user.token_id),
        clock::now_unix(),
    )
    .await?;
    Ok(Json(ChangePasswordResponse {
        success: true,
        message: "Your password has been changed.",
        signed_out_sessions: others,
    }))
}

/// The answer of `GET /api/user/address-list`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddressListResponse {
    pub success: bool,
    pub addresses: ById<Address>,
    /// The id of the default billing address.
    pub default_billing: Option<i64>,
    /// The id of the default shipping address.
    pub default_shipping: Option<i64>,
}

/// The answer of `GET /api/user/address-store`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddressStoreResponse {
    pub success: bool,
    pub message: &'static str,
    /// The new address's id.
    pub id: i64,
}

/// The answer of `GET /api/user/get-default-address`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DefaultAddressResponse {
    pub success: bool,
    pub address: OrEmpty<Address>,
}

/// `GET /api/user/address-list`.
async fn get_addresses(
    State(state): State<AppState>,
    who: SignedIn,
) -> ApiResult<Json<AddressListResponse>> {
    let rows = addresses::list(&state.pool, who.user.id).await?;
    let (billing, shipping) = addresses::defaults(&state.pool, who.user.id).await?;
    Ok(Json(AddressListResponse {
        success: true,
        addresses: ById(rows.into_iter().map(|a| (a.id, a)).collect()),
        default_billing: billing,
        default_shipping: shipping,
    }))
}

/// The parameters of `GET /api/user/address-store`: an address, checked by
/// [`check_address`] (every field at once, each error in words).
#[derive(Debug, Deserialize, JsonSchema)]
struct AddressQuery {
    /// Who receives, 3-100 characters.
    #[schemars(required, length(min = 3, max = 100))]
    name: Option<String>,
    /// 11-digit mobile, `01XXXXXXXXX`.
    #[schemars(required, pattern(MOBILE_PATTERN))]
    phone: Option<String>,
    /// 5-500 characters.
    #[schemars(required, length(min = 5, max = 500))]
    address: Option<String>,
    /// One of the 64 districts (a 400 otherwise).
    #[schemars(required, length(min = 1, max = 100))]
    district: Option<String>,
    /// Division: documented for the original client, which sends it; the
    /// division is taken from the district.
    #[schemars(length(max = 100))]
    #[allow(dead_code)]
    region: Option<String>,
    /// Thana or upazila, at most 100 characters.
    #[schemars(length(max = 100))]
    thana: Option<String>,
}

/// The parameters of `GET /api/user/address-update`: which address, and
/// what it becomes.
#[derive(Debug, Deserialize, JsonSchema)]
struct AddressUpdateQuery {
    /// The address's id.
    #[schemars(required)]
    id: Option<Int<1, MAX_ID>>,
    #[serde(flatten)]
    address: AddressQuery,
}

/// The parameters of `GET /api/user/get-default-address`.
#[derive(Debug, Deserialize, JsonSchema)]
struct DefaultQuery {
    /// billing or shipping.
    #[serde(rename = "type")]
    #[schemars(required)]
    kind: Option<DefaultKind>,
}

/// The parameters of `GET /api/user/set-default-address`.
#[derive(Debug, Deserialize, JsonSchema)]
struct SetDefaultQuery {
    /// billing or shipping.
    #[serde(rename = "type")]
    #[schemars(required)]
    kind: Option<DefaultKind>,
    /// The address's id.
    #[schemars(required)]
    id: Option<Int<1, MAX_ID>>,
}

/// The address sent, checked: every field's error at once.
async fn check_address(state: &AppState, q: &AddressQuery) -> ApiResult<NewAddress> {
    let mut errors = Map::new();
    let get = |field: &Option<String>| field.clone().unwrap_or_default();
    let name = validate::line(&get(&q.name), 3, 100);
    if name.is_none() {
        bad(&mut errors, "name", "A name is 3 to 100 characters.");
    }
    let phone = validate::bd_mobile(&get(&q.phone));
    if phone.is_none() {
        bad(
            &mut errors,
            "phone",
            "A mobile number is 11 digits: 01XXXXXXXXX.",
        );
    }
    let address = validate::text(&get(&q.address), 5, 500);
    if address.is_none() {
        bad(
            &mut errors,
            "address",
            "The address is 5 to 500 characters.",
        );
    }
    let thana = validate::line(&get(&q.thana), 0, 100);
    if thana.is_none() {
        bad(&mut errors, "thana", "The thana is at most 100 characters.");
    }
    let mut conn = state.pool.acquire().await?;
    let district = cart::district(&mut conn, &get(&q.district)).await?;
    if district.is_none() {
        bad(&mut errors, "district", "Choose one of the 64 districts.");
    }
    match (name, phone, address, thana, district) {
        (Some(name), Some(phone), Some(address), Some(thana), Some(d)) if errors.is_empty() => {
            Ok(NewAddress {
                name,
                phone,
                address,
                region: d.division,
                district: d.name,
                thana,
            })
        }
        _ => Err(ApiError::fields(errors)),
    }
}

/// `GET /api/user/address-store?name=&phone=&address=&district=`.
async fn get_address_store(
    State(state): State<AppState>,
    who: SignedIn,
    Query(query): Query<AddressQuery>,
) -> ApiResult<Json<AddressStoreResponse>> {
    let address = check_address(&state, &query).await?;
    let id = addresses::store(&state.pool, who.user.id, &address, clock::now_unix()).await?;
    Ok(Json(AddressStoreResponse {
        success: true,
        message: "Address saved",
        id,
    }))
}

/// `GET /api/user/address-update?id=&...`.
async fn get_address_update(
    State(state): State<AppState>,
    who: SignedIn,
    Query(query): Query<AddressUpdateQuery>,
) -> ApiResult<Json<MessageResponse>> {
    let id = required(query.id, "id")?.get();
    addresses::own(&state.pool, who.user.id, id).await?;
    let address = check_address(&state, &query.address).await?;
    addresses::update(&state.pool, who.user.id, id, &address, clock::now_unix()).await?;
    Ok(Json(MessageResponse::new("Address updated")))
}

/// `GET /api/user/get-default-address?type=`: `{address}` (`[]` when none).
async fn get_default_address(
    State(state): State<AppState>,
    who: SignedIn,
    Query(query): Query<DefaultQuery>,
) -> ApiResult<Json<DefaultAddressResponse>> {
    let kind = required(query.kind, "type")?;
    let found = addresses::default_of(&state.pool, who.user.id, kind).await?;
    Ok(Json(DefaultAddressResponse {
        success: true,
        address: OrEmpty(found),
    }))
}

/// `GET /api/user/set-default-address?type=&id=`.
async fn get_set_default_address(
    State(state): State<AppState>,
    who: SignedIn,
    Query(query): Query<SetDefaultQuery>,
) -> ApiResult<Json<SuccessResponse>> {
    let kind = required(query.kind, "type")?;
    let id = required(query.id, "id")?.get();
    addresses::own(&state.pool, who.user.id, id).await?;
    addresses::set_default(&state.pool, who.user.id, kind, id).await?;
    Ok(Json(SuccessResponse::OK))
}

/// The answer of `GET /api/user/orders`: one page of the shopper's orders.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OrdersResponse {
    pub success: bool,
    pub orders: Vec<AccountOrder>,
    /// How many orders the shopper has in all.
    pub total: i64,
    pub current_page: i64,
    pub per_page: i64,
}

/// One of the shopper's orders: its head, then how to find it again and its
/// lines.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountOrder {
    #[serde(flatten)]
    pub head: OrderHead,
    pub id: i64,
    /// The secret of the thank-you page's link.
    pub order_key: String,
    /// `order_status` again, the name the original client reads.
    pub od_status: String,
    /// How many lines the order has.
    pub qty: usize,
    pub products: Vec<OrderLine>,
}

/// The parameters of `GET /api/user/orders`.
#[derive(Debug, Deserialize, JsonSchema)]
struct OrdersQuery {
    /// Page number (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    page: Option<Int<1, 10_000>>,
}

/// `GET /api/user/orders?page=`: own orders, newest first.
async fn get_orders(
    State(state): State<AppState>,
    who: SignedIn,
    Query(query): Query<OrdersQuery>,
) -> ApiResult<Json<OrdersResponse>> {
    let page = query.page.map_or(1, Int::get);
    let (total, ids) = accounts::orders_page(
        &state.pool,
        who.user.id,
        ORDERS_PER_PAGE,
        (page - 1) * ORDERS_PER_PAGE,
    )
    .await?;
    let mut out = Vec::with_capacity(ids.len());
    for (id, key) in ids {
        let Some(master) = orders::by_id(&state.pool, id).await? else {
            continue;
        };
        let products = orders::details(&state.pool, id).await?;
        let head = OrderHead::from(&master);
        out.push(AccountOrder {
            id,
            order_key: key,
            od_status: head.order_status.clone(),
            qty: products.len(),
            products,
            head,
        });
    }
    Ok(Json(OrdersResponse {
        success: true,
        orders: out,
        total,
        current_page: page,
        per_page: ORDERS_PER_PAGE,
    }))
}

/// An address for the newsletter.
#[derive(Debug, Deserialize, JsonSchema)]
struct SubscribeBody {
    /// The e-mail address.
    #[schemars(required, length(max = 254), pattern(EMAIL_PATTERN))]
    email: Option<String>,
}

/// `POST /api/user/subscribe` with `{email}`: subscribing twice is fine.
async fn post_subscribe(
    State(state): State<AppState>,
    Body(body): Body<SubscribeBody>,
) -> ApiResult<Json<MessageResponse>> {
    let email = body.email.unwrap_or_default().trim().to_lowercase();
    if !validate::email(&email) {
        return Err(ApiError::invalid(
            "email",
            "That e-mail address does not look right.",
        ));
    }
    newsletter::subscribe(&state.pool, &email, clock::now_unix()).await?;
    Ok(Json(MessageResponse::new(
        "You are subscribed to our newsletter.",
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_by_id_are_an_object_in_the_given_order_or_an_empty_list() {
        let rows = ById(vec![(19, "b"), (5, "a")]);
        assert_eq!(
            serde_json::to_string(&rows).unwrap(),
            r#"{"19":"b","5":"a"}"#
        );
        assert_eq!(
            serde_json::to_string(&ById::<&str>(Vec::new())).unwrap(),
            "[]"
        );
        assert_eq!(serde_json::to_string(&OrEmpty(Some(1))).unwrap(), "1");
        assert_eq!(serde_json::to_string(&OrEmpty::<i64>(None)).unwrap(), "[]");
    }
}
