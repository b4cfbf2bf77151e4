//! Content negotiation: the rules by which a request's `Accept` and
//! `Accept-Encoding` choose a representation, kept in one crate because the
//! origin and the edge must apply them alike.
//!
//! The origin picks what to send by them; the edge keys its cache by the same
//! choice (one entry per encoding, two per image), so it can answer a client
//! with a copy filled for another. If the two readings ever differed, the edge
//! could hand a client an encoding or an image format it refused.
//! - [`encoding`]: which content coding (brotli, gzip or none) a response is
//!   sent in, from `Accept-Encoding` (RFC 9110 §12.5.3).
//! - [`image`]: whether an image is sent as WebP, from `Accept`.
//!
//! Both headers are lists of names with optional weights (`q=`, RFC 9110
//! §12.4.2), read here by one parser ([`preferences`]).

pub mod encoding;
pub mod image;

pub use encoding::{acceptable_codings, preferred_coding, Coding};
pub use image::accepts_webp;

use http::header::HeaderName;
use http::HeaderMap;

/// Weights are in thousandths, the precision a qvalue has: 1000 is `q=1`.
const FULL_WEIGHT: u16 = 1000;

/// One element of a preference list: a name (a media range or a content
/// coding, as sent) and its weight in thousandths (1000 when it has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Preference<'a> {
    name: &'a str,
    weight: u16,
}

/// The elements of every `header` line of `headers`, in order: several lines
/// of one header are one list (RFC 9110 §5.3). Empty elements are skipped, as
/// the list syntax allows them; so are lines that are not visible ASCII and
/// elements whose weight is not a qvalue: a client that garbles a weight has
/// said nothing reliable about that name, so it counts as not named.
fn preferences<'a>(
    headers: &'a HeaderMap,
    header: &HeaderName,
) -> impl Iterator<Item = Preference<'a>> {
    headers
        .get_all(header)
        .iter()
        .filter_map(|line| line.to_str().ok())
        .flat_map(|line| line.split(','))
        .filter_map(|element| {
            let mut parts = element.split(';');
            let name = parts.next().unwrap_or("").trim();
            if name.is_empty() {
                return None;
            }
            // Parameter names are case-insensitive (RFC 9110 §5.6.6); a media
            // range's own parameters may come before the weight.
            let weight = parts
                .filter_map(|param| param.split_once('='))
                .find(|(key, _)| key.trim().eq_ignore_ascii_case("q"))
                .map_or(Some(FULL_WEIGHT), |(_, value)| qvalue(value.trim()))?;
            Some(Preference { name, weight })
        })
}

/// A qvalue in thousandths: `0` to `1` with at most three decimals
/// (RFC 9110 §12.4.2: `0[.ddd]` or `1[.000]`); anything else is `None`.
fn qvalue(text: &str) -> Option<u16> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0u16, |n, digit| n * 10 + u16::from(digit - b'0'));
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(FULL_WEIGHT),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::header::ACCEPT_ENCODING;
    use http::HeaderValue;

    fn read(lines: &[&str]) -> Vec<(String, u16)> {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(ACCEPT_ENCODING, HeaderValue::from_str(line).unwrap());
        }
        preferences(&headers, &ACCEPT_ENCODING)
            .map(|p| (p.name.to_string(), p.weight))
            .collect()
    }

    fn list(items: &[(&str, u16)]) -> Vec<(String, u16)> {
        items.iter().map(|(n, w)| (n.to_string(), *w)).collect()
    }

    #[test]
    fn qvalues_follow_the_rfc_grammar() {
        assert_eq!(qvalue("1"), Some(1000));
        assert_eq!(qvalue("1."), Some(1000));
        assert_eq!(qvalue("1.000"), Some(1000));
        assert_eq!(qvalue("0"), Some(0));
        assert_eq!(qvalue("0.000"), Some(0));
        assert_eq!(qvalue("0.5"), Some(500));
        assert_eq!(qvalue("0.05"), Some(50));
        assert_eq!(qvalue("0.001"), Some(1));
        for bad in [
            "", ".5", "1.5", "1.001", "2", "0.0001", "-0", "-1", "+1", "1e0", "0x1", "NaN", "inf",
            "0.5a", " 0.5",
        ] {
            assert_eq!(qvalue(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn lines_and_elements_are_read_in_order_with_their_weights() {
        assert_eq!(
            read(&["gzip, deflate;q=0.5", "br;q=0"]),
            list(&[("gzip", 1000), ("deflate", 500), ("br", 0)])
        );
        // Optional whitespace, empty elements, a capital Q and a leading parameter.
        assert_eq!(
            read(&[" , br ;  Q=0.8 ,, text/html;level=1;q=0.2 ,"]),
            list(&[("br", 800), ("text/html", 200)])
        );
        assert_eq!(read(&[""]), list(&[]));
    }

    #[test]
    fn an_element_with_a_garbled_weight_is_left_out() {
        assert_eq!(
            read(&["br;q=high, gzip;q=1.5, deflate;q=, identity"]),
            list(&[("identity", 1000)])
        );
    }
}
