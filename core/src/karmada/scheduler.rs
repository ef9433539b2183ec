//! One scheduling cycle of a binding (docs/rules/karmada.md §12-15, then §0): for each
//! affinity term tried, the filter pass, the scores, the global order and the selection give
//! the candidates; the division (`pipeline`) assigns them replicas. When asked, the same pass
//! records the report: every plugin's verdict per cluster, the scores, the order, what
//! selection kept and why, and each term tried, with sentences that tell the story.

use crate::Name;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::affinity_terms::run_terms;
use super::binding::Binding;
use super::cluster::{Clusters, Member, Members};
use super::compiled::{Compiled, Judged};
use super::constraints::{Division, Rules, SpreadConstraint};
use super::filter::{self, BindingView, ClusterFilter, Required, Tolerations};
use super::plugins::PluginSet;
use super::score::{scores, Scores};
use super::select::{
    chosen_regions, global_order, multi_template, overflow_order, select_best, Candidate,
    RegionTrace, SelectPath, Selection, Swap,
};
use crate::error::{indexed, Error, ErrorCode, Path, Result};

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
    pub available_replicas: Option<i64>,
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
    b: Binding<'a>,
    /// The clusters, in listed order.
    members: Members<'a>,
    /// The clusters compiled for the filters.
    set: &'a Compiled<'a>,
    /// The set's distinct taints and API lists judged for the binding.
    judged: Judged,
    /// Each cluster's combined estimate (`alloc(c)`), in listed order.
    available: &'a [i64],
    plugins: PluginSet,
    spread: Vec<SpreadConstraint>,
    division: Division,
    engaged: bool,
    workload: bool,
    tolerations: Tolerations<'a>,
    /// Each cluster's replicas in the previous result, `None` when it is not there.
    previous: Vec<Option<u64>>,
    /// Whether each attempt writes its [`PipelineReport`].
    record: bool,
}

impl<'a> Context<'a> {
    /// Read and check the binding's scheduler fields. `available`: each cluster's combined
    /// estimate; `division`: what the strategy makes of spread constraints ([`Division::of`]);
    /// `record`: whether attempts write their report.
    pub fn new<'c: 'a>(
        b: Binding<'a>,
        clusters: &'a Clusters<'c>,
        available: &'a [i64],
        division: Division,
        record: bool,
    ) -> Result<Self> {
        let plugins = PluginSet::from_flag(b.plugins).map_err(|e| e.within(&"policy".into()))?;
        let tolerations = Tolerations::new(b.cluster_tolerations);
        let set = clusters.compiled();
        let ctx = Context {
            b,
            members: clusters.members(),
            set,
            judged: set.judge(&tolerations, resource(&b)),
            available,
            plugins,
            spread: b
                .spread_constraints
                .iter()
                .map(SpreadConstraint::defaulted)
                .collect(),
            division,
            engaged: b.engaged() || clusters.engaged(),
            tolerations,
            previous: previous_by_cluster(&b, clusters),
            workload: b.replicas.unwrap_or(0) > 0
                || b.has_requirements()
                || !b.components.is_empty(),
            record,
        };
        ctx.rules()
            .validate()
            .map_err(|e| e.within(&"policy".into()))?;
        ctx.check_tiers()?;
        Ok(ctx)
    }

    fn rules(&self) -> Rules<'_> {
        let b = &self.b;
        Rules {
            cluster_affinity: b.cluster_affinity,
            cluster_affinities: b.cluster_affinities,
            cluster_tolerations: b.cluster_tolerations,
            spread_constraints: &self.spread,
            division: self.division,
            version: b.version,
        }
    }

    /// Ordered terms compute each cluster's overflow tier; stating tiers too is a conflict.
    fn check_tiers(&self) -> Result<()> {
        if self.b.overflow && !self.b.version.overflow_affinities() {
            return Err(Error::Input {
                field: "policy.overflow".into(),
                code: ErrorCode::InvalidInput,
                reason: format!(
                    "overflow tiers came with Karmada 1.18; this scenario follows {}",
                    self.b.version
                ),
            });
        }
        if self.b.cluster_affinities.is_none() {
            return Ok(());
        }
        let conflict = |field: Path| Error::Input {
            field,
            code: ErrorCode::InvalidInput,
            reason: "overflow tiers come from policy.clusterAffinities; do not state them too"
                .into(),
        };
        if self.b.overflow {
            return Err(conflict("policy.overflow".into()));
        }
        let members = self.members;
        match members.iter().position(|t| t.overflow_order != 0) {
            Some(i) => Err(conflict(indexed("clusters", i).field("overflowOrder"))),
            None => Ok(()),
        }
    }

    /// The names of the ordered terms, when the policy has them (and no `clusterAffinity`).
    pub fn term_names(&self) -> Option<Vec<&'a str>> {
        if self.b.cluster_affinity.is_some() {
            return None;
        }
        self.b
            .cluster_affinities
            .map(|t| t.iter().map(|t| t.affinity_name.as_str()).collect())
    }

    /// Filter, score, order and (with [`Depth::Select`]) select, with `observed` as the
    /// observed term. The report (when recorded) is filled whatever happens; the error is a
    /// scheduling one.
    pub fn attempt(
        &self,
        observed: &str,
        depth: Depth,
    ) -> (Option<PipelineReport>, Result<Candidates>) {
        let b = &self.b;
        let members = self.members;
        let rules = self.rules();
        let required = Required::new(&rules, observed, self.workload, self.set);
        let binding = BindingView {
            resource: resource(b),
            workload: self.workload,
            evictions: b.graceful_evictions,
            observed,
            rules,
            tolerations: &self.tolerations,
            affinity: required.as_ref(),
            judged: &self.judged,
            groups: b.workload_groups,
        };
        let mut report = self.record.then(|| {
            let mut r = PipelineReport {
                observed_affinity: observed.into(),
                ordered: self.engaged,
                ..PipelineReport::default()
            };
            // One step per cluster, reserved at once: the steps are large, and growing the
            // list would copy them over and over (a tenth of a 10,000-cluster run).
            r.clusters.reserve_exact(members.len());
            r
        });
        let mut feasible: Vec<(usize, &Member)> = Vec::with_capacity(members.len());
        for (i, t) in members.iter().enumerate() {
            let Some(view) = self.set.view(i, self.placed(i)) else {
                continue;
            };
            let deleting = view.facts.deleting;
            let ok = match report.as_mut() {
                Some(r) => {
                    let f = filter::run(&self.plugins, &binding, &view, deleting);
                    let ok = f.feasible();
                    r.clusters.push(ClusterStep {
                        feasible: ok,
                        filter: f,
                        scores: None,
                        available_replicas: None,
                        overflow_order: None,
                        position: None,
                        selected: false,
                    });
                    ok
                }
                None if deleting => false,
                None => filter::first_failure(&self.plugins, &binding, &view).is_none(),
            };
            if ok {
                feasible.push((i, t));
            }
        }
        if let Some(r) = report.as_mut() {
            say_filtered(r);
        }
        // No cluster at all, in a binding that uses no scheduler field: the division says so
        // (`no_candidates`), as before these steps were modelled.
        if feasible.is_empty() && (self.engaged || !members.is_empty()) {
            let message = match &report {
                Some(r) => filter::fit_error_message(
                    members.len(),
                    r.clusters.iter().filter_map(|c| c.filter.reason.as_deref()),
                ),
                // Without a report, why Karmada turns each cluster away is asked again only
                // now that no cluster is left: a list of every cluster's failure, kept for
                // every binding, would cost each one an allocation the size of the set.
                None => {
                    let reasons: Vec<String> = (0..members.len())
                        .filter_map(|i| self.set.view(i, self.placed(i)))
                        .filter(|view| !view.facts.deleting)
                        .filter_map(|view| filter::first_failure(&self.plugins, &binding, &view))
                        .map(|f| f.reason())
                        .collect();
                    filter::fit_error_message(members.len(), reasons.iter().map(String::as_str))
                }
            };
            let e = Error::NoClusterFit {
                field: "clusters".into(),
                message,
            };
            return (report, Err(e));
        }
        let terms = b.cluster_affinities.is_some();
        let mut tiers = alloc::vec![0i64; members.len()];
        let candidates: Vec<Candidate<'_>> = feasible
            .iter()
            .map(|&(i, t)| {
                let prev = self.previous.get(i).copied().flatten();
                let sc = scores(&self.plugins, prev.is_some());
                let alloc = self.available.get(i).copied().unwrap_or(0);
                let avail = alloc.saturating_add(prev.unwrap_or(0) as i64);
                let tier = if terms {
                    overflow_order(&rules, observed, &t.facts())
                } else {
                    t.overflow_order.clamp(0, i64::from(u32::MAX)) as u32
                };
                if let Some(slot) = tiers.get_mut(i) {
                    *slot = i64::from(tier);
                }
                if let Some(step) = report.as_mut().and_then(|r| r.clusters.get_mut(i)) {
                    step.scores = Some(sc);
                    step.available_replicas = Some(avail);
                    step.overflow_order = Some(i64::from(tier));
                }
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
        let g: Vec<Candidate<'_>> = order
            .iter()
            .filter_map(|&k| candidates.get(k).copied())
            .collect();
        // Position k of G, as an index into the clusters.
        let cluster_at: Vec<usize> = order
            .iter()
            .filter_map(|&k| feasible.get(k).map(|&(i, _)| i))
            .collect();
        if let Some(r) = report.as_mut() {
            for (pos, &i) in cluster_at.iter().enumerate() {
                if let Some(step) = r.clusters.get_mut(i) {
                    step.position = Some(pos);
                }
            }
            r.order = g.iter().map(|c| Name::from(c.name)).collect();
            if self.engaged {
                r.explanation.push(format!(
                    "candidate order (overflow tier, score, available replicas, name): {}",
                    listed(r.order.iter().map(Name::as_str))
                ));
            }
        }
        let in_g = |k: &[usize]| -> Vec<usize> {
            k.iter()
                .filter_map(|&k| cluster_at.get(k).copied())
                .collect()
        };
        if depth == Depth::Filter {
            return (
                report,
                Ok(self.candidates(cluster_at.clone(), &tiers, terms, observed)),
            );
        }
        let replicas = b.replicas.unwrap_or(0).max(0) as u64;
        let need = if b.gates.multiple_pod_templates_scheduling
            && b.version.selects_one_set()
            && multi_template(b.components.len(), Some(&rules))
        {
            1
        } else {
            replicas
        };
        match select_best(&g, &rules, replicas, need) {
            Ok(sel) => {
                let c = self.candidates(in_g(&sel.chosen), &tiers, terms, observed);
                if let Some(r) = report.as_mut() {
                    for &(i, _) in &c.order {
                        if let Some(step) = r.clusters.get_mut(i) {
                            step.selected = true;
                        }
                    }
                    say_selection(r, &sel, &g, &rules);
                    r.selection = Some(SelectionReport {
                        path: sel.path,
                        candidates: c
                            .order
                            .iter()
                            .filter_map(|&(i, _)| members.get(i).map(|t| t.name.clone()))
                            .collect(),
                        swaps: sel.swaps,
                        regions: sel.regions,
                        spares: sel
                            .spares
                            .iter()
                            .filter_map(|&k| g.get(k).map(|c| Name::from(c.name)))
                            .collect(),
                    });
                }
                (report, Ok(c))
            }
            Err(e) => {
                if let Some(r) = report.as_mut() {
                    r.explanation
                        .push(format!("selection fails: {}", e.reason()));
                }
                (report, Err(e))
            }
        }
    }

    /// Whether the cluster at `i` is in the previous result.
    #[inline]
    fn placed(&self, i: usize) -> bool {
        self.previous.get(i).is_some_and(Option::is_some)
    }

    /// The candidates in candidate order: the selection's order (G without spread
    /// constraints), or the listed order when the binding uses no scheduler field. `chosen`:
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
                if let Some(k) = kept.get_mut(i) {
                    *k = true;
                }
            }
            (0..kept.len())
                .filter(|&i| kept.get(i).copied().unwrap_or(false))
                .collect()
        };
        let list: Vec<(usize, i64)> = chosen
            .into_iter()
            .map(|i| (i, tiers.get(i).copied().unwrap_or(0)))
            .collect();
        Candidates {
            order: list,
            overflow: if terms {
                self.rules().overflow(observed)
            } else {
                self.b.overflow
            },
        }
    }
}

/// `spec.resource.apiVersion` and `kind`, when the binding states either.
fn resource<'a>(b: &Binding<'a>) -> Option<(&'a str, &'a str)> {
    match (b.api_version, b.kind) {
        (Some(v), Some(k)) => Some((v, k)),
        (Some(v), None) => Some((v, "")),
        (None, Some(k)) => Some(("", k)),
        (None, None) => None,
    }
}

/// Each cluster's previous replicas (`None`: not in the previous result), found through the
/// clusters' name index rather than a search of the previous result per cluster.
fn previous_by_cluster(b: &Binding<'_>, clusters: &Clusters<'_>) -> Vec<Option<u64>> {
    let mut out = alloc::vec![None; clusters.len()];
    for (name, &r) in b.previous {
        if let Some(slot) = clusters.position(name).and_then(|i| out.get_mut(i)) {
            *slot = Some(r.max(0) as u64);
        }
    }
    out
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
        } else if let Some(reason) = &c.filter.reason {
            // The WorkloadAffinity pair, which has no verdict of its own (fleet.md §31.3).
            let plugin = filter::workload_affinity::plugin_of(reason).unwrap_or("filter");
            report
                .explanation
                .push(format!("{name} is out ({plugin}): {reason}"));
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
    let names = |idx: &[usize]| {
        let named: Vec<&str> = idx
            .iter()
            .filter_map(|&k| g.get(k))
            .map(|c| c.name)
            .collect();
        listed(named.into_iter())
    };
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
    for r in sel.regions.iter().filter(|r| r.chosen) {
        let Some((kept, over)) = r
            .clusters
            .split_first()
            .filter(|(_, over)| !over.is_empty())
        else {
            continue;
        };
        report.explanation.push(format!(
            "one cluster per region: in {}, {} is kept over {} (G order: score, then available \
             replicas)",
            r.name,
            kept,
            listed(over.iter().map(Name::as_str))
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

/// What one scheduling cycle leaves: the division's result, the observed affinity term
/// afterwards, and (when recorded) the report of the attempt that decided.
pub struct Cycle {
    pub result: Result<()>,
    /// `status.schedulerObservingAffinityName` afterwards.
    pub observed: String,
    pub report: Option<PipelineReport>,
}

/// The whole cycle: the terms tried in turn, each attempt's candidates divided by `divide`.
/// `divide` keeps what it makes of the winning candidates itself (one instantiation serves
/// every caller).
pub fn schedule(
    ctx: &Context<'_>,
    depth: Depth,
    divide: &mut dyn FnMut(&Candidates) -> Result<()>,
) -> Cycle {
    let names = ctx.term_names();
    let mut reports: BTreeMap<String, PipelineReport> = BTreeMap::new();
    let out = run_terms(
        names.as_deref(),
        ctx.b.observed_affinity,
        ctx.b.fresh && ctx.b.version.restarts_terms_on_reschedule(),
        |observed| {
            let (report, candidates) = ctx.attempt(observed, depth);
            if let Some(report) = report {
                reports.insert(observed.into(), report);
            }
            divide(&candidates?)
        },
    );
    if !ctx.record {
        return Cycle {
            result: out.result,
            observed: out.observed,
            report: None,
        };
    }
    // The report shown: the winning term's, else the first failure's (the one reported).
    let shown = match (&out.result, out.tried.first()) {
        (Ok(_), _) => out.observed.clone(),
        (Err(_), Some(first)) => first.affinity_name.clone(),
        (Err(_), None) => ctx.b.observed_affinity.into(),
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
    Cycle {
        result: out.result,
        observed: out.observed,
        report: Some(report),
    }
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
