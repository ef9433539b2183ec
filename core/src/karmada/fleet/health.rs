//! A member cluster's health and the taints it brings (docs/rules/fleet.md §24): the Ready
//! condition, the cluster controller's `not-ready` and `unreachable` NoSchedule taints
//! (`taintClusterByCondition`, pkg/controllers/cluster/cluster_controller.go),
//! `karmadactl cordon`'s taint, and when each taint was added (the taint manager reads
//! `timeAdded`, §25). ClusterTaintPolicies are [`super::taint_policy`]'s.

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::karmada::cluster::Member;
use crate::selector::node::{Taint, TaintEffect};

/// `cluster.karmada.io/not-ready`: Ready is False, or never reported.
pub const NOT_READY: &str = "cluster.karmada.io/not-ready";
/// `cluster.karmada.io/unreachable`: Ready is Unknown (a Pull cluster's lease expired).
pub const UNREACHABLE: &str = "cluster.karmada.io/unreachable";
/// `cluster.karmada.io/unschedulable`: `karmadactl cordon`.
pub const UNSCHEDULABLE: &str = "cluster.karmada.io/unschedulable";

/// The cluster's `Ready` condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Readiness {
    #[default]
    Ready,
    /// `Ready=False` (a Push cluster that cannot be reached, or an unhealthy API server).
    NotReady,
    /// `Ready=Unknown` (a Pull cluster whose agent stopped renewing its lease).
    Unknown,
    /// No condition yet (a cluster that just joined).
    Never,
}

/// A cluster's health as the controllers keep it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Health {
    pub ready: Readiness,
    /// A Pull cluster (karmada-agent): unreachable makes it Unknown, not False (§24.1).
    pub pull: bool,
    /// When taints were added (`timeAdded`), by key and effect; a taint not listed has none.
    pub added: Vec<TaintTime>,
}

/// When a taint was added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaintTime {
    pub key: crate::Name,
    pub effect: TaintEffect,
    pub at: i64,
}

impl Health {
    /// `timeAdded` of the taint with `key` and `effect`.
    pub fn added_at(&self, key: &str, effect: TaintEffect) -> Option<i64> {
        self.added
            .iter()
            .find(|t| t.key == key && t.effect == effect)
            .map(|t| t.at)
    }
}

/// Add `taint` unless one of the same key and effect is there (appended at the end, with
/// `timeAdded = at` when given). Answers whether the taints changed.
pub fn add_taint(m: &mut Member, h: &mut Health, taint: Taint, at: Option<i64>) -> bool {
    if m.taints
        .iter()
        .any(|t| t.key == taint.key && t.effect == taint.effect)
    {
        return false;
    }
    h.added
        .retain(|t| !(t.key == taint.key && t.effect == taint.effect));
    if let Some(at) = at {
        h.added.push(TaintTime {
            key: taint.key.as_str().into(),
            effect: taint.effect,
            at,
        });
    }
    m.taints.push(taint);
    true
}

/// Remove the first taint of `key` and `effect`. Answers whether the taints changed.
pub fn remove_taint(m: &mut Member, h: &mut Health, key: &str, effect: TaintEffect) -> bool {
    let Some(i) = m
        .taints
        .iter()
        .position(|t| t.key == key && t.effect == effect)
    else {
        return false;
    };
    m.taints.remove(i);
    h.added.retain(|t| !(t.key == key && t.effect == effect));
    true
}

fn no_schedule(key: &str) -> Taint {
    Taint {
        key: key.into(),
        value: Default::default(),
        effect: TaintEffect::NoSchedule,
    }
}

/// Set the cluster's readiness and reconcile its taints as the cluster controller does
/// (§24.2's table) at time `now`. Answers each taint added (`true`) or removed (`false`): a
/// spec change, for which the scheduler enqueues bindings (§21.2). The ClusterTaintPolicies
/// are the caller's to reconcile next ([`super::taint_policy::reconcile`], §24.3).
pub fn set_ready(m: &mut Member, h: &mut Health, ready: Readiness, now: i64) -> Vec<(Taint, bool)> {
    h.ready = ready;
    let (add, remove) = match ready {
        Readiness::NotReady | Readiness::Never => (Some(NOT_READY), alloc::vec![UNREACHABLE]),
        Readiness::Unknown => (Some(UNREACHABLE), alloc::vec![NOT_READY]),
        Readiness::Ready => (None, alloc::vec![NOT_READY, UNREACHABLE]),
    };
    let mut changes = Vec::new();
    if let Some(key) = add {
        if add_taint(m, h, no_schedule(key), Some(now)) {
            changes.push((no_schedule(key), true));
        }
    }
    for key in remove {
        if remove_taint(m, h, key, TaintEffect::NoSchedule) {
            changes.push((no_schedule(key), false));
        }
    }
    changes
}

/// What a cluster that cannot be reached reads as: `Ready=Unknown` for a Pull cluster whose
/// lease expires, `Ready=False` for a Push cluster (its probe fails; quirk of §24.2).
pub fn unreachable(h: &Health) -> Readiness {
    if h.pull {
        Readiness::Unknown
    } else {
        Readiness::NotReady
    }
}

/// `karmadactl cordon`'s taint (no `timeAdded`).
pub fn cordon_taint() -> Taint {
    no_schedule(UNSCHEDULABLE)
}

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;

    use crate::karmada::fleet::events::Event;
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::triggers::{Skip, Trigger};
    use crate::karmada::fleet::Pass;
    use crate::karmada::Strategy;

    // A new Duplicated binding does not get a NotReady cluster (TaintToleration); recovery
    // removes the taint (`taintClusterByCondition` with Ready=True) and the next Duplicated pass
    // adds it back.
    #[test]
    fn a_recovered_cluster_is_added_back_to_duplicated_bindings_only() {
        let f = two(alloc::vec![entry(
            "div",
            Strategy::DynamicWeight,
            6,
            &[("b", 6)]
        )]);
        let events = alloc::vec![
            Event::ClusterDown {
                cluster: "a".into()
            },
            Event::Create {
                entry: Box::new(entry("dup", Strategy::Duplicated, 2, &[])),
            },
            Event::Advance { seconds: 60 },
            Event::ClusterUp {
                cluster: "a".into()
            },
        ];
        let p = run(&f, events);
        // Both events of time 0 enqueue before the scheduler runs: div (the taint) finds no
        // trigger, dup (created) is scheduled without a.
        let skipped = Pass::Skipped {
            why: Skip::NoTrigger,
        };
        assert_eq!(
            passes(&p, 1),
            [
                ("div", &skipped),
                ("dup", &scheduled(Trigger::PlacementChanged)),
                // Its write was a new generation: taken again, to the same list (§23.4).
                ("dup", &scheduled(Trigger::EveryReconcile))
            ]
        );
        // The pass after recovery adds a back.
        assert_eq!(after(&p, "dup"), placed(&[("a", 2), ("b", 2)]));
        assert_eq!(after(&p, "div"), placed(&[("b", 6)]));
    }

    // `karmadactl cordon` (pkg/karmadactl/cordon): the unschedulable NoSchedule taint keeps new
    // placements out, existing ones stay.
    #[test]
    fn a_cordoned_cluster_keeps_its_replicas_and_takes_no_new_ones() {
        let f = divided_over_two(4);
        let events = alloc::vec![
            Event::Cordon {
                cluster: "a".into()
            },
            Event::Create {
                entry: Box::new(entry("new", Strategy::DynamicWeight, 4, &[])),
            },
        ];
        let p = run(&f, events);
        assert_eq!(after(&p, "div"), placed(&[("a", 2), ("b", 2)]));
        assert_eq!(after(&p, "new"), placed(&[("b", 4)]));
    }
}
