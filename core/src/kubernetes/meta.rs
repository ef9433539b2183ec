//! What Karmada reads of any object's `metadata` (docs/rules/karmada.md §16).

use alloc::collections::BTreeMap;
use alloc::string::String;

use serde::{Deserialize, Serialize};

/// `metadata`: what Karmada reads of any object.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ObjectMeta {
    pub name: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    #[serde(skip_serializing_if = "crate::Name::is_empty")]
    pub uid: crate::Name,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: crate::selector::label::Labels,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
    /// Orders ClusterTaintPolicies (docs/rules/fleet.md §24.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
}
