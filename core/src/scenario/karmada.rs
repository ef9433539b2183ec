//! A Karmada scenario (docs/rules/karmada.md §0-15): the scenario lends its binding (policy,
//! workload, previous result and the binding's state) and its clusters to
//! [`crate::karmada::pipeline`], and the decision with its report becomes the outcome. The
//! schedule's errors are located within the binding and its clusters; [`in_scenario`] puts them
//! where the scenario holds each field (`policy.…`, `workload.…`).
//!
//! Every field of the scenario's policy and workload is named in [`binding`], so a new field
//! is a compile error there until it is given to the binding or said to be eru's.

use alloc::boxed::Box;

use super::outcome::{Estimates, KarmadaOutcome};
use super::{Policy, Scenario, Target, Workload, FORMAT_VERSION};
use crate::error::{Error, Path, Result};
use crate::estimate::general::Detail;
use crate::karmada::binding::{Asked, Binding, Placed, Recorded};
use crate::karmada::cluster::Clusters;
use crate::karmada::estimates;
use crate::karmada::pipeline::{self, Decision, Report};
use crate::karmada::scheduler::{Depth, PipelineReport};
use crate::path::Step;

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
    let gates = gates
        .resolve(version)
        .map_err(|e| e.within(&Path::fields("policy.gates")))?;
    let placed = Placed {
        strategy: strategy.as_deref(),
        static_weights: static_weights.as_deref(),
        overflow: *overflow,
        cluster_affinity: cluster_affinity.as_ref(),
        cluster_affinities: cluster_affinities.as_deref(),
        cluster_tolerations,
        spread_constraints,
    };
    let asked = Asked {
        replicas: *replicas,
        requests: requests.as_ref(),
        node_claim: node_claim.as_ref(),
        components,
        priority_class: priority_class.as_deref(),
        api_version: api_version.as_deref(),
        kind: kind.as_deref(),
    };
    let recorded = Recorded {
        previous: &s.previous,
        observed_affinity: &s.observed_affinity,
        graceful_evictions: &s.graceful_evictions,
        fresh: *fresh,
        uid: &s.uid,
    };
    // A scenario holds one binding: no other member of a group to read (fleet.md §31).
    Ok(Binding {
        method: s.method(),
        model_method: s.model_method(),
        estimators: estimators.as_deref(),
        plugins: plugins.as_deref(),
        seed: s.seed,
        ..Binding::new(version, gates, placed, asked, recorded)
    })
}

/// An error of a schedule (located within the binding and its clusters, [`Binding`]) placed
/// where the scenario holds that field (docs/scenario.md): the placement's fields and the
/// reschedule trigger under `policy`, the workload's under `workload`; the clusters, the
/// previous result and the binding's other state sit at the scenario's root.
pub fn in_scenario(e: Error) -> Error {
    let under = match e.field().steps().first() {
        Some(Step::Field(name)) => match name.as_ref() {
            "strategy" | "method" | "staticWeights" | "estimators" | "modelMethod" | "gates"
            | "fresh" | "overflow" | "clusterAffinity" | "clusterAffinities"
            | "clusterTolerations" | "spreadConstraints" | "plugins" => "policy",
            "replicas" | "requests" | "nodeClaim" | "components" | "priorityClass"
            | "apiVersion" | "kind" => "workload",
            _ => return e,
        },
        _ => return e,
    };
    e.within(&Path::fields(under))
}

/// The errors a report of the steps before the division holds, placed as [`in_scenario`] does.
fn report_in_scenario(mut r: PipelineReport) -> PipelineReport {
    r.error = r.error.map(in_scenario);
    for t in &mut r.terms {
        t.error = t.error.take().map(in_scenario);
    }
    r
}

/// The decision alone (no report is built), for the scenario's `clusters`.
pub fn decide(s: &Scenario, clusters: &[Target], drawn_seed: u64) -> Result<Decision> {
    pipeline::schedule(&binding(s)?, &Clusters::new(clusters), drawn_seed).map_err(in_scenario)
}

/// The whole schedule with its report: estimates, the steps before the division, the division.
pub fn schedule(s: &Scenario, clusters: &[Target], drawn_seed: u64) -> Result<KarmadaOutcome> {
    let (d, r) = pipeline::explain(&binding(s)?, &Clusters::new(clusters), drawn_seed)
        .map_err(in_scenario)?;
    Ok(outcome(d, r, s.seed.is_none()))
}

/// The estimator stage alone.
pub fn estimate(s: &Scenario, clusters: &[Target]) -> Result<Estimates> {
    let e = estimates::estimate(&binding(s)?, &Clusters::new(clusters), Detail::Explained)
        .map_err(in_scenario)?;
    Ok(Estimates {
        version: FORMAT_VERSION,
        targets: e.targets,
        warnings: e.warnings,
    })
}

/// The division alone, with each cluster's `availableReplicas` as stated.
pub fn divide(s: &Scenario, clusters: &[Target], drawn_seed: u64) -> Result<KarmadaOutcome> {
    let (d, r) = pipeline::divide(&binding(s)?, &Clusters::new(clusters), drawn_seed)
        .map_err(in_scenario)?;
    Ok(outcome(d, r, s.seed.is_none()))
}

/// The steps before the division alone, to `depth`.
pub fn steps(s: &Scenario, clusters: &[Target], depth: Depth) -> Result<PipelineReport> {
    pipeline::steps(&binding(s)?, &Clusters::new(clusters), depth)
        .map(report_in_scenario)
        .map_err(in_scenario)
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
    .map_err(in_scenario)
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
        pipeline: Box::new(report_in_scenario(r.pipeline)),
        warnings: r.warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    fn at(field: &'static str) -> String {
        let e = Error::Missing {
            field: Path::fields(field),
        };
        in_scenario(e).field().to_string()
    }

    #[test]
    fn a_schedules_errors_are_placed_where_the_scenario_holds_each_field() {
        assert_eq!(at("strategy"), "policy.strategy");
        assert_eq!(at("spreadConstraints"), "policy.spreadConstraints");
        assert_eq!(
            at("clusterAffinities[1].affinityName"),
            "policy.clusterAffinities[1].affinityName"
        );
        assert_eq!(
            at("staticWeights[0].weight"),
            "policy.staticWeights[0].weight"
        );
        assert_eq!(at("replicas"), "workload.replicas");
        assert_eq!(
            at("components[1].nodeClaim"),
            "workload.components[1].nodeClaim"
        );
        assert_eq!(at("clusters[2].weight"), "clusters[2].weight");
        assert_eq!(at("previous.member1"), "previous.member1");
        assert_eq!(at(""), "");
    }

    /// The schedule answers the binding's own field; the scenario's schedule, at the field as
    /// the scenario writes it, in its result and in the report of its steps alike.
    #[test]
    fn the_schedule_names_the_bindings_field_and_the_scenario_its_own() {
        let scenario = |replicas: &str, policy: &str| -> Scenario {
            crate::scenario::from_json(&alloc::format!(
                r#"{{"version": 1, "karmada": "1.17",
                    "clusters": [
                      {{"name": "a", "labels": {{"team": "x"}}, "availableReplicas": 9}},
                      {{"name": "b", "labels": {{"team": "y"}}, "availableReplicas": 9}}],
                    "workload": {{{replicas}}}, "policy": {{{policy}}}}}"#
            ))
            .unwrap()
        };
        let both = |s: &Scenario| {
            let targets = s.clusters.as_deref().unwrap_or_default();
            let own = pipeline::schedule(&binding(s).unwrap(), &Clusters::new(targets), 0)
                .unwrap_err()
                .field()
                .to_string();
            let placed = schedule(s, targets, 0).unwrap_err().field().to_string();
            (own, placed)
        };
        let spread = r#""strategy": "dynamicWeight",
            "spreadConstraints": [{"spreadByLabel": "team", "minGroups": 2, "maxGroups": 2}]"#;
        let s = scenario(r#""replicas": 4"#, spread);
        assert_eq!(
            both(&s),
            (
                "spreadConstraints".into(),
                "policy.spreadConstraints".into()
            )
        );
        let targets = s.clusters.as_deref().unwrap_or_default();
        let report = steps(&s, targets, Depth::Select).unwrap();
        assert_eq!(
            report.error.unwrap().field().to_string(),
            "policy.spreadConstraints"
        );
        assert_eq!(
            both(&scenario(r#""replicas": 4"#, r#""strategy": "nope""#)),
            ("strategy".into(), "policy.strategy".into())
        );
        assert_eq!(
            both(&scenario("", r#""strategy": "aggregated""#)),
            ("replicas".into(), "workload.replicas".into())
        );
        let gate = scenario(
            r#""replicas": 4"#,
            r#""gates": {"schedulingOvercommitProtection": true}"#,
        );
        let e = gate.policy.gates.resolve(gate.karmada).unwrap_err();
        assert_eq!(e.field().to_string(), "schedulingOvercommitProtection");
        let e = binding(&gate).unwrap_err();
        assert_eq!(
            e.field().to_string(),
            "policy.gates.schedulingOvercommitProtection"
        );
    }
}
