//! The whole scenario as JSON text: edit it directly, import a file, export one. Text that is
//! not JSON yet stays as typed with the parse error under it; the document changes once it
//! parses.

use std::rc::Rc;

use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::field::Dispatch;
use crate::platform;
use crate::state::{Action, Draft};

#[derive(Properties, PartialEq)]
pub struct JsonProps {
    pub doc: Rc<Value>,
    /// Text kept from earlier that is not JSON yet.
    pub draft: Option<Rc<Draft>>,
}

/// What JSON text means: the document, or where it stops being JSON.
pub fn read(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))
}

#[function_component(JsonEditor)]
pub fn json_editor(p: &JsonProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    // Valid text as typed (its own spacing) while it is what the document holds.
    let typed = use_state(|| None::<(String, Value)>);
    let text = match (&p.draft, &*typed) {
        (Some(d), _) => d.text.clone(),
        (None, Some((text, v))) if *v == *p.doc => text.clone(),
        _ => pretty(&p.doc),
    };
    let oninput = {
        let (typed, dispatch) = (typed.clone(), dispatch.clone());
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            let text = area.value();
            match read(&text) {
                Ok(v) => {
                    typed.set(Some((text, v.clone())));
                    dispatch.dispatch(Action::Replace(v, None));
                }
                Err(error) => dispatch.dispatch(Action::Draft(Some((text, error)))),
            }
        })
    };
    let discard = {
        let dispatch = dispatch.clone();
        Callback::from(move |_| dispatch.dispatch(Action::Draft(None)))
    };
    let moved_on = p
        .draft
        .as_ref()
        .is_some_and(|d| !Rc::ptr_eq(&d.base, &p.doc));
    html! {
        <section class="editor json" aria-label="scenario JSON">
            <textarea id="scenario-json" aria-label="scenario JSON" spellcheck="false"
                      aria-invalid={p.draft.is_some().then_some("true")}
                      aria-describedby={p.draft.is_some().then_some("json-problem")}
                      value={text} {oninput} />
            if let Some(d) = &p.draft {
                <p class="problem" id="json-problem" data-code="invalid_json">
                    { format!("Not JSON yet ({}): the outcome is the last scenario that read. ", d.error) }
                    if moved_on { { "The scenario has changed in the form since; once this text reads, it replaces those changes. " } }
                    <button type="button" id="discard-draft" onclick={discard}>{ "Discard this text" }</button>
                </p>
            }
        </section>
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

#[derive(Properties, PartialEq)]
pub struct FileProps {
    pub doc: Rc<Value>,
}

/// Import a scenario file; export the scenario as one.
#[function_component(FileButtons)]
pub fn file_buttons(p: &FileProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let import = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        let dispatch = dispatch.clone();
        yew::platform::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            let text = text.ok().and_then(|t| t.as_string()).unwrap_or_default();
            dispatch.dispatch(match read(&text) {
                Ok(v) if v.is_object() => Action::Replace(v, None),
                Ok(_) => Action::Notice(format!("{} is not a scenario object.", file.name())),
                Err(e) => Action::Notice(format!("{} is not JSON ({e}).", file.name())),
            });
        });
    });
    let export = {
        let doc = p.doc.clone();
        Callback::from(move |_| platform::download("scenario.json", &pretty(&doc)))
    };
    html! {
        <>
            <label class="button" title="open a scenario file (JSON) saved from here">{ "Open scenario file" }
                <input type="file" accept=".json,application/json" class="sr" id="import" onchange={import} />
            </label>
            <button type="button" id="export" onclick={export}
                    title="download the scenario as a JSON file">{ "Save scenario file" }</button>
        </>
    }
}
