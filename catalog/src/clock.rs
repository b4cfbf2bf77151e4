//! The shop's clock. Instants are stored as unix seconds (UTC); the shop lives
//! in Asia/Dhaka, UTC+6 all year (no daylight saving), and shows times there.

use chrono::{DateTime, FixedOffset, TimeZone, Utc};

/// Seconds east of UTC of Asia/Dhaka.
pub const DHAKA_OFFSET_SECS: i32 = 6 * 3600;

/// The Asia/Dhaka offset.
pub fn dhaka() -> FixedOffset {
    FixedOffset::east_opt(DHAKA_OFFSET_SECS).expect("+06:00 is a valid offset")
}

/// Now, as unix seconds.
pub fn now_unix() -> i64 {
    Utc::now().timestamp()
}

/// A unix instant in Dhaka time (falls back to the epoch for an out-of-range value).
pub fn in_dhaka(unix: i64) -> DateTime<FixedOffset> {
    dhaka().timestamp_opt(unix, 0).single().unwrap_or_else(|| {
        dhaka()
            .timestamp_opt(0, 0)
            .single()
            .expect("the epoch is representable")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dhaka_is_six_hours_ahead_even_after_one_pm() {
        // 2026-11-22 07:30 UTC is 13:30 in Dhaka: a 24-hour clock, not 01:30.
        let t = Utc
            .with_ymd_and_hms(2026, 11, 22, 7, 30, 0)
            .unwrap()
            .timestamp();
        assert_eq!(
            in_dhaka(t).format("%Y-%m-%d %H:%M").to_string(),
            "2026-11-22 13:30"
        );
    }
}
