//! Floor shares plus a remainder handed out in a sorted order: Karmada's `TakeByWeight`
//! (docs/rules/karmada.md §5) and the proposal "divide replicas by static weight evenly" (docs/rules/karmada.md §5).
//!
//! Each cluster first gets `floor(weight · N / Σweight)` (exact, in 128 bits). The
//! `N − Σshares` replicas left over go one each to the clusters in this order:
//!
//! - [`TieOrder::Random`] (method `remainder`, Karmada v1.8-v1.15): weight desc, then previous
//!   replicas desc, then a uniformly random order among full ties, from the seeded [`Rng`].
//! - [`TieOrder::Name`] (method `name-order`, Karmada <= v1.7): weight desc, then name asc
//!   ([`super::name_order`]).

use alloc::vec::Vec;
use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::rng::Rng;

/// One cluster taking part: its weight and its replicas in the previous result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    pub name: &'a str,
    pub weight: u64,
    pub last: u64,
}

/// How clusters with equal weight are ordered for the remainder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieOrder {
    /// Previous replicas desc, then uniformly random (seeded).
    Random { seed: u64 },
    /// Name ascending.
    Name,
}

/// Why a cluster comes before the next one in the remainder order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OrderReason {
    /// Its weight is higher.
    Weight,
    /// Equal weight, more replicas in the previous result (inertia).
    PreviousReplicas,
    /// Fully tied: the seeded random order decided.
    Random,
    /// Equal weight: name order decided.
    Name,
    /// The last cluster of the order.
    Last,
}

/// The result of one floor-plus-remainder division.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Division {
    /// `floor(weight · N / Σweight)` per entry, in input order.
    pub shares: Vec<u64>,
    /// Final new replicas per entry (share + 1 for those that got a remainder replica).
    pub replicas: Vec<u64>,
    /// The replicas left over after the floor shares.
    pub remainder: u64,
    /// Entry indices in remainder order.
    pub order: Vec<usize>,
    /// For `order[i]`, why it precedes `order[i + 1]`.
    pub reasons: Vec<OrderReason>,
    /// Whether a random order among full ties decided who got a remainder replica.
    pub random_decided: bool,
}

/// Divide `n` replicas among `entries` by weight. With Σweight = 0 nobody gets anything.
pub fn take_by_weight(n: u64, entries: &[Entry<'_>], ties: TieOrder) -> Division {
    // Σweight fits u64: callers bound it by i64::MAX (see `method::divide`).
    let total: u64 = entries
        .iter()
        .map(|e| e.weight)
        .fold(0, u64::saturating_add);
    let shares: Vec<u64> = entries
        .iter()
        .map(|e| super::floor_share(e.weight, n, total))
        .collect();
    let given: u64 = shares.iter().sum();
    let remainder = if total == 0 { 0 } else { n - given };

    let order = remainder_order(entries, ties);
    let reasons = order_reasons(entries, &order, ties);
    let mut replicas = shares.clone();
    for &i in order.iter().take(remainder as usize) {
        replicas[i] += 1;
    }
    let random_decided = matches!(ties, TieOrder::Random { .. })
        && remainder > 0
        && (remainder as usize) < order.len()
        && reasons[remainder as usize - 1] == OrderReason::Random;
    Division {
        shares,
        replicas,
        remainder,
        order,
        reasons,
        random_decided,
    }
}

fn by_weight_then_last(a: &Entry<'_>, b: &Entry<'_>) -> Ordering {
    b.weight.cmp(&a.weight).then(b.last.cmp(&a.last))
}

fn remainder_order(entries: &[Entry<'_>], ties: TieOrder) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    match ties {
        TieOrder::Name => super::name_order::sort(entries, &mut order),
        TieOrder::Random { seed } => {
            // Sort by the deterministic keys first (by name, so the input order cannot matter),
            // then shuffle each run of full ties: every order of a run is equally likely.
            crate::order::sort_indices(&mut order, &|a, b| {
                by_weight_then_last(&entries[a], &entries[b])
                    .then_with(|| entries[a].name.cmp(entries[b].name))
            });
            let mut rng = Rng::new(seed);
            let mut start = 0;
            while start < order.len() {
                let mut end = start + 1;
                while end < order.len()
                    && by_weight_then_last(&entries[order[start]], &entries[order[end]])
                        == Ordering::Equal
                {
                    end += 1;
                }
                rng.shuffle(&mut order[start..end]);
                start = end;
            }
        }
    }
    order
}

fn order_reasons(entries: &[Entry<'_>], order: &[usize], ties: TieOrder) -> Vec<OrderReason> {
    order
        .iter()
        .enumerate()
        .map(|(pos, &i)| {
            let Some(&j) = order.get(pos + 1) else {
                return OrderReason::Last;
            };
            let (a, b) = (&entries[i], &entries[j]);
            if a.weight != b.weight {
                OrderReason::Weight
            } else if let TieOrder::Name = ties {
                OrderReason::Name
            } else if a.last != b.last {
                OrderReason::PreviousReplicas
            } else {
                OrderReason::Random
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries<'a>(names: &'a [&'a str], weights: &[u64], last: &[u64]) -> Vec<Entry<'a>> {
        names
            .iter()
            .zip(weights)
            .zip(last)
            .map(|((name, &weight), &last)| Entry { name, weight, last })
            .collect()
    }

    #[test]
    fn proposal_current_realization_7_replicas_2_1_1() {
        // Seed 001: 7 * 2/4 = 3, 7/4 = 1, 7/4 = 1, remainder 2 -> member1 and member2.
        let names = ["member1", "member2", "member3"];
        let d = take_by_weight(7, &entries(&names, &[2, 1, 1], &[0; 3]), TieOrder::Name);
        assert_eq!(d.shares, [3, 1, 1]);
        assert_eq!(d.remainder, 2);
        assert_eq!(d.replicas, [4, 2, 1]);
        assert_eq!(
            d.reasons,
            [OrderReason::Weight, OrderReason::Name, OrderReason::Last]
        );
    }

    #[test]
    fn inertia_orders_before_chance() {
        let names = ["member1", "member2", "member3", "member4"];
        // Story 1, 7 -> 8 replicas, previous 3:2:1:1: member2 keeps its remainder replica.
        for seed in 0..50 {
            let d = take_by_weight(
                8,
                &entries(&names, &[2, 1, 1, 1], &[3, 2, 1, 1]),
                TieOrder::Random { seed },
            );
            assert_eq!(d.replicas, [4, 2, 1, 1]);
            assert!(!d.random_decided);
        }
    }

    #[test]
    fn zero_total_weight_gives_nothing() {
        let names = ["a", "b"];
        let d = take_by_weight(3, &entries(&names, &[0, 0], &[0, 0]), TieOrder::Name);
        assert_eq!(d.replicas, [0, 0]);
    }
}
