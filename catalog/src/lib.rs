//! The shop's shared library: the database pool and migrations ([`db`]), the
//! shop's clock ([`clock`]), prices ([`pricing`]) and moving a shop from
//! SQLite to PostgreSQL ([`copy_db`]). Both the origin and the generator
//! build on it, so a rule written here holds for the API and for the static
//! pages alike. The demo catalogue is the `demo` crate, built on this one.

pub mod clock;
pub mod copy_db;
pub mod db;
pub mod password;
pub mod pricing;
pub mod read;
pub mod surrogate;
