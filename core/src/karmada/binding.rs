//! One binding as Karmada's scheduler reads it (docs/rules/karmada.md §0, §12-15): the
//! placement (strategy, weights, affinities, tolerations, spread constraints, plugins), the
//! workload's replicas and requirements, and the binding's state (previous result, observed
//! affinity term, graceful evictions, reschedule trigger, UID). A [`Binding`] borrows what it
//! reads; whatever holds the binding (a scenario, a fleet's entry) lends its three parts
//! ([`Placed`], [`Asked`], [`Recorded`]) to [`Binding::new`], the one place a binding is put
//! together, and states the scheduler's own settings where they are not the release's.
//!
//! An error of a schedule is located within its input: a field of the binding by its name here
//! in camelCase (`spreadConstraints`, `nodeClaim`, `replicas`, `previous`), a cluster as
//! `clusters[i]`. Whoever lent the binding knows where it wrote each field and places the
//! error there (docs/rules/README.md decision 6).

use alloc::collections::BTreeMap;
use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::constraints::{AffinityTerm, SpreadConstraint};
use super::version::Version;
use super::{Method, StaticWeightRule};
use crate::estimate::by_model::ModelMethod;
use crate::estimate::{Component, Gates};
use crate::resource::ResourceList;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::{NodeClaim, Toleration};

/// Which Karmada estimator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Estimator {
    /// From `resourceSummary` (and `resourceModels`).
    General,
    /// From `nodes` and `pods` (and `resourceQuotas`).
    Accurate,
}

crate::choice::names!(Estimator {
    General => "general",
    Accurate => "accurate",
});

/// One binding: its placement, its workload, its state.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The Karmada release whose rules apply (docs/rules/versions.md).
    pub version: Version,
    // The placement.
    /// `duplicated`, `staticWeight` (absent), `dynamicWeight`, `aggregated`.
    pub strategy: Option<&'a str>,
    /// The division method (the scenario's, else the release's).
    pub method: Method,
    pub static_weights: Option<&'a [StaticWeightRule]>,
    /// The estimators to run; absent: each whose input a cluster has.
    pub estimators: Option<&'a [Estimator]>,
    /// How resource models are read (the scenario's, else the release's).
    pub model_method: ModelMethod,
    /// The feature gates in effect (the scenario's settings over the release's defaults).
    pub gates: Gates,
    /// Fill clusters tier by tier of their `overflow_order`.
    pub overflow: bool,
    pub cluster_affinity: Option<&'a ClusterAffinity>,
    pub cluster_affinities: Option<&'a [AffinityTerm]>,
    pub cluster_tolerations: &'a [Toleration],
    pub spread_constraints: &'a [SpreadConstraint],
    /// The scheduler's `--plugins` entries; absent: `*`.
    pub plugins: Option<&'a [String]>,
    // The workload.
    pub replicas: Option<i64>,
    pub requests: Option<&'a ResourceList>,
    pub node_claim: Option<&'a NodeClaim>,
    pub components: &'a [Component],
    pub priority_class: Option<&'a str>,
    /// The resource's `apiVersion` and `kind`, for the APIEnablement filter.
    pub api_version: Option<&'a str>,
    pub kind: Option<&'a str>,
    // The binding's state.
    /// `spec.clusters`: cluster name -> replicas.
    pub previous: &'a BTreeMap<String, i64>,
    /// `status.schedulerObservingAffinityName`.
    pub observed_affinity: &'a str,
    /// `spec.gracefulEvictionTasks[].fromCluster`.
    pub graceful_evictions: &'a [String],
    /// A reschedule was triggered: divide afresh, ignoring placements.
    pub fresh: bool,
    /// The binding's UID (Webster's name tie direction).
    pub uid: &'a str,
    /// Seed of every random choice; absent: the caller's draw.
    pub seed: Option<u64>,
    /// Where the other members of the binding's workload affinity groups are (a fleet's view,
    /// docs/rules/fleet.md §31); `None`: the WorkloadAffinity pair does not run.
    pub workload_groups: Option<&'a crate::karmada::filter::workload_affinity::GroupView>,
}

/// What a binding's placement states, as the scheduler reads it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Placed<'a> {
    /// `duplicated`, `staticWeight` (absent), `dynamicWeight`, `aggregated`: a name the
    /// schedule reads itself, so that an unknown one is refused where Karmada's scheduler would
    /// first meet it.
    pub strategy: Option<&'a str>,
    pub static_weights: Option<&'a [StaticWeightRule]>,
    /// Fill clusters tier by tier of their `overflow_order`.
    pub overflow: bool,
    pub cluster_affinity: Option<&'a ClusterAffinity>,
    pub cluster_affinities: Option<&'a [AffinityTerm]>,
    pub cluster_tolerations: &'a [Toleration],
    pub spread_constraints: &'a [SpreadConstraint],
}

/// What a binding's template asks for.
#[derive(Debug, Clone, Copy, Default)]
pub struct Asked<'a> {
    pub replicas: Option<i64>,
    pub requests: Option<&'a ResourceList>,
    pub node_claim: Option<&'a NodeClaim>,
    pub components: &'a [Component],
    pub priority_class: Option<&'a str>,
    pub api_version: Option<&'a str>,
    pub kind: Option<&'a str>,
}

/// What Karmada has written on a binding.
#[derive(Debug, Clone, Copy)]
pub struct Recorded<'a> {
    /// `spec.clusters`: cluster name -> replicas.
    pub previous: &'a BTreeMap<String, i64>,
    /// `status.schedulerObservingAffinityName`.
    pub observed_affinity: &'a str,
    /// `spec.gracefulEvictionTasks[].fromCluster`.
    pub graceful_evictions: &'a [String],
    /// A reschedule was triggered: divide afresh, ignoring placements.
    pub fresh: bool,
    /// The binding's UID.
    pub uid: &'a str,
}

impl<'a> Binding<'a> {
    /// The binding of `placed`, `asked` and `recorded` under the rules of `version` with the
    /// feature gates `gates` in effect, scheduled as the release's scheduler does by default:
    /// its division method and model method, every estimator whose input a cluster has, every
    /// plugin (`*`), the caller's seed, and no other binding's view. Whoever holds the binding
    /// states its own settings over these.
    pub fn new(
        version: Version,
        gates: Gates,
        placed: Placed<'a>,
        asked: Asked<'a>,
        recorded: Recorded<'a>,
    ) -> Binding<'a> {
        let Placed {
            strategy,
            static_weights,
            overflow,
            cluster_affinity,
            cluster_affinities,
            cluster_tolerations,
            spread_constraints,
        } = placed;
        let Asked {
            replicas,
            requests,
            node_claim,
            components,
            priority_class,
            api_version,
            kind,
        } = asked;
        let Recorded {
            previous,
            observed_affinity,
            graceful_evictions,
            fresh,
            uid,
        } = recorded;
        Binding {
            version,
            strategy,
            method: version.division_method(),
            static_weights,
            estimators: None,
            model_method: version.model_method(),
            gates,
            overflow,
            cluster_affinity,
            cluster_affinities,
            cluster_tolerations,
            spread_constraints,
            plugins: None,
            replicas,
            requests,
            node_claim,
            components,
            priority_class,
            api_version,
            kind,
            previous,
            observed_affinity,
            graceful_evictions,
            fresh,
            uid,
            seed: None,
            workload_groups: None,
        }
    }

    /// Whether the workload states replica requirements, as Karmada's
    /// `spec.replicaRequirements` is set: a resource request or a node claim, either alone
    /// (docs/rules/karmada.md §0 step 2, §6 step 4).
    pub fn has_requirements(&self) -> bool {
        self.requests.is_some() || self.node_claim.is_some()
    }

    /// The per-replica request the general estimator reads: the stated one; empty when only a
    /// node claim is stated (requirements without a request, §6 step 4); `None` without
    /// requirements.
    pub fn estimated_request(&self, empty: &'a ResourceList) -> Option<&'a ResourceList> {
        match (self.requests, self.node_claim) {
            (Some(r), _) => Some(r),
            (None, Some(_)) => Some(empty),
            (None, None) => None,
        }
    }

    /// Whether the binding uses a field of the steps before the division. Without one (and no
    /// cluster fact of them, [`super::cluster::Member::engaged`]), the clusters are the
    /// candidates in listed order, as in scenarios written before these steps existed. Every
    /// field is named, so a new one is a compile error here until it is said whether it
    /// engages those steps.
    pub fn engaged(&self) -> bool {
        let Binding {
            version: _,
            strategy: _,
            method: _,
            static_weights: _,
            estimators: _,
            model_method: _,
            gates: _,
            overflow: _,
            cluster_affinity,
            cluster_affinities,
            cluster_tolerations,
            spread_constraints,
            plugins,
            replicas: _,
            requests: _,
            node_claim: _,
            components: _,
            priority_class: _,
            api_version,
            kind,
            previous: _,
            observed_affinity,
            graceful_evictions,
            fresh: _,
            uid: _,
            seed: _,
            workload_groups,
        } = self;
        cluster_affinity.is_some()
            || cluster_affinities.is_some()
            || !cluster_tolerations.is_empty()
            || !spread_constraints.is_empty()
            || plugins.is_some()
            || !observed_affinity.is_empty()
            || !graceful_evictions.is_empty()
            || api_version.is_some()
            || kind.is_some()
            || workload_groups.is_some()
    }
}
