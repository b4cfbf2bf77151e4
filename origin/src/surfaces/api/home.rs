//! The Home group of SPEC.md §7: `/api/home/{sliders, top-category,
//! top-offers, prebookings, new-arrivals, flash-sales, tag-gallary,
//! news-events, blog-posts, blog-details, terms, product-set, settings}`.
//! Everything here is the same for every visitor, so every answer is public
//! (cached at the edge and tagged). Unknown query parameters are ignored (the
//! original client sends `sum=0` and cache-busters); known ones are read by
//! typed queries, which check them.

use std::borrow::Cow;
use std::collections::BTreeMap;

use axum::extract::State;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize, Serializer};

use catalog::read::category::{self as cq, ROOT_ID};
use catalog::read::{cards, content, flash, home as q, site, ProductCard};
use catalog::surrogate::{self, SurrogateKey};

use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Query;
use crate::plumbing::params::{blank_allowed, blank_is_none, required, Int, Text};
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Largest `limit` accepted.
pub const MAX_LIMIT: i64 = 100;
/// Largest `page` accepted.
pub const MAX_PAGE: i64 = 10_000;
/// Products in the top-offers and pre-booking strips.
const STRIP_SHORT: i64 = 4;
/// Products in the new-arrivals strip.
const STRIP_NEW: i64 = 15;
/// Posts per "load more" step (the default `limit`).
const POSTS_STEP: i64 = 10;
/// Tiles per tag gallery page.
const TAG_TILES_STEP: i64 = 10;
/// Product sets on the home page.
const HOME_SETS: usize = 10;
/// The widget whose description heads the pre-booking strip.
const PREBOOKING_WIDGET: i64 = 15;

/// Routes under `/api/home`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/sliders",
            get_sliders,
            Doc::public("Sliders: {request, sliders}"),
        )
        .get(
            "/top-category",
            get_top_category,
            Doc::public("Top categories in the home_category order: {category}"),
        )
        .get(
            "/top-offers",
            get_top_offers,
            Doc::public("The first 4 recommended products: {products}"),
        )
        .get(
            "/prebookings",
            get_prebookings,
            Doc::public("Pre-booking widget and products: {info, products}"),
        )
        .get(
            "/new-arrivals",
            get_new_arrivals,
            Doc::public("The 15 newest products: {products}"),
        )
        .get(
            "/flash-sales",
            get_flash_sales,
            Doc::public("The running flash sale: {flash_schedule, flash_items}"),
        )
        .get(
            "/tag-gallary",
            get_tag_gallary,
            Doc::public("Tag gallery tiles: {terms, tag_gallary}")
                .answers(404, "No published category has this seo_url"),
        )
        .get(
            "/news-events",
            get_news_events,
            Doc::public("Newest news posts: {posts, dataInfo: {total_count}}"),
        )
        .get(
            "/blog-posts",
            get_blog_posts,
            Doc::public("Newest blog posts: {posts, dataInfo: {total_count}}"),
        )
        .get(
            "/blog-details",
            get_blog_details,
            Doc::public("One blog or news post: {post}")
                .answers(404, "No active post has this seo_url"),
        )
        .get(
            "/terms",
            get_terms,
            Doc::public("The top categories by id: {terms}"),
        )
        .get(
            "/product-set",
            get_product_set,
            Doc::public("The first 10 active product sets: {product_sets}"),
        )
        .get(
            "/settings",
            get_settings,
            Doc::public("The public site settings: {setting}"),
        )
}

/// Query pairs, decoded, for handlers that read them by hand (values are
/// checked by [`crate::surfaces::api::category::Params`]).
pub type Pairs = Query<Vec<(String, String)>>;

/// The answer of `GET /api/home/sliders`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SlidersResponse {
    /// The filters applied.
    pub request: SlidersRequest,
    pub sliders: Vec<q::Slider>,
}

/// The sliders asked for: `type` 0 is the main banner, 1 the featured strip;
/// `device` 0 all, 1 desktop, 2 mobile.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SlidersRequest {
    #[serde(rename = "type")]
    pub kind: i64,
    pub device: i64,
}

/// The parameters of `GET /api/home/sliders`.
#[derive(Debug, Deserialize, JsonSchema)]
struct SlidersQuery {
    /// 0 the main banner (default), 1 the featured strip.
    #[serde(rename = "type", default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    kind: Option<Int<0, 1>>,
    /// 0 all (default), 1 desktop, 2 mobile.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    device: Option<Int<0, 2>>,
}

/// `GET /api/home/sliders?device=0&type=0`: `{request, sliders}`.
async fn get_sliders(
    State(state): State<AppState>,
    Query(query): Query<SlidersQuery>,
) -> ApiResult<Shared<SlidersResponse>> {
    let kind = query.kind.map_or(0, Int::get);
    let device = query.device.map_or(0, Int::get);
    let sliders = q::sliders(&state.pool, kind, device).await?;
    Ok(Shared::new(
        SlidersResponse {
            request: SlidersRequest { kind, device },
            sliders,
        },
        [SurrogateKey::Home, SurrogateKey::Sliders],
    ))
}

/// The answer of `GET /api/home/top-category`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TopCategoryResponse {
    /// The home page's category tiles, in the order of the `home_category` setting.
    pub category: Vec<q::TopCategory>,
}

/// `GET /api/home/top-category`: `{category}` in the order of the
/// `home_category` setting.
async fn get_top_category(State(state): State<AppState>) -> ApiResult<Shared<TopCategoryResponse>> {
    let settings = site::settings(&state.pool).await?;
    let ids = q::id_list(settings.get("home_category").map_or("", String::as_str));
    let category = q::categories_in_order(&state.pool, &ids).await?;
    let mut keys = vec![
        SurrogateKey::Home.to_string(),
        SurrogateKey::Categories.to_string(),
        SurrogateKey::Setting.to_string(),
    ];
    keys.extend(
        category
            .iter()
            .map(|c| SurrogateKey::Category(c.id).to_string()),
    );
    Ok(Shared::new(TopCategoryResponse { category }, keys))
}

/// A list of product cards: the home strips, `common/top-offers`, the related
/// lists of a product page and the recently viewed strip.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductsResponse {
    pub products: Vec<ProductCard>,
}

/// A home product strip: `{products}` of cards, tagged.
async fn strip(state: &AppState, ids: &[i64]) -> ApiResult<Shared<ProductsResponse>> {
    let products = cards(&state.pool, ids, catalog::clock::now_unix()).await?;
    let keys = surrogate::with_products(
        &[
            SurrogateKey::Home,
            SurrogateKey::Products,
            SurrogateKey::Flash,
        ],
        products.iter().map(|p| p.id),
    );
    Ok(Shared::new(ProductsResponse { products }, keys))
}

/// `GET /api/home/top-offers`: `{products}`, the first 4 recommended products
/// by their serial.
async fn get_top_offers(State(state): State<AppState>) -> ApiResult<Shared<ProductsResponse>> {
    let ids = q::top_offer_ids(&state.pool, STRIP_SHORT).await?;
    strip(&state, &ids).await
}

/// The answer of `GET /api/home/prebookings`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PrebookingsResponse {
    /// The pre-booking widget (15), active or not; null when there is none.
    pub info: Option<q::Widget>,
    /// Up to 4 pre-booking products, only while the widget is active.
    pub products: Vec<ProductCard>,
}

/// `GET /api/home/prebookings`: `{info, products}`: the pre-booking widget
/// (15) and, only while it is active, up to 4 pre-booking products.
async fn get_prebookings(State(state): State<AppState>) -> ApiResult<Shared<PrebookingsResponse>> {
    let info = q::widget(&state.pool, PREBOOKING_WIDGET).await?;
    let ids = match &info {
        Some(w) if w.is_active => q::prebooking_ids(&state.pool, STRIP_SHORT).await?,
        _ => Vec::new(),
    };
    let products = cards(&state.pool, &ids, catalog::clock::now_unix()).await?;
    let keys = surrogate::with_products(
        &[
            SurrogateKey::Home,
            SurrogateKey::Products,
            SurrogateKey::Flash,
            SurrogateKey::Widget(PREBOOKING_WIDGET),
        ],
        products.iter().map(|p| p.id),
    );
    Ok(Shared::new(PrebookingsResponse { info, products }, keys))
}

/// `GET /api/home/new-arrivals`: `{products}`, the 15 newest.
async fn get_new_arrivals(State(state): State<AppState>) -> ApiResult<Shared<ProductsResponse>> {
    let ids = q::new_arrival_ids(&state.pool, STRIP_NEW).await?;
    strip(&state, &ids).await
}

/// The answer of `GET /api/home/flash-sales`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlashSalesResponse {
    /// The running sale; null when none runs.
    pub flash_schedule: Option<flash::FlashSchedule>,
    /// Every item of the running sale (a plain list, empty when none runs).
    pub flash_items: Vec<flash::FlashItem>,
}

/// `GET /api/home/flash-sales`: `{flash_schedule, flash_items}` of the running
/// sale (every item, a plain list); `null` and `[]` when none runs.
async fn get_flash_sales(State(state): State<AppState>) -> ApiResult<Shared<FlashSalesResponse>> {
    let now = catalog::clock::now_unix();
    let schedule = flash::running_flash(&state.pool, now).await?;
    let items = match &schedule {
        Some(s) => flash::flash_items(&state.pool, s.id, i64::MAX, 0, now).await?,
        None => Vec::new(),
    };
    let keys = surrogate::with_products(
        &[
            SurrogateKey::Home,
            SurrogateKey::Flash,
            SurrogateKey::Products,
        ],
        items.iter().map(|i| i.fi_product_id),
    );
    Ok(Shared::new(
        FlashSalesResponse {
            flash_schedule: schedule,
            flash_items: items,
        },
        keys,
    ))
}

/// The answer of `GET /api/home/tag-gallary` (the original's spelling).
#[derive(Debug, Serialize, JsonSchema)]
pub struct TagGallaryResponse {
    /// The gallery's tabs: categories that have tiles of their own.
    pub terms: Vec<q::TagTerm>,
    pub tag_gallary: Vec<q::TagTile>,
}

/// The parameters of `GET /api/home/tag-gallary`.
#[derive(Debug, Deserialize, JsonSchema)]
struct TagGallaryQuery {
    /// A category's seo_url, for its tiles instead of the home tiles (empty
    /// is none).
    #[serde(default)]
    seo_url: Option<Text<0, MAX_PARAM_LEN>>,
    /// Pages of 10 home tiles to include (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    page: Option<Int<1, MAX_PAGE>>,
}

/// `GET /api/home/tag-gallary?seo_url=&page=`: `{terms, tag_gallary}`. Without
/// `seo_url` the home tiles, `page × 10` of them; with a category's `seo_url`
/// its first 10 (404 for an unknown category).
async fn get_tag_gallary(
    State(state): State<AppState>,
    Query(query): Query<TagGallaryQuery>,
) -> ApiResult<Shared<TagGallaryResponse>> {
    let page = query.page.map_or(1, Int::get);
    let seo_url = query.seo_url.as_deref().unwrap_or("");
    let (category, limit) = if seo_url.is_empty() {
        (None, page * TAG_TILES_STEP)
    } else {
        let c = cq::by_seo_url(&state.pool, seo_url)
            .await?
            .ok_or_else(|| ApiError::not_found("Category not found"))?;
        (Some(c.id), TAG_TILES_STEP)
    };
    let terms = q::tag_terms(&state.pool).await?;
    let tiles = q::tag_tiles(&state.pool, category, limit).await?;
    let mut keys = vec![
        SurrogateKey::Home.to_string(),
        SurrogateKey::Categories.to_string(),
    ];
    keys.extend(category.map(|id| SurrogateKey::Category(id).to_string()));
    Ok(Shared::new(
        TagGallaryResponse {
            terms,
            tag_gallary: tiles,
        },
        keys,
    ))
}

/// The answer of `GET /api/home/news-events` and `GET /api/home/blog-posts`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PostsResponse {
    /// The newest posts, at most `limit`.
    pub posts: Vec<content::PostCard>,
    #[serde(rename = "dataInfo")]
    pub data_info: PostsDataInfo,
}

/// How many posts of the kind there are (for "load more").
#[derive(Debug, Serialize, JsonSchema)]
pub struct PostsDataInfo {
    pub total_count: i64,
}

/// The parameter of `news-events` and `blog-posts`.
#[derive(Debug, Deserialize, JsonSchema)]
struct PostsQuery {
    /// Posts to return (default 10).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    limit: Option<Int<1, MAX_LIMIT>>,
}

/// `{posts, dataInfo: {total_count}}` of `kind`, at most `limit`.
async fn post_list(
    state: &AppState,
    query: PostsQuery,
    kind: &str,
) -> ApiResult<Shared<PostsResponse>> {
    let limit = query.limit.map_or(POSTS_STEP, Int::get);
    let (posts, total) = content::posts(&state.pool, kind, limit).await?;
    let mut keys = vec![SurrogateKey::Posts.to_string()];
    keys.extend(posts.iter().map(|p| SurrogateKey::Post(p.id).to_string()));
    Ok(Shared::new(
        PostsResponse {
            posts,
            data_info: PostsDataInfo { total_count: total },
        },
        keys,
    ))
}

/// `GET /api/home/news-events?limit=10`: the newest news posts and their total.
async fn get_news_events(
    State(state): State<AppState>,
    Query(query): Query<PostsQuery>,
) -> ApiResult<Shared<PostsResponse>> {
    post_list(&state, query, "news").await
}

/// `GET /api/home/blog-posts?limit=10`: the newest blog posts and their total.
async fn get_blog_posts(
    State(state): State<AppState>,
    Query(query): Query<PostsQuery>,
) -> ApiResult<Shared<PostsResponse>> {
    post_list(&state, query, "blog").await
}

/// The answer of `GET /api/home/blog-details`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct BlogDetailsResponse {
    /// The blog or news post.
    pub post: content::PostDetail,
}

/// The parameter of `GET /api/home/blog-details`.
#[derive(Debug, Deserialize, JsonSchema)]
struct BlogDetailsQuery {
    /// The post's seo_url.
    #[schemars(required)]
    seo_url: Option<Text<1, MAX_PARAM_LEN>>,
}

/// `GET /api/home/blog-details?seo_url=`: `{post}` (blog or news; 404 when unknown).
async fn get_blog_details(
    State(state): State<AppState>,
    Query(query): Query<BlogDetailsQuery>,
) -> ApiResult<Shared<BlogDetailsResponse>> {
    let seo_url = required(query.seo_url, "seo_url")?;
    let post = content::post(&state.pool, &seo_url, catalog::clock::now_unix())
        .await?
        .ok_or_else(|| ApiError::not_found("Post not found"))?;
    let key = SurrogateKey::Post(post.id);
    Ok(Shared::new(
        BlogDetailsResponse { post },
        [key, SurrogateKey::Posts],
    ))
}

/// Terms as a JSON object keyed by their id, in the order given (the
/// original's shape: an object, not a list).
#[derive(Debug)]
pub struct TermsById(pub Vec<content::Term>);

impl Serialize for TermsById {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|t| (t.id.to_string(), t)))
    }
}

impl JsonSchema for TermsById {
    fn schema_name() -> Cow<'static, str> {
        "TermsById".into()
    }

    /// An object of terms keyed by id, which is what a map of them documents.
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        BTreeMap::<String, content::Term>::json_schema(generator)
    }
}

/// The answer of `GET /api/home/terms` and `GET /api/common/all-terms`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TermsResponse {
    /// The categories keyed by id.
    pub terms: TermsById,
}

/// `GET /api/home/terms`: `{terms: {<id>: term}}`, the top categories.
async fn get_terms(State(state): State<AppState>) -> ApiResult<Shared<TermsResponse>> {
    let terms = content::terms(&state.pool, Some(ROOT_ID)).await?;
    Ok(Shared::new(
        TermsResponse {
            terms: TermsById(terms),
        },
        [SurrogateKey::Home, SurrogateKey::Categories],
    ))
}

/// A product set as the home page and `common/product-set` list it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductSetCard {
    pub id: i64,
    pub title: String,
    pub slug: String,
    /// The set's icon image path, or null.
    pub image_url: Option<String>,
    /// Σ qty × the price a shopper pays now, taka.
    pub price: i64,
    /// The same as `price`.
    pub price_all: i64,
}

/// The answer of `GET /api/home/product-set` and `GET /api/common/product-set`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductSetsResponse {
    pub product_sets: Vec<ProductSetCard>,
}

/// Active product sets as [`ProductSetCard`]s, at most `limit`, and their keys.
pub async fn product_set_tiles(
    state: &AppState,
    limit: usize,
) -> ApiResult<(Vec<ProductSetCard>, Vec<String>)> {
    let sets = cq::product_sets(
        &state.pool,
        ROOT_ID,
        0,
        i64::MAX,
        catalog::clock::now_unix(),
    )
    .await?;
    let mut keys = vec![
        SurrogateKey::ProductSets.to_string(),
        SurrogateKey::Products.to_string(),
        SurrogateKey::Flash.to_string(),
    ];
    let tiles = sets
        .into_iter()
        .take(limit)
        .map(|s| {
            keys.push(SurrogateKey::ProductSet(s.id).to_string());
            ProductSetCard {
                id: s.id,
                title: s.title,
                slug: s.slug,
                image_url: s.image_url,
                price: s.price_all,
                price_all: s.price_all,
            }
        })
        .collect();
    Ok((tiles, keys))
}

/// `GET /api/home/product-set`: `{product_sets}`, the first 10 active sets.
async fn get_product_set(State(state): State<AppState>) -> ApiResult<Shared<ProductSetsResponse>> {
    let (product_sets, mut keys) = product_set_tiles(&state, HOME_SETS).await?;
    keys.push(SurrogateKey::Home.to_string());
    Ok(Shared::new(ProductSetsResponse { product_sets }, keys))
}

/// Whether a setting's name marks it as not for the public (a payment
/// gateway's password, an API key...): such rows may be added by the admin
/// system, and `home/settings` is cached at the edge for everyone.
pub fn is_private_setting(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    [
        "password", "secret", "token", "api_key", "apikey", "private",
    ]
    .iter()
    .any(|word| name.contains(word))
}

/// The answer of `GET /api/home/settings`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SettingsResponse {
    /// The public site settings by name (`com_name`, `home_category`...),
    /// values as stored; secrets are left out.
    pub setting: BTreeMap<String, String>,
}

/// `GET /api/home/settings`: `{setting}`, the public site settings as one object.
async fn get_settings(State(state): State<AppState>) -> ApiResult<Shared<SettingsResponse>> {
    let mut setting = site::settings(&state.pool).await?;
    setting.retain(|name, _| !is_private_setting(name));
    Ok(Shared::new(
        SettingsResponse { setting },
        [SurrogateKey::Setting],
    ))
}

#[cfg(test)]
mod tests {
    use super::is_private_setting;

    #[test]
    fn secrets_are_not_public_settings() {
        for name in [
            "sslcommerz_store_password",
            "BKASH_APP_SECRET",
            "sms_api_key",
            "nagad_private_key",
            "fb_token",
        ] {
            assert!(is_private_setting(name), "{name}");
        }
        for name in [
            "com_name",
            "com_metakeywords",
            "footer_support",
            "home_category",
        ] {
            assert!(!is_private_setting(name), "{name}");
        }
    }
}
