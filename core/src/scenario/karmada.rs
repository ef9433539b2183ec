//! A Karmada scenario (docs/rules/karmada.md §0-15): the scenario lends its binding (policy,
//! workload, previous result and the binding's state) and its clusters to
//! [`crate::karmada::pipeline`], and the decision with its report becomes the outcome.
//!
//! Every field of the scenario's policy and workload is named in [`binding`], so a new field
//! is a compile error there until it is given to the binding or said to be eru's.

use alloc::boxed::Box;

use super::outcome::{Estimates, KarmadaOutcome};
use super::{Policy, Scenario, Target, Workload, FORMAT_VERSION};
use crate::error::Result;
use crate::estimate::general::Detail;
use crate::karmada::binding::Binding;
use crate::karmada::cluster::Clusters;
use crate::karmada::estimates;
use crate::karmada::pipeline::{self, Decision, Report};
use crate::karmada::scheduler::{Depth, PipelineReport};

/// The binding the scenario describes, under the scenario's Karmada release: what the policy
/// leaves out (method, model method, gates) is the release's (docs/rules/versions.md).
pub fn binding(s: &Scenario) -> Result<Binding<'_>> {
    let Policy {
        strategy,
        method: _,
        static_weights,
        estimators,
        model_method: _,
        gates,
        fresh,
        overflow,
        cluster_affinity,
        cluster_affinities,
        cluster_tolerations,
        spread_constraints,
        plugins,
        // eru's.
        nodes_limit: _,
        cpumem: _,
        max_deploy_count: _,
    } = &s.policy;
    let Workload {
        replicas,
        requests,
        node_claim,
        components,
        priority_class,
        api_version,
        kind,
        // eru's.
        count: _,
        limits: _,
        cpu_bind: _,
        volumes: _,
        gpus: _,
    } = &s.workload;
    let version = s.karmada;
    Ok(Binding {
        version,
        strategy: strategy.as_deref(),
        method: s.method(),
        static_weights: static_weights.as_deref(),
        estimators: estimators.as_deref(),
        model_method: s.model_method(),
        gates: gates.resolve(version)?,
        overflow: *overflow,
        cluster_affinity: cluster_affinity.as_ref(),
        cluster_affinities: cluster_affinities.as_deref(),
        cluster_tolerations,
        spread_constraints,
        plugins: plugins.as_deref(),
        replicas: *replicas,
        requests: requests.as_ref(),
        node_claim: node_claim.as_ref(),
        components,
        priority_class: priority_class.as_deref(),
        api_version: api_version.as_deref(),
        kind: kind.as_deref(),
        previous: &s.previous,
        observed_affinity: &s.observed_affinity,
        graceful_evictions: &s.graceful_evictions,
        fresh: *fresh,
        uid: &s.uid,
        seed: s.seed,
        // A scenario holds one binding: no other member of a group to read (fleet.md §31).
        workload_groups: None,
    })
}

/// The decision alone (no report is built), for the scenario's `clusters`.
pub fn decide(s: &Scenario, clusters: &[Target], drawn_seed: u64) -> Result<Decision> {
    pipeline::schedule(&binding(s)?, &Clusters::new(clusters), drawn_seed)
}

/// The whole schedule with its report: estimates, the steps before the division, the division.
pub fn schedule(s: &Scenario, clusters: &[Target], drawn_seed: u64) -> Result<KarmadaOutcome> {
    let (d, r) = pipeline::explain(&binding(s)?, &Clusters::new(clusters), drawn_seed)?;
    Ok(outcome(d, r, s.seed.is_none()))
}

/// The estimator stage alone.
pub fn estimate(s: &Scenario, clusters: &[Target]) -> Result<Estimates> {
    let e = estimates::estimate(&binding(s)?, &Clusters::new(clusters), Detail::Explained)?;
    Ok(Estimates {
        version: FORMAT_VERSION,
        targets: e.targets,
        warnings: e.warnings,
    })
}

/// The division alone, with each cluster's `availableReplicas` as stated.
pub fn divide(s: &Scenario, clusters: &[Target], drawn_seed: u64) -> Result<KarmadaOutcome> {
    let (d, r) = pipeline::divide(&binding(s)?, &Clusters::new(clusters), drawn_seed)?;
    Ok(outcome(d, r, s.seed.is_none()))
}

/// The steps before the division alone, to `depth`.
pub fn steps(s: &Scenario, clusters: &[Target], depth: Depth) -> Result<PipelineReport> {
    pipeline::steps(&binding(s)?, &Clusters::new(clusters), depth)
}

/// The schedule under each of `seeds` (the scenario's own seed ignored).
pub(crate) fn per_seed(
    s: &Scenario,
    clusters: &[Target],
    seeds: core::ops::Range<u64>,
    mut each: impl FnMut(KarmadaOutcome),
) -> Result<()> {
    let clusters = Clusters::new(clusters);
    pipeline::per_seed(&binding(s)?, &clusters, seeds, |d, r| {
        each(outcome(d, r, true));
    })
}

fn outcome(d: Decision, r: Report, seed_drawn: bool) -> KarmadaOutcome {
    KarmadaOutcome {
        version: FORMAT_VERSION,
        assignment: d.assignment,
        targets: r.targets,
        seed: d.seed,
        seed_drawn,
        random_decided: d.random_decided,
        trace: r.trace,
        pipeline: Box::new(r.pipeline),
        warnings: r.warnings,
    }
}
