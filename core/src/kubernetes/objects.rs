//! A set of objects as `kubectl get -o json` prints them: one object, a `List` of them (its
//! `items`), or a JSON array; Lists may nest. Each object is read into one [`Object`] whatever
//! its kind, holding every field allot reads of any kind (docs/rules/karmada.md §16); its
//! `kind` says which of them mean something.

use alloc::string::String;
use alloc::vec::Vec;

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use alloc::collections::BTreeMap;
use serde::de::IgnoredAny;

use super::karmada::{
    ApiEnablement, ClusterTaint, Condition, EvictionTask, ObjectReference, Placement,
    ResourceSelector, TargetCluster,
};
use super::meta::ObjectMeta;
use super::pod::{Affinity, Container, PodSpec, PodTemplateSpec, PodToleration};
use crate::estimate::general::ResourceSummary;
use crate::estimate::models::ResourceModel;
use crate::resource::ResourceList;

/// Any object.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Object {
    pub api_version: String,
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: Spec,
    pub status: Status,
    /// A `List`'s objects.
    pub items: Vec<Object>,
}

/// The spec fields of every kind allot reads. Kinds do not share a field name with different
/// meanings, so one record holds them all; it is declared field by field (no `flatten`, whose
/// buffering would cost the module tens of kilobytes).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Spec {
    // Deployment, ReplicaSet, StatefulSet (and a binding's copy).
    pub replicas: Option<i64>,
    // Job.
    pub parallelism: Option<i64>,
    pub completions: Option<i64>,
    pub template: Option<PodTemplateSpec>,
    // Pod: its own pod spec.
    pub node_selector: Option<BTreeMap<String, String>>,
    pub tolerations: Vec<PodToleration>,
    pub affinity: Option<Affinity>,
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    pub overhead: Option<ResourceList>,
    pub node_name: Option<String>,
    // Cluster (and Node: `taints`, `unschedulable`).
    pub unschedulable: bool,
    pub provider: String,
    pub region: String,
    pub zones: Vec<String>,
    /// Deprecated and never read by the scheduler; kept to say so.
    pub zone: Option<String>,
    pub taints: Vec<ClusterTaint>,
    pub resource_models: Vec<ResourceModel>,
    // PropagationPolicy, ClusterPropagationPolicy.
    pub resource_selectors: Vec<ResourceSelector>,
    pub placement: Placement,
    pub scheduler_name: String,
    pub schedule_priority: Option<IgnoredAny>,
    // ResourceBinding, ClusterResourceBinding.
    pub resource: ObjectReference,
    pub clusters: Vec<TargetCluster>,
    pub graceful_eviction_tasks: Vec<EvictionTask>,
    pub reschedule_triggered_at: Option<String>,
}

impl Spec {
    /// A Pod's own pod spec.
    pub fn pod(&self) -> PodSpec {
        PodSpec {
            node_selector: self.node_selector.clone(),
            tolerations: self.tolerations.clone(),
            affinity: self.affinity.clone(),
            containers: self.containers.clone(),
            init_containers: self.init_containers.clone(),
            overhead: self.overhead.clone(),
        }
    }
}

/// The status fields of every kind allot reads.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Status {
    // Cluster.
    pub api_enablements: Vec<ApiEnablement>,
    pub conditions: Vec<Condition>,
    pub resource_summary: Option<ResourceSummary>,
    // Node.
    pub allocatable: Option<ResourceList>,
    // Pod.
    pub phase: Option<String>,
    // ResourceBinding, ClusterResourceBinding.
    pub scheduler_observing_affinity_name: String,
    pub last_scheduled_time: Option<String>,
}

/// A document's objects in order, Lists and arrays opened.
#[derive(Debug, Clone, Default)]
pub struct Objects(pub Vec<Object>);

impl<'de> Deserialize<'de> for Objects {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Top;
        impl<'de> Visitor<'de> for Top {
            type Value = Vec<Object>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an object, a List or an array of objects")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Vec<Object>, A::Error> {
                let mut v = Vec::new();
                while let Some(o) = a.next_element()? {
                    v.push(o);
                }
                Ok(v)
            }
            fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Vec<Object>, A::Error> {
                Object::deserialize(MapAccessDeserializer::new(a)).map(|o| alloc::vec![o])
            }
        }
        let top = d.deserialize_any(Top)?;
        let mut out = Vec::new();
        let mut stack: Vec<Object> = top.into_iter().rev().collect();
        while let Some(mut o) = stack.pop() {
            if o.kind.ends_with("List") {
                stack.extend(core::mem::take(&mut o.items).into_iter().rev());
            } else {
                out.push(o);
            }
        }
        Ok(Objects(out))
    }
}
