//! The Category group of SPEC.md §7: `/api/category/{info, sub-category,
//! recommended, filters, tag-gallery, product-set, products}`. Every call
//! takes `seo_url` (400 when missing, 404 when no published category has it).
//! Each call's parameters are a typed query ([`crate::plumbing::params`]);
//! `products` also reads the attribute filters, whose names are data, from
//! the query's pairs. [`Params`], the older reader of hand-read pairs, still
//! serves other groups.

use axum::extract::State;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::read::category::{self as q, CategoryInfo};
use catalog::read::listing::{self, ProductQuery, Sort};
use catalog::read::{PageRequest, Paginator, ProductCard};
use catalog::surrogate::{self, SurrogateKey};

use crate::domain::listing_query::{
    self, ListingParams, SortBy, CATEGORY_FILTER_PATTERN, MAX_PAGE, MAX_PARAM_LEN, MAX_PRICE,
};
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Query;
use crate::plumbing::params::{blank_allowed, blank_is_none, required, Int, Text};
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Default and largest page size of `category/products`.
pub const DEFAULT_PER_PAGE: i64 = 16;
/// Largest page size; larger (sane) values are capped to it.
pub const MAX_PER_PAGE: i64 = 60;
/// Largest page size accepted at all (then capped); above it is a 400.
const MAX_PER_PAGE_ASKED: i64 = 1_000;

/// Query parameters as decoded pairs, for handlers whose parameters are
/// partly dynamic (`filterby_*`).
#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Wraps the pairs; any value longer than [`MAX_PARAM_LEN`] is a 400.
    pub fn new(pairs: Vec<(String, String)>) -> ApiResult<Params> {
        for (k, v) in &pairs {
            if v.chars().count() > MAX_PARAM_LEN || k.chars().count() > MAX_PARAM_LEN {
                return Err(ApiError::invalid(
                    k,
                    format!("{k} must be at most {MAX_PARAM_LEN} characters"),
                ));
            }
        }
        Ok(Params { pairs })
    }

    /// The last value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every pair, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// A required, non-empty text parameter.
    pub fn required(&self, name: &str) -> ApiResult<&str> {
        match self.get(name).map(str::trim) {
            Some(v) if !v.is_empty() => Ok(v),
            _ => Err(ApiError::invalid(name, format!("{name} is required"))),
        }
    }

    /// An optional integer in `min..=max`; empty counts as absent.
    pub fn int(&self, name: &str, min: i64, max: i64) -> ApiResult<Option<i64>> {
        Ok(listing_query::int(&self.pairs, name, min, max)?)
    }
}

/// The `page` parameter (default 1, at most [`MAX_PAGE`]).
pub fn page_param(params: &Params) -> ApiResult<i64> {
    Ok(params.int("page", 1, MAX_PAGE)?.unwrap_or(1))
}

/// Routes under `/api/category`.
pub fn router() -> ApiRouter {
    let unknown = "No published category has this seo_url";
    ApiRouter::new()
        .get(
            "/info",
            get_info,
            Doc::public("A category: {info}").answers(404, unknown),
        )
        .get(
            "/sub-category",
            get_sub_category,
            Doc::public("Its sub-categories: {category}").answers(404, unknown),
        )
        .get(
            "/recommended",
            get_recommended,
            Doc::public("Recommended products in it: {products: paginator}").answers(404, unknown),
        )
        .get(
            "/filters",
            get_filters,
            Doc::public("Its filters: {filters_cat, filters_att (each value with the count of products it leaves; none that leaves nothing), price: {min, max} or null}; with the listing's chosen filters, each attribute's counts respect the others")
                .answers(
                    404,
                    "No published category has this seo_url, or a filter names a category outside it or an attribute or value that does not exist",
                ),
        )
        .get(
            "/tag-gallery",
            get_tag_gallery,
            Doc::public("Its tag gallery, at most 7 tiles: {tag_gallery}").answers(404, unknown),
        )
        .get(
            "/product-set",
            get_product_set,
            Doc::public("Its product sets: {product_sets}").answers(404, unknown),
        )
        .get(
            "/products",
            get_products,
            Doc::public("Its products, filtered and sorted: {products: paginator, relaxed}; with a keyword also {facets} and, when no product has every word, relaxed: true and {relaxed_query}")
                .answers(
                    404,
                    "No published category has this seo_url, or a filter names a category outside it or an attribute or value that does not exist",
                ),
        )
}

/// A category's `seo_url`, the parameter every call here takes.
type SeoUrl = Text<1, MAX_PARAM_LEN>;
/// A listing page number.
type Page = Int<1, MAX_PAGE>;
/// A price in a filter, taka.
type Price = Int<0, MAX_PRICE>;
/// A page size as asked (then capped to [`MAX_PER_PAGE`]).
type PerPage = Int<1, MAX_PER_PAGE_ASKED>;

/// The parameters of `info`, `sub-category`, `filters` and `tag-gallery`.
#[derive(Debug, Deserialize, JsonSchema)]
struct CategoryQuery {
    /// The category's seo_url (`products` for the whole shop).
    #[schemars(required)]
    seo_url: Option<SeoUrl>,
}

/// The parameters of `GET /api/category/filters`: the category, and
/// optionally the listing's chosen filters (as `category/products` takes
/// them), which the counts then respect. The attribute filters
/// `filterby_{attribute}` are read from the query's pairs.
#[derive(Debug, Deserialize, JsonSchema)]
struct FiltersQuery {
    /// The category's seo_url (`products` for the whole shop).
    #[schemars(required)]
    seo_url: Option<SeoUrl>,
    /// Words searched for: the counts are of the matches.
    #[serde(default)]
    keyword: Option<Text<0, MAX_PARAM_LEN>>,
    /// Lowest price chosen, taka (at most `price_max`).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    price_min: Option<Price>,
    /// Highest price chosen, taka.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    price_max: Option<Price>,
    /// Sub-category ids joined by `|`, each within this category.
    #[serde(default)]
    #[schemars(regex(pattern = CATEGORY_FILTER_PATTERN))]
    filterby_category: Option<Text<0, MAX_PARAM_LEN>>,
}

/// The parameters of `GET /api/category/recommended`.
#[derive(Debug, Deserialize, JsonSchema)]
struct RecommendedQuery {
    /// The category's seo_url (`products` for the whole shop).
    #[schemars(required)]
    seo_url: Option<SeoUrl>,
    /// Page number (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    page: Option<Page>,
}

/// The parameters of `GET /api/category/product-set`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ProductSetQuery {
    /// The category's seo_url (`products` for the whole shop).
    #[schemars(required)]
    seo_url: Option<SeoUrl>,
    /// Lowest set price, taka (default 0); above `price_max` the two are
    /// read the other way round.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    price_min: Option<Price>,
    /// Highest set price, taka (default no limit).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    price_max: Option<Price>,
}

/// The parameters of `GET /api/category/products` with fixed names. The
/// attribute filters `filterby_{attribute}` are read from the query's pairs
/// ([`ListingParams::checked`]): their names are the category's data
/// (`category/filters`), which a document of fixed parameters cannot list.
#[derive(Debug, Deserialize, JsonSchema)]
struct ProductsQuery {
    /// The category's seo_url (`products` for the whole shop).
    #[schemars(required)]
    seo_url: Option<SeoUrl>,
    /// Words to search for; the matches are ranked by the search index.
    #[serde(default)]
    keyword: Option<Text<0, MAX_PARAM_LEN>>,
    /// Page number (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    page: Option<Page>,
    /// Products a page (default 16; above 60 read as 60).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    per_page: Option<PerPage>,
    /// The original client's name for per_page (per_page wins).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    sort_show: Option<PerPage>,
    /// The order (default newest first).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    #[schemars(with = "SortBy")] // one of the names, never null
    sort_by: Option<SortBy>,
    /// Lowest price a shopper pays now, taka; above `price_max` it is a
    /// 400 naming price_min.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    price_min: Option<Price>,
    /// Highest price a shopper pays now, taka.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    price_max: Option<Price>,
    /// Sub-category ids joined by `|` (OR), each within this category. The
    /// attribute filters are read too: `filterby_{attribute}=slug|slug`, value
    /// slugs of one attribute (OR within one parameter, AND across them), as
    /// `category/filters` lists them.
    #[serde(default)]
    #[schemars(regex(pattern = CATEGORY_FILTER_PATTERN))]
    filterby_category: Option<Text<0, MAX_PARAM_LEN>>,
}

/// The query's pairs as sent: page links keep the request's other
/// parameters, and `products` reads its attribute filters from them.
type Pairs = Query<Vec<(String, String)>>;

/// The category named by the required `seo_url` (404 when none is).
async fn category_of(state: &AppState, seo_url: Option<SeoUrl>) -> ApiResult<CategoryInfo> {
    let seo_url = required(seo_url, "seo_url")?;
    q::by_seo_url(&state.pool, &seo_url)
        .await?
        .ok_or_else(|| ApiError::not_found("Category not found"))
}

/// The answer of `GET /api/category/info`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryInfoResponse {
    pub info: CategoryInfo,
}

/// `GET /api/category/info?seo_url=`: `{info}`.
async fn get_info(
    State(state): State<AppState>,
    Query(query): Query<CategoryQuery>,
) -> ApiResult<Shared<CategoryInfoResponse>> {
    let category = category_of(&state, query.seo_url).await?;
    let key = SurrogateKey::Category(category.id);
    Ok(Shared::new(
        CategoryInfoResponse { info: category },
        [key, SurrogateKey::Categories],
    ))
}

/// The answer of `GET /api/category/sub-category`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SubCategoryResponse {
    /// The published children (for the root, the top categories shown on
    /// the all-products page).
    pub category: Vec<q::SubCategory>,
}

/// `GET /api/category/sub-category?seo_url=`: `{category: [...]}`; the root
/// (`products`) answers the top categories.
async fn get_sub_category(
    State(state): State<AppState>,
    Query(query): Query<CategoryQuery>,
) -> ApiResult<Shared<SubCategoryResponse>> {
    let category = category_of(&state, query.seo_url).await?;
    let subs = q::sub_categories(&state.pool, category.id).await?;
    let key = SurrogateKey::Category(category.id);
    Ok(Shared::new(
        SubCategoryResponse { category: subs },
        [key, SurrogateKey::Categories],
    ))
}

/// The answer of `GET /api/category/products` and `GET /api/category/recommended`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryProductsResponse {
    /// One page of product cards.
    pub products: Paginator<ProductCard>,
    /// Only for a search (`keyword`): how many of its products each filter
    /// would leave; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facets: Option<listing::Facets>,
    /// True when no product has every word of `keyword` and the products
    /// are those of fewer words (a page says "Showing results for …").
    pub relaxed: bool,
    /// When `relaxed`: the words the products match, as typed ("sofa" for
    /// "sofa qqxxzz"; "wardrobe or lamp" when no product has both and each
    /// has one). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relaxed_query: Option<String>,
}

/// `GET /api/category/recommended?seo_url=&page=`: `{products: paginator}`
/// (16 a page, recommended products first).
async fn get_recommended(
    State(state): State<AppState>,
    Query(query): Query<RecommendedQuery>,
    Query(pairs): Pairs,
) -> ApiResult<Shared<CategoryProductsResponse>> {
    let category = category_of(&state, query.seo_url).await?;
    let page = PageRequest::new(query.page.map_or(1, Int::get), DEFAULT_PER_PAGE);
    let query = ProductQuery {
        categories: (category.id != q::ROOT_ID).then(|| vec![category.id]),
        sort: Sort::Recommended,
        ..ProductQuery::default()
    };
    let paginator = list_page(&state, &query, page, "/api/category/recommended", &pairs).await?;
    let keys = listed_keys(&category, &paginator);
    Ok(Shared::new(
        CategoryProductsResponse {
            products: paginator,
            facets: None,
            relaxed: false,
            relaxed_query: None,
        },
        keys,
    ))
}

/// The answer of `GET /api/category/filters`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FiltersResponse {
    /// The category menu of the filter panel.
    pub filters_cat: q::CategoryFilters,
    /// The attribute filters (`filterby_{field_name}`), each with the values
    /// that leave some of the listing's products and how many.
    pub filters_att: Vec<AttributeFilter>,
    /// The lowest and highest price a shopper pays now among the listing's
    /// products (other chosen filters respected, the price range not):
    /// the price filter's bounds; null when there is none.
    pub price: Option<PriceBounds>,
}

/// An attribute filter: the query parameter is `filterby_{field_name}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AttributeFilter {
    pub id: i64,
    pub field_label: String,
    pub field_name: String,
    /// The values some product of the listing has, in order.
    pub values: Vec<FilterValueCount>,
}

/// A filter value with the count of the listing's products it leaves (the
/// other attributes' chosen values respected, its own attribute's not).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FilterValueCount {
    pub id: i64,
    pub value: String,
    /// What goes into `filterby_{field_name}`.
    pub slug: String,
    /// At least 1.
    pub count: i64,
}

/// A price range, taka.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PriceBounds {
    pub min: i64,
    pub max: i64,
}

/// The 400 of a price range whose minimum is above its maximum.
fn check_price_range(min: Option<i64>, max: Option<i64>) -> ApiResult<()> {
    match (min, max) {
        (Some(lo), Some(hi)) if lo > hi => Err(ApiError::invalid(
            "price_min",
            format!("price_min ({lo}) must not be above price_max ({hi})"),
        )),
        _ => Ok(()),
    }
}

/// `GET /api/category/filters?seo_url=` (and optionally the listing's
/// chosen filters): `{filters_cat, filters_att, price}`.
async fn get_filters(
    State(state): State<AppState>,
    Query(query): Query<FiltersQuery>,
    Query(pairs): Pairs,
) -> ApiResult<Shared<FiltersResponse>> {
    let category = category_of(&state, query.seo_url).await?;
    let price = (query.price_min.map(Int::get), query.price_max.map(Int::get));
    check_price_range(price.0, price.1)?;
    let resolved = ListingParams::checked(
        None,
        query.keyword.as_deref(),
        price,
        query.filterby_category.as_deref(),
        &pairs,
    )
    .resolve(&state.pool, &state.search, category.id, &category.seo_url)
    .await?;
    if let Some(problem) = resolved.refusal() {
        return Err(problem.clone().into());
    }
    let now = catalog::clock::now_unix();
    let filters_cat = q::category_filters(&state.pool, &category).await?;
    let values = listing::filter_values(&state.pool).await?;
    let counts = listing::value_counts(&state.pool, &resolved.query, now, &values).await?;
    let mut filters_att: Vec<AttributeFilter> = Vec::new();
    for v in values {
        let Some(count) = counts.get(&v.id).copied() else {
            continue;
        };
        if filters_att.last().map(|a| a.id) != Some(v.attribute_id) {
            filters_att.push(AttributeFilter {
                id: v.attribute_id,
                field_label: v.field_label,
                field_name: v.field_name,
                values: Vec::new(),
            });
        }
        if let Some(a) = filters_att.last_mut() {
            a.values.push(FilterValueCount {
                id: v.id,
                value: v.value,
                slug: v.slug,
                count,
            });
        }
    }
    let price = listing::price_bounds(&state.pool, &resolved.query, now)
        .await?
        .map(|(min, max)| PriceBounds { min, max });
    let key = SurrogateKey::Category(category.id);
    Ok(Shared::new(
        FiltersResponse {
            filters_cat,
            filters_att,
            price,
        },
        [key, SurrogateKey::Categories, SurrogateKey::Products],
    ))
}

/// The answer of `GET /api/category/tag-gallery`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TagGalleryResponse {
    /// At most 7 tiles.
    pub tag_gallery: Vec<q::TagGalleryItem>,
}

/// `GET /api/category/tag-gallery?seo_url=`: `{tag_gallery}` (at most 7).
async fn get_tag_gallery(
    State(state): State<AppState>,
    Query(query): Query<CategoryQuery>,
) -> ApiResult<Shared<TagGalleryResponse>> {
    let category = category_of(&state, query.seo_url).await?;
    let items = q::tag_gallery(&state.pool, &category).await?;
    let key = SurrogateKey::Category(category.id);
    Ok(Shared::new(
        TagGalleryResponse { tag_gallery: items },
        [key],
    ))
}

/// The answer of `GET /api/category/product-set`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CategoryProductSetsResponse {
    /// The active sets of the category's subtree whose total price lies in
    /// the range.
    pub product_sets: Vec<q::ProductSetTile>,
}

/// `GET /api/category/product-set?seo_url=&price_min=&price_max=`:
/// `{product_sets}` whose total price lies in the range.
async fn get_product_set(
    State(state): State<AppState>,
    Query(query): Query<ProductSetQuery>,
) -> ApiResult<Shared<CategoryProductSetsResponse>> {
    let category = category_of(&state, query.seo_url).await?;
    let min = query.price_min.map_or(0, Int::get);
    let max = query.price_max.map_or(MAX_PRICE, Int::get);
    // A minimum above the maximum: the range between them, as for products.
    let (min, max) = (min.min(max), min.max(max));
    let sets = q::product_sets(
        &state.pool,
        category.id,
        min,
        max,
        catalog::clock::now_unix(),
    )
    .await?;
    let mut keys = vec![
        SurrogateKey::Category(category.id).to_string(),
        SurrogateKey::ProductSets.to_string(),
        SurrogateKey::Products.to_string(),
    ];
    keys.extend(
        sets.iter()
            .map(|s| SurrogateKey::ProductSet(s.id).to_string()),
    );
    Ok(Shared::new(
        CategoryProductSetsResponse { product_sets: sets },
        keys,
    ))
}

/// `GET /api/category/products`: `{products: paginator}` of cards. The
/// parameters with fixed names are checked by their types, the filters by
/// [`ListingParams`]: a malformed one is a 400, one that names nothing a 404.
/// See the module docs of `catalog::read::listing` for the filters.
async fn get_products(
    State(state): State<AppState>,
    Query(query): Query<ProductsQuery>,
    Query(pairs): Pairs,
) -> ApiResult<Shared<CategoryProductsResponse>> {
    let category = category_of(&state, query.seo_url).await?;
    let page = query.page.map_or(1, Int::get);
    let per_page = query
        .per_page
        .or(query.sort_show)
        .map_or(DEFAULT_PER_PAGE, Int::get)
        .min(MAX_PER_PAGE);
    let price = (query.price_min.map(Int::get), query.price_max.map(Int::get));
    check_price_range(price.0, price.1)?;
    let resolved = ListingParams::checked(
        query.sort_by.as_ref(),
        query.keyword.as_deref(),
        price,
        query.filterby_category.as_deref(),
        &pairs,
    )
    .resolve(&state.pool, &state.search, category.id, &category.seo_url)
    .await?;
    if let Some(problem) = resolved.refusal() {
        return Err(problem.clone().into());
    }
    let relaxed_query = resolved.relaxed;
    let query = resolved.query;
    let paginator = list_page(
        &state,
        &query,
        PageRequest::new(page, per_page),
        "/api/category/products",
        &pairs,
    )
    .await?;
    let keys = listed_keys(&category, &paginator);
    // A search also answers how many of its products each filter leaves.
    let facets = match query.only {
        Some(_) => Some(listing::facets(&state.pool, &query, catalog::clock::now_unix()).await?),
        None => None,
    };
    Ok(Shared::new(
        CategoryProductsResponse {
            products: paginator,
            facets,
            relaxed: relaxed_query.is_some(),
            relaxed_query,
        },
        keys,
    ))
}

/// The category's key, `products`, and `product:{id}` of each listed product,
/// so that a price or stock change purged by product (`generator watch`)
/// also drops the category lists that show it.
fn listed_keys(category: &CategoryInfo, page: &Paginator<ProductCard>) -> Vec<String> {
    surrogate::with_products(
        &[SurrogateKey::Category(category.id), SurrogateKey::Products],
        page.data.iter().map(|p| p.id),
    )
}

/// One page of cards for `query`; page links keep the request's other
/// parameters (but not the `time` cache-buster).
async fn list_page(
    state: &AppState,
    query: &ProductQuery,
    page: PageRequest,
    path: &str,
    pairs: &[(String, String)],
) -> ApiResult<Paginator<ProductCard>> {
    let keep: Vec<(String, String)> = pairs
        .iter()
        .filter(|(k, _)| k != "time" && k != "page")
        .cloned()
        .collect();
    let now = catalog::clock::now_unix();
    Ok(listing::page(&state.pool, query, page, now, path, &keep).await?)
}
