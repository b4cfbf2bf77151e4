//! The static-site generator: renders every public page to HTML with
//! compile-time templates (askama) and writes the site directory
//! ([`output`]). The origin reuses the renderer for on-demand listing pages.
//!
//! - [`build`]: the pipeline of timed steps behind `generator build`;
//! - [`pages`]: one module per page type;
//! - [`render`]: the page frame (head, chrome, scripts); [`chrome`]: the
//!   header, drawer and footer every page shares;
//! - [`islands`]: island markup and Vite's manifest; [`props`]: each
//!   island's props, and their schema for the web side's types; [`format`]: taka,
//!   responsive widths, JSON for scripts;
//! - [`watch`]: `generator watch`, rebuilds from the change log and purges the edge.

pub mod build;
pub mod cards;
pub mod catalogue;
pub mod chrome;
pub mod format;
pub mod islands;
pub mod measure;
pub mod output;
pub mod pages;
pub mod props;
pub mod render;
pub mod watch;
