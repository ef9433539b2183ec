//! Application failover (docs/rules/fleet.md §32) and the graceful eviction controller
//! (§33), each rule checked against what Karmada's controllers do.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::app_failover::{
    injected_labels, ApplicationFailover, PreservationRule, PurgeMode, Reported, WorkloadHealth,
};
use super::entry::{Entry, EvictionTask};
use super::events::{Change, Event, Why, WhyNot};
use super::plan::plan;
use super::tests::{entry, fleet, id, member};
use super::{Fleet, Settings};
use crate::karmada::Strategy;

fn failover(purge_mode: PurgeMode, toleration: i64) -> ApplicationFailover {
    ApplicationFailover {
        toleration_seconds: toleration,
        purge_mode,
        grace_period_seconds: (purge_mode == PurgeMode::Gracefully).then_some(120),
        state_preservation: Vec::new(),
    }
}

/// `w`: 4 replicas divided 2/2 over a and b, both reported Healthy, under `f`.
fn divided(f: ApplicationFailover) -> Entry {
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
fn three(e: Entry, settings: Settings) -> Fleet {
    fleet(
        alloc::vec![member("a", 10), member("b", 10), member("c", 10)],
        alloc::vec![e],
        settings,
    )
}

fn unhealthy(cluster: &str) -> Event {
    Event::Unhealthy {
        binding: id("w"),
        cluster: cluster.into(),
    }
}

fn healthy(cluster: &str) -> Event {
    Event::Healthy {
        binding: id("w"),
        cluster: cluster.into(),
    }
}

fn wait(seconds: i64) -> Event {
    Event::Advance { seconds }
}

/// The fleet after `events`.
fn after(f: &Fleet, events: Vec<Event>) -> Fleet {
    plan(f, events).unwrap().1
}

fn clusters(f: &Fleet) -> BTreeMap<String, i64> {
    f.entries[0].state.clusters.clone()
}

fn tasks(f: &Fleet) -> Vec<EvictionTask> {
    f.entries[0].state.evictions.clone()
}

// detectFailure: the workload leaves b only once it has been Unhealthy there for
// tolerationSeconds; the scheduler then places the missing replicas elsewhere, never on b
// while its task exists (the ClusterEviction filter).
#[test]
fn unhealthy_for_toleration_seconds_fails_over() {
    let f = three(
        divided(failover(PurgeMode::Gracefully, 300)),
        Settings::default(),
    );
    let before = after(&f, alloc::vec![unhealthy("b"), wait(299)]);
    assert_eq!(clusters(&before).get("b"), Some(&2));
    assert!(tasks(&before).is_empty());
    let (p, later) = plan(&f, alloc::vec![unhealthy("b"), wait(300)]).unwrap();
    let placed = clusters(&later);
    assert_eq!(placed.get("b"), None, "{placed:?}");
    assert_eq!(placed.values().sum::<i64>(), 4);
    let t = &tasks(&later)[0];
    assert_eq!(t.from_cluster, "b");
    assert_eq!(t.replicas, Some(2));
    assert_eq!(t.reason.as_deref(), Some("ApplicationFailure"));
    assert_eq!(t.created_at, f.now + 300);
    let why = Why::SpecChanged {
        change: Change::FailedOver("b".into()),
    };
    assert!(p.steps[1].queued.enqueued.iter().any(|n| n.why == why));
}

// workloadUnhealthyMap's deleteIrrelevantClusters: a Healthy report forgets the count, so a
// later Unhealthy report starts it again.
#[test]
fn healthy_before_toleration_resets_the_count() {
    let f = three(
        divided(failover(PurgeMode::Directly, 300)),
        Settings::default(),
    );
    let events = |last| {
        alloc::vec![
            unhealthy("b"),
            wait(100),
            healthy("b"),
            wait(50),
            unhealthy("b"),
            wait(last)
        ]
    };
    assert_eq!(clusters(&after(&f, events(250))).get("b"), Some(&2));
    assert_eq!(clusters(&after(&f, events(300))).get("b"), None);
}

// The controller's memory is lost on restart: a dump's Unhealthy status starts counting when
// the controllers start, with the plan.
#[test]
fn a_dumps_unhealthy_status_counts_from_the_start() {
    let mut e = divided(failover(PurgeMode::Directly, 60));
    e.state.reported.get_mut("b").unwrap().health = WorkloadHealth::Unhealthy;
    let f = three(e, Settings::default());
    assert_eq!(
        clusters(&after(&f, alloc::vec![wait(59)])).get("b"),
        Some(&2)
    );
    assert_eq!(clusters(&after(&f, alloc::vec![wait(60)])).get("b"), None);
}

// buildTaskOptions, Directly: no grace period, no suppression; the task ends with the
// controller's --graceful-eviction-timeout (or once the new placement is Healthy).
#[test]
fn directly_ends_with_the_timeout() {
    let f = three(
        divided(failover(PurgeMode::Directly, 0)),
        Settings::default(),
    );
    // tolerationSeconds 0: the first look records the time and asks no requeue; the next
    // look (here a second report) evicts.
    let once = after(&f, alloc::vec![unhealthy("b")]);
    assert_eq!(clusters(&once).get("b"), Some(&2));
    let f2 = after(&f, alloc::vec![unhealthy("b"), wait(1), unhealthy("b")]);
    let t = &tasks(&f2)[0];
    assert_eq!(t.purge_mode, PurgeMode::Directly);
    assert_eq!((t.grace_period_seconds, t.suppress_deletion), (None, None));
    let kept = after(&f2, alloc::vec![wait(599)]);
    assert_eq!(tasks(&kept).len(), 1);
    assert!(tasks(&after(&f2, alloc::vec![wait(600)])).is_empty());
}

// Gracefully: the task carries gracePeriodSeconds, which ends it rather than the
// controller's timeout; every new cluster reporting Healthy ends it earlier
// (assessSingleTask).
#[test]
fn gracefully_ends_at_its_grace_period_or_when_healthy() {
    let f = three(
        divided(failover(PurgeMode::Gracefully, 10)),
        Settings::default(),
    );
    let f2 = after(&f, alloc::vec![unhealthy("b"), wait(10)]);
    let t = &tasks(&f2)[0];
    assert_eq!(t.grace_period_seconds, Some(120));
    assert_eq!(tasks(&after(&f2, alloc::vec![wait(119)])).len(), 1);
    assert!(tasks(&after(&f2, alloc::vec![wait(120)])).is_empty());
    // Healthy reports from every cluster of the new placement end it at once.
    let new: Vec<String> = clusters(&f2).keys().cloned().collect();
    let mut events: Vec<Event> = new.iter().map(|c| healthy(c)).collect();
    let last = events.pop().unwrap();
    let partly = after(&f2, events.clone());
    assert_eq!(tasks(&partly).len(), 1, "{new:?}");
    events.push(last);
    assert!(tasks(&after(&f2, events)).is_empty());
}

// Never: suppressDeletion true; the task outlives any timeout and any Healthy report.
#[test]
fn never_keeps_the_task() {
    let f = three(divided(failover(PurgeMode::Never, 10)), Settings::default());
    let f2 = after(&f, alloc::vec![unhealthy("b"), wait(10)]);
    assert_eq!(tasks(&f2)[0].suppress_deletion, Some(true));
    let mut events: Vec<Event> = clusters(&f2).keys().map(|c| healthy(c)).collect();
    events.push(wait(100_000));
    let later = after(&f2, events);
    assert_eq!(tasks(&later).len(), 1);
    assert_eq!(clusters(&later).get("b"), None);
}

// buildTaskOptions fails for Gracefully without gate GracefulEviction: nothing is evicted.
#[test]
fn gracefully_needs_the_graceful_eviction_gate() {
    let settings = Settings::default().with(crate::karmada::gates::Gate::GracefulEviction, false);
    let f = three(divided(failover(PurgeMode::Gracefully, 10)), settings);
    let (p, f2) = plan(&f, alloc::vec![unhealthy("b"), wait(10)]).unwrap();
    assert_eq!(clusters(&f2).get("b"), Some(&2));
    let held = p.steps[1]
        .queued
        .not_enqueued
        .iter()
        .any(|n| matches!(n.why, WhyNot::FailoverHeld { .. }));
    assert!(held);
}

// State preservation (gate StatefulFailoverInjection): the task keeps the labels read from
// the member's status and the clusters before the failover; the binding controller injects
// them into the single new cluster's workload when the purge mode is Directly.
#[test]
fn state_is_preserved_into_the_new_cluster() {
    let mut e = entry("w", Strategy::Aggregated, 2, &[("b", 2)]);
    let mut f = failover(PurgeMode::Directly, 1);
    f.state_preservation.push(PreservationRule {
        alias_label_name: "ready".into(),
        json_path: "{.readyReplicas}".into(),
    });
    e.app_failover = Some(Rc::new(f));
    let labels: BTreeMap<String, String> = [("ready".into(), "2".into())].into();
    e.state.reported.insert(
        "b".into(),
        Reported {
            health: WorkloadHealth::Unhealthy,
            preserved: Some(Ok(labels.clone())),
        },
    );
    let on = Settings::default().with(crate::karmada::gates::Gate::StatefulFailoverInjection, true);
    let fl = three(e.clone(), on);
    let f2 = after(&fl, alloc::vec![wait(1)]);
    let t = &tasks(&f2)[0];
    assert_eq!(t.preserved_label_state, labels);
    assert_eq!(t.clusters_before_failover, ["b"]);
    let new = clusters(&f2);
    let (c, _) = new.iter().next().unwrap();
    assert_ne!(c, "b");
    assert_eq!(injected_labels(&f2.entries[0], c), Some(&labels));
    // Without the gate: no state kept.
    let off = after(&three(e, Settings::default()), alloc::vec![wait(1)]);
    assert!(tasks(&off)[0].preserved_label_state.is_empty());
    assert_eq!(injected_labels(&off.entries[0], c), None);
}

// assessEvictionTasks before 1.16.3: a task's gracePeriodSeconds stayed the timeout of the
// tasks after it.
#[test]
fn before_1_16_3_a_grace_period_carries_over() {
    let run = |version: &str| {
        let mut e = entry("w", Strategy::StaticWeight, 2, &[("a", 2)]);
        let task = |c: &str, grace| EvictionTask {
            from_cluster: c.into(),
            created_at: 0,
            grace_period_seconds: grace,
            ..EvictionTask::default()
        };
        e.state.evictions = alloc::vec![task("b", Some(30)), task("c", None)];
        let settings = Settings {
            version: crate::karmada::version::Version::parse(version).unwrap(),
            ..Settings::default()
        };
        let f = three(e, settings);
        tasks(&after(&f, alloc::vec![wait(30)]))
            .into_iter()
            .map(|t| t.from_cluster)
            .collect::<Vec<_>>()
    };
    assert_eq!(run("1.16.2"), Vec::<String>::new());
    assert_eq!(run("1.16.3"), ["c"]);
}
