//! Whether a dequeued binding is scheduled at all (docs/rules/fleet.md §23), as Karmada's
//! `doScheduleBinding` (pkg/scheduler/scheduler.go) decides: the first trigger of
//! docs/rules/karmada.md §15.1 that holds ([`affinity_terms::trigger`]), or why none does.

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::entry::Entry;
use super::Settings;
pub use crate::karmada::affinity_terms::Trigger;
use crate::karmada::affinity_terms::{self, TriggerInput};
use crate::karmada::cluster::Member;

/// Why a dequeued binding is not scheduled (§23.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Skip {
    /// Divided, its placement and replicas unchanged, no reschedule trigger, no target
    /// being deleted: only `schedulerObservedGeneration` is written.
    NoTrigger,
}

/// The first trigger of `doScheduleBinding` that holds for `e`, given the clusters.
pub fn trigger(e: &Entry, members: &[Member], settings: &Settings) -> Result<Trigger, Skip> {
    let s = &e.state;
    let previous: Vec<i64> = s.clusters.values().copied().collect();
    let input = TriggerInput {
        placement: e.rules.placement(),
        applied: s.applied.as_ref().map(|r| r.placement()),
        observed: &s.observed_affinity,
        replicas: e.workload.replicas,
        has_replica_requirements: e.workload.requests.is_some() || e.workload.node_claim.is_some(),
        has_components: !e.workload.components.is_empty(),
        multiple_pod_templates: settings
            .gate(crate::karmada::gates::Gate::MultiplePodTemplatesScheduling),
        previous: &previous,
        reschedule_triggered_at: s.reschedule_triggered_at,
        last_scheduled: s.last_scheduled,
        placed_cluster_deleting: members
            .iter()
            .any(|m| m.deleting && s.clusters.contains_key(m.name.as_str())),
    };
    affinity_terms::trigger(&input).ok_or(Skip::NoTrigger)
}
