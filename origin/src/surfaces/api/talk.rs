//! What shoppers write and do on a product page, merged into
//! `/api/product`: questions and comments (signed in, length limited, rate
//! limited, kept unpublished until the shop answers or checks them; stored as
//! plain text, which the pages escape) and the recently-viewed record that a
//! cached static page cannot keep by itself.

use axum::extract::State;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::clock;

use crate::domain::identity::{Caller, SignedIn};
use crate::domain::talk::{self, Talk};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::plumbing::params::{Whole, MAX_WHOLE};
use crate::plumbing::validate;
use crate::state::AppState;
use crate::surfaces::api::answers::SuccessResponse;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Longest question or comment, characters.
pub const TALK_MAX_LEN: usize = 1000;

/// Routes merged into `/api/product`.
pub fn router() -> ApiRouter {
    ApiRouter::new()
        .post(
            "/question-store",
            post_question,
            Doc::signed_in("Asks a question about a product; shown once answered")
                .answers(404, "No such product")
                .answers(429, "Too many questions and comments just now"),
        )
        .post(
            "/comment-store",
            post_comment,
            Doc::signed_in("Comments on a product; shown once checked")
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

/// A question or a comment.
#[derive(Debug, Deserialize, JsonSchema)]
struct TalkBody {
    /// The product's id.
    #[schemars(required, range(min = 1, max = MAX_WHOLE))]
    product_id: Option<Whole>,
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
    let product = body.product_id.map_or(0, |p| p.0);
    if !talk::product_is_active(&state.pool, product).await? {
        return Err(ApiError::not_found("Product not found"));
    }
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
