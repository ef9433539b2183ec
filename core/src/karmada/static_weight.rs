//! Divided by static weights (docs/rules/karmada.md §3, §5, §9): each cluster weighs the maximum
//! weight of the rules that select it; clusters no rule selects get nothing; with no rule at all
//! every cluster weighs 1. Webster ignores the previous result; the floor-plus-remainder methods
//! use it as the inertia key.

use alloc::vec::Vec;

use super::assign::Run;
use super::{DropReason, Dropped, WeightTrace};
use crate::division::method::{divide_named, Input};
use crate::error::non_negative;
use crate::error::{indexed, Error, Result, MAX_WEIGHT};
use crate::names::NameIndex;

/// Each candidate's weight after rule matching (0: no rule selects it); fills the trace.
pub(crate) fn weights(run: &mut Run<'_>) -> Result<Vec<u64>> {
    let n = run.candidates.len();
    let zones = run.placement.karmada.zone_in();
    let mut weights = alloc::vec![0u64; n];
    let mut matched: Vec<Vec<usize>> = alloc::vec![Vec::new(); n];
    match &run.placement.static_weights {
        None => weights.iter_mut().for_each(|w| *w = 1),
        Some(rules) => {
            let by_name = NameIndex::new(run.candidates.iter().map(|c| c.name));
            for (r, rule) in rules.iter().enumerate() {
                // Paths are built only on error: this loop runs once per rule.
                let field = || indexed("staticWeights", r);
                let weight = non_negative(rule.weight, || field().field("weight"))?;
                if weight > MAX_WEIGHT {
                    return Err(Error::TooLarge {
                        field: field().field("weight"),
                        limit: MAX_WEIGHT,
                    });
                }
                let affinity = &rule.target_cluster;
                affinity
                    .validate()
                    .map_err(|e| e.within(&field().field("targetCluster")))?;
                let mut consider = |i: usize| {
                    if affinity.matches_validated(&run.placement.clusters[i].facts(), zones) {
                        weights[i] = weights[i].max(weight);
                        matched[i].push(r);
                    }
                };
                if affinity.cluster_names.is_empty() {
                    (0..n).for_each(&mut consider);
                } else {
                    // Only the named clusters can match: look them up instead of scanning.
                    let mut named: Vec<usize> = affinity
                        .cluster_names
                        .iter()
                        .filter_map(|name| by_name.get(name.as_str()))
                        .collect();
                    crate::order::sort_indices_by_key(&mut named, |i| i);
                    named.dedup();
                    named.into_iter().for_each(&mut consider);
                }
            }
        }
    }
    run.trace.weights = run
        .candidates
        .iter()
        .zip(&weights)
        .zip(matched)
        .map(|((c, &weight), rules)| WeightTrace {
            cluster: c.name.into(),
            weight,
            rules,
        })
        .collect();
    Ok(weights)
}

/// Divide `replicas` over the tier's weighted clusters; zero entries kept for weighted clusters.
pub(crate) fn run(run: &mut Run<'_>, tier: &[usize], replicas: u64) -> Result<Vec<(usize, u64)>> {
    let mut kept: Vec<usize> = tier
        .iter()
        .copied()
        .filter(|&i| run.weights[i] > 0)
        .collect();
    let uniform = kept.is_empty();
    if uniform {
        // No weight anywhere: every candidate weighs 1.
        kept = tier.to_vec();
    } else {
        for &i in tier.iter().filter(|&&i| run.weights[i] == 0) {
            run.trace.dropped.push(Dropped {
                cluster: run.candidates[i].name.into(),
                reason: DropReason::NoMatchingRule,
            });
        }
    }
    let inputs: Vec<Input<'_>> = kept
        .iter()
        .map(|&i| Input {
            name: run.candidates[i].name,
            weight: if uniform { 1 } else { run.weights[i] },
            initial: 0,
            last: run.candidates[i].prev,
        })
        .collect();
    let p = run.placement;
    let (result, trace) = divide_named(p.method, replicas, &inputs, &p.uid, run.seed)?;
    run.trace.divisions.push(trace);
    Ok(kept.into_iter().zip(result).collect())
}
