//! From a dump of objects (`kubectl get
//! clusters,clustertaintpolicies,pp,cpp,rb,crb,pc,deploy,sts,job -A -o yaml`) to a [`Fleet`] (docs/rules/fleet.md §20.3): the Clusters read once, then each resource template
//! with the policy Karmada's detector gives it (§16.6) and its binding, through the same
//! readers as the single-binding import. A template that cannot be read, a binding naming a
//! cluster the dump lacks, a policy that selects nothing: each is a report line at the object
//! and field, never an error of the whole dump.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::clusters;
use super::import::{self, Choice, ImportReport};
use super::objects::Object;
use super::pairing;
use super::placement;
use super::policy::{choose, Chosen, Decided, Template};
use super::time::seconds;
use super::workloads;
use crate::error::{indexed, Error, ErrorCode, Path, Result};
use crate::karmada::binding::Estimator;
use crate::karmada::filter::workload_affinity::Groups;
use crate::karmada::fleet::entry::{Condition, State};
use crate::karmada::fleet::{BindingKind, Entry, Fleet, Id, Rules, Settings};
use crate::names::NameIndex;

/// A fleet read from objects, and how.
#[derive(Debug, Clone)]
pub struct Read {
    pub fleet: Fleet,
    pub report: FleetReport,
}

/// What reading the dump found: the Clusters' report lines, and every object that did not
/// become (or fully become) a binding of the fleet, with why.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FleetReport {
    /// The Clusters as read (and the kinds allot does not read, kept and named).
    pub clusters: ImportReport,
    /// What the dump holds that Karmada would act on differently than it looks (a policy
    /// that selects nothing, a template no policy propagates, a binding naming a cluster the
    /// dump lacks), each said once.
    pub problems: Vec<Problem>,
    /// What allot does not read: an object of a kind it does not know (a typo such as
    /// `Deploymnet`, or a kind beside the fleet's), a field of a policy's placement that
    /// Karmada's API does not have (`staticWeightLis`); each said once, as the API server's
    /// field validation warns.
    pub warnings: Vec<Problem>,
}

/// An object, a field of it, and what is wrong or assumed there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// `Deployment default/web`.
    pub object: String,
    pub field: String,
    pub message: String,
}

impl Problem {
    pub(crate) fn at(o: &Object, field: &str, message: impl Into<String>) -> Problem {
        let name = if o.metadata.namespace.is_empty() {
            o.metadata.name.clone()
        } else {
            format!("{}/{}", o.metadata.namespace, o.metadata.name)
        };
        Problem {
            object: format!("{} {name}", o.kind),
            field: field.into(),
            message: message.into(),
        }
    }
}

/// The fleet the objects describe, under `settings` (its release is `choice.version`).
/// Whatever cannot be planned fails the whole read, at its object and field
/// (docs/rules/fleet.md §20.3): no objects at all, no Cluster, an object of a kind allot reads
/// that is not valid (a template, a policy, a binding's recorded placement, a PriorityClass
/// without a value).
pub fn read(objects: &[Object], choice: &Choice<'_>, settings: Settings) -> Result<Read> {
    if objects.is_empty() {
        return Err(Error::Input {
            field: Path::root(),
            code: ErrorCode::Missing,
            reason: "no objects: the input is empty (did the command that wrote it fail?); \
                     give a dump of the control plane: kubectl get \
                     clusters,pp,cpp,rb,crb,pc,deploy,sts,job -A -o yaml"
                .into(),
        });
    }
    if !objects.iter().any(|o| o.kind == "Cluster") {
        return Err(Error::Input {
            field: Path::root(),
            code: ErrorCode::Missing,
            reason: format!(
                "no Cluster among the {} {}: a fleet is planned over its member clusters; \
                 add them (kubectl get clusters -o yaml, against the Karmada API server)",
                objects.len(),
                crate::plural(objects.len() as u64, "object", "objects"),
            ),
        });
    }
    read_claimed(objects, choice, settings, &Claims::new())
}

/// The warnings of the objects allot does not read or reads in part: one per object of a
/// kind it does not know, one per unknown field of a policy's placement.
pub(super) fn warnings(objects: &[Object]) -> Vec<Problem> {
    let mut out = Vec::new();
    for o in objects {
        if !import::reads_kind(&o.kind) {
            let message = format!(
                "allot does not read kind {:?}: the object is left out of the plan (the kinds \
                 it reads: {})",
                o.kind,
                import::KINDS_READ
            );
            out.push(Problem::at(o, "kind", message));
        }
        for field in &o.unknown_fields {
            let name = field.rsplit('.').next().unwrap_or(field);
            let message = format!(
                "unknown field {name:?}: Karmada's API has no such field, so it is ignored \
                 (check its spelling)"
            );
            out.push(Problem::at(o, field, message));
        }
    }
    out
}

/// Which policy (namespace, name; a ClusterPropagationPolicy's namespace empty) claims each
/// binding: a claimed template stays with its policy while that policy exists and selects it
/// (docs/rules/fleet.md §27.2).
pub type Claims = BTreeMap<Id, (String, String)>;

/// [`read`], each binding in `claims` kept with its claiming policy.
pub fn read_claimed(
    objects: &[Object],
    choice: &Choice<'_>,
    mut settings: Settings,
    claims: &Claims,
) -> Result<Read> {
    let mut report = FleetReport {
        warnings: warnings(objects),
        ..FleetReport::default()
    };
    let sorted = import::sort(objects, choice, &mut report.clusters)?;
    settings.version = choice.version;
    // Karmada's scheduler runs the general estimator on every cluster; the accurate one where
    // a member's nodes are given.
    let mut estimators = alloc::vec![Estimator::General];
    if sorted.clusters.iter().any(|m| m.nodes.is_some()) {
        estimators.push(Estimator::Accurate);
    }
    settings.estimators = Some(estimators);
    let clusters: Vec<_> = sorted
        .clusters
        .iter()
        .zip(objects.iter().filter(|o| o.kind == "Cluster"))
        .map(|(m, o)| (m.clone(), clusters::health(o)))
        .collect();
    let names = NameIndex::new(sorted.clusters.iter().map(|m| m.name.as_str()));
    let pairs = pairing::pairs(&sorted.templates, &sorted.bindings);
    let mut used = alloc::vec![false; sorted.policies.len()];
    let mut rules_of: Vec<PolicyRules> = alloc::vec![None; sorted.policies.len()];
    let mut entries = Vec::with_capacity(pairs.len());
    // The policies that can select a template of each namespace: its PropagationPolicies,
    // then every ClusterPropagationPolicy (a cluster-scoped template: those alone).
    let cluster_wide: Vec<(usize, &Object)> = sorted
        .policies
        .iter()
        .copied()
        .filter(|(_, p)| p.kind == "ClusterPropagationPolicy")
        .collect();
    let mut by_namespace: BTreeMap<&str, Vec<(usize, &Object)>> = BTreeMap::new();
    for &(i, p) in &sorted.policies {
        if p.kind == "PropagationPolicy" {
            by_namespace
                .entry(p.metadata.namespace.as_str())
                .or_insert_with(|| cluster_wide.clone())
                .insert(0, (i, p));
        }
    }
    let classes = priority_classes(&sorted.priority_classes, &mut report)?;
    let taint_policies: Vec<&Object> = sorted.taint_policies.iter().map(|&(_, o)| o).collect();
    settings.taint_policies =
        super::taint_policy::read(&taint_policies, choice.version, &mut report.problems);
    let ctx = Context {
        by_namespace,
        cluster_wide,
        policies: &sorted.policies,
        clusters: &names,
        choice,
        claims,
        classes: &classes,
        by_priority: settings.by_priority(),
    };
    for (template, binding) in pairs {
        entries.extend(entry(
            template,
            binding,
            &ctx,
            &mut used,
            &mut rules_of,
            &mut report.problems,
        )?);
    }
    for (k, &(_, p)) in sorted.policies.iter().enumerate() {
        super::failover::cluster(p, choice.version, &mut report.problems);
        if !used.get(k).copied().unwrap_or(true) {
            let message = "selects no template of the dump (or loses every one to another \
                           policy): it places nothing";
            report
                .problems
                .push(Problem::at(p, "spec.resourceSelectors", message));
        }
    }
    let fleet = Fleet::new(clusters, entries, settings)?;
    Ok(Read { fleet, report })
}

/// Each PriorityClass's `value` by name; one without a value (the API server requires it) is
/// an error at it.
fn priority_classes<'o>(
    objects: &[(usize, &'o Object)],
    report: &mut FleetReport,
) -> Result<BTreeMap<&'o str, i32>> {
    let mut classes = BTreeMap::new();
    for &(i, c) in objects {
        match c.value {
            Some(value) => {
                classes.insert(c.metadata.name.as_str(), value);
                let into = "the priority of the bindings created under a policy naming it";
                report.clusters.used.push(import::entry(c, "value", into));
            }
            None => {
                return Err(Error::Input {
                    field: indexed("objects", i).field("value"),
                    code: ErrorCode::Missing,
                    reason: format!(
                        "PriorityClass {}: value: a PriorityClass needs a value (an integer, \
                         as the API server requires)",
                        c.metadata.name
                    ),
                })
            }
        }
    }
    Ok(classes)
}

/// The priority Karmada's detector gives the binding it creates for a template under
/// `policy` (`BuildResourceBinding`, pkg/detector/detector.go): with gate
/// PriorityBasedScheduling and the policy's `spec.schedulePriority`, the `value` of the
/// PriorityClass it names (`KubePriorityClass`, the one source implemented); 0 otherwise. A
/// missing class, or another source, fails the build: no binding is created (the detector
/// retries the template), which is the problem answered.
fn detector_priority(
    policy: &Object,
    template: &Object,
    ctx: &Context<'_, '_>,
) -> core::result::Result<i32, Problem> {
    let Some(p) = policy
        .spec
        .schedule_priority
        .as_ref()
        .filter(|_| ctx.by_priority)
    else {
        return Ok(0);
    };
    let field = "spec.schedulePriority";
    let lost = format!(
        "so Karmada's detector creates no binding for {} {}/{}",
        template.kind, template.metadata.namespace, template.metadata.name
    );
    match p.priority_class_source.as_str() {
        "KubePriorityClass" => {
            let name = p.priority_class_name.as_str();
            ctx.classes.get(name).copied().ok_or_else(|| {
                let message = format!("names PriorityClass {name:?}, which the dump lacks, {lost}");
                Problem::at(policy, &format!("{field}.priorityClassName"), message)
            })
        }
        source => {
            let why = match source {
                "PodPriorityClass" | "FederatedPriorityClass" => "is not supported yet",
                _ => "is not a source Karmada knows",
            };
            let message = format!("priorityClassSource {source:?} {why}, {lost}");
            Err(Problem::at(
                policy,
                &format!("{field}.priorityClassSource"),
                message,
            ))
        }
    }
}

/// One binding of the fleet from a template and/or its binding, with the policy the detector
/// gives it; `None` (and a problem) when it cannot be read.
/// A policy's rules once read, or the error reading them found (by the policy's position).
type PolicyRules = Option<Result<Rc<Rules>>>;

/// What every binding is read against.
struct Context<'a, 'o> {
    /// Per namespace, the policies that can select its templates.
    by_namespace: BTreeMap<&'o str, Vec<(usize, &'o Object)>>,
    /// The ClusterPropagationPolicies.
    cluster_wide: Vec<(usize, &'o Object)>,
    /// Every policy, in the dump's order.
    policies: &'a [(usize, &'o Object)],
    /// The dump's Clusters, by name.
    clusters: &'a NameIndex<'o>,
    choice: &'a Choice<'a>,
    claims: &'a Claims,
    /// Each PriorityClass's value, by name.
    classes: &'a BTreeMap<&'o str, i32>,
    /// Gate PriorityBasedScheduling (the detector reads `schedulePriority` only with it).
    by_priority: bool,
}

/// Whether policy `p` selects the template `t` (Karmada's detector would consider it).
fn selects(p: (usize, &Object), t: Option<&Template<'_>>) -> bool {
    matches!(choose(&[p], t, None), Chosen::Policy(_, _, why) if why.decided != Decided::OnlyGiven)
}

fn entry<'o>(
    template: Option<(usize, &'o Object)>,
    binding: Option<(usize, &'o Object)>,
    ctx: &Context<'_, 'o>,
    used: &mut [bool],
    rules_of: &mut [PolicyRules],
    problems: &mut Vec<Problem>,
) -> Result<Option<Entry>> {
    let (all, clusters, choice) = (ctx.policies, ctx.clusters, ctx.choice);
    let Some(&(_, main)) = template.as_ref().or(binding.as_ref()) else {
        return Ok(None);
    };
    // What each object says; the report lines are the single-binding import's.
    let mut r = ImportReport::default();
    let read = match (template, binding) {
        (Some((i, t)), _) => workloads::template(t, i, &mut r)?,
        (None, Some((_, b))) => workloads::resource(b, &mut r),
        (None, None) => return Ok(None),
    };
    let record = binding
        .map(|(_, b)| workloads::binding(b, &mut r))
        .unwrap_or_default();
    let target = Template::of(template.map(|t| t.1), binding.map(|b| b.1));
    let identity = target.as_ref().map_or_else(
        || (String::new(), String::new(), String::new()),
        |t| (t.namespace.into(), t.name.into(), t.kind.into()),
    );
    let (namespace, name, kind) = identity;
    let id = Id {
        kind: if namespace.is_empty() {
            BindingKind::ClusterResourceBinding
        } else {
            BindingKind::ResourceBinding
        },
        name: binding.map_or_else(
            || pairing::binding_name(&name, &kind).into(),
            |(_, b)| b.metadata.name.as_str().into(),
        ),
        namespace: namespace.as_str().into(),
    };
    let policies: &[(usize, &Object)] = ctx
        .by_namespace
        .get(id.namespace.as_str())
        .filter(|_| !id.namespace.is_empty())
        .unwrap_or(&ctx.cluster_wide);
    // Claims are sticky: the claiming policy, while it exists and selects the template.
    let sticky = ctx.claims.get(&id).and_then(|(ns, n)| {
        policies
            .iter()
            .copied()
            .find(|(_, p)| p.metadata.namespace == *ns && p.metadata.name == *n)
            .filter(|&p| selects(p, target.as_ref()))
    });
    let policy = match sticky {
        Some((_, p)) => Some(p),
        None => match choose(policies, target.as_ref(), None) {
            Chosen::Policy(_, p, why) if why.decided != Decided::OnlyGiven => Some(p),
            _ => None,
        },
    };
    // Its problems are the policy's, reported once (`read_claimed`).
    let chosen_failover =
        policy.and_then(|p| super::failover::cluster(p, choice.version, &mut Vec::new()));
    let rules = match policy {
        Some(p) => {
            let k = all.iter().position(|&(_, q)| core::ptr::eq(q, p));
            if let Some(u) = k.and_then(|k| used.get_mut(k)) {
                *u = true;
            }
            // A policy's rules are its own: read once, shared by every binding it claims.
            let given = k.and_then(|k| rules_of.get(k)).and_then(Option::clone);
            let got = match given {
                Some(got) => got,
                None => {
                    let at = k.and_then(|k| all.get(k)).map_or(0, |&(i, _)| i);
                    let got = placement::policy(p, at, choice.version, &mut r).map(Rc::new);
                    if let Some(slot) = k.and_then(|k| rules_of.get_mut(k)) {
                        *slot = Some(got.clone());
                    }
                    got
                }
            };
            got?
        }
        None => {
            let message = "no policy selects it: Karmada propagates it nowhere (an existing \
                           binding keeps its clusters and is never scheduled again)";
            problems.push(Problem::at(main, "metadata", message));
            if binding.is_none() {
                return Ok(None);
            }
            Rc::new(Rules::default())
        }
    };
    for c in record.previous.keys() {
        if !clusters.contains(c) {
            if let Some((_, b)) = binding {
                let message = format!("names cluster {c}, which the dump does not have");
                problems.push(Problem::at(b, "spec.clusters", message));
            }
        }
    }
    let times = binding.map(|(_, b)| {
        (
            b.spec.reschedule_triggered_at.as_deref().and_then(seconds),
            b.status.last_scheduled_time.as_deref().and_then(seconds),
        )
    });
    let (triggered, last) = times.unwrap_or_default();
    let scheduled = !record.previous.is_empty() || last.is_some();
    // The placement the scheduler last applied, as it recorded it; without the annotation, a
    // binding scheduled before is taken to have applied its policy's current placement.
    let recorded = match binding {
        Some((i, b)) => placement::applied(b, i, &rules, choice.version)?,
        None => None,
    };
    let applied = match recorded {
        Some(a) => Some(a),
        None => (scheduled && policy.is_some()).then(|| rules.clone()),
    };
    // The detector's groups (gate WorkloadAffinity, §31.1): from the policy's terms and the
    // template's labels; a binding read alone keeps what it carries.
    let groups = match (&id.kind, template, policy) {
        (BindingKind::ClusterResourceBinding, _, _) => None,
        (_, Some((_, t)), Some(_)) => Groups::of_template(
            rules.placement().workload_affinity.as_ref(),
            &t.metadata.labels,
        ),
        _ => binding.and_then(|(_, b)| b.spec.workload_affinity_groups.clone()),
    };
    // A binding's own priority; a template without one gets the detector's.
    let priority = match (binding, template, policy) {
        (Some((_, b)), _, _) => b
            .spec
            .schedule_priority
            .as_ref()
            .and_then(|p| p.priority)
            .unwrap_or(0),
        (None, Some((_, t)), Some(p)) => match detector_priority(p, t, ctx) {
            Ok(priority) => priority,
            Err(problem) => {
                problems.push(problem);
                return Ok(None);
            }
        },
        _ => 0,
    };
    // Application failover (§32.1): the claiming policy's behaviour as the detector copies it
    // into the binding; a binding read alone keeps what it carries.
    let kind = read.workload.kind.as_deref().unwrap_or_default();
    let failover_from = match (template, policy) {
        (Some(_), Some(p)) => Some(p),
        _ => binding.map(|(_, b)| b),
    };
    let app_failover = failover_from
        .and_then(|o| super::app_failover::application(o, kind, choice.version, problems))
        .map(Rc::new);
    let rules_read = app_failover
        .as_ref()
        .map_or(&[][..], |f| f.state_preservation.as_slice());
    let reported = binding
        .map(|(_, b)| super::app_failover::reported(b, rules_read, problems))
        .unwrap_or_default();
    let mut evictions = binding
        .map(|(_, b)| super::app_failover::tasks(b, choice.version, problems))
        .unwrap_or_default();
    for t in &mut evictions {
        // A task's replicas: its own, else what `spec.clusters` says of the cluster.
        t.replicas = t
            .replicas
            .or_else(|| record.previous.get(&t.from_cluster).copied());
    }
    let state = State {
        applied,
        evictions,
        reported,
        clusters: record.previous,
        // The order the binding lists them in (§23.4).
        order: binding
            .map(|(_, b)| b.spec.clusters.iter().map(|t| t.name.clone()).collect())
            .unwrap_or_default(),
        observed_affinity: record.observed_affinity,
        reschedule_triggered_at: triggered,
        last_scheduled: last,
        condition: if scheduled {
            Condition::Success
        } else {
            Condition::Pending
        },
    };
    Ok(Some(Entry {
        id,
        priority,
        claimed: policy.is_some(),
        policy: policy.map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())),
        rules,
        workload: read.workload,
        state,
        uid: read.uid,
        groups,
        failover: chosen_failover,
        app_failover,
    }))
}

pub use super::placement::APPLIED_PLACEMENT;

#[cfg(test)]
pub(crate) mod dump {
    use super::*;
    use crate::karmada::fleet::events::Event;
    use crate::karmada::fleet::plan::{plan, Outcome};
    use crate::karmada::gates::Gate;
    use crate::kubernetes::objects::Objects;

    pub(crate) const DUMP: &str = r#"{"apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
       "metadata": {"name": "member1"},
       "status": {"conditions": [{"type": "Ready", "status": "True"}],
                  "apiEnablements": [{"groupVersion": "apps/v1",
                                      "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                  "resourceSummary": {"allocatable": {"cpu": "8", "pods": "110"}}}},
      {"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
       "metadata": {"name": "member2"},
       "status": {"conditions": [{"type": "Ready", "status": "True"}],
                  "apiEnablements": [{"groupVersion": "apps/v1",
                                      "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                  "resourceSummary": {"allocatable": {"cpu": "8", "pods": "110"}}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "web", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}],
                "placement": {"replicaScheduling": {"replicaSchedulingType": "Divided",
                   "replicaDivisionPreference": "Weighted",
                   "weightPreference": {"dynamicWeight": "AvailableReplicas"}}}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "nothing", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "gone"}],
                "placement": {}}},
      {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "web", "namespace": "shop", "uid": "u1"},
       "spec": {"replicas": 4, "template": {"spec": {"containers": [
          {"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}},
      {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "orphan", "namespace": "shop"},
       "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "c"}]}}}},
      {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
       "metadata": {"name": "web-deployment", "namespace": "shop"},
       "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop", "name": "web"},
                "replicas": 4,
                "clusters": [{"name": "member1", "replicas": 2}, {"name": "member9", "replicas": 2}]},
       "status": {"lastScheduledTime": "2024-05-01T12:00:00Z"}},
      {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "shop"}}
    ]}"#;

    fn read_dump() -> Read {
        let objects: Objects = serde_json::from_str(DUMP).unwrap();
        read(&objects.0, &Choice::default(), Settings::default()).unwrap()
    }

    // Clusters are read once; each template gets the detector's policy and its binding; what
    // does not fit is reported at its object and field.
    #[test]
    fn a_dump_becomes_a_fleet_with_its_problems_named() {
        let r = read_dump();
        assert_eq!(r.fleet.members().len(), 2);
        assert_eq!(r.fleet.entries.len(), 1);
        let web = &r.fleet.entries[0];
        assert_eq!(web.id.name, "web-deployment");
        assert_eq!(web.id.namespace, "shop");
        assert_eq!(
            web.rules.strategy(),
            crate::karmada::Strategy::DynamicWeight
        );
        assert_eq!(web.state.last_scheduled, Some(1_714_564_800));
        let problems: Vec<(&str, &str)> = r
            .report
            .problems
            .iter()
            .map(|p| (p.object.as_str(), p.field.as_str()))
            .collect();
        assert!(problems.contains(&("Deployment shop/orphan", "metadata")));
        assert!(problems.contains(&("ResourceBinding shop/web-deployment", "spec.clusters")));
        assert!(problems.contains(&("PropagationPolicy shop/nothing", "spec.resourceSelectors")));
        assert!(r
            .report
            .clusters
            .ignored
            .iter()
            .any(|e| e.object.contains("ConfigMap")));
    }

    // A policy is read once for every template it claims: its bindings share its rules, and a
    // policy that cannot be read is a problem for each of them, as when read one by one.
    #[test]
    fn a_policy_is_read_once_for_every_template_it_claims() {
        let dump = |effect: &str| {
            let deployment = |name: &str| {
                format!(
                    r#"{{"apiVersion": "apps/v1", "kind": "Deployment",
                        "metadata": {{"name": "{name}", "namespace": "shop"}},
                        "spec": {{"replicas": 2}}}}"#
                )
            };
            format!(
                r#"{{"apiVersion": "v1", "kind": "List", "items": [
                  {{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
                    "metadata": {{"name": "member1"}}}},
                  {{"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
                    "metadata": {{"name": "all", "namespace": "shop"}},
                    "spec": {{"resourceSelectors": [{{"apiVersion": "apps/v1", "kind": "Deployment"}}],
                             "placement": {{"clusterTolerations": [
                               {{"key": "k", "operator": "Exists", "effect": "{effect}"}}]}}}}}},
                  {}, {}]}}"#,
                deployment("a"),
                deployment("b")
            )
        };
        let read_text = |text: &str| {
            let objects: Objects = serde_json::from_str(text).unwrap();
            read(&objects.0, &Choice::default(), Settings::default()).unwrap()
        };
        let good = read_text(&dump("NoSchedule"));
        assert_eq!(good.fleet.entries.len(), 2);
        let (a, b) = (&good.fleet.entries[0], &good.fleet.entries[1]);
        assert!(alloc::rc::Rc::ptr_eq(&a.rules, &b.rules));
        assert_eq!(a.rules.placement().cluster_tolerations.len(), 1);
        // A policy that cannot be read fails the read once, at its field, whatever number
        // of templates it claims: the plan would be of a fleet without them.
        let objects: Objects = serde_json::from_str(&dump("Sometimes")).unwrap();
        let err = read(&objects.0, &Choice::default(), Settings::default()).unwrap_err();
        let at = "objects[1].spec.placement.clusterTolerations[0].effect";
        assert_eq!(err.field().text(), at);
        let message = alloc::format!("{err}");
        assert_eq!(message.matches("PropagationPolicy").count(), 1, "{message}");
    }

    // Nothing to plan is an error, not an empty plan: no objects at all (a failed `kubectl get`
    // piped in), or objects without a Cluster.
    #[test]
    fn no_objects_or_no_cluster_is_an_error() {
        let none = read(&[], &Choice::default(), Settings::default()).unwrap_err();
        assert_eq!(none.code(), crate::error::ErrorCode::Missing);
        assert!(alloc::format!("{none}").contains("no objects"), "{none}");
        let objects: Objects = serde_json::from_str(DUMP).unwrap();
        let without: Vec<Object> = objects
            .0
            .into_iter()
            .filter(|o| o.kind != "Cluster")
            .collect();
        let err = read(&without, &Choice::default(), Settings::default()).unwrap_err();
        assert_eq!(err.code(), crate::error::ErrorCode::Missing);
        assert!(alloc::format!("{err}").contains("no Cluster"), "{err}");
    }

    // What allot does not read is a warning each, at its object: a kind it does not know, a
    // field of a policy's placement Karmada's API lacks; the plan goes on.
    #[test]
    fn unknown_kinds_and_placement_fields_are_warned_once_each() {
        let text = DUMP.replace("\"weightPreference\"", "\"weightPreferenc\"");
        let objects = crate::kubernetes::objects::read_json(&text).unwrap();
        let r = read(&objects, &Choice::default(), Settings::default()).unwrap();
        let warned: Vec<(&str, &str)> = r
            .report
            .warnings
            .iter()
            .map(|w| (w.object.as_str(), w.field.as_str()))
            .collect();
        assert_eq!(
            warned,
            [
                (
                    "PropagationPolicy shop/web",
                    "spec.placement.replicaScheduling.weightPreferenc"
                ),
                ("ConfigMap shop/x", "kind")
            ]
        );
        assert!(r.report.warnings[0].message.contains("unknown field"));
    }

    // Deleting member1 reschedules web (a target being deleted): its replicas go to member2;
    // member9, which the dump lacks, is no candidate.
    #[test]
    fn a_dumped_fleet_plans_a_cluster_deletion() {
        let r = read_dump();
        let (p, _) = plan(
            &r.fleet,
            alloc::vec![Event::Leave {
                cluster: "member1".into()
            }],
        )
        .unwrap();
        let web = &p.bindings[0];
        assert!(matches!(web.outcome, Outcome::Changed { .. }), "{web:?}");
        assert_eq!(web.after.get("member1"), None);
        assert_eq!(web.after.values().sum::<i64>(), 4);
    }

    /// Two templates without bindings, each under a policy whose `schedulePriority` names a
    /// PriorityClass: `high`, in the dump, and `missing`, not.
    const PRIORITIES: &str = r#"{"apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
       "metadata": {"name": "member1"},
       "status": {"conditions": [{"type": "Ready", "status": "True"}],
                  "resourceSummary": {"allocatable": {"cpu": "8", "pods": "110"}}}},
      {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
       "metadata": {"name": "high"}, "value": 1000, "globalDefault": false},
      {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
       "metadata": {"name": "default"}, "value": 5, "globalDefault": true},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "web", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                "schedulePriority": {"priorityClassSource": "KubePriorityClass",
                                     "priorityClassName": "high"},
                "placement": {}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "ops", "namespace": "ops"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                "schedulePriority": {"priorityClassSource": "KubePriorityClass",
                                     "priorityClassName": "missing"},
                "placement": {}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "plain", "namespace": "misc"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                "placement": {}}},
      {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "web", "namespace": "shop"}, "spec": {"replicas": 1}},
      {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "job", "namespace": "ops"}, "spec": {"replicas": 1}},
      {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "misc", "namespace": "misc"}, "spec": {"replicas": 1}}
    ]}"#;

    fn read_priorities(gate: bool) -> Read {
        let objects: Objects = serde_json::from_str(PRIORITIES).unwrap();
        let settings = Settings::default().with(Gate::PriorityBasedScheduling, gate);
        read(&objects.0, &Choice::default(), settings).unwrap()
    }

    // BuildResourceBinding (pkg/detector/detector.go): with gate PriorityBasedScheduling, a
    // policy's KubePriorityClass gives the new binding the class's value; a class the dump
    // lacks fails the build (GetPriorityClassByName's error), so no binding is created; a
    // policy without schedulePriority gives none, whatever class is the global default.
    #[test]
    fn the_detector_reads_a_policys_priority_class() {
        let r = read_priorities(true);
        assert_eq!(entry_named(&r, "web-deployment").priority, 1000);
        assert_eq!(entry_named(&r, "misc-deployment").priority, 0);
        assert!(r
            .fleet
            .entries
            .iter()
            .all(|e| e.id.name != "job-deployment"));
        let lost = r
            .report
            .problems
            .iter()
            .find(|p| p.object == "PropagationPolicy ops/ops")
            .unwrap();
        assert_eq!(lost.field, "spec.schedulePriority.priorityClassName");
        assert!(lost.message.contains("Deployment ops/job"), "{lost:?}");
        let used = &r.report.clusters.used;
        assert!(
            used.iter().any(|u| u.object == "PriorityClass high"),
            "{used:?}"
        );
        assert!(r
            .report
            .clusters
            .ignored
            .iter()
            .all(|u| !u.object.starts_with("PriorityClass")));
        // Without the gate the detector leaves schedulePriority alone: every binding is
        // created, with priority 0.
        let r = read_priorities(false);
        assert!(r.fleet.entries.iter().all(|e| e.priority == 0));
        assert_eq!(r.fleet.entries.len(), 3);
    }

    /// Two Deployments of one affinity group under a policy with `workloadAffinity`, one
    /// already placed on member2 (with its priority, its recorded placement and a timed taint
    /// on member1).
    const GROUPED: &str = r#"{"apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
       "metadata": {"name": "member1"},
       "spec": {"taints": [{"key": "maintenance", "effect": "NoExecute",
                            "timeAdded": "2024-05-01T12:00:00Z"},
                           {"key": "edited", "effect": "NoSchedule"}]},
       "status": {"conditions": [{"type": "Ready", "status": "True"}],
                  "apiEnablements": [{"groupVersion": "apps/v1",
                                      "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                  "resourceSummary": {"allocatable": {"cpu": "100", "pods": "110"}}}},
      {"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
       "metadata": {"name": "member2"},
       "status": {"conditions": [{"type": "Ready", "status": "True"}],
                  "apiEnablements": [{"groupVersion": "apps/v1",
                                      "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                  "resourceSummary": {"allocatable": {"cpu": "8", "pods": "110"}}}},
      {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
       "metadata": {"name": "shop", "namespace": "shop"},
       "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment"}],
                "placement": {"clusterTolerations": [{"key": "maintenance", "operator": "Exists",
                                                      "effect": "NoExecute", "tolerationSeconds": 60},
                                                     {"key": "edited", "operator": "Exists"}],
                              "workloadAffinity": {"affinity": {"groupByLabelKey": "app.group"}},
                              "replicaScheduling": {"replicaSchedulingType": "Divided",
                                 "replicaDivisionPreference": "Aggregated"}}}},
      {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "api", "namespace": "shop", "labels": {"app.group": "front"}},
       "spec": {"replicas": 2, "template": {"spec": {"containers": [
          {"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}},
      {"apiVersion": "apps/v1", "kind": "Deployment",
       "metadata": {"name": "web", "namespace": "shop", "labels": {"app.group": "front"}},
       "spec": {"replicas": 2, "template": {"spec": {"containers": [
          {"name": "c", "resources": {"requests": {"cpu": "1"}}}]}}}},
      {"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
       "metadata": {"name": "web-deployment", "namespace": "shop",
                    "annotations": {"policy.karmada.io/applied-placement":
                      "{\"replicaScheduling\":{\"replicaSchedulingType\":\"Divided\",\"replicaDivisionPreference\":\"Aggregated\"}}"}},
       "spec": {"resource": {"apiVersion": "apps/v1", "kind": "Deployment", "namespace": "shop", "name": "web"},
                "replicas": 2, "schedulePriority": {"priority": 7},
                "workloadAffinityGroups": {"affinityGroup": "stale=value"},
                "clusters": [{"name": "member2", "replicas": 2}]},
       "status": {"lastScheduledTime": "2024-05-01T12:00:00Z"}}
    ]}"#;

    fn read_grouped(gate: bool) -> Read {
        let objects: Objects = serde_json::from_str(GROUPED).unwrap();
        let settings = Settings::default().with(Gate::WorkloadAffinity, gate);
        read(&objects.0, &Choice::default(), settings).unwrap()
    }

    fn entry_named<'a>(r: &'a Read, name: &str) -> &'a Entry {
        r.fleet.entries.iter().find(|e| e.id.name == name).unwrap()
    }

    // What the dump says beyond the placement: `spec.schedulePriority.priority` (the queue's
    // order), each taint's `timeAdded` (the taint manager's clock), the applied-placement
    // annotation the scheduler writes (`patchScheduleResultForResourceBinding`), and the
    // detector's groups (`getWorkloadAffinityGroups`) from the policy and template labels.
    #[test]
    fn a_dump_says_priority_taint_times_the_applied_placement_and_groups() {
        let r = read_grouped(true);
        let web = entry_named(&r, "web-deployment");
        assert_eq!(web.priority, 7);
        let applied = web.state.applied.as_ref().unwrap();
        assert!(applied.placement().cluster_tolerations.is_empty());
        assert_ne!(
            **applied, *web.rules,
            "the recorded placement, not today's policy's"
        );
        let expected = crate::karmada::filter::workload_affinity::Groups {
            affinity_group: "app.group=front".into(),
            anti_affinity_group: String::new(),
        };
        assert_eq!(web.groups.as_ref(), Some(&expected));
        let added = &r.fleet.health()[0].added;
        assert_eq!(added.len(), 1, "only the taint with a timeAdded");
        assert_eq!(added[0].at, 1_714_564_800);
        assert_eq!(added[0].key.as_str(), "maintenance");
    }

    // The drift over that dump: web's placement changed since it was recorded, so it is
    // scheduled (Steady: Divided keeps member2); api, new, goes where web is (member2), not to
    // member1 with more room (WorkloadAffinity, §31).
    #[test]
    fn a_dumped_group_is_placed_together() {
        let r = read_grouped(true);
        let (p, _) = plan(&r.fleet, alloc::vec![Event::Restart]).unwrap();
        for b in &p.bindings {
            assert_eq!(b.after.keys().collect::<Vec<_>>(), ["member2"], "{b:?}");
        }
        let r = read_grouped(false);
        let (p, _) = plan(&r.fleet, alloc::vec![Event::Restart]).unwrap();
        let api = p
            .bindings
            .iter()
            .find(|b| b.id.name == "api-deployment")
            .unwrap();
        assert_eq!(api.after.keys().collect::<Vec<_>>(), ["member1"]);
    }
}
