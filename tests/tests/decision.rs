//! The decision alone (`scenario::decide`, no report built) is the decision of the whole
//! schedule with its report (`scenario::schedule`): the same replicas on the same clusters,
//! the same observed affinity term, the same seed, or the same error. Checked on every
//! Karmada example and on generated scenarios that use every scheduler field.

use proptest::prelude::*;
use serde_json::{json, Value};

use allot_core::json::from_json;
use allot_core::scenario::{decide, schedule, Outcome, Scenario};

/// Both paths on `s`: equal decisions, or equal errors.
fn same_decision(s: &Scenario) -> Result<(), String> {
    let decided = decide(s, 7);
    let scheduled = schedule(s, 7);
    match (decided, scheduled) {
        (Ok(d), Ok(Outcome::Karmada(k))) => {
            let with_report = (
                &k.assignment,
                k.pipeline.observed_affinity.as_str(),
                k.seed,
                k.random_decided,
            );
            let alone = (
                &d.assignment,
                d.observed_affinity.as_str(),
                d.seed,
                d.random_decided,
            );
            if alone == with_report {
                Ok(())
            } else {
                Err(format!("decided {alone:?}, scheduled {with_report:?}"))
            }
        }
        (Err(a), Err(b)) if a == b => Ok(()),
        (a, b) => Err(format!("decided {a:?}, scheduled {b:?}")),
    }
}

#[test]
fn every_karmada_example_decides_as_it_schedules() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let s: Scenario = from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if s.clusters.is_none() {
            continue;
        }
        if let Err(e) = same_decision(&s) {
            panic!("{}: {e}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} Karmada examples");
}

fn taint(k: u8) -> Value {
    match k {
        0 => json!({"key": "team", "value": "web", "effect": "NoSchedule"}),
        1 => json!({"key": "maintenance", "effect": "NoExecute"}),
        _ => json!({"key": "soft", "value": "x", "effect": "PreferNoSchedule"}),
    }
}

prop_compose! {
    fn cluster(i: usize)(
        region in 0..3u8,
        env in 0..2u8,
        taints in proptest::collection::vec(0..3u8, 0..3),
        deleting in proptest::bool::weighted(0.1),
        available in proptest::option::weighted(0.9, 0..30i64),
        serves in proptest::option::of(any::<bool>()),
    ) -> Value {
        let mut c = json!({
            "name": format!("member{i}"),
            "region": format!("r{region}"),
            "labels": {"env": if env == 0 { "prod" } else { "dev" }},
            "taints": taints.into_iter().map(taint).collect::<Vec<_>>(),
        });
        if deleting {
            c["deleting"] = json!(true);
        }
        if let Some(a) = available {
            c["availableReplicas"] = json!(a);
        }
        if let Some(serves) = serves {
            let kind = if serves { "Deployment" } else { "StatefulSet" };
            c["apiEnablements"] = json!([{"groupVersion": "apps/v1", "kinds": [kind]}]);
        }
        c
    }
}

fn clusters() -> impl Strategy<Value = Vec<Value>> {
    (0..10usize).prop_flat_map(|n| (0..n).map(cluster).collect::<Vec<_>>())
}

prop_compose! {
    fn scenario()(
        clusters in clusters(),
        replicas in 0..40i64,
        strategy in prop_oneof![
            Just("duplicated"), Just("staticWeight"), Just("dynamicWeight"), Just("aggregated")
        ],
        tolerate in proptest::collection::vec(0..3u8, 0..3),
        spread in 0..4u8,
        affinity in 0..3u8,
        previous in proptest::collection::btree_map(0..10usize, 0..10i64, 0..4),
        evicted in proptest::option::weighted(0.2, 0..10usize),
        observed in 0..3u8,
        kind in any::<bool>(),
        fresh in any::<bool>(),
    ) -> Value {
        let mut policy = json!({"strategy": strategy});
        if !tolerate.is_empty() {
            policy["clusterTolerations"] = tolerate
                .into_iter()
                .map(|k| {
                    let t = taint(k);
                    json!({"key": t["key"], "operator": "Exists", "effect": t["effect"]})
                })
                .collect();
        }
        policy["spreadConstraints"] = match spread {
            0 => json!([]),
            1 => json!([{"spreadByField": "cluster", "minGroups": 1, "maxGroups": 3}]),
            2 => json!([{"spreadByField": "region", "minGroups": 1, "maxGroups": 2},
                        {"spreadByField": "cluster", "minGroups": 2, "maxGroups": 5}]),
            _ => json!([{"spreadByField": "region", "minGroups": 2, "maxGroups": 2}]),
        };
        let by_env = |env: &str| json!({"labelSelector": {"matchLabels": {"env": env}}});
        match affinity {
            0 => {}
            1 => policy["clusterAffinity"] = by_env("prod"),
            _ => {
                policy["clusterAffinities"] = json!([
                    {"affinityName": "prod", "affinity": by_env("prod")},
                    {"affinityName": "dev", "affinity": by_env("dev")},
                ]);
            }
        }
        if fresh {
            policy["fresh"] = json!(true);
        }
        let mut workload = json!({"replicas": replicas});
        if kind {
            workload["apiVersion"] = json!("apps/v1");
            workload["kind"] = json!("Deployment");
        }
        let names = clusters.len().max(1);
        let mut s = json!({
            "version": 1, "seed": 3, "clusters": clusters, "workload": workload, "policy": policy,
            "previous": previous
                .into_iter()
                .map(|(i, r)| (format!("member{}", i % names), json!(r)))
                .collect::<serde_json::Map<_, _>>(),
        });
        if let Some(i) = evicted {
            s["gracefulEvictions"] = json!([format!("member{i}")]);
        }
        if observed > 0 {
            s["observedAffinity"] = json!(if observed == 1 { "prod" } else { "dev" });
        }
        s
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_decision_alone_is_the_decision_with_its_report(doc in scenario()) {
        let s: Scenario = from_json(&doc.to_string()).unwrap();
        prop_assert_eq!(same_decision(&s), Ok(()), "{}", doc);
    }
}

prop_compose! {
    /// A generated scenario divided by static weight rules: by label, by region (a field), by
    /// name, a rule for every cluster, weights of 0, and an invalid rule.
    fn weighted()(doc in scenario(), rules in 0..5u8) -> Value {
        let mut doc = doc;
        let rule = |target: Value, weight: i64| json!({"targetCluster": target, "weight": weight});
        let list = match rules {
            0 => json!([rule(json!({"labelSelector": {"matchLabels": {"env": "prod"}}}), 2),
                        rule(json!({"fieldSelector": {"matchExpressions": [
                            {"key": "region", "operator": "In", "values": ["r0", "r1"]}]}}), 1)]),
            1 => json!([rule(json!({"clusterNames": ["member1", "member3"]}), 3),
                        rule(json!({}), 1)]),
            2 => json!([rule(json!({"labelSelector": {"matchLabels": {"env": "dev"}}}), 0),
                        rule(json!({"fieldSelector": {"matchExpressions": [
                            {"key": "region", "operator": "NotIn", "values": ["r2"]}]}}), 5)]),
            3 => json!([rule(json!({"exclude": ["member0"]}), 4),
                        rule(json!({"clusterNames": ["member2"]}), 7)]),
            _ => json!([rule(json!({"labelSelector": {"matchExpressions": [
                            {"key": "env", "operator": "Wrong"}]}}), 1)]),
        };
        doc["policy"]["strategy"] = json!("staticWeight");
        doc["policy"]["staticWeights"] = list;
        doc
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    // Without a report, the rules are matched against the clusters before the division; with
    // it, by the division: the same weights.
    #[test]
    fn static_weights_decide_alone_as_with_their_report(doc in weighted()) {
        let s: Scenario = from_json(&doc.to_string()).unwrap();
        prop_assert_eq!(same_decision(&s), Ok(()), "{}", doc);
    }
}

/// A cluster set compiled once serves bindings of the same needs and different replicas as a
/// set compiled for each (the set remembers the estimates of the last one).
#[test]
fn one_set_serves_bindings_of_different_replicas_as_fresh_sets() {
    use allot_core::karmada::cluster::Clusters;
    use allot_core::karmada::pipeline;
    use allot_core::scenario::karmada::binding;

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples/general-estimator-500m.json");
    let s: Scenario = from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut members = s.clusters.clone().unwrap();
    // A cluster no estimator answers for counts the requested replicas.
    members.push(allot_core::karmada::cluster::Member {
        name: "member4".into(),
        ..members[0].clone()
    });
    members[3].resource_summary = None;
    let shared = Clusters::new(&members);
    for replicas in [3, 9, 3, 30, 0, 9] {
        let mut each = s.clone();
        each.workload.replicas = Some(replicas);
        let b = binding(&each).unwrap();
        let alone = pipeline::schedule(&b, &Clusters::new(&members), 7);
        assert_eq!(
            pipeline::schedule(&b, &shared, 7),
            alone,
            "{replicas} replicas"
        );
    }
}

/// The generated scenarios reach both answers: decisions, and scheduling failures.
#[test]
fn generated_scenarios_decide_and_fail() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut decided, mut failed) = (0, 0);
    for _ in 0..300 {
        let doc = scenario().new_tree(&mut runner).unwrap().current();
        let s: Scenario = from_json(&doc.to_string()).unwrap();
        match decide(&s, 7) {
            Ok(d) if !d.assignment.is_empty() => decided += 1,
            Ok(_) => {}
            Err(_) => failed += 1,
        }
    }
    assert!(
        decided >= 60 && failed >= 30,
        "{decided} decided, {failed} failed"
    );
}

/// A cluster set compiled once serves binding after binding; replacing one cluster's capacity
/// (its summary) changes the next decision as a set built with that summary decides.
#[test]
fn a_capacity_update_changes_the_next_decision() {
    use allot_core::estimate::general::ResourceSummary;
    use allot_core::karmada::cluster::Clusters;
    use allot_core::karmada::pipeline;
    use allot_core::scenario::karmada::binding;

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/examples/general-estimator-500m.json");
    let s: Scenario = from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let b = binding(&s).unwrap();
    let members = s.clusters.clone().unwrap();
    let mut clusters = Clusters::new(&members);
    let before = pipeline::schedule(&b, &clusters, 7).unwrap();
    assert_eq!(before.assignment, decide(&s, 7).unwrap().assignment);
    // member3 gets free pod slots: (4 - 0) / 0.5 = 8 replicas, the most of the three.
    let freed: ResourceSummary = from_json(
        &json!({"allocatable": {"cpu": "4", "memory": "16265856Ki", "pods": "110"},
                "allocated": {"pods": "0"}})
        .to_string(),
    )
    .unwrap();
    clusters.set_summary(2, Some(&freed)).unwrap();
    let after = pipeline::schedule(&b, &clusters, 7).unwrap();
    assert_ne!(after.assignment, before.assignment);
    let mut rebuilt = s.clone();
    if let Some(c) = rebuilt.clusters.as_mut().and_then(|c| c.get_mut(2)) {
        c.resource_summary = Some(freed);
    }
    assert_eq!(after.assignment, decide(&rebuilt, 7).unwrap().assignment);
    assert!(clusters.set_summary(3, None).is_err());
}
