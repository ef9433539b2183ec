//! What the fleet view's forms share (a cluster added, a policy edited): lists written as
//! kubectl writes them (`region=eu, tier=gold`; `dedicated=gpu:NoSchedule`) read into the
//! objects' fields, and one labelled input with its message at the field.

use serde_json::{json, Map, Value};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use allot_core::selector::node::TaintEffect;

use crate::text::{self, Kind};

/// A problem at a form's field: the field's id, the message.
pub type Problems = Vec<(&'static str, String)>;

/// `a, b c`: the names, in order, without blanks.
pub fn names(text: &str) -> Vec<String> {
    text.split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// `key=value, key2=value2` as a map (a label selector's `matchLabels`, a cluster's labels).
pub fn pairs(text: &str) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for item in names(text) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("{item:?}: expected key=value"))?;
        if k.is_empty() {
            return Err(format!("{item:?}: a key before ="));
        }
        out.insert(k.into(), v.into());
    }
    Ok(out)
}

/// `key=value:Effect` (or `key:Effect`) as `{key, value?, effect}`: a taint, or a toleration
/// (`operator: Equal` with a value, `Exists` without).
fn marks(text: &str, toleration: bool) -> Result<Vec<Value>, String> {
    let effects = TaintEffect::ALL.map(TaintEffect::as_str).join(", ");
    names(text)
        .into_iter()
        .map(|item| {
            let (kv, effect) = item
                .rsplit_once(':')
                .ok_or_else(|| format!("{item:?}: expected key=value:Effect"))?;
            TaintEffect::parse(effect)
                .ok_or_else(|| format!("{item:?}: the effect is one of {effects}"))?;
            let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
            if key.is_empty() {
                return Err(format!("{item:?}: a key"));
            }
            let mut m = json!({"key": key, "effect": effect});
            if !value.is_empty() {
                m["value"] = value.into();
            }
            if toleration {
                m["operator"] = if value.is_empty() { "Exists" } else { "Equal" }.into();
            }
            Ok(m)
        })
        .collect()
}

pub fn taints(text: &str) -> Result<Vec<Value>, String> {
    marks(text, false)
}

pub fn tolerations(text: &str) -> Result<Vec<Value>, String> {
    marks(text, true)
}

/// Taints or tolerations written back as [`taints`] reads them.
pub fn marks_text(list: &[Value]) -> String {
    list.iter()
        .map(|t| {
            let s = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("");
            if s("value").is_empty() {
                format!("{}:{}", s("key"), s("effect"))
            } else {
                format!("{}={}:{}", s("key"), s("value"), s("effect"))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A map written back as [`pairs`] reads it (as the scenario form writes labels); anything
/// but a map (absent, `null`) as nothing.
pub fn pairs_text(m: Option<&Value>) -> String {
    text::format(Kind::Labels, m.filter(|v| v.is_object()))
}

/// A field's input written into the draft `state` holds, by `edit`.
pub fn setter<D: Clone + 'static>(
    state: &UseStateHandle<D>,
    edit: impl Fn(&mut D, String) + 'static,
) -> Callback<String> {
    let state = state.clone();
    Callback::from(move |v: String| {
        let mut d = (*state).clone();
        edit(&mut d, v);
        state.set(d);
    })
}

/// The message of `problems` at field `id`.
pub fn at<'a>(problems: &'a Problems, id: &str) -> Option<&'a str> {
    problems
        .iter()
        .find(|(f, _)| *f == id)
        .map(|(_, m)| m.as_str())
}

/// A labelled text input whose value is `value`, with its message when `problem` has one.
pub fn input(
    id: &'static str,
    label: &str,
    value: &str,
    hint: &str,
    problem: Option<&str>,
    on: Callback<String>,
) -> Html {
    let oninput = Callback::from(move |e: InputEvent| {
        let i: HtmlInputElement = e.target_unchecked_into();
        on.emit(i.value());
    });
    let error = format!("{id}-error");
    html! {
        <div class="fleet-field">
            <label for={id}>{ label }</label>
            <input {id} type="text" value={value.to_string()} {oninput} placeholder={hint.to_string()}
                   spellcheck="false" aria-invalid={problem.map(|_| "true")}
                   aria-describedby={problem.map(|_| error.clone())} />
            if let Some(p) = problem {
                <p id={error} class="field-error">{ p }</p>
            }
        </div>
    }
}

/// A labelled choice among `options` (value, words).
pub fn select(
    id: &'static str,
    label: &str,
    value: &str,
    options: &[(&str, &str)],
    on: Callback<String>,
) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let s: HtmlSelectElement = e.target_unchecked_into();
        on.emit(s.value());
    });
    html! {
        <div class="fleet-field">
            <label for={id}>{ label }</label>
            <select {id} {onchange}>
                { for options.iter().map(|(v, words)| html! {
                    <option value={v.to_string()} selected={*v == value}>{ *words }</option> }) }
            </select>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_kubectl_writes_them() {
        assert_eq!(names(" a, b  c,"), ["a", "b", "c"]);
        assert_eq!(
            Value::Object(pairs("region=eu, tier=").unwrap()),
            json!({"region": "eu", "tier": ""})
        );
        assert!(pairs("region").is_err());
        let labels = json!({"region": "eu", "tier": "gold"});
        assert_eq!(pairs_text(Some(&labels)), "region=eu, tier=gold");
        assert_eq!(
            Value::Object(pairs(&pairs_text(Some(&labels))).unwrap()),
            labels
        );
        assert_eq!(pairs_text(Some(&Value::Null)), "");
        assert_eq!(
            taints("dedicated=gpu:NoSchedule, spot:PreferNoSchedule").unwrap(),
            [
                json!({"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}),
                json!({"key": "spot", "effect": "PreferNoSchedule"})
            ]
        );
        assert_eq!(
            tolerations("spot:NoExecute").unwrap(),
            [json!({"key": "spot", "effect": "NoExecute", "operator": "Exists"})]
        );
        assert!(taints("dedicated=gpu:Sometimes").is_err());
        assert!(taints("dedicated=gpu").is_err());
        let back = taints("dedicated=gpu:NoSchedule, spot:NoExecute").unwrap();
        assert_eq!(
            marks_text(&back),
            "dedicated=gpu:NoSchedule, spot:NoExecute"
        );
    }
}
