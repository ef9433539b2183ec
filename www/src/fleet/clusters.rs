//! The fleet view's member clusters (docs/playground.md "The fleet view": member clusters):
//! each with its Ready condition, cordon, and a bar of the CPU (else pods) its bindings'
//! replicas request against its allocatable, filtered by name, the rows on screen rendered;
//! and each cluster's events: Down, Recover, Cordon, Uncordon, Delete (docs/rules/fleet.md
//! §26).

use std::rc::Rc;

use allot_core::karmada::fleet::health::Readiness;
use allot_core::kubernetes::plan::ClusterState;
use serde_json::{json, Value};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::figures::cpu;
use super::window;
use super::worker::State;
use super::Ask;

#[derive(Properties, PartialEq)]
pub struct ClustersProps {
    pub ask: Ask,
    pub state: Rc<State>,
}

/// The share of a cluster's allocatable CPU (else pods) the fleet's replicas request, 0–1.
fn share(c: &ClusterState) -> (f64, String) {
    let c = &c.load;
    let alloc = c.allocatable.get("cpu");
    if alloc > 0 {
        let used = c.after.requests.get("cpu");
        return (
            used as f64 / alloc as f64,
            format!("CPU {} of {}", cpu(&c.after.requests), cpu(&c.allocatable)),
        );
    }
    let pods = c.allocatable.get("pods");
    let n = c.after.replicas;
    (
        if pods > 0 {
            n as f64 / pods as f64
        } else {
            0.0
        },
        format!("{n} pods of {pods}"),
    )
}

fn status(c: &ClusterState) -> String {
    let ready = match c.ready {
        Readiness::Ready => "Ready",
        Readiness::NotReady => "NotReady",
        Readiness::Unknown => "Unknown",
        Readiness::Never => "no condition",
    };
    if c.cordoned {
        format!("{ready}, cordoned")
    } else {
        ready.into()
    }
}

/// The member clusters, each with its load and its events.
#[function_component(Clusters)]
pub fn clusters(p: &ClustersProps) -> Html {
    let filter = use_state(String::new);
    let shown: Vec<&ClusterState> = p
        .state
        .clusters
        .iter()
        .filter(|c| filter.is_empty() || c.load.name.contains(filter.as_str()))
        .collect();
    let (slice, node, on_scroll) = window::use_window(shown.len());
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            let i: HtmlInputElement = e.target_unchecked_into();
            filter.set(i.value());
        })
    };
    let event = |label: String, what: Value| {
        let ask = p.ask.clone();
        Callback::from(move |_| ask.apply(label.clone(), what.clone()))
    };
    html! {
        <section class="fleet-clusters" aria-labelledby="fleet-clusters-heading">
            <h3 id="fleet-clusters-heading">{ format!("Member clusters ({})", p.state.clusters.len()) }</h3>
            <input type="search" id="fleet-cluster-filter" placeholder="filter clusters"
                   aria-label="filter clusters by name" oninput={on_filter} value={(*filter).clone()} />
            <div class="fleet-rows fleet-cluster-rows" ref={node} onscroll={on_scroll} tabindex="0" role="region"
                 aria-label={format!("member clusters: {} shown", shown.len())}>
            <ul id="fleet-clusters" class="fleet-cluster-list">
            { window::items(&slice, slice.rows.clone().map(|k| {
                let c = shown[k];
                let (f, words) = share(c);
                let name = c.load.name.clone();
                let down = c.ready != Readiness::Ready;
                html! {
                    <li key={name.clone()} data-row={k.to_string()} data-cluster={name.clone()}
                        class={classes!(down.then_some("down"), c.cordoned.then_some("cordoned"), c.deleting.then_some("deleted"))}>
                        <span class="name" title={name.clone()}>{ &c.load.name }</span>
                        <span class="state">{ if c.load.state.is_empty() { status(c) } else { c.load.state.clone() } }</span>
                        <span class="bar" role="img" aria-label={format!("{words} ({:.0}%)", f * 100.0)}>
                            <span class={classes!("fill", (f > 1.0).then_some("over"))}
                                  style={format!("width:{:.1}%", (f * 100.0).min(100.0))}></span></span>
                        <span class="words">{ format!("{words}, {} replicas", c.load.after.replicas) }</span>
                        <span class="actions">
                          if !c.deleting {
                            if down {
                                <button type="button" class="recover" aria-label={format!("recover {name}")}
                                    onclick={event(format!("cluster {name} ready"), json!({"clusterUp": [name]}))}>{ "Recover" }</button>
                            } else {
                                <button type="button" class="down" aria-label={format!("{name} down")}
                                    onclick={event(format!("cluster {name} down"), json!({"clusterDown": [name]}))}>{ "Down" }</button>
                            }
                            if c.cordoned {
                                <button type="button" class="uncordon" aria-label={format!("uncordon {name}")}
                                    onclick={event(format!("cluster {name} uncordoned"), json!({"uncordon": [name]}))}>{ "Uncordon" }</button>
                            } else {
                                <button type="button" class="cordon" aria-label={format!("cordon {name}")}
                                    onclick={event(format!("cluster {name} cordoned"), json!({"cordon": [name]}))}>{ "Cordon" }</button>
                            }
                            <button type="button" class="delete" aria-label={format!("delete {name}")}
                                onclick={event(format!("cluster {name} deleted"), json!({"deleteCluster": [name]}))}>{ "Delete" }</button>
                          }
                        </span>
                    </li>
                }
            })) }
            </ul></div>
        </section>
    }
}
