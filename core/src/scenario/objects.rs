//! Kubernetes and Karmada objects to a scenario (docs/rules/karmada.md §16.2): the objects'
//! readers ([`crate::kubernetes`]) give Karmada's own types (members, the workload, the
//! binding's record, the placement's rules) and this adapter writes them into a scenario:
//! Clusters become its clusters, the resource template its workload, the policy that selects
//! the template its policy, a ResourceBinding the binding state (previous result, observed
//! term, evictions, reschedule). The report says which object and field fed which scenario
//! field, which defaults were applied and what was ignored, and why.

use compact_str::format_compact;
use serde::Serialize;

use super::{Policy, Scenario, Workload, FORMAT_VERSION};
use crate::error::Result;
use crate::karmada::binding::Estimator;
use crate::karmada::fleet::{Rules, Workload as Asked};
use crate::kubernetes::import::{entry, one, pick, sort, Choice, Entry, ImportReport};
use crate::kubernetes::karmada::ObjectReference;
use crate::kubernetes::objects::Object;
use crate::kubernetes::placement;
use crate::kubernetes::policy::Template;
use crate::kubernetes::workloads;

/// A scenario made from objects, and how.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Imported {
    #[cfg_attr(feature = "schema", schemars(schema_with = "scenario_schema"))]
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
        let rules = placement::policy(p, i, choice.version, &mut r)?;
        policy(
            &mut s.policy,
            &rules,
            p.spec.placement.cluster_affinities.is_some(),
        );
    }
    s.policy.gates = choice.gates;
    // A gate the release lacks turned on is refused as Karmada refuses it at start.
    s.policy
        .gates
        .resolve(choice.version)
        .map_err(|e| e.within(&crate::error::Path::fields("policy.gates")))?;
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

/// Read one template (its workload) and its binding (the binding's state) into `s`; the
/// policy is read once chosen.
fn read_template(
    s: &mut Scenario,
    template: Option<(usize, &Object)>,
    binding: Option<(usize, &Object)>,
    r: &mut ImportReport,
) -> Result<()> {
    if let Some((i, t)) = template {
        let read = workloads::template(t, i, r)?;
        s.workload = workload(read.workload);
        s.uid = read.uid;
    }
    if let Some((_, b)) = binding {
        let recorded = workloads::binding(b, r);
        s.previous = recorded.previous;
        s.observed_affinity = recorded.observed_affinity;
        s.graceful_evictions = recorded.graceful_evictions;
        s.policy.fresh = recorded.fresh;
        if template.is_none() {
            let read = workloads::resource(b, r);
            s.workload = workload(read.workload);
            s.uid = read.uid;
        }
    }
    Ok(())
}

/// The scenario's workload of what a template or a binding asks for.
fn workload(w: Asked) -> Workload {
    Workload {
        replicas: Some(w.replicas),
        requests: w.requests,
        node_claim: w.node_claim,
        components: w.components,
        priority_class: w.priority_class,
        api_version: w.api_version,
        kind: w.kind,
        ..Workload::default()
    }
}

/// A placement's rules into the scenario's policy (`terms`: whether the placement states
/// `clusterAffinities`, even empty).
fn policy(to: &mut Policy, rules: &Rules, terms: bool) {
    let p = rules.placement();
    to.strategy = Some(rules.strategy().name().into());
    to.static_weights = rules.static_weights().map(<[_]>::to_vec);
    to.cluster_affinity = p.cluster_affinity.clone();
    to.cluster_affinities = terms.then(|| p.cluster_affinities.clone());
    to.cluster_tolerations = p.cluster_tolerations.clone();
    to.spread_constraints = p.spread_constraints.clone();
}

/// A scenario made of objects: the schema's root (a scenario as it is read).
#[cfg(feature = "schema")]
pub(super) fn scenario_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"$ref": "#"})
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
