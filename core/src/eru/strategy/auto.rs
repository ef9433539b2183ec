//! AUTO (Communism, docs/rules/eru.md A1): hand each new instance to the node with the fewest
//! instances (then the most remaining capacity, then input order), so old + new instances end
//! as even as possible; NodesLimit caps old + new per node.
//!
//! In bulk: nodes are raised to a common level `L` (the largest whose cost fits the need),
//! then the remainder goes one each to the nodes at level `L` with the most capacity left.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{map_of, need_within_total, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};
use crate::text::Digits;

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    need_within_total(c)?;
    // Candidates and the count each can reach: count + capacity, capped by the nodes limit.
    let live: Vec<(usize, u128, u128)> = nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.capacity.is_zero() && (c.limit == 0 || n.count < c.limit))
        .map(|(i, n)| {
            let mut top = u128::from(n.count) + u128::from(n.capacity.saturating());
            if c.limit > 0 {
                top = top.min(u128::from(c.limit));
            }
            (i, u128::from(n.count), top)
        })
        .collect();
    let room: u128 = live.iter().map(|&(_, count, top)| top - count).sum();
    let need = u128::from(c.need);
    if room < need {
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
    let given = |level: u128| -> u128 {
        live.iter()
            .map(|&(_, count, top)| top.min(level).saturating_sub(count))
            .sum()
    };
    // The largest level whose cost is within the need.
    let (mut lo, mut hi) = (
        live.iter().map(|l| l.1).min().unwrap_or(0),
        live.iter().map(|l| l.2).max().unwrap_or(0),
    );
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if given(mid) <= need {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let level = lo;
    let rest = need - given(level);
    // The remainder: one each to nodes at the level, most capacity left first.
    let mut added = alloc::vec![0u64; nodes.len()];
    for &(i, count, top) in &live {
        added[i] = top.min(level).saturating_sub(count) as u64;
    }
    let extra = rest as usize;
    if extra > 0 {
        // Each node's key once, (most capacity left, then input order), sorted by index.
        let at_level: Vec<(usize, u128)> = live
            .iter()
            .filter(|&&(_, count, top)| count <= level && level < top)
            .map(|&(i, count, _)| (i, count + u128::from(nodes[i].capacity.saturating())))
            .collect();
        let mut order: Vec<usize> = (0..at_level.len()).collect();
        crate::order::sort_indices_by_key(&mut order, |k| {
            let (i, remaining) = at_level[k];
            (core::cmp::Reverse(remaining), i)
        });
        for &k in order.iter().take(extra) {
            added[at_level[k].0] += 1;
        }
    }
    // 128-bit figures in digits of their own: `{}` of a u128 links 1.4 KB of wasm.
    let explanation = alloc::vec![format!(
        "AUTO: nodes raised to {} instances each (old + new), {} more to the nodes at that \
         level with the most capacity left",
        Digits::wide(level).as_str(),
        Digits::wide(rest).as_str(),
    )];
    Ok((
        map_of(
            nodes.len(),
            added.into_iter().enumerate().filter(|&(_, k)| k > 0),
        ),
        explanation,
    ))
}
