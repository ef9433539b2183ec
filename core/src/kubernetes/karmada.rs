//! The parts of Karmada's own objects (`Cluster`, the propagation policies, the bindings) that
//! the scheduler reads below their `spec` and `status` (docs/rules/karmada.md §16.2). Every
//! field allot does not read is ignored; the few a user may expect to matter but that do not
//! (`workloadAffinity`) are kept so the import report can say so.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::pod::PodToleration;
use crate::karmada::constraints::SpreadConstraint;
use crate::karmada::StaticWeightRule;
use crate::selector::cluster::{ClusterAffinity, FieldSelector};
use crate::selector::label::LabelSelector;

/// A taint as a Cluster or a Node writes it (`timeAdded` does not matter to scheduling; the
/// taint manager counts `tolerationSeconds` from it, docs/rules/fleet.md §25.2).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterTaint {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub effect: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_added: Option<String>,
}

/// `status.apiEnablements[]`: a group version and the resources it serves.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ApiEnablement {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group_version: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ApiResource>,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct ApiResource {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

/// A status condition: its type and status (`"True"`, `"False"`, `"Unknown"`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Condition {
    #[serde(rename = "type")]
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub status: String,
}

/// Which templates a policy applies to.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResourceSelector {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
}

/// `spec.placement` of a policy or a binding.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Placement {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_affinity: Option<ClusterAffinity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_affinities: Option<Vec<AffinityTerm>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_tolerations: Vec<PodToleration>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spread_constraints: Vec<SpreadConstraint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_scheduling: Option<ReplicaScheduling>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_affinity: Option<WorkloadAffinity>,
}

/// `placement.workloadAffinity`: its terms' group keys, which the policy webhook checks
/// (docs/rules/karmada.md §17.2) and a fleet's detector reads (docs/rules/fleet.md §31).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkloadAffinity {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affinity: Option<WorkloadGroup>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anti_affinity: Option<WorkloadGroup>,
}

/// A workload affinity or anti-affinity term: the label whose value groups workloads.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkloadGroup {
    pub group_by_label_key: String,
}

/// A `clusterAffinities` term: its name, its affinity's fields inline, and its overflow
/// affinities (each a name and the affinity's fields, read with the same record).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AffinityTerm {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub affinity_name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overflow_affinities: Vec<AffinityTerm>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_names: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field_selector: Option<FieldSelector>,
}

impl AffinityTerm {
    /// The affinity its inline fields make.
    pub fn affinity(&self) -> ClusterAffinity {
        ClusterAffinity {
            cluster_names: self.cluster_names.clone(),
            exclude: self.exclude.clone(),
            label_selector: self.label_selector.clone(),
            field_selector: self.field_selector.clone(),
        }
    }
}

/// `placement.replicaScheduling`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReplicaScheduling {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_scheduling_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_division_preference: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_preference: Option<WeightPreference>,
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeightPreference {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub static_weight_list: Vec<StaticWeightRule>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub dynamic_weight: String,
}

/// A binding's `spec.resource`: the template it is for.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectReference {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
}

/// An entry of a binding's `spec.clusters`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default)]
pub struct TargetCluster {
    pub name: String,
    pub replicas: i64,
}

/// An entry of a binding's `spec.gracefulEvictionTasks`.
pub use super::app_failover::Task as EvictionTask;

/// `spec.schedulePriority`: a binding's `priority` (the queue's order, docs/rules/fleet.md §22),
/// or a policy's PriorityClass source and name, which the detector resolves into the priority
/// of the bindings it creates (§20.3).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SchedulePriority {
    pub priority: Option<i32>,
    /// A policy's `KubePriorityClass` (the one source Karmada implements).
    pub priority_class_source: String,
    pub priority_class_name: String,
}
