//! The report of one scheduling cycle (docs/rules/karmada.md §12-15): every plugin's verdict
//! per cluster, the scores, the global order, what selection kept and why, and each affinity
//! term tried, with the sentences that tell the story. It is written from what the
//! scheduler's steps ([`super`]) return, only when a report is asked for: the decision alone
//! runs the same steps without it.

use crate::Name;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::{Candidates, Ordered};
use crate::error::Error;
use crate::karmada::affinity_terms::Attempt;
use crate::karmada::cluster::Members;
use crate::karmada::constraints::Rules;
use crate::karmada::filter::{self, ClusterFilter};
use crate::karmada::score::Scores;
use crate::karmada::select::{chosen_regions, Candidate, RegionTrace, SelectPath, Selection, Swap};

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

impl PipelineReport {
    /// What `findClustersThatFit` found (`diagnosis`: every cluster's filter result), with
    /// `observed` as the observed term; `ordered`: whether candidates follow the global order.
    pub(super) fn fit(observed: &str, ordered: bool, diagnosis: Vec<ClusterFilter>) -> Self {
        let mut report = PipelineReport {
            // One step per cluster, made at once: the steps are large, and growing the list
            // would copy them over and over (a tenth of a 10,000-cluster run).
            clusters: diagnosis
                .into_iter()
                .map(|f| ClusterStep {
                    feasible: f.feasible(),
                    filter: f,
                    scores: None,
                    available_replicas: None,
                    overflow_order: None,
                    position: None,
                    selected: false,
                })
                .collect(),
            observed_affinity: observed.into(),
            ordered,
            ..PipelineReport::default()
        };
        say_filtered(&mut report);
        report
    }

    /// What `prioritizeClusters` and the global order found: each feasible cluster's scores
    /// (`scores`, by cluster index), `avail`, tier and position in G.
    pub(super) fn ordered(&mut self, g: &Ordered<'_>, scores: impl Fn(usize) -> Scores) {
        for (pos, (&i, c)) in g.clusters.iter().zip(&g.candidates).enumerate() {
            if let Some(step) = self.clusters.get_mut(i) {
                step.scores = Some(scores(i));
                step.available_replicas = Some(c.avail);
                step.overflow_order = Some(i64::from(c.overflow_order));
                step.position = Some(pos);
            }
        }
        self.order = g.candidates.iter().map(|c| Name::from(c.name)).collect();
        if self.ordered {
            self.explanation.push(format!(
                "candidate order (overflow tier, score, available replicas, name): {}",
                listed(self.order.iter().map(Name::as_str))
            ));
        }
    }

    /// What `selectClusters` kept (`sel`, over G), the candidates it gives (`c`), among
    /// `members`.
    pub(super) fn selected(
        &mut self,
        sel: Selection,
        c: &Candidates,
        g: &[Candidate<'_>],
        rules: &Rules<'_>,
        members: Members<'_>,
    ) {
        for &(i, _) in &c.order {
            if let Some(step) = self.clusters.get_mut(i) {
                step.selected = true;
            }
        }
        say_selection(self, &sel, g, rules);
        self.selection = Some(SelectionReport {
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

    /// Why `selectClusters` failed.
    pub(super) fn unselected(&mut self, e: &Error) {
        self.explanation
            .push(format!("selection fails: {}", e.reason()));
    }

    /// The affinity terms tried, in order, and the observed term afterwards.
    pub(super) fn tried(&mut self, tried: &[Attempt], observed: &str) {
        self.observed_affinity = observed.into();
        self.terms = tried
            .iter()
            .map(|a| TermReport {
                affinity_name: a.affinity_name.clone(),
                error: a.error.clone(),
            })
            .collect();
        for t in &self.terms {
            self.explanation.push(match &t.error {
                None => format!("affinity term {} schedules", t.affinity_name),
                Some(e) => format!("affinity term {} fails: {}", t.affinity_name, e.reason()),
            });
        }
    }
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
        if let Some(why) = c.why_out() {
            report
                .explanation
                .push(format!("{} is {why}", c.filter.cluster));
        }
    }
}

impl ClusterStep {
    /// Why the cluster is not a candidate, in the words the explanation says it after the
    /// cluster's name and the playground after an arrow (`None`: it is feasible): `being
    /// deleted: it is not a candidate`, or `out (TaintToleration): untolerated taint
    /// dedicated=gpu:NoSchedule`, the plugin that turned it away with Karmada's reason
    /// ([`short`]).
    pub fn why_out(&self) -> Option<String> {
        let f = &self.filter;
        if f.deleting {
            return Some("being deleted: it is not a candidate".into());
        }
        if let Some((plugin, reason)) = f.failed() {
            return Some(format!("out ({}): {}", plugin.name(), short(reason)));
        }
        // The WorkloadAffinity pair, which has no verdict of its own (fleet.md §31.3).
        let reason = f.reason.as_ref()?;
        let plugin = filter::workload_affinity::plugin_of(reason).unwrap_or("filter");
        Some(format!("out ({plugin}): {reason}"))
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

    /// Why a cluster is out, said once: by the explanation after its name, by the
    /// playground after an arrow.
    #[test]
    fn why_a_cluster_is_out_is_said_once() {
        let taint = "cluster(s) had untolerated taint {dedicated=gpu:NoSchedule}";
        let verdicts = Plugin::FILTERS.map(|plugin| PluginVerdict {
            plugin,
            verdict: if plugin == Plugin::TaintToleration {
                Verdict::Unschedulable {
                    reason: taint.into(),
                }
            } else {
                Verdict::Passed
            },
        });
        let step = |deleting: bool, reason: Option<&str>| ClusterStep {
            filter: ClusterFilter {
                cluster: "member3".into(),
                deleting,
                verdicts: verdicts.clone(),
                reason: reason.map(Into::into),
            },
            feasible: false,
            scores: None,
            available_replicas: None,
            overflow_order: None,
            position: None,
            selected: false,
        };
        let out = step(false, Some(taint));
        assert_eq!(
            out.why_out().as_deref(),
            Some("out (TaintToleration): untolerated taint dedicated=gpu:NoSchedule")
        );
        assert_eq!(
            step(true, None).why_out().as_deref(),
            Some("being deleted: it is not a candidate")
        );
        let mut report = PipelineReport {
            clusters: alloc::vec![out],
            ..PipelineReport::default()
        };
        say_filtered(&mut report);
        assert_eq!(
            report.explanation,
            ["member3 is out (TaintToleration): untolerated taint dedicated=gpu:NoSchedule"]
        );
    }
}
