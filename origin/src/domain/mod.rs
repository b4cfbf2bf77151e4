//! The shop's rules and writes, free of HTTP routing: each module owns its
//! tables' SQL and answers in Rust types.
//!
//! - [`identity`]: users, guests and their tokens; [`accounts`]: issuing and
//!   revoking sign-in tokens; [`merge`]: what a guest brings along on signing in;
//! - [`addresses`]: a shopper's address book and its defaults;
//!   [`password_reset`]: single-use reset links; [`newsletter`]: its subscribers;
//!   [`contact`]: the contact form's messages to the shop;
//! - [`lists`]: the compare list and the wishlist; [`reviews`]: reviews of
//!   delivered products; [`talk`]: questions, comments and recent views;
//! - [`cart`], [`coupon`], [`orders`]: the cart, its discounts, and placing an
//!   order in one transaction;
//! - [`badges`]: the header's counts of the compare list and the wishlist;
//! - [`payments`]: paying an order through a gateway, settled by the gateway's
//!   own confirmation;
//! - [`social`]: sign-in with Google and Facebook (OAuth 2.0);
//! - [`mail`]: outgoing mail (SMTP or the outbox folder);
//! - [`listing_query`]: the listing's query parameters and the products they select;
//! - [`search`]: the in-memory product search.
//!
//! The domain never reaches into [`crate::surfaces`].

pub mod accounts;
pub mod addresses;
pub mod badges;
pub mod cart;
pub mod contact;
pub mod coupon;
pub mod identity;
pub mod listing_query;
pub mod lists;
pub mod mail;
pub mod merge;
pub mod newsletter;
pub mod orders;
pub mod password_reset;
pub mod payments;
pub mod reviews;
pub mod search;
pub mod social;
pub mod talk;
