//! What Karmada does with each event (docs/rules/fleet.md §21, §24, §25, §26-28): the change it
//! makes to clusters and bindings, and which bindings it puts in the scheduler's queue and
//! why, or why not. Whether an enqueued binding is then scheduled is [`super::triggers`]'s.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::app_failover::WorkloadHealth;
use super::entry::{Entry, Id, Rules};
use super::eviction::{self, Due};
use super::health::{self, Health, Readiness};
use super::queue::Queue;
use super::taint_policy;
use super::timeline::{Happening, Moment};
use super::Fleet;
use crate::error::{Error, Result};
use crate::estimate::general::ResourceSummary;
use crate::karmada::cluster::Member;
use crate::karmada::filter::workload_affinity::Groups;
use crate::path::Path;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::label::Labels;
use crate::selector::node::{Taint, TaintEffect};
use crate::Name;

/// Something that happens to the fleet.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The scheduler starts: every binding it sees is added to its queue (what it would do
    /// now with today's bindings: drift, §21.2).
    Restart,
    /// The cluster cannot be reached (§24.2).
    ClusterDown {
        cluster: String,
    },
    /// The cluster is Ready again (§24.2 rule 5).
    ClusterUp {
        cluster: String,
    },
    /// A cluster is created (joins): without a status whatever its object says, so the
    /// cluster controller taints it not-ready (§26.1); its status comes after, as
    /// [`Event::ClusterUp`] or [`Event::Reported`].
    Join {
        member: Box<Member>,
        health: Health,
    },
    /// The cluster status controller reports the cluster's `Ready` condition (a joined
    /// cluster's first status, §26.1).
    Reported {
        cluster: String,
        ready: Readiness,
    },
    /// The cluster is deleted (unjoined): `deletionTimestamp` set (§26.3).
    Leave {
        cluster: String,
    },
    /// `karmadactl cordon` / `uncordon` (§26.2).
    Cordon {
        cluster: String,
    },
    Uncordon {
        cluster: String,
    },
    /// A taint added to the cluster's spec; `timed`: with `timeAdded` (a ClusterTaintPolicy's),
    /// else without (`karmadactl taint`, an edit).
    Taint {
        cluster: String,
        taint: Taint,
        timed: bool,
    },
    Untaint {
        cluster: String,
        key: String,
        effect: TaintEffect,
    },
    /// The cluster's labels replaced (§21.2).
    Relabel {
        cluster: String,
        labels: Labels,
    },
    /// The cluster's `resourceSummary` replaced (a status change: nothing enqueued, §29.1).
    Capacity {
        cluster: String,
        summary: Box<ResourceSummary>,
    },
    /// A template and its binding created (§27.1).
    Create {
        entry: Box<Entry>,
    },
    /// The binding's claiming policy is created, edited or replaced, or its template's
    /// labels change: its placement becomes `rules` and its workload affinity groups `groups`,
    /// as the detector writes them (§27.2, §31.1).
    Place {
        binding: Id,
        rules: Rc<Rules>,
        policy: Option<(String, String)>,
        groups: Option<Groups>,
        /// The policy's `spec.failover.cluster` (not a placement: nothing is enqueued for it).
        failover: Option<super::entry::ClusterFailover>,
        /// The policy's `spec.failover.application`: the application failover controller
        /// looks at the binding again when it changes (§32).
        app_failover: Option<Rc<super::app_failover::ApplicationFailover>>,
    },
    /// The claiming policy is deleted and no other claims the template (§27.3).
    Unclaim {
        binding: Id,
    },
    /// The template's replicas change (§27.4).
    Scale {
        binding: Id,
        replicas: i64,
    },
    /// A WorkloadRebalancer created now for these workloads (§28).
    Rebalance {
        bindings: Vec<Id>,
    },
    /// Time passes (seconds): the taint manager and graceful eviction deadlines (§25), the
    /// queue's retries of failed bindings (§22.1), assumptions' time to live (§29.3).
    Advance {
        seconds: i64,
    },
    /// The ClusterTaintPolicies become these (some created, or their spec changed, §24.3).
    TaintPolicies {
        policies: Vec<super::taint_policy::ClusterTaintPolicy>,
    },
    /// Time passes until every timed step the events started has run (each eviction due, each
    /// graceful eviction task's end, each retry they make due): the plan runs it
    /// ([`super::plan`]); applied alone it changes nothing.
    Settle,
    /// The member reports the binding's workload Healthy on the cluster (its aggregated
    /// status): SchedulingOvercommitProtection releases that assumption (§29.3), the
    /// application failover controller stops counting (§32.2), a graceful eviction task may
    /// end (§33).
    Healthy {
        binding: Id,
        cluster: String,
    },
    /// The member reports the binding's workload Unhealthy on the cluster: the application
    /// failover controller starts counting `tolerationSeconds` (§32.2).
    Unhealthy {
        binding: Id,
        cluster: String,
    },
}

/// Why a binding was put in the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "reason")]
pub enum Why {
    /// The scheduler started: every binding is added.
    Restart,
    /// The binding was created.
    Created,
    /// Its spec changed (a new generation).
    SpecChanged { change: Change },
    /// A cluster's spec or labels changed, or its deletion started, and the cluster matches
    /// the binding's affinity (or it has none): `enqueueAffectedBindings`.
    ClusterChanged { cluster: Name },
    /// Its last pass failed and it waited long enough: the queue tries it again (§22.1).
    Retried { waited: super::clock::Wait },
}

/// Which spec change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "field", content = "cluster")]
pub enum Change {
    Placement,
    Replicas,
    /// The taint manager removed this cluster (and added a graceful eviction task).
    Evicted(String),
    /// A graceful eviction task for this cluster ended.
    EvictionEnded(String),
    /// The application failover controller removed this cluster: the workload was Unhealthy
    /// there for `tolerationSeconds` (§32).
    FailedOver(String),
    /// A WorkloadRebalancer set `rescheduleTriggeredAt`.
    RescheduleTriggered,
    /// The detector wrote other `workloadAffinityGroups` (§31.1).
    WorkloadAffinityGroups,
}

/// Why a binding the event concerns was not put in the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "reason")]
pub enum WhyNot {
    /// It carries no policy claim (or is suspended): the scheduler does not see it.
    NotClaimed,
    /// Its affinity selects neither the old nor the new cluster object.
    AffinityExcludes { cluster: Name },
    /// Only the cluster's status changed (capacity, conditions): no binding is enqueued.
    StatusOnly { cluster: Name },
    /// The cluster changed nothing the scheduler watches (no spec, label or deletion change).
    ClusterUnchanged { cluster: Name },
    /// The spec did not change (same replicas, same placement).
    SpecUnchanged,
    /// `rescheduleTriggeredAt` is already at or after the rebalancer's creation.
    AlreadyTriggered,
    /// The taint manager leaves it on the cluster (for now, or forever).
    Tolerated { cluster: Name, due: Due },
    /// The application failover controller cannot build the eviction task (§32.4).
    FailoverHeld {
        #[serde(flatten)]
        held: super::app_failover::Held,
    },
}

/// One binding an event concerned, and why (`W`: [`Why`] it was enqueued, or [`WhyNot`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Noted<W> {
    /// Its position in the fleet.
    #[serde(skip)]
    pub index: usize,
    pub binding: Id,
    #[serde(flatten)]
    pub why: W,
}

/// What one event did: the bindings it enqueued (in order) and those it left alone.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Enqueued {
    pub enqueued: Vec<Noted<Why>>,
    pub not_enqueued: Vec<Noted<WhyNot>>,
    /// Leave `not_enqueued` empty (a plan of the touched bindings alone, which lists no
    /// binding an event left alone).
    #[serde(skip)]
    pub quiet: bool,
}

impl Enqueued {
    /// Binding `index` (`id`) is left out of the queue, for `why`.
    pub(super) fn left(&mut self, index: usize, id: &Id, why: WhyNot) {
        if self.quiet {
            return;
        }
        self.not_enqueued.push(Noted {
            index,
            binding: id.clone(),
            why,
        });
    }
}

impl Fleet {
    fn cluster_at(&self, name: &str) -> Result<usize> {
        self.cluster(name).ok_or_else(|| Error::UnknownValue {
            field: Path::fields("cluster"),
            value: name.into(),
            expected: "a cluster of the fleet",
        })
    }

    fn binding_at(&self, id: &Id) -> Result<usize> {
        self.binding(id).ok_or_else(|| Error::UnknownValue {
            field: Path::fields("binding"),
            value: alloc::format!("{id}"),
            expected: "a binding of the fleet",
        })
    }

    /// Apply `event`, putting the bindings it enqueues in `queue`.
    pub fn apply(&mut self, event: Event, queue: &mut Queue) -> Result<Enqueued> {
        let mut out = Enqueued {
            quiet: self.quiet,
            ..Enqueued::default()
        };
        // The controller-manager's controllers start with the plan (§32.3).
        if !self.failover.started {
            self.controllers_due(queue, &mut out);
        }
        // Any event but time passing may change what a failed binding's retry reads; time
        // passing notes its own changes (an eviction or assumption ending, §22.1).
        if !matches!(event, Event::Advance { .. }) {
            self.waits.changed();
        }
        match event {
            Event::Restart => {
                for b in 0..self.entries.len() {
                    self.enqueue(b, Why::Restart, queue, &mut out);
                }
            }
            Event::ClusterDown { cluster } => {
                let i = self.cluster_at(&cluster)?;
                let ready = self.health.get(i).map(health::unreachable);
                self.readiness(i, ready.unwrap_or(Readiness::NotReady), queue, &mut out);
            }
            Event::ClusterUp { cluster } => {
                let i = self.cluster_at(&cluster)?;
                self.readiness(i, Readiness::Ready, queue, &mut out);
            }
            Event::Join { member, health } => {
                // Created without a status: the creation enqueues nothing; the cluster
                // controller's not-ready taint enqueues the bindings it matches (§26.1).
                let health = Health {
                    ready: Readiness::Never,
                    ..health
                };
                let i = self.add_cluster(*member, health)?;
                self.readiness(i, Readiness::Never, queue, &mut out);
            }
            Event::Reported { cluster, ready } => {
                let i = self.cluster_at(&cluster)?;
                self.readiness(i, ready, queue, &mut out);
            }
            Event::Leave { cluster } => {
                let i = self.cluster_at(&cluster)?;
                let old = self.members.get(i).cloned();
                if let Some(m) = self.members.get_mut(i) {
                    m.deleting = true;
                }
                // Only the new object is checked (`updateCluster`).
                self.cluster_changed(i, None, old.is_some(), queue, &mut out);
            }
            Event::Cordon { cluster } => {
                let i = self.cluster_at(&cluster)?;
                let old = self.members.get(i).cloned();
                let changed = self
                    .site(i)
                    .is_some_and(|(m, h)| health::add_taint(m, h, health::cordon_taint(), None));
                self.cluster_changed(i, old, changed, queue, &mut out);
            }
            Event::Uncordon { cluster } => {
                let i = self.cluster_at(&cluster)?;
                let old = self.members.get(i).cloned();
                let changed = self.site(i).is_some_and(|(m, h)| {
                    health::remove_taint(m, h, health::UNSCHEDULABLE, TaintEffect::NoSchedule)
                });
                self.cluster_changed(i, old, changed, queue, &mut out);
            }
            Event::Taint {
                cluster,
                taint,
                timed,
            } => {
                let i = self.cluster_at(&cluster)?;
                let old = self.members.get(i).cloned();
                let now = self.now;
                let changed = self
                    .site(i)
                    .is_some_and(|(m, h)| health::add_taint(m, h, taint, timed.then_some(now)));
                self.cluster_changed(i, old, changed, queue, &mut out);
            }
            Event::Untaint {
                cluster,
                key,
                effect,
            } => {
                let i = self.cluster_at(&cluster)?;
                let old = self.members.get(i).cloned();
                let changed = self
                    .site(i)
                    .is_some_and(|(m, h)| health::remove_taint(m, h, &key, effect));
                self.cluster_changed(i, old, changed, queue, &mut out);
            }
            Event::Relabel { cluster, labels } => {
                let i = self.cluster_at(&cluster)?;
                let old = self.members.get(i).cloned();
                let changed = match self.members.get_mut(i) {
                    Some(m) if m.labels != labels => {
                        m.labels = labels;
                        true
                    }
                    _ => false,
                };
                self.cluster_changed(i, old, changed, queue, &mut out);
            }
            Event::Capacity { cluster, summary } => {
                let i = self.cluster_at(&cluster)?;
                if let Some(m) = self.members.get_mut(i) {
                    m.resource_summary = Some(*summary);
                }
                for (b, e) in self.entries.iter().enumerate() {
                    let why = WhyNot::StatusOnly {
                        cluster: cluster.as_str().into(),
                    };
                    out.left(b, &e.id, why);
                }
            }
            Event::Create { entry } => {
                if self.binding(&entry.id).is_some() {
                    return Err(Error::DuplicateName {
                        field: Path::fields("binding"),
                        name: alloc::format!("{}", entry.id),
                    });
                }
                self.entries.push(Rc::from(entry));
                self.enqueue(self.entries.len() - 1, Why::Created, queue, &mut out);
            }
            Event::Place {
                binding,
                rules,
                policy,
                groups,
                failover,
                app_failover,
            } => {
                let b = self.binding_at(&binding)?;
                let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) else {
                    return Ok(out);
                };
                e.failover = failover;
                let refail = e.app_failover != app_failover;
                e.app_failover = app_failover;
                let newly = !e.claimed;
                let changed = e.rules != rules;
                let regrouped = e.groups != groups;
                e.rules = rules;
                e.policy = policy;
                e.groups = groups;
                e.claimed = true;
                if changed || newly || regrouped {
                    let why = if newly {
                        Why::Created
                    } else {
                        Why::SpecChanged {
                            change: if changed {
                                Change::Placement
                            } else {
                                Change::WorkloadAffinityGroups
                            },
                        }
                    };
                    self.enqueue(b, why, queue, &mut out);
                } else {
                    out.left(b, &binding, WhyNot::SpecUnchanged);
                }
                if refail {
                    self.reconcile_failover(b, queue, &mut out);
                }
            }
            Event::Unclaim { binding } => {
                let b = self.binding_at(&binding)?;
                if let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) {
                    e.claimed = false;
                    e.policy = None;
                }
                out.left(b, &binding, WhyNot::NotClaimed);
            }
            Event::Scale { binding, replicas } => {
                let b = self.binding_at(&binding)?;
                let changed = match self.entries.get_mut(b).map(Rc::make_mut) {
                    Some(e) if e.workload.replicas != replicas => {
                        e.workload.replicas = replicas;
                        true
                    }
                    _ => false,
                };
                if changed {
                    let why = Why::SpecChanged {
                        change: Change::Replicas,
                    };
                    self.enqueue(b, why, queue, &mut out);
                } else {
                    out.left(b, &binding, WhyNot::SpecUnchanged);
                }
            }
            Event::Rebalance { bindings } => {
                let now = self.now;
                for id in bindings {
                    let b = self.binding_at(&id)?;
                    let earlier = self
                        .entries
                        .get(b)
                        .is_some_and(|e| e.state.reschedule_triggered_at.is_none_or(|t| t < now));
                    if !earlier {
                        out.left(b, &id, WhyNot::AlreadyTriggered);
                        continue;
                    }
                    if let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) {
                        e.state.reschedule_triggered_at = Some(now);
                    }
                    let why = Why::SpecChanged {
                        change: Change::RescheduleTriggered,
                    };
                    self.enqueue(b, why, queue, &mut out);
                }
            }
            Event::Advance { seconds } => {
                self.now = self.now.saturating_add(seconds.max(0));
                // The controllers' requeues due now (§32.2, §33).
                self.controllers_due(queue, &mut out);
                // An assumption past its time to live no longer counts (`GetAssumedWorkloads`
                // skips it) when a retry due now reads the capacity.
                self.expire_assumptions();
                for (b, waited) in self.due_retries() {
                    self.enqueue(b, Why::Retried { waited }, queue, &mut out);
                }
            }
            Event::TaintPolicies { policies } => {
                self.taint_policies(policies, queue, &mut out);
            }
            Event::Settle => {}
            Event::Healthy { binding, cluster } => {
                let b = self.binding_at(&binding)?;
                let i = self.cluster_at(&cluster)?;
                // A status change (the aggregated status): nothing is enqueued by it.
                self.release(b, Some(i));
                self.report(b, &cluster, WorkloadHealth::Healthy, queue, &mut out);
                let cluster = cluster.as_str().into();
                out.left(b, &binding, WhyNot::StatusOnly { cluster });
            }
            Event::Unhealthy { binding, cluster } => {
                let b = self.binding_at(&binding)?;
                self.cluster_at(&cluster)?;
                self.report(b, &cluster, WorkloadHealth::Unhealthy, queue, &mut out);
                let cluster = cluster.as_str().into();
                out.left(b, &binding, WhyNot::StatusOnly { cluster });
            }
        }
        self.taint_manager(queue, &mut out);
        Ok(out)
    }

    /// Put binding `b` in the queue, if the scheduler sees it.
    pub(super) fn enqueue(&self, b: usize, why: Why, queue: &mut Queue, out: &mut Enqueued) {
        let Some(e) = self.entries.get(b) else {
            return;
        };
        if !e.claimed {
            out.left(b, &e.id, WhyNot::NotClaimed);
            return;
        }
        match why {
            // The flush moves the waiting entry itself, with its attempts.
            Why::Retried { .. } => queue.push_retry(b, e.priority),
            _ => queue.push(b, e.priority),
        };
        out.enqueued.push(Noted {
            index: b,
            binding: e.id.clone(),
            why,
        });
    }

    /// Set cluster `i`'s readiness: the cluster controller's taints (§24.2), then the
    /// ClusterTaintPolicy controller's, which a condition change reconciles (§24.3); the
    /// bindings their change enqueues.
    fn readiness(&mut self, i: usize, ready: Readiness, queue: &mut Queue, out: &mut Enqueued) {
        let old = self.members.get(i).cloned();
        let was = self.health.get(i).map(|h| h.ready);
        let now = self.now;
        let Some((m, h)) = self.site(i) else {
            return;
        };
        let cluster = String::from(m.name.as_str());
        let own = health::set_ready(m, h, ready, now);
        let mut changed = !own.is_empty();
        let mut notes = Vec::new();
        if was != Some(ready) {
            if let Some(&(kind, status)) = taint_policy::conditions(h).first() {
                notes.push(Happening::Condition {
                    cluster: cluster.clone(),
                    kind: kind.into(),
                    status: status.into(),
                });
            }
        }
        notes.extend(
            own.into_iter()
                .map(|(t, added)| tainting(&cluster, &t, added, None)),
        );
        if was != Some(ready) {
            let policies = core::mem::take(&mut self.settings.taint_policies);
            let version = self.settings.version;
            if let Some((m, h)) = self.site(i) {
                for c in taint_policy::reconcile(m, h, &policies, version, now) {
                    changed = true;
                    notes.push(tainting(&cluster, &c.taint, c.added, Some(c.policy)));
                }
            }
            self.settings.taint_policies = policies;
        }
        self.journal
            .extend(notes.into_iter().map(|what| Moment::new(now, what)));
        self.cluster_changed(i, old, changed, queue, out);
    }

    /// The ClusterTaintPolicies become `policies` (one created, or its spec changed): each
    /// cluster a new or changed policy targets is reconciled (§24.3), and the bindings its
    /// taints' change enqueues.
    fn taint_policies(
        &mut self,
        policies: Vec<taint_policy::ClusterTaintPolicy>,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) {
        let changed: Vec<taint_policy::ClusterTaintPolicy> = policies
            .iter()
            .filter(|p| !self.settings.taint_policies.contains(p))
            .cloned()
            .collect();
        self.settings.taint_policies = policies;
        let version = self.settings.version;
        let now = self.now;
        for i in 0..self.members.len() {
            let targeted = self
                .members
                .get(i)
                .is_some_and(|m| changed.iter().any(|p| p.targets(m, version)));
            if !targeted {
                continue;
            }
            let old = self.members.get(i).cloned();
            let policies = core::mem::take(&mut self.settings.taint_policies);
            let mut notes = Vec::new();
            if let Some((m, h)) = self.site(i) {
                let cluster = String::from(m.name.as_str());
                for c in taint_policy::reconcile(m, h, &policies, version, now) {
                    notes.push(tainting(&cluster, &c.taint, c.added, Some(c.policy)));
                }
            }
            self.settings.taint_policies = policies;
            let touched = !notes.is_empty();
            self.journal
                .extend(notes.into_iter().map(|what| Moment::new(now, what)));
            self.cluster_changed(i, old, touched, queue, out);
        }
    }

    /// `updateCluster` then `enqueueAffectedBindings` (§21.2): when the cluster's spec or
    /// labels changed (`changed`), every binding whose affinity matches the old or the new
    /// object is enqueued.
    fn cluster_changed(
        &self,
        i: usize,
        old: Option<Member>,
        changed: bool,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) {
        let Some(new) = self.members.get(i) else {
            return;
        };
        let name = new.name.clone();
        if !changed {
            for (b, e) in self.entries.iter().enumerate() {
                let why = WhyNot::ClusterUnchanged {
                    cluster: name.clone(),
                };
                out.left(b, &e.id, why);
            }
            return;
        }
        let zones = self.settings.version.zone_in();
        // Bindings of one policy share its affinity: each affinity is matched once.
        let mut matched: BTreeMap<*const ClusterAffinity, bool> = BTreeMap::new();
        for (b, e) in self.entries.iter().enumerate() {
            let affinity = e.rules.event_affinity(&e.state.observed_affinity);
            let hit = affinity.is_none_or(|a| {
                *matched
                    .entry(a as *const ClusterAffinity)
                    .or_insert_with(|| {
                        let matches = |m: &Member| a.matches(&m.facts(), zones);
                        matches(new) || old.as_ref().is_some_and(matches)
                    })
            });
            if hit {
                let why = Why::ClusterChanged {
                    cluster: name.clone(),
                };
                self.enqueue(b, why, queue, out);
            } else {
                let why = WhyNot::AffinityExcludes {
                    cluster: name.clone(),
                };
                out.left(b, &e.id, why);
            }
        }
    }

    /// The taint manager (§25), when it runs: every binding placed on a cluster with NoExecute
    /// taints is evicted from it once due (`syncBindingEviction`), with the purge mode
    /// `getPurgeMode` gives it, and enqueued.
    fn taint_manager(&mut self, queue: &mut Queue, out: &mut Enqueued) {
        if !self.settings.taint_eviction() {
            return;
        }
        let now = self.now;
        let flag = self.settings.no_execute_taint_eviction_purge_mode;
        for c in 0..self.members.len() {
            let (Some(m), Some(h)) = (self.members.get(c), self.health.get(c)) else {
                continue;
            };
            let name = String::from(m.name.as_str());
            let mut evicted = Vec::new();
            for (b, e) in self.entries.iter().enumerate() {
                if !e.state.clusters.contains_key(&name) {
                    continue;
                }
                match eviction::due(e, m, h) {
                    None => {}
                    Some(Due::Now) => evicted.push(b),
                    Some(Due::At(t)) if t <= now => evicted.push(b),
                    Some(due) => {
                        let why = WhyNot::Tolerated {
                            cluster: m.name.clone(),
                            due,
                        };
                        out.left(b, &e.id, why);
                    }
                }
            }
            for b in evicted {
                let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) else {
                    continue;
                };
                let mode = eviction::purge_mode(e.failover.as_ref().map(|f| f.purge_mode), flag);
                let Some(replicas) = eviction::evict(e, &name, mode, now) else {
                    continue;
                };
                let binding = e.id.clone();
                self.journal.push(Moment::new(
                    now,
                    Happening::Evicted {
                        binding,
                        cluster: name.clone(),
                        replicas,
                        purge_mode: mode,
                    },
                ));
                self.waits.changed();
                let why = Why::SpecChanged {
                    change: Change::Evicted(name.clone()),
                };
                self.enqueue(b, why, queue, out);
            }
        }
    }

    /// When the taint manager or the graceful eviction controller next acts on its own, after
    /// `now`: the first `timeAdded + tolerationSeconds` of a binding placed on a NoExecute
    /// cluster (`AddAfter`), or the first graceful eviction task's timeout (`nextRetry`).
    pub(super) fn next_timed(&self) -> Option<i64> {
        let now = self.now;
        let timeout = self.settings.graceful_eviction_timeout;
        let tasks = self
            .entries
            .iter()
            .filter_map(|e| super::graceful_eviction::next_retry(e, timeout))
            .chain(self.next_failover_run());
        let mut evictions = Vec::new();
        if self.settings.taint_eviction() {
            for (m, h) in self.members.iter().zip(&self.health) {
                if !m.taints.iter().any(|t| t.effect == TaintEffect::NoExecute) {
                    continue;
                }
                let name = m.name.as_str();
                for e in &self.entries {
                    if !e.state.clusters.contains_key(name) {
                        continue;
                    }
                    if let Some(Due::At(t)) = eviction::due(e, m, h) {
                        evictions.push(t);
                    }
                }
            }
        }
        tasks.chain(evictions).filter(|&t| t > now).min()
    }
}

/// A taint's change as the timeline says it.
fn tainting(cluster: &str, t: &Taint, added: bool, policy: Option<String>) -> Happening {
    let cluster = String::from(cluster);
    let taint = alloc::format!("{}:{}", t.key, t.effect.as_str());
    if added {
        Happening::Tainted {
            cluster,
            taint,
            policy,
        }
    } else {
        Happening::Untainted {
            cluster,
            taint,
            policy,
        }
    }
}
