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

/// Which questions (`q`, a `product_question` row) shoppers see: published
/// and answered, as the shopper who asked was told ("Your question will
/// appear once the shop has answered it"); the product page, its API and the
/// generated pages all read through it.
pub const QUESTION_SHOWN: &str =
    "q.is_active AND EXISTS (SELECT 1 FROM product_question_answer a WHERE a.question_id = q.id)";
pub use page::{PageLink, PageRequest, Paginator};
