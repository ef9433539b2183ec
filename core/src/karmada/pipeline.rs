//! The whole Karmada path for one binding (docs/rules/karmada.md §0, §6-15): the estimator
//! stage ([`super::estimates`]), then the scheduling cycle ([`super::scheduler`]: filters,
//! scores, order, selection, affinity terms) with the division of its candidates
//! (`assignReplicas`). It answers with the [`Decision`] alone, or with the decision and its
//! [`Report`] when asked: one pass computes both, and the report's text is written only when
//! it is asked for. It mirrors `eru::pipeline`; `scenario::karmada` lends it a scenario's
//! binding and clusters. Its errors name the binding's own field or a cluster
//! ([`super::binding`]); the lender places them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::admission;
use super::affinity::Affinity;
use super::binding::Binding;
use super::cluster::Clusters;
use super::compiled::Compiled;
use super::constraints::{Division, SpreadConstraint};
use super::estimates::{self, Estimated, TargetEstimate};
use super::scheduler::{self, Candidates, Context, Depth, PipelineReport};
use super::{assign, Assigned, Cluster, Outcome, Placement, StaticWeightRule, Strategy, Trace};
use crate::error::{indexed, Error, Result};
use crate::estimate::combine::Source;
use crate::estimate::general::Detail;
use crate::warning::Warning;

const STRATEGIES: &str = Strategy::LIST;

/// What Karmada decides for a binding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Replicas per cluster (`spec.clusters`), candidate order, zero entries dropped.
    pub assignment: Vec<Assigned>,
    /// `status.schedulerObservingAffinityName` afterwards.
    pub observed_affinity: String,
    /// The seed in effect (the binding's, else the caller's draw).
    pub seed: u64,
    /// Whether a random choice decided anything (only then does the seed matter).
    pub random_decided: bool,
}

/// Why: what the estimators answered, the steps before the division, how the division went,
/// and what a user should know.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// Each cluster's estimates, in listed order.
    pub targets: Vec<TargetEstimate>,
    /// The steps before the division: filters, scores, order, selection, affinity terms.
    pub pipeline: PipelineReport,
    pub trace: Trace,
    pub warnings: Vec<Warning>,
}

/// The decision alone: no report is built. A scheduling failure (no cluster fits, spread
/// constraints unmet) is the error, as Karmada words it.
pub fn schedule(b: &Binding<'_>, clusters: &Clusters<'_>, drawn_seed: u64) -> Result<Decision> {
    let estimated = estimates::estimate(b, clusters, Detail::Numbers)?;
    divide_with(b, clusters, estimated, drawn_seed, None)
}

/// The decision and its report.
pub fn explain(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    drawn_seed: u64,
) -> Result<(Decision, Report)> {
    let estimated = estimates::estimate(b, clusters, Detail::Explained)?;
    reported(b, clusters, estimated, drawn_seed)
}

/// The division alone, with each cluster's `availableReplicas` as stated (absent: the
/// requested replicas), and its report.
pub fn divide(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    drawn_seed: u64,
) -> Result<(Decision, Report)> {
    let estimated = estimates::given(b, clusters, Detail::Explained)?;
    reported(b, clusters, estimated, drawn_seed)
}

/// The division of what the estimators answered, with its report.
fn reported(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    estimated: Estimated,
    drawn_seed: u64,
) -> Result<(Decision, Report)> {
    let mut report = Report::default();
    let d = divide_with(b, clusters, estimated, drawn_seed, Some(&mut report))?;
    Ok((d, report))
}

/// The steps before the division alone (filter and score, or through selection), over the
/// terms in turn as a schedule would try them. A scheduling failure (no cluster fits, spread
/// constraints unmet) is reported in the report's `error`; only bad input fails.
pub fn steps(b: &Binding<'_>, clusters: &Clusters<'_>, depth: Depth) -> Result<PipelineReport> {
    let estimated = estimates::estimate(b, clusters, Detail::Numbers)?;
    let (_, _, division) = division_rules(b, clusters)?;
    let ctx = Context::new(*b, clusters, &estimated.available, division, true)?;
    let cycle = scheduler::schedule(&ctx, depth, &mut |_| Ok(()));
    let mut report = cycle.report.unwrap_or_default();
    report.error = cycle.result.err();
    Ok(report)
}

/// The binding's strategy, its static weight rules, and what they make of spread constraints,
/// once the policy webhook admits the placement (docs/rules/karmada.md §17).
fn division_rules(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
) -> Result<(Strategy, Option<Vec<StaticWeightRule>>, Division)> {
    let strategy = parse_strategy(b)?;
    admitted(b, strategy)?;
    let statics = static_weights(b, clusters, strategy)?;
    let division = Division::of(strategy, statics.as_deref());
    Ok((strategy, statics, division))
}

/// What the policy webhook refuses in the binding's placement, under the rules of the release
/// the schedule follows (`b.version`), at the placement's field: the binding's own, as it
/// holds the placement's fields.
fn admitted(b: &Binding<'_>, strategy: Strategy) -> Result<()> {
    let spread: Vec<SpreadConstraint> = b
        .spread_constraints
        .iter()
        .map(SpreadConstraint::defaulted)
        .collect();
    let placement = admission::Placement {
        cluster_affinity: b.cluster_affinity,
        cluster_affinities: b.cluster_affinities,
        cluster_tolerations: b.cluster_tolerations,
        spread_constraints: &spread,
        strategy,
        workload_groups: None,
    };
    admission::admit(&placement, b.version)
}

fn parse_strategy(b: &Binding<'_>) -> Result<Strategy> {
    match b.strategy {
        None => Ok(Strategy::default()),
        Some(name) => Strategy::named(name).ok_or_else(|| Error::UnknownValue {
            field: "strategy".into(),
            value: name.into(),
            expected: STRATEGIES,
        }),
    }
}

/// Static weight rules: the policy's, or one per cluster stating a `weight` (docs/rules/karmada.md
/// §3: weights go with the staticWeight strategy only; any other strategy with weights is one
/// error at `strategy` naming every weight to clear).
fn static_weights(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    strategy: Strategy,
) -> Result<Option<Vec<StaticWeightRule>>> {
    let weighted: Vec<(usize, &super::cluster::Member, i64)> = clusters
        .members()
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.weight.map(|w| (i, t, w)))
        .collect();
    if strategy != Strategy::StaticWeight && (!weighted.is_empty() || b.static_weights.is_some()) {
        let mut given: Vec<String> = Vec::new();
        if !weighted.is_empty() {
            let names: Vec<&str> = weighted.iter().map(|(_, t, _)| t.name.as_str()).collect();
            given.push(format!("the weights of {}", names.join(", ")));
        }
        if b.static_weights.is_some() {
            given.push("staticWeights".into());
        }
        return Err(Error::Input {
            field: "strategy".into(),
            code: crate::error::ErrorCode::InvalidInput,
            reason: format!(
                "{} does not divide by weights: clear {}, or choose staticWeight",
                b.strategy.unwrap_or_default(),
                given.join(" and ")
            ),
        });
    }
    let Some(&(first, _, _)) = weighted.first() else {
        return Ok(b.static_weights.map(<[_]>::to_vec));
    };
    if b.static_weights.is_some() {
        return Err(Error::Input {
            field: indexed("clusters", first).field("weight"),
            code: crate::error::ErrorCode::InvalidInput,
            reason: "cluster weights and staticWeights cannot both be given".into(),
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
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    estimated: Estimated,
    drawn_seed: u64,
    report: Option<&mut Report>,
) -> Result<Decision> {
    let (strategy, statics, division) = division_rules(b, clusters)?;
    let members = clusters.members();
    let seed = b.seed.unwrap_or(drawn_seed);
    let available = &estimated.available;
    let explained = report.is_some();
    let ctx = Context::new(*b, clusters, available, division, explained)?;
    // The division reads the clusters' facts only to match static weight rules. Without a
    // report, valid rules are matched here against the members themselves, and the division
    // is given one rule per weight naming its candidates: the same weights, without a copy of
    // every candidate's labels (the report's trace names the policy's own rules).
    let set = clusters.compiled();
    let weighing: Option<Vec<(Affinity<'_>, i64)>> = match statics.as_deref() {
        Some(rules) if !explained && valid_rules(rules) => {
            let zones = b.version.zone_in();
            Some(
                rules
                    .iter()
                    .map(|r| (Affinity::new(&r.target_cluster, zones, set), r.weight))
                    .collect(),
            )
        }
        _ => None,
    };
    let facts = statics.is_some() && weighing.is_none();
    let assigning = Assigning {
        b,
        members,
        available,
        set,
        strategy,
        statics: statics.as_deref(),
        weighing: weighing.as_deref(),
        facts,
        seed,
        explained,
    };
    let mut divided = None;
    // The placement divided last, kept for the report's sentences on Karmada's sums.
    let mut last = None;
    let cycle = scheduler::schedule(&ctx, Depth::Select, &mut |c| {
        let (placement, outcome) = assigning.assign_replicas(c)?;
        divided = Some(outcome);
        if explained {
            last = Some(placement);
        }
        Ok(())
    });
    cycle.result?;
    let Some(outcome) = divided else {
        return Err(Error::NoCandidates {
            field: "clusters".into(),
        });
    };
    if let Some(r) = report {
        let mut warnings = estimated.warnings;
        capacity_warnings(
            b,
            clusters,
            &estimated.targets,
            &outcome.assignment,
            strategy,
            &mut warnings,
        );
        warnings.extend(
            last.as_ref()
                .and_then(|p| super::quirks::wrapped_sum(p, &outcome.trace)),
        );
        *r = Report {
            targets: estimated.targets,
            pipeline: cycle.report.unwrap_or_default(),
            trace: outcome.trace,
            warnings,
        };
    }
    Ok(Decision {
        random_decided: outcome.seed.is_some(),
        assignment: outcome.assignment,
        observed_affinity: cycle.observed,
        seed,
    })
}

/// What `assignReplicas` divides the candidates by: the binding, its clusters and their
/// estimates, its strategy and static weights.
struct Assigning<'s, 'b> {
    b: &'s Binding<'b>,
    members: super::cluster::Members<'s>,
    available: &'s [i64],
    set: &'s Compiled<'s>,
    strategy: Strategy,
    statics: Option<&'s [StaticWeightRule]>,
    /// The static weight rules matched against the members, when no report is written.
    weighing: Option<&'s [(Affinity<'s>, i64)]>,
    /// Whether the division reads the candidates' facts (to match static weight rules).
    facts: bool,
    seed: u64,
    explained: bool,
}

impl Assigning<'_, '_> {
    /// `assignReplicas` (docs/rules/karmada.md §0-5): the division of the candidates `c`,
    /// with the placement it divided.
    fn assign_replicas(&self, c: &Candidates) -> Result<(Placement, Outcome)> {
        let b = self.b;
        let placement = Placement {
            replicas: b.replicas.unwrap_or(0),
            clusters: c
                .order
                .iter()
                .filter_map(|&(i, tier)| {
                    let t = self.members.get(i)?;
                    let mut cluster = Cluster {
                        name: t.name.clone(),
                        available_replicas: self.available.get(i).copied(),
                        overflow_order: tier,
                        ..Cluster::default()
                    };
                    if self.facts {
                        cluster.labels = t.labels.clone();
                        cluster.provider = t.provider.clone();
                        cluster.region = t.region.clone();
                        cluster.zones = t.zones.clone();
                    }
                    Some(cluster)
                })
                .collect(),
            strategy: self.strategy,
            method: b.method,
            karmada: b.version,
            static_weights: match self.weighing {
                Some(rules) => Some(by_weight(rules, self.set, self.members, &c.order)),
                None => self.statics.map(<[_]>::to_vec),
            },
            previous: b.previous.clone(),
            fresh: b.fresh,
            uid: b.uid.into(),
            seed: Some(self.seed),
            overflow: c.overflow,
            has_replica_requirements: b.has_requirements()
                || !b.components.is_empty()
                || b.replicas.unwrap_or(0) > 0,
            weights_are_cluster_weights: b.static_weights.is_none() && self.statics.is_some(),
            unexplained: !self.explained,
        };
        // The placement's fields are the binding's own (`replicas`, `staticWeights`).
        let outcome = assign(&placement)?;
        Ok((placement, outcome))
    }
}

/// Whether every rule's weight and affinity are as [`static_weight`](super::static_weight)
/// accepts them (else the division reports the first that is not).
fn valid_rules(rules: &[StaticWeightRule]) -> bool {
    rules
        .iter()
        .all(|r| r.weight >= 0 && r.target_cluster.validate().is_ok())
}

/// Each candidate (`order`, positions among `members` and in `set`) weighs the largest weight
/// of the rules (each affinity read against `set`, with its weight) that select it
/// (docs/rules/karmada.md §9): one rule per weight above 0, naming the candidates of that
/// weight, in weight order.
fn by_weight(
    rules: &[(Affinity<'_>, i64)],
    set: &Compiled<'_>,
    members: super::cluster::Members<'_>,
    order: &[(usize, i64)],
) -> Vec<StaticWeightRule> {
    let mut groups: alloc::collections::BTreeMap<i64, Vec<String>> = Default::default();
    for &(i, _) in order {
        let (Some(m), Some(facts)) = (members.get(i), set.cluster(i)) else {
            continue;
        };
        let weight = rules
            .iter()
            .filter(|(a, _)| a.matches(m, &facts))
            .map(|&(_, w)| w)
            .max();
        if let Some(w) = weight.filter(|&w| w > 0) {
            groups.entry(w).or_default().push(m.name.as_str().into());
        }
    }
    groups
        .into_iter()
        .map(|(weight, names)| StaticWeightRule {
            target_cluster: crate::selector::cluster::ClusterAffinity {
                cluster_names: names,
                ..Default::default()
            },
            weight,
        })
        .collect()
}

/// Static weights and Duplicated do not look at capacity: where they exceed it.
fn capacity_warnings(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    estimates: &[TargetEstimate],
    assignment: &[Assigned],
    strategy: Strategy,
    warnings: &mut Vec<Warning>,
) {
    if !matches!(strategy, Strategy::StaticWeight | Strategy::Duplicated) {
        return;
    }
    for a in assignment {
        let Some((i, e)) = clusters
            .position(a.name.as_str())
            .and_then(|i| Some((i, estimates.get(i)?)))
        else {
            continue;
        };
        let prev = b.previous.get(a.name.as_str()).copied().unwrap_or(0).max(0) as u64;
        let more = a.replicas.saturating_sub(prev);
        if matches!(e.source, Source::Estimator { .. })
            && (more as i128) > i128::from(e.available_replicas)
        {
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

/// The decision and its report under each of `seeds` (the binding's own seed ignored): the
/// estimators run once, the division once per seed.
pub fn per_seed(
    b: &Binding<'_>,
    clusters: &Clusters<'_>,
    seeds: core::ops::Range<u64>,
    mut each: impl FnMut(Decision, Report),
) -> Result<()> {
    let estimated = estimates::estimate(b, clusters, Detail::Explained)?;
    let mut unseeded = *b;
    unseeded.seed = None;
    for seed in seeds {
        let mut report = Report::default();
        let d = divide_with(
            &unseeded,
            clusters,
            estimated.clone(),
            seed,
            Some(&mut report),
        )?;
        each(d, report);
    }
    Ok(())
}
