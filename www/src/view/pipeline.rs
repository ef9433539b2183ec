//! The scheduler's steps before the division as the page shows them: a row per cluster, a
//! column per filter plugin (passed, or Karmada's reason), the score, the available replicas,
//! the position in the candidate order, whether selection kept it, and the replicas it got.
//! Filtered clusters are greyed, their reason in the row's title and in the text. Then the
//! affinity terms tried, the regions and the sentences.

use std::collections::BTreeMap;
use std::rc::Rc;

use allot_core::karmada::filter::Verdict;
use allot_core::karmada::plugins::Plugin;
use allot_core::karmada::scheduler::{short, ClusterStep, PipelineReport};
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
    html! {
        <div class="pipeline">
            <p class="hint">{ format!(
                "{} of {} clusters pass the filters{}.",
                r.clusters.len() - out,
                r.clusters.len(),
                if r.ordered { "" } else {
                    "; the scenario uses no scheduler field, so the candidates keep the listed order"
                }
            ) }</p>
            { pager.clone() }
            <table id="pipeline" class="result pipeline-table">
                <thead><tr>
                    <th scope="col">{ "cluster" }</th>
                    { for Plugin::FILTERS.iter().map(|p| html! {
                        <th scope="col" class="plugin" title={format!("filter plugin {}", p.name())}>{ heading(*p) }</th>
                    }) }
                    <th scope="col" class="n" title="ClusterLocality + ClusterAffinity">{ "score" }</th>
                    <th scope="col" class="n" title="available replicas: the estimate plus the previous replicas">{ "avail." }</th>
                    <th scope="col" class="n" title="position in the candidate order (tier, score, available, name)">{ "order" }</th>
                    <th scope="col" title="kept by selection: a candidate of the division">{ "kept" }</th>
                    if p.replicas.is_some() { <th scope="col" class="n">{ "replicas" }</th> }
                </tr></thead>
                <tbody>
                { for r.clusters[shown].iter().map(|c| row(c, p.replicas.as_deref())) }
                </tbody>
            </table>
            { pager }
            if !r.terms.is_empty() {
                <h4>{ "Affinity terms tried" }</h4>
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
                <h4>{ "Regions" }</h4>
                <ul id="regions" class="terms">
                { for sel.regions.iter().map(|g| html! {
                    <li class={if g.chosen { "pass" } else { "muted" }}>
                        { format!("{}: group score {}, {} ({})", g.name, g.score, g.clusters.join(", "),
                                  if g.chosen { "chosen" } else { "not chosen" }) }
                    </li>
                }) }
                </ul>
            }
            <h4>{ "Why these candidates" }</h4>
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

fn row(c: &ClusterStep, replicas: Option<&BTreeMap<String, u64>>) -> Html {
    let name = c.filter.cluster.as_str();
    let title = if c.filter.deleting {
        Some("being deleted: not a candidate".to_string())
    } else {
        c.filter.reason.clone()
    };
    let dash = || html! { <span class="muted">{ "–" }</span> };
    let span = Plugin::FILTERS.len() + 5 + usize::from(replicas.is_some());
    let why = if c.filter.deleting {
        Some("↳ being deleted: not a candidate".to_string())
    } else {
        c.filter
            .failed()
            .map(|(p, reason)| format!("↳ {}: {}", p.name(), short(reason)))
    };
    html! {
        <>
        <tr data-cluster={name.to_string()} class={classes!((!c.feasible).then_some("out"))} {title}>
            <th scope="row">{ name }
                if c.filter.deleting { <span class="tag">{ " deleting" }</span> }
            </th>
            { for c.filter.verdicts.iter().map(|v| match &v.verdict {
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
