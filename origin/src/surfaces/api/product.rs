//! The Product group of SPEC.md §7. Product calls take `seo_url` (400 when
//! missing, 404 when unknown or inactive); product-set calls take `slug`.
//! Everything is public (cached, tagged `product:{id}` or `product_set:{id}`)
//! except `recent-views-product`, which depends on the visitor's SELF-TOKEN.

use axum::extract::State;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::read::category::CategoryRef;
use catalog::read::product::{self as q, Related};
use catalog::read::{cards, ProductCard};
use catalog::surrogate::SurrogateKey;

use crate::domain::identity::Caller;
use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Query;
use crate::plumbing::params::{required, Text};
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::home::ProductsResponse;

/// Products in a related list.
const RELATED_LIMIT: i64 = 16;
/// Products in `similar-products`.
const SIMILAR_LIMIT: i64 = 10;
/// Products in the recently viewed strip.
const RECENT_LIMIT: i64 = 10;

/// Routes under `/api/product`.
pub fn router() -> ApiRouter {
    let by_seo = |summary| Doc::public(summary).answers(404, "No active product has this seo_url");
    let by_slug =
        |summary| Doc::public(summary).answers(404, "No active product set has this slug");
    ApiRouter::new()
        .get(
            "/simple-info",
            get_simple_info,
            by_seo("A product: {product}"),
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
            Doc::visitor(
                "The caller's recently viewed products, newest first; none without a SELF-TOKEN",
            )
            .self_token_optional(),
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

/// A product's `seo_url` or a product set's `slug`.
type Slug = Text<1, MAX_PARAM_LEN>;

/// The parameter of the calls about one product.
#[derive(Debug, Deserialize, JsonSchema)]
struct ProductQuery {
    /// The product's seo_url.
    #[schemars(required)]
    seo_url: Option<Slug>,
}

/// The parameter of the calls about one product set.
#[derive(Debug, Deserialize, JsonSchema)]
struct SetQuery {
    /// The product set's slug.
    #[schemars(required)]
    slug: Option<Slug>,
}

/// The id of the active product named by the required `seo_url` (404 when
/// none is).
async fn product_of(state: &AppState, seo_url: Option<Slug>) -> ApiResult<i64> {
    let seo_url = required(seo_url, "seo_url")?;
    q::id_by_seo_url(&state.pool, &seo_url)
        .await?
        .ok_or_else(|| ApiError::not_found("Product not found"))
}

/// The answer of `GET /api/product/info` and `GET /api/product/simple-info`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductResponse {
    /// The product with prices, stock status, attributes, categories,
    /// variations, flash sale and EMI.
    pub product: q::ProductDetail,
}

async fn detail_response(
    state: &AppState,
    seo_url: Option<Slug>,
) -> ApiResult<Shared<ProductResponse>> {
    let id = product_of(state, seo_url).await?;
    let product = q::detail(&state.pool, id, catalog::clock::now_unix())
        .await?
        .ok_or_else(|| ApiError::not_found("Product not found"))?;
    Ok(Shared::new(
        ProductResponse { product },
        [SurrogateKey::Product(id)],
    ))
}

/// `GET /api/product/simple-info?seo_url=`: `{product}`. No side effects:
/// the answer is cached for everyone.
async fn get_simple_info(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<ProductResponse>> {
    detail_response(&state, query.seo_url).await
}

/// `GET /api/product/info?seo_url=`: `{product}` with prices, stock status,
/// attributes, categories, variations, flash sale and EMI.
async fn get_info(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<ProductResponse>> {
    detail_response(&state, query.seo_url).await
}

/// The answer of `GET /api/product/images`: catalog's row is the answer as
/// it is (`{images, youtubeLink, degree_images}`).
pub type ImagesResponse = q::Images;

/// `GET /api/product/images?seo_url=`: `{images, youtubeLink, degree_images}`.
async fn get_images(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<ImagesResponse>> {
    let id = product_of(&state, query.seo_url).await?;
    let images = q::images(&state.pool, id).await?;
    Ok(Shared::new(images, [SurrogateKey::Product(id)]))
}

/// The answer of `GET /api/product/360degreeImages`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Images360Response {
    /// The frames' image paths, in turning order (empty for most products).
    pub images: Vec<String>,
}

/// `GET /api/product/360degreeImages?seo_url=`: `{images}`, the frames in order.
async fn get_360_images(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<Images360Response>> {
    let id = product_of(&state, query.seo_url).await?;
    let frames = q::frames_360(&state.pool, id).await?;
    Ok(Shared::new(
        Images360Response { images: frames },
        [SurrogateKey::Product(id)],
    ))
}

/// The answer of `GET /api/product/similar-products`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SimilarProductsResponse {
    /// Up to 10 products of the same sub-category, nearest price first.
    pub similar_products: Vec<ProductCard>,
}

/// The cards of the related list `kind` of the product named by `seo_url`, and
/// their surrogate keys.
async fn related(
    state: &AppState,
    seo_url: Option<Slug>,
    kind: Related,
) -> ApiResult<(Vec<ProductCard>, Vec<String>)> {
    let id = product_of(state, seo_url).await?;
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
    Ok((list, keys))
}

/// A related list answered as `{products}`.
async fn related_products(
    state: &AppState,
    seo_url: Option<Slug>,
    kind: Related,
) -> ApiResult<Shared<ProductsResponse>> {
    let (products, keys) = related(state, seo_url, kind).await?;
    Ok(Shared::new(ProductsResponse { products }, keys))
}

/// `GET /api/product/similar-products?seo_url=`: `{similar_products}` (cards).
async fn get_similar_products(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<SimilarProductsResponse>> {
    let (similar_products, keys) = related(&state, query.seo_url, Related::Similar).await?;
    Ok(Shared::new(
        SimilarProductsResponse { similar_products },
        keys,
    ))
}

/// `GET /api/product/same-category-products?seo_url=`: `{products}` (cards).
async fn get_same_category_products(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<ProductsResponse>> {
    related_products(&state, query.seo_url, Related::SameCategory).await
}

/// `GET /api/product/goes-well-with?seo_url=`: `{products}` (cards).
async fn get_goes_well_with(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<ProductsResponse>> {
    related_products(&state, query.seo_url, Related::GoesWellWith).await
}

/// `GET /api/product/other-also-see?seo_url=`: `{products}` (cards).
async fn get_other_also_see(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<ProductsResponse>> {
    related_products(&state, query.seo_url, Related::OtherAlsoSee).await
}

/// `GET /api/product/recent-views-product` with a SELF-TOKEN header:
/// `{products}` (cards). Per visitor, so never public.
async fn get_recent_views(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<ProductsResponse>> {
    let products = match caller.owner() {
        Ok(owner) => {
            let (user, token) = owner.ids();
            let ids = q::recently_viewed_ids(&state.pool, user, token, RECENT_LIMIT).await?;
            cards(&state.pool, &ids, catalog::clock::now_unix()).await?
        }
        Err(_) => Vec::new(),
    };
    Ok(Json(ProductsResponse { products }))
}

/// The answer of `GET /api/product/product-variation`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductVariationResponse {
    /// The variation groups (by attribute) with their variations.
    #[serde(rename = "productVariationsList")]
    pub product_variations_list: Vec<q::VariationList>,
}

/// `GET /api/product/product-variation?seo_url=`: `{productVariationsList}`
/// (groups with their variations).
async fn get_product_variation(
    State(state): State<AppState>,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Shared<ProductVariationResponse>> {
    let id = product_of(&state, query.seo_url).await?;
    let list = q::variation_list(&state.pool, id).await?;
    Ok(Shared::new(
        ProductVariationResponse {
            product_variations_list: list,
        },
        [SurrogateKey::Product(id)],
    ))
}

/// The active product set named by the required `slug` (404 when none is).
async fn set_of(state: &AppState, slug: Option<Slug>) -> ApiResult<q::ProductSetInfo> {
    let slug = required(slug, "slug")?;
    q::product_set(&state.pool, &slug, catalog::clock::now_unix())
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

/// The answer of `GET /api/product/product-set-products`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetProductsResponse {
    /// The category the set belongs to; null when it has none or it is not
    /// published.
    pub term: Option<CategoryRef>,
    pub products: Vec<q::SetProduct>,
}

/// `GET /api/product/product-set-products?slug=`: `{term, products}`.
async fn get_set_products(
    State(state): State<AppState>,
    Query(query): Query<SetQuery>,
) -> ApiResult<Shared<SetProductsResponse>> {
    let set = set_of(&state, query.slug).await?;
    let products = q::set_products(&state.pool, set.id, catalog::clock::now_unix()).await?;
    let term = q::set_category(&state.pool, &set).await?;
    Ok(Shared::new(
        SetProductsResponse { term, products },
        set_keys(&set),
    ))
}

/// The answer of `GET /api/product/product-set-info`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetInfoResponse {
    pub product_set: q::ProductSetInfo,
}

/// `GET /api/product/product-set-info?slug=`: `{product_set}` with `price_all`.
async fn get_set_info(
    State(state): State<AppState>,
    Query(query): Query<SetQuery>,
) -> ApiResult<Shared<SetInfoResponse>> {
    let set = set_of(&state, query.slug).await?;
    let keys = set_keys(&set);
    Ok(Shared::new(SetInfoResponse { product_set: set }, keys))
}

/// The answer of `GET /api/product/product-set-fabrics`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetFabricsResponse {
    /// The active fabrics the set comes in.
    pub fabrics: Vec<q::Fabric>,
}

/// `GET /api/product/product-set-fabrics?slug=`: `{fabrics}`.
async fn get_set_fabrics(
    State(state): State<AppState>,
    Query(query): Query<SetQuery>,
) -> ApiResult<Shared<SetFabricsResponse>> {
    let set = set_of(&state, query.slug).await?;
    let fabrics = q::fabrics(&state.pool, set.id).await?;
    Ok(Shared::new(
        SetFabricsResponse { fabrics },
        [SurrogateKey::ProductSet(set.id)],
    ))
}

/// The answer of `GET /api/product/product-set-additional-info`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SetAdditionalInfoResponse {
    /// The set's additional-info blocks.
    pub infos: Vec<q::SetInfo>,
}

/// `GET /api/product/product-set-additional-info?slug=`: `{infos}`.
async fn get_set_additional_info(
    State(state): State<AppState>,
    Query(query): Query<SetQuery>,
) -> ApiResult<Shared<SetAdditionalInfoResponse>> {
    let set = set_of(&state, query.slug).await?;
    let infos = q::set_infos(&state.pool, set.id).await?;
    Ok(Shared::new(
        SetAdditionalInfoResponse { infos },
        [SurrogateKey::ProductSet(set.id)],
    ))
}
