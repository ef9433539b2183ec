//! One binding of a fleet (docs/rules/fleet.md §20): who it is (kind, namespace, name), what
//! its claiming policy places (the [`Rules`]), what its template asks for (the
//! [`Workload`]), and what Karmada has written on it so far (the [`State`]: `spec.clusters`,
//! the applied placement, graceful eviction tasks, the reschedule trigger, the last schedule).
//! An entry lends its parts to [`Binding::new`] for the scheduler, with the fleet's
//! [`Settings`] for what is the scheduler's, not the binding's.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use compact_str::CompactString;

use serde::{Deserialize, Serialize};

use super::Settings;
use crate::error::{Error, Result};
use crate::estimate::Component;
use crate::karmada::affinity_terms::{
    affinity_index, PlacementSpec, ReplicaScheduling, WeightPreference,
};
use crate::karmada::binding::{Asked, Binding, Placed, Recorded};
use crate::karmada::filter::workload_affinity::Groups;
use crate::karmada::{StaticWeightRule, Strategy};
use crate::path::Path;
use crate::resource::ResourceList;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::{NodeClaim, Toleration};

/// A ResourceBinding (namespaced template) or a ClusterResourceBinding (cluster-scoped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BindingKind {
    ResourceBinding,
    ClusterResourceBinding,
}

/// A binding's identity: its kind, namespace (empty for a ClusterResourceBinding) and name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Id {
    pub kind: BindingKind,
    #[serde(default, skip_serializing_if = "CompactString::is_empty")]
    pub namespace: CompactString,
    pub name: CompactString,
}

impl core::fmt::Display for Id {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.kind {
            BindingKind::ResourceBinding => write!(f, "rb/{}/{}", self.namespace, self.name),
            BindingKind::ClusterResourceBinding => write!(f, "crb/{}", self.name),
        }
    }
}

/// The placement the claiming policy gives the binding (`spec.placement`, after the policy
/// webhook's defaults), as written: what the scheduler's triggers compare with the placement
/// applied at the last schedule (docs/rules/karmada.md §15.1), with each toleration's
/// `tolerationSeconds` (the taint manager's, docs/rules/fleet.md §25), and the strategy the
/// scheduler reads from it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rules {
    placement: PlacementSpec,
    seconds: Vec<Option<i64>>,
    strategy: Strategy,
    /// Fill clusters tier by tier of their overflow order.
    pub overflow: bool,
}

impl Rules {
    /// The rules of `placement`, with `seconds[i]` the `tolerationSeconds` of its toleration
    /// `i` (missing entries: none). An unknown `replicaSchedulingType` or
    /// `replicaDivisionPreference` is an error at that field.
    pub fn new(placement: PlacementSpec, mut seconds: Vec<Option<i64>>) -> Result<Rules> {
        let strategy = strategy_of(placement.replica_scheduling.as_ref())?;
        seconds.resize(placement.cluster_tolerations.len(), None);
        Ok(Rules {
            placement,
            seconds,
            strategy,
            overflow: false,
        })
    }

    /// The rules of a placement that divides by `strategy` and states nothing else.
    pub fn of(strategy: Strategy) -> Rules {
        let divided = |preference: &str, dynamic: &str| ReplicaScheduling {
            replica_scheduling_type: "Divided".into(),
            replica_division_preference: preference.into(),
            weight_preference: (!dynamic.is_empty()).then(|| WeightPreference {
                dynamic_weight: dynamic.into(),
                ..WeightPreference::default()
            }),
        };
        let replica_scheduling = match strategy {
            Strategy::Duplicated => None,
            Strategy::StaticWeight => Some(divided("Weighted", "")),
            Strategy::DynamicWeight => Some(divided("Weighted", "AvailableReplicas")),
            Strategy::Aggregated => Some(divided("Aggregated", "")),
        };
        Rules {
            placement: PlacementSpec {
                replica_scheduling,
                ..PlacementSpec::default()
            },
            strategy,
            ..Rules::default()
        }
    }

    /// The same rules with `tolerations` (each with its `tolerationSeconds`).
    pub fn with_tolerations(mut self, tolerations: Vec<(Toleration, Option<i64>)>) -> Rules {
        let (list, seconds) = tolerations.into_iter().unzip();
        self.placement.cluster_tolerations = list;
        self.seconds = seconds;
        self
    }

    /// The same rules with `affinity`.
    pub fn with_affinity(mut self, affinity: ClusterAffinity) -> Rules {
        self.placement.cluster_affinity = Some(affinity);
        self
    }

    /// The placement as written.
    pub fn placement(&self) -> &PlacementSpec {
        &self.placement
    }

    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// Each toleration with its `tolerationSeconds`.
    pub fn timed_tolerations(&self) -> impl Iterator<Item = (&Toleration, Option<i64>)> + '_ {
        self.placement
            .cluster_tolerations
            .iter()
            .zip(self.seconds.iter().copied())
    }

    /// The static weight list of a StaticWeight placement (absent when empty).
    pub fn static_weights(&self) -> Option<&[StaticWeightRule]> {
        if self.strategy != Strategy::StaticWeight {
            return None;
        }
        self.placement
            .replica_scheduling
            .as_ref()?
            .weight_preference
            .as_ref()
            .map(|w| w.static_weight_list.as_slice())
            .filter(|l| !l.is_empty())
    }

    /// The placement as the scheduler reads it: the strategy by name, the static weight list
    /// of a StaticWeight placement, no affinity terms when the list is empty.
    pub fn placed(&self) -> Placed<'_> {
        let PlacementSpec {
            cluster_affinity,
            cluster_affinities,
            cluster_tolerations,
            spread_constraints,
            replica_scheduling: _,
            // Read through the detector's groups (`Entry::groups`).
            workload_affinity: _,
        } = &self.placement;
        Placed {
            strategy: Some(self.strategy.name()),
            static_weights: self.static_weights(),
            overflow: self.overflow,
            cluster_affinity: cluster_affinity.as_ref(),
            cluster_affinities: (!cluster_affinities.is_empty())
                .then_some(cluster_affinities.as_slice()),
            cluster_tolerations,
            spread_constraints,
        }
    }

    /// The affinity the scheduler's cluster event handler checks a cluster against
    /// (`enqueueAffectedBindings`): the observed term's (term 0 when not found), else the
    /// inline affinity; `None` matches every cluster.
    pub fn event_affinity(&self, observed: &str) -> Option<&ClusterAffinity> {
        let terms = &self.placement.cluster_affinities;
        if terms.is_empty() {
            return self.placement.cluster_affinity.as_ref();
        }
        let names: Vec<&str> = terms.iter().map(|t| t.affinity_name.as_str()).collect();
        terms
            .get(affinity_index(&names, observed))
            .map(|t| &t.affinity)
    }
}

/// The strategy a defaulted `replicaScheduling` states: absent or Duplicated; Divided (the
/// CRD's default type) by Aggregated, or Weighted (the webhook's default preference) by
/// dynamic weight when one is named, else by static weights (docs/rules/karmada.md §16.2).
fn strategy_of(rs: Option<&ReplicaScheduling>) -> Result<Strategy> {
    let Some(rs) = rs else {
        return Ok(Strategy::Duplicated);
    };
    let at = |field: &'static str, value: &str| Error::UnknownValue {
        field: Path::fields("placement.replicaScheduling").field(field),
        value: value.into(),
        expected: "a value Karmada's webhook admits",
    };
    match rs.replica_scheduling_type.as_str() {
        "Duplicated" => Ok(Strategy::Duplicated),
        "Divided" | "" => match rs.replica_division_preference.as_str() {
            "Aggregated" => Ok(Strategy::Aggregated),
            "Weighted" | "" => Ok(
                if rs
                    .weight_preference
                    .as_ref()
                    .is_some_and(|w| !w.dynamic_weight.is_empty())
                {
                    Strategy::DynamicWeight
                } else {
                    Strategy::StaticWeight
                },
            ),
            other => Err(at("replicaDivisionPreference", other)),
        },
        other => Err(at("replicaSchedulingType", other)),
    }
}

/// What the template asks for (`spec.replicas`, `spec.replicaRequirements`, `spec.components`,
/// `spec.resource`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Workload {
    pub replicas: i64,
    pub requests: Option<ResourceList>,
    pub node_claim: Option<NodeClaim>,
    pub components: Vec<Component>,
    pub priority_class: Option<String>,
    pub api_version: Option<String>,
    pub kind: Option<String>,
}

impl Workload {
    /// What the scheduler reads of it.
    pub fn asked(&self) -> Asked<'_> {
        let Workload {
            replicas,
            requests,
            node_claim,
            components,
            priority_class,
            api_version,
            kind,
        } = self;
        Asked {
            replicas: Some(*replicas),
            requests: requests.as_ref(),
            node_claim: node_claim.as_ref(),
            components,
            priority_class: priority_class.as_deref(),
            api_version: api_version.as_deref(),
            kind: kind.as_deref(),
        }
    }

    /// Karmada's `IsWorkload`: replicas, requirements or components.
    pub fn is_workload(&self) -> bool {
        self.replicas > 0
            || self.requests.is_some()
            || self.node_claim.is_some()
            || !self.components.is_empty()
    }
}

/// A `spec.gracefulEvictionTasks[]` entry (docs/rules/fleet.md §25.3, §32.4).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EvictionTask {
    pub from_cluster: String,
    /// The replicas the cluster had, when more than 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    /// When the task was created (seconds on the fleet's clock).
    pub created_at: i64,
    /// How the workload left on the cluster is removed.
    #[serde(default)]
    pub purge_mode: super::eviction::PurgeMode,
    /// Read without a `creationTimestamp`: the graceful eviction controller stamps it when it
    /// first sees it (§33).
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub unstamped: bool,
    /// The task's own timeout (application failover's `Gracefully`, §32.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_period_seconds: Option<i64>,
    /// Kept until a user confirms (application failover's `Never`, §32.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suppress_deletion: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `preservedLabelState`: each preserved label with the value Karmada extracts from the
    /// member's status of the workload (empty where the fleet does not know it).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub preserved_label_state: BTreeMap<String, String>,
    /// `clustersBeforeFailover` (with a preserved state, §32.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clusters_before_failover: Vec<String>,
}

/// The claiming policy's `spec.failover.cluster`, which the detector copies to the binding
/// (from Karmada 1.16; docs/rules/fleet.md §25.3).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterFailover {
    /// `purgeMode` (the CRD's default: Gracefully).
    #[serde(default)]
    pub purge_mode: super::eviction::PurgeMode,
    /// `statePreservation.rules[].aliasLabelName`.
    #[serde(default)]
    pub preserved_labels: Vec<String>,
}

/// The binding's `Scheduled` condition.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "reason", content = "message")]
pub enum Condition {
    /// Never scheduled (no condition yet).
    #[default]
    Pending,
    /// `Scheduled=True`.
    Success,
    /// `Scheduled=False/NoClusterFit`: `spec.clusters` written empty; retried after its
    /// backoff (§22.1).
    NoClusterFit(String),
    /// `Scheduled=False/Unschedulable`: `spec.clusters` kept, retried after about 5 minutes.
    Unschedulable(String),
    /// `Scheduled=False/SchedulerError`: `spec.clusters` kept, retried with backoff.
    SchedulerError(String),
}

/// What Karmada has written on the binding.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct State {
    /// `spec.clusters`: cluster name -> replicas.
    pub clusters: BTreeMap<String, i64>,
    /// The order of `spec.clusters` as written, by name (docs/rules/fleet.md §23.4); the
    /// clusters it does not list follow in name order.
    pub order: Vec<String>,
    /// The placement applied at the last schedule (the applied-placement annotation).
    pub applied: Option<Rc<Rules>>,
    /// `status.schedulerObservingAffinityName`.
    pub observed_affinity: String,
    /// `spec.gracefulEvictionTasks`.
    pub evictions: Vec<EvictionTask>,
    /// `spec.rescheduleTriggeredAt` (seconds).
    pub reschedule_triggered_at: Option<i64>,
    /// `status.lastScheduledTime` (seconds).
    pub last_scheduled: Option<i64>,
    pub condition: Condition,
    /// `status.aggregatedStatus`: what each member reports of the workload (§32).
    pub reported: BTreeMap<String, super::app_failover::Reported>,
}

/// One binding of the fleet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: Id,
    /// `spec.schedulePriority.priority` (absent: 0).
    pub priority: i32,
    /// The scheduler sees it: it carries a policy's claim and is not suspended (§21.1).
    pub claimed: bool,
    /// The claiming policy, as `namespace/name` (empty namespace for a
    /// ClusterPropagationPolicy).
    pub policy: Option<(String, String)>,
    /// Shared with the applied placement while they are the same (a fleet copied for a
    /// what-if copies no placement).
    pub rules: Rc<Rules>,
    pub workload: Workload,
    pub state: State,
    /// The binding's UID (Webster's name tie direction).
    pub uid: String,
    /// `spec.workloadAffinityGroups` (a ResourceBinding's; docs/rules/fleet.md §31).
    pub groups: Option<Groups>,
    /// `spec.failover.cluster`, from the claiming policy.
    pub failover: Option<ClusterFailover>,
    /// `spec.failover.application`, when the application failover controller acts on the
    /// binding (docs/rules/fleet.md §32.1).
    pub app_failover: Option<Rc<super::app_failover::ApplicationFailover>>,
}

impl Entry {
    /// The binding the scheduler reads, with `evicted_from` the clusters of its graceful
    /// eviction tasks (borrowed from the caller, which keeps them while scheduling).
    pub fn binding<'a>(
        &'a self,
        settings: &'a Settings,
        evicted_from: &'a [String],
        fresh: bool,
    ) -> Binding<'a> {
        let recorded = Recorded {
            previous: &self.state.clusters,
            observed_affinity: &self.state.observed_affinity,
            graceful_evictions: evicted_from,
            fresh,
            uid: &self.uid,
        };
        let placed = self.rules.placed();
        let asked = self.workload.asked();
        Binding {
            estimators: settings.estimators.as_deref(),
            plugins: settings.plugins.as_deref(),
            seed: Some(settings.seed),
            ..Binding::new(
                settings.version,
                settings.estimate_gates(),
                placed,
                asked,
                recorded,
            )
        }
    }

    /// Σ `spec.clusters`.
    pub fn assigned(&self) -> i64 {
        self.state.clusters.values().copied().sum()
    }
}
