//! DRAINED (docs/rules/eru.md A5): fill the nodes with the least capacity first, each completely,
//! until the need is met (input order among equal capacities).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{map_of, need_within_total, Checked, StrategyNode};
use crate::error::Path;
use crate::error::{Error, Result};

pub(crate) fn run(nodes: &[StrategyNode], c: &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)> {
    need_within_total(c)?;
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    crate::order::sort_indices_by_key(&mut order, |i| nodes[i].capacity);
    let mut left = c.need;
    let mut picked = Vec::new();
    for i in order {
        if left == 0 {
            break;
        }
        let take = nodes[i].capacity.saturating().min(left);
        if take > 0 {
            picked.push((i, take));
            left -= take;
        }
    }
    if left > 0 {
        return Err(Error::InsufficientResource {
            field: Path::fields(c.paths.count),
            need: c.need,
            available: c.need - left,
            detail: String::new(),
        });
    }
    let explanation = alloc::vec![format!(
        "DRAINED: the smallest nodes filled first, {} nodes used",
        picked.len()
    )];
    Ok((map_of(nodes.len(), picked), explanation))
}
