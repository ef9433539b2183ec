//! The `allot/kubernetes` module's own exports: Kubernetes and Karmada objects in (YAML or JSON
//! text, objects, or a list of either), the scenario, the report, the whole schedule and the
//! binding out; a scenario back to objects; documents as YAML. The rules are allot-core's
//! (`kubernetes::{import, explain, export}`); this only translates.

use allot_core::error::{indexed, Error, ErrorCode, Path};
use allot_core::karmada::fleet::plan::Plan;
use allot_core::karmada::version::Version;
use allot_core::kubernetes::explain::explain as explain_objects;
use allot_core::kubernetes::export::export;
use allot_core::kubernetes::import::{import, Choice};
use allot_core::kubernetes::objects::{Object, Objects};
use allot_core::kubernetes::plan::{plan, Session, WhatIf};
use wasm_bindgen::prelude::*;

use crate::bindings::{draw_seed, from_js, text, text_of, to_error, utf8, wrong_type, Text};
use crate::yaml;

/// Objects from what JavaScript hands over: YAML or JSON text, an object (a `List` too), or
/// an array of objects and texts (several files). `at` prefixes error paths
/// (`members[0].objects`).
fn objects_of(value: &JsValue, at: &Path) -> Result<Vec<Object>, JsValue> {
    let within = |e: Error| to_error(e.within(at));
    if let Some(text) = value.dyn_ref::<js_sys::JsString>() {
        return yaml::objects(&utf8(text)).map_err(within);
    }
    if js_sys::Array::is_array(value) {
        let list = js_sys::Array::from(value);
        if list.iter().any(|v| v.is_string()) {
            let mut out = Vec::new();
            for (k, item) in list.iter().enumerate() {
                out.extend(objects_of(&item, &at.clone().index(k))?);
            }
            return Ok(out);
        }
    }
    let text = text_of(value, "objects")?;
    allot_core::json::from_json::<Objects>(&text)
        .map(|o| o.0)
        .map_err(within)
}

/// `{policy?, members?, karmada?}`: the name of the policy to use over the one Karmada's
/// detector would choose, each member cluster's own Nodes and Pods by cluster name (texts,
/// objects or lists, as for the objects), and the Karmada release the objects come from
/// (`"1.17"`; default the newest).
struct Options {
    policy: Option<String>,
    members: Vec<(String, Vec<Object>)>,
    karmada: Version,
}

fn options(value: &JsValue) -> Result<Options, JsValue> {
    let mut o = Options {
        policy: None,
        members: Vec::new(),
        karmada: Version::NEWEST,
    };
    if value.is_undefined() || value.is_null() {
        return Ok(o);
    }
    if !value.is_object() {
        return Err(wrong_type(
            "options: an object {policy, members, karmada}",
            value,
        ));
    }
    let get = |key: &str| js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let policy = get("policy");
    if let Some(name) = policy.as_string() {
        o.policy = Some(name);
    } else if !policy.is_undefined() && !policy.is_null() {
        return Err(wrong_type("options.policy: a policy's name", &policy));
    }
    let karmada = get("karmada");
    if let Some(text) = karmada.as_string() {
        o.karmada = Version::parse(&text).map_err(|reason| {
            to_error(Error::Input {
                field: "karmada".into(),
                code: ErrorCode::InvalidInput,
                reason,
            })
        })?;
    } else if !karmada.is_undefined() && !karmada.is_null() {
        return Err(wrong_type(
            "options.karmada: a Karmada release such as \"1.18\"",
            &karmada,
        ));
    }
    let members = get("members");
    if members.is_object() {
        let keys = js_sys::Object::keys(members.unchecked_ref::<js_sys::Object>());
        for (k, key) in keys.iter().enumerate() {
            let name = key.as_string().unwrap_or_default();
            let objects = js_sys::Reflect::get(&members, &key).unwrap_or(JsValue::UNDEFINED);
            let at = indexed("members", k).field("objects");
            o.members.push((name, objects_of(&objects, &at)?));
        }
    } else if !members.is_undefined() && !members.is_null() {
        return Err(wrong_type(
            "options.members: an object of cluster names to objects",
            &members,
        ));
    }
    Ok(o)
}

impl Options {
    /// Each member's objects, as [`Choice`] borrows them.
    fn members(&self) -> Vec<(&str, Vec<Object>)> {
        self.members
            .iter()
            .map(|(name, objects)| (name.as_str(), objects.clone()))
            .collect()
    }

    fn choice<'a>(&'a self, members: &'a [(&'a str, Vec<Object>)]) -> Choice<'a> {
        Choice {
            policy: self.policy.as_deref(),
            members,
            version: self.karmada,
        }
    }
}

/// Run `f` with the objects and the choice the options make.
fn with_objects<T>(
    input: &JsValue,
    opts: &JsValue,
    f: impl FnOnce(&[Object], &Choice<'_>) -> allot_core::Result<T>,
) -> Result<T, JsValue> {
    let objects = objects_of(input, &Path::root())?;
    let o = options(opts)?;
    let members = o.members();
    let choice = o.choice(&members);
    // A member's errors are located by its position among `members`' keys
    // (`members[0].objects[3].apiVersion`), and name the object.
    f(&objects, &choice).map_err(to_error)
}

/// Objects to `{scenario, report}` as JSON text's bytes.
#[wasm_bindgen(js_name = fromObjects)]
pub fn from_objects(input: JsValue, options: JsValue) -> Result<Text, JsValue> {
    text(Ok(with_objects(&input, &options, import)?))
}

/// Objects to `{scenario, report, outcome, binding, resourceBinding}`, each part written as
/// JSON text's bytes when JavaScript asks for it ([`Explanation::part`]). A given binding is
/// written back whole: its new `spec.clusters` and observed term over every field it came with.
#[wasm_bindgen]
pub fn explain(input: JsValue, options: JsValue) -> Result<Explanation, JsValue> {
    let seed = draw_seed();
    let explained = with_objects(&input, &options, |o, c| explain_objects(o, c, seed))?;
    let resource_binding = match explained.given_binding {
        Some(k) => {
            let given = originals(&input)?.into_iter().nth(k);
            written_over(given, &explained.resource_binding)
        }
        // As a generic value, written as before: its keys in order of name.
        None => serde_json::to_value(&explained.resource_binding)
            .map_err(|e| crate::bindings::coded_error("internal", "", &e.to_string()))?,
    };
    Ok(Explanation {
        explained,
        resource_binding,
    })
}

/// What [`explain`] computed, held until JavaScript has read the parts it asks for: the
/// scenario of a dump of 100,000 Clusters is 40 MB of JSON text and the whole schedule 120 MB,
/// so a caller that reads the placement alone neither writes nor parses the rest. The
/// package's `js/api.js` reads each part once, on first use, and frees the explanation when
/// it has read them all (or when the object is collected).
#[wasm_bindgen]
pub struct Explanation {
    explained: allot_core::kubernetes::explain::Explained,
    /// The ResourceBinding as written: the given one whole, if one was given.
    resource_binding: serde_json::Value,
}

#[wasm_bindgen]
impl Explanation {
    /// Part `k` of `{scenario, report, outcome, binding, resourceBinding}` (in that order) as
    /// JSON text's bytes.
    pub fn part(&self, k: u32) -> Result<Text, JsValue> {
        let e = &self.explained;
        match k {
            0 => text(Ok(&e.scenario)),
            1 => text(Ok(&e.report)),
            2 => text(Ok(&e.outcome)),
            3 => text(Ok(&e.binding)),
            _ => text(Ok(&self.resource_binding)),
        }
    }
}

/// Objects (a whole dump) and what-ifs to the plan: `{steps, bindings, clusters, summary,
/// report, resourceBindings}` as JSON text's bytes. `what_if` is [`WhatIf`]'s fields
/// (`clusterDown`, `cordon`, `scale`, ...) plus `addClusters` and `apply`: objects, as for the
/// input; absent or empty: the drift of today's bindings.
#[wasm_bindgen(js_name = planFleet)]
pub fn plan_fleet(input: JsValue, options: JsValue, what_if: JsValue) -> Result<Text, JsValue> {
    let (what, added, applied) = what_ifs(&what_if)?;
    text(Ok(with_objects(&input, &options, |o, c| {
        plan(o, c, &what, &added, &applied)
    })?))
}

/// [`WhatIf`] and the objects of `addClusters` and `apply` from what JavaScript hands over.
fn what_ifs(what_if: &JsValue) -> Result<(WhatIf, Vec<Object>, Vec<Object>), JsValue> {
    let mut what = WhatIf::default();
    let mut added = Vec::new();
    let mut applied = Vec::new();
    let mut deleted = Vec::new();
    if what_if.is_undefined() || what_if.is_null() {
        return Ok((what, added, applied));
    }
    if !what_if.is_object() || js_sys::Array::is_array(what_if) {
        return Err(wrong_type(
            "whatIf: an object {clusterDown, cordon, ...}",
            what_if,
        ));
    }
    let rest = js_sys::Object::assign(&js_sys::Object::new(), what_if.unchecked_ref());
    for (key, into) in [
        ("addClusters", &mut added),
        ("apply", &mut applied),
        ("delete", &mut deleted),
    ] {
        let value = js_sys::Reflect::get(&rest, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if !value.is_undefined() && !value.is_null() {
            *into = objects_of(&value, &Path::fields(key))?;
        }
        let _ = js_sys::Reflect::delete_property(&rest, &key.into());
    }
    what = from_js(rest.into(), "whatIf")?;
    // `delete`: policies by object, as `deletePolicy` names them.
    let named = allot_core::kubernetes::plan::policy_names(&deleted).map_err(to_error)?;
    what.delete_policy.extend(named);
    Ok((what, added, applied))
}

/// A fleet kept in the module between what-ifs (the playground's fleet view): the dump read
/// once, then each what-if planned against the fleet as the applied ones left it, and a
/// history to go back and forth in. The rules are allot-core's
/// (`kubernetes::plan::Session`).
#[wasm_bindgen]
pub struct FleetSession {
    options: Options,
    /// The fleet as read, then after each applied what-if.
    history: Vec<Session>,
    /// The position in `history` of the fleet as it is now.
    at: usize,
}

impl FleetSession {
    fn now(&self) -> Result<&Session, JsValue> {
        self.history
            .get(self.at)
            .ok_or_else(|| crate::bindings::coded_error("internal", "", "no fleet"))
    }

    /// Plan `what_if` over the fleet as it is now: the plan (the bindings it touched) and
    /// the session after it. `progress`, when given, is called with `(done, total)`: the
    /// bindings the scheduler has taken of those waiting, at each hundredth and at the end.
    fn step(
        &self,
        what_if: &JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<(Plan, Session), JsValue> {
        let (what, added, applied) = what_ifs(what_if)?;
        let members = self.options.members();
        let choice = self.options.choice(&members);
        let mut last = usize::MAX;
        let mut report = |done: usize, total: usize| {
            let Some(f) = &progress else { return };
            let hundredth = done * 100 / total.max(1);
            if hundredth != last || done == total {
                last = hundredth;
                // What the callback throws does not stop the plan.
                let _ = f.call2(&JsValue::NULL, &done.into(), &total.into());
            }
        };
        self.now()?
            .plan_reporting(&choice, &what, &added, &applied, &mut report)
            .map(|(p, s)| (p.touched(), s))
            .map_err(to_error)
    }
}

#[wasm_bindgen]
impl FleetSession {
    /// Read a dump (objects as for `planFleet`) under `options`.
    #[wasm_bindgen(constructor)]
    pub fn new(input: JsValue, options: JsValue) -> Result<FleetSession, JsValue> {
        let objects = objects_of(&input, &Path::root())?;
        let o = self::options(&options)?;
        let members = o.members();
        let session = Session::read(objects, &o.choice(&members)).map_err(to_error)?;
        Ok(FleetSession {
            options: o,
            history: vec![session],
            at: 0,
        })
    }

    /// The plan of `what_if` over the fleet as it is now, the fleet left as it is:
    /// `{steps, bindings, clusters, summary}` as JSON text's bytes, without the bindings the
    /// what-if did not concern ([`Plan::touched`]).
    /// `progress(done, total)`, when given, follows the scheduler through the fleet.
    pub fn plan(
        &self,
        what_if: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Text, JsValue> {
        text(Ok(self.step(&what_if, progress)?.0))
    }

    /// [`FleetSession::plan`], and the fleet after it becomes the fleet as it is: a step of
    /// the history (the steps after the current one are dropped).
    pub fn apply(
        &mut self,
        what_if: JsValue,
        progress: Option<js_sys::Function>,
    ) -> Result<Text, JsValue> {
        let (plan, next) = self.step(&what_if, progress)?;
        self.history.truncate(self.at + 1);
        self.history.push(next);
        self.at = self.history.len() - 1;
        text(Ok(plan))
    }

    /// Make step `k` of the history (0: the dump as read) the fleet as it is; false when
    /// there is no such step.
    pub fn go(&mut self, k: usize) -> bool {
        let there = k < self.history.len();
        if there {
            self.at = k;
        }
        there
    }

    /// The position of the fleet as it is in the history.
    #[wasm_bindgen(getter)]
    pub fn at(&self) -> usize {
        self.at
    }

    /// How many fleets the history holds (the dump as read, then one per applied what-if).
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> usize {
        self.history.len()
    }

    /// The fleet as it is: `{clusters, bindings}` (each cluster's health, taints, labels,
    /// load and capacity; each binding's workload, policy and placement) as JSON text's bytes.
    pub fn state(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.state()))
    }

    /// Every cluster as it is (`state()`'s clusters) as JSON text's bytes: after an applied
    /// what-if, with its plan's bindings, what changed.
    pub fn clusters(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.clusters()))
    }

    /// How the dump was read (`{clusters, problems}`) as JSON text's bytes.
    pub fn report(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.report()))
    }

    /// The PropagationPolicies and ClusterPropagationPolicies as they are now (the dump's,
    /// with those applied since), as allot reads them, as JSON text's bytes.
    pub fn policies(&self) -> Result<Text, JsValue> {
        text(Ok(self.now()?.policies()))
    }
}

/// The objects of `value` as generic values, in the order [`objects_of`] reads them.
fn originals(value: &JsValue) -> Result<Vec<serde_json::Value>, JsValue> {
    if let Some(text) = value.dyn_ref::<js_sys::JsString>() {
        return yaml::values(&utf8(text)).map_err(to_error);
    }
    if js_sys::Array::is_array(value) {
        let list = js_sys::Array::from(value);
        if list.iter().any(|v| v.is_string()) {
            let mut out = Vec::new();
            for item in list.iter() {
                out.extend(originals(&item)?);
            }
            return Ok(out);
        }
    }
    yaml::values(&text_of(value, "objects")?).map_err(to_error)
}

/// The binding `written` made of a `given` one: the given object with the fields a schedule
/// writes (`spec.clusters`, `status.schedulerObservingAffinityName`) taken from `written`,
/// every other field as given, those allot does not read too.
pub fn written_over(
    given: Option<serde_json::Value>,
    written: &allot_core::kubernetes::objects::Object,
) -> serde_json::Value {
    use serde_json::Value;
    let mut out = match given {
        Some(Value::Object(o)) => o,
        _ => return serde_json::to_value(written).unwrap_or(Value::Null),
    };
    let mut set = |section: &str, key: &str, value: Option<Value>| {
        let part = out
            .entry(section)
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Value::Object(part) = part {
            match value {
                Some(v) => part.insert(key.into(), v),
                None => part.remove(key),
            };
        }
    };
    let clusters = &written.spec.clusters;
    set(
        "spec",
        "clusters",
        (!clusters.is_empty()).then(|| serde_json::to_value(clusters).unwrap_or_default()),
    );
    let observed = &written.status.scheduler_observing_affinity_name;
    set(
        "status",
        "schedulerObservingAffinityName",
        (!observed.is_empty()).then(|| Value::String(observed.clone())),
    );
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_binding_keeps_every_field_allot_does_not_read() {
        let given = r#"{"apiVersion": "work.karmada.io/v1alpha2", "kind": "ResourceBinding",
          "metadata": {"name": "nginx-deployment", "namespace": "default", "resourceVersion": "7",
            "finalizers": ["karmada.io/binding-controller"]},
          "spec": {"replicas": 3, "resource": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "nginx"},
            "clusters": [{"name": "member1", "replicas": 3}],
            "gracefulEvictionTasks": [{"fromCluster": "member1", "replicas": 2,
              "reason": "TaintUntolerated", "producer": "TaintManager"}],
            "failover": {"application": {"decisionConditions": {"tolerationSeconds": 30}}}},
          "status": {"conditions": [{"type": "Scheduled", "status": "True", "reason": "Success",
            "message": "Binding has been scheduled successfully."}]}}"#;
        let mut written = yaml::objects(given).unwrap().remove(0);
        written.spec.clusters = vec![allot_core::kubernetes::karmada::TargetCluster {
            name: "member2".into(),
            replicas: 3,
        }];
        let original: serde_json::Value = serde_json::from_str(given).unwrap();
        let out = written_over(Some(original.clone()), &written);
        assert_eq!(
            out["spec"]["clusters"],
            serde_json::json!([{"name": "member2", "replicas": 3}])
        );
        let mut expected = original;
        expected["spec"]["clusters"] = out["spec"]["clusters"].clone();
        assert_eq!(out, expected, "every other field as given");
        assert_eq!(
            out["spec"]["gracefulEvictionTasks"][0]["producer"],
            "TaintManager"
        );
    }
}

/// A Karmada scenario to `{objects, members, unexpressed}` as JSON text's bytes.
#[wasm_bindgen(js_name = toObjects)]
pub fn to_objects(scenario: JsValue) -> Result<Text, JsValue> {
    let s = from_js(scenario, "a scenario")?;
    text(export(&s))
}

/// One value written as YAML or JSON, as JSON text (`null` for empty text).
#[wasm_bindgen(js_name = fromYaml)]
pub fn from_yaml(text: &str) -> Result<String, JsValue> {
    yaml::value(text).map_err(to_error)
}

/// Documents as YAML text: an array is one document per item, anything else one document.
#[wasm_bindgen(js_name = toYaml)]
pub fn to_yaml(documents: JsValue) -> Result<String, JsValue> {
    let many = js_sys::Array::is_array(&documents);
    let value: serde_json::Value = from_js(documents, "documents")?;
    let list = match value {
        serde_json::Value::Array(items) if many => items,
        one => vec![one],
    };
    yaml::to_yaml(&list).map_err(to_error)
}

/// A Karmada scenario's schedule as the binding it writes: `{binding, resourceBinding}` as
/// JSON text's bytes. `template` (`{name, namespace}`, optional) names the template the
/// binding is for (else `workload` in `default`).
#[wasm_bindgen(js_name = bindingOf)]
pub fn binding_of(scenario: JsValue, template: JsValue) -> Result<Text, JsValue> {
    let s: allot_core::scenario::Scenario = from_js(scenario, "a scenario")?;
    let get = |key: &str| {
        js_sys::Reflect::get(&template, &key.into())
            .ok()
            .and_then(|v| v.as_string())
            .filter(|v| !v.is_empty())
    };
    let mut resource = allot_core::kubernetes::export::reference(&s);
    if template.is_object() {
        if let Some(name) = get("name") {
            resource.name = name;
        }
        if let Some(namespace) = get("namespace") {
            resource.namespace = namespace;
        }
    }
    let seed = draw_seed();
    text(allot_core::kubernetes::explain::written(
        &s,
        Some(resource),
        seed,
    ))
}
