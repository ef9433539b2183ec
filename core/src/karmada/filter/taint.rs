//! The TaintToleration filter (docs/rules/karmada.md §12.3): a cluster passes when the workload
//! is already placed there, or when the policy's `clusterTolerations` tolerate every
//! `NoSchedule` and `NoExecute` taint.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{BindingView, ClusterView};
use crate::names::Prefixed;
use crate::selector::node::{Taint, TaintEffect, Toleration};

/// The policy's tolerations, indexed by key once per cycle: a taint is checked against the
/// tolerations of its key and those without a key, not against every toleration (10,000
/// clusters with 20 taints each meet the same tolerations 200,000 times). Keys and values are
/// compared as [`Prefixed`] names: a short key or value costs integer comparisons.
pub struct Tolerations<'a> {
    /// The keyed tolerations by key, each with its value.
    keyed: BTreeMap<Prefixed<'a>, Vec<(&'a Toleration, Prefixed<'a>)>>,
    /// Tolerations with an empty key (they apply to every key).
    any_key: Vec<&'a Toleration>,
}

impl<'a> Tolerations<'a> {
    pub fn new(all: &'a [Toleration]) -> Self {
        let mut keyed: BTreeMap<_, Vec<_>> = BTreeMap::new();
        let mut any_key = Vec::new();
        for t in all {
            if t.key.is_empty() {
                any_key.push(t);
            } else {
                let value = Prefixed::new(&t.value);
                keyed
                    .entry(Prefixed::new(&t.key))
                    .or_default()
                    .push((t, value));
            }
        }
        Tolerations { keyed, any_key }
    }

    /// Whether one of the tolerations tolerates `taint` (docs/rules/karmada.md §10's rule).
    pub fn tolerate(&self, taint: &Taint) -> bool {
        // The keyed ones have the taint's key: only the effect and value remain to compare.
        let keyed = self
            .keyed
            .get(&Prefixed::new(&taint.key))
            .map_or(&[][..], Vec::as_slice);
        let value = Prefixed::new(&taint.value);
        keyed
            .iter()
            .any(|(t, v)| t.tolerates_effect_and(taint.effect, || *v == value))
            || self.any_key.iter().any(|t| t.tolerates(taint))
    }
}

/// `None`: passes; otherwise the reason.
pub(super) fn filter(b: &BindingView<'_>, c: &ClusterView<'_>) -> Option<String> {
    if c.placed {
        return None;
    }
    untolerated(c.taints, b.tolerations)
        .map(|t| format!("cluster(s) had untolerated taint {{{}}}", render(t)))
}

/// The first counted taint no toleration tolerates.
pub fn untolerated<'t>(taints: &'t [Taint], tolerations: &Tolerations<'_>) -> Option<&'t Taint> {
    taints.iter().find(|t| {
        matches!(t.effect, TaintEffect::NoSchedule | TaintEffect::NoExecute)
            && !tolerations.tolerate(t)
    })
}

/// `key=value:effect`, or `key:effect` without a value.
pub fn render(t: &Taint) -> String {
    let effect = t.effect.as_str();
    if t.value.is_empty() {
        format!("{}:{effect}", t.key)
    } else {
        format!("{}={}:{effect}", t.key, t.value)
    }
}
