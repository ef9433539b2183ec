//! The scheduler's plugins and the `--plugins` flag (docs/rules/karmada.md §12.2): which are
//! registered, which the flag enables, and the fixed order allot runs the filters in.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::error::{indexed, Error, Result};

/// An in-tree plugin of a single binding's schedule (the WorkloadAffinity pair reads other
/// bindings: only a fleet runs it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Plugin {
    #[serde(rename = "APIEnablement")]
    ApiEnablement,
    TaintToleration,
    ClusterAffinity,
    SpreadConstraint,
    ClusterEviction,
    ClusterLocality,
}

impl Plugin {
    /// Every registered plugin.
    pub const ALL: [Plugin; 6] = [
        Plugin::ApiEnablement,
        Plugin::TaintToleration,
        Plugin::ClusterAffinity,
        Plugin::SpreadConstraint,
        Plugin::ClusterLocality,
        Plugin::ClusterEviction,
    ];

    /// The filter plugins in the order allot runs them (Karmada's order is a hash map's; this
    /// is the order its source lists them in). Only the recorded reason depends on it.
    pub const FILTERS: [Plugin; 5] = [
        Plugin::ApiEnablement,
        Plugin::TaintToleration,
        Plugin::ClusterAffinity,
        Plugin::SpreadConstraint,
        Plugin::ClusterEviction,
    ];

    /// The score plugins, in the order their scores are shown.
    pub const SCORES: [Plugin; 2] = [Plugin::ClusterLocality, Plugin::ClusterAffinity];

    /// The name the flag and Karmada use.
    pub const fn name(self) -> &'static str {
        match self {
            Plugin::ApiEnablement => "APIEnablement",
            Plugin::TaintToleration => "TaintToleration",
            Plugin::ClusterAffinity => "ClusterAffinity",
            Plugin::SpreadConstraint => "SpreadConstraint",
            Plugin::ClusterEviction => "ClusterEviction",
            Plugin::ClusterLocality => "ClusterLocality",
        }
    }
}

/// `--plugins` applied to a registry (§12.2): with a `*` entry start from every registered name,
/// otherwise from none; then each registered name adds itself and `-name` removes it while the
/// set is not empty; anything else is ignored. The result is sorted.
pub fn enabled_names<'a>(registered: &[&'a str], flag: &[&str]) -> Vec<&'a str> {
    let mut set: Vec<&'a str> = if flag.contains(&"*") {
        registered.to_vec()
    } else {
        Vec::new()
    };
    for entry in flag {
        if let Some(name) = entry.strip_prefix('-') {
            if !set.is_empty() {
                set.retain(|n| *n != name);
            }
        } else if let Some(&name) = registered.iter().find(|n| **n == *entry) {
            if !set.contains(&name) {
                set.push(name);
            }
        }
    }
    crate::order::sort_by(&mut set, &|a, b| a.cmp(b));
    set
}

/// The WorkloadAffinity pair, registered with gate WorkloadAffinity (`NewInTreeRegistry`,
/// pkg/scheduler/framework/plugins/registry.go); only a fleet runs it (docs/rules/fleet.md
/// §31).
pub const WORKLOAD_PAIR: [&str; 2] = ["WorkloadAffinity", "WorkloadAntiAffinity"];

/// Whether `--plugins` (absent: `*`) enables WorkloadAffinity and WorkloadAntiAffinity, the
/// pair registered alongside every other plugin.
pub fn workload_pair(flag: Option<&[String]>) -> [bool; 2] {
    let Some(flag) = flag else {
        return [true; 2];
    };
    let mut registered: Vec<&str> = Plugin::ALL.map(Plugin::name).to_vec();
    registered.extend(WORKLOAD_PAIR);
    let flag: Vec<&str> = flag.iter().map(String::as_str).collect();
    let on = enabled_names(&registered, &flag);
    WORKLOAD_PAIR.map(|n| on.contains(&n))
}

/// The enabled plugins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PluginSet([bool; 6]);

impl Default for PluginSet {
    /// `--plugins=*`.
    fn default() -> Self {
        PluginSet([true; 6])
    }
}

impl PluginSet {
    /// From the entries of `--plugins` (absent: `*`). An entry naming no plugin is an error at
    /// `plugins[i]` (Karmada ignores it; a scenario that says it most likely meant something).
    pub fn from_flag(flag: Option<&[String]>) -> Result<PluginSet> {
        let Some(flag) = flag else {
            return Ok(PluginSet::default());
        };
        let names = Plugin::ALL.map(Plugin::name);
        for (i, entry) in flag.iter().enumerate() {
            let name = entry.strip_prefix('-').unwrap_or(entry);
            if name != "*" && !names.contains(&name) && !WORKLOAD_PAIR.contains(&name) {
                return Err(Error::UnknownValue {
                    field: indexed("plugins", i),
                    value: entry.clone(),
                    expected: "*, APIEnablement, TaintToleration, ClusterAffinity, \
                               SpreadConstraint, ClusterEviction, ClusterLocality, \
                               WorkloadAffinity, WorkloadAntiAffinity (or -name)",
                });
            }
        }
        let flag: Vec<&str> = flag.iter().map(String::as_str).collect();
        let on = enabled_names(&names, &flag);
        Ok(PluginSet(Plugin::ALL.map(|p| on.contains(&p.name()))))
    }

    pub fn enabled(&self, p: Plugin) -> bool {
        let i = Plugin::ALL.iter().position(|q| *q == p).unwrap_or(0);
        self.0[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_rules() {
        let reg = ["bar", "foo", "fuzz"];
        assert_eq!(enabled_names(&reg, &["*", "-foo"]), ["bar", "fuzz"]);
        assert_eq!(enabled_names(&reg, &["-foo", "*"]), ["bar", "fuzz"]);
        assert_eq!(enabled_names(&reg, &["-foo", "bar"]), ["bar"]);
        assert_eq!(
            enabled_names(&reg, &["bar", "-bar", "-foo"]),
            [] as [&str; 0]
        );
    }

    #[test]
    fn plugin_set() {
        let s = PluginSet::from_flag(Some(&["*".into(), "-TaintToleration".into()])).unwrap();
        assert!(!s.enabled(Plugin::TaintToleration));
        assert!(s.enabled(Plugin::ClusterLocality));
        let e = PluginSet::from_flag(Some(&["Nope".into()])).unwrap_err();
        assert_eq!(e.field(), "plugins[0]");
    }
}
