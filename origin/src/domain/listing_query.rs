//! The listing's query parameters, read in one place for their two readers:
//! the JSON API's `category/products` ([`crate::surfaces::api::category`]), which
//! answers the first problem as a 400 naming its field, and the listing
//! pages rendered on demand ([`crate::surfaces::site::listing`]), which leave out what
//! is wrong and link with what they kept.
//!
//! - `keyword`: words to search for; the search index ranks the matches (at
//!   most [`KEYWORD_MATCHES`]) into [`ProductQuery::only`].
//! - `sort_by`: a [`Sort`] name ([`SORT_NAMES`]).
//! - `price_min`, `price_max`: whole taka, `0..=`[`MAX_PRICE`], on the
//!   price a shopper pays now. The API refuses a minimum above the maximum
//!   (400 naming `price_min`, `category/products` and `category/filters`);
//!   a page, read leniently, takes it as the range between them (the two
//!   are swapped).
//! - `filterby_category`: category ids joined by `|`, each within the listed
//!   category's subtree; only the last such parameter counts.
//! - `filterby_{attribute}`: value slugs of one attribute joined by `|`: OR
//!   within one parameter, AND across parameters (one group each).
//!
//! Values are trimmed and an empty one is no parameter; the last of a
//! repeated parameter counts (but for the attribute filters). Every bad value
//! or filter part is a [`Problem`] with the message the API answers, and the
//! good parts are used and kept all the same. A problem is either a value
//! not of its parameter's form (the API answers 400) or a well-formed filter
//! that names what the category does not have (404, as an unknown `seo_url`).
//!
//! Reading takes two steps: [`ListingParams::read`] (the pages) or
//! [`ListingParams::checked`] (the API, whose typed query has checked the
//! parameters with fixed names) needs only the query (the pages tell from it
//! whether a request changes the prebuilt page); [`ListingParams::resolve`]
//! looks the filters up in the database and runs the search.

use std::borrow::Cow;
use std::collections::HashMap;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{de, Deserialize, Deserializer};

use catalog::db::Pool;
use catalog::read::category as cq;
use catalog::read::listing::{ProductQuery, Sort};

use crate::domain::search::Search;
use crate::plumbing::error::ApiError;

/// Longest accepted query parameter value, characters.
pub const MAX_PARAM_LEN: usize = 200;
/// Largest listing page number accepted.
pub const MAX_PAGE: i64 = 100_000;
/// Largest price accepted in a filter, taka.
pub const MAX_PRICE: i64 = 1_000_000_000;
/// Most products a keyword listing ranks (best first).
pub const KEYWORD_MATCHES: usize = 2_000;
/// What every filter parameter's name starts with.
pub const FILTER_PREFIX: &str = "filterby_";
/// The category filter's name.
pub const CATEGORY_FILTER: &str = "filterby_category";
/// The form of a `filterby_category` value, for the API's document: ids
/// joined by `|`, spaces and empty parts allowed (at most 18 digits, so
/// each fits an i64).
pub const CATEGORY_FILTER_PATTERN: &str = r"^ *[0-9]{0,18} *(\| *[0-9]{0,18} *)*$";
/// The `sort_by` names, each a [`Sort`] ([`Sort::parse`]).
pub const SORT_NAMES: [&str; 6] = [
    "title_asc",
    "title_desc",
    "price_asc",
    "price_desc",
    "date_desc",
    "popularity",
];

/// What is wrong with one parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The parameter's name.
    pub field: String,
    /// The message the API answers.
    pub message: String,
    pub kind: ProblemKind,
}

/// Whether a value is malformed or names nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// Not of the parameter's form, or out of its range: a 400.
    Malformed,
    /// Well formed, but names a category outside the listed one, or an
    /// attribute or value that does not exist: a 404, as an unknown
    /// `seo_url` is (the document cannot know the data).
    Unknown,
}

impl Problem {
    fn new(field: &str, message: impl Into<String>) -> Problem {
        Problem {
            field: field.to_string(),
            message: message.into(),
            kind: ProblemKind::Malformed,
        }
    }

    fn unknown(field: &str, message: impl Into<String>) -> Problem {
        Problem {
            kind: ProblemKind::Unknown,
            ..Problem::new(field, message)
        }
    }
}

impl From<Problem> for ApiError {
    fn from(problem: Problem) -> ApiError {
        match problem.kind {
            ProblemKind::Malformed => ApiError::invalid(&problem.field, problem.message),
            ProblemKind::Unknown => ApiError::not_found(problem.message),
        }
    }
}

/// A `sort_by` value, for a typed query: one of [`SORT_NAMES`] (trimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortBy(String);

impl SortBy {
    /// The name.
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for SortBy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(deserializer)?;
        let name = raw.trim();
        if SORT_NAMES.contains(&name) {
            Ok(SortBy(name.to_string()))
        } else {
            Err(de::Error::custom(format_args!(
                "must be one of {}",
                SORT_NAMES.join(", ")
            )))
        }
    }
}

impl JsonSchema for SortBy {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "SortBy".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": SORT_NAMES })
    }
}

/// `(min, max)` in order: a minimum above the maximum is read as the range
/// between them.
pub fn price_range(min: Option<i64>, max: Option<i64>) -> (Option<i64>, Option<i64>) {
    match (min, max) {
        (Some(a), Some(b)) if a > b => (Some(b), Some(a)),
        range => range,
    }
}

/// The last value of `name` in `pairs`, trimmed; None when it is absent or
/// empty.
pub fn last<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty())
}

/// The integer `name` in `pairs`, in `min..=max`; empty counts as absent.
pub fn int(
    pairs: &[(String, String)],
    name: &str,
    min: i64,
    max: i64,
) -> Result<Option<i64>, Problem> {
    let Some(raw) = last(pairs, name) else {
        return Ok(None);
    };
    let n: i64 = raw
        .parse()
        .map_err(|_| Problem::new(name, format!("{name} must be a whole number")))?;
    if n < min || n > max {
        return Err(Problem::new(
            name,
            format!("{name} must be between {min} and {max}"),
        ));
    }
    Ok(Some(n))
}

/// At most [`MAX_PARAM_LEN`] characters of `value` (the API refuses longer
/// values before they get here; a page reads their start).
fn capped(value: &str) -> String {
    value.chars().take(MAX_PARAM_LEN).collect()
}

/// The non-empty `|`-separated parts of a filter value, trimmed.
fn parts(value: &str) -> impl Iterator<Item = &str> {
    value.split('|').map(str::trim).filter(|p| !p.is_empty())
}

/// A listing's parameters as far as the query alone tells.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListingParams {
    /// The `sort_by` value, when it names a sort.
    pub sort: Option<String>,
    pub keyword: Option<String>,
    pub price_min: Option<i64>,
    pub price_max: Option<i64>,
    /// `(name, value)` of the non-empty `filterby_*` parameters, in order
    /// (of `filterby_category` only the last, if it is non-empty).
    pub filters: Vec<(String, String)>,
    /// Problems of the sort and the prices, in the order the API checks them.
    pub problems: Vec<Problem>,
}

/// What the filters are looked up in.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    /// The listed category and its published descendants.
    pub subtree: Vec<i64>,
    /// Filterable attributes' value ids by attribute name and value slug.
    pub slugs: HashMap<String, HashMap<String, i64>>,
}

impl Lookup {
    /// Loads what `params`' filters need (nothing without filters).
    pub async fn load(
        pool: &Pool,
        category_id: i64,
        params: &ListingParams,
    ) -> Result<Lookup, sqlx::Error> {
        let mut lookup = Lookup::default();
        if params.filters.iter().any(|(k, _)| k == CATEGORY_FILTER) {
            lookup.subtree = cq::subtree_ids(pool, category_id).await?;
        }
        if params.filters.iter().any(|(k, _)| k != CATEGORY_FILTER) {
            lookup.slugs = cq::attribute_slugs(pool).await?;
        }
        Ok(lookup)
    }
}

/// The listing a request asks for.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// The product query of the good parameters; without a `sort_by` its
    /// sort is [`Sort::Default`].
    pub query: ProductQuery,
    /// Every problem, in the order the API checks them ([`Resolved::refusal`]).
    pub problems: Vec<Problem>,
    /// The parameters used, each with its good parts only, for links:
    /// `keyword`, `sort_by`, `price_min`, `price_max`, then the filters in
    /// their order.
    pub kept: Vec<(String, String)>,
    /// When no product has every word of the keyword: the words the
    /// products match, as typed (`search::Found::relaxed`).
    pub relaxed: Option<String>,
}

impl Resolved {
    /// The problem the API answers: the first malformed value (400), else
    /// the first filter that names nothing (404).
    pub fn refusal(&self) -> Option<&Problem> {
        let malformed = self
            .problems
            .iter()
            .find(|p| p.kind == ProblemKind::Malformed);
        malformed.or(self.problems.first())
    }
}

impl ListingParams {
    /// Reads `pairs` (a query string's), noting problems (see the module
    /// docs).
    pub fn read(pairs: &[(String, String)]) -> ListingParams {
        let mut problems = Vec::new();
        let sort = last(pairs, "sort_by").and_then(|s| {
            if !SORT_NAMES.contains(&s) {
                problems.push(Problem::new(
                    "sort_by",
                    format!("sort_by must be one of {}", SORT_NAMES.join(", ")),
                ));
                return None;
            }
            Some(s.to_string())
        });
        let mut price = |name: &str| {
            int(pairs, name, 0, MAX_PRICE).unwrap_or_else(|problem| {
                problems.push(problem);
                None
            })
        };
        let (price_min, price_max) = price_range(price("price_min"), price("price_max"));
        let last_category = pairs.iter().rposition(|(k, _)| k == CATEGORY_FILTER);
        let filters = pairs
            .iter()
            .enumerate()
            .filter(|(i, (k, v))| {
                k.starts_with(FILTER_PREFIX)
                    && !v.trim().is_empty()
                    && (k != CATEGORY_FILTER || Some(*i) == last_category)
            })
            .map(|(_, (k, v))| (k.clone(), capped(v.trim())))
            .collect();
        ListingParams {
            sort,
            keyword: last(pairs, "keyword").map(capped),
            price_min,
            price_max,
            filters,
            problems,
        }
    }

    /// The API's reading: the parameters with fixed names already read and
    /// checked by the typed query (`sort`, `keyword`, the prices,
    /// `filterby_category`), so only the attribute filters, whose names are
    /// data, come from `pairs`. A filter value longer than [`MAX_PARAM_LEN`]
    /// is a problem here (the pages read its start).
    pub fn checked(
        sort: Option<&SortBy>,
        keyword: Option<&str>,
        (price_min, price_max): (Option<i64>, Option<i64>),
        category: Option<&str>,
        pairs: &[(String, String)],
    ) -> ListingParams {
        let mut problems = Vec::new();
        let category = category
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| (CATEGORY_FILTER.to_string(), v.to_string()));
        let attributes = pairs
            .iter()
            .filter(|(k, v)| {
                k.starts_with(FILTER_PREFIX) && k != CATEGORY_FILTER && !v.trim().is_empty()
            })
            .filter(|(k, v)| {
                let long = k.chars().count().max(v.trim().chars().count()) > MAX_PARAM_LEN;
                if long {
                    problems.push(Problem::new(
                        k,
                        format!("{k} must be at most {MAX_PARAM_LEN} characters"),
                    ));
                }
                !long
            })
            .map(|(k, v)| (k.clone(), v.trim().to_string()));
        let filters = category.into_iter().chain(attributes).collect();
        let (price_min, price_max) = price_range(price_min, price_max);
        ListingParams {
            sort: sort.map(|s| s.name().to_string()),
            keyword: keyword
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(String::from),
            price_min,
            price_max,
            filters,
            problems,
        }
    }

    /// The listing in the category `category_id` (whose `seo_url` is
    /// `category_url`): filters looked up in the database, the keyword
    /// searched in the index.
    pub async fn resolve(
        &self,
        pool: &Pool,
        search: &Search,
        category_id: i64,
        category_url: &str,
    ) -> anyhow::Result<Resolved> {
        let lookup = Lookup::load(pool, category_id, self).await?;
        let mut resolved = self.resolve_with(category_id, category_url, &lookup);
        if let Some(keyword) = &self.keyword {
            let found = search.found(keyword, KEYWORD_MATCHES)?;
            resolved.query.only = Some(found.ids);
            resolved.relaxed = found.relaxed;
        }
        Ok(resolved)
    }

    /// [`ListingParams::resolve`] with the filters looked up in `lookup` and
    /// no search ([`ProductQuery::only`] is None).
    pub fn resolve_with(&self, category_id: i64, category_url: &str, lookup: &Lookup) -> Resolved {
        let mut problems = self.problems.clone();
        let mut kept = Vec::new();
        let mut keep = |name: &str, value: String| kept.push((name.to_string(), value));
        if let Some(k) = &self.keyword {
            keep("keyword", k.clone());
        }
        if let Some(s) = &self.sort {
            keep("sort_by", s.clone());
        }
        for (name, value) in [("price_min", self.price_min), ("price_max", self.price_max)] {
            if let Some(v) = value {
                keep(name, v.to_string());
            }
        }

        // The category filter first: the API names its problems first.
        let mut categories = (category_id != cq::ROOT_ID).then(|| vec![category_id]);
        let mut category_kept = None;
        if let Some((_, raw)) = self.filters.iter().find(|(k, _)| k == CATEGORY_FILTER) {
            let (mut ids, mut taken) = (Vec::new(), Vec::new());
            for part in parts(raw) {
                match part.parse::<i64>() {
                    Ok(id) if lookup.subtree.contains(&id) => {
                        ids.push(id);
                        taken.push(part);
                    }
                    Ok(id) => problems.push(Problem::unknown(
                        CATEGORY_FILTER,
                        format!("category {id} is not within {category_url}"),
                    )),
                    Err(_) => problems.push(Problem::new(
                        CATEGORY_FILTER,
                        "filterby_category must be category ids separated by |",
                    )),
                }
            }
            if !ids.is_empty() {
                categories = Some(ids);
                category_kept = Some(taken.join("|"));
            }
        }

        let mut attribute_values = Vec::new();
        for (key, raw) in &self.filters {
            if key == CATEGORY_FILTER {
                if let Some(value) = category_kept.take() {
                    kept.push((key.clone(), value));
                }
                continue;
            }
            let Some(known) = lookup.slugs.get(&key[FILTER_PREFIX.len()..]) else {
                problems.push(Problem::unknown(key, format!("unknown filter {key}")));
                continue;
            };
            let (mut ids, mut taken) = (Vec::new(), Vec::new());
            for slug in parts(raw) {
                match known.get(slug) {
                    Some(id) => {
                        ids.push(*id);
                        taken.push(slug);
                    }
                    None => problems.push(Problem::unknown(
                        key,
                        format!("unknown value {slug:?} for {key}"),
                    )),
                }
            }
            if !ids.is_empty() {
                attribute_values.push(ids);
                kept.push((key.clone(), taken.join("|")));
            }
        }

        Resolved {
            query: ProductQuery {
                categories,
                price_min: self.price_min,
                price_max: self.price_max,
                attribute_values,
                only: None,
                sort: self
                    .sort
                    .as_deref()
                    .and_then(Sort::parse)
                    .unwrap_or_default(),
            },
            problems,
            kept,
            relaxed: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &str) -> Vec<(String, String)> {
        let uri: axum::http::Uri = format!("/x?{q}").parse().unwrap();
        axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&uri)
            .unwrap()
            .0
    }

    fn problems(list: &[Problem]) -> Vec<(&str, &str)> {
        list.iter()
            .map(|p| (p.field.as_str(), p.message.as_str()))
            .collect()
    }

    fn owned(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// Category 2 (`beds`) holds 3 and 4; colours and materials are filters.
    fn lookup() -> Lookup {
        let values = |list: &[(&str, i64)]| {
            list.iter()
                .map(|(slug, id)| (slug.to_string(), *id))
                .collect::<HashMap<_, _>>()
        };
        Lookup {
            subtree: vec![2, 3, 4],
            slugs: HashMap::from([
                ("color".to_string(), values(&[("red", 10), ("teak", 11)])),
                ("material".to_string(), values(&[("oak", 20), ("jute", 21)])),
            ]),
        }
    }

    fn resolve(q: &str) -> Resolved {
        ListingParams::read(&pairs(q)).resolve_with(2, "beds", &lookup())
    }

    #[test]
    fn good_parameters_make_the_query_and_are_kept_in_order() {
        let r = resolve(
            "filterby_material=oak&sort_by=price_desc&keyword=+Teak+bed+&price_max=9000&price_min=100&filterby_category=3%7C4&page=2",
        );
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.query.sort, Sort::PriceDesc);
        assert_eq!(
            (r.query.price_min, r.query.price_max),
            (Some(100), Some(9000))
        );
        assert_eq!(r.query.categories, Some(vec![3, 4]));
        assert_eq!(r.query.attribute_values, vec![vec![20]]);
        assert_eq!(r.query.only, None);
        assert_eq!(
            r.kept,
            owned(&[
                ("keyword", "Teak bed"),
                ("sort_by", "price_desc"),
                ("price_min", "100"),
                ("price_max", "9000"),
                ("filterby_material", "oak"),
                ("filterby_category", "3|4"),
            ])
        );
    }

    #[test]
    fn no_parameters_list_the_category_in_the_default_order() {
        let r = resolve("page=3&utm_source=x&sort_by=&keyword=+&filterby_color=");
        assert!(r.problems.is_empty());
        assert!(r.kept.is_empty());
        assert_eq!(r.query.categories, Some(vec![2]));
        assert_eq!(r.query.sort, Sort::Default);
        assert!(r.query.attribute_values.is_empty());
        // The whole shop is no category filter.
        let root = ListingParams::read(&[]).resolve_with(cq::ROOT_ID, "products", &lookup());
        assert_eq!(root.query.categories, None);
    }

    #[test]
    fn bad_values_are_listed_with_their_fields_in_the_order_the_api_checks() {
        let r = resolve(
            "filterby_=z&filterby_color=red%7Cnope%7Cteak&filterby_size=big&filterby_category=3%7C9%7Cx&price_max=-3&price_min=x&sort_by=cheapest",
        );
        assert_eq!(
            problems(&r.problems),
            [
                ("sort_by", "sort_by must be one of title_asc, title_desc, price_asc, price_desc, date_desc, popularity"),
                ("price_min", "price_min must be a whole number"),
                ("price_max", "price_max must be between 0 and 1000000000"),
                ("filterby_category", "category 9 is not within beds"),
                ("filterby_category", "filterby_category must be category ids separated by |"),
                ("filterby_", "unknown filter filterby_"),
                ("filterby_color", "unknown value \"nope\" for filterby_color"),
                ("filterby_size", "unknown filter filterby_size"),
            ]
        );
        // The lenient reading keeps only the good parts.
        assert_eq!(r.query.sort, Sort::Default);
        assert_eq!((r.query.price_min, r.query.price_max), (None, None));
        assert_eq!(r.query.categories, Some(vec![3]));
        assert_eq!(r.query.attribute_values, vec![vec![10, 11]]);
        assert_eq!(
            r.kept,
            owned(&[("filterby_color", "red|teak"), ("filterby_category", "3")])
        );
        // The API answers the first malformed value, a 400 naming it.
        let err = ApiError::from(r.refusal().unwrap().clone());
        assert!(
            matches!(err, ApiError::BadRequest { errors, .. } if errors.contains_key("sort_by"))
        );
        // Well-formed filters that name nothing are a 404.
        let r = resolve("filterby_size=big&filterby_category=9");
        assert_eq!(r.refusal().unwrap().field, "filterby_category");
        assert!(r.problems.iter().all(|p| p.kind == ProblemKind::Unknown));
        let err = ApiError::from(r.refusal().unwrap().clone());
        assert!(matches!(err, ApiError::NotFound(m) if m == "category 9 is not within beds"));
        let r = resolve("filterby_size=big&filterby_category=x");
        assert_eq!(
            (
                r.refusal().unwrap().field.as_str(),
                r.refusal().unwrap().kind
            ),
            ("filterby_category", ProblemKind::Malformed)
        );
    }

    #[test]
    fn a_minimum_above_the_maximum_is_read_as_the_range_between() {
        let p = ListingParams::read(&pairs("price_min=500&price_max=100"));
        assert!(p.problems.is_empty());
        assert_eq!((p.price_min, p.price_max), (Some(100), Some(500)));
        let p = ListingParams::read(&pairs("price_min=100&price_max=100"));
        assert_eq!((p.price_min, p.price_max), (Some(100), Some(100)));
        assert_eq!(price_range(Some(9), None), (Some(9), None));
    }

    #[test]
    fn the_sort_names_are_sorts_and_typed_queries_read_them() {
        for name in SORT_NAMES {
            assert!(Sort::parse(name).is_some(), "{name}");
            let sort: SortBy = serde_json::from_value(format!(" {name} ").into()).unwrap();
            assert_eq!(sort.name(), name);
        }
        let err = serde_json::from_value::<SortBy>("cheapest".into()).unwrap_err();
        assert!(err.to_string().starts_with("must be one of title_asc, "));
        let schema = serde_json::to_value(schemars::schema_for!(SortBy)).unwrap();
        assert_eq!(schema["enum"], serde_json::json!(SORT_NAMES));
    }

    #[test]
    fn the_api_reads_fixed_parameters_typed_and_attribute_filters_from_pairs() {
        let sort = SortBy("price_asc".to_string());
        let p = ListingParams::checked(
            Some(&sort),
            Some(" sofa "),
            (Some(900), Some(100)),
            Some(" 3|4 "),
            &pairs("filterby_category=9&filterby_color=red&filterby_material=+&x=1"),
        );
        assert!(p.problems.is_empty());
        assert_eq!(p.sort.as_deref(), Some("price_asc"));
        assert_eq!(p.keyword.as_deref(), Some("sofa"));
        assert_eq!((p.price_min, p.price_max), (Some(100), Some(900)));
        assert_eq!(
            p.filters,
            owned(&[("filterby_category", "3|4"), ("filterby_color", "red")])
        );
        let r = p.resolve_with(2, "beds", &lookup());
        assert_eq!(r.query.categories, Some(vec![3, 4]));
        assert_eq!(r.query.attribute_values, vec![vec![10]]);
        // A long attribute filter is refused, not cut.
        let long = format!("filterby_color={}", "b".repeat(201));
        let p = ListingParams::checked(None, Some(""), (None, None), None, &pairs(&long));
        assert_eq!(
            problems(&p.problems),
            [(
                "filterby_color",
                "filterby_color must be at most 200 characters"
            )]
        );
        assert!(p.filters.is_empty() && p.keyword.is_none());
    }

    #[test]
    fn the_category_filter_pattern_admits_what_the_reader_takes() {
        let pattern = category_pattern_matcher(CATEGORY_FILTER_PATTERN);
        for good in ["", "3", " 3 | 4 ", "3||4", "|", "123456789012345678"] {
            assert!(pattern(good), "{good:?}");
            let value = good.replace('|', "%7C").replace(' ', "+");
            let r = resolve(&format!("filterby_category={value}"));
            assert!(
                r.problems.iter().all(|p| p.kind == ProblemKind::Unknown),
                "{good:?}"
            );
        }
        for bad in ["x", "3 4", "-3", "+3", "1234567890123456789", "3,4"] {
            assert!(!pattern(bad), "{bad:?}");
        }
    }

    /// What [`CATEGORY_FILTER_PATTERN`] matches, written out (the crate has
    /// no regex engine): parts joined by `|`, each up to 18 digits between
    /// spaces.
    fn category_pattern_matcher(pattern: &str) -> impl Fn(&str) -> bool {
        assert_eq!(pattern, r"^ *[0-9]{0,18} *(\| *[0-9]{0,18} *)*$");
        |value: &str| {
            value.split('|').all(|part| {
                let digits = part.trim_matches(' ');
                digits.len() <= 18 && digits.bytes().all(|b| b.is_ascii_digit())
            })
        }
    }

    #[test]
    fn category_ids_must_lie_within_the_listed_category() {
        // 1 is the root, above `beds`; 5 is elsewhere; 2 is `beds` itself.
        let r = resolve("filterby_category=1%7C5");
        assert_eq!(
            problems(&r.problems),
            [
                ("filterby_category", "category 1 is not within beds"),
                ("filterby_category", "category 5 is not within beds"),
            ]
        );
        // Nothing good: the category itself is listed, nothing is kept.
        assert_eq!(r.query.categories, Some(vec![2]));
        assert!(r.kept.is_empty());
        let r = resolve("filterby_category=2%7C%7C+4+");
        assert!(r.problems.is_empty());
        assert_eq!(r.query.categories, Some(vec![2, 4]));
        // Only the last filterby_category counts, even when it is empty.
        let r = resolve("filterby_category=x&filterby_category=3");
        assert!(r.problems.is_empty());
        assert_eq!(r.query.categories, Some(vec![3]));
        let r = resolve("filterby_category=3&filterby_category=");
        assert_eq!(r.query.categories, Some(vec![2]));
        assert!(r.kept.is_empty());
    }

    #[test]
    fn values_of_one_filter_are_ored_and_filters_anded() {
        let r = resolve("filterby_color=red%7Cteak&filterby_material=jute");
        assert_eq!(r.query.attribute_values, vec![vec![10, 11], vec![21]]);
        // Each parameter is a group of its own, even for one attribute.
        let r = resolve("filterby_color=red&filterby_color=teak");
        assert_eq!(r.query.attribute_values, vec![vec![10], vec![11]]);
        assert_eq!(
            r.kept,
            owned(&[("filterby_color", "red"), ("filterby_color", "teak")])
        );
    }

    #[test]
    fn integers_are_whole_and_in_range() {
        let p = pairs("a=+12+&b=1.5&c=0&d=");
        assert_eq!(int(&p, "a", 0, 20), Ok(Some(12)));
        assert_eq!(int(&p, "d", 0, 20), Ok(None));
        assert_eq!(int(&p, "missing", 0, 20), Ok(None));
        assert_eq!(
            int(&p, "b", 0, 20).unwrap_err().message,
            "b must be a whole number"
        );
        assert_eq!(
            int(&p, "c", 1, 20).unwrap_err().message,
            "c must be between 1 and 20"
        );
    }

    #[test]
    fn long_values_are_cut_for_lenient_readers() {
        let p = ListingParams::read(&pairs(&format!(
            "keyword={}&filterby_color={}",
            "a".repeat(500),
            "b".repeat(500)
        )));
        assert_eq!(p.keyword.map(|k| k.len()), Some(MAX_PARAM_LEN));
        assert_eq!(p.filters[0].1.len(), MAX_PARAM_LEN);
    }
}
