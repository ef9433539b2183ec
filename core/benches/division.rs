//! Division benchmarks (issue targets: Webster 100 clusters / 1k replicas <= 10 us; 10k clusters
//! at 1M and 10M replicas <= 2 ms, flat in replicas).

use std::hint::black_box;

use allot_core::division::tie::TieBreak;
use allot_core::division::webster::{allocate, Party};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

/// Deterministic pseudo-random weights in 1..=1000 (no RNG dependency in benches).
fn weights(n: usize) -> Vec<u64> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % 1000 + 1
        })
        .collect()
}

fn webster(c: &mut Criterion) {
    let mut group = c.benchmark_group("webster");
    for (clusters, replicas) in [
        (100usize, 1_000u64),
        (1_000, 100_000),
        (10_000, 1_000_000),
        (10_000, 10_000_000),
    ] {
        let names: Vec<String> = (0..clusters).map(|i| format!("member{i}")).collect();
        let w = weights(clusters);
        let parties: Vec<Party<'_>> = names
            .iter()
            .zip(&w)
            .map(|(name, &votes)| Party {
                name,
                votes,
                initial: 0,
            })
            .collect();
        group.bench_with_input(
            BenchmarkId::new(format!("{clusters}_clusters"), replicas),
            &replicas,
            |b, &r| {
                b.iter(|| allocate(black_box(r), black_box(&parties), TieBreak::DEFAULT).unwrap())
            },
        );
    }
    group.finish();
}

/// Static weights over 10k clusters, one rule per cluster by name plus a label-selector rule
/// that every cluster is tested against.
fn static_weight(c: &mut Criterion) {
    use allot_core::karmada::{assign, Cluster, Placement, StaticWeightRule};
    use allot_core::selector::cluster::ClusterAffinity;
    use allot_core::selector::label::LabelSelector;
    let n = 10_000;
    let w = weights(n);
    let clusters: Vec<Cluster> = (0..n)
        .map(|i| Cluster {
            name: format!("member{i}").into(),
            labels: [(
                "tier".into(),
                if i % 2 == 0 { "gold" } else { "silver" }.into(),
            )]
            .into(),
            ..Cluster::default()
        })
        .collect();
    let mut rules: Vec<StaticWeightRule> = (0..n)
        .map(|i| StaticWeightRule {
            target_cluster: ClusterAffinity {
                cluster_names: vec![format!("member{i}")],
                ..ClusterAffinity::default()
            },
            weight: w[i] as i64,
        })
        .collect();
    rules.push(StaticWeightRule {
        target_cluster: ClusterAffinity {
            label_selector: Some(LabelSelector {
                match_labels: [("tier".into(), "gold".into())].into(),
                ..LabelSelector::default()
            }),
            ..ClusterAffinity::default()
        },
        weight: 500,
    });
    let placement = Placement {
        replicas: 1_000_000,
        clusters,
        static_weights: Some(rules),
        ..Placement::default()
    };
    c.bench_function("static_weight/10k_clusters_rules", |b| {
        b.iter(|| assign(black_box(&placement)).unwrap())
    });
}

criterion_group!(benches, webster, static_weight);
criterion_main!(benches);
