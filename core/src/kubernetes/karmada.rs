//! The parts of Karmada's own objects (`Cluster`, the propagation policies, the bindings) that
//! the scheduler reads below their `spec` and `status` (docs/rules/karmada.md §16.2). Every
//! field allot does not read is ignored; the few a user may expect to matter but that do not
//! (`workloadAffinity`) are kept as present or absent so the import report can say so.

use alloc::string::String;
use alloc::vec::Vec;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::pod::PodToleration;
use crate::karmada::constraints::SpreadConstraint;
use crate::karmada::StaticWeightRule;
use crate::selector::cluster::{ClusterAffinity, FieldSelector};
use crate::selector::label::LabelSelector;

/// A taint as a Cluster or a Node writes it (`timeAdded` does not matter to scheduling).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClusterTaint {
    pub key: String,
    pub value: String,
    pub effect: String,
    pub time_added: Option<IgnoredAny>,
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

/// A `clusterAffinities` term: its name, its affinity's fields inline, and its overflow
/// affinities (each a name and the affinity's fields, read with the same record).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AffinityTerm {
    pub affinity_name: String,
    pub overflow_affinities: Vec<AffinityTerm>,
    pub cluster_names: Vec<String>,
    pub exclude: Vec<String>,
    pub label_selector: Option<LabelSelector>,
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

/// A binding's `spec.resource`: the template it is for.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectReference {
    pub api_version: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
}

/// An entry of a binding's `spec.clusters`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct TargetCluster {
    pub name: String,
    pub replicas: i64,
}

/// An entry of a binding's `spec.gracefulEvictionTasks`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EvictionTask {
    pub from_cluster: String,
}
