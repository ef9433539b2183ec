//! Export, then import: a Karmada scenario with every field of its clusters, workload and policy
//! set becomes objects (`scenario::export`, written as JSON text and read again) and a
//! scenario again (`kubernetes::import`, with each member's nodes and pods), and it is the
//! same scenario, but for the fields [`UNCARRIED`] names: objects have no place for them, and
//! the export says so, field for field.

use std::collections::BTreeSet;

use allot_core::json::{from_json, to_json_bytes};
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Objects;
use allot_core::scenario::export::export;
use allot_core::scenario::objects::import;
use allot_core::scenario::Scenario;
use allot_tests::reimport::{reimport, text};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{json, Map, Value};

/// The fields no object holds, and why; `clusters[].f` is every cluster's `f`. The export lists
/// exactly these (`unexpressed`) when they are set.
const UNCARRIED: &[(&str, &str)] = &[
    ("title", "notes for people"),
    ("description", "notes for people"),
    ("seed", "Karmada's random draws are not seeded"),
    (
        "karmada",
        "the release the objects come from: the import is told it",
    ),
    (
        "policy.method",
        "an allot what-if: Karmada has one division method",
    ),
    (
        "policy.modelMethod",
        "an allot what-if: Karmada has one model estimate",
    ),
    (
        "policy.overflow",
        "an allot what-if: tiers of stated overflowOrders",
    ),
    (
        "policy.estimators",
        "the scheduler's estimator flags, not an object",
    ),
    (
        "policy.gates",
        "the scheduler's --feature-gates, not an object",
    ),
    ("policy.plugins", "the scheduler's --plugins, not an object"),
    (
        "workload.components",
        "needs a resource interpreter customization",
    ),
    (
        "workload.priorityClass",
        "read from the member's PriorityClass",
    ),
    (
        "clusters[].availableReplicas",
        "an estimator's answer, not an object field",
    ),
    (
        "clusters[].overflowOrder",
        "an allot what-if, with policy.overflow",
    ),
    (
        "clusters[].resourceQuotas",
        "the member's ResourceQuotas are not exported",
    ),
    ("clusters[].assumed", "the estimator's in-memory state"),
    (
        "workload.count",
        "eru's: a Karmada scenario does not read it",
    ),
    (
        "workload.limits",
        "eru's: a Karmada scenario does not read it",
    ),
    (
        "workload.cpuBind",
        "eru's: a Karmada scenario does not read it",
    ),
    (
        "workload.volumes",
        "eru's: a Karmada scenario does not read it",
    ),
    (
        "workload.gpus",
        "eru's: a Karmada scenario does not read it",
    ),
    (
        "policy.nodesLimit",
        "eru's: a Karmada scenario does not read it",
    ),
    (
        "policy.cpumem",
        "eru's: a Karmada scenario does not read it",
    ),
    (
        "policy.maxDeployCount",
        "eru's: a Karmada scenario does not read it",
    ),
];

/// Uncarried with any strategy but `staticWeight`: the others have no weight list.
const WEIGHTS: (&str, &str) = (
    "policy.staticWeights",
    "only the staticWeight strategy divides by them",
);

/// The fields `doc` sets that objects cannot hold.
fn uncarried(doc: &Value) -> Vec<&'static str> {
    let mut fields: Vec<&str> = UNCARRIED.iter().map(|(f, _)| *f).collect();
    if doc["policy"]["strategy"] != "staticWeight" {
        fields.push(WEIGHTS.0);
    }
    fields
}

fn pick(options: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::sample::select(options).prop_map(String::from)
}

fn cpu() -> impl Strategy<Value = String> {
    (1u32..16, any::<bool>()).prop_map(|(n, milli)| {
        if milli {
            format!("{}m", n * 250)
        } else {
            n.to_string()
        }
    })
}

fn resources() -> impl Strategy<Value = Value> {
    (cpu(), 1u32..64, 1u32..200)
        .prop_map(|(c, gi, pods)| json!({"cpu": c, "memory": format!("{gi}Gi"), "pods": pods}))
}

fn labels() -> impl Strategy<Value = Value> {
    proptest::collection::btree_map(pick(&["env", "team", "tier"]), pick(&["a", "b"]), 1..3)
        .prop_map(|m| json!(m))
}

fn taint() -> impl Strategy<Value = Value> {
    (
        pick(&["dedicated", "spot"]),
        pick(&["", "gpu"]),
        pick(&["NoSchedule", "NoExecute", "PreferNoSchedule"]),
    )
        .prop_map(|(key, value, effect)| json!({"key": key, "value": value, "effect": effect}))
}

fn requirement(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    (pick(keys), pick(&["In", "NotIn"]), pick(&["a", "r1", "m0"])).prop_map(
        |(key, operator, value)| json!({"key": key, "operator": operator, "values": [value]}),
    )
}

fn affinity() -> impl Strategy<Value = Value> {
    (
        proptest::collection::vec(pick(&["m0", "m1", "m2"]), 1..3),
        proptest::collection::vec(pick(&["m2", "x"]), 1..2),
        labels(),
        requirement(&["env", "team"]),
        requirement(&["provider", "region", "zone"]),
    )
        .prop_map(|(names, exclude, match_labels, expression, field)| {
            json!({"clusterNames": names, "exclude": exclude,
                   "labelSelector": {"matchLabels": match_labels, "matchExpressions": [expression]},
                   "fieldSelector": {"matchExpressions": [field]}})
        })
}

fn toleration() -> impl Strategy<Value = Value> {
    (
        pick(&["dedicated", "spot"]),
        prop_oneof![
            Just(("Equal", "gpu")),
            Just(("Exists", "")),
        ],
        pick(&["NoSchedule", "NoExecute"]),
    )
        .prop_map(|(key, (operator, value), effect)| {
            json!({"key": key, "operator": operator, "value": value, "effect": effect})
        })
}

fn node_claim() -> impl Strategy<Value = Value> {
    (labels(), requirement(&["env"]), toleration()).prop_map(|(selector, expression, t)| {
        json!({"nodeSelector": selector,
               "hardNodeAffinity": {"nodeSelectorTerms": [{
                   "matchExpressions": [expression],
                   "matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n0"]}]}]},
               "tolerations": [t]})
    })
}

/// A cluster named `name` with every field set.
fn cluster(name: String) -> impl Strategy<Value = Value> {
    let state = (
        (resources(), resources(), resources(), 0u64..4, 0u64..4),
        (labels(), taint(), any::<bool>(), resources()),
        (
            pick(&["Running", "Pending", "Succeeded"]),
            cpu(),
            cpu(),
            cpu(),
            cpu(),
        ),
    );
    let facts = (
        labels(),
        pick(&["aws", "gcp"]),
        pick(&["r1", "r2"]),
        proptest::collection::vec(pick(&["z1", "z2", "z3"]), 1..3),
        (1i64..10, 1i64..4, 0i64..20),
        proptest::collection::vec(taint(), 1..3),
        (pick(&["apps/v1", "batch/v1"]), any::<bool>(), any::<bool>()),
    );
    (Just(name), state, facts).prop_map(|(name, state, facts)| {
        let ((allocatable, allocated, allocating, g0, g1), node, pod) = state;
        let (labels, provider, region, zones, (weight, tier, available), taints, api) = facts;
        let (node_labels, node_taint, unschedulable, node_allocatable) = node;
        let (phase, requests, container, init, overhead) = pod;
        let node_name = format!("{name}-n0");
        json!({
            "name": name, "labels": labels, "provider": provider, "region": region,
            "zones": zones, "weight": weight, "overflowOrder": tier, "availableReplicas": available,
            "resourceSummary": {"allocatable": allocatable, "allocated": allocated,
                                "allocating": allocating,
                                "allocatableModelings": [{"grade": 0, "count": g0},
                                                         {"grade": 1, "count": g1}]},
            "resourceModels": [
                {"grade": 0, "ranges": [{"name": "cpu", "min": "0", "max": "4"},
                                        {"name": "memory", "min": "0", "max": "16Gi"}]},
                {"grade": 1, "ranges": [{"name": "cpu", "min": "4", "max": "64"},
                                        {"name": "memory", "min": "16Gi", "max": "256Gi"}]}],
            "nodes": [{"name": node_name, "labels": node_labels, "taints": [node_taint],
                       "unschedulable": unschedulable, "allocatable": node_allocatable}],
            "pods": [{"name": format!("{name}-p0"), "nodeName": node_name, "phase": phase,
                      "requests": {"cpu": requests}, "containers": [{"requests": {"cpu": container}}],
                      "initContainers": [{"requests": {"cpu": init}}], "overhead": {"cpu": overhead}}],
            "resourceQuotas": [{"name": "q", "hard": {"cpu": "8"}, "used": {"cpu": "1"},
                                "scopes": ["NotBestEffort"],
                                "scopeSelector": [{"scopeName": "PriorityClass", "operator": "In",
                                                   "values": ["high"]}]}],
            "assumed": [{"namespace": "default",
                         "components": [{"name": "c", "replicas": 1, "requests": {"cpu": "1"}}]}],
            "taints": taints,
            "apiEnablements": [{"groupVersion": api.0, "kinds": ["Deployment", "Job"]}],
            "completeApiEnablements": api.1,
            "deleting": api.2,
        })
    })
}

/// A Karmada scenario with every field of its clusters, workload and policy set (and of the
/// top level).
fn scenario() -> impl Strategy<Value = Value> {
    let clusters =
        (1usize..4).prop_flat_map(|n| (0..n).map(|i| cluster(format!("m{i}"))).collect::<Vec<_>>());
    let workload = (
        0i64..50,
        resources(),
        node_claim(),
        prop_oneof![
            Just(("apps/v1", "Deployment")),
            Just(("apps/v1", "StatefulSet")),
            Just(("batch/v1", "Job")),
        ],
    )
        .prop_map(|(replicas, requests, claim, (api, kind))| {
            json!({"replicas": replicas, "requests": requests, "nodeClaim": claim,
                   "components": [{"name": "c", "replicas": 1, "requests": {"cpu": "1"}}],
                   "priorityClass": "high", "apiVersion": api, "kind": kind,
                   "count": 2, "limits": {"cpu": "1"}, "cpuBind": true,
                   "volumes": ["AUTO:/data:rw:1Gi"], "gpus": {"nvidia-3090": 2}})
        });
    let terms = (affinity(), affinity()).prop_map(|(a, o)| {
        json!([{"affinityName": "first", "affinity": a,
                "overflowAffinities": [{"affinityName": "spill", "affinity": o}]},
               {"affinityName": "second", "affinity": {"clusterNames": ["m0"]}}])
    });
    let policy = (
        (
            pick(&["staticWeight", "dynamicWeight", "aggregated", "duplicated"]),
            // The defaults of these uncarried fields would leave them unset.
            pick(&["remainder", "name-order"]),
            Just("gradeFormula".to_string()),
            any::<bool>(),
        ),
        (affinity(), terms, toleration(), affinity(), 1i64..5),
        (
            pick(&["cluster", "region", "zone", "provider"]),
            1u32..3,
            0u32..3,
        ),
    )
        .prop_map(|(kinds, rules, spread)| {
            let (strategy, method, model_method, fresh) = kinds;
            let (affinity, terms, toleration, rule, weight) = rules;
            let (field, min, extra) = spread;
            json!({"strategy": strategy, "method": method, "modelMethod": model_method,
                   "staticWeights": [{"targetCluster": rule, "weight": weight}],
                   "estimators": ["general", "accurate"],
                   "gates": {"schedulingOvercommitProtection": true,
                             "customizedClusterResourceModeling": false,
                             "multiplePodTemplatesScheduling": true},
                   "fresh": fresh, "overflow": true,
                   "clusterAffinity": affinity, "clusterAffinities": terms,
                   "clusterTolerations": [toleration],
                   "spreadConstraints": [{"spreadByField": field, "minGroups": min,
                                          "maxGroups": min + extra},
                                         {"spreadByLabel": "team", "minGroups": 1, "maxGroups": 1}],
                   "plugins": ["*", "-ClusterEviction"],
                   "nodesLimit": 1, "cpumem": {"shareBase": 100, "maxShare": 2},
                   "maxDeployCount": 5})
        });
    (clusters, workload, policy, any::<bool>(), 0u64..1000).prop_map(
        |(clusters, workload, mut policy, weights_on_clusters, seed)| {
            let mut clusters = clusters;
            // A scenario states weights on its clusters or as rules, not both; cluster weights
            // go with the staticWeight strategy only.
            if weights_on_clusters && policy["strategy"] == "staticWeight" {
                policy.as_object_mut().unwrap().remove("staticWeights");
            } else {
                for c in &mut clusters {
                    c.as_object_mut().unwrap().remove("weight");
                }
            }
            let names: Vec<Value> = clusters.iter().map(|c| c["name"].clone()).collect();
            // 1.18 divides and reads models as the newest release does, and has every gate.
            json!({"version": 1, "title": "every field", "description": "set", "karmada": "1.18",
                   "clusters": clusters, "workload": workload, "policy": policy,
                   "previous": {names[0].as_str().unwrap(): 1},
                   "seed": seed, "uid": "5f1e-77", "observedAffinity": "first",
                   "gracefulEvictions": [names[names.len() - 1]]})
        },
    )
}

/// A scenario as its JSON value, as allot writes it (defaults written out alike).
fn written(s: &Scenario) -> Value {
    serde_json::from_slice(&to_json_bytes(s).unwrap()).unwrap()
}

/// The scenario the objects give back: without the uncarried fields, the clusters' own weights
/// as the static weight rules they stand for, a pod's `requests` as the container it is short
/// for.
fn expected(doc: &Value) -> Value {
    let mut doc = doc.clone();
    for field in uncarried(&doc) {
        match field.strip_prefix("clusters[].") {
            Some(f) => {
                for c in doc["clusters"].as_array_mut().unwrap() {
                    c.as_object_mut().unwrap().remove(f);
                }
            }
            None => {
                let (parent, key) = field.rsplit_once('.').unwrap_or(("", field));
                let at = if parent.is_empty() {
                    &mut doc
                } else {
                    &mut doc[parent]
                };
                at.as_object_mut().unwrap().remove(key);
            }
        }
    }
    let mut rules = Vec::new();
    for c in doc["clusters"].as_array_mut().unwrap() {
        let c = c.as_object_mut().unwrap();
        if let Some(w) = c.remove("weight") {
            rules.push(json!({"targetCluster": {"clusterNames": [c["name"]]}, "weight": w}));
        }
        for pod in c["pods"].as_array_mut().unwrap() {
            let requests = pod.as_object_mut().unwrap().remove("requests").unwrap();
            let containers = pod["containers"].as_array_mut().unwrap();
            containers.insert(0, json!({ "requests": requests }));
        }
    }
    if !rules.is_empty() {
        doc["policy"]["staticWeights"] = Value::Array(rules);
    }
    written(&from_json(&doc.to_string()).expect("the expected scenario reads"))
}

/// The fields the export names as uncarried, `clusters[name].f` as `clusters[].f`.
fn named_uncarried(entries: &[allot_core::kubernetes::import::Entry]) -> BTreeSet<String> {
    entries
        .iter()
        .flat_map(|e| e.field.split(", "))
        .map(|f| match f.split_once('[') {
            Some((list, rest)) => format!("{list}[]{}", &rest[rest.find(']').unwrap() + 1..]),
            None => f.to_string(),
        })
        .collect()
}

fn round_trip(doc: &Value) -> Result<(), TestCaseError> {
    let scenario: Scenario = from_json(&doc.to_string()).expect("the scenario reads");
    let exported = export(&scenario).expect("exports");
    let again = reimport(&exported);
    let uncarried: BTreeSet<String> = uncarried(doc).into_iter().map(String::from).collect();
    prop_assert_eq!(named_uncarried(&exported.unexpressed), uncarried);
    let (again, expected) = (written(&again.scenario), expected(doc));
    let mut differ = Vec::new();
    differences(&again, &expected, "", &mut differ);
    prop_assert!(
        differ.is_empty(),
        "imported / expected:\n{}",
        differ.join("\n")
    );
    Ok(())
}

/// Where `a` and `b` differ, as `path: a / b`.
fn differences(a: &Value, b: &Value, at: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let (u, v) = (x.get(k), y.get(k));
                let (u, v) = (u.unwrap_or(&Value::Null), v.unwrap_or(&Value::Null));
                differences(u, v, &format!("{at}.{k}"), out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                differences(u, v, &format!("{at}[{i}]"), out);
            }
        }
        _ if a != b => out.push(format!("{at}: {a} / {b}")),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_scenario_with_every_field_set_survives_export_then_import(doc in scenario()) {
        // Karmada's policy webhook refuses `clusterAffinity` beside `clusterAffinities`: the
        // objects of the scenario with every field are refused, and the scenario without either
        // (and otherwise as the webhook admits it) round-trips.
        refused(&doc)?;
        for drop in ["clusterAffinity", "clusterAffinities"] {
            round_trip(&admissible(&doc, drop))?;
        }
    }
}

/// The objects exported from `doc` are refused at admission, at the placement's
/// `clusterAffinities`.
fn refused(doc: &Value) -> Result<(), TestCaseError> {
    let scenario: Scenario = from_json(&doc.to_string()).expect("the scenario reads");
    let exported = export(&scenario).expect("exports");
    let objects: Objects = from_json(&text(&exported.objects)).expect("objects read");
    let e = import(&objects.0, &Choice::default()).expect_err("refused");
    prop_assert_eq!(e.code().as_str(), "refused_at_admission");
    prop_assert!(e
        .field()
        .text()
        .ends_with("spec.placement.clusterAffinities"));
    Ok(())
}

/// `doc` without the policy field `drop`, as Karmada's policy webhook admits it: overflow
/// affinities only with dynamic weight or aggregated division, a spread by cluster beside a
/// spread by another field.
fn admissible(doc: &Value, drop: &str) -> Value {
    let mut doc = doc.clone();
    let policy = doc["policy"].as_object_mut().unwrap();
    policy.remove(drop);
    if !matches!(
        policy["strategy"].as_str(),
        Some("dynamicWeight" | "aggregated")
    ) {
        if let Some(terms) = policy.get_mut("clusterAffinities") {
            for t in terms.as_array_mut().unwrap() {
                t.as_object_mut().unwrap().remove("overflowAffinities");
            }
        }
    }
    let spread = policy["spreadConstraints"].as_array_mut().unwrap();
    if spread.iter().all(|c| c["spreadByField"] != "cluster") {
        spread.push(json!({"spreadByField": "cluster", "minGroups": 1, "maxGroups": 5}));
    }
    doc
}

#[test]
fn every_field_of_clusters_workload_and_policy_is_set() {
    // The generator sets every property the schema gives these objects.
    let schema: Value =
        serde_json::from_str(include_str!("../../web/js/allot.schema.json")).unwrap();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let doc = scenario().new_tree(&mut runner).unwrap().current();
    let keys = |v: &Value| -> BTreeSet<String> {
        v.as_object()
            .map(Map::keys)
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    };
    let props = |def: &str| keys(&schema["$defs"][def]["properties"]);
    let mut clusters = BTreeSet::new();
    for c in doc["clusters"].as_array().unwrap() {
        clusters.extend(keys(c));
    }
    let mut policy = keys(&doc["policy"]);
    // Weights are stated on the clusters or as rules, never both in one scenario.
    policy.insert("staticWeights".into());
    clusters.insert("weight".into());
    assert_eq!(clusters, props("Cluster"));
    assert_eq!(keys(&doc["workload"]), props("Workload"));
    assert_eq!(policy, props("Policy"));
    let mut top = keys(&doc);
    top.insert("nodes".into());
    assert_eq!(top, keys(&schema["properties"]));
}
