//! Resource templates: `apiVersion`, `kind`, `metadata` and the spec fields of the kinds with
//! a built-in replica interpreter (docs/rules/karmada.md §16.1): Deployment, ReplicaSet
//! and StatefulSet (`spec.replicas`, `spec.template`), Job (`spec.parallelism`,
//! `spec.completions`, `spec.template`) and Pod (its own `spec`).

use alloc::collections::BTreeMap;
use alloc::string::String;

use serde::{Deserialize, Serialize};

use super::pod::{PodSpec, PodTemplateSpec};

/// `metadata`: what Karmada reads of any object.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectMeta {
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
}

/// A resource template of any kind.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Workload {
    pub api_version: String,
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: WorkloadSpec,
}

/// The spec fields the built-in interpreters read; a Pod's own spec fields are `pod`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkloadSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallelism: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completions: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<PodTemplateSpec>,
    #[serde(flatten)]
    pub pod: PodSpec,
}
