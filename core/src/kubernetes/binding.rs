//! What Karmada would write into the binding after a schedule (docs/rules/karmada.md §16.4):
//! `spec.clusters` (names ascending, as Karmada writes them), the observed affinity term
//! (`status.schedulerObservingAffinityName`), and how `spec.clusters` changes against the
//! binding's current one.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::karmada::TargetCluster;
use crate::karmada::Assigned;

/// The binding's new scheduling result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BindingResult {
    /// `spec.clusters`, by name.
    pub clusters: Vec<TargetCluster>,
    /// `status.schedulerObservingAffinityName` (empty without ordered affinity terms).
    pub observed_affinity: String,
    /// Every cluster in the current or the new `spec.clusters`, by name.
    pub changes: Vec<Change>,
}

/// One cluster's replicas before and after (`None`: not in that `spec.clusters`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Change {
    pub cluster: String,
    pub before: Option<i64>,
    pub after: Option<i64>,
}

impl Change {
    /// Whether the cluster's entry changes.
    pub fn changed(&self) -> bool {
        self.before != self.after
    }
}

/// The result a schedule's `assignment` and observed affinity term write into a binding whose
/// current `spec.clusters` is `current`.
pub fn result(
    assignment: &[Assigned],
    observed_affinity: &str,
    current: &BTreeMap<String, i64>,
) -> BindingResult {
    let new: BTreeMap<String, i64> = assignment
        .iter()
        .map(|a| {
            (
                String::from(a.name.as_str()),
                i64::try_from(a.replicas).unwrap_or(i64::MAX),
            )
        })
        .collect();
    let mut names: Vec<&String> = current.keys().chain(new.keys()).collect();
    names.sort();
    names.dedup();
    BindingResult {
        clusters: new
            .iter()
            .map(|(name, &replicas)| TargetCluster {
                name: name.clone(),
                replicas,
            })
            .collect(),
        observed_affinity: observed_affinity.into(),
        changes: names
            .into_iter()
            .map(|name| Change {
                cluster: name.clone(),
                before: current.get(name).copied(),
                after: new.get(name).copied(),
            })
            .collect(),
    }
}
