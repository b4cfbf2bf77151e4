//! The image format rule: WebP or JPEG.
//!
//! The origin answers an image request with WebP or JPEG by [`accepts_webp`],
//! and the edge keeps two variants of an image's `Vary: Accept` by the same
//! rule (WebP or not) instead of one per browser's `Accept`. If the two rules
//! ever differed, the edge could hand a JPEG-only browser the WebP variant.

use http::header::ACCEPT;
use http::HeaderMap;

use crate::preferences;

/// Whether a request's `Accept` names `image/webp` with a non-zero q. `*/*`
/// and `image/*` do not count: a client that can show WebP says so.
pub fn accepts_webp(headers: &HeaderMap) -> bool {
    preferences(headers, &ACCEPT).any(|p| p.name.eq_ignore_ascii_case("image/webp") && p.weight > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(accepts: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for a in accepts {
            h.append(ACCEPT, HeaderValue::from_str(a).unwrap());
        }
        h
    }

    #[test]
    fn webp_is_accepted_only_when_named_with_a_nonzero_q() {
        let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
        assert!(accepts_webp(&headers(&[chrome])));
        assert!(accepts_webp(&headers(&["IMAGE/WEBP;q=0.5"])));
        assert!(accepts_webp(&headers(&["image/png", "image/webp"])));
        assert!(!accepts_webp(&headers(&["image/webp;q=0"])));
        assert!(!accepts_webp(&headers(&["image/webp;Q=0.000"])));
        assert!(!accepts_webp(&headers(&["image/*,*/*;q=0.8"])));
        assert!(!accepts_webp(&headers(&["image/*,*/*"])));
        assert!(!accepts_webp(&headers(&[])));
    }
}
