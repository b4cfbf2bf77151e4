//! Listing pages rendered on demand: `/c/{seo_url}` with a query of listing
//! parameters (`page`, `sort_by`, `keyword`, `price_min`, `price_max`,
//! `filterby_category`, `filterby_{attribute}`: the names of the
//! `category/products` API, the generator's links and the category-filters
//! island). The generator writes only each category's first page; further
//! pages, sorts, filters and searches (the header's plain search form goes
//! to `/c/products?keyword=`) are rendered here with the generator's
//! template ([`generator::serve::render_variant`]) on the same
//! product query as the API (`catalog::read::listing`, a keyword ranked by
//! the search index).
//!
//! A shopper's page is read leniently: a page number that is not one counts
//! as 1 and a huge one is capped; the listing parameters are read by
//! [`crate::domain::listing_query`] as for the API, but an unknown sort, filter or
//! value and a malformed price are left out (`sort` is read as `sort_by`). A
//! query with nothing left that changes the page (`?utm_source=...`,
//! `?page=1`) gets the prebuilt page. Without a sort, a listing is in the
//! prebuilt first page's order (most popular first, [`LISTING_PAGE`] cards a
//! page) so that page 2 continues page 1; a search keeps the index's ranking.
//!
//! The filter panel counts each attribute value among the listing's
//! products with the other chosen filters (a value that would leave nothing
//! is not offered) and offers the listing's price bounds
//! ([`generator::serve::FilterPanel`]).
//!
//! The page frame (chrome, island scripts), the category tree and the filter
//! list are loaded once and reloaded when the site's manifest changes (the
//! generator rebuilt) or after [`FRAME_TTL`]. The island scripts come from
//! Vite's manifest in `WEB_DIST` (default `web/dist`, as for the generator).
//!
//! Responses are public for [`EDGE_TTL`] seconds at the edge (capped at the
//! next flash-sale boundary, [`crate::plumbing::cache`]), tagged with the category's and
//! every listed product's surrogate keys, compressed for `Accept-Encoding`
//! and revalidated by ETag.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use catalog::read::listing::{self, ProductQuery, Sort};
use catalog::read::site::CategoryNode;
use catalog::read::PageRequest;
use catalog::surrogate::SurrogateKey;
use generator::serve::{
    Catalogue, Entry, FilterPanel, ListingData, Manifest, Variant, LISTING_PAGE,
};
use tokio::sync::Mutex;

use crate::domain::listing_query::MAX_PAGE;
#[cfg(test)]
use crate::domain::listing_query::MAX_PARAM_LEN;
use crate::domain::listing_query::{self, ListingParams, Resolved, FILTER_PREFIX};
use crate::state::AppState;
use crate::surfaces::site;

/// Seconds the edge keeps an on-demand listing page.
pub const EDGE_TTL: i64 = 60;
/// Longest the page frame and category tree are reused without a reload.
pub const FRAME_TTL: Duration = Duration::from_secs(60);
/// The environment variable naming Vite's output directory.
pub const WEB_DIST_ENV: &str = "WEB_DIST";

/// What a listing request gets.
#[derive(Debug)]
pub enum Answer {
    /// Nothing in the query changes the page: the prebuilt file.
    Prebuilt,
    /// No published category has the slug.
    NotFound,
    /// The page, rendered for the query.
    Page(Response),
}

/// The slug of a listing path, `/c/{slug}` (a trailing slash allowed).
pub fn listing_slug(path: &str) -> Option<&str> {
    let slug = path.strip_prefix("/c/")?;
    let slug = slug.strip_suffix('/').unwrap_or(slug);
    (!slug.is_empty() && !slug.contains('/')).then_some(slug)
}

/// A listing request's parameters, as far as they could be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wanted {
    /// From 1, at most [`MAX_PAGE`].
    pub page: usize,
    /// The `sort_by` value, when it names a sort.
    pub sort: Option<String>,
    pub keyword: Option<String>,
    pub price_min: Option<i64>,
    pub price_max: Option<i64>,
    /// `(name, value)` of every non-empty `filterby_*` parameter, in order.
    pub filters: Vec<(String, String)>,
}

impl Wanted {
    /// Reads the pairs of a query string leniently (see the module docs):
    /// the listing parameters as [`ListingParams`] reads them, without their
    /// problems.
    pub fn read(pairs: &[(String, String)]) -> Wanted {
        // Digits too many for a number are a huge page, capped like the rest.
        let page = listing_query::last(pairs, "page")
            .and_then(|v| {
                v.parse::<u64>()
                    .ok()
                    .or_else(|| v.bytes().all(|b| b.is_ascii_digit()).then_some(u64::MAX))
            })
            .map_or(1, |p| p.clamp(1, MAX_PAGE as u64) as usize);
        let ListingParams {
            mut sort,
            keyword,
            price_min,
            price_max,
            mut filters,
            problems: _,
        } = ListingParams::read(pairs);
        // `sort` is read as `sort_by` when that is not given.
        if listing_query::last(pairs, "sort_by").is_none() {
            sort = listing_query::last(pairs, "sort")
                .filter(|s| Sort::parse(s).is_some())
                .map(str::to_string);
        }
        // A bare `filterby_` names no filter.
        filters.retain(|(k, _)| k.len() > FILTER_PREFIX.len());
        Wanted {
            page,
            sort,
            keyword,
            price_min,
            price_max,
            filters,
        }
    }

    /// The listing parameters again, for [`ListingParams::resolve`].
    fn params(&self) -> ListingParams {
        ListingParams {
            sort: self.sort.clone(),
            keyword: self.keyword.clone(),
            price_min: self.price_min,
            price_max: self.price_max,
            filters: self.filters.clone(),
            problems: Vec::new(),
        }
    }

    /// Whether this is the plain listing's first page (the prebuilt file).
    pub fn is_plain_first_page(&self) -> bool {
        self.page == 1
            && self.sort.is_none()
            && self.keyword.is_none()
            && self.price_min.is_none()
            && self.price_max.is_none()
            && self.filters.is_empty()
    }
}

/// What every on-demand listing page shares, loaded together.
struct Frame {
    site: generator::serve::Site,
    /// The category tree only (no products): breadcrumbs and sub-categories.
    catalogue: Catalogue,
    shared: ListingData,
}

struct Loaded {
    at: Instant,
    manifest: Arc<Manifest>,
    frame: Arc<Frame>,
}

/// Renders listing pages on demand.
pub struct ListingPages {
    state: AppState,
    web_dist: PathBuf,
    loaded: Mutex<Option<Loaded>>,
}

impl ListingPages {
    /// Pages from `state`'s database and search index.
    pub fn new(state: AppState) -> ListingPages {
        let web_dist = std::env::var_os(WEB_DIST_ENV)
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("web/dist"));
        ListingPages {
            state,
            web_dist,
            loaded: Mutex::new(None),
        }
    }

    /// The frame, reloaded when the site was rebuilt or it is old.
    async fn frame(&self, manifest: &Arc<Manifest>) -> anyhow::Result<Arc<Frame>> {
        let mut loaded = self.loaded.lock().await;
        if let Some(l) = loaded.as_ref() {
            if Arc::ptr_eq(&l.manifest, manifest) && l.at.elapsed() < FRAME_TTL {
                return Ok(l.frame.clone());
            }
        }
        let frame = Arc::new(self.load_frame().await?);
        *loaded = Some(Loaded {
            at: Instant::now(),
            manifest: manifest.clone(),
            frame: frame.clone(),
        });
        Ok(frame)
    }

    async fn load_frame(&self) -> anyhow::Result<Frame> {
        use catalog::read::site as q;
        let pool = &self.state.pool;
        let chrome = generator::serve::ChromeData::load(pool)
            .await
            .context("reading the chrome")?
            .render()?;
        let assets = generator::serve::Assets::load(&self.web_dist).unwrap_or_else(|err| {
            tracing::warn!(cause = %err, "cannot read the web build's manifest; pages get no scripts");
            Default::default()
        });
        let categories = q::category_tree(pool).await.context("reading categories")?;
        Ok(Frame {
            site: generator::serve::Site {
                base_url: self.state.site_url.trim_end_matches('/').to_string(),
                chrome,
                assets,
            },
            catalogue: Catalogue::from_rows(categories, Vec::new(), &[]),
            shared: ListingData {
                filters: listing::filter_values(pool).await?,
                memberships: Default::default(),
                tag_gallery: q::tag_gallery(pool).await?,
                sets: q::product_sets(pool).await?,
            },
        })
    }

    /// Answers `GET /c/{slug}?{query}` (see the module docs).
    pub async fn answer(
        &self,
        slug: &str,
        uri: &Uri,
        manifest: &Arc<Manifest>,
        headers: &HeaderMap,
        head: bool,
    ) -> anyhow::Result<Answer> {
        let Ok(axum::extract::Query(pairs)) =
            axum::extract::Query::<Vec<(String, String)>>::try_from_uri(uri)
        else {
            return Ok(Answer::Prebuilt);
        };
        let wanted = Wanted::read(&pairs);
        if wanted.is_plain_first_page() {
            return Ok(Answer::Prebuilt);
        }
        let frame = self.frame(manifest).await?;
        let Some(category) = frame
            .catalogue
            .categories
            .iter()
            .find(|c| c.seo_url == slug)
        else {
            return Ok(Answer::NotFound);
        };
        let (query, kept, relaxed) = self.product_query(category, &wanted).await?;
        let now = catalog::clock::now_unix();
        let (ids, total) = listing::product_ids(
            &self.state.pool,
            &query,
            PageRequest::new(wanted.page as i64, LISTING_PAGE as i64),
            now,
        )
        .await?;
        let cards = catalog::read::cards(&self.state.pool, &ids, now).await?;
        // The filter panel of this listing: each value's count with the
        // other chosen filters, and the price bounds without the price range.
        let panel = FilterPanel {
            counts: listing::value_counts(&self.state.pool, &query, now, &frame.shared.filters)
                .await?,
            price: listing::price_bounds(&self.state.pool, &query, now).await?,
        };
        let variant = Variant {
            cards: cards.iter().collect(),
            total: usize::try_from(total).unwrap_or(0),
            page: wanted.page,
            per_page: LISTING_PAGE,
            query: kept,
            keyword: wanted.keyword.clone(),
            relaxed,
            panel,
        };
        let page = generator::serve::render_variant(
            &frame.site,
            &frame.catalogue,
            &frame.shared,
            category,
            &variant,
        )?;
        let mut keys = page.keys;
        keys.push(SurrogateKey::Products.to_string());
        let response = html_response(page.body, headers, head)?;
        Ok(Answer::Page(crate::plumbing::cache::public_brief(
            response, keys, EDGE_TTL,
        )))
    }

    /// The product query of `wanted` in `category` (resolved as for
    /// `category/products`, its problems left out), the parameters the
    /// page's links keep, and the words a relaxed search matched.
    async fn product_query(
        &self,
        category: &CategoryNode,
        wanted: &Wanted,
    ) -> anyhow::Result<(ProductQuery, Vec<(String, String)>, Option<String>)> {
        let Resolved {
            mut query,
            kept,
            relaxed,
            ..
        } = wanted
            .params()
            .resolve(
                &self.state.pool,
                &self.state.search,
                category.id,
                &category.seo_url,
            )
            .await?;
        // Without a sort, a search keeps its ranking; a listing continues
        // the prebuilt page.
        if wanted.sort.is_none() && query.only.is_none() {
            query.sort = Sort::Popularity;
        }
        Ok((query, kept, relaxed))
    }
}

/// An HTML page in the best coding the client accepts, or a 304 when its
/// `If-None-Match` names this content.
fn html_response(body: Vec<u8>, headers: &HeaderMap, head: bool) -> anyhow::Result<Response> {
    let entry = Entry {
        hash: generator::serve::hash(&body),
        keys: Vec::new(),
        as_of: None,
    };
    let coding = negotiate::preferred_coding(headers);
    if site::not_modified(headers, &entry) {
        return Ok(site::not_modified_response(&entry, coding));
    }
    let bytes = site::encode(body, coding)?;
    let mut response = site::body_response(bytes, "text/html; charset=utf-8", coding, head);
    if let Ok(v) = axum::http::HeaderValue::from_str(&site::etag(&entry, coding)) {
        response.headers_mut().insert(axum::http::header::ETAG, v);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &str) -> Vec<(String, String)> {
        let uri: Uri = format!("/c/x?{q}").parse().unwrap();
        axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&uri)
            .unwrap()
            .0
    }

    #[test]
    fn listing_paths_name_one_slug() {
        assert_eq!(listing_slug("/c/beds"), Some("beds"));
        assert_eq!(listing_slug("/c/beds/"), Some("beds"));
        assert_eq!(listing_slug("/c/"), None);
        assert_eq!(listing_slug("/c/a/b"), None);
        assert_eq!(listing_slug("/product/x"), None);
    }

    #[test]
    fn parameters_are_read_leniently() {
        for q in [
            "page=abc",
            "page=-1",
            "page=0",
            "page=1",
            "utm_source=x",
            "keyword=+",
            "sort_by=nope",
            "price_min=x",
            "filterby_=a",
            "time=123",
        ] {
            assert!(Wanted::read(&pairs(q)).is_plain_first_page(), "{q}");
        }
        assert_eq!(
            Wanted::read(&pairs("page=99999999999999999999")).page,
            MAX_PAGE as usize
        );
        assert_eq!(Wanted::read(&pairs("page=3&page=2")).page, 2);
        let w = Wanted::read(&pairs(
            "keyword=%20Teak%20bed%20&sort=price_desc&price_min=9000&price_max=100&filterby_color=red%7Cteak",
        ));
        assert_eq!(w.keyword.as_deref(), Some("Teak bed"));
        assert_eq!(w.sort.as_deref(), Some("price_desc"));
        assert_eq!((w.price_min, w.price_max), (Some(100), Some(9000)));
        assert_eq!(
            w.filters,
            [("filterby_color".to_string(), "red|teak".to_string())]
        );
        assert_eq!(
            Wanted::read(&pairs(&format!("keyword={}", "a".repeat(500))))
                .keyword
                .map(|k| k.len()),
            Some(MAX_PARAM_LEN)
        );
    }
}
