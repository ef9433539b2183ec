//! One scheduling cycle of a binding (docs/rules/karmada.md §12-15, then §0), in the steps of
//! Karmada's `genericScheduler.Schedule`: `findClustersThatFit` (the filter pass),
//! `prioritizeClusters` (the scores), `selectClusters` (the global order, then the selection)
//! and `assignReplicas` (the division, [`super::pipeline`]), over each affinity term tried.
//! Each step returns what it found; the report ([`report`]), when asked for, is written from
//! those results beside the steps, so the decision alone runs the same steps without it.

mod report;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::affinity_terms::run_terms;
use super::binding::Binding;
use super::cluster::{Clusters, Member, Members};
use super::compiled::{Compiled, Judged};
use super::constraints::{Division, Rules, SpreadConstraint};
use super::filter::{self, BindingView, ClusterFilter, Required, Tolerations};
use super::plugins::{Plugin, PluginSet};
use super::score::{scores, Scores};
use super::select::{
    global_order, multi_template, overflow_order, select_best, Candidate, Selection,
};
use crate::error::{indexed, Error, ErrorCode, Path, Result};

pub use report::{short, ClusterStep, PipelineReport, SelectionReport, TermReport};

/// The candidates one attempt produced: indices into the scenario's clusters in candidate
/// order, each with its overflow tier, and whether overflow tiers are filled in turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidates {
    pub order: Vec<(usize, i64)>,
    pub overflow: bool,
}

/// What `findClustersThatFit` found.
struct Fit<'m> {
    /// The feasible clusters in listed order: each one's index and member.
    feasible: Vec<(usize, &'m Member)>,
    /// Every cluster's filter result, with each plugin's verdict (Karmada's diagnosis), when
    /// a report is asked for.
    diagnosis: Option<Vec<ClusterFilter>>,
}

/// The feasible clusters in the global order G (the sort that opens `selectClusters`).
struct Ordered<'a> {
    /// Each one's candidate: its score, `avail` and overflow tier.
    candidates: Vec<Candidate<'a>>,
    /// Each one's index into the clusters.
    clusters: Vec<usize>,
}

impl Ordered<'_> {
    /// The clusters at positions `k` of G, each with its tier.
    fn at(&self, k: &[usize]) -> Vec<(usize, i64)> {
        k.iter().filter_map(|&k| self.tiered(k)).collect()
    }

    /// Every cluster of G, each with its tier.
    fn all(&self) -> Vec<(usize, i64)> {
        (0..self.clusters.len())
            .filter_map(|k| self.tiered(k))
            .collect()
    }

    fn tiered(&self, k: usize) -> Option<(usize, i64)> {
        let i = *self.clusters.get(k)?;
        let c = self.candidates.get(k)?;
        Some((i, i64::from(c.overflow_order)))
    }
}

/// How far [`Context::attempt`] goes.
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
    /// The clusters of the previous result (positions, ascending) with their replicas.
    previous: Vec<(usize, u64)>,
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
        let plugins = PluginSet::from_flag(b.plugins)?;
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
        ctx.rules().validate()?;
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
                field: "overflow".into(),
                code: ErrorCode::InvalidInput,
                reason: format!(
                    "overflow tiers came with Karmada 1.18; the release followed is {}",
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
            reason: "overflow tiers come from clusterAffinities; do not state them too".into(),
        };
        if self.b.overflow {
            return Err(conflict("overflow".into()));
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

    /// One attempt with `observed` as the observed term: `findClustersThatFit`,
    /// `prioritizeClusters`, the global order and (with [`Depth::Select`]) `selectClusters`.
    /// The report (when recorded) is written whatever happens; the error is a scheduling one.
    pub fn attempt(
        &self,
        observed: &str,
        depth: Depth,
    ) -> (Option<PipelineReport>, Result<Candidates>) {
        let rules = self.rules();
        let required = Required::new(&rules, observed, self.workload, self.set);
        let binding = BindingView {
            resource: resource(&self.b),
            workload: self.workload,
            evictions: self.b.graceful_evictions,
            observed,
            rules,
            tolerations: &self.tolerations,
            affinity: required.as_ref(),
            judged: &self.judged,
            groups: self.b.workload_groups,
        };
        let fit = self.find_clusters_that_fit(&binding);
        // No cluster at all, in a binding that uses no scheduler field: the division says so
        // (`no_candidates`), as before these steps were modelled.
        let unfit = (fit.feasible.is_empty() && (self.engaged || !self.members.is_empty()))
            .then(|| self.fit_error(&binding, &fit));
        let mut report = fit
            .diagnosis
            .map(|d| PipelineReport::fit(observed, self.engaged, d));
        if let Some(e) = unfit {
            return (report, Err(e));
        }
        let g = order(
            self.prioritize_clusters(&fit.feasible, &rules, observed),
            &fit.feasible,
        );
        if let Some(r) = report.as_mut() {
            r.ordered(&g, |i| self.scores_of(i));
        }
        if depth == Depth::Filter {
            return (report, Ok(self.candidates(g.all(), observed)));
        }
        match self.select_clusters(&g.candidates, &rules) {
            Ok(sel) => {
                let c = self.candidates(g.at(&sel.chosen), observed);
                if let Some(r) = report.as_mut() {
                    r.selected(sel, &c, &g.candidates, &rules, self.members);
                }
                (report, Ok(c))
            }
            Err(e) => {
                if let Some(r) = report.as_mut() {
                    r.unselected(&e);
                }
                (report, Err(e))
            }
        }
    }

    /// `findClustersThatFit`: the filter plugins on every cluster not being deleted. With a
    /// report, every plugin's verdict on every cluster; without, each cluster's first failure
    /// alone, and no diagnosis.
    fn find_clusters_that_fit(&self, binding: &BindingView<'_>) -> Fit<'a> {
        let members = self.members;
        let mut diagnosis = self.record.then(|| Vec::with_capacity(members.len()));
        // Without a diagnosis, a cluster the affinity cannot match fails its filter whatever
        // the others say: only those it can match are read (§12.5), in listed order.
        let narrowed = match (&diagnosis, binding.affinity) {
            (None, Some(r)) if self.plugins.enabled(Plugin::ClusterAffinity) => {
                r.candidates(self.set)
            }
            _ => None,
        };
        let read = narrowed.as_ref().map_or(members.len(), Vec::len);
        let mut feasible: Vec<(usize, &Member)> = Vec::with_capacity(read);
        let mut visit = |i: usize| {
            let Some((t, view)) = members.get(i).zip(self.set.view(i, self.placed(i))) else {
                return;
            };
            let deleting = view.facts.deleting;
            let ok = match diagnosis.as_mut() {
                Some(d) => {
                    let f = filter::run(&self.plugins, binding, &view, deleting);
                    let ok = f.feasible();
                    d.push(f);
                    ok
                }
                None if deleting => false,
                None => filter::first_failure(&self.plugins, binding, &view).is_none(),
            };
            if ok {
                feasible.push((i, t));
            }
        };
        match narrowed {
            Some(clusters) => clusters.iter().for_each(|&i| visit(i as usize)),
            None => (0..members.len()).for_each(visit),
        }
        Fit {
            feasible,
            diagnosis,
        }
    }

    /// Karmada's FitError when no cluster fits, from the diagnosis.
    fn fit_error(&self, binding: &BindingView<'_>, fit: &Fit<'_>) -> Error {
        let listed = self.members.len();
        let message = match &fit.diagnosis {
            Some(d) => {
                filter::fit_error_message(listed, d.iter().filter_map(|f| f.reason.as_deref()))
            }
            // Without a diagnosis, why Karmada turns each cluster away is asked again only
            // now that no cluster is left: a list of every cluster's failure, kept for every
            // binding, would cost each one an allocation the size of the set.
            None => {
                let reasons: Vec<String> = (0..listed)
                    .filter_map(|i| self.set.view(i, self.placed(i)))
                    .filter(|view| !view.facts.deleting)
                    .filter_map(|view| filter::first_failure(&self.plugins, binding, &view))
                    .map(|f| f.reason())
                    .collect();
                filter::fit_error_message(listed, reasons.iter().map(String::as_str))
            }
        };
        Error::NoClusterFit {
            field: "clusters".into(),
            message,
        }
    }

    /// `prioritizeClusters`: each feasible cluster's candidate, its score the score plugins'
    /// total, with what selection compares besides: `avail = alloc + prev` and the overflow
    /// tier.
    fn prioritize_clusters(
        &self,
        feasible: &[(usize, &'a Member)],
        rules: &Rules<'_>,
        observed: &str,
    ) -> Vec<Candidate<'a>> {
        let terms = self.b.cluster_affinities.is_some();
        feasible
            .iter()
            .map(|&(i, t)| {
                let prev = self.previous(i);
                let alloc = self.available.get(i).copied().unwrap_or(0);
                Candidate {
                    name: &t.name,
                    provider: &t.provider,
                    region: &t.region,
                    zones: &t.zones,
                    score: self.scores_of(i).total,
                    avail: alloc.saturating_add(prev.unwrap_or(0) as i64),
                    overflow_order: if terms {
                        overflow_order(rules, observed, &t.facts())
                    } else {
                        t.overflow_order.clamp(0, i64::from(u32::MAX)) as u32
                    },
                }
            })
            .collect()
    }

    /// The score plugins on the cluster at `i`.
    fn scores_of(&self, i: usize) -> Scores {
        scores(&self.plugins, self.placed(i))
    }

    /// `selectClusters` after the global order: the candidates kept from G (`g`) by the
    /// spread constraints.
    fn select_clusters(&self, g: &[Candidate<'_>], rules: &Rules<'_>) -> Result<Selection> {
        let b = &self.b;
        let replicas = b.replicas.unwrap_or(0).max(0) as u64;
        let need = if b.gates.multiple_pod_templates_scheduling
            && b.version.selects_one_set()
            && multi_template(b.components.len(), Some(rules))
        {
            1
        } else {
            replicas
        };
        select_best(g, rules, replicas, need)
    }

    /// Whether the cluster at `i` is in the previous result.
    #[inline]
    fn placed(&self, i: usize) -> bool {
        self.previous(i).is_some()
    }

    /// The replicas of the cluster at `i` in the previous result, when it is there.
    #[inline]
    fn previous(&self, i: usize) -> Option<u64> {
        let k = self.previous.binary_search_by_key(&i, |&(c, _)| c).ok()?;
        self.previous.get(k).map(|&(_, r)| r)
    }

    /// The candidates in candidate order: the selection's order (G without spread
    /// constraints), or the listed order when the binding uses no scheduler field. `chosen`:
    /// cluster indices, each with its overflow tier.
    fn candidates(&self, mut chosen: Vec<(usize, i64)>, observed: &str) -> Candidates {
        if !self.engaged {
            chosen.sort_unstable_by_key(|&(i, _)| i);
            chosen.dedup_by_key(|&mut (i, _)| i);
        }
        Candidates {
            order: chosen,
            overflow: if self.b.cluster_affinities.is_some() {
                self.rules().overflow(observed)
            } else {
                self.b.overflow
            },
        }
    }
}

/// The global order G of the feasible clusters (`feasible`, each one's candidate in
/// `candidates`): overflow tier, score, `avail`, name.
fn order<'a>(candidates: Vec<Candidate<'a>>, feasible: &[(usize, &Member)]) -> Ordered<'a> {
    let order = global_order(&candidates, true);
    Ordered {
        clusters: order
            .iter()
            .filter_map(|&k| feasible.get(k).map(|&(i, _)| i))
            .collect(),
        candidates: order
            .iter()
            .filter_map(|&k| candidates.get(k).copied())
            .collect(),
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

/// The previous result's clusters (positions, ascending) with their replicas, found through
/// the clusters' name index: a few entries, where one per cluster of the set would be
/// allocated and cleared for every binding scheduled.
fn previous_by_cluster(b: &Binding<'_>, clusters: &Clusters<'_>) -> Vec<(usize, u64)> {
    let mut out: Vec<(usize, u64)> = b
        .previous
        .iter()
        .filter_map(|(name, &r)| Some((clusters.position(name)?, r.max(0) as u64)))
        .collect();
    out.sort_unstable_by_key(|&(i, _)| i);
    out
}

/// What one scheduling cycle leaves: the division's result, the observed affinity term
/// afterwards, and (when recorded) the report of the attempt that decided.
pub struct Cycle {
    pub result: Result<()>,
    /// `status.schedulerObservingAffinityName` afterwards.
    pub observed: String,
    pub report: Option<PipelineReport>,
}

/// The whole cycle: the terms tried in turn, each attempt's candidates given to
/// `assign_replicas` (Karmada's `assignReplicas`, the division), which keeps what it makes of
/// the winning candidates itself (one instantiation serves every caller).
pub fn schedule(
    ctx: &Context<'_>,
    depth: Depth,
    assign_replicas: &mut dyn FnMut(&Candidates) -> Result<()>,
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
            assign_replicas(&candidates?)
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
    report.tried(&out.tried, &out.observed);
    Cycle {
        result: out.result,
        observed: out.observed,
        report: Some(report),
    }
}
