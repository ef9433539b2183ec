//! A cpumem node's maps read and checked (docs/rules/eru.md C3 1): its CPU map and the
//! usage map read together, once, in id order (ids compare as strings, as eru's maps do),
//! each core's free pieces found as it is read; integer core ids, non-negative pieces and
//! bytes, NUMA ids of known cores. The one place a node is checked.

use alloc::format;
use alloc::string::String;
use core::cmp::Ordering;

use super::{invalid, CpuMemNode};
use crate::error::{Error, Path, Result};
use crate::eru::ResourceKind;

/// Check a node's maps: integer core ids, non-negative pieces and bytes, NUMA ids of known
/// cores. Errors are located within the node (`cpuMap.3`, `usage.memory`).
pub fn validate_node(n: &CpuMemNode) -> Result<()> {
    read_node(n, |_, _, _| {}).map(drop)
}

/// A core id as eru reads it: a non-negative integer.
fn integer_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())
}

/// Two core ids in the maps' order (as strings compare), byte by byte: ids are a few digits,
/// fewer than make a call to compare memory worth it.
fn id_order(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

/// The first entry of the CPU map, then of the usage map, with an id that is not an integer
/// or negative pieces.
fn bad_entry(n: &CpuMemNode) -> Option<Error> {
    for (name, map) in [("cpuMap", &n.cpu_map), ("usage.cpuMap", &n.usage.cpu_map)] {
        for (id, &pieces) in map {
            if !integer_id(id) {
                return Some(invalid(
                    ResourceKind::Cpu,
                    Path::fields(name),
                    format!("core id {id:?} is not a non-negative integer"),
                ));
            }
            if pieces < 0 {
                return Some(invalid(
                    ResourceKind::Cpu,
                    Path::fields(name).field(id.clone()),
                    format!("pieces must not be negative, got {pieces}"),
                ));
            }
        }
    }
    None
}

/// Read a node's CPU map and its usage together, once, checking them as they are read (the
/// one place a node is checked, [`validate_node`]): `core` gets every core of the CPU map in
/// id order with its pieces and the pieces in use on it; then the memory and NUMA maps are
/// checked. Returns Σ pieces in use (saturating). Errors are located within the node, the
/// first offending entry of the CPU map, then of the usage map, looked for only when there is
/// one; `core` has then been given cores of a node that is refused.
pub(super) fn read_node(n: &CpuMemNode, mut core: impl FnMut(&String, i64, i64)) -> Result<i64> {
    let mut bad = false;
    let mut in_use = 0i64;
    let mut used = n.usage.cpu_map.iter().peekable();
    let mut read_used = |id: &String, v: i64, bad: &mut bool| {
        *bad |= !integer_id(id) | (v < 0);
        in_use = in_use.saturating_add(v);
        v
    };
    for (id, &pieces) in &n.cpu_map {
        bad |= !integer_id(id) | (pieces < 0);
        // The usage entries up to this core (one comparison each), its own if any.
        let mut on_core = 0;
        while let Some(&(u, &v)) = used.peek() {
            let order = id_order(u, id);
            if order == Ordering::Greater {
                break;
            }
            used.next();
            let v = read_used(u, v, &mut bad);
            if order == Ordering::Equal {
                on_core = v;
                break;
            }
        }
        core(id, pieces, on_core);
    }
    for (u, &v) in used {
        read_used(u, v, &mut bad);
    }
    if let Some(e) = bad.then(|| bad_entry(n)).flatten() {
        return Err(e);
    }
    let negative = |field: Path| {
        invalid(
            ResourceKind::Memory,
            field,
            "memory must not be negative".into(),
        )
    };
    if n.memory < 0 {
        return Err(negative(Path::fields("memory")));
    }
    if n.usage.memory < 0 {
        return Err(negative(Path::fields("usage.memory")));
    }
    if let Some((id, _)) = n.numa_memory.iter().find(|(_, &m)| m < 0) {
        return Err(negative(Path::fields("numaMemory").field(id.clone())));
    }
    if let Some(core) = n.numa.keys().find(|c| !n.cpu_map.contains_key(*c)) {
        return Err(invalid(
            ResourceKind::Cpu,
            Path::fields("numa").field(core.clone()),
            format!("core {core} is not in the CPU map"),
        ));
    }
    Ok(in_use)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eru::cpumem::{CpuMap, CpuMemUsage};
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::strategy::{Just, Strategy as _};

    /// A core as [`read_node`] gives it: id, pieces, pieces in use.
    type CoreRead = (String, i64, i64);

    /// A node's maps checked entry by entry, and each core's pieces in use found by looking
    /// it up: what [`read_node`] must equal (cores with pieces and use, Σ use, or the error).
    fn read_by_lookup(n: &CpuMemNode) -> Result<(Vec<CoreRead>, i64)> {
        if let Some(e) = bad_entry(n) {
            return Err(e);
        }
        // (The nodes tested have no memory or NUMA maps to check.)
        let cores = n
            .cpu_map
            .iter()
            .map(|(id, &p)| (id.clone(), p, n.usage.cpu_map.get(id).copied().unwrap_or(0)))
            .collect();
        let in_use = n
            .usage
            .cpu_map
            .values()
            .fold(0i64, |a, &v| a.saturating_add(v));
        Ok((cores, in_use))
    }

    fn ids_and_pieces() -> impl proptest::strategy::Strategy<Value = CpuMap> {
        proptest::collection::btree_map(
            proptest::prop_oneof![
                12 => proptest::sample::select(vec!["0", "1", "2", "10", "11", "3", "01"]),
                1 => proptest::sample::select(vec!["x", "", "1a"]),
            ]
            .prop_map(String::from),
            proptest::prop_oneof![12 => 0i64..300, 1 => -2i64..0, 1 => Just(i64::MAX)],
            0..8,
        )
    }

    proptest::proptest! {
        /// Reading the CPU map and the usage map together finds what checking each and looking
        /// up each core's use finds: the same first error, cores and Σ use.
        #[test]
        fn reading_the_maps_together_is_looking_each_core_up(
            cpu in ids_and_pieces(),
            used in ids_and_pieces(),
        ) {
            let n = CpuMemNode {
                cpu_map: cpu,
                usage: CpuMemUsage { cpu_map: used, ..CpuMemUsage::default() },
                ..CpuMemNode::default()
            };
            let mut cores = Vec::new();
            let got = read_node(&n, |id, p, u| cores.push((id.clone(), p, u)))
                .map(|in_use| (cores, in_use));
            proptest::prop_assert_eq!(got, read_by_lookup(&n));
        }
    }
}
