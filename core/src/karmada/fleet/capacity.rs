//! Capacity shared between the bindings of a fleet (docs/rules/fleet.md §29). Each cluster's
//! `resourceSummary` is what the general estimator reads; nothing in the control plane
//! updates it when a binding is scheduled, so a burst of schedules all read the same summary
//! (the default). Under SchedulingOvercommitProtection, each successful schedule assumes its
//! full footprint on every cluster of its result (`Cache.Assume`), and later estimates deduct
//! the assumptions (`deductAssumedWorkloadsFromSummary`).
//!
//! The set the scheduler reads (its `Snapshot`) is compiled once for a whole drain of the
//! queue; a capacity change replaces the assumed workloads of the clusters it touches in that
//! set ([`Shared::assume`]) without compiling it again, and is written back to the members
//! (`Member::assumed`) once the queue is empty.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::entry::{BindingKind, Entry};
use crate::estimate::{AssumedWorkload, Component};
use crate::karmada::cluster::{Clusters, Member};
use crate::resource::ResourceList;

/// The capacity the bindings of one drain share: the workloads assumed per cluster (by
/// binding), the compiled set they are scheduled against, and the clusters whose assumptions
/// changed (to write back to the members).
pub struct Shared<'s, 'a> {
    pub assumed: &'s mut [BTreeMap<usize, AssumedWorkload>],
    pub clusters: &'s mut Clusters<'a>,
    pub touched: &'s mut Vec<usize>,
}

impl Shared<'_, '_> {
    /// Record binding `b`'s footprint on the clusters of its new result, releasing the
    /// clusters it left (`old`) (`Cache.Assume`, §29.2): each cluster touched has its assumed
    /// workloads replaced in the compiled set.
    pub fn assume(self, b: usize, e: &Entry, old: &BTreeMap<String, i64>) {
        if e.id.kind != BindingKind::ResourceBinding || !e.workload.is_workload() {
            return;
        }
        let start = self.touched.len();
        for c in old.keys() {
            if !e.state.clusters.contains_key(c) {
                if let Some(i) = self.clusters.position(c) {
                    if let Some(a) = self.assumed.get_mut(i) {
                        a.remove(&b);
                    }
                    self.touched.push(i);
                }
            }
        }
        for (c, &n) in &e.state.clusters {
            if let Some(i) = self.clusters.position(c) {
                if let Some(a) = self.assumed.get_mut(i) {
                    a.insert(b, footprint(e, n));
                }
                self.touched.push(i);
            }
        }
        for &i in self.touched.get(start..).unwrap_or_default() {
            let workloads = self
                .assumed
                .get(i)
                .map(|a| a.values().cloned().collect())
                .unwrap_or_default();
            // `i` is a position of the set: replacing it cannot fail.
            let _ = self.clusters.set_assumed(i, workloads);
        }
    }
}

/// The footprint `Cache.Assume` records for `e` on a cluster given `replicas` there: the
/// template as one component of those replicas, or every component of a multi-component
/// workload (docs/rules/fleet.md §29.2).
pub fn footprint(e: &Entry, replicas: i64) -> AssumedWorkload {
    let components = if e.workload.components.is_empty() {
        alloc::vec![Component {
            name: e.id.name.as_str().into(),
            replicas: replicas.max(0) as u64,
            requests: e.workload.requests.clone().unwrap_or_default(),
            node_claim: e.workload.node_claim.clone(),
        }]
    } else {
        e.workload.components.clone()
    };
    AssumedWorkload {
        namespace: e.id.namespace.as_str().into(),
        components,
    }
}

/// What the replicas of the fleet's bindings ask of one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Load {
    /// Replicas (pods) placed there.
    pub replicas: u64,
    /// Their requests, per resource (CPU in millicores, others in base units).
    pub requests: ResourceList,
}

impl Load {
    /// Add what `other` holds.
    pub fn merge(&mut self, other: &Load) {
        self.replicas = self.replicas.saturating_add(other.replicas);
        self.requests.add_all(&other.requests);
    }

    /// Add `replicas` replicas of `e` (each component's own requests for components).
    pub fn add(&mut self, e: &Entry, replicas: i64) {
        let n = replicas.max(0) as u64;
        if e.workload.components.is_empty() {
            self.replicas = self.replicas.saturating_add(n);
            if let Some(r) = &e.workload.requests {
                for (name, each) in r.iter() {
                    self.requests.add(name, each.saturating_mul(n));
                }
            }
            return;
        }
        for c in &e.workload.components {
            self.replicas = self.replicas.saturating_add(c.replicas);
            for (name, each) in c.requests.iter() {
                self.requests.add(name, each.saturating_mul(c.replicas));
            }
        }
    }
}

/// Free capacity per resource in a cluster's summary: `allocatable − allocated − allocating`
/// (pods included), saturating at 0; empty without a summary.
pub fn free(member: &Member) -> ResourceList {
    let Some(s) = &member.resource_summary else {
        return ResourceList::new();
    };
    s.allocatable
        .iter()
        .map(|(name, total)| {
            let used = s.allocated.get(name).saturating_add(s.allocating.get(name));
            (String::from(name), total.saturating_sub(used))
        })
        .collect()
}

/// Where newly placed replicas ask more than a summary's free capacity: per resource, the
/// excess of `added` over `free`. Resources the summary does not list are not checked.
pub fn overcommit(free: &ResourceList, added: &Load) -> ResourceList {
    let mut out = ResourceList::new();
    let pods = ("pods", added.replicas);
    for (name, want) in added.requests.iter().chain(core::iter::once(pods)) {
        if free.has(name) && want > free.get(name) {
            out.insert(name, want - free.get(name));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    use crate::karmada::fleet::entry::Condition;
    use crate::karmada::fleet::events::Event;
    use crate::karmada::fleet::plan::{plan, Outcome, Plan};
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::Settings;
    use crate::karmada::gates::Gate;
    use crate::karmada::Strategy;

    fn burst(protect: bool) -> Plan {
        let mut settings = Settings::default();
        settings
            .feature_gates
            .set(Gate::SchedulingOvercommitProtection, protect);
        let f = fleet(
            alloc::vec![member("a", 10), member("b", 4)],
            Vec::new(),
            settings,
        );
        let events = ["w1", "w2", "w3"]
            .iter()
            .map(|n| Event::Create {
                entry: Box::new(entry(n, Strategy::Aggregated, 6, &[])),
            })
            .collect();
        plan(&f, events).unwrap().0
    }

    // A burst without SchedulingOvercommitProtection: every binding reads the same
    // resourceSummary (nothing in the control plane updates it when a binding is scheduled:
    // `Snapshot`, pkg/scheduler/cache/cache.go), so all three take cluster a.
    #[test]
    fn a_burst_overcommits_while_the_summary_lags() {
        let p = burst(false);
        for w in ["w1", "w2", "w3"] {
            assert_eq!(after(&p, w), placed(&[("a", 6)]));
        }
        let a = p.clusters.iter().find(|c| c.name == "a").unwrap();
        assert_eq!(a.added.requests.get("cpu"), 18_000);
        assert_eq!(a.overcommit.get("cpu"), 8_000);
        assert_eq!(p.summary.overcommitted_clusters, 1);
    }

    // With the gate, each successful schedule assumes its footprint (`Cache.Assume` after
    // `patchScheduleResultForResourceBinding`) and the general estimator deducts it
    // (`deductAssumedWorkloadsFromSummary`, pkg/estimator/client/general.go).
    #[test]
    fn overcommit_protection_deducts_what_was_just_scheduled() {
        let p = burst(true);
        assert_eq!(after(&p, "w1"), placed(&[("a", 6)]));
        assert_eq!(after(&p, "w2"), placed(&[("a", 3), ("b", 3)]));
        assert!(matches!(
            outcome(&p, "w3"),
            Outcome::Unschedulable {
                condition: Condition::Unschedulable(_)
            }
        ));
        assert!(p.clusters.iter().all(|c| c.overcommit.is_empty()));
    }
}
