//! GLOBAL (docs/rules/eru.md A4): hand each new instance to the node whose usage after taking it
//! (`usage + rate`) is lowest, input order among equals, so usage ratios stay even.
//!
//! In bulk: node `i`'s `k`-th new instance has the key `usage_i + k × rate_i`, non-decreasing
//! in `k`; the instances handed out are the `need` smallest keys (ties by node order). Only a
//! node whose first key is among the `need` smallest first keys can take any, so a small need
//! looks at those nodes alone. Then either the keys are taken one at a time from a heap (when
//! the need is within a few instances per node), or a bisection over the keys' bit patterns
//! finds the threshold key in at most 64 passes.
//!
//! The design document's example gives node1 2 and node2 1; the rule gives node1 3, because
//! node1's keys 0.014, 0.018 and 0.022 all stay below node2's 0.026 (docs/rules/eru.md A4).

use alloc::collections::BinaryHeap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::{map_of, need_within_total, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};

/// The key of node `n`'s `k`-th new instance (`+ 0.0` turns a negative zero into zero, so
/// that the bit patterns of keys order as their values do).
fn key(n: &StrategyNode, k: u64) -> f64 {
    n.usage + (k as f64) * n.rate + 0.0
}

/// A key as an ordered integer (keys are >= 0).
fn bits(n: &StrategyNode, k: u64) -> u64 {
    key(n, k).to_bits()
}

/// How many of node `n`'s keys are `<= t` (at most its capacity).
fn at_most(n: &StrategyNode, t: f64) -> u64 {
    let cap = n.capacity.saturating();
    if cap == 0 || key(n, 1) > t {
        return 0;
    }
    if n.rate == 0.0 {
        return cap;
    }
    let est = (t - n.usage) / n.rate;
    if est >= cap as f64 {
        // Checked below only when close to the cap.
        return if key(n, cap) <= t {
            cap
        } else {
            exact(n, t, cap - 1, cap)
        };
    }
    if est < 1.0 {
        return exact(n, t, 1, cap);
    }
    let k = est as u64; // truncates: the floor of a positive value
    let frac = est - k as f64;
    // The quotient and the key formula differ by a few units in the last place; away from a
    // step by more than that, the floor is exact.
    let tol = (t.abs() + n.usage.abs()) * 1e-14 / n.rate + 1e-9;
    if frac > tol && frac < 1.0 - tol {
        return k.min(cap);
    }
    exact(n, t, k.min(cap), cap)
}

/// The largest `k <= cap` with `key(k) <= t` (0 if none), from an estimate `k`: gallop, then
/// bisect, so a poor estimate costs a logarithm, not a loop.
fn exact(n: &StrategyNode, t: f64, k: u64, cap: u64) -> u64 {
    let ok = |k: u64| k == 0 || key(n, k) <= t;
    // Bracket: ok(lo) holds, ok(hi) fails (or hi = cap + 1).
    let (mut lo, mut hi);
    if ok(k) {
        lo = k;
        let mut step = 1u64;
        loop {
            let next = lo.saturating_add(step);
            if next > cap {
                hi = cap.saturating_add(1);
                break;
            }
            if !ok(next) {
                hi = next;
                break;
            }
            lo = next;
            step = step.saturating_mul(2);
        }
    } else {
        hi = k;
        let mut step = 1u64;
        loop {
            let next = hi.saturating_sub(step);
            if ok(next) {
                lo = next;
                break;
            }
            hi = next;
            step = step.saturating_mul(2);
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    need_within_total(c)?;
    let with_room = || (0..nodes.len()).filter(|&i| !nodes[i].capacity.is_zero());
    // With fewer than 4 nodes per instance, only the contenders can take any; there are at
    // least `need` of them, each with room for one.
    let live: Vec<usize> = if c.need.saturating_mul(4) <= nodes.len() as u64 {
        contenders(nodes, with_room(), c.need)
    } else {
        with_room().collect()
    };
    let room = |live: &mut dyn Iterator<Item = usize>| {
        live.fold(0u128, |s, i| s + u128::from(nodes[i].capacity.saturating()))
    };
    if room(&mut live.iter().copied()) < u128::from(c.need) {
        return Err(Error::InsufficientResource {
            field: Path::fields(c.paths.count),
            need: c.need,
            available: u64::try_from(room(&mut with_room())).unwrap_or(u64::MAX),
            detail: String::new(),
        });
    }
    let (added, t) = if c.need <= 4 * live.len() as u64 {
        one_at_a_time(nodes, &live, c.need)
    } else {
        by_threshold(nodes, &live, c.need)
    };
    let explanation = c.says(|| {
        format!(
            "GLOBAL: every new instance went to the node with the lowest usage after it; the \
             last one brought a node to usage {}",
            crate::text::Decimal(t)
        )
    });
    Ok((
        map_of(nodes.len(), added.into_iter().filter(|&(_, k)| k > 0)),
        explanation,
    ))
}

/// The nodes whose first key is at most the `need`-th smallest first key (ties included),
/// in input order: no other node can take an instance.
fn contenders(
    nodes: &[StrategyNode],
    live: impl Iterator<Item = usize> + Clone,
    need: u64,
) -> Vec<usize> {
    // The `need` smallest first keys, the largest on top.
    let mut smallest: BinaryHeap<u64> = BinaryHeap::with_capacity(need as usize + 1);
    for i in live.clone() {
        let k = bits(&nodes[i], 1);
        if (smallest.len() as u64) < need {
            smallest.push(k);
        } else if smallest.peek().is_some_and(|&top| k < top) {
            smallest.pop();
            smallest.push(k);
        }
    }
    let bound = smallest.peek().copied().unwrap_or(u64::MAX);
    live.filter(|&i| bits(&nodes[i], 1) <= bound).collect()
}

/// The `need` smallest keys taken one at a time from a heap of each node's next key (ties by
/// input order); with the last key taken.
fn one_at_a_time(nodes: &[StrategyNode], live: &[usize], need: u64) -> (Vec<(usize, u64)>, f64) {
    let mut added: Vec<(usize, u64)> = live.iter().map(|&i| (i, 0)).collect();
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = (0..live.len())
        .map(|slot| Reverse((bits(&nodes[live[slot]], 1), slot)))
        .collect();
    let mut last = 0u64;
    for _ in 0..need {
        let Some(Reverse((k, slot))) = heap.pop() else {
            break;
        };
        last = k;
        let (i, taken) = &mut added[slot];
        *taken += 1;
        let n = &nodes[*i];
        if *taken < n.capacity.saturating() {
            heap.push(Reverse((bits(n, *taken + 1), slot)));
        }
    }
    (added, f64::from_bits(last))
}

/// The smallest key `t` with at least `need` keys at or below it, found by bisection; every
/// key below `t` is taken, and keys equal to `t` in input order; with `t`.
fn by_threshold(nodes: &[StrategyNode], live: &[usize], need: u64) -> (Vec<(usize, u64)>, f64) {
    let count = |t: f64| -> u128 {
        live.iter()
            .map(|&i| u128::from(at_most(&nodes[i], t)))
            .sum()
    };
    // Smallest key t (keys are >= 0, so bit order is value order) with count(t) >= need.
    // Every node's first min(capacity, need) keys are at or below `hi`.
    let hi_key = live
        .iter()
        .map(|&i| key(&nodes[i], nodes[i].capacity.saturating().min(need)))
        .fold(0.0f64, f64::max);
    let lo_key = live
        .iter()
        .map(|&i| key(&nodes[i], 1))
        .fold(f64::INFINITY, f64::min);
    let (mut lo, mut hi) = (lo_key.to_bits(), hi_key.to_bits());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if count(f64::from_bits(mid)) >= u128::from(need) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let t = f64::from_bits(lo);
    let below = |i: usize| {
        if lo == 0 {
            0
        } else {
            at_most(&nodes[i], f64::from_bits(lo - 1))
        }
    };
    let mut added: Vec<(usize, u64)> = live.iter().map(|&i| (i, below(i))).collect();
    let mut rest = need - added.iter().map(|a| a.1).sum::<u64>();
    // Keys equal to t go in node order.
    for a in added.iter_mut() {
        if rest == 0 {
            break;
        }
        let equal = at_most(&nodes[a.0], t) - a.1;
        let take = equal.min(rest);
        a.1 += take;
        rest -= take;
    }
    (added, t)
}
