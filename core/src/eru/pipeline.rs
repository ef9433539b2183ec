//! The whole of eru's scheduling for one request (docs/rules/eru.md B): each node's capacity from
//! every resource plugin that takes part (cpumem always; storage when storage or volumes are
//! requested; gpu when cards are requested or any node has cards), the minimum across them,
//! the strategy, and the plans each new instance takes.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::cpumem::{
    self, CpuMap, CpuMemConfig, CpuMemNode, CpuMemRequest, CpuMemUsage, CpuPlan, CpuPlans,
};
use super::gpu::{self, Cards, GpuNode};
use super::merge::{merge, PluginFigure};
use super::paths::Paths;
use super::storage::{self, StorageNode, StorageRequest, MAX_DEPLOY_COUNT};
use super::strategy::{self, Ask, Deployment, Strategy, StrategyNode};
use super::volume::{Disk, Io, VolumeNode, VolumePlan};
use super::Capacity;
use crate::division::check_unique_names;
use crate::error::{indexed, Error, Path, Result, MAX_TARGETS};

/// At most this many instance plans (CPU and volume bindings) over all nodes of one call;
/// beyond, [`Error::TooLarge`] at `nodes` (each node's CPU binding is bounded on its own by
/// [`cpumem::MAX_BIND_ASSIGNMENTS`]).
pub const MAX_PLANS: u64 = 1 << 22;

/// A node with everything eru's plugins look at.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EruNode {
    pub name: String,
    #[serde(default)]
    pub cpu_map: CpuMap,
    /// Bytes (an integer or a quantity string, as every byte amount here).
    #[serde(default, deserialize_with = "crate::resource::bytes::signed")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::Quantity"))]
    pub memory: i64,
    #[serde(default)]
    pub numa: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "crate::resource::bytes::signed_map")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::QuantityMap"))]
    pub numa_memory: BTreeMap<String, i64>,
    #[serde(default)]
    pub usage: CpuMemUsage,
    #[serde(default, deserialize_with = "crate::resource::bytes::signed")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::Quantity"))]
    pub storage: i64,
    #[serde(default, deserialize_with = "crate::resource::bytes::signed")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::Quantity"))]
    pub usage_storage: i64,
    #[serde(default, deserialize_with = "crate::resource::bytes::unsigned_map")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::QuantityMap"))]
    pub volumes: BTreeMap<String, u64>,
    #[serde(default, deserialize_with = "crate::resource::bytes::unsigned_map")]
    #[cfg_attr(feature = "schema", schemars(with = "crate::schema::QuantityMap"))]
    pub usage_volumes: BTreeMap<String, u64>,
    #[serde(default)]
    pub disks: Vec<Disk>,
    #[serde(default)]
    pub usage_disks: BTreeMap<String, Io>,
    /// GPU cards by product (`nvidia-3090` -> 4).
    #[serde(default)]
    pub gpus: Cards,
    /// GPU cards the node's workloads hold, by product.
    #[serde(default)]
    pub usage_gpus: Cards,
    /// Instances of the app already on the node.
    #[serde(default)]
    pub count: u64,
    /// The app's current CPU binding on this node, when reallocating.
    #[serde(default)]
    pub origin_cpu_map: Option<CpuMap>,
}

/// What each new instance asks for.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EruRequest {
    #[serde(default, flatten)]
    pub cpumem: CpuMemRequest,
    #[serde(default)]
    pub storage: i64,
    #[serde(default)]
    pub volumes: Vec<String>,
    /// GPU cards by product, per instance.
    #[serde(default)]
    pub gpus: Cards,
}

/// A deploy: strategy, how many, where. The nodes may be borrowed, so a caller holding them
/// (a scenario) does not copy every node per call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Deploy<'a> {
    pub strategy: String,
    pub count: i64,
    #[serde(default)]
    pub nodes_limit: i64,
    #[serde(default)]
    pub config: CpuMemConfig,
    #[serde(default = "max_deploy")]
    pub max_deploy_count: u64,
    pub request: EruRequest,
    pub nodes: Cow<'a, [EruNode]>,
}

fn max_deploy() -> u64 {
    MAX_DEPLOY_COUNT
}

/// One node's capacity and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeCapacity {
    pub name: String,
    pub capacity: Capacity,
    pub usage: f64,
    pub rate: f64,
    /// The resource that bound the capacity (`cpumem`, `storage` or `gpu`), if any did.
    pub bound_by: Option<&'static str>,
    /// One sentence per plugin.
    pub explanation: Vec<String>,
}

/// One new instance's bindings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct InstancePlan {
    pub node: String,
    pub cpu: Option<CpuPlan>,
    pub volumes: VolumePlan,
}

/// The pipeline's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeployOutcome {
    pub capacities: Vec<NodeCapacity>,
    pub total: Capacity,
    pub deployment: Deployment,
    /// Deploy map by node name (FILL's explicit zeros included).
    pub deploy: BTreeMap<String, u64>,
    /// The bindings of each new instance that binds CPUs or volumes, node by node.
    pub plans: Vec<InstancePlan>,
}

/// A node's CPU plans and volume plans, in the order instances take them.
pub type NodePlans = (CpuPlans, Vec<VolumePlan>);

/// Capacities of every node for the request, and each node's plans; errors name the deploy's
/// own fields ([`capacities_at`] names the caller's).
pub fn capacities(d: &Deploy<'_>) -> Result<(Vec<NodeCapacity>, Vec<NodePlans>)> {
    capacities_at(d, &Paths::DEPLOY)
}

/// [`capacities`] with errors about deploy-wide inputs at the caller's `paths`. The request is
/// checked once, before any node, so that a node's error is only ever about that node.
pub fn capacities_at(d: &Deploy<'_>, paths: &Paths) -> Result<(Vec<NodeCapacity>, Vec<NodePlans>)> {
    if d.nodes.len() > MAX_TARGETS {
        return Err(Error::TooLarge {
            field: "nodes".into(),
            limit: MAX_TARGETS as u64,
        });
    }
    check_unique_names(d.nodes.iter().map(|n| n.name.as_str()), "nodes")?;
    let cpumem_request = cpumem::check(&d.request.cpumem, d.config, paths)?;
    let with_storage = d.request.storage != 0 || !d.request.volumes.is_empty();
    let storage_request = if with_storage {
        let req = StorageRequest {
            storage: d.request.storage,
            volumes: d.request.volumes.clone(),
        };
        Some(storage::Checked::new(&req, d.max_deploy_count, paths)?)
    } else {
        None
    };
    let gpu_request = gpu::Checked::new(&d.request.gpus, paths)?;
    let with_gpu = gpu_request.asks() || d.nodes.iter().any(|n| !n.gpus.is_empty());
    let mut out = Vec::with_capacity(d.nodes.len());
    let mut made: u64 = 0;
    let mut plans = Vec::with_capacity(d.nodes.len());
    for (i, n) in d.nodes.iter().enumerate() {
        // The node's path, written only for an error.
        let at = |e: Error| e.within(&indexed("nodes", i));
        let cm = CpuMemNode {
            cpu_map: n.cpu_map.clone(),
            memory: n.memory,
            numa: n.numa.clone(),
            numa_memory: n.numa_memory.clone(),
            usage: n.usage.clone(),
        };
        let c =
            cpumem::node_capacity(&cm, &cpumem_request, n.origin_cpu_map.as_ref()).map_err(at)?;
        // The cpumem plugin's figure, then the storage and gpu plugins' when they run.
        let mut figures = [
            Some(PluginFigure::new(
                c.capacity,
                c.usage,
                c.rate,
                f64::from(c.weight),
            )),
            None,
            None,
        ];
        let mut explanation = alloc::vec![c.explanation];
        let mut volume_plans = Vec::new();
        if let Some(req) = &storage_request {
            let sn = StorageNode {
                storage: n.storage,
                usage_storage: n.usage_storage,
                volumes: VolumeNode {
                    volumes: n.volumes.clone(),
                    usage_volumes: n.usage_volumes.clone(),
                    disks: n.disks.clone(),
                    usage_disks: n.usage_disks.clone(),
                },
            };
            let s = storage::node_capacity(&sn, req).map_err(at)?;
            figures[1] = Some(PluginFigure::new(s.capacity, s.usage, s.rate, 1.0));
            explanation.push(s.explanation);
            volume_plans = s.plans;
        }
        if with_gpu {
            let g = GpuNode {
                cards: n.gpus.clone(),
                usage: n.usage_gpus.clone(),
            };
            let g = gpu::node_capacity(&g, &gpu_request).map_err(at)?;
            figures[2] = Some(PluginFigure::new(g.capacity, g.usage, g.rate, 1.0));
            explanation.push(g.explanation);
        }
        let taking_part = [true, with_storage, with_gpu];
        let merged = merge(
            &figures
                .iter()
                .zip(taking_part)
                .filter(|(_, part)| *part)
                .map(|(f, _)| *f)
                .collect::<Vec<_>>(),
        );
        // The first plugin (cpumem, storage, gpu) with the smallest capacity.
        let bound_by = ["cpumem", "storage", "gpu"]
            .into_iter()
            .zip(figures)
            .zip(taking_part)
            .filter(|(_, part)| *part)
            .filter_map(|((name, f), _)| f.map(|f| (f.capacity, name)))
            .min_by_key(|&(capacity, _)| capacity)
            .map(|(_, name)| name);
        out.push(NodeCapacity {
            name: n.name.clone(),
            capacity: merged.map_or(Capacity::Finite(0), |m| m.capacity),
            usage: merged.map_or(0.0, |m| m.usage),
            rate: merged.map_or(0.0, |m| m.rate),
            bound_by,
            explanation,
        });
        made = made.saturating_add(c.plans.len() as u64 + volume_plans.len() as u64);
        if made > MAX_PLANS {
            return Err(Error::TooLarge {
                field: "nodes".into(),
                limit: MAX_PLANS,
            });
        }
        plans.push((c.plans, volume_plans));
    }
    Ok((out, plans))
}

/// Capacities, then the strategy over the nodes with capacity, then each new instance's plans;
/// errors name the deploy's own fields ([`deploy_at`] names the caller's).
pub fn deploy(d: &Deploy<'_>) -> Result<DeployOutcome> {
    deploy_at(d, &Paths::DEPLOY)
}

/// [`deploy`] with errors about deploy-wide inputs at the caller's `paths`.
pub fn deploy_at(d: &Deploy<'_>, paths: &Paths) -> Result<DeployOutcome> {
    let strategy = Strategy::parse(&d.strategy, paths.strategy)?;
    if d.count <= 0 {
        return Err(Error::InvalidCount {
            field: Path::fields(paths.count),
            value: d.count,
        });
    }
    let (caps, plans) = capacities_at(d, paths)?;
    let live: Vec<usize> = (0..caps.len())
        .filter(|&i| !caps[i].capacity.is_zero())
        .collect();
    let nodes: Vec<StrategyNode> = live
        .iter()
        .map(|&i| StrategyNode {
            name: caps[i].name.clone(),
            capacity: caps[i].capacity,
            count: d.nodes[i].count,
            usage: caps[i].usage,
            rate: caps[i].rate,
        })
        .collect();
    let total = Capacity::sum(nodes.iter().map(|n| n.capacity));
    let deployment = strategy::deploy_at(
        &nodes,
        Ask {
            strategy,
            need: d.count,
            nodes_limit: d.nodes_limit,
            total: Some(total),
        },
        paths,
        strategy::Detail::Explained,
    )?;
    let mut deploy = BTreeMap::new();
    let mut instance_plans = Vec::new();
    for (k, n) in deployment.entries() {
        let i = live[k];
        deploy.insert(caps[i].name.clone(), n);
        let (cpu, vols) = &plans[i];
        // Only instances that bind something have a plan (memory-only instances do not).
        for j in 0..(n as usize).min(cpu.len().max(vols.len())) {
            instance_plans.push(InstancePlan {
                node: caps[i].name.clone(),
                cpu: cpu.get(j),
                volumes: vols.get(j).cloned().unwrap_or_default(),
            });
        }
    }
    Ok(DeployOutcome {
        capacities: caps,
        total,
        deployment,
        deploy,
        plans: instance_plans,
    })
}

/// A sentence per node: `n1: 4 (cpumem)`.
pub fn summary(outcome: &DeployOutcome) -> Vec<String> {
    outcome
        .capacities
        .iter()
        .map(|c| format!("{}: {} ({})", c.name, c.capacity, c.bound_by.unwrap_or("-")))
        .collect()
}
