//! Outcome v1 (`docs/scenario.md`, "Outcome"): what [`super::schedule`] and the granular calls
//! return. Every outcome carries the format version, the seed in effect, warnings, and the trace
//! of how it was found.

use crate::Name;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::eru::pipeline::{InstancePlan, NodeCapacity};
use crate::eru::strategy::Deployment;
use crate::eru::Capacity;
use crate::estimate::accurate::AccurateEstimate;
use crate::estimate::combine::Source;
use crate::estimate::framework::PluginResult;
use crate::estimate::general::GeneralEstimate;
use crate::karmada::scheduler::PipelineReport;
use crate::karmada::{Assigned, Trace};
use crate::path::Path;

/// Something worth knowing about an answer that is not an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Warning {
    /// Stable: `capacity_exceeded`, `estimator_without_input`, `no_capacity`.
    pub code: &'static str,
    /// The scenario field it concerns.
    pub path: Path,
    pub message: String,
}

/// The accurate estimator's answer for a cluster: the node plugin, the quota plugin, and what
/// the estimator server returns after merging them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AccurateAnswer {
    /// `None`: the server's answer is an error (no answer).
    pub replicas: Option<u64>,
    pub nodes: AccurateEstimate,
    /// Present when the cluster lists resource quotas.
    pub quota: Option<PluginResult>,
    /// The cluster's pods that hold nothing on its nodes (unbound, on a node it does not list,
    /// finished), and why.
    pub ignored_pods: Vec<crate::estimate::accurate::IgnoredPod>,
}

/// One cluster's estimates and their combination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TargetEstimate {
    pub name: Name,
    /// The combined figure the division uses (the requested replicas when nobody answered).
    pub available_replicas: u64,
    /// Which estimator set it.
    pub source: Source,
    /// `availableReplicas` as the scenario stated it.
    pub given: Option<i64>,
    // Boxed, as `accurate`: most clusters have neither, and a list of 10,000 clusters then
    // holds two pointers each rather than both estimates' room.
    pub general: Option<Box<GeneralEstimate>>,
    pub accurate: Option<Box<AccurateAnswer>>,
}

/// The estimator stage alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Estimates {
    #[cfg_attr(feature = "schema", schemars(extend("const" = 1)))]
    pub version: u32,
    pub targets: Vec<TargetEstimate>,
    pub warnings: Vec<Warning>,
}

/// A Karmada schedule: estimates, then the division.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct KarmadaOutcome {
    #[cfg_attr(feature = "schema", schemars(extend("const" = 1)))]
    pub version: u32,
    /// Replicas per cluster, candidate order, zero entries dropped.
    pub assignment: Vec<Assigned>,
    pub targets: Vec<TargetEstimate>,
    /// The seed in effect (the scenario's, else the caller's draw).
    pub seed: u64,
    /// The scenario had no seed: `seed` was drawn by the caller.
    pub seed_drawn: bool,
    /// Whether a random choice decided anything (only then does the seed matter).
    pub random_decided: bool,
    pub trace: Trace,
    /// The steps before the division: filters, scores, order, selection, affinity terms.
    pub pipeline: alloc::boxed::Box<PipelineReport>,
    pub warnings: Vec<Warning>,
}

/// eru capacities alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Capacities {
    #[cfg_attr(feature = "schema", schemars(extend("const" = 1)))]
    pub version: u32,
    pub capacities: Vec<NodeCapacity>,
    pub total: Capacity,
    pub warnings: Vec<Warning>,
}

/// An eru deploy: capacities, the strategy's deploy map, and each new instance's plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EruOutcome {
    #[cfg_attr(feature = "schema", schemars(extend("const" = 1)))]
    pub version: u32,
    /// New instances by node name (FILL's explicit zeros included).
    pub deploy: BTreeMap<String, u64>,
    pub plans: Vec<InstancePlan>,
    pub capacities: Vec<NodeCapacity>,
    pub total: Capacity,
    /// The strategy's decision and explanation.
    pub deployment: Deployment,
    /// eru's strategies draw nothing at random; the seed is reported for symmetry.
    pub seed: u64,
    pub seed_drawn: bool,
    pub warnings: Vec<Warning>,
}

/// What [`super::schedule`] returns: `kind` says which family.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Outcome {
    Karmada(KarmadaOutcome),
    Eru(EruOutcome),
}

impl Outcome {
    /// The warnings, whichever the family.
    pub fn warnings(&self) -> &[Warning] {
        match self {
            Outcome::Karmada(k) => &k.warnings,
            Outcome::Eru(e) => &e.warnings,
        }
    }

    /// The seed in effect and whether the caller drew it.
    pub fn seed(&self) -> (u64, bool) {
        match self {
            Outcome::Karmada(k) => (k.seed, k.seed_drawn),
            Outcome::Eru(e) => (e.seed, e.seed_drawn),
        }
    }
}
