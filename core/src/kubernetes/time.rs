//! Times as the Kubernetes API writes them (RFC 3339, `2024-05-01T12:00:00Z`), read as seconds
//! since the Unix epoch and written back: the fleet's clock (docs/rules/fleet.md §20.3) reads a
//! dump's `lastScheduledTime`, taints' `timeAdded` and tasks' `creationTimestamp` so, and the
//! ResourceBindings allot writes carry its times so.

use alloc::format;
use alloc::string::String;

/// Seconds since 1970 of an RFC 3339 time as the API server writes it
/// (`2024-05-01T12:00:00Z`, fractions and offsets read); `None` when it is not one.
pub fn seconds(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let s = text.get(from..from + len)?;
        if !s.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    if b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !matches!(b.get(10), Some(b'T' | b't' | b' '))
    {
        return None;
    }
    let (y, mo, d) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (h, mi, s) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut k = 19;
    if b.get(k) == Some(&b'.') {
        k += 1;
        while b.get(k).is_some_and(u8::is_ascii_digit) {
            k += 1;
        }
    }
    let offset = match b.get(k) {
        Some(b'Z' | b'z') if k + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if k + 6 == b.len() && b.get(k + 3) == Some(&b':') => {
            let o = num(k + 1, 2)? * 3600 + num(k + 4, 2)? * 60;
            if sign == b'+' {
                o
            } else {
                -o
            }
        }
        _ => return None,
    };
    // Days from the civil date (proleptic Gregorian).
    let y = if mo <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + h * 3600 + mi * 60 + s - offset)
}

/// Seconds since the Unix epoch as the API writes a time (`2026-11-01T00:05:00Z`): the
/// inverse of [`seconds`].
pub fn rfc3339(at: i64) -> String {
    let (days, secs) = (at.div_euclid(86_400), at.rem_euclid(86_400));
    // Days to a civil date (proleptic Gregorian), after Howard Hinnant's `civil_from_days`.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3_600,
        secs % 3_600 / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_times_read_as_seconds() {
        assert_eq!(seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(seconds("2024-05-01T12:00:00Z"), Some(1_714_564_800));
        assert_eq!(seconds("2024-05-01T12:00:00.5+02:00"), Some(1_714_557_600));
        assert_eq!(seconds("2024-13-01T12:00:00Z"), None);
        assert_eq!(seconds("yesterday"), None);
    }

    // Times written are read back to the same second.
    #[test]
    fn times_round_trip() {
        for at in [0, 1_793_491_200, 1_793_491_499, 951_782_400, 4_107_542_399] {
            assert_eq!(seconds(&rfc3339(at)), Some(at), "{}", rfc3339(at));
        }
        assert_eq!(rfc3339(1_793_491_500), "2026-11-01T00:05:00Z");
    }
}
