//! Estimators end to end: the KEP-521 stories through estimation and Aggregated assignment,
//! the resource-modeling docs' tables, properties of the estimators, and bad input.

use proptest::prelude::*;

use allot_core::estimate::accurate::{Node, NodeState, Pod};
use allot_core::estimate::by_model::ModelMethod;
use allot_core::estimate::combine::{combine, EstimatorAnswers};
use allot_core::estimate::general::{
    max_available_replicas, ClusterView, Detail, ResourceSummary, Summary,
};
use allot_core::estimate::models::{self, default_models, AllocatableModeling, ResourceModel};
use allot_core::karmada::{assign, Cluster, Placement, Strategy};
use allot_core::quantity::{self, Unit};
use allot_core::resource::ResourceList;
use allot_core::selector::node::NodeClaim;

fn nodes(prefix: &str, n: usize, cores: u64, labels: &[(&str, &str)]) -> Vec<Node> {
    (0..n)
        .map(|i| Node {
            name: format!("{prefix}{i}"),
            labels: labels.iter().map(|&(k, v)| (k.into(), v.into())).collect(),
            allocatable: ResourceList::from_units([("cpu", cores * 1000), ("pods", 110)]),
            ..Node::default()
        })
        .collect()
}

/// Estimate both clusters accurately, combine with the general estimator's answers (which
/// favour A by total CPU), and assign one replica Aggregated.
fn story(a: Vec<Node>, b: Vec<Node>, claim: Option<NodeClaim>) -> (u64, u64, String) {
    let request = ResourceList::from_units([("cpu", 12_000)]);
    let est = |n: Vec<Node>| {
        NodeState::build(n, &[])
            .unwrap()
            .estimate(&request, claim.as_ref(), &[])
            .unwrap()
            .replicas as i64
    };
    let (ea, eb) = (est(a), est(b));
    let general = EstimatorAnswers {
        estimator: "general".into(),
        replicas: Some([("A".into(), 6), ("B".into(), 2)].into()),
    };
    let accurate = EstimatorAnswers {
        estimator: "accurate".into(),
        replicas: Some([("A".into(), ea), ("B".into(), eb)].into()),
    };
    let winner = |answers: &[EstimatorAnswers]| {
        let combined = combine(&["A", "B"], 1, false, answers);
        let placement = Placement {
            replicas: 1,
            strategy: Strategy::Aggregated,
            clusters: combined
                .iter()
                .map(|c| Cluster {
                    name: c.cluster.clone(),
                    available_replicas: Some(c.replicas),
                    ..Cluster::default()
                })
                .collect(),
            ..Placement::default()
        };
        let outcome = assign(&placement).unwrap();
        assert_eq!(outcome.assignment.len(), 1);
        outcome.assignment[0].name.to_string()
    };
    // By the summary alone, A looks better: that is the KEP's problem.
    assert_eq!(winner(std::slice::from_ref(&general)), "A");
    (ea as u64, eb as u64, winner(&[general, accurate]))
}

#[test]
fn kep_story_1_cluster_b_wins() {
    // A: 10 nodes × 8 cores free; B: 2 nodes × 16. One replica of 12 cores.
    let (a, b, winner) = story(nodes("a", 10, 8, &[]), nodes("b", 2, 16, &[]), None);
    assert_eq!((a, b), (0, 2));
    assert_eq!(winner, "B");
}

#[test]
fn kep_story_2_cluster_b_wins() {
    // A: 10 nodes × 16 cores, unlabelled; B: 2 nodes × 16 with key=value.
    let claim = NodeClaim {
        node_selector: [("key".into(), "value".into())].into(),
        ..NodeClaim::default()
    };
    let (a, b, winner) = story(
        nodes("a", 10, 16, &[]),
        nodes("b", 2, 16, &[("key", "value")]),
        Some(claim),
    );
    assert_eq!((a, b), (0, 2));
    assert_eq!(winner, "B");
}

/// The docs' customized-model tables through the general estimator (the model path).
#[test]
fn resource_model_tables_through_the_general_estimator() {
    let m = default_models();
    let summary = |counts: &[(u64, u64)]| ResourceSummary {
        allocatable: ResourceList::from_units([
            ("pods", 1000),
            ("cpu", 1 << 40),
            ("memory", 1 << 50),
        ]),
        allocatable_modelings: counts
            .iter()
            .map(|&(grade, count)| AllocatableModeling { grade, count })
            .collect(),
        ..ResourceSummary::default()
    };
    let members = [
        Summary::of(&summary(&[(2, 1), (3, 6)])),
        Summary::of(&summary(&[(2, 4), (3, 4)])),
        Summary::of(&summary(&[(6, 1)])),
    ];
    for method in [ModelMethod::Simulator, ModelMethod::GradeFormula] {
        for (cores, gi, want) in [(3u64, 20u64, [6i64, 4, 10]), (5, 60, [0, 0, 4])] {
            let req = ResourceList::from_units([("cpu", cores * 1000), ("memory", gi << 30)]);
            let got: Vec<i64> = members
                .iter()
                .map(|s| {
                    let view = ClusterView {
                        summary: Some(s),
                        models: &m,
                        model_method: method,
                        ..ClusterView::default()
                    };
                    max_available_replicas(&view, Some(&req)).replicas
                })
                .collect();
            assert_eq!(got, want, "{method:?} {cores}C/{gi}Gi");
        }
    }
}

proptest! {
    /// The accurate estimate is the sum of per-node figures; a pod more never raises it.
    #[test]
    fn accurate_is_a_sum_and_monotone_in_pods(
        caps in prop::collection::vec((0u64..16_000, 0u64..20), 1..12),
        pods in prop::collection::vec((0usize..12, 0u64..4_000), 0..30),
        req in 1u64..3_000,
    ) {
        let node_list: Vec<Node> = caps
            .iter()
            .enumerate()
            .map(|(i, &(cpu, slots))| Node {
                name: format!("n{i}"),
                allocatable: ResourceList::from_units([("cpu", cpu), ("pods", slots)]),
                ..Node::default()
            })
            .collect();
        let pod_list: Vec<Pod> = pods
            .iter()
            .map(|&(n, cpu)| Pod {
                node_name: Some(format!("n{}", n % caps.len())),
                requests: ResourceList::from_units([("cpu", cpu)]),
                ..Pod::default()
            })
            .collect();
        let request = ResourceList::from_units([("cpu", req)]);
        let s = NodeState::build(node_list.clone(), &pod_list).unwrap();
        let e = s.estimate(&request, None, &[]).unwrap();
        let by_hand: u64 = (0..caps.len()).map(|i| (s.free(i, "cpu") / req).min(s.slots(i))).sum();
        prop_assert_eq!(e.replicas, by_hand);
        let mut more = pod_list.clone();
        more.push(Pod {
            node_name: Some("n0".into()),
            requests: ResourceList::from_units([("cpu", 1)]),
            ..Pod::default()
        });
        let s2 = NodeState::build(node_list, &more).unwrap();
        prop_assert!(s2.estimate(&request, None, &[]).unwrap().replicas <= e.replicas);
    }

    /// The general estimate never exceeds the free pod slots, shrinks as the request grows,
    /// and is the same with or without explanations.
    #[test]
    fn general_is_bounded_and_monotone(
        alloc in (0u64..100_000, 0u64..1 << 40, 0u64..500),
        used in (0u64..100_000, 0u64..1 << 40, 0u64..500),
        req in (0u64..10_000, 0u64..1 << 32),
        extra in 0u64..1_000,
    ) {
        let s = ResourceSummary {
            allocatable: ResourceList::from_units([("cpu", alloc.0), ("memory", alloc.1), ("pods", alloc.2)]),
            allocated: ResourceList::from_units([("cpu", used.0), ("memory", used.1), ("pods", used.2)]),
            ..ResourceSummary::default()
        };
        let s = Summary::of(&s);
        let view = ClusterView { summary: Some(&s), ..ClusterView::default() };
        let small = ResourceList::from_units([("cpu", req.0), ("memory", req.1)]);
        let big = ResourceList::from_units([("cpu", req.0 + extra), ("memory", req.1)]);
        let a = max_available_replicas(&view, Some(&small));
        let b = max_available_replicas(&view, Some(&big));
        prop_assert!(i128::from(a.replicas) <= a.allowed_pods.max(0));
        prop_assert!(b.replicas <= a.replicas);
        let quick = allot_core::estimate::general::max_available_replicas_with(&view, Some(&small), Detail::Numbers);
        prop_assert_eq!(quick.replicas, a.replicas);
        prop_assert!(quick.explanation.is_empty());
    }

    /// Quantities format and parse back to the same integer.
    #[test]
    fn quantities_round_trip(v in 0u64..=i64::MAX as u64, r in prop::sample::select(vec!["cpu", "memory", "pods", "nvidia.com/gpu"])) {
        if r == "cpu" && v > i64::MAX as u64 / 1000 { return Ok(()); }
        let text = quantity::format(v, r);
        prop_assert_eq!(quantity::parse(&text, Unit::of(r)), Ok(v));
    }

    /// Arbitrary text never panics the quantity parser.
    #[test]
    fn quantity_parser_total(text in ".{0,24}") {
        let _ = quantity::parse(&text, Unit::Milli);
        let _ = quantity::parse(&text, Unit::Base);
    }
}

#[test]
fn bad_input_is_typed_and_names_the_field() {
    // Malformed quantity inside a node.
    let e = allot_tests::scenario::read(
        r#"{"version":1,"clusters":[{"name":"c","nodes":[{"name":"n","allocatable":{"cpu":"4 cores"}}]}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("invalid_quantity", "clusters[0].nodes[0].allocatable.cpu")
    );
    // Unknown node affinity operator.
    let claim: NodeClaim = serde_json::from_str(
        r#"{"hardNodeAffinity":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"Near","values":["a"]}]}]}}"#,
    )
    .unwrap();
    let s = NodeState::build(nodes("n", 1, 4, &[]), &[]).unwrap();
    let e = s
        .estimate(&ResourceList::from_units([("cpu", 1)]), Some(&claim), &[])
        .unwrap_err();
    assert_eq!(e.code(), "unknown_value");
    assert!(
        e.field().text().ends_with("matchExpressions[0].operator"),
        "{}",
        e.field()
    );
    // Duplicate node names.
    let mut twice = nodes("n", 1, 4, &[]);
    twice.extend(nodes("n", 1, 4, &[]));
    let e = NodeState::build(twice, &[]).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("duplicate_name", "nodes[1].name")
    );
    // An invalid model names grade, resource and rule.
    let mut m: Vec<ResourceModel> = default_models();
    m[4].ranges[1].min += 1;
    let e = models::validate(&m).unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.field().text().as_str()),
        ("invalid_model", "resourceModels[4].ranges[1].min")
    );
    assert!(e.to_string().contains("grade 4"), "{e}");
    assert!(e.to_string().contains("memory"), "{e}");
    // Grade counts beyond what can be simulated node by node: too_large, at once.
    let huge = [AllocatableModeling {
        grade: 0,
        count: u64::MAX,
    }];
    let two = [
        allot_core::estimate::Component {
            replicas: 1,
            ..Default::default()
        },
        allot_core::estimate::Component {
            replicas: 2,
            ..Default::default()
        },
    ];
    let e = allot_core::estimate::by_model::sets_by_models(&default_models(), &huge, &two, 10, &[])
        .unwrap_err();
    assert_eq!(e.code(), "too_large");
    // ...while a single request over the same counts is answered by arithmetic.
    let r = allot_core::estimate::by_model::replicas_by_models(
        &default_models(),
        &huge,
        &ResourceList::new(),
        ModelMethod::Simulator,
        &[],
    )
    .unwrap();
    assert_eq!(r.replicas, i64::from(i32::MAX));
}
