//! The page's hooks around the store: the core's answer for the scenario shown, the last
//! answer that was not an error (kept in view, dimmed, while the scenario has one), the
//! autosave, the widget's change callback, and undo from the keyboard (docs/playground.md).

use std::rc::Rc;

use gloo_timers::callback::Timeout;
use serde_json::Value;
use yew::prelude::*;

use crate::field::Dispatch;
use crate::history::{At, Step};
use crate::platform;
use crate::run::Run;
use crate::state::{Action, State};

/// Autosave this long after the last edit.
const AUTOSAVE_DELAY_MS: u32 = 250;

/// What the core makes of the scenario, computed again only when it or the seed drawn
/// changes.
#[hook]
pub fn use_run(state: &UseReducerHandle<State>) -> Rc<Run> {
    use_memo((state.doc.clone(), state.drawn), |(doc, drawn)| {
        Run::new(doc, *drawn)
    })
}

/// The run shown: `run` when it has an outcome, else the last one that had, which stays in
/// view dimmed (`run` itself while there has been none).
#[hook]
pub fn use_shown(run: &Rc<Run>) -> Rc<Run> {
    let last_good = use_mut_ref(|| None::<Rc<Run>>);
    if run.outcome.is_ok() {
        *last_good.borrow_mut() = Some(run.clone());
    }
    let shown = last_good.borrow().clone();
    shown.unwrap_or_else(|| run.clone())
}

/// Autosave (the scenario, or the whole history) once edits pause, so a large scenario is not
/// serialized on every keystroke; and on every edit, drop the link in the address bar (the one
/// the page opened with, or one "Share link" put there since) so a reload shows the edits. An
/// embedded view never overwrites the playground's own autosave.
#[hook]
pub fn use_autosave(state: &UseReducerHandle<State>, embedded: bool) {
    let first = use_mut_ref(|| Some(state.doc.clone()));
    let pending = use_mut_ref(|| None::<Timeout>);
    // Every change of the history changes the scenario too (an apply, a step revisited, an
    // undo), so the scenario's identity decides when to save.
    use_effect_with(
        (state.doc.clone(), state.steps.clone(), state.at),
        move |(doc, steps, at)| {
            let unchanged = first.borrow().as_ref().is_some_and(|f| Rc::ptr_eq(f, doc));
            if !unchanged && !embedded {
                first.borrow_mut().take();
                if !platform::fragment().is_empty() {
                    platform::set_fragment("");
                }
                *pending.borrow_mut() = Some(save_later(doc.clone(), steps.clone(), *at));
            }
        },
    );
}

/// Save the scenario, or its whole history, after [`AUTOSAVE_DELAY_MS`].
fn save_later(doc: Rc<Value>, steps: Rc<Vec<Step>>, at: At) -> Timeout {
    Timeout::new(AUTOSAVE_DELAY_MS, move || {
        let saved = if steps.is_empty() {
            serde_json::to_string(&*doc)
        } else {
            serde_json::to_string(&crate::history::write_history(&steps, &doc, at))
        };
        if let Ok(text) = saved {
            platform::autosave(&text);
        }
    })
}

/// A widget tells its element the scenario shown.
#[hook]
pub fn use_on_change(doc: &Rc<Value>, on_change: Option<js_sys::Function>) {
    use_effect_with(doc.clone(), move |doc| {
        if let (Some(f), Ok(text)) = (on_change, serde_json::to_string(&**doc)) {
            let _ = f.call1(&wasm_bindgen::JsValue::NULL, &text.into());
        }
    });
}

/// Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo the scenario wherever focus is, so that an
/// undo never silently reverts a field out of sight. Text the scenario does not hold (the
/// Kubernetes tab's manifests) keeps the browser's own undo. Not in an embedded view: several
/// may share a page, and none has undo buttons.
#[hook]
pub fn use_undo_keys(dispatch: &Dispatch, embedded: bool) {
    let dispatch = dispatch.clone();
    use_effect_with((), move |_| {
        let listener = (!embedded).then(|| {
            platform::on_keydown(move |e| {
                if !(e.ctrl_key() || e.meta_key()) || e.alt_key() {
                    return;
                }
                let action = match (e.key().as_str(), e.shift_key()) {
                    ("z" | "Z", false) => Action::Undo,
                    ("z" | "Z", true) | ("y" | "Y", false) => Action::Redo,
                    _ => return,
                };
                let foreign = e
                    .target()
                    .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                    .is_some_and(|el| el.closest(".kubernetes").ok().flatten().is_some());
                if foreign {
                    return;
                }
                e.prevent_default();
                dispatch.dispatch(action);
            })
        });
        move || drop(listener)
    });
}
