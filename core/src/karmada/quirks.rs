//! Where Karmada's own code would answer otherwise than allot, and why: the sentences an
//! explanation adds when one of Karmada's accidents, which allot fixes (docs/rules/README.md
//! decision 5), applies to the answer (docs/rules/karmada.md §4).

use alloc::format;
use alloc::vec::Vec;

use super::{Cluster, Mode, Placement, Strategy, Trace};
use crate::warning::Warning;

/// Karmada adds replica counts in 32 bits when it divides by available replicas (the list's
/// total, and each cluster's capacity plus placement on a fresh reschedule): a total past
/// 2^31 − 1 wraps around, and a negative total fails the schedule (docs/rules/karmada.md §4).
/// allot adds exactly; this says where Karmada's sum would have wrapped.
pub(crate) fn wrapped_sum(p: &Placement, trace: &Trace) -> Option<Warning> {
    if !matches!(p.strategy, Strategy::DynamicWeight | Strategy::Aggregated) {
        return None;
    }
    let prev = |c: &Cluster| p.previous.get(c.name.as_str()).copied().unwrap_or(0);
    let alloc = |c: &Cluster| c.available_replicas.unwrap_or(0).clamp(0, i32::MAX.into());
    let (values, target): (Vec<i64>, i64) = match trace.mode? {
        Mode::Fresh => (
            p.clusters.iter().map(|c| alloc(c) + prev(c)).collect(),
            p.replicas,
        ),
        Mode::ScaleUp => {
            let assigned: i64 = p.clusters.iter().map(|c| prev(c).max(0)).sum();
            (
                p.clusters.iter().map(alloc).collect(),
                p.replicas - assigned,
            )
        }
        Mode::ScaleDown => (
            p.clusters.iter().map(prev).filter(|&r| r > 0).collect(),
            p.replicas,
        ),
        Mode::Unchanged => return None,
    };
    let exact: i128 = values.iter().map(|&v| i128::from(v)).sum();
    if exact <= i128::from(i32::MAX) {
        return None;
    }
    // Go's int32 arithmetic: each addition wraps around.
    let wrapped = values.iter().fold(0i32, |s, &v| s.wrapping_add(v as i32));
    let fails = if i64::from(wrapped) < target {
        format!(
            ", so Karmada's scheduler fails with \"Clusters available replicas {wrapped} are \
             not enough to schedule.\""
        )
    } else {
        alloc::string::String::new()
    };
    Some(Warning {
        code: "karmada_sum_wraps",
        path: "clusters".into(),
        message: format!(
            "Karmada adds what these clusters can take in 32 bits: the total, {exact}, passes \
             2^31 - 1 and wraps around to {wrapped}{fails}; allot adds exactly"
        ),
    })
}
