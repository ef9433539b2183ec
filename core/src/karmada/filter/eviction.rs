//! The ClusterEviction filter (docs/rules/karmada.md §12.7): a cluster the binding is being
//! gracefully evicted from is not a candidate.

use super::{BindingView, ClusterView, Failure};

pub const REASON: &str = "cluster(s) is in the process of eviction";

#[inline]
pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<Failure<'static>> {
    b.evictions
        .iter()
        .any(|e| e == c.member.name.as_str())
        .then_some(Failure::Fixed(REASON))
}
