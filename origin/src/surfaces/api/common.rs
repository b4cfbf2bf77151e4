//! The Common group of SPEC.md §7: `/api/common/{main-search-product, header,
//! footer, product-set, top-offers, flash-sales, districts, showrooms, page,
//! all-terms, menu_items, showroom-chatbuy, widget}` and
//! `POST /api/common/get-seo-content`. Every GET answer is the same for every
//! visitor and so public (cached and tagged); the SEO lookup is a POST and
//! stays private. Unknown query parameters are ignored; known ones are read
//! by typed queries, which check them.

use axum::extract::State;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use catalog::read::home::{self as hq};
use catalog::read::site::MenuLink;
use catalog::read::{cards, content, flash, PageRequest, Paginator};
use catalog::surrogate::{self, SurrogateKey};

use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{Json as JsonBody, Query};
use crate::plumbing::params::{blank_allowed, blank_is_none, required, Id, Int, Text, MAX_ID};
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::home::{
    product_set_tiles, ProductSetsResponse, ProductsResponse, TermsById, TermsResponse, MAX_PAGE,
};

mod contact;
pub(crate) mod districts;

/// Flash sale items per page of `common/flash-sales`.
const FLASH_PER_PAGE: i64 = 30;
/// Most products `common/top-offers` lists.
const TOP_OFFERS_LIMIT: i64 = 100;

/// An optional text parameter (empty is none).
type OptText = Option<Text<0, MAX_PARAM_LEN>>;

/// Routes under `/api/common`.
pub fn router() -> ApiRouter {
    let unknown_district = "No district has this name, Bangla name or alias";
    ApiRouter::new()
        .get(
            "/main-search-product",
            get_search,
            Doc::public("Search suggestions: {search (products), terms (at most 8 categories)}"),
        )
        .get(
            "/header",
            get_header,
            Doc::public("Header menus (at most 4 top links) and settings"),
        )
        .get(
            "/footer",
            get_footer,
            Doc::public("Footer menu columns and support block: {menus, support}"),
        )
        .get(
            "/product-set",
            get_product_set,
            Doc::public("Every active product set: {product_sets}"),
        )
        .get(
            "/top-offers",
            get_top_offers,
            Doc::public("Recommended products, newest first: {products}"),
        )
        .get(
            "/flash-sales",
            get_flash_sales,
            Doc::public("The running flash sale: {flash_schedule, flash_items: paginator}"),
        )
        .get(
            "/districts",
            get_districts,
            Doc::public("All 64 districts with their divisions and delivery zones: {districts}"),
        )
        .get(
            "/districts-by-diviison/{division}",
            districts::get_districts_by_division,
            Doc::public("A division's districts (by the division's id, name, Bangla name or old spelling; the original's spelling of the path) as a bare array of common/districts rows")
                .answers(404, "No division has this id or name"),
        )
        .get(
            "/showrooms",
            get_showrooms,
            Doc::public("Showrooms: {showrooms}").answers(404, unknown_district),
        )
        .get(
            "/page",
            get_page,
            Doc::public("A CMS page: {page}").answers(404, "No active page has this id"),
        )
        .get(
            "/all-terms",
            get_all_terms,
            Doc::public("Every published category by id: {terms}"),
        )
        .get(
            "/menu_items",
            get_menu_items,
            Doc::public("The side menu's product tree: {menu_items}"),
        )
        .get(
            "/showroom-chatbuy",
            get_chatbuy,
            Doc::public("Chat-to-buy points: {chatbuy}").answers(404, unknown_district),
        )
        .get(
            "/widget",
            get_widget,
            Doc::public("A widget (22 the EMI details, 5 the pre-load advert): {widget}")
                .answers(404, "No widget has this id"),
        )
        .post(
            "/contact",
            contact::post_contact,
            Doc::open("The contact form: {name, contact (mobile or e-mail), message}, kept and mailed to the shop; JSON or a form body; a browser navigation (Accept: text/html first) is answered 303 to /page/contact#sent (or #not-sent)")
                .answers(429, "Too many messages from this client; see Retry-After")
                .redirects(303, "A browser's form: back to the contact page"),
        )
        .post(
            "/get-seo-content",
            post_seo_content,
            Doc::public("SEO content of a page: {status, setting}")
                .answers(404, "No product, category, page or post has this id"),
        )
}

/// The answer of `GET /api/common/main-search-product`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchResponse {
    /// The matching products, best first.
    pub search: Vec<content::SearchHit>,
    /// At most 8 matching categories.
    pub terms: Vec<content::SearchTerm>,
    /// True when no product has every word of the keyword and the products
    /// are those of fewer words (the panel says "Showing results for …").
    pub relaxed: bool,
    /// When `relaxed`: the words the products match, as typed ("sofa" for
    /// "sofa qqxxzz"; "wardrobe or lamp" when no product has both and each
    /// has one). Absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relaxed_query: Option<String>,
}

/// The parameter of `GET /api/common/main-search-product`.
#[derive(Debug, Deserialize, JsonSchema)]
struct SearchQuery {
    /// What the shopper typed; none (or empty) gives empty lists.
    #[serde(default)]
    keyword: OptText,
}

/// `GET /api/common/main-search-product?keyword=`: `{search, terms,
/// relaxed, relaxed_query?}`: matching products (`url` =
/// `/product/<seo_url>`), at most 8 matching categories, and whether the
/// products are those of a relaxed query (no product has every word). An
/// empty keyword answers two empty lists.
async fn get_search(
    State(state): State<AppState>,
    Query(query): Query<SearchQuery>,
) -> ApiResult<Shared<SearchResponse>> {
    let keyword = query.keyword.as_deref().unwrap_or("");
    // Answered from the search index alone (titles are stored in it).
    let (search, relaxed_query) = state
        .search
        .suggest_relaxed(keyword, content::SEARCH_PRODUCTS_LIMIT as usize)?;
    let terms = state
        .search
        .categories(keyword, content::SEARCH_TERMS_LIMIT as usize);
    let keys = surrogate::with_products(
        &[SurrogateKey::Products, SurrogateKey::Categories],
        search.iter().map(|h| h.id),
    );
    Ok(Shared::new(
        SearchResponse {
            search,
            terms,
            relaxed: relaxed_query.is_some(),
            relaxed_query,
        },
        keys,
    ))
}

/// The answer of `GET /api/common/header`: catalog's header data as it is.
pub type HeaderResponse = content::Header;

/// `GET /api/common/header`: `{menus (≤ 4), child_menus, child_sub_menus,
/// offer_title, category_title, flash_sale_title}`.
async fn get_header(State(state): State<AppState>) -> ApiResult<Shared<HeaderResponse>> {
    let header = content::header(&state.pool).await?;
    Ok(Shared::new(
        header,
        [SurrogateKey::Menu, SurrogateKey::Setting],
    ))
}

/// The answer of `GET /api/common/footer`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FooterResponse {
    /// The footer's columns, in menu order.
    pub menus: Vec<content::FooterColumn>,
    /// The support block, HTML (setting `footer_support`).
    pub support: String,
}

/// `GET /api/common/footer`: `{menus: [{title, data: [{label, link}]}], support}`.
async fn get_footer(State(state): State<AppState>) -> ApiResult<Shared<FooterResponse>> {
    let (menus, support) = content::footer(&state.pool).await?;
    Ok(Shared::new(
        FooterResponse { menus, support },
        [SurrogateKey::Menu, SurrogateKey::Setting],
    ))
}

/// `GET /api/common/product-set`: `{product_sets}`, every active set.
async fn get_product_set(State(state): State<AppState>) -> ApiResult<Shared<ProductSetsResponse>> {
    let (product_sets, keys) = product_set_tiles(&state, usize::MAX).await?;
    Ok(Shared::new(ProductSetsResponse { product_sets }, keys))
}

/// `GET /api/common/top-offers`: `{products}`, recommended products newest first.
async fn get_top_offers(State(state): State<AppState>) -> ApiResult<Shared<ProductsResponse>> {
    let ids = hq::recommended_ids(&state.pool, TOP_OFFERS_LIMIT).await?;
    let products = cards(&state.pool, &ids, catalog::clock::now_unix()).await?;
    let keys = surrogate::with_products(
        &[SurrogateKey::Products, SurrogateKey::Flash],
        products.iter().map(|p| p.id),
    );
    Ok(Shared::new(ProductsResponse { products }, keys))
}

/// The answer of `GET /api/common/flash-sales`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlashSalePageResponse {
    /// The running sale; null when none runs.
    pub flash_schedule: Option<flash::FlashSchedule>,
    /// One page of its items, 30 a page (an empty page when none runs).
    pub flash_items: Paginator<flash::FlashItem>,
}

/// The parameter of `GET /api/common/flash-sales`.
#[derive(Debug, Deserialize, JsonSchema)]
struct PageQuery {
    /// Page number (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    page: Option<Int<1, MAX_PAGE>>,
}

/// `GET /api/common/flash-sales?page=`: `{flash_schedule, flash_items:
/// paginator(30)}` of the running sale; `null` and an empty page when none runs.
async fn get_flash_sales(
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Shared<FlashSalePageResponse>> {
    let page = PageRequest::new(query.page.map_or(1, Int::get), FLASH_PER_PAGE);
    let now = catalog::clock::now_unix();
    let schedule = flash::running_flash(&state.pool, now).await?;
    let (items, total) = match &schedule {
        Some(s) => (
            flash::flash_items(&state.pool, s.id, page.limit(), page.offset(), now).await?,
            flash::flash_item_count(&state.pool, s.id).await?,
        ),
        None => (Vec::new(), 0),
    };
    let keys = surrogate::with_products(
        &[SurrogateKey::Flash, SurrogateKey::Products],
        items.iter().map(|i| i.fi_product_id),
    );
    let paginator = Paginator::new(items, total, page, "/api/common/flash-sales", &[]);
    Ok(Shared::new(
        FlashSalePageResponse {
            flash_schedule: schedule,
            flash_items: paginator,
        },
        keys,
    ))
}

/// The answer of `GET /api/common/districts`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DistrictsResponse {
    /// All 64, by name, with their divisions and delivery zones.
    pub districts: Vec<content::District>,
}

/// `GET /api/common/districts`: `{districts}`, all 64 with their divisions.
async fn get_districts(State(state): State<AppState>) -> ApiResult<Shared<DistrictsResponse>> {
    let districts = content::districts(&state.pool).await?;
    Ok(Shared::new(
        DistrictsResponse { districts },
        [SurrogateKey::Districts],
    ))
}

/// The parameters of `showrooms` and `showroom-chatbuy`.
#[derive(Debug, Deserialize, JsonSchema)]
struct PointsQuery {
    /// A district's name, Bangla name or alias; all when absent or empty.
    #[serde(default)]
    district: OptText,
    /// A thana within the district; all when absent or empty.
    #[serde(default)]
    thana: OptText,
}

/// Showrooms or chat-to-buy points for the optional `district` (name, Bangla
/// name or alias; 404 when unknown) and `thana`.
async fn points(
    state: &AppState,
    query: PointsQuery,
    shop_type: &str,
) -> ApiResult<Vec<content::Showroom>> {
    let district = match query.district.as_deref().filter(|d| !d.is_empty()) {
        Some(name) => Some(
            content::district_id(&state.pool, name)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("District {name:?} not found")))?,
        ),
        None => None,
    };
    let thana = query.thana.as_deref().filter(|t| !t.is_empty());
    Ok(content::showrooms(&state.pool, shop_type, district, thana).await?)
}

/// The surrogate keys of a list of points.
const POINTS_KEYS: [SurrogateKey; 2] = [SurrogateKey::Showrooms, SurrogateKey::Districts];

/// The answer of `GET /api/common/showrooms`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ShowroomsResponse {
    /// Active showrooms, by district and title.
    pub showrooms: Vec<content::Showroom>,
}

/// `GET /api/common/showrooms?district=&thana=`: `{showrooms}`.
async fn get_showrooms(
    State(state): State<AppState>,
    Query(query): Query<PointsQuery>,
) -> ApiResult<Shared<ShowroomsResponse>> {
    let showrooms = points(&state, query, "Showroom").await?;
    Ok(Shared::new(ShowroomsResponse { showrooms }, POINTS_KEYS))
}

/// The answer of `GET /api/common/showroom-chatbuy`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChatbuyResponse {
    /// Active chat-to-buy points, by district and title.
    pub chatbuy: Vec<content::Showroom>,
}

/// `GET /api/common/showroom-chatbuy?district=`: `{chatbuy}`, the chat-to-buy points.
async fn get_chatbuy(
    State(state): State<AppState>,
    Query(query): Query<PointsQuery>,
) -> ApiResult<Shared<ChatbuyResponse>> {
    let chatbuy = points(&state, query, "Chatbuy").await?;
    Ok(Shared::new(ChatbuyResponse { chatbuy }, POINTS_KEYS))
}

/// The parameter of `GET /api/common/page`.
#[derive(Debug, Deserialize, JsonSchema)]
struct PageIdQuery {
    /// The page's id.
    #[schemars(required)]
    id: Option<Id>,
}

/// The answer of `GET /api/common/page`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PageResponse {
    pub page: content::Page,
}

/// `GET /api/common/page?id=`: `{page}` (404 when unknown or inactive).
async fn get_page(
    State(state): State<AppState>,
    Query(query): Query<PageIdQuery>,
) -> ApiResult<Shared<PageResponse>> {
    let id = required(query.id, "id")?.get();
    let page = content::page(&state.pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found("Page not found"))?;
    Ok(Shared::new(PageResponse { page }, [SurrogateKey::Page(id)]))
}

/// `GET /api/common/all-terms`: `{terms: {<id>: term}}`, every published category.
async fn get_all_terms(State(state): State<AppState>) -> ApiResult<Shared<TermsResponse>> {
    let terms = content::terms(&state.pool, None).await?;
    Ok(Shared::new(
        TermsResponse {
            terms: TermsById(terms),
        },
        [SurrogateKey::Categories],
    ))
}

/// The answer of `GET /api/common/menu_items`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MenuItemsResponse {
    /// The items of the `products` menu, in order; those with parent 21 are
    /// the top categories.
    pub menu_items: Vec<MenuLink>,
}

/// `GET /api/common/menu_items`: `{menu_items}`, the side menu's product tree
/// (items with parent 21 are the top categories).
async fn get_menu_items(State(state): State<AppState>) -> ApiResult<Shared<MenuItemsResponse>> {
    let menu_items = content::product_menu(&state.pool).await?;
    Ok(Shared::new(
        MenuItemsResponse { menu_items },
        [SurrogateKey::Menu],
    ))
}

/// The widget `common/widget` answers without an `id`: the EMI details
/// (SPEC.md §7: "default 22 for the EMI details").
const DEFAULT_WIDGET: i64 = 22;

/// The answer of `GET /api/common/widget`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct WidgetResponse {
    /// The widget, active or not (the client reads `is_active`).
    pub widget: hq::Widget,
}

/// The parameter of `GET /api/common/widget`.
#[derive(Debug, Deserialize, JsonSchema)]
struct WidgetQuery {
    /// The widget's id (default 22).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    id: Option<Id>,
}

/// `GET /api/common/widget?id=`: `{widget}`, active or not (the client reads
/// `is_active`); widget 22 without an id; 404 when no widget has the id.
async fn get_widget(
    State(state): State<AppState>,
    Query(query): Query<WidgetQuery>,
) -> ApiResult<Shared<WidgetResponse>> {
    let id = query.id.map_or(DEFAULT_WIDGET, Int::get);
    let widget = hq::widget(&state.pool, id)
        .await?
        .ok_or_else(|| ApiError::not_found("Widget not found"))?;
    Ok(Shared::new(
        WidgetResponse { widget },
        [SurrogateKey::Widget(id)],
    ))
}

/// The body of `get-seo-content`: `{"params": {"post_id", "post_type"}}`.
#[derive(Debug, Deserialize, JsonSchema)]
struct SeoRequest {
    /// What to look up.
    params: SeoParams,
}

/// The product, category, page or post whose SEO texts are asked for.
#[derive(Debug, Deserialize, JsonSchema)]
struct SeoParams {
    /// Its id, a positive whole number; the original client sends it as a
    /// number or as a string, so either is read.
    #[schemars(schema_with = "seo_post_id_schema")]
    post_id: Value,
    /// `product`, `category`, `page` or `post`.
    #[schemars(extend("enum" = content::SEO_POST_TYPES))]
    post_type: String,
}

/// What `post_id` may be: a whole number in `1..=`[`MAX_ID`], or the same
/// as text (at most 20 characters, spaces around allowed).
fn seo_post_id_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "oneOf": [
            { "type": "integer", "minimum": 1, "maximum": MAX_ID },
            { "type": "string", "maxLength": 20, "pattern": "^ *0*[1-9][0-9]{0,17} *$" }
        ]
    })
}

/// The answer of `POST /api/common/get-seo-content`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SeoContentResponse {
    /// `"1"` when texts are stored for it, `"0"` when `setting` holds the
    /// site-wide texts instead (the original's strings).
    pub status: &'static str,
    pub setting: content::SeoMeta,
}

/// `POST /api/common/get-seo-content` with `{"params": {"post_id", "post_type"}}`:
/// `{status: "1", setting: {meta_title, meta_description, meta_keywords}}`, or
/// `status: "0"` with the site-wide texts when none are stored for it; 404
/// when no such product, category, page or post exists.
async fn post_seo_content(
    State(state): State<AppState>,
    JsonBody(body): JsonBody<SeoRequest>,
) -> ApiResult<Json<SeoContentResponse>> {
    let SeoParams { post_id, post_type } = body.params;
    if post_type.chars().count() > MAX_PARAM_LEN
        || !content::SEO_POST_TYPES.contains(&post_type.as_str())
    {
        return Err(ApiError::invalid(
            "post_type",
            "post_type must be one of product, category, page, post",
        ));
    }
    // The original client sends the id as a number or as a string; a
    // number may be written as a float (`7.0` is the whole number 7, as in
    // JSON Schema; a float past i64 saturates and is out of range).
    let id = match &post_id {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) if s.len() <= 20 => s.trim().parse().ok(),
        _ => None,
    }
    .filter(|id| (1..=MAX_ID).contains(id))
    .ok_or_else(|| ApiError::invalid("post_id", "post_id must be a positive whole number"))?;
    if !content::seo_target_exists(&state.pool, &post_type, id).await? {
        return Err(ApiError::not_found(format!("No {post_type} with id {id}")));
    }
    let answer = match content::seo_meta(&state.pool, &post_type, id).await? {
        Some(meta) => SeoContentResponse {
            status: "1",
            setting: meta,
        },
        None => {
            let settings = catalog::read::site::settings(&state.pool).await?;
            SeoContentResponse {
                status: "0",
                setting: content::default_seo(&settings),
            }
        }
    };
    Ok(Json(answer))
}
