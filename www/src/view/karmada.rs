//! A Karmada outcome as the page shows it: per cluster what it held, what it gets now, the
//! change, an SVG bar, and each estimator's figure; then why, in sentences (the division's
//! arithmetic, then each cluster's estimates: `cpu: (4 - 0.95) / 0.5 = 6.1 -> 6`).

use allot_core::estimate::accurate::{IgnoredPod, PodIgnored, Verdict};
use allot_core::estimate::combine::Source;
use std::rc::Rc;

use allot_core::karmada::explain::DETAILED_CLUSTERS;
use allot_core::scenario::outcome::TargetEstimate;
use allot_core::scenario::{Outcome, Scenario};
use yew::prelude::*;

use super::rows::{self, amount, describe, Row};
use super::{bar, sentences};
use crate::pager::use_pager;

#[derive(Properties, PartialEq)]
pub struct ViewProps {
    pub scenario: Rc<Scenario>,
    pub outcome: Rc<Outcome>,
}

#[function_component(KarmadaView)]
pub fn view(p: &ViewProps) -> Html {
    let Outcome::Karmada(o) = &*p.outcome else {
        return Html::default();
    };
    let s = &*p.scenario;
    let rows = rows::karmada(s, o);
    let (shown, pager) = use_pager(rows.len(), "cluster");
    let scale = rows
        .iter()
        .map(|r| r.replicas.max(r.previous))
        .max()
        .unwrap_or(0)
        .max(1);
    let total: u64 = rows.iter().map(|r| r.replicas).sum();
    // Estimator columns only when some cluster has that estimate.
    let columns = Columns {
        given: rows.iter().any(|r| r.given.is_some()),
        general: rows.iter().any(|r| r.general.is_some()),
        accurate: rows.iter().any(|r| r.accurate.is_some()),
    };
    let spare = 1 + [columns.given, columns.general, columns.accurate]
        .iter()
        .filter(|&&c| c)
        .count();
    html! {
        <>
        { pager.clone() }
        <table id="assignment" class="result">
            <thead><tr>
                <th>{ "cluster" }</th><th class="n">{ "previous" }</th><th class="n">{ "replicas" }</th>
                <th>{ "change" }</th><th class="bar-cell"><span class="sr">{ "bar" }</span></th>
                <th class="n" title="the replicas the cluster can take, as its estimators say (the lowest answer): what the division uses. The Pipeline tab adds the replicas the cluster holds (previous), as selection orders by">{ "available" }</th>
                if columns.given { <th class="n">{ "given" }</th> }
                if columns.general { <th class="n">{ "general" }</th> }
                if columns.accurate { <th class="n">{ "accurate" }</th> }
            </tr></thead>
            <tbody>
                { for rows[shown].iter().cloned().map(|row| { let key = row.name.clone(); html! { <ResultRow {key} {row} {scale} {columns} /> } }) }
            </tbody>
            <tfoot><tr><th>{ "total" }</th><td></td><td class="n replicas-total">{ total }</td><td colspan={(spare + 2).to_string()}></td></tr></tfoot>
        </table>
        { pager }
        <h3>{ "Why" }</h3>
        { sentences("explanation", &o.trace.explanation) }
        { estimates(s, &o.targets) }
        </>
    }
}

/// Which estimator columns show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Columns {
    given: bool,
    general: bool,
    accurate: bool,
}

#[derive(Properties, PartialEq)]
struct RowProps {
    row: Row,
    scale: u64,
    columns: Columns,
}

#[function_component(ResultRow)]
fn result_row(p: &RowProps) -> Html {
    let r = &p.row;
    let dash = || "–".to_string();
    html! {
        <tr data-cluster={r.name.clone()} class={r.change.word()}>
            <td>{ &r.name }</td>
            <td class="n previous">{ r.previous }</td>
            <td class="n replicas">{ r.replicas }</td>
            <td class={classes!("change", r.change.word())} title={r.change.word()}>{ r.change.sign() }</td>
            <td class="bar-cell">{ bar(r.replicas, r.previous, p.scale) }</td>
            // No estimator answered: the division takes the requested replicas. Saying so (not
            // repeating the number) also keeps a replicas edit from touching every row.
            <td class={classes!("n", "available", matches!(r.source, Some(Source::Requested)).then_some("muted"))}
                title={r.source.as_ref().map(describe)}>{ r.available_text() }</td>
            if p.columns.given { <td class="n">{ r.given.map_or_else(dash, |g| g.to_string()) }</td> }
            if p.columns.general { <td class="n general">{ r.general.map_or_else(dash, amount) }</td> }
            if p.columns.accurate { <td class="n accurate">{ r.accurate.map_or_else(dash, amount) }</td> }
        </tr>
    }
}

/// Each cluster's estimator sentences, when an estimator ran.
fn estimates(s: &Scenario, targets: &[TargetEstimate]) -> Html {
    let clusters = s.clusters.as_deref().unwrap_or_default();
    let explained: Vec<(&TargetEstimate, Vec<String>)> = targets
        .iter()
        .zip(clusters)
        .take(DETAILED_CLUSTERS)
        .map(|(t, c)| {
            let mut lines = Vec::new();
            if let Some(g) = &t.general {
                lines.push(format!("general: {} replicas", amount(g.replicas)));
                lines.extend(g.explanation.iter().map(|e| format!("  {e}")));
            }
            if let Some(a) = &t.accurate {
                let nodes = c.nodes.as_deref().unwrap_or_default();
                lines.push(format!(
                    "accurate: {}",
                    a.replicas
                        .map_or("no answer".into(), |r| format!("{} replicas", amount(r)))
                ));
                for v in &a.nodes.nodes {
                    let node = nodes.get(v.node).map_or("?", |n| n.name.as_str());
                    lines.push(match &v.verdict {
                        Verdict::Fits { replicas, limit } => {
                            format!("  {node}: fits {} (bound by {limit})", amount(*replicas))
                        }
                        Verdict::Filtered { reason } => {
                            format!("  {node}: ruled out, {}", reason.describe())
                        }
                    });
                }
                if let Some(q) = &a.quota {
                    lines.push(format!("  quota: {} replicas", amount(q.replicas)));
                }
                lines.extend(ignored_pods(&a.ignored_pods, &c.pods));
            }
            (t, lines)
        })
        .filter(|(_, lines)| !lines.is_empty())
        .collect();
    if explained.is_empty() {
        return Html::default();
    }
    html! {
        <details class="estimates" open={targets.len() <= 5}>
            <summary>{ "Estimates, cluster by cluster" }</summary>
            { for explained.into_iter().map(|(t, lines)| html! {
                <div class="estimate" data-cluster={t.name.to_string()}>
                    <h4>{ format!("{}: {} available ({})", t.name, amount(t.available_replicas),
                                  describe(&t.source)) }</h4>
                    <pre>{ lines.join("\n") }</pre>
                </div>
            }) }
        </details>
    }
}

/// Listed ignored pods, at most this many; the rest are counted.
const IGNORED_PODS_SHOWN: usize = 5;

/// The pods the accurate estimate leaves out, and why.
fn ignored_pods(
    ignored: &[IgnoredPod],
    pods: &[allot_core::estimate::accurate::Pod],
) -> Vec<String> {
    if ignored.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "  {} ignored (they hold nothing on the cluster's nodes):",
        super::plural(ignored.len() as u64, "pod", "pods")
    )];
    for p in ignored.iter().take(IGNORED_PODS_SHOWN) {
        let pod = pods.get(p.pod);
        let name = pod
            .map(|pod| pod.name.as_str())
            .filter(|n| !n.is_empty())
            .map_or_else(|| format!("pods[{}]", p.pod), |n| n.to_string());
        let why = match p.reason {
            PodIgnored::Unbound => "not bound to a node (no nodeName)".to_string(),
            PodIgnored::UnknownNode => format!(
                "on node {}, which the cluster does not list",
                pod.and_then(|pod| pod.node_name.as_deref()).unwrap_or("?")
            ),
            PodIgnored::Finished => format!(
                "{:?}: finished, its resources are released",
                pod.map(|pod| pod.phase).unwrap_or_default()
            ),
        };
        lines.push(format!("    {name}: {why}"));
    }
    if ignored.len() > IGNORED_PODS_SHOWN {
        lines.push(format!(
            "    … and {} more",
            ignored.len() - IGNORED_PODS_SHOWN
        ));
    }
    lines
}
