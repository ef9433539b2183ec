//! The ClusterAffinity filter (docs/rules/karmada.md §12.5): the placement's `clusterAffinity`,
//! or the observed term of `clusterAffinities` with its overflow tiers (workloads only); a
//! cluster must match one of them. Clusters already placed on are not exempt.

use alloc::vec::Vec;

use super::{BindingView, ClusterView, Failure};
use crate::karmada::affinity::Affinity;
use crate::karmada::compiled::Compiled;
use crate::karmada::constraints::Rules;
use crate::selector::cluster::ClusterAffinity;

pub const REASON: &str = "cluster(s) did not match the placement cluster affinity constraint";

/// The affinities a cluster must match one of under the observed term `observed`
/// (`workload`: the binding is a workload, whose overflow affinities count); `None`: every
/// cluster passes.
pub fn affinities<'a>(
    rules: &Rules<'a>,
    observed: &str,
    workload: bool,
) -> Option<Vec<&'a ClusterAffinity>> {
    if let Some(a) = rules.cluster_affinity {
        return Some(alloc::vec![a]);
    }
    let term = rules.observed_term(observed)?;
    let mut list = alloc::vec![&term.affinity];
    if workload {
        list.extend(rules.overflow_affinities(term).iter().map(|o| &o.affinity));
    }
    Some(list)
}

/// The affinities a cluster must match one of, each read once for the filter pass.
pub struct Required<'a> {
    list: Vec<Affinity<'a>>,
}

impl<'a> Required<'a> {
    /// [`affinities`], read once against the cluster set `set` (`None`: every cluster
    /// passes).
    pub fn new(
        rules: &Rules<'a>,
        observed: &str,
        workload: bool,
        set: &Compiled<'_>,
    ) -> Option<Self> {
        let list = affinities(rules, observed, workload)?;
        let zones = rules.zone_in();
        Some(Required {
            list: list
                .into_iter()
                .map(|a| Affinity::new(a, zones, set))
                .collect(),
        })
    }

    /// Clusters of `set` (positions, ascending) among which are all those one of the
    /// affinities matches ([`Affinity::candidates`]); `None`: any cluster may.
    pub fn candidates(&self, set: &Compiled<'_>) -> Option<Vec<u32>> {
        let mut clusters = Vec::new();
        for a in &self.list {
            clusters.extend(a.candidates(set)?);
        }
        if self.list.len() > 1 {
            clusters.sort_unstable();
            clusters.dedup();
        }
        Some(clusters)
    }
}

#[inline]
pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<Failure<'static>> {
    let r = b.affinity?;
    let matched = r.list.iter().any(|a| a.matches(c.member, &c.facts));
    (!matched).then_some(Failure::Fixed(REASON))
}
