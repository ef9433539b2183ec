//! "Kubernetes": paste or drop objects as `kubectl get -o yaml` prints them (Clusters, a
//! policy, the template, a ResourceBinding; several files at once), each member cluster's own
//! nodes and pods in a box of its own, and import them into the scenario with the report of
//! what fed what (docs/rules/karmada.md §16); export the ResourceBinding the current outcome
//! writes, or the whole scenario as objects.
//!
//! Reading YAML takes a YAML parser the page's own module does not carry (it would double its
//! size): the package's `allot/kubernetes` module, served beside the page, is loaded the first
//! time this tab imports or exports, and does the reading and the YAML writing. The import
//! itself is allot-core's, in that module; the exports too.

use std::rc::Rc;

use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::field::Dispatch;
use crate::platform::{self, fetch_text, Site};
use crate::run::Run;
use crate::state::Action;
use allot_core::scenario::Outcome;

/// Example manifests, served from `manifests/` beside the page (docs/manifests): (id, title,
/// the members whose nodes and pods are `<id>.<member>.yaml`).
const PRESETS: &[(&str, &str, &[&str])] = &[
    (
        "static-weight",
        "nginx, static weights over three clusters",
        &[],
    ),
    (
        "dynamic-weight",
        "Dynamic weight from cluster summaries, with a binding",
        &[],
    ),
    ("spread-regions", "Spreading over two regions", &[]),
    (
        "policy-priority",
        "Two policies select one Deployment: which one Karmada uses",
        &[],
    ),
    (
        "region-spread-refused",
        "A region spread without a cluster spread: refused at admission",
        &[],
    ),
    (
        "statefulset-nodes",
        "A StatefulSet with a node selector and member nodes",
        &["member1", "member2"],
    ),
];

/// The `allot/kubernetes` module, loaded once.
async fn module() -> Result<JsValue, String> {
    thread_local! {
        static MODULE: std::cell::RefCell<Option<JsValue>> = const { std::cell::RefCell::new(None) };
    }
    if let Some(m) = MODULE.with(|m| m.borrow().clone()) {
        return Ok(m);
    }
    let m = platform::import_module(platform::package_file("kubernetes.js")?).await?;
    MODULE.with(|slot| *slot.borrow_mut() = Some(m.clone()));
    Ok(m)
}

/// An error as the module throws it: its path and message.
#[derive(Clone, PartialEq)]
struct Problem {
    path: String,
    message: String,
}

impl Problem {
    fn of(e: JsValue) -> Problem {
        let get = |k: &str| {
            js_sys::Reflect::get(&e, &k.into())
                .ok()
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        };
        Problem {
            path: get("path"),
            message: get("message"),
        }
    }

    fn said(message: String) -> Problem {
        Problem {
            path: String::new(),
            message,
        }
    }
}

/// Call the module's `name` with `args`; its answer as JSON.
async fn call(name: &str, args: &[JsValue]) -> Result<JsValue, Problem> {
    let m = module().await.map_err(Problem::said)?;
    let f: js_sys::Function = js_sys::Reflect::get(&m, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| Problem::said(format!("the Kubernetes module has no {name}")))?;
    let args: js_sys::Array = args.iter().collect();
    f.apply(&JsValue::NULL, &args).map_err(Problem::of)
}

fn to_js(v: &Value) -> JsValue {
    js_sys::JSON::parse(&v.to_string()).unwrap_or(JsValue::NULL)
}

fn from_js(v: &JsValue) -> Value {
    js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(Value::Null)
}

/// A value written as YAML (or JSON), read by the Kubernetes module: for the fields that take
/// what people copy from their manifests (tolerations, affinity, taints, components).
pub async fn from_yaml(text: String) -> Result<Value, String> {
    // The module's `fromYaml` answers the value itself.
    let answer = call("fromYaml", &[text.into()])
        .await
        .map_err(|p| p.message)?;
    Ok(from_js(&answer))
}

async fn yaml(documents: &Value) -> Result<String, Problem> {
    Ok(call("toYaml", &[to_js(documents)])
        .await?
        .as_string()
        .unwrap_or_default())
}

#[derive(Properties, PartialEq)]
pub struct KubernetesProps {
    pub doc: Rc<Value>,
    pub run: Rc<Run>,
    /// The seed the page draws for a scenario without one.
    pub drawn: u64,
    /// Where the playground serves its example manifests (default: beside the page).
    #[prop_or_default]
    pub site: Site,
}

#[function_component(KubernetesTab)]
pub fn kubernetes_tab(p: &KubernetesProps) -> Html {
    let dispatch = use_context::<Dispatch>().expect("inside the state provider");
    let objects = use_state(String::new);
    let members = use_state(Vec::<(String, String)>::new);
    let report = use_state(|| None::<Value>);
    let problem = use_state(|| None::<Problem>);
    let exported = use_state(|| None::<(String, String)>);
    let busy = use_state(|| false);
    // The template the last import read (`{apiVersion, kind, namespace, name, uid}`), to name
    // the exported binding after it.
    let template = use_state(|| Value::Null);

    let on_preset = {
        let (objects, members, problem) = (objects.clone(), members.clone(), problem.clone());
        let site = p.site.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let id = select.value();
            select.set_value("");
            let Some(&(id, _, names)) = PRESETS.iter().find(|p| p.0 == id) else {
                return;
            };
            let (objects, members, problem) = (objects.clone(), members.clone(), problem.clone());
            let site = site.clone();
            yew::platform::spawn_local(async move {
                let mut loaded = Vec::new();
                for name in names {
                    match fetch_text(&site, &format!("manifests/{id}.{name}.yaml")).await {
                        Ok(text) => loaded.push((name.to_string(), text)),
                        Err(e) => return problem.set(Some(Problem::said(e))),
                    }
                }
                match fetch_text(&site, &format!("manifests/{id}.yaml")).await {
                    Ok(text) => {
                        objects.set(text);
                        members.set(loaded);
                        problem.set(None);
                    }
                    Err(e) => problem.set(Some(Problem::said(e))),
                }
            });
        })
    };
    let on_text = {
        let objects = objects.clone();
        Callback::from(move |e: InputEvent| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            objects.set(area.value());
        })
    };
    let on_files = {
        let objects = objects.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(files) = input.files() {
                append_files(objects.clone(), files);
            }
        })
    };
    // Files dropped on the text area are added as the file button adds them (a browser would
    // otherwise open the file in place of the page).
    let on_drop = {
        let objects = objects.clone();
        Callback::from(move |e: DragEvent| {
            if let Some(files) = e.data_transfer().and_then(|d| d.files()) {
                if files.length() > 0 {
                    e.prevent_default();
                    append_files(objects.clone(), files);
                }
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    // A whole control plane's objects (many templates) are a fleet: the fleet view reads them.
    let on_fleet = {
        let (objects, problem) = (objects.clone(), problem.clone());
        Callback::from(move |_| {
            if let Err(why) = platform::open_in_fleet(&objects) {
                problem.set(Some(Problem::said(why)));
            }
        })
    };
    let on_import = {
        let (objects, members, report, problem) = (
            objects.clone(),
            members.clone(),
            report.clone(),
            problem.clone(),
        );
        let (dispatch, busy, template) = (dispatch.clone(), busy.clone(), template.clone());
        Callback::from(move |_| {
            let text = (*objects).clone();
            let member_map: serde_json::Map<String, Value> = members
                .iter()
                .filter(|(c, _)| !c.trim().is_empty())
                .map(|(c, t)| (c.trim().to_string(), Value::String(t.clone())))
                .collect();
            let (report, problem, dispatch, busy, template) = (
                report.clone(),
                problem.clone(),
                dispatch.clone(),
                busy.clone(),
                template.clone(),
            );
            busy.set(true);
            yew::platform::spawn_local(async move {
                let options = to_js(&json!({ "members": member_map }));
                let answer = call("fromObjects", &[text.clone().into(), options]).await;
                busy.set(false);
                match answer.map(|a| from_js(&a)) {
                    Ok(mut imported) => {
                        let scenario = imported["scenario"].take();
                        let n = scenario["clusters"].as_array().map_or(0, Vec::len);
                        template.set(imported["resource"].take());
                        report.set(Some(imported["report"].take()));
                        problem.set(None);
                        dispatch.dispatch(Action::Replace(
                            scenario,
                            Some(format!("Imported from Kubernetes objects: {n} clusters.")),
                        ));
                    }
                    Err(e) => {
                        report.set(None);
                        dispatch.dispatch(Action::ImportFailed(e.message.clone()));
                        problem.set(Some(e));
                    }
                }
            });
        })
    };
    let on_export_binding = {
        let (run, exported, problem, template) = (
            p.run.clone(),
            exported.clone(),
            problem.clone(),
            template.clone(),
        );
        let (doc, drawn) = (p.doc.clone(), p.drawn);
        Callback::from(move |_| {
            if !matches!(run.outcome, Ok(ref o) if matches!(**o, Outcome::Karmada(_))) {
                let said = "There is no Karmada outcome to write a binding from.";
                problem.set(Some(Problem::said(said.into())));
                return;
            }
            // The seed in effect, so the binding is the outcome on the page.
            let mut scenario = (*doc).clone();
            if scenario.get("seed").is_none() {
                scenario["seed"] = json!(drawn);
            }
            let t = (*template).clone();
            let (exported, problem) = (exported.clone(), problem.clone());
            yew::platform::spawn_local(async move {
                let done = async {
                    let w = call("bindingOf", &[to_js(&scenario), to_js(&t)]).await?;
                    let text = call("bindingYaml", &[w]).await?;
                    Ok::<_, Problem>(text.as_string().unwrap_or_default())
                };
                match done.await {
                    Ok(text) => exported.set(Some(("resourcebinding.yaml".into(), text))),
                    Err(e) => problem.set(Some(e)),
                }
            });
        })
    };
    let on_export_objects = {
        let (doc, exported, problem) = (p.doc.clone(), exported.clone(), problem.clone());
        Callback::from(move |_| {
            let (doc, exported, problem) = (doc.clone(), exported.clone(), problem.clone());
            yew::platform::spawn_local(async move {
                let done = async {
                    let x = from_js(&call("toObjects", &[to_js(&doc)]).await?);
                    objects_yaml(&x).await
                };
                match done.await {
                    Ok(text) => exported.set(Some(("objects.yaml".into(), text))),
                    Err(e) => problem.set(Some(e)),
                }
            });
        })
    };
    let add_member = {
        let members = members.clone();
        Callback::from(move |_| {
            let mut m = (*members).clone();
            m.push((String::new(), String::new()));
            members.set(m);
        })
    };
    let member_rows = members.iter().enumerate().map(|(k, (cluster, text))| {
        let set = |name: bool| {
            let members = members.clone();
            Callback::from(move |e: InputEvent| {
                let value = if name {
                    e.target_unchecked_into::<HtmlInputElement>().value()
                } else {
                    e.target_unchecked_into::<HtmlTextAreaElement>().value()
                };
                let mut m = (*members).clone();
                if let Some(row) = m.get_mut(k) {
                    if name { row.0 = value } else { row.1 = value }
                }
                members.set(m);
            })
        };
        let remove = {
            let members = members.clone();
            Callback::from(move |_| {
                let mut m = (*members).clone();
                if k < m.len() {
                    m.remove(k);
                }
                members.set(m);
            })
        };
        html! {
            <fieldset class="member">
                <legend>{ format!("member cluster {}", k + 1) }</legend>
                <label class="stack">{ "Cluster name" }
                    <input class="member-name" value={cluster.clone()} oninput={set(true)} /></label>
                <label class="stack">{ "Its nodes and pods (kubectl get nodes,pods -A -o yaml, run against it)" }
                    <textarea class="member-objects" rows="6" spellcheck="false" value={text.clone()} oninput={set(false)} /></label>
                <button type="button" class="remove-member" onclick={remove}
                        aria-label={format!("remove member cluster {}", k + 1)}>{ "remove" }</button>
            </fieldset>
        }
    });
    let download = exported.as_ref().map(|(name, text)| {
        let (name, text) = (name.clone(), text.clone());
        Callback::from(move |_| platform::download(&name, &text))
    });
    html! {
        <div class="kubernetes">
            <p class="hint">{ "Paste or drop Kubernetes and Karmada objects as kubectl prints them \
                (YAML or JSON, several documents or files at once): Clusters, a PropagationPolicy or \
                ClusterPropagationPolicy, the Deployment, StatefulSet, ReplicaSet, Job or Pod, and \
                the ResourceBinding. “Import objects” fills the scenario; edit it in the other tabs." }</p>
            <div class="toolbar">
                <select id="k8s-preset" aria-label="load example manifests" onchange={on_preset}>
                    <option value="" selected=true>{ "Example manifests…" }</option>
                    { for PRESETS.iter().map(|p| html! { <option value={p.0}>{ p.1 }</option> }) }
                </select>
                <label class="button">{ "Add files" }
                    <input type="file" multiple=true accept=".yaml,.yml,.json" class="sr" id="k8s-files" onchange={on_files} />
                </label>
            </div>
            <label class="stack">{ "Objects" }
                <textarea id="k8s-objects" rows="14" spellcheck="false" value={(*objects).clone()}
                          placeholder={"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\n---\napiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n…"}
                          oninput={on_text} ondrop={on_drop} ondragover={on_drag_over} /></label>
            { for member_rows }
            <div class="toolbar">
                <button type="button" id="k8s-add-member" onclick={add_member}>{ "+ member cluster's nodes and pods" }</button>
                <button type="button" id="k8s-import" class="primary" onclick={on_import} disabled={*busy}>
                    { if *busy { "Importing…" } else { "Import objects" } }</button>
                if !platform::embedded() {
                    <button type="button" id="k8s-fleet" onclick={on_fleet}
                            title="every template, policy and binding of these objects in the fleet view">
                        { "Open as a fleet" }</button>
                }
            </div>
            if let Some(e) = &*problem {
                <p id="k8s-error" class="error" role="alert" data-path={e.path.clone()}>
                    if !e.path.is_empty() { <code>{ &e.path }</code>{ ": " } }{ &e.message }</p>
            }
            if let Some(r) = &*report { { report_view(r) } }
            <div class="toolbar">
                <button type="button" id="k8s-export-binding" onclick={on_export_binding}>{ "Export as ResourceBinding" }</button>
                <button type="button" id="k8s-export-objects" onclick={on_export_objects}>{ "Export objects" }</button>
            </div>
            if let (Some((name, text)), Some(download)) = (&*exported, download) {
                <section class="exported" aria-label={name.clone()}>
                    <div class="toolbar"><strong>{ name }</strong>
                        <button type="button" id="k8s-download" onclick={download}>{ "Download" }</button></div>
                    <pre id="k8s-exported">{ text }</pre>
                </section>
            }
        </div>
    }
}

/// Append the files' texts to the objects, one document each.
fn append_files(objects: UseStateHandle<String>, files: web_sys::FileList) {
    let current = (*objects).clone();
    yew::platform::spawn_local(async move {
        let mut texts = vec![current];
        for i in 0..files.length() {
            let Some(file) = files.get(i) else { continue };
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            texts.push(text.ok().and_then(|t| t.as_string()).unwrap_or_default());
        }
        texts.retain(|t| !t.trim().is_empty());
        objects.set(texts.join("\n---\n"));
    });
}

/// `toObjects`' answer as YAML: the objects, each member's as a List, and the fields no
/// object holds as comments.
async fn objects_yaml(x: &Value) -> Result<String, Problem> {
    let mut text = yaml(&x["objects"]).await?;
    for m in x["members"].as_array().into_iter().flatten() {
        let list = json!({"apiVersion": "v1", "kind": "List", "items": m["objects"]});
        let cluster = m["cluster"].as_str().unwrap_or_default();
        text.push_str(&format!(
            "---\n# member {cluster}: its own nodes and pods\n{}",
            yaml(&list).await?
        ));
    }
    for u in x["unexpressed"].as_array().into_iter().flatten() {
        let s = |k: &str| u[k].as_str().unwrap_or_default().to_string();
        text.push_str(&format!(
            "# not in any object: {} ({})\n",
            s("field"),
            s("into")
        ));
    }
    Ok(text)
}

fn report_view(r: &Value) -> Html {
    let rows = |key: &str| -> Vec<(String, String, String)> {
        r[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| {
                        let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
                        (s("object"), s("field"), s("into"))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let section = |key: &str, title: &str, into: &str| {
        let rows = rows(key);
        html! {
            <details open={key != "used" && !rows.is_empty()} class={format!("report-{key}")}>
                <summary>{ format!("{title} ({})", rows.len()) }</summary>
                if rows.is_empty() { <p class="hint">{ "none" }</p> } else {
                <table><thead><tr><th>{ "object" }</th><th>{ "field" }</th><th>{ into }</th></tr></thead>
                <tbody>{ for rows.into_iter().map(|(o, f, i)| html! {
                    <tr><td>{ o }</td><td><code>{ f }</code></td><td>{ i }</td></tr> }) }</tbody></table>
                }
            </details>
        }
    };
    html! {
        <section id="k8s-report" aria-label="import report">
            <h3>{ "Import report" }</h3>
            { policy_view(&r["policy"]) }
            { section("used", "Used", "scenario field") }
            { section("defaulted", "Defaulted", "default applied") }
            { section("ignored", "Ignored", "why") }
        </section>
    }
}

/// Which policy propagates the template and why, and the others with why not (§16.6).
fn policy_view(p: &Value) -> Html {
    let Some(why) = p["why"].as_str() else {
        return Html::default();
    };
    let others: Vec<(String, String)> = p["others"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|o| {
                    let s = |k: &str| o[k].as_str().unwrap_or_default().to_string();
                    (s("policy"), s("why"))
                })
                .collect()
        })
        .unwrap_or_default();
    html! {
        <div class="report-policy">
            <p><strong>{ "Policy: " }</strong>{ why }</p>
            if !others.is_empty() {
                <ul>{ for others.into_iter().map(|(o, w)| html! {
                    <li>{ format!("not used: {o}: {w}") }</li> }) }</ul>
            }
        </div>
    }
}
