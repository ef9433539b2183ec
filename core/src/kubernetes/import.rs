//! Objects sorted by the role Karmada gives them, and Clusters to the members Karmada's
//! scheduler reads (docs/rules/karmada.md §16.2, §16.3): each object's API version checked,
//! each Cluster read once (its labels, place, taints, resource models and summary, served
//! APIs; a member's own Nodes and Pods when given), the policy that propagates one template
//! chosen as Karmada's detector chooses it (§16.6). The report says which object and field
//! fed what, which defaults were applied and what was ignored, and why; every problem is
//! said at the object's own field. The other kinds' readers: [`super::workloads`] (templates
//! and bindings), [`super::placement`] (policies).

/// A scenario made of objects, at the path code written before the scenario became one
/// consumer of the object readers still names (it lives in [`crate::scenario::objects`]).
pub use crate::scenario::objects::{import, Imported};

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use compact_str::{format_compact, ToCompactString};

use serde::Serialize;

use super::clusters;
use super::destination::Destination;
use super::interpreter::SUPPORTED;
use super::objects::Object;
use super::policy::{choose, Chosen, Decided, PolicyChoice, Template};
use crate::error::{indexed, Error, ErrorCode, Path, Result};
use crate::karmada::cluster::Member;
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
            "Cluster" => sorted.clusters.push(clusters::cluster(o, i, r)?),
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
        clusters::member_state(t, objects, k, r)?;
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
pub(crate) fn api_version(o: &Object, at: impl FnOnce() -> Path) -> Result<()> {
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
