//! eru's storage quota with volume requests (docs/rules/eru.md D8): instances a node's storage
//! holds, bound also by its volume plans when volumes are requested.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::paths::Paths;
use super::volume::{self, VolumeNode, VolumePlan};
use super::{Capacity, ResourceKind};
use crate::error::{Error, Path, Result};

/// eru's default `max-deploy-count`.
pub const MAX_DEPLOY_COUNT: u64 = 10_000;

/// A node's storage and volumes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StorageNode {
    /// Bytes of storage (volumes included).
    #[serde(default)]
    pub storage: i64,
    #[serde(default)]
    pub usage_storage: i64,
    #[serde(default)]
    pub volumes: VolumeNode,
}

/// An instance's storage and volume request.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StorageRequest {
    #[serde(default)]
    pub storage: i64,
    /// Binding strings `src:dst[:flags[:size[:riops:wiops:rbps:wbps]]]`.
    #[serde(default)]
    pub volumes: Vec<String>,
}

/// The storage plugin's answer for a node.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StorageCapacity {
    pub capacity: Capacity,
    pub plans: Vec<VolumePlan>,
    pub usage: f64,
    pub rate: f64,
    pub explanation: String,
}

/// A deploy's storage request, checked once for every node: bytes per instance (storage plus
/// every volume's size) and the volume bindings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    need: u64,
    volumes: volume::Checked,
}

impl Checked {
    /// Check `request` and `max_deploy`; errors are at the caller's `paths`.
    pub fn new(request: &StorageRequest, max_deploy: u64, paths: &Paths) -> Result<Checked> {
        if request.storage < 0 {
            return Err(Error::InvalidResource {
                field: Path::fields(paths.storage),
                code: ResourceKind::Storage.code(),
                reason: format!("storage must not be negative, got {}", request.storage),
            });
        }
        let volumes = volume::Checked::new(&request.volumes, max_deploy, paths)?;
        let need = volumes
            .bindings()
            .iter()
            .fold(request.storage as u64, |n, b| n.saturating_add(b.size));
        Ok(Checked { need, volumes })
    }
}

/// Capacity of `node` for `request`; `max_deploy` bounds what nothing else bounds:
/// [`Checked::new`] with the components' own field names, then [`node_capacity`] with the
/// node's errors within `node`.
pub fn capacity(
    node: &StorageNode,
    request: &StorageRequest,
    max_deploy: u64,
) -> Result<StorageCapacity> {
    let checked = Checked::new(request, max_deploy, &Paths::DEPLOY)?;
    node_capacity(node, &checked).map_err(|e| e.within(&Path::fields("node")))
}

/// Capacity of `node` for a checked request; errors are about the node, located within it.
pub fn node_capacity(node: &StorageNode, checked: &Checked) -> Result<StorageCapacity> {
    for (value, field) in [
        (node.storage, "storage"),
        (node.usage_storage, "usageStorage"),
    ] {
        if value < 0 {
            return Err(Error::InvalidResource {
                field: Path::fields(field),
                code: ResourceKind::Storage.code(),
                reason: "storage must not be negative".into(),
            });
        }
    }
    let need = checked.need;
    let vol = volume::node_plans(&node.volumes, &checked.volumes);
    let total = node.storage as f64;
    let usage = if total == 0.0 {
        0.0
    } else {
        node.usage_storage as f64 / total
    };
    if need == 0 {
        return Ok(StorageCapacity {
            capacity: Capacity::Finite(vol.capacity),
            plans: vol.plans,
            usage,
            rate: 0.0,
            explanation: format!("storage: nothing requested -> {}", vol.capacity),
        });
    }
    let free = node.storage.saturating_sub(node.usage_storage).max(0) as u64;
    let by_storage = free / need;
    let rate = if total == 0.0 {
        0.0
    } else {
        need as f64 / total
    };
    let (cap, explanation) = if checked.volumes.bindings().is_empty() {
        (
            by_storage,
            format!(
                "storage: ({} - {}) / {} = {by_storage}",
                bytes(node.storage),
                bytes(node.usage_storage),
                bytes(need as i64)
            ),
        )
    } else {
        let c = by_storage.min(vol.capacity);
        (
            c,
            format!(
                "storage: ({} - {}) / {} = {by_storage}; volumes: {} plans -> {c}",
                bytes(node.storage),
                bytes(node.usage_storage),
                bytes(need as i64),
                vol.capacity
            ),
        )
    };
    let mut plans = vol.plans;
    plans.truncate(cap as usize);
    Ok(StorageCapacity {
        capacity: Capacity::Finite(cap),
        plans,
        usage,
        rate,
        explanation,
    })
}

/// A byte amount as a quantity (`10Gi`).
fn bytes(v: i64) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = crate::text::push_bytes(&mut s, v.into());
    s
}
