//! Karmada replica assignment (docs/rules/karmada.md §0-5): a placement request in, the replicas per
//! cluster out, with the trace of how they were found.
//!
//! - [`mod@assign`]: the entry (§0): strategy choice, non-workloads, overflow tiers, validation.
//! - [`static_weight`]: Divided by static weights (§3, §5, §9).
//! - [`dynamic`]: Divided by available replicas and Aggregated (§4), fresh and steady.
//! - Before the division (§12-15): [`filter`] (one module per plugin), [`score`], [`select`]
//!   (spread constraints), [`affinity_terms`] (triggers and the ordered terms), over the rules
//!   of [`constraints`] and the [`plugins`] enabled; [`scheduler`] runs them as one cycle.
//! - Karmada's own input: [`cluster`] (each member cluster's facts, and the set of them) and
//!   [`binding`] (one binding's placement, workload and state).
//! - [`estimates`]: the estimator stage (§6-11); [`pipeline`]: estimates, the cycle and the
//!   division, answering with the decision alone or with its report.

pub mod admission;
pub mod affinity;
pub mod affinity_terms;
mod aggregated;
pub mod assign;
pub mod binding;
pub mod cluster;
pub mod compiled;
pub mod constraints;
pub mod duplicated;
pub mod dynamic;
pub mod estimates;
pub mod explain;
pub mod filter;
pub mod fleet;
pub mod gates;
mod go_sort;
pub mod pipeline;
pub mod plugins;
mod quirks;
pub mod scheduler;
pub mod score;
pub mod select;
pub mod static_weight;
pub mod version;

use crate::Name;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::division::method::DivisionTrace;
pub use crate::division::method::Method;
use crate::selector::cluster::{ClusterAffinity, ClusterFacts};
use crate::selector::label::Labels;

pub use assign::assign;

/// How replicas are scheduled (Karmada's `replicaScheduling`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "KarmadaStrategy"))]
#[serde(rename_all = "camelCase")]
pub enum Strategy {
    /// Every cluster runs all replicas.
    Duplicated,
    /// Divided, weighted by static weight rules.
    #[default]
    StaticWeight,
    /// Divided, weighted by the replicas each cluster can still take.
    DynamicWeight,
    /// Divided over as few clusters as possible.
    Aggregated,
}

// The names a scenario's `policy.strategy` gives them.
crate::choice::names!(Strategy {
    Duplicated => "duplicated",
    StaticWeight => "staticWeight",
    DynamicWeight => "dynamicWeight",
    Aggregated => "aggregated",
});

/// A candidate cluster, in the scheduler's candidate order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Cluster {
    pub name: Name,
    #[serde(default)]
    pub labels: Labels,
    #[serde(default)]
    pub provider: Name,
    #[serde(default)]
    pub region: Name,
    #[serde(default)]
    pub zones: Vec<Name>,
    /// How many more replicas the estimators say fit (`alloc(c)`); absent means no estimator
    /// answered, which counts as the requested replicas (docs/rules/karmada.md §11 step 3).
    /// A negative figure is Karmada's own wrapped estimate and counts as Karmada counts it
    /// (docs/rules/versions.md "Resource models"); figures are read within int32's range.
    #[serde(default)]
    pub available_replicas: Option<i64>,
    /// Overflow tier (lower first), used when `overflow` is on.
    #[serde(default)]
    pub overflow_order: i64,
}

impl Cluster {
    /// What the affinity matcher sees.
    pub fn facts(&self) -> ClusterFacts<'_> {
        crate::selector::cluster::facts_of!(self)
    }
}

/// `{targetCluster, weight}`: clusters the affinity selects get this weight (the maximum over
/// every rule that selects them).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StaticWeightRule {
    pub target_cluster: ClusterAffinity,
    pub weight: i64,
}

impl StaticWeightRule {
    /// A cluster's own rule: `weight` for the cluster named `name` (a cluster's `weight`).
    pub fn for_cluster(name: &str, weight: i64) -> StaticWeightRule {
        StaticWeightRule {
            target_cluster: ClusterAffinity {
                cluster_names: alloc::vec![name.into()],
                ..ClusterAffinity::default()
            },
            weight,
        }
    }
}

fn yes() -> bool {
    true
}

/// Everything one assignment needs.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Placement {
    /// `spec.replicas`.
    pub replicas: i64,
    /// Candidate clusters, in candidate order.
    pub clusters: Vec<Cluster>,
    #[serde(default)]
    pub strategy: Strategy,
    #[serde(default)]
    pub method: Method,
    /// The Karmada release whose rules apply (docs/rules/versions.md); absent: the newest.
    #[serde(default, skip_serializing_if = "version::Version::is_newest")]
    pub karmada: version::Version,
    /// Static weight rules; absent means every cluster weighs 1.
    #[serde(default)]
    pub static_weights: Option<Vec<StaticWeightRule>>,
    /// The previous result (`spec.clusters`).
    #[serde(default)]
    pub previous: BTreeMap<String, i64>,
    /// A reschedule was triggered after the last schedule: divide afresh, ignoring placements.
    #[serde(default)]
    pub fresh: bool,
    /// The ResourceBinding UID (Webster's name tie direction).
    #[serde(default)]
    pub uid: String,
    /// Seed of the `remainder` method's random tie order (0 when absent).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Split candidates into tiers by `overflowOrder` and fill them in order.
    #[serde(default)]
    pub overflow: bool,
    /// The workload declares per-replica requirements (false for a non-workload with 0 replicas).
    #[serde(default = "yes")]
    pub has_replica_requirements: bool,
    /// The static weight rules stand for the clusters' own `weight` (a scenario's shorthand,
    /// one rule per weighted cluster): explanations speak of each cluster's weight, not of
    /// rules the user never wrote. Not part of a placement's input.
    #[serde(skip)]
    pub weights_are_cluster_weights: bool,
    /// The trace's sentences are not written (a decision asked for without its report).
    /// Not part of a placement's input.
    #[serde(skip)]
    pub unexplained: bool,
}

/// Which path of the dynamic strategies ran (docs/rules/karmada.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Mode {
    /// Reschedule triggered: every cluster's capacity plus its placement is the weight.
    Fresh,
    /// More replicas than placed: placements kept, the difference divided by capacity.
    ScaleUp,
    /// Fewer replicas than placed: previous placements are the weights.
    ScaleDown,
    /// As many replicas as placed: nothing moves.
    Unchanged,
}

/// Why a cluster got nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum DropReason {
    /// No static weight rule selects it.
    NoMatchingRule,
    /// It was in the previous result but is no longer a candidate.
    NoLongerCandidate,
    /// Aggregated: the clusters before it already hold the replicas.
    AggregatedCut,
    /// Its share came to 0 replicas.
    ZeroReplicas,
}

/// A cluster left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Dropped {
    pub cluster: Name,
    pub reason: DropReason,
}

/// A cluster's weight after rule matching and the rules (indices) that matched it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WeightTrace {
    pub cluster: Name,
    pub weight: u64,
    pub rules: Vec<usize>,
}

/// One overflow tier.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TierTrace {
    pub order: i64,
    pub clusters: Vec<Name>,
    /// Replicas this tier can hold (Σ available + previous).
    pub capacity: u64,
    /// Replicas it was asked to take.
    pub replicas: u64,
}

/// How an assignment came about.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub mode: Option<Mode>,
    pub weights: Vec<WeightTrace>,
    pub dropped: Vec<Dropped>,
    pub tiers: Vec<TierTrace>,
    pub divisions: Vec<DivisionTrace>,
    /// The same, in plain sentences.
    pub explanation: Vec<String>,
}

/// Replicas for one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Assigned {
    pub name: Name,
    pub replicas: u64,
}

/// The answer: replicas per cluster (candidate order, zero entries dropped), the seed used when
/// randomness decided something, and the trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub assignment: Vec<Assigned>,
    pub seed: Option<u64>,
    pub trace: Trace,
}
