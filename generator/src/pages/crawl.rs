//! What crawlers read besides pages: `robots.txt` and `sitemap.xml` (an
//! index of parts of at most 50,000 URLs each, as the protocol allows).

use catalog::surrogate::SurrogateKey;

use crate::output::Page;

/// Most URLs in one sitemap part (the sitemap protocol's limit).
pub const SITEMAP_PART_URLS: usize = 50_000;

/// A URL for the sitemap: site path and last change (unix seconds, 0 = unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapUrl {
    pub path: String,
    pub updated_at: i64,
}

/// Paths no crawler should request: the API calls that change state with a
/// GET (SPEC.md §7 keeps them as GET), the per-visitor pages, and search
/// result variants (endless, and rendered on demand).
pub const DISALLOW: &[&str] = &[
    "/api/cart/",
    "/api/user/",
    "/api/auth/",
    "/api/common/add-to-compare",
    "/api/common/remove-compare",
    "/api/common/compare",
    "/api/product/question-store",
    "/api/product/comment-store",
    "/api/cod-place-order",
    "/cart",
    "/checkout",
    "/payment",
    "/order",
    "/thank-you",
    "/fail",
    "/nagad-thank-you",
    "/redirect-from-ssl",
    "/compare",
    "/wishlist",
    "/review",
    "/product/review/",
    "/page/track-order",
    "/user",
    "/lite/",
    "/*?*keyword=",
];

/// `robots.txt`.
pub fn robots(base_url: &str) -> Page {
    let mut body = String::from("User-agent: *\n");
    for path in DISALLOW {
        body.push_str("Disallow: ");
        body.push_str(path);
        body.push('\n');
    }
    body.push_str(&format!("\nSitemap: {base_url}/sitemap.xml\n"));
    Page {
        path: "/robots.txt".into(),
        body: body.into_bytes(),
        keys: vec![SurrogateKey::Robots.to_string()],
    }
}

/// `favicon.svg`: the shop's mark, linked from every page's head, so no
/// browser asks for a missing `/favicon.ico` (a 404 in its console).
pub fn favicon() -> Page {
    Page {
        path: "/favicon.svg".into(),
        body: br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#b5121b"/><path d="M6 13h4v4h12v-4h4v10h-2v2h-3v-2H11v2H8v-2H6zM11 9h10v6H11z" fill="#fff"/></svg>
"##
        .to_vec(),
        keys: vec![SurrogateKey::Favicon.to_string()],
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// `sitemap.xml` (an index) and its parts `sitemap-1.xml`, `sitemap-2.xml`...
pub fn sitemaps(base_url: &str, urls: &[SitemapUrl], part_size: usize) -> Vec<Page> {
    let part_size = part_size.clamp(1, SITEMAP_PART_URLS);
    let mut pages = Vec::new();
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (i, chunk) in urls.chunks(part_size).enumerate() {
        let path = format!("/sitemap-{}.xml", i + 1);
        let mut body = String::with_capacity(chunk.len() * 90);
        body.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        let mut newest = 0;
        for u in chunk {
            body.push_str("<url><loc>");
            body.push_str(&xml_escape(&format!("{base_url}{}", u.path)));
            body.push_str("</loc>");
            if u.updated_at > 0 {
                body.push_str(&format!("<lastmod>{}</lastmod>", date(u.updated_at)));
            }
            body.push_str("</url>\n");
            newest = newest.max(u.updated_at);
        }
        body.push_str("</urlset>\n");
        index.push_str(&format!(
            "<sitemap><loc>{}</loc>",
            xml_escape(&format!("{base_url}{path}"))
        ));
        if newest > 0 {
            index.push_str(&format!("<lastmod>{}</lastmod>", date(newest)));
        }
        index.push_str("</sitemap>\n");
        pages.push(Page {
            path,
            body: body.into_bytes(),
            keys: vec![SurrogateKey::Sitemap.to_string()],
        });
    }
    index.push_str("</sitemapindex>\n");
    pages.insert(
        0,
        Page {
            path: "/sitemap.xml".into(),
            body: index.into_bytes(),
            keys: vec![SurrogateKey::Sitemap.to_string()],
        },
    );
    pages
}

fn date(unix: i64) -> String {
    catalog::clock::in_dhaka(unix)
        .format("%Y-%m-%d")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sitemap_is_an_index_of_parts_no_larger_than_the_limit() {
        let urls: Vec<SitemapUrl> = (0..5)
            .map(|i| SitemapUrl {
                path: format!("/product/p-{i}"),
                updated_at: 1_700_000_000 + i,
            })
            .collect();
        let pages = sitemaps("https://shop.example", &urls, 2);
        let paths: Vec<&str> = pages.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/sitemap.xml",
                "/sitemap-1.xml",
                "/sitemap-2.xml",
                "/sitemap-3.xml"
            ]
        );
        let index = String::from_utf8(pages[0].body.clone()).unwrap();
        assert_eq!(index.matches("<sitemap>").count(), 3);
        assert!(index.contains("<loc>https://shop.example/sitemap-3.xml</loc>"));
        let part = String::from_utf8(pages[1].body.clone()).unwrap();
        assert_eq!(part.matches("<url>").count(), 2);
        assert!(part.contains("<lastmod>2023-11-15</lastmod>"));
        assert_eq!(sitemaps("x", &urls, 1_000_000).len(), 2);
    }

    #[test]
    fn robots_disallows_state_changing_gets_and_per_visitor_pages() {
        let body = String::from_utf8(robots("https://shop.example").body).unwrap();
        for line in [
            "Disallow: /api/cart/",
            "Disallow: /api/common/add-to-compare",
            "Disallow: /checkout",
            "Disallow: /user",
            "Sitemap: https://shop.example/sitemap.xml",
        ] {
            assert!(body.contains(line), "{line}");
        }
        assert!(!body.contains("Disallow: /c/\n"));
        assert!(!body.contains("Disallow: /product/\n"));
    }
}
