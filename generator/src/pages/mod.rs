//! The page types. Each module turns rows from `catalog::read` into pages:
//! its `<main>` content through its own template, then [`crate::render::Site::page`].

pub mod content;
pub mod crawl;
pub mod errors;
pub mod home;
pub mod listing;
pub mod product;
pub mod shells;

use askama::Template;

use crate::cards::CardView;

#[derive(Template)]
#[template(
    source = "{% import \"macros.html\" as m %}{% call m::card_list(cards, false) %}",
    ext = "html"
)]
struct CardsTemplate<'a> {
    cards: &'a [CardView],
}

/// A list of product cards as HTML (the card macro of `macros.html`).
pub fn card_list_html(cards: &[CardView]) -> String {
    CardsTemplate { cards }.render().unwrap_or_default()
}
