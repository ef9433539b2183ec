//! The whole Karmada path for a scenario (docs/rules/karmada.md §0, §6-11): each
//! cluster's estimators (general, resource models, accurate with the quota plugin), their
//! combination, then the replica division with the combined figures as each cluster's
//! available replicas, and the warnings a user should see. It mirrors `eru::pipeline`;
//! `scenario` only reads the document and dispatches here.

use alloc::boxed::Box;
use alloc::format;
use alloc::vec::Vec;

use crate::error::{indexed, Error, Path, Result, MAX_TARGETS};
use crate::estimate::accurate::{AccurateEstimate, NodeState};
use crate::estimate::combine::{combine_by_position, Answers, Source};
use crate::estimate::framework::{server_answer, PluginResult};
use crate::estimate::general::{max_available_component_sets, max_available_replicas, ClusterView};
use crate::estimate::{models, quota};
use crate::karmada::constraints::Division;
use crate::karmada::scheduler::{self, Context, Depth, PipelineReport};
use crate::karmada::{assign_at, Cluster, Paths, Placement, StaticWeightRule, Strategy};
use crate::names::NameIndex;
use crate::resource::ResourceList;
use crate::scenario::outcome::{
    AccurateAnswer, Estimates, KarmadaOutcome, TargetEstimate, Warning,
};
use crate::scenario::{Estimator, Scenario, Target, FORMAT_VERSION, MAX_PODS};

const STRATEGIES: &str = Strategy::LIST;

/// The estimator stage: every cluster's estimates and the combined figure.
pub fn estimate(s: &Scenario, targets: &[Target]) -> Result<Estimates> {
    let requested = requested(s)?;
    let (targets, warnings) = estimates(s, targets, requested)?;
    Ok(Estimates {
        version: FORMAT_VERSION,
        targets,
        warnings,
    })
}

/// The whole schedule: estimates, then the division.
pub fn schedule(s: &Scenario, targets: &[Target], drawn_seed: u64) -> Result<KarmadaOutcome> {
    let requested = requested(s)?;
    let (estimates, warnings) = estimates(s, targets, requested)?;
    divide_with(s, targets, estimates, warnings, drawn_seed)
}

/// The division alone, with each cluster's `availableReplicas` as stated (absent: the
/// requested replicas).
pub fn divide(s: &Scenario, targets: &[Target], drawn_seed: u64) -> Result<KarmadaOutcome> {
    let requested = requested(s)?;
    let given = given_answers(targets)?;
    let names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
    let estimates = combined(
        targets,
        &names,
        requested,
        !s.workload.components.is_empty(),
        &[given],
        Vec::new(),
        Vec::new(),
    );
    divide_with(s, targets, estimates, Vec::new(), drawn_seed)
}

/// The steps before the division alone (filter and score, or through selection), over the
/// terms in turn as a schedule would try them. A scheduling failure (no cluster fits, spread
/// constraints unmet) is reported in the report's `error`; only bad input fails.
pub fn steps(s: &Scenario, targets: &[Target], depth: Depth) -> Result<PipelineReport> {
    let requested = requested(s)?;
    let (estimates, _) = estimates(s, targets, requested)?;
    let (_, _, division) = division_rules(s, targets)?;
    let ctx = Context::new(s, targets, &estimates, division)?;
    let (result, mut report) = scheduler::schedule(&ctx, depth, &mut |_| Ok(()));
    report.error = result.err();
    Ok(report)
}

/// The scenario's strategy, its static weight rules, and what they make of spread constraints.
fn division_rules(
    s: &Scenario,
    targets: &[Target],
) -> Result<(Strategy, Option<Vec<StaticWeightRule>>, Division)> {
    let strategy = parse_strategy(s)?;
    let statics = static_weights(s, targets, strategy)?;
    let division = Division::of(strategy, statics.as_deref());
    Ok((strategy, statics, division))
}

fn requested(s: &Scenario) -> Result<u64> {
    let replicas = s.workload.replicas.ok_or_else(|| Error::Missing {
        field: Paths::SCENARIO.replicas.into(),
    })?;
    crate::error::non_negative(replicas, || Paths::SCENARIO.replicas.into())
}

fn given_answers(targets: &[Target]) -> Result<Answers<'static>> {
    let mut given = Vec::with_capacity(targets.len());
    for (i, t) in targets.iter().enumerate() {
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

fn estimates(
    s: &Scenario,
    targets: &[Target],
    requested: u64,
) -> Result<(Vec<TargetEstimate>, Vec<Warning>)> {
    check_sizes(targets)?;
    let w = &s.workload;
    let p = &s.policy;
    if let Some(c) = &w.node_claim {
        c.validate()
            .map_err(|e| e.within(&Path::fields("workload.nodeClaim")))?;
    }
    for (i, c) in w.components.iter().enumerate() {
        if let Some(nc) = &c.node_claim {
            nc.validate()
                .map_err(|e| e.within(&indexed("workload.components", i).field("nodeClaim")))?;
        }
    }
    let chosen = |e: Estimator, has_input: bool| match &p.estimators {
        Some(list) => list.contains(&e),
        None => has_input,
    };
    let no_request = ResourceList::new();
    let request = w.requests.as_ref().unwrap_or(&no_request);
    let sets = !w.components.is_empty();
    let mut warnings = Vec::new();
    let mut general_answers = alloc::vec![None; targets.len()];
    let mut accurate_answers = Some(alloc::vec![None; targets.len()]);
    let mut generals = Vec::with_capacity(targets.len());
    let mut accurates = Vec::with_capacity(targets.len());
    for (i, t) in targets.iter().enumerate() {
        // The cluster's path, written only for an error or a warning.
        let at = || indexed("clusters", i);
        let general = if chosen(
            Estimator::General,
            t.resource_summary.is_some() || !t.resource_models.is_empty(),
        ) {
            if !t.resource_models.is_empty() {
                models::validate(&t.resource_models).map_err(|e| e.within(&at()))?;
            }
            if t.resource_summary.is_none() {
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
            // Karmada's defaulting gives every cluster the 9 default grades when it states none.
            let defaults;
            let cluster_models = if t.resource_models.is_empty() {
                defaults = models::default_models();
                &defaults
            } else {
                &t.resource_models
            };
            let view = ClusterView {
                summary: t.resource_summary.as_ref(),
                models: cluster_models,
                gates: p.gates,
                model_method: p.model_method,
                assumed: &t.assumed,
            };
            let g = if sets {
                max_available_component_sets(&view, &w.components)
            } else {
                max_available_replicas(&view, w.requests.as_ref())
            };
            general_answers[i] = Some(g.replicas as i64);
            Some(Box::new(g))
        } else {
            None
        };
        generals.push(general);
        let accurate = match &t.nodes {
            Some(nodes) if chosen(Estimator::Accurate, true) => {
                let a = accurate(s, t, nodes, request).map_err(|e| e.within(&at()))?;
                match (a.replicas, accurate_answers.as_mut()) {
                    (Some(r), Some(m)) => m[i] = Some(r as i64),
                    // One cluster's error fails the whole call (docs/rules/karmada.md §11 step 2).
                    (None, _) => accurate_answers = None,
                    (Some(_), None) => {}
                }
                Some(Box::new(a))
            }
            None if chosen(Estimator::Accurate, false) => {
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
        accurates.push(accurate);
    }
    let names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
    let answers = [
        given_answers(targets)?,
        Answers {
            estimator: "general",
            replicas: Some(general_answers),
        },
        Answers {
            estimator: "accurate",
            replicas: accurate_answers,
        },
    ];
    let out = combined(
        targets, &names, requested, sets, &answers, generals, accurates,
    );
    Ok((out, warnings))
}

/// Totals over every cluster must stay within the documented limits.
fn check_sizes(targets: &[Target]) -> Result<()> {
    if targets.len() > MAX_TARGETS {
        return Err(Error::TooLarge {
            field: "clusters".into(),
            limit: MAX_TARGETS as u64,
        });
    }
    let (mut nodes, mut pods) = (0usize, 0usize);
    for (i, t) in targets.iter().enumerate() {
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
    s: &Scenario,
    t: &Target,
    nodes: &[crate::estimate::accurate::Node],
    request: &ResourceList,
) -> Result<AccurateAnswer> {
    let w = &s.workload;
    let state = NodeState::build(nodes.to_vec(), &t.pods)?;
    let node = if w.components.is_empty() {
        state.estimate(request, w.node_claim.as_ref(), &t.assumed)?
    } else {
        let (replicas, code) = state.estimate_components(&w.components, &t.assumed, true)?;
        AccurateEstimate {
            replicas,
            code,
            nodes: Vec::new(),
        }
    };
    let quota = (!t.resource_quotas.is_empty() && w.components.is_empty())
        .then(|| quota::estimate(&t.resource_quotas, request, w.priority_class.as_deref()));
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

fn combined(
    targets: &[Target],
    names: &[&str],
    requested: u64,
    sets: bool,
    answers: &[Answers<'_>],
    generals: Vec<Option<Box<crate::estimate::general::GeneralEstimate>>>,
    accurates: Vec<Option<Box<AccurateAnswer>>>,
) -> Vec<TargetEstimate> {
    let mut generals = generals.into_iter();
    let mut accurates = accurates.into_iter();
    combine_by_position(names, requested, sets, answers)
        .into_iter()
        .zip(targets)
        .map(|(c, t)| TargetEstimate {
            name: c.cluster,
            available_replicas: c.replicas,
            source: c.source,
            given: t.available_replicas,
            general: generals.next().flatten(),
            accurate: accurates.next().flatten(),
        })
        .collect()
}

fn parse_strategy(s: &Scenario) -> Result<Strategy> {
    Ok(match s.policy.strategy.as_deref() {
        None | Some("staticWeight") => Strategy::StaticWeight,
        Some("duplicated") => Strategy::Duplicated,
        Some("dynamicWeight") => Strategy::DynamicWeight,
        Some("aggregated") => Strategy::Aggregated,
        Some(other) => {
            return Err(Error::UnknownValue {
                field: "policy.strategy".into(),
                value: other.into(),
                expected: STRATEGIES,
            })
        }
    })
}

/// Static weight rules: the policy's, or one per cluster stating a `weight` (docs/rules/karmada.md
/// §3: weights go with the staticWeight strategy only; any other strategy with weights is one
/// error at `policy.strategy` naming every weight to clear).
fn static_weights(
    s: &Scenario,
    targets: &[Target],
    strategy: Strategy,
) -> Result<Option<Vec<StaticWeightRule>>> {
    let weighted: Vec<(usize, &Target, i64)> = targets
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.weight.map(|w| (i, t, w)))
        .collect();
    if strategy != Strategy::StaticWeight
        && (!weighted.is_empty() || s.policy.static_weights.is_some())
    {
        let mut given: Vec<alloc::string::String> = Vec::new();
        if !weighted.is_empty() {
            let names: Vec<&str> = weighted.iter().map(|(_, t, _)| t.name.as_str()).collect();
            given.push(format!("the weights of {}", names.join(", ")));
        }
        if s.policy.static_weights.is_some() {
            given.push("policy.staticWeights".into());
        }
        return Err(Error::Input {
            field: "policy.strategy".into(),
            code: crate::error::ErrorCode::InvalidInput,
            reason: format!(
                "{} does not divide by weights: clear {}, or choose staticWeight",
                s.policy.strategy.as_deref().unwrap_or_default(),
                given.join(" and ")
            ),
        });
    }
    let Some(&(first, _, _)) = weighted.first() else {
        return Ok(s.policy.static_weights.clone());
    };
    if s.policy.static_weights.is_some() {
        return Err(Error::Input {
            field: indexed("clusters", first).field("weight"),
            code: crate::error::ErrorCode::InvalidInput,
            reason: "cluster weights and policy.staticWeights cannot both be given".into(),
        });
    }
    weighted
        .into_iter()
        .map(|(i, t, w)| {
            crate::error::non_negative(w, || indexed("clusters", i).field("weight"))?;
            Ok(StaticWeightRule::for_cluster(&t.name, w))
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

fn divide_with(
    s: &Scenario,
    targets: &[Target],
    estimates: Vec<TargetEstimate>,
    mut warnings: Vec<Warning>,
    drawn_seed: u64,
) -> Result<KarmadaOutcome> {
    let (strategy, statics, division) = division_rules(s, targets)?;
    let w = &s.workload;
    let seed = s.seed.unwrap_or(drawn_seed);
    let ctx = Context::new(s, targets, &estimates, division)?;
    let mut divided = None;
    let (result, pipeline) = scheduler::schedule(&ctx, Depth::Select, &mut |c| {
        let placement = Placement {
            replicas: w.replicas.unwrap_or(0),
            clusters: c
                .order
                .iter()
                .map(|&(i, tier)| {
                    let t = &targets[i];
                    Cluster {
                        name: t.name.clone(),
                        labels: t.labels.clone(),
                        provider: t.provider.clone(),
                        region: t.region.clone(),
                        zones: t.zones.clone(),
                        available_replicas: Some(estimates[i].available_replicas as i64),
                        overflow_order: tier,
                    }
                })
                .collect(),
            strategy,
            method: s.policy.method,
            static_weights: statics.clone(),
            previous: s.previous.clone(),
            fresh: s.policy.fresh,
            uid: s.uid.clone(),
            seed: Some(seed),
            overflow: c.overflow,
            has_replica_requirements: w.requests.is_some()
                || !w.components.is_empty()
                || w.replicas.unwrap_or(0) > 0,
            weights_are_cluster_weights: s.policy.static_weights.is_none() && statics.is_some(),
        };
        divided = Some(assign_at(&placement, &Paths::SCENARIO)?);
        Ok(())
    });
    result?;
    let Some(outcome) = divided else {
        return Err(Error::NoCandidates {
            field: "clusters".into(),
        });
    };
    // Static weights and Duplicated do not look at capacity: say where they exceed it.
    if matches!(strategy, Strategy::StaticWeight | Strategy::Duplicated) {
        let index = NameIndex::new(estimates.iter().map(|e| e.name.as_str()));
        for a in &outcome.assignment {
            let Some(i) = index.get(a.name.as_str()) else {
                continue;
            };
            let e = &estimates[i];
            let prev = s.previous.get(a.name.as_str()).copied().unwrap_or(0).max(0) as u64;
            let more = a.replicas.saturating_sub(prev);
            if matches!(e.source, Source::Estimator { .. }) && more > e.available_replicas {
                warnings.push(Warning {
                    code: "capacity_exceeded",
                    path: indexed("clusters", i),
                    message: format!(
                        "{} gets {} more replicas but its estimators say it can take {}; the \
                         {} strategy does not look at capacity",
                        a.name,
                        more,
                        e.available_replicas,
                        if strategy == Strategy::Duplicated {
                            "duplicated"
                        } else {
                            "staticWeight"
                        }
                    ),
                });
            }
        }
    }
    let random_decided = outcome.seed.is_some();
    Ok(KarmadaOutcome {
        version: FORMAT_VERSION,
        assignment: outcome.assignment,
        targets: estimates,
        seed,
        seed_drawn: s.seed.is_none(),
        random_decided,
        trace: outcome.trace,
        pipeline: alloc::boxed::Box::new(pipeline),
        warnings,
    })
}

/// The schedule under each of `seeds` (the scenario's own seed ignored): the estimators run
/// once, the division once per seed.
pub(crate) fn per_seed(
    s: &Scenario,
    targets: &[Target],
    seeds: core::ops::Range<u64>,
    mut each: impl FnMut(KarmadaOutcome),
) -> Result<()> {
    let requested = requested(s)?;
    let (estimates, warnings) = estimates(s, targets, requested)?;
    let mut unseeded = s.clone();
    unseeded.seed = None;
    for seed in seeds {
        each(divide_with(
            &unseeded,
            targets,
            estimates.clone(),
            warnings.clone(),
            seed,
        )?);
    }
    Ok(())
}
