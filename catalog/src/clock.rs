//! The shop's clock. Instants are stored as unix seconds (UTC); the shop lives
//! in Asia/Dhaka, UTC+6 all year (no daylight saving), and shows times there.

use chrono::{DateTime, FixedOffset, TimeZone, Utc};

/// Seconds east of UTC of Asia/Dhaka.
pub const DHAKA_OFFSET_SECS: i32 = 6 * 3600;

/// The Asia/Dhaka offset.
pub fn dhaka() -> FixedOffset {
    FixedOffset::east_opt(DHAKA_OFFSET_SECS).expect("+06:00 is a valid offset")
}

tokio::task_local! {
    /// The instant [`now_unix`] answers inside [`as_of`].
    static AS_OF: i64;
}

/// Now, as unix seconds (inside [`as_of`], its instant).
pub fn now_unix() -> i64 {
    AS_OF
        .try_with(|t| *t)
        .unwrap_or_else(|_| Utc::now().timestamp())
}

/// Runs `f` with [`now_unix`] answering `t` in this task: the origin renders
/// its answers as they will be at a coming flash-sale boundary, to stage them
/// at the edges before it (issue 17).
pub async fn as_of<F: std::future::Future>(t: i64, f: F) -> F::Output {
    AS_OF.scope(t, f).await
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

    #[tokio::test]
    async fn as_of_sets_now_for_its_task_only() {
        assert_eq!(as_of(1_000, async { now_unix() }).await, 1_000);
        assert!(now_unix() > 1_700_000_000);
    }

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
