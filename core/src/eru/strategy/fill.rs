//! FILL (docs/rules/eru.md A2): make at least `nodes_limit` nodes hold at least `need` instances,
//! topping up the fullest nodes first (count desc, then capacity desc, then input order).
//!
//! The nodes able to reach the need are the same in any order; only which `limit` of them
//! FILL takes depends on it, so they are selected, not sorted.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::{map_of, nodes_to_use, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    let limit = nodes_to_use(nodes, c, 0, |n, limit| {
        format!("node len {n} cannot alloc a fill node plan, require {limit} nodes")
    })?;
    let mut able: Vec<usize> = (0..nodes.len())
        .filter(|&i| {
            let n = &nodes[i];
            u128::from(n.count) + u128::from(n.capacity.saturating()) >= u128::from(c.need)
        })
        .collect();
    let found = (able.len() as u64).min(limit);
    // No node at all (a limit of 0 over no nodes) fills nothing: eru's shortfall, not
    // already_filled (every one of no nodes is trivially full).
    if found < limit || able.is_empty() {
        let left = limit - found;
        return Err(Error::InsufficientResource {
            field: super::shortfall_field(c),
            need: c.need,
            available: found,
            detail: format!(
                "not enough nodes that can fill up to {} instances, require {left} nodes",
                c.need
            ),
        });
    }
    crate::order::select_indices_by_key(&mut able, limit as usize, |i| {
        (Reverse(nodes[i].count), Reverse(nodes[i].capacity), i)
    });
    able.truncate(limit as usize);
    if able.iter().all(|&i| nodes[i].count >= c.need) {
        return Err(Error::AlreadyFilled {
            field: Path::fields(c.paths.count),
            need: c.need,
        });
    }
    let explanation = c.says(|| {
        format!(
            "FILL: {limit} nodes topped up to {} instances, fullest first",
            c.need
        )
    });
    Ok((
        map_of(
            nodes.len(),
            able.into_iter()
                .map(|i| (i, c.need.saturating_sub(nodes[i].count))),
        ),
        explanation,
    ))
}
