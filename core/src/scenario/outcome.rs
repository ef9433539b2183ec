//! Outcome v1 (`docs/scenario.md`, "Outcome"): what [`super::schedule`] and the granular calls
//! return. Every outcome carries the format version, the seed in effect, warnings, and the trace
//! of how it was found.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::eru::pipeline::{InstancePlan, NodeCapacity};
use crate::eru::strategy::Deployment;
use crate::eru::Capacity;
use crate::karmada::scheduler::PipelineReport;
use crate::karmada::{Assigned, Trace};

pub use crate::karmada::estimates::{AccurateAnswer, TargetEstimate};
pub use crate::warning::Warning;

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
