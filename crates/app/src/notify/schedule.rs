//! When things are due, in the owner's time zone (pure: the caller passes `now`): a digest by
//! the owner's frequency, digest hour and quiet hours (reference §8.1), a saved job's reminder
//! (save + 3 days at the digest hour, §7.4), and a failed delivery's next attempt.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use freehire_domain::DigestFrequency;
use freehire_store::DigestSettings;

/// Days after the save a saved job's reminder fires (reference §15.5).
pub const REMINDER_DELAY_DAYS: i64 = 3;
/// The first retry's delay; each further attempt doubles it.
pub const RETRY_BASE: Duration = Duration::minutes(1);
/// The longest delay between two attempts.
pub const RETRY_CAP: Duration = Duration::hours(6);

/// The owner's zone (UTC when unset or unknown).
pub fn zone(settings: &DigestSettings) -> Tz {
    settings.timezone.as_deref().and_then(|z| z.parse().ok()).unwrap_or(Tz::UTC)
}

/// `date` at `hour`:00 local time in `tz`, as an instant (a time a DST gap skips moves on an
/// hour; an ambiguous one is its first occurrence).
fn local_at(tz: Tz, date: NaiveDate, hour: u32) -> DateTime<Utc> {
    let naive = date.and_hms_opt(hour.min(23), 0, 0).unwrap_or_default();
    tz.from_local_datetime(&naive)
        .earliest()
        .or_else(|| tz.from_local_datetime(&(naive + Duration::hours(1))).earliest())
        .map_or_else(|| naive.and_utc(), |t| t.with_timezone(&Utc))
}

/// Whether local `hour` is inside quiet hours `[start, end)` (wrapping past midnight when
/// `start > end`; `start == end` is none).
pub fn in_quiet_hours(hour: u32, quiet: Option<(u32, u32)>) -> bool {
    match quiet {
        Some((start, end)) if start < end => (start..end).contains(&hour),
        Some((start, end)) if start > end => hour >= start || hour < end,
        _ => false,
    }
}

/// The latest digest slot at or before `now`: today's (or, before it, yesterday's) digest
/// hour for daily; the latest Monday's for weekly; `now` itself for instant.
pub fn latest_slot(settings: &DigestSettings, now: DateTime<Utc>) -> DateTime<Utc> {
    let tz = zone(settings);
    let today = now.with_timezone(&tz).date_naive();
    let hour = settings.digest_hour;
    match settings.frequency {
        DigestFrequency::Instant => now,
        DigestFrequency::Daily => {
            let slot = local_at(tz, today, hour);
            if slot <= now { slot } else { local_at(tz, today - Duration::days(1), hour) }
        }
        DigestFrequency::Weekly => {
            let back = i64::from(today.weekday().num_days_from_monday());
            let monday = today - Duration::days(back);
            let slot = local_at(tz, monday, hour);
            if slot <= now { slot } else { local_at(tz, monday - Duration::days(7), hour) }
        }
    }
}

/// Whether a subscription whose last digest went out at `last_sent` is due a digest at `now`:
/// never when notifications are off or inside quiet hours; instant at once; daily once the
/// digest hour passed with no digest since; weekly the same from Monday's digest hour.
pub fn digest_due(
    settings: &DigestSettings,
    last_sent: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> bool {
    if !settings.enabled {
        return false;
    }
    let local_hour = now.with_timezone(&zone(settings)).hour();
    if in_quiet_hours(local_hour, settings.quiet_hours) {
        return false;
    }
    match settings.frequency {
        DigestFrequency::Instant => true,
        DigestFrequency::Daily | DigestFrequency::Weekly => {
            let slot = latest_slot(settings, now);
            last_sent.is_none_or(|sent| sent < slot)
        }
    }
}

/// When a job saved at `saved_at` is reminded of: the local date three days later, at the
/// owner's digest hour (reference §7.4: "save + 3 days, rounded to the digest hour").
pub fn reminder_fire_at(settings: &DigestSettings, saved_at: DateTime<Utc>) -> DateTime<Utc> {
    let tz = zone(settings);
    let day = (saved_at + Duration::days(REMINDER_DELAY_DAYS)).with_timezone(&tz).date_naive();
    local_at(tz, day, settings.digest_hour)
}

/// The delay before the next attempt after `attempts` failed ones: 1 min · 2^(attempts − 1),
/// at most 6 h.
pub fn retry_delay(attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(20);
    let delay = RETRY_BASE * (1_i32 << doublings);
    delay.min(RETRY_CAP)
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(d: u32, h: u32, m: u32) -> DateTime<Utc> {
        // November 2026: the 2nd is a Monday.
        Utc.with_ymd_and_hms(2026, 11, d, h, m, 0).unwrap()
    }

    fn daily() -> DigestSettings {
        DigestSettings::default()
    }

    #[test]
    fn daily_is_due_once_the_hour_passed_and_not_again_that_day() {
        let s = daily();
        assert!(!digest_due(&s, Some(at(3, 9, 5)), at(4, 8, 59)));
        assert!(digest_due(&s, Some(at(3, 9, 5)), at(4, 9, 0)));
        assert!(!digest_due(&s, Some(at(4, 9, 1)), at(4, 23, 0)));
        assert!(digest_due(&s, None, at(4, 1, 0)), "never sent: yesterday's slot passed");
    }

    #[test]
    fn the_digest_hour_is_local() {
        let s = DigestSettings { timezone: Some("Europe/Berlin".into()), ..daily() };
        // 09:00 in Berlin is 08:00 UTC in November.
        assert!(digest_due(&s, Some(at(3, 8, 5)), at(4, 8, 0)));
        assert!(!digest_due(&s, Some(at(3, 8, 5)), at(4, 7, 59)));
    }

    #[test]
    fn weekly_goes_out_on_mondays() {
        let s = DigestSettings { frequency: DigestFrequency::Weekly, ..daily() };
        assert!(digest_due(&s, Some(at(1, 9, 0)), at(2, 9, 0)));
        assert!(!digest_due(&s, Some(at(2, 9, 1)), at(8, 23, 0)));
        assert!(digest_due(&s, Some(at(2, 9, 1)), at(9, 10, 0)));
    }

    #[test]
    fn instant_is_always_due_but_never_in_quiet_hours_nor_when_off() {
        let s = DigestSettings { frequency: DigestFrequency::Instant, ..daily() };
        assert!(digest_due(&s, Some(at(4, 9, 0)), at(4, 9, 1)));
        let quiet = DigestSettings { quiet_hours: Some((22, 7)), ..s.clone() };
        assert!(!digest_due(&quiet, None, at(4, 23, 0)));
        assert!(!digest_due(&quiet, None, at(4, 6, 59)));
        assert!(digest_due(&quiet, None, at(4, 7, 0)));
        let off = DigestSettings { enabled: false, ..s };
        assert!(!digest_due(&off, None, at(4, 12, 0)));
    }

    // scenario: A saved job is reminded three days later at the digest hour
    #[test]
    fn a_reminder_is_save_plus_three_days_at_the_digest_hour() {
        assert_eq!(reminder_fire_at(&daily(), at(2, 15, 30)), at(5, 9, 0));
        let berlin = DigestSettings { timezone: Some("Europe/Berlin".into()), ..daily() };
        assert_eq!(reminder_fire_at(&berlin, at(2, 23, 30)), at(6, 8, 0));
    }

    #[test]
    fn retries_back_off_doubling_to_six_hours() {
        assert_eq!(retry_delay(1), Duration::minutes(1));
        assert_eq!(retry_delay(2), Duration::minutes(2));
        assert_eq!(retry_delay(5), Duration::minutes(16));
        assert_eq!(retry_delay(12), Duration::hours(6));
        assert_eq!(retry_delay(u32::MAX), Duration::hours(6));
    }
}
