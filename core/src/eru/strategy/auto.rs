//! AUTO (Communism, docs/rules/eru.md A1): hand each new instance to the node with the fewest
//! instances (then the most remaining capacity, then input order), so old + new instances end
//! as even as possible; NodesLimit caps old + new per node.
//!
//! In bulk: nodes are raised to a common level `L` (the largest whose cost fits the need,
//! found by galloping up from the lowest count, then bisecting), then the remainder goes one
//! each to the nodes at level `L` with the most capacity left (selected, not sorted).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{map_of, need_within_total, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};
use crate::text::Digits;

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    need_within_total(c)?;
    // A candidate's count now and the count it can reach (count + capacity, capped by the
    // nodes limit; saturating: an unlimited node reaches any level).
    let candidate = |n: &StrategyNode| -> Option<(u64, u64)> {
        if n.capacity.is_zero() || (c.limit > 0 && n.count >= c.limit) {
            return None;
        }
        let top = n.count.saturating_add(n.capacity.saturating());
        Some((n.count, if c.limit > 0 { top.min(c.limit) } else { top }))
    };
    let live = || nodes.iter().filter_map(candidate);
    // What raising every candidate to `level` costs, stopping once it passes the need (the
    // need is below 2^63, so the sum never wraps).
    let need = c.need;
    let given = |level: u64| -> u64 {
        let mut sum = 0u64;
        for (count, top) in live() {
            if count < level {
                sum = sum.saturating_add(top.min(level) - count);
                if sum > need {
                    break;
                }
            }
        }
        sum
    };
    // The remainder's order: most capacity left first, then input order, packed into one key
    // (smallest first): what is left, at most 2^65, counted down from 2^66, above the
    // position (< 2^32).
    let order = |i: usize, n: &StrategyNode| {
        let left = u128::from(n.count) + u128::from(n.capacity.saturating());
        (((1u128 << 66) - left) << 32) | i as u128
    };
    // With the lowest count, the candidates at it (the level when the need raises nobody
    // above it, the usual small need): kept while the lowest count seen so far holds.
    let (mut lowest, mut highest, mut room) = (u64::MAX, 0u64, 0u128);
    let mut at_lowest: Vec<u128> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        let Some((count, top)) = candidate(n) else {
            continue;
        };
        if count < lowest {
            lowest = count;
            at_lowest.clear();
        }
        if count == lowest {
            at_lowest.push(order(i, n));
        }
        highest = highest.max(top);
        room += u128::from(top - count);
    }
    if room < u128::from(need) {
        let detail = if c.limit > 0 {
            format!(
                "reached nodelimit, a node can host at most {} instances",
                c.limit
            )
        } else {
            String::from("the candidate nodes ran out of capacity")
        };
        return Err(Error::InsufficientResource {
            field: Path::fields(c.paths.count),
            need: c.need,
            available: u64::try_from(room).unwrap_or(u64::MAX),
            detail,
        });
    }
    // The largest level whose cost is within the need: gallop up from the lowest count,
    // then bisect between the last level that fits and the first that does not.
    // `raised` is what the level reached so far costs (nothing at the lowest count).
    let (mut lo, mut hi, mut raised) = (lowest, highest, 0u64);
    let mut step = 1u64;
    while lo < highest {
        let next = lo.saturating_add(step).min(highest);
        let cost = given(next);
        if cost <= need {
            (lo, raised) = (next, cost);
            step = step.saturating_mul(2);
        } else {
            hi = next - 1;
            break;
        }
    }
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        let cost = given(mid);
        if cost <= need {
            (lo, raised) = (mid, cost);
        } else {
            hi = mid - 1;
        }
    }
    let level = lo;
    let rest = need - raised;
    // Nobody is below the lowest count: nothing to raise, no node to read.
    let to_read = if level > lowest { nodes.len() } else { 0 };
    let below = nodes.iter().take(to_read).enumerate().filter_map(|(i, n)| {
        candidate(n)
            .filter(|&(count, _)| count < level)
            .map(|(count, top)| (i, top.min(level) - count))
    });
    let mut added = map_of(nodes.len(), below);
    // The remainder: one each to nodes at the level with room above it, most capacity left
    // first, then input order.
    if rest > 0 {
        // One each to the candidates at the level with room above it (every candidate at the
        // lowest count has room above it).
        let mut at_level = if level == lowest {
            at_lowest
        } else {
            nodes
                .iter()
                .enumerate()
                .filter(|&(_, n)| {
                    candidate(n).is_some_and(|(count, top)| count <= level && level < top)
                })
                .map(|(i, n)| order(i, n))
                .collect()
        };
        crate::order::select_keys(&mut at_level, rest as usize);
        for &k in at_level.iter().take(rest as usize) {
            let i = (k & u128::from(u32::MAX)) as usize;
            added[i] = Some(added[i].unwrap_or(0) + 1);
        }
    }
    let explanation = c.says(|| {
        format!(
            "AUTO: nodes raised to {} instances each (old + new), {} more to the nodes at that \
             level with the most capacity left",
            Digits::new(level).as_str(),
            Digits::new(rest).as_str(),
        )
    });
    Ok((added, explanation))
}
