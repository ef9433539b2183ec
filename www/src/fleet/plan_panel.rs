//! The plan of the fleet's last event (docs/rules/fleet.md §30): the bindings moved by it,
//! those unschedulable, those already pending before it (§30.3) and those unchanged, each
//! with why; the timeline (§30.1) and each cluster's load before and after, with any
//! overcommit. And the burst replayed without and with SchedulingOvercommitProtection
//! (§29.2), side by side.

use std::rc::Rc;

use allot_core::karmada::fleet::plan::{BindingPlan, ClusterPlan, Outcome};
use allot_core::resource::ResourceList;
use yew::prelude::*;

use super::figures::{binary, cores, cpu, memory, placement};
use super::Shown;
use crate::pager::use_pager;

/// The plan of the event shown: its summary, its caveats, its bindings by what the event did
/// to them, its timeline and the clusters' load.
pub fn plan(shown: &Shown) -> Html {
    let p = &shown.plan;
    let of = |f: fn(&BindingPlan) -> bool| -> Vec<&BindingPlan> {
        p.bindings.iter().filter(|b| f(b)).collect()
    };
    let moved =
        of(|b| !b.pending && matches!(b.outcome, Outcome::Changed { .. } | Outcome::Evicted));
    let unschedulable = of(|b| !b.pending && matches!(b.outcome, Outcome::Unschedulable { .. }));
    let pending = of(|b| b.pending);
    let kept = of(|b| matches!(b.outcome, Outcome::Unchanged { .. }));
    html! {
        <section id="fleet-plan" class="fleet-plan" aria-labelledby="fleet-plan-heading">
            <h3 id="fleet-plan-heading">{ format!("Plan: {}", shown.label) }</h3>
            <p id="fleet-summary" class="summary">{ &p.summary.said }</p>
            { for p.caveats.iter().map(|c| html! { <p class="notice">{ c }</p> }) }
            if !moved.is_empty() {
                <h4>{ "Moved by the event" }</h4>
                { bindings_table("fleet-moved", &moved) }
            }
            if !unschedulable.is_empty() {
                <h4>{ "Unschedulable" }</h4>
                { bindings_table("fleet-unschedulable", &unschedulable) }
            }
            if !pending.is_empty() {
                <h4>{ "Already pending before the event" }</h4>
                <p class="muted">{ "These bindings' placements are not what the scheduler would choose now: \
                    a restart over the fleet changes them the same way without the event." }</p>
                { bindings_table("fleet-pending", &pending) }
            }
            if !kept.is_empty() {
                <h4>{ "Unchanged" }</h4>
                <KeptList rows={Rc::new(kept.into_iter().cloned().collect::<Vec<_>>())} />
            }
            { super::timeline::timeline(&p.timeline) }
            { loads("fleet-loads", &p.clusters) }
        </section>
    }
}

fn bindings_table(id: &'static str, rows: &[&BindingPlan]) -> Html {
    html! {
        <div class="scroll"><table id={id} class="fleet-table fleet-stacked">
            <thead><tr><th scope="col">{ "binding" }</th><th scope="col">{ "before" }</th>
                <th scope="col">{ "after" }</th><th scope="col" title="replicas that land on another cluster">{ "moved" }</th>
                <th scope="col" title="replicas placed nowhere">{ "unplaced" }</th><th scope="col">{ "why" }</th></tr></thead>
            <tbody>
            { for rows.iter().take(500).map(|b| html! {
                <tr><th scope="row">{ b.id.to_string() }</th><td data-label="before">{ placement(&b.before) }</td>
                    <td data-label="after">{ placement(&b.after) }</td><td class="num" data-label="moved">{ b.moved }</td>
                    <td class="num" data-label="unplaced">{ b.unplaced }</td><td class="why" data-label="why">{ &b.because }</td></tr>
            }) }
            </tbody>
        </table></div>
    }
}

#[derive(Properties, PartialEq)]
struct KeptProps {
    rows: Rc<Vec<BindingPlan>>,
}

#[function_component(KeptList)]
fn kept_list(p: &KeptProps) -> Html {
    let (range, controls) = use_pager(p.rows.len(), "binding");
    html! {
        <>
        <ul id="fleet-kept" class="fleet-kept">
            { for p.rows[range].iter().map(|b| html! { <li><strong>{ b.id.to_string() }</strong>{ format!(" — {}", b.because) }</li> }) }
        </ul>
        { controls }
        </>
    }
}

/// Per cluster, load before → after, where it changed or is overcommitted.
fn loads(id: &'static str, clusters: &[ClusterPlan]) -> Html {
    let rows: Vec<&ClusterPlan> = clusters
        .iter()
        .filter(|c| c.before != c.after || !c.overcommit.is_empty() || c.state != c.state_before)
        .collect();
    if rows.is_empty() {
        return html! { <p id={id} class="muted">{ "No cluster's load changes." }</p> };
    }
    html! {
        <>
        <h4>{ "Load per cluster" }</h4>
        <div class="scroll"><table id={id} class="fleet-table fleet-stacked">
            <thead><tr><th scope="col">{ "cluster" }</th><th scope="col">{ "state" }</th><th scope="col">{ "replicas" }</th>
                <th scope="col">{ "CPU requested (cores)" }</th><th scope="col">{ "allocatable CPU" }</th>
                <th scope="col">{ "free CPU" }</th><th scope="col">{ "memory requested" }</th><th scope="col">{ "overcommit" }</th></tr></thead>
            <tbody>
            { for rows.iter().take(500).map(|c| html! {
                <tr class={classes!((!c.overcommit.is_empty()).then_some("over"))}>
                    <th scope="row">{ &c.name }</th>
                    <td data-label="state">{ if c.state == c.state_before { c.state.clone() } else { format!("{} → {}", c.state_before, c.state) } }</td>
                    <td data-label="replicas">{ format!("{} → {}", c.before.replicas, c.after.replicas) }</td>
                    <td data-label="CPU requested (cores)">{ format!("{} → {}", cpu(&c.before.requests), cpu(&c.after.requests)) }</td>
                    <td data-label="allocatable CPU">{ cpu(&c.allocatable) }</td><td data-label="free CPU">{ cpu(&c.free) }</td>
                    <td data-label="memory requested">{ format!("{} → {}", memory(&c.before.requests), memory(&c.after.requests)) }</td>
                    <td data-label="overcommit">{ overcommit(&c.overcommit) }</td>
                </tr>
            }) }
            </tbody>
        </table></div>
        </>
    }
}

fn overcommit(list: &ResourceList) -> String {
    if list.is_empty() {
        return "–".into();
    }
    list.iter()
        .map(|(r, n)| match r {
            "cpu" => format!("cpu {}", cores(n)),
            "memory" => format!("memory {}", binary(n)),
            _ => format!("{r} {}", allot_core::quantity::format(n, r)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The burst: every binding in queue order, without and with SchedulingOvercommitProtection.
pub fn burst(without: &Shown, with: &Shown) -> Html {
    let over = |s: &Shown| -> Vec<ClusterPlan> {
        s.plan
            .clusters
            .iter()
            .filter(|c| !c.overcommit.is_empty())
            .cloned()
            .collect()
    };
    let part = |id: &'static str, title: &str, s: &Shown| {
        let o = over(s);
        html! {
            <section id={id} aria-label={title.to_string()}>
                <h4>{ title.to_string() }</h4>
                <p class="summary">{ format!("{} bindings placed, {} unschedulable; {} clusters promised more than they have",
                    s.plan.summary.changed, s.plan.summary.unschedulable, o.len()) }</p>
                { loads(if id == "fleet-burst-without" { "fleet-burst-without-loads" } else { "fleet-burst-with-loads" }, &s.plan.clusters) }
                { bindings_table(if id == "fleet-burst-without" { "fleet-burst-without-bindings" } else { "fleet-burst-with-bindings" },
                    &s.plan.bindings.iter().filter(|b| !matches!(b.outcome, Outcome::Unchanged { .. })).collect::<Vec<_>>()) }
            </section>
        }
    };
    html! {
        <section id="fleet-burst-plan" class="fleet-plan" aria-labelledby="fleet-burst-heading">
            <h3 id="fleet-burst-heading">{ "Burst: every binding in queue order" }</h3>
            <p>{ "The scheduler takes the bindings one at a time. Without SchedulingOvercommitProtection each \
                reads the clusters' resource summaries, which lag until the cluster status syncs: a burst can \
                promise a cluster more than it has. With it, the replicas scheduled but not yet running are \
                deducted." }</p>
            <div class="fleet-burst">
                { part("fleet-burst-without", "Without SchedulingOvercommitProtection", without) }
                { part("fleet-burst-with", "With SchedulingOvercommitProtection", with) }
            </div>
        </section>
    }
}
