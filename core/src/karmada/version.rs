//! Which Karmada release a schedule follows (docs/rules/README.md, the scope): a
//! release is `1.MINOR` with an optional patch (`1.18`, `v1.18.2`). A release without a patch
//! means its newest patch. Rules that changed between releases ask [`Version::at_least`].

use alloc::format;
use alloc::string::String;
use core::cmp::Ordering;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A Karmada release, `1.MINOR[.PATCH]`, no newer than [`Version::NEWEST`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    minor: u8,
    /// Absent: the newest patch of the minor release.
    patch: Option<u16>,
}

impl Version {
    /// The newest release whose rules allot follows (the default).
    pub const NEWEST: Version = Version {
        minor: 19,
        patch: None,
    };

    /// `1.MINOR` at its newest patch; `None` above [`Version::NEWEST`].
    pub const fn minor_release(minor: u8) -> Option<Version> {
        if minor > Self::NEWEST.minor {
            None
        } else {
            Some(Version { minor, patch: None })
        }
    }

    /// Reads `1.19`, `v1.19`, `1.18.2`, `v1.18.2`.
    pub fn parse(text: &str) -> Result<Version, String> {
        let bad = || {
            format!(
                "expected a Karmada release such as \"{}\" or \"v1.18.2\", got \"{text}\"",
                Self::NEWEST
            )
        };
        let t = text.strip_prefix('v').unwrap_or(text);
        let mut parts = t.split('.');
        let (Some("1"), Some(minor)) = (parts.next(), parts.next()) else {
            return Err(bad());
        };
        let minor: u8 = digits(minor).ok_or_else(bad)?;
        let patch: Option<u16> = match parts.next() {
            None => None,
            Some(p) => Some(digits(p).ok_or_else(bad)?),
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        if minor > Self::NEWEST.minor {
            return Err(format!(
                "allot follows Karmada up to {}; got \"{text}\"",
                Self::NEWEST
            ));
        }
        Ok(Version { minor, patch })
    }

    pub const fn minor(self) -> u8 {
        self.minor
    }

    pub const fn patch(self) -> Option<u16> {
        self.patch
    }

    /// Whether this release is `1.minor.patch` or later.
    pub fn at_least(self, minor: u8, patch: u16) -> bool {
        self >= Version {
            minor,
            patch: Some(patch),
        }
    }

    fn key(self) -> (u8, u32) {
        (self.minor, self.patch.map_or(u32::MAX, u32::from))
    }
}

/// Decimal digits only (no sign, no spaces), as release numbers are written.
fn digits<T: core::str::FromStr>(s: &str) -> Option<T> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl Default for Version {
    fn default() -> Self {
        Self::NEWEST
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.patch {
            Some(p) => write!(f, "1.{}.{p}", self.minor),
            None => write!(f, "1.{}", self.minor),
        }
    }
}

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <alloc::borrow::Cow<'de, str>>::deserialize(d)?;
        Version::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Version {
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        "KarmadaVersion".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^v?1\\.[0-9]+(\\.[0-9]+)?$",
            "description": "A Karmada release: 1.MINOR or 1.MINOR.PATCH (a leading v is accepted)."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Version;

    #[test]
    fn releases_read_and_write_back() {
        for (text, shown) in [
            ("1.19", "1.19"),
            ("v1.19", "1.19"),
            ("v1.18.2", "1.18.2"),
            ("1.7", "1.7"),
        ] {
            let v = Version::parse(text).unwrap();
            assert_eq!(alloc::format!("{v}"), shown);
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(serde_json::from_str::<Version>(&json).unwrap(), v);
        }
        for bad in [
            "", "1", "2.0", "1.x", "1.20", "1.18.2.1", "1.-1", "1.+2", " 1.18",
        ] {
            assert!(Version::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Version::default(), Version::NEWEST);
    }

    #[test]
    fn a_release_without_patch_is_its_newest_patch() {
        let v = |t| Version::parse(t).unwrap();
        assert!(v("1.18") > v("1.18.2"));
        assert!(v("1.18.2") > v("1.18.1"));
        assert!(v("1.19.0") > v("1.18"));
        assert!(v("1.18").at_least(18, 0) && v("1.18").at_least(18, 2));
        assert!(!v("1.17").at_least(18, 0));
        assert!(v("1.17.5").at_least(17, 5) && !v("1.17.4").at_least(17, 5));
    }
}
