//! The results: the outcome (table, bars, diff, why), the seed, "apply as current", and the
//! compare, evenness and Markdown views.

pub mod compare;
pub mod eru;
pub mod evenness;
pub mod history;
pub mod karmada;
pub mod markdown;
pub mod pipeline;
pub mod rows;

use std::rc::Rc;

use allot_core::scenario::Outcome;
use serde_json::Value;
use yew::prelude::*;

use crate::field::Dispatch;
use crate::platform;
use crate::run::Run;
use crate::state::{draw_seed, Action};

/// A bar for `now` over a tick at `before`, scaled so `scale` fills it.
pub fn bar(now: u64, before: u64, scale: u64) -> Html {
    const WIDTH: u64 = 140;
    let w = |n: u64| (WIDTH * n.min(scale) / scale.max(1)).to_string();
    html! {
        <svg class="bar" width={(WIDTH + 2).to_string()} height="14" role="img"
             viewBox={format!("0 0 {} 14", WIDTH + 2)} preserveAspectRatio="none"
             aria-label={format!("{now} (was {before})")}>
            <rect class="now" x="0" y="2" width={w(now)} height="10" />
            if before > 0 { <line class="before" x1={w(before)} x2={w(before)} y1="0" y2="14" /> }
        </svg>
    }
}

/// What changed, in one short sentence for screen readers (a polite live region): the first
/// few targets and what they get.
pub fn announcement(o: &Outcome) -> String {
    const NAMED: usize = 8;
    // Only the named few are formatted: this runs on every edit, for any number of targets.
    let (what, total, named): (&str, usize, Vec<String>) = match o {
        Outcome::Karmada(k) => (
            "Assignment",
            k.assignment.len(),
            k.assignment
                .iter()
                .take(NAMED)
                .map(|a| format!("{} {}", a.name, a.replicas))
                .collect(),
        ),
        Outcome::Eru(e) => {
            let given = || e.deploy.iter().filter(|(_, &n)| n > 0);
            (
                "New instances",
                given().count(),
                given()
                    .take(NAMED)
                    .map(|(name, n)| format!("{name} {n}"))
                    .collect(),
            )
        }
    };
    let mut text = format!("{what}: {}", named.join(", "));
    if total > NAMED {
        text.push_str(&format!(", and {} more", total - NAMED));
    }
    text
}

/// `1 pod`, `2 pods`: a count with its noun in the right number.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", allot_core::plural(n, one, many))
}

/// Sentences as a list.
pub fn sentences(id: &'static str, lines: &[String]) -> Html {
    html! { <ol {id} class="sentences">{ for lines.iter().map(|l| html! { <li>{ l }</li> }) }</ol> }
}

/// What the seed is, on hover.
const SEED_TITLE: &str = "Where clusters tie exactly, the division orders them at random; \
    allot draws that order from this seed. Pin it to keep this outcome (share links pin it), \
    re-roll to draw another.";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Result,
    Pipeline,
    Compare,
    Evenness,
    Markdown,
}

const TABS: [(Tab, &str, &str); 5] = [
    (Tab::Result, "result", "Result"),
    (Tab::Pipeline, "pipeline", "Pipeline"),
    (Tab::Compare, "compare", "Compare"),
    (Tab::Evenness, "evenness", "Evenness"),
    (Tab::Markdown, "markdown", "Markdown"),
];

#[derive(Properties, PartialEq)]
pub struct ResultsProps {
    pub run: Rc<Run>,
    pub doc: Rc<Value>,
    /// The compact embedded layout: the result only.
    #[prop_or_default]
    pub compact: bool,
    /// Why the outcome shown is not the one the user is looking for (the scenario now has an
    /// error, an import failed): it is dimmed, with this said above it.
    #[prop_or_default]
    pub stale: Option<AttrValue>,
}

#[function_component(Results)]
pub fn results(p: &ResultsProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let tab = use_state(|| Tab::Result);
    let (Some(s), Ok(o)) = (&p.run.scenario, &p.run.outcome) else {
        return html! { <p class="hint">{ "Fix the error to see the outcome." }</p> };
    };
    let (seed, drawn) = o.seed();
    let karmada = matches!(&**o, Outcome::Karmada(_));
    let random = matches!(&**o, Outcome::Karmada(k) if k.random_decided);
    let reroll = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.dispatch(Action::Reroll(draw_seed())))
    };
    let pin = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.dispatch(if drawn { Action::Pin } else { Action::Unpin }))
    };
    let apply = {
        let (dispatch, o) = (dispatch.clone(), o.clone());
        Callback::from(move |_| dispatch.dispatch(Action::Apply(o.clone())))
    };
    // Markdown is only built when asked for: on copy, or in its tab.
    let copy = {
        let (s, o) = (s.clone(), o.clone());
        Callback::from(move |_| {
            platform::copy(&markdown::markdown(&s, &o));
            platform::mark_copied("copy-markdown");
        })
    };
    let body = match (*tab, &**o) {
        (Tab::Result, Outcome::Karmada(_)) => {
            html! { <karmada::KarmadaView scenario={s.clone()} outcome={o.clone()} /> }
        }
        (Tab::Result, Outcome::Eru(_)) => {
            html! { <eru::EruView scenario={s.clone()} outcome={o.clone()} /> }
        }
        (Tab::Pipeline, Outcome::Karmada(k)) => {
            let replicas: std::collections::BTreeMap<String, u64> = k
                .assignment
                .iter()
                .map(|a| (a.name.to_string(), a.replicas))
                .collect();
            html! { <pipeline::PipelineView report={Rc::new((*k.pipeline).clone())}
            replicas={Some(Rc::new(replicas))} /> }
        }
        (Tab::Pipeline, Outcome::Eru(_)) => Html::default(),
        (Tab::Compare, _) => html! { <compare::Compare scenario={s.clone()} {seed} /> },
        (Tab::Evenness, _) => html! { <evenness::Evenness scenario={s.clone()} /> },
        (Tab::Markdown, _) => {
            html! { <textarea id="markdown" readonly=true rows="16" value={markdown::markdown(s, o)} /> }
        }
    };
    // The compact view keeps the result and, for Karmada, the pipeline (why a cluster is out).
    let visible: Vec<&(Tab, &'static str, &'static str)> = TABS
        .iter()
        .filter(|(t, ..)| karmada || !matches!(t, Tab::Evenness | Tab::Pipeline))
        .filter(|(t, ..)| !p.compact || matches!(t, Tab::Result | Tab::Pipeline))
        .collect();
    let shown_tabs: Vec<crate::tabs::TabSpec> =
        visible.iter().map(|(_, id, l)| (*id, *l)).collect();
    let shown_ids: Vec<Tab> = visible.iter().map(|(t, ..)| *t).collect();
    let selected = shown_ids.iter().position(|t| *t == *tab).unwrap_or(0);
    html! {
        <div class={classes!("results", p.stale.is_some().then_some("stale"))}>
            if let Some(why) = &p.stale {
                <p class="hint stale-note" role="status">{ why }</p>
            }
            <div class="toolbar">
                <span id="seed" data-seed={seed.to_string()} data-drawn={drawn.to_string()}
                      title={SEED_TITLE}>
                    if karmada {
                        { if random { "a random tie-break decided a replica" } else { "no tie broken at random" } }
                        <span class="hint">{ format!(" (seed {seed}, {})", if drawn { "drawn" } else { "pinned" }) }</span>
                    } else {
                        { format!("seed {seed} ({})", if drawn { "drawn" } else { "pinned" }) }
                    }
                </span>
                <button type="button" id="reroll" onclick={reroll} disabled={p.stale.is_some()}>{ "re-roll" }</button>
                <button type="button" id="pin" onclick={pin} disabled={p.stale.is_some()}>{ if drawn { "pin" } else { "unpin" } }</button>
                <button type="button" id="apply" onclick={apply} disabled={p.stale.is_some()}
                        title="make this result the current placement, to see what the next change does">
                    { "apply as current" }</button>
                <button type="button" id="copy-markdown" onclick={copy}>{ "copy as Markdown" }</button>
            </div>
            { for o.warnings().iter().map(|w| html! {
                <p class="warning" data-code={w.code} data-path={w.path.text()}>{ format!("{}: {}", w.path, w.message) }</p>
            }) }
            if shown_tabs.len() > 1 {
                { crate::tabs::tablist("results", "results-panel", &shown_tabs, selected, {
                    let (tab, ids) = (tab.clone(), shown_ids.clone());
                    Callback::from(move |i: usize| if let Some(&t) = ids.get(i) { tab.set(t) })
                }) }
            }
            <p id="announce" class="sr" aria-live="polite">{ announcement(o) }</p>
            <div role="tabpanel" id="results-panel" aria-labelledby={format!("tab-{}", shown_tabs[selected].0)}>
                { body }
            </div>
        </div>
    }
}
