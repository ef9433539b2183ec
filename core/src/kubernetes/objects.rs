//! A set of objects as `kubectl get -o json` prints them: one object, a `List` of them (its
//! `items`), or a JSON array; Lists may nest. Each object is read into one [`Object`] whatever
//! its kind, holding every field allot reads of any kind (docs/rules/karmada.md §16); its
//! `kind` says which of them mean something.

use alloc::string::String;
use alloc::vec::Vec;

use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use alloc::collections::BTreeMap;

use super::karmada::{
    ApiEnablement, ClusterTaint, Condition, EvictionTask, ObjectReference, Placement,
    ResourceSelector, SchedulePriority, TargetCluster,
};
use super::meta::ObjectMeta;
use super::pod::{Affinity, Container, PodSpec, PodTemplateSpec, PodToleration};
use crate::estimate::general::ResourceSummary;
use crate::estimate::models::ResourceModel;
use crate::karmada::filter::workload_affinity::Groups;
use crate::resource::ResourceList;
use crate::Name;

/// Any object.
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Object {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(skip_serializing_if = "super::is_default")]
    pub metadata: ObjectMeta,
    #[serde(skip_serializing_if = "super::is_default")]
    pub spec: Spec,
    #[serde(skip_serializing_if = "super::is_default")]
    pub status: Status,
    /// A PriorityClass's `value` (scheduling.k8s.io/v1): the priority a policy's
    /// `schedulePriority` naming it gives the bindings it creates (docs/rules/fleet.md §20.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// A `List`'s objects.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Object>,
}

/// The spec fields of every kind allot reads. Kinds do not share a field name with different
/// meanings, so one record holds them all; it is declared field by field (no `flatten`, whose
/// buffering would cost the module tens of kilobytes).
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Spec {
    // Deployment, ReplicaSet, StatefulSet (and a binding's copy).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i64>,
    // Job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallelism: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completions: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<PodTemplateSpec>,
    // Pod: its own pod spec.
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_name: Option<String>,
    // Cluster (and Node: `taints`, `unschedulable`).
    #[serde(skip_serializing_if = "super::is_false")]
    pub unschedulable: bool,
    #[serde(skip_serializing_if = "Name::is_empty")]
    pub provider: Name,
    #[serde(skip_serializing_if = "Name::is_empty")]
    pub region: Name,
    /// A Cluster's `Push` or `Pull` (an unreachable Pull cluster turns Unknown, not False).
    #[serde(skip_serializing_if = "Name::is_empty")]
    pub sync_mode: Name,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<Name>,
    /// Deprecated and never read by the scheduler; kept to say so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<ClusterTaint>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resource_models: Vec<ResourceModel>,
    // PropagationPolicy, ClusterPropagationPolicy.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resource_selectors: Vec<ResourceSelector>,
    #[serde(skip_serializing_if = "super::is_default")]
    pub placement: Placement,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub scheduler_name: String,
    #[serde(skip_serializing)]
    pub schedule_priority: Option<SchedulePriority>,
    /// A policy's explicit priority (a Pod's `spec.priority` is read here too, and not used).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
    /// A policy's `Always` or `Never`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub preemption: String,
    // ResourceBinding, ClusterResourceBinding.
    #[serde(skip_serializing_if = "super::is_default")]
    pub resource: ObjectReference,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters: Vec<TargetCluster>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub graceful_eviction_tasks: Vec<EvictionTask>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reschedule_triggered_at: Option<String>,
    /// A ResourceBinding's groups, as the detector wrote them (docs/rules/fleet.md §31).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_affinity_groups: Option<Groups>,
    // ClusterTaintPolicy (its `taints` read above).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_clusters: Option<crate::selector::cluster::ClusterAffinity>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub add_on_conditions: Vec<super::taint_policy::MatchCondition>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remove_on_conditions: Vec<super::taint_policy::MatchCondition>,
    /// A policy's (or binding's) `failover`: its `cluster` part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failover: Option<super::failover::Failover>,
    #[serde(skip_serializing_if = "super::is_false")]
    pub propagate_deps: bool,
}

impl Spec {
    /// Set a Pod's own pod spec fields: the inverse of [`Spec::pod`].
    pub fn set_pod(&mut self, pod: PodSpec) {
        self.node_selector = pod.node_selector;
        self.tolerations = pod.tolerations;
        self.affinity = pod.affinity;
        self.containers = pod.containers;
        self.init_containers = pod.init_containers;
        self.overhead = pod.overhead;
    }

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
#[derive(Debug, Clone, PartialEq, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Status {
    // Cluster.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub api_enablements: Vec<ApiEnablement>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_summary: Option<ResourceSummary>,
    // Node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocatable: Option<ResourceList>,
    // Pod.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    // ResourceBinding, ClusterResourceBinding.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub scheduler_observing_affinity_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_scheduled_time: Option<String>,
    /// What each member reports of the workload (docs/rules/fleet.md §32.1).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aggregated_status: Vec<super::app_failover::StatusItem>,
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
        open_lists(top, &mut out);
        Ok(Objects(out))
    }
}

/// `objects` into `out` in order, each List replaced by its items (Lists may nest). A dump is
/// one List of many objects: its items become `out` as they are, not moved one by one (an
/// object is a large record, and a dump holds a hundred thousand of them).
fn open_lists(mut objects: Vec<Object>, out: &mut Vec<Object>) {
    if !objects.iter().any(is_list) {
        if out.is_empty() {
            *out = objects;
        } else {
            out.append(&mut objects);
        }
        return;
    }
    if let [list] = &mut objects[..] {
        return open_lists(core::mem::take(&mut list.items), out);
    }
    for mut o in objects {
        if is_list(&o) {
            open_lists(core::mem::take(&mut o.items), out);
        } else {
            out.push(o);
        }
    }
}

fn is_list(o: &Object) -> bool {
    o.kind.ends_with("List")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::from_json;

    fn names(text: &str) -> Vec<String> {
        from_json::<Objects>(text)
            .unwrap()
            .0
            .into_iter()
            .map(|o| o.metadata.name)
            .collect()
    }

    #[test]
    fn lists_open_in_place_in_order_however_they_nest() {
        let o = |n: &str| alloc::format!(r#"{{"kind":"Pod","metadata":{{"name":"{n}"}}}}"#);
        let list =
            |items: &[String]| alloc::format!(r#"{{"kind":"List","items":[{}]}}"#, items.join(","));
        assert_eq!(names(&list(&[o("a"), o("b")])), ["a", "b"]);
        assert_eq!(names(&o("a")), ["a"]);
        let nested = list(&[o("a"), list(&[o("b"), list(&[o("c")]), o("d")]), o("e")]);
        assert_eq!(names(&nested), ["a", "b", "c", "d", "e"]);
        let array = alloc::format!("[{}, {}, {}]", list(&[]), list(&[o("a")]), o("b"));
        assert_eq!(names(&array), ["a", "b"]);
        assert_eq!(
            names(&list(&[list(&[list(&[o("a"), o("b")])])])),
            ["a", "b"]
        );
    }
}
