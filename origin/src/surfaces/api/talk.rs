//! What shoppers write and do on a product page, merged into
//! `/api/product`: questions and comments (signed in, length limited, rate
//! limited, kept unpublished until the shop answers or checks them; stored as
//! plain text, which the pages escape) and the recently-viewed record that a
//! cached static page cannot keep by itself.

use axum::extract::State;
use axum::Json;
use catalog::db;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use catalog::clock;

use crate::domain::identity::{Caller, SignedIn};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::plumbing::validate;
use crate::state::AppState;
use crate::surfaces::api::answers::SuccessResponse;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Questions plus comments one shopper may send in [`TALK_WINDOW_SECS`].
pub const TALK_LIMIT: i64 = 5;
pub const TALK_WINDOW_SECS: i64 = 600;
/// Longest question or comment, characters.
pub const TALK_MAX_LEN: usize = 1000;
/// Products kept in a recently-viewed list.
pub const RECENT_KEEP: i64 = 20;

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
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct TalkBody {
    /// The product's id.
    product_id: i64,
    /// The question or comment, 5-1000 characters (also read as `comment`).
    #[serde(alias = "comment")]
    description: String,
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

/// Which of the two a call stores.
#[derive(Debug, Clone, Copy)]
enum Talk {
    Question,
    Comment,
}

async fn store(
    state: &AppState,
    who: SignedIn,
    body: TalkBody,
    kind: Talk,
) -> ApiResult<Json<TalkResponse>> {
    let (table, column, field) = match kind {
        Talk::Question => ("product_question", "description", "description"),
        Talk::Comment => ("product_comment", "comment", "comment"),
    };
    let Some(text) = validate::text(&body.description, 5, TALK_MAX_LEN) else {
        return Err(ApiError::invalid(
            field,
            format!("Write 5 to {TALK_MAX_LEN} characters."),
        ));
    };
    let active: Option<bool> = db::query_scalar("SELECT is_active FROM product WHERE id = $1")
        .bind(body.product_id)
        .fetch_optional(&state.pool)
        .await?;
    if active != Some(true) {
        return Err(ApiError::not_found("Product not found"));
    }
    let now = clock::now_unix();
    let mut tx = catalog::db::begin_write(&state.pool).await?;
    let (recent, oldest): (i64, Option<i64>) = db::query_as(
        "SELECT COUNT(*), MIN(created_at) FROM (\
           SELECT created_at FROM product_question WHERE user_id = $1 AND created_at > $2 \
           UNION ALL SELECT created_at FROM product_comment WHERE user_id = $1 AND created_at > $2) AS recent",
    )
    .bind(who.user.id)
    .bind(now - TALK_WINDOW_SECS)
    .fetch_one(&mut *tx)
    .await?;
    if recent >= TALK_LIMIT {
        let retry_after = oldest.map_or(TALK_WINDOW_SECS, |t| t + TALK_WINDOW_SECS - now);
        return Err(ApiError::TooManyRequests {
            message: "You have written a lot just now. Please wait a few minutes.".into(),
            retry_after: retry_after.max(1) as u64,
        });
    }
    let name: String = db::query_scalar("SELECT name FROM app_user WHERE id = $1")
        .bind(who.user.id)
        .fetch_one(&mut *tx)
        .await?;
    let id: i64 = db::query_scalar(&format!(
        "INSERT INTO {table} (product_id, user_id, username, {column}, is_active, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, FALSE, $5, $5) RETURNING id"
    ))
    .bind(body.product_id)
    .bind(who.user.id)
    .bind(name)
    .bind(&text)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
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

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct ViewBody {
    /// The product's id (also read as `product_id`).
    #[serde(alias = "product_id")]
    pid: i64,
}

/// `POST /api/product/recent-view` with `{pid}`: newest first, each product
/// once, at most [`RECENT_KEEP`].
async fn post_recent_view(
    State(state): State<AppState>,
    caller: Caller,
    Body(body): Body<ViewBody>,
) -> ApiResult<Json<SuccessResponse>> {
    let owner = caller.owner()?;
    let active: Option<bool> = db::query_scalar("SELECT is_active FROM product WHERE id = $1")
        .bind(body.pid)
        .fetch_optional(&state.pool)
        .await?;
    if active != Some(true) {
        return Err(ApiError::not_found("Product not found"));
    }
    let (owned, key) = (owner.matches("", 1), owner.key());
    let (user, token) = owner.ids();
    let now = clock::now_unix();
    let mut tx = catalog::db::begin_write(&state.pool).await?;
    db::query(&format!(
        "DELETE FROM recently_viewed WHERE {owned} AND product_id = $2"
    ))
    .bind(&key)
    .bind(body.pid)
    .execute(&mut *tx)
    .await?;
    db::query(
        "INSERT INTO recently_viewed (self_token, user_id, product_id, viewed_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $4, $4)",
    )
    .bind(token)
    .bind(user)
    .bind(body.pid)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    db::query(&format!(
        "DELETE FROM recently_viewed WHERE {owned} AND id NOT IN \
         (SELECT id FROM recently_viewed WHERE {owned} ORDER BY viewed_at DESC, id DESC LIMIT $2)"
    ))
    .bind(&key)
    .bind(RECENT_KEEP)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(SuccessResponse::OK))
}
