//! The region path of selection (docs/rules/karmada.md §14.6): choose regions with
//! selectGroups, take each chosen region's best cluster, then the best spares up to the
//! cluster constraint's `maxGroups`. Capacity is not checked on this path.

use crate::Name;
use alloc::string::String;
use alloc::vec::Vec;

use super::groups::{no_region_set, select_groups, GroupInput};
use super::{sort_in_g, unsatisfiable, Candidate, RegionTrace, SelectPath, Selection};
use crate::error::Result;

/// `regions`: each region's name, group score and members (indices into `g`, in G order).
/// `region` and `cluster` are the constraints' (minGroups, maxGroups); (0, 0) without a
/// cluster constraint.
pub fn select(
    g: &[Candidate<'_>],
    regions: &[(String, i64, Vec<usize>)],
    region: (u32, u32),
    cluster: (u32, u32),
) -> Result<Selection> {
    if regions.len() < region.0 as usize {
        return Err(unsatisfiable(
            "the number of feasible region is less than spreadConstraint.MinGroups",
        ));
    }
    let inputs: Vec<GroupInput<'_>> = regions
        .iter()
        .map(|(name, score, members)| GroupInput {
            name,
            value: members.len() as u64,
            weight: *score,
        })
        .collect();
    let Some(picked) = select_groups(&inputs, region.0, region.1, u64::from(cluster.0))? else {
        return Err(no_region_set());
    };
    let mut chosen = Vec::with_capacity(picked.len());
    let mut spares = Vec::new();
    let mut total = 0usize;
    for &r in &picked {
        let members = &regions[r].2;
        total += members.len();
        if let Some((&best, rest)) = members.split_first() {
            chosen.push(best);
            spares.extend_from_slice(rest);
        }
    }
    let n = total.min(cluster.1 as usize);
    let extra = n.saturating_sub(picked.len());
    let mut taken = Vec::new();
    if extra > 0 {
        sort_in_g(g, &mut spares, true);
        taken.extend(spares.iter().copied().take(extra));
        chosen.extend_from_slice(&taken);
    }
    Ok(Selection {
        path: SelectPath::Region,
        chosen,
        spares: taken,
        swaps: Vec::new(),
        regions: regions
            .iter()
            .enumerate()
            .map(|(i, (name, score, members))| RegionTrace {
                name: Name::from(name.as_str()),
                score: *score,
                clusters: members.iter().map(|&m| Name::from(g[m].name)).collect(),
                chosen: picked.contains(&i),
            })
            .collect(),
    })
}
