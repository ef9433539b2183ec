//! Pod specs as the replica interpreter reads them (docs/rules/karmada.md §16.1): node
//! selector, tolerations, required node affinity, containers and init containers with their
//! resources, and the overhead.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::resource::ResourceList;
use crate::selector::node::{NodeSelector, TaintEffect, Toleration, TolerationOperator};

/// `spec.template` of a workload.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct PodTemplateSpec {
    pub spec: PodSpec,
}

/// A pod's spec: the fields the replica interpreter reads.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PodSpec {
    /// `None` when absent; an empty map given is still a node selector (Karmada copies it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_selector: Option<BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<PodToleration>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affinity: Option<Affinity>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub containers: Vec<Container>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overhead: Option<ResourceList>,
}

/// A pod's toleration as Kubernetes writes it: `effect: ""` means every effect, and
/// `tolerationSeconds` does not matter to scheduling.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PodToleration {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<TolerationOperator>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

impl PodToleration {
    /// The toleration allot matches taints with; `None` for an effect Kubernetes does not
    /// know (the API server rejects it).
    pub fn toleration(&self) -> Option<Toleration> {
        let effect = match self.effect.as_deref() {
            None | Some("") => None,
            Some(text) => Some(TaintEffect::parse(text)?),
        };
        Some(Toleration {
            key: self.key.as_str().into(),
            operator: self.operator.unwrap_or_default(),
            value: self.value.as_str().into(),
            effect,
        })
    }
}

/// `affinity`: only node affinity matters here.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Affinity {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<NodeAffinity>,
}

/// `affinity.nodeAffinity`: the required terms (the preferred ones are ignored).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct NodeAffinity {
    #[serde(rename = "requiredDuringSchedulingIgnoredDuringExecution")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<NodeSelector>,
}

/// A container: only its resources matter here.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Container {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub resources: ResourceRequirements,
}

/// `resources`: requests and limits.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ResourceRequirements {
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub requests: ResourceList,
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub limits: ResourceList,
}
