//! The product listing of `category/products` and `category/recommended`
//! (and of the generator's category pages): which active products a category,
//! a search or a filter set shows, in which order, one page at a time.
//!
//! - A category's products are those in it or in any published descendant
//!   (a recursive CTE); no category means every product.
//! - Prices are filtered and sorted on the price a shopper pays now
//!   ([`pricing::effective_price_sql`]: a running flash sale included).
//! - Attribute filters: the values of one attribute are OR-ed, different
//!   attributes AND-ed.
//! - A keyword search is answered by the origin's search index, which hands
//!   over the matching ids best first ([`ProductQuery::only`]); with the
//!   default sort the listing keeps that order.
//!
//! The query selects one page of ids; [`page`] then loads their cards
//! ([`crate::read::cards`]) and wraps them in the project's [`Paginator`].

use std::collections::HashMap;

use serde::Serialize;
use sqlx::FromRow;

use crate::db::{self, Pool, QueryBuilder};
use crate::pricing;
use crate::read::card::{cards, ProductCard};
use crate::read::category::VISIBLE;
use crate::read::page::{PageRequest, Paginator};

/// How a listing is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    /// Newest id first (the original's default).
    #[default]
    Default,
    /// `title_asc`: A to Z.
    TitleAsc,
    /// `title_desc`: Z to A.
    TitleDesc,
    /// `price_asc`: cheapest first, on the price a shopper pays now.
    PriceAsc,
    /// `price_desc`: dearest first, on the price a shopper pays now.
    PriceDesc,
    /// `date_desc`: newest first.
    DateDesc,
    /// `popularity`: most viewed and sold first.
    Popularity,
    /// Recommended first, then by their serial, then popularity.
    Recommended,
}

impl Sort {
    /// Parses a `sort_by` value ('' is the default); None when unknown.
    pub fn parse(s: &str) -> Option<Sort> {
        Some(match s {
            "" => Sort::Default,
            "title_asc" => Sort::TitleAsc,
            "title_desc" => Sort::TitleDesc,
            "price_asc" => Sort::PriceAsc,
            "price_desc" => Sort::PriceDesc,
            "date_desc" => Sort::DateDesc,
            "popularity" => Sort::Popularity,
            _ => return None,
        })
    }

    fn order_by(self) -> &'static str {
        match self {
            Sort::Default => "p.id DESC",
            Sort::TitleAsc => "p.title ASC, p.id ASC",
            Sort::TitleDesc => "p.title DESC, p.id DESC",
            Sort::PriceAsc => "price ASC, p.id ASC",
            Sort::PriceDesc => "price DESC, p.id DESC",
            Sort::DateDesc => "p.created_at DESC, p.id DESC",
            Sort::Popularity => "p.popularity DESC, p.id DESC",
            Sort::Recommended => {
                "p.recommended DESC, p.recommended_serial ASC, p.popularity DESC, p.id DESC"
            }
        }
    }
}

/// What `category/products` asks for, already validated.
#[derive(Debug, Clone, Default)]
pub struct ProductQuery {
    /// The categories searched (each with its descendants); None = every product.
    pub categories: Option<Vec<i64>>,
    /// Lower bound on the price a shopper pays now, taka (inclusive).
    pub price_min: Option<i64>,
    /// Upper bound on the price a shopper pays now, taka (inclusive).
    pub price_max: Option<i64>,
    /// Attribute value ids: OR within an inner list, AND across lists.
    pub attribute_values: Vec<Vec<i64>>,
    /// Only these products (a search's matches, best first).
    pub only: Option<Vec<i64>>,
    /// The order of the rows.
    pub sort: Sort,
}

#[derive(FromRow)]
struct IdRow {
    id: i64,
}

/// Filters [`filtered`] leaves out, for facet counts: a facet counts what
/// every other filter lets through.
#[derive(Debug, Clone, Copy, Default)]
struct Skip {
    /// This group of [`ProductQuery::attribute_values`].
    group: Option<usize>,
    /// The price range.
    price: bool,
}

/// `[WITH sub] {head}SELECT {select} FROM products p WHERE <query's filters>`
/// (but those in `skip`); the caller closes what `head` opens.
fn filtered<'q>(
    query: &ProductQuery,
    now: i64,
    skip: Skip,
    head: &str,
    select: &str,
) -> QueryBuilder<'q> {
    let effective = pricing::effective_price_sql(now);
    let mut q: QueryBuilder = QueryBuilder::new("");
    if let Some(cats) = &query.categories {
        q.push("WITH RECURSIVE sub(id) AS (SELECT c.id FROM category c WHERE c.id IN (");
        let mut list = q.separated(", ");
        for id in cats {
            list.push_bind(*id);
        }
        q.push(format!(
            ") UNION SELECT c.id FROM category c JOIN sub ON c.parent = sub.id WHERE {VISIBLE}) "
        ));
    }
    q.push(format!(
        "{head}SELECT {select} FROM (SELECT p.*, {effective} AS price FROM product p) p WHERE p.is_active"
    ));
    if query.categories.is_some() {
        q.push(" AND p.id IN (SELECT pc.product_id FROM product_category pc WHERE pc.category_id IN (SELECT id FROM sub))");
    }
    if !skip.price {
        if let Some(min) = query.price_min {
            q.push(" AND p.price >= ").push_bind(min);
        }
        if let Some(max) = query.price_max {
            q.push(" AND p.price <= ").push_bind(max);
        }
    }
    for (i, values) in query.attribute_values.iter().enumerate() {
        if skip.group == Some(i) {
            continue;
        }
        q.push(" AND p.id IN (SELECT pa.product_id FROM product_attribute pa WHERE pa.attribute_value_id IN (");
        let mut list = q.separated(", ");
        for v in values {
            list.push_bind(*v);
        }
        q.push("))");
    }
    if let Some(only) = &query.only {
        // Integers, written as literals: nothing to inject, no bind limit.
        let list: Vec<String> = only.iter().map(i64::to_string).collect();
        q.push(format!(
            " AND p.id IN ({})",
            if list.is_empty() {
                "NULL".to_string()
            } else {
                list.join(",")
            }
        ));
    }
    q
}

/// One page of product ids matching `query`, and the total count.
pub async fn product_ids(
    pool: &Pool,
    query: &ProductQuery,
    page: PageRequest,
    now: i64,
) -> Result<(Vec<i64>, i64), sqlx::Error> {
    let build = |select: &str| filtered(query, now, Skip::default(), "", select);
    let total: i64 = build("COUNT(*)")
        .build_query_scalar()
        .fetch_one(pool)
        .await?;
    let mut q = build("p.id");
    match (&query.only, query.sort) {
        (Some(only), Sort::Default) if !only.is_empty() => {
            let mut rank = String::from(" ORDER BY CASE p.id");
            for (i, id) in only.iter().enumerate() {
                rank.push_str(&format!(" WHEN {id} THEN {i}"));
            }
            rank.push_str(" END");
            q.push(rank);
        }
        _ => {
            q.push(format!(" ORDER BY {}", query.sort.order_by()));
        }
    }
    q.push(" LIMIT ").push_bind(page.limit());
    q.push(" OFFSET ").push_bind(page.offset());
    let ids = q
        .build_query_as::<IdRow>()
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| r.id)
        .collect();
    Ok((ids, total))
}

/// One page of cards for `query` at `now`, as a paginator whose links are
/// `path?<keep>&page=N` (`keep`: the request's other parameters to carry).
pub async fn page(
    pool: &Pool,
    query: &ProductQuery,
    page: PageRequest,
    now: i64,
    path: &str,
    keep: &[(String, String)],
) -> Result<Paginator<ProductCard>, sqlx::Error> {
    let (ids, total) = product_ids(pool, query, page, now).await?;
    let data = cards(pool, &ids, now).await?;
    Ok(Paginator::new(data, total, page, path, keep))
}

/// Lower bounds of the price bands counted for a listing, taka; a band ends
/// one taka below the next one's start, the last is open.
pub const PRICE_BANDS: [i64; 6] = [0, 5_000, 15_000, 30_000, 60_000, 100_000];

/// How many of a listing's products each filter would leave: per attribute
/// value and per price band. A facet counts what every other filter lets
/// through, so the values of an attribute already filtered on keep their
/// counts (picking one more widens the list).
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Facets {
    /// Filterable attributes with at least one product, in their order.
    pub attributes: Vec<AttributeFacet>,
    /// Every band of [`PRICE_BANDS`], on the price a shopper pays now.
    pub price_bands: Vec<PriceBand>,
}

/// One attribute's values and their counts.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct AttributeFacet {
    /// The filter's name (`filterby_<name>`).
    pub name: String,
    pub label: String,
    /// Values with at least one product.
    pub values: Vec<ValueCount>,
}

/// An attribute value (its slug goes into `filterby_<name>`) and its count.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ValueCount {
    pub slug: String,
    pub value: String,
    pub count: i64,
}

/// Products priced `min..=max` taka (`max` None: no upper bound); the bounds
/// go into `price_min` and `price_max` as they are.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PriceBand {
    pub min: i64,
    pub max: Option<i64>,
    pub count: i64,
}

/// A filterable attribute value with its id, in the order filter panels
/// show them (by attribute, then value).
#[derive(Debug, Clone, Serialize, FromRow)]
pub struct FilterValueRow {
    pub id: i64,
    pub attribute_id: i64,
    pub field_label: String,
    /// The filter's name (`filterby_<field_name>`).
    pub field_name: String,
    pub value: String,
    pub slug: String,
}

/// Every filterable attribute value, in panel order.
pub async fn filter_values(pool: &Pool) -> Result<Vec<FilterValueRow>, sqlx::Error> {
    db::query_as(
        "SELECT v.id, a.id AS attribute_id, a.field_label, a.field_name, v.value, v.slug \
         FROM attribute a JOIN attribute_value v ON v.attribute_id = a.id WHERE a.is_filterable \
         ORDER BY a.sort, a.id, v.sort, v.id",
    )
    .fetch_all(pool)
    .await
}

/// Every (product id, filterable attribute value id) of the active
/// products: what the generator counts each category's filter values from.
pub async fn filter_memberships(pool: &Pool) -> Result<Vec<(i64, i64)>, sqlx::Error> {
    db::query_as(
        "SELECT pa.product_id, pa.attribute_value_id FROM product_attribute pa \
         JOIN attribute_value v ON v.id = pa.attribute_value_id \
         JOIN attribute a ON a.id = v.attribute_id AND a.is_filterable \
         JOIN product p ON p.id = pa.product_id AND p.is_active",
    )
    .fetch_all(pool)
    .await
}

/// The lowest and highest price a shopper pays now among `query`'s
/// products, leaving its own price range out (the bounds a price filter
/// offers); None when it has no product.
pub async fn price_bounds(
    pool: &Pool,
    query: &ProductQuery,
    now: i64,
) -> Result<Option<(i64, i64)>, sqlx::Error> {
    let skip = Skip {
        group: None,
        price: true,
    };
    let row: (Option<i64>, Option<i64>) = filtered(
        query,
        now,
        skip,
        "",
        "CAST(MIN(p.price) AS BIGINT), CAST(MAX(p.price) AS BIGINT)",
    )
    .build_query_as()
    .fetch_one(pool)
    .await?;
    Ok(row.0.zip(row.1))
}

/// How many of `query`'s products each filterable attribute value would
/// leave, by value id (values with none are absent): a value counts what
/// every other filter lets through, so the values of an attribute already
/// filtered on keep their counts (picking one more widens the list).
/// `values` are [`filter_values`].
pub async fn value_counts(
    pool: &Pool,
    query: &ProductQuery,
    now: i64,
    values: &[FilterValueRow],
) -> Result<HashMap<i64, i64>, sqlx::Error> {
    let attribute_of = |value: i64| {
        values
            .iter()
            .find(|v| v.id == value)
            .map(|v| v.attribute_id)
    };
    let head =
        "SELECT pa.attribute_value_id, COUNT(*) FROM product_attribute pa WHERE pa.product_id IN (";
    let count_values = |skip: Skip| async move {
        let mut q = filtered(query, now, skip, head, "p.id");
        q.push(") GROUP BY pa.attribute_value_id");
        q.build_query_as::<(i64, i64)>().fetch_all(pool).await
    };
    // Counts under every filter, then again for each attribute filtered on
    // without its own filter.
    let mut counts: HashMap<i64, i64> = count_values(Skip::default()).await?.into_iter().collect();
    for (i, group) in query.attribute_values.iter().enumerate() {
        let Some(attribute) = group.first().and_then(|v| attribute_of(*v)) else {
            continue;
        };
        counts.retain(|v, _| attribute_of(*v) != Some(attribute));
        let skip = Skip {
            group: Some(i),
            price: false,
        };
        counts.extend(
            count_values(skip)
                .await?
                .into_iter()
                .filter(|(v, _)| attribute_of(*v) == Some(attribute)),
        );
    }
    counts.retain(|v, c| *c > 0 && attribute_of(*v).is_some());
    Ok(counts)
}

/// The facet counts of `query`'s products at `now` (see [`Facets`]).
pub async fn facets(pool: &Pool, query: &ProductQuery, now: i64) -> Result<Facets, sqlx::Error> {
    let values = filter_values(pool).await?;
    let counts = value_counts(pool, query, now, &values).await?;
    let mut attributes: Vec<AttributeFacet> = Vec::new();
    for v in &values {
        let Some(count) = counts.get(&v.id).copied().filter(|c| *c > 0) else {
            continue;
        };
        if attributes.last().map(|a| &a.name) != Some(&v.field_name) {
            attributes.push(AttributeFacet {
                name: v.field_name.clone(),
                label: v.field_label.clone(),
                values: Vec::new(),
            });
        }
        if let Some(a) = attributes.last_mut() {
            a.values.push(ValueCount {
                slug: v.slug.clone(),
                value: v.value.clone(),
                count,
            });
        }
    }

    let skip = Skip {
        group: None,
        price: true,
    };
    // Each product's band: the last whose lower bound its price reaches.
    let mut band = String::from("CAST(CASE");
    for (i, min) in PRICE_BANDS.iter().enumerate().rev() {
        band.push_str(&format!(" WHEN p.price >= {min} THEN {i}"));
    }
    band.push_str(" END AS BIGINT) AS band");
    let mut q = filtered(query, now, skip, "SELECT band, COUNT(*) FROM (", &band);
    q.push(") banded GROUP BY band");
    let by_band: HashMap<i64, i64> = q
        .build_query_as::<(i64, i64)>()
        .fetch_all(pool)
        .await?
        .into_iter()
        .collect();
    let price_bands = PRICE_BANDS
        .iter()
        .enumerate()
        .map(|(i, min)| PriceBand {
            min: *min,
            max: PRICE_BANDS.get(i + 1).map(|next| next - 1),
            count: by_band.get(&(i as i64)).copied().unwrap_or(0),
        })
        .collect();
    Ok(Facets {
        attributes,
        price_bands,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_by_names_the_original_client_sends() {
        assert_eq!(Sort::parse(""), Some(Sort::Default));
        assert_eq!(Sort::parse("price_asc"), Some(Sort::PriceAsc));
        assert_eq!(Sort::parse("date_desc"), Some(Sort::DateDesc));
        assert_eq!(Sort::parse("popularity"), Some(Sort::Popularity));
        assert_eq!(Sort::parse("recommended"), None);
        assert_eq!(Sort::parse("PRICE_ASC"), None);
    }
}
