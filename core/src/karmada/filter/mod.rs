//! The filter pass (docs/rules/karmada.md §12): every listed cluster not being deleted goes
//! through the enabled filter plugins in a fixed order; it is feasible when all pass. Karmada
//! stops at the first failure and records only its reason; allot evaluates every plugin (each is
//! a pure predicate, so the feasible set is the same) to show all of them, and records the first
//! failure as Karmada does. One module per plugin.

mod api_enablement;
mod cluster_affinity;
mod eviction;
mod spread;
mod taint;
pub mod workload_affinity;

use crate::Name;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::cluster::Member;
use super::compiled::{Compiled, Facts, Judged};
use super::constraints::Rules;
use super::plugins::{Plugin, PluginSet};
use crate::selector::node::Taint;

pub use api_enablement::REASON as API_REASON;
pub use cluster_affinity::{Required, REASON as AFFINITY_REASON};
pub use eviction::REASON as EVICTION_REASON;
pub use taint::Tolerations;

/// What the filter plugins read of a cluster: its facts as compiled in its set, and whether
/// the binding is placed there.
#[derive(Debug, Clone, Copy)]
pub struct ClusterView<'a> {
    /// The cluster as listed (read for its name, and for the text of a failure).
    pub member: &'a Member,
    /// Its labels, topology, taints and APIs as numbers of its set ([`Compiled`]).
    pub facts: Facts<'a>,
    pub set: &'a Compiled<'a>,
    /// In the binding's previous result (`spec.clusters`, 0-replica entries included).
    pub placed: bool,
}

/// What the filter plugins read of the binding.
#[derive(Clone, Copy)]
pub struct BindingView<'a> {
    /// `spec.resource.apiVersion` and `kind`; `None`: not stated, and the APIEnablement plugin
    /// is not evaluated (allot's decision: a scenario without a resource schedules as before).
    pub resource: Option<(&'a str, &'a str)>,
    /// `isWorkload(B)`: replicas, requirements or components.
    pub workload: bool,
    /// `spec.gracefulEvictionTasks[].fromCluster`.
    pub evictions: &'a [String],
    /// `status.schedulerObservingAffinityName`.
    pub observed: &'a str,
    pub rules: Rules<'a>,
    /// `rules.cluster_tolerations`, indexed ([`Tolerations::new`]).
    pub tolerations: &'a Tolerations<'a>,
    /// The cluster affinities a cluster must match one of, read once ([`Required::new`]);
    /// `None`: every cluster passes.
    pub affinity: Option<&'a Required<'a>>,
    /// The set's distinct taints and API lists judged for the binding ([`Compiled::judge`]).
    pub judged: &'a Judged,
    /// What the WorkloadAffinity pair reads of the binding's groups (a fleet's, with the gate
    /// on); `None`: neither plugin runs.
    pub groups: Option<&'a workload_affinity::GroupView>,
}

/// One plugin's answer for one cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum Verdict {
    /// Success.
    Passed,
    /// Unschedulable, with the reason string as Karmada words it.
    Unschedulable { reason: String },
    /// The plugin is not enabled (`plugins`).
    Disabled,
    /// The plugin has nothing to judge (APIEnablement without a stated resource).
    NotEvaluated,
}

impl Verdict {
    /// The verdict's `status`, as its serialized form names it.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Unschedulable { .. } => "unschedulable",
            Verdict::Disabled => "disabled",
            Verdict::NotEvaluated => "notEvaluated",
        }
    }
}

/// A plugin's verdict.
// Written as `{"plugin", "status"[, "reason"]}` (the `Serialize` impl below).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PluginVerdict {
    pub plugin: Plugin,
    #[cfg_attr(feature = "schema", serde(flatten))]
    pub verdict: Verdict,
}

/// The form `#[serde(flatten)]` of the verdict gives, written as a struct: serde writes a
/// flattened struct as a map, key by key, which cost the writer a fifth of its time on
/// pipeline outcomes (five verdicts per cluster).
impl Serialize for PluginVerdict {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let reason = match &self.verdict {
            Verdict::Unschedulable { reason } => Some(reason),
            _ => None,
        };
        let mut out = s.serialize_struct("PluginVerdict", 2 + usize::from(reason.is_some()))?;
        out.serialize_field("plugin", &self.plugin)?;
        out.serialize_field("status", self.verdict.status())?;
        if let Some(reason) = reason {
            out.serialize_field("reason", reason)?;
        }
        out.end()
    }
}

/// One cluster through the filter pass.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterFilter {
    pub cluster: Name,
    /// Being deleted: skipped before any plugin, and not part of the diagnosis.
    pub deleting: bool,
    /// Every filter plugin in run order.
    pub verdicts: [PluginVerdict; Plugin::FILTERS.len()],
    /// The reason Karmada records: the first failure in run order.
    pub reason: Option<String>,
}

impl ClusterFilter {
    pub fn feasible(&self) -> bool {
        !self.deleting && self.reason.is_none()
    }

    /// The plugin whose failure is recorded, with its reason.
    pub fn failed(&self) -> Option<(Plugin, &str)> {
        self.verdicts.iter().find_map(|v| match &v.verdict {
            Verdict::Unschedulable { reason } => Some((v.plugin, reason.as_str())),
            _ => None,
        })
    }
}

/// Why a plugin turns a cluster away: what its reason says, kept as data so that a decision
/// without a report writes no text (the reason is written only for the report, or for the
/// FitError message when no cluster is left).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure<'a> {
    /// A reason whose words never change.
    Fixed(&'static str),
    /// TaintToleration: the first counted taint no toleration tolerates.
    Taint(&'a Taint),
    /// SpreadConstraint: the property the cluster does not state (`provider`, `region`,
    /// `zones`).
    Missing(&'static str),
}

impl Failure<'_> {
    /// The reason as Karmada words it.
    pub fn reason(&self) -> String {
        match self {
            Failure::Fixed(reason) => (*reason).into(),
            Failure::Taint(t) => {
                format!("cluster(s) had untolerated taint {{{}}}", taint::render(t))
            }
            Failure::Missing(property) => format!("cluster(s) did not have {property} property"),
        }
    }
}

/// One plugin on one cluster: `None` when it has nothing to judge, else whether it fails.
#[inline(always)]
fn judge<'c>(
    plugin: Plugin,
    b: &BindingView<'_>,
    c: &ClusterView<'c>,
) -> Option<Option<Failure<'c>>> {
    Some(match plugin {
        Plugin::ApiEnablement => {
            b.resource?;
            api_enablement::filter(b, c)
        }
        Plugin::TaintToleration => taint::filter(b, c),
        Plugin::ClusterAffinity => cluster_affinity::filter(b, c),
        Plugin::SpreadConstraint => spread::filter(b, c),
        Plugin::ClusterEviction => eviction::filter(b, c),
        Plugin::ClusterLocality => return None,
    })
}

/// One plugin on one cluster.
pub fn filter(plugin: Plugin, b: &BindingView<'_>, c: &ClusterView<'_>) -> Verdict {
    match judge(plugin, b, c) {
        None => Verdict::NotEvaluated,
        Some(None) => Verdict::Passed,
        Some(Some(f)) => Verdict::Unschedulable { reason: f.reason() },
    }
}

/// Every filter plugin on one cluster (`deleting`: skipped, every verdict `NotEvaluated`).
pub fn run(
    plugins: &PluginSet,
    b: &BindingView<'_>,
    c: &ClusterView<'_>,
    deleting: bool,
) -> ClusterFilter {
    let mut reason = None;
    let verdicts = Plugin::FILTERS.map(|plugin| {
        let verdict = if deleting {
            Verdict::NotEvaluated
        } else if !plugins.enabled(plugin) {
            Verdict::Disabled
        } else {
            filter(plugin, b, c)
        };
        if let (None, Verdict::Unschedulable { reason: r }) = (&reason, &verdict) {
            reason = Some(r.clone());
        }
        PluginVerdict { plugin, verdict }
    });
    // The WorkloadAffinity pair runs after the others (docs/rules/fleet.md §31.3); its
    // failure is the reason when no other plugin failed.
    if reason.is_none() && !deleting {
        reason = workload_affinity::filter(b, c).map(|f| f.reason());
    }
    ClusterFilter {
        cluster: c.member.name.clone(),
        deleting,
        verdicts,
        reason,
    }
}

/// Why Karmada turns away a cluster not being deleted: the first enabled plugin's failure in
/// run order, the plugins after it not evaluated (`None`: feasible). What [`run`] records as
/// `reason`, without the verdicts, and unwritten ([`Failure::reason`]).
// Always inline: the filter pass calls it in its loop over every cluster and again, when no
// cluster is left, for the FitError's reasons; with two callers the npm build's inline
// threshold would keep it (and `judge`) out of the loop, a call per plugin and cluster.
#[inline(always)]
pub fn first_failure<'c>(
    plugins: &PluginSet,
    b: &BindingView<'_>,
    c: &ClusterView<'c>,
) -> Option<Failure<'c>> {
    // A plain loop: the iterator adapters' fold stays a call per cluster in the npm build.
    for &p in &Plugin::FILTERS {
        if !plugins.enabled(p) {
            continue;
        }
        if let Some(Some(failure)) = judge(p, b, c) {
            return Some(failure);
        }
    }
    workload_affinity::filter(b, c)
}

/// The FitError message (§12.9): `0/N clusters are available: P.`, N counting every listed
/// cluster (those being deleted too), P each distinct reason with its count, sorted as text.
pub fn fit_error_message<'a>(listed: usize, reasons: impl IntoIterator<Item = &'a str>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for r in reasons {
        *counts.entry(r).or_default() += 1;
    }
    if listed == 0 || counts.is_empty() {
        return format!("0/{listed} clusters are available: no cluster exists.");
    }
    let mut parts: Vec<String> = counts
        .into_iter()
        .map(|(r, n)| format!("{n} {r}"))
        .collect();
    crate::order::sort_by(&mut parts, &|a, b| a.cmp(b));
    format!("0/{listed} clusters are available: {}.", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict as serde's flatten of the derived, internally tagged `Verdict` writes it:
    /// `plugin` first, then the verdict's own fields.
    #[test]
    fn a_plugin_verdict_is_written_as_its_flattened_form() {
        let verdicts = [
            Verdict::Passed,
            Verdict::Unschedulable {
                reason: "cluster(s) had untolerated taint {a: b}".into(),
            },
            Verdict::Disabled,
            Verdict::NotEvaluated,
        ];
        for verdict in verdicts {
            let written = crate::json::to_json(&PluginVerdict {
                plugin: Plugin::TaintToleration,
                verdict: verdict.clone(),
            })
            .unwrap();
            let tagged = crate::json::to_json(&verdict).unwrap();
            let expected = format!("{{\"plugin\":\"TaintToleration\",{}", &tagged[1..]);
            assert_eq!(written, expected);
        }
    }

    #[test]
    fn fit_error_counts_and_sorts_as_text() {
        let reasons = ["b", "a", "b", "b", "b", "b", "b", "b", "b", "b", "b"];
        assert_eq!(
            fit_error_message(12, reasons),
            "0/12 clusters are available: 1 a, 10 b."
        );
        let mut many = alloc::vec!["x"; 10];
        many.extend(["y", "y"]);
        assert_eq!(
            fit_error_message(12, many),
            "0/12 clusters are available: 10 x, 2 y."
        );
        assert_eq!(
            fit_error_message(3, core::iter::empty()),
            "0/3 clusters are available: no cluster exists."
        );
    }
}
