//! When Karmada schedules a binding, and the loop over the ordered affinity terms
//! (docs/rules/karmada.md §15): the triggers (placement changed, replicas changed, reschedule
//! required), the starting term, the terms tried in turn, and what is written back
//! (`spec.clusters`, the observed term).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::constraints::{AffinityTerm, Division, Rules, SpreadConstraint};
use super::StaticWeightRule;
use crate::error::Error;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::Toleration;

/// `weightPreference`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeightPreference {
    pub static_weight_list: Vec<StaticWeightRule>,
    pub dynamic_weight: String,
}

/// `replicaScheduling` as written (`replicaSchedulingType` may be anything, even empty).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReplicaScheduling {
    pub replica_scheduling_type: String,
    pub replica_division_preference: String,
    pub weight_preference: Option<WeightPreference>,
}

/// A placement as the triggers compare it: equal when structurally equal, absent and empty
/// lists being the same and an empty affinity object differing from an absent one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PlacementSpec {
    pub cluster_affinity: Option<ClusterAffinity>,
    pub cluster_affinities: Vec<AffinityTerm>,
    pub cluster_tolerations: Vec<Toleration>,
    pub spread_constraints: Vec<SpreadConstraint>,
    pub replica_scheduling: Option<ReplicaScheduling>,
    /// `workloadAffinity` (docs/rules/fleet.md §31): part of the placement the triggers
    /// compare; the groups it gives are the detector's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_affinity: Option<crate::karmada::filter::workload_affinity::WorkloadAffinity>,
}

impl ReplicaScheduling {
    /// What selection makes of it (§14.2, §14.3): Duplicated, or Divided, ignoring spread
    /// constraints for static weighting (Weighted with no `weightPreference`, or a static list
    /// and no dynamic weight).
    pub fn division(&self) -> Division {
        if self.replica_scheduling_type == "Duplicated" {
            return Division::Duplicated;
        }
        let weighted = self.replica_scheduling_type == "Divided"
            && self.replica_division_preference == "Weighted";
        let ignore_spread = weighted
            && self
                .weight_preference
                .as_ref()
                .is_none_or(|w| !w.static_weight_list.is_empty() && w.dynamic_weight.is_empty());
        Division::Divided { ignore_spread }
    }
}

impl PlacementSpec {
    /// The candidate rules this placement states, as the newest release reads them.
    pub fn rules(&self) -> Rules<'_> {
        Rules {
            cluster_affinity: self.cluster_affinity.as_ref(),
            cluster_affinities: (!self.cluster_affinities.is_empty())
                .then_some(self.cluster_affinities.as_slice()),
            cluster_tolerations: &self.cluster_tolerations,
            spread_constraints: &self.spread_constraints,
            division: self
                .replica_scheduling
                .as_ref()
                .map_or(Division::Duplicated, ReplicaScheduling::division),
            version: super::version::Version::NEWEST,
        }
    }

    /// Duplicated for the triggers: `replicaScheduling` absent or of type Duplicated.
    pub fn duplicated(&self) -> bool {
        self.replica_scheduling
            .as_ref()
            .is_none_or(|r| r.replica_scheduling_type == "Duplicated")
    }

    fn term(&self, name: &str) -> Option<&AffinityTerm> {
        self.cluster_affinities
            .iter()
            .find(|t| t.affinity_name == name)
    }
}

/// Placement changed (§15.1) against the applied-placement annotation (`None`: absent, which
/// counts as changed).
pub fn placement_changed(
    placement: &PlacementSpec,
    applied: Option<&PlacementSpec>,
    observed: &str,
) -> bool {
    let Some(applied) = applied else {
        return true;
    };
    // The same object (a binding whose policy is unchanged) is equal without comparing it.
    if core::ptr::eq(placement, applied) || placement == applied {
        return false;
    }
    if placement.cluster_affinity != applied.cluster_affinity
        || placement.cluster_tolerations != applied.cluster_tolerations
        || placement.spread_constraints != applied.spread_constraints
        || placement.replica_scheduling != applied.replica_scheduling
    {
        return true;
    }
    if observed.is_empty() {
        return true;
    }
    match (placement.term(observed), applied.term(observed)) {
        (Some(a), Some(b)) => a != b,
        _ => true,
    }
}

/// Reschedule required (§15.1 trigger 3): both times set and the trigger strictly later.
pub fn reschedule_required(triggered_at: Option<i64>, last_scheduled: Option<i64>) -> bool {
    matches!((triggered_at, last_scheduled), (Some(t), Some(l)) if t > l)
}

/// Replicas changed (§15.1): `scheduling` is the placement's `replicaScheduling`, `previous`
/// the replicas of `spec.clusters`.
pub fn replicas_changed(
    multiple_pod_templates: bool,
    replicas: i64,
    has_components: bool,
    previous: &BTreeMap<String, i64>,
    scheduling: Option<&ReplicaScheduling>,
) -> bool {
    let Some(scheduling) = scheduling else {
        return false;
    };
    if multiple_pod_templates && has_components && previous.is_empty() {
        return true;
    }
    match scheduling.replica_scheduling_type.as_str() {
        "Duplicated" => previous.values().any(|&r| r != replicas),
        "Divided" => previous.values().fold(0i128, |a, &r| a + r as i128) != replicas as i128,
        _ => false,
    }
}

/// What the triggers read of a binding.
#[derive(Debug, Clone, Copy)]
pub struct TriggerInput<'a> {
    pub placement: &'a PlacementSpec,
    pub applied: Option<&'a PlacementSpec>,
    pub observed: &'a str,
    pub replicas: i64,
    pub has_replica_requirements: bool,
    pub has_components: bool,
    pub multiple_pod_templates: bool,
    /// Each placed cluster's replicas (`spec.clusters`).
    pub previous: &'a BTreeMap<String, i64>,
    pub reschedule_triggered_at: Option<i64>,
    pub last_scheduled: Option<i64>,
    /// Some cluster of `spec.clusters` is being deleted.
    pub placed_cluster_deleting: bool,
}

/// Why a binding is scheduled (§15.1), the first trigger that holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Trigger {
    PlacementChanged,
    ReplicasChanged,
    RescheduleRequired,
    /// Non-workloads and Duplicated placements are scheduled on every reconcile.
    EveryReconcile,
    PlacedClusterDeleting,
}

/// The first trigger that holds, or `None`: nothing is scheduled.
pub fn trigger(b: &TriggerInput<'_>) -> Option<Trigger> {
    let workload = b.replicas > 0 || b.has_replica_requirements || b.has_components;
    if placement_changed(b.placement, b.applied, b.observed) {
        Some(Trigger::PlacementChanged)
    } else if replicas_changed(
        b.multiple_pod_templates,
        b.replicas,
        b.has_components,
        b.previous,
        b.placement.replica_scheduling.as_ref(),
    ) {
        Some(Trigger::ReplicasChanged)
    } else if reschedule_required(b.reschedule_triggered_at, b.last_scheduled) {
        Some(Trigger::RescheduleRequired)
    } else if !workload || b.placement.duplicated() {
        Some(Trigger::EveryReconcile)
    } else if b.placed_cluster_deleting {
        Some(Trigger::PlacedClusterDeleting)
    } else {
        None
    }
}

/// The starting term (§15.3 step 1): the observed one, or 0.
pub fn affinity_index(names: &[&str], observed: &str) -> usize {
    if observed.is_empty() {
        return 0;
    }
    names.iter().position(|n| *n == observed).unwrap_or(0)
}

/// One term tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub affinity_name: String,
    pub error: Option<Error>,
}

/// What the loop leaves behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopOutcome<T> {
    /// The winning attempt's result, or the error reported (the first failure).
    pub result: Result<T, Error>,
    /// Every term tried, in order (empty without `clusterAffinities`).
    pub tried: Vec<Attempt>,
    /// `spec.clusters` is written: on success, and emptied when the first failure is a FitError.
    pub writes_clusters: bool,
    /// `status.schedulerObservingAffinityName` afterwards.
    pub observed: String,
}

/// Schedule with the ordered terms (§15.2, §15.3). `names`: the terms' names, `None` without
/// `clusterAffinities`; `attempt` runs the whole pipeline with the given observed term name.
pub fn run_terms<T>(
    names: Option<&[&str]>,
    observed: &str,
    reschedule: bool,
    mut attempt: impl FnMut(&str) -> Result<T, Error>,
) -> LoopOutcome<T> {
    let fit = |e: &Error| matches!(e, Error::NoClusterFit { .. });
    let Some(names) = names else {
        let result = attempt(observed);
        let writes_clusters = result.as_ref().err().is_none_or(fit);
        return LoopOutcome {
            result,
            tried: Vec::new(),
            writes_clusters,
            observed: observed.into(),
        };
    };
    let start = if reschedule {
        0
    } else {
        affinity_index(names, observed)
    };
    let mut tried = Vec::new();
    let mut first_error: Option<Error> = None;
    for name in names.iter().skip(start) {
        match attempt(name) {
            Ok(v) => {
                tried.push(Attempt {
                    affinity_name: (*name).into(),
                    error: None,
                });
                return LoopOutcome {
                    result: Ok(v),
                    tried,
                    writes_clusters: true,
                    observed: (*name).into(),
                };
            }
            Err(e) => {
                tried.push(Attempt {
                    affinity_name: (*name).into(),
                    error: Some(e.clone()),
                });
                first_error.get_or_insert(e);
            }
        }
    }
    let error = first_error.unwrap_or(Error::NoCandidates {
        field: crate::path::Path::fields("clusterAffinities"),
    });
    LoopOutcome {
        writes_clusters: fit(&error),
        result: Err(error),
        tried,
        observed: observed.into(),
    }
}
