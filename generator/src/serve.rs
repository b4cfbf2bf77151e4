//! The generator as the origin uses it: everything the origin needs to serve
//! the built site and to render the pages the build does not write.
//!
//! - the site directory: [`Manifest`] (read from [`MANIFEST_FILE`]), its
//!   [`Entry`]s, [`file_for`] (the file of a URL path), [`hash`] (a body's
//!   ETag) and [`write_atomic`];
//! - compression on request: [`brotli_bytes`] at [`Compression::default`],
//!   [`gzip_bytes`];
//! - the rules the origin shares with the pages: [`responsive_width`] (image
//!   variants, SPEC.md §9) and the image URLs pages ask for ([`srcset`] over
//!   [`SRCSET_WIDTHS`]), the error pages' paths ([`NOT_FOUND_PATH`],
//!   [`SERVER_ERROR_PATH`]) and [`shell_for_prefix`] (the per-visitor shell
//!   a path under a shell's prefix is answered with);
//! - on-demand listing pages ([`ALL_PRODUCTS`] is the whole shop's slug):
//!   [`render_variant`] renders one [`Variant`] of
//!   a category's listing with the page frame ([`Site`], made of the
//!   [`Chrome`] rendered from [`ChromeData`] and the island [`Assets`]), the
//!   category tree ([`Catalogue`]) and the shared [`ListingData`]; it
//!   returns a [`Page`];
//! - the basic pages for browsers without script (`/lite/...`):
//!   [`render_lite`] renders a [`LitePage`] (cart, checkout, sign-in,
//!   sign-up, track-order, an order's confirmation) in the same frame.
//!
//! - the header fields of public answers (`answer`): [`cache_header_values`]
//!   (freshness capped at the next price change), [`page_fields`] and
//!   [`public_page_fields`] (a page's type, `Vary`, coding and [`etag`]),
//!   which `generator watch` stages at the edge with the same values, and
//!   [`security_fields`] (every answer's, by its type).
//!
//! Nothing else of the generator is public to the origin; the binary's
//! commands are in [`crate::commands`].

pub use crate::answer::{
    cache_header_values, content_type, etag, page_fields, page_policy, public_page_fields,
    security_fields, BROWSER_TTL, EDGE_TTL, GZIP_ON_REQUEST, OTHER_CSP, PAGE_CSP,
    PERMISSIONS_POLICY, STALE_IF_ERROR, STALE_WHILE_REVALIDATE, VARY,
};
pub use crate::catalogue::{Catalogue, LISTING_PAGE};
pub use crate::chrome::{Chrome, ChromeData};
pub use crate::format::{responsive_width, srcset, SRCSET_WIDTHS};
pub use crate::islands::Assets;
pub use crate::output::{
    brotli_bytes, file_for, gzip_bytes, hash, write_atomic, Compression, Entry, Manifest, Page,
    MANIFEST_FILE,
};
pub use crate::pages::errors::{NOT_FOUND_PATH, SERVER_ERROR_PATH};
pub use crate::pages::listing::{render_variant, FilterPanel, ListingData, Variant, ALL_PRODUCTS};
pub use crate::pages::lite::{
    render_lite, CartView, CheckoutValues, CheckoutView, ConfirmForm, FieldErrors, ForgotView,
    LiteFrame, LiteLine, LiteMoney, LitePage, LoginView, MessageView, OrderSummary, OrderView,
    RegisterView, ResetView, TrackView,
};
pub use crate::pages::shells::shell_for_prefix;
pub use crate::render::Site;
