//! Rows of an array in the scenario (clusters, nodes, pods, rules, grade counts) as an editable
//! table: one field per column, a remove button per row, an add button below, and an optional
//! details row for what does not fit a column. Rows are components compared by value, so an
//! edit re-renders only the row it touched, even with thousands of rows.

use serde_json::{json, Value};
use yew::prelude::*;

use super::details::Details;
use crate::doc;
use crate::field::{Dispatch, Field, Kind};
use crate::pager::use_pager;
use crate::platform;
use crate::problems::{problem_at, SharedProblem};
use crate::state::Action;

/// A column: a path inside the row, its heading and how it is written.
#[derive(Debug, PartialEq)]
pub struct Column {
    pub key: &'static str,
    pub label: &'static str,
    pub kind: Kind,
    pub placeholder: &'static str,
}

/// Shorthand for a column without a placeholder.
pub const fn col(key: &'static str, label: &'static str, kind: Kind) -> Column {
    Column {
        key,
        label,
        kind,
        placeholder: "",
    }
}

/// What a new row holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NewRow {
    Cluster,
    Rule,
    GradeCount,
    Node,
    Pod,
    EruNode,
    Taint,
    Api,
    Toleration,
    Spread,
    Term,
    Overflow,
}

impl NewRow {
    fn make(self, rows: &[Value]) -> Value {
        let free_in = |key: &str, prefix: &str| {
            (rows.len() + 1..)
                .map(|n| format!("{prefix}{n}"))
                .find(|name| {
                    !rows
                        .iter()
                        .any(|r| r.get(key).and_then(Value::as_str) == Some(name))
                })
                .unwrap_or_default()
        };
        let free = |prefix: &str| free_in("name", prefix);
        match self {
            NewRow::Cluster => json!({"name": free("member"), "weight": 1}),
            NewRow::Rule => json!({"targetCluster": {"clusterNames": []}, "weight": 1}),
            NewRow::GradeCount => json!({"grade": rows.len(), "count": 1}),
            NewRow::Node => json!({"name": free("node"),
                                   "allocatable": {"cpu": "8", "memory": "32Gi", "pods": 110}}),
            NewRow::Pod => json!({"name": free("pod"), "requests": {"cpu": "1"}}),
            NewRow::EruNode => json!({"name": free("node"), "cpuMap": {"0": 100, "1": 100},
                                      "memory": "4Gi", "storage": "10Gi"}),
            NewRow::Taint => json!({"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}),
            NewRow::Api => json!({"groupVersion": "apps/v1", "kinds": ["Deployment"]}),
            NewRow::Toleration => {
                json!({"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"})
            }
            NewRow::Spread => json!({"spreadByField": "cluster", "minGroups": 1, "maxGroups": 2}),
            NewRow::Term => json!({"affinityName": free_in("affinityName", "term"),
                                   "affinity": {"clusterNames": []}}),
            NewRow::Overflow => json!({"affinityName": free_in("affinityName", "overflow"),
                                       "affinity": {"clusterNames": []}}),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct TableProps {
    /// The array's path in the scenario.
    pub path: AttrValue,
    pub rows: Vec<Value>,
    pub columns: &'static [Column],
    pub new_row: NewRow,
    /// What one row is called (`cluster`, `node`).
    pub noun: &'static str,
    #[prop_or_default]
    pub problem: SharedProblem,
    #[prop_or(Details::None)]
    pub details: Details,
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// Number the rows from 1 (rules, which explanations cite by number).
    #[prop_or_default]
    pub numbered: bool,
}

#[function_component(Table)]
pub fn table(p: &TableProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let add = {
        let (path, new_row, first, index) = (
            p.path.to_string(),
            p.new_row,
            first_key(p.columns),
            p.rows.len(),
        );
        Callback::from(move |_| {
            let make = Box::new(move |rows: &[Value]| Some(new_row.make(rows)));
            dispatch.dispatch(Action::Append(path.clone(), make));
            // Focus goes to the new row, ready to type its first field.
            platform::focus_after_render(vec![platform::by_path(&format!(
                "{path}[{index}].{first}"
            ))]);
        })
    };
    let problem = problem_at(&p.problem, &p.path);
    let (shown, pager) = use_pager(p.rows.len(), p.noun);
    html! {
        <div class="rows">
            { pager.clone() }
            <table id={p.id.clone()} data-path={p.path.clone()}>
                <thead><tr>
                    if p.numbered { <th scope="col">{ "#" }</th> }
                    if p.details != Details::None { <th><span class="sr">{ "details" }</span></th> }
                    { for p.columns.iter().map(|c| html! { <th scope="col">{ c.label }</th> }) }
                    <th><span class="sr">{ "actions" }</span></th>
                </tr></thead>
                <tbody>
                { for p.rows[shown.clone()].iter().zip(shown.clone()).map(|(row, index)| {
                    let path: AttrValue = format!("{}[{index}]", p.path).into();
                    html! { <Row key={index} problem={problem_at(&problem, &path)} {path} {index}
                                 row={row.clone()} columns={p.columns} noun={p.noun}
                                 details={p.details} numbered={p.numbered} /> }
                }) }
                </tbody>
            </table>
            { pager }
            <button type="button" class="add" data-for={p.path.clone()} onclick={add}>{ format!("+ add {}", p.noun) }</button>
        </div>
    }
}

/// The field focus goes to in a row.
fn first_key(columns: &[Column]) -> &'static str {
    columns.first().map_or("", |c| c.key)
}

#[derive(Properties, PartialEq)]
struct RowProps {
    path: AttrValue,
    index: usize,
    row: Value,
    columns: &'static [Column],
    noun: &'static str,
    problem: SharedProblem,
    details: Details,
    numbered: bool,
}

#[function_component(Row)]
fn row(p: &RowProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let open = use_state(|| false);
    let name = p
        .row
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let who = if name.is_empty() {
        format!("{} {}", p.noun, p.index + 1)
    } else {
        name.to_string()
    };
    let remove = {
        let (path, index, first) = (p.path.to_string(), p.index, first_key(p.columns));
        let table = path[..path.rfind('[').unwrap_or(path.len())].to_string();
        Callback::from(move |_| {
            dispatch.dispatch(Action::Set(path.clone(), None));
            // Focus moves to the first field of the row that takes this one's place (or the
            // one before it, or the add button), never onto another row's remove button.
            let at = |i: usize| platform::by_path(&format!("{table}[{i}].{first}"));
            let mut to = vec![at(index)];
            to.extend(index.checked_sub(1).map(at));
            to.push(format!("button.add[data-for=\"{table}\"]"));
            platform::focus_after_render(to);
        })
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |_| open.set(!*open))
    };
    let span = (p.columns.len() + 2 + usize::from(p.numbered)).to_string();
    // An error in a field the columns do not show opens the details, so it is seen.
    let hidden_problem = p.problem.as_ref().is_some_and(|pr| {
        !p.columns
            .iter()
            .any(|c| doc::concerns(&pr.path, &format!("{}.{}", p.path, c.key)))
    });
    let shown = p.details != Details::None && (*open || hidden_problem);
    html! {
        <>
        <tr data-row={p.index.to_string()} data-name={name.to_string()}>
            if p.numbered { <th scope="row" class="number">{ format!("#{}", p.index + 1) }</th> }
            if p.details != Details::None {
                <td class="actions">
                    <button type="button" class="more" aria-expanded={shown.to_string()} onclick={toggle}
                            aria-label={format!("details of {who}")}
                            title="grade counts, resource models, nodes, pods…">{ if shown { "▾" } else { "▸" } }</button>
                </td>
            }
            { for p.columns.iter().map(|c| {
                let path: AttrValue = format!("{}.{}", p.path, c.key).into();
                html! { <td data-label={c.label}><Field problem={problem_at(&p.problem, &path)} {path} kind={c.kind}
                                   value={doc::get(&p.row, c.key).cloned()}
                                   label={format!("{who} {}", c.label)}
                                   placeholder={c.placeholder} /></td> }
            }) }
            <td class="actions">
                <button type="button" class="remove" onclick={remove}
                        aria-label={format!("remove {who}")}>{ "×" }</button>
            </td>
        </tr>
        if shown {
            <tr class="details"><td colspan={span}>
                { p.details.render(&p.path, &p.row, &p.problem) }
            </td></tr>
        }
        </>
    }
}
