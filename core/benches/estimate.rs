//! Estimator benchmarks (issue targets: accurate estimator over 5,000 nodes and 150,000 pods:
//! build <= 20 ms, each estimate <= 0.5 ms; general estimator over 10,000 clusters <= 2 ms;
//! resource-model simulator over 10,000 virtual nodes <= 5 ms).

use std::hint::black_box;

use allot_core::estimate::accurate::{Node, NodeState, Pod};
use allot_core::estimate::by_model::{replicas_by_models, sets_by_models, ModelMethod};
use allot_core::estimate::general::{
    max_available_replicas_with, ClusterView, Detail, ResourceSummary, Summary,
};
use allot_core::estimate::models::{default_models, AllocatableModeling};
use allot_core::estimate::Component;
use allot_core::resource::ResourceList;
use allot_core::selector::node::NodeClaim;
use criterion::{criterion_group, criterion_main, Criterion};

/// Deterministic pseudo-random numbers (no RNG dependency in benches).
struct Xs(u64);
impl Xs {
    fn next(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }
}

fn cluster_nodes(n: usize, pods_per_node: usize) -> (Vec<Node>, Vec<Pod>) {
    let mut x = Xs(0x9e37_79b9_7f4a_7c15);
    let nodes: Vec<Node> = (0..n)
        .map(|i| Node {
            name: format!("node-{i}"),
            labels: [
                ("zone".to_string(), format!("zone-{}", i % 3)),
                (
                    "pool".to_string(),
                    if i % 4 == 0 { "gpu" } else { "general" }.to_string(),
                ),
            ]
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect(),
            allocatable: ResourceList::from_units([
                ("cpu", 64_000),
                ("memory", 256 << 30),
                ("pods", 110),
                ("ephemeral-storage", 500 << 30),
            ]),
            ..Node::default()
        })
        .collect();
    let pods: Vec<Pod> = (0..n * pods_per_node)
        .map(|i| Pod {
            name: format!("pod-{i}"),
            node_name: Some(format!("node-{}", i % n)),
            requests: ResourceList::from_units([
                ("cpu", 100 + x.next(1_500)),
                ("memory", (64 + x.next(4_096)) << 20),
            ]),
            ..Pod::default()
        })
        .collect();
    (nodes, pods)
}

fn accurate(c: &mut Criterion) {
    let (nodes, pods) = cluster_nodes(5_000, 30);
    c.bench_function("accurate/build_5k_nodes_150k_pods", |b| {
        b.iter(|| NodeState::build(black_box(nodes.clone()), black_box(&pods)).unwrap())
    });
    let state = NodeState::build(nodes, &pods).unwrap();
    let request = ResourceList::from_units([("cpu", 500), ("memory", 1 << 30)]);
    c.bench_function("accurate/estimate_5k_nodes", |b| {
        b.iter(|| state.estimate(black_box(&request), None, &[]).unwrap())
    });
    let claim = NodeClaim {
        node_selector: [("pool".to_string(), "general".to_string())].into(),
        ..NodeClaim::default()
    };
    c.bench_function("accurate/estimate_5k_nodes_node_selector", |b| {
        b.iter(|| {
            state
                .estimate(black_box(&request), Some(&claim), &[])
                .unwrap()
        })
    });
}

fn general(c: &mut Criterion) {
    let mut x = Xs(42);
    // Compiled once, as a cluster set compiles its clusters' summaries for every binding.
    let summaries: Vec<Summary> = (0..10_000)
        .map(|_| ResourceSummary {
            allocatable: ResourceList::from_units([
                ("cpu", 400_000),
                ("memory", 1600 << 30),
                ("pods", 1100),
            ]),
            allocated: ResourceList::from_units([
                ("cpu", x.next(400_000)),
                ("memory", x.next(1600) << 30),
                ("pods", x.next(1100)),
            ]),
            ..ResourceSummary::default()
        })
        .map(|s| Summary::of(&s))
        .collect();
    let request = ResourceList::from_units([("cpu", 500), ("memory", 1 << 30)]);
    for (label, detail) in [
        ("numbers", Detail::Numbers),
        ("explained", Detail::Explained),
    ] {
        c.bench_function(&format!("general/10k_clusters_{label}"), |b| {
            b.iter(|| {
                summaries
                    .iter()
                    .map(|s| {
                        let view = ClusterView {
                            summary: Some(s),
                            ..ClusterView::default()
                        };
                        max_available_replicas_with(&view, Some(black_box(&request)), detail)
                            .replicas
                    })
                    .sum::<i64>()
            })
        });
    }
}

fn models(c: &mut Criterion) {
    let m = default_models();
    // 10,000 virtual nodes spread over the nine grades.
    let counts: Vec<AllocatableModeling> = (0..9)
        .map(|g| AllocatableModeling {
            grade: g,
            count: if g < 8 { 1_111 } else { 1_112 },
        })
        .collect();
    let request = ResourceList::from_units([("cpu", 3_000), ("memory", 20 << 30)]);
    c.bench_function("models/replicas_10k_virtual_nodes", |b| {
        b.iter(|| {
            replicas_by_models(
                &m,
                &counts,
                black_box(&request),
                ModelMethod::Simulator,
                &[],
            )
            .unwrap()
        })
    });
    let components = [
        Component {
            name: "jobmanager".into(),
            replicas: 1,
            requests: ResourceList::from_units([("cpu", 1_000), ("memory", 2 << 30)]),
            node_claim: None,
        },
        Component {
            name: "taskmanager".into(),
            replicas: 3,
            requests: ResourceList::from_units([("cpu", 3_000), ("memory", 10 << 30)]),
            node_claim: None,
        },
    ];
    c.bench_function("models/sets_10k_virtual_nodes", |b| {
        b.iter(|| {
            sets_by_models(&m, &counts, black_box(&components), i32::MAX as u64, &[]).unwrap()
        })
    });
}

criterion_group!(benches, accurate, general, models);
criterion_main!(benches);
