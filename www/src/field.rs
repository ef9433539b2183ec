//! One editable value of the scenario, bound to its path. The text a user types is kept as
//! typed; what it means goes into the document on every keystroke (a number, a string, a map,
//! a list, a JSON subtree), and text that means nothing valid goes in as a plain string so the
//! core names the field in its error. An error at (or inside) the field's path shows under it.

use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::problems::SharedProblem;
use crate::state::{Action, State};

pub use crate::text::{format, parse, Kind};

pub type Dispatch = UseReducerDispatcher<State>;

#[derive(Properties, PartialEq)]
pub struct FieldProps {
    pub path: AttrValue,
    pub value: Option<Value>,
    pub kind: Kind,
    #[prop_or_default]
    pub problem: SharedProblem,
    /// Accessible name (and the visible label when `show_label`).
    pub label: AttrValue,
    #[prop_or_default]
    pub show_label: bool,
    #[prop_or_default]
    pub placeholder: AttrValue,
    #[prop_or_default]
    pub id: Option<AttrValue>,
}

/// An input bound to a path of the document.
#[function_component(Field)]
pub fn field(p: &FieldProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("Field inside the state provider");
    // What the user typed, with what it means.
    let typed = use_state(|| None::<(String, Option<Value>)>);
    // Why text in a JSON field reads as neither JSON nor YAML.
    let unread = use_state(|| None::<String>);
    // What the user typed wins while it still means the document's value; after an outside
    // change (a preset, an undo of a row) the document's value is shown.
    let text = match &*typed {
        Some((t, meant)) if meant.as_ref() == p.value.as_ref() => t.clone(),
        _ => format(p.kind, p.value.as_ref()),
    };
    let kind = p.kind;
    let path = p.path.clone();
    let latest = use_mut_ref(String::new);
    let change = {
        let (typed, unread, latest) = (typed.clone(), unread.clone(), latest.clone());
        move |text: String| {
            let meant = parse(kind, &text);
            dispatch.dispatch(Action::Set(path.to_string(), meant.clone()));
            unread.set(None);
            *latest.borrow_mut() = text.clone();
            // JSON fields also take YAML, as copied from a manifest: read by the Kubernetes
            // module, loaded the first time. Its answer counts only while the text is the
            // latest typed.
            let yaml = kind == Kind::Json && matches!(meant, Some(Value::String(_)));
            typed.set(Some((text.clone(), meant)));
            if yaml {
                let (dispatch, path, typed, unread, latest) = (
                    dispatch.clone(),
                    path.clone(),
                    typed.clone(),
                    unread.clone(),
                    latest.clone(),
                );
                yew::platform::spawn_local(async move {
                    let answer = crate::editor::kubernetes::from_yaml(text.clone()).await;
                    if *latest.borrow() != text {
                        return;
                    }
                    match answer {
                        Ok(value) => {
                            let value = (!value.is_null()).then_some(value);
                            dispatch.dispatch(Action::Set(path.to_string(), value.clone()));
                            typed.set(Some((text, value)));
                        }
                        Err(why) => unread.set(Some(why)),
                    }
                });
            }
        }
    };
    let invalid = p.problem.is_some().then_some("true");
    let control = match kind {
        Kind::Bool | Kind::BoolOn => {
            // The default state is written as absence, so the scenario stays minimal.
            let default = kind == Kind::BoolOn;
            let on = p.value.as_ref().and_then(Value::as_bool).unwrap_or(default);
            let change = change.clone();
            let onchange = Callback::from(move |e: Event| {
                let input: HtmlInputElement = e.target_unchecked_into();
                let checked = input.checked();
                change(if checked == default {
                    String::new()
                } else {
                    checked.to_string()
                });
            });
            html! { <input type="checkbox" id={p.id.clone()} checked={on} aria-label={p.label.clone()}
            data-path={p.path.clone()} {onchange} /> }
        }
        Kind::Choice(options) | Kind::JsonChoice(options) => {
            let change = change.clone();
            let onchange = Callback::from(move |e: Event| {
                let select: HtmlSelectElement = e.target_unchecked_into();
                change(select.value());
            });
            html! {
                <select id={p.id.clone()} aria-label={p.label.clone()} data-path={p.path.clone()}
                        aria-invalid={invalid} {onchange}>
                    { for options.iter().map(|(value, label)| html! {
                        <option value={*value} selected={text == *value}>{ *label }</option>
                    }) }
                    // A value from elsewhere (the JSON tab, a file) that is not an option is
                    // shown as it is, so the select does not pretend it is the default.
                    if !options.iter().any(|(value, _)| *value == text) {
                        <option value={text.clone()} selected=true>{ format!("{text} (not an option)") }</option>
                    }
                </select>
            }
        }
        Kind::Json => {
            let oninput = Callback::from(move |e: InputEvent| {
                let area: HtmlTextAreaElement = e.target_unchecked_into();
                change(area.value());
            });
            let rows = text.lines().count().clamp(2, 12).to_string();
            let placeholder = if p.placeholder.is_empty() {
                example(&p.path).into()
            } else {
                p.placeholder.clone()
            };
            html! { <textarea id={p.id.clone()} aria-label={p.label.clone()} data-path={p.path.clone()}
            aria-invalid={invalid} spellcheck="false" rows={rows}
            {placeholder} value={text} {oninput} /> }
        }
        _ => {
            let oninput = Callback::from(move |e: InputEvent| {
                let input: HtmlInputElement = e.target_unchecked_into();
                change(input.value());
            });
            let numeric = (kind == Kind::Int).then_some("numeric");
            let class = match kind {
                Kind::Int => "num",
                Kind::Labels | Kind::Amounts | Kind::List => "wide",
                _ => "",
            };
            html! { <input type="text" {class} id={p.id.clone()} inputmode={numeric}
            aria-label={p.label.clone()} data-path={p.path.clone()} aria-invalid={invalid}
            placeholder={p.placeholder.clone()} spellcheck="false" value={text} {oninput} /> }
        }
    };
    html! {
        <span class="field">
            if p.show_label { <span class="label">{ &p.label }</span> }
            { control }
            if let Some(why) = &*unread {
                <span class="problem" role="alert" data-code="invalid_input">{ why }</span>
            } else if let Some(problem) = &p.problem {
                <span class="problem" role="alert" data-code={problem.code.as_str()} data-path={problem.path.clone()}>
                    { &problem.message }
                </span>
            }
        </span>
    }
}

/// An example of what a JSON field takes, as people write it in manifests (YAML), by the
/// field's name.
fn example(path: &str) -> &'static str {
    let name = path.rsplit('.').next().unwrap_or(path);
    match name {
        "tolerations" => "- key: dedicated\n  operator: Equal\n  value: gpu\n  effect: NoSchedule",
        "taints" => "- key: dedicated\n  value: gpu\n  effect: NoSchedule",
        "hardNodeAffinity" => {
            "nodeSelectorTerms:\n- matchExpressions:\n  - key: zone\n    operator: In\n    values: [a, b]"
        }
        "components" => "- name: leader\n  replicas: 1\n  requests: {cpu: 500m, memory: 1Gi}",
        "initContainers" => "- cpu: 500m\n  memory: 256Mi",
        "matchExpressions" => "- key: region\n  operator: In\n  values: [eu]",
        _ => "YAML or JSON",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_means_values_and_back() {
        for (kind, text, value) in [
            (Kind::Int, "12", json!(12)),
            (Kind::Int, "1x", json!("1x")),
            (
                Kind::Int,
                "18446744073709551615",
                json!(18446744073709551615u64),
            ),
            (Kind::Quantity, "500m", json!("500m")),
            (Kind::Quantity, "16Gi", json!("16Gi")),
            (
                Kind::Labels,
                "env=prod, tier=1",
                json!({"env": "prod", "tier": "1"}),
            ),
            (
                Kind::Amounts,
                "cpu=500m, pods=110",
                json!({"cpu": "500m", "pods": 110}),
            ),
            (Kind::Amounts, "cpu", json!("cpu")),
            (Kind::List, "a, b", json!(["a", "b"])),
            (Kind::Json, r#"[{"key": "x"}]"#, json!([{"key": "x"}])),
        ] {
            let parsed = parse(kind, text);
            assert_eq!(parsed.as_ref(), Some(&value), "{kind:?} {text}");
            assert_eq!(
                parse(kind, &format(kind, parsed.as_ref())),
                Some(value),
                "{kind:?}"
            );
        }
        assert_eq!(parse(Kind::Text, "  "), None);
        // Byte amounts the document holds as numbers are shown as quantities.
        assert_eq!(format(Kind::Quantity, Some(&json!(10737418240u64))), "10Gi");
        assert_eq!(
            format(
                Kind::Amounts,
                Some(&json!({"cpu": 2, "memory": 1073741824, "pods": 110}))
            ),
            "cpu=2, memory=1Gi, pods=110"
        );
        for kind in [Kind::Labels, Kind::Amounts, Kind::List] {
            assert_eq!(
                parse(kind, " , ,"),
                None,
                "{kind:?}: commas alone are no value"
            );
        }
        // Too large for any integer: still a number, so the core says "too large".
        let huge = parse(Kind::Int, "99999999999999999999999").unwrap();
        assert!(huge.is_f64(), "{huge}");
        let doc = serde_json::json!({"version": 1, "clusters": [{"name": "a", "weight": huge}]});
        let e = crate::run::read(&doc).unwrap_err();
        assert_eq!(e.code().as_str(), "too_large");
    }
}
