//! What Karmada does with each event (docs/rules/fleet.md §21, §24, §25, §26-28): the change it
//! makes to clusters and bindings, and which bindings it puts in the scheduler's queue and
//! why, or why not. Whether an enqueued binding is then scheduled is [`super::triggers`]'s.

use alloc::boxed::Box;
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

/// What the detector writes into a binding from its claiming policy ([`Event::Place`]).
struct Placing {
    rules: Rc<Rules>,
    policy: Option<(String, String)>,
    groups: Option<Groups>,
    failover: Option<super::entry::ClusterFailover>,
    app_failover: Option<Rc<super::app_failover::ApplicationFailover>>,
}

/// Something that happens to the fleet.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// The scheduler starts: every binding it sees is added to its queue (what it would do
    /// now with today's bindings: drift, §21.2).
    Restart,
    /// [`Event::Restart`] for these bindings (by position) alone: their drift, which is the
    /// whole restart's for them when no binding's schedule reads another's
    /// ([`super::Settings::independent`]).
    RestartOf {
        bindings: Vec<usize>,
    },
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
        self.left_with(index, id, || why);
    }

    /// [`Enqueued::left`], the reason worded only when it is noted.
    pub(super) fn left_with(&mut self, index: usize, id: &Id, why: impl FnOnce() -> WhyNot) {
        if self.quiet {
            return;
        }
        self.not_enqueued.push(Noted {
            index,
            binding: id.clone(),
            why: why(),
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
            Event::Restart => self.restart(queue, &mut out),
            Event::RestartOf { bindings } => self.restart_of(bindings, queue, &mut out),
            Event::ClusterDown { cluster } => self.cluster_down(&cluster, queue, &mut out)?,
            Event::ClusterUp { cluster } => {
                self.cluster_reported(&cluster, Readiness::Ready, queue, &mut out)?
            }
            Event::Reported { cluster, ready } => {
                self.cluster_reported(&cluster, ready, queue, &mut out)?
            }
            Event::Join { member, health } => self.join(*member, health, queue, &mut out)?,
            Event::Leave { cluster } => self.leave(&cluster, queue, &mut out)?,
            Event::Cordon { cluster } => self.cordon(&cluster, queue, &mut out)?,
            Event::Uncordon { cluster } => self.uncordon(&cluster, queue, &mut out)?,
            Event::Taint {
                cluster,
                taint,
                timed,
            } => self.taint(&cluster, taint, timed, queue, &mut out)?,
            Event::Untaint {
                cluster,
                key,
                effect,
            } => self.untaint(&cluster, &key, effect, queue, &mut out)?,
            Event::Relabel { cluster, labels } => {
                self.relabel(&cluster, labels, queue, &mut out)?
            }
            Event::Capacity { cluster, summary } => self.capacity(&cluster, *summary, &mut out)?,
            Event::Create { entry } => self.create(entry, queue, &mut out)?,
            Event::Place {
                binding,
                rules,
                policy,
                groups,
                failover,
                app_failover,
            } => {
                let placing = Placing {
                    rules,
                    policy,
                    groups,
                    failover,
                    app_failover,
                };
                self.place(&binding, placing, queue, &mut out)?
            }
            Event::Unclaim { binding } => self.unclaim(&binding, &mut out)?,
            Event::Scale { binding, replicas } => {
                self.scale(&binding, replicas, queue, &mut out)?
            }
            Event::Rebalance { bindings } => self.rebalance(&bindings, queue, &mut out)?,
            Event::Advance { seconds } => self.advance(seconds, queue, &mut out),
            Event::TaintPolicies { policies } => self.taint_policies(policies, queue, &mut out),
            Event::Settle => {}
            Event::Healthy { binding, cluster } => {
                self.reported(&binding, &cluster, WorkloadHealth::Healthy, queue, &mut out)?
            }
            Event::Unhealthy { binding, cluster } => self.reported(
                &binding,
                &cluster,
                WorkloadHealth::Unhealthy,
                queue,
                &mut out,
            )?,
        }
        self.taint_manager(queue, &mut out);
        Ok(out)
    }

    /// The scheduler starts: every binding it sees is enqueued (§21.2).
    fn restart(&mut self, queue: &mut Queue, out: &mut Enqueued) {
        for b in 0..self.entries.len() {
            self.enqueue(b, Why::Restart, queue, out);
        }
    }

    /// [`Event::RestartOf`]: the restart for these bindings (by position) alone (§21.2).
    fn restart_of(&mut self, bindings: Vec<usize>, queue: &mut Queue, out: &mut Enqueued) {
        for b in bindings.into_iter().filter(|&b| b < self.entries.len()) {
            self.enqueue(b, Why::Restart, queue, out);
        }
    }

    /// The cluster cannot be reached: its Ready condition becomes what the cluster status
    /// controller reports of an unreachable cluster, NotReady when it has no status (§24.2).
    fn cluster_down(&mut self, cluster: &str, queue: &mut Queue, out: &mut Enqueued) -> Result<()> {
        let i = self.cluster_at(cluster)?;
        let ready = self.health.get(i).map(health::unreachable);
        self.readiness(i, ready.unwrap_or(Readiness::NotReady), queue, out);
        Ok(())
    }

    /// The cluster status controller reports the cluster's Ready condition `ready` (§24.2,
    /// §26.1).
    fn cluster_reported(
        &mut self,
        cluster: &str,
        ready: Readiness,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        let i = self.cluster_at(cluster)?;
        self.readiness(i, ready, queue, out);
        Ok(())
    }

    /// `karmadactl cordon`: the unschedulable NoSchedule taint added (§26.2).
    fn cordon(&mut self, cluster: &str, queue: &mut Queue, out: &mut Enqueued) -> Result<()> {
        self.edit_cluster(cluster, queue, out, |m, h| {
            health::add_taint(m, h, health::cordon_taint(), None)
        })
    }

    /// `karmadactl uncordon`: the unschedulable NoSchedule taint removed (§26.2).
    fn uncordon(&mut self, cluster: &str, queue: &mut Queue, out: &mut Enqueued) -> Result<()> {
        self.edit_cluster(cluster, queue, out, |m, h| {
            health::remove_taint(m, h, health::UNSCHEDULABLE, TaintEffect::NoSchedule)
        })
    }

    /// A taint added to the cluster's spec, with `timeAdded` now when `timed` (§21.2).
    fn taint(
        &mut self,
        cluster: &str,
        taint: Taint,
        timed: bool,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        let at = timed.then_some(self.now);
        self.edit_cluster(cluster, queue, out, |m, h| {
            health::add_taint(m, h, taint, at)
        })
    }

    /// The cluster's taint of `key` and `effect` removed from its spec (§21.2).
    fn untaint(
        &mut self,
        cluster: &str,
        key: &str,
        effect: TaintEffect,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        self.edit_cluster(cluster, queue, out, |m, h| {
            health::remove_taint(m, h, key, effect)
        })
    }

    /// The cluster's labels replaced by `labels` (§21.2).
    fn relabel(
        &mut self,
        cluster: &str,
        labels: Labels,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        self.edit_cluster(cluster, queue, out, |m, _| {
            let changed = m.labels != labels;
            m.labels = labels;
            changed
        })
    }

    /// A cluster created: without a status, so the creation enqueues nothing and the cluster
    /// controller's not-ready taint enqueues the bindings it matches (§26.1).
    fn join(
        &mut self,
        member: Member,
        health: Health,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        let health = Health {
            ready: Readiness::Never,
            ..health
        };
        let i = self.add_cluster(member, health)?;
        self.readiness(i, Readiness::Never, queue, out);
        Ok(())
    }

    /// A cluster deleted: `deletionTimestamp` set; only the new object is checked
    /// (`updateCluster`, §26.3).
    fn leave(&mut self, cluster: &str, queue: &mut Queue, out: &mut Enqueued) -> Result<()> {
        let i = self.cluster_at(cluster)?;
        // Only the new object is checked: the old one is not kept (a copy of the shared
        // member would make the write below copy it again).
        let found = self
            .members
            .get_mut(i)
            .map(|m| Rc::make_mut(m).deleting = true);
        self.cluster_changed(i, None, found.is_some(), queue, out);
        Ok(())
    }

    /// A change to a cluster's spec (`edit` answers whether it changed anything): the
    /// scheduler's cluster event handler compares the old and new objects (§21.2, §26.2).
    fn edit_cluster(
        &mut self,
        cluster: &str,
        queue: &mut Queue,
        out: &mut Enqueued,
        edit: impl FnOnce(&mut Member, &mut Health) -> bool,
    ) -> Result<()> {
        let i = self.cluster_at(cluster)?;
        let old = self.members.get(i).cloned();
        let changed = self.site(i).is_some_and(|(m, h)| edit(m, h));
        self.cluster_changed(i, old, changed, queue, out);
        Ok(())
    }

    /// The cluster's `resourceSummary` replaced: a status change, nothing enqueued (§29.1).
    fn capacity(
        &mut self,
        cluster: &str,
        summary: ResourceSummary,
        out: &mut Enqueued,
    ) -> Result<()> {
        let i = self.cluster_at(cluster)?;
        if let Some(m) = self.members.get_mut(i) {
            Rc::make_mut(m).resource_summary = Some(summary);
        }
        for (b, e) in self.entries.iter().enumerate() {
            out.left_with(b, &e.id, || WhyNot::StatusOnly {
                cluster: cluster.into(),
            });
        }
        Ok(())
    }

    /// A template and its binding created (§27.1).
    fn create(&mut self, entry: Box<Entry>, queue: &mut Queue, out: &mut Enqueued) -> Result<()> {
        if self.binding(&entry.id).is_some() {
            return Err(Error::DuplicateName {
                field: Path::fields("binding"),
                name: alloc::format!("{}", entry.id),
            });
        }
        self.entries.push(Rc::from(entry));
        self.enqueue(self.entries.len() - 1, Why::Created, queue, out);
        Ok(())
    }

    /// The detector writes the claiming policy's placement, groups and failover into the
    /// binding (§27.2, §31.1, §32).
    fn place(
        &mut self,
        binding: &Id,
        placing: Placing,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        let b = self.binding_at(binding)?;
        let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) else {
            return Ok(());
        };
        e.failover = placing.failover;
        let refail = e.app_failover != placing.app_failover;
        e.app_failover = placing.app_failover;
        let newly = !e.claimed;
        let changed = e.rules != placing.rules;
        let regrouped = e.groups != placing.groups;
        e.rules = placing.rules;
        e.policy = placing.policy;
        e.groups = placing.groups;
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
            self.enqueue(b, why, queue, out);
        } else {
            out.left(b, binding, WhyNot::SpecUnchanged);
        }
        if refail {
            self.reconcile_failover(b, queue, out);
        }
        Ok(())
    }

    /// The claiming policy deleted and no other claims the template (§27.3).
    fn unclaim(&mut self, binding: &Id, out: &mut Enqueued) -> Result<()> {
        let b = self.binding_at(binding)?;
        if let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) {
            e.claimed = false;
            e.policy = None;
        }
        out.left(b, binding, WhyNot::NotClaimed);
        Ok(())
    }

    /// The template's replicas change (§27.4).
    fn scale(
        &mut self,
        binding: &Id,
        replicas: i64,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        let b = self.binding_at(binding)?;
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
            self.enqueue(b, why, queue, out);
        } else {
            out.left(b, binding, WhyNot::SpecUnchanged);
        }
        Ok(())
    }

    /// A WorkloadRebalancer created now: `rescheduleTriggeredAt` set on each binding whose
    /// last trigger is earlier (§28).
    fn rebalance(&mut self, bindings: &[Id], queue: &mut Queue, out: &mut Enqueued) -> Result<()> {
        let now = self.now;
        for id in bindings {
            let b = self.binding_at(id)?;
            let earlier = self
                .entries
                .get(b)
                .is_some_and(|e| e.state.reschedule_triggered_at.is_none_or(|t| t < now));
            if !earlier {
                out.left(b, id, WhyNot::AlreadyTriggered);
                continue;
            }
            if let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) {
                e.state.reschedule_triggered_at = Some(now);
            }
            let why = Why::SpecChanged {
                change: Change::RescheduleTriggered,
            };
            self.enqueue(b, why, queue, out);
        }
        Ok(())
    }

    /// Time passes: the controllers' requeues due now (§32.2, §33), assumptions past their
    /// time to live (§29.3), the retries due (§22.1).
    fn advance(&mut self, seconds: i64, queue: &mut Queue, out: &mut Enqueued) {
        self.now = self.now.saturating_add(seconds.max(0));
        self.controllers_due(queue, out);
        // An assumption past its time to live no longer counts (`GetAssumedWorkloads` skips
        // it) when a retry due now reads the capacity.
        self.expire_assumptions();
        for (b, waited) in self.due_retries() {
            self.enqueue(b, Why::Retried { waited }, queue, out);
        }
    }

    /// A member reports the binding's workload `health` on `cluster` (its aggregated status):
    /// a status change, nothing enqueued by it; Healthy releases the assumption there
    /// (§29.3); the controllers that read health look again (§32.2, §33).
    fn reported(
        &mut self,
        binding: &Id,
        cluster: &str,
        health: WorkloadHealth,
        queue: &mut Queue,
        out: &mut Enqueued,
    ) -> Result<()> {
        let b = self.binding_at(binding)?;
        let i = self.cluster_at(cluster)?;
        if health == WorkloadHealth::Healthy {
            self.release(b, Some(i));
        }
        self.report(b, cluster, health, queue, out);
        out.left(
            b,
            binding,
            WhyNot::StatusOnly {
                cluster: cluster.into(),
            },
        );
        Ok(())
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
        old: Option<Rc<Member>>,
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
                out.left_with(b, &e.id, || WhyNot::ClusterUnchanged {
                    cluster: name.clone(),
                });
            }
            return;
        }
        let zones = self.settings.version.zone_in();
        // Each distinct affinity is matched once; only the bindings enqueued are read.
        let groups = self.entries.index();
        let matches = |m: &Member, a: &ClusterAffinity| a.matches(&m.facts(), zones);
        let concerned = groups.concerned(&self.entries, |a| {
            matches(new, a) || old.as_deref().is_some_and(|m| matches(m, a))
        });
        for b in 0..self.entries.len() {
            let hit = groups
                .group(b)
                .and_then(|g| concerned.get(g).copied())
                .unwrap_or(true);
            if hit {
                let why = Why::ClusterChanged {
                    cluster: name.clone(),
                };
                self.enqueue(b, why, queue, out);
            } else if let Some(e) = self.entries.get(b) {
                out.left_with(b, &e.id, || WhyNot::AffinityExcludes {
                    cluster: name.clone(),
                });
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
        for c in 0..self.members.len() {
            let Some(name) = self.members.get(c).map(|m| String::from(m.name.as_str())) else {
                continue;
            };
            for b in self.due_on(c, out) {
                self.evict(b, &name, queue, out);
            }
        }
    }

    /// The bindings placed on cluster `c` whose eviction from it is due now; those that
    /// tolerate its NoExecute taints until later are noted as left alone (§25).
    fn due_on(&self, c: usize, out: &mut Enqueued) -> Vec<usize> {
        let mut evicted = Vec::new();
        let (Some(m), Some(h)) = (self.members.get(c), self.health.get(c)) else {
            return evicted;
        };
        for (b, e) in self.entries.iter().enumerate() {
            if !e.state.clusters.contains_key(m.name.as_str()) {
                continue;
            }
            match eviction::due(e, m, h) {
                None => {}
                Some(Due::Now) => evicted.push(b),
                Some(Due::At(t)) if t <= self.now => evicted.push(b),
                Some(due) => out.left_with(b, &e.id, || WhyNot::Tolerated {
                    cluster: m.name.clone(),
                    due,
                }),
            }
        }
        evicted
    }

    /// Binding `b` evicted from cluster `name` with the purge mode `getPurgeMode` gives it,
    /// noted in the timeline, and enqueued (§25).
    fn evict(&mut self, b: usize, name: &str, queue: &mut Queue, out: &mut Enqueued) {
        let now = self.now;
        let flag = self.settings.no_execute_taint_eviction_purge_mode;
        let Some(e) = self.entries.get_mut(b).map(Rc::make_mut) else {
            return;
        };
        let mode = eviction::purge_mode(e.failover.as_ref().map(|f| f.purge_mode), flag);
        let Some(replicas) = eviction::evict(e, name, mode, now) else {
            return;
        };
        let binding = e.id.clone();
        self.journal.push(Moment::new(
            now,
            Happening::Evicted {
                binding,
                cluster: name.into(),
                replicas,
                purge_mode: mode,
            },
        ));
        self.waits.changed();
        let why = Why::SpecChanged {
            change: Change::Evicted(name.into()),
        };
        self.enqueue(b, why, queue, out);
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

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;
    use alloc::rc::Rc;
    use alloc::vec::Vec;

    use super::{Event, WhyNot};
    use crate::karmada::fleet::health::{Health, Readiness};
    use crate::karmada::fleet::plan::{plan, Outcome, Unchanged};
    use crate::karmada::fleet::testing::*;
    use crate::karmada::fleet::triggers::Trigger;
    use crate::karmada::fleet::Settings;
    use crate::karmada::Strategy;
    use crate::selector::cluster::ClusterAffinity;

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
        let f = divided_over_two(6);
        let p = run(&f, alloc::vec![leave("a")]);
        assert_eq!(after(&p, "div"), placed(&[("b", 6)]));
        assert_eq!(
            outcome(&p, "div"),
            &Outcome::Changed {
                trigger: Trigger::PlacedClusterDeleting
            }
        );
        assert_eq!(p.summary.moved_replicas, 3);
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
        let events = alloc::vec![Event::Unclaim { binding: id("w") }, leave("a"),];
        let p = run(&f, events);
        assert_eq!(after(&p, "w"), placed(&[("a", 1)]));
        assert!(p.steps[1].queued.enqueued.is_empty());
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
        assert_eq!(enqueued(&p, 0), [cluster_changed("dup", "a")]);
        assert_eq!(after(&p, "dup"), placed(&[("b", 1)]));
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
}
