//! Reference cases for each rule that reads differently between Karmada releases
//! (docs/rules/versions.md): the same scenario, named for different releases, answers as each
//! release's scheduler does.

use allot_core::error::Error;
use allot_core::karmada::version::Version;
use allot_core::karmada::Method;
use allot_core::scenario::{self, Scenario};
use serde_json::{json, Value};

fn at(doc: &Value, release: &str) -> Scenario {
    let mut doc = doc.clone();
    doc["karmada"] = json!(release);
    serde_json::from_value(doc).expect("a scenario")
}

/// `cluster:replicas` pairs, and the observed term after.
fn placed(doc: &Value, release: &str) -> (Vec<String>, String) {
    let d = scenario::decide(&at(doc, release), 7).expect("a decision");
    let pairs = d
        .assignment
        .iter()
        .map(|a| format!("{}:{}", a.name, a.replicas))
        .collect();
    (pairs, d.observed_affinity)
}

fn failure(doc: &Value, release: &str) -> Error {
    scenario::decide(&at(doc, release), 7).expect_err("an error")
}

fn pairs(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// "Division": without `policy.method`, each release divides with its own method, and the
/// three methods answer differently here.
#[test]
fn each_release_divides_with_its_method() {
    let doc = json!({
        "version": 1,
        "clusters": [{"name": "a", "weight": 15}, {"name": "b", "weight": 6}, {"name": "c", "weight": 4}],
        "workload": {"replicas": 5},
        "seed": 3,
    });
    let mut answers = Vec::new();
    for release in ["1.7", "1.15", "1.16", "1.19"] {
        let method = Version::parse(release).unwrap().division_method();
        let mut named = doc.clone();
        named["policy"] = json!({"method": method.name()});
        assert_eq!(
            placed(&doc, release),
            placed(&named, release),
            "{release} divides with {}",
            method.name()
        );
        answers.push((method, placed(&doc, release).0));
    }
    assert_eq!(
        answers.iter().map(|(m, _)| *m).collect::<Vec<_>>(),
        [
            Method::NameOrder,
            Method::Remainder,
            Method::Webster,
            Method::Webster
        ]
    );
    assert_ne!(
        answers[0].1, answers[2].1,
        "name order and Webster differ here"
    );
    assert_ne!(
        answers[1].1, answers[2].1,
        "remainder and Webster differ here"
    );
    // A method the policy names wins over the release's.
    let mut named = doc.clone();
    named["policy"] = json!({"method": "name-order"});
    assert_eq!(placed(&named, "1.19"), placed(&doc, "1.7"));
}

/// "Zones": `zone In` matches a cluster with one listed zone from 1.18, only one whose every
/// zone is listed before.
#[test]
fn zone_in_reads_any_zone_from_1_18() {
    let doc = json!({
        "version": 1,
        "clusters": [
            {"name": "both", "zones": ["z1", "z2"]},
            {"name": "one", "zones": ["z1"]},
        ],
        "workload": {"replicas": 4},
        "policy": {"clusterAffinity": {"fieldSelector": {"matchExpressions": [
            {"key": "zone", "operator": "In", "values": ["z1"]}
        ]}}},
    });
    assert_eq!(placed(&doc, "1.18").0, pairs(&["both:2", "one:2"]));
    assert_eq!(placed(&doc, "1.17").0, pairs(&["one:4"]));
    assert_eq!(placed(&doc, "1.16.8").0, pairs(&["one:4"]));
}

/// "Overflow": before 1.18 a term's overflow affinities do not exist, and overflow tiers are
/// an error.
#[test]
fn overflow_affinities_from_1_18() {
    let doc = json!({
        "version": 1,
        "clusters": [
            {"name": "main", "labels": {"tier": "main"}, "resourceSummary": {"allocatable": {"pods": 2}}},
            {"name": "spare", "labels": {"tier": "spare"}, "resourceSummary": {"allocatable": {"pods": 10}}},
        ],
        "workload": {"replicas": 5},
        "observedAffinity": "t0",
        "policy": {"strategy": "dynamicWeight", "clusterAffinities": [{
            "affinityName": "t0",
            "affinity": {"labelSelector": {"matchLabels": {"tier": "main"}}},
            "overflowAffinities": [{"affinityName": "o", "affinity": {"labelSelector": {"matchLabels": {"tier": "spare"}}}}],
        }]},
    });
    assert_eq!(placed(&doc, "1.18").0, pairs(&["main:2", "spare:3"]));
    assert_eq!(failure(&doc, "1.17").code(), "unschedulable");
    let tiers = json!({
        "version": 1,
        "clusters": [{"name": "a", "overflowOrder": 1}],
        "workload": {"replicas": 1},
        "policy": {"overflow": true},
    });
    assert!(scenario::decide(&at(&tiers, "1.18"), 7).is_ok());
    assert_eq!(
        failure(&tiers, "1.17").field().to_string(),
        "policy.overflow"
    );
}

/// "Affinity terms": a reschedule restarts the ordered terms from the first from 1.19.
#[test]
fn a_reschedule_restarts_the_terms_from_1_19() {
    let doc = json!({
        "version": 1,
        "clusters": [{"name": "a"}, {"name": "b"}],
        "workload": {"replicas": 2},
        "observedAffinity": "second",
        "policy": {"fresh": true, "clusterAffinities": [
            {"affinityName": "first", "affinity": {"clusterNames": ["a"]}},
            {"affinityName": "second", "affinity": {"clusterNames": ["b"]}},
        ]},
    });
    assert_eq!(placed(&doc, "1.19"), (pairs(&["a:2"]), "first".into()));
    assert_eq!(placed(&doc, "1.18"), (pairs(&["b:2"]), "second".into()));
}

/// "Scale-down": before 1.17 a dynamic scale-down divides among every previous cluster,
/// one that is no longer a candidate too (Karmada #7110).
#[test]
fn a_scale_down_keeps_former_clusters_before_1_17() {
    let doc = json!({
        "version": 1,
        "clusters": [{"name": "a", "availableReplicas": 10}, {"name": "b", "availableReplicas": 10}],
        "workload": {"replicas": 4},
        "previous": {"a": 6, "gone": 6},
        "policy": {"strategy": "dynamicWeight"},
    });
    assert_eq!(placed(&doc, "1.17").0, pairs(&["a:4"]));
    assert_eq!(placed(&doc, "1.16").0, pairs(&["a:2", "gone:2"]));
}

/// "Feature gates": a gate the release does not have cannot be turned on; turned off, or left
/// to its default, it is fine.
#[test]
fn a_gate_exists_from_its_release() {
    let doc = json!({
        "version": 1,
        "clusters": [{"name": "a"}],
        "workload": {"replicas": 1},
        "policy": {"gates": {"schedulingOvercommitProtection": true}},
    });
    assert!(scenario::decide(&at(&doc, "1.18"), 7).is_ok());
    let e = failure(&doc, "1.17");
    assert_eq!(e.code().to_string(), "invalid_input");
    assert_eq!(
        e.field().to_string(),
        "policy.gates.schedulingOvercommitProtection"
    );
    let mut off = doc.clone();
    off["policy"]["gates"]["schedulingOvercommitProtection"] = json!(false);
    assert!(scenario::decide(&at(&off, "1.17"), 7).is_ok());
}

/// "Resource models": the grade formula before 1.18, the simulator after; a node claim alone
/// reads the models with an empty request, and before 1.18 Karmada's wrapped sum over an even
/// number of nodes gives the cluster a negative figure, which counts in the total.
#[test]
fn resource_models_by_release() {
    let models = json!([
        {"grade": 0, "ranges": [{"name": "cpu", "min": "0", "max": "2"}]},
        {"grade": 1, "ranges": [{"name": "cpu", "min": "2", "max": "9223372036854775807"}]},
    ]);
    let cluster = |name: &str, nodes: u64| {
        json!({"name": name, "resourceModels": models, "resourceSummary": {
            "allocatable": {"cpu": 100, "pods": 1000},
            "allocatableModelings": [{"grade": 0, "count": 0}, {"grade": 1, "count": nodes}],
        }})
    };
    let doc = json!({
        "version": 1,
        "clusters": [cluster("even", 2), cluster("odd", 3)],
        "workload": {"replicas": 6, "nodeClaim": {"nodeSelector": {"disk": "ssd"}}},
        "policy": {"strategy": "dynamicWeight"},
    });
    let available = |release: &str| -> Vec<i64> {
        let e = scenario::estimate(&at(&doc, release)).expect("estimates");
        let v = serde_json::to_value(&e).unwrap();
        v["targets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["availableReplicas"].as_i64().unwrap())
            .collect()
    };
    // 1.17: the wrapped sum is -2 for 2 nodes and huge for 3 (the pod slots decide); 1.18:
    // 110 pods per virtual node.
    assert_eq!(available("1.17"), [-2, 1000]);
    assert_eq!(available("1.18"), [220, 330]);
    assert_eq!(placed(&doc, "1.17").0, pairs(&["odd:6"]));
    let method = |release: &str| {
        let s = at(&doc, release);
        s.model_method()
    };
    assert_ne!(method("1.17"), method("1.18"));
}

/// "Multiple pod templates": with the gate on and a spread constraint of exactly one cluster,
/// the selection asks for one complete set from 1.18 for a one-component workload (before,
/// multi-template scheduling needs two components), and from 1.16.6 for two components
/// (before, it asks for the replicas). `a` ranks first (it holds the previous replica) and
/// holds 1 set besides the replica it has; `b` holds more: asking for 3, the selection swaps `a` for `b`.
#[test]
fn multi_template_selection_by_release() {
    let component = |name: &str| json!({"name": name, "replicas": 1, "requests": {"cpu": 1}});
    let doc = |components: Value| {
        json!({
            "version": 1,
            "clusters": [
                {"name": "a", "resourceSummary": {"allocatable": {"cpu": 1, "pods": 100}}},
                {"name": "b", "resourceSummary": {"allocatable": {"cpu": 8, "pods": 100}}},
            ],
            "workload": {"replicas": 3, "components": components},
            "previous": {"a": 1},
            "policy": {
                "strategy": "dynamicWeight",
                "gates": {"multiplePodTemplatesScheduling": true},
                "spreadConstraints": [{"spreadByField": "cluster", "minGroups": 1, "maxGroups": 1}],
            },
        })
    };
    let selected = |doc: &Value, release: &str| -> Vec<String> {
        let report = scenario::select(&at(doc, release)).expect("a selection");
        let v = serde_json::to_value(&report).unwrap();
        serde_json::from_value(v["selection"]["candidates"].clone())
            .unwrap_or_else(|_| panic!("{release}: {}", v["error"]))
    };
    let one = doc(json!([component("main")]));
    assert_eq!(selected(&one, "1.18"), ["a"]);
    assert_eq!(selected(&one, "1.17"), ["b"]);
    let two = doc(json!([component("main"), component("side")]));
    assert_eq!(selected(&two, "1.16.6"), ["a"]);
    assert_eq!(selected(&two, "1.16.5"), ["b"]);
}

/// A dump of one Cluster, `a`, and nothing else.
fn one_cluster() -> allot_core::kubernetes::objects::Objects {
    let objects = json!([{
        "apiVersion": "cluster.karmada.io/v1alpha1",
        "kind": "Cluster",
        "metadata": {"name": "a"},
    }]);
    allot_core::json::from_json(&objects.to_string()).expect("objects")
}

/// The import's choice names the release the objects come from; the scenario keeps it, and
/// writing the scenario back as objects says Karmada's objects do not carry it.
#[test]
fn imported_objects_follow_the_chosen_release() {
    use allot_core::kubernetes::import::Choice;
    use allot_core::scenario::export::export;
    use allot_core::scenario::objects::import;
    let objects = one_cluster();
    let release = Version::parse("1.17").unwrap();
    let choice = Choice {
        version: release,
        ..Choice::default()
    };
    let imported = import(&objects.0, &choice).expect("imports");
    assert_eq!(imported.scenario.karmada, release);
    assert_eq!(imported.scenario.method(), Method::Webster);
    let newest = import(&objects.0, &Choice::default()).expect("imports");
    assert_eq!(newest.scenario.karmada, Version::NEWEST);
    let back = export(&imported.scenario).expect("exports");
    assert!(back.unexpressed.iter().any(|e| e.field == "karmada"));
    assert!(!export(&newest.scenario)
        .expect("exports")
        .unexpressed
        .iter()
        .any(|e| e.field == "karmada"));
}

/// The scheduler's feature gates chosen with the objects (`allot explain --feature-gates`) go
/// into the scenario's gates, each unset one at the release's default; a gate the release
/// lacks turned on is refused at `policy.gates`.
#[test]
fn imported_objects_take_the_chosen_gates() {
    use allot_core::karmada::gates::FeatureGates;
    use allot_core::karmada::version::GateSettings;
    use allot_core::kubernetes::import::Choice;
    use allot_core::scenario::objects::import;
    let objects = one_cluster();
    let set = FeatureGates::parse("CustomizedClusterResourceModeling=false,Failover=true")
        .expect("gates");
    let choice = Choice {
        gates: GateSettings::from_feature_gates(&set),
        ..Choice::default()
    };
    let imported = import(&objects.0, &choice).expect("imports");
    let gates = imported
        .scenario
        .policy
        .gates
        .resolve(Version::NEWEST)
        .expect("gates");
    assert!(!gates.customized_cluster_resource_modeling);
    assert!(!gates.multiple_pod_templates_scheduling, "the default");
    let plain = import(&objects.0, &Choice::default()).expect("imports");
    assert!(
        plain
            .scenario
            .policy
            .gates
            .resolve(Version::NEWEST)
            .expect("gates")
            .customized_cluster_resource_modeling
    );
    let old = Choice {
        version: Version::parse("1.17").unwrap(),
        gates: GateSettings::from_feature_gates(
            &FeatureGates::parse("SchedulingOvercommitProtection=true").unwrap(),
        ),
        ..Choice::default()
    };
    let err = import(&objects.0, &old).unwrap_err();
    assert!(err.field().to_string().starts_with("policy.gates"), "{err}");
}
