//! A Cluster to the member Karmada's scheduler reads (docs/rules/karmada.md §16.2): its
//! labels, provider, region and zones, taints, resource models and summary, served APIs and
//! whether it is being deleted; and a member cluster's own Nodes and Pods (§16.3), the
//! accurate estimator's input and, without a reported summary, the summary the cluster status
//! controller would report from them; and a Cluster's health as a fleet reads it (its `Ready`
//! condition, pull mode, each taint's `timeAdded`, docs/rules/fleet.md §25.2). Every problem
//! is said at the object's own field.

use alloc::vec::Vec;
use compact_str::format_compact;

use super::destination::Destination;
use super::import::{api_version, entry, invalid, object, Entry, ImportReport};
use super::objects::Object;
use crate::error::{indexed, Path, Result};
use crate::estimate::accurate::{Container as AccurateContainer, Node, NodeState, Pod, PodPhase};
use crate::estimate::general::ResourceSummary;
use crate::estimate::models::{self, FullNodes};
use crate::karmada::cluster::Member;
use crate::karmada::constraints::ApiEnablement;
use crate::karmada::fleet::health::TaintTime;
use crate::karmada::fleet::{Health, Readiness};
use crate::resource::ResourceList;
use crate::selector::node::{Taint, TaintEffect};
use crate::Name;

/// A scenario field of the cluster `name`, as the report writes it.
fn cluster_field(name: &str, field: &'static str) -> Destination {
    Destination::ClusterField {
        cluster: name.into(),
        field,
    }
}

/// `parts` end to end, in one allocation at most (no formatting machinery: a Cluster's
/// report lines are written 10,000 times over).
fn joined(parts: &[&str]) -> Name {
    let mut out = Name::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

/// A Cluster's or a Node's taints (`at`: the object's path).
fn taints(o: &Object, at: impl Fn() -> Path) -> Result<Vec<Taint>> {
    o.spec
        .taints
        .iter()
        .enumerate()
        .map(|(k, taint)| {
            let Some(effect) = TaintEffect::parse(&taint.effect) else {
                let field = Path::fields("spec.taints").index(k).field("effect");
                let unknown = format_args!("unknown effect {:?}", taint.effect);
                return Err(invalid(o, at(), field, unknown));
            };
            Ok(Taint {
                key: taint.key.as_str().into(),
                value: taint.value.as_str().into(),
                effect,
            })
        })
        .collect()
}

pub(crate) fn cluster(o: &Object, i: usize, r: &mut ImportReport) -> Result<Member> {
    if o.metadata.name.is_empty() {
        return Err(invalid(
            o,
            object(i),
            "metadata.name".into(),
            "a cluster needs a name",
        ));
    }
    // The report's line: the object named once, the scenario field moved in.
    let named = joined(&[&o.kind, " ", &o.metadata.name]);
    let used = |field: &str, into: &'static str| Entry {
        object: named.clone(),
        field: field.into(),
        into: cluster_field(&o.metadata.name, into),
    };
    let spec = &o.spec;
    let status = &o.status;
    let mut t = Member {
        name: o.metadata.name.as_str().into(),
        labels: o.metadata.labels.clone(),
        provider: spec.provider.as_str().into(),
        region: spec.region.as_str().into(),
        zones: spec.zones.iter().map(|z| z.as_str().into()).collect(),
        resource_models: spec.resource_models.clone(),
        resource_summary: status.resource_summary.clone(),
        deleting: o.metadata.deletion_timestamp.is_some(),
        ..Member::default()
    };
    for (field, into, set) in [
        ("metadata.labels", "labels", !t.labels.is_empty()),
        ("spec.provider", "provider", !t.provider.is_empty()),
        ("spec.region", "region", !t.region.is_empty()),
        ("spec.zones", "zones", !t.zones.is_empty()),
        (
            "spec.resourceModels",
            "resourceModels",
            !t.resource_models.is_empty(),
        ),
        (
            "status.resourceSummary",
            "resourceSummary",
            t.resource_summary.is_some(),
        ),
        ("metadata.deletionTimestamp", "deleting", t.deleting),
    ] {
        if set {
            r.used.push(used(field, into));
        }
    }
    if spec.zone.is_some() {
        r.ignored.push(entry(
            o,
            "spec.zone",
            "deprecated; the scheduler never reads it",
        ));
    }
    t.taints = taints(o, || object(i))?;
    if !t.taints.is_empty() {
        r.used.push(used("spec.taints", "taints"));
    }
    t.api_enablements = status
        .api_enablements
        .iter()
        .map(|a| ApiEnablement {
            group_version: a.group_version.as_str().into(),
            kinds: a.resources.iter().map(|x| x.kind.as_str().into()).collect(),
        })
        .collect();
    if !t.api_enablements.is_empty() {
        r.used.push(used("status.apiEnablements", "apiEnablements"));
    }
    if let Some(c) = status
        .conditions
        .iter()
        .find(|c| c.kind == "CompleteAPIEnablements")
    {
        t.complete_api_enablements = Some(c.status == "True");
        r.used.push(used(
            "status.conditions[CompleteAPIEnablements]",
            "completeApiEnablements",
        ));
    }
    Ok(t)
}

/// A member cluster's Nodes and Pods: the accurate estimator's input, and, when the Cluster
/// object has no `status.resourceSummary`, the summary and grade counts the cluster status
/// controller would report from them (docs/rules/karmada.md §16.3).
pub(crate) fn member_state(
    t: &mut Member,
    objects: &[Object],
    k: usize,
    r: &mut ImportReport,
) -> Result<()> {
    let at = |i: usize| indexed("members", k).field("objects").index(i);
    let mut nodes = Vec::new();
    let mut pods = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        api_version(o, || at(i))?;
        match o.kind.as_str() {
            "Node" => {
                nodes.push(Node {
                    name: o.metadata.name.clone(),
                    labels: o.metadata.labels.clone(),
                    taints: taints(o, || at(i))?,
                    unschedulable: o.spec.unschedulable,
                    allocatable: o.status.allocatable.clone().unwrap_or_default(),
                });
            }
            "Pod" => {
                let requests = |c: &super::pod::Container| AccurateContainer {
                    requests: c.resources.requests.clone(),
                };
                pods.push(Pod {
                    name: o.metadata.name.clone(),
                    node_name: o.spec.node_name.clone().filter(|n| !n.is_empty()),
                    phase: match o.status.phase.as_deref() {
                        Some("Pending") => PodPhase::Pending,
                        Some("Succeeded") => PodPhase::Succeeded,
                        Some("Failed") => PodPhase::Failed,
                        Some("Unknown") => PodPhase::Unknown,
                        _ => PodPhase::Running,
                    },
                    requests: ResourceList::new(),
                    containers: o.spec.containers.iter().map(requests).collect(),
                    init_containers: o.spec.init_containers.iter().map(requests).collect(),
                    overhead: o.spec.overhead.clone().unwrap_or_default(),
                });
            }
            _ => r.ignored.push(entry(
                o,
                "",
                format_args!("member {}: only Nodes and Pods are read", t.name),
            )),
        }
    }
    let member = Entry {
        object: format_compact!("member {}", t.name),
        field: format_compact!("{} nodes, {} pods", nodes.len(), pods.len()),
        into: cluster_field(&t.name, "nodes, pods"),
    };
    r.used.push(member);
    if t.resource_summary.is_none() {
        t.resource_summary = Some(summary(t, &nodes, &pods)?);
        r.defaulted.push(Entry {
            object: format_compact!("Cluster {}", t.name),
            field: "status.resourceSummary".into(),
            into: "computed from the member's nodes and pods, as the cluster status \
                   controller reports it"
                .into(),
        });
    }
    t.nodes = Some(nodes);
    t.pods = pods;
    Ok(())
}

/// `status.resourceSummary` from nodes and pods: allocatable is the nodes' sum; allocated the
/// effective requests of pods bound to a node and not finished, plus their number as `pods`;
/// allocating the same for pods not yet bound; the grade counts over the cluster's resource
/// models (the default grades when it states none).
fn summary(t: &Member, nodes: &[Node], pods: &[Pod]) -> Result<ResourceSummary> {
    let mut s = ResourceSummary::default();
    for n in nodes {
        s.allocatable.add_all(&n.allocatable);
    }
    for p in pods {
        if matches!(p.phase, PodPhase::Succeeded | PodPhase::Failed) {
            continue;
        }
        let list = if p.node_name.is_some() {
            &mut s.allocated
        } else {
            &mut s.allocating
        };
        for (name, amount) in p.requests().iter().filter(|&(name, _)| name != "pods") {
            list.add(name, amount);
        }
        list.add("pods", 1);
    }
    let models = if t.resource_models.is_empty() {
        models::default_models()
    } else {
        t.resource_models.clone()
    };
    let state = NodeState::build(nodes.to_vec(), pods)?;
    s.allocatable_modelings = models::grade_counts(&models, state.graded(), FullNodes::Skip);
    Ok(s)
}

/// The cluster's health from its `Ready` condition (absent: never reported).
pub(crate) fn health(o: &Object) -> Health {
    let ready = match o
        .status
        .conditions
        .iter()
        .find(|c| c.kind == "Ready")
        .map(|c| c.status.as_str())
    {
        Some("True") => Readiness::Ready,
        Some("False") => Readiness::NotReady,
        Some(_) => Readiness::Unknown,
        None => Readiness::Never,
    };
    // Each taint's `timeAdded`, which the taint manager counts `tolerationSeconds` from
    // (§25.2); a taint without one (or an unreadable one) has none.
    let added = o
        .spec
        .taints
        .iter()
        .filter_map(|t| {
            let at = super::time::seconds(t.time_added.as_deref()?)?;
            let effect = TaintEffect::parse(&t.effect)?;
            Some(TaintTime {
                key: t.key.as_str().into(),
                effect,
                at,
            })
        })
        .collect();
    Health {
        ready,
        pull: o.spec.sync_mode == "Pull",
        added,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubernetes::objects::read_json;

    fn read(text: &str) -> Result<Member> {
        let o = read_json(text).unwrap().remove(0);
        cluster(&o, 2, &mut ImportReport::default())
    }

    // A Cluster's place, labels, taints and deletion become the member's; an unknown taint
    // effect is an error at that taint.
    #[test]
    fn a_cluster_becomes_a_member() {
        let m = read(
            r#"{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": "member1", "labels": {"tier": "gold"},
                             "deletionTimestamp": "2024-05-01T12:00:00Z"},
                "spec": {"region": "eu", "taints": [{"key": "k", "effect": "NoSchedule"}]}}"#,
        )
        .unwrap();
        assert_eq!(m.name.as_str(), "member1");
        assert_eq!(m.region.as_str(), "eu");
        assert_eq!(m.labels.get("tier").map(|v| v.as_str()), Some("gold"));
        assert_eq!(m.taints.len(), 1);
        assert!(m.deleting);
        let err = read(
            r#"{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                "metadata": {"name": "member1"},
                "spec": {"taints": [{"key": "k", "effect": "Sometimes"}]}}"#,
        )
        .unwrap_err();
        assert_eq!(err.field().text(), "objects[2].spec.taints[0].effect");
    }
}
