//! Request primitives the cart, checkout and order modules read with, kept
//! here until [`crate::plumbing::params`] has their like: a whole number in
//! a JSON body that may be written `3.0` ([`Whole`]) and an id parameter
//! ([`Id`]).

use std::borrow::Cow;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer};

use crate::plumbing::params::Int;

/// Largest id accepted in a parameter.
pub const MAX_ID: i64 = i64::MAX / 2;

/// An id in a parameter.
pub type Id = Int<1, MAX_ID>;

/// A whole number in a JSON body, as the schema's `integer` allows it:
/// `3` or `3.0` (a number with a fraction is refused). Its bounds are
/// checked by the handler, whose message names the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Whole(pub i64);

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WholeVisitor;

        impl Visitor<'_> for WholeVisitor {
            type Value = Whole;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number")
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Whole, E> {
                Ok(Whole(n))
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Whole, E> {
                i64::try_from(n)
                    .map(Whole)
                    .map_err(|_| E::custom("must be a whole number"))
            }

            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Whole, E> {
                // Within ±2^53 a float holds its whole numbers exactly.
                const EXACT: f64 = 9_007_199_254_740_992.0;
                if n.fract() == 0.0 && n.abs() <= EXACT {
                    Ok(Whole(n as i64))
                } else {
                    Err(E::custom("must be a whole number"))
                }
            }
        }

        deserializer.deserialize_any(WholeVisitor)
    }
}

impl JsonSchema for Whole {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Whole".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "format": "int64" })
    }
}
