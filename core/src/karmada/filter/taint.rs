//! The TaintToleration filter (docs/rules/karmada.md §12.3): a cluster passes when the workload
//! is already placed there, or when the policy's `clusterTolerations` tolerate every
//! `NoSchedule` and `NoExecute` taint.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{BindingView, ClusterView, Failure};
use crate::names::{NameIndex, Prefixed};
use crate::selector::node::{Taint, TaintEffect, Toleration};

/// The policy's tolerations, indexed by key once per cycle: a taint is checked against the
/// tolerations of its key and those without a key, not against every toleration (10,000
/// clusters with 20 taints each meet the same tolerations 200,000 times). Keys are found
/// through a [`NameIndex`], whose hash lookups take the same branches taint after taint (a
/// search tree's comparisons did not, and the mispredicted branches kept the processor from
/// reading the next cluster's taints early); values are compared as [`Prefixed`] names.
pub struct Tolerations<'a> {
    /// The distinct keys of the keyed tolerations.
    keys: NameIndex<'a>,
    /// Per key (by its position in `keys`), its tolerations, each with its value.
    keyed: Vec<Vec<(&'a Toleration, Prefixed<'a>)>>,
    /// Tolerations with an empty key (they apply to every key).
    any_key: Vec<&'a Toleration>,
}

impl<'a> Tolerations<'a> {
    pub fn new(all: &'a [Toleration]) -> Self {
        let (any_key, keyed): (Vec<&Toleration>, Vec<&Toleration>) =
            all.iter().partition(|t| t.key.is_empty());
        // A key given twice is found at its last position: every toleration of a key goes there.
        let keys = NameIndex::new(keyed.iter().map(|t| t.key.as_str()));
        let mut by_key: Vec<Vec<_>> = keyed.iter().map(|_| Vec::new()).collect();
        for t in keyed {
            if let Some(list) = keys.get(&t.key).and_then(|i| by_key.get_mut(i)) {
                list.push((t, Prefixed::new(&t.value)));
            }
        }
        Tolerations {
            keys,
            keyed: by_key,
            any_key,
        }
    }

    /// Whether `taint` keeps a new placement out: a counted effect (`NoSchedule`,
    /// `NoExecute`) that no toleration tolerates.
    pub fn block(&self, taint: &Taint) -> bool {
        matches!(
            taint.effect,
            TaintEffect::NoSchedule | TaintEffect::NoExecute
        ) && !self.tolerate(taint)
    }

    /// Whether one of the tolerations tolerates `taint` (docs/rules/karmada.md §10's rule).
    pub fn tolerate(&self, taint: &Taint) -> bool {
        // The keyed ones have the taint's key: only the effect and value remain to compare.
        let keyed = self
            .keys
            .get(&taint.key)
            .and_then(|i| self.keyed.get(i))
            .map_or(&[][..], Vec::as_slice);
        let value = Prefixed::new(&taint.value);
        keyed
            .iter()
            .any(|(t, v)| t.tolerates_effect_and(taint.effect, || *v == value))
            || self.any_key.iter().any(|t| t.tolerates(taint))
    }
}

/// `None`: passes; otherwise the taint that keeps the cluster out.
#[inline]
pub(super) fn filter<'c>(b: &BindingView<'_>, c: &ClusterView<'c>) -> Option<Failure<'c>> {
    if c.placed {
        return None;
    }
    b.judged
        .first_blocking(c.facts.taints)
        .and_then(|id| c.set.taint(id))
        .map(Failure::Taint)
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
