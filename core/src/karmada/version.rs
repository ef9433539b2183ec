//! Which Karmada release a schedule follows (docs/rules/README.md, the scope; what changed
//! between releases: docs/rules/versions.md): a release is `1.MINOR` with an optional patch
//! (`1.18`, `v1.18.2`). A release without a patch means its newest patch. Each rule that
//! changed between releases is a method here, named after the behaviour, so the code asks
//! "does this release do X" rather than comparing numbers.

use alloc::format;
use alloc::string::String;
use core::cmp::Ordering;
use core::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::division::method::Method;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::estimate::by_model::ModelMethod;
use crate::estimate::Gates;
pub use crate::karmada::gates::Gate;
use crate::selector::cluster::ZoneIn;

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

    /// Whether this is [`Version::NEWEST`] (the default, left unwritten).
    pub fn is_newest(&self) -> bool {
        *self == Self::NEWEST
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

    /// Whether this release carries a change that came with `first`: the first patch of each
    /// minor line that has it, in ascending order (`[(16, 6), (17, 3), (18, 0)]`: 1.16.6 and
    /// later 1.16 patches, 1.17.3 and later, every release from 1.18). A minor line above the
    /// last entry has it; a line below or between the entries does not.
    fn carries(self, first: &[(u8, u16)]) -> bool {
        match first.iter().find(|&&(m, _)| m == self.minor) {
            Some(&(_, p)) => self.patch.is_none_or(|q| q >= p),
            None => first.last().is_some_and(|&(m, _)| self.minor > m),
        }
    }

    fn key(self) -> (u8, u32) {
        (self.minor, self.patch.map_or(u32::MAX, u32::from))
    }
}

/// What each release does where releases differ (docs/rules/versions.md).
impl Version {
    /// The division method when the policy names none (versions.md "Division"): Webster from
    /// 1.16, the proposal's floor-and-remainder from 1.8, name order before.
    pub const fn division_method(self) -> Method {
        match self.minor {
            16.. => Method::Webster,
            8..=15 => Method::Remainder,
            _ => Method::NameOrder,
        }
    }

    /// How the general estimator reads resource models when the scenario names no method
    /// (versions.md "Resource models"): the simulator over virtual nodes from 1.18, the grade
    /// formula before.
    pub const fn model_method(self) -> ModelMethod {
        if self.minor >= 18 {
            ModelMethod::Simulator
        } else {
            ModelMethod::GradeFormula
        }
    }

    /// How a field selector's `zone In` reads a cluster's zones (versions.md "Zones", Karmada
    /// #6431, 1.18): any overlap, or (before) every zone listed.
    pub const fn zone_in(self) -> ZoneIn {
        if self.minor >= 18 {
            ZoneIn::Any
        } else {
            ZoneIn::Every
        }
    }

    /// `overflowAffinities` of an affinity term, and overflow tiers (versions.md "Overflow",
    /// Karmada #7386, #7423, 1.18); before, the field does not exist.
    pub const fn overflow_affinities(self) -> bool {
        self.minor >= 18
    }

    /// A reschedule trigger restarts the ordered affinity terms from the first (versions.md
    /// "Affinity terms", Karmada #5425, 1.19); before, scheduling starts from the observed
    /// term.
    pub const fn restarts_terms_on_reschedule(self) -> bool {
        self.minor >= 19
    }

    /// A dynamic scale-down divides among the previous clusters that are still candidates
    /// (versions.md "Scale-down", Karmada #7110, 1.17); before, among every previous cluster,
    /// candidate or not.
    pub const fn scales_down_among_candidates(self) -> bool {
        self.minor >= 17
    }

    /// With MultiplePodTemplatesScheduling, the selection asks for one complete set rather than
    /// the replicas (versions.md "Multiple pod templates", Karmada #7554: 1.16.6, 1.17.3, 1.18).
    pub fn selects_one_set(self) -> bool {
        self.carries(&[(16, 6), (17, 3), (18, 0)])
    }

    /// The graceful eviction controller times each task by its own `gracePeriodSeconds` or
    /// the flag's timeout (docs/rules/fleet.md §33; Karmada 1.16.3, 1.17); before, a task's
    /// grace period stayed the timeout of the tasks after it.
    pub fn resets_task_timeout(self) -> bool {
        self.carries(&[(16, 3), (17, 0)])
    }

    /// Multi-template scheduling applies to a workload with one component too (versions.md
    /// "Multiple pod templates", Karmada #7287, 1.18); before, to two or more.
    pub const fn min_template_components(self) -> usize {
        if self.minor >= 18 {
            1
        } else {
            2
        }
    }

    /// Whether this release has `gate` (docs/rules/versions.md "Feature gates").
    pub fn has_gate(self, gate: Gate) -> bool {
        gate.in_release(self)
    }
}

/// The feature gates a scenario sets (`policy.gates`); an unset gate takes the release's
/// default (docs/rules/versions.md "Feature gates").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct GateSettings {
    /// SchedulingOvercommitProtection: deduct assumed workloads (off by default; from 1.18).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduling_overcommit_protection: Option<bool>,
    /// CustomizedClusterResourceModeling: use resource models when a summary has grade
    /// counts (on by default; from 1.4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customized_cluster_resource_modeling: Option<bool>,
    /// MultiplePodTemplatesScheduling: a multi-component workload spread by one cluster is
    /// selected for one complete set (off by default; from 1.15).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multiple_pod_templates_scheduling: Option<bool>,
}

impl GateSettings {
    /// The gates of `set` that change one binding's schedule (the estimators' gates), as
    /// Karmada's `--feature-gates` text or map sets them; the others are the fleet's.
    pub fn from_feature_gates(set: &crate::karmada::gates::FeatureGates) -> GateSettings {
        GateSettings {
            scheduling_overcommit_protection: set.get(Gate::SchedulingOvercommitProtection),
            customized_cluster_resource_modeling: set.get(Gate::CustomizedClusterResourceModeling),
            multiple_pod_templates_scheduling: set.get(Gate::MultiplePodTemplatesScheduling),
        }
    }

    /// Every gate set as in `gates`.
    pub fn all(gates: Gates) -> GateSettings {
        GateSettings {
            scheduling_overcommit_protection: Some(gates.scheduling_overcommit_protection),
            customized_cluster_resource_modeling: Some(gates.customized_cluster_resource_modeling),
            multiple_pod_templates_scheduling: Some(gates.multiple_pod_templates_scheduling),
        }
    }

    /// The gates in effect in `v`: each set one, else the release's default. Turning on a gate
    /// the release does not have is an error at that gate's field of these settings (Karmada
    /// refuses an unknown gate at start); the reader places it where the settings were read
    /// (a scenario's `policy.gates`).
    pub fn resolve(&self, v: Version) -> Result<Gates> {
        let one = |gate: Gate, set: Option<bool>, field: &'static str| -> Result<bool> {
            match set {
                Some(true) if !gate.in_release(v) => Err(Error::Input {
                    field: Path::fields(field),
                    code: ErrorCode::InvalidInput,
                    reason: format!("Karmada {v} has no feature gate {}", gate.name()),
                }),
                Some(on) => Ok(on),
                None => Ok(gate.default_in(v)),
            }
        };
        Ok(Gates {
            scheduling_overcommit_protection: one(
                Gate::SchedulingOvercommitProtection,
                self.scheduling_overcommit_protection,
                "schedulingOvercommitProtection",
            )?,
            customized_cluster_resource_modeling: one(
                Gate::CustomizedClusterResourceModeling,
                self.customized_cluster_resource_modeling,
                "customizedClusterResourceModeling",
            )?,
            multiple_pod_templates_scheduling: one(
                Gate::MultiplePodTemplatesScheduling,
                self.multiple_pod_templates_scheduling,
                "multiplePodTemplatesScheduling",
            )?,
        })
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
    fn a_change_from_patches_of_several_lines() {
        let v = |t| Version::parse(t).unwrap();
        for (t, has) in [
            ("1.15", false),
            ("1.16.5", false),
            ("1.16.6", true),
            ("1.16", true),
            ("1.17.2", false),
            ("1.17.3", true),
            ("1.18.0", true),
            ("1.19", true),
        ] {
            assert_eq!(v(t).selects_one_set(), has, "{t}");
        }
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
