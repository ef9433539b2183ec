//! The cluster path of selection (docs/rules/karmada.md §14.5): the best `maxGroups` clusters
//! of G; when their available replicas fall short of what is needed, walk the selection from
//! its last slot and swap in the unselected cluster with the most available replicas when it
//! has more. A heap keeps the unselected clusters, so the cost grows with the clusters, not
//! with the replicas.

use alloc::collections::BinaryHeap;
use alloc::format;
use alloc::vec::Vec;
use core::cmp::Reverse;

use super::{unsatisfiable, Candidate, SelectPath, Selection, Swap};
use crate::error::Result;

/// `need`: `None` for Duplicated (capacity ignored).
pub fn select(
    g: &[Candidate<'_>],
    min_groups: u32,
    max_groups: u32,
    need: Option<u64>,
) -> Result<Selection> {
    if g.len() < min_groups as usize {
        return Err(unsatisfiable(
            "the number of feasible clusters is less than spreadConstraint.MinGroups",
        ));
    }
    let k = g.len().min(max_groups as usize);
    let mut sel: Vec<usize> = (0..k).collect();
    let mut swaps = Vec::new();
    if let Some(need) = need {
        let need = i64::try_from(need).unwrap_or(i64::MAX);
        let mut sum: i64 = sel.iter().map(|&i| g[i].avail).fold(0, i64::saturating_add);
        // The unselected clusters by (avail, earliest slot): the top is the one to swap in.
        let mut rest: BinaryHeap<(i64, Reverse<usize>, usize)> =
            (k..g.len()).map(|i| (g[i].avail, Reverse(i), i)).collect();
        for slot in (0..k).rev() {
            if sum >= need {
                break;
            }
            let out = sel[slot];
            let Some(&(avail, pos, into)) = rest.peek() else {
                break;
            };
            if avail > g[out].avail {
                rest.pop();
                // The displaced cluster takes the slot the added one had.
                rest.push((g[out].avail, pos, out));
                sum = sum.saturating_sub(g[out].avail).saturating_add(avail);
                sel[slot] = into;
                swaps.push(Swap {
                    removed: g[out].name.into(),
                    added: g[into].name.into(),
                });
            }
        }
        if sum < need || sel.is_empty() {
            return Err(unsatisfiable(format!(
                "no enough resource when selecting {k} clusters"
            )));
        }
    }
    Ok(Selection {
        path: SelectPath::Cluster,
        chosen: sel,
        spares: Vec::new(),
        swaps,
        regions: Vec::new(),
    })
}
