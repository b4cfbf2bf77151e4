//! `POST /api/user-location`: the home page's location popup (the original
//! shop's `showroom_location_popup` setting, ORIGINAL-API.md §5), where a
//! visitor picks a division, a district and a thana. The choice is checked
//! against the shop's districts and answered back in the shop's own
//! spelling, `{success: true, division, district, thana}`, which is what
//! `common/showrooms?district=&thana=` takes. Nothing is kept on the server:
//! the original client holds the choice itself and sends it to the showrooms
//! call, and that call is public and cached for everyone, so a per-visitor
//! choice kept here could not change its answer without making it private.

use axum::extract::State;
use axum::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::cart;
use crate::plumbing::error::{ApiError, ApiResult};
use crate::plumbing::extract::Json as Body;
use crate::plumbing::validate;
use crate::state::AppState;
use crate::surfaces::api::common::districts::division_name;
use crate::surfaces::api::doc::{ApiRouter, Doc};

/// Longest district or division name read, characters.
const NAME_MAX_LEN: usize = 100;
/// Longest thana read, characters.
const THANA_MAX_LEN: usize = 100;

/// The route at `/api/user-location`.
pub fn router() -> ApiRouter {
    ApiRouter::new().post(
        "/user-location",
        post_location,
        Doc::open("The location popup's choice {division, district, thana}, checked against the shop's districts and answered in the shop's spelling (what common/showrooms takes); nothing is kept"),
    )
}

/// The popup's choice.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("required" = ["district"]))]
struct LocationBody {
    /// The division (name, Bangla name or id); when given, the district must
    /// be in it.
    #[serde(default)]
    #[schemars(length(max = 100))]
    division: Option<String>,
    /// The district: its name, Bangla name or an accepted spelling
    /// (`common/districts`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 100), pattern(r"\S"))]
    district: Option<String>,
    /// The thana (sub-district), as typed; at most 100 characters.
    #[serde(default)]
    #[schemars(length(max = 100))]
    thana: Option<String>,
}

/// The answer of `POST /api/user-location`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct LocationResponse {
    pub success: bool,
    /// The district's division.
    pub division: String,
    /// The district in the shop's spelling.
    pub district: String,
    /// The thana as given (trimmed); null when none was.
    pub thana: Option<String>,
}

/// `POST /api/user-location` with `{division, district, thana}`.
async fn post_location(
    State(state): State<AppState>,
    Body(body): Body<LocationBody>,
) -> ApiResult<Json<LocationResponse>> {
    let mut errors = Map::new();
    let mut fail = |field: &str, message: String| {
        errors
            .entry(field.to_string())
            .or_insert_with(|| Value::Array(vec![Value::String(message)]));
    };
    let thana = match body.thana.as_deref().map(str::trim) {
        Some(t) if t.chars().count() > THANA_MAX_LEN => {
            fail(
                "thana",
                format!("A thana is at most {THANA_MAX_LEN} characters."),
            );
            None
        }
        Some("") | None => None,
        Some(t) => Some(t.to_string()),
    };
    let division = match body.division.as_deref().map(str::trim) {
        Some("") | None => None,
        Some(d) => match validate::line(d, 1, NAME_MAX_LEN) {
            Some(d) => match division_name(&state, &d).await? {
                Some(name) => Some(name),
                None => {
                    fail("division", format!("No division is called {d:?}."));
                    None
                }
            },
            None => {
                fail(
                    "division",
                    format!("A division is at most {NAME_MAX_LEN} characters."),
                );
                None
            }
        },
    };
    let typed = body.district.as_deref().map(str::trim).unwrap_or_default();
    let district = match validate::line(typed, 1, NAME_MAX_LEN) {
        None if typed.is_empty() => {
            fail("district", "Choose a district.".to_string());
            None
        }
        None => {
            fail(
                "district",
                format!("A district is at most {NAME_MAX_LEN} characters."),
            );
            None
        }
        Some(name) => {
            let mut conn = state.pool.acquire().await?;
            match cart::district(&mut conn, &name).await? {
                None => {
                    fail(
                        "district",
                        format!("The shop has no district called {name:?}."),
                    );
                    None
                }
                Some(found) => {
                    if division.as_ref().is_some_and(|d| *d != found.division) {
                        fail(
                            "district",
                            format!(
                                "{} is in {} division, not {}.",
                                found.name,
                                found.division,
                                division.as_deref().unwrap_or_default()
                            ),
                        );
                    }
                    Some(found)
                }
            }
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::fields(errors));
    }
    let district = district.expect("a district when nothing failed");
    Ok(Json(LocationResponse {
        success: true,
        division: district.division,
        district: district.name,
        thana,
    }))
}
