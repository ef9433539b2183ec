//! An eru scenario (docs/rules/eru.md A-D): each node's capacity from the cpumem and storage plugins,
//! then the strategy and the plans of the new instances, through [`crate::eru::pipeline`].
//!
//! The workload's Kubernetes-style `requests` and `limits` become eru's request: `cpu` in
//! cores (from millicores), `memory` and `storage` in bytes.

use alloc::string::String;
use alloc::vec::Vec;

use super::outcome::{Capacities, EruOutcome, Warning};
use super::{Scenario, FORMAT_VERSION};
use crate::error::{indexed, Error, Result, MAX_TARGETS};
use crate::eru::cpumem::CpuMemRequest;
use crate::eru::pipeline::{self, Deploy, EruNode, EruRequest};
use crate::eru::storage::MAX_DEPLOY_COUNT;
use crate::resource::ResourceList;

/// Where the pipeline's own field names live in a scenario.
const PATHS: &[(&str, &str)] = &[
    ("strategy", "policy.strategy"),
    ("count", "workload.count"),
    ("nodesLimit", "policy.nodesLimit"),
    ("shareBase", "policy.cpumem.shareBase"),
    ("maxShare", "policy.cpumem.maxShare"),
    ("maxDeployCount", "policy.maxDeployCount"),
    ("request.cpuRequest", "workload.requests.cpu"),
    ("request.cpuLimit", "workload.limits.cpu"),
    ("request.memoryRequest", "workload.requests.memory"),
    ("request.memoryLimit", "workload.limits.memory"),
    ("request.storage", "workload.requests.storage"),
    ("request.volumes", "workload.volumes"),
];

/// A pipeline error's path in the scenario. Per-node errors about the request are the
/// request's; `nodes[i].node.memory` is `nodes[i].memory`.
fn path(field: &str) -> String {
    let close = field.find(']').filter(|_| field.starts_with("nodes["));
    if let Some((close, tail)) = close.and_then(|c| Some((c, field[c + 1..].strip_prefix('.')?))) {
        let head = &field[..=close];
        if let Some(rest) = tail.strip_prefix("node.") {
            return alloc::format!("{head}.{rest}");
        }
        if tail.starts_with("request.") {
            return rewrite(tail, PATHS);
        }
    }
    rewrite(field, PATHS)
}

/// The pipeline's input from a scenario.
fn deploy_of<'a>(s: &Scenario, nodes: &'a [EruNode]) -> Result<Deploy<'a>> {
    let w = &s.workload;
    let count = w.count.ok_or_else(|| Error::Missing {
        field: "workload.count".into(),
    })?;
    if count > MAX_TARGETS as i64 {
        return Err(Error::TooLarge {
            field: "workload.count".into(),
            limit: MAX_TARGETS as u64,
        });
    }
    let no_request = ResourceList::new();
    let requests = w.requests.as_ref().unwrap_or(&no_request);
    only(requests, &["cpu", "memory", "storage"], "workload.requests")?;
    only(&w.limits, &["cpu", "memory"], "workload.limits")?;
    let bytes = |l: &ResourceList, r: &str| i64::try_from(l.get(r)).unwrap_or(i64::MAX);
    Ok(Deploy {
        strategy: s.policy.strategy.clone().unwrap_or_else(|| "AUTO".into()),
        count,
        nodes_limit: s.policy.nodes_limit,
        config: s.policy.cpumem,
        max_deploy_count: s.policy.max_deploy_count.unwrap_or(MAX_DEPLOY_COUNT),
        request: EruRequest {
            cpumem: CpuMemRequest {
                cpu_bind: w.cpu_bind,
                cpu_request: requests.get("cpu") as f64 / 1000.0,
                cpu_limit: w.limits.get("cpu") as f64 / 1000.0,
                memory_request: bytes(requests, "memory"),
                memory_limit: bytes(&w.limits, "memory"),
            },
            storage: bytes(requests, "storage"),
            volumes: w.volumes.clone(),
        },
        nodes: nodes.into(),
    })
}

fn only(list: &ResourceList, known: &[&str], field: &str) -> Result<()> {
    match list.iter().find(|(r, _)| !known.contains(r)) {
        None => Ok(()),
        Some((r, _)) => Err(Error::Input {
            field: alloc::format!("{field}.{r}"),
            code: crate::error::ErrorCode::InvalidInput,
            reason: alloc::format!("eru reads {} here", known.join(", ")),
        }),
    }
}

/// Warn about nodes that take nothing.
fn warnings(caps: &[pipeline::NodeCapacity]) -> Vec<Warning> {
    caps.iter()
        .enumerate()
        .filter(|(_, c)| c.capacity.is_zero())
        .map(|(i, c)| Warning {
            code: "no_capacity",
            path: indexed("nodes", i),
            message: alloc::format!(
                "{} can take no new instance: {}",
                c.name,
                c.explanation.join("; ")
            ),
        })
        .collect()
}

/// Capacities alone.
pub fn capacity(s: &Scenario, nodes: &[EruNode]) -> Result<Capacities> {
    let d = deploy_of(s, nodes)?;
    let (capacities, _) = pipeline::capacities(&d).map_err(|e| e.map_field(path))?;
    let total = crate::eru::Capacity::sum(capacities.iter().map(|c| c.capacity));
    Ok(Capacities {
        version: FORMAT_VERSION,
        warnings: warnings(&capacities),
        capacities,
        total,
    })
}

/// The whole deploy.
pub fn deploy(s: &Scenario, nodes: &[EruNode], drawn_seed: u64) -> Result<EruOutcome> {
    let d = deploy_of(s, nodes)?;
    let o = pipeline::deploy(&d).map_err(|e| e.map_field(path))?;
    Ok(EruOutcome {
        version: FORMAT_VERSION,
        warnings: warnings(&o.capacities),
        deploy: o.deploy,
        plans: o.plans,
        capacities: o.capacities,
        total: o.total,
        deployment: o.deployment,
        seed: s.seed.unwrap_or(drawn_seed),
        seed_drawn: s.seed.is_none(),
    })
}

/// Map a path from a component's own field names to the scenario's: the first `(from, to)` whose
/// `from` is the path or a prefix of it ending at `.` or `[` is replaced by `to`.
fn rewrite(field: &str, table: &[(&str, &str)]) -> String {
    for (from, to) in table {
        if let Some(rest) = field.strip_prefix(from) {
            if rest.is_empty() || rest.starts_with('.') || rest.starts_with('[') {
                return alloc::format!("{to}{rest}");
            }
        }
    }
    field.into()
}

#[cfg(test)]
mod tests {
    use super::path;

    #[test]
    fn pipeline_paths_become_scenario_paths() {
        assert_eq!(path("nodes[3].node.memory"), "nodes[3].memory");
        assert_eq!(path("nodes[0].request.cpuRequest"), "workload.requests.cpu");
        assert_eq!(path("request.volumes[2]"), "workload.volumes[2]");
        assert_eq!(path("count"), "workload.count");
        assert_eq!(path("nodes[1].name"), "nodes[1].name");
        assert_eq!(path("countless"), "countless");
    }
}
