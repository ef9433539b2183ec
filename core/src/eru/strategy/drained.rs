//! DRAINED (docs/rules/eru.md A5): fill the nodes with the least capacity first, each completely,
//! until the need is met (input order among equal capacities).
//!
//! In bulk: the capacity `v` of the last node touched is found by selection (the capacities,
//! smallest first, add up to the need at a node of capacity `v`); every node below `v` is
//! filled, and the nodes at `v` take the rest in input order. No sort of every node.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{map_of, need_within_total, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};
use crate::eru::Capacity;

/// A capacity as an ordered number: unlimited above every count.
fn key(n: &StrategyNode) -> u128 {
    match n.capacity {
        Capacity::Finite(k) => u128::from(k),
        Capacity::Unlimited => 1 << 64,
    }
}

/// The capacity at which the nodes, smallest first, reach `need` (each node counting at most
/// `need`, which is a function of its capacity); `None` when all of them together fall short.
/// A selection narrows the capacities by halves around their middle one (the capacities alone,
/// as plain keys: [`crate::order::select_keys`]).
fn last_capacity(nodes: &[StrategyNode], need: u64) -> Option<u128> {
    let mut keys: Vec<u128> = nodes
        .iter()
        .filter(|n| !n.capacity.is_zero())
        .map(key)
        .collect();
    // A node's share: its capacity, at most the need (an unlimited one, the need).
    let weight = |k: u128| k.min(u128::from(need));
    let mut left = u128::from(need);
    let mut slice = &mut keys[..];
    loop {
        if slice.is_empty() {
            return None;
        }
        let m = slice.len() / 2;
        // The m + 1 smallest first, the (m + 1)-th at m.
        crate::order::select_keys(slice, m + 1);
        let below: u128 = slice[..m].iter().map(|&k| weight(k)).sum();
        if below >= left {
            slice = &mut slice[..m];
            continue;
        }
        let through = below + weight(slice[m]);
        if through >= left {
            return Some(slice[m]);
        }
        left -= through;
        slice = &mut slice[m + 1..];
    }
}

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    need_within_total(c)?;
    let Some(last) = last_capacity(nodes, c.need) else {
        let room = Capacity::sum(nodes.iter().map(|n| n.capacity)).saturating();
        return Err(Error::InsufficientResource {
            field: Path::fields(c.paths.count),
            need: c.need,
            available: room,
            detail: String::new(),
        });
    };
    // Below the last capacity every node is filled; at it, input order takes the rest.
    let mut left = c.need;
    let mut picked = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        if !n.capacity.is_zero() && key(n) < last {
            let take = n.capacity.saturating();
            picked.push((i, take));
            left -= take;
        }
    }
    for (i, n) in nodes.iter().enumerate() {
        if left == 0 {
            break;
        }
        if key(n) == last {
            let take = n.capacity.saturating().min(left);
            picked.push((i, take));
            left -= take;
        }
    }
    let explanation = c.says(|| {
        format!(
            "DRAINED: the smallest nodes filled first, {} nodes used",
            picked.len()
        )
    });
    Ok((map_of(nodes.len(), picked), explanation))
}
