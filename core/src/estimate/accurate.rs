//! The accurate estimator (docs/rules/karmada.md §10, the scheduler-estimator of KEP-521): replicas a cluster can take
//! by its nodes and the pods on them.
//!
//! [`NodeState::build`] sums the requests of the pods bound to each node (containers, raised to
//! any init container, plus overhead; Succeeded and Failed pods excluded) into each node's free
//! resources and pod slots. [`NodeState::estimate`] filters the nodes by the workload's node
//! claim and sums `min(floor(free_r / request_r), pod slots)` over the nodes that pass.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::framework::Code;
use super::models::GradedNode;
use super::simulate::{Grid, SimComponent};
use super::{per, AssumedWorkload, Component, MAX_INT32};
use crate::error::{indexed, Error, Path, Result, MAX_TARGETS};
use crate::names::NameIndex;
use crate::resource::ResourceList;
use crate::selector::label::Labels;
use crate::selector::node::{Mismatch, NodeClaim, NodeFacts, Taint};

/// A member cluster's node.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Node {
    pub name: String,
    #[serde(default)]
    pub labels: Labels,
    #[serde(default)]
    pub taints: Vec<Taint>,
    #[serde(default)]
    pub unschedulable: bool,
    #[serde(default)]
    pub allocatable: ResourceList,
}

/// A pod's phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum PodPhase {
    Pending,
    #[default]
    Running,
    Succeeded,
    Failed,
    Unknown,
}

/// A container's requests.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct Container {
    pub requests: ResourceList,
}

/// A pod. `requests` is a shorthand for one container's requests.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Pod {
    pub name: String,
    /// The node it is bound to; unbound pods take nothing.
    pub node_name: Option<String>,
    pub phase: PodPhase,
    pub requests: ResourceList,
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    pub overhead: ResourceList,
}

impl Pod {
    /// Whether the pod holds resources on its node.
    pub fn counts(&self) -> bool {
        self.node_name.is_some() && !matches!(self.phase, PodPhase::Succeeded | PodPhase::Failed)
    }

    /// The pod's effective request of `resource`: Σ containers, raised to the largest init
    /// container, plus overhead.
    pub fn request(&self, resource: &str) -> u64 {
        let sum = self
            .containers
            .iter()
            .map(|c| c.requests.get(resource))
            .fold(self.requests.get(resource), u64::saturating_add);
        let init = self
            .init_containers
            .iter()
            .map(|c| c.requests.get(resource))
            .max()
            .unwrap_or(0);
        sum.max(init).saturating_add(self.overhead.get(resource))
    }

    /// The pod's effective request of every resource it names ([`Pod::request`]).
    pub fn requests(&self) -> ResourceList {
        let names: alloc::collections::BTreeSet<&str> = self.resource_names().collect();
        names
            .into_iter()
            .map(|name| (String::from(name), self.request(name)))
            .collect()
    }

    fn resource_names(&self) -> impl Iterator<Item = &str> {
        self.requests
            .iter()
            .chain(self.containers.iter().flat_map(|c| c.requests.iter()))
            .chain(self.init_containers.iter().flat_map(|c| c.requests.iter()))
            .chain(self.overhead.iter())
            .map(|(r, _)| r)
    }
}

/// Nodes with their free resources and pod slots, built once and estimated against many times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeState {
    nodes: Vec<Node>,
    /// Resource columns (every resource in an allocatable or a pod request).
    columns: Vec<String>,
    /// `allocatable − Σ pod requests`, floored at 0; `nodes.len() × columns.len()`.
    free: Vec<u64>,
    /// `allocatable.pods − #pods`, floored at 0.
    slots: Vec<u64>,
    /// Pods counted per node.
    pods: Vec<u64>,
    /// Pods that hold nothing on any listed node, and why.
    pub ignored_pods: Vec<IgnoredPod>,
}

/// A pod the estimate leaves out (docs/rules/karmada.md §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct IgnoredPod {
    /// Index into the cluster's pods.
    pub pod: usize,
    pub reason: PodIgnored,
}

/// Why a pod holds nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum PodIgnored {
    /// No `nodeName`: not bound to a node yet.
    Unbound,
    /// Bound to a node the cluster does not list.
    UnknownNode,
    /// `Succeeded` or `Failed`: its resources are released.
    Finished,
}

/// A node's verdict in an estimate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Verdict {
    /// The node claim rules the node out.
    Filtered { reason: Mismatch },
    /// The node takes `replicas`; `limit` is the resource that bound it (`pods` for slots).
    Fits { replicas: u64, limit: String },
}

/// One node in an estimate's trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NodeVerdict {
    /// Index into the state's nodes.
    pub node: usize,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// The accurate estimate for a cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AccurateEstimate {
    /// Σ per-node replicas, at most MaxInt32.
    pub replicas: u64,
    pub code: Code,
    pub nodes: Vec<NodeVerdict>,
}

impl NodeState {
    /// Build the state. Errors: more than [`crate::error::MAX_TARGETS`] nodes, empty or
    /// repeated node names (`nodes[i].name`).
    pub fn build(nodes: Vec<Node>, pods: &[Pod]) -> Result<NodeState> {
        if nodes.len() > MAX_TARGETS {
            return Err(Error::TooLarge {
                field: "nodes".into(),
                limit: MAX_TARGETS as u64,
            });
        }
        let index = NameIndex::unique(nodes.iter().map(|n| n.name.as_str()), "nodes")?;
        let mut columns: Vec<String> = Vec::new();
        let column = |name: &str, columns: &mut Vec<String>| -> usize {
            match columns.iter().position(|c| c == name) {
                Some(p) => p,
                None => {
                    columns.push(name.into());
                    columns.len() - 1
                }
            }
        };
        for n in &nodes {
            for (r, _) in n.allocatable.iter() {
                column(r, &mut columns);
            }
        }
        // Requested totals per node and column; columns may grow while reading pods.
        let mut used: Vec<Vec<u64>> = alloc::vec![Vec::new(); nodes.len()];
        let mut pod_count = alloc::vec![0u64; nodes.len()];
        let mut ignored_pods = Vec::new();
        for (k, pod) in pods.iter().enumerate() {
            let ignore = |reason| IgnoredPod { pod: k, reason };
            let Some(name) = pod.node_name.as_deref() else {
                ignored_pods.push(ignore(PodIgnored::Unbound));
                continue;
            };
            if !pod.counts() {
                ignored_pods.push(ignore(PodIgnored::Finished));
                continue;
            }
            let Some(n) = index.get(name) else {
                ignored_pods.push(ignore(PodIgnored::UnknownNode));
                continue;
            };
            pod_count[n] += 1;
            let simple = pod.containers.is_empty()
                && pod.init_containers.is_empty()
                && pod.overhead.is_empty();
            let row = &mut used[n];
            let mut add = |r: &str, q: u64, columns: &mut Vec<String>| {
                let c = column(r, columns);
                if row.len() <= c {
                    row.resize(c + 1, 0);
                }
                row[c] = row[c].saturating_add(q);
            };
            if simple {
                for (r, q) in pod.requests.iter() {
                    add(r, q, &mut columns);
                }
            } else {
                let mut names: Vec<&str> = pod.resource_names().collect();
                crate::order::sort_by(&mut names, &|a, b| a.cmp(b));
                names.dedup();
                for r in names {
                    add(r, pod.request(r), &mut columns);
                }
            }
        }
        drop(index);
        let stride = columns.len();
        let mut free = alloc::vec![0u64; nodes.len() * stride];
        let mut slots = alloc::vec![0u64; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            for (c, name) in columns.iter().enumerate() {
                let u = used[i].get(c).copied().unwrap_or(0);
                free[i * stride + c] = n.allocatable.get(name).saturating_sub(u);
            }
            slots[i] = n.allocatable.get("pods").saturating_sub(pod_count[i]);
        }
        Ok(NodeState {
            nodes,
            columns,
            free,
            slots,
            pods: pod_count,
            ignored_pods,
        })
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Free amount of `resource` on node `i` (0 if the node lacks it).
    pub fn free(&self, i: usize, resource: &str) -> u64 {
        self.columns
            .iter()
            .position(|c| c == resource)
            .map_or(0, |c| self.free[i * self.columns.len() + c])
    }

    /// Free pod slots of node `i`.
    pub fn slots(&self, i: usize) -> u64 {
        self.slots[i]
    }

    /// Pods counted on node `i`.
    pub fn pods_on(&self, i: usize) -> u64 {
        self.pods[i]
    }

    fn facts(&self, i: usize) -> NodeFacts<'_> {
        let n = &self.nodes[i];
        NodeFacts {
            name: &n.name,
            labels: &n.labels,
            taints: &n.taints,
            unschedulable: n.unschedulable,
        }
    }

    /// Replicas of one-replica `request` the nodes satisfying `claim` can take. Assumed
    /// workloads (when given) are placed first-fit before counting.
    pub fn estimate(
        &self,
        request: &ResourceList,
        claim: Option<&NodeClaim>,
        assumed: &[AssumedWorkload],
    ) -> Result<AccurateEstimate> {
        if let Some(c) = claim {
            c.validate()
                .map_err(|e| e.within(&Path::fields("nodeClaim")))?;
        }
        validate_assumed(assumed)?;
        let grid = self.placed(assumed, request);
        // Each requested resource's column, in the grid when assumed workloads were placed
        // (it has every requested resource), else in the state (usize::MAX: nodes lack it).
        let columns = grid.as_ref().map_or(&self.columns, |g| &g.columns);
        let wanted: Vec<(usize, u64, &str)> = request
            .positive()
            .map(|(r, q)| {
                let c = columns.iter().position(|c| c == r).unwrap_or(usize::MAX);
                (c, q, r)
            })
            .collect();
        let stride = self.columns.len();
        let mut total = 0u64;
        let mut verdicts = Vec::with_capacity(self.nodes.len());
        for i in 0..self.nodes.len() {
            if let Some(Err(reason)) = claim.map(|c| c.check(&self.facts(i))) {
                verdicts.push(NodeVerdict {
                    node: i,
                    verdict: Verdict::Filtered { reason },
                });
                continue;
            }
            let (mut fit, mut limit) = match &grid {
                Some(g) => (g.cap(i, 0), "pods"),
                None => (self.slots[i], "pods"),
            };
            for &(c, q, r) in &wanted {
                let free = match &grid {
                    _ if c == usize::MAX => 0,
                    Some(g) => g.cap(i, c),
                    None => self.free[i * stride + c],
                };
                let f = per(free, q);
                if f < fit {
                    fit = f;
                    limit = r;
                }
            }
            total = total.saturating_add(fit);
            verdicts.push(NodeVerdict {
                node: i,
                verdict: Verdict::Fits {
                    replicas: fit,
                    limit: limit.into(),
                },
            });
        }
        let replicas = total.min(MAX_INT32);
        Ok(AccurateEstimate {
            replicas,
            code: if replicas == 0 {
                Code::Unschedulable
            } else {
                Code::Success
            },
            nodes: verdicts,
        })
    }

    /// A grid after placing `assumed` first-fit, or `None` when there is nothing to place.
    /// Columns: pods, then the request's positive resources in order.
    fn placed(&self, assumed: &[AssumedWorkload], request: &ResourceList) -> Option<Grid> {
        if assumed
            .iter()
            .all(|a| a.components.iter().all(|c| c.replicas == 0))
        {
            return None;
        }
        Some(self.grid_after(request.positive().map(|(r, _)| r), assumed))
    }

    /// A grid over `names` plus the assumed workloads' resources, with each assumed workload
    /// placed first-fit as one set.
    fn grid_after<'a>(
        &'a self,
        names: impl IntoIterator<Item = &'a str>,
        assumed: &'a [AssumedWorkload],
    ) -> Grid {
        let assumed_names = assumed
            .iter()
            .flat_map(|a| &a.components)
            .flat_map(|c| c.requests.iter().map(|(r, _)| r));
        let mut grid = self.grid(names.into_iter().chain(assumed_names));
        for a in assumed {
            let comps = self.prepare(&grid, &a.components);
            grid.simulate(&comps, 1);
        }
        grid
    }

    fn grid<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> Grid {
        Grid::new(names, self.nodes.len(), |node, r| {
            if r == "pods" {
                self.slots[node]
            } else {
                self.free(node, r)
            }
        })
    }

    fn prepare(&self, grid: &Grid, components: &[Component]) -> Vec<SimComponent> {
        components
            .iter()
            .map(|c| SimComponent {
                replicas: c.replicas,
                req: grid.request(&c.requests),
                eligible: (0..self.nodes.len())
                    .filter(|&i| {
                        c.node_claim
                            .as_ref()
                            .is_none_or(|nc| nc.matches(&self.facts(i)))
                    })
                    .map(|i| i as u32)
                    .collect(),
            })
            .collect()
    }

    /// Complete sets of `components` the nodes can take (NodeResourceEstimator for
    /// multi-component workloads), after placing `assumed`. Disabled: MaxInt32, no operation.
    pub fn estimate_components(
        &self,
        components: &[Component],
        assumed: &[AssumedWorkload],
        enabled: bool,
    ) -> Result<(u64, Code)> {
        // Disabled, or no component to bound: the plugin has nothing to say (docs/rules/
        // karmada.md §10, component sets step 1).
        if !enabled || components.is_empty() {
            return Ok((MAX_INT32, Code::Nooperation));
        }
        for (i, c) in components.iter().enumerate() {
            if let Some(nc) = &c.node_claim {
                nc.validate()
                    .map_err(|e| e.within(&indexed("components", i).field("nodeClaim")))?;
            }
        }
        validate_assumed(assumed)?;
        if self.nodes.is_empty() {
            return Ok((0, Code::Unschedulable));
        }
        let sets = self.simulate(components, assumed, MAX_INT32);
        Ok((
            sets,
            if sets == 0 {
                Code::Unschedulable
            } else {
                Code::Success
            },
        ))
    }

    /// The first-fit simulator (§8) over these nodes: place each assumed workload as one
    /// set, then count complete sets of `components`, at most `upper`. Node claims are
    /// evaluated as given (unknown operators match nothing).
    pub fn simulate(
        &self,
        components: &[Component],
        assumed: &[AssumedWorkload],
        upper: u64,
    ) -> u64 {
        let names = components
            .iter()
            .flat_map(|c| c.requests.iter().map(|(r, _)| r));
        let mut grid = self.grid_after(names, assumed);
        let comps = self.prepare(&grid, components);
        grid.simulate(&comps, upper)
    }

    /// The nodes as the grade counter sees them.
    pub fn graded(&self) -> impl Iterator<Item = GradedState<'_>> {
        (0..self.nodes.len()).map(move |i| GradedState {
            state: self,
            node: i,
        })
    }
}

fn validate_assumed(assumed: &[AssumedWorkload]) -> Result<()> {
    for (i, a) in assumed.iter().enumerate() {
        for (j, c) in a.components.iter().enumerate() {
            if let Some(nc) = &c.node_claim {
                nc.validate().map_err(|e| {
                    e.within(
                        &indexed("assumed", i)
                            .field("components")
                            .index(j)
                            .field("nodeClaim"),
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// A node of a [`NodeState`] for [`super::models::grade_counts`].
pub struct GradedState<'a> {
    state: &'a NodeState,
    node: usize,
}

impl GradedNode for GradedState<'_> {
    fn free_pods(&self) -> i128 {
        i128::from(self.state.nodes[self.node].allocatable.get("pods"))
            - i128::from(self.state.pods[self.node])
    }
    fn free(&self, resource: &str) -> u64 {
        self.state.free(self.node, resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::node::{TaintEffect, Toleration, TolerationOperator};
    use alloc::vec;

    /// A node's verdict: `replicas` fit, CPU the resource that limits them.
    fn fits_cpu(replicas: u64) -> Verdict {
        Verdict::Fits {
            replicas,
            limit: "cpu".into(),
        }
    }

    /// `n` nodes named `prefix0`, `prefix1`…, each with `cores` CPUs and `labels`, and no pods.
    fn nodes(prefix: &str, n: usize, cores: u64, labels: &[(&str, &str)]) -> NodeState {
        let all = (0..n)
            .map(|i| node(&alloc::format!("{prefix}{i}"), cores, labels))
            .collect();
        NodeState::build(all, &[]).unwrap()
    }

    fn node(name: &str, cores: u64, labels: &[(&str, &str)]) -> Node {
        Node {
            name: name.into(),
            labels: labels.iter().map(|&(k, v)| (k.into(), v.into())).collect(),
            allocatable: ResourceList::from_units([("cpu", cores * 1000), ("pods", 110)]),
            ..Node::default()
        }
    }

    fn cpu(cores: u64) -> ResourceList {
        ResourceList::from_units([("cpu", cores * 1000)])
    }

    /// KEP-521 story 1: A has 10 nodes × 8 free cores, B 2 × 16; one 12-core replica fits
    /// only on B, although A has more CPU in total.
    #[test]
    fn kep_story_1() {
        let a = nodes("a", 10, 8, &[]);
        let b = nodes("b", 2, 16, &[]);
        assert_eq!(a.estimate(&cpu(12), None, &[]).unwrap().replicas, 0);
        assert_eq!(b.estimate(&cpu(12), None, &[]).unwrap().replicas, 2);
    }

    /// KEP-521 story 2: only B's nodes carry key=value.
    #[test]
    fn kep_story_2() {
        let a = nodes("a", 10, 16, &[]);
        let b = nodes("b", 2, 16, &[("key", "value")]);
        let claim = NodeClaim {
            node_selector: [("key".into(), "value".into())].into(),
            ..NodeClaim::default()
        };
        let ea = a.estimate(&cpu(12), Some(&claim), &[]).unwrap();
        assert_eq!(ea.replicas, 0);
        assert!(matches!(ea.nodes[0].verdict, Verdict::Filtered { .. }));
        assert_eq!(b.estimate(&cpu(12), Some(&claim), &[]).unwrap().replicas, 2);
    }

    #[test]
    fn pods_and_init_containers() {
        let pods = [
            Pod {
                node_name: Some("n".into()),
                containers: vec![
                    Container { requests: cpu(1) },
                    Container { requests: cpu(1) },
                ],
                init_containers: vec![Container { requests: cpu(3) }],
                overhead: ResourceList::from_units([("cpu", 500)]),
                ..Pod::default()
            },
            Pod {
                node_name: Some("n".into()),
                phase: PodPhase::Succeeded,
                requests: cpu(4),
                ..Pod::default()
            },
            Pod {
                node_name: Some("elsewhere".into()),
                requests: cpu(4),
                ..Pod::default()
            },
            Pod {
                requests: cpu(4),
                ..Pod::default()
            },
        ];
        let s = NodeState::build(vec![node("n", 8, &[])], &pods).unwrap();
        assert_eq!(s.free(0, "cpu"), 4500);
        assert_eq!(s.slots(0), 109);
        let why: Vec<PodIgnored> = s.ignored_pods.iter().map(|p| p.reason).collect();
        assert_eq!(
            why,
            [
                PodIgnored::Finished,
                PodIgnored::UnknownNode,
                PodIgnored::Unbound
            ]
        );
        assert_eq!(s.ignored_pods[1].pod, 2);
        let e = s.estimate(&cpu(1), None, &[]).unwrap();
        assert_eq!(e.replicas, 4);
        assert_eq!(e.nodes[0].verdict, fits_cpu(4));
    }

    #[test]
    fn no_components_is_no_operation() {
        let s = NodeState::build(vec![node("a", 4, &[])], &[]).unwrap();
        assert_eq!(
            s.estimate_components(&[], &[], true).unwrap(),
            (MAX_INT32, Code::Nooperation)
        );
        let empty = NodeState::build(vec![], &[]).unwrap();
        assert_eq!(
            empty.estimate_components(&[], &[], true).unwrap(),
            (MAX_INT32, Code::Nooperation)
        );
    }

    #[test]
    fn assumed_workloads_are_placed_before_counting() {
        let s = NodeState::build(vec![node("a", 4, &[]), node("b", 4, &[])], &[]).unwrap();
        let assumed = [AssumedWorkload {
            namespace: String::new(),
            components: vec![Component {
                replicas: 3,
                requests: cpu(1),
                ..Component::default()
            }],
        }];
        // Three 1-core replicas in flight go first-fit on node a: 1 + 4 cores left.
        let e = s.estimate(&cpu(1), None, &assumed).unwrap();
        assert_eq!(e.replicas, 5);
        assert_eq!(e.nodes[0].verdict, fits_cpu(1));
        let gpu = ResourceList::from_units([("nvidia.com/gpu", 1)]);
        assert_eq!(s.estimate(&gpu, None, &assumed).unwrap().replicas, 0);
    }

    #[test]
    fn taints_cordons_and_duplicates() {
        let mut tainted = node("t", 8, &[]);
        tainted.taints.push(Taint {
            key: "dedicated".into(),
            value: "db".into(),
            effect: TaintEffect::NoSchedule,
        });
        let mut cordoned = node("c", 8, &[]);
        cordoned.unschedulable = true;
        let s = NodeState::build(vec![tainted, cordoned, node("ok", 8, &[])], &[]).unwrap();
        assert_eq!(
            s.estimate(&cpu(1), Some(&NodeClaim::default()), &[])
                .unwrap()
                .replicas,
            8
        );
        let tolerate = NodeClaim {
            tolerations: vec![Toleration {
                key: "dedicated".into(),
                operator: TolerationOperator::Exists,
                ..Toleration::default()
            }],
            ..NodeClaim::default()
        };
        assert_eq!(
            s.estimate(&cpu(1), Some(&tolerate), &[]).unwrap().replicas,
            16
        );
        let e = NodeState::build(vec![node("x", 1, &[]), node("x", 1, &[])], &[]).unwrap_err();
        assert_eq!(
            (e.code().as_str(), e.field().text().as_str()),
            ("duplicate_name", "nodes[1].name")
        );
    }
}
