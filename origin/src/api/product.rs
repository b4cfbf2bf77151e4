//! The Product group of SPEC.md §7. Product calls take `seo_url` (400 when
//! missing, 404 when unknown or inactive); product-set calls take `slug`.
//! Everything is public (cached, tagged `product:{id}` or `product_set:{id}`)
//! except `recent-views-product`, which depends on the visitor's SELF-TOKEN.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use catalog::read::product::{self as q, Related};
use catalog::read::{cards, ProductCard};
use catalog::surrogate::SurrogateKey;

use crate::api::category::Params;
use crate::api::doc::{ApiRouter, Doc};
use crate::cache;
use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::identity::Caller;
use crate::state::AppState;

/// Products in a related list.
const RELATED_LIMIT: i64 = 16;
/// Products in `similar-products`.
const SIMILAR_LIMIT: i64 = 10;
/// Default `limit` of question-index (the original client's 8).
const DEFAULT_QUESTIONS: i64 = 8;
/// Default `limit` of comment-index (the original client's 3).
const DEFAULT_COMMENTS: i64 = 3;
/// Largest `limit` answered: larger (sane) values are capped to it.
const MAX_TALK_LIMIT: i64 = 50;
/// Largest `limit` accepted at all (then capped); above it is a 400.
const MAX_TALK_LIMIT_ASKED: i64 = 1_000;
/// Products in the recently viewed strip.
const RECENT_LIMIT: i64 = 10;

/// Routes under `/api/product`.
pub fn router() -> ApiRouter {
    let by_seo = |summary| Doc::public(summary).query("seo_url", "string", "The product's seo_url");
    let by_slug = |summary| Doc::public(summary).query("slug", "string", "The product set's slug");
    let limit = "How many to return (capped)";
    ApiRouter::new()
        .get(
            "/simple-info",
            get_simple_info,
            by_seo("A product: {product}; 404 when unknown"),
        )
        .get(
            "/info",
            get_info,
            by_seo("A product with prices, stock status and attributes: {product}"),
        )
        .get(
            "/images",
            get_images,
            by_seo("Its images: {images, youtubeLink, degree_images}"),
        )
        .get(
            "/360degreeImages",
            get_360_images,
            by_seo("Its 360-degree frames in order: {images}"),
        )
        .get(
            "/similar-products",
            get_similar_products,
            by_seo("Similar products: {similar_products}"),
        )
        .get(
            "/same-category-products",
            get_same_category_products,
            by_seo("Products of the same category: {products}"),
        )
        .get(
            "/goes-well-with",
            get_goes_well_with,
            by_seo("Products that go well with it: {products}"),
        )
        .get(
            "/other-also-see",
            get_other_also_see,
            by_seo("What others also look at: {products}"),
        )
        .get(
            "/recent-views-product",
            get_recent_views,
            Doc::visitor("The caller's recently viewed products, newest first"),
        )
        .get(
            "/question-index",
            get_questions,
            by_seo("Published questions with answers: {questions}")
                .query_opt("limit", "integer", limit),
        )
        .get(
            "/comment-index",
            get_comments,
            by_seo("Published comments: {comments}").query_opt("limit", "integer", limit),
        )
        .get(
            "/product-set-products",
            get_set_products,
            by_slug("A set's products: {term, products}"),
        )
        .get(
            "/product-set-info",
            get_set_info,
            by_slug("A set with its total price: {product_set}"),
        )
        .get(
            "/product-set-fabrics",
            get_set_fabrics,
            by_slug("A set's fabrics: {fabrics}"),
        )
        .get(
            "/product-set-additional-info",
            get_set_additional_info,
            by_slug("A set's additional information: {infos}"),
        )
        .get(
            "/product-variation",
            get_product_variation,
            by_seo("Its variations: {productVariationsList}"),
        )
}

type Pairs = Query<Vec<(String, String)>>;

/// Validates the parameters and finds the active product named by `seo_url`.
async fn product_of(state: &AppState, pairs: Vec<(String, String)>) -> ApiResult<(Params, i64)> {
    let params = Params::new(pairs)?;
    let seo_url = params.required("seo_url")?;
    let id = q::id_by_seo_url(&state.pool, seo_url)
        .await?
        .ok_or_else(|| ApiError::not_found("Product not found"))?;
    Ok((params, id))
}

async fn detail_response(state: &AppState, pairs: Vec<(String, String)>) -> ApiResult<Response> {
    let (_, id) = product_of(state, pairs).await?;
    let product = q::detail(&state.pool, id, catalog::clock::now_unix())
        .await?
        .ok_or_else(|| ApiError::not_found("Product not found"))?;
    Ok(cache::public(
        Json(json!({ "product": product })),
        [SurrogateKey::Product(id)],
    ))
}

/// `GET /api/product/simple-info?seo_url=`: `{product}`. No side effects:
/// the answer is cached for everyone.
async fn get_simple_info(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    detail_response(&state, pairs).await
}

/// `GET /api/product/info?seo_url=`: `{product}` with prices, stock status,
/// attributes, categories, variations, flash sale and EMI.
async fn get_info(State(state): State<AppState>, Query(pairs): Pairs) -> ApiResult<Response> {
    detail_response(&state, pairs).await
}

/// `GET /api/product/images?seo_url=`: `{images, youtubeLink, degree_images}`.
async fn get_images(State(state): State<AppState>, Query(pairs): Pairs) -> ApiResult<Response> {
    let (_, id) = product_of(&state, pairs).await?;
    let images = q::images(&state.pool, id).await?;
    Ok(cache::public(Json(images), [SurrogateKey::Product(id)]))
}

/// `GET /api/product/360degreeImages?seo_url=`: `{images}`, the frames in order.
async fn get_360_images(State(state): State<AppState>, Query(pairs): Pairs) -> ApiResult<Response> {
    let (_, id) = product_of(&state, pairs).await?;
    let frames = q::frames_360(&state.pool, id).await?;
    Ok(cache::public(
        Json(json!({ "images": frames })),
        [SurrogateKey::Product(id)],
    ))
}

async fn related(
    state: &AppState,
    pairs: Vec<(String, String)>,
    kind: Related,
    key: &str,
) -> ApiResult<Response> {
    let (_, id) = product_of(state, pairs).await?;
    let now = catalog::clock::now_unix();
    let limit = if kind == Related::Similar {
        SIMILAR_LIMIT
    } else {
        RELATED_LIMIT
    };
    let ids = q::related_ids(&state.pool, id, kind, limit, now).await?;
    let list: Vec<ProductCard> = cards(&state.pool, &ids, now).await?;
    let mut keys = vec![
        SurrogateKey::Product(id).to_string(),
        SurrogateKey::Products.to_string(),
    ];
    keys.extend(list.iter().map(|c| SurrogateKey::Product(c.id).to_string()));
    Ok(cache::public(Json(json!({ key: list })), keys))
}

/// `GET /api/product/similar-products?seo_url=`: `{similar_products}` (cards).
async fn get_similar_products(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    related(&state, pairs, Related::Similar, "similar_products").await
}

/// `GET /api/product/same-category-products?seo_url=`: `{products}` (cards).
async fn get_same_category_products(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    related(&state, pairs, Related::SameCategory, "products").await
}

/// `GET /api/product/goes-well-with?seo_url=`: `{products}` (cards).
async fn get_goes_well_with(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    related(&state, pairs, Related::GoesWellWith, "products").await
}

/// `GET /api/product/other-also-see?seo_url=`: `{products}` (cards).
async fn get_other_also_see(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    related(&state, pairs, Related::OtherAlsoSee, "products").await
}

/// `GET /api/product/recent-views-product` with a SELF-TOKEN header:
/// `{products}` (cards). Per visitor, so never public.
async fn get_recent_views(State(state): State<AppState>, caller: Caller) -> ApiResult<Response> {
    let list = match caller.owner() {
        Ok(owner) => {
            let (user, token) = owner.ids();
            let ids = q::recently_viewed_ids(&state.pool, user, token, RECENT_LIMIT).await?;
            cards(&state.pool, &ids, catalog::clock::now_unix()).await?
        }
        Err(_) => Vec::new(),
    };
    Ok(Json(json!({ "products": list })).into_response())
}

/// `GET /api/product/question-index?seo_url=&limit=`: `{questions}`.
async fn get_questions(State(state): State<AppState>, Query(pairs): Pairs) -> ApiResult<Response> {
    let (params, id) = product_of(&state, pairs).await?;
    let limit = params
        .int("limit", 1, MAX_TALK_LIMIT_ASKED)?
        .unwrap_or(DEFAULT_QUESTIONS)
        .min(MAX_TALK_LIMIT);
    let questions = q::questions(&state.pool, id, limit, catalog::clock::now_unix()).await?;
    Ok(cache::public(
        Json(json!({ "questions": questions })),
        [SurrogateKey::Product(id)],
    ))
}

/// `GET /api/product/comment-index?seo_url=&limit=`: `{comments}`.
async fn get_comments(State(state): State<AppState>, Query(pairs): Pairs) -> ApiResult<Response> {
    let (params, id) = product_of(&state, pairs).await?;
    let limit = params
        .int("limit", 1, MAX_TALK_LIMIT_ASKED)?
        .unwrap_or(DEFAULT_COMMENTS)
        .min(MAX_TALK_LIMIT);
    let comments = q::comments(&state.pool, id, limit, catalog::clock::now_unix()).await?;
    Ok(cache::public(
        Json(json!({ "comments": comments })),
        [SurrogateKey::Product(id)],
    ))
}

/// `GET /api/product/product-variation?seo_url=`: `{productVariationsList}`
/// (groups with their variations).
async fn get_product_variation(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    let (_, id) = product_of(&state, pairs).await?;
    let list = q::variation_list(&state.pool, id).await?;
    Ok(cache::public(
        Json(json!({ "productVariationsList": list })),
        [SurrogateKey::Product(id)],
    ))
}

/// Validates the parameters and finds the active product set named by `slug`.
async fn set_of(state: &AppState, pairs: Vec<(String, String)>) -> ApiResult<q::ProductSetInfo> {
    let params = Params::new(pairs)?;
    let slug = params.required("slug")?;
    q::product_set(&state.pool, slug, catalog::clock::now_unix())
        .await?
        .ok_or_else(|| ApiError::not_found("Product set not found"))
}

fn set_keys(set: &q::ProductSetInfo) -> Vec<String> {
    let mut keys = vec![SurrogateKey::ProductSet(set.id).to_string()];
    keys.extend(
        set.product_ids
            .iter()
            .map(|id| SurrogateKey::Product(*id).to_string()),
    );
    keys
}

/// `GET /api/product/product-set-products?slug=`: `{term, products}`.
async fn get_set_products(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    let set = set_of(&state, pairs).await?;
    let products = q::set_products(&state.pool, set.id, catalog::clock::now_unix()).await?;
    let term = q::set_category(&state.pool, &set).await?;
    Ok(cache::public(
        Json(json!({ "term": term, "products": products })),
        set_keys(&set),
    ))
}

/// `GET /api/product/product-set-info?slug=`: `{product_set}` with `price_all`.
async fn get_set_info(State(state): State<AppState>, Query(pairs): Pairs) -> ApiResult<Response> {
    let set = set_of(&state, pairs).await?;
    let keys = set_keys(&set);
    Ok(cache::public(Json(json!({ "product_set": set })), keys))
}

/// `GET /api/product/product-set-fabrics?slug=`: `{fabrics}`.
async fn get_set_fabrics(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    let set = set_of(&state, pairs).await?;
    let fabrics = q::fabrics(&state.pool, set.id).await?;
    Ok(cache::public(
        Json(json!({ "fabrics": fabrics })),
        [SurrogateKey::ProductSet(set.id)],
    ))
}

/// `GET /api/product/product-set-additional-info?slug=`: `{infos}`.
async fn get_set_additional_info(
    State(state): State<AppState>,
    Query(pairs): Pairs,
) -> ApiResult<Response> {
    let set = set_of(&state, pairs).await?;
    let infos = q::set_infos(&state.pool, set.id).await?;
    Ok(cache::public(
        Json(json!({ "infos": infos })),
        [SurrogateKey::ProductSet(set.id)],
    ))
}
