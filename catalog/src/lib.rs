//! The shop's shared library: the database pool and migrations ([`db`]), the
//! shop's clock ([`clock`]), prices ([`pricing`]) and the deterministic demo
//! catalogue ([`seed`]). Both the origin and the generator build on it, so a
//! rule written here holds for the API and for the static pages alike.

pub mod clock;
pub mod db;
pub mod password;
pub mod pricing;
pub mod read;
pub mod seed;
