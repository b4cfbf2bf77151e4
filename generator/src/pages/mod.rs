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

use crate::cards::{CardView, Tile};

#[derive(Template)]
#[template(
    source = "{% import \"macros.html\" as m %}{% call m::card_list(cards, false) %}",
    ext = "html"
)]
struct CardsTemplate<'a> {
    cards: &'a [CardView],
}

#[derive(Template)]
#[template(
    source = "{% import \"macros.html\" as m %}{% call m::tile_list(tiles) %}",
    ext = "html"
)]
struct TilesTemplate<'a> {
    tiles: &'a [Tile],
}

/// A list of product cards as HTML (the card macro of `macros.html`).
pub fn card_list_html(cards: &[CardView]) -> String {
    CardsTemplate { cards }.render().unwrap_or_default()
}

/// A list of tiles as HTML (the tile macro of `macros.html`).
pub fn tile_list_html(tiles: &[Tile]) -> String {
    TilesTemplate { tiles }.render().unwrap_or_default()
}
