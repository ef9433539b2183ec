//! A member cluster added from the page: a form (name, region, zone, provider, labels,
//! taints, allocatable CPU, memory and pods, Ready) that writes a Cluster object and applies it
//! as `allot plan --add-cluster` does (docs/rules/fleet.md §26.1: a cluster that joins enqueues
//! the bindings its readiness taint concerns; a Divided binding is not rescheduled, a
//! Duplicated one may be). Quantities are read by allot-core's parser; a problem is said at
//! its field.

use allot_core::quantity::{self, Unit};
use serde_json::{json, Map, Value};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::form::{self, Problems};
use super::worker::State;
use super::Ask;

/// The APIs a cluster added from the page serves: the workload kinds a dump's templates use.
const APIS: &[(&str, &[(&str, &str)])] = &[
    (
        "apps/v1",
        &[
            ("deployments", "Deployment"),
            ("statefulsets", "StatefulSet"),
            ("replicasets", "ReplicaSet"),
        ],
    ),
    ("batch/v1", &[("jobs", "Job")]),
    ("v1", &[("pods", "Pod")]),
];

/// The form as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub name: String,
    pub region: String,
    pub zone: String,
    pub provider: String,
    pub labels: String,
    pub taints: String,
    pub cpu: String,
    pub memory: String,
    pub pods: String,
    pub ready: bool,
}

impl Default for Draft {
    fn default() -> Self {
        Draft {
            name: String::new(),
            region: String::new(),
            zone: String::new(),
            provider: String::new(),
            labels: String::new(),
            taints: String::new(),
            cpu: "64".into(),
            memory: "256Gi".into(),
            pods: "110".into(),
            ready: true,
        }
    }
}

/// A DNS-1123 subdomain, as Kubernetes names a Cluster.
fn dns_name(name: &str) -> bool {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    name.len() <= 253
        && name.split('.').all(|part| {
            part.starts_with(ok) && part.ends_with(ok) && part.chars().all(|c| ok(c) || c == '-')
        })
}

impl Draft {
    /// The Cluster object, or each problem at its field; `taken`: the fleet's cluster names.
    pub fn cluster(&self, taken: &[&str]) -> Result<Value, Problems> {
        let mut problems = Problems::new();
        let name = self.name.trim();
        if name.is_empty() {
            problems.push(("fleet-add-name", "a name".into()));
        } else if !dns_name(name) {
            problems.push((
                "fleet-add-name",
                "lower-case letters, digits, '-' and '.', starting and ending with a letter or digit"
                    .into(),
            ));
        } else if taken.contains(&name) {
            problems.push(("fleet-add-name", format!("the fleet has a cluster {name}")));
        }
        let labels = form::pairs(&self.labels).unwrap_or_else(|why| {
            problems.push(("fleet-add-labels", why));
            Map::new()
        });
        let taints = form::taints(&self.taints).unwrap_or_else(|why| {
            problems.push(("fleet-add-taints", why));
            Vec::new()
        });
        let mut allocatable = Map::new();
        for (id, resource, text) in [
            ("fleet-add-cpu", "cpu", &self.cpu),
            ("fleet-add-memory", "memory", &self.memory),
            ("fleet-add-pods", "pods", &self.pods),
        ] {
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            match quantity::parse(text, Unit::of(resource)) {
                Ok(_) => {
                    allocatable.insert(resource.into(), text.into());
                }
                Err(e) => problems.push((id, e.to_string())),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut spec = json!({"syncMode": "Push"});
        for (key, value) in [
            ("region", &self.region),
            ("zone", &self.zone),
            ("provider", &self.provider),
        ] {
            if !value.trim().is_empty() {
                spec[key] = value.trim().into();
            }
        }
        if !taints.is_empty() {
            spec["taints"] = taints.into();
        }
        let apis: Vec<Value> = APIS
            .iter()
            .map(|(gv, resources)| {
                json!({"groupVersion": gv, "resources": resources.iter()
                    .map(|(name, kind)| json!({"name": name, "kind": kind})).collect::<Vec<_>>()})
            })
            .collect();
        Ok(json!({
            "apiVersion": "cluster.karmada.io/v1alpha1",
            "kind": "Cluster",
            "metadata": {"name": name, "labels": labels},
            "spec": spec,
            "status": {
                "conditions": [{"type": "Ready", "status": if self.ready { "True" } else { "False" }}],
                "apiEnablements": apis,
                "resourceSummary": {"allocatable": allocatable},
            },
        }))
    }
}

#[derive(Properties, PartialEq)]
pub struct AddClusterProps {
    pub ask: Ask,
    pub state: std::rc::Rc<State>,
}

/// The form: the Cluster it writes joins the fleet as an event of the history.
#[function_component(AddCluster)]
pub fn add_cluster(p: &AddClusterProps) -> Html {
    let draft = use_state(Draft::default);
    let problems = use_state(Problems::new);
    let set = |edit: fn(&mut Draft, String)| form::setter(&draft, edit);
    let on_ready = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let i: HtmlInputElement = e.target_unchecked_into();
            draft.set(Draft {
                ready: i.checked(),
                ..(*draft).clone()
            });
        })
    };
    let on_add = {
        let (ask, draft, problems, state) = (
            p.ask.clone(),
            draft.clone(),
            problems.clone(),
            p.state.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let taken: Vec<&str> = state
                .clusters
                .iter()
                .map(|c| c.load.name.as_str())
                .collect();
            match draft.cluster(&taken) {
                Ok(cluster) => {
                    problems.set(Problems::new());
                    let name = draft.name.trim().to_string();
                    ask.apply(
                        format!("cluster {name} joined"),
                        json!({ "addClusters": [cluster] }),
                    );
                    draft.set(Draft::default());
                }
                Err(found) => problems.set(found),
            }
        })
    };
    let d = &*draft;
    let at = |id| form::at(&problems, id);
    html! {
        <details class="fleet-add fleet-form">
            <summary>{ "Add a member cluster (karmadactl join)" }</summary>
            <form id="fleet-add-form" onsubmit={on_add} novalidate=true>
                <p class="muted">{ "A cluster that joins takes no replicas of a Divided binding: Karmada does not \
                    reschedule them when a cluster joins. A Duplicated binding whose policy selects it is scheduled \
                    again. Read the plan's reasons." }</p>
                <div class="fleet-fields">
                    { form::input("fleet-add-name", "Name", &d.name, "member9", at("fleet-add-name"), set(|d, v| d.name = v)) }
                    { form::input("fleet-add-region", "Region", &d.region, "eu-west", None, set(|d, v| d.region = v)) }
                    { form::input("fleet-add-zone", "Zone", &d.zone, "eu-west-1a", None, set(|d, v| d.zone = v)) }
                    { form::input("fleet-add-provider", "Provider", &d.provider, "aws", None, set(|d, v| d.provider = v)) }
                    { form::input("fleet-add-labels", "Labels", &d.labels, "tier=gold, env=prod", at("fleet-add-labels"), set(|d, v| d.labels = v)) }
                    { form::input("fleet-add-taints", "Taints", &d.taints, "dedicated=gpu:NoSchedule", at("fleet-add-taints"), set(|d, v| d.taints = v)) }
                    { form::input("fleet-add-cpu", "Allocatable CPU", &d.cpu, "64", at("fleet-add-cpu"), set(|d, v| d.cpu = v)) }
                    { form::input("fleet-add-memory", "Allocatable memory", &d.memory, "256Gi", at("fleet-add-memory"), set(|d, v| d.memory = v)) }
                    { form::input("fleet-add-pods", "Allocatable pods", &d.pods, "110", at("fleet-add-pods"), set(|d, v| d.pods = v)) }
                    <div class="fleet-field check">
                        <label><input type="checkbox" id="fleet-add-ready" checked={d.ready} onchange={on_ready} />{ " Ready" }</label>
                    </div>
                </div>
                <button type="submit" id="fleet-add">{ "Add the cluster" }</button>
            </form>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(name: &str) -> Draft {
        Draft {
            name: name.into(),
            region: "eu".into(),
            labels: "tier=gold".into(),
            taints: "dedicated=gpu:NoSchedule".into(),
            ..Draft::default()
        }
    }

    #[test]
    fn a_cluster_object_from_the_form() {
        let c = draft("member9").cluster(&["member1"]).expect("valid");
        assert_eq!(c["kind"], "Cluster");
        assert_eq!(c["metadata"]["name"], "member9");
        assert_eq!(c["metadata"]["labels"]["tier"], "gold");
        assert_eq!(c["spec"]["region"], "eu");
        assert_eq!(c["spec"]["taints"][0]["effect"], "NoSchedule");
        assert_eq!(c["status"]["conditions"][0]["status"], "True");
        assert_eq!(
            c["status"]["resourceSummary"]["allocatable"],
            json!({"cpu": "64", "memory": "256Gi", "pods": "110"})
        );
        assert!(c["spec"].get("zone").is_none());
    }

    #[test]
    fn problems_are_said_at_their_fields() {
        let fields = |d: &Draft| -> Vec<&'static str> {
            d.cluster(&["member1"])
                .expect_err("invalid")
                .into_iter()
                .map(|(f, _)| f)
                .collect()
        };
        assert_eq!(fields(&draft("member1")), ["fleet-add-name"]);
        assert_eq!(fields(&draft("")), ["fleet-add-name"]);
        assert_eq!(fields(&draft("Member_9")), ["fleet-add-name"]);
        let bad = Draft {
            cpu: "lots".into(),
            memory: "16Gb".into(),
            labels: "tier".into(),
            taints: "gpu".into(),
            ..draft("member9")
        };
        assert_eq!(
            fields(&bad),
            [
                "fleet-add-labels",
                "fleet-add-taints",
                "fleet-add-cpu",
                "fleet-add-memory"
            ]
        );
    }
}
