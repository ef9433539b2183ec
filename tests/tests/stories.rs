//! The proposal's user stories 1-5 and its 7-replica example (docs/rules/karmada.md §5), with the inertia each
//! story claims, under the `remainder` method (the proposal), and what `name-order` and
//! `webster` do with the same input.

use std::collections::BTreeMap;

use allot_core::karmada::{assign, Cluster, Method, Placement, StaticWeightRule};
use allot_core::selector::cluster::ClusterAffinity;

const SEEDS: u64 = 200;

fn placement(
    replicas: i64,
    weights: &[(&str, i64)],
    previous: &[(&str, i64)],
    method: Method,
    seed: u64,
) -> Placement {
    Placement {
        replicas,
        clusters: weights
            .iter()
            .map(|(n, _)| Cluster {
                name: (*n).into(),
                ..Cluster::default()
            })
            .collect(),
        method,
        static_weights: Some(
            weights
                .iter()
                .map(|(n, w)| StaticWeightRule {
                    target_cluster: ClusterAffinity {
                        cluster_names: vec![(*n).into()],
                        ..ClusterAffinity::default()
                    },
                    weight: *w,
                })
                .collect(),
        ),
        previous: previous
            .iter()
            .map(|(n, r)| ((*n).to_string(), *r))
            .collect(),
        seed: Some(seed),
        ..Placement::default()
    }
}

/// Replicas per cluster, 0 for clusters without any.
fn divide(
    replicas: i64,
    weights: &[(&str, i64)],
    previous: &[(&str, i64)],
    method: Method,
    seed: u64,
) -> Vec<i64> {
    let outcome = assign(&placement(replicas, weights, previous, method, seed)).expect("assigns");
    let got: BTreeMap<&str, i64> = outcome
        .assignment
        .iter()
        .map(|a| (a.name.as_str(), a.replicas as i64))
        .collect();
    weights
        .iter()
        .map(|(n, _)| got.get(n).copied().unwrap_or(0))
        .collect()
}

fn named<'a>(names: &[&'a str], replicas: &[i64]) -> Vec<(&'a str, i64)> {
    names
        .iter()
        .copied()
        .zip(replicas.iter().copied())
        .collect()
}

const M4: [&str; 4] = ["member1", "member2", "member3", "member4"];

#[test]
fn seven_replicas_2_1_1_name_order_remainder_and_webster() {
    let w = [("member1", 2), ("member2", 1), ("member3", 1)];
    // The "current realization": remainder by weight, then name: always member2.
    assert_eq!(divide(7, &w, &[], Method::NameOrder, 0), [4, 2, 1]);
    // The proposal: member2 and member3 equally likely to get the second remainder replica.
    let mut seen = BTreeMap::new();
    for seed in 0..SEEDS {
        let r = divide(7, &w, &[], Method::Remainder, seed);
        assert_eq!(r[0], 4);
        assert_eq!(r[1] + r[2], 3);
        *seen.entry(r).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 2, "both [4,2,1] and [4,1,2] occur: {seen:?}");
    // Karmada 1.16+: Webster.
    assert_eq!(divide(7, &w, &[], Method::Webster, 0), [3, 2, 2]);
}

#[test]
fn story1_scale_up_7_to_8_keeps_inertia() {
    let w = named(&M4, &[2, 1, 1, 1]);
    for seed in 0..SEEDS {
        let before = divide(7, &w, &[], Method::Remainder, seed);
        assert_eq!(before[0], 3);
        assert_eq!(
            before[1..].iter().filter(|&&r| r == 2).count(),
            1,
            "{before:?}"
        );
        let after = divide(8, &w, &named(&M4, &before), Method::Remainder, seed + 1);
        // Only member1 grows (3 -> 4); the cluster that had the remainder keeps it.
        assert_eq!(after[0], 4);
        assert_eq!(&after[1..], &before[1..], "seed {seed}");
    }
}

#[test]
fn story2_scale_down_9_to_8_only_shrinks() {
    let w = named(&M4, &[2, 1, 1, 1]);
    for seed in 0..SEEDS {
        let before = divide(9, &w, &[], Method::Remainder, seed);
        assert_eq!(before[0], 4);
        let after = divide(8, &w, &named(&M4, &before), Method::Remainder, seed + 7);
        assert_eq!(after[0], 4);
        // Exactly one of the clusters holding 2 gives one up; nobody grows.
        let shrunk: Vec<usize> = (0..4).filter(|&i| after[i] < before[i]).collect();
        assert_eq!(shrunk.len(), 1);
        assert_eq!(before[shrunk[0]], 2);
        assert!((0..4).all(|i| after[i] <= before[i]));
    }
}

#[test]
fn story3_weight_change_keeps_inertia() {
    let previous = named(&M4, &[2, 1, 2, 1]);
    let w = named(&M4, &[2, 1, 1, 1]);
    for seed in 0..SEEDS {
        // 1) weights 1:1:1:1 -> 2:1:1:1 at 6 replicas: 3:1:1:1.
        assert_eq!(
            divide(6, &w, &previous, Method::Remainder, seed),
            [3, 1, 1, 1]
        );
        // 2) and replicas 6 -> 7: member3, which held more, keeps its second replica.
        assert_eq!(
            divide(7, &w, &previous, Method::Remainder, seed),
            [3, 1, 2, 1]
        );
    }
    // The first schedule, 6 over 1:1:1:1, gives two clusters 2.
    let first = divide(6, &named(&M4, &[1, 1, 1, 1]), &[], Method::Remainder, 3);
    assert_eq!(first.iter().filter(|&&r| r == 2).count(), 2);
}

#[test]
fn story4_added_cluster_takes_one_from_a_remainder_holder() {
    let m3 = ["member1", "member2", "member3"];
    let previous = named(&m3, &[2, 1, 2]);
    let mut seen = BTreeMap::new();
    for seed in 0..SEEDS {
        let after = divide(
            5,
            &named(&M4, &[1, 1, 1, 1]),
            &previous,
            Method::Remainder,
            seed,
        );
        assert!(after == [1, 1, 2, 1] || after == [2, 1, 1, 1], "{after:?}");
        *seen.entry(after).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 2);
}

#[test]
fn story5_removed_cluster_gives_its_replica_to_a_tie() {
    let m3 = ["member1", "member2", "member3"];
    let previous = named(&M4, &[2, 1, 1, 1]);
    let mut seen = BTreeMap::new();
    for seed in 0..SEEDS {
        let after = divide(
            5,
            &named(&m3, &[1, 1, 1]),
            &previous,
            Method::Remainder,
            seed,
        );
        assert!(after == [2, 2, 1] || after == [2, 1, 2], "{after:?}");
        *seen.entry(after).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 2);
}

/// Karmada issue #6735: with floor shares plus remainder, more replicas can mean fewer for a
/// cluster (the Alabama paradox). Webster never does that.
#[test]
fn remainder_method_is_not_monotone_but_webster_is() {
    let mut example = None;
    'search: for a in 1..12 {
        for b in 1..12 {
            for c in 1..12 {
                let w = [("m1", a), ("m2", b), ("m3", c)];
                for r in 1..30 {
                    let lo = divide(r, &w, &[], Method::Remainder, 0);
                    let hi = divide(r + 1, &w, &[], Method::Remainder, 0);
                    if (0..3).any(|i| hi[i] < lo[i]) {
                        example = Some((w, r));
                        break 'search;
                    }
                }
            }
        }
    }
    let (w, r) = example.expect("floor plus remainder shows the Alabama paradox on small inputs");
    let lo = divide(r, &w, &[], Method::Remainder, 0);
    let hi = divide(r + 1, &w, &[], Method::Remainder, 0);
    assert!((0..3).any(|i| hi[i] < lo[i]), "{w:?} {r}: {lo:?} -> {hi:?}");
    let lo = divide(r, &w, &[], Method::Webster, 0);
    let hi = divide(r + 1, &w, &[], Method::Webster, 0);
    assert!(
        (0..3).all(|i| hi[i] >= lo[i]),
        "{w:?} {r}: {lo:?} -> {hi:?}"
    );
}
