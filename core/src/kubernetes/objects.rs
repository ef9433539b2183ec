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
    /// The fields of its policy parts allot does not know (a typo such as
    /// `staticWeightLis`), as [`read_json`] found them: `spec.placement.x`.
    #[serde(skip)]
    pub unknown_fields: Vec<String>,
}

/// The parts of an object whose every field allot models as Karmada's API declares it
/// (a policy's `spec.placement` and `spec.resourceSelectors`): a field there that allot
/// does not know is a typo or a newer API's, and is noted (docs/rules/fleet.md §20.3).
const WATCHED: [&str; 2] = ["placement", "resourceSelectors"];

/// The objects in JSON `text` ([`Objects`]), each with the unknown fields of its watched
/// parts noted in [`Object::unknown_fields`].
pub fn read_json(text: &str) -> crate::error::Result<Vec<Object>> {
    let (Top(mut top), unknown) =
        crate::json::from_json_noting::<Top>(text, &WATCHED).map_err(|e| named(text, e))?;
    for path in unknown {
        note(&mut top, path.steps());
    }
    let mut out = Vec::new();
    open_lists(top.objects, &mut out);
    Ok(out)
}

/// That `text` is text, as YAML and JSON are: no NUL or other control byte (tabs and line
/// ends aside) and no byte that was not UTF-8 (read as U+FFFD). A binary file given by
/// mistake is said so, without its bytes.
pub fn check_text(text: &str) -> crate::error::Result<()> {
    let bad = text.char_indices().find(|&(_, c)| {
        c == '\u{fffd}' || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{85}'))
    });
    match bad {
        None => Ok(()),
        Some((at, c)) => Err(crate::error::Error::Input {
            field: crate::path::Path::root(),
            code: crate::error::ErrorCode::InvalidInput,
            reason: alloc::format!(
                "not text: byte {at} is {} (a binary file?); give YAML or JSON as kubectl \
                 prints it",
                if c == '\u{fffd}' {
                    String::from("not UTF-8")
                } else {
                    alloc::format!("the control character U+{:04X}", c as u32)
                }
            ),
        }),
    }
}

/// A reading error said with the object it is in (`Cluster member1: ...`), when the text
/// holds one there: read again, leniently, for each object's kind and name alone.
fn named(text: &str, e: crate::error::Error) -> crate::error::Error {
    use crate::path::Step;
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Meta {
        name: String,
        namespace: String,
    }
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Named {
        kind: String,
        metadata: Meta,
        items: Vec<Named>,
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given {
        Many(Vec<Named>),
        One(Named),
    }
    let Ok(given) = crate::json::from_json::<Given>(text) else {
        return e;
    };
    let steps = e.field().steps();
    let (mut at, mut rest) = match (&given, steps) {
        (Given::Many(all), [Step::Index(k), rest @ ..]) => (all.get(*k), rest),
        (Given::One(one), rest) => (Some(one), rest),
        _ => return e,
    };
    while let Some(o) = at {
        match rest {
            [Step::Field(items), Step::Index(k), tail @ ..]
                if items == "items" && o.kind.ends_with("List") =>
            {
                at = o.items.get(*k);
                rest = tail;
            }
            _ if o.kind.is_empty() || o.metadata.name.is_empty() => return e,
            _ => {
                let who = if o.metadata.namespace.is_empty() {
                    alloc::format!("{} {}", o.kind, o.metadata.name)
                } else {
                    alloc::format!("{} {}/{}", o.kind, o.metadata.namespace, o.metadata.name)
                };
                let said = alloc::format!("{e}");
                let field = e.field().text();
                let message = said
                    .strip_prefix(field.as_str())
                    .and_then(|m| m.strip_prefix(": "))
                    .unwrap_or(&said);
                return crate::error::Error::Input {
                    field: e.field().clone(),
                    code: e.code(),
                    reason: alloc::format!("{who}: {message}"),
                };
            }
        }
    }
    e
}

/// The objects of a document as given, Lists not yet opened: one object, or an array.
struct Top(Given);

struct Given {
    objects: Vec<Object>,
    /// An array (its elements are `[k]`), else one object.
    array: bool,
}

impl<'de> Deserialize<'de> for Top {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(TopVisitor).map(Top)
    }
}

/// Note the unknown field at `steps` (from the document's top) on the object it is in.
fn note(given: &mut Given, steps: &[crate::path::Step]) {
    use crate::path::Step;
    let (mut object, mut rest) = match (given.array, steps) {
        (true, [Step::Index(k), rest @ ..]) => (given.objects.get_mut(*k), rest),
        (false, rest) => (given.objects.first_mut(), rest),
        _ => return,
    };
    while let Some(o) = object {
        match rest {
            [Step::Field(items), Step::Index(k), tail @ ..] if is_list(o) && items == "items" => {
                object = o.items.get_mut(*k);
                rest = tail;
            }
            _ => {
                o.unknown_fields.push(steps_path(rest).text());
                return;
            }
        }
    }
}

fn steps_path(steps: &[crate::path::Step]) -> crate::path::Path {
    use crate::path::Step;
    steps
        .iter()
        .fold(crate::path::Path::root(), |p, s| match s {
            Step::Field(name) => p.field(name.clone()),
            Step::Index(k) => p.index(*k),
        })
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
        let top = d.deserialize_any(TopVisitor)?;
        let mut out = Vec::new();
        open_lists(top.objects, &mut out);
        Ok(Objects(out))
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Given;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("an object, a List or an array of objects")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Given, A::Error> {
        let mut objects = Vec::new();
        while let Some(o) = a.next_element()? {
            objects.push(o);
        }
        Ok(Given {
            objects,
            array: true,
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, a: A) -> Result<Given, A::Error> {
        Object::deserialize(MapAccessDeserializer::new(a)).map(|o| Given {
            objects: alloc::vec![o],
            array: false,
        })
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

    // A typo in a policy's placement is noted on its object, at its field, wherever the
    // object sits (alone, in a List, in an array); fields outside the watched parts are not.
    #[test]
    fn unknown_placement_fields_are_noted_on_their_object() {
        let policy = r#"{"kind":"PropagationPolicy","metadata":{"name":"p"},
            "spec":{"placement":{"replicaScheduling":{"weightPreference":{"staticWeightLis":[]}}},
                    "suspension":{}},
            "status":{"x":1}}"#;
        let typo = "spec.placement.replicaScheduling.weightPreference.staticWeightLis";
        let one = read_json(policy).unwrap();
        assert_eq!(one[0].unknown_fields, [typo]);
        let pod = r#"{"kind":"Pod","metadata":{"name":"q"},"spec":{"hostNetwork":true}}"#;
        let list = alloc::format!(
            r#"[{pod}, {{"kind":"List","items":[{pod}, {{"kind":"List","items":[{policy}]}}]}}]"#
        );
        let all = read_json(&list).unwrap();
        assert_eq!(all.len(), 3);
        assert!(all[0].unknown_fields.is_empty() && all[1].unknown_fields.is_empty());
        assert_eq!(all[2].unknown_fields, [typo]);
        assert_eq!(from_json::<Objects>(&list).unwrap().0.len(), 3);
    }

    // A field that cannot be read is said with its object, the path once.
    #[test]
    fn a_reading_error_names_its_object() {
        let text = r#"{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"a"}},
            {"kind":"Cluster","metadata":{"name":"member1"},
             "status":{"resourceSummary":{"allocatable":{"cpu":"lots"}}}}]}"#;
        let err = read_json(text).unwrap_err();
        let at = "items[1].status.resourceSummary.allocatable.cpu";
        assert_eq!(err.field().text(), at);
        let message = alloc::format!("{err}");
        assert!(
            message.starts_with(&alloc::format!("{at}: Cluster member1: ")),
            "{message}"
        );
        assert_eq!(message.matches("allocatable").count(), 1, "{message}");
    }

    #[test]
    fn binary_is_not_text_and_its_bytes_are_not_echoed() {
        let err = check_text("PK\u{3}\u{4}\u{0}secret").unwrap_err();
        let message = alloc::format!("{err}");
        assert!(
            message.contains("not text") && message.contains("U+0003"),
            "{message}"
        );
        assert!(!message.contains("secret"));
        assert!(check_text("\u{fffd}").is_err());
        assert!(check_text("kind: Pod\r\n\tx: 1\n").is_ok());
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
