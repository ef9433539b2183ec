//! Topology groups and their scores (docs/rules/karmada.md §14.3), and selectGroups (§14.7),
//! which picks the set of groups the region path takes.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::{unsatisfiable, Candidate};
use crate::error::{Error, Path, Result};
use crate::karmada::constraints::{Division, Rules, SpreadField};
use crate::names::Prefixed;

/// Largest number of paths selectGroups may visit: its search is exponential in the number of
/// groups, so beyond this a policy answers `too_large` at once.
pub const MAX_GROUP_PATHS: u64 = 1 << 20;

/// The groups of `field` over `g` (in G order), each with its members in G order, sorted by
/// name. Clusters with an empty value join no group; a cluster joins one zone group per zone.
pub fn build(g: &[Candidate<'_>], field: SpreadField) -> Vec<(String, Vec<usize>)> {
    // Keyed by prefix: 10,000 clusters in ten regions cost integer comparisons, not `memcmp`.
    let mut groups: BTreeMap<Prefixed<'_>, Vec<usize>> = BTreeMap::new();
    for (i, c) in g.iter().enumerate() {
        let values: &[&str] = match field {
            SpreadField::Region => &[c.region],
            SpreadField::Provider => &[c.provider],
            SpreadField::Zone | SpreadField::Cluster => &[],
        };
        let zones = c.zones.iter().map(crate::Name::as_str);
        let zones = zones.filter(|_| field == SpreadField::Zone);
        for v in values.iter().copied().chain(zones) {
            if !v.is_empty() {
                groups.entry(Prefixed::new(v)).or_default().push(i);
            }
        }
    }
    groups
        .into_iter()
        .map(|(k, v)| (String::from(k.name()), v))
        .collect()
}

/// Whether group building is skipped (14.2): no constraints, one constraint by cluster, or
/// static weighting.
pub fn skipped(rules: &Rules<'_>) -> bool {
    let s = rules.spread_constraints;
    s.is_empty()
        || (s.len() == 1 && s[0].field() == Some(SpreadField::Cluster))
        || super::ignores_spread(rules)
}

/// A group's score (14.3). `min_groups` is the group field's constraint's `minGroups` (0 counts
/// as 1; the policy webhook never leaves 0).
pub fn score(
    g: &[Candidate<'_>],
    members: &[usize],
    rules: &Rules<'_>,
    replicas: u64,
    min_groups: u32,
) -> i64 {
    let sum_scores = |m: &[usize]| m.iter().map(|&i| g[i].score as i128).sum::<i128>();
    let value = |a: i128, s: i128, n: usize| -> i64 {
        let v = a
            .saturating_mul(1000)
            .saturating_add(s.div_euclid(n.max(1) as i128));
        v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    };
    match rules.division {
        Division::Duplicated => {
            let v: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&i| i128::from(g[i].avail) >= i128::from(replicas))
                .collect();
            if v.is_empty() {
                0
            } else {
                value(v.len() as i128, sum_scores(&v), v.len())
            }
        }
        Division::Divided { .. } => {
            let gm = u64::from(min_groups.max(1));
            let target = i128::from(replicas.div_ceil(gm));
            let cluster_min = rules
                .constraint(SpreadField::Cluster)
                .map_or(0, |c| c.min_groups);
            let m = min_groups.max(1).max(cluster_min) as usize;
            let (mut a, mut s, mut n) = (0i128, 0i128, 0usize);
            for &i in members {
                a += i128::from(g[i].avail);
                s += g[i].score as i128;
                n += 1;
                if n >= m && a >= target {
                    break;
                }
            }
            if a < target {
                value(a, s, members.len())
            } else {
                value(target, s, n)
            }
        }
    }
}

/// A group offered to [`select_groups`].
#[derive(Debug, Clone)]
pub struct GroupInput<'a> {
    pub name: &'a str,
    /// What the target is reached in (the number of clusters, for regions).
    pub value: u64,
    /// How good it is (the group score).
    pub weight: i64,
}

/// selectGroups (14.7): the chosen groups (indices into `groups`) in their chosen order, or
/// `None` when no set meets `min`, `max` and `target`. Beyond [`MAX_GROUP_PATHS`] visited paths:
/// `too_large`.
pub fn select_groups(
    groups: &[GroupInput<'_>],
    min: u32,
    max: u32,
    target: u64,
) -> Result<Option<Vec<usize>>> {
    if groups.is_empty() {
        return Ok(None);
    }
    let mut order: Vec<usize> = (0..groups.len()).collect();
    crate::order::sort_indices(&mut order, &|a, b| {
        let (x, y) = (&groups[a], &groups[b]);
        x.value
            .cmp(&y.value)
            .then(y.weight.cmp(&x.weight))
            .then_with(|| x.name.cmp(y.name))
    });
    let mut search = Search {
        order: &order,
        groups,
        min: min as usize,
        max: max as usize,
        target,
        only_first: groups.len() == min as usize,
        path: Vec::new(),
        found: Vec::new(),
        visited: 0,
    };
    search.dfs()?;
    let found = search.found;
    // Each path: its groups re-ordered by weight descending, then name.
    let by_weight = |a: &usize, b: &usize| -> Ordering {
        groups[*b]
            .weight
            .cmp(&groups[*a].weight)
            .then_with(|| groups[*a].name.cmp(groups[*b].name))
    };
    let mut paths: Vec<(i128, u128, usize, Vec<usize>)> = found
        .into_iter()
        .enumerate()
        .map(|(id, mut p)| {
            let w = p.iter().map(|&i| groups[i].weight as i128).sum();
            let v = p.iter().map(|&i| groups[i].value as u128).sum();
            crate::order::sort_by(&mut p, &by_weight);
            (w, v, id, p)
        })
        .collect();
    match paths.len() {
        0 => return Ok(None),
        1 => return Ok(paths.pop().map(|p| p.3)),
        _ => {}
    }
    crate::order::sort_by(&mut paths, &|a, b| {
        b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2))
    });
    let mut chosen = 0;
    for i in 1..paths.len() {
        let (c, p) = (&paths[chosen].3, &paths[i].3);
        let prefix = p.len() < c.len()
            && p.iter()
                .zip(c.iter())
                .all(|(x, y)| groups[*x].name == groups[*y].name);
        if prefix {
            chosen = i;
        }
    }
    Ok(Some(core::mem::take(&mut paths[chosen].3)))
}

/// The depth-first search of selectGroups.
struct Search<'a, 'g> {
    /// Group indices in search order.
    order: &'a [usize],
    groups: &'a [GroupInput<'g>],
    min: usize,
    max: usize,
    target: u64,
    /// As many groups as `min`: only the first extension is tried at each level.
    only_first: bool,
    path: Vec<usize>,
    found: Vec<Vec<usize>>,
    visited: u64,
}

impl Search<'_, '_> {
    /// Count a visit to the current path (value sum `sum`): record it when it meets the
    /// constraints; `true` when it is to be extended.
    fn visit(&mut self, sum: u64) -> Result<bool> {
        self.visited += 1;
        if self.visited > MAX_GROUP_PATHS {
            return Err(Error::TooLarge {
                field: Path::fields("spreadConstraints"),
                limit: MAX_GROUP_PATHS,
            });
        }
        let len = self.path.len();
        if sum >= self.target && self.min <= len && len <= self.max {
            self.found.push(self.path.clone());
            return Ok(false);
        }
        Ok(len < self.max)
    }

    /// The positions a path may be extended with, from `from`.
    fn end(&self, from: usize) -> usize {
        if self.only_first {
            (from + 1).min(self.order.len())
        } else {
            self.order.len()
        }
    }

    /// Depth-first from the empty path, with an explicit stack (paths can be as long as there
    /// are groups). Each frame: the next position to try, the end, the path's value sum.
    fn dfs(&mut self) -> Result<()> {
        let mut frames: Vec<(usize, usize, u64)> = Vec::new();
        if self.visit(0)? {
            frames.push((0, self.end(0), 0));
        }
        while let Some(&mut (ref mut next, end, sum)) = frames.last_mut() {
            if *next >= end {
                frames.pop();
                if !frames.is_empty() {
                    self.path.pop();
                }
                continue;
            }
            let pos = *next;
            *next += 1;
            let gi = self.order[pos];
            let sum = sum.saturating_add(self.groups[gi].value);
            self.path.push(gi);
            if self.visit(sum)? {
                frames.push((pos + 1, self.end(pos + 1), sum));
            } else {
                self.path.pop();
            }
        }
        Ok(())
    }
}

/// Region selection found no set of regions (14.6 step 2).
pub(super) fn no_region_set() -> Error {
    unsatisfiable("the number of clusters is less than the cluster spreadConstraint.MinGroups")
}
