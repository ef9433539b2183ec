//! eru's cpumem capacity with CPU binding (docs/rules/eru.md C3 1-2, 12, 14): a node's free
//! cores and memory, plans within each NUMA node first and then across NUMA nodes, each set of
//! cores planned by the request's [`Shape`]; capacity, usage and rate from the plans, and the
//! bound on the cores one node's binding may assign.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use compact_str::CompactString;

use super::node::read_node;
use super::shape::{Core, Shape};
use super::{
    cores_noun, ratio, CpuMap, CpuMemCapacity, CpuMemConfig, CpuMemNode, CpuMemRequest, CpuPlans,
};
use crate::error::{Error, Path, Result};
use crate::eru::Capacity;
use crate::text::Decimal;

/// At most this many cores are assigned (plans times cores per plan) in binding one node's
/// CPUs; a node whose binding would take more is [`Error::TooLarge`], counted before any
/// plan is made (docs/rules/eru.md C3).
pub const MAX_BIND_ASSIGNMENTS: u64 = 1 << 16;

/// Spend `assignments` of a node's `budget` (what is left of [`MAX_BIND_ASSIGNMENTS`]), or
/// [`Error::TooLarge`] when it does not hold them.
pub(super) fn within_bound(budget: &mut u64, assignments: u64) -> Result<()> {
    match budget.checked_sub(assignments) {
        Some(left) => {
            *budget = left;
            Ok(())
        }
        None => Err(Error::TooLarge {
            field: Path::fields("cpuMap"),
            limit: MAX_BIND_ASSIGNMENTS,
        }),
    }
}

/// With binding: plans per NUMA node, then across NUMA nodes (docs/rules/eru.md C3).
pub(super) fn bind(
    node: &CpuMemNode,
    r: &CpuMemRequest,
    config: CpuMemConfig,
    origin: Option<&CpuMap>,
) -> Result<CpuMemCapacity> {
    let base = config.share_base as u64;
    // trunc(cpu × B) in floating point, as eru (0.29 × 100 -> 28); `check` made sure it is at
    // least one piece and at most 10^15.
    let p = (r.cpu_request * config.share_base as f64) as u64;
    let (full, frag) = (p / base, p % base);
    let shape = Shape {
        base,
        full,
        frag,
        max_share: config.max_share,
        memory: r.memory_request.max(0) as u64,
    };
    // The node read and checked once: its core ids and free pieces per core (id order).
    let mut out = CpuPlans::default();
    out.cores.reserve(node.cpu_map.len());
    let mut avail: Vec<u64> = Vec::with_capacity(node.cpu_map.len());
    let in_use = read_node(node, |id, pieces, used| {
        out.cores.push(CompactString::from(id.as_str()));
        avail.push(pieces.saturating_sub(used).max(0) as u64);
    })?;
    let mut memory = node.memory.saturating_sub(node.usage.memory).max(0) as u64;
    let mut budget = MAX_BIND_ASSIGNMENTS;
    if !node.numa.is_empty() {
        // Each core's NUMA node (the NUMA map's cores are among the node's, both in id order).
        let mut numa = node.numa.iter().peekable();
        let numa_of: Vec<Option<&String>> = node
            .cpu_map
            .keys()
            .map(|id| numa.next_if(|(c, _)| *c == id).map(|(_, m)| m))
            .collect();
        let mut numa_ids: Vec<&String> = node.numa.values().collect();
        crate::order::sort_by(&mut numa_ids, &|a, b| a.cmp(b));
        numa_ids.dedup();
        for (slot, numa) in numa_ids.into_iter().enumerate() {
            let cores: Vec<Core> = (0..avail.len())
                .filter(|&at| numa_of[at] == Some(numa))
                .map(|at| Core {
                    at,
                    pieces: avail[at],
                })
                .collect();
            let numa_mem = node
                .numa_memory
                .get(numa)
                .copied()
                .unwrap_or(0)
                .saturating_sub(node.usage.numa_memory.get(numa).copied().unwrap_or(0))
                .max(0) as u64;
            out.numa_nodes.push(numa.clone());
            let (before, start) = (out.plans.len(), out.parts.len());
            shape.plans(
                cores,
                numa_mem.min(memory),
                origin,
                Some(slot),
                &mut budget,
                &mut out,
            )?;
            for &(at, pcs) in &out.parts[start..] {
                avail[at] = avail[at].saturating_sub(pcs);
            }
            let made = (out.plans.len() - before) as u64;
            memory = memory.saturating_sub(shape.memory.saturating_mul(made));
        }
    }
    let cores: Vec<Core> = avail
        .iter()
        .enumerate()
        .map(|(at, &pieces)| Core { at, pieces })
        .collect();
    shape.plans(cores, memory, origin, None, &mut budget, &mut out)?;
    let cores = node.cpu_map.len() as f64;
    Ok(CpuMemCapacity {
        capacity: Capacity::Finite(out.len() as u64),
        explanation: format!(
            "cpu: {} {} = {full} full + {frag}/{base} of a core: {} {}",
            Decimal(r.cpu_request),
            cores_noun(r.cpu_request),
            out.len(),
            crate::text::plural(out.len() as u64, "plan", "plans")
        ),
        plans: out,
        usage: ratio(in_use as f64 / base as f64, cores),
        rate: ratio(r.cpu_request, cores),
        weight: 100,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eru::cpumem::tests::{bind_req, node};
    use crate::eru::cpumem::{capacity, CpuMemConfig};
    use alloc::vec;

    /// A node with a vast CPU map is counted, not enumerated: `too_large` at once.
    #[test]
    fn vast_bindings_are_too_large_before_any_plan() {
        for (cores, cpu) in [
            (vec![("0", 100_000_000)], 1.0),
            (vec![("0", 2_000_000_000)], 0.01),
        ] {
            let n = node(&cores, 1 << 40);
            let e = capacity(&n, &bind_req(cpu, 0), CpuMemConfig::default(), None).unwrap_err();
            assert_eq!(e.code(), "too_large");
            assert_eq!(e.field(), "node.cpuMap");
        }
        // 10,000 cores of 100 pieces asked for 0.01 cores: a million fragment plans.
        let many: Vec<(String, i64)> = (0..10_000).map(|i| (alloc::format!("{i}"), 100)).collect();
        let n = CpuMemNode {
            cpu_map: many.into_iter().collect(),
            memory: 1 << 40,
            ..CpuMemNode::default()
        };
        let e = capacity(&n, &bind_req(0.01, 0), CpuMemConfig::default(), None).unwrap_err();
        assert_eq!(e.code(), "too_large");
        // Within the bound, the same node binds whole cores: one plan per core.
        let c = capacity(&n, &bind_req(1.0, 0), CpuMemConfig::default(), None).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(10_000));
    }

    fn plans(c: &CpuMemCapacity) -> Vec<Vec<(String, u64)>> {
        c.plans
            .iter()
            .map(|p| p.cpu_map.iter().map(|(k, &v)| (k.clone(), v)).collect())
            .collect()
    }

    /// The design document's CPU example: cores 2 and 3 free, one core each.
    #[test]
    fn reallocation_makes_full_plans_in_rounds() {
        // Units [1, 1, 1, 3], two cores per plan. Rounds: the four cores make 2 plans, then
        // only "4" is left. Without affinity the heap spreads "4" over 3 plans.
        let n = node(&[("1", 100), ("2", 100), ("3", 100), ("4", 300)], 0);
        let origin: CpuMap = [("1".into(), 100)].into_iter().collect();
        let req = bind_req(2.0, 0);
        let c = capacity(&n, &req, CpuMemConfig::default(), Some(&origin)).unwrap();
        assert_eq!(
            plans(&c),
            [
                vec![("1".into(), 100), ("2".into(), 100)],
                vec![("3".into(), 100), ("4".into(), 100)]
            ]
        );
        let fresh = capacity(&n, &req, CpuMemConfig::default(), None).unwrap();
        assert_eq!(fresh.capacity, Capacity::Finite(3));
        // A core with two cores' worth of pieces appears in two plans of later rounds.
        let n = node(&[("1", 200), ("2", 100)], 0);
        let c = capacity(
            &n,
            &bind_req(1.0, 0),
            CpuMemConfig::default(),
            Some(&origin),
        )
        .unwrap();
        assert_eq!(
            plans(&c),
            [
                vec![("1".into(), 100)],
                vec![("2".into(), 100)],
                vec![("1".into(), 100)]
            ]
        );
    }

    #[test]
    fn seed_cpu_example() {
        let n = node(&[("0", 0), ("1", 0), ("2", 100), ("3", 100)], 0);
        let c = capacity(&n, &bind_req(1.0, 0), CpuMemConfig::default(), None).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(2));
        assert_eq!(
            plans(&c),
            [vec![("2".into(), 100)], vec![("3".into(), 100)]]
        );
    }

    /// E3, a fixed accident (docs/rules/eru.md C3, decision 5): each NUMA node's plans are
    /// limited by its own free memory and by what the node has left, so the NUMA nodes
    /// together never take more memory than the node has (eru limits them by the NUMA
    /// node's memory only and over-commits the node).
    #[test]
    fn e3_numa_plans_are_limited_by_the_node_memory() {
        let mut n = node(&[("0", 100), ("1", 100), ("2", 100), ("3", 100)], 3);
        n.numa = [("0", "0"), ("1", "0"), ("2", "1"), ("3", "1")]
            .into_iter()
            .map(|(c, m)| (c.into(), m.into()))
            .collect();
        n.numa_memory = [("0".into(), 2), ("1".into(), 2)].into_iter().collect();
        let c = capacity(&n, &bind_req(1.0, 1), CpuMemConfig::default(), None).unwrap();
        // eru: 2 plans on NUMA node 0 and 2 on NUMA node 1, 4 bytes out of 3.
        assert_eq!(c.capacity, Capacity::Finite(3));
        let numa: Vec<String> = c.plans.iter().map(|p| p.numa_node).collect();
        assert_eq!(numa, ["0", "0", "1"]);
    }
}
