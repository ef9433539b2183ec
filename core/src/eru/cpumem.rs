//! eru's cpumem plugin (docs/rules/eru.md C): request normalisation, memory-only capacity, and
//! CPU binding plans with full and fragment cores, share base, max share, NUMA nodes and
//! reuse of a workload's previous cores.
//!
//! A *plan* is one instance's binding, e.g. `{2: 100}` (all of core 2) or `{0: 70, 2: 100}`
//! (1.7 cores). Deploying `n` instances on a node takes its first `n` plans. Core ids compare
//! as strings ("10" < "2"), as eru does. A node's CPU map and its usage are read once, together,
//! and checked as they are read.

use alloc::collections::{BTreeMap, BinaryHeap};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use compact_str::CompactString;
use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

use super::paths::Paths;
use super::{Capacity, ResourceKind};
use crate::error::{Error, Path, Result};
use crate::text::Decimal;

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

/// One instance's CPU binding.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CpuPlan {
    /// The NUMA node the plan lives on; `""` for cross-NUMA or no NUMA.
    pub numa_node: String,
    pub cpu_map: BTreeMap<String, u64>,
}

/// A node's CPU plans, in the order instances take them, held compactly: each plan a run of
/// (core, pieces) parts naming the node's cores by position. A plan is written out as a
/// [`CpuPlan`] only when it is read ([`CpuPlans::get`], [`CpuPlans::iter`]), so that counting
/// a node's plans does not build a map per plan. Serialized as the list of its [`CpuPlan`]s.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CpuPlans {
    /// The node's core ids, in id order; parts name cores by their position here.
    cores: Vec<CompactString>,
    /// The NUMA nodes whose plans are held.
    numa_nodes: Vec<String>,
    /// Each plan: its NUMA node (a position in `numa_nodes`; `None`: across NUMA nodes or no
    /// NUMA) and where its parts end.
    plans: Vec<(Option<usize>, usize)>,
    /// (core, pieces), plan after plan.
    parts: Vec<(usize, u64)>,
}

impl CpuPlans {
    /// How many plans.
    pub fn len(&self) -> usize {
        self.plans.len()
    }

    /// No plan at all.
    pub fn is_empty(&self) -> bool {
        self.plans.is_empty()
    }

    /// Plan `j` (the `j`-th instance's binding), written out.
    pub fn get(&self, j: usize) -> Option<CpuPlan> {
        let &(numa, end) = self.plans.get(j)?;
        let start = j.checked_sub(1).map_or(0, |p| self.plans[p].1);
        let mut cpu_map = BTreeMap::new();
        for &(core, pieces) in self.parts.get(start..end)? {
            let id = self.cores.get(core)?;
            *cpu_map.entry(String::from(id.as_str())).or_insert(0) += pieces;
        }
        Some(CpuPlan {
            numa_node: numa
                .and_then(|m| self.numa_nodes.get(m).cloned())
                .unwrap_or_default(),
            cpu_map,
        })
    }

    /// Every plan, written out one at a time.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = CpuPlan> + '_ {
        (0..self.len()).map(|j| self.get(j).unwrap_or_default())
    }

    /// Room for `plans` more plans of `parts` parts each (counted within
    /// [`MAX_BIND_ASSIGNMENTS`] before they are made).
    fn reserve(&mut self, plans: usize, parts: u64) {
        self.plans.reserve(plans);
        self.parts
            .reserve(plans.saturating_mul(usize::try_from(parts).unwrap_or(usize::MAX)));
    }

    /// Add a plan of `parts` on NUMA node `numa`.
    fn push(&mut self, numa: Option<usize>, parts: impl IntoIterator<Item = (usize, u64)>) {
        self.parts.extend(parts);
        self.plans.push((numa, self.parts.len()));
    }
}

impl Serialize for CpuPlans {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// The plugin's answer for one node.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CpuMemCapacity {
    pub capacity: Capacity,
    /// CPU binding plans (empty without binding).
    #[cfg_attr(feature = "schema", schemars(with = "Vec<CpuPlan>"))]
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

/// A request normalised (docs/rules/eru.md C1) and checked against the plugin configuration:
/// what [`node_capacity`] takes, so that a node's errors can only be about the node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Checked {
    request: CpuMemRequest,
    config: CpuMemConfig,
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
fn read_node(n: &CpuMemNode, mut core: impl FnMut(&String, i64, i64)) -> Result<i64> {
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

/// Without binding, memory decides (docs/rules/eru.md C2).
fn memory_only(node: &CpuMemNode, r: &CpuMemRequest) -> CpuMemCapacity {
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

/// At most this many cores are assigned (plans times cores per plan) in binding one node's
/// CPUs; a node whose binding would take more is [`Error::TooLarge`], counted before any
/// plan is made (docs/rules/eru.md C3).
pub const MAX_BIND_ASSIGNMENTS: u64 = 1 << 16;

/// Spend `assignments` of a node's `budget` (what is left of [`MAX_BIND_ASSIGNMENTS`]), or
/// [`Error::TooLarge`] when it does not hold them.
fn within_bound(budget: &mut u64, assignments: u64) -> Result<()> {
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

/// Pieces (of a core, or of a previous binding) never reach this (they are `i64`s >= 0): below
/// it they pack into 63 bits of a sort key.
const MAX_PIECES: u64 = (1 << 63) - 1;

/// A core with pieces available: its position among the node's cores (id order, so
/// positions compare as ids do) and its free pieces.
#[derive(Debug, Clone, Copy)]
struct Core {
    at: usize,
    pieces: u64,
}

/// With binding: plans per NUMA node, then across NUMA nodes (docs/rules/eru.md C3).
fn bind(
    node: &CpuMemNode,
    r: &CpuMemRequest,
    config: CpuMemConfig,
    origin: Option<&CpuMap>,
) -> Result<CpuMemCapacity> {
    let base = config.share_base as u64;
    // trunc(cpu × B) in floating point, as eru (0.29 × 100 -> 28); [`check`] made sure it is
    // at least one piece and at most 10^15.
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

/// The request's shape in pieces.
struct Shape {
    base: u64,
    full: u64,
    frag: u64,
    max_share: i64,
    memory: u64,
}

impl Shape {
    /// Plans over `cores` (docs/rules/eru.md C3 4-10), as many as `memory` holds, added to
    /// `out` on NUMA node `numa`. How many there are is counted first; a binding that would
    /// assign more than [`MAX_BIND_ASSIGNMENTS`] cores (plans times cores per plan) is
    /// `too_large` before any plan is made.
    fn plans(
        &self,
        cores: Vec<Core>,
        memory: u64,
        origin: Option<&CpuMap>,
        numa: Option<usize>,
        budget: &mut u64,
        out: &mut CpuPlans,
    ) -> Result<()> {
        let (mut full_cores, mut frag_cores) = self.classify(cores, origin, &out.cores);
        let affinity = origin.is_some();
        let m = {
            let all = (full_cores.len() + frag_cores.len()) as i64 - self.full as i64;
            if self.max_share == -1 {
                all
            } else {
                all.min(self.max_share)
            }
        };
        // Plans past what the memory holds are never made.
        let fit = memory.checked_div(self.memory).unwrap_or(u64::MAX);
        let fit = usize::try_from(fit).unwrap_or(usize::MAX);
        let whole = |at: usize| (at, self.base);
        if self.frag == 0 {
            let count = self.count_full_plans(&full_cores, affinity);
            within_bound(budget, count.saturating_mul(self.full))?;
            out.reserve(
                usize::try_from(count).unwrap_or(usize::MAX).min(fit),
                self.full,
            );
            let k = self.full as usize;
            for plan in self
                .full_plans(&full_cores, affinity)
                .chunks_exact(k)
                .take(fit)
            {
                out.push(numa, plan.iter().map(|&at| whole(at)));
            }
        } else if self.full == 0 {
            let moving = (m - frag_cores.len() as i64).max(0) as usize;
            frag_cores.extend(full_cores.drain(..moving.min(full_cores.len())));
            let count = self.count_frag_plans(&frag_cores);
            within_bound(budget, count)?;
            out.reserve(usize::try_from(count).unwrap_or(usize::MAX).min(fit), 1);
            for at in self.frag_plans(&frag_cores).take(fit) {
                out.push(numa, [(at, self.frag)]);
            }
        } else {
            // Moving the first j full cores to the fragments; keep the best j.
            let last = ((m - frag_cores.len() as i64).max(0) as usize).min(full_cores.len());
            let (best_j, best) = self.best_move(&full_cores, &frag_cores, last, affinity);
            let best_full = &full_cores[best_j..];
            within_bound(
                budget,
                self.count_full_plans(best_full, affinity)
                    .saturating_mul(self.full)
                    .saturating_add(
                        self.count_frag_plans(&frag_cores)
                            .saturating_add(self.count_frag_plans(&full_cores[..best_j])),
                    ),
            )?;
            frag_cores.extend_from_slice(&full_cores[..best_j]);
            let k = self.full as usize;
            let fulls = self.full_plans(best_full, affinity);
            let take = usize::try_from(best).unwrap_or(usize::MAX).min(fit);
            out.reserve(take, self.full.saturating_add(1));
            for (plan, at) in fulls
                .chunks_exact(k)
                .zip(self.frag_plans(&frag_cores))
                .take(take)
            {
                let frag = [(at, self.frag)];
                out.push(numa, plan.iter().map(|&at| whole(at)).chain(frag));
            }
        }
        Ok(())
    }

    /// How many of the first full cores to use as fragments, `j` in `0..=last`: the first `j`
    /// with the most plans, `min(full plans without them, fragment plans with them)`. The full
    /// plans fall as `j` grows and the fragment plans rise, so the best is where they cross,
    /// found by bisection instead of counting every `j`.
    fn best_move(&self, full: &[Core], frag: &[Core], last: usize, affinity: bool) -> (usize, u64) {
        let mut t = Vec::with_capacity(last + 1);
        t.push(self.count_frag_plans(frag));
        for c in &full[..last] {
            let next = t[t.len() - 1].saturating_add(c.pieces / self.frag);
            t.push(next);
        }
        let c = |j: usize| self.count_full_plans(&full[j..], affinity);
        // The first j where the fragment plans reach the full plans (last + 1 if none does).
        let (mut lo, mut hi) = (0usize, last + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if t[mid] >= c(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let cross = lo;
        let after = (cross <= last).then(|| (cross, c(cross)));
        let before = cross.checked_sub(1).map(|j| {
            // Before the crossing the fragment plans decide; the first j with as many.
            (t.partition_point(|&x| x < t[j]), t[j])
        });
        match (before, after) {
            (Some(b), Some(a)) if a.1 > b.1 => a,
            (Some(b), _) => b,
            (None, Some(a)) => a,
            (None, None) => (0, 0),
        }
    }

    /// Full and fragment cores, each by (pieces, id) ascending; the workload's previous cores
    /// first when it is reallocated (`cores` in position order; `ids`: the node's core ids, by
    /// position).
    fn classify(
        &self,
        cores: Vec<Core>,
        origin: Option<&CpuMap>,
        ids: &[CompactString],
    ) -> (Vec<Core>, Vec<Core>) {
        let is_full = |p: u64| p >= self.base && p % self.base == 0;
        // Each core's rank packed into one key, (not previous, pieces, position) from the top
        // bit down: pieces (a core's or its previous ones) are below 2^63, and the position
        // stands for itself by the core's index in `cores` (in position order).
        let rank = |i: usize, c: &Core| -> u128 {
            let prev = origin
                .zip(ids.get(c.at))
                .and_then(|(o, id)| o.get(id.as_str()))
                .copied()
                .unwrap_or(0)
                .max(0) as u64;
            // Previous full cores first among full ones, previous fragments among fragments.
            // Previous cores keep the previous order (by their previous pieces, then id).
            let previous = prev > 0 && is_full(prev) == is_full(c.pieces);
            let pieces = if previous { prev } else { c.pieces };
            (u128::from(!previous) << 127) | (u128::from(pieces.min(MAX_PIECES)) << 64) | i as u128
        };
        let mut full = Vec::with_capacity(cores.len());
        let mut frag = Vec::with_capacity(cores.len());
        for (i, c) in cores.iter().enumerate().filter(|(_, c)| c.pieces > 0) {
            if is_full(c.pieces) {
                full.push(rank(i, c));
            } else {
                frag.push(rank(i, c));
            }
        }
        let sorted = |mut keys: Vec<u128>| -> Vec<Core> {
            crate::order::sort_keys(&mut keys);
            keys.iter().map(|&k| cores[k as u64 as usize]).collect()
        };
        (sorted(full), sorted(frag))
    }

    /// Units (whole cores' worth of pieces) of each full core.
    fn units(&self, cores: &[Core]) -> Vec<u64> {
        cores.iter().map(|c| c.pieces / self.base).collect()
    }

    /// How many plans [`Shape::full_plans`] makes, without making them: the largest `t`
    /// with `Σ min(units, t) >= full × t` (the greedy reaches it).
    fn count_full_plans(&self, cores: &[Core], affinity: bool) -> u64 {
        if affinity {
            // Past this many plans the budget is exceeded anyway: stop counting there.
            let cap = MAX_BIND_ASSIGNMENTS / self.full.max(1) + 1;
            return self.rounds(cores, cap, |_| {});
        }
        let units = self.units(cores);
        let total = units.iter().fold(0u64, |a, &u| a.saturating_add(u));
        let (mut lo, mut hi) = (0u64, total / self.full);
        while lo < hi {
            let t = lo + (hi - lo).div_ceil(2);
            let s = units.iter().fold(0u64, |a, &u| a.saturating_add(u.min(t)));
            if s >= self.full * t {
                lo = t;
            } else {
                hi = t - 1;
            }
        }
        lo
    }

    /// Full plans (§C3 9), `full` cores each, one after another (core positions): each round
    /// the `full` cores with the most pieces left (larger id among equals) give a core each;
    /// then plans by the sum of their cores' ranks. With affinity: consecutive groups of
    /// `full` cores.
    fn full_plans(&self, cores: &[Core], affinity: bool) -> Vec<usize> {
        let k = self.full as usize;
        let mut flat = Vec::new();
        if affinity {
            self.rounds(cores, u64::MAX, |group| {
                flat.extend(group.iter().map(|&i| cores[i].at));
            });
            return flat;
        }
        // The cores by units left, then id: each round takes the `k` greatest.
        let mut heap: BinaryHeap<(u64, usize, usize)> = self
            .units(cores)
            .into_iter()
            .enumerate()
            .filter(|&(_, u)| u > 0)
            .map(|(i, u)| (u, cores[i].at, i))
            .collect();
        if k > heap.len() {
            // Fewer cores than one plan takes (a request of more cores than the node has).
            return flat;
        }
        let mut ranks: Vec<usize> = Vec::new();
        let mut pick = Vec::with_capacity(k);
        while heap.len() >= k {
            pick.clear();
            pick.extend(core::iter::from_fn(|| heap.pop()).take(k));
            let mut rank = 0;
            for &(left, at, i) in &pick {
                flat.push(at);
                rank += i;
                if left > 1 {
                    heap.push((left - 1, at, i));
                }
            }
            ranks.push(rank);
        }
        let mut order: Vec<usize> = (0..ranks.len()).collect();
        crate::order::sort_indices_by_key(&mut order, |p| ranks[p]);
        order
            .into_iter()
            .flat_map(|p| flat[p * k..(p + 1) * k].iter().copied())
            .collect()
    }

    /// Full plans in rounds, for a reallocation (docs/rules/eru.md C3 11): while at least
    /// `full` cores remain, consecutive groups of `full` cores from the list each make a plan
    /// (each core gives one whole core's pieces); the next list is this round's cores with
    /// pieces left, in the order taken, then the cores the round did not reach. `emit` gets
    /// each plan's cores (indices into `cores`); at most `cap` plans; returns how many. Each
    /// round makes at least one plan and costs at most twice its assignments.
    fn rounds(&self, cores: &[Core], cap: u64, mut emit: impl FnMut(&[usize])) -> u64 {
        let k = self.full.max(1) as usize;
        let mut list: Vec<(usize, u64)> = self
            .units(cores)
            .into_iter()
            .enumerate()
            .filter(|&(_, u)| u > 0)
            .collect();
        let mut next = Vec::with_capacity(list.len());
        let mut made = 0u64;
        while list.len() >= k && made < cap {
            let groups = ((list.len() / k) as u64).min(cap - made) as usize;
            let reached = groups * k;
            let mut group = Vec::with_capacity(k);
            next.clear();
            for chunk in list[..reached].chunks_exact(k) {
                group.clear();
                group.extend(chunk.iter().map(|&(i, _)| i));
                emit(&group);
                next.extend(
                    chunk
                        .iter()
                        .filter(|&&(_, u)| u > 1)
                        .map(|&(i, u)| (i, u - 1)),
                );
            }
            made += groups as u64;
            next.extend_from_slice(&list[reached..]);
            core::mem::swap(&mut list, &mut next);
        }
        made
    }

    fn count_frag_plans(&self, cores: &[Core]) -> u64 {
        cores
            .iter()
            .fold(0u64, |a, c| a.saturating_add(c.pieces / self.frag))
    }

    /// Fragment plans (docs/rules/eru.md C3 10): each core in order gives `pieces / frag`
    /// plans; the core (position) of each.
    fn frag_plans<'a>(&'a self, cores: &'a [Core]) -> impl Iterator<Item = usize> + 'a {
        cores
            .iter()
            .flat_map(|c| core::iter::repeat_n(c.at, (c.pieces / self.frag) as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The plans eru's greedy makes, one sort per round: what [`Shape::full_plans`] must equal.
    fn full_plans_by_sorting(shape: &Shape, cores: &[Core]) -> Vec<usize> {
        let k = shape.full as usize;
        let mut left: Vec<u64> = shape.units(cores);
        let mut plans: Vec<(usize, Vec<usize>)> = Vec::new();
        loop {
            let mut order: Vec<usize> = (0..cores.len()).filter(|&i| left[i] > 0).collect();
            if order.len() < k {
                break;
            }
            order.sort_by(|&a, &b| left[b].cmp(&left[a]).then(cores[b].at.cmp(&cores[a].at)));
            let mut plan = Vec::new();
            let mut rank = 0;
            for &i in &order[..k] {
                left[i] -= 1;
                plan.push(cores[i].at);
                rank += i;
            }
            plans.push((rank, plan));
        }
        plans.sort_by_key(|(rank, _)| *rank);
        plans.into_iter().flat_map(|(_, p)| p).collect()
    }

    /// The first best `j`, trying every one: what [`Shape::best_move`] must equal.
    fn best_move_by_trying(
        shape: &Shape,
        full: &[Core],
        frag: &[Core],
        last: usize,
    ) -> (usize, u64) {
        let mut best_j = 0;
        let mut best = shape
            .count_full_plans(full, false)
            .min(shape.count_frag_plans(frag));
        let mut t = shape.count_frag_plans(frag);
        for j in 1..=last {
            t += full[j - 1].pieces / shape.frag;
            let c = shape.count_full_plans(&full[j..], false).min(t);
            if c > best {
                best = c;
                best_j = j;
            }
        }
        (best_j, best)
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        #[test]
        fn counting_and_the_heap_make_what_trying_and_sorting_make(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![(0u64..7).prop_map(|u| u * 100), 0u64..600],
                0..12,
            ),
            full in 1u64..4,
            frag in 1u64..100,
            last_cut in 0usize..12,
        ) {
            let shape = Shape { base: 100, full, frag, max_share: -1, memory: 0 };
            let cores: Vec<Core> = pieces
                .iter()
                .enumerate()
                .map(|(at, &p)| Core { at, pieces: p })
                .collect();
            let (full_cores, frag_cores) = shape.classify(cores, None, &[]);
            proptest::prop_assert_eq!(
                shape.full_plans(&full_cores, false),
                full_plans_by_sorting(&shape, &full_cores)
            );
            let last = last_cut.min(full_cores.len());
            proptest::prop_assert_eq!(
                shape.best_move(&full_cores, &frag_cores, last, false),
                best_move_by_trying(&shape, &full_cores, &frag_cores, last)
            );
        }
    }

    /// Full and fragment cores as the rule words them: each list stably sorted by (not
    /// previous, pieces or previous pieces, position): what [`Shape::classify`] must equal.
    fn classify_by_sorting(
        shape: &Shape,
        cores: Vec<Core>,
        origin: Option<&CpuMap>,
        ids: &[CompactString],
    ) -> (Vec<Core>, Vec<Core>) {
        let is_full = |p: u64| p >= shape.base && p % shape.base == 0;
        let (mut full, mut frag): (Vec<Core>, Vec<Core>) = cores
            .into_iter()
            .filter(|c| c.pieces > 0)
            .partition(|c| is_full(c.pieces));
        let rank = |c: &Core| -> (bool, u64, usize) {
            let prev = origin
                .and_then(|o| o.get(ids[c.at].as_str()))
                .map_or(0, |&p| p.max(0) as u64);
            let previous = prev > 0 && is_full(prev) == is_full(c.pieces);
            (!previous, if previous { prev } else { c.pieces }, c.at)
        };
        full.sort_by_key(rank);
        frag.sort_by_key(rank);
        (full, frag)
    }

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

    use proptest::strategy::Just;

    proptest::proptest! {
        /// Packed keys sort the cores as the rule's stable sort does, previous cores first.
        #[test]
        fn classify_sorts_as_the_rule(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![(0u64..5).prop_map(|u| u * 100), 0u64..500],
                0..14,
            ),
            previous in proptest::collection::vec(
                proptest::prop_oneof![Just(0i64), (1i64..4).prop_map(|u| u * 100), 1i64..400, -5i64..0],
                0..14,
            ),
            affinity: bool,
        ) {
            let shape = Shape { base: 100, full: 1, frag: 30, max_share: -1, memory: 0 };
            let ids: Vec<CompactString> =
                (0..pieces.len()).map(|i| CompactString::from(alloc::format!("{i}"))).collect();
            let origin: CpuMap = previous
                .iter()
                .enumerate()
                .map(|(i, &p)| (alloc::format!("{i}"), p))
                .collect();
            let origin = affinity.then_some(&origin);
            let cores: Vec<Core> =
                pieces.iter().enumerate().map(|(at, &p)| Core { at, pieces: p }).collect();
            let (full, frag) = shape.classify(cores.clone(), origin, &ids);
            let (want_full, want_frag) = classify_by_sorting(&shape, cores, origin, &ids);
            let at = |v: &[Core]| v.iter().map(|c| (c.at, c.pieces)).collect::<Vec<_>>();
            proptest::prop_assert_eq!(at(&full), at(&want_full));
            proptest::prop_assert_eq!(at(&frag), at(&want_frag));
        }

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

    fn node(cores: &[(&str, i64)], memory: i64) -> CpuMemNode {
        CpuMemNode {
            cpu_map: cores.iter().map(|&(k, v)| (k.into(), v)).collect(),
            memory,
            ..CpuMemNode::default()
        }
    }

    fn bind_req(cpu: f64, mem: i64) -> CpuMemRequest {
        CpuMemRequest {
            cpu_bind: true,
            cpu_request: cpu,
            memory_request: mem,
            ..CpuMemRequest::default()
        }
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
    fn full_plan_count_matches_the_greedy() {
        let s = Shape {
            base: 100,
            full: 2,
            frag: 0,
            max_share: -1,
            memory: 0,
        };
        for pieces in [
            vec![400, 200, 400],
            vec![200, 200, 200],
            vec![100; 7],
            vec![900, 100, 100],
            vec![300, 300, 300, 100],
        ] {
            let cores: Vec<Core> = pieces
                .iter()
                .enumerate()
                .map(|(at, &p)| Core { at, pieces: p })
                .collect();
            assert_eq!(
                s.count_full_plans(&cores, false),
                s.full_plans(&cores, false).len() as u64 / s.full,
                "{pieces:?}"
            );
        }
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
