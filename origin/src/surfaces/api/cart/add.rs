//! `GET|POST /api/cart/add-to-cart`: a product or a whole product set into
//! the caller's cart, read from the query string or a form alike; a browser's
//! form ends on the cart page.

use std::collections::HashMap;

use aide::generate::GenContext;
use aide::openapi::{Operation, Response as DocResponse};
use aide::OperationInput;
use axum::extract::{FromRequest, Request, State};
use axum::http::HeaderMap;
use catalog::clock;
use catalog::db;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::answer::{variation_info, VariationInfo};
use crate::domain::cart;
use crate::domain::identity::Caller;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::{read_query, Fields, Query};
use crate::plumbing::params::Id;
use crate::plumbing::params::{blank_allowed, blank_is_none, Int};
use crate::state::AppState;
use crate::surfaces::api::answers::{wants_html, JsonOrSeeOther};

/// The parameters of `GET|POST /api/cart/add-to-cart`: a product
/// (`main_pid`, `qty`, `variation_id`) or a product set (`pset_id`,
/// `fabric_id`); one of `main_pid` and `pset_id` is required.
#[derive(Debug, Deserialize, JsonSchema)]
struct AddQuery {
    /// The product's id.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    main_pid: Option<Id>,
    /// Units, 1-99 (default 1).
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    qty: Option<Int<1, { cart::MAX_QTY }>>,
    /// One of the product's variations.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    variation_id: Option<Id>,
    /// A product set's id, to add the whole set.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    pset_id: Option<Id>,
    /// A fabric of that set.
    #[serde(default, deserialize_with = "blank_is_none")]
    #[schemars(transform = blank_allowed)]
    fabric_id: Option<Id>,
}

/// [`AddQuery`] read from the query string or, for a POST, a form body alike
/// ([`Fields`]; a name given twice counts by its last value), and documented
/// as its query parameters.
pub(super) struct AddFields(AddQuery);

impl<S: Send + Sync> FromRequest<S> for AddFields {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Fields(pairs) = Fields::from_request(req, state).await?;
        let last: HashMap<String, String> = pairs.into_iter().collect();
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(&last)
            .finish();
        read_query(&query).map(AddFields)
    }
}

impl OperationInput for AddFields {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        Query::<AddQuery>::operation_input(ctx, operation);
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<u16>, DocResponse)> {
        Query::<AddQuery>::inferred_early_responses(ctx, operation)
    }
}

/// `GET /api/cart/add-to-cart?main_pid=&qty=&variation_id=` or
/// `?pset_id=&fabric_id=`; POST as well, with the same names in the query
/// or a form body. A form submitted as a navigation (its `Accept` names
/// `text/html` first) ends on the cart page (303 to `/cart`), not on JSON.
pub(super) async fn get_add(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    AddFields(query): AddFields,
) -> ApiResult<AddToCartAnswer> {
    let body = add(&state, &caller, query).await?;
    if wants_html(&headers) {
        return Ok(AddToCartAnswer::To("/cart"));
    }
    Ok(AddToCartAnswer::Json(Box::new(body)))
}

/// The add-to-cart answer: JSON for a script, or 303 to `/cart` for a
/// browser's form; documented as the JSON.
pub type AddToCartAnswer = JsonOrSeeOther<AddToCartResponse>;

/// The JSON answer of `GET|POST /api/cart/add-to-cart`: the cart's new size,
/// and what was added.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddToCartResponse {
    pub success: bool,
    pub message: &'static str,
    /// Units in the cart.
    pub total_qty: i64,
    /// Taka, the cart's lines.
    pub totalprice: i64,
    /// The header badge's figure, as count-notification counts it.
    #[serde(rename = "cartCount")]
    pub cart_count: usize,
    #[serde(flatten)]
    pub added: Option<Added>,
}

/// What an add-to-cart call added: a product's line or a product set.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Added {
    Line(AddedLine),
    Set(AddedSet),
}

/// The cart line a product went into, as it is now.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddedLine {
    pub title: String,
    pub sub_title: String,
    pub seo_url: String,
    /// The line's code: the product's, or its variation's.
    pub product_code: String,
    pub image_url: Option<String>,
    /// Taka each, as sold now.
    pub purchaseprice: i64,
    /// The product's category name.
    pub cat_name: Option<String>,
    pub variation_id: Option<i64>,
    pub variation_info: Option<VariationInfo>,
    /// Units of it in the cart now.
    pub qty: i64,
}

/// What [`add`] put in the cart: the code of a product's line, or a set.
enum Put {
    Line(String),
    Set(AddedSet),
}

/// The product set added.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AddedSet {
    /// The products it added.
    pub main_pid: Vec<i64>,
    pub pset_id: i64,
    pub fabric_id: Option<i64>,
}

/// Adds what `query` names to the caller's cart; the add-to-cart answer,
/// with `cartCount` (the header badge's figure, as count-notification counts
/// it) so the page shows the new count without a second round trip.
async fn add(state: &AppState, caller: &Caller, query: AddQuery) -> ApiResult<AddToCartResponse> {
    let owner = caller.owner()?;
    if cart::buying_disabled(&state.pool).await? {
        return Err(cart::buying_disabled_error());
    }
    let id_of = |id: Option<Id>| id.map(Int::get);
    let set_id = id_of(query.pset_id);
    let product_id = id_of(query.main_pid);
    let qty = query.qty.map_or(1, Int::get);
    let variation_id = id_of(query.variation_id);
    let fabric_id = id_of(query.fabric_id);
    let now = clock::now_unix();
    let mut tx = db::begin_write(&state.pool).await?;
    let id = cart::cart_id(&mut tx, &owner, true)
        .await?
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("cart row not created")))?;
    let before = cart::load_by_id(&mut tx, id, now).await?;
    let added = match (set_id, product_id) {
        (Some(set), _) => {
            let pre_booking = cart::set_has_pre_booking(&mut tx, set).await?;
            cart::check_mix(&before, pre_booking)?;
            let ids = cart::add_set(&mut tx, id, set, fabric_id).await?;
            Put::Set(AddedSet {
                main_pid: ids,
                pset_id: set,
                fabric_id,
            })
        }
        (None, Some(product)) => {
            let item = cart::buyable(&mut tx, product, variation_id).await?;
            cart::check_mix(&before, item.pre_booking)?;
            cart::add_line(&mut tx, id, &item, qty).await?;
            Put::Line(item.code)
        }
        (None, None) => {
            return Err(ApiError::invalid(
                "main_pid",
                "main_pid (a product) or pset_id (a set) is required",
            ))
        }
    };
    let after = cart::load_by_id(&mut tx, id, now).await?;
    tx.commit().await?;
    let added = match added {
        Put::Line(code) => after
            .lines
            .iter()
            .find(|l| l.item_code == code && l.cart_set_id.is_none())
            .map(|line| {
                Added::Line(AddedLine {
                    title: line.title.clone(),
                    sub_title: line.sub_title.clone(),
                    seo_url: line.seo_url.clone(),
                    product_code: line.item_code.clone(),
                    image_url: line.image_url.clone(),
                    purchaseprice: line.unit_price(),
                    cat_name: line.category_name.clone(),
                    variation_id: line.variation_id,
                    variation_info: variation_info(line),
                    qty: line.qty,
                })
            }),
        Put::Set(set) => Some(Added::Set(set)),
    };
    Ok(AddToCartResponse {
        success: true,
        message: "Added to your cart",
        total_qty: after.total_qty(),
        totalprice: after.subtotal(),
        cart_count: after.line_count(),
        added,
    })
}
