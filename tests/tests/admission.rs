//! What Karmada's policy webhooks refuse (docs/rules/karmada.md §17): every check, through a
//! policy object (`scenario::explain`) and through a scenario's `policy`
//! (`scenario::schedule`), refused at the field with the webhook's reason; what the webhook
//! admits is scheduled; and each release's checks.

use allot_core::error::Path;
use allot_core::json::from_json;
use allot_core::karmada::admission::{self, label_key_problem, Placement};
use allot_core::karmada::constraints::{AffinityTerm, NamedAffinity};
use allot_core::karmada::version::Version;
use allot_core::karmada::Strategy;
use allot_core::kubernetes::import::Choice;
use allot_core::kubernetes::objects::Objects;
use allot_core::scenario::explain::explain;
use allot_core::scenario::{schedule, Scenario};
use allot_core::selector::cluster::ClusterAffinity;
use allot_core::selector::node::{Toleration, TolerationOperator};
use allot_core::Error;
use serde_json::{json, Value};

fn cluster(name: &str, region: &str) -> Value {
    json!({
        "apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster",
        "metadata": {"name": name, "labels": {"env": "prod"}},
        "spec": {"region": region, "provider": "aws", "zones": [format!("{region}a")]},
        "status": {"apiEnablements": [{"groupVersion": "apps/v1",
                                       "resources": [{"name": "deployments", "kind": "Deployment"}]}],
                   "resourceSummary": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110"}}}
    })
}

fn objects(placement: &Value, selector_namespace: &str) -> Objects {
    let doc = json!([
        cluster("m1", "r1"),
        cluster("m2", "r2"),
        {"apiVersion": "apps/v1", "kind": "Deployment",
         "metadata": {"name": "web", "namespace": "default", "uid": "u1"},
         "spec": {"replicas": 4, "template": {"spec": {"containers": [
             {"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}}}},
        {"apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
         "metadata": {"name": "p", "namespace": "default"},
         "spec": {"resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment",
                                         "name": "web", "namespace": selector_namespace}],
                  "placement": placement}}
    ]);
    from_json(&doc.to_string()).expect("the objects read")
}

/// The objects' placement as a scenario's policy: a term's affinity under `affinity`, the
/// replica scheduling as the strategy.
fn policy_of(placement: &Value) -> Value {
    let mut p = placement.as_object().unwrap().clone();
    let affinity = |t: &Value| {
        let mut a = t.as_object().unwrap().clone();
        let name = a.remove("affinityName").unwrap_or(json!(""));
        let overflow = a.remove("overflowAffinities");
        let mut term = json!({"affinityName": name, "affinity": a});
        if let Some(o) = overflow {
            let list: Vec<Value> = o
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    let mut a = o.as_object().unwrap().clone();
                    let name = a.remove("affinityName").unwrap_or(json!(""));
                    json!({"affinityName": name, "affinity": a})
                })
                .collect();
            term["overflowAffinities"] = json!(list);
        }
        term
    };
    if let Some(terms) = p.remove("clusterAffinities") {
        let terms: Vec<Value> = terms.as_array().unwrap().iter().map(affinity).collect();
        p.insert("clusterAffinities".into(), json!(terms));
    }
    let strategy = match p.remove("replicaScheduling") {
        None => "duplicated",
        Some(rs) => match (
            rs["replicaDivisionPreference"].as_str(),
            rs["weightPreference"]["dynamicWeight"].as_str(),
        ) {
            (Some("Aggregated"), _) => "aggregated",
            (_, Some(_)) => "dynamicWeight",
            _ => "staticWeight",
        },
    };
    p.insert("strategy".into(), json!(strategy));
    Value::Object(p)
}

fn scenario(placement: &Value) -> Scenario {
    let doc = json!({
        "version": 1,
        "clusters": [{"name": "m1", "region": "r1", "provider": "aws", "zones": ["r1a"],
                      "labels": {"env": "prod"}, "availableReplicas": 10},
                     {"name": "m2", "region": "r2", "provider": "aws", "zones": ["r2a"],
                      "labels": {"env": "prod"}, "availableReplicas": 10}],
        "workload": {"replicas": 4},
        "policy": policy_of(placement),
    });
    from_json(&doc.to_string()).expect("the scenario reads")
}

const DYNAMIC: fn() -> Value = || json!({"replicaDivisionPreference": "Weighted", "weightPreference": {"dynamicWeight": "AvailableReplicas"}});

/// One check: a placement (as a policy object writes it), where the refusal is in the object
/// and in the scenario (relative to the placement), and the webhook's reason.
struct Case {
    placement: Value,
    object_field: &'static str,
    scenario_field: &'static str,
    reason: &'static str,
}

fn cases() -> Vec<Case> {
    let terms = |a: Value| json!([{"affinityName": "t", "clusterNames": ["m1"]}, a]);
    vec![
        Case {
            placement: json!({"clusterAffinity": {"clusterNames": ["m1"]},
                              "clusterAffinities": [{"affinityName": "t", "clusterNames": ["m1"]}]}),
            object_field: "clusterAffinities",
            scenario_field: "clusterAffinities",
            reason: "clusterAffinities cannot co-exist with clusterAffinity",
        },
        Case {
            placement: json!({"replicaScheduling": {"replicaDivisionPreference": "Weighted"},
                              "clusterAffinities": [{"affinityName": "t", "clusterNames": ["m1"],
                                  "overflowAffinities": [{"affinityName": "o", "clusterNames": ["m2"]}]}]}),
            object_field: "clusterAffinities[0].overflowAffinities",
            scenario_field: "clusterAffinities[0].overflowAffinities",
            reason: "overflowAffinities can only be used together with dynamic weight or aggregated scheduling",
        },
        Case {
            placement: json!({"clusterAffinity": {"fieldSelector": {"matchExpressions": [
                {"key": "region", "operator": "Exists"}]}}}),
            object_field: "clusterAffinity.fieldSelector.matchExpressions[0].operator",
            scenario_field: "clusterAffinity.fieldSelector.matchExpressions[0].operator",
            reason: "unsupported operator \"Exists\", must be In or NotIn",
        },
        Case {
            placement: json!({"clusterAffinities": terms(json!({"affinityName": "u", "fieldSelector": {
                "matchExpressions": [{"key": "name", "operator": "In", "values": ["m1"]}]}}))}),
            object_field: "clusterAffinities[1].fieldSelector.matchExpressions[0].key",
            scenario_field: "clusterAffinities[1].affinity.fieldSelector.matchExpressions[0].key",
            reason: "unsupported key \"name\", must be provider, region, or zone",
        },
        Case {
            placement: json!({"clusterAffinities": terms(json!({"affinityName": "", "clusterNames": ["m2"]}))}),
            object_field: "clusterAffinities[1].affinityName",
            scenario_field: "clusterAffinities[1].affinityName",
            reason: "name part must be non-empty",
        },
        Case {
            placement: json!({"clusterAffinities": terms(json!({"affinityName": "-x", "clusterNames": ["m2"]}))}),
            object_field: "clusterAffinities[1].affinityName",
            scenario_field: "clusterAffinities[1].affinityName",
            reason: "name part must consist of alphanumeric characters, '-', '_' or '.', and must \
                     start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or \
                     '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        },
        Case {
            placement: json!({"clusterAffinities": terms(json!({"affinityName": "t", "clusterNames": ["m2"]}))}),
            object_field: "clusterAffinities[1].affinityName",
            scenario_field: "clusterAffinities[1].affinityName",
            reason: "each affinity term in a policy must have a unique name",
        },
        Case {
            placement: json!({"replicaScheduling": {"replicaDivisionPreference": "Aggregated"},
                              "clusterAffinities": [{"affinityName": "t",
                                  "overflowAffinities": [{"affinityName": "o", "clusterNames": ["m2"]}]}]}),
            object_field: "clusterAffinities[0].overflowAffinities",
            scenario_field: "clusterAffinities[0].overflowAffinities",
            reason: "overflowAffinities can only be used together with the inline ClusterAffinity",
        },
        Case {
            placement: json!({"replicaScheduling": DYNAMIC(),
                              "clusterAffinities": [{"affinityName": "t", "clusterNames": ["m1"],
                                  "overflowAffinities": [{"affinityName": "t", "clusterNames": ["m2"]}]}]}),
            object_field: "clusterAffinities[0].overflowAffinities[0].affinityName",
            scenario_field: "clusterAffinities[0].overflowAffinities[0].affinityName",
            reason: "overflow affinity name must be unique and must not duplicate the primary group's affinityName",
        },
        Case {
            placement: json!({"replicaScheduling": DYNAMIC(),
                              "clusterAffinities": [{"affinityName": "t", "clusterNames": ["m1"],
                                  "overflowAffinities": [{"affinityName": "o", "fieldSelector": {
                                      "matchExpressions": [{"key": "zone", "operator": "DoesNotExist"}]}}]}]}),
            object_field: "clusterAffinities[0].overflowAffinities[0].fieldSelector.matchExpressions[0].operator",
            scenario_field: "clusterAffinities[0].overflowAffinities[0].affinity.fieldSelector.matchExpressions[0].operator",
            reason: "unsupported operator \"DoesNotExist\", must be In or NotIn",
        },
        Case {
            placement: json!({"spreadConstraints": [{"spreadByField": "cluster", "spreadByLabel": "team"}]}),
            object_field: "spreadConstraints[0].spreadByLabel",
            scenario_field: "spreadConstraints[0].spreadByLabel",
            reason: "spreadByLabel should not co-exist with spreadByField",
        },
        Case {
            placement: json!({"spreadConstraints": [{"spreadByField": "cluster", "minGroups": 3, "maxGroups": 2}]}),
            object_field: "spreadConstraints[0].maxGroups",
            scenario_field: "spreadConstraints[0].maxGroups",
            reason: "maxGroups lower than minGroups is not allowed",
        },
        Case {
            placement: json!({"spreadConstraints": [{"spreadByField": "region", "maxGroups": 2},
                                                    {"maxGroups": 2},
                                                    {"spreadByField": "region", "maxGroups": 1}]}),
            object_field: "spreadConstraints[2].spreadByField",
            scenario_field: "spreadConstraints[2].spreadByField",
            reason: "multiple region spread constraints are not allowed",
        },
        Case {
            placement: json!({"replicaScheduling": DYNAMIC(),
                              "spreadConstraints": [{"spreadByField": "zone", "minGroups": 1, "maxGroups": 2}]}),
            object_field: "spreadConstraints",
            scenario_field: "spreadConstraints",
            reason: "the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled",
        },
        Case {
            placement: json!({"spreadConstraints": [{"spreadByField": "region", "minGroups": 2, "maxGroups": 2}]}),
            object_field: "spreadConstraints",
            scenario_field: "spreadConstraints",
            reason: "the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled",
        },
        Case {
            placement: json!({"clusterTolerations": [{"key": "k", "operator": "Exists"},
                                                     {"key": "k", "operator": "Gt", "value": "3"}]}),
            object_field: "clusterTolerations[1].operator",
            scenario_field: "clusterTolerations[1].operator",
            reason: "Unsupported value: \"Gt\": supported values: \"\", \"Exists\", \"Equal\"",
        },
    ]
}

fn refusal(e: &Error) -> (&str, String, String) {
    (e.code().as_str(), e.field().text(), e.reason())
}

#[test]
fn every_check_refuses_a_policy_object_and_a_scenario_at_the_field_with_karmadas_reason() {
    for c in cases() {
        let object = explain(&objects(&c.placement, "").0, &Choice::default(), 0).map(|_| ());
        let scenario = schedule(&scenario(&c.placement), 0).map(|_| ());
        for (got, field) in [
            (
                object,
                format!("objects[3].spec.placement.{}", c.object_field),
            ),
            (scenario, format!("policy.{}", c.scenario_field)),
        ] {
            let e = got.expect_err(c.reason);
            let reason = format!("refused at admission: {}", c.reason);
            assert_eq!(refusal(&e), ("refused_at_admission", field, reason));
        }
    }
}

#[test]
fn what_the_webhook_admits_is_scheduled() {
    let admitted = [
        // Spreading by a label only is admitted (and fails at selection, §14.4).
        json!({"replicaScheduling": DYNAMIC(),
               "spreadConstraints": [{"spreadByField": "region", "minGroups": 1, "maxGroups": 2},
                                     {"spreadByField": "cluster", "minGroups": 1, "maxGroups": 2}]}),
        json!({"spreadConstraints": [{"maxGroups": 2}]}),
        json!({"replicaScheduling": DYNAMIC(),
               "clusterAffinities": [{"affinityName": "example.com/t", "clusterNames": ["m1"],
                   "overflowAffinities": [{"affinityName": "o", "fieldSelector": {
                       "matchExpressions": [{"key": "region", "operator": "NotIn", "values": ["r1"]}]}}]}]}),
        json!({"clusterAffinity": {"fieldSelector": {"matchExpressions": [
                  {"key": "provider", "operator": "In", "values": ["aws"]}]}},
               "clusterTolerations": [{"key": "k", "operator": "Equal", "value": "v"}]}),
    ];
    for p in admitted {
        explain(&objects(&p, "default").0, &Choice::default(), 0)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        schedule(&scenario(&p), 0).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
}

#[test]
fn a_policy_objects_workload_affinity_keys_are_checked() {
    let refused = |w: Value| {
        let p = json!({ "workloadAffinity": w });
        explain(&objects(&p, "").0, &Choice::default(), 0)
            .map(|_| ())
            .err()
            .map(|e| refusal(&e).1 + " " + &refusal(&e).2)
    };
    assert_eq!(
        refused(json!({"affinity": {"groupByLabelKey": "app"},
                       "antiAffinity": {"groupByLabelKey": "app"}})),
        Some(
            "objects[3].spec.placement.workloadAffinity refused at admission: affinity and \
             antiAffinity must not use the same groupByLabelKey"
                .into()
        )
    );
    assert_eq!(
        refused(json!({"antiAffinity": {"groupByLabelKey": "a/b/c"}})),
        Some(format!(
            "objects[3].spec.placement.workloadAffinity.antiAffinity.groupByLabelKey refused at \
             admission: {}",
            label_key_problem("a/b/c", Version::NEWEST).unwrap()
        ))
    );
    assert_eq!(
        refused(json!({"affinity": {"groupByLabelKey": "app"},
                       "antiAffinity": {"groupByLabelKey": "team"}})),
        None
    );
}

#[test]
fn a_policy_selecting_in_another_namespace_is_refused() {
    let e = explain(&objects(&json!({}), "other").0, &Choice::default(), 0)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        refusal(&e),
        (
            "refused_at_admission",
            "objects[3].spec.resourceSelectors[0].namespace".into(),
            "refused at admission: namespace of resource selector must be the same as the \
             namespace of the policy"
                .into()
        )
    );
}

fn v(text: &str) -> Version {
    Version::parse(text).unwrap()
}

#[test]
fn each_release_refuses_what_its_webhook_refuses() {
    let overflow = [AffinityTerm {
        affinity_name: "t".into(),
        affinity: ClusterAffinity {
            cluster_names: vec!["m1".into()],
            ..ClusterAffinity::default()
        },
        overflow_affinities: vec![NamedAffinity {
            affinity_name: "t".into(),
            affinity: ClusterAffinity::default(),
        }],
    }];
    let lt = [Toleration {
        key: "k".into(),
        operator: TolerationOperator::Lt,
        value: "1".into(),
        effect: None,
    }];
    let with = |terms: &'static [AffinityTerm], tolerations: &'static [Toleration]| Placement {
        cluster_affinity: None,
        cluster_affinities: Some(terms),
        cluster_tolerations: tolerations,
        spread_constraints: &[],
        strategy: Strategy::StaticWeight,
        workload_groups: None,
    };
    let overflow: &'static [AffinityTerm] = Box::leak(Box::new(overflow));
    let lt: &'static [Toleration] = Box::leak(Box::new(lt));
    let code = |p: &Placement<'_>, version: &str| {
        admission::admit(p, v(version))
            .err()
            .map(|e| e.field().text())
    };
    // Overflow affinities and the Lt/Gt prohibition came with 1.18.
    for (version, refused) in [
        ("1.16", false),
        ("1.17.5", false),
        ("1.18.0", true),
        ("1.19", true),
    ] {
        let want = |f: &str| refused.then(|| f.to_string());
        assert_eq!(
            code(&with(overflow, &[]), version),
            want("clusterAffinities[0].overflowAffinities"),
            "{version}"
        );
        assert_eq!(
            code(&with(&[], lt), version),
            want("clusterTolerations[0].operator"),
            "{version}"
        );
    }
    // The workload affinity's checks came with 1.17.
    let same = Placement {
        workload_groups: Some(admission::WorkloadGroups {
            affinity: Some("app"),
            anti_affinity: Some("app"),
        }),
        ..with(&[], &[])
    };
    for (version, refused) in [("1.16.8", false), ("1.17.0", true), ("1.19", true)] {
        assert_eq!(
            code(&same, version),
            refused.then(|| "workloadAffinity".to_string()),
            "{version}"
        );
    }
    // The resource selectors' namespace check came with 1.17.
    let at = Path::fields("spec.resourceSelectors");
    for (version, refused) in [("1.16.8", false), ("1.17", true), ("1.19", true)] {
        let r = admission::resource_selectors(["default", "other"], "default", &at, v(version));
        assert_eq!(r.is_err(), refused, "{version}");
        // A ClusterPropagationPolicy has no namespace to keep to.
        assert!(admission::resource_selectors(["other"], "", &at, v(version)).is_ok());
    }
    // Kubernetes' wording of a key with two slashes changed with 1.17's libraries.
    let two = |version| label_key_problem("a/b/c", v(version)).unwrap();
    assert!(two("1.16").starts_with("a qualified name must consist of"));
    assert!(two("1.17").starts_with("a valid label key must consist of"));
    assert_eq!(
        label_key_problem("Example.com/x", v("1.19")).unwrap(),
        "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
         characters, '-' or '.', and must start and end with an alphanumeric character (e.g. \
         'example.com', regex used for validation is \
         '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
    );
    assert_eq!(
        label_key_problem(&"n".repeat(64), v("1.19")).as_deref(),
        Some("name part must be no more than 63 bytes")
    );
    assert_eq!(label_key_problem("example.com/My_name.1", v("1.19")), None);
}

#[test]
fn the_mutating_webhooks_defaults_come_before_the_checks() {
    use allot_core::scenario::objects::import;
    // An empty preference is Weighted (SetReplicaDivisionPreferenceWeighted checks for ""), a
    // spread constraint with neither field nor label spreads by cluster, minGroups 0 is 1.
    let p = json!({"replicaScheduling": {"replicaSchedulingType": "Divided",
                                         "replicaDivisionPreference": ""},
                   "spreadConstraints": [{"spreadByField": "region", "maxGroups": 2},
                                         {"maxGroups": 2}]});
    let imported = import(&objects(&p, "").0, &Choice::default()).expect("admitted");
    let policy = &imported.scenario.policy;
    assert_eq!(policy.strategy.as_deref(), Some("staticWeight"));
    let spread: Vec<(Option<&str>, u32)> = policy
        .spread_constraints
        .iter()
        .map(|c| (c.spread_by_field.map(|f| f.as_str()), c.min_groups))
        .collect();
    assert_eq!(spread, [(Some("region"), 1), (Some("cluster"), 1)]);
}

mod both_paths {
    use super::{explain, json, objects, scenario, schedule, Choice, Error, Value, DYNAMIC};
    use proptest::prelude::*;

    fn pick(options: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
        proptest::sample::select(options)
    }

    fn affinity() -> impl Strategy<Value = Value> {
        (
            any::<bool>(),
            proptest::option::of((pick(&["region", "zone", "name"]), pick(&["In", "Exists"]))),
        )
            .prop_map(|(names, field)| {
                let mut a = json!({});
                if names {
                    a["clusterNames"] = json!(["m1"]);
                }
                if let Some((key, op)) = field {
                    let values = if op == "In" { json!(["r1"]) } else { json!([]) };
                    a["fieldSelector"] =
                        json!({"matchExpressions": [{"key": key, "operator": op, "values": values}]});
                }
                a
            })
    }

    fn term() -> impl Strategy<Value = Value> {
        (
            pick(&["a", "b", "", "x/y/z"]),
            affinity(),
            proptest::option::of((pick(&["a", "o"]), affinity())),
        )
            .prop_map(|(name, a, overflow)| {
                let mut t = a;
                t["affinityName"] = json!(name);
                if let Some((n, o)) = overflow {
                    let mut o = o;
                    o["affinityName"] = json!(n);
                    t["overflowAffinities"] = json!([o]);
                }
                t
            })
    }

    fn placement() -> impl Strategy<Value = Value> {
        let spread = (
            proptest::option::of(pick(&["cluster", "region", "zone"])),
            proptest::option::of(pick(&["team"])),
            0u32..3,
            0u32..3,
        )
            .prop_map(|(field, label, min, max)| {
                let mut c = json!({"minGroups": min, "maxGroups": max});
                if let Some(f) = field {
                    c["spreadByField"] = json!(f);
                }
                if let Some(l) = label {
                    c["spreadByLabel"] = json!(l);
                }
                c
            });
        (
            proptest::option::of(affinity()),
            proptest::option::of(proptest::collection::vec(term(), 1..3)),
            proptest::collection::vec(spread, 0..3),
            proptest::collection::vec(pick(&["Equal", "Exists", "Lt"]), 0..2),
            pick(&["none", "Duplicated", "Weighted", "Dynamic", "Aggregated"]),
        )
            .prop_map(|(affinity, terms, spread, ops, scheduling)| {
                let mut p = json!({"spreadConstraints": spread});
                if let Some(a) = affinity {
                    p["clusterAffinity"] = a;
                }
                if let Some(t) = terms {
                    p["clusterAffinities"] = json!(t);
                }
                let tolerations: Vec<Value> = ops
                    .iter()
                    .map(|op| json!({"key": "k", "operator": op}))
                    .collect();
                p["clusterTolerations"] = json!(tolerations);
                let rs = match scheduling {
                    "none" => None,
                    "Duplicated" => Some(json!({"replicaSchedulingType": "Duplicated"})),
                    "Weighted" => Some(json!({"replicaDivisionPreference": "Weighted"})),
                    "Dynamic" => Some(DYNAMIC()),
                    _ => Some(json!({"replicaDivisionPreference": "Aggregated"})),
                };
                if let Some(rs) = rs {
                    p["replicaScheduling"] = rs;
                }
                p
            })
    }

    /// The refusal's field relative to the placement, written as in the objects, and reason.
    fn refused(r: Result<(), Error>, prefix: &str) -> Option<(String, String)> {
        let e = r
            .err()
            .filter(|e| e.code().as_str() == "refused_at_admission")?;
        let field = e.field().text();
        let field = field
            .strip_prefix(prefix)
            .unwrap_or(&field)
            .replace(".affinity.", ".");
        Some((field, e.reason()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// A placement is refused through a policy object exactly when it is refused through
        /// a scenario, with the same reason at the same field.
        #[test]
        fn a_policy_object_and_a_scenario_are_refused_alike(p in placement()) {
            let objects = explain(&objects(&p, "").0, &Choice::default(), 0).map(|_| ());
            let scenario = schedule(&scenario(&p), 0).map(|_| ());
            prop_assert_eq!(
                refused(objects, "objects[3].spec.placement"),
                refused(scenario, "policy")
            );
        }
    }
}

/// The release a scenario or an import names is the release whose webhook checks it: a
/// selector in another namespace is refused from 1.17 on, and admitted by 1.16's webhook.
#[test]
fn the_release_named_by_the_scenario_and_the_import_is_the_one_checked() {
    let objects = objects(&json!({}), "other");
    for (release, refused) in [("1.16", false), ("1.17", true), ("1.19", true)] {
        let choice = Choice {
            version: v(release),
            ..Choice::default()
        };
        let got = explain(&objects.0, &choice, 0).map(|_| ());
        assert_eq!(
            got.as_ref()
                .err()
                .map(|e| e.code().as_str() == "refused_at_admission"),
            refused.then_some(true),
            "release {release}: {got:?}"
        );
    }
    let lt = json!({"clusterTolerations": [{"key": "k", "operator": "Lt", "value": "1",
                                            "effect": "NoSchedule"}],
                    "spreadConstraints": [{"spreadByField": "cluster", "minGroups": 1,
                                           "maxGroups": 2}]});
    for (release, refused) in [("1.17", false), ("1.18", true)] {
        let mut s = scenario(&lt);
        s.karmada = v(release);
        let got = schedule(&s, 0).map(|_| ());
        assert_eq!(
            got.as_ref()
                .err()
                .map(|e| e.code().as_str() == "refused_at_admission"),
            refused.then_some(true),
            "release {release}: {got:?}"
        );
    }
}
