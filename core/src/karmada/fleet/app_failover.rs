//! The application failover controller (docs/rules/fleet.md §32), as Karmada's
//! `RBApplicationFailoverController` (pkg/controllers/applicationfailover) decides: a
//! workload its member reports Unhealthy on a cluster for the binding's
//! `spec.failover.application.decisionConditions.tolerationSeconds` is evicted from that
//! cluster (`detectFailure`, `evictBinding`, `buildTaskOptions`; `GracefulEvictCluster` of
//! pkg/apis/work/v1alpha2/binding_types_helper.go), with a graceful eviction task whose purge
//! mode says how the old copy goes (§32.4), and the state preserved from the member's status
//! (§32.5). Since when each workload has been Unhealthy is the controller's memory
//! ([`Memory`]), lost when it restarts: a dump's Unhealthy status starts counting when the
//! plan starts (§32.3).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::entry::{Entry, EvictionTask};
use super::Settings;
use crate::karmada::gates::Gate;

/// `decisionConditions.tolerationSeconds`'s default (the CRD's).
pub const TOLERATION_SECONDS: i64 = 300;
/// `gracePeriodSeconds` the policy webhook sets for `Gracefully` when none is given
/// (`SetDefaultGracePeriodSeconds`, pkg/util/helper/policy.go).
pub const GRACE_PERIOD_SECONDS: i64 = 600;
/// The producer Karmada writes on the tasks this controller adds.
pub const PRODUCER: &str = "resource-binding-application-failover-controller";
/// The reason Karmada writes on them (`EvictionReasonApplicationFailure`).
pub const REASON: &str = "ApplicationFailure";

pub use super::eviction::PurgeMode;

/// One `statePreservation.rules[]` entry: the label `alias` gets the value `json_path` reads
/// from the member's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreservationRule {
    pub alias_label_name: String,
    pub json_path: String,
}

/// A binding's `spec.failover.application`, as the detector copies it from the claiming
/// policy (`BuildResourceBinding`), after the policy webhook's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApplicationFailover {
    /// `decisionConditions.tolerationSeconds` (default 300).
    pub toleration_seconds: i64,
    pub purge_mode: PurgeMode,
    /// `gracePeriodSeconds` (`Gracefully` only; the webhook's default 600).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_period_seconds: Option<i64>,
    /// `statePreservation.rules`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state_preservation: Vec<PreservationRule>,
}

impl Default for ApplicationFailover {
    fn default() -> Self {
        ApplicationFailover {
            toleration_seconds: TOLERATION_SECONDS,
            purge_mode: PurgeMode::Gracefully,
            grace_period_seconds: Some(GRACE_PERIOD_SECONDS),
            state_preservation: Vec::new(),
        }
    }
}

/// A workload's health on one cluster, as the member reports it (the binding's
/// `status.aggregatedStatus[].health`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum WorkloadHealth {
    Healthy,
    Unhealthy,
    #[default]
    Unknown,
}

impl WorkloadHealth {
    /// Karmada's word (`ResourceHealth`).
    pub fn as_str(self) -> &'static str {
        match self {
            WorkloadHealth::Healthy => "Healthy",
            WorkloadHealth::Unhealthy => "Unhealthy",
            WorkloadHealth::Unknown => "Unknown",
        }
    }
}

/// One `status.aggregatedStatus[]` entry: the health the member reports, and the labels
/// state preservation reads from its `status` (`None`: no status collected; `Err`: a rule's
/// path finds nothing there).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reported {
    pub health: WorkloadHealth,
    pub preserved: Option<core::result::Result<BTreeMap<String, String>, String>>,
}

/// What the controller keeps in memory, per binding (by its position in the fleet): since
/// when each cluster's workload has been Unhealthy (`workloadUnhealthyMap`), and when it
/// asked to look at the binding again (`RequeueAfter`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    pub unhealthy_since: BTreeMap<usize, BTreeMap<String, i64>>,
    pub requeue: BTreeMap<usize, i64>,
    /// The controller has seen every binding once (its start).
    pub started: bool,
}

/// Why a binding the controller looked at was not evicted (a report line). Tagged `held`:
/// [`super::events::WhyNot::FailoverHeld`] flattens it beside its own `reason`, and one key
/// twice in an object is not JSON a reader takes back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "held")]
pub enum Held {
    /// `buildTaskOptions` failed: nothing is written, the reconcile is retried.
    TaskOptions { cluster: String, message: String },
}

/// What one reconcile decided.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decision {
    /// The clusters the workload leaves, each with its task.
    pub evict: Vec<(String, EvictionTask)>,
    /// When to look again (`RequeueAfter`), if at all.
    pub requeue: Option<i64>,
    pub held: Option<Held>,
}

/// `syncBinding` of binding `b` (entry `e`) at `now`: `detectFailure` against the memory,
/// then the tasks `evictBinding` would add. The memory is updated as Karmada's is
/// (`setTimeStamp`, `deleteIrrelevantClusters`); evicted clusters are forgotten.
pub fn reconcile(
    memory: &mut Memory,
    b: usize,
    e: &Entry,
    settings: &Settings,
    now: i64,
) -> Decision {
    let Some(failover) = e.app_failover.as_deref() else {
        memory.unhealthy_since.remove(&b);
        return Decision::default();
    };
    // `bindingFilter`: no aggregated status, nothing to look at.
    if e.state.reported.is_empty() {
        memory.unhealthy_since.remove(&b);
        return Decision::default();
    }
    let tasks = &e.state.evictions;
    let in_task = |c: &str| tasks.iter().any(|t| t.from_cluster == c);
    // `distinguishUnhealthyClustersWithOthers`.
    let mut unhealthy = Vec::new();
    let mut others = Vec::new();
    for (c, r) in &e.state.reported {
        match r.health {
            WorkloadHealth::Unhealthy if !in_task(c) => unhealthy.push(c.as_str()),
            WorkloadHealth::Unhealthy => {}
            WorkloadHealth::Healthy | WorkloadHealth::Unknown => others.push(c.as_str()),
        }
    }
    let toleration = failover.toleration_seconds;
    let seen = memory.unhealthy_since.entry(b).or_default();
    let mut wait = i64::MAX;
    let mut due = Vec::new();
    for c in unhealthy {
        let Some(&since) = seen.get(c) else {
            seen.insert(c.into(), now);
            wait = wait.min(toleration);
            continue;
        };
        // The requeue comes back a moment after `since + tolerationSeconds`: due then.
        if now >= since.saturating_add(toleration) {
            due.push(String::from(c));
        } else {
            wait = wait.min(toleration - (now - since));
        }
    }
    let mut decision = Decision::default();
    let before: Vec<String> = e.state.clusters.keys().cloned().collect();
    for c in &due {
        match task(failover, e, c, &before, settings, now) {
            Ok(t) => decision.evict.push((c.clone(), t)),
            Err(message) => {
                // `evictBinding` returns the error: nothing is written; the request is retried
                // with the controller's backoff, failing the same way until the binding or
                // the settings change, so allot does not count the retries.
                decision.evict.clear();
                decision.held = Some(Held::TaskOptions {
                    cluster: c.clone(),
                    message,
                });
                return decision;
            }
        }
    }
    // `deleteIrrelevantClusters`: clusters no longer targeted (or just evicted), and those
    // reported Healthy or Unknown, are forgotten.
    let evicted: Vec<&str> = due.iter().map(String::as_str).collect();
    seen.retain(|c, _| {
        e.state.clusters.contains_key(c)
            && !evicted.contains(&c.as_str())
            && !others.contains(&c.as_str())
    });
    // A zero wait asks for no requeue (`detectFailure` answers 0).
    decision.requeue = (wait != i64::MAX && wait > 0).then(|| now.saturating_add(wait));
    decision
}

/// `buildTaskOptions` for cluster `c`: the purge mode, the preserved label state (gate
/// StatefulFailoverInjection) with the clusters before the failover, the grace period
/// (`Gracefully`, which needs gate GracefulEviction) or `suppressDeletion` (`Never`).
fn task(
    failover: &ApplicationFailover,
    e: &Entry,
    c: &str,
    before: &[String],
    settings: &Settings,
    now: i64,
) -> core::result::Result<EvictionTask, String> {
    let mut t = EvictionTask {
        from_cluster: c.into(),
        replicas: e.state.clusters.get(c).copied().filter(|&r| r > 0),
        created_at: now,
        purge_mode: failover.purge_mode,
        producer: Some(PRODUCER.into()),
        reason: Some(REASON.into()),
        ..EvictionTask::default()
    };
    if settings.gate(Gate::StatefulFailoverInjection) && !failover.state_preservation.is_empty() {
        let labels = match e.state.reported.get(c).and_then(|r| r.preserved.clone()) {
            None => {
                return Err(alloc::format!(
                    "the application status has not yet been collected from Cluster({c})"
                ))
            }
            Some(Err(message)) => return Err(message),
            Some(Ok(labels)) => labels,
        };
        t.preserved_label_state = labels;
        t.clusters_before_failover = before.to_vec();
    }
    match failover.purge_mode {
        PurgeMode::Gracefully if settings.gate(Gate::GracefulEviction) => {
            t.grace_period_seconds = failover.grace_period_seconds;
        }
        PurgeMode::Gracefully => {
            return Err(String::from(
                "GracefulEviction featureGate must be enabled when purgeMode is Gracefully",
            ))
        }
        PurgeMode::Never => t.suppress_deletion = Some(true),
        PurgeMode::Directly => {}
    }
    Ok(t)
}

/// The labels the binding controller injects into the workload it writes for `cluster`
/// (`injectReservedLabelState`, pkg/controllers/binding/common.go): only when the binding
/// targets that one cluster, the last task's purge mode is `Directly`, and the cluster was
/// not among the clusters before the failover; then the last task's preserved label state.
pub fn injected_labels<'a>(e: &'a Entry, cluster: &str) -> Option<&'a BTreeMap<String, String>> {
    if e.state.clusters.len() != 1 || !e.state.clusters.contains_key(cluster) {
        return None;
    }
    let last = e.state.evictions.last()?;
    if last.purge_mode != PurgeMode::Directly
        || last.clusters_before_failover.iter().any(|c| c == cluster)
    {
        return None;
    }
    Some(&last.preserved_label_state).filter(|l| !l.is_empty())
}

impl super::Fleet {
    /// The application failover controller reconciles binding `b` now (§32.2): the clusters
    /// due are evicted (a spec change: the scheduler's queue takes the binding), and the
    /// controller's next look is noted.
    pub(super) fn reconcile_failover(
        &mut self,
        b: usize,
        queue: &mut super::queue::Queue,
        out: &mut super::events::Enqueued,
    ) {
        let now = self.now;
        let Some(e) = self.entries.get(b) else {
            return;
        };
        let d = reconcile(&mut self.failover, b, e, &self.settings, now);
        match d.requeue {
            Some(t) => self.failover.requeue.insert(b, t),
            None => self.failover.requeue.remove(&b),
        };
        if let Some(held) = d.held {
            let id = e.id.clone();
            out.left(b, &id, super::events::WhyNot::FailoverHeld { held });
        }
        if d.evict.is_empty() {
            return;
        }
        let mut evicted = Vec::new();
        if let Some(e) = self.entries.get_mut(b).map(alloc::rc::Rc::make_mut) {
            for (c, task) in d.evict {
                let mode = task.purge_mode;
                if let Some(replicas) = super::eviction::evict_with(e, task) {
                    evicted.push((c, replicas, mode));
                }
            }
        }
        let Some(id) = self.entries.get(b).map(|e| e.id.clone()) else {
            return;
        };
        self.waits.changed();
        for (c, replicas, purge_mode) in evicted {
            self.journal.push(super::timeline::Moment::new(
                now,
                super::timeline::Happening::FailedOver {
                    binding: id.clone(),
                    cluster: c.clone(),
                    replicas,
                    purge_mode,
                },
            ));
            let why = super::events::Why::SpecChanged {
                change: super::events::Change::FailedOver(c),
            };
            self.enqueue(b, why, queue, out);
        }
    }

    /// When the application failover controller next looks at some binding by itself (a
    /// requeue), if ever.
    pub(super) fn next_failover_run(&self) -> Option<i64> {
        self.failover.requeue.values().copied().min()
    }

    /// Both controllers look at what is due by now: the application failover controller's
    /// requeues, and the bindings whose tasks' time has come. When first called, the
    /// controllers start and see every binding (their informers' creations): a dump's
    /// Unhealthy workloads start counting then (§32.3).
    pub(super) fn controllers_due(
        &mut self,
        queue: &mut super::queue::Queue,
        out: &mut super::events::Enqueued,
    ) {
        let now = self.now;
        let start = !self.failover.started;
        self.failover.started = true;
        let timeout = self.settings.graceful_eviction_timeout;
        // Only a watched binding or one whose requeue is due can be reconciled here.
        let mut due: Vec<usize> = self.entries.index().watched().to_vec();
        due.extend(self.failover.requeue.keys().copied());
        due.sort_unstable();
        due.dedup();
        for b in due {
            let failover_due = self.failover.requeue.get(&b).is_some_and(|&t| t <= now);
            let has_failover = self
                .entries
                .get(b)
                .is_some_and(|e| e.app_failover.is_some());
            if (start && has_failover) || failover_due {
                self.reconcile_failover(b, queue, out);
            }
            let tasks_due = self.entries.get(b).is_some_and(|e| {
                (start && !e.state.evictions.is_empty())
                    || e.state.evictions.iter().any(|t| t.unstamped)
                    || super::graceful_eviction::next_retry(e, timeout).is_some_and(|t| t <= now)
            });
            if tasks_due {
                self.reconcile_tasks(b, queue, out);
            }
        }
    }

    /// The member reports binding `b`'s workload `health` on `cluster` (its aggregated
    /// status): the update reconciles both controllers (§32.2, §33).
    pub(super) fn report(
        &mut self,
        b: usize,
        cluster: &str,
        health: WorkloadHealth,
        queue: &mut super::queue::Queue,
        out: &mut super::events::Enqueued,
    ) {
        if let Some(e) = self.entries.get_mut(b).map(alloc::rc::Rc::make_mut) {
            e.state.reported.entry(cluster.into()).or_default().health = health;
            self.journal.push(super::timeline::Moment::new(
                self.now,
                super::timeline::Happening::Reported {
                    binding: e.id.clone(),
                    cluster: cluster.into(),
                    health,
                },
            ));
        }
        self.reconcile_failover(b, queue, out);
        self.reconcile_tasks(b, queue, out);
    }
}

#[cfg(test)]
mod tests {
    use alloc::collections::BTreeMap;
    use alloc::rc::Rc;
    use alloc::string::String;

    use super::{injected_labels, PreservationRule, PurgeMode, Reported, WorkloadHealth};
    use crate::karmada::fleet::events::{Change, Why, WhyNot};
    use crate::karmada::fleet::plan::plan;
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::Settings;
    use crate::karmada::Strategy;

    // detectFailure: the workload leaves b only once it has been Unhealthy there for
    // tolerationSeconds; the scheduler then places the missing replicas elsewhere, never on b
    // while its task exists (the ClusterEviction filter).
    #[test]
    fn unhealthy_for_toleration_seconds_fails_over() {
        let f = three_with(
            divided(failover(PurgeMode::Gracefully, 300)),
            Settings::default(),
        );
        let before = fleet_after(&f, alloc::vec![unhealthy("b"), wait(299)]);
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
        let f = three_with(
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
        assert_eq!(clusters(&fleet_after(&f, events(250))).get("b"), Some(&2));
        assert_eq!(clusters(&fleet_after(&f, events(300))).get("b"), None);
    }

    // The controller's memory is lost on restart: a dump's Unhealthy status starts counting when
    // the controllers start, with the plan.
    #[test]
    fn a_dumps_unhealthy_status_counts_from_the_start() {
        let mut e = divided(failover(PurgeMode::Directly, 60));
        e.state.reported.get_mut("b").unwrap().health = WorkloadHealth::Unhealthy;
        let f = three_with(e, Settings::default());
        assert_eq!(
            clusters(&fleet_after(&f, alloc::vec![wait(59)])).get("b"),
            Some(&2)
        );
        assert_eq!(
            clusters(&fleet_after(&f, alloc::vec![wait(60)])).get("b"),
            None
        );
    }

    // buildTaskOptions fails for Gracefully without gate GracefulEviction: nothing is evicted.
    #[test]
    fn gracefully_needs_the_graceful_eviction_gate() {
        let settings =
            Settings::default().with(crate::karmada::gates::Gate::GracefulEviction, false);
        let f = three_with(divided(failover(PurgeMode::Gracefully, 10)), settings);
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
        let on =
            Settings::default().with(crate::karmada::gates::Gate::StatefulFailoverInjection, true);
        let fl = three_with(e.clone(), on);
        let f2 = fleet_after(&fl, alloc::vec![wait(1)]);
        let t = &tasks(&f2)[0];
        assert_eq!(t.preserved_label_state, labels);
        assert_eq!(t.clusters_before_failover, ["b"]);
        let new = clusters(&f2);
        let (c, _) = new.iter().next().unwrap();
        assert_ne!(c, "b");
        assert_eq!(injected_labels(&f2.entries[0], c), Some(&labels));
        // Without the gate: no state kept.
        let off = fleet_after(&three_with(e, Settings::default()), alloc::vec![wait(1)]);
        assert!(tasks(&off)[0].preserved_label_state.is_empty());
        assert_eq!(injected_labels(&off.entries[0], c), None);
    }
}
