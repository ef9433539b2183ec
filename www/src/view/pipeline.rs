//! The scheduler's steps before the division as the page shows them: a row per cluster, a
//! column per filter plugin (passed, or Karmada's reason), the score, the available replicas,
//! the position in the candidate order, whether selection kept it, and the replicas it got.
//! Filtered clusters are greyed, their reason in the row's title and in the text. Then the
//! affinity terms tried, the regions and the sentences.

use std::collections::BTreeMap;
use std::rc::Rc;

use allot_core::karmada::filter::Verdict;
use allot_core::karmada::plugins::Plugin;
use allot_core::karmada::scheduler::{ClusterStep, PipelineReport};
use yew::prelude::*;

use super::sentences;
use crate::pager::use_pager;

#[derive(Properties, PartialEq)]
pub struct PipelineProps {
    pub report: Rc<PipelineReport>,
    /// Replicas per cluster after the division (absent: scheduling failed).
    #[prop_or_default]
    pub replicas: Option<Rc<BTreeMap<String, u64>>>,
}

#[function_component(PipelineView)]
pub fn pipeline(p: &PipelineProps) -> Html {
    // Rows: one per cluster, and one under each filtered cluster with its reason.
    let r = &*p.report;
    let (shown, pager) = use_pager(r.clusters.len(), "cluster");
    let out = r.clusters.iter().filter(|c| !c.feasible).count();
    // A filter plugin that judged no cluster (nothing in the scenario for it to judge) has no
    // column: a column of dashes says nothing. The hint names it.
    let judged: Vec<Plugin> = Plugin::FILTERS
        .iter()
        .copied()
        .filter(|&plugin| r.clusters.iter().any(|c| judges(c, plugin)))
        .collect();
    let idle: Vec<&str> = Plugin::FILTERS
        .iter()
        .filter(|p| !judged.contains(p))
        .map(|p| p.name())
        .collect();
    html! {
        <div class="pipeline">
            <p class="hint">{ format!(
                "{} of {} clusters pass the filters{}.{}",
                r.clusters.len() - out,
                r.clusters.len(),
                if r.ordered { "" } else {
                    "; the scenario sets no scheduler field (cluster affinity, spread constraints, \
                     tolerations, ...), so the candidates are the clusters in the order listed"
                },
                if idle.is_empty() { String::new() } else {
                    format!(" Not shown, with nothing to judge here: {}.", idle.join(", "))
                }
            ) }</p>
            { pager.clone() }
            <table id="pipeline" class="result pipeline-table">
                <thead><tr>
                    <th scope="col">{ "cluster" }</th>
                    { for judged.iter().map(|p| html! {
                        <th scope="col" class="plugin" title={format!("filter plugin {}", p.name())}>{ heading(*p) }</th>
                    }) }
                    <th scope="col" class="n" title="Karmada's score: ClusterLocality + ClusterAffinity">{ "score" }</th>
                    <th scope="col" class="n" title="what selection orders by: the replicas the estimators say the cluster can take plus those it holds (previous), Karmada's available replicas of a target; the Result tab's “available” is the estimate alone">{ "available + previous" }</th>
                    <th scope="col" class="n" title="the cluster's place in Karmada's candidate order: by tier, score, available replicas, then name">{ "rank" }</th>
                    <th scope="col" title="selected: one of the clusters the replicas are divided over">{ "selected" }</th>
                    if p.replicas.is_some() { <th scope="col" class="n" title="the replicas the division gives the cluster">{ "replicas" }</th> }
                </tr></thead>
                <tbody>
                { for r.clusters[shown].iter().map(|c| row(c, &judged, p.replicas.as_deref())) }
                </tbody>
            </table>
            { pager }
            if !r.terms.is_empty() {
                <h3>{ "Affinity terms tried" }</h3>
                <ol id="terms" class="terms">
                { for r.terms.iter().map(|t| html! {
                    <li data-term={t.affinity_name.clone()} class={if t.error.is_some() { "fail" } else { "pass" }}>
                        <code>{ &t.affinity_name }</code>{ ": " }
                        { t.error.as_ref().map_or_else(|| "schedules".to_string(), |e| e.reason()) }
                    </li>
                }) }
                </ol>
            }
            if let Some(sel) = r.selection.as_ref().filter(|s| !s.regions.is_empty()) {
                <h3>{ "Regions" }</h3>
                <ul id="regions" class="terms">
                { for sel.regions.iter().map(|g| html! {
                    <li class={if g.chosen { "pass" } else { "muted" }}>
                        { format!("{}: group score {}, {} ({})", g.name, g.score, g.clusters.join(", "),
                                  if g.chosen { "chosen" } else { "not chosen" }) }
                    </li>
                }) }
                </ul>
            }
            <h3>{ "Why these candidates" }</h3>
            { sentences("pipeline-explanation", &r.explanation) }
        </div>
    }
}

/// A plugin's column heading: short, the full name in its title.
fn heading(p: Plugin) -> &'static str {
    match p {
        Plugin::ApiEnablement => "API",
        Plugin::TaintToleration => "taints",
        Plugin::ClusterAffinity => "affinity",
        Plugin::SpreadConstraint => "spread",
        Plugin::ClusterEviction => "eviction",
        Plugin::ClusterLocality => "locality",
    }
}

/// Whether `plugin` judged cluster `c` (passed or refused it).
fn judges(c: &ClusterStep, plugin: Plugin) -> bool {
    c.filter.verdicts.iter().any(|v| {
        v.plugin == plugin && matches!(v.verdict, Verdict::Passed | Verdict::Unschedulable { .. })
    })
}

fn row(c: &ClusterStep, judged: &[Plugin], replicas: Option<&BTreeMap<String, u64>>) -> Html {
    let name = c.filter.cluster.as_str();
    let out = c.why_out();
    let title = if c.filter.deleting {
        out.clone()
    } else {
        c.filter.reason.clone()
    };
    let dash = || html! { <span class="muted">{ "–" }</span> };
    let span = judged.len() + 5 + usize::from(replicas.is_some());
    // Why it is out, in the core's words (the explanation says them after its name).
    let why = out.map(|w| format!("↳ {w}"));
    html! {
        <>
        <tr data-cluster={name.to_string()} class={classes!((!c.feasible).then_some("out"))} {title}>
            <th scope="row">{ name }
                if c.filter.deleting { <span class="tag">{ " deleting" }</span> }
            </th>
            { for c.filter.verdicts.iter().filter(|v| judged.contains(&v.plugin)).map(|v| match &v.verdict {
                Verdict::Passed => html! { <td class="verdict pass" data-plugin={v.plugin.name()} title="passed">{ "✓" }</td> },
                Verdict::Unschedulable { reason } => html! {
                    <td class="verdict fail" data-plugin={v.plugin.name()} title={reason.clone()}>{ "✗" }</td>
                },
                Verdict::Disabled => html! { <td class="verdict muted" data-plugin={v.plugin.name()}>{ "disabled" }</td> },
                Verdict::NotEvaluated => html! { <td class="verdict muted" data-plugin={v.plugin.name()}
                    title="nothing to judge (no resource stated, or the cluster is being deleted)">{ "–" }</td> },
            }) }
            <td class="n score">{ c.scores.map_or_else(dash, |s| html! { { s.total } }) }</td>
            <td class="n">{ c.available_replicas.map_or_else(dash, |a| html! { { super::rows::amount(a) } }) }</td>
            <td class="n">{ c.position.map_or_else(dash, |p| html! { { p + 1 } }) }</td>
            <td class="selected">{ if c.selected { "yes" } else if c.feasible { "no" } else { "" } }</td>
            if let Some(m) = replicas {
                <td class="n replicas">{ m.get(name).copied().unwrap_or(0) }</td>
            }
        </tr>
        // The reason Karmada records, in words, under the row it greys.
        if let Some(why) = why {
            <tr class="out why" data-why={name.to_string()}>
                <td colspan={span.to_string()}>{ why }</td>
            </tr>
        }
        </>
    }
}
