//! Shells of the per-visitor pages (cart, checkout, account...): the shared
//! header and footer around one page island that the client fills in. They
//! are the same for every visitor, so they are static and cacheable; what is
//! personal arrives through the API.

use askama::Template;
use catalog::surrogate::SurrogateKey;

use crate::output::Page;
use crate::render::{Meta, Site};

/// Each shell: path, heading, island, the text shown until the island runs.
pub const SHELLS: &[(&str, &str, &str, &str)] = &[
    ("/cart", "Shopping cart", "cart-page", "Loading your cart…"),
    (
        "/checkout",
        "Checkout",
        "checkout-page",
        "Loading checkout…",
    ),
    ("/payment", "Payment", "payment-page", "Loading payment…"),
    (
        "/order",
        "Order details",
        "order-page",
        "Loading your order…",
    ),
    (
        "/thank-you",
        "Thank you",
        "thank-you-page",
        "Loading your order…",
    ),
    ("/fail", "Payment failed", "fail-page", "Loading…"),
    (
        "/nagad-thank-you",
        "Payment",
        "redirect-page",
        "Checking your payment…",
    ),
    (
        "/redirect-from-ssl",
        "Payment",
        "redirect-page",
        "Checking your payment…",
    ),
    (
        "/compare",
        "Compare products",
        "compare-page",
        "Loading your compare list…",
    ),
    (
        "/wishlist",
        "Wishlist",
        "wishlist-page",
        "Loading your wishlist…",
    ),
    ("/review", "Write a review", "review-page", "Loading…"),
    (
        "/review_workable_copy",
        "Write a review",
        "review-page",
        "Loading…",
    ),
    (
        "/product/review",
        "Write a review",
        "review-page",
        "Loading…",
    ),
    (
        "/page/track-order",
        "Track your order",
        "track-order-page",
        "Loading order tracking…",
    ),
    ("/user/login", "Sign in", "login-page", "Loading sign-in…"),
    (
        "/user/registration",
        "Create an account",
        "registration-page",
        "Loading…",
    ),
    (
        "/user/forgot_password",
        "Forgot password",
        "forgot-password-page",
        "Loading…",
    ),
    (
        "/user/reset_password",
        "Reset password",
        "reset-password-page",
        "Loading…",
    ),
    (
        "/user",
        "My account",
        "account-page",
        "Loading your account…",
    ),
    (
        "/user/profile",
        "My Profile",
        "account-page",
        "Loading your profile…",
    ),
    (
        "/user/wishlist",
        "My wishlist",
        "account-page",
        "Loading your wishlist…",
    ),
    (
        "/user/orders",
        "My orders",
        "account-page",
        "Loading your orders…",
    ),
    (
        "/user/reviews",
        "My reviews",
        "account-page",
        "Loading your reviews…",
    ),
    (
        "/user/address",
        "Address book",
        "account-page",
        "Loading your addresses…",
    ),
    (
        "/user/change-password",
        "Change password",
        "account-page",
        "Loading…",
    ),
];

/// Where the origin finds the shell of a path with a variable last segment
/// (`/user/{view}`, `/product/review/{id}`) that has no shell of its own.
pub fn shell_for_prefix(path: &str) -> Option<&'static str> {
    if path.starts_with("/user/") {
        Some("/user")
    } else if path.starts_with("/product/review/") {
        Some("/product/review")
    } else {
        None
    }
}

/// The basic page (no script needed, rendered by the origin) that a
/// shell's fallback links to: shell path, basic page, link text.
pub const LITE_PAGES: &[(&str, &str, &str)] = &[
    ("/cart", "/lite/cart", "Use the basic cart"),
    ("/checkout", "/lite/checkout", "Use the basic checkout"),
    ("/user/login", "/lite/login", "Use the basic sign-in"),
    (
        "/user/registration",
        "/lite/register",
        "Use the basic sign-up",
    ),
    (
        "/page/track-order",
        "/lite/track-order",
        "Use the basic order tracking",
    ),
    (
        "/user/forgot_password",
        "/lite/forgot-password",
        "Use the basic password reset",
    ),
    // A link mailed for the script page: the basic page sends one for itself.
    (
        "/user/reset_password",
        "/lite/forgot-password",
        "Ask for a new link on the basic page",
    ),
];

#[derive(Template)]
#[template(path = "shell.html")]
struct ShellTemplate<'a> {
    title: &'a str,
    island: &'a str,
    fallback: &'a str,
    /// The basic page's address and link text, when the shell has one.
    lite: Option<(&'a str, &'a str)>,
}

/// Every shell page.
pub fn pages(site: &Site) -> anyhow::Result<Vec<Page>> {
    SHELLS
        .iter()
        .map(|(path, title, island, fallback)| {
            let main = ShellTemplate {
                title,
                island,
                fallback,
                lite: LITE_PAGES
                    .iter()
                    .find(|(shell, _, _)| shell == path)
                    .map(|(_, href, label)| (*href, *label)),
            }
            .render()?;
            let meta = Meta {
                title: format!("{title} | {}", site.chrome.company),
                path: path.to_string(),
                noindex: true,
                ..Meta::default()
            };
            site.page(&meta, &main, vec![SurrogateKey::Shells.to_string()])
        })
        .collect()
}
