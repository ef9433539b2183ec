//! The whole scenario as JSON text: edit it directly, import a file, export one. Text that is
//! not JSON yet stays as typed with the parse error under it; the document changes once it
//! parses.

use std::rc::Rc;

use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::field::Dispatch;
use crate::platform;
use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct JsonProps {
    pub doc: Rc<Value>,
}

/// What JSON text means: the document, or where it stops being JSON.
pub fn read(text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))
}

/// Text as the user typed it, read once when typed.
struct Typed {
    text: String,
    read: Result<Value, String>,
    /// The document when it was typed (what half-typed text stands over).
    base: Rc<Value>,
}

#[function_component(JsonEditor)]
pub fn json_editor(p: &JsonProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let typed = use_state(|| None::<Typed>);
    // Typed text stays while it is what the document holds (or, not JSON yet, while the
    // document is the one it was typed over); after an outside change the document shows.
    let (text, error) = match &*typed {
        Some(Typed {
            text, read: Ok(v), ..
        }) if *v == *p.doc => (text.clone(), None),
        Some(Typed {
            text,
            read: Err(e),
            base,
        }) if Rc::ptr_eq(base, &p.doc) => (text.clone(), Some(e.clone())),
        _ => (pretty(&p.doc), None),
    };
    let oninput = {
        let (typed, dispatch, base) = (typed.clone(), dispatch.clone(), p.doc.clone());
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            let text = area.value();
            let read = read(&text);
            if let Ok(v) = &read {
                dispatch.dispatch(Action::Replace(v.clone(), None));
            }
            typed.set(Some(Typed {
                text,
                read,
                base: base.clone(),
            }));
        })
    };
    html! {
        <section class="editor json" aria-label="scenario JSON">
            <textarea id="scenario-json" aria-label="scenario JSON" spellcheck="false"
                      value={text} {oninput} />
            if let Some(e) = error {
                <span class="problem" role="alert" data-code="invalid_json">{ e }</span>
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
            <label class="button">{ "Import" }
                <input type="file" accept=".json,application/json" class="sr" id="import" onchange={import} />
            </label>
            <button type="button" id="export" onclick={export}>{ "Export" }</button>
        </>
    }
}
