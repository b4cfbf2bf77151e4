//! The API's routes and their documentation in one place. Each group builds an
//! [`ApiRouter`]: registering a handler needs its [`Doc`], so the OpenAPI
//! document served at `/api/openapi.json` ([`openapi`]) lists exactly the
//! routes that exist, generated from the same calls that mount them.

use axum::handler::Handler;
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Map, Value};

use crate::state::AppState;

/// Who may call an operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone; the answer is the same for every visitor (cacheable).
    Public,
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
}

impl Doc {
    /// A public operation (same answer for everyone).
    pub fn public(summary: &'static str) -> Doc {
        Doc {
            summary,
            access: Access::Public,
            params: Vec::new(),
        }
    }

    /// An operation on the caller's own data (guest or signed in).
    pub fn visitor(summary: &'static str) -> Doc {
        Doc {
            access: Access::Visitor,
            ..Doc::public(summary)
        }
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

/// A mounted route and its documentation.
#[derive(Debug, Clone)]
pub struct Operation {
    pub method: &'static str,
    pub path: String,
    pub tag: String,
    doc: Doc,
}

/// An axum router that records a [`Doc`] for every route it mounts.
pub struct ApiRouter {
    router: Router<AppState>,
    operations: Vec<Operation>,
}

impl Default for ApiRouter {
    fn default() -> Self {
        ApiRouter::new()
    }
}

impl ApiRouter {
    pub fn new() -> ApiRouter {
        ApiRouter {
            router: Router::new(),
            operations: Vec::new(),
        }
    }

    /// Mounts a GET handler.
    pub fn get<H, T>(mut self, path: &str, handler: H, doc: Doc) -> ApiRouter
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.router = self.router.route(path, get(handler));
        self.record("get", path, doc)
    }

    /// Mounts a POST handler.
    pub fn post<H, T>(mut self, path: &str, handler: H, doc: Doc) -> ApiRouter
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.router = self.router.route(path, post(handler));
        self.record("post", path, doc)
    }

    /// Mounts one handler for GET and POST both: a call SPEC.md lists as GET
    /// that changes state keeps working as GET and accepts POST as well
    /// (ARCHITECTURE.md). Both are documented.
    pub fn get_post<H, T>(mut self, path: &str, handler: H, doc: Doc) -> ApiRouter
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        self.router = self.router.route(path, get(handler.clone()).post(handler));
        self.record("get", path, doc.clone())
            .record("post", path, doc)
    }

    fn record(mut self, method: &'static str, path: &str, doc: Doc) -> ApiRouter {
        self.operations.push(Operation {
            method,
            path: path.to_string(),
            tag: String::new(),
            doc,
        });
        self
    }

    /// Mounts `group` under `prefix` (`/home`); its operations are tagged
    /// with the prefix's name.
    pub fn nest(mut self, prefix: &str, group: ApiRouter) -> ApiRouter {
        let tag = prefix.trim_start_matches('/').to_string();
        self.router = self.router.nest(prefix, group.router);
        self.operations
            .extend(group.operations.into_iter().map(|op| Operation {
                path: format!("{prefix}{}", op.path),
                tag: if op.tag.is_empty() {
                    tag.clone()
                } else {
                    op.tag
                },
                ..op
            }));
        self
    }

    /// Adds `other`'s routes at the same level (two modules sharing a prefix).
    pub fn merge(mut self, other: ApiRouter) -> ApiRouter {
        self.router = self.router.merge(other.router);
        self.operations.extend(other.operations);
        self
    }

    /// The router to serve and the operations it mounts.
    pub fn into_parts(self) -> (Router<AppState>, Vec<Operation>) {
        (self.router, self.operations)
    }
}

/// The OpenAPI 3.1 document for `operations` mounted under `base` (`/api`).
pub fn openapi(base: &str, operations: &[Operation]) -> Value {
    let mut paths = Map::new();
    for op in operations {
        let entry = paths
            .entry(format!("{base}{}", op.path))
            .or_insert_with(|| json!({}));
        entry[op.method] = operation(op);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Furniture shop API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The JSON API of the shop (SPEC.md §7). Errors are \
                `{\"success\": false, \"message\", \"errors\"?}` with a fitting status. \
                Every call may carry SELF-TOKEN (a guest's identity) and, after login, \
                Authorization: Bearer.",
        },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer" },
                "selfToken": { "type": "apiKey", "in": "header", "name": "SELF-TOKEN" },
            },
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["success", "message"],
                    "properties": {
                        "success": { "const": false },
                        "message": { "type": "string" },
                        "errors": {
                            "type": "object",
                            "additionalProperties": { "type": "array", "items": { "type": "string" } },
                        },
                    },
                },
            },
        },
    })
}

fn operation(op: &Operation) -> Value {
    let doc = &op.doc;
    let mut parameters = Vec::new();
    let mut body_props = Map::new();
    let mut body_required = Vec::new();
    for p in &doc.params {
        match p.place {
            Place::Body => {
                body_props.insert(
                    p.name.to_string(),
                    json!({ "type": p.ty, "description": p.description }),
                );
                if p.required {
                    body_required.push(p.name);
                }
            }
            Place::Query | Place::Header => parameters.push(json!({
                "name": p.name,
                "in": if p.place == Place::Query { "query" } else { "header" },
                "required": p.required,
                "description": p.description,
                "schema": { "type": p.ty },
            })),
        }
    }
    let error = |description: &str| {
        json!({
            "description": description,
            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } },
        })
    };
    let mut responses = Map::new();
    responses.insert(
        "200".into(),
        json!({ "description": "Success", "content": { "application/json": {} } }),
    );
    responses.insert("400".into(), error("Invalid input"));
    match doc.access {
        Access::SignedIn => {
            responses.insert("401".into(), error("Not signed in"));
        }
        Access::Visitor | Access::Public => {}
    }
    responses.insert("500".into(), error("Server error"));
    let mut value = json!({
        "summary": doc.summary,
        "operationId": format!("{}{}", op.method, op.path.replace(['/', '-'], "_")),
        "tags": [if op.tag.is_empty() {
            op.path.trim_start_matches('/').split('/').next().unwrap_or_default()
        } else {
            op.tag.as_str()
        }],
        "parameters": parameters,
        "responses": responses,
    });
    if !body_props.is_empty() {
        value["requestBody"] = json!({
            "required": !body_required.is_empty(),
            "content": { "application/json": { "schema": {
                "type": "object",
                "properties": body_props,
                "required": body_required,
            } } },
        });
    }
    value["security"] = match doc.access {
        Access::Public => json!([]),
        Access::Visitor => json!([{ "selfToken": [] }, { "bearer": [] }]),
        Access::SignedIn => json!([{ "bearer": [] }]),
    };
    if doc.access == Access::Public {
        value["x-cacheable"] = json!(true);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn ok() -> &'static str {
        "ok"
    }

    #[test]
    fn nested_routes_are_documented_with_their_full_path_and_tag() {
        let group = ApiRouter::new()
            .get(
                "/sliders",
                ok,
                Doc::public("Sliders").query_opt("type", "integer", "0 main, 1 featured"),
            )
            .post(
                "/login",
                ok,
                Doc::visitor("Sign in").field("password", "string", "The password"),
            );
        let (_, ops) = ApiRouter::new().nest("/home", group).into_parts();
        let doc = openapi("/api", &ops);
        let sliders = &doc["paths"]["/api/home/sliders"]["get"];
        assert_eq!(sliders["tags"][0], "home");
        assert_eq!(sliders["parameters"][0]["name"], "type");
        assert_eq!(sliders["parameters"][0]["required"], false);
        let login = &doc["paths"]["/api/home/login"]["post"];
        assert_eq!(
            login["requestBody"]["content"]["application/json"]["schema"]["required"][0],
            "password"
        );
        assert!(doc["paths"]["/api/home/login"].get("get").is_none());
    }
}
