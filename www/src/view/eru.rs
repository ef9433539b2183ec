//! An eru outcome as the page shows it: per node the instances it has, its capacity, what it
//! gets, an SVG bar and what bound it; the strategy's reasoning; each new instance's CPU and
//! volume plan; each node's capacity sentences.

use allot_core::karmada::explain::DETAILED_CLUSTERS;
use allot_core::scenario::Outcome;
use yew::prelude::*;

use super::rows::{self, capacity};
use super::{bar, sentences};
use crate::pager::use_pager;

#[function_component(EruView)]
pub fn view(p: &super::karmada::ViewProps) -> Html {
    let Outcome::Eru(o) = &*p.outcome else {
        return Html::default();
    };
    let s = &*p.scenario;
    let rows = rows::eru(s, o);
    let (shown, pager) = use_pager(rows.len(), "node");
    let scale = rows.iter().map(|r| r.after()).max().unwrap_or(0).max(1);
    let total: u64 = rows.iter().filter_map(|r| r.new).sum();
    html! {
        <>
        { pager.clone() }
        <table id="deploy" class="result">
            <thead><tr>
                <th>{ "node" }</th><th class="n">{ "instances" }</th><th class="n">{ "capacity" }</th>
                <th class="n">{ "new" }</th><th class="n">{ "after" }</th>
                <th class="bar-cell"><span class="sr">{ "bar" }</span></th><th>{ "bound by" }</th>
            </tr></thead>
            <tbody>
            { for rows[shown].iter().map(|r| html! {
                <tr data-node={r.name.clone()}>
                    <td>{ &r.name }</td>
                    <td class="n previous">{ r.before }</td>
                    <td class="n capacity">{ capacity(r.capacity) }</td>
                    <td class="n replicas">{ r.new.map_or("–".into(), |n| n.to_string()) }</td>
                    <td class="n after">{ r.after() }</td>
                    <td class="bar-cell">{ bar(r.after(), r.before, scale) }</td>
                    <td>{ r.bound_by.clone().unwrap_or_default() }</td>
                </tr>
            }) }
            </tbody>
            <tfoot><tr><th>{ "total" }</th><td></td><td class="n">{ capacity(o.total) }</td>
                <td class="n replicas-total">{ total }</td><td colspan="3"></td></tr></tfoot>
        </table>
        { pager }
        <h3>{ "Why" }</h3>
        { sentences("explanation", &o.deployment.explanation) }
        if !o.plans.is_empty() {
            // CPU plans are the point of a CPU-binding scenario: shown open.
            <details class="plans" open={o.plans.iter().any(|p| p.cpu.is_some())}>
                <summary>{ format!("Plans of the {} new instances", o.plans.len()) }</summary>
                <ol>{ for o.plans.iter().take(DETAILED_CLUSTERS).map(|p| {
                    let cpu = p.cpu.as_ref().map(|c| {
                        let cores: Vec<String> = c.cpu_map.iter().map(|(k, v)| format!("{k}:{v}")).collect();
                        format!(" CPU {}{}", cores.join(","),
                                if c.numa_node.is_empty() { String::new() } else { format!(" (NUMA {})", c.numa_node) })
                    }).unwrap_or_default();
                    let vols: Vec<String> = p.volumes.iter().map(|(k, (dev, size))| format!("{k} → {dev} ({})", allot_core::quantity::format(*size, "storage"))).collect();
                    html! { <li>{ format!("{}:{}{}{}", p.node, cpu, if vols.is_empty() { "" } else { " volumes " }, vols.join(", ")) }</li> }
                }) }</ol>
            </details>
        }
        <details class="capacities" open={o.capacities.len() <= 3}>
            <summary>{ "Capacity, node by node" }</summary>
            { for o.capacities.iter().take(DETAILED_CLUSTERS).map(|c| html! {
                <div class="estimate" data-node={c.name.clone()}>
                    <h4>{ format!("{}: {} more", c.name, capacity(c.capacity)) }</h4>
                    <pre>{ c.explanation.join("\n") }</pre>
                </div>
            }) }
        </details>
        </>
    }
}
