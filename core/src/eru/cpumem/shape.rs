//! eru's cpumem plans over one set of cores (docs/rules/eru.md C3 3-11, 14): the request's
//! shape in pieces (whole cores and a fragment), the cores classified as full or fragment
//! (a reallocated workload's previous cores first), full plans by eru's greedy or in rounds,
//! fragment plans, the best number of full cores moved to fragments; every count made before
//! any plan, within the node's bound.

use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use compact_str::CompactString;

use super::binding::{within_bound, MAX_BIND_ASSIGNMENTS};
use super::{CpuMap, CpuPlans};
use crate::error::Result;

/// Pieces (of a core, or of a previous binding) never reach this (they are `i64`s >= 0): below
/// it they pack into 63 bits of a sort key.
const MAX_PIECES: u64 = (1 << 63) - 1;

/// A core with pieces available: its position among the node's cores (id order, so
/// positions compare as ids do) and its free pieces.
#[derive(Debug, Clone, Copy)]
pub(super) struct Core {
    pub(super) at: usize,
    pub(super) pieces: u64,
}

/// The request's shape in pieces.
pub(super) struct Shape {
    pub(super) base: u64,
    pub(super) full: u64,
    pub(super) frag: u64,
    pub(super) max_share: i64,
    pub(super) memory: u64,
}

impl Shape {
    /// Plans over `cores` (docs/rules/eru.md C3 4-10), as many as `memory` holds, added to
    /// `out` on NUMA node `numa`. How many there are is counted first; a binding that would
    /// assign more than [`MAX_BIND_ASSIGNMENTS`] cores (plans times cores per plan) is
    /// `too_large` before any plan is made.
    pub(super) fn plans(
        &self,
        cores: Vec<Core>,
        memory: u64,
        origin: Option<&CpuMap>,
        numa: Option<usize>,
        budget: &mut u64,
        out: &mut CpuPlans,
    ) -> Result<()> {
        let (mut full_cores, mut frag_cores) = self.classify(cores, origin, &out.cores);
        let affinity = origin.is_some();
        let m = {
            let all = (full_cores.len() + frag_cores.len()) as i64 - self.full as i64;
            if self.max_share == -1 {
                all
            } else {
                all.min(self.max_share)
            }
        };
        // Plans past what the memory holds are never made.
        let fit = memory.checked_div(self.memory).unwrap_or(u64::MAX);
        let fit = usize::try_from(fit).unwrap_or(usize::MAX);
        let whole = |at: usize| (at, self.base);
        if self.frag == 0 {
            let count = self.count_full_plans(&full_cores, affinity);
            within_bound(budget, count.saturating_mul(self.full))?;
            out.reserve(
                usize::try_from(count).unwrap_or(usize::MAX).min(fit),
                self.full,
            );
            let k = self.full as usize;
            for plan in self
                .full_plans(&full_cores, affinity)
                .chunks_exact(k)
                .take(fit)
            {
                out.push(numa, plan.iter().map(|&at| whole(at)));
            }
        } else if self.full == 0 {
            let moving = (m - frag_cores.len() as i64).max(0) as usize;
            frag_cores.extend(full_cores.drain(..moving.min(full_cores.len())));
            let count = self.count_frag_plans(&frag_cores);
            within_bound(budget, count)?;
            out.reserve(usize::try_from(count).unwrap_or(usize::MAX).min(fit), 1);
            for at in self.frag_plans(&frag_cores).take(fit) {
                out.push(numa, [(at, self.frag)]);
            }
        } else {
            // Moving the first j full cores to the fragments; keep the best j.
            let last = ((m - frag_cores.len() as i64).max(0) as usize).min(full_cores.len());
            let (best_j, best) = self.best_move(&full_cores, &frag_cores, last, affinity);
            let best_full = &full_cores[best_j..];
            within_bound(
                budget,
                self.count_full_plans(best_full, affinity)
                    .saturating_mul(self.full)
                    .saturating_add(
                        self.count_frag_plans(&frag_cores)
                            .saturating_add(self.count_frag_plans(&full_cores[..best_j])),
                    ),
            )?;
            frag_cores.extend_from_slice(&full_cores[..best_j]);
            let k = self.full as usize;
            let fulls = self.full_plans(best_full, affinity);
            let take = usize::try_from(best).unwrap_or(usize::MAX).min(fit);
            out.reserve(take, self.full.saturating_add(1));
            for (plan, at) in fulls
                .chunks_exact(k)
                .zip(self.frag_plans(&frag_cores))
                .take(take)
            {
                let frag = [(at, self.frag)];
                out.push(numa, plan.iter().map(|&at| whole(at)).chain(frag));
            }
        }
        Ok(())
    }

    /// How many of the first full cores to use as fragments, `j` in `0..=last`: the first `j`
    /// with the most plans, `min(full plans without them, fragment plans with them)`. The full
    /// plans fall as `j` grows and the fragment plans rise, so the best is where they cross,
    /// found by bisection instead of counting every `j`.
    fn best_move(&self, full: &[Core], frag: &[Core], last: usize, affinity: bool) -> (usize, u64) {
        let mut t = Vec::with_capacity(last + 1);
        t.push(self.count_frag_plans(frag));
        for c in &full[..last] {
            let next = t[t.len() - 1].saturating_add(c.pieces / self.frag);
            t.push(next);
        }
        let c = |j: usize| self.count_full_plans(&full[j..], affinity);
        // The first j where the fragment plans reach the full plans (last + 1 if none does).
        let (mut lo, mut hi) = (0usize, last + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if t[mid] >= c(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let cross = lo;
        let after = (cross <= last).then(|| (cross, c(cross)));
        let before = cross.checked_sub(1).map(|j| {
            // Before the crossing the fragment plans decide; the first j with as many.
            (t.partition_point(|&x| x < t[j]), t[j])
        });
        match (before, after) {
            (Some(b), Some(a)) if a.1 > b.1 => a,
            (Some(b), _) => b,
            (None, Some(a)) => a,
            (None, None) => (0, 0),
        }
    }

    /// Full and fragment cores, each by (pieces, id) ascending; the workload's previous cores
    /// first when it is reallocated (`cores` in position order; `ids`: the node's core ids, by
    /// position).
    fn classify(
        &self,
        cores: Vec<Core>,
        origin: Option<&CpuMap>,
        ids: &[CompactString],
    ) -> (Vec<Core>, Vec<Core>) {
        let is_full = |p: u64| p >= self.base && p % self.base == 0;
        // Each core's rank packed into one key, (not previous, pieces, position) from the top
        // bit down: pieces (a core's or its previous ones) are below 2^63, and the position
        // stands for itself by the core's index in `cores` (in position order).
        let rank = |i: usize, c: &Core| -> u128 {
            let prev = origin
                .zip(ids.get(c.at))
                .and_then(|(o, id)| o.get(id.as_str()))
                .copied()
                .unwrap_or(0)
                .max(0) as u64;
            // Previous full cores first among full ones, previous fragments among fragments.
            // Previous cores keep the previous order (by their previous pieces, then id).
            let previous = prev > 0 && is_full(prev) == is_full(c.pieces);
            let pieces = if previous { prev } else { c.pieces };
            (u128::from(!previous) << 127) | (u128::from(pieces.min(MAX_PIECES)) << 64) | i as u128
        };
        let mut full = Vec::with_capacity(cores.len());
        let mut frag = Vec::with_capacity(cores.len());
        for (i, c) in cores.iter().enumerate().filter(|(_, c)| c.pieces > 0) {
            if is_full(c.pieces) {
                full.push(rank(i, c));
            } else {
                frag.push(rank(i, c));
            }
        }
        let sorted = |mut keys: Vec<u128>| -> Vec<Core> {
            crate::order::sort_keys(&mut keys);
            keys.iter().map(|&k| cores[k as u64 as usize]).collect()
        };
        (sorted(full), sorted(frag))
    }

    /// Units (whole cores' worth of pieces) of each full core.
    fn units(&self, cores: &[Core]) -> Vec<u64> {
        cores.iter().map(|c| c.pieces / self.base).collect()
    }

    /// How many plans [`Shape::full_plans`] makes, without making them: the largest `t`
    /// with `Σ min(units, t) >= full × t` (the greedy reaches it).
    fn count_full_plans(&self, cores: &[Core], affinity: bool) -> u64 {
        if affinity {
            // Past this many plans the budget is exceeded anyway: stop counting there.
            let cap = MAX_BIND_ASSIGNMENTS / self.full.max(1) + 1;
            return self.rounds(cores, cap, |_| {});
        }
        let units = self.units(cores);
        let total = units.iter().fold(0u64, |a, &u| a.saturating_add(u));
        let (mut lo, mut hi) = (0u64, total / self.full);
        while lo < hi {
            let t = lo + (hi - lo).div_ceil(2);
            let s = units.iter().fold(0u64, |a, &u| a.saturating_add(u.min(t)));
            if s >= self.full * t {
                lo = t;
            } else {
                hi = t - 1;
            }
        }
        lo
    }

    /// Full plans (§C3 9), `full` cores each, one after another (core positions): each round
    /// the `full` cores with the most pieces left (larger id among equals) give a core each;
    /// then plans by the sum of their cores' ranks. With affinity: consecutive groups of
    /// `full` cores.
    fn full_plans(&self, cores: &[Core], affinity: bool) -> Vec<usize> {
        let k = self.full as usize;
        let mut flat = Vec::new();
        if affinity {
            self.rounds(cores, u64::MAX, |group| {
                flat.extend(group.iter().map(|&i| cores[i].at));
            });
            return flat;
        }
        // The cores by units left, then id: each round takes the `k` greatest.
        let mut heap: BinaryHeap<(u64, usize, usize)> = self
            .units(cores)
            .into_iter()
            .enumerate()
            .filter(|&(_, u)| u > 0)
            .map(|(i, u)| (u, cores[i].at, i))
            .collect();
        if k > heap.len() {
            // Fewer cores than one plan takes (a request of more cores than the node has).
            return flat;
        }
        let mut ranks: Vec<usize> = Vec::new();
        let mut pick = Vec::with_capacity(k);
        while heap.len() >= k {
            pick.clear();
            pick.extend(core::iter::from_fn(|| heap.pop()).take(k));
            let mut rank = 0;
            for &(left, at, i) in &pick {
                flat.push(at);
                rank += i;
                if left > 1 {
                    heap.push((left - 1, at, i));
                }
            }
            ranks.push(rank);
        }
        let mut order: Vec<usize> = (0..ranks.len()).collect();
        crate::order::sort_indices_by_key(&mut order, |p| ranks[p]);
        order
            .into_iter()
            .flat_map(|p| flat[p * k..(p + 1) * k].iter().copied())
            .collect()
    }

    /// Full plans in rounds, for a reallocation (docs/rules/eru.md C3 11): while at least
    /// `full` cores remain, consecutive groups of `full` cores from the list each make a plan
    /// (each core gives one whole core's pieces); the next list is this round's cores with
    /// pieces left, in the order taken, then the cores the round did not reach. `emit` gets
    /// each plan's cores (indices into `cores`); at most `cap` plans; returns how many. Each
    /// round makes at least one plan and costs at most twice its assignments.
    fn rounds(&self, cores: &[Core], cap: u64, mut emit: impl FnMut(&[usize])) -> u64 {
        let k = self.full.max(1) as usize;
        let mut list: Vec<(usize, u64)> = self
            .units(cores)
            .into_iter()
            .enumerate()
            .filter(|&(_, u)| u > 0)
            .collect();
        let mut next = Vec::with_capacity(list.len());
        let mut made = 0u64;
        while list.len() >= k && made < cap {
            let groups = ((list.len() / k) as u64).min(cap - made) as usize;
            let reached = groups * k;
            let mut group = Vec::with_capacity(k);
            next.clear();
            for chunk in list[..reached].chunks_exact(k) {
                group.clear();
                group.extend(chunk.iter().map(|&(i, _)| i));
                emit(&group);
                next.extend(
                    chunk
                        .iter()
                        .filter(|&&(_, u)| u > 1)
                        .map(|&(i, u)| (i, u - 1)),
                );
            }
            made += groups as u64;
            next.extend_from_slice(&list[reached..]);
            core::mem::swap(&mut list, &mut next);
        }
        made
    }

    fn count_frag_plans(&self, cores: &[Core]) -> u64 {
        cores
            .iter()
            .fold(0u64, |a, c| a.saturating_add(c.pieces / self.frag))
    }

    /// Fragment plans (docs/rules/eru.md C3 10): each core in order gives `pieces / frag`
    /// plans; the core (position) of each.
    fn frag_plans<'a>(&'a self, cores: &'a [Core]) -> impl Iterator<Item = usize> + 'a {
        cores
            .iter()
            .flat_map(|c| core::iter::repeat_n(c.at, (c.pieces / self.frag) as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The plans eru's greedy makes, one sort per round: what [`Shape::full_plans`] must equal.
    fn full_plans_by_sorting(shape: &Shape, cores: &[Core]) -> Vec<usize> {
        let k = shape.full as usize;
        let mut left: Vec<u64> = shape.units(cores);
        let mut plans: Vec<(usize, Vec<usize>)> = Vec::new();
        loop {
            let mut order: Vec<usize> = (0..cores.len()).filter(|&i| left[i] > 0).collect();
            if order.len() < k {
                break;
            }
            order.sort_by(|&a, &b| left[b].cmp(&left[a]).then(cores[b].at.cmp(&cores[a].at)));
            let mut plan = Vec::new();
            let mut rank = 0;
            for &i in &order[..k] {
                left[i] -= 1;
                plan.push(cores[i].at);
                rank += i;
            }
            plans.push((rank, plan));
        }
        plans.sort_by_key(|(rank, _)| *rank);
        plans.into_iter().flat_map(|(_, p)| p).collect()
    }

    /// The first best `j`, trying every one: what [`Shape::best_move`] must equal.
    fn best_move_by_trying(
        shape: &Shape,
        full: &[Core],
        frag: &[Core],
        last: usize,
    ) -> (usize, u64) {
        let mut best_j = 0;
        let mut best = shape
            .count_full_plans(full, false)
            .min(shape.count_frag_plans(frag));
        let mut t = shape.count_frag_plans(frag);
        for j in 1..=last {
            t += full[j - 1].pieces / shape.frag;
            let c = shape.count_full_plans(&full[j..], false).min(t);
            if c > best {
                best = c;
                best_j = j;
            }
        }
        (best_j, best)
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        #[test]
        fn counting_and_the_heap_make_what_trying_and_sorting_make(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![(0u64..7).prop_map(|u| u * 100), 0u64..600],
                0..12,
            ),
            full in 1u64..4,
            frag in 1u64..100,
            last_cut in 0usize..12,
        ) {
            let shape = Shape { base: 100, full, frag, max_share: -1, memory: 0 };
            let cores: Vec<Core> = pieces
                .iter()
                .enumerate()
                .map(|(at, &p)| Core { at, pieces: p })
                .collect();
            let (full_cores, frag_cores) = shape.classify(cores, None, &[]);
            proptest::prop_assert_eq!(
                shape.full_plans(&full_cores, false),
                full_plans_by_sorting(&shape, &full_cores)
            );
            let last = last_cut.min(full_cores.len());
            proptest::prop_assert_eq!(
                shape.best_move(&full_cores, &frag_cores, last, false),
                best_move_by_trying(&shape, &full_cores, &frag_cores, last)
            );
        }
    }

    /// Full and fragment cores as the rule words them: each list stably sorted by (not
    /// previous, pieces or previous pieces, position): what [`Shape::classify`] must equal.
    fn classify_by_sorting(
        shape: &Shape,
        cores: Vec<Core>,
        origin: Option<&CpuMap>,
        ids: &[CompactString],
    ) -> (Vec<Core>, Vec<Core>) {
        let is_full = |p: u64| p >= shape.base && p % shape.base == 0;
        let (mut full, mut frag): (Vec<Core>, Vec<Core>) = cores
            .into_iter()
            .filter(|c| c.pieces > 0)
            .partition(|c| is_full(c.pieces));
        let rank = |c: &Core| -> (bool, u64, usize) {
            let prev = origin
                .and_then(|o| o.get(ids[c.at].as_str()))
                .map_or(0, |&p| p.max(0) as u64);
            let previous = prev > 0 && is_full(prev) == is_full(c.pieces);
            (!previous, if previous { prev } else { c.pieces }, c.at)
        };
        full.sort_by_key(rank);
        frag.sort_by_key(rank);
        (full, frag)
    }

    use proptest::strategy::Just;

    proptest::proptest! {
        /// Packed keys sort the cores as the rule's stable sort does, previous cores first.
        #[test]
        fn classify_sorts_as_the_rule(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![(0u64..5).prop_map(|u| u * 100), 0u64..500],
                0..14,
            ),
            previous in proptest::collection::vec(
                proptest::prop_oneof![Just(0i64), (1i64..4).prop_map(|u| u * 100), 1i64..400, -5i64..0],
                0..14,
            ),
            affinity: bool,
        ) {
            let shape = Shape { base: 100, full: 1, frag: 30, max_share: -1, memory: 0 };
            let ids: Vec<CompactString> =
                (0..pieces.len()).map(|i| CompactString::from(alloc::format!("{i}"))).collect();
            let origin: CpuMap = previous
                .iter()
                .enumerate()
                .map(|(i, &p)| (alloc::format!("{i}"), p))
                .collect();
            let origin = affinity.then_some(&origin);
            let cores: Vec<Core> =
                pieces.iter().enumerate().map(|(at, &p)| Core { at, pieces: p }).collect();
            let (full, frag) = shape.classify(cores.clone(), origin, &ids);
            let (want_full, want_frag) = classify_by_sorting(&shape, cores, origin, &ids);
            let at = |v: &[Core]| v.iter().map(|c| (c.at, c.pieces)).collect::<Vec<_>>();
            proptest::prop_assert_eq!(at(&full), at(&want_full));
            proptest::prop_assert_eq!(at(&frag), at(&want_frag));
        }
    }

    #[test]
    fn full_plan_count_matches_the_greedy() {
        let s = Shape {
            base: 100,
            full: 2,
            frag: 0,
            max_share: -1,
            memory: 0,
        };
        for pieces in [
            vec![400, 200, 400],
            vec![200, 200, 200],
            vec![100; 7],
            vec![900, 100, 100],
            vec![300, 300, 300, 100],
        ] {
            let cores: Vec<Core> = pieces
                .iter()
                .enumerate()
                .map(|(at, &p)| Core { at, pieces: p })
                .collect();
            assert_eq!(
                s.count_full_plans(&cores, false),
                s.full_plans(&cores, false).len() as u64 / s.full,
                "{pieces:?}"
            );
        }
    }
}
