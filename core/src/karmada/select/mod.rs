//! Selecting clusters (docs/rules/karmada.md §14): the feasible clusters in the global order G
//! (overflow tier, score, available replicas, name), then SelectBestClusters: all of them, or
//! the cluster path (14.5) or the region path (14.6) when spread constraints apply.
//!
//! - [`groups`]: topology groups, group scores (14.3) and selectGroups (14.7).
//! - [`cluster_path`], [`region_path`]: the two paths.

pub mod cluster_path;
pub mod groups;
pub mod region_path;

use crate::Name;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::{Ordering, Reverse};

use serde::Serialize;

use super::constraints::{Division, Rules, SpreadField};
use crate::error::{Error, Path, Result};
use crate::names::Prefixed;
use crate::selector::cluster::ClusterFacts;

/// A feasible cluster as selection sees it.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub name: &'a str,
    pub provider: &'a str,
    pub region: &'a str,
    pub zones: &'a [Name],
    /// The score plugins' total.
    pub score: i64,
    /// `avail = alloc + prev` (negative where Karmada's estimate is, docs/rules/versions.md
    /// "Resource models").
    pub avail: i64,
    /// The overflow tier (14.1): 0 without ordered terms.
    pub overflow_order: u32,
}

/// A candidate's place in the order G: overflow tier ascending, score descending, `avail`
/// descending (unless `by_avail` is false), name ascending (compared through its prefix).
fn g_key<'a>(c: &Candidate<'a>, by_avail: bool) -> (u32, Reverse<i64>, Reverse<i64>, Prefixed<'a>) {
    let avail = if by_avail { c.avail } else { 0 };
    (
        c.overflow_order,
        Reverse(c.score),
        Reverse(avail),
        Prefixed::new(c.name),
    )
}

/// The order G between two candidates.
pub fn compare(a: &Candidate<'_>, b: &Candidate<'_>, by_avail: bool) -> Ordering {
    g_key(a, by_avail).cmp(&g_key(b, by_avail))
}

/// Sort `indices` (into `c`) in G order. Each candidate's key is computed once, into one
/// compact list the sort compares.
pub(super) fn sort_in_g(c: &[Candidate<'_>], indices: &mut [usize], by_avail: bool) {
    let keys: Vec<_> = c.iter().map(|c| g_key(c, by_avail)).collect();
    crate::order::sort_indices(indices, &|a, b| keys[a].cmp(&keys[b]));
}

/// The indices of `c` in G order.
pub fn global_order(c: &[Candidate<'_>], by_avail: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..c.len()).collect();
    sort_in_g(c, &mut order, by_avail);
    order
}

/// A cluster's overflow tier (14.1): 0 with `clusterAffinity` or without ordered terms;
/// otherwise, under the observed term, 0 for its inline affinity, k for the first overflow
/// affinity k-1 it matches, 1000 for none (or when no term has that name).
pub fn overflow_order(rules: &Rules<'_>, observed: &str, facts: &ClusterFacts<'_>) -> u32 {
    if rules.cluster_affinity.is_some() || rules.cluster_affinities.is_none_or(<[_]>::is_empty) {
        return 0;
    }
    let Some(term) = rules.observed_term(observed) else {
        return NO_TIER;
    };
    let zones = rules.zone_in();
    if term.affinity.matches(facts, zones) {
        return 0;
    }
    rules
        .overflow_affinities(term)
        .iter()
        .position(|o| o.affinity.matches(facts, zones))
        .map_or(NO_TIER, |k| k as u32 + 1)
}

/// The overflow tier of a cluster no affinity of the observed term matches.
pub const NO_TIER: u32 = 1000;

/// Multi-template scheduling applies (14.8): components, a placement, and a spread constraint
/// by cluster with `minGroups` and `maxGroups` both 1. How many components it takes depends on
/// the release (docs/rules/versions.md "Multiple pod templates"): one from 1.18, two before.
pub fn multi_template(components: usize, rules: Option<&Rules<'_>>) -> bool {
    rules.is_some_and(|r| {
        components >= r.version.min_template_components()
            && r.spread_constraints.iter().any(|c| {
                c.field() == Some(SpreadField::Cluster) && c.min_groups == 1 && c.max_groups == 1
            })
    })
}

/// Empty workload propagation (14.8): every selected cluster missing from `result` is appended
/// with 0 replicas, in selection order.
pub fn attach_zero_replicas(selected: &[&str], result: &mut Vec<(String, u64)>) {
    for name in selected {
        if !result.iter().any(|(n, _)| n == name) {
            result.push(((*name).into(), 0));
        }
    }
}

/// Which way selection went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum SelectPath {
    /// No spread constraint applies: every feasible cluster.
    All,
    /// Spread by cluster: the best `maxGroups`, with swaps for capacity.
    Cluster,
    /// Spread by region: one cluster per chosen region, then spares.
    Region,
}

/// A swap of the cluster path: `removed` left the selection for `added`, which has more
/// available replicas.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Swap {
    pub removed: Name,
    pub added: Name,
}

/// A region group of the region path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RegionTrace {
    pub name: Name,
    /// Its group score (14.3).
    pub score: i64,
    /// Its clusters, best first.
    pub clusters: Vec<Name>,
    pub chosen: bool,
}

/// The names of the regions selection chose, in the order listed.
pub fn chosen_regions(regions: &[RegionTrace]) -> impl Iterator<Item = &str> {
    regions.iter().filter(|r| r.chosen).map(|r| r.name.as_str())
}

/// What selection kept, in candidate order, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub path: SelectPath,
    /// Indices into G (the slice given to [`select_best`]), in candidate order.
    pub chosen: Vec<usize>,
    /// Clusters taken as spares on the region path (indices into G).
    pub spares: Vec<usize>,
    pub swaps: Vec<Swap>,
    pub regions: Vec<RegionTrace>,
}

/// A selection failure, with Karmada's message, at the rules' spread constraints.
pub(crate) fn unsatisfiable(message: impl Into<String>) -> Error {
    Error::SpreadUnsatisfiable {
        field: Path::fields("spreadConstraints"),
        message: message.into(),
    }
}

/// Whether static weighting makes selection ignore spread constraints (14.2).
pub fn ignores_spread(rules: &Rules<'_>) -> bool {
    matches!(
        rules.division,
        Division::Divided {
            ignore_spread: true
        }
    )
}

/// SelectBestClusters (14.4) over `g`, the feasible clusters in G order. `need` is R, or 1 with
/// multi-template scheduling.
pub fn select_best(
    g: &[Candidate<'_>],
    rules: &Rules<'_>,
    replicas: u64,
    need: u64,
) -> Result<Selection> {
    let all = || Selection {
        path: SelectPath::All,
        chosen: (0..g.len()).collect(),
        spares: Vec::new(),
        swaps: Vec::new(),
        regions: Vec::new(),
    };
    if rules.spread_constraints.is_empty() || ignores_spread(rules) {
        return Ok(all());
    }
    // Duplicated ignores capacity.
    let need = match rules.division {
        Division::Duplicated => None,
        Division::Divided { .. } => Some(need),
    };
    if let Some(region) = rules.constraint(SpreadField::Region) {
        let cluster = rules.constraint(SpreadField::Cluster);
        let regions = groups::build(g, SpreadField::Region);
        let scored: Vec<(String, i64, Vec<usize>)> = regions
            .into_iter()
            .map(|(name, members)| {
                let score = groups::score(g, &members, rules, replicas, region.min_groups);
                (name, score, members)
            })
            .collect();
        return region_path::select(
            g,
            &scored,
            (region.min_groups, region.max_groups),
            cluster.map_or((0, 0), |c| (c.min_groups, c.max_groups)),
        );
    }
    if let Some(cluster) = rules.constraint(SpreadField::Cluster) {
        return cluster_path::select(g, cluster.min_groups, cluster.max_groups, need);
    }
    Err(unsatisfiable(
        "just support cluster and region spread constraint",
    ))
}
