//! Property tests of replica assignment: sums, capacities, determinism, Webster's monotonicity,
//! and the uniformity of the `remainder` method's random tie order (chi-square).

use std::collections::BTreeMap;

use proptest::prelude::*;

use allot_core::karmada::{assign, Cluster, Method, Placement, StaticWeightRule, Strategy as Kind};
use allot_core::selector::cluster::ClusterAffinity;

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        Just(Method::Webster),
        Just(Method::Remainder),
        Just(Method::NameOrder)
    ]
}

fn clusters(available: &[i64]) -> Vec<Cluster> {
    available
        .iter()
        .enumerate()
        .map(|(i, &a)| Cluster {
            name: format!("member{i}").into(),
            available_replicas: Some(a),
            ..Cluster::default()
        })
        .collect()
}

fn static_placement(
    replicas: i64,
    weights: &[i64],
    method: Method,
    seed: u64,
    uid: &str,
) -> Placement {
    Placement {
        replicas,
        clusters: clusters(&vec![0; weights.len()]),
        method,
        static_weights: Some(
            weights
                .iter()
                .enumerate()
                .map(|(i, &w)| StaticWeightRule {
                    target_cluster: ClusterAffinity {
                        cluster_names: vec![format!("member{i}")],
                        ..ClusterAffinity::default()
                    },
                    weight: w,
                })
                .collect(),
        ),
        seed: Some(seed),
        uid: uid.into(),
        ..Placement::default()
    }
}

fn by_name(p: &Placement) -> BTreeMap<String, u64> {
    assign(p)
        .unwrap()
        .assignment
        .into_iter()
        .map(|a| (a.name.to_string(), a.replicas))
        .collect()
}

proptest! {
    #[test]
    fn static_weights_sum_to_the_request(
        replicas in 0i64..5000,
        weights in prop::collection::vec(0i64..1000, 1..20),
        method in method(),
        seed: u64,
    ) {
        let total: u64 = by_name(&static_placement(replicas, &weights, method, seed, "")).values().sum();
        prop_assert_eq!(total, replicas as u64);
    }

    #[test]
    fn dynamic_and_aggregated_respect_capacity(
        available in prop::collection::vec(0i64..200, 1..20),
        fraction in 0.0f64..=1.0,
        aggregated: bool,
        method in method(),
        seed: u64,
    ) {
        let capacity: i64 = available.iter().sum();
        let replicas = (capacity as f64 * fraction) as i64;
        let p = Placement {
            replicas,
            clusters: clusters(&available),
            strategy: if aggregated { Kind::Aggregated } else { Kind::DynamicWeight },
            method,
            seed: Some(seed),
            ..Placement::default()
        };
        let got = by_name(&p);
        prop_assert_eq!(got.values().sum::<u64>(), replicas as u64);
        for (i, &a) in available.iter().enumerate() {
            let name = format!("member{i}");
            prop_assert!(got.get(&name).copied().unwrap_or(0) <= a as u64, "{} above {}", name, a);
        }
    }

    #[test]
    fn more_than_capacity_is_unschedulable_with_the_shortfall(
        available in prop::collection::vec(0i64..100, 1..10),
        extra in 1i64..100,
    ) {
        let capacity: i64 = available.iter().sum();
        let p = Placement {
            replicas: capacity + extra,
            clusters: clusters(&available),
            strategy: Kind::DynamicWeight,
            ..Placement::default()
        };
        match assign(&p) {
            Err(allot_core::Error::Unschedulable { requested, available, .. }) => {
                prop_assert_eq!(requested as i64 - available, extra);
            }
            other => prop_assert!(false, "expected unschedulable, got {:?}", other),
        }
    }

    #[test]
    fn same_input_and_seed_same_outcome(
        replicas in 0i64..500,
        weights in prop::collection::vec(0i64..5, 1..12),
        method in method(),
        seed: u64,
    ) {
        let p = static_placement(replicas, &weights, method, seed, "uid-1");
        prop_assert_eq!(assign(&p).unwrap(), assign(&p).unwrap());
    }

    #[test]
    fn webster_is_monotone_in_replicas(
        replicas in 0i64..2000,
        weights in prop::collection::vec(0i64..100, 1..15),
        uid in "[a-z0-9-]{0,12}",
    ) {
        let lo = by_name(&static_placement(replicas, &weights, Method::Webster, 0, &uid));
        let hi = by_name(&static_placement(replicas + 1, &weights, Method::Webster, 0, &uid));
        for (name, r) in lo {
            prop_assert!(hi.get(&name).copied().unwrap_or(0) >= r, "{} lost a replica", name);
        }
    }
}

/// Pearson's chi-square statistic of `counts` against a uniform expectation.
fn chi_square(counts: &BTreeMap<Vec<String>, u32>, categories: usize, trials: u32) -> f64 {
    let expected = f64::from(trials) / categories as f64;
    let seen: f64 = counts
        .values()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    // Categories never seen contribute (0 - e)^2 / e = e each.
    seen + (categories - counts.len()) as f64 * expected
}

/// The remainder order of fully tied clusters over 10,000 seeds: every order equally likely.
fn tie_orders(n: usize) -> (BTreeMap<Vec<String>, u32>, u32) {
    let trials = 10_000u32;
    let mut counts = BTreeMap::new();
    for seed in 0..u64::from(trials) {
        // n clusters of weight 1 and n + 1 replicas: one remainder replica, all fully tied.
        let outcome = assign(&static_placement(
            n as i64 + 1,
            &vec![1; n],
            Method::Remainder,
            seed,
            "",
        ))
        .unwrap();
        assert_eq!(
            outcome.seed,
            Some(seed),
            "randomness decided, so the seed is reported"
        );
        let order: Vec<String> = outcome.trace.divisions[0]
            .order
            .iter()
            .map(|s| s.cluster.to_string())
            .collect();
        *counts.entry(order).or_insert(0) += 1;
    }
    (counts, trials)
}

/// `n` tied clusters come out in every one of their `orders` orders, each about as often:
/// the chi-square statistic stays below `bound`.
fn tied_clusters_are_ordered_uniformly(n: usize, orders: usize, bound: f64) {
    let (counts, trials) = tie_orders(n);
    assert_eq!(counts.len(), orders);
    let x = chi_square(&counts, orders, trials);
    assert!(x < bound, "chi-square {x} over {counts:?}");
}

#[test]
fn three_tied_clusters_are_ordered_uniformly() {
    // df = 5; P(chi2 > 20.5) = 0.001.
    tied_clusters_are_ordered_uniformly(3, 6, 20.5);
}

#[test]
fn four_tied_clusters_are_ordered_uniformly() {
    // df = 23; P(chi2 > 49.7) = 0.001.
    tied_clusters_are_ordered_uniformly(4, 24, 49.7);
}
