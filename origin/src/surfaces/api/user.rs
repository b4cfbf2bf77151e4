//! The account calls of SPEC.md §7 "User" (besides the wishlist, in
//! `lists`): profile, password, address book with default billing and
//! shipping addresses, own orders and reviews, and the newsletter. Every call
//! but `subscribe` needs a signed-in shopper and touches only their rows: an
//! id of someone else's address is answered like an unknown one (404).

use axum::extract::State;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use sqlx::FromRow;

use catalog::clock;
use catalog::db::{self, begin_write};

use crate::domain::accounts;
use crate::domain::cart;
use crate::domain::identity::SignedIn;
use crate::domain::orders;
use crate::domain::orders::{OrderHead, OrderLine};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{Json as Body, Query};
use crate::plumbing::validate;
use crate::plumbing::validate::check_new_password;
use crate::state::AppState;
use crate::surfaces::api::answers::{ById, MessageResponse, OrEmpty, SuccessResponse, UserProfile};
use crate::surfaces::api::category::Params;
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::home::Pairs;

/// Most saved addresses per shopper.
pub const MAX_ADDRESSES: i64 = 20;
/// Orders per page of `user/orders`.
pub const ORDERS_PER_PAGE: i64 = 20;

/// Routes under `/api/user` (merged with the wishlist's).
pub fn router() -> ApiRouter {
    let address = |d: Doc| {
        d.query("name", "string", "Who receives, 3-100 characters")
            .query("phone", "string", "11-digit mobile")
            .query("address", "string", "5-500 characters")
            .query("district", "string", "One of the 64 districts")
            .query_opt(
                "region",
                "string",
                "Division (taken from the district when absent)",
            )
            .query_opt("thana", "string", "Thana or upazila")
    };
    let kind = "billing or shipping";
    ApiRouter::new()
        .post(
            "/user-update",
            post_user_update,
            Doc::signed_in("Updates the profile; only these fields change")
                .answers(409, "Another account uses that e-mail or mobile number"),
        )
        .post(
            "/change-password",
            post_change_password,
            Doc::signed_in("Changes the password; every other session is signed out"),
        )
        .get(
            "/address-list",
            get_addresses,
            Doc::signed_in("Saved addresses by id: {addresses, default_billing, default_shipping}"),
        )
        .get(
            "/address-store",
            get_address_store,
            address(Doc::signed_in("Saves a new address (at most 20)"))
                .answers(409, "The address book is full"),
        )
        .get(
            "/address-update",
            get_address_update,
            address(Doc::signed_in("Changes one of the shopper's addresses"))
                .query("id", "integer", "The address's id")
                .answers(404, "No such address of the shopper's"),
        )
        .get(
            "/get-default-address",
            get_default_address,
            Doc::signed_in("The default address of a type: {address}")
                .query("type", "string", kind),
        )
        .get(
            "/set-default-address",
            get_set_default_address,
            Doc::signed_in("Makes one of the shopper's addresses the default of a type")
                .query("type", "string", kind)
                .query("id", "integer", "The address's id")
                .answers(404, "No such address of the shopper's"),
        )
        .get(
            "/orders",
            get_orders,
            Doc::signed_in("The shopper's orders, newest first, 20 a page: {orders, total}")
                .query_opt("page", "integer", "Page number (default 1)"),
        )
        .get(
            "/reviews",
            get_reviews,
            Doc::signed_in("The shopper's reviews by id: {reviews}"),
        )
        .post(
            "/review-store",
            post_review_store,
            Doc::signed_in("Reviews a product from a delivered order (one per product)")
                .answers(403, "The product was not delivered to the shopper")
                .answers(409, "The shopper has reviewed it already"),
        )
        .post(
            "/subscribe",
            post_subscribe,
            Doc::public("Subscribes an e-mail to the newsletter (again is fine)"),
        )
}

/// A profile: every field is set to what is sent (empty clears it).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct ProfileBody {
    /// 2-100 characters.
    name: String,
    /// E-mail (keep this or phone).
    email: String,
    /// 11-digit mobile.
    phone: String,
    /// Another mobile (also read as `emergency_mobile`).
    #[serde(alias = "emergency_mobile")]
    emergency_phone: String,
    /// YYYY-MM-DD.
    birthday: String,
    /// male, female or other.
    gender: String,
    /// Home district.
    district: String,
    /// 4 digits.
    postcode: String,
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
    who: SignedIn,
    Body(body): Body<ProfileBody>,
) -> ApiResult<Json<UserUpdateResponse>> {
    let mut errors = Map::new();
    let name = validate::text(&body.name, 2, 100);
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
    let birthday = body.birthday.trim();
    if !birthday.is_empty() {
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
    let gender = body.gender.trim().to_lowercase();
    if !["", "male", "female", "other"].contains(&gender.as_str()) {
        bad(&mut errors, "gender", "Choose male, female or other.");
    }
    let postcode = body.postcode.trim();
    let postcode_ok = postcode.is_empty()
        || (postcode.len() == 4 && postcode.bytes().all(|b| b.is_ascii_digit()));
    if !postcode_ok {
        bad(&mut errors, "postcode", "A postcode is 4 digits.");
    }
    let district = validate::text(&body.district, 0, 100);
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
    let mut tx = begin_write(&state.pool).await?;
    let taken: Option<i64> = db::query_scalar(
        "SELECT id FROM app_user WHERE id <> $1 AND ((email IS NOT NULL AND email = $2) OR (phone IS NOT NULL AND phone = $3))",
    )
    .bind(who.user.id)
    .bind(none_if_empty(&email))
    .bind(&phone)
    .fetch_optional(&mut *tx)
    .await?;
    if taken.is_some() {
        return Err(ApiError::Conflict(
            "Another account uses that e-mail or mobile number.".into(),
        ));
    }
    db::query(
        "UPDATE app_user SET name = $1, email = $2, phone = $3, emergency_phone = $4, birthday = $5, \
         gender = $6, district = $7, postcode = $8, updated_at = $9 WHERE id = $10",
    )
    .bind(name)
    .bind(none_if_empty(&email))
    .bind(&phone)
    .bind(&emergency)
    .bind(none_if_empty(birthday))
    .bind(none_if_empty(&gender))
    .bind(district.and_then(|d| none_if_empty(&d)))
    .bind(none_if_empty(postcode))
    .bind(clock::now_unix())
    .bind(who.user.id)
    .execute(&mut *tx)
    .await?;
    let user = accounts::user(&mut tx, who.user.id)
        .await?
        .ok_or_else(ApiError::unauthenticated)?;
    tx.commit().await?;
    Ok(Json(UserUpdateResponse {
        success: true,
        message: "Your profile has been updated.",
        user: user.into(),
    }))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct PasswordBody {
    /// The current password.
    old_password: String,
    /// The new password, 8-128 characters.
    password: String,
    /// The new password again.
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
    who: SignedIn,
    Body(body): Body<PasswordBody>,
) -> ApiResult<Json<ChangePasswordResponse>> {
    let mut errors = Map::new();
    if body.old_password.is_empty() {
        bad(&mut errors, "old_password", "Enter your current password.");
    }
    check_new_password(
        &body.password,
        Some(body.password_confirmation.as_deref().unwrap_or_default()),
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let phc: Option<String> = db::query_scalar("SELECT password_hash FROM app_user WHERE id = $1")
        .bind(who.user.id)
        .fetch_one(&state.pool)
        .await?;
    let old = body.old_password.clone();
    let new = body.password.clone();
    // The new hash is made only when the old password is right.
    let hash = tokio::task::spawn_blocking(move || {
        phc.is_some_and(|phc| catalog::password::verify(&old, &phc))
            .then(|| catalog::password::hash(&new))
    })
    .await
    .map_err(|e| ApiError::Internal(anyhow::anyhow!("password task: {e}")))?;
    let Some(hash) = hash else {
        return Err(ApiError::invalid(
            "old_password",
            "Your current password is not right.",
        ));
    };
    let hash = hash.map_err(ApiError::Internal)?;
    let now = clock::now_unix();
    let mut tx = begin_write(&state.pool).await?;
    db::query("UPDATE app_user SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(hash)
        .bind(now)
        .bind(who.user.id)
        .execute(&mut *tx)
        .await?;
    let others = db::query(
        "UPDATE auth_token SET revoked_at = $1, updated_at = $1 \
         WHERE user_id = $2 AND id <> $3 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(who.user.id)
    .bind(who.user.token_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(ChangePasswordResponse {
        success: true,
        message: "Your password has been changed.",
        signed_out_sessions: others.rows_affected(),
    }))
}

/// A saved address.
#[derive(Debug, Clone, FromRow, Serialize, JsonSchema)]
pub struct Address {
    pub id: i64,
    /// Who receives.
    pub name: String,
    pub phone: String,
    pub address: String,
    /// The division.
    pub region: String,
    pub district: String,
    pub thana: String,
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

const ADDRESS_COLUMNS: &str = "id, name, phone, address, region, district, thana";

async fn own_address(state: &AppState, user: i64, id: i64) -> ApiResult<Address> {
    let found: Option<Address> = db::query_as(&format!(
        "SELECT {ADDRESS_COLUMNS} FROM address WHERE id = $1 AND user_id = $2"
    ))
    .bind(id)
    .bind(user)
    .fetch_optional(&state.pool)
    .await?;
    found.ok_or_else(|| ApiError::not_found("Address not found"))
}

/// `GET /api/user/address-list`.
async fn get_addresses(
    State(state): State<AppState>,
    who: SignedIn,
) -> ApiResult<Json<AddressListResponse>> {
    let rows: Vec<Address> = db::query_as(&format!(
        "SELECT {ADDRESS_COLUMNS} FROM address WHERE user_id = $1 ORDER BY id"
    ))
    .bind(who.user.id)
    .fetch_all(&state.pool)
    .await?;
    let (billing, shipping): (Option<i64>, Option<i64>) = db::query_as(
        "SELECT default_billing_address_id, default_shipping_address_id FROM app_user WHERE id = $1",
    )
    .bind(who.user.id)
    .fetch_one(&state.pool)
    .await?;
    Ok(Json(AddressListResponse {
        success: true,
        addresses: ById(rows.into_iter().map(|a| (a.id, a)).collect()),
        default_billing: billing,
        default_shipping: shipping,
    }))
}

/// A checked address from query parameters.
struct NewAddress {
    name: String,
    phone: String,
    address: String,
    region: String,
    district: String,
    thana: String,
}

async fn address_params(state: &AppState, params: &Params) -> ApiResult<NewAddress> {
    let mut errors = Map::new();
    let get = |name: &str| params.get(name).unwrap_or_default();
    let name = validate::text(get("name"), 3, 100);
    if name.is_none() {
        bad(&mut errors, "name", "A name is 3 to 100 characters.");
    }
    let phone = validate::bd_mobile(get("phone"));
    if phone.is_none() {
        bad(
            &mut errors,
            "phone",
            "A mobile number is 11 digits: 01XXXXXXXXX.",
        );
    }
    let address = validate::text(get("address"), 5, 500);
    if address.is_none() {
        bad(
            &mut errors,
            "address",
            "The address is 5 to 500 characters.",
        );
    }
    let thana = validate::text(get("thana"), 0, 100);
    if thana.is_none() {
        bad(&mut errors, "thana", "The thana is at most 100 characters.");
    }
    let mut conn = state.pool.acquire().await?;
    let district = cart::district(&mut conn, get("district")).await?;
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
    Query(pairs): Pairs,
) -> ApiResult<Json<AddressStoreResponse>> {
    let params = Params::new(pairs)?;
    let a = address_params(&state, &params).await?;
    let mut tx = begin_write(&state.pool).await?;
    let count: i64 = db::query_scalar("SELECT COUNT(*) FROM address WHERE user_id = $1")
        .bind(who.user.id)
        .fetch_one(&mut *tx)
        .await?;
    if count >= MAX_ADDRESSES {
        return Err(ApiError::Conflict(format!(
            "An address book holds at most {MAX_ADDRESSES} addresses."
        )));
    }
    let now = clock::now_unix();
    let id: i64 = db::query_scalar(
        "INSERT INTO address (user_id, name, phone, address, region, district, thana, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id",
    )
    .bind(who.user.id)
    .bind(&a.name)
    .bind(&a.phone)
    .bind(&a.address)
    .bind(&a.region)
    .bind(&a.district)
    .bind(&a.thana)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    // The first address becomes both defaults.
    db::query(
        "UPDATE app_user SET default_billing_address_id = COALESCE(default_billing_address_id, $1), \
         default_shipping_address_id = COALESCE(default_shipping_address_id, $1) WHERE id = $2",
    )
    .bind(id)
    .bind(who.user.id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
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
    Query(pairs): Pairs,
) -> ApiResult<Json<MessageResponse>> {
    let params = Params::new(pairs)?;
    let id = params
        .int("id", 1, i64::MAX / 2)?
        .ok_or_else(|| ApiError::invalid("id", "id is required"))?;
    own_address(&state, who.user.id, id).await?;
    let a = address_params(&state, &params).await?;
    db::query(
        "UPDATE address SET name = $1, phone = $2, address = $3, region = $4, district = $5, thana = $6, \
         updated_at = $7 WHERE id = $8 AND user_id = $9",
    )
    .bind(&a.name)
    .bind(&a.phone)
    .bind(&a.address)
    .bind(&a.region)
    .bind(&a.district)
    .bind(&a.thana)
    .bind(clock::now_unix())
    .bind(id)
    .bind(who.user.id)
    .execute(&state.pool)
    .await?;
    Ok(Json(MessageResponse::new("Address updated")))
}

/// The `type` parameter: the user column holding that default.
fn default_column(params: &Params) -> ApiResult<&'static str> {
    match params.required("type")? {
        "billing" => Ok("default_billing_address_id"),
        "shipping" => Ok("default_shipping_address_id"),
        _ => Err(ApiError::invalid("type", "type is billing or shipping")),
    }
}

/// `GET /api/user/get-default-address?type=`: `{address}` (`[]` when none).
async fn get_default_address(
    State(state): State<AppState>,
    who: SignedIn,
    Query(pairs): Pairs,
) -> ApiResult<Json<DefaultAddressResponse>> {
    let params = Params::new(pairs)?;
    let column = default_column(&params)?;
    let found: Option<Address> = db::query_as(&format!(
        "SELECT a.id, a.name, a.phone, a.address, a.region, a.district, a.thana FROM app_user u \
         JOIN address a ON a.id = u.{column} AND a.user_id = u.id WHERE u.id = $1"
    ))
    .bind(who.user.id)
    .fetch_optional(&state.pool)
    .await?;
    Ok(Json(DefaultAddressResponse {
        success: true,
        address: OrEmpty(found),
    }))
}

/// `GET /api/user/set-default-address?type=&id=`.
async fn get_set_default_address(
    State(state): State<AppState>,
    who: SignedIn,
    Query(pairs): Pairs,
) -> ApiResult<Json<SuccessResponse>> {
    let params = Params::new(pairs)?;
    let column = default_column(&params)?;
    let id = params
        .int("id", 1, i64::MAX / 2)?
        .ok_or_else(|| ApiError::invalid("id", "id is required"))?;
    own_address(&state, who.user.id, id).await?;
    db::query(&format!("UPDATE app_user SET {column} = $1 WHERE id = $2"))
        .bind(id)
        .bind(who.user.id)
        .execute(&state.pool)
        .await?;
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

/// `GET /api/user/orders?page=`: own orders, newest first.
async fn get_orders(
    State(state): State<AppState>,
    who: SignedIn,
    Query(pairs): Pairs,
) -> ApiResult<Json<OrdersResponse>> {
    let params = Params::new(pairs)?;
    let page = params.int("page", 1, 10_000)?.unwrap_or(1);
    let total: i64 = db::query_scalar("SELECT COUNT(*) FROM order_master WHERE user_id = $1")
        .bind(who.user.id)
        .fetch_one(&state.pool)
        .await?;
    let ids: Vec<(i64, String)> = db::query_as(
        "SELECT id, order_key FROM order_master WHERE user_id = $1 \
         ORDER BY ordered_at DESC, id DESC LIMIT $2 OFFSET $3",
    )
    .bind(who.user.id)
    .bind(ORDERS_PER_PAGE)
    .bind((page - 1) * ORDERS_PER_PAGE)
    .fetch_all(&state.pool)
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

#[derive(Debug, FromRow)]
struct ReviewRow {
    id: i64,
    product_id: i64,
    title: String,
    rating: i64,
    comment: String,
    is_active: bool,
    created_at: i64,
    seo_url: String,
    sub_title: String,
    sku: String,
}

/// The answer of `GET /api/user/reviews`: the shopper's reviews, newest first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewsResponse {
    pub success: bool,
    pub reviews: ById<AccountReview>,
}

/// One of the shopper's reviews.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AccountReview {
    pub id: i64,
    pub product: ReviewedProduct,
    /// 1-5 stars.
    pub rating: i64,
    pub comment: String,
    /// False until the shop has checked it.
    pub is_active: bool,
    /// Dhaka time, `01 October 2026`.
    pub created_at: String,
}

/// The product a review is about.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewedProduct {
    pub id: i64,
    pub title: String,
    pub seo_url: String,
    pub sub_title: String,
    pub sku: String,
}

/// `GET /api/user/reviews`: `{reviews: {<id>: {...}}}`.
async fn get_reviews(
    State(state): State<AppState>,
    who: SignedIn,
) -> ApiResult<Json<ReviewsResponse>> {
    let rows: Vec<ReviewRow> = db::query_as(
        "SELECT r.id, p.id AS product_id, p.title, r.rating, r.comment, r.is_active, r.created_at, p.seo_url, \
             p.sub_title, p.sku FROM review r JOIN product p ON p.id = r.product_id \
             WHERE r.user_id = $1 ORDER BY r.created_at DESC, r.id DESC",
    )
    .bind(who.user.id)
    .fetch_all(&state.pool)
    .await?;
    let reviews = rows
        .into_iter()
        .map(|r| {
            let review = AccountReview {
                id: r.id,
                product: ReviewedProduct {
                    id: r.product_id,
                    title: r.title,
                    seo_url: r.seo_url,
                    sub_title: r.sub_title,
                    sku: r.sku,
                },
                rating: r.rating,
                comment: r.comment,
                is_active: r.is_active,
                created_at: clock::in_dhaka(r.created_at).format("%d %B %Y").to_string(),
            };
            (r.id, review)
        })
        .collect();
    Ok(Json(ReviewsResponse {
        success: true,
        reviews: ById(reviews),
    }))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct ReviewBody {
    /// The product's id (also read as `pid`).
    #[serde(alias = "pid")]
    product_id: i64,
    /// 1-5 stars.
    rating: i64,
    /// 10-2000 characters.
    comment: String,
}

/// `POST /api/user/review-store`: only for a product of one of the shopper's
/// delivered orders, once per product.
async fn post_review_store(
    State(state): State<AppState>,
    who: SignedIn,
    Body(body): Body<ReviewBody>,
) -> ApiResult<Json<MessageResponse>> {
    let mut errors = Map::new();
    if !(1..=5).contains(&body.rating) {
        bad(&mut errors, "rating", "A rating is 1 to 5 stars.");
    }
    let comment = validate::text(&body.comment, 10, 2000);
    if comment.is_none() {
        bad(&mut errors, "comment", "A review is 10 to 2000 characters.");
    }
    if body.product_id <= 0 {
        bad(&mut errors, "product_id", "product_id is required");
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let mut tx = begin_write(&state.pool).await?;
    let detail: Option<i64> = db::query_scalar(
        "SELECT d.id FROM order_detail d JOIN order_master o ON o.id = d.order_id \
         WHERE o.user_id = $1 AND d.product_id = $2 AND o.order_status = 'delivered' \
         ORDER BY d.id DESC LIMIT 1",
    )
    .bind(who.user.id)
    .bind(body.product_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(detail) = detail else {
        return Err(ApiError::Forbidden(
            "You can review a product once it has been delivered to you.".into(),
        ));
    };
    let now = clock::now_unix();
    let inserted = db::query(
        "INSERT INTO review (product_id, user_id, order_detail_id, rating, comment, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (user_id, product_id) DO NOTHING",
    )
    .bind(body.product_id)
    .bind(who.user.id)
    .bind(detail)
    .bind(body.rating)
    .bind(comment)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    if inserted.rows_affected() == 0 {
        return Err(ApiError::Conflict(
            "You have already reviewed this product.".into(),
        ));
    }
    tx.commit().await?;
    Ok(Json(MessageResponse::new("Thank you for your review.")))
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct SubscribeBody {
    /// The e-mail address.
    email: String,
}

/// `POST /api/user/subscribe` with `{email}`: subscribing twice is fine.
async fn post_subscribe(
    State(state): State<AppState>,
    Body(body): Body<SubscribeBody>,
) -> ApiResult<Json<MessageResponse>> {
    let email = body.email.trim().to_lowercase();
    if !validate::email(&email) {
        return Err(ApiError::invalid(
            "email",
            "That e-mail address does not look right.",
        ));
    }
    let now = clock::now_unix();
    db::query(
        "INSERT INTO newsletter_subscriber (email, created_at, updated_at) VALUES ($1, $2, $2) \
         ON CONFLICT (email) DO NOTHING",
    )
    .bind(&email)
    .bind(now)
    .execute(&state.pool)
    .await?;
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
