//! The static-site generator: renders every public page to HTML with
//! compile-time templates (askama) and writes the site directory.
//!
//! Its library has two public faces:
//! - [`serve`]: the site face for the origin, which serves the built site and
//!   renders further listing pages on demand with the same renderer;
//! - [`commands`]: the commands for the generator's binary (`build`,
//!   `measure`, `watch`, `islands-schema`) and for tests that build a site.
//!
//! Inside (crate-private):
//! - `build`: the pipeline of named, timed steps behind `generator build`;
//!   `output`: the site directory (pages, precompressed copies, manifest);
//! - `pages`: one module per page type; `cards`: product cards and tiles;
//!   `catalogue`: the category tree and what each category lists;
//! - `render`: the page frame (head, chrome, scripts); `chrome`: the
//!   header, drawer and footer every page shares;
//! - `islands`: island markup and Vite's manifest; `props`: each
//!   island's props, and their schema for the web side's types; `format`:
//!   taka, responsive widths, JSON for scripts;
//! - `watch`: `generator watch`, rebuilds from the change log and purges the
//!   edge; `stage`: the pages a flash-sale boundary changes, rendered before it
//!   and staged at the edge; `answer`: the header fields of public answers
//!   (shared with the origin through [`serve`]); `measure`: the size and compression tables of `generator measure`.
//!
//! The markup is in `templates/` (askama); Rust code computes what a page
//! shows and hands it to a template.

pub mod commands;
pub mod serve;

pub(crate) mod answer;
pub(crate) mod build;
pub(crate) mod cards;
pub(crate) mod catalogue;
pub(crate) mod chrome;
pub(crate) mod format;
pub(crate) mod islands;
pub(crate) mod measure;
pub(crate) mod output;
pub(crate) mod pages;
pub(crate) mod props;
pub(crate) mod render;
pub(crate) mod stage;
pub(crate) mod watch;
