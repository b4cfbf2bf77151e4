//! The static-site generator: renders every public page to HTML with
//! compile-time templates and writes the site directory ([`output`]). The
//! origin reuses the renderer for on-demand listing pages.

pub mod output;
