//! eru's cpumem request (docs/rules/eru.md C1): an instance's CPU and memory request
//! normalised as eru's plugin does (limits and requests fill each other in, binding takes the
//! CPU limit) and checked against the plugin's share base, so that a node's errors can only be
//! about the node.

use alloc::format;

use super::{invalid, CpuMemConfig, CpuMemRequest};
use crate::error::{Error, Path, Result};
use crate::eru::paths::Paths;
use crate::eru::ResourceKind;
use crate::text::Decimal;

/// A request normalised (docs/rules/eru.md C1) and checked against the plugin configuration:
/// what [`node_capacity`](super::node_capacity) takes, so that a node's errors can only be
/// about the node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checked {
    pub(super) request: CpuMemRequest,
    pub(super) config: CpuMemConfig,
}

impl Checked {
    /// The normalised request.
    pub fn request(&self) -> &CpuMemRequest {
        &self.request
    }
}

/// Normalise `request` (docs/rules/eru.md C1) and check it and `config`; errors are at the
/// caller's `paths`.
pub fn check(request: &CpuMemRequest, config: CpuMemConfig, paths: &Paths) -> Result<Checked> {
    let r = normalize(request, paths)?;
    if config.share_base <= 0 {
        return Err(invalid(
            ResourceKind::Cpu,
            Path::fields(paths.share_base),
            "the share base must be positive".into(),
        ));
    }
    if r.cpu_bind {
        let base = config.share_base as u64;
        // trunc(cpu × B) in floating point, as eru (0.29 × 100 -> 28).
        let p = r.cpu_request * config.share_base as f64;
        if p > 1e15 {
            return Err(Error::TooLarge {
                field: Path::fields(paths.cpu_request),
                limit: 1_000_000_000_000_000 / base,
            });
        }
        if (p as u64) == 0 {
            // eru loops forever here; allot refuses (docs/rules/README.md decision 5).
            return Err(invalid(
                ResourceKind::Cpu,
                Path::fields(paths.cpu_request),
                format!(
                    "{} cores is less than one piece of a core (share base {base})",
                    Decimal(r.cpu_request)
                ),
            ));
        }
    }
    Ok(Checked { request: r, config })
}

/// eru's request normalisation (docs/rules/eru.md C1).
fn normalize(r: &CpuMemRequest, paths: &Paths) -> Result<CpuMemRequest> {
    let mut r = *r;
    for (value, field) in [
        (r.cpu_request, paths.cpu_request),
        (r.cpu_limit, paths.cpu_limit),
    ] {
        if !value.is_finite() {
            return Err(invalid(
                ResourceKind::Cpu,
                Path::fields(field),
                "the CPU amount must be a number".into(),
            ));
        }
    }
    if r.cpu_request == 0.0 && r.cpu_limit > 0.0 {
        r.cpu_request = r.cpu_limit;
    }
    for (value, field) in [
        (r.memory_request, paths.memory_request),
        (r.memory_limit, paths.memory_limit),
    ] {
        if value < 0 {
            return Err(invalid(
                ResourceKind::Memory,
                Path::fields(field),
                format!("memory must not be negative, got {value}"),
            ));
        }
    }
    for (value, field) in [
        (r.cpu_request, paths.cpu_request),
        (r.cpu_limit, paths.cpu_limit),
    ] {
        if value < 0.0 {
            return Err(invalid(
                ResourceKind::Cpu,
                Path::fields(field),
                format!("CPU must not be negative, got {}", Decimal(value)),
            ));
        }
    }
    if r.cpu_bind && r.cpu_request == 0.0 {
        return Err(invalid(
            ResourceKind::Cpu,
            Path::fields(paths.cpu_request),
            "binding CPU needs a CPU request above 0".into(),
        ));
    }
    if r.memory_request == 0 {
        r.memory_request = r.memory_limit;
    }
    r.memory_limit = r.memory_limit.max(r.memory_request);
    r.cpu_limit = r.cpu_limit.max(r.cpu_request);
    if r.cpu_bind && r.cpu_limit > r.cpu_request {
        r.cpu_request = r.cpu_limit;
    }
    Ok(r)
}
