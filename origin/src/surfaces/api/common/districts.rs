//! `GET /api/common/districts-by-diviison/{division}` (the original's
//! spelling, ORIGINAL-API.md §2): a division's districts as a bare array,
//! the rows of `common/districts`. The division is named by its id, its
//! English or Bangla name, or an old spelling (Chittagong, Barisal); an
//! unknown one is a 404, a parameter that cannot be a division's name
//! (JSON, markup, a zero) a 400 — both JSON, as everywhere in the API.

use aide::generate::GenContext;
use aide::openapi::{Operation, Response};
use aide::OperationInput;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use schemars::JsonSchema;
use serde::Deserialize;

use catalog::db;
use catalog::read::content;
use catalog::surrogate::SurrogateKey;

use crate::plumbing::cache::Shared;
use crate::plumbing::error::{early_errors, ApiError, ApiResult, INVALID_INPUT};
use crate::state::AppState;

/// What names a division: an id (1-999999999), or a name of letters
/// (Latin or Bangla) with spaces, dots and hyphens, at most 40 characters.
pub const DIVISION_PATTERN: &str =
    "^(?:[1-9][0-9]{0,8}|[A-Za-z\\u0980-\\u09FF][A-Za-z\\u0980-\\u09FF .-]{0,39})$";

/// Old spellings of division names the shop's rows no longer use.
const OLD_SPELLINGS: [(&str, &str); 2] = [("chittagong", "Chattogram"), ("barisal", "Barishal")];

/// The path of `districts-by-diviison`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct DivisionPath {
    /// A division's id, English or Bangla name (`Dhaka`, `ঢাকা`, `7`); case
    /// and surrounding spaces ignored, old spellings (`Chittagong`) accepted.
    #[schemars(extend("pattern" = DIVISION_PATTERN))]
    division: String,
}

/// The division as the path names it; a path that is not a division's name
/// or id is a JSON 400 (axum's own rejection would be plain text).
pub struct Division(String);

impl<S: Send + Sync> FromRequestParts<S> for Division {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let refused = || {
            ApiError::invalid(
                "division",
                "division must be a division's name or id, such as Dhaka or 3",
            )
        };
        let Path(path) = Path::<DivisionPath>::from_request_parts(parts, state)
            .await
            .map_err(|_| refused())?;
        if !names_a_division(&path.division) {
            return Err(refused());
        }
        Ok(Division(path.division.trim().to_string()))
    }
}

/// Whether `name` fits [`DIVISION_PATTERN`].
fn names_a_division(name: &str) -> bool {
    let letter = |c: char| c.is_ascii_alphabetic() || ('\u{0980}'..='\u{09FF}').contains(&c);
    match name.chars().next() {
        Some('1'..='9') => name.len() <= 9 && name.bytes().all(|b| b.is_ascii_digit()),
        Some(c) if letter(c) => {
            name.chars().count() <= 40 && name.chars().all(|c| letter(c) || " .-".contains(c))
        }
        _ => false,
    }
}

impl OperationInput for Division {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        Path::<DivisionPath>::operation_input(ctx, operation);
    }

    fn inferred_early_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, Response)> {
        early_errors(ctx, &[INVALID_INPUT])
    }
}

/// The name of the division `wanted` names (id, name, Bangla name or old
/// spelling), if any.
pub(crate) async fn division_name(state: &AppState, wanted: &str) -> ApiResult<Option<String>> {
    let rows: Vec<(i64, String, String)> =
        db::query_as("SELECT id, name, name_bn FROM division ORDER BY id")
            .fetch_all(&state.pool)
            .await?;
    let lower = wanted.to_lowercase();
    let lower = OLD_SPELLINGS
        .iter()
        .find(|(old, _)| *old == lower)
        .map_or(lower.clone(), |(_, now)| now.to_lowercase());
    Ok(rows.into_iter().find_map(|(id, name, bn)| {
        let hit = id.to_string() == wanted || name.to_lowercase() == lower || bn == wanted;
        hit.then_some(name)
    }))
}

/// `GET /api/common/districts-by-diviison/{division}`: the division's
/// districts, by name, as a bare array of `common/districts` rows.
pub async fn get_districts_by_division(
    State(state): State<AppState>,
    Division(wanted): Division,
) -> ApiResult<Shared<Vec<content::District>>> {
    let Some(division) = division_name(&state, &wanted).await? else {
        return Err(ApiError::not_found(format!(
            "No division is called {wanted:?}"
        )));
    };
    let districts = content::districts(&state.pool)
        .await?
        .into_iter()
        .filter(|d| d.division == division)
        .collect();
    Ok(Shared::new(districts, [SurrogateKey::Districts]))
}
