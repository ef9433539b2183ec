//! A PropagationPolicy or ClusterPropagationPolicy of the fleet edited in a form: its cluster
//! affinity (cluster names, label selector), replica scheduling type and division
//! preference, static weights per cluster or dynamic weight, spread constraints by field
//! (minimum and maximum groups) and cluster tolerations; the object it makes shown as YAML and
//! applied as `kubectl apply` would (docs/rules/fleet.md §27: the bindings it claims are
//! placed again). Every other field of the policy is kept as the fleet has it.

use std::rc::Rc;

use serde_json::{json, Value};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::form::{self, Problems};
use super::Ask;

/// The spread constraints' fields, as `spreadByField` names them.
const SPREAD: [&str; 4] = ["cluster", "region", "zone", "provider"];

/// `PropagationPolicy shop/web`: how the page names a policy.
pub fn title(p: &Value) -> String {
    let s = |k: &str| p["metadata"][k].as_str().unwrap_or("").to_string();
    let kind = p["kind"].as_str().unwrap_or("");
    if s("namespace").is_empty() {
        format!("{kind} {}", s("name"))
    } else {
        format!("{kind} {}/{}", s("namespace"), s("name"))
    }
}

/// The form's fields as typed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub names: String,
    pub labels: String,
    pub kind: String,
    pub preference: String,
    /// `static`, `dynamic` or empty (equal weights).
    pub weights: String,
    pub static_weights: String,
    /// Minimum and maximum groups per [`SPREAD`] field.
    pub spread: [(String, String); 4],
    pub tolerations: String,
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

impl Draft {
    /// The form as `policy` fills it.
    pub fn of(policy: &Value) -> Draft {
        let placement = &policy["spec"]["placement"];
        let affinity = &placement["clusterAffinity"];
        let names = affinity["clusterNames"]
            .as_array()
            .map(|a| a.iter().map(text).collect::<Vec<_>>().join(", "))
            .unwrap_or_default();
        let scheduling = &placement["replicaScheduling"];
        let weight = &scheduling["weightPreference"];
        let statics: Vec<String> = weight["staticWeightList"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|w| {
                let weight = text(&w["weight"]);
                w["targetCluster"]["clusterNames"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(move |c| format!("{}={weight}", text(c)))
            })
            .collect();
        let mut spread: [(String, String); 4] = Default::default();
        for c in placement["spreadConstraints"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let field = c["spreadByField"].as_str().unwrap_or("");
            if let Some(k) = SPREAD.iter().position(|f| *f == field) {
                spread[k] = (text(&c["minGroups"]), text(&c["maxGroups"]));
            }
        }
        Draft {
            names,
            labels: form::pairs_text(affinity["labelSelector"].get("matchLabels")),
            kind: scheduling["replicaSchedulingType"]
                .as_str()
                .unwrap_or("Duplicated")
                .into(),
            preference: text(&scheduling["replicaDivisionPreference"]),
            weights: if !statics.is_empty() {
                "static".into()
            } else if weight.get("dynamicWeight").is_some() {
                "dynamic".into()
            } else {
                String::new()
            },
            static_weights: statics.join(", "),
            spread,
            tolerations: placement["clusterTolerations"]
                .as_array()
                .map(|t| form::marks_text(t))
                .unwrap_or_default(),
        }
    }

    /// `policy` with the form's fields, or each problem at its field.
    pub fn edited(&self, policy: &Value) -> Result<Value, Problems> {
        let mut problems = Problems::new();
        let mut p = policy.clone();
        let placement = &mut p["spec"]["placement"];
        if !placement.is_object() {
            *placement = json!({});
        }
        // Cluster affinity: names and matchLabels; its other fields kept.
        let names = form::names(&self.names);
        let labels = form::pairs(&self.labels).unwrap_or_else(|why| {
            problems.push(("fleet-policy-labels", why));
            Default::default()
        });
        let mut affinity = object(placement.get("clusterAffinity"));
        set(
            &mut affinity,
            "clusterNames",
            (!names.is_empty()).then(|| json!(names)),
        );
        let mut selector = object(affinity.get("labelSelector"));
        set(
            &mut selector,
            "matchLabels",
            (!labels.is_empty()).then(|| Value::Object(labels)),
        );
        let selector = (selector.as_object().is_some_and(|s| !s.is_empty())).then_some(selector);
        set(&mut affinity, "labelSelector", selector);
        let affinity = (affinity.as_object().is_some_and(|a| !a.is_empty())).then_some(affinity);
        set(placement, "clusterAffinity", affinity);
        // Replica scheduling.
        let mut scheduling = json!({ "replicaSchedulingType": self.kind });
        if self.kind == "Divided" {
            if !self.preference.is_empty() {
                scheduling["replicaDivisionPreference"] = self.preference.clone().into();
            }
            if self.preference == "Weighted" {
                match self.weights.as_str() {
                    "dynamic" => {
                        scheduling["weightPreference"] =
                            json!({"dynamicWeight": "AvailableReplicas"});
                    }
                    "static" => match static_weights(&self.static_weights) {
                        Ok(list) => {
                            scheduling["weightPreference"] = json!({ "staticWeightList": list });
                        }
                        Err(why) => problems.push(("fleet-policy-weights", why)),
                    },
                    _ => {}
                }
            }
        }
        placement["replicaScheduling"] = scheduling;
        // Spread constraints by field; those by label kept.
        let mut spread: Vec<Value> = placement["spreadConstraints"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c.get("spreadByLabel").is_some())
            .cloned()
            .collect();
        for (k, field) in SPREAD.iter().enumerate() {
            let (min, max) = &self.spread[k];
            if min.trim().is_empty() && max.trim().is_empty() {
                continue;
            }
            let mut c = json!({ "spreadByField": field });
            for (key, value, id) in [
                ("minGroups", min, SPREAD_IDS[k].0),
                ("maxGroups", max, SPREAD_IDS[k].1),
            ] {
                let value = value.trim();
                if value.is_empty() {
                    continue;
                }
                match value.parse::<u32>() {
                    Ok(n) => c[key] = n.into(),
                    Err(_) => problems.push((id, format!("{value:?}: a whole number"))),
                }
            }
            spread.push(c);
        }
        set(
            placement,
            "spreadConstraints",
            (!spread.is_empty()).then(|| json!(spread)),
        );
        match form::tolerations(&self.tolerations) {
            Ok(t) => set(
                placement,
                "clusterTolerations",
                (!t.is_empty()).then(|| json!(t)),
            ),
            Err(why) => problems.push(("fleet-policy-tolerations", why)),
        }
        if problems.is_empty() {
            prune(&mut p);
            Ok(p)
        } else {
            Err(problems)
        }
    }
}

/// The ids of each spread field's inputs: (minimum, maximum).
const SPREAD_IDS: [(&str, &str); 4] = [
    (
        "fleet-policy-spread-cluster-min",
        "fleet-policy-spread-cluster-max",
    ),
    (
        "fleet-policy-spread-region-min",
        "fleet-policy-spread-region-max",
    ),
    (
        "fleet-policy-spread-zone-min",
        "fleet-policy-spread-zone-max",
    ),
    (
        "fleet-policy-spread-provider-min",
        "fleet-policy-spread-provider-max",
    ),
];

/// `v` if it is an object, else an empty one (a field the fleet writes as `null`).
fn object(v: Option<&Value>) -> Value {
    v.filter(|v| v.is_object()).cloned().unwrap_or(json!({}))
}

/// Every `null` field removed, as Kubernetes reads a field that is null: absent.
fn prune(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(prune);
        }
        Value::Array(a) => a.iter_mut().for_each(prune),
        _ => {}
    }
}

/// `key` of `object` set to `value`, or removed.
fn set(object: &mut Value, key: &str, value: Option<Value>) {
    let Some(m) = object.as_object_mut() else {
        return;
    };
    match value {
        Some(v) => {
            m.insert(key.into(), v);
        }
        None => {
            m.remove(key);
        }
    }
}

/// `member1=1, member2=2` as a static weight list, one cluster per entry.
fn static_weights(text: &str) -> Result<Vec<Value>, String> {
    let pairs = form::pairs(text)?;
    if pairs.is_empty() {
        return Err("a weight per cluster: member1=1, member2=2".into());
    }
    pairs
        .into_iter()
        .map(|(cluster, w)| {
            let w = w.as_str().unwrap_or("");
            let weight: u32 = w
                .parse()
                .map_err(|_| format!("{cluster}={w}: a whole number weight"))?;
            Ok(json!({"targetCluster": {"clusterNames": [cluster]}, "weight": weight}))
        })
        .collect()
}

#[derive(Properties, PartialEq)]
pub struct PolicyFormProps {
    pub ask: Ask,
    pub policies: Rc<Vec<Value>>,
}

/// The form: pick a policy, edit, read the YAML, apply.
#[function_component(PolicyForm)]
pub fn policy_form(p: &PolicyFormProps) -> Html {
    let chosen = use_state(|| None::<usize>);
    let draft = use_state(Draft::default);
    let problems = use_state(Problems::new);
    // The form follows the fleet: when its policies change (another fleet loaded, a policy
    // applied), the chosen policy is read again from them by its name, or none is chosen.
    let picked = use_mut_ref(|| None::<String>);
    {
        let (chosen, draft, problems) = (chosen.clone(), draft.clone(), problems.clone());
        let picked = picked.clone();
        use_effect_with(p.policies.clone(), move |policies| {
            let named = picked.borrow().clone();
            let k = named.and_then(|n| policies.iter().position(|q| title(q) == n));
            *picked.borrow_mut() = k.and_then(|k| policies.get(k)).map(title);
            match k.and_then(|k| policies.get(k)) {
                Some(policy) => draft.set(Draft::of(policy)),
                None => draft.set(Draft::default()),
            }
            problems.set(Problems::new());
            chosen.set(k);
        });
    }
    let policy = chosen.and_then(|k| p.policies.get(k)).cloned();
    let edited = policy.as_ref().map(|policy| draft.edited(policy));
    // The edited policy as YAML, written here: the page does not load the Kubernetes module.
    let yaml = match &edited {
        Some(Ok(object)) => serde_saphyr::to_string(object).unwrap_or_else(|e| format!("# {e}")),
        _ => String::new(),
    };
    let on_pick = {
        let (chosen, draft, problems, policies) = (
            chosen.clone(),
            draft.clone(),
            problems.clone(),
            p.policies.clone(),
        );
        let picked = picked.clone();
        Callback::from(move |e: Event| {
            let s: HtmlSelectElement = e.target_unchecked_into();
            let k = s.value().parse::<usize>().ok();
            *picked.borrow_mut() = k.and_then(|k| policies.get(k)).map(title);
            if let Some(policy) = k.and_then(|k| policies.get(k)) {
                draft.set(Draft::of(policy));
            }
            problems.set(Problems::new());
            chosen.set(k);
        })
    };
    let set = |edit: fn(&mut Draft, String)| form::setter(&draft, edit);
    let on_apply = {
        let (ask, problems, edited, policy) = (
            p.ask.clone(),
            problems.clone(),
            edited.clone(),
            policy.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match (&edited, &policy) {
                (Some(Ok(object)), Some(policy)) => {
                    problems.set(Problems::new());
                    ask.apply(
                        format!("{} edited", title(policy)),
                        json!({ "apply": [object] }),
                    );
                }
                (Some(Err(found)), _) => problems.set(found.clone()),
                _ => {}
            }
        })
    };
    let d = &*draft;
    // Problems shown once Apply is pressed, and while they last.
    let shown: Problems = match &edited {
        Some(Err(found)) if !problems.is_empty() => found.clone(),
        _ => Problems::new(),
    };
    let at = |id| form::at(&shown, id);
    let divided = d.kind == "Divided";
    let weighted = divided && d.preference == "Weighted";
    html! {
        <details class="fleet-policy fleet-form">
            <summary>{ "Edit a policy in a form" }</summary>
            <form id="fleet-policy-form" onsubmit={on_apply} novalidate=true>
                <div class="fleet-field">
                    <label for="fleet-policy-pick">{ "Policy" }</label>
                    <select id="fleet-policy-pick" onchange={on_pick}>
                        <option value="" selected={chosen.is_none()}>{ "Choose a policy…" }</option>
                        { for p.policies.iter().enumerate().map(|(k, policy)| html! {
                            <option value={k.to_string()} selected={*chosen == Some(k)}>{ title(policy) }</option> }) }
                    </select>
                </div>
                if policy.is_some() {
                    <fieldset>
                        <legend>{ "Cluster affinity" }</legend>
                        <div class="fleet-fields">
                            { form::input("fleet-policy-names", "Cluster names", &d.names, "member1, member2", None, set(|d, v| d.names = v)) }
                            { form::input("fleet-policy-labels", "Label selector (matchLabels)", &d.labels, "region=eu", at("fleet-policy-labels"), set(|d, v| d.labels = v)) }
                        </div>
                    </fieldset>
                    <fieldset>
                        <legend>{ "Replica scheduling" }</legend>
                        <div class="fleet-fields">
                            { form::select("fleet-policy-type", "Type", &d.kind, &[("Duplicated", "Duplicated"), ("Divided", "Divided")], set(|d, v| d.kind = v)) }
                            if divided {
                                { form::select("fleet-policy-preference", "Division preference", &d.preference,
                                    &[("", "none"), ("Aggregated", "Aggregated"), ("Weighted", "Weighted")], set(|d, v| d.preference = v)) }
                            }
                            if weighted {
                                { form::select("fleet-policy-weight", "Weights", &d.weights,
                                    &[("", "equal"), ("static", "static, per cluster"), ("dynamic", "dynamic: available replicas")], set(|d, v| d.weights = v)) }
                            }
                            if weighted && d.weights == "static" {
                                { form::input("fleet-policy-weights", "Static weights", &d.static_weights, "member1=1, member2=2", at("fleet-policy-weights"), set(|d, v| d.static_weights = v)) }
                            }
                        </div>
                    </fieldset>
                    <fieldset>
                        <legend>{ "Spread constraints: minimum and maximum groups" }</legend>
                        <div class="fleet-fields spread">
                            { for SPREAD.iter().enumerate().map(|(k, field)| {
                                let (min, max) = &d.spread[k];
                                let on = |max: bool| form::setter(&draft, move |d: &mut Draft, v| {
                                    if max { d.spread[k].1 = v } else { d.spread[k].0 = v }
                                });
                                html! {
                                    <>
                                    { form::input(SPREAD_IDS[k].0, &format!("{field}: min"), min, "", at(SPREAD_IDS[k].0), on(false)) }
                                    { form::input(SPREAD_IDS[k].1, &format!("{field}: max"), max, "", at(SPREAD_IDS[k].1), on(true)) }
                                    </>
                                }
                            }) }
                        </div>
                    </fieldset>
                    { form::input("fleet-policy-tolerations", "Cluster tolerations", &d.tolerations, "dedicated=gpu:NoSchedule", at("fleet-policy-tolerations"), set(|d, v| d.tolerations = v)) }
                    <h3 id="fleet-policy-yaml-heading">{ "The policy it makes" }</h3>
                    <pre id="fleet-policy-yaml" class="fleet-yaml" tabindex="0" aria-labelledby="fleet-policy-yaml-heading">{ yaml }</pre>
                    <button type="submit" id="fleet-policy-apply">{ "Apply the policy" }</button>
                }
            </form>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Value {
        json!({
            "apiVersion": "policy.karmada.io/v1alpha1", "kind": "PropagationPolicy",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {
                "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}],
                "placement": {
                    "clusterAffinity": {"clusterNames": ["member1", "member2"],
                        "labelSelector": {"matchExpressions": [{"key": "env", "operator": "Exists"}]}},
                    "replicaScheduling": {"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Weighted",
                        "weightPreference": {"staticWeightList": [
                            {"targetCluster": {"clusterNames": ["member1"]}, "weight": 1},
                            {"targetCluster": {"clusterNames": ["member2"]}, "weight": 2}]}},
                    "spreadConstraints": [{"spreadByField": "region", "minGroups": 1, "maxGroups": 2},
                        {"spreadByLabel": "tier", "maxGroups": 1}]
                }
            }
        })
    }

    #[test]
    fn a_policy_unedited_is_the_policy() {
        let p = policy();
        let d = Draft::of(&p);
        assert_eq!(d.names, "member1, member2");
        assert_eq!(d.static_weights, "member1=1, member2=2");
        assert_eq!(d.spread[1], ("1".into(), "2".into()));
        let mut back = d.edited(&p).expect("valid");
        // The spread constraints by label come first, then those by field.
        let spread = back["spec"]["placement"]["spreadConstraints"].take();
        let mut want = p.clone();
        let want_spread = want["spec"]["placement"]["spreadConstraints"].take();
        assert_eq!(back, want);
        assert_eq!(spread.as_array().map(Vec::len), Some(2));
        assert!(spread
            .as_array()
            .unwrap()
            .iter()
            .all(|c| want_spread.as_array().unwrap().contains(c)));
    }

    #[test]
    fn edits_land_in_the_placement() {
        let p = policy();
        let d = Draft {
            names: "member1".into(),
            labels: "region=eu".into(),
            kind: "Divided".into(),
            preference: "Aggregated".into(),
            tolerations: "dedicated=gpu:NoSchedule".into(),
            ..Draft::of(&p)
        };
        let e = d.edited(&p).expect("valid");
        let placement = &e["spec"]["placement"];
        // As the fleet writes an absent selector: null, which the form fills.
        let mut nulls = p.clone();
        nulls["spec"]["placement"]["clusterAffinity"]["labelSelector"] = Value::Null;
        nulls["spec"]["placement"]["clusterAffinity"]["fieldSelector"] = Value::Null;
        let filled = d.edited(&nulls).expect("valid");
        assert_eq!(
            filled["spec"]["placement"]["clusterAffinity"]["labelSelector"],
            json!({"matchLabels": {"region": "eu"}})
        );
        assert!(filled["spec"]["placement"]["clusterAffinity"]
            .get("fieldSelector")
            .is_none());
        assert_eq!(
            placement["clusterAffinity"]["clusterNames"],
            json!(["member1"])
        );
        assert_eq!(
            placement["clusterAffinity"]["labelSelector"],
            json!({"matchExpressions": [{"key": "env", "operator": "Exists"}], "matchLabels": {"region": "eu"}})
        );
        assert_eq!(
            placement["replicaScheduling"],
            json!({"replicaSchedulingType": "Divided", "replicaDivisionPreference": "Aggregated"})
        );
        assert_eq!(placement["clusterTolerations"][0]["operator"], "Equal");
        assert_eq!(
            e["spec"]["resourceSelectors"],
            p["spec"]["resourceSelectors"]
        );
        let bad = Draft {
            static_weights: "member1=heavy".into(),
            spread: [
                (String::new(), String::new()),
                ("one".into(), String::new()),
                Default::default(),
                Default::default(),
            ],
            ..Draft::of(&p)
        };
        let fields: Vec<&str> = bad
            .edited(&p)
            .expect_err("invalid")
            .into_iter()
            .map(|(f, _)| f)
            .collect();
        assert_eq!(
            fields,
            ["fleet-policy-weights", "fleet-policy-spread-region-min"]
        );
    }
}
