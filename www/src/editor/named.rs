//! The editors an embedded view shows, by name: `editors="replicas weights"` on an
//! `<allot-playground>` element, `?embed&editors=replicas,weights` on the playground's address.
//! Each name means the same editor as in the playground's form, for the scenario's family
//! (Karmada clusters or eru nodes); a name that does not apply to the family shows nothing.

use std::rc::Rc;

use serde_json::Value;
use yew::prelude::*;

use super::kubernetes::KubernetesTab;
use super::{eru, karmada, plain};
use crate::field::{Field, Kind};
use crate::platform::Site;
use crate::problems::problem_at;
use crate::run::Run;

/// One editor an embedded view can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    /// The replicas (Karmada) or the instances to deploy (eru).
    Replicas,
    /// Each cluster's own weight (Karmada).
    Weights,
    /// The division method (Karmada).
    Method,
    /// The Karmada release whose rules apply (Karmada).
    Release,
    /// The strategy (Karmada's or eru's).
    Strategy,
    /// The whole workload section.
    Workload,
    /// The whole policy (Karmada) or strategy (eru) section.
    Policy,
    /// The clusters' table, with their models, nodes and pods (Karmada).
    Clusters,
    /// The nodes' table (eru).
    Nodes,
    /// Cluster affinity, affinity terms, tolerations and spread constraints (Karmada).
    Scheduling,
    /// The static weight rules (Karmada).
    Rules,
    /// Kubernetes and Karmada objects in, the scenario and the ResourceBinding out.
    Kubernetes,
    /// Every editor of the family, as in the playground's form.
    All,
}

/// The names, as written in the attribute.
pub const NAMES: &[(&str, Named)] = &[
    ("replicas", Named::Replicas),
    ("count", Named::Replicas),
    ("weights", Named::Weights),
    ("method", Named::Method),
    ("karmada", Named::Release),
    ("strategy", Named::Strategy),
    ("workload", Named::Workload),
    ("policy", Named::Policy),
    ("clusters", Named::Clusters),
    ("nodes", Named::Nodes),
    ("scheduling", Named::Scheduling),
    ("rules", Named::Rules),
    ("kubernetes", Named::Kubernetes),
    ("all", Named::All),
];

/// What an embedded view shows when it is not told: the replicas (or instances) alone.
pub const DEFAULT: &[Named] = &[Named::Replicas];

/// Read a list of names separated by spaces or commas; `none` (or nothing) shows no editor.
pub fn parse(list: &str) -> Result<Vec<Named>, String> {
    list.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty() && *w != "none")
        .map(|w| {
            NAMES
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(w))
                .map(|(_, n)| *n)
                .ok_or_else(|| {
                    let known: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
                    format!(
                        "there is no editor named “{w}”; the editors are: {}",
                        known.join(", ")
                    )
                })
        })
        .collect()
}

impl Named {
    /// The editor for `doc` (empty when it does not apply to the scenario's family), whose
    /// outcome is `run` (`drawn`: the seed drawn for a scenario without one); `site` is where
    /// the playground serves its files.
    pub fn view(self, doc: &Rc<Value>, run: &Rc<Run>, drawn: u64, site: &Site) -> Html {
        let problem = &run.problem();
        let eru_family = doc.get("nodes").is_some();
        let policy = doc.get("policy").unwrap_or(&Value::Null);
        match (self, eru_family) {
            (Named::Replicas, _) => {
                let (path, label) = if eru_family {
                    ("workload.count", "instances")
                } else {
                    ("workload.replicas", "replicas")
                };
                html! {
                    <label class="stack inline"><Field path={path} kind={Kind::Int} label={label} show_label=true
                        value={crate::doc::get(doc, path).cloned()} problem={problem_at(problem, path)} /></label>
                }
            }
            (Named::Weights, false) => karmada::weights(doc, problem),
            (Named::Method, false) => plain("policy", policy, problem, karmada::METHOD),
            (Named::Release, false) => plain("", doc, problem, karmada::RELEASE),
            (Named::Strategy, false) => plain("policy", policy, problem, karmada::STRATEGY),
            (Named::Strategy, true) => plain("policy", policy, problem, eru::STRATEGY),
            (Named::Workload, false) => karmada::WORKLOAD_SECTION.view(doc, problem),
            (Named::Workload, true) => eru::WORKLOAD_SECTION.view(doc, problem),
            (Named::Policy, false) => karmada::POLICY_SECTION.view(doc, problem),
            (Named::Policy, true) => eru::POLICY_SECTION.view(doc, problem),
            (Named::Clusters, false) => karmada::CLUSTER_TABLE.view(doc, problem),
            (Named::Nodes, true) => eru::NODE_TABLE.view(doc, problem),
            (Named::Scheduling, false) => karmada::scheduling(doc, problem),
            (Named::Rules, false) => karmada::rules(doc, problem),
            (Named::Kubernetes, false) => {
                html! { <KubernetesTab doc={doc.clone()} run={run.clone()} {drawn} site={site.clone()} /> }
            }
            (Named::All, false) => karmada::editors(doc, problem),
            (Named::All, true) => eru::editors(doc, problem),
            _ => Html::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_with_spaces_or_commas_and_unknown_ones_are_named() {
        assert_eq!(
            parse("replicas weights,method").unwrap(),
            vec![Named::Replicas, Named::Weights, Named::Method]
        );
        assert_eq!(parse("  ").unwrap(), vec![]);
        assert_eq!(parse("none").unwrap(), vec![]);
        assert_eq!(parse("COUNT").unwrap(), vec![Named::Replicas]);
        let e = parse("replicas wieghts").unwrap_err();
        assert!(e.contains("“wieghts”") && e.contains("weights"), "{e}");
    }
}
