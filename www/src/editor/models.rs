//! A cluster's resource models as a grades table: one row per grade, a min–max pair per
//! resource. An invalid model shows the rule it breaks under the cell (the core validates the
//! models as Karmada's webhook does, docs/rules/karmada.md §7).

use allot_core::estimate::models::default_models;
use serde_json::Value;
use yew::prelude::*;

use crate::field::{Dispatch, Field, Kind};
use crate::problems::{problem_at, SharedProblem};
use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct ModelsProps {
    pub path: AttrValue,
    pub models: Vec<Value>,
    pub problem: SharedProblem,
}

fn ranges(model: &Value) -> &[Value] {
    model
        .get("ranges")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

#[function_component(Models)]
pub fn models(p: &ModelsProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let path = p.path.to_string();
    let defaults = {
        let (dispatch, path) = (dispatch.clone(), path.clone());
        Callback::from(move |_| {
            let models = serde_json::to_value(default_models()).unwrap_or_default();
            dispatch.dispatch(Action::Set(path.clone(), Some(models)));
        })
    };
    let add = {
        let (dispatch, path) = (dispatch.clone(), path.clone());
        // A new grade copies the last one, one grade up.
        Callback::from(move |_| {
            let make = Box::new(|models: &[Value]| {
                models.last().cloned().map(|mut m| {
                    let grade = m.get("grade").and_then(Value::as_u64).unwrap_or(0) + 1;
                    m["grade"] = grade.into();
                    m
                })
            });
            dispatch.dispatch(Action::Append(path.clone(), make));
        })
    };
    let names: Vec<String> = p
        .models
        .first()
        .map(ranges)
        .unwrap_or_default()
        .iter()
        .map(|r| {
            r.get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string()
        })
        .collect();
    let problem = problem_at(&p.problem, &p.path);
    html! {
        <div class="models" data-path={p.path.clone()}>
            if p.models.is_empty() {
                <p class="hint">{ "No models stated: Karmada's 9 default grades apply (its defaulting webhook sets them). " }
                    <button type="button" onclick={defaults}>{ "use Karmada's default models" }</button></p>
            } else {
                <table>
                    <thead><tr><th>{ "grade" }</th>
                        { for names.iter().map(|n| html! { <th>{ format!("{n} min … max") }</th> }) }
                        <th><span class="sr">{ "actions" }</span></th></tr></thead>
                    <tbody>
                    { for p.models.iter().enumerate().map(|(g, model)| {
                        let at = |key: String| -> AttrValue { format!("{path}[{g}]{key}").into() };
                        let remove = {
                            let (dispatch, path) = (dispatch.clone(), format!("{path}[{g}]"));
                            Callback::from(move |_| dispatch.dispatch(Action::Set(path.clone(), None)))
                        };
                        html! { <tr data-grade={g.to_string()}>
                            <td><Field path={at(".grade".into())} kind={Kind::Int} label={format!("grade {g}")}
                                       value={model.get("grade").cloned()}
                                       problem={problem_at(&problem, &at(".grade".into()))} /></td>
                            { for ranges(model).iter().enumerate().map(|(r, range)| {
                                let name = range.get("name").and_then(Value::as_str).unwrap_or("?");
                                let min = at(format!(".ranges[{r}].min"));
                                let max = at(format!(".ranges[{r}].max"));
                                html! { <td class="range">
                                    <Field path={min.clone()} kind={Kind::Int} value={range.get("min").cloned()}
                                           label={format!("grade {g} {name} min")} problem={problem_at(&problem, &min)} />
                                    { " … " }
                                    <Field path={max.clone()} kind={Kind::Int} value={range.get("max").cloned()}
                                           label={format!("grade {g} {name} max")} problem={problem_at(&problem, &max)} />
                                </td> }
                            }) }
                            <td><button type="button" class="remove" onclick={remove}
                                        aria-label={format!("remove grade {g}")}>{ "×" }</button></td>
                        </tr> }
                    }) }
                    </tbody>
                </table>
                <button type="button" class="add" onclick={add}>{ "+ add grade" }</button>
                if let Some(pr) = problem.as_ref().filter(|pr| pr.path == p.path.as_str()) {
                    <span class="problem" role="alert" data-code={pr.code.as_str()}>{ &pr.message }</span>
                }
            }
        </div>
    }
}
