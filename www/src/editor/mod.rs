//! The scenario's editors: Karmada clusters, rules, models, nodes and the workload and policy,
//! or eru nodes, workload and strategy; and the whole document as JSON. Every field is bound
//! to its path in the scenario and shows the core's error for that path under it.

pub mod details;
pub mod eru;
pub mod json;
pub mod karmada;
pub mod kubernetes;
pub mod models;
pub mod table;

use serde_json::Value;
use yew::prelude::*;

use crate::doc;
use crate::field::{Field, Kind};
use crate::state::{problem_at, SharedProblem};

/// Plain fields: (path inside the value, label, kind).
pub type Plain = &'static [(&'static str, &'static str, Kind)];

/// Labelled fields for the value at `prefix` (`""`: the document).
pub fn plain(prefix: &str, value: &Value, problem: &SharedProblem, fields: Plain) -> Html {
    html! {
        <div class="plain">
        { for fields.iter().map(|(key, label, kind)| {
            let path: AttrValue =
                if prefix.is_empty() { (*key).into() } else { format!("{prefix}.{key}").into() };
            html! { <label class="stack"><Field problem={problem_at(problem, &path)} {path} kind={*kind}
                           value={doc::get(value, key).cloned()} label={*label} show_label=true /></label> }
        }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct EditorsProps {
    pub doc: std::rc::Rc<Value>,
    pub problem: SharedProblem,
}

/// The editors for the document's family.
#[function_component(Editors)]
pub fn editors(p: &EditorsProps) -> Html {
    if p.doc.get("nodes").is_some() {
        eru::editors(&p.doc, &p.problem)
    } else {
        karmada::editors(&p.doc, &p.problem)
    }
}

/// A titled section of the editors.
pub fn section(title: &'static str, body: Html) -> Html {
    html! {
        <section class="editor" aria-label={title.to_lowercase()}>
            <h3>{ title }</h3>
            { body }
        </section>
    }
}

/// The workload and policy sections both families have, then the family's own.
pub fn common(
    d: &Value,
    problem: &SharedProblem,
    workload: Plain,
    (policy_title, policy): (&'static str, Plain),
    rest: Html,
) -> Html {
    let null = Value::Null;
    let at = |key: &str| d.get(key).unwrap_or(&null);
    html! {
        <>
        { section("Workload", plain("workload", at("workload"), problem, workload)) }
        { section(policy_title, plain("policy", at("policy"), problem, policy)) }
        { rest }
        </>
    }
}
