//! Scenario format v1 (docs/rules/README.md decision 8; documented in `docs/scenario.md`): one
//! JSON document describing a whole problem, the input of [`schedule`] and of the granular
//! calls. This module reads the document's meaning and dispatches; the work is done by the
//! families' pipelines.
//!
//! A scenario holds either Karmada-style `clusters` or eru-style `nodes`, the `workload`, the
//! `policy`, the `previous` result, an optional `seed` and `uid`. Fields that belong to the other
//! family are rejected with their path; unknown fields are rejected by the deserializer.
//!
//! - [`karmada`]: the scenario's binding and clusters for [`crate::karmada::pipeline`]:
//!   estimators, their combination, the steps before the division and the division
//!   (docs/rules/karmada.md §0-15).
//! - [`eru`]: the scenario's eru request for [`crate::eru::pipeline`]: capacities, the strategy
//!   and the plans (docs/rules/eru.md A-D).
//! - [`objects`]: Kubernetes and Karmada objects to a scenario, through the objects'
//!   readers (docs/rules/karmada.md §16.2); [`export`]: a scenario back to objects (§16.5);
//!   [`explain`]: objects in, the schedule, the binding result and the ResourceBinding out
//!   (§16.4).
//! - [`outcome`]: what the calls return.

pub mod eru;
pub mod evenness;
pub mod explain;
pub mod export;
mod family;
pub mod karmada;
pub mod objects;
pub mod outcome;
pub mod step;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::eru::cpumem::CpuMemConfig;
use crate::eru::pipeline::EruNode;
use crate::estimate::by_model::ModelMethod;
use crate::estimate::Component;
pub use crate::karmada::binding::Estimator;
pub use crate::karmada::cluster::Member as Target;
use crate::karmada::constraints::{AffinityTerm, SpreadConstraint};
use crate::karmada::version::{GateSettings, Version};
use crate::karmada::{Method, StaticWeightRule};
use crate::resource::ResourceList;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::{NodeClaim, Toleration};

#[cfg(feature = "json")]
pub use crate::json::from_json;
pub use family::Family;
pub use outcome::{Estimates, Outcome, Warning};

/// The scenario format version this crate reads and writes.
pub const FORMAT_VERSION: u32 = 1;

pub use crate::karmada::estimates::MAX_PODS;

/// A whole problem.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scenario {
    /// Always 1 for this format.
    #[cfg_attr(feature = "schema", schemars(extend("const" = 1)))]
    pub version: u32,
    /// Karmada: the release whose rules apply (`1.19`, `1.16.8`); absent: the newest allot
    /// follows. It picks the division method, the resource-model method and the feature gates'
    /// defaults when the policy leaves them out (docs/rules/versions.md).
    #[serde(skip_serializing_if = "Version::is_newest")]
    #[serde(default)]
    pub karmada: Version,
    /// A title, for people (the playground shows it).
    #[serde(skip_serializing_if = "String::is_empty")]
    #[serde(default)]
    pub title: String,
    /// A longer description, for people.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[serde(default)]
    pub description: String,
    /// Karmada member clusters (candidates, in candidate order).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub clusters: Option<Vec<Target>>,
    /// eru nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub nodes: Option<Vec<EruNode>>,
    #[serde(default)]
    pub workload: Workload,
    #[serde(default)]
    pub policy: Policy,
    /// Karmada: the previous result (`spec.clusters`), cluster name -> replicas. eru nodes
    /// carry their instances in `nodes[i].count`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[serde(default)]
    pub previous: BTreeMap<String, i64>,
    /// Seed of every random choice; absent: the caller draws one and reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub seed: Option<u64>,
    /// The ResourceBinding UID (Webster's name tie direction).
    #[serde(skip_serializing_if = "String::is_empty")]
    #[serde(default)]
    pub uid: String,
    /// Karmada: the affinity term the binding last scheduled with
    /// (`status.schedulerObservingAffinityName`); scheduling starts from it.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[serde(default)]
    pub observed_affinity: String,
    /// Karmada: clusters the binding is being gracefully evicted from
    /// (`spec.gracefulEvictionTasks[].fromCluster`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(default)]
    pub graceful_evictions: Vec<String>,
}

impl Scenario {
    /// Karmada: the division method in effect, the policy's or else the release's.
    pub fn method(&self) -> Method {
        self.policy.method.unwrap_or(self.karmada.division_method())
    }

    /// Karmada: how resource models are read, the policy's way or else the release's.
    pub fn model_method(&self) -> ModelMethod {
        self.policy
            .model_method
            .unwrap_or(self.karmada.model_method())
    }
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// Left at its default: not written (and so not counted as set by [`Scenario::family`]).
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// What is scheduled. Karmada uses `replicas`, `requests`, `nodeClaim`, `components` and
/// `priorityClass`; eru uses `count`, `requests` (`cpu`, `memory`, `storage`), `limits`
/// (`cpu`, `memory`), `cpuBind`, `volumes` and `gpus`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Workload {
    /// Karmada: `spec.replicas`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    /// eru: new instances to deploy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    /// Per replica (instance). Karmada: absent means the workload declares no requirements.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requests: Option<ResourceList>,
    /// eru: CPU and memory limits.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub limits: ResourceList,
    /// Karmada: the pods' node selector, required node affinity and tolerations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_claim: Option<NodeClaim>,
    /// Karmada: a multi-component workload; estimators count complete sets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<Component>,
    /// Karmada: the pods' PriorityClass (quota scopes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_class: Option<String>,
    /// eru: bind CPUs (full and fragment cores).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub cpu_bind: bool,
    /// eru: volume bindings `src:dst[:flags[:size[:riops:wiops:rbps:wbps]]]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<String>,
    /// eru: GPU cards by product model, per instance (`nvidia-3090` -> 2).
    #[serde(skip_serializing_if = "alloc::collections::BTreeMap::is_empty")]
    pub gpus: crate::eru::gpu::Cards,
    /// Karmada: the resource's `apiVersion` (`apps/v1`), for the APIEnablement filter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// Karmada: the resource's `kind` (`Deployment`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// How it is scheduled.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Policy {
    /// Karmada: `duplicated`, `staticWeight` (default), `dynamicWeight`, `aggregated`.
    /// eru: `AUTO` (default), `FILL`, `EACH`, `GLOBAL`, `DRAINED`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(transform = strategy_schema))]
    pub strategy: Option<String>,
    /// Karmada: the division method; absent: the release's (`karmada`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    /// Karmada: static weight rules; absent (and no cluster `weight`) means every cluster
    /// weighs 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub static_weights: Option<Vec<StaticWeightRule>>,
    /// Karmada: the estimators to run; absent: each whose input a cluster has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimators: Option<Vec<Estimator>>,
    /// Karmada: how resource models are read; absent: the release's (`karmada`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_method: Option<ModelMethod>,
    /// Karmada: feature gates; each one absent takes the release's default.
    #[serde(skip_serializing_if = "is_default")]
    pub gates: GateSettings,
    /// Karmada: a reschedule was triggered: divide afresh, ignoring placements.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub fresh: bool,
    /// Karmada: fill clusters tier by tier of `overflowOrder`.
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    pub overflow: bool,
    /// Karmada: `placement.clusterAffinity`; only clusters it matches are candidates.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_affinity: Option<ClusterAffinity>,
    /// Karmada: `placement.clusterAffinities`, ordered terms tried in turn (with overflow
    /// tiers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_affinities: Option<Vec<AffinityTerm>>,
    /// Karmada: `placement.clusterTolerations`, for cluster taints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_tolerations: Vec<Toleration>,
    /// Karmada: `placement.spreadConstraints`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spread_constraints: Vec<SpreadConstraint>,
    /// Karmada: the scheduler's `--plugins` entries (`*`, a name, `-name`); absent: `*`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugins: Option<Vec<String>>,
    /// eru: `NodesLimit` (0: none).
    #[serde(skip_serializing_if = "is_zero")]
    pub nodes_limit: i64,
    /// eru: the cpumem plugin's share base and max share.
    #[serde(skip_serializing_if = "is_default")]
    pub cpumem: CpuMemConfig,
    /// eru: the storage plugin's cap on instances per node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_deploy_count: Option<u64>,
}

/// Everything: for Karmada clusters the estimators, their combination and the division; for
/// eru nodes the capacities, the strategy and the plans. `drawn_seed` is used when the scenario
/// has no seed (the bindings draw one; the outcome reports which).
pub fn schedule(s: &Scenario, drawn_seed: u64) -> Result<Outcome> {
    Ok(match s.family()? {
        Family::Karmada(t) => Outcome::Karmada(karmada::schedule(s, t, drawn_seed)?),
        Family::Eru(n) => Outcome::Eru(eru::deploy(s, n, drawn_seed)?),
    })
}

/// Karmada: the decision alone (replicas per cluster and the observed affinity term),
/// computed as [`schedule`] computes it with no report built.
pub fn decide(s: &Scenario, drawn_seed: u64) -> Result<crate::karmada::pipeline::Decision> {
    karmada::decide(s, s.family()?.karmada("decide")?, drawn_seed)
}

/// Karmada: the estimator stage alone.
pub fn estimate(s: &Scenario) -> Result<Estimates> {
    karmada::estimate(s, s.family()?.karmada("estimate")?)
}

/// Karmada: the division alone, with `availableReplicas` as stated.
pub fn divide(s: &Scenario, drawn_seed: u64) -> Result<outcome::KarmadaOutcome> {
    karmada::divide(s, s.family()?.karmada("divide")?, drawn_seed)
}

/// Karmada: the filter plugins and the scores alone (docs/rules/karmada.md §12-13).
pub fn filter(s: &Scenario) -> Result<crate::karmada::scheduler::PipelineReport> {
    let t = s.family()?.karmada("filter")?;
    karmada::steps(s, t, crate::karmada::scheduler::Depth::Filter)
}

/// Karmada: filters, scores and the selection of candidates (docs/rules/karmada.md §12-15),
/// without the division.
pub fn select(s: &Scenario) -> Result<crate::karmada::scheduler::PipelineReport> {
    let t = s.family()?.karmada("select")?;
    karmada::steps(s, t, crate::karmada::scheduler::Depth::Select)
}

/// eru: capacities alone.
pub fn capacity(s: &Scenario) -> Result<outcome::Capacities> {
    eru::capacity(s, s.family()?.eru("capacity")?)
}

/// eru: capacities, the strategy and the plans.
pub fn deploy(s: &Scenario, drawn_seed: u64) -> Result<outcome::EruOutcome> {
    eru::deploy(s, s.family()?.eru("deploy")?, drawn_seed)
}

impl<'a> Family<'a> {
    pub(crate) fn karmada(self, call: &str) -> Result<&'a [Target]> {
        match self {
            Family::Karmada(t) => Ok(t),
            Family::Eru(_) => Err(Error::Input {
                field: "nodes".into(),
                code: crate::error::ErrorCode::InvalidInput,
                reason: format!("{call} works on Karmada clusters; this scenario lists eru nodes"),
            }),
        }
    }

    fn eru(self, call: &str) -> Result<&'a [EruNode]> {
        match self {
            Family::Eru(n) => Ok(n),
            Family::Karmada(_) => Err(Error::Input {
                field: "clusters".into(),
                code: crate::error::ErrorCode::InvalidInput,
                reason: format!("{call} works on eru nodes; this scenario lists Karmada clusters"),
            }),
        }
    }
}

/// The schema of `policy.strategy`: a Karmada or an eru strategy's name, or null.
#[cfg(feature = "schema")]
pub(crate) fn strategy_schema(schema: &mut schemars::Schema) {
    let names: alloc::vec::Vec<Option<&str>> = crate::karmada::Strategy::NAMES
        .iter()
        .chain(crate::eru::strategy::Strategy::NAMES)
        .map(|n| Some(*n))
        .chain([None])
        .collect();
    let listed = schemars::json_schema!({ "enum": names });
    if let Some(names) = listed.get("enum") {
        schema.insert("enum".into(), names.clone());
    }
}
