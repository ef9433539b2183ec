//! The fleet view's loader (docs/playground.md "The fleet view"): a fleet read from an example,
//! a file (a dump, or a fleet file this view exported and reads back with its history and
//! switches), a file dropped on the loader, or pasted text; and how the dump was read, its
//! problems and warnings.

use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::figures::count;
use super::{restored, Ask, Msg, Source, EXAMPLES};

#[derive(Properties, PartialEq)]
pub struct LoaderProps {
    pub ask: Ask,
    /// The example loaded, if one is.
    pub example: Option<String>,
}

/// Load a fleet: an example, a file (a dump, or a fleet file this view exported), pasted text.
#[function_component(Loader)]
pub fn loader(p: &LoaderProps) -> Html {
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

/// The problems and warnings met in reading the dump, each at its object and field.
pub fn problems(report: &Value) -> Html {
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
