//! From a scenario back to Kubernetes and Karmada objects (docs/rules/karmada.md §16.5): one
//! Cluster per cluster, the resource template, the PropagationPolicy that selects it, and the
//! ResourceBinding when the scenario has binding state; each cluster's nodes and pods as that
//! member's own objects. Importing the objects gives the scenario back, field for field, for
//! every field objects can hold; the others (the division method, stated estimates, feature
//! gates...) have no object field, and the export lists them.
//!
//! The template is named [`TEMPLATE_NAME`] in [`NAMESPACE`] and the policy [`POLICY_NAME`]: a
//! scenario does not name them.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use serde::Serialize;

use super::{Policy, Scenario, Target};
use crate::error::{Error, ErrorCode, Path, Result};
use crate::estimate::accurate::{Node, Pod, PodPhase};
use crate::karmada::binding::Estimator;
use crate::karmada::constraints::NamedAffinity;
use crate::karmada::StaticWeightRule;
use crate::kubernetes::import::Entry;
use crate::kubernetes::interpreter::SUPPORTED;
use crate::kubernetes::karmada::{
    AffinityTerm as ObjectTerm, ApiEnablement as ObjectApi, ApiResource, ClusterTaint, Condition,
    EvictionTask, ObjectReference, Placement, ReplicaScheduling, ResourceSelector, TargetCluster,
    WeightPreference,
};
use crate::kubernetes::meta::ObjectMeta;
use crate::kubernetes::objects::{Object, Spec, Status};
use crate::kubernetes::pod::{
    Affinity, Container, NodeAffinity, PodSpec, PodTemplateSpec, PodToleration,
    ResourceRequirements,
};
use crate::resource::ResourceList;
use crate::selector::cluster::ClusterAffinity;
use crate::selector::node::{Taint, Toleration};

/// The template's name: a scenario does not name its workload.
pub const TEMPLATE_NAME: &str = "workload";
/// The namespace of the template, the policy and the binding.
pub const NAMESPACE: &str = "default";
/// The policy's name.
pub const POLICY_NAME: &str = "allot";
/// The time written where only an order of times matters (a deletion, a reschedule).
const TIME: &str = "2000-01-01T00:00:00Z";
const LATER: &str = "2000-01-01T00:00:01Z";

/// A scenario as objects.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Exported {
    /// Clusters, the template, the policy and (with binding state) the binding.
    pub objects: Vec<Object>,
    /// Each cluster's nodes and pods, as `kubectl get nodes,pods -A` against it prints them.
    pub members: Vec<Member>,
    /// Scenario fields no object holds, and why.
    pub unexpressed: Vec<Entry>,
}

/// One member cluster's own objects.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Member {
    pub cluster: String,
    pub objects: Vec<Object>,
}

/// The objects a Karmada scenario describes. An eru scenario has none (`unknown_value` at
/// `nodes`).
pub fn export(s: &Scenario) -> Result<Exported> {
    if s.nodes.is_some() {
        return Err(Error::Input {
            field: Path::fields("nodes"),
            code: ErrorCode::UnknownValue,
            reason: "eru nodes have no Kubernetes objects; only Karmada scenarios export".into(),
        });
    }
    let clusters = s.clusters.as_deref().unwrap_or_default();
    let mut objects: Vec<Object> = clusters.iter().map(cluster).collect();
    // A kind without a built-in interpreter has no template that imports: the binding alone
    // stands for it (its resource and replicas), as in an import of a binding alone.
    let interpreted = interpreted(s);
    if interpreted {
        objects.push(template(s));
    }
    objects.push(policy(s));
    let state = !interpreted
        || !s.previous.is_empty()
        || !s.observed_affinity.is_empty()
        || !s.graceful_evictions.is_empty()
        || s.policy.fresh;
    if state {
        let current = s
            .previous
            .iter()
            .map(|(name, &replicas)| TargetCluster {
                name: name.clone(),
                replicas,
            })
            .collect();
        objects.push(binding(s, reference(s), current, &s.observed_affinity));
    }
    let members = clusters
        .iter()
        .filter(|t| t.nodes.is_some() || !t.pods.is_empty())
        .map(|t| Member {
            cluster: t.name.to_string(),
            objects: t
                .nodes
                .iter()
                .flatten()
                .map(node)
                .chain(t.pods.iter().map(pod))
                .collect(),
        })
        .collect();
    Ok(Exported {
        objects,
        members,
        unexpressed: unexpressed(s),
    })
}

fn meta(name: &str, namespace: &str) -> ObjectMeta {
    ObjectMeta {
        name: name.into(),
        namespace: namespace.into(),
        ..ObjectMeta::default()
    }
}

fn object(api_version: &str, kind: &str, metadata: ObjectMeta) -> Object {
    Object {
        api_version: api_version.into(),
        kind: kind.into(),
        metadata,
        ..Object::default()
    }
}

fn taints(taints: &[Taint]) -> Vec<ClusterTaint> {
    taints
        .iter()
        .map(|t| ClusterTaint {
            key: t.key.to_string(),
            value: t.value.to_string(),
            effect: t.effect.as_str().into(),
            time_added: None,
        })
        .collect()
}

fn cluster(t: &Target) -> Object {
    let mut o = object("cluster.karmada.io/v1alpha1", "Cluster", meta(&t.name, ""));
    o.metadata.labels = t.labels.clone();
    o.metadata.deletion_timestamp = t.deleting.then(|| TIME.into());
    o.spec = Spec {
        provider: t.provider.clone(),
        region: t.region.clone(),
        zones: t.zones.clone(),
        taints: taints(&t.taints),
        resource_models: t.resource_models.clone(),
        ..Spec::default()
    };
    o.status = Status {
        api_enablements: t
            .api_enablements
            .iter()
            .map(|a| ObjectApi {
                group_version: a.group_version.as_str().into(),
                resources: a
                    .kinds
                    .iter()
                    .map(|kind| ApiResource {
                        name: String::new(),
                        kind: kind.as_str().into(),
                    })
                    .collect(),
            })
            .collect(),
        conditions: t
            .complete_api_enablements
            .map(|complete| Condition {
                kind: "CompleteAPIEnablements".into(),
                status: if complete { "True" } else { "False" }.into(),
            })
            .into_iter()
            .collect(),
        resource_summary: t.resource_summary.clone(),
        ..Status::default()
    };
    o
}

/// The template's kind and API version (a Deployment when the scenario names none).
fn identity(s: &Scenario) -> (&str, &str) {
    let kind = s.workload.kind.as_deref().unwrap_or("Deployment");
    let default = match kind {
        "Job" => "batch/v1",
        "Pod" => "v1",
        _ => "apps/v1",
    };
    (s.workload.api_version.as_deref().unwrap_or(default), kind)
}

/// Whether the template's kind has a built-in interpreter (only then does a template import).
fn interpreted(s: &Scenario) -> bool {
    SUPPORTED.contains(&identity(s))
}

fn toleration(t: &Toleration) -> PodToleration {
    PodToleration {
        key: t.key.to_string(),
        operator: Some(t.operator),
        value: t.value.to_string(),
        effect: t.effect.map(|e| e.as_str().into()),
        toleration_seconds: None,
    }
}

fn template(s: &Scenario) -> Object {
    let (api_version, kind) = identity(s);
    let mut o = object(api_version, kind, meta(TEMPLATE_NAME, NAMESPACE));
    o.metadata.uid = s.uid.as_str().into();
    let claim = s.workload.node_claim.as_ref();
    let pod = PodSpec {
        node_selector: claim.map(|c| c.node_selector.clone()),
        tolerations: claim
            .map(|c| c.tolerations.iter().map(toleration).collect())
            .unwrap_or_default(),
        affinity: claim
            .and_then(|c| c.hard_node_affinity.clone())
            .map(|required| Affinity {
                node_affinity: Some(NodeAffinity {
                    required: Some(required),
                }),
            }),
        containers: vec![Container {
            name: "main".into(),
            resources: ResourceRequirements {
                requests: s.workload.requests.clone().unwrap_or_default(),
                limits: ResourceList::new(),
            },
        }],
        init_containers: Vec::new(),
        overhead: None,
    };
    let replicas = s.workload.replicas.unwrap_or(0);
    match kind {
        "Pod" => o.spec.set_pod(pod),
        "Job" => {
            o.spec.parallelism = Some(replicas);
            o.spec.completions = Some(replicas);
            o.spec.template = Some(PodTemplateSpec { spec: pod });
        }
        _ => {
            o.spec.replicas = Some(replicas);
            o.spec.template = Some(PodTemplateSpec { spec: pod });
        }
    }
    o
}

fn term(name: &str, a: &ClusterAffinity, overflow: &[NamedAffinity]) -> ObjectTerm {
    ObjectTerm {
        affinity_name: name.into(),
        overflow_affinities: overflow
            .iter()
            .map(|n| term(&n.affinity_name, &n.affinity, &[]))
            .collect(),
        cluster_names: a.cluster_names.clone(),
        exclude: a.exclude.clone(),
        label_selector: a.label_selector.clone(),
        field_selector: a.field_selector.clone(),
    }
}

/// Static weight rules: the policy's list, else each weighted cluster's own rule.
fn static_weights(s: &Scenario) -> Vec<StaticWeightRule> {
    if let Some(list) = &s.policy.static_weights {
        return list.clone();
    }
    let clusters = s.clusters.iter().flatten();
    clusters
        .filter_map(|t| t.weight.map(|w| StaticWeightRule::for_cluster(&t.name, w)))
        .collect()
}

fn replica_scheduling(s: &Scenario) -> ReplicaScheduling {
    let divided = |preference: &str, weights: Option<WeightPreference>| ReplicaScheduling {
        replica_scheduling_type: Some("Divided".into()),
        replica_division_preference: Some(preference.into()),
        weight_preference: weights,
    };
    match s.policy.strategy.as_deref() {
        Some("duplicated") => ReplicaScheduling {
            replica_scheduling_type: Some("Duplicated".into()),
            ..ReplicaScheduling::default()
        },
        Some("aggregated") => divided("Aggregated", None),
        Some("dynamicWeight") => divided(
            "Weighted",
            Some(WeightPreference {
                static_weight_list: Vec::new(),
                dynamic_weight: "AvailableReplicas".into(),
            }),
        ),
        _ => {
            let list = static_weights(s);
            let weights = (!list.is_empty()).then_some(WeightPreference {
                static_weight_list: list,
                dynamic_weight: String::new(),
            });
            divided("Weighted", weights)
        }
    }
}

fn policy(s: &Scenario) -> Object {
    let (api_version, kind) = identity(s);
    let p = &s.policy;
    let mut o = object(
        "policy.karmada.io/v1alpha1",
        "PropagationPolicy",
        meta(POLICY_NAME, NAMESPACE),
    );
    o.spec.resource_selectors = vec![ResourceSelector {
        api_version: api_version.into(),
        kind: kind.into(),
        name: TEMPLATE_NAME.into(),
        ..ResourceSelector::default()
    }];
    o.spec.placement = Placement {
        cluster_affinity: p.cluster_affinity.clone(),
        cluster_affinities: p.cluster_affinities.as_ref().map(|terms| {
            terms
                .iter()
                .map(|t| term(&t.affinity_name, &t.affinity, &t.overflow_affinities))
                .collect()
        }),
        cluster_tolerations: p.cluster_tolerations.iter().map(toleration).collect(),
        spread_constraints: p.spread_constraints.clone(),
        replica_scheduling: Some(replica_scheduling(s)),
        workload_affinity: None,
    };
    o
}

/// The exported template, as a binding refers to it.
pub fn reference(s: &Scenario) -> ObjectReference {
    let (api_version, kind) = identity(s);
    ObjectReference {
        api_version: api_version.into(),
        kind: kind.into(),
        namespace: NAMESPACE.into(),
        name: TEMPLATE_NAME.into(),
        uid: s.uid.clone(),
    }
}

/// The ResourceBinding of the template `resource` with `clusters` as its `spec.clusters` and
/// `observed` as the observed affinity term: the binding state a scenario describes, or (with
/// a schedule's result) the binding Karmada would write (docs/rules/karmada.md §16.4). Karmada
/// names a binding after its template and kind.
pub fn binding(
    s: &Scenario,
    resource: ObjectReference,
    clusters: Vec<TargetCluster>,
    observed: &str,
) -> Object {
    let name = format!("{}-{}", resource.name, resource.kind.to_ascii_lowercase());
    let namespace = resource.namespace.clone();
    let mut o = object(
        "work.karmada.io/v1alpha2",
        "ResourceBinding",
        meta(&name, &namespace),
    );
    o.spec.resource = resource;
    o.spec.replicas = s.workload.replicas;
    o.spec.clusters = clusters;
    o.spec.graceful_eviction_tasks = s
        .graceful_evictions
        .iter()
        .map(|c| EvictionTask {
            from_cluster: c.clone(),
            ..EvictionTask::default()
        })
        .collect();
    if s.policy.fresh {
        o.spec.reschedule_triggered_at = Some(LATER.into());
        o.status.last_scheduled_time = Some(TIME.into());
    }
    o.status.scheduler_observing_affinity_name = observed.into();
    o
}

fn node(n: &Node) -> Object {
    let mut o = object("v1", "Node", meta(&n.name, ""));
    o.metadata.labels = n.labels.clone();
    o.spec.taints = taints(&n.taints);
    o.spec.unschedulable = n.unschedulable;
    o.status.allocatable = Some(n.allocatable.clone());
    o
}

fn pod(p: &Pod) -> Object {
    let mut o = object("v1", "Pod", meta(&p.name, NAMESPACE));
    let container = |requests: &ResourceList| Container {
        name: String::new(),
        resources: ResourceRequirements {
            requests: requests.clone(),
            limits: ResourceList::new(),
        },
    };
    let own = (!p.requests.is_empty()).then_some(&p.requests);
    o.spec.containers = own
        .into_iter()
        .chain(p.containers.iter().map(|c| &c.requests))
        .map(container)
        .collect();
    o.spec.init_containers = p
        .init_containers
        .iter()
        .map(|c| container(&c.requests))
        .collect();
    o.spec.overhead = (!p.overhead.is_empty()).then(|| p.overhead.clone());
    o.spec.node_name = p.node_name.clone();
    let phase = match p.phase {
        PodPhase::Pending => "Pending",
        PodPhase::Running => "Running",
        PodPhase::Succeeded => "Succeeded",
        PodPhase::Failed => "Failed",
        PodPhase::Unknown => "Unknown",
    };
    o.status.phase = Some(phase.into());
    o
}

/// The scenario fields set that no object holds.
fn unexpressed(s: &Scenario) -> Vec<Entry> {
    let p: &Policy = &s.policy;
    let d = Policy::default();
    let w = &s.workload;
    let mut out = Vec::new();
    let mut note = |set: bool, field: &str, why: &str| {
        if set {
            out.push(Entry {
                object: "scenario".into(),
                field: field.into(),
                into: why.into(),
            });
        }
    };
    let what_if = "an allot what-if: Karmada has no such setting";
    let claims = w.requests.is_some() || w.node_claim.is_some();
    note(
        !interpreted(s) && claims,
        "workload.requests, workload.nodeClaim",
        "a template of a kind without a built-in interpreter: only the binding stands for it",
    );
    note(
        p.method.is_some_and(|m| m != s.karmada.division_method()),
        "policy.method",
        what_if,
    );
    // The estimators the import states for a Cluster without a summary, when the decision
    // reads the estimates (docs/rules/karmada.md §16.2): the objects carry those.
    let nodes = s.clusters.iter().flatten().any(|t| t.nodes.is_some());
    let unsummarised = super::objects::reads_estimates(p)
        && s.clusters
            .iter()
            .flatten()
            .any(|t| t.resource_summary.is_none() && t.resource_models.is_empty());
    let implied = [Estimator::General, Estimator::Accurate];
    let implied = &implied[..if nodes { 2 } else { 1 }];
    note(
        p.estimators
            .as_deref()
            .is_some_and(|e| !unsummarised || e != implied),
        "policy.estimators",
        "the scheduler's estimator flags",
    );
    note(
        p.estimators.is_none() && unsummarised,
        "clusters[].resourceSummary",
        "absent: nobody estimates such a cluster in the scenario, while Karmada's general \
         estimator answers 0 for a Cluster without one",
    );
    note(
        p.model_method
            .is_some_and(|m| m != s.karmada.model_method()),
        "policy.modelMethod",
        what_if,
    );
    note(
        p.gates != d.gates,
        "policy.gates",
        "the scheduler's --feature-gates",
    );
    note(
        p.plugins.is_some(),
        "policy.plugins",
        "the scheduler's --plugins",
    );
    note(p.overflow, "policy.overflow", what_if);
    note(
        !s.karmada.is_newest(),
        "karmada",
        "the release the objects are for: Karmada's objects do not say it",
    );
    note(
        s.seed.is_some(),
        "seed",
        "Karmada's random draws are not seeded",
    );
    note(
        !s.title.is_empty() || !s.description.is_empty(),
        "title, description",
        "notes for people",
    );
    note(
        !w.components.is_empty(),
        "workload.components",
        "needs a resource interpreter customization",
    );
    note(
        w.priority_class.is_some(),
        "workload.priorityClass",
        "read from the member's PriorityClass",
    );
    let weighted = !matches!(
        p.strategy.as_deref(),
        Some("duplicated" | "aggregated" | "dynamicWeight")
    );
    note(
        p.static_weights.is_some() && !weighted,
        "policy.staticWeights",
        "only the staticWeight strategy divides by them",
    );
    let eru = "eru's: a Karmada scenario does not read it";
    note(w.count.is_some(), "workload.count", eru);
    note(!w.limits.is_empty(), "workload.limits", eru);
    note(w.cpu_bind, "workload.cpuBind", eru);
    note(!w.volumes.is_empty(), "workload.volumes", eru);
    note(!w.gpus.is_empty(), "workload.gpus", eru);
    note(p.nodes_limit != d.nodes_limit, "policy.nodesLimit", eru);
    note(p.cpumem != d.cpumem, "policy.cpumem", eru);
    note(p.max_deploy_count.is_some(), "policy.maxDeployCount", eru);
    for t in s.clusters.iter().flatten() {
        let at = |f: &str| format!("clusters[{}].{f}", t.name);
        note(
            t.available_replicas.is_some(),
            &at("availableReplicas"),
            "an estimator's answer, not an object field",
        );
        note(t.overflow_order != 0, &at("overflowOrder"), what_if);
        note(
            !t.resource_quotas.is_empty(),
            &at("resourceQuotas"),
            "ResourceQuotas are not exported",
        );
        note(
            !t.assumed.is_empty(),
            &at("assumed"),
            "the estimator's in-memory state",
        );
    }
    out
}
