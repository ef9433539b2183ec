//! The estimator stage (docs/rules/karmada.md §6-11): each cluster's estimators (general,
//! resource models, accurate with the quota plugin) and their combination, the replicas each
//! cluster can take (`alloc(c)`) that selection and the division read. With the report, each
//! estimator's answer with its formulas, and the warnings a user should see.

use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;

use serde::Serialize;

use super::binding::{Binding, Estimator};
use super::cluster::{Capacity, Clusters, Member, Members};
use crate::error::{indexed, Error, Path, Result, MAX_TARGETS};
use crate::estimate::accurate::{AccurateEstimate, IgnoredPod, Node, NodeState};
use crate::estimate::combine::{combine_by_position, replicas_at, Answers, Source};
use crate::estimate::framework::{server_answer, PluginResult};
use crate::estimate::general::{self, ClusterView, Detail, GeneralEstimate};
use crate::estimate::{models, quota, AssumedWorkload};
use crate::resource::ResourceList;
use crate::warning::Warning;
use crate::Name;

/// Largest number of pods (over every cluster) a scenario may list.
pub const MAX_PODS: usize = 1 << 22;

/// The accurate estimator's answer for a cluster: the node plugin, the quota plugin, and what
/// the estimator server returns after merging them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AccurateAnswer {
    /// `None`: the server's answer is an error (no answer).
    pub replicas: Option<u64>,
    pub nodes: AccurateEstimate,
    /// Present when the cluster lists resource quotas.
    pub quota: Option<PluginResult>,
    /// The cluster's pods that hold nothing on its nodes (unbound, on a node it does not list,
    /// finished), and why.
    pub ignored_pods: Vec<IgnoredPod>,
}

/// One cluster's estimates and their combination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TargetEstimate {
    pub name: Name,
    /// The combined figure the division uses (the requested replicas when nobody answered);
    /// negative where Karmada's figure is (docs/rules/versions.md "Resource models").
    pub available_replicas: i64,
    /// Which estimator set it.
    pub source: Source,
    /// `availableReplicas` as the scenario stated it.
    pub given: Option<i64>,
    // Boxed, as `accurate`: most clusters have neither, and a list of 10,000 clusters then
    // holds two pointers each rather than both estimates' room.
    pub general: Option<Box<GeneralEstimate>>,
    pub accurate: Option<Box<AccurateAnswer>>,
}

/// What the estimator stage found.
#[derive(Debug, Clone, Default)]
pub struct Estimated {
    /// Per cluster in listed order: the combined figure (`alloc(c)`).
    pub available: Vec<i64>,
    /// Per cluster, with [`Detail::Explained`] only: every estimator's answer and the
    /// combination.
    pub targets: Vec<TargetEstimate>,
    /// With [`Detail::Explained`] only.
    pub warnings: Vec<Warning>,
}

/// The workload's replicas, which must be stated and not negative.
pub fn requested(b: &Binding<'_>) -> Result<u64> {
    let replicas = b.replicas.ok_or_else(|| Error::Missing {
        field: "replicas".into(),
    })?;
    crate::error::non_negative(replicas, || "replicas".into())
}

/// Each cluster's `availableReplicas` as stated.
fn given_answers(capacities: &[Capacity]) -> Result<Answers<'static>> {
    let mut given = Vec::with_capacity(capacities.len());
    for (i, t) in capacities.iter().enumerate() {
        if let Some(a) = t.available_replicas {
            crate::error::non_negative(a, || indexed("clusters", i).field("availableReplicas"))?;
        }
        given.push(t.available_replicas);
    }
    Ok(Answers {
        estimator: "given",
        replicas: Some(given),
    })
}

/// The combined figures from the stated `availableReplicas` alone (absent: the requested
/// replicas): the division's input when no estimator runs.
pub fn given(b: &Binding<'_>, clusters: &Clusters<'_>, detail: Detail) -> Result<Estimated> {
    let requested = requested(b)?;
    let answers = [given_answers(clusters.capacities())?];
    Ok(combined(
        b,
        clusters,
        requested,
        &answers,
        detail,
        Vec::new(),
    ))
}

/// Every chosen estimator on every cluster, and their combination. `detail`:
/// [`Detail::Numbers`] computes the figures alone; [`Detail::Explained`] also each answer's
/// formulas, the per-cluster report and the warnings.
pub fn estimate(b: &Binding<'_>, clusters: &Clusters<'_>, detail: Detail) -> Result<Estimated> {
    let requested = requested(b)?;
    let members = clusters.members();
    clusters.sizes(check_sizes)?;
    if let Some(c) = b.node_claim {
        c.validate()
            .map_err(|e| e.within(&Path::fields("nodeClaim")))?;
    }
    for (i, c) in b.components.iter().enumerate() {
        if let Some(nc) = &c.node_claim {
            nc.validate()
                .map_err(|e| e.within(&indexed("components", i).field("nodeClaim")))?;
        }
    }
    let explained = detail == Detail::Explained;
    let chosen = |e: Estimator, has_input: bool| match b.estimators {
        Some(list) => list.contains(&e),
        None => has_input,
    };
    let no_request = ResourceList::new();
    let request = b.requests.unwrap_or(&no_request);
    let sets = !b.components.is_empty();
    // A node claim alone makes requirements too (Karmada's `GenerateReplicaRequirements`): the
    // general estimator then reads the resource models with an empty request
    // (docs/rules/versions.md "Resource models").
    // Karmada's defaulting gives every cluster the 9 default grades when it states none: made
    // once for the set, for every cluster and binding that needs them.
    let mut warnings = Vec::new();
    let estimated_request = b.estimated_request(&no_request);
    // The general estimator's answers for a binding of the same needs against the same set
    // (the figures alone): the set keeps the last ones.
    // No accurate answer: the combined figures then depend on the general answers and the
    // requested replicas alone, and the set keeps the last ones too.
    let accurate_runs = clusters.lists_nodes() && chosen(Estimator::Accurate, true);
    let remembered = match detail {
        Detail::Numbers => clusters
            .general_memo(|m| {
                let m = m.as_ref()?;
                let answers = m.answers_for(b, estimated_request)?;
                let combined = m
                    .combined
                    .as_ref()
                    .filter(|(r, _)| !accurate_runs && *r == requested)
                    .map(|(_, available)| available.clone());
                Some(match combined {
                    Some(available) => Remembered::Combined(available),
                    None => Remembered::General(answers.clone()),
                })
            })
            .flatten(),
        Detail::Explained => None,
    };
    let remembered = match remembered {
        Some(Remembered::Combined(available)) => {
            return Ok(Estimated {
                available,
                ..Estimated::default()
            })
        }
        Some(Remembered::General(answers)) => Some(answers),
        None => None,
    };
    let from_memo = remembered.is_some();
    let mut general_answers = remembered.unwrap_or_else(|| alloc::vec![None; members.len()]);
    let mut accurate_answers = Some(alloc::vec![None; members.len()]);
    let mut reports = Vec::with_capacity(if explained { members.len() } else { 0 });
    for (i, (t, capacity)) in members.iter().zip(clusters.capacities()).enumerate() {
        // The cluster's path, written only for an error or a warning.
        let at = || indexed("clusters", i);
        let general = if from_memo {
            None
        } else if chosen(
            Estimator::General,
            capacity.summary.is_some() || !t.resource_models.is_empty(),
        ) {
            if !t.resource_models.is_empty() {
                models::validate(&t.resource_models).map_err(|e| e.within(&at()))?;
            }
            if capacity.summary.is_none() && explained {
                warnings.push(Warning {
                    code: "estimator_without_input",
                    path: at().field("resourceSummary"),
                    message: format!(
                        "{}: the general estimator runs but the cluster reports no resource \
                         summary, so it answers 0",
                        t.name
                    ),
                });
            }
            let cluster_models = if t.resource_models.is_empty() {
                clusters.default_models()
            } else {
                &t.resource_models
            };
            let view = ClusterView {
                summary: capacity.summary.as_ref(),
                models: cluster_models,
                gates: b.gates,
                model_method: b.model_method,
                assumed: &capacity.assumed,
            };
            let g = if sets {
                general::max_available_component_sets_with(&view, b.components, detail)
            } else {
                general::max_available_replicas_with(&view, estimated_request, detail)
            };
            if let Some(slot) = general_answers.get_mut(i) {
                *slot = Some(g.replicas);
            }
            explained.then(|| Box::new(g))
        } else {
            None
        };
        let accurate = match &t.nodes {
            Some(nodes) if chosen(Estimator::Accurate, true) => {
                let a = accurate(b, t, &capacity.assumed, nodes, request)
                    .map_err(|e| e.within(&at()))?;
                match (a.replicas, accurate_answers.as_mut()) {
                    (Some(r), Some(m)) => {
                        if let Some(slot) = m.get_mut(i) {
                            *slot = Some(r as i64);
                        }
                    }
                    // One cluster's error fails the whole call (docs/rules/karmada.md §11).
                    (None, _) => accurate_answers = None,
                    (Some(_), None) => {}
                }
                explained.then(|| Box::new(a))
            }
            None if chosen(Estimator::Accurate, false) && explained => {
                warnings.push(Warning {
                    code: "estimator_without_input",
                    path: at().field("nodes"),
                    message: format!(
                        "{}: the accurate estimator is chosen but the cluster lists no nodes; \
                         it has no answer for this cluster",
                        t.name
                    ),
                });
                None
            }
            _ => None,
        };
        if explained {
            reports.push((general, accurate));
        }
    }
    if !from_memo && detail == Detail::Numbers {
        let memo = GeneralMemo {
            gates: b.gates,
            model_method: b.model_method,
            estimators: b.estimators.map(<[_]>::to_vec),
            request: estimated_request.cloned(),
            components: b.components.to_vec(),
            answers: general_answers.clone(),
            combined: None,
        };
        clusters.general_memo(|m| *m = Some(memo));
    }
    let answers = [
        given_answers(clusters.capacities())?,
        Answers {
            estimator: "general",
            replicas: Some(general_answers),
        },
        Answers {
            estimator: "accurate",
            replicas: accurate_answers,
        },
    ];
    let mut out = combined(b, clusters, requested, &answers, detail, reports);
    if detail == Detail::Numbers && !accurate_runs {
        clusters.general_memo(|m| {
            if let Some(m) = m.as_mut() {
                m.combined = Some((requested, out.available.clone()));
            }
        });
    }
    out.warnings = warnings;
    Ok(out)
}

/// The general estimator's answers (figures alone) for every cluster of a set, and what
/// they depend on besides the set's clusters and capacities: the binding's estimator
/// settings and what it asks of each cluster. A set keeps the last ones
/// ([`Clusters::general_memo`]) and forgets them when a cluster's capacity changes.
#[derive(Debug, Clone)]
pub struct GeneralMemo {
    gates: crate::estimate::Gates,
    model_method: crate::estimate::by_model::ModelMethod,
    estimators: Option<Vec<Estimator>>,
    request: Option<ResourceList>,
    components: Vec<crate::estimate::Component>,
    answers: Vec<Option<i64>>,
    /// The combined figures (`alloc(c)`) for a number of requested replicas, when no accurate
    /// estimator answered: the general answers, the stated figures and that number decide them.
    combined: Option<(u64, Vec<i64>)>,
}

impl GeneralMemo {
    /// The answers, when `b` (asking `request` of each cluster) needs the same.
    fn answers_for(
        &self,
        b: &Binding<'_>,
        request: Option<&ResourceList>,
    ) -> Option<&Vec<Option<i64>>> {
        let same = self.gates == b.gates
            && self.model_method == b.model_method
            && self.estimators.as_deref() == b.estimators
            && self.request.as_ref() == request
            && self.components.as_slice() == b.components;
        same.then_some(&self.answers)
    }
}

/// What a set remembers for a binding: the combined figures themselves, or the general
/// answers to combine.
enum Remembered {
    Combined(Vec<i64>),
    General(Vec<Option<i64>>),
}

/// Totals over every cluster must stay within the documented limits.
fn check_sizes(members: Members<'_>) -> Result<()> {
    if members.len() > MAX_TARGETS {
        return Err(Error::TooLarge {
            field: "clusters".into(),
            limit: MAX_TARGETS as u64,
        });
    }
    let (mut nodes, mut pods) = (0usize, 0usize);
    for (i, t) in members.iter().enumerate() {
        nodes = nodes.saturating_add(t.nodes.as_ref().map_or(0, Vec::len));
        pods = pods.saturating_add(t.pods.len());
        if nodes > MAX_TARGETS {
            return Err(Error::TooLarge {
                field: indexed("clusters", i).field("nodes"),
                limit: MAX_TARGETS as u64,
            });
        }
        if pods > MAX_PODS {
            return Err(Error::TooLarge {
                field: indexed("clusters", i).field("pods"),
                limit: MAX_PODS as u64,
            });
        }
    }
    Ok(())
}

/// The accurate estimator for one cluster: node plugin, quota plugin, server answer.
fn accurate(
    b: &Binding<'_>,
    t: &Member,
    assumed: &[AssumedWorkload],
    nodes: &[Node],
    request: &ResourceList,
) -> Result<AccurateAnswer> {
    let state = NodeState::build(nodes.to_vec(), &t.pods)?;
    let node = if b.components.is_empty() {
        state.estimate(request, b.node_claim, assumed)?
    } else {
        let (replicas, code) = state.estimate_components(b.components, assumed, true)?;
        AccurateEstimate {
            replicas,
            code,
            nodes: Vec::new(),
        }
    };
    let quota = (!t.resource_quotas.is_empty() && b.components.is_empty())
        .then(|| quota::estimate(&t.resource_quotas, request, b.priority_class));
    let mut results = alloc::vec![PluginResult {
        replicas: node.replicas,
        code: node.code,
    }];
    results.extend(quota);
    Ok(AccurateAnswer {
        replicas: server_answer(&results),
        nodes: node,
        quota,
        ignored_pods: state.ignored_pods,
    })
}

type Reports = Vec<(Option<Box<GeneralEstimate>>, Option<Box<AccurateAnswer>>)>;

/// The combination of `answers`: the figures, and with [`Detail::Explained`] the per-cluster
/// report (`reports`: each cluster's general and accurate answers, in listed order).
fn combined(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    requested: u64,
    answers: &[Answers<'_>],
    detail: Detail,
    reports: Reports,
) -> Estimated {
    let sets = !b.components.is_empty();
    let members = clusters.members();
    if detail == Detail::Numbers {
        return Estimated {
            available: (0..members.len())
                .map(|i| replicas_at(i, requested, sets, answers))
                .collect(),
            ..Estimated::default()
        };
    }
    let names: Vec<&str> = members.iter().map(|t| t.name.as_str()).collect();
    let mut reports = reports.into_iter();
    let targets: Vec<TargetEstimate> = combine_by_position(&names, requested, sets, answers)
        .into_iter()
        .zip(clusters.capacities())
        .map(|(c, t)| {
            let (general, accurate) = reports.next().unwrap_or_default();
            TargetEstimate {
                name: c.cluster,
                available_replicas: c.replicas,
                source: c.source,
                given: t.available_replicas,
                general,
                accurate,
            }
        })
        .collect();
    Estimated {
        available: targets.iter().map(|t| t.available_replicas).collect(),
        targets,
        warnings: Vec::new(),
    }
}
