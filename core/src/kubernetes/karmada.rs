//! Karmada's own objects as the scheduler reads them (docs/rules/karmada.md §16.2-§16.4):
//! `Cluster`, `PropagationPolicy` and `ClusterPropagationPolicy`, `ResourceBinding` and
//! `ClusterResourceBinding`. Every field allot does not read is ignored; the few a user may
//! expect to matter but that do not (`spec.zone`, `workloadAffinity`) are kept as present or
//! absent so the import report can say so.

use alloc::string::String;
use alloc::vec::Vec;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::pod::PodToleration;
use super::workload::ObjectMeta;
use crate::estimate::general::ResourceSummary;
use crate::estimate::models::ResourceModel;
use crate::karmada::constraints::SpreadConstraint;
use crate::karmada::StaticWeightRule;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::label::LabelSelector;

/// `cluster.karmada.io/v1alpha1` Cluster.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Cluster {
    pub metadata: ObjectMeta,
    pub spec: ClusterSpec,
    pub status: ClusterStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterSpec {
    pub provider: String,
    pub region: String,
    pub zones: Vec<String>,
    /// Deprecated and never read by the scheduler; kept to say so.
    pub zone: Option<String>,
    pub taints: Vec<ClusterTaint>,
    pub resource_models: Vec<ResourceModel>,
}

/// A cluster taint as the API writes it (`timeAdded` does not matter to scheduling).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterTaint {
    pub key: String,
    pub value: String,
    pub effect: String,
    pub time_added: Option<IgnoredAny>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterStatus {
    pub api_enablements: Vec<ApiEnablement>,
    pub conditions: Vec<Condition>,
    pub resource_summary: Option<ResourceSummary>,
}

/// `status.apiEnablements[]`: a group version and the resources it serves.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ApiEnablement {
    pub group_version: String,
    pub resources: Vec<ApiResource>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ApiResource {
    pub name: String,
    pub kind: String,
}

/// A status condition: its type and status (`"True"`, `"False"`, `"Unknown"`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Condition {
    #[serde(rename = "type")]
    pub kind: String,
    pub status: String,
}

/// `policy.karmada.io/v1alpha1` PropagationPolicy or ClusterPropagationPolicy.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Policy {
    pub metadata: ObjectMeta,
    pub spec: PolicySpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PolicySpec {
    pub resource_selectors: Vec<ResourceSelector>,
    pub placement: Placement,
    pub scheduler_name: String,
    pub schedule_priority: Option<IgnoredAny>,
}

/// Which templates a policy applies to.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResourceSelector {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub label_selector: Option<LabelSelector>,
}

/// `spec.placement` of a policy or a binding.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Placement {
    pub cluster_affinity: Option<ClusterAffinity>,
    pub cluster_affinities: Option<Vec<AffinityTerm>>,
    pub cluster_tolerations: Vec<PodToleration>,
    pub spread_constraints: Vec<SpreadConstraint>,
    pub replica_scheduling: Option<ReplicaScheduling>,
    pub workload_affinity: Option<IgnoredAny>,
}

/// A `clusterAffinities` term: its name and affinity inline, and its overflow affinities.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AffinityTerm {
    #[serde(default)]
    pub affinity_name: String,
    #[serde(default)]
    pub overflow_affinities: Vec<NamedAffinity>,
    #[serde(flatten)]
    pub affinity: ClusterAffinity,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NamedAffinity {
    #[serde(default)]
    pub affinity_name: String,
    #[serde(flatten)]
    pub affinity: ClusterAffinity,
}

/// `placement.replicaScheduling`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReplicaScheduling {
    pub replica_scheduling_type: Option<String>,
    pub replica_division_preference: Option<String>,
    pub weight_preference: Option<WeightPreference>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeightPreference {
    pub static_weight_list: Vec<StaticWeightRule>,
    pub dynamic_weight: String,
}

/// `work.karmada.io/v1alpha2` ResourceBinding or ClusterResourceBinding.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Binding {
    pub metadata: ObjectMeta,
    pub spec: BindingSpec,
    pub status: BindingStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BindingSpec {
    pub resource: ObjectReference,
    pub clusters: Vec<TargetCluster>,
    pub graceful_eviction_tasks: Vec<EvictionTask>,
    pub reschedule_triggered_at: Option<String>,
}

/// `spec.resource`: the template the binding is for.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectReference {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
}

/// An entry of `spec.clusters`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct TargetCluster {
    pub name: String,
    pub replicas: i64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EvictionTask {
    pub from_cluster: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BindingStatus {
    pub scheduler_observing_affinity_name: String,
    pub last_scheduled_time: Option<String>,
}
