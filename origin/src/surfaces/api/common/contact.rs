//! `POST /api/common/contact`: the contact form. A script sends JSON and gets
//! JSON; a browser's plain form (no JavaScript: a form body, `Accept` naming
//! `text/html` first) gets a 303 back to the contact page, whose `#sent` or
//! `#not-sent` note then shows. The message is checked (every wrong field
//! named), kept, mailed to the shop, and limited per client.

use aide::generate::GenContext;
use aide::openapi::{Operation, Response as DocResponse};
use aide::OperationInput;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderMap};
use schemars::JsonSchema;
use serde::Deserialize;

use catalog::clock;

use crate::domain::contact::{self, Draft, MESSAGES_PER_WINDOW, WINDOW_SECS};
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{Fields, Json as JsonBody};
use crate::plumbing::ratelimit;
use crate::state::AppState;
use crate::surfaces::api::answers::{wants_html, JsonOrSeeOther, MessageResponse};

/// Where a browser's form lands after sending.
pub const SENT_URL: &str = "/page/contact?sent=1#sent";
/// Where a browser's form lands when the message was refused.
pub const NOT_SENT_URL: &str = "/page/contact?sent=0#not-sent";

/// The contact form's fields.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(super) struct ContactBody {
    /// Who writes: 2-80 characters.
    #[schemars(required, length(min = 2, max = 80))]
    name: Option<String>,
    /// How to answer: a Bangladeshi mobile number (`01XXXXXXXXX`, optionally
    /// after `+88`) or an e-mail address.
    #[schemars(required, length(min = 1, max = 254))]
    contact: Option<String>,
    /// The message: 10-2000 characters.
    #[schemars(required, length(min = 10, max = 2000))]
    message: Option<String>,
}

/// [`ContactBody`] from JSON, or from a form body (`name`, `contact`,
/// `message`); documented as the JSON.
pub(super) struct ContactInput(ContactBody);

impl<S: Send + Sync> FromRequest<S> for ContactInput {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let is_form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        if !is_form {
            let JsonBody(body) = JsonBody::<ContactBody>::from_request(req, state).await?;
            return Ok(ContactInput(body));
        }
        let Fields(pairs) = Fields::from_request(req, state).await?;
        let mut body = ContactBody::default();
        for (name, value) in pairs {
            match name.as_str() {
                "name" => body.name = Some(value),
                "contact" => body.contact = Some(value),
                "message" => body.message = Some(value),
                _ => {}
            }
        }
        Ok(ContactInput(body))
    }
}

impl OperationInput for ContactInput {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        JsonBody::<ContactBody>::operation_input(ctx, operation);
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<u16>, DocResponse)> {
        JsonBody::<ContactBody>::inferred_early_responses(ctx, operation)
    }
}

/// The answer: JSON for a script, a 303 for a browser's form.
pub(super) type ContactAnswer = JsonOrSeeOther<MessageResponse>;

/// `POST /api/common/contact` with `{name, contact, message}` (JSON or a form).
pub(super) async fn post_contact(
    State(state): State<AppState>,
    headers: HeaderMap,
    ContactInput(body): ContactInput,
) -> ApiResult<ContactAnswer> {
    let browser = wants_html(&headers);
    match send(&state, &headers, body).await {
        Ok(()) if browser => Ok(ContactAnswer::To(SENT_URL)),
        Ok(()) => Ok(ContactAnswer::Json(Box::new(MessageResponse::new(
            "Thank you: your message has reached us. We answer within a day.",
        )))),
        // A browser without JavaScript reads the page's note; a fault is still a fault.
        Err(ApiError::BadRequest { .. } | ApiError::TooManyRequests { .. }) if browser => {
            Ok(ContactAnswer::To(NOT_SENT_URL))
        }
        Err(e) => Err(e),
    }
}

/// Checks, limits, keeps and mails one message.
async fn send(state: &AppState, headers: &HeaderMap, body: ContactBody) -> ApiResult<()> {
    let message = Draft {
        name: body.name,
        contact: body.contact,
        message: body.message,
    }
    .check()
    .map_err(ApiError::fields)?;
    let now = clock::now_unix();
    let client = ratelimit::client(headers);
    let keys = [format!("contact-ip:{client}")];
    if let Err(retry_after) =
        ratelimit::check(&state.pool, &keys, MESSAGES_PER_WINDOW, WINDOW_SECS, now).await?
    {
        return Err(ApiError::TooManyRequests {
            message: "You have sent several messages already. Please wait a while, or call us."
                .into(),
            retry_after,
        });
    }
    let id = contact::store(&state.pool, &message, &client, now).await?;
    let to = contact::shop_address(&state.pool).await?;
    state
        .send_mail(contact::mail(to, id, &message))
        .map_err(ApiError::Internal)?;
    Ok(())
}
