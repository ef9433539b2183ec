//! Webster (Sainte-Laguë) seat allocation as Karmada >= v1.16 computes it (docs/rules/karmada.md §2).
//!
//! Karmada hands out seats one at a time to the party with the highest priority
//! `votes / (2·seats + 1)`. Because a party's priorities only fall as it gains seats, the
//! seats handed out after `N` steps are exactly the `N` best *slots* `(party, k)` (k ≥ the
//! party's initial seats), ordered by priority, then the tie rule. allot finds them in bulk:
//!
//! 1. For a threshold `t = V / 2M` (V = Σ votes), every slot with priority `> t` is counted
//!    exactly in integers: party i has `#{k : (2k+1)·V < 2M·v_i}` such slots.
//! 2. `M` is chosen (an estimate, then bisection only when initial seats are skewed) so that
//!    at most `N` slots lie above the threshold and at most `n + 1` are missing.
//! 3. The missing seats are handed out one at a time from a heap with the exact comparison.
//!
//! The cost is `O(n log n)` whatever the number of seats. Priorities are compared exactly by
//! cross-multiplying in 128 bits (docs/rules/README.md decision 1) instead of as doubles.

use alloc::collections::BinaryHeap;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::tie::TieBreak;
use crate::error::{Error, Result, MAX_REPLICAS, MAX_TARGETS, MAX_WEIGHT};

/// One party (cluster) of a Webster allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Party<'a> {
    pub name: &'a str,
    /// Votes (weight or available replicas). Zero votes never win a seat while others have some.
    pub votes: u64,
    /// Seats the party holds before the new ones are handed out.
    pub initial: u64,
}

/// Hand out `new_seats` seats among `parties`; returns each party's final seats, in input order.
///
/// Errors: duplicate or empty names, votes above `i64::MAX`, more than [`MAX_TARGETS`] parties,
/// or a seat total above [`MAX_REPLICAS`].
pub fn allocate(new_seats: u64, parties: &[Party<'_>], tie: TieBreak) -> Result<Vec<u64>> {
    super::check_unique_names(parties.iter().map(|p| p.name), "clusters")?;
    allocate_named(new_seats, parties, tie)
}

/// [`allocate`] for parties whose names the caller has already checked unique and non-empty
/// (the Karmada entry checks them once per placement).
pub(crate) fn allocate_named(
    new_seats: u64,
    parties: &[Party<'_>],
    tie: TieBreak,
) -> Result<Vec<u64>> {
    validate(new_seats, parties)?;
    let mut seats: Vec<u64> = parties.iter().map(|p| p.initial).collect();
    if new_seats == 0 || parties.is_empty() {
        return Ok(seats);
    }
    let total_votes: u128 = parties.iter().map(|p| u128::from(p.votes)).sum();
    if total_votes == 0 {
        allocate_without_votes(new_seats, parties, tie, &mut seats);
        return Ok(seats);
    }
    let threshold = Threshold::find(new_seats, parties, total_votes);
    let mut handed: u64 = 0;
    for (seat, (party, &above)) in seats.iter_mut().zip(parties.iter().zip(&threshold.above)) {
        let extra = above.saturating_sub(party.initial);
        *seat += extra;
        handed += extra;
    }
    hand_out_one_by_one(new_seats - handed, parties, tie, &mut seats);
    Ok(seats)
}

fn validate(new_seats: u64, parties: &[Party<'_>]) -> Result<()> {
    if parties.len() > MAX_TARGETS {
        return Err(Error::TooLarge {
            field: "clusters".into(),
            limit: MAX_TARGETS as u64,
        });
    }
    let mut total = new_seats;
    for (i, p) in parties.iter().enumerate() {
        if p.votes > MAX_WEIGHT {
            return Err(Error::TooLarge {
                field: crate::error::indexed("clusters", i).field("weight"),
                limit: MAX_WEIGHT,
            });
        }
        total = total.saturating_add(p.initial);
    }
    if total > MAX_REPLICAS {
        return Err(Error::TooLarge {
            field: "replicas".into(),
            limit: MAX_REPLICAS,
        });
    }
    Ok(())
}

/// The exact threshold step: how many of each party's slots lie strictly above `V / 2M`.
struct Threshold {
    above: Vec<u64>,
}

impl Threshold {
    fn find(new_seats: u64, parties: &[Party<'_>], total_votes: u128) -> Threshold {
        let n = parties.len() as u64;
        let initial: u64 = parties
            .iter()
            .filter(|p| p.votes > 0)
            .map(|p| p.initial)
            .sum();
        // Σ slots above V/2M lies within M ± n/2; starting half a party per party low keeps the
        // count at or below the seats to fill when initial seats follow the votes.
        let estimate = (new_seats + initial).saturating_sub(n.div_ceil(2)).max(1);
        let mut above = vec![0u64; parties.len()];
        let mut lo = estimate;
        let mut taken = count_above(lo, parties, total_votes, &mut above);
        // Newton steps: the count grows by about one per unit of M, so halving the gap a few
        // times leaves only a handful of seats for the heap, at O(n) per step.
        let mut counted_lo = true;
        for _ in 0..8 {
            if taken > new_seats || new_seats - taken <= 16 {
                break;
            }
            let m = lo + ((new_seats - taken) / 2).max(1);
            let t = count_above(m, parties, total_votes, &mut above);
            if t <= new_seats {
                lo = m;
                taken = t;
                counted_lo = true;
            } else {
                counted_lo = false;
                break;
            }
        }
        if taken <= new_seats && new_seats - taken <= n + 1 {
            if !counted_lo {
                count_above(lo, parties, total_votes, &mut above);
            }
            return Threshold { above };
        }
        let estimate = lo;
        // Skewed initial seats: bisect for the largest M with at most `new_seats` slots above.
        // At M = hi the count is at least hi - n/2 - initial > new_seats.
        let (mut lo, mut hi) = if taken <= new_seats {
            (estimate, new_seats + initial + n + 1)
        } else {
            (0, estimate)
        };
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if count_above(mid, parties, total_votes, &mut above) <= new_seats {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        count_above(lo, parties, total_votes, &mut above);
        Threshold { above }
    }
}

/// Fill `above[i]` with party i's slot count strictly above `V / 2M`, clamped below by its
/// initial seats; return the number of new seats this hands out.
fn count_above(m: u64, parties: &[Party<'_>], total_votes: u128, above: &mut [u64]) -> u64 {
    let mut taken = 0u64;
    let small_total = u64::try_from(total_votes).ok();
    for (slot, p) in above.iter_mut().zip(parties) {
        let count = slots_above(m, p.votes, total_votes, small_total);
        *slot = count;
        taken += count.saturating_sub(p.initial);
    }
    taken
}

/// `#{k ≥ 0 : (2k+1)·V < 2M·v}`: the number of odd `o` with `o < 2Mv / V`.
#[inline]
fn slots_above(m: u64, votes: u64, total_votes: u128, small_total: Option<u64>) -> u64 {
    if m == 0 || votes == 0 {
        return 0;
    }
    // Fast path in 64 bits when 2Mv fits; exact in 128 bits otherwise.
    let below = match (
        small_total,
        m.checked_mul(2).and_then(|x| x.checked_mul(votes)),
    ) {
        (Some(v), Some(x)) => (x - 1) / v,
        _ => {
            let x = 2 * u128::from(m) * u128::from(votes);
            // The quotient is at most 2M ≤ 2^56 because v ≤ V.
            ((x - 1) / total_votes) as u64
        }
    };
    below.div_ceil(2)
}

/// The next slot of a party, ordered so that the heap's maximum is the seat Karmada gives next.
struct Slot<'a> {
    index: usize,
    votes: u64,
    seats: u64,
    name: &'a str,
    tie: TieBreak,
}

impl Slot<'_> {
    /// `Greater` when `self` wins the next seat over `other`.
    fn rank(&self, other: &Self) -> Ordering {
        // votes_a / (2 s_a + 1) vs votes_b / (2 s_b + 1), exactly.
        let lhs = u128::from(self.votes) * (2 * u128::from(other.seats) + 1);
        let rhs = u128::from(other.votes) * (2 * u128::from(self.seats) + 1);
        lhs.cmp(&rhs)
            .then_with(|| {
                if self.tie.fewer_seats_first {
                    other.seats.cmp(&self.seats)
                } else {
                    Ordering::Equal
                }
            })
            .then_with(|| self.tie.compare_names(other.name, self.name))
    }
}

impl PartialEq for Slot<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.rank(other) == Ordering::Equal
    }
}
impl Eq for Slot<'_> {}
impl PartialOrd for Slot<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Slot<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank(other)
    }
}

/// Karmada's own loop: give `count` seats one at a time to the best next slot.
fn hand_out_one_by_one(count: u64, parties: &[Party<'_>], tie: TieBreak, seats: &mut [u64]) {
    if count == 0 {
        return;
    }
    let mut heap: BinaryHeap<Slot<'_>> = parties
        .iter()
        .enumerate()
        .filter(|(_, p)| p.votes > 0)
        .map(|(index, p)| Slot {
            index,
            votes: p.votes,
            seats: seats[index],
            name: p.name,
            tie,
        })
        .collect();
    for _ in 0..count {
        // A party with votes always has a next slot, so the heap never runs dry.
        let Some(mut best) = heap.pop() else { return };
        seats[best.index] += 1;
        best.seats += 1;
        heap.push(best);
    }
}

/// Every priority is 0: seats go to the fewest seats first (when the tie rule says so), then by
/// name, which levels the parties; with a names-only rule the first name takes every seat.
fn allocate_without_votes(count: u64, parties: &[Party<'_>], tie: TieBreak, seats: &mut [u64]) {
    let mut order: Vec<usize> = (0..parties.len()).collect();
    crate::order::sort_indices(&mut order, &|a, b| {
        tie.compare_names(parties[a].name, parties[b].name)
    });
    if !tie.fewer_seats_first {
        seats[order[0]] += count;
        return;
    }
    // Raise the lowest seat counts to a common level L, then hand the rest out by name.
    let mut by_seats = order.clone();
    crate::order::sort_indices_by_key(&mut by_seats, |i| seats[i]);
    let mut left = count;
    let mut level = seats[by_seats[0]];
    let mut width = 0usize;
    while left > 0 {
        while width < by_seats.len() && seats[by_seats[width]] <= level {
            width += 1;
        }
        let next = by_seats.get(width).map_or(u64::MAX, |&i| seats[i]);
        let rise = (next - level).min(left / width as u64);
        if rise == 0 {
            break;
        }
        level += rise;
        left -= rise * width as u64;
    }
    for &i in &order {
        if seats[i] < level {
            seats[i] = level;
        }
    }
    for &i in &order {
        if left == 0 {
            break;
        }
        if seats[i] == level {
            seats[i] += 1;
            left -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::division::tie::NameOrder;

    /// Karmada's literal loop (one seat at a time, exact comparison): the oracle for the bulk path.
    pub(super) fn one_by_one(new_seats: u64, parties: &[Party<'_>], tie: TieBreak) -> Vec<u64> {
        let mut seats: Vec<u64> = parties.iter().map(|p| p.initial).collect();
        for _ in 0..new_seats {
            let slot = |i: usize| Slot {
                index: i,
                votes: parties[i].votes,
                seats: seats[i],
                name: parties[i].name,
                tie,
            };
            let best = (0..parties.len())
                .max_by(|&a, &b| slot(a).rank(&slot(b)))
                .unwrap();
            seats[best] += 1;
        }
        seats
    }

    fn parties<'a>(names: &'a [&'a str], votes: &[u64], initial: &[u64]) -> Vec<Party<'a>> {
        names
            .iter()
            .zip(votes)
            .zip(initial)
            .map(|((name, &votes), &initial)| Party {
                name,
                votes,
                initial,
            })
            .collect()
    }

    #[test]
    fn classic_sainte_lague() {
        let names = ["A", "B", "C", "D"];
        let p = parties(&names, &[100_000, 80_000, 30_000, 20_000], &[0; 4]);
        assert_eq!(
            allocate(8, &p, TieBreak::DEFAULT).unwrap(),
            vec![3, 3, 1, 1]
        );
        assert_eq!(
            allocate(4, &p, TieBreak::DEFAULT).unwrap(),
            vec![2, 1, 1, 0]
        );
    }

    #[test]
    fn bulk_matches_one_by_one_on_a_grid() {
        let names = ["a", "b", "c", "d", "e"];
        let vote_sets: [[u64; 5]; 5] = [
            [1, 1, 1, 1, 1],
            [5, 3, 0, 2, 7],
            [100, 1, 1, 1, 1],
            [3, 3, 3, 1, 0],
            [u64::MAX >> 1, 1, 2, 3, u64::MAX >> 2],
        ];
        let inits: [[u64; 5]; 3] = [[0; 5], [4, 0, 0, 1, 0], [0, 9, 0, 0, 3]];
        for votes in &vote_sets {
            for init in &inits {
                for n in 0..40 {
                    for tie in [
                        TieBreak::DEFAULT,
                        TieBreak::from_uid("x"),
                        TieBreak::names_only(NameOrder::Descending),
                    ] {
                        let p = parties(&names, votes, init);
                        assert_eq!(
                            allocate(n, &p, tie).unwrap(),
                            one_by_one(n, &p, tie),
                            "votes {votes:?} init {init:?} n {n} tie {tie:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn zero_votes_level_seats() {
        let names = ["a", "b", "c"];
        let p = parties(&names, &[0, 0, 0], &[2, 0, 0]);
        assert_eq!(allocate(5, &p, TieBreak::DEFAULT).unwrap(), vec![3, 2, 2]);
        assert_eq!(
            allocate(5, &p, TieBreak::DEFAULT).unwrap(),
            one_by_one(5, &p, TieBreak::DEFAULT)
        );
    }

    #[test]
    fn rejects_duplicates_and_oversize() {
        let p = parties(&["a", "a"], &[1, 1], &[0, 0]);
        assert_eq!(
            allocate(1, &p, TieBreak::DEFAULT).unwrap_err().code(),
            "duplicate_name"
        );
        let p = parties(&["a"], &[1], &[0]);
        let err = allocate(MAX_REPLICAS + 1, &p, TieBreak::DEFAULT).unwrap_err();
        assert_eq!(err.code(), "too_large");
        assert_eq!(err.field(), "replicas");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::division::tie::NameOrder;
    use alloc::string::String;
    use proptest::prelude::*;

    proptest! {
        /// The bulk allocation equals Karmada's one-seat-at-a-time loop.
        #[test]
        fn bulk_equals_one_by_one(
            seats in 0u64..300,
            parties in prop::collection::vec((0u64..50, 0u64..20), 1..12),
            descending: bool,
            names_only: bool,
        ) {
            let names: Vec<String> = (0..parties.len()).map(|i| alloc::format!("p{i}")).collect();
            let p: Vec<Party<'_>> = names.iter().zip(&parties)
                .map(|(name, &(votes, initial))| Party { name, votes, initial })
                .collect();
            let order = if descending { NameOrder::Descending } else { NameOrder::Ascending };
            let tie = if names_only { TieBreak::names_only(order) } else {
                TieBreak { fewer_seats_first: true, names: order }
            };
            prop_assert_eq!(allocate(seats, &p, tie).unwrap(), tests::one_by_one(seats, &p, tie));
        }
    }
}
