//! Answer shapes shared by several API groups: a bare success, a message for
//! the shopper, the profile, the original API's PHP-array quirks
//! ([`ById`], [`OrEmpty`]), and JSON or a browser form's redirect
//! ([`JsonOrSeeOther`]).

use std::borrow::Cow;

use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::domain::accounts;
use crate::plumbing::cache::documented_as_json;

/// `{success: true}`: the answer of a call that only does something (the
/// other visitor groups answer it too).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SuccessResponse {
    pub success: bool,
}

impl SuccessResponse {
    pub const OK: SuccessResponse = SuccessResponse { success: true };
}

/// `{success: true, message}`: a call done, in words for the shopper.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MessageResponse {
    pub success: bool,
    pub message: &'static str,
}

impl MessageResponse {
    pub fn new(message: &'static str) -> MessageResponse {
        MessageResponse {
            success: true,
            message,
        }
    }
}

/// A shopper as the account pages show them (in the answers of
/// `/api/auth/login`, `register`, `user` and `/api/user/user-update`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct UserProfile {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub emergency_phone: Option<String>,
    /// `emergency_phone` again, the name the original client reads
    /// (ORIGINAL-API.md §1).
    pub emergency_mobile: Option<String>,
    /// YYYY-MM-DD.
    pub birthday: Option<String>,
    pub gender: Option<String>,
    pub district: Option<String>,
    pub postcode: Option<String>,
}

impl From<accounts::User> for UserProfile {
    fn from(u: accounts::User) -> UserProfile {
        UserProfile {
            id: u.id,
            name: u.name,
            email: u.email,
            phone: u.phone,
            emergency_mobile: u.emergency_phone.clone(),
            emergency_phone: u.emergency_phone,
            birthday: u.birthday,
            gender: u.gender,
            district: u.district,
            postcode: u.postcode,
        }
    }
}

/// Rows keyed by their id, as a JSON object in the order given
/// (`{"10": {...}, "11": {...}}`), and `[]` when there are none: the
/// original API sent a PHP array, which is a list when empty.
#[derive(Debug)]
pub struct ById<T>(pub Vec<(i64, T)>);

impl<T: Serialize> Serialize for ById<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_empty() {
            return serializer.serialize_seq(Some(0))?.end();
        }
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (id, row) in &self.0 {
            map.serialize_entry(&id.to_string(), row)?;
        }
        map.end()
    }
}

impl<T: JsonSchema> JsonSchema for ById<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("ById_{}", T::schema_name()).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("origin::surfaces::api::answers::ById<{}>", T::schema_id()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let row = generator.subschema_for::<T>();
        json_schema!({
            "description": "Keyed by id; [] when there are none",
            "anyOf": [
                { "type": "object", "additionalProperties": row },
                { "type": "array", "maxItems": 0 },
            ],
        })
    }
}

/// One row, or `[]` when there is none (the original API's empty PHP array).
#[derive(Debug)]
pub struct OrEmpty<T>(pub Option<T>);

impl<T: Serialize> Serialize for OrEmpty<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(row) => row.serialize(serializer),
            None => serializer.serialize_seq(Some(0))?.end(),
        }
    }
}

impl<T: JsonSchema> JsonSchema for OrEmpty<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("OrEmpty_{}", T::schema_name()).into()
    }

    fn schema_id() -> Cow<'static, str> {
        format!(
            "origin::surfaces::api::answers::OrEmpty<{}>",
            T::schema_id()
        )
        .into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let row = generator.subschema_for::<T>();
        json_schema!({
            "description": "[] when there is none",
            "anyOf": [row, { "type": "array", "maxItems": 0 }],
        })
    }
}

/// The answer of a call that a script and a browser's plain form both send:
/// JSON for the script, a 303 to a page for the browser ([`wants_html`]);
/// documented as the JSON.
#[derive(Debug)]
pub enum JsonOrSeeOther<T> {
    Json(Box<T>),
    To(&'static str),
}

impl<T: Serialize> IntoResponse for JsonOrSeeOther<T> {
    fn into_response(self) -> Response {
        match self {
            JsonOrSeeOther::Json(body) => Json(*body).into_response(),
            JsonOrSeeOther::To(url) => Redirect::to(url).into_response(),
        }
    }
}

documented_as_json!(JsonOrSeeOther);

/// Whether the caller is a browser navigating (its `Accept` header names
/// `text/html` first) rather than a script asking for JSON.
pub fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .is_some_and(|first| first.trim().starts_with("text/html"))
}
