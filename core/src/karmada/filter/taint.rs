//! The TaintToleration filter (docs/rules/karmada.md §12.3): a cluster passes when the workload
//! is already placed there, or when the policy's `clusterTolerations` tolerate every
//! `NoSchedule` and `NoExecute` taint.

use alloc::format;
use alloc::string::String;

use super::{BindingView, ClusterView};
use crate::selector::node::{Taint, TaintEffect};

/// `None`: passes; otherwise the reason.
pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<String> {
    if b.placed_on(c.facts.name) {
        return None;
    }
    untolerated(c.taints, b.rules.cluster_tolerations)
        .map(|t| format!("cluster(s) had untolerated taint {{{}}}", render(t)))
}

/// The first counted taint no toleration tolerates.
pub fn untolerated<'t>(
    taints: &'t [Taint],
    tolerations: &[crate::selector::node::Toleration],
) -> Option<&'t Taint> {
    taints.iter().find(|t| {
        matches!(t.effect, TaintEffect::NoSchedule | TaintEffect::NoExecute)
            && !tolerations.iter().any(|tol| tol.tolerates(t))
    })
}

/// `key=value:effect`, or `key:effect` without a value.
pub fn render(t: &Taint) -> String {
    let effect = match t.effect {
        TaintEffect::NoSchedule => "NoSchedule",
        TaintEffect::PreferNoSchedule => "PreferNoSchedule",
        TaintEffect::NoExecute => "NoExecute",
    };
    if t.value.is_empty() {
        format!("{}:{effect}", t.key)
    } else {
        format!("{}={}:{effect}", t.key, t.value)
    }
}
