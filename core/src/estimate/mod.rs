//! Karmada's replica estimators (docs/rules/karmada.md §6-8, §10-11): how many replicas (or sets of
//! components) a cluster can still take.
//!
//! - [`general`]: from the cluster's ResourceSummary (§6).
//! - [`models`] and [`by_model`]: customized resource models, node grades, and the model
//!   estimates, legacy grade formula and current first-fit simulator (§7).
//! - [`simulate`]: the first-fit simulator shared by models and node states (§8).
//! - [`accurate`]: node-level estimation from node and pod states (§10).
//! - [`quota`]: the ResourceQuota plugin (§10); [`framework`]: merging plugin answers (§10).
//! - [`combine`]: the scheduler's minimum over estimators (§11).

pub mod accurate;
pub mod by_model;
pub mod combine;
pub mod framework;
pub mod general;
pub mod models;
pub mod quota;
pub mod simulate;
pub mod summary;

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::resource::ResourceList;
use crate::selector::node::NodeClaim;

/// Kubernetes' int32 ceiling on replica answers (`math.MaxInt32`).
pub const MAX_INT32: u64 = i32::MAX as u64;

/// One component of a workload: `replicas` pods each requesting `requests`, on nodes that
/// satisfy `nodeClaim`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Component {
    #[serde(default)]
    pub name: String,
    pub replicas: u64,
    #[serde(default)]
    pub requests: ResourceList,
    #[serde(default)]
    pub node_claim: Option<NodeClaim>,
}

/// A workload scheduled but not yet running (SchedulingOvercommitProtection deducts it).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AssumedWorkload {
    pub namespace: String,
    pub components: Vec<Component>,
}

/// Karmada feature gates that change estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Gates {
    /// SchedulingOvercommitProtection: deduct assumed workloads (off by default).
    pub scheduling_overcommit_protection: bool,
    /// CustomizedClusterResourceModeling: use resource models when a summary has grade
    /// counts (on by default since v1.4).
    pub customized_cluster_resource_modeling: bool,
    /// MultiplePodTemplatesScheduling: a multi-component workload spread by one cluster is
    /// selected for one complete set (off by default).
    pub multiple_pod_templates_scheduling: bool,
}

impl Default for Gates {
    fn default() -> Self {
        Gates {
            scheduling_overcommit_protection: false,
            customized_cluster_resource_modeling: true,
            multiple_pod_templates_scheduling: false,
        }
    }
}

/// `floor(free / request)` for an exact formula line.
pub(crate) fn per(free: u64, request: u64) -> u64 {
    free.checked_div(request).unwrap_or(u64::MAX)
}
