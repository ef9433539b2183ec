//! EACH (Average, docs/rules/eru.md A3): `need` new instances on each of `nodes_limit` nodes, the
//! nodes with the most capacity first (input order among equals).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{map_of, nodes_to_use, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    let limit = nodes_to_use(nodes, c, nodes.len() as u64, |n, limit| {
        format!("node len {n} < nodes limit {limit}")
    })?;
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    crate::order::sort_indices_by_key(&mut order, |i| core::cmp::Reverse(nodes[i].capacity));
    let able = order
        .iter()
        .take_while(|&&i| nodes[i].capacity.saturating() >= c.need)
        .count() as u64;
    if able == 0 {
        return Err(Error::InsufficientCapacity {
            field: Path::fields(c.paths.count),
            need: c.need,
        });
    }
    if able < limit {
        return Err(Error::InsufficientResource {
            field: super::shortfall_field(c),
            need: c.need,
            available: able,
            detail: format!(
                "not enough nodes with capacity of {}, require {limit} nodes",
                c.need
            ),
        });
    }
    let explanation = alloc::vec![format!(
        "EACH: {} new instances on each of the {limit} nodes with the most capacity",
        c.need
    )];
    Ok((
        map_of(
            nodes.len(),
            order.into_iter().take(limit as usize).map(|i| (i, c.need)),
        ),
        explanation,
    ))
}
