//! The fleet view's page: the loader, the history, the plan of the last event, the clusters
//! with their load, the clusters × namespaces map and the workloads. Words are Karmada's and
//! kubectl's (binding, member cluster, replicas, taint, cordon).

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use allot_core::karmada::fleet::health::Readiness;
use allot_core::karmada::fleet::plan::{BindingPlan, ClusterPlan, Outcome};
use allot_core::kubernetes::plan::ClusterState;
use allot_core::resource::ResourceList;
use serde_json::{json, Value};
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::window;
use super::worker::State;
use super::{restored, Ask, Model, Msg, Shown, Source, Switches, EXAMPLES, LINK_DUMP};
use crate::pager::use_pager;
use crate::platform;

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
struct LoaderProps {
    ask: Ask,
    /// The example loaded, if one is.
    example: Option<String>,
}

/// Load a fleet: an example, a file (a dump, or a fleet file this view exported), pasted text.
#[function_component(Loader)]
fn loader(p: &LoaderProps) -> Html {
    let pasted = use_state(String::new);
    let on_example = {
        let ask = p.ask.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let id = select.value();
            if !id.is_empty() {
                ask.open(Source::Example(id), Vec::new(), 0);
            }
        })
    };
    let on_file = {
        let ask = p.ask.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                read_file(ask.clone(), file);
            }
        })
    };
    // A file dropped anywhere on the loader reads as one chosen.
    let on_drop = {
        let ask = p.ask.clone();
        Callback::from(move |e: DragEvent| {
            if let Some(file) = e.data_transfer().and_then(|d| d.files()?.get(0)) {
                e.prevent_default();
                read_file(ask.clone(), file);
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let on_paste = {
        let pasted = pasted.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            pasted.set(area.value());
        })
    };
    let on_read = {
        let (ask, pasted) = (p.ask.clone(), pasted.clone());
        Callback::from(move |_| read_text(&ask, (*pasted).clone()))
    };
    html! {
        <div class="fleet-load" ondrop={on_drop} ondragover={on_drag_over}>
            <label>{ "Example fleet " }
                <select id="fleet-example" onchange={on_example}>
                    <option value="" selected={p.example.is_none()}>{ "Load an example fleet…" }</option>
                    { for EXAMPLES.iter().map(|(id, title)| html! {
                        <option value={*id} selected={p.example.as_deref() == Some(*id)}>{ *title }</option> }) }
                </select>
            </label>
            <label class="file">{ "Dump or fleet file (or drop one here) " }
                <input id="fleet-file" type="file" accept=".yaml,.yml,.json" onchange={on_file} />
            </label>
            <details>
                <summary>{ "Paste a dump" }</summary>
                <p class="muted">{ "kubectl get clusters,clustertaintpolicies,pp,cpp,rb,crb,pc,deploy,sts,job -A -o yaml" }</p>
                <textarea id="fleet-paste" rows="8" aria-label="a control plane's dump, YAML or JSON"
                          value={(*pasted).clone()} oninput={on_paste} />
                <button type="button" id="fleet-read" onclick={on_read}>{ "Read the dump" }</button>
            </details>
        </div>
    }
}

/// A switch of the toolbar: its id, label, what it means, whether on, and how to turn it.
/// A checkbox of the toolbar: (id, label, what it means, whether on, what it turns).
type Toggle = (String, &'static str, String, bool, Turns);

/// What a toolbar checkbox turns: the taint eviction, or a gate.
#[derive(Clone, Copy)]
enum Turns {
    Eviction,
    Directly,
    Gate(allot_core::karmada::gates::Gate),
}

/// The taint eviction's checkbox: gate Failover and `--enable-no-execute-taint-eviction`.
fn eviction_toggle(switches: Switches) -> Vec<Toggle> {
    vec![(
        "fleet-evict".into(),
        "Taint eviction",
        "gate Failover and --enable-no-execute-taint-eviction: a NoExecute taint evicts the bindings that do not tolerate it".into(),
        switches.evict,
        Turns::Eviction,
    )]
}

/// A chosen or dropped file's text, read as [`read_text`] reads it.
fn read_file(ask: Ask, file: web_sys::File) {
    yew::platform::spawn_local(async move {
        let text = wasm_bindgen_futures::JsFuture::from(file.text())
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default();
        read_text(&ask, text);
    });
}

/// A fleet file this view exported, or a dump.
fn read_text(ask: &Ask, text: String) {
    let saved = serde_json::from_str::<Value>(&text)
        .ok()
        .filter(|v| v.get("allotFleet").is_some());
    match saved.map(|v| restored(&v)) {
        Some(Ok((source, steps, at, switches))) => {
            ask.model.dispatch(Msg::Switches(switches));
            ask.open(source, steps, at);
        }
        Some(Err(why)) => ask.model.dispatch(Msg::Failed(format!(
            "This fleet file cannot be read: {why}."
        ))),
        None => ask.open(Source::Dump(text.into()), Vec::new(), 0),
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

fn toolbar(ask: &Ask, m: &Model, embedded: bool) -> Html {
    let go = |k: usize| {
        let ask = ask.clone();
        Callback::from(move |_| ask.go(k))
    };
    // The history as saved, made when asked for: it carries the dump's text, which is copied.
    let share = {
        let ask = ask.clone();
        Callback::from(move |_| {
            let Some(v) = &ask.model.saved() else {
                return;
            };
            let small = v["source"]["dump"]
                .as_str()
                .is_none_or(|d| d.len() <= LINK_DUMP);
            if !small {
                ask.model.dispatch(Msg::Failed(
                    "This fleet is too large for a link: export the file instead.".into(),
                ));
                return;
            }
            let fragment = crate::share::encode_fleet(v);
            let url = format!("{}?view=fleet{fragment}", platform::playground_url());
            if !embedded {
                platform::set_fragment(&fragment);
            }
            platform::copy(&url);
            platform::mark_copied("fleet-share");
        })
    };
    let model = ask.model.clone();
    let export = Callback::from(move |_| {
        if let Some(v) = &model.saved() {
            platform::download(
                "fleet.allot.json",
                &serde_json::to_string_pretty(v).unwrap_or_default(),
            );
        }
    });
    // One checkbox per setting: the taint eviction, then each gate the table says changes a
    // fleet's answer (docs/rules/versions.md "Feature gates").
    let switches = m.switches;
    let mut toggles: Vec<Toggle> = eviction_toggle(switches);
    toggles.extend(Switches::gates().map(|g| {
        (
            format!("fleet-gate-{}", g.name()),
            g.name(),
            format!("gate {g}: {}", g.effect().unwrap_or_default()),
            switches.is_on(g),
            Turns::Gate(g),
        )
    }));
    toggles.push((
        "fleet-directly".into(),
        "Purge directly",
        "--no-execute-taint-eviction-purge-mode=Directly: an evicted workload is removed at once (else Gracefully: it stays until its graceful eviction task ends); a policy's failover.cluster.purgeMode overrides it".into(),
        switches.directly,
        Turns::Directly,
    ));
    let toggles = toggles
        .into_iter()
        .map(|(id, label, title, on, turn)| {
            let ask = ask.clone();
            let changed = Callback::from(move |e: Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                let mut s = switches;
                match turn {
                    Turns::Eviction => s.evict = input.checked(),
                    Turns::Directly => s.directly = input.checked(),
                    Turns::Gate(g) => s.turn(g, input.checked()),
                }
                ask.model.dispatch(Msg::Switches(s));
            });
            html! {
                <label {title}><input type="checkbox" {id} checked={on} onchange={changed} />
                    { format!(" {label}") }</label>
            }
        })
        .collect::<Html>();
    let burst = {
        let ask = ask.clone();
        Callback::from(move |_| ask.burst())
    };
    let busy = m.pending.is_some();
    html! {
        <nav class="toolbar fleet-toolbar" aria-label="fleet history">
            <button type="button" id="fleet-undo" disabled={busy || m.at == 0}
                    onclick={go(m.at.saturating_sub(1))}>{ "Undo" }</button>
            <button type="button" id="fleet-redo" disabled={busy || m.at >= m.history.len()}
                    onclick={go(m.at + 1)}>{ "Redo" }</button>
            <button type="button" id="fleet-share" onclick={share}>{ "Share link" }</button>
            <button type="button" id="fleet-export" onclick={export}>{ "Export file" }</button>
            { toggles }
            { super::timeline::times(ask, switches) }
            <button type="button" id="fleet-burst" disabled={busy} onclick={burst}
                    title="every binding as the scheduler takes them after a restart, with and without protection">
                { "Replay the burst" }</button>
        </nav>
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

/// `member1:3, member2:2`, or a dash.
fn placement(c: &BTreeMap<String, i64>) -> String {
    if c.is_empty() {
        return "–".into();
    }
    c.iter()
        .map(|(k, v)| format!("{k}:{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// CPU in cores (`16.5`), from the millicores the core counts in.
fn cpu(list: &ResourceList) -> String {
    cores(list.get("cpu"))
}

/// Millicores in cores (`16.5`), millicores below one core (`500m`).
fn cores(m: u64) -> String {
    if m != 0 && m < 1000 {
        format!("{m}m")
    } else if m % 1000 == 0 {
        format!("{}", m / 1000)
    } else {
        format!("{:.2}", m as f64 / 1000.0)
            .trim_end_matches('0')
            .to_string()
    }
}

/// `n word` or `n words`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn plan(shown: &Shown) -> Html {
    let p = &shown.plan;
    let of = |f: fn(&BindingPlan) -> bool| -> Vec<&BindingPlan> {
        p.bindings.iter().filter(|b| f(b)).collect()
    };
    let moved =
        of(|b| !b.pending && matches!(b.outcome, Outcome::Changed { .. } | Outcome::Evicted));
    let unschedulable = of(|b| !b.pending && matches!(b.outcome, Outcome::Unschedulable { .. }));
    let pending = of(|b| b.pending);
    let kept = of(|b| matches!(b.outcome, Outcome::Unchanged { .. }));
    let s = &p.summary;
    let unplaced = if s.unplaced_replicas > 0 {
        format!(
            ", {} placed nowhere",
            count(s.unplaced_replicas, "replica", "replicas")
        )
    } else {
        String::new()
    };
    let already = if s.pending > 0 {
        format!(
            "; {} already pending before the event",
            count(s.pending as u64, "binding", "bindings")
        )
    } else {
        String::new()
    };
    html! {
        <section id="fleet-plan" class="fleet-plan" aria-labelledby="fleet-plan-heading">
            <h3 id="fleet-plan-heading">{ format!("Plan: {}", shown.label) }</h3>
            <p id="fleet-summary" class="summary">{ format!(
                "{} changed ({} moved{unplaced}), {} unschedulable, {} unchanged; {} overcommitted{already}",
                count(s.changed as u64, "binding", "bindings"), count(s.moved_replicas, "replica", "replicas"),
                s.unschedulable, s.unchanged,
                count(s.overcommitted_clusters as u64, "cluster", "clusters")) }</p>
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

/// Memory in binary units (`15.5Gi`), from the bytes the core counts in.
fn memory(list: &ResourceList) -> String {
    binary(list.get("memory"))
}

fn binary(bytes: u64) -> String {
    let mut n = bytes as f64;
    for unit in ["", "Ki", "Mi", "Gi", "Ti"] {
        if n < 1024.0 || unit == "Ti" {
            let text = format!("{n:.1}");
            let text = text.trim_end_matches('0').trim_end_matches('.');
            return format!("{text}{unit}");
        }
        n /= 1024.0;
    }
    String::new()
}

fn burst(without: &Shown, with: &Shown) -> Html {
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

#[derive(Properties, PartialEq)]
struct StateProps {
    ask: Ask,
    state: Rc<State>,
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

#[function_component(Clusters)]
fn clusters(p: &StateProps) -> Html {
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

#[derive(Properties, PartialEq)]
struct MapProps {
    state: Rc<State>,
}

/// The map's figures: the namespaces shown (the 24 with the most replicas), and each cluster
/// that holds replicas of one of them, by its index, with its replicas of each.
#[derive(Debug, Default, PartialEq)]
struct Grid {
    namespaces: Rc<Vec<String>>,
    rows: Vec<(usize, Rc<Vec<i64>>)>,
    /// The most replicas of a cell shown, at least 1.
    max: i64,
}

/// The map of `state`, read in one pass over the bindings with borrowed names (10,000 bindings
/// on three clusters each would otherwise be 30,000 keys allocated on every event).
fn grid(state: &State) -> Grid {
    let mut totals: BTreeMap<&str, i64> = BTreeMap::new();
    for b in &state.bindings {
        *totals.entry(b.id.namespace.as_str()).or_default() += b.clusters.values().sum::<i64>();
    }
    let mut namespaces: Vec<(&str, i64)> = totals.into_iter().collect();
    namespaces.sort_by_key(|n| std::cmp::Reverse(n.1));
    namespaces.truncate(24);
    let column: HashMap<&str, usize> = namespaces
        .iter()
        .enumerate()
        .map(|(k, (ns, _))| (*ns, k))
        .collect();
    let at: HashMap<&str, usize> = state
        .clusters
        .iter()
        .enumerate()
        .map(|(i, c)| (c.load.name.as_str(), i))
        .collect();
    let mut cells: Vec<Option<Vec<i64>>> = vec![None; state.clusters.len()];
    for b in &state.bindings {
        let Some(&k) = column.get(b.id.namespace.as_str()) else {
            continue;
        };
        for (c, n) in &b.clusters {
            if let Some(&i) = at.get(c.as_str()) {
                cells[i].get_or_insert_with(|| vec![0; namespaces.len()])[k] += n;
            }
        }
    }
    let rows: Vec<(usize, Rc<Vec<i64>>)> = cells
        .into_iter()
        .enumerate()
        .filter_map(|(i, row)| Some((i, Rc::new(row?))))
        .collect();
    let max = rows
        .iter()
        .flat_map(|(_, r)| r.iter().copied())
        .max()
        .unwrap_or(1)
        .max(1);
    Grid {
        namespaces: Rc::new(
            namespaces
                .into_iter()
                .map(|(ns, _)| ns.to_string())
                .collect(),
        ),
        rows,
        max,
    }
}

/// Clusters × namespaces: each cell's shade the replicas the namespace has on the cluster; the
/// rows on screen rendered, as the workloads are.
#[function_component(Map)]
fn map(p: &MapProps) -> Html {
    let g = use_memo(p.state.clone(), |state| grid(state));
    let (slice, node, on_scroll) = window::use_window(g.rows.len());
    html! {
        <section class="fleet-map" aria-labelledby="fleet-map-heading">
            <h3 id="fleet-map-heading">{ "Map: member clusters × namespaces" }</h3>
            <p class="muted">{ "The 24 namespaces with the most replicas, and the clusters that hold them; a cell's shade is the replicas there." }</p>
            <div class="fleet-rows fleet-map-rows" ref={node} onscroll={on_scroll} tabindex="0" role="region"
                 aria-label={format!("map: {} clusters", g.rows.len())}>
            <table id="fleet-map" class="fleet-map-table" aria-rowcount={(g.rows.len() + 1).to_string()}>
                <thead><tr aria-rowindex="1"><th scope="col">{ "cluster" }</th>
                    { for g.namespaces.iter().map(|ns| html! { <th scope="col" class="ns"><span>{ if ns.is_empty() { "(cluster)" } else { ns } }</span></th> }) }
                </tr></thead>
                <tbody>
                { window::body(&slice, g.namespaces.len() + 1, slice.rows.clone().map(|k| {
                    let (i, cells) = &g.rows[k];
                    let name = AttrValue::from(p.state.clusters[*i].load.name.clone());
                    html! { <MapRow key={name.to_string()} name={name.clone()} row={k} cells={cells.clone()}
                                    namespaces={g.namespaces.clone()} max={g.max} /> }
                })) }
                </tbody>
            </table></div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct MapRowProps {
    name: AttrValue,
    /// The row's index among the map's.
    row: usize,
    cells: Rc<Vec<i64>>,
    namespaces: Rc<Vec<String>>,
    max: i64,
}

/// A cluster's row of the map: rendered again only when its cells change.
#[function_component(MapRow)]
fn map_row(p: &MapRowProps) -> Html {
    let name = &p.name;
    html! {
        <tr data-row={p.row.to_string()} aria-rowindex={(p.row + 2).to_string()}><th scope="row">{ name }</th>
        { for p.namespaces.iter().zip(p.cells.iter()).map(|(ns, &n)| {
            // The square root: a few large cells do not wash out the rest.
            let alpha = if n == 0 { 0.0 } else { 0.15 + 0.85 * (n as f64 / p.max as f64).sqrt() };
            html! { <td title={format!("{ns} on {name}: {n} replicas")}
                        style={format!("background:rgba(37,99,235,{alpha:.2})")}>
                        if n > 0 { <span class="sr">{ n }</span> }</td> }
        }) }
        </tr>
    }
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

#[function_component(Workloads)]
fn workloads(p: &StateProps) -> Html {
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

fn problems(report: &Value) -> Html {
    let mut list = report["problems"].as_array().cloned().unwrap_or_default();
    list.extend(report["warnings"].as_array().cloned().unwrap_or_default());
    if list.is_empty() {
        return Html::default();
    }
    html! {
        <details id="fleet-problems" class="fleet-report" open=true>
            <summary>{ format!("How the dump was read: {}", count(list.len() as u64, "problem", "problems")) }</summary>
            <ul>
            { for list.iter().take(200).map(|p| html! {
                <li><strong>{ p["object"].as_str().unwrap_or("") }</strong>{ " " }
                    <code>{ p["field"].as_str().unwrap_or("") }</code>{ format!(": {}", p["message"].as_str().unwrap_or("")) }</li>
            }) }
            </ul>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fleet::worker::Plan;
    use allot_core::karmada::fleet::entry::Condition;

    /// A binding: namespace, name, policy, replicas by cluster.
    type Given<'a> = (&'a str, &'a str, Option<&'a str>, &'a [(&'a str, i64)]);

    /// A fleet of clusters `a`, `b`, `c` and `bindings`, read as the worker's answer is.
    fn state(bindings: &[Given]) -> State {
        let cluster = |name: &str| {
            let load = json!({"replicas": 0, "requests": {}});
            json!({"name": name, "ready": "ready", "cordoned": false, "deleting": false,
            "taints": [], "labels": {}, "stateBefore": "ready", "state": "ready",
            "before": load, "after": load, "added": load,
            "allocatable": {}, "free": {}, "overcommit": {}})
        };
        let bindings: Vec<Value> = bindings
            .iter()
            .map(|(ns, name, policy, placed)| {
                let clusters: serde_json::Map<String, Value> =
                    placed.iter().map(|(c, n)| ((*c).into(), (*n).into())).collect();
                json!({"id": {"kind": if ns.is_empty() { "ClusterResourceBinding" } else { "ResourceBinding" },
                              "namespace": ns, "name": name},
                       "workload": format!("Deployment/{ns}/{name}"), "policy": policy, "claimed": true,
                       "replicas": placed.iter().map(|(_, n)| n).sum::<i64>(), "clusters": clusters,
                       "condition": {"reason": "success"}})
            })
            .collect();
        serde_json::from_value(
            json!({"clusters": [cluster("a"), cluster("b"), cluster("c")], "bindings": bindings}),
        )
        .expect("a state")
    }

    fn fleet() -> State {
        state(&[
            ("web", "b", Some("spread"), &[("a", 1), ("b", 1)]),
            ("db", "x", Some("pin"), &[("c", 4)]),
            ("web", "a", Some("spread"), &[("a", 2)]),
            ("web", "c", Some("alone"), &[("b", 1)]),
            ("", "cluster-wide", None, &[("a", 1)]),
        ])
    }

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

    #[test]
    fn the_map_holds_the_clusters_with_replicas_of_a_namespace_shown() {
        let s = fleet();
        let g = grid(&s);
        // web 5 replicas, db 4, cluster-scoped 1.
        assert_eq!(*g.namespaces, ["web", "db", ""]);
        let rows: Vec<(usize, Vec<i64>)> = g.rows.iter().map(|(i, r)| (*i, r.to_vec())).collect();
        assert_eq!(
            rows,
            [(0, vec![3, 0, 1]), (1, vec![2, 0, 0]), (2, vec![0, 4, 0])]
        );
        assert_eq!(g.max, 4);
        assert_eq!(
            grid(&state(&[])),
            Grid {
                max: 1,
                ..Grid::default()
            }
        );
    }
}
