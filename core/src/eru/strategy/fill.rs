//! FILL (docs/rules/eru.md A2): make at least `nodes_limit` nodes hold at least `need` instances,
//! topping up the fullest nodes first (count desc, then capacity desc, then input order).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{map_of, nodes_to_use, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    let limit = nodes_to_use(nodes, c, 0, |n, limit| {
        format!("node len {n} cannot alloc a fill node plan, require {limit} nodes")
    })?;
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    crate::order::sort_indices_by_key(&mut order, |i| {
        (
            core::cmp::Reverse(nodes[i].count),
            core::cmp::Reverse(nodes[i].capacity),
        )
    });
    let mut left = limit;
    let mut picked = Vec::new();
    for &i in &order {
        if left == 0 {
            break;
        }
        let n = &nodes[i];
        if u128::from(n.count) + u128::from(n.capacity.saturating()) >= u128::from(c.need) {
            picked.push((i, c.need.saturating_sub(n.count)));
            left -= 1;
        }
    }
    // No node at all (a limit of 0 over no nodes) fills nothing: eru's shortfall, not
    // already_filled (every one of no nodes is trivially full).
    if left > 0 || picked.is_empty() {
        return Err(Error::InsufficientResource {
            field: super::shortfall_field(c),
            need: c.need,
            available: limit - left,
            detail: format!(
                "not enough nodes that can fill up to {} instances, require {left} nodes",
                c.need
            ),
        });
    }
    if picked.iter().all(|&(_, k)| k == 0) {
        return Err(Error::AlreadyFilled {
            field: Path::fields(c.paths.count),
            need: c.need,
        });
    }
    let explanation = alloc::vec![format!(
        "FILL: {limit} nodes topped up to {} instances, fullest first",
        c.need
    )];
    Ok((map_of(nodes.len(), picked), explanation))
}
