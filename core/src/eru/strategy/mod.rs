//! eru's orchestration strategies (docs/rules/eru.md A): given each node's capacity, the instances
//! of the app already on it, and its usage and rate, decide how many new instances each node
//! gets.
//!
//! Where eru leaves ties to Go map order, allot breaks them by input order, never by chance.
//! AUTO, GLOBAL and DRAINED are computed in bulk (a level or a threshold found by search)
//! with results identical to handing out one instance at a time, and FILL and EACH select
//! their nodes without sorting them all; the tests check each against the rule as worded.
//!
//! Every node is checked in one place, as it is read (`Tally`): GLOBAL reads the nodes into
//! the check in its own pass over them, the other strategies are given them checked.
//!
//! A deploy decides, and explains only when asked ([`Detail`]): the same code runs either
//! way, and the sentences are written only for [`Detail::Explained`].

pub mod auto;
pub mod drained;
pub mod each;
pub mod fill;
pub mod global;

use crate::text::Decimal;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::paths::Paths;
use super::{Capacity, ResourceKind};
use crate::error::{indexed, Error, Path, Result, MAX_TARGETS};

/// A strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "EruStrategy"))]
#[serde(rename_all = "UPPERCASE")]
pub enum Strategy {
    /// Communism: make old + new instances as even as possible across nodes.
    Auto,
    /// At least `nodes_limit` nodes end with at least `need` instances.
    Fill,
    /// Average: `need` new instances on each of `nodes_limit` nodes.
    Each,
    /// Keep resource usage ratios as even as possible.
    Global,
    /// Fill the smallest nodes first.
    Drained,
}

crate::choice::names!(Strategy {
    Auto => "AUTO",
    Fill => "FILL",
    Each => "EACH",
    Global => "GLOBAL",
    Drained => "DRAINED",
});

impl Strategy {
    /// Parse eru's name (`AUTO`, `FILL`, `EACH`, `GLOBAL`, `DRAINED`); anything else is
    /// `invalid_strategy` on `field`.
    pub fn parse(name: &str, field: &'static str) -> Result<Strategy> {
        Strategy::named(name).ok_or_else(|| Error::InvalidStrategy {
            field: Path::fields(field),
            value: name.into(),
            expected: Strategy::LIST,
        })
    }
}

/// A node as the strategies see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StrategyNode {
    pub name: String,
    /// New instances it can still take.
    pub capacity: Capacity,
    /// Instances of the app already on it (including in progress).
    #[serde(default)]
    pub count: u64,
    /// Resource usage ratio now.
    #[serde(default)]
    pub usage: f64,
    /// Usage ratio one more instance adds.
    #[serde(default)]
    pub rate: f64,
}

/// A deploy request to a strategy.
#[derive(Debug, Clone, Copy)]
pub struct Ask {
    pub strategy: Strategy,
    /// New instances wanted (`DeployOptions.Count`).
    pub need: i64,
    /// `NodesLimit`; 0 means none.
    pub nodes_limit: i64,
    /// The total capacity eru passes along; `None` is Σ capacity.
    pub total: Option<Capacity>,
}

/// What a strategy decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Deployment {
    pub strategy: Strategy,
    /// New instances per input node; `None`: not in the deploy map. FILL lists selected
    /// nodes that are already full with `Some(0)`, as eru does.
    pub instances: Vec<Option<u64>>,
    /// Why, in sentences.
    pub explanation: Vec<String>,
}

impl Deployment {
    /// `(node index, instances)` of the deploy map, in input order.
    pub fn entries(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.instances
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.map(|n| (i, n)))
    }

    /// Σ new instances.
    pub fn total(&self) -> u64 {
        self.entries().map(|(_, n)| n).sum()
    }
}

/// Above this many nodes in a deploy map, the explanation summarises the rest.
pub const DETAILED_NODES: usize = 100;

/// How much a deploy says: the decision alone (no sentence is written), or the decision with
/// its explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Detail {
    #[default]
    Decision,
    Explained,
}

/// The ask checked, before the nodes are read: what [`Asked::checked`] completes with what
/// reading the nodes told ([`Tally`]).
pub(crate) struct Asked<'a> {
    paths: &'a Paths,
    need: u64,
    limit: u64,
    total: Option<Capacity>,
    explain: bool,
}

impl<'a> Asked<'a> {
    /// The ask's need, for a strategy that reads the nodes before they are checked.
    pub(crate) fn need(&self) -> u64 {
        self.need
    }

    /// The inputs checked, once every node has been read into `tally`: the first node with an
    /// unusable usage or rate (looked for only when there is one) is `invalid_usage`; the
    /// total is the caller's, or Σ capacities as [`Capacity::sum`] adds them (unlimited if any
    /// is or if they pass u64).
    pub(crate) fn checked(&self, nodes: &[StrategyNode], tally: Tally) -> Result<Checked<'a>> {
        if !tally.usable {
            for (i, n) in nodes.iter().enumerate() {
                for (what, v) in [("usage", n.usage), ("rate", n.rate)] {
                    if !usable_ratio(v) {
                        return Err(Error::InvalidResource {
                            field: indexed("nodes", i).field(what),
                            code: ResourceKind::Usage.code(),
                            reason: format!(
                                "{what} must be a finite number >= 0, got {}",
                                Decimal(v)
                            ),
                        });
                    }
                }
            }
        }
        let sum = match u64::try_from(tally.finite) {
            Ok(k) if !tally.unlimited => Capacity::Finite(k),
            _ => Capacity::Unlimited,
        };
        Ok(Checked {
            paths: self.paths,
            need: self.need,
            limit: self.limit,
            total: self.total.unwrap_or(sum),
            explain: self.explain,
        })
    }
}

/// What the check needs from the nodes, gathered one node at a time by [`Tally::read`], the one
/// place every node is checked: Σ capacities, and whether every usage and rate is usable. A
/// strategy that reads every node anyway (GLOBAL) reads each into the tally in its own pass;
/// for the others [`Tally::of`] reads them first.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tally {
    /// Σ finite capacities.
    finite: u128,
    /// Whether a capacity is unlimited.
    unlimited: bool,
    /// Whether every usage and rate is usable.
    usable: bool,
}

impl Tally {
    /// Nothing read yet.
    pub(crate) const fn new() -> Tally {
        Tally {
            finite: 0,
            unlimited: false,
            usable: true,
        }
    }

    /// Read one node: one well-predicted branch (an unlimited capacity is rare), the ratios
    /// checked without one.
    #[inline(always)]
    pub(crate) fn read(&mut self, n: &StrategyNode) {
        match n.capacity {
            Capacity::Finite(k) => self.finite += u128::from(k),
            Capacity::Unlimited => self.unlimited = true,
        }
        self.usable &= usable_ratio(n.usage) & usable_ratio(n.rate);
    }

    /// Every node read, one pass.
    pub(crate) fn of(nodes: &[StrategyNode]) -> Tally {
        let mut t = Tally::new();
        for n in nodes {
            t.read(n);
        }
        t
    }
}

/// Validated inputs shared by the strategies.
pub(crate) struct Checked<'a> {
    /// Where the caller holds `count` and `nodesLimit`, for errors.
    pub paths: &'a Paths,
    pub need: u64,
    pub limit: u64,
    pub total: Capacity,
    /// Whether to write the explanation.
    pub explain: bool,
}

impl Checked<'_> {
    /// One sentence, written only when the deploy explains itself.
    pub(crate) fn says(&self, sentence: impl FnOnce() -> String) -> Vec<String> {
        if self.explain {
            alloc::vec![sentence()]
        } else {
            Vec::new()
        }
    }
}

/// A strategy given its nodes checked: the deploy map and the explanation.
type StrategyRun = fn(&[StrategyNode], &Checked) -> Result<(Vec<Option<u64>>, Vec<String>)>;

/// Run `ask` over `nodes`: the decision alone, with an empty explanation. Errors:
/// `invalid_count` (need <= 0), negative nodes limit, usage or rate negative or not a number,
/// and each strategy's own; `count` and `nodesLimit` are the ask's own fields ([`deploy_at`]
/// names the caller's).
pub fn deploy(nodes: &[StrategyNode], ask: Ask) -> Result<Deployment> {
    deploy_at(nodes, ask, &Paths::DEPLOY, Detail::Decision)
}

/// [`deploy`] with the explanation.
pub fn deploy_explained(nodes: &[StrategyNode], ask: Ask) -> Result<Deployment> {
    deploy_at(nodes, ask, &Paths::DEPLOY, Detail::Explained)
}

/// [`deploy`] with errors about the count and the nodes limit at the caller's `paths`, saying
/// as much as `detail` asks.
pub fn deploy_at(
    nodes: &[StrategyNode],
    ask: Ask,
    paths: &Paths,
    detail: Detail,
) -> Result<Deployment> {
    let asked = check(nodes, ask, paths, detail)?;
    // GLOBAL reads the nodes into the tally in its own pass; the others are given them checked.
    let given_checked: Option<StrategyRun> = match ask.strategy {
        Strategy::Auto => Some(auto::run),
        Strategy::Fill => Some(fill::run),
        Strategy::Each => Some(each::run),
        Strategy::Drained => Some(drained::run),
        Strategy::Global => None,
    };
    let (instances, mut explanation) = match given_checked {
        Some(run) => run(nodes, &asked.checked(nodes, Tally::of(nodes))?)?,
        None => global::run(nodes, &asked)?,
    };
    if detail == Detail::Explained {
        explain_nodes(nodes, ask.strategy, &instances, &mut explanation);
    }
    Ok(Deployment {
        strategy: ask.strategy,
        instances,
        explanation,
    })
}

/// One line per node that received instances (the first [`DETAILED_NODES`] of them).
fn explain_nodes(
    nodes: &[StrategyNode],
    strategy: Strategy,
    instances: &[Option<u64>],
    explanation: &mut Vec<String>,
) {
    let mut detailed = 0;
    for (i, k) in instances.iter().enumerate() {
        let Some(k) = *k else { continue };
        detailed += 1;
        if detailed > DETAILED_NODES {
            explanation.push(format!(
                "... and {} more nodes",
                instances.iter().filter(|n| n.is_some()).count() - DETAILED_NODES
            ));
            break;
        }
        let n = &nodes[i];
        explanation.push(match strategy {
            Strategy::Global => format!(
                "{}: +{k}, usage {} -> {} (capacity {})",
                n.name,
                Decimal(n.usage),
                Decimal(n.usage + k as f64 * n.rate),
                n.capacity
            ),
            _ => format!(
                "{}: {} + {k} = {} instances (capacity {})",
                n.name,
                n.count,
                n.count + k,
                n.capacity
            ),
        });
    }
}

/// The ask's own checks (count, nodes limit, node count); the nodes are checked as they are
/// read ([`Tally`], [`Asked::checked`]).
fn check<'a>(
    nodes: &[StrategyNode],
    ask: Ask,
    paths: &'a Paths,
    detail: Detail,
) -> Result<Asked<'a>> {
    if ask.need <= 0 {
        return Err(Error::InvalidCount {
            field: Path::fields(paths.count),
            value: ask.need,
        });
    }
    if ask.nodes_limit < 0 {
        return Err(Error::Negative {
            field: Path::fields(paths.nodes_limit),
            value: ask.nodes_limit,
        });
    }
    if nodes.len() > MAX_TARGETS {
        return Err(Error::TooLarge {
            field: "nodes".into(),
            limit: MAX_TARGETS as u64,
        });
    }
    Ok(Asked {
        paths,
        need: ask.need as u64,
        limit: ask.nodes_limit as u64,
        total: ask.total,
        explain: detail == Detail::Explained,
    })
}

/// The bits of positive infinity: every finite number >= 0 has bits below them, and every
/// other `f64` (negative, infinite, not a number) at or above them, but `-0.0`.
const INFINITY_BITS: u64 = 0x7ff0_0000_0000_0000;

/// A usage's or a rate's bits with `-0.0` read as `0.0` (adding `0.0` does that): below
/// [`INFINITY_BITS`] exactly when a strategy can use it, a finite number >= 0.
fn ratio_bits(v: f64) -> u64 {
    (v + 0.0).to_bits()
}

/// A usage or a rate a strategy can use: a finite number >= 0 (`-0.0` included).
fn usable_ratio(v: f64) -> bool {
    ratio_bits(v) < INFINITY_BITS
}

/// FILL's and EACH's node count: the nodes limit, or every node when it is 0; fewer nodes
/// than that is insufficient_resource with `detail` (given the node count and the limit).
pub(crate) fn nodes_to_use(
    nodes: &[StrategyNode],
    c: &Checked,
    available: u64,
    detail: impl FnOnce(usize, u64) -> String,
) -> Result<u64> {
    let limit = if c.limit == 0 {
        nodes.len() as u64
    } else {
        c.limit
    };
    if (nodes.len() as u64) < limit {
        return Err(Error::InsufficientResource {
            field: Path::fields(c.paths.nodes_limit),
            need: c.need,
            available,
            detail: detail(nodes.len(), limit),
        });
    }
    Ok(limit)
}

/// Where a shortfall of able nodes is blamed: the nodes limit when the deploy states one (it is
/// what asks for that many nodes), otherwise the count (every node must reach it, and too few
/// can).
pub(crate) fn shortfall_field(c: &Checked) -> Path {
    if c.limit == 0 {
        Path::fields(c.paths.count)
    } else {
        Path::fields(c.paths.nodes_limit)
    }
}

/// `total < need` -> insufficient_resource ("need: N, available: T").
pub(crate) fn need_within_total(c: &Checked) -> Result<()> {
    if c.total.saturating() < c.need {
        return Err(Error::InsufficientResource {
            field: Path::fields(c.paths.count),
            need: c.need,
            available: c.total.saturating(),
            detail: String::new(),
        });
    }
    Ok(())
}

/// A deploy map from `(node, instances)` pairs (absent nodes: `None`).
pub(crate) fn map_of(n: usize, pairs: impl IntoIterator<Item = (usize, u64)>) -> Vec<Option<u64>> {
    let mut out = alloc::vec![None; n];
    for (i, k) in pairs {
        out[i] = Some(out[i].unwrap_or(0) + k);
    }
    out
}

/// The one-instance-at-a-time rules of AUTO and GLOBAL, as the spec words them: the
/// reference the bulk algorithms are tested against.
#[cfg(test)]
pub(crate) mod reference {
    use super::*;

    pub fn auto(nodes: &[StrategyNode], need: u64, limit: u64) -> Option<Vec<u64>> {
        let mut count: Vec<u64> = nodes.iter().map(|n| n.count).collect();
        let mut cap: Vec<u64> = nodes.iter().map(|n| n.capacity.saturating()).collect();
        let mut live: Vec<bool> = (0..nodes.len())
            .map(|i| cap[i] != 0 && (limit == 0 || count[i] < limit))
            .collect();
        let mut added = alloc::vec![0u64; nodes.len()];
        for _ in 0..need {
            let pick = (0..nodes.len()).filter(|&i| live[i]).min_by(|&a, &b| {
                count[a]
                    .cmp(&count[b])
                    .then(cap[b].cmp(&cap[a]))
                    .then(a.cmp(&b))
            })?;
            added[pick] += 1;
            count[pick] += 1;
            cap[pick] -= 1;
            if cap[pick] == 0 || (limit > 0 && count[pick] >= limit) {
                live[pick] = false;
            }
        }
        Some(added)
    }

    /// DRAINED as worded: by capacity, smallest first, input order among equals, each
    /// filled in turn.
    pub fn drained(nodes: &[StrategyNode], need: u64) -> Option<Vec<Option<u64>>> {
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by_key(|&i| (nodes[i].capacity, i));
        let mut out = alloc::vec![None; nodes.len()];
        let mut left = need;
        for i in order {
            let take = nodes[i].capacity.saturating().min(left);
            if take > 0 {
                out[i] = Some(take);
                left -= take;
            }
        }
        (left == 0).then_some(out)
    }

    /// FILL as worded: by count, then capacity (most first), then input order; the first
    /// `limit` nodes able to reach `need` (`None`: too few).
    pub fn fill(nodes: &[StrategyNode], need: u64, limit: u64) -> Option<Vec<Option<u64>>> {
        let limit = if limit == 0 {
            nodes.len() as u64
        } else {
            limit
        };
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by_key(|&i| {
            (
                core::cmp::Reverse(nodes[i].count),
                core::cmp::Reverse(nodes[i].capacity),
                i,
            )
        });
        let mut out = alloc::vec![None; nodes.len()];
        let mut left = limit;
        for i in order {
            let n = &nodes[i];
            if left > 0
                && u128::from(n.count) + u128::from(n.capacity.saturating()) >= u128::from(need)
            {
                out[i] = Some(need.saturating_sub(n.count));
                left -= 1;
            }
        }
        (left == 0 && !nodes.is_empty()).then_some(out)
    }

    /// EACH as worded: by capacity (most first), then input order; the first `limit` nodes.
    pub fn each(nodes: &[StrategyNode], need: u64, limit: u64) -> Option<Vec<Option<u64>>> {
        let limit = if limit == 0 {
            nodes.len()
        } else {
            limit as usize
        };
        let mut order: Vec<usize> = (0..nodes.len()).collect();
        order.sort_by_key(|&i| (core::cmp::Reverse(nodes[i].capacity), i));
        let able = order
            .iter()
            .take_while(|&&i| nodes[i].capacity.saturating() >= need)
            .count();
        if able == 0 || able < limit {
            return None;
        }
        let mut out = alloc::vec![None; nodes.len()];
        for &i in order.iter().take(limit) {
            out[i] = Some(need);
        }
        Some(out)
    }

    pub fn global(nodes: &[StrategyNode], need: u64) -> Option<Vec<u64>> {
        let mut cap: Vec<u64> = nodes.iter().map(|n| n.capacity.saturating()).collect();
        let mut added = alloc::vec![0u64; nodes.len()];
        for _ in 0..need {
            let key = |i: usize| nodes[i].usage + ((added[i] + 1) as f64) * nodes[i].rate;
            let pick = (0..nodes.len())
                .filter(|&i| cap[i] > 0)
                .min_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)))?;
            added[pick] += 1;
            cap[pick] -= 1;
        }
        Some(added)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use proptest::prelude::{
        prop, prop_assert, prop_assert_eq, prop_assert_ne, proptest, Strategy as Gen,
    };

    fn nodes(spec: &[(u64, u64, u32, u32)]) -> Vec<StrategyNode> {
        spec.iter()
            .enumerate()
            .map(|(i, &(cap, count, usage, rate))| StrategyNode {
                name: format!("n{i}"),
                capacity: Capacity::Finite(cap),
                count,
                usage: f64::from(usage) / 100.0,
                rate: f64::from(rate) / 1000.0,
            })
            .collect()
    }

    fn run(ns: &[StrategyNode], strategy: Strategy, need: u64, limit: u64) -> Result<Vec<u64>> {
        deploy(
            ns,
            Ask {
                strategy,
                need: need as i64,
                nodes_limit: limit as i64,
                total: None,
            },
        )
        .map(|d| d.instances.iter().map(|n| n.unwrap_or(0)).collect())
    }

    /// GLOBAL in bulk over the nodes of `spec` gives what the one-at-a-time rule gives.
    fn global_is_the_rule(
        spec: &[(u64, u64, u32, u32)],
        need: u64,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let ns = nodes(spec);
        let got = run(&ns, Strategy::Global, need, 0).ok();
        prop_assert_eq!(got, reference::global(&ns, need));
        Ok(())
    }

    /// The node check as worded: the first node whose usage, then rate, is not a finite
    /// number >= 0 (its index and field), else Σ capacities as [`Capacity::sum`] adds them.
    fn check_as_worded(
        nodes: &[StrategyNode],
    ) -> core::result::Result<Capacity, (usize, &'static str)> {
        for (i, n) in nodes.iter().enumerate() {
            for (what, v) in [("usage", n.usage), ("rate", n.rate)] {
                if !(v.is_finite() && v >= 0.0) {
                    return Err((i, what));
                }
            }
        }
        Ok(Capacity::sum(nodes.iter().map(|n| n.capacity)))
    }

    /// Nodes with every kind of capacity and of ratio a check must tell apart.
    fn odd_nodes() -> impl Gen<Value = Vec<StrategyNode>> {
        let ratio = prop::sample::select(vec![
            0.0,
            -0.0,
            0.25,
            3.5,
            1e300,
            5e-324,
            -5e-324,
            -1.0,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ]);
        let capacity = proptest::prop_oneof![
            (0u64..20).prop_map(Capacity::Finite),
            (0u64..3).prop_map(|k| Capacity::Finite(u64::MAX - k)),
            proptest::strategy::Just(Capacity::Unlimited),
        ];
        let plain = prop::sample::select(vec![0.0, 0.25, 3.5, 5e-324]);
        let node = (
            capacity,
            proptest::prop_oneof![8 => plain.clone(), 1 => ratio.clone()],
            proptest::prop_oneof![8 => plain, 1 => ratio],
        );
        prop::collection::vec(node, 0..12).prop_map(|v| {
            v.into_iter()
                .enumerate()
                .map(|(i, (capacity, usage, rate))| StrategyNode {
                    name: format!("n{i}"),
                    capacity,
                    count: 0,
                    usage,
                    rate,
                })
                .collect()
        })
    }

    fn spec() -> impl Gen<Value = Vec<(u64, u64, u32, u32)>> {
        specs(1..9)
    }

    /// Nodes as [`nodes`] reads them (capacity, count, usage, rate), as many as `len` says.
    fn specs(len: core::ops::Range<usize>) -> impl Gen<Value = Vec<(u64, u64, u32, u32)>> {
        prop::collection::vec((0u64..12, 0u64..8, 0u32..300, 0u32..80), len)
    }

    proptest! {
        /// AUTO in bulk equals the one-at-a-time rule, keeps counts within one of each other
        /// among nodes that still had room, and honours capacities and the nodes limit.
        #[test]
        fn auto_equals_the_rule(spec in spec(), need in 1u64..60, limit in 0u64..10) {
            let ns = nodes(&spec);
            let reference = reference::auto(&ns, need, limit);
            let total: u64 = ns.iter().map(|n| n.capacity.saturating()).sum();
            match run(&ns, Strategy::Auto, need, limit) {
                Ok(got) => {
                    prop_assert_eq!(Some(got.clone()), reference);
                    prop_assert_eq!(got.iter().sum::<u64>(), need);
                    let finals: Vec<(u64, bool)> = ns.iter().zip(&got).map(|(n, &g)| {
                        let room = g < n.capacity.saturating() && (limit == 0 || n.count + g < limit);
                        prop_assert!(g <= n.capacity.saturating());
                        prop_assert!(limit == 0 || g == 0 || n.count + g <= limit);
                        Ok((n.count + g, room))
                    }).collect::<core::result::Result<_, _>>()?;
                    // Nodes that received and nodes that still have room differ by at most 1.
                    let lowest_open = finals.iter().filter(|f| f.1).map(|f| f.0).min();
                    for (n, (&g, f)) in ns.iter().zip(got.iter().zip(&finals)) {
                        if g > 0 {
                            if let Some(low) = lowest_open {
                                prop_assert!(f.0 <= low + 1, "{} got {g}", n.name);
                            }
                        }
                    }
                }
                Err(e) => {
                    prop_assert!(reference.is_none() || total < need);
                    prop_assert_eq!(e.code(), "insufficient_resource");
                }
            }
        }

        /// The tally (read node by node, branch-free) checks the nodes and sums their
        /// capacities as the check is worded, read before a strategy (AUTO) or within
        /// GLOBAL's own pass (a need small enough for its contenders, or not).
        #[test]
        fn the_tally_checks_as_worded(nodes in odd_nodes(), need in 1u64..4) {
            let want = check_as_worded(&nodes);
            let ask = Ask { strategy: Strategy::Auto, need: need as i64, nodes_limit: 0, total: None };
            let asked = check(&nodes, ask, &Paths::DEPLOY, Detail::Decision).unwrap();
            let got = asked.checked(&nodes, Tally::of(&nodes));
            match (&want, got) {
                (Ok(total), Ok(c)) => prop_assert_eq!(c.total, *total),
                (Err((i, what)), Err(e)) => {
                    prop_assert_eq!(e.code(), "invalid_usage");
                    prop_assert_eq!(e.field(), &indexed("nodes", *i).field(*what));
                }
                (w, g) => prop_assert!(false, "want {w:?}, got {:?}", g.map(|c| c.total)),
            }
            for strategy in [Strategy::Auto, Strategy::Global] {
                let d = deploy(&nodes, Ask { strategy, ..ask });
                if let Err((i, what)) = want {
                    let e = d.unwrap_err();
                    prop_assert_eq!(e.field(), &indexed("nodes", i).field(what));
                } else if let Err(e) = d {
                    prop_assert_ne!(e.code(), "invalid_usage");
                }
            }
        }

        /// GLOBAL in bulk equals the one-at-a-time rule.
        #[test]        /// GLOBAL in bulk equals the one-at-a-time rule.
        #[test]
        fn global_equals_the_rule(spec in spec(), need in 1u64..60) {
            global_is_the_rule(&spec, need)?;
        }

        /// GLOBAL over many nodes and a small need (only some nodes contend) equals the rule.
        #[test]
        fn global_with_few_contenders_equals_the_rule(
            spec in specs(1..60),
            need in 1u64..12,
        ) {
            global_is_the_rule(&spec, need)?;
        }

        /// DRAINED, FILL and EACH, selected rather than sorted, equal their rules as worded.
        #[test]
        fn drained_fill_and_each_equal_the_rule(
            spec in specs(0..40),
            need in 1u64..40,
            limit in 0u64..10,
        ) {
            let ns = nodes(&spec);
            let ask = |strategy, limit| Ask { strategy, need: need as i64, nodes_limit: limit as i64, total: None };
            let got = |strategy, limit| deploy(&ns, ask(strategy, limit)).ok().map(|d| d.instances);
            prop_assert_eq!(got(Strategy::Drained, 0), reference::drained(&ns, need));
            let fill = got(Strategy::Fill, limit);
            let want = reference::fill(&ns, need, limit)
                .filter(|m| m.iter().flatten().any(|&k| k > 0));
            prop_assert_eq!(fill, want);
            prop_assert_eq!(got(Strategy::Each, limit), reference::each(&ns, need, limit));
        }

        /// FILL and EACH use exactly `limit` nodes when they succeed, never above capacity.
        #[test]
        fn fill_and_each_honour_the_limit(spec in spec(), need in 1u64..10, limit in 1u64..6) {
            let ns = nodes(&spec);
            for s in [Strategy::Fill, Strategy::Each] {
                let Ok(d) = deploy(&ns, Ask { strategy: s, need: need as i64, nodes_limit: limit as i64, total: None }) else {
                    continue;
                };
                prop_assert_eq!(d.entries().count() as u64, limit);
                for (i, k) in d.entries() {
                    prop_assert!(k <= ns[i].capacity.saturating());
                    let want = if s == Strategy::Each { need } else { need.saturating_sub(ns[i].count) };
                    prop_assert_eq!(k, want);
                }
            }
        }
    }

    proptest! {
        // The reference hands out one instance at a time over every node: few cases.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

        /// GLOBAL over more nodes than its sample (the nodes narrowed to those within an
        /// estimated bound of the threshold) equals the rule.
        #[test]
        fn global_over_many_nodes_equals_the_rule(
            spec in specs(257..700),
            need in 1u64..2500,
        ) {
            global_is_the_rule(&spec, need)?;
        }
    }

    /// Every orchestration example of the design document (docs/rules/eru.md A), capacities 10.
    #[test]
    fn seed_examples() {
        let at = |counts: [u64; 3]| nodes(&counts.map(|c| (10, c, 0, 0)));
        let ask = |s, need, limit| Ask {
            strategy: s,
            need,
            nodes_limit: limit,
            total: None,
        };
        // Communism 1 and 2.
        assert_eq!(
            run(&at([0, 0, 0]), Strategy::Auto, 3, 0).unwrap(),
            [1, 1, 1]
        );
        assert_eq!(
            run(&at([5, 4, 0]), Strategy::Auto, 3, 0).unwrap(),
            [0, 0, 3]
        );
        // Fill 1-5 (explicit zeros for selected nodes already full, as eru).
        let fill = |counts, need, limit| deploy(&at(counts), ask(Strategy::Fill, need, limit));
        assert_eq!(
            fill([0, 0, 0], 1, 3).unwrap().instances,
            [Some(1), Some(1), Some(1)]
        );
        assert_eq!(
            fill([1, 0, 0], 1, 3).unwrap().instances,
            [Some(0), Some(1), Some(1)]
        );
        assert_eq!(fill([1, 1, 1], 1, 3).unwrap_err().code(), "already_filled");
        assert_eq!(
            fill([2, 2, 0], 1, 3).unwrap().instances,
            [Some(0), Some(0), Some(1)]
        );
        assert_eq!(
            fill([1, 1, 1], 2, 2).unwrap().instances,
            [Some(1), Some(1), None]
        );
        // Average 1.
        assert_eq!(
            run(&at([1, 0, 0]), Strategy::Each, 1, 3).unwrap(),
            [1, 1, 1]
        );
        // Global: usage {1%, 2%, 3%}, rate {0.4%, 0.6%, 1%}, 3 instances. The document says
        // node1 2 and node2 1; the rule gives node1 all 3, because node1's keys 1.4%, 1.8%
        // and 2.2% are all below node2's first, 2.6% (docs/rules/eru.md A4).
        let g = |name: &str, usage: f64, rate: f64| StrategyNode {
            name: name.into(),
            capacity: Capacity::Finite(10),
            count: 0,
            usage,
            rate,
        };
        let ns = vec![
            g("node1", 0.01, 0.004),
            g("node2", 0.02, 0.006),
            g("node3", 0.03, 0.01),
        ];
        assert_eq!(run(&ns, Strategy::Global, 3, 0).unwrap(), [3, 0, 0]);
    }

    /// GLOBAL's estimated bound falls short when the sampled nodes (every other one here) are
    /// not like the others: it is raised until it holds, and the answer is the rule's.
    #[test]
    fn global_raises_a_bound_the_sample_underestimates() {
        for (low, high) in [(0, 50), (50, 0), (0, 0)] {
            let spec: Vec<(u64, u64, u32, u32)> = (0..600)
                .map(|i| {
                    (
                        10,
                        0,
                        if i % 2 == 0 { low } else { high },
                        1 + (i % 3) as u32,
                    )
                })
                .collect();
            let ns = nodes(&spec);
            for need in [1, 300, 2000, 4000, 6000] {
                let got = run(&ns, Strategy::Global, need, 0).unwrap();
                assert_eq!(
                    Some(got),
                    reference::global(&ns, need),
                    "{low} {high} {need}"
                );
            }
        }
    }

    /// AUTO's remainder goes to the nodes with the most capacity left, an unlimited node
    /// before one with the largest finite capacity, then input order (keys packed with the
    /// largest capacities).
    #[test]
    fn auto_remainder_orders_the_largest_capacities() {
        let mut ns = nodes(&[(0, 3, 0, 0), (0, 3, 0, 0), (0, 3, 0, 0)]);
        ns[0].capacity = Capacity::Finite(u64::MAX - 1);
        ns[1].capacity = Capacity::Unlimited;
        ns[2].capacity = Capacity::Finite(u64::MAX - 1);
        assert_eq!(run(&ns, Strategy::Auto, 1, 0).unwrap(), [0, 1, 0]);
        assert_eq!(run(&ns, Strategy::Auto, 2, 0).unwrap(), [1, 1, 0]);
        assert_eq!(run(&ns, Strategy::Auto, 5, 0).unwrap(), [2, 2, 1]);
        assert_eq!(
            Some(run(&ns, Strategy::Auto, 5, 0).unwrap()),
            reference::auto(&ns, 5, 0)
        );
    }

    /// E2: FILL over no nodes cannot fill anything: insufficient_resource, as eru, not
    /// already_filled (every one of no nodes is trivially full).
    #[test]
    fn e2_fill_with_no_nodes_is_insufficient() {
        for limit in [0, 2] {
            let e = run(&[], Strategy::Fill, 1, limit).unwrap_err();
            assert_eq!(e.code(), "insufficient_resource", "limit {limit}");
        }
    }

    /// R3, a fixed accident (decision 5): FILL takes an unlimited node that already has
    /// instances (eru's `MaxInt + count` wraps below the need and skips it).
    #[test]
    fn r3_fill_takes_an_unlimited_node_with_instances() {
        let mut ns = nodes(&[(1, 0, 0, 0), (5, 0, 0, 0)]);
        ns[0].capacity = Capacity::Unlimited;
        ns[0].count = 2;
        assert_eq!(run(&ns, Strategy::Fill, 4, 1).unwrap(), [2, 0]);
    }

    /// O6: DRAINED's map holds only the nodes that get instances (eru's also lists the nodes
    /// it gives 0; the placement is the same).
    #[test]
    fn o6_drained_lists_only_nodes_given_instances() {
        let ns = nodes(&[(3, 0, 0, 0), (1, 0, 0, 0), (5, 0, 0, 0)]);
        let d = deploy(
            &ns,
            Ask {
                strategy: Strategy::Drained,
                need: 3,
                nodes_limit: 0,
                total: None,
            },
        )
        .unwrap();
        assert_eq!(d.instances, [Some(2), Some(1), None]);
    }

    /// A deploy explains itself only when asked, and decides the same either way.
    #[test]
    fn the_explanation_is_written_only_when_asked() {
        let ns = nodes(&[(3, 0, 10, 5), (2, 1, 20, 5), (4, 0, 30, 5)]);
        for strategy in [
            Strategy::Auto,
            Strategy::Fill,
            Strategy::Each,
            Strategy::Global,
            Strategy::Drained,
        ] {
            let ask = Ask {
                strategy,
                need: 2,
                nodes_limit: 1,
                total: None,
            };
            let decided = deploy(&ns, ask).unwrap();
            let explained = deploy_explained(&ns, ask).unwrap();
            assert!(decided.explanation.is_empty(), "{strategy:?}");
            assert!(explained.explanation.len() >= 2, "{strategy:?}");
            assert_eq!(decided.instances, explained.instances, "{strategy:?}");
        }
    }

    #[test]
    fn bad_input() {
        let ns = nodes(&[(1, 0, 0, 0)]);
        assert_eq!(
            run(&ns, Strategy::Auto, 0, 0).unwrap_err().code(),
            "invalid_count"
        );
        assert_eq!(
            Strategy::parse("RANDOM", "strategy").unwrap_err().code(),
            "invalid_strategy"
        );
        let mut bad = ns.clone();
        bad[0].usage = f64::NAN;
        let e = run(&bad, Strategy::Global, 1, 0).unwrap_err();
        assert_eq!(
            (e.code().as_str(), e.field().text().as_str()),
            ("invalid_usage", "nodes[0].usage")
        );
        bad[0].usage = -1.0;
        assert_eq!(
            run(&bad, Strategy::Auto, 1, 0).unwrap_err().code(),
            "invalid_usage"
        );
        let e = deploy(
            &ns,
            Ask {
                strategy: Strategy::Auto,
                need: 1,
                nodes_limit: -1,
                total: None,
            },
        )
        .unwrap_err();
        assert_eq!(e.code(), "negative");
        // Unlimited capacity stays unlimited in the total instead of overflowing.
        let un = vec![
            StrategyNode {
                name: "a".into(),
                capacity: Capacity::Unlimited,
                count: 0,
                usage: 0.0,
                rate: 0.0,
            },
            StrategyNode {
                name: "b".into(),
                capacity: Capacity::Finite(u64::MAX - 1),
                count: 0,
                usage: 0.0,
                rate: 0.0,
            },
        ];
        assert_eq!(
            run(&un, Strategy::Auto, 1 << 40, 0)
                .unwrap()
                .iter()
                .sum::<u64>(),
            1 << 40
        );
        assert_eq!(
            run(&un, Strategy::Global, 1 << 40, 0)
                .unwrap()
                .iter()
                .sum::<u64>(),
            1 << 40
        );
    }
}
