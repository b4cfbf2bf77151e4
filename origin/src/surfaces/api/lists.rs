//! The compare list (`/api/common/compare`, `add-to-compare`,
//! `remove-compare`; guests by SELF-TOKEN, at most five products) and the
//! wishlist (`/api/user/wishlist`, `add-to-wishlist`, `remove-wishlist`;
//! signed-in shoppers). Each product is on a list once.

use axum::extract::State;
use axum::Json;
use catalog::db;
use schemars::JsonSchema;
use serde::Serialize;
use sqlx::FromRow;

use catalog::clock;
use catalog::pricing;

use crate::domain::accounts::MAX_COMPARE;
use crate::domain::identity::Owner;
use crate::domain::identity::{Caller, SignedIn};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Query;
use crate::state::AppState;
use crate::surfaces::api::answers::SuccessResponse;
use crate::surfaces::api::category::Params;
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::home::Pairs;

/// Routes merged into `/api/common`.
pub fn compare_router() -> ApiRouter {
    let pid = "The product's id";
    ApiRouter::new()
        .get(
            "/compare",
            get_compare,
            Doc::visitor("The compare list, newest first: {products}"),
        )
        .get(
            "/add-to-compare",
            get_add_compare,
            Doc::visitor("Adds a product to the compare list (at most 5)")
                .query("pid", "integer", pid)
                .answers(404, "No such product")
                .answers(409, "The compare list is full"),
        )
        .get(
            "/remove-compare",
            get_remove_compare,
            Doc::visitor("Removes a product from the compare list")
                .query("pid", "integer", pid)
                .answers(404, "No such product, or not on the list"),
        )
}

/// Routes nested under `/api/user`.
pub fn wishlist_router() -> ApiRouter {
    let pid = "The product's id";
    ApiRouter::new()
        .get(
            "/wishlist",
            get_wishlist,
            Doc::signed_in("The wishlist, newest first: {products}"),
        )
        .get(
            "/add-to-wishlist",
            get_add_wishlist,
            Doc::signed_in("Adds a product to the wishlist")
                .query("pid", "integer", pid)
                .answers(404, "No such product"),
        )
        .get(
            "/remove-wishlist",
            get_remove_wishlist,
            Doc::signed_in("Removes a product from the wishlist")
                .query("pid", "integer", pid)
                .answers(404, "No such product, or not on the list"),
        )
}

/// One of the two lists.
#[derive(Debug, Clone, Copy)]
enum List {
    Compare,
    Wishlist,
}

impl List {
    fn table(self) -> &'static str {
        match self {
            List::Compare => "compare_item",
            List::Wishlist => "wishlist_item",
        }
    }
}

/// The answer of `GET /api/common/compare` and `GET /api/user/wishlist`: the
/// list, newest first.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductListResponse {
    pub success: bool,
    pub products: Vec<ListedProduct>,
}

/// A product on the compare list or the wishlist, at its price now.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListedProduct {
    pub id: i64,
    pub title: String,
    /// The title again, under the name the original client reads.
    pub product_name: String,
    pub sub_title: String,
    pub seo_url: String,
    pub sku: String,
    pub short_description: String,
    /// The main picture, icon size; null when the product has none.
    pub image_url: Option<String>,
    /// Taka, with any discount or flash sale running now.
    pub price_now: i64,
    /// `price_now` again, under the name the original client reads.
    pub product_price_now: i64,
    /// Taka before any discount.
    pub local_selling_price: i64,
    /// The product's attributes, for comparing side by side.
    pub attr: Vec<ListedAttribute>,
}

/// One attribute of a listed product: its label and value.
#[derive(Debug, Serialize, JsonSchema, FromRow)]
pub struct ListedAttribute {
    pub field_label: String,
    pub value: String,
}

/// The answer of `GET /api/common/add-to-compare` and
/// `GET /api/user/add-to-wishlist`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListAddResponse {
    pub success: bool,
    /// False when the product was on the list already.
    pub added: bool,
    pub message: &'static str,
    pub product: ListedProductRef,
}

/// The product a list call was about.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListedProductRef {
    pub id: i64,
    pub title: String,
    pub seo_url: String,
}

#[derive(Debug, FromRow)]
struct Listed {
    id: i64,
    title: String,
    sub_title: String,
    seo_url: String,
    sku: String,
    short_description: String,
    price_before: i64,
    price_now: i64,
    image_url: Option<String>,
}

async fn products(state: &AppState, list: List, owner: &Owner) -> ApiResult<Vec<ListedProduct>> {
    let now = clock::now_unix();
    let rows: Vec<Listed> = db::query_as(&format!(
        "SELECT p.id, p.title, p.sub_title, p.seo_url, p.sku, p.short_description, p.price_before, \
         {price} AS price_now, \
         (SELECT f.icon_size_directory FROM product_image pi JOIN image_file f ON f.id = pi.image_file_id \
          WHERE pi.product_id = p.id ORDER BY pi.is_main DESC, pi.sort, pi.id LIMIT 1) AS image_url \
         FROM {table} l JOIN product p ON p.id = l.product_id \
         WHERE {owned} AND p.is_active ORDER BY l.created_at DESC, l.id DESC",
        price = pricing::effective_price_sql(now),
        table = list.table(),
        owned = owner.matches("l.", 1),
    ))
    .bind(owner.key())
    .fetch_all(&state.pool)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for p in rows {
        let attr: Vec<ListedAttribute> = db::query_as(
            "SELECT a.field_label, v.value FROM product_attribute pa \
             JOIN attribute_value v ON v.id = pa.attribute_value_id \
             JOIN attribute a ON a.id = v.attribute_id WHERE pa.product_id = $1 ORDER BY a.id, v.id",
        )
        .bind(p.id)
        .fetch_all(&state.pool)
        .await?;
        out.push(ListedProduct {
            id: p.id,
            product_name: p.title.clone(),
            title: p.title,
            sub_title: p.sub_title,
            seo_url: p.seo_url,
            sku: p.sku,
            short_description: p.short_description,
            image_url: p.image_url,
            price_now: p.price_now,
            product_price_now: p.price_now,
            local_selling_price: p.price_before,
            attr,
        });
    }
    Ok(out)
}

/// The active product the `pid` parameter names, as the answer shows it.
async fn product_param(
    state: &AppState,
    pairs: Vec<(String, String)>,
) -> ApiResult<ListedProductRef> {
    let params = Params::new(pairs)?;
    let pid = params
        .int("pid", 1, i64::MAX / 2)?
        .ok_or_else(|| ApiError::invalid("pid", "pid is required"))?;
    let found: Option<(String, String)> =
        db::query_as("SELECT title, seo_url FROM product WHERE id = $1 AND is_active")
            .bind(pid)
            .fetch_optional(&state.pool)
            .await?;
    let (title, seo_url) = found.ok_or_else(|| ApiError::not_found("Product not found"))?;
    Ok(ListedProductRef {
        id: pid,
        title,
        seo_url,
    })
}

async fn add(state: &AppState, list: List, owner: &Owner, pid: i64) -> ApiResult<bool> {
    let (owned, value) = (owner.matches("", 1), owner.key());
    let table = list.table();
    let mut tx = catalog::db::begin_write(&state.pool).await?;
    let have: Option<i64> = db::query_scalar(&format!(
        "SELECT id FROM {table} WHERE {owned} AND product_id = $2"
    ))
    .bind(&value)
    .bind(pid)
    .fetch_optional(&mut *tx)
    .await?;
    if have.is_some() {
        return Ok(false);
    }
    if let List::Compare = list {
        let count: i64 = db::query_scalar(&format!("SELECT COUNT(*) FROM {table} WHERE {owned}"))
            .bind(&value)
            .fetch_one(&mut *tx)
            .await?;
        if count >= MAX_COMPARE {
            return Err(ApiError::Conflict(format!(
                "You can compare at most {MAX_COMPARE} products. Remove one first."
            )));
        }
    }
    let now = clock::now_unix();
    let (user, token) = owner.ids();
    db::query(&format!(
        "INSERT INTO {table} (user_id, self_token, product_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)"
    ))
    .bind(user)
    .bind(token)
    .bind(pid)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

async fn remove(state: &AppState, list: List, owner: &Owner, pid: i64) -> ApiResult<()> {
    let done = db::query(&format!(
        "DELETE FROM {} WHERE {} AND product_id = $2",
        list.table(),
        owner.matches("", 1)
    ))
    .bind(owner.key())
    .bind(pid)
    .execute(&state.pool)
    .await?;
    if done.rows_affected() == 0 {
        return Err(ApiError::not_found("That product is not on your list"));
    }
    Ok(())
}

/// `GET /api/common/compare`.
async fn get_compare(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<ProductListResponse>> {
    let owner = caller.owner()?;
    let products = products(&state, List::Compare, &owner).await?;
    Ok(Json(ProductListResponse {
        success: true,
        products,
    }))
}

/// `GET /api/common/add-to-compare?pid=`.
async fn get_add_compare(
    State(state): State<AppState>,
    caller: Caller,
    Query(pairs): Pairs,
) -> ApiResult<Json<ListAddResponse>> {
    let owner = caller.owner()?;
    let product = product_param(&state, pairs).await?;
    let added = add(&state, List::Compare, &owner, product.id).await?;
    Ok(Json(ListAddResponse {
        success: true,
        added,
        message: if added {
            "Added to compare"
        } else {
            "Already on your compare list"
        },
        product,
    }))
}

/// `GET /api/common/remove-compare?pid=`.
async fn get_remove_compare(
    State(state): State<AppState>,
    caller: Caller,
    Query(pairs): Pairs,
) -> ApiResult<Json<SuccessResponse>> {
    let owner = caller.owner()?;
    let product = product_param(&state, pairs).await?;
    remove(&state, List::Compare, &owner, product.id).await?;
    Ok(Json(SuccessResponse::OK))
}

/// `GET /api/user/wishlist`.
async fn get_wishlist(
    State(state): State<AppState>,
    who: SignedIn,
) -> ApiResult<Json<ProductListResponse>> {
    let products = products(&state, List::Wishlist, &Owner::User(who.user.id)).await?;
    Ok(Json(ProductListResponse {
        success: true,
        products,
    }))
}

/// `GET /api/user/add-to-wishlist?pid=`.
async fn get_add_wishlist(
    State(state): State<AppState>,
    who: SignedIn,
    Query(pairs): Pairs,
) -> ApiResult<Json<ListAddResponse>> {
    let product = product_param(&state, pairs).await?;
    let added = add(
        &state,
        List::Wishlist,
        &Owner::User(who.user.id),
        product.id,
    )
    .await?;
    Ok(Json(ListAddResponse {
        success: true,
        added,
        message: if added {
            "Added to your wishlist"
        } else {
            "Already on your wishlist"
        },
        product,
    }))
}

/// `GET /api/user/remove-wishlist?pid=`.
async fn get_remove_wishlist(
    State(state): State<AppState>,
    who: SignedIn,
    Query(pairs): Pairs,
) -> ApiResult<Json<SuccessResponse>> {
    let product = product_param(&state, pairs).await?;
    remove(
        &state,
        List::Wishlist,
        &Owner::User(who.user.id),
        product.id,
    )
    .await?;
    Ok(Json(SuccessResponse::OK))
}
