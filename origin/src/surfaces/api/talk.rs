//! What shoppers write and do on a product page, merged into
//! `/api/product`: questions and comments (signed in, length limited, rate
//! limited, kept unpublished until the shop answers or checks them; stored as
//! plain text, which the pages escape), the published ones read back, and the
//! recently-viewed record that a cached static page cannot keep by itself.
//! Questions and comments name their product by `product_id` or by
//! `seo_url` (the original client's name): exactly one, or both agreeing
//! (see [`talk::product_named`]).

use axum::extract::State;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::clock;
use catalog::read::product as q;
use catalog::surrogate::SurrogateKey;

use crate::domain::identity::{Caller, SignedIn};
use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::domain::talk::{self, Talk};
use crate::plumbing::cache::Shared;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{Json as Body, Query};
use crate::plumbing::params::{blank_allowed, blank_is_none, Id, Int, Text, Whole, MAX_WHOLE};
use crate::plumbing::validate;
use crate::state::AppState;
use crate::surfaces::api::answers::SuccessResponse;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Longest question or comment, characters.
pub const TALK_MAX_LEN: usize = 1000;
/// Default `limit` of question-index (the original client's 8).
const DEFAULT_QUESTIONS: i64 = 8;
/// Default `limit` of comment-index (the original client's 3).
const DEFAULT_COMMENTS: i64 = 3;
/// Largest `limit` answered: larger (sane) values are capped to it.
const MAX_TALK_LIMIT: i64 = 50;
/// Largest `limit` accepted at all (then capped); above it is a 400.
const MAX_TALK_LIMIT_ASKED: i64 = 1_000;

/// Routes merged into `/api/product`.
pub fn router() -> ApiRouter {
    let by_either = |summary| {
        Doc::public(summary).answers(404, "No active product has this product_id or seo_url")
    };
    ApiRouter::new()
        .get(
            "/question-index",
            get_questions,
            by_either("Published questions with answers, by product_id or seo_url (one of them; both must agree): {questions}"),
        )
        .get(
            "/comment-index",
            get_comments,
            by_either("Published comments, by product_id or seo_url (one of them; both must agree): {comments}"),
        )
        .post(
            "/question-store",
            post_question,
            Doc::signed_in("Asks a question about a product (product_id or seo_url: one of them; both must agree); shown once answered")
                .answers(404, "No such product")
                .answers(429, "Too many questions and comments just now"),
        )
        .post(
            "/comment-store",
            post_comment,
            Doc::signed_in("Comments on a product (product_id or seo_url: one of them; both must agree); shown once checked")
                .answers(404, "No such product")
                .answers(429, "Too many questions and comments just now"),
        )
        .post(
            "/recent-view",
            post_recent_view,
            Doc::visitor("Records that the caller viewed a product (the page itself is cached)")
                .answers(404, "No such product"),
        )
}

/// The parameters of `question-index` and `comment-index`: the product by
/// `product_id` or `seo_url`.
#[derive(Debug, Deserialize, JsonSchema)]
struct TalkQuery {
    /// The product's id (or give `seo_url`).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    product_id: Option<Id>,
    /// The product's seo_url (or give `product_id`).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    seo_url: Option<Text<1, MAX_PARAM_LEN>>,
    /// How many to return (default 8 questions or 3 comments; above 50 read
    /// as 50).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    limit: Option<Int<1, MAX_TALK_LIMIT_ASKED>>,
}

impl TalkQuery {
    /// The product named, and how many to list (`default` when not asked).
    async fn read(self, state: &AppState, default: i64) -> ApiResult<(i64, i64)> {
        let id = talk::product_named(
            &state.pool,
            self.product_id.map(Int::get),
            self.seo_url.as_deref(),
        )
        .await?;
        let limit = self.limit.map_or(default, Int::get).min(MAX_TALK_LIMIT);
        Ok((id, limit))
    }
}

/// The answer of `GET /api/product/question-index`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QuestionsResponse {
    /// The newest published questions, each with its answers.
    pub questions: Vec<q::Question>,
}

/// `GET /api/product/question-index?seo_url=&limit=` (or `product_id=`):
/// `{questions}`.
async fn get_questions(
    State(state): State<AppState>,
    Query(query): Query<TalkQuery>,
) -> ApiResult<Shared<QuestionsResponse>> {
    let (id, limit) = query.read(&state, DEFAULT_QUESTIONS).await?;
    let questions = q::questions(&state.pool, id, limit, clock::now_unix()).await?;
    Ok(Shared::new(
        QuestionsResponse { questions },
        [SurrogateKey::Product(id)],
    ))
}

/// The answer of `GET /api/product/comment-index`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CommentsResponse {
    /// The newest published comments.
    pub comments: Vec<q::Comment>,
}

/// `GET /api/product/comment-index?seo_url=&limit=` (or `product_id=`):
/// `{comments}`.
async fn get_comments(
    State(state): State<AppState>,
    Query(query): Query<TalkQuery>,
) -> ApiResult<Shared<CommentsResponse>> {
    let (id, limit) = query.read(&state, DEFAULT_COMMENTS).await?;
    let comments = q::comments(&state.pool, id, limit, clock::now_unix()).await?;
    Ok(Shared::new(
        CommentsResponse { comments },
        [SurrogateKey::Product(id)],
    ))
}

/// A question or a comment, about the product `product_id` or `seo_url`.
#[derive(Debug, Deserialize, JsonSchema)]
struct TalkBody {
    /// The product's id (or give `seo_url`).
    #[schemars(range(min = 1, max = MAX_WHOLE))]
    product_id: Option<Whole>,
    /// The product's seo_url (or give `product_id`).
    #[schemars(length(min = 1, max = MAX_PARAM_LEN))]
    seo_url: Option<String>,
    /// The question or comment, 5-1000 characters (also read as `comment`).
    #[serde(alias = "comment")]
    #[schemars(required, length(min = 5, max = 1000), pattern(r"\S"))]
    description: Option<String>,
}

/// The answer of `POST /api/product/question-store` and `comment-store`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TalkResponse {
    pub success: bool,
    /// The stored question's or comment's id.
    pub id: i64,
    /// When it will be shown.
    pub message: &'static str,
}

async fn store(
    state: &AppState,
    who: SignedIn,
    body: TalkBody,
    kind: Talk,
) -> ApiResult<Json<TalkResponse>> {
    let field = match kind {
        Talk::Question => "description",
        Talk::Comment => "comment",
    };
    let description = body.description.unwrap_or_default();
    let Some(text) = validate::text(&description, 5, TALK_MAX_LEN) else {
        return Err(ApiError::invalid(
            field,
            format!("Write 5 to {TALK_MAX_LEN} characters."),
        ));
    };
    if let Some(Whole(id)) = body.product_id {
        if !(1..=MAX_WHOLE).contains(&id) {
            return Err(ApiError::invalid(
                "product_id",
                "product_id must be a product's id",
            ));
        }
    }
    let seo_url = match body.seo_url.as_deref().map(str::trim) {
        Some(seo) if seo.is_empty() || seo.chars().count() > MAX_PARAM_LEN => {
            return Err(ApiError::invalid(
                "seo_url",
                format!("seo_url must be 1 to {MAX_PARAM_LEN} characters"),
            ))
        }
        seo => seo,
    };
    let product = talk::product_named(&state.pool, body.product_id.map(|p| p.0), seo_url).await?;
    let id = talk::store(
        &state.pool,
        kind,
        who.user.id,
        product,
        &text,
        clock::now_unix(),
    )
    .await?;
    Ok(Json(TalkResponse {
        success: true,
        id,
        message: match kind {
            Talk::Question => "Thank you. Your question will appear once the shop has answered it.",
            Talk::Comment => "Thank you. Your comment will appear once it has been checked.",
        },
    }))
}

/// `POST /api/product/question-store`.
async fn post_question(
    State(state): State<AppState>,
    who: SignedIn,
    Body(body): Body<TalkBody>,
) -> ApiResult<Json<TalkResponse>> {
    store(&state, who, body, Talk::Question).await
}

/// `POST /api/product/comment-store`.
async fn post_comment(
    State(state): State<AppState>,
    who: SignedIn,
    Body(body): Body<TalkBody>,
) -> ApiResult<Json<TalkResponse>> {
    store(&state, who, body, Talk::Comment).await
}

/// A product viewed.
#[derive(Debug, Deserialize, JsonSchema)]
struct ViewBody {
    /// The product's id (also read as `product_id`).
    #[serde(alias = "product_id")]
    #[schemars(required, range(min = 1, max = MAX_WHOLE))]
    pid: Option<Whole>,
}

/// `POST /api/product/recent-view` with `{pid}`: newest first, each product
/// once, at most [`talk::RECENT_KEEP`].
async fn post_recent_view(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<ViewBody>,
) -> ApiResult<Json<SuccessResponse>> {
    let owner = caller.owner()?;
    let product = body.pid.map_or(0, |p| p.0);
    if !talk::product_is_active(&state.pool, product).await? {
        return Err(ApiError::not_found("Product not found"));
    }
    talk::record_view(&state.pool, &owner, product, clock::now_unix()).await?;
    Ok(Json(SuccessResponse::OK))
}
