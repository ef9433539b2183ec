//! eru's cpumem capacity without CPU binding (docs/rules/eru.md C2): memory decides, free
//! memory over the request; a request of more cores than the node has gives 0, no memory
//! request is unlimited.

use alloc::format;
use alloc::string::String;

use super::{cores_noun, ratio, CpuMemCapacity, CpuMemNode, CpuMemRequest, CpuPlans};
use crate::eru::Capacity;
use crate::text::Decimal;

/// Without binding, memory decides (docs/rules/eru.md C2).
pub(super) fn memory_only(node: &CpuMemNode, r: &CpuMemRequest) -> CpuMemCapacity {
    let total = node.memory as f64;
    let used = node.usage.memory as f64;
    if r.cpu_request > node.cpu_map.len() as f64 {
        return CpuMemCapacity {
            capacity: Capacity::Finite(0),
            plans: CpuPlans::default(),
            usage: ratio(used, total),
            rate: ratio(r.memory_request as f64, total),
            weight: 1,
            explanation: format!(
                "cpu: {} {} requested, the node has {}",
                Decimal(r.cpu_request),
                cores_noun(r.cpu_request),
                node.cpu_map.len()
            ),
        };
    }
    if r.memory_request == 0 {
        return CpuMemCapacity {
            capacity: Capacity::Unlimited,
            plans: CpuPlans::default(),
            usage: ratio(used, total),
            rate: 0.0,
            weight: 1,
            explanation: "memory: nothing requested -> unlimited".into(),
        };
    }
    let available = node.memory.saturating_sub(node.usage.memory).max(0) as u64;
    let cap = available / r.memory_request as u64;
    CpuMemCapacity {
        capacity: Capacity::Finite(cap),
        plans: CpuPlans::default(),
        usage: ratio(used, total),
        rate: ratio(r.memory_request as f64, total),
        weight: 1,
        explanation: memory_sentence(node.memory, node.usage.memory, r.memory_request, cap),
    }
}

/// `memory: (total - used) / request = capacity`, amounts as quantities (`16Gi`), the one
/// sentence written for every node of a memory-only request: built without `format!`, which
/// costs more than the digits in wasm.
fn memory_sentence(total: i64, used: i64, request: i64, capacity: u64) -> String {
    use crate::text::{push_bytes, Digits};
    let mut s = String::with_capacity(64);
    s.push_str("memory: (");
    // Writing to a String cannot fail.
    let _ = push_bytes(&mut s, total.into());
    s.push_str(" - ");
    let _ = push_bytes(&mut s, used.into());
    s.push_str(") / ");
    let _ = push_bytes(&mut s, request.into());
    s.push_str(" = ");
    s.push_str(Digits::new(capacity).as_str());
    s
}

#[cfg(test)]
mod tests {
    use crate::eru::cpumem::tests::node;
    use crate::eru::cpumem::{capacity, CpuMemConfig, CpuMemRequest};
    use crate::eru::Capacity;

    /// The design document's memory example: 10M on a 100M node.
    #[test]
    fn seed_memory_example() {
        let n = node(&[("0", 100), ("1", 100), ("2", 100), ("3", 100)], 100 << 20);
        let r = CpuMemRequest {
            memory_request: 10 << 20,
            ..CpuMemRequest::default()
        };
        let c = capacity(&n, &r, CpuMemConfig::default(), None).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(10));
        assert_eq!(c.rate, 0.1);
    }

    /// E1: without binding and without a memory request the node is unlimited, and its usage
    /// is still its used over its total memory (it feeds GLOBAL's order, docs/rules/eru.md C2).
    #[test]
    fn e1_memory_only_usage_without_a_request() {
        let mut n = node(&[("0", 100)], 100);
        n.usage.memory = 50;
        let c = capacity(&n, &CpuMemRequest::default(), CpuMemConfig::default(), None).unwrap();
        assert_eq!(c.capacity, Capacity::Unlimited);
        assert_eq!((c.usage, c.rate), (0.5, 0.0));
    }
}
