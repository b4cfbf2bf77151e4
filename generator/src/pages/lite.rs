//! The basic shop: cart, checkout, sign-in, sign-up, track-order and an
//! order's confirmation as plain HTML forms, for browsers that run no script.
//! The origin renders them per visitor (`/lite/...`, never cached) with
//! these templates inside the same frame as every page ([`Site::page`]);
//! this module knows nothing of carts or orders, only what to show.

use askama::Template;

use crate::render::{Meta, Site};

/// A form's field messages: (field name, message).
pub type FieldErrors = Vec<(String, String)>;

/// What every basic page shares: the CSRF value its forms carry, a message
/// to show at the top (an error or a notice), and who is signed in.
#[derive(Debug, Clone, Default)]
pub struct LiteFrame {
    /// The hidden `csrf` field of every POST form.
    pub csrf: String,
    /// A problem to show above the page (`role="alert"`).
    pub error: Option<String>,
    /// What just happened ("Cart updated").
    pub notice: Option<String>,
    /// The signed-in shopper's name, when there is one.
    pub signed_in: Option<String>,
}

/// A cart line as the basic pages show it, money already formatted.
#[derive(Debug, Clone, Default)]
pub struct LiteLine {
    pub title: String,
    /// The product page.
    pub href: String,
    /// "Colour: Walnut", or a set's name.
    pub detail: Option<String>,
    pub qty: i64,
    /// Taka each, formatted.
    pub unit: String,
    /// Taka for the line, formatted.
    pub total: String,
    /// The line's code (what update and remove name).
    pub code: String,
    /// A product set's `pid:code,...` when the line is a set (removed as one,
    /// its quantity not changed here).
    pub set_items: Option<String>,
}

/// The money of a cart or an order, formatted.
#[derive(Debug, Clone, Default)]
pub struct LiteMoney {
    pub subtotal: String,
    /// The coupon and what it takes off.
    pub discount: Option<(String, String)>,
    /// Delivery, once a district is known.
    pub delivery: Option<String>,
    pub total: String,
    /// An order's paid and due amounts.
    pub paid: Option<String>,
    pub due: Option<String>,
}

/// One of the basic pages.
#[derive(Debug, Clone)]
pub enum LitePage {
    Cart(CartView),
    Checkout(CheckoutView),
    Login(LoginView),
    Register(RegisterView),
    /// Asking for a password reset link.
    Forgot(ForgotView),
    /// Choosing a new password with a reset link's token.
    Reset(ResetView),
    Track(TrackView),
    Order(OrderView),
    /// A page that only says something (a refused form, a missing page).
    Message(MessageView),
}

#[derive(Debug, Clone, Default)]
pub struct CartView {
    pub lines: Vec<LiteLine>,
    pub money: LiteMoney,
    pub max_qty: i64,
    /// The cart holds a pre-booking: it is paid in part online, which the
    /// basic pages cannot take, so they offer no checkout.
    pub pre_booking: bool,
}

/// The checkout form's values (as the shopper typed them).
#[derive(Debug, Clone, Default)]
pub struct CheckoutValues {
    pub name: String,
    pub mobile: String,
    pub emergency_mobile: String,
    pub email: String,
    pub district: String,
    pub address: String,
}

#[derive(Debug, Clone, Default)]
pub struct CheckoutView {
    pub lines: Vec<LiteLine>,
    pub money: LiteMoney,
    pub values: CheckoutValues,
    pub errors: FieldErrors,
    /// Every district's name, for the select.
    pub districts: Vec<String>,
    /// A key that makes placing this form twice place one order.
    pub idempotency_key: String,
}

#[derive(Debug, Clone, Default)]
pub struct LoginView {
    pub login: String,
    pub errors: FieldErrors,
}

#[derive(Debug, Clone, Default)]
pub struct RegisterView {
    pub name: String,
    pub email: String,
    pub telephone: String,
    pub errors: FieldErrors,
}

#[derive(Debug, Clone, Default)]
pub struct ForgotView {
    pub email: String,
    pub errors: FieldErrors,
}

/// The reset form: the link's token and e-mail ride along hidden.
#[derive(Debug, Clone, Default)]
pub struct ResetView {
    pub token: String,
    pub email: String,
    pub errors: FieldErrors,
}

/// An order as tracking and the confirmation show it.
#[derive(Debug, Clone, Default)]
pub struct OrderSummary {
    pub number: String,
    pub date: String,
    pub customer_name: String,
    pub status: String,
    pub payment_status: String,
    pub payment_method: String,
    pub lines: Vec<LiteLine>,
    pub money: LiteMoney,
}

#[derive(Debug, Clone, Default)]
pub struct TrackView {
    pub number: String,
    pub mobile: String,
    pub errors: FieldErrors,
    pub order: Option<OrderSummary>,
}

#[derive(Debug, Clone, Default)]
pub struct OrderView {
    pub order: OrderSummary,
    /// The mobile the order was placed with (for the track link).
    pub mobile: String,
}

#[derive(Debug, Clone, Default)]
pub struct MessageView {
    pub title: String,
    pub text: String,
    /// (label, href) of the way on.
    pub link: (String, String),
    /// A form to send again with the page's CSRF value, when the page asks
    /// to confirm what a form without one asked for.
    pub confirm: Option<ConfirmForm>,
}

/// A form that repeats a request, with the CSRF value the page adds.
#[derive(Debug, Clone, Default)]
pub struct ConfirmForm {
    pub action: String,
    /// The request's fields, sent again as they were.
    pub fields: Vec<(String, String)>,
    pub button: String,
}

fn find<'a>(errors: &'a FieldErrors, field: &str) -> Option<&'a str> {
    errors
        .iter()
        .find(|(f, _)| f == field)
        .map(|(_, m)| m.as_str())
}

#[derive(Template)]
#[template(path = "lite/cart.html")]
struct CartTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a CartView,
}

#[derive(Template)]
#[template(path = "lite/checkout.html")]
struct CheckoutTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a CheckoutView,
}

impl CheckoutTemplate<'_> {
    fn err(&self, field: &str) -> Option<&str> {
        find(&self.v.errors, field)
    }
}

#[derive(Template)]
#[template(path = "lite/login.html")]
struct LoginTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a LoginView,
}

impl LoginTemplate<'_> {
    fn err(&self, field: &str) -> Option<&str> {
        find(&self.v.errors, field)
    }
}

#[derive(Template)]
#[template(path = "lite/register.html")]
struct RegisterTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a RegisterView,
}

impl RegisterTemplate<'_> {
    fn err(&self, field: &str) -> Option<&str> {
        find(&self.v.errors, field)
    }
}

#[derive(Template)]
#[template(path = "lite/forgot.html")]
struct ForgotTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a ForgotView,
}

impl ForgotTemplate<'_> {
    fn err(&self, field: &str) -> Option<&str> {
        find(&self.v.errors, field)
    }
}

#[derive(Template)]
#[template(path = "lite/reset.html")]
struct ResetTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a ResetView,
}

impl ResetTemplate<'_> {
    fn err(&self, field: &str) -> Option<&str> {
        find(&self.v.errors, field)
    }
}

#[derive(Template)]
#[template(path = "lite/track.html")]
struct TrackTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a TrackView,
}

impl TrackTemplate<'_> {
    fn err(&self, field: &str) -> Option<&str> {
        find(&self.v.errors, field)
    }
}

#[derive(Template)]
#[template(path = "lite/order.html")]
struct OrderTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a OrderView,
}

#[derive(Template)]
#[template(path = "lite/message.html")]
struct MessageTemplate<'a> {
    f: &'a LiteFrame,
    v: &'a MessageView,
}

impl LitePage {
    /// The page's heading and title.
    pub fn title(&self) -> &str {
        match self {
            LitePage::Cart(_) => "Shopping cart",
            LitePage::Checkout(_) => "Checkout",
            LitePage::Login(_) => "Sign in",
            LitePage::Register(_) => "Create an account",
            LitePage::Forgot(_) => "Forgot password",
            LitePage::Reset(_) => "Reset password",
            LitePage::Track(_) => "Track your order",
            LitePage::Order(_) => "Thank you for your order",
            LitePage::Message(m) => &m.title,
        }
    }
}

/// Renders a basic page at `path` in the shop's frame: the HTML document.
pub fn render_lite(
    site: &Site,
    path: &str,
    frame: &LiteFrame,
    page: &LitePage,
) -> anyhow::Result<Vec<u8>> {
    let f = frame;
    let main = match page {
        LitePage::Cart(v) => CartTemplate { f, v }.render()?,
        LitePage::Checkout(v) => CheckoutTemplate { f, v }.render()?,
        LitePage::Login(v) => LoginTemplate { f, v }.render()?,
        LitePage::Register(v) => RegisterTemplate { f, v }.render()?,
        LitePage::Forgot(v) => ForgotTemplate { f, v }.render()?,
        LitePage::Reset(v) => ResetTemplate { f, v }.render()?,
        LitePage::Track(v) => TrackTemplate { f, v }.render()?,
        LitePage::Order(v) => OrderTemplate { f, v }.render()?,
        LitePage::Message(v) => MessageTemplate { f, v }.render()?,
    };
    let meta = Meta {
        title: format!("{} | {}", page.title(), site.chrome.company),
        path: path.to_string(),
        noindex: true,
        ..Meta::default()
    };
    Ok(site.page(&meta, &main, Vec::new())?.body)
}
