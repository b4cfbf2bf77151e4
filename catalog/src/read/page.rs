//! The one paginator of the project: Laravel 8's `LengthAwarePaginator` as
//! JSON (ORIGINAL-API.md §0.3), so a client of the original shop reads
//! `products.data`, `.total`, `.to` and `.last_page` as before.
//!
//! A list query selects one page of ids with [`PageRequest::limit`] and
//! [`PageRequest::offset`], counts the total, and wraps the loaded rows with
//! [`Paginator::new`].

use serde::Serialize;

/// Which page to show and how many rows per page (both at least 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// 1-based page number.
    pub page: i64,
    /// Rows per page.
    pub per_page: i64,
}

impl PageRequest {
    /// A request for `page` of `per_page` rows; values below 1 become 1.
    pub fn new(page: i64, per_page: i64) -> Self {
        PageRequest {
            page: page.max(1),
            per_page: per_page.max(1),
        }
    }

    /// The SQL `LIMIT`.
    pub fn limit(&self) -> i64 {
        self.per_page
    }

    /// The SQL `OFFSET` (saturating, so a huge page cannot overflow).
    pub fn offset(&self) -> i64 {
        (self.page - 1).saturating_mul(self.per_page)
    }
}

/// A link of the paginator's `links` list.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct PageLink {
    /// None for a disabled "Previous"/"Next" and for the "..." gap.
    pub url: Option<String>,
    /// "&laquo; Previous", a page number, "..." or "Next &raquo;" (Laravel's labels).
    pub label: String,
    /// Whether this is the current page.
    pub active: bool,
}

/// One page of `T` with Laravel's paginator fields.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Paginator<T> {
    /// The 1-based page shown.
    pub current_page: i64,
    /// The rows of this page.
    pub data: Vec<T>,
    /// Links carry the request's other query parameters.
    pub first_page_url: String,
    /// 1-based position of the first row shown; None on an empty page.
    pub from: Option<i64>,
    /// The last page number (1 for an empty list).
    pub last_page: i64,
    pub last_page_url: String,
    /// Previous, the page numbers around the current one (with gaps), Next.
    pub links: Vec<PageLink>,
    /// None on the last page.
    pub next_page_url: Option<String>,
    /// The URL path the page links are built on, e.g. `/api/category/products`.
    pub path: String,
    /// Rows per page.
    pub per_page: i64,
    /// None on the first page.
    pub prev_page_url: Option<String>,
    /// 1-based position of the last row shown; None on an empty page.
    pub to: Option<i64>,
    /// Rows on all pages.
    pub total: i64,
}

/// Pages shown on each side of the current one in `links` (Laravel's default).
const ON_EACH_SIDE: i64 = 3;

impl<T> Paginator<T> {
    /// Wraps `data` (the rows of `req`'s page) given the `total` row count.
    /// Page links are `path?<query>&page=N`, where `query` are the other
    /// parameters to keep (already-decoded pairs; they are encoded here).
    pub fn new(
        data: Vec<T>,
        total: i64,
        req: PageRequest,
        path: &str,
        query: &[(String, String)],
    ) -> Self {
        let total = total.max(0);
        let per_page = req.per_page.max(1);
        let current_page = req.page.max(1);
        let last_page = ((total + per_page - 1) / per_page).max(1);
        let mut base = String::from(path);
        base.push('?');
        for (k, v) in query.iter().filter(|(k, _)| k != "page") {
            base.push_str(&encode(k));
            base.push('=');
            base.push_str(&encode(v));
            base.push('&');
        }
        base.push_str("page=");
        let url = |n: i64| format!("{base}{n}");
        let (from, to) = if data.is_empty() {
            (None, None)
        } else {
            let from = req.offset() + 1;
            (Some(from), Some(from + data.len() as i64 - 1))
        };
        let prev_page_url = (current_page > 1).then(|| url(current_page - 1));
        let next_page_url = (current_page < last_page).then(|| url(current_page + 1));

        let mut links = vec![PageLink {
            url: prev_page_url.clone(),
            label: "&laquo; Previous".into(),
            active: false,
        }];
        let push_page = |links: &mut Vec<PageLink>, n: i64| {
            links.push(PageLink {
                url: Some(url(n)),
                label: n.to_string(),
                active: n == current_page,
            })
        };
        let gap = || PageLink {
            url: None,
            label: "...".into(),
            active: false,
        };
        let window = ON_EACH_SIDE * 2;
        if last_page < window + 6 {
            (1..=last_page).for_each(|n| push_page(&mut links, n));
        } else if current_page <= window {
            (1..=window + 2).for_each(|n| push_page(&mut links, n));
            links.push(gap());
            (last_page - 1..=last_page).for_each(|n| push_page(&mut links, n));
        } else if current_page > last_page - window {
            (1..=2).for_each(|n| push_page(&mut links, n));
            links.push(gap());
            (last_page - (window + 2) + 1..=last_page).for_each(|n| push_page(&mut links, n));
        } else {
            (1..=2).for_each(|n| push_page(&mut links, n));
            links.push(gap());
            (current_page - ON_EACH_SIDE..=current_page + ON_EACH_SIDE)
                .for_each(|n| push_page(&mut links, n));
            links.push(gap());
            (last_page - 1..=last_page).for_each(|n| push_page(&mut links, n));
        }
        links.push(PageLink {
            url: next_page_url.clone(),
            label: "Next &raquo;".into(),
            active: false,
        });

        Paginator {
            current_page,
            data,
            first_page_url: url(1),
            from,
            last_page,
            last_page_url: url(last_page),
            links,
            next_page_url,
            path: path.to_string(),
            per_page,
            prev_page_url,
            to,
            total,
        }
    }

    /// The same page with its rows converted.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> Paginator<U> {
        Paginator {
            current_page: self.current_page,
            data: self.data.into_iter().map(f).collect(),
            first_page_url: self.first_page_url,
            from: self.from,
            last_page: self.last_page,
            last_page_url: self.last_page_url,
            links: self.links,
            next_page_url: self.next_page_url,
            path: self.path,
            per_page: self.per_page,
            prev_page_url: self.prev_page_url,
            to: self.to,
            total: self.total,
        }
    }
}

/// Percent-encodes a query component (RFC 3986 unreserved characters kept).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_follow_laravel() {
        let p = Paginator::new(
            vec![1, 2, 3],
            35,
            PageRequest::new(2, 16),
            "/api/x",
            &[("seo_url".into(), "beds & more".into())],
        );
        assert_eq!(p.last_page, 3);
        assert_eq!((p.from, p.to), (Some(17), Some(19)));
        assert_eq!(p.first_page_url, "/api/x?seo_url=beds%20%26%20more&page=1");
        assert_eq!(
            p.prev_page_url.as_deref(),
            Some("/api/x?seo_url=beds%20%26%20more&page=1")
        );
        assert_eq!(
            p.next_page_url.as_deref(),
            Some("/api/x?seo_url=beds%20%26%20more&page=3")
        );
        assert_eq!(p.links.len(), 5);
        assert!(p.links[2].active);
    }

    #[test]
    fn an_empty_list_has_one_page_and_no_positions() {
        let p: Paginator<i32> = Paginator::new(vec![], 0, PageRequest::new(1, 16), "/a", &[]);
        assert_eq!(
            (p.last_page, p.from, p.to, p.next_page_url),
            (1, None, None, None)
        );
    }

    #[test]
    fn many_pages_get_gaps() {
        let p: Paginator<i32> = Paginator::new(vec![1], 1000, PageRequest::new(30, 10), "/a", &[]);
        let labels: Vec<_> = p.links.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(labels.iter().filter(|l| **l == "...").count(), 2);
        assert!(labels.contains(&"30") && labels.contains(&"100"));
    }
}
