//! Whether a dequeued binding is scheduled at all (docs/rules/fleet.md §23), as Karmada's
//! `doScheduleBinding` (pkg/scheduler/scheduler.go) decides: the first trigger of
//! docs/rules/karmada.md §15.1 that holds ([`affinity_terms::trigger`]), or why none does.

use alloc::rc::Rc;
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

/// The names of the clusters being deleted among `members`, which [`trigger`] reads: found
/// once for a drain rather than once per binding.
pub fn deleting(members: &[Rc<Member>]) -> Vec<&str> {
    members
        .iter()
        .filter(|m| m.deleting)
        .map(|m| m.name.as_str())
        .collect()
}

/// The first trigger of `doScheduleBinding` that holds for `e`, given the names of the
/// clusters being deleted (`deleting`, usually none).
pub fn trigger(e: &Entry, deleting: &[&str], settings: &Settings) -> Result<Trigger, Skip> {
    let s = &e.state;
    let input = TriggerInput {
        placement: e.rules.placement(),
        applied: s.applied.as_ref().map(|r| r.placement()),
        observed: &s.observed_affinity,
        replicas: e.workload.replicas,
        has_replica_requirements: e.workload.requests.is_some() || e.workload.node_claim.is_some(),
        has_components: !e.workload.components.is_empty(),
        multiple_pod_templates: settings
            .gate(crate::karmada::gates::Gate::MultiplePodTemplatesScheduling),
        previous: &s.clusters,
        reschedule_triggered_at: s.reschedule_triggered_at,
        last_scheduled: s.last_scheduled,
        placed_cluster_deleting: deleting.iter().any(|&d| s.clusters.contains_key(d)),
    };
    affinity_terms::trigger(&input).ok_or(Skip::NoTrigger)
}

#[cfg(test)]
mod tests {
    use alloc::rc::Rc;

    use super::{Skip, Trigger};
    use crate::karmada::fleet::entry::Rules;
    use crate::karmada::fleet::events::{Event, WhyNot};
    use crate::karmada::fleet::health::Readiness;
    use crate::karmada::fleet::plan::{plan, Outcome, Unchanged};
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::{Pass, Settings};
    use crate::karmada::Strategy;

    // `doScheduleBinding` (pkg/scheduler/scheduler.go): a cluster going NotReady adds the
    // not-ready NoSchedule taint (`taintClusterByCondition`), a spec change that enqueues every
    // binding its affinity matches (`enqueueAffectedBindings`); a Divided binding then finds no
    // trigger, a Duplicated one is scheduled and keeps the tainted cluster it already uses
    // (TaintToleration exempts previous clusters).
    #[test]
    fn a_cluster_down_leaves_divided_bindings_and_keeps_duplicated_ones() {
        let f = two(alloc::vec![
            entry("div", Strategy::DynamicWeight, 6, &[("a", 3), ("b", 3)]),
            entry("dup", Strategy::Duplicated, 2, &[("a", 2), ("b", 2)]),
        ]);
        let (p, after_fleet) = plan(
            &f,
            alloc::vec![Event::ClusterDown {
                cluster: "a".into()
            }],
        )
        .unwrap();
        let skipped = Pass::Skipped {
            why: Skip::NoTrigger,
        };
        assert_eq!(
            passes(&p, 0),
            [
                ("div", &skipped),
                ("dup", &scheduled(Trigger::EveryReconcile))
            ]
        );
        assert!(matches!(
            outcome(&p, "div"),
            Outcome::Unchanged {
                why: Unchanged::NoTrigger { .. }
            }
        ));
        assert_eq!(after(&p, "dup"), placed(&[("a", 2), ("b", 2)]));
        assert_eq!(after_fleet.health()[0].ready, Readiness::NotReady);
        assert_eq!(
            after_fleet.members()[0].taints[0].key,
            crate::karmada::fleet::health::NOT_READY
        );
    }

    // `IsBindingReplicasChanged`: a Divided binding whose replicas change is scheduled (Steady
    // scale-up keeps its placements); the same replicas change nothing.
    #[test]
    fn scaling_reschedules_and_the_same_replicas_do_not() {
        let f = divided_over_two(4);
        let scale = |replicas| {
            run(
                &f,
                alloc::vec![Event::Scale {
                    binding: id("div"),
                    replicas
                }],
            )
        };
        let p = scale(8);
        assert_eq!(
            outcome(&p, "div"),
            &Outcome::Changed {
                trigger: Trigger::ReplicasChanged
            }
        );
        assert_eq!(p.bindings[0].after.values().sum::<i64>(), 8);
        assert!(p.bindings[0].after.get("a").unwrap() >= &2);
        let p = scale(4);
        assert_eq!(
            outcome(&p, "div"),
            &Outcome::Unchanged {
                why: Unchanged::NotEnqueued {
                    why: WhyNot::SpecUnchanged
                }
            }
        );
    }

    // `placementChanged` (pkg/scheduler/helper.go): a policy edit is scheduled in Steady mode, so
    // Aggregated → DynamicWeight keeps {a: 6} (docs/rules/karmada.md §4: assigned = replicas).
    #[test]
    fn a_policy_edit_is_scheduled_in_steady_mode() {
        let f = two(alloc::vec![entry(
            "w",
            Strategy::Aggregated,
            6,
            &[("a", 6)]
        )]);
        let rules = Rc::new(Rules::of(Strategy::DynamicWeight));
        let (p, f2) = plan(
            &f,
            alloc::vec![Event::Place {
                binding: id("w"),
                rules: rules.clone(),
                policy: None,
                groups: None,
                failover: None,
                app_failover: None,
            }],
        )
        .unwrap();
        assert_eq!(
            outcome(&p, "w"),
            &Outcome::Unchanged {
                why: Unchanged::SameResult {
                    trigger: Trigger::PlacementChanged
                }
            }
        );
        assert_eq!(f2.entries[0].state.applied, Some(rules));
    }

    // WorkloadRebalancer (`triggerReschedule`, then `RescheduleRequired`): a Fresh pass
    // redistributes a Divided binding over a cluster that joined later; a rebalancer in the same
    // second as the last schedule does not (the trigger must be strictly later).
    #[test]
    fn a_rebalancer_redistributes_in_fresh_mode() {
        let f = fleet(
            alloc::vec![member("a", 0), member("b", 0), member("c", 6)],
            alloc::vec![entry(
                "w",
                Strategy::DynamicWeight,
                6,
                &[("a", 3), ("b", 3)]
            )],
            Settings::default(),
        );
        let p = run(
            &f,
            alloc::vec![Event::Rebalance {
                bindings: alloc::vec![id("w")]
            }],
        );
        assert_eq!(
            outcome(&p, "w"),
            &Outcome::Changed {
                trigger: Trigger::RescheduleRequired
            }
        );
        assert_eq!(p.bindings[0].after.get("c"), Some(&3));
        // Scheduled at -100; a rebalancer at -100 is not later.
        let mut g = f.clone();
        g.now = -100;
        let (p, _) = plan(
            &g,
            alloc::vec![Event::Rebalance {
                bindings: alloc::vec![id("w")]
            }],
        )
        .unwrap();
        assert!(matches!(
            outcome(&p, "w"),
            Outcome::Unchanged {
                why: Unchanged::NoTrigger { .. }
            }
        ));
    }
}
