//! Karmada's feature gates, per release (docs/rules/versions.md "Feature gates"): every gate
//! of Karmada's `pkg/features/features.go`, the first release that has it and its default in
//! each release, and what it changes in what allot computes. A setting names gates as Karmada's
//! `--feature-gates` does (`Failover=true,GracefulEviction=false`), or as a map
//! (`{"Failover": true}`); a gate left unset takes the release's default, and turning on a gate
//! the release does not have is an error at that gate.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use core::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, ErrorCode, Path, Result};
use crate::karmada::version::Version;

/// A Karmada feature gate (`pkg/features/features.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gate {
    Failover,
    GracefulEviction,
    PropagateDeps,
    CustomizedClusterResourceModeling,
    PolicyPreemption,
    MultiClusterService,
    ResourceQuotaEstimate,
    StatefulFailoverInjection,
    PriorityBasedScheduling,
    FederatedQuotaEnforcement,
    LoggingAlphaOptions,
    LoggingBetaOptions,
    ContextualLogging,
    MultiplePodTemplatesScheduling,
    ControllerPriorityQueue,
    WorkloadAffinity,
    SchedulingOvercommitProtection,
}

/// One gate's row of the table.
struct Row {
    gate: Gate,
    name: &'static str,
    /// The first minor release that has the gate (0: every release allot follows; the table
    /// is read from 1.16 to 1.19, and an earlier release is taken to have 1.16's gates but
    /// those known to come later).
    since: u8,
    /// The first minor release where it is on by default (`None`: off in every release).
    on_from: Option<u8>,
}

const fn row(gate: Gate, name: &'static str, since: u8, on_from: Option<u8>) -> Row {
    Row {
        gate,
        name,
        since,
        on_from,
    }
}

/// What each gate changes in a fleet's answer (docs/rules/versions.md "Feature gates"); the
/// gates not listed change nothing allot models.
const EFFECTS: [(Gate, &str); 6] = [
    (
        Gate::Failover,
        "with --enable-no-execute-taint-eviction, the taint manager evicts the bindings that do not tolerate a NoExecute taint",
    ),
    (
        Gate::CustomizedClusterResourceModeling,
        "the general estimator reads clusters' resource models",
    ),
    (
        Gate::PriorityBasedScheduling,
        "the scheduler's queue orders bindings by their priority",
    ),
    (
        Gate::MultiplePodTemplatesScheduling,
        "a multi-component workload is selected for one complete set",
    ),
    (
        Gate::WorkloadAffinity,
        "policies' workload affinity groups filter clusters",
    ),
    (
        Gate::SchedulingOvercommitProtection,
        "scheduled but not yet running workloads are deducted from a cluster's free resources",
    ),
];

/// The table, in `features.go`'s order. Read from `defaultFeatureGates` of v1.16.x, v1.17.x,
/// v1.18.x and v1.19.0-rc.0 (no patch release changes it).
const TABLE: [Row; 17] = [
    row(Gate::Failover, "Failover", 0, None),
    row(Gate::GracefulEviction, "GracefulEviction", 0, Some(0)),
    row(Gate::PropagateDeps, "PropagateDeps", 0, Some(0)),
    row(
        Gate::CustomizedClusterResourceModeling,
        "CustomizedClusterResourceModeling",
        4,
        Some(0),
    ),
    row(Gate::PolicyPreemption, "PolicyPreemption", 0, None),
    row(Gate::MultiClusterService, "MultiClusterService", 0, None),
    row(
        Gate::ResourceQuotaEstimate,
        "ResourceQuotaEstimate",
        0,
        None,
    ),
    row(
        Gate::StatefulFailoverInjection,
        "StatefulFailoverInjection",
        0,
        None,
    ),
    row(
        Gate::PriorityBasedScheduling,
        "PriorityBasedScheduling",
        0,
        None,
    ),
    row(
        Gate::FederatedQuotaEnforcement,
        "FederatedQuotaEnforcement",
        0,
        None,
    ),
    row(Gate::LoggingAlphaOptions, "LoggingAlphaOptions", 0, None),
    row(Gate::LoggingBetaOptions, "LoggingBetaOptions", 0, Some(0)),
    row(Gate::ContextualLogging, "ContextualLogging", 0, Some(0)),
    row(
        Gate::MultiplePodTemplatesScheduling,
        "MultiplePodTemplatesScheduling",
        15,
        None,
    ),
    row(
        Gate::ControllerPriorityQueue,
        "ControllerPriorityQueue",
        0,
        Some(17),
    ),
    row(Gate::WorkloadAffinity, "WorkloadAffinity", 17, None),
    row(
        Gate::SchedulingOvercommitProtection,
        "SchedulingOvercommitProtection",
        18,
        None,
    ),
];

impl Gate {
    /// Every gate, in the table's order.
    pub fn all() -> impl Iterator<Item = Gate> {
        TABLE.iter().map(|r| r.gate)
    }

    fn row(self) -> &'static Row {
        // The table lists every variant once, in declaration order.
        &TABLE[self as usize]
    }

    /// Karmada's name of the gate.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The gate named `name` (as Karmada spells it, case included).
    pub fn named(name: &str) -> Option<Gate> {
        TABLE.iter().find(|r| r.name == name).map(|r| r.gate)
    }

    /// What the gate changes in a fleet's answer; `None`: nothing allot models.
    pub fn effect(self) -> Option<&'static str> {
        EFFECTS.iter().find(|(g, _)| *g == self).map(|(_, e)| *e)
    }

    /// Whether release `v` has the gate.
    pub fn in_release(self, v: Version) -> bool {
        v.minor() >= self.row().since
    }

    /// Its default in `v`; a release without the gate runs as if it were off.
    pub fn default_in(self, v: Version) -> bool {
        self.in_release(v) && self.row().on_from.is_some_and(|m| v.minor() >= m)
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The gates a setting turns on or off; the others keep the release's default.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FeatureGates(BTreeMap<Gate, bool>);

impl FeatureGates {
    /// Reads Karmada's `--feature-gates` text: `NAME=BOOL` pairs separated by commas, spaces
    /// around each trimmed, the value as Go's `strconv.ParseBool` reads it; empty: no gate.
    pub fn parse(text: &str) -> core::result::Result<FeatureGates, String> {
        let mut gates = FeatureGates::default();
        for pair in text.split(',') {
            let pair = pair.trim();
            if pair.is_empty() {
                continue;
            }
            let Some((name, value)) = pair.split_once('=') else {
                return Err(format!("missing bool value for {pair}"));
            };
            gates.set_text(name.trim(), value.trim())?;
        }
        Ok(gates)
    }

    fn set_text(&mut self, name: &str, value: &str) -> core::result::Result<(), String> {
        let on = parse_bool(value)
            .ok_or_else(|| format!("invalid value of {name}={value}, expected true or false"))?;
        self.set_named(name, on)
    }

    fn set_named(&mut self, name: &str, on: bool) -> core::result::Result<(), String> {
        let gate = Gate::named(name).ok_or_else(|| {
            format!(
                "unrecognized feature gate: {name} (Karmada's gates: {})",
                Gate::all()
                    .map(Gate::name)
                    .collect::<alloc::vec::Vec<_>>()
                    .join(", ")
            )
        })?;
        self.0.insert(gate, on);
        Ok(())
    }

    /// Set `gate` to `on`.
    pub fn set(&mut self, gate: Gate, on: bool) {
        self.0.insert(gate, on);
    }

    /// The value set for `gate`, if any.
    pub fn get(&self, gate: Gate) -> Option<bool> {
        self.0.get(&gate).copied()
    }

    /// `gate` in `v`: as set, else the release's default.
    pub fn enabled(&self, gate: Gate, v: Version) -> bool {
        self.get(gate).unwrap_or_else(|| gate.default_in(v))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every gate set, in the table's order.
    pub fn iter(&self) -> impl Iterator<Item = (Gate, bool)> + '_ {
        self.0.iter().map(|(g, on)| (*g, *on))
    }

    /// Turning on a gate release `v` does not have is an error at `at.<Gate>` (Karmada refuses
    /// an unknown gate at start); turning it off is allowed and changes nothing.
    pub fn check(&self, v: Version, at: &Path) -> Result<()> {
        match self.iter().find(|&(g, on)| on && !g.in_release(v)) {
            Some((gate, _)) => Err(Error::Input {
                field: at.clone().field(gate.name()),
                code: ErrorCode::InvalidInput,
                reason: format!("Karmada {v} has no feature gate {gate}"),
            }),
            None => Ok(()),
        }
    }

    /// Take `other`'s settings over these; a gate set both ways is an error at `at.<Gate>`
    /// (`what`: how the other setting is named).
    pub fn merge(&mut self, other: &FeatureGates, at: &Path, what: &str) -> Result<()> {
        for (gate, on) in other.iter() {
            match self.get(gate) {
                Some(set) if set != on => {
                    return Err(Error::Input {
                        field: at.clone().field(gate.name()),
                        code: ErrorCode::InvalidInput,
                        reason: format!("{gate}={set} contradicts {what}"),
                    })
                }
                _ => self.set(gate, on),
            }
        }
        Ok(())
    }
}

/// Go's `strconv.ParseBool`.
fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

impl Serialize for FeatureGates {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_map(self.iter().map(|(g, on)| (g.name(), on)))
    }
}

impl<'de> Deserialize<'de> for FeatureGates {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        d.deserialize_any(GatesVisitor)
    }
}

struct GatesVisitor;

impl<'de> Visitor<'de> for GatesVisitor {
    type Value = FeatureGates;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("feature gates: \"Name=true,Other=false\" or {\"Name\": true}")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> core::result::Result<FeatureGates, E> {
        FeatureGates::parse(text).map_err(E::custom)
    }

    fn visit_unit<E: de::Error>(self) -> core::result::Result<FeatureGates, E> {
        Ok(FeatureGates::default())
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> core::result::Result<FeatureGates, A::Error> {
        let mut gates = FeatureGates::default();
        while let Some(name) = map.next_key::<alloc::borrow::Cow<'de, str>>()? {
            let value: GateValue = map.next_value()?;
            let set = match value {
                GateValue(Ok(on)) => gates.set_named(&name, on),
                GateValue(Err(text)) => gates.set_text(&name, &text),
            };
            set.map_err(de::Error::custom)?;
        }
        Ok(gates)
    }
}

/// A gate's value in a map: a boolean, or text as `--feature-gates` writes it.
struct GateValue(core::result::Result<bool, String>);

impl<'de> Deserialize<'de> for GateValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = GateValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("true or false")
            }
            fn visit_bool<E: de::Error>(self, on: bool) -> core::result::Result<GateValue, E> {
                Ok(GateValue(Ok(on)))
            }
            fn visit_str<E: de::Error>(self, text: &str) -> core::result::Result<GateValue, E> {
                Ok(GateValue(Err(String::from(text))))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for FeatureGates {
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        "FeatureGates".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut object = schemars::json_schema!({
            "type": "object",
            "properties": {},
            "additionalProperties": false
        });
        if let Some(properties) = object.get_mut("properties").and_then(|p| p.as_object_mut()) {
            for g in Gate::all() {
                let boolean = schemars::json_schema!({ "type": "boolean" });
                properties.insert(g.name().into(), boolean.to_value());
            }
        }
        let object = object.to_value();
        schemars::json_schema!({
            "description": "Karmada's feature gates: \"Failover=true,GracefulEviction=false\" as --feature-gates reads them, or {\"Failover\": true}; an unset gate takes the release's default.",
            "anyOf": [
                { "type": "string" },
                object
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    #[test]
    fn the_table_lists_every_gate_once_in_order() {
        for (i, r) in TABLE.iter().enumerate() {
            assert_eq!(r.gate as usize, i, "{}", r.name);
            assert_eq!(Gate::named(r.name), Some(r.gate));
        }
    }

    // The defaults that are the same in 1.16, 1.17, 1.18 and 1.19 (features.go of each).
    #[test]
    fn defaults_shared_by_every_release() {
        for release in ["1.16", "1.17", "1.18", "1.19"] {
            let r = v(release);
            for (gate, on) in [
                (Gate::Failover, false),
                (Gate::GracefulEviction, true),
                (Gate::PropagateDeps, true),
                (Gate::CustomizedClusterResourceModeling, true),
                (Gate::PolicyPreemption, false),
                (Gate::ResourceQuotaEstimate, false),
                (Gate::PriorityBasedScheduling, false),
                (Gate::MultiplePodTemplatesScheduling, false),
            ] {
                assert!(gate.in_release(r), "{gate} in {release}");
                assert_eq!(gate.default_in(r), on, "{gate} in {release}");
            }
        }
    }

    // PriorityBasedScheduling is Alpha and off in v1.19.0-rc.0 too.
    #[test]
    fn priority_based_scheduling_is_off_in_1_19() {
        assert!(!Gate::PriorityBasedScheduling.default_in(v("1.19")));
        assert!(!FeatureGates::default().enabled(Gate::PriorityBasedScheduling, v("1.19")));
    }

    // ControllerPriorityQueue: Alpha (off) in 1.16, Beta (on) from 1.17.
    #[test]
    fn controller_priority_queue_on_from_1_17() {
        assert!(!Gate::ControllerPriorityQueue.default_in(v("1.16")));
        for r in ["1.17", "1.18", "1.19"] {
            assert!(Gate::ControllerPriorityQueue.default_in(v(r)), "{r}");
        }
    }

    // WorkloadAffinity came with 1.17, SchedulingOvercommitProtection with 1.18; both off.
    #[test]
    fn gates_that_came_later() {
        let wa = Gate::WorkloadAffinity;
        assert!(!wa.in_release(v("1.16")));
        assert!(wa.in_release(v("1.17")) && !wa.default_in(v("1.17")));
        let sop = Gate::SchedulingOvercommitProtection;
        assert!(!sop.in_release(v("1.17")));
        assert!(sop.in_release(v("1.18")) && !sop.default_in(v("1.19")));
    }

    #[test]
    fn karmada_syntax_and_map_read_alike() {
        let text = FeatureGates::parse(" Failover=true, GracefulEviction=F,,").unwrap();
        let map: FeatureGates =
            serde_json::from_str(r#"{"Failover": true, "GracefulEviction": "false"}"#).unwrap();
        assert_eq!(text, map);
        assert_eq!(text.get(Gate::Failover), Some(true));
        assert_eq!(text.get(Gate::GracefulEviction), Some(false));
        assert_eq!(text.get(Gate::PropagateDeps), None);
        let json = serde_json::to_string(&text).unwrap();
        assert_eq!(json, r#"{"Failover":true,"GracefulEviction":false}"#);
        assert_eq!(serde_json::from_str::<FeatureGates>(&json).unwrap(), text);
    }

    #[test]
    fn an_unknown_gate_or_a_bad_value_is_refused() {
        let e = FeatureGates::parse("Failover=true,Nope=true").unwrap_err();
        assert!(e.contains("unrecognized feature gate: Nope"), "{e}");
        let e = FeatureGates::parse("failover=true").unwrap_err();
        assert!(e.contains("unrecognized feature gate: failover"), "{e}");
        let e = FeatureGates::parse("Failover=yes").unwrap_err();
        assert!(e.contains("invalid value of Failover=yes"), "{e}");
        let e = FeatureGates::parse("Failover").unwrap_err();
        assert!(e.contains("missing bool value for Failover"), "{e}");
        let e = serde_json::from_str::<FeatureGates>(r#"{"Failover": 1}"#).unwrap_err();
        assert!(e.to_string().contains("true or false"), "{e}");
    }

    #[test]
    fn a_gate_the_release_lacks_is_an_error_at_it_when_on() {
        let at = Path::fields("featureGates");
        let on = FeatureGates::parse("WorkloadAffinity=true").unwrap();
        let e = on.check(v("1.16"), &at).unwrap_err();
        assert_eq!(e.field().to_string(), "featureGates.WorkloadAffinity");
        assert!(e
            .to_string()
            .contains("Karmada 1.16 has no feature gate WorkloadAffinity"));
        assert!(on.check(v("1.17"), &at).is_ok());
        let off = FeatureGates::parse("SchedulingOvercommitProtection=false").unwrap();
        assert!(off.check(v("1.17"), &at).is_ok());
    }

    #[test]
    fn merged_settings_must_agree() {
        let at = Path::fields("featureGates");
        let mut set = FeatureGates::parse("Failover=false").unwrap();
        let mut shorthand = FeatureGates::default();
        shorthand.set(Gate::Failover, true);
        let e = set.merge(&shorthand, &at, "taintEviction").unwrap_err();
        assert_eq!(e.field().to_string(), "featureGates.Failover");
        let mut agree = FeatureGates::parse("Failover=true").unwrap();
        agree.merge(&shorthand, &at, "taintEviction").unwrap();
        assert_eq!(agree.get(Gate::Failover), Some(true));
    }
}
