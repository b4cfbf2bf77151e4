//! The basic shop for browsers that run no script (Opera Mini's extreme
//! mode, data savers): cart, checkout by cash on delivery, sign-in, sign-up,
//! sign-out, a forgotten password and track-order as plain HTML forms under
//! `/lite/`, rendered
//! here with the generator's templates ([`generator::serve::render_lite`])
//! in the same frame as every page. Each form is POST, then 303, then GET;
//! a form with a problem is shown again with the shopper's values and a
//! message by each field (422, or the status the problem has).
//!
//! Who the visitor is lives in cookies the origin sets ([`cookies`]): a
//! guest token of the `SELF-TOKEN` shape (`shop_token`), and after signing
//! in the sign-in token (`shop_auth`); both `HttpOnly; SameSite=Lax;
//! Path=/lite` (only these pages need them, so no other request carries
//! them), `Secure` when the edge says the request came over TLS
//! (`X-Forwarded-Proto: https`). Every form carries a CSRF value, an HMAC of
//! the guest token ([`csrf`]), and a POST from another site (`Origin`,
//! `Sec-Fetch-Site`) is refused with 403. Answers are `private, no-store`;
//! the edge passes `/lite/` through uncached.
//!
//! The shop's rules are not repeated here: every change goes through the
//! JSON API's own handlers, called in-process with the visitor's tokens
//! ([`Lite::api`]) — add, update and remove, the delivery address, cash on
//! delivery and its idempotency key, register, login (which merges the
//! guest's cart into the account's), logout, track-order — and their
//! answers (field errors included) become the page. Reading the cart and an
//! order for display uses the domain's own reads.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use axum::http::{HeaderMap, HeaderValue, Method, Request, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use catalog::clock;
use catalog::pricing::taka;
use generator::serve::{
    CartView, CheckoutValues, CheckoutView, ConfirmForm, FieldErrors, ForgotView, LiteFrame,
    LiteLine, LiteMoney, LitePage, LoginView, MessageView, OrderSummary, OrderView, RegisterView,
    ResetView, Site, TrackView,
};
use serde_json::{json, Value};
use tokio::sync::Mutex;
use tower::ServiceExt;

use crate::domain::identity::{self, Owner};
use crate::domain::{cart, orders};
use crate::plumbing::ratelimit;
use crate::state::AppState;
use crate::surfaces::api;
use crate::surfaces::site::listing::WEB_DIST_ENV;

pub mod cookies;
pub mod csrf;

use cookies::Visitor;

/// Longest the page frame (chrome, island scripts) is reused.
const FRAME_TTL: Duration = Duration::from_secs(60);
/// Names the sign-in tokens these pages make.
const DEVICE_NAME: &str = "basic pages";

/// The `/lite` service (nested at `/lite` by [`crate::app`]).
pub fn service(state: AppState) -> Router {
    let api = Router::new()
        .nest("/api", api::router())
        .merge(api::outside_router())
        .with_state(state.clone());
    let web_dist = std::env::var_os(WEB_DIST_ENV)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("web/dist"));
    let lite = Lite(Arc::new(Inner {
        state,
        api,
        web_dist,
        frame: Mutex::new(None),
    }));
    Router::new()
        .route("/", get(|| async { Redirect::to("/lite/cart") }))
        .route("/cart", get(get_cart))
        .route("/cart/add", post(post_add))
        .route("/cart/update", post(post_update))
        .route("/cart/remove", post(post_remove))
        .route("/cart/coupon", post(post_coupon))
        .route("/checkout", get(get_checkout).post(post_checkout))
        .route("/order/{number}", get(get_order))
        .route("/login", get(get_login).post(post_login))
        .route("/register", get(get_register).post(post_register))
        .route("/logout", post(post_logout))
        .route("/forgot-password", get(get_forgot).post(post_forgot))
        .route("/reset-password", get(get_reset).post(post_reset))
        .route("/track-order", get(get_track))
        .fallback(not_found)
        .with_state(lite)
}

#[derive(Clone)]
struct Lite(Arc<Inner>);

struct Inner {
    state: AppState,
    /// The JSON API, called in-process.
    api: Router,
    web_dist: PathBuf,
    frame: Mutex<Option<(Instant, Arc<Site>)>>,
}

/// An API answer: its status and JSON body.
struct Answer {
    status: StatusCode,
    body: Value,
}

impl Answer {
    /// An API response read as an answer.
    async fn of(response: Response) -> anyhow::Result<Answer> {
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 4 * 1024 * 1024).await?;
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(Answer { status, body })
    }

    fn ok(&self) -> bool {
        self.status.is_success()
    }

    /// The answer's message.
    fn message(&self) -> String {
        self.body["message"]
            .as_str()
            .unwrap_or("Something went wrong. Please try again.")
            .to_string()
    }

    /// Its field errors: (field, first message).
    fn field_errors(&self) -> FieldErrors {
        self.body["errors"]
            .as_object()
            .map(|errors| {
                errors
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), v[0].as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The status a refused form is shown again with: 422 for field errors,
/// else the API's.
fn refused_status(answer: &Answer) -> StatusCode {
    if answer.status == StatusCode::BAD_REQUEST {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        answer.status
    }
}

/// What a handler ends in.
type Outcome = Result<Response, anyhow::Error>;

impl Lite {
    fn pool(&self) -> &catalog::db::Pool {
        &self.0.state.pool
    }

    /// Calls the JSON API as this visitor (its guest token, and its sign-in
    /// token when signed in).
    async fn api(
        &self,
        v: &Visitor,
        method: Method,
        uri: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> anyhow::Result<Answer> {
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header("accept", "application/json")
            .header(api_self_token(), v.token.as_str());
        if let Some(bearer) = &v.bearer {
            request = request.header("authorization", format!("Bearer {bearer}"));
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = match body {
            Some(body) => request
                .header(CONTENT_TYPE, "application/json")
                .body(Body::from(serde_json::to_vec(&body)?))?,
            None => request.body(Body::empty())?,
        };
        let response = self.0.api.clone().oneshot(request).await?;
        Answer::of(response).await
    }

    /// The page frame, reloaded after [`FRAME_TTL`].
    async fn site(&self) -> anyhow::Result<Arc<Site>> {
        let mut frame = self.0.frame.lock().await;
        if let Some((at, site)) = frame.as_ref() {
            if at.elapsed() < FRAME_TTL {
                return Ok(site.clone());
            }
        }
        let chrome = generator::serve::ChromeData::load(self.pool())
            .await?
            .render()?;
        let assets = generator::serve::Assets::load(&self.0.web_dist).unwrap_or_else(|err| {
            tracing::warn!(cause = %err, "cannot read the web build's manifest; pages get no scripts");
            Default::default()
        });
        let site = Arc::new(Site {
            base_url: self.0.state.site_url.trim_end_matches('/').to_string(),
            chrome,
            assets,
        });
        *frame = Some((Instant::now(), site.clone()));
        Ok(site)
    }

    /// The form page at `path` shown again after the API refused what it
    /// sent: the refusal's status ([`refused_status`]) and its message above
    /// the form.
    async fn refused(&self, v: &Visitor, path: &str, answer: &Answer, page: LitePage) -> Outcome {
        let status = refused_status(answer);
        self.page(v, status, path, Top::Error(answer.message()), page)
            .await
    }

    /// A page for `v` with `status`.
    async fn page(
        &self,
        v: &Visitor,
        status: StatusCode,
        path: &str,
        top: Top,
        page: LitePage,
    ) -> Outcome {
        let (error, notice) = match top {
            Top::None => (None, None),
            Top::Error(e) => (Some(e), None),
            Top::Notice(n) => (None, Some(n)),
        };
        let frame = LiteFrame {
            csrf: csrf::value(&v.token),
            error,
            notice,
            signed_in: v.name.clone(),
        };
        let site = self.site().await?;
        let html = generator::serve::render_lite(&site, path, &frame, &page)?;
        let mut response = (status, html).into_response();
        response.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        Ok(v.finish(response))
    }

    /// The 403 page of a form without a valid CSRF value, or from another site.
    async fn forbidden(&self, v: &Visitor, back: &str) -> Outcome {
        let text = if v.fresh {
            "Your browser did not send the shop's cookie. Please allow cookies for this site and try again."
        } else {
            "This form has expired or did not come from this shop. Please try again."
        };
        self.message(
            v,
            StatusCode::FORBIDDEN,
            "Please try again",
            text,
            ("Go back", back),
        )
        .await
    }

    async fn message(
        &self,
        v: &Visitor,
        status: StatusCode,
        title: &str,
        text: &str,
        link: (&str, &str),
    ) -> Outcome {
        let page = LitePage::Message(MessageView {
            title: title.to_string(),
            text: text.to_string(),
            link: (link.0.to_string(), link.1.to_string()),
            confirm: None,
        });
        self.page(v, status, "/lite", Top::None, page).await
    }

    /// The visitor's cart and its totals now, for display.
    async fn cart(&self, v: &Visitor) -> anyhow::Result<(cart::Cart, orders::Priced)> {
        let owner = v.owner();
        let now = clock::now_unix();
        let mut conn = self.pool().acquire().await?;
        let mut cart = cart::load(&mut conn, &owner, now).await?;
        let priced = orders::totals_dropping_stale_coupon(&mut conn, &mut cart, &owner, now)
            .await
            .map_err(|e| anyhow::anyhow!("pricing the cart: {e}"))?;
        Ok((cart, priced))
    }

    async fn cart_page(&self, v: &Visitor, status: StatusCode, top: Top) -> Outcome {
        let (cart, priced) = self.cart(v).await?;
        let top = match (top, priced.coupon_removed.clone()) {
            (Top::None, Some(why)) => Top::Error(why),
            (top, _) => top,
        };
        let view = CartView {
            lines: lines(&cart),
            money: cart_money(&cart, &priced, None),
            max_qty: cart::MAX_QTY,
            pre_booking: cart.is_pre_booking(),
        };
        self.page(v, status, "/lite/cart", top, LitePage::Cart(view))
            .await
    }

    async fn checkout_page(
        &self,
        v: &Visitor,
        status: StatusCode,
        top: Top,
        values: Option<CheckoutValues>,
        errors: FieldErrors,
        key: Option<String>,
    ) -> Outcome {
        let (cart, priced) = self.cart(v).await?;
        let d = &cart.details;
        let values = values.unwrap_or_else(|| CheckoutValues {
            name: d.name.clone().unwrap_or_default(),
            mobile: d.mobile.clone().unwrap_or_default(),
            emergency_mobile: d.emergency_mobile.clone().unwrap_or_default(),
            email: d.email.clone().unwrap_or_default(),
            district: d.district.clone().unwrap_or_default(),
            address: d.address.clone().unwrap_or_default(),
        });
        let zones = if d.district.is_none() {
            let mut conn = self.pool().acquire().await?;
            let inside = cart::delivery_charge(&mut conn, "inside_dhaka", cart.subtotal()).await?;
            let outside =
                cart::delivery_charge(&mut conn, "outside_dhaka", cart.subtotal()).await?;
            Some(match (inside.fee, outside.fee) {
                (0, 0) => "Free delivery".to_string(),
                (i, o) if i == o => format!("{} anywhere", taka(i)),
                (i, o) => format!("{} in Dhaka, {} elsewhere", taka(i), taka(o)),
            })
        } else {
            None
        };
        let districts = catalog::read::content::districts(self.pool())
            .await?
            .into_iter()
            .map(|d| d.district)
            .collect();
        let view = CheckoutView {
            lines: lines(&cart),
            money: cart_money(&cart, &priced, zones),
            values,
            errors,
            districts,
            idempotency_key: key.unwrap_or_else(|| identity::new_token().0),
        };
        self.page(v, status, "/lite/checkout", top, LitePage::Checkout(view))
            .await
    }
}

/// The API's guest-token header.
fn api_self_token() -> &'static str {
    crate::plumbing::identity::SELF_TOKEN_HEADER
}

/// What the top of a page says.
enum Top {
    None,
    Error(String),
    Notice(String),
}

/// A 303 to `to` (POST, then redirect, then GET), with the visitor's cookies.
fn see_other(v: &Visitor, to: &str) -> Response {
    let response = (StatusCode::SEE_OTHER, [(LOCATION, to.to_string())]).into_response();
    v.finish(response)
}

/// The answer to a handler's failure: the server-error text, never cached.
fn failed(result: Outcome) -> Response {
    result.unwrap_or_else(|err| {
        tracing::error!(cause = %format!("{err:#}"), "a basic page failed");
        let mut response = (
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong on our side. Please try again.",
        )
            .into_response();
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
        response
    })
}

/// A form body's fields (a name given twice counts by its last value).
fn form(body: &[u8]) -> HashMap<String, String> {
    form_urlencoded::parse(body).into_owned().collect()
}

fn field<'a>(form: &'a HashMap<String, String>, name: &str) -> &'a str {
    form.get(name).map(String::as_str).unwrap_or("")
}

/// A form sent from one of these pages: the visitor, the request's headers
/// and the form's fields, once its CSRF value is checked ([`csrf::accepts`]).
/// A form without a valid value, or from another site, never reaches the
/// handler: the visitor gets the 403 page leading back to the form's page
/// ([`form_page`]).
struct Posted {
    v: Visitor,
    headers: HeaderMap,
    f: HashMap<String, String>,
}

impl FromRequest<Lite> for Posted {
    type Rejection = Response;

    async fn from_request(req: Request<Body>, lite: &Lite) -> Result<Self, Response> {
        let back = form_page(req.uri().path());
        let headers = req.headers().clone();
        let v = Visitor::read(lite.pool(), &headers).await;
        let body = Bytes::from_request(req, lite)
            .await
            .map_err(IntoResponse::into_response)?;
        let f = form(&body);
        if !csrf::accepts(&v, &headers, field(&f, "csrf")) {
            return Err(failed(lite.forbidden(&v, back).await));
        }
        Ok(Posted { v, headers, f })
    }
}

/// The page whose form posts to `path` (a path inside `/lite`), where the
/// 403 page leads back to.
fn form_page(path: &str) -> &'static str {
    match path {
        "/checkout" => "/lite/checkout",
        "/login" | "/logout" => "/lite/login",
        "/register" => "/lite/register",
        "/forgot-password" | "/reset-password" => "/lite/forgot-password",
        _ => "/lite/cart",
    }
}

/// The cart's lines as the pages show them (a product set as one line).
fn lines(cart: &cart::Cart) -> Vec<LiteLine> {
    let mut out: Vec<LiteLine> = cart
        .lines
        .iter()
        .filter(|l| l.cart_set_id.is_none())
        .map(|l| LiteLine {
            title: l.title.clone(),
            href: format!("/product/{}", l.seo_url),
            detail: l.variation_label(),
            qty: l.qty,
            unit: taka(l.unit_price()),
            total: taka(l.total()),
            code: l.item_code.clone(),
            set_items: None,
        })
        .collect();
    for set in &cart.sets {
        let items: Vec<&cart::Line> = cart
            .lines
            .iter()
            .filter(|l| l.cart_set_id == Some(set.cart_set_id))
            .collect();
        let total: i64 = items.iter().map(|l| l.total()).sum();
        out.push(LiteLine {
            title: set.title.clone(),
            href: format!("/product-set/{}", set.slug),
            detail: Some(
                set.fabric_title
                    .iter()
                    .map(|f| format!("Fabric: {f}"))
                    .chain(items.iter().map(|l| format!("{} × {}", l.qty, l.title)))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            qty: 1,
            unit: taka(total),
            total: taka(total),
            code: items
                .first()
                .map(|l| l.item_code.clone())
                .unwrap_or_default(),
            set_items: Some(
                items
                    .iter()
                    .map(|l| format!("{}:{}", l.product_id, l.item_code))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
        });
    }
    out
}

/// A cart's money; `zones` describes delivery while no district is chosen.
fn cart_money(cart: &cart::Cart, priced: &orders::Priced, zones: Option<String>) -> LiteMoney {
    let t = &priced.totals;
    LiteMoney {
        subtotal: taka(t.total_amount),
        discount: priced
            .applied
            .as_ref()
            .filter(|_| t.discount > 0)
            .map(|a| (a.coupon.coupon_code.clone(), taka(t.discount))),
        delivery: match &cart.details.district {
            Some(d) => Some(format!("{} ({d})", taka(t.delivery_fee))),
            None => zones,
        },
        total: taka(t.grand_total),
        paid: None,
        due: None,
    }
}

/// A payment method as shoppers read it (the names the web pages use,
/// `web/src/lib/order.ts`).
fn payment_name(method: &str) -> String {
    match method {
        "cash_on_delivery" => "Cash on delivery",
        "debitcredit" => "Card or mobile banking",
        "mobilebanking" => "Mobile banking",
        "bkash" => "bKash",
        "nagad" => "Nagad",
        other => other,
    }
    .to_string()
}

/// "pending_payment" as "Pending payment".
fn status_name(status: &str) -> String {
    let text = status.replace(['_', '-'], " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// An order's summary from its head and lines as the API answers them
/// (`OrderHead`/`TrackedOrder` and `OrderLine` as JSON).
fn summary(head: &Value, details: &Value) -> OrderSummary {
    let n = |k: &str| head[k].as_i64().unwrap_or(0);
    let s = |k: &str| head[k].as_str().unwrap_or("").to_string();
    let lines = details
        .as_array()
        .map(|lines| {
            lines
                .iter()
                .map(|l| LiteLine {
                    title: l["name"].as_str().unwrap_or("").to_string(),
                    href: format!("/product/{}", l["seo_url"].as_str().unwrap_or("")),
                    detail: None,
                    qty: l["qty"].as_i64().unwrap_or(0),
                    unit: taka(l["local_purchase_price"].as_i64().unwrap_or(0)),
                    total: taka(l["total_purchase_price"].as_i64().unwrap_or(0)),
                    code: l["product_code"].as_str().unwrap_or("").to_string(),
                    set_items: None,
                })
                .collect()
        })
        .unwrap_or_default();
    let discount = n("coupon_discount");
    OrderSummary {
        number: s("order_random"),
        date: s("order_date"),
        customer_name: s("customer_name"),
        status: status_name(&s("order_status")),
        payment_status: status_name(&s("payment_term_status")),
        payment_method: payment_name(&s("payment_method")),
        lines,
        money: LiteMoney {
            subtotal: taka(n("total_amount")),
            discount: (discount > 0).then(|| (s("coupon_code"), taka(discount))),
            delivery: Some(taka(n("delivery_fee"))),
            total: taka(n("grand_total")),
            paid: Some(taka(n("amount_paid"))),
            due: Some(taka(n("grand_total") - n("amount_paid"))),
        },
    }
}

/// What a finished form says on the page it leads to (`?done=`).
fn done_notice(done: Option<&str>) -> Top {
    let text = match done {
        Some("added") => "Added to your cart.",
        Some("updated") => "Your cart is updated.",
        Some("removed") => "Removed from your cart.",
        Some("coupon") => "The coupon is applied.",
        Some("signed-in") => "You are signed in.",
        Some("registered") => "Your account has been created. You are signed in.",
        Some("signed-out") => "You are signed out.",
        Some("link-sent") => api::password::LINK_SENT,
        Some("password-reset") => "Your password has been reset. Sign in with the new one.",
        _ => return Top::None,
    };
    Top::Notice(text.to_string())
}

/// The last value of `name` in the request's query, if any.
fn param(uri: &Uri, name: &str) -> Option<String> {
    form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
        .filter(|(k, _)| k == name)
        .last()
        .map(|(_, v)| v.into_owned())
}

async fn get_cart(State(lite): State<Lite>, headers: HeaderMap, uri: Uri) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    let done = param(&uri, "done");
    failed(
        lite.cart_page(&v, StatusCode::OK, done_notice(done.as_deref()))
            .await,
    )
}

/// The fields of a product page's Add to cart form.
const ADD_FIELDS: [&str; 5] = ["main_pid", "qty", "variation_id", "pset_id", "fabric_id"];

/// `POST /lite/cart/add` from a product page's form (`main_pid`, `qty`,
/// `variation_id`, or `pset_id` and `fabric_id`). The product pages are
/// static and public, so their form cannot carry the visitor's CSRF value.
/// The add goes on when the form carries the value (the confirmation below
/// sends it) or when the browser says the form came from this shop
/// (`Sec-Fetch-Site: same-origin`, or an `Origin` that is this host:
/// [`csrf::vouched_same_origin`]); from another site it is refused; and a
/// browser that says neither (an old or proxy browser, which the basic
/// shop is for) gets a page asking to confirm, whose form carries the value.
async fn post_add(State(lite): State<Lite>, headers: HeaderMap, body: Bytes) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    failed(
        async {
            if csrf::cross_site(&headers) {
                return lite.forbidden(&v, "/lite/cart").await;
            }
            let f = form(&body);
            let given = ADD_FIELDS
                .iter()
                .filter_map(|k| f.get(*k).map(|val| (*k, val.as_str())));
            if !csrf::vouched_same_origin(&headers)
                && !csrf::accepts(&v, &headers, field(&f, "csrf"))
            {
                let page = LitePage::Message(MessageView {
                    title: "Add to your cart?".into(),
                    text: "Please confirm that you want to add this to your cart.".into(),
                    link: ("Back to the shop".into(), "/".into()),
                    confirm: Some(ConfirmForm {
                        action: "/lite/cart/add".into(),
                        fields: given
                            .map(|(k, val)| (k.to_string(), val.to_string()))
                            .collect(),
                        button: "Add to cart".into(),
                    }),
                });
                return lite
                    .page(&v, StatusCode::OK, "/lite/cart", Top::None, page)
                    .await;
            }
            let query = form_urlencoded::Serializer::new(String::new())
                .extend_pairs(given)
                .finish();
            let answer = lite
                .api(
                    &v,
                    Method::GET,
                    &format!("/api/cart/add-to-cart?{query}"),
                    None,
                    &[],
                )
                .await?;
            if answer.ok() {
                return Ok(see_other(&v, "/lite/cart?done=added"));
            }
            lite.cart_page(&v, refused_status(&answer), Top::Error(answer.message()))
                .await
        }
        .await,
    )
}

/// `POST /lite/cart/update` with `code` and `qty`.
async fn post_update(State(lite): State<Lite>, Posted { v, f, .. }: Posted) -> Response {
    failed(
        async {
            let code = field(&f, "code").trim();
            let Some(qty) = field(&f, "qty")
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|q| (1..=cart::MAX_QTY).contains(q))
            else {
                let text = format!("A quantity is a whole number from 1 to {}.", cart::MAX_QTY);
                return lite
                    .cart_page(&v, StatusCode::UNPROCESSABLE_ENTITY, Top::Error(text))
                    .await;
            };
            let body = json!({ "items": { code: { "code": code, "qty": qty } } });
            let answer = lite
                .api(&v, Method::POST, "/api/cart/update", Some(body), &[])
                .await?;
            if answer.ok() {
                return Ok(see_other(&v, "/lite/cart?done=updated"));
            }
            lite.cart_page(&v, refused_status(&answer), Top::Error(answer.message()))
                .await
        }
        .await,
    )
}

/// `POST /lite/cart/remove` with `code` (a line) or `pid_codes` (a set).
async fn post_remove(State(lite): State<Lite>, Posted { v, f, .. }: Posted) -> Response {
    failed(
        async {
            let query = match f.get("pid_codes").filter(|p| !p.trim().is_empty()) {
                Some(pairs) => form_urlencoded::Serializer::new(String::new())
                    .append_pair("pid_codes", pairs)
                    .finish(),
                None => form_urlencoded::Serializer::new(String::new())
                    .append_pair("pcode", field(&f, "code"))
                    .finish(),
            };
            let answer = lite
                .api(
                    &v,
                    Method::GET,
                    &format!("/api/cart/remove-cart-item?{query}"),
                    None,
                    &[],
                )
                .await?;
            if answer.ok() {
                return Ok(see_other(&v, "/lite/cart?done=removed"));
            }
            lite.cart_page(&v, refused_status(&answer), Top::Error(answer.message()))
                .await
        }
        .await,
    )
}

/// `POST /lite/cart/coupon` with `coupon`: the cart page's coupon form, by
/// the API's `coupon-apply` (its checks and messages).
async fn post_coupon(State(lite): State<Lite>, Posted { v, f, .. }: Posted) -> Response {
    failed(
        async {
            let body = json!({ "coupon": field(&f, "coupon").trim() });
            let answer = lite
                .api(&v, Method::POST, "/api/cart/coupon-apply", Some(body), &[])
                .await?;
            if answer.ok() {
                return Ok(see_other(&v, "/lite/cart?done=coupon"));
            }
            lite.cart_page(&v, refused_status(&answer), Top::Error(answer.message()))
                .await
        }
        .await,
    )
}

async fn get_checkout(State(lite): State<Lite>, headers: HeaderMap) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    failed(
        lite.checkout_page(&v, StatusCode::OK, Top::None, None, Vec::new(), None)
            .await,
    )
}

/// `POST /lite/checkout`: the delivery address, cash on delivery with the
/// terms accepted, and the order placed, each by its API call; the order's
/// `idempotency_key` (made when the form was shown) makes a second submit
/// of the same form find the first order instead of placing another.
async fn post_checkout(State(lite): State<Lite>, Posted { v, f, .. }: Posted) -> Response {
    failed(
        async {
            let key = Some(field(&f, "idempotency_key").trim())
                .filter(|k| orders::valid_idempotency_key(k))
                .map(str::to_string);
            let values = CheckoutValues {
                name: field(&f, "name").to_string(),
                mobile: field(&f, "mobile").to_string(),
                emergency_mobile: field(&f, "emergency_mobile").to_string(),
                email: field(&f, "email").to_string(),
                district: field(&f, "district").to_string(),
                address: field(&f, "address").to_string(),
            };
            let place = |key: Option<String>| {
                let lite = lite.clone();
                let v = v.clone();
                async move {
                    let headers: Vec<(&str, &str)> = key
                        .as_deref()
                        .map(|k| vec![("idempotency-key", k)])
                        .unwrap_or_default();
                    lite.api(&v, Method::POST, "/api/cod-place-order", None, &headers)
                        .await
                }
            };
            // The same form sent again after its order was placed: the
            // cart is empty now, and the key finds that order.
            let (cart, _) = lite.cart(&v).await?;
            if cart.is_empty() {
                if key.is_some() {
                    let again = place(key.clone()).await?;
                    if again.ok() && again.body["replayed"] == json!(true) {
                        return Ok(placed(&v, &again));
                    }
                }
                return lite
                    .checkout_page(
                        &v,
                        StatusCode::CONFLICT,
                        Top::Error("Your cart is empty.".into()),
                        Some(values),
                        Vec::new(),
                        key,
                    )
                    .await;
            }
            let address = json!({
                "name": values.name,
                "mobile": values.mobile,
                "emergency_mobile": values.emergency_mobile,
                "email": values.email,
                "district": values.district,
                "thana": "",
                "address": values.address,
            });
            let saved = lite
                .api(
                    &v,
                    Method::POST,
                    "/api/cart/checkout-delivery-address",
                    Some(address),
                    &[],
                )
                .await?;
            let terms = f.get("terms").map_or(Value::Null, |t| json!(t));
            let paying = lite
                .api(
                    &v,
                    Method::POST,
                    "/api/cart/store-payment-method",
                    Some(json!({ "payment_method": "cash_on_delivery", "terms_check": terms })),
                    &[],
                )
                .await?;
            let mut errors = saved.field_errors();
            errors.extend(paying.field_errors());
            let refused = [&saved, &paying].into_iter().find(|a| !a.ok());
            if let Some(first) = refused {
                let status = refused_status(first);
                let top = if errors.is_empty() {
                    first.message()
                } else {
                    "Please check the form: see the notes by the fields.".to_string()
                };
                return lite
                    .checkout_page(&v, status, Top::Error(top), Some(values), errors, key)
                    .await;
            }
            let answer = place(key.clone()).await?;
            if answer.ok() {
                return Ok(placed(&v, &answer));
            }
            lite.checkout_page(
                &v,
                refused_status(&answer),
                Top::Error(answer.message()),
                Some(values),
                Vec::new(),
                key,
            )
            .await
        }
        .await,
    )
}

/// The 303 to an order's confirmation after `cod-place-order`'s answer.
fn placed(v: &Visitor, answer: &Answer) -> Response {
    let number = answer.body["order_random"].as_str().unwrap_or("");
    let key = answer.body["order_key"].as_str().unwrap_or("");
    let to = format!(
        "/lite/order/{}?{}",
        form_urlencoded::byte_serialize(number.as_bytes()).collect::<String>(),
        form_urlencoded::Serializer::new(String::new())
            .append_pair("key", key)
            .finish()
    );
    see_other(v, &to)
}

/// `GET /lite/order/{number}?key=`: the confirmation of a placed order (its
/// number and secret key, as the thank-you page's link has them).
async fn get_order(
    State(lite): State<Lite>,
    headers: HeaderMap,
    Path(number): Path<String>,
    uri: Uri,
) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    let key = param(&uri, "key").unwrap_or_default();
    failed(
        async {
            let order = if [&number, &key].iter().all(|t| {
                (1..=100).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_graphic())
            }) {
                orders::by_number_and_key(lite.pool(), &number, &key).await?
            } else {
                None
            };
            let Some(order) = order else {
                return lite
                    .message(
                        &v,
                        StatusCode::NOT_FOUND,
                        "Order not found",
                        "No order has this number and key. Track an order with its number and your mobile number.",
                        ("Track an order", "/lite/track-order"),
                    )
                    .await;
            };
            let details = orders::details(lite.pool(), order.id).await?;
            let head = serde_json::to_value(orders::OrderHead::from(&order))?;
            let view = OrderView {
                order: summary(&head, &serde_json::to_value(&details)?),
                mobile: order.phone.clone(),
            };
            let path = format!("/lite/order/{}", view.order.number);
            lite.page(&v, StatusCode::OK, &path, Top::None, LitePage::Order(view))
                .await
        }
        .await,
    )
}

/// A form page as first shown: empty, under the notice its `?done=` names
/// (where the form before it sent the shopper).
async fn blank_form(
    lite: &Lite,
    headers: &HeaderMap,
    uri: &Uri,
    path: &str,
    page: LitePage,
) -> Response {
    let v = Visitor::read(lite.pool(), headers).await;
    let done = param(uri, "done");
    failed(
        lite.page(&v, StatusCode::OK, path, done_notice(done.as_deref()), page)
            .await,
    )
}

async fn get_login(State(lite): State<Lite>, headers: HeaderMap, uri: Uri) -> Response {
    let page = LitePage::Login(LoginView::default());
    blank_form(&lite, &headers, &uri, "/lite/login", page).await
}

/// `POST /lite/login` with `login` (e-mail or mobile) and `password`: the
/// API's login, which merges the guest's cart into the account's; the
/// sign-in token goes into its cookie.
async fn post_login(State(lite): State<Lite>, Posted { v, headers, f }: Posted) -> Response {
    failed(
        async {
            let login = field(&f, "login").to_string();
            let body = json!({
                "email": login,
                "password": field(&f, "password"),
                "device_name": DEVICE_NAME,
            });
            let answer = lite
                .api(
                    &v.as_guest(),
                    Method::POST,
                    "/api/auth/login",
                    Some(body),
                    &[("x-forwarded-for", &ratelimit::client(&headers))],
                )
                .await?;
            if let Some(token) = answer.body["token"].as_str().filter(|_| answer.ok()) {
                return Ok(see_other(&v.signed_in(token), "/lite/cart?done=signed-in"));
            }
            let view = LoginView {
                login,
                errors: answer.field_errors(),
            };
            lite.refused(&v, "/lite/login", &answer, LitePage::Login(view))
                .await
        }
        .await,
    )
}

async fn get_register(State(lite): State<Lite>, headers: HeaderMap) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    failed(
        lite.page(
            &v,
            StatusCode::OK,
            "/lite/register",
            Top::None,
            LitePage::Register(RegisterView::default()),
        )
        .await,
    )
}

/// `POST /lite/register`: the API's register (the guest's cart comes along);
/// signed in at once.
async fn post_register(State(lite): State<Lite>, Posted { v, headers, f }: Posted) -> Response {
    failed(
        async {
            let view = RegisterView {
                name: field(&f, "name").to_string(),
                email: field(&f, "email").to_string(),
                telephone: field(&f, "telephone").to_string(),
                errors: Vec::new(),
            };
            let body = json!({
                "name": view.name,
                "email": view.email,
                "telephone": view.telephone,
                "password": field(&f, "password"),
                "password_confirmation": field(&f, "password_confirmation"),
                "agree": f.get("agree").is_some_and(|a| a == "on"),
                "device_name": DEVICE_NAME,
            });
            let answer = lite
                .api(
                    &v.as_guest(),
                    Method::POST,
                    "/api/auth/register",
                    Some(body),
                    &[("x-forwarded-for", &ratelimit::client(&headers))],
                )
                .await?;
            if let Some(token) = answer.body["token"].as_str().filter(|_| answer.ok()) {
                return Ok(see_other(&v.signed_in(token), "/lite/cart?done=registered"));
            }
            let view = RegisterView {
                errors: answer.field_errors(),
                ..view
            };
            lite.refused(&v, "/lite/register", &answer, LitePage::Register(view))
                .await
        }
        .await,
    )
}

/// `POST /lite/logout`: the sign-in token stops working and its cookie goes.
async fn post_logout(State(lite): State<Lite>, Posted { v, .. }: Posted) -> Response {
    failed(
        async {
            if v.bearer.is_some() {
                lite.api(&v, Method::POST, "/api/auth/logout", None, &[])
                    .await?;
            }
            Ok(see_other(&v.signed_out(), "/lite/login?done=signed-out"))
        }
        .await,
    )
}

async fn get_forgot(State(lite): State<Lite>, headers: HeaderMap, uri: Uri) -> Response {
    let page = LitePage::Forgot(ForgotView::default());
    blank_form(&lite, &headers, &uri, "/lite/forgot-password", page).await
}

/// `POST /lite/forgot-password` with `email`: the API's own sending
/// ([`api::password::send_link`]: its check of the address, its limits per
/// address and per client, the same answer whether or not an account uses
/// the address), with the link leading to the basic reset page.
async fn post_forgot(State(lite): State<Lite>, Posted { v, headers, f }: Posted) -> Response {
    failed(
        async {
            let email = field(&f, "email").to_string();
            let sent = api::password::send_link(
                &lite.0.state,
                &email,
                &ratelimit::client(&headers),
                "/lite/reset-password",
            )
            .await;
            let answer = match sent {
                Ok(()) => return Ok(see_other(&v, "/lite/forgot-password?done=link-sent")),
                Err(err) => Answer::of(err.into_response()).await?,
            };
            let view = ForgotView {
                email,
                errors: answer.field_errors(),
            };
            lite.refused(&v, "/lite/forgot-password", &answer, LitePage::Forgot(view))
                .await
        }
        .await,
    )
}

/// `GET /lite/reset-password?token=&email=`: the mailed link's page.
async fn get_reset(State(lite): State<Lite>, headers: HeaderMap, uri: Uri) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    let view = ResetView {
        token: param(&uri, "token").unwrap_or_default(),
        email: param(&uri, "email").unwrap_or_default(),
        errors: Vec::new(),
    };
    failed(
        lite.page(
            &v,
            StatusCode::OK,
            "/lite/reset-password",
            Top::None,
            LitePage::Reset(view),
        )
        .await,
    )
}

/// `POST /lite/reset-password` with the link's `token` and `email`,
/// `password` and `password_confirmation`: the API's reset-password; then
/// to the sign-in page.
async fn post_reset(State(lite): State<Lite>, Posted { v, f, .. }: Posted) -> Response {
    failed(
        async {
            let view = ResetView {
                token: field(&f, "token").to_string(),
                email: field(&f, "email").to_string(),
                errors: Vec::new(),
            };
            let body = json!({
                "token": view.token,
                "email": view.email,
                "password": field(&f, "password"),
                "password_confirmation": field(&f, "password_confirmation"),
            });
            let answer = lite
                .api(
                    &v.as_guest(),
                    Method::POST,
                    "/api/user/reset-password",
                    Some(body),
                    &[],
                )
                .await?;
            if answer.ok() {
                return Ok(see_other(&v, "/lite/login?done=password-reset"));
            }
            let view = ResetView {
                errors: answer.field_errors(),
                ..view
            };
            lite.refused(&v, "/lite/reset-password", &answer, LitePage::Reset(view))
                .await
        }
        .await,
    )
}

/// `GET /lite/track-order?number=&mobile=`: a GET form (it changes
/// nothing), answered by the API's track-order.
async fn get_track(State(lite): State<Lite>, headers: HeaderMap, uri: Uri) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    failed(
        async {
            let number = param(&uri, "number").unwrap_or_default();
            let mobile = param(&uri, "mobile").unwrap_or_default();
            let mut view = TrackView {
                number: number.clone(),
                mobile: mobile.clone(),
                ..TrackView::default()
            };
            if number.trim().is_empty() && mobile.trim().is_empty() {
                return lite
                    .page(
                        &v,
                        StatusCode::OK,
                        "/lite/track-order",
                        Top::None,
                        LitePage::Track(view),
                    )
                    .await;
            }
            let query = form_urlencoded::Serializer::new(String::new())
                .append_pair("id", number.trim())
                .append_pair("phone", mobile.trim())
                .finish();
            let answer = lite
                .api(
                    &v,
                    Method::GET,
                    &format!("/api/cart/track-order?{query}"),
                    None,
                    &[("x-forwarded-for", &ratelimit::client(&headers))],
                )
                .await?;
            if answer.ok() {
                view.order = Some(summary(
                    &answer.body["order_masters"],
                    &answer.body["order_details"],
                ));
                return lite
                    .page(
                        &v,
                        StatusCode::OK,
                        "/lite/track-order",
                        Top::None,
                        LitePage::Track(view),
                    )
                    .await;
            }
            view.errors = answer
                .field_errors()
                .into_iter()
                .map(|(k, m)| {
                    let k = match k.as_str() {
                        "id" => "number".to_string(),
                        "phone" => "mobile".to_string(),
                        _ => k,
                    };
                    (k, m)
                })
                .collect();
            lite.refused(&v, "/lite/track-order", &answer, LitePage::Track(view))
                .await
        }
        .await,
    )
}

async fn not_found(State(lite): State<Lite>, headers: HeaderMap) -> Response {
    let v = Visitor::read(lite.pool(), &headers).await;
    failed(
        lite.message(
            &v,
            StatusCode::NOT_FOUND,
            "Page not found",
            "The basic shop has no such page.",
            ("Your cart", "/lite/cart"),
        )
        .await,
    )
}

impl Visitor {
    /// Whose cart these pages show.
    fn owner(&self) -> Owner {
        match self.user {
            Some(id) => Owner::User(id),
            None => Owner::Guest(self.token.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_words() {
        assert_eq!(status_name("pending_payment"), "Pending payment");
        assert_eq!(status_name(""), "");
        assert_eq!(payment_name("bkash"), "bKash");
        assert_eq!(payment_name("cash_on_delivery"), "Cash on delivery");
    }

    #[test]
    fn order_summaries_count_what_is_due() {
        let head = json!({"order_random": "A1", "total_amount": 100000, "delivery_fee": 60,
            "grand_total": 100060, "amount_paid": 60, "coupon_discount": 0, "order_status": "pending"});
        let s = summary(
            &head,
            &json!([{"name": "Bed", "seo_url": "bed", "qty": 2,
            "local_purchase_price": 50000, "total_purchase_price": 100000}]),
        );
        assert_eq!(s.money.total, "৳1,00,060");
        assert_eq!(s.money.due.as_deref(), Some("৳1,00,000"));
        assert_eq!(s.lines[0].total, "৳1,00,000");
        assert_eq!(s.status, "Pending");
    }
}
