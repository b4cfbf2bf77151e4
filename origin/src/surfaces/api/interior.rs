//! The Interior group of SPEC.md §7 (the "gallery" pages):
//! `/api/interior/{all, show, category}`. Every answer is public, tagged
//! `interiors` and `interior:{id}`.

use axum::extract::State;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::read::interior as q;
use catalog::read::{PageRequest, Paginator};
use catalog::surrogate::SurrogateKey;

use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Query;
use crate::plumbing::params::{blank_allowed, blank_is_none, required, Int, Text};
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};
use crate::surfaces::api::home::MAX_PAGE;

/// Galleries per page of `interior/all`.
const PER_PAGE: i64 = 10;

/// Routes under `/api/interior`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .get(
            "/all",
            get_all,
            Doc::public("Interior galleries, 10 a page: {interiors: paginator, category}")
                .answers(404, "No published interior category has this seo_url"),
        )
        .get(
            "/show",
            get_show,
            Doc::public("One interior with its photos: {interior}")
                .answers(404, "No active interior has this slug"),
        )
        .get(
            "/category",
            get_category,
            Doc::public("Interior categories: {parent, category}")
                .answers(404, "No published interior category has this seo_url"),
        )
}

/// The parameters of `GET /api/interior/all`.
#[derive(Debug, Deserialize, JsonSchema)]
struct AllQuery {
    /// An interior category's seo_url, for its galleries and its
    /// sub-categories'; all when absent or empty.
    #[serde(default)]
    seo_url: Option<Text<0, MAX_PARAM_LEN>>,
    /// Page number (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    page: Option<Int<1, MAX_PAGE>>,
}

/// The parameter of `GET /api/interior/show`.
#[derive(Debug, Deserialize, JsonSchema)]
struct ShowQuery {
    /// The interior's slug.
    #[schemars(required)]
    slug: Option<Text<1, MAX_PARAM_LEN>>,
}

/// The parameter of `GET /api/interior/category`.
#[derive(Debug, Deserialize, JsonSchema)]
struct CategoryQuery {
    /// The parent interior category's seo_url (the root, `interiors`, when
    /// absent or empty).
    #[serde(default)]
    seo_url: Option<Text<0, MAX_PARAM_LEN>>,
}

/// The interior category named by the `seo_url` parameter (404 when unknown).
async fn category_of(state: &AppState, seo_url: &str) -> ApiResult<q::InteriorCategory> {
    q::category(&state.pool, seo_url)
        .await?
        .ok_or_else(|| ApiError::not_found("Interior category not found"))
}

/// An interior category named in an answer.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InteriorCategoryLink {
    pub id: i64,
    pub name: String,
    pub seo_url: String,
}

impl From<q::InteriorCategory> for InteriorCategoryLink {
    fn from(c: q::InteriorCategory) -> InteriorCategoryLink {
        InteriorCategoryLink {
            id: c.id,
            name: c.name,
            seo_url: c.seo_url,
        }
    }
}

/// The answer of `GET /api/interior/all`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InteriorsResponse {
    /// The galleries with their photos, newest first, 10 a page.
    pub interiors: Paginator<q::Interior>,
    /// The category asked for by `seo_url`; null without one.
    pub category: Option<InteriorCategoryLink>,
}

/// `GET /api/interior/all?seo_url=&page=`: `{interiors: paginator(10),
/// category}`; with an interior category's `seo_url`, its galleries (and its
/// sub-categories'), else all.
async fn get_all(
    State(state): State<AppState>,
    Query(query): Query<AllQuery>,
) -> ApiResult<Shared<InteriorsResponse>> {
    let page = PageRequest::new(query.page.map_or(1, Int::get), PER_PAGE);
    let seo_url = query.seo_url.as_deref().unwrap_or("");
    let category = if seo_url.is_empty() {
        None
    } else {
        Some(category_of(&state, seo_url).await?)
    };
    let subtree = match &category {
        Some(c) => Some(q::subtree_ids(&state.pool, c.id).await?),
        None => None,
    };
    let (rows, total) = q::interiors(&state.pool, subtree.as_deref(), page).await?;
    let mut keys = vec![SurrogateKey::Interiors.to_string()];
    keys.extend(
        rows.iter()
            .map(|i| SurrogateKey::Interior(i.id).to_string()),
    );
    let keep: Vec<(String, String)> = category
        .iter()
        .map(|c| ("seo_url".to_string(), c.seo_url.clone()))
        .collect();
    let paginator = Paginator::new(rows, total, page, "/api/interior/all", &keep);
    Ok(Shared::new(
        InteriorsResponse {
            interiors: paginator,
            category: category.map(InteriorCategoryLink::from),
        },
        keys,
    ))
}

/// The answer of `GET /api/interior/show`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InteriorResponse {
    /// The gallery with its photos.
    pub interior: q::Interior,
}

/// `GET /api/interior/show?slug=`: `{interior}` with its photos (404 when unknown).
async fn get_show(
    State(state): State<AppState>,
    Query(query): Query<ShowQuery>,
) -> ApiResult<Shared<InteriorResponse>> {
    let slug = required(query.slug, "slug")?;
    let interior = q::by_slug(&state.pool, &slug)
        .await?
        .ok_or_else(|| ApiError::not_found("Interior not found"))?;
    let key = SurrogateKey::Interior(interior.id);
    Ok(Shared::new(
        InteriorResponse { interior },
        [key, SurrogateKey::Interiors],
    ))
}

/// The answer of `GET /api/interior/category`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct InteriorCategoriesResponse {
    /// The category asked for (the root `interiors` by default).
    pub parent: InteriorCategoryLink,
    /// Its published children, by serial.
    pub category: Vec<q::InteriorCategory>,
}

/// `GET /api/interior/category?seo_url=interiors`: `{parent: {id, name, seo_url},
/// category: [{id, name, seo_url, description, parent, image_url}]}`, the
/// category and its published children (`seo_url` defaults to the root
/// `interiors`).
async fn get_category(
    State(state): State<AppState>,
    Query(query): Query<CategoryQuery>,
) -> ApiResult<Shared<InteriorCategoriesResponse>> {
    let seo_url = query
        .seo_url
        .as_deref()
        .filter(|s| !s.is_empty())
        .unwrap_or(q::ROOT_SEO_URL);
    let parent = category_of(&state, seo_url).await?;
    let children = q::children(&state.pool, parent.id).await?;
    let keys = [SurrogateKey::Interiors, SurrogateKey::Category(parent.id)];
    Ok(Shared::new(
        InteriorCategoriesResponse {
            parent: parent.into(),
            category: children,
        },
        keys,
    ))
}
