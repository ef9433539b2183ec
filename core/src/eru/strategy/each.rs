//! EACH (Average, docs/rules/eru.md A3): `need` new instances on each of `nodes_limit` nodes, the
//! nodes with the most capacity first (input order among equals).
//!
//! Which nodes can take `need` does not depend on the order; the `limit` of them EACH takes
//! are selected, not sorted.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::{map_of, nodes_to_use, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    let limit = nodes_to_use(nodes, c, nodes.len() as u64, |n, limit| {
        format!("node len {n} < nodes limit {limit}")
    })?;
    let mut able: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].capacity.saturating() >= c.need)
        .collect();
    if able.is_empty() {
        return Err(Error::InsufficientCapacity {
            field: Path::fields(c.paths.count),
            need: c.need,
        });
    }
    if (able.len() as u64) < limit {
        return Err(Error::InsufficientResource {
            field: super::shortfall_field(c),
            need: c.need,
            available: able.len() as u64,
            detail: format!(
                "not enough nodes with capacity of {}, require {limit} nodes",
                c.need
            ),
        });
    }
    crate::order::select_indices_by_key(&mut able, limit as usize, |i| {
        (Reverse(nodes[i].capacity), i)
    });
    able.truncate(limit as usize);
    let explanation = c.says(|| {
        format!(
            "EACH: {} new instances on each of the {limit} nodes with the most capacity",
            c.need
        )
    });
    Ok((
        map_of(nodes.len(), able.into_iter().map(|i| (i, c.need))),
        explanation,
    ))
}
