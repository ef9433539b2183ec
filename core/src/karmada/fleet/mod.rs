//! A whole Karmada control plane at once (docs/rules/fleet.md): every binding with its
//! placement, workload and state ([`entry`]), the member clusters with their health
//! ([`health`]), what the scheduler's single worker does with the bindings an event enqueues
//! ([`queue`] for the order, [`triggers`] for whether each is scheduled, [`capacity`] for the
//! capacity they share, [`groups`] for what the workload affinity filters read of the other
//! bindings), what each event changes and enqueues ([`events`], [`eviction`]), and
//! the resulting [`plan`]: every binding before and after, every cluster's load.
//!
//! A fleet is built once; each what-if is a list of events applied to a copy of it, and only
//! the bindings those events enqueue are scheduled again.

pub mod app_failover;
pub mod bindings;
pub mod capacity;
pub mod clock;
pub mod entry;
pub mod events;
pub mod eviction;
pub mod graceful_eviction;
pub mod groups;
pub mod health;
pub mod patch;
pub mod plan;
pub mod queue;
pub mod readiness;
pub mod readiness_words;
pub mod taint_policy;
pub mod timeline;
pub mod triggers;
pub mod words;

#[cfg(test)]
pub(crate) mod testing;

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::estimate::{AssumedWorkload, Gates};
use crate::karmada::binding::Estimator;
use crate::karmada::cluster::{Clusters, Member};
use crate::karmada::filter::workload_affinity::GroupView;
use crate::karmada::gates::{FeatureGates, Gate};
use crate::karmada::pipeline;
use crate::karmada::version::Version;

pub use entry::{BindingKind, Entry, Id, Rules, Workload};
pub use health::{Health, Readiness};

/// What is the scheduler's and the controller-manager's, not any binding's: the release, its
/// feature gates and flags (docs/rules/fleet.md §20.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Settings {
    /// The Karmada release.
    pub version: Version,
    /// Karmada's feature gates as set, in the scheduler and the controller-manager alike;
    /// each unset gate takes the release's default (docs/rules/versions.md "Feature gates").
    pub feature_gates: FeatureGates,
    /// The estimators; absent: each whose input a cluster has.
    pub estimators: Option<Vec<Estimator>>,
    /// `--plugins`; absent: `*`.
    pub plugins: Option<Vec<String>>,
    /// The seed of random tie orders.
    pub seed: u64,
    /// The controller-manager's `--enable-no-execute-taint-eviction` (off by default, from
    /// 1.16): with gate Failover, the taint manager evicts (§25.1).
    pub no_execute_taint_eviction: bool,
    /// `--no-execute-taint-eviction-purge-mode` (Gracefully by default).
    pub no_execute_taint_eviction_purge_mode: eviction::PurgeMode,
    /// `--graceful-eviction-timeout`, seconds (10 minutes).
    pub graceful_eviction_timeout: i64,
    /// The ClusterTaintPolicies, in creation order (§24.3).
    pub taint_policies: Vec<taint_policy::ClusterTaintPolicy>,
    /// The members report each workload Healthy on a cluster as soon as the scheduler
    /// places it there (§33); else only the reports the events say.
    pub assume_healthy: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            version: Version::NEWEST,
            feature_gates: FeatureGates::default(),
            estimators: None,
            plugins: None,
            seed: 0,
            no_execute_taint_eviction: false,
            no_execute_taint_eviction_purge_mode: eviction::PurgeMode::Gracefully,
            graceful_eviction_timeout: 600,
            assume_healthy: false,
            taint_policies: Vec::new(),
        }
    }
}

impl Settings {
    /// Whether `gate` is on: as set, else the release's default.
    pub fn gate(&self, gate: Gate) -> bool {
        self.feature_gates.enabled(gate, self.version)
    }

    /// Whether each binding's schedule reads no other binding: neither
    /// SchedulingOvercommitProtection's assumptions (§29.2) nor WorkloadAffinity's groups
    /// (§31) are on, so the queue's order and company change no answer.
    pub fn independent(&self) -> bool {
        !self.gate(Gate::SchedulingOvercommitProtection) && !self.gate(Gate::WorkloadAffinity)
    }

    /// These settings with `gate` set to `on`.
    pub fn with(mut self, gate: Gate, on: bool) -> Settings {
        self.feature_gates.set(gate, on);
        self
    }

    /// Whether the queue orders by priority: gate PriorityBasedScheduling (§22).
    pub fn by_priority(&self) -> bool {
        self.gate(Gate::PriorityBasedScheduling)
    }

    /// Whether the taint manager evicts: gate Failover and `--enable-no-execute-taint-eviction`;
    /// before 1.14, which has no such flag, gate Failover alone (§25.1).
    pub fn taint_eviction(&self) -> bool {
        let flag = self.no_execute_taint_eviction || !self.version.at_least(14, 0);
        flag && self.gate(Gate::Failover)
    }

    /// Whether the detector writes workload affinity groups and the scheduler filters by them:
    /// gate WorkloadAffinity (§31).
    pub fn workload_affinity(&self) -> bool {
        self.gate(Gate::WorkloadAffinity)
    }

    /// The gates the estimators read.
    pub fn estimate_gates(&self) -> Gates {
        Gates {
            scheduling_overcommit_protection: self.gate(Gate::SchedulingOvercommitProtection),
            customized_cluster_resource_modeling: self
                .gate(Gate::CustomizedClusterResourceModeling),
            multiple_pod_templates_scheduling: self.gate(Gate::MultiplePodTemplatesScheduling),
        }
    }

    /// Turning on a gate the release does not have is an error at `featureGates.<Gate>`
    /// (Karmada refuses an unknown gate at start); so is a taint manager flag before 1.14.
    pub fn check(&self) -> Result<()> {
        let purge = self.no_execute_taint_eviction_purge_mode != eviction::PurgeMode::default();
        if (self.no_execute_taint_eviction || purge) && !self.version.at_least(14, 0) {
            return Err(Error::Input {
                field: crate::path::Path::fields("enableNoExecuteTaintEviction"),
                code: crate::error::ErrorCode::InvalidInput,
                reason: alloc::format!(
                    "Karmada {} has no --enable-no-execute-taint-eviction or \
                     --no-execute-taint-eviction-purge-mode (from 1.14): its taint manager \
                     evicts with gate Failover alone",
                    self.version
                ),
            });
        }
        self.feature_gates
            .check(self.version, &crate::path::Path::fields("featureGates"))
    }
}

/// The cluster set, every binding, and the clock.
#[derive(Debug, Clone)]
pub struct Fleet {
    /// Every cluster, shared with the fleet it was copied from until it changes (a failure's
    /// plan copies only the clusters its event changes).
    members: Vec<Rc<Member>>,
    health: Vec<Health>,
    /// Per cluster: the workloads assumed there, by binding (SchedulingOvercommitProtection).
    assumed: Vec<BTreeMap<usize, AssumedWorkload>>,
    /// When each binding's assumptions were last made (their time to live runs from it).
    assumed_at: BTreeMap<usize, i64>,
    /// The bindings whose last pass failed, since when and how: they wait in the queue's
    /// unschedulable set or its backoff queue until time passes or an event (§22.1).
    waits: clock::Waits,
    /// The application failover controller's memory (§32.3).
    failover: app_failover::Memory,
    /// Every binding, shared with the fleet it was copied from until it changes (a what-if
    /// copies only the bindings its events change or schedule).
    pub entries: bindings::Bindings,
    pub settings: Settings,
    /// Seconds on the fleet's clock (events advance it).
    pub now: i64,
    /// Events note no binding they leave alone ([`events::Enqueued::quiet`]).
    quiet: bool,
    /// What the controllers did, when (absolute seconds), since the plan began noting.
    pub(crate) journal: Vec<timeline::Moment>,
}

impl Fleet {
    /// A fleet of `members` (each with its health) and `entries`. Two clusters of one name,
    /// or two bindings of one identity, are an error at the second.
    pub fn new(
        clusters: Vec<(Member, Health)>,
        entries: Vec<Entry>,
        settings: Settings,
    ) -> Result<Fleet> {
        settings.check()?;
        let (members, health): (Vec<Rc<Member>>, Vec<Health>) =
            clusters.into_iter().map(|(m, h)| (Rc::new(m), h)).unzip();
        unique(members.iter().map(|m| m.name.as_str()), "clusters")?;
        let ids: Vec<String> = entries.iter().map(|e| alloc::format!("{}", e.id)).collect();
        unique(ids.iter().map(String::as_str), "bindings")?;
        let assumed = alloc::vec![BTreeMap::new(); members.len()];
        Ok(Fleet {
            members,
            health,
            assumed,
            assumed_at: BTreeMap::new(),
            waits: clock::Waits::default(),
            failover: app_failover::Memory::default(),
            entries: entries.into_iter().map(Rc::new).collect(),
            settings,
            now: 0,
            quiet: false,
            journal: Vec::new(),
        })
    }

    pub fn members(&self) -> &[Rc<Member>] {
        &self.members
    }

    pub fn health(&self) -> &[Health] {
        &self.health
    }

    /// The position of the cluster named `name`.
    pub fn cluster(&self, name: &str) -> Option<usize> {
        self.members.iter().position(|m| m.name == name)
    }

    /// The position of the binding `id`.
    pub fn binding(&self, id: &Id) -> Option<usize> {
        self.entries.iter().position(|e| &e.id == id)
    }

    /// Add a cluster (a join); a name already present is an error.
    pub fn add_cluster(&mut self, member: Member, health: Health) -> Result<usize> {
        if self.cluster(&member.name).is_some() {
            return Err(Error::DuplicateName {
                field: crate::path::Path::fields("clusters"),
                name: member.name.as_str().into(),
            });
        }
        self.members.push(Rc::new(member));
        self.health.push(health);
        self.assumed.push(BTreeMap::new());
        Ok(self.members.len() - 1)
    }

    /// The cluster `i` and its health, to change together.
    fn site(&mut self, i: usize) -> Option<(&mut Member, &mut Health)> {
        Some((
            Rc::make_mut(self.members.get_mut(i)?),
            self.health.get_mut(i)?,
        ))
    }

    /// The scheduler's single worker takes every waiting binding, one at a time, in the
    /// queue's order: each is scheduled as `doScheduleBinding` decides (§23) against the
    /// clusters as they are, compiled once for the whole drain; a capacity change (§29.2)
    /// replaces the capacity of the clusters it touches in that set, and is written back to
    /// the members once the queue is empty.
    /// Answers each binding taken, what its pass did, and whether `spec.clusters` changed.
    pub fn drain(&mut self, queue: &mut queue::Queue) -> Vec<(usize, Pass, bool)> {
        self.drain_reporting(queue, &mut |_, _| {})
    }

    /// [`Fleet::drain`], telling `progress` how many bindings it has taken of how many it will
    /// take (those taken and those waiting) after each one.
    pub fn drain_reporting(
        &mut self,
        queue: &mut queue::Queue,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Vec<(usize, Pass, bool)> {
        let mut out = Vec::new();
        let mut touched: Vec<usize> = Vec::new();
        {
            let (members, entries, settings, mut after) = self.worker(&mut touched, &mut out);
            let deleting = triggers::deleting(members);
            // Compiled when the first binding is scheduled: a drain whose bindings all find no
            // trigger compiles nothing.
            let mut clusters: Option<Clusters<'_>> = None;
            let index = groups::Index::new(entries, settings);
            while let Some(b) = queue.pop() {
                // The other members of its groups as they are now, earlier passes included.
                let view = index.view(entries, b);
                let Some(shared) = entries.get_mut(b) else {
                    continue;
                };
                let (pass, written, e) = take(
                    shared,
                    members,
                    &deleting,
                    &mut clusters,
                    settings,
                    after.now,
                    view.as_ref(),
                );
                after.settle(b, e, pass, written, queue, clusters.as_mut());
                progress(after.out.len(), after.out.len() + queue.len());
            }
        }
        self.write_back(touched);
        out
    }

    /// The fleet as the worker splits it: the members and settings it reads, the bindings it
    /// takes, and what it writes after each pass (the clusters it touches into `touched`, each
    /// pass into `out`).
    fn worker<'f>(
        &'f mut self,
        touched: &'f mut Vec<usize>,
        out: &'f mut Vec<(usize, Pass, bool)>,
    ) -> (
        &'f [Rc<Member>],
        &'f mut bindings::Bindings,
        &'f Settings,
        After<'f>,
    ) {
        let protect = self.settings.gate(Gate::SchedulingOvercommitProtection);
        let Fleet {
            members,
            entries,
            assumed,
            assumed_at,
            waits,
            settings,
            now,
            ..
        } = self;
        let after = After {
            assumed,
            assumed_at,
            waits,
            touched,
            out,
            now: *now,
            protect,
        };
        (members, entries, settings, after)
    }

    /// Write the workloads assumed on the clusters at `touched` back to the members.
    fn write_back(&mut self, mut touched: Vec<usize>) {
        touched.sort_unstable();
        touched.dedup();
        for i in touched {
            let workloads = self
                .assumed
                .get(i)
                .map(|a| a.values().cloned().collect())
                .unwrap_or_default();
            if let Some(m) = self.members.get_mut(i) {
                Rc::make_mut(m).assumed = workloads;
            }
        }
    }
}

/// The parts of the fleet the worker writes after a binding's pass, besides the binding, and
/// the list of passes it answers.
struct After<'f> {
    assumed: &'f mut [BTreeMap<usize, AssumedWorkload>],
    assumed_at: &'f mut BTreeMap<usize, i64>,
    waits: &'f mut clock::Waits,
    /// The clusters whose assumed workloads changed in the compiled set.
    touched: &'f mut Vec<usize>,
    out: &'f mut Vec<(usize, Pass, bool)>,
    now: i64,
    /// SchedulingOvercommitProtection is on.
    protect: bool,
}

impl After<'_> {
    /// After binding `b`'s pass, which wrote `written` and left it as `e`: its wait noted,
    /// enqueued again when its new generation asks (§23.4), the pass answered with whether
    /// `spec.clusters` changed, and its footprint assumed in `clusters` (§29.2) when they are
    /// compiled.
    fn settle(
        &mut self,
        b: usize,
        e: &Entry,
        pass: Pass,
        written: Option<patch::Written>,
        queue: &mut queue::Queue,
        clusters: Option<&mut Clusters<'_>>,
    ) {
        let next = Next::after(e, &pass, written, self.protect);
        self.waits
            .note(b, queue.fresh(b), pass.failure(), next.changed, self.now);
        if next.again {
            queue.push(b, e.priority);
        }
        self.out.push((b, pass, next.changed));
        if let (Some(before), Some(set)) = (next.assume, clusters) {
            let shared = capacity::Shared {
                assumed: &mut *self.assumed,
                clusters: set,
                touched: &mut *self.touched,
            };
            shared.assume(b, e, &before);
            self.assumed_at.insert(b, self.now);
        }
    }
}

/// What the drain does after a pass that wrote `written`.
struct Next {
    /// `spec.clusters` changed (cluster or replicas).
    changed: bool,
    /// A Duplicated result that changed the spec is a new generation: the scheduler's update
    /// handler enqueues the binding again (§23.4). A Divided binding taken again finds no
    /// trigger, and a failed one is taken again at its retry: neither is pushed.
    again: bool,
    /// Under SchedulingOvercommitProtection, every successful write assumes the footprint
    /// (`updateAssumptionsCache`, §29.2), releasing the clusters of `spec.clusters` before
    /// it (given here).
    assume: Option<BTreeMap<String, i64>>,
}

impl Next {
    fn after(e: &Entry, pass: &Pass, written: Option<patch::Written>, protect: bool) -> Next {
        let success = pass.succeeded();
        let Some(w) = written else {
            return Next {
                changed: false,
                again: false,
                assume: None,
            };
        };
        Next {
            changed: w.before != e.state.clusters,
            again: success && w.spec && e.rules.strategy() == crate::karmada::Strategy::Duplicated,
            assume: (protect && success && w.patched).then_some(w.before),
        }
    }
}

/// Take binding `shared` once (§23): without a trigger it is read, not copied; with one, it
/// is copied and scheduled against the cluster set in `set`, compiled from `members` when
/// first needed. Answers the pass, what the write changed, and the binding as it now is.
fn take<'e, 'm>(
    shared: &'e mut Rc<Entry>,
    members: &'m [Rc<Member>],
    deleting: &[&str],
    set: &mut Option<Clusters<'m>>,
    settings: &Settings,
    now: i64,
    groups: Option<&GroupView>,
) -> (Pass, Option<patch::Written>, &'e Entry) {
    match triggers::trigger(shared, deleting, settings) {
        Err(why) => (Pass::Skipped { why }, None, &**shared),
        Ok(trigger) => {
            let clusters = set.get_or_insert_with(|| Clusters::new(members));
            let e = Rc::make_mut(shared);
            let (pass, written) = decide(e, trigger, clusters, settings, now, groups);
            (pass, written, &*e)
        }
    }
}

/// Schedule `e` once for `trigger` (§23): the decision against `clusters`, written back as
/// Karmada writes it (§23.3, §23.4). Answers the pass and, when a result was written, what the
/// write changed.
fn decide(
    e: &mut Entry,
    trigger: triggers::Trigger,
    clusters: &Clusters<'_>,
    settings: &Settings,
    now: i64,
    groups: Option<&GroupView>,
) -> (Pass, Option<patch::Written>) {
    let fresh = trigger == triggers::Trigger::RescheduleRequired;
    let evicted: Vec<String> = e
        .state
        .evictions
        .iter()
        .map(|t| t.from_cluster.clone())
        .collect();
    let decided = {
        let mut binding = e.binding(settings, &evicted, fresh);
        binding.workload_groups = groups;
        // The condition's message names the binding's own field the error arose at.
        pipeline::schedule(&binding, clusters, settings.seed)
    };
    let mut written = None;
    e.state.condition = match decided {
        Ok(d) => {
            let result = d
                .assignment
                .iter()
                .map(|a| (String::from(a.name.as_str()), a.replicas as i64))
                .collect();
            let w = patch::write(&mut e.state, result, &e.rules);
            // A cluster whose replicas changed reports its workload anew once it has applied
            // them (docs/rules/fleet.md §33): what it reported before no longer stands.
            let (was, now_placed) = (&w.before, &e.state.clusters);
            e.state
                .reported
                .retain(|c, _| was.get(c) == now_placed.get(c) || !now_placed.contains_key(c));
            written = Some(w);
            e.state.observed_affinity = d.observed_affinity;
            e.state.last_scheduled = Some(now);
            entry::Condition::Success
        }
        Err(err) => {
            let message = alloc::format!("{err}");
            match err {
                // FitError: the result is still written (`spec.clusters` empty, the placement
                // applied); the binding is tried again after its backoff (§23.3, §22.1).
                Error::NoClusterFit { .. } => {
                    written = Some(patch::write(&mut e.state, Vec::new(), &e.rules));
                    entry::Condition::NoClusterFit(message)
                }
                Error::Unschedulable { .. } => entry::Condition::Unschedulable(message),
                _ => entry::Condition::SchedulerError(message),
            }
        }
    };
    let pass = Pass::Scheduled {
        trigger,
        condition: e.state.condition.clone(),
    };
    (pass, written)
}

/// What one dequeue did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "pass")]
pub enum Pass {
    /// No trigger held: nothing scheduled.
    Skipped { why: triggers::Skip },
    /// Scheduled for `trigger`: the result written ([`entry::Condition::Success`]), or the
    /// failure's condition.
    Scheduled {
        trigger: triggers::Trigger,
        condition: entry::Condition,
    },
}

impl Pass {
    /// Whether the binding was scheduled and its result written.
    pub fn succeeded(&self) -> bool {
        matches!(
            self,
            Pass::Scheduled {
                condition: entry::Condition::Success,
                ..
            }
        )
    }

    /// The condition of a failed schedule.
    pub fn failure(&self) -> Option<&entry::Condition> {
        match self {
            Pass::Scheduled { condition, .. } if *condition != entry::Condition::Success => {
                Some(condition)
            }
            _ => None,
        }
    }
}

fn unique<'a>(names: impl Iterator<Item = &'a str>, field: &'static str) -> Result<()> {
    let mut seen = alloc::collections::BTreeSet::new();
    for (i, n) in names.enumerate() {
        if !seen.insert(n) {
            return Err(Error::DuplicateName {
                field: crate::path::Path::fields(field).index(i),
                name: n.into(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;
    use alloc::rc::Rc;
    use alloc::vec::Vec;

    use super::entry::Condition;
    use super::events::Event;
    use super::plan::{plan, plan_with, Outcome};
    use super::testing::*;
    use super::{Fleet, Settings};
    use crate::karmada::gates::Gate;
    use crate::karmada::Strategy;
    use crate::selector::cluster::ClusterAffinity;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest};

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
    }
}
