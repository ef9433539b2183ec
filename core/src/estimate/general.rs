//! The general estimator (docs/rules/karmada.md §6): replicas, or sets of components, a cluster can
//! take by its ResourceSummary (allocatable, allocated, allocating; pod slots), or by its
//! resource models when it has grade counts.
//!
//! Every answer carries the formula per resource, as in the resource-modeling docs:
//! `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::by_model::{replicas_by_models, sets_by_models, ModelEstimate, ModelMethod};
use super::models::{AllocatableModeling, ResourceModel};
pub use super::summary::Summary;
use super::{per, AssumedWorkload, Component, Gates, MAX_INT32};
use crate::quantity::{decimal, human};
use crate::resource::ResourceList;
use crate::Name;

/// A cluster's `status.resourceSummary`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ResourceSummary {
    pub allocatable: ResourceList,
    pub allocated: ResourceList,
    pub allocating: ResourceList,
    /// Nodes per grade of the cluster's resource models.
    pub allocatable_modelings: Vec<AllocatableModeling>,
}

/// What the general estimator looks at for one cluster.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClusterView<'a> {
    /// `None`: the cluster reported no summary (answer 0). Compiled ([`Summary::of`]).
    pub summary: Option<&'a Summary>,
    /// `spec.resourceModels`.
    pub models: &'a [ResourceModel],
    pub gates: Gates,
    pub model_method: ModelMethod,
    /// Assumed (in-flight) workloads, deducted under SchedulingOvercommitProtection.
    pub assumed: &'a [AssumedWorkload],
}

/// One resource's bound: `free / request`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceBound {
    pub resource: String,
    pub allocatable: u64,
    pub allocated: u64,
    pub allocating: u64,
    /// Per replica (or per set).
    pub request: u64,
    pub bound: u64,
    /// `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`.
    pub formula: String,
}

/// What decided the answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Limit {
    /// No ResourceSummary.
    NoSummary,
    /// No free pod slot.
    NoPodSlots,
    /// No per-replica requirements: pod slots only.
    PodSlots,
    /// A resource (the tightest).
    // Names are inline (`cpu`): a decision without a report allocates nothing to say which
    // resource bound each cluster.
    Resource { resource: Name },
    /// The resource models.
    Models,
    /// A requested resource the cluster does not have.
    Missing { resource: Name },
}

/// The general estimator's answer for one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GeneralEstimate {
    /// Replicas (or sets) the cluster can take, at most MaxInt32; negative only where
    /// Karmada's grade formula wraps (docs/rules/versions.md "Resource models").
    pub replicas: i64,
    /// `allocatable.pods − allocated.pods − allocating.pods` (may be negative).
    pub allowed_pods: i128,
    pub limit: Limit,
    /// Per resource, when the summary bound ran.
    pub resources: Vec<ResourceBound>,
    /// When the models ran.
    pub model: Option<ModelEstimate>,
    /// Sentences: `pods: 110 - 11 = 99`, `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`, ...
    pub explanation: Vec<String>,
}

/// How much a call explains: numbers only (no text is built, for many clusters at once), or
/// numbers with formulas and sentences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    Numbers,
    #[default]
    Explained,
}

/// The summary as the estimator reads it: `allocating` includes the assumed workloads when
/// SchedulingOvercommitProtection is on.
#[derive(Clone, Copy)]
struct Amounts<'a> {
    summary: &'a Summary,
    assumed: &'a [AssumedWorkload],
}

impl<'a> Amounts<'a> {
    fn new(view: &ClusterView<'a>, summary: &'a Summary) -> Self {
        let assumed = if view.gates.scheduling_overcommit_protection {
            view.assumed
        } else {
            &[]
        };
        Amounts { summary, assumed }
    }

    /// `(allocatable, allocated, allocating)` of `r`.
    fn of(&self, r: &str) -> (u64, u64, u64) {
        let (a, b, c) = self.summary.amounts(r);
        let c = self
            .assumed
            .iter()
            .flat_map(|a| &a.components)
            .map(|c| {
                let each = if r == "pods" { 1 } else { c.requests.get(r) };
                each.saturating_mul(c.replicas)
            })
            .fold(c, u64::saturating_add);
        (a, b, c)
    }
}

/// Free pod slots: `allocatable − allocated − allocating` pods.
pub fn allowed_pods(summary: &ResourceSummary) -> i128 {
    let (a, b, c) = Amounts {
        summary: &Summary::of(summary),
        assumed: &[],
    }
    .of("pods");
    minus(a, b, c)
}

fn minus(a: u64, b: u64, c: u64) -> i128 {
    i128::from(a) - i128::from(b) - i128::from(c)
}

/// The summary bound over the positive entries of `per_unit` (per replica or per set): the
/// bound, the tightest resource, and with [`Detail::Explained`] one line per resource.
pub fn summary_bound(
    summary: &ResourceSummary,
    per_unit: &ResourceList,
) -> (u64, Option<Limit>, Vec<ResourceBound>) {
    let amounts = Amounts {
        summary: &Summary::of(summary),
        assumed: &[],
    };
    bound_of(amounts, per_unit, Detail::Explained)
}

fn bound_of(
    amounts: Amounts<'_>,
    per_unit: &ResourceList,
    detail: Detail,
) -> (u64, Option<Limit>, Vec<ResourceBound>) {
    let has = |r: &str| amounts.summary.has(r);
    let mut bound = u64::MAX;
    let mut tightest: Option<&str> = None;
    let mut lines = Vec::new();
    for (r, q) in per_unit.positive() {
        let (a, b, c) = amounts.of(r);
        let free = minus(a, b, c);
        let this = if !has(r) || free <= 0 {
            0
        } else {
            per(free as u64, q)
        };
        if this < bound {
            bound = this;
            tightest = Some(r);
        }
        if detail == Detail::Explained {
            lines.push(ResourceBound {
                resource: r.into(),
                allocatable: a,
                allocated: b,
                allocating: c,
                request: q,
                bound: this,
                formula: formula(r, (a, b, c), q, has(r), this),
            });
        }
    }
    let limit = tightest.map(|r| {
        if has(r) {
            Limit::Resource { resource: r.into() }
        } else {
            Limit::Missing { resource: r.into() }
        }
    });
    (bound, limit, lines)
}

/// `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`.
fn formula(r: &str, (a, b, c): (u64, u64, u64), q: u64, has: bool, bound: u64) -> String {
    if !has {
        return format!("{r}: the cluster has none -> 0");
    }
    let mut text = format!("{r}: ({} - {}", human(a.into(), r), human(b.into(), r));
    if c > 0 {
        text.push_str(&format!(" - {}", human(c.into(), r)));
    }
    text.push_str(&format!(") / {}", human(q.into(), r)));
    let free = minus(a, b, c);
    if free <= 0 {
        text.push_str(" -> 0 (nothing free)");
    } else if (free as u64) % q == 0 {
        text.push_str(&format!(" = {}", decimal(free as u64, q, 2)));
    } else {
        text.push_str(&format!(" = {} -> {bound}", decimal(free as u64, q, 2)));
    }
    text
}

/// Replicas of `request` (per replica; `None`: no requirements) the cluster can take, with
/// formulas and sentences.
pub fn max_available_replicas(
    view: &ClusterView<'_>,
    request: Option<&ResourceList>,
) -> GeneralEstimate {
    estimate(view, Need::Replicas(request), Detail::Explained)
}

/// [`max_available_replicas`] at a chosen [`Detail`].
pub fn max_available_replicas_with(
    view: &ClusterView<'_>,
    request: Option<&ResourceList>,
    detail: Detail,
) -> GeneralEstimate {
    estimate(view, Need::Replicas(request), detail)
}

/// Complete sets of `components` the cluster can take.
pub fn max_available_component_sets(
    view: &ClusterView<'_>,
    components: &[Component],
) -> GeneralEstimate {
    estimate(view, Need::Sets(components), Detail::Explained)
}

/// [`max_available_component_sets`] at a chosen [`Detail`].
pub fn max_available_component_sets_with(
    view: &ClusterView<'_>,
    components: &[Component],
    detail: Detail,
) -> GeneralEstimate {
    estimate(view, Need::Sets(components), detail)
}

#[derive(Clone, Copy)]
enum Need<'a> {
    Replicas(Option<&'a ResourceList>),
    Sets(&'a [Component]),
}

fn estimate(view: &ClusterView<'_>, need: Need<'_>, detail: Detail) -> GeneralEstimate {
    let explained = detail == Detail::Explained;
    let mut out = GeneralEstimate {
        replicas: 0,
        allowed_pods: 0,
        limit: Limit::NoSummary,
        resources: Vec::new(),
        model: None,
        explanation: Vec::new(),
    };
    let say = |out: &mut GeneralEstimate, text: &dyn Fn() -> String| {
        if explained {
            out.explanation.push(text());
        }
    };
    let Some(summary) = view.summary else {
        say(&mut out, &|| {
            "the cluster reports no resource summary -> 0".into()
        });
        return out;
    };
    let amounts = Amounts::new(view, summary);
    let (pa, pb, pc) = amounts.of("pods");
    let allowed = minus(pa, pb, pc);
    out.allowed_pods = allowed;
    say(&mut out, &|| {
        let extra = if pc > 0 {
            format!(" - {pc}")
        } else {
            String::new()
        };
        format!("pods: {pa} - {pb}{extra} = {allowed}")
    });
    if allowed <= 0 {
        out.limit = Limit::NoPodSlots;
        say(&mut out, &|| "no free pod slot -> 0".into());
        return out;
    }
    let allowed = allowed.min(MAX_INT32.into()) as u64;
    // Per unit: one replica's request, or one set's total (and pods per set).
    let owned;
    let (per_unit, pods_per_unit): (&ResourceList, u64) = match need {
        Need::Replicas(None) => {
            out.replicas = allowed as i64;
            out.limit = Limit::PodSlots;
            say(&mut out, &|| {
                format!("no per-replica requirements: {allowed} pod slots")
            });
            return out;
        }
        Need::Replicas(Some(r)) => (r, 1),
        Need::Sets(components) => {
            let pods = components
                .iter()
                .fold(0u64, |s, c| s.saturating_add(c.replicas));
            if pods == 0 {
                out.replicas = allowed as i64;
                out.limit = Limit::PodSlots;
                return out;
            }
            let mut total = ResourceList::new();
            for c in components {
                for (r, q) in c.requests.iter() {
                    total.add(r, q.saturating_mul(c.replicas));
                }
            }
            owned = total;
            (&owned, pods)
        }
    };
    let mut cap = (allowed / pods_per_unit) as i64;
    out.limit = Limit::PodSlots;
    if pods_per_unit > 1 {
        say(&mut out, &|| {
            format!("sets by pods: {allowed} / {pods_per_unit} = {cap}")
        });
    }
    // The model path pre-places assumed workloads whatever SchedulingOvercommitProtection says:
    // the gate guards only the summary deduction (docs/rules/karmada.md §7, model estimate
    // step 3).
    let models_apply = view.gates.customized_cluster_resource_modeling
        && !summary.allocatable_modelings.is_empty();
    let model = if models_apply {
        match need {
            Need::Replicas(r) => r.map(|r| {
                replicas_by_models(
                    view.models,
                    &summary.allocatable_modelings,
                    r,
                    view.model_method,
                    view.assumed,
                )
            }),
            Need::Sets(components) => Some(sets_by_models(
                view.models,
                &summary.allocatable_modelings,
                components,
                MAX_INT32,
                view.assumed,
            )),
        }
    } else {
        None
    };
    let model = match model {
        Some(Ok(m)) => Some(m),
        Some(Err(_)) => {
            say(&mut out, &|| {
                "the resource models cannot answer: using the summary".into()
            });
            None
        }
        None => None,
    };
    // The summary bound applies without models, and to sets even with them (§6).
    if model.is_none() || matches!(need, Need::Sets(_)) {
        let (bound, limit, lines) = bound_of(amounts, per_unit, detail);
        out.explanation
            .extend(lines.iter().map(|l| l.formula.clone()));
        out.resources = lines;
        let bound = i64::try_from(bound).unwrap_or(i64::MAX);
        if bound < cap {
            cap = bound;
            out.limit = limit.unwrap_or(Limit::PodSlots);
        }
    }
    if let Some(m) = model {
        say(&mut out, &|| format!("resource models: {}", m.formula));
        if m.replicas < cap {
            cap = m.replicas;
            out.limit = Limit::Models;
        }
        out.model = Some(m);
    }
    // Karmada returns `int32(...)` of its int64 figure (at most MaxInt32 here, except a wrapped
    // negative model sum).
    out.replicas = i64::from(cap.min(MAX_INT32 as i64) as i32);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(cpu: &str, cpu_used: &str, pods: &str, pods_used: &str) -> Summary {
        Summary::of(&ResourceSummary {
            allocatable: ResourceList::parse(
                [("cpu", cpu), ("memory", "16265856Ki"), ("pods", pods)],
                &"allocatable".into(),
            )
            .unwrap(),
            allocated: ResourceList::parse(
                [("cpu", cpu_used), ("memory", "290Mi"), ("pods", pods_used)],
                &"allocated".into(),
            )
            .unwrap(),
            ..ResourceSummary::default()
        })
    }

    /// The seed's member1-3 table for a 500m request.
    #[test]
    fn seed_member_table() {
        let members = [
            summary("4", "950m", "110", "11"),
            summary("4", "2", "110", "11"),
            summary("4", "2", "110", "110"),
        ];
        let req = ResourceList::parse([("cpu", "500m")], &"request".into()).unwrap();
        let got: Vec<GeneralEstimate> = members
            .iter()
            .map(|s| {
                max_available_replicas(
                    &ClusterView {
                        summary: Some(s),
                        ..ClusterView::default()
                    },
                    Some(&req),
                )
            })
            .collect();
        assert_eq!(
            got.iter().map(|g| g.replicas).collect::<Vec<_>>(),
            [6, 4, 0]
        );
        assert_eq!(
            got[0].resources[0].formula,
            "cpu: (4 - 0.95) / 0.5 = 6.1 -> 6"
        );
        assert_eq!(got[1].resources[0].formula, "cpu: (4 - 2) / 0.5 = 4");
        assert_eq!(got[2].limit, Limit::NoPodSlots);
        assert_eq!(
            got[0].limit,
            Limit::Resource {
                resource: "cpu".into()
            }
        );
    }

    /// The model path pre-places assumed workloads even with SchedulingOvercommitProtection
    /// off; the summary deduction follows the gate.
    #[test]
    fn model_path_places_assumed_workloads_whatever_the_gate() {
        use crate::estimate::models::{default_models, AllocatableModeling};
        use crate::estimate::{AssumedWorkload, Component};
        let mut s = summary("64", "0", "1000", "0");
        // Two nodes of grade 2 (2-4 cores, 16-32 Gi): each takes 2 one-core replicas.
        s.allocatable_modelings = alloc::vec![AllocatableModeling { grade: 2, count: 2 }];
        let req = ResourceList::parse([("cpu", "1")], &"request".into()).unwrap();
        let models = default_models();
        let assumed = [AssumedWorkload {
            namespace: String::new(),
            components: alloc::vec![Component {
                replicas: 1,
                requests: req.clone(),
                ..Component::default()
            }],
        }];
        for overcommit in [false, true] {
            let v = ClusterView {
                summary: Some(&s),
                models: &models,
                gates: Gates {
                    scheduling_overcommit_protection: overcommit,
                    ..Gates::default()
                },
                assumed: &assumed,
                ..ClusterView::default()
            };
            assert_eq!(max_available_replicas(&v, Some(&req)).replicas, 3);
        }
    }

    #[test]
    fn no_summary_and_no_request() {
        let v = ClusterView::default();
        assert_eq!(max_available_replicas(&v, None).replicas, 0);
        let s = summary("4", "0", "10", "4");
        let v = ClusterView {
            summary: Some(&s),
            ..ClusterView::default()
        };
        assert_eq!(max_available_replicas(&v, None).replicas, 6);
        let gpu = ResourceList::from_units([("nvidia.com/gpu", 1)]);
        let e = max_available_replicas(&v, Some(&gpu));
        assert_eq!(e.replicas, 0);
        assert_eq!(
            e.limit,
            Limit::Missing {
                resource: "nvidia.com/gpu".into()
            }
        );
    }
}
