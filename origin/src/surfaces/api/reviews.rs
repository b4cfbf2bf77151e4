//! Product reviews (SPEC.md §7 "User" and "Product"): a signed-in shopper
//! reviews what was delivered to them, once per product, and may edit their
//! review; a new or edited review waits unpublished until the shop has
//! checked it. Merged into `/api/user` ([`user_router`]: `reviews`,
//! `reviewable`, `review-store`, `review-update`) and `/api/product`
//! ([`product_router`]: `single-product-review/{id}`, the published reviews
//! as the original shop answered them, reviewers named by first name only).

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use aide::generate::GenContext;
use aide::openapi::Operation;
use aide::operation::{add_parameters, parameters_from_schema, ParamLocation};
use aide::OperationInput;

use catalog::clock;
use catalog::read::site::reviewer_name;
use catalog::surrogate::SurrogateKey;

use crate::domain::identity::SignedIn;
use crate::domain::reviews::{self, NewReview, ReviewEdit};
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{early_errors, ApiError, ApiResult, INVALID_INPUT};
use crate::plumbing::extract::{Json as Body, Query};
use crate::plumbing::params::{blank_is_none, Int, Whole, MAX_ID, MAX_WHOLE};
use crate::plumbing::validate;
use crate::state::AppState;
use crate::surfaces::api::answers::{ById, MessageResponse};
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Shortest review, characters.
pub const REVIEW_MIN_LEN: usize = 10;
/// Longest review, characters.
pub const REVIEW_MAX_LEN: usize = 2000;
/// Reviews answered by `single-product-review` without `paginate`.
pub const DEFAULT_REVIEWS: i64 = 5;
/// Most reviews answered at once: a larger `paginate` is capped to it.
pub const MAX_REVIEWS: i64 = 50;

/// Routes merged into `/api/user`.
pub fn user_router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/reviews",
            get_reviews,
            Doc::signed_in("The shopper's reviews by id: {reviews}"),
        )
        .get(
            "/reviewable",
            get_reviewable,
            Doc::signed_in(
                "Every product of the shopper's delivered orders, each with their review of it if any: {products}",
            ),
        )
        .post(
            "/review-store",
            post_review_store,
            Doc::signed_in(
                "Reviews a product from a delivered order (one per product); shown once checked",
            )
            .answers(403, "The product was not delivered to the shopper")
            .answers(409, "The shopper has reviewed it already"),
        )
        .post(
            "/review-update",
            post_review_update,
            Doc::signed_in("Changes one of the shopper's reviews; hidden again until checked")
                .answers(404, "No such review of the shopper's"),
        )
}

/// Routes merged into `/api/product`.
pub fn product_router() -> ApiRouter {
    let doc = |summary| Doc::public(summary).answers(404, "No active product has this id");
    ApiRouter::new()
        .post(
            "/single-product-review/{id}",
            post_product_reviews,
            doc("A product's newest published reviews: {status, data, count, average_rating}"),
        )
        .get(
            "/single-product-review/{id}",
            get_product_reviews,
            doc("The same as the POST, with `paginate` in the query"),
        )
}

fn bad(errors: &mut Map<String, Value>, field: &str, message: &str) {
    errors.insert(field.to_string(), json!([message]));
}

/// Dhaka date, `01 October 2026` (the original's `d F Y`).
fn long_date(unix: i64) -> String {
    clock::in_dhaka(unix).format("%d %B %Y").to_string()
}

/// Dhaka date, `2026-10-01`.
fn iso_date(unix: i64) -> String {
    clock::in_dhaka(unix).format("%Y-%m-%d").to_string()
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
    let rows = reviews::of_user(&state.pool, who.user.id).await?;
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
                created_at: long_date(r.created_at),
            };
            (r.id, review)
        })
        .collect();
    Ok(Json(ReviewsResponse {
        success: true,
        reviews: ById(reviews),
    }))
}

/// The answer of `GET /api/user/reviewable`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewableResponse {
    pub success: bool,
    /// The most recently ordered first; empty before any delivery.
    pub products: Vec<ReviewableProduct>,
}

/// A product delivered to the shopper.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ReviewableProduct {
    /// The product's id.
    pub id: i64,
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    /// Whether the product is still sold (its page exists).
    pub on_sale: bool,
    /// The main picture, icon size (a path under `/storage`).
    pub image_url: Option<String>,
    /// The shopper's review of it, null when they have not written one.
    pub review: Option<OwnReview>,
}

/// Where a review stands.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ReviewState {
    /// Written or edited, waiting for the shop to check it.
    AwaitingCheck,
    /// Shown on the product's page.
    Published,
}

/// The shopper's own review of a product.
#[derive(Debug, Serialize, JsonSchema)]
pub struct OwnReview {
    pub id: i64,
    /// 1-5 stars.
    pub rating: i64,
    pub comment: String,
    pub state: ReviewState,
    /// When it was written or last edited, Dhaka time, `01 October 2026`.
    pub updated_at: String,
}

/// `GET /api/user/reviewable`: `{products: [{id, title, ..., review}]}`.
async fn get_reviewable(
    State(state): State<AppState>,
    who: SignedIn,
) -> ApiResult<Json<ReviewableResponse>> {
    let rows = reviews::reviewable(&state.pool, who.user.id).await?;
    let products = rows
        .into_iter()
        .map(|r| {
            let review = match (r.review_id, r.rating, r.comment) {
                (Some(id), Some(rating), Some(comment)) => Some(OwnReview {
                    id,
                    rating,
                    comment,
                    state: if r.review_active.unwrap_or(false) {
                        ReviewState::Published
                    } else {
                        ReviewState::AwaitingCheck
                    },
                    updated_at: long_date(r.reviewed_at.unwrap_or_default()),
                }),
                _ => None,
            };
            ReviewableProduct {
                id: r.product_id,
                title: r.title,
                sub_title: r.sub_title,
                seo_url: r.seo_url,
                on_sale: r.product_active,
                image_url: r.image_url,
                review,
            }
        })
        .collect();
    Ok(Json(ReviewableResponse {
        success: true,
        products,
    }))
}

/// A review of a delivered product.
#[derive(Debug, Deserialize, JsonSchema)]
struct ReviewBody {
    /// The product's id (also read as `pid`).
    #[serde(alias = "pid")]
    #[schemars(required, range(min = 1, max = MAX_WHOLE))]
    product_id: Option<Whole>,
    /// 1-5 stars.
    #[schemars(required, range(min = 1, max = 5))]
    rating: Option<Whole>,
    /// 10-2000 characters.
    #[schemars(required, length(min = 10, max = 2000), pattern(r"\S"))]
    comment: Option<String>,
}

/// The stars and text sent, checked: both errors at once.
fn check_review(
    rating: Option<Whole>,
    comment: Option<&str>,
    errors: &mut Map<String, Value>,
) -> (i64, String) {
    let rating = rating.map_or(0, |r| r.0);
    if !(1..=5).contains(&rating) {
        bad(errors, "rating", "A rating is 1 to 5 stars.");
    }
    let comment = validate::text(comment.unwrap_or_default(), REVIEW_MIN_LEN, REVIEW_MAX_LEN);
    if comment.is_none() {
        bad(errors, "comment", "A review is 10 to 2000 characters.");
    }
    (rating, comment.unwrap_or_default())
}

/// `POST /api/user/review-store`: only for a product of one of the shopper's
/// delivered orders, once per product.
async fn post_review_store(
    State(state): State<AppState>,
    who: SignedIn,
    Body(body): Body<ReviewBody>,
) -> ApiResult<Json<MessageResponse>> {
    let mut errors = Map::new();
    let (rating, comment) = check_review(body.rating, body.comment.as_deref(), &mut errors);
    let product_id = body.product_id.map_or(0, |p| p.0);
    if product_id <= 0 {
        bad(&mut errors, "product_id", "product_id is required");
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let review = NewReview {
        product_id,
        rating,
        comment,
    };
    reviews::store(&state.pool, who.user.id, &review, clock::now_unix()).await?;
    Ok(Json(MessageResponse::new(
        "Thank you for your review. It will appear once the shop has checked it.",
    )))
}

/// A changed review.
#[derive(Debug, Deserialize, JsonSchema)]
struct ReviewUpdateBody {
    /// The review's id (one of the shopper's).
    #[schemars(required, range(min = 1, max = MAX_WHOLE))]
    id: Option<Whole>,
    /// 1-5 stars.
    #[schemars(required, range(min = 1, max = 5))]
    rating: Option<Whole>,
    /// 10-2000 characters.
    #[schemars(required, length(min = 10, max = 2000), pattern(r"\S"))]
    comment: Option<String>,
}

/// `POST /api/user/review-update`: the author's own review only (another's
/// is answered like an unknown one, 404); it is hidden again until checked.
async fn post_review_update(
    State(state): State<AppState>,
    who: SignedIn,
    Body(body): Body<ReviewUpdateBody>,
) -> ApiResult<Json<MessageResponse>> {
    let mut errors = Map::new();
    let (rating, comment) = check_review(body.rating, body.comment.as_deref(), &mut errors);
    let id = body.id.map_or(0, |p| p.0);
    if id <= 0 {
        bad(&mut errors, "id", "id is required");
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let edit = ReviewEdit {
        id,
        rating,
        comment,
    };
    reviews::update(&state.pool, who.user.id, &edit, clock::now_unix()).await?;
    Ok(Json(MessageResponse::new(
        "Your review is changed. It will appear again once the shop has checked it.",
    )))
}

/// The product's id in the path of `single-product-review/{id}`: a JSON 400
/// when it is not a positive whole number.
#[derive(Debug, Clone, Copy)]
struct ProductId(i64);

/// The documented path parameter.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct ProductIdPath {
    /// The product's id.
    #[schemars(range(min = 1, max = MAX_ID))]
    id: i64,
}

impl<S: Send + Sync> FromRequestParts<S> for ProductId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let raw = axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map(|p| p.0)
            .unwrap_or_default();
        match raw.trim().parse::<i64>() {
            Ok(id) if (1..=MAX_ID).contains(&id) => Ok(ProductId(id)),
            _ => Err(ApiError::invalid("id", "id must be a product's id")),
        }
    }
}

impl OperationInput for ProductId {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let schema = ctx.schema.subschema_for::<ProductIdPath>();
        let params = parameters_from_schema(ctx, schema, ParamLocation::Path);
        add_parameters(ctx, operation, params);
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, aide::openapi::Response)> {
        early_errors(ctx, &[INVALID_INPUT])
    }
}

/// The body of `POST /api/product/single-product-review/{id}`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
struct ProductReviewsBody {
    /// The product's id again (the original client sends it; the path's wins).
    #[serde(default)]
    #[schemars(range(min = 1, max = MAX_WHOLE))]
    product_id: Option<Whole>,
    /// How many reviews to answer (default 5, at most 50; "load more" asks
    /// for more).
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    paginate: Option<Whole>,
}

/// The query of `GET /api/product/single-product-review/{id}`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ProductReviewsQuery {
    /// How many reviews to answer (default 5, at most 50).
    #[serde(default, deserialize_with = "blank_is_none")]
    paginate: Option<Int<1, 1000>>,
}

/// The answer of `single-product-review/{id}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductReviewsResponse {
    /// Always 1 (the original's success flag).
    pub status: i64,
    /// The newest published reviews.
    pub data: Vec<PublicReview>,
    /// How many published reviews the product has.
    pub count: i64,
    /// Their average rating, one decimal (0 when none).
    pub average_rating: f64,
}

/// A published review as anyone may see it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PublicReview {
    pub id: i64,
    pub product_id: i64,
    /// 1-5 stars.
    pub rating: i64,
    pub comment: String,
    /// Dhaka date, `01 October 2026`.
    pub created_at: String,
    /// Dhaka date, `2026-10-01`.
    pub date: String,
    pub user: Reviewer,
}

/// Who wrote a review: the first name only, never an e-mail or mobile.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Reviewer {
    pub name: String,
}

async fn product_reviews(
    state: &AppState,
    product: i64,
    paginate: Option<i64>,
) -> ApiResult<Shared<ProductReviewsResponse>> {
    if !reviews::product_is_active(&state.pool, product).await? {
        return Err(ApiError::not_found("Product not found"));
    }
    let limit = paginate.unwrap_or(DEFAULT_REVIEWS).clamp(1, MAX_REVIEWS);
    let (rows, count, average_x100) = reviews::published(&state.pool, product, limit).await?;
    let data = rows
        .into_iter()
        .map(|r| PublicReview {
            id: r.id,
            product_id: r.product_id,
            rating: r.rating,
            comment: r.comment,
            created_at: long_date(r.created_at),
            date: iso_date(r.created_at),
            user: Reviewer {
                name: reviewer_name(&r.user_name),
            },
        })
        .collect();
    Ok(Shared::new(
        ProductReviewsResponse {
            status: 1,
            data,
            count,
            average_rating: (average_x100 as f64 / 10.0).round() / 10.0,
        },
        [SurrogateKey::Product(product)],
    ))
}

/// `POST /api/product/single-product-review/{id}` with `{product_id, paginate}`.
async fn post_product_reviews(
    State(state): State<AppState>,
    ProductId(id): ProductId,
    Body(body): Body<ProductReviewsBody>,
) -> ApiResult<Shared<ProductReviewsResponse>> {
    if body
        .product_id
        .is_some_and(|p| !(1..=MAX_WHOLE).contains(&p.0))
    {
        return Err(ApiError::invalid(
            "product_id",
            "product_id must be a product's id",
        ));
    }
    let paginate = body.paginate.map(|p| p.0);
    if paginate.is_some_and(|p| !(1..=1000).contains(&p)) {
        return Err(ApiError::invalid(
            "paginate",
            "paginate must be between 1 and 1000",
        ));
    }
    product_reviews(&state, id, paginate).await
}

/// `GET /api/product/single-product-review/{id}?paginate=`.
async fn get_product_reviews(
    State(state): State<AppState>,
    ProductId(id): ProductId,
    Query(query): Query<ProductReviewsQuery>,
) -> ApiResult<Shared<ProductReviewsResponse>> {
    product_reviews(&state, id, query.paginate.map(Int::get)).await
}
