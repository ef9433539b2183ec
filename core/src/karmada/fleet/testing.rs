//! What the fleet's tests build (docs/rules/fleet.md §20): member clusters with free CPUs,
//! bindings new or already placed, fleets of them, the plan of a list of events and what it
//! did to each binding and at each step, the scheduler's worker with the cluster set compiled
//! afresh for every binding (what the drain's one reused set must agree with), the fleets and
//! events the property tests generate, and the bindings under application failover (§32)
//! with the reports and waits that fail them over.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::app_failover::{ApplicationFailover, PurgeMode, Reported, WorkloadHealth};
use super::entry::{Condition, Entry, EvictionTask, Id, Rules, State, Workload};
use super::events::{Event, Why, WhyNot};
use super::health::Health;
use super::plan::{plan, Outcome, Plan};
use super::queue::Queue;
use super::triggers::Trigger;
use super::{groups, Fleet, Pass, Settings};
use crate::estimate::general::ResourceSummary;
use crate::karmada::cluster::{Clusters, Member};
use crate::karmada::gates::Gate;
use crate::karmada::Strategy;
use crate::resource::ResourceList;
use proptest::prelude::{prop_oneof, Just};
use proptest::strategy::Strategy as _;

/// A cluster with `cpu` free CPUs (in cores) and plenty of pod slots.
pub(crate) fn member(name: &str, cpu: u64) -> Member {
    Member {
        name: name.into(),
        resource_summary: Some(ResourceSummary {
            allocatable: ResourceList::from_units([("cpu", cpu * 1000), ("pods", 110)]),
            ..ResourceSummary::default()
        }),
        ..Member::default()
    }
}

pub(crate) fn id(name: &str) -> Id {
    Id {
        kind: super::BindingKind::ResourceBinding,
        namespace: "default".into(),
        name: name.into(),
    }
}

/// A Deployment of `replicas` × 1 CPU under `strategy`, placed at `clusters` (scheduled
/// before, with that placement applied, when `clusters` is not empty).
pub(crate) fn entry(
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

pub(crate) fn fleet(members: Vec<Member>, entries: Vec<Entry>, settings: Settings) -> Fleet {
    let clusters = members
        .into_iter()
        .map(|m| (m, Health::default()))
        .collect();
    Fleet::new(clusters, entries, settings).unwrap()
}

/// Clusters a and b, 10 CPUs each, default settings.
pub(crate) fn two(entries: Vec<Entry>) -> Fleet {
    fleet(
        alloc::vec![member("a", 10), member("b", 10)],
        entries,
        Settings::default(),
    )
}

/// [`two`] with binding `div`, DynamicWeight, its `replicas` placed half on a, half on b.
pub(crate) fn divided_over_two(replicas: i64) -> Fleet {
    let half = replicas / 2;
    two(alloc::vec![entry(
        "div",
        Strategy::DynamicWeight,
        replicas,
        &[("a", half), ("b", half)]
    )])
}

/// Cluster `cluster` unjoins (its `deletionTimestamp` set).
pub(crate) fn leave(cluster: &str) -> Event {
    Event::Leave {
        cluster: cluster.into(),
    }
}

/// Binding `binding` enqueued because cluster `cluster` changed.
pub(crate) fn cluster_changed(binding: &str, cluster: &str) -> (Id, Why) {
    (
        id(binding),
        Why::ClusterChanged {
            cluster: cluster.into(),
        },
    )
}

/// The plan of `events`.
pub(crate) fn run(f: &Fleet, events: Vec<Event>) -> Plan {
    plan(f, events).unwrap().0
}

/// The passes of step `k`, by binding name.
pub(crate) fn passes(p: &Plan, k: usize) -> Vec<(&str, &Pass)> {
    p.steps[k]
        .passes
        .iter()
        .map(|n| (n.binding.name.as_str(), &n.why))
        .collect()
}

/// Why each binding step `k` enqueued was enqueued.
pub(crate) fn enqueued(p: &Plan, k: usize) -> Vec<(Id, Why)> {
    p.steps[k]
        .queued
        .enqueued
        .iter()
        .map(|n| (n.binding.clone(), n.why.clone()))
        .collect()
}

/// Why each binding step `k` left out was left out.
pub(crate) fn left(p: &Plan, k: usize) -> Vec<(Id, WhyNot)> {
    p.steps[k]
        .queued
        .not_enqueued
        .iter()
        .map(|n| (n.binding.clone(), n.why.clone()))
        .collect()
}

pub(crate) fn scheduled(trigger: Trigger) -> Pass {
    Pass::Scheduled {
        trigger,
        condition: Condition::Success,
    }
}

pub(crate) fn after(p: &Plan, name: &str) -> Vec<(String, i64)> {
    let b = p.bindings.iter().find(|b| b.id.name == name).unwrap();
    b.after.iter().map(|(c, &n)| (c.clone(), n)).collect()
}

pub(crate) fn outcome<'a>(p: &'a Plan, name: &str) -> &'a Outcome {
    &p.bindings
        .iter()
        .find(|b| b.id.name == name)
        .unwrap()
        .outcome
}

pub(crate) fn placed(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    pairs.iter().map(|&(c, n)| (c.into(), n)).collect()
}

/// The worker as if the cluster set were compiled afresh for every binding (from the members,
/// with every assumption written back at once), and the index of workload affinity groups
/// with it: what [`Fleet::drain`]'s one reused set must agree with. It reads the other members
/// of a binding's groups as the drain does, so the two differ only in the set.
pub(crate) fn drain_fresh(f: &mut Fleet, queue: &mut Queue) -> Vec<(usize, Pass, bool)> {
    let mut out = Vec::new();
    while let Some(b) = queue.pop() {
        let mut touched = Vec::new();
        {
            let (members, entries, settings, mut after) = f.worker(&mut touched, &mut out);
            let view = groups::Index::new(entries, settings).view(entries, b);
            let Some(shared) = entries.get_mut(b) else {
                continue;
            };
            let mut clusters = Some(Clusters::new(members));
            let (pass, written, e) = super::take(
                shared,
                members,
                &super::triggers::deleting(members),
                &mut clusters,
                settings,
                after.now,
                view.as_ref(),
            );
            after.settle(b, e, pass, written, queue, clusters.as_mut());
        }
        f.write_back(touched);
    }
    out
}

pub(crate) fn strategy() -> impl proptest::strategy::Strategy<Value = Strategy> {
    prop_oneof![
        Just(Strategy::Duplicated),
        Just(Strategy::DynamicWeight),
        Just(Strategy::Aggregated),
        Just(Strategy::StaticWeight),
    ]
}

pub(crate) fn event(
    clusters: usize,
    bindings: usize,
) -> impl proptest::strategy::Strategy<Value = Event> {
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
pub(crate) fn generated(
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

pub(crate) fn failover(purge_mode: PurgeMode, toleration: i64) -> ApplicationFailover {
    ApplicationFailover {
        toleration_seconds: toleration,
        purge_mode,
        grace_period_seconds: (purge_mode == PurgeMode::Gracefully).then_some(120),
        state_preservation: Vec::new(),
    }
}

/// `w`: 4 replicas divided 2/2 over a and b, both reported Healthy, under `f`.
pub(crate) fn divided(f: ApplicationFailover) -> Entry {
    let mut e = entry("w", Strategy::StaticWeight, 4, &[("a", 2), ("b", 2)]);
    e.app_failover = Some(Rc::new(f));
    for c in ["a", "b"] {
        e.state.reported.insert(
            c.into(),
            Reported {
                health: WorkloadHealth::Healthy,
                preserved: None,
            },
        );
    }
    e
}

/// Clusters a, b and c with `e`.
pub(crate) fn three_with(e: Entry, settings: Settings) -> Fleet {
    fleet(
        alloc::vec![member("a", 10), member("b", 10), member("c", 10)],
        alloc::vec![e],
        settings,
    )
}

pub(crate) fn unhealthy(cluster: &str) -> Event {
    Event::Unhealthy {
        binding: id("w"),
        cluster: cluster.into(),
    }
}

pub(crate) fn healthy(cluster: &str) -> Event {
    Event::Healthy {
        binding: id("w"),
        cluster: cluster.into(),
    }
}

pub(crate) fn wait(seconds: i64) -> Event {
    Event::Advance { seconds }
}

/// The fleet after `events`.
pub(crate) fn fleet_after(f: &Fleet, events: Vec<Event>) -> Fleet {
    plan(f, events).unwrap().1
}

pub(crate) fn clusters(f: &Fleet) -> BTreeMap<String, i64> {
    f.entries[0].state.clusters.clone()
}

pub(crate) fn tasks(f: &Fleet) -> Vec<EvictionTask> {
    f.entries[0].state.evictions.clone()
}
