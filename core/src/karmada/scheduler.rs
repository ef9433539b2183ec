//! One scheduling cycle of a scenario's binding (docs/rules/karmada.md §12-15, then §0): for
//! each affinity term tried, the filter pass, the scores, the global order and the selection
//! give the candidates; the division (`pipeline`) assigns them replicas. The report records
//! every plugin's verdict per cluster, the scores, the order, what selection kept and why, and
//! each term tried, with sentences that tell the story.

use crate::Name;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::affinity_terms::run_terms;
use super::constraints::{Division, Rules, SpreadConstraint};
use super::filter::{self, BindingView, ClusterFilter, Tolerations};
use super::plugins::PluginSet;
use super::score::{scores, Scores};
use super::select::{
    chosen_regions, global_order, multi_template, overflow_order, select_best, Candidate,
    RegionTrace, SelectPath, Selection, Swap,
};
use crate::error::{indexed, Error, ErrorCode, Path, Result};
use crate::scenario::outcome::TargetEstimate;
use crate::scenario::{Scenario, Target};

/// The candidates one attempt produced: indices into the scenario's clusters in candidate
/// order, each with its overflow tier, and whether overflow tiers are filled in turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    pub order: Vec<(usize, i64)>,
    pub overflow: bool,
}

/// One cluster through the steps before the division.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", serde(rename_all = "camelCase"))]
pub struct ClusterStep {
    #[cfg_attr(feature = "schema", serde(flatten))]
    pub filter: ClusterFilter,
    pub feasible: bool,
    /// The score plugins (feasible clusters only).
    pub scores: Option<Scores>,
    /// `avail = alloc + prev`, what selection compares (feasible clusters only).
    pub available_replicas: Option<u64>,
    /// The overflow tier (feasible clusters only).
    pub overflow_order: Option<i64>,
    /// Position in the global order G, from 0 (feasible clusters only).
    pub position: Option<usize>,
    /// Kept by selection: a candidate of the division.
    pub selected: bool,
}

/// The form `#[serde(flatten)]` of the filter gives, written as one struct: serde writes a
/// flattened struct as a map, key by key, which is slower for 10,000 clusters.
impl Serialize for ClusterStep {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let f = &self.filter;
        let mut out = s.serialize_struct("ClusterStep", 10)?;
        out.serialize_field("cluster", &f.cluster)?;
        out.serialize_field("deleting", &f.deleting)?;
        out.serialize_field("verdicts", &f.verdicts)?;
        out.serialize_field("reason", &f.reason)?;
        out.serialize_field("feasible", &self.feasible)?;
        out.serialize_field("scores", &self.scores)?;
        out.serialize_field("availableReplicas", &self.available_replicas)?;
        out.serialize_field("overflowOrder", &self.overflow_order)?;
        out.serialize_field("position", &self.position)?;
        out.serialize_field("selected", &self.selected)?;
        out.end()
    }
}

/// What selection did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SelectionReport {
    pub path: SelectPath,
    /// The candidates, in candidate order.
    pub candidates: Vec<Name>,
    pub swaps: Vec<Swap>,
    pub regions: Vec<RegionTrace>,
    /// Clusters added on the region path beyond one per region.
    pub spares: Vec<Name>,
}

/// One affinity term tried.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TermReport {
    pub affinity_name: String,
    /// Why it did not schedule; absent: it did.
    pub error: Option<Error>,
}

/// The steps before the division, for the attempt that decided.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PipelineReport {
    /// Every listed cluster, in listed order.
    pub clusters: Vec<ClusterStep>,
    /// The feasible clusters in the global order G.
    pub order: Vec<Name>,
    pub selection: Option<SelectionReport>,
    /// Each affinity term tried, in order (empty without `clusterAffinities`).
    pub terms: Vec<TermReport>,
    /// The observed affinity term afterwards (`status.schedulerObservingAffinityName`).
    pub observed_affinity: String,
    /// Whether the candidates are taken in the global order. `false`: the scenario uses none
    /// of the scheduler's fields, so its clusters are the candidates in the listed order.
    pub ordered: bool,
    /// What stopped scheduling (`filter` and `select` report it here instead of failing).
    pub error: Option<Error>,
    pub explanation: Vec<String>,
}

/// How far [`run`] goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Filter and score only.
    Filter,
    /// Through selection.
    Select,
}

/// What every attempt shares.
pub struct Context<'a> {
    s: &'a Scenario,
    targets: &'a [Target],
    estimates: &'a [TargetEstimate],
    plugins: PluginSet,
    spread: Vec<SpreadConstraint>,
    division: Division,
    engaged: bool,
    workload: bool,
    tolerations: Tolerations<'a>,
    /// Each cluster's replicas in the previous result, `None` when it is not there.
    previous: Vec<Option<u64>>,
}

impl<'a> Context<'a> {
    /// Read and check the scenario's scheduler fields. `division`: what the strategy makes
    /// of spread constraints ([`Division::of`]).
    pub fn new(
        s: &'a Scenario,
        targets: &'a [Target],
        estimates: &'a [TargetEstimate],
        division: Division,
    ) -> Result<Self> {
        let p = &s.policy;
        let plugins =
            PluginSet::from_flag(p.plugins.as_deref()).map_err(|e| e.within(&"policy".into()))?;
        let w = &s.workload;
        let ctx = Context {
            s,
            targets,
            estimates,
            plugins,
            spread: p
                .spread_constraints
                .iter()
                .map(SpreadConstraint::defaulted)
                .collect(),
            division,
            engaged: engaged(s, targets),
            tolerations: Tolerations::new(&p.cluster_tolerations),
            previous: previous_by_cluster(s, targets),
            workload: w.replicas.unwrap_or(0) > 0
                || w.requests.is_some()
                || !w.components.is_empty(),
        };
        ctx.rules()
            .validate()
            .map_err(|e| e.within(&"policy".into()))?;
        ctx.check_tiers()?;
        Ok(ctx)
    }

    fn rules(&self) -> Rules<'_> {
        let p = &self.s.policy;
        Rules {
            cluster_affinity: p.cluster_affinity.as_ref(),
            cluster_affinities: p.cluster_affinities.as_deref(),
            cluster_tolerations: &p.cluster_tolerations,
            spread_constraints: &self.spread,
            division: self.division,
        }
    }

    /// Ordered terms compute each cluster's overflow tier; stating tiers too is a conflict.
    fn check_tiers(&self) -> Result<()> {
        if self.s.policy.cluster_affinities.is_none() {
            return Ok(());
        }
        let conflict = |field: Path| Error::Input {
            field,
            code: ErrorCode::InvalidInput,
            reason: "overflow tiers come from policy.clusterAffinities; do not state them too"
                .into(),
        };
        if self.s.policy.overflow {
            return Err(conflict("policy.overflow".into()));
        }
        match self.targets.iter().position(|t| t.overflow_order != 0) {
            Some(i) => Err(conflict(indexed("clusters", i).field("overflowOrder"))),
            None => Ok(()),
        }
    }

    /// The names of the ordered terms, when the policy has them (and no `clusterAffinity`).
    pub fn term_names(&self) -> Option<Vec<&'a str>> {
        let p = &self.s.policy;
        if p.cluster_affinity.is_some() {
            return None;
        }
        p.cluster_affinities
            .as_ref()
            .map(|t| t.iter().map(|t| t.affinity_name.as_str()).collect())
    }

    /// Filter, score, order and (with [`Depth::Select`]) select, with `observed` as the
    /// observed term. The report is filled whatever happens; the error is a scheduling one.
    pub fn attempt(&self, observed: &str, depth: Depth) -> (PipelineReport, Result<Candidates>) {
        let s = self.s;
        let rules = self.rules();
        let binding = BindingView {
            resource: match (&s.workload.api_version, &s.workload.kind) {
                (Some(v), Some(k)) => Some((v.as_str(), k.as_str())),
                (Some(v), None) => Some((v.as_str(), "")),
                (None, Some(k)) => Some(("", k.as_str())),
                (None, None) => None,
            },
            workload: self.workload,
            evictions: &s.graceful_evictions,
            observed,
            rules,
            tolerations: &self.tolerations,
        };
        let mut report = PipelineReport {
            observed_affinity: observed.into(),
            ordered: self.engaged,
            ..PipelineReport::default()
        };
        // One step per cluster, reserved at once: the steps are large, and growing the list
        // would copy them over and over (a tenth of a 10,000-cluster run).
        report.clusters.reserve_exact(self.targets.len());
        let mut feasible = Vec::with_capacity(self.targets.len());
        for (i, t) in self.targets.iter().enumerate() {
            let view = t.view(self.previous[i].is_some());
            let f = filter::run(&self.plugins, &binding, &view, t.deleting);
            let ok = f.feasible();
            if ok {
                feasible.push(i);
            }
            report.clusters.push(ClusterStep {
                feasible: ok,
                filter: f,
                scores: None,
                available_replicas: None,
                overflow_order: None,
                position: None,
                selected: false,
            });
        }
        say_filtered(&mut report);
        // No cluster at all, in a scenario that uses no scheduler field: the division says so
        // (`no_candidates`), as before these steps were modelled.
        if feasible.is_empty() && (self.engaged || !self.targets.is_empty()) {
            let reasons = report
                .clusters
                .iter()
                .filter_map(|c| c.filter.reason.as_deref());
            let e = Error::NoClusterFit {
                field: "clusters".into(),
                message: filter::fit_error_message(self.targets.len(), reasons),
            };
            return (report, Err(e));
        }
        let terms = s.policy.cluster_affinities.is_some();
        let mut tiers = alloc::vec![0i64; self.targets.len()];
        let candidates: Vec<Candidate<'_>> = feasible
            .iter()
            .map(|&i| {
                let t = &self.targets[i];
                let sc = scores(&self.plugins, self.previous[i].is_some());
                let prev = self.previous[i].unwrap_or(0);
                let avail = self.estimates[i].available_replicas.saturating_add(prev);
                let tier = if terms {
                    overflow_order(&rules, observed, &t.facts())
                } else {
                    t.overflow_order.clamp(0, i64::from(u32::MAX)) as u32
                };
                tiers[i] = i64::from(tier);
                let step = &mut report.clusters[i];
                step.scores = Some(sc);
                step.available_replicas = Some(avail);
                step.overflow_order = Some(i64::from(tier));
                Candidate {
                    name: &t.name,
                    provider: &t.provider,
                    region: &t.region,
                    zones: &t.zones,
                    score: sc.total,
                    avail,
                    overflow_order: tier,
                }
            })
            .collect();
        let order = global_order(&candidates, true);
        let g: Vec<Candidate<'_>> = order.iter().map(|&k| candidates[k]).collect();
        for (pos, &k) in order.iter().enumerate() {
            report.clusters[feasible[k]].position = Some(pos);
        }
        report.order = g.iter().map(|c| Name::from(c.name)).collect();
        if self.engaged {
            report.explanation.push(format!(
                "candidate order (overflow tier, score, available replicas, name): {}",
                listed(report.order.iter().map(Name::as_str))
            ));
        }
        let in_g = |k: &[usize]| -> Vec<usize> { k.iter().map(|&k| feasible[order[k]]).collect() };
        if depth == Depth::Filter {
            let all: Vec<usize> = (0..g.len()).collect();
            return (
                report,
                Ok(self.candidates(in_g(&all), &tiers, terms, observed)),
            );
        }
        let replicas = s.workload.replicas.unwrap_or(0).max(0) as u64;
        let need = if s.policy.gates.multiple_pod_templates_scheduling
            && multi_template(s.workload.components.len(), Some(&rules))
        {
            1
        } else {
            replicas
        };
        match select_best(&g, &rules, replicas, need) {
            Ok(sel) => {
                let c = self.candidates(in_g(&sel.chosen), &tiers, terms, observed);
                for &(i, _) in &c.order {
                    report.clusters[i].selected = true;
                }
                say_selection(&mut report, &sel, &g, &rules);
                report.selection = Some(SelectionReport {
                    path: sel.path,
                    candidates: c
                        .order
                        .iter()
                        .map(|&(i, _)| self.targets[i].name.clone())
                        .collect(),
                    swaps: sel.swaps,
                    regions: sel.regions,
                    spares: sel.spares.iter().map(|&k| Name::from(g[k].name)).collect(),
                });
                (report, Ok(c))
            }
            Err(e) => {
                report
                    .explanation
                    .push(format!("selection fails: {}", e.reason()));
                (report, Err(e))
            }
        }
    }

    /// The candidates in candidate order: the selection's order (G without spread
    /// constraints), or the listed order when the scenario uses no scheduler field. `chosen`:
    /// cluster indices; `tiers`: each cluster's overflow tier.
    fn candidates(
        &self,
        chosen: Vec<usize>,
        tiers: &[i64],
        terms: bool,
        observed: &str,
    ) -> Candidates {
        let chosen = if self.engaged {
            chosen
        } else {
            // The listed order: the chosen clusters marked, then read in list order.
            let mut kept = alloc::vec![false; tiers.len()];
            for &i in &chosen {
                kept[i] = true;
            }
            (0..kept.len()).filter(|&i| kept[i]).collect()
        };
        let list: Vec<(usize, i64)> = chosen.into_iter().map(|i| (i, tiers[i])).collect();
        Candidates {
            order: list,
            overflow: if terms {
                self.rules().overflow(observed)
            } else {
                self.s.policy.overflow
            },
        }
    }
}

/// Each cluster's previous replicas (`None`: not in the previous result), found through one
/// index of the clusters' names rather than a search of the previous result per cluster.
fn previous_by_cluster(s: &Scenario, targets: &[Target]) -> Vec<Option<u64>> {
    let mut out = alloc::vec![None; targets.len()];
    if s.previous.is_empty() {
        return out;
    }
    let index = crate::names::NameIndex::new(targets.iter().map(|t| t.name.as_str()));
    for (name, &r) in &s.previous {
        if let Some(i) = index.get(name) {
            out[i] = Some(r.max(0) as u64);
        }
    }
    out
}

/// Whether the scenario uses any field of the steps before the division. Without one, its
/// clusters are the candidates in the order listed, as in scenarios written before these
/// steps existed.
fn engaged(s: &Scenario, targets: &[Target]) -> bool {
    let p = &s.policy;
    p.cluster_affinity.is_some()
        || p.cluster_affinities.is_some()
        || !p.cluster_tolerations.is_empty()
        || !p.spread_constraints.is_empty()
        || p.plugins.is_some()
        || !s.observed_affinity.is_empty()
        || !s.graceful_evictions.is_empty()
        || s.workload.api_version.is_some()
        || s.workload.kind.is_some()
        || targets.iter().any(|t| {
            !t.taints.is_empty()
                || !t.api_enablements.is_empty()
                || t.complete_api_enablements.is_some()
                || t.deleting
        })
}

/// Names for a sentence: the first [`LISTED`], then how many more (the report has them all).
fn listed<'n>(names: impl ExactSizeIterator<Item = &'n str>) -> String {
    let more = names.len().saturating_sub(LISTED);
    let mut text = names.take(LISTED).collect::<Vec<_>>().join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

/// How many names a sentence lists.
const LISTED: usize = 20;

fn say_filtered(report: &mut PipelineReport) {
    for c in &report.clusters {
        let name = &c.filter.cluster;
        if c.filter.deleting {
            report
                .explanation
                .push(format!("{name} is being deleted: it is not a candidate"));
        } else if let Some((plugin, reason)) = c.filter.failed() {
            report.explanation.push(format!(
                "{name} is out ({}): {}",
                plugin.name(),
                short(reason)
            ));
        }
    }
}

/// Karmada's reason without its `cluster(s) ` prefix, for sentences and narrow cells
/// (`untolerated taint dedicated=gpu:NoSchedule`).
pub fn short(reason: &str) -> String {
    let r = reason.strip_prefix("cluster(s) ").unwrap_or(reason);
    match r.strip_prefix("had untolerated taint {") {
        Some(t) => format!("untolerated taint {}", t.trim_end_matches('}')),
        None => r.into(),
    }
}

fn say_selection(
    report: &mut PipelineReport,
    sel: &Selection,
    g: &[Candidate<'_>],
    rules: &Rules<'_>,
) {
    let names = |idx: &[usize]| listed(idx.iter().map(|&k| g[k].name));
    let line = match sel.path {
        SelectPath::All if !rules.spread_constraints.is_empty() => {
            "static weights see every feasible cluster: the spread constraints do not select".into()
        }
        SelectPath::All => "every feasible cluster is a candidate".into(),
        SelectPath::Cluster => format!(
            "spread by cluster: {} of {} feasible clusters kept: {}",
            sel.chosen.len(),
            g.len(),
            names(&sel.chosen)
        ),
        SelectPath::Region => {
            let chosen: Vec<&str> = chosen_regions(&sel.regions).collect();
            format!(
                "spread by region: regions {} chosen, their best clusters kept: {}",
                chosen.join(", "),
                names(&sel.chosen)
            )
        }
    };
    report.explanation.push(line);
    for r in sel
        .regions
        .iter()
        .filter(|r| r.chosen && r.clusters.len() > 1)
    {
        report.explanation.push(format!(
            "one cluster per region: in {}, {} is kept over {} (G order: score, then available \
             replicas)",
            r.name,
            r.clusters[0],
            listed(r.clusters[1..].iter().map(Name::as_str))
        ));
    }
    if !sel.spares.is_empty() {
        report.explanation.push(format!(
            "spares up to the cluster constraint's maxGroups: {}",
            names(&sel.spares)
        ));
    }
    for sw in &sel.swaps {
        report.explanation.push(format!(
            "{} replaced {}, which had fewer available replicas",
            sw.added, sw.removed
        ));
    }
}

/// The whole cycle: the terms tried in turn, each attempt's candidates divided by `divide`.
/// Returns the division's result and the report of the attempt that decided.
/// `divide` keeps what it makes of the winning candidates itself (one instantiation serves
/// every caller).
pub fn schedule(
    ctx: &Context<'_>,
    depth: Depth,
    divide: &mut dyn FnMut(&Candidates) -> Result<()>,
) -> (Result<()>, PipelineReport) {
    let names = ctx.term_names();
    let mut reports: BTreeMap<String, PipelineReport> = BTreeMap::new();
    let out = run_terms(
        names.as_deref(),
        &ctx.s.observed_affinity,
        ctx.s.policy.fresh,
        |observed| {
            let (report, candidates) = ctx.attempt(observed, depth);
            reports.insert(observed.into(), report);
            divide(&candidates?)
        },
    );
    // The report shown: the winning term's, else the first failure's (the one reported).
    let shown = match (&out.result, out.tried.first()) {
        (Ok(_), _) => out.observed.clone(),
        (Err(_), Some(first)) => first.affinity_name.clone(),
        (Err(_), None) => ctx.s.observed_affinity.clone(),
    };
    let mut report = reports.remove(&shown).unwrap_or_default();
    report.observed_affinity = out.observed.clone();
    report.terms = out
        .tried
        .iter()
        .map(|a| TermReport {
            affinity_name: a.affinity_name.clone(),
            error: a.error.clone(),
        })
        .collect();
    for t in &report.terms {
        report.explanation.push(match &t.error {
            None => format!("affinity term {} schedules", t.affinity_name),
            Some(e) => format!("affinity term {} fails: {}", t.affinity_name, e.reason()),
        });
    }
    (out.result, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::karmada::filter::{PluginVerdict, Verdict};
    use crate::karmada::plugins::Plugin;

    /// The filter's fields first, as `#[serde(flatten)]` would write them, then the step's own.
    #[test]
    fn a_cluster_step_is_written_as_its_flattened_form() {
        let verdicts = Plugin::FILTERS.map(|plugin| PluginVerdict {
            plugin,
            verdict: Verdict::Passed,
        });
        let filter = ClusterFilter {
            cluster: "member1".into(),
            deleting: false,
            verdicts,
            reason: None,
        };
        let step = ClusterStep {
            filter: filter.clone(),
            feasible: true,
            scores: Some(Scores::default()),
            available_replicas: Some(7),
            overflow_order: None,
            position: Some(2),
            selected: true,
        };
        let written = crate::json::to_json(&step).unwrap();
        let filter = crate::json::to_json(&filter).unwrap();
        let scores = crate::json::to_json(&Scores::default()).unwrap();
        let expected = format!(
            "{},\"feasible\":true,\"scores\":{scores},\"availableReplicas\":7,\
             \"overflowOrder\":null,\"position\":2,\"selected\":true}}",
            &filter[..filter.len() - 1]
        );
        assert_eq!(written, expected);
    }
}
