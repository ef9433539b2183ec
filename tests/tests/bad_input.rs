//! Malformed placements give typed errors naming the field, never a panic.

use allot_core::karmada::{assign, Cluster, Placement, StaticWeightRule, Strategy};
use allot_core::selector::cluster::{ClusterAffinity, FieldSelector};
use allot_core::selector::label::{LabelSelector, Requirement};

fn cluster(name: &str) -> Cluster {
    Cluster {
        name: name.into(),
        ..Cluster::default()
    }
}

fn base() -> Placement {
    Placement {
        replicas: 3,
        clusters: vec![cluster("a"), cluster("b")],
        ..Placement::default()
    }
}

fn err(p: Placement) -> (String, String) {
    let e = assign(&p).expect_err("must be rejected");
    (e.code().to_string(), e.field().to_string())
}

fn rule(affinity: ClusterAffinity, weight: i64) -> StaticWeightRule {
    StaticWeightRule {
        target_cluster: affinity,
        weight,
    }
}

#[test]
fn negative_replicas() {
    assert_eq!(
        err(Placement {
            replicas: -1,
            ..base()
        }),
        ("negative".into(), "replicas".into())
    );
}

#[test]
fn too_many_replicas() {
    assert_eq!(
        err(Placement {
            replicas: i64::MAX,
            ..base()
        }),
        ("too_large".into(), "replicas".into())
    );
}

#[test]
fn negative_weight() {
    let p = Placement {
        static_weights: Some(vec![rule(ClusterAffinity::default(), -5)]),
        ..base()
    };
    assert_eq!(
        err(p),
        ("negative".into(), "staticWeights[0].weight".into())
    );
}

#[test]
fn overflowing_weights() {
    let p = Placement {
        static_weights: Some(vec![
            rule(
                ClusterAffinity {
                    cluster_names: vec!["a".into()],
                    ..ClusterAffinity::default()
                },
                i64::MAX,
            ),
            rule(
                ClusterAffinity {
                    cluster_names: vec!["b".into()],
                    ..ClusterAffinity::default()
                },
                i64::MAX,
            ),
        ]),
        ..base()
    };
    assert_eq!(err(p).0, "too_large");
}

#[test]
fn duplicate_cluster_names() {
    let p = Placement {
        clusters: vec![cluster("a"), cluster("a")],
        ..base()
    };
    assert_eq!(err(p), ("duplicate_name".into(), "clusters[1].name".into()));
}

#[test]
fn empty_candidates() {
    let p = Placement {
        clusters: vec![],
        ..base()
    };
    let e = assign(&p).unwrap_err();
    assert_eq!(e.code(), "no_candidates");
    assert!(e.to_string().contains("no clusters available to schedule"));
}

/// A negative figure in the division's input is Karmada's own (a wrapped estimate before 1.18):
/// it lowers the total as in Karmada, and the shortfall is said in those terms.
#[test]
fn negative_available_replicas_count_and_negative_previous_is_refused() {
    let mut p = Placement {
        strategy: Strategy::DynamicWeight,
        ..base()
    };
    p.clusters[0].available_replicas = Some(4);
    p.clusters[1].available_replicas = Some(-2);
    match assign(&p) {
        Err(allot_core::Error::Unschedulable {
            requested,
            available,
            ..
        }) => assert_eq!((requested, available), (3, 2)),
        other => panic!("expected unschedulable, got {other:?}"),
    }
    p.clusters[0].available_replicas = Some(5);
    let got = assign(&p).unwrap().assignment;
    assert_eq!(
        got.iter()
            .map(|a| (a.name.as_str(), a.replicas))
            .collect::<Vec<_>>(),
        [("a", 3)]
    );
    let p = Placement {
        previous: [("a".to_string(), -1)].into(),
        ..base()
    };
    assert_eq!(err(p), ("negative".into(), "previous.a".into()));
}

/// The error a static weight rule targeting `affinity` makes: its code and field.
fn weight_err(affinity: ClusterAffinity) -> (String, String) {
    err(Placement {
        static_weights: Some(vec![rule(affinity, 1)]),
        ..base()
    })
}

fn requirement(key: &str, operator: &str, values: &[&str]) -> Requirement {
    Requirement {
        key: key.into(),
        operator: operator.into(),
        values: values.iter().map(|v| (*v).into()).collect(),
    }
}

/// An affinity whose label selector is the one expression.
fn labels_matching(key: &str, operator: &str, values: &[&str]) -> ClusterAffinity {
    ClusterAffinity {
        label_selector: Some(LabelSelector {
            match_expressions: vec![requirement(key, operator, values)],
            ..LabelSelector::default()
        }),
        ..ClusterAffinity::default()
    }
}

/// An affinity whose field selector is the one expression.
fn fields_matching(key: &str, operator: &str, values: &[&str]) -> ClusterAffinity {
    ClusterAffinity {
        field_selector: Some(FieldSelector {
            match_expressions: vec![requirement(key, operator, values)],
        }),
        ..ClusterAffinity::default()
    }
}

#[test]
fn invalid_selectors() {
    let bad_label = ClusterAffinity {
        label_selector: Some(LabelSelector {
            match_labels: [("".into(), "x".into())].into(),
            ..LabelSelector::default()
        }),
        ..ClusterAffinity::default()
    };
    let (code, field) = weight_err(bad_label);
    assert_eq!(code, "invalid_selector");
    assert!(
        field.starts_with("staticWeights[0].targetCluster.labelSelector"),
        "{field}"
    );
    assert_eq!(
        weight_err(labels_matching("env", "Near", &[])),
        (
            "unknown_value".into(),
            "staticWeights[0].targetCluster.labelSelector.matchExpressions[0].operator".into()
        )
    );
    assert_eq!(
        weight_err(fields_matching("metadata.name", "In", &["a"])),
        (
            "unknown_value".into(),
            "staticWeights[0].targetCluster.fieldSelector.matchExpressions[0].key".into()
        )
    );
    assert_eq!(
        weight_err(fields_matching("region", "In", &[])).0,
        "invalid_selector"
    );
}

#[test]
fn rejects_unknown_fields_and_bad_enums_when_parsed() {
    let unknown: Result<Placement, _> =
        serde_json::from_str(r#"{"replicas":1,"clusters":[],"colour":"red"}"#);
    assert!(unknown.unwrap_err().to_string().contains("colour"));
    let bad: Result<Placement, _> =
        serde_json::from_str(r#"{"replicas":1,"clusters":[],"method":"dhondt"}"#);
    assert!(bad.is_err());
}

#[test]
fn division_entries_name_their_field() {
    use allot_core::division::method::{divide, Input, Method};
    use allot_core::karmada::dynamic;
    let input = |name| Input {
        name,
        weight: 1,
        initial: 0,
        last: 0,
    };
    let e = divide(Method::Webster, 3, &[input("a"), input("a")], "", 0).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("duplicate_name", "clusters[1].name")
    );
    let e = divide(Method::Remainder, 3, &[input("a"), input("")], "", 0).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("empty_name", "clusters[1].name")
    );
    let e = dynamic::divide(
        &["a"],
        &[(0, 2), (5, 1)],
        2,
        &[],
        false,
        Method::Webster,
        "",
        0,
    )
    .unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("unknown_value", "list[1]")
    );
}
