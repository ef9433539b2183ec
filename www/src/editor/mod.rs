//! The scenario's editors: Karmada clusters, rules, models, nodes and the workload and policy,
//! or eru nodes, workload and strategy; and the whole document as JSON. Every field is bound
//! to its path in the scenario and shows the core's error for that path under it.

pub mod details;
pub mod eru;
pub mod json;
pub mod karmada;
pub mod kubernetes;
pub mod models;
pub mod named;
pub mod table;

use serde_json::Value;
use yew::prelude::*;

use crate::doc;
use crate::field::{Field, Kind};
use crate::problems::{problem_at, SharedProblem};

/// A select's options from an enum's names (`allot_core`'s `ALL` and `name()`): the default
/// (`""`, labelled `$default`), then every variant, labelled by the `const fn` `$label`.
macro_rules! options {
    ($E:ty, $default:literal, $label:path) => {{
        const N: usize = <$E>::ALL.len();
        let mut out = [("", $default); N + 1];
        let mut i = 0;
        while i < N {
            out[i + 1] = (<$E>::ALL[i].name(), $label(<$E>::ALL[i]));
            i += 1;
        }
        out
    }};
}
pub(crate) use options;

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
        // Not a named region: headings guide through the editors, and an embedded view's
        // sections must not add landmarks to its host page (several views may share one).
        <section class="editor" data-section={title.to_lowercase()}>
            <h3>{ title }</h3>
            { body }
        </section>
    }
}

/// A titled section of plain fields of the object at `key`: a family's workload or policy.
pub struct Fields {
    pub title: &'static str,
    /// The object's key in the scenario (`workload`, `policy`).
    pub key: &'static str,
    pub fields: Plain,
    /// How many of the fields show at once; the others are folded under "more", which opens
    /// by itself when one of them holds a value or a problem.
    pub shown: usize,
}

impl Fields {
    /// The titled section with the fields of `d`'s object.
    pub fn view(&self, d: &Value, problem: &SharedProblem) -> Html {
        let value = d.get(self.key).unwrap_or(&Value::Null);
        let (first, more) = self.fields.split_at(self.shown.min(self.fields.len()));
        let open = more.iter().any(|(key, ..)| {
            doc::get(value, key).is_some()
                || problem_at(problem, &format!("{}.{key}", self.key)).is_some()
        });
        let names: Vec<&str> = more.iter().map(|(_, label, _)| *label).collect();
        section(
            self.title,
            html! {
                <>
                { plain(self.key, value, problem, first) }
                if !more.is_empty() {
                    <More {open} summary={format!("more: {}", names.join(", "))}>
                        { plain(self.key, value, problem, more) }
                    </More>
                }
                </>
            },
        )
    }
}

#[derive(Properties, PartialEq)]
struct MoreProps {
    /// Open because a field inside holds a value or a problem.
    open: bool,
    summary: AttrValue,
    children: Html,
}

/// Fields folded away: open while one of them is set, and once the reader opens it, open
/// until they close it (clearing the field being typed in never folds it away).
#[function_component(More)]
fn more(p: &MoreProps) -> Html {
    let opened = use_state(|| false);
    let ontoggle = {
        let opened = opened.clone();
        Callback::from(move |e: Event| {
            let details: web_sys::Element = e.target_unchecked_into();
            opened.set(details.has_attribute("open"));
        })
    };
    html! {
        <details class="more" open={p.open || *opened} {ontoggle}>
            <summary>{ p.summary.clone() }</summary>
            { p.children.clone() }
        </details>
    }
}

/// A family's table of targets: Karmada's clusters or eru's nodes, each row with its details.
pub struct Targets {
    pub title: &'static str,
    /// The array's key in the scenario, also the table's id.
    pub key: &'static str,
    pub columns: &'static [table::Column],
    pub new_row: table::NewRow,
    pub noun: &'static str,
    pub details: details::Details,
}

impl Targets {
    /// The titled section with the table of `d`'s targets.
    pub fn view(&self, d: &Value, problem: &SharedProblem) -> Html {
        section(
            self.title,
            html! {
                <table::Table id={self.key} path={self.key} columns={self.columns}
                       rows={doc::items(d, self.key).to_vec()} new_row={self.new_row} noun={self.noun}
                       problem={problem.clone()} details={self.details} />
            },
        )
    }
}
