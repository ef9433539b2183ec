//! From Kubernetes and Karmada objects to a scenario (docs/rules/karmada.md §16.2): Clusters
//! become the scenario's clusters, the resource template its workload (through the built-in
//! replica interpreter), the policy that selects the template its policy (after the policy
//! webhook's defaults), and a ResourceBinding the binding state (previous result, observed
//! term, evictions, reschedule). The report says which object and field fed which scenario
//! field, which defaults were applied and what was ignored, and why.

use alloc::format;

use alloc::string::String;
use alloc::vec::Vec;
use compact_str::{format_compact, ToCompactString};

use serde::Serialize;

use super::destination::Destination;
use super::interpreter::{interpret, SUPPORTED};
use super::karmada::{ObjectReference, Placement, WorkloadGroup};
use super::objects::Object;
use super::policy::{choose, Chosen, Decided, PolicyChoice, Template};
use crate::error::{indexed, Error, ErrorCode, Path, Result};
use crate::estimate::accurate::{Container as AccurateContainer, Node, NodeState, Pod, PodPhase};
use crate::estimate::general::ResourceSummary;
use crate::estimate::models::{self, FullNodes};
use crate::karmada::admission;
use crate::karmada::binding::Estimator;
use crate::karmada::constraints::{AffinityTerm, ApiEnablement, NamedAffinity, SpreadField};
use crate::karmada::version::Version;
use crate::karmada::Strategy;
use crate::resource::ResourceList;
use crate::scenario::{Policy, Scenario, Target, FORMAT_VERSION};
use crate::selector::node::{Taint, TaintEffect, Toleration};
use crate::Name;

/// A scenario made from objects, and how.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Imported {
    #[cfg_attr(feature = "schema", schemars(schema_with = "super::scenario_schema"))]
    pub scenario: Scenario,
    pub report: ImportReport,
    /// The resource template a binding is for: the template's identity, else the given
    /// binding's `spec.resource` (absent when there is neither).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<ObjectReference>,
    /// The given binding's position among the objects.
    #[serde(skip)]
    pub binding: Option<usize>,
}

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
    pub clusters: Vec<Target>,
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

/// Read one template (its workload) and its binding (the binding's state) into `s`; the
/// policy is read by [`policy`] once chosen.
pub(crate) fn read_template(
    s: &mut Scenario,
    template: Option<(usize, &Object)>,
    binding: Option<(usize, &Object)>,
    r: &mut ImportReport,
) -> Result<()> {
    if let Some((i, t)) = template {
        workload(s, t, i, r)?;
    }
    if let Some((i, b)) = binding {
        binding_state(s, b, i, template.is_none(), r);
    }
    Ok(())
}

/// The scenario the objects describe. Errors name the object (`objects[2]`, then the field)
/// and say its kind and name.
pub fn import(objects: &[Object], choice: &Choice<'_>) -> Result<Imported> {
    let mut s = Scenario {
        version: FORMAT_VERSION,
        karmada: choice.version,
        ..Scenario::default()
    };
    let mut r = ImportReport::default();
    let sorted = sort(objects, choice, &mut r)?;
    s.clusters = Some(sorted.clusters);
    let template = one(&sorted.templates, "resource template")?;
    let binding = one(&sorted.bindings, "binding")?;
    read_template(&mut s, template, binding, &mut r)?;
    let target = Template::of(template.map(|t| t.1), binding.map(|b| b.1));
    if let Some((i, p)) = pick(&sorted.policies, target.as_ref(), choice, &mut r)? {
        policy(&mut s, p, i, &mut r)?;
    }
    s.policy.gates = choice.gates;
    // A gate the release lacks turned on is refused as Karmada refuses it at start.
    s.policy.gates.resolve(choice.version)?;
    for (_, c) in &sorted.priority_classes {
        r.ignored.push(entry(
            c,
            "value",
            "orders a fleet's scheduling queue only, through a policy's schedulePriority",
        ));
    }
    absent_summaries(&mut s, &mut r);
    default_models(&s, &mut r);
    let resource = match (template, binding) {
        (Some((_, t)), _) => Some(ObjectReference {
            api_version: t.api_version.clone(),
            kind: t.kind.clone(),
            namespace: t.metadata.namespace.clone(),
            name: t.metadata.name.clone(),
            uid: t.metadata.uid.as_str().into(),
        }),
        (None, Some((_, b))) => Some(b.spec.resource.clone()),
        (None, None) => None,
    };
    Ok(Imported {
        scenario: s,
        report: r,
        resource,
        binding: binding.map(|(i, _)| i),
    })
}

fn name(o: &Object) -> String {
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
fn invalid(o: &Object, at: Path, field: Path, reason: impl core::fmt::Display) -> Error {
    Error::Input {
        reason: format!("{}: {field}: {reason}", name(o)),
        field: field.within(&at),
        code: ErrorCode::InvalidInput,
    }
}

/// The path of the `i`th object.
fn object(i: usize) -> Path {
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
fn one<'o>(found: &[(usize, &'o Object)], role: &str) -> Result<Option<(usize, &'o Object)>> {
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

fn cluster(o: &Object, i: usize, r: &mut ImportReport) -> Result<Target> {
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
    let mut t = Target {
        name: o.metadata.name.as_str().into(),
        labels: o.metadata.labels.clone(),
        provider: spec.provider.as_str().into(),
        region: spec.region.as_str().into(),
        zones: spec.zones.iter().map(|z| z.as_str().into()).collect(),
        resource_models: spec.resource_models.clone(),
        resource_summary: status.resource_summary.clone(),
        deleting: o.metadata.deletion_timestamp.is_some(),
        ..Target::default()
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
fn member_state(t: &mut Target, objects: &[Object], k: usize, r: &mut ImportReport) -> Result<()> {
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
fn summary(t: &Target, nodes: &[Node], pods: &[Pod]) -> Result<ResourceSummary> {
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

/// Whether the decision reads the estimates: a division by available replicas, or spread
/// constraints choosing the clusters Duplicated runs on. Static weights read neither: they
/// see every feasible cluster, spread constraints or not (docs/rules/karmada.md §14.2).
pub(crate) fn reads_estimates(p: &Policy) -> bool {
    match p.strategy.as_deref() {
        Some("dynamicWeight" | "aggregated") => true,
        None | Some("staticWeight") => false,
        Some(_) => !p.spread_constraints.is_empty(),
    }
}

/// Clusters that report no `status.resourceSummary` (and whose summary no member's nodes gave).
/// Karmada's scheduler runs the general estimator on every cluster, and it answers 0 for such
/// a cluster; a scenario runs it only on clusters with a summary or resource models unless
/// `policy.estimators` names it (docs/rules/karmada.md §6, §16.2). So when the decision reads
/// the estimates ([`reads_estimates`]) the estimators are stated; otherwise the absent summary
/// is reported as not mattering.
fn absent_summaries(s: &mut Scenario, r: &mut ImportReport) {
    let clusters = s.clusters.as_deref().unwrap_or_default();
    let reads = reads_estimates(&s.policy);
    let mut absent = false;
    for t in clusters.iter().filter(|t| t.resource_summary.is_none()) {
        absent = true;
        let (list, into) = if reads {
            (
                &mut r.used,
                "absent: Karmada's general estimator answers 0 for this cluster",
            )
        } else {
            (
                &mut r.ignored,
                "absent; this decision does not read the estimates (static weights, or \
                 Duplicated without spread constraints)",
            )
        };
        list.push(Entry {
            object: format_compact!("Cluster {}", t.name),
            field: "status.resourceSummary".into(),
            into: into.into(),
        });
    }
    if absent && reads && s.policy.estimators.is_none() {
        let mut estimators = alloc::vec![Estimator::General];
        if clusters.iter().any(|t| t.nodes.is_some()) {
            estimators.push(Estimator::Accurate);
        }
        s.policy.estimators = Some(estimators);
        r.defaulted.push(Entry {
            object: "karmada-scheduler".into(),
            field: "estimators".into(),
            into: "policy.estimators: the general estimator runs on every cluster, as in \
                   Karmada's scheduler"
                .into(),
        });
    }
}

/// Clusters that report grade counts (`allocatableModelings`) but state no
/// `spec.resourceModels`, for a workload with requirements: allot reads the counts against
/// Karmada's 9 default grades, which Karmada's cluster webhook gives every Cluster it admits;
/// Karmada's scheduler, given a Cluster stored without them, skips the models and bounds by
/// the summary alone (docs/rules/karmada.md §7, §16.2).
fn default_models(s: &Scenario, r: &mut ImportReport) {
    let w = &s.workload;
    if w.requests.is_none() && w.node_claim.is_none() && w.components.is_empty() {
        return;
    }
    let clusters = s.clusters.as_deref().unwrap_or_default();
    for t in clusters.iter().filter(|t| {
        t.resource_models.is_empty()
            && t.resource_summary
                .as_ref()
                .is_some_and(|m| !m.allocatable_modelings.is_empty())
    }) {
        r.defaulted.push(Entry {
            object: format_compact!("Cluster {}", t.name),
            field: "spec.resourceModels".into(),
            into: "absent beside grade counts: Karmada's 9 default grades, which its cluster \
                   webhook sets on every Cluster; Karmada's scheduler, given a Cluster stored \
                   without them, ignores the grade counts and bounds by the summary alone"
                .into(),
        });
    }
}

fn workload(s: &mut Scenario, o: &Object, i: usize, r: &mut ImportReport) -> Result<()> {
    // The API server defaults `spec.replicas` (a Job's `spec.parallelism`) to 1 when the
    // template is created; a manifest not yet applied may leave it out.
    let mut stored = o.clone();
    let absent = match o.kind.as_str() {
        "Pod" => None,
        "Job" => stored
            .spec
            .parallelism
            .is_none()
            .then_some("spec.parallelism"),
        _ => stored.spec.replicas.is_none().then_some("spec.replicas"),
    };
    if let Some(field) = absent {
        if o.kind == "Job" {
            stored.spec.parallelism = Some(1);
        } else {
            stored.spec.replicas = Some(1);
        }
        r.defaulted
            .push(entry(o, field, "absent: 1 (the API server's default)"));
    }
    let (replicas, requirements) = interpret(&stored).map_err(|e| e.within(&object(i)))?;
    let w = &mut s.workload;
    w.replicas = Some(replicas as i64);
    w.api_version = Some(o.api_version.clone());
    w.kind = Some(o.kind.clone());
    s.uid = o.metadata.uid.as_str().into();
    let replicas_field = match o.kind.as_str() {
        "Job" => "spec.parallelism, spec.completions",
        "Pod" => "(a Pod is one replica)",
        _ => "spec.replicas",
    };
    r.used.push(entry(o, replicas_field, "workload.replicas"));
    r.used.push(entry(
        o,
        "apiVersion, kind",
        "workload.apiVersion, workload.kind",
    ));
    if !s.uid.is_empty() {
        r.used.push(entry(o, "metadata.uid", "uid"));
    }
    if let Some(q) = requirements {
        let spec = if o.kind == "Pod" {
            "spec"
        } else {
            "spec.template.spec"
        };
        if let Some(request) = q.resource_request {
            w.requests = Some(request);
            r.used.push(entry(
                o,
                &format!("{spec}.containers[].resources, initContainers, overhead"),
                "workload.requests",
            ));
        }
        if let Some(claim) = q.node_claim {
            w.node_claim = Some(claim);
            r.used.push(entry(
                o,
                &format!("{spec}.nodeSelector, tolerations, affinity.nodeAffinity"),
                "workload.nodeClaim",
            ));
        }
    }
    Ok(())
}

fn binding_state(s: &mut Scenario, o: &Object, i: usize, alone: bool, r: &mut ImportReport) {
    let _ = i;
    let spec = &o.spec;
    let status = &o.status;
    for c in &spec.clusters {
        s.previous.insert(c.name.clone(), c.replicas);
    }
    if !spec.clusters.is_empty() {
        r.used.push(entry(o, "spec.clusters", "previous"));
    }
    if !status.scheduler_observing_affinity_name.is_empty() {
        s.observed_affinity = status.scheduler_observing_affinity_name.clone();
        r.used.push(entry(
            o,
            "status.schedulerObservingAffinityName",
            "observedAffinity",
        ));
    }
    s.graceful_evictions = spec
        .graceful_eviction_tasks
        .iter()
        .map(|t| t.from_cluster.clone())
        .collect();
    if !s.graceful_evictions.is_empty() {
        r.used
            .push(entry(o, "spec.gracefulEvictionTasks", "gracefulEvictions"));
    }
    // A trigger after the last schedule asks for a fresh one (docs/rules/karmada.md §16.2).
    // RFC 3339 times as the API writes them (UTC, `Z`) order as text.
    if let Some(at) = &spec.reschedule_triggered_at {
        match &status.last_scheduled_time {
            Some(last) if at > last => {
                s.policy.fresh = true;
                r.used.push(entry(
                    o,
                    "spec.rescheduleTriggeredAt, status.lastScheduledTime",
                    "policy.fresh",
                ));
            }
            Some(_) => r.ignored.push(entry(
                o,
                "spec.rescheduleTriggeredAt",
                "not after status.lastScheduledTime: already rescheduled",
            )),
            None => r.ignored.push(entry(
                o,
                "spec.rescheduleTriggeredAt",
                "no status.lastScheduledTime (the first schedule has not succeeded yet): \
                 Karmada waits for that schedule and does not reschedule afresh",
            )),
        }
    }
    if alone {
        // No template: the binding's own copy of what the interpreter found.
        let res = &spec.resource;
        s.workload.api_version = Some(res.api_version.clone());
        s.workload.kind = Some(res.kind.clone());
        s.workload.replicas = Some(o.spec.replicas.unwrap_or(0));
        s.uid = res.uid.clone();
        r.used
            .push(entry(o, "spec.resource, spec.replicas", "workload, uid"));
    }
}

/// The policy to use (§16.6): the named one, else the one Karmada's detector chooses among
/// those whose resource selectors select the template, else the only one given. The report
/// says which and why.
fn pick<'o>(
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

/// Read the placement of policy `o` (the `i`th object) into `s`, with the webhook's defaults,
/// refusing what admission refuses.
pub(crate) fn policy(s: &mut Scenario, o: &Object, i: usize, r: &mut ImportReport) -> Result<()> {
    let pl: &Placement = &o.spec.placement;
    let p = &mut s.policy;
    if let Some(a) = &pl.cluster_affinity {
        p.cluster_affinity = Some(a.clone());
        r.used.push(entry(
            o,
            "spec.placement.clusterAffinity",
            "policy.clusterAffinity",
        ));
    }
    if let Some(terms) = &pl.cluster_affinities {
        p.cluster_affinities = Some(
            terms
                .iter()
                .map(|t| AffinityTerm {
                    affinity_name: t.affinity_name.clone(),
                    affinity: t.affinity(),
                    overflow_affinities: t
                        .overflow_affinities
                        .iter()
                        .map(|n| NamedAffinity {
                            affinity_name: n.affinity_name.clone(),
                            affinity: n.affinity(),
                        })
                        .collect(),
                })
                .collect(),
        );
        r.used.push(entry(
            o,
            "spec.placement.clusterAffinities",
            "policy.clusterAffinities",
        ));
    }
    p.cluster_tolerations = pl
        .cluster_tolerations
        .iter()
        .enumerate()
        .map(|(k, t)| {
            t.toleration().ok_or_else(|| {
                let field = Path::fields("spec.placement.clusterTolerations")
                    .index(k)
                    .field("effect");
                invalid(o, object(i), field, "unknown effect")
            })
        })
        .collect::<Result<Vec<Toleration>>>()?;
    if !p.cluster_tolerations.is_empty() {
        r.used.push(entry(
            o,
            "spec.placement.clusterTolerations",
            "policy.clusterTolerations",
        ));
    }
    for (k, c) in pl.spread_constraints.iter().enumerate() {
        let mut c = c.clone();
        let field = format!("spec.placement.spreadConstraints[{k}]");
        if c.spread_by_field.is_none() && c.spread_by_label.is_empty() {
            c.spread_by_field = Some(SpreadField::Cluster);
            r.defaulted.push(entry(
                o,
                &field,
                "spreadByField: cluster (the policy webhook)",
            ));
        }
        if c.min_groups == 0 {
            c.min_groups = 1;
            r.defaulted
                .push(entry(o, &field, "minGroups: 1 (the policy webhook)"));
        }
        p.spread_constraints.push(c);
    }
    if !p.spread_constraints.is_empty() {
        r.used.push(entry(
            o,
            "spec.placement.spreadConstraints",
            "policy.spreadConstraints",
        ));
    }
    strategy(s, o, i, r)?;
    admitted(&s.policy, o, i, s.karmada)?;
    if o.spec.placement.workload_affinity.is_some() {
        r.ignored.push(entry(
            o,
            "spec.placement.workloadAffinity",
            "WorkloadAffinity and WorkloadAntiAffinity read the other bindings of a group: a \
             fleet reads them (docs/rules/fleet.md §31), a single binding has none",
        ));
    }
    if !o.spec.scheduler_name.is_empty() {
        r.ignored.push(entry(
            o,
            "spec.schedulerName",
            "names the scheduler that acts; allot answers as the default one",
        ));
    }
    if o.spec.schedule_priority.is_some() {
        r.ignored.push(entry(
            o,
            "spec.schedulePriority",
            "orders the scheduling queue only; it does not change a placement",
        ));
    }
    Ok(())
}

/// What the policy webhook refuses (docs/rules/karmada.md §17), under the rules of `version`
/// (the release the schedule follows): the placement as imported (with the webhook's
/// defaults), then the resource selectors' namespaces.
fn admitted(p: &Policy, o: &Object, i: usize, version: Version) -> Result<()> {
    let placement = admission::Placement {
        cluster_affinity: p.cluster_affinity.as_ref(),
        cluster_affinities: p.cluster_affinities.as_deref(),
        cluster_tolerations: &p.cluster_tolerations,
        spread_constraints: &p.spread_constraints,
        strategy: p
            .strategy
            .as_deref()
            .and_then(Strategy::named)
            .unwrap_or_default(),
        workload_groups: o.spec.placement.workload_affinity.as_ref().map(|w| {
            admission::WorkloadGroups {
                affinity: group_key(&w.affinity),
                anti_affinity: group_key(&w.anti_affinity),
            }
        }),
    };
    admission::admit(&placement, admission::Layout::Object(i), version)?;
    let namespace = match o.kind.as_str() {
        "PropagationPolicy" => o.metadata.namespace.as_str(),
        _ => "",
    };
    admission::resource_selectors(
        o.spec
            .resource_selectors
            .iter()
            .map(|s| s.namespace.as_str()),
        namespace,
        &object(i).join(&Path::fields("spec.resourceSelectors")),
        version,
    )
}

/// A workload affinity term's `groupByLabelKey`, when the term is given.
fn group_key(g: &Option<WorkloadGroup>) -> Option<&str> {
    g.as_ref().map(|g| g.group_by_label_key.as_str())
}

/// The strategy from `replicaScheduling` (docs/rules/karmada.md §0 step 3), with the CRD's
/// and the webhook's defaults.
fn strategy(s: &mut Scenario, o: &Object, i: usize, r: &mut ImportReport) -> Result<()> {
    let field = "spec.placement.replicaScheduling";
    let Some(rs) = &o.spec.placement.replica_scheduling else {
        s.policy.strategy = Some("duplicated".into());
        r.defaulted.push(entry(o, field, "absent: Duplicated"));
        return Ok(());
    };
    let kind = match rs.replica_scheduling_type.as_deref() {
        Some(k) => k,
        None => {
            r.defaulted
                .push(entry(o, field, "replicaSchedulingType: Divided (the CRD)"));
            "Divided"
        }
    };
    let strategy = match kind {
        "Duplicated" => "duplicated",
        "Divided" => {
            // The webhook defaults an absent or empty preference.
            let preference = match rs.replica_division_preference.as_deref() {
                Some(p) if !p.is_empty() => p,
                _ => {
                    r.defaulted.push(entry(
                        o,
                        field,
                        "replicaDivisionPreference: Weighted (the policy webhook)",
                    ));
                    "Weighted"
                }
            };
            let weights = rs.weight_preference.as_ref();
            match preference {
                "Aggregated" => "aggregated",
                "Weighted" if weights.is_some_and(|w| !w.dynamic_weight.is_empty()) => {
                    "dynamicWeight"
                }
                "Weighted" => {
                    let list = weights
                        .map(|w| w.static_weight_list.clone())
                        .unwrap_or_default();
                    if !list.is_empty() {
                        s.policy.static_weights = Some(list);
                        r.used.push(entry(
                            o,
                            "spec.placement.replicaScheduling.weightPreference.staticWeightList",
                            "policy.staticWeights",
                        ));
                    }
                    "staticWeight"
                }
                other => {
                    let f = "spec.placement.replicaScheduling.replicaDivisionPreference";
                    return Err(invalid(
                        o,
                        object(i),
                        f.into(),
                        format_args!(
                            "unknown preference {other:?}: Karmada accepts Aggregated or Weighted"
                        ),
                    ));
                }
            }
        }
        other => {
            let f = "spec.placement.replicaScheduling.replicaSchedulingType";
            return Err(invalid(
                o,
                object(i),
                f.into(),
                format_args!("unknown type {other:?}: Karmada accepts Duplicated or Divided"),
            ));
        }
    };
    s.policy.strategy = Some(strategy.into());
    r.used
        .push(entry(o, field, format_args!("policy.strategy: {strategy}")));
    Ok(())
}
