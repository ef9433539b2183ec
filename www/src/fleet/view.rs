//! The fleet view's page (docs/playground.md "The fleet view"): the loader, the toolbar, the
//! history, the plan of the last event, the clusters with their load, the clusters × namespaces
//! map and the workloads, each from its own module; here the page's order, the box that
//! applies a policy or a template, and the list of events. Words are Karmada's and kubectl's
//! (binding, member cluster, replicas, taint, cordon).

use serde_json::json;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::clusters::Clusters;
use super::loader::{problems, Loader};
use super::map::Map;
use super::plan_panel::{burst, plan};
use super::toolbar::toolbar;
use super::workloads::Workloads;
use super::{Ask, Model, Source};

pub fn page(ask: &Ask, m: &UseReducerHandle<Model>, embedded: bool) -> Html {
    let busy = m.pending.as_ref().map(|(_, _, label)| label.clone());
    html! {
        <section class="fleet" aria-labelledby="fleet-heading">
            <h2 id="fleet-heading">{ "Fleet" }</h2>
            <p class="lede">{ "Every workload on every member cluster. Fail, cordon, recover or delete a \
                cluster, scale a workload, apply a WorkloadRebalancer: read what Karmada's scheduler \
                would do, binding by binding." }</p>
            <Loader ask={ask.clone()} example={match &m.source { Some(Source::Example(id)) => Some(id.clone()), _ => None }} />
            <div class="fleet-status" aria-live="polite">
                if let Some(label) = &busy {
                    { super::progress::status(ask, m, label) }
                } else if let Some(ms) = m.ms {
                    <span id="fleet-time" class="muted">{ format!("answered in {ms:.0} ms") }</span>
                }
            </div>
            if let Some(e) = &m.error {
                <p id="fleet-error" class="error" role="alert">{ e }</p>
            }
            if let (Some(report), Some(_)) = (&m.report, &m.state) {
                { problems(report) }
            }
            if let Some(state) = &m.state {
                { toolbar(ask, m, embedded) }
                <Apply ask={ask.clone()} />
                <super::add_cluster::AddCluster ask={ask.clone()} state={state.clone()} />
                if let Some(policies) = &m.policies {
                    <super::policy_form::PolicyForm ask={ask.clone()} policies={policies.clone()} />
                }
                { history(ask, m) }
                if let Some((without, with)) = &m.burst {
                    { burst(without, with) }
                } else if let Some(shown) = &m.plan {
                    { plan(shown) }
                }
                { super::readiness::panel(ask, m) }
                <Clusters ask={ask.clone()} state={state.clone()} />
                if state.clusters.len() > 12 {
                    <Map state={state.clone()} />
                }
                <Workloads ask={ask.clone()} state={state.clone()} />
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ApplyProps {
    ask: Ask,
}

/// A policy (PropagationPolicy, ClusterPropagationPolicy) or template applied over the fleet's,
/// as `kubectl apply` would: an event like the others.
#[function_component(Apply)]
fn apply(p: &ApplyProps) -> Html {
    let text = use_state(String::new);
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            text.set(area.value());
        })
    };
    let on_apply = {
        let (ask, text) = (p.ask.clone(), text.clone());
        Callback::from(move |_| {
            if !text.trim().is_empty() {
                ask.apply("objects applied".into(), json!({ "apply": *text }));
            }
        })
    };
    html! {
        <details class="fleet-apply">
            <summary>{ "Apply a policy or a template (kubectl apply)" }</summary>
            <textarea id="fleet-apply-text" rows="8" value={(*text).clone()} oninput={on_input}
                      aria-label="PropagationPolicies, ClusterPropagationPolicies or templates, YAML or JSON" />
            <button type="button" id="fleet-apply" onclick={on_apply}>{ "Apply" }</button>
        </details>
    }
}

fn history(ask: &Ask, m: &Model) -> Html {
    if m.history.is_empty() {
        return Html::default();
    }
    let item = |k: usize, label: &str| {
        let ask = ask.clone();
        let current = k == m.at;
        html! {
            <li aria-current={current.then_some("step")}>
                <button type="button" class="link" disabled={current || m.pending.is_some()}
                        onclick={Callback::from(move |_| ask.go(k))}>{ label.to_string() }</button>
            </li>
        }
    };
    html! {
        <section class="fleet-history" aria-label="events">
            <ol id="fleet-steps" start="0">
                { item(0, "the fleet as read") }
                { for m.history.iter().enumerate().map(|(k, s)| item(k + 1, &s.label)) }
            </ol>
        </section>
    }
}
