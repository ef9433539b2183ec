//! The fleet view's workloads (docs/playground.md "The fleet view": workloads): every binding
//! grouped by namespace and claiming policy under a heading, searched by name, policy or
//! cluster, the rows on screen rendered; each workload's events: Scale (its template's
//! replicas), Rebalance (a WorkloadRebalancer, docs/rules/fleet.md §28) and Unhealthy on a
//! cluster (application failover, §32).

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::json;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::figures::placement;
use super::window;
use super::worker::State;
use super::Ask;

#[derive(Properties, PartialEq)]
pub struct WorkloadsProps {
    pub ask: Ask,
    pub state: Rc<State>,
}

/// A line of the workload list: a group's heading (namespace and claiming policy, from its
/// first binding), or a binding; each by its index in the fleet's bindings.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Line {
    Group(usize),
    Binding(usize),
}

/// The bindings whose name, policy or a cluster matches `f` (all when it is empty), by
/// namespace, policy and name, each group of one namespace and policy under its heading.
fn lines(state: &State, f: &str) -> Vec<Line> {
    let rows = state.order().iter().copied().filter(|&i| {
        let b = &state.bindings[i];
        f.is_empty()
            || b.id.to_string().contains(f)
            || b.policy.as_deref().is_some_and(|p| p.contains(f))
            || b.clusters.keys().any(|c| c == f)
    });
    let mut lines = Vec::with_capacity(state.bindings.len() + state.bindings.len() / 8);
    let mut group = None;
    for i in rows {
        let b = &state.bindings[i];
        let key = (&b.id.namespace, &b.policy);
        if group != Some(key) {
            group = Some(key);
            lines.push(Line::Group(i));
        }
        lines.push(Line::Binding(i));
    }
    lines
}

/// The workloads, grouped, each with its replicas, placement and events.
#[function_component(Workloads)]
pub fn workloads(p: &WorkloadsProps) -> Html {
    let filter = use_state(String::new);
    let scale = use_state(BTreeMap::<String, String>::new);
    let lines: Rc<Vec<Line>> = use_memo((p.state.clone(), (*filter).clone()), |(state, f)| {
        lines(state, f)
    });
    let (slice, node, on_scroll) = window::use_window(lines.len());
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            let i: HtmlInputElement = e.target_unchecked_into();
            filter.set(i.value());
        })
    };
    let line = |k: usize| -> Html {
        let index = (k + 2).to_string();
        match lines[k] {
            Line::Group(i) => {
                let b = &p.state.bindings[i];
                let ns = if b.id.namespace.is_empty() {
                    "cluster-scoped"
                } else {
                    &b.id.namespace
                };
                html! {
                    <tr key={format!("g{i}")} class="group" data-row={k.to_string()} aria-rowindex={index}>
                        <th colspan="4" scope="colgroup">{ format!("{ns} · policy {}", b.policy.as_deref().unwrap_or("none")) }</th></tr>
                }
            }
            Line::Binding(i) => {
                let b = &p.state.bindings[i];
                let id = b.id.to_string();
                let value = scale
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| b.replicas.to_string());
                let on_input = {
                    let (scale, id) = (scale.clone(), id.clone());
                    Callback::from(move |e: InputEvent| {
                        let i: HtmlInputElement = e.target_unchecked_into();
                        let mut next = (*scale).clone();
                        next.insert(id.clone(), i.value());
                        scale.set(next);
                    })
                };
                let actions = b.workload.clone().map(|w| {
                    let on_scale = {
                        let (ask, w, value) = (p.ask.clone(), w.clone(), value.clone());
                        Callback::from(move |_| ask.apply(format!("{w} scaled to {value}"), json!({"scale": [format!("{w}={value}")]})))
                    };
                    let on_rebalance = {
                        let (ask, w) = (p.ask.clone(), w.clone());
                        Callback::from(move |_| ask.apply(format!("WorkloadRebalancer for {w}"), json!({"rebalance": [w]})))
                    };
                    // The member reports the workload Unhealthy on a cluster it is placed on
                    // (application failover, docs/rules/fleet.md §32).
                    let on_unhealthy = {
                        let (ask, w) = (p.ask.clone(), w.clone());
                        Callback::from(move |e: Event| {
                            let select: HtmlSelectElement = e.target_unchecked_into();
                            let c = select.value();
                            select.set_value("");
                            if !c.is_empty() {
                                ask.apply(format!("{w} Unhealthy on {c}"), json!({"unhealthy": [format!("{w}@{c}")]}));
                            }
                        })
                    };
                    html! {
                        <>
                        <input type="number" min="0" class="replicas" value={value.clone()} oninput={on_input}
                               aria-label={format!("replicas of {w}")} />
                        <button type="button" class="scale" onclick={on_scale}>{ "Scale" }</button>
                        <button type="button" class="rebalance" onclick={on_rebalance}>{ "Rebalance" }</button>
                        <select class="unhealthy" onchange={on_unhealthy} aria-label={format!("report {w} Unhealthy on a cluster")}>
                            <option value="" selected=true>{ "Unhealthy on…" }</option>
                            { for b.clusters.keys().map(|c| html! { <option value={c.clone()}>{ c.clone() }</option> }) }
                        </select>
                        </>
                    }
                });
                let placed = placement(&b.clusters);
                html! {
                    <tr key={id.clone()} data-binding={id.clone()} data-row={k.to_string()} aria-rowindex={index}>
                        <th scope="row" title={id.clone()}>{ id }</th>
                        <td class="num">{ b.replicas }</td>
                        <td class="placement" title={placed.clone()}>{ placed }</td>
                        <td class="actions">{ actions.unwrap_or_default() }</td>
                    </tr>
                }
            }
        }
    };
    html! {
        <section class="fleet-workloads" aria-labelledby="fleet-workloads-heading">
            <h3 id="fleet-workloads-heading">{ format!("Workloads ({})", p.state.bindings.len()) }</h3>
            <input type="search" id="fleet-workload-filter" placeholder="search workloads"
                   aria-label="search workloads by name, policy or cluster" oninput={on_filter} value={(*filter).clone()} />
            // Only the rows on screen are in the page; the container scrolls the whole list.
            <div class="fleet-rows" ref={node} onscroll={on_scroll} tabindex="0" role="region"
                 aria-label={format!("workloads: {} rows", lines.len())}>
            <table id="fleet-workloads" class="fleet-table" aria-rowcount={(lines.len() + 1).to_string()}>
                <colgroup><col class="binding" /><col class="num" /><col class="placement" /><col class="actions" /></colgroup>
                <thead><tr aria-rowindex="1"><th scope="col">{ "binding" }</th><th scope="col">{ "replicas" }</th>
                    <th scope="col">{ "placement" }</th><th scope="col">{ "events" }</th></tr></thead>
                <tbody>
                { window::body(&slice, 4, slice.rows.clone().map(line)) }
                </tbody>
            </table></div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::fixtures::fleet;
    use crate::fleet::worker::Plan;
    use allot_core::karmada::fleet::entry::Condition;
    use serde_json::Value;

    /// The lines as text: `# namespace policy` for a heading, the binding's id otherwise.
    fn text(s: &State, lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| match *l {
                Line::Group(i) => {
                    let b = &s.bindings[i];
                    format!(
                        "# {} {}",
                        b.id.namespace,
                        b.policy.as_deref().unwrap_or("-")
                    )
                }
                Line::Binding(i) => s.bindings[i].id.to_string(),
            })
            .collect()
    }

    #[test]
    fn the_workload_lines_are_grouped_by_namespace_and_policy_under_headings() {
        let s = fleet();
        assert_eq!(
            text(&s, &lines(&s, "")),
            [
                "#  -",
                "crb/cluster-wide",
                "# db pin",
                "rb/db/x",
                "# web alone",
                "rb/web/c",
                "# web spread",
                "rb/web/a",
                "rb/web/b",
            ]
        );
        // A search keeps the headings of what it finds: by name, policy, or a cluster exactly.
        assert_eq!(text(&s, &lines(&s, "web/b")), ["# web spread", "rb/web/b"]);
        assert_eq!(text(&s, &lines(&s, "pin")), ["# db pin", "rb/db/x"]);
        // `c`: db/x is on it, web/c and the cluster-wide binding have it in their names.
        assert_eq!(
            text(&s, &lines(&s, "c")),
            [
                "#  -",
                "crb/cluster-wide",
                "# db pin",
                "rb/db/x",
                "# web alone",
                "rb/web/c"
            ]
        );
        assert!(lines(&s, "nothing such").is_empty());
    }

    #[test]
    fn an_event_keeps_the_order_and_a_created_binding_takes_its_place() {
        let s = fleet();
        let before = lines(&s, "");
        let plan = |bindings: Value| -> Plan {
            serde_json::from_value(
                json!({"steps": [], "timeline": [], "bindings": bindings, "clusters": [],
                "summary": {"bindings": 0, "changed": 0, "unschedulable": 0, "unchanged": 0,
                            "movedReplicas": 0, "unplacedReplicas": 0, "pending": 0,
                            "overcommittedClusters": 0}}),
            )
            .expect("a plan")
        };
        let moved = plan(
            json!([{"id": {"kind": "ResourceBinding", "namespace": "web", "name": "a"},
            "replicas": 3, "before": {"a": 2}, "after": {"c": 3}, "moved": 2, "unplaced": 0,
            "pending": false, "because": "", "outcome": "changed", "trigger": "placementChanged"}]),
        );
        let next = s.after(&moved, s.clusters.clone());
        assert_eq!(lines(&next, ""), before);
        assert_eq!(
            next.bindings[2].clusters,
            BTreeMap::from([("c".to_string(), 3)])
        );
        assert!(
            Rc::ptr_eq(&next.bindings[0], &s.bindings[0]),
            "an unchanged binding is shared"
        );
        let created = plan(
            json!([{"id": {"kind": "ResourceBinding", "namespace": "db", "name": "a"},
            "replicas": 1, "before": {}, "after": {"a": 1}, "moved": 0, "unplaced": 0,
            "pending": false, "because": "", "outcome": "changed", "trigger": "placementChanged"}]),
        );
        let next = next.after(&created, s.clusters.clone());
        assert_eq!(
            text(&next, &lines(&next, ""))[2..6],
            ["# db -", "rb/db/a", "# db pin", "rb/db/x"]
        );
        let new = next.bindings.last().expect("the created binding");
        assert!(new.claimed && new.condition == Condition::Success);
        // A binding the scheduler failed keeps its placement and takes the plan's condition.
        let failed = plan(
            json!([{"id": {"kind": "ResourceBinding", "namespace": "db", "name": "x"},
            "replicas": 9, "before": {"c": 4}, "after": {"c": 4}, "moved": 0, "unplaced": 5,
            "pending": false, "because": "", "outcome": "unschedulable",
            "condition": {"reason": "unschedulable", "message": "0/3 clusters are available"}}]),
        );
        let last = next.after(&failed, s.clusters.clone());
        assert_eq!(
            last.bindings[1].condition,
            Condition::Unschedulable("0/3 clusters are available".into())
        );
        assert_eq!(last.bindings[1].replicas, 9);
    }
}
