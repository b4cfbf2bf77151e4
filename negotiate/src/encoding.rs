//! The content coding rule: brotli, gzip or none, from `Accept-Encoding`.
//!
//! The origin sends a page in the first of [`acceptable_codings`] it has a copy
//! in, and the edge keys its cache by [`preferred_coding`] and asks the origin
//! for exactly that coding. The rule is RFC 9110 §12.5.3:
//! - a coding with `q=0` is not acceptable, and a higher q is preferred
//!   (on a tie, the smaller body: brotli, then gzip, then none);
//! - `*` stands for every coding the header does not name, so `br;q=0, *`
//!   still refuses brotli;
//! - no coding (`identity`) is acceptable unless refused by `identity;q=0`,
//!   or by `*;q=0` without an `identity` entry; when not named it comes last;
//! - an empty header asks for no coding.
//!
//! Two choices the RFC leaves to the server: a request without the header gets
//! no coding (the RFC allows any, but a client that says nothing, such as a
//! script or a health check, may not decode one); and when every coding is
//! refused the header is disregarded and the body goes without a coding
//! (§12.5.3 allows it, rather than a 406 for a page).

use std::cmp::Reverse;

use http::header::ACCEPT_ENCODING;
use http::HeaderMap;

use crate::preferences;

/// A content coding the shop keeps or makes bodies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Coding {
    /// `br`.
    Brotli,
    /// `gzip` (`x-gzip` is the same, RFC 9110 §8.4.1.3).
    Gzip,
    /// No coding.
    Identity,
}

impl Coding {
    /// Every coding, in the shop's order of preference on a tie of q.
    pub const ALL: [Coding; 3] = [Coding::Brotli, Coding::Gzip, Coding::Identity];

    /// The coding's name in `Accept-Encoding` (`identity` for none): what the
    /// edge asks the origin for and writes into its cache key.
    pub fn token(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
            Coding::Identity => "identity",
        }
    }

    /// The `Content-Encoding` value of a body in this coding; none for
    /// identity, as a body without a coding carries no such header.
    pub fn content_encoding(self) -> Option<&'static str> {
        match self {
            Coding::Identity => None,
            coding => Some(coding.token()),
        }
    }

    /// Whether an `Accept-Encoding` element's name is this coding (names are
    /// case-insensitive).
    fn is_named(self, name: &str) -> bool {
        name.eq_ignore_ascii_case(self.token())
            || (self == Coding::Gzip && name.eq_ignore_ascii_case("x-gzip"))
    }
}

/// The codings a request's `Accept-Encoding` allows, best first, by the rule
/// at the top of this module. Never empty. A coding named more than once
/// takes its lowest weight, so a refusal on any line stands.
pub fn acceptable_codings(headers: &HeaderMap) -> Vec<Coding> {
    if !headers.contains_key(ACCEPT_ENCODING) {
        return vec![Coding::Identity];
    }
    let mut named: [Option<u16>; 3] = [None; 3];
    let mut star: Option<u16> = None;
    for p in preferences(headers, &ACCEPT_ENCODING) {
        let slot = if p.name == "*" {
            &mut star
        } else if let Some(i) = Coding::ALL.iter().position(|c| c.is_named(p.name)) {
            &mut named[i]
        } else {
            continue;
        };
        *slot = Some(slot.map_or(p.weight, |w| w.min(p.weight)));
    }
    let mut weighted: Vec<(Coding, u16)> = Coding::ALL
        .into_iter()
        .zip(named)
        .filter_map(|(coding, weight)| Some((coding, weight.or(star)?)))
        .filter(|&(_, weight)| weight > 0)
        .collect();
    // A stable sort: equal weights keep the shop's order.
    weighted.sort_by_key(|&(_, weight)| Reverse(weight));
    let mut codings: Vec<Coding> = weighted.into_iter().map(|(coding, _)| coding).collect();
    let identity_unmentioned = named[2].is_none() && star.is_none();
    if identity_unmentioned || codings.is_empty() {
        codings.push(Coding::Identity);
    }
    codings
}

/// The coding a response to this request is sent in when every coding is
/// at hand: the first of [`acceptable_codings`].
pub fn preferred_coding(headers: &HeaderMap) -> Coding {
    acceptable_codings(headers)[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use Coding::*;

    /// The codings for a request with these `Accept-Encoding` lines.
    fn codings(lines: &[&str]) -> Vec<Coding> {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(ACCEPT_ENCODING, HeaderValue::from_str(line).unwrap());
        }
        let all = acceptable_codings(&headers);
        assert_eq!(preferred_coding(&headers), all[0]);
        all
    }

    #[test]
    fn browsers_get_brotli_then_gzip_then_none() {
        assert_eq!(
            codings(&["gzip, deflate, br, zstd"]),
            [Brotli, Gzip, Identity]
        );
        assert_eq!(codings(&["gzip, deflate"]), [Gzip, Identity]);
        assert_eq!(codings(&["deflate, zstd"]), [Identity]);
    }

    #[test]
    fn no_header_or_an_empty_one_gets_no_coding() {
        assert_eq!(codings(&[]), [Identity]);
        assert_eq!(codings(&[""]), [Identity]);
        assert_eq!(codings(&[" , "]), [Identity]);
    }

    #[test]
    fn q_zero_is_not_acceptable() {
        assert_eq!(codings(&["gzip, br;q=0"]), [Gzip, Identity]);
        assert_eq!(codings(&["br;q=0.000, gzip;q=0"]), [Identity]);
        assert_eq!(codings(&["br;q=0.001"]), [Brotli, Identity]);
    }

    #[test]
    fn a_higher_q_wins_and_a_tie_goes_to_the_smaller_body() {
        assert_eq!(codings(&["gzip;q=1, br;q=0.5"]), [Gzip, Brotli, Identity]);
        assert_eq!(codings(&["gzip;q=0.8, br;q=0.8"]), [Brotli, Gzip, Identity]);
        assert_eq!(codings(&["gzip, br;q=1.0"]), [Brotli, Gzip, Identity]);
    }

    #[test]
    fn star_stands_for_every_coding_not_named() {
        assert_eq!(codings(&["*"]), [Brotli, Gzip, Identity]);
        assert_eq!(codings(&["*;q=0.5, gzip"]), [Gzip, Brotli, Identity]);
        // Regression: both old readings let `*` undo an explicit refusal.
        assert_eq!(codings(&["br;q=0, *"]), [Gzip, Identity]);
        assert_eq!(codings(&["*, identity;q=0.1"]), [Brotli, Gzip, Identity]);
    }

    #[test]
    fn identity_is_acceptable_unless_refused() {
        assert_eq!(codings(&["identity"]), [Identity]);
        assert_eq!(codings(&["br;q=0.5, identity"]), [Identity, Brotli]);
        assert_eq!(codings(&["identity;q=0, gzip"]), [Gzip]);
        assert_eq!(codings(&["br, *;q=0"]), [Brotli]);
        assert_eq!(codings(&["br, *;q=0, identity;q=0.2"]), [Brotli, Identity]);
        // Nothing acceptable: the header is disregarded.
        assert_eq!(codings(&["identity;q=0"]), [Identity]);
        assert_eq!(codings(&["*;q=0"]), [Identity]);
    }

    #[test]
    fn names_and_the_weight_parameter_are_case_insensitive() {
        assert_eq!(codings(&["BR, GZip"]), [Brotli, Gzip, Identity]);
        assert_eq!(codings(&["x-gzip"]), [Gzip, Identity]);
        // Regression: a capital `Q=0` was read as no weight, so as acceptable.
        assert_eq!(codings(&["br;Q=0, gzip"]), [Gzip, Identity]);
        assert_eq!(codings(&["Identity;Q=0, br"]), [Brotli]);
    }

    #[test]
    fn whitespace_around_elements_and_parameters_is_optional() {
        assert_eq!(codings(&["  br  ;  q=0  ,gzip "]), [Gzip, Identity]);
        assert_eq!(codings(&["gzip;q=0.5,br"]), [Brotli, Gzip, Identity]);
    }

    #[test]
    fn several_header_lines_are_one_list() {
        // Regression: the edge read only the first line.
        assert_eq!(codings(&["gzip", "br"]), [Brotli, Gzip, Identity]);
        assert_eq!(codings(&["br;q=0", "gzip"]), [Gzip, Identity]);
        // A refusal on a later line stands against an earlier mention.
        assert_eq!(codings(&["gzip, br", "br;q=0"]), [Gzip, Identity]);
    }

    #[test]
    fn a_garbled_weight_names_nothing() {
        assert_eq!(codings(&["br;q=2, gzip"]), [Gzip, Identity]);
        assert_eq!(codings(&["br;q=NaN"]), [Identity]);
        assert_eq!(codings(&["br;q=-1, *;q=0.3"]), [Brotli, Gzip, Identity]);
    }

    #[test]
    fn tokens_and_content_encodings() {
        let tokens: Vec<_> = Coding::ALL.iter().map(|c| c.token()).collect();
        assert_eq!(tokens, ["br", "gzip", "identity"]);
        let values: Vec<_> = Coding::ALL.iter().map(|c| c.content_encoding()).collect();
        assert_eq!(values, [Some("br"), Some("gzip"), None]);
    }
}
