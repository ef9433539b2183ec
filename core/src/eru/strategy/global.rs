//! GLOBAL (docs/rules/eru.md A4): hand each new instance to the node whose usage after taking it
//! (`usage + rate`) is lowest, input order among equals, so usage ratios stay even.
//!
//! In bulk: node `i`'s `k`-th new instance has the key `usage_i + k × rate_i`, non-decreasing
//! in `k`; the instances handed out are the `need` smallest keys (ties by node order), that is
//! every key below a threshold `t` and, in node order, enough keys equal to it. Only a node
//! whose first key is at most `t` takes any. A small need looks at the nodes whose first key
//! is among the `need` smallest alone, found in the one pass that also checks every node; otherwise an upper bound of `t` is estimated from a
//! sample of the nodes (the threshold of a proportional share of the need), checked over every
//! node (and raised until it holds), and only the nodes whose first key is within it stay.
//! Then either the keys are taken one at a time from a heap (when the need is within a few
//! instances per node), or a bisection over the keys' bit patterns finds `t`.
//!
//! The design document's example gives node1 2 and node2 1; the rule gives node1 3, because
//! node1's keys 0.014, 0.018 and 0.022 all stay below node2's 0.026 (docs/rules/eru.md A4).

use alloc::collections::BinaryHeap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::{map_of, need_within_total, Asked, StrategyNode, Tally};
use crate::error::Path;
use crate::error::{Error, Result};

/// Above this many nodes with room, an upper bound of the threshold is estimated from a sample
/// of this many nodes and the others are dropped.
const SAMPLE: usize = 256;

/// The key of the `k`-th new instance of a node of `usage` and `rate`: `usage + k × rate`, a
/// negative zero read as zero (`usage + 0.0` does that, and `+0.0 + -0.0` is `+0.0`), so that
/// the bit patterns of keys order as their values do. The node check reads `usage + 0.0` too
/// (`ratio_bits`), and the pass that does both adds it once.
fn key(usage: f64, rate: f64, k: u64) -> f64 {
    (usage + 0.0) + (k as f64) * rate
}

/// A node with room, as GLOBAL reads it: its keys and capacity, and its input position.
#[derive(Debug, Clone, Copy)]
struct Live {
    at: usize,
    usage: f64,
    rate: f64,
    cap: u64,
}

impl Live {
    fn of(nodes: &[StrategyNode], at: usize) -> Live {
        let n = &nodes[at];
        Live {
            at,
            usage: n.usage,
            rate: n.rate,
            cap: n.capacity.saturating(),
        }
    }

    /// The key of the node's `k`-th new instance.
    fn key(&self, k: u64) -> f64 {
        key(self.usage, self.rate, k)
    }

    /// A key as an ordered integer (keys are >= 0).
    fn bits(&self, k: u64) -> u64 {
        self.key(k).to_bits()
    }

    /// How many of the node's keys are `<= t` (at most its capacity).
    fn at_most(&self, t: f64) -> u64 {
        let cap = self.cap;
        if cap == 0 || self.key(1) > t {
            return 0;
        }
        if self.rate == 0.0 {
            return cap;
        }
        let est = (t - self.usage) / self.rate;
        if est >= cap as f64 {
            // Checked below only when close to the cap.
            return if self.key(cap) <= t {
                cap
            } else {
                self.exact(t, cap - 1)
            };
        }
        if est < 1.0 {
            return self.exact(t, 1);
        }
        let k = est as u64; // truncates: the floor of a positive value
        let frac = est - k as f64;
        // The quotient and the key formula differ by a few units in the last place; away from
        // a step by more than that, the floor is exact.
        let tol = (t.abs() + self.usage.abs()) * 1e-14 / self.rate + 1e-9;
        if frac > tol && frac < 1.0 - tol {
            return k.min(cap);
        }
        self.exact(t, k.min(cap))
    }

    /// The largest `k <= cap` with `key(k) <= t` (0 if none), from an estimate `k`: gallop,
    /// then bisect, so a poor estimate costs a logarithm, not a loop.
    fn exact(&self, t: f64, k: u64) -> u64 {
        let cap = self.cap;
        let ok = |k: u64| k == 0 || self.key(k) <= t;
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
}

/// Whether the keys `<= t` of `live` number at least `need` (stops counting once they do).
fn reaches(live: &[Live], t: f64, need: u64) -> bool {
    let mut sum = 0u64;
    for l in live {
        sum = sum.saturating_add(l.at_most(t));
        if sum >= need {
            return true;
        }
    }
    false
}

/// A key at or above which every node's first `min(capacity, need)` keys lie: the threshold
/// of `need` keys is at most it (when the nodes have room for them).
fn top_key(live: &[Live], need: u64) -> f64 {
    live.iter()
        .map(|l| l.key(l.cap.min(need)))
        .fold(0.0f64, f64::max)
}

pub(crate) fn run(nodes: &[StrategyNode], a: &Asked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    let with_room = || (0..nodes.len()).filter(|&i| !nodes[i].capacity.is_zero());
    // With fewer than 4 nodes per instance, only the contenders can take any; there are at
    // least `need` of them, each with room for one. Looking for them is the one pass over
    // the nodes, which checks each as it reads it.
    let (live, c) = if a.need().saturating_mul(4) <= nodes.len() as u64 {
        let (live, tally) = contenders(nodes, a.need());
        (live, a.checked(nodes, tally)?)
    } else {
        let c = a.checked(nodes, Tally::of(nodes))?;
        (with_room().map(|i| Live::of(nodes, i)).collect(), c)
    };
    let c = &c;
    need_within_total(c)?;
    let room = live.iter().fold(0u128, |s, l| s + u128::from(l.cap));
    if room < u128::from(c.need) {
        let all = with_room().fold(0u128, |s, i| s + u128::from(nodes[i].capacity.saturating()));
        return Err(Error::InsufficientResource {
            field: Path::fields(c.paths.count),
            need: c.need,
            available: u64::try_from(all).unwrap_or(u64::MAX),
            detail: String::new(),
        });
    }
    let live = if live.len() > SAMPLE {
        narrow(live, c.need)
    } else {
        live
    };
    let (added, t) = if c.need <= 4 * live.len() as u64 {
        one_at_a_time(&live, c.need)
    } else {
        by_threshold(&live, c.need)
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

/// The nodes with room whose first key is at most the `need`-th smallest first key (ties
/// included), in input order: no other node can take an instance; with every node read into a
/// [`Tally`]. One pass: a node is kept when its key is within the `need` smallest seen so far
/// (the bound only falls, so every contender is kept), and the kept ones are filtered by the
/// final bound.
fn contenders(nodes: &[StrategyNode], need: u64) -> (Vec<Live>, Tally) {
    // The `need` smallest first keys, the largest on top.
    let mut smallest: BinaryHeap<u64> = BinaryHeap::with_capacity(need as usize + 1);
    // The top once `need` keys are held (nothing is above it before).
    let mut bound = u64::MAX;
    // A node is kept when its key is among the smallest so far: about `need × (1 + ln(n /
    // need))` of them for keys in random order.
    let mut kept = Vec::with_capacity((need as usize).saturating_mul(8).min(nodes.len()));
    let mut tally = Tally::new();
    for (at, n) in nodes.iter().enumerate() {
        tally.read(n);
        let k = key(n.usage, n.rate, 1).to_bits();
        if k > bound || n.capacity.is_zero() {
            continue;
        }
        if smallest.len() as u64 >= need {
            if k < bound {
                // The largest of the smallest gives way (one sift instead of a pop and a push).
                if let Some(mut top) = smallest.peek_mut() {
                    *top = k;
                }
            }
        } else {
            smallest.push(k);
        }
        if smallest.len() as u64 >= need {
            bound = smallest.peek().copied().unwrap_or(u64::MAX);
        }
        kept.push(Live::of(nodes, at));
    }
    let bound = smallest.peek().copied().unwrap_or(u64::MAX);
    kept.retain(|l| l.bits(1) <= bound);
    (kept, tally)
}

/// The nodes of `live` (which have room for `need`) whose first key is within an upper bound
/// of the threshold, in input order. The bound: the threshold of a sample of the nodes
/// (every `len / SAMPLE`-th) for their share of the need and a quarter more, checked over
/// every node and moved up (four times as far from the lowest first key each time, at most to
/// [`top_key`]) until the keys within it number `need`.
fn narrow(mut live: Vec<Live>, need: u64) -> Vec<Live> {
    let stride = live.len() / SAMPLE;
    let sample: Vec<Live> = live.iter().step_by(stride.max(1)).copied().collect();
    let share = u128::from(need) * sample.len() as u128 / live.len() as u128;
    let want = u64::try_from(share + share / 4 + 2).unwrap_or(u64::MAX);
    let top = top_key(&live, need);
    let low = live.iter().map(|l| l.key(1)).fold(f64::INFINITY, f64::min);
    let sample_room = sample.iter().fold(0u128, |s, l| s + u128::from(l.cap));
    let mut bound = if sample_room >= u128::from(want) {
        by_threshold(&sample, want).1
    } else {
        top
    };
    while bound < top && !reaches(&live, bound, need) {
        let next = low + (bound - low) * 4.0;
        bound = if next > bound { next.min(top) } else { top };
    }
    live.retain(|l| l.key(1) <= bound);
    live
}

/// The `need` smallest keys taken one at a time from a heap of each node's next key (ties by
/// input order); with the last key taken.
fn one_at_a_time(live: &[Live], need: u64) -> (Vec<(usize, u64)>, f64) {
    let mut added: Vec<(usize, u64)> = live.iter().map(|l| (l.at, 0)).collect();
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = live
        .iter()
        .enumerate()
        .map(|(slot, l)| Reverse((l.bits(1), slot)))
        .collect();
    let mut last = 0u64;
    for _ in 0..need {
        let Some(Reverse((k, slot))) = heap.pop() else {
            break;
        };
        last = k;
        let taken = &mut added[slot].1;
        *taken += 1;
        let l = &live[slot];
        if *taken < l.cap {
            heap.push(Reverse((l.bits(*taken + 1), slot)));
        }
    }
    (added, f64::from_bits(last))
}

/// The smallest key `t` with at least `need` keys at or below it, found by bisection; every
/// key below `t` is taken, and keys equal to `t` in input order; with `t`.
fn by_threshold(live: &[Live], need: u64) -> (Vec<(usize, u64)>, f64) {
    // Smallest key t (keys are >= 0, so bit order is value order) with need keys within it.
    // Every node's first min(capacity, need) keys are at or below the top key.
    let lo_key = live.iter().map(|l| l.key(1)).fold(f64::INFINITY, f64::min);
    let (mut lo, mut hi) = (lo_key.to_bits(), top_key(live, need).to_bits());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if reaches(live, f64::from_bits(mid), need) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let t = f64::from_bits(lo);
    let below = |l: &Live| {
        if lo == 0 {
            0
        } else {
            l.at_most(f64::from_bits(lo - 1))
        }
    };
    let mut added: Vec<(usize, u64)> = live.iter().map(|l| (l.at, below(l))).collect();
    let mut rest = need - added.iter().map(|a| a.1).sum::<u64>();
    // Keys equal to t go in node order.
    for (a, l) in added.iter_mut().zip(live) {
        if rest == 0 {
            break;
        }
        let equal = l.at_most(t) - a.1;
        let take = equal.min(rest);
        a.1 += take;
        rest -= take;
    }
    (added, t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::{prop, prop_assert_eq, proptest};

    proptest! {
        /// The key as computed, `(usage + 0.0) + k × rate`, has the bits of the key as
        /// worded, `usage + k × rate` with a negative zero read as zero, for every usage and
        /// rate a strategy accepts (negative zeros included).
        #[test]
        fn the_key_is_the_worded_one(
            usage in prop::sample::select(vec![0.0, -0.0, 5e-324, 0.1, 0.25, 1.0, 3.5, 1e300]),
            rate in prop::sample::select(vec![0.0, -0.0, 5e-324, 0.001, 0.05, 1.0, 1e300]),
            k in 0u64..1_000_000,
        ) {
            let worded = usage + (k as f64) * rate;
            let worded = if worded == 0.0 { 0.0 } else { worded };
            prop_assert_eq!(key(usage, rate, k).to_bits(), worded.to_bits());
        }
    }
}
