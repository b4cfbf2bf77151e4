//! Extractors whose rejections use the API's error shape, so a malformed
//! query string or body gets the same JSON 400 as any other bad input.

use std::borrow::Cow;

use axum::extract::rejection::{FormRejection, JsonRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::COOKIE;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method};
use serde::de::DeserializeOwned;

use aide::generate::GenContext;
use aide::openapi::{
    MediaType, Operation, ParameterSchemaOrContent, RequestBody, Response, SchemaObject,
};
use aide::operation::{add_parameters, parameters_from_schema, set_body, ParamLocation};
use aide::OperationInput;
use schemars::JsonSchema;
use serde_json::Value;

use crate::plumbing::error::{early_errors, ApiError, INVALID_INPUT};

/// `Query<T>` that answers a JSON 400 when the query string does not parse.
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or_default();
        // NUL read as U+FFFD (see [`REPLACEMENT`]).
        let query = if query.contains("%00") {
            Cow::Owned(query.replace("%00", "%EF%BF%BD"))
        } else {
            Cow::Borrowed(query)
        };
        read_query(&query).map(Query)
    }
}

/// Reads a query string into `T`; a value that does not fit is a 400 naming
/// its parameter (`{"errors": {"page": ["page must be between 1 and 100"]}}`).
pub fn read_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let pairs = form_urlencoded::parse(query.as_bytes());
    let deserializer = serde_urlencoded::Deserializer::new(pairs);
    serde_path_to_error::deserialize(deserializer).map_err(|err| {
        let mut field = err.path().to_string();
        let mut cause = err.into_inner().to_string();
        // serde names a missing field in its message, not in the path.
        if let Some(name) = cause
            .strip_prefix("missing field `")
            .and_then(|rest| rest.strip_suffix('`'))
        {
            field = name.to_string();
            cause = "is required".to_string();
        }
        if field.is_empty() || field == "." {
            return ApiError::BadRequest {
                message: format!("Invalid query parameters: {cause}"),
                errors: Default::default(),
            };
        }
        // The parameter types' own messages read after the name
        // ("page must be between 1 and 100"); serde's own follow a colon.
        let message = if cause.starts_with("must ") || cause.starts_with("is ") {
            format!("{field} {cause}")
        } else {
            format!("{field}: {cause}")
        };
        ApiError::invalid(&field, message)
    })
}

/// What a NUL character in a query string, form or JSON body is read as:
/// U+FFFD, the replacement character. No stored text holds a NUL (PostgreSQL's
/// `text` cannot, and binding one there is an error), so a NUL in input can
/// only be junk; read as U+FFFD it matches nothing on either database (a
/// lookup is a 404, a number a 400, a search finds nothing) instead of
/// failing on one of them.
pub const REPLACEMENT: char = '\u{FFFD}';

/// `body` with every JSON escape `\u0000` (a NUL in a string) replaced by
/// `\ufffd`; `None` when it has none. An escaped backslash followed by
/// `u0000` is text, not an escape, and stays.
fn json_without_nul(body: &[u8]) -> Option<Vec<u8>> {
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < body.len() {
        // An escape is a backslash and what follows it: `\\` is one.
        let step = if body[i] == b'\\' { 2 } else { 1 };
        let end = (i + step).min(body.len());
        if body[i..].starts_with(b"\\u0000") {
            let out = out.get_or_insert_with(|| body[..i].to_vec());
            out.extend_from_slice(b"\\ufffd");
            i += 6;
            continue;
        }
        if let Some(out) = out.as_mut() {
            out.extend_from_slice(&body[i..end]);
        }
        i = end;
    }
    out
}

/// A struct's fields become the documented query parameters; a list of pairs
/// (read by [`crate::surfaces::api::category::Params`]) documents none, its operation lists
/// them by hand.
impl<T: JsonSchema> OperationInput for Query<T> {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let schema = ctx.schema.subschema_for::<T>();
        let mut params = parameters_from_schema(ctx, schema, ParamLocation::Query);
        for param in &mut params {
            if let ParameterSchemaOrContent::Schema(object) = &mut param.parameter_data_mut().format
            {
                not_null(&mut object.json_schema);
            }
        }
        add_parameters(ctx, operation, params);
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, Response)> {
        early_errors(ctx, &[INVALID_INPUT])
    }
}

/// A query parameter is absent or text, never null: an optional field's
/// `"type": ["integer", "null"]` (or `anyOf` with null) loses its null, so a
/// client or fuzzer does not send `?page=null`.
fn not_null(schema: &mut schemars::Schema) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            object.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(any)) = object.get("anyOf") {
        let rest: Vec<Value> = any
            .iter()
            .filter(|s| s.get("type").is_none_or(|t| t != "null"))
            .cloned()
            .collect();
        if let [only] = rest.as_slice() {
            let only = only.clone();
            object.remove("anyOf");
            if let Value::Object(fields) = only {
                object.extend(fields);
            }
        }
    }
}

/// `Json<T>` that answers a JSON 400 (or 415/413 folded into 400) when the body
/// is not the expected JSON.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (parts, body) = req.into_parts();
        let bytes =
            axum::body::Bytes::from_request(Request::from_parts(parts.clone(), body), state)
                .await
                .map_err(|rejection| ApiError::BadRequest {
                    message: format!("Invalid JSON body: {}", rejection.body_text()),
                    errors: Default::default(),
                })?;
        // Every body is a struct, documented as an object; serde would also
        // read a struct from an array (`[null, null]`), which no client means.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            return Err(ApiError::BadRequest {
                message: "Invalid JSON body: the body must be a JSON object".into(),
                errors: Default::default(),
            });
        }
        // NUL read as U+FFFD (see [`REPLACEMENT`]).
        let bytes = match json_without_nul(&bytes) {
            Some(replaced) => axum::body::Bytes::from(replaced),
            None => bytes,
        };
        let req = Request::from_parts(parts, axum::body::Body::from(bytes));
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Json(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

impl<T: JsonSchema> OperationInput for Json<T> {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        let schema = ctx.schema.subschema_for::<T>();
        let description = ctx
            .resolve_schema(&schema)
            .get("description")
            .and_then(|d| d.as_str())
            .map(String::from);
        let body = RequestBody {
            description,
            content: [(
                "application/json".to_string(),
                MediaType {
                    schema: Some(SchemaObject {
                        json_schema: schema,
                        example: None,
                        external_docs: None,
                    }),
                    ..Default::default()
                },
            )]
            .into_iter()
            .collect(),
            required: true,
            extensions: Default::default(),
        };
        set_body(ctx, operation, body);
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, Response)> {
        early_errors(ctx, &[INVALID_INPUT])
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    ApiError::BadRequest {
        message: format!("Invalid JSON body: {}", rejection.body_text()),
        errors: Default::default(),
    }
}

/// The query string's `(name, value)` pairs, followed, for a POST whose body
/// is a form (`application/x-www-form-urlencoded`), by the form's fields: a
/// GET call that accepts POST as well reads its parameters from either.
#[derive(Debug, Clone, Default)]
pub struct Fields(pub Vec<(String, String)>);

/// The fields are read by hand ([`crate::surfaces::api::category::Params`]); the operation lists them.
impl OperationInput for Fields {
    fn inferred_early_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, Response)> {
        early_errors(ctx, &[INVALID_INPUT])
    }
}

impl<S: Send + Sync> FromRequest<S> for Fields {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = req.into_parts();
        let Query(mut pairs) =
            Query::<Vec<(String, String)>>::from_request_parts(&mut parts, state).await?;
        let is_form = parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        if parts.method == Method::POST && is_form {
            let req = Request::from_parts(parts, body);
            match axum::Form::<Vec<(String, String)>>::from_request(req, state).await {
                // NUL read as U+FFFD (see [`REPLACEMENT`]).
                Ok(axum::Form(fields)) => pairs.extend(fields.into_iter().map(|(k, v)| {
                    (
                        k.replace('\0', &REPLACEMENT.to_string()),
                        v.replace('\0', &REPLACEMENT.to_string()),
                    )
                })),
                Err(rejection) => return Err(form_rejection(rejection)),
            }
        }
        Ok(Fields(pairs))
    }
}

fn form_rejection(rejection: FormRejection) -> ApiError {
    ApiError::BadRequest {
        message: format!("Invalid form body: {}", rejection.body_text()),
        errors: Default::default(),
    }
}

/// The value of cookie `name` in the request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plumbing::params::Int;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Wanted {
        seo_url: String,
        page: Option<Int<1, 9>>,
    }

    /// The 400's field errors: `{field: [message]}`.
    fn problems(query: &str) -> serde_json::Value {
        match read_query::<Wanted>(query).unwrap_err() {
            ApiError::BadRequest { errors, .. } => serde_json::Value::Object(errors),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_query_that_does_not_fit_names_its_parameter() {
        assert!(read_query::<Wanted>("seo_url=sofa&page=2").is_ok());
        assert_eq!(problems("page=2")["seo_url"][0], "seo_url is required");
        assert_eq!(
            problems("seo_url=sofa&page=10")["page"][0],
            "page must be between 1 and 9"
        );
        assert_eq!(
            problems("seo_url=sofa&page=x")["page"][0],
            "page must be a whole number"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Optional {
        a: Option<i64>,
        b: Option<i64>,
    }

    async fn body(text: &'static str) -> Result<Json<Optional>, ApiError> {
        let request = Request::builder()
            .method("POST")
            .header("content-type", "application/json")
            .body(axum::body::Body::from(text))
            .unwrap();
        Json::<Optional>::from_request(request, &()).await
    }

    #[tokio::test]
    async fn a_body_is_an_object_never_an_array() {
        assert!(body(r#"{"a": 1}"#).await.is_ok());
        assert!(body("{}").await.is_ok());
        for array in ["[null, null]", " [1, 2]", "[]"] {
            match body(array).await {
                Err(ApiError::BadRequest { message, .. }) => {
                    assert!(message.contains("JSON object"), "{array}: {message}")
                }
                other => panic!("{array}: {other:?}"),
            }
        }
    }

    #[test]
    fn cookies_are_found_among_others() {
        use axum::http::HeaderValue;
        let mut headers = HeaderMap::new();
        headers.append(
            COOKIE,
            HeaderValue::from_static("a=1; social_state=google.abc"),
        );
        headers.append(COOKIE, HeaderValue::from_static("self_token=17000abc"));
        assert_eq!(cookie(&headers, "social_state"), Some("google.abc"));
        assert_eq!(cookie(&headers, "self_token"), Some("17000abc"));
        assert_eq!(cookie(&headers, "social"), None);
    }

    #[test]
    fn nul_escapes_in_json_become_replacement_characters() {
        assert_eq!(json_without_nul(br#"{"a":"x"}"#), None);
        let replaced = json_without_nul(br#"{"a":"x\u0000y","b":"\\u0000"}"#).unwrap();
        assert_eq!(
            String::from_utf8(replaced.clone()).unwrap(),
            r#"{"a":"x\ufffdy","b":"\\u0000"}"#
        );
        let v: serde_json::Value = serde_json::from_slice(&replaced).unwrap();
        assert_eq!(v["a"], "x\u{FFFD}y");
        assert_eq!(v["b"], "\\u0000");
        let v: serde_json::Value =
            serde_json::from_slice(&json_without_nul(br#"["\\\u0000"]"#).unwrap()).unwrap();
        assert_eq!(v[0], "\\\u{FFFD}");
    }
}
