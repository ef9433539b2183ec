//! The entry of Karmada's replica assignment (docs/rules/karmada.md §0): validation, non-workloads,
//! the strategy, overflow tiers, and dropping zero entries.

use crate::Name;
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::{
    duplicated, dynamic, explain, static_weight, Assigned, DropReason, Dropped, Outcome, Placement,
    Strategy, TierTrace, Trace,
};
use crate::error::non_negative;
use crate::error::{Error, Path, Result, MAX_REPLICAS, MAX_TARGETS};
use crate::names::NameIndex;

/// A validated candidate: replicas it can take (`alloc`, negative where Karmada's estimate
/// is: docs/rules/versions.md "Resource models") and holds (`prev`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Candidate<'a> {
    pub name: &'a str,
    pub alloc: i64,
    pub prev: u64,
}

/// What the strategies share while one assignment runs.
pub(crate) struct Run<'a> {
    pub placement: &'a Placement,
    pub candidates: Vec<Candidate<'a>>,
    /// Before Karmada 1.17, the previous clusters that are no longer candidates, in name order:
    /// a dynamic scale-down divides among them too (docs/rules/versions.md "Scale-down").
    /// Index `candidates.len() + k` names `ghosts[k]`.
    pub ghosts: Vec<Candidate<'a>>,
    /// Static weights per candidate after rule matching (static strategy only).
    pub weights: Vec<u64>,
    pub seed: u64,
    pub trace: Trace,
}

/// Assign `placement.replicas` among its clusters; errors name the placement's own fields,
/// and the caller that read the placement elsewhere places them there.
pub fn assign(placement: &Placement) -> Result<Outcome> {
    let (replicas, by_name) = validate(placement)?;
    let candidates = candidates(placement, &by_name, replicas)?;
    let ghosts = if placement.karmada.scales_down_among_candidates() {
        Vec::new()
    } else {
        placement
            .previous
            .iter()
            .filter(|&(name, _)| !by_name.contains(name))
            .map(|(name, &r)| Candidate {
                name,
                alloc: 0,
                prev: r as u64,
            })
            .collect()
    };
    let mut run = Run {
        placement,
        candidates,
        ghosts,
        weights: Vec::new(),
        seed: placement.seed.unwrap_or(0),
        trace: Trace::default(),
    };
    for (name, _) in placement.previous.iter().filter(|(_, &r)| r > 0) {
        if !by_name.contains(name) {
            run.trace.dropped.push(Dropped {
                cluster: name.as_str().into(),
                reason: DropReason::NoLongerCandidate,
            });
        }
    }
    if replicas == 0 && !placement.has_replica_requirements {
        // A non-workload: every candidate, 0 replicas.
        let assignment = run
            .candidates
            .iter()
            .map(|c| Assigned {
                name: c.name.into(),
                replicas: 0,
            })
            .collect();
        if !placement.unexplained {
            run.trace.explanation = explain::explain(placement, &run.trace);
        }
        return Ok(Outcome {
            assignment,
            seed: None,
            trace: run.trace,
        });
    }
    if placement.strategy == Strategy::StaticWeight {
        run.weights = static_weight::weights(&mut run)?;
    }
    let all: Vec<usize> = (0..run.candidates.len()).collect();
    let mut totals = alloc::vec![0u64; run.candidates.len() + run.ghosts.len()];
    if placement.overflow {
        let mut tiers: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for (i, c) in placement.clusters.iter().enumerate() {
            tiers.entry(c.overflow_order).or_default().push(i);
        }
        let mut remaining = replicas;
        for (order, tier) in tiers {
            if remaining == 0 {
                break;
            }
            let capacity: u64 = tier
                .iter()
                .map(|&i| {
                    (run.candidates[i].alloc.max(0) as u64).saturating_add(run.candidates[i].prev)
                })
                .fold(0u64, u64::saturating_add);
            let n = remaining.min(capacity);
            run.trace.tiers.push(TierTrace {
                order,
                clusters: tier
                    .iter()
                    .map(|&i| Name::from(run.candidates[i].name))
                    .collect(),
                capacity,
                replicas: n,
            });
            if n == 0 {
                continue;
            }
            for (i, r) in strategy(&mut run, &tier, n)? {
                totals[i] += r;
            }
            remaining -= n;
        }
        if remaining > 0 {
            return Err(Error::Unschedulable {
                field: "replicas".into(),
                requested: replicas,
                available: (replicas - remaining) as i64,
            });
        }
    } else {
        for (i, r) in strategy(&mut run, &all, replicas)? {
            totals[i] += r;
        }
    }
    let already = NameIndex::new(run.trace.dropped.iter().map(|d| d.cluster.as_str()));
    let mut assignment = Vec::new();
    let mut zero = Vec::new();
    for (c, &r) in run.candidates.iter().zip(&totals) {
        if r > 0 {
            assignment.push(Assigned {
                name: c.name.into(),
                replicas: r,
            });
        } else if !already.contains(c.name) {
            zero.push(Dropped {
                cluster: c.name.into(),
                reason: DropReason::ZeroReplicas,
            });
        }
    }
    drop(already);
    for (g, &r) in run.ghosts.iter().zip(&totals[run.candidates.len()..]) {
        if r > 0 {
            assignment.push(Assigned {
                name: g.name.into(),
                replicas: r,
            });
            run.trace.dropped.retain(|d| d.cluster.as_str() != g.name);
        }
    }
    run.trace.dropped.append(&mut zero);
    let random = run.trace.divisions.iter().any(|d| d.random_decided);
    if !placement.unexplained {
        run.trace.explanation = explain::explain(placement, &run.trace);
    }
    Ok(Outcome {
        assignment,
        seed: random.then_some(run.seed),
        trace: run.trace,
    })
}

/// Run the placement's strategy on `tier` (candidate indices) with `replicas`; returns
/// `(candidate index, replicas)` pairs, zero entries included.
pub(crate) fn strategy(
    run: &mut Run<'_>,
    tier: &[usize],
    replicas: u64,
) -> Result<Vec<(usize, u64)>> {
    match run.placement.strategy {
        Strategy::Duplicated => Ok(duplicated::run(tier, replicas)),
        Strategy::StaticWeight => static_weight::run(run, tier, replicas),
        Strategy::DynamicWeight => dynamic::run(run, tier, replicas, false),
        Strategy::Aggregated => dynamic::run(run, tier, replicas, true),
    }
}

/// The replicas, and the clusters' positions by name (their names checked unique).
fn validate(placement: &Placement) -> Result<(u64, NameIndex<'_>)> {
    let replicas = non_negative(placement.replicas, || "replicas".into())?;
    if replicas > MAX_REPLICAS {
        return Err(Error::TooLarge {
            field: "replicas".into(),
            limit: MAX_REPLICAS,
        });
    }
    if placement.clusters.is_empty() {
        return Err(Error::NoCandidates {
            field: "clusters".into(),
        });
    }
    if placement.clusters.len() > MAX_TARGETS {
        return Err(Error::TooLarge {
            field: "clusters".into(),
            limit: MAX_TARGETS as u64,
        });
    }
    let by_name = NameIndex::unique(
        placement.clusters.iter().map(|c| c.name.as_str()),
        "clusters",
    )?;
    let mut placed: u64 = 0;
    for (name, &r) in &placement.previous {
        placed = placed.saturating_add(non_negative(r, || {
            Path::fields("previous").field(name.clone())
        })?);
    }
    if placed > MAX_REPLICAS {
        return Err(Error::TooLarge {
            field: "previous".into(),
            limit: MAX_REPLICAS,
        });
    }
    Ok((replicas, by_name))
}

/// The clusters as candidates; `by_name` finds each one's previous replicas (one lookup per
/// previous entry, not a search of the previous result per cluster).
fn candidates<'p>(
    placement: &'p Placement,
    by_name: &NameIndex<'_>,
    replicas: u64,
) -> Result<Vec<Candidate<'p>>> {
    let mut prev = alloc::vec![0u64; placement.clusters.len()];
    for (name, &r) in &placement.previous {
        if let Some(p) = by_name.get(name).and_then(|i| prev.get_mut(i)) {
            *p = r.max(0) as u64;
        }
    }
    placement
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let alloc = match c.available_replicas {
                // No estimator answered: the requested replicas (§11 step 3).
                None => replicas as i64,
                // A negative figure is Karmada's own (a wrapped estimate); it counts as it is in
                // Karmada's sums and order.
                Some(a) => a.clamp(i64::from(i32::MIN), MAX_REPLICAS as i64),
            };
            Ok(Candidate {
                name: &c.name,
                alloc,
                prev: prev[i],
            })
        })
        .collect()
}
