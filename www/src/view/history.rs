//! The step history as the page shows it: each applied step with what changed and what moved,
//! the scenario being edited after them, back and forward, and a link to the whole history
//! (docs/playground.md, "History").

use std::rc::Rc;

use serde_json::Value;
use yew::prelude::*;

use crate::field::Dispatch;
use crate::history::{write_history, At, Step};
use crate::platform;
use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct HistoryProps {
    pub steps: Rc<Vec<Step>>,
    pub at: At,
    pub doc: Rc<Value>,
    /// The seed in effect when the scenario pins none (pinned into a shared history).
    pub drawn: u64,
    pub back: Option<usize>,
    pub forward: Option<Option<usize>>,
}

#[function_component(HistoryView)]
pub fn history_view(p: &HistoryProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let go = |to: Option<usize>| {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.dispatch(Action::GoTo(to)))
    };
    let share = {
        let (steps, doc, at, drawn) = (p.steps.clone(), p.doc.clone(), p.at, p.drawn);
        Callback::from(move |_| {
            let doc = crate::history::pinned(&doc, drawn);
            let fragment = crate::share::encode_history(&write_history(&steps, &doc, at));
            platform::set_fragment(&fragment);
            platform::copy(&format!("{}{fragment}", platform::playground_url()));
            platform::mark_copied("share-history");
        })
    };
    let from_note = |i: usize, from: Option<usize>| match from {
        Some(f) if f + 1 != i => format!(" (from step {})", f + 1),
        _ => String::new(),
    };
    let now = match p.at {
        At::Now(from) => Some(from),
        At::Step(_) => None,
    };
    html! {
        <section id="history" class="history" aria-labelledby="history-heading">
            <h3 id="history-heading">{ "History" }</h3>
            if p.steps.is_empty() {
                <p class="hint">{ "“apply as current” records the outcome as step 1; then change \
                    something (scale, add a cluster) and apply again to see what moves." }</p>
            } else {
                <ol class="steps">
                    { for p.steps.iter().enumerate().map(|(i, s)| {
                        let current = p.at == At::Step(i);
                        html! {
                            <li aria-current={current.then_some("step")}>
                                <button type="button" class="step" data-step={i.to_string()}
                                        onclick={go(Some(i))} disabled={current}>
                                    { format!("Step {}: {}{}", i + 1, s.label, from_note(i, s.from)) }
                                </button>
                                <span class="moved">{ &s.moved }</span>
                            </li>
                        }
                    }) }
                    if let Some(from) = now {
                        <li aria-current="step" class="now">
                            { match from {
                                Some(f) => format!("Now: editing from step {} (not applied yet)", f + 1),
                                None => "Now: editing (not applied yet)".into(),
                            } }
                        </li>
                    } else if p.forward == Some(None) {
                        <li class="now"><button type="button" class="step" onclick={go(None)}>
                            { "Now: the scenario you were editing" }</button></li>
                    }
                </ol>
                <div class="toolbar">
                    <button type="button" id="history-back" disabled={p.back.is_none()}
                            onclick={go(p.back)}>{ "← back" }</button>
                    <button type="button" id="history-forward" disabled={p.forward.is_none()}
                            onclick={go(p.forward.flatten())}>{ "forward →" }</button>
                    <button type="button" id="share-history" onclick={share}>{ "share the history" }</button>
                </div>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct StepBannerProps {
    pub steps: Rc<Vec<Step>>,
    pub at: At,
    /// Whether a scenario was set aside by going back (forward past the last step brings it).
    pub held: bool,
}

/// Above the outcome while the page shows an applied step, not the scenario being edited:
/// which step, and the way back.
#[function_component(StepBanner)]
pub fn step_banner(p: &StepBannerProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let At::Step(k) = p.at else {
        return Html::default();
    };
    let label = p.steps.get(k).map(|s| s.label.as_str()).unwrap_or_default();
    let home = Callback::from(move |_| dispatch.dispatch(Action::GoTo(None)));
    html! {
        <p id="step-banner" class="step-banner" role="status">
            { format!("Viewing step {} as it was applied ({label}). Editing it starts a new scenario \
                       from where that step started. ", k + 1) }
            if p.held {
                <button type="button" id="step-banner-home" onclick={home}>
                    { "back to the scenario you were editing" }</button>
            }
        </p>
    }
}
