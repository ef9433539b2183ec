//! Divided by available replicas (DynamicWeight) and Aggregated (docs/rules/karmada.md §4, §5).
//!
//! Fresh: every candidate weighs its capacity plus its placement. Steady: scale up keeps the
//! previous placements and divides only the difference by capacity; scale down divides the new
//! total by the previous placements; an equal total changes nothing. Aggregated first moves the
//! clusters already in use to the front, then keeps the shortest prefix that holds the replicas.

use alloc::vec::Vec;

use super::assign::Run;
use super::{DropReason, Dropped, Mode};
use crate::division::method::{divide as divide_by, DivisionTrace, Input, Method};
use crate::error::{Error, Result};

/// Run DynamicWeight (`aggregated = false`) or Aggregated on the tier.
pub(crate) fn run(
    run: &mut Run<'_>,
    tier: &[usize],
    replicas: u64,
    aggregated: bool,
) -> Result<Vec<(usize, u64)>> {
    let c = &run.candidates;
    let scheduled: Vec<(usize, u64)> = tier
        .iter()
        .filter(|&&i| c[i].prev > 0)
        .map(|&i| (i, c[i].prev))
        .collect();
    let assigned: u64 = scheduled.iter().map(|&(_, r)| r).sum();
    let (mode, mut list, target, keep) = if run.placement.fresh {
        let list = tier
            .iter()
            .map(|&i| (i, c[i].alloc.saturating_add(c[i].prev as i64)))
            .collect();
        (Mode::Fresh, list, replicas, Vec::new())
    } else if assigned > replicas {
        // The list is the previous result, `spec.clusters`, restricted to candidates: entries
        // of 0 replicas included, as they take part in Go's sort. It starts in that result's
        // order, which Karmada writes sorted by name (docs/rules/karmada.md §4), not in
        // candidate order. Before 1.17 it is the whole previous result, clusters no longer
        // candidates included (docs/rules/versions.md "Scale-down"; `ghosts` is empty from 1.17).
        let previous = &run.placement.previous;
        let mut list: Vec<(usize, i64)> = tier
            .iter()
            .filter(|&&i| previous.contains_key(c[i].name))
            .map(|&i| (i, c[i].prev as i64))
            .collect();
        let n = c.len();
        list.extend(
            run.ghosts
                .iter()
                .enumerate()
                .map(|(k, g)| (n + k, g.prev as i64)),
        );
        let ghosts = &run.ghosts;
        let name = |i: usize| {
            c.get(i)
                .or_else(|| ghosts.get(i.wrapping_sub(n)))
                .map_or("", |c| c.name)
        };
        crate::order::sort_by(&mut list, &|a, b| name(a.0).cmp(name(b.0)));
        (Mode::ScaleDown, list, replicas, Vec::new())
    } else if assigned < replicas {
        let list = tier.iter().map(|&i| (i, c[i].alloc)).collect();
        (Mode::ScaleUp, list, replicas - assigned, scheduled)
    } else {
        run.trace.mode = Some(Mode::Unchanged);
        return Ok(scheduled);
    };
    run.trace.mode = Some(mode);
    // Descending by replicas with Go's `sort.Sort`, as Karmada sorts this list: equal values
    // keep their order up to 12 clusters, and above that take the order Go's unstable sort
    // leaves them in (docs/rules/karmada.md §4).
    super::go_sort::sort(&mut list, &|a, b| a.1 > b.1);
    let names: Vec<&str> = run
        .candidates
        .iter()
        .chain(&run.ghosts)
        .map(|c| c.name)
        .collect();
    let p = run.placement;
    let Divided { result, trace, cut } = divide(
        &names, &list, target, &keep, aggregated, p.method, &p.uid, run.seed,
    )?;
    for i in cut {
        run.trace.dropped.push(Dropped {
            cluster: names[i].into(),
            reason: DropReason::AggregatedCut,
        });
    }
    run.trace.divisions.push(trace);
    Ok(result)
}

/// What [`divide`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divided {
    /// `(index, replicas)` for the listed clusters (scheduled replicas added), then the
    /// scheduled-only clusters.
    pub result: Vec<(usize, u64)>,
    pub trace: DivisionTrace,
    /// Clusters Aggregated cut off.
    pub cut: Vec<usize>,
}

/// Karmada's `divide(list, target, scheduled)`; `names[i]` names index `i`. An index past
/// `names` is an error on `list` or `scheduled`. A negative figure in `list` (Karmada's wrapped
/// estimate, docs/rules/versions.md "Resource models") counts in the sum and the order as
/// Karmada counts it, and weighs as 0 in the division (a negative vote wins no seat while a
/// positive one exists, which the sum check ensures).
#[allow(clippy::too_many_arguments)]
pub fn divide(
    names: &[&str],
    list: &[(usize, i64)],
    target: u64,
    scheduled: &[(usize, u64)],
    aggregated: bool,
    method: Method,
    uid: &str,
    seed: u64,
) -> Result<Divided> {
    let past = |field: &'static str, indices: &mut dyn Iterator<Item = usize>| -> Result<()> {
        match indices.enumerate().find(|&(_, i)| i >= names.len()) {
            Some((k, i)) => Err(Error::UnknownValue {
                field: crate::error::indexed(field, k),
                value: alloc::format!("{i}"),
                expected: "an index into names",
            }),
            None => Ok(()),
        }
    };
    past("list", &mut list.iter().map(|&(i, _)| i))?;
    past("scheduled", &mut scheduled.iter().map(|&(i, _)| i))?;
    let available = list.iter().fold(0i64, |s, &(_, r)| s.saturating_add(r));
    if available < 0 || (available as u64) < target {
        return Err(Error::Unschedulable {
            field: "replicas".into(),
            requested: target,
            available,
        });
    }
    let mut held_by = alloc::vec![0u64; names.len()];
    for &(i, r) in scheduled {
        held_by[i] = r;
    }
    let held = |i: usize| held_by[i];
    let mut list: Vec<(usize, i64)> = list.to_vec();
    let mut cut = Vec::new();
    if aggregated {
        cut = super::aggregated::cut(&mut list, target, held);
    }
    let inputs: Vec<Input<'_>> = list
        .iter()
        .map(|&(i, r)| Input {
            name: names[i],
            weight: r.max(0) as u64,
            initial: held(i),
            last: held(i),
        })
        .collect();
    let (finals, trace) = divide_by(method, target, &inputs, uid, seed)?;
    let mut listed = alloc::vec![false; names.len()];
    list.iter().for_each(|&(i, _)| listed[i] = true);
    let mut result: Vec<(usize, u64)> = list.iter().map(|&(i, _)| i).zip(finals).collect();
    result.extend(scheduled.iter().filter(|&&(i, _)| !listed[i]));
    Ok(Divided { result, trace, cut })
}

#[cfg(test)]
mod tests {
    use crate::karmada::{assign, Cluster, Placement, Strategy};

    fn cluster(name: &str, alloc: i64) -> Cluster {
        Cluster {
            name: name.into(),
            available_replicas: Some(alloc),
            ..Cluster::default()
        }
    }

    /// Scale down starts from the previous result's order (by name), not the candidates'.
    #[test]
    fn scale_down_among_equals_follows_the_previous_result() {
        for strategy in [Strategy::Aggregated, Strategy::DynamicWeight] {
            let p = Placement {
                replicas: 1,
                clusters: alloc::vec![cluster("b", 0), cluster("a", 0)],
                strategy,
                previous: [("a".into(), 3), ("b".into(), 3)].into_iter().collect(),
                ..Placement::default()
            };
            let got = assign(&p).unwrap().assignment;
            assert_eq!(got.len(), 1, "{strategy:?}");
            assert_eq!(
                (got[0].name.as_str(), got[0].replicas),
                ("a", 1),
                "{strategy:?}"
            );
        }
    }
}
