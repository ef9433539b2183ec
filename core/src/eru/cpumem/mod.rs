//! eru's cpumem plugin (docs/rules/eru.md C): a node's capacity for an instance's CPU and
//! memory request, its plans, usage and rate. The request is normalised (`request`, §C1);
//! without CPU binding memory decides (`memory_only`, §C2); with it the node's cores are
//! bound into plans (`binding` per NUMA node and across them, `shape` over a set of cores,
//! §C3), held compactly (`plans`). A node's maps are read and checked once (`node`).
//!
//! A *plan* is one instance's binding, e.g. `{2: 100}` (all of core 2) or `{0: 70, 2: 100}`
//! (1.7 cores). Deploying `n` instances on a node takes its first `n` plans. Core ids compare
//! as strings ("10" < "2"), as eru does. A node's CPU map and its usage are read once, together,
//! and checked as they are read.

mod binding;
mod memory_only;
mod node;
mod plans;
mod request;
mod shape;

use alloc::collections::BTreeMap;
use alloc::string::String;

use serde::{Deserialize, Serialize};

use binding::bind;
use memory_only::memory_only;

use super::paths::Paths;
use super::{Capacity, ResourceKind};
use crate::error::{Error, Path, Result};

pub use binding::MAX_BIND_ASSIGNMENTS;
pub use node::validate_node;
pub use plans::{CpuPlan, CpuPlans};
pub use request::{check, Checked};

/// Core id -> pieces (share base pieces make one core).
pub type CpuMap = BTreeMap<String, i64>;

/// Plugin configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct CpuMemConfig {
    /// Pieces per core (default 100).
    pub share_base: i64,
    /// At most this many fragment cores per plan; -1: no limit.
    pub max_share: i64,
}

impl Default for CpuMemConfig {
    fn default() -> Self {
        CpuMemConfig {
            share_base: 100,
            max_share: -1,
        }
    }
}

/// What is in use on a node.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct CpuMemUsage {
    pub cpu_map: CpuMap,
    #[serde(deserialize_with = "crate::resource::bytes::signed")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::Quantity"))]
    pub memory: i64,
    #[serde(deserialize_with = "crate::resource::bytes::signed_map")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::QuantityMap"))]
    pub numa_memory: BTreeMap<String, i64>,
}

/// A node's CPU and memory.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CpuMemNode {
    #[serde(default)]
    pub cpu_map: CpuMap,
    /// Bytes.
    #[serde(default)]
    pub memory: i64,
    /// Core id -> NUMA node id.
    #[serde(default)]
    pub numa: BTreeMap<String, String>,
    /// NUMA node id -> bytes.
    #[serde(default)]
    pub numa_memory: BTreeMap<String, i64>,
    #[serde(default)]
    pub usage: CpuMemUsage,
}

/// An instance's CPU and memory request.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CpuMemRequest {
    #[serde(default)]
    pub cpu_bind: bool,
    /// Cores.
    #[serde(default)]
    pub cpu_request: f64,
    #[serde(default)]
    pub cpu_limit: f64,
    /// Bytes.
    #[serde(default)]
    pub memory_request: i64,
    #[serde(default)]
    pub memory_limit: i64,
}

/// The plugin's answer for one node.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CpuMemCapacity {
    pub capacity: Capacity,
    /// CPU binding plans (empty without binding).
    #[cfg_attr(feature = "schema", schemars(with = "alloc::vec::Vec<CpuPlan>"))]
    pub plans: CpuPlans,
    pub usage: f64,
    pub rate: f64,
    /// Weight in the usage mean: 100 with binding, else 1.
    pub weight: u32,
    /// What bound the capacity, in a sentence.
    pub explanation: String,
}

fn invalid(kind: ResourceKind, field: Path, reason: String) -> Error {
    Error::InvalidResource {
        field,
        code: kind.code(),
        reason,
    }
}

/// Capacity, plans, usage and rate of `node` for `request` (normalised and checked here):
/// [`check`] with the components' own field names, then [`node_capacity`] with the node's
/// errors within `node`. `origin` is the workload's current binding when it is reallocated
/// (its cores come first).
pub fn capacity(
    node: &CpuMemNode,
    request: &CpuMemRequest,
    config: CpuMemConfig,
    origin: Option<&CpuMap>,
) -> Result<CpuMemCapacity> {
    let checked = check(request, config, &Paths::DEPLOY)?;
    node_capacity(node, &checked, origin).map_err(|e| e.within(&Path::fields("node")))
}

/// Capacity, plans, usage and rate of `node` for a checked request; errors are about the
/// node and located within it.
pub fn node_capacity(
    node: &CpuMemNode,
    checked: &Checked,
    origin: Option<&CpuMap>,
) -> Result<CpuMemCapacity> {
    let r = &checked.request;
    if r.cpu_bind {
        bind(node, r, checked.config, origin)
    } else {
        validate_node(node)?;
        Ok(memory_only(node, r))
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 {
        0.0
    } else {
        a / b
    }
}

/// `core` or `cores` for a (possibly fractional) count of cores.
fn cores_noun(n: f64) -> &'static str {
    if n == 1.0 {
        "core"
    } else {
        "cores"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn node(cores: &[(&str, i64)], memory: i64) -> CpuMemNode {
        CpuMemNode {
            cpu_map: cores.iter().map(|&(k, v)| (k.into(), v)).collect(),
            memory,
            ..CpuMemNode::default()
        }
    }

    pub(super) fn bind_req(cpu: f64, mem: i64) -> CpuMemRequest {
        CpuMemRequest {
            cpu_bind: true,
            cpu_request: cpu,
            memory_request: mem,
            ..CpuMemRequest::default()
        }
    }

    /// R4, a fixed accident: used memory above the total leaves no free memory (eru's binding
    /// panics on it), so the node takes nothing.
    #[test]
    fn r4_used_memory_above_total_is_no_free_memory() {
        let mut n = node(&[("0", 100), ("1", 100)], 100);
        n.usage.memory = 150;
        let c = capacity(&n, &bind_req(1.0, 10), CpuMemConfig::default(), None).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(0));
        let r = CpuMemRequest {
            memory_request: 10,
            ..CpuMemRequest::default()
        };
        let c = capacity(&n, &r, CpuMemConfig::default(), None).unwrap();
        assert_eq!(c.capacity, Capacity::Finite(0));
    }

    #[test]
    fn bad_input() {
        let n = node(&[("x", 100)], 0);
        let e = capacity(&n, &bind_req(1.0, 0), CpuMemConfig::default(), None).unwrap_err();
        assert_eq!(e.code(), "invalid_cpu");
        let n = node(&[("0", -5)], 0);
        let e = capacity(&n, &bind_req(1.0, 0), CpuMemConfig::default(), None).unwrap_err();
        assert_eq!(
            (e.code().as_str(), e.field().text().as_str()),
            ("invalid_cpu", "node.cpuMap.0")
        );
        let n = node(&[("0", 100)], 0);
        for r in [bind_req(0.0, 0), bind_req(0.001, 0), bind_req(f64::NAN, 0)] {
            let e = capacity(&n, &r, CpuMemConfig::default(), None).unwrap_err();
            assert_eq!(e.code(), "invalid_cpu", "{r:?}");
        }
        let e = capacity(&n, &bind_req(1.0, -1), CpuMemConfig::default(), None).unwrap_err();
        assert_eq!(e.code(), "invalid_memory");
    }
}
