//! Checks of what shoppers type, shared by every call that takes it.

use serde_json::{json, Map, Value};

/// [`bd_mobile`]'s numbers as the API document states them: `01XXXXXXXXX`,
/// optionally after `88` or `+88` (the check also takes spaces and dashes).
pub const MOBILE_PATTERN: &str = r"^(\+?88)?01[3-9][0-9]{8}$";
/// [`MOBILE_PATTERN`], or nothing.
pub const MOBILE_OR_EMPTY_PATTERN: &str = r"^((\+?88)?01[3-9][0-9]{8})?$";
/// An e-mail address as [`email`] takes it (around it, spaces): something
/// before one `@`, a domain with a dot that neither starts nor ends it, no
/// spaces; at most 254 characters.
pub const EMAIL_PATTERN: &str = r"^\s*[^@\s]+@[^@\s.][^@\s]*\.[^@\s]*[^@\s.]\s*$";
/// [`EMAIL_PATTERN`], or nothing.
pub const EMAIL_OR_EMPTY_PATTERN: &str = r"^\s*([^@\s]+@[^@\s.][^@\s]*\.[^@\s]*[^@\s.])?\s*$";

/// A Bangladeshi mobile number as `01XXXXXXXXX` (11 digits, operator digit
/// 3-9), from what people type: `+880 1712-345678`, `8801712345678`,
/// `01712 345678`. `None` when it is not one.
pub fn bd_mobile(raw: &str) -> Option<String> {
    let digits: String = raw
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '(' | ')' | '.'))
        .collect();
    let digits = digits.strip_prefix('+').unwrap_or(&digits);
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let local = digits.strip_prefix("88").unwrap_or(digits);
    let ok =
        local.len() == 11 && local.starts_with("01") && matches!(local.as_bytes()[2], b'3'..=b'9');
    ok.then(|| local.to_string())
}

/// A plausible e-mail address: one `@`, something before it, a dot in the
/// domain, no spaces, at most 254 characters.
pub fn email(raw: &str) -> bool {
    let Some((local, domain)) = raw.split_once('@') else {
        return false;
    };
    raw.len() <= 254
        && !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !raw.chars().any(char::is_whitespace)
}

/// Text of `min..=max` characters after trimming; the trimmed text.
pub fn text(raw: &str, min: usize, max: usize) -> Option<String> {
    let t = raw.trim();
    let n = t.chars().count();
    (min..=max).contains(&n).then(|| t.to_string())
}

/// One line of `min..=max` characters after trimming (a name, a district):
/// [`text`] without control characters, so that a line break in a name can
/// never become a second line of a mail's header or of a log.
pub fn line(raw: &str, min: usize, max: usize) -> Option<String> {
    text(raw, min, max).filter(|t| !t.chars().any(char::is_control))
}

/// Shortest and longest password accepted.
pub const PASSWORD_LEN: (usize, usize) = (8, 128);

/// Checks a new password (and its confirmation), adding field errors.
pub fn check_new_password(
    password: &str,
    confirmation: Option<&str>,
    errors: &mut Map<String, Value>,
) {
    let n = password.chars().count();
    if n < PASSWORD_LEN.0 || n > PASSWORD_LEN.1 {
        errors.insert(
            "password".into(),
            json!([format!(
                "A password is {} to {} characters.",
                PASSWORD_LEN.0, PASSWORD_LEN.1
            )]),
        );
    } else if confirmation.is_some_and(|c| c != password) {
        errors.insert(
            "password_confirmation".into(),
            json!(["The two passwords differ."]),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_refuses_control_characters_inside_and_trims_around() {
        assert_eq!(
            line("  Rahim Uddin ", 2, 100).as_deref(),
            Some("Rahim Uddin")
        );
        assert_eq!(line("রহিম উদ্দিন", 2, 100).as_deref(), Some("রহিম উদ্দিন"));
        for bad in [
            "Rahim\r\nBcc: x@example.com",
            "Rahim\nSubject: hi",
            "Ra\u{0}him",
            "Ra\u{7f}him",
        ] {
            assert_eq!(line(bad, 2, 100), None, "{bad:?}");
        }
        assert_eq!(
            text("Rahim\nUddin", 2, 100).as_deref(),
            Some("Rahim\nUddin")
        );
    }

    #[test]
    fn the_documented_mobile_forms_are_all_taken() {
        // The forms MOBILE_PATTERN documents: bare, after 88, after +88.
        for typed in ["01712345678", "8801712345678", "+8801712345678"] {
            assert_eq!(bd_mobile(typed).as_deref(), Some("01712345678"), "{typed}");
        }
    }

    #[test]
    fn mobiles_are_normalised_to_eleven_digits() {
        for typed in [
            "01712345678",
            "+8801712345678",
            "8801712345678",
            "+880 1712-345678",
            "01712 345 678",
        ] {
            assert_eq!(bd_mobile(typed).as_deref(), Some("01712345678"), "{typed}");
        }
        for bad in [
            "0171234567",
            "017123456789",
            "01212345678",
            "02712345678",
            "01712a45678",
            "",
        ] {
            assert_eq!(bd_mobile(bad), None, "{bad}");
        }
    }

    #[test]
    fn emails_need_a_local_part_and_a_dotted_domain() {
        assert!(email("rahim@example.com"));
        assert!(!email("rahim@localhost"));
        assert!(!email("@example.com"));
        assert!(!email("ra him@example.com"));
        assert!(!email("a@b@c.com"));
    }
}
