//! The API's routes and their documentation in one place. Each group builds an
//! [`ApiRouter`]: registering a handler needs its [`Doc`], and the OpenAPI 3.1
//! document served at `/api/openapi.json` ([`ApiRouter::finish`]) is generated
//! from the same calls that mount the routes.
//!
//! The schemas come from the handlers' own types, by aide: each extractor
//! documents what it reads (a typed query's fields, a JSON body's type, the
//! statuses it answers before the handler runs) and each answer type its
//! content (`Json<T>`, [`crate::plumbing::cache::Public`]; [`crate::plumbing::error::ApiError`] for
//! every error). aide was chosen over utoipa because it reads the handler's
//! signature: with utoipa a `#[utoipa::path]` attribute repeats the path,
//! the parameters and the answer type beside the handler, and can drift from it.
//! What a signature cannot say (the summary, who may call, the statuses a
//! handler answers itself, parameters read by hand from a list of pairs) the
//! [`Doc`] says.

use aide::axum::routing::{get_with, post_with};
use aide::openapi::{
    Info, MediaType, OpenApi, Parameter, ParameterData, ParameterSchemaOrContent, QueryStyle,
    ReferenceOr, RequestBody, SchemaObject, StatusCode,
};
use aide::transform::TransformOperation;
use aide::{OperationInput, OperationOutput};
use axum::handler::Handler;
use axum::Router;
use schemars::json_schema;
use serde_json::{json, Map, Value};

use crate::plumbing::error::{error_response, INVALID_INPUT, UNAUTHENTICATED};
use crate::state::AppState;

/// Who may call an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone; the answer is the same for every visitor (cacheable).
    Public,
    /// Anyone, without identity, but the answer is not kept by caches: an order
    /// behind its link, or what follows the origin's own settings.
    Open,
    /// A guest by `SELF-TOKEN` or a signed-in shopper; the answer is theirs.
    Visitor,
    /// A signed-in shopper (`Authorization: Bearer`); 401 otherwise.
    SignedIn,
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Query,
    Header,
    Body,
}

/// One documented parameter or body field.
#[derive(Debug, Clone)]
struct Param {
    place: Place,
    name: &'static str,
    ty: &'static str,
    required: bool,
    description: &'static str,
}

/// What a route does, for people and for the OpenAPI document.
#[derive(Debug, Clone)]
pub struct Doc {
    summary: &'static str,
    access: Access,
    params: Vec<Param>,
    statuses: Vec<(u16, &'static str)>,
    redirects: Vec<(u16, &'static str)>,
    /// A visitor's call that works without `SELF-TOKEN` (or reads the token
    /// from elsewhere) documents the header as optional.
    self_token_optional: bool,
}

impl Doc {
    /// A public operation (same answer for everyone).
    pub fn public(summary: &'static str) -> Doc {
        Doc {
            summary,
            access: Access::Public,
            params: Vec::new(),
            statuses: Vec::new(),
            redirects: Vec::new(),
            self_token_optional: false,
        }
    }

    /// An operation anyone may call whose answer is not cached ([`Access::Open`]).
    pub fn open(summary: &'static str) -> Doc {
        Doc {
            access: Access::Open,
            ..Doc::public(summary)
        }
    }

    /// An operation on the caller's own data (guest or signed in).
    pub fn visitor(summary: &'static str) -> Doc {
        Doc {
            access: Access::Visitor,
            ..Doc::public(summary)
        }
    }

    /// A visitor's call that works without the `SELF-TOKEN` header: signing
    /// in (a guest's token only brings their things along), or a call that
    /// reads the token from its query.
    pub fn self_token_optional(mut self) -> Doc {
        self.self_token_optional = true;
        self
    }

    /// An operation that needs a signed-in shopper.
    pub fn signed_in(summary: &'static str) -> Doc {
        Doc {
            access: Access::SignedIn,
            ..Doc::public(summary)
        }
    }

    fn param(
        mut self,
        place: Place,
        name: &'static str,
        ty: &'static str,
        required: bool,
        description: &'static str,
    ) -> Doc {
        self.params.push(Param {
            place,
            name,
            ty,
            required,
            description,
        });
        self
    }

    /// A required query parameter. `ty` is a JSON Schema type: `string`,
    /// `integer`, `boolean`, `number`.
    pub fn query(self, name: &'static str, ty: &'static str, description: &'static str) -> Doc {
        self.param(Place::Query, name, ty, true, description)
    }

    /// An optional query parameter.
    pub fn query_opt(self, name: &'static str, ty: &'static str, description: &'static str) -> Doc {
        self.param(Place::Query, name, ty, false, description)
    }

    /// A request header such as `Idempotency-Key`.
    pub fn header(self, name: &'static str, required: bool, description: &'static str) -> Doc {
        self.param(Place::Header, name, "string", required, description)
    }

    /// A required field of the JSON body.
    pub fn field(self, name: &'static str, ty: &'static str, description: &'static str) -> Doc {
        self.param(Place::Body, name, ty, true, description)
    }

    /// An optional field of the JSON body.
    pub fn field_opt(self, name: &'static str, ty: &'static str, description: &'static str) -> Doc {
        self.param(Place::Body, name, ty, false, description)
    }
}

impl Doc {
    /// Another status the handler itself answers, with [`crate::plumbing::error::ErrorBody`]:
    /// `404` for an unknown slug, `409` for a sold-out product, `503` for a gateway
    /// that is not configured.
    pub fn answers(mut self, status: u16, description: &'static str) -> Doc {
        self.statuses.push((status, description));
        self
    }

    /// A redirect the handler answers (`302`, `303`): no body, the target in
    /// a `Location` header. For a handler that returns a plain `Response`,
    /// which documents nothing by itself.
    pub fn redirects(mut self, status: u16, description: &'static str) -> Doc {
        self.redirects.push((status, description));
        self
    }

    /// Writes this documentation into an operation aide generated from the handler.
    fn apply<'t>(&self, mut t: TransformOperation<'t>) -> TransformOperation<'t> {
        let op = t.inner_mut();
        op.summary = Some(self.summary.to_string());
        let mut body_props = Map::new();
        let mut body_required = Vec::new();
        for p in &self.params {
            let schema = json_schema!({ "type": p.ty, "description": p.description });
            match p.place {
                Place::Body => {
                    body_props.insert(p.name.to_string(), schema.to_value());
                    if p.required {
                        body_required.push(p.name);
                    }
                }
                Place::Query | Place::Header => {
                    let documented = op.parameters.iter().any(|q| match q {
                        ReferenceOr::Item(q) => q.parameter_data_ref().name == p.name,
                        ReferenceOr::Reference { .. } => false,
                    });
                    if documented {
                        continue;
                    }
                    let parameter_data = ParameterData {
                        name: p.name.to_string(),
                        description: Some(p.description.to_string()),
                        required: p.required,
                        deprecated: None,
                        format: ParameterSchemaOrContent::Schema(SchemaObject {
                            json_schema: json_schema!({ "type": p.ty }),
                            example: None,
                            external_docs: None,
                        }),
                        example: None,
                        examples: Default::default(),
                        explode: None,
                        extensions: Default::default(),
                    };
                    op.parameters
                        .push(ReferenceOr::Item(if p.place == Place::Query {
                            Parameter::Query {
                                parameter_data,
                                allow_reserved: false,
                                style: QueryStyle::Form,
                                allow_empty_value: None,
                            }
                        } else {
                            Parameter::Header {
                                parameter_data,
                                style: aide::openapi::HeaderStyle::Simple,
                            }
                        }));
                }
            }
        }
        if op.request_body.is_none() && !body_props.is_empty() {
            let schema = json!({
                "type": "object",
                "properties": body_props,
                "required": body_required,
            });
            op.request_body = Some(ReferenceOr::Item(RequestBody {
                required: !body_required.is_empty(),
                content: [(
                    "application/json".to_string(),
                    MediaType {
                        schema: Some(SchemaObject {
                            json_schema: serde_json::from_value(schema)
                                .expect("an object is a schema"),
                            example: None,
                            external_docs: None,
                        }),
                        ..Default::default()
                    },
                )]
                .into_iter()
                .collect(),
                ..Default::default()
            }));
        }
        if self.access == Access::Visitor {
            self_token_header(op, !self.self_token_optional);
        }
        let has_input = !op.parameters.is_empty() || op.request_body.is_some();
        let mut statuses = self.statuses.clone();
        if has_input {
            statuses.push(INVALID_INPUT);
        }
        if self.access == Access::SignedIn {
            statuses.push(UNAUTHENTICATED);
        }
        statuses.push((500, "Server error"));
        aide::generate::in_context(|ctx| {
            let responses = op.responses.get_or_insert_with(Default::default);
            for (status, description) in statuses {
                responses
                    .responses
                    .entry(StatusCode::Code(status))
                    .or_insert_with(|| ReferenceOr::Item(error_response(ctx, description)));
            }
            for (status, description) in &self.redirects {
                responses
                    .responses
                    .entry(StatusCode::Code(*status))
                    .or_insert_with(|| ReferenceOr::Item(redirect_response(description)));
            }
        });
        op.security = match self.access {
            Access::Public | Access::Open => Vec::new(),
            // The guest's SELF-TOKEN is a required header (above); Bearer may come too.
            Access::Visitor => vec![
                [("bearer".to_string(), Vec::new())].into_iter().collect(),
                Default::default(),
            ],
            Access::SignedIn => vec![[("bearer".to_string(), Vec::new())].into_iter().collect()],
        };
        if self.access == Access::Public {
            op.extensions.insert("x-cacheable".into(), json!(true));
        }
        t
    }
}

/// Documents the `SELF-TOKEN` header of a visitor's call (SPEC.md §7: every
/// request carries it), `required` or not, with the form the origin accepts,
/// unless the operation lists it already. It is a name the guest makes, not a
/// secret, so it is a parameter rather than a security scheme.
fn self_token_header(op: &mut aide::openapi::Operation, required: bool) {
    use crate::domain::identity::{SELF_TOKEN_OR_NONE_PATTERN, SELF_TOKEN_PATTERN};
    let listed = op.parameters.iter().any(|p| match p {
        ReferenceOr::Item(p) => p
            .parameter_data_ref()
            .name
            .eq_ignore_ascii_case("self-token"),
        ReferenceOr::Reference { .. } => false,
    });
    if listed {
        return;
    }
    let pattern = if required {
        SELF_TOKEN_PATTERN
    } else {
        SELF_TOKEN_OR_NONE_PATTERN
    };
    op.parameters.push(ReferenceOr::Item(Parameter::Header {
        parameter_data: ParameterData {
            name: "SELF-TOKEN".to_string(),
            description: Some(
                if required {
                    "The guest's own token, made once by the client and sent on every call"
                } else {
                    "The guest's own token, if any (the call works without it)"
                }
                .to_string(),
            ),
            required,
            deprecated: None,
            format: ParameterSchemaOrContent::Schema(SchemaObject {
                json_schema: json_schema!({
                    "type": "string",
                    "pattern": pattern,
                }),
                example: None,
                external_docs: None,
            }),
            example: None,
            examples: Default::default(),
            explode: None,
            extensions: Default::default(),
        },
        style: aide::openapi::HeaderStyle::Simple,
    }));
}

/// A documented redirect: `description`, no body, the target in `Location`.
fn redirect_response(description: &str) -> aide::openapi::Response {
    let location = aide::openapi::Header {
        description: Some("Where the browser goes next".to_string()),
        style: aide::openapi::HeaderStyle::Simple,
        required: true,
        deprecated: None,
        format: ParameterSchemaOrContent::Schema(SchemaObject {
            json_schema: json_schema!({ "type": "string", "format": "uri" }),
            example: None,
            external_docs: None,
        }),
        example: None,
        examples: Default::default(),
        extensions: Default::default(),
    };
    aide::openapi::Response {
        description: description.to_string(),
        headers: [("Location".to_string(), ReferenceOr::Item(location))]
            .into_iter()
            .collect(),
        ..Default::default()
    }
}

/// An axum router that documents every route it mounts (see the module's text).
pub struct ApiRouter {
    router: aide::axum::ApiRouter<AppState>,
}

impl Default for ApiRouter {
    fn default() -> Self {
        ApiRouter::new()
    }
}

impl ApiRouter {
    pub fn new() -> ApiRouter {
        ApiRouter {
            router: aide::axum::ApiRouter::new(),
        }
    }

    /// Mounts a GET handler.
    pub fn get<H, I, O, T>(mut self, path: &str, handler: H, doc: Doc) -> ApiRouter
    where
        H: Handler<T, AppState> + aide::operation::OperationHandler<I, O>,
        I: OperationInput,
        O: OperationOutput,
        T: 'static,
    {
        self.router = self
            .router
            .api_route(path, get_with(handler, move |t| doc.apply(t)));
        self
    }

    /// Mounts a POST handler.
    pub fn post<H, I, O, T>(mut self, path: &str, handler: H, doc: Doc) -> ApiRouter
    where
        H: Handler<T, AppState> + aide::operation::OperationHandler<I, O>,
        I: OperationInput,
        O: OperationOutput,
        T: 'static,
    {
        self.router = self
            .router
            .api_route(path, post_with(handler, move |t| doc.apply(t)));
        self
    }

    /// Mounts one handler for GET and POST both: a call SPEC.md lists as GET
    /// that changes state keeps working as GET and accepts POST as well
    /// (ARCHITECTURE.md). Both are documented.
    pub fn get_post<H, I, O, T>(mut self, path: &str, handler: H, doc: Doc) -> ApiRouter
    where
        H: Handler<T, AppState> + aide::operation::OperationHandler<I, O>,
        I: OperationInput,
        O: OperationOutput,
        T: 'static,
    {
        let again = doc.clone();
        self.router = self.router.api_route(
            path,
            get_with(handler.clone(), move |t| doc.apply(t))
                .post_with(handler, move |t| again.apply(t)),
        );
        self
    }

    /// Mounts `group` under `prefix` (`/home`).
    pub fn nest(mut self, prefix: &str, group: ApiRouter) -> ApiRouter {
        self.router = self.router.nest(prefix, group.router);
        self
    }

    /// Adds `other`'s routes at the same level (two modules sharing a prefix).
    pub fn merge(mut self, other: ApiRouter) -> ApiRouter {
        self.router = self.router.merge(other.router);
        self
    }

    /// The router to serve, and the OpenAPI document of its operations as if
    /// mounted under `base` (`/api`): each tagged with its path's first segment
    /// (the group), each with an `operationId` made from its method and path.
    pub fn finish(self, base: &str) -> (Router<AppState>, Value) {
        let mut api = OpenApi {
            info: Info {
                title: "Furniture shop API".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                ..Default::default()
            },
            ..Default::default()
        };
        let router = self.router.finish_api(&mut api);
        let mut doc = serde_json::to_value(&api).expect("an OpenAPI document serialises");
        let mut paths = Map::new();
        if let Some(Value::Object(found)) = doc.get_mut("paths").map(Value::take) {
            for (path, mut item) in found {
                let tag = path
                    .trim_start_matches('/')
                    .split('/')
                    .next()
                    .unwrap_or_default();
                if let Value::Object(methods) = &mut item {
                    for (method, op) in methods.iter_mut() {
                        op["tags"] = json!([tag]);
                        op["operationId"] =
                            json!(format!("{method}{}", path.replace(['/', '-'], "_")));
                    }
                }
                paths.insert(format!("{base}{path}"), item);
            }
        }
        doc["paths"] = Value::Object(paths);
        (router, doc)
    }
}

/// The OpenAPI 3.1 document of the API: `inside` (mounted under `/api`) and
/// `outside` (mounted at the root: the card gateway's routes), with the shared
/// header, security schemes and schemas.
pub fn openapi(inside: Value, mut outside: Value) -> Value {
    let mut doc = inside;
    if let (Some(mine), Value::Object(more)) =
        (doc["paths"].as_object_mut(), outside["paths"].take())
    {
        mine.extend(more);
    }
    let mut schemas = match doc["components"]["schemas"].take() {
        Value::Object(schemas) => schemas,
        _ => Map::new(),
    };
    if let Value::Object(more) = outside["components"]["schemas"].take() {
        schemas.extend(more);
    }
    doc["openapi"] = json!("3.1.0");
    doc["info"]["description"] = json!(
        "The JSON API of the shop (SPEC.md §7). Errors are \
         `{\"success\": false, \"message\", \"errors\"?}` with a fitting status. \
         Every call may carry SELF-TOKEN (a guest's identity) and, after login, \
         Authorization: Bearer."
    );
    doc["components"] = json!({
        "securitySchemes": {
            "bearer": { "type": "http", "scheme": "bearer" },
        },
        "schemas": schemas,
    });
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plumbing::error::ApiResult;
    use crate::plumbing::extract::{Json as Body, Query};
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    #[derive(Deserialize, JsonSchema)]
    struct Login {
        /// The password
        #[allow(dead_code)]
        password: String,
    }

    #[derive(Deserialize, JsonSchema)]
    struct Page {
        /// Which page
        #[allow(dead_code)]
        page: Option<i64>,
    }

    #[derive(Serialize, JsonSchema)]
    struct Answer {
        ok: bool,
    }

    async fn ok() -> &'static str {
        "ok"
    }

    async fn login(Body(_): Body<Login>) -> ApiResult<axum::Json<Answer>> {
        Ok(axum::Json(Answer { ok: true }))
    }

    async fn posts(Query(_): Query<Page>) -> ApiResult<axum::Json<Answer>> {
        Ok(axum::Json(Answer { ok: true }))
    }

    #[test]
    fn nested_routes_are_documented_with_their_full_path_tag_and_types() {
        let group = ApiRouter::new()
            .get(
                "/sliders",
                ok,
                Doc::public("Sliders").query_opt("type", "integer", "0 main, 1 featured"),
            )
            .get(
                "/posts",
                posts,
                Doc::public("Posts").answers(404, "No such page"),
            )
            .post("/login", login, Doc::signed_in("Sign in"));
        let (_, doc) = ApiRouter::new().nest("/home", group).finish("/api");
        let doc = openapi(doc, json!({}));
        let sliders = &doc["paths"]["/api/home/sliders"]["get"];
        assert_eq!(sliders["tags"][0], "home");
        assert_eq!(sliders["operationId"], "get_home_sliders");
        assert_eq!(sliders["parameters"][0]["name"], "type");
        assert_ne!(sliders["parameters"][0]["required"], true);
        assert_eq!(sliders["x-cacheable"], true);
        // A typed query documents its fields; a typed body its schema.
        let posts = &doc["paths"]["/api/home/posts"]["get"];
        assert_eq!(posts["parameters"][0]["name"], "page");
        let statuses: Vec<&String> = posts["responses"].as_object().unwrap().keys().collect();
        assert_eq!(statuses, ["200", "400", "404", "500"]);
        let answer = &posts["responses"]["200"]["content"]["application/json"]["schema"];
        assert_eq!(answer["$ref"], "#/components/schemas/Answer");
        assert_eq!(doc["components"]["schemas"]["Answer"]["required"][0], "ok");
        let login = &doc["paths"]["/api/home/login"]["post"];
        let body = &login["requestBody"]["content"]["application/json"]["schema"];
        assert_eq!(body["$ref"], "#/components/schemas/Login");
        assert_eq!(
            doc["components"]["schemas"]["Login"]["required"][0],
            "password"
        );
        assert_eq!(login["security"], json!([{ "bearer": [] }]));
        let error = &login["responses"]["401"]["content"]["application/json"]["schema"];
        assert_eq!(error["$ref"], "#/components/schemas/ErrorBody");
        assert!(doc["paths"]["/api/home/login"].get("get").is_none());
    }

    #[test]
    fn a_redirect_is_documented_with_its_location_and_no_body() {
        let group = ApiRouter::new().get(
            "/away",
            ok,
            Doc::open("Sends the browser on").redirects(303, "To the next page"),
        );
        let (_, doc) = group.finish("/api");
        let away = &doc["paths"]["/api/away"]["get"]["responses"]["303"];
        assert_eq!(away["description"], "To the next page");
        assert_eq!(away["headers"]["Location"]["required"], true);
        assert_eq!(away["headers"]["Location"]["schema"]["format"], "uri");
        assert!(away.get("content").is_none());
    }
}
