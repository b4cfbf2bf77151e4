//! Extractors whose rejections use the API's error shape, so a malformed
//! query string or body gets the same JSON 400 as any other bad input.

use axum::extract::rejection::{FormRejection, JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, Method};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// `Query<T>` that answers a JSON 400 when the query string does not parse.
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Query(value)),
            Err(rejection) => Err(query_rejection(rejection)),
        }
    }
}

fn query_rejection(rejection: QueryRejection) -> ApiError {
    ApiError::BadRequest {
        message: format!("Invalid query parameters: {}", rejection.body_text()),
        errors: Default::default(),
    }
}

/// `Json<T>` that answers a JSON 400 (or 415/413 folded into 400) when the body
/// is not the expected JSON.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(Json(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
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
                Ok(axum::Form(fields)) => pairs.extend(fields),
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
