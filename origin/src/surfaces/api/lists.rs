//! The compare list (`/api/common/compare`, `add-to-compare`,
//! `remove-compare`; guests by SELF-TOKEN, at most five products) and the
//! wishlist (`/api/user/wishlist`, `add-to-wishlist`, `remove-wishlist`;
//! signed-in shoppers). Each product is on a list once.

use axum::extract::State;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::clock;

use crate::domain::identity::Owner;
use crate::domain::identity::{Caller, SignedIn};
use crate::domain::lists::{self, List};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Query;
use crate::plumbing::params::{Int, MAX_ID};
use crate::state::AppState;
use crate::surfaces::api::answers::SuccessResponse;
use crate::surfaces::api::doc::{ApiRouter, Doc};

pub use crate::domain::lists::ListedAttribute;

/// Routes merged into `/api/common`.
pub fn compare_router() -> ApiRouter {
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
                .answers(404, "No such product")
                .answers(409, "The compare list is full"),
        )
        .get(
            "/remove-compare",
            get_remove_compare,
            Doc::visitor("Removes a product from the compare list")
                .answers(404, "No such product, or not on the list"),
        )
}

/// Routes nested under `/api/user`.
pub fn wishlist_router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/wishlist",
            get_wishlist,
            Doc::signed_in("The wishlist, newest first: {products}"),
        )
        .get(
            "/add-to-wishlist",
            get_add_wishlist,
            Doc::signed_in("Adds a product to the wishlist").answers(404, "No such product"),
        )
        .get(
            "/remove-wishlist",
            get_remove_wishlist,
            Doc::signed_in("Removes a product from the wishlist")
                .answers(404, "No such product, or not on the list"),
        )
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

/// The parameter of the calls that add or remove one product.
#[derive(Debug, Deserialize, JsonSchema)]
struct ProductQuery {
    /// The product's id.
    #[schemars(required)]
    pid: Option<Int<1, MAX_ID>>,
}

/// The products on `owner`'s `list`, each with its attributes.
async fn products(state: &AppState, list: List, owner: &Owner) -> ApiResult<Vec<ListedProduct>> {
    let rows = lists::products(&state.pool, list, owner, clock::now_unix()).await?;
    let mut out = Vec::with_capacity(rows.len());
    for p in rows {
        let attr = lists::attributes(&state.pool, p.id).await?;
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
async fn product_param(state: &AppState, query: ProductQuery) -> ApiResult<ListedProductRef> {
    let pid = query
        .pid
        .ok_or_else(|| ApiError::invalid("pid", "pid is required"))?
        .get();
    let found = lists::active_product(&state.pool, pid).await?;
    Ok(ListedProductRef {
        id: pid,
        title: found.title,
        seo_url: found.seo_url,
    })
}

/// Puts `pid` on `owner`'s `list`.
async fn add(state: &AppState, list: List, owner: &Owner, pid: i64) -> ApiResult<bool> {
    lists::add(&state.pool, list, owner, pid, clock::now_unix()).await
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
    Query(query): Query<ProductQuery>,
) -> ApiResult<Json<ListAddResponse>> {
    let owner = caller.owner()?;
    let product = product_param(&state, query).await?;
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
    Query(query): Query<ProductQuery>,
) -> ApiResult<Json<SuccessResponse>> {
    let owner = caller.owner()?;
    let product = product_param(&state, query).await?;
    lists::remove(&state.pool, List::Compare, &owner, product.id).await?;
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
    Query(query): Query<ProductQuery>,
) -> ApiResult<Json<ListAddResponse>> {
    let product = product_param(&state, query).await?;
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
    Query(query): Query<ProductQuery>,
) -> ApiResult<Json<SuccessResponse>> {
    let product = product_param(&state, query).await?;
    lists::remove(
        &state.pool,
        List::Wishlist,
        &Owner::User(who.user.id),
        product.id,
    )
    .await?;
    Ok(Json(SuccessResponse::OK))
}
