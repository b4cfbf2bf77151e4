//! Read queries shared by the origin's API and the generator's pages. Each
//! returns typed rows whose serde names are the field names of SPEC.md §3 (and
//! of the original shop's API where SPEC.md is silent), so the API can answer
//! them as they are and the templates can render them.

pub mod card;
pub mod category;
pub mod content;
pub mod flash;
pub mod home;
pub mod interior;
pub mod listing;
pub mod page;
pub mod product;
pub mod site;

pub use card::{cards, ImageRef, ProductCard};
pub use page::{PageLink, PageRequest, Paginator};
