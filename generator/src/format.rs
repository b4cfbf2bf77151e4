//! Small formatting rules every page shares: money in taka, responsive image
//! widths (SPEC.md §9) and image URLs, JSON for island props and JSON-LD.

/// The widths a page offers in a `srcset`, before rounding: phones first.
pub const SRCSET_WIDTHS: [u32; 5] = [200, 400, 600, 800, 1200];

/// Whole taka as shoppers read it (৳1,82,500): the shop's one rule, shared
/// with the origin's mails and messages.
pub use catalog::pricing::taka;

/// Rounds a requested image width up by SPEC.md §9's rule: to a multiple of
/// 25 up to 50 px, then to a multiple of 100. Zero stays 25 (the smallest
/// variant). The origin's image variants use the same rule, so every width a
/// page asks for is one the origin makes and caches.
pub fn responsive_width(width: u32) -> u32 {
    match width {
        0..=25 => 25,
        26..=50 => 50,
        w => w.div_ceil(100) * 100,
    }
}

/// The URL of a stored image (`storage/uploads/...`, relative to the site
/// root) at a width, rounded by [`responsive_width`].
pub fn image_url(path: &str, width: u32) -> String {
    format!(
        "/{}?w={}",
        path.trim_start_matches('/'),
        responsive_width(width)
    )
}

/// A `srcset` for a stored image: one candidate per width of `widths` (rounded,
/// deduplicated) that does not exceed the image's own width (`0` = unknown:
/// every width).
pub fn srcset(path: &str, widths: &[u32], intrinsic: u32) -> String {
    let mut chosen: Vec<u32> = widths
        .iter()
        .map(|w| responsive_width(*w))
        .filter(|w| intrinsic == 0 || *w <= responsive_width(intrinsic))
        .collect();
    chosen.dedup();
    if chosen.is_empty() {
        chosen.push(responsive_width(intrinsic));
    }
    chosen
        .iter()
        .map(|w| format!("{} {w}w", image_url(path, *w)))
        .collect::<Vec<_>>()
        .join(",")
}

/// Serialises `value` as JSON safe to place inside a `<script>` element:
/// `<`, `>` and `&` become `\u003c`, `\u003e`, `\u0026`, so no text in the
/// data can close the element (web/ISLANDS.md).
pub fn script_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // Only a map with keys that are not strings (or a failing custom
    // `Serialize`) can fail; no props type or JSON-LD value holds one.
    let json = serde_json::to_string(value).expect("JSON for a script element");
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for an HTML attribute value the way the listing's filter
/// links have always been written (`&amp;`, `&lt;`, `&gt;`, `&quot;`,
/// `&#39;`; askama writes `&#38;` and the like). Everything else is escaped
/// by the templates.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Plain text of a staff-written HTML fragment, whitespace collapsed and cut
/// to about `max` characters at a word boundary: for meta descriptions.
pub fn plain_text(html: &str, max: usize) -> String {
    let mut text = String::with_capacity(html.len().min(max * 2));
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                text.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'");
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        if out.chars().count() + w.chars().count() + 1 > max {
            out.push('…');
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_round_up_to_25_and_50_when_small_then_to_hundreds() {
        assert_eq!(responsive_width(0), 25);
        assert_eq!(responsive_width(1), 25);
        assert_eq!(responsive_width(25), 25);
        assert_eq!(responsive_width(26), 50);
        assert_eq!(responsive_width(50), 50);
        assert_eq!(responsive_width(51), 100);
        assert_eq!(responsive_width(100), 100);
        assert_eq!(responsive_width(101), 200);
        assert_eq!(responsive_width(375), 400);
        assert_eq!(responsive_width(1200), 1200);
        assert_eq!(responsive_width(1201), 1300);
    }

    #[test]
    fn srcsets_use_rounded_widths_and_stop_at_the_image_width() {
        assert_eq!(
            srcset("storage/a.webp", &[190, 400, 800], 0),
            "/storage/a.webp?w=200 200w,/storage/a.webp?w=400 400w,/storage/a.webp?w=800 800w"
        );
        assert_eq!(
            srcset("storage/a.webp", &[200, 400, 800], 450),
            "/storage/a.webp?w=200 200w,/storage/a.webp?w=400 400w"
        );
        assert_eq!(srcset("a.webp", &[400], 120), "/a.webp?w=200 200w");
    }

    #[test]
    fn script_json_cannot_close_its_element() {
        let v = serde_json::json!({"t": "</script><b>&"});
        let s = script_json(&v);
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn plain_text_strips_tags_and_cuts_at_a_word() {
        assert_eq!(
            plain_text("<p>Solid <b>teak</b> bed</p>", 100),
            "Solid teak bed"
        );
        assert_eq!(plain_text("one two three", 8), "one two…");
    }
}
