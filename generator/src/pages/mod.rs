//! The page types. Each module turns rows from `catalog::read` into pages:
//! its `<main>` content through its own template, then [`crate::render::Site::page`].

pub mod content;
pub mod crawl;
pub mod errors;
pub mod home;
pub mod listing;
pub mod lite;
pub mod product;
pub mod shells;
