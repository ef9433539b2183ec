//! The scenario format's input handling: typed errors with the offending field's path, family
//! checks, documented limits, and a robustness run of arbitrary and mutated documents (no panic,
//! only outcomes or typed errors).

use allot_core::error::CODES;
use allot_core::scenario;
use allot_tests::scenario::{read, schedule};
use proptest::prelude::*;
use serde_json::{json, Value};

fn err(doc: Value) -> (String, String) {
    let e = schedule(&doc.to_string()).expect_err("an error");
    assert!(CODES.contains(&e.code()), "unlisted code {}", e.code());
    (e.code().to_string(), e.field().to_string())
}

fn karmada(extra: Value) -> Value {
    let mut doc = json!({
        "version": 1,
        "clusters": [{"name": "a", "weight": 1}, {"name": "b", "weight": 2}],
        "workload": {"replicas": 3},
    });
    merge(&mut doc, extra);
    doc
}

fn merge(doc: &mut Value, extra: Value) {
    if let (Value::Object(d), Value::Object(e)) = (doc, extra) {
        for (k, v) in e {
            match d.get_mut(&k) {
                Some(existing @ Value::Object(_)) if v.is_object() => merge(existing, v),
                _ => {
                    d.insert(k, v);
                }
            }
        }
    }
}

#[test]
fn shape_errors_name_the_path() {
    let c = |code: &str, path: &str| (code.to_string(), path.to_string());
    assert_eq!(
        err(karmada(json!({"clusters": [{"name": "a", "wieght": 1}]}))),
        c("invalid_input", "clusters[0].wieght")
    );
    assert_eq!(
        err(karmada(json!({"workload": {"replicas": "three"}}))),
        c("invalid_input", "workload.replicas")
    );
    assert_eq!(
        err(karmada(
            json!({"clusters": [{"name": "a", "resourceSummary": {"allocatable": {"memory": "16 GB"}}}]})
        )),
        c(
            "invalid_quantity",
            "clusters[0].resourceSummary.allocatable.memory"
        )
    );
    assert_eq!(
        err(karmada(
            json!({"clusters": [{"name": "a", "nodes": [{"name": "n", "allocatable": {"cpu": -1}}]}]})
        )),
        c("negative", "clusters[0].nodes[0].allocatable.cpu")
    );
    assert_eq!(err(json!({"clusters": []})), c("missing", "version"));
    assert_eq!(
        err(karmada(json!({"clusters": [{"weight": 1}]}))),
        c("missing", "clusters[0].name")
    );
    assert_eq!(
        err(karmada(json!({"version": 2}))),
        c("unsupported_version", "version")
    );
    assert_eq!(err(json!({"version": 1})), c("missing", "clusters"));
    assert_eq!(
        err(karmada(json!({"nodes": []}))),
        c("invalid_input", "nodes")
    );
    // A field of the other family.
    assert_eq!(
        err(karmada(json!({"workload": {"count": 2}}))),
        c("invalid_input", "workload.count")
    );
    assert_eq!(
        err(
            json!({"version": 1, "nodes": [{"name": "n"}], "workload": {"count": 1, "replicas": 1}})
        ),
        c("invalid_input", "workload.replicas")
    );
    let eru = |extra: Value| {
        let mut doc = json!({"version": 1, "nodes": [{"name": "n"}], "workload": {"count": 1}});
        merge(&mut doc, extra);
        err(doc)
    };
    for (extra, path) in [
        (
            json!({"workload": {"priorityClass": "high"}}),
            "workload.priorityClass",
        ),
        (json!({"policy": {"fresh": true}}), "policy.fresh"),
        (json!({"policy": {"method": "remainder"}}), "policy.method"),
        (
            json!({"policy": {"gates": {"schedulingOvercommitProtection": true}}}),
            "policy.gates",
        ),
        (json!({"previous": {"a": 1}}), "previous"),
        (json!({"uid": "x"}), "uid"),
    ] {
        assert_eq!(eru(extra), c("invalid_input", path));
    }
    // Fields both families read are not the other family's: the family check passes and the
    // strategy runs (and finds no node with room for the memory: FILL over no nodes is
    // insufficient_resource, as in eru). A division method, even Webster, is Karmada's: absent,
    // it is the Karmada release's.
    assert_eq!(
        eru(json!({"policy": {"method": "webster"}})),
        c("invalid_input", "policy.method")
    );
    assert_eq!(
        eru(json!({"policy": {"strategy": "FILL"},
                   "workload": {"requests": {"memory": "1Mi"}}}))
        .0,
        "insufficient_resource"
    );
    assert_eq!(
        err(karmada(json!({"policy": {"cpumem": {"shareBase": 10}}}))),
        c("invalid_input", "policy.cpumem")
    );
    // Trailing garbage after the document.
    let e = read(r#"{"version": 1, "clusters": []} x"#).unwrap_err();
    assert_eq!(e.code(), "invalid_input");
}

#[test]
fn meaning_errors_name_the_scenario_path() {
    let c = |code: &str, path: &str| (code.to_string(), path.to_string());
    assert_eq!(
        err(karmada(
            json!({"clusters": [{"name": "a", "weight": 1}, {"name": "b", "weight": -2}]})
        )),
        c("negative", "clusters[1].weight")
    );
    assert_eq!(
        err(karmada(json!({"clusters": [{"name": "a"}, {"name": "a"}]}))),
        c("duplicate_name", "clusters[1].name")
    );
    assert_eq!(
        err(karmada(json!({"workload": {"replicas": -1}}))),
        c("negative", "workload.replicas")
    );
    assert_eq!(
        err(karmada(json!({"policy": {"strategy": "spread"}}))),
        c("unknown_value", "policy.strategy")
    );
    assert_eq!(
        err(karmada(
            json!({"policy": {"staticWeights": [{"targetCluster": {"clusterNames": ["a"]}, "weight": 1}]}})
        )),
        c("invalid_input", "clusters[0].weight")
    );
    // Weights go with staticWeight only: every other strategy refuses them the same way, once,
    // at the strategy, naming every weight to clear.
    for strategy in ["duplicated", "dynamicWeight", "aggregated"] {
        let e = schedule(&karmada(json!({"policy": {"strategy": strategy}})).to_string())
            .expect_err("weights with another strategy");
        assert_eq!(
            (e.code().as_str(), e.field().text().as_str()),
            ("invalid_input", "policy.strategy")
        );
        assert_eq!(
            e.reason(),
            format!("{strategy} does not divide by weights: clear the weights of a, b, or choose staticWeight")
        );
        let rules = json!({"clusters": [{"name": "a"}, {"name": "b"}], "policy": {"strategy": strategy,
            "staticWeights": [{"targetCluster": {"clusterNames": ["a"]}, "weight": 1}]}});
        assert_eq!(err(karmada(rules)), c("invalid_input", "policy.strategy"));
    }
    assert_eq!(
        err(
            json!({"version": 1, "clusters": [{"name": "a", "availableReplicas": 1}],
                   "workload": {"replicas": 3}, "policy": {"strategy": "dynamicWeight"}})
        ),
        c("unschedulable", "workload.replicas")
    );
    assert_eq!(
        err(json!({"version": 1, "clusters": [{"name": "a", "resourceSummary": {"allocatableModelings": [{"grade": 0, "count": 1}]},
                   "resourceModels": [{"grade": 0, "ranges": [{"name": "cpu", "min": 2, "max": 1}]}]}],
                   "workload": {"replicas": 1}})).0,
        "invalid_model"
    );
    let eru = |extra: Value| {
        let mut doc = json!({"version": 1, "nodes": [{"name": "n", "cpuMap": {"0": 100}, "memory": "1Gi"}],
                             "workload": {"count": 1, "requests": {"memory": "1Mi"}}});
        merge(&mut doc, extra);
        doc
    };
    assert_eq!(
        err(eru(json!({"policy": {"strategy": "RANDOM"}}))),
        c("invalid_strategy", "policy.strategy")
    );
    assert_eq!(
        err(eru(json!({"workload": {"count": 0}}))),
        c("invalid_count", "workload.count")
    );
    assert_eq!(
        err(eru(json!({"workload": {"requests": {"gpu": 1}}}))),
        c("invalid_input", "workload.requests.gpu")
    );
    assert_eq!(
        err(eru(json!({"nodes": [{"name": "n", "memory": -5}]}))),
        c("invalid_memory", "nodes[0].memory")
    );
    assert_eq!(
        err(eru(json!({"workload": {"volumes": ["nonsense"]}}))),
        c("invalid_volume", "workload.volumes[0]")
    );
    assert_eq!(
        err(eru(json!({"workload": {"count": 5000}}))),
        c("insufficient_resource", "workload.count")
    );
    // FILL and EACH short of able nodes: the count decides unless a nodes limit is stated.
    for strategy in ["FILL", "EACH"] {
        let two = |limit: Value| {
            json!({"version": 1, "policy": {"strategy": strategy, "nodesLimit": limit},
                   "nodes": [{"name": "m", "cpuMap": {"0": 100}, "memory": 100},
                             {"name": "n", "cpuMap": {"0": 100}, "memory": 30}],
                   "workload": {"count": 5, "requests": {"memory": 10}}})
        };
        assert_eq!(
            err(two(json!(0))),
            c("insufficient_resource", "workload.count"),
            "{strategy}"
        );
        assert_eq!(
            err(two(json!(2))),
            c("insufficient_resource", "policy.nodesLimit"),
            "{strategy}"
        );
    }
}

/// A scenario's "Why" sentences.
fn sentences(doc: Value) -> Value {
    let outcome = schedule(&doc.to_string()).expect("an outcome");
    serde_json::to_value(&outcome).unwrap()["trace"]["explanation"].clone()
}

/// Why names rules as the rules table numbers them (from 1), and cluster weights as the
/// cluster's own, never as rules the user did not write.
#[test]
fn weight_sentences_follow_what_was_written() {
    let own = sentences(karmada(json!({})));
    assert!(
        own.as_array()
            .unwrap()
            .contains(&json!("b: weight 2 (its own).")),
        "{own}"
    );
    let rules = sentences(karmada(json!({
        "clusters": [{"name": "a"}, {"name": "b"}],
        "policy": {"staticWeights": [
            {"targetCluster": {"clusterNames": ["a", "b"]}, "weight": 1},
            {"targetCluster": {"clusterNames": ["b"]}, "weight": 3}]}})));
    let rules = rules.as_array().unwrap();
    assert!(
        rules.contains(&json!("a: weight 1 (rule #1).")),
        "{rules:?}"
    );
    assert!(
        rules.contains(&json!("b: weight 3 (the largest of rules #1, #2).")),
        "{rules:?}"
    );
}

/// Sentences say what happened: a first placement is not a scale up, one seat is a seat, and
/// the remainder names only the clusters that get one.
#[test]
fn sentences_fit_what_happened() {
    let sentences = |doc: Value| {
        let outcome = schedule(&doc.to_string()).expect("an outcome");
        let v = serde_json::to_value(&outcome).unwrap()["trace"]["explanation"].clone();
        serde_json::from_value::<Vec<String>>(v).unwrap()
    };
    let first = sentences(
        json!({"version": 1, "clusters": [{"name": "a", "availableReplicas": 4}],
        "workload": {"replicas": 1}, "policy": {"strategy": "dynamicWeight"}}),
    );
    assert!(
        first.iter().any(|l| l.starts_with("First placement:")),
        "{first:?}"
    );
    assert!(
        !first.iter().any(|l| l.starts_with("Scale up")),
        "{first:?}"
    );
    assert!(
        first
            .iter()
            .any(|l| l.starts_with("Webster hands out all 1 seat by")),
        "{first:?}"
    );
    let later = sentences(
        json!({"version": 1, "clusters": [{"name": "a", "availableReplicas": 4}],
        "workload": {"replicas": 2}, "previous": {"a": 1}, "policy": {"strategy": "dynamicWeight"}}),
    );
    assert!(
        later.iter().any(|l| l.starts_with("Scale up:")),
        "{later:?}"
    );
    let remainder = sentences(json!({"version": 1, "seed": 3,
        "clusters": [{"name": "a", "weight": 2}, {"name": "b", "weight": 1}, {"name": "c", "weight": 1}],
        "workload": {"replicas": 5}, "policy": {"method": "remainder"}}));
    let line = remainder
        .iter()
        .find(|l| l.starts_with("The remainder"))
        .expect("a remainder");
    assert!(
        line.starts_with("The remainder of 1 goes one each to "),
        "{line}"
    );
    assert_eq!(
        line.matches(" (").count(),
        1,
        "only the one who gets it: {line}"
    );
}

/// Deploy-wide inputs are checked once, at the scenario's own field, never inside a node; a
/// node's own fields are located within that node, each at the value that is wrong.
#[test]
fn eru_errors_sit_at_the_value_that_is_wrong() {
    let c = |code: &str, path: &str| (code.to_string(), path.to_string());
    let eru = |extra: Value| {
        let mut doc = json!({"version": 1,
            "nodes": [{"name": "m", "cpuMap": {"0": 100}, "memory": "1Gi"},
                      {"name": "n", "cpuMap": {"0": 100}, "memory": "1Gi"}],
            "workload": {"count": 1, "requests": {"memory": "1Mi"}}});
        merge(&mut doc, extra);
        doc
    };
    assert_eq!(
        err(eru(json!({"policy": {"cpumem": {"shareBase": 0}}}))),
        c("invalid_cpu", "policy.cpumem.shareBase")
    );
    assert_eq!(
        err(eru(
            json!({"workload": {"requests": {"cpu": "1m"}, "cpuBind": true}})
        )),
        c("invalid_cpu", "workload.requests.cpu")
    );
    assert_eq!(
        err(eru(json!({"policy": {"maxDeployCount": 1e9 as u64},
                       "workload": {"volumes": ["AUTO:/data:rw:1Gi"]}}))),
        c("too_large", "policy.maxDeployCount")
    );
    // One rule for numbers beyond a field, whatever their form; whole numbers in any form.
    for text in ["1e19", "1e300", "-1e300", "18446744073709551616"] {
        let doc = format!(
            r#"{{"version":1,"clusters":[{{"name":"a"}}],"workload":{{"replicas":{text}}}}}"#
        );
        let e = read(&doc)
            .and_then(|s| scenario::schedule(&s, 0))
            .unwrap_err();
        assert_eq!(
            (e.code().as_str(), e.field().text().as_str()),
            ("too_large", "workload.replicas"),
            "{text}"
        );
    }
    let e = read(r#"{"version":1,"nodes":[{"name":"n","count":-1}],"workload":{"count":1}}"#)
        .unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("negative", "nodes[0].count")
    );
    let three =
        read(r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":3e0}}"#).unwrap();
    assert_eq!(three.workload.replicas, Some(3));
    let e =
        read(r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":2.5}}"#).unwrap_err();
    assert_eq!(e.code(), "invalid_input");
    // Seeds beyond 2^53 cannot be reported exactly: too_large.
    let seeded = read(r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":1},"seed":9007199254740993}"#).unwrap();
    let e = scenario::schedule(&seeded, 0).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("too_large", "seed")
    );
    // A vast CPU map is counted, not enumerated (docs/rules/eru.md C3): too_large at once.
    let vast = json!({"version": 1, "nodes": [{"name": "n", "memory": "1Gi", "cpuMap": {"0": 100_000_000}}],
                      "workload": {"count": 1, "requests": {"cpu": 1}, "cpuBind": true}});
    assert_eq!(err(vast), c("too_large", "nodes[0].cpuMap"));
    let node = |n: Value| eru(json!({ "nodes": [{"name": "m", "memory": "1Gi"}, n] }));
    assert_eq!(
        err(node(
            json!({"name": "n", "memory": "1Gi", "usage": {"memory": -1}})
        )),
        c("invalid_memory", "nodes[1].usage.memory")
    );
    assert_eq!(
        err(node(
            json!({"name": "n", "memory": "1Gi", "numaMemory": {"0": -1}})
        )),
        c("invalid_memory", "nodes[1].numaMemory.0")
    );
    assert_eq!(
        err(node(
            json!({"name": "n", "memory": "1Gi", "cpuMap": {"0": -3}})
        )),
        c("invalid_cpu", "nodes[1].cpuMap.0")
    );
    assert_eq!(
        err(eru(json!({"nodes": [{"name": "m", "memory": "1Gi"},
                                 {"name": "n", "memory": "1Gi", "usageStorage": -1}],
                       "workload": {"requests": {"storage": "1Gi"}}}))),
        c("invalid_storage", "nodes[1].usageStorage")
    );
}

#[test]
fn granular_calls_check_the_family() {
    let k = read(&karmada(json!({})).to_string()).unwrap();
    assert_eq!(scenario::capacity(&k).unwrap_err().field(), "clusters");
    assert!(scenario::estimate(&k).is_ok());
    let e = read(r#"{"version":1,"nodes":[{"name":"n","memory":"1Gi"}],"workload":{"count":1}}"#)
        .unwrap();
    assert_eq!(scenario::divide(&e, 0).unwrap_err().field(), "nodes");
    assert!(scenario::capacity(&e).is_ok());
}

#[test]
fn the_seed_is_reported_and_decides() {
    let doc = |seed: Option<u64>| {
        let mut d = json!({"version": 1, "clusters": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
                           "workload": {"replicas": 4}, "policy": {"method": "remainder"}});
        if let Some(s) = seed {
            d["seed"] = json!(s);
        }
        read(&d.to_string()).unwrap()
    };
    let with = |s: &scenario::Scenario, drawn| match scenario::schedule(s, drawn).unwrap() {
        scenario::Outcome::Karmada(k) => k,
        _ => unreachable!(),
    };
    let a = with(&doc(Some(9)), 1);
    assert_eq!((a.seed, a.seed_drawn, a.random_decided), (9, false, true));
    let b = with(&doc(None), 9);
    assert_eq!((b.seed, b.seed_drawn), (9, true));
    assert_eq!(a.assignment, b.assignment, "the same seed, the same answer");
    let winners: std::collections::BTreeSet<allot_core::Name> = (0..64)
        .map(|s| {
            let k = with(&doc(Some(s)), 0);
            k.assignment
                .iter()
                .find(|x| x.replicas == 2)
                .unwrap()
                .name
                .clone()
        })
        .collect();
    assert_eq!(winners.len(), 3, "every tied cluster can win: {winners:?}");
}

#[test]
fn above_the_limits_is_too_large() {
    let many: Vec<Value> = (0..(1 << 20) + 1)
        .map(|i| json!({"name": format!("c{i}")}))
        .collect();
    let doc = json!({"version": 1, "clusters": many, "workload": {"replicas": 1}}).to_string();
    let e = schedule(&doc).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("too_large", "clusters")
    );
    let e = schedule(
        r#"{"version":1,"clusters":[{"name":"a"}],"workload":{"replicas":9007199254740993}}"#,
    )
    .unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("too_large", "workload.replicas")
    );
    let e = schedule(r#"{"version":1,"nodes":[{"name":"n"}],"workload":{"count":2000000}}"#)
        .unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("too_large", "workload.count")
    );
}

fn examples() -> Vec<Value> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let v = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p.display().to_string(), v)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.into_iter().map(|(_, v)| v).collect()
}

/// Arbitrary JSON values, biased to the shapes and magnitudes that break things.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        prop::sample::select(vec![0.5, -0.0, 1e300, -1e-9, 3.999_999_999_9]).prop_map(|f| json!(f)),
        prop::sample::select(vec![0i64, 1, -1, 2, 100, i64::MAX, i64::MIN, 1 << 53])
            .prop_map(|n| json!(n)),
        prop::sample::select(vec![
            "",
            "1",
            "-1",
            "500m",
            "16Gi",
            "1e3",
            "1e400",
            "NaN",
            "AUTO",
            "FILL",
            "webster",
            "remainder",
            "aggregated",
            "dynamicWeight",
            "In",
            "Gt",
            "key",
            "9223372036854775808",
            "AUTO:/data:rw:100",
            "/a:/b",
            "unlimited",
        ])
        .prop_map(|s| json!(s)),
        "[a-z0-9./:-]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "name",
                    "weight",
                    "replicas",
                    "count",
                    "requests",
                    "cpu",
                    "memory",
                    "pods",
                    "labels",
                    "nodes",
                    "clusters",
                    "strategy",
                    "method",
                    "version",
                    "grade",
                    "ranges",
                    "min",
                    "max",
                    "cpuMap",
                    "availableReplicas",
                    "seed",
                ])
                .prop_map(String::from),
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Replace the value at a random path of `doc` with `with` (or remove it).
fn mutate(doc: &mut Value, mut pick: u64, with: Value, remove: bool) {
    let mut at = doc;
    loop {
        let len = match &*at {
            Value::Object(m) => m.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        if len == 0 || pick % 4 == 0 {
            *at = with;
            return;
        }
        let i = (pick as usize / 4) % len;
        pick /= 7;
        let descend_into_leaf = match &*at {
            Value::Object(m) => {
                !matches!(m.values().nth(i), Some(Value::Object(_) | Value::Array(_)))
            }
            Value::Array(a) => !matches!(a[i], Value::Object(_) | Value::Array(_)),
            _ => true,
        };
        if descend_into_leaf || pick == 0 {
            match at {
                Value::Object(m) => {
                    let key = m.keys().nth(i).unwrap().clone();
                    if remove {
                        m.remove(&key);
                    } else {
                        m.insert(key, with);
                    }
                }
                Value::Array(a) => {
                    if remove {
                        a.remove(i);
                    } else {
                        a[i] = with;
                    }
                }
                _ => {}
            }
            return;
        }
        at = match at {
            Value::Object(m) => m.values_mut().nth(i).unwrap(),
            Value::Array(a) => &mut a[i],
            _ => unreachable!(),
        };
    }
}

fn outcome_or_typed_error(doc: &Value) -> Result<(), TestCaseError> {
    match schedule(&doc.to_string()) {
        Ok(_) => Ok(()),
        Err(e) => {
            prop_assert!(CODES.contains(&e.code()), "unlisted code {}", e.code());
            prop_assert!(!e.to_string().is_empty());
            Ok(())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Mutated examples: close to valid, so they reach deep into the algorithms.
    #[test]
    fn mutated_examples_never_panic(
        which in any::<prop::sample::Index>(),
        pick in any::<u64>(),
        with in value(),
        remove in prop::bool::weighted(0.2),
        twice in any::<bool>(),
        pick2 in any::<u64>(),
        with2 in value(),
    ) {
        let all = examples();
        let mut doc = all[which.index(all.len())].clone();
        mutate(&mut doc, pick, with, remove);
        if twice {
            mutate(&mut doc, pick2, with2, false);
        }
        outcome_or_typed_error(&doc)?;
    }

    /// Arbitrary documents, with a valid version half the time.
    #[test]
    fn arbitrary_documents_never_panic(mut doc in value(), versioned in any::<bool>()) {
        if versioned {
            if let Value::Object(m) = &mut doc {
                m.insert("version".into(), json!(1));
            }
        }
        outcome_or_typed_error(&doc)?;
    }
}

/// A cluster whose own weight (or a rule's) is 0 gets nothing because its weight is 0: the
/// sentence does not say that no rule selects it right after saying its weight.
#[test]
fn a_weight_of_0_is_said_as_such() {
    let own = sentences(karmada(json!({
        "clusters": [{"name": "a", "weight": 1}, {"name": "b", "weight": 2},
                     {"name": "c", "weight": 0}]})));
    let own = own.as_array().unwrap();
    assert!(own.contains(&json!("c: weight 0 (its own).")), "{own:?}");
    assert!(
        own.contains(&json!("c gets nothing: its weight is 0.")),
        "{own:?}"
    );
    let rules = sentences(karmada(json!({
        "clusters": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
        "policy": {"staticWeights": [
            {"targetCluster": {"clusterNames": ["a", "b"]}, "weight": 1},
            {"targetCluster": {"clusterNames": ["c"]}, "weight": 0}]}})));
    let rules = rules.as_array().unwrap();
    assert!(
        rules.contains(&json!("c gets nothing: its weight is 0.")),
        "{rules:?}"
    );
    let none = sentences(karmada(json!({
        "clusters": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
        "policy": {"staticWeights": [
            {"targetCluster": {"clusterNames": ["a", "b"]}, "weight": 1}]}})));
    let none = none.as_array().unwrap();
    assert!(
        none.contains(&json!("c gets nothing: no static weight rule selects it.")),
        "{none:?}"
    );
}
