//! Typed request parameters whose bounds are checked when they are read and
//! written into the OpenAPI document, from one declaration:
//!
//! ```ignore
//! #[derive(Deserialize, JsonSchema)]
//! struct PageQuery {
//!     #[serde(default, deserialize_with = "params::blank_is_none")]
//!     #[schemars(transform = params::blank_allowed)]
//!     page: Option<params::Int<1, 10_000>>,
//!     #[schemars(required)]
//!     seo_url: Option<params::Text<1, 200>>, // taken by params::required
//! }
//! ```
//!
//! A query string is all text, so [`Int`] reads a number from text (and
//! from a JSON number, for bodies); an empty value of an optional parameter
//! counts as absent ([`blank_is_none`]), as the original client sends
//! `page=` for "the first page", and the document says so
//! ([`blank_allowed`]). A value out of bounds is a 400 naming the
//! parameter ([`crate::plumbing::extract::Query`]).
//!
//! A required parameter is declared `#[schemars(required)] name:
//! Option<T>` and taken by [`required`]: serde's own error for a missing
//! field names no parameter, so an absent one is read as None and refused
//! there, as a blank one is, with a 400 naming it.

use std::borrow::Cow;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, IntoDeserializer, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{json, Value};

use crate::plumbing::error::ApiError;

/// A whole number in `MIN..=MAX`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Int<const MIN: i64, const MAX: i64>(pub i64);

impl<const MIN: i64, const MAX: i64> Int<MIN, MAX> {
    /// The number.
    pub fn get(self) -> i64 {
        self.0
    }

    fn checked<E: de::Error>(n: i64) -> Result<Self, E> {
        if (MIN..=MAX).contains(&n) {
            Ok(Int(n))
        } else {
            Err(E::custom(format_args!("must be between {MIN} and {MAX}")))
        }
    }
}

impl<'de, const MIN: i64, const MAX: i64> Deserialize<'de> for Int<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IntVisitor<const MIN: i64, const MAX: i64>;

        impl<const MIN: i64, const MAX: i64> Visitor<'_> for IntVisitor<MIN, MAX> {
            type Value = Int<MIN, MAX>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(f, "a whole number between {MIN} and {MAX}")
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
                Int::checked(n)
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
                Int::checked(i64::try_from(n).unwrap_or(i64::MAX))
            }

            /// JSON Schema's integer includes `3.0`: a whole float is read too.
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Self::Value, E> {
                if n.fract() == 0.0 && n >= i64::MIN as f64 && n < i64::MAX as f64 {
                    Int::checked(n as i64)
                } else {
                    Err(E::custom("must be a whole number"))
                }
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
                match text.trim().parse::<i64>() {
                    Ok(n) => Int::checked(n),
                    Err(_) => Err(E::custom("must be a whole number")),
                }
            }
        }

        deserializer.deserialize_any(IntVisitor::<MIN, MAX>)
    }
}

impl<const MIN: i64, const MAX: i64> JsonSchema for Int<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Int_{MIN}_{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "format": "int64", "minimum": MIN, "maximum": MAX })
    }
}

/// Largest id accepted in a parameter or body (ids are positive).
pub const MAX_ID: i64 = i64::MAX / 2;

/// An id in a parameter.
pub type Id = Int<1, MAX_ID>;

/// The largest whole number a JSON number (a double) holds exactly, 2^53 - 1:
/// the top of a body's whole-number field.
pub const MAX_WHOLE: i64 = 9_007_199_254_740_991;

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
                if n.fract() == 0.0 && n.abs() <= MAX_WHOLE as f64 {
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

/// Text of `MIN..=MAX` characters once trimmed (the trimmed text is kept).
/// With `MIN` 1 the parameter is required and may not be blank.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Text<const MIN: usize, const MAX: usize>(pub String);

impl<const MIN: usize, const MAX: usize> Text<MIN, MAX> {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<const MIN: usize, const MAX: usize> std::ops::Deref for Text<MIN, MAX> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'de, const MIN: usize, const MAX: usize> Deserialize<'de> for Text<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        let text = raw.trim();
        let n = text.chars().count();
        if n < MIN {
            return Err(de::Error::custom(if MIN == 1 {
                "is required".to_string()
            } else {
                format!("must be at least {MIN} characters")
            }));
        }
        if n > MAX {
            return Err(de::Error::custom(format_args!(
                "must be at most {MAX} characters"
            )));
        }
        Ok(Text(if text.len() == raw.len() {
            raw
        } else {
            text.to_string()
        }))
    }
}

impl<const MIN: usize, const MAX: usize> JsonSchema for Text<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Text_{MIN}_{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        if MIN == 0 {
            json_schema!({ "type": "string", "maxLength": MAX })
        } else {
            // Trimmed before it is counted: at least one visible character.
            json_schema!({ "type": "string", "minLength": MIN, "maxLength": MAX, "pattern": "\\S" })
        }
    }
}

/// For `#[serde(default, deserialize_with = "blank_is_none")]` on an
/// `Option<T>` field: an empty (or blank) value is `None`, anything else is
/// read as `T`.
pub fn blank_is_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    match Option::<String>::deserialize(deserializer)? {
        None => Ok(None),
        Some(raw) if raw.trim().is_empty() => Ok(None),
        Some(raw) => {
            let text: de::value::StringDeserializer<D::Error> = raw.into_deserializer();
            T::deserialize(text).map(Some)
        }
    }
}

/// For a field read by [`blank_is_none`], as `#[schemars(transform =
/// blank_allowed)]`: the documented value is the field's or the empty text
/// (which means absent), so that a client or a fuzzer sending `page=` is
/// within the document. The field's description stays on top.
pub fn blank_allowed(schema: &mut Schema) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let description = object.remove("description");
    let mut value = std::mem::take(object);
    // The field is an Option, whose own schema may admit null: a query
    // parameter is never null.
    let only_type = match value.get_mut("type") {
        Some(Value::Array(types)) => {
            types.retain(|t| t != "null");
            match types.as_slice() {
                [only] => Some(only.clone()),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(only) = only_type {
        value.insert("type".into(), only);
    }
    object.insert("anyOf".into(), json!([value, { "const": "" }]));
    if let Some(description) = description {
        object.insert("description".into(), description);
    }
}

/// The value of the required parameter `name`, declared
/// `#[schemars(required)] name: Option<T>`: absent is a 400 naming it
/// (`{name} is required`, as a blank [`Text`] says).
pub fn required<T>(value: Option<T>, name: &str) -> Result<T, ApiError> {
    value.ok_or_else(|| ApiError::invalid(name, format!("{name} is required")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Probe {
        #[serde(default, deserialize_with = "blank_is_none")]
        page: Option<Int<1, 100>>,
        #[serde(default)]
        name: Option<Text<1, 5>>,
    }

    fn read(query: &str) -> Result<Probe, String> {
        serde_urlencoded::from_str::<Probe>(query).map_err(|e| e.to_string())
    }

    #[test]
    fn numbers_are_read_from_text_within_bounds() {
        assert_eq!(read("page=7").unwrap().page, Some(Int(7)));
        assert_eq!(read("page=%207%20").unwrap().page, Some(Int(7)));
        assert_eq!(read("page=").unwrap().page, None);
        assert_eq!(read("").unwrap().page, None);
        assert_eq!(read("page=0").unwrap_err(), "must be between 1 and 100");
        assert_eq!(read("page=101").unwrap_err(), "must be between 1 and 100");
        assert_eq!(read("page=x").unwrap_err(), "must be a whole number");
        assert_eq!(
            read("page=99999999999999999999").unwrap_err(),
            "must be a whole number"
        );
    }

    #[test]
    fn text_is_trimmed_and_bounded() {
        assert_eq!(read("name=%20ab%20").unwrap().name.unwrap().as_str(), "ab");
        assert_eq!(read("name=%20").unwrap_err(), "is required");
        assert_eq!(
            read("name=abcdef").unwrap_err(),
            "must be at most 5 characters"
        );
        // Characters, not bytes: five Bangla letters fit.
        assert!(read("name=%E0%A6%95%E0%A6%95%E0%A6%95%E0%A6%95%E0%A6%95").is_ok());
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Paged {
        /// Page number.
        #[serde(default, deserialize_with = "blank_is_none")]
        #[schemars(transform = blank_allowed)]
        page: Option<Int<1, 100>>,
    }

    #[test]
    fn a_blank_allowed_parameter_documents_the_empty_value_beside_its_own() {
        let schema = serde_json::to_value(schemars::schema_for!(Paged)).unwrap();
        let page = &schema["properties"]["page"];
        assert_eq!(page["description"], "Page number.");
        assert_eq!(
            page["anyOf"],
            serde_json::json!([
                { "type": "integer", "format": "int64", "minimum": 1, "maximum": 100 },
                { "const": "" }
            ])
        );
        assert!(schema.get("required").is_none());
        let read = |q: &str| serde_urlencoded::from_str::<Paged>(q).map(|p| p.page);
        assert_eq!(read("page=").unwrap(), None);
        assert_eq!(read("page=3").unwrap(), Some(Int(3)));
        assert!(read("page=0").is_err());
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Lookup {
        #[schemars(required)]
        slug: Option<Text<1, 5>>,
    }

    #[test]
    fn a_required_parameter_is_documented_required_and_named_when_absent() {
        let schema = serde_json::to_value(schemars::schema_for!(Lookup)).unwrap();
        assert_eq!(schema["required"], serde_json::json!(["slug"]));
        assert_eq!(schema["properties"]["slug"]["type"], "string");
        let absent: Lookup = serde_urlencoded::from_str("other=1").unwrap();
        let Err(ApiError::BadRequest { message, errors }) = required(absent.slug, "slug") else {
            panic!("an absent slug is a 400");
        };
        assert_eq!(message, "slug is required");
        assert!(errors.contains_key("slug"));
        let present: Lookup = serde_urlencoded::from_str("slug=+ab").unwrap();
        assert_eq!(required(present.slug, "slug").unwrap().as_str(), "ab");
        assert!(serde_urlencoded::from_str::<Lookup>("slug=").is_err());
    }

    #[test]
    fn json_numbers_are_read_too() {
        let n: Int<1, 9> = serde_json::from_str("3").unwrap();
        assert_eq!(n.get(), 3);
        assert!(serde_json::from_str::<Int<1, 9>>("10").is_err());
        assert!(serde_json::from_str::<Int<1, 9>>("\"4\"").is_ok());
        assert_eq!(serde_json::from_str::<Int<1, 9>>("3.0").unwrap().get(), 3);
        assert!(serde_json::from_str::<Int<1, 9>>("3.5").is_err());
        assert!(serde_json::from_str::<Int<1, 9>>("1e300").is_err());
    }

    #[test]
    fn a_body_whole_is_a_json_integer_written_either_way() {
        assert_eq!(serde_json::from_str::<Whole>("3").unwrap(), Whole(3));
        assert_eq!(
            serde_json::from_str::<Whole>("-494.0").unwrap(),
            Whole(-494)
        );
        assert!(serde_json::from_str::<Whole>("2.5").is_err());
        assert!(
            serde_json::from_str::<Whole>("\"3\"").is_err(),
            "text is not a JSON integer"
        );
        assert!(serde_json::from_str::<Whole>("9007199254740993.0").is_err());
    }

    #[test]
    fn the_schema_carries_the_bounds() {
        let schema = serde_json::to_value(schemars::schema_for!(Probe)).unwrap();
        // An optional field's schema is the value's or null.
        let value = |name: &str| {
            let field = &schema["properties"][name];
            field.get("anyOf").map_or(field, |any| &any[0]).clone()
        };
        assert_eq!(value("page")["minimum"], 1);
        assert_eq!(value("page")["maximum"], 100);
        assert_eq!(value("name")["maxLength"], 5);
        assert_eq!(value("name")["minLength"], 1);
    }
}
