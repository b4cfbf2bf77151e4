//! HTTP-date (RFC 9110 §5.6.7): parsing all three formats a recipient must accept
//! (IMF-fixdate, the obsolete RFC 850 and asctime forms) and writing IMF-fixdate.
//!
//! `Date` feeds the current age of a response (RFC 9111 §4.2.3) and `Expires` its freshness
//! (§5.3); both are read once per fill or revalidation, never on a fresh hit.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];

/// Parse an HTTP-date in any of its three formats; `None` when it is not one (for
/// `Expires` that means "already expired", §5.3). Dates before 1970 are `None` as well.
pub fn parse(value: &[u8]) -> Option<SystemTime> {
    let text = std::str::from_utf8(value).ok()?.trim();
    let (day, month, year, time) = match text.split_once(',') {
        Some((_weekday, rest)) => {
            let parts: Vec<&str> = rest.split_ascii_whitespace().collect();
            match parts.as_slice() {
                // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
                [day, month, year, time, "GMT"] if year.len() == 4 => {
                    (*day, *month, year.parse().ok()?, *time)
                }
                // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT"
                [date, time, "GMT"] => {
                    let mut fields = date.split('-');
                    let (day, month, year) = (fields.next()?, fields.next()?, fields.next()?);
                    if fields.next().is_some() || year.len() != 2 {
                        return None;
                    }
                    (day, month, two_digit_year(year.parse().ok()?), *time)
                }
                _ => return None,
            }
        }
        None => {
            // asctime: "Sun Nov  6 08:49:37 1994"
            let parts: Vec<&str> = text.split_ascii_whitespace().collect();
            match parts.as_slice() {
                [_weekday, month, day, time, year] if year.len() == 4 => {
                    (*day, *month, year.parse().ok()?, *time)
                }
                _ => return None,
            }
        }
    };
    let day: u32 = digits(day, 1, 2)?;
    let month = MONTHS.iter().position(|m| *m == month)? as u32 + 1;
    let mut clock = time.split(':');
    let hour: u64 = digits(clock.next()?, 2, 2)?;
    let minute: u64 = digits(clock.next()?, 2, 2)?;
    let second: u64 = digits(clock.next()?, 2, 2)?;
    if clock.next().is_some()
        || !(1..=days_in_month(year, month)).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let days = u64::try_from(days_from_civil(year, month, day)).ok()?;
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second;
    Some(UNIX_EPOCH + Duration::from_secs(secs))
}

/// Write `time` as an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT").
pub fn format(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let (year, month, day) = civil_from_days(days);
    let in_day = secs % 86_400;
    format!(
        "{}, {day:02} {} {year:04} {:02}:{:02}:{:02} GMT",
        WEEKDAYS[days.rem_euclid(7) as usize],
        MONTHS[month as usize - 1],
        in_day / 3600,
        in_day / 60 % 60,
        in_day % 60
    )
}

/// RFC 850's two-digit year: the century that puts it at most 50 years ahead of now
/// (RFC 9110 §5.6.7), taken as 1970–2069 (this cache does not run past 2069).
fn two_digit_year(yy: i64) -> i64 {
    if yy < 70 {
        2000 + yy
    } else {
        1900 + yy
    }
}

/// An ASCII decimal of `min..=max` digits.
fn digits<T: std::str::FromStr>(text: &str, min: usize, max: usize) -> Option<T> {
    ((min..=max).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (March-based years, so the leap
/// day is the last day of its year).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (i64::from(month) + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: u64 = 784_111_777; // Sun, 06 Nov 1994 08:49:37 GMT

    #[test]
    fn the_three_formats() {
        let at = UNIX_EPOCH + Duration::from_secs(SAMPLE);
        assert_eq!(parse(b"Sun, 06 Nov 1994 08:49:37 GMT"), Some(at));
        assert_eq!(parse(b"Sunday, 06-Nov-94 08:49:37 GMT"), Some(at));
        assert_eq!(parse(b"Sun Nov  6 08:49:37 1994"), Some(at));
        assert_eq!(format(at), "Sun, 06 Nov 1994 08:49:37 GMT");
    }

    #[test]
    fn invalid_dates() {
        for bad in [
            &b"0"[..],
            b"",
            b"-1",
            b"Sun, 06 Nov 1994 08:49:37 UTC",
            b"Sun, 31 Nov 1994 08:49:37 GMT",
            b"Sun, 06 Nov 1994 24:00:00 GMT",
            b"Sun, 06 Nov 1994 8:49:37 GMT",
            b"Thu, 01 Jan 1969 00:00:00 GMT",
        ] {
            assert_eq!(parse(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn round_trips_across_leap_years() {
        for secs in [0, 951_782_400, 1_709_164_800, 4_102_444_799, 1_767_225_600] {
            let at = UNIX_EPOCH + Duration::from_secs(secs);
            assert_eq!(parse(format(at).as_bytes()), Some(at), "{}", format(at));
        }
        assert_eq!(format(UNIX_EPOCH), "Thu, 01 Jan 1970 00:00:00 GMT");
    }
}
