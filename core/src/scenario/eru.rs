//! An eru scenario (docs/rules/eru.md A-E): each node's capacity from the cpumem, storage and gpu
//! plugins, then the strategy and the plans of the new instances, through
//! [`crate::eru::pipeline`].
//!
//! The workload's Kubernetes-style `requests` and `limits` become eru's request: `cpu` in
//! cores (from millicores), `memory` and `storage` in bytes. The pipeline locates its errors
//! at the scenario's fields ([`Paths::SCENARIO`]).

use alloc::string::String;
use alloc::vec::Vec;

use super::outcome::{Capacities, EruOutcome, Warning};
use super::{Scenario, FORMAT_VERSION};
use crate::error::{indexed, Error, Path, Result, MAX_TARGETS};
use crate::eru::cpumem::CpuMemRequest;
use crate::eru::paths::Paths;
use crate::eru::pipeline::{self, Deploy, EruNode, EruRequest};
use crate::eru::storage::MAX_DEPLOY_COUNT;
use crate::resource::ResourceList;

/// The pipeline's input from a scenario.
fn deploy_of<'a>(s: &Scenario, nodes: &'a [EruNode]) -> Result<Deploy<'a>> {
    let w = &s.workload;
    let count = w.count.ok_or_else(|| Error::Missing {
        field: Path::fields(Paths::SCENARIO.count),
    })?;
    if count > MAX_TARGETS as i64 {
        return Err(Error::TooLarge {
            field: Path::fields(Paths::SCENARIO.count),
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
            gpus: w.gpus.clone(),
        },
        nodes: nodes.into(),
    })
}

fn only(list: &ResourceList, known: &[&str], field: &'static str) -> Result<()> {
    match list.iter().find(|(r, _)| !known.contains(r)) {
        None => Ok(()),
        Some((r, _)) => Err(Error::Input {
            field: Path::fields(field).field(String::from(r)),
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
    let (capacities, _) = pipeline::capacities_at(&d, &Paths::SCENARIO)?;
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
    let o = pipeline::deploy_at(&d, &Paths::SCENARIO)?;
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
