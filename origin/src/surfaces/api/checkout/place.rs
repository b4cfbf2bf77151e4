//! Placing the cart as a cash-on-delivery order (`POST
//! /api/cod-place-order`): the last step of checkout, safe to retry with an
//! idempotency key (a header, or the same in an optional JSON body).

use aide::generate::GenContext;
use aide::openapi::{
    HeaderStyle, Operation, Parameter, ParameterData, ParameterSchemaOrContent, ReferenceOr,
    Response as DocResponse, SchemaObject,
};
use aide::OperationInput;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::Json;
use catalog::clock;
use schemars::{json_schema, JsonSchema};
use serde::{Deserialize, Serialize};

use crate::domain::cart;
use crate::domain::identity::Caller;
use crate::domain::orders;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::state::AppState;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// An idempotency key as the schema states it (see
/// [`orders::valid_idempotency_key`]).
const IDEMPOTENCY_KEY_PATTERN: &str = "^[!-~]{8,100}$";

/// `/api/cod-place-order` (mounted at the API's root).
pub fn router() -> ApiRouter {
    ApiRouter::new().post(
        "/cod-place-order",
        post_place_order,
        Doc::visitor("Places the cart as a cash-on-delivery order: {uri, order_random, order_key}")
            .answers(409, "The cart is empty, incomplete or no longer in stock")
            .answers(503, "Buying is switched off for a while"),
    )
}

/// The body of `POST /api/cod-place-order`, which may be left out (or
/// `null`).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(default)]
struct PlaceBody {
    /// As the `Idempotency-Key` header (which wins when both are sent).
    #[schemars(extend("pattern" = IDEMPOTENCY_KEY_PATTERN))]
    idempotency_key: Option<String>,
}

/// [`PlaceBody`] read from a JSON body that may be empty; documented as an
/// optional body.
struct OptionalPlaceBody(PlaceBody);

impl<S: Send + Sync> FromRequest<S> for OptionalPlaceBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let body = Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::invalid("body", format!("Invalid JSON body: {e}")))?;
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalPlaceBody(PlaceBody::default()));
        }
        let body: Option<PlaceBody> = serde_json::from_slice(&body)
            .map_err(|e| ApiError::invalid("body", format!("Invalid JSON body: {e}")))?;
        Ok(OptionalPlaceBody(body.unwrap_or_default()))
    }
}

impl OperationInput for OptionalPlaceBody {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        Body::<PlaceBody>::operation_input(ctx, operation);
        if let Some(ReferenceOr::Item(body)) = &mut operation.request_body {
            body.required = false;
        }
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<u16>, DocResponse)> {
        Body::<PlaceBody>::inferred_early_responses(ctx, operation)
    }
}

/// The `Idempotency-Key` header, trimmed, when sent.
struct IdempotencyHeader(Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyHeader {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get("idempotency-key") else {
            return Ok(IdempotencyHeader(None));
        };
        let key = value
            .to_str()
            .map_err(|_| ApiError::invalid("Idempotency-Key", "must be ASCII"))?;
        Ok(IdempotencyHeader(Some(key.trim().to_string())))
    }
}

impl OperationInput for IdempotencyHeader {
    fn operation_input(_: &mut GenContext, operation: &mut Operation) {
        let parameter_data = ParameterData {
            name: "Idempotency-Key".to_string(),
            description: Some("A retry with the same key returns the first order".to_string()),
            required: false,
            deprecated: None,
            format: ParameterSchemaOrContent::Schema(SchemaObject {
                json_schema: json_schema!({ "type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN }),
                example: None,
                external_docs: None,
            }),
            example: None,
            examples: Default::default(),
            explode: None,
            extensions: Default::default(),
        };
        operation
            .parameters
            .push(ReferenceOr::Item(Parameter::Header {
                parameter_data,
                style: HeaderStyle::Simple,
            }));
    }
}

/// The answer of `POST /api/cod-place-order`: the order placed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PlaceOrderResponse {
    pub success: bool,
    /// The thank-you page of the order.
    pub uri: String,
    /// The order number.
    pub order_random: String,
    /// The order's secret key (for `order-details`).
    pub order_key: String,
    pub grand_total: i64,
    /// True when a retry with the same idempotency key found the order
    /// placed before.
    pub replayed: bool,
}

/// `POST /api/cod-place-order`: `{uri, order_random, order_key}`.
async fn post_place_order(
    State(state): State<AppState>,
    caller: Caller,
    IdempotencyHeader(header_key): IdempotencyHeader,
    OptionalPlaceBody(body): OptionalPlaceBody,
) -> ApiResult<Json<PlaceOrderResponse>> {
    let owner = caller.owner()?;
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    let key = header_key.or(body.idempotency_key);
    if let Some(k) = &key {
        if !orders::valid_idempotency_key(k) {
            return Err(ApiError::invalid(
                "Idempotency-Key",
                "An idempotency key is 8 to 100 visible ASCII characters.",
            ));
        }
    }
    let placed =
        orders::place_cash_on_delivery(&state.pool, &owner, key.as_deref(), clock::now_unix())
            .await?;
    Ok(Json(PlaceOrderResponse {
        success: true,
        uri: format!(
            "/thank-you?order_random={}&order_key={}",
            placed.order_random, placed.order_key
        ),
        order_random: placed.order_random,
        order_key: placed.order_key,
        grand_total: placed.grand_total,
        replayed: placed.replayed,
    }))
}
