//! Objects sorted by the role Karmada gives them, and Clusters to the members Karmada's
//! scheduler reads (docs/rules/karmada.md §16.2, §16.3): each object's API version checked,
//! each Cluster read once (its labels, place, taints, resource models and summary, served
//! APIs; a member's own Nodes and Pods when given), the policy that propagates one template
//! chosen as Karmada's detector chooses it (§16.6). The report says which object and field
//! fed what, which defaults were applied and what was ignored, and why; every problem is
//! said at the object's own field. The other kinds' readers: [`super::workloads`] (templates
//! and bindings), [`super::placement`] (policies).

use alloc::format;

use alloc::string::String;
use alloc::vec::Vec;
use compact_str::{format_compact, ToCompactString};

use serde::Serialize;

use super::destination::Destination;
use super::interpreter::SUPPORTED;
use super::objects::Object;
use super::policy::{choose, Chosen, Decided, PolicyChoice, Template};
use crate::error::{indexed, Error, ErrorCode, Path, Result};
use crate::estimate::accurate::{Container as AccurateContainer, Node, NodeState, Pod, PodPhase};
use crate::estimate::general::ResourceSummary;
use crate::estimate::models::{self, FullNodes};
use crate::karmada::cluster::Member;
use crate::karmada::constraints::ApiEnablement;
use crate::resource::ResourceList;
use crate::selector::node::{Taint, TaintEffect};
use crate::Name;

/// How the objects were read.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ImportReport {
    /// Which object's field fed which scenario field.
    pub used: Vec<Entry>,
    /// Defaults applied (the policy webhook's, the CRD's).
    pub defaulted: Vec<Entry>,
    /// What was read but does not change the placement, and why.
    pub ignored: Vec<Entry>,
    /// Which policy was used and why, the others and why not (§16.6); absent without a
    /// policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyChoice>,
}

/// One line of the report: `object` (`Cluster member1`), its `field`, and what became of it
/// (`into`: a scenario field, a default, or the reason it is ignored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Entry {
    pub object: Name,
    pub field: Name,
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub into: Destination,
}

/// What the objects alone cannot say.
#[derive(Debug, Clone, Default)]
pub struct Choice<'a> {
    /// The Karmada release the objects come from (docs/rules/versions.md); the default is the
    /// newest allot follows.
    pub version: crate::karmada::version::Version,
    /// The policy to use, by name, over the one Karmada's detector would choose (§16.6).
    pub policy: Option<&'a str>,
    /// Each member cluster's own Nodes and Pods (`kubectl get nodes,pods -A -o json` run
    /// against it), by the cluster's name.
    pub members: &'a [(&'a str, Vec<Object>)],
    /// The scheduler's feature gates that change one binding's schedule (`--feature-gates`);
    /// each one unset takes the release's default.
    pub gates: crate::karmada::version::GateSettings,
}

pub(crate) const POLICY_KINDS: [&str; 2] = ["PropagationPolicy", "ClusterPropagationPolicy"];
const BINDING_KINDS: [&str; 2] = ["ResourceBinding", "ClusterResourceBinding"];

/// The objects sorted by role, with the Clusters read (once, however many templates follow).
pub(crate) struct Sorted<'o> {
    pub clusters: Vec<Member>,
    pub templates: Vec<(usize, &'o Object)>,
    pub policies: Vec<(usize, &'o Object)>,
    pub bindings: Vec<(usize, &'o Object)>,
    /// PriorityClasses (scheduling.k8s.io/v1): what a policy's `schedulePriority` names.
    pub priority_classes: Vec<(usize, &'o Object)>,
    /// ClusterTaintPolicies (docs/rules/fleet.md §24.3).
    pub taint_policies: Vec<(usize, &'o Object)>,
}

fn is_template(kind: &str) -> bool {
    SUPPORTED.iter().any(|&(_, k)| k == kind)
}

/// Whether allot reads objects of `kind` (a List is opened, not read).
pub(crate) fn reads_kind(kind: &str) -> bool {
    kind == "Cluster"
        || kind == "PriorityClass"
        || kind == "ClusterTaintPolicy"
        || POLICY_KINDS.contains(&kind)
        || BINDING_KINDS.contains(&kind)
        || is_template(kind)
}

/// The kinds [`reads_kind`] accepts, in words.
pub(crate) const KINDS_READ: &str = "Cluster, PropagationPolicy, ClusterPropagationPolicy, \
    ResourceBinding, ClusterResourceBinding, PriorityClass, ClusterTaintPolicy, Deployment, \
    ReplicaSet, StatefulSet, Job, Pod";

/// Sort `objects` by role and read every Cluster, with each member cluster's own Nodes and
/// Pods from `choice`. Kinds allot does not read are reported ignored.
pub(crate) fn sort<'o>(
    objects: &'o [Object],
    choice: &Choice<'_>,
    r: &mut ImportReport,
) -> Result<Sorted<'o>> {
    // About seven report lines per Cluster: reserved at once rather than grown (for the
    // Clusters alone: a fleet's dump holds many more templates and bindings than Clusters).
    let count = objects.iter().filter(|o| o.kind == "Cluster").count();
    r.used.reserve(count.saturating_mul(7));
    let mut sorted = Sorted {
        clusters: Vec::with_capacity(count),
        templates: Vec::new(),
        policies: Vec::new(),
        bindings: Vec::new(),
        priority_classes: Vec::new(),
        taint_policies: Vec::new(),
    };
    for (i, o) in objects.iter().enumerate() {
        api_version(o, || object(i))?;
        match o.kind.as_str() {
            "Cluster" => sorted.clusters.push(cluster(o, i, r)?),
            k if POLICY_KINDS.contains(&k) => sorted.policies.push((i, o)),
            k if BINDING_KINDS.contains(&k) => sorted.bindings.push((i, o)),
            "PriorityClass" => sorted.priority_classes.push((i, o)),
            "ClusterTaintPolicy" => sorted.taint_policies.push((i, o)),
            k if is_template(k) => sorted.templates.push((i, o)),
            _ => r
                .ignored
                .push(entry(o, "", "allot does not read this kind")),
        }
    }
    for (k, (member, objects)) in choice.members.iter().enumerate() {
        let Some(t) = sorted.clusters.iter_mut().find(|t| t.name == *member) else {
            return Err(Error::Input {
                field: indexed("members", k),
                code: ErrorCode::InvalidInput,
                reason: format!("no Cluster named {member} among the objects"),
            });
        };
        member_state(t, objects, k, r)?;
    }
    Ok(sorted)
}

pub(crate) fn name(o: &Object) -> String {
    format!("{} {}", o.kind, o.metadata.name)
}

pub(crate) fn entry(o: &Object, field: &str, into: impl ToCompactString) -> Entry {
    Entry {
        object: format_compact!("{} {}", o.kind, o.metadata.name),
        field: field.into(),
        into: Destination::Text(into.to_compact_string()),
    }
}

/// An error at `field` of the object at `at`, saying the object's kind and name.
pub(crate) fn invalid(o: &Object, at: Path, field: Path, reason: impl core::fmt::Display) -> Error {
    Error::Input {
        reason: format!("{}: {field}: {reason}", name(o)),
        field: field.within(&at),
        code: ErrorCode::InvalidInput,
    }
}

/// The path of the `i`th object.
pub(crate) fn object(i: usize) -> Path {
    indexed("objects", i)
}

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

/// The API version each kind allot reads is served at.
const API_VERSIONS: [(&str, &str); 7] = [
    ("Cluster", "cluster.karmada.io/v1alpha1"),
    ("PropagationPolicy", "policy.karmada.io/v1alpha1"),
    ("ClusterPropagationPolicy", "policy.karmada.io/v1alpha1"),
    ("ResourceBinding", "work.karmada.io/v1alpha2"),
    ("ClusterResourceBinding", "work.karmada.io/v1alpha2"),
    ("Node", "v1"),
    ("Pod", "v1"),
];

/// An object of a kind allot reads must come in the API version whose fields it reads: the
/// same kind under another version (`apps/v1beta1`, `work.karmada.io/v1alpha1`) has other
/// fields, or none of them.
fn api_version(o: &Object, at: impl FnOnce() -> Path) -> Result<()> {
    let expected = API_VERSIONS
        .iter()
        .copied()
        .chain(SUPPORTED.iter().map(|&(v, k)| (k, v)))
        .find(|&(kind, _)| kind == o.kind)
        .map(|(_, v)| v);
    match expected {
        Some(v) if v != o.api_version => Err(invalid(
            o,
            at(),
            "apiVersion".into(),
            format_args!("expected {v} for a {}, got {:?}", o.kind, o.api_version),
        )),
        _ => Ok(()),
    }
}

/// At most one object of a role; two are an error naming both.
pub(crate) fn one<'o>(
    found: &[(usize, &'o Object)],
    role: &str,
) -> Result<Option<(usize, &'o Object)>> {
    match found {
        [] => Ok(None),
        [only] => Ok(Some(*only)),
        [(_, a), (j, b), ..] => Err(invalid(
            b,
            object(*j),
            Path::root(),
            format_args!("a second {role} besides {}; import one at a time", name(a)),
        )),
    }
}

fn cluster(o: &Object, i: usize, r: &mut ImportReport) -> Result<Member> {
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
fn member_state(t: &mut Member, objects: &[Object], k: usize, r: &mut ImportReport) -> Result<()> {
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

/// The policy to use (§16.6): the named one, else the one Karmada's detector chooses among
/// those whose resource selectors select the template, else the only one given. The report
/// says which and why.
pub(crate) fn pick<'o>(
    policies: &[(usize, &'o Object)],
    target: Option<&Template<'_>>,
    choice: &Choice<'_>,
    r: &mut ImportReport,
) -> Result<Option<(usize, &'o Object)>> {
    match choose(policies, target, choice.policy) {
        Chosen::Policy(i, p, report) => {
            if report.decided == Decided::OnlyGiven {
                r.ignored.push(entry(
                    p,
                    "spec.resourceSelectors",
                    "select no template given here; the only policy is used as it is",
                ));
            } else {
                r.used.push(entry(
                    p,
                    "spec.resourceSelectors",
                    "this policy's placement is used (see the policy choice)",
                ));
            }
            r.policy = Some(report);
            Ok(Some((i, p)))
        }
        Chosen::None => Ok(None),
        Chosen::Unknown => Err(Error::Input {
            field: Path::fields("policy"),
            code: ErrorCode::InvalidInput,
            reason: format!(
                "no policy named {} among the objects",
                choice.policy.unwrap_or_default()
            ),
        }),
        Chosen::Unselected(j, a, b) => Err(invalid(
            b,
            object(j),
            "spec.resourceSelectors".into(),
            format_args!(
                "neither {} nor {} selects a template given here; choose one by name",
                name(a),
                name(b)
            ),
        )),
    }
}
