//! The ClusterAffinity filter (docs/rules/karmada.md §12.5): the placement's `clusterAffinity`,
//! or the observed term of `clusterAffinities` with its overflow tiers (workloads only); a
//! cluster must match one of them. Clusters already placed on are not exempt.

use alloc::string::String;
use alloc::vec::Vec;

use super::{BindingView, ClusterView};
use crate::selector::cluster::ClusterAffinity;

pub const REASON: &str = "cluster(s) did not match the placement cluster affinity constraint";

/// The affinities a cluster must match one of; `None`: every cluster passes.
pub fn affinities<'a>(b: &BindingView<'a>) -> Option<Vec<&'a ClusterAffinity>> {
    if let Some(a) = b.rules.cluster_affinity {
        return Some(alloc::vec![a]);
    }
    let term = b.rules.observed_term(b.observed)?;
    let mut list = alloc::vec![&term.affinity];
    if b.workload {
        list.extend(
            b.rules
                .overflow_affinities(term)
                .iter()
                .map(|o| &o.affinity),
        );
    }
    Some(list)
}

pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<String> {
    let list = affinities(b)?;
    let zones = b.rules.zone_in();
    (!list.iter().any(|a| a.matches(&c.facts, zones))).then(|| REASON.into())
}
