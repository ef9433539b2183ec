//! The fleet's rules, each checked against what Karmada's code does (docs/rules/fleet.md).

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::capacity::Shared;
use super::entry::{Condition, Entry, Id, Rules, State, Workload};
use super::events::{Change, Event, Why, WhyNot};
use super::eviction::Due;
use super::health::{Health, Readiness};
use super::plan::{plan, plan_with, Outcome, Plan, Unchanged};
use super::queue::Queue;
use super::taint_policy::{ClusterTaintPolicy, MatchCondition, Operator};
use super::triggers::{Skip, Trigger};
use super::{Fleet, Pass, Settings};
use crate::estimate::general::ResourceSummary;
use crate::karmada::cluster::{Clusters, Member};
use crate::karmada::gates::Gate;
use crate::karmada::Strategy;
use crate::resource::ResourceList;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::{Taint, TaintEffect, Toleration, TolerationOperator};

/// A cluster with `cpu` free CPUs (in cores) and plenty of pod slots.
pub(super) fn member(name: &str, cpu: u64) -> Member {
    Member {
        name: name.into(),
        resource_summary: Some(ResourceSummary {
            allocatable: ResourceList::from_units([("cpu", cpu * 1000), ("pods", 110)]),
            ..ResourceSummary::default()
        }),
        ..Member::default()
    }
}

pub(super) fn id(name: &str) -> Id {
    Id {
        kind: super::BindingKind::ResourceBinding,
        namespace: "default".into(),
        name: name.into(),
    }
}

/// A Deployment of `replicas` × 1 CPU under `strategy`, placed at `clusters` (scheduled
/// before, with that placement applied, when `clusters` is not empty).
pub(super) fn entry(
    name: &str,
    strategy: Strategy,
    replicas: i64,
    clusters: &[(&str, i64)],
) -> Entry {
    let rules = Rc::new(Rules::of(strategy));
    let placed: BTreeMap<String, i64> = clusters.iter().map(|&(c, n)| (c.into(), n)).collect();
    let scheduled = !placed.is_empty();
    Entry {
        id: id(name),
        priority: 0,
        claimed: true,
        policy: None,
        state: State {
            clusters: placed,
            applied: scheduled.then(|| rules.clone()),
            last_scheduled: scheduled.then_some(-100),
            condition: if scheduled {
                Condition::Success
            } else {
                Condition::Pending
            },
            ..State::default()
        },
        rules,
        workload: Workload {
            replicas,
            requests: Some(ResourceList::from_units([("cpu", 1000)])),
            ..Workload::default()
        },
        uid: name.into(),
        groups: None,
        failover: None,
        app_failover: None,
    }
}

pub(super) fn fleet(members: Vec<Member>, entries: Vec<Entry>, settings: Settings) -> Fleet {
    let clusters = members
        .into_iter()
        .map(|m| (m, Health::default()))
        .collect();
    Fleet::new(clusters, entries, settings).unwrap()
}

/// Clusters a and b, 10 CPUs each, default settings.
fn two(entries: Vec<Entry>) -> Fleet {
    fleet(
        alloc::vec![member("a", 10), member("b", 10)],
        entries,
        Settings::default(),
    )
}

/// The plan of `events`.
fn run(f: &Fleet, events: Vec<Event>) -> Plan {
    plan(f, events).unwrap().0
}

/// The passes of step `k`, by binding name.
fn passes(p: &Plan, k: usize) -> Vec<(&str, &Pass)> {
    p.steps[k]
        .passes
        .iter()
        .map(|n| (n.binding.name.as_str(), &n.why))
        .collect()
}

/// Why each binding step `k` enqueued was enqueued.
fn enqueued(p: &Plan, k: usize) -> Vec<(Id, Why)> {
    p.steps[k]
        .queued
        .enqueued
        .iter()
        .map(|n| (n.binding.clone(), n.why.clone()))
        .collect()
}

/// Why each binding step `k` left out was left out.
fn left(p: &Plan, k: usize) -> Vec<(Id, WhyNot)> {
    p.steps[k]
        .queued
        .not_enqueued
        .iter()
        .map(|n| (n.binding.clone(), n.why.clone()))
        .collect()
}

fn scheduled(trigger: Trigger) -> Pass {
    Pass::Scheduled {
        trigger,
        condition: Condition::Success,
    }
}

fn after(p: &Plan, name: &str) -> Vec<(String, i64)> {
    let b = p.bindings.iter().find(|b| b.id.name == name).unwrap();
    b.after.iter().map(|(c, &n)| (c.clone(), n)).collect()
}

fn outcome<'a>(p: &'a Plan, name: &str) -> &'a Outcome {
    &p.bindings
        .iter()
        .find(|b| b.id.name == name)
        .unwrap()
        .outcome
}

fn placed(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    pairs.iter().map(|&(c, n)| (c.into(), n)).collect()
}

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
        super::health::NOT_READY
    );
}

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

// `enqueueAffectedBindings`: a binding whose affinity selects neither the old nor the new
// cluster object is not enqueued.
#[test]
fn a_cluster_outside_the_affinity_enqueues_nothing() {
    let mut e = entry("only-b", Strategy::Duplicated, 1, &[("b", 1)]);
    e.rules = Rc::new((*e.rules).clone().with_affinity(ClusterAffinity {
        cluster_names: alloc::vec!["b".into()],
        ..ClusterAffinity::default()
    }));
    e.state.applied = Some(e.rules.clone());
    let f = two(alloc::vec![e]);
    let p = run(
        &f,
        alloc::vec![Event::Cordon {
            cluster: "a".into()
        }],
    );
    assert!(p.steps[0].queued.enqueued.is_empty());
    assert_eq!(
        outcome(&p, "only-b"),
        &Outcome::Unchanged {
            why: Unchanged::NotEnqueued {
                why: WhyNot::AffinityExcludes {
                    cluster: "a".into()
                }
            }
        }
    );
}

// `addCluster` enqueues nothing; the not-ready taint (the join) and its removal once the
// status controller reports Ready do, and only Duplicated bindings are scheduled
// (`doScheduleBinding`): a Divided binding does not follow a new cluster.
#[test]
fn a_joined_cluster_gets_duplicated_bindings_only() {
    let f = fleet(
        alloc::vec![member("a", 10)],
        alloc::vec![
            entry("div", Strategy::DynamicWeight, 6, &[("a", 6)]),
            entry("dup", Strategy::Duplicated, 2, &[("a", 2)]),
        ],
        Settings::default(),
    );
    let join = Event::Join {
        member: Box::new(member("c", 10)),
        health: Health::default(),
    };
    let p = run(&f, alloc::vec![join.clone()]);
    assert_eq!(after(&p, "dup"), placed(&[("a", 2)]), "not ready yet");
    for ready in [
        Event::ClusterUp {
            cluster: "c".into(),
        },
        Event::Reported {
            cluster: "c".into(),
            ready: Readiness::Ready,
        },
    ] {
        let p = run(&f, alloc::vec![join.clone(), ready]);
        assert_eq!(after(&p, "div"), placed(&[("a", 6)]));
        assert_eq!(after(&p, "dup"), placed(&[("a", 2), ("c", 2)]));
    }
    let p = run(
        &f,
        alloc::vec![
            join,
            Event::Reported {
                cluster: "c".into(),
                ready: Readiness::NotReady,
            },
        ],
    );
    assert_eq!(after(&p, "dup"), placed(&[("a", 2)]), "reported not ready");
}

// Unjoin: `deletionTimestamp` set; `HasTerminatingTargetClusters` reschedules a Divided
// binding placed there, and the filter pass skips the cluster being deleted.
#[test]
fn a_deleted_cluster_moves_divided_replicas() {
    let f = two(alloc::vec![entry(
        "div",
        Strategy::DynamicWeight,
        6,
        &[("a", 3), ("b", 3)]
    )]);
    let p = run(
        &f,
        alloc::vec![Event::Leave {
            cluster: "a".into()
        }],
    );
    assert_eq!(after(&p, "div"), placed(&[("b", 6)]));
    assert_eq!(
        outcome(&p, "div"),
        &Outcome::Changed {
            trigger: Trigger::PlacedClusterDeleting
        }
    );
    assert_eq!(p.summary.moved_replicas, 3);
}

// `karmadactl cordon` (pkg/karmadactl/cordon): the unschedulable NoSchedule taint keeps new
// placements out, existing ones stay.
#[test]
fn a_cordoned_cluster_keeps_its_replicas_and_takes_no_new_ones() {
    let f = two(alloc::vec![entry(
        "div",
        Strategy::DynamicWeight,
        4,
        &[("a", 2), ("b", 2)]
    )]);
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

fn tolerating(rules: Rules, seconds: Option<i64>) -> Rules {
    rules.with_tolerations(alloc::vec![(
        Toleration {
            key: "maint".into(),
            operator: TolerationOperator::Exists,
            value: Default::default(),
            effect: Some(TaintEffect::NoExecute),
        },
        seconds,
    )])
}

/// A Divided binding of 6 replicas placed {a: 4, b: 2} under `rules(…)`, the taint manager
/// evicting when `eviction`.
fn on_a_and_b(eviction: bool, rules: impl FnOnce(Rules) -> Rules) -> Fleet {
    let mut e = entry("div", Strategy::DynamicWeight, 6, &[("a", 4), ("b", 2)]);
    e.rules = Rc::new(rules((*e.rules).clone()));
    e.state.applied = Some(e.rules.clone());
    let settings = Settings {
        no_execute_taint_eviction: eviction,
        ..Settings::default()
    }
    .with(Gate::Failover, eviction);
    fleet(
        alloc::vec![member("a", 10), member("b", 10)],
        alloc::vec![e],
        settings,
    )
}

fn no_execute(key: &str) -> Taint {
    Taint {
        key: key.into(),
        value: Default::default(),
        effect: TaintEffect::NoExecute,
    }
}

fn maintenance(eviction: bool, seconds: Option<i64>, timed: bool) -> Plan {
    let f = on_a_and_b(eviction, |r| tolerating(r, seconds));
    let taint = no_execute("maint");
    let events = alloc::vec![
        Event::Taint {
            cluster: "a".into(),
            taint,
            timed,
        },
        Event::Advance { seconds: 30 },
        Event::Advance { seconds: 30 },
    ];
    plan(&f, events).unwrap().0
}

// The taint manager (`syncBindingEviction`, `needEvictionWithCurrentTime`): a tolerated
// NoExecute taint evicts at timeAdded + tolerationSeconds; the eviction removes the cluster
// (`GracefulEvictCluster`), Σ < replicas triggers a Steady scale-up elsewhere, and
// ClusterEviction keeps the evicted cluster out while its task exists.
#[test]
fn a_tolerated_no_execute_taint_evicts_when_the_seconds_run_out() {
    let p = maintenance(true, Some(60), true);
    assert_eq!(
        left(&p, 1),
        alloc::vec![(
            id("div"),
            WhyNot::Tolerated {
                cluster: "a".into(),
                due: Due::At(60)
            }
        )]
    );
    assert_eq!(
        enqueued(&p, 2),
        alloc::vec![(
            id("div"),
            Why::SpecChanged {
                change: Change::Evicted("a".into())
            }
        )]
    );
    assert_eq!(after(&p, "div"), placed(&[("b", 6)]));
    assert_eq!(
        outcome(&p, "div"),
        &Outcome::Changed {
            trigger: Trigger::ReplicasChanged
        }
    );
}

// Without gate Failover and --enable-no-execute-taint-eviction nothing is evicted; a taint
// without timeAdded (`karmadactl taint`) tolerated with seconds is tolerated forever.
#[test]
fn no_eviction_by_default_nor_for_untimed_taints() {
    let p = maintenance(false, Some(60), true);
    assert_eq!(after(&p, "div"), placed(&[("a", 4), ("b", 2)]));
    let p = maintenance(true, Some(60), false);
    assert_eq!(after(&p, "div"), placed(&[("a", 4), ("b", 2)]));
    assert!(left(&p, 2).contains(&(
        id("div"),
        WhyNot::Tolerated {
            cluster: "a".into(),
            due: Due::Never
        }
    )));
}

// An untolerated NoExecute taint evicts at once.
#[test]
fn an_untolerated_no_execute_taint_evicts_at_once() {
    let f = on_a_and_b(true, |r| r);
    let taint = no_execute("x");
    let events = alloc::vec![Event::Taint {
        cluster: "a".into(),
        taint,
        timed: false,
    }];
    let (p, f2) = plan(&f, events).unwrap();
    assert_eq!(after(&p, "div"), placed(&[("b", 6)]));
    assert_eq!(f2.entries[0].state.evictions[0].from_cluster, "a");
    assert_eq!(f2.entries[0].state.evictions[0].replicas, Some(4));
}

// `IsBindingReplicasChanged`: a Divided binding whose replicas change is scheduled (Steady
// scale-up keeps its placements); the same replicas change nothing.
#[test]
fn scaling_reschedules_and_the_same_replicas_do_not() {
    let f = two(alloc::vec![entry(
        "div",
        Strategy::DynamicWeight,
        4,
        &[("a", 2), ("b", 2)]
    )]);
    let p = run(
        &f,
        alloc::vec![Event::Scale {
            binding: id("div"),
            replicas: 8
        }],
    );
    assert_eq!(
        outcome(&p, "div"),
        &Outcome::Changed {
            trigger: Trigger::ReplicasChanged
        }
    );
    assert_eq!(p.bindings[0].after.values().sum::<i64>(), 8);
    assert!(p.bindings[0].after.get("a").unwrap() >= &2);
    let p = run(
        &f,
        alloc::vec![Event::Scale {
            binding: id("div"),
            replicas: 4
        }],
    );
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

// A status change (capacity) enqueues nothing (`updateCluster` ignores status).
#[test]
fn a_capacity_change_enqueues_nothing() {
    let f = fleet(
        alloc::vec![member("a", 10)],
        alloc::vec![entry("w", Strategy::Duplicated, 1, &[("a", 1)])],
        Settings::default(),
    );
    let summary = member("a", 1).resource_summary.unwrap();
    let p = run(
        &f,
        alloc::vec![Event::Capacity {
            cluster: "a".into(),
            summary: Box::new(summary)
        }],
    );
    assert!(p.steps[0].queued.enqueued.is_empty());
    assert!(p.steps[0].passes.is_empty());
}

// Deleting the claiming policy with no other match (`handlePolicyDeletion`): the binding
// keeps its clusters and the scheduler no longer sees it (`resourceBindingEventFilter`).
#[test]
fn an_unclaimed_binding_keeps_its_clusters_and_is_never_scheduled() {
    let f = fleet(
        alloc::vec![member("a", 10)],
        alloc::vec![entry("w", Strategy::Duplicated, 1, &[("a", 1)])],
        Settings::default(),
    );
    let events = alloc::vec![
        Event::Unclaim { binding: id("w") },
        Event::Leave {
            cluster: "a".into()
        },
    ];
    let p = run(&f, events);
    assert_eq!(after(&p, "w"), placed(&[("a", 1)]));
    assert!(p.steps[1].queued.enqueued.is_empty());
}

// The active queue's `Less`: a higher priority is scheduled first, and so takes the capacity
// first under SchedulingOvercommitProtection.
#[test]
fn priority_orders_a_burst() {
    let mut settings = Settings::default();
    settings
        .feature_gates
        .set(Gate::SchedulingOvercommitProtection, true);
    settings
        .feature_gates
        .set(Gate::PriorityBasedScheduling, true);
    let f = fleet(alloc::vec![member("a", 6)], Vec::new(), settings);
    let mut high = entry("high", Strategy::Aggregated, 6, &[]);
    high.priority = 100;
    let events = alloc::vec![
        Event::Create {
            entry: Box::new(entry("low", Strategy::Aggregated, 6, &[]))
        },
        Event::Create {
            entry: Box::new(high)
        },
    ];
    let p = run(&f, events);
    assert_eq!(passes(&p, 1)[0].0, "high");
    assert_eq!(after(&p, "high"), placed(&[("a", 6)]));
    assert!(matches!(outcome(&p, "low"), Outcome::Unschedulable { .. }));
}

/// `Ready` with `op` `True`.
fn ready(op: Operator) -> MatchCondition {
    MatchCondition {
        condition_type: "Ready".into(),
        operator: op,
        status_values: alloc::vec!["True".into()],
    }
}

// A recorded sequence: a burst of creations, a cluster failure with a ClusterTaintPolicy's
// NoExecute taint and the taint manager on, the eviction, and the recovery.
#[test]
fn replay_burst_failure_recovery() {
    let settings = Settings {
        no_execute_taint_eviction: true,
        feature_gates: crate::karmada::gates::FeatureGates::parse("Failover=true").unwrap(),
        taint_policies: alloc::vec![ClusterTaintPolicy {
            name: "failure".into(),
            target_clusters: None,
            add_on_conditions: alloc::vec![ready(Operator::NotIn)],
            remove_on_conditions: alloc::vec![ready(Operator::In)],
            taints: alloc::vec![Taint {
                key: "failure".into(),
                value: Default::default(),
                effect: TaintEffect::NoExecute,
            }],
        }],
        ..Settings::default()
    };
    let f = fleet(
        alloc::vec![member("a", 8), member("b", 8)],
        Vec::new(),
        settings,
    );
    let mut tolerant = entry("tolerant", Strategy::DynamicWeight, 4, &[]);
    tolerant.rules = Rc::new((*tolerant.rules).clone().with_tolerations(alloc::vec![(
        Toleration {
            key: "failure".into(),
            operator: TolerationOperator::Exists,
            value: Default::default(),
            effect: Some(TaintEffect::NoExecute),
        },
        Some(300),
    )]));
    let events = alloc::vec![
        Event::Create {
            entry: Box::new(entry("web", Strategy::DynamicWeight, 4, &[]))
        },
        Event::Create {
            entry: Box::new(entry("api", Strategy::Duplicated, 1, &[]))
        },
        Event::Create {
            entry: Box::new(tolerant)
        },
        Event::Advance { seconds: 60 },
        Event::ClusterDown {
            cluster: "a".into()
        },
        Event::Advance { seconds: 60 },
        Event::ClusterUp {
            cluster: "a".into()
        },
    ];
    let (p, f2) = plan(&f, events).unwrap();
    // The burst: three creations scheduled in creation order after the last of them.
    let burst: Vec<&str> = passes(&p, 2).iter().map(|&(n, _)| n).collect();
    // api (Duplicated) is taken again: its write was a new generation (§23.4).
    assert_eq!(burst, ["web", "api", "tolerant", "api"]);
    // The failure evicts web (no toleration) and api from a; tolerant stays (300 s).
    assert_eq!(after(&p, "web"), placed(&[("b", 4)]));
    assert_eq!(after(&p, "api"), placed(&[("b", 1)]));
    assert_eq!(after(&p, "tolerant"), placed(&[("a", 2), ("b", 2)]));
    assert!(left(&p, 4).contains(&(
        id("tolerant"),
        WhyNot::Tolerated {
            cluster: "a".into(),
            due: Due::At(360)
        }
    )));
    // Recovery removes the taints; the graceful eviction task (600 s) still keeps api off a.
    assert!(f2.members()[0].taints.is_empty());
    assert_eq!(f2.entries[1].state.evictions.len(), 1);
}

// `updateCluster` checks the old and the new object: a Duplicated binding selecting
// `tier=gold` is enqueued when a cluster loses the label, and the schedule drops the
// cluster (ClusterAffinity does not exempt placed clusters, §12.5).
#[test]
fn a_relabelled_cluster_leaves_duplicated_bindings_that_no_longer_select_it() {
    let gold: crate::selector::label::Labels =
        [("tier".into(), "gold".into())].into_iter().collect();
    let mut a = member("a", 10);
    a.labels = gold.clone();
    let mut b = member("b", 10);
    b.labels = gold.clone();
    let mut e = entry("dup", Strategy::Duplicated, 1, &[("a", 1), ("b", 1)]);
    e.rules = Rc::new((*e.rules).clone().with_affinity(ClusterAffinity {
        label_selector: Some(crate::selector::label::LabelSelector {
            match_labels: gold,
            ..Default::default()
        }),
        ..ClusterAffinity::default()
    }));
    e.state.applied = Some(e.rules.clone());
    let f = fleet(alloc::vec![a, b], alloc::vec![e], Settings::default());
    let p = run(
        &f,
        alloc::vec![Event::Relabel {
            cluster: "a".into(),
            labels: Default::default()
        }],
    );
    assert_eq!(
        enqueued(&p, 0),
        [(
            id("dup"),
            Why::ClusterChanged {
                cluster: "a".into()
            }
        )]
    );
    assert_eq!(after(&p, "dup"), placed(&[("b", 1)]));
}

// `scheduleResourceBinding`: a FitError still patches the result, `spec.clusters` empty and
// the placement applied, so the next event finds no "placement changed".
#[test]
fn a_fit_error_writes_empty_clusters_and_the_applied_placement() {
    let mut e = entry("w", Strategy::Duplicated, 1, &[]);
    e.rules = Rc::new((*e.rules).clone().with_affinity(ClusterAffinity {
        cluster_names: alloc::vec!["a".into()],
        ..ClusterAffinity::default()
    }));
    let f = two(Vec::new());
    let events = alloc::vec![
        Event::Cordon {
            cluster: "a".into()
        },
        Event::Create { entry: Box::new(e) },
    ];
    let (p, g) = plan(&f, events).unwrap();
    assert!(matches!(
        outcome(&p, "w"),
        Outcome::Unschedulable {
            condition: Condition::NoClusterFit(_)
        }
    ));
    assert!(g.entries[0].state.clusters.is_empty());
    assert_eq!(
        g.entries[0].state.applied.as_ref(),
        Some(&g.entries[0].rules)
    );
}

// Bad input is an error at the field, never a panic: an unknown cluster or binding, a
// cluster joining under a name already taken.
#[test]
fn unknown_names_are_errors_at_their_field() {
    let f = two(Vec::new());
    let err = plan(
        &f,
        alloc::vec![Event::ClusterDown {
            cluster: "nowhere".into()
        }],
    )
    .unwrap_err();
    assert_eq!(err.code(), crate::ErrorCode::UnknownValue);
    assert_eq!(err.field().text(), "cluster");
    let err = plan(
        &f,
        alloc::vec![Event::Scale {
            binding: id("none"),
            replicas: 1
        }],
    )
    .unwrap_err();
    assert_eq!(err.field().text(), "binding");
    let join = Event::Join {
        member: Box::new(member("a", 1)),
        health: Health::default(),
    };
    assert_eq!(
        plan(&f, alloc::vec![join]).unwrap_err().code(),
        crate::ErrorCode::DuplicateName
    );
}

// The plan as JSON: camelCase, each binding's outcome tagged, each step's bindings named.
#[test]
fn the_plan_reads_as_json() {
    let f = two(alloc::vec![entry(
        "div",
        Strategy::DynamicWeight,
        6,
        &[("a", 3), ("b", 3)]
    )]);
    let p = run(
        &f,
        alloc::vec![Event::Leave {
            cluster: "a".into()
        }],
    );
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(v["bindings"][0]["outcome"], "changed");
    assert_eq!(v["bindings"][0]["trigger"], "placedClusterDeleting");
    assert_eq!(v["bindings"][0]["after"]["b"], 6);
    assert_eq!(v["steps"][0]["enqueued"][0]["binding"]["name"], "div");
    assert_eq!(v["steps"][0]["enqueued"][0]["reason"], "clusterChanged");
    assert_eq!(v["steps"][0]["passes"][0]["pass"], "scheduled");
    assert_eq!(v["summary"]["movedReplicas"], 3);
    assert_eq!(v["clusters"][1]["after"]["replicas"], 6);
}

/// The worker as if the cluster set were compiled afresh for every binding (from the members,
/// with every assumption written back at once): what the drain's one reused set must agree
/// with.
fn drain_fresh(f: &mut Fleet, queue: &mut Queue) -> Vec<(usize, Pass, bool)> {
    let protect = f.settings.gate(Gate::SchedulingOvercommitProtection);
    let mut out = Vec::new();
    while let Some(b) = queue.pop() {
        let mut touched = Vec::new();
        {
            let Fleet {
                members,
                entries,
                assumed,
                assumed_at,
                waits,
                settings,
                now,
                ..
            } = &mut *f;
            let Some(e) = entries.get_mut(b).map(Rc::make_mut) else {
                continue;
            };
            let mut clusters = Clusters::new(members);
            let (pass, written) = match super::triggers::trigger(e, members, settings) {
                Err(why) => (Pass::Skipped { why }, None),
                Ok(t) => super::decide(e, t, &clusters, settings, *now, None),
            };
            let next = super::Next::after(e, &pass, written, protect);
            waits.note(b, queue.fresh(b), pass.failure(), next.changed, *now);
            if next.again {
                queue.push(b, e.priority);
            }
            out.push((b, pass, next.changed));
            if let Some(before) = next.assume {
                let shared = Shared {
                    assumed,
                    clusters: &mut clusters,
                    touched: &mut touched,
                };
                shared.assume(b, e, &before);
                assumed_at.insert(b, *now);
            }
        }
        f.write_back(touched);
    }
    out
}

mod properties {
    use super::*;
    use crate::karmada::Strategy;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, prop_oneof, proptest, Just};
    use proptest::strategy::Strategy as _;

    fn strategy() -> impl proptest::strategy::Strategy<Value = Strategy> {
        prop_oneof![
            Just(Strategy::Duplicated),
            Just(Strategy::DynamicWeight),
            Just(Strategy::Aggregated),
            Just(Strategy::StaticWeight),
        ]
    }

    fn event(clusters: usize, bindings: usize) -> impl proptest::strategy::Strategy<Value = Event> {
        let c = move |i: usize| alloc::format!("c{}", i % clusters);
        let b = move |i: usize| id(&alloc::format!("w{}", i % bindings));
        (0usize..7, 0usize..64, 0i64..12).prop_map(move |(k, i, n)| match k {
            0 => Event::ClusterDown { cluster: c(i) },
            1 => Event::ClusterUp { cluster: c(i) },
            2 => Event::Cordon { cluster: c(i) },
            3 => Event::Leave { cluster: c(i) },
            4 => Event::Scale {
                binding: b(i),
                replicas: n,
            },
            5 => Event::Rebalance {
                bindings: alloc::vec![b(i)],
            },
            _ => Event::Advance { seconds: n },
        })
    }

    /// A fleet of clusters with `cpus`, and the events that create bindings of `specs`, let
    /// them be scheduled, then `events`.
    fn generated(
        cpus: &[u64],
        specs: &[(Strategy, i64)],
        seed: u64,
        protect: bool,
        events: Vec<Event>,
    ) -> (Fleet, Vec<Event>) {
        let members: Vec<Member> = cpus
            .iter()
            .enumerate()
            .map(|(i, &c)| member(&alloc::format!("c{i}"), c))
            .collect();
        let entries: Vec<Entry> = specs
            .iter()
            .enumerate()
            .map(|(i, &(s, r))| entry(&alloc::format!("w{i}"), s, r, &[]))
            .collect();
        let mut settings = Settings {
            seed,
            ..Settings::default()
        };
        settings
            .feature_gates
            .set(Gate::SchedulingOvercommitProtection, protect);
        let f = fleet(members, Vec::new(), settings);
        let mut all: Vec<Event> = entries
            .into_iter()
            .map(|e| Event::Create { entry: Box::new(e) })
            .collect();
        all.push(Event::Advance { seconds: 1 });
        all.extend(events);
        (f, all)
    }

    proptest! {
        // The one cluster set a drain compiles, its capacity replaced as bindings are
        // assumed, decides as a set compiled afresh for every binding: the same plan and the
        // same fleet afterwards.
        #[test]
        fn a_reused_cluster_set_plans_as_fresh_ones(
            cpus in proptest::collection::vec(0u64..12, 1..6),
            specs in proptest::collection::vec((strategy(), 1i64..10), 1..10),
            seed in 0u64..1000,
            protect in any::<bool>(),
            events in proptest::collection::vec(event(5, 10), 0..8),
        ) {
            let (f, all) = generated(&cpus, &specs, seed, protect, events);
            let reused = plan(&f, all.clone());
            let fresh = plan_with(&f, all, drain_fresh);
            match (reused, fresh) {
                (Ok((p, g)), Ok((q, h))) => {
                    prop_assert_eq!(p, q);
                    prop_assert_eq!(&g.entries, &h.entries);
                    prop_assert_eq!(g.members(), h.members());
                }
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "{:?} against {:?}", a.is_ok(), b.is_ok()),
            }
        }

        // Time passing is a loop of runs of the scheduler, each when a retry whose inputs
        // changed is due (§22.1): however long the time and however the fleet fails, it ends,
        // each run taking each binding at most once, and the runs within one advance no more
        // than the changes they can make (each binding succeeds, is emptied by a FitError and
        // has an assumption end at most once), plus one.
        #[test]
        fn time_passing_never_loops(
            cpus in proptest::collection::vec(0u64..6, 1..4),
            specs in proptest::collection::vec((strategy(), 1i64..12), 1..8),
            seed in 0u64..1000,
            protect in any::<bool>(),
            priority in any::<bool>(),
            events in proptest::collection::vec(event(3, 8), 0..5),
            long in 0i64..10_000_000,
        ) {
            let (mut f, mut all) = generated(&cpus, &specs, seed, protect, events);
            f.settings.feature_gates.set(Gate::PriorityBasedScheduling, priority);
            all.push(Event::Advance { seconds: long });
            let Ok((p, _)) = plan(&f, all) else {
                return Ok(());
            };
            let n = specs.len();
            for step in &p.steps {
                prop_assert!(step.passes.len() <= n * (3 * n + 2), "{}", step.passes.len());
            }
        }

        // Whatever happens: every binding has one outcome; a binding no pass took keeps its
        // clusters unless evicted; results name only the fleet's clusters; a successful
        // Divided schedule places exactly the replicas.
        #[test]
        fn every_binding_is_accounted_for(
            cpus in proptest::collection::vec(0u64..12, 1..5),
            specs in proptest::collection::vec((strategy(), 1i64..10), 1..8),
            seed in 0u64..1000,
            protect in any::<bool>(),
            events in proptest::collection::vec(event(4, 8), 0..6),
        ) {
            let (f, all) = generated(&cpus, &specs, seed, protect, events);
            let Ok((p, g)) = plan(&f, all) else {
                // Only an event naming a cluster or binding the fleet lacks fails.
                return Ok(());
            };
            let s = &p.summary;
            let evicted = p.bindings.iter().filter(|b| b.outcome == Outcome::Evicted).count();
            prop_assert_eq!(s.changed + s.unschedulable + s.unchanged + evicted, s.bindings);
            let names: Vec<&str> = g.members().iter().map(|m| m.name.as_str()).collect();
            for (b, e) in p.bindings.iter().zip(g.entries.iter()) {
                prop_assert!(b.after.keys().all(|c| names.contains(&c.as_str())));
                if matches!(b.outcome, Outcome::Unchanged { .. }) {
                    prop_assert_eq!(&b.before, &b.after);
                }
                let divided = e.rules.strategy() != Strategy::Duplicated;
                if divided && e.state.condition == Condition::Success && e.workload.replicas > 0 {
                    let placed: i64 = e.state.clusters.values().sum();
                    let evicted: i64 = e.state.evictions.iter().filter_map(|t| t.replicas).sum();
                    prop_assert!(placed == e.workload.replicas || evicted > 0 || placed == 0);
                }
            }
        }

        // A burst of new members of one group (§31.3), whatever their strategies and the
        // clusters' room: with anti-affinity no two members share a cluster; with affinity
        // every later member stays within the clusters of each earlier one that was placed.
        #[test]
        fn a_new_group_keeps_its_rule(
            cpus in proptest::collection::vec(0u64..12, 1..6),
            specs in proptest::collection::vec((strategy(), 1i64..6), 1..8),
            anti in any::<bool>(),
            seed in 0u64..1000,
        ) {
            let (mut f, _) = generated(&cpus, &[], seed, false, Vec::new());
            f.settings.feature_gates.set(Gate::WorkloadAffinity, true);
            let (affinity, apart) = if anti { ("", "g=1") } else { ("g=1", "") };
            let events = specs
                .iter()
                .enumerate()
                .map(|(i, &(s, r))| {
                    let mut e = grouped(&alloc::format!("w{i}"), s, &[], affinity, apart);
                    e.workload.replicas = r;
                    Event::Create { entry: Box::new(e) }
                })
                .collect();
            let (_, g) = plan(&f, events).unwrap();
            let placed: Vec<&BTreeMap<String, i64>> = g
                .entries
                .iter()
                .map(|e| &e.state.clusters)
                .filter(|c| !c.is_empty())
                .collect();
            for (k, later) in placed.iter().enumerate() {
                for earlier in &placed[..k] {
                    if anti {
                        prop_assert!(later.keys().all(|c| !earlier.contains_key(c)));
                    } else {
                        prop_assert!(later.keys().all(|c| earlier.contains_key(c)));
                    }
                }
            }
        }
    }
}

/// `entry` in the workload affinity groups `affinity` and `anti` (empty: none).
fn grouped(
    name: &str,
    strategy: Strategy,
    clusters: &[(&str, i64)],
    affinity: &str,
    anti: &str,
) -> Entry {
    let mut e = entry(name, strategy, 2, clusters);
    e.groups = Some(crate::karmada::filter::workload_affinity::Groups {
        affinity_group: affinity.into(),
        anti_affinity_group: anti.into(),
    });
    e
}

/// Clusters a, b and c (a has the most room, so a binding alone goes there), the gate on.
fn three(entries: Vec<Entry>, gate: bool) -> Fleet {
    let settings = Settings::default().with(Gate::WorkloadAffinity, gate);
    fleet(
        alloc::vec![member("a", 10), member("b", 8), member("c", 6)],
        entries,
        settings,
    )
}

fn burst_of(entries: Vec<Entry>) -> Vec<Event> {
    entries
        .into_iter()
        .map(|e| Event::Create { entry: Box::new(e) })
        .collect()
}

// WorkloadAffinity (`FilterWithContext`, workload_affinity.go) in queue order: the group's
// first binding is not blocked (no member has clusters yet); each later one reads where the
// earlier ones were just placed (the scheduler's cache of bindings being assigned), so the
// whole burst lands together even where another cluster has more room.
#[test]
fn an_affinity_group_follows_its_first_member_in_queue_order() {
    let f = three(Vec::new(), true);
    let mut first = grouped("w1", Strategy::Aggregated, &[], "app=shop", "");
    first.rules = Rc::new(
        Rules::of(Strategy::Aggregated).with_affinity(ClusterAffinity {
            cluster_names: alloc::vec!["c".into()],
            ..ClusterAffinity::default()
        }),
    );
    let p = run(
        &f,
        burst_of(alloc::vec![
            first,
            grouped("w2", Strategy::Aggregated, &[], "app=shop", ""),
            grouped("w3", Strategy::Duplicated, &[], "app=shop", ""),
        ]),
    );
    assert_eq!(after(&p, "w1"), placed(&[("c", 2)]));
    assert_eq!(after(&p, "w2"), placed(&[("c", 2)]));
    assert_eq!(after(&p, "w3"), placed(&[("c", 2)]));
    // Gate off: the group means nothing, w2 takes the cluster with the most room.
    let off = run(
        &three(Vec::new(), false),
        burst_of(alloc::vec![grouped(
            "w2",
            Strategy::Aggregated,
            &[],
            "app=shop",
            ""
        )]),
    );
    assert_eq!(after(&off, "w2"), placed(&[("a", 2)]));
}

// WorkloadAntiAffinity (workload_anti_affinity.go): each member avoids every cluster another
// member targets; with no cluster left, the FitError names the plugin's reason for each.
#[test]
fn an_anti_affinity_group_spreads_and_then_does_not_fit() {
    let f = three(Vec::new(), true);
    let names = ["w1", "w2", "w3", "w4"];
    let p = run(
        &f,
        burst_of(
            names
                .iter()
                .map(|n| grouped(n, Strategy::Aggregated, &[], "", "app=db"))
                .collect(),
        ),
    );
    assert_eq!(after(&p, "w1"), placed(&[("a", 2)]));
    assert_eq!(after(&p, "w2"), placed(&[("b", 2)]));
    assert_eq!(after(&p, "w3"), placed(&[("c", 2)]));
    let Outcome::Unschedulable {
        condition: Condition::NoClusterFit(message),
    } = outcome(&p, "w4")
    else {
        panic!("{:?}", outcome(&p, "w4"));
    };
    assert!(
        message.ends_with(
            "0/3 clusters are available: 3 cluster already has workload with the same \
             anti-affinity group."
        ),
        "{message}"
    );
}

// Both plugins pass a cluster the binding already targets (`TargetContains`): the scheduler
// never removes a placement for them. Another namespace is another group (`obey*Group`).
#[test]
fn a_placed_cluster_and_another_namespace_pass() {
    let mut other_ns = grouped("x", Strategy::Aggregated, &[("b", 2)], "", "app=db");
    other_ns.id.namespace = "elsewhere".into();
    let f = three(
        alloc::vec![
            grouped("w1", Strategy::Duplicated, &[("a", 2)], "", "app=db"),
            grouped("w2", Strategy::Duplicated, &[("a", 2)], "", "app=db"),
            other_ns,
        ],
        true,
    );
    let p = run(&f, alloc::vec![Event::Restart]);
    // Duplicated: each keeps a (placed there) and adds b and c, except where the other is.
    assert_eq!(after(&p, "w1"), placed(&[("a", 2), ("b", 2), ("c", 2)]));
    assert_eq!(after(&p, "w2"), placed(&[("a", 2)]));
}

// Members of one affinity group placed apart (each allowed only where the others are) are a
// defined behaviour, never a loop: a binding's schedule enqueues no other member (no handler
// of pkg/scheduler/event_handler.go does), and each keeps the clusters it holds
// (`TargetContains`). Duplicated members gather, each adding where the earlier ones are;
// Divided ones have no trigger and stay apart, and a new member finds no cluster every other
// member targets.
#[test]
fn members_placed_apart_settle_in_one_pass() {
    let members = |strategy| {
        alloc::vec![
            grouped("w1", strategy, &[("a", 2)], "app=shop", ""),
            grouped("w2", strategy, &[("b", 2)], "app=shop", ""),
            grouped("w3", strategy, &[], "app=shop", ""),
        ]
    };
    let p = run(
        &three(members(Strategy::Duplicated), true),
        alloc::vec![Event::Restart],
    );
    // Each member once, then each whose result changed again (its new generation, §23.4),
    // until a pass writes the same list.
    let taken: Vec<&str> = passes(&p, 0).iter().map(|&(n, _)| n).collect();
    assert_eq!(taken, ["w1", "w2", "w3", "w1", "w2", "w3", "w2"]);
    for w in ["w1", "w2", "w3"] {
        assert_eq!(after(&p, w), placed(&[("a", 2), ("b", 2)]), "{w}");
    }
    let p = run(
        &three(members(Strategy::Aggregated), true),
        alloc::vec![Event::Restart],
    );
    assert_eq!(p.steps[0].passes.len(), 3);
    assert_eq!(after(&p, "w1"), placed(&[("a", 2)]));
    assert_eq!(after(&p, "w2"), placed(&[("b", 2)]));
    assert!(matches!(
        outcome(&p, "w3"),
        Outcome::Unschedulable {
            condition: Condition::NoClusterFit(m)
        } if m.ends_with("3 ResourceBinding with the same affinity group does not target this cluster.")
    ));
}

// The gate came with 1.17 (pkg/features/features.go): turning it on for 1.16 is an error at
// the setting, as Karmada refuses an unknown gate.
#[test]
fn the_gate_needs_karmada_1_17() {
    let settings = Settings {
        version: crate::karmada::version::Version::minor_release(16).unwrap(),
        ..Settings::default()
    }
    .with(Gate::WorkloadAffinity, true);
    let err = Fleet::new(Vec::new(), Vec::new(), settings).unwrap_err();
    assert!(
        alloc::format!("{err}").contains("WorkloadAffinity"),
        "{err}"
    );
}

// `--plugins=*,-WorkloadAntiAffinity` turns one plugin of the pair off.
#[test]
fn plugins_flag_disables_one_of_the_pair() {
    let mut f = three(Vec::new(), true);
    f.settings.plugins = Some(alloc::vec!["*".into(), "-WorkloadAntiAffinity".into()]);
    let p = run(
        &f,
        burst_of(alloc::vec![
            grouped("w1", Strategy::Aggregated, &[], "", "app=db"),
            grouped("w2", Strategy::Aggregated, &[], "", "app=db"),
        ]),
    );
    assert_eq!(after(&p, "w2"), placed(&[("a", 2)]));
}

// A binding that failed with UnschedulableError waits in the unschedulable set
// (`PushUnschedulableIfNotPresent`, `handleErr`); `flushUnschedulableBindingsLeftover`
// (pkg/scheduler/internal/queue/scheduling_queue.go) moves it back once it has waited more
// than five minutes, and it is scheduled against the capacity then (the queue of gate
// PriorityBasedScheduling).
#[test]
fn an_unschedulable_binding_is_retried_after_five_minutes() {
    let mut f = two(Vec::new());
    f.settings
        .feature_gates
        .set(Gate::PriorityBasedScheduling, true);
    let big = entry("big", Strategy::Aggregated, 30, &[]);
    let grow = |cluster: &str| Event::Capacity {
        cluster: cluster.into(),
        summary: Box::new(ResourceSummary {
            allocatable: ResourceList::from_units([("cpu", 20_000), ("pods", 110)]),
            ..ResourceSummary::default()
        }),
    };
    let p = run(
        &f,
        alloc::vec![
            Event::Create {
                entry: Box::new(big.clone())
            },
            Event::Advance { seconds: 0 },
            grow("a"),
            grow("b"),
            Event::Advance { seconds: 300 },
        ],
    );
    assert!(matches!(
        outcome(&p, "big"),
        Outcome::Unschedulable {
            condition: Condition::Unschedulable(_)
        }
    ));
    assert!(
        enqueued(&p, 4).is_empty(),
        "300 s is not more than five minutes"
    );
    let p = run(
        &f,
        alloc::vec![
            Event::Create {
                entry: Box::new(big)
            },
            Event::Advance { seconds: 0 },
            grow("a"),
            grow("b"),
            Event::Advance { seconds: 301 },
        ],
    );
    assert_eq!(
        enqueued(&p, 4),
        [(
            id("big"),
            Why::Retried {
                waited: super::clock::Wait::Unschedulable
            }
        )]
    );
    assert_eq!(after(&p, "big").iter().map(|(_, n)| n).sum::<i64>(), 30);
}

// handleErr puts a FitError in the backoff queue; flushBackoffQCompleted
// (pkg/scheduler/internal/queue/scheduling_queue.go) moves it back once its backoff, 1 s doubled
// with each attempt up to 10 s (calculateBackoffDuration), has run: retries at 1, 3, 7, 15,
// 25 s... A retry that reads what the failed pass read fails the same way, so while nothing
// changes none is run: the binding keeps waiting with the attempts it would have made; an
// event pushes it afresh, and its attempts start again.
#[test]
fn a_backoff_retry_runs_only_once_its_inputs_changed() {
    let f = two(Vec::new());
    let mut settings = f.settings.clone();
    settings
        .feature_gates
        .set(Gate::PriorityBasedScheduling, true);
    let f = Fleet { settings, ..f };
    let down = |c: &str| Event::ClusterDown { cluster: c.into() };
    let create = Event::Create {
        entry: Box::new(entry("w", Strategy::Aggregated, 2, &[])),
    };
    let (p, g) = plan(
        &f,
        alloc::vec![
            down("a"),
            down("b"),
            create,
            Event::Advance { seconds: 0 },
            Event::Advance { seconds: 30 },
        ],
    )
    .unwrap();
    assert!(matches!(
        outcome(&p, "w"),
        Outcome::Unschedulable {
            condition: Condition::NoClusterFit(_)
        }
    ));
    assert!(enqueued(&p, 4).is_empty(), "nothing changed: no retry runs");
    let b = g.binding(&id("w")).unwrap();
    let w = g.waits.waiting.get(&b).copied().unwrap();
    assert_eq!(
        (w.since, w.attempts),
        (25, 6),
        "retries at 1, 3, 7, 15 and 25 s passed over"
    );
    // An event pushes it afresh: a cluster back (its taint removed, a spec change) enqueues
    // it at once, and it is placed; it waits no more.
    let up = Event::ClusterUp {
        cluster: "a".into(),
    };
    let (p, g) = plan(&g, alloc::vec![up]).unwrap();
    assert_eq!(
        enqueued(&p, 0),
        [(
            id("w"),
            Why::ClusterChanged {
                cluster: "a".into()
            }
        )]
    );
    assert_eq!(after(&p, "w"), placed(&[("a", 2)]));
    assert!(g.waits.waiting.is_empty());
}

// The timeline within one advance: an assumption's end at 301 s frees capacity; the binding
// that failed for want of it at 0 s is due then too (more than five minutes in the
// unschedulable set), runs at 301 s and is assumed then, so its own assumption ends at 602 s,
// not at the end of the advance.
#[test]
fn an_advance_runs_the_scheduler_when_a_retry_is_due() {
    let mut settings = Settings::default();
    settings
        .feature_gates
        .set(Gate::SchedulingOvercommitProtection, true);
    let f = fleet(alloc::vec![member("a", 10)], Vec::new(), settings);
    let create = |n: &str| Event::Create {
        entry: Box::new(entry(n, Strategy::Aggregated, 6, &[])),
    };
    let (p, g) = plan(
        &f,
        alloc::vec![
            create("w1"),
            create("w2"),
            Event::Advance { seconds: 0 },
            Event::Advance { seconds: 500 },
        ],
    )
    .unwrap();
    assert_eq!(after(&p, "w2"), placed(&[("a", 6)]));
    let w2 = g.binding(&id("w2")).unwrap();
    assert_eq!(g.assumed_at.get(&w2), Some(&301));
    assert_eq!(g.now, 500);
}

// SchedulingOvercommitProtection's assumption ends once the member reports the workload
// Healthy on that cluster (`releaseHealthyClusterAssumptions`, pkg/scheduler/event_handler.go,
// 1.18.2 on) or after its time to live (`DefaultAssumptionTTL`, `GetAssumedWorkloads`):
// the next binding reads the summary alone there again.
#[test]
fn an_assumption_ends_when_healthy_or_after_five_minutes() {
    let mut settings = Settings::default();
    settings
        .feature_gates
        .set(Gate::SchedulingOvercommitProtection, true);
    let f = fleet(alloc::vec![member("a", 10)], Vec::new(), settings);
    let create = |n: &str| Event::Create {
        entry: Box::new(entry(n, Strategy::Aggregated, 6, &[])),
    };
    // Without a release the second does not fit beside the first's assumption.
    let p = run(
        &f,
        alloc::vec![create("w1"), Event::Advance { seconds: 1 }, create("w2")],
    );
    assert!(matches!(outcome(&p, "w2"), Outcome::Unschedulable { .. }));
    let healthy = Event::Healthy {
        binding: id("w1"),
        cluster: "a".into(),
    };
    let (p, after_fleet) = plan(
        &f,
        alloc::vec![
            create("w1"),
            Event::Advance { seconds: 1 },
            healthy,
            create("w2")
        ],
    )
    .unwrap();
    assert_eq!(after(&p, "w2"), placed(&[("a", 6)]));
    assert!(matches!(left(&p, 2)[0].1, WhyNot::StatusOnly { .. }));
    assert_eq!(after_fleet.assumptions()[0].len(), 1, "only w2's");
    let p = run(
        &f,
        alloc::vec![create("w1"), Event::Advance { seconds: 301 }, create("w2")],
    );
    assert_eq!(after(&p, "w2"), placed(&[("a", 6)]));
}

// The explained schedule of a member names the plugin that turned a cluster away and
// records its reason (the filter pass with the pair, docs/rules/fleet.md §31.3).
#[test]
fn an_explained_member_names_the_workload_affinity_plugin() {
    use crate::karmada::filter::workload_affinity::{GroupView, AFFINITY_REASON};
    let e = grouped("w2", Strategy::Aggregated, &[], "app=shop", "");
    let settings = Settings::default();
    let members = alloc::vec![member("a", 10), member("b", 10)];
    let view = GroupView {
        together: Some(alloc::vec![["b".into()].into_iter().collect()]),
        apart: None,
    };
    let mut binding = e.binding(&settings, &[], false);
    binding.workload_groups = Some(&view);
    let (d, r) = crate::karmada::pipeline::explain(&binding, &Clusters::new(&members), 0).unwrap();
    assert_eq!(
        d.assignment
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>(),
        ["b"]
    );
    let a = &r.pipeline.clusters[0].filter;
    assert_eq!(a.reason.as_deref(), Some(AFFINITY_REASON));
    assert!(r
        .pipeline
        .explanation
        .iter()
        .any(|s| s.starts_with("a is out (WorkloadAffinity)")));
}

// `patchScheduleResultForResourceBinding` (pkg/scheduler/scheduler.go) patches the whole
// `spec.clusters` list: a Duplicated result that lists the same clusters in another order (the
// selection's order: available replicas, then name) is written, and under
// SchedulingOvercommitProtection `updateAssumptionsCache` assumes its whole footprint, which
// the bindings after it in the burst read. The binding, a new generation, is taken again.
#[test]
fn a_reordered_duplicated_result_is_written_and_assumed() {
    let reordered = |order: &[&str]| {
        let mut dup = entry("dup", Strategy::Duplicated, 3, &[("a", 3), ("b", 3)]);
        dup.state.order = order.iter().map(|&c| String::from(c)).collect();
        let late = entry("late", Strategy::Aggregated, 8, &[]);
        let settings = Settings::default().with(Gate::SchedulingOvercommitProtection, true);
        fleet(
            alloc::vec![member("a", 10), member("b", 4)],
            alloc::vec![dup, late],
            settings,
        )
    };
    // Written as b, a; the selection orders a (10 free) before b (4 free).
    let p = run(&reordered(&["b", "a"]), alloc::vec![Event::Restart]);
    let taken: Vec<&str> = passes(&p, 0).iter().map(|&(n, _)| n).collect();
    assert_eq!(taken, ["dup", "late", "dup"]);
    // dup's 3 CPUs are assumed on a: 7 left there, so late needs b too.
    assert_eq!(after(&p, "late"), placed(&[("a", 7), ("b", 1)]));
    // Written as a, b: the same list, an empty patch, nothing assumed: late fits on a.
    let p = run(&reordered(&["a", "b"]), alloc::vec![Event::Restart]);
    let taken: Vec<&str> = passes(&p, 0).iter().map(|&(n, _)| n).collect();
    assert_eq!(taken, ["dup", "late"]);
    assert_eq!(after(&p, "late"), placed(&[("a", 8)]));
}
